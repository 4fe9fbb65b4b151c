#!/usr/bin/env bash
# Builds the libFuzzer targets of tests/fuzz with clang, ASan and UBSan
# (-Dfuzz=true) in BUILD_DIR and runs the 'fuzz' suite: each target for
# SECONDS on a copy of its seed corpus (tests/fuzz/corpus/<target>) with its
# dictionary. Any crash, leak, sanitizer report or timeout fails its test; the
# input that did it stays in BUILD_DIR/tests/fuzz/work-<target>/.
# Usage: tools/fuzz.sh [SECONDS] [BUILD_DIR]   (defaults: 60, build-fuzz)
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
build=${2:-build-fuzz}
command -v clang++ >/dev/null || { echo "fuzz: clang is missing (tools/install-deps.sh --test installs it)"; exit 1; }
[ -f "$build/build.ninja" ] ||
    CC=clang CXX=clang++ meson setup "$build" -Dfuzz=true -Db_sanitize=address,undefined -Db_lundef=false \
        -Dbuildtype=debug -Doptimization=1 -Dtests=false -Dexamples=false -Djava=disabled -Dcsharp=disabled \
        -Dr=disabled -Dpython=disabled >/dev/null
meson configure "$build" -Dfuzz_seconds="$seconds"
ninja -C "$build"
meson test -C "$build" --suite fuzz --print-errorlogs --verbose
