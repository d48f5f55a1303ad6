/* view.h - what one seat sees: its own hand plus all public information.
 *
 * Bots and clients see a game only through a view. A view holds no other
 * hand: it is built from the referee's game by copying the public part and
 * one hand, and then kept up to date from events alone. The public view
 * (seat LIT_NOBODY) holds no hand: what every seat and spectator knows.
 * "Only the last question" and hidden hand sizes are display rules of human
 * clients (docs/RULES.md); a view always has the full history.
 */
#ifndef LITERATURE_VIEW_H
#define LITERATURE_VIEW_H

#include <stdint.h>

#include "game.h"

typedef struct LitView {
    LitPublic pub;
    uint8_t seat;             /* whose view; LIT_NOBODY for the public view */
    uint64_t hand;            /* that seat's hand (0 for the public view) */
    const LitEvent *history;  /* the public history, borrowed from a log */
    uint32_t history_len;
} LitView;

/* The view of seat (or LIT_NOBODY) of a game whose history is log (may be
 * NULL: no history). The view borrows log's events: it lives as long as the
 * log's buffer does. LIT_BAD_SEAT for a seat not in the game. */
int lit_view_make(LitView *view, const LitGame *game, const LitLog *log,
                  int seat);

/* Brings the view up to date with one more event (from the referee): the
 * public part and the seat's own hand. Does not touch history/history_len.
 * Statuses as lit_public_apply; on an error nothing changes. */
int lit_view_apply(LitView *view, const LitEvent *event);

/* Whether the view's seat may take the action now: the status the referee
 * would answer (its checks need only the seat's own hand). LIT_BAD_SEAT for
 * the public view or an action by another seat. */
int lit_view_check(const LitView *view, const LitAction *action);

/* lit_public_check_asks for the view's seat (LIT_BAD_SEAT for every card
 * from the public view). */
void lit_view_check_asks(const LitView *view, int target, int8_t status[LIT_MAX_CARDS]);

/* The seat's legal asks, passes and choices; as lit_game_legal. */
int lit_view_legal(const LitView *view, LitAction *out, int cap);

#endif
