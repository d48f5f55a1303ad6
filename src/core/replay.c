/* replay.c - comparing records and replaying one, action by action, through
 * the referee (docs/NOTATION.md "`lit replay`"). The record's text is read and
 * written by notation.c; here a read record becomes the games it describes.
 */
#include "literature/notation.h"

#include <string.h>

#include "literature/status.h"

/* ---- comparing ----------------------------------------------------------- */

int lit_record_equal(const LitRecord *a, const LitRecord *b)
{
    if (memcmp(&a->rules, &b->rules, sizeof a->rules) != 0 ||
        a->dealer != b->dealer || a->has_seed != b->has_seed ||
        a->has_deal != b->has_deal || a->has_result != b->has_result ||
        a->has_score != b->has_score || a->n_events != b->n_events)
        return 0;
    if (a->has_seed && a->seed != b->seed)
        return 0;
    if (a->has_deal &&
        memcmp(a->hands, b->hands, sizeof a->hands) != 0)
        return 0;
    if (a->has_result && a->result != b->result)
        return 0;
    if (a->has_score &&
        (a->score[0] != b->score[0] || a->score[1] != b->score[1]))
        return 0;
    if (memcmp(a->names, b->names, sizeof a->names) != 0 ||
        strcmp(a->event, b->event) != 0 || strcmp(a->site, b->site) != 0 ||
        strcmp(a->date, b->date) != 0)
        return 0;
    for (uint32_t i = 0; i < a->n_events; i++)
        if (memcmp(&a->events[i], &b->events[i], sizeof a->events[i]) != 0)
            return 0;
    return 1;
}

/* ---- replaying ----------------------------------------------------------- */

int lit_replay_start(LitReplay *rp, const LitRecord *rec)
{
    memset(rp, 0, sizeof *rp);
    if (rec->has_deal) {
        int st = lit_game_from_deal(&rp->game, &rec->rules, rec->hands,
                                    rec->dealer);
        if (st != LIT_OK)
            return st;
        if (rec->has_seed) {
            uint64_t hands[LIT_MAX_PLAYERS];
            if (lit_deal(&rec->rules, rec->seed, rec->dealer, hands) != LIT_OK)
                return LIT_BAD_SEAT;
            if (memcmp(hands, rec->hands, sizeof hands) != 0)
                return LIT_DEAL_MISMATCH;
        }
        rp->known = 1;
        return LIT_OK;
    }
    if (rec->has_seed) {
        rp->known = 1;
        return lit_game_new(&rp->game, &rec->rules, rec->seed, rec->dealer);
    }
    return lit_public_init(&rp->game.pub, &rec->rules, rec->dealer);
}

/* Without the deal: the public checks, then the cards events have shown. */
static int replay_public(LitReplay *rp, const LitEvent *event)
{
    LitPublic pub = rp->game.pub;
    int st = lit_public_apply(&pub, event);
    if (st != LIT_OK)
        return st;
    const LitAction *a = &event->action;
    int deck = pub.rules.deck, players = pub.rules.players;
    uint64_t *shown = rp->shown;
    if (a->kind == LIT_ASK) {
        uint64_t bit = lit_bit(a->card);
        if (!pub.rules.bluff && (shown[a->seat] & bit))
            return LIT_OWN_CARD;
        for (int s = 0; s < players; s++)
            if ((shown[s] & bit) &&
                (event->answer == LIT_HIT ? s != a->target : s == a->target))
                return LIT_OUTCOME_MISMATCH;
        if (event->answer == LIT_HIT) {
            for (int s = 0; s < players; s++)
                shown[s] &= ~bit;
            shown[a->seat] |= bit;
        }
    } else if (a->kind == LIT_CLAIM) {
        int first = lit_set_first(deck, a->set);
        for (int i = 0; i < lit_deck_set_size(deck); i++)
            for (int s = 0; s < players; s++)
                if ((shown[s] & lit_bit(first + i)) && event->truth[i] != s)
                    return LIT_BAD_REVEAL;
        for (int s = 0; s < players; s++)
            shown[s] &= ~lit_set_mask(deck, a->set);
    }
    rp->game.pub = pub;
    return LIT_OK;
}

int lit_replay_step(LitReplay *rp, const LitEvent *event, LitEvent *out)
{
    if (!rp->known) {
        uint64_t shown[LIT_MAX_PLAYERS];
        memcpy(shown, rp->shown, sizeof shown);
        int st = replay_public(rp, event);
        if (st != LIT_OK)
            memcpy(rp->shown, shown, sizeof shown);
        else if (out)
            *out = *event;
        return st;
    }
    LitGame g = rp->game;
    LitEvent e;
    int st = lit_game_apply(&g, &event->action, &e);
    if (st != LIT_OK)
        return st;
    if (event->answer != LIT_UNKNOWN) {
        if (event->answer != e.answer)
            return LIT_OUTCOME_MISMATCH;
        if (e.action.kind == LIT_CLAIM)
            for (int i = 0; i < lit_deck_set_size(g.pub.rules.deck); i++)
                if (event->truth[i] != LIT_NOBODY && event->truth[i] != e.truth[i])
                    return LIT_OUTCOME_MISMATCH;
    }
    rp->game = g;
    if (out)
        *out = e;
    return LIT_OK;
}

int lit_replay_check_result(const LitReplay *rp, const LitRecord *rec,
                            uint32_t *line)
{
    const LitPublic *p = &rp->game.pub;
    if (rec->has_result && rec->result != p->result) {
        if (line)
            *line = rec->result_line;
        return LIT_RESULT_MISMATCH;
    }
    if (rec->has_score &&
        (rec->score[0] != p->score[0] || rec->score[1] != p->score[1])) {
        if (line)
            *line = rec->score_line;
        return LIT_RESULT_MISMATCH;
    }
    return LIT_OK;
}

void lit_record_set_game(LitRecord *rec, const LitGame *start,
                         const LitGame *end)
{
    rec->rules = start->pub.rules;
    rec->dealer = start->pub.dealer;
    rec->has_deal = 1;
    memcpy(rec->hands, start->hands, sizeof rec->hands);
    rec->has_result = 1;
    rec->has_score = 1;
    rec->result = end->pub.result;
    rec->score[0] = end->pub.score[0];
    rec->score[1] = end->pub.score[1];
}
