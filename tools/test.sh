#!/usr/bin/env bash
# Installs everything the tests need (install-deps.sh --test), builds kmx
# and runs every test suite (including 'slow'), the inference-only build and its cross builds under qemu
# (tools/test-arm.sh: 32-bit ARM and aarch64 Linux, and the Cortex-M4F and
# Cortex-M0+ firmware of examples/mcu; install-deps.sh --cross; the Maven
# and NuGet packages' tests: install-deps.sh --packaging), the
# libFuzzer targets for 60 s each under ASan and UBSan (tools/fuzz.sh), then
# the sanitizer runs (tools/sanitize.sh: the unit, integration, Java, C# and R
# suites under ASan+UBSan, the concurrency test under TSan; about 20 minutes
# more on 2 cores, tests/README.md "Sanitizers"; KMX_SANITIZE=0 leaves them
# out), and prints one summary line:
# "N passed, N failed, N skipped".
set -euo pipefail
cd "$(dirname "$0")/.."
bash tools/install-deps.sh --test --cross --packaging
if [ -f build/build.ninja ]; then
    # Perhaps configured by tools/demo.sh (no tests, and the bindings and MPI
    # looked for before their toolchains were installed): tests on, and every
    # 'auto' dependency looked for again.
    meson setup --reconfigure -Dtests=true build
else
    meson setup build --buildtype=release
fi
ninja -C build
status=0
meson test -C build --setup=full --print-errorlogs || status=$?
# The inference subset alone (-Dtraining=disabled: no BLIS, libFLAME or C++),
# natively and cross-compiled for ARM under qemu (TARGET:BUILD_DIR for
# tools/test-arm.sh); their results count too.
cross_builds=(arm-linux-gnueabihf:build-arm aarch64-linux-gnu:build-aarch64
              cortex-m4f:build-cortex-m4f cortex-m0plus:build-cortex-m0plus)
cross_logs=()
for pair in "${cross_builds[@]}"; do cross_logs+=("${pair#*:}/meson-logs/testlog.json"); done
rm -f build-infer-only/meson-logs/testlog.json "${cross_logs[@]}"
[ -f build-infer-only/build.ninja ] || meson setup -Dtraining=disabled build-infer-only || status=1
{ ninja -C build-infer-only && meson test -C build-infer-only --print-errorlogs; } || status=1
for pair in "${cross_builds[@]}"; do
    bash tools/test-arm.sh "${pair%%:*}" "${pair#*:}" || status=1
done
rm -f build-fuzz/meson-logs/testlog.json
bash tools/fuzz.sh 60 build-fuzz || status=1
sanitizer_logs=()
if [ "${KMX_SANITIZE:-1}" != 0 ]; then
    bash tools/sanitize.sh build-asan build-tsan || status=1
    sanitizer_logs=(build-asan/meson-logs/testlog-asan.json build-asan/meson-logs/testlog-asanhosts.json
        build-asan/meson-logs/testlog-reports.json build-tsan/meson-logs/testlog-tsan.json)
fi
python3 - build/meson-logs/testlog-full.json build-infer-only/meson-logs/testlog.json \
    "${cross_logs[@]}" build-fuzz/meson-logs/testlog.json "${sanitizer_logs[@]}" <<'PY'
import json, sys
results = []
for path in sys.argv[1:]:
    try:
        results += [json.loads(line)["result"] for line in open(path) if line.strip()]
    except OSError:
        results.append("ERROR")  # that build never got to its tests
passed = sum(r in ("OK", "EXPECTEDFAIL") for r in results)
skipped = sum(r == "SKIP" for r in results)
print(f"{passed} passed, {len(results) - passed - skipped} failed, {skipped} skipped")
PY
exit $status
