/* cmd_infer.c - `lit infer`: the scoresheet of one seat's view (or the
 * public view) after some actions of a record. */
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cmds.h"
#include "common.h"
#include "helper.h"
#include "../wire/wire.h"
#include "literature/bot.h"
#include "literature/infer.h"
#include "literature/notation.h"
#include "literature/status.h"

static const char usage[] =
    "usage: lit infer FILE (--seat N | --public) [--after K] [--json]\n"
    "                 [--samples N] [--seed S] [--model uniform|master]\n"
    "\n"
    "Reads a record (docs/NOTATION.md) and prints what seat N knows after K\n"
    "actions (default: all): a grid of every card in play by seat, X where the\n"
    "card surely is, . where it cannot be, else the exact probability that it\n"
    "is there over every deal that fits the history; the least number of each\n"
    "set's cards every seat must hold; the number of consistent deals; and per\n"
    "set the probability that the team holds all of it, its likeliest placement\n"
    "and the probability that this placement is right (docs/DEDUCTION.md).\n"
    "--public gives what everyone can deduce from public information alone; it\n"
    "also works for records with no known deal.\n"
    "\n"
    "  --seat N    the seat whose view to take, 1..players (needs the deal)\n"
    "  --public    the public view instead\n"
    "  --after K   after the first K actions of the record (0 to its number\n"
    "              of actions; default all)\n"
    "  --json      one JSON object: seat (null for the public view), after,\n"
    "              consistent, exact, consistent_deals (a decimal string),\n"
    "              cards: {card: {seat: probability}}, half_suits: {set:\n"
    "              {team_holds_all, best_assignment: {card: seat},\n"
    "              assignment_correct}} (per team \"A\", \"B\" for the public\n"
    "              view), must_hold: {seat: {set: n}}; seats 1-based. When the\n"
    "              position is beyond the exact count's workspace, exact is\n"
    "              false, the figures are estimates by sampling, and samples,\n"
    "              consistent_deals_estimate, consistent_deals_se, cards_se\n"
    "              and the *_se members give their standard errors\n"
    "  --samples N draws for the estimate beyond the workspace, 80 to 200000\n"
    "              (default 20000)\n"
    "  --threads N threads the exact count may take, 1 or 2 (default 2 on a\n"
    "              machine of two cores or more: a second one takes part of\n"
    "              a large position's forward sweep; the figures are the\n"
    "              same)\n"
    "  --seed S    seed of those draws (default 1; under --model master the\n"
    "              position's own, the one master's decision there draws\n"
    "              from: 0 names it)\n"
    "  --model M   uniform (default): every consistent deal equally likely;\n"
    "              master: master's beliefs (docs/BOTS.md), each deal weighted\n"
    "              by how likely the asks seen were under its model of how\n"
    "              players ask, estimated from 2048 draws (--seed); a seat's\n"
    "              view only, within the exact count's reach. Its claim\n"
    "              figures are calibrated against how often master's claims\n"
    "              were right. The JSON adds model and effective_draws, each\n"
    "              half-suit model_team_holds_all and model_assignment_correct\n"
    "              (the model's figures before that calibration),\n"
    "              uniform_best_assignment and uniform_assignment_correct\n"
    "              (the exact count's), model_assignment_uniform (the exact\n"
    "              chance of the model's likeliest placement) and\n"
    "              uniform_standing (where that placement stands in the\n"
    "              exact count: likeliest, tied or below), stuck (whether\n"
    "              every ask of the seat must miss: the calibration reads\n"
    "              both), and the *_se members are\n"
    "              sqrt(p (1 - p) / effective_draws)\n"
    "  --help      this text\n";

/* The most draws an estimate takes in LIT_ODDS_WORK (test_sample checks
 * that they fit). */
enum { MAX_SAMPLES = 200000 };

/* The teams whose claim figures to show: the seat's own, or both for the
 * public view. */
static int first_team(const LitKnow *k)
{
    return k->seat == LIT_NOBODY ? 0 : lit_team_of(k->seat);
}

static int last_team(const LitKnow *k)
{
    return k->seat == LIT_NOBODY ? 1 : lit_team_of(k->seat);
}

