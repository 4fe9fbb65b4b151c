// predictor_notes.h — how a predictor was chosen, carried inside its blob.
//
// `kmx compress --max-bytes/--max-us` (compress_to_budget.h) picks a
// predictor's knobs on a validation split; the notes record the knobs and
// what the validation rows measured, so `kmx info` can show them later.
//
// Where they live: appended to a finished blob (predictor_blob.h) after its
// last array, inside total_bytes and the CRC (both re-patched), as
//   record (kNoteWords little-endian 8-byte words, layout in predictor_notes.cpp)
//   u64 record bytes, then u8[8] "KMXNOTE\0"   (the last 16 bytes of the blob).
// No header field points at them: the inference subset, which reads arrays
// through the header's offsets only, ignores them, and a blob without them
// is an ordinary blob. Their bytes count in the blob's size (and so in a
// byte budget).
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

namespace kmx {

struct PredictorNotes {
    // The knobs: leaves asked of the tree, landmarks and pseudo-landmarks per
    // leaf asked (leaves may hold fewer), storage (the blob's kmx_storage
    // value: 0 float64, 1 float32, ...).
    int64_t leaves = 0, landmarks = 0, pseudo = 0, storage = 0;
    double validation_accuracy = 0;  // fraction of the validation rows predicted right
    double validation_us = 0;        // µs per row, one row at a time, on those rows (machine-dependent)
    int64_t validation_rows = 0;
    int64_t candidates = 0;            // predictors the search built and measured
    double max_bytes = 0, max_us = 0;  // the budget asked (0: none)
    // 1 when validation_accuracy was measured on rows that trained the model
    // (the search chose the model itself, which no held-out row can score),
    // 0 when on held-out rows, -1 unknown (notes written before this field).
    int64_t in_sample = 0;
};

// `blob` with the notes appended (total_bytes and CRC updated).
std::vector<unsigned char> append_predictor_notes(std::vector<unsigned char> blob, const PredictorNotes &notes);

// The notes of a blob, if it ends with them (a blob that passed
// read_predictor_blob's checks). A record of the first layout (without
// in_sample) reads with in_sample = -1.
bool find_predictor_notes(const unsigned char *blob, size_t len, PredictorNotes &notes);

}  // namespace kmx
