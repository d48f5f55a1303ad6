/* prune.c - the backward layers kept to what the blocks before can
 * complete (INFER_PRUNE; docs/DEDUCTION.md "Layers kept to what the blocks
 * before them reach").
 *
 * Layer j, B_j(r), is only ever read at r = slots - u with u a vector the
 * blocks before j can give: by the layer before it (u plus a vector of
 * block j - 1 is such a vector again), by F, by G's passes and by the
 * sampler. Made from the layer after it alone, it holds every r the blocks
 * j.. can give, at the slowest 8-player positions three or four times
 * those. So before the backward sweep a bitset over the dense index marks,
 * for each layer, slots less what the blocks before it may give (a
 * superset: each block gives at least what each of its vectors gives a
 * field, and its other cards go into any field one of its cards may be
 * in), and each layer drops the other states as it is made; so does each
 * table within a block's card steps, by how many of its cards it holds,
 * going back (prune_within) and in the forward sweep (prune_masks: the
 * next F, G behind and ahead, the derivatives). Every kept state's count
 * is exact, since it reads only states of the layer after that are kept;
 * no dropped state is ever read. Hashed layers, whose indices are too many
 * for bits, keep only what leaves each field at least what the blocks
 * before give it (prune_least, table_back). */
#include "counting.h"

/* out |= (in & mask) moved down by s bits, over n words (each loop
 * without a branch, so that the compiler may take several words at once). */
static void shift_down(uint64_t *out, const uint64_t *in, const uint64_t *mask, uint32_t s,
                       uint32_t n)
{
    uint32_t q = s >> 6, r = s & 63;
    if (q >= n)
        return;
    const uint64_t *a = in + q, *m = mask + q;
    uint32_t last = n - q - 1; /* the word of out that only one of in reaches */
    if (r == 0) {
        for (uint32_t i = 0; i <= last; i++)
            out[i] |= a[i] & m[i];
        return;
    }
    for (uint32_t i = 0; i < last; i++)
        out[i] |= (a[i] & m[i]) >> r | (a[i + 1] & m[i + 1]) << (64 - r);
    out[last] |= (a[last] & m[last]) >> r;
}

/* to = at with one card given to any of fields: into field f, down by its
 * digit's stride from the indices whose digit is not 0; into the field the
 * sum gives, the same index. */
static void reach_step(const Plan *pl, uint64_t *to, const uint64_t *at, unsigned fields)
{
    const Ctx *cx = &pl->cx;
    const Reach *re = &pl->re;
    memset(to, 0, sizeof(uint64_t) * re->words);
    for (unsigned fs = fields; fs; fs &= fs - 1) {
        int f = lit_lsb(fs), i = re->digit[f];
        if (unit_count(&cx->lay, cx->slots, f) == 0)
            continue;
        if (i < 0)
            for (uint32_t k = 0; k < re->words; k++)
                to[k] |= at[k];
        else
            shift_down(to, at, re->some[i], cx->dense.stride[i], re->words);
    }
}

/* Bits from to to - 1 of b set. */
static void set_bits(uint64_t *b, uint32_t from, uint32_t to)
{
    for (uint32_t i = from; i < to;) {
        uint32_t k = i >> 6, r = i & 63, n = to - i < 64 - r ? to - i : 64 - r;
        b[k] |= (n == 64 ? ~UINT64_C(0) : (UINT64_C(1) << n) - 1) << r;
        i += n;
    }
}

/* The fields any card of b may be in. */
static unsigned block_fields(const Block *b)
{
    unsigned fields = 0;
    for (int c = 0; c < b->n; c++)
        fields |= b->cand[c];
    return fields;
}

/* What every vector of b gives each field at least, packed. */
static uint64_t block_least(const Ctx *cx, const Block *b)
{
    uint64_t least = 0;
    for (int f = 0; f < cx->lay.n; f++) {
        int at = LIT_MAX_SET_SIZE;
        for (uint32_t v = 0; v < b->n_vec && at; v++)
            if (unit_count(&cx->lay, b->vec[v].v, f) < at)
                at = unit_count(&cx->lay, b->vec[v].v, f);
        least |= (uint64_t)at << cx->lay.off[f];
    }
    return least;
}

