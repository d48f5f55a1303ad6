/* gpass.c - G's pass (docs/DEDUCTION.md "Exact counting", step 3): G(v) =
 * sum over u of F(u) B(slots - u - v) for every vector v of a block, a
 * pass over one layer's states looking the other up, in chunks, in two
 * words where every count allows. */
#include "counting.h"

/* sum over the entries at[e0..e1) of F of F(u) B(slots - u - v), with
 * is_v the dense index of slots - v and after the layer B: the part of G(v)
 * that one chunk of F gives. Inlined twice, narrow or not (Ctx.narrow). */
static inline LitU192 g_chunk(const LitU192 *fv, const uint64_t *left, const Table *after,
                              const uint32_t *at, uint32_t e0, uint32_t e1, uint64_t guard,
                              uint64_t vec, uint32_t is_v, int narrow)
{
    LitU192 sum = lit_u192(0);
    for (uint32_t e = e0; e < e1; e++) {
        if (!fits(guard, vec, left[e]))
            continue;
        uint32_t ib = is_v - at[e];
        if (!after->sum[ib])
            continue;
        if (narrow) {
            LitU192 c = val_get_n(after, ib, 1), y = mul_low2(&fv[e], &c);
            add_in2(&sum, &y);
        } else {
            LitU192 c = val_get_n(after, ib, 0), y = mul_low(&fv[e], &c);
            add_in(&sum, &y);
        }
    }
    return sum;
}

/* g_chunk for two vectors at once in two words: each state of the chunk
 * read once for both. */
static inline void g_chunk_pair(const LitU192 *fv, const uint64_t *left, const Table *after,
                                const uint32_t *at, uint32_t e0, uint32_t e1, uint64_t guard,
                                const uint64_t vec[2], const uint32_t is_v[2], LitU192 sum[2])
{
    Sum2 s0 = sum2_zero(), s1 = sum2_zero();
    for (uint32_t e = e0; e < e1; e++) {
        uint64_t l = left[e];
        uint32_t i = at[e];
        if (fits(guard, vec[0], l)) {
            uint32_t ib = is_v[0] - i;
            if (after->sum[ib]) {
                LitU192 c = val_get_n(after, ib, 1), y = mul_low2(&fv[e], &c);
                sum2_add(&s0, &y);
            }
        }
        if (fits(guard, vec[1], l)) {
            uint32_t ib = is_v[1] - i;
            if (after->sum[ib]) {
                LitU192 c = val_get_n(after, ib, 1), y = mul_low2(&fv[e], &c);
                sum2_add(&s1, &y);
            }
        }
    }
    sum[0] = sum2_get(s0);
    sum[1] = sum2_get(s1);
}

/* g[v] = G(v) = sum over u of F(u) B(slots - u - v) for every vector v of
 * b, with after the layer B: F's entries packed in index order (their
 * counts and what is left of the slots beside them), then a pass over
 * them in chunks, vector by vector (two at a time in two words). 0, or
 * -1 when w cannot hold the packed entries. */
int gpass_run(const Ctx *cx, const Table *f, const Block *b, const Table *after, LitU192 *g,
              LitWork w)
{
    uint64_t guard = cx->lay.guard, slots = cx->slots;
    const uint32_t *at = table_entries(f, &w);
    uint32_t *iv, *order;
    LitU192 *fv = lit_work_take(&w, sizeof(LitU192) * (f->count + 1u));
    uint64_t *left = lit_work_take(&w, sizeof(uint64_t) * (f->count + 1u));
    if (!at || !fv || !left ||
        dense_order(&cx->dense, &b->vec[0].v, sizeof(Vec) / sizeof(uint64_t), b->n_vec, &w, &iv,
                    &order))
        return -1;
    for (uint32_t e = 0; e < f->count; e++) {
        fv[e] = val_get(f, at[e]);
        left[e] = slots - dense_vec(f, at[e]);
    }
    uint32_t is = dense_index(&cx->dense, slots);
    memset(g, 0, sizeof(LitU192) * b->n_vec);
    for (uint32_t e0 = 0; e0 < f->count; e0 += CHUNK) {
        uint32_t e1 = f->count - e0 < CHUNK ? f->count : e0 + CHUNK;
        uint32_t o = 0;
        for (; cx->narrow && o + 1 < b->n_vec; o += 2) {
            uint32_t v[2] = {order[o], order[o + 1]};
            uint64_t vec[2] = {b->vec[v[0]].v, b->vec[v[1]].v};
            uint32_t is_v[2] = {is - iv[v[0]], is - iv[v[1]]};
            LitU192 sum[2];
            g_chunk_pair(fv, left, after, at, e0, e1, guard, vec, is_v, sum);
            add_in(&g[v[0]], &sum[0]);
            add_in(&g[v[1]], &sum[1]);
        }
        for (; o < b->n_vec; o++) {
            uint32_t v = order[o];
            uint64_t vec = b->vec[v].v;
            LitU192 sum;
            if (cx->narrow)
                sum = g_chunk(fv, left, after, at, e0, e1, guard, vec, is - iv[v], 1);
            else
                sum = g_chunk(fv, left, after, at, e0, e1, guard, vec, is - iv[v], 0);
            add_in(&g[v], &sum);
        }
    }
    return 0;
}

/* gpass_run over the smaller of F and the layer after, looking the other up
 * (counted in LitOdds.turned when it is the layer after). */
int gpass_direct(const Ctx *cx, const Table *f, const Block *b, const Table *after,
                 LitU192 *g, LitWork w, LitOdds *odds)
{
    if (after->count < f->count) {
        odds->turned++;
        return gpass_run(cx, after, b, f, g, w);
    }
    return gpass_run(cx, f, b, after, g, w);
}

/* A pass's pairs and a step's fields, in a common unit: a card step's
 * field costs about one and a half of G's pairs (perf at bench/corpus/8). */
uint64_t gpass_work(uint64_t pairs, uint64_t fields)
{
    return 2 * pairs + 3 * fields;
}
