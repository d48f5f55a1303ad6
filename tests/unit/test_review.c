/* test_review.c - the review of a seat's decisions (include/literature/
 * review.h, docs/REVIEW.md).
 *
 * - a claim's chance (lit_claim_chance) is a joint probability: over every
 *   placement of a set on the team's seats the chances add up to the chance
 *   that the team holds it all, the likeliest placement's is lit_odds'
 *   best_p, and none exceeds a marginal of its cards;
 * - whole games (bots, and random play under the variants that make passes,
 *   choices and claims out of turn): every decision of the seat is there in
 *   order, every chance in [0, 1], an ask's chance is the exact marginal of
 *   the seat's view, the bot's own action costs 0, the grades follow the
 *   thresholds, the summary adds up, and two runs give the same bytes;
 * - an ask the seat knows must miss has chance 0;
 * - refusals by their exact status.
 *
 * No Criterion .timeout (see test_bot.c): CTest's timeout bounds the binary.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "helpers.h"
#include "literature/bot.h"
#include "literature/infer.h"
#include "literature/notation.h"
#include "literature/review.h"

/* The workspace (too large for a stack); each Test() has its own process. */
static _Alignas(16) unsigned char work[LIT_REVIEW_WORK];
static LitEvent events[LIT_MAX_ACTIONS];
static LitDecision out[LIT_MAX_ACTIONS], out2[LIT_MAX_ACTIONS];
static LitOdds odds;

/* A game of bots (bots[s % 2] at seat s) from seed: its start and events. */
static uint32_t bot_game(const LitRules *r, uint64_t seed, const char *const bots[2], LitGame *start)
{
    LitGame g;
    LitLog log;
    LitBot bot[LIT_MAX_PLAYERS];
    lit_log_init(&log, events, LIT_MAX_ACTIONS);
    cr_assert_eq(lit_game_new(&g, r, seed, (int)(seed % r->players)), LIT_OK);
    *start = g;
    for (int s = 0; s < r->players; s++) {
        LitBotSpec spec;
        cr_assert_eq(lit_bot_spec_parse(&spec, bots[s % 2], strlen(bots[s % 2])), LIT_OK);
        cr_assert_eq(lit_bot_init(&bot[s], &spec, lit_seed_mix(seed, (uint64_t)s)), LIT_OK);
        lit_bot_lend(&bot[s], work, LIT_BOT_WORK);
    }
    while (g.pub.result == LIT_ONGOING) {
        LitView v;
        LitAction a;
        lit_view_make(&v, &g, &log, g.pub.turn);
        cr_assert_eq(lit_bot_act(&bot[g.pub.turn], &v, &a), LIT_OK);
        cr_assert_eq(lit_game_play(&g, &log, &a), LIT_OK);
    }
    return log.len;
}

/* A game of random play (helpers' random_step), claims one time in 6. */
static uint32_t random_game(const LitRules *r, uint64_t seed, LitGame *start)
{
    LitGame g;
    LitRng rng;
    lit_rng_seed(&rng, seed);
    cr_assert_eq(lit_game_new(&g, r, seed, (int)(seed % r->players)), LIT_OK);
    *start = g;
    uint32_t n = 0;
    while (g.pub.result == LIT_ONGOING && n < LIT_MAX_ACTIONS)
        random_step(&g, &events[n++], &rng, 6);
    return n;
}

/* The classic rules at players seats. */
static LitRules classic(int players)
{
    char text[64];
    snprintf(text, sizeof text, "classic players=%d", players);
    return rules_of(text);
}

/* A game of bots under the classic rules at players seats. */
static uint32_t classic_game(int players, uint64_t seed, const char *const bots[2], LitGame *start)
{
    LitRules r = classic(players);
    return bot_game(&r, seed, bots, start);
}

/* The seat's knowledge after the first n events. */
static void know_after(LitKnow *k, const LitGame *start, int seat, uint32_t n)
{
    cr_assert_eq(lit_know_start(k, &start->pub.rules, start->pub.dealer, seat,
                                start->hands[seat]),
                 LIT_OK);
    for (uint32_t i = 0; i < n; i++)
        cr_assert_eq(lit_know_apply(k, &events[i]), LIT_OK);
}

