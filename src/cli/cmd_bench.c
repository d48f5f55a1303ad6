/* cmd_bench.c - `lit bench`: a fixed workload under a fixed count, never a
 * time budget; its one line is the behaviour signature (bench/signature).
 * A refactor or a speed-up leaves the line unchanged; a change of behaviour
 * changes it, and the commit that does so updates bench/signature. */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cmds.h"
#include "common.h"
#include "helper.h"
#include "literature/bot.h"
#include "literature/infer.h"
#include "literature/rng.h"
#include "literature/status.h"
#include "arena.h"
#include "bench_odds.h"
#include "selfplay.h"
#include "../mem/mem.h"

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
    KNOW_GAMES = 4, /* games per configuration whose deduction is signed */
    BOT_DEALS = 4   /* deals per configuration and pairing of the bots */
};

/* The bots' pairings, each played on BOT_DEALS duplicate deals (arena.h). */
static const char *const pairings[][2] = {
    {"basic", "random"}, {"basic", "casual"}, {"casual", "random"}, {"basic", "basic"}};
enum { PAIRINGS = (int)(sizeof pairings / sizeof pairings[0]) };

static const char usage[] =
    "usage: lit bench [--know | --odds [--sample] [--coverage] | --decisions]\n"
    "                 [--games N]\n"
    "                 [--players N] [--corpus DIR]... [--public] [--samples N]\n"
    "                 [--slowest N] [--repeat N] [--bot BOT] [--against BOT]\n"
    "\n"
    "Plays a fixed workload (the self-play policy, 64 games under each of 39\n"
    "rule sets, seed 1; and the bots: basic against random, basic against\n"
    "casual, casual against random and basic against basic, 4 duplicate deals\n"
    "each, under each rule set; expert:4 against basic and master:4 against\n"
    "expert:4 on one, at 4 and 6 players) and prints one line: the actions\n"
    "played and a\n"
    "signature of every event and, for the first 4 games of each rule set, of\n"
    "what seat 1 and the public can deduce after every event (and, for the\n"
    "first game of each rule set of 4 or 6 players, seat 1's exact count and\n"
    "likeliest placements). Timing goes to stderr.\n"
    "\n"
    "  --know     instead, time certain knowledge: every seat's and the public\n"
    "             knowledge kept up to date through self-played games at each\n"
    "             player count (classic rules); prints microseconds per update\n"
    "  --odds     instead, time exact counting (lit_odds, every marginal and\n"
    "             every set's claim figures) from seat 1's view at every\n"
    "             position of self-played games at 4, 6 and 8 players (or of\n"
    "             --corpus): median, 90th percentile and worst milliseconds;\n"
    "             for the positions beyond the budget, the estimate's\n"
    "             median time and median largest standard error; and at\n"
    "             every position the exact feasibility check's times\n"
    "             (lit_know_feasible; a position it refuses stops the run)\n"
    "  --sample   as --odds, and also time exact sampling: draws per second\n"
    "             and the sampler's set-up, at every exact position\n"
    "  --coverage as --odds, and at every exact position also draw the\n"
    "             estimate (--samples draws) and count its probabilities\n"
    "             within 1, 1.96, 2, 2.023 and 3 of its standard errors of the\n"
    "             exact ones, per player count\n"
    "  --decisions  instead, time a bot's decisions (--bot, default expert)\n"
    "             against --against (default basic) on --games deals\n"
    "             (default 10), each played\n"
    "             twice with the seats swapped as in the arena, classic rules\n"
    "             at 4, 6 and 8 players (or --players): median, 95th\n"
    "             percentile and worst ms\n"
    "  --corpus DIR  the positions of every record DIR/*.lit (or of the\n"
    "             record DIR, a .lit file) instead of self-play (repeatable;\n"
    "             bench/corpus/README.md)\n"
    "  --public   the public view instead of seat 1's (--odds, --sample)\n"
    "  --samples N  draws of each estimate beyond the budget (default 1000)\n"
    "  --slowest N  also list the N slowest exact positions (1 to 100), each\n"
    "               with its record and the lit infer options that show it\n"
    "  --repeat N   time each position's counting N times (1 to 10) and keep\n"
    "               the fastest: the position's cost without the machine's\n"
    "               pauses (default 1); with --slowest, the slowest are then\n"
    "               timed again in N rounds, one after the other\n"
    "  --threads N  threads each count may take, 1 or 2 (default 2 on a\n"
    "               machine of two cores or more): a second one takes part\n"
    "               of a large position's forward sweep (docs/DEDUCTION.md\n"
    "               \"Two threads\")\n"
    "  --games N    games per player count (default 500 for --know, 20 for\n"
    "               --odds; with --corpus, the first N records of each\n"
    "               folder, default all)\n"
    "  --players N  only this player count (--know, --odds, --sample)\n";

