// krr_path_cache.h — what the kernel ridge regression methods keep across a
// path of λ values on one training set (cross_validate_path trains each fold
// at every λ of the path): the parts of a fit that do not depend on λ.
//
//   exact KRR        G = Q T Qᵀ (krr_tridiagonal.h), then O(n²) per λ; when
//                    the path has tridiagonal_path_values(n) values or more
//                    and it fits the budget, else a Cholesky per λ (logged)
//   Nyström, MEKA    the approximation (landmarks, kernel columns, factors),
//                    built once; Woodbury or CG per λ (fit_krr_approx)
//   FALKON           FalkonPath (falkon.h): centers, T, K_nM's cache; A and
//                    CG per λ
//
// Each part is made for one dataset (by address: it must outlive the
// cache), kernel and set of options apart from λ, and is rebuilt when a
// call differs (leverage-score landmarks depend on λ: never kept). What it
// holds stays charged to the context that built it until it is destroyed.
// The models equal those trained one λ at a time: the same landmarks, kernel
// values and solves (exact KRR: to the rounding of the two factorizations).
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>

#include "approx/approximation.h"
#include "falkon.h"
#include "krr.h"
#include "krr_tridiagonal.h"

namespace kmx {

// The λ values from which exact KRR takes the tridiagonal form on n rows.
// libFLAME's dsytrd (half of it matrix-vector products, bound by memory)
// cost 2.6, 5.5, 7.5 and 8.2 Choleskys of the same order at n = 400, 800,
// 1600 and 2400-3200 (one thread, Xeon family 6 model 207, BLIS skx), and
// each λ after it about 1/10 of a Cholesky: fewer values than this are as
// fast (or faster) by a Cholesky each.
size_t tridiagonal_path_values(int64_t n);

// What the exact, Nyström and MEKA parts were built for.
struct KrrPathKey {
    const Dataset *data = nullptr;
    int64_t n = 0, d = 0, outputs = 0;
    KernelSpec kernel;
    KrrOptions options;  // lambda is ignored (unless leverage-score landmarks use it)
    uint64_t seed = 0;
};

class KrrPathCache {
public:
    // path_values: how many λ values the path trains (the tridiagonal form
    // is built only for tridiagonal_path_values(n) or more).
    explicit KrrPathCache(size_t path_values = 1) : path_values_(path_values) {}

    // Exact, Nyström or MEKA KRR at options.lambda, from what the cache holds
    // when it was built for the same data, kernel and options (else built now);
    // for a path of one value, fit_krr (nothing kept).
    KrrFit fit(Context &ctx, const KernelSpec &kernel, const Dataset &data, const KrrTargets &targets,
               const KrrOptions &options);
    // FALKON's part, or null for a path of one value (nothing to keep it for).
    FalkonPath *falkon() { return path_values_ > 1 ? &falkon_ : nullptr; }
    // Whether the exact part took the tridiagonal form (for tests and logs).
    bool exact_tridiagonal() const { return exact_ != nullptr; }

private:
    void keep_only(const KrrPathKey &key);
    KrrFit fit_exact(Context &ctx, const KernelSpec &kernel, const Dataset &data, const KrrTargets &targets,
                     double lambda);

    size_t path_values_;
    KrrPathKey key_;
    std::unique_ptr<KrrTridiagonal> exact_;
    bool exact_decided_ = false;  // tridiagonal form or Cholesky per λ, chosen once per key
    std::unique_ptr<KernelApproximation> approx_;
    std::shared_ptr<const void> approx_charge_;
    FalkonPath falkon_;
};

}  // namespace kmx
