/* steps.c - card steps (INFER_STEPS; docs/DEDUCTION.md "Card steps"): a
 * block's layer card by card, its clauses by inclusion-exclusion
 * (counting.h has Steps), where that costs less than its vectors; and
 * INFER_STEPS_ALWAYS, the tests' switch that sends every technique
 * wherever it can go. */
#include "counting.h"

int steps_always(const Ctx *cx)
{
    return (cx->how & INFER_STEPS_ALWAYS) != 0;
}

/* The work of b's card steps a state (the fields a card may go to, per
 * step; a Horner step in rest, its fields; a shift, one), to weigh against
 * its vectors. */
uint64_t steps_work(const Steps *st, const Ctx *cx, const Block *b)
{
    uint64_t work = 0;
    for (int i = 0; i < st->named; i++)
        work += (uint64_t)lit_popcount(b->cand[st->card[i]]);
    for (unsigned t = 0; t < 1u << st->nc; t++) {
        if (t & st->inner)
            continue;
        for (int i = st->named; i < st->alike; i++)
            work += (uint64_t)lit_popcount(term_fields(st, b, t, i));
        if (st->inner) {
            Horner h;
            horner_of(st, cx, horner_fields(st, b, t), &h);
            work += (uint64_t)(h.top > 0 ? h.top : 0) * (uint64_t)lit_popcount(h.rest) +
                    h.level[h.top + 1];
        } else {
            for (int i = st->alike; i < st->n; i++)
                work += (uint64_t)lit_popcount(term_fields(st, b, t, i));
        }
    }
    return work;
}

/* The card steps of b: 0, or -1 when it has more clauses than they take.
 * With INFER_HORNER, the inner clauses that cost the least: those of the
 * cards of one clause when they are alike (horner_candidates), or none. */
static int steps_init(Steps *st, const Ctx *cx, const Block *b)
{
    const LitKnow *k = cx->k;
    Walk wk;
    walk_init(&wk, k, b, &cx->lay, b->cand, cx->slots, ~0u);
    if (wk.nc > STEP_CLAUSES)
        return -1;
    memset(st, 0, sizeof *st);
    st->nc = wk.nc;
    uint8_t named = 0;
    for (int i = 0; i < wk.nc; i++) {
        named |= wk.cmask[i];
        st->cseat[i] = wk.cseat[i];
        st->cneed[i] = wk.cneed[i];
    }
    for (int pass = 0; pass < 2; pass++)
        for (int c = 0; c < b->n; c++)
            if ((named >> b->pos[c] & 1) == pass)
                st->card[st->n++] = c;
    st->named = 0;
    while (st->named < st->n && !(named >> b->pos[st->card[st->named]] & 1))
        st->named++;
    st->alike = st->n;
    /* Term S: the deals that break every clause of S (with sign (-1)^|S|):
     * "seat holds one of C" broken, no card of C there; "seat lacks one of
     * L" broken, every card of L there. */
    for (unsigned t = 0; t < 1u << st->nc; t++)
        for (int c = 0; c < b->n; c++) {
            st->keep[t][c] = ~0u;
            for (int i = 0; i < st->nc; i++)
                if ((t >> i & 1) && (wk.cmask[i] >> b->pos[c] & 1)) {
                    if (wk.cneed[i])
                        st->drop[t][c] |= 1u << wk.cseat[i];
                    else
                        st->keep[t][c] &= 1u << wk.cseat[i];
                }
        }
    const Dense *d = &cx->dense;
    for (int f = 0; f < cx->lay.n; f++)
        for (int i = 0; i < d->n; i++)
            if (d->off[i] == cx->lay.off[f])
                st->stride[f] = d->stride[i];
    Steps try[STEP_CLAUSES];
    int n = horner_candidates(st, cx, b, &wk, try);
    if (n == 0)
        return 0;
    Steps best = *st;
    uint64_t least = steps_work(st, cx, b);
    for (int i = 0; i < n; i++) {
        uint64_t work = steps_work(&try[i], cx, b);
        if (work < least) {
            least = work;
            best = try[i];
        }
    }
    *st = best;
    return 0;
}

/* Whether block b goes by card steps (st, from steps_init): with dense
 * layers, clauses the steps take, and less work a state than its vectors
 * (or always, with INFER_STEPS_ALWAYS: the tests). */
int steps_choose(const Ctx *cx, Steps *st, const Block *b)
{
    if (!cx->use_dense || !(cx->how & (INFER_STEPS | INFER_STEPS_ALWAYS)) ||
        steps_init(st, cx, b))
        return 0;
    return (cx->how & INFER_STEPS_ALWAYS) || steps_work(st, cx, b) < b->n_vec;
}

