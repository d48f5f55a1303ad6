/* fuzz_notation.c - records: the reader on arbitrary bytes, the writer on
 * the games the engine plays.
 *
 * The input is read three ways. As a record: whatever parses formats; the
 * text formatted parses to an equal record (parse(format(r)) == r) and
 * formats to the same text (format(parse(x)) is a fixed point); replaying
 * it, a refused step changes nothing. As one move line (lit_move_parse,
 * lit play's commands): a move that parses formats to a line that parses to
 * the same move. And when the first byte is 0xF0 or more (no record starts
 * so), the rest as the bytes of a game (game_bytes.h, every action legal or
 * a claim, GAME_ACTIONS at most): the record of the game the engine played (parse(format(g)) == g
 * for games, not only for records that came from text) replays to the same
 * position with its deal, and to the same public position without it. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "game_bytes.h"
#include "literature/notation.h"
#include "literature/status.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

enum {
    CAP = LIT_RECORD_MAX_EVENTS,
    TEXT = LIT_RECORD_TEXT_MAX,
    /* actions of a game read from the bytes at most: enough for whole games
     * (claims come often), few enough that the records from text keep most
     * of the time (a game of 200 actions took ten times a text input) */
    GAME_ACTIONS = 96
};
static LitEvent ev1[CAP], ev2[CAP];
static char text1[TEXT], text2[TEXT];

/* parse(format(a)) == a (into b), and format(b) is the same text. */
static void round_trip(const LitRecord *a, LitRecord *b)
{
    int n1 = lit_record_format(a, text1, sizeof text1);
    if (n1 < 0)
        abort();
    LitParseError err;
    if (lit_record_parse(b, text1, (size_t)n1, &err) != LIT_OK || !lit_record_equal(a, b))
        abort();
    int n2 = lit_record_format(b, text2, sizeof text2);
    if (n2 != n1 || memcmp(text1, text2, (size_t)n1) != 0)
        abort();
}

/* Replays rec to its end: every step must apply; the final game. */
static LitReplay replay_all(const LitRecord *rec)
{
    LitReplay rp;
    if (lit_replay_start(&rp, rec) != LIT_OK)
        abort();
    for (uint32_t i = 0; i < rec->n_events; i++)
        if (lit_replay_step(&rp, &rec->events[i], NULL) != LIT_OK)
            abort();
    if (lit_replay_check_result(&rp, rec, NULL) != LIT_OK)
        abort();
    return rp;
}

/* Replays a parsed record, refused steps and all: a refused step changes
 * nothing. */
static void replay_steps(const LitRecord *a)
{
    LitReplay rp;
    if (lit_replay_start(&rp, a) != LIT_OK)
        return;
    for (uint32_t i = 0; i < a->n_events; i++) {
        LitReplay before = rp;
        LitEvent e;
        if (lit_replay_step(&rp, &a->events[i], &e) != LIT_OK &&
            memcmp(&before, &rp, sizeof rp) != 0)
            abort();
    }
    lit_replay_check_result(&rp, a, NULL);
}

/* The record of the game that data plays (game_bytes.h). */
static void game_record(const uint8_t *data, size_t size)
{
    LitRules rules;
    gb_rules(&rules, data);
    LitGame start, g;
    if (lit_game_new(&start, &rules, gb_seed(data), gb_dealer(&rules, data)) != LIT_OK)
        abort();
    g = start;
    LitRecord a, b;
    lit_record_init(&a, ev1, NULL, CAP);
    lit_record_init(&b, ev2, NULL, CAP);
    for (size_t i = GB_HEADER; i + 4 <= size && i < GB_HEADER + 4 * GAME_ACTIONS; i += 4) {
        uint8_t bytes[4] = {(uint8_t)(data[i] | 0xC0), data[i + 1], data[i + 2], data[i + 3]};
        LitAction act = gb_action(&g, bytes);
        if (lit_game_apply(&g, &act, &a.events[a.n_events]) == LIT_OK)
            a.n_events++;
    }
    lit_record_set_game(&a, &start, &g);
    round_trip(&a, &b);
    LitReplay rp = replay_all(&b);
    if (!rp.known || memcmp(&rp.game, &g, sizeof g) != 0)
        abort();
    /* without the deal: the public information replays alike */
    a.has_deal = 0;
    round_trip(&a, &b);
    rp = replay_all(&b);
    if (rp.known || memcmp(&rp.game.pub, &g.pub, sizeof g.pub) != 0)
        abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    LitRecord a, b;
    lit_record_init(&a, ev1, NULL, CAP);
    lit_record_init(&b, ev2, NULL, CAP);
    /* The input as one move line too (lit play's commands): a move that
     * parses formats to a line that parses to the same move. */
    LitEvent m1, m2;
    LitRules rules;
    lit_rules_default(&rules);
    if (lit_move_parse(&rules, (const char *)data, size, &m1) == LIT_OK) {
        char line[LIT_LINE_MAX];
        int n = lit_event_format(&rules, &m1, 0, line, sizeof line);
        if (n < 0 || lit_move_parse(&rules, line, (size_t)n, &m2) != LIT_OK ||
            memcmp(&m1.action, &m2.action, sizeof m1.action) != 0)
            abort();
    }
    if (lit_record_parse(&a, (const char *)data, size, NULL) == LIT_OK) {
        round_trip(&a, &b);
        replay_steps(&a);
    }
    if (size > GB_HEADER && data[0] >= 0xF0)
        game_record(data + 1, size - 1);
    return 0;
}
