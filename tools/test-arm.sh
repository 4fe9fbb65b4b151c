#!/usr/bin/env bash
# Cross-compiles the inference subset (-Dtraining=disabled: libkmx_infer,
# its C tests, the edge example) for 32-bit ARM with Debian's
# gcc-arm-linux-gnueabihf, runs the tests under qemu-arm (meson's
# exe_wrapper, tools/cross/arm-linux-gnueabihf.ini), then prints the code
# size of the subset's object files at -Os for x86-64 and ARM.
# Usage: tools/test-arm.sh [BUILD_DIR]   (default build-arm; results in
# BUILD_DIR/meson-logs/testlog.json, which tools/test.sh counts).
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build-arm}
for tool in arm-linux-gnueabihf-gcc arm-linux-gnueabihf-size qemu-arm; do
    command -v "$tool" >/dev/null || { echo "test-arm: $tool is missing (tools/install-deps.sh installs it)"; exit 1; }
done
[ -f "$build/build.ninja" ] ||
    meson setup --cross-file tools/cross/arm-linux-gnueabihf.ini -Dtraining=disabled -Dbuildtype=minsize "$build"
ninja -C "$build"
status=0
meson test -C "$build" --print-errorlogs || status=$?

# Code size of the inference subset alone, as a device build would compile it
# (the unit test infer_code_size holds it to its pins).
python3 tests/infer/check_code_size.py . --print
exit $status
