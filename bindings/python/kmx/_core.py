"""The C library's objects as Python classes over kmx.capi: Context, Dataset, Kernel, Solver, Model,
Approximation, Predictor, and k-means. Each owns its C handle and frees it when collected (or at
close()); arrays go to C without copies where it borrows them, and come back as numpy arrays."""
import numpy as np

from . import capi

__all__ = ["Context", "Dataset", "Kernel", "Solver", "Model", "Approximation", "Predictor", "kmeans",
           "kmeans_assign", "kernel_block", "params_string", "version"]


def version():
    """The library's version, "MAJOR.MINOR.PATCH"."""
    return capi.kmx_version()


def params_string(params=None, **values):
    """"key=value ..." from a string and/or keywords (None values left out; True/False as 1/0).
    Floats are written by repr, which reads back as the same double."""
    words = [params] if params else []
    for key, value in values.items():
        if value is None:
            continue
        if isinstance(value, (bool, np.bool_)):
            value = int(value)
        words.append(f"{key}={value!r}" if isinstance(value, float) else f"{key}={value}")
    return " ".join(words)


def _handle(obj):
    """The C handle of a kmx object, or None (C's NULL) for None."""
    return None if obj is None else obj._handle


class _Owner:
    """Owns one C handle; _free is the C function that releases it."""

    _free = None

    def __init__(self, handle, keep=None):
        self._handle = handle
        self._keep = keep  # what C borrows from Python (a dataset's arrays)

    def close(self):
        """Frees the C object now (later calls raise kmx errors: C sees NULL)."""
        handle, self._handle = getattr(self, "_handle", None), None
        if handle is not None:
            type(self)._free(handle)

    def __del__(self):
        self.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


class Context(_Owner):
    """Threads, seed, memory budget for the calls made with it ("threads=2 seed=7"), and the ranks
    they span (set_communicator). One thread at a time may use a context."""

    _free = staticmethod(capi.kmx_context_free)

    def __init__(self, params=None, **values):
        super().__init__(capi.kmx_context_create())
        text = params_string(params, **values)
        if text:
            capi.kmx_context_set_params(self._handle, text)

    def peak_bytes(self):
        return capi.kmx_context_peak_bytes(self._handle)

    def set_progress(self, fn):
        """fn(fraction, phase) during the calls made with this context; a true result cancels the
        call (kmx.CancelledError), an exception it raises is raised by the call. None removes it."""
        capi.kmx_context_set_progress_callback(self._handle, fn)
        self._progress = fn  # C holds it borrowed

    def set_log(self, fn, level=None):
        """fn(level, message) for the library's messages at or below `level` ("error", "warning",
        "info", "debug"; the context's log_level). None removes it."""
        if level is not None:
            capi.kmx_context_set_params(self._handle, f"log_level={level}")
        capi.kmx_context_set_log_callback(self._handle, fn)
        self._log = fn

    def set_communicator(self, comm):
        """Makes the calls made with this context span several processes or threads (ranks), each
        holding a shard of the rows: NystromTron's and Falkon's training and Dataset.load_shard. Each
        rank gets the model of all the ranks' rows. `comm` has `rank` (0 to size - 1) and `size`, and
        methods allreduce_sum(values) and allreduce_max(values), which make the float64 array `values`
        the element-wise sum or maximum over the ranks, in place or returned, the same bits on every
        rank (e.g. reduce to one rank, then broadcast), and broadcast(data, root), which makes `data`
        (a writable memoryview of bytes) rank root's, in place or returned. mpi4py's communicator
        does it through a small class (bindings/python/README.md). Every rank makes the same calls
        with the same parameters; kmx calls the methods from the calling thread. An exception a
        method raises fails the call with kmx.IoError, raised from it. None: this process alone."""
        adapter = None if comm is None else _Communicator(comm)
        capi.kmx_context_set_communicator(self._handle, adapter)
        self._communicator = adapter  # C holds it borrowed

    def close(self):
        super().close()
        self._communicator = None


