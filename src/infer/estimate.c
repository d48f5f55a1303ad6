/* estimate.c - the figures of lit_odds by importance sampling, for positions
 * beyond the state budget (see infer.h and docs/DEDUCTION.md "Beyond the
 * budget").
 *
 * A draw places the unplaced cards of the constrained sets (the blocks) set
 * by set, card by card: each at a candidate seat with room (never into the
 * room a seat keeps for the later sets' needs), with probability in
 * proportion to that room times the number of ways, counted once per set by
 * a small dynamic program over which of its clauses are met, to meet them
 * all. The free cards (sets with no clause and every card possible at every
 * seat with room) are then shuffled into the room that is left, which is
 * exactly their distribution given the rest. The weight of a draw is
 * spread(room left) / q, q the probability of its choices: the mean weight
 * is the number of consistent deals, and a weighted mean of any figure its
 * probability under the uniform prior. Draws run in 40 independent batches
 * (LIT_ESTIMATE_BATCHES; resampled within a batch when the weights grow
 * uneven); each figure is the ratio pooled over the batches, its standard
 * error the jackknife over the batches, with a floor for the chances no
 * batch saw differ. Nothing is allocated: the draws live in the caller's
 * workspace.
 */
#include "literature/infer.h"

#include "counting.h"

#include <stdint.h>
#include <string.h>

#include "literature/status.h"

/* n! as a double, n up to LIT_MAX_CARDS (54! is about 2.3e71). */
static double factorial(int n)
{
    double x = 1;
    for (int i = 2; i <= n; i++)
        x *= i;
    return x;
}

/* A square root without the math library (the core links none): Newton's
 * iteration from above, which decreases until it stops. */
static double root(double x)
{
    if (!(x > 0))
        return 0;
    double r = x > 1 ? x : 1;
    for (;;) {
        double next = 0.5 * (r + x / r);
        if (next >= r)
            return r;
        r = next;
    }
}

/* Whether seats (of set's unplaced cards, at positions pos) meet the set's
 * clauses. */
static int meets(const LitKnow *k, int set, int n, const uint8_t *pos, const int *seat)
{
    for (int s = 0; s < k->pub.rules.players; s++) {
        uint8_t here = 0, away = 0;
        for (int c = 0; c < n; c++) {
            if (seat[c] == s)
                here |= (uint8_t)(1u << pos[c]);
            else
                away |= (uint8_t)(1u << pos[c]);
        }
        for (int i = 0; i < k->n_need[s][set]; i++)
            if (!(k->need[s][set][i] & here))
                return 0;
        for (int i = 0; i < k->n_lack[s][set]; i++)
            if (!(k->lack[s][set][i] & away))
                return 0;
    }
    return 1;
}

/* Most clauses of one set that a draw follows (2^12 states of which are
 * met): the "holds one of" clauses first, then the "lacks one of" ones. The
 * clauses beyond are checked after the set is drawn (weight 0 when one
 * fails); under must-claim at 12 players a set can carry more. */
enum { CLAUSES_FOLLOWED = 12 };

/* A block's guide, worked out once for every draw: its cards, which of the
 * followed clauses each card meets at each seat, and ways[c][st], the number
 * of ways to place cards c.. on their candidates so that, with the clauses
 * st already met, every followed clause ends met (room aside). */
typedef struct Guide {
    int set, n, nc;     /* nc: the set's clauses; followed: the first 12 */
    int followed;
    int card[LIT_MAX_SET_SIZE];
    uint8_t pos[LIT_MAX_SET_SIZE];
    unsigned met[LIT_MAX_SET_SIZE][LIT_MAX_PLAYERS];
    double *ways; /* (n + 1) x 2^followed, row c at ways + c * 2^followed */
    /* the room each seat keeps for the later blocks: the fewest of their
     * unplaced cards it must take */
    int keep[LIT_MAX_PLAYERS];
} Guide;

/* Sets up the guide of set's unplaced cards m; table holds
 * (LIT_MAX_SET_SIZE + 1) 2^CLAUSES_FOLLOWED doubles. */
