/* behave.c - master's beliefs: every consistent deal weighted by how likely
 * the asks seen were under a model of how players choose them
 * (docs/BOTS.md "master").
 *
 * The uniform posterior of lit_odds counts every deal that fits the history
 * as equally likely. Players do not ask at random, and the model says how:
 *
 * - a seat asks for a card it lacks of a set it holds, any such card
 *   alike: an ask of a seat that held m cards of the set (of size cards)
 *   weighs a deal by 1 / (size - m), so a deal where the asker held more
 *   of the set explains the ask better;
 * - a seat that could take a card every seat knows to be at an opponent
 *   (a sure hit) takes it: an ask that was no such hit weighs a deal where
 *   the asker held a card of such a set by SKIP_SURE_HIT.
 *
 * Every card that moves between seats does so in public (an ask that hits
 * names its card), so a seat's count of a set then is its count now plus a
 * public offset: a deal's weight is a product of one factor per other seat
 * and live set, a function of that seat's count of the set now (the table
 * below). Asks in sets out of play, and our own, weigh every deal alike.
 * Deals are drawn exactly from the uniform posterior (LitSampler) and
 * weighted (importance sampling); what certain knowledge says (a chance of
 * 0 or 1, a sure claim) stays as lit_odds counted it. Measured in the arena
 * (docs/BOTS.md "master"), with the alternatives tried.
 */
#include <stdint.h>
#include <string.h>

#include "../core/work.h"
#include "internal.h"
#include "literature/status.h"

/* The chance that a seat that could take a card every seat knows to be at
 * an opponent asks for something else instead (the players we model take
 * such a card at once: docs/BOTS.md, basic's rule 5 and expert's stage 4). */
#define SKIP_SURE_HIT 0.1
/* The chance a figure of the weighted model may take at most where the
 * exact odds are not sure (and at least, where they are not 0). */
#define NOT_SURE 1e-9
/* Master's claims, calibrated (docs/BOTS.md "master", "Its claims"): the
 * chance master states that a claim of the likeliest placement is right,
 * by the model's chance p of the placement, read off a line through the
 * figures at p = 0, 0.05, ..., 1 (0 at 0; the figure at 1 is fitted like
 * the others, below 1 where placements the model called near sure were not
 * always right: the line is read only where the exact count is not sure);
 * at each player count fitted, six lines, BOT_CLAIM_LINE(stuck, standing):
 * a seat that could still ask and one whose every ask must miss (stuck: its
 * claims are forced), each by where the placement stands in the exact
 * count: its likeliest, tied with it (a tie the model broke the other way)
 * or below it. At 6 players, a seat that could still ask, placements the
 * model gave 0.9 to 1 were right 98% of the time when they were the exact
 * count's likeliest, 81% when below it, and 50% when tied: the model had
 * broken an exact tie and called it near sure. At other player counts the
 * model's figure itself. Fitted by
 * `scripts/calibration.py --model master --fit` on master's own claims in
 * the arena (its decisions read the model's figures: the lines change what
 * it says, not what it does), checked across the arenas. */
