/* cmd_play.c - `lit play`: one person against bots. Its options start the
 * play session (play.c); in a terminal the session is played at the
 * full-screen table (table.c); in plain mode (--plain, or when standard input
 * or output is not a terminal), here: one command per line on standard input
 * and one event per line on standard output in the words of the notation
 * (docs/PLAY.md), for scripts, screen readers and pipes. */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cmds.h"
#include "arena.h"
#include "common.h"
#include "play.h"
#include "table.h"
#include "literature/bot.h"
#include "literature/infer.h"
#include "literature/notation.h"
#include "literature/rng.h"
#include "literature/status.h"

static const char usage[] =
    "usage: lit play [--plain] [--seat N] [--name NAME] [--bot BOT] [--bots LIST]\n"
    "                [rule options] [--seed S] [--dealer N] [--record FILE]\n"
    "                [--pace MS | --instant] [--aid]\n"
    "       lit play --resume FILE [--seat N] [--record FILE] [...]\n"
    "\n"
    "One game: you in one seat, bots in the others. In a terminal, a full-screen\n"
    "table: keys a (ask), c (claim), p (pass or choose), h (hint), A (the aid),\n"
    "s (the scoresheet), f (whole history or last question), q (quit).\n"
    "Plain mode (--plain; also when standard input or output is not a\n"
    "terminal) reads one command per line and writes one event per line, in\n"
    "the words of the notation (docs/NOTATION.md), so a script, a screen\n"
    "reader or a pipe can play. When it is your turn a line 'your turn:\n"
    "PHASE' comes; answer with a move as in a record, without your seat:\n"
    "\n"
    "  asks 4 for Qh             (also: ask 4 Qh)\n"
    "  claims lh 1:2h,3h 3:4h,5h,6h,7h\n"
    "  passes to 3               (also: pass 3)\n"
    "  chooses 3                 (also: choose 3)\n"
    "\n"
    "and at any time: hand, sizes (unless the rules hide them), score,\n"
    "history, legal, sheet (the\n"
    "scoresheet from your view; needs --aid or 'aid on'), aid on, aid off,\n"
    "hint (master's move for you), help, quit. An illegal move is refused\n"
    "with the rule's name and a sentence, and nothing changes. At the end (and\n"
    "on quit, or at the end of the input) the game is saved as a record; hints\n"
    "and the aid are marked in it as comments.\n"
    "\n"
    "  --seat N          your seat (default 1)\n"
    "  --name NAME       your name in the record (default: you)\n"
    "  --bot BOT         the bot of every other seat: basic (default), casual,\n"
    "                    casual:0.8, expert, master, random (docs/BOTS.md)\n"
    "  --bots LIST       a bot per other seat, in seat order: casual,basic,...\n"
    "  --seed S          seed of the deal (default: from the clock)\n"
    "  --dealer N        the dealer's seat (default 1)\n"
    RULE_OPTIONS_HELP
    "  --record FILE     where the record goes (default lit-play-SEED.lit)\n"
    "  --resume FILE     go on with a saved game (its bots from its names)\n"
    "  --pace MS         wait MS between bots' moves (default 600 at the table,\n"
    "                    0 in plain mode)\n"
    "  --instant         no wait\n"
    "  --aid             the scoresheet aid on from the start\n"
    "  --plain           plain mode even in a terminal\n"
    "  --help            this text\n";

static void print_cards(const char *label, int deck, uint64_t cards)
{
    printf("%s:", label);
    while (cards)
        printf(" %s", lit_card_name(deck, lit_pop_lsb(&cards)));
    printf("\n");
}

static void print_event(const Play *pl, const LitEvent *e, uint32_t n)
{
    char line[LIT_LINE_MAX];
    if (lit_event_format(&pl->rules, e, (int)n, line, sizeof line) > 0)
        printf("%s\n", line);
}

static void print_sizes(const LitPublic *p)
{
    printf("sizes:");
    for (int s = 0; s < p->rules.players; s++)
        printf(" %d:%d", s + 1, p->counts[s]);
    printf("\n");
}