/* The non-zero least holdings, a line per seat. */
static void print_must_hold(const LitKnow *k)
{
    int deck = k->pub.rules.deck;
    for (int s = 0; s < k->pub.rules.players; s++) {
        int any = 0;
        for (int set = 0; set < lit_deck_sets(deck); set++) {
            int n = lit_know_min_hold(k, s, set);
            if (!n)
                continue;
            if (!any++)
                printf("  seat %d:", s + 1);
            printf(" %d %s", n, lit_set_name(deck, set));
        }
        if (any)
            printf("\n");
    }
}

void infer_print_grid(const LitKnow *k, const LitOdds *o, int master)
{
    const LitRules *r = &k->pub.rules;
    int deck = r->deck;
    printf("card ");
    for (int s = 0; s < r->players; s++)
        printf("%6d", s + 1);
    printf("\n");
    for (int set = 0; set < lit_deck_sets(deck); set++) {
        uint64_t m = lit_set_mask(deck, set);
        if (!(k->pub.live & m))
            continue;
        for (uint64_t cards = m; cards;) {
            int c = lit_pop_lsb(&cards);
            unsigned cand = lit_know_candidates(k, c);
            int holder = lit_know_holder(k, c);
            printf("%-4s ", lit_card_name(deck, c));
            for (int s = 0; s < r->players; s++) {
                if (holder == s)
                    printf("     X");
                else if (!((cand >> s) & 1))
                    printf("     .");
                else if (!o->exact && !o->samples)
                    printf("     ?");
                else if (o->exact && o->p[c][s] < 0.0005)
                    printf("    .0"); /* possible, but no consistent deal: counting knows */
                else if (o->exact && o->p[c][s] > 0.9995)
                    printf("    1.");
                else
                    printf("  %.2f", o->p[c][s]); /* an estimate: as drawn */
            }
            printf("\n");
        }
    }
    printf("\nmust hold at least:\n");
    print_must_hold(k);
    if (!k->consistent)
        return;
    if (!o->exact && !o->samples)
        return;
    if (o->exact || master) {
        char deals[LIT_U192_DIGITS + 1];
        lit_u192_format(&o->deals, deals, sizeof deals);
        printf("\nconsistent deals: %s\n", deals);
    } else {
        printf("\nestimates from %u weighted draws: this position needs more than the "
               "exact count's\nworkspace (docs/DEDUCTION.md); the largest standard error "
               "of a probability is %.4f\n(a 95%% interval is about 2 standard errors each "
               "way: %d batches)\n",
               o->samples, largest_se(k, o), LIT_ESTIMATE_BATCHES);
        printf("consistent deals: about %.4g (standard error %.2g)\n", o->deals_estimate,
               o->deals_se);
    }
    printf("claims (P team holds all; the likeliest placement, P it is right):\n");
    for (int set = 0; set < lit_deck_sets(deck); set++) {
        if (!(k->pub.live & lit_set_mask(deck, set)))
            continue;
        for (int t = first_team(k); t <= last_team(k); t++) {
            printf("  %-14s team %c %.4f", lit_set_name(deck, set), "AB"[t], o->team_all[t][set]);
            if (o->best_p[t][set] > 0) {
                printf("  ");
                for (int p = 0; p < lit_deck_set_size(deck); p++)
                    printf("%s%s:%d", p ? "," : "",
                           lit_card_name(deck, lit_set_first(deck, set) + p),
                           o->best[t][set][p] + 1);
                printf("  %.4f", o->best_p[t][set]);
            }
            printf("\n");
        }
    }
}

/* The options of `lit infer`. */
typedef struct InferArgs {
    uint64_t seat, after, samples, seed, threads;
    int json, public_view, after_given, master, seed_given;
} InferArgs;

/* The options and the one FILE: -1 when all are taken, else the exit
 * status. */
