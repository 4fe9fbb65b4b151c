#!/bin/sh
# make_package.sh PKG_DIR WRAP_C WRAP_R TARBALL LIBRARY
#
# Assembles the R package next to TARBALL from PKG_DIR (the hand-written
# sources) and the SWIG output (WRAP_C -> src/kmx_wrap_r.c, WRAP_R ->
# R/swig_kmx.R), builds TARBALL with R CMD build, and installs it into the
# library directory LIBRARY with R CMD INSTALL -l. configure finds libkmx
# through pkg-config (PKG_CONFIG_PATH).
set -eu
pkg_dir=$1 wrap_c=$2 wrap_r=$3 tarball=$4 library=$5
out_dir=$(dirname "$tarball")
tree="$out_dir/kmx"

rm -rf "$tree" "$library"
mkdir -p "$library"
cp -R "$pkg_dir" "$tree"
cp "$wrap_c" "$tree/src/kmx_wrap_r.c"
cp "$wrap_r" "$tree/R/swig_kmx.R"

cd "$out_dir"
tarball=$(basename "$tarball")
rm -f "$tarball"
R CMD build --no-build-vignettes --no-manual kmx
[ -f "$tarball" ] || { echo "make_package.sh: R CMD build did not write $tarball" >&2; exit 1; }
R CMD INSTALL -l "$library" "$tarball"
