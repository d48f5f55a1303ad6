/* test_endgame.c - the endgame of 000 and the end of a game (docs/RULES.md
 * "The endgame", "The end and the score", readings 3, 10 and 11): a team
 * running out of cards by a hit or by a claim, the endgame claimer and the
 * choice of it, what is refused then, the results (A, B, draw), early-end
 * thresholds of every deck, and the action bound (LIT_MAX_ACTIONS).
 *
 * Seats are 1-based as in the helpers; team A = 1, 3, 5, team B = 2, 4, 6.
 * Sets of no8: lc 0, hc 1, ld 2, hd 3, lh 4, hh 5, ls 6, hs 7. */
#include <criterion/criterion.h>
#include <string.h>

#include "helpers.h"

/* Every action of every kind by every seat, and a malformed one, gets
 * game_over; nothing is legal or claimable any more. */
static void assert_all_game_over(LitGame *g)
{
    cr_assert_eq(g->pub.phase, LIT_PHASE_OVER);
    cr_assert_eq(turn_of(g), 0);
    int n = g->pub.rules.players;
    for (int s = 1; s <= n; s++) {
        int other = s % n + 1;
        LitAction a = ask(g, s, other, "2c");
        EXPECT(g, a, LIT_GAME_OVER);
        EXPECT(g, pass_to(s, other), LIT_GAME_OVER);
        EXPECT(g, choose(s, other), LIT_GAME_OVER);
        LitAction c = claim_true(g, s, lit_set_name(g->pub.rules.deck, 0));
        EXPECT(g, c, LIT_GAME_OVER);
        cr_assert_eq(legal_count(g, s), 0);
        cr_assert_eq(lit_claimable(&g->pub, s - 1), 0u);
    }
    LitAction bad = pass_to(1, 2);
    bad.kind = 9;
    bad.seat = 40;
    EXPECT(g, bad, LIT_GAME_OVER);
}

/* ---- the endgame begun by a hit ------------------------------------------ */

/* Team B holds one card each: seat 1 takes all three. */
static const char *const HIT6[6] = {
    "2h 6h 7h 2c 3c 4c 5c 6c 7c",                               /* 1 */
    "3h",                                                       /* 2 */
    "9c Tc Jc Qc Kc Ac 2d 3d 4d 5d 6d 7d 9d Td Jd Qd Kd Ad",    /* 3 */
    "4h",                                                       /* 4 */
    "9h Th Jh Qh Kh Ah 2s 3s 4s 5s 6s 7s 9s Ts Js Qs Ks As",    /* 5 */
    "5h",                                                       /* 6 */
};

static void hit_to_endgame(LitGame *g, const char *rules)
{
    game_from(g, rules, 1, HIT6);
    ANSWER(g, ask(g, 1, 2, "3h"), LIT_HIT);
    ANSWER(g, ask(g, 1, 4, "4h"), LIT_HIT);
    cr_assert_eq(g->pub.phase, LIT_PHASE_PLAY, "seat 6 still has a card");
    ANSWER(g, ask(g, 1, 6, "5h"), LIT_HIT);
}

/* 000 "When one team runs out of cards entirely, no more questions": by a hit
 * the asker's team holds every card, so the asker is the endgame claimer. */
Test(endgame, a_hit_taking_a_teams_last_card_makes_the_asker_claimer)
{
    LitGame g;
    hit_to_endgame(&g, "classic");
    cr_assert_eq(g.pub.phase, LIT_PHASE_ENDGAME);
    cr_assert_eq(turn_of(&g), 1);
    cr_assert_eq(g.pub.result, LIT_ONGOING);
    cr_assert_eq(g.pub.counts[1] + g.pub.counts[3] + g.pub.counts[5], 0);
    cr_assert_eq(g.pub.actions, 3);
}

/* The endgame: asks, passes and choices of the claimer are claims_only, any
 * action of another seat not_your_turn (RULES "The endgame"). */
Test(endgame, only_the_claimers_claims_are_accepted)
{
    LitGame g;
    hit_to_endgame(&g, "classic");
    EXPECT(&g, ask(&g, 1, 2, "2d"), LIT_CLAIMS_ONLY);
    EXPECT(&g, ask(&g, 1, 3, "9c"), LIT_CLAIMS_ONLY);
    EXPECT(&g, pass_to(1, 3), LIT_CLAIMS_ONLY);
    EXPECT(&g, choose(1, 3), LIT_CLAIMS_ONLY);
    EXPECT(&g, choose(1, 2), LIT_CLAIMS_ONLY);
    EXPECT(&g, claim_true(&g, 3, "hc"), LIT_NOT_YOUR_TURN);
    EXPECT(&g, claim_true(&g, 5, "hh"), LIT_NOT_YOUR_TURN);
    EXPECT(&g, claim(&g, 2, "lh", "2:2h,3h,4h,5h,6h,7h"), LIT_NOT_YOUR_TURN);
    EXPECT(&g, ask(&g, 3, 2, "9d"), LIT_NOT_YOUR_TURN);
    EXPECT(&g, pass_to(5, 3), LIT_NOT_YOUR_TURN);
    cr_assert_eq(legal_count(&g, 1), 0, "claims are not listed; nothing else is legal");
    cr_assert_eq(legal_count(&g, 3), 0);
    cr_assert_eq(lit_claimable(&g.pub, 0), 0xFFu);
    for (int s = 1; s < 6; s++)
        cr_assert_eq(lit_claimable(&g.pub, s), 0u, "seat %d", s + 1);
    cr_assert_eq(g.pub.actions, 3);
}