static int take_options(InferArgs *ia, int argc, char **argv)
{
    static const struct option longs[] = {{"seat", required_argument, NULL, 's'},
                                          {"public", no_argument, NULL, 'p'},
                                          {"after", required_argument, NULL, 'a'},
                                          {"json", no_argument, NULL, 'j'},
                                          {"samples", required_argument, NULL, 'n'},
                                          {"seed", required_argument, NULL, 'S'},
                                          {"model", required_argument, NULL, 'm'},
                                          {"threads", required_argument, NULL, 't'},
                                          {"help", no_argument, NULL, OPT_HELP},
                                          {NULL, 0, NULL, 0}};
    int opt;
    while ((opt = getopt_long(argc, argv, "", longs, NULL)) != -1) {
        switch (opt) {
        case 's':
            if (parse_u64(optarg, &ia->seat) || ia->seat == 0 || ia->seat > LIT_MAX_PLAYERS) {
                say("--seat: not a seat: '%s'", optarg);
                return 2;
            }
            break;
        case 'p':
            ia->public_view = 1;
            break;
        case 'a':
            if (parse_u64(optarg, &ia->after)) {
                /* digits alone: a number, past what a record can hold */
                if (*optarg && strspn(optarg, "0123456789") == strlen(optarg))
                    say("--after: '%s' is more actions than a record can hold (%d)", optarg,
                        LIT_MAX_ACTIONS);
                else
                    say("--after: not a number: '%s'", optarg);
                return 2;
            }
            ia->after_given = 1;
            break;
        case 'j':
            ia->json = 1;
            break;
        case 'n':
            if (parse_u64(optarg, &ia->samples) || ia->samples < LIT_ESTIMATE_MIN ||
                ia->samples > MAX_SAMPLES) {
                say("--samples: not a number from %d to %d: '%s'", LIT_ESTIMATE_MIN, MAX_SAMPLES,
                    optarg);
                return 2;
            }
            break;
        case 'S':
            if (parse_u64(optarg, &ia->seed)) {
                say("--seed: not a number: '%s'", optarg);
                return 2;
            }
            ia->seed_given = 1;
            break;
        case 't':
            if (parse_u64(optarg, &ia->threads) || ia->threads < 1 || ia->threads > 2) {
                say("--threads: 1 or 2, not '%s'", optarg);
                return 2;
            }
            break;
        case 'm':
            if (strcmp(optarg, "uniform") != 0 && strcmp(optarg, "master") != 0) {
                say("--model: not a model: '%s' (uniform or master)", optarg);
                return 2;
            }
            ia->master = strcmp(optarg, "master") == 0;
            break;
        default: /* --help, or an option not known */
            return help_or_usage(usage, opt);
        }
    }
    if (argc - optind != 1 || (ia->seat == 0) == (ia->public_view == 0)) {
        say("infer: give one FILE and either --seat N or --public");
        fputs(usage, stderr);
        return 2;
    }
    if (ia->master && ia->public_view) {
        say("--model master: master's beliefs are a seat's: give --seat N");
        return 2;
    }
    return -1;
}

/* What the seat (or the public) knows after the first ia->after actions
 * of the record (at most all of them), into *k: every action through the
 * referee, then into the knowledge. 0, or the exit status with a message. */
static int know_after(InferArgs *ia, const char *file, const Loaded *in, LitEvent *applied,
                      LitKnow *k)
{
    const LitRecord *rec = &in->rec;
    if (ia->seat > rec->rules.players) {
        say("--seat %llu: the game has %d seats", (unsigned long long)ia->seat,
            rec->rules.players);
        return 2;
    }
    if (ia->after > rec->n_events) {
        if (ia->after_given) {
            say("--after %llu: %s has %u actions (--after 0 to %u)",
                (unsigned long long)ia->after, file, rec->n_events, rec->n_events);
            return 2;
        }
        ia->after = rec->n_events; /* not given: all of them */
    }
    LitReplay rp;
    int st = lit_replay_start(&rp, rec);
    if (st != LIT_OK) {
        fail_at(file, rec->deal_line ? rec->deal_line : 1, st);
        return 1;
    }
    if (!ia->public_view && !rp.known) {
        say("%s: the record has no deal: only --public can be taken", file);
        return 2;
    }
    LitGame start = rp.game;
    if (rp.known && deal_as_dealt(file, rec, &start))
        return 1;
    /* the whole record, as lit replay checks it (its Result and Score
     * too), whatever position is asked about */
    for (uint32_t i = 0; i < rec->n_events; i++) {
        st = lit_replay_step(&rp, &rec->events[i], &applied[i]);
        if (st != LIT_OK) {
            fail_at(file, in->lines[i], st);
            return 1;
        }
    }
    uint32_t line = 0;
    if ((st = lit_replay_check_result(&rp, rec, &line)) != LIT_OK) {
        fail_at(file, line, st);
        return 1;
    }
    int who = ia->public_view ? LIT_NOBODY : (int)ia->seat - 1;
    uint64_t hand = ia->public_view ? 0 : start.hands[who];
    /* a history no deal fits is refused where it stopped fitting, as lit
     * replay refuses it (not described as a view of no deal); with the deal
     * known and every action legal, the deal itself fits */
    uint32_t none = rp.known ? 0
                             : history_impossible_at(&start.pub.rules, start.pub.dealer, who,
                                                     hand, applied, (uint32_t)ia->after);
    if (none) {
        fail_at(file, in->lines[none - 1], LIT_INCONSISTENT);
        return 1;
    }
    st = lit_know_start(k, &start.pub.rules, start.pub.dealer, who, hand);
    for (uint32_t i = 0; st == LIT_OK && i < ia->after; i++)
        st = lit_know_apply(k, &applied[i]);
    if (st != LIT_OK) {
        say("%s: %s: %s", file, lit_status_name(st), lit_status_text(st));
        return 1;
    }
    return 0;
}

