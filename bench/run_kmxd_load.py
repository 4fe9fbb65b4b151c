#!/usr/bin/env python3
"""Load time of a data file as LIBSVM text and as .kmxd (float64 and float32), cold and warm page cache.

Usage: run_kmxd_load.py [--build build] [--threads T] [--cases text:float64,...] TEXT_FILE WORK_DIR

Makes WORK_DIR/data.kmxd and WORK_DIR/data32.kmxd with `kmx convert`, then, each in a fresh process,
times kmx_dataset_load (ctypes on libkmx) and reads the process's peak RSS. "Cold": the file's pages are
dropped from the page cache first (posix_fadvise DONTNEED, which needs no privileges); "warm": loaded
once before. The .kmxd load verifies every CRC-32 and value, so it reads the whole file either way."""
import argparse
import ctypes
import json
import os
import resource
import subprocess
import sys
import time


def drop_cache(path):
    fd = os.open(path, os.O_RDONLY)
    os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
    os.close(fd)


def load_once(lib_path, path, threads, precision):
    """Runs in a child process: prints {"seconds", "peak_rss_mb", "rows"}."""
    lib = ctypes.CDLL(lib_path)
    ctx = ctypes.c_void_p()
    ds = ctypes.c_void_p()
    assert lib.kmx_context_create(ctypes.byref(ctx)) == 0
    params = f"threads={threads} precision={precision}".encode()
    assert lib.kmx_context_set_params(ctx, params) == 0
    start = time.perf_counter()
    status = lib.kmx_dataset_load(ctypes.byref(ds), ctx, path.encode(), 0)
    seconds = time.perf_counter() - start
    if status != 0:
        lib.kmx_last_error.restype = ctypes.c_char_p
        sys.exit(lib.kmx_last_error().decode())
    rows = ctypes.c_int64()
    lib.kmx_dataset_rows(ctypes.byref(rows), ds)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(json.dumps({"seconds": seconds, "peak_rss_mb": peak, "rows": rows.value}))


def measure(lib_path, path, threads, precision, cold):
    if cold:
        drop_cache(path)
    out = subprocess.run([sys.executable, __file__, "--child", lib_path, path, str(threads), precision],
                         capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "--child":
        load_once(sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5])
        return
    parser = argparse.ArgumentParser()
    parser.add_argument("--build", default="build")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--cases", default="text:float64,text:float32,kmxd:float64,kmxd32:float64",
                        help="FILE:PRECISION pairs; FILE is text, kmxd or kmxd32")
    parser.add_argument("--warm-only", action="store_true")
    parser.add_argument("text")
    parser.add_argument("work")
    args = parser.parse_args()
    kmx = os.path.join(args.build, "tools", "kmx", "kmx")
    lib = os.path.abspath(os.path.join(args.build, "libkmx.so"))
    os.makedirs(args.work, exist_ok=True)
    files = {"text": args.text, "kmxd": os.path.join(args.work, "data.kmxd"),
             "kmxd32": os.path.join(args.work, "data32.kmxd")}
    for name, extra in (("kmxd", []), ("kmxd32", ["--precision", "float32"])):
        if not os.path.exists(files[name]):
            source = files["kmxd"] if name == "kmxd32" else args.text  # floats from the binary: no second parse
            out = subprocess.run([kmx, "convert", "--threads", str(args.threads), *extra, source, files[name]],
                                 capture_output=True, text=True, check=True)
            print(out.stdout.strip())
    cases = [case.split(":") for case in args.cases.split(",")]
    for name, precision in cases:
        path = files[name]
        row = {"file": name, "precision": precision, "bytes": os.path.getsize(path)}
        if not args.warm_only:
            row["cold"] = measure(lib, path, args.threads, precision, True)
        row["warm"] = measure(lib, path, args.threads, precision, False)
        print(json.dumps(row), flush=True)


if __name__ == "__main__":
    main()
