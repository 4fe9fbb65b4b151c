#!/usr/bin/env python3
"""Wrong handle types are caught by the compiler: kmx.h's handles are distinct
incomplete struct types, so passing a kmx_predictor* where a kmx_model* is
expected (or a context where a dataset is) does not compile as C++, and is a
diagnosed incompatible-pointer-types error in C with -Werror. Each snippet is
also compiled with the right handle, so the check fails if the snippet itself
is broken.
Usage: check_handle_types.py INCLUDE_DIR BUILD_INCLUDE_DIR C_COMPILER... -- CXX_COMPILER..."""
import os
import subprocess
import sys
import tempfile

include, build_include = sys.argv[1], sys.argv[2]
split = sys.argv.index("--")
c_compiler, cxx_compiler = sys.argv[3:split], sys.argv[split + 1:]

# (declaration of the wrong handle, the call, the right handle's declaration)
CASES = [
    ("kmx_predictor *h = 0;", "kmx_model_free(h);", "kmx_model *h = 0;"),
    ("kmx_context *h = 0;", "int64_t n; (void)kmx_dataset_rows(&n, h);", "kmx_dataset *h = 0;"),
    ("kmx_kernel *h = 0;", "kmx_solver_free(h);", "kmx_solver *h = 0;"),
    ("kmx_dataset *h = 0;", "double v; (void)kmx_kernel_get_param(&v, h, KMX_PARAM_GAMMA);", "kmx_kernel *h = 0;"),
]


def compiles(compiler, suffix, body):
    with tempfile.TemporaryDirectory() as tmp:
        source = os.path.join(tmp, "snippet" + suffix)
        with open(source, "w") as f:
            f.write('#include <kmx/kmx.h>\nint main(void) {\n' + body + '\nreturn 0;\n}\n')
        result = subprocess.run([*compiler, "-fsyntax-only", "-Werror=incompatible-pointer-types", "-I", include,
                                 "-I", build_include, source], capture_output=True, text=True)
        return result.returncode == 0, result.stderr


failures = 0
for wrong, call, right in CASES:
    for compiler, suffix in ((c_compiler, ".c"), (cxx_compiler, ".cpp")):
        ok, _ = compiles(compiler, suffix, right + "\n" + call)
        if not ok:
            print(f"FAIL: the right handle does not compile ({suffix}): {right} {call}")
            failures += 1
        ok, errors = compiles(compiler, suffix, wrong + "\n" + call)
        if ok:
            print(f"FAIL: a wrong handle compiled ({suffix}): {wrong} {call}")
            failures += 1
        elif "incompatible" not in errors and "cannot convert" not in errors:
            print(f"FAIL: unexpected diagnostic ({suffix}) for {wrong} {call}:\n{errors}")
            failures += 1
print(f"{len(CASES) * 2} wrong-handle calls rejected" if failures == 0 else f"{failures} failures")
sys.exit(1 if failures else 0)
