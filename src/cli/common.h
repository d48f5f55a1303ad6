/* common.h - what the subcommands of `lit` share: rule options, files,
 * clocks, output. */
#ifndef LIT_CLI_COMMON_H
#define LIT_CLI_COMMON_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "literature/game.h"
#include "literature/infer.h"
#include "literature/notation.h"
#include "literature/rules.h"

/* The rule options every subcommand that starts games takes. */
typedef struct RuleArgs {
    const char *preset;      /* --rules */
    /* --rule KEY=VALUE and --players N in the order given (the last one
     * of a key counts): the argument, and whether it came from --players. */
    const char *overrides[64];
    unsigned char is_players[64];
    int n_overrides;
} RuleArgs;

/* getopt_long ids of the rule options (beyond any char). */
enum { OPT_RULES = 1000, OPT_RULE, OPT_PLAYERS, OPT_HELP };

#define RULE_LONG_OPTIONS                                                      \
    {"rules", required_argument, NULL, OPT_RULES},                             \
    {"rule", required_argument, NULL, OPT_RULE},                               \
    {"players", required_argument, NULL, OPT_PLAYERS}

#define RULE_OPTIONS_HELP                                                      \
    "  --rules PRESET     rule preset: classic (default), club, encyclopedia,\n" \
    "                     jokers, quartets, india (docs/RULES.md)\n"           \
    "  --rule KEY=VALUE   one rule option over the preset, e.g.\n"              \
    "                     misclaim=opponents (repeatable)\n"                    \
    "  --players N        4, 6, 8, 10 or 12 (same as --rule players=N; of\n"   \
    "                     several, the last one counts)\n"

/* Takes a rule option from getopt_long; returns 1 if it was one, 0 if not,
 * -1 (message printed) on a bad value. */
int rule_args_take(RuleArgs *ra, int opt, const char *arg);

/* Builds the rules: 0, or -1 with a message on stderr naming the word. */
int rule_args_build(const RuleArgs *ra, LitRules *rules);

/* After getopt_long: 0 when nothing but options was given, else 2 with a
 * message naming the first stray argument. */
int no_operands(const char *cmd, int argc, char **argv);

/* A history log of LIT_MAX_ACTIONS events on the heap (the caller frees
 * log->events): 0, or 1 with a message. */
int log_new(LitLog *log);

/* A record read from a file and parsed, with its buffers. */
typedef struct Loaded {
    LitRecord rec;
    LitEvent *events;
    uint32_t *lines;
    uint8_t *by; /* each event's LitBy, the record's marks */
} Loaded;

/* Reads and parses a record ("-" is standard input): 0, or 1 with
 * "FILE:LINE: status: sentence" (or another message) on stderr. Free with
 * record_free whatever it returns. */
int record_load(const char *file, Loaded *out);
/* The same, telling a parse error to the caller: 0; -1 with a message (the
 * file could not be read, out of memory); 1 with *err filled and nothing
 * said (err->moves: out holds the header and the events before its line). */
int record_read(const char *file, Loaded *out, LitParseError *err);
/* Whether a record's deal is one the dealing gives (each seat the number of
 * cards dealt to it from the dealer's left; docs/RULES.md "Dealing"), as
 * the counting and the bots need: 0, or -1 with "FILE:LINE: bad_deal: seat
 * N holds K cards, where the deal gives it M ..." (the engine and lit
 * replay take any deal with a card a seat). */
int deal_as_dealt(const char *file, const LitRecord *rec, const LitGame *start);
/* fail_at for a parse error, naming the tag a LIT_MISSING_TAG misses. */
void fail_parse(const char *file, const LitParseError *err);
void record_free(Loaded *l);

/* The record of a game played here: rules, dealer and deal from start, the
 * result from end, the events of log (borrowed), the seed and the Event tag;
 * no names. */
void record_of_game(LitRecord *rec, const LitGame *start, const LitGame *end,
                    const LitLog *log, uint64_t seed, const char *event);

/* Writes a record's text to path, through text (LIT_RECORD_TEXT_MAX bytes;
 * NULL: one is allocated): 0, or -1 with "PATH: cannot write the record". */
int record_save(const char *path, const LitRecord *rec, char *text);

/* A file written whole or not at all: a regular file (or a new one) is
 * written beside it under a name of its own and renamed over it once
 * whole, so that a failed write leaves the file as it was; anything else
 * (a device, a pipe, a link) is written in place. */
typedef struct SaveFile {
    FILE *f;
    const char *path;
    char tmp[4096]; /* "" when written in place */
    int slot;       /* where a signal finds tmp (stop_on_signals), or -1 */
} SaveFile;

/* SIGINT, SIGTERM and SIGHUP (each unless ignored) end the command as they
 * would, once every temporary file of a save under way is removed and also
 * (when not NULL) is called: async-signal-safe calls only. */
void stop_on_signals(void (*also)(void));

/* Opens sf for path: its FILE in sf->f, or NULL with errno set. */
FILE *save_open(SaveFile *sf, const char *path);

/* Closes sf; ok says whether every write went through. 0 once path holds
 * the whole file, or -1 with errno set (path as it was, when renamed). */
int save_close(SaveFile *sf, int ok);

/* Says that the record could not be written to path: it did not fit
 * (fits 0), or errno err. */
void record_save_failed(const char *path, int fits, int err);

/* Whether a file can be written at path: 0, or -1 with errno set (its
 * folder missing or not writable, or the file itself not writable). */
int save_possible(const char *path);

/* Makes the folder path and its parents where they are missing (mkdir -p):
 * 0, or -1 with a message (which part could not be made, or is not a
 * folder, and why). */
int make_folder(const char *path);

/* Where a history stops fitting any deal, from seat's view (LIT_NOBODY: the
 * public's) with its hand: the first m of 1..n such that no deal fits the
 * first m of the applied actions (as the referee gave them), decided
 * exactly at every size (lit_know_feasible); 0 when a deal fits all n, or
 * out of memory. */
uint32_t history_impossible_at(const LitRules *r, int dealer, int seat, uint64_t hand,
                               const LitEvent *applied, uint32_t n);

/* Prints "FILE:LINE: status: sentence" to stderr. */
void fail_at(const char *file, uint32_t line, int status);

/* Reads a whole file ("-" is standard input) of at most max bytes into a
 * malloc'd buffer (caller frees). Returns 0, or -1 with a message. */
int read_file(const char *path, size_t max, char **data, size_t *len);

/* Parses an unsigned decimal number; 0 on success. */
int parse_u64(const char *s, uint64_t *v);

/* Seconds on the monotonic clock. */
double now_seconds(void);

/* The largest standard error of a card's probability in an estimate. */
double largest_se(const LitKnow *k, const LitOdds *o);

/* After getopt_long's last case: for --help (OPT_HELP) the usage text on
 * stdout and 0, for anything else on stderr and 2 (the exit status). */
int help_or_usage(const char *usage, int opt);

/* Prints "lit: " and a message to stderr. */
void say(const char *fmt, ...);

#endif
