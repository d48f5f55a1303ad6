/* cmd_infer.c - `lit infer`: the scoresheet of one seat's view (or the
 * public view) after some actions of a record. */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cmds.h"
#include "common.h"
#include "../wire/wire.h"
#include "literature/infer.h"
#include "literature/notation.h"
#include "literature/status.h"

static const char usage[] =
    "usage: lit infer FILE (--seat N | --public) [--after K] [--json]\n"
    "                 [--samples N] [--seed S]\n"
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
    "  --after K   after the first K actions of the record\n"
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
    "  --samples N draws for the estimate beyond the workspace, 20 to 200000\n"
    "              (default 20000)\n"
    "  --seed S    seed of those draws (default 1)\n"
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

void infer_print_grid(const LitKnow *k, const LitOdds *o)
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
    if (o->exact) {
        char deals[LIT_U192_DIGITS + 1];
        lit_u192_format(&o->deals, deals, sizeof deals);
        printf("\nconsistent deals: %s\n", deals);
    } else {
        printf("\nestimates from %u weighted draws: this position needs more than the "
               "exact count's\nworkspace (docs/DEDUCTION.md); the largest standard error "
               "of a probability is %.4f\n",
               o->samples, largest_se(k, o));
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

int cmd_infer(int argc, char **argv)
{
    static const struct option longs[] = {{"seat", required_argument, NULL, 's'},
                                          {"public", no_argument, NULL, 'p'},
                                          {"after", required_argument, NULL, 'a'},
                                          {"json", no_argument, NULL, 'j'},
                                          {"samples", required_argument, NULL, 'n'},
                                          {"seed", required_argument, NULL, 'S'},
                                          {"help", no_argument, NULL, OPT_HELP},
                                          {NULL, 0, NULL, 0}};
    uint64_t seat = 0, after = UINT64_MAX, samples = 20000, seed = 1;
    int json = 0, public_view = 0, opt;
    while ((opt = getopt_long(argc, argv, "", longs, NULL)) != -1) {
        switch (opt) {
        case 's':
            if (parse_u64(optarg, &seat) || seat == 0 || seat > LIT_MAX_PLAYERS) {
                say("--seat: not a seat: '%s'", optarg);
                return 2;
            }
            break;
        case 'p':
            public_view = 1;
            break;
        case 'a':
            if (parse_u64(optarg, &after)) {
                say("--after: not a number: '%s'", optarg);
                return 2;
            }
            break;
        case 'j':
            json = 1;
            break;
        case 'n':
            if (parse_u64(optarg, &samples) || samples < 20 || samples > MAX_SAMPLES) {
                say("--samples: not a number from 20 to %d: '%s'", MAX_SAMPLES, optarg);
                return 2;
            }
            break;
        case 'S':
            if (parse_u64(optarg, &seed)) {
                say("--seed: not a number: '%s'", optarg);
                return 2;
            }
            break;
        default: /* --help, or an option not known */
            return help_or_usage(usage, opt);
        }
    }
    if (argc - optind != 1 || (seat == 0) == (public_view == 0)) {
        say("infer: give one FILE and either --seat N or --public");
        fputs(usage, stderr);
        return 2;
    }
    const char *file = argv[optind];
    Loaded in;
    LitEvent *applied = malloc(sizeof *applied * LIT_RECORD_MAX_EVENTS);
    LitKnow *k = malloc(sizeof *k);
    int rc = 1;
    if (record_load(file, &in))
        goto done;
    if (!applied || !k) {
        say("out of memory");
        goto done;
    }
    LitRecord rec = in.rec;
    const uint32_t *lines = in.lines;
    if (seat > rec.rules.players) {
        say("--seat %llu: the game has %d seats", (unsigned long long)seat, rec.rules.players);
        rc = 2;
        goto done;
    }
    if (after > rec.n_events)
        after = rec.n_events;
    LitReplay rp;
    int st = lit_replay_start(&rp, &rec);
    if (st != LIT_OK) {
        fail_at(file, rec.deal_line ? rec.deal_line : 1, st);
        goto done;
    }
    if (!public_view && !rp.known) {
        say("%s: the record has no deal: only --public can be taken", file);
        rc = 2;
        goto done;
    }
    LitGame start = rp.game;
    for (uint32_t i = 0; i < after; i++) {
        st = lit_replay_step(&rp, &rec.events[i], &applied[i]);
        if (st != LIT_OK) {
            fail_at(file, lines[i], st);
            goto done;
        }
    }
    int who = public_view ? LIT_NOBODY : (int)seat - 1;
    st = lit_know_start(k, &start.pub.rules, start.pub.dealer, who,
                        public_view ? 0 : start.hands[who]);
    for (uint32_t i = 0; st == LIT_OK && i < after; i++)
        st = lit_know_apply(k, &applied[i]);
    if (st != LIT_OK) {
        say("%s: %s: %s", file, lit_status_name(st), lit_status_text(st));
        goto done;
    }
    void *work = k->consistent ? malloc(LIT_ODDS_WORK) : NULL;
    LitOdds *odds = malloc(sizeof *odds);
    if (!odds || (k->consistent && !work)) {
        say("out of memory");
        free(work);
        free(odds);
        goto done;
    }
    memset(odds, 0, sizeof *odds);
    if (k->consistent)
        lit_odds(k, work, LIT_ODDS_WORK, odds);
    if (k->consistent && !odds->exact) {
        LitRng rng;
        lit_rng_seed(&rng, seed);
        st = lit_odds_estimate(k, &rng, (uint32_t)samples, work, LIT_ODDS_WORK, odds);
        if (st != LIT_OK) {
            say("%s: %s: %s", file, lit_status_name(st), lit_status_text(st));
            free(work);
            free(odds);
            goto done;
        }
    }
    free(work);
    if (json) {
        json_t *j = wire_scoresheet(k, odds);
        char *text = j ? json_dumps(j, JSON_COMPACT) : NULL;
        json_decref(j);
        if (!text) {
            say("out of memory");
            free(odds);
            goto done;
        }
        puts(text);
        free(text);
    } else {
        if (public_view)
            printf("the public view");
        else
            printf("seat %d's view", (int)seat);
        printf(" after %d of %u actions%s\n\n", (int)after, rec.n_events,
               k->consistent ? "" : ": no deal fits this history");
        infer_print_grid(k, odds);
    }
    free(odds);
    rc = 0;
done:
    record_free(&in);
    free(applied);
    free(k);
    return rc;
}
