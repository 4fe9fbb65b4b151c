#!/usr/bin/python3
"""The BLAS settings that give the peers (numpy/scikit-learn) their best BLIS kernels too.

Debian's numpy reaches BLAS through libblas.so.3, which on this system is the shared BLIS 0.9:
on a CPU that BLIS does not recognise it runs the slow generic kernels, while kmx chooses its
kernel set from the CPU's features. For honest ratios the peers run the same kernel set: this
module reads kmx's choice (`kmx version -v`) and returns BLIS_ARCH_TYPE as the number BLIS 0.9
expects (its shared library does not take names). A BLIS_ARCH_TYPE already in the environment
is left alone.

    import peer_blas; os.environ.update(peer_blas.environment("build/tools/kmx/kmx"))
    python3 bench/peer_blas.py build/tools/kmx/kmx      # prints BLIS_ARCH_TYPE=N for a shell's export
"""
import os
import re
import subprocess
import sys

# BLIS 0.9's arch_t numbers (blis.h) for its x86-64 kernel sets.
BLIS_ARCH_NUMBER = {"skx": 0, "knl": 1, "haswell": 3, "sandybridge": 4, "penryn": 5, "zen3": 6, "zen2": 7,
                    "zen": 8, "excavator": 9, "steamroller": 10, "piledriver": 11, "bulldozer": 12, "generic": 25}


def kmx_kernel_set(kmx_program):
    """kmx's kernel set name, e.g. "skx"."""
    out = subprocess.run([kmx_program, "version", "-v"], capture_output=True, text=True, check=True).stdout
    return re.search(r"^blis kernel set: (\S+)", out, re.M).group(1)


def environment(kmx_program):
    """{"BLIS_ARCH_TYPE": "N"} for the peers, or {} if the user set it already."""
    if os.environ.get("BLIS_ARCH_TYPE"):
        return {}
    return {"BLIS_ARCH_TYPE": str(BLIS_ARCH_NUMBER[kmx_kernel_set(kmx_program)])}


def describe(kmx_program):
    """One line for a benchmark's header."""
    name = kmx_kernel_set(kmx_program)
    peer = os.environ.get("BLIS_ARCH_TYPE") or str(BLIS_ARCH_NUMBER[name])
    return f"kmx BLIS kernel set: {name}; peers' BLIS (numpy via libblas.so.3): BLIS_ARCH_TYPE={peer}"


if __name__ == "__main__":
    for key, value in environment(sys.argv[1]).items():
        print(f"{key}={value}")
