/* test_view.c - what one seat sees (include/literature/view.h): a view holds
 * its own hand and the public part only, lists the same legal actions as the
 * referee, and kept up to date from the events alone stays equal to a view
 * made afresh; the public part replays from events alone. */
#include <criterion/criterion.h>
#include <string.h>

#include "helpers.h"
#include "literature/rng.h"

/* Field by field: the padding of LitPublic is not compared. */
static void assert_pub_equal(const LitPublic *a, const LitPublic *b, const char *what)
{
    cr_assert_eq(memcmp(&a->rules, &b->rules, sizeof a->rules), 0, "%s: rules", what);
    cr_assert_eq(a->dealer, b->dealer, "%s: dealer", what);
    cr_assert_eq(a->turn, b->turn, "%s: turn %d vs %d", what, a->turn, b->turn);
    cr_assert_eq(a->phase, b->phase, "%s: phase %s vs %s", what, lit_phase_name(a->phase),
                 lit_phase_name(b->phase));
    cr_assert_eq(a->result, b->result, "%s: result", what);
    for (int s = 0; s < LIT_MAX_PLAYERS; s++)
        cr_assert_eq(a->counts[s], b->counts[s], "%s: count of seat %d: %d vs %d", what,
                     s + 1, a->counts[s], b->counts[s]);
    cr_assert_eq(a->actions, b->actions, "%s: actions", what);
    cr_assert_eq(a->won[0], b->won[0], "%s: won A", what);
    cr_assert_eq(a->won[1], b->won[1], "%s: won B", what);
    cr_assert_eq(a->dead, b->dead, "%s: dead", what);
    cr_assert_eq(a->score[0], b->score[0], "%s: score A", what);
    cr_assert_eq(a->score[1], b->score[1], "%s: score B", what);
    cr_assert_eq(a->live, b->live, "%s: live", what);
}

static void assert_view_equal(const LitView *a, const LitView *b, const char *what)
{
    assert_pub_equal(&a->pub, &b->pub, what);
    cr_assert_eq(a->seat, b->seat, "%s: seat", what);
    cr_assert_eq(a->hand, b->hand, "%s: hand of seat %d", what, a->seat + 1);
}

/* ---- making a view ------------------------------------------------------------ */

Test(view, make_holds_one_hand_and_the_public_part)
{
    LitGame g;
    LitEvent buf[8];
    LitLog log;
    lit_log_init(&log, buf, 8);
    game_from(&g, "classic", 1, DEAL6);
    cr_assert_eq(lit_game_play(&g, &log, &(LitAction){0}), LIT_BAD_ACTION);
    LitAction a = ask(&g, 1, 2, "5h");
    cr_assert_eq(lit_game_play(&g, &log, &a), LIT_OK);
    a = ask(&g, 2, 3, "4c");
    cr_assert_eq(lit_game_play(&g, &log, &a), LIT_OK);
    for (int s = 0; s < 6; s++) {
        LitView v;
        cr_assert_eq(lit_view_make(&v, &g, &log, s), LIT_OK);
        cr_assert_eq(v.seat, s);
        cr_assert_eq(v.hand, g.hands[s], "seat %d sees its own hand", s + 1);
        assert_pub_equal(&v.pub, &g.pub, "view");
        cr_assert_eq(v.history, log.events);
        cr_assert_eq(v.history_len, 2);
    }
    cr_assert_eq(g.hands[1] & cards_of(LIT_DECK_NO8, "4c"), cards_of(LIT_DECK_NO8, "4c"));

    LitView pub;
    cr_assert_eq(lit_view_make(&pub, &g, &log, LIT_NOBODY), LIT_OK);
    cr_assert_eq(pub.seat, LIT_NOBODY);
    cr_assert_eq(pub.hand, 0, "the public view holds no hand");
    assert_pub_equal(&pub.pub, &g.pub, "public view");
    cr_assert_eq(pub.history_len, 2);

    LitView nolog;
    cr_assert_eq(lit_view_make(&nolog, &g, NULL, 3), LIT_OK);
    cr_assert_null(nolog.history);
    cr_assert_eq(nolog.history_len, 0);
    cr_assert_eq(nolog.hand, g.hands[3]);
}

