/* test_infer_games.c - the deduction layer (include/literature/infer.h) along
 * 1,000 whole random games: at every position, the exact odds of lit_odds and
 * the certain knowledge of LitKnow agree with each other and with the true
 * hands.
 *
 *   - for each live card the probabilities over seats sum to 1;
 *   - for each seat they sum over live cards to its hand size (the unknown
 *     hand size of the issue: a seat's hand counts its placed and unplaced
 *     cards alike, and placed ones weigh 1);
 *   - certain knowledge never contradicts the true hands (holders,
 *     candidates, least holdings per set), and the odds give every true
 *     holder a positive probability;
 *   - the true deal is always counted (the count of consistent deals is
 *     never 0), and a team's claim figures are probabilities with
 *     P(best placement) <= P(the team holds the whole set).
 *
 * The games are deterministic (seeded) and spread over rule sets, dealers
 * and viewers (every seat in turn, and the public view LIT_NOBODY). 4- and
 * 6-player games are checked from the deal on. 8-player games are checked
 * only from their 30th action on: their early positions take up to a second
 * each to count exactly, which would blow the time budget of the suite (it
 * also runs under ASan + UBSan, about 6x slower).
 *
 * One Test() per rule set, so that `--jobs=2` runs them in parallel; each
 * asserts a least number of positions (about 90% of what it checks now),
 * 69,345 positions in all. Measured on 2 cores, `time test_infer_games
 * --jobs=2`: release build 28-40 s wall (the spread is other load on the
 * machine), 53 s CPU; the Debug ASan + UBSan build 3 min 52 s wall, 5 min
 * 35 s CPU. Nearly all of it is 6 players, and there the six public-view
 * games take half (3 to 8 s each against 0.1 s for a game seen from a seat).
 */
#include <criterion/criterion.h>
#include <stddef.h>
#include <string.h>

#include "helpers.h"
#include "literature/infer.h"

/* lit_odds' workspace: static (64 MiB is too much for a stack), aligned for
 * any type. Each Test() runs in its own process, so each has its own. */
static _Alignas(max_align_t) unsigned char work[LIT_ODDS_WORK];
static LitOdds odds;

/* The true holder of card, or -1. */
static int true_holder(const LitGame *g, int card)
{
    for (int s = 0; s < g->pub.rules.players; s++)
        if (g->hands[s] >> card & 1)
            return s;
    return -1;
}

/* Every check at one position: game index gi, action index ai (the number
 * of actions applied so far). */
