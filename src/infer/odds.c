/* odds.c - exact counting of the deals consistent with a view, and exact
 * probabilities (see infer.h and docs/DEDUCTION.md "Exact counting").
 *
 * Every fact of the history is about the unplaced cards of one set, and the
 * hand sizes couple the sets. So the count is a dynamic program over the sets
 * (the blocks): a block's local table lists, for every way to place its
 * unplaced cards that meets its clauses, the vector of cards it gives each
 * seat; the state between blocks is the vector of cards given so far, packed
 * five bits a seat into a uint64_t (a seat takes at most 14, a block at most
 * 6, so fields never carry into each other).
 *
 *   1. Local tables, block by block (local.c).
 *   2. Backward layers B_j(r): ways for blocks j.. to give exactly r.
 *      The count is B_0(slots) (plan.c).
 *   3. A forward sweep with F_j(u): ways for blocks ..j-1 to give u. For each
 *      vector v of block j, G(v) = sum_u F_j(u) B_{j+1}(slots - u - v) is the
 *      number of consistent deals in which block j gives v; every local
 *      placement with vector v has that many deals, which gives the marginals
 *      and the claim figures of the block's set (here).
 *   4. The pool's figures from F after every block (free.c).
 * Where it costs less, a block's layers come card by card instead of vector
 * by vector (steps.c; docs/DEDUCTION.md "Card steps"); counting.h lists the
 * files of the other techniques.
 * Nothing is allocated: tables live in the caller's workspace.
 */
#include "counting.h"

#include <stdatomic.h>

#include "literature/status.h"

/* A block of the forward sweep went past what was left of the budget. */
enum { SWEEP_BUDGET = -2 };

/* The forward sweep (step 3) as it goes from block to block. */
typedef struct Sweep {
    const Plan *pl;
    LitU192 (*mass)[LIT_MAX_PLAYERS]; /* the deals with each card in each field */
    LitU192 *g, *g_ahead; /* G of this block, and of the next when it came ahead */
    int g_ahead_ready;
    Table gv;             /* G by vector, for the claims */
    LitWork half[2];      /* F and the next F alternate between the two */
    int side;             /* F's half */
    Table f;
    LitWork past_f;       /* what F's half does not use */
    int cards_before;
} Sweep;

/* No figure: the workspace cannot hold the program (or the work went past
 * the budget); the work done is kept. */
static int over(LitOdds *odds)
{
    uint64_t work = odds->work;
    memset(odds, 0, sizeof *odds);
    odds->work = work;
    return LIT_OK;
}

static int twin_odds(Plan *pl, LitHelper *h, uint64_t free_vectors, LitWork *w, LitOdds *odds);

/* twin_odds: the position does not go on two threads (the plan is as
 * plan_start left it), or it went part of the way and the counting must
 * start again on one thread. */
enum { TWIN_NO = -1, TWIN_AGAIN = 1 };

/* The plan, and for the sets with pooled cards the short pools; when the
 * workspace cannot hold those, the plan again with no pooled card (not
 * when the budget ran out: with no pool the work is more), with what the
 * first left of the budget: it is the position's, not each try's. The
 * plan and what is left of the workspace in *plan and *w, the work done
 * in *spent: PLAN_OK, PLAN_NONE or PLAN_OVER. With a helper lent (h),
 * the plan may go on two threads with the rest of the counting
 * (twin_odds): then every figure is in odds and *twinned is 1. */
static int odds_plan(const LitKnow *k, void *work, size_t work_size, unsigned how, LitHelper *h,
                     LitWork *w, Plan **plan, uint64_t *spent, LitOdds *odds, int *twinned)
{
    uint64_t budget = plan_budget(k), first = budget;
    *twinned = 0;
    for (;;) {
        *w = lit_work_of(work, work_size);
        Plan *pl = *plan = lit_work_take(w, sizeof *pl);
        if (!pl)
            return PLAN_OVER;
        uint64_t free_vectors;
        int built = plan_start(pl, k, w, 0, how, budget, &free_vectors);
        if (built == PLAN_OK && h) {
            int twin = twin_odds(pl, h, free_vectors, w, odds);
            if (twin == 0) {
                *twinned = 1;
                return PLAN_OK;
            }
            h = NULL;
            if (twin == TWIN_AGAIN) {
                memset(odds, 0, sizeof *odds);
                continue;
            }
        }
        if (built == PLAN_OK)
            built = plan_finish(pl, free_vectors, w);
        budget = pl->budget;
        *spent = first - budget;
        if (built == PLAN_OK && pool_short(pl, w) == 0)
            return PLAN_OK;
        if (built == PLAN_NONE)
            return PLAN_NONE;
        if (built == PLAN_BUDGET || !pool_drop(&how))
            return PLAN_OVER;
    }
}

/* What the plan says before the sweep: its counters, and no likeliest
 * placement yet. */
static void odds_start(const Plan *pl, LitOdds *odds)
{
    odds->exact = 1;
    odds->states = pl->states;
    odds->stepped = pl->stepped;
    odds->horner = pl->horner;
    odds->mixed = pl->mixed;
    odds->pruned = pl->pruned;
    odds->dense_pools = pl->dense_pools;
    odds->narrow = (uint8_t)pl->cx.narrow;
    for (int t = 0; t < 2; t++)
        memset(odds->best[t], LIT_NOBODY, sizeof odds->best[t]);
}

/* The most vectors of a block (at least 1): what G takes. */
static uint32_t block_vectors(const Plan *pl)
{
    uint32_t most = 1;
    for (int j = 0; j < pl->nb; j++)
        if (pl->blocks[j].n_vec > most)
            most = pl->blocks[j].n_vec;
    return most;
}

