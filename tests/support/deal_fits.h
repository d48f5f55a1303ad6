/* deal_fits.h - whether a deal drawn for a position fits its history, for
 * tests and fuzzing: undo the public moves to get the deal, then replay
 * every action through the referee and compare every answer and every
 * revealed holder. Independent of the deduction layer's reasoning. */
#ifndef LIT_TEST_DEAL_FITS_H
#define LIT_TEST_DEAL_FITS_H

#include <stdint.h>
#include <string.h>

#include "literature/game.h"
#include "literature/status.h"

/* The deal that leads to hands now by the n events: every public move
 * undone, newest first (a hit's card back to its target, a claimed set's
 * cards to the holders it revealed). */
static inline void deal_undo(const LitRules *r, const uint64_t now[LIT_MAX_PLAYERS],
                             const LitEvent *events, uint32_t n, uint64_t deal[LIT_MAX_PLAYERS])
{
    memcpy(deal, now, sizeof(uint64_t) * LIT_MAX_PLAYERS);
    int deck = r->deck;
    for (uint32_t i = n; i-- > 0;) {
        const LitEvent *e = &events[i];
        if (e->action.kind == LIT_ASK && e->answer == LIT_HIT) {
            deal[e->action.seat] &= ~lit_bit(e->action.card);
            deal[e->action.target] |= lit_bit(e->action.card);
        } else if (e->action.kind == LIT_CLAIM) {
            for (int p = 0; p < lit_deck_set_size(deck); p++)
                deal[e->truth[p]] |= lit_bit(lit_set_first(deck, e->action.set) + p);
        }
    }
}

/* Whether hands (every seat's present hand) fit the history of log under
 * rules r and dealer. */
static inline int deal_fits(const LitRules *r, int dealer, const uint64_t now[LIT_MAX_PLAYERS],
                            const LitLog *log)
{
    uint64_t deal[LIT_MAX_PLAYERS];
    deal_undo(r, now, log->events, log->len, deal);
    LitGame g;
    if (lit_game_from_deal(&g, r, deal, dealer) != LIT_OK)
        return 0;
    for (int s = 0; s < r->players; s++)
        if (lit_popcount(deal[s]) != lit_deal_size(r, dealer, s))
            return 0;
    for (uint32_t i = 0; i < log->len; i++) {
        LitEvent e;
        if (lit_game_apply(&g, &log->events[i].action, &e) != LIT_OK ||
            memcmp(&e, &log->events[i], sizeof e) != 0)
            return 0;
    }
    /* Undoing a hit whose card was not where the present puts it is a
     * no-op, so the deal must also lead back to the present. */
    return memcmp(g.hands, now, sizeof g.hands) == 0;
}

#endif
