"""The C functions the estimators and the Dataset/Model classes do not call by name, each called through
kmx.capi once, its result checked against an independent value: a closed form, the header, numpy, or the
value set a line before. (kmx_context_set_communicator: test_communicator.py.)"""
import math
import os
import re

import numpy as np
import pytest

import kmx
from kmx import _core, capi

from conftest import SOURCE_ROOT

X = np.array([[0.0, 1.0], [1.0, 0.5], [2.0, 2.0], [3.0, 1.5], [0.5, 0.0], [2.5, 3.0]])
Y = np.array([-1.0, -1.0, 1.0, 1.0, -1.0, 1.0])


def header():
    return open(os.path.join(SOURCE_ROOT, "include", "kmx", "kmx.h")).read()


def param(name):
    return capi.kmx_param_from_name(name)


def test_version_number_is_the_version_string():
    major, minor, patch = (int(part) for part in capi.kmx_version().split(".")[:3])
    assert capi.kmx_version_number() == major * 10000 + minor * 100 + patch


def test_the_parameter_table_lists_the_headers_parameters():
    enum = header()[header().index("typedef enum kmx_param {"):header().index("} kmx_param;")]
    in_header = dict((name.lower(), int(value)) for name, value in re.findall(r"KMX_PARAM_(\w+) = (\d+),", enum))
    assert capi.kmx_param_count() == len(in_header)
    listed = [capi.kmx_param_at(i) for i in range(capi.kmx_param_count())]
    assert sorted(listed) == sorted(in_header.values())
    for value in listed:
        assert capi.kmx_param_from_name(capi.kmx_param_name(value)) == value
    with pytest.raises(kmx.Error):
        capi.kmx_param_at(capi.kmx_param_count())


def test_bounds_defaults_checks_owners_and_users_of_a_parameter():
    lower, upper, flags = capi.kmx_param_bounds(param("gamma"))
    assert (lower, upper) == (0.0, math.inf) and flags & capi.KMX_BOUND_LOWER_OPEN
    assert capi.kmx_param_default(param("C")) == 1.0
    capi.kmx_param_check(param("C"), 2.0)
    with pytest.raises(kmx.Error, match="out of range"):
        capi.kmx_param_check(param("C"), 0.0)
    assert "cost" in capi.kmx_param_description(param("C"))
    assert capi.kmx_param_owners(param("C")) == capi.KMX_PARAM_OWNER_SOLVER
    assert capi.kmx_param_owners(param("gamma")) & capi.KMX_PARAM_OWNER_KERNEL
    assert capi.kmx_param_used_by(param("C"), capi.KMX_METHOD_SVM) == 1
    assert capi.kmx_param_used_by(param("lambda"), capi.KMX_METHOD_SVM) == 0
    assert capi.kmx_param_value_name(param("kernel"), capi.KMX_KERNEL_RBF) == "rbf"
    assert capi.kmx_param_value_name(param("kernel"), 99) is None


def test_the_last_error_is_cleared():
    with pytest.raises(kmx.Error):
        capi.kmx_param_check(param("C"), -1.0)
    assert "out of range" in capi.kmx_last_error()
    capi.kmx_clear_error()
    assert capi.kmx_last_error() == ""


def test_kernel_eval_after_set_param_and_set_params_is_the_closed_form():
    kernel = kmx.Kernel("kernel=rbf gamma=1")
    a, b = np.array([1.0, 2.0, 3.0]), np.array([0.5, 2.5, 1.0])
    capi.kmx_kernel_set_param(kernel._handle, param("gamma"), 0.3)
    assert capi.kmx_kernel_eval(kernel._handle, a, b, 3) == pytest.approx(math.exp(-0.3 * 4.5), rel=1e-15)
    capi.kmx_kernel_set_params(kernel._handle, "kernel=polynomial gamma=0.5 coef0=1 degree=2")
    assert capi.kmx_kernel_eval(kernel._handle, a, b, 3) == pytest.approx((0.5 * 8.5 + 1) ** 2, rel=1e-15)


