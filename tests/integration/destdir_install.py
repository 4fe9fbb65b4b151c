"""`meson install` of a build into a temporary destdir, for the tests of what a user installs
(test_install.py, bindings/r/test_source_tarball.py)."""
import os
import subprocess
import tempfile


def install_into_temporary_destdir(meson, build_root):
    """(the TemporaryDirectory, the destdir inside it) after `meson install --destdir`."""
    tmp = tempfile.TemporaryDirectory()
    root = os.path.join(tmp.name, "root")
    out = subprocess.run([meson, "install", "-C", build_root, "--destdir", root, "--no-rebuild", "--quiet"],
                         capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stdout + out.stderr
    return tmp, root


def under(root, prefix, folder):
    """An install folder (absolute, or relative to the prefix) inside the destdir `root`."""
    return os.path.join(root, os.path.join(prefix, folder).lstrip("/"))
