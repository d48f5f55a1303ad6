/* cmd_bench.c - `lit bench`: a fixed workload under a fixed count, never a
 * time budget; its one line is the behaviour signature (bench/signature).
 * A refactor or a speed-up leaves the line unchanged; a change of behaviour
 * changes it, and the commit that does so updates bench/signature. */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cmds.h"
#include "common.h"
#include "literature/status.h"
#include "selfplay.h"

/* Every preset at every player count, then single options at 6 players. */
static const char *const configs[] = {
    "classic players=4", "classic", "classic players=8", "classic players=10",
    "classic players=12", "club players=4", "club", "club players=8",
    "club players=10", "club players=12", "encyclopedia players=4",
    "encyclopedia", "encyclopedia players=8", "encyclopedia players=10",
    "encyclopedia players=12", "jokers players=4", "jokers", "jokers players=8",
    "jokers players=10", "jokers players=12", "quartets players=4", "quartets",
    "quartets players=8", "quartets players=10", "quartets players=12",
    "india players=4", "india", "india players=8", "india players=10",
    "india players=12", "classic deck=no7", "classic bluff=on",
    "classic must-claim=on", "classic after-claim=team", "classic first=left",
    "classic misclaim=opponents", "classic double-high=on early-end=on",
    "classic deck=jokers double-high=on early-end=on",
    "quartets players=4 after-claim=team must-claim=on",
};
enum { CONFIGS = (int)(sizeof configs / sizeof configs[0]), GAMES = 64 };

static const char usage[] =
    "usage: lit bench\n"
    "\n"
    "Plays a fixed workload (the self-play policy, 64 games under each of 39\n"
    "rule sets, seed 1) and prints one line: the actions played and a\n"
    "signature of every event. Timing goes to stderr.\n";

int cmd_bench(int argc, char **argv)
{
    static const struct option longs[] = {{"help", no_argument, NULL, OPT_HELP},
                                          {NULL, 0, NULL, 0}};
    int opt;
    while ((opt = getopt_long(argc, argv, "", longs, NULL)) != -1) {
        if (opt == OPT_HELP) {
            fputs(usage, stdout);
            return 0;
        }
        fputs(usage, stderr);
        return 2;
    }
    if (no_operands("bench", argc, argv))
        return 2;
    LitLog log;
    if (log_new(&log))
        return 1;
    uint64_t hash = SELFPLAY_HASH_INIT, actions = 0;
    double t0 = now_seconds();
    for (int c = 0; c < CONFIGS; c++) {
        LitRules rules;
        if (lit_rules_parse(&rules, configs[c], NULL) != LIT_OK) {
            say("bench: bad configuration '%s'", configs[c]);
            free(log.events);
            return 1;
        }
        for (int i = 0; i < GAMES; i++) {
            actions += selfplay_game(&rules, 1, (uint64_t)i, NULL, NULL, &log);
            hash = selfplay_hash(hash, log.events, log.len);
        }
    }
    double secs = now_seconds() - t0;
    free(log.events);
    printf("bench: %llu actions in %d games, signature %016llx\n",
           (unsigned long long)actions, CONFIGS * GAMES, (unsigned long long)hash);
    fprintf(stderr, "bench: %.3f s, %.3g actions/s\n", secs,
            secs > 0 ? (double)actions / secs : 0.0);
    return 0;
}
