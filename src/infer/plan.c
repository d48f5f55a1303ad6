/* plan.c - the plan of exact counting (docs/DEDUCTION.md "Exact
 * counting"), what lit_odds and the sampler share: the context, the blocks
 * with their local tables (step 1), their order, and the backward layers
 * (step 2) with the count of every consistent deal. */
#include "counting.h"

/* Swaps n bytes at x and y. */
static void swap_bytes(void *x, void *y, size_t n)
{
    unsigned char *p = x, *q = y;
    for (size_t i = 0; i < n; i++) {
        unsigned char t = p[i];
        p[i] = q[i];
        q[i] = t;
    }
}

/* Swaps blocks a and b of the plan, with what goes with each (their steps
 * and key in the sort). */
static void swap_blocks(Plan *pl, uint64_t *key, int a, int b)
{
    swap_bytes(&pl->blocks[a], &pl->blocks[b], sizeof pl->blocks[a]);
    swap_bytes(&pl->steps[a], &pl->steps[b], sizeof pl->steps[a]);
    swap_bytes(&pl->by_steps[a], &pl->by_steps[b], sizeof pl->by_steps[a]);
    swap_bytes(&pl->step_work[a], &pl->step_work[b], sizeof pl->step_work[a]);
    swap_bytes(&key[a], &key[b], sizeof key[a]);
}

/* The context of k: the binomials, the unplaced cards, the fields and the
 * words the hot loops count in. */
static void plan_context(Plan *pl, const LitKnow *k, unsigned how)
{
    memset(pl, 0, sizeof *pl);
    Ctx *cx = &pl->cx;
    cx->k = k;
    cx->players = k->pub.rules.players;
    cx->how = how;
    for (int n = 0; n <= LIT_MAX_CARDS; n++) {
        cx->choose[n][0] = 1;
        for (int j = 1; j <= n; j++)
            cx->choose[n][j] = cx->choose[n][j - 1] * (uint64_t)(n - j + 1) / (uint64_t)j;
    }
    uint64_t unplaced = free_unplaced(k);
    pl->unplaced = unplaced;
    fields_make(cx, unplaced);
    words_choose(cx, unplaced);
}

/* 1. Free sets (no clause, every unplaced card possible at every seat
 * with room): their cards are exchangeable, counted by free_spread(). The
 * other sets are blocks of the program (their local tables come after). */
static void plan_blocks(Plan *pl)
{
    Ctx *cx = &pl->cx;
    const LitKnow *k = cx->k;
    int deck = k->pub.rules.deck, players = cx->players;
    uint64_t unplaced = pl->unplaced;
    pl->free_sets = free_sets_of(k);
    for (int set = 0; set < lit_deck_sets(deck); set++)
        if (pl->free_sets >> set & 1)
            pl->free_cards |= lit_set_mask(deck, set) & unplaced;
    pool_join(pl);
    cx->free = lit_popcount(pl->free_cards);
    for (int set = 0; set < lit_deck_sets(deck); set++) {
        uint64_t all = lit_set_mask(deck, set) & unplaced, m = all & ~pl->free_cards;
        if (!m || (pl->free_sets >> set & 1))
            continue;
        Block *b = &pl->blocks[pl->nb++];
        memset(b, 0, sizeof *b);
        b->set = set;
        b->pooled = lit_popcount(all & pl->free_cards);
        for (uint64_t x = m; x;) {
            int card = lit_pop_lsb(&x);
            b->pos[b->n] = (uint8_t)lit_pos_of(deck, card);
            for (int s = 0; s < players; s++)
                if (k->may[s] & lit_bit(card)) {
                    b->cand[b->n] |= 1u << cx->lay.unit_of[s];
                    b->seat_cand[b->n] |= 1u << s;
                }
            b->n++;
        }
    }
}

/* The blocks with the most work a state first: a sweep's first blocks
 * meet its smallest layers (the backward sweep's first block is one
 * lookup a vector, the forward's starts from one state), so the
 * costliest blocks go there. The work: the block's vectors, or its
 * steps; and G's pass, a product per vector, weighed as a sixteenth of
 * a step's field (measured at 8 players: the slowest positions 10 to
 * 20% faster than with the most vectors first, and G's weight another
 * 3 to 5%, where a quarter was slower). In sixteenths. Then each block's
 * work by derivatives. */
static void plan_order(Plan *pl)
{
    const Ctx *cx = &pl->cx;
    int nb = pl->nb;
    uint64_t work[LIT_MAX_SETS];
    for (int j = 0; j < nb; j++) {
        const Block *b = &pl->blocks[j];
        pl->by_steps[j] = (uint8_t)steps_choose(cx, &pl->steps[j], b);
        pl->step_work[j] = pl->by_steps[j] ? steps_work(&pl->steps[j], cx, b) : 0;
        work[j] = 16 * (pl->by_steps[j] ? pl->step_work[j] : b->n_vec) + b->n_vec;
    }
    for (int a = 1; a < nb; a++)
        for (int b = a; b > 0 && work[b] > work[b - 1]; b--)
            swap_blocks(pl, work, b - 1, b);
    for (int j = 0; j < nb; j++)
        pl->deriv[j] = deriv_work(pl, j, &pl->claims[j]);
}

