#!/usr/bin/python3
"""DC-Pred++ compact predictors against the full kernel model, a linear model and LIBSVM.

For each data set: LIBSVM's svm-train/svm-predict (model file size, accuracy, predict time per
sample as svm-predict reports it: wall time over the test rows, file reading included), then
build/bench/bench_dcpred, which trains kmx's DC-SVM (exact) with the same C and gamma, builds the
compact predictor (float64 and float32 storage) with its automatic options or those given, and
times, one row at a time, the compact predictor against a linear model (a dot product per row),
alternating the two over chunks of rows so both see the same machine load (median of --repeat
runs). One thread throughout.

  /usr/bin/python3 bench/run_dcpred.py [--build build] [--data ../shared/data] [--cpu N]
                                       [--only NAME] [--repeat R] [-- extra bench_dcpred options]

--budget runs compression to a budget instead (kmx compress --max-bytes/--max-us): on Letter binary
at 64 KB and 10x the linear model's µs per row, at a tenth of the model's bytes and at the model's
bytes (the whole grid: the frontier), and on the digits set of --digits (make_digits_large.py
--rows 20000 --test-rows 5000 --no-csv) at a tenth of the model's bytes (its candidates the frontier
there); each search's candidates (with their test accuracy) go to bench/results/budget_NAME.json
and the accuracy-vs-bytes and accuracy-vs-µs frontiers, with the full model and a linear model as
points, to bench/results/budget_NAME.png:

  /usr/bin/python3 bench/run_dcpred.py --budget [--digits /tmp/digits20k] [--only NAME] [--cpu N]
"""
import argparse
import json
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


CPU = None  # --cpu: the one CPU every timed process runs on (None: wherever the scheduler puts it)


def run(cmd):
    pin = (lambda: os.sched_setaffinity(0, {CPU})) if CPU is not None else None
    out = subprocess.run(cmd, capture_output=True, text=True, env=dict(os.environ, OMP_NUM_THREADS="1"),
                         preexec_fn=pin)
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


# (name, train, test, C, gamma, budgets): each budget is (bytes, time): bytes a number, or a string "x" for that
# fraction of the model's bytes; time None, or a multiple of the linear model's µs per row.
BUDGET_DATASETS = [
    ("letter_bin", "letter/letter_bin.train.libsvm", "letter/letter_bin.test.libsvm", 8, 16,
     [(65536, 10), ("0.1", None), ("1.0", None)]),
    ("digits20k", "{digits}/digits16_bin.train.libsvm", "{digits}/digits16_bin.test.libsvm", 8, 0.1614,
     [("0.1", None)]),
]
RESULTS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "results")


def budget_run(build, train, test, c, gamma, tmp, budget):
    """One search: its candidates and the chosen predictor's values."""
    size, times_linear = budget
    option = ["--max-bytes-fraction", size] if isinstance(size, str) else ["--max-bytes", str(size)]
    if times_linear:
        option += ["--max-us-linear", str(times_linear)]
    exe = os.path.join(build, "bench", "bench_dcpred")
    out = run([exe, train, test, "--C", str(c), "--gamma", str(gamma), "--model", os.path.join(tmp, "kmx.model"),
               "--repeat", "20", *option])
    values, candidates = {}, []
    for line in out.splitlines():
        key, _, value = line.partition("=")
        if key == "candidate":
            storage, leaves, m, pseudo, size_, us, val, test_acc, fits, gamma_scale, ridge_scale = value.split(",")
            candidates.append({"storage": storage, "leaves": int(leaves), "landmarks": int(m),
                               "pseudo": int(pseudo), "gamma_scale": float(gamma_scale),
                               "ridge_scale": float(ridge_scale), "bytes": int(size_),
                               "us": float(us), "validation_accuracy": float(val),
                               "test_accuracy": float(test_acc), "fits": fits == "1"})
        else:
            values[key] = float(value)
    return {"budget": list(budget), "values": values, "candidates": candidates}


def pareto(points):
    """The points no other point beats in both cost (smaller) and accuracy (larger), by cost."""
    best, front = -1.0, []
    for cost, acc in sorted(points):
        if acc > best:
            front.append((cost, acc))
            best = acc
    return front


