/* free.h - what odds.c and estimate.c share inside src/infer: which sets
 * are free (docs/DEDUCTION.md "Free sets"), and lit_odds with a choice the
 * tests use. Not part of the public API. */
#ifndef LIT_INFER_FREE_H
#define LIT_INFER_FREE_H

#include <stdint.h>

#include "literature/infer.h"

/* The live cards no seat is known to hold. */
uint64_t infer_unplaced(const LitKnow *k);

/* The sets (bit = set) that are free: no clause, and every unplaced card
 * possible at every seat with room. Their cards are exchangeable. */
unsigned infer_free_sets(const LitKnow *k);

/* lit_odds, with merge 0: every seat a field of its own (no merged seats,
 * docs/DEDUCTION.md "Merged seats"), which the tests compare with. */
int infer_odds(const LitKnow *k, void *work, size_t work_size, LitOdds *odds, int merge);

#endif