Test(view, make_refuses_a_seat_not_in_the_game)
{
    LitGame g;
    LitView v, before;
    game_from(&g, "classic", 1, DEAL6);
    memset(&v, 0x33, sizeof v);
    before = v;
    static const int bad[] = {6, 7, 11, 12, -1, 100, 254, 256, -255};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        cr_assert_eq(lit_view_make(&v, &g, NULL, bad[i]), LIT_BAD_SEAT, "seat index %d", bad[i]);
        cr_assert_eq(memcmp(&v, &before, sizeof v), 0, "a refused make changes nothing");
    }
    LitGame g8;
    static const char *const DEAL8[8] = {"2c 3c 4c 5c 6c 7c", "9c Tc Jc Qc Kc Ac",
                                         "2d 3d 4d 5d 6d 7d", "9d Td Jd Qd Kd Ad",
                                         "2h 3h 4h 5h 6h 7h", "9h Th Jh Qh Kh Ah",
                                         "2s 3s 4s 5s 6s 7s", "9s Ts Js Qs Ks As"};
    game_from(&g8, "classic players=8", 1, DEAL8);
    cr_assert_eq(lit_view_make(&v, &g8, NULL, 7), LIT_OK);
    cr_assert_eq(v.hand, g8.hands[7]);
    cr_assert_eq(lit_view_make(&v, &g8, NULL, 8), LIT_BAD_SEAT);
}

Test(view, legal_of_the_public_view_and_of_seats_not_on_turn)
{
    LitGame g;
    LitView v;
    LitAction out[LIT_MAX_LEGAL];
    game_from(&g, "classic", 1, DEAL6);
    cr_assert_eq(lit_view_make(&v, &g, NULL, LIT_NOBODY), LIT_OK);
    cr_assert_eq(lit_view_legal(&v, out, LIT_MAX_LEGAL), 0);
    for (int s = 1; s < 6; s++) {
        cr_assert_eq(lit_view_make(&v, &g, NULL, s), LIT_OK);
        cr_assert_eq(lit_view_legal(&v, out, LIT_MAX_LEGAL), 0, "seat %d is not on turn", s + 1);
    }
    cr_assert_eq(lit_view_make(&v, &g, NULL, 0), LIT_OK);
    int n = lit_view_legal(&v, out, LIT_MAX_LEGAL);
    /* seat 1 holds 2h 3h 4h 6h 7h, 9s Ts, 2c: asks for 5h, Js Qs Ks As,
     * 3c..7c (5 cards) = 10 cards, each of seats 2, 4, 6 */
    cr_assert_eq(n, 30);
    cr_assert_eq(lit_view_legal(&v, out, 4), 30, "the count even when cap is smaller");
}

/* ---- following a game from its events ---------------------------------------------- */

