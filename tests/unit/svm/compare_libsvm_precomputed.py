#!/usr/bin/env python3
"""Precomputed kernels end to end against LIBSVM's -t 4: the Gaussian kernel
matrix of some rows, written as LIBSVM's precomputed rows ("label 0:i 1:K(xi,x1)
... l:K(xi,xl)", test rows "label 0:? 1:K(x,x1) ..."; every value with 17
significant digits, so both read the same doubles), trained by `kmx train -t 4`
(and `-k precomputed`) and by `svm-train -t 4`, with LIBSVM's tolerance -e 0.001
and shrinking; predicted by `kmx predict` and `svm-predict`. kmx's decision
values come from libkmx through ctypes (kmx_model_decision_values on the test
rows read with KMX_FORMAT_PRECOMPUTED); LIBSVM's are computed here from its model
file, whose support vectors are serial numbers: f(x) = sum_i coef_i K(x, x_{s_i})
- rho, what svm-predict evaluates.

Asserts, per case (C-SVC on two classes, C-SVC on letters' classes one-vs-one,
epsilon-SVR, one-class):
  - the dual objective (kmx info's; LIBSVM's "obj =", summed over the binary
    problems) within 1e-3 relative (both stop at a KKT violation below 1e-3);
  - the decision values on the test rows within TOL = 1e-2 (binary, SVR,
    one-class; kmx's sign is turned to LIBSVM's first label's);
  - the labels (predictions) equal, except on rows where LIBSVM's decision
    value is within TOL of 0 (binary, one-class) or, one-vs-one, where kmx's
    votes tie between its label and LIBSVM's (ties go to the first class in
    each one's order: kmx's sorted labels, LIBSVM's order of appearance);
    SVR's predicted values within TOL;
  - `-k precomputed` and `-t 4` train the same model (the same objective,
    decision values and labels, exactly), and `-k rbf -g GAMMA` on the
    features the same one to the solver's tolerance: objective within 1e-3
    relative, decision values within TOL (the same problem; the kernel values
    differ in their last bits, which may change the solver's path: SVR's
    did, 4e-6 relative in the objective, 2e-3 in a decision value, when
    written; the others agreed to 1e-13).
Exits 77 (skipped) without svm-train/svm-predict.

usage: compare_libsvm_precomputed.py KMX LIBKMX EXAMPLE_DATA_DIR
"""
import ctypes
import math
import os
import random
import re
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from compare_libsvm_one_class import parse_row, run, start  # noqa: E402

TOL = 1e-2
OBJECTIVE_REL = 1e-3
KMX_FORMAT_LIBSVM, KMX_FORMAT_PRECOMPUTED = 1, 4


def rbf(gamma, a, b):
    return math.exp(-gamma * sum((a.get(k, 0.0) - b.get(k, 0.0)) ** 2 for k in set(a) | set(b)))


def precomputed_lines(labels, rows, train_rows, gamma, serials):
    lines = []
    for i, (label, x) in enumerate(zip(labels, rows)):
        values = " ".join(f"{j + 1}:{rbf(gamma, x, t)!r}" for j, t in enumerate(train_rows))
        lines.append(f"{label:g} 0:{i + 1 if serials else 0} {values}\n")
    return lines


def decision_values(lib, model_path, test_path, data_format=KMX_FORMAT_PRECOMPUTED):
    """kmx_model_decision_values of every test row (all of a row's values, row after row)."""
    model, data = ctypes.c_void_p(), ctypes.c_void_p()
    lib.check(lib.lib.kmx_model_load(ctypes.byref(model), model_path.encode()))
    lib.check(lib.lib.kmx_dataset_load(ctypes.byref(data), None, test_path.encode(), data_format))
    try:
        n, outputs = ctypes.c_int64(), ctypes.c_double()
        lib.check(lib.lib.kmx_dataset_rows(ctypes.byref(n), data))
        lib.check(lib.lib.kmx_model_info(ctypes.byref(outputs), model, 4))  # KMX_INFO_DECISION_VALUES
        k = int(outputs.value)
        out = (ctypes.c_double * (n.value * k))()
        lib.check(lib.lib.kmx_model_decision_values(out, n.value * k, None, model, data))
        return list(out)
    finally:
        lib.lib.kmx_dataset_free(data)
        lib.lib.kmx_model_free(model)