const int bot_claim_players[BOT_CLAIM_TABLES] = {6, 8};
const double bot_claim_table[BOT_CLAIM_TABLES][BOT_CLAIM_LINES][BOT_CLAIM_KNOTS] = {
    {
        {0.0000, 0.0500, 0.1000, 0.1500, 0.2000, 0.2500, 0.3000, 0.3500, 0.4000, 0.4500, 0.5203,
         0.6948, 0.7353, 0.8742, 0.9374, 0.9475, 0.9475, 0.9634, 0.9634, 0.9667, 0.9935},
        {0.0000, 0.0500, 0.1000, 0.1500, 0.2000, 0.2500, 0.3000, 0.3500, 0.4000, 0.4402, 0.4402,
         0.6421, 0.6421, 0.6837, 0.6837, 0.6837, 0.6837, 0.6837, 0.6837, 0.6837, 0.7588},
        {0.0000, 0.0500, 0.1000, 0.1500, 0.2000, 0.2500, 0.3000, 0.3500, 0.4000, 0.4500, 0.5854,
         0.7506, 0.8388, 0.8726, 0.8741, 0.8741, 0.8741, 0.8741, 0.8741, 0.8741, 0.8741},
        {0.0000, 0.0500, 0.1000, 0.2108, 0.2108, 0.2108, 0.3149, 0.3380, 0.4132, 0.4836, 0.4889,
         0.6434, 0.6434, 0.7140, 0.7981, 0.7981, 0.8923, 0.8923, 0.8931, 0.9877, 1.0000},
        {0.0000, 0.0500, 0.0811, 0.2061, 0.2599, 0.2599, 0.3324, 0.3324, 0.3670, 0.4582, 0.4582,
         0.5866, 0.8157, 0.8157, 0.8504, 0.8865, 0.8865, 0.8931, 0.8947, 0.9802, 1.0000},
        {0.0000, 0.0500, 0.1000, 0.1642, 0.2172, 0.2517, 0.3703, 0.3703, 0.5076, 0.6572, 0.6572,
         0.6572, 0.6600, 0.7271, 0.7880, 0.8465, 0.9302, 0.9556, 0.9556, 0.9650, 0.9650},
    },
    {
        {0.0000, 0.0500, 0.1000, 0.1500, 0.2000, 0.2500, 0.3000, 0.3500, 0.4000, 0.4500, 0.5473,
         0.6135, 0.7264, 0.7734, 0.8739, 0.8785, 0.8805, 0.8805, 0.9542, 0.9634, 0.9923},
        {0.0000, 0.0500, 0.1000, 0.1500, 0.2000, 0.2500, 0.3000, 0.3500, 0.4000, 0.4289, 0.4289,
         0.5602, 0.6681, 0.6724, 0.6742, 0.6742, 0.6742, 0.6742, 0.6742, 0.6742, 0.7418},
        {0.0000, 0.0500, 0.1000, 0.1500, 0.2000, 0.2500, 0.3000, 0.3500, 0.4000, 0.4500, 0.6291,
         0.7274, 0.7274, 0.7775, 0.7775, 0.7775, 0.7775, 0.7775, 0.7775, 0.7775, 0.8198},
        {0.0000, 0.0501, 0.0501, 0.1192, 0.3143, 0.3421, 0.3421, 0.3496, 0.4792, 0.4792, 0.4848,
         0.5496, 0.5943, 0.7490, 0.8179, 0.8499, 0.8499, 0.8708, 0.9814, 0.9878, 1.0000},
        {0.0000, 0.0000, 0.0573, 0.0934, 0.2519, 0.2519, 0.2519, 0.3008, 0.4521, 0.4521, 0.4521,
         0.6240, 0.6639, 0.6639, 0.7816, 0.8329, 0.8432, 0.9019, 0.9391, 0.9732, 1.0000},
        {0.0000, 0.0229, 0.2451, 0.2451, 0.3200, 0.3945, 0.4621, 0.4621, 0.4621, 0.5569, 0.5569,
         0.6137, 0.6295, 0.7858, 0.7858, 0.7858, 0.8934, 0.8934, 0.9659, 0.9742, 1.0000},
    },
};

/* The log-weight of a deal by seat, live set and that seat's count of the
 * set now. */
typedef struct Table {
    double lw[LIT_MAX_PLAYERS][LIT_MAX_SETS][LIT_MAX_SET_SIZE + 1];
} Table;

/* Natural logarithms the model needs, written out: the library takes
 * nothing from libm (core_symbols.sh), and a table of constants gives the
 * same weights on every machine. log(n) for n = 1..LIT_MAX_SET_SIZE. */
static const double log_of[LIT_MAX_SET_SIZE + 1] = {
    0, 0.0, 0.6931471805599453, 1.0986122886681098, 1.3862943611198906, 1.6094379124341003,
    1.791759469228055};
#define LOG_SKIP_SURE_HIT (-2.3025850929940455) /* log(SKIP_SURE_HIT) */
#define LN2 0.6931471805599453

_Static_assert(LIT_MAX_SET_SIZE == 6, "log_of holds log(1) to log(LIT_MAX_SET_SIZE)");

