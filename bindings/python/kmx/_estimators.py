"""scikit-learn estimators over kmx: SVC, SVR, OneClassSVM, KernelRidge, Falkon, MEKA, NystromTron and
Predictor (a compact predictor of a fitted estimator). Each holds its parameters as scikit-learn
wants them (get_params/set_params, clone), trains a kmx Model in fit and pickles it through the
model's saved form (kmx_model_save_to_buffer)."""
import numbers

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin, OutlierMixin, RegressorMixin, clone
from sklearn.utils.metaestimators import available_if
from sklearn.utils.multiclass import _ovr_decision_function, check_classification_targets
from sklearn.utils.validation import check_is_fitted, has_fit_parameter

from . import _core

__all__ = ["SVC", "SVR", "OneClassSVM", "KernelRidge", "Falkon", "MEKA", "NystromTron", "Predictor"]

# What the C API takes: a C-contiguous float64 matrix (borrowed), or a float64 CSR matrix (as text).
_INPUT = dict(accept_sparse="csr", dtype=np.float64, order="C")
_KERNELS = {"rbf": "rbf", "laplacian": "laplacian", "poly": "polynomial", "polynomial": "polynomial",
            "linear": "linear", "sigmoid": "sigmoid"}


def _seed(random_state):
    """kmx's seed (a whole number) from scikit-learn's random_state: None is kmx's default seed 0."""
    if random_state is None:
        return 0
    if isinstance(random_state, numbers.Integral):
        return int(random_state)
    return int(random_state.randint(0, 2**31 - 1))


def _never_cancel(fraction, phase):
    return False


def _context(estimator):
    """A kmx context of the estimator's n_jobs and random_state (one per call: a context serves one
    thread at a time, an estimator may serve many). Its progress callback lets Ctrl-C stop the call
    (KeyboardInterrupt): the trampoline checks for signals."""
    ctx = _core.Context(threads=_threads(estimator.n_jobs), seed=_seed(estimator.random_state))
    ctx.set_progress(_never_cancel)
    return ctx


def _precomputed(estimator):
    """Whether the estimator's kernel is 'precomputed': fit(K, y) with the training rows' square Gram
    matrix K(X, X), predict(K_test) with K(X_test, X) (as scikit-learn's)."""
    return isinstance(getattr(estimator, "kernel", None), str) and estimator.kernel == "precomputed"


def _gram_rows(K, serials):
    """kmx's precomputed rows (LIBSVM's -t 4): each row's serial number (1..n for the training rows,
    0 for others), then its kernel values."""
    K = K.toarray() if hasattr(K, "toarray") else K
    first = np.arange(1, K.shape[0] + 1, dtype=np.float64) if serials else np.zeros(K.shape[0])
    return np.ascontiguousarray(np.hstack([first[:, None], K]), dtype=np.float64)


def _store_params(estimator, arguments):
    """Sets the attributes of an __init__'s arguments, as scikit-learn wants them: unchanged."""
    for name, value in arguments.items():
        if name != "self":
            setattr(estimator, name, value)


def _threads(n_jobs):
    """kmx's threads from n_jobs: None or -1 is every core this process may use (kmx's 0)."""
    return 0 if n_jobs is None or n_jobs < 0 else int(n_jobs)


class _PicklesSavedForm:
    """Pickles (and deep-copies) the kmx object in the attribute _saved_name through its saved form,
    to_bytes and the class's from_bytes (a model's file bytes, a predictor's blob)."""

    _saved_name, _saved_class = "model_", _core.Model

    def __getstate__(self):
        state = dict(super().__getstate__())  # object.__getstate__ may give the live __dict__
        saved = state.pop(self._saved_name, None)
        if saved is not None:
            state["_saved_bytes"] = saved.to_bytes()
        return state

    def __setstate__(self, state):
        state = dict(state)
        saved = state.pop("_saved_bytes", None)
        super().__setstate__(state)
        if saved is not None:
            setattr(self, self._saved_name, self._saved_class.from_bytes(saved))


