#!/usr/bin/env python3
"""The code size of the inference subset (lib/infer/*.c compiled alone at -Os,
as a device build would), for x86-64 and 32-bit ARM (Thumb-2), against the
pins in code_sizes.json: fails when either grows by more than 3%, notes when
one shrank by more than 3% (lower the pin then).

Usage: check_code_size.py SOURCE_ROOT [--print]
  --print  only print the sizes (tools/test-arm.sh uses it), never fail.
To update a pin: run with --print and write the totals into code_sizes.json.
"""
import glob
import json
import os
import shutil
import subprocess
import sys
import tempfile

TARGETS = {  # name: (compiler, size tool)
    "x86-64": ("gcc", "size"),
    "arm": ("arm-linux-gnueabihf-gcc", "arm-linux-gnueabihf-size"),
}
GROWTH_ALLOWED = 0.03


def object_sizes(root, compiler, size_tool):
    """{object: text + data bytes} of lib/infer/*.c at -Os."""
    sizes = {}
    with tempfile.TemporaryDirectory() as objects:
        for source in sorted(glob.glob(os.path.join(root, "lib", "infer", "*.c"))):
            obj = os.path.join(objects, os.path.basename(source)[:-2] + ".o")
            subprocess.run([compiler, "-std=c99", "-Os", "-I", os.path.join(root, "include"),
                            "-I", os.path.join(root, "lib"), "-c", source, "-o", obj], check=True)
            out = subprocess.run([size_tool, obj], check=True, capture_output=True, text=True).stdout
            text, data = out.splitlines()[1].split()[:2]
            sizes[os.path.basename(obj)] = int(text) + int(data)
    return sizes


def main():
    root = sys.argv[1]
    print_only = "--print" in sys.argv[2:]
    pins = json.load(open(os.path.join(root, "tests", "infer", "code_sizes.json")))["text_plus_data_bytes"]
    failed = False
    for target, (compiler, size_tool) in TARGETS.items():
        missing = [tool for tool in (compiler, size_tool) if not shutil.which(tool)]
        if missing:
            print(f"{target}: {', '.join(missing)} missing (tools/install-deps.sh --test installs them)")
            failed = True
            continue
        sizes = object_sizes(root, compiler, size_tool)
        total = sum(sizes.values())
        detail = ", ".join(f"{name} {size}" for name, size in sizes.items())
        print(f"kmx_infer code size, {target}, -Os: {total} bytes (text + data; {detail}); pin {pins[target]}")
        if print_only:
            continue
        if total > pins[target] * (1 + GROWTH_ALLOWED):
            print(f"  FAIL: {target} grew {100.0 * (total / pins[target] - 1):.1f}% over its pin (3% allowed)")
            failed = True
        elif total < pins[target] * (1 - GROWTH_ALLOWED):
            print(f"  note: {target} shrank {100.0 * (1 - total / pins[target]):.1f}%: lower its pin")
    return 1 if failed and not print_only else 0


if __name__ == "__main__":
    sys.exit(main())
