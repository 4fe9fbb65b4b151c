#!/usr/bin/env bash
# Runs kmx's tests under the sanitizers (tools/test.sh calls it after the main
# suites unless KMX_SANITIZE=0; tests/README.md, "Sanitizers", has the recipe
# and the times):
#   1. ASan + UBSan (gcc, -Db_sanitize=address,undefined, -O1 -g1) in
#      ASAN_DIR, building only what the suites below run: the unit and
#      integration suites (integration holds the C scenario, the examples and
#      the kmx program's tests: every command, usage errors after handles
#      exist) with leak detection, then the Java, C# and R suites with libasan
#      (and libstdc++) preloaded into their runtimes (no leak detection there:
#      see the 'asanhosts' setup in tests/meson.build).
#   2. TSan (gcc, -Db_sanitize=thread, -O1 -g1) in TSAN_DIR: the library and
#      tests/unit/capi's concurrency test only (8 threads sharing a model and a
#      predictor, training on separate contexts, kmx_context_cancel from
#      another thread).
# Any report fails its test (halt_on_error). ASan, LSan and TSan also write
# theirs to BUILD/sanitizer-reports/ (log_path); UBSan, whose gcc 12 runtime
# beside ASan's ignores log_path, prints "FILE:LINE:COL: runtime error: ..."
# into the test's output, so the meson logs are searched for that too. A
# report found either way fails the run. The 'slow' suite is left out.
# Prints how long each part took.
# Usage: tools/sanitize.sh [ASAN_DIR] [TSAN_DIR]   (defaults: build-asan, build-tsan)
set -euo pipefail
cd "$(dirname "$0")/.."
asan=${1:-build-asan}
tsan=${2:-build-tsan}
status=0
no_bindings=(-Djava=disabled -Dcsharp=disabled -Dr=disabled -Dpython=disabled)

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

# Fails the run if a test's output in the meson logs $@ holds a UBSan report.
no_ubsan_reports_in() {
    local found
    found=$(grep -hE '^[^ ]+:[0-9]+:[0-9]+: runtime error: ' "$@" 2>/dev/null | sort -u) || true
    [ -z "$found" ] && return 0
    echo "sanitize: UBSan reports in $*:"
    echo "$found"
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

# -O1 -g1: about twice as fast to compile as debugoptimized's -O2 -g, with the
# line tables a report's stack needs (function, file and line).
san_flags=(-Doptimization=1 -Ddebug=false -Dc_args=-g1 -Dcpp_args=-g1)

# The files the tests of suites $2... in build folder $1 depend on (what
# meson test rebuilds before running them): no benchmarks, no 'slow' programs.
suite_targets() {
    python3 - "$@" <<'PY'
import json, os, subprocess, sys
build, suites = sys.argv[1], set(sys.argv[2:])
def intro(what):
    out = subprocess.run(["meson", "introspect", "--" + what, build], check=True, capture_output=True, text=True)
    return json.loads(out.stdout)
files = {target["id"]: target["filename"] for target in intro("targets")}
needed = set()
for test in intro("tests"):
    if any(suite.split(":")[-1] in suites for suite in test["suite"]):
        for target in test["depends"]:
            needed.update(os.path.relpath(f, build) for f in files[target])
print("\n".join(sorted(needed)))
PY
}

asan_build() {
    # No Python package: no suite here runs it, and only the suites' targets
    # are built, so 'meson install --no-rebuild' (csharp_install) would miss
    # its generated files.
    [ -f "$asan/build.ninja" ] ||
        meson setup "$asan" "${san_flags[@]}" -Db_sanitize=address,undefined -Dexamples=true -Dmpi=disabled \
            -Dpython=disabled >/dev/null
    local targets
    ninja -C "$asan" build.ninja >/dev/null  # regenerated first: tests added since the last build are listed
    targets=$(suite_targets "$asan" unit integration java csharp r) || return 1
    # shellcheck disable=SC2086  # one target a word
    ninja -C "$asan" $targets
}

tsan_build() {
    [ -f "$tsan/build.ninja" ] ||
        meson setup "$tsan" "${san_flags[@]}" -Db_sanitize=thread -Dmpi=disabled -Dexamples=false "${no_bindings[@]}" \
            >/dev/null
    ninja -C "$tsan" tests/unit/capi/test_concurrency
}

rm -f "$asan"/meson-logs/testlog-asan*.json "$asan"/meson-logs/testlog-asan*.txt "$asan"/meson-logs/testlog-reports.json \
    "$tsan"/meson-logs/testlog-tsan.json
timed "ASan+UBSan build" asan_build
timed "ASan+UBSan unit and integration suites" \
    asan_part asan "$asan/sanitizer-reports/native" --no-rebuild --suite unit --suite integration
timed "ASan+UBSan Java, C# and R suites" \
    asan_part asanhosts "$asan/sanitizer-reports/hosts" --no-rebuild --suite java --suite csharp --suite r
asan_logs=("$asan/meson-logs/testlog-asan.txt" "$asan/meson-logs/testlog-asanhosts.txt")
no_reports_in "$asan/sanitizer-reports" || status=1
no_ubsan_reports_in "${asan_logs[@]}" || status=1

timed "TSan build (library and concurrency test)" tsan_build
rm -rf "$tsan/sanitizer-reports" && mkdir -p "$tsan/sanitizer-reports"
timed "TSan concurrency test" env TSAN_OPTIONS="log_path=$(realpath -m "$tsan/sanitizer-reports")/tsan" \
    meson test -C "$tsan" --setup=tsan --no-rebuild --print-errorlogs concurrency
no_reports_in "$tsan/sanitizer-reports" || status=1

# The runs' results for tools/test.sh's count: the three meson logs, and one
# line for the reports check (it fails only if a report did not fail its test).
result=OK
{ no_reports_in "$asan/sanitizer-reports" && no_ubsan_reports_in "${asan_logs[@]}" &&
    no_reports_in "$tsan/sanitizer-reports"; } >/dev/null || result=FAIL
echo "{\"name\": \"no sanitizer reports\", \"result\": \"$result\"}" >"$asan/meson-logs/testlog-reports.json"
exit $status
