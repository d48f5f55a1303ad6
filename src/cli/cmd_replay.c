/* cmd_replay.c - `lit replay`: checks a record action by action. */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cmds.h"
#include "common.h"
#include "literature/infer.h"
#include "literature/notation.h"
#include "literature/status.h"

static const char usage[] =
    "usage: lit replay [--trace] FILE\n"
    "\n"
    "Reads a record (docs/NOTATION.md; - for standard input), checks every\n"
    "action against the rules, prints the game event by event and the final\n"
    "score. At the first malformed or illegal line it stops and exits 1 with\n"
    "FILE:LINE: status: reason. A record with no known deal must also fit some\n"
    "deal (status inconsistent where it stops fitting).\n"
    "\n"
    "  --trace   for machine checks: the record may hold illegal actions; print\n"
    "            one JSON object per action, after one for the start (n 0):\n"
    "            {\"n\":k, \"status\":\"ok\" or the status name,\n"
    "            \"result\":\"hit\"|\"miss\"|null, \"outcome\":<claim outcome>|null,\n"
    "            \"turn\":<seat>|null, \"phase\":<phase>, \"score\":[a, b],\n"
    "            \"auto\":{\"action\":\"pass\"|\"choose\", \"seat\", \"target\"}|null,\n"
    "            \"by\":\"timeout\"|\"away\"|\"fallback\"|null (the record's mark)};\n"
    "            refused actions change nothing and the replay goes on; then\n"
    "            {\"end\":\"A\"|\"B\"|\"draw\"|\"aborted\"|\"unfinished\", \"score\",\n"
    "            \"actions\"}. A malformed line ends it (exit 1) with\n"
    "            {\"error\":<status>, \"line\":L, \"text\"} after the lines before.\n"
    "  --help    this text\n";

static void print_result(const LitPublic *p)
{
    const char *how;
    switch (p->result) {
    case LIT_WIN_A: how = "team A wins"; break;
    case LIT_WIN_B: how = "team B wins"; break;
    case LIT_DRAW: how = "a draw"; break;
    case LIT_ABORTED: how = "aborted at the action bound"; break;
    default: how = "unfinished"; break;
    }
    printf("result: %s, score %d-%d after %u actions\n", how, p->score[0],
           p->score[1], p->actions);
}

/* A failure in a trace: one JSON object naming the line and the reason
 * (and the usual message on stderr for a person). */
static void trace_error(const char *file, uint32_t line, int st)
{
    printf("{\"error\":\"%s\",\"line\":%u,\"text\":\"%s\"}\n", lit_status_name(st), line,
           lit_status_text(st));
    fail_at(file, line, st);
}

/* trace_error for a parse error, with the tag a missing_tag misses (a
 * tag's name is letters and digits: nothing to escape). */
static void trace_parse_error(const char *file, const LitParseError *err)
{
    if (!err->tag[0]) {
        trace_error(file, err->line, err->status);
        return;
    }
    printf("{\"error\":\"%s\",\"line\":%u,\"text\":\"%s\",\"tag\":\"%.*s\"}\n",
           lit_status_name(err->status), err->line, lit_status_text(err->status),
           (int)sizeof err->tag, err->tag);
    fail_parse(file, err);
}

/* A trace line: action n (0: the start) with its status, what it made
 * known, the position after it (turn, phase, score) and the pass or choice
 * the engine then made itself, if any (docs/NOTATION.md). */
/* Who chose an action when its seat did not (LitBy), as the trace names it. */
static const char *const by_names[LIT_BY_KINDS] = {
    [LIT_BY_SEAT] = "null", [LIT_BY_TIMEOUT] = "\"timeout\"", [LIT_BY_AWAY] = "\"away\"",
    [LIT_BY_FALLBACK] = "\"fallback\""};

static void trace_line(uint32_t n, int st, const LitEvent *e, int by, const LitPublic *before,
                       const LitPublic *p)
{
    const char *result = "null", *outcome = "null";
    char rbuf[16], obuf[16];
    int applied = n > 0 && st == LIT_OK;
    if (applied && e->action.kind == LIT_ASK) {
        snprintf(rbuf, sizeof rbuf, "\"%s\"", lit_answer_name(e->answer));
        result = rbuf;
    }
    if (applied && e->action.kind == LIT_CLAIM) {
        snprintf(obuf, sizeof obuf, "\"%s\"", lit_answer_name(e->answer));
        outcome = obuf;
    }
    printf("{\"n\":%u,\"status\":\"%s\",\"result\":%s,\"outcome\":%s,", n,
           lit_status_name(st), result, outcome);
    if (p->turn == LIT_NOBODY)
        printf("\"turn\":null,");
    else
        printf("\"turn\":%d,", p->turn + 1);
    printf("\"phase\":\"%s\",\"score\":[%d,%d],\"auto\":", lit_phase_name(p->phase), p->score[0],
           p->score[1]);
    LitAction made;
    if (applied && lit_public_made(before, e, &made))
        printf("{\"action\":\"%s\",\"seat\":%d,\"target\":%d}",
               made.kind == LIT_PASS ? "pass" : "choose", made.seat + 1, made.target + 1);
    else
        printf("null");
    printf(",\"by\":%s}\n", by_names[by]);
}

/* The trace's last line: how the game stands after the record. */
static void trace_end(const LitPublic *p)
{
    const char *how = p->result == LIT_ONGOING ? "unfinished" : lit_result_name(p->result);
    printf("{\"end\":\"%s\",\"score\":[%d,%d],\"actions\":%u}\n", how, p->score[0], p->score[1],
           p->actions);
}

/* `lit replay --trace`: every action of the record, legal or not, a line
 * each, between the start and the end; a malformed line ends it with an
 * error line (the lines before it traced). 0, or 1. */
