#!/usr/bin/env python3
"""One-class SVM end to end against LIBSVM: `kmx train -s one-class -n NU` /
`kmx predict` and `svm-train -s 2 -n NU` / `svm-predict` on the same rows with
the same nu and gamma, both with LIBSVM's stopping tolerance -e 0.001 and
shrinking. kmx's decision values come from libkmx through ctypes
(kmx_model_decision_values); LIBSVM's are computed here from its model file,
sum_i coef_i exp(-gamma |x_i - x|^2) - rho, which is what svm-predict
evaluates (svm_predict_values for ONE_CLASS).

Asserts, per case:
  - rho (kmx's: minus the decision value's constant, read as f(x) at a point
    far from every row, where every kernel value underflows to 0) within
    TOL = 2e-3 absolute: both solvers stop when the largest KKT violation,
    the spread of (K alpha)_i over the free alphas, which is absolute and on
    rho's scale, is below eps = 1e-3; each rho is the average of its free
    (K alpha)_i, so each lies within eps of the exact one and the two within
    2 eps;
  - the dual objective (kmx info's, LIBSVM's "obj =") within 1e-3 relative,
    as the SVR comparison;
  - the support vectors: the same training rows, at most max(2, 2%) of
    LIBSVM's nSV in either set only (alphas near 0 may or may not be 0 at an
    eps-solution);
  - decision values on held-out rows within TOL absolute (the same argument
    as rho: f = (K alpha)(x) - rho, both terms within eps);
  - the predicted labels (kmx predict's file, svm-predict's) equal, except on
    rows whose LIBSVM decision value is within TOL of 0 (none so far).
Exits 77 (skipped) without svm-train/svm-predict.

Cases: the first 300 rows of examples/data/letter_bin.train.libsvm (16
features in [0, 1]) with nu 0.05, 0.2 and 0.5 and gamma 2, tested on the
first 200 rows of letter_bin.test.libsvm; a generated 2-d blob (seed 3, 400
rows, labels all 1) with nu 0.1, gamma 0.5, tested on 200 fresh rows.

usage: compare_libsvm_one_class.py KMX LIBKMX EXAMPLE_DATA_DIR
"""
import ctypes
import math
import os
import random
import re
import shutil
import struct
import subprocess
import sys
import tempfile

TOL = 2e-3
OBJECTIVE_REL = 1e-3


def run(cmd):
    return subprocess.run(cmd, check=True, capture_output=True, text=True).stdout


def parse_row(line):
    parts = line.split()
    return {int(k): float(v) for k, v in (p.split(":") for p in parts[1:])}


def key(row):
    return tuple(sorted((k, v) for k, v in row.items() if v != 0))


def rbf(gamma, a, b):
    s = 0.0
    for k in set(a) | set(b):
        diff = a.get(k, 0.0) - b.get(k, 0.0)
        s += diff * diff
    return math.exp(-gamma * s)


class Libkmx:
    def __init__(self, path):
        lib = self.lib = ctypes.CDLL(path)
        vpp = ctypes.POINTER(ctypes.c_void_p)
        lib.kmx_last_error.restype = ctypes.c_char_p
        lib.kmx_model_load.argtypes = [vpp, ctypes.c_char_p]
        lib.kmx_model_free.argtypes = [ctypes.c_void_p]
        lib.kmx_dataset_load.argtypes = [vpp, ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int]
        lib.kmx_dataset_create.argtypes = [vpp, ctypes.POINTER(ctypes.c_double), ctypes.c_int64, ctypes.c_int64,
                                           ctypes.POINTER(ctypes.c_double), ctypes.c_int]
        lib.kmx_dataset_free.argtypes = [ctypes.c_void_p]
        lib.kmx_dataset_rows.argtypes = [ctypes.POINTER(ctypes.c_int64), ctypes.c_void_p]
        lib.kmx_model_info.argtypes = [ctypes.POINTER(ctypes.c_double), ctypes.c_void_p, ctypes.c_int]
        lib.kmx_model_decision_values.argtypes = [ctypes.POINTER(ctypes.c_double), ctypes.c_int64, ctypes.c_void_p,
                                                  ctypes.c_void_p, ctypes.c_void_p]

    def check(self, status):
        if status != 0:
            raise RuntimeError(f"kmx status {status}: {self.lib.kmx_last_error().decode()}")

    def decision_values(self, model_path, rows, d):
        """f(x) of each row (dicts of 1-based columns), and f at a far point (-rho)."""
        model = ctypes.c_void_p()
        self.check(self.lib.kmx_model_load(ctypes.byref(model), model_path.encode()))
        far = {k: 1e6 for k in range(1, d + 1)}
        dense = [r.get(k, 0.0) for r in rows + [far] for k in range(1, d + 1)]
        n = len(rows) + 1
        x = (ctypes.c_double * len(dense))(*dense)
        data = ctypes.c_void_p()
        self.check(self.lib.kmx_dataset_create(ctypes.byref(data), x, n, d, None, 0))
        out = (ctypes.c_double * n)()
        try:
            self.check(self.lib.kmx_model_decision_values(out, n, None, model, data))
        finally:
            self.lib.kmx_dataset_free(data)
            self.lib.kmx_model_free(model)
        values = list(out)
        return values[:-1], -values[-1]


