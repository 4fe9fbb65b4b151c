"""The SWIG layer and the library's objects: errors as exceptions, arrays in and out, the GIL."""
import os
import subprocess
import sys
import threading
import time

import numpy as np
import pytest

import kmx
from kmx import capi


def test_version_matches_the_header():
    assert kmx.version() == capi.KMX_VERSION_STRING == kmx.__version__


def test_every_status_has_an_error_class():
    code = 1
    while capi.kmx_status_name(code) != "KMX_E_UNKNOWN":
        cls = kmx.ERRORS[code]
        assert issubclass(cls, kmx.Error) and cls.code == code and cls.status == capi.kmx_status_name(code)
        assert getattr(kmx, cls.__name__) is cls
        code += 1
    assert len(kmx.ERRORS) == code - 1
    assert kmx.InvalidArgumentError.status == "KMX_E_INVALID_ARGUMENT"
    assert issubclass(kmx.InvalidArgumentError, ValueError) and issubclass(kmx.IoError, OSError)


def test_an_invalid_parameter_raises_with_the_c_message():
    with pytest.raises(kmx.InvalidArgumentError, match="gamma") as error:
        kmx.Kernel("kernel=rbf gamma=-1")
    assert error.value.code == capi.KMX_E_INVALID_ARGUMENT
    assert str(error.value) == capi.kmx_last_error()
    with pytest.raises(ValueError):  # also a ValueError
        kmx.Solver("method=nonsense")


def test_io_and_format_errors():
    with pytest.raises(kmx.IoError, match="no/such/file"):
        kmx.Dataset.load("no/such/file.libsvm")
    with pytest.raises(kmx.FormatError):
        kmx.Model.from_bytes(b"not a model at all, not at all")
    with pytest.raises(kmx.FormatError, match="<text>:2:"):
        kmx.Dataset.parse("1 1:0.5\n1 x:y\n", format=capi.KMX_FORMAT_LIBSVM)


def test_a_freed_handle_is_an_error_not_a_crash():
    kernel = kmx.Kernel("gamma=0.5")
    kernel.close()
    with pytest.raises(kmx.InvalidArgumentError):
        kmx.kernel_block(kernel, np.zeros((2, 3)), np.zeros((2, 3)))


def test_buffers_of_the_wrong_type_are_refused():
    with pytest.raises(TypeError, match="format"):
        capi.kmx_dataset_create(np.zeros((2, 2), dtype=np.float32), 2, 2, None, capi.KMX_COPY)
    with pytest.raises(TypeError, match="contiguous"):
        capi.kmx_dataset_create(np.zeros((4, 4))[:, ::2], 4, 2, None, capi.KMX_COPY)
    with pytest.raises(TypeError, match="writable"):
        capi.kmx_model_classes(b"12345678", None)


def test_a_dataset_borrows_a_float64_matrix_and_converts_others():
    x = np.arange(12.0).reshape(4, 3)
    borrowed = kmx.Dataset(x, np.array([0.0, 1, 0, 1]))
    assert borrowed._keep[0] is x  # no copy: C reads x in place
    np.testing.assert_array_equal(borrowed.rows(), x)
    from_float32 = kmx.Dataset(x.astype(np.float32))
    np.testing.assert_array_equal(from_float32.rows(), x)
    assert borrowed.shape == (4, 3) and not borrowed.is_sparse()
    np.testing.assert_array_equal(borrowed.labels(), [0, 1, 0, 1])


def test_kernel_block_matches_numpy():
    rng = np.random.default_rng(1)
    a, b = rng.normal(size=(5, 3)), rng.normal(size=(4, 3))
    k = kmx.kernel_block(kmx.Kernel(kernel="rbf", gamma=0.3), a, b)
    expected = np.exp(-0.3 * ((a[:, None, :] - b[None, :, :]) ** 2).sum(-1))
    np.testing.assert_allclose(k, expected, rtol=1e-12)


def test_the_gil_is_released_while_training(letter_bin):
    x, y, _, _ = letter_bin
    data = kmx.Dataset(x[:4000], y[:4000])
    solver, kernel, ctx = kmx.Solver("method=svm C=1"), kmx.Kernel("gamma=1"), kmx.Context(threads=1)
    span = []

    def train():
        start = time.perf_counter()
        solver.train(kernel, data, ctx)
        span.extend([start, time.perf_counter()])

    thread = threading.Thread(target=train)
    ticks = []
    thread.start()
    while thread.is_alive():
        ticks.append(time.perf_counter())  # runs only when the training thread does not hold the GIL
        time.sleep(0.001)
    thread.join()
    start, end = span
    during = [t for t in ticks if start < t < end]
    assert end - start > 0.05, "training too short to tell"
    assert len(during) > 0.02 * (end - start) / 0.001  # ticks of 1 ms: at least 2% of them ran