/* Each field of x, at most its slots. */
static uint64_t within_slots(const Ctx *cx, uint64_t x)
{
    uint64_t r = 0;
    for (int f = 0; f < cx->lay.n; f++) {
        int at = unit_count(&cx->lay, x, f), most = unit_count(&cx->lay, cx->slots, f);
        r |= (uint64_t)(at < most ? at : most) << cx->lay.off[f];
    }
    return r;
}

void prune_least(Plan *pl)
{
    const Ctx *cx = &pl->cx;
    memset(pl->least, 0, sizeof pl->least);
    memset(pl->low, 0, sizeof pl->low);
    /* (within each field's slots: past them no deal fits, and the layers
     * then hold none) */
    for (int j = 0; j < pl->nb && (cx->how & INFER_PRUNE); j++) {
        pl->low[j] = block_least(cx, &pl->blocks[j]);
        pl->least[j + 1] = within_slots(cx, pl->least[j] + pl->low[j]);
    }
}

/* to = from with block j's cards given: first one card into each field
 * for each card every vector of the block gives it (pl->low: a clause's
 * seat one, say), then each other card into any field a card of the block
 * may be in (a superset of what it gives); tmp, two bitsets, between the
 * steps. */
static void reach_block(const Plan *pl, uint64_t *to, const uint64_t *from, int j,
                        uint64_t *const tmp[2])
{
    const Ctx *cx = &pl->cx;
    const Block *b = &pl->blocks[j];
    uint64_t least = pl->low[j];
    int op = 0;
    for (int f = 0; f < cx->lay.n; f++)
        for (int k = 0; k < unit_count(&cx->lay, least, f); k++, op++) {
            uint64_t *at = op + 1 < b->n ? tmp[op & 1] : to;
            reach_step(pl, at, from, 1u << f);
            from = at;
        }
    for (; op < b->n; op++) {
        uint64_t *at = op + 1 < b->n ? tmp[op & 1] : to;
        reach_step(pl, at, from, block_fields(b));
        from = at;
    }
}

/* Whether pruning pays at this position: the layers' bound of states
 * (every vector of its sum within the slots) times the blocks' work a
 * state, against the bitsets' passes (a card's fields each a pass over
 * the words, twice: for the layers and for the tables within the steps). */
static int prune_pays(const Plan *pl, uint32_t words)
{
    const Ctx *cx = &pl->cx;
    uint64_t back = 0, bits = 0;
    int cards = cx->free;
    for (int j = pl->nb - 1; j >= 0; j--) {
        const Block *b = &pl->blocks[j];
        uint64_t work = pl->by_steps[j] ? pl->step_work[j] : b->n_vec;
        back += work * fields_vectors(&cx->lay, cx->slots, cards);
        cards += b->n;
        bits += 2 * (uint64_t)b->n * (uint64_t)(lit_popcount(block_fields(b)) + 1) * words;
    }
    return back > PRUNE_PAYS * bits;
}

