/* option.c - a room's options, one table (the way src/core/rules.c's option
 * table drives the rules): each option's key, its field of RoomOptions,
 * its kind, its limits and its default, and where the store keeps it. The
 * table reads the options of `create`, writes them into the stored state
 * and the room frame, and reads them back from the store; the limits'
 * sentences in the answers are made from it.
 */
#include "room.h"

#include <stdio.h>
#include <string.h>

#include "../wire/wire.h"
#include "literature/status.h"

enum {
    OPT_RULES,   /* the rules' text (lit_rules_parse); its options beside it */
    OPT_PLAYERS, /* the rules' players: read on its own, kept in the rules */
    OPT_BOTS,    /* a bot spec's text (lit_bot_spec_parse) */
    OPT_INT,     /* an integer within its limits */
    OPT_MATCH,   /* an integer, the match's length; its count beside it */
    OPT_FLAG     /* true or false */
};

/* Where the stored state keeps an option: not at all (players: in the
 * rules), among the keys of version 1's first form (before the room's
 * counts), or among those added after it (after them, read as optional). */
enum { KEPT_NOT = 0, KEPT_FIRST = 1, KEPT_LATER = 2 };

typedef struct RoomOption {
    const char *key;
    int kind;            /* OPT_* */
    size_t offset;       /* of its field in RoomOptions */
    int min, max;        /* an integer's limits; 0 is allowed beside them */
    const char *zero;    /* what 0 means, in the limits' sentence (NULL: nothing) */
    int fallback;        /* an integer's or a flag's default */
    const char *text;    /* a text's default */
    int kept;            /* KEPT_* */
    int optional;        /* a stored state may lack it: its default then */
} RoomOption;

#define AT(field) offsetof(RoomOptions, field)

/* In the room frame's order (the stored state's is the same, first form then
 * later keys). The limits are hub.h's constants. */
static const RoomOption options[] = {
    {"rules", OPT_RULES, AT(rules), 0, 0, NULL, 0, "classic", KEPT_FIRST, 0},
    {"players", OPT_PLAYERS, 0, LIT_MIN_PLAYERS, LIT_MAX_PLAYERS, NULL, 0, NULL, KEPT_NOT, 0},
    {"bots", OPT_BOTS, AT(bots), 0, 0, NULL, 0, "basic", KEPT_FIRST, 0},
    {"pace_ms", OPT_INT, AT(pace_ms), 0, HUB_PACE_MAX, NULL, HUB_PACE_DEFAULT, NULL, KEPT_FIRST,
     0},
    {"turn_ms", OPT_INT, AT(turn_ms), HUB_TURN_MIN_MS, HUB_TURN_MAX_MS, "untimed", 0, NULL,
     KEPT_LATER, 1},
    {"grace_ms", OPT_INT, AT(grace_ms), 0, HUB_GRACE_MAX, NULL, HUB_GRACE_DEFAULT, NULL,
     KEPT_LATER, 1},
    {"match_to", OPT_MATCH, AT(match_to), 0, HUB_MATCH_MAX, "no match", 0, NULL, KEPT_LATER, 1},
    {"public", OPT_FLAG, AT(listed), 0, 0, NULL, 0, NULL, KEPT_FIRST, 0},
    {"aid", OPT_FLAG, AT(aid), 0, 0, NULL, 1, NULL, KEPT_FIRST, 0},
    {"chat", OPT_FLAG, AT(chat), 0, 0, NULL, 1, NULL, KEPT_FIRST, 1},
};

enum { OPTIONS = sizeof options / sizeof *options };

static int *int_of(RoomOptions *o, const RoomOption *x)
{
    return (int *)(void *)((char *)o + x->offset);
}

static int int_value(const RoomOptions *o, const RoomOption *x)
{
    return *(const int *)(const void *)((const char *)o + x->offset);
}

static int is_number(const RoomOption *x)
{
    return x->kind == OPT_PLAYERS || x->kind == OPT_INT || x->kind == OPT_MATCH;
}

/* Whether v is within x's limits (0 always is: untimed, no match). */
static int within(const RoomOption *x, json_int_t v)
{
    return v == 0 || (v >= x->min && v <= x->max);
}

