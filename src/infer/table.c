/* table.c - the tables of the counting program: packed vectors to their
 * counts, hashed or dense (counting.h has the lookups every pass inlines),
 * and one step of the backward layers through hash tables. */
#include "counting.h"

/* A table for want entries at most half full, or dense: 0, or -1 when the
 * workspace cannot hold it. */
int table_in(Table *t, LitWork *w, uint64_t want, const Dense *dense, int narrow)
{
    if (table_take(t, w, want, dense, narrow))
        return -1;
    table_clear(t);
    return 0;
}

/* The slots of a table for want entries: at most half full, or dense. */
static uint64_t table_cap(uint64_t want, const Dense *dense)
{
    uint64_t cap = 16;
    while (cap < 2 * want + 1)
        cap *= 2;
    return dense ? dense->size : cap;
}

size_t table_bytes(uint64_t want, const Dense *dense, int narrow)
{
    size_t cap = (size_t)table_cap(want, dense), vw = dense && narrow ? 2 : 3;
    return lit_work_round(dense ? cap : sizeof(uint64_t) * cap) +
           lit_work_round(sizeof(uint64_t) * vw * cap) +
           (dense ? lit_work_round(sizeof(uint64_t) * ((cap + 63) >> 6)) : 0);
}

/* table_in, the table not yet emptied. */
int table_take(Table *t, LitWork *w, uint64_t want, const Dense *dense, int narrow)
{
    uint64_t cap = table_cap(want, dense);
    t->vw = dense && narrow ? 2 : 3;
    /* a slot: its key (a byte when dense) and its count */
    if (cap > w->left / (sizeof(uint64_t) * (unsigned)t->vw + (dense ? 1u : sizeof(uint64_t))))
        return -1;
    size_t words = dense ? (cap + 63) >> 6 : 0; /* of the occupancy bits */
    t->key = dense ? NULL : lit_work_take(w, sizeof(uint64_t) * cap);
    t->sum = dense ? lit_work_take(w, cap) : NULL;
    t->val = lit_work_take(w, sizeof(uint64_t) * (size_t)t->vw * cap);
    t->occ = dense ? lit_work_take(w, sizeof(uint64_t) * words) : NULL;
    if (!(dense ? t->sum && t->occ : t->key != NULL) || !t->val)
        return -1;
    t->cap = (uint32_t)cap;
    t->dense = dense;
    t->count = 0;
    return 0;
}

/* Empties t: its keys, or a dense table's sums and occupancy (values are
 * written on insertion). */
void table_clear(Table *t)
{
    if (t->dense) {
        memset(t->sum, 0, t->cap);
        memset(t->occ, 0, sizeof(uint64_t) * occ_words(t));
    } else {
        memset(t->key, 0, sizeof(uint64_t) * t->cap);
    }
    t->count = 0;
}

/* A hashed table. */
int table_new(Table *t, LitWork *w, uint64_t want)
{
    return table_in(t, w, want, NULL, 0);
}

/* The entries of a table in slot order (for a dense table, index order):
 * count of them in w, or NULL when w cannot hold them. */
uint32_t *table_entries(const Table *t, LitWork *w)
{
    uint32_t *at = lit_work_take(w, sizeof(uint32_t) * (t->count + 1u));
    if (!at)
        return NULL;
    uint32_t n = 0;
    if (t->occ) {
        for (uint32_t k = 0; k < occ_words(t); k++)
            for (uint64_t bits = t->occ[k]; bits; bits &= bits - 1)
                at[n++] = k << 6 | (uint32_t)lit_lsb(bits);
        return at;
    }
    for (uint32_t i = 0; i < t->cap && n < t->count; i++)
        if (t->key[i])
            at[n++] = i;
    return at;
}

/* out += the ways for block b and what next counts to give each vector
 * within limit: one step of the backward layers through hash tables. 0,
 * or -1 when out is full. */
int table_back(const Ctx *cx, const Block *b, const Table *next, uint64_t limit, Table *out)
{
    uint64_t guard = cx->lay.guard;
    for (uint32_t i = 0; i < next->cap; i++) {
        if (!next->key[i] || !fits(guard, next->key[i] - 1, limit))
            continue;
        uint64_t rest = next->key[i] - 1;
        for (uint32_t v = 0; v < b->n_vec; v++) {
            if (!fits(guard, b->vec[v].v, limit - rest))
                continue;
            LitU192 c = val_get(next, i), x = times(&c, b->vec[v].n);
            if (add_to(out, rest + b->vec[v].v, &x))
                return -1;
        }
    }
    return 0;
}

uint32_t table_keep(Table *t, const uint64_t *keep)
{
    uint32_t dropped = 0;
    for (uint32_t k = 0; k < occ_words(t); k++) {
        uint64_t bits = t->occ[k] & ~keep[k];
        if (!bits)
            continue;
        /* (dense_drop a word at a time) */
        t->occ[k] &= keep[k];
        dropped += (uint32_t)lit_popcount(bits);
        for (; bits; bits &= bits - 1)
            t->sum[k << 6 | (uint32_t)lit_lsb(bits)] = 0;
    }
    t->count -= dropped;
    return dropped;
}
