#!/usr/bin/python3
"""10-class digits at a million rows with early prediction: `kmx train -s dcsvm-early --ovo` and `--ovr`
on the digits16 multiclass set (../shared/data/make_digits_large.py: d = 256, labels 0..9, test rows
from images no training row was made from), on every core, recording train time (wall and CPU),
peak RSS, test accuracy and prediction time into bench/results/multiclass_early.json (or --out).

    /usr/bin/python3 bench/run_multiclass_early.py --digits DIR [--build build] [--rows 1000000]
        [--threads 0] [--c-gamma 8,0.1614] [--schemes ovo,ovr] [--out FILE]

--digits names a folder with digits16_mc.{train,test}.libsvm (made there with --rows training rows if
missing). C and gamma default to the binary task's validated values (bench/run_scale.py).
"""
import argparse
import json
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import peer_blas  # noqa: E402
from run_dcsvm import subset, timed  # noqa: E402
from run_scale import make_digits  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default="build")
    ap.add_argument("--digits", default="/tmp/kmx-digits16")
    ap.add_argument("--rows", type=int, default=1000000)
    ap.add_argument("--threads", type=int, default=0, help="0: every core")
    ap.add_argument("--c-gamma", default="8,0.1614")
    ap.add_argument("--schemes", default="ovo,ovr")
    ap.add_argument("--out", default=os.path.join(HERE, "results", "multiclass_early.json"),
                    help="records file (schemes run side by side need one each)")
    a = ap.parse_args()
    binary = os.path.join(a.build, "tools", "kmx", "kmx")
    train_all = os.path.join(a.digits, "digits16_mc.train.libsvm")
    test = os.path.join(a.digits, "digits16_mc.test.libsvm")
    if not (os.path.exists(train_all) and os.path.exists(test)):
        make_digits(a.digits, a.rows)
    c, gamma = a.c_gamma.split(",")
    threads = a.threads or os.cpu_count()
    header = dict(cpu=peer_blas.describe(binary), threads=threads, C=float(c), gamma=float(gamma), rows=a.rows)
    records = []
    with tempfile.TemporaryDirectory() as tmp:
        train = subset(train_all, a.rows, tmp)
        for scheme in a.schemes.split(","):
            model = os.path.join(tmp, f"{scheme}.kmx")
            out, wall, mb, cpu = timed([binary, "train", "-s", "dcsvm-early", f"--{scheme}", "-c", c, "-g", gamma,
                                        "--threads", str(threads), "-v", train, model])
            predicted, _, _, _ = timed([binary, "predict", "--threads", str(threads), model, test])
            accuracy = float(predicted.split("accuracy = ")[1].split("%")[0])
            predict_us = float(predicted.split("predict time = ")[1].split(" us/sample")[0])
            r = dict(scheme=scheme, train_s=wall, cpu_s=cpu, mb=mb, accuracy=accuracy, predict_us=predict_us,
                     summary=out.strip().splitlines()[-1])
            records.append(r)
            print(json.dumps(r), file=sys.stderr, flush=True)
            with open(a.out, "w") as f:  # after each scheme
                json.dump(dict(header, records=records), f, indent=1)
    print("| scheme | train s (wall) | CPU s | peak MB | accuracy % | predict us/row |")
    print("|---|---:|---:|---:|---:|---:|")
    for r in records:
        print(f"| {r['scheme']} | {r['train_s']:.0f} | {r['cpu_s']:.0f} | {r['mb']:.0f} | {r['accuracy']:.2f} | "
              f"{r['predict_us']:.1f} |")


if __name__ == "__main__":
    main()
