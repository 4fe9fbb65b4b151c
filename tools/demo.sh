#!/usr/bin/env bash
# The main job on the bundled demo data (UCI Letter): installs what kmx needs,
# builds it, describes the data, times a Gaussian kernel block, clusters the
# letters with k-means, then trains DC-SVM (exact, and with early prediction)
# on the binary Letter task and predicts its test set.
set -euo pipefail
cd "$(dirname "$0")/.."
bash tools/install-deps.sh
[ -f build/build.ninja ] || meson setup build --buildtype=release
ninja -C build
kmx=build/tools/kmx/kmx
data=examples/data
echo; echo "== kmx info: the binary Letter training set"
$kmx info $data/letter_bin.train.libsvm
echo; echo "== kmx kernel: a 4096 x 4096 Gaussian kernel block"
$kmx kernel -k rbf -g 2 -n 4096 -m 4096 $data/letter_bin.train.libsvm
echo; echo "== examples/c/quickstart: k-means (k=26) on the 26-letter training set"
build/examples/quickstart $data/letter_mc.train.libsvm 26
models=$(mktemp -d)
trap 'rm -rf "$models"' EXIT
threads=$(nproc)
for method in dcsvm dcsvm-early; do
  echo; echo "== kmx train -s $method -c 8 -g 16 (LIBSVM's parameters for Letter: about 98% accuracy)"
  $kmx train -s $method -c 8 -g 16 --threads "$threads" $data/letter_bin.train.libsvm "$models/$method.kmx"
  echo "== kmx predict: the 6000 test letters"
  $kmx predict --threads "$threads" "$models/$method.kmx" $data/letter_bin.test.libsvm
done
