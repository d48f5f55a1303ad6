/* view.c - one seat's view: the public position, its own hand, the history. */
#include "literature/view.h"

#include <string.h>

#include "literature/status.h"

int lit_view_make(LitView *view, const LitGame *game, const LitLog *log,
                  int seat)
{
    if (seat != LIT_NOBODY && (seat < 0 || seat >= game->pub.rules.players))
        return LIT_BAD_SEAT;
    memset(view, 0, sizeof *view);
    view->pub = game->pub;
    view->seat = (uint8_t)seat;
    view->hand = seat == LIT_NOBODY ? 0 : game->hands[seat];
    view->history = log ? log->events : NULL;
    view->history_len = log ? log->len : 0;
    return LIT_OK;
}

int lit_view_apply(LitView *view, const LitEvent *event)
{
    int st = lit_public_apply(&view->pub, event);
    if (st != LIT_OK || view->seat == LIT_NOBODY)
        return st;
    const LitAction *a = &event->action;
    int deck = view->pub.rules.deck;
    if (a->kind == LIT_ASK && event->answer == LIT_HIT) {
        if (a->seat == view->seat)
            view->hand |= lit_bit(a->card);
        if (a->target == view->seat)
            view->hand &= ~lit_bit(a->card);
    } else if (a->kind == LIT_CLAIM) {
        view->hand &= ~lit_set_mask(deck, a->set);
    }
    return LIT_OK;
}

int lit_view_check(const LitView *view, const LitAction *action)
{
    if (view->seat == LIT_NOBODY || action->seat != view->seat)
        return LIT_BAD_SEAT;
    return lit_public_check(&view->pub, action, &view->hand);
}

void lit_view_check_asks(const LitView *view, int target, int8_t status[LIT_MAX_CARDS])
{
    if (view->seat == LIT_NOBODY) {
        memset(status, (int8_t)LIT_BAD_SEAT, LIT_MAX_CARDS);
        return;
    }
    lit_public_check_asks(&view->pub, view->seat, target, &view->hand, status);
}

int lit_view_legal(const LitView *view, LitAction *out, int cap)
{
    if (view->seat == LIT_NOBODY)
        return 0;
    return lit_public_legal(&view->pub, view->seat, view->hand, out, cap);
}
