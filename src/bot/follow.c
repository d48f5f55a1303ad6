/* follow.c - what a bot has read of its game, brought up to its view.
 *
 * Before each decision a bot reads the events of the view it has not read
 * yet: basic and expert into their certain knowledge (src/infer; expert also
 * into what every seat knows), casual into a memory that takes in each
 * public fact only by chance. Handed a view of another game or seat, it
 * starts afresh.
 */
#include <string.h>

#include "internal.h"

#include "literature/status.h"

void bot_follow_init(LitBot *bot, const LitBotSpec *spec, uint64_t seed)
{
    memset(bot, 0, sizeof *bot);
    bot->spec = *spec;
    lit_rng_seed(&bot->rng, seed);
}

/* ---- casual's memory ---------------------------------------------------------- */

static int recalls(LitBot *bot)
{
    return lit_rng_below(&bot->rng, 1000) < bot->spec.memory;
}

/* Takes in the facts of one event, each only by chance: where a card went
 * on a hit; on a miss, that the target lacks the card and (without bluffs)
 * that the asker does. */
static void remember(LitBot *bot, const LitRules *rules, const LitEvent *e)
{
    const LitAction *a = &e->action;
    LitBotMemory *m = &bot->memory;
    if (a->kind != LIT_ASK || a->card >= LIT_MAX_CARDS)
        return;
    if (e->answer == LIT_HIT) {
        if (recalls(bot)) {
            m->holder[a->card] = a->seat;
            m->lacks[a->seat] &= ~lit_bit(a->card);
        }
    } else {
        if (recalls(bot))
            m->lacks[a->target] |= lit_bit(a->card);
        if (!rules->bluff && recalls(bot))
            m->lacks[a->seat] |= lit_bit(a->card);
    }
}

/* ---- following the game ------------------------------------------------------- */

/* Brings what the bot has read up to the view: from the start when the view
 * is of another seat or game than the events read so far. */
static int follow(LitBot *bot, const LitView *v)
{
    int fresh = !bot->started || bot->seat != v->seat || bot->seen > v->history_len ||
                (bot->seen > 0 &&
                 memcmp(&bot->last, &v->history[bot->seen - 1], sizeof bot->last) != 0);
    if (fresh) {
        bot->started = 1;
        bot->seat = v->seat;
        bot->seen = 0;
        memset(bot->memory.holder, LIT_NOBODY, sizeof bot->memory.holder);
        memset(bot->memory.lacks, 0, sizeof bot->memory.lacks);
        if (bot->spec.kind >= LIT_BOT_BASIC) {
            int st = lit_know_from_view(&bot->know, v);
            if (st == LIT_OK && lit_bot_searches(bot->spec.kind)) {
                LitView pv = *v;
                pv.seat = LIT_NOBODY;
                pv.hand = 0;
                st = lit_know_from_view(&bot->public_know, &pv);
            }
            if (st != LIT_OK) {
                bot->started = 0;
                return st;
            }
            bot->seen = v->history_len;
        }
    }
    for (; bot->seen < v->history_len; bot->seen++) {
        const LitEvent *e = &v->history[bot->seen];
        if (bot->spec.kind >= LIT_BOT_BASIC) {
            int st = lit_know_apply(&bot->know, e);
            if (st == LIT_OK && lit_bot_searches(bot->spec.kind))
                st = lit_know_apply(&bot->public_know, e);
            if (st != LIT_OK) {
                bot->started = 0;
                return st;
            }
        } else if (bot->spec.kind == LIT_BOT_CASUAL) {
            remember(bot, &v->pub.rules, e);
        }
    }
    if (bot->seen > 0)
        bot->last = v->history[bot->seen - 1];
    return LIT_OK;
}

int bot_follow_view(LitBot *bot, const LitView *view)
{
    const LitPublic *p = &view->pub;
    if (view->seat == LIT_NOBODY || view->seat >= p->rules.players)
        return LIT_BAD_SEAT;
    if (p->result != LIT_ONGOING)
        return LIT_GAME_OVER;
    if (p->turn != view->seat)
        return LIT_NOT_YOUR_TURN;
    return follow(bot, view);
}
