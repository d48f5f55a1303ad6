/* test_options.c - every option of docs/RULES.md and every numbered reading
 * ("Readings where the sources fork"), with fixed deals: the decks, the
 * player counts, misclaim, claim-time, split-claims, after-claim, bluff,
 * must-claim, double-high, first, pass-play, the display rules, the order of
 * checks, and the queries lit_claimable / lit_whole_sets / lit_targets /
 * lit_askable.
 *
 * Seats are 1-based as in the helpers; team A = 1, 3, 5..., team B = 2, 4,
 * 6.... Sets of no8: lc 0, hc 1, ld 2, hd 3, lh 4, hh 5, ls 6, hs 7. */
#include <criterion/criterion.h>
#include <string.h>

#include "helpers.h"

static int card(int deck, const char *name)
{
    return lit_card_parse(deck, name, strlen(name));
}

/* A 6-player no8 deal with whole sets in seats 4 (hc), 5 (hh), 6 (ls), the
 * low diamonds spread over team A and the rest mixed. */
static const char *const OPT6[6] = {
    "2d 3d 9d Td 2h 3h 4h 2c 9s Ts", /* 1 */
    "Kd 5h 6h 3c 4c Js Qs",          /* 2 */
    "4d 5d Jd 7h 5c 6c 7c Ks As",    /* 3 */
    "Ad 9c Tc Jc Qc Kc Ac",          /* 4: every high club */
    "6d 7d Qd 9h Th Jh Qh Kh Ah",    /* 5: every high heart */
    "2s 3s 4s 5s 6s 7s",             /* 6: every low spade */
};

/* Seat 1 holds only 2c 3c; seat 3 the rest of the low clubs and every low
 * diamond; seat 5 every high heart. */
static const char *const AT6[6] = {
    "2c 3c",
    "9c Tc Jc Qc Kc Ac",
    "4c 5c 6c 7c 2d 3d 4d 5d 6d 7d",
    "9d Td Jd Qd Kd Ad 2h 3h 4h 5h 6h 7h",
    "9h Th Jh Qh Kh Ah",
    "2s 3s 4s 5s 6s 7s 9s Ts Js Qs Ks As",
};

/* Seat 5 holds only the 7c: seat 1's claim of the low clubs empties it. */
static const char *const R8[6] = {
    "2c 3c 4c 5c 6c 2d 3d 4d",
    "9c Tc Jc Qc Kc Ac 2h",
    "5d 6d 7d 9d Td Jd Qd Kd Ad",
    "3h 4h 5h 6h 7h 9h Th Jh Qh Kh Ah",
    "7c",
    "2s 3s 4s 5s 6s 7s 9s Ts Js Qs Ks As",
};

/* ---- decks --------------------------------------------------------------- */

/* deck=no2 (001, 003): the 2s removed, low 3-8, high 9-A. */
Test(deck, no2_low_three_to_eight)
{
    static const char *const deal[6] = {
        "3c 4c 5c 6c 7c 9h Th Jh Qh Kh",
        "8c 9c Tc Jc Qc Kc Ac",
        "3d 4d 5d 6d 7d 8d",
        "9d Td Jd Qd Kd Ad",
        "3h 4h 5h 6h 7h 8h",
        "Ah 3s 4s 5s 6s 7s 8s 9s Ts Js Qs Ks As",
    };
    int d = LIT_DECK_NO2;
    cr_assert_eq(card(d, "2c"), LIT_BAD_CARD);
    cr_assert_eq(card(d, "3c"), 0);
    cr_assert_eq(card(d, "8c"), 5);
    cr_assert_eq(card(d, "9c"), 6);
    cr_assert_eq(lit_set_of(d, card(d, "8s")), 6);
    cr_assert_str_eq(lit_card_name(d, 5), "8c");
    LitGame g;
    game_from(&g, "classic deck=no2", 1, deal);
    ANSWER(&g, ask(&g, 1, 2, "8c"), LIT_HIT);
    EXPECT(&g, ask(&g, 1, 2, "9c"), LIT_NO_BASE_CARD);
    EXPECT(&g, ask(&g, 1, 4, "8d"), LIT_NO_BASE_CARD);
    ANSWER(&g, ask(&g, 1, 6, "Ah"), LIT_HIT);
    ANSWER(&g, claim(&g, 1, "low-clubs", "1:3c,4c,5c,6c,7c,8c"), LIT_WON);
    ANSWER(&g, claim(&g, 1, "hh", "1:9h,Th,Jh,Qh,Kh,Ah"), LIT_WON);
    cr_assert_eq(g.pub.score[0], 2);
    cr_assert_eq(g.pub.won[0], set_bit(&g, "lc") | set_bit(&g, "hh"));
    cr_assert_eq(g.pub.phase, LIT_PHASE_PASS, "seat 1 is empty, 3 and 5 have cards");
    cr_assert_eq(turn_of(&g), 1);
}

/* deck=no7 (001, 003): the 7s removed, ace low: low A-6, high 8-K. */
Test(deck, no7_ace_low)
{
    static const char *const deal[6] = {
        "Ac 2c 3c 4c 5c 8h 9h Th Jh Qh",
        "6c 8c 9c Tc Jc Qc Kc",
        "Ad 2d 3d 4d 5d 6d",
        "8d 9d Td Jd Qd Kd",
        "Ah 2h 3h 4h 5h 6h",
        "Kh As 2s 3s 4s 5s 6s 8s 9s Ts Js Qs Ks",
    };
    int d = LIT_DECK_NO7;
    cr_assert_eq(card(d, "7c"), LIT_BAD_CARD);
    cr_assert_eq(card(d, "Ac"), 0, "the ace is the lowest card of the low set");
    cr_assert_eq(card(d, "6c"), 5);
    cr_assert_eq(card(d, "8c"), 6);
    cr_assert_eq(card(d, "Kc"), 11);
    cr_assert_eq(lit_set_of(d, card(d, "As")), 6);
    cr_assert_str_eq(lit_card_name(d, 0), "Ac");
    cr_assert(lit_set_is_high(d, 1));
    cr_assert(!lit_set_is_high(d, 0));
    LitGame g;
    game_from(&g, "classic deck=no7", 1, deal);
    ANSWER(&g, ask(&g, 1, 2, "6c"), LIT_HIT);
    EXPECT(&g, ask(&g, 1, 4, "Ad"), LIT_NO_BASE_CARD);
    EXPECT(&g, ask(&g, 1, 2, "Ac"), LIT_OWN_CARD);
    ANSWER(&g, claim(&g, 1, "lc", "1:Ac,2c,3c,4c,5c,6c"), LIT_WON);
    ANSWER(&g, ask(&g, 1, 6, "Kh"), LIT_HIT);
    ANSWER(&g, claim(&g, 1, "high-hearts", "1:8h,9h,Th,Jh,Qh,Kh"), LIT_WON);
    cr_assert_eq(g.pub.score[0], 2);
    cr_assert_eq(g.pub.won[0], set_bit(&g, "lc") | set_bit(&g, "hh"));
    cr_assert_eq(g.pub.live & lit_set_mask(d, 0), 0u);
}

/* deck=jokers (001): 54 cards, a ninth set 8c 8d 8h 8s JK1 JK2. */
Test(deck, jokers_ninth_set)
{
    static const char *const deal[6] = {
        "8c 8d JK1 2c 3c 4c 5c 6c 7c",
        "8h 9c Tc Jc Qc Kc Ac",
        "2d 3d 4d 5d 6d 7d 9d Td Jd Qd Kd Ad",
        "8s JK2 2h 3h 4h 5h 6h As",
        "9h Th Jh Qh Kh Ah 2s 3s 4s 5s 6s 7s",
        "9s Ts Js Qs Ks 7h",
    };
    int d = LIT_DECK_JOKERS;
    cr_assert_eq(lit_deck_cards(d), 54);
    cr_assert_eq(lit_deck_sets(d), 9);
    cr_assert_eq(card(d, "8c"), 48);
    cr_assert_eq(card(d, "8s"), 51);
    cr_assert_eq(card(d, "JK1"), 52);
    cr_assert_eq(card(d, "JK2"), 53);
    cr_assert_eq(lit_set_of(d, 53), 8);
    cr_assert_str_eq(lit_set_name(d, 8), "eights-jokers");
    cr_assert_eq(card(LIT_DECK_NO8, "JK1"), LIT_BAD_CARD);
    cr_assert_eq(card(LIT_DECK_NO8, "8c"), LIT_BAD_CARD);
    LitGame g;
    game_from(&g, "jokers", 1, deal);
    ANSWER(&g, ask(&g, 1, 2, "8h"), LIT_HIT);
    ANSWER(&g, ask(&g, 1, 6, "JK2"), LIT_MISS);
    cr_assert_eq(turn_of(&g), 6);
    ANSWER(&g, ask(&g, 6, 1, "2h"), LIT_MISS);
    cr_assert_eq(turn_of(&g), 1);
    ANSWER(&g, ask(&g, 1, 4, "JK2"), LIT_HIT);
    ANSWER(&g, ask(&g, 1, 4, "8s"), LIT_HIT);
    ANSWER(&g, claim(&g, 1, "eights-jokers", "1:8c,8d,8h,8s,JK1,JK2"), LIT_WON);
    cr_assert_eq(g.pub.won[0], 1u << 8);
    cr_assert_eq(g.pub.score[0], 1);
    cr_assert_eq(g.pub.live & lit_set_mask(d, 8), 0u);
    EXPECT(&g, ask(&g, 1, 2, "JK1"), LIT_SET_CLAIMED);
}