/* e^x for x <= 0, to a few units in the last place: x = k ln 2 + r with
 * |r| <= ln 2 / 2, e^r by its series, 2^k in the exponent's bits. */
static double exp_nonpositive(double x)
{
    if (x < -700)
        return 0;
    int k = (int)(x / LN2 - 0.5);
    double r = x - k * LN2, term = 1, sum = 1;
    for (int i = 1; i <= 14; i++) {
        term *= r / i;
        sum += term;
    }
    union {
        double d;
        uint64_t u;
    } two = {.u = (uint64_t)(1023 + k) << 52};
    return sum * two.d;
}

/* log of the model's chance of the card asked for, in a set of size cards
 * of which the asker held m, up to a factor the same in every deal: any
 * card of the set it lacks alike. The table is filled for every count now,
 * so m may be one no deal gives (below 0, or the whole set though it
 * lacked the card): 0 there, never read. */
static double ask_weight(int m, int size)
{
    return m >= 0 && m < size ? -log_of[size - m] : 0;
}

/* For every ask of the history that was no sure hit by what every seat
 * knew, the sets in which the asker could have taken a card every seat knew
 * to be at an opponent (bit = set) into skipped; 0 for other events. The
 * public knowledge is replayed into k. */
static int skipped_sure_hits(const LitView *v, LitKnow *k, uint16_t *skipped)
{
    const LitPublic *p = &v->pub;
    int deck = p->rules.deck;
    int st = lit_know_start(k, &p->rules, p->dealer, LIT_NOBODY, 0);
    for (uint32_t i = 0; st == LIT_OK && i < v->history_len; i++) {
        const LitEvent *e = &v->history[i];
        const LitAction *a = &e->action;
        skipped[i] = 0;
        if (a->kind == LIT_ASK && !(k->held[a->target] >> a->card & 1)) {
            unsigned them = k->pub.holding & ~lit_team_seats(&p->rules, lit_team_of(a->seat));
            for (; them; them &= them - 1)
                for (uint64_t m = k->held[lit_lsb(them)] & k->pub.live; m;)
                    skipped[i] |= (uint16_t)(1u << lit_set_of(deck, lit_pop_lsb(&m)));
        }
        st = lit_know_apply(k, e);
    }
    return st;
}

/* The table of view v: the history walked from its end, each seat's count
 * of each live set then kept as an offset from its count now. */
static int build_table(Table *t, const LitView *v, LitKnow *k, uint16_t *skipped)
{
    const LitPublic *p = &v->pub;
    int deck = p->rules.deck, size = lit_deck_set_size(deck);
    int offset[LIT_MAX_PLAYERS][LIT_MAX_SETS];
    int st = skipped_sure_hits(v, k, skipped);
    if (st != LIT_OK)
        return st;
    memset(t, 0, sizeof *t);
    memset(offset, 0, sizeof offset);
    for (uint32_t i = v->history_len; i-- > 0;) {
        const LitEvent *e = &v->history[i];
        if (e->action.kind != LIT_ASK)
            continue;
        int set = lit_set_of(deck, e->action.card), a = e->action.seat;
        if (p->live & lit_set_mask(deck, set)) {
            if (e->answer == LIT_HIT) { /* before it, the card was the target's */
                offset[a][set]--;
                offset[e->action.target][set]++;
            }
            if (a != v->seat) /* our own hand is known: the same factor in every deal */
                for (int n = 0; n <= size; n++)
                    t->lw[a][set][n] += ask_weight(n + offset[a][set], size);
        }
        if (a == v->seat)
            continue;
        for (unsigned m = skipped[i]; m; m &= m - 1) {
            int other = lit_lsb(m);
            if (p->live & lit_set_mask(deck, other))
                for (int n = 0; n <= size; n++)
                    if (n + offset[a][other] > 0)
                        t->lw[a][other][n] += LOG_SKIP_SURE_HIT;
        }
    }
    return LIT_OK;
}

/* A set's placement among seats in one deal: its cards' seats, four bits a
 * card from the set's first. */
