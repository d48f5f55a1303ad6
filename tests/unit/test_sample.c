/* test_sample.c - exact uniform sampling of consistent deals: every draw fits
 * the view, the draws are uniform over whole deals (chi-square against an
 * enumeration), and their frequencies match the exact marginals. */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "helpers.h"
#include "literature/infer.h"

static _Alignas(16) char work[LIT_ODDS_WORK];
static LitOdds odds;
static LitEvent events[LIT_MAX_ACTIONS];

/* A draw fits the view: the placed cards where knowledge puts them, every
 * seat its count, and the whole history replays from the deal it implies. */
static void assert_draw_fits(const LitKnow *k, const uint64_t hands[LIT_MAX_PLAYERS],
                             const LitLog *log, int dealer, const char *what)
{
    const LitRules *r = &k->pub.rules;
    uint64_t all = 0;
    for (int s = 0; s < r->players; s++) {
        cr_assert_eq(hands[s] & k->held[s], k->held[s], "%s: seat %d keeps its placed cards",
                     what, s + 1);
        cr_assert_eq(lit_popcount(hands[s]), k->pub.counts[s], "%s: seat %d holds %d", what,
                     s + 1, k->pub.counts[s]);
        cr_assert_eq(all & hands[s], 0, "%s: a card twice", what);
        all |= hands[s];
    }
    cr_assert_eq(all, k->pub.live, "%s: every live card once", what);
    cr_assert(deal_fits(r, dealer, hands, log), "%s: the draw fits the history", what);
}

/* Along random games under many rules, from a seat and in public: every draw
 * fits, and the sampler counts what lit_odds counts. */
Test(sample, every_draw_fits_the_view, .timeout = 300)
{
    static const char *const rules[] = {"classic",          "classic players=4",
                                        "classic players=8", "quartets players=6",
                                        "jokers players=6", "classic bluff=on must-claim=on",
                                        "club players=8 split-claims=on"};
    long draws = 0;
    for (size_t r = 0; r < sizeof rules / sizeof rules[0]; r++) {
        for (uint64_t seed = 1; seed <= 3; seed++) {
            LitRules rl = rules_of(rules[r]);
            LitGame g;
            int dealer = (int)(seed % rl.players);
            cr_assert_eq(lit_game_new(&g, &rl, seed * 13 + r, dealer), LIT_OK);
            int viewer = seed == 3 ? LIT_NOBODY : (int)((seed + r) % rl.players);
            LitKnow k;
            cr_assert_eq(lit_know_start(&k, &rl, dealer, viewer,
                                        viewer == LIT_NOBODY ? 0 : g.hands[viewer]),
                         LIT_OK);
            LitLog log;
            lit_log_init(&log, events, LIT_MAX_ACTIONS);
            LitRng rng, draw;
            lit_rng_seed(&rng, seed + 100 * r);
            lit_rng_seed(&draw, seed);
            for (int step = 0; !lit_game_over(&g); step++) {
                /* (the widest positions at 8 players take long to count: from
                 * the 30th action on there) */
                if (step % 3 == 0 && (rl.players < 8 || step >= 30)) {
                    LitSampler *sp;
                    int st = lit_sampler_init(&sp, &k, work, sizeof work);
                    cr_assert_eq(st, LIT_OK, "%s: %s", rules[r], lit_status_name(st));
                    LitU192 n = lit_sampler_deals(sp);
                    for (int i = 0; i < 8; i++) {
                        uint64_t hands[LIT_MAX_PLAYERS];
                        lit_sampler_draw(sp, &draw, hands);
                        assert_draw_fits(&k, hands, &log, dealer, rules[r]);
                        draws++;
                    }
                    cr_assert_eq(lit_odds(&k, work, sizeof work, &odds), LIT_OK);
                    cr_assert(odds.exact);
                    cr_assert_eq(lit_u192_cmp(&n, &odds.deals), 0, "%s: the same count",
                                 rules[r]);
                }
                LitEvent e;
                random_step(&g, &e, &rng, 12);
                cr_assert_eq(lit_log_push(&log, &e), LIT_OK);
                cr_assert_eq(lit_know_apply(&k, &e), LIT_OK);
            }
        }
    }
    cr_assert_gt(draws, 2000);
}

