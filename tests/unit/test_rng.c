/* test_rng.c - the frozen generator and deal: test vectors. A change here
 * breaks every shared seed: never update these values. */
#include <criterion/criterion.h>

#include "helpers.h"
#include "literature/rng.h"

Test(rng, vectors)
{
    LitRng r;
    lit_rng_seed(&r, 0);
    /* the state starts with splitmix64's published first output for seed 0 */
    cr_assert_eq(r.s[0], UINT64_C(0xe220a8397b1dcdaf));
    cr_assert_eq(lit_rng_next(&r), UINT64_C(0x99ec5f36cb75f2b4));
    cr_assert_eq(lit_rng_next(&r), UINT64_C(0xbf6e1f784956452a));
    lit_rng_seed(&r, 1);
    cr_assert_eq(lit_rng_next(&r), UINT64_C(0xb3f2af6d0fc710c5));
    cr_assert_eq(lit_seed_mix(1, 0), UINT64_C(0x910a2dec89025cc1));
}

Test(rng, below_is_in_range_and_covers_it)
{
    LitRng r;
    lit_rng_seed(&r, 7);
    int seen[7] = {0};
    for (int i = 0; i < 7000; i++) {
        uint32_t x = lit_rng_below(&r, 7);
        cr_assert_lt(x, 7);
        seen[x]++;
    }
    for (int i = 0; i < 7; i++)
        cr_assert(seen[i] > 800 && seen[i] < 1200, "bucket %d: %d", i, seen[i]);
    cr_assert_eq(lit_rng_below(&r, 1), 0);
}

Test(rng, deal_vector)
{
    /* lit deal --seed 1: classic, 6 players, dealer seat 1. */
    LitRules rules = rules_of("classic");
    uint64_t hands[LIT_MAX_PLAYERS];
    lit_deal(&rules, 1, 0, hands);
    const char *expect[6] = {
        "2c 5c 4d 6d 7h Jh 3s As", "7c Tc 7d 9d Kd Ad 6h 7s",
        "4c 6c Ac Qd 5h 2s 6s 9s", "Jc Kc 3d 5d Th Kh 4s Qs",
        "3c Qc 2d Jd 3h 4h Ah 5s", "9c Td 2h 9h Qh Ts Js Ks"};
    for (int s = 0; s < 6; s++)
        cr_assert_eq(hands[s], cards_of(LIT_DECK_NO8, expect[s]), "seat %d", s + 1);
}

Test(rng, deal_sizes_follow_the_deal_order)
{
    /* 48 cards to 10 players: the 8 seats from the dealer's left get 5. */
    LitRules rules = rules_of("classic players=10");
    uint64_t hands[LIT_MAX_PLAYERS];
    lit_deal(&rules, 99, 3, hands);
    for (int s = 0; s < 10; s++) {
        int offset = (s - 3 - 1 + 10) % 10;
        int want = offset < 8 ? 5 : 4;
        cr_assert_eq(lit_popcount(hands[s]), want, "seat %d", s + 1);
        cr_assert_eq(lit_deal_size(&rules, 3, s), want);
    }
    cr_assert_eq(hands[10], 0);
    cr_assert_eq(hands[11], 0);
}

Test(rng, every_deck_and_count_deals_a_partition)
{
    for (int d = 0; d < LIT_DECK_COUNT; d++) {
        for (int p = 4; p <= 12; p += 2) {
            LitRules rules = rules_of("classic");
            rules.deck = (uint8_t)d;
            rules.players = (uint8_t)p;
            LitGame g;
            cr_assert_eq(lit_game_new(&g, &rules, (uint64_t)(d * 100 + p), p - 1), LIT_OK);
            assert_conserved(&g);
            cr_assert_eq(g.pub.live, lit_deck_mask(d));
        }
    }
}
