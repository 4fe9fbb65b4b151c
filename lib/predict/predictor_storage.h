// predictor_storage.h — how a CompactPredictor's numbers are stored
// (PredictorStorage, compact_predictor.h): real arrays rounded to float, and
// landmarks as int16/int8 codes with one scale per leaf. The builders round
// with these before β is fitted (so β fits the numbers the blob holds); the
// blob writer encodes and its reader decodes with them: the code is defined
// once, here.
//
// Quantized landmarks: u = c + s·q, c the leaf's routing center (stored as
// float; the per-feature offset, free since the blob holds it anyway), s one
// scale per leaf, q = round((u − c)/s) in [−limit, limit] (limit 32767 or 127,
// symmetric). One scale per leaf rather than per feature: the kernels see
// Euclidean geometry (distances, dot products), where an error of s/2 in any
// coordinate weighs the same, so one step size over the leaf's spread costs
// the least bytes for the kernel error it gives.
#pragma once
#include <cstdint>
#include <vector>

#include "compact_predictor.h"

namespace kmx {

// Every storage but float64 keeps its real arrays as float.
bool stores_float(PredictorStorage storage);
// int16 and int8 (codes with a scale per leaf).
bool quantizes_landmarks(PredictorStorage storage);
// int4 (codes into a codebook of kCodebookValues values per feature and leaf).
bool uses_codebook(PredictorStorage storage);
constexpr int kCodebookValues = 16;
// Largest |q|: 32767 (int16), 127 (int8); 0 for the float storages.
int32_t landmark_code_limit(PredictorStorage storage);
// "float64", "float32", "int16", "int8", "int4".
const char *storage_name(PredictorStorage storage);

// values rounded to float when the storage stores floats.
void round_reals(std::vector<double> &values, PredictorStorage storage);

// The leaf's landmarks as the storage holds them: rounded to float, or (int16,
// int8) with the smallest float scale s that fits every |u − c| in the code's
// range, each landmark replaced by c + s·q, or (int4) each value replaced by
// the nearest of its feature's codebook (scalar_codebook). leaf.center must
// already be stored (rounded). Sets leaf.landmark_scale (0 unless int16/int8)
// and leaf.codebook (empty unless int4). Fails with KMX_E_INVALID_ARGUMENT
// when a landmark lies too far from the center for a scale of at most
// KMX_BLOB_MAX_LANDMARK_SCALE.
void store_landmarks(PredictorLeaf &leaf, PredictorStorage storage);

// The kCodebookValues floats (ascending) that stand for `values` (float-rounded
// doubles, any order) at the least squared error: the distinct values
// themselves when there are at most kCodebookValues (the last repeated to fill
// the table: lossless), else the optimal 16-level scalar quantizer (exact 1-D
// k-means by dynamic programming), its levels rounded to float. Writes
// table[0, kCodebookValues).
void scalar_codebook(std::vector<double> values, double *table);
// The code of `value` among a feature's kCodebookValues codebook values: the
// nearest (ties to the lowest index).
int32_t codebook_code(double value, const double *table);

// q for a landmark value: round((value − center)/scale), clamped to ±limit.
int32_t landmark_code(double value, double center, double scale, PredictorStorage storage);
// The landmark value a code stands for: center + scale·q (in double).
double landmark_value(double center, double scale, int32_t code);
// Whether s is a valid scale: a float in [FLT_MIN, KMX_BLOB_MAX_LANDMARK_SCALE]
// (the rule kmx_infer_open applies).
bool valid_landmark_scale(double scale);

}  // namespace kmx
