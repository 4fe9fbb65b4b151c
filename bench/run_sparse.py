#!/usr/bin/env python3
"""Sparse, high-dimensional data (text-like): `kmx train -s svm` against LIBSVM's `svm-train` on a
generated set of n rows, d columns and about `nonzeros` stored values a row, the same C and gamma,
the stopping tolerance 1e-3 and shrinking for both. kmx computes kernel columns on the nonzeros
(lib/kernel/kernel_sparse.cpp) and never widens a row to d columns; LIBSVM merges sorted index
lists per dot product. Each run under `/usr/bin/time -v` for its peak resident memory.

The data: each row draws a third of its columns from one of `classes` "topics" (a few hundred
columns each; the label is the topic), the rest anywhere in [1, d], values uniform in (0, 1], rows
scaled to unit length, as tf-idf rows are.

usage: run_sparse.py [--build build] [--rows 20000] [--test-rows 4000] [--columns 100000,1000000]
                     [--nonzeros 100] [--classes 2] [-c 4] [-g 1] [--libsvm-cache-mb 100] [--repeat R]
                     [--work /tmp/kmx_sparse]
"""
import argparse
import math
import os
import random
import re
import subprocess
import time


def write_rows(path, rows, d, nonzeros, classes, seed):
    topics = [random.Random(1000 + t).sample(range(1, d + 1), 300) for t in range(classes)]
    rng = random.Random(seed)
    with open(path, "w") as f:
        for i in range(rows):
            label = i % classes
            columns = set(rng.sample(topics[label], nonzeros // 3))
            while len(columns) < nonzeros:
                columns.add(rng.randrange(1, d + 1))
            values = {c: rng.random() or 1.0 for c in columns}
            norm = math.sqrt(sum(v * v for v in values.values()))
            f.write(f"{label + 1} " + " ".join(f"{c}:{values[c] / norm:.6g}" for c in sorted(values)) + "\n")


def timed_once(cmd):
    start = time.perf_counter()
    out = subprocess.run(["/usr/bin/time", "-v"] + cmd, check=True, capture_output=True, text=True)
    seconds = time.perf_counter() - start
    peak_kb = int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", out.stderr).group(1))
    cpu = sum(float(re.search(r"%s time \(seconds\): (\S+)" % kind, out.stderr).group(1)) for kind in ("User", "System"))
    return out.stdout, seconds, peak_kb / 1024, cpu


def timed(cmd, repeat):
    """(stdout, wall seconds, peak MB, CPU seconds): the fastest of `repeat` runs."""
    return min((timed_once(cmd) for _ in range(repeat)), key=lambda run: run[1])


def run_libsvm(train, test, c, gamma, cache_mb, work, repeat):
    model, labels = os.path.join(work, "libsvm.model"), os.path.join(work, "libsvm.out")
    cmd = ["svm-train", "-c", repr(c), "-g", repr(gamma), "-m", str(cache_mb), train, model]
    log, seconds, peak, cpu = timed(cmd, repeat)
    predicted = subprocess.run(["svm-predict", test, model, labels], check=True, capture_output=True, text=True)
    return {"cmd": " ".join(cmd), "threads": 1, "seconds": seconds, "cpu": cpu, "peak_mb": peak,
            "accuracy": float(re.search(r"Accuracy = ([0-9.]+)%", predicted.stdout).group(1)),
            "sv": int(re.search(r"nSV = (\d+)", log).group(1)),
            "objective": float(re.search(r"obj = (\S+),", log).group(1))}


def run_kmx(kmx, train, test, c, gamma, threads, work, repeat):
    model = os.path.join(work, "kmx.model")
    cmd = [kmx, "train", "-s", "svm", "-c", repr(c), "-g", repr(gamma)] + (["--threads", str(threads)] if threads else [])
    _, seconds, peak, cpu = timed(cmd + [train, model], repeat)
    info = subprocess.run([kmx, "info", model], check=True, capture_output=True, text=True).stdout
    predicted = subprocess.run([kmx, "predict", model, test], check=True, capture_output=True, text=True)
    return {"cmd": " ".join(cmd + [train, model]), "threads": threads or os.cpu_count(), "seconds": seconds,
            "cpu": cpu, "peak_mb": peak,
            "accuracy": float(re.search(r"accuracy = ([0-9.]+)%", predicted.stdout).group(1)),
            "sv": int(re.search(r"^sv\s+(\d+)", info, re.M).group(1)),
            "objective": float(re.search(r"objective (\S+)", info).group(1))}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--build", default="build")
    parser.add_argument("--rows", type=int, default=20000)
    parser.add_argument("--test-rows", type=int, default=4000)
    parser.add_argument("--columns", default="100000,1000000")
    parser.add_argument("--nonzeros", type=int, default=100)
    parser.add_argument("--classes", type=int, default=2)
    parser.add_argument("-c", type=float, default=4.0)
    parser.add_argument("-g", type=float, default=1.0)
    parser.add_argument("--libsvm-cache-mb", type=int, default=100)
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--work", default="/tmp/kmx_sparse")
    args = parser.parse_args()
    kmx = os.path.join(args.build, "tools", "kmx", "kmx")
    os.makedirs(args.work, exist_ok=True)
    print("| n train / test | d | nonzeros a row | tool | threads | train s | train CPU s | peak MB | test accuracy % "
          "| SVs | objective |")
    print("|---|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|")
    for d in (int(v) for v in args.columns.split(",")):
        train, test = (os.path.join(args.work, f"{name}_{d}.libsvm") for name in ("train", "test"))
        write_rows(train, args.rows, d, args.nonzeros, args.classes, 1)
        write_rows(test, args.test_rows, d, args.nonzeros, args.classes, 2)
        results = [("kmx", run_kmx(kmx, train, test, args.c, args.g, 1, args.work, args.repeat)),
                   ("kmx", run_kmx(kmx, train, test, args.c, args.g, 0, args.work, args.repeat)),
                   ("LIBSVM", run_libsvm(train, test, args.c, args.g, args.libsvm_cache_mb, args.work, args.repeat))]
        for tool, r in results:
            print(f"| {args.rows} / {args.test_rows} | {d} | {args.nonzeros} | {tool} | {r['threads']} | "
                  f"{r['seconds']:.2f} | {r['cpu']:.2f} | {r['peak_mb']:.0f} | {r['accuracy']:.2f} | {r['sv']} | "
                  f"{r['objective']:.8g} |", flush=True)
        for tool, r in results:
            print(f"<!-- {tool}: {r['cmd']} -->", flush=True)


if __name__ == "__main__":
    main()
