#!/usr/bin/python3
"""Peak memory of FALKON and MEKA against their formulas, on the digits16 binary set (d = 256).

For each n, `kmx info` on the training file gives the peak RSS of loading the data alone; `kmx train -s
falkon -m M` and `kmx train -s meka-krr --rank k --clusters c` give the peak RSS of a whole training
run. What training adds (run minus loading) is compared with the formulas:
  FALKON:  8·n·M (K_nM, cached across CG passes when it fits the budget) + 8·M² (the preconditioner)
  MEKA:    8·n·k (the per-cluster bases W) + 8·(c·k)² (the link matrix L)
Writes bench/results/memory.json and prints a table.

    /usr/bin/python3 bench/run_memory.py --digits DIR [--build build] [--sizes 30000,100000,300000]
        [--threads 1] [--rank 64] [--clusters 16]
"""
import argparse
import json
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import peer_blas  # noqa: E402
from run_dcsvm import subset, timed  # noqa: E402
from run_scale import falkon_centers  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
MB = 1 << 20


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default="build")
    ap.add_argument("--digits", default="/tmp/kmx-digits16")
    ap.add_argument("--sizes", default="30000,100000,300000")
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--rank", type=int, default=64)
    ap.add_argument("--clusters", type=int, default=16)
    ap.add_argument("--gamma", default="0.1614")
    a = ap.parse_args()
    binary = os.path.join(a.build, "tools", "kmx", "kmx")
    train_all = os.path.join(a.digits, "digits16_bin.train.libsvm")
    records = []
    with tempfile.TemporaryDirectory() as tmp:
        for n in (int(s) for s in a.sizes.split(",")):
            train = subset(train_all, n, tmp)
            _, _, loading_mb, _ = timed([binary, "info", "--threads", str(a.threads), train])
            m = falkon_centers(n)
            runs = {
                "falkon": (["-s", "falkon", "--num-centers", str(m)], 8 * n * m + 8 * m * m),
                "meka-krr": (["-s", "meka-krr", "--rank", str(a.rank), "--clusters", str(a.clusters)],
                             8 * n * a.rank + 8 * (a.clusters * a.rank) ** 2),
            }
            for method, (options, formula) in runs.items():
                model = os.path.join(tmp, method + ".kmx")
                _, wall, mb, cpu = timed([binary, "train", *options, "-g", a.gamma, "--threads", str(a.threads),
                                          train, model])
                added = mb - loading_mb
                r = dict(method=method, n=n, peak_mb=mb, loading_mb=loading_mb, added_mb=added,
                         formula_mb=formula / MB, ratio=added * MB / formula, train_s=wall, cpu_s=cpu)
                records.append(r)
                print(json.dumps(r), file=sys.stderr, flush=True)
    with open(os.path.join(HERE, "results", "memory.json"), "w") as f:
        json.dump(dict(cpu=peer_blas.describe(binary), threads=a.threads, records=records), f, indent=1)
    print("| method | n | peak RSS MB | loading the data MB | added MB | formula MB | added / formula |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for r in records:
        print(f"| {r['method']} | {r['n']} | {r['peak_mb']:.0f} | {r['loading_mb']:.0f} | {r['added_mb']:.0f} | "
              f"{r['formula_mb']:.0f} | {r['ratio']:.2f} |")


if __name__ == "__main__":
    main()
