#!/bin/sh
# check_package.sh TARBALL OUT_DIR [--as-cran]
#
# R CMD check --no-manual on the built package (the PDF manual needs LaTeX);
# fails on any ERROR or WARNING and prints the check's summary (NOTEs
# included). --as-cran adds CRAN's incoming checks, without the parts that
# need the network (this machine reaches only Debian's archive): CRAN's
# package database and URL checks, and the clock check against a time server.
set -u
tarball=$1 out_dir=$2
shift 2
rm -rf "$out_dir"
mkdir -p "$out_dir"
if [ "${1:-}" = "--as-cran" ]; then
    export _R_CHECK_CRAN_INCOMING_REMOTE_=false _R_CHECK_CRAN_INCOMING_USE_ASPELL_=false
    export _R_CHECK_FUTURE_FILE_TIMESTAMPS_=false _R_CHECK_SYSTEM_CLOCK_=false
fi
# An ASan build's tarball has no built vignette (make_package.sh): nothing to check there.
vignettes=""
tar tzf "$tarball" | grep -q '^kmx/inst/doc/' || vignettes=--ignore-vignettes
_R_CHECK_FORCE_SUGGESTS_=false R CMD check --no-manual $vignettes "$@" -o "$out_dir" "$tarball"
log="$out_dir/kmx.Rcheck/00check.log"
[ -f "$log" ] || { echo "check_package.sh: no $log" >&2; exit 1; }
echo "----- R CMD check summary"
grep -E "\.\.\. (NOTE|WARNING|ERROR)$" -A8 "$log"
grep -E "^Status:" "$log"
if grep -Eq "^Status:.*(ERROR|WARNING)" "$log"; then exit 1; fi
