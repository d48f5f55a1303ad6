/* fuzz_actions.c - the engine under arbitrary action sequences.
 *
 * The first bytes choose the rules and the seed; then every 4 bytes make an
 * action: raw fields (so malformed and illegal actions come often), or, for
 * a selector byte >= 0xC0, the n-th legal action or a claim built from the
 * true hands (so play goes deep). Invariants after every step: cards are
 * conserved and hand sizes right; a refused action changed nothing; the
 * public state rebuilt from events alone equals the referee's; the game ends
 * by the action bound, and then refuses everything with game_over. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "literature/game.h"
#include "literature/status.h"
#include "literature/view.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_conserved(const LitGame *g)
{
    uint64_t seen = 0;
    for (int s = 0; s < LIT_MAX_PLAYERS; s++) {
        if (seen & g->hands[s])
            abort();
        seen |= g->hands[s];
        if (g->pub.counts[s] != lit_popcount(g->hands[s]))
            abort();
        if (s >= g->pub.rules.players && g->hands[s])
            abort();
    }
    if (seen != g->pub.live)
        abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 12)
        return 0;
    LitRules rules;
    lit_rules_default(&rules);
    rules.players = (uint8_t)(4 + 2 * (data[0] % 5));
    rules.deck = (uint8_t)(data[1] % LIT_DECK_COUNT);
    rules.misclaim = (uint8_t)(data[2] % 3);
    rules.claim_time = (uint8_t)((data[2] >> 2) % 3);
    rules.after_claim = (data[2] >> 4) & 1;
    rules.first = (data[2] >> 5) & 1;
    rules.split_claims = (data[3] >> 0) & 1;
    rules.bluff = (data[3] >> 1) & 1;
    rules.must_claim = (data[3] >> 2) & 1;
    rules.double_high = (data[3] >> 3) & 1;
    rules.early_end = (data[3] >> 4) & 1;
    rules.pass_play = (data[3] >> 5) & 1;
    uint64_t seed = 0;
    memcpy(&seed, data + 4, sizeof seed);
    LitGame g;
    if (lit_game_new(&g, &rules, seed, data[0] / 5 % rules.players) != LIT_OK)
        abort();
    LitPublic pub = g.pub;
    unsigned applied = 0;
    for (size_t i = 12; i + 4 <= size; i += 4) {
        const uint8_t *b = data + i;
        LitAction a;
        memset(&a, 0, sizeof a);
        if (b[0] >= 0xC0 && g.pub.result == LIT_ONGOING) {
            LitAction legal[LIT_MAX_LEGAL];
            int seat = g.pub.turn;
            int n = lit_game_legal(&g, seat, legal, LIT_MAX_LEGAL);
            if (n > 0 && b[0] < 0xF0) {
                a = legal[(b[1] | b[2] << 8) % n];
            } else {
                /* a claim from the true hands, of some live set, with one
                 * holder maybe moved (b[3]) */
                int deck = rules.deck, sets = lit_deck_sets(deck);
                int set = b[2] % sets;
                a.kind = LIT_CLAIM;
                a.seat = (uint8_t)(b[1] % 3 == 0 ? b[1] % rules.players : seat);
                a.set = (uint8_t)set;
                for (int k = 0; k < lit_deck_set_size(deck); k++)
                    for (int s = 0; s < rules.players; s++)
                        if (g.hands[s] & lit_bit(lit_set_first(deck, set) + k))
                            a.holders[k] = (uint8_t)s;
                if (b[3] & 0x80)
                    a.holders[b[3] % lit_deck_set_size(deck)] =
                        (uint8_t)(b[3] % rules.players);
            }
        } else {
            a.kind = (uint8_t)(b[0] % 6);
            a.seat = (uint8_t)(b[1] % 14);
            a.target = (uint8_t)(b[2] % 14);
            a.card = (uint8_t)(b[3] % 60);
            a.set = (uint8_t)(b[2] % 15);
            for (int k = 0; k < LIT_MAX_SET_SIZE; k++)
                a.holders[k] = (uint8_t)((b[1] + k * b[3]) % 13);
        }
        LitGame before = g;
        LitEvent e;
        int st = lit_game_apply(&g, &a, &e);
        if (st != LIT_OK) {
            if (memcmp(&before, &g, sizeof g) != 0)
                abort();
            if (before.pub.result != LIT_ONGOING && st != LIT_GAME_OVER)
                abort();
            continue;
        }
        applied++;
        check_conserved(&g);
        if (lit_public_apply(&pub, &e) != LIT_OK ||
            memcmp(&pub, &g.pub, sizeof pub) != 0)
            abort();
        if (applied > LIT_MAX_ACTIONS)
            abort();
    }
    return 0;
}
