/* wire.c - the JSON words of a game (wire.h). */
#include "wire.h"

#include <stdio.h>
#include <string.h>

#include "literature/notation.h"

json_t *wire_cards(int deck, uint64_t cards)
{
    json_t *a = json_array();
    while (cards)
        json_array_append_new(a, json_string(lit_card_name(deck, lit_pop_lsb(&cards))));
    return a;
}

json_t *wire_sets(int deck)
{
    json_t *o = json_object();
    for (int set = 0; set < lit_deck_sets(deck); set++)
        json_object_set_new(o, lit_set_name(deck, set),
                            wire_cards(deck, lit_set_mask(deck, set)));
    return o;
}

json_t *wire_seats(unsigned seats)
{
    json_t *a = json_array();
    for (; seats; seats &= seats - 1)
        json_array_append_new(a, json_integer(lit_lsb(seats) + 1));
    return a;
}

const char *wire_team_name(int team)
{
    return team ? "B" : "A";
}

/* The action kinds as the wire writes them ("action"), and the keys each
 * takes: one table for the writer, the reader and the bot protocol. */
static const struct {
    const char *name;
    const char *const keys[4];
} kinds[] = {
    [LIT_ASK] = {"ask", {"action", "card", "target", NULL}},
    [LIT_CLAIM] = {"claim", {"action", "set", "holders", NULL}},
    [LIT_PASS] = {"pass", {"action", "target", NULL}},
    [LIT_CHOOSE] = {"choose", {"action", "target", NULL}},
};
enum { KINDS = (int)(sizeof kinds / sizeof kinds[0]) };

int wire_action_kind(const char *name)
{
    for (int k = LIT_ASK; name && k < KINDS; k++)
        if (strcmp(kinds[k].name, name) == 0)
            return k;
    return 0;
}

const char *wire_action_name(int kind)
{
    return kinds[kind == LIT_ASK || kind == LIT_CLAIM || kind == LIT_PASS ? kind : LIT_CHOOSE].name;
}

/* ---- reading ------------------------------------------------------------- */

static int in_list(const char *key, const char *const *list)
{
    for (; list && *list; list++)
        if (strcmp(key, *list) == 0)
            return 1;
    return 0;
}

int wire_cut(const char *s, int max)
{
    int n = 0;
    while (n < max && s[n])
        n++;
    if (s[n])
        while (n > 0 && ((unsigned char)s[n] & 0xC0) == 0x80)
            n--; /* s[n] continues a character: cut before that character */
    return n;
}

const char *wire_unknown_key(json_t *obj, const char *const *allowed,
                             const char *const *also)
{
    const char *key;
    json_t *value;
    json_object_foreach(obj, key, value) {
        (void)value;
        if (!in_list(key, allowed) && !in_list(key, also))
            return key;
    }
    return NULL;
}

static int why_is(WireError *err, const char *name, const char *detail)
{
    err->name = name;
    snprintf(err->detail, sizeof err->detail, "%.200s", detail);
    return -1;
}

/* A seat number 1..players from a JSON value. */
static int seat_of(const LitRules *r, json_t *v, uint8_t *out)
{
    if (!json_is_integer(v))
        return -1;
    json_int_t s = json_integer_value(v);
    if (s < 1 || s > r->players)
        return -1;
    *out = (uint8_t)(s - 1);
    return 0;
}

/* bad_seat for a number (what) that is no seat: the number, and the seats. */
static int bad_seat(WireError *err, const LitRules *r, json_t *v, const char *what)
{
    char text[96];
    snprintf(text, sizeof text, "%s is no seat of this game: %" JSON_INTEGER_FORMAT " (1 to %d)",
             what, json_integer_value(v), r->players);
    return why_is(err, "bad_seat", text);
}

static const char *string_of(json_t *obj, const char *key)
{
    return json_string_value(json_object_get(obj, key));
}

