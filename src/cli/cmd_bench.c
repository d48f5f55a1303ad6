/* cmd_bench.c - `lit bench`: a fixed workload under a fixed count, never a
 * time budget; its one line is the behaviour signature (bench/signature).
 * A refactor or a speed-up leaves the line unchanged; a change of behaviour
 * changes it, and the commit that does so updates bench/signature. */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cmds.h"
#include "common.h"
#include "literature/infer.h"
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
enum {
    CONFIGS = (int)(sizeof configs / sizeof configs[0]),
    GAMES = 64,
    KNOW_GAMES = 4 /* games per configuration whose deduction is signed */
};

static const char usage[] =
    "usage: lit bench [--know | --odds] [--games N] [--players N]\n"
    "\n"
    "Plays a fixed workload (the self-play policy, 64 games under each of 39\n"
    "rule sets, seed 1) and prints one line: the actions played and a\n"
    "signature of every event and, for the first 4 games of each rule set, of\n"
    "what seat 1 and the public can deduce after every event. Timing goes to\n"
    "stderr.\n"
    "\n"
    "  --know     instead, time certain knowledge: every seat's and the public\n"
    "             knowledge kept up to date through self-played games at each\n"
    "             player count (classic rules); prints microseconds per update\n"
    "  --odds     instead, time exact counting (lit_odds) from seat 1's view at\n"
    "             every position of self-played games at 4, 6 and 8 players:\n"
    "             median, 90th percentile and worst milliseconds, and the\n"
    "             positions beyond the workspace\n"
    "  --games N    games per player count (default 500 for --know, 20 for\n"
    "               --odds)\n"
    "  --players N  only this player count (--know, --odds)\n";

