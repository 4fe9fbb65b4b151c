#!/usr/bin/env python3
"""A C# program run where Kmx.dll's native libraries are missing is told which file: the program, Kmx.dll and
(in one case) libkmxcs.so are copied to a folder from which neither libkmxcs.so's RUNPATH ($ORIGIN/../..) nor
the loader's search reaches libkmx.so.0, and run without LD_LIBRARY_PATH.

Arguments: MONO PROGRAM.exe Kmx.dll libkmxcs.so"""
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

from clean_env import clean_env

MONO, PROGRAM, ASSEMBLY, GLUE = sys.argv[1:5]
del sys.argv[1:5]


def run_from(folder):
    """Runs the copy of PROGRAM in folder with a clean environment; returns (exit code, output)."""
    out = subprocess.run([MONO, os.path.join(folder, os.path.basename(PROGRAM))], cwd=folder,
                         env=clean_env(), capture_output=True, text=True, timeout=120)
    return out.returncode, out.stdout + out.stderr


class MissingNative(unittest.TestCase):
    def setUp(self):
        if os.environ.get("KMX_TEST_PRELOAD"):
            raise unittest.SkipTest("sanitizer build: libkmx needs the ASan runtime preloaded")
        found = subprocess.run(["/sbin/ldconfig", "-p"], capture_output=True, text=True).stdout
        if "libkmx.so.0 " in found:
            raise unittest.SkipTest("libkmx.so.0 is installed where the loader finds it")
        self.tmp = tempfile.TemporaryDirectory()
        # libkmxcs.so's RUNPATH $ORIGIN/../.. points at tmp/a: empty.
        self.folder = os.path.join(self.tmp.name, "a", "b", "c")
        os.makedirs(self.folder)
        for path in (PROGRAM, ASSEMBLY):
            shutil.copy(path, self.folder)

    def tearDown(self):
        self.tmp.cleanup()

    def test_the_program_loads_kmx_in_the_build_tree(self):
        """The control: the program beside the build's Kmx.dll and libkmxcs.so, which finds libkmx.so.0."""
        code, output = run_from(os.path.dirname(os.path.abspath(PROGRAM)))
        self.assertEqual(code, 0, output)
        self.assertRegex(output, r"^kmx \d+\.\d+\.\d+\ngamma\n$")

    def test_a_missing_libkmx_is_named(self):
        shutil.copy(GLUE, self.folder)
        code, output = run_from(self.folder)
        self.assertEqual(code, 3, output)
        lines = output.splitlines()
        self.assertEqual(len(lines), 3, output)
        for line in lines:  # the first use and the later ones alike
            self.assertTrue(line.startswith("System.DllNotFoundException: "), line)
            self.assertIn("libkmx.so.0: cannot open shared object file", line)

    def test_a_missing_libkmxcs_is_named(self):
        code, output = run_from(self.folder)
        self.assertEqual(code, 3, output)
        lines = output.splitlines()
        self.assertEqual(len(lines), 3, output)
        for line in lines:
            self.assertTrue(line.startswith("System.DllNotFoundException: "), line)
            self.assertIn("libkmxcs.so: cannot open shared object file", line)
            self.assertIn(os.path.join(self.folder, "libkmxcs.so"), line)


if __name__ == "__main__":
    unittest.main(verbosity=2)
