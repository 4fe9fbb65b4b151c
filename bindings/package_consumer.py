"""What the package tests' consumer projects (java/maven/consumer: test java_maven; csharp/nuget/consumer: test
csharp_nuget) compute, the closed form their output must equal, and the tests' temporary folder.

Each trains exact kernel ridge regression on the two rows X with targets Y (RBF kernel of GAMMA; kmx solves
(K + n LAMBDA I) alpha = y, with no bias) and prints its prediction at each of QUERIES as "WHO Q VALUE" lines,
WHO naming what predicted (the model, or kmx-infer's predictor)."""
import math
import os
import re
import tempfile
import unittest

X, Y = [(0.0, 0.0), (1.0, 0.0)], [1.0, -0.5]
GAMMA, LAMBDA = 0.5, 0.05
QUERIES = [(0.25, 0.5), (2.0, -1.0)]


def package_test_folder():
    """The temporary folder of a package test (setUpClass), or unittest.SkipTest in the sanitizer runs
    (KMX_TEST_PRELOAD in the 'asan' setup, libasan in LD_PRELOAD in 'asanhosts'): an instrumented libkmx loads
    only with the ASan runtime preloaded, as no user's program does."""
    if os.environ.get("KMX_TEST_PRELOAD") or "libasan" in os.environ.get("LD_PRELOAD", ""):
        raise unittest.SkipTest("sanitizer build: not what a user installs")
    return tempfile.TemporaryDirectory()


def rbf(a, b):
    return math.exp(-GAMMA * sum((u - v) ** 2 for u, v in zip(a, b)))


def closed_form_krr(query):
    """f(q) = k(q)^T (K + 2 lambda I)^-1 y for the two rows: the 2 x 2 inverse written out."""
    shift, k = 2 * LAMBDA, rbf(X[0], X[1])
    det = (1 + shift) ** 2 - k * k
    alpha = [((1 + shift) * Y[0] - k * Y[1]) / det, ((1 + shift) * Y[1] - k * Y[0]) / det]
    return alpha[0] * rbf(query, X[0]) + alpha[1] * rbf(query, X[1])


def predictions(output, who):
    """{(WHO, Q): VALUE} from a consumer's output, for each name in `who`."""
    pattern = r"^(%s) (\d+) (\S+)$" % "|".join(who)
    return {(name, int(q)): float(value) for name, q, value in re.findall(pattern, output, re.M)}