/* RULES: under claim-time=any-time and penalty the endgame still accepts
 * only the endgame claimer's claims. */
Test(endgame, any_time_and_penalty_claims_are_refused_in_the_endgame)
{
    static const char *const rules[] = {"classic claim-time=any-time",
                                        "classic claim-time=penalty"};
    for (int i = 0; i < 2; i++) {
        LitGame g;
        game_from(&g, rules[i], 1, HIT6);
        LitAction early = claim_true(&g, 3, "hc");
        cr_assert_eq(lit_game_check(&g, &early), LIT_OK,
                     "%s: out of turn is fine before the endgame", rules[i]);
        hit_to_endgame(&g, rules[i]);
        cr_assert_eq(g.pub.phase, LIT_PHASE_ENDGAME);
        EXPECT(&g, claim_true(&g, 3, "hc"), LIT_NOT_YOUR_TURN);
        EXPECT(&g, claim_true(&g, 5, "ls"), LIT_NOT_YOUR_TURN);
        EXPECT(&g, claim(&g, 2, "hd", "2:9d,Td,Jd,Qd,Kd,Ad"), LIT_NOT_YOUR_TURN);
        cr_assert_eq(lit_claimable(&g.pub, 2), 0u);
        cr_assert_eq(lit_claimable(&g.pub, 1), 0u);
        cr_assert_eq(lit_claimable(&g.pub, 0), 0xFFu);
        ANSWER(&g, claim_true(&g, 1, "hc"), LIT_WON);
        cr_assert_eq(g.pub.score[0], 1, "%s: the claimer's claim is judged normally", rules[i]);
    }
}

/* Reading 3 and 11: the endgame claimer whose own hand runs out goes on
 * claiming; the endgame lasts to the end; all sets won: A wins 8-0. */
Test(endgame, the_claimer_claims_every_set_even_with_an_empty_hand)
{
    LitGame g;
    hit_to_endgame(&g, "classic");
    ANSWER(&g, claim(&g, 1, "lh", "1:2h,3h,4h,5h,6h,7h"), LIT_WON);
    cr_assert_eq(g.pub.phase, LIT_PHASE_ENDGAME);
    ANSWER(&g, claim(&g, 1, "lc", "1:2c,3c,4c,5c,6c,7c"), LIT_WON);
    cr_assert_eq(g.pub.counts[0], 0, "seat 1 has no cards left");
    cr_assert_eq(g.pub.phase, LIT_PHASE_ENDGAME, "no pass: the claimer goes on");
    cr_assert_eq(turn_of(&g), 1);
    EXPECT(&g, pass_to(1, 3), LIT_CLAIMS_ONLY);
    EXPECT(&g, claim_true(&g, 3, "hc"), LIT_NOT_YOUR_TURN);
    cr_assert_eq(legal_count(&g, 1), 0);
    static const char *const rest[] = {"hc", "ld", "hd", "hh", "ls", "hs"};
    for (int i = 0; i < 6; i++) {
        cr_assert_eq(g.pub.result, LIT_ONGOING);
        ANSWER(&g, claim_true(&g, 1, rest[i]), LIT_WON);
        if (i < 5) {
            cr_assert_eq(g.pub.phase, LIT_PHASE_ENDGAME, "after %s", rest[i]);
            cr_assert_eq(turn_of(&g), 1);
            EXPECT(&g, ask(&g, 1, 2, "9s"), LIT_CLAIMS_ONLY);
        }
    }
    cr_assert_eq(g.pub.result, LIT_WIN_A);
    cr_assert_eq(g.pub.score[0], 8);
    cr_assert_eq(g.pub.score[1], 0);
    cr_assert_eq(g.pub.won[0], 0xFFu);
    cr_assert_eq(g.pub.won[1], 0u);
    cr_assert_eq(g.pub.dead, 0u);
    cr_assert_eq(g.pub.live, 0u);
    cr_assert_eq(g.pub.actions, 11);
    assert_all_game_over(&g);
}

/* ---- the endgame begun by a claim: the choice of the claimer ------------- */