def sv_line(line):
    """A support vector line of LIBSVM's model: its (first) coefficient and its serial number ("0:s")."""
    tokens = line.split()
    serial = next(t for t in tokens if t.startswith("0:"))
    return float(tokens[0]), int(float(serial[2:]))


def libsvm(options, train, test, tmp):
    model, out = os.path.join(tmp, "libsvm.model"), os.path.join(tmp, "libsvm.out")
    log = run(["svm-train", "-t", "4", "-e", "0.001", "-m", "100"] + options + [train, model])
    run(["svm-predict", test, model, out])
    lines = open(model).read().splitlines()
    header = dict(l.split(" ", 1) for l in lines[:lines.index("SV")])
    svs = [sv_line(l) for l in lines[lines.index("SV") + 1:] if l]
    return {"objective": sum(float(v) for v in re.findall(r"obj = (\S+),", log)),
            "rho": float(header["rho"].split()[0]), "first_label": float(header.get("label", "1").split()[0]),
            "svs": svs, "labels": [float(v) for v in open(out).read().split()]}


def kmx(tool, lib, options, kernel, train, test, tmp, name):
    """kmx train, info and predict; the decision values of test rows read as precomputed ones (test_rows
    None) or of the feature rows test_rows."""
    model, out = os.path.join(tmp, name + ".model"), os.path.join(tmp, name + ".out")
    run([tool, "train", "--threads", "1"] + options + kernel + [train, model])
    info = run([tool, "info", model])
    run([tool, "predict", model, test, out])
    return {"objective": float(re.search(r"objective (\S+)", info).group(1)), "model": model,
            "labels": [float(v) for v in open(out).read().split()]}


def compare(name, tool, lib, kind, train_lines, test_lines, gamma, kmx_options, libsvm_options):
    train_rows = [parse_row(l) for l in train_lines]
    test_rows = [parse_row(l) for l in test_lines]
    train_labels = [float(l.split()[0]) for l in train_lines]
    test_labels = [float(l.split()[0]) for l in test_lines]
    with tempfile.TemporaryDirectory() as tmp:
        paths = {k: os.path.join(tmp, k) for k in ("train.pre", "test.pre", "train.x", "test.x")}
        open(paths["train.pre"], "w").writelines(precomputed_lines(train_labels, train_rows, train_rows, gamma, True))
        open(paths["test.pre"], "w").writelines(precomputed_lines(test_labels, test_rows, train_rows, gamma, False))
        open(paths["train.x"], "w").writelines(train_lines)
        open(paths["test.x"], "w").writelines(test_lines)
        ref = libsvm(libsvm_options, paths["train.pre"], paths["test.pre"], tmp)
        got = kmx(tool, lib, kmx_options, ["-t", "4"], paths["train.pre"], paths["test.pre"], tmp, "t4")
        named = kmx(tool, lib, kmx_options, ["-k", "precomputed"], paths["train.pre"], paths["test.pre"], tmp, "named")
        features = kmx(tool, lib, kmx_options, ["-k", "rbf", "-g", repr(gamma)], paths["train.x"], paths["test.x"],
                       tmp, "features")
        got["values"] = decision_values(lib, got["model"], paths["test.pre"])
        named["values"] = decision_values(lib, named["model"], paths["test.pre"])
        feature_values = decision_values(lib, features["model"], paths["test.x"], KMX_FORMAT_LIBSVM)
    same_model = named["objective"] == got["objective"] and named["values"] == got["values"] and \
        named["labels"] == got["labels"]
    ref_values = [sum(c * rbf(gamma, x, train_rows[s - 1]) for c, s in ref["svs"]) - ref["rho"] for x in test_rows]
    objective_rel = abs(got["objective"] - ref["objective"]) / abs(ref["objective"])
    same_rel = abs(features["objective"] - got["objective"]) / abs(got["objective"])
    feature_diff = max(abs(a - b) for a, b in zip(feature_values, got["values"]))
    if kind == "svr":  # predicted values, not labels
        differ = [i for i, (a, b) in enumerate(zip(got["labels"], ref["labels"])) if abs(a - b) > TOL]
    else:
        differ = [i for i, (a, b) in enumerate(zip(got["labels"], ref["labels"])) if a != b]
    lines = [f"{name}: {kind}, train {len(train_lines)} test {len(test_lines)} gamma={gamma} {' '.join(kmx_options)}",
             f"  objective kmx {got['objective']:.10g} libsvm {ref['objective']:.10g} (rel {objective_rel:.2e})",
             f"  {'predictions' if kind == 'svr' else 'labels'} {len(differ)} of {len(test_lines)} differ"
             + (f" by more than {TOL}" if kind == "svr" else ""),
             f"  -k rbf on the features: objective rel {same_rel:.2e}, decision values max |diff| {feature_diff:.2e}",
             f"  -t 4 and -k precomputed train the same model: {same_model}"]
    ok = objective_rel <= OBJECTIVE_REL and same_rel <= OBJECTIVE_REL and feature_diff <= TOL and same_model
    if kind == "ovo":
        ok = ok and all(tied_votes(got["values"], i, sorted(set(train_labels)), got["labels"][i], ref["labels"][i])
                        for i in differ)
    else:
        kmx_values = got["values"]
        if kind == "binary" and ref["first_label"] != max(train_labels):  # kmx: > 0 for the larger label
            kmx_values = [-v for v in kmx_values]
        value_diff = max(abs(a - b) for a, b in zip(kmx_values, ref_values))
        lines.append(f"  decision  max |diff| {value_diff:.2e} over {len(test_rows)} test rows")
        near_ties = all(abs(ref_values[i]) <= TOL for i in differ) if kind != "svr" else not differ
        ok = ok and value_diff <= TOL and near_ties
    print("\n".join(lines) + f"\n  {'ok' if ok else 'MISMATCH'}", flush=True)
    return ok


