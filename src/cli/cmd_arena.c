/* cmd_arena.c - `lit arena`: bots against bots on duplicate deals. */
#include <getopt.h>
#include <jansson.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "arena.h"
#include "cmds.h"
#include "common.h"
#include "literature/notation.h"
#include "literature/rng.h"
#include "literature/status.h"

static const char usage[] =
    "usage: lit arena --team-a BOTS --team-b BOTS [--games N] [--threads T]\n"
    "                 [rule options] [--seed S] [--records DIR] [--json]\n"
    "       lit arena --entrant BOTS --entrant BOTS [--entrant BOTS]... [options]\n"
    "\n"
    "Plays N deals twice each, the second time with the teams' seats swapped\n"
    "(duplicate deals: the luck of the deal cancels), and reports entrant A's\n"
    "wins, draws and losses, its score (win 1, draw 1/2) with a 95% interval\n"
    "over the N deal pairs, the Elo difference, the mean set and point margins, actions\n"
    "per game, livelocks (games stopped at the action bound) and games per\n"
    "second. Deal i is seeded from (S, i): the results are the same for any\n"
    "number of threads. With two or more --entrant, a round robin: every\n"
    "pairing plays N deals, and a table of scores follows.\n"
    "\n"
    "BOTS is a bot for every seat of the team, or a list for its seats in\n"
    "order, repeated as needed: basic | casual | casual:0.8 | random |\n"
    "basic,casual,casual (docs/BOTS.md); or cmd:COMMAND, a program on every\n"
    "seat of the team, one process per seat for the whole run, speaking the\n"
    "bot protocol on its standard input and output (docs/BOT_PROTOCOL.md).\n"
    "A refused or late action of any bot is logged on stderr with its reason\n"
    "and replaced by the fallback; the report counts them per side. A cmd:\n"
    "bot that exits before it answers anything stops the match (exit 1).\n"
    "\n"
    "  --team-a BOTS      entrant A (default basic)\n"
    "  --team-b BOTS      entrant B (default random)\n"
    "  --entrant BOTS     an entrant of a round robin (repeatable)\n"
    "  --games N          deals (each played twice; default 100)\n"
    "  --threads T        worker threads (default 1; each has its own\n"
    "                     processes of a cmd: entrant)\n"
    "  --move-timeout MS  how long a cmd: bot may take to answer (default 5000)\n"
    "  --start-timeout MS how much longer its first answer may take, while it\n"
    "                     starts (default 10000)\n"
    "  --seed S           seed of the match (default 1)\n"
    RULE_OPTIONS_HELP
    "  --records DIR      write every game to DIR/NNNNNN-a.lit and -b.lit (the\n"
    "                     swapped playing), in a round robin to DIR/I-J/ for\n"
    "                     the entrants I and J (1 is the first --entrant); DIR\n"
    "                     is made if missing\n"
    "  --json             print one JSON object\n"
    "  --quiet            no progress bar\n"
    "  --help             this text\n";

enum { MAX_ENTRANTS = 16, MAX_THREADS = 256 };
_Static_assert(MAX_THREADS * LIT_MAX_PLAYERS <= EXTBOT_RUNNING_MAX,
               "extbot_kill_all knows every bot the arena can start");

typedef struct Match {
    const LitRules *rules;
    uint64_t seed, pairs;
    const Entrant *a, *b;
    const char *records;
    int move_timeout;            /* ms, for cmd: entrants */
    int start_timeout;           /* ms more for their first request */
    GameOutcome *out;            /* 2 per deal */
    atomic_uint_fast64_t next;   /* the next deal to play */
    atomic_uint_fast64_t done;   /* deals played */
    atomic_int failed;           /* why the match stopped (a Stop), the first reason */
} Match;

/* Why a match stopped early: each told in its own words (run_match). */
typedef enum Stop { STOP_NONE, STOP_MEMORY, STOP_RECORD, STOP_BOT, STOP_SILENT } Stop;

static void stop(Match *m, Stop why)
{
    int none = STOP_NONE;
    atomic_compare_exchange_strong(&m->failed, &none, (int)why);
}

