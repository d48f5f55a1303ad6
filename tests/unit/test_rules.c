/* test_rules.c - presets, options, their text form. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "helpers.h"

static const char *fmt(const LitRules *r)
{
    static char buf[LIT_RULES_TEXT_MAX];
    cr_assert_gt(lit_rules_format(r, buf, sizeof buf), 0);
    return buf;
}

Test(rules, default_is_classic_six)
{
    LitRules d, c = rules_of("classic");
    lit_rules_default(&d);
    cr_assert_eq(memcmp(&d, &c, sizeof d), 0);
    cr_assert_eq(d.players, 6);
    cr_assert_eq(d.deck, LIT_DECK_NO8);
    cr_assert_eq(d.misclaim, LIT_MISCLAIM_CANCEL);
    cr_assert_eq(d.claim_time, LIT_CLAIM_OWN_TURN);
    cr_assert_eq(d.after_claim, LIT_AFTER_CLAIMER);
    cr_assert_eq(d.first, LIT_FIRST_DEALER);
    cr_assert_str_eq(fmt(&d), "classic");
}

Test(rules, presets)
{
    LitRules r = rules_of("club");
    cr_assert_eq(r.misclaim, LIT_MISCLAIM_OPPONENTS);
    cr_assert_eq(r.early_end, 1);
    r = rules_of("encyclopedia");
    cr_assert_eq(r.deck, LIT_DECK_NO2);
    cr_assert_eq(r.misclaim, LIT_MISCLAIM_POINT_OFF);
    cr_assert_eq(r.first, LIT_FIRST_LEFT);
    cr_assert_eq(r.counts, LIT_COUNTS_HIDDEN);
    cr_assert_eq(rules_of("jokers").deck, LIT_DECK_JOKERS);
    cr_assert_eq(rules_of("quartets").deck, LIT_DECK_QUARTETS);
    cr_assert_eq(rules_of("india").double_high, 1);
    for (int i = 0; i < lit_rules_preset_count(); i++) {
        const char *name = lit_rules_preset_name(i);
        LitRules p;
        cr_assert_eq(lit_rules_preset(&p, name, strlen(name)), LIT_OK);
        cr_assert_str_eq(fmt(&p), name, "a preset formats as its own name");
    }
}

Test(rules, overrides_and_canonical_text)
{
    LitRules r = rules_of("classic misclaim=opponents players=8");
    cr_assert_eq(r.players, 8);
    cr_assert_str_eq(fmt(&r), "classic players=8 misclaim=opponents");
    /* the preset needing the fewest overrides is chosen */
    r = rules_of("classic misclaim=opponents early-end=on history=full counts=shown");
    cr_assert_str_eq(fmt(&r), "club");
    r = rules_of("club misclaim=cancel");
    cr_assert_str_eq(fmt(&r), "club misclaim=cancel");
    r = rules_of("  classic   bluff=on  ");
    cr_assert_str_eq(fmt(&r), "classic bluff=on");
    /* overrides apply in order: a key given twice keeps its last value,
     * as repeated --rule options do (docs/RULES.md, "Presets") */
    r = rules_of("classic players=8 misclaim=opponents players=6");
    cr_assert_str_eq(fmt(&r), "classic misclaim=opponents");
    r = rules_of("club misclaim=cancel misclaim=opponents");
    cr_assert_str_eq(fmt(&r), "club");
}

Test(rules, every_option_value_round_trips)
{
    const char *all[] = {
        "players=4", "players=6", "players=8", "players=10", "players=12",
        "deck=no8", "deck=no2", "deck=no7", "deck=jokers", "deck=quartets",
        "misclaim=cancel", "misclaim=opponents", "misclaim=point-off",
        "claim-time=own-turn", "claim-time=any-time", "claim-time=penalty",
        "split-claims=on", "after-claim=team", "bluff=on", "must-claim=on",
        "double-high=on", "early-end=on", "first=left", "pass-play=on",
        "history=full", "counts=shown", "counts=hidden"};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) {
        char text[128];
        snprintf(text, sizeof text, "classic %s", all[i]);
        LitRules r = rules_of(text), back;
        cr_assert_eq(lit_rules_parse(&back, fmt(&r), NULL), LIT_OK);
        cr_assert_eq(memcmp(&r, &back, sizeof r), 0, "%s", text);
    }
    cr_assert_eq(lit_rules_option_count(), 14);
    cr_assert_str_eq(lit_rules_option_name(0), "players");
}

