#!/usr/bin/env python3
"""Compares scenario outputs (README.md's format): doubles to 1e-12
relative, integers exactly.

  check_scenario.py C_REFERENCE                 checks the reference holds every result
  check_scenario.py C_REFERENCE OTHER           compares OTHER with it
  check_scenario.py C_REFERENCE --run CMD ...   runs CMD OUT_FILE (a language's scenario), then compares
"""
import os
import subprocess
import sys
import tempfile

EXPECTED = {"kernel_block": 80, "kernel_block_dense": 12, "kmeans_objective": 1, "kmeans_centers": 26 * 16,
            "kmeans_assignment": 12000, "assign_sqdist_sum": 1, "model_predictions": 500,
            "model_decision_values": 20 * 325, "model_support_vectors": 1, "model_objective": 1,
            "model_reloaded_predictions": 500, "predictor_predictions": 500,
            "predictor_decision_values": 20 * 325, "predictor_bytes": 1, "predictor_reloaded_predictions": 500,
            "approx_rank": 1, "approx_memory_bytes": 1, "approx_relative_error": 1, "approx_matvec": 1000,
            "approx_solve": 1000, "krr_predictions": 26, "krr_task": 1, "krr_lambda": 1}


def read(path):
    results = {}
    for line in open(path):
        name, count, *values = line.split()
        if int(count) != len(values):
            sys.exit(f"{path}: {name} says {count} values, has {len(values)}")
        results[name] = values
    return results


def main():
    reference = read(sys.argv[1])
    for name, count in EXPECTED.items():
        if len(reference.get(name, [])) != count:
            sys.exit(f"{sys.argv[1]}: {name} should have {count} values")
    if len(sys.argv) < 3:
        print(f"{sys.argv[1]}: all {len(EXPECTED)} results present")
        return
    if sys.argv[2] == "--run":
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "scenario.txt")
            subprocess.run(sys.argv[3:] + [out], check=True, timeout=600)
            compare(reference, sys.argv[1], read(out), " ".join(sys.argv[3:]))
        return
    compare(reference, sys.argv[1], read(sys.argv[2]), sys.argv[2])


def compare(reference, reference_name, other, other_name):
    for name, ref_values in reference.items():
        got = other.get(name)
        if got is None or len(got) != len(ref_values):
            sys.exit(f"{other_name}: {name} missing or of the wrong length")
        for i, (r, g) in enumerate(zip(ref_values, got)):
            r, g = float(r), float(g)
            if abs(r - g) > 1e-12 * max(abs(r), 1e-300):
                sys.exit(f"{name}[{i}]: C {r!r} vs {g!r} from {other_name}")
    print(f"{other_name} matches {reference_name}")


main()
