#!/usr/bin/env bash
# Installs what kmx needs from Debian's package archive; does nothing when
# everything is already there.
# Usage: tools/install-deps.sh [--bench] [--cross] [--packaging]
#   --bench  also what only bench/ uses (python3-libsvm, GNU time, matplotlib)
#   --cross  also the toolchains and emulators of tools/test-arm.sh's other
#            targets: aarch64 Linux (qemu-aarch64 is in qemu-user) and bare-metal
#            Cortex-M (picolibc, qemu-system-arm); tools/test.sh asks for them.
#            The 32-bit ARM one is always installed: the unit suite's
#            infer_code_size test compiles for ARM.
#   --packaging  also Maven with the plugins Debian packages, offline (the
#            `maven` option, test java_maven; junit5 for the BOM the compiler
#            plugin imports) and nuget on Mono (the `nuget` option, test
#            csharp_nuget); tools/test.sh asks for them.
set -euo pipefail
packages=(g++ meson ninja-build pkg-config python3
          libblis-dev libblis-openmp-dev libflame-dev libgtest-dev
          python3-numpy python3-scipy python3-sklearn    # references: the slow suite's,
          libsvm-tools                                   # and LIBSVM's svm-train for the solver's
          python3-dev python3-pytest python3-mesonpy python3-venv patchelf   # the Python binding, its tests, pip install .
          gnuplot-nox                                    # kmx grid --png (as LIBSVM's grid.py)
          swig openjdk-17-jdk-headless junit4 mono-devel nunit-console libnunit-cil-dev
          r-base-dev r-cran-testthat r-cran-matrix       # the bindings and their tests (Matrix: sparse input)
          libopenmpi-dev openmpi-bin                     # -Dmpi: the CLI under mpirun, tests/mpi
          gcc-arm-linux-gnueabihf libc6-dev-armhf-cross qemu-user   # the inference subset on ARM
          clang                                                     # libFuzzer targets (tools/fuzz.sh)
          libasan8 libubsan1 libtsan2)                              # the sanitizer runs (tools/sanitize.sh)
for option in "$@"; do
    case "$option" in
        --bench) packages+=(python3-libsvm time python3-matplotlib) ;;
        --cross) packages+=(gcc-aarch64-linux-gnu libc6-dev-arm64-cross
                            gcc-arm-none-eabi picolibc-arm-none-eabi qemu-system-arm) ;;
        --packaging) packages+=(maven libmaven-install-plugin-java libmaven-resources-plugin-java
                                libmaven-compiler-plugin-java libexec-maven-plugin-java junit5 nuget) ;;
        *) echo "install-deps: unknown option $option (--bench, --cross, --packaging)"; exit 2 ;;
    esac
done
missing=()
for package in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
if [ ${#missing[@]} -gt 0 ]; then
    sudo=""
    [ "$(id -u)" -ne 0 ] && sudo=sudo
    echo "installing: ${missing[*]}"
    $sudo apt-get update -q
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends "${missing[@]}"
fi
