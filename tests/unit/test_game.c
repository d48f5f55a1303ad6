/* test_game.c - the default rules (000) at 6 and 8 players: asks, claims,
 * the turn, every refusal with its exact status. */
#include <criterion/criterion.h>
#include <string.h>

#include "helpers.h"

Test(game, starts_with_the_dealer)
{
    LitGame g;
    game_from(&g, "classic", 4, DEAL6);
    cr_assert_eq(turn_of(&g), 4);
    cr_assert_eq(g.pub.phase, LIT_PHASE_PLAY);
    cr_assert_eq(g.pub.result, LIT_ONGOING);
    game_from(&g, "classic first=left", 6, DEAL6);
    cr_assert_eq(turn_of(&g), 1, "the dealer's left of seat 6 is seat 1");
}

Test(game, a_hit_keeps_the_turn_a_miss_passes_it)
{
    LitGame g;
    LitEvent e;
    game_from(&g, "classic", 1, DEAL6);
    cr_assert_eq(play(&g, ask(&g, 1, 2, "5h"), &e), LIT_OK);
    cr_assert_eq(e.answer, LIT_MISS);
    cr_assert_eq(turn_of(&g), 2);
    cr_assert_eq(play(&g, ask(&g, 2, 3, "4c"), &e), LIT_OK);
    cr_assert_eq(e.answer, LIT_HIT);
    cr_assert_eq(turn_of(&g), 2);
    cr_assert(g.hands[1] & cards_of(LIT_DECK_NO8, "4c"));
    cr_assert_eq(g.pub.counts[1], 9);
    cr_assert_eq(g.pub.counts[2], 7);
    cr_assert_eq(g.pub.actions, 2);
}

Test(game, refused_asks_have_their_own_status)
{
    LitGame g;
    game_from(&g, "classic", 1, DEAL6);
    cr_assert_eq(play(&g, ask(&g, 2, 1, "2h"), NULL), LIT_NOT_YOUR_TURN);
    cr_assert_eq(play(&g, ask(&g, 1, 3, "5h"), NULL), LIT_ASK_TEAMMATE);
    cr_assert_eq(play(&g, ask(&g, 1, 1, "5h"), NULL), LIT_ASK_TEAMMATE);
    cr_assert_eq(play(&g, ask(&g, 1, 2, "2h"), NULL), LIT_OWN_CARD);
    cr_assert_eq(play(&g, ask(&g, 1, 2, "9d"), NULL), LIT_NO_BASE_CARD);
    LitAction a = ask(&g, 1, 2, "5h");
    a.target = 6;
    cr_assert_eq(play(&g, a, NULL), LIT_BAD_SEAT);
    a = ask(&g, 1, 2, "5h");
    a.card = 48;
    cr_assert_eq(play(&g, a, NULL), LIT_BAD_CARD);
    a.kind = 9;
    cr_assert_eq(play(&g, a, NULL), LIT_BAD_ACTION);
    a = ask(&g, 1, 2, "5h");
    a.seat = 12;
    cr_assert_eq(play(&g, a, NULL), LIT_BAD_SEAT);
    cr_assert_eq(play(&g, pass_to(1, 3), NULL), LIT_PASS_NOT_ALLOWED);
    cr_assert_eq(play(&g, choose(1, 3), NULL), LIT_NOTHING_TO_CHOOSE);
    cr_assert_eq(g.pub.actions, 0);
}

