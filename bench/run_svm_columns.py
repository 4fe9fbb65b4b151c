#!/usr/bin/env python3
"""The SVM dual solver's kernel columns (issue 19): `kmx train -s svm` of this build against another build (--before,
e.g. one made from an earlier commit) on the same data, the two alternated run by run so that both see the same
machine load; the fastest of --repeat runs of each by CPU seconds (user + system, /usr/bin/time -v), with wall seconds
and peak resident MB. Cases (each skipped when its data is missing):

  digits16   make_digits_large.py binary digits (d = 256; --digits DIR holding digits16_bin.train.libsvm),
             C = 8, gamma = 0.1614: the cache kmx chooses (all of Q fits) and --cache-size 100M (columns recomputed)
  digits     the 64-feature digits_mc training rows of ../shared/data repeated 8 times (10376 rows, 10 classes,
             45 one-vs-one problems), C = 100, gamma = 0.3, --cache-size 10M
  letter     binary Letter (d = 16), C = 8, gamma = 16, the chosen cache

--threads 1,2 runs each case with each thread count; --zen3 adds runs with BLIS_ARCH_TYPE=zen3 KMX_ISA=avx2 (the
code an AMD Zen 3 runs: BLIS's zen3 micro-kernel stores C by rows, so the kept rows are its other operand).

usage: run_svm_columns.py [--build build] --before DIR [--data ../shared/data] [--digits DIR] [--repeat 3]
                          [--threads 1] [--zen3] [--only NAME]
"""
import argparse
import os
import re
import sys
import tempfile

from run_svr import timed_once


def cases(args, tmp):
    found = []
    digits16 = os.path.join(args.digits or "", "digits16_bin.train.libsvm")
    if args.digits and os.path.exists(digits16):
        common = ["-c", "8", "-g", "0.1614"]
        found.append(("digits16 20000 x 256, auto cache", common, digits16))
        found.append(("digits16 20000 x 256, 100 MB cache", common + ["--cache-size", "100M"], digits16))
    digits = os.path.join(args.data, "digits", "digits_mc.train.libsvm")
    if os.path.exists(digits):
        repeated = os.path.join(tmp, "digits8.libsvm")
        with open(digits) as source, open(repeated, "w") as out:
            out.write(source.read() * 8)
        found.append(("digits 10376 x 64, 10 classes, 10 MB cache", ["-c", "100", "-g", "0.3", "--cache-size", "10M"],
                      repeated))
    letter = os.path.join(args.data, "letter", "letter_bin.train.libsvm")
    if os.path.exists(letter):
        found.append(("letter 12000 x 16, auto cache", ["-c", "8", "-g", "16"], letter))
    return [case for case in found if not args.only or args.only in case[0]]


def kmx_binary(build):
    path = os.path.join(build, "tools", "kmx", "kmx")
    if not os.path.exists(path):
        sys.exit("no kmx in %s" % build)
    return path


def train(kmx, options, path, threads, zen3, tmp):
    forced = ["env", "BLIS_ARCH_TYPE=zen3", "KMX_ISA=avx2"] if zen3 else []
    cmd = forced + [kmx, "train", "-s", "svm", "--threads", str(threads)] + options + [path, os.path.join(tmp, "m.kmx")]
    out, seconds, peak, cpu = timed_once(cmd)
    sv = int(re.search(r"sv=(\d+)", out).group(1)) if "sv=" in out else -1
    return {"cpu": cpu, "wall": seconds, "peak": peak, "sv": sv}


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--build", default="build")
    parser.add_argument("--before", required=True)
    parser.add_argument("--data", default=os.path.join(os.path.dirname(__file__), "..", "..", "shared", "data"))
    parser.add_argument("--digits")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--threads", default="1")
    parser.add_argument("--zen3", action="store_true")
    parser.add_argument("--only")
    args = parser.parse_args()
    builds = [("before", kmx_binary(args.before)), ("this", kmx_binary(args.build))]
    print("| case | threads | kernels | build | CPU s | wall s | peak MB | SVs | CPU this / before |")
    print("|---|---:|---|---|---:|---:|---:|---:|---:|")
    with tempfile.TemporaryDirectory() as tmp:
        for name, options, path in cases(args, tmp):
            for threads in [int(t) for t in args.threads.split(",")]:
                for zen3 in [False, True] if args.zen3 else [False]:
                    best = {}
                    for _ in range(args.repeat):
                        for label, kmx in builds:
                            run = train(kmx, options, path, threads, zen3, tmp)
                            if label not in best or run["cpu"] < best[label]["cpu"]:
                                best[label] = run
                    ratio = best["this"]["cpu"] / best["before"]["cpu"]
                    for label, _ in builds:
                        r = best[label]
                        print("| %s | %d | %s | %s | %.2f | %.2f | %.0f | %d | %s |" % (
                            name, threads, "zen3 (forced)" if zen3 else "chosen", label, r["cpu"], r["wall"], r["peak"],
                            r["sv"], "%.2f" % ratio if label == "this" else ""), flush=True)


if __name__ == "__main__":
    main()
