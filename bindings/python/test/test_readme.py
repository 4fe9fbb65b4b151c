"""The Python snippets of the top README and of bindings/python/README.md run as written (from a
folder whose examples/ is the repository's, so their relative paths hold and what they write stays
out of the source tree)."""
import os
import re
import subprocess
import sys

import pytest

from conftest import SOURCE_ROOT


@pytest.mark.slow
@pytest.mark.parametrize("readme", ["README.md", os.path.join("bindings", "python", "README.md")])
def test_the_readme_snippet_runs(tmp_path, readme):
    text = open(os.path.join(SOURCE_ROOT, readme)).read()
    snippets = re.findall(r"```python\n(.*?)```", text, re.S)
    assert snippets, f"{readme} has no python snippet"
    os.symlink(os.path.join(os.path.abspath(SOURCE_ROOT), "examples"), tmp_path / "examples")
    for snippet in snippets:
        out = subprocess.run([sys.executable, "-c", snippet], cwd=tmp_path, capture_output=True, text=True,
                             timeout=600)
        assert out.returncode == 0, snippet + "\n" + out.stderr
