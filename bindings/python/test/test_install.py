"""pip install . into a fresh venv, offline (--no-build-isolation --no-index: Debian's meson-python,
numpy and scikit-learn come from the system site packages), then kmx imported from there, away from
the source and build trees. The wheel's meson build folder lives in the build tree
(bindings/python/wheel-build), so a second run only relinks what changed."""
import os
import subprocess
import sys

import pytest


@pytest.mark.slow
def test_pip_install_into_a_venv(tmp_path):
    source_root, build_root = os.environ["KMX_SOURCE_ROOT"], os.environ["KMX_BUILD_ROOT"]
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", str(venv)], check=True)
    python = str(venv / "bin" / "python")
    builddir = os.path.join(build_root, "bindings", "python", "wheel-build")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    install = subprocess.run([python, "-m", "pip", "install", "--no-build-isolation", "--no-index",
                              "--config-settings", "builddir=" + builddir, source_root],
                             cwd=tmp_path, env=env, capture_output=True, text=True, timeout=3600)
    assert install.returncode == 0, install.stdout[-4000:] + install.stderr[-4000:]
    program = ("import kmx, numpy as np\n"
               "x = np.random.default_rng(0).normal(size=(200, 4)); y = np.where(x[:, 0] > 0, 'yes', 'no')\n"
               "clf = kmx.SVC(C=4.0).fit(x, y)\n"
               "print(kmx.__file__); print(clf.score(x, y)); print(kmx.capi._capi.__file__)\n")
    out = subprocess.run([python, "-c", program], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    package, score, extension = out.stdout.split()
    assert package.startswith(str(venv)) and extension.startswith(str(venv))
    assert float(score) > 0.9
    # The extension stands alone: no libkmx to find, only the module initialiser exported.
    needed = subprocess.run(["readelf", "-d", extension], capture_output=True, text=True, check=True).stdout
    assert "libkmx" not in needed and "libblis" not in needed and "libflame" not in needed
    symbols = subprocess.run(["nm", "-D", "--defined-only", extension], capture_output=True, text=True,
                             check=True).stdout.split()
    assert [s for s in symbols if s.startswith(("PyInit", "kmx_", "bli_", "FLA_"))] == ["PyInit__capi"]