/* Upper quantile of chi-square with df degrees of freedom at z standard
 * deviations (Wilson and Hilferty's cube-root normal approximation). */
static double chi2_quantile(double df, double z)
{
    double a = 2.0 / (9.0 * df);
    return df * pow(1.0 - a + z * sqrt(a), 3.0);
}

typedef struct Deals {
    int players, viewer;
    uint64_t hands[LIT_MAX_PLAYERS];
    int need[LIT_MAX_PLAYERS];
    int cards[LIT_MAX_CARDS], n;
    const LitKnow *k;
    const LitRules *rules;
    const LitLog *log;
    int dealer;
    uint64_t (*list)[LIT_MAX_PLAYERS];
    int count, cap;
} Deals;

/* Every deal of the viewer's unknown cards that fits the history (seats
 * knowledge rules out are skipped, to keep the enumeration small: that
 * knowledge is tested against brute force in test_infer). */
static void enumerate(Deals *d, int i)
{
    if (i == d->n) {
        if (!deal_fits(d->rules, d->dealer, d->hands, d->log))
            return;
        cr_assert_lt(d->count, d->cap);
        memcpy(d->list[d->count++], d->hands, sizeof d->hands);
        return;
    }
    for (int s = 0; s < d->players; s++) {
        if (s == d->viewer || d->need[s] == 0 || !(lit_know_candidates(d->k, d->cards[i]) >> s & 1))
            continue;
        d->need[s]--;
        d->hands[s] |= lit_bit(d->cards[i]);
        enumerate(d, i + 1);
        d->hands[s] &= ~lit_bit(d->cards[i]);
        d->need[s]++;
    }
}

/* On positions small enough to enumerate, the frequencies of whole deals
 * pass a chi-square test of uniformity (at a fixed seed; the threshold is
 * the 1e-4 upper quantile, so a correct sampler fails it on none of these
 * positions, and a sampler off by a few percent on any deal fails it). */
