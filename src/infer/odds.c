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
 *      and the claim figures of the block's set (here, with figures.c).
 *   4. The pool's figures from F after every block (free.c).
 * With a helper lent, twin.c counts on two threads instead.
 * Where it costs less, a block's layers come card by card instead of vector
 * by vector (steps.c; docs/DEDUCTION.md "Card steps"); counting.h lists the
 * files of the other techniques.
 * Nothing is allocated: tables live in the caller's workspace.
 */
#include "counting.h"

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