/* deck=quartets (001, 003): 52 cards, 13 sets of the four cards of a rank. */
Test(deck, quartets_four_card_sets)
{
    static const char *const deal[6] = {
        "2c 2d 2h 3c 3d 3h 3s 4c",
        "2s 4d 4h 4s 5c 5d 5h 5s",
        "6c 6d 6h 6s 7c 7d 7h 7s",
        "8c 8d 8h 8s 9c 9d 9h 9s Tc",
        "Td Th Ts Jc Jd Jh Js Qc Qd",
        "Qh Qs Kc Kd Kh Ks Ac Ad Ah As",
    };
    int d = LIT_DECK_QUARTETS;
    cr_assert_eq(lit_deck_cards(d), 52);
    cr_assert_eq(lit_deck_set_size(d), 4);
    cr_assert_eq(card(d, "2c"), 0);
    cr_assert_eq(card(d, "As"), 51);
    cr_assert_eq(lit_set_of(d, card(d, "Kh")), 11);
    cr_assert_eq(lit_set_mask(d, 0), 0xFu);
    LitGame g;
    game_from(&g, "quartets", 1, deal);
    ANSWER(&g, ask(&g, 1, 2, "2s"), LIT_HIT);
    ANSWER(&g, claim(&g, 1, "twos", "1:2c,2d,2h,2s"), LIT_WON);
    EXPECT(&g, claim(&g, 1, "threes", "1:3c,3d,3h"), LIT_CLAIM_INCOMPLETE);
    EXPECT(&g, ask(&g, 1, 2, "5c"), LIT_NO_BASE_CARD);
    ANSWER(&g, ask(&g, 1, 4, "4d"), LIT_MISS);
    cr_assert_eq(turn_of(&g), 4);
    ANSWER(&g, ask(&g, 4, 5, "Td"), LIT_HIT);
    ANSWER(&g, ask(&g, 4, 5, "Th"), LIT_HIT);
    ANSWER(&g, ask(&g, 4, 5, "Ts"), LIT_HIT);
    ANSWER(&g, claim(&g, 4, "qT", "4:Tc,Td,Th,Ts"), LIT_WON);
    cr_assert_eq(g.pub.score[0], 1);
    cr_assert_eq(g.pub.score[1], 1);
    cr_assert_eq(g.pub.won[0], 1u << 0);
    cr_assert_eq(g.pub.won[1], 1u << 8);
    cr_assert_eq(turn_of(&g), 4);
}

/* ---- player counts ------------------------------------------------------- */

/* players=4 (001 "4 to 12 players"): two against two, 12 cards each. */
Test(players, four)
{
    static const char *const deal[4] = {
        "2c 3c 4c 5c 6c 2d 9c Tc Jc Qc Kc Ac",
        "7c 3d 4d 5d 6d 7d 9d Td Jd Qd Kd Ad",
        "2h 3h 4h 5h 6h 7h 9h Th Jh Qh Kh Ah",
        "2s 3s 4s 5s 6s 7s 9s Ts Js Qs Ks As",
    };
    LitGame g;
    game_from(&g, "classic players=4", 1, deal);
    LitRules r = rules_of("classic players=4");
    cr_assert_eq(lit_team_seats(&r, 0), 0x5u);
    cr_assert_eq(lit_team_seats(&r, 1), 0xAu);
    cr_assert_eq(lit_deal_size(&r, 0, 3), 12);
    cr_assert_eq(lit_targets(&g.pub, 0), 0xAu);
    ANSWER(&g, ask(&g, 1, 2, "7c"), LIT_HIT);
    EXPECT(&g, ask(&g, 1, 3, "7h"), LIT_ASK_TEAMMATE);
    ANSWER(&g, ask(&g, 1, 4, "3d"), LIT_MISS);
    cr_assert_eq(turn_of(&g), 4);
    ANSWER(&g, claim(&g, 4, "ls", "4:2s,3s,4s,5s,6s,7s"), LIT_WON);
    ANSWER(&g, claim(&g, 4, "hs", "4:9s,Ts,Js,Qs,Ks,As"), LIT_WON);
    cr_assert_eq(turn_of(&g), 2, "seat 2 is seat 4's only teammate");
    cr_assert_eq(g.pub.phase, LIT_PHASE_PLAY);
    ANSWER(&g, ask(&g, 2, 1, "2d"), LIT_HIT);
    ANSWER(&g, claim(&g, 2, "ld", "2:2d,3d,4d,5d,6d,7d"), LIT_WON);
    cr_assert_eq(g.pub.score[1], 3);
}

/* players=10 with a fixed deal: teams of five, asks, a claim, a pass. */
Test(players, ten_fixed_deal)
{
    static const char *const deal[10] = {
        "2c 3c 4c 5c 6c", "7c 9c Tc Jc Qc", "Kc Ac 2d 3d 4d", "5d 6d 7d 9d Td",
        "Jd Qd Kd Ad 2h", "3h 4h 5h 6h 7h", "9h Th Jh Qh Kh", "Ah 2s 3s 4s 5s",
        "6s 7s 9s Ts",    "Js Qs Ks As",
    };
    LitGame g;
    game_from(&g, "classic players=10", 10, deal);
    for (int s = 0; s < 10; s++)
        cr_assert_eq(g.pub.counts[s], lit_deal_size(&g.pub.rules, 9, s), "seat %d", s + 1);
    cr_assert_eq(turn_of(&g), 10);
    cr_assert_eq(lit_team_seats(&g.pub.rules, 0), 0x155u);
    cr_assert_eq(lit_team_seats(&g.pub.rules, 1), 0x2AAu);
    EXPECT(&g, ask(&g, 10, 8, "9s"), LIT_ASK_TEAMMATE);
    ANSWER(&g, ask(&g, 10, 9, "9s"), LIT_HIT);
    ANSWER(&g, ask(&g, 10, 9, "Ts"), LIT_HIT);
    ANSWER(&g, claim(&g, 10, "hs", "10:9s,Ts,Js,Qs,Ks,As"), LIT_WON);
    cr_assert_eq(g.pub.score[1], 1);
    cr_assert_eq(g.pub.phase, LIT_PHASE_PASS);
    cr_assert_eq(legal_count(&g, 10), 4, "teammates 2, 4, 6, 8");
    OK(&g, pass_to(10, 2));
    cr_assert_eq(turn_of(&g), 2);
    cr_assert_eq(lit_targets(&g.pub, 1), 0x155u);
    ANSWER(&g, ask(&g, 2, 1, "2c"), LIT_HIT);
}

/* Dealing (RULES step 4): with 10 players and 48 cards the eight seats from
 * the dealer's left get 5 cards, the last two (the dealer's right and the
 * dealer) 4; with 54 cards four seats get 6. */
Test(players, ten_deal_sizes_from_the_dealers_left)
{
    LitRules r = rules_of("classic players=10");
    LitRules rj = rules_of("jokers players=10");
    for (int dealer = 0; dealer < 10; dealer++) {
        LitGame g;
        cr_assert_eq(lit_game_new(&g, &r, 77 + (uint64_t)dealer, dealer), LIT_OK);
        assert_conserved(&g);
        cr_assert_eq(g.pub.turn, dealer);
        for (int k = 0; k < 10; k++) {
            int s = (dealer + 1 + k) % 10;
            cr_assert_eq(g.pub.counts[s], k < 8 ? 5 : 4, "dealer %d seat %d", dealer + 1, s + 1);
            cr_assert_eq(lit_deal_size(&r, dealer, s), k < 8 ? 5 : 4);
        }
        cr_assert_eq(lit_game_new(&g, &rj, 5, dealer), LIT_OK);
        assert_conserved(&g);
        for (int k = 0; k < 10; k++) {
            int s = (dealer + 1 + k) % 10;
            cr_assert_eq(g.pub.counts[s], k < 4 ? 6 : 5, "jokers dealer %d seat %d", dealer + 1, s + 1);
        }
    }
}

