#!/usr/bin/env python3
"""`mvn install` of kmx's Maven artifacts: each POM meson wrote beside its jar
(io.kmx:kmx beside kmx.jar, io.kmx:kmx-infer beside kmx-infer.jar) puts that
jar, with the pom, into the local repository. Maven runs offline on Debian's
plugins (maven-settings.xml); run target `maven-install`, test `java_maven`.

  maven_install.py --mvn MVN --settings SETTINGS [--repo DIR] POM...

--repo is the local repository (-Dmaven.repo.local); default ~/.m2/repository.
"""
import argparse
import subprocess
import sys


def maven_command(mvn, settings, repo=None):
    """mvn offline, reading plugins and dependencies from Debian's repository in place (a file: repository,
    which -o alone refuses), quiet and without colours; `repo` is the local repository, None for Maven's."""
    command = [mvn, "-o", "-B", "-q", "-s", settings, "-Daether.offline.protocols=file", "-Dstyle.color=never"]
    return command + (["-Dmaven.repo.local=" + repo] if repo else [])


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mvn", required=True)
    parser.add_argument("--settings", required=True)
    parser.add_argument("--repo")
    parser.add_argument("poms", nargs="+")
    args = parser.parse_args()
    for pom in args.poms:
        done = subprocess.run(maven_command(args.mvn, args.settings, args.repo) + ["-f", pom, "install"])
        if done.returncode != 0:
            sys.exit("maven_install: mvn install -f %s failed (exit %d)" % (pom, done.returncode))


if __name__ == "__main__":
    main()