/* 3. The forward sweep: per block, the deals of each local vector. The
 * masses, G (twice, for G ahead) and G by vector in w; F and the next F
 * alternate between the two halves of what is left (with the completions
 * of the conv path beside the next F). 0, or -1 when w is too small. */
static int sweep_init(Sweep *sw, const Plan *pl, LitWork w)
{
    memset(sw, 0, sizeof *sw);
    sw->pl = pl;
    sw->mass = lit_work_take(&w, sizeof(LitU192) * LIT_MAX_CARDS * LIT_MAX_PLAYERS);
    uint32_t most_vectors = block_vectors(pl);
    sw->g = lit_work_take(&w, sizeof(LitU192) * most_vectors);
    sw->g_ahead = lit_work_take(&w, sizeof(LitU192) * most_vectors);
    if (!sw->mass || !sw->g || !sw->g_ahead || table_new(&sw->gv, &w, most_vectors))
        return -1;
    memset(sw->mass, 0, sizeof(LitU192) * LIT_MAX_CARDS * LIT_MAX_PLAYERS);
    size_t half_size = (w.left / 2) & ~(size_t)15;
    sw->half[0] = (LitWork){w.p, half_size};
    sw->half[1] = (LitWork){w.p + half_size, half_size};
    LitWork use = sw->half[0];
    LitU192 one = lit_u192(1);
    if (dense_layer(&sw->f, &use, 1, &pl->cx))
        return -1;
    add_to(&sw->f, 0, &one);
    sw->past_f = use;
    return 0;
}

/* The next F from F_j = f by block j's card steps, each table within them
 * kept to what the layer after can complete (prune.c); w for both. */
static int next_steps(const Plan *pl, const Table *f, int j, Table *nf, LitWork w)
{
    const uint64_t *keep[LIT_MAX_SET_SIZE + 1];
    const uint64_t *const *within = prune_masks(pl, &pl->layer[j + 1], -1, j, keep, &w);
    return steps_back(&pl->cx, &pl->steps[j], &pl->blocks[j], f, nf, w, within);
}

/* Drops the states of the next F (block j's, by steps) that the layer
 * after cannot complete. */
static void next_complete(const Plan *pl, int j, Table *nf)
{
    const Table *after = &pl->layer[j + 1];
    uint32_t is = dense_index(&pl->cx.dense, pl->cx.slots);
    for (uint32_t k = 0; k < occ_words(nf); k++)
        for (uint64_t bits = nf->occ[k]; bits; bits &= bits - 1) {
            uint32_t i = k << 6 | (uint32_t)lit_lsb(bits);
            if (!after->sum[is - i])
                dense_drop(nf, i);
        }
}

/* a. (dense layers) The next F by card steps when they cost less, less
 * the vectors the layer after cannot complete, and G by its own pass (or
 * from the look-ahead, e.), or both by derivatives; otherwise vector by
 * vector over F in index order (dense_forward), its lists taken from
 * scratch. Whether the block went by steps and by derivatives in *stepped
 * and *derived. 0, or -1 when the workspace is too small. */
static int forward_dense(Sweep *sw, int j, Table *nf, LitWork *scratch, int ahead, int *stepped,
                         int *derived, LitOdds *odds)
{
    const Plan *pl = sw->pl;
    const Ctx *cx = &pl->cx;
    const Block *b = &pl->blocks[j];
    const Table *after = &pl->layer[j + 1];
    int forward_vectors = pl->by_steps[j] && steps_vectors(pl, j, sw->f.count);
    odds->forward_vectors += (uint32_t)forward_vectors;
    /* by derivatives, the next F by card steps as well */
    *derived = pl->by_steps[j] && !forward_vectors && !ahead &&
               side_deriv_pays(pl, j, sw->f.count) &&
               deriv_block(pl, j, &sw->f, nf, sw->g, sw->mass, sw->past_f, *scratch, odds) == 0;
    odds->derived += (uint32_t)*derived;
    *stepped = pl->by_steps[j] && !forward_vectors &&
               (*derived || next_steps(pl, &sw->f, j, nf, *scratch) == 0);
    odds->stepped += (uint32_t)*stepped;
    if (!*stepped)
        return dense_forward(cx, b, &sw->f, after, nf, sw->g, scratch);
    steps_count(&pl->steps[j], &odds->horner, &odds->mixed);
    next_complete(pl, j, nf);
    if (ahead) {
        odds->ahead++;
        LitU192 *t = sw->g;
        sw->g = sw->g_ahead;
        sw->g_ahead = t;
        return 0;
    }
    if (!*derived && side_block(pl, j, &sw->f, sw->g, sw->past_f, *scratch, odds))
        return -1;
    return 0;
}

/* a. (hashed layers) In one pass over F and the block's vectors: the next
 * F (the vectors that can be completed, which the layer after says) and
 * G(v) = sum_u F(u) B_{j+1}(slots - u - v), the deals in which block j
 * gives v. 0, or -1 when the next F is full. */
static int forward_hashed(const Ctx *cx, const Block *b, const Table *f, const Table *after,
                          Table *nf, LitU192 *g)
{
    uint64_t slots = cx->slots, guard = cx->lay.guard;
    for (uint32_t i = 0; i < f->cap; i++) {
        if (!slot_full(f, i))
            continue;
        uint64_t given = slot_vec(f, i), left = slots - given;
        for (uint32_t v = 0; v < b->n_vec; v++) {
            if (!fits(guard, b->vec[v].v, left))
                continue;
            LitU192 c, a = val_get(f, i);
            if (!lookup(after, left - b->vec[v].v, &c))
                continue;
            LitU192 x = times(&a, b->vec[v].n), y = mul_low(&a, &c);
            if (add_to(nf, given + b->vec[v].v, &x))
                return -1;
            lit_u192_add(&g[v], &g[v], &y);
        }
    }
    return 0;
}