/* players=12 (001 "up to 12"): six against six, 4 cards each. */
Test(players, twelve)
{
    static const char *const deal[12] = {
        "2c 3c 4c 5c", "6c 7c 9c Tc", "Jc Qc Kc Ac", "2d 3d 4d 5d",
        "6d 7d 9d Td", "Jd Qd Kd Ad", "2h 3h 4h 5h", "6h 7h 9h Th",
        "Jh Qh Kh Ah", "2s 3s 4s 5s", "6s 7s 9s Ts", "Js Qs Ks As",
    };
    LitGame g;
    LitRules r = rules_of("classic players=12");
    for (int dealer = 0; dealer < 12; dealer += 5) {
        cr_assert_eq(lit_game_new(&g, &r, 9, dealer), LIT_OK);
        for (int s = 0; s < 12; s++)
            cr_assert_eq(g.pub.counts[s], 4);
    }
    game_from(&g, "classic players=12", 1, deal);
    cr_assert_eq(lit_targets(&g.pub, 0), 0xAAAu);
    ANSWER(&g, ask(&g, 1, 2, "6c"), LIT_HIT);
    ANSWER(&g, ask(&g, 1, 2, "7c"), LIT_HIT);
    ANSWER(&g, claim(&g, 1, "lc", "1:2c,3c,4c,5c,6c,7c"), LIT_WON);
    cr_assert_eq(g.pub.phase, LIT_PHASE_PASS);
    cr_assert_eq(legal_count(&g, 1), 5, "teammates 3, 5, 7, 9, 11");
    OK(&g, pass_to(1, 3));
    ANSWER(&g, ask(&g, 3, 2, "9c"), LIT_HIT);
    ANSWER(&g, ask(&g, 3, 2, "Tc"), LIT_HIT);
    cr_assert_eq(g.pub.counts[1], 0);
    cr_assert_eq(lit_targets(&g.pub, 2), 0xAA8u, "seat 2 has no cards");
    EXPECT(&g, ask(&g, 3, 2, "9d"), LIT_TARGET_EMPTY);
    ANSWER(&g, claim(&g, 3, "hc", "3:9c,Tc,Jc,Qc,Kc,Ac"), LIT_WON);
    cr_assert_eq(g.pub.score[0], 2);
    cr_assert_eq(g.pub.phase, LIT_PHASE_PASS);
    cr_assert_eq(turn_of(&g), 3);
}

/* RULES "Teams are always equal, so odd counts are refused". */
Test(players, odd_and_out_of_range_counts_are_refused)
{
    static const char *const bad[] = {"classic players=5", "classic players=7",
                                      "classic players=2", "classic players=14"};
    for (int i = 0; i < 4; i++) {
        LitRules r;
        lit_rules_default(&r);
        cr_assert_eq(lit_rules_parse(&r, bad[i], NULL), LIT_BAD_RULE_VALUE, "%s", bad[i]);
    }
}

/* ---- misclaim ------------------------------------------------------------ */

/* Three claims by seat 1: ld right, hh misplaced (team A held all), hd with
 * two cards at team B. */
static void three_claims(LitGame *g, const char *rules, const int want[3])
{
    game_from(g, rules, 1, OPT6);
    ANSWER(g, claim(g, 1, "ld", "1:2d,3d 3:4d,5d 5:6d,7d"), want[0]);
    ANSWER(g, claim(g, 1, "hh", "1:9h 5:Th,Jh,Qh,Kh,Ah"), want[1]);
    ANSWER(g, claim(g, 1, "hd", "1:9d,Td,Kd 3:Jd,Ad 5:Qd"), want[2]);
    cr_assert_eq(turn_of(g), 1);
    cr_assert_eq(g->pub.phase, LIT_PHASE_PLAY);
    cr_assert_eq(g->pub.live & cards_of(LIT_DECK_NO8, "2d 9h 9d Ad"), 0u,
                 "every claimed set left play");
}

/* misclaim=cancel (000): won / cancelled / lost. */
Test(misclaim, cancel)
{
    static const int want[3] = {LIT_WON, LIT_CANCELLED, LIT_LOST};
    LitGame g;
    three_claims(&g, "classic", want);
    cr_assert_eq(g.pub.score[0], 1);
    cr_assert_eq(g.pub.score[1], 1);
    cr_assert_eq(g.pub.won[0], set_bit(&g, "ld"));
    cr_assert_eq(g.pub.won[1], set_bit(&g, "hd"));
    cr_assert_eq(g.pub.dead, set_bit(&g, "hh"));
}

/* misclaim=opponents (001, 002): every wrong claim goes to the opponents. */
Test(misclaim, opponents)
{
    static const int want[3] = {LIT_WON, LIT_LOST, LIT_LOST};
    LitGame g;
    three_claims(&g, "classic misclaim=opponents", want);
    cr_assert_eq(g.pub.score[0], 1);
    cr_assert_eq(g.pub.score[1], 2);
    cr_assert_eq(g.pub.won[0], set_bit(&g, "ld"));
    cr_assert_eq(g.pub.won[1], set_bit(&g, "hh") | set_bit(&g, "hd"));
    cr_assert_eq(g.pub.dead, 0u);
}

/* misclaim=point-off (003): cancelled if the team held all, else the team
 * loses the set's value and nobody gains it. */
Test(misclaim, point_off)
{
    static const int want[3] = {LIT_WON, LIT_CANCELLED, LIT_POINT_OFF};
    LitGame g;
    three_claims(&g, "classic misclaim=point-off", want);
    cr_assert_eq(g.pub.score[0], 0);
    cr_assert_eq(g.pub.score[1], 0);
    cr_assert_eq(g.pub.won[0], set_bit(&g, "ld"));
    cr_assert_eq(g.pub.won[1], 0u);
    cr_assert_eq(g.pub.dead, set_bit(&g, "hh") | set_bit(&g, "hd"));
    ANSWER(&g, claim(&g, 1, "lh", "1:2h,3h,4h,5h,6h 3:7h"), LIT_POINT_OFF);
    cr_assert_eq(g.pub.score[0], -1, "scores can go below zero");
}

/* Reading 6: a point off on a doubled set costs 2. */
Test(misclaim, point_off_of_a_doubled_set_costs_two)
{
    LitGame g;
    game_from(&g, "india misclaim=point-off", 1, OPT6);
    cr_assert_eq(lit_rules_set_value(&g.pub.rules, 3), 2);
    ANSWER(&g, claim(&g, 1, "hd", "1:9d,Td,Kd 3:Jd,Ad 5:Qd"), LIT_POINT_OFF);
    cr_assert_eq(g.pub.score[0], -2);
    cr_assert_eq(g.pub.score[1], 0);
    ANSWER(&g, claim(&g, 1, "lh", "1:2h,3h,4h,5h,6h 3:7h"), LIT_POINT_OFF);
    cr_assert_eq(g.pub.score[0], -3, "a low set costs 1");
    ANSWER(&g, claim(&g, 1, "hh", "1:9h 5:Th,Jh,Qh,Kh,Ah"), LIT_CANCELLED);
    cr_assert_eq(g.pub.score[0], -3, "cancelled costs nothing");
    ANSWER(&g, claim(&g, 1, "ld", "1:2d,3d 3:4d,5d 5:6d,7d"), LIT_WON);
    cr_assert_eq(g.pub.score[0], -2);
    cr_assert_eq(g.pub.dead, set_bit(&g, "hd") | set_bit(&g, "lh") | set_bit(&g, "hh"));
}

/* Reading 7: a cancelled (or lost) set leaves play under every misclaim:
 * it cannot be claimed again or asked for. */
Test(misclaim, a_cancelled_set_leaves_play)
{
    static const char *const rules[] = {"classic", "classic misclaim=opponents",
                                        "classic misclaim=point-off"};
    static const int hh[] = {LIT_CANCELLED, LIT_LOST, LIT_CANCELLED};
    for (int i = 0; i < 3; i++) {
        LitGame g;
        game_from(&g, rules[i], 1, OPT6);
        int before[2] = {g.pub.score[0], g.pub.score[1]};
        ANSWER(&g, claim(&g, 1, "hh", "1:9h 5:Th,Jh,Qh,Kh,Ah"), hh[i]);
        uint64_t m = lit_set_mask(LIT_DECK_NO8, 5);
        cr_assert_eq(g.pub.live & m, 0u, "%s", rules[i]);
        cr_assert_eq(g.hands[4] & m, 0u, "seat 5 showed and lost its hearts");
        cr_assert_eq(g.pub.counts[4], 3);
        cr_assert_eq(lit_claimable(&g.pub, 0), 0xFFu & ~set_bit(&g, "hh"));
        cr_assert_eq(lit_whole_sets(&g.pub, m), 0u);
        EXPECT(&g, claim(&g, 1, "hh", "5:9h,Th,Jh,Qh,Kh,Ah"), LIT_SET_CLAIMED);
        EXPECT(&g, ask(&g, 1, 2, "Qh"), LIT_SET_CLAIMED);
        if (hh[i] == LIT_CANCELLED) {
            cr_assert_eq(g.pub.score[0], before[0], "%s: no score changes", rules[i]);
            cr_assert_eq(g.pub.score[1], before[1]);
            cr_assert_eq(g.pub.dead, set_bit(&g, "hh"));
        } else {
            cr_assert_eq(g.pub.score[1], 1);
        }
    }
}

