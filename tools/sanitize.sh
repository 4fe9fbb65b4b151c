#!/usr/bin/env bash
# Runs kmx's tests under the sanitizers (called by tools/test.sh after the
# main suites; tests/README.md, "Sanitizers", has the recipe):
#   1. ASan + UBSan (gcc, -Db_sanitize=address,undefined, debugoptimized) in
#      ASAN_DIR: the unit and integration suites (integration holds the C
#      scenario, the examples and the kmx program's tests: every command,
#      usage errors after handles exist) with leak detection, then the Java,
#      C# and R suites with libasan preloaded into their runtimes (no leak
#      detection there: see the 'asanhosts' setup in tests/meson.build).
#   2. TSan (gcc, -Db_sanitize=thread) in TSAN_DIR: tests/unit/capi's
#      concurrency test (8 threads sharing a model and a predictor, training
#      on separate contexts, kmx_context_cancel from another thread).
# Every sanitizer report is written to BUILD/sanitizer-reports/ (log_path) as
# well as failing its test; a report left there fails the run. The 'slow'
# suite is left out. Prints how long each part took.
# Usage: tools/sanitize.sh [ASAN_DIR] [TSAN_DIR]   (defaults: build-asan, build-tsan)
set -euo pipefail
cd "$(dirname "$0")/.."
asan=${1:-build-asan}
tsan=${2:-build-tsan}
status=0
no_bindings=(-Djava=disabled -Dcsharp=disabled -Dr=disabled)

# Runs "$@" and prints how long it took, under the name $1.
timed() {
    local name=$1 start=$SECONDS
    shift
    "$@" || status=1
    echo "sanitize: $name took $((SECONDS - start)) s"
}

# Fails the run if any process left a sanitizer report in $1.
no_reports_in() {
    local reports
    reports=$(find "$1" -type f 2>/dev/null | sort)
    [ -z "$reports" ] && return 0
    echo "sanitize: sanitizer reports in $1:"
    for report in $reports; do
        echo "---- $report"
        head -60 "$report"
    done
    return 1
}

# meson test with setup $1, every report also written under the folder $2
# (the setups append their options to these).
asan_part() {
    local setup=$1 reports
    reports=$(realpath -m "$2")  # log_path must be absolute: tests run in other folders
    shift 2
    rm -rf "$reports" && mkdir -p "$reports"
    ASAN_OPTIONS=log_path=$reports/asan UBSAN_OPTIONS=log_path=$reports/ubsan \
        meson test -C "$asan" --setup="$setup" --print-errorlogs --num-processes 2 "$@"
}

asan_build() {
    [ -f "$asan/build.ninja" ] ||
        meson setup "$asan" --buildtype=debugoptimized -Db_sanitize=address,undefined -Dexamples=true >/dev/null
    ninja -C "$asan"
}

tsan_build() {
    [ -f "$tsan/build.ninja" ] ||
        meson setup "$tsan" --buildtype=debugoptimized -Db_sanitize=thread -Dexamples=false "${no_bindings[@]}" \
            >/dev/null
    ninja -C "$tsan" tests/unit/capi/test_concurrency
}

rm -f "$asan"/meson-logs/testlog-asan*.json "$asan"/meson-logs/testlog-reports.json \
    "$tsan"/meson-logs/testlog-tsan.json
timed "ASan+UBSan build" asan_build
timed "ASan+UBSan unit and integration suites" \
    asan_part asan "$asan/sanitizer-reports/native" --no-rebuild --suite unit --suite integration
timed "ASan+UBSan Java, C# and R suites" \
    asan_part asanhosts "$asan/sanitizer-reports/hosts" --no-rebuild --suite java --suite csharp --suite r
no_reports_in "$asan/sanitizer-reports" || status=1

timed "TSan build (library and concurrency test)" tsan_build
rm -rf "$tsan/sanitizer-reports" && mkdir -p "$tsan/sanitizer-reports"
timed "TSan concurrency test" env TSAN_OPTIONS="log_path=$(realpath -m "$tsan/sanitizer-reports")/tsan" \
    meson test -C "$tsan" --setup=tsan --no-rebuild --print-errorlogs concurrency
no_reports_in "$tsan/sanitizer-reports" || status=1

# The runs' results for tools/test.sh's count: the three meson logs, and one
# line for the reports check (it fails only if a report did not fail its test).
result=OK
no_reports_in "$asan/sanitizer-reports" >/dev/null && no_reports_in "$tsan/sanitizer-reports" >/dev/null || result=FAIL
echo "{\"name\": \"no sanitizer reports\", \"result\": \"$result\"}" >"$asan/meson-logs/testlog-reports.json"
exit $status
