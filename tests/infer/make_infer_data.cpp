// make_infer_data — writes the predictor blobs checked into tests/infer/data
// and examples/edge, with each test blob's expected predictions (from the
// reference in random_predictor.h) as text:
//     rows d outputs
//     x_1 … x_d label o_1 … o_outputs        (one line per row, %.17g)
// and, for a predictor with sigmoids (format version 3), NAME.prob: "rows
// classes", then the probabilities of the .expect rows, one line per row
// (the full library's: its sigmoids and coupling on the reference outputs).
// Usage: make_infer_data TESTS_DATA_DIR EDGE_DIR   (run by hand; test_infer_blob
// checks the checked-in files still match).
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "io/binary_file.h"
#include "predict/predictor_blob.h"
#include "random_predictor.h"
#include "svm/probability_prediction.h"

using namespace kmx_infer_test;

constexpr int64_t kExpectRows = 40;

static void write_expectations(const std::string &path, const kmx::CompactPredictor &p, uint64_t seed) {
    std::FILE *out = std::fopen(path.c_str(), "w");
    if (!out) throw std::runtime_error("cannot write " + path);
    std::FILE *prob = nullptr;
    const int64_t k = int64_t(p.classes.size());
    if (p.probabilities()) {
        const std::string prob_path = path.substr(0, path.size() - std::strlen(".expect")) + ".prob";
        prob = std::fopen(prob_path.c_str(), "w");
        if (!prob) throw std::runtime_error("cannot write " + prob_path);
        std::fprintf(prob, "%lld %lld\n", (long long)kExpectRows, (long long)k);
    }
    // Rows within float rounding of a routing or decision tie are left out,
    // so float32 predictors must give exactly these labels.
    const std::vector<double> x = random_rows(seed, 10 * kExpectRows, p.d);
    std::fprintf(out, "%lld %lld %lld\n", (long long)kExpectRows, (long long)p.d, (long long)p.outputs);
    for (int64_t i = 0, written = 0; written < kExpectRows; ++i) {
        const ReferenceRow row = reference_predict(p, x.data() + i * p.d);
        if (row.route_margin < 1e-3 || row.decision_margin < 1e-3) continue;
        ++written;
        for (int64_t k = 0; k < p.d; ++k) std::fprintf(out, "%.17g ", x[size_t(i * p.d + k)]);
        std::fprintf(out, "%.17g", row.label);
        for (double o : row.outputs) std::fprintf(out, " %.17g", o);
        std::fprintf(out, "\n");
        if (!prob) continue;
        std::vector<double> probabilities(static_cast<size_t>(k));
        kmx::probabilities_from_outputs(k, p.multiclass == KMX_MULTICLASS_OVR, p.sigmoids, row.outputs.data(), 1,
                                        probabilities.data());
        for (int64_t c = 0; c < k; ++c) std::fprintf(prob, c ? " %.17g" : "%.17g", probabilities[size_t(c)]);
        std::fprintf(prob, "\n");
    }
    std::fclose(out);
    if (prob) std::fclose(prob);
}

static void write_blob(const std::string &path, const kmx::CompactPredictor &p) {
    const std::vector<unsigned char> blob = kmx::write_predictor_blob(p);
    kmx::write_binary_file_atomically(path.c_str(), blob.data(), blob.size());
}

int main(int argc, char **argv) {
    if (argc != 3) {
        std::fprintf(stderr, "usage: make_infer_data TESTS_DATA_DIR EDGE_DIR\n");
        return 2;
    }
    for (const CheckedInBlob &b : checked_in_blobs()) {
        const kmx::CompactPredictor p = random_predictor(b.shape, b.seed);
        write_blob(std::string(argv[1]) + "/" + b.shape.name + ".kmxp", p);
        write_expectations(std::string(argv[1]) + "/" + b.shape.name + ".expect", p, b.seed + 1000);
    }
    const CheckedInBlob edge = edge_blob();
    const kmx::CompactPredictor p = random_predictor(edge.shape, edge.seed);
    write_blob(std::string(argv[2]) + "/" + edge.shape.name + ".kmxp", p);
    const std::vector<double> x = random_rows(edge.seed + 1000, 4, p.d);
    for (int i = 0; i < 4; ++i) {
        const ReferenceRow row = reference_predict(p, x.data() + i * p.d);
        std::printf("edge row %d: {%.9g, %.9g, %.9g, %.9g} -> %.9g (o = %.9g)\n", i, x[size_t(4 * i)],
                    x[size_t(4 * i + 1)], x[size_t(4 * i + 2)], x[size_t(4 * i + 3)], row.label, row.outputs[0]);
    }
    return 0;
}