def libsvm(train, test, nu, gamma, tmp):
    model, out = os.path.join(tmp, "libsvm.model"), os.path.join(tmp, "libsvm.out")
    log = run(["svm-train", "-s", "2", "-n", repr(nu), "-g", repr(gamma), "-e", "0.001", "-m", "100", train, model])
    run(["svm-predict", test, model, out])
    obj, rho = map(float, re.search(r"obj = (\S+), rho = (\S+)", log).groups())
    lines = open(model).read().splitlines()
    start = lines.index("SV") + 1
    svs = [(float(l.split()[0]), parse_row(l)) for l in lines[start:] if l.strip()]
    return {"objective": obj, "rho": rho, "svs": svs, "labels": [float(v) for v in open(out).read().split()]}


def kmx(tool, lib, train, test, test_rows, d, nu, gamma, tmp):
    model, out = os.path.join(tmp, "kmx.model"), os.path.join(tmp, "kmx.out")
    trained = run([tool, "train", "-s", "one-class", "-n", repr(nu), "-g", repr(gamma), "--threads", "1", train, model])
    assert trained.startswith("trained one-class:"), trained
    info = run([tool, "info", model])
    assert f"nu        {nu:g}\n" in info, info
    run([tool, "predict", model, test, out])
    values, rho = lib.decision_values(model, test_rows, d)
    return {"objective": float(re.search(r"objective (\S+)", info).group(1)),
            "sv": int(re.search(r"^sv\s+(\d+)", info, re.M).group(1)),
            "rho": rho, "values": values, "labels": [float(v) for v in open(out).read().split()]}


def compare(name, tool, lib, train_lines, test_lines, d, nu, gamma):
    with tempfile.TemporaryDirectory() as tmp:
        train, test = os.path.join(tmp, "train.libsvm"), os.path.join(tmp, "test.libsvm")
        open(train, "w").writelines(train_lines)
        open(test, "w").writelines(test_lines)
        train_rows = [parse_row(l) for l in train_lines]
        test_rows = [parse_row(l) for l in test_lines]
        ref = libsvm(train, test, nu, gamma, tmp)
        got = kmx(tool, lib, train, test, test_rows, d, nu, gamma, tmp)
        kmx_svs = kmx_sv_rows(os.path.join(tmp, "kmx.model"), train_rows, d)
    ref_values = [sum(c * rbf(gamma, sv, x) for c, sv in ref["svs"]) - ref["rho"] for x in test_rows]
    index = {}
    for i, row in enumerate(train_rows):
        index.setdefault(key(row), i)
    ref_sv_rows = {index[key(sv)] for _, sv in ref["svs"]}
    only = len(ref_sv_rows ^ kmx_svs)
    sv_ok = only <= max(2, 0.02 * len(ref_sv_rows))
    rho_diff = abs(got["rho"] - ref["rho"])
    objective_rel = abs(got["objective"] - ref["objective"]) / abs(ref["objective"])
    value_diff = max(abs(a - b) for a, b in zip(got["values"], ref_values))
    label_diff = [i for i, (a, b) in enumerate(zip(got["labels"], ref["labels"])) if a != b]
    labels_ok = all(abs(ref_values[i]) <= TOL for i in label_diff) and len(got["labels"]) == len(test_rows)
    agree = sum(1 for a, b in zip(got["labels"], ref_values) if a == (1.0 if b > 0 else -1.0))
    ok = rho_diff <= TOL and objective_rel <= OBJECTIVE_REL and sv_ok and value_diff <= TOL and labels_ok \
        and agree == len(test_rows) - len(label_diff)
    inliers = sum(1 for v in got["labels"] if v > 0)
    print(f"{name}: train {len(train_lines)} test {len(test_lines)} nu={nu} gamma={gamma}\n"
          f"  rho       kmx {got['rho']:.8g} libsvm {ref['rho']:.8g} (diff {rho_diff:.2e})\n"
          f"  objective kmx {got['objective']:.8g} libsvm {ref['objective']:.8g} (rel {objective_rel:.2e})\n"
          f"  SVs       kmx {len(kmx_svs)} libsvm {len(ref_sv_rows)}, in one set only {only}\n"
          f"  decision  max |diff| {value_diff:.2e} over {len(test_rows)} test rows\n"
          f"  labels    {len(label_diff)} differ ({inliers} predicted inliers)\n"
          f"  {'ok' if ok else 'MISMATCH'}", flush=True)
    return ok