/* ---- a claim's chance ----------------------------------------------------- */

static double claim_chance(const LitKnow *k, const LitAction *a)
{
    double p = -1;
    int est = -1;
    int st = lit_claim_chance(k, &odds, a, 1000, 1, work, LIT_REVIEW_CLAIM_WORK, &p, &est);
    cr_assert_eq(st, LIT_OK, "%s", lit_status_name(st));
    cr_assert_eq(est, 0, "an exact position gave an estimate");
    cr_assert(p >= 0 && p <= 1, "chance %g", p);
    return p;
}

/* Every placement of every live set on the team's seats, at positions of
 * games at 4 players: the chances add up to team_all, the best is best_p. */
Test(claim_chance, adds_up_to_the_team_holding_all)
{
    static const char *const rules[] = {"classic players=4", "classic players=4 must-claim=on",
                                        "classic players=4 bluff=on"};
    static const char *const basic[2] = {"basic", "basic"};
    int checked = 0;
    for (size_t v = 0; v < sizeof rules / sizeof rules[0]; v++) {
        LitRules r = rules_of(rules[v]);
        for (uint64_t seed = 1; seed <= 2; seed++) {
            LitGame start;
            uint32_t n = bot_game(&r, seed, basic, &start);
            for (uint32_t at = 0; at < n; at += 7)
                for (int seat = 0; seat < r.players; seat += 3) {
                    LitKnow k;
                    know_after(&k, &start, seat, at);
                    cr_assert_eq(lit_odds(&k, work, LIT_ODDS_WORK, &odds), LIT_OK);
                    cr_assert(odds.exact);
                    int team = lit_team_of(seat), size = lit_deck_set_size(r.deck);
                    int mates[2] = {team, team + 2};
                    for (int set = 0; set < lit_deck_sets(r.deck); set++) {
                        if (!(k.pub.live & lit_set_mask(r.deck, set)))
                            continue;
                        double sum = 0, most = 0;
                        LitAction a = lit_action_make(LIT_CLAIM, seat);
                        a.set = (uint8_t)set;
                        for (unsigned m = 0; m < 1u << size; m++) {
                            for (int i = 0; i < size; i++)
                                a.holders[i] = (uint8_t)mates[m >> i & 1];
                            double p = claim_chance(&k, &a);
                            for (int i = 0; i < size; i++) {
                                double marginal = odds.p[lit_set_first(r.deck, set) + i][a.holders[i]];
                                cr_assert_leq(p, marginal + 1e-12, "joint %g above a marginal %g", p,
                                              marginal);
                            }
                            sum += p;
                            most = p > most ? p : most;
                        }
                        cr_assert(fabs(sum - odds.team_all[team][set]) < 1e-9,
                                  "%s, %s: the placements add to %.12f, team_all %.12f", rules[v],
                                  lit_set_name(r.deck, set), sum, odds.team_all[team][set]);
                        cr_assert(fabs(most - odds.best_p[team][set]) < 1e-9,
                                  "the likeliest %.12f, best_p %.12f", most, odds.best_p[team][set]);
                        checked++;
                    }
                }
        }
    }
    cr_assert_gt(checked, 100);
}

/* At 6 and 8 players: the likeliest placement's chance is best_p. */
Test(claim_chance, of_the_likeliest_placement_is_best_p)
{
    static const char *const basic[2] = {"basic", "basic"};
    for (int players = 6; players <= 8; players += 2) {
        LitGame start;
        uint32_t n = classic_game(players, 11, basic, &start);
        int deck = start.pub.rules.deck;
        for (uint32_t at = n / 3; at < n; at += 9) {
            int seat = (int)(at % (uint32_t)players);
            LitKnow k;
            know_after(&k, &start, seat, at);
            cr_assert_eq(lit_odds(&k, work, LIT_ODDS_WORK, &odds), LIT_OK);
            int team = lit_team_of(seat);
            for (int set = 0; set < lit_deck_sets(deck); set++) {
                if (!(k.pub.live & lit_set_mask(deck, set)) || odds.best_p[team][set] <= 0)
                    continue;
                LitAction a = lit_action_make(LIT_CLAIM, seat);
                a.set = (uint8_t)set;
                memcpy(a.holders, odds.best[team][set], sizeof a.holders);
                double p = claim_chance(&k, &a);
                cr_assert(fabs(p - odds.best_p[team][set]) < 1e-9, "%d players: %.12f, best_p %.12f",
                          players, p, odds.best_p[team][set]);
            }
        }
    }
}