static void print_score(const LitPublic *p)
{
    printf("score: A %d, B %d\n", p->score[0], p->score[1]);
}

static void print_legal(const Play *pl)
{
    LitView v;
    LitAction legal[LIT_MAX_LEGAL];
    lit_view_make(&v, &pl->g, &pl->log, pl->me);
    int n = lit_view_legal(&v, legal, LIT_MAX_LEGAL);
    printf("legal:");
    for (int i = 0; i < n; i++) {
        char text[LIT_LINE_MAX];
        play_move_text(pl, &legal[i], text, sizeof text);
        printf("%s %s", i ? "," : "", text);
    }
    unsigned sets = lit_claimable(&pl->g.pub, pl->me);
    if (sets) {
        printf("%s claims of", n ? ";" : "");
        for (; sets; sets &= sets - 1)
            printf(" %s", lit_set_name(pl->rules.deck, lit_lsb(sets)));
    }
    printf("\n");
}

static void sheet(Play *pl)
{
    LitView v;
    LitKnow k;
    LitOdds *o = malloc(sizeof *o);
    if (!o) {
        printf("error: out of memory\n");
        return;
    }
    lit_view_make(&v, &pl->g, &pl->log, pl->me);
    if (play_odds(pl, &v, &k, o) != LIT_OK) {
        printf("error: the scoresheet cannot be worked out\n");
        free(o);
        return;
    }
    infer_print_grid(&k, o, 0);
    free(o);
}

/* A command line as a move of seat me: the notation's words, or their short
 * forms (ask 4 Qh, pass 3, choose 3, claim ...). 0, or the parser's status. */
static int parse_command(const Play *pl, const char *cmd, LitAction *out)
{
    char words[8][64];
    int n = 0;
    const char *p = cmd;
    while (*p) {
        while (*p == ' ' || *p == '\t')
            p++;
        if (!*p)
            break;
        size_t len = strcspn(p, " \t");
        /* no move has more than 8 words (a claim of 6 cards at 6 seats), nor
         * a word this long: whatever does is no move */
        if (n == 8 || len >= sizeof words[0])
            return LIT_SYNTAX;
        memcpy(words[n], p, len);
        words[n][len] = 0;
        n++;
        p += strcspn(p, " \t");
    }
    char line[LIT_LINE_MAX];
    int has_for = n >= 3 && strcmp(words[2], "for") == 0;
    int has_to = n >= 2 && strcmp(words[1], "to") == 0;
    if (n >= 1 && (strcmp(words[0], "ask") == 0 || strcmp(words[0], "asks") == 0)) {
        if (n != 3 + has_for)
            return LIT_SYNTAX; /* a word missing or one too many */
        snprintf(line, sizeof line, "%d asks %s for %s", pl->me + 1, words[1],
                 words[2 + has_for]);
    } else if (n >= 1 && (strcmp(words[0], "pass") == 0 || strcmp(words[0], "passes") == 0)) {
        if (n != 2 + has_to)
            return LIT_SYNTAX;
        snprintf(line, sizeof line, "%d passes to %s", pl->me + 1, words[1 + has_to]);
    } else if (n == 2 && (strcmp(words[0], "choose") == 0 || strcmp(words[0], "chooses") == 0)) {
        snprintf(line, sizeof line, "%d chooses %s", pl->me + 1, words[1]);
    } else if (n >= 1 && (strcmp(words[0], "claim") == 0 || strcmp(words[0], "claims") == 0)) {
        const char *rest = strstr(cmd, words[0]) + strlen(words[0]);
        snprintf(line, sizeof line, "%d claims%s", pl->me + 1, rest);
    } else {
        return LIT_SYNTAX;
    }
    LitEvent e;
    int st = lit_move_parse(&pl->rules, line, strlen(line), &e);
    /* a claim's outcome (or its true holders) is the referee's to give:
     * written by the player, it would be taken for nothing */
    if (st == LIT_OK && (e.answer != LIT_UNKNOWN || e.truth[0] != LIT_NOBODY))
        return LIT_OUTCOME_MISMATCH;
    if (st == LIT_OK)
        *out = e.action;
    return st;
}

