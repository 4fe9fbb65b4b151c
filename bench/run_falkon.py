#!/usr/bin/python3
"""FALKON against exact KRR and scikit-learn's Nystroem + Ridge, same run.

    /usr/bin/python3 bench/run_falkon.py [--build build] [--data ../shared/data] [--threads 1]
                                         [--only letter,shuttle,diamonds,synthetic]
    /usr/bin/python3 bench/run_falkon.py --versus-exact [--digits16 DIR] [--build build] [--threads 1]
                                         [--only-exact letter,digits16,diamonds]

--versus-exact: on the largest sets where exact KRR still runs (Letter 12000 x 16,
a 20000-row make_digits_large set, DIR/digits16_mc.{train,test}.libsvm,
generated if absent, and diamonds' first 20000 rows, regression: RMSE), FALKON
against kmx's exact KRR and scikit-learn's
KernelRidge (alpha = lambda * n, the same problem), each in its own process
under /usr/bin/time -v (peak RSS), one after the other in the same run.

For each data set: build/bench/bench_falkon (FALKON, and exact KRR where the
n x n kernel matrix fits) under /usr/bin/time -v for the peak RSS, then
scikit-learn's Nystroem(rbf, same gamma, n_components = M) followed by
RidgeClassifier / Ridge with alpha = lambda * n and no intercept, which is the
same Nystrom KRR problem (FALKON's objective (1/n) sum (f - y)^2 + lambda |f|^2
on the span of M uniformly sampled centers). Error is the test error rate
(classification) or test RMSE (regression). Prints a markdown table.
"""
import argparse
import json
import os
import re
import subprocess
import sys
import time

import peer_blas

# name, task, file stem, gamma, lambda, M, run exact KRR, iterations
SETTINGS = [
    ("letter", "clf", "letter/letter_mc", 4.0, 1e-7, 2000, True, 20),
    ("letter", "clf", "letter/letter_mc", 4.0, 1e-7, 4000, False, 20),
    ("shuttle", "clf", "shuttle/shuttle_mc", 1.0, 1e-8, 1000, False, 20),
    ("shuttle", "clf", "shuttle/shuttle_mc", 1.0, 1e-8, 4000, False, 20),
    ("diamonds", "reg", "diamonds/diamonds_reg", 1.0, 1e-7, 1000, False, 20),
    ("diamonds", "reg", "diamonds/diamonds_reg", 1.0, 1e-7, 4000, False, 20),
]


def peak_rss_mb(stderr):
    m = re.search(r"Maximum resident set size \(kbytes\): (\d+)", stderr)
    return int(m.group(1)) / 1024 if m else float("nan")


def run_falkon(build, args):
    cmd = ["/usr/bin/time", "-v", os.path.join(build, "bench", "bench_falkon")] + args
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit("bench_falkon failed: %s\n%s" % (" ".join(cmd), p.stderr))
    result = json.loads(p.stdout.strip().splitlines()[-1])
    result["peak_rss_mb"] = peak_rss_mb(p.stderr)
    return result


def run_sklearn(train, test, task, gamma, lam, m):
    import numpy as np
    from sklearn.datasets import load_svmlight_file
    from sklearn.kernel_approximation import Nystroem
    from sklearn.linear_model import Ridge, RidgeClassifier

    x, y = load_svmlight_file(train)
    xt, yt = load_svmlight_file(test, n_features=x.shape[1])
    x, xt = x.toarray(), xt.toarray()
    t0, c0 = time.perf_counter(), time.process_time()
    nys = Nystroem(kernel="rbf", gamma=gamma, n_components=m, random_state=0)
    phi = nys.fit_transform(x)
    model = (RidgeClassifier if task == "clf" else Ridge)(alpha=lam * x.shape[0], fit_intercept=False)
    model.fit(phi, y)
    fit_seconds, fit_cpu = time.perf_counter() - t0, time.process_time() - c0
    pred = model.predict(nys.transform(xt))
    if task == "clf":
        error = float(np.mean(pred != yt))
    else:
        error = float(np.sqrt(np.mean((pred - yt) ** 2)))
    return {"error": error, "seconds": fit_seconds, "cpu": fit_cpu}


# name, file stem (under --data, or DIR for digits16), gamma, lambda, FALKON centers M (each), iterations
# name, file stem, task, γ, λ, centers, CG iterations, rows (0: all). diamonds: the first 20000 of its
# 40000 training rows (exact KRR's n³ grows 8x at 40000), γ and λ as kmx grid -s krr picks them on its
# first 2000 rows (log2 γ = −1, log2 λ = −20; "Grid search for kernel ridge regression" below).
VERSUS_EXACT = [
    ("letter", "letter/letter_mc", "clf", 4.0, 1e-7, (2000, 4000), 20, 0),
    ("digits16 20k", "digits16_mc", "clf", 0.05, 1e-5, (2000, 4000), 20, 0),
    ("diamonds 20k", "diamonds/diamonds_reg", "reg", 0.5, 2.0 ** -20, (500, 1000, 2000), 20, 20000),
]


