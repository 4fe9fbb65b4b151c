#!/usr/bin/env bash
# Installs what kmx needs from Debian's package archive; does nothing when
# everything is already there.
# Usage: tools/install-deps.sh [--test | --all] [--bench] [--cross] [--packaging]
#   (none)   the main job's (tools/demo.sh): the compiler, meson, ninja,
#            pkg-config, python3 (meson and examples/mcu's configure), BLIS
#            and libFLAME; libkmx, the kmx program and the C examples build
#            with these alone, the bindings and tests stay off.
#   --test   also what the test suites and the bindings need (tools/test.sh):
#   --all    GoogleTest, the numpy/scipy/scikit-learn and LIBSVM references,
#            SWIG and each binding's toolchain and test framework, the R
#            package's vignette builder, MPI, the 32-bit ARM cross compiler
#            (the unit suite's infer_code_size test compiles for ARM), clang
#            (libFuzzer) and the sanitizer runtimes.
#   --bench  also what only bench/ uses (python3-libsvm, GNU time, matplotlib);
#            implies --test (bench/ compares with its references).
#   --cross  also the toolchains and emulators of tools/test-arm.sh's other
#            targets: aarch64 Linux (qemu-aarch64 is in qemu-user) and bare-metal
#            Cortex-M (picolibc, qemu-system-arm); implies --test.
#   --packaging  also Maven with the plugins Debian packages, offline (the
#            `maven` option, test java_maven; junit5 for the BOM the compiler
#            plugin imports) and nuget on Mono (the `nuget` option, test
#            csharp_nuget); implies --test. tools/test.sh asks for all three.
set -euo pipefail
main_job=(g++ meson ninja-build pkg-config python3 libblis-dev libblis-openmp-dev libflame-dev)
test_suites=(libgtest-dev
          python3-numpy python3-scipy python3-sklearn    # references: the slow suite's,
          libsvm-tools                                   # and LIBSVM's svm-train for the solver's
          python3-dev python3-pytest python3-mesonpy python3-venv patchelf   # the Python binding, its tests, pip install .
          gnuplot-nox                                    # kmx grid --png (as LIBSVM's grid.py)
          help2man                                       # the manual page kmx.1 (from the program's help)
          swig openjdk-17-jdk-headless junit4 mono-devel nunit-console libnunit-cil-dev
          r-base-dev r-cran-testthat r-cran-matrix       # the bindings and their tests (Matrix: sparse input;
          r-cran-rmpi                                    # Rmpi: the R binding's two ranks under mpirun)
          r-cran-knitr r-cran-markdown                   # the R package's vignette (knitr + markdown: no pandoc, no LaTeX)
          devscripts qpdf                                # R CMD check --as-cran: checkbashisms, PDF size checks
          libopenmpi-dev openmpi-bin                     # -Dmpi: the CLI under mpirun, tests/mpi
          gcc-arm-linux-gnueabihf libc6-dev-armhf-cross qemu-user   # the inference subset on ARM
          clang                                                     # libFuzzer targets (tools/fuzz.sh)
          libasan8 libubsan1 libtsan2)                              # the sanitizer runs (tools/sanitize.sh)
packages=("${main_job[@]}")
with_tests=false
for option in "$@"; do
    case "$option" in
        --test|--all) with_tests=true ;;
        --bench) with_tests=true; packages+=(python3-libsvm time python3-matplotlib) ;;
        --cross) with_tests=true
                 packages+=(gcc-aarch64-linux-gnu libc6-dev-arm64-cross
                            gcc-arm-none-eabi picolibc-arm-none-eabi qemu-system-arm) ;;
        --packaging) with_tests=true
                     packages+=(maven libmaven-install-plugin-java libmaven-resources-plugin-java
                                libmaven-compiler-plugin-java libexec-maven-plugin-java junit5 nuget) ;;
        *) echo "install-deps: unknown option $option (--test, --all, --bench, --cross, --packaging)"; exit 2 ;;
    esac
done
if $with_tests; then packages+=("${test_suites[@]}"); fi
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