static uint64_t hash_bytes(uint64_t h, const void *data, size_t n)
{
    const unsigned char *p = data;
    for (size_t b = 0; b < n; b++) {
        h ^= p[b];
        h *= UINT64_C(0x100000001b3);
    }
    return h;
}

/* Knowledge of seat 1 and of the public through a game, hashed; with odds
 * (a workspace), also seat 1's exact count and likeliest placements at
 * every position (the integers of lit_odds, which are the same on every
 * machine). */
static uint64_t hash_knowledge(uint64_t h, const LitGame *start, const LitLog *log,
                               void *odds_work, LitOdds *odds)
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
                h = hash_bytes(h, w, sizeof w);
            }
        }
        if (odds_work && k[0].pub.result == LIT_ONGOING) {
            if (lit_odds(&k[0], odds_work, LIT_ODDS_WORK, odds) != LIT_OK || !odds->exact)
                abort();
            h = hash_bytes(h, odds->deals.w, sizeof odds->deals.w);
            h = hash_bytes(h, odds->best, sizeof odds->best);
        }
    }
    return h;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* A built-in bot of --bot or --against into e: 0, or 2 with a message. */
static int builtin_entrant(Entrant *e, const char *option, const char *text)
{
    const char *bad;
    int st = entrant_parse(e, text, &bad);
    if (st == LIT_OK && e->cmd)
        st = LIT_UNKNOWN_BOT; /* built-in bots only: a process is timed by the arena */
    if (st != LIT_OK) {
        say("%s: %s: %s: '%s'", option, lit_status_name(st), lit_status_text(st), text);
        return 2;
    }
    return 0;
}

/* --decisions: milliseconds per decision of a bot (default expert) against
 * another (default basic), per player count: games deals of classic rules
 * played twice as in the arena (seed 1), every decision of the bot timed. */
