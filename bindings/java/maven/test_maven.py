#!/usr/bin/env python3
"""`mvn install` of io.kmx:kmx and io.kmx:kmx-infer into a temporary local repository, offline, then a user's
Maven project depending on both (consumer/) compiled and run from that repository alone: its predictions of an
exact kernel ridge regression on two rows, by the model and by kmx-infer's predictor, against the closed form
(bindings/package_consumer.py).

Arguments: MVN SETTINGS VERSION KMX_POM INFER_POM CONSUMER_POM CONSUMER_SOURCES"""
import os
import re
import shutil
import subprocess
import sys
import unittest
import zipfile

from maven_install import maven_command

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
from package_consumer import QUERIES, closed_form_krr, package_test_folder, predictions  # noqa: E402 (bindings/)

MVN, VERSION = sys.argv[1], sys.argv[3]
SETTINGS, KMX_POM, INFER_POM, CONSUMER_POM, CONSUMER_SOURCES = map(os.path.abspath, sys.argv[2:3] + sys.argv[4:8])
del sys.argv[1:8]


def artifact(repo, name):
    return os.path.join(repo, "io", "kmx", name, VERSION, "%s-%s" % (name, VERSION))


class MavenArtifacts(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = package_test_folder()
        cls.repo = os.path.join(cls.tmp.name, "repository")
        for pom in (KMX_POM, INFER_POM):
            done = subprocess.run(maven_command(MVN, SETTINGS, cls.repo) + ["-f", pom, "install"],
                                  capture_output=True, text=True, timeout=300)
            assert done.returncode == 0, done.stdout + done.stderr

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_the_jars_are_installed_as_built_with_their_pom(self):
        for pom, name, native in ((KMX_POM, "kmx", "io/kmx/native/"), (INFER_POM, "kmx-infer", "io/kmx/infer/native/")):
            installed = artifact(self.repo, name)
            with open(installed + ".pom") as got, open(pom) as built:
                written = built.read()
                self.assertEqual(got.read(), written, name)
            jar = re.search(r"<file>\$\{project.basedir\}/([^<]+)</file>", written).group(1)
            with open(installed + ".jar", "rb") as got, open(os.path.join(os.path.dirname(pom), jar), "rb") as built:
                self.assertEqual(got.read(), built.read(), name)
            natives = [entry for entry in zipfile.ZipFile(installed + ".jar").namelist()
                       if entry.startswith(native) and entry.endswith(".so")]
            self.assertTrue(natives, name + ": no native library under " + native)

    def test_mvn_install_without_the_jar_names_it_and_installs_nothing(self):
        # pom.xml alone, as in a build folder configured but not built yet.
        folder, repo = os.path.join(self.tmp.name, "unbuilt"), os.path.join(self.tmp.name, "unbuilt-repository")
        os.makedirs(folder)
        shutil.copy(KMX_POM, folder)
        done = subprocess.run(maven_command(MVN, SETTINGS, repo) + ["install"], cwd=folder, capture_output=True,
                              text=True, timeout=300)
        self.assertNotEqual(done.returncode, 0, done.stdout)
        self.assertIn("The specified file '%s' does not exist" % os.path.join(folder, "kmx.jar"), done.stdout)
        self.assertFalse(os.path.exists(os.path.join(repo, "io", "kmx")))

    def test_a_project_depending_on_them_builds_offline_and_predicts_the_closed_form(self):
        project = os.path.join(self.tmp.name, "consumer")
        shutil.copytree(CONSUMER_SOURCES, os.path.join(project, "src"))
        shutil.copyfile(CONSUMER_POM, os.path.join(project, "pom.xml"))
        # Nothing from the build tree: no library path, a HOME without Maven settings.
        env = {"PATH": os.environ["PATH"], "HOME": self.tmp.name}
        done = subprocess.run(maven_command(MVN, SETTINGS, self.repo) + ["compile", "exec:java"], cwd=project,
                              env=env, capture_output=True, text=True, timeout=300)
        self.assertEqual(done.returncode, 0, done.stdout + done.stderr)
        self.assertIn("kmx %s\n" % VERSION, done.stdout)
        printed = predictions(done.stdout, ("model", "infer"))
        self.assertEqual(len(printed), 2 * len(QUERIES), done.stdout)
        for q, query in enumerate(QUERIES):
            for who in ("model", "infer"):
                self.assertAlmostEqual(printed[(who, q)], closed_form_krr(query), delta=1e-12, msg=who)


if __name__ == "__main__":
    unittest.main(verbosity=2)
