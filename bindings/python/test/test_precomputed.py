"""kernel='precomputed' (fit(K, y) with the training rows' Gram matrix, predict(K_test) with K(X_test, X)) in
kmx's SVC, SVR and OneClassSVM against scikit-learn's own precomputed estimators on the same matrices, against
kmx's own rbf kernel on the features, in cross-validation (the pairwise tag), and its bad input."""
import numpy as np
import pytest
import sklearn.svm
from sklearn.metrics.pairwise import rbf_kernel
from sklearn.model_selection import cross_val_score

import kmx


def _split(letter_bin, n=600, m=300):
    x, y, xt, yt = letter_bin
    return x[:n], y[:n], xt[:m], yt[:m]


def test_svc_precomputed_matches_sklearn_and_rbf(letter_bin):
    x, y, xt, yt = _split(letter_bin)
    K, Kt = rbf_kernel(x, x, gamma=2.0), rbf_kernel(xt, x, gamma=2.0)
    ours = kmx.SVC(C=4.0, kernel="precomputed", tol=1e-6).fit(K, y)
    theirs = sklearn.svm.SVC(C=4.0, kernel="precomputed", tol=1e-6).fit(K, y)
    np.testing.assert_allclose(ours.decision_function(Kt), theirs.decision_function(Kt), atol=2e-4, rtol=1e-4)
    assert np.mean(ours.predict(Kt) == theirs.predict(Kt)) > 0.995
    assert abs(ours.model_.info("support_vectors") - theirs.support_.size) <= 3
    on_features = kmx.SVC(C=4.0, gamma=2.0, method="svm", tol=1e-6).fit(x, y)
    np.testing.assert_allclose(ours.decision_function(Kt), on_features.decision_function(xt), atol=1e-9)
    assert ours.model_.info("kernel") == kmx.capi.KMX_KERNEL_PRECOMPUTED
    assert ours.n_features_in_ == 600


def test_multiclass_precomputed_matches_sklearn(letter_mc):
    x, y, xt, yt = letter_mc
    x, y, xt = x[:800], y[:800], xt[:300]
    K, Kt = rbf_kernel(x, x, gamma=4.0), rbf_kernel(xt, x, gamma=4.0)
    ours = kmx.SVC(C=8.0, kernel="precomputed", tol=1e-6).fit(K, y)
    theirs = sklearn.svm.SVC(C=8.0, kernel="precomputed", tol=1e-6).fit(K, y)
    np.testing.assert_allclose(ours.decision_function(Kt), theirs.decision_function(Kt), atol=1e-3)
    assert np.mean(ours.predict(Kt) == theirs.predict(Kt)) > 0.99


def test_svr_and_one_class_precomputed_match_sklearn(boston, letter_bin):
    x, y = boston
    K = rbf_kernel(x, x, gamma=0.5)
    ours = kmx.SVR(C=4.0, epsilon=0.05, kernel="precomputed", tol=1e-6).fit(K, y)
    theirs = sklearn.svm.SVR(C=4.0, epsilon=0.05, kernel="precomputed", tol=1e-6).fit(K, y)
    np.testing.assert_allclose(ours.predict(K), theirs.predict(K), atol=1e-3)
    z = letter_bin[0][:800]
    Kz = rbf_kernel(z, z, gamma=2.0)
    ours = kmx.OneClassSVM(nu=0.1, kernel="precomputed", tol=1e-6).fit(Kz)
    theirs = sklearn.svm.OneClassSVM(nu=0.1, kernel="precomputed", tol=1e-6).fit(Kz)
    np.testing.assert_allclose(ours.decision_function(Kz), theirs.decision_function(Kz), atol=1e-4)


def test_cross_validation_slices_the_matrix(letter_bin):
    x, y, _, _ = _split(letter_bin, 400)
    K = rbf_kernel(x, x, gamma=2.0)
    ours = cross_val_score(kmx.SVC(C=4.0, kernel="precomputed"), K, y, cv=4)
    theirs = cross_val_score(sklearn.svm.SVC(C=4.0, kernel="precomputed"), K, y, cv=4)
    np.testing.assert_allclose(ours, theirs, atol=0.01)


def test_precomputed_bad_input():
    rng = np.random.default_rng(0)
    x = rng.normal(size=(20, 3))
    y = np.arange(20) % 2
    K = rbf_kernel(x, x)
    with pytest.raises(ValueError, match="must be square"):
        kmx.SVC(kernel="precomputed").fit(K[:, :15], y)
    asymmetric = K.copy()
    asymmetric[2, 5] += 0.5
    with pytest.raises(kmx.InvalidArgumentError, match="not symmetric"):
        kmx.SVC(kernel="precomputed").fit(asymmetric, y)
    fitted = kmx.SVC(kernel="precomputed").fit(K, y)
    with pytest.raises(ValueError, match="features"):
        fitted.predict(K[:, :19])  # K(X_test, X) needs a column per training row
    with pytest.raises(kmx.InvalidArgumentError, match="method bka needs feature vectors"):
        kmx.SVC(kernel="precomputed", method="bka").fit(K, y)
    with pytest.raises(kmx.InvalidArgumentError, match="compact predictor"):
        kmx.Predictor.from_fitted(fitted, K, y)


def test_callable_kernel_matches_sklearn_and_rbf(letter_bin):
    """kernel=callable (kmx_kernel_create_callback through the Python trampoline), as sklearn.svm.SVC's."""
    x, y, xt, yt = _split(letter_bin, 500, 200)
    calls = []

    def gaussian(A, B):
        calls.append(A.shape[0] * B.shape[0])
        return rbf_kernel(A, B, gamma=2.0)

    ours = kmx.SVC(C=4.0, kernel=gaussian, tol=1e-6, n_jobs=2).fit(x, y)
    theirs = sklearn.svm.SVC(C=4.0, kernel=gaussian, tol=1e-6).fit(x, y)
    np.testing.assert_allclose(ours.decision_function(xt), theirs.decision_function(xt), atol=2e-4, rtol=1e-4)
    # rbf_kernel's values differ from kmx's own Gaussian in the last bits: the same model to the tolerance.
    on_features = kmx.SVC(C=4.0, gamma=2.0, method="svm", tol=1e-6).fit(x, y)
    np.testing.assert_allclose(ours.decision_function(xt), on_features.decision_function(xt), atol=1e-5)
    assert calls and ours.model_.info("kernel") == kmx.capi.KMX_KERNEL_CALLBACK
    svr = kmx.SVR(C=2.0, kernel=gaussian).fit(x, np.where(y > 0, 1.0, -1.0) * 0.5)
    assert svr.predict(xt).shape == (200,)
    with pytest.raises(kmx.UnsupportedError, match="callback kernel cannot be saved"):
        ours.model_.to_bytes()


def test_callable_kernel_errors(letter_bin):
    x, y, _, _ = _split(letter_bin, 100, 10)

    def broken(A, B):
        raise ValueError("no kernel today")

    with pytest.raises(kmx.InvalidArgumentError, match="kernel callback failed .*ValueError: no kernel today"):
        kmx.SVC(kernel=broken).fit(x, y)
    with pytest.raises(kmx.InvalidArgumentError, match=r"shape \(1, 1\), expected"):
        kmx.SVC(kernel=lambda A, B: np.zeros((1, 1))).fit(x, y)
    with pytest.raises(kmx.InvalidArgumentError, match="method bka needs feature vectors"):
        kmx.SVC(kernel=lambda A, B: A @ B.T, method="bka").fit(x, y)