/* A command other than a move (hand, sizes, score, history, legal, aid,
 * sheet, hint, help), answered: 1 when w was one, 0 when not. */
static int info_command(Play *pl, const char *w)
{
    if (strcmp(w, "help") == 0) {
        printf("moves: asks 4 for Qh | claims lh 1:2h,3h 3:4h,5h,6h,7h | passes to 3 | "
               "chooses 3\nother: hand sizes score history legal sheet aid on|off hint "
               "quit\n");
    } else if (strcmp(w, "hand") == 0) {
        print_cards("hand", pl->rules.deck, pl->g.hands[pl->me]);
    } else if (strcmp(w, "sizes") == 0) {
        /* the rules' display option: shown, on request (a public
         * request, marked in the record, as in 000), or hidden */
        if (pl->rules.counts == LIT_COUNTS_HIDDEN) {
            printf("error: sizes_hidden: hand sizes are not shown under these rules\n");
        } else {
            if (pl->rules.counts == LIT_COUNTS_REQUEST)
                play_mark(pl, "%s", "hand sizes asked for");
            print_sizes(&pl->g.pub);
        }
    } else if (strcmp(w, "score") == 0) {
        print_score(&pl->g.pub);
    } else if (strcmp(w, "history") == 0) {
        for (uint32_t i = 0; i < pl->log.len; i++)
            print_event(pl, &pl->log.events[i], i + 1);
        printf("(%u actions)\n", pl->log.len);
    } else if (strcmp(w, "legal") == 0) {
        print_legal(pl);
    } else if (strcmp(w, "aid on") == 0 || strcmp(w, "aid off") == 0) {
        int on = w[5] == 'n';
        if (on != pl->aid)
            play_mark(pl, "aid %s", on ? "on" : "off");
        pl->aid = on;
        printf("aid: %s\n", on ? "on" : "off");
    } else if (strcmp(w, "sheet") == 0) {
        if (!pl->aid)
            printf("error: aid_off: the scoresheet aid is off (turn it on with: aid on)\n");
        else
            sheet(pl);
    } else if (strcmp(w, "hint") == 0) {
        char text[LIT_LINE_MAX], why[32];
        if (play_hint(pl, text, sizeof text, why, sizeof why))
            printf("error: no hint now\n");
        else
            printf("hint: %s%s\n", text, why);
    } else {
        return 0;
    }
    return 1;
}

/* A move of the player, played if the referee takes it (its event printed,
 * and the hand after an ask or a claim); else the rule that refuses it.
 * 1 when played. */
static int move_command(Play *pl, const char *w)
{
    LitAction a;
    int st = parse_command(pl, w, &a);
    if (st == LIT_OUTCOME_MISMATCH) { /* parse_command's: an outcome written */
        printf("error: outcome_mismatch: a claim is written without its outcome: the referee "
               "gives it\n");
        return 0;
    }
    if (st == LIT_OK)
        st = play_act(pl, &a);
    if (st == LIT_OK) {
        print_event(pl, &pl->log.events[pl->log.len - 1], pl->log.len);
        if (a.kind == LIT_ASK || a.kind == LIT_CLAIM)
            print_cards("hand", pl->rules.deck, pl->g.hands[pl->me]);
        return 1;
    }
    if (st == LIT_SYNTAX)
        printf("error: syntax: that is no move or command (try: help)\n");
    else
        printf("error: %s: %s\n", lit_status_name(st), lit_status_text(st));
    return 0;
}

/* The next command line of standard input, without its blanks in front:
 * NULL at the end of the input (or a signal to stop). Blank lines are
 * skipped; a line too long, or holding a NUL byte, is refused and
 * skipped. */