/* Team A holds only the low clubs once seat 1 takes seat 6's 2c. */
static const char *const CHOOSE6[6] = {
    "3c 4c 5c",                                                     /* 1 */
    "9c Tc Jc Qc Kc Ac 2d 3d 4d 5d 6d 7d 9d Td Jd Qd Kd Ad",        /* 2 */
    "6c",                                                           /* 3 */
    "2h 3h 4h 5h 6h 7h 9h Th Jh Qh Kh Ah 2s 3s 4s 5s 6s 7s 9s Ts Js Qs Ks As", /* 4 */
    "7c",                                                           /* 5 */
    "2c",                                                           /* 6 */
};

/* 000 "If the turn is with the team that has run out of cards, the player
 * whose turn it is chooses which member of the other team must make the
 * final claims; the player chosen must have at least one card". */
Test(endgame, a_claim_emptying_the_team_on_turn_asks_it_to_choose)
{
    LitGame g;
    game_from(&g, "classic", 1, CHOOSE6);
    ANSWER(&g, ask(&g, 1, 6, "2c"), LIT_HIT);
    cr_assert_eq(g.pub.counts[5], 0);
    ANSWER(&g, claim(&g, 1, "lc", "1:2c,3c,4c,5c 3:6c 5:7c"), LIT_WON);
    cr_assert_eq(g.pub.phase, LIT_PHASE_CHOOSE_CLAIMER);
    cr_assert_eq(turn_of(&g), 1);
    cr_assert_eq(g.pub.result, LIT_ONGOING);

    EXPECT(&g, ask(&g, 1, 2, "9c"), LIT_MUST_CHOOSE);
    EXPECT(&g, pass_to(1, 3), LIT_MUST_CHOOSE);
    EXPECT(&g, claim_true(&g, 1, "hc"), LIT_MUST_CHOOSE);
    EXPECT(&g, claim_true(&g, 2, "hc"), LIT_NOT_YOUR_TURN);
    EXPECT(&g, claim_true(&g, 4, "lh"), LIT_NOT_YOUR_TURN);
    EXPECT(&g, choose(2, 4), LIT_NOT_YOUR_TURN);
    EXPECT(&g, choose(1, 3), LIT_CHOOSE_TEAMMATE);
    EXPECT(&g, choose(1, 1), LIT_CHOOSE_TEAMMATE);
    EXPECT(&g, choose(1, 6), LIT_TARGET_EMPTY);
    for (int s = 0; s < 6; s++)
        cr_assert_eq(lit_claimable(&g.pub, s), 0u, "seat %d", s + 1);

    LitAction out[LIT_MAX_LEGAL];
    cr_assert_eq(lit_game_legal(&g, 0, out, LIT_MAX_LEGAL), 2);
    cr_assert_eq(out[0].kind, LIT_CHOOSE);
    cr_assert_eq(out[0].target, 1);
    cr_assert_eq(out[1].kind, LIT_CHOOSE);
    cr_assert_eq(out[1].target, 3);

    OK(&g, choose(1, 4));
    cr_assert_eq(turn_of(&g), 4);
    cr_assert_eq(g.pub.phase, LIT_PHASE_ENDGAME);
    cr_assert_eq(g.pub.actions, 3);
    EXPECT(&g, ask(&g, 4, 1, "2h"), LIT_CLAIMS_ONLY);
    EXPECT(&g, claim_true(&g, 2, "hc"), LIT_NOT_YOUR_TURN);
    cr_assert_eq(lit_claimable(&g.pub, 3), 0xFEu);

    /* the claimer names seat 2 for cards it does not hold itself */
    static const char *const rest[] = {"hc", "ld", "hd", "lh", "hh", "ls", "hs"};
    for (int i = 0; i < 7; i++)
        ANSWER(&g, claim_true(&g, 4, rest[i]), LIT_WON);
    cr_assert_eq(g.pub.result, LIT_WIN_B);
    cr_assert_eq(g.pub.score[0], 1);
    cr_assert_eq(g.pub.score[1], 7);
    cr_assert_eq(g.pub.won[0], 1u);
    cr_assert_eq(g.pub.won[1], 0xFEu);
    assert_all_game_over(&g);
}

/* Team B holds everything but the low clubs, all in seat 2, once seat 1
 * takes the 2c and the 3c. */
static const char *const ONE6[6] = {
    "4c 5c",                                                        /* 1 */
    ("9c Tc Jc Qc Kc Ac 2d 3d 4d 5d 6d 7d 9d Td Jd Qd Kd Ad "
    "2h 3h 4h 5h 6h 7h 9h Th Jh Qh Kh Ah 2s 3s 4s 5s 6s 7s 9s Ts Js Qs Ks As"), /* 2 */
    "6c",                                                           /* 3 */
    "2c",                                                           /* 4 */
    "7c",                                                           /* 5 */
    "3c",                                                           /* 6 */
};

