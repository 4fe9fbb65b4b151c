#!/usr/bin/python3
"""kmx at growing n on deformed digits, with LIBSVM and scikit-learn up to where they finish.

Trains `kmx train -s dcsvm`, `-s dcsvm-early` and `-s falkon` on the first n rows of the digits16
binary set (../shared/data/make_digits_large.py: d = 256, test rows from images no training row was
made from) for each n, next to LIBSVM's svm-train (exact SVM; kmx's SVMs get LIBSVM's `-m 1024`
cache, not their default, which takes what the memory budget leaves) and
scikit-learn's Nystroem + RidgeClassifier (FALKON's peer, same gamma, lambda and M). Records train
time (wall and CPU), peak RSS, test accuracy and prediction time per row into
bench/results/scale.json, and draws bench/results/scale_time.png (train CPU time vs n, log-log) and
bench/results/scale_accuracy.png (accuracy vs train CPU time; CPU time because a shared machine
disturbs it less than wall time). A solver — a peer, or one of kmx's — is stopped after --peer-minutes of wall time (recorded as
unfinished, a lower bound) and not run at larger n once a run of it has taken more than
--peer-minutes / 4 (each doubling of n costs an SVM solver 3-4x), and
scikit-learn's Nystroem is not run where its n x M feature matrix would not fit in half the memory
available.

C and gamma come from LIBSVM on a validation split of the training rows (train on rows [0, 10000),
validate on [10000, 15000); gamma in scale x {1/2, 1, 2, 4, 8} where scale = 1 / (d var(X)), C in
{1, 8, 32, 128}), never from the test set; FALKON uses the same gamma, its default lambda (1e-6) and M
(min(n, max(100, 5 sqrt n))), which scikit-learn gets too.

    /usr/bin/python3 bench/run_scale.py [--build build] [--digits DIR] [--sizes 10000,30000,...]
        [--threads 1] [--peer-minutes 30] [--make-rows 1000000] [--skip-peers] [--c-gamma C,GAMMA]
        [--solvers dcsvm,dcsvm-early,falkon,libsvm,sklearn] [--out FILE] [--append]

--c-gamma skips the validation grid (about 20 LIBSVM runs on 10000 rows) with values it chose before.
    /usr/bin/python3 bench/run_scale.py --plot-only [FILE...]   # the PNGs again (from FILEs merged)

On 2 cores the peers and kmx can run side by side, one thread each, into two files:
    run_scale.py --solvers libsvm,sklearn --out /tmp/peers.json ... &
    run_scale.py --solvers dcsvm,dcsvm-early,falkon --out /tmp/kmx.json ...
    run_scale.py --plot-only /tmp/peers.json /tmp/kmx.json

--digits names a folder with digits16_bin.{train,test}.libsvm; without it, or if the files are
missing, they are made there (default /tmp/kmx-digits16) with --make-rows training rows.
"""
import argparse
import json
import math
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import peer_blas  # noqa: E402
from run_dcsvm import LIBSVM_CACHE, Unfinished, libsvm, subset, timed  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
RESULTS = os.path.join(HERE, "results")
KMX_METHODS = ["dcsvm", "dcsvm-early", "falkon"]
ALL_SOLVERS = ["dcsvm", "dcsvm-early", "falkon", "libsvm", "sklearn"]
LAMBDA = 1e-6


def make_digits(folder, rows):
    maker = os.path.join(HERE, "..", "..", "shared", "data", "make_digits_large.py")
    subprocess.run(["/usr/bin/python3", maker, "--rows", str(rows), "--test-rows", "20000", "--out", folder,
                    "--no-csv"], check=True)


def falkon_centers(n):
    """kmx's default M (`kmx train -s falkon` without -m): min(n, max(100, 5 sqrt n))."""
    return min(n, max(100, int(5 * math.sqrt(n))))


def gamma_scale(train_file, rows):
    from sklearn.datasets import load_svmlight_file
    x, _ = load_svmlight_file(train_file, n_features=256)
    x = x[:rows].toarray()
    return 1.0 / (x.shape[1] * x.var())


def choose_c_gamma(train_file, tmp):
    """LIBSVM's best (C, gamma) on rows [10000, 15000) after training on [0, 10000)."""
    fit = subset(train_file, 10000, tmp)
    with open(train_file) as src:
        lines = [line for i, line in zip(range(15000), src)][10000:]
    validation = os.path.join(tmp, "validation.libsvm")
    with open(validation, "w") as dst:
        dst.writelines(lines)
    scale = gamma_scale(fit, 10000)
    scores = {}
    for c in (1, 8, 32, 128):
        for factor in (0.5, 1, 2, 4, 8):
            scores[(c, scale * factor)] = libsvm(fit, validation, c, scale * factor, tmp)["accuracy"]
            print(f"validation C={c} gamma={scale * factor:.4g}: {scores[(c, scale * factor)]:.2f}%", file=sys.stderr)
    best = max(scores.values())
    return min((key for key, value in scores.items() if value == best), key=lambda key: key[0])  # smallest C