class _Communicator:
    """What kmx_lang.i's trampolines call: a user's communicator, given numpy arrays for the
    reductions and its results (if it returns them) copied into the C buffers."""

    def __init__(self, comm):
        self.comm, self.rank, self.size = comm, comm.rank, comm.size

    def allreduce_sum(self, view):
        self._reduce(self.comm.allreduce_sum, view)

    def allreduce_max(self, view):
        self._reduce(self.comm.allreduce_max, view)

    @staticmethod
    def _reduce(method, view):
        values = np.frombuffer(view, dtype=np.float64)
        result = method(values)
        if result is not None and result is not values:
            result = np.asarray(result, dtype=np.float64)
            if result.shape != values.shape:
                raise ValueError(f"it returned an array of shape {result.shape}, expected {values.shape}")
            values[...] = result

    def broadcast(self, view, root):
        result = self.comm.broadcast(view, root)
        if result is not None and result is not view:
            result = memoryview(result).cast("B")
            if result.nbytes != view.nbytes:
                raise ValueError(f"it returned {result.nbytes} bytes, expected {view.nbytes}")
            view[:] = result


def _float64_matrix(x, name="X"):
    """x as a C-contiguous float64 matrix: no copy when it already is one (float32 and other dtypes
    are converted: the C API takes doubles)."""
    x = np.ascontiguousarray(x, dtype=np.float64)
    if x.ndim != 2:
        raise ValueError(f"kmx: {name} must be 2-D, not {x.ndim}-D")
    return x


def _csr_arrays(matrix):
    """A scipy sparse matrix as the CSR arrays kmx_dataset_create_csr borrows: int64 row pointers,
    int32 columns increasing within each row (duplicates summed), float64 values."""
    csr = matrix.tocsr()
    if not csr.has_canonical_format:
        csr = csr.copy()
        csr.sum_duplicates()
    if csr.shape[1] > 2**31:
        raise ValueError(f"kmx: {csr.shape[1]} columns: sparse data has at most 2^31 (32-bit column indices)")
    return (np.ascontiguousarray(csr.indptr, dtype=np.int64), np.ascontiguousarray(csr.indices, dtype=np.int32),
            np.ascontiguousarray(csr.data, dtype=np.float64), csr.shape)


class Dataset(_Owner):
    """Rows of features (and optional labels or targets) for kmx. From arrays, the C library borrows
    a C-contiguous float64 matrix in place (no copy; the dataset keeps it alive); other arrays are
    converted once. A scipy sparse matrix stays sparse: its CSR arrays are borrowed in place when they
    are already int64/int32/float64 with sorted indices, else converted once."""

    _free = staticmethod(capi.kmx_dataset_free)

    def __init__(self, x, y=None, weights=None):
        if y is not None:
            y = np.ascontiguousarray(y, dtype=np.float64).ravel()
            if y.shape[0] != x.shape[0]:
                raise ValueError(f"kmx: {x.shape[0]} rows but {y.shape[0]} labels")
        if hasattr(x, "tocsr"):
            row_ptr, col, values, (n, d) = _csr_arrays(x)
            super().__init__(capi.kmx_dataset_create_csr(None, row_ptr, col, values, n, d, y, capi.KMX_BORROW),
                             keep=(row_ptr, col, values, y))
        else:
            x = _float64_matrix(x)
            super().__init__(capi.kmx_dataset_create(x, x.shape[0], x.shape[1], y, capi.KMX_BORROW), keep=(x, y))
        if weights is not None:
            capi.kmx_dataset_set_weights(self._handle, np.ascontiguousarray(weights, dtype=np.float64))

    @classmethod
    def _adopt(cls, handle):
        dataset = cls.__new__(cls)
        _Owner.__init__(dataset, handle)
        return dataset

    @classmethod
    def load(cls, path, ctx=None, format=capi.KMX_FORMAT_AUTO):
        """Reads a LIBSVM, CSV or .kmxd file (sparse LIBSVM input may stay sparse)."""
        return cls._adopt(capi.kmx_dataset_load(_handle(ctx), str(path), format))

    @classmethod
    def load_shard(cls, path, shard, shards, ctx=None, format=capi.KMX_FORMAT_AUTO):
        """Shard `shard` of `shards` of a LIBSVM or CSV file (about S/shards of its bytes, whole lines;
        a path with "%d" names one file per shard) or of a .kmxd file's rows; collective when ctx
        spans several ranks (Context.set_communicator), each rank reading its own."""
        return cls._adopt(capi.kmx_dataset_load_shard(_handle(ctx), str(path), format, int(shard), int(shards)))

    @classmethod
    def parse(cls, text, ctx=None, format=capi.KMX_FORMAT_AUTO, name="<text>"):
        return cls._adopt(capi.kmx_dataset_parse(_handle(ctx), text, format, name))

    @property
    def shape(self):
        return capi.kmx_dataset_rows(self._handle), capi.kmx_dataset_cols(self._handle)

    def rows(self, begin=0, end=None):
        """Rows [begin, end) as a dense float64 matrix (a copy)."""
        n, d = self.shape
        end = n if end is None else end
        out = np.empty((max(end - begin, 0), d))
        capi.kmx_dataset_get_rows(out, self._handle, begin, end)
        return out

    def labels(self):
        out = np.empty(self.shape[0])
        capi.kmx_dataset_get_labels(out, self._handle)
        return out

    def is_sparse(self):
        return bool(capi.kmx_dataset_is_sparse(self._handle))

    def nnz(self):
        """The stored entries: the nonzeros of sparse rows, n*d of dense ones."""
        return capi.kmx_dataset_nnz(self._handle)

    def nonzeros(self):
        """The values that are not zero: the stored ones but explicit zeros."""
        return capi.kmx_dataset_nonzeros(self._handle)

    def save(self, path, precision=capi.KMX_PRECISION_FLOAT64):
        capi.kmx_dataset_save(self._handle, str(path), precision)


