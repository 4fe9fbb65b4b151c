#!/usr/bin/python3
"""scikit-learn's side of the k-means benchmark (bench/run_kmeans.sh), and the
generator of the data both sides read.

  kmeans_sklearn.py --write-data FILE [--rows N] [--cols D] [--clusters C] [--noise S] [--seed S]
      Writes a Gaussian mixture: C centers uniform in [0,1]^D, N points each a
      random center plus N(0, S^2) noise; numpy's PCG64 with a fixed seed, so
      the same arguments always give the same bytes. Format: int64 n, int64 d,
      then n*d float64, row-major, little-endian (what bench_kmeans reads).

  kmeans_sklearn.py --data FILE --k K [--max-iter N] [--seed S] [--repeats R]
      Times KMeans(n_init=1, algorithm="lloyd", init="k-means++", tol=0) on one
      thread. Seeding is timed by kmeans_plusplus (the init KMeans uses); the
      per-iteration time is the difference of two fits from those centers, with
      max_iter=N and max_iter=1, over the difference of their n_iter_ (this
      cancels the fixed costs of a fit: validation, centering, final labels);
      each fit is timed best of --repeats (3) after one warm-up fit.

Run it with Debian's /usr/bin/python3 (python3-sklearn) and OMP_NUM_THREADS=1.
"""
import argparse
import sys
import time

import numpy as np
from threadpoolctl import threadpool_limits


def write_data(path, rows, cols, clusters, noise, seed):
    rng = np.random.default_rng(seed)
    centers = rng.random((clusters, cols))
    labels = rng.integers(clusters, size=rows)
    with open(path, "wb") as out:
        np.array([rows, cols], dtype="<i8").tofile(out)
        chunk = 4096
        for begin in range(0, rows, chunk):
            end = min(rows, begin + chunk)
            block = centers[labels[begin:end]] + noise * rng.standard_normal((end - begin, cols))
            block.astype("<f8").tofile(out)


def read_data(path):
    with open(path, "rb") as f:
        rows, cols = np.fromfile(f, dtype="<i8", count=2)
        x = np.fromfile(f, dtype="<f8", count=int(rows * cols))
    if x.size != rows * cols:
        sys.exit(f"{path}: shorter than {rows} x {cols} values")
    return x.reshape(int(rows), int(cols))


def timed_fit(x, init, k, max_iter, seed):
    from sklearn.cluster import KMeans

    model = KMeans(n_clusters=k, init=init, n_init=1, algorithm="lloyd", max_iter=max_iter, tol=0,
                   random_state=seed)
    start = time.perf_counter()
    model.fit(x)
    return time.perf_counter() - start, model.n_iter_, model.inertia_


def best_fit(x, init, k, max_iter, seed, repeats):
    """timed_fit with the least time of `repeats` runs (the fits are deterministic)."""
    return min(timed_fit(x, init, k, max_iter, seed) for _ in range(repeats))


def bench(path, k, max_iter, seed, repeats):
    import sklearn
    from sklearn.cluster import kmeans_plusplus

    x = read_data(path)
    with threadpool_limits(limits=1):
        start = time.perf_counter()
        seeds, _ = kmeans_plusplus(x, k, random_state=seed)
        seeding = time.perf_counter() - start
        timed_fit(x, seeds, k, 1, seed)  # warm-up: first-call costs would skew the difference
        short_time, short_iter, _ = best_fit(x, seeds, k, 1, seed, repeats)
        long_time, long_iter, inertia = best_fit(x, seeds, k, max_iter, seed, repeats)
    per_iteration = (long_time - short_time) / max(1, long_iter - short_iter)
    print(f"sklearn {sklearn.__version__} n={x.shape[0]} d={x.shape[1]} k={k} threads=1: {long_iter} iterations, "
          f"{per_iteration:.4f} s/iteration, seeding {seeding:.3f} s, fit {long_time:.3f} s, "
          f"inertia {inertia:.10g}")
    print(f"RESULT side=sklearn k={k} iterations={long_iter} per_iteration={per_iteration:.6f} "
          f"seeding={seeding:.6f} total={seeding + long_time:.6f} objective={inertia:.10g}")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--write-data", metavar="FILE")
    parser.add_argument("--rows", type=int, default=60000)
    parser.add_argument("--cols", type=int, default=784)
    parser.add_argument("--clusters", type=int, default=10)
    parser.add_argument("--noise", type=float, default=1.0)
    parser.add_argument("--data", metavar="FILE")
    parser.add_argument("--k", type=int, default=10)
    parser.add_argument("--max-iter", type=int, default=20)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--repeats", type=int, default=3, help="fits per timing (best is kept)")
    args = parser.parse_args()
    if args.write_data:
        write_data(args.write_data, args.rows, args.cols, args.clusters, args.noise, args.seed)
    elif args.data:
        bench(args.data, args.k, args.max_iter, args.seed, args.repeats)
    else:
        parser.error("give --write-data FILE or --data FILE")


if __name__ == "__main__":
    main()
