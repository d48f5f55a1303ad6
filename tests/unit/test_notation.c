/* test_notation.c - game records (docs/NOTATION.md): reading, the canonical
 * writer, every parse error with its status and line, names, the replay
 * helpers with and without a known deal, and round trips of whole games. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"
#include "literature/rng.h"

enum { CAP = 4096 };

/* Criterion runs every test in its own process: the buffers are private. */
static LitEvent ev1[CAP], ev2[CAP];
static uint32_t ln1[CAP], ln2[CAP];
static char text1[LIT_RECORD_TEXT_MAX], text2[LIT_RECORD_TEXT_MAX];
static char big[LIT_RECORD_TEXT_MAX + 4096];

/* ---- the example of docs/NOTATION.md --------------------------------------- */

#define EX_EVENT "[Event \"Friday night\"]\n"
#define EX_RULES "[Rules \"classic\"]\n[Dealer \"1\"]\n"
#define EX_SEED "[Seed \"1\"]\n"
#define EX_NAMES "[Name1 \"Asha\"]\n[Name2 \"Ben \\\"the fish\\\"\"]\n"
#define EX_HANDS                                                               \
    "[Hand1 \"2c 5c 4d 6d 7h Jh 3s As\"]\n"                                    \
    "[Hand2 \"7c Tc 7d 9d Kd Ad 6h 7s\"]\n"                                    \
    "[Hand3 \"4c 6c Ac Qd 5h 2s 6s 9s\"]\n"                                    \
    "[Hand4 \"Jc Kc 3d 5d Th Kh 4s Qs\"]\n"                                    \
    "[Hand5 \"3c Qc 2d Jd 3h 4h Ah 5s\"]\n"                                    \
    "[Hand6 \"9c Td 2h 9h Qh Ts Js Ks\"]\n"
#define EX_RESULT "[Result \"*\"]\n[Score \"1-1\"]\n"
#define EX_MOVES                                                               \
    "1. 1 asks 2 for 3c: miss\n"                                               \
    "2. 2 asks 1 for 5c: hit\n"                                                \
    "3. 2 asks 3 for 4c: hit\n"                                                \
    "4. 2 asks 5 for 6c: miss\n"                                               \
    "5. 5 asks 4 for 4s: hit\n"                                                \
    "6. 5 asks 2 for 7s: hit\n"                                                \
    "7. 5 claims low-spades 1:3s 3:2s,6s 5:4s,5s,7s won\n"                     \
    "8. 5 claims high-hearts 1:Jh 3:9h,Th,Qh,Kh 5:Ah lost (4:Th,Kh 6:9h,Qh)\n"
/* The same actions with no answers or outcomes. */
#define EX_BARE_MOVES                                                          \
    "1. 1 asks 2 for 3c\n"                                                     \
    "2. 2 asks 1 for 5c\n"                                                     \
    "3. 2 asks 3 for 4c\n"                                                     \
    "4. 2 asks 5 for 6c\n"                                                     \
    "5. 5 asks 4 for 4s\n"                                                     \
    "6. 5 asks 2 for 7s\n"                                                     \
    "7. 5 claims low-spades 1:3s 3:2s,6s 5:4s,5s,7s\n"                         \
    "8. 5 claims high-hearts 1:Jh 3:9h,Th,Qh,Kh 5:Ah\n"

static const char EXAMPLE[] = EX_EVENT EX_RULES EX_SEED EX_NAMES EX_HANDS
    EX_RESULT "\n" EX_MOVES;

/* Two lines of header: the minimal one. */
#define H "[Rules \"classic\"]\n[Dealer \"1\"]\n"

/* ---- helpers ----------------------------------------------------------------- */

static int parse_with(LitRecord *rec, LitEvent *ev, uint32_t *lines,
                      uint32_t cap, const char *text, size_t len,
                      LitParseError *err)
{
    lit_record_init(rec, ev, lines, cap);
    return lit_record_parse(rec, text, len, err);
}

static void parse_ok(LitRecord *rec, const char *text)
{
    LitParseError err = {12345, 12345, 12345, "junk"};
    int st = parse_with(rec, ev1, ln1, CAP, text, strlen(text), &err);
    cr_assert_eq(st, LIT_OK, "parse: %s at line %u of:\n%s",
                 lit_status_name(st), err.line, text);
    cr_assert_eq(err.status, LIT_OK);
    cr_assert_eq(err.line, 0, "no error: line 0");
    cr_assert_eq(err.tag[0], '\0', "no error: no tag");
}

/* Formats into text1 and returns it. */
static const char *fmt(const LitRecord *rec)
{
    int n = lit_record_format(rec, text1, sizeof text1);
    cr_assert_geq(n, 0, "format: %s", lit_status_name(n));
    cr_assert_eq((size_t)n, strlen(text1));
    return text1;
}

/* format(parse(text)) is a fixed point and parse(format(r)) == r; returns
 * format(parse(text)) in text1. */
static const char *check_fixed_point(const char *text)
{
    LitRecord a, b;
    parse_ok(&a, text);
    fmt(&a);
    int st = parse_with(&b, ev2, ln2, CAP, text1, strlen(text1), NULL);
    cr_assert_eq(st, LIT_OK, "the canonical text does not parse (%s):\n%s",
                 lit_status_name(st), text1);
    cr_assert(lit_record_equal(&a, &b), "parse(format(r)) != r for:\n%s", text);
    int n = lit_record_format(&b, text2, sizeof text2);
    cr_assert_geq(n, 0);
    cr_assert_str_eq(text2, text1, "format(parse(x)) is not a fixed point");
    return text1;
}

static void expect_error_n(const char *label, const char *text, size_t len,
                           int status, uint32_t line)
{
    LitRecord rec;
    LitParseError err = {0, 0, 0, "junk"};
    int st = parse_with(&rec, ev1, ln1, CAP, text, len, &err);
    cr_expect_eq(st, status, "%s: got %s, want %s", label, lit_status_name(st),
                 lit_status_name(status));
    cr_expect_eq(err.status, status, "%s: err.status %s, want %s", label,
                 lit_status_name(err.status), lit_status_name(status));
    cr_expect_eq(err.line, line, "%s (%s): line %u, want %u", label,
                 lit_status_name(status), err.line, line);
    if (status != LIT_MISSING_TAG)
        cr_expect_eq(err.tag[0], '\0', "%s: no tag named", label);
}

/* A missing tag: the line where the header ended, and the tag's name. */
static void expect_missing(const char *text, uint32_t line, const char *tag)
{
    LitRecord rec;
    LitParseError err = {0, 0, 0, "junk"};
    int st = parse_with(&rec, ev1, ln1, CAP, text, strlen(text), &err);
    cr_expect_eq(st, LIT_MISSING_TAG, "%s: got %s", text, lit_status_name(st));
    cr_expect_eq(err.line, line, "%s: line %u, want %u", text, err.line, line);
    cr_expect_str_eq(err.tag, tag, "%s: tag %s, want %s", text, err.tag, tag);
}

static void expect_error(const char *text, int status, uint32_t line)
{
    expect_error_n(text, text, strlen(text), status, line);
}

/* ---- the example --------------------------------------------------------------- */

Test(notation, example_file_is_the_documented_example)
{
    size_t n = read_source("tests/data/example.lit", big, sizeof big);
    cr_assert_eq(n, strlen(EXAMPLE));
    cr_assert_str_eq(big, EXAMPLE);
}

Test(notation, example_parses_and_formats_back_byte_for_byte)
{
    LitRecord rec;
    size_t n = read_source("tests/data/example.lit", big, sizeof big);
    LitParseError err;
    cr_assert_eq(parse_with(&rec, ev1, ln1, CAP, big, n, &err), LIT_OK);
    cr_assert_str_eq(fmt(&rec), big);

    cr_assert_str_eq(rec.event, "Friday night");
    cr_assert_str_eq(rec.names[0], "Asha");
    cr_assert_str_eq(rec.names[1], "Ben \"the fish\"");
    cr_assert_str_eq(rec.names[2], "");
    cr_assert_eq(rec.dealer, 0);
    cr_assert(rec.has_seed && rec.seed == 1);
    cr_assert(rec.has_deal);
    cr_assert_eq(rec.hands[0], cards_of(LIT_DECK_NO8, "2c 5c 4d 6d 7h Jh 3s As"));
    cr_assert_eq(rec.hands[5], cards_of(LIT_DECK_NO8, "9c Td 2h 9h Qh Ts Js Ks"));
    cr_assert(rec.has_result && rec.result == LIT_ONGOING);
    cr_assert(rec.has_score && rec.score[0] == 1 && rec.score[1] == 1);
    cr_assert_eq(rec.result_line, 13, "the Result tag's line");
    cr_assert_eq(rec.n_events, 8);
    for (uint32_t i = 0; i < 8; i++)
        cr_assert_eq(ln1[i], 16 + i, "event %u on line %u", i + 1, ln1[i]);

    const LitEvent *e = &rec.events[0];
    cr_assert_eq(e->action.kind, LIT_ASK);
    cr_assert_eq(e->action.seat, 0);
    cr_assert_eq(e->action.target, 1);
    cr_assert_eq(e->action.card, lit_card_parse(LIT_DECK_NO8, "3c", 2));
    cr_assert_eq(e->answer, LIT_MISS);
    e = &rec.events[7];
    cr_assert_eq(e->action.kind, LIT_CLAIM);
    cr_assert_eq(e->action.seat, 4);
    cr_assert_eq(e->action.set, lit_set_parse(LIT_DECK_NO8, "hh", 2));
    cr_assert_eq(e->answer, LIT_LOST);
    /* high hearts: 9h Th Jh Qh Kh Ah; named 3 3 1 3 3 5, held 6 4 1 6 4 5 */
    static const uint8_t named[6] = {2, 2, 0, 2, 2, 4}, held[6] = {5, 3, 0, 5, 3, 4};
    cr_assert_eq(memcmp(e->action.holders, named, 6), 0);
    cr_assert_eq(memcmp(e->truth, held, 6), 0);
    check_fixed_point(EXAMPLE);
}

/* Marks: a comment after their events' lines, one line each, cut at
 * LIT_MARK_MAX bytes between characters; the parser reads them as nothing. */
Test(notation, marks_are_comments_after_their_lines)
{
    LitRecord rec, back;
    LitParseError err;
    cr_assert_eq(parse_with(&rec, ev1, ln1, CAP, EXAMPLE, strlen(EXAMPLE), &err), LIT_OK);
    char x99[128], e60[128];
    memset(x99, 'x', 99);
    strcpy(x99 + 99, "\xc3\xa9");        /* 101 bytes: the é would be cut */
    for (int i = 0; i < 60; i++)
        memcpy(e60 + 2 * i, "\xc3\xa9", 2); /* 120 bytes: 50 é fit */
    e60[120] = 0;
    const char *marks[8] = {"fallback: timeout", NULL, "", "a\nb\x1b[0m\x7f",
                            "\xff\xc3 ok\xe2\x82", x99, e60, "ok ; two"};
    rec.marks = marks;
    char want[2048];
    snprintf(want, sizeof want,
             "1. 1 asks 2 for 3c: miss ; fallback: timeout\n"
             "2. 2 asks 1 for 5c: hit\n"
             "3. 2 asks 3 for 4c: hit\n"
             "4. 2 asks 5 for 6c: miss ; a?b?[0m?\n"
             "5. 5 asks 4 for 4s: hit ; ?? ok??\n"
             "6. 5 asks 2 for 7s: hit ; %.99s\n"
             "7. 5 claims low-spades 1:3s 3:2s,6s 5:4s,5s,7s won ; %.100s\n"
             "8. 5 claims high-hearts 1:Jh 3:9h,Th,Qh,Kh 5:Ah lost (4:Th,Kh 6:9h,Qh) ; ok ; two\n",
             x99, e60);
    const char *text = fmt(&rec);
    cr_assert(strstr(text, "\n\n1. "), "%s", text);
    cr_assert_str_eq(strstr(text, "\n\n1. ") + 2, want);
    /* what the marks leave out of the record: nothing */
    cr_assert_eq(parse_with(&back, ev2, ln2, CAP, text, strlen(text), &err), LIT_OK);
    cr_assert_null(back.marks);
    rec.marks = NULL;
    cr_assert(lit_record_equal(&back, &rec));
    cr_assert_str_eq(fmt(&back), EXAMPLE);
}

/* Who chose an action: the mark after its line, read into rec.by. */
Test(notation, the_marks_say_who_chose_an_action)
{
    static const char text[] = H "\n"
                               "1. 1 asks 2 for 3c ; timeout: the basic bot moved\n"
                               "2. 1 asks 2 for 4c;away:\n"
                               "3. 1 asks 2 for 5c ;  fallback: timeout: no answer in time\n"
                               "4. 1 asks 2 for 6c ; hint: 1 asks 2 for 6c\n"
                               "; timeout: a comment line of its own\n"
                               "5. 1 asks 2 for 7c ; timeouts\n"
                               "6. 1 asks 2 for 9c\n"
                               "7. 1 asks 2 for Tc ; Timeout: capitals\n";
    static const uint8_t want[7] = {LIT_BY_TIMEOUT, LIT_BY_AWAY, LIT_BY_FALLBACK, LIT_BY_SEAT,
                                    LIT_BY_SEAT,    LIT_BY_SEAT, LIT_BY_SEAT};
    uint8_t by[CAP];
    memset(by, 0xAA, sizeof by);
    LitRecord rec;
    lit_record_init(&rec, ev1, NULL, CAP);
    rec.by = by;
    cr_assert_eq(lit_record_parse(&rec, text, strlen(text), NULL), LIT_OK);
    cr_assert_eq(rec.n_events, 7);
    cr_assert_eq(rec.by, by, "the parser keeps the caller's buffer");
    for (int i = 0; i < 7; i++)
        cr_assert_eq(by[i], want[i], "action %d: by %d, want %d", i + 1, by[i], want[i]);
    cr_assert_eq(by[7], 0xAA, "nothing written past the actions");
    /* without the buffer, the same events */
    LitRecord plain;
    lit_record_init(&plain, ev2, NULL, CAP);
    cr_assert_eq(lit_record_parse(&plain, text, strlen(text), NULL), LIT_OK);
    cr_assert_null(plain.by);
    cr_assert(lit_record_equal(&plain, &rec));
}

