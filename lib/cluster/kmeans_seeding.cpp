#include "kmeans_seeding.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/rng.h"
#include "distances.h"

namespace kmx::cluster {

namespace {

struct SeedingScratch {
    int64_t *trial_indices;    // trials: the rows drawn for the next center
    double *targets;           // trials: the sampled positions in the cumulative mass
    double *trial_rows;        // trials x d: dense copies of those rows
    double *trial_sqnorms;     // trials
    double *trial_sqdist;      // n x trials: ‖x_i − trial_t‖² (GEMM form, clamped at 0)
    BlockBuffers *buffers;     // one per slot: dense copies of sparse rows
    double *slot_potentials;   // slots x potential_stride: Σ w_i·min(D_i², ‖x_i − trial_t‖²) per trial
    int64_t potential_stride;  // a cache line or more, so slots never share one
};

SeedingScratch carve_seeding(ScratchCarver &carver, const Dataset &data, const RowPartition &partition,
                             int64_t trials) {
    SeedingScratch s;
    s.trial_indices = carver.take<int64_t>(size_t(trials));
    s.targets = carver.take<double>(size_t(trials));
    s.trial_rows = carver.take<double>(size_t(trials * data.d));
    s.trial_sqnorms = carver.take<double>(size_t(trials));
    s.trial_sqdist = carver.take<double>(size_t(data.n * trials));
    s.buffers = carve_block_buffers(carver, data, partition, 0);
    s.potential_stride = int64_t(align_up(sizeof(double) * size_t(trials)) / sizeof(double));
    s.slot_potentials = carver.take<double>(size_t(partition.slots * s.potential_stride));
    return s;
}

// Draws `count` rows, row i with probability mass(i) / Σ mass, into rows[]
// in ascending order. Returns false (drawing nothing) if the total mass is 0.
template <class Mass>
bool sample_rows(Rng &rng, int64_t n, const Mass &mass, int64_t count, double *targets, int64_t *rows) {
    double total = 0;
    for (int64_t i = 0; i < n; ++i) total += mass(i);
    if (!(total > 0)) return false;
    for (int64_t t = 0; t < count; ++t) targets[t] = rng.uniform() * total;
    std::sort(targets, targets + count);
    double running = 0;
    int64_t drawn = 0, last_positive = 0;
    for (int64_t i = 0; i < n && drawn < count; ++i) {
        const double m = mass(i);
        if (!(m > 0)) continue;
        running += m;
        last_positive = i;
        while (drawn < count && targets[drawn] < running) rows[drawn++] = i;
    }
    while (drawn < count) rows[drawn++] = last_positive;  // a target that rounded up to the total
    return true;
}

// Fills s.trial_sqdist for the `trials` drawn rows and sums, per trial,
// Σ_i w_i·min(D_i², ‖x_i − trial_t‖²) (per slot, then in slot order); returns
// the trial with the smallest sum, the lowest on ties.
int64_t evaluate_trials(const Dataset &data, const RowPartition &partition, const SeedingScratch &s, int64_t trials,
                        const double *row_sqnorms, const double *min_sqdist) {
    const CenterSet trial_set{s.trial_rows, s.trial_sqnorms, trials, data.d};
    std::fill(s.slot_potentials, s.slot_potentials + partition.slots * s.potential_stride, 0.0);
    for_each_block(partition, [&](int slot, int64_t begin, int64_t end) {
        double *potentials = s.slot_potentials + slot * s.potential_stride;
        double *sqdist = s.trial_sqdist + begin * trials;
        center_dot_products(dense_rows(data, begin, end, s.buffers[slot].rows), end - begin, trial_set, sqdist);
        for (int64_t i = begin; i < end; ++i, sqdist += trials) {
            const double w = weight_of(data, i);
            for (int64_t t = 0; t < trials; ++t) {
                sqdist[t] = std::max(0.0, row_sqnorms[i] + s.trial_sqnorms[t] - 2 * sqdist[t]);
                potentials[t] += w * std::min(min_sqdist[i], sqdist[t]);
            }
        }
    });
    int64_t best = 0;
    double best_potential = std::numeric_limits<double>::infinity();
    for (int64_t t = 0; t < trials; ++t) {
        double potential = 0;
        for (int slot = 0; slot < partition.slots; ++slot)
            potential += s.slot_potentials[slot * s.potential_stride + t];
        if (potential < best_potential) {
            best_potential = potential;
            best = t;
        }
    }
    return best;
}

// D_i² = min(D_i², ‖x_i − trial_chosen‖²) for every row.
void lower_min_sqdist(const RowPartition &partition, const SeedingScratch &s, int64_t trials, int64_t chosen,
                      double *min_sqdist) {
    for_each_block(partition, [&](int, int64_t begin, int64_t end) {
        for (int64_t i = begin; i < end; ++i)
            min_sqdist[i] = std::min(min_sqdist[i], s.trial_sqdist[i * trials + chosen]);
    });
}

// Draws the trial rows for the next center ∝ w_i·D_i² (D_i² in min_sqdist),
// or ∝ w_i for the first center (min_sqdist null) and once every row of
// positive weight sits on a center (then any choice is as good).
void draw_trials(Rng &rng, const Dataset &data, const SeedingScratch &s, int64_t trials, const double *min_sqdist) {
    const auto weight = [&](int64_t i) { return weight_of(data, i); };
    const auto potential = [&](int64_t i) { return weight_of(data, i) * min_sqdist[i]; };
    const bool drawn = min_sqdist && sample_rows(rng, data.n, potential, trials, s.targets, s.trial_indices);
    if (!drawn) sample_rows(rng, data.n, weight, trials, s.targets, s.trial_indices);
    for (int64_t t = 0; t < trials; ++t) {
        double *row = s.trial_rows + t * data.d;
        data.copy_rows(s.trial_indices[t], s.trial_indices[t] + 1, row);
        s.trial_sqnorms[t] = squared_norm(row, data.d);
    }
}

}  // namespace

int64_t seeding_trials(int64_t k) { return 2 + int64_t(std::log(double(k))); }

void seed_kmeans_plus_plus(Context &ctx, Arena &scratch, const Dataset &data, const RowPartition &partition, int64_t k,
                           const double *row_sqnorms, double *centers, double *min_sqdist, int64_t *seed_rows) {
    const ArenaScope scope(scratch);
    ScratchCarver carver(scratch);
    const SeedingScratch s = carve_seeding(carver, data, partition, seeding_trials(k));
    Rng rng(ctx.seed);
    std::fill(min_sqdist, min_sqdist + data.n, std::numeric_limits<double>::infinity());
    for (int64_t c = 0; c < k; ++c) {
        ctx.check_cancel();
        const bool first = c == 0;
        const int64_t trials = first ? 1 : seeding_trials(k);
        draw_trials(rng, data, s, trials, first ? nullptr : min_sqdist);
        const int64_t best = evaluate_trials(data, partition, s, trials, row_sqnorms, min_sqdist);
        std::copy(s.trial_rows + best * data.d, s.trial_rows + (best + 1) * data.d, centers + c * data.d);
        if (seed_rows) seed_rows[c] = s.trial_indices[best];
        lower_min_sqdist(partition, s, trials, best, min_sqdist);
    }
}

size_t kmeans_seeding_workspace_bytes(const Dataset &data, const RowPartition &partition, int64_t k) {
    ScratchCarver sizing;
    carve_seeding(sizing, data, partition, seeding_trials(k));
    return sizing.bytes();
}

// ----------------------------------------------------- seeding in rounds

namespace {

struct RoundsScratch {
    double *targets;         // k/2 + 1: the sampled positions in the cumulative mass
    int64_t *rows;           // k/2 + 1: the rows drawn in one round
    double *center_sqnorms;  // k
    BlockBuffers *buffers;   // one per slot: a block's dots with one round's centers
};

int64_t largest_round(int64_t k) { return std::max<int64_t>(1, k / 8); }

RoundsScratch carve_rounds(ScratchCarver &carver, const Dataset &data, const RowPartition &partition, int64_t k) {
    RoundsScratch s;
    s.targets = carver.take<double>(size_t(largest_round(k)));
    s.rows = carver.take<int64_t>(size_t(largest_round(k)));
    s.center_sqnorms = carver.take<double>(size_t(k));
    s.buffers = carve_block_buffers(carver, data, partition, largest_round(k));
    return s;
}

// Draws up to `count` distinct rows ∝ w_i·D_i² (∝ w_i when `first` or when
// every row sits on a center); returns how many.
int64_t draw_round(Rng &rng, const Dataset &data, const RoundsScratch &s, int64_t count, bool first,
                   const double *min_sqdist) {
    const auto weight = [&](int64_t i) { return weight_of(data, i); };
    const auto potential = [&](int64_t i) { return weight_of(data, i) * min_sqdist[i]; };
    if (first || !sample_rows(rng, data.n, potential, count, s.targets, s.rows))
        sample_rows(rng, data.n, weight, count, s.targets, s.rows);
    return std::unique(s.rows, s.rows + count) - s.rows;
}

// D_i² = min(D_i², ‖x_i − c‖²) over the round's centers c (GEMM form, clamped at 0).
void lower_to_round(const Dataset &data, const RowPartition &partition, const RoundsScratch &s, const CenterSet &round,
                    const double *row_sqnorms, double *min_sqdist) {
    for_each_block(partition, [&](int slot, int64_t begin, int64_t end) {
        double *dots = s.buffers[slot].dots;
        center_dot_products(dense_rows(data, begin, end, s.buffers[slot].rows), end - begin, round, dots);
        for (int64_t i = begin; i < end; ++i, dots += round.k) {
            double lowest = min_sqdist[i];
            for (int64_t c = 0; c < round.k; ++c)
                lowest = std::min(lowest, std::max(0.0, row_sqnorms[i] + round.sqnorms[c] - 2 * dots[c]));
            min_sqdist[i] = lowest;
        }
    });
}

}  // namespace

void seed_kmeans_in_rounds(Context &ctx, Arena &scratch, const Dataset &data, const RowPartition &partition, int64_t k,
                           const double *row_sqnorms, double *centers, double *min_sqdist, int64_t *seed_rows) {
    const ArenaScope scope(scratch);
    ScratchCarver carver(scratch);
    const RoundsScratch s = carve_rounds(carver, data, partition, k);
    Rng rng(ctx.seed);
    std::fill(min_sqdist, min_sqdist + data.n, std::numeric_limits<double>::infinity());
    for (int64_t chosen = 0; chosen < k;) {
        ctx.check_cancel();
        const int64_t wanted = chosen == 0 ? 1 : std::min({chosen, k - chosen, largest_round(k)});
        const int64_t drawn = draw_round(rng, data, s, wanted, chosen == 0, min_sqdist);
        for (int64_t c = 0; c < drawn; ++c) {
            double *center = centers + (chosen + c) * data.d;
            data.copy_rows(s.rows[c], s.rows[c] + 1, center);
            s.center_sqnorms[chosen + c] = squared_norm(center, data.d);
            if (seed_rows) seed_rows[chosen + c] = s.rows[c];
        }
        const CenterSet round{centers + chosen * data.d, s.center_sqnorms + chosen, drawn, data.d};
        lower_to_round(data, partition, s, round, row_sqnorms, min_sqdist);
        chosen += drawn;
    }
}

size_t kmeans_rounds_seeding_workspace_bytes(const Dataset &data, const RowPartition &partition, int64_t k) {
    ScratchCarver sizing;
    carve_rounds(sizing, data, partition, k);
    return sizing.bytes();
}

}  // namespace kmx::cluster
