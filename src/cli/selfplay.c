/* selfplay.c - the pinned self-play policy (see selfplay.h). */
#include "selfplay.h"

#include <stdlib.h>
#include <string.h>

#include "literature/rng.h"
#include "literature/status.h"

/* The mover claims set correctly (the referee knows every hand). */
static void claim_correctly(LitGame *g, LitLog *log, int set)
{
    LitAction a;
    int deck = g->pub.rules.deck, first = lit_set_first(deck, set);
    memset(&a, 0, sizeof a);
    a.kind = LIT_CLAIM;
    a.seat = g->pub.turn;
    a.set = (uint8_t)set;
    for (int i = 0; i < lit_deck_set_size(deck); i++)
        for (int s = 0; s < g->pub.rules.players; s++)
            if (g->hands[s] & lit_bit(first + i))
                a.holders[i] = (uint8_t)s;
    int st = lit_game_play(g, log, &a);
    if (st != LIT_OK)
        abort(); /* the policy only makes legal claims */
}

static void play_uniform_legal(LitGame *g, LitLog *log, LitRng *rng)
{
    LitAction legal[LIT_MAX_LEGAL];
    int n = lit_game_legal(g, g->pub.turn, legal, LIT_MAX_LEGAL);
    if (n <= 0 || lit_game_play(g, log, &legal[lit_rng_below(rng, (uint32_t)n)]) != LIT_OK)
        abort();
}

uint32_t selfplay_game(const LitRules *rules, uint64_t seed, uint64_t index,
                       LitGame *start, LitGame *end, LitLog *log)
{
    uint64_t game_seed = lit_seed_mix(seed, index);
    LitRng rng;
    LitGame g;
    if (lit_game_new(&g, rules, game_seed, 0) != LIT_OK)
        abort();
    lit_rng_seed(&rng, lit_seed_mix(game_seed, 1));
    if (start)
        *start = g;
    log->len = 0;
    while (g.pub.result == LIT_ONGOING) {
        LitPublic *p = &g.pub;
        int t = p->turn;
        if (p->phase == LIT_PHASE_ENDGAME) {
            claim_correctly(&g, log, lit_set_of(p->rules.deck, lit_lsb(p->live)));
            continue;
        }
        if (p->phase != LIT_PHASE_PLAY) {
            /* Under must-claim a seat choosing the next asker while it still
             * holds a whole set must claim that first. */
            unsigned own = p->rules.must_claim ? lit_whole_sets(p, g.hands[t]) : 0;
            if (own)
                claim_correctly(&g, log, lit_lsb(own));
            else
                play_uniform_legal(&g, log, &rng);
            continue;
        }
        uint64_t team = 0;
        for (unsigned m = lit_team_seats(&p->rules, lit_team_of(t)); m; m &= m - 1)
            team |= g.hands[lit_lsb(m)];
        unsigned whole = lit_whole_sets(p, team);
        if (whole) {
            claim_correctly(&g, log, lit_lsb(whole));
            continue;
        }
        uint64_t cards = lit_askable(p, g.hands[t]);
        unsigned targets = lit_targets(p, t);
        LitAction a;
        memset(&a, 0, sizeof a);
        a.kind = LIT_ASK;
        a.seat = (uint8_t)t;
        a.card = (uint8_t)lit_nth_card(
            cards, (int)lit_rng_below(&rng, (uint32_t)lit_popcount(cards)));
        a.target = (uint8_t)lit_nth_card(
            targets, (int)lit_rng_below(&rng, (uint32_t)lit_popcount(targets)));
        if (lit_game_play(&g, log, &a) != LIT_OK)
            abort();
    }
    if (end)
        *end = g;
    return log->len;
}

static uint64_t hash_bytes(uint64_t h, const uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        h ^= p[i];
        h *= UINT64_C(0x100000001b3);
    }
    return h;
}

/* The bytes of each field in order, as the events were laid out before they
 * had their zero bytes, so the signature did not move with the layout. */
uint64_t selfplay_hash(uint64_t h, const LitEvent *events, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++) {
        const LitAction *a = &events[i].action;
        const uint8_t head[5] = {a->kind, a->seat, a->target, a->card, a->set};
        h = hash_bytes(h, head, sizeof head);
        h = hash_bytes(h, a->holders, sizeof a->holders);
        h = hash_bytes(h, &events[i].answer, 1);
        h = hash_bytes(h, events[i].truth, sizeof events[i].truth);
    }
    return h;
}
