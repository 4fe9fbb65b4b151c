#!/usr/bin/env python3
"""epsilon-SVR: `kmx train -s svr` against LIBSVM's `svm-train -s 3` on the regression sets of
../shared/data (fixed train/test splits), the same C, epsilon (-p) and gamma, one thread each, the
stopping tolerance 1e-3 and shrinking for both. Each run under `/usr/bin/time -v` for its peak
resident memory; training time is the process's wall time. Prints one markdown row per set and tool:
train seconds, peak MB, test MSE, support vectors, dual objective.

usage: run_svr.py [--build build] [--data ../shared/data] [--only NAME] [--libsvm-cache-mb 100] [--repeat R]
                  [--kmx-cache-size auto|BYTES] [--kmx-threads 1|default] [--kmx-args "--svr-dcsvm 0"]
                  [--no-libsvm]
(--kmx-cache-size: kmx's --cache-size; auto, the default, takes what the memory budget leaves, up to all of Q)
(--repeat: the best of R training runs each, alternating kmx and LIBSVM; the machine is shared)
(--kmx-threads default: no --threads, kmx's default (every core); --kmx-args: more `kmx train` options, e.g.
 --svr-dcsvm 0 for the dual solver alone; --no-libsvm: kmx's row only)
"""
import argparse
import os
import re
import subprocess
import tempfile
import time

# name: (file stem, C, epsilon, gamma). Not tuned: gamma about 1/d for min-max scaled features
# (d = 13, 10, 9) times a few, C and epsilon in the targets' units (boston: $1000s; diabetes: a score
# of 25 to 346; diamonds: price in USD, 326 to 18823).
SETS = {
    "boston": ("boston/boston_reg", 10.0, 0.5, 0.5),
    "diabetes": ("diabetes/diabetes_reg", 100.0, 5.0, 0.5),
    "diamonds": ("diamonds/diamonds_reg", 1000.0, 100.0, 1.0),
}


def timed_once(cmd):
    start = time.perf_counter()
    out = subprocess.run(["/usr/bin/time", "-v"] + cmd, check=True, capture_output=True, text=True)
    seconds = time.perf_counter() - start
    peak_kb = int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", out.stderr).group(1))
    cpu = sum(float(re.search(r"%s time \(seconds\): (\S+)" % kind, out.stderr).group(1)) for kind in ("User", "System"))
    return out.stdout, seconds, peak_kb / 1024, cpu


REPEAT = 1


def timed(cmd):
    """(stdout, wall seconds, peak resident MB, CPU seconds) of cmd under /usr/bin/time -v, the fastest of REPEAT
    runs."""
    return min((timed_once(cmd) for _ in range(REPEAT)), key=lambda run: run[1])


def mse_of(text):
    return float(re.search(r"Mean squared error = (\S+)", text).group(1))


def run_libsvm(train, test, c, p, gamma, cache_mb, tmp):
    model, labels = os.path.join(tmp, "libsvm.model"), os.path.join(tmp, "libsvm.out")
    cmd = ["svm-train", "-s", "3", "-c", repr(c), "-p", repr(p), "-g", repr(gamma), "-m", str(cache_mb), train, model]
    log, seconds, peak, cpu = timed(cmd)
    predicted = subprocess.run(["svm-predict", test, model, labels], check=True, capture_output=True, text=True)
    return {"cmd": " ".join(cmd), "seconds": seconds, "cpu": cpu, "peak_mb": peak, "mse": mse_of(predicted.stdout),
            "sv": int(re.search(r"nSV = (\d+)", log).group(1)),
            "objective": float(re.search(r"obj = (\S+),", log).group(1))}


def run_kmx(kmx, train, test, c, p, gamma, cache, threads, extra, tmp):
    model = os.path.join(tmp, "kmx.model")
    cmd = [kmx, "train", "-s", "svr", "-c", repr(c), "-p", repr(p), "-g", repr(gamma)]
    cmd += ([] if threads == "default" else ["--threads", threads]) + extra
    cmd += ([] if cache == "auto" else ["--cache-size", cache]) + [train, model]
    _, seconds, peak, cpu = timed(cmd)
    info = subprocess.run([kmx, "info", model], check=True, capture_output=True, text=True).stdout
    predicted = subprocess.run([kmx, "predict", "--threads", "1", model, test], check=True, capture_output=True,
                               text=True)
    return {"cmd": " ".join(cmd), "seconds": seconds, "cpu": cpu, "peak_mb": peak, "mse": mse_of(predicted.stdout),
            "sv": int(re.search(r"^sv\s+(\d+)", info, re.M).group(1)),
            "objective": float(re.search(r"objective (\S+)", info).group(1))}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--build", default="build")
    parser.add_argument("--data", default=os.path.join("..", "shared", "data"))
    parser.add_argument("--only")
    parser.add_argument("--libsvm-cache-mb", type=int, default=100)
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--kmx-cache-size", default="auto")
    parser.add_argument("--kmx-threads", default="1")
    parser.add_argument("--kmx-args", default="")
    parser.add_argument("--no-libsvm", action="store_true")
    args = parser.parse_args()
    global REPEAT
    REPEAT = args.repeat
    kmx = os.path.join(args.build, "tools", "kmx", "kmx")
    print("| set | n train / test | C, p, γ | tool | train s | train CPU s | peak MB | test MSE | SVs | objective |")
    print("|---|---|---|---|---:|---:|---:|---:|---:|---:|")
    for name, (stem, c, p, gamma) in SETS.items():
        if args.only and name != args.only:
            continue
        train = os.path.join(args.data, stem + ".train.libsvm")
        test = os.path.join(args.data, stem + ".test.libsvm")
        rows = [sum(1 for _ in open(path)) for path in (train, test)]
        with tempfile.TemporaryDirectory() as tmp:
            label = " ".join(["kmx", args.kmx_args, "threads " + args.kmx_threads]).replace("  ", " ")
            results = {label: run_kmx(kmx, train, test, c, p, gamma, args.kmx_cache_size, args.kmx_threads,
                                      args.kmx_args.split(), tmp)}
            if not args.no_libsvm:
                results["LIBSVM"] = run_libsvm(train, test, c, p, gamma, args.libsvm_cache_mb, tmp)
        for tool, r in results.items():
            print(f"| {name} | {rows[0]} / {rows[1]} | {c:g}, {p:g}, {gamma:g} | {tool} | {r['seconds']:.2f} | {r['cpu']:.2f} | "
                  f"{r['peak_mb']:.0f} | {r['mse']:.6g} | {r['sv']} | {r['objective']:.8g} |", flush=True)
        for tool, r in results.items():
            print(f"<!-- {tool}: {r['cmd']} -->", flush=True)


if __name__ == "__main__":
    main()
