/* test_master.c - master's beliefs (src/bot/behave.c, docs/BOTS.md "master").
 *
 * The model weighs every consistent deal by the product, over every ask of
 * the history, of the chance a player of the model would have asked it.
 * behave.c reduces that product to one factor per seat and live set, a
 * function of the seat's count of the set now, and estimates from draws.
 * Here a referee takes the model as it is written: in positions with few
 * enough consistent deals it finds every one (by drawing until all are
 * seen), works each deal's hands back to the deal, replays the history
 * forward card by card and multiplies every ask's chance, every seat's own
 * asks and asks in sets out of play included (they weigh every deal alike).
 * Its exact weighted chances must match behave.c's estimates within their
 * sampling error, and where lit_odds is sure (0, 1, a sure placement) the
 * figures must be lit_odds' own.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../../src/bot/internal.h"
#include "../support/deal_fits.h"
#include "helpers.h"
#include "literature/bot.h"
#include "literature/infer.h"

/* The model's constant (behave.c's SKIP_SURE_HIT). */
#define SKIP 0.1

enum { MAX_DEALS = 3000, DRAWS_TO_FIND = 100000, SLOTS = 8192 };

static _Alignas(16) unsigned char work[LIT_BOT_WORK];
static uint64_t deals[MAX_DEALS][LIT_MAX_PLAYERS];
static double weight[MAX_DEALS];
static int slot[SLOTS]; /* the deals by hash: index + 1, 0 empty */
static LitOdds exact, model;
static BehavePool pool;

/* Every consistent deal of k into deals, found by drawing: the number. */
static int find_deals(const LitKnow *k, int players)
{
    LitSampler *sp;
    cr_assert_eq(lit_sampler_init(&sp, k, work, sizeof work), LIT_OK);
    LitRng rng;
    lit_rng_seed(&rng, 99);
    int n = 0;
    memset(slot, 0, sizeof slot);
    for (int i = 0; i < DRAWS_TO_FIND; i++) {
        uint64_t h[LIT_MAX_PLAYERS], key = 0;
        lit_sampler_draw(sp, &rng, h);
        for (int s = 0; s < players; s++)
            key = (key ^ h[s]) * 0x9e3779b97f4a7c15u;
        unsigned j = (unsigned)(key >> 40) & (SLOTS - 1);
        while (slot[j] && memcmp(deals[slot[j] - 1], h, sizeof(uint64_t) * (size_t)players))
            j = (j + 1) & (SLOTS - 1);
        if (!slot[j]) {
            cr_assert_lt(n, MAX_DEALS);
            memcpy(deals[n++], h, sizeof h);
            slot[j] = n;
        }
    }
    return n;
}

/* The model's weight of a deal whose hands now are h: the history worked
 * back to the deal, then replayed forward, every ask's chance multiplied. */
static double referee_weight(const LitView *v, const uint64_t *h)
{
    const LitRules *r = &v->pub.rules;
    int deck = r->deck, size = lit_deck_set_size(deck);
    uint64_t cur[LIT_MAX_PLAYERS];
    deal_undo(r, h, v->history, v->history_len, cur);
    static LitKnow pk; /* what every seat knew */
    cr_assert_eq(lit_know_start(&pk, r, v->pub.dealer, LIT_NOBODY, 0), LIT_OK);
    double w = 1;
    for (uint32_t i = 0; i < v->history_len; i++) {
        const LitEvent *e = &v->history[i];
        const LitAction *a = &e->action;
        if (a->kind == LIT_ASK) {
            int m = lit_popcount(cur[a->seat] & lit_set_mask(deck, lit_set_of(deck, a->card)));
            if (m < size) /* under bluff=on a seat may hold the card it asks for */
                w /= size - m;
            if (!(pk.held[a->target] >> a->card & 1)) {
                unsigned skipped = 0;
                unsigned them = pk.pub.holding & ~lit_team_seats(r, lit_team_of(a->seat));
                for (unsigned t = them; t; t &= t - 1)
                    for (uint64_t x = pk.held[lit_lsb(t)] & pk.pub.live; x;)
                        skipped |= 1u << lit_set_of(deck, lit_pop_lsb(&x));
                for (unsigned s = skipped; s; s &= s - 1)
                    if (cur[a->seat] & lit_set_mask(deck, lit_lsb(s)))
                        w *= SKIP;
            }
            if (e->answer == LIT_HIT) {
                cur[a->target] &= ~lit_bit(a->card);
                cur[a->seat] |= lit_bit(a->card);
            }
        } else if (a->kind == LIT_CLAIM) {
            for (int s = 0; s < r->players; s++)
                cur[s] &= ~lit_set_mask(deck, a->set);
        }
        cr_assert_eq(lit_know_apply(&pk, e), LIT_OK);
    }
    for (int s = 0; s < r->players; s++)
        cr_assert_eq(cur[s], h[s], "the replay does not end at the deal's hands");
    return w;
}