/* a. (the free cards summed over, conv) Every vector the blocks up to j
 * can give, b. the ways to complete each (a sum over the layer after, with
 * the free cards spread over the rest), c. G(v) from both; then the next
 * F keeps the vectors that can be completed. The tables of a. and b. in
 * scratch, bound the states of a.; 0, -1 when they do not fit, or
 * SWEEP_BUDGET when b.'s pairs go past what is left of the budget. */
static int forward_conv(const Plan *pl, const Block *b, const Table *f, const Table *after,
                        Table *nf, LitU192 *g, uint64_t bound, LitWork *scratch,
                        uint64_t *budget)
{
    const Ctx *cx = &pl->cx;
    uint64_t slots = cx->slots, guard = cx->lay.guard;
    Table all, done;
    if (table_new(&all, scratch, bound))
        return -1;
    for (uint32_t i = 0; i < f->cap; i++) {
        if (!slot_full(f, i))
            continue;
        uint64_t given = slot_vec(f, i);
        for (uint32_t v = 0; v < b->n_vec; v++) {
            if (!fits(guard, b->vec[v].v, slots - given))
                continue;
            LitU192 a = val_get(f, i), x = times(&a, b->vec[v].n);
            if (add_to(&all, given + b->vec[v].v, &x))
                return -1;
        }
    }
    /* b.'s pairs, each a unit of the budget (docs/DEDUCTION.md "The state
     * budget"): every vector of a. with every state of the layer after */
    if (budget_spend(budget, (uint64_t)all.count * after->count))
        return SWEEP_BUDGET;
    if (table_new(&done, scratch, all.count))
        return -1;
    for (uint32_t i = 0; i < all.cap; i++) {
        if (!slot_full(&all, i))
            continue;
        uint64_t left = slots - slot_vec(&all, i);
        LitU192 c = lit_u192(0);
        for (uint32_t x = 0; x < after->cap; x++) {
            if (!slot_full(after, x) || !fits(guard, slot_vec(after, x), left))
                continue;
            LitU192 ways = free_spread(cx, left - slot_vec(after, x), pl->conv), y,
                    a = val_get(after, x);
            lit_u192_mul(&y, &a, &ways);
            lit_u192_add(&c, &c, &y);
        }
        if (!lit_u192_is_zero(&c)) {
            add_to(&done, slot_vec(&all, i), &c);
            LitU192 a = val_get(&all, i);
            add_to(nf, slot_vec(&all, i), &a);
        }
    }
    for (uint32_t i = 0; i < f->cap; i++) {
        if (!slot_full(f, i))
            continue;
        uint64_t given = slot_vec(f, i);
        for (uint32_t v = 0; v < b->n_vec; v++) {
            if (!fits(guard, b->vec[v].v, slots - given))
                continue;
            LitU192 c, x, a = val_get(f, i);
            if (!lookup(&done, given + b->vec[v].v, &c))
                continue;
            lit_u192_mul(&x, &a, &c);
            lit_u192_add(&g[v], &g[v], &x);
        }
    }
    return 0;
}

/* d. Every placement with vector v has g[v] deals of the fields: G by
 * vector for the claims, and the marginals from which card each vector's
 * placements put where (unless they came by derivatives). */
static void block_marginals(const Ctx *cx, const Block *b, const LitU192 *g, int derived,
                            Table *gv, LitU192 (*mass)[LIT_MAX_PLAYERS])
{
    table_clear(gv);
    int first = lit_set_first(cx->k->pub.rules.deck, b->set);
    for (uint32_t v = 0; v < b->n_vec; v++) {
        add_to(gv, b->vec[v].v, &g[v]);
        if (derived || lit_u192_is_zero(&g[v]))
            continue;
        for (int c = 0; c < b->n; c++)
            for (int u = 0; u < cx->lay.n; u++)
                if (b->at[v][c][u]) {
                    LitU192 x = times(&g[v], b->at[v][c][u]);
                    lit_u192_add(&mass[first + b->pos[c]][u], &mass[first + b->pos[c]][u], &x);
                }
    }
}

/* d. The claim figures of block j's set, from a walk over the placements
 * on one team's seats; with pooled cards, over all of the set's unplaced
 * cards (pool_visit), its memo in scratch. 0, or -1 when the memo does not
 * fit. */