Test(rules, option_values_read_back_as_written)
{
    LitRules r = rules_of("encyclopedia players=8 bluff=on");
    const char *want[][2] = {{"players", "8"}, {"deck", "no2"}, {"misclaim", "point-off"},
                             {"bluff", "on"}, {"first", "left"}, {"pass-play", "off"},
                             {"counts", "hidden"}};
    for (size_t w = 0; w < sizeof want / sizeof want[0]; w++) {
        int found = 0;
        for (int i = 0; i < lit_rules_option_count(); i++)
            if (strcmp(lit_rules_option_name(i), want[w][0]) == 0) {
                cr_assert_str_eq(lit_rules_option_value(&r, i), want[w][1], "%s", want[w][0]);
                found = 1;
            }
        cr_assert(found, "no option %s", want[w][0]);
    }
    cr_assert_null(lit_rules_option_value(&r, -1));
    cr_assert_null(lit_rules_option_value(&r, lit_rules_option_count()));
    r.deck = 9;
    cr_assert_null(lit_rules_option_value(&r, 1));
}

Test(rules, errors_name_the_word_and_change_nothing)
{
    LitRules r = rules_of("club"), before = r;
    const char *bad = NULL;
    cr_assert_eq(lit_rules_parse(&r, "classics", &bad), LIT_UNKNOWN_PRESET);
    cr_assert_str_eq(bad, "classics");
    cr_assert_eq(lit_rules_parse(&r, "classic misclaim=nobody", &bad), LIT_BAD_RULE_VALUE);
    cr_assert_str_eq(bad, "misclaim=nobody");
    cr_assert_eq(lit_rules_parse(&r, "classic players=7", &bad), LIT_BAD_RULE_VALUE);
    cr_assert_eq(lit_rules_parse(&r, "classic colour=red", &bad), LIT_UNKNOWN_RULE);
    cr_assert_eq(lit_rules_parse(&r, "classic bluff", &bad), LIT_UNKNOWN_RULE);
    cr_assert_eq(lit_rules_parse(&r, "", &bad), LIT_UNKNOWN_PRESET);
    cr_assert_eq(lit_rules_set(&r, "players=", 8), LIT_BAD_RULE_VALUE);
    cr_assert_eq(memcmp(&r, &before, sizeof r), 0);
    r.players = 7;
    cr_assert_eq(lit_rules_check(&r), LIT_BAD_RULE_VALUE);
    char buf[4]; /* "club" needs 5 bytes with its 0 */
    cr_assert_eq(lit_rules_format(&before, buf, sizeof buf), LIT_NO_SPACE);
}

Test(rules, set_values_and_totals)
{
    LitRules r = rules_of("classic");
    cr_assert_eq(lit_rules_total_points(&r), 8);
    r = rules_of("india");
    cr_assert_eq(lit_rules_total_points(&r), 12);
    cr_assert_eq(lit_rules_set_value(&r, 1), 2); /* high-clubs */
    cr_assert_eq(lit_rules_set_value(&r, 0), 1);
    r = rules_of("jokers double-high=on");
    cr_assert_eq(lit_rules_total_points(&r), 13);
    r = rules_of("quartets double-high=on");
    cr_assert_eq(lit_rules_total_points(&r), 13);
    r = rules_of("jokers");
    cr_assert_eq(lit_rules_total_points(&r), 9);
}

/* ---- the words for people (lit_rules_option_title and the rest) ---- */

static int option_index(const char *key)
{
    for (int i = 0; i < lit_rules_option_count(); i++)
        if (strcmp(lit_rules_option_name(i), key) == 0)
            return i;
    cr_assert_fail("no option %s", key);
    return -1;
}

/* The rules of classic with option i at value v. */
static LitRules with_value(int i, int v)
{
    char text[128];
    snprintf(text, sizeof text, "classic %s=%s", lit_rules_option_name(i),
             lit_rules_option_value_name(i, v));
    return rules_of(text);
}

static const char *const number_words[] = {"zero", "one", "two", "three", "four",
                                           "five", "six", "seven", "eight", "nine",
                                           "ten", "eleven", "twelve", "thirteen"};

static const char *number_word(int n)
{
    cr_assert(n >= 0 && n < (int)(sizeof number_words / sizeof *number_words), "%d", n);
    return number_words[n];
}

