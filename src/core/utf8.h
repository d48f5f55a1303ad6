/* utf8.h - reading UTF-8 a code point at a time, for the record's reader
 * and writer (notation.c) and the names' checks (names.c). Internal to the
 * core; not installed.
 */
#ifndef LIT_CORE_UTF8_H
#define LIT_CORE_UTF8_H

/* The code point at *p (advanced past it): a well-formed UTF-8 sequence (no
 * overlong form, no surrogate, nothing above U+10FFFF), or -1. */
static inline long next_code_point(const unsigned char **p, const unsigned char *end)
{
    unsigned c = *(*p)++;
    if (c < 0x80)
        return (long)c;
    int more;
    unsigned cp;
    if (c >= 0xC2 && c <= 0xDF) {
        more = 1;
        cp = c & 0x1F;
    } else if (c >= 0xE0 && c <= 0xEF) {
        more = 2;
        cp = c & 0x0F;
    } else if (c >= 0xF0 && c <= 0xF4) {
        more = 3;
        cp = c & 0x07;
    } else {
        return -1;
    }
    if (end - *p < more)
        return -1;
    for (int i = 0; i < more; i++) {
        if (((*p)[i] & 0xC0) != 0x80)
            return -1;
        cp = (cp << 6) | ((*p)[i] & 0x3Fu);
    }
    *p += more;
    if ((more == 2 && cp < 0x800) || (more == 3 && cp < 0x10000) || cp > 0x10FFFF ||
        (cp >= 0xD800 && cp <= 0xDFFF))
        return -1;
    return (long)cp;
}

/* Control characters: C0, DEL, C1. */
static inline int is_control(long cp)
{
    return cp < 0x20 || (cp >= 0x7F && cp <= 0x9F);
}

#endif
