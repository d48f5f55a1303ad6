/* rules.c - presets, options and their text form.
 *
 * One table describes every option: its key, the field it sets and its
 * values. Parsing, checking and formatting all walk that table, so an option
 * added there is known everywhere at once.
 */
#include "literature/rules.h"

#include <stddef.h>
#include <string.h>

#include "literature/cards.h"
#include "literature/status.h"

typedef struct Option {
    const char *key;
    size_t offset;
    int count;
    const char *names[5];
    uint8_t values[5];
} Option;

#define FIELD(f) offsetof(LitRules, f)
#define ONOFF {"off", "on"}, {0, 1}

static const Option options[] = {
    {"players", FIELD(players), 5, {"4", "6", "8", "10", "12"}, {4, 6, 8, 10, 12}},
    {"deck", FIELD(deck), 5, {"no8", "no2", "no7", "jokers", "quartets"}, {0, 1, 2, 3, 4}},
    {"misclaim", FIELD(misclaim), 3, {"cancel", "opponents", "point-off"}, {0, 1, 2}},
    {"claim-time", FIELD(claim_time), 3, {"own-turn", "any-time", "penalty"}, {0, 1, 2}},
    {"split-claims", FIELD(split_claims), 2, ONOFF},
    {"after-claim", FIELD(after_claim), 2, {"claimer", "team"}, {0, 1}},
    {"bluff", FIELD(bluff), 2, ONOFF},
    {"must-claim", FIELD(must_claim), 2, ONOFF},
    {"double-high", FIELD(double_high), 2, ONOFF},
    {"early-end", FIELD(early_end), 2, ONOFF},
    {"first", FIELD(first), 2, {"dealer", "left"}, {0, 1}},
    {"pass-play", FIELD(pass_play), 2, ONOFF},
    {"history", FIELD(history), 2, {"last", "full"}, {0, 1}},
    {"counts", FIELD(counts), 3, {"request", "shown", "hidden"}, {0, 1, 2}},
};
enum { OPTIONS = (int)(sizeof options / sizeof options[0]) };

/* Presets: the default, then the changes each makes to it. */
typedef struct Preset {
    const char *name;
    const char *changes;
} Preset;

static const Preset presets[] = {
    {"classic", ""},                                       /* 000 */
    {"club", "misclaim=opponents early-end=on history=full counts=shown"}, /* 002 */
    {"encyclopedia", "deck=no2 misclaim=point-off first=left history=full counts=hidden"}, /* 003 */
    {"jokers", "deck=jokers"},                             /* 001 */
    {"quartets", "deck=quartets"},                         /* 001 */
    {"india", "double-high=on"},                           /* 001, 003 */
};
enum { PRESETS = (int)(sizeof presets / sizeof presets[0]) };

static uint8_t *field(LitRules *rules, const Option *o)
{
    return (uint8_t *)rules + o->offset;
}

static uint8_t get(const LitRules *rules, const Option *o)
{
    return ((const uint8_t *)rules)[o->offset];
}

void lit_rules_default(LitRules *rules)
{
    memset(rules, 0, sizeof *rules);
    rules->players = 6;
    rules->deck = LIT_DECK_NO8;
    rules->misclaim = LIT_MISCLAIM_CANCEL;
    rules->claim_time = LIT_CLAIM_OWN_TURN;
    rules->after_claim = LIT_AFTER_CLAIMER;
    rules->first = LIT_FIRST_DEALER;
    rules->history = LIT_HISTORY_LAST;
    rules->counts = LIT_COUNTS_REQUEST;
}

int lit_rules_preset_count(void)
{
    return PRESETS;
}

const char *lit_rules_preset_name(int i)
{
    return i >= 0 && i < PRESETS ? presets[i].name : NULL;
}

int lit_rules_option_count(void)
{
    return OPTIONS;
}

const char *lit_rules_option_name(int i)
{
    return i >= 0 && i < OPTIONS ? options[i].key : NULL;
}

const char *lit_rules_option_value(const LitRules *rules, int i)
{
    if (i < 0 || i >= OPTIONS)
        return NULL;
    uint8_t v = get(rules, &options[i]);
    for (int k = 0; k < options[i].count; k++)
        if (options[i].values[k] == v)
            return options[i].names[k];
    return NULL;
}

static int word_is(const char *s, size_t len, const char *word)
{
    return strlen(word) == len && memcmp(s, word, len) == 0;
}

/* Applies every "key=value" word of text (NUL-terminated); on error returns
 * the status and points *bad at the word. */
static int apply_words(LitRules *rules, const char *text, const char **bad);

static int preset_rules(int i, LitRules *out)
{
    lit_rules_default(out);
    return apply_words(out, presets[i].changes, NULL);
}

