"""scenario.py DATA_FILE REGRESSION_FILE OUT_FILE: the shared scenario (tests/scenario/README.md)
through the Python package, written in the README's format with round-trip doubles, for
check_scenario.py to compare with the C reference."""
import functools
import operator
import sys

import numpy as np

import kmx


def main(data_file, regression_file, out_file):
    ctx = kmx.Context("threads=1 seed=42")
    data = kmx.Dataset.load(data_file, ctx)
    kernel = kmx.Kernel("kernel=rbf gamma=0.5")
    results = {}
    results["kernel_block"] = kmx.kernel_block(kernel, (data, 0, 10), (data, 0, 8), ctx)
    results["kernel_block_dense"] = kmx.kernel_block(kernel, data.rows(0, 3), data.rows(3, 7), ctx)
    centers, assignment, objective = kmx.kmeans(data, 26, ctx, max_iter=50)
    _, sqdist = kmx.kmeans_assign(data, centers, ctx)
    results["kmeans_objective"] = objective
    results["kmeans_centers"] = centers
    results["kmeans_assignment"] = assignment
    results["assign_sqdist_sum"] = functools.reduce(operator.add, sqdist.tolist(), 0.0)  # left to right, as C

    # Step 6: DC-SVM (26 classes, one-vs-one) on rows [0, 2000), tested on rows [2000, 2500).
    labels = data.labels()

    def rows_of(begin, end):
        return kmx.Dataset(data.rows(begin, end), labels[begin:end])

    train, test, first = rows_of(0, 2000), rows_of(2000, 2500), rows_of(2000, 2020)
    solver = kmx.Solver("method=dcsvm C=8 levels=2 clusters_per_level=4 sample_size=300")
    model = solver.train(kmx.Kernel("kernel=rbf gamma=16"), train, ctx)
    results["model_predictions"] = model.predict(test, ctx)
    results["model_decision_values"] = model.decision_values(first, ctx)
    results["model_support_vectors"] = model.info("support_vectors")
    results["model_objective"] = model.info("objective")
    results["model_reloaded_predictions"] = kmx.Model.from_bytes(model.to_bytes()).predict(test, ctx)

    # Step 7: a compact predictor from that model, its outputs, blob size and a blob round trip.
    predictor = kmx.CompactPredictor.build(model, train, ctx, "leaves=4 landmarks=16 pseudo=32")
    blob = predictor.to_bytes()
    results["predictor_predictions"] = predictor.predict(test, ctx)
    results["predictor_decision_values"] = predictor.decision_values(first, ctx)
    results["predictor_bytes"] = len(blob)
    results["predictor_reloaded_predictions"] = kmx.CompactPredictor.from_bytes(blob).predict(test, ctx)

    # Step 8: MEKA over rows [0, 1000) with the step-2 kernel.
    approx_rows = rows_of(0, 1000)
    approx = kmx.Approximation(kernel, approx_rows, ctx, "approx=meka rank=16 clusters=4")
    v = np.arange(1000) % 7 - 3.0
    results["approx_rank"] = approx.rank
    results["approx_memory_bytes"] = approx.memory_bytes
    results["approx_relative_error"] = approx.relative_error(approx_rows, 1000, ctx)
    results["approx_matvec"] = approx.matvec(v, ctx)
    results["approx_solve"] = approx.solve(v, 0.1, ctx)

    # Step 9: FALKON regression on rows [0, 80) of the regression file, predictions on rows [80, 106).
    regression = kmx.Dataset.load(regression_file, ctx)
    targets = regression.labels()
    krr = kmx.Solver("method=falkon lambda=1e-4 centers=40 iterations=30").train(
        kmx.Kernel("kernel=rbf gamma=1"), kmx.Dataset(regression.rows(0, 80), targets[:80]), ctx)
    results["krr_predictions"] = krr.predict(kmx.Dataset(regression.rows(80, 106), targets[80:]), ctx)
    results["krr_task"] = krr.info("task")
    results["krr_lambda"] = krr.info("lambda")

    with open(out_file, "w") as out:
        for name, values in results.items():
            values = np.ravel(values)  # row-major, as in C
            text = [str(v) if values.dtype.kind in "iu" else "%.17g" % v for v in values.tolist()]
            out.write(f"{name} {len(text)} {' '.join(text)}\n")


if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.exit("usage: scenario.py DATA_FILE REGRESSION_FILE OUT_FILE")
    main(*sys.argv[1:])
