/* names.c - what a player's name (and a record's free text) may be
 * (docs/NOTATION.md "Player names"): lit_name_check for every name read,
 * lit_name_check_new for a name given now.
 */
#include "literature/notation.h"

#include <stddef.h>

#include "literature/status.h"
#include "utf8.h"

int lit_name_check(const char *s, size_t len, size_t max)
{
    if (len == 0 || len > max || s[0] == ' ' || s[len - 1] == ' ')
        return LIT_BAD_NAME;
    const unsigned char *p = (const unsigned char *)s, *end = p + len;
    while (p < end) {
        long cp = next_code_point(&p, end);
        if (cp < 0 || is_control(cp))
            return LIT_BAD_NAME;
    }
    return LIT_OK;
}

typedef struct Range {
    long first, last;
} Range;

static int in(const Range *r, int n, long cp)
{
    for (int i = 0; i < n; i++)
        if (cp >= r[i].first && cp <= r[i].last)
            return 1;
    return 0;
}

/* Refused in a new name: Unicode's format characters (general category Cf:
 * the zero-width space, the bidirectional marks, embeddings, overrides and
 * isolates, the word joiner, the byte order mark, the tags, ...) but the
 * zero-width non-joiner and joiner, which scripts and emoji need; the line
 * and paragraph separators; and the fillers that draw nothing (Hangul
 * fillers, the blank Braille pattern). */
static const Range refused[] = {
    {0x00AD, 0x00AD},   {0x0600, 0x0605},   {0x061C, 0x061C},   {0x06DD, 0x06DD},
    {0x070F, 0x070F},   {0x0890, 0x0891},   {0x08E2, 0x08E2},   {0x115F, 0x1160},
    {0x180E, 0x180E},   {0x200B, 0x200B},   {0x200E, 0x200F},   {0x2028, 0x202E},
    {0x2060, 0x2064},   {0x2066, 0x206F},   {0x2800, 0x2800},   {0x3164, 0x3164},
    {0xFEFF, 0xFEFF},   {0xFFA0, 0xFFA0},   {0xFFF9, 0xFFFB},   {0x110BD, 0x110BD},
    {0x110CD, 0x110CD}, {0x13430, 0x1343F}, {0x1BCA0, 0x1BCA3}, {0x1D173, 0x1D17A},
    {0xE0001, 0xE0001}, {0xE0020, 0xE007F},
};

/* The space separators (general category Zs): not at either end. */
static const Range spaces[] = {
    {0x0020, 0x0020}, {0x00A0, 0x00A0}, {0x1680, 0x1680}, {0x2000, 0x200A},
    {0x202F, 0x202F}, {0x205F, 0x205F}, {0x3000, 0x3000},
};

/* Allowed, but drawing nothing by themselves: the spaces above, the
 * joiners, the combining grapheme joiner and the variation selectors. */
static const Range marks[] = {
    {0x034F, 0x034F}, {0x200C, 0x200D}, {0xFE00, 0xFE0F}, {0xE0100, 0xE01EF},
};

#define RANGES(r) (int)(sizeof r / sizeof r[0])

int lit_name_check_new(const char *s, size_t len, size_t max)
{
    if (lit_name_check(s, len, max) != LIT_OK)
        return LIT_BAD_NAME;
    const unsigned char *p = (const unsigned char *)s, *end = p + len;
    int visible = 0;
    long cp = 0;
    while (p < end) {
        int first = p == (const unsigned char *)s;
        cp = next_code_point(&p, end);
        int space = in(spaces, RANGES(spaces), cp);
        if (in(refused, RANGES(refused), cp) || (first && space))
            return LIT_BAD_NAME;
        visible |= !space && !in(marks, RANGES(marks), cp);
    }
    if (in(spaces, RANGES(spaces), cp) || !visible)
        return LIT_BAD_NAME;
    return LIT_OK;
}
