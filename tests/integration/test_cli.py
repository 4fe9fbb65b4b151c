#!/usr/bin/env python3
"""The kmx program end to end: exit codes, messages, and numbers checked
against an independent computation in Python."""
import math
import os
import subprocess
import sys
import tempfile
import unittest

KMX = sys.argv.pop(1)
DATA = sys.argv.pop(1)
LETTER = os.path.join(DATA, "letter_bin.train.libsvm")


def run(*args):
    return subprocess.run([KMX, *args], capture_output=True, text=True, timeout=120)


def read_libsvm_rows(path, count, d):
    rows = []
    with open(path) as f:
        for line in f:
            if len(rows) == count:
                break
            x = [0.0] * d
            for item in line.split()[1:]:
                j, v = item.split(":")
                x[int(j) - 1] = float(v)
            rows.append(x)
    return rows


class Cli(unittest.TestCase):
    def test_version(self):
        out = run("version")
        self.assertEqual(out.returncode, 0)
        self.assertRegex(out.stdout, r"^kmx \d+\.\d+\.\d+\n$")

    def test_usage_errors_exit_2(self):
        self.assertEqual(run().returncode, 2)
        self.assertEqual(run("frobnicate").returncode, 2)
        out = run("info", "--bogus", LETTER)
        self.assertEqual(out.returncode, 2)
        self.assertIn("unknown option --bogus", out.stderr)
        self.assertEqual(run("kernel", "-g").returncode, 2)

    def test_info_letter(self):
        out = run("info", LETTER)
        self.assertEqual(out.returncode, 0, out.stderr)
        self.assertIn("rows      12000", out.stdout)
        self.assertIn("columns   16", out.stdout)
        self.assertIn("classes   2", out.stdout)
        self.assertRegex(out.stdout, r"label -1\s+5998 rows")
        self.assertRegex(out.stdout, r"label 1\s+6002 rows")

    def test_info_malformed_file_names_line_and_column(self):
        with tempfile.NamedTemporaryFile("w", suffix=".libsvm", delete=False) as f:
            f.write("1 1:0.5 2:0.25\n-1 1:0.1\n1 1:0.3 2:abc\n")
        try:
            out = run("info", f.name)
            self.assertEqual(out.returncode, 1)
            self.assertIn(f.name + ":3:", out.stderr)
            self.assertIn("kmx: error:", out.stderr)
        finally:
            os.unlink(f.name)

    def test_info_missing_file(self):
        out = run("info", "/nonexistent/file.libsvm")
        self.assertEqual(out.returncode, 1)
        self.assertIn("/nonexistent/file.libsvm", out.stderr)

    def test_kernel_mean_matches_python(self):
        n, gamma = 40, 0.7
        out = run("kernel", "-k", "rbf", "-g", str(gamma), "-n", str(n), "-m", str(n), "--repeat", "1", LETTER)
        self.assertEqual(out.returncode, 0, out.stderr)
        mean = float(out.stdout.split("mean K")[1].split()[0])
        x = read_libsvm_rows(LETTER, n, 16)
        expected = sum(math.exp(-gamma * sum((a - b) ** 2 for a, b in zip(xi, xj))) for xi in x for xj in x) / n**2
        self.assertAlmostEqual(mean, expected, delta=1e-8 * expected)

    def test_kernel_rejects_bad_gamma(self):
        out = run("kernel", "-g", "-1", LETTER)
        self.assertEqual(out.returncode, 1)
        self.assertIn("gamma", out.stderr)


if __name__ == "__main__":
    unittest.main(verbosity=2)
