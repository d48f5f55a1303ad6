/* cmd_selfplay.c - `lit selfplay`: many games of the pinned policy; the
 * engine benchmark. */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmds.h"
#include "common.h"
#include "literature/notation.h"
#include "literature/rng.h"
#include "literature/status.h"
#include "selfplay.h"

static const char usage[] =
    "usage: lit selfplay --games N --seed S [rule options] [--json] [--record FILE]\n"
    "                    [--records DIR]\n"
    "\n"
    "Plays N games with the pinned self-play policy (docs/BENCHMARKS.md):\n"
    "before each ask the mover's team correctly claims every set it holds\n"
    "entirely, then the mover asks a uniformly random legal question. Every\n"
    "action goes through the validating apply and into the history.\n"
    "\n"
    "  --games N          number of games (default 1000)\n"
    "  --seed S           seed of the run; game i is dealt from (S, i) (default 1)\n"
    RULE_OPTIONS_HELP
    "  --json             print one JSON object: games, actions, seconds,\n"
    "                     actions_per_second, games_per_second,\n"
    "                     actions_per_game, team_a_wins, team_b_wins, draws,\n"
    "                     aborted\n"
    "  --record FILE      write the first game's record to FILE\n"
    "  --records DIR      write every game's record to DIR/NNNN.lit (game\n"
    "                     index from 0000; DIR is made if missing)\n"
    "  --help             this text\n";

static int write_record(const char *path, const LitGame *start,
                        const LitGame *end, const LitLog *log, uint64_t seed)
{
    LitRecord rec;
    record_of_game(&rec, start, end, log, seed, "lit selfplay");
    return record_save(path, &rec, NULL);
}

/* The options of `lit selfplay`. */
typedef struct SelfplayArgs {
    RuleArgs ra;
    uint64_t games, seed;
    int json;
    const char *record, *records;
} SelfplayArgs;

/* The options: -1 when all are taken, else the exit status. */
static int take_options(SelfplayArgs *sa, int argc, char **argv)
{
    static const struct option longs[] = {
        RULE_LONG_OPTIONS,
        {"games", required_argument, NULL, 'g'},
        {"seed", required_argument, NULL, 's'},
        {"json", no_argument, NULL, 'j'},
        {"record", required_argument, NULL, 'r'},
        {"records", required_argument, NULL, 'R'},
        {"help", no_argument, NULL, OPT_HELP},
        {NULL, 0, NULL, 0}};
    int opt;
    while ((opt = getopt_long(argc, argv, "", longs, NULL)) != -1) {
        int took = rule_args_take(&sa->ra, opt, optarg);
        if (took < 0)
            return 2;
        if (took)
            continue;
        switch (opt) {
        case 'g':
            if (parse_u64(optarg, &sa->games) || sa->games == 0) {
                say("--games: not a positive number: '%s'", optarg);
                return 2;
            }
            break;
        case 's':
            if (parse_u64(optarg, &sa->seed)) {
                say("--seed: not a number: '%s'", optarg);
                return 2;
            }
            break;
        case 'j':
            sa->json = 1;
            break;
        case 'r':
            sa->record = optarg;
            break;
        case 'R':
            sa->records = optarg;
            break;
        default: /* --help, or an option not known */
            return help_or_usage(usage, opt);
        }
    }
    return no_operands("selfplay", argc, argv) ? 2 : -1;
}

/* What a run counts. */
typedef struct Tally {
    uint64_t actions, wins[2], draws, aborted;
    double secs;
} Tally;

/* The records of game i: the first to --record, each to --records DIR. 0,
 * or the exit status with a message. */
