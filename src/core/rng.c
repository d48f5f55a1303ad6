/* rng.c - xoshiro256** seeded by splitmix64; frozen (see rng.h). */
#include "literature/rng.h"

#include <assert.h>

static const uint64_t GOLDEN_GAMMA = UINT64_C(0x9e3779b97f4a7c15);

static uint64_t mix64(uint64_t z)
{
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

static uint64_t rotl(uint64_t x, int k)
{
    return (x << k) | (x >> (64 - k));
}

void lit_rng_seed(LitRng *rng, uint64_t seed)
{
    uint64_t x = seed;
    for (int i = 0; i < 4; i++) {
        x += GOLDEN_GAMMA;
        rng->s[i] = mix64(x);
    }
}

uint64_t lit_rng_next(LitRng *rng)
{
    uint64_t *s = rng->s;
    uint64_t result = rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

uint32_t lit_rng_below(LitRng *rng, uint32_t n)
{
    assert(n >= 1);
    uint64_t bound = n;
    for (;;) {
        uint64_t x = lit_rng_next(rng);
        /* Draws below (2^64 - n) mod n would make x mod n biased. That
         * threshold is below n, so x >= n needs no division to accept. */
        if (x >= bound || x >= (0 - bound) % bound)
            return (uint32_t)(x % bound);
    }
}

uint64_t lit_seed_mix(uint64_t seed, uint64_t index)
{
    return mix64(seed + (index + 1) * GOLDEN_GAMMA);
}