int wire_read_action(const LitRules *r, int seat, json_t *obj, const char *const *extra,
                     LitAction *out, WireError *err)
{
    char text[WIRE_WHY_MAX / 2];
    const char *kind = string_of(obj, "action");
    if (!kind)
        return why_is(err, "bad_message", "no string \"action\"");
    int k = wire_action_kind(kind);
    if (!k)
        return why_is(err, "bad_message", "action is none of ask, claim, pass, choose");
    const char *const *keys = kinds[k].keys;
    const char *bad = wire_unknown_key(obj, keys, extra);
    if (bad) {
        snprintf(text, sizeof text, "unknown key \"%.*s\" in %s", wire_cut(bad, 64), bad, kind);
        return why_is(err, "bad_message", text);
    }
    for (const char *const *key = keys; *key; key++)
        if (!json_object_get(obj, *key)) {
            snprintf(text, sizeof text, "%s without \"%s\"", kind, *key);
            return why_is(err, "bad_message", text);
        }

    LitAction a = lit_action_make(LIT_ASK, seat);
    if (k == LIT_ASK) {
        const char *card = string_of(obj, "card");
        if (!card)
            return why_is(err, "bad_message", "card is not a string");
        if (!json_is_integer(json_object_get(obj, "target")))
            return why_is(err, "bad_message", "target is not a number");
        int c = lit_card_parse(r->deck, card, strlen(card));
        if (c < 0) {
            snprintf(text, sizeof text, "no such card in this deck: '%.*s'", wire_cut(card, 32),
                     card);
            return why_is(err, "bad_card", text);
        }
        a.card = (uint8_t)c;
        if (seat_of(r, json_object_get(obj, "target"), &a.target))
            return bad_seat(err, r, json_object_get(obj, "target"), "target");
    } else if (k == LIT_CLAIM) {
        const char *set = string_of(obj, "set");
        if (!set)
            return why_is(err, "bad_message", "set is not a string");
        int st = lit_set_parse(r->deck, set, strlen(set));
        if (st < 0) {
            snprintf(text, sizeof text, "no such set in this deck: '%.*s'", wire_cut(set, 32), set);
            return why_is(err, "bad_set", text);
        }
        json_t *holders = json_object_get(obj, "holders");
        if (!json_is_object(holders))
            return why_is(err, "bad_message", "holders is not an object");
        a.kind = LIT_CLAIM;
        a.set = (uint8_t)st;
        const char *name;
        json_t *holder;
        uint32_t named = 0; /* the set's cards named: "2c" and "2C" are one */
        json_object_foreach(holders, name, holder) {
            int c = lit_card_parse(r->deck, name, strlen(name));
            if (c < 0 || lit_set_of(r->deck, c) != st) {
                snprintf(text, sizeof text, "a card named in holders is not of the set: '%.*s'",
                         wire_cut(name, 32), name);
                return why_is(err, "bad_card", text);
            }
            int pos = lit_pos_of(r->deck, c);
            if (named >> pos & 1) {
                snprintf(text, sizeof text, "holders name %s twice", lit_card_name(r->deck, c));
                return why_is(err, "bad_claim_cards", text);
            }
            named |= UINT32_C(1) << pos;
            if (!json_is_integer(holder))
                return why_is(err, "bad_message", "a holder is not a number");
            if (seat_of(r, holder, &a.holders[pos]))
                return bad_seat(err, r, holder, "a holder");
        }
    } else {
        a.kind = (uint8_t)k;
        if (!json_is_integer(json_object_get(obj, "target")))
            return why_is(err, "bad_message", "target is not a number");
        if (seat_of(r, json_object_get(obj, "target"), &a.target))
            return bad_seat(err, r, json_object_get(obj, "target"), "target");
    }
    *out = a;
    return 0;
}

/* ---- the scoresheet ------------------------------------------------------- */

/* The non-zero least holdings: {"seat":{"set":n,...},...}. */
static json_t *must_hold(const LitKnow *k)
{
    int deck = k->pub.rules.deck;
    json_t *all = json_object();
    for (int s = 0; s < k->pub.rules.players; s++) {
        json_t *seat = NULL;
        for (int set = 0; set < lit_deck_sets(deck); set++) {
            int n = lit_know_min_hold(k, s, set);
            if (!n)
                continue;
            if (!seat)
                seat = json_object();
            json_object_set_new(seat, lit_set_name(deck, set), json_integer(n));
        }
        if (seat) {
            char key[12];
            snprintf(key, sizeof key, "%d", s + 1);
            json_object_set_new(all, key, seat);
        }
    }
    return all;
}

