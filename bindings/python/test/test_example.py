"""examples/python/compare_sklearn.py runs (on 2000 training rows) and prints every classifier's row."""
import os
import subprocess
import sys

from conftest import EXAMPLE_DATA, SOURCE_ROOT


def test_compare_sklearn_runs():
    script = os.path.join(SOURCE_ROOT, "examples", "python", "compare_sklearn.py")
    out = subprocess.run([sys.executable, script, EXAMPLE_DATA, "--rows", "2000"], capture_output=True, text=True,
                         timeout=600)
    assert out.returncode == 0, out.stderr
    for name in ("sklearn.svm.SVC ", "method=svm ", "method=dcsvm ", "method=dcsvm-early "):
        assert out.stdout.count(name) == 2, out.stdout  # both problems