/* The keys of the options of kind test, as a list: "a, b and c". */
static void key_list(int (*test)(const RoomOption *), char *out, size_t size)
{
    int n = 0, count = 0;
    for (int i = 0; i < OPTIONS; i++)
        count += test(&options[i]);
    out[0] = 0;
    for (int i = 0; i < OPTIONS; i++)
        if (test(&options[i])) {
            size_t len = strlen(out);
            snprintf(out + len, size - len, "%s%s", n == 0 ? "" : n == count - 1 ? " and " : ", ",
                     options[i].key);
            n++;
        }
}

static int is_flag(const RoomOption *x)
{
    return x->kind == OPT_FLAG;
}

json_t *hub_option_rules(const LitRules *rules)
{
    json_t *o = json_object();
    for (int i = 0; i < lit_rules_option_count(); i++)
        json_object_set_new(o, lit_rules_option_name(i),
                            json_string(lit_rules_option_value(rules, i)));
    return o;
}

/* ---- create ------------------------------------------------------------- */

/* A text option of the message (absent: its default): parsed into o, 0; or
 * -1 after answering. */
static int create_text(Hub *h, HubClient *c, json_t *msg, const RoomOption *x, RoomOptions *o)
{
    json_t *v = json_object_get(msg, x->key);
    const char *text = json_string_value(v);
    char why[WIRE_WHY_MAX];
    if (v && !text) {
        snprintf(why, sizeof why, "%s must be a string", x->key);
        return hub_send_fail_text(c, E_BAD_MESSAGE, why, NULL);
    }
    if (!text)
        text = x->text;
    if (x->kind == OPT_RULES) {
        int st = lit_rules_parse(&o->rules, text, NULL);
        return st == LIT_OK ? 0 : hub_send_status(c, st, NULL);
    }
    int st = lit_bot_spec_parse(&o->bots, text, strlen(text));
    if (st != LIT_OK)
        return hub_send_status(c, st, NULL);
    if (lit_bot_searches(o->bots.kind) && !h->config.post)
        return hub_send_fail(c, E_BOT_NOT_OFFERED, NULL);
    if (lit_bot_searches(o->bots.kind) && o->bots.rollouts > HUB_EXPERT_ROLLOUTS_MAX) {
        snprintf(why, sizeof why, "%s's rollouts are 0 to %d here", lit_bot_kind_name(o->bots.kind),
                 HUB_EXPERT_ROLLOUTS_MAX);
        return hub_send_fail_text(c, E_BAD_VALUE, why, NULL);
    }
    return 0;
}

/* The number options of the message (absent: their defaults; players: the
 * rules'), each within its limits: 0, or -1 after answering. Every one is
 * a number before any is checked against its limits. */
static int create_numbers(HubClient *c, json_t *msg, RoomOptions *o)
{
    json_int_t v[OPTIONS];
    char why[WIRE_WHY_MAX], keys[WIRE_WHY_MAX / 2];
    for (int i = 0; i < OPTIONS; i++) {
        v[i] = options[i].kind == OPT_PLAYERS ? o->rules.players : options[i].fallback;
        if (is_number(&options[i]) && hub_field_int(msg, options[i].key, &v[i]) < 0) {
            key_list(is_number, keys, sizeof keys);
            snprintf(why, sizeof why, "%s must be numbers", keys);
            return hub_send_fail_text(c, E_BAD_MESSAGE, why, NULL);
        }
    }
    for (int i = 0; i < OPTIONS; i++) {
        const RoomOption *x = &options[i];
        if (x->kind == OPT_PLAYERS) { /* the engine's to say, as for the rules */
            if (v[i] < x->min || v[i] > x->max || v[i] % 2)
                return hub_send_status(c, LIT_BAD_RULE_VALUE, NULL);
            o->rules.players = (uint8_t)v[i];
            if (lit_rules_check(&o->rules) != LIT_OK)
                return hub_send_status(c, LIT_BAD_RULE_VALUE, NULL);
        } else if (is_number(x) && !within(x, v[i])) {
            if (x->min == 0)
                snprintf(why, sizeof why, "%s is 0%s%s%s to %d", x->key, x->zero ? " (" : "",
                         x->zero ? x->zero : "", x->zero ? ")" : "", x->max);
            else
                snprintf(why, sizeof why, "%s is 0 (%s) or %d to %d", x->key, x->zero, x->min,
                         x->max);
            return hub_send_fail_text(c, E_BAD_VALUE, why, NULL);
        } else if (is_number(x)) {
            *int_of(o, x) = (int)v[i];
        }
    }
    return 0;
}

