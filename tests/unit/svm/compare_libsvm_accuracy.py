#!/usr/bin/env python3
"""End to end against LIBSVM: `kmx train -s svm --bias on` / `kmx predict`
and `svm-train` / `svm-predict` on the same full train/test splits with the
same C and gamma. Asserts the dual objective within 1e-3 relative (kmx's from
`kmx info MODEL`, LIBSVM's from svm-train's "obj =") and the test accuracy
within 0.2 percentage points; prints objective, accuracy and support vectors
of both. Exits 77 (skipped) without svm-train/svm-predict.

usage: compare_libsvm_accuracy.py KMX EXAMPLE_DATA_DIR TEST_DATA_DIR CASE...
CASE: letter (examples/data, 12000/6000 rows), spam (tests/data, 3000/1601),
digits (tests/data, 1297/500).
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

OBJECTIVE_REL = 1e-3
ACCURACY_POINTS = 0.2

# name: (data directory argument, file stem, C, gamma)
# Letter: C=8, gamma=16 as in the team data sets' README (chosen there on a
#   validation split of train) and the existing svm_dual_libsvm test.
# spam and digits: chosen on the training split only, with a LIBSVM holdout
#   grid (svm-train on the first 2/3 of the training rows, svm-predict on the
#   last 1/3; the rows are already shuffled) over C in {0.1 1 3 10 30 100 1000}
#   x gamma in {0.003 0.01 0.03 0.1 0.3 1 3}.
#   spam (fit 2000, validate 1000; features min-max scaled): best 94.1% at
#   C=1000 gamma=0.1; C=100 gamma=0.3 gives 94.0% with neighbours at 92.9-93.6%
#   and trains faster, so it is the choice. C=10 gamma=0.1 (the svm_dual_libsvm
#   test's setting) only reaches 91.7% there: fine for matching objectives,
#   not a sensible model for an accuracy comparison.
#   digits (fit 864, validate 433; features x/16): a plateau at 99.54% for
#   C >= 3 and gamma in {0.3, 1} (gamma=3 drops to 86%); C=10 gamma=0.3 is
#   inside it.
CASES = {
    "letter": ("example", "letter_bin", 8.0, 16.0),
    "spam": ("test", "spam_bin", 100.0, 0.3),
    "digits": ("test", "digits_bin", 10.0, 0.3),
}


def run(cmd):
    start = time.perf_counter()
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    return out, time.perf_counter() - start


def accuracy(pattern, out):
    correct, total = map(int, re.search(pattern, out).groups())
    return 100.0 * correct / total, correct, total


def run_libsvm(train, test, c, gamma, tmp):
    model, labels = os.path.join(tmp, "libsvm.model"), os.path.join(tmp, "libsvm.out")
    out, train_seconds = run(["svm-train", "-c", repr(c), "-g", repr(gamma), "-m", "100", train, model])
    objective = float(re.search(r"obj = (\S+),", out).group(1))
    sv = int(re.search(r"nSV = (\d+)", out).group(1))
    out, predict_seconds = run(["svm-predict", test, model, labels])
    acc, correct, total = accuracy(r"Accuracy = \S+% \((\d+)/(\d+)\)", out)
    return {"objective": objective, "sv": sv, "accuracy": acc, "correct": correct, "total": total,
            "train_s": train_seconds, "predict_s": predict_seconds}


def run_kmx(kmx, train, test, c, gamma, tmp):
    model = os.path.join(tmp, "kmx.model")
    out, train_seconds = run([kmx, "train", "-s", "svm", "--bias", "on", "-c", repr(c), "-g", repr(gamma),
                              train, model])
    sv = int(float(re.search(r"sv=(\S+)", out).group(1)))
    info, _ = run([kmx, "info", model])
    if not re.search(r"^bias\s+yes$", info, re.M):
        raise RuntimeError("kmx info reports a model without bias:\n" + info)
    objective = float(re.search(r"^objective\s+(\S+)", info, re.M).group(1))
    out, predict_seconds = run([kmx, "predict", model, test])
    acc, correct, total = accuracy(r"accuracy = \S+% \((\d+)/(\d+)\)", out)
    return {"objective": objective, "sv": sv, "accuracy": acc, "correct": correct, "total": total,
            "train_s": train_seconds, "predict_s": predict_seconds}


def compare(name, kmx, dirs):
    where, stem, c, gamma = CASES[name]
    train = os.path.join(dirs[where], stem + ".train.libsvm")
    test = os.path.join(dirs[where], stem + ".test.libsvm")
    with tempfile.TemporaryDirectory() as tmp:
        ref = run_libsvm(train, test, c, gamma, tmp)
        got = run_kmx(kmx, train, test, c, gamma, tmp)
    rel = abs(got["objective"] - ref["objective"]) / abs(ref["objective"])
    points = abs(got["accuracy"] - ref["accuracy"])
    ok = rel <= OBJECTIVE_REL and points <= ACCURACY_POINTS and got["total"] == ref["total"]
    return {"name": name, "c": c, "gamma": gamma, "kmx": got, "libsvm": ref, "rel": rel, "points": points,
            "ok": ok}


def print_table(results):
    print(f"{'data':<7} {'C':>5} {'gamma':>5} | {'objective kmx':>15} {'LIBSVM':>15} {'rel':>8} | "
          f"{'accuracy kmx':>22} {'LIBSVM':>22} {'diff':>5} | {'SV kmx':>6} {'LIBSVM':>6} | "
          f"{'train s kmx':>11} {'LIBSVM':>6} |")
    for r in results:
        k, l = r["kmx"], r["libsvm"]
        acc = lambda x: f"{x['accuracy']:.2f}% ({x['correct']}/{x['total']})"
        print(f"{r['name']:<7} {r['c']:>5g} {r['gamma']:>5g} | {k['objective']:>15.6f} {l['objective']:>15.6f} "
              f"{r['rel']:>8.1e} | {acc(k):>22} {acc(l):>22} {r['points']:>5.2f} | {k['sv']:>6} {l['sv']:>6} | "
              f"{k['train_s']:>11.2f} {l['train_s']:>6.2f} | {'ok' if r['ok'] else 'MISMATCH'}")
    print(f"(pass: objective rel <= {OBJECTIVE_REL:g}, accuracy diff <= {ACCURACY_POINTS:g} points; "
          "times are whole processes)", flush=True)


def main():
    if shutil.which("svm-train") is None or shutil.which("svm-predict") is None:
        print("svm-train/svm-predict not found: skipped")
        return 77
    if len(sys.argv) < 5 or any(name not in CASES for name in sys.argv[4:]):
        print(__doc__, file=sys.stderr)
        return 2
    kmx, example_dir, test_dir = sys.argv[1:4]
    dirs = {"example": example_dir, "test": test_dir}
    results = [compare(name, kmx, dirs) for name in sys.argv[4:]]
    print_table(results)
    return 0 if all(r["ok"] for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())
