/* bench_odds.h - `lit bench --odds` and `--sample` (see cmd_bench.c). */
#ifndef LIT_CLI_BENCH_ODDS_H
#define LIT_CLI_BENCH_ODDS_H

#include <stdint.h>

typedef struct OddsBench {
    uint64_t games;          /* self-played games per player count */
    int only;                /* only this player count (0: all) */
    int public_view;         /* the public view instead of seat 1's */
    int sample;              /* also time exact sampling */
    int cover;               /* also check the estimate's standard errors
                              * against the exact figures (--coverage) */
    uint32_t samples;        /* draws of an estimate beyond the budget */
    const char *corpus[16];  /* folders of records instead of self-play */
    int n_corpus;
    int slowest;             /* list this many of the slowest exact positions */
    int repeat;              /* time each position this many times, keep the fastest */
    int threads;             /* 2: lend each count a helper thread (lit_odds_helped) */
} OddsBench;

/* Prints the table; 0, or 1 with a message. */
int bench_odds(const OddsBench *ob);

#endif