def as_dataset(data, y=None):
    """A Dataset as it is, or one made from arrays."""
    return data if isinstance(data, Dataset) else Dataset(data, y)


class Kernel(_Owner):
    """A kernel from "kernel=rbf gamma=0.5" and/or keywords (kernel=..., gamma=..., coef0=..., degree=...)."""

    _free = staticmethod(capi.kmx_kernel_free)

    def __init__(self, params=None, **values):
        super().__init__(capi.kmx_kernel_create_from_string(params_string(params, **values)))

    def get(self, name):
        return capi.kmx_kernel_get_param(self._handle, capi.kmx_param_from_name(name))

    @classmethod
    def from_callable(cls, fn):
        """A kernel computed by fn(A, B) -> K (A: na x d, B: nb x d float64 arrays; K: na x nb), as
        scikit-learn's callable kernels (kmx_kernel_create_callback). The dual solver's methods train
        with it (svm, svr, one_class); prediction calls it too; its models cannot be saved or pickled.
        kmx calls it holding the GIL, from worker threads too (n_jobs > 1); an exception it raises
        fails the call with kmx.InvalidArgumentError naming the exception."""
        def block(out, a, b, na, nb, d):
            A = np.frombuffer(a, dtype=np.float64).reshape(na, d).copy()  # the C block lives for this call only
            B = np.frombuffer(b, dtype=np.float64).reshape(nb, d).copy()
            K = np.asarray(fn(A, B), dtype=np.float64)
            if K.shape != (na, nb):
                raise ValueError(f"the kernel gave an array of shape {K.shape}, expected ({na}, {nb})")
            np.frombuffer(out, dtype=np.float64).reshape(na, nb)[...] = K

        kernel = cls.__new__(cls)
        _Owner.__init__(kernel, capi.kmx_kernel_create_callback(block), keep=block)
        return kernel


def kernel_block(kernel, a, b, ctx=None):
    """K(a_i, b_j) as an na x nb matrix, for row matrices a and b (or Datasets with row ranges
    given as (dataset, begin, end))."""
    if isinstance(a, tuple):
        (da, a0, a1), (db, b0, b1) = a, b
        out = np.empty((a1 - a0, b1 - b0))
        capi.kmx_kernel_block_rows(out, _handle(ctx), kernel._handle, da._handle, a0, a1, db._handle, b0, b1)
        return out
    a, b = _float64_matrix(a, "a"), _float64_matrix(b, "b")
    if a.shape[1] != b.shape[1]:
        raise ValueError(f"kmx: a has {a.shape[1]} columns, b {b.shape[1]}")
    out = np.empty((a.shape[0], b.shape[0]))
    capi.kmx_kernel_block(out, _handle(ctx), kernel._handle, a, a.shape[0], b, b.shape[0], a.shape[1])
    return out