static int write_game(const Match *m, uint64_t index, int playing, const LitGame *start,
                      const LitGame *end, const LitLog *log, ArenaMark *marks,
                      char *text)
{
    char path[4096];
    int n = snprintf(path, sizeof path, "%s/%06llu-%c.lit", m->records,
                     (unsigned long long)index, playing ? 'b' : 'a');
    if (n < 0 || (size_t)n >= sizeof path) {
        say("--records: the folder name is too long");
        return -1;
    }
    LitRecord rec;
    record_of_game(&rec, start, end, log, lit_seed_mix(m->seed, index), "lit arena");
    const char *mark[LIT_MAX_ACTIONS];
    for (uint32_t i = 0; i < log->len; i++)
        mark[i] = marks[i];
    rec.marks = mark;
    for (int s = 0; s < m->rules->players; s++) {
        const Entrant *e = (lit_team_of(s) == 0) == (playing == 0) ? m->a : m->b;
        if (e->cmd)
            snprintf(rec.names[s], sizeof rec.names[s], "external");
        else
            lit_bot_spec_format(&e->seats[(s / 2) % e->n], rec.names[s], sizeof rec.names[s]);
    }
    return record_save(path, &rec, text);
}

/* Starts the processes of a worker's external entrants: 0, or -1. */
static int start_processes(Match *m, ExtBot *ext[2])
{
    int team = m->rules->players / 2;
    for (int k = 0; k < 2; k++) {
        const Entrant *e = k ? m->b : m->a;
        ext[k] = NULL;
        if (!e->cmd)
            continue;
        ext[k] = calloc((size_t)team, sizeof *ext[k]);
        if (!ext[k])
            return -1;
        for (int i = 0; i < team; i++)
            if (extbot_start(&ext[k][i], e->cmd, m->move_timeout, m->start_timeout, m->rules))
                return -1;
    }
    return 0;
}

/* Says which external bot exited before it wrote a line (a command that
 * cannot run, a bot that fails at its start), with how it ended: its game
 * stopped there (GameOutcome.silent), and so does the match, whose games
 * the fallback would have played for it. */
static void silent_bots(Match *m, ExtBot *ext[2])
{
    for (int k = 0; k < 2; k++)
        for (int i = 0; ext[k] && i < m->rules->players / 2; i++) {
            char what[64];
            if (ext[k][i].buf && extbot_never_answered(&ext[k][i], what, sizeof what)) {
                say("the bot '%s' exited before it answered (%s)", (k ? m->b : m->a)->text,
                    what);
                return;
            }
        }
}

static void stop_processes(Match *m, ExtBot *ext[2])
{
    for (int k = 0; k < 2; k++) {
        if (!ext[k])
            continue;
        for (int i = 0; i < m->rules->players / 2; i++)
            if (ext[k][i].buf)
                extbot_stop(&ext[k][i]);
        free(ext[k]);
    }
}

static void *worker(void *arg)
{
    Match *m = arg;
    LitLog log = {0};
    char *text = NULL;
    ArenaMark *marks = NULL;
    ExtBot *ext[2] = {NULL, NULL};
    void *work = NULL;
    if (log_new(&log) ||
        (m->records && (!(text = malloc(LIT_RECORD_TEXT_MAX)) ||
                        !(marks = malloc(LIT_MAX_ACTIONS * sizeof *marks)))) ||
        ((entrant_needs_work(m->a) || entrant_needs_work(m->b)) &&
         !(work = malloc(LIT_BOT_WORK)))) {
        stop(m, STOP_MEMORY);
        goto done;
    }
    if (start_processes(m, ext)) {
        stop(m, STOP_BOT);
        goto done;
    }
    for (;;) {
        uint64_t i = atomic_fetch_add(&m->next, 1);
        if (i >= m->pairs || atomic_load(&m->failed))
            break;
        for (int p = 0; p < 2; p++) {
            LitGame start, end;
            arena_game(m->rules, m->seed, i, p, m->a, m->b, ext, work,
                       &m->out[2 * i + (uint64_t)p], &start, &end, &log, marks);
            if (m->out[2 * i + (uint64_t)p].silent) { /* a game not played out: no record */
                silent_bots(m, ext);
                stop(m, STOP_SILENT);
                break;
            }
            if (m->records && write_game(m, i, p, &start, &end, &log, marks, text))
                stop(m, STOP_RECORD);
        }
        atomic_fetch_add(&m->done, 1);
    }
done:
    stop_processes(m, ext);
    free(work);
    free(text);
    free(marks);
    free(log.events);
    return NULL;
}

