#!/usr/bin/env bash
# Installs what kmx needs, builds it and runs every test suite (including
# 'slow'), then prints one summary line: "N passed, N failed".
set -euo pipefail
cd "$(dirname "$0")/.."
bash tools/install-deps.sh
[ -f build/build.ninja ] || meson setup build --buildtype=release
ninja -C build
status=0
meson test -C build --setup=full --print-errorlogs || status=$?
python3 - build/meson-logs/testlog-full.json <<'PY'
import json, sys
results = [json.loads(line)["result"] for line in open(sys.argv[1]) if line.strip()]
passed = sum(r in ("OK", "EXPECTEDFAIL") for r in results)
skipped = sum(r == "SKIP" for r in results)
print(f"{passed} passed, {len(results) - passed - skipped} failed, {skipped} skipped")
PY
exit $status