static int block_claims(const Plan *pl, const Table *f, const Table *gv, int j, LitWork scratch,
                        LitOdds *odds)
{
    const Ctx *cx = &pl->cx;
    const LitKnow *k = cx->k;
    const LitRules *r = &k->pub.rules;
    const Block *b = &pl->blocks[j];
    int deck = r->deck, players = cx->players, first = lit_set_first(deck, b->set);
    uint64_t setmask = lit_set_mask(deck, b->set);
    int team_of_placed = claims_team(k, setmask);
    Block full = *b;
    if (b->pooled) {
        full.n = 0;
        for (uint64_t x = setmask & pl->unplaced; x;) {
            int card = lit_pop_lsb(&x);
            full.pos[full.n] = (uint8_t)(card - first);
            full.seat_cand[full.n] = 0;
            for (int s = 0; s < players; s++)
                if (k->may[s] & lit_bit(card))
                    full.seat_cand[full.n] |= 1u << s;
            full.n++;
        }
    }
    /* with dense layers, D copied dense once for both teams' pool_fill */
    Table dd;
    const Table *dense_d = NULL;
    if (b->pooled && pl->short_pool[j].dense) {
        dense_d = &pl->short_pool[j];
    } else if (b->pooled && cx->use_dense) {
        LitWork rest = scratch;
        if (pool_dense(cx, &pl->short_pool[j], &dd, &rest) == 0) {
            dense_d = &dd;
            scratch = rest;
        }
    }
    for (int t = 0; t < 2; t++) {
        Mixed mx = {{cx, gv, lit_u192(0), lit_u192(0), {0}}, f, &pl->short_pool[j], dense_d,
                    NULL, 0};
        Claim *cl = &mx.cl;
        if (team_of_placed < 0 || team_of_placed == t) {
            Walk wk;
            walk_init(&wk, k, &full, &cx->seats, full.seat_cand, cx->seat_slots,
                      lit_team_seats(r, t));
            wk.visit = claims_visit;
            wk.ctx = cl;
            Table memo;
            if (b->pooled) {
                LitWork room = scratch;
                if (table_new(&memo, &room, 1024))
                    return -1;
                mx.memo = &memo;
                wk.ctx = &mx;
                /* dense: every vector z first, then their h in one pass;
                 * where that cannot go, pool_visit sums each z alone */
                if (dense_d) {
                    wk.visit = pool_collect;
                    walk_run(&wk, 0, 0, 0);
                    if (mx.full || pool_fill(&mx, room)) {
                        table_clear(&memo);
                        mx.full = 0;
                    }
                }
                wk.visit = pool_visit;
            }
            walk_run(&wk, 0, 0, 0);
            if (mx.full)
                return -1;
        }
        odds->team_all[t][b->set] = lit_u192_ratio(&cl->all, &pl->deals);
        odds->best_p[t][b->set] = lit_u192_ratio(&cl->best, &pl->deals);
        if (lit_u192_is_zero(&cl->best)) {
            memset(odds->best[t][b->set], LIT_NOBODY, LIT_MAX_SET_SIZE);
            continue;
        }
        for (int c = 0; c < full.n; c++)
            odds->best[t][b->set][full.pos[c]] = (uint8_t)cl->seat[c];
        for (int s = 0; s < players; s++)
            for (uint64_t x = k->held[s] & setmask; x;)
                odds->best[t][b->set][lit_pop_lsb(&x) - first] = (uint8_t)s;
    }
    return 0;
}

/* Block j of the forward sweep: a. the next F and G, d. the marginals and
 * the claim figures, e. G of the next block from this F (ahead), where
 * that costs less than the next block's own ways, f. the next F. 0, -1
 * when the workspace is too small, or SWEEP_BUDGET when the work went
 * past what is left of the budget (*left). */
static int sweep_block(Sweep *sw, int j, LitOdds *odds, uint64_t *left)
{
    const Plan *pl = sw->pl;
    const Ctx *cx = &pl->cx;
    const Block *b = &pl->blocks[j];
    const Table *after = &pl->layer[j + 1];
    sw->cards_before += b->n;
    Table nf;
    uint64_t bound = (uint64_t)sw->f.count * b->n_vec;
    uint64_t most = fields_vectors(&cx->lay, cx->slots, sw->cards_before);
    if (bound > most)
        bound = most;
    LitWork scratch = sw->half[1 - sw->side];
    if (dense_layer(&nf, &scratch, bound, cx))
        return -1;
    LitWork past_nf = scratch; /* free once this block is done */
    int stepped = 0, ahead = sw->g_ahead_ready, derived = 0, failed;
    sw->g_ahead_ready = 0;
    memset(sw->g, 0, sizeof(LitU192) * b->n_vec);
    if (pl->conv == 0 && cx->use_dense)
        failed = forward_dense(sw, j, &nf, &scratch, ahead, &stepped, &derived, odds);
    else if (pl->conv == 0)
        failed = forward_hashed(cx, b, &sw->f, after, &nf, sw->g);
    else
        failed = forward_conv(pl, b, &sw->f, after, &nf, sw->g, bound, &scratch, left);
    if (failed)
        return failed;
    block_marginals(cx, b, sw->g, derived, &sw->gv, sw->mass);
    if (block_claims(pl, &sw->f, &sw->gv, j, scratch, odds))
        return -1;
    if (stepped && side_ahead_pays(pl, j, sw->f.count, nf.count))
        sw->g_ahead_ready = side_ahead(pl, j, &sw->f, sw->g_ahead, sw->past_f, past_nf);
    sw->past_f = past_nf;
    sw->f = nf;
    sw->side = 1 - sw->side;
    if (sw->f.count > odds->states)
        odds->states = sw->f.count;
    return 0;
}

/* Sets with every card placed: certain either way. */
static void placed_sets(const Plan *pl, LitOdds *odds)
{
    const LitKnow *k = pl->cx.k;
    int deck = k->pub.rules.deck, players = pl->cx.players;
    for (int set = 0; set < lit_deck_sets(deck); set++) {
        uint64_t m = lit_set_mask(deck, set);
        if (!(k->pub.live & m) || (pl->unplaced & m))
            continue;
        int team = claims_team(k, m);
        if (team == 0 || team == 1) {
            odds->team_all[team][set] = 1.0;
            odds->best_p[team][set] = 1.0;
            for (int s = 0; s < players; s++)
                for (uint64_t x = k->held[s] & m; x;)
                    odds->best[team][set][lit_pop_lsb(&x) - lit_set_first(deck, set)] =
                        (uint8_t)s;
        }
    }
}

/* Marginals: placed cards are certain; a card in a field is at one of
 * its seats in fields_splits(that seat holds it) of the splits. */
