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

/* lit_odds, with a choice of how, which the tests compare: INFER_MERGE,
 * seats nothing tells apart share a field (docs/DEDUCTION.md "Merged
 * seats"); INFER_DENSE, the layers may be dense arrays ("Dense layers");
 * INFER_POOL, the free cards of sets with clauses join the free sets' ("The
 * pool"); INFER_STEPS, a block's layers may come by card steps where those
 * cost less than its vectors ("Card steps"), and INFER_STEPS_ALWAYS, by
 * card steps wherever the steps can take its clauses; INFER_NARROW, the
 * hot loops work in two words where every count is below 2^128 ("Two
 * words"); INFER_HORNER, a block's named cards go by Horner steps where
 * they are alike and those cost less than the terms ("Horner steps");
 * INFER_AHEAD, a block's G may also pair a layer one block further out,
 * ahead (from the F before it) or behind (from the layer after the next
 * block), where that costs less ("Which side G goes over"; with
 * INFER_STEPS_ALWAYS, ahead for two blocks of every three and behind
 * wherever it can go for the rest, and no block that goes by steps goes
 * forward vector by vector); INFER_DERIV, a block of alike cards by
 * Horner steps may give its marginals by derivatives of those and G only
 * where the claims look it up, where that costs less ("Marginals by
 * derivatives"; with INFER_STEPS_ALWAYS, wherever it can go, and then no
 * block's G goes ahead). lit_odds does all but INFER_STEPS_ALWAYS.
 * The figures are the same either way. */
enum {
    INFER_MERGE = 1,
    INFER_DENSE = 2,
    INFER_POOL = 4,
    INFER_STEPS = 8,
    INFER_STEPS_ALWAYS = 16,
    INFER_NARROW = 32,
    INFER_HORNER = 64,
    INFER_AHEAD = 128,
    INFER_DERIV = 256
};
int infer_odds(const LitKnow *k, void *work, size_t work_size, LitOdds *odds, unsigned how);

#endif