static char *read_command(char *cmd, size_t cap)
{
    for (;;) {
        size_t len = 0;
        int c = EOF, nul = 0;
        if (ferror(stdout)) /* whoever read the answers has gone */
            return NULL;
        while (!play_stopped() && (c = getchar()) != EOF && c != '\n') {
            nul |= c == 0;
            if (len < cap - 1)
                cmd[len] = (char)c;
            len++;
        }
        if (play_stopped() || (c == EOF && len == 0))
            return NULL;
        if (len >= cap - 1 || nul) {
            if (nul)
                printf("error: syntax: a command holds no NUL byte\n");
            else
                printf("error: too_long: a command is at most %d bytes\n", LIT_LINE_MAX);
            fflush(stdout); /* a program reading the answers waits for it */
            continue;
        }
        while (len > 0 && (cmd[len - 1] == '\r' || cmd[len - 1] == ' ' || cmd[len - 1] == '\t'))
            len--;
        cmd[len] = 0;
        /* a command in capitals or with runs of blanks is the same command
         * (cards and sets read in any case already) */
        size_t k = 0;
        for (size_t i = 0; i < len; i++) {
            char ch = cmd[i] == '\t' ? ' ' : cmd[i];
            if (ch == ' ' && (k == 0 || cmd[k - 1] == ' '))
                continue;
            cmd[k++] = ch >= 'A' && ch <= 'Z' ? (char)(ch - 'A' + 'a') : ch;
        }
        cmd[k] = 0;
        char *w = cmd + strspn(cmd, " \t");
        if (*w)
            return w;
    }
}

/* The player's turn: commands until a move is played (0), or quit or the
 * end of the input (1). */
static int your_turn(Play *pl)
{
    char cmd[LIT_LINE_MAX + 2];
    printf("your turn: %s\n", lit_phase_name(pl->g.pub.phase));
    fflush(stdout);
    for (;;) {
        char *w = read_command(cmd, sizeof cmd);
        if (!w || strcmp(w, "quit") == 0)
            return 1;
        if (!info_command(pl, w) && move_command(pl, w))
            return 0;
        fflush(stdout);
    }
}

/* The result line and what it means for the player's team. */
static void print_result(const Play *pl)
{
    printf("result: %s  score: A %d, B %d\n", lit_result_name(pl->g.pub.result),
           pl->g.pub.score[0], pl->g.pub.score[1]);
    int mine = lit_team_of(pl->me);
    const char *words = pl->g.pub.result == LIT_DRAW ? "a draw"
                        : pl->g.pub.result == (mine ? LIT_WIN_B : LIT_WIN_A) ? "your team wins"
                        : pl->g.pub.result == LIT_ABORTED ? "stopped at the action bound"
                                                          : "your team loses";
    printf("%s\n", words);
}

/* Plays until the end or quit: 0 at the end, 1 on quit (or end of input). */
static int game_loop(Play *pl)
{
    while (pl->g.pub.result == LIT_ONGOING) {
        int t = pl->g.pub.turn;
        if (play_stopped())
            return 1;
        if (t != pl->me) {
            if (play_bot_move(pl, 1)) {
                say("play: the bot of seat %d failed to act", t + 1);
                return 1;
            }
            print_event(pl, &pl->log.events[pl->log.len - 1], pl->log.len);
            fflush(stdout);
            continue;
        }
        if (your_turn(pl))
            return 1;
        fflush(stdout);
    }
    print_result(pl);
    return 0;
}

/* Bots from a list "casual,basic" for the other seats in seat order. */
static int take_bots(Play *pl, const char *list)
{
    LitBotSpec specs[LIT_MAX_PLAYERS];
    const char *bad;
    int n, others = pl->rules.players - 1;
    int st = bot_list_parse(list, specs, LIT_MAX_PLAYERS, &n, &bad);
    if (st == LIT_TOO_LONG || (st == LIT_OK && n > others)) {
        say("--bots: more bots than the %d other seats", others);
        return -1;
    }
    if (st != LIT_OK) {
        say("--bots: %s: %s: '%.*s'", lit_status_name(st), lit_status_text(st),
            (int)strcspn(bad, ","), bad);
        return -1;
    }
    if (n < others) {
        say("--bots: %d bots for %d other seats", n, others);
        return -1;
    }
    for (int s = 0, k = 0; s < pl->rules.players; s++)
        if (s != pl->me)
            pl->spec[s] = specs[k++];
    return 0;
}

