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
    "                     index from 0000; DIR must exist)\n"
    "  --help             this text\n";

static int write_record(const char *path, const LitGame *start,
                        const LitGame *end, const LitLog *log, uint64_t seed)
{
    LitRecord rec;
    record_of_game(&rec, start, end, log, seed, "lit selfplay");
    return record_save(path, &rec, NULL);
}

int cmd_selfplay(int argc, char **argv)
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
    RuleArgs ra;
    memset(&ra, 0, sizeof ra);
    uint64_t games = 1000, seed = 1;
    int json = 0, opt;
    const char *record = NULL, *records = NULL;
    while ((opt = getopt_long(argc, argv, "", longs, NULL)) != -1) {
        int took = rule_args_take(&ra, opt, optarg);
        if (took < 0)
            return 2;
        if (took)
            continue;
        switch (opt) {
        case 'g':
            if (parse_u64(optarg, &games) || games == 0) {
                say("--games: not a positive number: '%s'", optarg);
                return 2;
            }
            break;
        case 's':
            if (parse_u64(optarg, &seed)) {
                say("--seed: not a number: '%s'", optarg);
                return 2;
            }
            break;
        case 'j':
            json = 1;
            break;
        case 'r':
            record = optarg;
            break;
        case 'R':
            records = optarg;
            break;
        default: /* --help, or an option not known */
            return help_or_usage(usage, opt);
        }
    }
    if (no_operands("selfplay", argc, argv))
        return 2;
    LitRules rules;
    if (rule_args_build(&ra, &rules))
        return 2;

    LitLog log;
    if (log_new(&log))
        return 1;
    uint64_t actions = 0, wins[2] = {0, 0}, draws = 0, aborted = 0;
    int tty = isatty(2);
    double t0 = now_seconds(), last = t0;
    for (uint64_t i = 0; i < games; i++) {
        LitGame start, end;
        actions += selfplay_game(&rules, seed, i, &start, &end, &log);
        switch (end.pub.result) {
        case LIT_WIN_A: wins[0]++; break;
        case LIT_WIN_B: wins[1]++; break;
        case LIT_DRAW: draws++; break;
        default: aborted++; break;
        }
        if (i == 0 && record &&
            write_record(record, &start, &end, &log, lit_seed_mix(seed, 0))) {
            free(log.events);
            return 1;
        }
        if (records) {
            char path[4096];
            int n = snprintf(path, sizeof path, "%s/%04llu.lit", records,
                             (unsigned long long)i);
            if (n < 0 || (size_t)n >= sizeof path) {
                say("--records: the folder name is too long");
                free(log.events);
                return 2;
            }
            if (write_record(path, &start, &end, &log, lit_seed_mix(seed, i))) {
                free(log.events);
                return 1;
            }
        }
        if (tty && (i & 255) == 255) {
            double t = now_seconds();
            if (t - last > 0.5) {
                fprintf(stderr, "\rselfplay: %llu/%llu games", (unsigned long long)i + 1,
                        (unsigned long long)games);
                last = t;
            }
        }
    }
    double secs = now_seconds() - t0;
    free(log.events);
    if (tty && secs > 0.5)
        fputs("\r\033[K", stderr);
    if (secs <= 0)
        secs = 1e-9;
    if (json) {
        printf("{\"games\":%llu,\"actions\":%llu,\"seconds\":%.6f,"
               "\"actions_per_second\":%.0f,\"games_per_second\":%.1f,"
               "\"actions_per_game\":%.2f,"
               "\"team_a_wins\":%llu,\"team_b_wins\":%llu,\"draws\":%llu,"
               "\"aborted\":%llu}\n",
               (unsigned long long)games, (unsigned long long)actions, secs,
               (double)actions / secs, (double)games / secs,
               (double)actions / (double)games, (unsigned long long)wins[0],
               (unsigned long long)wins[1], (unsigned long long)draws,
               (unsigned long long)aborted);
    } else {
        printf("games %llu  actions %llu  (%.1f per game)\n",
               (unsigned long long)games, (unsigned long long)actions,
               (double)actions / (double)games);
        printf("team A %llu  team B %llu  draws %llu  aborted %llu\n",
               (unsigned long long)wins[0], (unsigned long long)wins[1],
               (unsigned long long)draws, (unsigned long long)aborted);
        printf("%.3f s  %.3g actions/s  %.3g games/s\n", secs,
               (double)actions / secs, (double)games / secs);
    }
    return 0;
}
