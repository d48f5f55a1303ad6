/* words.c - counts in two words (INFER_NARROW; docs/DEDUCTION.md "Two
 * words"): whether every count the program forms is below 2^128, so that
 * the hot loops keep the top word zero (counting.h has the arithmetic in
 * two words and in three). */
#include "counting.h"

void words_choose(Ctx *cx, uint64_t unplaced)
{
    uint64_t slots = cx->slots;
    /* Every count the program forms (a table entry, a term of the card
     * steps, a product of F and a layer, a sum of them) counts placements
     * of some of the unplaced cards on the fields within their slots, so it
     * is at most the ways to spread all of them, cards! / prod slots!. When
     * that is below 2^128, the hot loops keep the top word zero and work in
     * two (mod 2^128, exact since the true values are below it): at 8
     * players from a seat it is at most 42! / 6!^7, about 2^104. */
    LitU192 every = free_spread(cx, slots, lit_popcount(unplaced));
    cx->narrow = (cx->how & INFER_NARROW) && every.w[2] == 0;
    cx->roomy = cx->narrow ? every.w[1] >> 61 == 0 : every.w[2] >> 61 == 0;
}