static void guide_init(Guide *g, const LitKnow *k, int set, uint64_t m, double *table)
{
    int players = k->pub.rules.players, deck = k->pub.rules.deck;
    memset(g, 0, sizeof *g);
    g->set = set;
    for (uint64_t x = m; x;) {
        g->card[g->n] = lit_pop_lsb(&x);
        g->pos[g->n] = (uint8_t)lit_pos_of(deck, g->card[g->n]);
        g->n++;
    }
    for (int kind = 0; kind < 2; kind++)
        for (int s = 0; s < players; s++) {
            int count = kind ? k->n_lack[s][set] : k->n_need[s][set];
            for (int j = 0; j < count; j++, g->nc++) {
                if (g->nc >= CLAUSES_FOLLOWED)
                    continue;
                uint8_t mask = kind ? k->lack[s][set][j] : k->need[s][set][j];
                /* a "holds one of" clause is met by one of its cards at s,
                 * a "lacks one of" clause by one of its cards elsewhere */
                for (int c = 0; c < g->n; c++)
                    for (int t = 0; t < players; t++)
                        if ((mask >> g->pos[c] & 1) && (kind ? t != s : t == s))
                            g->met[c][t] |= 1u << g->nc;
                g->followed++;
            }
        }
    unsigned states = 1u << g->followed, full = states - 1;
    g->ways = table;
    for (unsigned st = 0; st < states; st++)
        g->ways[(size_t)g->n * states + st] = st == full;
    for (int c = g->n - 1; c >= 0; c--)
        for (unsigned st = 0; st < states; st++) {
            double sum = 0;
            for (int t = 0; t < players; t++)
                if (k->may[t] >> g->card[c] & 1)
                    sum += g->ways[(size_t)(c + 1) * states + (st | g->met[c][t])];
            g->ways[(size_t)c * states + st] = sum;
        }
}

/* Draws the seats of a block's cards from a proposal that meets every
 * followed clause: card by card, seat s with probability in proportion to
 * the room it has left times the guide's ways to meet the clauses after it
 * (and never into the room a seat keeps for the later blocks). Writes
 * where[], takes the room, and returns the importance factor, 1 / the
 * probability of the placement drawn (0 when the room left cannot meet the
 * clauses, or a clause beyond the followed ones fails). */
static double draw_block(const LitKnow *k, const Guide *g, int room[LIT_MAX_PLAYERS],
                         int where[LIT_MAX_CARDS], LitRng *rng)
{
    int players = k->pub.rules.players, seat[LIT_MAX_SET_SIZE];
    double factor = 1;
    unsigned states = 1u << g->followed, st = 0;
    for (int c = 0; c < g->n; c++) {
        double x[LIT_MAX_PLAYERS], total = 0;
        for (int s = 0; s < players; s++) {
            x[s] = 0;
            if (!(k->may[s] >> g->card[c] & 1) || room[s] <= g->keep[s])
                continue;
            x[s] = room[s] * g->ways[(size_t)(c + 1) * states + (st | g->met[c][s])];
            total += x[s];
        }
        if (!(total > 0))
            return 0;
        double u = (double)(lit_rng_next(rng) >> 11) * 0x1p-53 * total;
        int pick = -1;
        for (int s = 0; s < players; s++) {
            if (!(x[s] > 0))
                continue;
            pick = s;
            if (u < x[s])
                break;
            u -= x[s];
        }
        factor *= total / x[pick];
        seat[c] = pick;
        where[g->card[c]] = pick;
        room[pick]--;
        st |= g->met[c][pick];
    }
    if (g->nc > g->followed && !meets(k, g->set, g->n, g->pos, seat))
        return 0;
    return factor;
}

/* One draw in progress: its weight, the room left at every seat and the
 * seat of every unplaced card drawn so far. */
typedef struct Particle {
    double w;
    int8_t room[LIT_MAX_PLAYERS];
    int8_t where[LIT_MAX_CARDS];
} Particle;

/* A table of placements (a set's seats, four bits a card, plus one) to
 * their summed normalised weight. */
typedef struct Cell {
    uint32_t code;
    double w;
} Cell;

enum { BATCHES = LIT_ESTIMATE_BATCHES };

