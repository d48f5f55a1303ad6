/* test_cards.c - the bit layout of every deck, card and set names. */
#include <criterion/criterion.h>
#include <string.h>

#include "helpers.h"
#include "literature/cards.h"
#include "literature/rng.h"

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

/* The k-th lowest bit by clearing the lowest bit k times: the definition
 * lit_nth_card computes without a loop. */
static int nth_by_loop(uint64_t x, int k)
{
    while (k-- > 0)
        x &= x - 1;
    return lit_lsb(x);
}

Test(cards, select_in_byte_table_is_its_definition)
{
    for (int b = 0; b < 256; b++)
        for (int r = 0; r < lit_popcount((uint64_t)b); r++)
            cr_assert_eq(lit_select_in_byte[b][r], nth_by_loop((uint64_t)b, r), "byte %d rank %d",
                         b, r);
}

Test(cards, nth_card_agrees_with_the_loop)
{
    /* Every byte in every place, and masks of every density: sparse and
     * dense random words, with a bit forced into the top byte or not. */
    for (int b = 1; b < 256; b++)
        for (int place = 0; place < 64; place += 8)
            for (int k = 0; k < lit_popcount((uint64_t)b); k++) {
                uint64_t x = (uint64_t)b << place;
                cr_assert_eq(lit_nth_card(x, k), nth_by_loop(x, k), "x %#llx k %d",
                             (unsigned long long)x, k);
            }
    LitRng rng;
    lit_rng_seed(&rng, 7);
    for (int i = 0; i < 200000; i++) {
        uint64_t x = lit_rng_next(&rng);
        switch (i % 4) {
        case 0: x &= lit_rng_next(&rng) & lit_rng_next(&rng); break;
        case 1: x |= lit_rng_next(&rng) | lit_rng_next(&rng); break;
        case 2: x = (x & lit_rng_next(&rng)) | UINT64_C(1) << 63; break;
        default: break;
        }
        if (!x)
            continue;
        for (int k = 0; k < lit_popcount(x); k++)
            cr_assert_eq(lit_nth_card(x, k), nth_by_loop(x, k), "x %#llx k %d",
                         (unsigned long long)x, k);
    }
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
