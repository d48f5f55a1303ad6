/* helpers.c - see helpers.h. */
#include "helpers.h"

#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

LitRules rules_of(const char *text)
{
    LitRules r;
    const char *bad = NULL;
    int st = lit_rules_parse(&r, text, &bad);
    cr_assert_eq(st, LIT_OK, "rules '%s': %s at '%s'", text, lit_status_name(st),
                 bad ? bad : "");
    return r;
}

uint64_t cards_of(int deck, const char *names)
{
    uint64_t out = 0;
    const char *p = names;
    while (*p) {
        while (*p == ' ')
            p++;
        const char *w = p;
        while (*p && *p != ' ')
            p++;
        if (p == w)
            break;
        int c = lit_card_parse(deck, w, (size_t)(p - w));
        cr_assert(c >= 0, "bad card '%.*s'", (int)(p - w), w);
        out |= lit_bit(c);
    }
    return out;
}

void game_from(LitGame *g, const char *rules, int dealer, const char *const *hands)
{
    LitRules r = rules_of(rules);
    uint64_t h[LIT_MAX_PLAYERS] = {0};
    for (int s = 0; s < r.players; s++)
        h[s] = cards_of(r.deck, hands[s]);
    int st = lit_game_from_deal(g, &r, h, dealer - 1);
    cr_assert_eq(st, LIT_OK, "deal: %s", lit_status_name(st));
    assert_conserved(g);
}

static LitAction blank(int kind, int seat)
{
    LitAction a;
    memset(&a, 0, sizeof a);
    a.kind = (uint8_t)kind;
    a.seat = (uint8_t)(seat - 1);
    a.target = LIT_NOBODY;
    a.card = LIT_NO_CARD;
    a.set = LIT_NO_CARD;
    memset(a.holders, LIT_NOBODY, sizeof a.holders);
    return a;
}

LitAction ask(const LitGame *g, int seat, int target, const char *card)
{
    LitAction a = blank(LIT_ASK, seat);
    int c = lit_card_parse(g->pub.rules.deck, card, strlen(card));
    cr_assert(c >= 0, "bad card %s", card);
    a.target = (uint8_t)(target - 1);
    a.card = (uint8_t)c;
    return a;
}

LitAction pass_to(int seat, int target)
{
    LitAction a = blank(LIT_PASS, seat);
    a.target = (uint8_t)(target - 1);
    return a;
}

LitAction choose(int seat, int target)
{
    LitAction a = blank(LIT_CHOOSE, seat);
    a.target = (uint8_t)(target - 1);
    return a;
}

LitAction claim(const LitGame *g, int seat, const char *set, const char *groups)
{
    int deck = g->pub.rules.deck;
    LitAction a = blank(LIT_CLAIM, seat);
    int s = lit_set_parse(deck, set, strlen(set));
    cr_assert(s >= 0, "bad set %s", set);
    a.set = (uint8_t)s;
    const char *p = groups;
    while (*p) {
        while (*p == ' ')
            p++;
        if (!*p)
            break;
        int who = (int)strtol(p, (char **)&p, 10);
        cr_assert(*p == ':', "bad groups '%s'", groups);
        do {
            p++;
            const char *w = p;
            while (*p && *p != ',' && *p != ' ')
                p++;
            int c = lit_card_parse(deck, w, (size_t)(p - w));
            cr_assert(c >= 0 && lit_set_of(deck, c) == s, "bad card in '%s'", groups);
            a.holders[lit_pos_of(deck, c)] = (uint8_t)(who - 1);
        } while (*p == ',');
    }
    return a;
}

LitAction claim_true(const LitGame *g, int seat, const char *set)
{
    int deck = g->pub.rules.deck;
    LitAction a = blank(LIT_CLAIM, seat);
    int s = lit_set_parse(deck, set, strlen(set));
    cr_assert(s >= 0, "bad set %s", set);
    a.set = (uint8_t)s;
    for (int i = 0; i < lit_deck_set_size(deck); i++)
        for (int p = 0; p < g->pub.rules.players; p++)
            if (g->hands[p] & lit_bit(lit_set_first(deck, s) + i))
                a.holders[i] = (uint8_t)p;
    return a;
}

void assert_conserved(const LitGame *g)
{
    uint64_t seen = 0;
    int total = 0;
    for (int s = 0; s < LIT_MAX_PLAYERS; s++) {
        cr_assert_eq(seen & g->hands[s], 0, "a card in two hands");
        seen |= g->hands[s];
        total += lit_popcount(g->hands[s]);
        cr_assert_eq(g->pub.counts[s], lit_popcount(g->hands[s]),
                     "seat %d: count %d, hand %d", s + 1, g->pub.counts[s],
                     lit_popcount(g->hands[s]));
    }
    cr_assert_eq(seen, g->pub.live, "the hands hold exactly the live cards");
    cr_assert_eq(total, lit_popcount(g->pub.live));
}

int play(LitGame *g, LitAction a, LitEvent *ev)
{
    LitGame before = *g;
    int st = lit_game_apply(g, &a, ev);
    if (st != LIT_OK)
        cr_assert(memcmp(&before, g, sizeof *g) == 0,
                  "a refused action (%s) changed the game", lit_status_name(st));
    assert_conserved(g);
    return st;
}

int turn_of(const LitGame *g)
{
    return g->pub.turn == LIT_NOBODY ? 0 : g->pub.turn + 1;
}
