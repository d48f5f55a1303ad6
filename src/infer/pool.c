/* pool.c - the pool (INFER_POOL; docs/DEDUCTION.md "The pool"): the free
 * cards of sets with clauses join the free sets' cards, and the claims of
 * a set with pooled cards (a mixed set) count with the layers after its
 * block less its pooled cards, the short pools. */
#include "counting.h"

/* The cards among cards that no clause of their set names and that may be
 * at every seat with room. */
static uint64_t free_cards_of(const LitKnow *k, uint64_t cards)
{
    int deck = k->pub.rules.deck, players = k->pub.rules.players;
    uint64_t room = 0, out = 0;
    for (int s = 0; s < players; s++)
        if (k->slots[s])
            room |= UINT64_C(1) << s;
    for (uint64_t x = cards; x;) {
        int card = lit_pop_lsb(&x), set = lit_set_of(deck, card);
        uint8_t named = 0;
        uint64_t may = 0;
        for (int s = 0; s < players; s++) {
            for (int i = 0; i < k->n_need[s][set]; i++)
                named |= k->need[s][set][i];
            for (int i = 0; i < k->n_lack[s][set]; i++)
                named |= k->lack[s][set][i];
            if (k->may[s] & lit_bit(card))
                may |= UINT64_C(1) << s;
        }
        if (!(named >> lit_pos_of(deck, card) & 1) && (may & room) == room)
            out |= lit_bit(card);
    }
    return out;
}

void pool_join(Plan *pl)
{
    const Ctx *cx = &pl->cx;
    const LitKnow *k = cx->k;
    int deck = k->pub.rules.deck;
    uint64_t unplaced = pl->unplaced;
    if (!(cx->how & INFER_POOL))
        return;
    /* A card of another set that no clause names and that may be at
     * every seat with room is as free as those: it joins the pool, and
     * a set all of whose cards do is a free set. Only while the pool's
     * spreads stay few enough to be the last layer. */
    uint64_t more = free_cards_of(k, unplaced & ~pl->free_cards);
    int m = lit_popcount(pl->free_cards | more);
    if (more && fields_vectors(&cx->lay, cx->slots, m) <= FOLD_MAX) {
        pl->free_cards |= more;
        for (int set = 0; set < lit_deck_sets(deck); set++) {
            uint64_t cards = lit_set_mask(deck, set) & unplaced;
            if (cards && (cards & ~pl->free_cards) == 0)
                pl->free_sets |= 1u << set;
        }
    }
}

int pool_drop(unsigned *how)
{
    if (!(*how & INFER_POOL))
        return 0;
    *how &= ~(unsigned)INFER_POOL;
    return 1;
}

/* The layer of block j before next into the empty table out, as the plan
 * makes its layers (by card steps where the plan's went so, else vector
 * by vector; hashed, through hash tables), but kept to nothing: a short
 * pool is looked up at slots less what the blocks before gave and less
 * the whole set, which no layer's reach marks. 0, or -1 when w is full. */
static int short_back(const Plan *pl, int j, const Table *next, Table *out, LitWork w)
{
    const Ctx *cx = &pl->cx;
    const Block *b = &pl->blocks[j];
    if (!out->dense)
        return table_back(cx, b, next, cx->slots, out);
    if (pl->by_steps[j] && steps_back(cx, &pl->steps[j], b, next, out, w, NULL) == 0)
        return 0;
    table_clear(out);
    return dense_back(cx, b, next, out, w);
}

/* For the claims of the sets with pooled cards: for each such block j,
 * the layer after it counted with the pool less the set's pooled cards
 * (pl->short_pool[j]), down a chain from the end per number pooled q. The
 * blocks with few vectors, which these mostly are, come last, so the
 * chains are short. The chain's tables are dense where the layers are and
 * a hashed table of the free cards would take a dense table's bytes or
 * more: a hashed table is written and read anywhere in it, a dense one in
 * index order. Then the tables kept come from w, and the chain's others
 * from past them, in turn, for this chain only; hashed, each from w, as
 * large as the layer before it and the block can fill. 0, or -1 when w is
 * full. */
