"""kmx's scikit-learn estimators against scikit-learn's own on the same data and parameters, labels of
any kind, pickling, and the compact Predictor."""
import pickle

import numpy as np
import pytest
import sklearn.kernel_ridge
import sklearn.svm
from sklearn.base import clone
from sklearn.model_selection import GridSearchCV
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

import kmx


def test_svc_with_method_svm_matches_sklearn(letter_bin):
    x, y, xt, yt = letter_bin
    x, y = x[:3000], y[:3000]
    ours = kmx.SVC(C=4.0, gamma=2.0, method="svm", tol=1e-6).fit(x, y)
    theirs = sklearn.svm.SVC(C=4.0, gamma=2.0, tol=1e-6).fit(x, y)
    np.testing.assert_allclose(ours.decision_function(xt), theirs.decision_function(xt), atol=2e-4, rtol=1e-4)
    assert np.mean(ours.predict(xt) == theirs.predict(xt)) > 0.999
    assert abs(ours.model_.info("support_vectors") - theirs.support_.size) <= 3  # alphas at the tolerance


@pytest.mark.parametrize("method", ["dcsvm", "dcsvm-early", "bka"])
def test_svc_methods_are_as_accurate_as_sklearn(letter_bin, method):
    x, y, xt, yt = letter_bin
    x, y = x[:3000], y[:3000]
    theirs = sklearn.svm.SVC(C=4.0, gamma=2.0).fit(x, y).score(xt, yt)
    ours = kmx.SVC(C=4.0, gamma=2.0, method=method).fit(x, y).score(xt, yt)
    assert ours > theirs - (0.005 if method == "dcsvm" else 0.03), (ours, theirs)


def test_multiclass_decision_values_match_sklearn(letter_mc):
    x, y, xt, yt = letter_mc
    ours = kmx.SVC(C=8.0, gamma=4.0, method="svm", tol=1e-6).fit(x, y)
    theirs = sklearn.svm.SVC(C=8.0, gamma=4.0, tol=1e-6).fit(x, y)
    for shape in ("ovo", "ovr"):
        ours.set_params(decision_function_shape=shape)
        theirs.set_params(decision_function_shape=shape)
        np.testing.assert_allclose(ours.decision_function(xt[:200]), theirs.decision_function(xt[:200]), atol=1e-3)
    assert ours.decision_function(xt).shape == (len(xt), 26)
    assert np.mean(ours.predict(xt) == theirs.predict(xt)) > 0.995
    np.testing.assert_array_equal(ours.classes_, theirs.classes_)


def test_predict_proba_is_close_to_sklearns(letter_mc):
    """SVC(probability=True) as sklearn.svm.SVC's (LIBSVM's -b 1; each side its own folds): close log-loss,
    rows summing to 1 in classes_' order, mostly the same most probable class; absent without probability."""
    x, y, xt, yt = letter_mc
    x, y, xt, yt = x[:3000], y[:3000], xt[:1000], yt[:1000]
    ours = kmx.SVC(C=8.0, gamma=4.0, method="svm", probability=True, random_state=1).fit(x, y)
    theirs = sklearn.svm.SVC(C=8.0, gamma=4.0, probability=True, random_state=1).fit(x, y)
    p, q = ours.predict_proba(xt), theirs.predict_proba(xt)
    assert p.shape == q.shape == (1000, 26)
    np.testing.assert_allclose(p.sum(axis=1), 1.0, atol=1e-9)
    index = np.searchsorted(ours.classes_, yt)
    loss = lambda probabilities: -np.mean(np.log(probabilities[np.arange(len(yt)), index]))
    assert abs(loss(p) - loss(q)) < 0.05, (loss(p), loss(q))
    assert np.mean(p.argmax(axis=1) == q.argmax(axis=1)) > 0.95
    np.testing.assert_allclose(ours.predict_log_proba(xt[:5]), np.log(p[:5]))
    assert not hasattr(kmx.SVC().fit(x[:200], y[:200]), "predict_proba")


def test_string_labels_and_class_names(letter_mc):
    x, y, xt, yt = letter_mc
    names = np.array([chr(ord("A") + int(v) - 1) for v in y])
    clf = kmx.SVC(C=8.0, gamma=4.0).fit(x, names)
    assert list(clf.classes_) == [chr(ord("A") + i) for i in range(26)]
    predicted = clf.predict(xt)
    assert predicted.dtype == clf.classes_.dtype
    assert np.mean(predicted == np.array([chr(ord("A") + int(v) - 1) for v in yt])) > 0.85
    assert clf.model_.class_names() == list(clf.classes_)


def test_pickling_round_trip(letter_mc):
    x, y, xt, _ = letter_mc
    clf = kmx.SVC(C=8.0, gamma=4.0, random_state=3).fit(x, y.astype(int))
    again = pickle.loads(pickle.dumps(clf))
    np.testing.assert_array_equal(again.predict(xt), clf.predict(xt))
    np.testing.assert_array_equal(again.decision_function(xt), clf.decision_function(xt))
    assert again.get_params() == clf.get_params() and again.classes_.dtype == clf.classes_.dtype
    assert pickle.loads(pickle.dumps(kmx.SVC(C=3.0))).C == 3.0  # unfitted too


