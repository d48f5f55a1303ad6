/* test_cards.c - the bit layout of every deck, card and set names. */
#include <criterion/criterion.h>
#include <string.h>

#include "helpers.h"
#include "literature/cards.h"

Test(cards, deck_sizes)
{
    int cards[] = {48, 48, 48, 54, 52}, sets[] = {8, 8, 8, 9, 13}, size[] = {6, 6, 6, 6, 4};
    for (int d = 0; d < LIT_DECK_COUNT; d++) {
        cr_assert_eq(lit_deck_cards(d), cards[d]);
        cr_assert_eq(lit_deck_sets(d), sets[d]);
        cr_assert_eq(lit_deck_set_size(d), size[d]);
        cr_assert_eq(lit_deck_sets(d) * lit_deck_set_size(d), lit_deck_cards(d));
    }
}

Test(cards, sets_are_contiguous_and_partition_the_deck)
{
    for (int d = 0; d < LIT_DECK_COUNT; d++) {
        uint64_t all = 0;
        for (int s = 0; s < lit_deck_sets(d); s++) {
            uint64_t m = lit_set_mask(d, s);
            cr_assert_eq(all & m, 0);
            all |= m;
            /* contiguous: m >> lowest bit is 2^size - 1 */
            cr_assert_eq(m >> lit_lsb(m), (UINT64_C(1) << lit_deck_set_size(d)) - 1);
            cr_assert_eq(lit_lsb(m), s * lit_deck_set_size(d));
            for (uint64_t x = m; x;) {
                int c = lit_pop_lsb(&x);
                cr_assert_eq(lit_set_of(d, c), s);
                cr_assert_eq(lit_set_first(d, s) + lit_pos_of(d, c), c);
            }
        }
        cr_assert_eq(all, lit_deck_mask(d));
    }
}

Test(cards, default_layout)
{
    const char *order = "2c 3c 4c 5c 6c 7c 9c Tc Jc Qc Kc Ac 2d 3d 4d 5d 6d 7d "
                        "9d Td Jd Qd Kd Ad 2h 3h 4h 5h 6h 7h 9h Th Jh Qh Kh Ah "
                        "2s 3s 4s 5s 6s 7s 9s Ts Js Qs Ks As";
    char buf[256] = "";
    for (int c = 0; c < 48; c++) {
        if (c)
            strcat(buf, " ");
        strcat(buf, lit_card_name(LIT_DECK_NO8, c));
    }
    cr_assert_str_eq(buf, order);
}

Test(cards, each_deck_holds_the_right_ranks)
{
    /* The rank missing from each 48-card deck cannot be parsed. */
    cr_assert_eq(lit_card_parse(LIT_DECK_NO8, "8h", 2), LIT_BAD_CARD);
    cr_assert_eq(lit_card_parse(LIT_DECK_NO2, "2h", 2), LIT_BAD_CARD);
    cr_assert_eq(lit_card_parse(LIT_DECK_NO7, "7h", 2), LIT_BAD_CARD);
    cr_assert_eq(lit_card_parse(LIT_DECK_NO8, "JK1", 3), LIT_BAD_CARD);
    cr_assert_eq(lit_card_parse(LIT_DECK_QUARTETS, "JK2", 3), LIT_BAD_CARD);
    /* no2: low 3-8, high 9-A */
    cr_assert_eq(lit_set_of(LIT_DECK_NO2, lit_card_parse(LIT_DECK_NO2, "8s", 2)),
                 lit_set_parse(LIT_DECK_NO2, "low-spades", 10));
    /* no7: ace low, 8 high */
    int ah = lit_card_parse(LIT_DECK_NO7, "Ah", 2), eh = lit_card_parse(LIT_DECK_NO7, "8h", 2);
    cr_assert_eq(lit_set_of(LIT_DECK_NO7, ah), lit_set_parse(LIT_DECK_NO7, "low-hearts", 10));
    cr_assert_eq(lit_pos_of(LIT_DECK_NO7, ah), 0);
    cr_assert_eq(lit_set_of(LIT_DECK_NO7, eh), lit_set_parse(LIT_DECK_NO7, "high-hearts", 11));
    cr_assert(lit_set_is_high(LIT_DECK_NO7, lit_set_of(LIT_DECK_NO7, eh)));
    /* jokers: the ninth set */
    int j1 = lit_card_parse(LIT_DECK_JOKERS, "JK1", 3);
    cr_assert_eq(j1, 52);
    cr_assert_eq(lit_set_of(LIT_DECK_JOKERS, j1), 8);
    cr_assert_eq(lit_card_parse(LIT_DECK_JOKERS, "8c", 2), 48);
    cr_assert_str_eq(lit_set_name(LIT_DECK_JOKERS, 8), "eights-jokers");
    cr_assert_eq(lit_set_is_high(LIT_DECK_JOKERS, 8), 0);
    /* quartets: set = rank */
    int qs = lit_card_parse(LIT_DECK_QUARTETS, "Qs", 2);
    cr_assert_eq(lit_set_of(LIT_DECK_QUARTETS, qs), 10);
    cr_assert_str_eq(lit_set_name(LIT_DECK_QUARTETS, 10), "queens");
    cr_assert_eq(lit_pos_of(LIT_DECK_QUARTETS, qs), 3);
}