Test(claim_chance, refuses_with_the_exact_status)
{
    LitGame g;
    game_from(&g, "classic", 1, DEAL6);
    LitKnow k;
    cr_assert_eq(lit_know_start(&k, &g.pub.rules, 0, 0, g.hands[0]), LIT_OK);
    cr_assert_eq(lit_odds(&k, work, LIT_ODDS_WORK, &odds), LIT_OK);
    LitAction a = claim(&g, 1, "low-hearts", "1:2h,3h,4h,6h,7h 3:5h");
    double p = -1;
    int est = -1;
    cr_assert_eq(lit_claim_chance(&k, &odds, &a, 1000, 1, work, LIT_REVIEW_CLAIM_WORK - 1, &p, &est),
                 LIT_NO_SPACE);
    cr_assert_eq(lit_claim_chance(&k, &odds, &a, 1000, 1, work, LIT_REVIEW_CLAIM_WORK, &p, &est),
                 LIT_OK);
    cr_assert(fabs(p - odds.p[lit_card_parse(0, "5h", 2)][2]) < 1e-12,
              "one card unknown: its marginal");
    LitAction other = a;
    other.seat = 2;
    cr_assert_eq(lit_claim_chance(&k, &odds, &other, 1000, 1, work, LIT_REVIEW_WORK, &p, &est),
                 LIT_BAD_ACTION);
    other = a;
    other.holders[0] = 6;
    cr_assert_eq(lit_claim_chance(&k, &odds, &other, 1000, 1, work, LIT_REVIEW_WORK, &p, &est),
                 LIT_BAD_SEAT);
    /* a card of the seat's own hand placed at a teammate: no deal fits */
    other = claim(&g, 1, "low-hearts", "1:3h,4h,6h,7h 3:2h,5h");
    cr_assert_eq(lit_claim_chance(&k, &odds, &other, 1000, 1, work, LIT_REVIEW_WORK, &p, &est),
                 LIT_OK);
    cr_assert_eq(p, 0.0);
}

/* ---- whole reviews -------------------------------------------------------- */

/* Reviews seat of the game in events[0 .. n) and checks everything that
 * must hold of any review; returns the number of decisions. */
