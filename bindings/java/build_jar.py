#!/usr/bin/env python3
"""Compiles Java sources with one javac -d call and packs a jar (meson's jar()
cannot compile SWIG's flat -package output: see the toolchain notes, 3a).

  build_jar.py --javac JAVAC --jar JAR --output OUT.jar [--classpath JAR]...
               [--release N] [--platform OS-ARCH [--strip STRIP] --native NAME FILE...]
               [--tree JARDIR DIR]... [--main-class CLASS] [--version V --module NAME]
               SOURCES...

Sources not ending in .java (SWIG's C wrapper) are skipped. --release is
javac's (default 17). Each --native library is stored as
io/kmx/native/OS-ARCH/NAME (--platform: linux-x86_64, linux-aarch64,
macos-aarch64, windows-x86_64, ... as NativeLoader.platform() names them),
stripped of its debug information and local symbols by STRIP
--strip-unneeded when --strip is given, and listed, in the given order, in
io/kmx/native/OS-ARCH/libraries; io/kmx/native/platforms lists OS-ARCH.
NativeLoader reads both. Each --tree copies the files under DIR to JARDIR.
--version and --module go into the manifest as Implementation-Version and
Automatic-Module-Name (with Implementation-Title the module's name).
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
    parser.add_argument("--platform")
    parser.add_argument("--strip")
    parser.add_argument("--tree", nargs=2, action="append", default=[], metavar=("JARDIR", "DIR"))
    parser.add_argument("--main-class")
    parser.add_argument("--version")
    parser.add_argument("--module")
    parser.add_argument("sources", nargs="+")
    args = parser.parse_args()
    if args.native and not args.platform:
        parser.error("--native needs --platform")
    return args


def add_natives(classes, platform, natives, strip):
    root = os.path.join(classes, NATIVE_DIR)
    directory = os.path.join(root, platform)
    os.makedirs(directory, exist_ok=True)
    for name, path in natives:
        target = os.path.join(directory, name)
        if strip:
            # A stripped copy: the build's own library keeps its symbols for debugging.
            subprocess.run([strip, "--strip-unneeded", "-o", target, path], check=True)
        else:
            shutil.copyfile(path, target)
    with open(os.path.join(directory, "libraries"), "w") as listing:
        listing.writelines(name + "\n" for name, _ in natives)
    with open(os.path.join(root, "platforms"), "w") as listing:
        listing.write(platform + "\n")


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
            add_natives(classes, args.platform, args.native, args.strip)
        for jar_directory, directory in args.tree:
            shutil.copytree(directory, os.path.join(classes, jar_directory), dirs_exist_ok=True)
        jar = [args.jar, "--create", "--file", args.output]
        if args.main_class:
            jar += ["--main-class", args.main_class]
        with tempfile.NamedTemporaryFile("w", suffix=".mf", delete=False) as manifest:
            if args.module:
                manifest.write(f"Automatic-Module-Name: {args.module}\nImplementation-Title: {args.module}\n")
            if args.version:
                manifest.write(f"Implementation-Version: {args.version}\n")
        try:
            subprocess.run(jar + ["--manifest", manifest.name, "-C", classes, "."], check=True)
        finally:
            os.unlink(manifest.name)


if __name__ == "__main__":
    try:
        main()
    except subprocess.CalledProcessError as error:
        sys.exit(error.returncode)
