/* estimate.c - the figures of lit_odds by importance sampling, for positions
 * beyond the exact count's workspace (see infer.h and docs/DEDUCTION.md
 * "Beyond the budget").
 *
 * A draw places the unplaced cards of the constrained sets (the blocks) one
 * by one, each at one of its candidate seats with room, chosen in proportion
 * to the room left; a block whose clauses the draw breaks gives weight 0.
 * The free cards (sets with no clause and every card possible at every seat
 * with room) are then shuffled into the room that is left, which is exactly
 * their distribution given the rest. The weight of a draw is
 * spread(room left) / q, q the probability of the blocks' choices, so the
 * mean weight is the number of consistent deals and a weighted mean of any
 * figure is its probability under the uniform prior (self-normalised), with
 * a standard error from the delta method. Nothing is allocated: the
 * per-draw placements live in the caller's workspace.
 */
#include "literature/infer.h"

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

/* Most clauses of one set that a block's draw follows exactly (2^12 states
 * of which clauses are met); a set with more is drawn card by card and
 * checked after (weight 0 when a clause fails). */
enum { CLAUSES_FOLLOWED = 12 };

/* A block's guide, worked out once for every draw: its cards, which
 * clauses each card meets at each seat, and ways[c][st], the number of
 * ways to place cards c.. on their candidates so that, with the clauses
 * st already met, every clause ends met (room aside). */
typedef struct Guide {
    int set, n, nc;
    int card[LIT_MAX_SET_SIZE];
    uint8_t pos[LIT_MAX_SET_SIZE];
    unsigned met[LIT_MAX_SET_SIZE][LIT_MAX_PLAYERS];
    double *ways; /* (n + 1) x 2^nc, row c at ways + c * 2^nc */
    /* the room each seat keeps for the later blocks: the fewest of their
     * unplaced cards it must take */
    int keep[LIT_MAX_PLAYERS];
} Guide;

/* Sets up the guide of set's unplaced cards m, its table carved from *p
 * (room for (n + 1) 2^CLAUSES_FOLLOWED doubles). */
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
    for (int s = 0; s < players; s++)
        g->nc += k->n_need[s][set] + k->n_lack[s][set];
    if (g->nc > CLAUSES_FOLLOWED)
        return; /* drawn in proportion to the room, checked after */
    int i = 0;
    for (int s = 0; s < players; s++)
        for (int kind = 0; kind < 2; kind++) {
            int count = kind ? k->n_lack[s][set] : k->n_need[s][set];
            for (int j = 0; j < count; j++, i++) {
                uint8_t mask = kind ? k->lack[s][set][j] : k->need[s][set][j];
                /* a "holds one of" clause is met by one of its cards at s,
                 * a "lacks one of" clause by one of its cards elsewhere */
                for (int c = 0; c < g->n; c++)
                    for (int t = 0; t < players; t++)
                        if ((mask >> g->pos[c] & 1) && (kind ? t != s : t == s))
                            g->met[c][t] |= 1u << i;
            }
        }
    unsigned states = 1u << g->nc, full = states - 1;
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
 * clause: card by card, seat s with probability in proportion to the room
 * it has left times the guide's ways to meet the clauses after it (and
 * never into the room a seat keeps for the later blocks). Writes
 * where[], takes the room, and returns the importance factor, 1 / the
 * probability of the placement drawn (0 when the room left cannot meet the
 * clauses, or a clause fails on a block drawn without a guide). */
