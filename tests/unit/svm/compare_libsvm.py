#!/usr/bin/env python3
"""Compares kmx's C-SVC dual solver (through svm_dual_run) with LIBSVM's
svm-train on the same rows: objective within 1e-3 relative, support vectors
within 2%, bias within 1e-2. Exits 77 (skipped) without svm-train.

usage: compare_libsvm.py SVM_DUAL_RUN EXAMPLE_DATA_DIR TEST_DATA_DIR [--full]
(--full adds the whole Letter training set, as a benchmark.)
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time


def write_rows(lines, path):
    with open(path, "w") as f:
        f.writelines(lines)


def run_libsvm(path, c, gamma, w_pos, w_neg):
    cmd = ["svm-train", "-c", repr(c), "-g", repr(gamma), "-m", "100"]
    if w_pos != 1 or w_neg != 1:
        cmd += ["-w1", repr(w_pos), "-w-1", repr(w_neg)]
    model = path + ".model"
    start = time.perf_counter()
    out = subprocess.run(cmd + [path, model], check=True, capture_output=True, text=True).stdout
    seconds = time.perf_counter() - start
    obj, rho = map(float, re.search(r"obj = (\S+), rho = (\S+)", out).groups())
    nsv, nbsv = map(int, re.search(r"nSV = (\d+), nBSV = (\d+)", out).groups())
    # With labels +1 and -1 LIBSVM always takes +1 as its first class (svm.cpp,
    # svm_group_classes), so its decision value is sum_i y_i a_i K(x_i, x) - rho.
    bias = -rho
    return {"objective": obj, "bias": bias, "sv": nsv, "bsv": nbsv, "seconds": seconds}


def run_kmx(tool, path, c, gamma, w_pos, w_neg):
    start = time.perf_counter()
    out = subprocess.run([tool, path, repr(c), repr(gamma), "0", repr(w_pos), repr(w_neg)], check=True,
                         capture_output=True, text=True).stdout.split()
    wall = time.perf_counter() - start
    return {"objective": float(out[0]), "bias": float(out[1]), "sv": int(out[2]), "bsv": int(out[3]),
            "iterations": int(out[4]), "seconds": float(out[5]), "wall": wall}


def compare(name, tool, lines, c, gamma, w_pos=1.0, w_neg=1.0):
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, name + ".libsvm")
        write_rows(lines, path)
        ref = run_libsvm(path, c, gamma, w_pos, w_neg)
        got = run_kmx(tool, path, c, gamma, w_pos, w_neg)
    rel = abs(got["objective"] - ref["objective"]) / abs(ref["objective"])
    sv_rel = abs(got["sv"] - ref["sv"]) / max(ref["sv"], 1)
    bias_diff = abs(got["bias"] - ref["bias"])
    ok = rel <= 1e-3 and sv_rel <= 0.02 and bias_diff <= 1e-2
    print(f"{name}: n={len(lines)} C={c} gamma={gamma} w+={w_pos} w-={w_neg}\n"
          f"  objective kmx {got['objective']:.6f} libsvm {ref['objective']:.6f} (rel {rel:.2e})\n"
          f"  bias      kmx {got['bias']:.6f} libsvm {ref['bias']:.6f} (diff {bias_diff:.2e})\n"
          f"  SVs       kmx {got['sv']} ({got['bsv']} at C) libsvm {ref['sv']} ({ref['bsv']} at C)\n"
          f"  seconds   kmx solve {got['seconds']:.3f} (process {got['wall']:.3f}) svm-train {ref['seconds']:.3f}"
          f", kmx iterations {got['iterations']}\n  {'ok' if ok else 'MISMATCH'}", flush=True)
    return ok


def read_lines(path):
    with open(path) as f:
        return [line for line in f if line.strip()]


def main():
    if shutil.which("svm-train") is None:
        print("svm-train not found: skipped")
        return 77
    tool, example_dir, test_dir = sys.argv[1:4]
    letter = read_lines(os.path.join(example_dir, "letter_bin.train.libsvm"))
    spam = read_lines(os.path.join(test_dir, "spam_bin.train.libsvm"))
    # unbalanced: every negative of the first 3000 rows, one positive in five
    positives = [l for l in letter[:3000] if float(l.split()[0]) > 0]
    unbalanced = [l for l in letter[:3000] if float(l.split()[0]) < 0] + positives[::5]
    results = [
        compare("letter2000", tool, letter[:2000], 8.0, 16.0),
        compare("spam", tool, spam, 10.0, 0.1),
        compare("letter_unbalanced_w5", tool, unbalanced, 2.0, 4.0, w_pos=5.0, w_neg=1.0),
        compare("spam_w", tool, spam[:1500], 4.0, 0.5, w_pos=0.5, w_neg=3.0),
    ]
    if "--full" in sys.argv:
        results.append(compare("letter_full", tool, letter, 8.0, 16.0))
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main())
