#!/usr/bin/env python3
"""Model selection: `kmx grid` against LIBSVM's grid.py (`svm-grid`, which runs `svm-train -v K` per cell) on the
same rows, the same grid of log2 C x log2 gamma and the same number of folds. grid.py runs one local worker (its
default); kmx runs with --threads 1 and with every core (its folds train at once, one per thread), and with
--threads 1 --prune M (rows of the grid screened by early prediction). Each run under `/usr/bin/time -v` for its
wall time, CPU time and peak resident memory. Then kmx on LIBSVM's own folds (--libsvm-folds 1: the rows
svm-train -v K puts in each fold), alone and with --prune. Prints one markdown row per run: seconds, CPU seconds, peak MB, the
best cell and its accuracy (each tool's own folds), and the tool's accuracy at the other tool's best cell (kmx's
against grid.py's; grid.py's against kmx's one-thread run).

usage: run_grid.py [--build build] [--data ../shared/data] [--rows 3000] [--log2c -1,7,2] [--log2g 5,-3,-2]
                   [--folds 5] [--method svm] [--prune 3]
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


def run_kmx(kmx, train, args, threads, tmp, extra=()):
    csv = os.path.join(tmp, "kmx.csv")
    cmd = [kmx, "grid", "-s", args.method, "--log2c", args.log2c, "--log2g", args.log2g, "-v", str(args.folds),
           "--threads", str(threads), "--out", csv] + list(extra) + [train]
    out, seconds, peak, cpu = timed(cmd)
    best = re.search(r"best: log2 C (\S+), log2 gamma (\S+) \(.*\): accuracy = (\S+)", out)
    cells = {}
    with open(csv) as f:
        for line in f.read().splitlines()[1:]:
            log2c, log2g, _, _, accuracy, _, pruned = line.split(",")
            cells[(float(log2c), float(log2g))] = float(accuracy) if pruned == "0" else None
    return seconds, cpu, peak, float(best.group(1)), float(best.group(2)), float(best.group(3)), cells


def run_libsvm(train, args, tmp):
    grid_out = os.path.join(tmp, "grid.out")
    cmd = ["svm-grid", "-svmtrain", "/usr/bin/svm-train", "-log2c", args.log2c, "-log2g", args.log2g,
           "-v", str(args.folds), "-gnuplot", "null", "-out", grid_out, train]
    out, seconds, peak, cpu = timed(cmd)
    c, g, rate = (float(v) for v in out.strip().splitlines()[-1].split())  # "C gamma rate" of the best cell
    cells = {}
    with open(grid_out) as f:  # "log2c=.. log2g=.. rate=.." per cell
        for line in f:
            values = dict(part.split("=") for part in line.split())
            cells[(float(values["log2c"]), float(values["log2g"]))] = float(values["rate"])
    return seconds, cpu, peak, math.log2(c), math.log2(g), rate, cells


def row(tool, threads, run, other):
    seconds, cpu, peak, c, g, rate, _ = run
    at_other = run[6].get((other[3], other[4]))
    shown = "pruned" if at_other is None else f"{at_other:.2f}"
    return (f"| {tool} | {threads} | {seconds:.1f} | {cpu:.1f} | {peak:.0f} | {c:g} | {g:g} | {rate:.2f} | "
            f"{shown} |")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--build", default="build")
    parser.add_argument("--data", default="../shared/data")
    parser.add_argument("--rows", type=int, default=3000)
    parser.add_argument("--log2c", default="-1,7,2")
    parser.add_argument("--log2g", default="5,-3,-2")
    parser.add_argument("--folds", type=int, default=5)
    parser.add_argument("--method", default="svm")
    parser.add_argument("--prune", type=float, default=3, help="also run kmx grid --prune with this margin")
    args = parser.parse_args()
    kmx = os.path.join(args.build, "tools", "kmx", "kmx")
    with tempfile.TemporaryDirectory() as tmp:
        train = os.path.join(tmp, "train.libsvm")
        head(os.path.join(args.data, "letter", "letter_bin.train.libsvm"), train, args.rows)
        print(f"Letter binary, first {args.rows} training rows; log2 C {args.log2c}, log2 gamma {args.log2g}, "
              f"{args.folds} folds\n")
        print("| tool | threads | seconds | CPU s | peak MB | best log2 C | best log2 gamma | accuracy % | "
              "accuracy % at the other tool's best cell |")
        print("|---|---|---|---|---|---|---|---|---|")
        libsvm = run_libsvm(train, args, tmp)
        runs = [(f"kmx grid -s {args.method}", threads, run_kmx(kmx, train, args, threads, tmp))
                for threads in (1, os.cpu_count())]
        prune = ["--prune", f"{args.prune:g}"]
        for extra in (prune, ["--libsvm-folds", "1"], ["--libsvm-folds", "1"] + prune):
            runs.append((f"kmx grid -s {args.method} {' '.join(extra)}", 1, run_kmx(kmx, train, args, 1, tmp, extra)))
        print(row("LIBSVM grid.py (svm-grid)", "1 worker", libsvm, runs[0][2]))
        for tool, threads, run in runs:
            print(row(tool, threads, run, libsvm))


if __name__ == "__main__":
    main()
