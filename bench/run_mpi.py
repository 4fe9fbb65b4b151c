#!/usr/bin/python3
"""kmx across MPI ranks on this machine: 1 rank against 2, stage-wise growth, the bytes each TRON
step AllReduces, and scikit-learn's Nystroem + LinearSVC on the same model.

    /usr/bin/python3 bench/run_mpi.py --train T.libsvm --test T.libsvm [--build build]
        [--rows 1000000] [--centers 1000,2000] [--solvers nystrom-tron,falkon] [-c 8] [--gamma 0.1614]
        [--lambda 1e-6] [--stages 3] [--sklearn-rows 100000,300000] [--cache-size 1M] [--out FILE.json]

Data: ../shared/data/make_digits_large.py (digits16_bin, d = 256); the first --rows rows of --train,
converted once to a .kmxd (`kmx convert`) that each rank maps and reads its row range of.
- For each solver and m: `kmx train` alone (--threads 1) and `mpirun -n 2 kmx train` (--threads 1
  per rank): wall time of the whole command (loading included), the largest rank's peak RSS, test
  accuracy from `kmx predict`; for nystrom-tron the Newton and CG steps and the bytes rank 0
  AllReduced (counted by the library, `-v`), per step.
- Stage-wise: nystrom-tron on 2 ranks at the largest m with --stages S (m/2^(S-1), ..., m, each
  warm-started) against --stages 1 (from scratch): time, steps, objective, accuracy.
- scikit-learn at each --sklearn-rows n (the first n rows): Nystroem(rbf, same gamma, m, uniform
  sample) + LinearSVC(squared hinge, the same C, no intercept) is the model nystrom-tron fits
  (the primal on the features K_nB K_BB^{-1/2}); one process, numpy's BLAS on 2 threads (LinearSVC
  itself is one thread), against kmx nystrom-tron on 2 ranks of one thread at the same n and m.
Prints markdown tables and the load average; speed-ups mean something only on an idle machine.
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import peer_blas  # noqa: E402
from run_dcsvm import subset  # noqa: E402

MPI_ENV = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
               OMPI_MCA_btl="self,vader", OMP_NUM_THREADS="1")


def timed(command, env=MPI_ENV):
    """(seconds, stdout, stderr, peak RSS MB of the largest process) of command under /usr/bin/time."""
    start = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, env=env)
    seconds = time.perf_counter() - start
    if done.returncode != 0:
        sys.exit("failed: %s\n%s%s" % (" ".join(command), done.stdout, done.stderr[-4000:]))
    peaks = [int(v) for v in re.findall(r"peak_kb=(\d+)", done.stderr)]  # one per rank
    return seconds, done.stdout, done.stderr, max(peaks, default=0) / 1024.0


def accuracy(kmx, model, test):
    _, out, _, _ = timed([kmx, "predict", "--threads", "2", model, test, os.devnull])
    return float(re.search(r"accuracy = ([\d.]+)%", out).group(1))


def tron_steps(log):
    """Newton steps, CG steps, bytes AllReduced and objective of each stage, from -v (every rank
    logs the same line: the first of each stage is kept)."""
    found = re.findall(r"stage m = (\d+): (\d+) Newton steps, (\d+) CG steps, objective (\S+), (\d+) bytes "
                       r"AllReduced; new columns of C (\S+) s, TRON (\S+) s", log)
    stages = {}
    for m, n, c, o, b, cs, ts in found:
        stages.setdefault(int(m), dict(m=int(m), newton=int(n), cg=int(c), objective=float(o), bytes=int(b),
                                       columns_s=float(cs), tron_s=float(ts)))
    return list(stages.values())


def kmx_train(args, kmx, solver, data, m, ranks, stages, tmp):
    model = os.path.join(tmp, "%s_%d_%d_%d.kmx" % (solver, m, ranks, stages))
    if solver == "falkon":
        method = ["-s", "falkon", "-l", str(args.lam), "--iterations", str(args.iterations)]
    else:
        method = ["-s", "nystrom-tron", "-c", str(args.c), "--stages", str(stages)]
    if args.cache_size:
        method += ["--cache-size", args.cache_size]
    train = ["/usr/bin/time", "-f", "peak_kb=%M", kmx, "train", *method, "-g", str(args.gamma), "--num-centers", str(m),
             "--threads", "1", "-v", data, model]
    if ranks > 1:
        train = ["mpirun", "--oversubscribe", "--bind-to", "core", "-n", str(ranks)] + train
    seconds, _, err, mb = timed(train)
    record = dict(solver=solver, m=m, ranks=ranks, stages=stages, seconds=seconds, peak_mb=mb,
                  accuracy=accuracy(kmx, model, args.test))
    steps = tron_steps(err)
    if steps:
        record.update(stage_log=steps, newton=sum(s["newton"] for s in steps), cg=sum(s["cg"] for s in steps),
                      objective=steps[-1]["objective"], allreduced=sum(s["bytes"] for s in steps))
        record["bytes_per_step"] = record["allreduced"] / max(1, record["newton"] + record["cg"])
        record["columns_s"] = sum(s["columns_s"] for s in steps)
        record["tron_s"] = sum(s["tron_s"] for s in steps)
    found = re.search(r"FALKON: (\d+) CG iterations, (\d+) bytes AllReduced", err)
    if found:
        record.update(cg=int(found.group(1)), allreduced=int(found.group(2)))
        record["bytes_per_step"] = record["allreduced"] / max(1, record["cg"])
    print("  %s" % json.dumps({k: v for k, v in record.items() if k != "stage_log"}), flush=True)
    return record


def sklearn_run(args, train, m):
    """Nystroem + LinearSVC in this interpreter's child, with numpy's BLAS on 2 threads."""
    code = r"""