Test(notation, example_replays)
{
    LitRecord rec;
    LitReplay rp;
    parse_ok(&rec, EXAMPLE);
    cr_assert_eq(lit_replay_start(&rp, &rec), LIT_OK);
    cr_assert(rp.known);
    for (uint32_t i = 0; i < rec.n_events; i++) {
        LitEvent out;
        cr_assert_eq(lit_replay_step(&rp, &rec.events[i], &out), LIT_OK, "event %u", i + 1);
        cr_assert_eq(memcmp(&out, &rec.events[i], sizeof out), 0,
                     "the applied event %u is the written one", i + 1);
    }
    cr_assert_eq(lit_replay_check_result(&rp, &rec, NULL), LIT_OK);
    cr_assert_eq(rp.game.pub.score[0], 1);
    cr_assert_eq(rp.game.pub.score[1], 1);
    cr_assert_eq(turn_of(&rp.game), 5);
    cr_assert_eq(rp.game.pub.result, LIT_ONGOING);
}

/* ---- the canonical form ---------------------------------------------------------- */

Test(notation, canonical_form_from_a_loose_spelling)
{
    static const char loose[] =
        "; a game written by hand\r\n"
        "[Score \"1-1\"]   ; the score so far\n"
        "[Result \"*\"]\n"
        "[Hand6 \"Ks Js 10s Qh 9h 2h Td 9c\"]\n"
        "[Hand5 \"5s AH 4h 3H jd 2D qc 3c\"]\n"
        "[Hand4 \"Qs 4s Kh Th 5d 3d Kc Jc\"]\n"
        "\n"
        "[Hand3 \"9s 6s 2s 5h Qd Ac 6c 4c\"]\n"
        "  [Hand2 \"7s 6h Ad Kd 9d 7d Tc 7c\"]\n"
        "[Hand1\t\"As 3s Jh 7h 6d 4d 5c 2c\"]\n"
        "[Name2 \"Ben \\\"the fish\\\"\"]\n"
        "[Name1 \"Asha\"]\n"
        "[Seed \"1\"]\n"
        "[Dealer \"1\"]\n"
        "[Rules \"classic\"]\n"
        "[Event \"Friday night\"]\n"
        "\n"
        "\n"
        "1 asks 2 for 3C: miss   ; seat 2 holds no 3c\n"
        "2. 2 asks 1 for 5c:hit\n"
        "  2\tasks 3 for 4c : hit\r\n"
        "; a line of comment between moves\n"
        "2 asks 5 for 6c: miss\n"
        "\n"
        "5 asks 4 for 4S: hit\n"
        "6. 5 asks 2 for 7s: hit\n"
        "5 claims LS 5:7s,5s 3:6s 1:3s 5:4s 3:2s won\n"
        "5 claims hh 5:ah 3:kh,qh,10h,9h 1:JH lost (6:qh 4:kh,th 6:9h)";
    cr_assert_str_eq(check_fixed_point(loose), EXAMPLE);
}

Test(notation, canonical_tag_order)
{
    static const char in[] =
        "[Score \"-1-2\"]\n[Result \"B\"]\n[Name3 \"c\"]\n[Name1 \"a\"]\n"
        "[Seed \"7\"]\n[Dealer \"2\"]\n[Rules \"classic\"]\n[Date \"2024-05-01\"]\n"
        "[Site \"home\"]\n[Event \"e\"]\n";
    static const char out[] =
        "[Event \"e\"]\n[Site \"home\"]\n[Date \"2024-05-01\"]\n"
        "[Rules \"classic\"]\n[Dealer \"2\"]\n[Seed \"7\"]\n[Name1 \"a\"]\n"
        "[Name3 \"c\"]\n[Result \"B\"]\n[Score \"-1-2\"]\n";
    cr_assert_str_eq(check_fixed_point(in), out);
}

Test(notation, header_only_record_has_no_blank_line)
{
    cr_assert_str_eq(check_fixed_point(H), H);
    cr_assert_str_eq(check_fixed_point("[Dealer \"1\"]\n[Rules \"classic\"]"), H);
}

Test(notation, canonical_rules_text)
{
    static const struct {
        const char *in, *out;
    } cases[] = {
        {"classic", "classic"},
        {"classic deck=quartets players=8", "quartets players=8"},
        {"jokers deck=no8 players=8", "classic players=8"},
        {"classic bluff=on players=8", "classic players=8 bluff=on"},
        {"classic deck=no2 misclaim=point-off first=left history=full counts=hidden",
         "encyclopedia"},
        {"encyclopedia players=12", "encyclopedia players=12"},
        {"club misclaim=cancel", "club misclaim=cancel"},
        {"classic double-high=on", "india"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char in[256], out[256];
        snprintf(in, sizeof in, "[Rules \"%s\"]\n[Dealer \"1\"]\n", cases[i].in);
        snprintf(out, sizeof out, "[Rules \"%s\"]\n[Dealer \"1\"]\n", cases[i].out);
        cr_assert_str_eq(check_fixed_point(in), out, "rules '%s'", cases[i].in);
    }
}

Test(notation, canonical_moves_numbered_long_names_groups_by_seat)
{
    static const char in[] =
        "[Rules \"classic players=8\"]\n[Dealer \"1\"]\n"
        "1 asks 2 for qh\n"
        "1 claims lc 7:7c 1:2c 3:3c 5:4c,6c 3:5c\n"
        "1 claims hc 1:9c,tc,jc,qc,kc,ac won (1:9c 2:Qc)\n"
        "1 claims ld 1:2d,3d,4d,5d,6d,7d cancelled (3:7d 3:2d)\n"
        "1 passes to 3\n"
        "3 chooses 8\n"
        "8 claims hs 8:9s,Ts,Js,Qs,Ks,As point-off (8:As 2:9s)\n";
    static const char out[] =
        "[Rules \"classic players=8\"]\n[Dealer \"1\"]\n\n"
        "1. 1 asks 2 for Qh\n"
        "2. 1 claims low-clubs 1:2c 3:3c,5c 5:4c,6c 7:7c\n"
        "3. 1 claims high-clubs 1:9c,Tc,Jc,Qc,Kc,Ac won (2:Qc)\n"
        "4. 1 claims low-diamonds 1:2d,3d,4d,5d,6d,7d cancelled (3:2d,7d)\n"
        "5. 1 passes to 3\n"
        "6. 3 chooses 8\n"
        "7. 8 claims high-spades 8:9s,Ts,Js,Qs,Ks,As point-off (2:9s)\n";
    cr_assert_str_eq(check_fixed_point(in), out);
}

Test(notation, canonical_other_decks)
{
    static const char in[] =
        "[Rules \"jokers players=4\"]\n[Dealer \"4\"]\n\n"
        "4 asks 1 for jk1: miss\n"
        "1 claims EJ 1:8c,8d,8h 3:8s,jk2,JK1 won\n";
    static const char out[] =
        "[Rules \"jokers players=4\"]\n[Dealer \"4\"]\n\n"
        "1. 4 asks 1 for JK1: miss\n"
        "2. 1 claims eights-jokers 1:8c,8d,8h 3:8s,JK1,JK2 won\n";
    cr_assert_str_eq(check_fixed_point(in), out);
    static const char qin[] =
        "[Rules \"quartets players=10\"]\n[Dealer \"10\"]\n\n"
        "10 claims qq 10:qs,qh 8:QD,qc\n"
        "10 claims q2 10:2c,2d,2h,2s lost (1:2c)\n";
    static const char qout[] =
        "[Rules \"quartets players=10\"]\n[Dealer \"10\"]\n\n"
        "1. 10 claims queens 8:Qc,Qd 10:Qh,Qs\n"
        "2. 10 claims twos 10:2c,2d,2h,2s lost (1:2c)\n";
    cr_assert_str_eq(check_fixed_point(qin), qout);
    static const char n2in[] =
        "[Rules \"encyclopedia\"]\n[Dealer \"1\"]\n\n"
        "2 claims ls 2:3s,4s,5s,6s,7s,8s\n";
    static const char n2out[] =
        "[Rules \"encyclopedia\"]\n[Dealer \"1\"]\n\n"
        "1. 2 claims low-spades 2:3s,4s,5s,6s,7s,8s\n";
    cr_assert_str_eq(check_fixed_point(n2in), n2out);
}

Test(notation, accepted_spellings_are_fixed_points)
{
    static const char *const texts[] = {
        EXAMPLE,
        H "1 asks 2 for 10c\n",
        H "1 asks 2 for TC: MISS\n" /* answers are words: not accepted */,
        H "\n\n\n1 asks 2 for 3c: miss ;; comment ; more\n\n",
        H "1. 1 asks 2 for 3c: miss\r\n2. 2 asks 1 for 5c: hit\r\n",
        "[Rules \"classic\"] ; the rules\r\n[Dealer \"1\"];x\r\n\r\n1 asks 2 for 3c",
        "[Event \"a;b\"]\n" H,
        "[Name1 \"a]b;c[d \\\\\"]\n" H,
        "[Event \"x ; \\\\ \\\" x\"]\n" H,
        "[Seed \"18446744073709551615\"]\n" H,
        "[Seed \"0\"]\n" H,
        "[Score \"0--3\"]\n[Result \"draw\"]\n" H,
        "[Result \"aborted\"]\n" H,
        "[Result \"A\"]\n" H,
        H "1 claims lh 1:2h,3h,4h 3:5h,6h,7h won (1:2h,3h,4h 3:5h,6h,7h)\n",
        H "1 claims lh 1:2h,3h,4h 3:5h,6h,7h lost (2:2h  4:7h)\n",
        H "1\tclaims\tlh\t1:2h,3h,4h\t3:5h,6h,7h\n",
        "[Rules \"classic players=12\"]\n[Dealer \"12\"]\n[Name12 \"z\"]\n\n"
        "12 asks 11 for 3c: hit\n11 claims ls 11:2s,3s 1:4s,5s,6s,7s\n",
    };
    for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++) {
        LitRecord rec;
        LitParseError err;
        int st = parse_with(&rec, ev1, ln1, CAP, texts[i], strlen(texts[i]), &err);
        if (i == 2) {
            cr_assert_eq(st, LIT_SYNTAX, "text %zu", i);
            continue;
        }
        cr_assert_eq(st, LIT_OK, "text %zu: %s at line %u", i, lit_status_name(st), err.line);
        check_fixed_point(texts[i]);
    }
}