static int check_review(const LitGame *start, uint32_t n, int seat, uint32_t rollouts,
                        const char *what)
{
    const LitRules *r = &start->pub.rules;
    LitReviewOptions opt = lit_review_defaults();
    opt.rollouts = rollouts;
    opt.samples = 200;
    LitReviewSummary s, s2;
    int count = lit_review(start, events, n, seat, &opt, work, LIT_REVIEW_WORK, out,
                           LIT_MAX_ACTIONS, &s);
    cr_assert_geq(count, 0, "%s: %s", what, lit_status_name(count));
    uint32_t want = 0, k = 0;
    for (uint32_t i = 0; i < n; i++)
        want += events[i].action.seat == seat;
    cr_assert_eq((uint32_t)count, want, "%s, seat %d: %d decisions, %u actions", what, seat + 1,
                 count, want);
    cr_assert_eq(s.decisions, want);
    cr_assert_eq(s.asks + s.claims + s.passes + s.choices, s.decisions);
    uint32_t grades = 0;
    for (int g = 0; g < LIT_GRADES; g++)
        grades += s.grades[g];
    cr_assert_eq(grades, s.decisions);
    double cost = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (events[i].action.seat != seat)
            continue;
        const LitDecision *d = &out[k++];
        cr_assert_eq(d->n, i + 1, "%s: decision %u is action %u", what, k, d->n);
        cr_assert(memcmp(&d->event, &events[i], sizeof d->event) == 0);
        int kind = d->event.action.kind;
        if (kind == LIT_ASK || kind == LIT_CLAIM)
            cr_assert(d->done.chance >= 0 && d->done.chance <= 1, "%s: chance %g", what,
                      d->done.chance);
        else
            cr_assert_eq(d->done.chance, -1.0);
        if (d->best.action.kind == LIT_ASK || d->best.action.kind == LIT_CLAIM)
            cr_assert(d->best.chance >= 0 && d->best.chance <= 1, "%s: best %g", what,
                      d->best.chance);
        cr_assert(d->cost >= 0);
        if (d->same) {
            cr_assert_eq(d->cost, 0.0, "%s: the bot's own action costs %g", what, d->cost);
            cr_assert_eq(d->grade, LIT_GRADE_BEST);
            cr_assert(memcmp(&d->best, &d->done, sizeof d->best) == 0);
        } else {
            int want_grade = d->cost < LIT_REVIEW_INACCURACY ? LIT_GRADE_GOOD
                             : d->cost < LIT_REVIEW_MISTAKE  ? LIT_GRADE_INACCURACY
                                                              : LIT_GRADE_MISTAKE;
            cr_assert_eq(d->grade, want_grade, "%s: cost %g graded %s", what, d->cost,
                         lit_grade_name(d->grade));
            /* against the better of master's action and the surest ask */
            double reference = fmax(d->best.value, d->surest_ask);
            cr_assert(fabs(d->cost - fmax(0, reference - d->done.value)) < 1e-12);
        }
        if (kind == LIT_ASK && !d->done.estimated) {
            LitKnow kn;
            know_after(&kn, start, seat, i);
            cr_assert_eq(lit_odds(&kn, work, LIT_ODDS_WORK, &odds), LIT_OK);
            cr_assert_eq(d->done.chance, odds.p[d->event.action.card][d->event.action.target],
                         "%s: an ask's chance is not the marginal", what);
            cr_assert_geq(d->best_hit, d->done.chance);
            cr_assert_eq(d->best_hit, fmax(d->surest_ask, d->done.chance));
        }
        /* an exact chance of 0 never wins, a sure one always does (on turn) */
        if (kind == LIT_CLAIM && !d->done.estimated && d->done.chance == 0)
            cr_assert_neq(d->event.answer, LIT_WON, "%s: a claim of chance 0 won", what);
        if (kind == LIT_CLAIM && !d->done.estimated && d->done.chance >= LIT_REVIEW_SURE &&
            !(r->claim_time == LIT_CLAIM_PENALTY && d->best.action.kind == LIT_REVIEW_WAIT))
            cr_assert_eq(d->event.answer, LIT_WON, "%s: a sure claim was wrong", what);
        cost += d->cost;
    }
    cr_assert(fabs(cost - s.cost) < 1e-9);
    /* the same again, byte for byte */
    int again = lit_review(start, events, n, seat, &opt, work, LIT_REVIEW_WORK, out2,
                           LIT_MAX_ACTIONS, &s2);
    cr_assert_eq(again, count);
    cr_assert(memcmp(out, out2, sizeof out[0] * (size_t)count) == 0, "%s: a second run differs",
              what);
    cr_assert(memcmp(&s, &s2, sizeof s) == 0);
    return count;
}

Test(review, games_of_bots)
{
    static const char *const lineup[2] = {"master:0", "basic"};
    for (int players = 4; players <= 8; players += 2) {
        LitGame start;
        uint32_t n = classic_game(players, 5, lineup, &start);
        int best = 0;
        for (int seat = 0; seat < players; seat++) {
            int count = check_review(&start, n, seat, seat < 2 ? 8 : 0, "classic");
            /* the master:0 seats played master's own moves */
            if (seat % 2 == 0 && seat >= 2)
                for (int i = 0; i < count; i++)
                    best += out[i].same;
        }
        cr_assert_gt(best, 0, "%d players: master:0's own moves never matched", players);
    }
}