/* The worked claim examples of 000, in one game dealt by seat 3. */
Test(game, claim_examples_of_000)
{
    LitGame g;
    LitEvent e;
    game_from(&g, "classic", 3, DEAL6);
    /* Doug (3) asks Christina (4) for the 3h and misses: seat 1 holds it, so
     * Doug must hold the 5h. */
    cr_assert_eq(play(&g, ask(&g, 3, 4, "3h"), &e), LIT_OK);
    cr_assert_eq(e.answer, LIT_MISS);
    cr_assert_eq(turn_of(&g), 4);
    cr_assert_eq(play(&g, ask(&g, 4, 1, "2c"), &e), LIT_OK);
    cr_assert_eq(e.answer, LIT_HIT);
    cr_assert_eq(play(&g, ask(&g, 4, 1, "9s"), NULL), LIT_NO_BASE_CARD);
    cr_assert_eq(play(&g, ask(&g, 4, 5, "5c"), &e), LIT_OK);
    cr_assert_eq(e.answer, LIT_MISS);
    cr_assert_eq(play(&g, ask(&g, 5, 6, "Ks"), &e), LIT_OK);
    cr_assert_eq(e.answer, LIT_HIT);
    cr_assert_eq(play(&g, ask(&g, 5, 2, "9s"), &e), LIT_OK);
    cr_assert_eq(e.answer, LIT_MISS);
    cr_assert_eq(play(&g, ask(&g, 2, 3, "4c"), &e), LIT_OK);
    cr_assert_eq(e.answer, LIT_HIT);
    cr_assert_eq(play(&g, ask(&g, 2, 1, "2h"), NULL), LIT_NO_BASE_CARD);
    cr_assert_eq(play(&g, ask(&g, 2, 1, "6c"), &e), LIT_OK);
    cr_assert_eq(turn_of(&g), 1);

    /* Example 1: "Doug has the 5h, and I have the rest": right. */
    cr_assert_eq(play(&g, claim(&g, 1, "low-hearts", "1:2h,3h,4h,6h,7h 3:5h"), &e), LIT_OK);
    cr_assert_eq(e.answer, LIT_WON);
    cr_assert_eq(e.truth[3], 2, "the 5h was seat 3's");
    cr_assert_eq(g.pub.score[0], 1);
    cr_assert_eq(g.pub.won[0], 1u << 4);
    cr_assert_eq(turn_of(&g), 1, "the claimer keeps the turn");
    cr_assert_eq(g.pub.phase, LIT_PHASE_PLAY);

    /* Example 2: the team holds the high hearts, the claim misplaces some:
     * cancelled, counting for neither team, and out of play. */
    cr_assert_eq(play(&g, claim(&g, 1, "high-hearts", "3:9h,Th,Jh 5:Qh,Kh,Ah"), &e), LIT_OK);
    cr_assert_eq(e.answer, LIT_CANCELLED);
    for (int i = 0; i < 6; i++)
        cr_assert_eq(e.truth[i], 2, "every card's true holder is revealed");
    cr_assert_eq(g.pub.score[0], 1);
    cr_assert_eq(g.pub.score[1], 0);
    cr_assert_eq(g.pub.dead, 1u << 5);
    cr_assert_eq(play(&g, claim(&g, 1, "high-hearts", "3:9h,Th,Jh,Qh,Kh,Ah"), NULL),
                 LIT_SET_CLAIMED);

    /* Example 3: an opponent holds a low club: the set goes to team B. */
    cr_assert_eq(play(&g, claim(&g, 1, "low-clubs", "1:2c 3:3c,4c 5:5c,6c,7c"), &e), LIT_OK);
    cr_assert_eq(e.answer, LIT_LOST);
    cr_assert_eq(g.pub.score[1], 1);
    cr_assert_eq(g.pub.won[1], 1u << 0);
    cr_assert_eq(turn_of(&g), 1);
    assert_conserved(&g);

    /* A claim emptying the claimer: seat 3 has no cards left, so the turn
     * goes to seat 5, the only teammate with cards, without a choice. */
    cr_assert_eq(g.pub.counts[2], 0);
    cr_assert_eq(play(&g, claim(&g, 1, "high-spades", "1:9s,Ts 5:Js,Qs,Ks,As"), &e), LIT_OK);
    cr_assert_eq(e.answer, LIT_LOST);
    cr_assert_eq(g.pub.counts[0], 0);
    cr_assert_eq(turn_of(&g), 5);
    cr_assert_eq(g.pub.phase, LIT_PHASE_PLAY);
}