/* Reading 8 (and 9): a claim naming a teammate who has no cards is wrong,
 * not illegal; naming an opponent without split-claims is refused. */
Test(misclaim, naming_a_teammate_without_cards_is_wrong_not_illegal)
{
    LitGame g;
    game_from(&g, "classic", 1, R8);
    ANSWER(&g, claim(&g, 1, "lc", "1:2c,3c,4c,5c,6c 5:7c"), LIT_WON);
    cr_assert_eq(g.pub.counts[4], 0);
    EXPECT(&g, claim(&g, 1, "hd", "2:9d 3:Td,Jd,Qd,Kd,Ad"), LIT_CLAIM_NAMES_OPPONENT);
    ANSWER(&g, claim(&g, 1, "ld", "1:2d,3d,4d 3:5d,6d 5:7d"), LIT_CANCELLED);
    cr_assert_eq(g.pub.dead, set_bit(&g, "ld"));
    cr_assert_eq(g.pub.counts[0], 0);
    cr_assert_eq(turn_of(&g), 3, "seat 1 is empty: seat 3 is its only teammate with cards");

    game_from(&g, "classic misclaim=opponents", 1, R8);
    ANSWER(&g, claim(&g, 1, "lc", "1:2c,3c,4c,5c,6c 5:7c"), LIT_WON);
    ANSWER(&g, claim(&g, 1, "ld", "1:2d,3d,4d 3:5d,6d 5:7d"), LIT_LOST);
    cr_assert_eq(g.pub.score[1], 1);
}

/* ---- claim-time ---------------------------------------------------------- */

/* claim-time=own-turn (000, 003): a claim by a seat not on turn is refused. */
Test(claim_time, own_turn_refuses_other_seats)
{
    LitGame g;
    game_from(&g, "classic", 1, OPT6);
    EXPECT(&g, claim_true(&g, 4, "hc"), LIT_NOT_YOUR_TURN);
    EXPECT(&g, claim_true(&g, 3, "ld"), LIT_NOT_YOUR_TURN);
    cr_assert_eq(lit_claimable(&g.pub, 0), 0xFFu);
    for (int s = 1; s < 6; s++)
        cr_assert_eq(lit_claimable(&g.pub, s), 0u, "seat %d", s + 1);
    ANSWER(&g, claim_true(&g, 1, "ld"), LIT_WON);
}

/* claim-time=any-time and reading 4: accepted from any seat, and the turn
 * does not move (not even into choose-asker under after-claim=team). */
Test(claim_time, any_time_claims_do_not_move_the_turn)
{
    static const char *const rules[] = {"classic claim-time=any-time",
                                        "classic claim-time=any-time after-claim=team"};
    for (int i = 0; i < 2; i++) {
        LitGame g;
        game_from(&g, rules[i], 1, OPT6);
        for (int s = 0; s < 6; s++)
            cr_assert_eq(lit_claimable(&g.pub, s), 0xFFu, "seat %d", s + 1);
        ANSWER(&g, claim_true(&g, 4, "hc"), LIT_WON);
        cr_assert_eq(turn_of(&g), 1, "%s", rules[i]);
        cr_assert_eq(g.pub.phase, LIT_PHASE_PLAY, "%s", rules[i]);
        cr_assert_eq(g.pub.score[1], 1);
        ANSWER(&g, claim_true(&g, 3, "ld"), LIT_WON);
        cr_assert_eq(turn_of(&g), 1);
        cr_assert_eq(g.pub.phase, LIT_PHASE_PLAY);
        ANSWER(&g, claim(&g, 6, "ls", "2:2s 6:3s,4s,5s,6s,7s"), LIT_CANCELLED);
        cr_assert_eq(turn_of(&g), 1);
        ANSWER(&g, ask(&g, 1, 2, "5h"), LIT_HIT);
        cr_assert_eq(turn_of(&g), 1);
        cr_assert_eq(g.pub.score[0], 1);
        cr_assert_eq(g.pub.score[1], 1);
    }
}

/* RULES "If it emptied the hand of the seat on turn, that seat passes": by
 * choice with two teammates with cards, at once with one. */
Test(claim_time, any_time_claim_emptying_the_seat_on_turn_makes_it_pass)
{
    LitGame g;
    game_from(&g, "classic claim-time=any-time", 1, AT6);
    ANSWER(&g, claim(&g, 3, "lc", "1:2c,3c 3:4c,5c,6c,7c"), LIT_WON);
    cr_assert_eq(g.pub.counts[0], 0);
    cr_assert_eq(g.pub.phase, LIT_PHASE_PASS);
    cr_assert_eq(turn_of(&g), 1);
    EXPECT(&g, ask(&g, 1, 2, "9c"), LIT_MUST_PASS);
    cr_assert_eq(legal_count(&g, 1), 2, "to seat 3 or seat 5");
    OK(&g, pass_to(1, 5));
    cr_assert_eq(turn_of(&g), 5);
    cr_assert_eq(g.pub.phase, LIT_PHASE_PLAY);

    game_from(&g, "classic claim-time=any-time", 1, AT6);
    ANSWER(&g, claim_true(&g, 5, "hh"), LIT_WON);
    cr_assert_eq(turn_of(&g), 1);
    cr_assert_eq(g.pub.phase, LIT_PHASE_PLAY);
    ANSWER(&g, claim(&g, 3, "lc", "1:2c,3c 3:4c,5c,6c,7c"), LIT_WON);
    cr_assert_eq(turn_of(&g), 3, "seat 3 is the only teammate with cards");
    cr_assert_eq(g.pub.phase, LIT_PHASE_PLAY);
    cr_assert_eq(g.pub.actions, 2);
}

/* claim-time=penalty (000 "the half-suit is cancelled if the claimer's team
 * has it all, or awarded to the opponents"): out of turn is judged wrong. */
Test(claim_time, penalty_judges_out_of_turn_claims_as_wrong)
{
    LitGame g;
    game_from(&g, "classic claim-time=penalty", 1, OPT6);
    ANSWER(&g, claim_true(&g, 5, "hh"), LIT_CANCELLED);
    cr_assert_eq(g.pub.dead, set_bit(&g, "hh"));
    cr_assert_eq(g.pub.score[0], 0);
    cr_assert_eq(turn_of(&g), 1);
    ANSWER(&g, claim_true(&g, 4, "hc"), LIT_CANCELLED);
    ANSWER(&g, claim_true(&g, 1, "ld"), LIT_WON);
    cr_assert_eq(g.pub.score[0], 1, "the seat on turn is judged normally");
    ANSWER(&g, claim(&g, 3, "hd", "1:9d,Td 3:Jd,Kd,Ad 5:Qd"), LIT_LOST);
    cr_assert_eq(g.pub.score[1], 1);
    cr_assert_eq(turn_of(&g), 1);

    /* a right split claim out of turn with opponents holding cards: lost */
    game_from(&g, "classic claim-time=penalty split-claims=on", 1, OPT6);
    ANSWER(&g, claim_true(&g, 3, "hd"), LIT_LOST);
    cr_assert_eq(g.pub.won[1], set_bit(&g, "hd"));
    cr_assert_eq(g.pub.score[1], 1);

    game_from(&g, "classic claim-time=penalty split-claims=on misclaim=point-off", 1, OPT6);
    ANSWER(&g, claim_true(&g, 3, "hd"), LIT_POINT_OFF);
    cr_assert_eq(g.pub.score[0], -1);
    ANSWER(&g, claim_true(&g, 5, "hh"), LIT_CANCELLED);

    game_from(&g, "classic claim-time=penalty misclaim=opponents", 1, OPT6);
    ANSWER(&g, claim_true(&g, 5, "hh"), LIT_LOST);
    cr_assert_eq(g.pub.score[1], 1);
}

/* ---- split-claims (002) -------------------------------------------------- */

/* split-claims=on: a right claim naming opponents' cards is won; a wrong one
 * follows misclaim. */
