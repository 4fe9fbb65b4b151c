#!/bin/sh
# run_landmarks.sh [BUILD_DIR] [DATA_DIR] [DIGITS16_DIR] — Nystrom landmark
# selection: uniform rows, k-means centroids and leverage-score rows on
# digits (1297 x 64), a make_digits_large set (12000 x 256, generated into
# DIGITS16_DIR, default /tmp/digits16_12k, if absent) and shuttle (43500 x 9),
# m = auto (5 sqrt n), each timed alone and with the Nystrom build on it, with
# the relative error on 2000 rows of G. Run from the source root; one thread:
# the machine is shared, compare ratios.
set -e
build=${1:-build}
data=${2:-../shared/data}
digits16=${3:-/tmp/digits16_12k}
ninja -C "$build" bench/bench_landmarks tools/kmx/kmx >/dev/null
[ -f "$digits16/digits16_bin.train.libsvm" ] ||
    /usr/bin/python3 "$data/make_digits_large.py" --rows 12000 --test-rows 2000 --out "$digits16" --no-csv >/dev/null
lscpu | grep 'Model name'
"$build/tools/kmx/kmx" version -v | grep -E 'cpu|kernel set|dgemm'
echo "| data | n × d | γ | landmarks | m | select s | Nyström build s | total s | rel. error | k-means objective / n |"
echo "|---|---|---:|---|---:|---:|---:|---:|---:|---:|"
run() {
    OMP_WAIT_POLICY=passive "$build/bench/bench_landmarks" --threads 1 --data "$1" --gamma "$2" 2>/dev/null
}
run "$data/digits/digits_bin.train.libsvm" 0.3
run "$digits16/digits16_bin.train.libsvm" 0.03
run "$digits16/digits16_bin.train.libsvm" 0.16
run "$data/shuttle/shuttle_bin.train.libsvm" 100