Test(sample, uniform_over_whole_deals, .timeout = 300)
{
    static const char *const rules[] = {"classic", "classic players=4", "quartets players=4",
                                        "classic bluff=on", "jokers players=6"};
    static uint64_t list[20000][LIT_MAX_PLAYERS];
    static long seen[20000];
    int positions = 0;
    for (size_t r = 0; r < sizeof rules / sizeof rules[0]; r++) {
        for (uint64_t seed = 1; seed <= 16; seed++) {
            LitRules rl = rules_of(rules[r]);
            LitGame g;
            int dealer = (int)(seed % rl.players), viewer = (int)((seed + 1) % rl.players);
            cr_assert_eq(lit_game_new(&g, &rl, seed * 71 + r, dealer), LIT_OK);
            LitLog log;
            lit_log_init(&log, events, LIT_MAX_ACTIONS);
            LitRng rng;
            lit_rng_seed(&rng, seed * 5 + r);
            int done = 0;
            while (!lit_game_over(&g) && !done) {
                LitEvent e;
                random_step(&g, &e, &rng, 25);
                cr_assert_eq(lit_log_push(&log, &e), LIT_OK);
                uint64_t others = g.pub.live & ~g.hands[viewer];
                if (lit_game_over(&g) || lit_popcount(others) > 16)
                    continue;
                LitView v;
                LitKnow k;
                cr_assert_eq(lit_view_make(&v, &g, &log, viewer), LIT_OK);
                cr_assert_eq(lit_know_from_view(&k, &v), LIT_OK);
                Deals d;
                memset(&d, 0, sizeof d);
                d.players = rl.players;
                d.viewer = viewer;
                d.rules = &rl;
                d.k = &k;
                d.log = &log;
                d.dealer = dealer;
                d.list = list;
                d.cap = 20000;
                d.hands[viewer] = g.hands[viewer];
                for (int s = 0; s < rl.players; s++) {
                    d.need[s] = s == viewer ? 0 : g.pub.counts[s];
                    d.hands[s] |= k.held[s];
                    d.need[s] -= s == viewer ? 0 : lit_popcount(k.held[s]);
                }
                for (uint64_t o = others; o;) {
                    int c = lit_pop_lsb(&o);
                    if (lit_know_holder(&k, c) == LIT_NOBODY)
                        d.cards[d.n++] = c;
                }
                LitU192 pre;
                cr_assert_eq(lit_odds(&k, work, sizeof work, &odds), LIT_OK);
                pre = odds.deals;
                if (pre.w[1] || pre.w[2] || pre.w[0] > 400 || pre.w[0] < 8)
                    continue;
                enumerate(&d, 0);
                if (d.count < 8 || d.count > 400)
                    continue;
                done = 1;
                LitSampler *sp;
                cr_assert_eq(lit_sampler_init(&sp, &k, work, sizeof work), LIT_OK);
                LitU192 n = lit_sampler_deals(sp), want = lit_u192((uint64_t)d.count);
                cr_assert_eq(lit_u192_cmp(&n, &want), 0, "%s: %d deals", rules[r], d.count);
                long draws = 200L * d.count;
                memset(seen, 0, sizeof seen);
                LitRng draw;
                lit_rng_seed(&draw, 4242 + seed);
                for (long i = 0; i < draws; i++) {
                    uint64_t hands[LIT_MAX_PLAYERS];
                    lit_sampler_draw(sp, &draw, hands);
                    int at = 0;
                    while (at < d.count && memcmp(list[at], hands, sizeof hands) != 0)
                        at++;
                    cr_assert_lt(at, d.count, "%s: a draw that does not fit", rules[r]);
                    seen[at]++;
                }
                double expect = (double)draws / d.count, chi2 = 0;
                for (int i = 0; i < d.count; i++)
                    chi2 += (seen[i] - expect) * (seen[i] - expect) / expect;
                double limit = chi2_quantile(d.count - 1, 3.719);
                cr_assert_lt(chi2, limit, "%s: chi-square %.1f over %d deals (limit %.1f)",
                             rules[r], chi2, d.count, limit);
                positions++;
            }
        }
    }
    cr_assert_geq(positions, 15, "enough enumerable positions: %d", positions);
}

/* At wide positions (early at 6 and 8 players, the start at 12, where the
 * free cards are spread over the blocks' layer) the frequency of
 * every card at every seat stays within five standard errors of the exact
 * marginal. */