size_t lit_odds_estimate_work(uint32_t samples)
{
    return 2 * sizeof(Particle) * (size_t)samples +
           (sizeof(uint32_t) * LIT_MAX_SETS + sizeof(double)) * (size_t)samples +
           sizeof(Cell) * 4 * (size_t)samples +
           sizeof(double) * LIT_MAX_SETS * (LIT_MAX_SET_SIZE + 1) * ((size_t)1 << CLAUSES_FOLLOWED) +
           sizeof(double) * LIT_MAX_CARDS * LIT_MAX_PLAYERS * BATCHES + 160;
}

/* Mean and standard error of the mean over the batches. */
static double batch_mean(double sum, double squares, int batches, double *se)
{
    double mean = sum / batches, var = (squares - batches * mean * mean) / (batches - 1);
    *se = root(var > 0 ? var / batches : 0);
    return mean;
}

/* A figure's weighted sums per batch (num[b]) against the batches' total
 * weights (den[b]): the pooled ratio sum num / sum den, and its standard
 * error by the jackknife over the batches (leave one batch out); 1 when
 * fewer than two batches have a draw that meets the history. */
static double pooled(const double *num, const double *den, double *se)
{
    double n = 0, d = 0, loo[BATCHES], mean = 0;
    int live = 0;
    for (int b = 0; b < BATCHES; b++) {
        n += num[b];
        d += den[b];
        live += den[b] > 0;
    }
    if (!(d > 0) || live < 2) {
        *se = 1;
        return d > 0 ? n / d : 0;
    }
    for (int b = 0; b < BATCHES; b++) {
        loo[b] = (n - num[b]) / (d - den[b]);
        mean += loo[b] / BATCHES;
    }
    double var = 0;
    for (int b = 0; b < BATCHES; b++)
        var += (loo[b] - mean) * (loo[b] - mean);
    *se = root(var * (BATCHES - 1) / BATCHES);
    return n / d;
}

/* Resamples n particles by their weights (systematic resampling) into out;
 * every new weight is the mean, so the sum, and the estimate of the count,
 * are unchanged in expectation. */
static void resample(const Particle *in, Particle *out, uint32_t n, LitRng *rng)
{
    double total = 0;
    for (uint32_t i = 0; i < n; i++)
        total += in[i].w;
    double step = total / n, u = (double)(lit_rng_next(rng) >> 11) * 0x1p-53 * step, acc = 0;
    uint32_t j = 0;
    for (uint32_t i = 0; i < n; i++) {
        acc += in[i].w;
        while (j < n && u < acc) {
            out[j] = in[i];
            out[j++].w = step;
            u += step;
        }
    }
    uint32_t last = n;
    while (last > 0 && !(in[last - 1].w > 0))
        last--;
    for (; j < n; j++) { /* rounding at the very end: the last live draw */
        out[j] = in[last - 1];
        out[j].w = step;
    }
}

/* One estimate in progress: the draws of every batch and what they add to
 * each figure. */
typedef struct Run {
    const LitKnow *k;
    LitRng *rng;
    uint32_t per, samples;   /* draws per batch, and in all */
    Particle *cur, *next;    /* one batch's draws, and room to resample them */
    uint32_t *codes;         /* every draw's placement of every set (Cell.code) */
    double *weight;          /* every draw's weight */
    Cell *cells;
    uint32_t cap;            /* cells */
    uint64_t unplaced, free_cards;
    int n_free;
    double free_top;         /* n_free! */
    Guide guide[LIT_MAX_SETS];
    int n_guides;
    /* Per batch: the weighted sums of every figure and the total weight. */
    double (*at)[LIT_MAX_PLAYERS][BATCHES];
    double all[2][LIT_MAX_SETS][BATCHES], sw_batch[BATCHES], deals[2];
} Run;

/* The draws' tables and the guides of the blocks, carved from the
 * workspace (which lit_odds_estimate_work sizes). */