int pool_short(Plan *pl, LitWork *w)
{
    const Ctx *cx = &pl->cx;
    for (int q = 1; q <= LIT_MAX_SET_SIZE; q++) {
        int first = -1, kept = 0;
        for (int j = 0; j < pl->nb; j++)
            if (pl->blocks[j].pooled == q) {
                first = first < 0 ? j : first;
                kept++;
            }
        if (first < 0)
            continue;
        int cards = cx->free - q;
        uint64_t most = fields_vectors(&cx->lay, cx->slots, cards);
        const Dense *dense =
            cx->use_dense && table_bytes(most, NULL, 0) >= table_bytes(0, &cx->dense, cx->narrow)
                ? &cx->dense
                : NULL;
        pl->dense_pools += dense != NULL;
        Table keep[LIT_MAX_SETS], spare[2];
        for (int i = 0; dense && i < kept; i++)
            if (table_in(&keep[i], w, 1, dense, cx->narrow))
                return -1;
        LitWork past = *w;
        for (int i = 0; dense && i < 2; i++)
            if (table_take(&spare[i], &past, 1, dense, cx->narrow))
                return -1;
        const Table *next = NULL;
        for (int j = pl->nb - 1, k = 0, s = 0; j >= first; j--) {
            /* the layer after block j: the free cards', or block j+1's
             * before next */
            int kept_here = !dense || pl->blocks[j].pooled == q;
            Table *t = kept_here ? &keep[k++] : &spare[s ^= 1];
            if (!kept_here)
                table_clear(t);
            if (next) {
                cards += pl->blocks[j + 1].n;
                most = fields_vectors(&cx->lay, cx->slots, cards);
                uint64_t bound = (uint64_t)next->count * pl->blocks[j + 1].n_vec;
                if (!dense && table_new(t, w, bound < most ? bound : most))
                    return -1;
                if (short_back(pl, j + 1, next, t, dense ? past : *w))
                    return -1;
            } else if ((!dense && table_new(t, w, most)) || free_fill(t, cx, cards)) {
                return -1;
            }
            if (pl->blocks[j].pooled == q)
                pl->short_pool[j] = *t;
            next = t;
        }
    }
    return 0;
}

/* A placement by seat y of all the set's unplaced cards: h(y's vector by
 * field), from the memo or summed over the smaller of F and D (counting.h
 * has Mixed). */
int pool_visit(Walk *w, uint64_t y, uint32_t index)
{
    Mixed *mx = w->ctx;
    const Ctx *cx = mx->cl.cx;
    (void)index;
    uint64_t z = fields_of(cx, y);
    LitU192 h = lit_u192(0);
    if (!lookup(mx->memo, z, &h)) {
        /* over the smaller of F and D, looking the other up */
        const Table *a = mx->f, *c = mx->d;
        if (c->count < a->count) {
            a = mx->d;
            c = mx->f;
        }
        for (uint32_t i = 0; i < a->cap; i++) {
            if (!slot_full(a, i))
                continue;
            uint64_t left = cx->slots - slot_vec(a, i);
            if (!fits(cx->lay.guard, z, left))
                continue;
            LitU192 other, here = val_get(a, i);
            if (lookup(c, left - z, &other)) {
                LitU192 x = mul_low(&here, &other);
                add_in(&h, &x);
            }
        }
        if (add_to(mx->memo, z, &h)) {
            mx->full = 1;
            return 1;
        }
    }
    if (!lit_u192_is_zero(&h))
        claims_count(&mx->cl, &h, y, w->seat);
    return 0;
}

/* A placement by seat y of all the set's unplaced cards: its vector by
 * field z into the memo, to be counted by pool_fill. */
int pool_collect(Walk *w, uint64_t y, uint32_t index)
{
    Mixed *mx = w->ctx;
    const LitU192 zero = lit_u192(0);
    (void)index;
    if (add_to(mx->memo, fields_of(mx->cl.cx, y), &zero)) {
        mx->full = 1;
        return 1;
    }
    return 0;
}

/* D into a dense table for pool_fill (the short pools' layers are hashed:
 * dense, each would take a whole table). */
int pool_dense(const Ctx *cx, const Table *d, Table *out, LitWork *w)
{
    if (table_in(out, w, d->count, &cx->dense, cx->narrow))
        return -1;
    for (uint32_t i = 0; i < d->cap; i++)
        if (slot_full(d, i)) {
            LitU192 x = val_get(d, i);
            uint64_t v = slot_vec(d, i);
            add_dense(out, dense_index(&cx->dense, v), v, &x, out->vw == 2);
        }
    return 0;
}

/* h(z) for every z in the memo at once (their values set): one G pass
 * (gpass_run) over the smaller of F and D (dense, mx->dense_d) with the z
 * as its vectors, each a direct index into the other, where pool_visit
 * looks D up by hash once a state and z. 0, or -1 when w cannot hold the
 * pass's lists. */
int pool_fill(const Mixed *mx, LitWork w)
{
    const Ctx *cx = mx->cl.cx;
    const Table *dd = mx->dense_d;
    Table *memo = mx->memo;
    uint32_t n = memo->count;
    Vec *z = lit_work_take(&w, sizeof(Vec) * (n + 1u));
    uint32_t *slot = lit_work_take(&w, sizeof(uint32_t) * (n + 1u));
    LitU192 *h = lit_work_take(&w, sizeof(LitU192) * (n + 1u));
    if (!z || !slot || !h)
        return -1;
    uint32_t k = 0;
    for (uint32_t i = 0; i < memo->cap; i++)
        if (slot_full(memo, i)) {
            z[k].v = slot_vec(memo, i);
            z[k].n = 1;
            slot[k++] = i;
        }
    Block zb;
    memset(&zb, 0, sizeof zb);
    zb.vec = z;
    zb.n_vec = n;
    /* h(z) = sum_u F(u) D(slots - u - z), symmetric in F and D */
    const Table *a = mx->f, *c = dd;
    if (c->count < a->count) {
        a = dd;
        c = mx->f;
    }
    if (gpass_run(cx, a, &zb, c, h, w))
        return -1;
    for (k = 0; k < n; k++)
        val_put(memo, slot[k], &h[k]);
    return 0;
}
