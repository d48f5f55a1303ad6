/* bot.h - the built-in players: random, casual and basic (docs/BOTS.md).
 *
 * A bot sees a game only through its seat's view (const LitView *): its own
 * hand and the public history. It keeps what it has worked out from the
 * history between calls (the knowledge of docs/DEDUCTION.md, or for casual
 * its imperfect memory) and brings it up to date from the events the view
 * holds that it has not read yet, so one bot can follow its seat through a
 * whole game by being asked to act whenever the seat is on turn. Given the
 * same seed and the same views, a bot makes the same choices.
 *
 * A bot is a plain value held by the caller (a few kilobytes); nothing here
 * allocates, prints or reads a clock.
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
    LIT_BOT_KINDS
} LitBotKind;

enum {
    /* Longest bot text lit_bot_spec_format writes, with its terminating 0. */
    LIT_BOT_TEXT_MAX = 32,
    /* casual's default chance, in thousandths, of remembering a fact */
    LIT_CASUAL_MEMORY = 500
};

/* Which bot, and its settings. Written "basic", "random", "casual" or
 * "casual:0.75" (casual remembering each public fact with chance 0.75). */
typedef struct LitBotSpec {
    uint8_t kind;      /* LitBotKind */
    uint16_t memory;   /* casual: chance of remembering a fact, in thousandths */
} LitBotSpec;

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
    LitKnow know;                     /* basic */
    LitBotMemory memory;              /* casual */
} LitBot;

/* A bot of spec drawing its choices from seed. LIT_BAD_BOT_OPTION for a
 * spec out of range. */
int lit_bot_init(LitBot *bot, const LitBotSpec *spec, uint64_t seed);

/* The bot's action for its seat in view (the seat on turn): always one the
 * referee accepts when the view is the referee's. LIT_NOT_YOUR_TURN when the
 * view's seat is not on turn, LIT_GAME_OVER when the game has ended,
 * LIT_BAD_SEAT for the public view, and the statuses of lit_know_apply for a
 * history that does not replay; *out is then unchanged. */
int lit_bot_act(LitBot *bot, const LitView *view, LitAction *out);

/* Name of a kind ("basic"), "" for none. Static storage. */
const char *lit_bot_kind_name(int kind);

#endif