static void progress(const char *label, uint64_t done, uint64_t total, double secs)
{
    enum { WIDTH = 30 };
    int fill = total ? (int)(WIDTH * done / total) : WIDTH;
    char bar[WIDTH + 1];
    for (int i = 0; i < WIDTH; i++)
        bar[i] = i < fill ? '#' : '.';
    bar[WIDTH] = 0;
    fprintf(stderr, "\r%s [%s] %llu/%llu deals  %.0f games/s", label, bar,
            (unsigned long long)done, (unsigned long long)total,
            secs > 0 ? 2.0 * (double)done / secs : 0.0);
    fflush(stderr);
}

/* Plays a match on threads workers: 0, or 1 (message printed). */
static int run_match(Match *m, int threads, int show, const char *label, double *secs)
{
    pthread_t tid[MAX_THREADS];
    int started = 0;
    double t0 = now_seconds();
    atomic_init(&m->next, 0);
    atomic_init(&m->done, 0);
    atomic_init(&m->failed, 0);
    for (; started < threads; started++)
        if (pthread_create(&tid[started], NULL, worker, m) != 0)
            break;
    if (started == 0) {
        say("cannot start a thread");
        return 1;
    }
    if (show) {
        while (atomic_load(&m->done) < m->pairs && !atomic_load(&m->failed)) {
            struct timespec ts = {0, 200 * 1000 * 1000};
            progress(label, atomic_load(&m->done), m->pairs, now_seconds() - t0);
            nanosleep(&ts, NULL);
        }
    }
    for (int i = 0; i < started; i++)
        pthread_join(tid[i], NULL);
    *secs = now_seconds() - t0;
    if (show) {
        progress(label, m->pairs, m->pairs, *secs);
        fputs("\r\033[K", stderr);
    }
    static const char *const why[] = {
        [STOP_MEMORY] = "out of memory",
        [STOP_RECORD] = "a record could not be written (above)",
        [STOP_BOT] = "an external bot could not be started (above)",
        [STOP_SILENT] = "an external bot exited before it answered (above)"};
    int failed = atomic_load(&m->failed);
    if (failed != STOP_NONE) {
        say("the match stopped: %s", why[failed]);
        return 1;
    }
    return 0;
}

/* A string as JSON (escaped). */
static void json_str(const char *s)
{
    json_t *j = json_string(s);
    char *text = j ? json_dumps(j, JSON_ENCODE_ANY) : NULL;
    fputs(text ? text : "null", stdout);
    free(text);
    json_decref(j);
}

/* A JSON number, or null for an infinite Elo. */
static void json_num(double x, const char *fmt)
{
    if (isinf(x) || isnan(x))
        fputs("null", stdout);
    else
        printf(fmt, x > -0.05 && x < 0.05 ? 0.0 : x); /* never -0.0 */
}

static void json_stats(const Stats *s, double secs)
{
    printf("\"pairs\":%llu,\"games\":%llu,\"wins\":%llu,\"draws\":%llu,\"losses\":%llu,"
           "\"score\":%.6f,\"score_ci95\":[",
           (unsigned long long)s->pairs, (unsigned long long)s->games,
           (unsigned long long)s->wins, (unsigned long long)s->draws,
           (unsigned long long)s->losses, s->score);
    json_num(s->score_lo, "%.6f");
    fputc(',', stdout);
    json_num(s->score_hi, "%.6f");
    fputs("],\"elo\":", stdout);
    json_num(s->elo, "%.1f");
    fputs(",\"elo_ci95\":[", stdout);
    json_num(s->elo_lo, "%.1f");
    fputc(',', stdout);
    json_num(s->elo_hi, "%.1f");
    printf("],\"set_margin\":%.4f,\"margin\":%.4f,\"actions_per_game\":%.2f,\"livelocks\":%llu,"
           "\"bad_actions\":[%llu,%llu],\"seconds\":%.3f,\"games_per_second\":%.1f",
           s->set_margin, s->margin, s->actions, (unsigned long long)s->livelocks,
           (unsigned long long)s->bad[0], (unsigned long long)s->bad[1], secs,
           secs > 0 ? (double)s->games / secs : 0.0);
}

