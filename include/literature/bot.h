/* bot.h - the built-in players: random, casual, basic, expert (docs/BOTS.md).
 *
 * A bot sees a game only through its seat's view (const LitView *): its own
 * hand and the public history. It keeps what it has worked out from the
 * history between calls (the knowledge of docs/DEDUCTION.md, or for casual
 * its imperfect memory) and brings it up to date from the events the view
 * holds that it has not read yet, so one bot can follow its seat through a
 * whole game by being asked to act whenever the seat is on turn. Given the
 * same seed and the same views, a bot makes the same choices.
 *
 * A bot is a plain value held by the caller (about 15 KB); nothing here
 * allocates, prints or reads a clock. Expert also needs a workspace for its
 * exact counting and its search (LIT_BOT_WORK bytes), lent by the caller with
 * lit_bot_lend: bots that never act at the same time may share one.
 */
#ifndef LITERATURE_BOT_H
#define LITERATURE_BOT_H

#include <stddef.h>
#include <stdint.h>

#include "game.h"
#include "infer.h"
#include "rng.h"
#include "view.h"

typedef enum LitBotKind {
    LIT_BOT_RANDOM = 0, /* uniformly random legal actions, now and then a claim */
    LIT_BOT_CASUAL = 1, /* basic's rule on an imperfect memory of the history */
    LIT_BOT_BASIC = 2,  /* certain knowledge, perfect memory, claims only when certain */
    LIT_BOT_EXPERT = 3, /* exact probabilities, claim timing, rollouts in sampled deals */
    LIT_BOT_MASTER = 4, /* expert on beliefs weighted by how players ask */
    LIT_BOT_KINDS
} LitBotKind;

/* The strongest kind: the one a hint and a review play (docs/BOTS.md). */
#define LIT_BOT_BEST LIT_BOT_MASTER

enum {
    /* Longest bot text lit_bot_spec_format writes, with its terminating 0. */
    LIT_BOT_TEXT_MAX = 32,
    /* casual's default chance, in thousandths, of remembering a fact */
    LIT_CASUAL_MEMORY = 500,
    /* expert's and master's default number of rollouts per decision, and
     * the most */
    LIT_EXPERT_ROLLOUTS = 64,
    LIT_EXPERT_ROLLOUTS_MAX = 100000,
    /* master's weighted draws a decision (lit_bot_beliefs) */
    LIT_BELIEF_DRAWS = 2048,
    /* the workspace expert and master need: exact counting, and their
     * search */
    LIT_BOT_WORK = LIT_ODDS_WORK + (4u << 20)
};

/* Which bot, and its settings. Written "basic", "random", "casual",
 * "casual:0.75" (casual remembering each public fact with chance 0.75),
 * "expert" or "expert:200" (expert with 200 rollouts per decision; 0: no
 * search), "master" or "master:200" alike. */
typedef struct LitBotSpec {
    uint8_t kind;      /* LitBotKind */
    uint16_t memory;   /* casual: chance of remembering a fact, in thousandths */
    uint32_t rollouts; /* expert, master: rollouts per decision */
} LitBotSpec;

/* Whether bots of kind search: they need a workspace (lit_bot_lend), and
 * a server runs their decisions off its event loop. */
static inline int lit_bot_searches(int kind)
{
    return kind == LIT_BOT_EXPERT || kind == LIT_BOT_MASTER;
}

/* The spec of kind at its default settings (the spec the bare name
 * "basic", "casual" or "expert" parses to). kind must be a LitBotKind. */
LitBotSpec lit_bot_spec_default(LitBotKind kind);

/* Parses a bot text (exactly len bytes). LIT_UNKNOWN_BOT for a name that is
 * no bot, LIT_BAD_BOT_OPTION for a setting it does not take or a bad value;
 * *spec is then unchanged. */
int lit_bot_spec_parse(LitBotSpec *spec, const char *text, size_t len);

/* Writes the canonical text ("casual:0.75"; casual's default memory is left
 * out). Returns the length or LIT_NO_SPACE. */
int lit_bot_spec_format(const LitBotSpec *spec, char *buf, size_t cap);

/* Casual's memory of the history: what it took in of each public fact. */
typedef struct LitBotMemory {
    uint8_t holder[LIT_MAX_CARDS];    /* where it saw each card go, or LIT_NOBODY */
    uint64_t lacks[LIT_MAX_PLAYERS];  /* cards it saw each seat miss or ask for */
} LitBotMemory;

typedef struct LitBot {
    LitBotSpec spec;
    LitRng rng;
    /* What the bot has read of its game: the seat, the events read, the
     * last of them (a different game or seat starts the bot afresh). */
    uint8_t seat;
    uint8_t started;
    uint32_t seen;
    LitEvent last;
    LitKnow know;                     /* basic, expert */
    LitKnow public_know;              /* expert: what every seat knows */
    LitBotMemory memory;              /* casual */
    void *work;                       /* expert: the lent workspace */
    size_t work_size;
} LitBot;

