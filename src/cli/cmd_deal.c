/* cmd_deal.c - `lit deal`: a deal from a seed, as a record header. */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cmds.h"
#include "common.h"
#include "literature/notation.h"
#include "literature/status.h"

static const char usage[] =
    "usage: lit deal --seed N [rule options] [--dealer D]\n"
    "\n"
    "Prints the deal that seed N gives (the frozen shuffle of docs/RULES.md)\n"
    "as a record header: Rules, Dealer, Seed and one Hand tag per seat.\n"
    "\n"
    "  --seed N           the seed (required), 0 .. 2^64-1\n"
    RULE_OPTIONS_HELP
    "  --dealer D         the dealer's seat, 1..players (default 1)\n"
    "  --help             this text\n";

int cmd_deal(int argc, char **argv)
{
    static const struct option longs[] = {
        RULE_LONG_OPTIONS,
        {"seed", required_argument, NULL, 's'},
        {"dealer", required_argument, NULL, 'd'},
        {"help", no_argument, NULL, OPT_HELP},
        {NULL, 0, NULL, 0}};
    RuleArgs ra;
    memset(&ra, 0, sizeof ra);
    uint64_t seed = 0, dealer = 1;
    int have_seed = 0, opt;
    while ((opt = getopt_long(argc, argv, "", longs, NULL)) != -1) {
        int took = rule_args_take(&ra, opt, optarg);
        if (took < 0)
            return 2;
        if (took)
            continue;
        switch (opt) {
        case 's':
            if (parse_u64(optarg, &seed)) {
                say("--seed: not a number: '%s'", optarg);
                return 2;
            }
            have_seed = 1;
            break;
        case 'd':
            if (parse_u64(optarg, &dealer) || dealer == 0 || dealer > LIT_MAX_PLAYERS) {
                say("--dealer: not a seat: '%s'", optarg);
                return 2;
            }
            break;
        default: /* --help, or an option not known */
            return help_or_usage(usage, opt);
        }
    }
    if (no_operands("deal", argc, argv))
        return 2;
    if (!have_seed) {
        say("deal: --seed is required");
        fputs(usage, stderr);
        return 2;
    }
    LitRules rules;
    if (rule_args_build(&ra, &rules))
        return 2;
    if (dealer > rules.players) {
        say("--dealer %llu: there are only %d seats", (unsigned long long)dealer,
            rules.players);
        return 2;
    }
    LitGame g;
    int st = lit_game_new(&g, &rules, seed, (int)dealer - 1);
    if (st != LIT_OK) {
        say("deal: %s: %s", lit_status_name(st), lit_status_text(st));
        return 2;
    }
    LitRecord rec;
    lit_record_init(&rec, NULL, NULL, 0);
    rec.rules = rules;
    rec.dealer = (uint8_t)(dealer - 1);
    rec.has_seed = 1;
    rec.seed = seed;
    rec.has_deal = 1;
    memcpy(rec.hands, g.hands, sizeof rec.hands);
    char text[4096];
    if (lit_record_format(&rec, text, sizeof text) < 0) {
        say("deal: cannot format the deal");
        return 1;
    }
    fputs(text, stdout);
    return 0;
}