static void text_elo(double x)
{
    if (isnan(x))
        printf("-");
    else if (isinf(x))
        printf("%sinf", x > 0 ? "+" : "-");
    else
        printf("%+.0f", x > -0.5 && x < 0.5 ? 0.0 : x); /* never -0 */
}

static void print_stats(const Entrant *a, const Entrant *b, const Stats *s, double secs,
                        int threads)
{
    printf("A = %s  B = %s  %llu deals, %llu games\n", a->text, b->text,
           (unsigned long long)s->pairs, (unsigned long long)s->games);
    printf("A wins %llu  draws %llu  losses %llu  livelocks %llu\n",
           (unsigned long long)s->wins, (unsigned long long)s->draws,
           (unsigned long long)s->losses, (unsigned long long)s->livelocks);
    if (isnan(s->score_lo))
        printf("score %.3f  95%% [-, -] over 1 deal pair (no interval from one)\n", s->score);
    else
        printf("score %.3f  95%% [%.3f, %.3f] over %llu deal pairs\n", s->score, s->score_lo,
               s->score_hi, (unsigned long long)s->pairs);
    printf("elo ");
    text_elo(s->elo);
    printf("  95%% [");
    text_elo(s->elo_lo);
    printf(", ");
    text_elo(s->elo_hi);
    printf("]\n");
    printf("margin %+.2f sets, %+.2f points a game  %.1f actions a game\n", s->set_margin,
           s->margin, s->actions);
    printf("refused actions: A %llu  B %llu\n", (unsigned long long)s->bad[0],
           (unsigned long long)s->bad[1]);
    printf("%.1f games/s  (%.3f s, %d thread%s)\n",
           secs > 0 ? (double)s->games / secs : 0.0, secs, threads, threads == 1 ? "" : "s");
}

static int take_entrant(Entrant *e, const char *arg, const char *opt)
{
    const char *bad = arg;
    int st = entrant_parse(e, arg, &bad);
    if (st == LIT_TOO_LONG && strncmp(arg, "cmd:", 4) == 0) {
        say("%s: too_long: a cmd: entrant of at most %d bytes (the command at most %d)", opt,
            ENTRANT_TEXT_MAX - 1, ENTRANT_TEXT_MAX - 5);
        return -1;
    }
    if (st == LIT_TOO_LONG) {
        say("%s: too_long: at most %d bots of at most %d bytes in all", opt,
            LIT_MAX_PLAYERS / 2, ENTRANT_TEXT_MAX - 1);
        return -1;
    }
    if (st != LIT_OK) {
        say("%s: %s: %s: '%.*s'", opt, lit_status_name(st), lit_status_text(st),
            (int)strcspn(bad, ","), bad);
        return -1;
    }
    return 0;
}

/* The options of `lit arena`. */
typedef struct ArenaArgs {
    RuleArgs ra;
    Entrant ent[MAX_ENTRANTS];
    int n_ent, json, quiet, team_given;
    uint64_t games, seed, threads, move_timeout, start_timeout;
    const char *records;
} ArenaArgs;

/* One option of getopt_long: -1 when taken, else the exit status (0 after
 * --help, 2 with a message). */