Test(game, refused_claims_have_their_own_status)
{
    LitGame g;
    game_from(&g, "classic", 1, DEAL6);
    cr_assert_eq(play(&g, claim_true(&g, 2, "high-clubs"), NULL), LIT_NOT_YOUR_TURN);
    cr_assert_eq(play(&g, claim(&g, 1, "low-hearts", "1:2h,3h,4h,6h,7h"), NULL),
                 LIT_CLAIM_INCOMPLETE);
    cr_assert_eq(play(&g, claim(&g, 1, "low-hearts", "1:2h,3h,4h,6h,7h 2:5h"), NULL),
                 LIT_CLAIM_NAMES_OPPONENT);
    LitAction a = claim_true(&g, 1, "low-hearts");
    a.set = 8;
    cr_assert_eq(play(&g, a, NULL), LIT_BAD_SET);
    a = claim_true(&g, 1, "low-hearts");
    a.holders[2] = 6;
    cr_assert_eq(play(&g, a, NULL), LIT_BAD_SEAT);
    a.set = 8; /* a bad seat named and a bad set: the seat comes first */
    cr_assert_eq(play(&g, a, NULL), LIT_BAD_SEAT);
    /* a claim naming a teammate with no cards is wrong, not illegal: tested
     * in test_options; a claim of a set the claimer holds nothing of is legal */
    cr_assert_eq(play(&g, claim_true(&g, 1, "high-diamonds"), NULL), LIT_OK);
    cr_assert_eq(g.pub.score[0], 1);
}

Test(game, legal_asks_are_exactly_the_accepted_ones)
{
    LitGame g;
    game_from(&g, "classic", 1, DEAL6);
    LitAction legal[LIT_MAX_LEGAL];
    int n = lit_game_legal(&g, 0, legal, LIT_MAX_LEGAL);
    /* askable: 5h; Js Qs Ks As; 3c 4c 5c 6c 7c = 10 cards, 3 opponents */
    cr_assert_eq(n, 30);
    cr_assert_eq(lit_game_legal(&g, 1, legal, LIT_MAX_LEGAL), 0, "not seat 2's turn");
    cr_assert_eq(lit_game_legal(&g, 12, legal, LIT_MAX_LEGAL), LIT_BAD_SEAT);
    n = lit_game_legal(&g, 0, legal, LIT_MAX_LEGAL);
    int accepted = 0;
    for (int s = 0; s < 6; s++) {
        for (int c = 0; c < 48; c++) {
            LitAction a;
            memset(&a, 0, sizeof a);
            a.kind = LIT_ASK;
            a.seat = 0;
            a.target = (uint8_t)s;
            a.card = (uint8_t)c;
            int listed = 0;
            for (int i = 0; i < n; i++)
                listed |= legal[i].target == s && legal[i].card == c;
            int ok = lit_game_check(&g, &a) == LIT_OK;
            cr_assert_eq(listed, ok, "seat %d card %s", s + 1, lit_card_name(0, c));
            accepted += ok;
        }
    }
    cr_assert_eq(accepted, 30);
    /* a small buffer gets the first entries and the full count */
    cr_assert_eq(lit_game_legal(&g, 0, legal, 2), 30);
}