/* An action of the seat marked as chosen by another (a stand-in's, a
 * fallback) is no decision of it: left out, counted as a stand-in's, and
 * the seat's other decisions judged as before. */
Test(review, actions_the_seat_did_not_choose_are_not_judged)
{
    static const char *const lineup[2] = {"basic", "casual"};
    LitRules r = classic(6);
    LitGame start;
    uint32_t n = bot_game(&r, 9, lineup, &start);
    LitReviewOptions opt = lit_review_defaults();
    opt.rollouts = 0; /* master without its search: the same figures each run */
    LitReviewSummary all, some;
    int count = lit_review(&start, events, n, 0, &opt, work, LIT_REVIEW_WORK, out,
                           LIT_MAX_ACTIONS, &all);
    cr_assert_gt(count, 3);
    cr_assert_eq(all.stand_ins, 0);
    static uint8_t by[LIT_MAX_ACTIONS];
    uint32_t marked = 0, own = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (events[i].action.seat == 0)
            by[i] = own++ % 2 ? (marked++ % 2 ? LIT_BY_TIMEOUT : LIT_BY_FALLBACK) : LIT_BY_SEAT;
        else
            by[i] = i % 3 ? LIT_BY_SEAT : LIT_BY_AWAY; /* other seats' marks change nothing */
    }
    opt.by = by;
    int left = lit_review(&start, events, n, 0, &opt, work, LIT_REVIEW_WORK, out2,
                          LIT_MAX_ACTIONS, &some);
    cr_assert_eq((uint32_t)left, own - marked);
    cr_assert_eq(some.stand_ins, marked);
    cr_assert_eq(some.decisions, (uint32_t)left);
    uint32_t graded = 0;
    for (int g = 0; g < LIT_GRADES; g++)
        graded += some.grades[g];
    cr_assert_eq(graded, (uint32_t)left);
    /* the decisions left are the same as before, in order */
    for (int i = 0, k = 0; i < count; i++) {
        if (by[out[i].n - 1] != LIT_BY_SEAT)
            continue;
        cr_assert_lt(k, left);
        cr_assert(memcmp(&out[i], &out2[k], sizeof out[i]) == 0, "decision at action %u",
                  out[i].n);
        k++;
    }
}

Test(review, random_play_under_the_variants)
{
    static const char *const variants[] = {
        "classic claim-time=any-time",   "classic claim-time=penalty misclaim=opponents",
        "classic split-claims=on",       "classic after-claim=team pass-play=on",
        "classic must-claim=on bluff=on", "encyclopedia",
        "quartets",                      "classic misclaim=point-off double-high=on",
    };
    int out_of_turn = 0, passes = 0;
    for (size_t v = 0; v < sizeof variants / sizeof variants[0]; v++) {
        LitRules r = rules_of(variants[v]);
        LitGame start;
        uint32_t n = random_game(&r, 3 + v, &start);
        for (int seat = 0; seat < r.players; seat++) {
            int count = check_review(&start, n, seat, 0, variants[v]);
            for (int i = 0; i < count; i++) {
                out_of_turn += out[i].best.action.kind == LIT_REVIEW_WAIT;
                passes += out[i].event.action.kind == LIT_PASS ||
                          out[i].event.action.kind == LIT_CHOOSE;
            }
        }
    }
    cr_assert_gt(out_of_turn, 0, "no claim out of turn was reviewed");
    cr_assert_gt(passes, 0, "no pass or choice was reviewed");
}

/* 12 players early: beyond the budget, the figures are estimates. */
Test(review, estimates_beyond_the_budget)
{
    LitRules r = classic(12);
    LitGame start;
    uint32_t n = random_game(&r, 9, &start);
    if (n > 30)
        n = 30;
    int estimated = 0;
    for (int seat = 0; seat < 12; seat += 5) {
        int count = check_review(&start, n, seat, 0, "12 players");
        for (int i = 0; i < count; i++)
            estimated += out[i].done.estimated;
    }
    cr_assert_gt(estimated, 0, "nothing was estimated at 12 players");
}