static int take_option(ArenaArgs *aa, int opt)
{
    switch (opt) {
    case 'a':
    case 'b':
        if (take_entrant(&aa->ent[opt == 'b'], optarg, opt == 'a' ? "--team-a" : "--team-b"))
            return 2;
        aa->team_given = 1;
        break;
    case 'e':
        if (aa->n_ent == MAX_ENTRANTS) {
            say("--entrant: at most %d entrants", MAX_ENTRANTS);
            return 2;
        }
        if (take_entrant(&aa->ent[aa->n_ent++], optarg, "--entrant"))
            return 2;
        break;
    case 'g':
        if (parse_u64(optarg, &aa->games) || aa->games == 0 || aa->games > 100000000) {
            say("--games: not a number of deals from 1 to 100000000: '%s'", optarg);
            return 2;
        }
        break;
    case 't':
        if (parse_u64(optarg, &aa->threads) || aa->threads == 0 || aa->threads > MAX_THREADS) {
            say("--threads: not a number from 1 to %d: '%s'", MAX_THREADS, optarg);
            return 2;
        }
        break;
    case 's':
        if (parse_u64(optarg, &aa->seed)) {
            say("--seed: not a number: '%s'", optarg);
            return 2;
        }
        break;
    case 'R':
        aa->records = optarg;
        break;
    case 'U':
        if (parse_u64(optarg, &aa->start_timeout) || aa->start_timeout > 600000) {
            say("--start-timeout: not a number of milliseconds up to 600000: '%s'", optarg);
            return 2;
        }
        break;
    case 'T':
        if (parse_u64(optarg, &aa->move_timeout) || aa->move_timeout == 0 ||
            aa->move_timeout > 600000) {
            say("--move-timeout: not a number of milliseconds from 1 to 600000: '%s'", optarg);
            return 2;
        }
        break;
    case 'j':
        aa->json = 1;
        break;
    case 'q':
        aa->quiet = 1;
        break;
    default: /* --help, or an option not known */
        return help_or_usage(usage, opt);
    }
    return -1;
}

/* The options, with the entrants' defaults (basic against random): -1
 * when all are taken and go together, else the exit status. */
static int take_options(ArenaArgs *aa, int argc, char **argv)
{
    static const struct option longs[] = {
        RULE_LONG_OPTIONS,
        {"team-a", required_argument, NULL, 'a'},
        {"team-b", required_argument, NULL, 'b'},
        {"entrant", required_argument, NULL, 'e'},
        {"games", required_argument, NULL, 'g'},
        {"threads", required_argument, NULL, 't'},
        {"seed", required_argument, NULL, 's'},
        {"records", required_argument, NULL, 'R'},
        {"json", no_argument, NULL, 'j'},
        {"quiet", no_argument, NULL, 'q'},
        {"move-timeout", required_argument, NULL, 'T'},
        {"start-timeout", required_argument, NULL, 'U'},
        {"help", no_argument, NULL, OPT_HELP},
        {NULL, 0, NULL, 0}};
    int opt;
    if (take_entrant(&aa->ent[0], "basic", "--team-a") ||
        take_entrant(&aa->ent[1], "random", "--team-b"))
        return 1;
    while ((opt = getopt_long(argc, argv, "", longs, NULL)) != -1) {
        int took = rule_args_take(&aa->ra, opt, optarg);
        if (took < 0)
            return 2;
        if (took)
            continue;
        int rc = take_option(aa, opt);
        if (rc >= 0)
            return rc;
    }
    if (no_operands("arena", argc, argv))
        return 2;
    if (aa->n_ent == 1) {
        say("--entrant: a round robin needs two entrants or more");
        return 2;
    }
    if (aa->n_ent && aa->team_given) {
        say("--entrant and --team-a/--team-b do not go together");
        return 2;
    }
    return -1;
}

/* A round robin's records of the pairing of entrants i and j (0-based): a
 * folder a pairing, DIR/I-J by the entrants' places on the command line.
 * 0, or 1 (message printed). */
static int pairing_folder(const ArenaArgs *aa, int i, int j, char folder[4096])
{
    int n = snprintf(folder, 4096, "%s/%d-%d", aa->records, i + 1, j + 1);
    if (n < 0 || n >= 4096) {
        say("--records: the folder name is too long");
        return 1;
    }
    return 0;
}

/* Plays every pairing of the first n_ent entrants (a round robin's records
 * in a folder a pairing, every folder made before the first game), its
 * figures into stats[k] and its seconds into secs[k]: 0, or 1 (message
 * printed) at the first match that fails. */
