/* text.c - JSON written straight as text (wire.h): the parts of a frame
 * that differ from one seat to the next, written a thousand times a second,
 * where a tree of jansson objects cost an allocation a value. */
#include "wire.h"

#include <stdlib.h>
#include <string.h>

#include "../mem/mem.h"
#include "literature/notation.h"

void wire_text_reset(WireText *t)
{
    t->len = 0;
    t->failed = 0;
}

void wire_text_free(WireText *t)
{
    free(t->buf);
    t->buf = NULL;
    t->len = t->cap = 0;
    t->failed = 0;
}

int wire_text_room(WireText *t, size_t n)
{
    if (t->failed)
        return -1;
    if (t->len + n <= t->cap)
        return 0;
    size_t cap = t->cap ? t->cap : 1024;
    while (cap < t->len + n)
        cap *= 2;
    char *grown = mem_realloc(t->buf, cap);
    if (!grown) {
        t->failed = 1;
        return -1;
    }
    t->buf = grown;
    t->cap = cap;
    return 0;
}

void wire_text_put(WireText *t, const char *s)
{
    wire_text_raw(t, s, strlen(s));
}

void wire_text_int(WireText *t, long long v)
{
    char digits[24], *p = digits + sizeof digits;
    unsigned long long u = v < 0 ? 0ULL - (unsigned long long)v : (unsigned long long)v;
    do
        *--p = (char)('0' + u % 10);
    while ((u /= 10) > 0);
    if (v < 0)
        *--p = '-';
    wire_text_raw(t, p, (size_t)(digits + sizeof digits - p));
}

void wire_text_str(WireText *t, const char *s)
{
    static const char hex[] = "0123456789abcdef";
    /* one pass, no strlen: room for the next byte at its longest (\u00XX)
     * and the closing quote is made before each (most strings here are a
     * card's or a status's name, a few bytes) */
    if (wire_text_room(t, 8))
        return;
    char *out = t->buf + t->len;
    *out++ = '"';
    for (; *s; s++) {
        if ((size_t)(out - t->buf) + 7 > t->cap) {
            t->len = (size_t)(out - t->buf);
            if (wire_text_room(t, 7 + strlen(s)))
                return;
            out = t->buf + t->len;
        }
        unsigned char ch = (unsigned char)*s;
        if (ch == '"' || ch == '\\') {
            *out++ = '\\';
            *out++ = (char)ch;
        } else if (ch < 0x20) {
            memcpy(out, "\\u00", 4);
            out[4] = hex[ch >> 4];
            out[5] = hex[ch & 15];
            out += 6;
        } else {
            *out++ = (char)ch;
        }
    }
    *out++ = '"';
    t->len = (size_t)(out - t->buf);
}

void wire_text_name(WireText *t, const char *name)
{
    size_t n = strlen(name);
    if (wire_text_room(t, n + 2))
        return;
    char *out = t->buf + t->len;
    out[0] = '"';
    memcpy(out + 1, name, n);
    out[n + 1] = '"';
    t->len += n + 2;
}

void wire_text_key(WireText *t, const char *key)
{
    wire_text_str(t, key);
    wire_text_raw(t, ":", 1);
}

void wire_text_cards(WireText *t, int deck, uint64_t cards)
{
    wire_text_raw(t, "[", 1);
    for (int first = 1; cards; first = 0) {
        if (!first)
            wire_text_raw(t, ",", 1);
        wire_text_name(t, lit_card_name(deck, lit_pop_lsb(&cards)));
    }
    wire_text_raw(t, "]", 1);
}

void wire_text_legal(WireText *t, const LitView *v)
{
    const LitPublic *p = &v->pub;
    LitAction legal[LIT_MAX_LEGAL];
    int count = lit_view_legal(v, legal, LIT_MAX_LEGAL);
    if (count > LIT_MAX_LEGAL)
        count = LIT_MAX_LEGAL; /* never (game.h): the list is whole */
    wire_text_lit(t, "\"asks\":[");
    /* an ask's card, written once for its targets: ,{"card":"Tc","target": */
    static const char open[] = ",{\"card\":\"", close[] = "\",\"target\":";
    char head[sizeof open + LIT_CARD_NAME_MAX + sizeof close];
    size_t head_len = 0;
    int head_card = -1;
    for (int i = 0, n = 0; i < count; i++)
        if (legal[i].kind == LIT_ASK) {
            if (legal[i].card != head_card) {
                const char *name = lit_card_name(p->rules.deck, legal[i].card);
                size_t len = strlen(name);
                head_card = legal[i].card;
                memcpy(head, open, sizeof open - 1);
                memcpy(head + sizeof open - 1, name, len);
                memcpy(head + sizeof open - 1 + len, close, sizeof close - 1);
                head_len = sizeof open - 1 + len + sizeof close - 1;
            }
            int first = n++ == 0; /* no comma */
            wire_text_raw(t, head + first, head_len - (size_t)first);
            wire_text_int(t, legal[i].target + 1);
            wire_text_raw(t, "}", 1);
        }
    static const struct {
        const char *key;
        int kind;
    } seats[] = {{"],\"passes\":[", LIT_PASS}, {"],\"choices\":[", LIT_CHOOSE}};
    for (int k = 0; k < 2; k++) {
        wire_text_put(t, seats[k].key);
        for (int i = 0, n = 0; i < count; i++)
            if (legal[i].kind == seats[k].kind) {
                if (n++)
                    wire_text_raw(t, ",", 1);
                wire_text_int(t, legal[i].target + 1);
            }
    }
    wire_text_lit(t, "],\"claimable\":[");
    if (v->seat != LIT_NOBODY)
        for (unsigned m = lit_claimable(p, v->seat), n = 0; m; m &= m - 1) {
            if (n++)
                wire_text_raw(t, ",", 1);
            wire_text_name(t, lit_set_name(p->rules.deck, lit_lsb(m)));
        }
    wire_text_raw(t, "]", 1);
}

