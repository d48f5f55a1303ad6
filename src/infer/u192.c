/* u192.c - 192-bit unsigned integers (see u192.h). */
#include "literature/u192.h"

#include <string.h>

#include "literature/status.h"

int lit_u192_cmp(const LitU192 *a, const LitU192 *b)
{
    for (int i = 2; i >= 0; i--)
        if (a->w[i] != b->w[i])
            return a->w[i] < b->w[i] ? -1 : 1;
    return 0;
}

int lit_u192_sub(LitU192 *r, const LitU192 *a, const LitU192 *b)
{
    if (lit_u192_cmp(a, b) < 0)
        return 1;
    uint64_t borrow = 0;
    for (int i = 0; i < 3; i++) {
        uint64_t x = a->w[i], y = b->w[i];
        uint64_t d = x - y - borrow;
        borrow = x < y || (x == y && borrow);
        r->w[i] = d;
    }
    return 0;
}

uint32_t lit_u192_divmod_small(LitU192 *q, const LitU192 *a, uint32_t d)
{
    /* Long division by 32-bit digits: each step divides a 64-bit value. */
    uint64_t rem = 0;
    LitU192 out;
    for (int i = 2; i >= 0; i--) {
        uint64_t hi = (rem << 32) | (a->w[i] >> 32);
        uint64_t qh = hi / d;
        rem = hi % d;
        uint64_t lo = (rem << 32) | (a->w[i] & 0xFFFFFFFFu);
        uint64_t ql = lo / d;
        rem = lo % d;
        out.w[i] = (qh << 32) | ql;
    }
    *q = out;
    return (uint32_t)rem;
}

int lit_u192_format(const LitU192 *a, char *buf, size_t cap)
{
    char tmp[LIT_U192_DIGITS];
    size_t n = 0;
    LitU192 x = *a;
    do {
        tmp[n++] = (char)('0' + lit_u192_divmod_small(&x, &x, 10));
    } while (!lit_u192_is_zero(&x));
    if (n + 1 > cap)
        return LIT_NO_SPACE;
    for (size_t i = 0; i < n; i++)
        buf[i] = tmp[n - 1 - i];
    buf[n] = 0;
    return (int)n;
}

int lit_u192_parse(LitU192 *r, const char *s, size_t len)
{
    LitU192 x = lit_u192(0), ten = lit_u192(10);
    if (len == 0)
        return -1;
    for (size_t i = 0; i < len; i++) {
        if (s[i] < '0' || s[i] > '9')
            return -1;
        LitU192 d = lit_u192((uint64_t)(s[i] - '0'));
        if (lit_u192_mul(&x, &x, &ten) || lit_u192_add(&x, &x, &d))
            return -1;
    }
    *r = x;
    return 0;
}

double lit_u192_to_double(const LitU192 *a)
{
    /* Horner over the words; each step is exact up to double rounding. */
    const double word = 18446744073709551616.0; /* 2^64 */
    return ((double)a->w[2] * word + (double)a->w[1]) * word + (double)a->w[0];
}

/* The 64 most significant bits from bit `shift` up, and that shift. */
static uint64_t top64(const LitU192 *a, int shift)
{
    int word = shift / 64, bit = shift % 64;
    uint64_t lo = word < 3 ? a->w[word] >> bit : 0;
    uint64_t hi = bit && word + 1 < 3 ? a->w[word + 1] << (64 - bit) : 0;
    return lo | hi;
}

static int bits(const LitU192 *a)
{
    for (int i = 2; i >= 0; i--)
        if (a->w[i]) {
            int n = 64;
            while (!(a->w[i] >> (n - 1)))
                n--;
            return 64 * i + n;
        }
    return 0;
}

double lit_u192_ratio(const LitU192 *num, const LitU192 *den)
{
    /* Scale both down by the same power of two so that the larger fits in
     * 64 bits: the ratio keeps about 63 significant bits, more than a
     * double holds. */
    int n = bits(num), d = bits(den), top = n > d ? n : d;
    int shift = top > 64 ? top - 64 : 0;
    return (double)top64(num, shift) / (double)top64(den, shift);
}
