/* bench_odds.c - `lit bench --odds` and `--sample`: the speed of exact
 * counting, of the estimates beyond the budget, of the exact feasibility
 * check and of exact sampling, at every position of self-played games or
 * of a corpus of records. */
#include "bench_odds.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "helper.h"
#include "literature/infer.h"
#include "literature/status.h"
#include "selfplay.h"
#include "../mem/mem.h"

enum { DRAWS = 200, MAX_FILES = 1 << 17, SLOWEST_MAX = 100 };

/* One of the slowest positions: where it is, to look at it again (a
 * record's path, or a self-played game's index), and its time in its
 * bucket. */
typedef struct Slow {
    double ms;
    int players;
    uint32_t after;
    long game;      /* the self-played game, or -1 for a record */
    size_t index;   /* in its bucket's exact_ms */
    char where[256];
} Slow;

/* What one player count measured. */
typedef struct Bucket {
    double *exact_ms, *estimate_ms, *se, *feasible_ms;
    size_t exact, beyond, cap;
    Slow beyond_worst; /* lit_odds' longest at a position beyond its budget */
    double draw_seconds, init_seconds;
    long draws, samplers;
    /* --coverage: the estimate's probabilities at exact positions, each
     * against the exact one in its own standard errors (|z|) */
    long figures, within[5]; /* |z| at most 1, 1.96, 2, 2.023, 3 */
    long covered;            /* positions */
    long sure_wrong;         /* a standard error of 0 on a wrong estimate */
    double worst_z;          /* of the others */
} Bucket;

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static int grow(Bucket *b)
{
    if (b->exact + b->beyond < b->cap)
        return 0;
    size_t cap = b->cap ? 2 * b->cap : 4096;
    double *e = realloc(b->exact_ms, sizeof *e * cap);
    if (e)
        b->exact_ms = e;
    double *m = realloc(b->estimate_ms, sizeof *m * cap);
    if (m)
        b->estimate_ms = m;
    double *s = realloc(b->se, sizeof *s * cap);
    if (s)
        b->se = s;
    double *f = realloc(b->feasible_ms, sizeof *f * cap);
    if (f)
        b->feasible_ms = f;
    if (!e || !m || !s || !f) {
        say("out of memory");
        return -1;
    }
    b->cap = cap;
    return 0;
}

typedef struct Run {
    const OddsBench *ob;
    void *work;
    Helper *helper; /* lent to every count (NULL: one thread) */
    LitOdds *odds;
    Bucket bucket[LIT_MAX_PLAYERS + 1];
    Slow slow[SLOWEST_MAX]; /* the slowest first: ob->slowest are listed, */
                            /* SLOWEST_MAX kept to be timed again */
    int n_slow;
} Run;

/* Keeps the position among the SLOWEST_MAX slowest (with --slowest): the
 * first ob->slowest are listed, all of them timed again (retime_slowest). */
static void note_slow(Run *run, double ms, int players, uint32_t after, long game,
                      const char *where)
{
    int keep = run->ob->slowest ? SLOWEST_MAX : 0, at = run->n_slow;
    while (at > 0 && run->slow[at - 1].ms < ms)
        at--;
    if (at >= keep)
        return;
    int last = run->n_slow < keep ? run->n_slow : keep - 1;
    memmove(&run->slow[at + 1], &run->slow[at], sizeof run->slow[0] * (size_t)(last - at));
    Slow *s = &run->slow[at];
    s->ms = ms;
    s->players = players;
    s->after = after;
    s->game = game;
    s->index = run->bucket[players].exact - 1;
    snprintf(s->where, sizeof s->where, "%s", where);
    if (run->n_slow < keep)
        run->n_slow++;
}

/* Where s is, as the record and the lit infer options that show it again,
 * and the line's end. */
static void print_where(const Slow *s, int public_view)
{
    printf("%s --after %u%s\n", s->where, (unsigned)s->after,
           public_view ? " --public" : " --seat 1");
}

/* The view of one position, from seat 1 or in public: 0, or -1 when the
 * game's events do not apply. */
static int view_at(const OddsBench *ob, const LitGame *start, const LitEvent *events,
                   uint32_t after, LitKnow *k)
{
    int seat = ob->public_view ? LIT_NOBODY : 0;
    if (lit_know_start(k, &start->pub.rules, start->pub.dealer, seat,
                       ob->public_view ? 0 : start->hands[0]) != LIT_OK)
        return -1;
    for (uint32_t e = 0; e < after; e++)
        if (lit_know_apply(k, &events[e]) != LIT_OK)
            return -1;
    return 0;
}