typedef struct Tally {
    int positions, thin;
    double moved; /* the most the model moved a chance from lit_odds' */
} Tally;

/* One position: the seat on turn's view of g. */
static void check_position(const LitGame *g, const LitLog *log, uint64_t seed, Tally *tally)
{
    const LitPublic *p = &g->pub;
    int players = p->rules.players, me = p->turn;
    LitView v;
    lit_view_make(&v, g, log, me);
    static LitBot bot;
    LitBotSpec spec = lit_bot_spec_default(LIT_BOT_MASTER);
    cr_assert_eq(lit_bot_init(&bot, &spec, seed), LIT_OK);
    cr_assert_eq(bot_follow_view(&bot, &v), LIT_OK);
    cr_assert_eq(lit_odds(&bot.know, work, sizeof work, &exact), LIT_OK);
    if (!exact.exact || exact.deals.w[1] || exact.deals.w[2] || exact.deals.w[0] > MAX_DEALS ||
        exact.deals.w[0] < 2)
        return;
    int n = find_deals(&bot.know, players);
    cr_assert_eq((uint64_t)n, exact.deals.w[0], "drew %d of %llu deals", n,
                 (unsigned long long)exact.deals.w[0]);
    double total = 0;
    for (int i = 0; i < n; i++)
        total += weight[i] = referee_weight(&v, deals[i]);
    cr_assert_eq(bot_behave_odds(&bot.know, &v, &exact, seed, &pool, &model, work, sizeof work), LIT_OK);
    if (pool.effective < 100) { /* the weight on a few deals: too few to estimate from */
        tally->thin++;
        return;
    }
    /* an estimate of a chance from the effective draws is off by at most
     * half over their square root at one standard error */
    double tol = 5 * 0.5 / sqrt(pool.effective) + 1e-9;
    for (uint64_t live = p->live; live;) {
        int c = lit_pop_lsb(&live);
        double sum = 0;
        for (int s = 0; s < players; s++) {
            double e = exact.p[c][s], m = model.p[c][s], ref = 0;
            for (int i = 0; i < n; i++)
                ref += (deals[i][s] >> c & 1) * weight[i];
            ref /= total;
            sum += m;
            if (e <= 0 || e >= 1) {
                cr_assert_eq(m, e, "card %d seat %d: sure %g, the model says %g", c, s, e, m);
                continue;
            }
            cr_assert(m > 0 && m < 1, "card %d seat %d: %g is sure, lit_odds %g", c, s, m, e);
            cr_assert(fabs(m - ref) <= tol, "card %d seat %d: %.4f, the referee %.4f (tol %.4f)",
                      c, s, m, ref, tol);
            if (fabs(ref - e) > tally->moved)
                tally->moved = fabs(ref - e);
        }
        cr_assert(fabs(sum - 1) < 1e-6, "card %d: the chances sum to %.9f", c, sum);
    }
    for (int team = 0; team < 2; team++)
        for (int set = 0; set < lit_deck_sets(p->rules.deck); set++) {
            if (!(p->live & lit_set_mask(p->rules.deck, set)))
                continue;
            if (exact.best_p[team][set] >= 1 - 1e-12) {
                cr_assert(memcmp(model.best[team][set], exact.best[team][set],
                                 sizeof model.best[team][set]) == 0);
                cr_assert_eq(model.best_p[team][set], exact.best_p[team][set]);
            } else {
                cr_assert_lt(model.best_p[team][set], 1.0);
                cr_assert_leq(model.best_p[team][set], model.team_all[team][set] + 1e-9);
            }
        }
    tally->positions++;
}

