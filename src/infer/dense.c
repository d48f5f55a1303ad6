/* dense.c - dense layers (INFER_DENSE; docs/DEDUCTION.md "Dense
 * layers"): whether the layers and F are arrays at the dense index of
 * each vector (counting.h has Dense), and the passes vector by vector over
 * them in index order, backward (a layer) and forward (the next F and G
 * in one pass). */
#include "counting.h"

/* The packed vectors of the digits d0.. below d1 of index i * step, each
 * digit's field at its place, into out[i] for i below n. */
static void dense_part(const Dense *d, int d0, int d1, uint32_t step, uint32_t n, uint64_t *out)
{
    for (uint32_t i = 0; i < n; i++) {
        uint64_t v = 0;
        uint32_t x = i * step;
        for (int k = d1 - 1; k >= d0; k--) {
            uint32_t digit = x / d->stride[k];
            x -= digit * d->stride[k];
            v += (uint64_t)digit << d->off[k];
        }
        out[i] = v;
    }
}

/* Dense.lo and .hi, split at the digit that keeps the longer list
 * shortest: 0, or -1 when w cannot hold them. */
static int dense_lists(Dense *d, LitWork *w)
{
    int best = 0;
    uint64_t longest = UINT64_MAX;
    for (int k = 0; k <= d->n; k++) {
        uint64_t split = k < d->n ? d->stride[k] : d->size;
        uint64_t high = (d->size + split - 1) / split;
        if ((split > high ? split : high) < longest) {
            longest = split > high ? split : high;
            best = k;
        }
    }
    d->split = best < d->n ? d->stride[best] : d->size;
    /* the division by split as a product: exact for i below DENSE_MAX,
     * as i times the rounding (below split) stays below 2^DENSE_SHIFT */
    d->magic = ((UINT64_C(1) << DENSE_SHIFT) + d->split - 1) / d->split;
    uint32_t high = (d->size + d->split - 1) / d->split;
    uint64_t *lo = lit_work_take_n(w, d->split, sizeof(uint64_t));
    uint64_t *hi = lit_work_take_n(w, high, sizeof(uint64_t));
    if (!lo || !hi)
        return -1;
    dense_part(d, 0, best, 1, d->split, lo);
    dense_part(d, best, d->n, d->split, high, hi);
    d->lo = lo;
    d->hi = hi;
    return 0;
}

/* Under INFER_DENSE, the layers and F are dense (Dense) when the vectors
 * within the slots have at most DENSE_MAX indices and tables of that size
 * fit in what w has left (words_choose first: a narrow count's slots are
 * smaller); else hashed. The field left out is the one with the most
 * slots: the sum gives it, and a dense slot keeps it in a byte. */
void dense_choose(Ctx *cx, int tables, LitWork *w)
{
    if (!(cx->how & INFER_DENSE))
        return;
    const Layout *lay = &cx->lay;
    int drop = 0;
    for (int f = 1; f < lay->n; f++)
        if (unit_count(lay, cx->slots, f) > unit_count(lay, cx->slots, drop))
            drop = f;
    Dense *d = &cx->dense;
    uint64_t size = 1;
    d->n = 0;
    d->sum_off = lay->off[drop];
    d->sum_mask = lay->mask[drop];
    for (int f = 0; f < lay->n; f++) {
        int cap = unit_count(lay, cx->slots, f);
        if (f == drop || cap == 0)
            continue;
        d->off[d->n] = lay->off[f];
        d->mask[d->n] = lay->mask[f];
        d->stride[d->n++] = (uint32_t)size;
        size *= (uint64_t)cap + 1;
    }
    d->size = (uint32_t)(size < DENSE_MAX ? size : DENSE_MAX);
    /* a slot: its sum's byte and its count, in two words when narrow
     * (Table.vw) */
    uint64_t slot = 1 + sizeof(uint64_t) * (cx->narrow ? 2 : 3);
    cx->use_dense = size <= DENSE_MAX &&
                    (uint64_t)tables * (size * slot + sizeof(uint64_t) * ((size + 63) / 64)) <=
                        w->left &&
                    dense_lists(d, w) == 0;
}

/* The table of a layer or of F: dense or hashed as cx says. */
int dense_layer(Table *t, LitWork *w, uint64_t want, const Ctx *cx)
{
    return table_in(t, w, want, cx->use_dense ? &cx->dense : NULL, cx->narrow);
}

/* dense_layer, the table not yet emptied (table_take). */
int dense_take(Table *t, LitWork *w, uint64_t want, const Ctx *cx)
{
    return table_take(t, w, want, cx->use_dense ? &cx->dense : NULL, cx->narrow);
}

/* The dense indices of n vectors (vec[v * stride]) in index[v], and the
 * vectors in the order of their indices in order, both in w: 0, or -1 when
 * w cannot hold them. */
int dense_order(const Dense *d, const uint64_t *vec, size_t stride, uint32_t n, LitWork *w,
                uint32_t **index, uint32_t **order)
{
    uint32_t *ix = lit_work_take(w, sizeof(uint32_t) * (n + 1u));
    uint32_t *o = lit_work_take(w, sizeof(uint32_t) * (n + 1u));
    if (!ix || !o)
        return -1;
    for (uint32_t v = 0; v < n; v++) {
        ix[v] = dense_index(d, vec[(size_t)v * stride]);
        uint32_t k = v;
        for (; k > 0 && ix[o[k - 1]] > ix[v]; k--)
            o[k] = o[k - 1];
        o[k] = v;
    }
    *index = ix;
    *order = o;
    return 0;
}

