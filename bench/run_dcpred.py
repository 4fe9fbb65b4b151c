#!/usr/bin/python3
"""DC-Pred++ compact predictors against the full kernel model, a linear model and LIBSVM.

For each data set: LIBSVM's svm-train/svm-predict (model file size, accuracy, predict time per
sample as svm-predict reports it: wall time over the test rows, file reading included), then
build/bench/bench_dcpred, which trains kmx's DC-SVM (exact) with the same C and gamma, builds the
compact predictor (float64 and float32 storage) with its automatic options or those given, and
times, one row at a time, the compact predictor against a linear model (a dot product per row),
alternating the two over chunks of rows so both see the same machine load (median of --repeat
runs). One thread throughout.

  /usr/bin/python3 bench/run_dcpred.py [--build build] [--data ../shared/data]
                                       [--only NAME] [--repeat R] [-- extra bench_dcpred options]
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile
import time

# (name, train, test, C, gamma): Letter's C and gamma are LIBSVM's reference from the data README;
# Shuttle's were chosen on a validation split of its training rows (bench/run_dcsvm.py).
DATASETS = [
    ("letter_bin", "letter/letter_bin.train.libsvm", "letter/letter_bin.test.libsvm", 8, 16),
    ("shuttle_bin", "shuttle/shuttle_bin.train.libsvm", "shuttle/shuttle_bin.test.libsvm", 8, 64),
]


def run(cmd):
    out = subprocess.run(cmd, capture_output=True, text=True, env=dict(os.environ, OMP_NUM_THREADS="1"))
    if out.returncode != 0:
        sys.exit(f"{' '.join(cmd)} failed:\n{out.stdout}\n{out.stderr}")
    return out.stdout


def count_rows(path):
    with open(path) as f:
        return sum(1 for line in f if line.strip())


def libsvm(train, test, c, gamma, tmp):
    model, pred = os.path.join(tmp, "libsvm.model"), os.path.join(tmp, "libsvm.pred")
    start = time.perf_counter()
    run(["svm-train", "-c", str(c), "-g", str(gamma), "-m", "1024", train, model])
    train_s = time.perf_counter() - start
    times = []
    for _ in range(3):
        start = time.perf_counter()
        out = run(["svm-predict", test, model, pred])
        times.append(time.perf_counter() - start)
    accuracy = float(re.search(r"Accuracy = ([\d.]+)%", out).group(1)) / 100
    times.sort()
    return {"train_s": train_s, "accuracy": accuracy, "us": times[1] / count_rows(test) * 1e6,
            "bytes": os.path.getsize(model)}


def bench(build, train, test, c, gamma, tmp, repeat, extra):
    exe = os.path.join(build, "bench", "bench_dcpred")
    out = run([exe, train, test, "--C", str(c), "--gamma", str(gamma), "--model", os.path.join(tmp, "kmx.model"),
               "--repeat", str(repeat), *extra])
    values = {}
    for line in out.splitlines():
        key, _, value = line.partition("=")
        values[key] = float(value)  # repeated keys (linear timing per predictor): the last one wins
    return values


def table(name, lib, v):
    lin_us = v["linear_us_per_sample"]
    rows = [
        ("linear (dot product per row)", v["linear_accuracy"], lin_us, 1.0, None),
        ("DC-Pred++ float64", v["dcpred64_accuracy"], v["dcpred64_row_us_per_sample"], v["dcpred64_row_vs_linear"],
         v["dcpred64_bytes"]),
        ("DC-Pred++ float32", v["dcpred32_accuracy"], v["dcpred32_row_us_per_sample"], v["dcpred32_row_vs_linear"],
         v["dcpred32_bytes"]),
        ("DC-Pred++ int16", v["dcpred16_accuracy"], v["dcpred16_row_us_per_sample"], v["dcpred16_row_vs_linear"],
         v["dcpred16_bytes"]),
        ("DC-Pred++ int8", v["dcpred8_accuracy"], v["dcpred8_row_us_per_sample"], v["dcpred8_row_vs_linear"],
         v["dcpred8_bytes"]),
        ("kmx DC-SVM full model (batched)", v["model_accuracy"], v["model_us_per_sample"],
         v["model_us_per_sample"] / lin_us, v["model_bytes"]),
        ("LIBSVM svm-predict", lib["accuracy"], lib["us"], lib["us"] / lin_us, lib["bytes"]),
    ]
    print(f"\n### {name}: {int(v['dcpred64_leaves'])} leaves, {v['dcpred64_mean_landmarks']:.1f} landmarks "
          f"and {v['dcpred64_mean_features']:.1f} features per leaf on average, built in "
          f"{v['dcpred64_build_seconds']:.2f} s\n")
    print("| predictor | accuracy | µs/sample | × linear | bytes | × LIBSVM speed | × LIBSVM size |")
    print("|---|---|---|---|---|---|---|")
    for label, acc, us, ratio, size in rows:
        speed = lib["us"] / us
        smaller = f"{lib['bytes'] / size:.1f}" if size else "–"
        print(f"| {label} | {acc * 100:.2f}% | {us:.3f} | {ratio:.1f} | {int(size) if size else '–'} | "
              f"{speed:.0f} | {smaller} |")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--build", default="build")
    parser.add_argument("--data", default="../shared/data")
    parser.add_argument("--only")
    parser.add_argument("--repeat", type=int, default=100)
    parser.add_argument("extra", nargs="*", help="options passed to bench_dcpred (after --)")
    args = parser.parse_args()
    for name, train, test, c, gamma in DATASETS:
        if args.only and args.only != name:
            continue
        train, test = os.path.join(args.data, train), os.path.join(args.data, test)
        with tempfile.TemporaryDirectory() as tmp:
            lib = libsvm(train, test, c, gamma, tmp)
            values = bench(args.build, train, test, c, gamma, tmp, args.repeat, args.extra)
        table(name, lib, values)


if __name__ == "__main__":
    main()