@pytest.mark.parametrize("method", ["svm", "dcsvm"])
def test_models_are_shared_by_threads(letter_bin, method):
    x, y, xt, _ = letter_bin
    model = kmx.Solver(method=method, C=1.0).train(kmx.Kernel(gamma=1.0), kmx.Dataset(x[:1500], y[:1500]))
    expected = model.predict(kmx.Dataset(xt))
    results = [None] * 4

    def predict(i):
        results[i] = model.predict(kmx.Dataset(xt), kmx.Context(threads=1))

    threads = [threading.Thread(target=predict, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for r in results:
        np.testing.assert_array_equal(r, expected)


def test_the_shared_scenario_equals_c():
    reference = os.environ.get("KMX_SCENARIO_REFERENCE")
    if not reference:
        pytest.skip("KMX_SCENARIO_REFERENCE not set (meson's test sets it)")
    letter = os.path.join(os.environ["KMX_EXAMPLE_DATA"], "letter_mc.train.libsvm")
    scenario = os.path.join(os.path.dirname(__file__), "scenario.py")  # not beside kmx/ in the source tree
    out = subprocess.run([sys.executable, os.environ["KMX_SCENARIO_CHECK"], reference, "--run", sys.executable,
                          scenario, letter, os.environ["KMX_SCENARIO_REGRESSION"]],
                         capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stdout + out.stderr
    assert "matches" in out.stdout


def test_a_scipy_sparse_matrix_keeps_its_values_columns_and_sparsity():
    import scipy.sparse as sp
    x = sp.random(300, 20000, density=0.001, format="csr", random_state=1)
    x = sp.hstack([x[:, :-1], sp.csr_matrix((300, 1))]).tocsr()  # an empty last column: still counted
    y = np.arange(300) % 3 - 0.25
    data = kmx.Dataset(x, y)
    assert data.shape == x.shape and data.is_sparse()
    np.testing.assert_array_equal(data.rows(0, 50), x[:50].toarray())
    np.testing.assert_array_equal(data.labels(), y)
    small = kmx.Dataset(sp.csr_matrix(np.arange(12.0).reshape(3, 4) / 7))
    assert small.is_sparse() and small.nnz() == 11 and small.nonzeros() == 11  # CSR stays CSR
    explicit_zero = kmx.Dataset(sp.csr_matrix((np.array([0.0, 2.0]), np.array([0, 1]), np.array([0, 2])), shape=(1, 2)))
    assert (explicit_zero.nnz(), explicit_zero.nonzeros()) == (2, 1)
    np.testing.assert_array_equal(small.rows(), np.arange(12.0).reshape(3, 4) / 7)


def test_a_scipy_matrix_with_unsorted_or_repeated_columns_is_summed_and_a_nan_is_named():
    import scipy.sparse as sp
    repeated = sp.csr_matrix((np.array([1.0, 2.0, 4.0, 8.0]), np.array([3, 1, 3, 0]), np.array([0, 3, 4])),
                             shape=(2, 5))
    assert not repeated.has_canonical_format
    np.testing.assert_array_equal(kmx.Dataset(repeated).rows(), repeated.toarray())
    np.testing.assert_array_equal(kmx.Dataset(repeated).rows()[0], [0, 2, 0, 5, 0])
    bad = sp.csr_matrix(np.array([[0.0, 1.0], [np.nan, 0.0]]))
    with pytest.raises(kmx.Error, match=r"values\[1\] is NaN"):
        kmx.Dataset(bad)


def test_svc_on_csr_equals_svc_on_the_dense_rows(letter_mc):
    import scipy.sparse as sp
    x, y, xt, _ = letter_mc
    dense = kmx.SVC(C=8.0, gamma=4.0).fit(x[:1500], y[:1500])
    sparse = kmx.SVC(C=8.0, gamma=4.0).fit(sp.csr_matrix(x[:1500]), y[:1500])
    np.testing.assert_allclose(sparse.decision_function(sp.csr_matrix(xt)), dense.decision_function(xt), atol=1e-9)


def test_progress_and_log_callbacks(letter_bin):
    x, y, _, _ = letter_bin
    data, kernel, solver = kmx.Dataset(x[:1000], y[:1000]), kmx.Kernel(gamma=2.0), kmx.Solver("method=dcsvm C=8")
    ctx, progress, messages = kmx.Context(threads=1), [], []
    ctx.set_progress(lambda fraction, phase: progress.append((fraction, phase)) and False)
    ctx.set_log(lambda level, message: messages.append((level, message)), level="debug")
    solver.train(kernel, data, ctx)
    assert progress and progress[-1] == (1.0, "done") and all(0 <= f <= 1 for f, _ in progress)
    assert any("SVs" in message for _, message in messages)

    def fails(fraction, phase):
        raise ZeroDivisionError("raised by the callback")

    ctx.set_progress(fails)  # the callback's own exception comes out of the call
    with pytest.raises(ZeroDivisionError, match="raised by the callback"):
        solver.train(kernel, data, ctx)
    ctx.set_progress(lambda fraction, phase: True)  # a true result cancels
    with pytest.raises(kmx.CancelledError, match="cancelled by the progress callback"):
        solver.train(kernel, data, ctx)
    ctx.set_progress(None)
    solver.train(kernel, data, ctx)
    with pytest.raises(TypeError, match="callable"):
        ctx.set_progress(42)


def test_ctrl_c_interrupts_a_fit(letter_bin):
    import signal
    x, y, _, _ = letter_bin
    timer = threading.Timer(0.05, os.kill, (os.getpid(), signal.SIGINT))
    timer.start()
    with pytest.raises(KeyboardInterrupt):
        kmx.SVC(C=8.0, gamma=2.0, method="svm", n_jobs=1).fit(x[:6000], y[:6000])
    timer.join()


def test_cross_validation_predicts_every_row_from_the_other_folds(letter_bin):
    x, y, _, _ = letter_bin
    data, kernel = kmx.Dataset(x[:1200], y[:1200]), kmx.Kernel(gamma=2.0)
    solver = kmx.Solver("method=svm C=8")
    predicted = solver.cross_validate(kernel, data, 5, kmx.Context(threads=1, seed=3))
    assert predicted.shape == (1200,) and set(predicted) <= {-1.0, 1.0}
    held_out = np.mean(predicted == y[:1200])
    trained = np.mean(solver.train(kernel, data).predict(data) == y[:1200])
    assert 0.8 < held_out < trained  # below the accuracy on the rows trained on
    again = solver.cross_validate(kernel, data, 5, kmx.Context(threads=1, seed=3))
    np.testing.assert_array_equal(again, predicted)  # the folds come from the seed
    with pytest.raises(kmx.InvalidArgumentError, match="fold"):
        solver.cross_validate(kernel, data, 1)


def test_cross_validation_along_c_equals_one_c_at_a_time(letter_bin):
    x, y, _, _ = letter_bin
    data, kernel = kmx.Dataset(x[:800], y[:800]), kmx.Kernel(gamma=2.0)
    solver = kmx.Solver("method=svm C=1 eps=1e-6")
    path = solver.cross_validate_path(kernel, data, 4, "C", [0.5, 2.0, 8.0], kmx.Context(threads=1, seed=5))
    assert path.shape == (3, 800)
    one = kmx.Solver("method=svm C=8 eps=1e-6").cross_validate(kernel, data, 4, kmx.Context(threads=1, seed=5))
    assert np.mean(path[2] == one) > 0.99  # warm started: the same models to the solver's tolerance


def _libsvm_coupling(r):
    """LIBSVM's multiclass_probability (Wu, Lin & Weng's method 2) in numpy, from its paper: p minimising
    p^T Q p / 2 with sum p = 1, Q_tt = sum_{j != t} r_jt^2, Q_tj = -r_jt r_tj, by the fixed-point sweeps until
    max_t |(Qp)_t - p^T Q p| < 0.005 / k (at most max(100, k))."""
    k = r.shape[0]
    Q = -r.T * r
    np.fill_diagonal(Q, 0)
    np.fill_diagonal(Q, (r ** 2).sum(axis=0) - np.diag(r) ** 2)
    p = np.full(k, 1.0 / k)
    for _ in range(max(100, k)):
        Qp = Q @ p
        pQp = p @ Qp
        if np.max(np.abs(Qp - pQp)) < 0.005 / k:
            break
        for t in range(k):
            diff = (-Qp[t] + pQp) / Q[t, t]
            p[t] += diff
            pQp = (pQp + diff * (diff * Q[t, t] + 2 * Qp[t])) / (1 + diff) / (1 + diff)
            Qp = (Qp + diff * Q[t, :]) / (1 + diff)
            p /= 1 + diff
    return p


@pytest.mark.parametrize("multiclass", ["ovo", "ovr"])
def test_a_predictors_probabilities_are_its_decision_values_through_the_models_sigmoids(letter_mc, multiclass):
    """Issue 16: a predictor compressed from a model trained with probability=1 carries the model's sigmoids
    (read here from the blob's bytes: version 3, the u64 at byte 144 their offset); its probabilities are its own
    decision values through them, clamped to [1e-7, 1 - 1e-7], then coupled (one-vs-one, LIBSVM's iteration
    written above in numpy) or normalised (one-vs-rest), to 1e-12; a near-exact predictor (one leaf, a landmark
    per row) gives the model's probabilities to 0.02."""
    x, y, _, _ = letter_mc
    x, y = x[:400], y[:400]
    data = kmx.Dataset(x, y)
    model = kmx.Solver(method="svm", C=4.0, probability=1, multiclass=multiclass).train(kmx.Kernel(gamma=2.0), data)
    predictor = kmx.CompactPredictor.build(model, data, leaves=1, landmarks=400)
    assert predictor.info("probability") == 1
    np.testing.assert_array_equal(predictor.classes(), model.classes())
    blob = predictor.to_bytes()
    assert np.frombuffer(blob, "<u4", 1, 8)[0] == 3
    outputs = int(predictor.info("outputs"))
    at = int(np.frombuffer(blob, "<u8", 1, 144)[0])
    sigmoids = np.frombuffer(blob, "<f8", 2 * outputs, at).reshape(outputs, 2)
    f = predictor.decision_values(data)
    k = len(model.classes())
    pairwise = 1 / (1 + np.exp(f * sigmoids[:, 0] + sigmoids[:, 1]))
    expected = np.empty((len(y), k))
    for i in range(len(y)):
        if multiclass == "ovr":
            row = np.maximum(pairwise[i], 1e-7)
            expected[i] = row / row.sum()
            continue
        r = np.zeros((k, k))
        r[np.triu_indices(k, 1)] = np.clip(pairwise[i], 1e-7, 1 - 1e-7)
        r += np.tril(1 - r.T, -1)
        expected[i] = _libsvm_coupling(r)
    ours = predictor.predict_probability(data)
    np.testing.assert_allclose(ours, expected, rtol=0, atol=1e-12)
    np.testing.assert_allclose(ours.sum(axis=1), 1, atol=1e-12)
    assert np.max(np.abs(ours - model.predict_probability(data))) < 0.02
    plain = kmx.Solver(method="svm", C=4.0).train(kmx.Kernel(gamma=2.0), data)
    without = kmx.CompactPredictor.build(plain, data, leaves=1, landmarks=50)
    assert without.info("probability") == 0
    with pytest.raises(ValueError, match="no probability estimates"):
        without.predict_probability(data)


def test_the_predictor_estimator_has_predict_proba_when_its_svc_has(letter_mc):
    """kmx.Predictor(SVC(probability=True)).predict_proba: the compact predictor's probabilities in classes_' order;
    absent (AttributeError) without probability."""
    x, y, xt, _ = letter_mc
    fitted = kmx.Predictor(kmx.SVC(C=4.0, gamma=2.0, method="svm", probability=True), leaves=1,
                           landmarks=400).fit(x[:400], y[:400])
    p = fitted.predict_proba(xt[:50])
    assert p.shape == (50, len(fitted.classes_))
    np.testing.assert_allclose(p.sum(axis=1), 1, atol=1e-12)
    np.testing.assert_allclose(p, fitted.predictor_.predict_probability(kmx.Dataset(xt[:50])), atol=0)
    assert np.max(np.abs(p - fitted.estimator_.predict_proba(xt[:50]))) < 0.05
    assert not hasattr(kmx.Predictor(kmx.SVC(method="svm")), "predict_proba")


def test_a_budget_search_that_returns_the_model_itself_says_its_accuracy_is_in_sample(letter_bin):
    """The budget search may return the model itself (its support vectors as one leaf) where its bytes fit. Its
    validation rows trained that model, so its accuracy there is in-sample, and validation_in_sample says so (1);
    a DC-Pred++ choice (a budget below the model's own int4 form) was scored on held-out rows (0); a predictor not
    built to a budget: NaN. The flag travels in the blob."""
    x, y, _, _ = letter_bin
    data = kmx.Dataset(x[:300], y[:300])
    model = kmx.Solver(method="svm", C=8.0).train(kmx.Kernel(gamma=16.0), data)
    itself = kmx.CompactPredictor.build(model, data, max_bytes=8000)
    assert itself.info("leaves") == 1 and itself.info("landmarks") == model.info("support_vectors")
    assert itself.info("validation_in_sample") == 1
    assert kmx.CompactPredictor.from_bytes(itself.to_bytes()).info("validation_in_sample") == 1
    compact = kmx.CompactPredictor.build(model, data, max_bytes=3000)
    assert compact.info("landmarks") < model.info("support_vectors") and compact.info("validation_in_sample") == 0
    assert np.isnan(kmx.CompactPredictor.build(model, data, leaves=2, landmarks=20).info("validation_in_sample"))
