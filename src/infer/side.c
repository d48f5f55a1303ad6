/* side.c - which side G goes over (INFER_AHEAD; docs/DEDUCTION.md "Which
 * side G goes over"): per block, G directly over the smaller of F and the
 * layer after, behind (over the layer after the next block) or ahead
 * (from the F before it), or with the marginals by derivatives (deriv.c),
 * whichever the cost model prices lowest. */
#include "counting.h"

/* The ways to form G of block j (docs/DEDUCTION.md "Which side G goes
 * over"): G(v) = sum_u A(u) C(slots - u - v) for any two layers A and C
 * that count, between them, every block but j. The pass goes over A's
 * entries and looks C up, so its pairs are A's states times j's vectors:
 * A is F_j or the layer after j, whichever is smaller (G_DIRECT), or the
 * layer after j + 1, with C = F_j and block j + 1's cards by card steps
 * (G_BEHIND), or (decided a block earlier) F_{j-1}, with C = the layer
 * after j and block j - 1's cards by card steps (side_ahead_pays). */
enum { G_DIRECT, G_BEHIND };

/* The cheaper of G_DIRECT and G_BEHIND for block j, with f states in F_j;
 * its work in *work. Under INFER_STEPS_ALWAYS (the tests) G_BEHIND
 * wherever it can go. */
static int side_way(const Plan *pl, int j, uint32_t f, uint64_t *work)
{
    const Ctx *cx = &pl->cx;
    uint64_t n_vec = pl->blocks[j].n_vec, after = pl->layer[j + 1].count;
    *work = gpass_work((f < after ? f : after) * n_vec, 0);
    if (j + 1 >= pl->nb || !pl->by_steps[j + 1] || !(cx->how & INFER_AHEAD))
        return G_DIRECT;
    uint64_t behind =
        gpass_work(pl->layer[j + 2].count * n_vec,
                   pl->step_work[j + 1] * (uint64_t)f);
    if (behind >= *work && !steps_always(cx))
        return G_DIRECT;
    *work = behind;
    return G_BEHIND;
}

/* Whether block j's G and marginals should come by derivatives from F_j
 * of f states: where that costs less than G's own ways (wherever they can
 * go, under INFER_STEPS_ALWAYS). */
int side_deriv_pays(const Plan *pl, int j, uint32_t f)
{
    if (!pl->deriv[j])
        return 0;
    if (steps_always(&pl->cx))
        return 1;
    uint64_t g;
    side_way(pl, j, f, &g);
    return deriv_cost(pl, j, f) < g;
}

/* Whether G of block j + 1 should come from F_j (f states), ahead, with
 * next_f states in F_{j+1}: where that costs less than the block's own
 * ways, and the block goes by steps from F_{j+1} (vector by vector, its
 * pass forms G anyway). Under INFER_STEPS_ALWAYS, for two blocks of every
 * three (so that the tests see G_BEHIND too, and ahead twice in a row). */
int side_ahead_pays(const Plan *pl, int j, uint32_t f, uint32_t next_f)
{
    const Ctx *cx = &pl->cx;
    if (!(cx->how & INFER_AHEAD) || j + 1 >= pl->nb || !pl->by_steps[j] ||
        !pl->by_steps[j + 1] || steps_vectors(pl, j + 1, next_f))
        return 0;
    if (steps_always(cx))
        return !pl->deriv[j + 1] && j % 3 != 2;
    uint64_t next_work, deriv = deriv_cost(pl, j + 1, next_f);
    side_way(pl, j + 1, next_f, &next_work);
    if (deriv < next_work)
        next_work = deriv;
    /* the steps' layers grow from the layer after j + 1 towards the one
     * after j (as the backward sweep's did): priced on the larger */
    uint64_t pairs = (uint64_t)f * pl->blocks[j + 1].n_vec;
    uint64_t from = pl->layer[j + 2].count, to = pl->layer[j + 1].count;
    uint64_t fields = pl->step_work[j] * (from > to ? from : to);
    return gpass_work(pairs, fields) < next_work;
}

/* g = G of block j (stepped) from F_j = f by G_DIRECT or G_BEHIND, the
 * layer G_BEHIND steps in spare (one table) and its buffers and the
 * pass's lists in w. 0, or -1 when w cannot hold the lists. */
int side_block(const Plan *pl, int j, const Table *f, LitU192 *g, LitWork spare, LitWork w,
               LitOdds *odds)
{
    const Ctx *cx = &pl->cx;
    const Block *b = &pl->blocks[j];
    const Table *after = &pl->layer[j + 1];
    uint64_t work;
    Table x;
    const uint64_t *keep[LIT_MAX_SET_SIZE + 1];
    LitWork steps = w;
    if (side_way(pl, j, f->count, &work) == G_BEHIND && dense_layer(&x, &spare, 1, cx) == 0 &&
        steps_back(cx, &pl->steps[j + 1], &pl->blocks[j + 1], f, &x, steps,
                   prune_masks(pl, &pl->layer[j + 2], j, j + 1, keep, &steps)) == 0) {
        odds->behind++;
        return gpass_run(cx, &pl->layer[j + 2], b, &x, g, w);
    }
    return gpass_direct(cx, f, b, after, g, w, odds);
}

/* G of block j + 1 from F_j = f, ahead: the layer after it with block j's
 * cards stepped in, in what F's half does not use (past_f), its buffers and
 * the pass's lists in what the next F's does not (past_nf). 1 when g holds
 * it, 0 when it did not fit. */
int side_ahead(const Plan *pl, int j, const Table *f, LitU192 *g, LitWork past_f,
               LitWork past_nf)
{
    const Ctx *cx = &pl->cx;
    Table y;
    const uint64_t *keep[LIT_MAX_SET_SIZE + 1];
    LitWork steps = past_nf;
    const uint64_t *const *within = prune_masks(pl, f, j + 1, j, keep, &steps);
    return dense_layer(&y, &past_f, 1, cx) == 0 &&
           steps_back(cx, &pl->steps[j], &pl->blocks[j], &pl->layer[j + 2], &y, steps,
                      within) == 0 &&
           gpass_run(cx, f, &pl->blocks[j + 1], &y, g, past_nf) == 0;
}
