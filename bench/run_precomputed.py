#!/usr/bin/env python3
"""Precomputed kernels (-t 4) against LIBSVM's svm-train -t 4 and against kmx's own Gaussian on the
features: the first N rows of binary Letter, their Gaussian matrix (gamma 2) written as LIBSVM's
precomputed rows (17 significant digits), each command timed whole (reading the text included) and by
its own training time where it prints one (kmx train's time=).

usage: bench/run_precomputed.py KMX EXAMPLE_DATA_DIR [N ...]   (default N: 1000 2000)
"""
import math
import os
import re
import subprocess
import sys
import tempfile
import time

GAMMA, C = 2.0, 4.0


def rows(path, n):
    out = []
    with open(path) as f:
        for _, line in zip(range(n), f):
            parts = line.split()
            out.append((parts[0], {int(k): float(v) for k, v in (p.split(":") for p in parts[1:])}))
    return out


def write_gram(path, data):
    with open(path, "w") as out:
        for i, (label, x) in enumerate(data):
            values = " ".join(f"{j + 1}:{math.exp(-GAMMA * sum((x.get(k, 0) - t.get(k, 0)) ** 2 for k in range(1, 17)))!r}"
                              for j, (_, t) in enumerate(data))
            out.write(f"{label} 0:{i + 1} {values}\n")


def timed(cmd):
    start = time.perf_counter()
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    return time.perf_counter() - start, out


def main():
    kmx, data_dir = sys.argv[1:3]
    sizes = [int(n) for n in sys.argv[3:]] or [1000, 2000]
    print("| rows | command | wall s (read + train) | train s (kmx's time=) | objective |\n|---|---|---|---|---|")
    for n in sizes:
        data = rows(os.path.join(data_dir, "letter_bin.train.libsvm"), n)
        with tempfile.TemporaryDirectory() as tmp:
            gram, features, model = (os.path.join(tmp, name) for name in ("gram.pre", "x.libsvm", "m"))
            write_gram(gram, data)
            with open(os.path.join(data_dir, "letter_bin.train.libsvm")) as f, open(features, "w") as out:
                out.writelines(line for _, line in zip(range(n), f))
            runs = [("kmx train -t 4", [kmx, "train", "--threads", "1", "-t", "4", "-c", str(C), gram, model]),
                    ("svm-train -t 4", ["svm-train", "-t", "4", "-c", str(C), "-m", "100", gram, model]),
                    ("kmx train -s svm -g 2 (features)",
                     [kmx, "train", "--threads", "1", "-s", "svm", "-g", str(GAMMA), "-c", str(C), features, model]),
                    ("svm-train -g 2 (features)",
                     ["svm-train", "-g", str(GAMMA), "-c", str(C), "-m", "100", features, model])]
            for name, cmd in runs:
                wall, out = timed(cmd)
                train = re.search(r"time=(\S+)s", out)
                objective = re.search(r"obj = (\S+),", out)
                if cmd[0] == kmx:
                    objective = re.search(r"objective (\S+)", subprocess.run([kmx, "info", model], capture_output=True,
                                                                             text=True).stdout)
                print(f"| {n} | `{name}` | {wall:.2f} | {train.group(1) if train else '-'} | "
                      f"{objective.group(1) if objective else '-'} |", flush=True)


if __name__ == "__main__":
    main()