/* The figures of the knowledge into *odds: the exact count, or beyond its
 * workspace the estimate of ia->samples draws; none when no deal fits.
 * 0, or 1 with a message. */
static int work_out_odds(const InferArgs *ia, const char *file, const LitKnow *k,
                         LitOdds *odds)
{
    void *work = k->consistent ? malloc(LIT_ODDS_WORK) : NULL;
    if (k->consistent && !work) {
        say("out of memory");
        return 1;
    }
    memset(odds, 0, sizeof *odds);
    if (k->consistent) {
        Helper *helper = helper_new(ia->threads ? (int)ia->threads : helper_default_threads());
        lit_odds_helped(k, work, LIT_ODDS_WORK, helper_lent(helper), odds);
        helper_free(helper);
    }
    if (k->consistent && !odds->exact) {
        LitRng rng;
        lit_rng_seed(&rng, ia->seed);
        int st = lit_odds_estimate(k, &rng, (uint32_t)ia->samples, work, LIT_ODDS_WORK, odds);
        if (st != LIT_OK) {
            say("%s: %s: %s", file, lit_status_name(st), lit_status_text(st));
            free(work);
            return 1;
        }
    }
    free(work);
    return 0;
}

/* The standard error of a chance p estimated from n effective draws. */
static double draws_se(double p, double n)
{
    return p > 0 && p < 1 ? sqrt(p * (1 - p) / n) : 0;
}

/* --model master: master's beliefs from the seat's view after the applied
 * events into *odds (their standard errors from the effective draws), and
 * what its claims' chances were read from into *m. 0, or the exit status
 * with a message. */
static int master_odds(const InferArgs *ia, const char *file, const LitKnow *k,
                       const LitEvent *applied, LitOdds *odds, LitBeliefBasis *m)
{
    if (!k->consistent) { /* the deal is known: a seat's view always fits */
        say("%s: %s: %s", file, lit_status_name(LIT_INCONSISTENT),
            lit_status_text(LIT_INCONSISTENT));
        return 1;
    }
    void *work = malloc(LIT_BOT_WORK);
    if (!work) {
        say("out of memory");
        return 1;
    }
    LitView v = {k->pub, k->seat, k->held[k->seat], applied, (uint32_t)ia->after};
    memset(odds, 0, sizeof *odds);
    int st = lit_bot_beliefs(&v, ia->seed_given ? ia->seed : 0, work, LIT_BOT_WORK, odds, m);
    free(work);
    if (st == LIT_NO_SPACE) {
        say("--model master: this position is beyond the exact count (docs/DEDUCTION.md), "
            "where master plays as expert: there are no master's beliefs to show");
        return 1;
    }
    if (st != LIT_OK) {
        say("%s: %s: %s", file, lit_status_name(st), lit_status_text(st));
        return 1;
    }
    double n = m->effective;
    odds->deals_estimate = lit_u192_to_double(&odds->deals);
    for (uint64_t live = k->pub.live; live;) {
        int c = lit_pop_lsb(&live);
        for (int s = 0; s < k->pub.rules.players; s++)
            odds->p_se[c][s] = draws_se(odds->p[c][s], n);
    }
    int team = lit_team_of(k->seat);
    for (int set = 0; set < lit_deck_sets(k->pub.rules.deck); set++) {
        odds->team_all_se[team][set] = draws_se(odds->team_all[team][set], n);
        odds->best_p_se[team][set] = draws_se(odds->best_p[team][set], n);
    }
    return 0;
}