Test(notation, names_with_escapes_and_utf8_round_trip)
{
    static const char in[] =
        "[Rules \"classic\"]\n[Dealer \"1\"]\n"
        "[Name1 \"Zo\xc3\xab\"]\n"
        "[Name2 \"\xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e\"]\n"
        "[Name3 \"\xf0\x9f\x90\x9f fish\"]\n"
        "[Name4 \"a\\\\b\\\"c\"]\n"
        "[Name5 \"\\\"\\\"\\\"\\\"\\\"\\\"\\\"\\\"\\\"\\\"\\\"\\\"\\\"\\\"\\\"\\\"\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\"]\n"
        "[Name6 \"\xc2\xa0x\xc2\xa0\"]\n";
    LitRecord rec;
    parse_ok(&rec, in);
    cr_assert_str_eq(rec.names[0], "Zo\xc3\xab");
    cr_assert_str_eq(rec.names[2], "\xf0\x9f\x90\x9f fish");
    cr_assert_str_eq(rec.names[3], "a\\b\"c");
    cr_assert_eq(strlen(rec.names[4]), 32, "16 quotes and 16 backslashes: 32 bytes");
    cr_assert_str_eq(rec.names[4], "\"\"\"\"\"\"\"\"\"\"\"\"\"\"\"\"\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\");
    cr_assert_str_eq(rec.names[5], "\xc2\xa0x\xc2\xa0", "U+00A0 is not a space for the ends rule");
    /* The canonical text writes the tags as given here (already in order). */
    cr_assert_str_eq(check_fixed_point(in), in);
}

/* ---- parse errors ------------------------------------------------------------------ */

Test(notation, errors_syntax)
{
    expect_error("[Rules classic]\n[Dealer \"1\"]\n", LIT_SYNTAX, 1);
    expect_error("[Rules \"classic\"]\n[Dealer \"1\"\n", LIT_SYNTAX, 2);
    expect_error("[Rules \"classic\"]\n[Dealer \"1]\n", LIT_SYNTAX, 2);
    expect_error("[Rules \"classic\"] x\n[Dealer \"1\"]\n", LIT_SYNTAX, 1);
    expect_error("[Rules\"classic\"]\n[Dealer \"1\"]\n", LIT_SYNTAX, 1);
    expect_error("[ \"classic\"]\n", LIT_SYNTAX, 1);
    expect_error(H "[Event \"a\\nb\"]\n", LIT_SYNTAX, 3);
    expect_error(H "\n1 asks 2 3c\n", LIT_SYNTAX, 4);
    expect_error(H "\n1 asks 2 for\n", LIT_SYNTAX, 4);
    expect_error(H "\n1 asks 2 for 3c:\n", LIT_SYNTAX, 4);
    expect_error(H "\n1 asks 2 for 3c: yes\n", LIT_SYNTAX, 4);
    expect_error(H "\n1 asks 2 for 3c hit\n", LIT_SYNTAX, 4);
    expect_error(H "\n1 asks 2 for 3c: hit x\n", LIT_SYNTAX, 4);
    expect_error(H "\n1 asks 2 for 3c: miss\n2 jumps\n", LIT_SYNTAX, 5);
    expect_error(H "\n1 passes 3\n", LIT_SYNTAX, 4);
    expect_error(H "\n1 chooses\n", LIT_SYNTAX, 4);
    expect_error(H "\n1 claims\n", LIT_SYNTAX, 4);
    expect_error(H "\n1 claims lc 1:2c,3c,4c,5c,6c,7c wins\n", LIT_SYNTAX, 4);
    expect_error(H "\n1 claims lc 1:2c,3c,4c,5c,6c,7c lost (2:2c\n", LIT_SYNTAX, 4);
    expect_error(H "\n1 claims lc 1:2c,3c,4c,5c,6c,7c lost 2:2c\n", LIT_SYNTAX, 4);
    expect_error(H "\n1 claims lc 1:2c,3c,4c,5c,6c,7c (2:2c)\n", LIT_SYNTAX, 4);
    expect_error(H "\n1 claims lc 1 2c,3c,4c,5c,6c,7c\n", LIT_SYNTAX, 4);
    expect_error(H "\nx. 1 asks 2 for 3c\n", LIT_SYNTAX, 4);
    expect_error(H "\nasks 2 for 3c\n", LIT_SYNTAX, 4);
    expect_error(H "\n1 ASKS 2 for 3c\n", LIT_SYNTAX, 4);
    expect_error_n("a NUL byte", H "\n1 asks 2 for 3c\0\n", sizeof(H "\n1 asks 2 for 3c\0\n") - 1,
                   LIT_SYNTAX, 4);
    expect_error_n("a NUL in the header", H "[Event \"a\0b\"]\n",
                   sizeof(H "[Event \"a\0b\"]\n") - 1, LIT_SYNTAX, 3);
}

Test(notation, error_tag_after_the_first_move)
{
    expect_error(H "\n1 asks 2 for 3c: miss\n[Event \"late\"]\n", LIT_SYNTAX, 5);
    expect_error(H "1 asks 2 for 3c: miss\n  [Seed \"1\"]\n", LIT_SYNTAX, 4);
}

Test(notation, errors_too_long)
{
    /* A line of LIT_LINE_MAX bytes is fine, one more is too long. */
    size_t h = strlen(H);
    memcpy(big, H, h);
    memset(big + h, ';', LIT_LINE_MAX);
    memcpy(big + h + LIT_LINE_MAX, "\n", 2);
    LitRecord rec;
    cr_assert_eq(parse_with(&rec, ev1, ln1, CAP, big, strlen(big), NULL), LIT_OK);
    memset(big + h, ';', LIT_LINE_MAX + 1);
    memcpy(big + h + LIT_LINE_MAX + 1, "\n", 2);
    expect_error_n("a long line", big, strlen(big), LIT_TOO_LONG, 3);
    /* ... also in the header, and without a final newline. */
    memcpy(big, "[Rules \"classic\"]\n[Event \"", 26);
    memset(big + 26, 'x', LIT_LINE_MAX);
    expect_error_n("a long tag line", big, 26 + LIT_LINE_MAX, LIT_TOO_LONG, 2);

    /* A record of LIT_RECORD_TEXT_MAX bytes is fine, one more byte is not. */
    size_t n = 0;
    memcpy(big, H, h);
    n = h;
    while (n < LIT_RECORD_TEXT_MAX) {
        size_t line = LIT_RECORD_TEXT_MAX - n < 100 ? LIT_RECORD_TEXT_MAX - n : 100;
        memset(big + n, ';', line - 1);
        big[n + line - 1] = '\n';
        n += line;
    }
    cr_assert_eq(n, LIT_RECORD_TEXT_MAX);
    cr_assert_eq(parse_with(&rec, ev1, ln1, CAP, big, n, NULL), LIT_OK);
    big[n] = '\n';
    expect_error_n("a long record", big, n + 1, LIT_TOO_LONG, 1);

    /* More events than the buffer holds. */
    static const char four[] = H "\n1 asks 2 for 3c: miss\n2 asks 1 for 5c: hit\n"
                                 "2 asks 3 for 4c: hit\n2 asks 5 for 6c: miss\n";
    LitParseError err;
    cr_assert_eq(parse_with(&rec, ev1, ln1, 4, four, strlen(four), &err), LIT_OK);
    cr_assert_eq(rec.n_events, 4);
    cr_assert_eq(parse_with(&rec, ev1, ln1, 3, four, strlen(four), &err), LIT_TOO_LONG);
    cr_assert_eq(err.status, LIT_TOO_LONG);
    cr_assert_eq(err.line, 7);
    cr_assert_eq(parse_with(&rec, ev1, NULL, 0, four, strlen(four), &err), LIT_TOO_LONG);
    cr_assert_eq(err.line, 4);
}

/* docs/NOTATION.md: "a line is at most 4096 bytes. Lines end with LF (a CR
 * before it is ignored)": the CR of a CRLF end is not part of the line, so a
 * record that parses with LF ends parses with CRLF ends too. */
Test(notation, a_line_of_the_maximum_length_with_a_crlf_end)
{
    size_t h = strlen(H);
    memcpy(big, H, h);
    memset(big + h, ';', LIT_LINE_MAX);
    memcpy(big + h + LIT_LINE_MAX, "\r\n", 3);
    LitRecord rec;
    LitParseError err = {0, 0, 0, ""};
    int st = parse_with(&rec, ev1, ln1, CAP, big, strlen(big), &err);
    cr_expect_eq(st, LIT_OK, "a 4096-byte line ended by CRLF: %s at line %u",
                 lit_status_name(st), err.line);
    memset(big + h, ';', LIT_LINE_MAX + 1);
    memcpy(big + h + LIT_LINE_MAX + 1, "\r\n", 3);
    expect_error_n("a 4097-byte line ended by CRLF", big, strlen(big), LIT_TOO_LONG, 3);
}

Test(notation, errors_tags)
{
    expect_error(H "[Round \"1\"]\n", LIT_UNKNOWN_TAG, 3);
    expect_error(H "[Name0 \"x\"]\n", LIT_UNKNOWN_TAG, 3);
    expect_error(H "[Name13 \"x\"]\n", LIT_UNKNOWN_TAG, 3);
    expect_error(H "[Hand01 \"2c\"]\n", LIT_UNKNOWN_TAG, 3);
    expect_error(H "[Name \"x\"]\n", LIT_UNKNOWN_TAG, 3);
    expect_error(H "[Dealer \"2\"]\n", LIT_DUPLICATE_TAG, 3);
    expect_error("[Event \"a\"]\n" H "[Event \"a\"]\n", LIT_DUPLICATE_TAG, 4);
    expect_error(H "[Name2 \"a\"]\n[Name2 \"b\"]\n", LIT_DUPLICATE_TAG, 4);
}

Test(notation, errors_missing_tags)
{
    expect_missing("", 1, "Rules");
    expect_missing("[Dealer \"1\"]\n", 1, "Rules");
    expect_missing("[Dealer \"1\"]\n[Seed \"1\"]\n\n1 asks 2 for 3c: miss\n", 4, "Rules");
    expect_missing("[Rules \"classic\"]\n", 1, "Dealer");
    expect_missing("[Rules \"classic\"]\n\n1 asks 2 for 3c: miss\n", 3, "Dealer");
    /* a first line that is no tag: the header ended there, empty */
    expect_missing("1 asks 2 for 3c: miss\n", 1, "Rules");
    /* Hand tags: all or none. */
#define five H "[Hand1 \"2c 5c 4d 6d 7h Jh 3s As\"]\n" "[Hand2 \"7c Tc 7d 9d Kd Ad 6h 7s\"]\n" \
    "[Hand3 \"4c 6c Ac Qd 5h 2s 6s 9s\"]\n" "[Hand4 \"Jc Kc 3d 5d Th Kh 4s Qs\"]\n" \
    "[Hand6 \"9c Td 2h 9h Qh Ts Js Ks\"]\n"
    expect_missing(five, 7, "Hand5");
    expect_missing(five "\n1 asks 2 for 3c\n", 9, "Hand5");
    expect_missing(H "[Hand3 \"2c\"]\n", 3, "Hand1");
    expect_missing("[Rules \"classic players=12\"]\n[Dealer \"1\"]\n"
                   "[Hand1 \"2c\"]\n[Hand2 \"3c\"]\n[Hand3 \"4c\"]\n[Hand4 \"5c\"]\n"
                   "[Hand5 \"6c\"]\n[Hand6 \"7c\"]\n[Hand7 \"9c\"]\n[Hand8 \"Tc\"]\n"
                   "[Hand9 \"Jc\"]\n[Hand10 \"Qc\"]\n[Hand12 \"Kc\"]\n",
                   13, "Hand11");
}

Test(notation, errors_tag_values)
{
    expect_error("[Rules \"classic\"]\n[Dealer \"0\"]\n", LIT_BAD_TAG_VALUE, 2);
    expect_error("[Rules \"classic\"]\n[Dealer \"7\"]\n", LIT_BAD_TAG_VALUE, 2);
    expect_error("[Dealer \"7\"]\n[Rules \"classic\"]\n", LIT_BAD_TAG_VALUE, 1);
    expect_error("[Rules \"classic\"]\n[Dealer \"\"]\n", LIT_BAD_TAG_VALUE, 2);
    expect_error("[Rules \"classic\"]\n[Dealer \"one\"]\n", LIT_BAD_TAG_VALUE, 2);
    expect_error("[Rules \"classic\"]\n[Dealer \"01\"]\n", LIT_BAD_TAG_VALUE, 2);
    expect_error("[Rules \"classic\"]\n[Dealer \" 1\"]\n", LIT_BAD_TAG_VALUE, 2);
    expect_error("[Rules \"classic players=4\"]\n[Dealer \"5\"]\n", LIT_BAD_TAG_VALUE, 2);
    LitRecord rec;
    parse_ok(&rec, "[Rules \"classic players=8\"]\n[Dealer \"8\"]\n");
    cr_assert_eq(rec.dealer, 7);

    expect_error(H "[Seed \"x\"]\n", LIT_BAD_TAG_VALUE, 3);
    expect_error(H "[Seed \"\"]\n", LIT_BAD_TAG_VALUE, 3);
    expect_error(H "[Seed \"-1\"]\n", LIT_BAD_TAG_VALUE, 3);
    expect_error(H "[Seed \"18446744073709551616\"]\n", LIT_BAD_TAG_VALUE, 3);
    expect_error(H "[Seed \"99999999999999999999\"]\n", LIT_BAD_TAG_VALUE, 3);
    expect_error(H "[Seed \"0x10\"]\n", LIT_BAD_TAG_VALUE, 3);
    parse_ok(&rec, H "[Seed \"18446744073709551615\"]\n");
    cr_assert_eq(rec.seed, UINT64_MAX);

    expect_error(H "[Result \"win\"]\n", LIT_BAD_TAG_VALUE, 3);
    expect_error(H "[Result \"\"]\n", LIT_BAD_TAG_VALUE, 3);
    expect_error(H "[Result \"C\"]\n", LIT_BAD_TAG_VALUE, 3);
    expect_error(H "[Result \"* \"]\n", LIT_BAD_TAG_VALUE, 3);
    static const struct {
        const char *text;
        int result;
    } results[] = {{"A", LIT_WIN_A}, {"B", LIT_WIN_B}, {"draw", LIT_DRAW},
                   {"aborted", LIT_ABORTED}, {"*", LIT_ONGOING}};
    for (size_t i = 0; i < 5; i++) {
        char t[128];
        snprintf(t, sizeof t, H "[Result \"%s\"]\n", results[i].text);
        parse_ok(&rec, t);
        cr_assert(rec.has_result);
        cr_assert_eq(rec.result, results[i].result, "Result %s", results[i].text);
        cr_assert_eq(rec.result_line, 3);
    }

    expect_error(H "[Score \"1\"]\n", LIT_BAD_TAG_VALUE, 3);
    expect_error(H "[Score \"1-\"]\n", LIT_BAD_TAG_VALUE, 3);
    expect_error(H "[Score \"-1\"]\n", LIT_BAD_TAG_VALUE, 3);
    expect_error(H "[Score \"a-1\"]\n", LIT_BAD_TAG_VALUE, 3);
    expect_error(H "[Score \"1-1-1\"]\n", LIT_BAD_TAG_VALUE, 3);
    expect_error(H "[Score \"1:1\"]\n", LIT_BAD_TAG_VALUE, 3);
    expect_error(H "[Score \"\"]\n", LIT_BAD_TAG_VALUE, 3);
    expect_error(H "[Score \"1 - 1\"]\n", LIT_BAD_TAG_VALUE, 3);
    parse_ok(&rec, H "[Score \"-1-2\"]\n");
    cr_assert(rec.has_score && rec.score[0] == -1 && rec.score[1] == 2);
    parse_ok(&rec, H "[Score \"5--3\"]\n");
    cr_assert(rec.score[0] == 5 && rec.score[1] == -3);
    cr_assert_eq(rec.score_line, 3, "the Score tag's line");
    cr_assert_eq(rec.result_line, 0, "no Result tag");
}

Test(notation, a_byte_order_mark_is_ignored)
{
    static LitEvent ev[8];
    LitRecord rec;
    lit_record_init(&rec, ev, NULL, 8);
    parse_ok(&rec, "\xEF\xBB\xBF[Rules \"club\"]\n[Dealer \"2\"]\n");
    cr_assert_eq(rec.dealer, 1);
    /* only at the very start */
    expect_missing("[Rules \"club\"]\n\xEF\xBB\xBF[Dealer \"2\"]\n", 2, "Dealer");
}

Test(notation, errors_rules_tag)
{
    expect_error("[Rules \"chess\"]\n[Dealer \"1\"]\n", LIT_UNKNOWN_PRESET, 1);
    expect_error("[Dealer \"1\"]\n[Rules \"chess\"]\n", LIT_UNKNOWN_PRESET, 2);
    expect_error("[Dealer \"1\"]\n[Rules \"\"]\n", LIT_UNKNOWN_PRESET, 2);
    expect_error("[Dealer \"1\"]\n[Rules \"classic colour=red\"]\n", LIT_UNKNOWN_RULE, 2);
    expect_error("[Dealer \"1\"]\n[Rules \"classic players=7\"]\n", LIT_BAD_RULE_VALUE, 2);
    expect_error("[Dealer \"1\"]\n[Rules \"classic bluff=maybe\"]\n", LIT_BAD_RULE_VALUE, 2);
    expect_error("[Dealer \"1\"]\n[Rules \"classic deck=no9\"]\n\n1 asks 2 for 3c\n",
                 LIT_BAD_RULE_VALUE, 2);
}

Test(notation, errors_names)
{
    static const struct {
        const char *value;
        int status;
    } cases[] = {
        {"", LIT_BAD_NAME},
        {"123456789012345678901234567890123", LIT_BAD_NAME}, /* 33 bytes */
        {"12345678901234567890123456789012", LIT_OK},        /* 32 bytes */
        {"a\tb", LIT_BAD_NAME},
        {"a\x01z", LIT_BAD_NAME},
        {"a\x1f", LIT_BAD_NAME},
        {"a\x7f", LIT_BAD_NAME},
        {"a\xc2\x80z", LIT_BAD_NAME},  /* U+0080, a C1 control */
        {"a\xc2\x9fz", LIT_BAD_NAME},  /* U+009F */
        {" a", LIT_BAD_NAME},
        {"a ", LIT_BAD_NAME},
        {" ", LIT_BAD_NAME},
        {"a b", LIT_OK},
        {"a\xff", LIT_BAD_NAME},
        {"a\x80", LIT_BAD_NAME},       /* a lone continuation byte */
        {"a\xc3", LIT_BAD_NAME},       /* truncated */
        {"\xe6\x97", LIT_BAD_NAME},    /* truncated */
        {"\xc3\x28", LIT_BAD_NAME},    /* bad continuation */
        {"\xc0\xaf", LIT_BAD_NAME},    /* overlong '/' */
        {"\xc1\xbf", LIT_BAD_NAME},    /* overlong */
        {"\xe0\x80\xaf", LIT_BAD_NAME},     /* overlong, 3 bytes */
        {"\xf0\x80\x80\xaf", LIT_BAD_NAME}, /* overlong, 4 bytes */
        {"\xed\xa0\x80", LIT_BAD_NAME},     /* U+D800, a surrogate */
        {"\xed\xbf\xbf", LIT_BAD_NAME},     /* U+DFFF */
        {"\xf4\x90\x80\x80", LIT_BAD_NAME}, /* above U+10FFFF */
        {"\xf8\x88\x80\x80\x80", LIT_BAD_NAME},
        {"\xed\x9f\xbf", LIT_OK},           /* U+D7FF */
        {"\xee\x80\x80", LIT_OK},           /* U+E000 */
        {"\xf4\x8f\xbf\xbf", LIT_OK},       /* U+10FFFF */
        {"\xc2\xa0", LIT_OK},               /* U+00A0 */
        {"Zo\xc3\xab", LIT_OK},
        {"\xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e", LIT_OK},
        {"\xf0\x9f\x90\x9f", LIT_OK},
        /* 11 three-byte characters: 33 bytes */
        {"\xe6\x97\xa5\xe6\x97\xa5\xe6\x97\xa5\xe6\x97\xa5\xe6\x97\xa5\xe6\x97\xa5"
         "\xe6\x97\xa5\xe6\x97\xa5\xe6\x97\xa5\xe6\x97\xa5\xe6\x97\xa5", LIT_BAD_NAME},
        {"\\\\", LIT_OK},   /* one backslash, escaped */
        {"\\\"", LIT_OK},   /* one quote, escaped */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char t[512];
        snprintf(t, sizeof t, H "[Name2 \"%s\"]\n", cases[i].value);
        LitRecord rec;
        LitParseError err;
        int st = parse_with(&rec, ev1, ln1, CAP, t, strlen(t), &err);
        cr_expect_eq(st, cases[i].status, "name case %zu: %s, want %s", i,
                     lit_status_name(st), lit_status_name(cases[i].status));
        if (cases[i].status != LIT_OK)
            cr_expect_eq(err.line, 3, "name case %zu: line %u", i, err.line);
        else
            check_fixed_point(t);
    }
    /* The free-text tags: 64 bytes. */
    char t[512], v[80];
    memset(v, 'e', 64);
    v[64] = 0;
    snprintf(t, sizeof t, "[Event \"%s\"]\n" H, v);
    check_fixed_point(t);
    snprintf(t, sizeof t, H "[Site \"%s\"]\n", v);
    check_fixed_point(t);
    /* what is wrong with them is the tag's value, not a player's name */
    snprintf(t, sizeof t, H "[Date \"%se\"]\n", v);
    expect_error(t, LIT_BAD_TAG_VALUE, 3);
    snprintf(t, sizeof t, H "[Name1 \"%s\"]\n", v);
    expect_error(t, LIT_BAD_NAME, 3);
    expect_error(H "[Event \"\"]\n", LIT_BAD_TAG_VALUE, 3);
    expect_error(H "[Site \" x\"]\n", LIT_BAD_TAG_VALUE, 3);
    expect_error("[Date \"\xed\xa0\x80\"]\n" H, LIT_BAD_TAG_VALUE, 1);
    expect_error("[Event \"caf\xe9\"]\n" H, LIT_BAD_TAG_VALUE, 1);
    /* Name tags are checked wherever they stand, on their own line. */
    expect_error("[Name6 \"x \"]\n" H, LIT_BAD_NAME, 1);
}

Test(notation, errors_seats)
{
    expect_error(H "[Name7 \"x\"]\n", LIT_BAD_SEAT, 3);
    expect_error(H "[Hand7 \"2c\"]\n", LIT_BAD_SEAT, 3);
    expect_error("[Name12 \"x\"]\n" H, LIT_BAD_SEAT, 1);
    LitRecord rec;
    parse_ok(&rec, "[Rules \"classic players=8\"]\n[Dealer \"1\"]\n[Name7 \"x\"]\n");
    cr_assert_str_eq(rec.names[6], "x");

    expect_error(H "\n1. 7 asks 2 for 3c: miss\n", LIT_BAD_SEAT, 4);
    expect_error(H "\n0 asks 2 for 3c: miss\n", LIT_BAD_SEAT, 4);
    expect_error(H "\n1 asks 7 for 3c: miss\n", LIT_BAD_SEAT, 4);
    expect_error(H "\n1 asks 0 for 3c: miss\n", LIT_BAD_SEAT, 4);
    expect_error(H "\n1 asks 2 for 3c: miss\n2 passes to 9\n", LIT_BAD_SEAT, 5);
    expect_error(H "\n1 chooses 0\n", LIT_BAD_SEAT, 4);
    expect_error(H "\n1 claims lc 1:2c,3c,4c 7:5c,6c,7c\n", LIT_BAD_SEAT, 4);
    expect_error(H "\n1 claims lc 1:2c,3c,4c 0:5c,6c,7c\n", LIT_BAD_SEAT, 4);
    expect_error(H "\n1 claims lc 1:2c,3c,4c 3:5c,6c,7c lost (8:2c)\n", LIT_BAD_SEAT, 4);
    expect_error(H "\n100 asks 2 for 3c\n", LIT_BAD_SEAT, 4);
}

Test(notation, errors_cards_and_sets)
{
    expect_error(H "\n1 asks 2 for 8c\n", LIT_BAD_CARD, 4);
    expect_error(H "\n1 asks 2 for 3c: miss\n2 asks 1 for Xc\n", LIT_BAD_CARD, 5);
    expect_error(H "\n1 asks 2 for 3x\n", LIT_BAD_CARD, 4);
    expect_error(H "\n1 asks 2 for JK1\n", LIT_BAD_CARD, 4);
    expect_error(H "\n1 asks 2 for 11c\n", LIT_BAD_CARD, 4);
    expect_error(H "\n1 asks 2 for 3cc\n", LIT_BAD_CARD, 4);
    expect_error(H "\n1 claims lc 1:2c,3c,4c,5c,6c,7x\n", LIT_BAD_CARD, 4);
    expect_error("[Rules \"encyclopedia\"]\n[Dealer \"1\"]\n\n1 asks 2 for 2c\n",
                 LIT_BAD_CARD, 4);
    expect_error(H "[Hand1 \"2c 8c\"]\n", LIT_BAD_CARD, 3);

    expect_error(H "\n1 claims ej 1:8c,8d,8h,8s,JK1,JK2\n", LIT_BAD_SET, 4);
    expect_error(H "\n1 claims queens 1:Qc,Qd,Qh,Qs\n", LIT_BAD_SET, 4);
    expect_error(H "\n1 claims low-stars 1:2c\n", LIT_BAD_SET, 4);
    expect_error("[Rules \"quartets\"]\n[Dealer \"1\"]\n\n1 claims lc 1:2c,3c,4c,5c,6c,7c\n",
                 LIT_BAD_SET, 4);
}

Test(notation, errors_claim_cards)
{
    expect_error(H "\n1 claims lc 1:2c,3c,4c,5c,6c,7c,2c\n", LIT_BAD_CLAIM_CARDS, 4);
    expect_error(H "\n1 claims lc 1:2c,3c,4c 3:5c,6c,7c 5:2c\n", LIT_BAD_CLAIM_CARDS, 4);
    expect_error(H "\n1 claims lc 1:2c,3c,4c,5c,6c,9c\n", LIT_BAD_CLAIM_CARDS, 4);
    expect_error(H "\n1 claims lc 1:2c,3c,4c,5c,6c,7c,9c\n", LIT_BAD_CLAIM_CARDS, 4);
    expect_error(H "\n1 claims lc 1:2c,3c,4c,5c,6c,7c lost (2:9c)\n", LIT_BAD_CLAIM_CARDS, 4);
    expect_error(H "\n1 claims lc 1:2c,3c,4c,5c,6c,7c lost (2:2c 4:2c)\n",
                 LIT_BAD_CLAIM_CARDS, 4);
}

/* An error in the movetext leaves the header and the events before it
 * (what a trace follows); one in the header does not say so. */
Test(notation, an_error_in_the_moves_keeps_what_came_before)
{
    LitEvent events[8];
    uint32_t at[8];
    LitRecord rec;
    LitParseError err;
    const char *text = "[Rules \"classic players=8\"]\n[Dealer \"3\"]\n\n1. 4 asks 5 for 2c: miss\n"
                       "2. 5 asks 6 for 3c: hit\n3. 5 asks 6 for Zz\n4. 5 asks 2 for 4c\n";
    lit_record_init(&rec, events, at, 8);
    cr_assert_eq(lit_record_parse(&rec, text, strlen(text), &err), LIT_BAD_CARD);
    cr_assert_eq(err.line, 6);
    cr_assert(err.moves);
    cr_assert_eq(rec.n_events, 2);
    cr_assert_eq(rec.rules.players, 8);
    cr_assert_eq(rec.dealer, 2);
    cr_assert_eq(at[1], 5);
    text = "[Rules \"classic\"]\n[Dealer \"9\"]\n\n1. 2 asks 3 for 2c\n";
    cr_assert_neq(lit_record_parse(&rec, text, strlen(text), &err), LIT_OK);
    cr_assert_eq(err.line, 2, "the Dealer tag's line");
    cr_assert_not(err.moves);
}

/* A claim that leaves cards out is well formed: their holders are nobody,
 * and the referee refuses it by its own name, claim_incomplete, as one
 * sent over the protocol (the names agree). */
Test(notation, a_claim_leaving_cards_out_is_the_referees_to_refuse)
{
    static const char *const lines[] = {"1 claims lc 1:2c,3c,4c,5c,6c", "1 claims lc 1:2c,3c,4c,5c,6c won",
                                        "1 claims lc", "1 claims lc lost (2:7c)"};
    for (size_t i = 0; i < sizeof lines / sizeof *lines; i++) {
        char text[512];
        snprintf(text, sizeof text, H "\n%s\n", lines[i]);
        LitEvent events[4];
        uint32_t at[4];
        LitRecord rec;
        LitParseError err;
        lit_record_init(&rec, events, at, 4);
        cr_assert_eq(lit_record_parse(&rec, text, strlen(text), &err), LIT_OK, "'%s': %s",
                     lines[i], lit_status_name(err.status));
        cr_assert_eq(rec.n_events, 1);
        int named = 0;
        for (int pos = 0; pos < 6; pos++)
            named += events[0].action.holders[pos] != LIT_NOBODY;
        cr_assert_eq(named, i == 0 || i == 1 ? 5 : 0, "'%s'", lines[i]);
        LitReplay rp;
        LitEvent e;
        cr_assert_eq(lit_replay_start(&rp, &rec), LIT_OK);
        int st = lit_replay_step(&rp, &events[0], &e);
        cr_assert_eq(st, LIT_CLAIM_INCOMPLETE, "'%s': %s", lines[i], lit_status_name(st));
    }
}

Test(notation, errors_move_numbers)
{
    expect_error(H "\n2. 1 asks 2 for 3c\n", LIT_BAD_MOVE_NUMBER, 4);
    expect_error(H "\n0. 1 asks 2 for 3c\n", LIT_BAD_MOVE_NUMBER, 4);
    expect_error(H "\n1. 1 asks 2 for 3c\n3. 2 asks 1 for 5c\n", LIT_BAD_MOVE_NUMBER, 5);
    expect_error(H "\n1. 1 asks 2 for 3c\n1. 2 asks 1 for 5c\n", LIT_BAD_MOVE_NUMBER, 5);
    expect_error(H "\n1 asks 2 for 3c\n; comment\n\n3. 2 asks 1 for 5c\n4. 2 asks 3 for 4c\n",
                 LIT_BAD_MOVE_NUMBER, 7);
    LitRecord rec;
    parse_ok(&rec, H "\n1 asks 2 for 3c\n; comment\n\n2. 2 asks 1 for 5c\n2 asks 3 for 4c\n");
    cr_assert_eq(rec.n_events, 3);
    cr_assert_eq(ln1[0], 4);
    cr_assert_eq(ln1[1], 7);
    cr_assert_eq(ln1[2], 8);
}

Test(notation, an_error_leaves_the_buffers)
{
    LitRecord rec;
    LitParseError err;
    int st = parse_with(&rec, ev1, ln1, 17, H "\n1 asks 2 for 8c\n", strlen(H "\n1 asks 2 for 8c\n"), &err);
    cr_assert_eq(st, LIT_BAD_CARD);
    cr_assert_eq(rec.events, ev1);
    cr_assert_eq(rec.lines, ln1);
    cr_assert_eq(rec.cap, 17);
    /* err may be NULL. */
    cr_assert_eq(parse_with(&rec, ev1, ln1, CAP, "[x", 2, NULL), LIT_SYNTAX);
}

/* ---- lit_name_check ------------------------------------------------------------------ */

Test(notation, name_check)
{
    cr_assert_eq(lit_name_check("Asha", 4, LIT_NAME_MAX), LIT_OK);
    cr_assert_eq(lit_name_check("Asha", 0, LIT_NAME_MAX), LIT_BAD_NAME);
    cr_assert_eq(lit_name_check("Asha", 4, 3), LIT_BAD_NAME);
    cr_assert_eq(lit_name_check("Asha", 4, 4), LIT_OK);
    cr_assert_eq(lit_name_check("Ash ", 4, 32), LIT_BAD_NAME);
    cr_assert_eq(lit_name_check(" Ash", 4, 32), LIT_BAD_NAME);
    cr_assert_eq(lit_name_check("A sh", 4, 32), LIT_OK);
    cr_assert_eq(lit_name_check("A\0sh", 4, 32), LIT_BAD_NAME, "a NUL is a control character");
    cr_assert_eq(lit_name_check("A\nsh", 4, 32), LIT_BAD_NAME);
    cr_assert_eq(lit_name_check("A\rsh", 4, 32), LIT_BAD_NAME);
    cr_assert_eq(lit_name_check("A\x7fsh", 4, 32), LIT_BAD_NAME);
    cr_assert_eq(lit_name_check("A\xc2\x85", 3, 32), LIT_BAD_NAME, "U+0085 NEL");
    cr_assert_eq(lit_name_check("A\xc2\xa1", 3, 32), LIT_OK, "U+00A1");
    cr_assert_eq(lit_name_check("\xc3\xab", 1, 32), LIT_BAD_NAME, "cut in the middle");
    cr_assert_eq(lit_name_check("\xc3\xab", 2, 32), LIT_OK);
    cr_assert_eq(lit_name_check("\xe2\x82\xac", 3, 32), LIT_OK, "the euro sign");
    cr_assert_eq(lit_name_check("\xe2\x82\xac", 3, 2), LIT_BAD_NAME, "max counts bytes");
    cr_assert_eq(lit_name_check("\xe0\x9f\xbf", 3, 32), LIT_BAD_NAME, "overlong U+07FF");
    cr_assert_eq(lit_name_check("\xe0\xa0\x80", 3, 32), LIT_OK, "U+0800");
    cr_assert_eq(lit_name_check("\xf0\x8f\xbf\xbf", 4, 32), LIT_BAD_NAME, "overlong U+FFFF");
    cr_assert_eq(lit_name_check("\xf0\x90\x80\x80", 4, 32), LIT_OK, "U+10000");
    cr_assert_eq(lit_name_check("\xf5\x80\x80\x80", 4, 32), LIT_BAD_NAME);
    cr_assert_eq(lit_name_check("\xed\xa0\xbd\xed\xb0\x9f", 6, 32), LIT_BAD_NAME,
                 "a CESU-8 surrogate pair");
    cr_assert_eq(lit_name_check("\xef\xbf\xbf", 3, 32), LIT_OK, "U+FFFF is not a control");
    char s[65];
    memset(s, 'x', 64);
    cr_assert_eq(lit_name_check(s, 64, LIT_TEXT_MAX), LIT_OK);
    cr_assert_eq(lit_name_check(s, 33, LIT_NAME_MAX), LIT_BAD_NAME);
    cr_assert_eq(lit_name_check(s, 32, LIT_NAME_MAX), LIT_OK);
    /* Only len bytes are read. */
    cr_assert_eq(lit_name_check("ab ", 2, 32), LIT_OK);
    cr_assert_eq(lit_name_check("ab\x01", 2, 32), LIT_OK);
}

/* A name given now: no invisible or reordering characters, something to see. */
static int new_name(const char *s)
{
    return lit_name_check_new(s, strlen(s), LIT_NAME_MAX);
}

Test(notation, name_check_new)
{
    cr_assert_eq(new_name("Asha"), LIT_OK);
    cr_assert_eq(new_name("A sh"), LIT_OK);
    cr_assert_eq(new_name(" Ash"), LIT_BAD_NAME, "what lit_name_check refuses");
    cr_assert_eq(new_name("\xe2\x80\x8b"), LIT_BAD_NAME, "U+200B zero-width space alone");
    cr_assert_eq(new_name("A\xe2\x80\x8b"), LIT_BAD_NAME, "U+200B after a letter");
    cr_assert_eq(new_name("ab\xe2\x80\xae" "cd"), LIT_BAD_NAME, "U+202E right-to-left override");
    cr_assert_eq(new_name("ab\xe2\x80\x8f"), LIT_BAD_NAME, "U+200F right-to-left mark");
    cr_assert_eq(new_name("\xe2\x81\xa7" "ab\xe2\x81\xa9"), LIT_BAD_NAME, "U+2067..U+2069 isolates");
    cr_assert_eq(new_name("\xef\xbb\xbf" "Asha"), LIT_BAD_NAME, "U+FEFF byte order mark");
    cr_assert_eq(new_name("As\xc2\xadha"), LIT_BAD_NAME, "U+00AD soft hyphen");
    cr_assert_eq(new_name("A\xe2\x80\xa8" "b"), LIT_BAD_NAME, "U+2028 line separator");
    cr_assert_eq(new_name("\xe3\x85\xa4"), LIT_BAD_NAME, "U+3164 Hangul filler");
    cr_assert_eq(new_name("\xe2\xa0\x80"), LIT_BAD_NAME, "U+2800 blank Braille pattern");
    cr_assert_eq(new_name("a\xf3\xa0\x81\x81"), LIT_BAD_NAME, "U+E0041 a tag");
    cr_assert_eq(new_name("\xe3\x80\x80" "Asha"), LIT_BAD_NAME, "U+3000 at the start");
    cr_assert_eq(new_name("Asha\xc2\xa0"), LIT_BAD_NAME, "U+00A0 at the end");
    cr_assert_eq(new_name("A\xc2\xa0sha"), LIT_OK, "U+00A0 inside");
    cr_assert_eq(new_name("\xc2\xa0\xe2\x80\x8d"), LIT_BAD_NAME, "spaces and joiners only");
    cr_assert_eq(new_name("\xe2\x80\x8d\xef\xb8\x8f"), LIT_BAD_NAME, "a joiner and a selector only");
    cr_assert_eq(new_name("\xd9\x85\xe2\x80\x8c\xd9\x8a"), LIT_OK, "U+200C inside a Persian word");
    cr_assert_eq(new_name("\xf0\x9f\x91\xa9\xe2\x80\x8d\xf0\x9f\x92\xbb"), LIT_OK,
                 "an emoji sequence with U+200D");
    cr_assert_eq(new_name("\xe2\x9d\xa4\xef\xb8\x8f"), LIT_OK, "a heart with U+FE0F");
    cr_assert_eq(new_name("\xd7\xa9\xd7\x9c\xd7\x95\xd7\x9d"), LIT_OK, "Hebrew letters");
    /* What was kept before still reads. */
    cr_assert_eq(lit_name_check("ab\xe2\x80\xae" "cd", 7, LIT_NAME_MAX), LIT_OK);
}

/* ---- lit_event_format ------------------------------------------------------------------ */

static LitEvent blank_event(void)
{
    LitEvent e;
    memset(&e, 0, sizeof e);
    e.action = lit_action_make(0, 0);
    memset(e.truth, LIT_NOBODY, sizeof e.truth);
    return e;
}

Test(notation, event_format)
{
    LitRules r = rules_of("classic");
    char buf[LIT_LINE_MAX];
    LitEvent e = blank_event();
    e.action.kind = LIT_ASK;
    e.action.seat = 2;
    e.action.target = 3;
    e.action.card = (uint8_t)lit_card_parse(r.deck, "Qh", 2);
    e.answer = LIT_HIT;
    cr_assert_eq(lit_event_format(&r, &e, 12, buf, sizeof buf), 24);
    cr_assert_str_eq(buf, "12. 3 asks 4 for Qh: hit");
    cr_assert_eq(lit_event_format(&r, &e, 0, buf, sizeof buf), 20);
    cr_assert_str_eq(buf, "3 asks 4 for Qh: hit");
    e.answer = LIT_MISS;
    lit_event_format(&r, &e, 1, buf, sizeof buf);
    cr_assert_str_eq(buf, "1. 3 asks 4 for Qh: miss");
    e.answer = LIT_UNKNOWN;
    lit_event_format(&r, &e, 0, buf, sizeof buf);
    cr_assert_str_eq(buf, "3 asks 4 for Qh");

    /* Exactly the room for the text and its 0, and one byte less. */
    cr_assert_eq(lit_event_format(&r, &e, 0, buf, 16), 15);
    cr_assert_eq(lit_event_format(&r, &e, 0, buf, 15), LIT_NO_SPACE);
    cr_assert_eq(lit_event_format(&r, &e, 0, buf, 0), LIT_NO_SPACE);

    e = blank_event();
    e.action.kind = LIT_CLAIM;
    e.action.seat = 1;
    e.action.set = (uint8_t)lit_set_parse(r.deck, "hs", 2);
    static const uint8_t named[6] = {1, 1, 1, 3, 3, 5}; /* 9s Ts Js | Qs Ks | As */
    memcpy(e.action.holders, named, 6);
    lit_event_format(&r, &e, 3, buf, sizeof buf);
    cr_assert_str_eq(buf, "3. 2 claims high-spades 2:9s,Ts,Js 4:Qs,Ks 6:As");
    e.answer = LIT_WON;
    memcpy(e.truth, named, 6);
    lit_event_format(&r, &e, 3, buf, sizeof buf);
    cr_assert_str_eq(buf, "3. 2 claims high-spades 2:9s,Ts,Js 4:Qs,Ks 6:As won");
    e.answer = LIT_CANCELLED;
    e.truth[2] = 5;
    e.truth[5] = 3;
    lit_event_format(&r, &e, 0, buf, sizeof buf);
    cr_assert_str_eq(buf, "2 claims high-spades 2:9s,Ts,Js 4:Qs,Ks 6:As cancelled (4:As 6:Js)");
    e.answer = LIT_POINT_OFF;
    e.truth[0] = 0;
    lit_event_format(&r, &e, 0, buf, sizeof buf);
    cr_assert_str_eq(buf, "2 claims high-spades 2:9s,Ts,Js 4:Qs,Ks 6:As point-off (1:9s 4:As 6:Js)");

    e = blank_event();
    e.action.kind = LIT_PASS;
    e.action.seat = 3;
    e.action.target = 5;
    lit_event_format(&r, &e, 0, buf, sizeof buf);
    cr_assert_str_eq(buf, "4 passes to 6");
    e.action.kind = LIT_CHOOSE;
    e.action.seat = 0;
    e.action.target = 4;
    lit_event_format(&r, &e, 2000, buf, sizeof buf);
    cr_assert_str_eq(buf, "2000. 1 chooses 5");

    /* Other decks name their cards and sets. */
    LitRules j = rules_of("jokers players=12");
    e = blank_event();
    e.action.kind = LIT_CLAIM;
    e.action.seat = 11;
    e.action.set = 8;
    static const uint8_t ej[6] = {11, 9, 7, 5, 3, 1};
    memcpy(e.action.holders, ej, 6);
    memcpy(e.truth, ej, 6);
    e.truth[4] = 0;
    e.answer = LIT_LOST;
    lit_event_format(&j, &e, 0, buf, sizeof buf);
    cr_assert_str_eq(buf, "12 claims eights-jokers 2:JK2 4:JK1 6:8s 8:8h 10:8d 12:8c lost (1:JK1)");
}

/* The line of every event of a parsed record formats back to its canonical line. */
Test(notation, event_format_matches_the_record_lines)
{
    LitRecord rec;
    parse_ok(&rec, EXAMPLE);
    const char *p = strstr(EXAMPLE, "\n1. ") + 1;
    for (uint32_t i = 0; i < rec.n_events; i++) {
        char buf[LIT_LINE_MAX];
        int n = lit_event_format(&rec.rules, &rec.events[i], (int)i + 1, buf, sizeof buf);
        const char *nl = strchr(p, '\n');
        cr_assert_eq((size_t)n, (size_t)(nl - p));
        cr_assert_eq(memcmp(buf, p, (size_t)n), 0, "event %u: %s", i + 1, buf);
        p = nl + 1;
    }
}

/* ---- replays with a known deal ----------------------------------------------------------- */

static int replay_all(LitReplay *rp, const LitRecord *rec, uint32_t *failed_at)
{
    int st = lit_replay_start(rp, rec);
    if (st != LIT_OK) {
        *failed_at = 0;
        return st;
    }
    for (uint32_t i = 0; i < rec->n_events; i++) {
        LitReplay before = *rp;
        st = lit_replay_step(rp, &rec->events[i], NULL);
        if (st != LIT_OK) {
            cr_assert_eq(memcmp(&before, rp, sizeof before), 0,
                         "a refused event (%s) changed the replay", lit_status_name(st));
            *failed_at = i + 1;
            return st;
        }
    }
    *failed_at = 0;
    return LIT_OK;
}

Test(notation, known_deal_with_omitted_answers_computes_them)
{
    LitRecord bare, full;
    LitReplay rp;
    LitRecord *b = &bare;
    parse_ok(&full, EXAMPLE);
    /* full uses ev1; bare needs its own buffer. */
    static const char text[] = EX_RULES EX_SEED EX_HANDS "\n" EX_BARE_MOVES;
    cr_assert_eq(parse_with(b, ev2, ln2, CAP, text, strlen(text), NULL), LIT_OK);
    for (uint32_t i = 0; i < b->n_events; i++)
        cr_assert_eq(b->events[i].answer, LIT_UNKNOWN);
    cr_assert_eq(lit_replay_start(&rp, b), LIT_OK);
    cr_assert(rp.known);
    for (uint32_t i = 0; i < b->n_events; i++) {
        LitEvent out;
        cr_assert_eq(lit_replay_step(&rp, &b->events[i], &out), LIT_OK, "event %u", i + 1);
        cr_assert_eq(memcmp(&out, &full.events[i], sizeof out), 0,
                     "event %u: the worked-out answer is the example's", i + 1);
    }
    cr_assert_eq(rp.game.pub.score[0], 1);
    cr_assert_eq(rp.game.pub.score[1], 1);
    /* The Seed alone (no Hand tags) is a known deal too. */
    static const char seed_only[] = EX_RULES EX_SEED "\n" EX_BARE_MOVES;
    cr_assert_eq(parse_with(b, ev2, ln2, CAP, seed_only, strlen(seed_only), NULL), LIT_OK);
    uint32_t at;
    cr_assert_eq(replay_all(&rp, b, &at), LIT_OK);
    cr_assert(rp.known);
    cr_assert_eq(rp.game.pub.score[0], 1);
    cr_assert_eq(rp.game.pub.score[1], 1);
    /* The Hand tags alone too. */
    static const char hands_only[] = EX_RULES EX_HANDS "\n" EX_BARE_MOVES;
    cr_assert_eq(parse_with(b, ev2, ln2, CAP, hands_only, strlen(hands_only), NULL), LIT_OK);
    cr_assert_eq(replay_all(&rp, b, &at), LIT_OK);
    cr_assert(rp.known);
    cr_assert_eq(lit_replay_check_result(&rp, &full, NULL), LIT_OK, "Result * and Score 1-1");
}

static void expect_replay_error(const char *text, int status, uint32_t event)
{
    LitRecord rec;
    LitReplay rp;
    uint32_t at = 99;
    parse_ok(&rec, text);
    int st = replay_all(&rp, &rec, &at);
    cr_expect_eq(st, status, "replay: %s, want %s, of:\n%s", lit_status_name(st),
                 lit_status_name(status), text);
    cr_expect_eq(at, event, "replay stopped at event %u, want %u", at, event);
}

Test(notation, written_wrong_answers_are_outcome_mismatches)
{
    /* Each replaces one line of the example. */
    expect_replay_error(EX_RULES EX_HANDS "\n1. 1 asks 2 for 3c: hit\n",
                        LIT_OUTCOME_MISMATCH, 1);
    expect_replay_error(EX_RULES EX_HANDS "\n1. 1 asks 2 for 3c\n2. 2 asks 1 for 5c: miss\n",
                        LIT_OUTCOME_MISMATCH, 2);
#define six EX_RULES EX_HANDS "\n" \
        "1. 1 asks 2 for 3c\n2. 2 asks 1 for 5c\n3. 2 asks 3 for 4c\n" \
        "4. 2 asks 5 for 6c\n5. 5 asks 4 for 4s\n6. 5 asks 2 for 7s\n"
    expect_replay_error(six "7. 5 claims low-spades 1:3s 3:2s,6s 5:4s,5s,7s lost\n",
                        LIT_OUTCOME_MISMATCH, 7);
    expect_replay_error(six "7. 5 claims low-spades 1:3s 3:2s,6s 5:4s,5s,7s won (3:3s)\n",
                        LIT_OUTCOME_MISMATCH, 7);
#define eight_prefix EX_RULES EX_HANDS "\n" \
        "1. 1 asks 2 for 3c\n2. 2 asks 1 for 5c\n3. 2 asks 3 for 4c\n" \
        "4. 2 asks 5 for 6c\n5. 5 asks 4 for 4s\n6. 5 asks 2 for 7s\n" \
        "7. 5 claims low-spades 1:3s 3:2s,6s 5:4s,5s,7s won\n"
    /* the right outcome with a wrong holder, a holder left out, a wrong outcome */
    expect_replay_error(eight_prefix
                        "8. 5 claims hh 1:Jh 3:9h,Th,Qh,Kh 5:Ah lost (4:Th,Kh 6:9h 2:Qh)\n",
                        LIT_OUTCOME_MISMATCH, 8);
    expect_replay_error(eight_prefix
                        "8. 5 claims hh 1:Jh 3:9h,Th,Qh,Kh 5:Ah lost (4:Th,Kh 6:9h)\n",
                        LIT_OUTCOME_MISMATCH, 8);
    expect_replay_error(eight_prefix
                        "8. 5 claims hh 1:Jh 3:9h,Th,Qh,Kh 5:Ah cancelled (4:Th,Kh 6:9h,Qh)\n",
                        LIT_OUTCOME_MISMATCH, 8);
    expect_replay_error(eight_prefix "8. 5 claims hh 1:Jh 3:9h,Th,Qh,Kh 5:Ah won\n",
                        LIT_OUTCOME_MISMATCH, 8);
    /* Illegal actions are refused with their own status and change nothing. */
    expect_replay_error(EX_RULES EX_HANDS "\n1. 2 asks 1 for 3c\n", LIT_NOT_YOUR_TURN, 1);
    expect_replay_error(EX_RULES EX_HANDS "\n1. 1 asks 2 for 2c\n", LIT_OWN_CARD, 1);
    expect_replay_error(EX_RULES EX_HANDS "\n1. 1 asks 3 for 3c\n", LIT_ASK_TEAMMATE, 1);
    expect_replay_error(eight_prefix "8. 5 claims ls 5:2s,3s,4s,5s,6s,7s\n", LIT_SET_CLAIMED, 8);
}

Test(notation, replay_step_out_may_be_null_and_nothing_changes_on_error)
{
    LitRecord rec;
    LitReplay rp;
    parse_ok(&rec, EX_RULES EX_HANDS "\n1. 1 asks 2 for 3c: hit\n1 asks 2 for 3c: miss\n");
    cr_assert_eq(lit_replay_start(&rp, &rec), LIT_OK);
    LitReplay before = rp;
    LitEvent out;
    memset(&out, 0x5A, sizeof out);
    LitEvent out_before = out;
    cr_assert_eq(lit_replay_step(&rp, &rec.events[0], &out), LIT_OUTCOME_MISMATCH);
    cr_assert_eq(memcmp(&before, &rp, sizeof rp), 0, "a wrong answer changes nothing");
    cr_assert_eq(memcmp(&out, &out_before, sizeof out), 0, "nor *out");
    cr_assert_eq(lit_replay_step(&rp, &rec.events[1], NULL), LIT_OK);
    cr_assert_eq(turn_of(&rp.game), 2);
}

Test(notation, deal_mismatch_and_bad_deal)
{
    LitRecord rec;
    LitReplay rp;
    parse_ok(&rec, EX_RULES "[Seed \"2\"]\n" EX_HANDS);
    cr_assert_eq(lit_replay_start(&rp, &rec), LIT_DEAL_MISMATCH);
    parse_ok(&rec, "[Rules \"classic\"]\n[Dealer \"2\"]\n" EX_SEED EX_HANDS);
    cr_assert_eq(lit_replay_start(&rp, &rec), LIT_DEAL_MISMATCH, "the deal depends on the dealer");
    parse_ok(&rec, EX_RULES EX_SEED EX_HANDS);
    cr_assert_eq(lit_replay_start(&rp, &rec), LIT_OK);

    /* A card in two hands (and so a card missing). */
    parse_ok(&rec, EX_RULES
             "[Hand1 \"2c 5c 4d 6d 7h Jh 3s As\"]\n"
             "[Hand2 \"7c Tc 7d 9d Kd Ad 6h 7s\"]\n"
             "[Hand3 \"4c 6c Ac Qd 5h 2s 6s 9s\"]\n"
             "[Hand4 \"Jc Kc 3d 5d Th Kh 4s Qs\"]\n"
             "[Hand5 \"3c Qc 2d Jd 3h 4h Ah 5s\"]\n"
             "[Hand6 \"9c Td 2h 9h Qh Ts Js 2c\"]\n");
    cr_assert_eq(lit_replay_start(&rp, &rec), LIT_BAD_DEAL);
    /* A card missing. */
    parse_ok(&rec, EX_RULES
             "[Hand1 \"2c 5c 4d 6d 7h Jh 3s As\"]\n"
             "[Hand2 \"7c Tc 7d 9d Kd Ad 6h 7s\"]\n"
             "[Hand3 \"4c 6c Ac Qd 5h 2s 6s 9s\"]\n"
             "[Hand4 \"Jc Kc 3d 5d Th Kh 4s Qs\"]\n"
             "[Hand5 \"3c Qc 2d Jd 3h 4h Ah 5s\"]\n"
             "[Hand6 \"9c Td 2h 9h Qh Ts Js\"]\n");
    cr_assert_eq(lit_replay_start(&rp, &rec), LIT_BAD_DEAL);
    /* A seat with no cards. */
    parse_ok(&rec, EX_RULES
             "[Hand1 \"2c 5c 4d 6d 7h Jh 3s As\"]\n"
             "[Hand2 \"7c Tc 7d 9d Kd Ad 6h 7s\"]\n"
             "[Hand3 \"4c 6c Ac Qd 5h 2s 6s 9s\"]\n"
             "[Hand4 \"Jc Kc 3d 5d Th Kh 4s Qs\"]\n"
             "[Hand5 \"3c Qc 2d Jd 3h 4h Ah 5s 9c Td 2h 9h Qh Ts Js Ks\"]\n"
             "[Hand6 \"\"]\n");
    cr_assert_eq(lit_replay_start(&rp, &rec), LIT_BAD_DEAL);
    /* Sizes need not follow the deal order. */
    parse_ok(&rec, EX_RULES
             "[Hand1 \"2c 5c 4d 6d 7h Jh 3s As 9c\"]\n"
             "[Hand2 \"7c Tc 7d 9d Kd Ad 6h 7s\"]\n"
             "[Hand3 \"4c 6c Ac Qd 5h 2s 6s 9s\"]\n"
             "[Hand4 \"Jc Kc 3d 5d Th Kh 4s Qs\"]\n"
             "[Hand5 \"3c Qc 2d Jd 3h 4h Ah 5s\"]\n"
             "[Hand6 \"Td 2h 9h Qh Ts Js Ks\"]\n");
    cr_assert_eq(lit_replay_start(&rp, &rec), LIT_OK);
    cr_assert_eq(rp.game.pub.counts[0], 9);
    cr_assert_eq(rp.game.pub.counts[5], 7);
    /* A card twice in one hand is found by the parser. */
    expect_error(EX_RULES "[Hand1 \"2c 2c\"]\n", LIT_BAD_DEAL, 3);
}

Test(notation, result_mismatch)
{
    LitRecord rec;
    LitReplay rp;
    uint32_t at;
    static const struct {
        const char *tags;
        int status;
    } cases[] = {
        {"[Result \"*\"]\n[Score \"1-1\"]\n", LIT_OK},
        {"[Result \"*\"]\n", LIT_OK},
        {"[Score \"1-1\"]\n", LIT_OK},
        {"", LIT_OK},
        {"[Result \"A\"]\n", LIT_RESULT_MISMATCH},
        {"[Result \"draw\"]\n", LIT_RESULT_MISMATCH},
        {"[Result \"aborted\"]\n[Score \"1-1\"]\n", LIT_RESULT_MISMATCH},
        {"[Score \"2-0\"]\n", LIT_RESULT_MISMATCH},
        {"[Score \"1-0\"]\n", LIT_RESULT_MISMATCH},
        {"[Result \"*\"]\n[Score \"1--1\"]\n", LIT_RESULT_MISMATCH},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char t[2048];
        snprintf(t, sizeof t, EX_RULES EX_SEED "%s\n" EX_MOVES, cases[i].tags);
        parse_ok(&rec, t);
        cr_assert_eq(replay_all(&rp, &rec, &at), LIT_OK);
        cr_expect_eq(lit_replay_check_result(&rp, &rec, NULL), cases[i].status,
                     "case %zu: %s", i, cases[i].tags);
    }
    /* The same without a deal: public information gives the score too. */
    parse_ok(&rec, EX_RULES "[Score \"1-1\"]\n\n" EX_MOVES);
    cr_assert_eq(replay_all(&rp, &rec, &at), LIT_OK);
    cr_assert_eq(lit_replay_check_result(&rp, &rec, NULL), LIT_OK);
    parse_ok(&rec, EX_RULES "[Result \"B\"]\n\n" EX_MOVES);
    cr_assert_eq(replay_all(&rp, &rec, &at), LIT_OK);
    cr_assert_eq(lit_replay_check_result(&rp, &rec, NULL), LIT_RESULT_MISMATCH);
    /* The line given is that of the tag that does not match. */
    uint32_t line = 0;
    parse_ok(&rec, EX_RULES "[Result \"*\"]\n[Score \"2-0\"]\n\n" EX_MOVES);
    cr_assert_eq(replay_all(&rp, &rec, &at), LIT_OK);
    cr_assert_eq(lit_replay_check_result(&rp, &rec, &line), LIT_RESULT_MISMATCH);
    cr_assert_eq(line, rec.score_line);
    cr_assert_neq(line, rec.result_line);
}

/* ---- replays without a deal ------------------------------------------------------------- */

static int pub_equal(const LitPublic *a, const LitPublic *b)
{
    return memcmp(&a->rules, &b->rules, sizeof a->rules) == 0 &&
           a->dealer == b->dealer && a->turn == b->turn && a->phase == b->phase &&
           a->result == b->result &&
           memcmp(a->counts, b->counts, sizeof a->counts) == 0 &&
           a->actions == b->actions && a->won[0] == b->won[0] &&
           a->won[1] == b->won[1] && a->dead == b->dead &&
           a->score[0] == b->score[0] && a->score[1] == b->score[1] &&
           a->live == b->live;
}

Test(notation, no_deal_replays_public_information)
{
    LitRecord known, open;
    LitReplay rk, ro;
    parse_ok(&known, EXAMPLE);
    static const char text[] = EX_RULES "\n" EX_MOVES;
    cr_assert_eq(parse_with(&open, ev2, ln2, CAP, text, strlen(text), NULL), LIT_OK);
    cr_assert(!open.has_deal && !open.has_seed);
    cr_assert_eq(lit_replay_start(&rk, &known), LIT_OK);
    cr_assert_eq(lit_replay_start(&ro, &open), LIT_OK);
    cr_assert(!ro.known);
    cr_assert(pub_equal(&rk.game.pub, &ro.game.pub));
    for (int s = 0; s < 6; s++)
        cr_assert_eq(ro.game.pub.counts[s], 8);
    static const int turns[8] = {2, 2, 2, 5, 5, 5, 5, 5};
    static const int scores[8][2] = {{0, 0}, {0, 0}, {0, 0}, {0, 0},
                                     {0, 0}, {0, 0}, {1, 0}, {1, 1}};
    for (uint32_t i = 0; i < open.n_events; i++) {
        LitEvent out;
        cr_assert_eq(lit_replay_step(&rk, &known.events[i], NULL), LIT_OK);
        cr_assert_eq(lit_replay_step(&ro, &open.events[i], &out), LIT_OK, "event %u", i + 1);
        cr_assert_eq(memcmp(&out, &open.events[i], sizeof out), 0);
        cr_assert(pub_equal(&rk.game.pub, &ro.game.pub),
                  "event %u: the public replay agrees with the referee", i + 1);
        cr_assert_eq(turn_of(&ro.game), turns[i], "event %u: turn %d", i + 1, turn_of(&ro.game));
        cr_assert_eq(ro.game.pub.score[0], scores[i][0]);
        cr_assert_eq(ro.game.pub.score[1], scores[i][1]);
    }
    cr_assert_eq(ro.game.pub.counts[1], 9, "seat 2: 8, +5c +4c -7s");
}

Test(notation, no_deal_missing_outcome)
{
    expect_replay_error(EX_RULES "\n1. 1 asks 2 for 3c\n", LIT_MISSING_OUTCOME, 1);
    expect_replay_error(EX_RULES "\n1. 1 asks 2 for 3c: miss\n2. 2 asks 1 for 5c\n",
                        LIT_MISSING_OUTCOME, 2);
    expect_replay_error(EX_RULES "\n1. 1 claims lc 1:2c,3c,4c 3:5c,6c,7c\n",
                        LIT_MISSING_OUTCOME, 1);
    /* Illegal actions are still refused first. */
    expect_replay_error(EX_RULES "\n1. 2 asks 1 for 3c\n", LIT_NOT_YOUR_TURN, 1);
    expect_replay_error(EX_RULES "\n1. 1 asks 3 for 3c: miss\n", LIT_ASK_TEAMMATE, 1);
    /* Passes and choices carry no answer. */
    expect_replay_error("[Rules \"classic pass-play=on\"]\n[Dealer \"1\"]\n\n1 passes to 3\n"
                        "3 passes to 5\n5 asks 2 for 3c: hit\n", LIT_OK, 0);
}

Test(notation, no_deal_outcome_must_follow_from_the_holders)
{
#define seven EX_RULES "\n" \
        "1. 1 asks 2 for 3c: miss\n2. 2 asks 1 for 5c: hit\n3. 2 asks 3 for 4c: hit\n" \
        "4. 2 asks 5 for 6c: miss\n5. 5 asks 4 for 4s: hit\n6. 5 asks 2 for 7s: hit\n" \
        "7. 5 claims low-spades 1:3s 3:2s,6s 5:4s,5s,7s won\n"
    /* every card where named: won, nothing else */
    expect_replay_error(EX_RULES "\n1. 1 claims lc 1:2c,3c,4c 3:5c,6c,7c lost\n",
                        LIT_OUTCOME_MISMATCH, 1);
    expect_replay_error(EX_RULES "\n1. 1 claims lc 1:2c,3c,4c 3:5c,6c,7c cancelled\n",
                        LIT_OUTCOME_MISMATCH, 1);
    expect_replay_error(EX_RULES "\n1. 1 claims lc 1:2c,3c,4c 3:5c,6c,7c won\n", LIT_OK, 0);
    /* an opponent held one: lost under classic, not won or cancelled */
    expect_replay_error(seven "8. 5 claims hh 1:Jh 3:9h,Th,Qh,Kh 5:Ah won (4:Th,Kh 6:9h,Qh)\n",
                        LIT_OUTCOME_MISMATCH, 8);
    expect_replay_error(seven "8. 5 claims hh 1:Jh 3:9h,Th,Qh,Kh 5:Ah cancelled (4:Th)\n",
                        LIT_OUTCOME_MISMATCH, 8);
    expect_replay_error(seven "8. 5 claims hh 1:Jh 3:9h,Th,Qh,Kh 5:Ah point-off (4:Th)\n",
                        LIT_OUTCOME_MISMATCH, 8);
    /* the team held them all, misplaced: cancelled */
    expect_replay_error(seven "8. 5 claims hh 1:Jh 3:9h,Th,Qh,Kh 5:Ah lost (1:Th)\n",
                        LIT_OUTCOME_MISMATCH, 8);
    expect_replay_error(seven "8. 5 claims hh 1:Jh 3:9h,Th,Qh,Kh 5:Ah cancelled (1:Th)\n",
                        LIT_OK, 0);
    /* point-off and opponents follow their rules */
    expect_replay_error("[Rules \"classic misclaim=point-off\"]\n[Dealer \"1\"]\n\n"
                        "1 claims lc 1:2c,3c,4c 3:5c,6c,7c lost (2:2c)\n",
                        LIT_OUTCOME_MISMATCH, 1);
    expect_replay_error("[Rules \"classic misclaim=point-off\"]\n[Dealer \"1\"]\n\n"
                        "1 claims lc 1:2c,3c,4c 3:5c,6c,7c point-off (2:2c)\n", LIT_OK, 0);
    expect_replay_error("[Rules \"classic misclaim=opponents\"]\n[Dealer \"1\"]\n\n"
                        "1 claims lc 1:2c,3c,4c 3:5c,6c,7c cancelled (1:5c)\n",
                        LIT_OUTCOME_MISMATCH, 1);
    expect_replay_error("[Rules \"classic misclaim=opponents\"]\n[Dealer \"1\"]\n\n"
                        "1 claims lc 1:2c,3c,4c 3:5c,6c,7c lost (1:5c)\n", LIT_OK, 0);
}

Test(notation, no_deal_bad_reveal)
{
    /* 12 players: every seat holds 4 cards. */
#define h12 "[Rules \"classic players=12\"]\n[Dealer \"1\"]\n\n"
    expect_replay_error(h12 "1 claims lc 1:2c,3c,4c,5c,6c,7c won\n", LIT_BAD_REVEAL, 1);
    expect_replay_error(h12 "1 claims lc 1:2c,3c,4c,5c 3:6c,7c won\n", LIT_OK, 0);
    expect_replay_error(h12 "1 claims lc 1:2c,3c 3:4c,5c,6c,7c lost (2:2c,3c,4c,5c,6c)\n",
                        LIT_BAD_REVEAL, 1);
    /* Hand sizes move with hits: seat 2 has 3 cards after giving one. */
    expect_replay_error(h12 "1 asks 2 for 3c: hit\n"
                            "1 claims lc 1:2c,3c 3:4c,5c,6c,7c lost (2:4c,5c,6c,7c)\n",
                        LIT_BAD_REVEAL, 2);
    expect_replay_error(h12 "1 asks 2 for 3c: hit\n"
                            "1 claims lc 1:2c,3c 3:4c,5c,6c,7c lost (2:5c,6c,7c)\n",
                        LIT_OK, 0);
    /* A seat with no cards left cannot be shown holding one. */
    expect_replay_error(h12 "1 claims lc 1:2c,3c,4c,5c 3:6c,7c won\n"
                            "1 claims hc 3:9c,Tc,Jc,Qc 5:Kc,Ac lost (1:9c 2:Tc)\n",
                        LIT_BAD_REVEAL, 2);
}

Test(notation, no_deal_turn_and_score_follow)
{
    LitRecord rec;
    LitReplay rp;
    uint32_t at;
    parse_ok(&rec, "[Rules \"classic after-claim=team\"]\n[Dealer \"3\"]\n\n"
                   "3 asks 4 for 2c: miss\n"
                   "4 asks 1 for 9h: hit\n"
                   "4 claims hh 2:Th 4:9h,Jh,Qh 6:Kh,Ah won\n"
                   "4 chooses 6\n"
                   "6 claims lh 2:2h 4:3h,4h 6:5h,6h,7h lost (1:2h)\n");
    cr_assert_eq(lit_replay_start(&rp, &rec), LIT_OK);
    cr_assert_eq(turn_of(&rp.game), 3, "the dealer starts");
    cr_assert_eq(lit_replay_step(&rp, &rec.events[0], NULL), LIT_OK);
    cr_assert_eq(turn_of(&rp.game), 4);
    cr_assert_eq(lit_replay_step(&rp, &rec.events[1], NULL), LIT_OK);
    cr_assert_eq(turn_of(&rp.game), 4);
    cr_assert_eq(rp.game.pub.counts[3], 9);
    cr_assert_eq(rp.game.pub.counts[0], 7);
    cr_assert_eq(lit_replay_step(&rp, &rec.events[2], NULL), LIT_OK);
    cr_assert_eq(rp.game.pub.phase, LIT_PHASE_CHOOSE_ASKER);
    cr_assert_eq(rp.game.pub.score[1], 1);
    cr_assert_eq(rp.game.pub.counts[3], 6, "the 9h it took and two more");
    cr_assert_eq(lit_replay_step(&rp, &rec.events[3], NULL), LIT_OK);
    cr_assert_eq(turn_of(&rp.game), 6);
    cr_assert_eq(rp.game.pub.phase, LIT_PHASE_PLAY);
    cr_assert_eq(lit_replay_step(&rp, &rec.events[4], NULL), LIT_OK);
    cr_assert_eq(rp.game.pub.score[0], 1, "lost: the set goes to team A");
    cr_assert_eq(rp.game.pub.score[1], 1);
    cr_assert_eq(rp.game.pub.phase, LIT_PHASE_CHOOSE_ASKER);
    cr_assert_eq(rp.game.pub.counts[0], 6);
    cr_assert_eq(rp.game.pub.actions, 5);
    (void)at;
}

/* ---- whole games ------------------------------------------------------------------------ */

static void play_random_game(const char *rules, uint64_t seed, LitGame *start,
                             LitGame *end, LitLog *log)
{
    LitRules r = rules_of(rules);
    LitRng rng;
    lit_rng_seed(&rng, seed ^ 0x5eed);
    int dealer = (int)(seed % r.players);
    cr_assert_eq(lit_game_new(start, &r, seed, dealer), LIT_OK);
    *end = *start;
    log->len = 0;
    unsigned odds = 3 + (unsigned)(seed % 20);
    while (!lit_game_over(end)) {
        LitEvent e;
        random_step(end, &e, &rng, odds);
        cr_assert_eq(lit_log_push(log, &e), LIT_OK);
    }
}

static const char *const GAME_RULES[] = {
    "classic",
    "quartets players=8",
    "jokers players=4 double-high=on",
    "encyclopedia players=12",
    "club players=10 after-claim=team pass-play=on claim-time=any-time split-claims=on bluff=on",
    "classic claim-time=penalty misclaim=opponents must-claim=on players=8",
    "india deck=no7 first=left early-end=on after-claim=team",
};

/* parse(format(r)) == r and the format is a fixed point; *back (in ev2)
 * is parse(format(r)). */
static void round_trip_record(const LitRecord *r, LitRecord *back)
{
    int n = lit_record_format(r, text1, sizeof text1);
    cr_assert_geq(n, 0, "format: %s", lit_status_name(n));
    int st = parse_with(back, ev2, ln2, CAP, text1, (size_t)n, NULL);
    cr_assert_eq(st, LIT_OK, "parse(format(r)): %s", lit_status_name(st));
    cr_assert(lit_record_equal(back, r), "parse(format(r)) != r:\n%s", text1);
    int m = lit_record_format(back, text2, sizeof text2);
    cr_assert_eq(m, n);
    cr_assert_str_eq(text2, text1);
}

static void replay_to_end(const LitRecord *rec, const LitGame *end, int known)
{
    LitReplay rp;
    uint32_t at;
    int st = replay_all(&rp, rec, &at);
    cr_assert_eq(st, LIT_OK, "replay: %s at event %u", lit_status_name(st), at);
    cr_assert_eq(rp.known, known);
    cr_assert(pub_equal(&rp.game.pub, &end->pub), "the replay ends where the game did");
    if (known)
        cr_assert_eq(memcmp(rp.game.hands, end->hands, sizeof end->hands), 0);
    cr_assert_eq(lit_replay_check_result(&rp, rec, NULL), LIT_OK);
}

Test(notation, self_played_games_round_trip_and_replay)
{
    static LitEvent game_events[LIT_MAX_ACTIONS];
    LitLog log;
    lit_log_init(&log, game_events, LIT_MAX_ACTIONS);
    int kinds[5] = {0}, answers[7] = {0}, results[5] = {0};
    for (size_t k = 0; k < sizeof GAME_RULES / sizeof GAME_RULES[0]; k++) {
        for (uint64_t i = 1; i <= 6; i++) {
            uint64_t seed = i * 7919 + k;
            LitGame start, end;
            play_random_game(GAME_RULES[k], seed, &start, &end, &log);
            LitRecord r, back;
            lit_record_init(&r, log.events, NULL, log.cap);
            lit_record_set_game(&r, &start, &end);
            r.n_events = log.len;
            r.has_seed = 1;
            r.seed = seed;
            snprintf(r.names[0], sizeof r.names[0], "P\xc3\xa9 \"%u\"", (unsigned)i);
            snprintf(r.event, sizeof r.event, "round trip %zu", k);
            cr_assert_eq(r.result, end.pub.result);
            results[end.pub.result]++;
            for (uint32_t j = 0; j < log.len; j++) {
                kinds[log.events[j].action.kind]++;
                answers[log.events[j].answer]++;
            }
            round_trip_record(&r, &back);
            /* The record replays to the same end: from the deal and seed,
             * from the seed alone, and from public information alone. */
            replay_to_end(&back, &end, 1);
            back.has_deal = 0;
            replay_to_end(&back, &end, 1);
            back.has_seed = 0;
            replay_to_end(&back, &end, 0);
            /* With every answer left out, the deal works them out. */
            back.has_deal = 1;
            for (uint32_t j = 0; j < back.n_events; j++) {
                back.events[j].answer = LIT_UNKNOWN;
                memset(back.events[j].truth, LIT_NOBODY, sizeof back.events[j].truth);
            }
            replay_to_end(&back, &end, 1);
            round_trip_record(&back, &r);
        }
    }
    cr_assert(kinds[LIT_ASK] && kinds[LIT_CLAIM] && kinds[LIT_PASS] && kinds[LIT_CHOOSE],
              "asks %d claims %d passes %d choices %d", kinds[LIT_ASK], kinds[LIT_CLAIM],
              kinds[LIT_PASS], kinds[LIT_CHOOSE]);
    for (int a = LIT_HIT; a <= LIT_POINT_OFF; a++)
        cr_assert_gt(answers[a], 0, "no %s in the games", lit_answer_name(a));
    cr_assert_gt(results[LIT_WIN_A], 0);
    cr_assert_gt(results[LIT_WIN_B], 0);
}

/* The longest game: 2,000 passes under pass-play, aborted at the bound. */
Test(notation, an_aborted_game_of_the_maximum_length_round_trips)
{
    static LitEvent game_events[LIT_MAX_ACTIONS];
    LitLog log;
    LitGame start, g;
    LitRules r = rules_of("classic players=12 pass-play=on");
    lit_log_init(&log, game_events, LIT_MAX_ACTIONS);
    cr_assert_eq(lit_game_new(&start, &r, 42, 11), LIT_OK);
    g = start;
    while (!lit_game_over(&g)) {
        int t = g.pub.turn;
        LitAction a = pass_to(t + 1, (t + 2) % 12 + 1);
        cr_assert_eq(lit_game_play(&g, &log, &a), LIT_OK);
    }
    cr_assert_eq(g.pub.result, LIT_ABORTED);
    cr_assert_eq(log.len, LIT_MAX_ACTIONS);
    LitRecord rec, back;
    lit_record_init(&rec, log.events, NULL, log.cap);
    lit_record_set_game(&rec, &start, &g);
    rec.n_events = log.len;
    for (int s = 0; s < 12; s++)
        memset(rec.names[s], 'n', LIT_NAME_MAX);
    memset(rec.event, 'e', LIT_TEXT_MAX);
    memset(rec.site, 's', LIT_TEXT_MAX);
    memset(rec.date, 'd', LIT_TEXT_MAX);
    round_trip_record(&rec, &back);
    cr_assert(strstr(text1, "[Result \"aborted\"]\n[Score \"0-0\"]\n"));
    cr_assert(strstr(text1, "\n2000. 2 passes to 4\n"));
    replay_to_end(&back, &g, 1);
    /* A buffer one byte short is refused. */
    size_t n = strlen(text1);
    cr_assert_eq(lit_record_format(&rec, text2, n), LIT_NO_SPACE);
    cr_assert_eq(lit_record_format(&rec, text2, n + 1), (int)n);
}

/* LIT_RECORD_TEXT_MAX suffices for any record of LIT_RECORD_MAX_EVENTS events: a
 * record of the longest lines (a claim naming a seat for every card, with
 * every card misplaced) and every tag at its longest. */
Test(notation, the_longest_lines_fit)
{
    LitRules r = rules_of("jokers players=12 misclaim=point-off claim-time=penalty "
                          "split-claims=on after-claim=team bluff=on must-claim=on "
                          "double-high=on early-end=on first=left pass-play=on "
                          "history=full counts=hidden");
    LitEvent e = blank_event();
    e.action.kind = LIT_CLAIM;
    e.action.seat = 11;
    e.action.set = 8;
    static const uint8_t named[6] = {9, 10, 11, 0, 2, 4}, held[6] = {0, 2, 4, 9, 10, 11};
    memcpy(e.action.holders, named, 6);
    memcpy(e.truth, held, 6);
    e.answer = LIT_POINT_OFF;
    char buf[LIT_LINE_MAX];
    int n = lit_event_format(&r, &e, LIT_RECORD_MAX_EVENTS, buf, sizeof buf);
    cr_assert_gt(n, 0);
    cr_assert_str_eq(buf, "4000. 12 claims eights-jokers 1:8s 3:JK1 5:JK2 10:8c 11:8d 12:8h "
                          "point-off (1:8c 3:8d 5:8h 10:8s 11:JK1 12:JK2)");
    /* A record of 4,000 such lines, with every tag at its longest. */
    static LitEvent many[LIT_RECORD_MAX_EVENTS];
    for (int i = 0; i < LIT_RECORD_MAX_EVENTS; i++)
        many[i] = e;
    LitRecord rec, back;
    lit_record_init(&rec, many, NULL, LIT_RECORD_MAX_EVENTS);
    rec.rules = r;
    rec.n_events = LIT_RECORD_MAX_EVENTS;
    rec.has_seed = 1;
    rec.seed = UINT64_MAX;
    rec.has_deal = 1;
    lit_deal(&r, rec.seed, 0, rec.hands);
    for (int s = 0; s < 12; s++)
        memset(rec.names[s], '"', LIT_NAME_MAX);
    memset(rec.event, '"', LIT_TEXT_MAX);
    memset(rec.site, '\\', LIT_TEXT_MAX);
    memset(rec.date, 'd', LIT_TEXT_MAX);
    rec.has_result = rec.has_score = 1;
    rec.score[0] = INT16_MIN;
    rec.score[1] = INT16_MAX;
    round_trip_record(&rec, &back);
    cr_assert_lt(strlen(text1), (size_t)LIT_RECORD_TEXT_MAX);
    /* and with a mark of the longest on every action a game can have */
    static char mark[LIT_MARK_MAX + 10];
    static const char *marks[LIT_RECORD_MAX_EVENTS];
    memset(mark, '"', sizeof mark - 1);
    for (int i = 0; i < LIT_MAX_ACTIONS; i++)
        marks[i] = mark;
    rec.marks = marks;
    int len = lit_record_format(&rec, big, LIT_RECORD_TEXT_MAX);
    cr_assert_gt(len, (int)strlen(text1) + LIT_MAX_ACTIONS * (LIT_MARK_MAX + 3) - 1);
}

/* ---- what public events show, in records without a deal ------------------------------ */

#define NODEAL "[Rules \"classic\"]\n[Dealer \"1\"]\n\n"

/* Replays text (no deal) and returns the status of the first refused event;
 * *at gets its number (1-based), 0 when everything replays. */
static int replay_text(const char *text, uint32_t *at)
{
    LitRecord rec;
    LitReplay rp;
    parse_ok(&rec, text);
    return replay_all(&rp, &rec, at);
}

Test(notation, public_replay_follows_the_cards_events_show)
{
    uint32_t at;
    /* asking again for a card a hit put in one's own hand */
    cr_assert_eq(replay_text(NODEAL "1 asks 2 for 3c: hit\n1 asks 2 for 3c: hit\n", &at),
                 LIT_OWN_CARD);
    cr_assert_eq(at, 2);
    /* with bluffs the ask is legal but cannot hit: the card is with seat 1 */
    cr_assert_eq(replay_text("[Rules \"classic bluff=on\"]\n[Dealer \"1\"]\n\n"
                             "1 asks 2 for 3c: hit\n1 asks 2 for 4c: miss\n"
                             "2 asks 1 for 5c: miss\n1 asks 4 for 3c: hit\n", &at),
                 LIT_OUTCOME_MISMATCH);
    cr_assert_eq(at, 4);
    cr_assert_eq(replay_text("[Rules \"classic bluff=on\"]\n[Dealer \"1\"]\n\n"
                             "1 asks 2 for 3c: hit\n1 asks 4 for 3c: miss\n", &at),
                 LIT_OK, "a bluff for a card one holds misses");
    /* a miss on a card the target was shown to hold */
    cr_assert_eq(replay_text(NODEAL "1 asks 2 for 3c: hit\n1 asks 2 for 4c: miss\n"
                             "2 asks 1 for 3c: miss\n", &at),
                 LIT_OUTCOME_MISMATCH);
    cr_assert_eq(at, 3);
    /* and a hit on it moves it back */
    cr_assert_eq(replay_text(NODEAL "1 asks 2 for 3c: hit\n1 asks 2 for 4c: miss\n"
                             "2 asks 1 for 3c: hit\n2 asks 1 for 3c: hit\n", &at),
                 LIT_OWN_CARD);
    cr_assert_eq(at, 4);
    /* a claim must reveal a shown card where it was shown */
    cr_assert_eq(replay_text(NODEAL "1 asks 2 for 3c: hit\n"
                             "1 claims lc 1:2c,3c,4c 3:5c 5:6c,7c cancelled (3:2c 5:3c)\n", &at),
                 LIT_BAD_REVEAL);
    cr_assert_eq(at, 2);
    cr_assert_eq(replay_text(NODEAL "1 asks 2 for 3c: hit\n"
                             "1 claims lc 1:2c,3c,4c 3:5c 5:6c,7c cancelled (3:2c)\n", &at),
                 LIT_OK);
    /* a pass or choice carries no answer */
    LitPublic pub;
    LitRules r = rules_of("classic pass-play=on");
    cr_assert_eq(lit_public_init(&pub, &r, 0), LIT_OK);
    LitEvent e = blank_event();
    e.action.kind = LIT_PASS;
    e.action.seat = 0;
    e.action.target = 2;
    e.answer = LIT_WON;
    LitPublic before = pub;
    cr_assert_eq(lit_public_apply(&pub, &e), LIT_OUTCOME_MISMATCH);
    cr_assert_eq(memcmp(&before, &pub, sizeof pub), 0);
    e.answer = LIT_UNKNOWN;
    cr_assert_eq(lit_public_apply(&pub, &e), LIT_OK);
}

Test(notation, move_numbers_that_cannot_be_right)
{
    expect_error(NODEAL "99999999999. 1 asks 2 for 3c: hit\n", LIT_BAD_MOVE_NUMBER, 4);
    expect_error(NODEAL "01. 1 asks 2 for 3c: hit\n", LIT_BAD_MOVE_NUMBER, 4);
    expect_error(NODEAL "x1. 1 asks 2 for 3c: hit\n", LIT_SYNTAX, 4);
    expect_error(NODEAL ". 1 asks 2 for 3c: hit\n", LIT_SYNTAX, 4);
}

Test(notation, at_most_record_max_events)
{
    static char text[LIT_RECORD_MAX_EVENTS * 24 + 256];
    static LitEvent many[LIT_RECORD_MAX_EVENTS + 1];
    size_t n = (size_t)snprintf(text, sizeof text, "%s", NODEAL);
    for (int i = 0; i < LIT_RECORD_MAX_EVENTS; i++)
        n += (size_t)snprintf(text + n, sizeof text - n, "1 passes to 3\n");
    LitRecord rec;
    LitParseError err;
    lit_record_init(&rec, many, NULL, LIT_RECORD_MAX_EVENTS + 1);
    cr_assert_eq(lit_record_parse(&rec, text, n, &err), LIT_OK);
    cr_assert_eq(rec.n_events, LIT_RECORD_MAX_EVENTS);
    n += (size_t)snprintf(text + n, sizeof text - n, "1 passes to 3\n");
    cr_assert_eq(lit_record_parse(&rec, text, n, &err), LIT_TOO_LONG);
    cr_assert_eq(err.line, 4 + LIT_RECORD_MAX_EVENTS);
}

/* One move line on its own (lit play's commands): the record's words, with
 * or without a number and an answer; every refusal by its status. */
Test(notation, a_move_line_parses_alone)
{
    LitRules r = rules_of("classic");
    LitEvent e, before;
    cr_assert_eq(lit_move_parse(&r, "3 asks 4 for Qh", 15, &e), LIT_OK);
    cr_assert_eq(e.action.kind, LIT_ASK);
    cr_assert_eq(e.action.seat, 2);
    cr_assert_eq(e.action.target, 3);
    cr_assert_str_eq(lit_card_name(r.deck, e.action.card), "Qh");
    cr_assert_eq(e.answer, LIT_UNKNOWN);
    const char *claim = "1. 1 claims lh 1:2h,3h 3:4h,5h,6h,7h";
    cr_assert_eq(lit_move_parse(&r, claim, strlen(claim), &e), LIT_OK);
    cr_assert_eq(e.action.kind, LIT_CLAIM);
    cr_assert_eq(e.action.holders[0], 0);
    cr_assert_eq(e.action.holders[5], 2);
    cr_assert_eq(lit_move_parse(&r, "2 passes to 4", 13, &e), LIT_OK);
    cr_assert_eq(e.action.kind, LIT_PASS);
    static const struct {
        const char *line;
        int status;
    } bad[] = {
        {"3 asks 4 Qh", LIT_SYNTAX},          {"3 asks 9 for Qh", LIT_BAD_SEAT},
        {"3 asks 4 for Zz", LIT_BAD_CARD},     {"1 claims zz 1:2h", LIT_BAD_SET},
        {"1 claims lh 1:2h,2h", LIT_BAD_CLAIM_CARDS}, {"2. 3 asks 4 for Qh", LIT_BAD_MOVE_NUMBER},
        {"3 asks 4 for Qh\n4 asks 3 for Qh", LIT_SYNTAX}, {"", LIT_SYNTAX},
    };
    memset(&before, 0x5A, sizeof before);
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        e = before;
        int st = lit_move_parse(&r, bad[i].line, strlen(bad[i].line), &e);
        cr_assert_eq(st, bad[i].status, "'%s': got %s, want %s", bad[i].line,
                     lit_status_name(st), lit_status_name(bad[i].status));
        cr_assert(memcmp(&e, &before, sizeof e) == 0, "'%s' wrote the event", bad[i].line);
    }
    char long_line[LIT_LINE_MAX + 2];
    memset(long_line, ' ', sizeof long_line);
    cr_assert_eq(lit_move_parse(&r, long_line, sizeof long_line, &e), LIT_TOO_LONG);
}
