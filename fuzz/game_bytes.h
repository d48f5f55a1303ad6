/* game_bytes.h - rules, a game and its actions from fuzz bytes, for the
 * targets that play games (fuzz_actions, fuzz_notation, fuzz_infer).
 *
 * A game takes a header of GB_HEADER bytes: four for the rules (gb_rules),
 * eight for the seed (the dealer from the first byte); then every four bytes
 * make one action (gb_action): raw fields, so that malformed and illegal
 * actions come often, or, for a selector byte >= 0xC0, the n-th legal action
 * or a claim built from the true hands, so that play goes deep. */
#ifndef LIT_FUZZ_GAME_BYTES_H
#define LIT_FUZZ_GAME_BYTES_H

#include <stdint.h>
#include <string.h>

#include "literature/game.h"

enum { GB_HEADER = 12 };

/* The rules of b[0 .. 4): every player count, deck and option. */
static inline void gb_rules(LitRules *rules, const uint8_t *b)
{
    lit_rules_default(rules);
    rules->players = (uint8_t)(4 + 2 * (b[0] % 5));
    rules->deck = (uint8_t)(b[1] % LIT_DECK_COUNT);
    rules->misclaim = (uint8_t)(b[2] % 3);
    rules->claim_time = (uint8_t)((b[2] >> 2) % 3);
    rules->after_claim = (b[2] >> 4) & 1;
    rules->first = (b[2] >> 5) & 1;
    rules->split_claims = (b[3] >> 0) & 1;
    rules->bluff = (b[3] >> 1) & 1;
    rules->must_claim = (b[3] >> 2) & 1;
    rules->double_high = (b[3] >> 3) & 1;
    rules->early_end = (b[3] >> 4) & 1;
    rules->pass_play = (b[3] >> 5) & 1;
}

static inline uint64_t gb_seed(const uint8_t *b)
{
    uint64_t seed = 0;
    memcpy(&seed, b + 4, sizeof seed);
    return seed;
}

/* The dealer the header chooses under rules (players may be overridden). */
static inline int gb_dealer(const LitRules *rules, const uint8_t *b)
{
    return b[0] / 5 % rules->players;
}

/* The claim of set by seat that names each card's true holder; b (when its
 * top bit is set) moves one holder, so wrong claims come too. */
static inline LitAction gb_true_claim(const LitGame *g, int seat, int set, uint8_t b)
{
    const LitRules *rules = &g->pub.rules;
    int deck = rules->deck, size = lit_deck_set_size(deck);
    LitAction a = lit_action_make(LIT_CLAIM, seat);
    a.set = (uint8_t)set;
    for (int k = 0; k < size; k++)
        for (int s = 0; s < rules->players; s++)
            if (g->hands[s] & lit_bit(lit_set_first(deck, set) + k))
                a.holders[k] = (uint8_t)s;
    if (b & 0x80)
        a.holders[b % size] = (uint8_t)(b % rules->players);
    return a;
}

/* The action of b[0 .. 4) in game g. */
static inline LitAction gb_action(const LitGame *g, const uint8_t *b)
{
    const LitRules *rules = &g->pub.rules;
    LitAction a;
    memset(&a, 0, sizeof a);
    if (b[0] >= 0xC0 && g->pub.result == LIT_ONGOING) {
        LitAction legal[LIT_MAX_LEGAL];
        int seat = g->pub.turn;
        int n = lit_game_legal(g, seat, legal, LIT_MAX_LEGAL);
        if (n > 0 && b[0] < 0xF0)
            return legal[(b[1] | b[2] << 8) % n];
        /* a claim from the true hands, of any set, by the seat on turn or
         * (b[1] % 3 == 0) by any seat */
        int by = b[1] % 3 == 0 ? b[1] % rules->players : seat;
        return gb_true_claim(g, by, b[2] % lit_deck_sets(rules->deck), b[3]);
    }
    a.kind = (uint8_t)(b[0] % 6);
    a.seat = (uint8_t)(b[1] % 14);
    a.target = (uint8_t)(b[2] % 14);
    a.card = (uint8_t)(b[3] % 60);
    a.set = (uint8_t)(b[2] % 15);
    for (int k = 0; k < LIT_MAX_SET_SIZE; k++)
        a.holders[k] = (uint8_t)((b[1] + k * b[3]) % 13);
    return a;
}

#endif