/* Seat 1 asks seat 2 for 5h, which seat 2 has shown it lacks: chance 0. */
Test(review, an_ask_that_must_miss_has_chance_0)
{
    LitGame g;
    game_from(&g, "classic", 1, DEAL6);
    LitGame start = g;
    LitAction a[3] = {ask(&g, 1, 2, "5h"), ask(&g, 2, 1, "4c"), ask(&g, 1, 2, "5h")};
    for (int i = 0; i < 3; i++)
        cr_assert_eq(play(&g, a[i], &events[i]), LIT_OK);
    LitReviewOptions opt = lit_review_defaults();
    opt.rollouts = 4;
    LitReviewSummary s;
    int count = lit_review(&start, events, 3, 0, &opt, work, LIT_REVIEW_WORK, out, 2, &s);
    cr_assert_eq(count, 2);
    cr_assert_eq(out[0].n, 1);
    cr_assert(out[0].done.chance > 0 && out[0].done.chance < 1, "%g", out[0].done.chance);
    cr_assert_eq(out[1].n, 3);
    cr_assert_eq(out[1].done.chance, 0.0);
    cr_assert_eq(out[1].cost, fmax(out[1].best.value, out[1].surest_ask),
                 "the whole of the better of the bot's chance and the surest ask is lost");
    cr_assert_eq(s.asks, 2);
    cr_assert_eq(s.hits, 0);
    /* out holds only cap decisions */
    cr_assert_eq(lit_review(&start, events, 3, 0, &opt, work, LIT_REVIEW_WORK, out, 1, NULL), 2);
}

/* DEAL6: seat 1 holds 2h 3h 4h 6h 7h, seat 3 the 5h. Once seat 3 asks for
 * a low heart (action 4), seat 1 knows where every low heart is: at its
 * decision 6 a sure claim is open to it. Then a teammate's wrong claim (or,
 * under split-claims, the opponents' right one) takes the set from team A. */
static void sure_then_lost(const char *rules, int claimer, const char *groups, int how)
{
    LitGame g;
    game_from(&g, rules, 1, DEAL6);
    LitGame start = g;
    LitAction script[8] = {
        ask(&g, 1, 4, "4c"),  /* miss */
        ask(&g, 4, 3, "4c"),  /* hit */
        ask(&g, 4, 3, "3c"),  /* miss */
        ask(&g, 3, 4, "2h"),  /* miss: 3 holds a low heart, the 5h */
        ask(&g, 4, 1, "3c"),  /* miss */
        ask(&g, 1, 2, "Js"),  /* miss: seat 1 sure of the low hearts */
        ask(&g, 2, 5, "2c"),  /* miss: turn to 5 */
        claim(&g, claimer, "low-hearts", groups),
    };
    for (int i = 0; i < 8; i++) {
        int st = play(&g, script[i], &events[i]);
        cr_assert_eq(st, LIT_OK, "action %d: %s", i + 1, lit_status_name(st));
    }
    cr_assert_eq(events[7].answer, how, "outcome %s", lit_answer_name(events[7].answer));
    int kept = !(claimer % 2 == 1 && how == LIT_WON);
    LitReviewOptions opt = lit_review_defaults();
    opt.rollouts = 0;
    LitReviewSummary s;
    cr_assert_eq(lit_review(&start, events, 8, 0, &opt, work, LIT_REVIEW_WORK, out, 8, &s), 2);
    int set = lit_set_parse(g.pub.rules.deck, "low-hearts", 10);
    cr_assert_eq(s.kept_by_claim, kept ? 1u << set : 0, "%s: kept %#x", rules, s.kept_by_claim);
    cr_assert_eq(s.sure_at[set], kept ? 6 : 0);
    cr_assert_eq(s.lost_at[set], kept ? 8 : 0);
    if (kept) {
        cr_assert_eq(s.lost_by[set], claimer - 1);
        cr_assert_eq(s.lost_how[set], how);
    }
    /* seat 3 was not sure at its one decision (action 4), nor seat 5 */
    cr_assert_eq(lit_review(&start, events, 8, 2, &opt, work, LIT_REVIEW_WORK, out, 8, &s), 1);
    cr_assert_eq(s.kept_by_claim, 0);
    cr_assert_eq(lit_review(&start, events, 8, 4, &opt, work, LIT_REVIEW_WORK, out, 8, &s),
                 claimer == 5);
    cr_assert_eq(s.kept_by_claim, 0);
}

