#!/bin/sh
# run_meka.sh [BUILD_DIR] [DATA_DIR] [DIGITS16_DIR] — MEKA against uniform and
# k-means Nystrom at equal memory (relative error, memory, build time), KRR
# on each (test RMSE on diamonds), then MEKA's automatic sizes against the
# reference sizes they replace (bench_meka --auto; digits16 rows when
# DIGITS16_DIR holds make_digits_large.py's output). Run from the source
# root; DATA_DIR defaults to ../shared/data. One thread: the machine is
# shared, compare ratios.
set -e
build=${1:-build}
data=${2:-../shared/data}
digits16=${3:-}
ninja -C "$build" bench/bench_meka >/dev/null
OMP_WAIT_POLICY=passive "$build/bench/bench_meka" --data "$data" --threads 1 --sample-rows 2000
echo
if [ -n "$digits16" ]; then
    OMP_WAIT_POLICY=passive "$build/bench/bench_meka" --auto --digits16 "$digits16" --data "$data" --threads 1 \
        --sample-rows 2000
else
    OMP_WAIT_POLICY=passive "$build/bench/bench_meka" --auto --data "$data" --threads 1 --sample-rows 2000
fi