Test(cards, names_round_trip_in_every_deck)
{
    for (int d = 0; d < LIT_DECK_COUNT; d++) {
        for (int c = 0; c < lit_deck_cards(d); c++) {
            const char *n = lit_card_name(d, c);
            cr_assert_eq(lit_card_parse(d, n, strlen(n)), c, "%s", n);
        }
        for (int s = 0; s < lit_deck_sets(d); s++) {
            const char *n = lit_set_name(d, s), *sh = lit_set_short(d, s);
            cr_assert_eq(lit_set_parse(d, n, strlen(n)), s);
            cr_assert_eq(lit_set_parse(d, sh, strlen(sh)), s);
        }
    }
}

Test(cards, accepted_spellings)
{
    int d = LIT_DECK_NO8, ts = lit_card_parse(d, "Ts", 2);
    cr_assert_eq(lit_card_parse(d, "10s", 3), ts);
    cr_assert_eq(lit_card_parse(d, "tS", 2), ts);
    cr_assert_eq(lit_card_parse(d, "11s", 3), LIT_BAD_CARD);
    cr_assert_eq(lit_card_parse(d, "Ts ", 3), LIT_BAD_CARD);
    cr_assert_eq(lit_card_parse(d, "", 0), LIT_BAD_CARD);
    cr_assert_eq(lit_card_parse(d, "Zs", 2), LIT_BAD_CARD);
    cr_assert_eq(lit_card_parse(d, "Tx", 2), LIT_BAD_CARD);
    cr_assert_eq(lit_set_parse(d, "LOW-HEARTS", 10), 4);
    cr_assert_eq(lit_set_parse(d, "lh", 2), 4);
    cr_assert_eq(lit_set_parse(d, "low-heart", 9), LIT_BAD_SET);
    cr_assert_eq(lit_set_parse(d, "eights-jokers", 13), LIT_BAD_SET);
}

Test(cards, bit_helpers)
{
    cr_assert_eq(lit_popcount(0), 0);
    cr_assert_eq(lit_popcount(UINT64_MAX), 64);
    cr_assert_eq(lit_lsb(UINT64_C(1) << 53), 53);
    cr_assert_eq(lit_nth_card(0x2A, 0), 1);
    cr_assert_eq(lit_nth_card(0x2A, 2), 5);
    uint64_t x = 0x30;
    cr_assert_eq(lit_pop_lsb(&x), 4);
    cr_assert_eq(x, 0x20);
    cr_assert_eq(lit_sets_touched(LIT_DECK_NO8, lit_bit(7) | lit_bit(13)),
                 lit_set_mask(LIT_DECK_NO8, 1) | lit_set_mask(LIT_DECK_NO8, 2));
}