Test(split_claims, on_a_right_claim_naming_opponents_is_won)
{
    LitGame g;
    game_from(&g, "classic split-claims=on", 1, OPT6);
    ANSWER(&g, claim(&g, 1, "hd", "1:9d,Td 3:Jd 5:Qd 2:Kd 4:Ad"), LIT_WON);
    cr_assert_eq(g.pub.score[0], 1);
    cr_assert_eq(g.pub.won[0], set_bit(&g, "hd"));
    cr_assert_eq(g.pub.counts[1], 6);
    cr_assert_eq(g.pub.counts[3], 6);
    ANSWER(&g, claim(&g, 1, "hs", "1:9s,Ts 2:Js,Qs 4:Ks,As"), LIT_LOST);
    cr_assert_eq(g.pub.won[1], set_bit(&g, "hs"));
    ANSWER(&g, claim(&g, 1, "ld", "2:2d 1:3d 3:4d,5d 5:6d,7d"), LIT_CANCELLED);
    cr_assert_eq(g.pub.dead, set_bit(&g, "ld"));
    ANSWER(&g, claim_true(&g, 1, "hh"), LIT_WON);
    cr_assert_eq(g.pub.score[0], 2);
    cr_assert_eq(turn_of(&g), 1);
}

/* split-claims=off (default): naming an opponent is claim_names_opponent. */
Test(split_claims, off_refuses_naming_an_opponent)
{
    LitGame g;
    game_from(&g, "classic", 1, OPT6);
    EXPECT(&g, claim_true(&g, 1, "hd"), LIT_CLAIM_NAMES_OPPONENT);
    EXPECT(&g, claim(&g, 1, "hh", "2:9h,Th,Jh,Qh,Kh,Ah"), LIT_CLAIM_NAMES_OPPONENT);
    cr_assert_eq(g.pub.actions, 0);
}

/* ---- after-claim --------------------------------------------------------- */

/* after-claim=claimer (000 "the player's turn continues"). */
Test(after_claim, the_claimer_keeps_the_turn)
{
    LitGame g;
    game_from(&g, "classic", 1, OPT6);
    ANSWER(&g, claim_true(&g, 1, "ld"), LIT_WON);
    cr_assert_eq(turn_of(&g), 1);
    cr_assert_eq(g.pub.phase, LIT_PHASE_PLAY);
    ANSWER(&g, ask(&g, 1, 2, "5h"), LIT_HIT);
    cr_assert_eq(turn_of(&g), 1);
}

/* 000 "you pass the turn to another member of your team who still has
 * cards": phase pass, and every status of a wrong pass. */
Test(after_claim, an_emptied_claimer_passes)
{
    static const char *const deal[8] = {
        "2c 3c",
        "9c Tc Jc Qc Kc Ac",
        "4c",
        "2d 3d 4d 5d 6d 7d",
        "5c 6c 7c 9d Td Jd Qd Kd Ad",
        "9h Th Jh Qh Kh Ah",
        "2h 3h 4h 5h 6h 7h",
        "2s 3s 4s 5s 6s 7s 9s Ts Js Qs Ks As",
    };
    LitGame g;
    game_from(&g, "classic players=8", 1, deal);
    ANSWER(&g, claim(&g, 1, "lc", "1:2c,3c 3:4c 5:5c,6c,7c"), LIT_WON);
    cr_assert_eq(g.pub.phase, LIT_PHASE_PASS);
    cr_assert_eq(turn_of(&g), 1);
    EXPECT(&g, ask(&g, 1, 2, "9c"), LIT_MUST_PASS);
    EXPECT(&g, ask(&g, 1, 3, "9c"), LIT_MUST_PASS);
    EXPECT(&g, pass_to(1, 1), LIT_PASS_TO_SELF);
    EXPECT(&g, pass_to(1, 2), LIT_PASS_TO_OPPONENT);
    EXPECT(&g, pass_to(1, 3), LIT_TARGET_EMPTY);
    EXPECT(&g, choose(1, 5), LIT_NOTHING_TO_CHOOSE);
    EXPECT(&g, pass_to(5, 7), LIT_NOT_YOUR_TURN);
    EXPECT(&g, ask(&g, 5, 2, "9c"), LIT_NOT_YOUR_TURN);
    LitAction out[LIT_MAX_LEGAL];
    cr_assert_eq(lit_game_legal(&g, 0, out, LIT_MAX_LEGAL), 2);
    cr_assert_eq(out[0].kind, LIT_PASS);
    cr_assert_eq(out[0].target, 4);
    cr_assert_eq(out[1].target, 6);
    OK(&g, pass_to(1, 7));
    cr_assert_eq(turn_of(&g), 7);
    cr_assert_eq(g.pub.phase, LIT_PHASE_PLAY);
    cr_assert_eq(g.pub.actions, 2);
}

/* Reading 2: a claimer emptied by a claim may claim again before passing. */
Test(after_claim, an_emptied_claimer_may_claim_again_before_passing)
{
    LitGame g;
    game_from(&g, "classic", 1, AT6);
    ANSWER(&g, claim(&g, 1, "lc", "1:2c,3c 3:4c,5c,6c,7c"), LIT_WON);
    cr_assert_eq(g.pub.phase, LIT_PHASE_PASS);
    cr_assert_eq(lit_claimable(&g.pub, 0), 0xFEu);
    ANSWER(&g, claim(&g, 1, "hc", "3:9c,Tc,Jc,Qc,Kc,Ac"), LIT_LOST);
    cr_assert_eq(g.pub.phase, LIT_PHASE_PASS);
    cr_assert_eq(turn_of(&g), 1);
    cr_assert_eq(g.pub.score[1], 1);
    ANSWER(&g, claim(&g, 1, "ld", "3:2d,3d,4d,5d,6d,7d"), LIT_WON);
    cr_assert_eq(turn_of(&g), 5, "seat 3 is empty now: seat 5 gets the turn at once");
    cr_assert_eq(g.pub.phase, LIT_PHASE_PLAY);
    cr_assert_eq(g.pub.score[0], 2);
    cr_assert_eq(g.pub.actions, 3);
}

/* after-claim=team (001) and reading 5: the claimer makes one choose action
 * naming a teammate with cards, itself included. */
Test(after_claim, team_the_claimer_chooses_the_next_asker)
{
    LitGame g;
    game_from(&g, "classic after-claim=team", 1, OPT6);
    ANSWER(&g, claim_true(&g, 1, "ld"), LIT_WON);
    cr_assert_eq(g.pub.phase, LIT_PHASE_CHOOSE_ASKER);
    cr_assert_eq(turn_of(&g), 1);
    EXPECT(&g, ask(&g, 1, 2, "5h"), LIT_MUST_CHOOSE);
    EXPECT(&g, pass_to(1, 3), LIT_MUST_CHOOSE);
    EXPECT(&g, choose(1, 2), LIT_PASS_TO_OPPONENT);
    EXPECT(&g, choose(3, 3), LIT_NOT_YOUR_TURN);
    LitAction out[LIT_MAX_LEGAL];
    cr_assert_eq(lit_game_legal(&g, 0, out, LIT_MAX_LEGAL), 3);
    for (int i = 0; i < 3; i++) {
        cr_assert_eq(out[i].kind, LIT_CHOOSE);
        cr_assert_eq(out[i].target, 2 * i);
    }
    /* claiming again in choose-asker is allowed */
    ANSWER(&g, claim_true(&g, 1, "hh"), LIT_WON);
    cr_assert_eq(g.pub.phase, LIT_PHASE_CHOOSE_ASKER);
    cr_assert_eq(turn_of(&g), 1);
    LitGame self = g;
    OK(&g, choose(1, 3));
    cr_assert_eq(turn_of(&g), 3);
    cr_assert_eq(g.pub.phase, LIT_PHASE_PLAY);
    EXPECT(&g, choose(3, 1), LIT_NOTHING_TO_CHOOSE);
    OK(&self, choose(1, 1));
    cr_assert_eq(turn_of(&self), 1);
    cr_assert_eq(self.pub.phase, LIT_PHASE_PLAY);
    cr_assert_eq(self.pub.actions, 3);
}

/* after-claim=team: a teammate with no cards cannot be chosen; an opponent
 * with cards neither. */
Test(after_claim, team_choice_of_a_teammate_without_cards)
{
    LitGame g;
    game_from(&g, "classic after-claim=team", 1, R8);
    ANSWER(&g, claim(&g, 1, "lc", "1:2c,3c,4c,5c,6c 5:7c"), LIT_WON);
    cr_assert_eq(g.pub.phase, LIT_PHASE_CHOOSE_ASKER);
    EXPECT(&g, choose(1, 5), LIT_TARGET_EMPTY);
    EXPECT(&g, choose(1, 4), LIT_PASS_TO_OPPONENT);
    cr_assert_eq(legal_count(&g, 1), 2, "seats 1 and 3");
    OK(&g, choose(1, 1));
    cr_assert_eq(turn_of(&g), 1);
}

