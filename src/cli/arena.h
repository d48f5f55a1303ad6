/* arena.h - matches between bots on duplicate deals, and their statistics
 * (docs/BOTS.md "The arena").
 *
 * A match of N deals plays each deal twice: first with entrant A on team A's
 * seats (1, 3, 5...) and B on team B's, then with the teams' seats swapped, so
 * the luck of the deal cancels. Deal i is dealt by seat i % players + 1 from
 * lit_seed_mix(S, i); the bot on seat s of playing p (0, 1) draws from
 * lit_seed_mix(that seed, 16 + 16 p + s). Results never depend on threads.
 */
#ifndef LIT_CLI_ARENA_H
#define LIT_CLI_ARENA_H

#include <stddef.h>
#include <stdint.h>

#include "literature/bot.h"
#include "literature/game.h"
#include "literature/notation.h"
#include "extbot.h"

enum { ENTRANT_TEXT_MAX = 512 };

/* One side: a bot per seat of its team, in seat order (a shorter list
 * repeats: "casual,basic" on three seats is casual, basic, casual); or an
 * external program on every seat of the team ("cmd:python3 bot.py"), one
 * process per seat, speaking the bot protocol (extbot.h). */
typedef struct Entrant {
    char text[ENTRANT_TEXT_MAX];
    const char *cmd;               /* in text, after "cmd:"; NULL for built-in bots */
    LitBotSpec seats[LIT_MAX_PLAYERS / 2];
    int n;
} Entrant;

/* Parses "basic", "casual,basic,basic" or "cmd:COMMAND": LIT_OK, or the bot
 * status of the first bad name (LIT_UNKNOWN_BOT, also for an empty name or
 * command; LIT_BAD_BOT_OPTION), or LIT_TOO_LONG (more than 511 bytes, or more
 * names than a team of 12 has seats); *bad then points at the name. */
int entrant_parse(Entrant *e, const char *text, const char **bad);

/* Parses a list of bots "casual,basic:..." into specs[0 .. *n), at most cap:
 * LIT_OK, or LIT_UNKNOWN_BOT (also for an empty name), LIT_BAD_BOT_OPTION,
 * LIT_TOO_LONG (more than cap), with *bad at the name. */
int bot_list_parse(const char *text, LitBotSpec *specs, int cap, int *n, const char **bad);

/* One game of a match. */
typedef struct GameOutcome {
    uint8_t result;      /* LitResult */
    int16_t points[2];   /* points of entrant A, entrant B */
    uint8_t sets[2];     /* sets won by entrant A, entrant B */
    uint16_t actions;
    uint16_t bad[2];     /* actions of A's and B's bots the referee refused
                          * (each replaced by the fallback) */
    uint8_t silent;      /* stopped: an external bot exited before it wrote
                          * a line (extbot_never_answered) */
} GameOutcome;

/* What entrant A scored in a game: 1 a win, 1/2 a draw or a livelock, 0. */
double outcome_score(const GameOutcome *g);

/* An action's mark in a record: "" or "fallback: REASON" (the action the
 * arena played for a refused one). */
typedef char ArenaMark[LIT_MARK_MAX + 1];

/* Plays deal index of a match with seed: playing 0 has A on team A, 1 the
 * teams swapped. ext[k] (k = 0 for A, 1 for B) holds the processes of an
 * external entrant, one per seat of its team in seat order (NULL for
 * built-in bots). work (LIT_BOT_WORK bytes, or NULL when no entrant needs
 * it) is lent to the experts, which act one at a time. *start, *end, log
 * (cap LIT_MAX_ACTIONS) and marks (LIT_MAX_ACTIONS of them, one an action)
 * receive the game when not NULL. Every refused action is logged on stderr
 * with its reason, and marked. */
void arena_game(const LitRules *rules, uint64_t seed, uint64_t index, int playing,
                const Entrant *a, const Entrant *b, ExtBot *const ext[2], void *work,
                GameOutcome *out, LitGame *start, LitGame *end, LitLog *log,
                ArenaMark *marks);

/* The same, timing every decision of one entrant (side 0 for A, 1 for B):
 * its milliseconds are appended to ms[*n .. cap). */
typedef struct ArenaWatch {
    int side;
    double *ms;
    size_t n, cap;
} ArenaWatch;
void arena_game_watched(const LitRules *rules, uint64_t seed, uint64_t index, int playing,
                        const Entrant *a, const Entrant *b, void *work, GameOutcome *out,
                        LitLog *log, ArenaWatch *watch);

/* Whether an entrant has an expert (which needs LIT_BOT_WORK bytes lent). */
int entrant_needs_work(const Entrant *e);

/* The fallback for a refused action (docs/BOT_PROTOCOL.md): the first legal
 * ask, pass or choice in lit_game_legal's order; with none, a claim of the
 * lowest set the seat may claim naming the seat itself for every card. */
LitAction arena_fallback(const LitGame *g, int seat);

typedef struct Stats {
    uint64_t pairs, games, wins, draws, losses, livelocks, bad[2];
    double score, score_lo, score_hi;   /* A's mean score, 95% interval over pairs */
    double elo, elo_lo, elo_hi;         /* +-INFINITY at a score of 1 or 0 */
    double set_margin;                  /* mean sets won by A minus by B per game */
    double margin;                      /* mean points of A minus B per game */
    double actions;                     /* mean actions per game */
} Stats;

/* Statistics of n deal pairs (games[2 i], games[2 i + 1]). */
void arena_stats(const GameOutcome *games, size_t n, Stats *s);

/* Elo difference of a score in [0, 1]. */
double elo_of(double score);

#endif