static void run_init(Run *run, const LitKnow *k, LitRng *rng, uint32_t per, void *work,
                     size_t work_size)
{
    int deck = k->pub.rules.deck, players = k->pub.rules.players, sets = lit_deck_sets(deck);
    uint32_t samples = per * BATCHES;
    memset(run, 0, sizeof *run);
    run->k = k;
    run->rng = rng;
    run->per = per;
    run->samples = samples;
    LitWork ws = lit_work_of(work, work_size);
    run->cur = lit_work_take_n(&ws, per, sizeof *run->cur);
    run->next = lit_work_take_n(&ws, per, sizeof *run->next);
    run->codes = lit_work_take_n(&ws, (size_t)LIT_MAX_SETS * samples, sizeof *run->codes);
    run->weight = lit_work_take_n(&ws, samples, sizeof *run->weight);
    run->cap = 1; /* at least twice the draws, within the 4 * samples cells */
    while (run->cap < 2 * samples)
        run->cap *= 2;
    run->cells = lit_work_take_n(&ws, run->cap, sizeof *run->cells);

    run->unplaced = free_unplaced(k);
    unsigned free_sets = free_sets_of(k);
    for (int set = 0; set < sets; set++)
        if (free_sets >> set & 1)
            run->free_cards |= lit_set_mask(deck, set) & run->unplaced;
    run->n_free = lit_popcount(run->free_cards);
    run->free_top = factorial(run->n_free);
    Guide *guide = run->guide;
    double *tables = lit_work_take_n(&ws, (size_t)LIT_MAX_SETS * (LIT_MAX_SET_SIZE + 1)
                                              << CLAUSES_FOLLOWED, sizeof *tables);
    for (int set = 0; set < sets; set++) {
        uint64_t m = lit_set_mask(deck, set) & run->unplaced & ~run->free_cards;
        if (m) {
            double *table = tables + ((size_t)run->n_guides * (LIT_MAX_SET_SIZE + 1)
                                      << CLAUSES_FOLLOWED);
            guide_init(&guide[run->n_guides], k, set, m, table);
            run->n_guides++;
        }
    }
    /* Going back from the last block, the room each seat keeps. */
    for (int j = run->n_guides - 1; j > 0; j--)
        for (int s = 0; s < players; s++) {
            int set = guide[j].set;
            int least = lit_know_min_hold(k, s, set) -
                        lit_popcount(k->held[s] & lit_set_mask(deck, set));
            guide[j - 1].keep[s] = guide[j].keep[s] + least;
        }
    run->at = lit_work_take_n(&ws, LIT_MAX_CARDS, sizeof *run->at);
}

/* 1. The blocks, one by one, every particle in step; resampled when
 * the weights grow uneven (effective draws below half). */
static void batch_blocks(Run *run)
{
    const LitKnow *k = run->k;
    int players = k->pub.rules.players;
    uint32_t per = run->per;
    for (uint32_t i = 0; i < per; i++) {
        run->cur[i].w = 1;
        for (int s = 0; s < players; s++)
            run->cur[i].room[s] = (int8_t)k->slots[s];
    }
    for (int j = 0; j < run->n_guides; j++) {
        const Guide *gd = &run->guide[j];
        double sw = 0, sw2 = 0;
        for (uint32_t i = 0; i < per; i++) {
            Particle *q = &run->cur[i];
            if (q->w > 0) {
                int room[LIT_MAX_PLAYERS], where[LIT_MAX_CARDS];
                for (int s = 0; s < players; s++)
                    room[s] = q->room[s];
                q->w *= draw_block(k, gd, room, where, run->rng);
                for (int s = 0; s < players; s++)
                    q->room[s] = (int8_t)room[s];
                for (int c = 0; c < gd->n; c++)
                    q->where[gd->card[c]] = (int8_t)where[gd->card[c]];
            }
            sw += q->w;
            sw2 += q->w * q->w;
        }
        if (sw > 0 && sw * sw < 0.5 * per * sw2) {
            resample(run->cur, run->next, per, run->rng);
            Particle *t = run->cur;
            run->cur = run->next;
            run->next = t;
        }
    }
}

/* 2. The free cards of draw q, shuffled into the room left: spread(room)
 * ways; its weight times those. */
static double draw_free(Run *run, Particle *q)
{
    int players = run->k->pub.rules.players;
    double ways = run->free_top;
    uint8_t cards[LIT_MAX_CARDS];
    int left = 0;
    for (uint64_t x = run->free_cards; x;)
        cards[left++] = (uint8_t)lit_pop_lsb(&x);
    for (int s = 0; s < players; s++) {
        ways /= factorial(q->room[s]);
        for (int j = 0; j < q->room[s]; j++) {
            int a = (int)lit_rng_below(run->rng, (uint32_t)left);
            q->where[cards[a]] = (int8_t)s;
            cards[a] = cards[--left];
        }
    }
    q->w *= ways;
    return q->w;
}