def kmx_sv_rows(model_path, train_rows, d):
    """The training rows that are kmx's support vectors: the model file holds
    its points as d little-endian f64 values each (lib/model/model_file.cpp's
    points section; a one-class model's points are exactly its support
    vectors), so a row is one when its packed values occur in the file."""
    blob = open(model_path, "rb").read()
    found = set()
    seen = set()
    for i, row in enumerate(train_rows):
        packed = struct.pack(f"<{d}d", *[row.get(k, 0.0) for k in range(1, d + 1)])
        if packed in seen:  # a repeated row: the first one stands for it, as for LIBSVM's rows
            continue
        seen.add(packed)
        if blob.find(packed) >= 0:
            found.add(i)
    return found


def blob_lines(n, seed):
    rng = random.Random(seed)
    return [f"1 1:{rng.gauss(0, 1):.6g} 2:{rng.gauss(0, 1):.6g}\n" for _ in range(n)]  # as LIBSVM's model file keeps them


def preload_sanitizer_runtime():
    """Under the 'asan' test setup (KMX_TEST_PRELOAD names the ASan runtime) libkmx is instrumented and python is
    not: python runs itself again with the runtime and libstdc++ (for C++ throws) preloaded and leak detection off
    (python's own memory lives to the end), as the 'asanhosts' setup runs the JVM, mono and R."""
    runtime = os.environ.get("KMX_TEST_PRELOAD")
    if not runtime or os.environ.get("LD_PRELOAD"):
        return
    libstdcxx = run(["g++", "-print-file-name=libstdc++.so.6"]).strip()
    env = dict(os.environ, LD_PRELOAD=f"{runtime} {libstdcxx}",
               ASAN_OPTIONS=os.environ.get("ASAN_OPTIONS", "") + ":detect_leaks=0")
    os.execve(sys.executable, [sys.executable] + sys.argv, env)


def start():
    """The sanitizer preload, then (KMX, Libkmx, EXAMPLE_DATA_DIR) from the arguments; None (the caller exits
    77, skipped) without svm-train/svm-predict."""
    preload_sanitizer_runtime()
    if shutil.which("svm-train") is None or shutil.which("svm-predict") is None:
        print("svm-train/svm-predict not found: skipped")
        return None
    tool, libpath, data_dir = sys.argv[1:4]
    return tool, Libkmx(libpath), data_dir


def main():
    started = start()
    if started is None:
        return 77
    tool, lib, data_dir = started
    with open(os.path.join(data_dir, "letter_bin.train.libsvm")) as f:
        letter = [line for _, line in zip(range(300), f)]
    with open(os.path.join(data_dir, "letter_bin.test.libsvm")) as f:
        letter_test = [line for _, line in zip(range(200), f)]
    blob = blob_lines(600, 3)
    results = [compare(f"letter300_nu{nu}", tool, lib, letter, letter_test, 16, nu, 2.0) for nu in (0.05, 0.2, 0.5)]
    results.append(compare("blob400_nu0.1", tool, lib, blob[:400], blob[400:], 2, 0.1, 0.5))
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main())