Test(rules, every_option_and_value_has_words)
{
    LitRules def;
    lit_rules_default(&def);
    for (int i = 0; i < lit_rules_option_count(); i++) {
        const char *title = lit_rules_option_title(i);
        cr_assert(title && title[0], "%s has no title", lit_rules_option_name(i));
        int n = lit_rules_option_values(i);
        cr_assert_geq(n, 2, "%s", lit_rules_option_name(i));
        int has_default = 0;
        for (int v = 0; v < n; v++) {
            const char *name = lit_rules_option_value_name(i, v);
            const char *text = lit_rules_option_value_text(i, v);
            cr_assert(name && name[0], "%s value %d", lit_rules_option_name(i), v);
            cr_assert(text && strlen(text) > 10, "%s=%s has no text", lit_rules_option_name(i),
                      name);
            cr_assert_eq(text[strlen(text) - 1], '.', "%s=%s: one sentence: %s",
                         lit_rules_option_name(i), name, text);
            /* the value the words are for is the one the option takes */
            LitRules r = with_value(i, v);
            cr_assert_str_eq(lit_rules_option_value(&r, i), name);
            has_default |= strcmp(lit_rules_option_value(&def, i), name) == 0;
        }
        cr_assert(has_default, "%s: the default is one of its values", lit_rules_option_name(i));
        cr_assert_null(lit_rules_option_value_name(i, n));
        cr_assert_null(lit_rules_option_value_text(i, n));
        cr_assert_null(lit_rules_option_value_text(i, -1));
    }
    int past = lit_rules_option_count();
    cr_assert_null(lit_rules_option_title(past));
    cr_assert_null(lit_rules_option_title(-1));
    cr_assert_eq(lit_rules_option_values(past), 0);
    cr_assert_null(lit_rules_option_value_text(past, 0));
    for (int p = 0; p < lit_rules_preset_count(); p++) {
        const char *text = lit_rules_preset_text(p);
        cr_assert(text && strlen(text) > 10, "preset %s has no text", lit_rules_preset_name(p));
    }
    cr_assert_null(lit_rules_preset_text(lit_rules_preset_count()));
    cr_assert_null(lit_rules_preset_text(-1));
}

/* docs/RULES.md's outcome table: each misclaim text says what happens in
 * both wrong cases (the claiming team held every card; an opponent held
 * one), and what each case gives. */
Test(rules, the_misclaim_texts_name_both_wrong_cases)
{
    int i = option_index("misclaim");
    static const struct {
        const char *value, *team_held, *opponent_held;
    } want[] = {
        {"cancel", "cancelled (nobody scores the set) when the claiming team held every card",
         "when an opponent held one, the opponents score it"},
        {"opponents", "gives the set to the opponents, both when the claiming team held every card",
         "and when an opponent held one"},
        {"point-off", "cancelled (nobody scores the set) when the claiming team held every card",
         "when an opponent held one, the claiming team loses the set's points and nobody gains"},
    };
    cr_assert_eq(lit_rules_option_values(i), 3);
    for (int v = 0; v < 3; v++) {
        const char *text = lit_rules_option_value_text(i, v);
        cr_assert_str_eq(lit_rules_option_value_name(i, v), want[v].value);
        cr_assert(strstr(text, want[v].team_held), "%s: %s", want[v].value, text);
        cr_assert(strstr(text, want[v].opponent_held), "%s: %s", want[v].value, text);
    }
}

/* The deck texts give the cards and the sets the engine makes of them, and
 * the players texts the teams. */
Test(rules, the_deck_and_players_texts_count_what_the_engine_does)
{
    int d = option_index("deck");
    for (int v = 0; v < lit_rules_option_values(d); v++) {
        LitRules r = with_value(d, v);
        const char *text = lit_rules_option_value_text(d, v);
        char cards[16], half[32], sets[32];
        snprintf(cards, sizeof cards, "%d cards", lit_deck_cards(r.deck));
        snprintf(half, sizeof half, "%s half-suits", number_word(lit_deck_sets(r.deck)));
        snprintf(sets, sizeof sets, "%s sets", number_word(lit_deck_sets(r.deck)));
        cr_assert_eq(strncmp(text, cards, strlen(cards)), 0, "%s", text);
        cr_assert(strstr(text, half) || strstr(text, sets), "%s: not \"%s\": %s",
                  lit_rules_option_value_name(d, v), half, text);
    }
    int p = option_index("players");
    for (int v = 0; v < lit_rules_option_values(p); v++) {
        LitRules r = with_value(p, v);
        char want[64];
        snprintf(want, sizeof want, "players in two teams of %s.", number_word(r.players / 2));
        const char *text = lit_rules_option_value_text(p, v);
        cr_assert(strstr(text, want), "%s", text);
        char first[16];
        snprintf(first, sizeof first, "%s", number_word(r.players));
        first[0] = (char)(first[0] - 'a' + 'A');
        cr_assert_eq(strncmp(text, first, strlen(first)), 0, "%s", text);
    }
}

Test(status, table)
{
    cr_assert_str_eq(lit_status_name(LIT_OK), "ok");
    cr_assert_str_eq(lit_status_name(LIT_NOT_YOUR_TURN), "not_your_turn");
    cr_assert_str_eq(lit_status_text(LIT_OWN_CARD), "you hold that card");
    cr_assert_eq(lit_status_from_name("target_empty"), LIT_TARGET_EMPTY);
    cr_assert_eq(lit_status_from_name("nope"), 1);
    cr_assert_str_eq(lit_status_name(5), "unknown");
    cr_assert_str_eq(lit_status_name(-1000), "unknown");
    /* names are unique */
    for (int a = LIT_STATUS_MIN_; a <= 0; a++)
        for (int b = a + 1; b <= 0; b++)
            cr_assert_str_neq(lit_status_name(a), lit_status_name(b));
}