/* The fastest of ob->repeat countings of k, in ms. */
static double time_odds(Run *run, const LitKnow *k)
{
    double ms = 0;
    for (int r = 0; r < (run->ob->repeat > 1 ? run->ob->repeat : 1); r++) {
        double t0 = now_seconds();
        lit_odds_helped(k, run->work, LIT_ODDS_WORK, helper_lent(run->helper), run->odds);
        double once = (now_seconds() - t0) * 1e3;
        ms = r == 0 || once < ms ? once : ms;
    }
    return ms;
}

/* --coverage at an exact position: the estimate of ob->samples draws
 * beside the exact odds (in run->odds), every probability strictly between
 * 0 and 1 as |estimate - exact| over its standard error. 0, or -1 with a
 * message. */
static int cover(Run *run, Bucket *b, const LitKnow *k, LitRng *rng)
{
    /* 2.023: Student's t with 39 degrees of freedom at 97.5%, the
     * jackknife over 40 batches' own 95% bound (LIT_ESTIMATE_BATCHES) */
    static const double bounds[5] = {1.0, 1.96, 2.0, 2.023, 3.0};
    LitOdds *est = malloc(sizeof *est);
    if (!est) {
        say("out of memory");
        return -1;
    }
    /* the counting's workspace is free again once its figures are kept */
    int st = lit_odds_estimate(k, rng, run->ob->samples, run->work, LIT_ODDS_WORK, est);
    if (st != LIT_OK) {
        say("bench: the estimate: %s: %s", lit_status_name(st), lit_status_text(st));
        free(est);
        return -1;
    }
    const LitOdds *exact = run->odds;
    int players = k->pub.rules.players;
    for (int c = 0; c < lit_deck_cards(k->pub.rules.deck); c++)
        for (int s = 0; s < players; s++) {
            double p = exact->p[c][s];
            if (p <= 0 || p >= 1)
                continue;
            double d = est->p[c][s] - p, se = est->p_se[c][s];
            b->figures++;
            if (se < 1e-12) { /* every batch agreed: within only if right */
                b->sure_wrong += d < -1e-12 || d > 1e-12;
                for (int i = 0; i < 5; i++)
                    b->within[i] += d >= -1e-12 && d <= 1e-12;
                continue;
            }
            double z = (d < 0 ? -d : d) / se;
            for (int i = 0; i < 5; i++)
                b->within[i] += z <= bounds[i];
            if (z > b->worst_z)
                b->worst_z = z;
        }
    b->covered++;
    free(est);
    return 0;
}

/* Every position of one game, from seat 1 or in public; game and where
 * name it (for --slowest). */