class _KmxEstimator(_PicklesSavedForm, BaseEstimator):
    """What every kmx estimator shares: the kernel's parameters, the context's, fitting a Model on a
    validated dataset, the prediction calls and pickling through the model's saved form."""

    _method = None  # the kmx method name the estimator trains

    def _kernel(self, X):
        if _precomputed(self):
            self._gamma = None
            return _core.Kernel(kernel="precomputed")
        if callable(self.kernel):  # as scikit-learn's: kernel(A, B) -> the na x nb block
            self._gamma = None
            return _core.Kernel.from_callable(self.kernel)
        kernel = _KERNELS.get(self.kernel) if isinstance(self.kernel, str) else None
        if kernel is None:
            raise ValueError(f"kmx: kernel={self.kernel!r} is not one of {sorted(_KERNELS) + ['precomputed']} "
                             "or a callable")
        gamma = self.gamma
        if gamma == "scale":  # as scikit-learn's SVC: 1 / (d Var[X])
            variance = X.multiply(X).mean() - X.mean() ** 2 if hasattr(X, "tocsr") else X.var()
            gamma = 1.0 / (X.shape[1] * variance) if variance != 0 else 1.0
        elif gamma == "auto":
            gamma = 1.0 / X.shape[1]
        elif not isinstance(gamma, numbers.Real) or gamma <= 0:
            raise ValueError(f"kmx: gamma must be 'scale', 'auto' or a positive number, not {gamma!r}")
        self._gamma = float(gamma)
        return _core.Kernel(kernel=kernel, gamma=float(gamma), coef0=float(self.coef0), degree=int(self.degree))

    def _context(self):
        return _context(self)

    def _more_tags(self):
        tags = {"pairwise": _precomputed(self)}  # cross-validation slices K's rows and columns
        if has_fit_parameter(self, "sample_weight"):
            tags["_xfail_checks"] = _SKIPPED_CHECKS
        return tags

    def _solver_values(self):
        """The solver's parameters beside the method (None: kmx's default)."""
        return {}

    def _check_X(self, X, reset):
        """X checked by scikit-learn (n_features_in_ set or compared)."""
        return self._validate_data(X, reset=reset, **_INPUT)

    def _check_X_y(self, X, y, **y_params):
        return self._validate_data(X, y, **_INPUT, **y_params)

    def _fit_model(self, X, y, sample_weight=None, class_weight=None):
        """Trains self.model_ on rows X (validated, float64) with the float64 labels y."""
        if sample_weight is not None:
            sample_weight = np.asarray(sample_weight, dtype=np.float64)
            if sample_weight.shape != (X.shape[0],):
                raise ValueError(f"kmx: sample_weight has shape {sample_weight.shape}, expected ({X.shape[0]},)")
        if X.shape[0] < 2:
            raise ValueError(f"kmx: {type(self).__name__} needs at least 2 samples; got 1 sample")
        if _precomputed(self):
            if X.shape[0] != X.shape[1]:
                raise ValueError(f"kmx: a precomputed kernel's training matrix must be square (K(X, X)); got "
                                 f"{X.shape[0]}x{X.shape[1]}")
            X = _gram_rows(X, serials=True)
        dataset = _core.Dataset(X, y, weights=sample_weight)
        solver = _core.Solver(method=self._method, class_weight=class_weight, **self._solver_values())
        self.model_ = solver.train(self._kernel(X), dataset, self._context())
        self.train_seconds_ = self.model_.info("train_seconds")

    def _dataset(self, X):
        check_is_fitted(self)
        X = self._check_X(X, reset=False)  # a precomputed K(X_test, X) has the training rows' columns
        return _core.Dataset(_gram_rows(X, serials=False) if _precomputed(self) else X)

    def _decision_values(self, X):
        dataset = self._dataset(X)  # first: it checks that the estimator is fitted
        return self.model_.decision_values(dataset, self._context())

    def _predict_values(self, X):
        dataset = self._dataset(X)
        return self.model_.predict(dataset, self._context())


def _svc_decision(svc, values):
    """An SVC's decision values (n x kmx's outputs) in scikit-learn's shape: one column for two
    classes; one-vs-one pairs made into one column per class for decision_function_shape 'ovr'."""
    if values.shape[1] == 1:
        return values.ravel()
    one_vs_one = svc.model_.info("multiclass") == _core.capi.KMX_MULTICLASS_OVO
    if svc.decision_function_shape == "ovr" and one_vs_one:
        return _ovr_decision_function(values < 0, -values, len(svc.classes_))
    return values