void wire_text_state(WireText *t, const LitPublic *p)
{
    int deck = p->rules.deck;
    wire_text_lit(t, "{\"turn\":");
    if (p->turn == LIT_NOBODY)
        wire_text_lit(t, "null");
    else
        wire_text_int(t, p->turn + 1);
    wire_text_lit(t, ",\"phase\":");
    wire_text_name(t, lit_phase_name(p->phase));
    wire_text_lit(t, ",\"hand_sizes\":[");
    for (int s = 0; s < p->rules.players; s++) {
        if (s)
            wire_text_raw(t, ",", 1);
        wire_text_int(t, p->counts[s]);
    }
    wire_text_lit(t, "],\"score\":[");
    wire_text_int(t, p->score[0]);
    wire_text_raw(t, ",", 1);
    wire_text_int(t, p->score[1]);
    wire_text_lit(t, "],\"live\":[");
    for (int set = 0, n = 0; set < lit_deck_sets(deck); set++)
        if (p->live & lit_set_mask(deck, set)) {
            if (n++)
                wire_text_raw(t, ",", 1);
            wire_text_name(t, lit_set_name(deck, set));
        }
    wire_text_lit(t, "],\"actions\":");
    wire_text_int(t, p->actions);
    wire_text_raw(t, "}", 1);
}

/* {"<card>":seat,...} of a set's cards: the holders named (NULL: every
 * card's seat from seats[], LIT_NOBODY left out). */
static void set_seats(WireText *t, int deck, int set, const uint8_t *seats)
{
    int first = lit_set_first(deck, set);
    wire_text_raw(t, "{", 1);
    for (int i = 0, n = 0; i < lit_deck_set_size(deck); i++)
        if (seats[i] != LIT_NOBODY) {
            if (n++)
                wire_text_raw(t, ",", 1);
            wire_text_key(t, lit_card_name(deck, first + i));
            wire_text_int(t, seats[i] + 1);
        }
    wire_text_raw(t, "}", 1);
}

void wire_text_action_open(WireText *t, const LitRules *r, const LitAction *a)
{
    int deck = r->deck;
    wire_text_lit(t, "{\"action\":");
    wire_text_name(t, wire_action_name(a->kind));
    wire_text_lit(t, ",\"seat\":");
    wire_text_int(t, a->seat + 1);
    if (a->kind == LIT_ASK) {
        wire_text_lit(t, ",\"card\":");
        wire_text_name(t, lit_card_name(deck, a->card));
    }
    if (a->kind == LIT_CLAIM) {
        wire_text_lit(t, ",\"set\":");
        wire_text_name(t, lit_set_name(deck, a->set));
        wire_text_lit(t, ",\"holders\":");
        set_seats(t, deck, a->set, a->holders);
    } else {
        wire_text_lit(t, ",\"target\":");
        wire_text_int(t, a->target + 1);
    }
}

void wire_text_event_open(WireText *t, const LitRules *r, const LitEvent *e, uint32_t n)
{
    char line[LIT_LINE_MAX];
    wire_text_action_open(t, r, &e->action);
    wire_text_lit(t, ",\"n\":");
    wire_text_int(t, n);
    if (e->action.kind == LIT_ASK) {
        wire_text_lit(t, ",\"answer\":");
        wire_text_name(t, lit_answer_name(e->answer));
    }
    if (e->action.kind == LIT_CLAIM) {
        wire_text_lit(t, ",\"outcome\":");
        wire_text_name(t, lit_answer_name(e->answer));
        wire_text_lit(t, ",\"truth\":");
        set_seats(t, r->deck, e->action.set, e->truth);
    }
    if (lit_event_format(r, e, (int)n, line, sizeof line) > 0) {
        wire_text_lit(t, ",\"line\":");
        wire_text_str(t, line);
    }
}

json_t *wire_text_json(WireText *t)
{
    json_t *j = t->failed ? NULL : json_loadb(t->buf, t->len, 0, NULL);
    wire_text_free(t);
    return j;
}

/* ---- the same read back as jansson's: one writer of each ---------------- */

json_t *wire_state(const LitPublic *p)
{
    WireText t = {0};
    wire_text_state(&t, p);
    return wire_text_json(&t);
}

json_t *wire_action(const LitRules *r, const LitAction *a)
{
    WireText t = {0};
    wire_text_action_open(&t, r, a);
    wire_text_raw(&t, "}", 1);
    return wire_text_json(&t);
}

json_t *wire_event(const LitRules *r, const LitEvent *e, uint32_t n)
{
    WireText t = {0};
    wire_text_event_open(&t, r, e, n);
    wire_text_raw(&t, "}", 1);
    return wire_text_json(&t);
}

void wire_set_legal(json_t *obj, const LitView *v)
{
    WireText t = {0};
    wire_text_raw(&t, "{", 1);
    wire_text_legal(&t, v);
    wire_text_raw(&t, "}", 1);
    /* out of memory: nothing set (jansson's allocations, and the text's,
     * are mem.h's: the caller sees the failure) */
    json_object_update_new(obj, wire_text_json(&t));
}