/* 3. Every live set's placement in draw q (weight w) of batch b, kept in
 * code when one team holds all. */
static void draw_sets(Run *run, const Particle *q, double w, int b, uint32_t *code)
{
    const LitKnow *k = run->k;
    int deck = k->pub.rules.deck;
    for (int set = 0; set < lit_deck_sets(deck); set++) {
        uint64_t m = lit_set_mask(deck, set) & k->pub.live;
        if (!m)
            continue;
        int first = lit_set_first(deck, set), team = -1;
        uint32_t c32 = 0;
        for (uint64_t x = m; x;) {
            int c = lit_pop_lsb(&x), s = 0;
            if (run->unplaced >> c & 1)
                s = q->where[c];
            else
                while (!(k->held[s] >> c & 1))
                    s++;
            c32 |= (uint32_t)s << (4 * (c - first));
            team = team == -1 || team == lit_team_of(s) ? lit_team_of(s) : 2;
        }
        if (team == 0 || team == 1) {
            run->all[team][set][b] += w;
            code[set] = c32 + 1;
        }
    }
}

/* Batch b after its blocks: 2. each draw's free cards (a free card's
 * chance at s is then room[s] / n_free) and its marginals, 3. its sets'
 * placements; then the batch's weights. */
static void batch_figures(Run *run, int b)
{
    int players = run->k->pub.rules.players;
    uint32_t per = run->per;
    double sw = 0;
    for (int c = 0; c < LIT_MAX_CARDS; c++)
        for (int s = 0; s < LIT_MAX_PLAYERS; s++)
            run->at[c][s][b] = 0;
    for (uint32_t i = 0; i < per; i++) {
        Particle *q = &run->cur[i];
        uint32_t *code = run->codes + ((size_t)b * per + i) * LIT_MAX_SETS;
        memset(code, 0, sizeof *code * LIT_MAX_SETS);
        if (!(q->w > 0))
            continue;
        double w = draw_free(run, q);
        sw += w;
        for (uint64_t x = run->unplaced; x;) {
            int c = lit_pop_lsb(&x);
            if (run->free_cards >> c & 1)
                for (int s = 0; s < players; s++)
                    run->at[c][s][b] += w * q->room[s] / run->n_free;
            else
                run->at[c][q->where[c]][b] += w;
        }
        draw_sets(run, q, w, b, code);
    }
    for (uint32_t i = 0; i < per; i++)
        run->weight[(size_t)b * per + i] = run->cur[i].w > 0 ? run->cur[i].w : 0;
    run->sw_batch[b] = sw;
    run->deals[0] += sw / per;
    run->deals[1] += (sw / per) * (sw / per);
}

/* The likeliest placement of each team of set: the code of most weight
 * over every batch (chosen on the same draws, so its estimate leans a
 * little high); then its weight batch by batch. */
static void estimate_best(Run *run, int set, LitOdds *odds)
{
    int deck = run->k->pub.rules.deck;
    uint32_t cap = run->cap, samples = run->samples;
    Cell *cells = run->cells;
    const uint32_t *codes = run->codes;
    memset(cells, 0, sizeof(Cell) * cap);
    for (uint32_t i = 0; i < samples; i++) {
        uint32_t code = codes[(size_t)i * LIT_MAX_SETS + (size_t)set];
        if (!code)
            continue;
        uint32_t h = (code * UINT32_C(0x9e3779b1)) & (cap - 1);
        while (cells[h].code && cells[h].code != code)
            h = (h + 1) & (cap - 1);
        cells[h].code = code;
        cells[h].w += run->weight[i];
    }
    uint32_t best[2] = {0, 0};
    double best_w[2] = {0, 0};
    for (uint32_t h = 0; h < cap; h++) {
        if (!cells[h].code)
            continue;
        int t = lit_team_of((int)((cells[h].code - 1) & 15));
        if (cells[h].w > best_w[t]) {
            best[t] = cells[h].code;
            best_w[t] = cells[h].w;
        }
    }
    for (int t = 0; t < 2; t++) {
        if (!best[t])
            continue;
        double num[BATCHES] = {0};
        for (uint32_t i = 0; i < samples; i++)
            if (codes[(size_t)i * LIT_MAX_SETS + (size_t)set] == best[t])
                num[i / run->per] += run->weight[i];
        odds->best_p[t][set] = pooled(num, run->sw_batch, &odds->best_p_se[t][set]);
        for (int q = 0; q < lit_deck_set_size(deck); q++)
            odds->best[t][set][q] = (uint8_t)(((best[t] - 1) >> (4 * q)) & 15);
    }
}

