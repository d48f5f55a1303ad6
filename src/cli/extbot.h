/* extbot.h - a bot in another process, over the bot protocol
 * (docs/BOT_PROTOCOL.md): one JSON object per line on its standard input and
 * output. The arena starts one process per seat of an external entrant and
 * keeps it for the whole run; it sends every process only its seat's view.
 *
 * Nothing a bot writes is trusted: lines are capped, parsed with jansson
 * (duplicate keys refused, unknown keys refused), every name and seat checked;
 * a late, malformed or illegal answer is refused with its exact reason and the
 * arena plays the fallback instead. A process that exits, or stops reading,
 * is dead: every later request of it gets the fallback at once.
 */
#ifndef LIT_CLI_EXTBOT_H
#define LIT_CLI_EXTBOT_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "literature/game.h"
#include "literature/view.h"

enum {
    EXTBOT_PROTOCOL = 1,
    EXTBOT_LINE_MAX = 1 << 16, /* bytes of a line from a bot, newline included */
    EXTBOT_WHY_MAX = 256,
    EXTBOT_RUNNING_MAX = 256 * 12, /* bots running at once (the arena's most) */
    /* the default time the first request of a process may take longer (its
     * start) */
    EXTBOT_START_MS = 10000
};

typedef struct ExtBot {
    pid_t pid;
    int to_bot, from_bot;   /* pipe ends; -1 when closed */
    int dead;               /* 1 once it exited or stopped reading */
    int closed;             /* 1 once its output or its input closed (it
                             * exited, mostly) */
    int waited;             /* extbot_never_answered has waited for its end */
    char ended[48];         /* how it ended, if it exited before a line */
    int timeout_ms;         /* per request */
    int start_ms;           /* more for the first request */
    char *buf;              /* what it wrote that is not yet a line */
    size_t len;
    int skipping;           /* inside a line over EXTBOT_LINE_MAX */
    uint32_t stale;         /* answers to earlier requests, ignored */
    uint32_t lines;         /* lines it wrote, read so far */
    int asked;              /* requests sent */
} ExtBot;

/* Starts `sh -c cmd` and greets it with the rules: 0, or -1 with a message
 * (the process could not be started). Each request must be answered within
 * timeout_ms, the first within start_ms more. */
int extbot_start(ExtBot *b, const char *cmd, int timeout_ms, int start_ms,
                 const LitRules *rules);

/* Says goodbye, closes its input and waits for it (a second at most, then
 * kills it). */
void extbot_stop(ExtBot *b);

/* Whether the bot exited before it wrote a single line (a command that
 * cannot run, a bot that fails at its start): 1 with how it ended in what
 * ("exit status 127: no such command", "killed by signal 11"), else 0. */
int extbot_never_answered(ExtBot *b, char *what, size_t cap);

/* Kills the process group of every bot started and not yet stopped: for a
 * signal that ends the arena (async-signal-safe). */
void extbot_kill_all(void);

/* A new game from the view of its seat (no history yet). */
void extbot_game(ExtBot *b, uint64_t game, const LitView *v);

/* The event number n (1-based) that just happened; v is the seat's view
 * after it. */
void extbot_event(ExtBot *b, const LitView *v, const LitEvent *e, uint32_t n);

/* Asks for the seat's action in view v (the seat on turn). LIT_OK with *out
 * filled (not yet checked by the referee), or -1 with the reason in why:
 * "name: detail" with name one of timeout, exited, too_long, not_json,
 * bad_message, bad_card, bad_set, bad_seat, bad_claim_cards, resync_again;
 * what the bot wrote shown in it with every byte outside printable ASCII
 * as \xNN (it goes to a terminal). */
int extbot_act(ExtBot *b, const LitView *v, LitAction *out, char why[EXTBOT_WHY_MAX]);

/* Tells the bot its answer to request n was refused (reason, a sentence) and
 * which action was played instead. */
void extbot_refused(ExtBot *b, const LitView *v, uint32_t n, const char *reason,
                    const char *message, const LitAction *played);

/* The end of the game: result and score. */
void extbot_result(ExtBot *b, uint64_t game, const LitView *v);

#endif