Test(game, eight_players)
{
    static const char *const deal8[8] = {
        "2c 3c 4c 5c 6c 7c", "9c Tc Jc Qc Kc Ac", "2d 3d 4d 5d 6d 7d",
        "9d Td Jd Qd Kd Ad", "2h 3h 4h 5h 6h 9s", "9h Th Jh Qh Kh 7h",
        "2s 3s 4s 5s 6s Ah", "Ts Js Qs Ks As 7s"};
    LitGame g;
    LitEvent e;
    game_from(&g, "classic players=8", 5, deal8);
    cr_assert_eq(turn_of(&g), 5);
    cr_assert_eq(play(&g, ask(&g, 5, 6, "7h"), &e), LIT_OK);
    cr_assert_eq(e.answer, LIT_HIT);
    cr_assert_eq(play(&g, ask(&g, 5, 8, "Ts"), &e), LIT_OK);
    cr_assert_eq(e.answer, LIT_HIT);
    cr_assert_eq(play(&g, ask(&g, 5, 6, "Js"), &e), LIT_OK);
    cr_assert_eq(e.answer, LIT_MISS);
    cr_assert_eq(turn_of(&g), 6);
    cr_assert_eq(play(&g, ask(&g, 6, 8, "Ah"), NULL), LIT_ASK_TEAMMATE);
    cr_assert_eq(play(&g, ask(&g, 6, 7, "Ah"), &e), LIT_OK);
    cr_assert_eq(e.answer, LIT_HIT);
    /* seat 6 holds every high heart and claims them, emptying its hand */
    cr_assert_eq(play(&g, claim(&g, 6, "hh", "6:9h,Th,Jh,Qh,Kh,Ah"), &e), LIT_OK);
    cr_assert_eq(e.answer, LIT_WON);
    cr_assert_eq(g.pub.score[1], 1);
    cr_assert_eq(g.pub.counts[5], 0);
    cr_assert_eq(g.pub.phase, LIT_PHASE_PASS, "teammates 2, 4, 8 have cards: 6 chooses");
    cr_assert_eq(turn_of(&g), 6);
    cr_assert_eq(play(&g, ask(&g, 6, 7, "2s"), NULL), LIT_MUST_PASS);
    cr_assert_eq(play(&g, pass_to(6, 6), NULL), LIT_PASS_TO_SELF);
    cr_assert_eq(play(&g, pass_to(6, 5), NULL), LIT_PASS_TO_OPPONENT);
    cr_assert_eq(play(&g, pass_to(5, 8), NULL), LIT_NOT_YOUR_TURN);
    cr_assert_eq(play(&g, choose(6, 8), NULL), LIT_NOTHING_TO_CHOOSE);
    LitAction legal[LIT_MAX_LEGAL];
    cr_assert_eq(lit_game_legal(&g, 5, legal, LIT_MAX_LEGAL), 3);
    cr_assert_eq(play(&g, pass_to(6, 8), &e), LIT_OK);
    cr_assert_eq(turn_of(&g), 8);
    cr_assert_eq(g.pub.phase, LIT_PHASE_PLAY);
}

Test(game, new_game_errors)
{
    LitGame g;
    LitRules r = rules_of("classic");
    cr_assert_eq(lit_game_new(&g, &r, 1, 6), LIT_BAD_SEAT);
    cr_assert_eq(lit_game_new(&g, &r, 1, -1), LIT_BAD_SEAT);
    uint64_t guard[LIT_MAX_PLAYERS + 4];
    memset(guard, 0x5A, sizeof guard);
    cr_assert_eq(lit_deal(&r, 1, -1, guard + 2), LIT_BAD_SEAT);
    cr_assert_eq(lit_deal(&r, 1, 6, guard + 2), LIT_BAD_SEAT);
    for (size_t i = 0; i < sizeof guard / sizeof guard[0]; i++)
        cr_assert_eq(guard[i], UINT64_C(0x5A5A5A5A5A5A5A5A), "lit_deal wrote on a refusal");
    cr_assert_eq(lit_deal_size(&r, -1, 0), LIT_BAD_SEAT);
    cr_assert_eq(lit_deal_size(&r, 0, 6), LIT_BAD_SEAT);
    r.deck = 9;
    cr_assert_eq(lit_game_new(&g, &r, 1, 0), LIT_BAD_RULE_VALUE);
    r = rules_of("classic");
    uint64_t hands[LIT_MAX_PLAYERS] = {0};
    lit_deal(&r, 5, 0, hands);
    uint64_t moved = hands[0] & (0 - hands[0]);
    hands[1] |= moved; /* a card twice */
    cr_assert_eq(lit_game_from_deal(&g, &r, hands, 0), LIT_BAD_DEAL);
    hands[0] &= ~moved; /* every card once, but sizes differ: allowed */
    cr_assert_eq(lit_game_from_deal(&g, &r, hands, 0), LIT_OK);
    hands[1] |= hands[0];
    hands[0] = 0; /* an empty seat */
    cr_assert_eq(lit_game_from_deal(&g, &r, hands, 0), LIT_BAD_DEAL);
    hands[0] = hands[1] & (0 - hands[1]);
    hands[1] &= ~hands[0];
    hands[6] = lit_bit(60); /* a seventh seat */
    cr_assert_eq(lit_game_from_deal(&g, &r, hands, 0), LIT_BAD_DEAL);
}