/* 4. The estimates: ratios pooled over the batches, with the jackknife's
 * standard error; the count, the mean weight. */
static void estimate_figures(Run *run, LitOdds *odds)
{
    const LitKnow *k = run->k;
    int deck = k->pub.rules.deck, players = k->pub.rules.players;
    odds->exact = 0;
    odds->samples = run->samples;
    odds->deals_estimate = batch_mean(run->deals[0], run->deals[1], BATCHES, &odds->deals_se);
    if (!(run->deals[0] > 0))
        return; /* no draw met the history's clauses: nothing to say */
    /* A card no draw (or every draw) put at a seat that may hold it has a
     * chance of 0 (or 1) there and a jackknife error of 0, yet it is not
     * sure; and a chance few draws saw has too small an error from the
     * few batches that saw it. No chance at a seat that may hold the card
     * is quoted with an error below that of a share seen in none of the
     * effective draws n, by Laplace's rule (1 / (n + 2), about 1 / n)
     * (docs/DEDUCTION.md, "How often the quoted interval holds the
     * truth"); but a chance between 0 and 1 the same in every batch (to
     * rounding) is exact (a free card's share of the room) and keeps its
     * error. */
    double sw = 0, sw2 = 0;
    for (uint32_t i = 0; i < run->samples; i++) {
        sw += run->weight[i];
        sw2 += run->weight[i] * run->weight[i];
    }
    double n = sw * sw / sw2, q = 1 / (n + 2), floor_se = root(q * (1 - q) / n);
    for (uint64_t live = k->pub.live; live;) {
        int c = lit_pop_lsb(&live);
        for (int s = 0; s < players; s++) {
            if (k->held[s] >> c & 1) {
                odds->p[c][s] = 1.0;
            } else if (run->unplaced >> c & 1) {
                odds->p[c][s] = pooled(run->at[c][s], run->sw_batch, &odds->p_se[c][s]);
                double p = odds->p[c][s];
                double se = odds->p_se[c][s];
                int exact = se < 1e-12 && p > 0 && p < 1; /* (to rounding) */
                if (!exact && se < floor_se && (k->may[s] >> c & 1))
                    odds->p_se[c][s] = floor_se;
            }
        }
    }
    for (int set = 0; set < lit_deck_sets(deck); set++) {
        if (!(lit_set_mask(deck, set) & k->pub.live))
            continue;
        for (int t = 0; t < 2; t++)
            odds->team_all[t][set] =
                pooled(run->all[t][set], run->sw_batch, &odds->team_all_se[t][set]);
        estimate_best(run, set, odds);
    }
}

int lit_odds_estimate(const LitKnow *k, LitRng *rng, uint32_t samples, void *work,
                      size_t work_size, LitOdds *odds)
{
    if (!k->consistent)
        return LIT_INCONSISTENT;
    if (samples < 2 * BATCHES || samples > (1u << 22) ||
        work_size < lit_odds_estimate_work(samples))
        return LIT_NO_SPACE;
    memset(odds, 0, sizeof *odds);
    for (int t = 0; t < 2; t++)
        memset(odds->best[t], LIT_NOBODY, sizeof odds->best[t]);
    Run run;
    run_init(&run, k, rng, samples / BATCHES, work, work_size);
    for (int b = 0; b < BATCHES; b++) {
        batch_blocks(&run);
        batch_figures(&run, b);
    }
    estimate_figures(&run, odds);
    return LIT_OK;
}

int lit_odds_or_estimate(const LitKnow *k, uint32_t samples, uint64_t seed, void *work,
                         size_t work_size, LitOdds *odds)
{
    int st = lit_odds(k, work, work_size, odds);
    if (st != LIT_OK || odds->exact)
        return st;
    LitRng rng;
    lit_rng_seed(&rng, seed);
    return lit_odds_estimate(k, &rng, samples, work, work_size, odds);
}
