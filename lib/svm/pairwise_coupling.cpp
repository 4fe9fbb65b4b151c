// Pairwise coupling (Wu, Lin & Weng 2004, method 2): the inference subset's
// implementation (lib/infer/pairwise_coupling.c), with its work from the heap.
#include "pairwise_coupling.h"

#include <vector>

#include "infer/probability.h"

namespace kmx {

void couple_pairwise(int64_t k, const double *r, double *p) {
    std::vector<double> work(size_t(k * k + k));
    kmx_infer__couple_pairwise(size_t(k), r, p, work.data());
}

}  // namespace kmx
