/* play.h - the play session of `lit play`: the game being played, its bots,
 * the hint, the marks of the record, the bots' moves, saving and resuming
 * (play.c). Its two faces use it: plain mode (cmd_play.c) and the
 * full-screen table (table.c). */
#ifndef LIT_CLI_PLAY_H
#define LIT_CLI_PLAY_H

#include <stddef.h>
#include <stdint.h>

#include "literature/bot.h"
#include "literature/game.h"
#include "literature/notation.h"

enum { MAX_MARKS = 4096 };

typedef struct Mark {
    uint32_t before; /* the action it comes before, 1-based */
    char text[96];
} Mark;

typedef struct Play {
    LitRules rules;
    LitGame start, g;
    LitLog log;
    int me;
    char name[LIT_NAME_MAX + 1];
    /* a resumed record's names of seats that no bot names (other players,
     * now played by basic), kept in the record; "" elsewhere */
    char kept[LIT_MAX_PLAYERS][LIT_NAME_MAX + 1];
    LitBotSpec spec[LIT_MAX_PLAYERS];
    LitBot bot[LIT_MAX_PLAYERS];
    LitBot hinter;
    void *work;               /* for experts and the hint */
    uint64_t seed;
    int has_seed;
    const char *record;
    char record_buf[64];
    long pace_ms;
    int aid;
    Mark marks[MAX_MARKS];
    int n_marks;
    int marked_seat; /* a resumed record's last "you: seat N" mark, 0-based; -1 */
    int unkept;      /* 0, or the errno of the first save after an action that failed */
    /* a resumed record's comments after its move lines (who chose an
     * action when its seat did not: a stand-in, a fallback), written back */
    char after[LIT_MAX_ACTIONS][LIT_MARK_MAX + 1];
    /* a resumed record's Event, Site and Date tags, written back ("" new) */
    char event[LIT_TEXT_MAX + 1], site[LIT_TEXT_MAX + 1], date[LIT_TEXT_MAX + 1];
} Play;

/* Stops on SIGINT, SIGTERM, SIGHUP and SIGQUIT: each only notes the signal
 * (play_stopped), so that a read or a pause it cuts returns (no
 * SA_RESTART) and the face closes, saves and exits 128 + the signal.
 * SIGPIPE is ignored: a lost reader is a write that fails. */
void play_catch_stops(void);
/* The signal that came, or 0. */
int play_stopped(void);

/* A mark (a comment line of the record) before the next action: fmt with
 * arg, cut to the mark's size; none beyond MAX_MARKS. */
void play_mark(Play *pl, const char *fmt, const char *arg);

/* Writes the record with its marks to pl->record and prints "saved: FILE"
 * (and how to go on with it while the game is on): 0, or -1 with a
 * message. */
int play_save(Play *pl);

/* Plays an action (lit_game_play) and, when the referee takes it, writes
 * the record at once, saying nothing: a game ended by a crash, a lost
 * terminal or a kill keeps every move. A save that fails is noted in
 * pl->unkept (the save at the end says why) and not tried again. */
int play_act(Play *pl, const LitAction *a);

/* Goes on with the saved game at path: its rules, deal, events, seed and
 * marks (the aid as they left it); the bots from the seats' names, the
 * other seats' names kept and played by basic. Your seat is seat (0-based),
 * marked "you: seat N" in the record when it moves you; with seat -1, the
 * one the record's last such mark names, else the first one no bot names.
 * Its kept name becomes yours unless name_given. The record goes back to
 * path unless pl->record is set.
 * 0, or -1 with a message on stderr. */
int play_resume(Play *pl, const char *path, int seat, int name_given);

/* Starts the bot of every seat from pl->spec and the hinter (expert), each
 * seeded from the game's seed and lent pl->work (LIT_BOT_WORK bytes). */
void play_start_bots(Play *pl);

/* The knowledge of the view v (the player's) into k, and its odds into o:
 * exact, or beyond the budget the estimate of LIT_CHANCE_SAMPLES draws
 * seeded by the actions so far (as the hint's chance). LIT_OK, or the status that stopped it. */
int play_odds(Play *pl, const LitView *v, LitKnow *k, LitOdds *o);

/* An action's move words without the seat: "asks 4 for Qh". */
void play_move_text(const Play *pl, const LitAction *a, char *buf, size_t cap);

/* Expert's move for the player, as move words in text, and why in why: the
 * chance from the player's view that an ask hits or a claim is right, as
 * " (hits 62%)" or " (right 100%)" (" (right at most 40%)" for a claim of
 * a placement not the likeliest: the likeliest one's chance; "" for a pass
 * or a choice). The hint is marked in the record (the move alone). 0, or -1
 * when there is none. */
int play_hint(Play *pl, char *text, size_t cap, char *why, size_t why_cap);

/* The bot of the seat on turn plays one move (play_act), then, with pause,
 * the pace's pause: 0, or -1 when it could not. */
int play_bot_move(Play *pl, int pause);

#endif
