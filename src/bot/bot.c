/* bot.c - the dispatcher: a bot made from its spec, each decision sent to
 * its kind after the bot has read the view (follow.c), and random's play.
 *
 * Casual and basic play the one policy of policy.c over their beliefs,
 * expert its search (expert.c); docs/BOTS.md says what each does and why.
 * And the chance of a move from a seat's view, which says why a hint.
 */
#include "literature/bot.h"

#include <string.h>

#include "../core/work.h"
#include "internal.h"
#include "literature/infer.h"
#include "literature/status.h"

int lit_bot_init(LitBot *bot, const LitBotSpec *spec, uint64_t seed)
{
    if (spec->kind >= LIT_BOT_KINDS || spec->memory > 1000 ||
        spec->rollouts > LIT_EXPERT_ROLLOUTS_MAX)
        return LIT_BAD_BOT_OPTION;
    bot_follow_init(bot, spec, seed);
    return LIT_OK;
}

/* ---- random ------------------------------------------------------------------ */

enum { RANDOM_CLAIM_ONE_IN = 16 };

/* A claim of set naming the seat itself for its own cards and a uniformly
 * drawn teammate for each other card. */
static LitAction random_claim(const LitView *v, LitRng *rng, int set)
{
    const LitPublic *p = &v->pub;
    int me = v->seat, deck = p->rules.deck, first = lit_set_first(deck, set);
    unsigned others = lit_team_seats(&p->rules, lit_team_of(me)) & ~(1u << me);
    LitAction a = lit_action_make(LIT_CLAIM, me);
    a.set = (uint8_t)set;
    for (int i = 0; i < lit_deck_set_size(deck); i++)
        a.holders[i] = (uint8_t)((v->hand & lit_bit(first + i))
                                     ? me
                                     : lit_nth_card(others, (int)lit_rng_below(
                                                               rng, (uint32_t)lit_popcount(others))));
    return a;
}

/* A uniformly drawn set of mask (bit = set). */
static int draw_set(LitRng *rng, unsigned mask)
{
    return lit_nth_card(mask, (int)lit_rng_below(rng, (uint32_t)lit_popcount(mask)));
}

static LitAction play_random(const LitView *v, LitRng *rng)
{
    const LitPublic *p = &v->pub;
    LitAction legal[LIT_MAX_LEGAL];
    int n = lit_view_legal(v, legal, LIT_MAX_LEGAL);
    unsigned claimable = lit_claimable(p, v->seat);
    /* A whole set in hand under must-claim is claimed: the rules allow
     * nothing else. */
    unsigned whole = p->rules.must_claim ? lit_whole_sets(p, v->hand) : 0;
    if (whole && (claimable & whole))
        return random_claim(v, rng, lit_lsb(claimable & whole));
    if (claimable && (n <= 0 || lit_rng_below(rng, RANDOM_CLAIM_ONE_IN) == 0))
        return random_claim(v, rng, draw_set(rng, claimable));
    return legal[lit_rng_below(rng, (uint32_t)n)];
}

/* ---- the dispatcher ------------------------------------------------------------ */

int lit_bot_act(LitBot *bot, const LitView *view, LitAction *out)
{
    int st = bot_follow_view(bot, view);
    if (st != LIT_OK)
        return st;
    Beliefs b;
    switch (bot->spec.kind) {
    case LIT_BOT_RANDOM:
        *out = play_random(view, &bot->rng);
        break;
    case LIT_BOT_CASUAL:
        bot_policy_beliefs_of_memory(&b, &bot->memory, view);
        *out = bot_policy_play(view, &b, &bot->rng, 0);
        break;
    case LIT_BOT_BASIC:
        bot_policy_beliefs_of_knowledge(&b, &bot->know);
        *out = bot_policy_play(view, &b, &bot->rng, 1);
        break;
    default:
        return bot_expert_act(bot, view, out);
    }
    return LIT_OK;
}

/* The knowledge of view and room for its odds, carved from a workspace of
 * LIT_BOT_WORK bytes (the rest left in *w): LIT_NO_SPACE for a smaller
 * one, else the statuses of lit_know_from_view. */
static int view_knowledge(const LitView *view, void *work, size_t size, LitWork *w, LitKnow **k,
                          LitOdds **o)
{
    if (!work || size < LIT_BOT_WORK)
        return LIT_NO_SPACE;
    *w = lit_work_of(work, size);
    *k = lit_work_take(w, sizeof **k);
    *o = lit_work_take(w, sizeof **o);
    if (!*k || !*o)
        return LIT_NO_SPACE;
    return lit_know_from_view(*k, view);
}

/* ---- master's beliefs ------------------------------------------------------------- */

int lit_bot_beliefs(const LitView *view, uint64_t seed, void *work, size_t size, LitOdds *odds,
                    LitBeliefBasis *basis)
{
    if (view->seat >= view->pub.rules.players)
        return LIT_BAD_SEAT;
    LitWork w;
    LitKnow *k;
    LitOdds *exact;
    int st = view_knowledge(view, work, size, &w, &k, &exact);
    BehavePool *pool = st == LIT_OK ? lit_work_take(&w, sizeof *pool) : NULL;
    if (st == LIT_OK && !pool)
        st = LIT_NO_SPACE;
    if (st == LIT_OK)
        st = lit_odds(k, w.p, w.left, exact);
    if (st == LIT_OK && !exact->exact)
        st = LIT_NO_SPACE;
    if (st == LIT_OK)
        st = bot_behave_odds(k, view, exact, seed, pool, odds, w.p, w.left);
    if (st != LIT_OK)
        return st;
    odds->exact = 0;
    odds->samples = (uint32_t)pool->draws;
    if (basis) {
        basis->model = *odds;
        basis->effective = pool->effective;
    }
    return bot_behave_calibrate(k, view, exact, odds, w.p, w.left, basis);
}

/* ---- why a move ----------------------------------------------------------------- */

int lit_bot_chance(const LitView *view, const LitAction *action, uint64_t seed, void *work,
                   size_t size, double *chance, int *at_most)
{
    if (action->kind != LIT_ASK && action->kind != LIT_CLAIM)
        return LIT_BAD_ACTION;
    LitWork w;
    LitKnow *k;
    LitOdds *o;
    int st = view_knowledge(view, work, size, &w, &k, &o);
    if (st == LIT_OK)
        st = lit_odds_or_estimate(k, LIT_CHANCE_SAMPLES, seed, w.p, w.left, o);
    if (st != LIT_OK)
        return st;
    if (action->kind == LIT_ASK) {
        *chance = o->p[action->card][action->target];
        *at_most = 0;
    } else {
        int t = lit_team_of(action->seat);
        *chance = o->best_p[t][action->set];
        *at_most = memcmp(o->best[t][action->set], action->holders,
                          (size_t)lit_deck_set_size(view->pub.rules.deck)) != 0;
    }
    return LIT_OK;
}