import json, resource, sys, time
import numpy as np
from sklearn.datasets import load_svmlight_file
from sklearn.kernel_approximation import Nystroem
from sklearn.svm import LinearSVC
train, test, m, gamma, c = sys.argv[1], sys.argv[2], int(sys.argv[3]), float(sys.argv[4]), float(sys.argv[5])
start = time.perf_counter()
x, y = load_svmlight_file(train)
xt, yt = load_svmlight_file(test, n_features=x.shape[1])
features = Nystroem(kernel="rbf", gamma=gamma, n_components=m, random_state=0)
z = features.fit_transform(x)
svm = LinearSVC(C=c, loss="squared_hinge", fit_intercept=False, dual=False).fit(z, y)
seconds = time.perf_counter() - start
accuracy = 100.0 * np.mean(svm.predict(features.transform(xt)) == yt)
print(json.dumps(dict(seconds=seconds, accuracy=accuracy,
                      peak_mb=resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0)))
"""
    env = dict(os.environ, OMP_NUM_THREADS="2", BLIS_NUM_THREADS="2", **peer_blas.environment(args.kmx))
    done = subprocess.run([sys.executable, "-c", code, train, args.test, str(m), str(args.gamma), str(args.c)],
                          capture_output=True, text=True, env=env)
    if done.returncode != 0:
        return dict(solver="sklearn", m=m, error=done.stderr.strip().splitlines()[-1:])
    record = dict(solver="sklearn Nystroem+LinearSVC", m=m, **json.loads(done.stdout))
    print("  %s" % json.dumps(record), flush=True)
    return record


def converted(kmx, libsvm, tmp):
    path = os.path.join(tmp, os.path.basename(libsvm) + ".kmxd")
    seconds, _, _, _ = timed([kmx, "convert", libsvm, path])
    print("  converted %s in %.1f s" % (os.path.basename(libsvm), seconds), flush=True)
    return path


def print_tables(records, rows):
    ranks = {(r["solver"], r["m"], r["ranks"]): r for r in records
             if r.get("stages") == 1 and "n" not in r and "role" not in r}
    print("\n### 1 rank against 2, n = %d\n" % rows)
    print("| solver | m | 1 rank s | 2 ranks s | speed-up | acc 1 | acc 2 | peak MB/rank 1 / 2 |"
          " Newton + CG steps | bytes AllReduced / step |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for (solver, m, p), one in sorted(ranks.items()):
        two = ranks.get((solver, m, 2))
        if p != 1 or two is None:
            continue
        steps = "%d + %d" % (two.get("newton", 0), two["cg"])
        print("| %s | %d | %.1f | %.1f | %.2f | %.2f | %.2f | %.0f / %.0f | %s | %.0f |" %
              (solver, m, one["seconds"], two["seconds"], one["seconds"] / two["seconds"], one["accuracy"],
               two["accuracy"], one["peak_mb"], two["peak_mb"], steps, two["bytes_per_step"]))
    staged = [r for r in records if r.get("role") == "stages"]
    if staged:
        print("\n### Stage-wise growth against from scratch (nystrom-tron, 2 ranks)\n")
        print("| stages | m per stage | s | Newton steps | CG steps | objective | accuracy |")
        print("|---|---|---|---|---|---|---|")
        for r in staged:
            print("| %d | %s | %.1f | %d | %d | %.6g | %.2f |" % (r["stages"], ", ".join(str(s["m"]) for s in r["stage_log"]),
                                                                 r["seconds"], r["newton"], r["cg"], r["objective"],
                                                                 r["accuracy"]))
    versus = [r for r in records if "n" in r]
    if versus:
        print("\n### Against scikit-learn (same model: Nystroem + squared-hinge LinearSVC, no intercept)\n")
        print("| n | m | kmx 2 ranks s | acc | sklearn s | acc | kmx faster | peak MB kmx/rank, sklearn |")
        print("|---|---|---|---|---|---|---|---|")
        pairs = {}
        for r in versus:
            pairs.setdefault((r["n"], r["m"]), {})[r["solver"]] = r
        for (n, m), pair in sorted(pairs.items()):
            k, s = pair.get("nystrom-tron"), pair.get("sklearn Nystroem+LinearSVC")
            if k and s:
                print("| %d | %d | %.1f | %.2f | %.1f | %.2f | %.2f× | %.0f, %.0f |" %
                      (n, m, k["seconds"], k["accuracy"], s["seconds"], s["accuracy"], s["seconds"] / k["seconds"],
                       k["peak_mb"], s["peak_mb"]))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--train", required=True)
    ap.add_argument("--test", required=True)
    ap.add_argument("--build", default="build")
    ap.add_argument("--rows", type=int, default=1000000)
    ap.add_argument("--centers", default="1000,2000")
    ap.add_argument("--solvers", default="nystrom-tron,falkon")
    ap.add_argument("-c", type=float, default=8.0)
    ap.add_argument("--gamma", type=float, default=0.1614)
    ap.add_argument("--lambda", dest="lam", type=float, default=1e-6)
    ap.add_argument("--iterations", type=int, default=20)
    ap.add_argument("--stages", type=int, default=3)
    ap.add_argument("--sklearn-rows", default="")
    ap.add_argument("--cache-size", default="", help="kmx --cache-size: 1M makes every pass recompute C "
                    "(compute-bound), the default caches it when it fits (passes then read it from memory)")
    ap.add_argument("--out", default="")
    args = ap.parse_args()
    args.kmx = kmx = os.path.join(args.build, "tools", "kmx", "kmx")
    centers = [int(v) for v in args.centers.split(",")]
    header = dict(cpu=peer_blas.describe(kmx), rows=args.rows, C=args.c, gamma=args.gamma, lam=args.lam,
                  load_before=open("/proc/loadavg").read().split()[:3])
    print(json.dumps(header), flush=True)
    records = []
    with tempfile.TemporaryDirectory(dir="/tmp") as tmp:
        data = converted(kmx, subset(args.train, args.rows, tmp), tmp)
        for solver in args.solvers.split(","):
            for m in centers:
                for ranks in (1, 2):
                    records.append(kmx_train(args, kmx, solver, data, m, ranks, 1, tmp))
        if "nystrom-tron" in args.solvers and args.stages > 1:
            scratch = next(r for r in records if r["solver"] == "nystrom-tron" and r["m"] == centers[-1]
                           and r["ranks"] == 2)
            staged = kmx_train(args, kmx, "nystrom-tron", data, centers[-1], 2, args.stages, tmp)
            records += [dict(scratch, role="stages"), dict(staged, role="stages")]
        for n in [int(v) for v in args.sklearn_rows.split(",") if v]:
            rows = subset(args.train, n, tmp)
            rows_kmxd = converted(kmx, rows, tmp)
            for m in centers:
                records.append(dict(kmx_train(args, kmx, "nystrom-tron", rows_kmxd, m, 2, 1, tmp), n=n))
                records.append(dict(sklearn_run(args, rows, m), n=n))
    header["load_after"] = open("/proc/loadavg").read().split()[:3]
    print_tables(records, args.rows)
    print("\nload average before %s, after %s" % (header["load_before"], header["load_after"]))
    if args.out:
        with open(args.out, "w") as f:
            json.dump(dict(header, records=records), f, indent=1)


if __name__ == "__main__":
    main()
