/* internal.h - what bot.c and expert.c share (not installed). */
#ifndef LIT_BOT_INTERNAL_H
#define LIT_BOT_INTERNAL_H

#include "literature/bot.h"

/* What a bot believes: for every card the seat believed to hold it, for every
 * seat the cards of unknown holder it may hold and its unknown slots. */
typedef struct Beliefs {
    uint8_t holder[LIT_MAX_CARDS];    /* the seat believed to hold it, or LIT_NOBODY */
    uint64_t may[LIT_MAX_PLAYERS];    /* cards of unknown holder the seat may hold */
    int slots[LIT_MAX_PLAYERS];       /* cards of the seat not believed placed */
} Beliefs;

/* Beliefs that are certain knowledge (basic's). */
void bot_beliefs_of_knowledge(Beliefs *b, const LitKnow *k);

/* The policy of casual (patient 0) and basic (patient 1), docs/BOTS.md. */
LitAction bot_play(const LitView *v, const Beliefs *b, LitRng *rng, int patient);

/* The likeliest claim of set under the beliefs (docs/BOTS.md, rule 1). */
LitAction bot_best_claim(const LitView *v, const Beliefs *b, int set);

/* The seat of cand with the most cards (fewest with fewest), ties to the
 * first clockwise from `from`. */
int bot_by_cards(const LitPublic *p, unsigned cand, int from, int fewest);

/* Expert's decision (expert.c); the bot has read the view already. */
int bot_expert_act(LitBot *bot, const LitView *v, LitAction *out);

#endif