/* dense_back's pass, narrow or not (inlined twice, Ctx.narrow). */
static inline __attribute__((always_inline)) void
back_run(const Ctx *cx, const Block *b, const Table *next, Table *out, const uint32_t *at,
         const uint32_t *iv, const uint32_t *order, const int narrow)
{
    uint64_t guard = cx->lay.guard, slots = cx->slots;
    /* in chunks of the layer after, with the vectors by index, so
     * what one chunk reads and writes stays in the cache */
    for (uint32_t e0 = 0; e0 < next->count; e0 += CHUNK) {
        uint32_t e1 = next->count - e0 < CHUNK ? next->count : e0 + CHUNK;
        for (uint32_t o = 0; o < b->n_vec; o++) {
            uint32_t v = order[o];
            uint64_t vec = b->vec[v].v, n = b->vec[v].n;
            for (uint32_t e = e0; e < e1; e++) {
                uint32_t i = at[e];
                uint64_t rest = dense_vec(next, i);
                if (!fits(guard, vec, slots - rest))
                    continue;
                LitU192 c = val_get_n(next, i, narrow);
                LitU192 x = times_n(&c, n, narrow);
                add_dense(out, i + iv[v], rest + vec, &x, narrow);
            }
        }
    }
}

/* out = the ways block b and what next counts give each vector, vector by
 * vector, the layer after in index order: its reads and the writes at
 * index + the vector's go in order; in two words where the counts allow.
 * 0, or -1 when w cannot hold the lists. */
int dense_back(const Ctx *cx, const Block *b, const Table *next, Table *out, LitWork w)
{
    const uint32_t *at = table_entries(next, &w);
    uint32_t *iv, *order;
    if (!at || dense_order(&cx->dense, &b->vec[0].v, sizeof(Vec) / sizeof(uint64_t), b->n_vec, &w,
                           &iv, &order))
        return -1;
    if (cx->narrow)
        back_run(cx, b, next, out, at, iv, order, 1);
    else
        back_run(cx, b, next, out, at, iv, order, 0);
    return 0;
}

/* For one chunk at[e0..e1) of F and one vector: the next F, nf(u + v) +=
 * F(u) n_v where the layer after can complete it, and the part of G(v)
 * the chunk gives (gpass.c's g_chunk), in one pass; iv the dense index of v, is_v
 * that of slots - v. Inlined twice, narrow or not (Ctx.narrow). */
static inline __attribute__((always_inline)) LitU192
vec_chunk(const Table *f, const Table *after, Table *nf, const uint32_t *at, uint32_t e0,
          uint32_t e1, const Ctx *cx, const Vec *vec, uint32_t iv, uint32_t is_v, const int narrow)
{
    uint64_t guard = cx->lay.guard, slots = cx->slots, v = vec->v;
    LitU192 sum = lit_u192(0);
    Sum2 sum2 = sum2_zero(); /* (the sum when narrow) */
    for (uint32_t e = e0; e < e1; e++) {
        uint32_t i = at[e];
        uint64_t given = dense_vec(f, i);
        if (!fits(guard, v, slots - given))
            continue;
        uint32_t ib = is_v - i;
        if (!after->sum[ib])
            continue;
        LitU192 a = val_get_n(f, i, narrow), c = val_get_n(after, ib, narrow);
        LitU192 x = times_n(&a, vec->n, narrow);
        add_dense(nf, i + iv, given + v, &x, narrow);
        if (narrow) {
            LitU192 y = mul_low2(&a, &c);
            sum2_add(&sum2, &y);
        } else {
            LitU192 y = mul_low(&a, &c);
            add_in(&sum, &y);
        }
    }
    return narrow ? sum2_get(sum2) : sum;
}

/* The next F and G vector by vector over F in index order: the layer
 * after is read at index(slots) - index(u) - index(v), in order, and the
 * next F written at index(u) + index(v). The lists are taken from w
 * (what is after them stays free): 0, or -1 when w cannot hold them. */
int dense_forward(const Ctx *cx, const Block *b, const Table *f, const Table *after, Table *nf,
                  LitU192 *g, LitWork *w)
{
    uint32_t is = dense_index(&cx->dense, cx->slots);
    const uint32_t *at = table_entries(f, w);
    uint32_t *iv, *order;
    if (!at || dense_order(&cx->dense, &b->vec[0].v, sizeof(Vec) / sizeof(uint64_t), b->n_vec, w,
                           &iv, &order))
        return -1;
    for (uint32_t e0 = 0; e0 < f->count; e0 += CHUNK) {
        uint32_t e1 = f->count - e0 < CHUNK ? f->count : e0 + CHUNK;
        for (uint32_t o = 0; o < b->n_vec; o++) {
            uint32_t v = order[o];
            LitU192 sum;
            if (cx->narrow)
                sum = vec_chunk(f, after, nf, at, e0, e1, cx, &b->vec[v], iv[v], is - iv[v], 1);
            else
                sum = vec_chunk(f, after, nf, at, e0, e1, cx, &b->vec[v], iv[v], is - iv[v], 0);
            add_in(&g[v], &sum);
        }
    }
    return 0;
}
