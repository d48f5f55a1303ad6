/* twin.c - lit_odds on two threads (docs/DEDUCTION.md "Two threads").
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
#include "counting.h"

#include <stdatomic.h>

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
                                      * made it (vector by vector), else
                                      * NULL: the one-thread sweep's G, as
                                      * an early F's states past its layer
                                      * meet none of layer j + 1 */
    LitU192 *g_room;                 /* room for every block's G, */
    uint32_t g_at[LIT_MAX_SETS];     /* block j's from g_room[g_at[j]] */
    LitWork chain_room;              /* the chain's scratch, then the lanes' */
    atomic_int back;                 /* the lowest layer made (nb + 1: none),
                                      * or TWIN_DONE, TWIN_FAILED */
    atomic_int ready;                /* 1: the chain is the one-thread sweep's; -1: failed */
    atomic_uint_least64_t taken;     /* bit j: task j (Twin.order) is a thread's */
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
    size_t all_g = sizeof(LitU192) * vectors;
    size_t mass = sizeof(LitU192) * LIT_MAX_CARDS * LIT_MAX_PLAYERS;
    size_t tail = lit_work_round(sizeof(Twin)) + lit_work_round(mass) + lit_work_round(all_g) +
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
    tw->g_room = lit_work_take(&t, all_g);
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
 * (the lanes are used only once the chain is done, and nothing here
 * writes to them: the helper may still be running the chain in its
 * scratch; G by vector is emptied before each use, block_marginals):
 * each its G, G by vector, a table spare and the rest scratch. 0, or -1
 * when they do not fit with room for a block's work in each. */
static int twin_lanes(Twin *tw, LitWork w)
{
    const Plan *pl = tw->pl;
    size_t table = table_bytes(0, &pl->cx.dense, pl->cx.narrow);
    w.left += tw->chain_room.left; /* (the chain's scratch comes right after) */
    uint32_t most_vectors = block_vectors(pl);
    for (int i = 0; i < 2; i++) {
        tw->lane[i].g = lit_work_take(&w, sizeof(LitU192) * most_vectors);
        if (!tw->lane[i].g || table_take(&tw->lane[i].gv, &w, most_vectors, NULL, 0))
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
int twin_odds(Plan *pl, LitHelper *h, uint64_t free_vectors, LitWork *w, LitOdds *odds)
{
    unsigned how = pl->cx.how;
    _Static_assert(LIT_MAX_SETS + 1 <= 64, "a bit of Twin.taken a task");
    if (plan_budget(pl->cx.k) != UINT64_MAX || !pl->cx.use_dense || pl->conv || pl->nb < 1 ||
        (plan_back_bound(pl) < TWIN_BOUND && !(how & INFER_TWIN_ALWAYS)))
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