def kmeans(data, k, ctx=None, params=None, **values):
    """k-means (k-means++ seeding): (centers k x d, assignment n int32, objective)."""
    n, d = data.shape
    centers, assignment = np.empty((k, d)), np.empty(n, dtype=np.int32)
    objective = capi.kmx_kmeans(centers, assignment, _handle(ctx), data._handle, k, params_string(params, **values))
    return centers, assignment, objective


def kmeans_assign(data, centers, ctx=None):
    """Nearest center of each row: (assignment n int32, squared distances n)."""
    centers = _float64_matrix(centers, "centers")
    n = data.shape[0]
    assignment, sqdist = np.empty(n, dtype=np.int32), np.empty(n)
    capi.kmx_kmeans_assign(assignment, sqdist, _handle(ctx), data._handle, centers, centers.shape[0])
    return assignment, sqdist


class Solver(_Owner):
    """A training method and its parameters ("method=dcsvm C=8 ..." and/or keywords)."""

    _free = staticmethod(capi.kmx_solver_free)

    def __init__(self, params=None, class_weight=None, **values):
        super().__init__(capi.kmx_solver_create_from_string(params_string(params, **values)))
        for label, weight in (class_weight or {}).items():
            capi.kmx_solver_set_class_weight(self._handle, float(label), float(weight))

    def train(self, kernel, data, ctx=None):
        """A Model trained on data (labels required). The GIL is released while it trains."""
        model = Model(capi.kmx_solver_train(_handle(ctx), self._handle, kernel._handle, data._handle))
        model._kernel = kernel  # a callable kernel's function must live as long as the model
        return model

    def cross_validate(self, kernel, data, folds, ctx=None):
        """k-fold cross-validation (LIBSVM's svm-train -v K): each row's prediction (label or value)
        by the model trained on the folds without it; folds stratified by label, from ctx's seed."""
        out = np.empty(data.shape[0])
        capi.kmx_solver_cross_validate(out, _handle(ctx), self._handle, kernel._handle, data._handle, int(folds))
        return out

    def cross_validate_path(self, kernel, data, folds, param, values, ctx=None):
        """cross_validate at each of `values` of one parameter ("C", or "lambda" for KRR) on the same
        folds, the SVM warm started along increasing C: a (len(values), rows) array."""
        values = np.ascontiguousarray(values, dtype=np.float64).ravel()
        out = np.empty((values.size, data.shape[0]))
        capi.kmx_solver_cross_validate_path(out, _handle(ctx), self._handle, kernel._handle, data._handle,
                                            int(folds), capi.kmx_param_from_name(param), values)
        return out


def _info_keys(prefix):
    return {name[len(prefix):].lower(): getattr(capi, name) for name in dir(capi)
            if name.startswith(prefix) and not name.endswith("FORCE_INT_")}


class _Saved(_Owner):
    """A model or predictor: outputs for a dataset's rows, a saved form as bytes (to_bytes,
    from_bytes) and as a file (save, load)."""

    def __init_subclass__(cls, prefix, **kwargs):
        """Takes its C functions by their names: prefix ("kmx_model") + _free, _save_to_buffer, ..."""
        super().__init_subclass__(**kwargs)
        for name in ("free", "save_to_buffer", "load_from_buffer", "save", "load"):
            setattr(cls, "_" + name, staticmethod(getattr(capi, f"{prefix}_{name}")))

    def _outputs(self, fn, data, ctx, columns):
        out = np.empty((data.shape[0], columns))
        fn(out, _handle(ctx), self._handle, data._handle)
        return out

    def to_bytes(self):
        return _two_call_bytes(type(self)._save_to_buffer, self._handle)

    @classmethod
    def from_bytes(cls, data):
        return cls(cls._load_from_buffer(data))

    def save(self, path):
        type(self)._save(self._handle, str(path))

    @classmethod
    def load(cls, path):
        return cls(cls._load(str(path)))