def _class_names(classes):
    """The classes' names for kmx_model_set_class_names, or None when one cannot be a name (1 to
    255 bytes of UTF-8 without control characters, all distinct)."""
    names = [str(c) for c in classes]
    ok = all(0 < len(n.encode()) <= 255 and n.isprintable() for n in names) and len(set(names)) == len(names)
    return names if ok else None


class _KmxClassifier(ClassifierMixin, _KmxEstimator):
    """Classes of any labels (strings too): kmx trains on their indices 0..c-1 in classes_' order,
    and the model carries their names."""

    def fit(self, X, y, sample_weight=None):
        X, y = self._check_X_y(X, y)
        check_classification_targets(y)
        self.classes_, encoded = np.unique(y, return_inverse=True)
        if len(self.classes_) < 2:
            raise ValueError(f"kmx: {type(self).__name__} needs samples of at least 2 classes; got 1 class "
                             f"({self.classes_[0]!r})")
        class_weight = self._class_weights(encoded)
        self._fit_model(X, encoded.astype(np.float64), sample_weight, class_weight)
        names = _class_names(self.classes_)
        if names:
            self.model_.set_class_names(names)
        return self

    def _class_weights(self, encoded):
        """{class index: weight} from class_weight (a dict of labels, or 'balanced'), if it has one."""
        class_weight = getattr(self, "class_weight", None)
        if class_weight is None:
            return None
        if class_weight == "balanced":
            counts = np.bincount(encoded)
            return {i: len(encoded) / (len(counts) * c) for i, c in enumerate(counts)}
        index = {label: i for i, label in enumerate(self.classes_)}
        return {index[label]: w for label, w in class_weight.items() if label in index}

    def predict(self, X):
        indices = self._predict_values(X).astype(np.intp)
        return self.classes_[indices]


class SVC(_KmxClassifier):
    """C-support vector classification (as sklearn.svm.SVC) trained by kmx.

    method: 'svm' (the dual solver alone, LIBSVM's algorithm, with a bias), 'dcsvm' (divide and
    conquer, then the exact global solve; kmx's default), 'dcsvm-early' (stopped at early_level, each
    point predicted by its cluster's model) or 'bka' (one level of clusters, no conquer step).
    multiclass: 'ovo' (as LIBSVM) or 'ovr'. decision_function_shape: 'ovr' (scikit-learn's default:
    one-vs-one votes made into one column per class, as sklearn.svm.SVC) or 'ovo' (the raw values).
    levels, clusters_per_level, early_level, sample_size: DC-SVM's knobs (None: kmx's defaults).
    probability: fit LIBSVM's probability estimates (Platt sigmoids on a seeded 5-fold cross-validation,
    pairwise coupling) for predict_proba, as sklearn.svm.SVC(probability=True).
    n_jobs: kmx's threads (None or -1: every core); random_state: kmx's seed.
    kernel='precomputed' (also for SVR and OneClassSVM): fit(K, y) with the training rows' square Gram
    matrix K(X, X), predict(K_test) with K(X_test, X), as sklearn.svm.SVC; a callable kernel(A, B) -> the
    block K(A, B), as sklearn.svm.SVC (its models cannot be pickled). Both train by the dual solver alone
    (the default method 'dcsvm' then means 'svm'; 'dcsvm-early' and 'bka' need a kmx kernel)."""

    def __init__(self, C=1.0, kernel="rbf", degree=3, gamma="scale", coef0=0.0, method="dcsvm", tol=1e-3,
                 shrinking=True, cache_size=0, class_weight=None, multiclass="ovo", decision_function_shape="ovr",
                 levels=None, clusters_per_level=None, early_level=None, sample_size=None, probability=False,
                 n_jobs=None, random_state=None):
        _store_params(self, locals())

    @property
    def _method(self):
        method = str(self.method).replace("-", "_")
        if (_precomputed(self) or callable(self.kernel)) and method == "dcsvm":
            return "svm"  # the default: DC-SVM clusters in the kernel's feature space, which needs a kmx kernel
        if method not in ("svm", "dcsvm", "dcsvm_early", "bka"):
            raise ValueError(f"kmx: SVC method must be svm, dcsvm, dcsvm-early or bka, not {self.method!r}")
        return method

    def _solver_values(self):
        if self.decision_function_shape not in ("ovr", "ovo"):
            raise ValueError(f"kmx: decision_function_shape must be 'ovr' or 'ovo', not "
                             f"{self.decision_function_shape!r}")
        return dict(C=float(self.C), eps=float(self.tol), shrinking=bool(self.shrinking),
                    cache_size=int(self.cache_size), multiclass=self.multiclass, levels=self.levels,
                    clusters_per_level=self.clusters_per_level, early_level=self.early_level,
                    sample_size=self.sample_size, probability=int(bool(self.probability)))

    def decision_function(self, X):
        """Two classes: one value per row, > 0 for classes_[1]. More: (n, classes) for 'ovr' shape
        (the one-vs-one votes and confidences as sklearn.svm.SVC makes them), the raw one-vs-one
        values (pairs (i, j), i < j, > 0 for class i) for 'ovo'."""
        return _svc_decision(self, self._decision_values(X))

    def _has_probability(self):
        if not self.probability:
            raise AttributeError("predict_proba is available when probability=True")
        return True

    @available_if(_has_probability)
    def predict_proba(self, X):
        """(n, classes) probabilities in classes_' order, each row summing to 1 (fit with probability=True)."""
        dataset = self._dataset(X)
        return self.model_.predict_probability(dataset, self._context())

    @available_if(_has_probability)
    def predict_log_proba(self, X):
        return np.log(self.predict_proba(X))


