#!/usr/bin/env python3
"""`meson install` into a temporary folder, then a C# program built and run against the installed Kmx.dll only:
Kmx.dll, Kmx.xml and libkmxcs.so in <libdir>/mono/kmx, referenced through the installed kmx-sharp.pc, run by
mono with MONO_PATH naming that folder and nothing from the build tree (no LD_LIBRARY_PATH: libkmxcs.so finds
libkmx.so.0 through its RUNPATH).

Arguments: MESON BUILD_ROOT PREFIX LIBDIR MCS MONO"""
import os
import subprocess
import sys
import tempfile
import unittest
import xml.etree.ElementTree as ElementTree

from clean_env import clean_env

MESON, BUILD_ROOT, PREFIX, LIBDIR, MCS, MONO = sys.argv[1:7]
del sys.argv[1:7]

PROGRAM = """using System;
using Kmx;

static class Installed
{
    static int Main()
    {
        Console.WriteLine("assembly " + typeof(Library).Assembly.Location);
        Console.WriteLine("kmx " + Library.Version);
        double[] x = { 0, 0, 0, 1, 1, 0, 1, 1, 5, 5, 5, 6, 6, 5, 6, 6 };
        double[] y = { -1, -1, -1, -1, 1, 1, 1, 1 };
        using (var data = new Dataset(x, 2, y))
        using (var kernel = new Kernel("kernel=rbf gamma=0.5"))
        using (var solver = new Solver("method=svm C=10"))
        using (Model model = solver.Train(null, kernel, data))
            Console.WriteLine("predicted " + string.Join(" ", model.Predict(null, data)));
        return 0;
    }
}
"""


def under(root, folder):
    """An install folder (absolute, or relative to the prefix) inside the destdir `root`."""
    return os.path.join(root, os.path.join(PREFIX, folder).lstrip("/"))


class InstalledAssembly(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        if os.environ.get("KMX_TEST_PRELOAD"):
            raise unittest.SkipTest("sanitizer build: not what a user installs")
        cls.tmp = tempfile.TemporaryDirectory()
        root = os.path.join(cls.tmp.name, "root")
        out = subprocess.run([MESON, "install", "-C", BUILD_ROOT, "--destdir", root, "--no-rebuild", "--quiet"],
                             capture_output=True, text=True, timeout=600)
        assert out.returncode == 0, out.stdout + out.stderr
        cls.prefix, cls.libdir = under(root, "").rstrip("/"), under(root, LIBDIR)
        cls.folder = os.path.join(cls.libdir, "mono", "kmx")
        if not os.path.exists(os.path.join(cls.folder, "Kmx.dll")):
            raise unittest.SkipTest("no Kmx.dll installed: the C# binding is not built")

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_the_assembly_its_docs_and_its_glue_are_installed_together(self):
        self.assertEqual(sorted(os.listdir(self.folder)), ["Kmx.dll", "Kmx.xml", "libkmxcs.so"])
        docs = ElementTree.parse(os.path.join(self.folder, "Kmx.xml")).getroot()
        self.assertEqual(docs.find("assembly/name").text, "Kmx")
        self.assertIn("T:Kmx.Model", [m.get("name") for m in docs.iter("member")])

    def test_the_glue_finds_libkmx_relative_to_itself(self):
        dynamic = subprocess.run(["readelf", "-d", os.path.join(self.folder, "libkmxcs.so")], capture_output=True,
                                 text=True, check=True).stdout
        self.assertIn("[$ORIGIN/../..]", dynamic)
        self.assertTrue(os.path.exists(os.path.join(self.folder, "..", "..", "libkmx.so.0")))

    def test_a_program_runs_against_the_installed_assembly(self):
        libs = subprocess.run(["pkg-config", "--define-variable=prefix=" + self.prefix, "--libs", "kmx-sharp"],
                              env={"PATH": "/usr/bin:/bin", "PKG_CONFIG_PATH": os.path.join(self.libdir, "pkgconfig")},
                              capture_output=True, text=True, check=True).stdout.split()
        self.assertEqual(libs, ["-r:" + os.path.join(self.folder, "Kmx.dll")])
        app = os.path.join(self.tmp.name, "app")
        os.makedirs(app)
        with open(os.path.join(app, "Installed.cs"), "w") as f:
            f.write(PROGRAM)
        built = subprocess.run([MCS, "-out:" + os.path.join(app, "installed.exe"), *libs,
                                os.path.join(app, "Installed.cs")], capture_output=True, text=True)
        self.assertEqual(built.returncode, 0, built.stdout + built.stderr)
        out = subprocess.run([MONO, os.path.join(app, "installed.exe")], cwd=app,
                             env=clean_env(MONO_PATH=self.folder),
                             capture_output=True, text=True, timeout=120)
        self.assertEqual(out.returncode, 0, out.stdout + out.stderr)
        self.assertIn("assembly " + os.path.join(self.folder, "Kmx.dll") + "\n", out.stdout)
        self.assertRegex(out.stdout, r"\nkmx \d+\.\d+\.\d+\n")
        self.assertIn("\npredicted -1 -1 -1 -1 1 1 1 1\n", out.stdout)


if __name__ == "__main__":
    unittest.main(verbosity=2)
