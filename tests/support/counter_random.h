/* counter_random.h - a hub's random source for tests and fuzzing (HubConfig's
 * random): bytes from a counter, so two hubs given the same state draw the
 * same codes, tokens and seeds, and a fuzzer's run repeats exactly. */
#ifndef LIT_TEST_COUNTER_RANDOM_H
#define LIT_TEST_COUNTER_RANDOM_H

#include <stddef.h>
#include <stdint.h>

static inline int counter_random(void *buf, size_t len, void *ctx)
{
    uint64_t *state = ctx;
    unsigned char *p = buf;
    for (size_t i = 0; i < len; i++) {
        *state = *state * 6364136223846793005u + 1442695040888963407u;
        p[i] = (unsigned char)(*state >> 56);
    }
    return 0;
}

#endif