/* steps_run on t itself: the states from the highest index down, so that
 * every state a step writes (at its own index or above) has been read
 * already (step_in_place). */
static inline __attribute__((always_inline)) void
steps_run_in_place(const Ctx *cx, Table *t, const StepFields *sf, const int n, const int narrow)
{
    uint64_t guard = cx->lay.guard, top = (cx->slots | guard) - cx->lay.ones;
    for (uint32_t k = occ_words(t); k-- > 0;) {
        /* (the states this step adds to the word are above every one left
         * in bits) */
        for (uint64_t bits = t->occ[k]; bits;) {
            int b = occ_msb(bits);
            bits ^= UINT64_C(1) << b;
            step_in_place(t, k << 6 | (uint32_t)b, top, guard, sf, n, narrow);
        }
    }
}

/* A card step of t into itself (see steps_card). */
static void steps_card_in_place(const Ctx *cx, const Steps *st, Table *t, unsigned allow)
{
    StepFields sf;
    step_fields(cx, st->stride, allow, &sf);
#define RUN(k)                                                                            \
    (cx->narrow ? steps_run_in_place(cx, t, &sf, k, 1) : steps_run_in_place(cx, t, &sf, k, 0))
    BY_FIELDS(sf.n, RUN)
#undef RUN
}

/* The states of in stepped into the n fields of one (n a constant where
 * this is inlined, so the loop over the fields unrolls). room: the fields
 * with room for one more card, from one subtraction (see fits). */
static inline __attribute__((always_inline)) void
steps_run(const Ctx *cx, const Table *in, Table *consume, const StepFields *sf, const int n,
          Table *out, int sign, const int narrow)
{
    uint64_t guard = cx->lay.guard, top = (cx->slots | guard) - cx->lay.ones;
    for (uint32_t k = 0; k < occ_words(in); k++) {
        uint64_t bits = in->occ[k];
        if (consume)
            consume->occ[k] = 0;
        for (; bits; bits &= bits - 1) {
            uint32_t i = k << 6 | (uint32_t)lit_lsb(bits);
            uint64_t x = dense_vec(in, i), room = (top - x) & guard;
            if (consume)
                consume->sum[i] = 0;
            LitU192 a = val_get_n(in, i, narrow);
            if (sign < 0)
                neg_in(&a);
#pragma GCC unroll 12 /* (n is a constant: one copy a field) */
            for (int f = 0; f < n; f++)
                if (room & sf->gbit[f])
                    add_dense(out, i + sf->stride[f], x + sf->one[f], &a, narrow);
        }
    }
}

/* One card step: out (+= or -=, by sign) the ways in gives each vector with
 * one more card, in one of the fields of allow. Dense tables. consume is
 * in or NULL: in is then left empty (a buffer of the steps, cleared as it
 * is read rather than by a pass of its own). A term to subtract is added
 * negated (mod 2^192, or mod 2^128 when narrow: the word above is then
 * zero throughout, see words.c). */
void steps_card(const Ctx *cx, const Steps *st, const Table *in, Table *consume,
                unsigned allow, Table *out, int sign)
{
    StepFields sf;
    step_fields(cx, st->stride, allow, &sf);
#define RUN(k)                                                                            \
    (cx->narrow ? steps_run(cx, in, consume, &sf, k, out, sign, 1)                        \
                : steps_run(cx, in, consume, &sf, k, out, sign, 0))
    BY_FIELDS(sf.n, RUN)
#undef RUN
    if (consume)
        consume->count = 0;
}

/* Counts a layer made by st's steps in LitOdds's horner and mixed. */
void steps_count(const Steps *st, uint32_t *horner, uint32_t *mixed)
{
    *horner += st->inner != 0;
    *mixed += st->inner != 0 && st->inner != (1u << st->nc) - 1;
}

/* Drops the states of t, which holds depth of the block's cards, that
 * keep does not mark (prune.c): none when keep is NULL. */
static void keep_at(Table *t, const uint64_t *const *keep, int depth)
{
    if (keep && keep[depth])
        table_keep(t, keep[depth]);
}

/* out = the ways block b and what next counts give each vector, by card
 * steps: dense tables, two of them in w for the steps (the cards no clause
 * names, then each term's), each step after a buffer's first in place.
 * With keep, a table that holds k of the block's cards keeps only the
 * states keep[k] marks (for 0 < k < the block's cards). 0, or -1 when w
 * cannot hold them. */
