/* sample.c - exact uniform sampling of the deals consistent with a view
 * (see infer.h and docs/DEDUCTION.md "Sampling"), over the plan that
 * exact counting builds (plan.c). */
#include "counting.h"

#include "literature/rng.h"
#include "literature/status.h"

/* A draw walks the backward layers: with r the vector still to give (the
 * slots, or under conv the part the blocks give), block j gives v with
 * probability n_v B_{j+1}(r - v) / B_j(r), one of its n_v placements with
 * that vector uniformly; the free cards are then shuffled into what is
 * left. Every deal comes out with probability 1 / total: the weights are
 * the exact counts, and each choice is an exact draw below a 192-bit count. */
struct LitSampler {
    LitKnow k;
    Plan plan;
};

int lit_sampler_init(LitSampler **sampler, const LitKnow *k, void *work, size_t work_size)
{
    if (!k->consistent)
        return LIT_INCONSISTENT;
    LitWork w = lit_work_of(work, work_size);
    LitSampler *sp = lit_work_take(&w, sizeof *sp);
    if (!sp)
        return LIT_NO_SPACE;
    sp->k = *k;
    int built = plan_build(&sp->plan, &sp->k, &w, 1,
                           INFER_MERGE | INFER_DENSE | INFER_POOL | INFER_STEPS, plan_budget(k));
    if (built == PLAN_OVER || built == PLAN_BUDGET)
        return LIT_NO_SPACE;
    if (built == PLAN_NONE)
        return LIT_INCONSISTENT;
    *sampler = sp;
    return LIT_OK;
}

LitU192 lit_sampler_deals(const LitSampler *sampler)
{
    return sampler->plan.deals;
}

/* Uniform in [0, n), n > 0: draws of n's bit length until one is below. */
static LitU192 below(LitRng *rng, const LitU192 *n)
{
    int bits = 0;
    for (int i = 2; i >= 0 && !bits; i--)
        for (int b = 63; b >= 0; b--)
            if (n->w[i] >> b & 1) {
                bits = 64 * i + b + 1;
                break;
            }
    for (;;) {
        LitU192 x = lit_u192(0);
        for (int i = 0; i < 3 && 64 * i < bits; i++) {
            int left = bits - 64 * i;
            x.w[i] = left >= 64 ? lit_rng_next(rng) : lit_rng_next(rng) >> (64 - left);
        }
        if (lit_u192_cmp(&x, n) < 0)
            return x;
    }
}

/* Whether x falls in the next weight: acc += weight, then x < acc. */
static int lands(LitU192 *acc, const LitU192 *weight, const LitU192 *x)
{
    lit_u192_add(acc, acc, weight);
    return lit_u192_cmp(x, acc) < 0;
}

void lit_sampler_draw(const LitSampler *sampler, LitRng *rng, uint64_t hands[LIT_MAX_PLAYERS])
{
    const Plan *pl = &sampler->plan;
    const LitKnow *k = &sampler->k;
    const Ctx *cx = &pl->cx;
    const Layout *lay = &cx->lay;
    int players = cx->players, deck = k->pub.rules.deck;
    uint64_t r = cx->slots, in[LIT_MAX_PLAYERS] = {0}; /* the cards of each field */
    if (pl->conv) {
        /* the part the blocks give, weighted by the ways to spread the
         * free cards over the rest */
        LitU192 x = below(rng, &pl->total), acc = lit_u192(0);
        const Table *t = &pl->layer[0];
        for (uint32_t i = 0; i < t->cap; i++) {
            if (!slot_full(t, i) || !fits(lay->guard, slot_vec(t, i), cx->slots))
                continue;
            LitU192 ways = free_spread(cx, cx->slots - slot_vec(t, i), pl->conv), weight,
                    c = val_get(t, i);
            lit_u192_mul(&weight, &c, &ways);
            if (lands(&acc, &weight, &x)) {
                r = slot_vec(t, i);
                break;
            }
        }
    }
    for (int j = 0; j < pl->nb; j++) {
        const Block *b = &pl->blocks[j];
        LitU192 here = lit_u192(0), acc = lit_u192(0);
        lookup(&pl->layer[j], r, &here);
        LitU192 x = below(rng, &here);
        uint32_t v = 0;
        for (; v < b->n_vec; v++) {
            if (!fits(lay->guard, b->vec[v].v, r))
                continue;
            LitU192 after;
            if (!lookup(&pl->layer[j + 1], r - b->vec[v].v, &after))
                continue;
            LitU192 weight = times(&after, b->vec[v].n);
            if (lands(&acc, &weight, &x))
                break;
        }
        uint32_t pick = b->list[b->start[v] + lit_rng_below(rng, (uint32_t)b->vec[v].n)];
        int unit[LIT_MAX_SET_SIZE];
        uint64_t given;
        walk_decode(lay, b, pick, unit, &given);
        for (int c = 0; c < b->n; c++)
            in[unit[c]] |= lit_bit(lit_set_first(deck, b->set) + b->pos[c]);
        r -= b->vec[v].v;
    }
    /* The free cards, shuffled into what is left of every field. */
    uint8_t cards[LIT_MAX_CARDS];
    int n = 0;
    for (uint64_t m = pl->free_cards; m;)
        cards[n++] = (uint8_t)lit_pop_lsb(&m);
    for (int f = 0; f < lay->n; f++) {
        int want = unit_count(lay, cx->slots, f) - lit_popcount(in[f]);
        for (int i = 0; i < want; i++) {
            int at = (int)lit_rng_below(rng, (uint32_t)n);
            in[f] |= lit_bit(cards[at]);
            cards[at] = cards[--n];
        }
    }
    /* Each field's cards dealt to its seats: every split equally likely,
     * and every deal of the fields has as many splits (fields_splits()), so every
     * deal of the seats comes out with the same probability. */
    memset(hands, 0, sizeof(uint64_t) * LIT_MAX_PLAYERS);
    for (int f = 0; f < lay->n; f++) {
        unsigned seats = cx->members[f];
        if (!(cx->merged >> f & 1)) {
            hands[lit_lsb(seats)] = in[f];
            continue;
        }
        n = 0;
        for (uint64_t m = in[f]; m;)
            cards[n++] = (uint8_t)lit_pop_lsb(&m);
        for (; seats; seats &= seats - 1) {
            int s = lit_lsb(seats);
            for (int i = 0; i < k->slots[s]; i++) {
                int at = (int)lit_rng_below(rng, (uint32_t)n);
                hands[s] |= lit_bit(cards[at]);
                cards[at] = cards[--n];
            }
        }
    }
    for (int s = 0; s < players; s++)
        hands[s] |= k->held[s];
}