/* RULES "A choice or pass with a single candidate is made by the engine at
 * once": after-claim=team with one teammate holding cards. */
Test(after_claim, team_choice_is_automatic_with_one_candidate)
{
    LitGame g;
    game_from(&g, "classic after-claim=team", 1, AT6);
    ANSWER(&g, claim_true(&g, 1, "hh"), LIT_WON);
    cr_assert_eq(g.pub.phase, LIT_PHASE_CHOOSE_ASKER, "seats 1 and 3 have cards");
    OK(&g, choose(1, 1));
    ANSWER(&g, claim(&g, 1, "lc", "1:2c,3c 3:4c,5c,6c,7c"), LIT_WON);
    cr_assert_eq(turn_of(&g), 3);
    cr_assert_eq(g.pub.phase, LIT_PHASE_PLAY);
    cr_assert_eq(g.pub.actions, 3, "the single choice is no action");
}

/* ---- bluff --------------------------------------------------------------- */

/* bluff=off (000): asking for a held card is own_card; with a single card of
 * the set no_base_card comes first. */
Test(bluff, off_refuses_a_held_card)
{
    LitGame g;
    game_from(&g, "classic", 1, OPT6);
    EXPECT(&g, ask(&g, 1, 2, "2h"), LIT_OWN_CARD);
    EXPECT(&g, ask(&g, 1, 2, "2c"), LIT_NO_BASE_CARD);
    cr_assert_eq(lit_popcount(lit_askable(&g.pub, g.hands[0])), 20);
    cr_assert_eq(legal_count(&g, 1), 60);
}

/* bluff=on (001, 003) and reading 1: a held card may be asked for and always
 * misses, but the asker needs another card of the set. */
Test(bluff, on_a_held_card_is_asked_and_misses)
{
    LitGame g;
    game_from(&g, "classic bluff=on", 1, OPT6);
    EXPECT(&g, ask(&g, 1, 2, "2c"), LIT_NO_BASE_CARD);
    uint64_t askable = lit_askable(&g.pub, g.hands[0]);
    cr_assert_eq(lit_popcount(askable), 29);
    cr_assert(askable & cards_of(LIT_DECK_NO8, "2h 2d 9s"));
    cr_assert_eq(askable & cards_of(LIT_DECK_NO8, "2c"), 0u, "the only low club");
    cr_assert_eq(legal_count(&g, 1), 87);
    ANSWER(&g, ask(&g, 1, 2, "2h"), LIT_MISS);
    cr_assert_eq(turn_of(&g), 2);
    cr_assert(g.hands[0] & cards_of(LIT_DECK_NO8, "2h"), "the card stays with the asker");
    ANSWER(&g, ask(&g, 2, 3, "3c"), LIT_MISS);
    cr_assert_eq(turn_of(&g), 3);
    EXPECT(&g, ask(&g, 3, 2, "Jd"), LIT_NO_BASE_CARD);
    EXPECT(&g, ask(&g, 3, 2, "7h"), LIT_NO_BASE_CARD);
}

/* ---- must-claim (001, 003) ----------------------------------------------- */

/* must-claim=on: the seat on turn holding a whole live set must claim it;
 * asks and passes are must_claim and nothing is listed as legal. */
Test(must_claim, on_the_holder_of_a_whole_set_must_claim)
{
    LitGame g;
    game_from(&g, "classic must-claim=on pass-play=on", 4, OPT6);
    cr_assert_eq(lit_whole_sets(&g.pub, g.hands[3]), set_bit(&g, "hc"));
    EXPECT(&g, ask(&g, 4, 1, "9d"), LIT_MUST_CLAIM);
    EXPECT(&g, ask(&g, 4, 2, "9d"), LIT_MUST_CLAIM);
    EXPECT(&g, pass_to(4, 2), LIT_MUST_CLAIM);
    EXPECT(&g, pass_to(4, 4), LIT_MUST_CLAIM);
    EXPECT(&g, ask(&g, 5, 2, "9d"), LIT_NOT_YOUR_TURN);
    cr_assert_eq(legal_count(&g, 4), 0);
    ANSWER(&g, claim_true(&g, 4, "hc"), LIT_WON);
    cr_assert_eq(turn_of(&g), 4);
    cr_assert(legal_count(&g, 4) > 0);
    ANSWER(&g, ask(&g, 4, 1, "9d"), LIT_HIT);

    game_from(&g, "classic must-claim=on", 4, OPT6);
    EXPECT(&g, pass_to(4, 2), LIT_PASS_NOT_ALLOWED);
    EXPECT(&g, choose(4, 2), LIT_NOTHING_TO_CHOOSE);

    game_from(&g, "classic pass-play=on", 4, OPT6);
    LitAction a = ask(&g, 4, 1, "9d");
    cr_assert_eq(lit_game_check(&g, &a), LIT_OK, "must-claim=off");
}

/* must-claim=on also refuses the choice of the next asker. */
Test(must_claim, on_refuses_choices_until_claimed)
{
    LitGame g;
    game_from(&g, "classic must-claim=on after-claim=team", 3, AT6);
    EXPECT(&g, ask(&g, 3, 4, "2c"), LIT_MUST_CLAIM);
    ANSWER(&g, claim(&g, 3, "lc", "1:2c,3c 3:4c,5c,6c,7c"), LIT_WON);
    cr_assert_eq(g.pub.phase, LIT_PHASE_CHOOSE_ASKER);
    EXPECT(&g, choose(3, 5), LIT_MUST_CLAIM);
    cr_assert_eq(legal_count(&g, 3), 0);
    ANSWER(&g, claim(&g, 3, "ld", "3:2d,3d,4d,5d,6d,7d"), LIT_WON);
    cr_assert_eq(turn_of(&g), 5);
    cr_assert_eq(g.pub.phase, LIT_PHASE_PLAY);
    EXPECT(&g, ask(&g, 5, 2, "9c"), LIT_MUST_CLAIM);
    cr_assert_eq(legal_count(&g, 5), 0);
    ANSWER(&g, claim_true(&g, 5, "hh"), LIT_WON);
    cr_assert_eq(g.pub.score[0], 3);
}

/* ---- double-high (001, 003) ---------------------------------------------- */

/* Set values and deck totals: high half-suits 2, every other set 1. */
Test(double_high, set_values)
{
    static const struct {
        const char *rules;
        int total;
    } cases[] = {
        {"classic", 8},           {"india", 12},
        {"india deck=no7", 12},   {"india deck=no2", 12},
        {"jokers", 9},            {"jokers double-high=on", 13},
        {"quartets", 13},         {"quartets double-high=on", 13},
    };
    for (int i = 0; i < 8; i++) {
        LitRules r = rules_of(cases[i].rules);
        cr_assert_eq(lit_rules_total_points(&r), cases[i].total, "%s", cases[i].rules);
        for (int s = 0; s < lit_deck_sets(r.deck); s++) {
            int high = r.double_high && r.deck != LIT_DECK_QUARTETS && s < 8 && (s & 1);
            cr_assert_eq(lit_rules_set_value(&r, s), high ? 2 : 1, "%s set %d",
                         cases[i].rules, s);
        }
    }
}

/* double-high=on: the team with more points wins though sets are 4-4. */
Test(double_high, points_decide_not_sets)
{
    static const char *const deal[6] = {
        "2c 3c 4c 5c 6c 7c 9c Tc Jc Qc Kc Ac", /* 1: lc hc */
        "2d 3d 4d 5d 6d 7d 2h 3h 4h 5h 6h 7h", /* 2: ld lh */
        "9d Td Jd Qd Kd Ad",                   /* 3: hd */
        "2s 3s 4s 5s 6s 7s",                   /* 4: ls */
        "9h Th Jh Qh Kh Ah",                   /* 5: hh */
        "9s Ts Js Qs Ks As",                   /* 6: hs */
    };
    static const struct {
        const char *rules;
        int a, b, result;
    } cases[] = {{"india", 7, 5, LIT_WIN_A}, {"classic", 4, 4, LIT_DRAW}};
    for (int i = 0; i < 2; i++) {
        LitGame g;
        game_from(&g, cases[i].rules, 1, deal);
        ANSWER(&g, claim_true(&g, 1, "hd"), LIT_WON);
        ANSWER(&g, claim_true(&g, 1, "hh"), LIT_WON);
        ANSWER(&g, claim_true(&g, 1, "lc"), LIT_WON);
        ANSWER(&g, claim_true(&g, 1, "hc"), LIT_WON);
        OK(&g, choose(1, 2));
        static const char *const b[] = {"ld", "lh", "ls", "hs"};
        for (int k = 0; k < 4; k++)
            ANSWER(&g, claim_true(&g, 2, b[k]), LIT_WON);
        cr_assert_eq(g.pub.score[0], cases[i].a, "%s", cases[i].rules);
        cr_assert_eq(g.pub.score[1], cases[i].b, "%s", cases[i].rules);
        cr_assert_eq(g.pub.result, cases[i].result, "%s", cases[i].rules);
    }
}