static void marginals(const Plan *pl, LitU192 (*mass)[LIT_MAX_PLAYERS], LitOdds *odds)
{
    const Ctx *cx = &pl->cx;
    const LitKnow *k = cx->k;
    int players = cx->players;
    LitU192 split[LIT_MAX_PLAYERS];
    for (int s = 0; s < players; s++)
        split[s] = fields_splits(cx, unit_one(&cx->seats, s));
    for (uint64_t live = k->pub.live; live;) {
        int c = lit_pop_lsb(&live);
        for (int s = 0; s < players; s++) {
            if (k->held[s] & lit_bit(c))
                odds->p[c][s] = 1.0;
            else if (pl->unplaced & lit_bit(c)) {
                LitU192 x;
                lit_u192_mul(&x, &mass[c][cx->lay.unit_of[s]], &split[s]);
                odds->p[c][s] = lit_u192_ratio(&x, &pl->deals);
            }
        }
    }
}

/* ---- counting on two threads (docs/DEDUCTION.md "Two threads") ----
 *
 * With a helper lent, the helper makes the chain F_1 .. F_nb while this
 * thread makes the backward layers: each next F whose layer after is not
 * made yet with every state its block gives (by the block's card steps or
 * vector by vector, as a layer going back is made), each later one as the
 * one-thread sweep makes it (kept to what the layer after completes).
 * Once every layer is made, the helper keeps each early F to what its
 * layer completes, which leaves it the one-thread sweep's, state for state
 * (a state no later block can complete only ever adds to such states).
 * Then both take the blocks' figures (G or the derivatives, the
 * marginals, the claims) and the pool's, each once, the most work first
 * (pairs of F and vectors). Every figure and counter is the one-thread
 * sweep's: a block's figures are made the same way from the same F (G
 * ahead from the F before it, as the one-thread sweep makes it a block
 * early), into the marginals and claim figures of its own set's cards;
 * the pool's from the last F, into those of the free cards and sets. */

/* The bound on the backward work (units of LIT_ODDS_BUDGET, before the
 * layers are made: plan_back_bound) from which the counting goes on two
 * threads. Over bench/corpus/8 the bound is 1.8 to 12 times the work
 * (the 10th and 90th percentiles); from it, the positions with a
 * millisecond of work and more, past the helper's wake-up, but for one
 * in twenty. */
enum { TWIN_BOUND = 1 << 20 };

/* The pool's figures (free_odds) a state of the last F, in pairs of F and
 * a block's vectors: what orders them among the blocks. */
enum { TWIN_POOL_PAIRS = 40 };

/* One thread's part in the figures: its G and G by vector, its counters,
 * and its room (a table's spare, as the one-thread sweep's past F, then
 * scratch). */
typedef struct Lane {
    LitU192 *g;
    Table gv;
    LitWork spare, scratch;
    LitOdds count;
    int failed;
} Lane;

typedef struct Twin {
    const Plan *pl;
    LitU192 (*mass)[LIT_MAX_PLAYERS];
    LitOdds *odds;
    Table chain[LIT_MAX_SETS + 1];   /* F_0 .. F_nb */
    uint8_t stepped[LIT_MAX_SETS];   /* the next F went by card steps */
    uint8_t early[LIT_MAX_SETS + 1]; /* F_j made before layer j */
    uint8_t order[LIT_MAX_SETS + 1]; /* the blocks (j) and the pool's figures
                                      * (nb), the most work first (twin_settle):
                                      * the order both take them in */
    int tasks;                       /* nb, and one for the pool's figures */
    LitU192 *chain_g[LIT_MAX_SETS];  /* G of block j, where the chain's pass
                                      * made it (vector by vector, from the
                                      * one-thread sweep's F), else NULL */
    LitU192 *g_room;                 /* room for every block's G, */
    uint32_t g_at[LIT_MAX_SETS];     /* block j's from g_room[g_at[j]] */
    LitWork chain_room;              /* the chain's scratch, then the lanes' */
    atomic_int back;                 /* the lowest layer made (nb + 1: none),
                                      * or TWIN_DONE, TWIN_FAILED */
    atomic_int ready;                /* 1: the chain is the one-thread sweep's; -1: failed */
    atomic_uint_least64_t taken;     /* bit j: block j is a thread's */
    Lane lane[2];
} Twin;

/* Twin.back once the plan is done: with its short pools and the lanes,
 * or failed. */
enum { TWIN_DONE = -1, TWIN_FAILED = -2 };

/* Plan.made: layer j is made. */
static void twin_layer_made(void *arg, int j)
{
    atomic_store_explicit(&((Twin *)arg)->back, j, memory_order_release);
}

/* The chain, on the helper: F_{j+1} from F_j by block j. 0, or -1 when
 * the plan failed or the chain's room is too small. */
static int twin_chain(Twin *tw)
{
    const Plan *pl = tw->pl;
    const Ctx *cx = &pl->cx;
    for (int j = 0; j < pl->nb; j++) {
        const Block *b = &pl->blocks[j];
        const Table *f = &tw->chain[j];
        Table *nf = &tw->chain[j + 1];
        LitWork room = tw->chain_room;
        int made = atomic_load_explicit(&tw->back, memory_order_acquire);
        if (made == TWIN_FAILED)
            return -1;
        if (made > j + 1) { /* every state block j gives, as going back */
            tw->early[j + 1] = 1;
            if (pl->by_steps[j] ? steps_back(cx, &pl->steps[j], b, f, nf, room, NULL)
                                : dense_back(cx, b, f, nf, room))
                return -1;
            continue;
        }
        int steps = pl->by_steps[j] && !steps_vectors(pl, j, f->count) &&
                    next_steps(pl, f, j, nf, room) == 0;
        if (steps) {
            next_complete(pl, j, nf);
        } else {
            table_clear(nf);
            LitU192 *g = tw->g_room + tw->g_at[j];
            memset(g, 0, sizeof(LitU192) * b->n_vec);
            if (dense_forward(cx, b, f, &pl->layer[j + 1], nf, g, &room))
                return -1;
            tw->chain_g[j] = g;
        }
        tw->stepped[j] = (uint8_t)steps;
    }
    return 0;
}

