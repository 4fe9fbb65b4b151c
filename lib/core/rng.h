// rng.h — a small, fast, seeded random generator (xoshiro256** seeded by
// splitmix64). The same seed gives the same stream on every platform.
#pragma once
#include <cstdint>

namespace kmx {

class Rng {
public:
    explicit Rng(uint64_t seed) {
        uint64_t x = seed;
        for (uint64_t &word : state_) word = splitmix64(x);
    }
    // A generator for sub-stream `stream` (e.g. one per thread or per task),
    // independent of how many streams are used.
    Rng split(uint64_t stream) const { return Rng(state_[0] ^ splitmix_mix(stream + 0x9E3779B97F4A7C15ull)); }

    uint64_t next_u64() {
        const uint64_t result = rotl(state_[1] * 5, 7) * 9;
        const uint64_t t = state_[1] << 17;
        state_[2] ^= state_[0];
        state_[3] ^= state_[1];
        state_[1] ^= state_[2];
        state_[0] ^= state_[3];
        state_[2] ^= t;
        state_[3] = rotl(state_[3], 45);
        return result;
    }
    // Uniform in [0, 1) with 53 random bits.
    double uniform() { return (next_u64() >> 11) * 0x1.0p-53; }
    // Uniform integer in [0, bound), bound > 0 (Lemire's nearly-divisionless method).
    uint64_t below(uint64_t bound) {
        __uint128_t m = static_cast<__uint128_t>(next_u64()) * bound;
        uint64_t low = static_cast<uint64_t>(m);
        if (low < bound) {
            const uint64_t threshold = (0 - bound) % bound;
            while (low < threshold) {
                m = static_cast<__uint128_t>(next_u64()) * bound;
                low = static_cast<uint64_t>(m);
            }
        }
        return static_cast<uint64_t>(m >> 64);
    }

private:
    static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
    static uint64_t splitmix_mix(uint64_t z) {
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return z ^ (z >> 31);
    }
    static uint64_t splitmix64(uint64_t &x) {
        x += 0x9E3779B97F4A7C15ull;
        return splitmix_mix(x);
    }
    uint64_t state_[4];
};

}  // namespace kmx
