// storage_comparison.h — a DC-Pred++ predictor built with every storage
// (float64, float32, int16, int8, int4) against the float64 one on a test set:
// blob bytes, accuracy, labels that differ and how far its decision values
// move. The storage tests of test_dcpred_storage.cpp (Letter binary, default
// suite) and test_dcpred_letter.cpp (Letter's 26 classes, slow) share it.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

#include "core/context.h"
#include "core/dataset.h"
#include "model/model.h"
#include "predict/compact_predict.h"
#include "predict/dcpred.h"
#include "predict/predictor_blob.h"
#include "predict_test_support.h"
#include "svm/multiclass.h"
#include "predict/predictor_storage.h"

namespace predict_test {

// DC-SVM on a Letter training set as LIBSVM is run on it (C = 8, γ = 16).
inline kmx::Model train_letter_dcsvm(kmx::Context &ctx, const kmx::Dataset &train) {
    return train_rbf_svm(ctx, train, 8, 16, KMX_METHOD_DCSVM);
}

struct StorageResult {
    kmx::PredictorStorage storage;
    size_t blob_bytes = 0;
    double accuracy = 0;
    int64_t flips = 0;          // labels unlike the float64 predictor's
    int64_t flips_off_tie = 0;  // ... at rows where no float64 decision value is within `tie` of 0
    double max_output_gap = 0;  // max |o − o_float64| over rows and outputs
};

// The stated bound on |o − o_float64| for Letter's decision values (about ±1):
// 1e-4 float32, 2e-3 int16, 0.1 int8, 0.3 int4 (the leaves are refitted to the
// stored landmarks, so the codes move them by about a code step's kernel change).
inline double output_gap_bound(kmx::PredictorStorage storage) {
    switch (storage) {
        case kmx::PredictorStorage::int4:
            return 0.3;
        case kmx::PredictorStorage::int8:
            return 0.1;
        case kmx::PredictorStorage::int16:
            return 2e-3;
        default:
            return 1e-4;
    }
}

// Every storage, float64 first. `tie`: a decision value this close to 0 makes
// a row a near tie (its label may flip when the landmarks move by a code step).
inline std::vector<StorageResult> compare_storages(kmx::Context &ctx, const kmx::Model &model,
                                                   const kmx::Dataset &train, const kmx::Dataset &test, double tie) {
    std::vector<StorageResult> results;
    std::vector<double> base_outputs, base_labels;
    for (int s = 0; s < 5; ++s) {
        kmx::DcpredOptions options;
        options.storage = kmx::PredictorStorage(s);
        const kmx::CompactPredictor p = kmx::build_dcpred(ctx, model, train, options);
        const size_t k = size_t(p.outputs);
        std::vector<double> outputs(size_t(test.n) * k), labels(size_t(test.n));
        kmx::compact_predict(ctx, p, test, outputs.data(), labels.data());
        if (s == 0) base_outputs = outputs, base_labels = labels;
        StorageResult r{options.storage};
        r.blob_bytes = kmx::write_predictor_blob(p).size();
        for (size_t i = 0; i < labels.size(); ++i) {
            r.accuracy += labels[i] == test.y[i] ? 1.0 / double(test.n) : 0.0;
            double nearest_tie = INFINITY;
            for (size_t j = 0; j < k; ++j) {
                r.max_output_gap = std::max(r.max_output_gap, std::fabs(outputs[i * k + j] - base_outputs[i * k + j]));
                nearest_tie = std::min(nearest_tie, std::fabs(base_outputs[i * k + j]));
            }
            if (labels[i] == base_labels[i]) continue;
            ++r.flips;
            r.flips_off_tie += nearest_tie > tie;
        }
        std::printf(
            "%-8s blob %9zu bytes, accuracy %.4f, %lld labels unlike float64's (%lld off a near tie), "
            "max |o - o_float64| %.3g\n",
            kmx::storage_name(r.storage), r.blob_bytes, r.accuracy, static_cast<long long>(r.flips),
            static_cast<long long>(r.flips_off_tie), r.max_output_gap);
        results.push_back(r);
    }
    return results;
}

}  // namespace predict_test
