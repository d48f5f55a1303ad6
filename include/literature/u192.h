/* u192.h - exact unsigned integers of 192 bits: counts of deals.
 *
 * The number of deals consistent with a view reaches 2^168 (54 cards to 12
 * seats), beyond any machine word and beyond a double's 53 bits of precision.
 * LitU192 is a fixed-width value (three 64-bit words, least significant
 * first): no allocation, copied with `=`. The 64 x 64 -> 128-bit products
 * use the compiler's 128-bit integer where it has one and 32-bit halves in
 * ISO C otherwise. Operations report overflow instead of wrapping silently.
 */
#ifndef LITERATURE_U192_H
#define LITERATURE_U192_H

#include <stddef.h>
#include <stdint.h>

typedef struct LitU192 {
    uint64_t w[3]; /* w[0] least significant */
} LitU192;

enum {
    /* Decimal digits of 2^192 - 1 (6277101735386680763835789423207666416102355444464034512895). */
    LIT_U192_DIGITS = 58
};

static inline LitU192 lit_u192(uint64_t x)
{
    LitU192 r = {{x, 0, 0}};
    return r;
}

static inline int lit_u192_is_zero(const LitU192 *a)
{
    return (a->w[0] | a->w[1] | a->w[2]) == 0;
}

/* -1, 0 or 1 as a < b, a == b, a > b. */
int lit_u192_cmp(const LitU192 *a, const LitU192 *b);

/* *r = a + b; returns 1 on overflow (r then holds the sum mod 2^192). r may
 * be a or b. Inline: the counting loops add in their innermost step. */
static inline int lit_u192_add(LitU192 *r, const LitU192 *a, const LitU192 *b)
{
    uint64_t carry = 0;
    for (int i = 0; i < 3; i++) {
        uint64_t x = a->w[i], s = x + b->w[i];
        uint64_t c = s < x;
        s += carry;
        c += s < carry;
        r->w[i] = s;
        carry = c;
    }
    return carry != 0;
}

/* *r = a - b for a >= b; returns 1 (r unspecified) when a < b. */
int lit_u192_sub(LitU192 *r, const LitU192 *a, const LitU192 *b);


/* The 128-bit product of two words: with a compiler that has a 128-bit
 * integer (GCC and Clang on 64-bit targets) one instruction; otherwise, in
 * ISO C, from 32-bit halves. Both give the same bits. */
#if defined(__SIZEOF_INT128__)
__extension__ typedef unsigned __int128 LitU128;
static inline void lit_u64_mul(uint64_t a, uint64_t b, uint64_t *hi, uint64_t *lo)
{
    LitU128 p = (LitU128)a * b;
    *lo = (uint64_t)p;
    *hi = (uint64_t)(p >> 64);
}
#else
static inline void lit_u64_mul(uint64_t a, uint64_t b, uint64_t *hi, uint64_t *lo)
{
    uint64_t a0 = a & 0xFFFFFFFFu, a1 = a >> 32, b0 = b & 0xFFFFFFFFu, b1 = b >> 32;
    uint64_t p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
    uint64_t mid = (p00 >> 32) + (p01 & 0xFFFFFFFFu) + (p10 & 0xFFFFFFFFu);
    *lo = (p00 & 0xFFFFFFFFu) | (mid << 32);
    *hi = p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
}
#endif

/* *r = a * b for a 64-bit b; returns 1 on overflow, as lit_u192_mul. */
static inline int lit_u192_mul64(LitU192 *r, const LitU192 *a, uint64_t b)
{
    uint64_t out[3], carry = 0;
    for (int i = 0; i < 3; i++) {
        uint64_t hi, lo;
        lit_u64_mul(a->w[i], b, &hi, &lo);
        lo += carry;
        hi += lo < carry;
        out[i] = lo;
        carry = hi;
    }
    r->w[0] = out[0];
    r->w[1] = out[1];
    r->w[2] = out[2];
    return carry != 0;
}

/* *r = a * b; returns 1 on overflow (r then holds the product mod 2^192). */
static inline int lit_u192_mul(LitU192 *r, const LitU192 *a, const LitU192 *b)
{
    /* Words of b that are zero add nothing: most counts fit in fewer. */
    if ((b->w[1] | b->w[2]) == 0)
        return lit_u192_mul64(r, a, b->w[0]);
    if ((a->w[1] | a->w[2]) == 0)
        return lit_u192_mul64(r, b, a->w[0]);
    uint64_t out[6] = {0, 0, 0, 0, 0, 0};
    for (int i = 0; i < 3; i++) {
        uint64_t carry = 0;
        for (int j = 0; j < 3; j++) {
            uint64_t hi, lo;
            lit_u64_mul(a->w[i], b->w[j], &hi, &lo);
            /* out[i + j] += lo + carry, carrying into hi */
            uint64_t s = out[i + j] + lo;
            hi += s < lo;
            uint64_t s2 = s + carry;
            hi += s2 < carry;
            out[i + j] = s2;
            carry = hi;
        }
        out[i + 3] += carry;
    }
    r->w[0] = out[0];
    r->w[1] = out[1];
    r->w[2] = out[2];
    return (out[3] | out[4] | out[5]) != 0;
}

/* *q = a / d, returns a mod d; d from 1 to 2^32 - 1. q may be a. */
uint32_t lit_u192_divmod_small(LitU192 *q, const LitU192 *a, uint32_t d);

/* Decimal digits and a terminating 0; returns the length or a negative
 * status (LIT_NO_SPACE). LIT_U192_DIGITS + 1 bytes always suffice. */
int lit_u192_format(const LitU192 *a, char *buf, size_t cap);

/* Parses decimal digits (exactly len bytes): 0, or -1 on anything else or a
 * value of 2^192 or more. */
int lit_u192_parse(LitU192 *r, const char *s, size_t len);

/* The nearest double (to within one unit in the last place). */
double lit_u192_to_double(const LitU192 *a);

/* num / den as a double, for probabilities: exact to double precision even
 * when both are far beyond 2^53. den must not be zero. */
double lit_u192_ratio(const LitU192 *num, const LitU192 *den);

#endif