Test(view, apply_follows_hits_on_the_seat_and_claims)
{
    LitGame g;
    LitEvent e;
    LitView v[6], pub, fresh;
    game_from(&g, "classic", 3, DEAL6);
    for (int s = 0; s < 6; s++)
        cr_assert_eq(lit_view_make(&v[s], &g, NULL, s), LIT_OK);
    cr_assert_eq(lit_view_make(&pub, &g, NULL, LIT_NOBODY), LIT_OK);
    LitAction script[11];
    int n = 0;
    script[n++] = ask(&g, 3, 4, "6c");  /* hit: seat 3 gains, seat 4 loses */
    script[n++] = ask(&g, 3, 2, "3c");  /* hit */
    script[n++] = ask(&g, 3, 4, "2c");  /* miss: seat 1 holds it */
    script[n++] = ask(&g, 4, 3, "4c");  /* hit on seat 3 */
    script[n++] = ask(&g, 4, 1, "2c");  /* hit on seat 1 */
    /* wrong: seat 3 of the other team holds 3c and 6c, seat 2 the 5c */
    script[n++] = claim(&g, 4, "lc", "4:2c,3c,4c,5c,6c,7c");
    script[n++] = claim(&g, 4, "ld", "4:2d,3d,4d,5d,6d,7d"); /* right; 4 is empty */
    script[n++] = pass_to(4, 6);
    script[n++] = ask(&g, 6, 1, "9s");  /* hit */
    script[n++] = ask(&g, 6, 5, "Js");  /* hit */
    script[n++] = ask(&g, 6, 3, "Qs");  /* miss: seat 5 holds it */
    static const int answers[11] = {LIT_HIT, LIT_HIT, LIT_MISS, LIT_HIT, LIT_HIT, LIT_LOST,
                                    LIT_WON, LIT_UNKNOWN, LIT_HIT, LIT_HIT, LIT_MISS};
    for (int i = 0; i < n; i++) {
        cr_assert_eq(play(&g, script[i], &e), LIT_OK, "action %d", i + 1);
        cr_assert_eq(e.answer, answers[i], "action %d: %s", i + 1, lit_answer_name(e.answer));
        for (int s = 0; s <= 6; s++) {
            LitView *view = s < 6 ? &v[s] : &pub;
            cr_assert_eq(lit_view_apply(view, &e), LIT_OK, "action %d, view %d", i + 1, s + 1);
            cr_assert_eq(lit_view_make(&fresh, &g, NULL, view->seat), LIT_OK);
            assert_view_equal(view, &fresh, "after a scripted action");
        }
    }
    cr_assert_eq(v[0].hand, cards_of(LIT_DECK_NO8, "2h 3h 4h 6h 7h Ts"));
    cr_assert_eq(v[1].hand, cards_of(LIT_DECK_NO8, "9c Tc Jc Qc Kc Ac"));
    cr_assert_eq(v[2].hand, cards_of(LIT_DECK_NO8, "5h 9h Th Jh Qh Kh Ah"));
    cr_assert_eq(v[3].hand, 0);
    cr_assert_eq(v[4].hand, cards_of(LIT_DECK_NO8, "9d Td Jd Qd Kd Ad Qs"));
    cr_assert_eq(v[5].hand, cards_of(LIT_DECK_NO8, "2s 3s 4s 5s 6s 7s 9s Js Ks As"));
    cr_assert_eq(pub.hand, 0);
    cr_assert_eq(pub.pub.score[0], 1, "lost: low clubs go to team A");
    cr_assert_eq(pub.pub.score[1], 1);
    cr_assert_eq(pub.pub.turn, 2);
}

Test(view, apply_refuses_and_changes_nothing)
{
    LitGame g;
    LitEvent e;
    LitView v, before;
    game_from(&g, "classic", 1, DEAL6);
    cr_assert_eq(lit_view_make(&v, &g, NULL, 1), LIT_OK);
    before = v;
    /* an answer the referee would give, but not written */
    memset(&e, 0, sizeof e);
    e.action = ask(&g, 1, 2, "9c");
    memset(e.truth, LIT_NOBODY, sizeof e.truth);
    cr_assert_eq(lit_view_apply(&v, &e), LIT_MISSING_OUTCOME);
    cr_assert_eq(memcmp(&v, &before, sizeof v), 0);
    e.answer = LIT_WON;
    cr_assert_eq(lit_view_apply(&v, &e), LIT_OUTCOME_MISMATCH);
    cr_assert_eq(memcmp(&v, &before, sizeof v), 0);
    e.action = ask(&g, 2, 1, "2h");
    e.answer = LIT_HIT;
    cr_assert_eq(lit_view_apply(&v, &e), LIT_NOT_YOUR_TURN);
    cr_assert_eq(memcmp(&v, &before, sizeof v), 0);
    /* a claim whose outcome does not follow from the holders revealed */
    memset(&e, 0, sizeof e);
    e.action = claim(&g, 1, "lh", "1:2h,3h,4h,5h,6h,7h");
    memcpy(e.truth, e.action.holders, sizeof e.truth);
    e.truth[3] = 2;
    e.answer = LIT_WON;
    cr_assert_eq(lit_view_apply(&v, &e), LIT_OUTCOME_MISMATCH);
    cr_assert_eq(memcmp(&v, &before, sizeof v), 0);
    e.answer = LIT_CANCELLED;
    cr_assert_eq(lit_view_apply(&v, &e), LIT_OK);
    cr_assert_eq(v.pub.counts[0], 3);
    cr_assert_eq(v.pub.counts[2], 7);
    cr_assert_eq(v.hand, g.hands[1], "seat 2 held no low heart");
}