static void one_claimer(LitGame *g, const char *rules)
{
    game_from(g, rules, 1, ONE6);
    ANSWER(g, ask(g, 1, 4, "2c"), LIT_HIT);
    ANSWER(g, ask(g, 1, 6, "3c"), LIT_HIT);
    ANSWER(g, claim(g, 1, "lc", "1:2c,3c,4c,5c 3:6c 5:7c"), LIT_WON);
}

/* 000 and RULES "made at once when only one seat qualifies": the choice of
 * the endgame claimer is not an action when one opponent has cards. */
Test(endgame, the_choice_is_made_at_once_with_one_candidate)
{
    LitGame g;
    one_claimer(&g, "classic");
    cr_assert_eq(turn_of(&g), 2);
    cr_assert_eq(g.pub.phase, LIT_PHASE_ENDGAME);
    cr_assert_eq(g.pub.actions, 3, "no choose action was needed");
    EXPECT(&g, choose(1, 2), LIT_NOT_YOUR_TURN);
    EXPECT(&g, choose(2, 4), LIT_CLAIMS_ONLY);
    static const char *const rest[] = {"hc", "ld", "hd", "lh", "hh", "ls", "hs"};
    for (int i = 0; i < 7; i++) {
        cr_assert_eq(g.pub.phase, LIT_PHASE_ENDGAME);
        ANSWER(&g, claim_true(&g, 2, rest[i]), LIT_WON);
    }
    cr_assert_eq(g.pub.result, LIT_WIN_B);
    cr_assert_eq(g.pub.score[0], 1);
    cr_assert_eq(g.pub.score[1], 7);
    assert_all_game_over(&g);
}

/* Reading 10: wrong claims in the endgame follow misclaim; a set lost to the
 * team with no cards still scores for it. Reading 8: naming a teammate with
 * no cards is a wrong claim, not a refusal. */
Test(endgame, wrong_claims_in_the_endgame_follow_misclaim)
{
    static const struct {
        const char *rules;
        int answer, score_a, score_b;
    } cases[] = {
        {"classic", LIT_CANCELLED, 1, 0},
        {"classic misclaim=opponents", LIT_LOST, 2, 0},
        {"classic misclaim=point-off", LIT_CANCELLED, 1, 0},
    };
    for (int i = 0; i < 3; i++) {
        LitGame g;
        one_claimer(&g, cases[i].rules);
        cr_assert_eq(g.pub.phase, LIT_PHASE_ENDGAME);
        ANSWER(&g, claim(&g, 2, "hc", "2:9c,Tc,Jc,Qc,Kc 4:Ac"), cases[i].answer);
        cr_assert_eq(g.pub.score[0], cases[i].score_a, "%s", cases[i].rules);
        cr_assert_eq(g.pub.score[1], cases[i].score_b, "%s", cases[i].rules);
        if (cases[i].answer == LIT_LOST) {
            cr_assert_eq(g.pub.won[0], set_bit(&g, "lc") | set_bit(&g, "hc"));
            cr_assert_eq(g.pub.dead, 0u);
        } else {
            cr_assert_eq(g.pub.won[0], set_bit(&g, "lc"));
            cr_assert_eq(g.pub.dead, set_bit(&g, "hc"));
        }
        cr_assert_eq(g.pub.live & cards_of(LIT_DECK_NO8, "9c Ac"), 0u,
                     "the set left play");
        cr_assert_eq(g.pub.phase, LIT_PHASE_ENDGAME, "%s", cases[i].rules);
        cr_assert_eq(turn_of(&g), 2);
        ANSWER(&g, claim_true(&g, 2, "ld"), LIT_WON);
        cr_assert_eq(g.pub.phase, LIT_PHASE_ENDGAME);
        cr_assert_eq(g.pub.score[1], cases[i].score_b + 1);
    }
}

/* Reading 3: a seat on turn with no cards whose team holds every card left is
 * the endgame claimer (here a lost claim empties both seat 1 and team B). */
