#!/usr/bin/env python3
"""Builds one shared library from C sources for several platforms, into a
directory tree, with one recipe for all of them: the natives the
predictor-only bindings ship (bindings/infer/README.md).

  build_native.py --output DIR --name LIBNAME [--depfile FILE]
                  [--export GLOB]... [--target SUBDIR COMPILER]...
                  [-I DIR]... SOURCES...

Each --target writes DIR/SUBDIR/LIBNAME. COMPILER is a meson cross file
(*.ini, whose [binaries] c entry names the compiler, e.g.
tools/cross/aarch64-linux-gnu.ini) or a compiler command (the build
machine's). Every platform gets the same flags: C99, size-optimised,
hidden visibility (only JNIEXPORT / KMX_INFER_API names are exported),
unused sections dropped, stripped, linked against libc and libm only. They
do not follow the meson build's buildtype or sanitizers: what is built here
is what ships. --export keeps only the names matching GLOB exported (a
version script; by default, every name the sources mark visible). --depfile
writes the headers the sources include, for ninja.
"""
import argparse
import ast
import configparser
import os
import shlex
import subprocess
import sys
import tempfile

CFLAGS = ["-std=c99", "-Os", "-fPIC", "-fvisibility=hidden", "-ffunction-sections", "-fdata-sections",
          "-fno-stack-protector", "-Wall", "-Wextra", "-Wpedantic", "-DKMX_INFER_BUILDING_LIBRARY"]
LDFLAGS = ["-shared", "-s", "-Wl,--gc-sections", "-Wl,-z,noexecstack", "-Wl,--as-needed"]
LIBS = ["-lm"]


def parse_args():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--output", required=True)
    parser.add_argument("--name", required=True)
    parser.add_argument("--depfile")
    parser.add_argument("--export", action="append", default=[], metavar="GLOB")
    parser.add_argument("--target", nargs=2, action="append", required=True, metavar=("SUBDIR", "COMPILER"))
    parser.add_argument("-I", dest="include", action="append", default=[])
    parser.add_argument("sources", nargs="+")
    return parser.parse_args()


def compiler_command(spec):
    """The compiler of a meson cross file, or the command given."""
    if not spec.endswith(".ini"):
        return shlex.split(spec)
    config = configparser.ConfigParser()
    config.read(spec)
    value = ast.literal_eval(config["binaries"]["c"])
    return [value] if isinstance(value, str) else list(value)


def headers(compiler, flags, sources):
    """Every file the sources include (gcc -MM), for the depfile."""
    out = subprocess.run(compiler + flags + ["-MM"] + sources, check=True, capture_output=True, text=True).stdout
    files = set()
    for word in out.replace("\\\n", " ").split():
        if not word.endswith(":"):
            files.add(os.path.abspath(word))
    return sorted(files)


def build(args, flags, ldflags):
    for subdir, spec in args.target:
        directory = os.path.join(args.output, subdir)
        os.makedirs(directory, exist_ok=True)
        subprocess.run(compiler_command(spec) + flags + ldflags + ["-o", os.path.join(directory, args.name)]
                       + args.sources + LIBS, check=True)


def main():
    args = parse_args()
    flags = CFLAGS + ["-I" + directory for directory in args.include]
    ldflags = LDFLAGS + ["-Wl,-soname," + args.name]
    if args.export:
        with tempfile.NamedTemporaryFile("w", suffix=".map") as script:
            script.write("{ global: " + " ".join(glob + ";" for glob in args.export) + " local: *; };\n")
            script.flush()
            build(args, flags, ldflags + ["-Wl,--version-script," + script.name])
    else:
        build(args, flags, ldflags)
    # The output is a directory: ninja compares its time with the inputs'.
    os.utime(args.output)
    if args.depfile:
        with open(args.depfile, "w") as depfile:
            depfile.write(args.output.replace(" ", "\\ ") + ": " +
                          " ".join(path.replace(" ", "\\ ") for path in
                                   headers(compiler_command(args.target[0][1]), flags, args.sources)) + "\n")


if __name__ == "__main__":
    try:
        main()
    except subprocess.CalledProcessError as error:
        sys.exit(error.returncode)