static int bench_decisions(uint64_t games, int only, const char *who, const char *against)
{
    Entrant side[2];
    if (builtin_entrant(&side[0], "--bot", who) || builtin_entrant(&side[1], "--against", against))
        return 2;
    ArenaWatch watch = {0, malloc(sizeof(double) * 4000 * (size_t)games), 0, 4000 * games};
    void *work = mem_alloc_work(LIT_BOT_WORK);
    LitLog log = {0};
    if (!work || !watch.ms || log_new(&log)) {
        say("out of memory");
        free(work);
        free(watch.ms);
        return 1;
    }
    printf("bot %s against %s, classic rules\n", who, against);
    printf("players  decisions  median_ms  p95_ms  p99_ms  worst_ms\n");
    for (int players = 4; players <= 12; players += 2) {
        if ((only && players != only) || (!only && players > 8))
            continue;
        LitRules rules;
        lit_rules_default(&rules);
        rules.players = (uint8_t)players;
        watch.n = 0;
        for (uint64_t i = 0; i < 2 * games; i++) {
            GameOutcome out;
            arena_game_watched(&rules, 1, i / 2, (int)(i % 2), &side[0], &side[1], work, &out,
                               &log, &watch);
        }
        size_t n = watch.n;
        double *ms = watch.ms;
        qsort(ms, n, sizeof *ms, cmp_double);
        printf("%7d  %9zu  %9.3f  %6.2f  %6.2f  %8.1f\n", players, n, n ? ms[n / 2] : 0.0,
               n ? ms[n * 95 / 100] : 0.0, n ? ms[n * 99 / 100] : 0.0, n ? ms[n - 1] : 0.0);
        fflush(stdout);
    }
    free(work);
    free(watch.ms);
    free(log.events);
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

/* *out = the number arg, from lo to hi: 0, or -1 with the option's message. */
static int in_range(const char *option, const char *arg, uint64_t lo, uint64_t hi, uint64_t *out)
{
    if (parse_u64(arg, out) || *out < lo || *out > hi) {
        say("%s: a number from %llu to %llu, not '%s'", option, (unsigned long long)lo,
            (unsigned long long)hi, arg);
        return -1;
    }
    return 0;
}

/* The signature's running totals and the buffers of its workload. */
typedef struct Signer {
    LitLog log;
    void *odds_work, *bot_work;
    LitOdds *figures;
    uint64_t hash, actions;
    int bot_games;
} Signer;

/* One game of two bots (arena.h; seed 1), signed. */
static void sign_bot_game(Signer *sg, const LitRules *rules, uint64_t deal, int playing,
                          const Entrant side[2], void *work)
{
    GameOutcome out;
    arena_game(rules, 1, deal, playing, &side[0], &side[1], NULL, work, &out, NULL, NULL,
               &sg->log, NULL);
    sg->actions += sg->log.len;
    sg->hash = selfplay_hash(sg->hash, sg->log.events, sg->log.len);
    sg->bot_games++;
}

/* The workload of one rule set, signed: the self-played games (the first
 * with their deduction), expert against basic, master against expert, and
 * the bots' pairings. */
static void sign_rules(Signer *sg, const LitRules *rules)
{
    for (int i = 0; i < GAMES; i++) {
        LitGame start;
        sg->actions += selfplay_game(rules, 1, (uint64_t)i, &start, NULL, &sg->log);
        sg->hash = selfplay_hash(sg->hash, sg->log.events, sg->log.len);
        if (i < KNOW_GAMES)
            sg->hash = hash_knowledge(sg->hash, &start, &sg->log,
                                      i == 0 && rules->players <= 6 ? sg->odds_work : NULL,
                                      sg->figures);
    }
    /* expert (with a small search) against basic, one duplicate deal,
     * at 4 and 6 players: its exact counting at 8 and more would
     * dominate the bench's time */
    if (rules->players <= 6) {
        Entrant side[2];
        const char *bad;
        if (entrant_parse(&side[0], "expert:4", &bad) != LIT_OK ||
            entrant_parse(&side[1], "basic", &bad) != LIT_OK)
            abort();
        for (int i = 0; i < 2; i++)
            sign_bot_game(sg, rules, 0, i, side, sg->bot_work);
        /* and master against expert, the same way */
        if (entrant_parse(&side[0], "master:4", &bad) != LIT_OK ||
            entrant_parse(&side[1], "expert:4", &bad) != LIT_OK)
            abort();
        for (int i = 0; i < 2; i++)
            sign_bot_game(sg, rules, 0, i, side, sg->bot_work);
    }
    for (int pr = 0; pr < PAIRINGS; pr++) {
        Entrant side[2];
        const char *bad;
        if (entrant_parse(&side[0], pairings[pr][0], &bad) != LIT_OK ||
            entrant_parse(&side[1], pairings[pr][1], &bad) != LIT_OK)
            abort(); /* the pairings above are valid */
        for (int i = 0; i < 2 * BOT_DEALS; i++)
            sign_bot_game(sg, rules, (uint64_t)(i / 2), i % 2, side, NULL);
    }
}

/* The fixed workload under every configuration: its one line on stdout
 * (the signature), its time on stderr. 0, or 1 with a message. */
static int bench_signature(void)
{
    Signer sg;
    memset(&sg, 0, sizeof sg);
    sg.odds_work = mem_alloc_work(LIT_ODDS_WORK);
    sg.bot_work = mem_alloc_work(LIT_BOT_WORK);
    sg.figures = malloc(sizeof *sg.figures);
    int rc = 0;
    if (!sg.odds_work || !sg.bot_work || !sg.figures || log_new(&sg.log)) {
        say("out of memory");
        rc = 1;
    }
    sg.hash = SELFPLAY_HASH_INIT;
    double t0 = now_seconds();
    for (int c = 0; c < CONFIGS && rc == 0; c++) {
        LitRules rules;
        if (lit_rules_parse(&rules, configs[c], NULL) != LIT_OK) {
            say("bench: bad configuration '%s'", configs[c]);
            rc = 1;
        } else {
            sign_rules(&sg, &rules);
        }
    }
    double secs = now_seconds() - t0;
    free(sg.log.events);
    free(sg.odds_work);
    free(sg.bot_work);
    free(sg.figures);
    if (rc)
        return rc;
    printf("bench: %llu actions in %d games, signature %016llx\n",
           (unsigned long long)sg.actions, CONFIGS * GAMES + sg.bot_games,
           (unsigned long long)sg.hash);
    fprintf(stderr, "bench: %.3f s, %.3g actions/s\n", secs,
            secs > 0 ? (double)sg.actions / secs : 0.0);
    return 0;
}

/* The options that go with some modes only, by their bit in
 * BenchArgs.given: their names and the modes that take them. */
enum { GO_SIGNATURE = 1, GO_KNOW = 2, GO_ODDS = 4, GO_DECISIONS = 8 };
static const struct {
    int opt;
    const char *name;
    int modes;
} mode_options[] = {
    {'c', "--corpus", GO_ODDS},   {'P', "--public", GO_ODDS},
    {'n', "--samples", GO_ODDS},  {'S', "--slowest", GO_ODDS},
    {'R', "--repeat", GO_ODDS},   {'t', "--threads", GO_ODDS},
    {'p', "--players", GO_KNOW | GO_ODDS | GO_DECISIONS},
    {'g', "--games", GO_KNOW | GO_ODDS | GO_DECISIONS},
    {'b', "--bot", GO_DECISIONS}, {'a', "--against", GO_DECISIONS},
};

/* The modes as the refusal names them. */
static const char *modes_text(int modes)
{
    switch (modes) {
    case GO_ODDS:
        return "--odds, --sample or --coverage";
    case GO_DECISIONS:
        return "--decisions";
    default:
        return "--know, --odds, --sample, --coverage or --decisions";
    }
}

/* The options of `lit bench`. */
typedef struct BenchArgs {
    int know, odds, decisions;
    unsigned given; /* bit i: mode_options[i] was given */
    const char *who, *against;
    uint64_t games, only, samples, slowest, repeat, threads;
    OddsBench ob;
} BenchArgs;

/* One option of getopt_long: -1 when taken, else the exit status (0 after
 * --help, 2 with a message). */
static int take_option(BenchArgs *ba, int opt)
{
    OddsBench *ob = &ba->ob;
    for (size_t i = 0; i < sizeof mode_options / sizeof *mode_options; i++)
        if (mode_options[i].opt == opt)
            ba->given |= 1u << i;
    if (opt == 'k' || opt == 'o' || opt == 's' || opt == 'C') {
        ba->know |= opt == 'k';
        ba->odds |= opt == 'o' || opt == 's' || opt == 'C';
        ob->sample |= opt == 's';
        ob->cover |= opt == 'C';
        return -1;
    }
    if (opt == 'P') {
        ob->public_view = 1;
        return -1;
    }
    if (opt == 'd') {
        ba->decisions = 1;
        return -1;
    }
    if (opt == 'b' || opt == 'a') {
        *(opt == 'b' ? &ba->who : &ba->against) = optarg;
        return -1;
    }
    if (opt == 'c') {
        if (ob->n_corpus == (int)(sizeof ob->corpus / sizeof ob->corpus[0])) {
            say("--corpus: at most 16 folders");
            return 2;
        }
        ob->corpus[ob->n_corpus++] = optarg;
        return -1;
    }
    if (opt == 'n' || opt == 'R' || opt == 'S' || opt == 't') {
        if (opt == 'n' ? in_range("--samples", optarg, LIT_ESTIMATE_MIN, 200000, &ba->samples)
            : opt == 'R' ? in_range("--repeat", optarg, 1, 10, &ba->repeat)
            : opt == 't' ? in_range("--threads", optarg, 1, 2, &ba->threads)
                         : in_range("--slowest", optarg, 1, 100, &ba->slowest))
            return 2;
        return -1;
    }
    if (opt == 'p') {
        if (parse_u64(optarg, &ba->only) || ba->only < 4 || ba->only > 12 || ba->only % 2) {
            say("--players: 4, 6, 8, 10 or 12, not '%s'", optarg);
            return 2;
        }
        return -1;
    }
    if (opt == 'g') {
        if (parse_u64(optarg, &ba->games) || ba->games == 0) {
            say("--games: not a positive number: '%s'", optarg);
            return 2;
        }
        return -1;
    }
    if (opt == OPT_HELP) {
        fputs(usage, stdout);
        return 0;
    }
    fputs(usage, stderr);
    return 2;
}

/* The options: -1 when all are taken and go together, else the exit
 * status. */
static int take_options(BenchArgs *ba, int argc, char **argv)
{
    static const struct option longs[] = {{"know", no_argument, NULL, 'k'},
                                          {"odds", no_argument, NULL, 'o'},
                                          {"sample", no_argument, NULL, 's'},
                                          {"coverage", no_argument, NULL, 'C'},
                                          {"corpus", required_argument, NULL, 'c'},
                                          {"public", no_argument, NULL, 'P'},
                                          {"samples", required_argument, NULL, 'n'},
                                          {"slowest", required_argument, NULL, 'S'},
                                          {"repeat", required_argument, NULL, 'R'},
                                          {"threads", required_argument, NULL, 't'},
                                          {"players", required_argument, NULL, 'p'},
                                          {"games", required_argument, NULL, 'g'},
                                          {"decisions", no_argument, NULL, 'd'},
                                          {"bot", required_argument, NULL, 'b'},
                                          {"against", required_argument, NULL, 'a'},
                                          {"help", no_argument, NULL, OPT_HELP},
                                          {NULL, 0, NULL, 0}};
    int opt;
    while ((opt = getopt_long(argc, argv, "", longs, NULL)) != -1) {
        int rc = take_option(ba, opt);
        if (rc >= 0)
            return rc;
    }
    if (no_operands("bench", argc, argv))
        return 2;
    if (ba->know + ba->odds + ba->decisions > 1) {
        say("bench: one of --know, --odds (--sample and --coverage add to it), --decisions");
        return 2;
    }
    /* an option the mode does not take is refused by name, not ignored */
    int mode = ba->know ? GO_KNOW : ba->odds ? GO_ODDS : ba->decisions ? GO_DECISIONS
                                                                       : GO_SIGNATURE;
    for (size_t i = 0; i < sizeof mode_options / sizeof *mode_options; i++)
        if ((ba->given >> i & 1) && !(mode_options[i].modes & mode)) {
            say("bench: %s goes with %s", mode_options[i].name,
                modes_text(mode_options[i].modes));
            return 2;
        }
    return -1;
}

int cmd_bench(int argc, char **argv)
{
    BenchArgs ba;
    memset(&ba, 0, sizeof ba);
    ba.who = "expert";
    ba.against = "basic";
    ba.samples = 1000;
    ba.repeat = 1;
    int rc = take_options(&ba, argc, argv);
    if (rc >= 0)
        return rc;
    if (ba.decisions)
        return bench_decisions(ba.games ? ba.games : 10, (int)ba.only, ba.who, ba.against);
    if (ba.know)
        return bench_know(ba.games ? ba.games : 500, (int)ba.only);
    OddsBench *ob = &ba.ob;
    if (ba.odds) {
        ob->games = ba.games ? ba.games : ob->n_corpus ? 0 : 20;
        ob->only = (int)ba.only;
        ob->samples = (uint32_t)ba.samples;
        ob->slowest = (int)ba.slowest;
        ob->repeat = (int)ba.repeat;
        ob->threads = ba.threads ? (int)ba.threads : helper_default_threads();
        return bench_odds(ob);
    }
    return bench_signature();
}
