#!/usr/bin/env python3
"""The README's C quick start compiles as C99 against kmx.h, links against
libkmx and runs from the source root (so the README stays true)."""
import os
import re
import subprocess
import sys
import tempfile

# The headers: include/ and the build's include/ (the generated kmx/kmx_version.h), as an install has both in one.
source_root, include_dir, library_dir, generated_include_dir = sys.argv[1:5]
readme = open(os.path.join(source_root, "README.md")).read()
snippet = re.search(r"```c\n(.*?)```", readme, re.S).group(1)
with tempfile.TemporaryDirectory() as tmp:
    c_file, exe = os.path.join(tmp, "quick.c"), os.path.join(tmp, "quick")
    open(c_file, "w").write(snippet)
    subprocess.run(["cc", "-std=c99", "-Wall", "-Werror", c_file, "-I", include_dir, "-I", generated_include_dir,
                    "-L", library_dir, "-lkmx",
                    "-Wl,-rpath," + library_dir, "-o", exe], check=True)
    # Under tools/sanitize.sh the program (not instrumented, linking an instrumented libkmx) needs the ASan
    # runtime preloaded; the test setup names it in KMX_TEST_PRELOAD.
    env = dict(os.environ)
    if os.environ.get("KMX_TEST_PRELOAD"):
        env["LD_PRELOAD"] = os.environ["KMX_TEST_PRELOAD"]
    out = subprocess.run([exe], cwd=source_root, env=env, capture_output=True, text=True, timeout=300)
    print(out.stdout, out.stderr)
    if out.returncode != 0 or "k-means objective" not in out.stdout:
        sys.exit(1)