int steps_back(const Ctx *cx, const Steps *st, const Block *b, const Table *next,
               Table *out, LitWork w, const uint64_t *const *keep)
{
    /* The term's buffer starts empty and is left empty by each term's
     * last step, which reads it into out. Each is emptied only where it
     * is used (clearing a dense table writes a byte a slot): the first
     * where some card no clause names is stepped, the second where there
     * are terms. */
    Table buf[2];
    for (int i = 0; i < 2; i++)
        if (dense_take(&buf[i], &w, 1, cx))
            return -1;
    if (st->named > 0)
        table_clear(&buf[0]);
    if (st->named < st->n)
        table_clear(&buf[1]);
    /* the cards no clause names, once */
    const Table *common = next;
    for (int i = 0; i < st->named; i++) {
        unsigned allow = b->cand[st->card[i]];
        if (st->named == st->n && i == st->n - 1)
            steps_card(cx, st, common, common == next ? NULL : &buf[0], allow, out, 1);
        else if (common == next)
            steps_card(cx, st, next, NULL, allow, &buf[0], 1);
        else
            steps_card_in_place(cx, st, &buf[0], allow);
        common = &buf[0];
        keep_at(&buf[0], keep, i + 1);
    }
    if (st->named == st->n)
        return 0;
    /* the terms, each from there */
    Table *acc = &buf[1];
    Horner h;
    int m = st->n - st->alike; /* the alike cards */
    for (unsigned t = 0; t < 1u << st->nc; t++) {
        if (t & st->inner)
            continue;
        int sign = lit_popcount(t) & 1 ? -1 : 1, empty = 0, have = 0;
        for (int i = st->named; i < st->n; i++)
            empty |= term_fields(st, b, t, i) == 0;
        if (st->inner) {
            horner_of(st, cx, horner_fields(st, b, t), &h);
            empty |= h.top < 0;
        }
        if (empty)
            continue;
        if (st->inner) {
            /* the alike cards first: acc = Q_top common, then acc = rest
             * acc + Q_r common for each r below */
            for (int r = h.top; r >= 0; r--) {
                int last = r == 0 && st->alike == st->named;
                if (have && !last) {
                    horner_level(cx, st, &h, common, r, acc);
                    keep_at(acc, keep, st->named + m - r);
                    continue;
                }
                if (have)
                    steps_card(cx, st, acc, acc, h.rest, out, sign);
                horner_shift(cx, &h, common, r, last ? out : acc, last ? sign : 1);
                if (!last)
                    keep_at(acc, keep, st->named + m - r);
                have = 1;
            }
        }
        for (int i = st->named; i < st->alike; i++) {
            int last = i == st->alike - 1;
            unsigned allow = term_fields(st, b, t, i);
            if (!have)
                steps_card(cx, st, common, NULL, allow, last ? out : acc, last ? sign : 1);
            else if (last)
                steps_card(cx, st, acc, acc, allow, out, sign);
            else
                steps_card_in_place(cx, st, acc, allow);
            if (!last)
                keep_at(acc, keep, (st->inner ? m : 0) + i + 1);
            have = 1;
        }
    }
    /* the terms' vectors whose sum is no deal */
    for (uint32_t k = 0; k < occ_words(out); k++)
        for (uint64_t bits = out->occ[k]; bits; bits &= bits - 1) {
            uint32_t i = k << 6 | (uint32_t)lit_lsb(bits);
            LitU192 c = val_get(out, i);
            if (lit_u192_is_zero(&c))
                dense_drop(out, i);
        }
    return 0;
}

/* Whether block j's next F (with G in the same pass) should go vector by
 * vector from F_j of f states although the block goes by steps: where its
 * pairs are fewer than the steps' fields. Going forward the steps' layers
 * grow from F_j towards the next F, which holds at most the states of the
 * layer after j (the rest cannot be completed), so the steps are priced
 * on the larger of the two. Not under INFER_STEPS_ALWAYS (the tests). */
int steps_vectors(const Plan *pl, int j, uint32_t f)
{
    const Ctx *cx = &pl->cx;
    if (cx->how & INFER_STEPS_ALWAYS)
        return 0;
    uint64_t after = pl->layer[j + 1].count, grown = after > f ? after : f;
    uint64_t pairs = (uint64_t)f * pl->blocks[j].n_vec;
    uint64_t g = (after < f ? after : f) * (uint64_t)pl->blocks[j].n_vec;
    return VECTOR_PAIR * pairs < gpass_work(g, pl->step_work[j] * grown);
}
