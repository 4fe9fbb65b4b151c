#!/usr/bin/python3
"""Accuracy vs training time for every kmx method and its peers on one binary data set.

kmx's methods (`kmx train -s METHOD`: svm, dcsvm, dcsvm-early, bka, falkon, nystrom-krr, meka-krr,
nystrom-tron) with their CLI defaults apart from C and gamma (the SVMs and nystrom-tron take C; the
KRR methods take their default lambda, 1e-6), each at --threads 1 and 2, beside LIBSVM's svm-train
(one thread, `-m 1024` cache as bench/run_dcsvm.py), scikit-learn's SVC (C, gamma, cache_size 1024)
and scikit-learn's Nystroem (kmx's default M = min(n, max(100, 5 sqrt n)) landmarks) with
RidgeClassifier (alpha = lambda n, as FALKON's problem) and with LinearSVC (C), one thread each
(OMP_NUM_THREADS=1 and BLIS_NUM_THREADS=1 for numpy). Every solver runs --repeat times, taking
turns; each figure is the median of its runs.

Times: wall and CPU seconds of the whole training command (loading, training, saving the model)
for kmx and LIBSVM; scikit-learn's inside its process (loading and fitting, measured with
perf_counter and process_time; the interpreter's start and imports are not counted). Prediction:
kmx's own µs per row (`kmx predict`, batched), LIBSVM's svm-predict command's wall time per test
row (loading included), scikit-learn's predict per row.

    /usr/bin/python3 bench/run_methods.py [--build build] [--data examples/data] [--name letter_bin]
        [--c 8] [--gamma 16] [--repeat 3] [--out bench/results/methods_letter.json]
        [--png bench/results/methods_letter.png]
    /usr/bin/python3 bench/run_methods.py --plot-only FILE.json PNG   # the picture again

--data DIR holds NAME.train.libsvm and NAME.test.libsvm (binary labels).
"""
import argparse
import json
import math
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import peer_blas  # noqa: E402
import plot_only  # noqa: E402
from run_dcsvm import libsvm, medians, timed  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
SVM_METHODS = ["svm", "dcsvm", "dcsvm-early", "bka", "nystrom-tron"]  # take -c C
KRR_METHODS = ["falkon", "nystrom-krr", "meka-krr"]  # take their default lambda
KMX_THREADS = [1, 2]
LAMBDA = 1e-6  # kmx train's default --lambda, given to scikit-learn's ridge as alpha = lambda n
SKLEARN_MODELS = ["SVC", "Nystroem+Ridge", "Nystroem+LinearSVC"]


def default_centers(n):
    """kmx's default number of Nystrom landmarks / FALKON centers: min(n, max(100, 5 sqrt n))."""
    return min(n, max(100, int(5 * math.sqrt(n))))


def count_rows(path):
    with open(path) as f:
        return sum(1 for line in f if line.strip())


def kmx_run(binary, method, threads, train, test, c, gamma, tmp):
    model = os.path.join(tmp, f"kmx.{method}.{threads}.model")
    cost = ["-c", str(c)] if method in SVM_METHODS else []
    _, train_s, mb, cpu_s = timed([binary, "train", "-s", method, "-g", str(gamma), *cost,
                                   "--threads", str(threads), train, model])
    out, _, _, _ = timed([binary, "predict", "--threads", str(threads), model, test])
    accuracy = float(re.search(r"accuracy = ([\d.]+)%", out).group(1))
    predict_us = float(re.search(r"predict time = ([\d.eE+-]+) us/sample", out).group(1))
    return dict(train_s=train_s, cpu_s=cpu_s, mb=mb, accuracy=accuracy, predict_us=predict_us)