Test(review, a_set_an_earlier_claim_would_have_kept)
{
    sure_then_lost("classic", 5, "1:2h,3h,4h,6h,7h 5:5h", LIT_CANCELLED);
    sure_then_lost("classic misclaim=opponents", 5, "1:2h,3h,4h,6h,7h 5:5h", LIT_LOST);
    sure_then_lost("classic split-claims=on claim-time=any-time", 2, "1:2h,3h,4h,6h,7h 3:5h", LIT_WON);
    sure_then_lost("classic", 5, "1:2h,3h,4h,6h,7h 3:5h", LIT_WON); /* kept by the team */
}

Test(review, refuses_with_the_exact_status)
{
    LitGame g;
    game_from(&g, "classic", 1, DEAL6);
    LitGame start = g;
    cr_assert_eq(play(&g, ask(&g, 1, 2, "5h"), &events[0]), LIT_OK);
    LitReviewOptions opt = lit_review_defaults();
    opt.rollouts = 0;
    cr_assert_eq(lit_review(&start, events, 1, 6, &opt, work, LIT_REVIEW_WORK, out, 4, NULL),
                 LIT_BAD_SEAT);
    cr_assert_eq(lit_review(&start, events, 1, -1, &opt, work, LIT_REVIEW_WORK, out, 4, NULL),
                 LIT_BAD_SEAT);
    cr_assert_eq(lit_review(&start, events, 1, 0, &opt, work, LIT_REVIEW_WORK - 1, out, 4, NULL),
                 LIT_NO_SPACE);
    opt.rollouts = LIT_EXPERT_ROLLOUTS_MAX + 1;
    cr_assert_eq(lit_review(&start, events, 1, 0, &opt, work, LIT_REVIEW_WORK, out, 4, NULL),
                 LIT_BAD_BOT_OPTION);
    opt = lit_review_defaults();
    opt.samples = LIT_REVIEW_SAMPLES_MIN - 1;
    cr_assert_eq(lit_review(&start, events, 1, 0, &opt, work, LIT_REVIEW_WORK, out, 4, NULL),
                 LIT_BAD_BOT_OPTION);
    opt = lit_review_defaults();
    opt.rollouts = 0;
    /* a written answer the referee does not give */
    events[0].answer = LIT_HIT;
    cr_assert_eq(lit_review(&start, events, 1, 0, &opt, work, LIT_REVIEW_WORK, out, 4, NULL),
                 LIT_OUTCOME_MISMATCH);
    /* an action the referee refuses */
    events[0] = (LitEvent){.action = ask(&start, 2, 1, "4h"), .answer = LIT_MISS};
    cr_assert_eq(lit_review(&start, events, 1, 0, &opt, work, LIT_REVIEW_WORK, out, 4, NULL),
                 LIT_NOT_YOUR_TURN);
    /* the seat's own malformed actions, refused before they are judged */
    events[0] = (LitEvent){.action = ask(&start, 1, 2, "5h"), .answer = LIT_MISS};
    events[0].action.card = 60;
    cr_assert_eq(lit_review(&start, events, 1, 0, &opt, work, LIT_REVIEW_WORK, out, 4, NULL),
                 LIT_BAD_CARD);
    events[0] = (LitEvent){.action = claim(&start, 1, "low-hearts", "1:2h,3h,4h,6h,7h 3:5h"),
                           .answer = LIT_WON};
    events[0].action.holders[1] = 9;
    cr_assert_eq(lit_review(&start, events, 1, 0, &opt, work, LIT_REVIEW_WORK, out, 4, NULL),
                 LIT_BAD_SEAT);
    cr_assert_str_eq(lit_grade_name(LIT_GRADE_MISTAKE), "mistake");
    cr_assert_str_eq(lit_grade_name(LIT_GRADES), "");
}