Test(sample, frequencies_match_exact_marginals, .timeout = 300)
{
    static const char *const rules[] = {"classic players=8", "classic players=12",
                                        "classic players=6 bluff=on"};
    static const int actions[] = {6, 0, 6};
    for (size_t r = 0; r < sizeof rules / sizeof rules[0]; r++) {
        LitRules rl = rules_of(rules[r]);
        LitGame g;
        cr_assert_eq(lit_game_new(&g, &rl, 99 + r, 0), LIT_OK);
        LitKnow k;
        cr_assert_eq(lit_know_start(&k, &rl, 0, 1, g.hands[1]), LIT_OK);
        LitRng rng;
        lit_rng_seed(&rng, 7 + r);
        for (int i = 0; i < actions[r] && !lit_game_over(&g); i++) {
            LitEvent e;
            random_step(&g, &e, &rng, 100);
            cr_assert_eq(lit_know_apply(&k, &e), LIT_OK);
        }
        static LitOdds exact;
        cr_assert_eq(lit_odds(&k, work, sizeof work, &exact), LIT_OK);
        cr_assert(exact.exact, "%s", rules[r]);
        LitSampler *sp;
        cr_assert_eq(lit_sampler_init(&sp, &k, work, sizeof work), LIT_OK);
        static long at[LIT_MAX_CARDS][LIT_MAX_PLAYERS];
        memset(at, 0, sizeof at);
        const long draws = 20000;
        LitRng draw;
        lit_rng_seed(&draw, 1);
        for (long i = 0; i < draws; i++) {
            uint64_t hands[LIT_MAX_PLAYERS];
            lit_sampler_draw(sp, &draw, hands);
            for (int s = 0; s < rl.players; s++)
                for (uint64_t h = hands[s]; h;)
                    at[lit_pop_lsb(&h)][s]++;
        }
        for (uint64_t live = g.pub.live; live;) {
            int c = lit_pop_lsb(&live);
            for (int s = 0; s < rl.players; s++) {
                double p = exact.p[c][s], f = (double)at[c][s] / draws;
                double se = sqrt(p * (1 - p) / draws);
                cr_assert_leq(fabs(f - p), 5 * se + 1e-12, "%s: %s at %d: %.4f drawn, %.4f exact",
                              rules[r], lit_card_name(rl.deck, c), s + 1, f, p);
            }
        }
    }
}

Test(sample, refusals)
{
    LitRules rl = rules_of("classic");
    LitGame g;
    cr_assert_eq(lit_game_new(&g, &rl, 3, 0), LIT_OK);
    LitKnow k;
    cr_assert_eq(lit_know_start(&k, &rl, 0, 0, g.hands[0]), LIT_OK);
    LitSampler *sp = NULL;
    cr_assert_eq(lit_sampler_init(&sp, &k, work, 64), LIT_NO_SPACE);
    cr_assert_null(sp, "nothing set on a refusal");
    LitKnow bad = k;
    bad.consistent = 0;
    cr_assert_eq(lit_sampler_init(&sp, &bad, work, sizeof work), LIT_INCONSISTENT);
    cr_assert_null(sp);
    /* the start: all deals of the other 40 cards */
    cr_assert_eq(lit_sampler_init(&sp, &k, work, sizeof work), LIT_OK);
    LitU192 n = lit_sampler_deals(sp);
    char text[LIT_U192_DIGITS + 1];
    lit_u192_format(&n, text, sizeof text);
    cr_assert_str_eq(text, "7656714453153197981835000", "40! / (8!)^5");
}

/* ---- estimates by importance sampling ----------------------------------------------------- */

/* Where the exact figures are known, the estimates agree with them: every
 * probability within six standard errors (or 0.03), the count within six. */