SKLEARN_CODE = """
import json, sys, time
from sklearn.datasets import load_svmlight_file
from sklearn.kernel_approximation import Nystroem
from sklearn.linear_model import RidgeClassifier
from sklearn.pipeline import make_pipeline
from sklearn.svm import SVC, LinearSVC
kind, train, test, c, gamma, lam, centers = sys.argv[1], sys.argv[2], sys.argv[3], *map(float, sys.argv[4:8])
t0, c0 = time.perf_counter(), time.process_time()
x, y = load_svmlight_file(train)
features = lambda: Nystroem(kernel="rbf", gamma=gamma, n_components=int(centers), random_state=0)
model = {"SVC": lambda: SVC(C=c, gamma=gamma, cache_size=1024),
         "Nystroem+Ridge": lambda: make_pipeline(features(), RidgeClassifier(alpha=lam * x.shape[0],
                                                                             fit_intercept=False)),
         "Nystroem+LinearSVC": lambda: make_pipeline(features(), LinearSVC(C=c))}[kind]()
model.fit(x.toarray() if kind != "SVC" else x, y)
train_s, cpu_s = time.perf_counter() - t0, time.process_time() - c0
xt, yt = load_svmlight_file(test, n_features=x.shape[1])
xt = xt.toarray() if kind != "SVC" else xt
t0 = time.perf_counter(); accuracy = 100 * float((model.predict(xt) == yt).mean())
print(json.dumps(dict(train_s=train_s, cpu_s=cpu_s, accuracy=accuracy,
                      predict_us=(time.perf_counter() - t0) / len(yt) * 1e6)))
"""


def sklearn_run(kind, train, test, c, gamma, centers):
    """One scikit-learn model in a child process, one thread; mb is that process's peak RSS."""
    env = dict(os.environ, OMP_NUM_THREADS="1", BLIS_NUM_THREADS="1", OPENBLAS_NUM_THREADS="1")
    out, _, mb, _ = timed(["/usr/bin/python3", "-c", SKLEARN_CODE, kind, train, test, str(c), str(gamma),
                           str(LAMBDA), str(centers)], env=env)
    return dict(json.loads(out.strip().splitlines()[-1]), mb=mb)


def solvers(binary, train, test, c, gamma, tmp):
    """{name: (threads, family, run)}: every solver of the figure, run() -> a record."""
    n = count_rows(train)
    table = {}
    for method in SVM_METHODS + KRR_METHODS:
        for threads in KMX_THREADS:
            table[f"kmx {method} ({threads}t)"] = (threads, "kmx", lambda m=method, t=threads:
                                                   kmx_run(binary, m, t, train, test, c, gamma, tmp))
    table["LIBSVM (1t)"] = (1, "peer", lambda: libsvm(train, test, c, gamma, tmp))
    for kind in SKLEARN_MODELS:
        table[f"sklearn {kind} (1t)"] = (1, "peer", lambda k=kind:
                                         sklearn_run(k, train, test, c, gamma, default_centers(n)))
    return table


def measure(table, repeat):
    """Runs every solver `repeat` times in turns; returns one record per solver with the medians."""
    runs = {name: [] for name in table}
    for round_ in range(repeat):
        for name, (_, _, run) in table.items():
            record = run()
            runs[name].append({key: record[key] for key in ("train_s", "cpu_s", "mb", "accuracy", "predict_us")})
            print(f"round {round_ + 1}: {name}: {json.dumps(runs[name][-1])}", file=sys.stderr, flush=True)
    return [dict(medians(runs[name]), solver=name, threads=threads, family=family,
                 train_s_range=[min(r["train_s"] for r in runs[name]), max(r["train_s"] for r in runs[name])])
            for name, (threads, family, _) in table.items()]


def load_average():
    with open("/proc/loadavg") as f:
        return [float(v) for v in f.read().split()[:3]]


def cpu_model():
    out = subprocess.run(["lscpu"], capture_output=True, text=True).stdout
    return re.search(r"Model name:\s*(.+)", out).group(1).strip()


def method_of(solver):
    """"kmx dcsvm (2t)" -> "kmx dcsvm": one colour per method, the marker tells the threads."""
    return solver.rsplit(" (", 1)[0]