/* double-high under no7: the high set is 8-K. */
Test(double_high, no7_high_set_scores_two)
{
    static const char *const deal[6] = {
        "Ac 2c 3c 4c 5c 6c 8c 9c Tc Jc Qc Kc", "Ad 2d 3d 4d 5d 6d",
        "8d 9d Td Jd Qd Kd", "Ah 2h 3h 4h 5h 6h 8h 9h Th Jh Qh Kh",
        "As 2s 3s 4s 5s 6s", "8s 9s Ts Js Qs Ks",
    };
    LitGame g;
    game_from(&g, "india deck=no7", 1, deal);
    ANSWER(&g, claim(&g, 1, "hc", "1:8c,9c,Tc,Jc,Qc,Kc"), LIT_WON);
    cr_assert_eq(g.pub.score[0], 2);
    ANSWER(&g, claim(&g, 1, "lc", "1:Ac,2c,3c,4c,5c,6c"), LIT_WON);
    cr_assert_eq(g.pub.score[0], 3);
}

/* ---- first --------------------------------------------------------------- */

/* first=dealer (000 "The dealer takes the first turn") and first=left (003
 * "The player next to the dealer begins"), also in the encyclopedia preset. */
Test(first, dealer_or_left)
{
    LitGame g;
    game_from(&g, "classic", 3, OPT6);
    cr_assert_eq(turn_of(&g), 3);
    game_from(&g, "classic first=left", 3, OPT6);
    cr_assert_eq(turn_of(&g), 4);
    game_from(&g, "classic first=left", 6, OPT6);
    cr_assert_eq(turn_of(&g), 1, "the seat after seat 6 is seat 1");
    static const char *const no2[6] = {
        "3c 4c 5c 6c 7c 8c", "9c Tc Jc Qc Kc Ac", "3d 4d 5d 6d 7d 8d",
        "9d Td Jd Qd Kd Ad", "3h 4h 5h 6h 7h 8h 9h Th Jh Qh Kh Ah",
        "3s 4s 5s 6s 7s 8s 9s Ts Js Qs Ks As"};
    game_from(&g, "encyclopedia", 6, no2);
    cr_assert_eq(g.pub.rules.deck, LIT_DECK_NO2);
    cr_assert_eq(g.pub.rules.misclaim, LIT_MISCLAIM_POINT_OFF);
    cr_assert_eq(turn_of(&g), 1);
    LitRules r = rules_of("classic first=left players=8");
    cr_assert_eq(lit_game_new(&g, &r, 3, 7), LIT_OK);
    cr_assert_eq(turn_of(&g), 1);
}

/* ---- pass-play (002) ----------------------------------------------------- */

/* pass-play=on: the seat on turn may hand the turn to a teammate with cards;
 * off: pass_not_allowed. */
Test(pass_play, on_and_off)
{
    LitGame g;
    game_from(&g, "classic", 1, R8);
    EXPECT(&g, pass_to(1, 3), LIT_PASS_NOT_ALLOWED);
    EXPECT(&g, pass_to(1, 1), LIT_PASS_NOT_ALLOWED);
    LitAction out[LIT_MAX_LEGAL];
    int n = lit_game_legal(&g, 0, out, LIT_MAX_LEGAL);
    for (int i = 0; i < n; i++)
        cr_assert_eq(out[i].kind, LIT_ASK);

    game_from(&g, "classic pass-play=on", 1, R8);
    EXPECT(&g, pass_to(1, 1), LIT_PASS_TO_SELF);
    EXPECT(&g, pass_to(1, 2), LIT_PASS_TO_OPPONENT);
    EXPECT(&g, pass_to(1, 4), LIT_PASS_TO_OPPONENT);
    EXPECT(&g, pass_to(3, 5), LIT_NOT_YOUR_TURN);
    ANSWER(&g, claim(&g, 1, "lc", "1:2c,3c,4c,5c,6c 5:7c"), LIT_WON);
    EXPECT(&g, pass_to(1, 5), LIT_TARGET_EMPTY);
    n = lit_game_legal(&g, 0, out, LIT_MAX_LEGAL);
    cr_assert(n >= 2);
    cr_assert_eq(out[n - 1].kind, LIT_PASS, "passes come after the asks");
    cr_assert_eq(out[n - 1].target, 2);
    cr_assert_eq(out[n - 2].kind, LIT_ASK, "one pass only: to seat 3");
    OK(&g, pass_to(1, 3));
    cr_assert_eq(turn_of(&g), 3);
    cr_assert_eq(g.pub.phase, LIT_PHASE_PLAY);
    OK(&g, pass_to(3, 1));
    cr_assert_eq(turn_of(&g), 1);
    cr_assert_eq(g.pub.actions, 3);
}

/* ---- the order of checks ------------------------------------------------- */

/* RULES "Order of checks": the first failing check names the status. */
Test(order, of_checks_for_asks_and_claims)
{
    LitGame g;
    game_from(&g, "classic", 1, OPT6);
    /* not your turn beats own card */
    EXPECT(&g, ask(&g, 2, 1, "5h"), LIT_NOT_YOUR_TURN);
    /* ask teammate beats own card and no base card */
    EXPECT(&g, ask(&g, 1, 3, "2h"), LIT_ASK_TEAMMATE);
    EXPECT(&g, ask(&g, 1, 3, "Jc"), LIT_ASK_TEAMMATE);
    EXPECT(&g, ask(&g, 1, 1, "2h"), LIT_ASK_TEAMMATE);
    /* no base card beats own card */
    EXPECT(&g, ask(&g, 1, 2, "2c"), LIT_NO_BASE_CARD);
    /* malformed beats not your turn; bad action beats bad seat */
    LitAction a = ask(&g, 2, 1, "5h");
    a.target = 8;
    EXPECT(&g, a, LIT_BAD_SEAT);
    a = ask(&g, 2, 1, "5h");
    a.card = 50;
    EXPECT(&g, a, LIT_BAD_CARD);
    a.kind = 0;
    a.seat = 40;
    EXPECT(&g, a, LIT_BAD_ACTION);
    /* claims */
    LitAction c = claim_true(&g, 2, "hc");
    c.set = 8;
    EXPECT(&g, c, LIT_BAD_SET);
    c = claim_true(&g, 2, "hc");
    c.holders[0] = 6;
    EXPECT(&g, c, LIT_BAD_SEAT);
    EXPECT(&g, claim(&g, 2, "lh", "2:5h,6h"), LIT_NOT_YOUR_TURN);
    EXPECT(&g, claim(&g, 1, "lh", "1:2h,3h,4h 2:5h"), LIT_CLAIM_INCOMPLETE);
    ANSWER(&g, claim_true(&g, 1, "ld"), LIT_WON);
    EXPECT(&g, claim(&g, 2, "ld", "2:2d"), LIT_NOT_YOUR_TURN);
    EXPECT(&g, claim(&g, 1, "ld", "1:2d 2:3d"), LIT_SET_CLAIMED);
    /* set claimed beats no base card */
    EXPECT(&g, ask(&g, 1, 2, "4d"), LIT_SET_CLAIMED);
    /* the phase beats the action's own rules */
    EXPECT(&g, pass_to(1, 1), LIT_PASS_NOT_ALLOWED);
    EXPECT(&g, choose(1, 2), LIT_NOTHING_TO_CHOOSE);
}

/* RULES "Order of checks": target_empty beats set_claimed and own_card;
 * pass_to_opponent beats target_empty; the phase beats the rest. */
