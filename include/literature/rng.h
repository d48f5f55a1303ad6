/* rng.h - the seeded generator. Frozen: a seed gives the same numbers, and so
 * the same deal, in every version (test vectors in tests/unit/test_rng.c and
 * docs/RULES.md "Dealing").
 *
 * Generator: xoshiro256** (Blackman and Vigna), its state filled by four
 * outputs of splitmix64 started at the seed. Bounded draws are unbiased by
 * rejection: lit_rng_below(n) draws x until x >= (2^64 - n) mod n and returns
 * x mod n.
 */
#ifndef LITERATURE_RNG_H
#define LITERATURE_RNG_H

#include <assert.h>
#include <stdint.h>

typedef struct LitRng {
    uint64_t s[4];
} LitRng;

void lit_rng_seed(LitRng *rng, uint64_t seed);

/* In the header, to be inlined: a bot's rollout and self-play draw several
 * numbers an action. */
static inline uint64_t lit_rng_next(LitRng *rng)
{
    uint64_t *s = rng->s;
    uint64_t x = s[1] * 5, result = ((x << 7) | (x >> 57)) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = (s[3] << 45) | (s[3] >> 19);
    return result;
}

/* Uniform in [0, n); n must be at least 1. */
static inline uint32_t lit_rng_below(LitRng *rng, uint32_t n)
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

/* A seed derived from (seed, index) for the index-th game or stream of a run:
 * splitmix64's finalizer of seed + (index + 1) * golden gamma. */
uint64_t lit_seed_mix(uint64_t seed, uint64_t index);

#endif
