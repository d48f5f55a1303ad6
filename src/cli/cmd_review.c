/* cmd_review.c - `lit review`: every decision of one seat in a record,
 * judged from that seat's view against the master bot (docs/REVIEW.md). The
 * figures come from lit_review (src/bot/review.c); this file reads the
 * record, checks it, and prints. */
#include <getopt.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cmds.h"
#include "common.h"
#include "../wire/review_json.h"
#include "literature/notation.h"
#include "literature/review.h"
#include "literature/status.h"

static const char usage[] =
    "usage: lit review FILE --seat N [--json] [--budget N] [--seed S]\n"
    "                  [--samples N]\n"
    "\n"
    "Reviews every decision of seat N in a record (docs/NOTATION.md): for each\n"
    "of its asks, claims, passes and choices, the chance it had to succeed from\n"
    "the seat's own view at that moment (its hand and the public history, never\n"
    "the other hands: an ask's chance to hit, a claim's chance that every card\n"
    "is where it names it), what the master bot would have done from the same\n"
    "view and its chance, the expected cost of the difference and a grade\n"
    "(best, good, inaccuracy, mistake); then a summary. A chance marked ~ is an\n"
    "estimate by sampling (10 and 12 players, beyond the exact count's budget).\n"
    "Definitions and the JSON keys: docs/REVIEW.md.\n"
    "\n"
    "  --seat N     the seat to review, 1..players (the record needs its deal)\n"
    "  --json       one JSON object: seat, rules, bot, seed, decisions, summary\n"
    "  --budget N   master's rollouts per decision, 0 to 100000 (default 64,\n"
    "               its own default)\n"
    "  --seed S     seed of master's draws and of the estimates, 0 to\n"
    "               9223372036854775807 (default 1)\n"
    "  --samples N  draws for an estimate, 80 to 200000 (default 20000)\n"
    "  --help       this text\n";

/* A chance as text: "0.620", "~0.620" for an estimate, "-" for none;
 * "0.000" and "1.000" only for 0 and 1 themselves, "<0.001" and ">0.999"
 * for what is near them. */
static void format_chance(const LitJudged *j, char *buf, size_t cap)
{
    const char *mark = j->estimated ? "~" : "";
    if (j->chance < 0)
        snprintf(buf, cap, "-");
    else if (j->chance > 0 && j->chance < 0.0005)
        snprintf(buf, cap, "%s<0.001", mark);
    else if (j->chance < 1 && j->chance >= 0.9995)
        snprintf(buf, cap, "%s>0.999", mark);
    else
        snprintf(buf, cap, "%s%.3f", mark, j->chance);
}

static void print_decision(const LitRules *r, const LitDecision *d)
{
    char done[LIT_LINE_MAX], best[LIT_LINE_MAX], p[16], q[16];
    if (lit_event_format(r, &d->event, (int)d->n, done, sizeof done) < 0)
        snprintf(done, sizeof done, "%u. ?", d->n);
    format_chance(&d->done, p, sizeof p);
    if (d->same) {
        printf("%s  %s  | %s: the same  | cost 0 %s\n", done, p, lit_bot_kind_name(LIT_BOT_BEST),
               lit_grade_name(d->grade));
        return;
    }
    if (d->best.action.kind == LIT_REVIEW_WAIT) {
        snprintf(best, sizeof best, "waits (claims only on its turn)");
    } else {
        LitEvent e;
        memset(&e, 0, sizeof e);
        e.action = d->best.action;
        if (lit_event_format(r, &e, 0, best, sizeof best) < 0)
            snprintf(best, sizeof best, "?");
    }
    format_chance(&d->best, q, sizeof q);
    /* the cost against a surer ask than master's action is worth */
    char surer[48] = "";
    if (d->surest_ask > d->best.value) {
        LitJudged ask = d->done;
        ask.chance = d->surest_ask;
        char s[16];
        format_chance(&ask, s, sizeof s);
        snprintf(surer, sizeof surer, "  | an ask %s on offer", s);
    }
    /* cut, not rounded: 0.0998 is 0.099, as its grade (below 0.10) says */
    printf("%s  %s  | %s: %s  %s%s  | cost %.3f %s\n", done, p, lit_bot_kind_name(LIT_BOT_BEST),
           best, q, surer, floor(d->cost * 1000) / 1000, lit_grade_name(d->grade));
}

