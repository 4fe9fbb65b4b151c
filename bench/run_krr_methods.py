#!/usr/bin/env python3
"""Kernel ridge regression four ways (issue 17: which method when): `kmx train -s krr` (exact: the n x n kernel
matrix and its Cholesky, the reference), `-s nystrom-krr` (uniform Nystrom, M landmarks), `-s falkon` (Nystrom KRR by
preconditioned CG on M uniform centers) and `-s meka-krr` (MEKA, its automatic sizes unless --meka-args), each at its
default size and at larger ones, on the same rows, one thread each. Per fit: CPU seconds of `kmx train` (user +
system, /usr/bin/time -v: reading the file included, the same for all), peak resident MB, the model's centers, and
the test error from `kmx predict` (RMSE for regression, error % for classification).

Cases (skipped when the data are missing):
  diamonds   ../shared/data/diamonds, price (regression), the first --rows training rows, gamma 1 and 10
  digits16   make_digits_large.py's binary digits (--digits DIR), the first --rows rows, gamma 0.1614

usage: run_krr_methods.py [--build build] [--data ../shared/data] [--digits DIR] [--rows 10000] [--lambda 1e-6]
                          [--centers 0,2000,4000] [--only NAME]
"""
import argparse
import math
import os
import re
import subprocess
import tempfile

from run_dcsvm import subset
from run_svr import timed_once


def cases(args, tmp):
    found = []
    diamonds = os.path.join(args.data, "diamonds", "diamonds_reg.%s.libsvm")
    if os.path.exists(diamonds % "train"):
        train = subset(diamonds % "train", args.rows, tmp)
        for gamma in ("1", "10"):
            found.append(("diamonds %d x 9, gamma %s" % (args.rows, gamma), train, diamonds % "test", gamma))
    if args.digits:
        digits = os.path.join(args.digits, "digits16_bin.%s.libsvm")
        if os.path.exists(digits % "train"):
            train = subset(digits % "train", args.rows, tmp)
            found.append(("digits16 %d x 256, gamma 0.1614" % args.rows, train, digits % "test", "0.1614"))
    return [case for case in found if not args.only or args.only in case[0]]


def fits(args):
    yield "krr", []
    for method in ("nystrom-krr", "falkon"):
        for m in args.centers.split(","):
            yield method, [] if m == "0" else ["--num-centers", m]
    yield "meka-krr", args.meka_args.split() if args.meka_args else []


def test_error(kmx, model, test, tmp):
    out = subprocess.run([kmx, "predict", "--threads", "1", model, test, os.path.join(tmp, "labels")],
                         check=True, capture_output=True, text=True).stdout
    mse = re.search(r"Mean squared error = (\S+)", out)
    if mse:
        return "RMSE %.1f" % math.sqrt(float(mse.group(1)))
    accuracy = float(re.search(r"[Aa]ccuracy = ([0-9.]+)%", out).group(1))
    return "error %.2f%%" % (100 - accuracy)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--build", default="build")
    parser.add_argument("--data", default=os.path.join(os.path.dirname(__file__), "..", "..", "shared", "data"))
    parser.add_argument("--digits")
    parser.add_argument("--rows", type=int, default=10000)
    parser.add_argument("--lambda", dest="lam", default="1e-6")
    parser.add_argument("--centers", default="0,2000,4000")
    parser.add_argument("--meka-args", default="")
    parser.add_argument("--only")
    args = parser.parse_args()
    kmx = os.path.join(args.build, "tools", "kmx", "kmx")
    print("| case | method | centers | CPU s | peak MB | test |")
    print("|---|---|---:|---:|---:|---|")
    with tempfile.TemporaryDirectory() as tmp:
        for name, train, test, gamma in cases(args, tmp):
            for method, extra in fits(args):
                model = os.path.join(tmp, "m.kmx")
                cmd = [kmx, "train", "-s", method, "-g", gamma, "-l", args.lam, "--threads", "1"] + extra
                out, _, peak, cpu = timed_once(cmd + [train, model])
                centers = re.search(r"sv=(\d+)", out).group(1)
                print("| %s | %s%s | %s | %.2f | %.0f | %s |" % (name, method, " " + " ".join(extra) if extra else "",
                                                                centers, cpu, peak, test_error(kmx, model, test, tmp)),
                      flush=True)


if __name__ == "__main__":
    main()
