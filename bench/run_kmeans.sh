#!/bin/sh
# run_kmeans.sh — kmx k-means beside scikit-learn's, one thread each, on the
# same synthetic data (a fixed-seed Gaussian mixture written once to a temp
# file), for each k: seconds per Lloyd iteration, their ratio, and peak RSS.
#
#   bench/run_kmeans.sh [BUILD_DIR]        (default: build; run from the repo root)
#
# Environment: KS ("10 100"), MAX_ITER (20), ROWS (60000), COLS (784),
# CLUSTERS (10), NOISE (1.0), SEED (0).
set -eu

here=$(cd "$(dirname "$0")" && pwd)
build=${1:-build}
bench_kmeans="$build/bench/bench_kmeans"
python=/usr/bin/python3  # Debian's, with python3-sklearn (not the pyenv one on PATH)
KS=${KS:-"10 100"}
MAX_ITER=${MAX_ITER:-20}
ROWS=${ROWS:-60000}
COLS=${COLS:-784}
CLUSTERS=${CLUSTERS:-10}
NOISE=${NOISE:-1.0}
SEED=${SEED:-0}

[ -x "$bench_kmeans" ] || { echo "no $bench_kmeans: build first (ninja -C $build)" >&2; exit 1; }
export OMP_NUM_THREADS=1 BLIS_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1 OMP_WAIT_POLICY=passive
# scikit-learn's numpy runs the BLIS kernel set kmx runs (bench/peer_blas.py)
for setting in $($python "$here/peer_blas.py" "$build/tools/kmx/kmx"); do export "$setting"; done
$python -c "import sys; sys.path.insert(0, '$here'); import peer_blas; print(peer_blas.describe('$build/tools/kmx/kmx'))"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
data="$tmp/mixture.bin"
$python "$here/kmeans_sklearn.py" --write-data "$data" --rows "$ROWS" --cols "$COLS" --clusters "$CLUSTERS" \
    --noise "$NOISE" --seed "$SEED"
echo "data: $ROWS x $COLS, $CLUSTERS Gaussian clusters (noise $NOISE, seed $SEED); max_iter=$MAX_ITER tol=0, 1 thread"

# field NAME FILE: the value of NAME=... on the RESULT line of FILE.
field() { sed -n "s/^RESULT .*[ ]$1=\([^ ]*\).*/\1/p" "$2"; }
# peak_mb FILE: peak RSS in MB from /usr/bin/time -v output.
peak_mb() { awk -F: '/Maximum resident set size/ { printf "%.0f", $2 / 1024 }' "$1"; }

summary="$tmp/summary"
for k in $KS; do
    /usr/bin/time -v "$bench_kmeans" --data "$data" --k "$k" --max-iter "$MAX_ITER" --seed "$SEED" \
        >"$tmp/kmx.out" 2>"$tmp/kmx.time" || { cat "$tmp/kmx.time" >&2; exit 1; }
    /usr/bin/time -v $python "$here/kmeans_sklearn.py" --data "$data" --k "$k" --max-iter "$MAX_ITER" --seed "$SEED" \
        >"$tmp/sk.out" 2>"$tmp/sk.time" || { cat "$tmp/sk.time" >&2; exit 1; }
    grep -v '^RESULT' "$tmp/kmx.out" "$tmp/sk.out" | sed 's/^[^:]*://'
    kmx_iter=$(field per_iteration "$tmp/kmx.out")
    sk_iter=$(field per_iteration "$tmp/sk.out")
    printf '%5s %12s %12s %9s %8s %8s %10s %10s\n' "$k" "$kmx_iter" "$sk_iter" \
        "$(awk "BEGIN { printf \"%.2f\", $sk_iter / $kmx_iter }")" \
        "$(field iterations "$tmp/kmx.out")" "$(field iterations "$tmp/sk.out")" \
        "$(peak_mb "$tmp/kmx.time")" "$(peak_mb "$tmp/sk.time")" >>"$summary"
done

echo
printf '%5s %12s %12s %9s %8s %8s %10s %10s\n' k "kmx s/iter" "skl s/iter" "skl/kmx" "kmx it" "skl it" \
    "kmx RSS MB" "skl RSS MB"
cat "$summary"
