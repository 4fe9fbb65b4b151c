#!/usr/bin/env python3
"""The R source tarball installs where libkmx is installed: `meson install` into a temporary destdir,
then `R CMD INSTALL` of the tarball into a temporary library with a clean environment whose
PKG_CONFIG_PATH is the destdir's pkgconfig folder (PKG_CONFIG_SYSROOT_DIR puts the destdir before the
installed kmx.pc's paths), not the build tree's kmx-uninstalled.pc; then installed_package.R loads it
from there, trains from formulas and checks predictions against base R.

Arguments: MESON BUILD_ROOT PREFIX LIBDIR TARBALL INSTALLED_PACKAGE_R SANITIZED(true|false)."""
import os
import subprocess
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tests", "integration"))
from destdir_install import install_into_temporary_destdir, under  # noqa: E402

MESON, BUILD_ROOT, PREFIX, LIBDIR, TARBALL, INSTALLED_PACKAGE_R, SANITIZED = sys.argv[1:8]
del sys.argv[1:8]


class SourceTarball(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        if SANITIZED == "true":
            # R loads an instrumented libkmx only with the ASan runtime preloaded: not what a user installs.
            raise unittest.SkipTest("sanitizer build")
        cls.tmp, cls.root = install_into_temporary_destdir(MESON, BUILD_ROOT)
        cls.libdir = under(cls.root, PREFIX, LIBDIR)
        cls.library = os.path.join(cls.tmp.name, "library")
        os.mkdir(cls.library)
        cls.env = {"PATH": "/usr/bin:/bin", "HOME": cls.tmp.name, "TMPDIR": cls.tmp.name, "LANG": "C.UTF-8",
                   "PKG_CONFIG_PATH": os.path.join(cls.libdir, "pkgconfig"), "PKG_CONFIG_SYSROOT_DIR": cls.root}
        cls.install = subprocess.run(["R", "CMD", "INSTALL", "-l", cls.library, TARBALL], env=cls.env,
                                     capture_output=True, text=True, timeout=600)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_installs_against_the_installed_kmx_pc(self):
        output = self.install.stdout + self.install.stderr
        self.assertEqual(self.install.returncode, 0, output)
        self.assertIn("configure: libkmx from pkg-config module kmx\n", output)

    def test_without_libkmx_configure_stops_with_a_clear_message(self):
        nowhere = os.path.join(self.tmp.name, "no-pkgconfig")
        os.makedirs(nowhere, exist_ok=True)
        env = dict(self.env, PKG_CONFIG_PATH=nowhere, PKG_CONFIG_LIBDIR=nowhere)  # not even the system's folders
        library = os.path.join(self.tmp.name, "library-without-libkmx")
        os.makedirs(library, exist_ok=True)
        out = subprocess.run(["R", "CMD", "INSTALL", "-l", library, TARBALL], env=env, capture_output=True, text=True,
                             timeout=300)
        self.assertNotEqual(out.returncode, 0)
        self.assertIn("configure: pkg-config finds neither kmx nor kmx-uninstalled; set PKG_CONFIG_PATH",
                      out.stdout + out.stderr)
        self.assertFalse(os.path.exists(os.path.join(library, "kmx")))

    def test_the_package_links_the_installed_libkmx(self):
        shared_object = os.path.join(self.library, "kmx", "libs", "kmx.so")
        out = subprocess.run(["ldd", shared_object], env={"PATH": "/usr/bin:/bin"}, capture_output=True, text=True)
        self.assertEqual(out.returncode, 0, out.stderr)
        resolved = [line.split("=>")[1].split()[0] for line in out.stdout.splitlines() if "libkmx.so" in line]
        self.assertEqual(resolved, [os.path.join(self.libdir, "libkmx.so.0")], out.stdout)

    def test_formulas_train_and_predict_new_data(self):
        out = subprocess.run(["Rscript", INSTALLED_PACKAGE_R, self.library], env=self.env, capture_output=True,
                             text=True, timeout=300)
        print(out.stdout, end="")
        self.assertEqual(out.returncode, 0, out.stdout + out.stderr)
        self.assertIn("svm from a formula: 40 of 40 new rows classified as drawn", out.stdout)


if __name__ == "__main__":
    unittest.main(verbosity=2)
