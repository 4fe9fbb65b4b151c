#!/usr/bin/env python3
"""README.md's C# example is examples/csharp/Train.cs word for word, and that program, built by meson
(train_cs.exe), trains, predicts, and loads back a saved model giving the same predictions.

Arguments: README.md Train.cs MONO train_cs.exe TRAIN_FILE TEST_FILE"""
import re
import subprocess
import sys
import unittest

README, EXAMPLE, MONO, PROGRAM, TRAIN, TEST = sys.argv[1:7]
del sys.argv[1:7]


class ReadmeExample(unittest.TestCase):
    def test_the_readme_shows_the_example_file(self):
        blocks = re.findall(r"```csharp\n(.*?)```", open(README).read(), re.S)
        self.assertEqual(len(blocks), 1, "README.md should have one ```csharp block")
        self.assertEqual(blocks[0], open(EXAMPLE).read())

    def test_the_example_trains_predicts_saves_and_loads(self):
        out = subprocess.run([MONO, PROGRAM, TRAIN, TEST], capture_output=True, text=True, timeout=240)
        self.assertEqual(out.returncode, 0, out.stdout + out.stderr)
        accuracy = re.search(r"^(\d+) support vectors, test accuracy (\d+\.\d+) ?%$", out.stdout, re.M)
        self.assertIsNotNone(accuracy, out.stdout)
        self.assertGreater(int(accuracy.group(1)), 0)
        self.assertGreater(float(accuracy.group(2)), 95.0)
        self.assertRegex(out.stdout, r"loaded back: same predictions\n")


if __name__ == "__main__":
    unittest.main(verbosity=2)