/* The options of `lit play` that do not go straight into the session. */
typedef struct PlayArgs {
    RuleArgs ra;
    uint64_t seat, dealer, pace;
    const char *bot, *bots, *resume;
    int seat_given, aid, plain, pace_given, name_given;
    const char *fixed; /* the first option a saved game decides (rules,
                        * seed, dealer, bots): refused with --resume */
} PlayArgs;

/* opt, an option a saved game decides, was given (the first is named). */
static void decided(PlayArgs *pa, const char *opt)
{
    if (!pa->fixed)
        pa->fixed = opt;
}

/* One option of getopt_long: -1 when taken, else the exit status (0 after
 * --help, 2 with a message). */
static int take_option(Play *pl, PlayArgs *pa, int opt)
{
    switch (opt) {
    case 'P':
        pa->plain = 1;
        break;
    case 'S':
        if (parse_u64(optarg, &pa->seat) || pa->seat < 1 || pa->seat > LIT_MAX_PLAYERS) {
            say("--seat: not a seat: '%s'", optarg);
            return 2;
        }
        pa->seat_given = 1;
        break;
    case 'n':
        if (lit_name_check_new(optarg, strlen(optarg), LIT_NAME_MAX) != LIT_OK) {
            say("--name: bad_name: 1 to %d bytes of UTF-8 showing something, no control or "
                "format characters, no space at either end",
                LIT_NAME_MAX);
            return 2;
        }
        snprintf(pl->name, sizeof pl->name, "%s", optarg);
        pa->name_given = 1;
        break;
    case 'b':
        pa->bot = optarg;
        decided(pa, "--bot");
        break;
    case 'B':
        pa->bots = optarg;
        decided(pa, "--bots");
        break;
    case 's':
        if (parse_u64(optarg, &pl->seed)) {
            say("--seed: not a number: '%s'", optarg);
            return 2;
        }
        pl->has_seed = 1;
        decided(pa, "--seed");
        break;
    case 'd':
        if (parse_u64(optarg, &pa->dealer) || pa->dealer < 1 || pa->dealer > LIT_MAX_PLAYERS) {
            say("--dealer: not a seat: '%s'", optarg);
            return 2;
        }
        decided(pa, "--dealer");
        break;
    case 'r':
        pl->record = optarg;
        break;
    case 'R':
        pa->resume = optarg;
        break;
    case 'p':
        if (parse_u64(optarg, &pa->pace) || pa->pace > 60000) {
            say("--pace: not a number of milliseconds up to 60000: '%s'", optarg);
            return 2;
        }
        pa->pace_given = 1;
        break;
    case 'i':
        pa->pace = 0;
        pa->pace_given = 1;
        break;
    case 'a':
        pa->aid = 1;
        break;
    case OPT_HELP:
        fputs(usage, stdout);
        return 0;
    default:
        fputs(usage, stderr);
        return 2;
    }
    return -1;
}