def test_clone_grid_search_and_pipeline(letter_bin):
    x, y, xt, yt = letter_bin
    grid = GridSearchCV(kmx.SVC(method="svm"), {"C": [1.0, 4.0], "gamma": [1.0, 4.0]}, cv=3)
    grid.fit(x[:900], y[:900])
    assert grid.best_score_ > 0.8
    pipe = make_pipeline(StandardScaler(), kmx.SVC(C=4.0)).fit(x[:2000], y[:2000])
    assert pipe.score(xt, yt) > 0.9
    assert clone(kmx.SVC(C=2.0, method="bka")).get_params()["method"] == "bka"


def test_svr_matches_sklearn(boston):
    x, y = boston
    ours = kmx.SVR(C=4.0, epsilon=0.05, gamma=0.5, tol=1e-6).fit(x, y)
    theirs = sklearn.svm.SVR(C=4.0, epsilon=0.05, gamma=0.5, tol=1e-6).fit(x, y)
    np.testing.assert_allclose(ours.predict(x), theirs.predict(x), atol=1e-3)


def test_one_class_svm_matches_sklearn(letter_bin):
    x = letter_bin[0][:1000]
    ours = kmx.OneClassSVM(nu=0.1, gamma=2.0, tol=1e-6).fit(x)
    theirs = sklearn.svm.OneClassSVM(nu=0.1, gamma=2.0, tol=1e-6).fit(x)
    np.testing.assert_allclose(ours.decision_function(x), theirs.decision_function(x), atol=1e-4)
    assert np.mean(ours.predict(x) == theirs.predict(x)) > 0.99


def test_kernel_ridge_matches_sklearn(boston):
    x, y = boston
    lam = 1e-3
    ours = kmx.KernelRidge(lam=lam, gamma=0.1).fit(x, y)
    theirs = sklearn.kernel_ridge.KernelRidge(alpha=len(x) * lam, kernel="rbf", gamma=0.1).fit(x, y)
    np.testing.assert_allclose(ours.predict(x), theirs.predict(x), atol=1e-8)


@pytest.mark.parametrize("estimator", [kmx.Falkon(lam=1e-4, gamma=0.1, centers=60, iterations=50),
                                       kmx.MEKA(lam=1e-4, gamma=0.1, rank=20, clusters=2),
                                       kmx.KernelRidge(lam=1e-4, gamma=0.1, method="nystrom_krr", centers=60)])
def test_approximate_krr_is_close_to_exact(boston, estimator):
    x, y = boston
    exact = kmx.KernelRidge(lam=1e-4, gamma=0.1).fit(x, y).score(x, y)
    assert estimator.fit(x, y).score(x, y) > exact - 0.1


def test_nystrom_tron_classifies(letter_bin):
    x, y, xt, yt = letter_bin
    clf = kmx.NystromTron(C=8.0, gamma=2.0, centers=400).fit(x[:4000], y[:4000])
    assert clf.score(xt, yt) > 0.87
    assert clf.decision_function(xt).shape == (len(xt),)


def test_predictor_of_a_fitted_svc(letter_bin):
    x, y, xt, yt = letter_bin
    x, y = x[:3000], y[:3000]
    svc = kmx.SVC(C=4.0, gamma=2.0).fit(x, y)
    predictor = kmx.Predictor.from_fitted(svc, x, y)  # kmx's default: no larger than the model
    assert predictor.score(xt, yt) > svc.score(xt, yt) - 0.05
    assert predictor.nbytes < len(svc.model_.to_bytes())
    assert 0 < predictor.nbytes == len(predictor.to_bytes())
    again = pickle.loads(pickle.dumps(predictor))
    np.testing.assert_array_equal(again.predict(xt), predictor.predict(xt))
    fitted = kmx.Predictor(kmx.SVC(C=4.0, gamma=2.0), storage="float32").fit(x, y)
    assert fitted.score(xt, yt) > svc.score(xt, yt) - 0.05 and set(fitted.predict(xt)) <= set(svc.classes_)


def test_estimator_errors():
    x = np.random.default_rng(0).normal(size=(20, 3))
    with pytest.raises(ValueError, match="2 classes"):
        kmx.SVC().fit(x, np.ones(20))
    with pytest.raises(ValueError, match="method"):
        kmx.SVC(method="nonsense").fit(x, np.arange(20) % 2)
    with pytest.raises(kmx.InvalidArgumentError, match="C"):
        kmx.SVC(C=-1.0).fit(x, np.arange(20) % 2)
    with pytest.raises(ValueError, match="features"):
        kmx.SVC().fit(x, np.arange(20) % 2).predict(x[:, :2])