Test(endgame, a_claimer_with_no_cards_of_its_own_at_the_start)
{
    static const char *const deal[6] = {
        "5c 6c",                                                    /* 1 */
        "2c",                                                       /* 2 */
        "7c 9c Tc Jc Qc Kc Ac 2d 3d 4d 5d 6d 7d 9d Td Jd Qd Kd Ad", /* 3 */
        "3c",                                                       /* 4 */
        "2h 3h 4h 5h 6h 7h 9h Th Jh Qh Kh Ah 2s 3s 4s 5s 6s 7s 9s Ts Js Qs Ks As", /* 5 */
        "4c",                                                       /* 6 */
    };
    LitGame g;
    LitEvent e;
    game_from(&g, "classic", 1, deal);
    cr_assert_eq(play(&g, claim(&g, 1, "lc", "1:2c,3c,4c,5c,6c 3:7c"), &e), LIT_OK);
    cr_assert_eq(e.answer, LIT_LOST);
    cr_assert_eq(e.truth[0], 1);
    cr_assert_eq(e.truth[1], 3);
    cr_assert_eq(e.truth[2], 5);
    cr_assert_eq(g.pub.score[1], 1);
    cr_assert_eq(g.pub.counts[0], 0);
    cr_assert_eq(g.pub.phase, LIT_PHASE_ENDGAME, "not pass: the endgame");
    cr_assert_eq(turn_of(&g), 1);
    EXPECT(&g, pass_to(1, 3), LIT_CLAIMS_ONLY);
    EXPECT(&g, claim_true(&g, 3, "hc"), LIT_NOT_YOUR_TURN);
    cr_assert_eq(lit_claimable(&g.pub, 0), 0xFEu);
    static const char *const rest[] = {"hc", "ld", "hd", "lh", "hh", "ls", "hs"};
    for (int i = 0; i < 7; i++) {
        cr_assert_eq(turn_of(&g), 1);
        ANSWER(&g, claim_true(&g, 1, rest[i]), LIT_WON);
    }
    cr_assert_eq(g.pub.result, LIT_WIN_A);
    cr_assert_eq(g.pub.score[0], 7);
    cr_assert_eq(g.pub.score[1], 1);
    assert_all_game_over(&g);
}

/* RULES "After a claim" vs "The endgame": under after-claim=team a claim
 * leaving one team without cards starts the endgame, not choose-asker. */
Test(endgame, after_claim_team_gives_way_to_the_endgame)
{
    LitGame g;
    static const char *const deal[6] = {
        "5c 6c", "2c", "7c 9c Tc Jc Qc Kc Ac 2d 3d 4d 5d 6d 7d 9d Td Jd Qd Kd Ad",
        "3c",
        "2h 3h 4h 5h 6h 7h 9h Th Jh Qh Kh Ah 2s 3s 4s 5s 6s 7s 9s Ts Js Qs Ks As",
        "4c"};
    game_from(&g, "classic after-claim=team", 1, deal);
    ANSWER(&g, claim(&g, 1, "lc", "1:2c,3c,4c,5c,6c 3:7c"), LIT_LOST);
    cr_assert_eq(g.pub.phase, LIT_PHASE_ENDGAME);
    cr_assert_eq(turn_of(&g), 1);
    EXPECT(&g, choose(1, 3), LIT_CLAIMS_ONLY);
    ANSWER(&g, claim_true(&g, 1, "hc"), LIT_WON);
    cr_assert_eq(g.pub.phase, LIT_PHASE_ENDGAME, "no choice of asker in the endgame");
    cr_assert_eq(turn_of(&g), 1);

    game_from(&g, "classic after-claim=team", 1, CHOOSE6);
    ANSWER(&g, ask(&g, 1, 6, "2c"), LIT_HIT);
    ANSWER(&g, claim(&g, 1, "lc", "1:2c,3c,4c,5c 3:6c 5:7c"), LIT_WON);
    cr_assert_eq(g.pub.phase, LIT_PHASE_CHOOSE_CLAIMER);
    cr_assert_eq(turn_of(&g), 1);
}

/* RULES: an any-time claim by a seat not on turn that empties the team on
 * turn gives the seat on turn the choice of the endgame claimer. */
Test(endgame, an_out_of_turn_claim_can_start_the_endgame)
{
    static const char *const deal[6] = {
        "2c 3c 4c",
        "9c Tc Jc Qc Kc Ac 2d 3d 4d 5d 6d 7d 9d Td Jd Qd Kd Ad",
        "5c 6c",
        "2h 3h 4h 5h 6h 7h 9h Th Jh Qh Kh Ah",
        "7c",
        "2s 3s 4s 5s 6s 7s 9s Ts Js Qs Ks As",
    };
    LitGame g;
    game_from(&g, "classic claim-time=any-time", 1, deal);
    ANSWER(&g, claim(&g, 3, "lc", "1:2c,3c,4c 3:5c,6c 5:7c"), LIT_WON);
    cr_assert_eq(g.pub.phase, LIT_PHASE_CHOOSE_CLAIMER);
    cr_assert_eq(turn_of(&g), 1, "the turn stayed with seat 1");
    EXPECT(&g, claim_true(&g, 2, "hc"), LIT_NOT_YOUR_TURN);
    EXPECT(&g, claim_true(&g, 3, "hc"), LIT_NOT_YOUR_TURN);
    EXPECT(&g, claim_true(&g, 1, "hc"), LIT_MUST_CHOOSE);
    OK(&g, choose(1, 6));
    cr_assert_eq(turn_of(&g), 6);
    cr_assert_eq(g.pub.phase, LIT_PHASE_ENDGAME);
    EXPECT(&g, claim_true(&g, 2, "hc"), LIT_NOT_YOUR_TURN);
    EXPECT(&g, claim_true(&g, 4, "lh"), LIT_NOT_YOUR_TURN);
    ANSWER(&g, claim_true(&g, 6, "hc"), LIT_WON);
    cr_assert_eq(g.pub.score[1], 1);
}

