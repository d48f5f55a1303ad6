/* internal.h - what the files of src/bot share (not installed).
 *
 * The calls run one way: the dispatcher (bot.c) uses follow.c, policy.c,
 * expert.c and behave.c (lit_bot_beliefs); expert.c uses policy.c, whose basic follows its game with
 * follow.c, and behave.c (master's beliefs). spec.c (the kinds and their
 * text) is below them all.
 */
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

/* ---- follow.c: what a bot has read of its game -------------------------------- */

/* Makes bot a bot of spec (in range) that has read nothing yet, drawing its
 * choices from seed. */
void bot_follow_init(LitBot *bot, const LitBotSpec *spec, uint64_t seed);

/* Reads the events of view the bot has not read yet (from the start for
 * another game or seat): into its knowledge (basic, expert) or casual's
 * memory. The statuses of lit_bot_act before it decides: LIT_BAD_SEAT,
 * LIT_GAME_OVER, LIT_NOT_YOUR_TURN, or those of lit_know_apply. */
int bot_follow_view(LitBot *bot, const LitView *view);

/* ---- policy.c: beliefs, and casual's and basic's policy ------------------------ */

/* Beliefs that are certain knowledge (basic's). */
void bot_policy_beliefs_of_knowledge(Beliefs *b, const LitKnow *k);

/* Beliefs from casual's memory m, for the seat of view v: its own hand; each
 * card where it remembers it, at a seat that still holds cards; for every
 * other seat with cards, each live card not placed nor remembered missing. */
void bot_policy_beliefs_of_memory(Beliefs *b, const LitBotMemory *m, const LitView *v);

/* The policy of casual (patient 0) and basic (patient 1), docs/BOTS.md. */
LitAction bot_policy_play(const LitView *v, const Beliefs *b, LitRng *rng, int patient);

/* The likeliest claim of set under the beliefs (docs/BOTS.md, rule 1). */
LitAction bot_policy_best_claim(const LitView *v, const Beliefs *b, int set);

/* Makes bot a basic bot (lit_bot_spec_default) drawing from seed. */
void bot_policy_basic_init(LitBot *bot, uint64_t seed);

/* Basic's action for the seat of v (on turn), as lit_bot_act gives it for a
 * basic bot: reads v (bot_follow_view, and its statuses), then plays. */
int bot_policy_basic_act(LitBot *bot, const LitView *v, LitAction *out);

/* ---- expert.c ------------------------------------------------------------------ */

/* Expert's decision; the bot has read the view already. LIT_NO_SPACE
 * without a workspace of LIT_BOT_WORK bytes. */
int bot_expert_act(LitBot *bot, const LitView *v, LitAction *out);

/* ---- behave.c: master's beliefs ------------------------------------------------ */

enum { BEHAVE_DRAWS = LIT_BELIEF_DRAWS };

/* Deals drawn exactly from the uniform posterior, each with its weight under
 * the model of how players ask (weights sum to 1). */
typedef struct BehavePool {
    int draws;
    double effective; /* the effective number of draws: (sum w)^2 / sum w^2 */
    double weight[BEHAVE_DRAWS];
    uint64_t hands[BEHAVE_DRAWS][LIT_MAX_PLAYERS];
    uint64_t team_hand[BEHAVE_DRAWS]; /* the seat's team's cards in each draw */
    /* a hash table of a set's placements (behave.c), a slot in use when its
     * stamp is the current one */
    uint64_t slot_key[2 * BEHAVE_DRAWS];
    double slot_weight[2 * BEHAVE_DRAWS];
    uint32_t slot_stamp[2 * BEHAVE_DRAWS];
    uint32_t stamp;
} BehavePool;

/* Master's odds of the view v of a seat (whose knowledge is k): exact's
 * figures where they are sure (0 or 1, a sure placement), and where not,
 * the model's, estimated from BEHAVE_DRAWS deals drawn from seed (0: the
 * view's, bot_behave_seed) into pool (docs/BOTS.md "master"); the claim
 * figures of the seat's team only (the other team's stay exact's), as the
 * model gives them (bot_behave_calibrate calibrates them). work (work_size
 * bytes) is the sampler's. The statuses of lit_sampler_init; out and pool
 * are then not filled. */
int bot_behave_odds(const LitKnow *k, const LitView *v, const LitOdds *exact, uint64_t seed,
                    BehavePool *pool, LitOdds *out, void *work, size_t work_size);

/* The seed master's beliefs at view v draw from (seed 0 of
 * bot_behave_odds): a hash of the seat, its hand and the history. */
uint64_t bot_behave_seed(const LitView *v);

/* The calibrated chance that a claim of the likeliest placement is right
 * (behave.c; docs/BOTS.md "master"): p the model's chance of the
 * placement, stuck whether every ask of the claimer must miss, standing
 * where the placement stands in the exact count (LitStanding); at a player
 * count of bot_claim_players, a line through bot_claim_table's figures for
 * the pair, line BOT_CLAIM_LINE(stuck, standing), at p = 0,
 * 1 / (BOT_CLAIM_KNOTS - 1), ..., 1; at others, p itself. */
enum { BOT_CLAIM_KNOTS = 21, BOT_CLAIM_TABLES = 2, BOT_CLAIM_LINES = 2 * LIT_STANDINGS };
#define BOT_CLAIM_LINE(stuck, standing) (LIT_STANDINGS * ((stuck) != 0) + (standing))
double bot_claim_chance(double p, int players, int stuck, int standing);
extern const int bot_claim_players[BOT_CLAIM_TABLES];
extern const double bot_claim_table[BOT_CLAIM_TABLES][BOT_CLAIM_LINES][BOT_CLAIM_KNOTS];

/* The claim figures of the seat's team in out (bot_behave_odds' of view v,
 * whose knowledge k exact counted) calibrated (bot_claim_chance) where
 * exact's are not sure; the chance the team holds a set all raised to its
 * claim's where it was below. Where the model's likeliest placement is not
 * exact's, its exact chance is counted (work, work_size: LIT_ODDS_WORK) to
 * tell a tie. The exact figures and what the lines read besides the
 * model's (stuck; for every set its standing and that exact chance) into basis
 * when not NULL. LIT_OK, or the statuses of lit_odds_count (LIT_NO_SPACE
 * beyond its reach): out is then partly calibrated. */
int bot_behave_calibrate(const LitKnow *k, const LitView *v, const LitOdds *exact, LitOdds *out,
                         void *work, size_t work_size, LitBeliefBasis *basis);

/* A deal of the pool drawn by its weight. */
void bot_behave_draw(const BehavePool *pool, LitRng *rng, uint64_t hands[LIT_MAX_PLAYERS]);

#endif