static int write_records(const SelfplayArgs *sa, uint64_t i, const LitGame *start,
                         const LitGame *end, const LitLog *log)
{
    if (i == 0 && sa->record &&
        write_record(sa->record, start, end, log, lit_seed_mix(sa->seed, 0)))
        return 1;
    if (sa->records) {
        char path[4096];
        int n = snprintf(path, sizeof path, "%s/%04llu.lit", sa->records,
                         (unsigned long long)i);
        if (n < 0 || (size_t)n >= sizeof path) {
            say("--records: the folder name is too long");
            return 2;
        }
        if (write_record(path, start, end, log, lit_seed_mix(sa->seed, i)))
            return 1;
    }
    return 0;
}

/* Plays the run, counting into *t, with progress on a terminal's stderr:
 * 0, or the exit status with a message. */
static int play_games(const SelfplayArgs *sa, const LitRules *rules, Tally *t)
{
    LitLog log;
    if (log_new(&log))
        return 1;
    if (sa->record || sa->records)
        stop_on_signals(NULL); /* no record half written left behind */
    int tty = isatty(2);
    double t0 = now_seconds(), last = t0;
    for (uint64_t i = 0; i < sa->games; i++) {
        LitGame start, end;
        t->actions += selfplay_game(rules, sa->seed, i, &start, &end, &log);
        switch (end.pub.result) {
        case LIT_WIN_A: t->wins[0]++; break;
        case LIT_WIN_B: t->wins[1]++; break;
        case LIT_DRAW: t->draws++; break;
        default: t->aborted++; break;
        }
        int rc = write_records(sa, i, &start, &end, &log);
        if (rc) {
            free(log.events);
            return rc;
        }
        if (tty && (i & 255) == 255) {
            double now = now_seconds();
            if (now - last > 0.5) {
                fprintf(stderr, "\rselfplay: %llu/%llu games", (unsigned long long)i + 1,
                        (unsigned long long)sa->games);
                last = now;
            }
        }
    }
    t->secs = now_seconds() - t0;
    free(log.events);
    if (tty && t->secs > 0.5)
        fputs("\r\033[K", stderr);
    if (t->secs <= 0)
        t->secs = 1e-9;
    return 0;
}

/* The run's figures: one JSON object, or three lines. */
static void report(const SelfplayArgs *sa, const Tally *t)
{
    uint64_t games = sa->games, actions = t->actions;
    double secs = t->secs;
    if (sa->json) {
        printf("{\"games\":%llu,\"actions\":%llu,\"seconds\":%.6f,"
               "\"actions_per_second\":%.0f,\"games_per_second\":%.1f,"
               "\"actions_per_game\":%.2f,"
               "\"team_a_wins\":%llu,\"team_b_wins\":%llu,\"draws\":%llu,"
               "\"aborted\":%llu}\n",
               (unsigned long long)games, (unsigned long long)actions, secs,
               (double)actions / secs, (double)games / secs,
               (double)actions / (double)games, (unsigned long long)t->wins[0],
               (unsigned long long)t->wins[1], (unsigned long long)t->draws,
               (unsigned long long)t->aborted);
    } else {
        printf("games %llu  actions %llu  (%.1f per game)\n",
               (unsigned long long)games, (unsigned long long)actions,
               (double)actions / (double)games);
        printf("team A %llu  team B %llu  draws %llu  aborted %llu\n",
               (unsigned long long)t->wins[0], (unsigned long long)t->wins[1],
               (unsigned long long)t->draws, (unsigned long long)t->aborted);
        printf("%.3f s  %.3g actions/s  %.3g games/s\n", secs,
               (double)actions / secs, (double)games / secs);
    }
}

int cmd_selfplay(int argc, char **argv)
{
    SelfplayArgs sa;
    memset(&sa, 0, sizeof sa);
    sa.games = 1000;
    sa.seed = 1;
    int rc = take_options(&sa, argc, argv);
    if (rc >= 0)
        return rc;
    LitRules rules;
    if (rule_args_build(&sa.ra, &rules))
        return 2;
    if (sa.records && make_folder(sa.records))
        return 1;
    Tally t;
    memset(&t, 0, sizeof t);
    rc = play_games(&sa, &rules, &t);
    if (rc == 0)
        report(&sa, &t);
    return rc;
}