Test(sample, estimates_agree_with_exact_figures, .timeout = 300)
{
    static const char *const rules[] = {"classic", "classic players=8", "classic players=4",
                                        "quartets players=6", "classic must-claim=on"};
    static LitOdds est;
    int positions = 0;
    for (size_t r = 0; r < sizeof rules / sizeof rules[0]; r++) {
        LitRules rl = rules_of(rules[r]);
        LitGame g;
        cr_assert_eq(lit_game_new(&g, &rl, 500 + r, 0), LIT_OK);
        LitKnow k;
        cr_assert_eq(lit_know_start(&k, &rl, 0, 0, g.hands[0]), LIT_OK);
        LitRng rng;
        lit_rng_seed(&rng, 31 + r);
        for (int step = 0; !lit_game_over(&g); step++) {
            if (step % 10 == 5 && (rl.players < 8 || step >= 30)) {
                cr_assert_eq(lit_odds(&k, work, sizeof work, &odds), LIT_OK);
                cr_assert(odds.exact);
                LitRng draw;
                lit_rng_seed(&draw, (uint64_t)step);
                cr_assert_eq(lit_odds_estimate(&k, &draw, 20000, work, sizeof work, &est), LIT_OK);
                cr_assert_eq(est.exact, 0);
                cr_assert_eq(est.samples, 20000);
                double deals = lit_u192_to_double(&odds.deals);
                cr_assert_leq(fabs(est.deals_estimate - deals), 6 * est.deals_se + 1e-9 * deals,
                              "%s, action %d: %g deals, estimated %g (se %g)", rules[r], step,
                              deals, est.deals_estimate, est.deals_se);
                for (uint64_t live = g.pub.live; live;) {
                    int c = lit_pop_lsb(&live);
                    for (int s = 0; s < rl.players; s++) {
                        double tol = 6 * est.p_se[c][s] > 0.03 ? 6 * est.p_se[c][s] : 0.03;
                        cr_assert_leq(fabs(est.p[c][s] - odds.p[c][s]), tol,
                                      "%s, action %d: %s at %d: %.4f, estimated %.4f (se %.4f)",
                                      rules[r], step, lit_card_name(rl.deck, c), s + 1,
                                      odds.p[c][s], est.p[c][s], est.p_se[c][s]);
                    }
                }
                for (int set = 0; set < lit_deck_sets(rl.deck); set++)
                    for (int t = 0; t < 2; t++) {
                        double se = est.team_all_se[t][set];
                        cr_assert_leq(fabs(est.team_all[t][set] - odds.team_all[t][set]),
                                      6 * se > 0.03 ? 6 * se : 0.03, "%s: team %d holds set %d",
                                      rules[r], t, set);
                    }
                positions++;
            }
            LitEvent e;
            random_step(&g, &e, &rng, 12);
            cr_assert_eq(lit_know_apply(&k, &e), LIT_OK);
        }
    }
    cr_assert_gt(positions, 20);
}

Test(sample, estimate_refusals)
{
    /* lit infer's largest --samples fits the recommended workspace */
    cr_assert_leq(lit_odds_estimate_work(200000), (size_t)LIT_ODDS_WORK);
    LitRules rl = rules_of("classic players=12");
    LitGame g;
    cr_assert_eq(lit_game_new(&g, &rl, 3, 0), LIT_OK);
    LitKnow k;
    cr_assert_eq(lit_know_start(&k, &rl, 0, 0, g.hands[0]), LIT_OK);
    LitRng rng;
    lit_rng_seed(&rng, 1);
    static LitOdds est;
    cr_assert_eq(lit_odds_estimate(&k, &rng, LIT_ESTIMATE_MIN - 1, work, sizeof work, &est),
                 LIT_NO_SPACE, "fewer draws than two a batch");
    cr_assert_eq(lit_odds_estimate(&k, &rng, LIT_ESTIMATE_MIN, work, sizeof work, &est), LIT_OK);
    cr_assert_eq(est.samples, LIT_ESTIMATE_MIN);
    cr_assert_eq(lit_odds_estimate(&k, &rng, (1u << 22) + 1, work, sizeof work, &est),
                 LIT_NO_SPACE);
    cr_assert_eq(lit_odds_estimate(&k, &rng, 1000, work, lit_odds_estimate_work(1000) - 1, &est),
                 LIT_NO_SPACE);
    LitKnow bad = k;
    bad.consistent = 0;
    cr_assert_eq(lit_odds_estimate(&bad, &rng, 1000, work, sizeof work, &est), LIT_INCONSISTENT);
    /* the start at 12 players: every free card's chance is its seat's
     * share, exactly, with an error of 0 but for rounding (no floor on an
     * exact figure) */
    cr_assert_eq(lit_odds_estimate(&k, &rng, 1000, work, sizeof work, &est), LIT_OK);
    for (uint64_t live = g.pub.live & ~g.hands[0]; live;) {
        int c = lit_pop_lsb(&live);
        for (int s = 1; s < 12; s++) {
            cr_assert_float_eq(est.p[c][s],
                               (double)g.pub.counts[s] /
                                   (lit_popcount(g.pub.live) - g.pub.counts[0]),
                               1e-12);
            cr_assert_lt(est.p_se[c][s], 1e-12);
        }
    }
}

