#!/usr/bin/env python3
"""DC-SVM against LIBSVM on the shared data sets, side by side in one run.

For each data set: LIBSVM's svm-train/svm-predict and kmx train/predict with
methods svm (exact, with bias), dcsvm (exact) and dcsvm-early, all with the
same C and gamma, one thread. Reports training time, test accuracy, support
vectors, prediction time per sample and peak memory, and the time ratios
against LIBSVM. With --repeat R every command runs R times, the solvers taking
turns (LIBSVM, svm, dcsvm, dcsvm-early, LIBSVM, ...), and each figure is the
median of its R runs; "CPU s" is user + system time, which other work on a
shared machine disturbs less than wall time.

  /usr/bin/python3 bench/run_dcsvm.py [--build build] [--data ../shared/data] [--only NAME] [--repeat R]
"""
import argparse
import os
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import time

# (name, train file, test file, C, gamma, subset rows or 0): C and gamma for Letter are LIBSVM's
# reference from the data README (chosen on a validation split of train). For Shuttle they were
# chosen with LIBSVM on the training split only: train on its first 10000 rows, validate on the next
# 5000, C in {8, 32, 128} x gamma in {4, 16, 64}: all within 99.48-99.68%; C=8, gamma=64 ties for
# the best with the smallest C.
DATASETS = [
    ("letter_bin", "letter/letter_bin.train.libsvm", "letter/letter_bin.test.libsvm", 8, 16, 0),
    ("letter_mc", "letter/letter_mc.train.libsvm", "letter/letter_mc.test.libsvm", 8, 16, 0),
    ("shuttle_mc", "shuttle/shuttle_mc.train.libsvm", "shuttle/shuttle_mc.test.libsvm", 8, 64, 0),
    ("shuttle_bin_20k", "shuttle/shuttle_bin.train.libsvm", "shuttle/shuttle_bin.test.libsvm", 8, 64, 20000),
]
KMX_METHODS = ["svm", "dcsvm", "dcsvm-early"]


class Unfinished(Exception):
    """A command stopped at its time limit: wall and CPU seconds and peak RSS MB when it was stopped."""

    def __init__(self, wall, mb, cpu):
        super().__init__(f"stopped after {wall:.0f} s ({cpu:.0f} s CPU)")
        self.wall, self.mb, self.cpu = wall, mb, cpu


def usage(stderr):
    """(peak RSS MB, CPU seconds) from /usr/bin/time -v's report."""
    rss_kb = int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", stderr).group(1))
    cpu = sum(float(re.search(rf"{kind} time \(seconds\): ([\d.]+)", stderr).group(1))
              for kind in ("User", "System"))
    return rss_kb / 1024, cpu


def stop_children(pid):
    """SIGTERM to the children of pid (the timed command under /usr/bin/time, which then reports)."""
    with open(f"/proc/{pid}/task/{pid}/children") as f:
        for child in f.read().split():
            os.kill(int(child), signal.SIGTERM)


def timed(cmd, limit=None, **kwargs):
    """Runs cmd under /usr/bin/time -v; returns (stdout, wall seconds, peak RSS MB, CPU seconds). With
    limit (seconds of wall time) a command still running then is stopped and Unfinished raised."""
    start = time.perf_counter()
    proc = subprocess.Popen(["/usr/bin/time", "-v", *cmd], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, **kwargs)
    try:
        stdout, stderr = proc.communicate(timeout=limit)
    except subprocess.TimeoutExpired:
        stop_children(proc.pid)
        stdout, stderr = proc.communicate()
        raise Unfinished(time.perf_counter() - start, *usage(stderr))
    seconds = time.perf_counter() - start
    if proc.returncode != 0:
        sys.exit(f"{' '.join(cmd)} failed:\n{stdout}\n{stderr}")
    mb, cpu = usage(stderr)
    return stdout, seconds, mb, cpu


def subset(path, rows, tmp):
    if not rows:
        return path
    target = os.path.join(tmp, os.path.basename(path) + f".{rows}")
    with open(path) as src, open(target, "w") as dst:
        for i, line in enumerate(src):
            if i == rows:
                break
            dst.write(line)
    return target


