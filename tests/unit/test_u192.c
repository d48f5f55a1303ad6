/* test_u192.c - 192-bit counts: exact against values computed with
 * arbitrary-precision integers (Python's int, the values written here). */
#include <criterion/criterion.h>
#include <string.h>

#include "helpers.h"
#include "literature/u192.h"

static LitU192 dec(const char *s)
{
    LitU192 x;
    cr_assert_eq(lit_u192_parse(&x, s, strlen(s)), 0, "parse %s", s);
    return x;
}

static void assert_dec(const LitU192 *x, const char *want)
{
    char buf[LIT_U192_DIGITS + 1];
    cr_assert_eq(lit_u192_format(x, buf, sizeof buf), (int)strlen(want));
    cr_assert_str_eq(buf, want);
}

/* n! / prod(k_i!) as a product of binomials, each built by the exact steps
 * C(m - k + j, j) = C(m - k + j - 1, j - 1) * (m - k + j) / j. */
static LitU192 multinomial(int n, const int *k, int parts)
{
    LitU192 x = lit_u192(1);
    int m = n;
    for (int p = 0; p < parts; p++) {
        LitU192 c = lit_u192(1);
        for (int j = 1; j <= k[p]; j++) {
            LitU192 f = lit_u192((uint64_t)(m - k[p] + j));
            cr_assert_eq(lit_u192_mul(&c, &c, &f), 0);
            cr_assert_eq(lit_u192_divmod_small(&c, &c, (uint32_t)j), 0, "exact division");
        }
        cr_assert_eq(lit_u192_mul(&x, &x, &c), 0);
        m -= k[p];
    }
    return x;
}

Test(u192, known_counts)
{
    int bridge[4] = {13, 13, 13, 13};
    LitU192 x = multinomial(52, bridge, 4);
    assert_dec(&x, "53644737765488792839237440000");
    /* 54 cards to 12 seats (six of 5, six of 4): 169 bits */
    int twelve[12] = {5, 5, 5, 5, 5, 5, 4, 4, 4, 4, 4, 4};
    x = multinomial(54, twelve, 12);
    assert_dec(&x, "404541513620022862083139605711295169042956032000000");
    int five[5] = {8, 8, 8, 8, 8};
    x = multinomial(40, five, 5);
    assert_dec(&x, "7656714453153197981835000");
}

Test(u192, limits_and_overflow)
{
    LitU192 max = {{UINT64_MAX, UINT64_MAX, UINT64_MAX}}, one = lit_u192(1), r;
    assert_dec(&max, "6277101735386680763835789423207666416102355444464034512895");
    cr_assert_eq(lit_u192_add(&r, &max, &one), 1, "2^192 overflows");
    cr_assert(lit_u192_is_zero(&r));
    cr_assert_eq(lit_u192_sub(&r, &one, &max), 1, "no negative numbers");
    cr_assert_eq(lit_u192_sub(&r, &max, &max), 0);
    cr_assert(lit_u192_is_zero(&r));
    LitU192 two = lit_u192(2);
    cr_assert_eq(lit_u192_mul(&r, &max, &two), 1);
    LitU192 p;
    cr_assert_eq(lit_u192_parse(&p, "6277101735386680763835789423207666416102355444464034512896", 58),
                 -1, "2^192 does not parse");
    cr_assert_eq(lit_u192_parse(&p, "12a", 3), -1);
    cr_assert_eq(lit_u192_parse(&p, "", 0), -1);
    assert_dec(&(LitU192){{0, 0, 0}}, "0");
    char small[3];
    cr_assert_eq(lit_u192_format(&max, small, sizeof small), LIT_NO_SPACE);
}

Test(u192, products_carry_across_words)
{
    LitU192 a = dec("5634002667681019492877253272"), /* 0x123456789abcdef0fedcba98 */
        b = dec("78876037347534273871516817016"),  /* 0xfedcba987654321012345678 */
        r;
    cr_assert_eq(a.w[0], UINT64_C(0x9abcdef0fedcba98));
    cr_assert_eq(a.w[1], UINT64_C(0x12345678));
    cr_assert_eq(lit_u192_mul(&r, &a, &b), 0);
    cr_assert_eq(r.w[2], UINT64_C(0x121fa00ad77d7423));
    cr_assert_eq(r.w[1], UINT64_C(0x2273b071d21d5c14));
    cr_assert_eq(r.w[0], UINT64_C(0x8a6a1a0a35068740));
    assert_dec(&r, "444387804832115823820619242893582880551625511202311276352");
}