/* The options: -1 when all are taken, else the exit status. */
static int take_options(Play *pl, PlayArgs *pa, int argc, char **argv)
{
    static const struct option longs[] = {
        RULE_LONG_OPTIONS,
        {"plain", no_argument, NULL, 'P'},
        {"seat", required_argument, NULL, 'S'},
        {"name", required_argument, NULL, 'n'},
        {"bot", required_argument, NULL, 'b'},
        {"bots", required_argument, NULL, 'B'},
        {"seed", required_argument, NULL, 's'},
        {"dealer", required_argument, NULL, 'd'},
        {"record", required_argument, NULL, 'r'},
        {"resume", required_argument, NULL, 'R'},
        {"pace", required_argument, NULL, 'p'},
        {"instant", no_argument, NULL, 'i'},
        {"aid", no_argument, NULL, 'a'},
        {"help", no_argument, NULL, OPT_HELP},
        {NULL, 0, NULL, 0}};
    int opt;
    while ((opt = getopt_long(argc, argv, "", longs, NULL)) != -1) {
        int took = rule_args_take(&pa->ra, opt, optarg);
        if (took < 0)
            return 2;
        if (took) {
            decided(pa, opt == OPT_RULES     ? "--rules"
                        : opt == OPT_PLAYERS ? "--players"
                                             : "--rule");
            continue;
        }
        int rc = take_option(pl, pa, opt);
        if (rc >= 0)
            return rc;
    }
    /* a saved game has its rules, seed, dealer and bots: an option that
     * would change one is a mistake to say, not to drop */
    if (pa->resume && pa->fixed) {
        say("%s: a resumed game keeps its own rules, seed, dealer and bots", pa->fixed);
        return 2;
    }
    return no_operands("play", argc, argv) ? 2 : -1;
}

/* A new game from the options: its rules, your seat, the seed (from the
 * clock unless given), the bots, the deal and where its record goes. 0, or
 * -1 with a message. */
static int new_game(Play *pl, const PlayArgs *pa)
{
    if (rule_args_build(&pa->ra, &pl->rules))
        return -1;
    if (pa->seat > pl->rules.players || pa->dealer > pl->rules.players) {
        say("--%s: there are %d seats", pa->seat > pl->rules.players ? "seat" : "dealer",
            pl->rules.players);
        return -1;
    }
    pl->me = (int)pa->seat - 1;
    if (!pl->has_seed) {
        pl->seed = (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 32);
        pl->has_seed = 1;
    }
    LitBotSpec one;
    int st = lit_bot_spec_parse(&one, pa->bot, strlen(pa->bot));
    if (st != LIT_OK) {
        say("--bot: %s: %s: '%s'", lit_status_name(st), lit_status_text(st), pa->bot);
        return -1;
    }
    for (int s = 0; s < pl->rules.players; s++)
        pl->spec[s] = one;
    if (pa->bots && take_bots(pl, pa->bots))
        return -1;
    lit_game_new(&pl->g, &pl->rules, pl->seed, (int)pa->dealer - 1);
    pl->start = pl->g;
    if (!pl->record) { /* a name of its own: a game saved before is never replaced */
        struct stat there;
        unsigned long long seed = (unsigned long long)pl->seed;
        snprintf(pl->record_buf, sizeof pl->record_buf, "lit-play-%llu.lit", seed);
        for (int k = 2; lstat(pl->record_buf, &there) == 0 && k < 10000; k++)
            snprintf(pl->record_buf, sizeof pl->record_buf, "lit-play-%llu-%d.lit", seed, k);
        pl->record = pl->record_buf;
    }
    return 0;
}

/* Plain mode: the game and its seats, the history so far and your hand,
 * then the game; the record saved at the end. The exit status. */