/* A hint to the core that this thread spins (the core library calls no
 * system function, so it cannot yield): what it waits for runs on the
 * other thread, and the wait is short. */
static inline void twin_pause(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
}

/* Once every layer is made: each early F kept to what its layer
 * completes, and whether the one-thread sweep's next F would go by card
 * steps from there; then the chain is ready. 0, or -1 when the plan
 * failed. */
static int twin_settle(Twin *tw)
{
    const Plan *pl = tw->pl;
    int made;
    while ((made = atomic_load_explicit(&tw->back, memory_order_acquire)) >= 0)
        twin_pause();
    if (made == TWIN_FAILED)
        return -1;
    for (int j = 1; j <= pl->nb; j++)
        if (tw->early[j])
            next_complete(pl, j - 1, &tw->chain[j]);
    uint64_t pairs[LIT_MAX_SETS + 1];
    tw->tasks = pl->nb + (pl->cx.free != 0);
    for (int j = 0; j < tw->tasks; j++) {
        if (j == pl->nb) {
            pairs[j] = (uint64_t)tw->chain[j].count * TWIN_POOL_PAIRS;
        } else {
            if (tw->early[j] || tw->early[j + 1])
                tw->stepped[j] =
                    (uint8_t)(pl->by_steps[j] && !steps_vectors(pl, j, tw->chain[j].count));
            pairs[j] = (uint64_t)tw->chain[j].count * pl->blocks[j].n_vec;
        }
        int at = j;
        for (; at > 0 && pairs[tw->order[at - 1]] < pairs[j]; at--)
            tw->order[at] = tw->order[at - 1];
        tw->order[at] = (uint8_t)j;
    }
    atomic_store_explicit(&tw->ready, 1, memory_order_release);
    return 0;
}

/* Waits until the chain is ready: 0, or -1 when it failed. */
static int twin_made(Twin *tw)
{
    int ready;
    while ((ready = atomic_load_explicit(&tw->ready, memory_order_acquire)) == 0)
        twin_pause();
    return ready < 0 ? -1 : 0;
}

/* Block j's figures on lane ln, from F_j (sweep_block's, but the next F,
 * which the chain made, and G where the chain's pass made it with the
 * next F): 0, or -1 when the lane's room is too small. */
static int twin_block(Twin *tw, Lane *ln, int j)
{
    const Plan *pl = tw->pl;
    const Ctx *cx = &pl->cx;
    const Block *b = &pl->blocks[j];
    const Table *f = &tw->chain[j];
    LitOdds *c = &ln->count;
    LitWork scratch = ln->scratch;
    Table nf; /* what a pass vector by vector makes of the next F, unused;
               * emptied only where that pass goes */
    if (dense_take(&nf, &scratch, 1, cx))
        return -1;
    LitWork past_nf = scratch;
    memset(ln->g, 0, sizeof(LitU192) * b->n_vec);
    int vectors = pl->by_steps[j] && steps_vectors(pl, j, f->count);
    c->forward_vectors += (uint32_t)vectors;
    int ahead = j > 0 && tw->stepped[j - 1] &&
                side_ahead_pays(pl, j - 1, tw->chain[j - 1].count, f->count) &&
                side_ahead(pl, j - 1, &tw->chain[j - 1], ln->g, ln->spare, past_nf);
    int derived = pl->by_steps[j] && !vectors && !ahead && side_deriv_pays(pl, j, f->count) &&
                  deriv_block(pl, j, f, NULL, ln->g, tw->mass, ln->spare, scratch, c) == 0;
    c->derived += (uint32_t)derived;
    int stepped = pl->by_steps[j] && !vectors && (derived || tw->stepped[j]);
    c->stepped += (uint32_t)stepped;
    if (!stepped && tw->chain_g[j]) {
        memcpy(ln->g, tw->chain_g[j], sizeof(LitU192) * b->n_vec);
    } else if (!stepped) {
        memset(ln->g, 0, sizeof(LitU192) * b->n_vec);
        table_clear(&nf);
        if (dense_forward(cx, b, f, &pl->layer[j + 1], &nf, ln->g, &scratch))
            return -1;
    } else {
        steps_count(&pl->steps[j], &c->horner, &c->mixed);
        c->ahead += (uint32_t)ahead;
        if (!ahead && !derived && side_block(pl, j, f, ln->g, ln->spare, scratch, c))
            return -1;
    }
    block_marginals(cx, b, ln->g, derived, &ln->gv, tw->mass);
    return block_claims(pl, f, &ln->gv, j, scratch, tw->odds);
}

/* Task j on lane ln: block j's figures, or with j = nb the pool's, from
 * the chain's last F in the lane's room (its cards and sets are none of
 * the blocks'). 0, or -1 when the lane's room is too small. */
static int twin_task(Twin *tw, Lane *ln, int j)
{
    const Plan *pl = tw->pl;
    if (j < pl->nb)
        return twin_block(tw, ln, j);
    LitWork room = {ln->spare.p, ln->spare.left + ln->scratch.left};
    return free_odds(pl, &tw->chain[pl->nb], room, tw->mass, tw->odds);
}

