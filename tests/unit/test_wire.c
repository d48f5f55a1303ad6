/* test_wire.c - the frames' JSON written as text (src/wire/text.c): valid
 * JSON that reads back to what it says, for every kind of event of random
 * games under every preset, every seat's legal list, and strings that need
 * escaping; and actions read from JSON (wire_read_action). */
#include <criterion/criterion.h>
#include <jansson.h>
#include <limits.h>
#include <string.h>

#include "../../src/wire/wire.h"
#include "helpers.h"

/* The text read back (asserted to be JSON of the given type). */
static json_t *read_back(WireText *t, json_type type)
{
    cr_assert_not(t->failed);
    json_error_t err;
    json_t *j = json_loadb(t->buf, t->len, JSON_DECODE_ANY, &err);
    cr_assert_not_null(j, "not JSON: %s in %.*s", err.text, (int)t->len, t->buf);
    cr_assert_eq(json_typeof(j), type);
    return j;
}

Test(wire, strings_are_escaped_and_read_back_whole)
{
    static const char *const cases[] = {"plain", "quote \" and \\ back", "tab\tnew\nline\x01\x1f",
                                        "caf\xc3\xa9 \xe2\x80\x8f \xf0\x9f\x83\x8f", ""};
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        WireText t = {0};
        wire_text_str(&t, cases[i]);
        json_t *j = read_back(&t, JSON_STRING);
        cr_assert_str_eq(json_string_value(j), cases[i]);
        json_decref(j);
        wire_text_free(&t);
    }
}

/* A string written where the buffer ends (it grows in the middle of the
 * string, at an escape or not), and one longer than a buffer. */
Test(wire, strings_grow_the_buffer_midway)
{
    char s[3000];
    for (size_t i = 0; i < sizeof s - 1; i++)
        s[i] = (char)(i % 3 == 0 ? '\x01' : i % 3 == 1 ? '"' : 'a');
    s[sizeof s - 1] = 0;
    for (size_t before = 1000; before < 1030; before++) {
        WireText t = {0};
        wire_text_raw(&t, "[", 1);
        for (size_t i = 1; i < before; i++)
            wire_text_raw(&t, " ", 1);
        wire_text_str(&t, s + before % 7);
        wire_text_raw(&t, "]", 1);
        json_t *j = read_back(&t, JSON_ARRAY);
        cr_assert_str_eq(json_string_value(json_array_get(j, 0)), s + before % 7,
                         "the string after %zu bytes", before);
        json_decref(j);
        wire_text_free(&t);
    }
}

/* wire_text_name quotes a name without escaping it: every name it is
 * given, of every deck and table, must be printable ASCII with no quote or
 * backslash (and not empty). */
static void assert_plain_name(const char *name, const char *what, int i)
{
    cr_assert(name && *name, "%s %d: no name", what, i);
    for (const char *c = name; *c; c++)
        cr_assert(*c >= 0x20 && *c < 0x7f && *c != '"' && *c != '\\',
                  "%s %d: \"%s\" needs escaping", what, i, name);
    WireText t = {0}, u = {0};
    wire_text_name(&t, name);
    wire_text_str(&u, name);
    cr_assert(t.len == u.len && memcmp(t.buf, u.buf, t.len) == 0, "%s %d", what, i);
    wire_text_free(&t);
    wire_text_free(&u);
}

Test(wire, names_quoted_as_they_are_need_no_escaping)
{
    for (int deck = 0; deck < LIT_DECK_COUNT; deck++) {
        for (int c = 0; c < lit_deck_cards(deck); c++) {
            assert_plain_name(lit_card_name(deck, c), "card", c);
            cr_assert_leq(strlen(lit_card_name(deck, c)), LIT_CARD_NAME_MAX);
        }
        for (int set = 0; set < lit_deck_sets(deck); set++)
            assert_plain_name(lit_set_name(deck, set), "set", set);
    }
    for (int p = LIT_PHASE_PLAY; p <= LIT_PHASE_OVER; p++)
        assert_plain_name(lit_phase_name(p), "phase", p);
    for (int a = LIT_HIT; a <= LIT_POINT_OFF; a++) /* unknown is never written */
        assert_plain_name(lit_answer_name(a), "answer", a);
    for (int r = LIT_ONGOING; r <= LIT_ABORTED; r++)
        assert_plain_name(lit_result_name(r), "result", r);
    for (int st = 0; st >= LIT_STATUS_MIN_; st--)
        assert_plain_name(lit_status_name(st), "status", st);
    for (int team = 0; team < 2; team++)
        assert_plain_name(wire_team_name(team), "team", team);
    for (int k = LIT_ASK; k <= LIT_CHOOSE; k++)
        assert_plain_name(wire_action_name(k), "action", k);
}