/* Master's members of the JSON j: the exact count, the model, the
 * effective draws, whether the seat is stuck, and each of the team's
 * half-suits' figures before the claims' calibration (model's), the exact
 * count's likeliest placement and its chance, the exact chance of the
 * model's and where it stands in the count (uniform_standing). */
static void add_master_json(json_t *j, const LitKnow *k, const LitOdds *odds,
                            const LitBeliefBasis *m)
{
    static const char *const standing[LIT_STANDINGS] = {"likeliest", "tied", "below"};
    const LitOdds *model = &m->model;
    char deals[LIT_U192_DIGITS + 1];
    lit_u192_format(&odds->deals, deals, sizeof deals);
    json_object_set_new(j, "consistent_deals", json_string(deals));
    json_object_set_new(j, "model", json_string("master"));
    json_object_set_new(j, "effective_draws", json_real(m->effective));
    int deck = k->pub.rules.deck, team = lit_team_of(k->seat);
    json_object_set_new(j, "stuck", json_boolean(m->stuck));
    json_t *sets = json_object_get(j, "half_suits");
    for (int set = 0; set < lit_deck_sets(deck); set++) {
        json_t *figs = json_object_get(sets, lit_set_name(deck, set));
        if (!figs)
            continue;
        json_object_set_new(figs, "model_team_holds_all", json_real(model->team_all[team][set]));
        json_object_set_new(figs, "model_assignment_correct",
                            json_real(model->best_p[team][set]));
        json_object_set_new(figs, "model_assignment_uniform", json_real(m->uniform[set]));
        json_object_set_new(figs, "uniform_best_assignment",
                            wire_best_assignment(k, &m->exact, team, set));
        json_object_set_new(figs, "uniform_assignment_correct",
                            json_real(m->exact.best_p[team][set]));
        json_object_set_new(figs, "uniform_standing", json_string(standing[m->standing[set]]));
    }
}

/* The scoresheet on stdout: one JSON object, or a line saying whose view
 * after how many actions and the grid (m: what master shows besides, or
 * NULL for the uniform model). 0, or 1 with a message. */
static int print_scoresheet(const InferArgs *ia, uint32_t n_events, const LitKnow *k,
                            const LitOdds *odds, const LitBeliefBasis *m)
{
    if (ia->json) {
        json_t *j = wire_scoresheet(k, odds);
        if (j && m)
            add_master_json(j, k, odds, m);
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
    if (ia->public_view)
        printf("the public view");
    else
        printf("seat %d's view", (int)ia->seat);
    printf(" after %d of %u actions%s\n\n", (int)ia->after, n_events,
           k->consistent ? "" : ": no deal fits this history");
    if (m)
        printf("master's beliefs (docs/BOTS.md): the deals weighted by how likely the asks "
               "seen were,\nfrom %u draws, %.0f effective: a chance p is off by about "
               "sqrt(p (1 - p) / %.0f)\n\n",
               odds->samples, m->effective, m->effective);
    infer_print_grid(k, odds, ia->master);
    return 0;
}

int cmd_infer(int argc, char **argv)
{
    InferArgs ia = {.after = UINT64_MAX, .samples = 20000, .seed = 1};
    int rc = take_options(&ia, argc, argv);
    if (rc >= 0)
        return rc;
    const char *file = argv[optind];
    Loaded in;
    LitEvent *applied = malloc(sizeof *applied * LIT_RECORD_MAX_EVENTS);
    LitKnow *k = malloc(sizeof *k);
    LitOdds *odds = NULL;
    LitBeliefBasis *master = NULL;
    rc = 1;
    if (record_load(file, &in))
        goto done;
    if (!applied || !k) {
        say("out of memory");
        goto done;
    }
    rc = know_after(&ia, file, &in, applied, k);
    if (rc)
        goto done;
    odds = malloc(sizeof *odds);
    master = ia.master ? malloc(sizeof *master) : NULL;
    if (!odds || (ia.master && !master)) {
        say("out of memory");
        rc = 1;
    } else {
        rc = ia.master ? master_odds(&ia, file, k, applied, odds, master)
                       : work_out_odds(&ia, file, k, odds);
    }
    if (rc == 0)
        rc = print_scoresheet(&ia, in.rec.n_events, k, odds, master);
done:
    record_free(&in);
    free(applied);
    free(k);
    free(odds);
    free(master);
    return rc;
}