static double draw_block(const LitKnow *k, const Guide *g, int room[LIT_MAX_PLAYERS],
                         int where[LIT_MAX_CARDS], LitRng *rng)
{
    int players = k->pub.rules.players, seat[LIT_MAX_SET_SIZE];
    double factor = 1;
    unsigned states = 1u << g->nc, st = 0;
    for (int c = 0; c < g->n; c++) {
        double x[LIT_MAX_PLAYERS], total = 0;
        for (int s = 0; s < players; s++) {
            x[s] = 0;
            if (!(k->may[s] >> g->card[c] & 1) || room[s] <= g->keep[s])
                continue;
            x[s] = g->nc > CLAUSES_FOLLOWED
                       ? room[s]
                       : room[s] * g->ways[(size_t)(c + 1) * states + (st | g->met[c][s])];
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
        if (g->nc <= CLAUSES_FOLLOWED)
            st |= g->met[c][pick];
    }
    if (g->nc > CLAUSES_FOLLOWED && !meets(k, g->set, g->n, g->pos, seat))
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

enum { BATCHES = 10 };

size_t lit_odds_estimate_work(uint32_t samples)
{
    return 2 * sizeof(Particle) * (size_t)samples +
           (sizeof(uint32_t) * LIT_MAX_SETS + sizeof(double)) * (size_t)samples +
           sizeof(Cell) * 4 * (size_t)samples +
           sizeof(double) * LIT_MAX_SETS * (LIT_MAX_SET_SIZE + 1) * ((size_t)1 << CLAUSES_FOLLOWED) +
           128;
}

/* Takes n items of size from *p, aligned to 16. */
static void *carve(unsigned char **p, size_t n, size_t size)
{
    *p += (16 - (uintptr_t)*p % 16) % 16;
    void *out = *p;
    *p += n * size;
    return out;
}

/* Mean and standard error of the mean over the batches. */
static double batch_mean(double sum, double squares, int batches, double *se)
{
    double mean = sum / batches, var = (squares - batches * mean * mean) / (batches - 1);
    *se = root(var > 0 ? var / batches : 0);
    return mean;
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
    for (; j < n; j++) { /* rounding at the very end */
        out[j] = in[n - 1];
        out[j].w = step;
    }
}

int lit_odds_estimate(const LitKnow *k, LitRng *rng, uint32_t samples, void *work,
                      size_t work_size, LitOdds *odds)
{
    const LitRules *r = &k->pub.rules;
    int deck = r->deck, players = r->players, sets = lit_deck_sets(deck);
    if (!k->consistent)
        return LIT_INCONSISTENT;
    if (samples < 2 * BATCHES || samples > (1u << 24) ||
        work_size < lit_odds_estimate_work(samples))
        return LIT_NO_SPACE;
    memset(odds, 0, sizeof *odds);
    for (int t = 0; t < 2; t++)
        memset(odds->best[t], LIT_NOBODY, sizeof odds->best[t]);
    uint32_t per = samples / BATCHES;
    samples = per * BATCHES;

    unsigned char *p = work;
    Particle *cur = carve(&p, per, sizeof *cur), *next = carve(&p, per, sizeof *next);
    uint32_t *codes = carve(&p, (size_t)LIT_MAX_SETS * samples, sizeof *codes);
    double *norm = carve(&p, samples, sizeof *norm);
    uint32_t cap = 1; /* at least twice the draws, within the 4 * samples cells */
    while (cap < 2 * samples)
        cap *= 2;
    Cell *cells = carve(&p, cap, sizeof *cells);

    uint64_t placed = 0;
    for (int s = 0; s < players; s++)
        placed |= k->held[s];
    uint64_t unplaced = k->pub.live & ~placed, free_cards = 0;
    unsigned active = 0;
    for (int s = 0; s < players; s++)
        if (k->slots[s])
            active |= 1u << s;
    for (int set = 0; set < sets; set++) {
        uint64_t m = lit_set_mask(deck, set) & unplaced;
        int clauses = 0, full = m != 0;
        for (int s = 0; s < players; s++) {
            clauses += k->n_need[s][set] + k->n_lack[s][set];
            if ((active >> s & 1) && (k->may[s] & m) != m)
                full = 0;
        }
        if (!clauses && full)
            free_cards |= m;
    }
    int n_free = lit_popcount(free_cards);
    double free_top = factorial(n_free);
    Guide guide[LIT_MAX_SETS];
    int n_guides = 0;
    double *tables = carve(&p, (size_t)LIT_MAX_SETS * (LIT_MAX_SET_SIZE + 1)
                                   << CLAUSES_FOLLOWED, sizeof *tables);
    for (int set = 0; set < sets; set++) {
        uint64_t m = lit_set_mask(deck, set) & unplaced & ~free_cards;
        if (m) {
            guide_init(&guide[n_guides], k, set, m,
                       tables + ((size_t)n_guides * (LIT_MAX_SET_SIZE + 1) << CLAUSES_FOLLOWED));
            n_guides++;
        }
    }
    /* Going back from the last block, the room each seat keeps. */
    for (int j = n_guides - 1; j > 0; j--)
        for (int s = 0; s < players; s++) {
            int set = guide[j].set;
            int least = lit_know_min_hold(k, s, set) -
                        lit_popcount(k->held[s] & lit_set_mask(deck, set));
            guide[j - 1].keep[s] = guide[j].keep[s] + least;
        }

    /* Sums over the batches of each batch's estimate, and of its square. */
    double at[LIT_MAX_CARDS][LIT_MAX_PLAYERS][2], all[2][LIT_MAX_SETS][2], deals[2] = {0, 0};
    memset(at, 0, sizeof at);
    memset(all, 0, sizeof all);

    for (int b = 0; b < BATCHES; b++) {
        /* 1. The blocks, one by one, every particle in step; resampled when
         * the weights grow uneven (effective draws below half). */
        for (uint32_t i = 0; i < per; i++) {
            cur[i].w = 1;
            for (int s = 0; s < players; s++)
                cur[i].room[s] = (int8_t)k->slots[s];
        }
        for (int j = 0; j < n_guides; j++) {
            const Guide *gd = &guide[j];
            double sw = 0, sw2 = 0;
            for (uint32_t i = 0; i < per; i++) {
                Particle *q = &cur[i];
                if (q->w > 0) {
                    int room[LIT_MAX_PLAYERS], where[LIT_MAX_CARDS];
                    for (int s = 0; s < players; s++)
                        room[s] = q->room[s];
                    q->w *= draw_block(k, gd, room, where, rng);
                    for (int s = 0; s < players; s++)
                        q->room[s] = (int8_t)room[s];
                    for (int c = 0; c < gd->n; c++)
                        q->where[gd->card[c]] = (int8_t)where[gd->card[c]];
                }
                sw += q->w;
                sw2 += q->w * q->w;
            }
            if (sw > 0 && sw * sw < 0.5 * per * sw2) {
                resample(cur, next, per, rng);
                Particle *t = cur;
                cur = next;
                next = t;
            }
        }
        /* 2. The free cards, shuffled into the room left: spread(room) ways;
         * a free card's chance at s is then room[s] / n_free. */
        double sw = 0, at_b[LIT_MAX_CARDS][LIT_MAX_PLAYERS], all_b[2][LIT_MAX_SETS];
        memset(at_b, 0, sizeof at_b);
        memset(all_b, 0, sizeof all_b);
        for (uint32_t i = 0; i < per; i++) {
            Particle *q = &cur[i];
            uint32_t *code = codes + ((size_t)b * per + i) * LIT_MAX_SETS;
            memset(code, 0, sizeof *code * LIT_MAX_SETS);
            if (!(q->w > 0))
                continue;
            double ways = free_top;
            uint8_t cards[LIT_MAX_CARDS];
            int left = 0;
            for (uint64_t x = free_cards; x;)
                cards[left++] = (uint8_t)lit_pop_lsb(&x);
            for (int s = 0; s < players; s++) {
                ways /= factorial(q->room[s]);
                for (int j = 0; j < q->room[s]; j++) {
                    int a = (int)lit_rng_below(rng, (uint32_t)left);
                    q->where[cards[a]] = (int8_t)s;
                    cards[a] = cards[--left];
                }
            }
            q->w *= ways;
            double w = q->w;
            sw += w;
            for (uint64_t x = unplaced; x;) {
                int c = lit_pop_lsb(&x);
                if (free_cards >> c & 1)
                    for (int s = 0; s < players; s++)
                        at_b[c][s] += w * q->room[s] / n_free;
                else
                    at_b[c][q->where[c]] += w;
            }
            /* 3. Every live set's placement, kept when one team holds all. */
            for (int set = 0; set < sets; set++) {
                uint64_t m = lit_set_mask(deck, set) & k->pub.live;
                if (!m)
                    continue;
                int first = lit_set_first(deck, set), team = -1;
                uint32_t c32 = 0;
                for (uint64_t x = m; x;) {
                    int c = lit_pop_lsb(&x), s = 0;
                    if (unplaced >> c & 1)
                        s = q->where[c];
                    else
                        while (!(k->held[s] >> c & 1))
                            s++;
                    c32 |= (uint32_t)s << (4 * (c - first));
                    team = team == -1 || team == lit_team_of(s) ? lit_team_of(s) : 2;
                }
                if (team == 0 || team == 1) {
                    all_b[team][set] += w;
                    code[set] = c32 + 1;
                }
            }
        }
        for (uint32_t i = 0; i < per; i++)
            norm[(size_t)b * per + i] = sw > 0 && cur[i].w > 0 ? cur[i].w / sw : 0;
        double d = sw / per;
        deals[0] += d;
        deals[1] += d * d;
        if (!(sw > 0))
            continue; /* no draw of this batch met the clauses */
        for (uint64_t x = unplaced; x;) {
            int c = lit_pop_lsb(&x);
            for (int s = 0; s < players; s++) {
                double v = at_b[c][s] / sw;
                at[c][s][0] += v;
                at[c][s][1] += v * v;
            }
        }
        for (int t = 0; t < 2; t++)
            for (int set = 0; set < sets; set++) {
                double v = all_b[t][set] / sw;
                all[t][set][0] += v;
                all[t][set][1] += v * v;
            }
    }

    /* 4. The estimates: means over the batches, with the standard error of
     * the mean. */
    odds->exact = 0;
    odds->samples = samples;
    odds->deals_estimate = batch_mean(deals[0], deals[1], BATCHES, &odds->deals_se);
    if (!(deals[0] > 0))
        return LIT_OK; /* no draw met the history's clauses: nothing to say */
    for (uint64_t live = k->pub.live; live;) {
        int c = lit_pop_lsb(&live);
        for (int s = 0; s < players; s++) {
            if (k->held[s] >> c & 1)
                odds->p[c][s] = 1.0;
            else if (unplaced >> c & 1)
                odds->p[c][s] = batch_mean(at[c][s][0], at[c][s][1], BATCHES, &odds->p_se[c][s]);
        }
    }
    for (int set = 0; set < sets; set++) {
        if (!(lit_set_mask(deck, set) & k->pub.live))
            continue;
        for (int t = 0; t < 2; t++)
            odds->team_all[t][set] =
                batch_mean(all[t][set][0], all[t][set][1], BATCHES, &odds->team_all_se[t][set]);
        /* The likeliest placement of each team: the code of most weight over
         * every batch; then its probability batch by batch. */
        memset(cells, 0, sizeof(Cell) * cap);
        for (uint32_t i = 0; i < samples; i++) {
            uint32_t code = codes[(size_t)i * LIT_MAX_SETS + (size_t)set];
            if (!code)
                continue;
            uint32_t h = (code * UINT32_C(0x9e3779b1)) & (cap - 1);
            while (cells[h].code && cells[h].code != code)
                h = (h + 1) & (cap - 1);
            cells[h].code = code;
            cells[h].w += norm[i];
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
            double sum = 0, squares = 0;
            for (int b = 0; b < BATCHES; b++) {
                double v = 0;
                for (uint32_t i = (uint32_t)b * per; i < (uint32_t)(b + 1) * per; i++)
                    if (codes[(size_t)i * LIT_MAX_SETS + (size_t)set] == best[t])
                        v += norm[i];
                sum += v;
                squares += v * v;
            }
            odds->best_p[t][set] = batch_mean(sum, squares, BATCHES, &odds->best_p_se[t][set]);
            for (int q = 0; q < lit_deck_set_size(deck); q++)
                odds->best[t][set][q] = (uint8_t)(((best[t] - 1) >> (4 * q)) & 15);
        }
    }
    return LIT_OK;
}