/* The flag options of the message (absent: their defaults): 0, or -1 after
 * answering. */
static int create_flags(HubClient *c, json_t *msg, RoomOptions *o)
{
    for (int i = 0; i < OPTIONS; i++) {
        json_t *v = json_object_get(msg, options[i].key);
        if (is_flag(&options[i]) && v && !json_is_boolean(v)) {
            char why[WIRE_WHY_MAX], keys[WIRE_WHY_MAX / 2];
            key_list(is_flag, keys, sizeof keys);
            snprintf(why, sizeof why, "%s must be true or false", keys);
            return hub_send_fail_text(c, E_BAD_MESSAGE, why, NULL);
        }
    }
    for (int i = 0; i < OPTIONS; i++) {
        json_t *v = json_object_get(msg, options[i].key);
        if (is_flag(&options[i]))
            *int_of(o, &options[i]) = v ? json_is_true(v) : options[i].fallback;
    }
    return 0;
}

int hub_option_create(Hub *h, HubClient *c, json_t *msg, RoomOptions *o)
{
    memset(o, 0, sizeof *o);
    /* the rules first (players' default is theirs), then the numbers, the
     * bots, the flags */
    if (create_text(h, c, msg, &options[0], o) || create_numbers(c, msg, o))
        return -1;
    for (int i = 0; i < OPTIONS; i++)
        if (options[i].kind == OPT_BOTS && create_text(h, c, msg, &options[i], o))
            return -1;
    return create_flags(c, msg, o);
}

/* ---- the stored state and the frame ------------------------------------ */

void hub_option_store(const Room *r, json_t *j, int later)
{
    char text[LIT_RULES_TEXT_MAX + LIT_BOT_TEXT_MAX]; /* either */
    for (int i = 0; i < OPTIONS; i++) {
        const RoomOption *x = &options[i];
        if (x->kept != (later ? KEPT_LATER : KEPT_FIRST))
            continue;
        if (x->kind == OPT_RULES)
            lit_rules_format(&r->opt.rules, text, sizeof text);
        else if (x->kind == OPT_BOTS)
            lit_bot_spec_format(&r->opt.bots, text, sizeof text);
        if (x->kind == OPT_RULES || x->kind == OPT_BOTS)
            json_object_set_new(j, x->key, json_string(text));
        else if (x->kind == OPT_FLAG)
            json_object_set_new(j, x->key, json_boolean(int_value(&r->opt, x)));
        else
            json_object_set_new(j, x->key, json_integer(int_value(&r->opt, x)));
        if (x->kind == OPT_MATCH)
            json_object_set_new(j, "wins", json_pack("[i,i]", r->wins[0], r->wins[1]));
    }
}

/* The match as the room frame shows it: its length, each team's wins and
 * the winner; null when there is no match. */
static json_t *match_json(const Room *r)
{
    if (!r->opt.match_to)
        return json_null();
    int to = r->opt.match_to, won = r->wins[0] >= to ? 0 : r->wins[1] >= to ? 1 : -1;
    return json_pack("{s:i,s:[i,i],s:o}", "to", to, "wins", r->wins[0], r->wins[1], "winner",
                     won < 0 ? json_null() : json_string(wire_team_name(won)));
}