static void print_summary(const LitRules *r, int seat, const LitReviewSummary *s)
{
    printf("\nsummary for seat %d\n", seat);
    printf("  decisions %u: asks %u, claims %u, passes %u, choices %u\n", s->decisions, s->asks,
           s->claims, s->passes, s->choices);
    if (s->stand_ins)
        printf("  not graded: %u action%s the seat's player did not choose (marked in the "
               "record: a stand-in's or a fallback)\n",
               s->stand_ins, s->stand_ins == 1 ? "" : "s");
    if (s->asks)
        printf("  asks: hit rate %.3f (%u of %u); their chances promised %.3f; the best ask\n"
               "    available had %.3f on average\n",
               (double)s->hits / s->asks, s->hits, s->asks, s->expected_hits / s->asks,
               s->best_hits / s->asks);
    if (s->claims)
        printf("  claims: won %u, wrong %u\n", s->claims_won, s->misclaims);
    printf("  grades against %s: best %u, good %u, inaccuracy %u, mistake %u; total cost %.3f\n",
           lit_bot_kind_name(LIT_BOT_BEST), s->grades[LIT_GRADE_BEST], s->grades[LIT_GRADE_GOOD],
           s->grades[LIT_GRADE_INACCURACY], s->grades[LIT_GRADE_MISTAKE], s->cost);
    if (s->estimated)
        printf("  decisions with estimated figures (~): %u\n", s->estimated);
    printf("  sets an earlier claim would have kept:");
    if (!s->kept_by_claim)
        printf(" none");
    for (int set = 0; set < lit_deck_sets(r->deck); set++)
        if (s->kept_by_claim >> set & 1)
            printf(" %s (sure at %u; at %u seat %d claimed it: %s)", lit_set_name(r->deck, set),
                   s->sure_at[set], s->lost_at[set], s->lost_by[set] + 1,
                   lit_answer_name(s->lost_how[set]));
    printf("\n");
}

/* Prints the review: text or JSON. 0, or 1 when out of memory. */
static int print_review(const LitRules *r, int seat, const LitReviewOptions *opt,
                        const LitDecision *d, uint32_t n, const LitReviewSummary *s, int json,
                        uint32_t actions)
{
    if (json) {
        json_t *j = wire_review(r, seat, opt, d, n, s);
        char *text = j ? json_dumps(j, JSON_COMPACT) : NULL;
        json_decref(j);
        if (!text) {
            say("out of memory");
            return 1;
        }
        puts(text);
        free(text);
        return 0;
    }
    char rules[LIT_RULES_TEXT_MAX], bot[LIT_BOT_TEXT_MAX];
    LitBotSpec spec = {LIT_BOT_BEST, 0, opt->rollouts};
    if (lit_rules_format(r, rules, sizeof rules) < 0 ||
        lit_bot_spec_format(&spec, bot, sizeof bot) < 0)
        return 1;
    printf("seat %d (team %c), a game of %u actions, %s; against %s, seed %llu\n\n", seat + 1,
           "AB"[lit_team_of(seat)], actions, rules, bot, (unsigned long long)opt->seed);
    for (uint32_t i = 0; i < n; i++)
        print_decision(r, &d[i]);
    print_summary(r, seat + 1, s);
    return 0;
}

/* An option's number from lo to hi into *v: 0, or -1 with the message. */
static int number_option(const char *name, const char *arg, uint64_t lo, uint64_t hi, uint64_t *v)
{
    if (parse_u64(arg, v) == 0 && *v >= lo && *v <= hi)
        return 0;
    say("--%s: not a number from %llu to %llu: '%s'", name, (unsigned long long)lo,
        (unsigned long long)hi, arg);
    return -1;
}

/* The record's deal into *start and its events through the referee into
 * applied, for a review of seat (1-based; the game must have it and the deal
 * must be known). 0, or the exit status with a message. */