class Model(_Saved, prefix="kmx_model"):
    """A trained model: immutable, shareable across threads, saved as kmx's model file."""

    INFO = _info_keys("KMX_INFO_")

    def info(self, key):
        """kmx_model_info by name: "classes", "support_vectors", "objective", "task", ..."""
        return capi.kmx_model_info(self._handle, self.INFO[key] if isinstance(key, str) else key)

    def classes(self):
        out = np.empty(int(self.info("classes")))
        capi.kmx_model_classes(out if out.size else None, self._handle)
        return out

    def predict(self, data, ctx=None):
        return self._outputs(capi.kmx_model_predict, data, ctx, 1).ravel()

    def decision_values(self, data, ctx=None):
        return self._outputs(capi.kmx_model_decision_values, data, ctx, int(self.info("decision_values")))

    def predict_probability(self, data, ctx=None):
        """Class probabilities (rows x classes, classes() order) of a model trained with probability=1."""
        return self._outputs(capi.kmx_model_predict_probability, data, ctx, int(self.info("classes")))

    def set_class_names(self, names):
        capi.kmx_model_set_class_names(self._handle, "\n".join(names) if names else None)

    def class_names(self):
        return _two_call_bytes(capi.kmx_model_class_names, self._handle).rstrip(b"\0").decode().split("\n")


def _two_call_bytes(fn, handle):
    """What fn(out, out_size_query..., handle) writes: the size first, then the bytes."""
    size = fn(None, handle)
    out = bytearray(size)
    fn(out, handle)
    return bytes(out)


class Approximation(_Owner):
    """A Nystrom or MEKA approximation G~ of a dataset's kernel matrix ("approx=meka rank=64 ...")."""

    _free = staticmethod(capi.kmx_approx_free)

    def __init__(self, kernel, data, ctx=None, params=None, **values):
        super().__init__(capi.kmx_approx_create(_handle(ctx), kernel._handle, data._handle,
                                                params_string(params, **values)))

    def _vector_op(self, fn, v, ctx, *args):
        v = np.ascontiguousarray(v, dtype=np.float64)
        out = np.empty(self.rows)
        fn(out, _handle(ctx), self._handle, *args, v)
        return out

    def matvec(self, v, ctx=None):
        return self._vector_op(capi.kmx_approx_matvec, v, ctx)

    def solve(self, v, lam, ctx=None):
        return self._vector_op(capi.kmx_approx_solve, v, ctx, float(lam))

    def relative_error(self, data, sample_rows, ctx=None):
        return capi.kmx_approx_relative_error(_handle(ctx), self._handle, data._handle, sample_rows)

    @property
    def rows(self):
        return capi.kmx_approx_rows(self._handle)

    @property
    def rank(self):
        return capi.kmx_approx_rank(self._handle)

    @property
    def memory_bytes(self):
        return capi.kmx_approx_memory_bytes(self._handle)


class Predictor(_Saved, prefix="kmx_predictor"):
    """A compact DC-Pred++ predictor of a model, stored as a blob <kmx/kmx_infer.h> reads in place."""

    INFO = _info_keys("KMX_PREDICTOR_")

    @classmethod
    def build(cls, model, train, ctx=None, params=None, **values):
        return cls(capi.kmx_predictor_build(_handle(ctx), model._handle, train._handle,
                                            params_string(params, **values)))

    def info(self, key):
        return capi.kmx_predictor_info(self._handle, self.INFO[key] if isinstance(key, str) else key)

    def predict(self, data, ctx=None):
        return self._outputs(capi.kmx_predictor_predict, data, ctx, 1).ravel()

    def decision_values(self, data, ctx=None):
        return self._outputs(capi.kmx_predictor_decision_values, data, ctx, int(self.info("outputs")))

    def classes(self):
        out = np.empty(int(self.info("classes")))
        capi.kmx_predictor_classes(out if out.size else None, self._handle)
        return out

    def predict_probability(self, data, ctx=None):
        """Class probabilities (rows x classes, classes() order) of a predictor built from a model trained with
        probability=1: the model's sigmoids on the predictor's decision values (info("probability") is 1)."""
        return self._outputs(capi.kmx_predictor_predict_probability, data, ctx, int(self.info("classes")))

    def export_c(self, path, name):
        capi.kmx_predictor_export_c(self._handle, str(path), name)