int lit_rules_preset(LitRules *rules, const char *name, size_t len)
{
    for (int i = 0; i < PRESETS; i++) {
        if (word_is(name, len, presets[i].name)) {
            LitRules r;
            int st = preset_rules(i, &r);
            if (st != LIT_OK)
                return st;
            *rules = r;
            return LIT_OK;
        }
    }
    return LIT_UNKNOWN_PRESET;
}

int lit_rules_set(LitRules *rules, const char *kv, size_t len)
{
    const char *eq = memchr(kv, '=', len);
    if (!eq)
        return LIT_UNKNOWN_RULE;
    size_t klen = (size_t)(eq - kv), vlen = len - klen - 1;
    for (int i = 0; i < OPTIONS; i++) {
        const Option *o = &options[i];
        if (!word_is(kv, klen, o->key))
            continue;
        for (int v = 0; v < o->count; v++) {
            if (word_is(eq + 1, vlen, o->names[v])) {
                *field(rules, o) = o->values[v];
                return LIT_OK;
            }
        }
        return LIT_BAD_RULE_VALUE;
    }
    return LIT_UNKNOWN_RULE;
}

static int apply_words(LitRules *rules, const char *text, const char **bad)
{
    const char *p = text;
    for (;;) {
        while (*p == ' ')
            p++;
        if (!*p)
            return LIT_OK;
        const char *w = p;
        while (*p && *p != ' ')
            p++;
        int st = lit_rules_set(rules, w, (size_t)(p - w));
        if (st != LIT_OK) {
            if (bad)
                *bad = w;
            return st;
        }
    }
}

int lit_rules_parse(LitRules *rules, const char *text, const char **bad)
{
    const char *p = text;
    while (*p == ' ')
        p++;
    const char *w = p;
    while (*p && *p != ' ')
        p++;
    LitRules r;
    int st = lit_rules_preset(&r, w, (size_t)(p - w));
    if (st != LIT_OK) {
        if (bad)
            *bad = w;
        return st;
    }
    st = apply_words(&r, p, bad);
    if (st != LIT_OK)
        return st;
    *rules = r;
    return LIT_OK;
}

int lit_rules_check(const LitRules *rules)
{
    for (int i = 0; i < OPTIONS; i++) {
        const Option *o = &options[i];
        int ok = 0;
        for (int v = 0; v < o->count; v++)
            ok |= get(rules, o) == o->values[v];
        if (!ok)
            return LIT_BAD_RULE_VALUE;
    }
    return LIT_OK;
}

static const char *value_name(const Option *o, uint8_t value)
{
    for (int v = 0; v < o->count; v++)
        if (o->values[v] == value)
            return o->names[v];
    return NULL;
}

static int differences(const LitRules *a, const LitRules *b)
{
    int n = 0;
    for (int i = 0; i < OPTIONS; i++)
        n += get(a, &options[i]) != get(b, &options[i]);
    return n;
}

int lit_rules_format(const LitRules *rules, char *buf, size_t cap)
{
    if (lit_rules_check(rules) != LIT_OK)
        return LIT_BAD_RULE_VALUE;
    int best = 0, best_n = OPTIONS + 1;
    LitRules base, r;
    for (int i = 0; i < PRESETS; i++) {
        preset_rules(i, &r);
        int n = differences(rules, &r);
        if (n < best_n) {
            best_n = n;
            best = i;
            base = r;
        }
    }
    size_t len = 0;
    const char *parts[2 * OPTIONS + 1];
    int np = 0;
    parts[np++] = presets[best].name;
    for (int i = 0; i < OPTIONS; i++) {
        const Option *o = &options[i];
        if (get(rules, o) != get(&base, o)) {
            parts[np++] = o->key;
            parts[np++] = value_name(o, get(rules, o));
        }
    }
    /* parts: preset, then key, value pairs: "preset key=value key=value". */
    for (int i = 0; i < np; i++) {
        const char *sep = i == 0 ? "" : (i % 2 ? " " : "=");
        size_t sl = strlen(sep), pl = strlen(parts[i]);
        if (len + sl + pl + 1 > cap)
            return LIT_NO_SPACE;
        memcpy(buf + len, sep, sl);
        memcpy(buf + len + sl, parts[i], pl);
        len += sl + pl;
    }
    buf[len] = 0;
    return (int)len;
}

int lit_rules_set_value(const LitRules *rules, int set)
{
    return rules->double_high && lit_set_is_high(rules->deck, set) ? 2 : 1;
}

int lit_rules_total_points(const LitRules *rules)
{
    int total = 0;
    for (int s = 0; s < lit_deck_sets(rules->deck); s++)
        total += lit_rules_set_value(rules, s);
    return total;
}
