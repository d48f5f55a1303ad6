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

/* An option: its key and the field it sets, its values as written and as
 * stored, and the words people read (docs/RULES.md says the same at length,
 * with the sources): a title, and one sentence per value saying exactly what
 * it does. The server sends these words (docs/PROTOCOL.md, "welcome"), so a
 * client explains the rules from here and nowhere else. */
typedef struct Option {
    const char *key;
    const char *title;
    size_t offset;
    int count;
    const char *names[5];
    uint8_t values[5];
    const char *texts[5];
} Option;

#define FIELD(f) offsetof(LitRules, f)
#define ONOFF 2, {"off", "on"}, {0, 1}

/* cancel and point-off say the first wrong case in the same words. */
#define WRONG_HELD "A wrong claim is cancelled (nobody scores the set) when the claiming team " \
                   "held every card; when an opponent held one, "

static const Option options[] = {
    {"players", "Players", FIELD(players), 5, {"4", "6", "8", "10", "12"}, {4, 6, 8, 10, 12},
     {"Four players in two teams of two.", "Six players in two teams of three.",
      "Eight players in two teams of four.", "Ten players in two teams of five.",
      "Twelve players in two teams of six."}},
    {"deck", "The deck", FIELD(deck), 5, {"no8", "no2", "no7", "jokers", "quartets"},
     {0, 1, 2, 3, 4},
     {"48 cards without the eights: eight half-suits of six, low 2 to 7 and high 9 to A.",
      "48 cards without the twos: eight half-suits of six, low 3 to 8 and high 9 to A.",
      "48 cards without the sevens: eight half-suits of six, low A to 6 (aces low) and high "
      "8 to K.",
      "54 cards with two jokers: nine sets, the eight half-suits without the eights and a set "
      "of the four eights and the two jokers.",
      "52 cards: thirteen sets of four, the four cards of each rank."}},
    {"misclaim", "A wrong claim", FIELD(misclaim), 3, {"cancel", "opponents", "point-off"},
     {0, 1, 2},
     {WRONG_HELD "the opponents score it.",
      "A wrong claim gives the set to the opponents, both when the claiming team held every "
      "card and when an opponent held one.",
      WRONG_HELD "the claiming team loses the set's points and nobody gains them."}},
    {"claim-time", "When to claim", FIELD(claim_time), 3, {"own-turn", "any-time", "penalty"},
     {0, 1, 2},
     {"Only the player on turn may claim.",
      "Anyone may claim at any moment except in the endgame; a claim out of turn does not "
      "move the turn.",
      "Anyone may claim at any moment except in the endgame, but a claim out of turn counts "
      "as wrong whatever it names."}},
    {"split-claims", "Naming opponents in a claim", FIELD(split_claims), ONOFF,
     {"A claim names only players of the claiming team as the holders.",
      "A claim may name opponents as holders too; it is right only if every card is where it "
      "says."}},
    {"after-claim", "Who asks after a claim", FIELD(after_claim), 2, {"claimer", "team"},
     {0, 1},
     {"The claimer keeps the turn; a claimer left with no cards passes it to a teammate who "
      "has some.",
      "The claimer chooses who of its team asks next: a player with cards, itself "
      "included."}},
    {"bluff", "Asking for a card you hold", FIELD(bluff), ONOFF,
     {"You may not ask for a card you hold.",
      "You may ask for a card you hold, to mislead (it always misses); you still need another "
      "card of its set."}},
    {"must-claim", "Holding a whole set", FIELD(must_claim), ONOFF,
     {"A player holding a whole set claims it when it chooses.",
      "A player on turn holding a whole set must claim it before doing anything else."}},
    {"double-high", "High half-suits", FIELD(double_high), ONOFF,
     {"Every set is worth one point.",
      "A high half-suit (9 to A; 8 to K without the sevens) is worth two points, any other "
      "set one."}},
    {"early-end", "Ending early", FIELD(early_end), ONOFF,
     {"The game goes on until every set is claimed.",
      "The game ends as soon as a team has more than half of the points."}},
    {"first", "Who asks first", FIELD(first), 2, {"dealer", "left"}, {0, 1},
     {"The dealer asks first.", "The player on the dealer's left asks first."}},
    {"pass-play", "Passing the turn", FIELD(pass_play), ONOFF,
     {"The player on turn asks or claims; it may not hand the turn over.",
      "The player on turn may hand the turn to a teammate who has cards instead of asking."}},
    {"history", "Questions shown", FIELD(history), 2, {"last", "full"}, {0, 1},
     {"Only the last question is shown (every claim stays shown, with the holders it "
      "revealed).",
      "Every question of the game is shown."}},
    {"counts", "Hand sizes", FIELD(counts), 3, {"request", "shown", "hidden"}, {0, 1, 2},
     {"How many cards each player holds is shown when you ask.",
      "How many cards each player holds is always shown.",
      "How many cards each player holds is never shown."}},
};
enum { OPTIONS = (int)(sizeof options / sizeof options[0]) };

/* Presets: the default, then the changes each makes to it, and where it
 * comes from in words for people (its values are the table's, never
 * restated). */
typedef struct Preset {
    const char *name;
    const char *changes;
    const char *text;
} Preset;

static const Preset presets[] = {
    {"classic", "", "The standard game, as the detailed rules give it: the default."}, /* 000 */
    {"club", "misclaim=opponents early-end=on history=full counts=shown",
     "The rules of a how-to-play guide."}, /* 002 */
    {"encyclopedia", "deck=no2 misclaim=point-off first=left history=full counts=hidden",
     "The rules of an older encyclopedia text, with its variation on who starts."}, /* 003 */
    {"jokers", "deck=jokers", "A house rule an encyclopedia article gives."}, /* 001 */
    {"quartets", "deck=quartets", "A variant an encyclopedia article gives."}, /* 001 */
    {"india", "double-high=on", "A variant common in India, from the encyclopedias."}, /* 001, 003 */
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

const char *lit_rules_preset_text(int i)
{
    return i >= 0 && i < PRESETS ? presets[i].text : NULL;
}

int lit_rules_option_count(void)
{
    return OPTIONS;
}

const char *lit_rules_option_name(int i)
{
    return i >= 0 && i < OPTIONS ? options[i].key : NULL;
}

const char *lit_rules_option_title(int i)
{
    return i >= 0 && i < OPTIONS ? options[i].title : NULL;
}

int lit_rules_option_values(int i)
{
    return i >= 0 && i < OPTIONS ? options[i].count : 0;
}

const char *lit_rules_option_value_name(int i, int v)
{
    return v >= 0 && v < lit_rules_option_values(i) ? options[i].names[v] : NULL;
}

const char *lit_rules_option_value_text(int i, int v)
{
    return v >= 0 && v < lit_rules_option_values(i) ? options[i].texts[v] : NULL;
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
