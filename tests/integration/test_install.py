#!/usr/bin/env python3
"""`meson install` into a temporary folder, then what a user runs from there with a clean environment
(no LD_LIBRARY_PATH, no PKG_CONFIG_PATH of the build tree): the kmx program, the README's C quick start
linked against the installed shared library (rpath from pkg-config's libdir) and against libkmx.a
(`-Wl,-Bstatic $(pkg-config --static --libs kmx)`), the C examples (quickstart.c and outliers.c with
kmx.pc; edge_predict.c with kmx_infer.pc and a header the installed `kmx export --c` wrote), and the installed
headers on their own.

Also the manual page kmx.1 (when help2man built it): a subsection per command that `kmx --help` lists.

Arguments: MESON BUILD_ROOT SOURCE_ROOT PREFIX BINDIR LIBDIR INCLUDEDIR MANDIR (the build's options)."""
import os
import re
import subprocess
import sys
import unittest

from destdir_install import install_into_temporary_destdir, under as under_prefix

MESON, BUILD_ROOT, SOURCE_ROOT, PREFIX, BINDIR, LIBDIR, INCLUDEDIR, MANDIR = sys.argv[1:9]
del sys.argv[1:9]


def under(root, folder):
    """An install folder (absolute, or relative to the prefix) inside the destdir `root`."""
    return under_prefix(root, PREFIX, folder)


def clean_environment():
    return {"PATH": "/usr/bin:/bin"}


