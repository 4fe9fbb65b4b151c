#!/usr/bin/env python3
"""Checks the natives kmx.jar carries (bindings/java/README.md, "Natives").

  check_jar.py --readelf READELF --platform OS-ARCH --libraries A,B,... JAR

The jar must hold its native libraries under io/kmx/native/OS-ARCH/ and
nowhere else: exactly the --libraries, listed in that order in
io/kmx/native/OS-ARCH/libraries, with io/kmx/native/platforms naming
OS-ARCH. Each must be an ELF shared library for ARCH, stripped (no .debug*
or .zdebug* section and no .symtab; its dynamic symbols stay), and
libkmxjni must still export the JNI entry points.
"""
import argparse
import os
import subprocess
import sys
import tempfile
import zipfile

ROOT = "io/kmx/native/"
ELF_MACHINES = {"x86_64": 62, "aarch64": 183}
NATIVE_SUFFIXES = (".so", ".dylib", ".dll", ".jnilib")


def parse_args():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--readelf", required=True)
    parser.add_argument("--platform", required=True)
    parser.add_argument("--libraries", required=True)
    parser.add_argument("jar")
    return parser.parse_args()


def is_native(name):
    base = os.path.basename(name)
    return base.endswith(NATIVE_SUFFIXES) or ".so." in base


def sections(readelf, path):
    """The section names of an ELF file (readelf -S -W)."""
    out = subprocess.run([readelf, "-S", "-W", path], check=True, capture_output=True, text=True).stdout
    names = []
    for line in out.splitlines():
        line = line.strip()
        if line.startswith("[") and "]" in line and not line.startswith("[Nr]"):
            fields = line.split("]", 1)[1].split()
            if fields:
                names.append(fields[0])
    return names


def dynamic_symbols(readelf, path):
    out = subprocess.run([readelf, "--dyn-syms", "-W", path], check=True, capture_output=True, text=True).stdout
    return [line.split()[-1] for line in out.splitlines() if line.strip()[:1].isdigit() and len(line.split()) >= 8]


def check_library(readelf, arch, name, path):
    problems = []
    with open(path, "rb") as elf:
        header = elf.read(20)
    if header[:4] != b"\x7fELF":
        return [f"{name}: not an ELF file"]
    machine = int.from_bytes(header[18:20], "little" if header[5] == 1 else "big")
    if arch in ELF_MACHINES and machine != ELF_MACHINES[arch]:
        problems.append(f"{name}: ELF machine {machine}, not {arch} ({ELF_MACHINES[arch]})")
    names = sections(readelf, path)
    if ".dynsym" not in names or ".text" not in names:
        problems.append(f"{name}: sections {names} lack .dynsym or .text: is it a shared library?")
    debug = [s for s in names if s.startswith((".debug", ".zdebug"))]
    if debug:
        problems.append(f"{name}: not stripped: debug sections {debug}")
    if ".symtab" in names:
        problems.append(f"{name}: not stripped: it has a .symtab")
    if name.startswith("libkmxjni"):
        exported = [s for s in dynamic_symbols(readelf, path) if s.startswith("Java_io_kmx_kmxJNI_")]
        if len(exported) < 50:
            problems.append(f"{name}: exports {len(exported)} JNI entry points, expected the binding's")
    print(f"{name}: ELF machine {machine}, {os.path.getsize(path)} bytes, {len(names)} sections, "
          f"debug sections {debug}, .symtab {'present' if '.symtab' in names else 'absent'}")
    return problems


def main():
    args = parse_args()
    libraries = [name for name in args.libraries.split(",") if name]
    arch = args.platform.split("-", 1)[1]
    folder = ROOT + args.platform + "/"
    problems = []
    with zipfile.ZipFile(args.jar) as jar:
        entries = [info.filename for info in jar.infolist() if not info.filename.endswith("/")]
        natives = sorted(name for name in entries if name.startswith(ROOT))
        expected = sorted([ROOT + "platforms", folder + "libraries"] + [folder + name for name in libraries])
        if natives != expected:
            problems.append(f"entries under {ROOT}: {natives}, expected {expected}")
        stray = [name for name in entries if is_native(name) and not name.startswith(folder)]
        if stray:
            problems.append(f"native libraries outside {folder}: {stray}")
        if ROOT + "platforms" in entries:
            listed = jar.read(ROOT + "platforms").decode().split()
            if listed != [args.platform]:
                problems.append(f"{ROOT}platforms lists {listed}, expected [{args.platform}]")
        if folder + "libraries" in entries:
            listed = jar.read(folder + "libraries").decode().split()
            if listed != libraries:
                problems.append(f"{folder}libraries lists {listed}, expected {libraries} (load order)")
        with tempfile.TemporaryDirectory() as scratch:
            for name in libraries:
                if folder + name not in entries:
                    continue
                path = jar.extract(folder + name, scratch)
                problems += check_library(args.readelf, arch, name, path)
    for problem in problems:
        print("FAILED: " + problem)
    print("FAILED" if problems else "ok")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
