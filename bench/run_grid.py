#!/usr/bin/env python3
"""Model selection: `kmx grid` against LIBSVM's grid.py (`svm-grid`, which runs `svm-train -v K` per cell) on the
same rows, the same grid of log2 C x log2 gamma and the same number of folds. grid.py runs one local worker (its
default); kmx runs with --threads 1 and with every core (its folds train at once, one per thread). Each run under
`/usr/bin/time -v` for its wall time and peak resident memory. Prints one markdown row per run: seconds, peak MB,
the best cell and its accuracy (each tool's own folds).

usage: run_grid.py [--build build] [--data ../shared/data] [--rows 3000] [--log2c -1,7,2] [--log2g 5,-3,-2]
                   [--folds 5] [--method svm]
"""
import argparse
import math
import os
import re
import tempfile

from run_svr import timed


def head(source, path, rows):
    with open(source) as f, open(path, "w") as out:
        for _, line in zip(range(rows), f):
            out.write(line)


def run_kmx(kmx, train, args, threads):
    cmd = [kmx, "grid", "-s", args.method, "--log2c", args.log2c, "--log2g", args.log2g, "-v", str(args.folds),
           "--threads", str(threads), train]
    out, seconds, peak, _ = timed(cmd)
    best = re.search(r"best: log2 C (\S+), log2 gamma (\S+) \(.*\): accuracy = (\S+)", out)
    return seconds, peak, float(best.group(1)), float(best.group(2)), float(best.group(3))


def run_libsvm(train, args, tmp):
    cmd = ["svm-grid", "-svmtrain", "/usr/bin/svm-train", "-log2c", args.log2c, "-log2g", args.log2g,
           "-v", str(args.folds), "-gnuplot", "null", "-out", os.path.join(tmp, "grid.out"), train]
    out, seconds, peak, _ = timed(cmd)
    c, g, rate = (float(v) for v in out.strip().splitlines()[-1].split())  # "C gamma rate" of the best cell
    return seconds, peak, math.log2(c), math.log2(g), rate


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--build", default="build")
    parser.add_argument("--data", default="../shared/data")
    parser.add_argument("--rows", type=int, default=3000)
    parser.add_argument("--log2c", default="-1,7,2")
    parser.add_argument("--log2g", default="5,-3,-2")
    parser.add_argument("--folds", type=int, default=5)
    parser.add_argument("--method", default="svm")
    args = parser.parse_args()
    kmx = os.path.join(args.build, "tools", "kmx", "kmx")
    with tempfile.TemporaryDirectory() as tmp:
        train = os.path.join(tmp, "train.libsvm")
        head(os.path.join(args.data, "letter", "letter_bin.train.libsvm"), train, args.rows)
        print(f"Letter binary, first {args.rows} training rows; log2 C {args.log2c}, log2 gamma {args.log2g}, "
              f"{args.folds} folds\n")
        print("| tool | threads | seconds | peak MB | best log2 C | best log2 gamma | accuracy % |")
        print("|---|---|---|---|---|---|---|")
        seconds, peak, c, g, rate = run_libsvm(train, args, tmp)
        print(f"| LIBSVM grid.py (svm-grid) | 1 worker | {seconds:.1f} | {peak:.0f} | {c:g} | {g:g} | {rate:.2f} |")
        for threads in (1, os.cpu_count()):
            seconds, peak, c, g, rate = run_kmx(kmx, train, args, threads)
            print(f"| kmx grid -s {args.method} | {threads} | {seconds:.1f} | {peak:.0f} | {c:g} | {g:g} | {rate:.2f} |")


if __name__ == "__main__":
    main()
