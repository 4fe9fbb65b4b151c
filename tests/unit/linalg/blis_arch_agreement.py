"""The BLIS kernel set kmx chooses, and results that do not depend on it.

Runs `kmx version -v` and blis_arch_probe with BLIS_ARCH_TYPE unset (kmx's
choice from the CPU's features), set to "generic" (BLIS's reference kernels),
by number, and to values that must be ignored; the probe's GEMM, Gaussian
kernel block, Cholesky solve and eigenvalues must agree with the generic
kernels' to 1e-12 relative.

usage: blis_arch_agreement.py KMX_PROGRAM PROBE_PROGRAM
"""
import os
import re
import subprocess
import sys
import unittest

KMX, PROBE = sys.argv[1], sys.argv[2]
KNOWN = {"skx", "knl", "haswell", "sandybridge", "penryn", "zen3", "zen2", "zen", "excavator", "steamroller",
         "piledriver", "bulldozer", "generic"}


def run(program, args, arch):
    env = dict(os.environ)
    env.pop("BLIS_ARCH_TYPE", None)
    if arch is not None:
        env["BLIS_ARCH_TYPE"] = arch
    return subprocess.run([program] + args, env=env, capture_output=True, text=True, check=True, timeout=120).stdout


def kernel_set_line(arch):
    out = run(KMX, ["version", "-v"], arch)
    match = re.search(r"^blis kernel set: (\S+) \(from (.*)\)$", out, re.M)
    assert match, out
    return match.group(1), match.group(2)


def cpu_flags():
    with open("/proc/cpuinfo") as f:
        for line in f:
            if line.startswith("flags"):
                return set(line.split(":", 1)[1].split())
    return set()


def probe_numbers(arch):
    lines = run(PROBE, [], arch).splitlines()
    return lines[0], [float(v) for v in lines[1:] if not v.startswith("#")]


class KernelSetChoice(unittest.TestCase):
    def test_default_follows_the_cpu_flags(self):
        flags = cpu_flags()
        name, origin = kernel_set_line(None)
        self.assertEqual(origin, "cpu features")
        if {"avx512f", "avx512dq", "avx512bw", "avx512vl"} <= flags:
            self.assertEqual(name, "skx")
        elif {"avx2", "fma"} <= flags:
            self.assertIn(name, ("zen3", "haswell"))
        else:
            self.assertEqual(name, "generic")

    def test_user_choice_wins_by_name_and_number(self):
        self.assertEqual(kernel_set_line("generic"), ("generic", "BLIS_ARCH_TYPE"))
        self.assertTrue(run(PROBE, [], "generic").startswith("kernel set: generic (BLIS_ARCH_TYPE)"))
        self.assertEqual(kernel_set_line("5"), ("penryn", "BLIS_ARCH_TYPE"))  # BLIS 0.9's number for penryn

    def test_unusable_user_values_are_ignored_not_fatal(self):
        for value, reason in (("99", "this BLIS has no such kernel set"), ("2", "this BLIS has no such kernel set"),
                              ("zen9", "not a BLIS kernel set name or number")):
            name, origin = kernel_set_line(value)
            self.assertIn(name, KNOWN)
            self.assertEqual(origin, f"cpu features (BLIS_ARCH_TYPE={value} ignored: {reason})")
        if "avx512f" not in cpu_flags():
            name, origin = kernel_set_line("skx")
            self.assertIn("this CPU cannot run that kernel set", origin)


class ResultsAgree(unittest.TestCase):
    def test_every_kernel_set_matches_generic_to_1e12(self):
        _, reference = probe_numbers("generic")
        scale = max(abs(v) for v in reference)
        for arch in (None, "haswell", "zen3", "skx"):
            head, numbers = probe_numbers(arch)
            if arch and f"kernel set: {arch} " not in head:
                continue  # this CPU cannot run it: ignored, as tested above
            with self.subTest(kernel_set=head):
                self.assertEqual(len(numbers), len(reference))
                worst = max(abs(a - b) for a, b in zip(numbers, reference)) / scale
                self.assertLessEqual(worst, 1e-12, head)


if __name__ == "__main__":
    unittest.main(argv=sys.argv[:1], verbosity=2)