static int play_pairings(const ArenaArgs *aa, const LitRules *rules, int n_ent, int show,
                         GameOutcome *out, Stats *stats, double *secs)
{
    int k = 0, rc = 0, round_robin = aa->n_ent >= 2;
    char folder[4096];
    for (int i = 0; i < n_ent && aa->records && round_robin; i++)
        for (int j = i + 1; j < n_ent; j++)
            if (pairing_folder(aa, i, j, folder) || make_folder(folder))
                return 1;
    for (int i = 0; i < n_ent && rc == 0; i++)
        for (int j = i + 1; j < n_ent && rc == 0; j++, k++) {
            const char *records = aa->records;
            if (records && round_robin) {
                pairing_folder(aa, i, j, folder);
                records = folder;
            }
            Match m = {.rules = rules, .seed = aa->seed, .pairs = aa->games, .a = &aa->ent[i],
                       .b = &aa->ent[j], .records = records,
                       .move_timeout = (int)aa->move_timeout,
                       .start_timeout = (int)aa->start_timeout, .out = out};
            char label[2 * ENTRANT_TEXT_MAX + 8];
            snprintf(label, sizeof label, "%s v %s", aa->ent[i].text, aa->ent[j].text);
            rc = run_match(&m, (int)aa->threads, show, label, &secs[k]);
            if (rc == 0)
                arena_stats(out, aa->games, &stats[k]);
        }
    return rc;
}

/* The report of a match of two entrants: one JSON object, or text. */
static void report_match(const ArenaArgs *aa, const char *rules_text, const Stats *stats,
                         const double *secs)
{
    if (aa->json) {
        fputs("{\"team_a\":", stdout);
        json_str(aa->ent[0].text);
        fputs(",\"team_b\":", stdout);
        json_str(aa->ent[1].text);
        printf(",\"rules\":\"%s\",\"seed\":%llu,", rules_text, (unsigned long long)aa->seed);
        json_stats(&stats[0], secs[0]);
        printf(",\"threads\":%llu}\n", (unsigned long long)aa->threads);
    } else {
        printf("arena: rules %s  seed %llu\n", rules_text, (unsigned long long)aa->seed);
        print_stats(&aa->ent[0], &aa->ent[1], &stats[0], secs[0], (int)aa->threads);
    }
}

/* A round robin as one JSON object: each entrant's total, each pairing's
 * figures. */
static void json_round_robin(const ArenaArgs *aa, const char *rules_text,
                             const double *total, const Stats *stats, const double *secs)
{
    int n_ent = aa->n_ent, k = 0;
    printf("{\"rules\":\"%s\",\"seed\":%llu,\"entrants\":[", rules_text,
           (unsigned long long)aa->seed);
    for (int i = 0; i < n_ent; i++) {
        printf("%s{\"name\":", i ? "," : "");
        json_str(aa->ent[i].text);
        printf(",\"score\":%.6f}", total[i]);
    }
    fputs("],\"pairings\":[", stdout);
    for (int i = 0; i < n_ent; i++)
        for (int j = i + 1; j < n_ent; j++, k++) {
            printf("%s{\"team_a\":", k ? "," : "");
            json_str(aa->ent[i].text);
            fputs(",\"team_b\":", stdout);
            json_str(aa->ent[j].text);
            putchar(',');
            json_stats(&stats[k], secs[k]);
            putchar('}');
        }
    printf("],\"threads\":%llu}\n", (unsigned long long)aa->threads);
}

/* A round robin as text: the table of scores, row against column, each
 * entrant's total, and the livelocks of every pairing. */
