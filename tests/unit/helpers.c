/* helpers.c - see helpers.h. */
#include "helpers.h"

#include "literature/rng.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const DEAL6[6] = {
    "2h 3h 4h 6h 7h 9s Ts 2c", "9c Tc Jc Qc Kc Ac 3c 5c", "5h 9h Th Jh Qh Kh Ah 4c",
    "2d 3d 4d 5d 6d 7d 6c 7c", "9d Td Jd Qd Kd Ad Js Qs", "2s 3s 4s 5s 6s 7s Ks As",
};

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
    return lit_action_make(kind, seat - 1);
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

/* ---- a random player ---- */

int random_claim(const LitGame *g, LitRng *rng, int seat, LitAction *a)
{
    const LitPublic *p = &g->pub;
    unsigned sets = lit_claimable(p, seat);
    if (!sets)
        return 0;
    int deck = p->rules.deck, size = lit_deck_set_size(deck);
    int set = lit_nth_card(sets, (int)lit_rng_below(rng, (uint32_t)lit_popcount(sets)));
    unsigned allowed = p->rules.split_claims
                           ? (1u << p->rules.players) - 1
                           : lit_team_seats(&p->rules, lit_team_of(seat));
    int mode = (int)lit_rng_below(rng, 3);
    memset(a, 0, sizeof *a);
    a->kind = LIT_CLAIM;
    a->seat = (uint8_t)seat;
    a->set = (uint8_t)set;
    a->target = LIT_NOBODY;
    a->card = LIT_NO_CARD;
    memset(a->holders, LIT_NOBODY, sizeof a->holders);
    for (int i = 0; i < size; i++) {
        int holder = -1;
        for (int s = 0; s < p->rules.players; s++)
            if (g->hands[s] & lit_bit(lit_set_first(deck, set) + i))
                holder = s;
        if (mode > 0 && holder >= 0 && (allowed & (1u << holder)))
            a->holders[i] = (uint8_t)holder;
        else
            a->holders[i] = (uint8_t)lit_nth_card(
                allowed, (int)lit_rng_below(rng, (uint32_t)lit_popcount(allowed)));
    }
    return 1;
}

/* One random legal action: asks, passes and choices from lit_game_legal,
 * claims by the seat on turn and (when the rules allow) by other seats. */
void random_step(LitGame *g, LitEvent *ev, LitRng *rng, unsigned claim_odds)
{
    LitAction a, legal[LIT_MAX_LEGAL];
    const LitPublic *p = &g->pub;
    if (p->rules.claim_time != LIT_CLAIM_OWN_TURN && lit_rng_below(rng, 12) == 0) {
        int seat = (int)lit_rng_below(rng, p->rules.players);
        if (random_claim(g, rng, seat, &a)) {
            cr_assert_eq(lit_game_apply(g, &a, ev), LIT_OK);
            return;
        }
    }
    int n = lit_game_legal(g, p->turn, legal, LIT_MAX_LEGAL);
    cr_assert_geq(n, 0);
    if ((n == 0 || lit_rng_below(rng, claim_odds) == 0) && random_claim(g, rng, p->turn, &a)) {
        cr_assert_eq(lit_game_apply(g, &a, ev), LIT_OK);
        return;
    }
    cr_assert_gt(n, 0, "no action in phase %s", lit_phase_name(p->phase));
    cr_assert_eq(lit_game_apply(g, &legal[lit_rng_below(rng, (uint32_t)n)], ev), LIT_OK);
}

unsigned set_bit(const LitGame *g, const char *name)
{
    int s = lit_set_parse(g->pub.rules.deck, name, strlen(name));
    cr_assert(s >= 0, "bad set %s", name);
    return 1u << s;
}

int legal_count(const LitGame *g, int seat)
{
    LitAction out[LIT_MAX_LEGAL];
    return lit_game_legal(g, seat - 1, out, LIT_MAX_LEGAL);
}

void scratch_make(char *dir, size_t cap, const char *name)
{
    int n = snprintf(dir, cap, "/tmp/%s_", name);
    cr_assert(n > 0 && (size_t)n + 7 <= cap, "no room for the directory's name");
    /* mkdtemp's template: six X's it replaces */
    memset(dir + n, 'X', 6);
    dir[n + 6] = 0;
    cr_assert(mkdtemp(dir), "mkdtemp %s", dir);
}

void scratch_remove(const char *dir)
{
    char cmd[256];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    cr_assert_eq(system(cmd), 0, "%s", cmd);
}

size_t read_source(const char *rel, char *buf, size_t cap)
{
    /* __FILE__ is tests/unit/helpers.c under the source directory */
    const char *f = __FILE__, *cut = strstr(f, "tests/unit/");
    cr_assert_not_null(cut, "cannot locate the source directory from %s", f);
    char path[4096];
    snprintf(path, sizeof path, "%.*s%s", (int)(cut - f), f, rel);
    FILE *in = fopen(path, "rb");
    cr_assert_not_null(in, "cannot open %s", path);
    size_t n = fread(buf, 1, cap - 1, in);
    int more = fgetc(in) != EOF;
    fclose(in);
    cr_assert(!more, "%s: longer than the %zu bytes read", path, cap - 1);
    buf[n] = 0;
    return n;
}