/* The first layer, with every card (conv 0): only the slots themselves,
 * one lookup a vector. */
static void first_layer(const Ctx *cx, const Block *b, const Table *next, Table *out)
{
    uint64_t slots = cx->slots, guard = cx->lay.guard;
    LitU192 sum = lit_u192(0);
    for (uint32_t v = 0; v < b->n_vec; v++) {
        if (!fits(guard, b->vec[v].v, slots))
            continue;
        LitU192 rest;
        if (lookup(next, slots - b->vec[v].v, &rest)) {
            LitU192 x = times(&rest, b->vec[v].n);
            add_in(&sum, &x);
        }
    }
    if (!lit_u192_is_zero(&sum))
        add_to(out, slots, &sum);
}

/* Block j's work a state it meets: its card steps' fields, or its
 * vectors, each HASHED_WORK when they add into a hashed layer that may hold
 * HASHED_BIG states or more, bound of them (docs/DEDUCTION.md "The state
 * budget"). */
static uint64_t block_work(const Plan *pl, int j, uint64_t bound)
{
    uint64_t work = pl->by_steps[j] ? pl->step_work[j] : pl->blocks[j].n_vec;
    return !pl->cx.use_dense && bound >= HASHED_BIG ? HASHED_WORK * work : work;
}

/* Layer j by card steps from the layer after it, each table within them
 * kept to what the blocks before j may complete (prune.c); w for both. */
static int layer_steps(Plan *pl, int j, Table *out, LitWork w)
{
    const uint64_t *keep[LIT_MAX_SET_SIZE + 1];
    const uint64_t *const *within = prune_within(pl, j, keep, &w);
    return steps_back(&pl->cx, &pl->steps[j], &pl->blocks[j], &pl->layer[j + 1], out, w, within);
}

/* Layer j, from the layer after it, which holds cards_after cards: by the
 * first layer's lookups, by card steps, vector by vector over dense
 * tables, or through hash tables; its work going back (the layer after
 * it, met by the block) spent from the budget first, and the block's work
 * a state kept for the forward sweep's (pl->unit). 0, -1 when w is too
 * small, or PLAN_BUDGET when the budget ran out. */
static int plan_layer(Plan *pl, int j, int cards_after, LitWork *w)
{
    const Ctx *cx = &pl->cx;
    Table *layer = pl->layer;
    const Table *next = &layer[j + 1];
    const Block *b = &pl->blocks[j];
    uint64_t bound = (uint64_t)next->count * b->n_vec;
    uint64_t most = fields_vectors(&cx->lay, cx->slots, cards_after);
    if (bound > most)
        bound = most;
    pl->unit[j] = block_work(pl, j, bound);
    if (budget_spend(&pl->budget, (uint64_t)next->count * pl->unit[j]))
        return PLAN_BUDGET;
    if (!cx->use_dense && bound > (w->left / (sizeof(uint64_t) + sizeof(LitU192))) / 4)
        return -1;
    if (dense_layer(&layer[j], w, bound, cx))
        return -1;
    if (j == 0 && pl->conv == 0) {
        first_layer(cx, b, next, &layer[0]);
    } else if (pl->by_steps[j] && layer_steps(pl, j, &layer[j], *w) == 0) {
        pl->stepped++; /* card by card (docs/DEDUCTION.md "Card steps") */
        steps_count(&pl->steps[j], &pl->horner, &pl->mixed);
    } else if (cx->use_dense) {
        if (dense_back(cx, b, next, &layer[j], *w))
            return -1;
    } else if (table_back(cx, b, next, cx->slots - pl->least[j], &layer[j])) {
        return -1;
    }
    pl->pruned += prune_layer(pl, j, &layer[j]);
    if (layer[j].count > pl->states)
        pl->states = layer[j].count;
    return 0;
}

/* 2. Backward layers over the blocks: D_j(x), the ways blocks j.. give
 * exactly x. With the free cards, the ways to complete a deal in which
 * the earlier blocks gave u are sum_x D_j(x) free_spread(slots - u - x).
 * When the free cards can be spread few ways, they become the last
 * layer and every completion is a lookup; else completions sum over
 * the layer (conv free cards left to spread). Then the tables are dense
 * or hashed, room what w has left (a dense index's lists taken from it).
 * The vectors of the free cards. */