LIBSVM_CACHE = "1024M"  # svm-train -m 1024 (MB); kmx gets the same cache (its default takes what the budget leaves)


def libsvm(train, test, c, gamma, tmp, limit=None):
    model, pred = os.path.join(tmp, "libsvm.model"), os.path.join(tmp, "libsvm.pred")
    out, train_s, train_mb, train_cpu = timed(["svm-train", "-c", str(c), "-g", str(gamma), "-m", LIBSVM_CACHE[:-1], train,
                                               model], limit)
    sv = int(re.search(r"Total nSV = (\d+)", out).group(1)) if "Total nSV" in out else \
        int(re.search(r"nSV = (\d+)", out).group(1))
    out, predict_s, _, _ = timed(["svm-predict", test, model, pred])
    accuracy = float(re.search(r"Accuracy = ([\d.]+)%", out).group(1))
    n_test = int(re.search(r"\((\d+)/(\d+)\)", out).group(2))
    return dict(train_s=train_s, cpu_s=train_cpu, accuracy=accuracy, sv=sv, predict_us=predict_s / n_test * 1e6,
                mb=train_mb)


def kmx(binary, method, train, test, c, gamma, tmp):
    model = os.path.join(tmp, f"kmx.{method}.model")
    out, train_s, train_mb, train_cpu = timed([binary, "train", "-s", method, "-c", str(c), "-g", str(gamma),
                                               "--threads", "1", "--cache-size", LIBSVM_CACHE, train, model])
    sv = int(re.search(r"sv=(\d+)", out).group(1))
    out, _, _, _ = timed([binary, "predict", model, test])
    accuracy = float(re.search(r"accuracy = ([\d.]+)%", out).group(1))
    predict_us = float(re.search(r"predict time = ([\d.eE+-]+) us/sample", out).group(1))
    return dict(train_s=train_s, cpu_s=train_cpu, accuracy=accuracy, sv=sv, predict_us=predict_us, mb=train_mb)


def medians(runs):
    """Each figure's median over the runs (dicts with the same keys)."""
    return {key: statistics.median(run[key] for run in runs) for key in runs[0]}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--build", default="build")
    parser.add_argument("--data", default=os.path.join(os.path.dirname(__file__), "..", "..", "shared", "data"))
    parser.add_argument("--only", default="")
    parser.add_argument("--repeat", type=int, default=1)
    args = parser.parse_args()
    binary = os.path.join(args.build, "tools", "kmx", "kmx")
    os.environ.update(OMP_NUM_THREADS="1", BLIS_NUM_THREADS="1", OMP_WAIT_POLICY="passive")
    print(f"medians of {args.repeat} run(s)")
    print("| data | solver | train s | × LIBSVM speed | train CPU s | × LIBSVM CPU | accuracy % | SVs | "
          "predict us/sample | peak MB |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for name, train, test, c, gamma, rows in DATASETS:
        if args.only and args.only != name:
            continue
        with tempfile.TemporaryDirectory() as tmp:
            train_file = subset(os.path.join(args.data, train), rows, tmp)
            test_file = os.path.join(args.data, test)
            runs = {"LIBSVM": []}
            runs.update({f"kmx {method}": [] for method in KMX_METHODS})
            for _ in range(max(args.repeat, 1)):
                runs["LIBSVM"].append(libsvm(train_file, test_file, c, gamma, tmp))
                for method in KMX_METHODS:
                    runs[f"kmx {method}"].append(kmx(binary, method, train_file, test_file, c, gamma, tmp))
            results = {solver: medians(r) for solver, r in runs.items()}
            base, base_cpu = results["LIBSVM"]["train_s"], results["LIBSVM"]["cpu_s"]
            for solver, r in results.items():
                print(f"| {name} (C={c}, γ={gamma}) | {solver} | {r['train_s']:.2f} | {base / r['train_s']:.1f}× | "
                      f"{r['cpu_s']:.2f} | {base_cpu / max(r['cpu_s'], 1e-3):.1f}× | {r['accuracy']:.2f} | "
                      f"{r['sv']:.0f} | {r['predict_us']:.1f} | {r['mb']:.0f} |", flush=True)


if __name__ == "__main__":
    main()
