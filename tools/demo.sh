#!/usr/bin/env bash
# The main job on the bundled demo data (UCI Letter): installs what kmx needs,
# builds it, describes the data, times a Gaussian kernel block, clusters the
# letters with k-means, then trains DC-SVM on the binary Letter task,
# compresses the model to a DC-Pred++ predictor, predicts the test set with
# both (accuracy and speed), exports the predictor as a C header, and trains
# FALKON for comparison.
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
train=$data/letter_bin.train.libsvm
test=$data/letter_bin.test.libsvm
echo; echo "== kmx train -s dcsvm -c 8 -g 16 (LIBSVM's parameters for Letter: about 98% accuracy)"
$kmx train -s dcsvm -c 8 -g 16 --threads "$threads" $train "$models/dcsvm.kmx"
echo "== kmx predict: the 6000 test letters with the full model"
$kmx predict --threads "$threads" "$models/dcsvm.kmx" $test
echo; echo "== kmx compress: a DC-Pred++ predictor from the model (k-means tree, alpha^2-weighted landmarks per leaf)"
$kmx compress --threads "$threads" "$models/dcsvm.kmx" $train "$models/letter.kmxp"
echo "== kmx predict: the same test letters with the compact predictor"
$kmx predict --threads "$threads" "$models/letter.kmxp" $test
echo; echo "== kmx export --c: the predictor as a C header for the inference subset (<kmx/kmx_infer.h>)"
$kmx export --c --name letter_predictor "$models/letter.kmxp" "$models/letter_predictor.h"
echo; echo "== kmx train -s falkon: Nystrom kernel ridge regression by preconditioned CG, then predict"
$kmx train -s falkon -g 16 -l 1e-6 --num-centers 2000 --threads "$threads" $train "$models/falkon.kmx"
$kmx predict --threads "$threads" "$models/falkon.kmx" $test