/* A chance no draw gave, at a seat that may hold the card, is quoted with
 * the floor's error (about one over the effective draws), not 0; a chance
 * that is sure keeps 0. Here five seats must each hold one of the six low
 * clubs: a low club at the twelfth seat is rare in the draws (at 80 draws
 * often never drawn there). */
Test(sample, a_chance_no_draw_gave_has_an_error_not_zero)
{
    LitRules rl = rules_of("classic players=12");
    LitGame g;
    cr_assert_eq(lit_game_new(&g, &rl, 5, 0), LIT_OK);
    LitKnow k;
    cr_assert_eq(lit_know_start(&k, &rl, 0, LIT_NOBODY, 0), LIT_OK);
    LitRng rng;
    lit_rng_seed(&rng, 9);
    static LitOdds est;
    long floored = 0, zeros = 0;
    for (uint64_t seed = 1; seed <= 40; seed++) {
        LitKnow v = k;
        /* seats 1..5 each hold one of the low clubs: the twelfth rarely */
        for (int s = 0; s < 5; s++)
            v.need[s][0][v.n_need[s][0]++] = 0x3f;
        lit_rng_seed(&rng, seed);
        cr_assert_eq(lit_odds_estimate(&v, &rng, LIT_ESTIMATE_MIN, work, sizeof work, &est),
                     LIT_OK);
        double n = LIT_ESTIMATE_MIN, floor_se = 1 / (n + 2) * 0.5;
        for (int c = 0; c < 6; c++) {
            cr_assert_eq(lit_know_candidates(&v, c) >> 11 & 1, 1);
            double p = est.p[c][11], se = est.p_se[c][11];
            zeros += p == 0;
            if (p == 0 || p == 1) {
                floored++;
                cr_assert_gt(se, floor_se, "seed %d, card %d: a chance of %g with error %g",
                             (int)seed, c, p, se);
                cr_assert_lt(se, 1.0);
            }
        }
    }
    cr_assert_gt(zeros, 10, "no draw gave a low club to the twelfth seat %ld times", zeros);
    cr_assert_eq(floored, zeros);
}

/* Any alignment and size of workspace: the same figures from a buffer one
 * byte in and an odd size (the sanitizer build checks every access). */
Test(sample, workspace_of_any_alignment)
{
    LitRules rl = rules_of("classic");
    LitGame g;
    cr_assert_eq(lit_game_new(&g, &rl, 8, 0), LIT_OK);
    LitKnow k;
    cr_assert_eq(lit_know_start(&k, &rl, 0, 0, g.hands[0]), LIT_OK);
    LitRng rng;
    lit_rng_seed(&rng, 2);
    for (int i = 0; i < 20; i++) {
        LitEvent e;
        random_step(&g, &e, &rng, 50);
        cr_assert_eq(lit_know_apply(&k, &e), LIT_OK);
    }
    static LitOdds a, b;
    cr_assert_eq(lit_odds(&k, work, sizeof work, &a), LIT_OK);
    cr_assert_eq(lit_odds(&k, work + 1, (1u << 22) + 3, &b), LIT_OK);
    cr_assert(a.exact && b.exact);
    cr_assert_eq(memcmp(&a, &b, sizeof a), 0);
    LitSampler *sp;
    cr_assert_eq(lit_sampler_init(&sp, &k, work + 3, (1u << 22) + 5), LIT_OK);
    uint64_t hands[LIT_MAX_PLAYERS];
    lit_sampler_draw(sp, &rng, hands);
    cr_assert_eq(lit_odds_estimate(&k, &rng, 100, work + 5, lit_odds_estimate_work(100) + 7, &b),
                 LIT_OK);
}