static int measure_game(Run *run, const LitGame *start, const LitEvent *events, uint32_t n,
                        long game, const char *where)
{
    const OddsBench *ob = run->ob;
    Bucket *b = &run->bucket[start->pub.rules.players];
    if (ob->only && start->pub.rules.players != ob->only)
        return 0;
    LitKnow k;
    LitRng rng;
    lit_rng_seed(&rng, 1);
    /* a game the counting cannot follow is no position skipped: the table
     * would read as a measurement of the rest */
    if (view_at(ob, start, events, 0, &k)) {
        say("bench: %s: the deduction cannot take this game's deal", where);
        return -1;
    }
    for (uint32_t e = 0; e <= n; e++) {
        if (e > 0 && lit_know_apply(&k, &events[e - 1]) != LIT_OK) {
            say("bench: %s --after %u: the deduction cannot take this action", where,
                (unsigned)e);
            return -1;
        }
        if (k.pub.result != LIT_ONGOING)
            break;
        if (grow(b))
            return -1;
        /* the exact feasibility check, which a game's own position passes */
        double f0 = now_seconds();
        int fits = lit_know_feasible(&k);
        b->feasible_ms[b->exact + b->beyond] = (now_seconds() - f0) * 1e3;
        if (!fits) {
            say("bench: %s --after %u: lit_know_feasible finds no deal for a position of the "
                "game",
                where, (unsigned)e);
            return -1;
        }
        /* the fastest of ob->repeat runs: what the position costs, less
         * the machine's pauses */
        double ms = time_odds(run, &k);
        if (run->odds->exact) {
            b->exact_ms[b->exact++] = ms;
            note_slow(run, ms, start->pub.rules.players, e, game, where);
            if (ob->cover && cover(run, b, &k, &rng) != 0)
                return -1;
            if (ob->sample) {
                LitSampler *sp;
                double t0 = now_seconds();
                if (lit_sampler_init(&sp, &k, run->work, LIT_ODDS_WORK) != LIT_OK)
                    continue;
                double t1 = now_seconds();
                uint64_t hands[LIT_MAX_PLAYERS];
                for (int d = 0; d < DRAWS; d++)
                    lit_sampler_draw(sp, &rng, hands);
                b->init_seconds += t1 - t0;
                b->draw_seconds += now_seconds() - t1;
                b->draws += DRAWS;
                b->samplers++;
            }
            continue;
        }
        if (ms > b->beyond_worst.ms) {
            b->beyond_worst.ms = ms;
            b->beyond_worst.after = e;
            snprintf(b->beyond_worst.where, sizeof b->beyond_worst.where, "%s", where);
        }
        double t0 = now_seconds();
        int st = lit_odds_estimate(&k, &rng, ob->samples, run->work, LIT_ODDS_WORK, run->odds);
        if (st != LIT_OK) {
            say("bench: the estimate: %s: %s", lit_status_name(st), lit_status_text(st));
            return -1;
        }
        b->estimate_ms[b->beyond] = (now_seconds() - t0) * 1e3;
        b->se[b->beyond++] = largest_se(&k, run->odds);
    }
    return 0;
}

/* The record in path, with its deal, replayed: the deal in start, the
 * events as applied and their count in len; 0, or -1 with a message. */
static int replay_record(const char *path, LitGame *start, LitEvent *applied, uint32_t *len)
{
    Loaded in;
    LitReplay rp;
    int st, rc = 0;
    if (record_load(path, &in)) { /* (it says why) */
        record_free(&in);
        return -1;
    }
    if ((st = lit_replay_start(&rp, &in.rec)) != LIT_OK) {
        fail_at(path, in.rec.deal_line ? in.rec.deal_line : 1, st);
        rc = -1;
    } else if (!rp.known) {
        say("%s: not a record with its deal", path);
        rc = -1;
    } else if (deal_as_dealt(path, &in.rec, &rp.game)) { /* (it says why) */
        rc = -1;
    }
    if (rc == 0)
        *start = rp.game;
    for (*len = 0; rc == 0 && *len < in.rec.n_events; ++*len)
        if ((st = lit_replay_step(&rp, &in.rec.events[*len], &applied[*len])) != LIT_OK) {
            fail_at(path, in.lines[*len], st);
            rc = -1;
        }
    record_free(&in);
    return rc;
}

/* The SLOWEST_MAX slowest positions timed again after the pass (so the
 * ones listed are the slowest after it), in ob->repeat rounds
 * (each the fastest of ob->repeat countings), one position after the
 * other within a round: a pause of the machine then slows one round of a
 * position, not every run of it. Each keeps its fastest; 0, or -1. */
static int retime_slowest(Run *run, LitEvent *applied, LitLog *log)
{
    const OddsBench *ob = run->ob;
    for (int round = 0; round < ob->repeat; round++)
        for (int i = 0; i < run->n_slow; i++) {
            Slow *s = &run->slow[i];
            LitGame start;
            const LitEvent *events = applied;
            uint32_t len = 0;
            if (s->game < 0) {
                if (replay_record(s->where, &start, applied, &len))
                    return -1;
            } else {
                LitRules rules;
                lit_rules_default(&rules);
                rules.players = (uint8_t)s->players;
                selfplay_game(&rules, 1, (uint64_t)s->game, &start, NULL, log);
                events = log->events;
                len = log->len;
            }
            LitKnow k;
            if (s->after > len || view_at(ob, &start, events, s->after, &k)) {
                say("bench: %s --after %u: the position is not there again", s->where,
                    (unsigned)s->after);
                return -1;
            }
            double ms = time_odds(run, &k);
            if (ms < s->ms) {
                s->ms = ms;
                run->bucket[s->players].exact_ms[s->index] = ms;
            }
        }
    for (int a = 1; a < run->n_slow; a++) /* the slowest first again */
        for (int b = a; b > 0 && run->slow[b].ms > run->slow[b - 1].ms; b--) {
            Slow t = run->slow[b];
            run->slow[b] = run->slow[b - 1];
            run->slow[b - 1] = t;
        }
    return 0;
}