# Checks of sklearn.utils.estimator_checks that kmx's estimators with sample weights do not pass,
# and why (also in bindings/python/README.md).
_SKIPPED_CHECKS = {
    "check_sample_weights_invariance":
        "a zero sample weight gives the model without that row only to the solver's tolerance (eps), not to "
        "the check's 1e-7: the row still takes part in the solver's start, DC-SVM's clusters and the seeded draws",
}


class SVR(RegressorMixin, _KmxEstimator):
    """Epsilon-support vector regression (as sklearn.svm.SVR; kmx's method svr)."""

    _method = "svr"

    def __init__(self, C=1.0, epsilon=0.1, kernel="rbf", degree=3, gamma="scale", coef0=0.0, tol=1e-3,
                 shrinking=True, cache_size=0, n_jobs=None, random_state=None):
        _store_params(self, locals())

    def _solver_values(self):
        return dict(C=float(self.C), epsilon_svr=float(self.epsilon), eps=float(self.tol),
                    shrinking=bool(self.shrinking), cache_size=int(self.cache_size))

    def fit(self, X, y, sample_weight=None):
        X, y = self._check_X_y(X, y, y_numeric=True)
        self._fit_model(X, y, sample_weight)
        return self

    def predict(self, X):
        return self._predict_values(X)


class OneClassSVM(OutlierMixin, _KmxEstimator):
    """Unsupervised outlier detection (as sklearn.svm.OneClassSVM; kmx's method one_class): predict
    gives +1 for inliers, -1 for outliers; decision_function > 0 for inliers."""

    _method = "one_class"

    def __init__(self, nu=0.5, kernel="rbf", degree=3, gamma="scale", coef0=0.0, tol=1e-3, shrinking=True,
                 cache_size=0, n_jobs=None, random_state=None):
        _store_params(self, locals())

    def _solver_values(self):
        return dict(nu=float(self.nu), eps=float(self.tol), shrinking=bool(self.shrinking),
                    cache_size=int(self.cache_size))

    def fit(self, X, y=None, sample_weight=None):
        X = self._check_X(X, reset=True)
        self._fit_model(X, np.ones(X.shape[0]), sample_weight)  # labels are ignored
        # decision_function = score_samples - offset_. kmx's C API does not report rho, so
        # score_samples is decision_function (offset_ 0), not sklearn's sum_i alpha_i K(x_i, x).
        self.offset_ = 0.0
        return self

    def decision_function(self, X):
        return self._decision_values(X).ravel()

    def score_samples(self, X):
        return self.decision_function(X) + self.offset_

    def predict(self, X):
        return self._predict_values(X).astype(int)


