/* figures.c - the figures the forward sweep (odds.c) and the two threads
 * (twin.c) both make: what the plan says before the sweep, the next F by
 * card steps, each block's marginals and claim figures from its G (step 3
 * d. of odds.c), the sets with every card placed, and the marginals as
 * probabilities. */
#include "counting.h"

/* What the plan says before the sweep: its counters, and no likeliest
 * placement yet. */
void odds_start(const Plan *pl, LitOdds *odds)
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
uint32_t block_vectors(const Plan *pl)
{
    uint32_t most = 1;
    for (int j = 0; j < pl->nb; j++)
        if (pl->blocks[j].n_vec > most)
            most = pl->blocks[j].n_vec;
    return most;
}

/* The next F from F_j = f by block j's card steps, each table within them
 * kept to what the layer after can complete (prune.c); w for both. */
int next_steps(const Plan *pl, const Table *f, int j, Table *nf, LitWork w)
{
    const uint64_t *keep[LIT_MAX_SET_SIZE + 1];
    const uint64_t *const *within = prune_masks(pl, &pl->layer[j + 1], -1, j, keep, &w);
    return steps_back(&pl->cx, &pl->steps[j], &pl->blocks[j], f, nf, w, within);
}

/* Drops the states of the next F (block j's, by steps) that the layer
 * after cannot complete. */
void next_complete(const Plan *pl, int j, Table *nf)
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

/* d. Every placement with vector v has g[v] deals of the fields: G by
 * vector for the claims, and the marginals from which card each vector's
 * placements put where (unless they came by derivatives). */
void block_marginals(const Ctx *cx, const Block *b, const LitU192 *g, int derived,
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
int block_claims(const Plan *pl, const Table *f, const Table *gv, int j, LitWork scratch,
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

/* Sets with every card placed: certain either way. */
void placed_sets(const Plan *pl, LitOdds *odds)
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
void marginals(const Plan *pl, LitU192 (*mass)[LIT_MAX_PLAYERS], LitOdds *odds)
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