Test(wire, integers_at_their_ends)
{
    static const long long cases[] = {0, 7, -1, 1234567890123LL, LLONG_MAX, LLONG_MIN};
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        WireText t = {0};
        wire_text_int(&t, cases[i]);
        char want[32];
        snprintf(want, sizeof want, "%lld", cases[i]);
        cr_assert_eq(t.len, strlen(want));
        cr_assert(memcmp(t.buf, want, t.len) == 0, "%lld written as %.*s", cases[i], (int)t.len,
                  t.buf);
        wire_text_free(&t);
    }
}

/* The legal list of a seat as text, against the referee's own. */
static void check_legal(const LitGame *g, const LitLog *log, int seat)
{
    LitView v;
    cr_assert_eq(lit_view_make(&v, g, log, seat), LIT_OK);
    json_t *obj = json_object();
    wire_set_legal(obj, &v);
    LitAction legal[LIT_MAX_LEGAL];
    int n = lit_game_legal(g, seat, legal, LIT_MAX_LEGAL), asks = 0, others = 0;
    for (int i = 0; i < n; i++) {
        if (legal[i].kind == LIT_ASK) {
            json_t *a = json_array_get(json_object_get(obj, "asks"), (size_t)asks++);
            cr_assert_str_eq(json_string_value(json_object_get(a, "card")),
                             lit_card_name(g->pub.rules.deck, legal[i].card));
            cr_assert_eq(json_integer_value(json_object_get(a, "target")), legal[i].target + 1);
        } else {
            others++;
        }
    }
    cr_assert_eq(json_array_size(json_object_get(obj, "asks")), (size_t)asks);
    cr_assert_eq(json_array_size(json_object_get(obj, "passes")) +
                     json_array_size(json_object_get(obj, "choices")),
                 (size_t)others);
    unsigned claimable = lit_claimable(&g->pub, seat);
    cr_assert_eq(json_array_size(json_object_get(obj, "claimable")),
                 (size_t)__builtin_popcount(claimable));
    json_decref(obj);
}

/* The event as text, against the event itself. */
static void check_event(const LitRules *rules, const LitEvent *e, uint32_t n)
{
    json_t *j = wire_event(rules, e, n);
    cr_assert_not_null(j, "event %u does not read back", n);
    cr_assert_eq(json_integer_value(json_object_get(j, "n")), n);
    cr_assert_eq(json_integer_value(json_object_get(j, "seat")), e->action.seat + 1);
    cr_assert_str_eq(json_string_value(json_object_get(j, "action")),
                     wire_action_name(e->action.kind));
    char line[LIT_LINE_MAX];
    lit_event_format(rules, e, (int)n, line, sizeof line);
    cr_assert_str_eq(json_string_value(json_object_get(j, "line")), line);
    if (e->action.kind == LIT_CLAIM) {
        json_t *truth = json_object_get(j, "truth");
        int first = lit_set_first(rules->deck, e->action.set);
        for (int i = 0; i < lit_deck_set_size(rules->deck); i++)
            cr_assert_eq(json_integer_value(
                             json_object_get(truth, lit_card_name(rules->deck, first + i))),
                         e->truth[i] + 1);
    } else if (e->action.kind == LIT_ASK) {
        cr_assert_str_eq(json_string_value(json_object_get(j, "card")),
                         lit_card_name(rules->deck, e->action.card));
        cr_assert_str_eq(json_string_value(json_object_get(j, "answer")),
                         lit_answer_name(e->answer));
    }
    json_decref(j);
}