def available_bytes():
    with open("/proc/meminfo") as f:
        return int(next(line for line in f if line.startswith("MemAvailable")).split()[1]) * 1024


def kmx_run(binary, method, train, test, c, gamma, n, threads, tmp, limit):
    model = os.path.join(tmp, f"kmx.{method}.model")
    extra = ["--lambda", str(LAMBDA), "--num-centers", str(falkon_centers(n))] if method == "falkon" else ["-c", str(c), "--cache-size", LIBSVM_CACHE]
    _, train_s, mb, cpu = timed([binary, "train", "-s", method, "-g", str(gamma), "--threads", str(threads), *extra,
                                 train, model], limit)
    out, _, _, _ = timed([binary, "predict", "--threads", str(threads), model, test])
    accuracy = float(out.split("accuracy = ")[1].split("%")[0])
    predict_us = float(out.split("predict time = ")[1].split(" us/sample")[0])
    return dict(train_s=train_s, cpu_s=cpu, mb=mb, accuracy=accuracy, predict_us=predict_us)


def sklearn_run(train, test, gamma, n, threads, limit):
    """scikit-learn's Nystroem + RidgeClassifier in a child process (its peak RSS is its own). Its
    train_s is the whole process (loading both files, fitting, predicting), as for the command-line
    solvers; fit_s is the fit alone."""
    code = f"""
import json, time
from sklearn.datasets import load_svmlight_file
from sklearn.kernel_approximation import Nystroem
from sklearn.linear_model import RidgeClassifier
x, y = load_svmlight_file({train!r}, n_features=256); xt, yt = load_svmlight_file({test!r}, n_features=256)
x, xt = x.toarray(), xt.toarray()
t0 = time.perf_counter()
nys = Nystroem(kernel="rbf", gamma={gamma!r}, n_components={falkon_centers(n)}, random_state=0)
model = RidgeClassifier(alpha={LAMBDA} * x.shape[0], fit_intercept=False).fit(nys.fit_transform(x), y)
fit = time.perf_counter() - t0
t0 = time.perf_counter(); accuracy = 100 * float((model.predict(nys.transform(xt)) == yt).mean())
print(json.dumps(dict(fit_s=fit, accuracy=accuracy, predict_us=(time.perf_counter() - t0) / len(yt) * 1e6)))
"""
    env = dict(os.environ, OMP_NUM_THREADS=str(threads), BLIS_NUM_THREADS=str(threads))
    out, wall, mb, cpu = timed(["/usr/bin/python3", "-c", code], limit, env=env)
    r = json.loads(out.strip().splitlines()[-1])
    return dict(train_s=wall, cpu_s=cpu, mb=mb, accuracy=r["accuracy"], predict_us=r["predict_us"],
                fit_s=r["fit_s"])


def plot(records, path_time, path_accuracy):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    solvers = sorted({r["solver"] for r in records})
    fig, ax = plt.subplots(figsize=(6.5, 4.5))
    for solver in solvers:
        rs = sorted((r for r in records if r["solver"] == solver and not r.get("unfinished")), key=lambda r: r["n"])
        line, = ax.loglog([r["n"] for r in rs], [r["cpu_s"] for r in rs], "o-", label=solver)
        stopped = [r for r in records if r["solver"] == solver and r.get("unfinished")]
        ax.loglog([r["n"] for r in stopped], [r["cpu_s"] for r in stopped], "^", mfc="none", color=line.get_color())
    ax.set_xlabel("training rows n"), ax.set_ylabel("train time (CPU s, whole command)"), ax.grid(True, which="both", alpha=.3)
    ax.set_title("digits16 (d = 256), binary (open triangles: stopped, unfinished)", fontsize=9), ax.legend()
    fig.tight_layout(), fig.savefig(path_time, dpi=110)
    fig, ax = plt.subplots(figsize=(6.5, 4.5))
    for solver in solvers:
        rs = sorted((r for r in records if r["solver"] == solver and not r.get("unfinished")), key=lambda r: r["n"])
        ax.semilogx([r["cpu_s"] for r in rs], [r["accuracy"] for r in rs], "o-", label=solver)
        for r in rs:
            ax.annotate(f"{r['n'] // 1000}k", (r["cpu_s"], r["accuracy"]), fontsize=7)
    ax.set_xlabel("train time (CPU s, whole command)"), ax.set_ylabel("test accuracy (%)"), ax.grid(True, which="both", alpha=.3)
    ax.set_title("digits16 (d = 256), binary: accuracy vs time"), ax.legend()
    fig.tight_layout(), fig.savefig(path_accuracy, dpi=110)


def replot(files):
    """--plot-only [FILE...]: the PNGs again from bench/results/scale.json, or from the records of several
    runs' files (e.g. peers and kmx run side by side on two cores with --out), merged into scale.json;
    a later file's record of a solver at some n replaces an earlier one's (a rerun after a change)."""
    header, by_run = {}, {}
    for path in files or [os.path.join(RESULTS, "scale.json")]:
        with open(path) as f:
            run = json.load(f)
        by_run.update({(r["solver"], r["n"]): r for r in run.pop("records")})
        header = header or run
    records = list(by_run.values())
    if files:
        with open(os.path.join(RESULTS, "scale.json"), "w") as out:
            json.dump(dict(header, records=records), out, indent=1)
    plot(records, os.path.join(RESULTS, "scale_time.png"), os.path.join(RESULTS, "scale_accuracy.png"))
    table(records)


