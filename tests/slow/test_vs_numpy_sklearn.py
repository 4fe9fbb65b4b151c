#!/usr/bin/env python3
"""Slow checks against independent references: large kernel blocks against
numpy, and k-means against scikit-learn's KMeans on the Letter data."""
import os
import sys
import unittest

import numpy as np
from scipy.spatial.distance import cdist
from sklearn.cluster import KMeans
from threadpoolctl import threadpool_limits

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from kmx_ctypes import Kmx  # noqa: E402

LIBRARY = sys.argv.pop(1)
DATA = sys.argv.pop(1)
kmx = Kmx(LIBRARY)


class KernelBlocksAgainstNumpy(unittest.TestCase):
    def setUp(self):
        self.ctx = kmx.context("threads=2")
        rng = np.random.default_rng(7)
        self.a = rng.random((1537, 784))
        self.b = rng.random((1023, 784))

    def tearDown(self):
        kmx.lib.kmx_context_free(self.ctx)

    def compare(self, params, expected, rtol=1e-12, atol=1e-300):
        got = kmx.kernel_block(self.ctx, params, self.a, self.b)
        np.testing.assert_allclose(got, expected, rtol=rtol, atol=atol)

    def test_rbf(self):
        gamma = 0.01  # values from about e^-2 down to e^-1.1: the interesting range
        self.compare(f"kernel=rbf gamma={gamma}", np.exp(-gamma * cdist(self.a, self.b, "sqeuclidean")),
                     rtol=1e-11)

    def test_laplacian(self):
        gamma = 0.003
        self.compare(f"kernel=laplacian gamma={gamma}", np.exp(-gamma * cdist(self.a, self.b, "cityblock")))

    def test_polynomial(self):
        self.compare("kernel=polynomial gamma=0.002 coef0=1 degree=3", (0.002 * self.a @ self.b.T + 1) ** 3)

    def test_sigmoid(self):
        # gamma*a.b + coef0 cancels near 0, so only an absolute bound (a few ulps of
        # gamma*a.b ~ 0.1) is meaningful there.
        self.compare("kernel=sigmoid gamma=0.0005 coef0=-0.1", np.tanh(0.0005 * self.a @ self.b.T - 0.1),
                     atol=1e-15)


class KMeansAgainstScikitLearn(unittest.TestCase):
    def test_letter_objective_matches_sklearn(self):
        ctx = kmx.context("threads=1 seed=0")
        ds, x = kmx.load(ctx, os.path.join(DATA, "letter_mc.train.libsvm"))
        k, seeds = 26, range(5)
        ours = []
        for seed in seeds:
            kmx.check(kmx.lib.kmx_context_set_params(ctx, f"seed={seed}".encode()))
            centers, assignment, objective = kmx.kmeans(ctx, ds, x.shape[0], x.shape[1], k, "max_iter=300 tol=0")
            # The objective is what it claims, and every row sits at its nearest center.
            distances = cdist(x, centers, "sqeuclidean")
            self.assertAlmostEqual(objective, distances[np.arange(len(x)), assignment].sum(), delta=1e-9 * objective)
            np.testing.assert_array_equal(assignment, distances.argmin(axis=1))
            ours.append(objective)
        with threadpool_limits(1):
            theirs = [KMeans(k, n_init=1, init="k-means++", algorithm="lloyd", max_iter=300, tol=0,
                             random_state=seed).fit(x).inertia_ for seed in seeds]
        print(f"kmx objectives {np.round(ours, 2)}, scikit-learn {np.round(theirs, 2)}")
        # Local optima differ by seed; on average kmx must be as good as sklearn (within 1%).
        self.assertLess(np.mean(ours), 1.01 * np.mean(theirs))
        kmx.lib.kmx_dataset_free(ds)
        kmx.lib.kmx_context_free(ctx)


if __name__ == "__main__":
    unittest.main(verbosity=2)
