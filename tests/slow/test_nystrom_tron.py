#!/usr/bin/env python3
"""Nyström-TRON (method=nystrom_tron) against independent references:

- its optimum against scipy.optimize.minimize on the same objective,
  ½βᵀKβ + C Σ ℓ(y_i, (Kβ)_i), with every training row a basis point (m = n,
  so the fitted function is unique whatever order kmx takes the basis in);
- its accuracy on Letter against scikit-learn's Nystroem(m) + LinearSVC
  (the same squared-hinge primal, on the explicit features K_nB K_BB^{-1/2}).
"""
import ctypes
import os
import sys
import unittest

import numpy as np
from scipy.optimize import minimize
from scipy.spatial.distance import cdist
from sklearn.kernel_approximation import Nystroem
from sklearn.svm import LinearSVC

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from kmx_ctypes import Kmx, ptr, c_void_pp  # noqa: E402

LIBRARY = sys.argv.pop(1)
DATA = sys.argv.pop(1)
kmx = Kmx(LIBRARY)
lib = kmx.lib
lib.kmx_solver_create_from_string.argtypes = [c_void_pp, ctypes.c_char_p]
lib.kmx_solver_free.argtypes = [ctypes.c_void_p]
lib.kmx_solver_train.argtypes = [c_void_pp, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p]
lib.kmx_model_free.argtypes = [ctypes.c_void_p]
lib.kmx_model_decision_values.argtypes = [ctypes.POINTER(ctypes.c_double), ctypes.c_int64, ctypes.c_void_p,
                                          ctypes.c_void_p, ctypes.c_void_p]
lib.kmx_model_predict.argtypes = lib.kmx_model_decision_values.argtypes


def dataset(x, y):
    return kmx.handle(lib.kmx_dataset_create, ptr(x), x.shape[0], x.shape[1], ptr(y) if y is not None else None, 0)


def train(ctx, solver_params, kernel_params, data):
    solver = kmx.handle(lib.kmx_solver_create_from_string, solver_params.encode())
    kernel = kmx.handle(lib.kmx_kernel_create_from_string, kernel_params.encode())
    try:
        return kmx.handle(lib.kmx_solver_train, ctx, solver, kernel, data)
    finally:
        lib.kmx_solver_free(solver)
        lib.kmx_kernel_free(kernel)


def decision_values(ctx, model, data, n):
    out = np.empty(n)
    kmx.check(lib.kmx_model_decision_values(ptr(out), n, ctx, model, data))
    return out


def labels(path):
    with open(path) as f:
        return np.array([float(line.split()[0]) for line in f])


def loss_terms(loss, y, z):
    """ℓ and ℓ' summed with costs, as kmx defines them."""
    if loss == "squared_hinge":
        margin = np.maximum(0.0, 1 - y * z)
        return margin ** 2, -2 * y * margin
    if loss == "logistic":
        t = y * z
        return np.logaddexp(0, -t), -y / (1 + np.exp(t))
    return (z - y) ** 2, 2 * (z - y)


class OptimumAgainstScipy(unittest.TestCase):
    def check(self, loss, y_of):
        rng = np.random.default_rng(3)
        x, q = rng.normal(size=(120, 3)), rng.normal(size=(40, 3))
        y = y_of(x, rng)
        gamma, c = 0.5, 0.7
        k = np.exp(-gamma * cdist(x, x, "sqeuclidean"))

        def f(beta):
            z = k @ beta
            value, first = loss_terms(loss, y, z)
            kb = k @ beta
            return 0.5 * beta @ kb + c * value.sum(), kb + k @ (c * first)

        res = minimize(f, np.zeros(len(y)), jac=True, method="L-BFGS-B",
                       options={"maxiter": 50000, "maxfun": 100000, "gtol": 1e-11, "ftol": 0, "maxcor": 50})
        expected = np.exp(-gamma * cdist(q, x, "sqeuclidean")) @ res.x

        ctx = kmx.context("threads=1 seed=1")
        train_set, query = dataset(x, y), dataset(q, None)
        try:
            model = train(ctx, f"method=nystrom_tron loss={loss} centers=120 C={c} eps=1e-10 "
                               "newton_iterations=1000", f"kernel=rbf gamma={gamma}", train_set)
            got = decision_values(ctx, model, query, len(q))
            lib.kmx_model_free(model)
        finally:
            lib.kmx_dataset_free(train_set)
            lib.kmx_dataset_free(query)
            lib.kmx_context_free(ctx)
        np.testing.assert_allclose(got, expected, atol=1e-5 * np.abs(expected).max())

    def test_squared_hinge(self):
        self.check("squared_hinge", lambda x, rng: np.where(np.sin(2 * x[:, 0]) + x[:, 1] > 0, 1.0, -1.0))

    def test_logistic(self):
        self.check("logistic", lambda x, rng: np.where(np.sin(2 * x[:, 0]) + x[:, 1] + 0.3 * rng.normal(size=len(x)) > 0,
                                                       1.0, -1.0))

    def test_squared(self):
        self.check("squared", lambda x, rng: np.sin(2 * x[:, 0]) + x[:, 1] + 0.1 * rng.normal(size=len(x)))


class AccuracyAgainstScikitLearn(unittest.TestCase):
    def test_letter_against_nystroem_linear_svc(self):
        ctx = kmx.context("threads=2 seed=0")
        train_set, x = kmx.load(ctx, os.path.join(DATA, "letter_bin.train.libsvm"))
        test_set, xt = kmx.load(ctx, os.path.join(DATA, "letter_bin.test.libsvm"))
        y, yt = (labels(os.path.join(DATA, f"letter_bin.{part}.libsvm")) for part in ("train", "test"))
        gamma, c, m = 16.0, 1.0, 400
        try:
            model = train(ctx, f"method=nystrom_tron centers={m} C={c}", f"kernel=rbf gamma={gamma}", train_set)
            predicted = np.empty(len(yt))
            kmx.check(lib.kmx_model_predict(ptr(predicted), len(yt), ctx, model, test_set))
            lib.kmx_model_free(model)
        finally:
            lib.kmx_dataset_free(train_set)
            lib.kmx_dataset_free(test_set)
            lib.kmx_context_free(ctx)
        ours = np.mean(predicted == yt)
        theirs = []
        for seed in range(3):
            features = Nystroem(kernel="rbf", gamma=gamma, n_components=m, random_state=seed).fit(x)
            svc = LinearSVC(C=c, loss="squared_hinge", fit_intercept=False, dual=False, tol=1e-6, max_iter=10000)
            svc.fit(features.transform(x), y)
            theirs.append(np.mean(svc.predict(features.transform(xt)) == yt))
        print(f"\nLetter (m={m}, gamma={gamma}, C={c}): kmx nystrom_tron {ours:.4f}, "
              f"sklearn Nystroem+LinearSVC {np.mean(theirs):.4f} (seeds {theirs})")
        self.assertGreater(ours, np.mean(theirs) - 0.015)


if __name__ == "__main__":
    unittest.main(verbosity=2)
