#!/usr/bin/env python3
"""--memory holds: a kmx command's peak resident memory (getrusage's maxrss of
the child process) stays within the budget plus kmx's documented fixed
overhead (README, "Memory"), for every training method and for prediction,
on one thread and on two; or the command fails before work, naming the bytes.

Usage: test_memory_budget.py KMX_EXE"""
import os
import random
import subprocess
import sys
import tempfile
import unittest

KMX = sys.argv.pop(1)
MB = 1 << 20
# The fixed overhead README.md documents ("Memory"): the executable, its libraries
# and the C++/OpenMP runtimes (9 MB measured), BLIS's packing buffers (a few MB
# per thread) and kmx's small unbudgeted bookkeeping; the largest overshoot
# measured here was 19 MB (dcsvm, one thread, 48 MB budget).
def overhead(threads):
    return 20 * MB + 4 * MB * threads


def write_data(path, rows, cols, seed):
    """Two overlapping Gaussian classes: many support vectors, so the SVM
    solvers fill their kernel caches from the budget."""
    rng = random.Random(seed)
    with open(path, "w") as f:
        for i in range(rows):
            label = 1 if i % 2 else -1
            shift = 0.35 * label
            values = " ".join(f"{j + 1}:{rng.gauss(shift if j < 8 else 0.0, 1.0):.5f}" for j in range(cols))
            f.write(f"{label} {values}\n")


# RSS counts the pages a process touched. meson's MALLOC_PERTURB_ makes glibc
# fill every allocation, touching pages a user's run never touches (e.g. the
# whole of BLIS's packing pool), so the child runs without it, as users do.
CHILD_ENV = {key: value for key, value in os.environ.items() if key != "MALLOC_PERTURB_"}


def instrumented():
    """An ASan build: its shadow memory is no part of kmx's promise."""
    out = subprocess.run(["ldd", KMX], capture_output=True, text=True).stdout
    return "libasan" in out or "libtsan" in out


