// random_predictor.h — random CompactPredictors of every shape, and the
// prediction rule of compact_predictor.h written as the plainest double
// loop (the independent reference the C runtime is checked against).
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "predict/compact_predictor.h"
#include "predict/predictor_storage.h"

namespace kmx_infer_test {

using kmx::CompactPredictor;
using kmx::PredictorLeaf;
using kmx::PredictorStorage;
using kmx::PredictorTask;
using kmx::TriangleEstimate;

enum class Shape { regression, binary, ovr, ovo };

struct PredictorShape {
    std::string name;
    kmx_kernel_type kernel = KMX_KERNEL_RBF;
    Shape shape = Shape::binary;
    int classes = 2;
    int64_t d = 5;
    int64_t top = 2;
    int64_t leaves_per_top = 2;
    int64_t m = 6;
    int64_t triangles = 0;
    TriangleEstimate estimate = TriangleEstimate::lower;
    int64_t products = 0;
    PredictorStorage storage = PredictorStorage::float64;
    bool sigmoids = false;  // classifiers: random Platt sigmoids (format version 3)
    bool float32() const { return kmx::stores_float(storage); }
};

// "f64", "f32", "i16", "i8", "i4": the storage in shape names.
inline const char *storage_tag(PredictorStorage storage) {
    static const char *const tags[] = {"f64", "f32", "i16", "i8", "i4"};
    return tags[int(storage)];
}

inline double round_if(bool float32, double v) { return float32 ? double(float(v)) : v; }

inline std::vector<double> uniform_values(std::mt19937_64 &rng, size_t n, double lo, double hi, bool float32) {
    std::uniform_real_distribution<double> u(lo, hi);
    std::vector<double> values(n);
    for (double &v : values) v = round_if(float32, u(rng));
    return values;
}

inline double point_distance(kmx_kernel_type kernel, const double *a, const double *b, int64_t d) {
    double sum = 0;
    for (int64_t k = 0; k < d; ++k)
        sum += kernel == KMX_KERNEL_LAPLACIAN ? std::fabs(a[k] - b[k]) : (a[k] - b[k]) * (a[k] - b[k]);
    return kernel == KMX_KERNEL_LAPLACIAN ? sum : std::sqrt(sum);
}

inline int64_t outputs_of(const PredictorShape &s) {
    switch (s.shape) {
        case Shape::regression:
            return 1;
        case Shape::binary:
            return 1;
        case Shape::ovr:
            return s.classes;
        default:
            return int64_t(s.classes) * (s.classes - 1) / 2;
    }
}

inline PredictorLeaf random_leaf(std::mt19937_64 &rng, const PredictorShape &s, int64_t m, int64_t outputs) {
    PredictorLeaf leaf;
    const bool f32 = s.float32();
    leaf.center = uniform_values(rng, size_t(s.d), -1, 1, f32);
    leaf.m = m;
    leaf.landmarks = uniform_values(rng, size_t(m * s.d), -1, 1, f32);
    kmx::store_landmarks(leaf, s.storage);  // quantized: codes around the center or a codebook (float: rounded)
    leaf.triangle = s.triangles;
    for (int64_t t = 0; t < s.triangles; ++t) {
        const std::vector<double> v = uniform_values(rng, size_t(s.d), -1, 1, false);
        for (int64_t j = 0; j < m; ++j)
            leaf.triangle_dist.push_back(
                round_if(f32, point_distance(s.kernel, v.data(), leaf.landmarks.data() + j * s.d, s.d)));
    }
    leaf.products = s.products;
    std::uniform_int_distribution<int32_t> pick(0, int32_t(m - 1));
    for (int64_t q = 0; q < s.products; ++q) {
        int32_t i = pick(rng), j = pick(rng);
        leaf.product_pairs.push_back(std::min(i, j));
        leaf.product_pairs.push_back(std::max(i, j));
    }
    leaf.beta = uniform_values(rng, size_t(leaf.features() * outputs), -2, 2, f32);
    leaf.bias = uniform_values(rng, size_t(outputs), -0.5, 0.5, f32);
    return leaf;
}

inline CompactPredictor random_predictor(const PredictorShape &s, uint64_t seed) {
    std::mt19937_64 rng(seed);
    CompactPredictor p;
    p.kernel.type = s.kernel;
    p.kernel.gamma = s.kernel == KMX_KERNEL_SIGMOID ? 0.2 : s.kernel == KMX_KERNEL_POLYNOMIAL ? 0.5 : 0.3;
    p.kernel.coef0 = s.kernel == KMX_KERNEL_POLYNOMIAL ? 1.0 : 0.1;
    p.kernel.degree = 3;
    p.d = s.d;
    p.task = s.shape == Shape::regression ? PredictorTask::regression : PredictorTask::classification;
    p.multiclass = s.shape == Shape::ovr ? KMX_MULTICLASS_OVR : KMX_MULTICLASS_OVO;
    if (s.shape != Shape::regression)
        for (int c = 0; c < s.classes; ++c) p.classes.push_back(c == 0 ? -1.0 : 1.5 * c + 0.25);
    p.outputs = outputs_of(s);
    p.triangle_estimate = s.estimate;
    p.storage = s.storage;
    p.top_centers = uniform_values(rng, size_t(s.top * s.d), -1, 1, s.float32());
    std::uniform_int_distribution<int64_t> m_pick(1, s.m);
    p.top_leaf_begin.push_back(0);
    for (int64_t t = 0; t < s.top; ++t) {
        for (int64_t l = 0; l < s.leaves_per_top; ++l)
            p.leaves.push_back(random_leaf(rng, s, l == 0 ? s.m : m_pick(rng), p.outputs));
        p.top_leaf_begin.push_back(int64_t(p.leaves.size()));
    }
    // (A_k, B_k): A < 0 (larger outputs, the positive class, more likely), |B| small; drawn last.
    for (int64_t k = 0; s.sigmoids && k < p.outputs; ++k) {
        p.sigmoids.push_back(std::uniform_real_distribution<double>(-4, -0.5)(rng));
        p.sigmoids.push_back(std::uniform_real_distribution<double>(-0.5, 0.5)(rng));
    }
    return p;
}

inline std::vector<double> random_rows(uint64_t seed, int64_t rows, int64_t d) {
    std::mt19937_64 rng(seed);
    return uniform_values(rng, size_t(rows * d), -1.2, 1.2, false);
}

// ------------------------------------------------------------ the reference

struct ReferenceRow {
    std::vector<double> outputs;
    double label = 0;
    double route_margin = 0;     // gap between the best and second-best routing distance
    double decision_margin = 0;  // how far the label is from flipping
};

inline double kernel_value(const kmx::KernelSpec &k, const double *x, const double *u, int64_t d) {
    double dot = 0, sq = 0, l1 = 0;
    for (int64_t i = 0; i < d; ++i) {
        dot += x[i] * u[i];
        sq += (x[i] - u[i]) * (x[i] - u[i]);
        l1 += std::fabs(x[i] - u[i]);
    }
    switch (k.type) {
        case KMX_KERNEL_RBF:
            return std::exp(-k.gamma * sq);
        case KMX_KERNEL_LAPLACIAN:
            return std::exp(-k.gamma * l1);
        case KMX_KERNEL_POLYNOMIAL:
            return std::pow(k.gamma * dot + k.coef0, k.degree);
        case KMX_KERNEL_LINEAR:
            return dot;
        default:
            return std::tanh(k.gamma * dot + k.coef0);
    }
}

inline ReferenceRow reference_predict(const CompactPredictor &p, const double *x) {
    const int64_t d = p.d;
    auto sq_dist = [&](const double *c) {
        double s = 0;
        for (int64_t k = 0; k < d; ++k) s += (x[k] - c[k]) * (x[k] - c[k]);
        return s;
    };
    ReferenceRow row;
    // Step 1: routing (ties to the lowest index), keeping the smallest gap seen.
    double route_margin = INFINITY;
    auto argmin = [&](int64_t first, int64_t end, auto center_of) {
        int64_t best = first;
        double best_d = sq_dist(center_of(first));
        for (int64_t i = first + 1; i < end; ++i) {
            const double di = sq_dist(center_of(i));
            route_margin = std::min(route_margin, std::fabs(di - best_d));
            if (di < best_d) best_d = di, best = i;
        }
        return best;
    };
    const int64_t t = argmin(0, p.top(), [&](int64_t i) { return p.top_centers.data() + i * d; });
    const int64_t l = argmin(p.top_leaf_begin[size_t(t)], p.top_leaf_begin[size_t(t) + 1],
                             [&](int64_t i) { return p.leaves[size_t(i)].center.data(); });
    const PredictorLeaf &leaf = p.leaves[size_t(l)];
    row.route_margin = route_margin;
    // Steps 2-3: c̄ = [c, c_tri, c_prod].
    std::vector<double> c_bar, r;
    for (int64_t j = 0; j < leaf.m; ++j) {
        const double *u = leaf.landmarks.data() + j * d;
        c_bar.push_back(kernel_value(p.kernel, x, u, d));
        r.push_back(point_distance(p.kernel.type, x, u, d));
    }
    for (int64_t tt = 0; tt < leaf.triangle; ++tt) {
        double lower = 0, upper = INFINITY;
        for (int64_t j = 0; j < leaf.m; ++j) {
            const double D = leaf.triangle_dist[size_t(tt * leaf.m + j)];
            lower = std::max(lower, std::fabs(r[size_t(j)] - D));
            upper = std::min(upper, r[size_t(j)] + D);
        }
        const double rho = p.triangle_estimate == TriangleEstimate::lower   ? lower
                           : p.triangle_estimate == TriangleEstimate::upper ? upper
                                                                            : 0.5 * (lower + upper);
        c_bar.push_back(p.kernel.type == KMX_KERNEL_RBF ? std::exp(-p.kernel.gamma * rho * rho)
                                                        : std::exp(-p.kernel.gamma * rho));
    }
    for (int64_t q = 0; q < leaf.products; ++q)
        c_bar.push_back(c_bar[size_t(leaf.product_pairs[size_t(2 * q)])] *
                        c_bar[size_t(leaf.product_pairs[size_t(2 * q + 1)])]);
    // Step 4.
    for (int64_t k = 0; k < p.outputs; ++k) {
        double o = leaf.bias[size_t(k)];
        for (size_t f = 0; f < c_bar.size(); ++f) o += c_bar[f] * leaf.beta[f * size_t(p.outputs) + size_t(k)];
        row.outputs.push_back(o);
    }
    // Step 5.
    const std::vector<double> &o = row.outputs;
    const size_t k = p.classes.size();
    if (p.task == PredictorTask::regression) {
        row.label = o[0];
        row.decision_margin = INFINITY;
    } else if (k == 2) {
        row.label = p.classes[o[0] > 0 ? 1 : 0];
        row.decision_margin = std::fabs(o[0]);
    } else if (p.multiclass == KMX_MULTICLASS_OVR) {
        const size_t best = size_t(std::max_element(o.begin(), o.end()) - o.begin());
        row.label = p.classes[best];
        row.decision_margin = INFINITY;
        for (size_t i = 0; i < k; ++i)
            if (i != best) row.decision_margin = std::min(row.decision_margin, o[best] - o[i]);
    } else {
        std::vector<int> votes(k, 0);
        size_t pair = 0;
        row.decision_margin = INFINITY;
        for (size_t i = 0; i < k; ++i)
            for (size_t j = i + 1; j < k; ++j, ++pair) {
                ++votes[o[pair] > 0 ? i : j];
                row.decision_margin = std::min(row.decision_margin, std::fabs(o[pair]));
            }
        row.label = p.classes[size_t(std::max_element(votes.begin(), votes.end()) - votes.begin())];
    }
    return row;
}

// Every shape the C runtime must handle: tasks × kernels × triangle
// estimates × products × storage × one or many leaves.
inline std::vector<PredictorShape> all_shapes() {
    std::vector<PredictorShape> shapes;
    const kmx_kernel_type kernels[] = {KMX_KERNEL_RBF, KMX_KERNEL_LAPLACIAN, KMX_KERNEL_POLYNOMIAL, KMX_KERNEL_LINEAR,
                                       KMX_KERNEL_SIGMOID};
    const Shape tasks[] = {Shape::regression, Shape::binary, Shape::ovr, Shape::ovo};
    const char *task_names[] = {"regression", "binary", "ovr", "ovo"};
    const char *kernel_names[] = {"rbf", "laplacian", "poly", "linear", "sigmoid"};
    for (int kernel = 0; kernel < 5; ++kernel)
        for (int task = 0; task < 4; ++task)
            for (int storage = 0; storage < 5; ++storage)
                for (int layout = 0; layout < 2; ++layout) {
                    PredictorShape s;
                    s.kernel = kernels[kernel];
                    s.shape = tasks[task];
                    s.classes = tasks[task] == Shape::binary ? 2 : tasks[task] == Shape::regression ? 0 : 4;
                    s.storage = PredictorStorage(storage);
                    s.top = layout == 0 ? 1 : 3;
                    s.leaves_per_top = layout == 0 ? 1 : 3;
                    s.m = layout == 0 ? 7 : 5;
                    s.products = (kernel + task + layout) % 2 == 0 ? 4 : 0;
                    const bool stationary = s.kernel == KMX_KERNEL_RBF || s.kernel == KMX_KERNEL_LAPLACIAN;
                    if (stationary) {
                        s.triangles = 3;
                        s.estimate = TriangleEstimate((task + layout + storage) % 3);
                    }
                    s.name = std::string(kernel_names[kernel]) + "_" + task_names[task] + "_" + storage_tag(s.storage) +
                             (layout == 0 ? "_one_leaf" : "_many_leaves");
                    shapes.push_back(s);
                }
    // Every triangle estimate for both stationary kernels, with products.
    for (int kernel = 0; kernel < 2; ++kernel)
        for (int estimate = 0; estimate < 3; ++estimate)
            for (int storage = 0; storage < 5; ++storage) {
                PredictorShape s;
                s.kernel = kernels[kernel];
                s.shape = Shape::ovo;
                s.classes = 3;
                s.triangles = 4;
                s.estimate = TriangleEstimate(estimate);
                s.products = 3;
                s.storage = PredictorStorage(storage);
                s.name = std::string(kernel_names[kernel]) + "_triangle_" + std::to_string(estimate) + "_" +
                         storage_tag(s.storage);
                shapes.push_back(s);
            }
    return shapes;
}

}  // namespace kmx_infer_test