/* Games of basic bots; every position from the 8th action checked. */
static void check_games(const char *rules_text, int games, Tally *tally)
{
    LitRules r = rules_of(rules_text);
    static LitEvent events[LIT_MAX_ACTIONS];
    for (uint64_t seed = 1; seed <= (uint64_t)games; seed++) {
        LitGame g;
        LitLog log;
        LitBot bot[LIT_MAX_PLAYERS];
        lit_log_init(&log, events, LIT_MAX_ACTIONS);
        cr_assert_eq(lit_game_new(&g, &r, seed, (int)(seed % r.players)), LIT_OK);
        LitBotSpec basic = lit_bot_spec_default(LIT_BOT_BASIC);
        for (int s = 0; s < r.players; s++)
            cr_assert_eq(lit_bot_init(&bot[s], &basic, seed * 16 + (uint64_t)s), LIT_OK);
        while (g.pub.result == LIT_ONGOING) {
            LitView v;
            LitAction a;
            if (log.len >= 8 && g.pub.phase == LIT_PHASE_PLAY)
                check_position(&g, &log, seed * 1000 + log.len, tally);
            lit_view_make(&v, &g, &log, g.pub.turn);
            cr_assert_eq(lit_bot_act(&bot[g.pub.turn], &v, &a), LIT_OK);
            cr_assert_eq(lit_game_play(&g, &log, &a), LIT_OK);
        }
    }
}

Test(master_beliefs, are_the_model_exactly_where_every_deal_can_be_weighed)
{
    Tally tally = {0, 0, 0};
    /* under the sanitizers a third of the games, each position checked whole */
    int k = TEST_SANITIZED ? 3 : 1;
    check_games("classic players=4", 6 / k, &tally);
    check_games("classic players=6", 3 / k, &tally);
    check_games("classic players=4 after-claim=team bluff=on", 3 / k, &tally);
    fprintf(stderr,
            "master_beliefs: %d positions (%d more with under 100 effective draws), the model "
            "moved a chance by up to %.3f\n",
            tally.positions, tally.thin, tally.moved);
    cr_assert_geq(tally.positions, 30 / k);
    /* the test could tell the model from the uniform posterior */
    cr_assert_gt(tally.moved, 0.15);
}

/* Draws by weight come from the pool, each about as often as its weight. */
Test(master_beliefs, rollouts_draw_the_pool_by_weight)
{
    static BehavePool small;
    small.draws = 3;
    small.weight[0] = 0.5;
    small.weight[1] = 0;
    small.weight[2] = 0.5;
    for (int i = 0; i < 3; i++)
        small.hands[i][0] = (uint64_t)i + 1;
    LitRng rng;
    lit_rng_seed(&rng, 5);
    int seen[3] = {0, 0, 0};
    for (int i = 0; i < 10000; i++) {
        uint64_t h[LIT_MAX_PLAYERS];
        bot_behave_draw(&small, &rng, h);
        cr_assert(h[0] >= 1 && h[0] <= 3);
        seen[h[0] - 1]++;
    }
    cr_assert_eq(seen[1], 0, "a draw of weight 0 was drawn");
    cr_assert(seen[0] > 4700 && seen[0] < 5300, "%d of 10000", seen[0]);
}

/* The claims' calibration: at each player count it has figures for, a
 * line through them for each pair of stuck and standing, which rise from 0
 * at a placement the model gives no chance to at most 1 at one it calls
 * sure (read only where the exact count is not sure, so it may stay below
 * 1: at a tie the model broke, far below); at others the model's figure
 * itself. */