class _KmxRegressor(RegressorMixin, _KmxEstimator):
    """A kernel ridge regression of the KRR family: min (1/n) sum_i (f(x_i) - y_i)^2 + lam |f|^2.
    (scikit-learn's KernelRidge minimises sum_i (f(x_i) - y_i)^2 + alpha |f|^2: alpha = n lam.)
    fit takes no sample_weight: kmx's KRR methods do not use a dataset's weights."""

    def fit(self, X, y):
        X, y = self._check_X_y(X, y, y_numeric=True)
        self._fit_model(X, y)
        return self

    def predict(self, X):
        return self._predict_values(X)


class KernelRidge(_KmxRegressor):
    """Kernel ridge regression: method 'krr' (exact, Cholesky: the reference for small n),
    'nystrom_krr' (on a Nystrom approximation of `centers` landmarks), 'falkon' or 'meka_krr'."""

    def __init__(self, lam=1e-6, kernel="rbf", degree=3, gamma="scale", coef0=0.0, method="krr", centers=None,
                 n_jobs=None, random_state=None):
        _store_params(self, locals())

    @property
    def _method(self):
        return str(self.method).replace("-", "_")

    def _solver_values(self):
        centers = self.centers if self._method in ("nystrom_krr", "falkon") else None
        return {"lambda": float(self.lam), "task": "regression", "centers": centers}


class Falkon(_KmxRegressor):
    """FALKON (Nystrom KRR by preconditioned conjugate gradient, O(M^2) memory): M = centers (0:
    kmx's auto), center_method 'uniform', 'kmeans' or 'leverage', iterations and tolerance of the
    CG, kernel_precision 'float64' or 'float32' (K_nM's blocks)."""

    _method = "falkon"

    def __init__(self, lam=1e-6, kernel="rbf", degree=3, gamma="scale", coef0=0.0, centers=0,
                 center_method="uniform", iterations=20, tolerance=1e-7, kernel_precision="float64", n_jobs=None,
                 random_state=None):
        _store_params(self, locals())

    def _solver_values(self):
        return {"lambda": float(self.lam), "task": "regression", "centers": int(self.centers),
                "center_method": self.center_method, "iterations": int(self.iterations),
                "tolerance": float(self.tolerance), "kernel_precision": self.kernel_precision}


class MEKA(_KmxRegressor):
    """Kernel ridge regression on MEKA (memory efficient kernel approximation: per-cluster Nystrom
    bases of `rank` linked by small blocks); rank, clusters (0: auto), threshold, oversampling."""

    _method = "meka_krr"

    def __init__(self, lam=1e-6, kernel="rbf", degree=3, gamma="scale", coef0=0.0, rank=0, clusters=0,
                 threshold=1e-3, oversampling=2.0, n_jobs=None, random_state=None):
        _store_params(self, locals())

    def _solver_values(self):
        return {"lambda": float(self.lam), "task": "regression", "rank": int(self.rank),
                "clusters": int(self.clusters), "threshold": float(self.threshold),
                "oversampling": float(self.oversampling)}


class NystromTron(_KmxClassifier):
    """The Nystrom kernel machine trained in the primal by TRON (kmx's nystrom_tron, here on one
    process): min 1/2 b'Wb + C sum_i loss_i over a basis of `centers` rows; loss 'squared_hinge'
    (an L2-loss SVM) or 'logistic'; one-vs-rest for more than two classes."""

    _method = "nystrom_tron"

    def __init__(self, C=1.0, kernel="rbf", degree=3, gamma="scale", coef0=0.0, loss="squared_hinge", centers=0,
                 center_method="uniform", stages=1, tol=1e-3, n_jobs=None, random_state=None):
        _store_params(self, locals())

    def _solver_values(self):
        return {"C": float(self.C), "task": "classification", "loss": self.loss, "centers": int(self.centers),
                "center_method": self.center_method, "stages": int(self.stages), "eps": float(self.tol)}

    def decision_function(self, X):
        values = self._decision_values(X)
        return values.ravel() if values.shape[1] == 1 else values