def tied_votes(values, row, classes, a, b):
    """Whether one-vs-one decision values (pairs (i, j), i < j, > 0 for class i) give classes a and b the
    most votes, equally, on this row."""
    k = len(classes)
    pairs = [(i, j) for i in range(k) for j in range(i + 1, k)]
    votes = [0] * k
    for (i, j), v in zip(pairs, values[row * len(pairs):(row + 1) * len(pairs)]):
        votes[i if v > 0 else j] += 1
    return votes[classes.index(a)] == votes[classes.index(b)] == max(votes)


def regression_lines(n, seed):
    rng = random.Random(seed)
    lines = []
    for _ in range(n):
        a, b = rng.uniform(-2, 2), rng.uniform(-2, 2)
        lines.append(f"{math.sin(a) + 0.5 * b + rng.gauss(0, 0.1)!r} 1:{a!r} 2:{b!r}\n")
    return lines


def head(path, n):
    with open(path) as f:
        return [line for _, line in zip(range(n), f)]


def main():
    started = start()
    if started is None:
        return 77
    tool, lib, data_dir = started
    letter = head(os.path.join(data_dir, "letter_bin.train.libsvm"), 300)
    letter_test = head(os.path.join(data_dir, "letter_bin.test.libsvm"), 200)
    letters = head(os.path.join(data_dir, "letter_mc.train.libsvm"), 400)
    letters_test = head(os.path.join(data_dir, "letter_mc.test.libsvm"), 200)
    regression = regression_lines(450, 7)
    results = [
        compare("letter300", tool, lib, "binary", letter, letter_test, 2.0, ["-s", "svm", "-c", "4"], ["-c", "4"]),
        compare("letters400", tool, lib, "ovo", letters, letters_test, 2.0, ["-s", "svm", "-c", "8"], ["-c", "8"]),
        compare("sine300", tool, lib, "svr", regression[:300], regression[300:], 0.5,
                ["-s", "svr", "-c", "2", "-p", "0.1"], ["-s", "3", "-c", "2", "-p", "0.1"]),
        compare("letter300_one_class", tool, lib, "one_class", letter, letter_test, 2.0,
                ["-s", "one-class", "-n", "0.2"], ["-s", "2", "-n", "0.2"]),
    ]
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main())
