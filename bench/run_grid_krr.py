#!/usr/bin/env python3
"""Model selection for kernel ridge regression: `kmx grid -s krr` (log2 lambda x log2 gamma) and `kmx grid -s falkon`
(log2 lambda x log2 gamma x the number of centers M, --num-centers-grid) against scikit-learn's GridSearchCV on the
same rows, the same grid and the same number of folds (each tool its own shuffled folds):

  exact KRR     GridSearchCV(KernelRidge(kernel="rbf")), alpha = n_fold * lambda (sklearn solves
                (K + alpha I) a = y where kmx solves (G + n lambda I) a = y on a fold's n training rows)
  FALKON / M    GridSearchCV(Pipeline(Nystroem(n_components=M), Ridge(alpha=n_fold * lambda))): Nystrom KRR on M
                uniform centers, the problem FALKON solves (by preconditioned CG) on the same kind of centers

and kmx before (a build without the lambda-path reuse, e.g. main's: --before /work/main/build; it has no M axis, so
its FALKON row is one `kmx grid --num-centers M` per M) and this build's `kmx cv` cell by cell (one lambda per call:
nothing kept across lambda, the reuse alone turned off) against this build's `kmx grid`, each with --threads 1 and 2.
scikit-learn runs with n_jobs=1 and OMP_NUM_THREADS=1 (its BLAS on one thread). Each run under /usr/bin/time -v:
wall seconds, user+system CPU seconds, peak resident MB; and the best cell with its cross-validated MSE.

usage: run_grid_krr.py [--build build] [--before /work/main/build] [--data ../shared/data] [--krr-rows 2000]
                       [--falkon-rows 8000] [--log2l=-20,-2,3] [--log2g 3,-1,-2] [--centers 250,500,1000] [--folds 5]
                       [--skip krr,falkon,sklearn,cells]
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

from run_svr import timed

SKLEARN = r"""
import sys, numpy as np
from sklearn.datasets import load_svmlight_file
from sklearn.model_selection import GridSearchCV, KFold
from sklearn.kernel_ridge import KernelRidge
from sklearn.kernel_approximation import Nystroem
from sklearn.linear_model import Ridge
from sklearn.pipeline import Pipeline
path, folds, lambdas, gammas, centers = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4], sys.argv[5]
x, y = load_svmlight_file(path)
x = x.toarray()
n_fold = x.shape[0] * (folds - 1) / folds
alphas = [n_fold * 2.0 ** float(v) for v in lambdas.split(",")]
gammas = [2.0 ** float(v) for v in gammas.split(",")]
if centers == "0":
    model, grid = KernelRidge(kernel="rbf"), {"alpha": alphas, "gamma": gammas}
else:
    model = Pipeline([("nystroem", Nystroem(random_state=0)), ("ridge", Ridge())])
    grid = {"ridge__alpha": alphas, "nystroem__gamma": gammas,
            "nystroem__n_components": [int(m) for m in centers.split(",")]}
search = GridSearchCV(model, grid, cv=KFold(folds, shuffle=True, random_state=0), scoring="neg_mean_squared_error",
                      n_jobs=1, refit=False).fit(x, y)
best = search.best_params_
alpha = best.get("alpha", best.get("ridge__alpha"))
gamma = best.get("gamma", best.get("nystroem__gamma"))
print(best.get("nystroem__n_components", 0), np.log2(alpha / n_fold), np.log2(gamma), -search.best_score_)
"""


def values(spec):
    """BEGIN,END,STEP as grid.py's range (log2 values)."""
    begin, end, step = (float(v) for v in spec.split(","))
    count = int((end - begin) / step + 1e-9) + 1
    return [begin + i * step for i in range(count)]


def head(source, path, rows):
    with open(source) as f, open(path, "w") as out:
        for _, line in zip(range(rows), f):
            out.write(line)


def run_kmx(kmx, method, train, args, threads, centers=None):
    cmd = [kmx, "grid", "-s", method, "--task", "regression", "--log2l", args.log2l, "--log2g", args.log2g,
           "-v", str(args.folds), "--threads", str(threads), train]
    if centers:
        cmd[2:2] = ["--num-centers-grid" if "," in centers else "--num-centers", centers]
    out, seconds, peak, cpu = timed(cmd)
    best = re.search(r"best: (?:centers (\d+), )?log2 lambda (\S+), log2 gamma (\S+) \(.*\): "
                     r"mean squared error = (\S+)", out)
    m = int(best.group(1)) if best.group(1) else int(centers or 0)
    return {"seconds": seconds, "cpu": cpu, "peak": peak, "m": m, "l": float(best.group(2)),
            "g": float(best.group(3)), "mse": float(best.group(4))}


def run_kmx_per_m(kmx, train, args, threads):
    """A build without the M axis: one grid per M; times and CPU add up, the peak is the largest."""
    runs = [run_kmx(kmx, "falkon", train, args, threads, m) for m in args.centers.split(",")]
    best = min(runs, key=lambda r: r["mse"])
    return dict(best, seconds=sum(r["seconds"] for r in runs), cpu=sum(r["cpu"] for r in runs),
                peak=max(r["peak"] for r in runs))