class Installed(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        if os.environ.get("KMX_TEST_PRELOAD"):
            # tools/sanitize.sh builds only what its suites load, and an instrumented libkmx needs the ASan
            # runtime preloaded (tests/meson.build names it here): not what a user installs.
            raise unittest.SkipTest("sanitizer build")
        cls.tmp, cls.root = install_into_temporary_destdir(MESON, BUILD_ROOT)
        cls.bindir, cls.libdir, cls.includedir = (under(cls.root, f) for f in (BINDIR, LIBDIR, INCLUDEDIR))
        cls.pkg_config = ["pkg-config", "--define-variable=prefix=" + under(cls.root, "")]
        cls.pkg_env = dict(clean_environment(), PKG_CONFIG_PATH=os.path.join(cls.libdir, "pkgconfig"))

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def pkg(self, *args):
        out = subprocess.run(self.pkg_config + list(args), env=self.pkg_env, capture_output=True, text=True,
                             check=True)
        return out.stdout.split()

    def test_the_program_runs(self):
        out = subprocess.run([os.path.join(self.bindir, "kmx"), "version", "-v"], env=clean_environment(),
                             capture_output=True, text=True, timeout=120)
        self.assertEqual(out.returncode, 0, out.stderr)
        self.assertRegex(out.stdout, r"^kmx \d+\.\d+\.\d+")
        self.assertIn("blis kernel set", out.stdout)

    def test_the_manual_page_has_every_command(self):
        if not os.path.exists(os.path.join(BUILD_ROOT, "tools", "kmx", "kmx.1")):
            self.skipTest("built without help2man (-Dman)")
        with open(os.path.join(under(self.root, MANDIR), "man1", "kmx.1")) as f:
            page = f.read()
        listing = subprocess.run([os.path.join(self.bindir, "kmx"), "--help"], env=clean_environment(),
                                 capture_output=True, text=True).stderr
        commands = re.findall(r"^  (\w+)  ", listing.split("commands:")[1], re.M)
        self.assertGreaterEqual(len(commands), 12)
        self.assertEqual(re.findall(r"^\.SS kmx (\w+)$", page, re.M), commands)
        self.assertIn(r"\-g, \-\-gamma VALUE", page)  # train's options, from `kmx help train`
        self.assertIn('\n.TH KMX "1"', page)

    def build_and_run_quick_start(self, link_flags):
        readme = open(os.path.join(SOURCE_ROOT, "README.md")).read()
        snippet = re.search(r"```c\n(.*?)```", readme, re.S).group(1)
        c_file, exe = (os.path.join(self.tmp.name, name) for name in ("quick.c", "quick"))
        open(c_file, "w").write(snippet)
        compile_line = ["cc", "-std=c99", "-Wall", "-Werror", c_file, *self.pkg("--cflags", "kmx"), *link_flags,
                        "-o", exe]
        built = subprocess.run(compile_line, capture_output=True, text=True)
        self.assertEqual(built.returncode, 0, " ".join(compile_line) + "\n" + built.stderr)
        out = subprocess.run([exe], cwd=SOURCE_ROOT, env=clean_environment(), capture_output=True, text=True,
                             timeout=300)
        self.assertEqual(out.returncode, 0, out.stderr)
        self.assertIn("k-means objective", out.stdout)
        return exe

    def test_a_c_program_links_the_shared_library(self):
        libdir = self.pkg("--variable=libdir", "kmx")[0]
        self.build_and_run_quick_start([*self.pkg("--libs", "kmx"), "-Wl,-rpath," + libdir])

    def test_a_c_program_links_the_static_library(self):
        exe = self.build_and_run_quick_start(["-Wl,-Bstatic", *self.pkg("--static", "--libs", "kmx")])
        linked = subprocess.run(["ldd", exe], capture_output=True, text=True).stdout
        self.assertNotIn("libkmx", linked)

    def compile_and_run(self, sources, flags, args=(), cwd=None):
        """Builds sources with flags into the temporary folder and runs the program with a clean environment."""
        exe = os.path.join(self.tmp.name, os.path.splitext(os.path.basename(sources[0]))[0])
        built = subprocess.run(["cc", "-std=c99", "-Wall", "-Werror", *sources, *flags, "-o", exe],
                               capture_output=True, text=True)
        self.assertEqual(built.returncode, 0, built.stderr)
        out = subprocess.run([exe, *args], cwd=cwd or SOURCE_ROOT, env=clean_environment(), capture_output=True,
                             text=True, timeout=300)
        self.assertEqual(out.returncode, 0, out.stdout + out.stderr)
        return out.stdout

    def test_the_c_examples_build_against_the_installed_libraries(self):
        examples = os.path.join(SOURCE_ROOT, "examples")
        libkmx = [*self.pkg("--cflags", "--libs", "kmx"), "-lm", "-Wl,-rpath," + self.pkg("--variable=libdir", "kmx")[0]]
        quick = self.compile_and_run([os.path.join(examples, "c", "quickstart.c")], libkmx,
                                     ["examples/data/letter_mc.train.libsvm", "26"])
        self.assertRegex(quick, r"k-means\s+k=26 .*objective")
        self.compile_and_run([os.path.join(examples, "c", "outliers.c")], libkmx, ["0.05", "98", "90"])
        # The edge example: its predictor exported by the installed kmx, built with kmx_infer.pc, no heap
        # (no_heap.c aborts on any malloc); it fails on a label other than the reference predictor's.
        header = os.path.join(self.tmp.name, "edge_predictor.h")
        exported = subprocess.run([os.path.join(self.bindir, "kmx"), "export", "--c", "--name", "edge_predictor",
                                   os.path.join(examples, "edge", "edge_predictor.kmxp"), header],
                                  env=clean_environment(), capture_output=True, text=True, timeout=60)
        self.assertEqual(exported.returncode, 0, exported.stderr)
        libinfer = [*self.pkg("--cflags", "--libs", "kmx_infer"), "-I", self.tmp.name,
                    "-Wl,-rpath," + self.pkg("--variable=libdir", "kmx_infer")[0],
                    "-Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc,--wrap=free"]
        edge = [os.path.join(examples, "edge", name) for name in ("edge_predict.c", "no_heap.c")]
        self.assertTrue(self.compile_and_run(edge, libinfer).strip())

    def test_the_headers_stand_alone(self):
        c_file = os.path.join(self.tmp.name, "headers.c")
        with open(c_file, "w") as f:
            f.write("#include <kmx/kmx.h>\n#include <kmx/kmx_infer.h>\n#include <kmx/blob_layout.h>\n"
                    "#include <kmx/kmx_version.h>\nint main(void) { return KMX_BLOB_MAGIC_BYTES != 8; }\n")
        out = subprocess.run(["cc", "-std=c99", "-Wall", "-Werror", "-I", self.includedir, c_file, "-o",
                              os.path.join(self.tmp.name, "headers")], capture_output=True, text=True)
        self.assertEqual(out.returncode, 0, out.stderr)


if __name__ == "__main__":
    unittest.main(verbosity=2)