static uint64_t plan_tables(Plan *pl, LitWork *w)
{
    Ctx *cx = &pl->cx;
    uint64_t free_vectors = cx->free ? fields_vectors(&cx->lay, cx->slots, cx->free) : 1;
    pl->conv = free_vectors <= FOLD_MAX ? 0 : cx->free;
    if (pl->conv == 0)
        dense_choose(cx, pl->nb + 6, w); /* the layers, and F, the next F and
                                          * the projections in two halves, and
                                          * (a table's room) the reach bits */
    return free_vectors;
}

/* The backward layers, the last one the free cards' (free_vectors of
 * them) or {0: 1}. 0, -1 when w is too small, or PLAN_BUDGET. */
static int plan_layers(Plan *pl, uint64_t free_vectors, LitWork *w)
{
    const Ctx *cx = &pl->cx;
    int nb = pl->nb, cards_after = 0;
    Table *layer = pl->layer;
    LitU192 one = lit_u192(1);
    if (pl->conv == 0 && cx->free) {
        if (dense_layer(&layer[nb], w, free_vectors, cx) ||
            free_fill(&layer[nb], cx, cx->free))
            return -1;
        pl->pruned += prune_layer(pl, nb, &layer[nb]);
        cards_after = cx->free;
    } else {
        if (dense_layer(&layer[nb], w, 1, cx))
            return -1;
        add_to(&layer[nb], 0, &one);
    }
    if (pl->made)
        pl->made(pl->made_arg, nb);
    for (int j = nb - 1; j >= 0; j--) {
        cards_after += pl->blocks[j].n;
        int made = plan_layer(pl, j, cards_after, w);
        if (made)
            return made;
        if (pl->made)
            pl->made(pl->made_arg, j);
    }
    return 0;
}

/* The consistent deals of the fields from the first layer, and of the
 * seats (times every split). */
static void plan_total(Plan *pl)
{
    const Ctx *cx = &pl->cx;
    const Table *first = &pl->layer[0];
    uint64_t slots = cx->slots, guard = cx->lay.guard;
    LitU192 total = lit_u192(0);
    for (uint32_t i = 0; i < first->cap; i++) {
        if (!slot_full(first, i) || !fits(guard, slot_vec(first, i), slots))
            continue;
        LitU192 ways = free_spread(cx, slots - slot_vec(first, i), pl->conv), x,
                c = val_get(first, i);
        lit_u192_mul(&x, &c, &ways);
        lit_u192_add(&total, &total, &x);
    }
    pl->total = total;
    LitU192 every_split = fields_splits(cx, 0);
    lit_u192_mul(&pl->deals, &total, &every_split);
}

uint64_t plan_budget(const LitKnow *k)
{
    return k->pub.rules.players > 8 ? LIT_ODDS_BUDGET : UINT64_MAX;
}

int plan_start(Plan *pl, const LitKnow *k, LitWork *w, int lists, unsigned how, uint64_t budget,
               uint64_t *free_vectors)
{
    plan_context(pl, k, how);
    plan_blocks(pl);
    /* the work counted as it is done, and stopped where it goes past the
     * budget (docs/DEDUCTION.md "The state budget") */
    pl->budget = budget;
    for (int j = 0; j < pl->nb; j++) {
        int built = local_table(&pl->cx, &pl->blocks[j], w, lists, &pl->budget);
        if (built != PLAN_OK)
            return built;
    }
    *free_vectors = plan_tables(pl, w);
    plan_order(pl);
    pl->pruned = 0;
    prune_least(pl);
    return prune_plan(pl, w) ? PLAN_OVER : PLAN_OK;
}

int plan_finish(Plan *pl, uint64_t free_vectors, LitWork *w)
{
    int made = plan_layers(pl, free_vectors, w);
    if (made)
        return made == PLAN_BUDGET ? PLAN_BUDGET : PLAN_OVER;
    plan_total(pl);
    return lit_u192_is_zero(&pl->total) ? PLAN_NONE : PLAN_OK;
}

uint64_t plan_back_bound(const Plan *pl)
{
    const Ctx *cx = &pl->cx;
    uint64_t back = 0;
    int cards = cx->free;
    for (int j = pl->nb - 1; j >= 0; j--) {
        uint64_t states = fields_vectors(&cx->lay, cx->slots, cards);
        if (pl->re.at[j + 1]) {
            uint64_t marked = 0;
            for (uint32_t i = 0; i < pl->re.words; i++)
                marked += (uint64_t)lit_popcount(pl->re.at[j + 1][i]);
            states = marked < states ? marked : states;
        }
        back += states * block_work(pl, j, states);
        cards += pl->blocks[j].n;
    }
    return back;
}

int plan_build(Plan *pl, const LitKnow *k, LitWork *w, int lists, unsigned how, uint64_t budget)
{
    uint64_t free_vectors;
    int started = plan_start(pl, k, w, lists, how, budget, &free_vectors);
    return started == PLAN_OK ? plan_finish(pl, free_vectors, w) : started;
}