def run_kmx_cells(kmx, method, train, args, threads, centers=None):
    """This build without the reuse: `kmx cv` cell by cell (one lambda per call: nothing kept across lambda)."""
    total = {"seconds": 0.0, "cpu": 0.0, "peak": 0.0, "mse": float("inf")}
    for m in (centers.split(",") if centers else [None]):
        for g in values(args.log2g):
            for l in values(args.log2l):
                cmd = [kmx, "cv", "-s", method, "--task", "regression", "-l", repr(2.0 ** l), "-g", repr(2.0 ** g),
                       "-v", str(args.folds), "--threads", str(threads)] + (["--num-centers", m] if m else []) + [train]
                out, seconds, peak, cpu = timed(cmd)
                mse = float(re.search(r"Mean squared error = (\S+)", out).group(1))
                total.update(seconds=total["seconds"] + seconds, cpu=total["cpu"] + cpu, peak=max(total["peak"], peak))
                if mse < total["mse"]:
                    total.update(mse=mse, m=int(m or 0), l=l, g=g)
    return total


def run_sklearn(train, args, centers):
    env = dict(os.environ, OMP_NUM_THREADS="1", OPENBLAS_NUM_THREADS="1", BLIS_NUM_THREADS="1")
    lambdas = ",".join(f"{v:g}" for v in values(args.log2l))
    gammas = ",".join(f"{v:g}" for v in values(args.log2g))
    cmd = ["/usr/bin/time", "-v", sys.executable, "-c", SKLEARN, train, str(args.folds), lambdas, gammas, centers]
    import time
    start = time.perf_counter()
    done = subprocess.run(cmd, check=True, capture_output=True, text=True, env=env)
    seconds = time.perf_counter() - start
    peak = int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", done.stderr).group(1)) / 1024
    cpu = sum(float(re.search(r"%s time \(seconds\): (\S+)" % kind, done.stderr).group(1))
              for kind in ("User", "System"))
    m, l, g, mse = done.stdout.split()
    return {"seconds": seconds, "cpu": cpu, "peak": peak, "m": int(m), "l": float(l), "g": float(g), "mse": float(mse)}


def row(tool, threads, r):
    m = str(r["m"]) if r["m"] else "-"
    print(f"| {tool} | {threads} | {r['seconds']:.1f} | {r['cpu']:.1f} | {r['peak']:.0f} | {m} | {r['l']:g} | "
          f"{r['g']:g} | {r['mse']:.6g} |", flush=True)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--build", default="build")
    parser.add_argument("--before", default=None, help="a build without the lambda-path reuse (e.g. main's)")
    parser.add_argument("--data", default="../shared/data")
    parser.add_argument("--krr-rows", type=int, default=2000)
    parser.add_argument("--falkon-rows", type=int, default=8000)
    parser.add_argument("--log2l", default="-20,-2,3")
    parser.add_argument("--log2g", default="3,-1,-2")
    parser.add_argument("--centers", default="250,500,1000")
    parser.add_argument("--folds", type=int, default=5)
    parser.add_argument("--skip", default="", help="comma-separated parts to skip: krr, falkon, sklearn, cells")
    args = parser.parse_args()
    skip = set(args.skip.split(","))
    kmx = os.path.join(args.build, "tools", "kmx", "kmx")
    before = os.path.join(args.before, "tools", "kmx", "kmx") if args.before else None
    cells = len(values(args.log2l)) * len(values(args.log2g))
    source = os.path.join(args.data, "diamonds", "diamonds_reg.train.libsvm")
    header = ("| tool | threads | wall s | CPU s | peak MB | best M | best log2 lambda | best log2 gamma | "
              "CV MSE |\n|---|---|---|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as tmp:
        train = os.path.join(tmp, "train.libsvm")
        if "krr" not in skip:
            head(source, train, args.krr_rows)
            print(f"\nExact KRR: diamonds, first {args.krr_rows} rows; log2 lambda {args.log2l} x log2 gamma "
                  f"{args.log2g} ({cells} cells), {args.folds} folds\n\n{header}", flush=True)
            if "sklearn" not in skip:
                row("scikit-learn GridSearchCV(KernelRidge)", "1 (n_jobs=1)", run_sklearn(train, args, "0"))
            for threads in (1, 2):
                if before:
                    row("kmx grid -s krr, before", threads, run_kmx(before, "krr", train, args, threads))
                if "cells" not in skip:
                    row("kmx cv -s krr cell by cell (no reuse)", threads,
                        run_kmx_cells(kmx, "krr", train, args, threads))
                row("kmx grid -s krr", threads, run_kmx(kmx, "krr", train, args, threads))
        if "falkon" not in skip:
            head(source, train, args.falkon_rows)
            m_count = len(args.centers.split(","))
            print(f"\nFALKON: diamonds, first {args.falkon_rows} rows; M {args.centers} x log2 lambda {args.log2l} x "
                  f"log2 gamma {args.log2g} ({cells * m_count} cells), {args.folds} folds\n\n{header}", flush=True)
            if "sklearn" not in skip:
                row("scikit-learn GridSearchCV(Nystroem + Ridge)", "1 (n_jobs=1)",
                    run_sklearn(train, args, args.centers))
            for threads in (1, 2):
                if before:
                    row("kmx grid -s falkon, before (a grid per M)", threads,
                        run_kmx_per_m(before, train, args, threads))
                if "cells" not in skip:
                    row("kmx cv -s falkon cell by cell (no reuse)", threads,
                        run_kmx_cells(kmx, "falkon", train, args, threads, args.centers))
                row("kmx grid -s falkon --num-centers-grid", threads, run_kmx(kmx, "falkon", train, args, threads,
                                                                             args.centers))


if __name__ == "__main__":
    main()