static void check_position(const char *rules, int gi, int ai, const LitGame *g,
                           const LitKnow *k)
{
    const LitRules *rl = &g->pub.rules;
    int deck = rl->deck, players = rl->players;
    cr_assert(k->consistent, "%s game %d action %d: a true game found inconsistent", rules,
              gi, ai);
    cr_assert_eq(memcmp(&k->pub, &g->pub, sizeof k->pub), 0,
                 "%s game %d action %d: the knowledge's public part", rules, gi, ai);
    int st = lit_odds(k, work, sizeof work, &odds);
    cr_assert_eq(st, LIT_OK, "%s game %d action %d: lit_odds: %s", rules, gi, ai,
                 lit_status_name(st));
    cr_assert_eq(odds.exact, 1, "%s game %d action %d: not exact (%u states)", rules, gi,
                 ai, odds.states);
    cr_assert(!lit_u192_is_zero(&odds.deals),
              "%s game %d action %d: the true deal is not counted", rules, gi, ai);

    double seat_sum[LIT_MAX_PLAYERS] = {0};
    for (uint64_t live = g->pub.live; live;) {
        int c = lit_pop_lsb(&live);
        const char *name = lit_card_name(deck, c);
        int truth = true_holder(g, c);
        cr_assert_geq(truth, 0, "%s game %d action %d: live %s in no hand", rules, gi, ai,
                      name);
        unsigned cand = lit_know_candidates(k, c);
        int holder = lit_know_holder(k, c);
        cr_assert(cand >> truth & 1,
                  "%s game %d action %d: %s excluded from its holder, seat %d", rules, gi,
                  ai, name, truth + 1);
        cr_assert(holder == LIT_NOBODY || holder == truth,
                  "%s game %d action %d: %s placed at seat %d, held by seat %d", rules, gi,
                  ai, name, holder + 1, truth + 1);
        cr_assert_gt(odds.p[c][truth], 0.0,
                     "%s game %d action %d: %s at seat %d, which has probability 0", rules,
                     gi, ai, name, truth + 1);
        double sum = 0;
        for (int s = 0; s < players; s++) {
            double p = odds.p[c][s];
            cr_assert(p >= 0.0 && p <= 1.0,
                      "%s game %d action %d: P(%s at seat %d) = %.17g", rules, gi, ai, name,
                      s + 1, p);
            if (!(cand >> s & 1))
                cr_assert_eq(p, 0.0,
                             "%s game %d action %d: %s not possible at seat %d, P = %.17g",
                             rules, gi, ai, name, s + 1, p);
            if (holder == s)
                cr_assert_eq(p, 1.0,
                             "%s game %d action %d: %s surely at seat %d, P = %.17g", rules,
                             gi, ai, name, s + 1, p);
            sum += p;
            seat_sum[s] += p;
        }
        cr_assert_float_eq(sum, 1.0, 1e-9, "%s game %d action %d: %s: seats sum to %.17g",
                           rules, gi, ai, name, sum);
    }
    for (int s = 0; s < players; s++) {
        cr_assert_float_eq(seat_sum[s], (double)g->pub.counts[s], 1e-9,
                           "%s game %d action %d: seat %d: cards sum to %.17g, holds %d",
                           rules, gi, ai, s + 1, seat_sum[s], g->pub.counts[s]);
        for (int set = 0; set < lit_deck_sets(deck); set++) {
            int has = lit_popcount(g->hands[s] & lit_set_mask(deck, set));
            int least = lit_know_min_hold(k, s, set);
            cr_assert_leq(least, has,
                          "%s game %d action %d: seat %d must hold %d of the set of %s, "
                          "holds %d",
                          rules, gi, ai, s + 1, least,
                          lit_card_name(deck, lit_set_first(deck, set)), has);
        }
    }

    /* The claim figures: the viewer's team (both teams in the public view). */
    for (int t = 0; t < 2; t++) {
        if (k->seat != LIT_NOBODY && t != lit_team_of(k->seat))
            continue;
        for (int set = 0; set < lit_deck_sets(deck); set++) {
            if (!(g->pub.live & lit_set_mask(deck, set)))
                continue;
            double all = odds.team_all[t][set], best = odds.best_p[t][set];
            const char *name = lit_card_name(deck, lit_set_first(deck, set));
            cr_assert(all >= 0.0 && all <= 1.0 && best >= 0.0 && best <= 1.0,
                      "%s game %d action %d: team %c, set of %s: all %.17g, best %.17g",
                      rules, gi, ai, "AB"[t], name, all, best);
            cr_assert_geq(all, best - 1e-12,
                          "%s game %d action %d: team %c, set of %s: the best placement "
                          "(%.17g) likelier than holding the set (%.17g)",
                          rules, gi, ai, "AB"[t], name, best, all);
        }
    }
}

/* Plays games random games of rules from seeds seed0, seed0 + 1, ...,
 * checking every position from action `from` on (0: from the deal). Game gi
 * follows the public view when public_every > 0 and gi % public_every ==
 * public_every - 1; the other games follow seats 0, 1, 2... in turn. Returns
 * the number of positions checked. */
static long run_games(const char *rules, int games, uint64_t seed0, int from,
                      int public_every)
{
    LitRules rl = rules_of(rules);
    long positions = 0;
    int seat_games = 0;
    for (int gi = 0; gi < games; gi++) {
        uint64_t seed = seed0 + (uint64_t)gi;
        int dealer = (int)(seed % rl.players);
        int viewer = public_every > 0 && gi % public_every == public_every - 1
                         ? LIT_NOBODY
                         : seat_games++ % rl.players;
        LitGame g;
        cr_assert_eq(lit_game_new(&g, &rl, seed, dealer), LIT_OK, "%s game %d", rules, gi);
        LitKnow k;
        int st = lit_know_start(&k, &rl, dealer, viewer,
                                viewer == LIT_NOBODY ? 0 : g.hands[viewer]);
        cr_assert_eq(st, LIT_OK, "%s game %d: lit_know_start: %s", rules, gi,
                     lit_status_name(st));
        LitRng rng;
        lit_rng_seed(&rng, seed * 7919 + 1);
        int ai = 0;
        if (from == 0) {
            check_position(rules, gi, ai, &g, &k);
            positions++;
        }
        while (!lit_game_over(&g)) {
            LitEvent e;
            random_step(&g, &e, &rng, 10);
            ai++;
            st = lit_know_apply(&k, &e);
            cr_assert_eq(st, LIT_OK, "%s game %d action %d: lit_know_apply: %s", rules, gi,
                         ai, lit_status_name(st));
            if (ai < from || lit_game_over(&g))
                continue;
            check_position(rules, gi, ai, &g, &k);
            positions++;
        }
    }
    return positions;
}