def table(records):
    print("| n | solver | train s | CPU s | peak MB | accuracy % | predict us/row |")
    print("|---:|---|---:|---:|---:|---:|---:|")
    for r in sorted(records, key=lambda r: r["n"]):
        if r.get("unfinished"):
            print(f"| {r['n']} | {r['solver']} | > {r['train_s']:.0f} (stopped) | > {r['cpu_s']:.0f} | {r['mb']:.0f} | – | – |")
            continue
        print(f"| {r['n']} | {r['solver']} | {r['train_s']:.1f} | {r['cpu_s']:.1f} | {r['mb']:.0f} | "
              f"{r['accuracy']:.2f} | {r['predict_us']:.1f} |")


def main():
    if "--plot-only" in sys.argv:
        return replot(sys.argv[sys.argv.index("--plot-only") + 1:])
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default="build")
    ap.add_argument("--digits", default="/tmp/kmx-digits16")
    ap.add_argument("--sizes", default="10000,30000,100000,300000,1000000")
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--peer-minutes", type=float, default=30)
    ap.add_argument("--make-rows", type=int, default=1000000)
    ap.add_argument("--skip-peers", action="store_true")
    ap.add_argument("--c-gamma", help="C,gamma from an earlier validation (skips the grid)")
    ap.add_argument("--append", action="store_true", help="add to the records already in the output file")
    ap.add_argument("--solvers", default=",".join(ALL_SOLVERS), help="a comma-separated subset of " + ",".join(ALL_SOLVERS))
    ap.add_argument("--out", default=os.path.join(RESULTS, "scale.json"),
                    help="records file (two runs side by side need two; --plot-only merges them)")
    a = ap.parse_args()
    binary = os.path.join(a.build, "tools", "kmx", "kmx")
    os.environ.update(peer_blas.environment(binary))
    train_all = os.path.join(a.digits, "digits16_bin.train.libsvm")
    test = os.path.join(a.digits, "digits16_bin.test.libsvm")
    if not (os.path.exists(train_all) and os.path.exists(test)):
        make_digits(a.digits, a.make_rows)
    os.makedirs(RESULTS, exist_ok=True)
    header = dict(cpu=peer_blas.describe(binary), threads=a.threads)
    records, stopped = [], set(["LIBSVM", "sklearn Nystroem"] if a.skip_peers else [])
    names = dict({f"kmx {m}": m for m in KMX_METHODS}, **{"LIBSVM": "libsvm", "sklearn Nystroem": "sklearn"})
    stopped |= {solver for solver, name in names.items() if name not in a.solvers.split(",")}
    limit = a.peer_minutes * 60
    if a.append:
        with open(a.out) as f:
            records = json.load(f)["records"]
    with tempfile.TemporaryDirectory() as tmp:
        if a.c_gamma:
            c, gamma = (float(v) for v in a.c_gamma.split(","))
        else:
            c, gamma = choose_c_gamma(train_all, tmp)
        header.update(C=c, gamma=gamma, lam=LAMBDA, validated="given" if a.c_gamma else "LIBSVM grid")
        print(json.dumps(header), file=sys.stderr)
        for n in (int(s) for s in a.sizes.split(",")):
            train = subset(train_all, n, tmp)
            runs = {f"kmx {m}": (lambda m=m: kmx_run(binary, m, train, test, c, gamma, n, a.threads, tmp, limit))
                    for m in KMX_METHODS}
            runs["LIBSVM"] = lambda: libsvm(train, test, c, gamma, tmp, limit)
            runs["sklearn Nystroem"] = lambda: sklearn_run(train, test, gamma, n, a.threads, limit)
            if n * falkon_centers(n) * 8 > available_bytes() / 2:
                stopped.add("sklearn Nystroem")  # its n x M features would not fit
            for solver, run in runs.items():
                if solver in stopped:
                    continue
                try:
                    r = dict(run(), solver=solver, n=n)
                except Unfinished as stop:  # recorded as a lower bound, and not run at larger n
                    r = dict(solver=solver, n=n, unfinished=True, train_s=stop.wall, cpu_s=stop.cpu, mb=stop.mb)
                records.append(r)
                print(json.dumps(r), file=sys.stderr, flush=True)
                if r["cpu_s"] > a.peer_minutes * 60 / 4:
                    stopped.add(solver)
                with open(a.out, "w") as out:
                    json.dump(dict(header, records=records), out, indent=1)
            os.remove(train) if train != train_all else None
    if a.out == os.path.join(RESULTS, "scale.json"):
        plot(records, os.path.join(RESULTS, "scale_time.png"), os.path.join(RESULTS, "scale_accuracy.png"))
    table(records)


if __name__ == "__main__":
    main()
