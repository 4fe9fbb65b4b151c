#!/bin/sh
# check_package.sh TARBALL OUT_DIR
#
# R CMD check --no-manual on the built package; fails on any ERROR or WARNING
# and prints the check's summary (NOTEs included).
set -u
tarball=$1 out_dir=$2
rm -rf "$out_dir"
mkdir -p "$out_dir"
_R_CHECK_FORCE_SUGGESTS_=false R CMD check --no-manual -o "$out_dir" "$tarball"
log="$out_dir/kmx.Rcheck/00check.log"
[ -f "$log" ] || { echo "check_package.sh: no $log" >&2; exit 1; }
echo "----- R CMD check summary"
grep -E "\.\.\. (NOTE|WARNING|ERROR)$" -A8 "$log"
grep -E "^Status:" "$log"
if grep -Eq "^Status:.*(ERROR|WARNING)" "$log"; then exit 1; fi
