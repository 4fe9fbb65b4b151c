#!/usr/bin/env python3
"""Packs the NuGet package Kmx: stages the files the nuspec names in a
temporary folder, then runs `nuget pack` on them.

  pack_nuget.py --nuget NUGET --nuspec NUSPEC --output OUT.nupkg
                --strip STRIP --patchelf PATCHELF
                [--file NAME PATH]... [--native NAME PATH]...

Each --file is copied as NAME. Each --native is a copy stripped of its debug
information and local symbols (strip --strip-unneeded, as kmx.jar's natives)
with the RUNPATH $ORIGIN, so that libkmxcs.so finds libkmx.so.0 in its own
folder (runtimes/RID/native, and the program's folder the package's
Kmx.targets copies both to), not in the build tree. nuget runs with HOME in
the temporary folder: it writes a NuGet.Config there, not in the user's.
"""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile


def parse_args():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    for required in ("--nuget", "--nuspec", "--output", "--strip", "--patchelf"):
        parser.add_argument(required, required=True)
    parser.add_argument("--file", nargs=2, action="append", default=[], metavar=("NAME", "PATH"))
    parser.add_argument("--native", nargs=2, action="append", default=[], metavar=("NAME", "PATH"))
    return parser.parse_args()


def stage(folder, args):
    for name, path in args.file:
        shutil.copyfile(path, os.path.join(folder, name))
    for name, path in args.native:
        target = os.path.join(folder, name)
        subprocess.run([args.strip, "--strip-unneeded", "-o", target, path], check=True)
        subprocess.run([args.patchelf, "--set-rpath", "$ORIGIN", target], check=True)
    shutil.copyfile(args.nuspec, os.path.join(folder, "Kmx.nuspec"))


def main():
    args = parse_args()
    output = os.path.abspath(args.output)
    with tempfile.TemporaryDirectory(dir=os.path.dirname(output)) as folder:
        files, packed = os.path.join(folder, "files"), os.path.join(folder, "packed")
        os.makedirs(files)
        os.makedirs(packed)
        stage(files, args)
        done = subprocess.run([args.nuget, "pack", os.path.join(files, "Kmx.nuspec"), "-BasePath", files,
                               "-OutputDirectory", packed, "-NonInteractive"],
                              env={**os.environ, "HOME": folder}, capture_output=True, text=True)
        if done.returncode != 0:
            sys.exit("pack_nuget: nuget pack failed:\n" + done.stdout + done.stderr)
        (package,) = os.listdir(packed)
        if package != os.path.basename(output):
            sys.exit("pack_nuget: nuget wrote %s, not %s" % (package, os.path.basename(output)))
        shutil.move(os.path.join(packed, package), output)


if __name__ == "__main__":
    main()