static int replay_all(const char *file, const Loaded *in, uint64_t seat, LitGame *start,
                      LitEvent *applied)
{
    const LitRecord *rec = &in->rec;
    if (seat > rec->rules.players) {
        say("--seat %llu: the game has %d seats", (unsigned long long)seat, rec->rules.players);
        return 2;
    }
    LitReplay rp;
    int st = lit_replay_start(&rp, rec);
    if (st != LIT_OK) {
        fail_at(file, rec->deal_line ? rec->deal_line : 1, st);
        return 1;
    }
    if (!rp.known) {
        say("%s: the record has no deal: a seat's review needs its hand", file);
        return 2;
    }
    *start = rp.game;
    if (deal_as_dealt(file, rec, start))
        return 1;
    for (uint32_t i = 0; i < rec->n_events; i++) {
        st = lit_replay_step(&rp, &rec->events[i], &applied[i]);
        if (st != LIT_OK) {
            fail_at(file, in->lines[i], st);
            return 1;
        }
    }
    uint32_t line = 0; /* a Result or Score the moves do not give: as lit replay says */
    if ((st = lit_replay_check_result(&rp, rec, &line)) != LIT_OK) {
        fail_at(file, line, st);
        return 1;
    }
    return 0;
}

int cmd_review(int argc, char **argv)
{
    static const struct option longs[] = {{"seat", required_argument, NULL, 's'},
                                          {"json", no_argument, NULL, 'j'},
                                          {"budget", required_argument, NULL, 'b'},
                                          {"seed", required_argument, NULL, 'S'},
                                          {"samples", required_argument, NULL, 'n'},
                                          {"help", no_argument, NULL, OPT_HELP},
                                          {NULL, 0, NULL, 0}};
    LitReviewOptions opt = lit_review_defaults();
    uint64_t seat = 0, v;
    int json = 0, o;
    while ((o = getopt_long(argc, argv, "", longs, NULL)) != -1) {
        switch (o) {
        case 's':
            if (parse_u64(optarg, &seat) || seat == 0 || seat > LIT_MAX_PLAYERS) {
                say("--seat: not a seat: '%s'", optarg);
                return 2;
            }
            break;
        case 'j':
            json = 1;
            break;
        case 'b':
            if (number_option("budget", optarg, 0, LIT_EXPERT_ROLLOUTS_MAX, &v))
                return 2;
            opt.rollouts = (uint32_t)v;
            break;
        case 'S':
            if (number_option("seed", optarg, 0, INT64_MAX, &v))
                return 2;
            opt.seed = v;
            break;
        case 'n':
            if (number_option("samples", optarg, LIT_REVIEW_SAMPLES_MIN, LIT_REVIEW_SAMPLES_MAX, &v))
                return 2;
            opt.samples = (uint32_t)v;
            break;
        default: /* --help, or an option not known */
            return help_or_usage(usage, o);
        }
    }
    if (argc - optind != 1 || seat == 0) {
        say("review: give one FILE and --seat N");
        fputs(usage, stderr);
        return 2;
    }
    const char *file = argv[optind];
    Loaded in;
    LitEvent *applied = malloc(sizeof *applied * LIT_RECORD_MAX_EVENTS);
    LitDecision *decisions = NULL;
    void *work = NULL;
    int rc = 1;
    if (record_load(file, &in))
        goto done;
    if (!applied) {
        say("out of memory");
        goto done;
    }
    LitRecord rec = in.rec;
    opt.by = in.by;
    LitGame start;
    int st = replay_all(file, &in, seat, &start, applied);
    if (st) {
        rc = st;
        goto done;
    }
    decisions = malloc(sizeof *decisions * (rec.n_events ? rec.n_events : 1));
    work = malloc(LIT_REVIEW_WORK);
    if (!decisions || !work) {
        say("out of memory");
        goto done;
    }
    LitReviewSummary sum;
    int n = lit_review(&start, applied, rec.n_events, (int)seat - 1, &opt, work, LIT_REVIEW_WORK,
                       decisions, rec.n_events, &sum);
    if (n < 0) {
        say("%s: %s: %s", file, lit_status_name(n), lit_status_text(n));
        goto done;
    }
    rc = print_review(&rec.rules, (int)seat - 1, &opt, decisions, (uint32_t)n, &sum, json,
                      rec.n_events);
done:
    record_free(&in);
    free(applied);
    free(decisions);
    free(work);
    return rc;
}
