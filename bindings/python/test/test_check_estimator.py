"""scikit-learn's own conformance checks (sklearn.utils.estimator_checks). The checks an estimator
does not pass are listed in its _xfail_checks tag, with the reason (bindings/python/README.md too);
check_estimator then reports them as expected failures. SVC and a Predictor of an SVC run in the default
suite, the others in 'slow'."""
import warnings

import pytest
from sklearn.exceptions import SkipTestWarning
from sklearn.utils.estimator_checks import check_estimator

import kmx

# Small and single-threaded: the checks fit hundreds of times on a few dozen rows.
ESTIMATORS = {
    "SVC-svm": kmx.SVC(method="svm", n_jobs=1),
    "SVC-dcsvm": kmx.SVC(n_jobs=1),
    "SVR": kmx.SVR(n_jobs=1),
    "OneClassSVM": kmx.OneClassSVM(n_jobs=1),
    "KernelRidge": kmx.KernelRidge(n_jobs=1),
    "Falkon": kmx.Falkon(n_jobs=1),
    "MEKA": kmx.MEKA(n_jobs=1),
    "NystromTron": kmx.NystromTron(n_jobs=1),
    "Predictor-SVC": kmx.Predictor(kmx.SVC(n_jobs=1), n_jobs=1),
    "Predictor-SVR": kmx.Predictor(kmx.SVR(n_jobs=1), n_jobs=1),
}
FAST = {"SVC-svm", "SVC-dcsvm", "Predictor-SVC"}


@pytest.mark.parametrize("name", [pytest.param(n, marks=[] if n in FAST else [pytest.mark.slow])
                                  for n in ESTIMATORS])
def test_check_estimator(name):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", SkipTestWarning)
        check_estimator(ESTIMATORS[name])
