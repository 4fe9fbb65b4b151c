#!/usr/bin/env bash
# The main job on the bundled demo data (UCI Letter): installs what it needs
# (tools/install-deps.sh without options: the compiler, meson, ninja,
# pkg-config, python3, BLIS and libFLAME) and builds the kmx program and the C
# quick start only (a new build folder is configured without the tests; the
# bindings and MPI are 'auto', so off unless their toolchains are there, and
# never built here; tools/test.sh turns the tests on). Then it describes the
# data, times a Gaussian kernel block, clusters the letters with k-means,
# trains DC-SVM on the binary Letter task, compresses the model to a DC-Pred++
# predictor, predicts the test set with both (accuracy and speed), exports the
# predictor as a C header, trains FALKON for comparison, and prints how long
# installing, building and running took.
set -euo pipefail
cd "$(dirname "$0")/.."
SECONDS=0
bash tools/install-deps.sh
installed=$SECONDS
[ -f build/build.ninja ] || meson setup build --buildtype=release -Dtests=false
ninja -C build tools/kmx/kmx examples/quickstart
built=$SECONDS
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
# FALKON with the DC-SVM's kernel (gamma 16), the library's lambda (1e-6) and
# its 20 CG iterations; M = 4000 centers, a third of the rows (3-fold
# cross-validation on the training rows alone: 96.7% against 95.1% for 2000;
# lambda 1e-8 or gamma 2-8 changed it by under 0.7 points), with K_nM cached
# in float32 (183 MB instead of 366 MB, the same test accuracy).
echo; echo "== kmx train -s falkon: Nystrom kernel ridge regression by preconditioned CG (M = 4000 centers), then predict"
$kmx train -s falkon -g 16 -l 1e-6 --num-centers 4000 --kernel-precision float32 --threads "$threads" \
    $train "$models/falkon.kmx"
$kmx predict --threads "$threads" "$models/falkon.kmx" $test
echo; echo "== time: installing ${installed} s, building $((built - installed)) s, running $((SECONDS - built)) s"