static int play_plain(Play *pl, const PlayArgs *pa)
{
    char rules_text[LIT_RULES_TEXT_MAX];
    lit_rules_format(&pl->rules, rules_text, sizeof rules_text);
    printf("game: %s, seed %llu, dealer %d; you are seat %d (team %c)%s\n", rules_text,
           (unsigned long long)pl->seed, pl->g.pub.dealer + 1, pl->me + 1,
           "AB"[lit_team_of(pl->me)], pa->resume ? ", resumed" : "");
    printf("seats:");
    for (int s = 0; s < pl->rules.players; s++) {
        char name[LIT_BOT_TEXT_MAX + LIT_NAME_MAX + 16];
        lit_bot_spec_format(&pl->spec[s], name, sizeof name);
        if (s == pl->me)
            snprintf(name, sizeof name, "%s", pl->name);
        else if (pl->kept[s][0]) /* a resumed game's other player, now a bot */
            snprintf(name, sizeof name, "%s (played by basic)", pl->kept[s]);
        printf(" %d %s (%c)%s", s + 1, name, "AB"[lit_team_of(s)],
               s + 1 < pl->rules.players ? "," : "");
    }
    printf("\n");
    for (uint32_t i = 0; i < pl->log.len; i++)
        print_event(pl, &pl->log.events[i], i + 1);
    print_cards("hand", pl->rules.deck, pl->g.hands[pl->me]);
    /* a signal to stop saves the game as quit does (play_catch_stops) */
    play_catch_stops();
    int quit = game_loop(pl);
    int sig = play_stopped();
    if (sig)
        printf("stopped by signal %d after %u actions\n", sig, pl->log.len);
    else if (quit)
        printf("quit after %u actions\n", pl->log.len);
    int rc = play_save(pl) ? 1 : 0;
    return sig ? 128 + sig : rc;
}

/* The full-screen table (at 600 ms a bot's move unless a pace is given),
 * then a line of how it ended; the record saved. The exit status. */
static int play_at_table(Play *pl, const PlayArgs *pa)
{
    if (!pa->pace_given)
        pl->pace_ms = 600;
    int quit_table = table_loop(pl), sig = play_stopped();
    if (sig)
        printf("stopped by signal %d after %u actions, score A %d : B %d\n", sig, pl->log.len,
               pl->g.pub.score[0], pl->g.pub.score[1]);
    else if (quit_table)
        printf("quit after %u actions, score A %d : B %d\n", pl->log.len, pl->g.pub.score[0],
               pl->g.pub.score[1]);
    else
        printf("over after %u actions: %s, score A %d : B %d\n", pl->log.len,
               lit_result_name(pl->g.pub.result), pl->g.pub.score[0], pl->g.pub.score[1]);
    int rc = play_save(pl) ? 1 : 0;
    return sig ? 128 + sig : rc;
}

/* The session from the options: a new game or a resumed one, its bots
 * and the aid. 0, or the exit status (messages printed). */
static int start_session(Play *pl, const PlayArgs *pa)
{
    pl->pace_ms = (long)pa->pace;
    if (!(pl->work = malloc(LIT_BOT_WORK)) || log_new(&pl->log)) {
        say("out of memory");
        return 1;
    }
    if (pa->resume) {
        if (play_resume(pl, pa->resume, pa->seat_given ? (int)pa->seat - 1 : -1,
                        pa->name_given))
            return 1;
    } else if (new_game(pl, pa)) {
        return 2;
    }
    /* said now, not after a game that could not be kept */
    if (save_possible(pl->record)) {
        record_save_failed(pl->record, 1, errno);
        return 1;
    }
    play_start_bots(pl);
    if (pa->aid && !pl->aid) {
        pl->aid = 1;
        play_mark(pl, "aid %s", "on");
    }
    return 0;
}

int cmd_play(int argc, char **argv)
{
    Play *pl = calloc(1, sizeof *pl);
    if (!pl) {
        say("out of memory");
        return 1;
    }
    PlayArgs pa;
    memset(&pa, 0, sizeof pa);
    pa.seat = 1;
    pa.dealer = 1;
    pa.bot = "basic";
    snprintf(pl->name, sizeof pl->name, "you");
    int rc = take_options(pl, &pa, argc, argv);
    if (rc < 0) {
        rc = start_session(pl, &pa);
        int table = rc == 0 && !pa.plain && isatty(0) && isatty(1);
        if (table && !table_usable()) {
            const char *term = getenv("TERM");
            say("the terminal (TERM=%s) cannot show the table: plain mode, one command a line "
                "(as --plain)",
                term && *term ? term : "unset");
            table = 0;
        }
        if (rc == 0)
            rc = table ? play_at_table(pl, &pa) : play_plain(pl, &pa);
    }
    free(pl->work);
    free(pl->log.events);
    free(pl);
    return rc;
}