/* One rule set: games, first seed, first action checked, one game in
 * public_every (0: none) seen from the public view, least number of
 * positions checked. Under the sanitizers (TEST_SANITIZED) the first half
 * of the games of a set of more than 24, the last of them still from the
 * public view where the whole set's one was, and half the positions (the
 * 8-player sets, 12 games each, whole). */
#define GAMES(test, rules, games, seed0, from, public_every, least)                      \
    Test(infer_games, test, .timeout = 600)                                              \
    {                                                                                    \
        int half = TEST_SANITIZED && (games) > 24;                                       \
        int played = half ? ((games) + 1) / 2 : (games);                                 \
        int every = (public_every) > played ? played : (public_every);                   \
        long n = run_games(rules, played, seed0, from, every);                           \
        cr_log_info("%s: %d games, %ld positions", rules, played, n);                    \
        cr_assert_gt(n, (least) >> half, "%s: only %ld positions checked", rules, n);    \
    }

/* 4 players: 8 rule sets, 77 games each (616), one in 4 from the public view. */
GAMES(classic_4, "classic players=4", 77, 1000, 0, 4, 5000)
GAMES(quartets_4, "quartets players=4", 77, 2000, 0, 4, 7000)
GAMES(jokers_4, "jokers players=4", 77, 3000, 0, 4, 5000)
GAMES(bluff_must_claim_4, "classic players=4 bluff=on must-claim=on", 77, 4000, 0, 4, 5000)
GAMES(any_time_4, "classic players=4 claim-time=any-time split-claims=on after-claim=team",
      77, 5000, 0, 4, 2800)
GAMES(club_4, "club players=4", 77, 6000, 0, 4, 4500)
GAMES(encyclopedia_4, "encyclopedia players=4", 77, 7000, 0, 4, 5000)
GAMES(india_4, "india players=4 pass-play=on claim-time=penalty", 77, 8000, 0, 4, 2800)
/* 6 players: 6 rule sets, 60 games each (360). The public view is the
 * costly one here (3 to 8 s a game against 0.1 s for a seat's view): the
 * last game of each rule set. */
GAMES(classic_6, "classic", 60, 11000, 0, 60, 4000)
GAMES(jokers_6, "jokers players=6", 60, 12000, 0, 60, 4000)
GAMES(bluff_6, "classic bluff=on", 60, 13000, 0, 60, 4000)
GAMES(must_claim_6, "classic must-claim=on", 60, 14000, 0, 60, 3900)
GAMES(club_6, "club players=6", 60, 15000, 0, 60, 3600)
GAMES(india_6, "india players=6", 60, 16000, 0, 60, 4000)
/* 8 players, from the 30th action on: 2 rule sets, 12 games each (24), one
 * in 6 from the public view. */
GAMES(classic_8, "classic players=8", 12, 21000, 30, 6, 400)
GAMES(club_8, "club players=8 must-claim=on", 12, 22000, 30, 6, 300)

/* lit_know_assume: a card assumed at each seat that may hold it, the deals
 * counted then (lit_odds of the result, and lit_odds_count, the count
 * alone, the same) are those with it there: their share of all is the
 * card's chance at the seat, and over the seats they add up to every deal,
 * to the last one. At a seat that may not hold it, no deal fits (the count
 * says LIT_INCONSISTENT); at its sure holder, nothing changes; a card out
 * of play or a seat not in the game is refused with k unchanged. The count
 * in a workspace too small for it is LIT_NO_SPACE. Along random games from
 * a seat's view, every fifth position from the 12th action on, every card
 * (8 players from the 40th: their earlier counts take long). */