def plot_accuracy_vs_time(result, path):
    """Two panels: test accuracy against wall and against CPU seconds of training (log axes)."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    records = result["records"]
    fig, axes = plt.subplots(1, 2, figsize=(12, 5.4), sharey=True)
    colours = list(plt.get_cmap("tab10").colors) + ["black", "saddlebrown"]
    methods = list(dict.fromkeys(method_of(r["solver"]) for r in records))
    for ax, key, label in ((axes[0], "train_s", "train time, wall s (median of the runs)"),
                           (axes[1], "cpu_s", "train time, CPU s of all threads (median)")):
        for r in records:
            colour = colours[methods.index(method_of(r["solver"])) % len(colours)]
            marker = "s" if r["family"] == "peer" else ("o" if r["threads"] == 1 else "^")
            ax.semilogx(r[key], r["accuracy"], marker, color=colour, ms=8,
                        label=method_of(r["solver"]) if r["threads"] == 1 else None)
        ax.set_xlabel(label)
        ax.grid(True, which="both", alpha=.3)
    axes[0].set_ylabel("test accuracy (%)")
    handles, labels = axes[0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="lower center", ncol=6, fontsize=8)
    fig.suptitle(f"{result['data']} (n = {result['n']}, d = {result['d']}), C = {result['C']:g}, γ = {result['gamma']:g}, "
                 f"λ = {result['lam']:g}: kmx circles 1 thread, triangles 2; peers (squares) 1 thread; "
                 f"load average {result['load_before'][0]:.1f}–{result['load_after'][0]:.1f} on 2 cores", fontsize=9)
    fig.tight_layout(rect=(0, 0.09, 1, 1))
    fig.savefig(path, dpi=100)


def print_table(result):
    print(f"{result['data']}: C = {result['C']:g}, gamma = {result['gamma']:g}; {result['cpu']}; "
          f"{result['blis']}; load average before/after: {result['load_before']} / {result['load_after']}; "
          f"medians of {result['repeat']} runs")
    print("| solver | threads | train s (min–max) | train CPU s | peak MB | accuracy % | predict µs/row |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for r in sorted(result["records"], key=lambda r: r["train_s"]):
        low, high = r["train_s_range"]
        print(f"| {r['solver'].rsplit(' (', 1)[0]} | {r['threads']} | {r['train_s']:.2f} ({low:.2f}–{high:.2f}) | "
              f"{r['cpu_s']:.2f} | {r['mb']:.0f} | {r['accuracy']:.2f} | {r['predict_us']:.2f} |")


def main():
    if plot_only.run_if_asked(plot_accuracy_vs_time, print_table):
        return
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default="build")
    ap.add_argument("--data", default=os.path.join(HERE, "..", "examples", "data"))
    ap.add_argument("--name", default="letter_bin")
    ap.add_argument("--c", type=float, default=8)
    ap.add_argument("--gamma", type=float, default=16)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--out", default=os.path.join(HERE, "results", "methods_letter.json"))
    ap.add_argument("--png", default=os.path.join(HERE, "results", "methods_letter.png"))
    a = ap.parse_args()
    binary = os.path.join(a.build, "tools", "kmx", "kmx")
    os.environ.update(peer_blas.environment(binary), OMP_WAIT_POLICY="passive")
    train = os.path.join(a.data, f"{a.name}.train.libsvm")
    test = os.path.join(a.data, f"{a.name}.test.libsvm")
    d = max(int(m) for m in re.findall(r"(\d+):", open(train).read()))
    result = dict(data=a.name, n=count_rows(train), n_test=count_rows(test), d=d, C=a.c, gamma=a.gamma, lam=LAMBDA,
                  repeat=a.repeat, cpu=cpu_model(), blis=peer_blas.describe(binary), load_before=load_average())
    with tempfile.TemporaryDirectory() as tmp:
        result["records"] = measure(solvers(binary, train, test, a.c, a.gamma, tmp), a.repeat)
    result["load_after"] = load_average()
    with open(a.out, "w") as f:
        json.dump(result, f, indent=1)
    plot_accuracy_vs_time(result, a.png)
    print_table(result)


if __name__ == "__main__":
    main()
