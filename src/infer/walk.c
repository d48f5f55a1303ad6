/* walk.c - a depth-first walk over a block's placements (counting.h has
 * Walk), each clause checked once its last card is placed, and the
 * placement of an index. */
#include "counting.h"

/* A walk over the units of lay, with the block's candidates cand (b->cand
 * for fields, b->seat_cand for seats), within slots, each card only in the
 * units of allow. */
void walk_init(Walk *w, const LitKnow *k, const Block *b, const Layout *lay,
               const unsigned *cand, uint64_t slots, unsigned allow)
{
    memset(w, 0, sizeof *w);
    w->b = b;
    w->lay = lay;
    w->cand = cand;
    w->slots = slots;
    uint32_t radix = 1;
    for (int c = 0; c < b->n; c++) {
        w->allow[c] = cand[c] & allow;
        w->radix[c] = radix;
        radix *= (uint32_t)lit_popcount(cand[c]);
    }
    for (int s = 0; s < k->pub.rules.players; s++) {
        for (int i = 0; i < k->n_need[s][b->set]; i++, w->nc++) {
            w->cseat[w->nc] = lay->unit_of[s];
            w->cmask[w->nc] = k->need[s][b->set][i];
            w->cneed[w->nc] = 1;
        }
        for (int i = 0; i < k->n_lack[s][b->set]; i++, w->nc++) {
            w->cseat[w->nc] = lay->unit_of[s];
            w->cmask[w->nc] = k->lack[s][b->set][i];
            w->cneed[w->nc] = 0;
        }
    }
    int last[2 * LIT_MAX_PLAYERS * LIT_KNOW_CLAUSES], count[LIT_MAX_SET_SIZE + 1] = {0};
    for (int i = 0; i < w->nc; i++) {
        last[i] = b->n;
        for (int c = 0; c < b->n; c++)
            if (w->cmask[i] >> b->pos[c] & 1)
                last[i] = c;
        count[last[i]]++;
    }
    w->cfirst[0] = 0;
    for (int c = 0; c <= b->n; c++)
        w->cfirst[c + 1] = (uint16_t)(w->cfirst[c] + count[c]);
    uint16_t at[LIT_MAX_SET_SIZE + 1];
    memcpy(at, w->cfirst, sizeof at);
    for (int i = 0; i < w->nc; i++)
        w->corder[at[last[i]]++] = (uint16_t)i;
}

/* Whether the clauses checked at card c (all of them named cards placed)
 * hold. */
static inline int clauses_hold(const Walk *w, int c)
{
    for (int i = w->cfirst[c]; i < w->cfirst[c + 1]; i++) {
        int k = w->corder[i];
        uint8_t got = w->here[w->cseat[k]] & w->cmask[k];
        if (w->cneed[k] ? got == 0 : got == w->cmask[k])
            return 0;
    }
    return 1;
}

/* Walks cards c.. of the placement with vector v so far: 0, or what a
 * visit returned. A "holds one of" clause fails when its seat got none of
 * its cards, a "lacks one of" clause when its seat got them all; each is
 * checked once its last card is placed, so a failing branch ends there. */
int walk_run(Walk *w, int c, uint64_t v, uint32_t index)
{
    const Block *b = w->b;
    if (c == b->n)
        return clauses_hold(w, c) ? w->visit(w, v, index) : 0;
    int pick = 0;
    for (unsigned m = w->cand[c]; m; m &= m - 1, pick++) {
        int s = lit_lsb(m);
        uint64_t one = unit_one(w->lay, s);
        if (!(w->allow[c] >> s & 1) || !fits(w->lay->guard, v + one, w->slots))
            continue;
        w->seat[c] = s;
        w->here[s] |= (uint8_t)(1u << b->pos[c]);
        uint32_t at = index + (uint32_t)pick * w->radix[c];
        int stop = clauses_hold(w, c) ? walk_run(w, c + 1, v + one, at) : 0;
        w->here[s] &= (uint8_t)~(1u << b->pos[c]);
        if (stop)
            return stop;
    }
    return 0;
}

/* The placement index i (mixed radix over the candidate fields) of a
 * block: the field of each card and the vector it gives the fields. */
void walk_decode(const Layout *lay, const Block *b, uint32_t i, int unit[LIT_MAX_SET_SIZE],
                 uint64_t *vector)
{
    *vector = 0;
    for (int c = 0; c < b->n; c++) {
        unsigned m = b->cand[c];
        int n = lit_popcount(m), pick = (int)(i % (uint32_t)n);
        i /= (uint32_t)n;
        unit[c] = lit_nth_card(m, pick);
        *vector += unit_one(lay, unit[c]);
    }
}