/* ---- results ------------------------------------------------------------- */

/* 000 "Ties, in which each team has 4 half-suits, are fairly frequent": 4-4
 * is a draw; the endgame claimer's own hand runs out on the way (reading 3). */
Test(game_end, four_sets_each_is_a_draw)
{
    static const char *const deal[6] = {
        "2c 3c 4c 5c 6c 7c 9c Tc Jc Qc Kc Ac", /* 1: lc hc */
        "2h 3h 4h 5h 6h 7h 9h Th Jh Qh Kh Ah", /* 2: lh hh */
        "2d 3d 4d 5d 6d 7d",                   /* 3: ld */
        "2s 3s 4s 5s 6s 7s",                   /* 4: ls */
        "9d Td Jd Qd Kd Ad",                   /* 5: hd */
        "9s Ts Js Qs Ks As",                   /* 6: hs */
    };
    LitGame g;
    game_from(&g, "classic", 1, deal);
    ANSWER(&g, claim_true(&g, 1, "ld"), LIT_WON);
    ANSWER(&g, claim_true(&g, 1, "hd"), LIT_WON);
    ANSWER(&g, claim_true(&g, 1, "lc"), LIT_WON);
    cr_assert_eq(g.pub.phase, LIT_PHASE_PLAY);
    ANSWER(&g, claim_true(&g, 1, "hc"), LIT_WON);
    cr_assert_eq(g.pub.phase, LIT_PHASE_CHOOSE_CLAIMER);
    cr_assert_eq(turn_of(&g), 1);
    OK(&g, choose(1, 2));
    cr_assert_eq(g.pub.phase, LIT_PHASE_ENDGAME);
    ANSWER(&g, claim_true(&g, 2, "lh"), LIT_WON);
    ANSWER(&g, claim_true(&g, 2, "hh"), LIT_WON);
    cr_assert_eq(g.pub.counts[1], 0);
    cr_assert_eq(turn_of(&g), 2);
    cr_assert_eq(g.pub.phase, LIT_PHASE_ENDGAME);
    ANSWER(&g, claim_true(&g, 2, "ls"), LIT_WON);
    cr_assert_eq(g.pub.result, LIT_ONGOING);
    ANSWER(&g, claim_true(&g, 2, "hs"), LIT_WON);
    cr_assert_eq(g.pub.result, LIT_DRAW);
    cr_assert_eq(g.pub.score[0], 4);
    cr_assert_eq(g.pub.score[1], 4);
    cr_assert_eq(g.pub.won[0], 0x0Fu);
    cr_assert_eq(g.pub.won[1], 0xF0u);
    assert_all_game_over(&g);
}

/* RULES "the team with more points wins": cancelled sets count for neither
 * team, so 3 sets to 2 is a win. */
Test(game_end, cancelled_sets_count_for_nobody_in_the_result)
{
    static const char *const deal[6] = {
        "2c 3c 4c 5c 6c 7c 9c Tc Jc Qc Kc Ac", /* 1: lc hc */
        "2h 3h 4h 5h 6h 7h 9h Th Jh Qh Kh Ah", /* 2: lh hh */
        "2d 3d 4d 5d 6d 7d",                   /* 3: ld */
        "2s 3s 4s 5s 6s 7s",                   /* 4: ls */
        "9d Td Jd Qd Kd Ad",                   /* 5: hd */
        "9s Ts Js Qs Ks As",                   /* 6: hs */
    };
    LitGame g;
    game_from(&g, "classic", 1, deal);
    ANSWER(&g, claim(&g, 1, "ld", "5:2d,3d,4d,5d,6d,7d"), LIT_CANCELLED);
    ANSWER(&g, claim_true(&g, 1, "hd"), LIT_WON);
    ANSWER(&g, claim_true(&g, 1, "lc"), LIT_WON);
    ANSWER(&g, claim_true(&g, 1, "hc"), LIT_WON);
    OK(&g, choose(1, 4));
    ANSWER(&g, claim_true(&g, 4, "lh"), LIT_WON);
    ANSWER(&g, claim(&g, 4, "hh", "4:9h,Th,Jh,Qh,Kh,Ah"), LIT_CANCELLED);
    ANSWER(&g, claim_true(&g, 4, "ls"), LIT_WON);
    ANSWER(&g, claim(&g, 4, "hs", "2:9s,Ts,Js,Qs,Ks,As"), LIT_CANCELLED);
    cr_assert_eq(g.pub.score[0], 3);
    cr_assert_eq(g.pub.score[1], 2);
    cr_assert_eq(g.pub.dead, set_bit(&g, "ld") | set_bit(&g, "hh") | set_bit(&g, "hs"));
    cr_assert_eq(g.pub.result, LIT_WIN_A);
}