static uint64_t placement_key(const uint64_t *hands, unsigned seats, uint64_t set_mask, int first)
{
    uint64_t key = 0;
    for (unsigned s = seats; s; s &= s - 1) {
        int seat = lit_lsb(s);
        for (uint64_t m = hands[seat] & set_mask; m;)
            key |= (uint64_t)seat << (4 * (lit_pop_lsb(&m) - first));
    }
    return key;
}

enum { SLOTS = 2 * BEHAVE_DRAWS }; /* the placements' hash table, a power of 2 */

/* The weighted mode of set's placements among team's seats over the draws
 * where the team holds all of it: writes the placement into best, returns
 * its weight (0 when no draw has the team holding it all). */
static double likeliest_placement(BehavePool *pool, const LitPublic *p, int team, int set,
                                  uint8_t *best)
{
    int deck = p->rules.deck, size = lit_deck_set_size(deck), first = lit_set_first(deck, set);
    uint64_t mask = lit_set_mask(deck, set) & p->live;
    unsigned seats = lit_team_seats(&p->rules, team);
    uint32_t stamp = ++pool->stamp;
    int top = -1;
    for (int i = 0; i < pool->draws; i++) {
        if ((pool->team_hand[i] & mask) != mask)
            continue;
        uint64_t key = placement_key(pool->hands[i], seats, mask, first);
        unsigned j = (unsigned)((key * 0x9e3779b97f4a7c15u) >> 40) & (SLOTS - 1);
        while (pool->slot_stamp[j] == stamp && pool->slot_key[j] != key)
            j = (j + 1) & (SLOTS - 1);
        if (pool->slot_stamp[j] != stamp) {
            pool->slot_stamp[j] = stamp;
            pool->slot_key[j] = key;
            pool->slot_weight[j] = 0;
        }
        pool->slot_weight[j] += pool->weight[i];
        if (top < 0 || pool->slot_weight[j] > pool->slot_weight[top])
            top = (int)j;
    }
    if (top < 0)
        return 0;
    for (int i = 0; i < size; i++)
        best[i] = (uint8_t)(pool->slot_key[top] >> (4 * i) & 15);
    return pool->slot_weight[top];
}

/* A figure of the model where the exact one is uncertain: kept off 0 and 1. */
static double uncertain(double x)
{
    return x < NOT_SURE ? NOT_SURE : x > 1 - NOT_SURE ? 1 - NOT_SURE : x;
}

double bot_claim_chance(double p, int players, int stuck, int standing)
{
    int t = 0;
    while (t < BOT_CLAIM_TABLES && bot_claim_players[t] != players)
        t++;
    if (t == BOT_CLAIM_TABLES)
        return p;
    const double *v = bot_claim_table[t][BOT_CLAIM_LINE(stuck, standing)];
    double x = (p < 0 ? 0 : p > 1 ? 1 : p) * (BOT_CLAIM_KNOTS - 1);
    int i = (int)x < BOT_CLAIM_KNOTS - 2 ? (int)x : BOT_CLAIM_KNOTS - 2;
    double f = x - i;
    return v[i] * (1 - f) + v[i + 1] * f;
}

/* Whether every ask of v's seat must miss by odds: no card it lacks of a
 * set it holds may be at an opponent (its claims are forced then). */
static int stuck_at(const LitView *v, const LitOdds *odds)
{
    const LitPublic *p = &v->pub;
    int deck = p->rules.deck;
    unsigned them = p->holding & ~lit_team_seats(&p->rules, lit_team_of(v->seat));
    for (uint64_t m = p->live & ~v->hand; m;) {
        int c = lit_pop_lsb(&m);
        if (!(v->hand & lit_set_mask(deck, lit_set_of(deck, c))))
            continue;
        for (unsigned t = them; t; t &= t - 1)
            if (odds->p[c][lit_lsb(t)] > 0)
                return 0;
    }
    return 1;
}

/* The exact chance of placement (a seat a card, from set's first) by the
 * knowledge k whose deals exact counted: the deals with the placement,
 * counted with its cards assumed where it puts them, over all of them, in
 * *chance. The statuses of lit_odds_count. */