class Predictor(_PicklesSavedForm, BaseEstimator):
    """A compact DC-Pred++ predictor of an SVM (or of a KRR model): fit trains a clone of `estimator`
    (an SVC, or any kmx estimator) and builds the predictor from its model and the training rows;
    from_fitted builds one from an estimator already fitted. The predictor's blob (to_bytes, save,
    export_c) is what <kmx/kmx_infer.h> and the predictor-only bindings read.

    leaves, landmarks, pseudo: DC-Pred++'s knobs (None: kmx's choice); storage: 'float64',
    'float32', 'int16', 'int8' or 'int4'; max_bytes, max_us: a budget, searched on a validation split."""

    _saved_name, _saved_class = "predictor_", _core.Predictor

    def __init__(self, estimator=None, leaves=None, landmarks=None, pseudo=None, storage=None, max_bytes=None,
                 max_us=None, n_jobs=None, random_state=None):
        _store_params(self, locals())

    def _context(self):
        return _context(self)

    def _estimator(self):
        return self.estimator if self.estimator is not None else SVC()

    @property
    def _estimator_type(self):
        """A classifier or a regressor as its estimator is (scikit-learn's checks and scorers ask)."""
        return getattr(self._estimator(), "_estimator_type", None)

    def _more_tags(self):
        return self._estimator()._get_tags()  # its tags, the checks it is known to fail among them

    def fit(self, X, y, sample_weight=None):
        estimator = clone(self._estimator())
        weights = {} if sample_weight is None else {"sample_weight": sample_weight}
        estimator.fit(X, y, **weights)
        return self._build(estimator, X, y)

    @classmethod
    def from_fitted(cls, estimator, X, y, **params):
        """A predictor of a fitted kmx estimator, from the rows and labels it was fitted on."""
        return cls(estimator=estimator, **params)._build(estimator, X, y)

    def _build(self, estimator, X, y):
        check_is_fitted(estimator)
        X = estimator._check_X(X, reset=False)
        labels = np.asarray(y)
        if hasattr(estimator, "classes_"):
            labels = np.searchsorted(estimator.classes_, labels)
            self.classes_ = estimator.classes_
        train = _core.Dataset(X, labels.astype(np.float64))
        self.estimator_ = estimator
        self.n_features_in_ = X.shape[1]
        self.predictor_ = _core.Predictor.build(estimator.model_, train, self._context(), leaves=self.leaves,
                                                landmarks=self.landmarks, pseudo=self.pseudo, storage=self.storage,
                                                max_bytes=self.max_bytes, max_us=self.max_us)
        return self

    def _dataset(self, X):
        check_is_fitted(self)
        return _core.Dataset(self.estimator_._check_X(X, reset=False))

    def predict(self, X):
        dataset = self._dataset(X)  # first: it checks that the predictor is built
        values = self.predictor_.predict(dataset, self._context())
        return self.classes_[values.astype(np.intp)] if hasattr(self, "classes_") else values

    @available_if(lambda self: hasattr(self._estimator(), "decision_function"))
    def decision_function(self, X):
        """The predictor's decision values, shaped as its estimator's (a classifier's)."""
        dataset = self._dataset(X)
        values = self.predictor_.decision_values(dataset, self._context())
        if isinstance(self.estimator_, SVC):
            return _svc_decision(self.estimator_, values)
        return values.ravel() if values.shape[1] == 1 else values

    def _has_probability(self):
        if not getattr(self._estimator(), "probability", False):
            raise AttributeError("predict_proba is available for an SVC fitted with probability=True")
        return True

    @available_if(_has_probability)
    def predict_proba(self, X):
        """(n, classes) probabilities in classes_' order: the SVC's sigmoids on the predictor's decision values."""
        dataset = self._dataset(X)
        return self.predictor_.predict_probability(dataset, self._context())

    @available_if(_has_probability)
    def predict_log_proba(self, X):
        return np.log(self.predict_proba(X))

    def score(self, X, y, sample_weight=None):
        mixin = ClassifierMixin if hasattr(self, "classes_") else RegressorMixin
        return mixin.score(self, X, y, sample_weight)

    @property
    def nbytes(self):
        """The blob's size in bytes."""
        return int(self.predictor_.info("bytes"))

    def to_bytes(self):
        return self.predictor_.to_bytes()

    def save(self, path):
        self.predictor_.save(path)

    def export_c(self, path, name):
        self.predictor_.export_c(path, name)
