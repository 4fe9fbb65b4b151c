#!/usr/bin/env python3
"""The NuGet package Kmx: its layout (lib/TFM/Kmx.dll as built, Kmx.xml, the natives under runtimes/RID/native
finding each other through RUNPATH $ORIGIN, build/TFM/Kmx.targets), then a user's packages.config project
(consumer/) restored from a folder feed with nuget, offline, built with xbuild and run by mono with nothing from
the build tree: its predictions of an exact kernel ridge regression on two rows against the closed form
(bindings/package_consumer.py).

Arguments: NUGET XBUILD MONO NUPKG KMX_DLL PROGRAM_CS CONSUMER_CSPROJ PACKAGES_CONFIG"""
import os
import re
import shutil
import subprocess
import sys
import unittest
import xml.etree.ElementTree as ElementTree
import zipfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "test"))
from clean_env import clean_env  # noqa: E402 (bindings/csharp/test)
from package_consumer import QUERIES, closed_form_krr, package_test_folder, predictions  # noqa: E402 (bindings/)

NUGET, XBUILD, MONO = sys.argv[1:4]
NUPKG, KMX_DLL, PROGRAM_CS, CONSUMER_CSPROJ, PACKAGES_CONFIG = map(os.path.abspath, sys.argv[4:9])
del sys.argv[1:9]
NUSPEC = "{http://schemas.microsoft.com/packaging/2010/07/nuspec.xsd}"
# What NuGet itself adds to a package: the OPC parts.
NUGET_PARTS = re.compile(r"^(_rels/\.rels|\[Content_Types\]\.xml"
                         r"|package/services/metadata/core-properties/\w+\.psmdcp)$")


def dynamic_section(path):
    return subprocess.run(["readelf", "-d", path], capture_output=True, text=True, check=True).stdout


class NugetPackage(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = package_test_folder()
        cls.package = zipfile.ZipFile(NUPKG)
        metadata = ElementTree.fromstring(cls.package.read("Kmx.nuspec")).find(NUSPEC + "metadata")
        cls.version = metadata.find(NUSPEC + "version").text
        (cls.tfm,) = {name.split("/")[1] for name in cls.package.namelist() if name.startswith("lib/")}
        (cls.rid,) = {name.split("/")[1] for name in cls.package.namelist() if name.startswith("runtimes/")}

    @classmethod
    def tearDownClass(cls):
        cls.package.close()
        cls.tmp.cleanup()

    def test_the_package_holds_the_assembly_its_docs_natives_and_targets(self):
        self.assertEqual(os.path.basename(NUPKG), "Kmx.%s.nupkg" % self.version)
        native = "runtimes/%s/native/" % self.rid
        ours = sorted(name for name in self.package.namelist() if not NUGET_PARTS.match(name))
        self.assertEqual(ours, sorted(["Kmx.nuspec", "lib/%s/Kmx.dll" % self.tfm, "lib/%s/Kmx.xml" % self.tfm,
                                       native + "libkmxcs.so", native + "libkmx.so.0",
                                       "build/%s/Kmx.targets" % self.tfm]))
        with open(KMX_DLL, "rb") as built:
            self.assertEqual(self.package.read("lib/%s/Kmx.dll" % self.tfm), built.read())
        docs = ElementTree.fromstring(self.package.read("lib/%s/Kmx.xml" % self.tfm))
        self.assertIn("T:Kmx.Model", [member.get("name") for member in docs.iter("member")])

    def test_the_natives_find_each_other_in_their_folder_and_are_stripped(self):
        folder = os.path.join(self.tmp.name, "natives")
        for name in ("libkmxcs.so", "libkmx.so.0"):
            path = self.package.extract("runtimes/%s/native/%s" % (self.rid, name), folder)
            dynamic = dynamic_section(path)
            self.assertIn("(RUNPATH)            Library runpath: [$ORIGIN]\n", dynamic, name)
            sections = subprocess.run(["readelf", "-S", "-W", path], capture_output=True, text=True).stdout
            self.assertNotIn(".symtab", sections, name)
            self.assertNotIn(".debug_", sections, name)
        self.assertIn("Shared library: [libkmx.so.0]", dynamic_section(
            os.path.join(folder, "runtimes", self.rid, "native", "libkmxcs.so")))

    def consumer(self, name, without_targets=False):
        """consumer/ in a folder of the temporary one, its packages restored by nuget from a feed folder holding
        the package alone (offline; HOME in the temporary folder, where nuget writes its NuGet.Config), built by
        xbuild: the built program's folder. `without_targets`: the project does not import build/TFM/Kmx.targets."""
        feed, project = os.path.join(self.tmp.name, name + "-feed"), os.path.join(self.tmp.name, name)
        os.makedirs(feed)
        os.makedirs(project)
        shutil.copy(NUPKG, feed)
        for source in (PROGRAM_CS, CONSUMER_CSPROJ, PACKAGES_CONFIG):
            shutil.copy(source, project)
        if without_targets:
            csproj = os.path.join(project, os.path.basename(CONSUMER_CSPROJ))
            with open(csproj) as f:
                text, count = re.subn(r"\n *<Import Project=\"packages/[^\"]*/Kmx\.targets\"[^>]*/>", "", f.read())
            self.assertEqual(count, 1)
            with open(csproj, "w") as f:
                f.write(text)
        for command in ([NUGET, "restore", "packages.config", "-PackagesDirectory", "packages", "-Source", feed,
                         "-NonInteractive"],
                        [XBUILD, "/nologo", "/verbosity:minimal", os.path.basename(CONSUMER_CSPROJ)]):
            done = subprocess.run(command, cwd=project, env=clean_env(HOME=self.tmp.name), capture_output=True,
                                  text=True, timeout=120)
            self.assertEqual(done.returncode, 0, done.stdout + done.stderr)
        return os.path.join(project, "bin", "Release")

    def run_consumer(self, program):
        """Consumer.exe run by mono from elsewhere, with PATH alone: nothing from the build tree."""
        return subprocess.run([MONO, os.path.join(program, "Consumer.exe")], cwd=self.tmp.name,
                              env=clean_env(HOME=self.tmp.name), capture_output=True, text=True, timeout=120)

    def test_a_project_restores_it_from_a_folder_builds_and_predicts_the_closed_form(self):
        program = self.consumer("consumer")
        self.assertEqual(sorted(os.listdir(program)), ["Consumer.exe", "Kmx.dll", "libkmx.so.0", "libkmxcs.so"])
        ran = self.run_consumer(program)
        self.assertEqual(ran.returncode, 0, ran.stdout + ran.stderr)
        self.assertIn("kmx %s\n" % self.version, ran.stdout)
        printed = predictions(ran.stdout, ("model",))
        self.assertEqual(len(printed), len(QUERIES), ran.stdout)
        for q, query in enumerate(QUERIES):
            self.assertAlmostEqual(printed[("model", q)], closed_form_krr(query), delta=1e-12)

    def test_a_project_without_the_package_targets_is_told_which_native_is_missing(self):
        program = self.consumer("forgetful", without_targets=True)
        self.assertEqual(sorted(os.listdir(program)), ["Consumer.exe", "Kmx.dll"])
        ran = self.run_consumer(program)
        self.assertNotEqual(ran.returncode, 0, ran.stdout)
        self.assertIn("DllNotFoundException: kmx's native library did not load: libkmxcs.so: cannot open shared "
                      "object file: No such file or directory (and there is no %s)" %
                      os.path.join(program, "libkmxcs.so"), ran.stdout + ran.stderr)

if __name__ == "__main__":
    unittest.main(verbosity=2)
