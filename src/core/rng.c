/* rng.c - xoshiro256** seeded by splitmix64; frozen (see rng.h). */
#include "literature/rng.h"

static const uint64_t GOLDEN_GAMMA = UINT64_C(0x9e3779b97f4a7c15);

static uint64_t mix64(uint64_t z)
{
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

void lit_rng_seed(LitRng *rng, uint64_t seed)
{
    uint64_t x = seed;
    for (int i = 0; i < 4; i++) {
        x += GOLDEN_GAMMA;
        rng->s[i] = mix64(x);
    }
}

uint64_t lit_seed_mix(uint64_t seed, uint64_t index)
{
    return mix64(seed + (index + 1) * GOLDEN_GAMMA);
}