/* Task j for the thread that asks: 1 when no other has taken it. */
static int twin_take(Twin *tw, int j)
{
    uint64_t bit = UINT64_C(1) << j;
    return !(atomic_fetch_or(&tw->taken, bit) & bit);
}

/* The helper's part: the chain, then the tasks (Twin.order). */
static void twin_help(void *arg)
{
    Twin *tw = arg;
    Lane *ln = &tw->lane[1];
    if (twin_chain(tw)) {
        atomic_store_explicit(&tw->ready, -1, memory_order_release);
        return;
    }
    if (twin_settle(tw))
        return;
    for (int i = 0; i < tw->tasks; i++)
        if (twin_take(tw, tw->order[i]) && twin_task(tw, ln, tw->order[i])) {
            ln->failed = 1;
            return;
        }
}

/* This thread's part, the plan done: the tasks (Twin.order), once the
 * chain is ready. */
static void twin_front(Twin *tw)
{
    Lane *ln = &tw->lane[0];
    if (twin_made(tw)) {
        ln->failed = 1;
        return;
    }
    for (int i = 0; i < tw->tasks; i++)
        if (twin_take(tw, tw->order[i]) && twin_task(tw, ln, tw->order[i])) {
            ln->failed = 1;
            return;
        }
}

/* The chain's scratch: two tables for a block's card steps, and room for
 * the lists and the bitsets that keep them. */
enum { TWIN_CHAIN_TABLES = 2, TWIN_CHAIN_LISTS = 640 << 10 };

/* The twin, the masses and the chain's tables from the end of *w, and the
 * chain's scratch before them, which *w then leaves out: the twin, or
 * NULL when w cannot hold them beside the plan's layers and their room. */
static Twin *twin_init(const Plan *pl, LitWork *w, LitOdds *odds)
{
    const Ctx *cx = &pl->cx;
    size_t table = table_bytes(0, &cx->dense, cx->narrow), vectors = 0;
    for (int j = 0; j < pl->nb; j++)
        vectors += pl->blocks[j].n_vec;
    size_t most = sizeof(LitU192) * vectors;
    size_t mass = sizeof(LitU192) * LIT_MAX_CARDS * LIT_MAX_PLAYERS;
    size_t tail = lit_work_round(sizeof(Twin)) + lit_work_round(mass) + lit_work_round(most) +
                  (size_t)(pl->nb + 1) * table;
    size_t room = TWIN_CHAIN_TABLES * table + TWIN_CHAIN_LISTS;
    /* the plan's layers and its steps' two tables; the lanes' six each,
     * two of them in the chain's scratch */
    if (w->left < tail + room + (size_t)(pl->nb + 1 + 2 + 10) * table)
        return NULL;
    LitWork t = {w->p + w->left - tail, tail};
    Twin *tw = lit_work_take(&t, sizeof *tw);
    memset(tw, 0, sizeof *tw);
    tw->pl = pl;
    tw->odds = odds;
    tw->mass = lit_work_take(&t, mass);
    tw->g_room = lit_work_take(&t, most);
    memset(tw->mass, 0, mass);
    for (int j = 1; j < pl->nb; j++)
        tw->g_at[j] = tw->g_at[j - 1] + pl->blocks[j - 1].n_vec;
    for (int j = 0; j <= pl->nb; j++)
        if (dense_layer(&tw->chain[j], &t, 1, cx))
            return NULL;
    LitU192 one = lit_u192(1);
    add_to(&tw->chain[0], 0, &one);
    tw->chain_room = (LitWork){w->p + w->left - tail - room, room};
    w->left -= tail + room;
    atomic_init(&tw->back, pl->nb + 1);
    atomic_init(&tw->ready, 0);
    atomic_init(&tw->taken, 0);
    return tw;
}

/* The lanes, in what the plan left (w) and the chain's scratch after it
 * (the lanes are used only once the chain is done): each its G, G by
 * vector, a table spare and the rest scratch. 0, or -1 when they do not
 * fit with room for a block's work in each. */
static int twin_lanes(Twin *tw, LitWork w)
{
    const Plan *pl = tw->pl;
    size_t table = table_bytes(0, &pl->cx.dense, pl->cx.narrow);
    w.left += tw->chain_room.left; /* (the chain's scratch comes right after) */
    uint32_t most_vectors = block_vectors(pl);
    for (int i = 0; i < 2; i++) {
        tw->lane[i].g = lit_work_take(&w, sizeof(LitU192) * most_vectors);
        if (!tw->lane[i].g || table_new(&tw->lane[i].gv, &w, most_vectors))
            return -1;
    }
    size_t lane = (w.left / 2) & ~(size_t)15;
    if (lane < 6 * table)
        return -1;
    for (int i = 0; i < 2; i++) {
        LitWork room = {w.p + (size_t)i * lane, lane};
        tw->lane[i].spare = (LitWork){room.p, table};
        tw->lane[i].scratch = (LitWork){room.p + table, lane - table};
    }
    return 0;
}

/* The counters of a lane into odds. */
static void twin_count(LitOdds *odds, const LitOdds *c)
{
    odds->stepped += c->stepped;
    odds->horner += c->horner;
    odds->mixed += c->mixed;
    odds->ahead += c->ahead;
    odds->behind += c->behind;
    odds->turned += c->turned;
    odds->forward_vectors += c->forward_vectors;
    odds->derived += c->derived;
}

/* The plan's layers and short pools on this thread, beside the helper's
 * chain: PLAN_OK with the lanes made, or what went wrong (the helper is
 * told to stop). */