/* ---- random games ---------------------------------------------------------------------- */

static const char *const RULES[] = {
    "classic",
    "quartets players=8",
    "jokers players=4 double-high=on",
    "encyclopedia players=12",
    "club players=10 after-claim=team pass-play=on claim-time=any-time split-claims=on bluff=on",
    "classic claim-time=penalty misclaim=opponents must-claim=on",
};

enum { GAMES_PER_RULES = 5 };

static void assert_same_legal(const LitView *v, const LitGame *g, int seat, const char *what)
{
    LitAction a[LIT_MAX_LEGAL], b[LIT_MAX_LEGAL];
    int n = lit_view_legal(v, a, LIT_MAX_LEGAL);
    int m = lit_game_legal(g, seat, b, LIT_MAX_LEGAL);
    cr_assert_eq(n, m, "%s: seat %d: the view lists %d actions, the referee %d", what,
                 seat + 1, n, m);
    for (int i = 0; i < n; i++)
        cr_assert_eq(memcmp(&a[i], &b[i], sizeof a[i]), 0, "%s: seat %d: action %d differs",
                     what, seat + 1, i);
}

/* lit_view_check_asks against lit_view_check, card by card, each target
 * (the seat's own and a seat not in the game too): the count compared. */
static long assert_same_checks(const LitView *v, const char *what)
{
    long compared = 0;
    int players = v->pub.rules.players;
    for (int t = 0; t <= players; t++) {
        int8_t status[LIT_MAX_CARDS];
        lit_view_check_asks(v, t, status);
        for (int c = 0; c < lit_deck_cards(v->pub.rules.deck); c++) {
            LitAction a = lit_action_make(LIT_ASK, v->seat);
            a.target = (uint8_t)t;
            a.card = (uint8_t)c;
            int want = v->seat == LIT_NOBODY ? LIT_BAD_SEAT : lit_view_check(v, &a);
            cr_assert_eq(status[c], want, "%s: seat %d asks seat %d for card %d: %s, not %s",
                         what, v->seat + 1, t + 1, c, lit_status_name(status[c]),
                         lit_status_name(want));
            compared++;
        }
    }
    return compared;
}