/* ---- early-end (002 "First team to 5 half-suits wins automatically") ----- */

/* Seat 1 holds five whole half-suits. */
static const char *const EARLY6[6] = {
    ("2c 3c 4c 5c 6c 7c 9c Tc Jc Qc Kc Ac 2d 3d 4d 5d 6d 7d 9d Td Jd Qd Kd Ad "
    "2h 3h 4h 5h 6h 7h"), /* 1: lc hc ld hd lh */
    "9h Th Jh Qh Kh Ah", /* 2: hh */
    "2s",
    "3s 4s 5s 6s 7s",
    "9s",
    "Ts Js Qs Ks As",
};

/* 5 of 8 ends the game under early-end=on, not under the default. */
Test(early_end, five_of_eight)
{
    static const char *const order[] = {"lc", "hc", "ld", "hd", "lh"};
    LitGame g;
    game_from(&g, "classic early-end=on", 1, EARLY6);
    cr_assert_eq(lit_rules_total_points(&g.pub.rules), 8);
    for (int i = 0; i < 4; i++) {
        ANSWER(&g, claim_true(&g, 1, order[i]), LIT_WON);
        cr_assert_eq(g.pub.result, LIT_ONGOING, "%d of 8", i + 1);
    }
    ANSWER(&g, claim_true(&g, 1, "lh"), LIT_WON);
    cr_assert_eq(g.pub.result, LIT_WIN_A);
    cr_assert_eq(g.pub.score[0], 5);
    cr_assert_eq(g.pub.phase, LIT_PHASE_OVER);
    cr_assert_eq(g.pub.live, cards_of(LIT_DECK_NO8,
                                      "9h Th Jh Qh Kh Ah 2s 3s 4s 5s 6s 7s 9s Ts Js Qs Ks As"),
                 "three sets still in hands");
    assert_all_game_over(&g);

    game_from(&g, "classic", 1, EARLY6);
    for (int i = 0; i < 5; i++)
        ANSWER(&g, claim_true(&g, 1, order[i]), LIT_WON);
    cr_assert_eq(g.pub.result, LIT_ONGOING, "early-end=off plays on");
    cr_assert_eq(turn_of(&g), 1);
}

/* 7 of 12 with double-high: 6 points (half) is not enough. */
Test(early_end, seven_of_twelve_with_double_high)
{
    LitGame g;
    game_from(&g, "classic double-high=on early-end=on", 1, EARLY6);
    cr_assert_eq(lit_rules_total_points(&g.pub.rules), 12);
    ANSWER(&g, claim_true(&g, 1, "hc"), LIT_WON);
    ANSWER(&g, claim_true(&g, 1, "hd"), LIT_WON);
    ANSWER(&g, claim_true(&g, 1, "lc"), LIT_WON);
    cr_assert_eq(g.pub.score[0], 5);
    ANSWER(&g, claim_true(&g, 1, "ld"), LIT_WON);
    cr_assert_eq(g.pub.score[0], 6);
    cr_assert_eq(g.pub.result, LIT_ONGOING, "6 of 12 is not more than half");
    ANSWER(&g, claim_true(&g, 1, "lh"), LIT_WON);
    cr_assert_eq(g.pub.score[0], 7);
    cr_assert_eq(g.pub.result, LIT_WIN_A);
    assert_all_game_over(&g);
}

/* Jokers: seat 1 holds lc hc ld hd and the eights-and-jokers set. */
static const char *const EARLYJ[6] = {
    ("2c 3c 4c 5c 6c 7c 9c Tc Jc Qc Kc Ac 2d 3d 4d 5d 6d 7d 9d Td Jd Qd Kd Ad "
    "8c 8d 8h 8s JK1 JK2"),
    "2h 3h 4h 5h 6h 7h",
    "9h Th Jh Qh Kh Ah",
    "2s 3s 4s 5s 6s 7s",
    "9s",
    "Ts Js Qs Ks As",
};

/* 5 of 9 with the jokers set (001's ninth half-suit). */
Test(early_end, five_of_nine_with_jokers)
{
    LitGame g;
    game_from(&g, "jokers early-end=on", 1, EARLYJ);
    cr_assert_eq(lit_rules_total_points(&g.pub.rules), 9);
    static const char *const order[] = {"lc", "hc", "ld", "hd"};
    for (int i = 0; i < 4; i++) {
        ANSWER(&g, claim_true(&g, 1, order[i]), LIT_WON);
        cr_assert_eq(g.pub.result, LIT_ONGOING);
    }
    ANSWER(&g, claim(&g, 1, "ej", "1:8c,8d,8h,8s,JK1,JK2"), LIT_WON);
    cr_assert_eq(g.pub.score[0], 5);
    cr_assert_eq(g.pub.result, LIT_WIN_A);
    assert_all_game_over(&g);
}