json_t *wire_best_assignment(const LitKnow *k, const LitOdds *o, int team, int set)
{
    int deck = k->pub.rules.deck;
    if (!(o->best_p[team][set] > 0))
        return json_null();
    json_t *best = json_object();
    for (int p = 0; p < lit_deck_set_size(deck); p++)
        json_object_set_new(best, lit_card_name(deck, lit_set_first(deck, set) + p),
                            json_integer(o->best[team][set][p] + 1));
    return best;
}

/* One team's claim figures for a set. */
static json_t *claim_figures(const LitKnow *k, const LitOdds *o, int team, int set, int estimate)
{
    json_t *best = wire_best_assignment(k, o, team, set);
    json_t *j = json_pack("{s:f,s:o,s:f}", "team_holds_all", o->team_all[team][set],
                          "best_assignment", best, "assignment_correct", o->best_p[team][set]);
    if (estimate) {
        json_object_set_new(j, "team_holds_all_se", json_real(o->team_all_se[team][set]));
        json_object_set_new(j, "assignment_correct_se", json_real(o->best_p_se[team][set]));
    }
    return j;
}

json_t *wire_scoresheet(const LitKnow *k, const LitOdds *o)
{
    const LitRules *r = &k->pub.rules;
    int deck = r->deck, public_view = k->seat == LIT_NOBODY;
    int estimate = !o->exact && o->samples, figures = o->exact || estimate;
    json_t *j = json_pack("{s:o,s:i,s:b,s:b}", "seat",
                          public_view ? json_null() : json_integer(k->seat + 1), "after",
                          k->pub.actions, "consistent", k->consistent, "exact", o->exact);
    if (o->exact) {
        char deals[LIT_U192_DIGITS + 1] = "";
        lit_u192_format(&o->deals, deals, sizeof deals);
        json_object_set_new(j, "consistent_deals", json_string(deals));
    } else {
        json_object_set_new(j, "consistent_deals", json_null());
    }
    if (estimate) {
        json_object_set_new(j, "samples", json_integer(o->samples));
        json_object_set_new(j, "consistent_deals_estimate", json_real(o->deals_estimate));
        json_object_set_new(j, "consistent_deals_se", json_real(o->deals_se));
    }
    json_t *cards = json_object(), *cards_se = estimate ? json_object() : NULL;
    for (uint64_t live = k->pub.live; live;) {
        int c = lit_pop_lsb(&live);
        unsigned cand = lit_know_candidates(k, c);
        int holder = lit_know_holder(k, c);
        json_t *row = json_object(), *row_se = estimate ? json_object() : NULL;
        for (int s = 0; s < r->players; s++) {
            char key[12];
            snprintf(key, sizeof key, "%d", s + 1);
            json_object_set_new(row, key,
                                holder == s              ? json_integer(1)
                                : !((cand >> s) & 1)     ? json_integer(0)
                                : figures                ? json_real(o->p[c][s])
                                                         : json_null());
            if (row_se)
                json_object_set_new(row_se, key, json_real(o->p_se[c][s]));
        }
        json_object_set_new(cards, lit_card_name(deck, c), row);
        if (cards_se)
            json_object_set_new(cards_se, lit_card_name(deck, c), row_se);
    }
    json_object_set_new(j, "cards", cards);
    if (cards_se)
        json_object_set_new(j, "cards_se", cards_se);
    json_t *sets = json_object();
    for (int set = 0; figures && set < lit_deck_sets(deck); set++) {
        if (!(k->pub.live & lit_set_mask(deck, set)))
            continue;
        json_t *figs;
        if (public_view)
            figs = json_pack("{s:o,s:o}", "A", claim_figures(k, o, 0, set, estimate), "B",
                             claim_figures(k, o, 1, set, estimate));
        else
            figs = claim_figures(k, o, lit_team_of(k->seat), set, estimate);
        json_object_set_new(sets, lit_set_name(deck, set), figs);
    }
    json_object_set_new(j, "half_suits", sets);
    json_object_set_new(j, "must_hold", must_hold(k));
    return j;
}
