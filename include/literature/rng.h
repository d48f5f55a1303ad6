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

#include <stdint.h>

typedef struct LitRng {
    uint64_t s[4];
} LitRng;

void lit_rng_seed(LitRng *rng, uint64_t seed);

uint64_t lit_rng_next(LitRng *rng);

/* Uniform in [0, n); n must be at least 1. */
uint32_t lit_rng_below(LitRng *rng, uint32_t n);

/* A seed derived from (seed, index) for the index-th game or stream of a run:
 * splitmix64's finalizer of seed + (index + 1) * golden gamma. */
uint64_t lit_seed_mix(uint64_t seed, uint64_t index);

#endif
