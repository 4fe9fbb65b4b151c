#!/usr/bin/python3
"""Kernel approximation error against memory: Nystrom (uniform and k-means landmarks) and MEKA.

For each data set (FILE, gamma) runs `kmx approx` (Gaussian kernel, seed 0, one thread) at several
memory levels: Nystrom with m landmarks (-s nystrom and -s kmeans-nystrom, m in --landmarks) and
MEKA with c clusters of rank k each (-s meka --clusters c --rank k, k in --ranks), and records what
kmx approx reports: the relative error ||G - G~||_F / ||G||_F on its sampled rows (min(n, 2000),
the same rows for every method at one seed), the approximation's bytes and its build time.
Writes the records to --out (JSON) and draws --png: error against bytes, one panel per data set.

    /usr/bin/python3 bench/run_approx_memory.py [--build build] [--set NAME:FILE:GAMMA]...
        [--landmarks 25,50,100,200,400,800] [--clusters 10] [--ranks 8,16,32,64,128,192]
        [--out bench/results/approx_memory.json] [--png bench/results/approx_memory.png]
    /usr/bin/python3 bench/run_approx_memory.py --plot-only FILE.json PNG

Without --set: binary Letter (examples/data, gamma = 16, LIBSVM's reference setting).
"""
import argparse
import json
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import plot_only  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
NYSTROM_METHODS = {"nystrom": "Nyström, uniform landmarks", "kmeans-nystrom": "Nyström, k-means landmarks"}
MEKA_LABEL = "MEKA"
DEFAULT_SET = "letter_bin:" + os.path.join(HERE, "..", "examples", "data", "letter_bin.train.libsvm") + ":16"


def approx(binary, data, gamma, method, options):
    """One `kmx approx` run: {error, bytes, seconds, rank}, or None where kmx refuses the setting (a MEKA
    rank above a cluster's size), with its message on stderr."""
    run = subprocess.run([binary, "approx", "-s", method, "-g", str(gamma), "--threads", "1", *options, data],
                         capture_output=True, text=True)
    if run.returncode != 0:
        print(f"skipped {method} {' '.join(options)}: {run.stderr.strip()}", file=sys.stderr)
        return None
    out = run.stdout
    return dict(error=float(re.search(r"relative error = ([\d.eE+-]+)", out).group(1)),
                bytes=int(re.search(r"\((\d+) bytes\)", out).group(1)),
                seconds=float(re.search(r"time = ([\d.]+)s", out).group(1)),
                rank=int(re.search(r"rank=(\d+)", out).group(1)))


def sweep(binary, name, data, gamma, landmarks, clusters, ranks):
    """Every method at every memory level on one data set."""
    runs = [(method, ["-m", str(m)], dict(landmarks=m)) for method in NYSTROM_METHODS for m in landmarks]
    runs += [("meka", ["--clusters", str(clusters), "--rank", str(k)], dict(clusters=clusters, rank_per_cluster=k))
             for k in ranks]
    records = []
    for method, options, setting in runs:
        measured = approx(binary, data, gamma, method, options)
        if measured is None:
            continue
        record = dict(measured, data=name, gamma=gamma, method=method, **setting)
        print(json.dumps(record), file=sys.stderr, flush=True)
        records.append(record)
    return records


def plot_error_vs_memory(result, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    names = list(dict.fromkeys(r["data"] for r in result["records"]))
    fig, axes = plt.subplots(1, len(names), figsize=(5.5 * len(names), 4.5), squeeze=False)
    labels = dict(NYSTROM_METHODS, meka=MEKA_LABEL)
    for ax, name in zip(axes[0], names):
        records = [r for r in result["records"] if r["data"] == name]
        for method, marker in (("nystrom", "o-"), ("kmeans-nystrom", "s-"), ("meka", "^-")):
            rs = sorted((r for r in records if r["method"] == method), key=lambda r: r["bytes"])
            ax.loglog([r["bytes"] / 2**20 for r in rs], [r["error"] for r in rs], marker, label=labels[method])
        ax.set_title(f"{name} (n = {result['rows'][name]}, γ = {records[0]['gamma']:g})", fontsize=9)
        ax.set_xlabel("memory of the approximation (MiB)")
        ax.grid(True, which="both", alpha=.3)
    axes[0][0].set_ylabel(r"relative error $\Vert G - \tilde G \Vert_F \,/\, \Vert G \Vert_F$")
    axes[0][0].legend(fontsize=8)
    fig.suptitle(f"kmx approx, one thread, seed 0; MEKA: {result['clusters']} clusters, rank k each", fontsize=9)
    fig.tight_layout()
    fig.savefig(path, dpi=100)


def print_table(result):
    print("| data | method | setting | MiB | rel. error | build s |")
    print("|---|---|---|---:|---:|---:|")
    for r in result["records"]:
        setting = f"m = {r['landmarks']}" if "landmarks" in r else f"c = {r['clusters']}, k = {r['rank_per_cluster']}"
        print(f"| {r['data']} | {r['method']} | {setting} | {r['bytes'] / 2**20:.2f} | {r['error']:.4g} | "
              f"{r['seconds']:.2f} |")


def main():
    if plot_only.run_if_asked(plot_error_vs_memory, print_table):
        return
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default="build")
    ap.add_argument("--set", action="append", help="NAME:FILE:GAMMA (repeatable)")
    ap.add_argument("--landmarks", default="25,50,100,200,400,800")
    ap.add_argument("--clusters", type=int, default=10)
    ap.add_argument("--ranks", default="8,16,32,64,128,192")
    ap.add_argument("--out", default=os.path.join(HERE, "results", "approx_memory.json"))
    ap.add_argument("--png", default=os.path.join(HERE, "results", "approx_memory.png"))
    a = ap.parse_args()
    binary = os.path.join(a.build, "tools", "kmx", "kmx")
    result = dict(clusters=a.clusters, rows={}, records=[],
                  kmx_version=subprocess.run([binary, "version", "-v"], capture_output=True, text=True).stdout)
    for spec in a.set or [DEFAULT_SET]:
        name, data, gamma = spec.split(":")
        with open(data) as f:
            result["rows"][name] = sum(1 for line in f if line.strip())
        result["records"] += sweep(binary, name, data, float(gamma), [int(m) for m in a.landmarks.split(",")],
                                   a.clusters, [int(k) for k in a.ranks.split(",")])
    with open(a.out, "w") as f:
        json.dump(result, f, indent=1)
    plot_error_vs_memory(result, a.png)
    print_table(result)


if __name__ == "__main__":
    main()