static long check_assumed(const char *rules, uint64_t seed, int from)
{
    static LitOdds assumed;
    LitRules rl = rules_of(rules);
    LitGame g;
    cr_assert_eq(lit_game_new(&g, &rl, seed, 0), LIT_OK);
    int viewer = (int)(seed % rl.players);
    LitKnow k, a;
    cr_assert_eq(lit_know_start(&k, &rl, 0, viewer, g.hands[viewer]), LIT_OK);
    LitRng rng;
    lit_rng_seed(&rng, seed);
    long checked = 0;
    for (int ai = 1; !lit_game_over(&g); ai++) {
        LitEvent e;
        random_step(&g, &e, &rng, 10);
        cr_assert_eq(lit_know_apply(&k, &e), LIT_OK);
        if (ai < from || ai % 5 || lit_game_over(&g))
            continue;
        cr_assert_eq(lit_odds(&k, work, sizeof work, &odds), LIT_OK);
        if (!odds.exact)
            continue;
        LitU192 all;
        cr_assert_eq(lit_odds_count(&k, work, sizeof work, &all), LIT_OK);
        cr_assert_eq(lit_u192_cmp(&all, &odds.deals), 0, "%s action %d: lit_odds_count", rules,
                     ai);
        cr_assert_eq(lit_odds_count(&k, work, 64, &all), LIT_NO_SPACE);
        for (uint64_t live = g.pub.live; live;) {
            int c = lit_pop_lsb(&live);
            unsigned cand = lit_know_candidates(&k, c);
            const char *name = lit_card_name(rl.deck, c);
            if (lit_know_holder(&k, c) != LIT_NOBODY) {
                a = k;
                cr_assert_eq(lit_know_assume(&a, c, lit_know_holder(&k, c)), LIT_OK);
                cr_assert_eq(memcmp(&a, &k, sizeof a), 0, "%s: %s at its holder", rules, name);
                continue;
            }
            LitU192 sum = lit_u192(0);
            for (int s = 0; s < rl.players; s++) {
                a = k;
                cr_assert_eq(lit_know_assume(&a, c, s), LIT_OK);
                if (!(cand >> s & 1)) {
                    cr_assert_eq(a.consistent, 0, "%s: %s at seat %d", rules, name, s + 1);
                    LitU192 none = lit_u192(1);
                    cr_assert_eq(lit_odds_count(&a, work, sizeof work, &none), LIT_INCONSISTENT);
                    cr_assert(lit_u192_is_zero(&none));
                    continue;
                }
                if (!a.consistent) { /* what follows from it rules it out */
                    cr_assert_eq(odds.p[c][s], 0.0, "%s action %d: %s at seat %d", rules, ai,
                                 name, s + 1);
                    continue;
                }
                cr_assert_eq(lit_know_holder(&a, c), s);
                int st = lit_odds(&a, work, sizeof work, &assumed);
                cr_assert_eq(st, LIT_OK, "%s action %d: %s at seat %d: %s", rules, ai, name,
                             s + 1, lit_status_name(st));
                cr_assert_eq(assumed.exact, 1);
                LitU192 count; /* the count alone, the same */
                cr_assert_eq(lit_odds_count(&a, work, sizeof work, &count), LIT_OK);
                cr_assert_eq(lit_u192_cmp(&count, &assumed.deals), 0,
                             "%s action %d: %s at seat %d: lit_odds_count", rules, ai, name,
                             s + 1);
                cr_assert_float_eq(lit_u192_ratio(&assumed.deals, &odds.deals), odds.p[c][s],
                                   1e-12, "%s action %d: %s at seat %d", rules, ai, name,
                                   s + 1);
                lit_u192_add(&sum, &sum, &assumed.deals);
                checked++;
            }
            cr_assert_eq(lit_u192_cmp(&sum, &odds.deals), 0, "%s action %d: %s's deals", rules,
                         ai, name);
        }
        /* refused, and k unchanged */
        a = k;
        uint64_t out = ~g.pub.live & (lit_bit(lit_deck_cards(rl.deck)) - 1);
        if (out)
            cr_assert_eq(lit_know_assume(&a, lit_lsb(out), 0), LIT_BAD_CARD);
        cr_assert_eq(lit_know_assume(&a, -1, 0), LIT_BAD_CARD);
        cr_assert_eq(lit_know_assume(&a, lit_deck_cards(rl.deck), 0), LIT_BAD_CARD);
        cr_assert_eq(lit_know_assume(&a, lit_lsb(g.pub.live), rl.players), LIT_BAD_SEAT);
        cr_assert_eq(lit_know_assume(&a, lit_lsb(g.pub.live), -1), LIT_BAD_SEAT);
        cr_assert_eq(memcmp(&a, &k, sizeof a), 0, "%s: a refused assumption changed k", rules);
    }
    return checked;
}

Test(infer_games, assuming_a_card_counts_its_deals, .timeout = 600)
{
    long n = 0;
    n += check_assumed("classic", 31, 12);
    n += check_assumed("classic must-claim=on", 32, 12);
    n += check_assumed("classic players=4 bluff=on", 33, 12);
    n += check_assumed("classic players=8", 34, 40);
    cr_log_info("lit_know_assume: %ld assumptions counted", n);
    cr_assert_gt(n, 1000, "only %ld assumptions counted", n);
}