/* The *.lit files of dir (or the one file dir when it names a .lit file),
 * sorted, replayed: 0, or -1 with a message. */
static int measure_corpus(Run *run, const char *dir, LitEvent *applied)
{
    char **names = NULL;
    size_t n = 0, cap = 0, dl = strlen(dir);
    int rc = 0;
    DIR *d = NULL;
    if (dl > 4 && strcmp(dir + dl - 4, ".lit") == 0) {
        names = malloc(sizeof *names);
        if (!names || (names[0] = malloc(dl + 1)) == NULL) {
            free(names);
            say("out of memory");
            return -1;
        }
        memcpy(names[0], dir, dl + 1);
        n = 1;
    } else if ((d = opendir(dir)) == NULL) {
        say("%s: cannot open the folder", dir);
        return -1;
    }
    struct dirent *ent;
    while (d && (ent = readdir(d)) != NULL) {
        size_t len = strlen(ent->d_name);
        if (len < 5 || strcmp(ent->d_name + len - 4, ".lit") != 0)
            continue;
        if (n == cap) {
            cap = cap ? 2 * cap : 256;
            char **more = cap <= MAX_FILES ? realloc(names, sizeof *names * cap) : NULL;
            if (!more) {
                say("%s: too many files or out of memory", dir);
                rc = -1;
                break;
            }
            names = more;
        }
        if ((names[n] = malloc(strlen(dir) + len + 2)) == NULL) {
            say("out of memory");
            rc = -1;
            break;
        }
        sprintf(names[n++], "%s/%s", dir, ent->d_name);
    }
    if (d)
        closedir(d);
    if (rc == 0 && n == 0) { /* an empty table would read as a measurement */
        say("%s: no record (*.lit) in the folder", dir);
        rc = -1;
    }
    if (rc == 0 && n)
        qsort(names, n, sizeof *names, by_name);
    size_t use = run->ob->games && run->ob->games < n ? (size_t)run->ob->games : n;
    for (size_t i = 0; rc == 0 && i < use; i++) {
        LitGame start;
        uint32_t len;
        rc = replay_record(names[i], &start, applied, &len);
        if (rc == 0)
            rc = measure_game(run, &start, applied, len, -1, names[i]);
    }
    for (size_t i = 0; i < n; i++)
        free(names[i]);
    free(names);
    return rc;
}