def timed(cmd):
    """Runs cmd under /usr/bin/time -v: (stdout, wall seconds, CPU seconds, peak RSS MB)."""
    t0 = time.perf_counter()
    p = subprocess.run(["/usr/bin/time", "-v"] + cmd, capture_output=True, text=True)
    wall = time.perf_counter() - t0
    if p.returncode != 0:
        sys.exit("failed: %s\n%s" % (" ".join(cmd), p.stderr))
    cpu = sum(float(m) for m in re.findall(r"(?:User|System) time \(seconds\): ([\d.]+)", p.stderr))
    return p.stdout, wall, cpu, peak_rss_mb(p.stderr)


SKLEARN_KRR = """
import sys, time, json, numpy as np
from sklearn.datasets import load_svmlight_file
from sklearn.kernel_ridge import KernelRidge
train, test, gamma, lam = sys.argv[1], sys.argv[2], float(sys.argv[3]), float(sys.argv[4])
task, rows = sys.argv[5], int(sys.argv[6])
x, y = load_svmlight_file(train); xt, yt = load_svmlight_file(test, n_features=x.shape[1])
x, xt = x.toarray(), xt.toarray()
if rows > 0:
    x, y = x[:rows], y[:rows]
classes = np.unique(y)
Y = np.where(y[:, None] == classes[None, :], 1.0, -1.0) if task == "clf" else y
t0 = time.perf_counter(); c0 = time.process_time()
model = KernelRidge(alpha=lam * x.shape[0], kernel="rbf", gamma=gamma).fit(x, Y)
fit = time.perf_counter() - t0; cpu = time.process_time() - c0
if task == "clf":
    error = float(np.mean(classes[np.argmax(model.predict(xt), axis=1)] != yt))
else:
    error = float(np.sqrt(np.mean((model.predict(xt) - yt) ** 2)))
print(json.dumps({"error": error, "seconds": fit, "cpu": cpu}))
"""


def versus_exact(a):
    digits16 = a.digits16
    if not os.path.exists(os.path.join(digits16, "digits16_mc.train.libsvm")):
        subprocess.run(["/usr/bin/python3", os.path.join(a.data, "make_digits_large.py"), "--rows", "20000",
                        "--test-rows", "5000", "--out", digits16, "--no-csv"], check=True)
    bench = os.path.join(a.build, "bench", "bench_falkon")
    print("| data | n × d, outputs | γ, λ | method | test error | fit s (wall) | fit CPU s | peak RSS MB "
          "| time / exact KRR's (CPU) |")
    print("|---|---|---|---|---:|---:|---:|---:|---:|")
    for name, stem, task, gamma, lam, centers, iters, n_rows in VERSUS_EXACT:
        if a.only_exact and name.split()[0] not in a.only_exact.split(","):
            continue
        folder = digits16 if stem.startswith("digits16") else a.data
        train, test = (os.path.join(folder, stem + s + ".libsvm") for s in (".train", ".test"))
        common = ["--train", train, "--test", test, "--task", task, "--gamma", str(gamma), "--lambda", str(lam),
                  "--threads", str(a.threads)] + (["--rows", str(n_rows)] if n_rows else [])
        # Exact KRR alone (FALKON with 10 centers and one iteration first: negligible).
        out, wall, cpu, rss = timed([bench] + common + ["--centers", "10", "--iterations", "1", "--exact"])
        e = json.loads(out.strip().splitlines()[-1])
        rows = [("kmx exact KRR", e["exact_error"], e["exact_seconds"], e["exact_cpu"], rss, e)]
        for m in centers:
            out, wall, cpu, rss = timed([bench] + common + ["--centers", str(m), "--iterations", str(iters),
                                                            "--cache-mb", "100000"])
            f = json.loads(out.strip().splitlines()[-1])
            rows.append(("kmx FALKON, M = %d uniform, %d it., K_nM cached" % (m, f["iterations"]), f["falkon_error"],
                         f["falkon_seconds"], f["falkon_cpu"], rss, f))
        out, wall, cpu, rss = timed(["/usr/bin/python3", "-c", SKLEARN_KRR, train, test, str(gamma), str(lam), task,
                                     str(n_rows)])
        k = json.loads(out.strip().splitlines()[-1])
        rows.append(("scikit-learn KernelRidge", k["error"], k["seconds"], k["cpu"], rss, k))
        exact_cpu = rows[0][3]
        for label, error, seconds, cpu, rss, r in rows:
            print("| %s | %d × %d, %d | %g, %g | %s | %s | %.1f | %.1f | %.0f | %.3f |" % (
                name, e["n"], e["d"], e["outputs"], gamma, lam, label, fmt_error(task, error), seconds, cpu, rss,
                cpu / exact_cpu))
            sys.stdout.flush()