Test(u192, arithmetic_round_trips)
{
    LitRng rng;
    lit_rng_seed(&rng, 192);
    for (int i = 0; i < 20000; i++) {
        LitU192 a = {{lit_rng_next(&rng), lit_rng_next(&rng), lit_rng_next(&rng) >> 1}};
        LitU192 b = {{lit_rng_next(&rng), lit_rng_next(&rng) >> (i % 64), 0}};
        LitU192 s, d, q;
        /* (a + b) - b == a */
        cr_assert_eq(lit_u192_add(&s, &a, &b), 0);
        cr_assert_eq(lit_u192_sub(&d, &s, &b), 0);
        cr_assert_eq(lit_u192_cmp(&d, &a), 0);
        cr_assert_eq(lit_u192_cmp(&s, &a), lit_u192_is_zero(&b) ? 0 : 1);
        /* (a / m) * m + (a mod m) == a */
        uint32_t m = (uint32_t)(lit_rng_next(&rng) >> 33) + 1;
        uint32_t rem = lit_u192_divmod_small(&q, &a, m);
        cr_assert_lt(rem, m);
        LitU192 mm = lit_u192(m), back, rr = lit_u192(rem);
        cr_assert_eq(lit_u192_mul(&back, &q, &mm), 0);
        cr_assert_eq(lit_u192_add(&back, &back, &rr), 0);
        cr_assert_eq(lit_u192_cmp(&back, &a), 0);
        /* decimal round trip */
        char buf[LIT_U192_DIGITS + 1];
        int n = lit_u192_format(&a, buf, sizeof buf);
        LitU192 p;
        cr_assert_eq(lit_u192_parse(&p, buf, (size_t)n), 0);
        cr_assert_eq(lit_u192_cmp(&p, &a), 0);
        /* small products agree with 64-bit arithmetic */
        uint64_t x = lit_rng_next(&rng) >> 32, y = lit_rng_next(&rng) >> 32;
        LitU192 px = lit_u192(x), py = lit_u192(y), pr;
        cr_assert_eq(lit_u192_mul(&pr, &px, &py), 0);
        cr_assert_eq(pr.w[0], x * y);
        cr_assert_eq(pr.w[1] | pr.w[2], 0);
        /* a full product equals its two word products, the second shifted
         * a word up: a * (b0 + b1 2^64) = a b0 + (a b1) 2^64 */
        LitU192 a2 = {{a.w[0], a.w[1] >> 40, 0}}, b2 = {{b.w[0], b.w[1] >> 40, 0}};
        LitU192 full, lo, hi;
        cr_assert_eq(lit_u192_mul(&full, &a2, &b2), 0);
        cr_assert_eq(lit_u192_mul64(&lo, &a2, b2.w[0]), 0);
        cr_assert_eq(lit_u192_mul64(&hi, &a2, b2.w[1]), 0);
        cr_assert_eq(hi.w[2], 0);
        LitU192 shifted = {{0, hi.w[0], hi.w[1]}};
        cr_assert_eq(lit_u192_add(&lo, &lo, &shifted), 0);
        cr_assert_eq(lit_u192_cmp(&full, &lo), 0);
        LitU192 again;
        cr_assert_eq(lit_u192_mul(&again, &b2, &a2), 0);
        cr_assert_eq(lit_u192_cmp(&full, &again), 0, "a b = b a");
    }
}

Test(u192, doubles_and_ratios)
{
    LitU192 a = dec("404541513620022862083139605711295169042956032000000");
    cr_assert_float_eq(lit_u192_to_double(&a), 4.04541513620022862e50, 1e35);
    LitU192 third = a, three = lit_u192(3);
    cr_assert_eq(lit_u192_divmod_small(&third, &a, 3), 0);
    cr_assert_float_eq(lit_u192_ratio(&third, &a), 1.0 / 3.0, 1e-15);
    LitU192 small = lit_u192(5), big = lit_u192(8);
    cr_assert_float_eq(lit_u192_ratio(&small, &big), 0.625, 1e-15);
    LitU192 t2;
    cr_assert_eq(lit_u192_mul(&t2, &third, &three), 0);
    cr_assert_float_eq(lit_u192_ratio(&t2, &a), 1.0, 1e-15);
    cr_assert_float_eq(lit_u192_ratio(&a, &a), 1.0, 0);
}