void hub_option_frame(const Room *r, json_t *j)
{
    char text[LIT_RULES_TEXT_MAX + LIT_BOT_TEXT_MAX]; /* either */
    for (int i = 0; i < OPTIONS; i++) {
        const RoomOption *x = &options[i];
        switch (x->kind) {
        case OPT_RULES:
            lit_rules_format(&r->opt.rules, text, sizeof text);
            json_object_set_new(j, x->key, json_string(text));
            json_object_set_new(j, "options", hub_option_rules(&r->opt.rules));
            break;
        case OPT_PLAYERS:
            json_object_set_new(j, x->key, json_integer(r->opt.rules.players));
            break;
        case OPT_BOTS:
            lit_bot_spec_format(&r->opt.bots, text, sizeof text);
            json_object_set_new(j, x->key, json_string(text));
            break;
        case OPT_MATCH:
            json_object_set_new(j, "match", match_json(r));
            break;
        case OPT_FLAG:
            json_object_set_new(j, x->key, json_boolean(int_value(&r->opt, x)));
            break;
        default:
            json_object_set_new(j, x->key, json_integer(int_value(&r->opt, x)));
        }
    }
}

int hub_option_key(const char *key)
{
    for (int i = 0; i < OPTIONS; i++)
        if (strcmp(options[i].key, key) == 0)
            return 1;
    return 0;
}

/* ---- taking up a stored state --------------------------------------------- */

/* Whether key is one of the stored options' (or the match's count). */
static int stored_key(const char *key)
{
    for (int i = 0; i < OPTIONS; i++)
        if (options[i].kept && (strcmp(options[i].key, key) == 0 ||
                                (options[i].kind == OPT_MATCH && strcmp(key, "wins") == 0)))
            return 1;
    return 0;
}

/* Reads option x of a stored state j into o (a text into *text): 0, or -1
 * when it is missing (and not optional) or of another type. */
static int read_one(json_t *j, const RoomOption *x, RoomOptions *o, int wins[2],
                    const char **text)
{
    char format[8];
    const char *letter = x->kind == OPT_RULES || x->kind == OPT_BOTS ? "s"
                         : x->kind == OPT_FLAG                      ? "b"
                                                                    : "i";
    snprintf(format, sizeof format, "{s%c%s}", x->optional ? '?' : ':', letter);
    if (*letter == 's')
        return json_unpack(j, format, x->key, text);
    *int_of(o, x) = x->fallback;
    if (json_unpack(j, format, x->key, int_of(o, x)))
        return -1;
    return x->kind == OPT_MATCH ? json_unpack(j, "{s?[ii]}", "wins", &wins[0], &wins[1]) : 0;
}

/* Whether the options read are within their limits (the texts parsed into
 * o). */
static int read_within(const char *const *text, RoomOptions *o, const int wins[2])
{
    for (int i = 0; i < OPTIONS; i++) {
        const RoomOption *x = &options[i];
        const char *t = text[i];
        if ((x->kind == OPT_RULES && lit_rules_parse(&o->rules, t, NULL) != LIT_OK) ||
            (x->kind == OPT_BOTS && lit_bot_spec_parse(&o->bots, t, strlen(t)) != LIT_OK) ||
            ((x->kind == OPT_INT || x->kind == OPT_MATCH) && !within(x, int_value(o, x))))
            return 0;
        if (x->kind == OPT_MATCH &&
            (wins[0] < 0 || wins[1] < 0 || wins[0] > o->match_to || wins[1] > o->match_to))
            return 0;
    }
    return 1;
}

int hub_option_read(json_t *j, const char *const *also, RoomOptions *o, int wins[2])
{
    const char *text[OPTIONS] = {NULL};
    const char *key;
    json_t *value;
    int unread = !json_is_object(j);
    wins[0] = wins[1] = 0;
    for (int i = 0; i < OPTIONS; i++)
        if (options[i].kept && read_one(j, &options[i], o, wins, &text[i]))
            unread = 1;
    json_object_foreach(j, key, value) {
        (void)value;
        int known = stored_key(key);
        for (const char *const *k = also; !known && *k; k++)
            known = strcmp(*k, key) == 0;
        if (!known)
            unread = 1;
    }
    if (unread)
        return HUB_OPTION_UNREAD;
    return read_within(text, o, wins) ? 0 : HUB_OPTION_RANGE;
}