static int placement_chance(const LitKnow *k, const LitOdds *exact, int set,
                            const uint8_t *placement, LitWork w, double *chance)
{
    int deck = k->pub.rules.deck, first = lit_set_first(deck, set);
    LitKnow *pinned = lit_work_take(&w, sizeof *pinned);
    if (!pinned)
        return LIT_NO_SPACE;
    *pinned = *k;
    for (int i = 0; i < lit_deck_set_size(deck); i++) {
        int st = lit_know_assume(pinned, first + i, placement[i]);
        if (st != LIT_OK)
            return st;
    }
    *chance = 0;
    if (!pinned->consistent)
        return LIT_OK;
    LitU192 deals;
    int st = lit_odds_count(pinned, w.p, w.left, &deals);
    if (st == LIT_OK)
        *chance = lit_u192_ratio(&deals, &exact->deals);
    return st;
}

int bot_behave_calibrate(const LitKnow *k, const LitView *v, const LitOdds *exact, LitOdds *out,
                         void *work, size_t work_size, LitBeliefBasis *basis)
{
    const LitPublic *p = &v->pub;
    int team = lit_team_of(v->seat), deck = p->rules.deck, stuck = stuck_at(v, exact);
    if (basis) {
        basis->exact = *exact;
        basis->stuck = (uint8_t)stuck;
    }
    for (int set = 0; set < lit_deck_sets(deck); set++) {
        /* the exact chance of the model's placement: the exact count's
         * own where the two are one placement */
        double e = exact->best_p[team][set], q = e;
        int live = (p->live & lit_set_mask(deck, set)) != 0, sure = e <= 0 || e >= 1.0 - 1e-12;
        int same = !memcmp(exact->best[team][set], out->best[team][set],
                           (size_t)lit_deck_set_size(deck));
        if (live && !sure && !same) {
            int st = placement_chance(k, exact, set, out->best[team][set],
                                      lit_work_of(work, work_size), &q);
            if (st != LIT_OK)
                return st;
        }
        /* the same placement as the count's, one as likely (a tie broken
         * the other way), or a less likely one */
        int standing = same                  ? LIT_STANDING_LIKELIEST
                       : q >= e * (1 - 1e-12) ? LIT_STANDING_TIED
                                              : LIT_STANDING_BELOW;
        if (basis) {
            basis->standing[set] = (uint8_t)standing;
            basis->uniform[set] = q;
        }
        if (!live || sure)
            continue;
        double c = uncertain(
            bot_claim_chance(out->best_p[team][set], p->rules.players, stuck, standing));
        out->best_p[team][set] = c;
        if (out->team_all[team][set] < c)
            out->team_all[team][set] = c;
    }
    return LIT_OK;
}

uint64_t bot_behave_seed(const LitView *v)
{
    uint64_t h = lit_seed_mix(v->hand, v->seat);
    for (uint32_t i = 0; i < v->history_len; i++) {
        uint64_t word[3];
        memcpy(word, &v->history[i], sizeof word);
        for (int j = 0; j < 3; j++)
            h = lit_seed_mix(h ^ word[j], i);
    }
    return h;
}