int prune_plan(Plan *pl, LitWork *w)
{
    const Ctx *cx = &pl->cx;
    const Dense *d = &cx->dense;
    Reach *re = &pl->re;
    memset(re, 0, sizeof *re);
    if (!(cx->how & INFER_PRUNE) || !cx->use_dense || pl->conv)
        return 0;
    re->words = (d->size + 63) >> 6;
    size_t bytes = sizeof(uint64_t) * re->words;
    if (!steps_always(cx) && !prune_pays(pl, re->words))
        return 0;
    /* the indices whose digit i is not 0 (runs of stride, a period of
     * stride times the radix), and each field's digit (-1: the sum's) */
    for (int i = 0; i < d->n; i++) {
        uint64_t *some = lit_work_take(w, bytes);
        if (!some)
            return -1;
        memset(some, 0, bytes);
        uint32_t period = d->stride[i] * (uint32_t)((d->mask[i] & (cx->slots >> d->off[i])) + 1);
        for (uint32_t x = 0; x < d->size; x += period)
            set_bits(some, x + d->stride[i], x + period < d->size ? x + period : d->size);
        re->some[i] = some;
    }
    for (int f = 0; f < cx->lay.n; f++) {
        re->digit[f] = -1;
        for (int i = 0; i < d->n; i++)
            if (d->off[i] == cx->lay.off[f])
                re->digit[f] = i;
    }
    uint64_t *tmp[2] = {lit_work_take(w, bytes), lit_work_take(w, bytes)};
    uint64_t *at = lit_work_take(w, bytes);
    if (!tmp[0] || !tmp[1] || !at)
        return -1;
    memset(at, 0, bytes);
    uint32_t all = dense_index(d, cx->slots);
    set_bits(at, all, all + 1);
    re->at[0] = at;
    /* block j - 1 (reach_block) */
    for (int j = 1; j <= pl->nb; j++) {
        uint64_t *next = lit_work_take(w, bytes);
        if (!next)
            return -1;
        reach_block(pl, next, re->at[j - 1], j - 1, tmp);
        re->at[j] = next;
    }
    return 0;
}

/* keep[k], for k of block j's cards (0 < k < n): from, less n - k more
 * cards of the block, each into any field of it; keep, or NULL when w
 * cannot hold the bitsets. */
static const uint64_t *const *keep_depths(const Plan *pl, int j, const uint64_t *from,
                                          const uint64_t **keep, LitWork *w)
{
    const Block *b = &pl->blocks[j];
    memset(keep, 0, sizeof(*keep) * (LIT_MAX_SET_SIZE + 1));
    for (int k = b->n - 1; k > 0; k--) {
        uint64_t *to = lit_work_take(w, sizeof(uint64_t) * pl->re.words);
        if (!to)
            return NULL;
        reach_step(pl, to, from, block_fields(b));
        keep[k] = from = to;
    }
    return keep;
}

const uint64_t *const *prune_within(const Plan *pl, int j, const uint64_t **keep, LitWork *w)
{
    /* slots less what the blocks before j may give, less the rest of j */
    return pl->re.at[j] ? keep_depths(pl, j, pl->re.at[j], keep, w) : NULL;
}

const uint64_t *const *prune_masks(const Plan *pl, const Table *other, int extra, int j,
                                   const uint64_t **keep, LitWork *w)
{
    if (!pl->re.at[0] || pl->blocks[j].n < 2)
        return NULL;
    /* the slots less other's states (read from the other end: slots - u
     * for each u), less block extra's cards, less the rest of block j (the
     * same steps down as going back: a vector may take a card into field f
     * where that vector plus e_f is marked) */
    size_t bytes = sizeof(uint64_t) * pl->re.words;
    uint64_t *done = lit_work_take(w, bytes), *tmp[2] = {lit_work_take(w, bytes),
                                                         lit_work_take(w, bytes)};
    if (!done || !tmp[0] || !tmp[1])
        return NULL;
    memset(done, 0, bytes);
    uint32_t is = dense_index(&pl->cx.dense, pl->cx.slots);
    for (uint32_t k = 0; k < occ_words(other); k++)
        for (uint64_t bits = other->occ[k]; bits; bits &= bits - 1) {
            uint32_t i = is - (k << 6 | (uint32_t)lit_lsb(bits));
            done[i >> 6] |= UINT64_C(1) << (i & 63);
        }
    if (extra < 0)
        return keep_depths(pl, j, done, keep, w);
    uint64_t *to = lit_work_take(w, bytes);
    if (!to)
        return NULL;
    reach_block(pl, to, done, extra, tmp);
    return keep_depths(pl, j, to, keep, w);
}

uint32_t prune_layer(const Plan *pl, int j, Table *t)
{
    return pl->re.at[j] && t->dense ? table_keep(t, pl->re.at[j]) : 0;
}