static int twin_plan(Twin *tw, Plan *pl, LitHelper *h, uint64_t free_vectors, LitWork *w,
                     LitOdds *odds, int *lent)
{
    pl->made = twin_layer_made;
    pl->made_arg = tw;
    *lent = h->run(h, twin_help, tw) == 0;
    int built = plan_finish(pl, free_vectors, w);
    pl->made = NULL;
    if (built == PLAN_OK && (pool_short(pl, w) || twin_lanes(tw, *w)))
        built = PLAN_OVER;
    if (built == PLAN_OK) {
        odds->work = plan_budget(pl->cx.k) - pl->budget;
        odds_start(pl, odds);
        odds->deals = pl->deals;
    }
    atomic_store_explicit(&tw->back, built == PLAN_OK ? TWIN_DONE : TWIN_FAILED,
                          memory_order_release);
    return built;
}

/* lit_odds on two threads, where the layers are dense, the budget is not
 * counted and the backward work may be large enough (or
 * INFER_TWIN_ALWAYS), from the plan as plan_start left it in w: 0 with
 * every figure in odds, TWIN_NO (nothing changed) or TWIN_AGAIN. */
static int twin_odds(Plan *pl, LitHelper *h, uint64_t free_vectors, LitWork *w, LitOdds *odds)
{
    unsigned how = pl->cx.how;
    if (plan_budget(pl->cx.k) != UINT64_MAX || !pl->cx.use_dense || pl->conv || pl->nb < 1 ||
        pl->nb > 62 || (plan_back_bound(pl) < TWIN_BOUND && !(how & INFER_TWIN_ALWAYS)))
        return TWIN_NO;
    LitWork rest = *w;
    Twin *tw = twin_init(pl, &rest, odds);
    if (!tw)
        return TWIN_NO;
    int lent, built = twin_plan(tw, pl, h, free_vectors, &rest, odds, &lent);
    if (built == PLAN_OK && !lent)
        twin_help(tw); /* the chain and every block, here */
    if (built == PLAN_OK)
        twin_front(tw);
    if (lent)
        h->wait(h);
    if (built != PLAN_OK || atomic_load_explicit(&tw->ready, memory_order_acquire) < 0 ||
        tw->lane[0].failed || tw->lane[1].failed)
        return TWIN_AGAIN;
    for (int i = 0; i < 2; i++)
        twin_count(odds, &tw->lane[i].count);
    for (int j = 0; j < pl->nb; j++) {
        odds->work += (uint64_t)FORWARD_WORK * tw->chain[j].count * pl->unit[j];
        if (tw->chain[j + 1].count > odds->states)
            odds->states = tw->chain[j + 1].count;
    }
    placed_sets(pl, odds);
    marginals(pl, tw->mass, odds);
    return 0;
}

int lit_odds(const LitKnow *k, void *work, size_t work_size, LitOdds *odds)
{
    return infer_odds(k, work, work_size, odds, LIT_ODDS_HOW);
}

int lit_odds_helped(const LitKnow *k, void *work, size_t work_size, LitHelper *helper,
                    LitOdds *odds)
{
    return infer_odds_helped(k, work, work_size, helper, odds, LIT_ODDS_HOW);
}

int lit_odds_count(const LitKnow *k, void *work, size_t work_size, LitU192 *deals)
{
    *deals = lit_u192(0);
    if (!k->consistent)
        return LIT_INCONSISTENT;
    LitWork w;
    Plan *pl;
    uint64_t spent;
    int twinned, built = odds_plan(k, work, work_size, LIT_ODDS_HOW, NULL, &w, &pl, &spent, NULL,
                                   &twinned);
    if (built == PLAN_OVER)
        return LIT_NO_SPACE;
    if (built == PLAN_OK)
        *deals = pl->deals;
    return LIT_OK;
}

int infer_odds(const LitKnow *k, void *work, size_t work_size, LitOdds *odds, unsigned how)
{
    return infer_odds_helped(k, work, work_size, NULL, odds, how);
}

int infer_odds_helped(const LitKnow *k, void *work, size_t work_size, LitHelper *helper,
                      LitOdds *odds, unsigned how)
{
    memset(odds, 0, sizeof *odds);
    if (!k->consistent)
        return LIT_INCONSISTENT;
    LitWork w;
    Plan *pl;
    int twinned, built = odds_plan(k, work, work_size, how, helper, &w, &pl, &odds->work, odds,
                                   &twinned);
    if (twinned)
        return LIT_OK;
    if (built == PLAN_OVER)
        return over(odds);
    odds_start(pl, odds);
    if (built == PLAN_NONE)
        return LIT_OK;
    odds->deals = pl->deals;
    Sweep sw;
    if (sweep_init(&sw, pl, w))
        return over(odds);
    /* the forward sweep's work, F's states times the block's work times
     * FORWARD_WORK, spent as it reaches each block (docs/DEDUCTION.md
     * "The state budget") */
    uint64_t left = pl->budget;
    for (int j = 0; j < pl->nb; j++) {
        int swept = budget_spend(&left, (uint64_t)FORWARD_WORK * sw.f.count * pl->unit[j])
                        ? SWEEP_BUDGET
                        : sweep_block(&sw, j, odds, &left);
        if (swept == SWEEP_BUDGET)
            odds->work += pl->budget;
        if (swept)
            return over(odds);
    }
    odds->work += pl->budget - left;
    if (pl->cx.free && free_odds(pl, &sw.f, sw.half[1 - sw.side], sw.mass, odds))
        return over(odds); /* 4. the pool: its spare is what F does not use now */
    placed_sets(pl, odds);
    marginals(pl, sw.mass, odds);
    return LIT_OK;
}
