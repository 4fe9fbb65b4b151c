#!/usr/bin/env bash
# Cross-compiles the inference subset (-Dtraining=disabled) for an ARM target
# and runs its tests under qemu (meson's exe_wrapper, from the cross files of
# tools/cross/). Usage: tools/test-arm.sh [TARGET] [BUILD_DIR]
#   arm-linux-gnueabihf (default)  32-bit ARM Linux, qemu-arm: libkmx_infer,
#       its C tests and the edge example; then prints the code size of the
#       subset's object files at -Os for x86-64 and ARM
#   aarch64-linux-gnu              the same for 64-bit ARM Linux, qemu-aarch64
#       (no code size: the pins are for x86-64 and 32-bit ARM)
#   cortex-m4f, cortex-m0plus      bare metal (picolibc, semihosting,
#       qemu-system-arm): the firmware of examples/mcu and the edge example
# BUILD_DIR defaults to build-arm, build-aarch64, build-cortex-m4f or
# build-cortex-m0plus; the results are in BUILD_DIR/meson-logs/testlog.json,
# which tools/test.sh counts.
set -euo pipefail
cd "$(dirname "$0")/.."
target=${1:-arm-linux-gnueabihf}

# What the target needs: its cross files, the programs its build and tests
# run, its default build directory, and whether it is bare metal.
bare_metal=0
case "$target" in
    arm-linux-gnueabihf)
        cross_files=("tools/cross/$target.ini")
        tools=("$target-gcc" "$target-size" qemu-arm)
        default_build=build-arm ;;
    aarch64-linux-gnu)
        cross_files=("tools/cross/$target.ini")
        tools=("$target-gcc" "$target-size" qemu-aarch64)
        default_build=build-aarch64 ;;
    cortex-m4f | cortex-m0plus)
        cross_files=(tools/cross/arm-none-eabi.ini "tools/cross/$target.ini")
        tools=(arm-none-eabi-gcc arm-none-eabi-size qemu-system-arm g++)
        default_build=build-$target
        bare_metal=1 ;;
    *)
        echo "test-arm: unknown target '$target' (arm-linux-gnueabihf, aarch64-linux-gnu, cortex-m4f, cortex-m0plus)"
        exit 2 ;;
esac
build=${2:-$default_build}

missing() { echo "test-arm: $1 is missing (tools/install-deps.sh --cross installs it)"; exit 1; }
for tool in "${tools[@]}"; do
    command -v "$tool" >/dev/null || missing "$tool"
done
if [ $bare_metal = 1 ]; then
    # -print-file-name prints the bare name when gcc finds no such file.
    [ "$(arm-none-eabi-gcc -print-file-name=picolibc.specs)" != picolibc.specs ] || missing picolibc-arm-none-eabi
fi

if [ ! -f "$build/build.ninja" ]; then
    cross_args=()
    for file in "${cross_files[@]}"; do cross_args+=(--cross-file "$file"); done
    meson setup "${cross_args[@]}" -Dtraining=disabled -Dbuildtype=minsize "$build"
fi
status=0
ninja -C "$build"
meson test -C "$build" --print-errorlogs || status=$?
if [ $bare_metal = 1 ]; then
    python3 examples/mcu/check_firmware.py size "$(command -v arm-none-eabi-size)" \
        "$build/examples/mcu/letter_mcu.elf" examples/mcu/firmware_sizes.json "$target" --print
fi

if [ "$target" = arm-linux-gnueabihf ]; then
    # Code size of the inference subset alone, as a device build would compile
    # it (the unit test infer_code_size holds it to its pins).
    python3 tests/infer/check_code_size.py . --print
fi
exit $status