namespace kmx_infer_test {

// The predictors checked into tests/infer/data (and the edge example's),
// with their seeds: make_infer_data writes them, test_infer_blob checks
// that the checked-in bytes are still what the writer makes.
struct CheckedInBlob {
    PredictorShape shape;
    uint64_t seed;
};

inline std::vector<CheckedInBlob> checked_in_blobs() {
    std::vector<CheckedInBlob> blobs;
    PredictorShape s;
    s.name = "binary_rbf_f64";
    s.top = 2, s.leaves_per_top = 2, s.m = 6, s.triangles = 2, s.estimate = TriangleEstimate::midpoint, s.products = 3;
    blobs.push_back({s, 101});
    s = PredictorShape();
    s.name = "ovo_laplacian_f32";
    s.kernel = KMX_KERNEL_LAPLACIAN, s.shape = Shape::ovo, s.classes = 4, s.top = 2, s.leaves_per_top = 2;
    s.triangles = 3, s.estimate = TriangleEstimate::upper, s.products = 2, s.storage = PredictorStorage::float32;
    blobs.push_back({s, 102});
    s = PredictorShape();
    s.name = "ovr_poly_f64";
    s.kernel = KMX_KERNEL_POLYNOMIAL, s.shape = Shape::ovr, s.classes = 3, s.top = 1, s.leaves_per_top = 3;
    s.products = 4;
    blobs.push_back({s, 103});
    s = PredictorShape();
    s.name = "regression_sigmoid_f32";
    s.kernel = KMX_KERNEL_SIGMOID, s.shape = Shape::regression, s.classes = 0, s.top = 1, s.leaves_per_top = 1;
    s.m = 8, s.storage = PredictorStorage::float32;
    blobs.push_back({s, 104});
    s = PredictorShape();  // small enough to flip every bit of
    s.name = "tiny_rbf_f64";
    s.d = 2, s.top = 1, s.leaves_per_top = 1, s.m = 2, s.triangles = 1, s.products = 1;
    blobs.push_back({s, 105});
    // Format version 2: quantized landmarks.
    s = PredictorShape();
    s.name = "ovr_rbf_i16";
    s.shape = Shape::ovr, s.classes = 3, s.top = 2, s.leaves_per_top = 2, s.m = 7, s.triangles = 2;
    s.estimate = TriangleEstimate::lower, s.products = 2, s.storage = PredictorStorage::int16;
    blobs.push_back({s, 106});
    s = PredictorShape();
    s.name = "binary_laplacian_i8";
    s.kernel = KMX_KERNEL_LAPLACIAN, s.d = 6, s.top = 2, s.leaves_per_top = 3, s.m = 6, s.triangles = 2;
    s.estimate = TriangleEstimate::midpoint, s.products = 3, s.storage = PredictorStorage::int8;
    blobs.push_back({s, 107});
    s = PredictorShape();
    s.name = "regression_poly_i8";
    s.kernel = KMX_KERNEL_POLYNOMIAL, s.shape = Shape::regression, s.classes = 0, s.top = 1, s.leaves_per_top = 2;
    s.m = 5, s.products = 2, s.storage = PredictorStorage::int8;
    blobs.push_back({s, 108});
    s = PredictorShape();  // small enough to flip every bit of
    s.name = "tiny_rbf_i8";
    s.d = 2, s.top = 1, s.leaves_per_top = 1, s.m = 2, s.triangles = 1, s.products = 1;
    s.storage = PredictorStorage::int8;
    blobs.push_back({s, 109});
    // Format version 3: the sigmoids of probability estimates (.prob: the expected probabilities).
    s = PredictorShape();
    s.name = "ovo_rbf_prob_f64";
    s.shape = Shape::ovo, s.classes = 4, s.top = 2, s.leaves_per_top = 2, s.m = 5, s.triangles = 2;
    s.estimate = TriangleEstimate::midpoint, s.products = 2, s.sigmoids = true;
    blobs.push_back({s, 110});
    s = PredictorShape();  // small enough to flip every bit of
    s.name = "tiny_rbf_prob_f32";
    s.d = 2, s.top = 1, s.leaves_per_top = 1, s.m = 2, s.triangles = 1, s.products = 1, s.sigmoids = true;
    s.storage = PredictorStorage::float32;
    blobs.push_back({s, 111});
    // Format version 4: int4 landmark codes into a codebook per leaf (m > 16: Lloyd's levels, not the values).
    s = PredictorShape();
    s.name = "ovo_rbf_i4";
    s.shape = Shape::ovo, s.classes = 3, s.top = 2, s.leaves_per_top = 2, s.m = 20, s.triangles = 2;
    s.estimate = TriangleEstimate::upper, s.products = 2, s.storage = PredictorStorage::int4;
    blobs.push_back({s, 112});
    s = PredictorShape();
    s.name = "binary_laplacian_prob_i4";
    s.kernel = KMX_KERNEL_LAPLACIAN, s.d = 5, s.top = 1, s.leaves_per_top = 2, s.m = 6, s.products = 1;
    s.storage = PredictorStorage::int4, s.sigmoids = true;
    blobs.push_back({s, 113});
    s = PredictorShape();  // small enough to flip every bit of; 9 codes: the last byte's high half is 0
    s.name = "tiny_rbf_i4";
    s.d = 3, s.top = 1, s.leaves_per_top = 1, s.m = 3, s.triangles = 1, s.products = 1;
    s.storage = PredictorStorage::int4;
    blobs.push_back({s, 114});
    return blobs;
}

// The edge example's predictor: binary RBF on 4 features, float32.
inline CheckedInBlob edge_blob() {
    PredictorShape s;
    s.name = "edge_predictor";
    s.d = 4, s.top = 2, s.leaves_per_top = 2, s.m = 5, s.products = 2, s.storage = PredictorStorage::float32;
    return {s, 201};
}

}  // namespace kmx_infer_test
