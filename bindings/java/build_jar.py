#!/usr/bin/env python3
"""Compiles Java sources with one javac -d call and packs a jar (meson's jar()
cannot compile SWIG's flat -package output: see the toolchain notes, 3a).

  build_jar.py --javac JAVAC --jar JAR --output OUT.jar [--classpath JAR]...
               [--release N] [--native NAME FILE]... [--tree JARDIR DIR]...
               [--main-class CLASS] SOURCES...

Sources not ending in .java (SWIG's C wrapper) are skipped. --release is
javac's (default 17). Each --native library is stored as io/kmx/native/NAME
and listed, in the given order, in io/kmx/native/libraries, which
NativeLoader reads. Each --tree copies the files under DIR to JARDIR.
"""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile

NATIVE_DIR = os.path.join("io", "kmx", "native")


def parse_args():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--javac", required=True)
    parser.add_argument("--jar", required=True)
    parser.add_argument("--output", required=True)
    parser.add_argument("--classpath", action="append", default=[])
    parser.add_argument("--release", default="17")
    parser.add_argument("--native", nargs=2, action="append", default=[], metavar=("NAME", "FILE"))
    parser.add_argument("--tree", nargs=2, action="append", default=[], metavar=("JARDIR", "DIR"))
    parser.add_argument("--main-class")
    parser.add_argument("sources", nargs="+")
    return parser.parse_args()


def add_natives(classes, natives):
    directory = os.path.join(classes, NATIVE_DIR)
    os.makedirs(directory, exist_ok=True)
    for name, path in natives:
        shutil.copyfile(path, os.path.join(directory, name))
    with open(os.path.join(directory, "libraries"), "w") as listing:
        listing.writelines(name + "\n" for name, _ in natives)


def main():
    args = parse_args()
    sources = [s for s in args.sources if s.endswith(".java")]
    with tempfile.TemporaryDirectory(dir=os.path.dirname(os.path.abspath(args.output))) as classes:
        # -options: javac 17 warns that release 8 is obsolete.
        javac = [args.javac, "--release", args.release, "-encoding", "UTF-8", "-Xlint:all,-serial,-options", "-Werror",
                 "-d", classes]
        if args.classpath:
            javac += ["-classpath", os.pathsep.join(args.classpath)]
        subprocess.run(javac + sources, check=True)
        if args.native:
            add_natives(classes, args.native)
        for jar_directory, directory in args.tree:
            shutil.copytree(directory, os.path.join(classes, jar_directory), dirs_exist_ok=True)
        jar = [args.jar, "--create", "--file", args.output]
        if args.main_class:
            jar += ["--main-class", args.main_class]
        subprocess.run(jar + ["-C", classes, "."], check=True)


if __name__ == "__main__":
    try:
        main()
    except subprocess.CalledProcessError as error:
        sys.exit(error.returncode)