int bot_behave_odds(const LitKnow *know, const LitView *v, const LitOdds *exact, uint64_t seed,
                    BehavePool *pool, LitOdds *out, void *work, size_t work_size)
{
    const LitPublic *p = &v->pub;
    int deck = p->rules.deck, players = p->rules.players, sets = lit_deck_sets(deck);
    LitWork w = lit_work_of(work, work_size);
    Table *t = lit_work_take(&w, sizeof *t);
    LitKnow *k = lit_work_take(&w, sizeof *k);
    uint16_t *skipped = lit_work_take_n(&w, v->history_len + 1, sizeof *skipped);
    LitSampler *sp;
    if (!t || !k || !skipped)
        return LIT_NO_SPACE;
    int st = build_table(t, v, k, skipped);
    if (st == LIT_OK)
        st = lit_sampler_init(&sp, know, w.p, w.left);
    if (st != LIT_OK)
        return st;

    /* The draws and their log-weights. */
    LitRng rng;
    lit_rng_seed(&rng, seed ? seed : bot_behave_seed(v));
    double top = -1e300;
    for (int i = 0; i < BEHAVE_DRAWS; i++) {
        uint64_t *h = pool->hands[i];
        lit_sampler_draw(sp, &rng, h);
        double lw = 0;
        for (int s = 0; s < players; s++) {
            if (s == v->seat || !(p->holding >> s & 1))
                continue;
            for (int set = 0; set < sets; set++) {
                uint64_t m = lit_set_mask(deck, set);
                if (p->live & m)
                    lw += t->lw[s][set][lit_popcount(h[s] & m)];
            }
        }
        pool->weight[i] = lw;
        if (lw > top)
            top = lw;
    }
    double total = 0, square = 0;
    for (int i = 0; i < BEHAVE_DRAWS; i++) {
        pool->weight[i] = exp_nonpositive(pool->weight[i] - top);
        total += pool->weight[i];
        square += pool->weight[i] * pool->weight[i];
    }
    pool->draws = BEHAVE_DRAWS;
    pool->effective = total * total / square;
    for (int i = 0; i < BEHAVE_DRAWS; i++)
        pool->weight[i] /= total;

    /* The figures: the exact ones where they are sure, the model's where not. */
    double wp[LIT_MAX_CARDS][LIT_MAX_PLAYERS];
    memset(wp, 0, sizeof wp);
    for (int i = 0; i < BEHAVE_DRAWS; i++)
        for (int s = 0; s < players; s++)
            for (uint64_t m = pool->hands[i][s] & p->live; m;)
                wp[lit_pop_lsb(&m)][s] += pool->weight[i];
    *out = *exact;
    for (uint64_t m = p->live; m;) {
        int c = lit_pop_lsb(&m);
        for (int s = 0; s < players; s++) {
            double e = exact->p[c][s];
            if (e > 0 && e < 1)
                out->p[c][s] = uncertain(wp[c][s]);
        }
    }
    /* the claim figures of the seat's own team: the only ones a decision
     * reads (the other team's stay lit_odds'); each draw's team hand once */
    int team = lit_team_of(v->seat);
    unsigned seats = lit_team_seats(&p->rules, team);
    for (int i = 0; i < BEHAVE_DRAWS; i++) {
        pool->team_hand[i] = 0;
        for (unsigned s = seats; s; s &= s - 1)
            pool->team_hand[i] |= pool->hands[i][lit_lsb(s)];
    }
    memset(pool->slot_stamp, 0, sizeof pool->slot_stamp);
    pool->stamp = 0;
    for (int set = 0; set < sets; set++) {
        uint64_t mask = lit_set_mask(deck, set) & p->live;
        if (!mask)
            continue;
        double all = 0;
        for (int i = 0; i < BEHAVE_DRAWS; i++)
            if ((pool->team_hand[i] & mask) == mask)
                all += pool->weight[i];
        double e = exact->team_all[team][set];
        if (e > 0 && e < 1)
            out->team_all[team][set] = uncertain(all);
        if (exact->best_p[team][set] >= 1.0 - 1e-12 || exact->best_p[team][set] <= 0)
            continue;
        uint8_t best[LIT_MAX_SET_SIZE];
        double bp = likeliest_placement(pool, p, team, set, best);
        if (bp > 0) {
            memcpy(out->best[team][set], best, sizeof best);
            out->best_p[team][set] = uncertain(bp);
        }
    }
    return LIT_OK;
}

void bot_behave_draw(const BehavePool *pool, LitRng *rng, uint64_t hands[LIT_MAX_PLAYERS])
{
    /* 53 random bits, a point in [0, 1), and the draw whose weight covers it */
    double u = (double)(lit_rng_next(rng) >> 11) * 0x1p-53, sum = 0;
    int i = 0;
    for (; i < pool->draws - 1; i++) {
        sum += pool->weight[i];
        if (u < sum)
            break;
    }
    memcpy(hands, pool->hands[i], sizeof pool->hands[i]);
}