Test(wire, random_games_of_every_preset_read_back)
{
    static LitEvent events[LIT_MAX_ACTIONS];
    int kinds[5] = {0};
    for (int p = 0; p < lit_rules_preset_count(); p++) {
        const char *name = lit_rules_preset_name(p);
        LitRules rules;
        cr_assert_eq(lit_rules_preset(&rules, name, strlen(name)), LIT_OK);
        for (uint64_t seed = 1; seed <= 4; seed++) {
            LitGame g;
            LitLog log;
            LitRng rng;
            lit_log_init(&log, events, LIT_MAX_ACTIONS);
            cr_assert_eq(lit_game_new(&g, &rules, seed, 0), LIT_OK);
            lit_rng_seed(&rng, seed);
            while (g.pub.result == LIT_ONGOING && log.len < LIT_MAX_ACTIONS) {
                int t = g.pub.turn;
                check_legal(&g, &log, t);
                WireText st = {0};
                wire_text_state(&st, &g.pub);
                json_t *state = read_back(&st, JSON_OBJECT);
                cr_assert_eq(json_integer_value(json_object_get(state, "actions")), g.pub.actions);
                json_decref(state);
                wire_text_free(&st);
                LitAction legal[LIT_MAX_LEGAL], a;
                int n = lit_game_legal(&g, t, legal, LIT_MAX_LEGAL);
                unsigned claimable = lit_claimable(&g.pub, t);
                if (claimable && (n == 0 || lit_rng_below(&rng, 4) == 0)) {
                    /* a claim, right or wrong: by the true holders, or all by itself */
                    a = claim_true(&g, t + 1, lit_set_name(rules.deck, lit_lsb(claimable)));
                    if (lit_rng_below(&rng, 2))
                        for (int i = 0; i < lit_deck_set_size(rules.deck); i++)
                            a.holders[i] = (uint8_t)t;
                } else {
                    cr_assert(n > 0, "%s: seat %d on turn with nothing to do", name, t + 1);
                    a = legal[lit_rng_below(&rng, (uint32_t)n)];
                }
                int status = lit_game_play(&g, &log, &a);
                if (status != LIT_OK)
                    break; /* a claim these rules refuse: the game so far is checked */
                kinds[log.events[log.len - 1].action.kind]++;
                check_event(&rules, &log.events[log.len - 1], log.len);
            }
        }
    }
    cr_assert(kinds[LIT_ASK] > 0 && kinds[LIT_CLAIM] > 0, "asks %d, claims %d", kinds[LIT_ASK],
              kinds[LIT_CLAIM]);
}

/* A claim's holders are one seat a card: a card named twice, as "2c" and
 * "2C" (two JSON keys, one card), is refused, not the last one taken. */
Test(wire, a_claim_naming_a_card_twice_is_refused)
{
    LitRules r;
    cr_assert_eq(lit_rules_parse(&r, "classic players=4", NULL), LIT_OK);
    static const char *const extra[] = {"n", NULL};
    json_error_t jerr;
    json_t *j = json_loads("{\"n\":1,\"action\":\"claim\",\"set\":\"low-clubs\",\"holders\":"
                           "{\"2c\":1,\"2C\":3,\"3c\":1,\"4c\":1,\"5c\":1,\"6c\":1,\"7c\":1}}",
                           0, &jerr);
    cr_assert_not_null(j, "%s", jerr.text);
    LitAction a;
    WireError err;
    cr_assert_eq(wire_read_action(&r, 0, j, extra, &a, &err), -1);
    cr_assert_str_eq(err.name, "bad_claim_cards");
    cr_assert_str_eq(err.detail, "holders name 2c twice");
    json_object_del(json_object_get(j, "holders"), "2C");
    cr_assert_eq(wire_read_action(&r, 0, j, extra, &a, &err), 0, "%s: %s", err.name, err.detail);
    cr_assert_eq(a.kind, LIT_CLAIM);
    json_decref(j);
}

/* A refusal quotes what was wrong: the card, the set, the seat (and the
 * seats there are). */
Test(wire, refusals_name_the_value)
{
    LitRules r;
    cr_assert_eq(lit_rules_parse(&r, "classic players=4", NULL), LIT_OK);
    static const char *const extra[] = {"n", NULL};
    static const struct {
        const char *json, *name, *detail;
    } cases[] = {
        {"{\"action\":\"ask\",\"card\":\"Zz\",\"target\":2}", "bad_card",
         "no such card in this deck: 'Zz'"},
        {"{\"action\":\"ask\",\"card\":\"2c\",\"target\":9}", "bad_seat",
         "target is no seat of this game: 9 (1 to 4)"},
        {"{\"action\":\"claim\",\"set\":\"purple\",\"holders\":{}}", "bad_set",
         "no such set in this deck: 'purple'"},
        {"{\"action\":\"claim\",\"set\":\"low-clubs\",\"holders\":{\"Kc\":1}}", "bad_card",
         "a card named in holders is not of the set: 'Kc'"},
        {"{\"action\":\"claim\",\"set\":\"low-clubs\",\"holders\":{\"2c\":0}}", "bad_seat",
         "a holder is no seat of this game: 0 (1 to 4)"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        json_t *j = json_loads(cases[i].json, 0, NULL);
        cr_assert_not_null(j, "%s", cases[i].json);
        LitAction a;
        WireError err;
        cr_assert_eq(wire_read_action(&r, 0, j, extra, &a, &err), -1, "%s", cases[i].json);
        cr_expect_str_eq(err.name, cases[i].name, "%s", cases[i].json);
        cr_expect_str_eq(err.detail, cases[i].detail, "%s", cases[i].json);
        json_decref(j);
    }
}
