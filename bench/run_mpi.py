#!/usr/bin/python3
"""FALKON across MPI ranks: 1 rank against 2 on this machine, and scikit-learn's Nystroem + LinearSVC.

    /usr/bin/python3 bench/run_mpi.py --train T.libsvm --test T.libsvm [--build build]
                                      [--centers 1000,2000,4000] [--gamma 0.05] [--lambda 1e-6]
                                      [--iterations 20] [--sklearn]

Data: ../shared/data/make_digits_large.py (digits16_bin, d = 256). For each M:
- `kmx train -s falkon` alone (--threads 1), then `mpirun -n 2 kmx train -s falkon` (--threads 1
  per rank): wall time of the whole command (loading included), test accuracy from `kmx predict`;
- the communication per CG iteration of the distributed run, from the code (lib/krr/falkon.cpp):
  one sum of 3 x M x outputs doubles (the bins of K_nM^T K_nM v, lib/core/reproducible_sum.h), plus four
  one-double maxima (the agreements and the bins' bound);
- with --sklearn: Nystroem(rbf, same gamma, n_components = M) + LinearSVC(C = 1/(lambda n)),
  one process, its time and test accuracy.
Prints a markdown table. Speed-up is meaningful only on an otherwise idle machine: print the
load average with the table.
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile
import time

ENV = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
           OMPI_MCA_btl="self,vader", OMP_NUM_THREADS="1")


def timed(command):
    start = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, env=ENV)
    if done.returncode != 0:
        sys.exit("failed: %s\n%s%s" % (" ".join(command), done.stdout, done.stderr))
    return time.perf_counter() - start, done.stdout


def accuracy(kmx, model, test):
    _, out = timed([kmx, "predict", "--threads", "1", model, test, os.devnull])
    return float(re.search(r"accuracy = ([\d.]+)%", out).group(1))


def run_kmx(args, kmx, m, ranks, tmp):
    model = os.path.join(tmp, "falkon_%d_%d.kmx" % (m, ranks))
    train = [kmx, "train", "-s", "falkon", "-g", str(args.gamma), "-l", str(args.lam), "-m", str(m),
             "--iterations", str(args.iterations), "--threads", "1", args.train, model]
    if ranks > 1:
        train = ["mpirun", "--oversubscribe", "--bind-to", "core", "-n", str(ranks)] + train
    seconds, out = timed(train)
    return seconds, accuracy(kmx, model, args.test), out.strip()


def run_sklearn(args, m):
    import numpy as np
    from sklearn.datasets import load_svmlight_file
    from sklearn.kernel_approximation import Nystroem
    from sklearn.svm import LinearSVC

    start = time.perf_counter()
    x, y = load_svmlight_file(args.train)
    xt, yt = load_svmlight_file(args.test, n_features=x.shape[1])
    features = Nystroem(kernel="rbf", gamma=args.gamma, n_components=m, random_state=0)
    z = features.fit_transform(x)
    svm = LinearSVC(C=1.0 / (args.lam * x.shape[0]), dual=False).fit(z, y)
    predicted = svm.predict(features.transform(xt))
    return time.perf_counter() - start, 100.0 * np.mean(predicted == yt)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--train", required=True)
    parser.add_argument("--test", required=True)
    parser.add_argument("--build", default="build")
    parser.add_argument("--centers", default="1000,2000")
    parser.add_argument("--gamma", type=float, default=0.05)
    parser.add_argument("--lambda", dest="lam", type=float, default=1e-6)
    parser.add_argument("--iterations", type=int, default=20)
    parser.add_argument("--sklearn", action="store_true")
    args = parser.parse_args()
    kmx = os.path.join(args.build, "tools", "kmx", "kmx")
    rows = sum(1 for _ in open(args.train))
    print("n = %d, load average before: %s" % (rows, open("/proc/loadavg").read().split()[:3]))
    print("| M | 1 rank s | 2 ranks s | speed-up | acc 1 rank | acc 2 ranks | bytes summed / CG iteration |"
          " sklearn Nystroem+LinearSVC s | sklearn acc |")
    print("|---|---|---|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as tmp:
        for m in [int(v) for v in args.centers.split(",")]:
            one, acc_one, _ = run_kmx(args, kmx, m, 1, tmp)
            two, acc_two, _ = run_kmx(args, kmx, m, 2, tmp)
            sk_time, sk_acc = run_sklearn(args, m) if args.sklearn else (float("nan"), float("nan"))
            print("| %d | %.1f | %.1f | %.2f | %.2f | %.2f | %d | %.1f | %.2f |" %
                  (m, one, two, one / two, acc_one, acc_two, 3 * 8 * m + 4 * 8, sk_time, sk_acc), flush=True)
    print("load average after: %s" % open("/proc/loadavg").read().split()[:3])


if __name__ == "__main__":
    main()