/* Knowledge of seat 1 and of the public through a game, hashed. */
static uint64_t hash_knowledge(uint64_t h, const LitGame *start, const LitLog *log)
{
    LitKnow k[2];
    for (int i = 0; i < 2; i++) {
        int seat = i ? LIT_NOBODY : 0;
        if (lit_know_start(&k[i], &start->pub.rules, start->pub.dealer, seat,
                           i ? 0 : start->hands[0]) != LIT_OK)
            abort();
    }
    for (uint32_t e = 0; e < log->len; e++) {
        for (int i = 0; i < 2; i++) {
            if (lit_know_apply(&k[i], &log->events[e]) != LIT_OK)
                abort();
            for (int s = 0; s < LIT_MAX_PLAYERS; s++) {
                uint64_t w[2] = {k[i].held[s], k[i].may[s]};
                const unsigned char *p = (const unsigned char *)w;
                for (size_t b = 0; b < sizeof w; b++) {
                    h ^= p[b];
                    h *= UINT64_C(0x100000001b3);
                }
            }
        }
    }
    return h;
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* --odds: milliseconds per exact count, per player count. */
static int bench_odds(uint64_t games, int only)
{
    LitLog log;
    if (log_new(&log))
        return 1;
    void *work = malloc(LIT_ODDS_WORK);
    LitOdds *odds = malloc(sizeof *odds);
    double *ms = malloc(sizeof *ms * LIT_MAX_ACTIONS * games);
    if (!work || !odds || !ms) {
        say("out of memory");
        free(log.events);
        free(work);
        free(odds);
        free(ms);
        return 1;
    }
    printf("players  positions  beyond  median_ms  p90_ms  worst_ms\n");
    for (int players = 4; players <= 8; players += 2) {
        if (only && players != only)
            continue;
        LitRules rules;
        lit_rules_default(&rules);
        rules.players = (uint8_t)players;
        size_t n = 0, beyond = 0;
        for (uint64_t i = 0; i < games; i++) {
            LitGame start;
            LitKnow k;
            selfplay_game(&rules, 1, i, &start, NULL, &log);
            lit_know_start(&k, &rules, start.pub.dealer, 0, start.hands[0]);
            for (uint32_t e = 0; e <= log.len; e++) {
                if (e > 0)
                    lit_know_apply(&k, &log.events[e - 1]);
                if (k.pub.result != LIT_ONGOING)
                    break;
                double t0 = now_seconds();
                lit_odds(&k, work, LIT_ODDS_WORK, odds);
                ms[n++] = (now_seconds() - t0) * 1e3;
                beyond += !odds->exact;
            }
        }
        qsort(ms, n, sizeof *ms, by_value);
        printf("%7d  %9zu  %6zu  %9.3f  %6.3f  %8.1f\n", players, n, beyond, ms[n / 2],
               ms[n * 9 / 10], ms[n - 1]);
    }
    free(log.events);
    free(work);
    free(odds);
    free(ms);
    return 0;
}

/* --know: microseconds per knowledge update, per player count. */
static int bench_know(uint64_t games, int only)
{
    static LitKnow k[LIT_MAX_PLAYERS + 1];
    LitLog log;
    if (log_new(&log))
        return 1;
    printf("players  updates  seconds  us/update\n");
    for (int players = 4; players <= 12; players += 2) {
        if (only && players != only)
            continue;
        LitRules rules;
        lit_rules_default(&rules);
        rules.players = (uint8_t)players;
        double secs = 0;
        long updates = 0;
        for (uint64_t i = 0; i < games; i++) {
            LitGame start;
            selfplay_game(&rules, 1, i, &start, NULL, &log);
            double t0 = now_seconds();
            for (int s = 0; s <= players; s++) {
                int seat = s == players ? LIT_NOBODY : s;
                lit_know_start(&k[s], &rules, start.pub.dealer, seat,
                               seat == LIT_NOBODY ? 0 : start.hands[s]);
                for (uint32_t e = 0; e < log.len; e++)
                    lit_know_apply(&k[s], &log.events[e]);
            }
            secs += now_seconds() - t0;
            updates += (long)(players + 1) * log.len;
        }
        printf("%7d  %7ld  %7.3f  %9.3f\n", players, updates, secs, secs * 1e6 / (double)updates);
    }
    free(log.events);
    return 0;
}

int cmd_bench(int argc, char **argv)
{
    static const struct option longs[] = {{"know", no_argument, NULL, 'k'},
                                          {"odds", no_argument, NULL, 'o'},
                                          {"players", required_argument, NULL, 'p'},
                                          {"games", required_argument, NULL, 'g'},
                                          {"help", no_argument, NULL, OPT_HELP},
                                          {NULL, 0, NULL, 0}};
    int opt, know = 0, odds = 0;
    uint64_t games = 0, only = 0;
    while ((opt = getopt_long(argc, argv, "", longs, NULL)) != -1) {
        if (opt == 'k' || opt == 'o') {
            know |= opt == 'k';
            odds |= opt == 'o';
            continue;
        }
        if (opt == 'p') {
            if (parse_u64(optarg, &only) || only < 4 || only > 12 || only % 2) {
                say("--players: 4, 6, 8, 10 or 12, not '%s'", optarg);
                return 2;
            }
            continue;
        }
        if (opt == 'g') {
            if (parse_u64(optarg, &games) || games == 0) {
                say("--games: not a positive number: '%s'", optarg);
                return 2;
            }
            continue;
        }
        if (opt == OPT_HELP) {
            fputs(usage, stdout);
            return 0;
        }
        fputs(usage, stderr);
        return 2;
    }
    if (no_operands("bench", argc, argv))
        return 2;
    if (know && odds) {
        say("bench: --know or --odds, not both");
        return 2;
    }
    if (know)
        return bench_know(games ? games : 500, (int)only);
    if (odds)
        return bench_odds(games ? games : 20, (int)only);
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
            LitGame start;
            actions += selfplay_game(&rules, 1, (uint64_t)i, &start, NULL, &log);
            hash = selfplay_hash(hash, log.events, log.len);
            if (i < KNOW_GAMES)
                hash = hash_knowledge(hash, &start, &log);
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