/* 7 of 13 with jokers and doubled high sets. */
Test(early_end, seven_of_thirteen_with_jokers_and_double_high)
{
    LitGame g;
    game_from(&g, "jokers double-high=on early-end=on", 1, EARLYJ);
    cr_assert_eq(lit_rules_total_points(&g.pub.rules), 13);
    ANSWER(&g, claim_true(&g, 1, "hc"), LIT_WON);
    ANSWER(&g, claim_true(&g, 1, "hd"), LIT_WON);
    ANSWER(&g, claim_true(&g, 1, "lc"), LIT_WON);
    ANSWER(&g, claim_true(&g, 1, "ld"), LIT_WON);
    cr_assert_eq(g.pub.score[0], 6);
    cr_assert_eq(g.pub.result, LIT_ONGOING);
    ANSWER(&g, claim_true(&g, 1, "ej"), LIT_WON);
    cr_assert_eq(g.pub.score[0], 7);
    cr_assert_eq(g.pub.result, LIT_WIN_A);
}

/* 7 of 13 with quartets (001, 003: sets of four of a rank). */
Test(early_end, seven_of_thirteen_with_quartets)
{
    static const char *const deal[6] = {
        ("2c 2d 2h 2s 3c 3d 3h 3s 4c 4d 4h 4s 5c 5d 5h 5s 6c 6d 6h 6s "
        "7c 7d 7h 7s 8c 8d 8h 8s"),
        "9c 9d 9h 9s",
        "Tc Td Th Ts",
        "Jc Jd Jh Js",
        "Qc Qd Qh Qs",
        "Kc Kd Kh Ks Ac Ad Ah As",
    };
    LitGame g;
    game_from(&g, "quartets early-end=on", 1, deal);
    cr_assert_eq(lit_rules_total_points(&g.pub.rules), 13);
    static const char *const order[] = {"twos", "threes", "fours", "fives",
                                        "sixes", "sevens"};
    for (int i = 0; i < 6; i++) {
        ANSWER(&g, claim_true(&g, 1, order[i]), LIT_WON);
        cr_assert_eq(g.pub.result, LIT_ONGOING, "%d of 13", i + 1);
    }
    ANSWER(&g, claim(&g, 1, "eights", "1:8c,8d,8h,8s"), LIT_WON);
    cr_assert_eq(g.pub.score[0], 7);
    cr_assert_eq(g.pub.result, LIT_WIN_A);
    assert_all_game_over(&g);
}

/* ---- the action bound ---------------------------------------------------- */

/* RULES "The action bound": endless passes under pass-play end the game as
 * aborted at exactly LIT_MAX_ACTIONS applied actions. */
Test(action_bound, endless_passes_abort_at_the_bound)
{
    LitGame g;
    game_from(&g, "classic pass-play=on", 1, EARLY6);
    for (int i = 0; i < LIT_MAX_ACTIONS - 1; i++) {
        int from = turn_of(&g), to = from == 1 ? 3 : 1;
        cr_assert_eq(play(&g, pass_to(from, to), NULL), LIT_OK, "action %d", i + 1);
    }
    cr_assert_eq(g.pub.actions, LIT_MAX_ACTIONS - 1);
    cr_assert_eq(g.pub.result, LIT_ONGOING, "not one action earlier");
    cr_assert_eq(g.pub.phase, LIT_PHASE_PLAY);
    cr_assert_eq(turn_of(&g), 3);
    OK(&g, pass_to(3, 1));
    cr_assert_eq(g.pub.actions, LIT_MAX_ACTIONS);
    cr_assert_eq(g.pub.result, LIT_ABORTED);
    cr_assert_eq(g.pub.score[0], 0);
    cr_assert_eq(g.pub.score[1], 0);
    assert_all_game_over(&g);
}

/* A game that ends by its rules on the last allowed action has its result,
 * not aborted ("without ending ends as aborted"). */
Test(action_bound, a_game_ending_on_the_last_action_is_not_aborted)
{
    LitGame g;
    game_from(&g, "classic pass-play=on early-end=on", 1, EARLY6);
    static const char *const order[] = {"lc", "hc", "ld", "hd"};
    for (int i = 0; i < 4; i++)
        ANSWER(&g, claim_true(&g, 1, order[i]), LIT_WON);
    while (g.pub.actions < LIT_MAX_ACTIONS - 1) {
        int from = turn_of(&g), to = from == 1 ? 3 : 1;
        cr_assert_eq(play(&g, pass_to(from, to), NULL), LIT_OK);
    }
    cr_assert_eq(g.pub.result, LIT_ONGOING);
    ANSWER(&g, claim_true(&g, turn_of(&g), "lh"), LIT_WON);
    cr_assert_eq(g.pub.actions, LIT_MAX_ACTIONS);
    cr_assert_eq(g.pub.result, LIT_WIN_A);
}