def fmt_error(task, e):
    return "%.2f%%" % (100 * e) if task == "clf" else "%.1f" % e


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default="build")
    ap.add_argument("--data", default="../shared/data")
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--only", default="letter,shuttle,diamonds,synthetic")
    ap.add_argument("--versus-exact", action="store_true")
    ap.add_argument("--only-exact", default="", help="with --versus-exact: letter,digits16,diamonds (default all)")
    ap.add_argument("--digits16", default="/tmp/digits16_20k")
    a = ap.parse_args()
    for var in ("OMP_NUM_THREADS", "BLIS_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ[var] = str(a.threads)
    kmx_program = os.path.join(a.build, "tools", "kmx", "kmx")
    os.environ.update(peer_blas.environment(kmx_program))  # before scikit-learn loads numpy's BLAS
    print(peer_blas.describe(kmx_program) + f"; threads={a.threads} each", file=sys.stderr)
    if a.versus_exact:
        return versus_exact(a)
    only = a.only.split(",")

    rows = []
    for name, task, stem, gamma, lam, m, exact, iters in SETTINGS:
        if name not in only:
            continue
        train = os.path.join(a.data, stem + ".train.libsvm")
        test = os.path.join(a.data, stem + ".test.libsvm")
        args = ["--train", train, "--test", test, "--task", task, "--gamma", str(gamma), "--lambda", str(lam),
                "--centers", str(m), "--iterations", str(iters), "--threads", str(a.threads)]
        f = run_falkon(a.build, args + (["--exact"] if exact else []))
        s = run_sklearn(train, test, task, gamma, lam, m)
        rows.append((name, task, f, s, gamma, lam))
        print(json.dumps({"data": name, "falkon": f, "sklearn": s}), file=sys.stderr)

    print("| data | n × d, outputs | γ, λ, M | FALKON error | FALKON fit s (CPU s) | iters | cond "
          "| exact KRR error | exact s (CPU s) | sklearn Nyström+Ridge error | sklearn s (CPU s) "
          "| sklearn / FALKON CPU | exact / FALKON CPU | FALKON peak RSS MB |")
    print("|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for name, task, f, s, gamma, lam in rows:
        has_exact = "exact_error" in f
        print("| %s | %d × %d, %d | %g, %g, %d | %s | %.2f (%.2f) | %d | %.0f | %s | %s | %s | %.2f (%.2f) | %.1f× | %s | %.0f |" % (
            name, f["n"], f["d"], f["outputs"], gamma, lam, f["M"], fmt_error(task, f["falkon_error"]),
            f["falkon_seconds"], f["falkon_cpu"], f["iterations"], f["condition"],
            fmt_error(task, f["exact_error"]) if has_exact else "—",
            "%.1f (%.1f)" % (f["exact_seconds"], f["exact_cpu"]) if has_exact else "—",
            fmt_error(task, s["error"]), s["seconds"], s["cpu"], s["cpu"] / f["falkon_cpu"],
            "%.1f×" % (f["exact_cpu"] / f["falkon_cpu"]) if has_exact else "—", f["peak_rss_mb"]))
        sys.stdout.flush()

    if "synthetic" in only:
        print("\nSynthetic 60000 × 784 (fixed-seed 10-class Gaussian mixture, 10000 test rows), M = 5000, γ = 0.01, "
              "λ = 1e-6, at most 10 iterations (tolerance 1e-4), 2 threads:\n")
        print("| K_nM | fit s wall | fit s CPU | centers s | iters | cond | test error | workspace MB | peak RSS MB |")
        print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
        base = ["--synthetic", "60000", "784", "10", "--gamma", "0.01", "--lambda", "1e-6", "--centers", "5000",
                "--iterations", "10", "--tolerance", "1e-4", "--threads", "2"]
        for label, extra in (("recomputed (default)", []), ("cached (--cache-mb 2400)", ["--cache-mb", "2400"])):
            f = run_falkon(a.build, base + extra)
            print("| %s | %.1f | %.1f | %.2f | %d | %.1f | %s | %.0f | %.0f |" % (
                label, f["falkon_seconds"], f["falkon_cpu"], f["center_seconds"], f["iterations"], f["condition"],
                fmt_error("clf", f["falkon_error"]), f["workspace_bytes"] / 2**20, f["peak_rss_mb"]))
            sys.stdout.flush()

if __name__ == "__main__":
    main()
