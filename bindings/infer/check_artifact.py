#!/usr/bin/env python3
"""Checks a predictor-only binding's artifact (bindings/infer/README.md).

  check_artifact.py --readelf READELF [--max-bytes N PATH...]
                    [--native MACHINE FILE]...

--max-bytes: the files PATH... (a directory counts every file under it)
  hold at most N bytes together.
--native: FILE is an ELF shared library for MACHINE (x86-64, aarch64) that
  needs libc and libm only (its DT_NEEDED entries); for the build machine's
  own MACHINE, ldd also shows what it loads, which must include no BLIS,
  libFLAME, OpenMP, C++ runtime or libkmx.
The undefined and exported symbols are tests/infer/check_symbols.py's part.
"""
import argparse
import os
import platform
import subprocess
import sys

ELF_MACHINES = {"x86-64": 62, "aarch64": 183}
HOST_MACHINE = {"x86_64": "x86-64", "aarch64": "aarch64"}.get(platform.machine())
ALLOWED_NEEDED = {"libc.so.6", "libm.so.6"}
FORBIDDEN_LOADED = ("blis", "flame", "gomp", "libstdc++", "libkmx.so")


def parse_args():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--readelf", required=True)
    parser.add_argument("--max-bytes", type=int)
    parser.add_argument("--native", nargs=2, action="append", default=[], metavar=("MACHINE", "FILE"))
    parser.add_argument("paths", nargs="*")
    return parser.parse_args()


def total_bytes(paths):
    total = 0
    for path in paths:
        if os.path.isdir(path):
            total += sum(os.path.getsize(os.path.join(root, name))
                         for root, _, names in os.walk(path) for name in names)
        else:
            total += os.path.getsize(path)
    return total


def elf_machine(path):
    with open(path, "rb") as elf:
        header = elf.read(20)
    if header[:4] != b"\x7fELF" or header[5] != 1:
        return None  # not ELF, or not little-endian
    return int.from_bytes(header[18:20], "little")


def needed(readelf, path):
    out = subprocess.run([readelf, "-d", path], check=True, capture_output=True, text=True).stdout
    return [line.split("[", 1)[1].split("]", 1)[0] for line in out.splitlines() if "(NEEDED)" in line]


def check_native(readelf, machine, path):
    """The problems of one native library, as messages."""
    problems = []
    found = elf_machine(path)
    if found != ELF_MACHINES[machine]:
        problems.append(f"ELF machine {found}, not {machine} ({ELF_MACHINES[machine]})")
    libraries = needed(readelf, path)
    extra = sorted(set(libraries) - ALLOWED_NEEDED)
    if extra:
        problems.append(f"needs {extra} besides {sorted(ALLOWED_NEEDED)}")
    loaded = "(ldd: another machine's library)"
    if machine == HOST_MACHINE:
        # Without LD_PRELOAD, which ldd would list too (the sanitizer runs preload libasan and libstdc++).
        env = {name: value for name, value in os.environ.items() if name != "LD_PRELOAD"}
        loaded = subprocess.run(["ldd", path], check=True, capture_output=True, text=True, env=env).stdout
        bad = [line.strip() for line in loaded.splitlines() if any(name in line for name in FORBIDDEN_LOADED)]
        if bad:
            problems.append(f"loads {bad}")
        loaded = "ldd: " + ", ".join(line.split()[0] for line in loaded.splitlines() if line.strip())
    print(f"{path}: {machine}, {os.path.getsize(path)} bytes, NEEDED {libraries}; {loaded}")
    return problems


def main():
    args = parse_args()
    failed = False
    if args.max_bytes is not None:
        size = total_bytes(args.paths)
        print(f"artifact: {size} bytes (limit {args.max_bytes}): {' '.join(args.paths)}")
        if size > args.max_bytes:
            print(f"FAILED: {size} bytes is over the limit of {args.max_bytes}")
            failed = True
    for machine, path in args.native:
        for problem in check_native(args.readelf, machine, path):
            print(f"FAILED: {path}: {problem}")
            failed = True
    print("FAILED" if failed else "ok")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
