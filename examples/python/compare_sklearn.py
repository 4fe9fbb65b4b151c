"""kmx.SVC against sklearn.svm.SVC on the same data and parameters: accuracy and training/prediction time.

    python3 compare_sklearn.py [DATA_DIR] [--rows N] [--threads T]

DATA_DIR holds examples/data's Letter files (default: the folder beside this script's). Both
classifiers get the same C and gamma. scikit-learn's SVC is LIBSVM: one thread. kmx runs its methods
with --threads threads (default 1, the same as LIBSVM; 0 = every core). Printed: one row per
classifier and problem (two classes, then 26): test accuracy, fit and predict seconds, and the fit's
speed-up over scikit-learn's (its seconds over the row's)."""
import argparse
import os
import time

import numpy as np
from sklearn.datasets import load_svmlight_file
from sklearn.svm import SVC as SklearnSVC

import kmx


def load(folder, name, rows=None):
    x, y = load_svmlight_file(os.path.join(folder, name), n_features=16)
    x = np.ascontiguousarray(x.toarray())
    return (x, y) if rows is None else (x[:rows], y[:rows])


def timed(clf, x, y, xt, yt):
    """Fits clf, then scores it: (accuracy, fit seconds, predict seconds)."""
    start = time.perf_counter()
    clf.fit(x, y)
    fitted = time.perf_counter()
    accuracy = np.mean(clf.predict(xt) == yt)
    return accuracy, fitted - start, time.perf_counter() - fitted


def compare(title, x, y, xt, yt, C, gamma, threads):
    print(f"\n{title}: {len(x)} training rows, {len(xt)} test rows, C={C}, gamma={gamma}")
    print(f"{'classifier':<40} {'accuracy':>8} {'fit s':>7} {'predict s':>9} {'fit speed-up':>12}")
    candidates = [("sklearn.svm.SVC (LIBSVM, 1 thread)", SklearnSVC(C=C, gamma=gamma))]
    for method in ("svm", "dcsvm", "dcsvm-early"):
        candidates.append((f"kmx.SVC method={method} threads={threads}",
                           kmx.SVC(C=C, gamma=gamma, method=method, n_jobs=threads)))
    reference = None
    for name, clf in candidates:
        accuracy, fit_s, predict_s = timed(clf, x, y, xt, yt)
        reference = reference or fit_s
        print(f"{name:<40} {accuracy:>8.4f} {fit_s:>7.2f} {predict_s:>9.2f} {reference / fit_s:>11.1f}x")


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("data_dir", nargs="?", default=os.path.join(here, "..", "data"))
    parser.add_argument("--rows", type=int, default=None, help="training rows (default: all 12000)")
    parser.add_argument("--threads", type=int, default=1, help="kmx's threads (0: every core)")
    args = parser.parse_args()
    print(f"kmx {kmx.version()}, scikit-learn {__import__('sklearn').__version__}, "
          f"{os.cpu_count()} CPUs visible")
    compare("Letter, two classes", *load(args.data_dir, "letter_bin.train.libsvm", args.rows),
            *load(args.data_dir, "letter_bin.test.libsvm"), C=8.0, gamma=2.0, threads=args.threads)
    compare("Letter, 26 classes (one-vs-one)", *load(args.data_dir, "letter_mc.train.libsvm", args.rows),
            *load(args.data_dir, "letter_mc.test.libsvm"), C=8.0, gamma=4.0, threads=args.threads)


if __name__ == "__main__":
    main()