/* A bot of spec drawing its choices from seed. LIT_BAD_BOT_OPTION for a
 * spec out of range. */
int lit_bot_init(LitBot *bot, const LitBotSpec *spec, uint64_t seed);

/* Where a placement of master's stands in the exact count (the uniform
 * model's): the likeliest placement the count names, another as likely (a
 * tie broken the other way), or a less likely one (docs/BOTS.md "Its
 * claims, calibrated"). */
typedef enum LitStanding {
    LIT_STANDING_LIKELIEST,
    LIT_STANDING_TIED,
    LIT_STANDING_BELOW,
    LIT_STANDINGS
} LitStanding;

/* What the chances master states for its claims were read from
 * (lit_bot_beliefs; docs/BOTS.md "Its claims, calibrated"): the model's
 * figures before the calibration, the exact count's, and the facts its
 * lines read besides. */
typedef struct LitBeliefBasis {
    LitOdds model;                /* the figures before the claims' calibration */
    LitOdds exact;                /* the exact count's (the uniform model's) */
    double effective;             /* the draws' effective number */
    uint8_t stuck;                /* every ask of the seat must miss: its claims are forced */
    uint8_t standing[LIT_MAX_SETS]; /* where the team's likeliest placement of the set
                                       stands in the exact count: LitStanding */
    double uniform[LIT_MAX_SETS];   /* the exact count's chance of that placement */
} LitBeliefBasis;

/* Master's beliefs from a seat's view (docs/BOTS.md "master"): where the
 * exact odds of the view are sure (a chance of 0 or 1, a placement surely
 * right), their figures; elsewhere the chances over the consistent deals
 * weighted by how likely the asks seen were under master's model of how
 * players ask, estimated from LIT_BELIEF_DRAWS deals drawn from seed (0:
 * the view's own seed, a hash of the seat, its hand and the history, the
 * one master's own decision at this view draws from, so that these are
 * the figures it decided by). The claim figures are the seat's team's, the
 * chance of the likeliest placement calibrated against how often master's
 * claims were right in the arena at 6 and 8 players (and the chance the
 * team holds the set all raised to it where it was below; at other player
 * counts the model's); basis (when not NULL) gets what that calibration
 * read. odds->exact is 0, odds->samples the draws, odds->deals the exact
 * count; the standard errors are not filled: with basis->effective draws
 * n, a chance p is off by about sqrt(p (1 - p) / n). work: LIT_BOT_WORK
 * bytes. LIT_OK; LIT_BAD_SEAT for the public view;
 * LIT_NO_SPACE for a smaller workspace or a position beyond the exact
 * count (at 10 and 12 players early on, where master plays as expert);
 * LIT_INCONSISTENT when no deal fits; the statuses of lit_know_from_view. */
int lit_bot_beliefs(const LitView *view, uint64_t seed, void *work, size_t size, LitOdds *odds,
                    LitBeliefBasis *basis);

/* Lends expert a workspace of size bytes (any alignment; LIT_BOT_WORK): it
 * uses it only inside lit_bot_act. Other bots ignore it. */
void lit_bot_lend(LitBot *bot, void *work, size_t size);

/* The bot's action for its seat in view (the seat on turn): always one the
 * referee accepts when the view is the referee's. LIT_NOT_YOUR_TURN when the
 * view's seat is not on turn, LIT_GAME_OVER when the game has ended,
 * LIT_BAD_SEAT for the public view, LIT_NO_SPACE for an expert without a
 * workspace of LIT_BOT_WORK bytes, and the statuses of lit_know_apply for a
 * history that does not replay; *out is then unchanged. */
int lit_bot_act(LitBot *bot, const LitView *view, LitAction *out);

/* The draws of the estimate behind lit_bot_chance beyond the state budget. */
enum { LIT_CHANCE_SAMPLES = 2000 };

/* Why a move: the chance, from view's seat, that action comes off: an ask's
 * that its target holds the card, a claim's that its placement is right (the
 * exact figure; beyond the state budget the estimate from LIT_CHANCE_SAMPLES
 * draws seeded by seed). For a claim of another placement than the
 * likeliest, *at_most is 1 and *chance is the likeliest one's, which no
 * other placement's exceeds; else *at_most is 0. work: LIT_BOT_WORK bytes,
 * any alignment. LIT_OK; LIT_BAD_ACTION for a pass or a choice (no chance to
 * speak of), LIT_NO_SPACE for a smaller workspace, and the statuses of
 * lit_know_from_view and lit_odds; *chance and *at_most are then
 * unchanged. */
int lit_bot_chance(const LitView *view, const LitAction *action, uint64_t seed, void *work,
                   size_t size, double *chance, int *at_most);

/* Name of a kind ("basic"), "" for none. Static storage. */
const char *lit_bot_kind_name(int kind);

#endif