static void report(Run *run)
{
    const OddsBench *ob = run->ob;
    printf("players  positions  exact  median_ms  p90_ms  worst_ms  beyond  est_median_ms  "
           "est_max_se_median%s\n",
           ob->sample ? "  draws_per_s  sampler_init_ms" : "");
    for (int p = 4; p <= LIT_MAX_PLAYERS; p += 2) {
        Bucket *b = &run->bucket[p];
        size_t all = b->exact + b->beyond;
        if (!all)
            continue;
        printf("%7d  %9zu  %5zu", p, all, b->exact);
        if (b->exact) {
            qsort(b->exact_ms, b->exact, sizeof *b->exact_ms, by_value);
            printf("  %9.3f  %6.3f  %8.1f", b->exact_ms[b->exact / 2],
                   b->exact_ms[b->exact * 9 / 10], b->exact_ms[b->exact - 1]);
        } else {
            printf("  %9s  %6s  %8s", "-", "-", "-");
        }
        printf("  %6zu", b->beyond);
        if (b->beyond) {
            qsort(b->estimate_ms, b->beyond, sizeof *b->estimate_ms, by_value);
            qsort(b->se, b->beyond, sizeof *b->se, by_value);
            printf("  %13.2f  %17.4f", b->estimate_ms[b->beyond / 2], b->se[b->beyond / 2]);
        } else {
            printf("  %13s  %17s", "-", "-");
        }
        if (ob->sample && b->draws)
            printf("  %11.0f  %15.3f", (double)b->draws / b->draw_seconds,
                   b->init_seconds * 1e3 / (double)b->samplers);
        printf("\n");
    }
    printf("feasible: players  positions  median_ms  p90_ms  worst_ms\n");
    for (int p = 4; p <= LIT_MAX_PLAYERS; p += 2) {
        Bucket *b = &run->bucket[p];
        size_t all = b->exact + b->beyond;
        if (!all)
            continue;
        qsort(b->feasible_ms, all, sizeof *b->feasible_ms, by_value);
        printf("feasible: %7d  %9zu  %9.3f  %6.3f  %8.3f\n", p, all, b->feasible_ms[all / 2],
               b->feasible_ms[all * 9 / 10], b->feasible_ms[all - 1]);
    }
    printf("threads: %d\n", run->helper ? 2 : 1);
    /* the counting's time before it stopped at its budget (the estimate's
     * comes after it) */
    int beyond = 0;
    for (int p = 4; p <= LIT_MAX_PLAYERS; p += 2) {
        const Bucket *b = &run->bucket[p];
        if (!b->beyond)
            continue;
        if (!beyond++)
            printf("beyond: players  positions  worst_ms  where\n");
        printf("beyond: %7d  %9zu  %8.1f  ", p, b->beyond, b->beyond_worst.ms);
        print_where(&b->beyond_worst, ob->public_view);
    }
    if (ob->cover) {
        printf("coverage: players  positions  figures  within_1se  within_1.96se  within_2se  "
               "within_2.023se  within_3se  worst_z  se_0_wrong\n");
        for (int p = 4; p <= LIT_MAX_PLAYERS; p += 2) {
            const Bucket *b = &run->bucket[p];
            if (!b->figures)
                continue;
            double n = (double)b->figures;
            printf("coverage: %7d  %9ld  %7ld  %10.4f  %13.4f  %10.4f  %14.4f  %10.4f  %7.2f  "
                   "%10ld\n",
                   p, b->covered, b->figures, (double)b->within[0] / n,
                   (double)b->within[1] / n, (double)b->within[2] / n,
                   (double)b->within[3] / n, (double)b->within[4] / n, b->worst_z,
                   b->sure_wrong);
        }
    }
    /* The slowest exact positions, each with what shows it again. */
    for (int i = 0; i < run->n_slow && i < ob->slowest; i++) {
        const Slow *s = &run->slow[i];
        printf("slow: %.1f ms  %d players  ", s->ms, s->players);
        print_where(s, ob->public_view);
    }
}

int bench_odds(const OddsBench *ob)
{
    Run run;
    memset(&run, 0, sizeof run);
    run.ob = ob;
    run.work = mem_alloc_work(LIT_ODDS_WORK);
    run.odds = malloc(sizeof *run.odds);
    run.helper = helper_new(ob->threads);
    LitEvent *applied = malloc(sizeof *applied * LIT_RECORD_MAX_EVENTS);
    LitLog log;
    int rc = 0;
    if (!run.work || !run.odds || !applied || log_new(&log)) {
        say("out of memory");
        free(run.work);
        free(run.odds);
        free(applied);
        helper_free(run.helper);
        return 1;
    }
    if (ob->n_corpus) {
        /* (games: the first N records of each folder, when given) */
        for (int i = 0; i < ob->n_corpus && rc == 0; i++)
            rc = measure_corpus(&run, ob->corpus[i], applied);
    } else {
        for (int players = 4; players <= 8 && rc == 0; players += 2) {
            if (ob->only && players != ob->only)
                continue;
            LitRules rules;
            lit_rules_default(&rules);
            rules.players = (uint8_t)players;
            for (uint64_t i = 0; i < ob->games && rc == 0; i++) {
                LitGame start;
                selfplay_game(&rules, 1, i, &start, NULL, &log);
                char where[64];
                snprintf(where, sizeof where, "self-played game %llu", (unsigned long long)i);
                rc = measure_game(&run, &start, log.events, log.len, (long)i, where);
            }
        }
    }
    if (rc == 0 && ob->repeat > 1)
        rc = retime_slowest(&run, applied, &log);
    if (rc == 0)
        report(&run);
    for (int p = 0; p <= LIT_MAX_PLAYERS; p++) {
        free(run.bucket[p].exact_ms);
        free(run.bucket[p].estimate_ms);
        free(run.bucket[p].se);
        free(run.bucket[p].feasible_ms);
    }
    free(log.events);
    free(run.work);
    free(run.odds);
    free(applied);
    helper_free(run.helper);
    return rc ? 1 : 0;
}