def peak_rss(args):
    """(exit status, stderr, maxrss bytes) of `kmx args` run as a child."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        child = subprocess.Popen([KMX, *args], stdout=out, stderr=err, env=CHILD_ENV)
        _, status, usage = os.wait4(child.pid, 0)
        err.seek(0)
        return os.waitstatus_to_exitcode(status), err.read().decode(), usage.ru_maxrss * 1024


@unittest.skipIf(instrumented(), "a sanitizer's shadow memory is outside the budget")
class MemoryBudget(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.dir = tempfile.TemporaryDirectory()
        cls.train = os.path.join(cls.dir.name, "train.libsvm")
        cls.test = os.path.join(cls.dir.name, "test.libsvm")
        write_data(cls.train, 6000, 200, 1)  # 9.6 MB as doubles, 9 MB of text
        write_data(cls.test, 3000, 200, 2)

    @classmethod
    def tearDownClass(cls):
        cls.dir.cleanup()

    def within(self, args, budget, threads):
        code, err, peak = peak_rss([*args, "--memory", str(budget), "--threads", str(threads)])
        self.assertEqual(code, 0, err)
        print(f"{args[0]} {' '.join(args[1:3])} threads={threads}: peak {peak / MB:.1f} MB of budget {budget / MB:.0f} MB",
              file=sys.stderr)
        self.assertLessEqual(peak, budget + overhead(threads),
                             f"{' '.join(args)}: peak {peak / MB:.1f} MB, budget {budget / MB:.0f} MB")
        return peak

    def test_training_stays_within_the_budget(self):
        model = os.path.join(self.dir.name, "m.kmx")
        # MEKA reserves its factors and link blocks whole; exact KRR the n x n matrix (275 MiB here)
        budgets = {"meka-krr": 96 * MB, "krr": 320 * MB}
        for method in ("svm", "dcsvm", "dcsvm-early", "falkon", "meka-krr", "nystrom-tron", "krr"):
            for threads in (1, 2):
                with self.subTest(method=method, threads=threads):
                    options = ["-s", method, "-g", "0.005"] + ([] if "krr" in method or method == "falkon" else
                                                               ["-c", "4"])
                    self.within(["train", *options, self.train, model], budgets.get(method, 48 * MB), threads)

    def test_a_cache_grows_with_the_budget_and_stays_within_it(self):
        model = os.path.join(self.dir.name, "m.kmx")
        small = self.within(["train", "-s", "svm", "-g", "0.005", "-c", "4", self.train, model], 32 * MB, 1)
        large = self.within(["train", "-s", "svm", "-g", "0.005", "-c", "4", self.train, model], 160 * MB, 1)
        self.assertGreater(large, small + 32 * MB)  # the budget is used, not just respected

    def test_prediction_stays_within_the_budget(self):
        model = os.path.join(self.dir.name, "p.kmx")
        code, err, _ = peak_rss(["train", "-s", "svm", "-g", "0.005", "-c", "4", self.train, model])
        self.assertEqual(code, 0, err)
        for threads in (1, 2):
            with self.subTest(threads=threads):
                self.within(["predict", model, self.test], 40 * MB, threads)

    def test_a_many_class_model_predicts_in_blocks_within_the_budget(self):
        """400 classes one-vs-one: 79800 decision values a row, 255 MB for 400 rows at once (issue 21: it
        failed under --memory 64M). The rows stream in blocks the budget holds: the same labels under 64 MB
        and under 40 MB (the loaded model, ~3x its file, takes most of it: blocks of a few rows), and under
        64 MB within it."""
        train = os.path.join(self.dir.name, "c400.libsvm")
        test = os.path.join(self.dir.name, "c400_test.libsvm")
        rng = random.Random(5)
        for path, rows in ((train, 800), (test, 400)):
            with open(path, "w") as f:
                for i in range(rows):
                    f.write(f"{i % 400} " + " ".join(f"{j + 1}:{rng.gauss(0, 1):.5f}" for j in range(4)) + "\n")
        model = os.path.join(self.dir.name, "c400.kmx")
        code, err, _ = peak_rss(["train", "-s", "svm", "-g", "0.5", train, model])
        self.assertEqual(code, 0, err)
        labels = {}
        for budget in (64 * MB, 40 * MB):
            out = os.path.join(self.dir.name, f"c400_{budget}.txt")
            if budget == 64 * MB:
                self.within(["predict", "-q", model, test, out], budget, 2)
            else:
                code, err, _ = peak_rss(["predict", "-q", model, test, out, "--memory", str(budget)])
                self.assertEqual(code, 0, err)
            with open(out) as f:
                labels[budget] = f.read().split()
        self.assertEqual(len(labels[64 * MB]), 400)
        self.assertEqual(labels[64 * MB], labels[40 * MB])
        self.assertTrue(all(float(v).is_integer() and 0 <= float(v) < 400 for v in labels[64 * MB]))

    def test_nystrom_tron_keeps_wide_sparse_rows_sparse(self):
        """2000 rows x 10^7 columns, about 50 nonzeros a row (issue 21): the basis stays CSR, so nystrom-tron
        trains within --memory 64M (its basis as dense rows: 224 x 10^7 doubles, 18 GB); k-means centers,
        dense by construction, are refused before work, saying so."""
        data = os.path.join(self.dir.name, "wide.libsvm")
        model = os.path.join(self.dir.name, "wide.kmx")
        rng = random.Random(7)
        with open(data, "w") as f:
            for i in range(2000):
                topic = rng.randrange(2)
                columns = {1 + 200 * topic + rng.randrange(200) for _ in range(20)}
                columns |= {401 + rng.randrange(10 ** 7 - 400) for _ in range(30)} | ({10 ** 7} if i == 0 else set())
                f.write(f"{2 * topic - 1} " + " ".join(f"{j}:{rng.uniform(0.2, 1):.4f}" for j in sorted(columns)) + "\n")
        self.within(["train", "-s", "nystrom-tron", "-g", "0.5", data, model], 64 * MB, 1)
        self.assertLess(os.path.getsize(model), 1 * MB)  # sparse points
        code, err, _ = peak_rss(["train", "-s", "nystrom-tron", "-g", "0.5", "--centers", "kmeans", data, model])
        self.assertEqual(code, 1)
        self.assertIn("k-means centers are dense", err)
        self.assertIn("use the uniform basis", err)

    def test_a_budget_below_the_data_fails_before_work(self):
        code, err, peak = peak_rss(["train", "-s", "dcsvm", "--memory", "4M", self.train,
                                    os.path.join(self.dir.name, "x.kmx")])
        self.assertEqual(code, 1)
        self.assertIn("memory budget", err)
        self.assertLessEqual(peak, 4 * MB + overhead(1) + 10 * MB)  # the text mapped while it is checked


if __name__ == "__main__":
    unittest.main()