static int trace(const char *file)
{
    Loaded in;
    LitParseError err;
    int read = record_read(file, &in, &err), rc = 1;
    if (read < 0 || (read > 0 && !err.moves)) {
        if (read > 0)
            trace_parse_error(file, &err);
        record_free(&in);
        return 1;
    }
    const LitRecord *rec = &in.rec;
    LitReplay rp;
    int st = lit_replay_start(&rp, rec);
    if (st != LIT_OK) {
        trace_error(file, rec->deal_line ? rec->deal_line : 1, st);
        goto done;
    }
    trace_line(0, LIT_OK, NULL, LIT_BY_SEAT, NULL, &rp.game.pub);
    for (uint32_t i = 0; i < rec->n_events; i++) {
        LitPublic before = rp.game.pub;
        LitEvent e;
        st = lit_replay_step(&rp, &rec->events[i], &e);
        trace_line(i + 1, st, &e, in.by[i] < LIT_BY_KINDS ? in.by[i] : LIT_BY_SEAT, &before,
                   &rp.game.pub);
    }
    if (read > 0) {
        trace_parse_error(file, &err);
        goto done;
    }
    /* a Result or Score the game does not end with: the record's error, as
     * lit replay says, in place of the end */
    uint32_t line = 0;
    if ((st = lit_replay_check_result(&rp, rec, &line)) != LIT_OK) {
        trace_error(file, line, st);
        goto done;
    }
    trace_end(&rp.game.pub);
    rc = 0;
done:
    record_free(&in);
    return rc;
}

/* The rules, the dealer, whether the deal is known, and the seats. */
static void print_header(const LitRecord *rec, int known)
{
    char rules[LIT_RULES_TEXT_MAX];
    lit_rules_format(&rec->rules, rules, sizeof rules);
    printf("rules: %s; dealer %d; deal %s\n", rules, rec->dealer + 1,
           known ? "known" : "unknown (public information only)");
    for (int s = 0; s < rec->rules.players; s++)
        printf("seat %d: team %c%s%s\n", s + 1, "AB"[lit_team_of(s)],
               rec->names[s][0] ? ", " : "", rec->names[s]);
}

int cmd_replay(int argc, char **argv)
{
    static const struct option longs[] = {{"trace", no_argument, NULL, 't'},
                                          {"help", no_argument, NULL, OPT_HELP},
                                          {NULL, 0, NULL, 0}};
    int trace_mode = 0, opt;
    while ((opt = getopt_long(argc, argv, "", longs, NULL)) != -1) {
        if (opt == 't') {
            trace_mode = 1;
        } else if (opt == OPT_HELP) {
            fputs(usage, stdout);
            return 0;
        } else {
            fputs(usage, stderr);
            return 2;
        }
    }
    if (argc - optind != 1) {
        if (argc == optind)
            say("replay: give one FILE");
        else
            say("replay: unexpected argument '%s'", argv[optind + 1]);
        fputs(usage, stderr);
        return 2;
    }
    const char *file = argv[optind];
    if (trace_mode)
        return trace(file);
    Loaded in;
    int rc = 1;
    if (record_load(file, &in))
        goto done;
    LitRecord rec = in.rec;
    const uint32_t *lines = in.lines;
    LitReplay rp;
    int st = lit_replay_start(&rp, &rec);
    if (st != LIT_OK) {
        fail_at(file, rec.deal_line ? rec.deal_line : 1, st);
        goto done;
    }
    print_header(&rec, rp.known);
    /* Without a deal, what everyone can deduce must stay consistent: a
     * record no deal fits is refused where that shows (docs/DEDUCTION.md). */
    LitKnow *know = NULL;
    LitEvent *applied = NULL;
    if (!rp.known) {
        know = malloc(sizeof *know);
        applied = malloc(sizeof *applied * (rec.n_events ? rec.n_events : 1));
        if (!know || !applied ||
            lit_know_start(know, &rec.rules, rec.dealer, LIT_NOBODY, 0) != LIT_OK) {
            say("out of memory");
            free(know);
            free(applied);
            goto done;
        }
    }
    for (uint32_t i = 0; i < rec.n_events; i++) {
        LitEvent e;
        st = lit_replay_step(&rp, &rec.events[i], &e);
        if (st == LIT_OK && know && (lit_know_apply(know, &e) != LIT_OK || !know->consistent))
            st = LIT_INCONSISTENT;
        if (st != LIT_OK) {
            fail_at(file, lines[i], st);
            free(know);
            free(applied);
            goto done;
        }
        if (applied)
            applied[i] = e;
        char line[LIT_LINE_MAX];
        lit_event_format(&rec.rules, &e, (int)i + 1, line, sizeof line);
        const LitPublic *p = &rp.game.pub;
        if (e.action.kind == LIT_CLAIM)
            printf("%s  [score %d-%d]\n", line, p->score[0], p->score[1]);
        else
            printf("%s\n", line);
    }
    /* Counting finds what certain knowledge misses: no deal at all, from
     * the action where it stopped fitting. */
    uint32_t none = know && rec.n_events && !lit_game_over(&rp.game)
                        ? history_impossible_at(&rec.rules, rec.dealer, LIT_NOBODY, 0, applied,
                                                rec.n_events)
                        : 0;
    free(know);
    free(applied);
    if (none) {
        fail_at(file, lines[none - 1], LIT_INCONSISTENT);
        goto done;
    }
    uint32_t line = 0;
    st = lit_replay_check_result(&rp, &rec, &line);
    if (st != LIT_OK) {
        fail_at(file, line, st);
        goto done;
    }
    print_result(&rp.game.pub);
    rc = 0;
done:
    record_free(&in);
    return rc;
}