def test_context_and_solver_parameters_read_back_what_was_set():
    ctx = kmx.Context()
    capi.kmx_context_set_param(ctx._handle, param("threads"), 1)
    assert capi.kmx_context_get_param(ctx._handle, param("threads")) == 1
    solver = kmx.Solver("method=svm")
    capi.kmx_solver_set_param(solver._handle, param("C"), 7.0)
    assert capi.kmx_solver_get_param(solver._handle, param("C")) == 7.0
    capi.kmx_solver_set_params(solver._handle, "C=0.25 eps=0.01")
    assert (capi.kmx_solver_get_param(solver._handle, param("C")),
            capi.kmx_solver_get_param(solver._handle, param("eps"))) == (0.25, 0.01)


def test_a_cancelled_context_stops_training():
    ctx = kmx.Context()
    ctx.set_progress(lambda fraction, phase: capi.kmx_context_cancel(ctx._handle) and False)  # cancel, go on
    with pytest.raises(kmx.Error, match="cancelled by kmx_context_cancel"):
        kmx.Solver("method=svm").train(kmx.Kernel("kernel=rbf gamma=0.5"), kmx.Dataset(X, Y), ctx=ctx)


def test_dataset_queries_classes_shards_and_dense_copy(tmp_path):
    data = kmx.Dataset(X, Y)
    assert capi.kmx_dataset_has_labels(data._handle) == 1
    assert capi.kmx_dataset_has_weights(data._handle) == 0
    assert capi.kmx_dataset_is_float32(data._handle) == 0
    labels, counts = np.empty(2), np.empty(2, dtype=np.int64)
    assert capi.kmx_dataset_classes(labels, counts, data._handle) == 2
    np.testing.assert_array_equal(labels, [-1.0, 1.0])
    np.testing.assert_array_equal(counts, [3, 3])
    path = tmp_path / "six.libsvm"
    path.write_text("".join(f"{y:g} 1:{a:g} 2:{b:g}\n" for (a, b), y in zip(X, Y)))
    shards = [kmx.Dataset._adopt(capi.kmx_dataset_load_shard(None, str(path), capi.KMX_FORMAT_AUTO, s, 2))
              for s in range(2)]
    np.testing.assert_array_equal(np.vstack([shard.rows() for shard in shards]), X)
    sparse = kmx.Dataset.parse("1 3:2\n-1 1:0.5\n", format=capi.KMX_FORMAT_LIBSVM)
    dense = kmx.Dataset._adopt(capi.kmx_dataset_to_dense(None, sparse._handle))
    np.testing.assert_array_equal(dense.rows(), [[0, 0, 2], [0.5, 0, 0]])


def test_models_and_predictors_load_from_files_and_buffers(tmp_path):
    data = kmx.Dataset(X, Y)
    model = kmx.Solver("method=svm C=10").train(kmx.Kernel("kernel=rbf gamma=0.5"), data)
    expected = model.decision_values(data)
    model.save(tmp_path / "m.kmx")
    from_file = kmx.Model(capi.kmx_model_load(str(tmp_path / "m.kmx")))
    from_buffer = kmx.Model(capi.kmx_model_load_from_buffer(model.to_bytes()))
    for loaded in (from_file, from_buffer):
        np.testing.assert_array_equal(loaded.decision_values(data), expected)
    capi.kmx_model_free(capi.kmx_model_load(str(tmp_path / "m.kmx")))

    predictor = _core.Predictor.build(model, data, leaves=1)
    capi.kmx_predictor_save(predictor._handle, str(tmp_path / "p.kmxp"))
    size = capi.kmx_predictor_save_to_buffer(None, predictor._handle)
    blob = bytearray(size)
    capi.kmx_predictor_save_to_buffer(blob, predictor._handle)
    assert bytes(blob) == (tmp_path / "p.kmxp").read_bytes()
    for handle in (capi.kmx_predictor_load(str(tmp_path / "p.kmxp")), capi.kmx_predictor_load_from_buffer(bytes(blob))):
        np.testing.assert_array_equal(_core.Predictor(handle).predict(data), predictor.predict(data))
    capi.kmx_predictor_free(capi.kmx_predictor_load(str(tmp_path / "p.kmxp")))


def test_the_system_probe_names_a_kernel_set_and_counts_cores():
    assert capi.kmx_system_kernel_set() in ("skx", "zen3", "zen2", "zen", "haswell", "generic", "knl", "zen4")
    assert capi.kmx_system_kernel_set_origin()
    assert 1 <= capi.kmx_system_info(capi.KMX_SYSTEM_CORES) <= os.cpu_count()
    assert capi.kmx_system_info(capi.KMX_SYSTEM_MEMORY_AVAILABLE) > 0