Test(order, of_checks_with_empty_seats)
{
    static const char *const deal[6] = {
        "3c 4c 5c 6c 2d 3d 9h",
        "2c",
        "4d 5d 6d 7d Th Jh Qh Kh Ah",
        "9c Tc Jc Qc Kc Ac 9d Td Jd Qd Kd Ad",
        "7c",
        "2h 3h 4h 5h 6h 7h 2s 3s 4s 5s 6s 7s 9s Ts Js Qs Ks As",
    };
    LitGame g;
    game_from(&g, "classic pass-play=on", 1, deal);
    ANSWER(&g, ask(&g, 1, 2, "2c"), LIT_HIT);
    ANSWER(&g, claim(&g, 1, "lc", "1:2c,3c,4c,5c,6c 5:7c"), LIT_WON);
    cr_assert_eq(g.pub.counts[1], 0);
    cr_assert_eq(g.pub.counts[4], 0);
    cr_assert_eq(lit_targets(&g.pub, 0), (1u << 3) | (1u << 5));
    EXPECT(&g, ask(&g, 1, 2, "7c"), LIT_TARGET_EMPTY);
    EXPECT(&g, ask(&g, 1, 2, "2d"), LIT_TARGET_EMPTY);
    EXPECT(&g, ask(&g, 1, 4, "7c"), LIT_SET_CLAIMED);
    EXPECT(&g, ask(&g, 1, 5, "7c"), LIT_ASK_TEAMMATE);
    EXPECT(&g, pass_to(1, 2), LIT_PASS_TO_OPPONENT);
    EXPECT(&g, pass_to(1, 5), LIT_TARGET_EMPTY);
    EXPECT(&g, pass_to(1, 1), LIT_PASS_TO_SELF);

    game_from(&g, "classic after-claim=team", 1, deal);
    ANSWER(&g, ask(&g, 1, 2, "2c"), LIT_HIT);
    ANSWER(&g, claim(&g, 1, "lc", "1:2c,3c,4c,5c,6c 5:7c"), LIT_WON);
    cr_assert_eq(g.pub.phase, LIT_PHASE_CHOOSE_ASKER);
    EXPECT(&g, choose(1, 2), LIT_PASS_TO_OPPONENT);
    EXPECT(&g, choose(1, 5), LIT_TARGET_EMPTY);
    EXPECT(&g, ask(&g, 1, 4, "9c"), LIT_MUST_CHOOSE);
    EXPECT(&g, ask(&g, 3, 4, "9c"), LIT_NOT_YOUR_TURN);
}

/* RULES "Order of checks" 1: game_over beats everything. */
Test(order, game_over_beats_everything)
{
    LitGame g;
    game_from(&g, "classic split-claims=on early-end=on", 1, OPT6);
    static const char *const sets[] = {"lc", "hc", "ld", "hd", "lh"};
    for (int i = 0; i < 5; i++)
        ANSWER(&g, claim_true(&g, 1, sets[i]), LIT_WON);
    cr_assert_eq(g.pub.result, LIT_WIN_A);
    EXPECT(&g, ask(&g, 2, 1, "5h"), LIT_GAME_OVER);
    EXPECT(&g, claim_true(&g, 4, "lc"), LIT_GAME_OVER);
    LitAction a = ask(&g, 2, 3, "9s");
    a.kind = 0;
    a.seat = 40;
    a.card = 60;
    EXPECT(&g, a, LIT_GAME_OVER);
    LitAction c = claim_true(&g, 1, "hh");
    c.set = 12;
    EXPECT(&g, c, LIT_GAME_OVER);
    EXPECT(&g, pass_to(1, 1), LIT_GAME_OVER);
    EXPECT(&g, choose(1, 2), LIT_GAME_OVER);
}

/* ---- the queries --------------------------------------------------------- */

/* lit_claimable, lit_whole_sets, lit_targets, lit_askable on OPT6. */
Test(queries, claimable_whole_sets_targets_askable)
{
    LitGame g;
    game_from(&g, "classic", 1, OPT6);
    const LitPublic *p = &g.pub;
    cr_assert_eq(lit_claimable(p, 0), 0xFFu);
    cr_assert_eq(lit_claimable(p, 1), 0u);
    cr_assert_eq(lit_claimable(p, -1), 0u);
    cr_assert_eq(lit_claimable(p, 6), 0u);
    cr_assert_eq(lit_claimable(p, 12), 0u);

    cr_assert_eq(lit_whole_sets(p, g.hands[0]), 0u);
    cr_assert_eq(lit_whole_sets(p, g.hands[3]), 1u << 1);
    cr_assert_eq(lit_whole_sets(p, g.hands[4]), 1u << 5);
    cr_assert_eq(lit_whole_sets(p, g.hands[5]), 1u << 6);
    cr_assert_eq(lit_whole_sets(p, g.hands[0] | g.hands[2] | g.hands[4]),
                 (1u << 2) | (1u << 5), "team A holds ld and hh");

    cr_assert_eq(lit_targets(p, 0), 0x2Au);
    cr_assert_eq(lit_targets(p, 2), 0x2Au);
    cr_assert_eq(lit_targets(p, 1), 0x15u);

    uint64_t want = cards_of(LIT_DECK_NO8,
                             "4d 5d 6d 7d Jd Qd Kd Ad 5h 6h 7h 3c 4c 5c 6c 7c Js Qs Ks As");
    cr_assert_eq(lit_askable(p, g.hands[0]), want);
    cr_assert_eq(lit_askable(p, g.hands[5]), 0u, "seat 6 holds its whole set only");
    cr_assert_eq(lit_askable(p, 0), 0u);

    ANSWER(&g, claim_true(&g, 1, "ld"), LIT_WON);
    cr_assert_eq(lit_claimable(p, 0), 0xFFu & ~(1u << 2));
    cr_assert_eq(lit_askable(p, g.hands[0]),
                 want & ~cards_of(LIT_DECK_NO8, "4d 5d 6d 7d"));
    cr_assert_eq(lit_whole_sets(p, cards_of(LIT_DECK_NO8, "2d 3d 4d 5d 6d 7d")), 0u,
                 "a claimed set is not live");
    /* seat 1 empties seat 2: it is no target any more */
    static const char *const take[] = {"Js", "Qs", "Kd", "5h", "6h", "3c"};
    for (int i = 0; i < 6; i++)
        ANSWER(&g, ask(&g, 1, 2, take[i]), LIT_HIT);
    cr_assert_eq(lit_targets(p, 0), 0x2Au);
    ANSWER(&g, ask(&g, 1, 2, "4c"), LIT_HIT);
    cr_assert_eq(g.pub.counts[1], 0);
    cr_assert_eq(lit_targets(p, 0), 0x28u);
    cr_assert_eq(lit_targets(p, 4), 0x28u);
    cr_assert_eq(lit_targets(p, 3), 0x15u);
    cr_assert_eq(lit_whole_sets(p, g.hands[0]), 0u);
    cr_assert_eq(lit_whole_sets(p, g.hands[0] | g.hands[2]), 0x91u,
                 "seats 1 and 3 now hold lc, lh and hs between them");
}

/* ---- display rules ------------------------------------------------------- */

/* Reading 12 and RULES "Display rules (not information limits)": under
 * counts=hidden and history=last every view still has every hand size and
 * the whole history. */
Test(display, hidden_counts_and_last_history_limit_no_view)
{
    LitGame g;
    game_from(&g, "classic counts=hidden history=last", 1, OPT6);
    cr_assert_eq(g.pub.rules.counts, LIT_COUNTS_HIDDEN);
    cr_assert_eq(g.pub.rules.history, LIT_HISTORY_LAST);
    LitEvent buf[4];
    LitLog log;
    lit_log_init(&log, buf, 4);
    LitAction a = ask(&g, 1, 2, "5h");
    cr_assert_eq(lit_game_play(&g, &log, &a), LIT_OK);
    a = ask(&g, 1, 2, "Kd");
    cr_assert_eq(lit_game_play(&g, &log, &a), LIT_OK);
    LitView v, pub;
    cr_assert_eq(lit_view_make(&v, &g, &log, 2), LIT_OK);
    cr_assert_eq(lit_view_make(&pub, &g, &log, LIT_NOBODY), LIT_OK);
    cr_assert_eq(v.history_len, 2, "the whole history, not only the last question");
    cr_assert_eq(pub.history_len, 2);
    cr_assert_eq(v.pub.counts[0], 12);
    cr_assert_eq(v.pub.counts[1], 5);
    a = ask(&g, 1, 4, "Jd");
    cr_assert_eq(lit_game_play(&g, &log, &a), LIT_OK);
    cr_assert_eq(log.events[2].answer, LIT_MISS);
    cr_assert_eq(lit_view_apply(&v, &log.events[2]), LIT_OK);
    cr_assert_eq(lit_view_apply(&pub, &log.events[2]), LIT_OK);
    for (int s = 0; s < 6; s++) {
        cr_assert_eq(v.pub.counts[s], g.pub.counts[s], "seat %d", s + 1);
        cr_assert_eq(pub.pub.counts[s], g.pub.counts[s], "seat %d", s + 1);
    }
    cr_assert_eq(v.pub.turn, 3);
    cr_assert_eq(v.hand, g.hands[2]);
}
