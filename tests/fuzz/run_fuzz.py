#!/usr/bin/env python3
"""Runs one libFuzzer target for a bounded time on a copy of its seed corpus
with its dictionary; fails on any crash, leak, sanitizer report or timeout and
keeps the input that did it (crash-*, leak-*, timeout-*) in WORK_DIR.

Usage: run_fuzz.py TARGET_EXE CORPUS_DIR DICT SECONDS WORK_DIR
"""
import os
import re
import shutil
import subprocess
import sys

exe, corpus, dictionary, seconds, work = sys.argv[1:6]
exe = os.path.abspath(exe)  # meson passes it relative to the build dir; the fuzzer runs in WORK_DIR
shutil.rmtree(work, ignore_errors=True)
shutil.copytree(corpus, os.path.join(work, "corpus"))
env = dict(os.environ, UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1", ASAN_OPTIONS="detect_leaks=1")
run = subprocess.run([exe, "corpus", "-dict=" + os.path.abspath(dictionary), "-max_total_time=" + seconds,
                      "-timeout=10", "-rss_limit_mb=2048", "-print_final_stats=1"],
                     cwd=work, env=env, capture_output=True, text=True)
runs = re.findall(r"stat::number_of_executed_units:\s*(\d+)", run.stderr)
name = os.path.basename(exe)
if run.returncode != 0:
    print(run.stderr[-6000:])
    print(f"{name}: FAILED after {runs[0] if runs else '?'} runs; the input is in {work}")
    sys.exit(1)
print(f"{name}: {runs[0] if runs else '?'} runs in {seconds} s, 0 crashes, leaks or timeouts")