static void text_round_robin(const ArenaArgs *aa, const char *rules_text,
                             double cell[MAX_ENTRANTS][MAX_ENTRANTS], const double *total,
                             const Stats *stats)
{
    int n_ent = aa->n_ent, n_pairings = n_ent * (n_ent - 1) / 2;
    printf("round robin: rules %s  seed %llu  %llu deals a pairing\n\n", rules_text,
           (unsigned long long)aa->seed, (unsigned long long)aa->games);
    /* entrants by number, as --records' folders DIR/I-J are: two cmd:
     * entrants cut to a column's width would read alike */
    printf("%-27s", "");
    for (int j = 0; j < n_ent; j++)
        printf(" %8d", j + 1);
    printf(" %8s\n", "total");
    int cut = 0;
    for (int i = 0; i < n_ent; i++) {
        cut |= strlen(aa->ent[i].text) > 24;
        printf("%2d %-24.24s", i + 1, aa->ent[i].text);
        for (int j = 0; j < n_ent; j++) {
            if (i == j)
                printf(" %8s", "-");
            else
                printf(" %8.3f", cell[i][j]);
        }
        printf(" %8.3f\n", total[i]);
    }
    printf("\n(the score of the row's entrant against the column's)\n");
    for (int i = 0; cut && i < n_ent; i++)
        printf("%2d %s\n", i + 1, aa->ent[i].text);
    uint64_t livelocks = 0;
    for (int i = 0; i < n_pairings; i++)
        livelocks += stats[i].livelocks;
    printf("livelocks %llu\n", (unsigned long long)livelocks);
}

/* The report of a round robin: the score of every pairing both ways and
 * each entrant's total, as JSON or text. */
static void report_round_robin(const ArenaArgs *aa, const char *rules_text,
                               const Stats *stats, const double *secs)
{
    int n_ent = aa->n_ent, k = 0;
    /* An entrant's total: its mean score over its pairings. */
    double total[MAX_ENTRANTS] = {0};
    double cell[MAX_ENTRANTS][MAX_ENTRANTS];
    for (int i = 0; i < n_ent; i++)
        for (int j = i + 1; j < n_ent; j++, k++) {
            cell[i][j] = stats[k].score;
            cell[j][i] = 1.0 - stats[k].score;
            total[i] += cell[i][j] / (n_ent - 1);
            total[j] += cell[j][i] / (n_ent - 1);
        }
    if (aa->json)
        json_round_robin(aa, rules_text, total, stats, secs);
    else
        text_round_robin(aa, rules_text, cell, total, stats);
}

int cmd_arena(int argc, char **argv)
{
    ArenaArgs aa;
    memset(&aa, 0, sizeof aa);
    aa.games = 100;
    aa.seed = 1;
    aa.threads = 1;
    aa.move_timeout = 5000;
    aa.start_timeout = EXTBOT_START_MS;
    int rc = take_options(&aa, argc, argv);
    if (rc >= 0)
        return rc;
    LitRules rules;
    if (rule_args_build(&aa.ra, &rules))
        return 2;
    char rules_text[LIT_RULES_TEXT_MAX];
    lit_rules_format(&rules, rules_text, sizeof rules_text);
    if (aa.records && make_folder(aa.records))
        return 1;
    int round_robin = aa.n_ent >= 2;
    int n_ent = round_robin ? aa.n_ent : 2;
    int show = !aa.quiet && isatty(2);
    /* A bot process that exits must not take the arena with it; one that
     * is running when the arena is stopped (Ctrl-C, SIGTERM) goes with it. */
    signal(SIGPIPE, SIG_IGN);
    /* the bots' process groups are killed (they are their own groups, which
     * a terminal's Ctrl-C does not reach), and a record being written
     * removed: records written are whole, and nothing else is left */
    stop_on_signals(extbot_kill_all);

    int n_pairings = n_ent * (n_ent - 1) / 2;
    GameOutcome *out = malloc(sizeof *out * 2 * aa.games);
    Stats *stats = malloc(sizeof *stats * (size_t)n_pairings);
    double *secs = malloc(sizeof *secs * (size_t)n_pairings);
    if (!out || !stats || !secs) {
        say("out of memory");
        free(out);
        free(stats);
        free(secs);
        return 1;
    }
    rc = play_pairings(&aa, &rules, n_ent, show, out, stats, secs);
    if (rc == 0 && !round_robin)
        report_match(&aa, rules_text, stats, secs);
    else if (rc == 0)
        report_round_robin(&aa, rules_text, stats, secs);
    free(out);
    free(stats);
    free(secs);
    return rc;
}