Test(master_claims, calibration_is_a_rising_line_through_its_figures)
{
    for (int t = 0; t < BOT_CLAIM_TABLES; t++)
        for (int line = 0; line < BOT_CLAIM_LINES; line++) {
            int stuck = line / LIT_STANDINGS, standing = line % LIT_STANDINGS;
            int players = bot_claim_players[t];
            cr_assert_eq(BOT_CLAIM_LINE(stuck, standing), line);
            const double *v = bot_claim_table[t][line];
            cr_assert_eq(v[0], 0);
            cr_assert(v[BOT_CLAIM_KNOTS - 1] > 0 && v[BOT_CLAIM_KNOTS - 1] <= 1,
                      "%d players, line %d", players, line);
            for (int k = 0; k < BOT_CLAIM_KNOTS; k++) {
                double p = (double)k / (BOT_CLAIM_KNOTS - 1);
                cr_assert(fabs(bot_claim_chance(p, players, stuck, standing) - v[k]) < 1e-12,
                          "knot %d", k);
                if (k > 0)
                    cr_assert_geq(v[k], v[k - 1], "%d players, line %d: knot %d falls", players,
                                  line, k);
                if (k + 1 < BOT_CLAIM_KNOTS) {
                    double mid =
                        bot_claim_chance(p + 0.25 / (BOT_CLAIM_KNOTS - 1), players, stuck, standing);
                    cr_assert(fabs(mid - (0.75 * v[k] + 0.25 * v[k + 1])) < 1e-12, "knot %d", k);
                }
            }
            cr_assert_eq(bot_claim_chance(-0.5, players, stuck, standing), 0);
            cr_assert_eq(bot_claim_chance(1.5, players, stuck, standing), v[BOT_CLAIM_KNOTS - 1]);
        }
    for (int line = 0; line < BOT_CLAIM_LINES; line++)
        for (double p = 0; p <= 1; p += 0.125) {
            cr_assert_eq(bot_claim_chance(p, 4, line / LIT_STANDINGS, line % LIT_STANDINGS), p);
            cr_assert_eq(bot_claim_chance(p, 12, line / LIT_STANDINGS, line % LIT_STANDINGS), p);
        }
}

/* Master's uncertain claims name the likeliest placement of the beliefs
 * lit_bot_beliefs gives with the view's own seed (seed 0), at the chance
 * those beliefs give it: lit infer --model master shows the figures master
 * decided by. Games of masters against experts. */
Test(master_claims, are_the_beliefs_of_their_view)
{
    LitRules r = rules_of("classic");
    static LitEvent events[LIT_MAX_ACTIONS];
    static _Alignas(16) unsigned char bot_work[LIT_BOT_WORK];
    static LitOdds odds;
    int checked = 0;
    int games = TEST_SANITIZED ? 2 : 6;
    for (uint64_t seed = 1; seed <= (uint64_t)games; seed++) {
        LitGame g;
        LitLog log;
        static LitBot bot[LIT_MAX_PLAYERS];
        lit_log_init(&log, events, LIT_MAX_ACTIONS);
        cr_assert_eq(lit_game_new(&g, &r, seed, (int)(seed % r.players)), LIT_OK);
        for (int s = 0; s < r.players; s++) {
            LitBotSpec spec = lit_bot_spec_default(s % 2 ? LIT_BOT_EXPERT : LIT_BOT_MASTER);
            spec.rollouts = 1;
            cr_assert_eq(lit_bot_init(&bot[s], &spec, seed * 16 + (uint64_t)s), LIT_OK);
            lit_bot_lend(&bot[s], bot_work, sizeof bot_work);
        }
        while (g.pub.result == LIT_ONGOING) {
            LitView v;
            LitAction a;
            lit_view_make(&v, &g, &log, g.pub.turn);
            cr_assert_eq(lit_bot_act(&bot[g.pub.turn], &v, &a), LIT_OK);
            if (a.kind == LIT_CLAIM && g.pub.turn % 2 == 0 &&
                lit_bot_beliefs(&v, 0, work, sizeof work, &odds, NULL) == LIT_OK) {
                int team = lit_team_of(a.seat);
                double p = odds.best_p[team][a.set];
                if (p > 0 && p < 1) {
                    cr_assert(memcmp(odds.best[team][a.set], a.holders,
                                     (size_t)lit_deck_set_size(r.deck)) == 0,
                              "game %llu, action %u: master claimed another placement than "
                              "its beliefs' likeliest",
                              (unsigned long long)seed, log.len);
                    checked++;
                }
            }
            cr_assert_eq(lit_game_play(&g, &log, &a), LIT_OK);
        }
    }
    fprintf(stderr, "master_claims: %d uncertain claims checked\n", checked);
    cr_assert_gt(checked, 0);
}