def plot_budget(name, runs, lib, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    full = runs[-1]
    v, cands = full["values"], full["candidates"]
    fig, axes = plt.subplots(1, 2, figsize=(11, 4.2))
    for ax, key, label in ((axes[0], "bytes", "predictor bytes"), (axes[1], "us", "µs per row (one row at a time)")):
        for storage, marker in (("float64", "o"), ("float32", "s"), ("int16", "^"), ("int8", "v"), ("int4", "D")):
            pts = [(c[key], 100 * c["test_accuracy"]) for c in cands if c["storage"] == storage]
            ax.scatter([p[0] for p in pts], [p[1] for p in pts], marker=marker, s=18, alpha=0.5,
                       label=f"DC-Pred++ candidates ({storage})")
        front = pareto([(c[key], 100 * c["test_accuracy"]) for c in cands])
        ax.step([p[0] for p in front], [p[1] for p in front], where="post", color="k", lw=1, label="frontier")
        for run_ in runs[:-1] if len(runs) > 1 else runs:
            b = run_["values"]
            cost = b["budget_blob_bytes"] if key == "bytes" else b["budget_row_us_per_sample"]
            within = f"{int(b['budget_max_bytes'])} bytes"
            if b["budget_max_us"] > 0:
                within += f", {b['budget_max_us']:.3g} µs"
            ax.scatter([cost], [100 * b["budget_accuracy"]], marker="*", s=160, zorder=5,
                       label=f"chosen within {within}")
        model_cost = v["model_bytes"] if key == "bytes" else v["model_us_per_sample"]
        ax.scatter([model_cost], [100 * v["model_accuracy"]], marker="D", color="red", s=50,
                   label="full kernel model (kmx, batched µs)")
        if lib:
            lib_cost = lib["bytes"] if key == "bytes" else lib["us"]
            ax.scatter([lib_cost], [100 * lib["accuracy"]], marker="P", color="purple", s=60, label="LIBSVM")
        if key == "us":
            ax.scatter([v["linear_us_per_sample"]], [100 * v["linear_accuracy"]], marker="X", color="green", s=60,
                       label="linear model")
        else:
            linear_bytes = 8 * (v.get("d", 0) + 1)
            if linear_bytes > 8:
                ax.scatter([linear_bytes], [100 * v["linear_accuracy"]], marker="X", color="green", s=60,
                           label="linear model (d+1 doubles)")
        ax.set_xscale("log")
        ax.set_xlabel(label)
        ax.set_ylabel("test accuracy (%)")
        ax.grid(alpha=0.3)
    axes[0].legend(fontsize=6.5, loc="lower right")
    fig.suptitle(f"{name}: DC-Pred++ predictors explored by kmx compress --max-bytes (test accuracy)")
    fig.tight_layout()
    fig.savefig(path, dpi=110)


def budget_main(args):
    os.makedirs(RESULTS, exist_ok=True)
    for name, train, test, c, gamma, budgets in BUDGET_DATASETS:
        if args.only and args.only != name:
            continue
        base = args.data if "{digits}" not in train else ""
        train = os.path.join(base, train.format(digits=args.digits))
        test = os.path.join(base, test.format(digits=args.digits))
        with tempfile.TemporaryDirectory() as tmp:
            lib = libsvm(train, test, c, gamma, tmp) if args.libsvm else None
            runs = [budget_run(args.build, train, test, c, gamma, tmp, b) for b in budgets]
        for r in runs:
            b = r["values"]
            print(f"{name} budget {r['budget']}: {int(b['budget_blob_bytes'])} bytes "
                  f"(max {int(b['budget_max_bytes'])}, model {int(b['model_bytes'])}; max µs "
                  f"{b['budget_max_us']:.3g}), test accuracy "
                  f"{100 * b['budget_accuracy']:.2f}% (model {100 * b['model_accuracy']:.2f}%, linear "
                  f"{100 * b['linear_accuracy']:.2f}%), {b['budget_row_us_per_sample']:.3f} µs/row = "
                  f"{b['budget_row_vs_linear']:.1f}x linear, {len(r['candidates'])} candidates in "
                  f"{b['budget_search_seconds']:.0f} s")
        with open(os.path.join(RESULTS, f"budget_{name}.json"), "w") as f:
            json.dump({"libsvm": lib, "runs": runs}, f, indent=1)
        plot_budget(name, runs, lib, os.path.join(RESULTS, f"budget_{name}.png"))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--build", default="build")
    parser.add_argument("--data", default="../shared/data")
    parser.add_argument("--only")
    parser.add_argument("--repeat", type=int, default=100)
    parser.add_argument("--budget", action="store_true", help="compression to a budget (see above)")
    parser.add_argument("--digits", default="/tmp/digits20k")
    parser.add_argument("--libsvm", type=int, default=1, help="--budget: 0 leaves LIBSVM out of the plots")
    parser.add_argument("--cpu", type=int, help="run every process on this CPU only (os.sched_setaffinity): on a "
                        "shared machine one vCPU may be slower than another on these loops (bench/README.md)")
    parser.add_argument("extra", nargs="*", help="options passed to bench_dcpred (after --)")
    args = parser.parse_args()
    global CPU
    CPU = args.cpu
    if args.budget:
        budget_main(args)
        return
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