Test(view, views_follow_random_games_from_events_alone)
{
    long hits_on_seat = 0, hits_by_seat = 0, claims_from_hand = 0, positions = 0,
         legal_checked = 0, asks_checked = 0;
    for (size_t k = 0; k < sizeof RULES / sizeof RULES[0]; k++) {
        LitRules r = rules_of(RULES[k]);
        for (uint64_t i = 0; i < GAMES_PER_RULES; i++) {
            uint64_t seed = 1000 * (k + 1) + i;
            LitGame g;
            LitRng rng;
            LitView views[LIT_MAX_PLAYERS + 1];
            LitPublic pub;
            int dealer = (int)(i % r.players);
            cr_assert_eq(lit_game_new(&g, &r, seed, dealer), LIT_OK);
            lit_rng_seed(&rng, seed);
            cr_assert_eq(lit_public_init(&pub, &r, dealer), LIT_OK);
            assert_pub_equal(&pub, &g.pub, "lit_public_init");
            for (int s = 0; s <= r.players; s++)
                cr_assert_eq(lit_view_make(&views[s], &g, NULL,
                                           s == r.players ? LIT_NOBODY : s), LIT_OK);
            unsigned odds = 4 + (unsigned)(i * 7 % 25);
            while (!lit_game_over(&g)) {
                LitEvent e;
                uint64_t hands_before[LIT_MAX_PLAYERS];
                memcpy(hands_before, g.hands, sizeof hands_before);
                random_step(&g, &e, &rng, odds);
                positions++;
                cr_assert_eq(lit_public_apply(&pub, &e), LIT_OK, "the public replay refuses %s",
                             "an event of the referee");
                assert_pub_equal(&pub, &g.pub, "lit_public_apply");
                for (int s = 0; s <= r.players; s++) {
                    LitView fresh;
                    int seat = s == r.players ? LIT_NOBODY : s;
                    cr_assert_eq(lit_view_apply(&views[s], &e), LIT_OK);
                    cr_assert_eq(lit_view_make(&fresh, &g, NULL, seat), LIT_OK);
                    assert_view_equal(&views[s], &fresh, RULES[k]);
                    if (seat == g.pub.turn || (positions & 15) == 0)
                        asks_checked += assert_same_checks(&views[s], RULES[k]);
                    if (seat == LIT_NOBODY)
                        continue;
                    const LitAction *a = &e.action;
                    if (a->kind == LIT_ASK && e.answer == LIT_HIT) {
                        hits_on_seat += a->target == seat;
                        hits_by_seat += a->seat == seat;
                    }
                    if (a->kind == LIT_CLAIM &&
                        (hands_before[seat] & lit_set_mask(r.deck, a->set)))
                        claims_from_hand++;
                    if (seat == g.pub.turn) {
                        assert_same_legal(&views[s], &g, seat, RULES[k]);
                        legal_checked++;
                    } else if ((positions & 7) == 0) {
                        assert_same_legal(&views[s], &g, seat, RULES[k]);
                    }
                }
            }
            /* Once over, nobody has anything to do. */
            for (int s = 0; s < r.players; s++)
                assert_same_legal(&views[s], &g, s, "game over");
        }
    }
    cr_assert_gt(hits_on_seat, 0);
    cr_assert_gt(hits_by_seat, 0);
    cr_assert_gt(claims_from_hand, 0);
    cr_assert_gt(legal_checked, 500, "only %ld positions checked", legal_checked);
    cr_assert_gt(asks_checked, 100000, "only %ld asks checked", asks_checked);
}

/* The public part from the events alone, for games dealt from a seed: what
 * any spectator can follow. */
Test(view, public_apply_reproduces_the_referee)
{
    for (size_t k = 0; k < sizeof RULES / sizeof RULES[0]; k++) {
        LitRules r = rules_of(RULES[k]);
        for (uint64_t i = 0; i < 3; i++) {
            LitGame g;
            LitPublic pub;
            LitRng rng;
            int dealer = (int)((i * 5 + k) % r.players);
            cr_assert_eq(lit_game_new(&g, &r, 77 + i, dealer), LIT_OK);
            cr_assert_eq(lit_public_init(&pub, &r, dealer), LIT_OK);
            assert_pub_equal(&pub, &g.pub, "start");
            lit_rng_seed(&rng, 99 + i + k);
            while (!lit_game_over(&g)) {
                LitEvent e;
                random_step(&g, &e, &rng, 10);
                LitPublic before = pub;
                /* the same event without its answer is refused (except
                 * passes and choices, which have none) and changes nothing */
                LitEvent bare = e;
                bare.answer = LIT_UNKNOWN;
                int st = lit_public_apply(&pub, &bare);
                if (e.action.kind == LIT_ASK || e.action.kind == LIT_CLAIM) {
                    cr_assert_eq(st, LIT_MISSING_OUTCOME);
                    cr_assert_eq(memcmp(&before, &pub, sizeof pub), 0);
                } else {
                    cr_assert_eq(st, LIT_OK);
                    assert_pub_equal(&pub, &g.pub, "a pass or choice");
                    continue;
                }
                cr_assert_eq(lit_public_apply(&pub, &e), LIT_OK);
                assert_pub_equal(&pub, &g.pub, RULES[k]);
            }
            cr_assert_eq(lit_public_apply(&pub, &(LitEvent){0}), LIT_GAME_OVER);
        }
    }
}
