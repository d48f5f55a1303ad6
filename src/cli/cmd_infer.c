/* cmd_infer.c - `lit infer`: the scoresheet of one seat's view (or the
 * public view) after some actions of a record. */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cmds.h"
#include "common.h"
#include "literature/infer.h"
#include "literature/notation.h"
#include "literature/status.h"

static const char usage[] =
    "usage: lit infer FILE (--seat N | --public) [--after K] [--json]\n"
    "\n"
    "Reads a record (docs/NOTATION.md) and prints what seat N can be certain\n"
    "of after K actions (default: all): a grid of every card in play by seat,\n"
    "X where the card surely is, . where it cannot be, ? where it may be; then\n"
    "the least number of each set's cards every seat must hold\n"
    "(docs/DEDUCTION.md). --public gives what everyone can deduce from public\n"
    "information alone; it also works for records with no known deal.\n"
    "\n"
    "  --seat N    the seat whose view to take, 1..players (needs the deal)\n"
    "  --public    the public view instead\n"
    "  --after K   after the first K actions of the record\n"
    "  --json      one JSON object: seat (null for the public view), after,\n"
    "              consistent, cards: {card: {seat: 1 | 0 | null (possible)}},\n"
    "              must_hold: {seat: {set: n}} (only the non-zero counts)\n"
    "  --help      this text\n";

static void print_grid(const LitKnow *k)
{
    const LitRules *r = &k->pub.rules;
    int deck = r->deck;
    printf("card ");
    for (int s = 0; s < r->players; s++)
        printf("%3d", s + 1);
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
            for (int s = 0; s < r->players; s++)
                printf("  %c", holder == s ? 'X' : (cand >> s) & 1 ? '?' : '.');
            printf("\n");
        }
    }
    printf("\nmust hold at least:\n");
    for (int s = 0; s < r->players; s++) {
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

static void print_json(const LitKnow *k, int after)
{
    const LitRules *r = &k->pub.rules;
    int deck = r->deck;
    if (k->seat == LIT_NOBODY)
        printf("{\"seat\":null,");
    else
        printf("{\"seat\":%d,", k->seat + 1);
    printf("\"after\":%d,\"consistent\":%s,\"cards\":{", after,
           k->consistent ? "true" : "false");
    int first = 1;
    for (uint64_t live = k->pub.live; live;) {
        int c = lit_pop_lsb(&live);
        unsigned cand = lit_know_candidates(k, c);
        int holder = lit_know_holder(k, c);
        printf("%s\"%s\":{", first ? "" : ",", lit_card_name(deck, c));
        first = 0;
        for (int s = 0; s < r->players; s++)
            printf("%s\"%d\":%s", s ? "," : "", s + 1,
                   holder == s ? "1" : (cand >> s) & 1 ? "null" : "0");
        printf("}");
    }
    printf("},\"must_hold\":{");
    first = 1;
    for (int s = 0; s < r->players; s++) {
        int any = 0;
        for (int set = 0; set < lit_deck_sets(deck); set++) {
            int n = lit_know_min_hold(k, s, set);
            if (!n)
                continue;
            if (!any)
                printf("%s\"%d\":{", first ? "" : ",", s + 1);
            printf("%s\"%s\":%d", any ? "," : "", lit_set_name(deck, set), n);
            any = 1;
            first = 0;
        }
        if (any)
            printf("}");
    }
    printf("}}\n");
}

int cmd_infer(int argc, char **argv)
{
    static const struct option longs[] = {{"seat", required_argument, NULL, 's'},
                                          {"public", no_argument, NULL, 'p'},
                                          {"after", required_argument, NULL, 'a'},
                                          {"json", no_argument, NULL, 'j'},
                                          {"help", no_argument, NULL, OPT_HELP},
                                          {NULL, 0, NULL, 0}};
    uint64_t seat = 0, after = UINT64_MAX;
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
        case OPT_HELP:
            fputs(usage, stdout);
            return 0;
        default:
            fputs(usage, stderr);
            return 2;
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
    if (json) {
        print_json(k, (int)after);
    } else {
        if (public_view)
            printf("the public view");
        else
            printf("seat %d's view", (int)seat);
        printf(" after %d of %u actions%s\n\n", (int)after, rec.n_events,
               k->consistent ? "" : ": no deal fits this history");
        print_grid(k);
    }
    rc = 0;
done:
    record_free(&in);
    free(applied);
    free(k);
    return rc;
}
