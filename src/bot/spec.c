/* spec.c - a bot's settings: the kinds' names, their defaults, and the text
 * a bot is written as ("casual:0.75", "expert:200"; docs/BOTS.md).
 */
#include "literature/bot.h"

#include <string.h>

#include "literature/status.h"

static const char *const kind_names[LIT_BOT_KINDS] = {"random", "casual", "basic", "expert",
                                                      "master"};

const char *lit_bot_kind_name(int kind)
{
    return kind >= 0 && kind < LIT_BOT_KINDS ? kind_names[kind] : "";
}

LitBotSpec lit_bot_spec_default(LitBotKind kind)
{
    LitBotSpec s = {(uint8_t)kind, LIT_CASUAL_MEMORY, LIT_EXPERT_ROLLOUTS};
    return s;
}

/* A chance written 0, 1, 0.5, 0.75, .125 (at most three decimals), in
 * thousandths: 0, or -1 when it is not one. */
static int parse_chance(const char *s, size_t len, uint16_t *out)
{
    size_t i = 0;
    unsigned whole = 0, frac = 0, digits = 0;
    if (len == 0)
        return -1;
    if (s[i] == '0' || s[i] == '1')
        whole = (unsigned)(s[i++] - '0');
    if (i < len) {
        if (s[i++] != '.' || i == len)
            return -1;
        for (; i < len; i++, digits++) {
            if (s[i] < '0' || s[i] > '9' || digits == 3)
                return -1;
            frac = frac * 10 + (unsigned)(s[i] - '0');
        }
    } else if (i == 0) {
        return -1;
    }
    for (; digits < 3; digits++)
        frac *= 10;
    unsigned v = whole * 1000 + frac;
    if (v > 1000)
        return -1;
    *out = (uint16_t)v;
    return 0;
}

int lit_bot_spec_parse(LitBotSpec *spec, const char *text, size_t len)
{
    size_t name_len = 0;
    while (name_len < len && text[name_len] != ':')
        name_len++;
    for (int kind = 0; kind < LIT_BOT_KINDS; kind++) {
        if (strlen(kind_names[kind]) != name_len ||
            memcmp(kind_names[kind], text, name_len) != 0)
            continue;
        LitBotSpec s = lit_bot_spec_default((LitBotKind)kind);
        if (name_len < len) {
            /* casual takes its memory, expert and master their rollouts
             * per decision */
            const char *arg = text + name_len + 1;
            size_t arg_len = len - name_len - 1;
            if (kind == LIT_BOT_CASUAL) {
                if (parse_chance(arg, arg_len, &s.memory))
                    return LIT_BAD_BOT_OPTION;
            } else if (lit_bot_searches(kind)) {
                uint32_t r = 0;
                if (arg_len == 0 || arg_len > 6)
                    return LIT_BAD_BOT_OPTION;
                for (size_t i = 0; i < arg_len; i++) {
                    if (arg[i] < '0' || arg[i] > '9')
                        return LIT_BAD_BOT_OPTION;
                    r = r * 10 + (uint32_t)(arg[i] - '0');
                }
                if (r > LIT_EXPERT_ROLLOUTS_MAX)
                    return LIT_BAD_BOT_OPTION;
                s.rollouts = r;
            } else {
                return LIT_BAD_BOT_OPTION;
            }
        }
        *spec = s;
        return LIT_OK;
    }
    return LIT_UNKNOWN_BOT;
}

int lit_bot_spec_format(const LitBotSpec *spec, char *buf, size_t cap)
{
    char text[LIT_BOT_TEXT_MAX];
    const char *name = lit_bot_kind_name(spec->kind);
    size_t n = strlen(name);
    memcpy(text, name, n);
    if (lit_bot_searches(spec->kind) && spec->rollouts != LIT_EXPERT_ROLLOUTS) {
        unsigned r = spec->rollouts, digits = 1;
        text[n++] = ':';
        for (unsigned x = r; x >= 10; x /= 10)
            digits++;
        for (unsigned d = digits; d-- > 0; r /= 10)
            text[n + d] = (char)('0' + r % 10);
        n += digits;
    }
    if (spec->kind == LIT_BOT_CASUAL && spec->memory != LIT_CASUAL_MEMORY) {
        unsigned m = spec->memory;
        text[n++] = ':';
        text[n++] = (char)('0' + m / 1000);
        if (m % 1000) {
            text[n++] = '.';
            for (unsigned d = 100, r = m % 1000; r; d /= 10) {
                text[n++] = (char)('0' + r / d);
                r %= d;
            }
        }
    }
    if (n + 1 > cap)
        return LIT_NO_SPACE;
    memcpy(buf, text, n);
    buf[n] = 0;
    return (int)n;
}
