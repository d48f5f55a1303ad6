/* bot.c - the dispatcher: a bot made from its spec, each decision sent to
 * its kind after the bot has read the view (follow.c), and random's play.
 *
 * Casual and basic play the one policy of policy.c over their beliefs,
 * expert its search (expert.c); docs/BOTS.md says what each does and why.
 */
#include "literature/bot.h"

#include "internal.h"

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
