#!/bin/sh
# run_meka.sh [BUILD_DIR] [DATA_DIR] — MEKA against uniform and k-means
# Nystrom at equal memory (relative error, memory, build time), and KRR on
# each (test RMSE on diamonds). Run from the source root; DATA_DIR defaults
# to ../shared/data. One thread: the machine is shared, compare ratios.
set -e
build=${1:-build}
data=${2:-../shared/data}
ninja -C "$build" bench/bench_meka >/dev/null
OMP_WAIT_POLICY=passive "$build/bench/bench_meka" --data "$data" --threads 1 --sample-rows 2000
