/* fuzz_botline.c - the reader of the bot protocol (src/cli/extbot.c,
 * docs/BOT_PROTOCOL.md) on arbitrary output of a bot.
 *
 * The first byte chooses the rules (deck and players), the second how many
 * legal actions are played before the seat on turn is asked to act, the
 * third, when its top bit is set, a run of spaces of about EXTBOT_LINE_MAX
 * bytes (both sides of the cap, by the low bits) put before the rest; the
 * rest is what the bot writes (its first LINES lines). The bot is a file,
 * not a process: what it writes is read from one (it never blocks, and its
 * end is the bot's exit) and the arena's requests are written to another,
 * which the harness reads back. extbot_act is called until the bot has exited, as the arena does,
 * each refusal told to the bot (extbot_refused) with the fallback action.
 *
 * Invariants: no crash, no leak, no undefined behaviour; every answer is an
 * action of the seat with every field in range, which the referee takes or
 * refuses with one of its statuses, or a refusal "name: detail" named by
 * extbot.h (never a timeout here: the file is always readable); every line
 * the bot wrote is accounted for exactly once: answered (an action or a
 * refusal), ignored as an answer to an earlier request (stale), or a resync
 * answered with the view (a line over the cap is one refused line, however
 * long); every request written is a whole line, an act, a view or a
 * refusal, with the request's number. */
#include <jansson.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../src/cli/extbot.h"
#include "literature/status.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

enum { LINES = 32 };

static const char *const reasons[] = {"exited",   "too_long", "not_json",        "bad_message",
                                      "bad_card", "bad_set",  "bad_seat",        "bad_claim_cards",
                                      "resync_again", NULL};

/* The files that stand for the bot's output and input (used through their
 * descriptors only), and the reader's buffer: once for the run. */
static FILE *from_bot, *to_bot;
static char *line_buf;

static void put(int fd, const void *p, size_t n)
{
    if (n && write(fd, p, n) != (ssize_t)n)
        abort();
}

/* Lines the reader must account for in the bot's output (pad spaces, then
 * p[0 .. n)): each line ended by a newline, and an unended last one if it
 * is over the cap. */
static uint32_t lines_in(size_t pad, const uint8_t *p, size_t n)
{
    uint32_t lines = 0;
    size_t len = pad;
    for (size_t i = 0; i < n; i++) {
        if (p[i] == '\n') {
            lines++;
            len = 0;
        } else {
            len++;
        }
    }
    return lines + (len >= EXTBOT_LINE_MAX);
}

/* The action of an answer, in range and judged by the referee. */
static void check_action(const LitGame *g, const LitView *v, const LitAction *a)
{
    const LitRules *r = &g->pub.rules;
    int players = r->players, deck = r->deck;
    if (a->seat != v->seat)
        abort();
    switch (a->kind) {
    case LIT_ASK:
        if (a->card >= lit_deck_cards(deck) || a->target >= players)
            abort();
        break;
    case LIT_CLAIM:
        if (a->set >= lit_deck_sets(deck))
            abort();
        for (int k = 0; k < lit_deck_set_size(deck); k++)
            if (a->holders[k] >= players && a->holders[k] != LIT_NOBODY)
                abort(); /* a card left out is the referee's claim_incomplete */
        break;
    case LIT_PASS:
    case LIT_CHOOSE:
        if (a->target >= players)
            abort();
        break;
    default:
        abort();
    }
    int st = lit_game_check(g, a);
    if (st != LIT_OK && lit_status_from_name(lit_status_name(st)) != st)
        abort();
}

/* A refusal: "name: detail", the name one of reasons, every byte printable
 * ASCII (what the bot wrote is shown \xNN). */
static void check_refusal(const char *why)
{
    const char *colon = memchr(why, ':', EXTBOT_WHY_MAX);
    if (!colon || colon[1] != ' ' || !colon[2] || !memchr(why, 0, EXTBOT_WHY_MAX))
        abort();
    for (const char *p = why; *p; p++)
        if (*p < 0x20 || *p > 0x7e)
            abort();
    for (int i = 0; reasons[i]; i++)
        if (strlen(reasons[i]) == (size_t)(colon - why) &&
            memcmp(why, reasons[i], (size_t)(colon - why)) == 0)
            return;
    abort();
}

/* The requests written since *done (an offset in the file fd): each a
 * whole line, an act, a view or a refusal ("type" comes first) numbered n.
 * Returns how many views. A call writes a few requests of some kilobytes
 * (a view holds the history: 16 events here), read into a static buffer.
 * (Not parsed again: with ASan, jansson's allocations were most of the
 * time of a run already.) */
static uint32_t views_sent(int fd, off_t *done, uint32_t n)
{
    static char text[1 << 20];
    off_t end = lseek(fd, 0, SEEK_CUR);
    size_t len = (size_t)(end - *done);
    if (end < *done || len >= sizeof text || pread(fd, text, len, *done) != (ssize_t)len)
        abort();
    text[len] = 0;
    *done = end;
    char number[32];
    snprintf(number, sizeof number, "\"n\":%u", n);
    uint32_t views = 0;
    for (char *p = text, *nl; *p; p = nl + 1) {
        nl = strchr(p, '\n');
        if (!nl)
            abort(); /* every request is a whole line */
        *nl = 0;
        const char *at = strstr(p, number);
        if (!at || (at[strlen(number)] != ',' && at[strlen(number)] != '}'))
            abort();
        if (strncmp(p, "{\"type\":\"view\",", 15) == 0)
            views++;
        else if (strncmp(p, "{\"type\":\"act\",", 14) && strncmp(p, "{\"type\":\"refused\",", 18))
            abort();
    }
    return views;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 3)
        return 0;
    if (!from_bot) {
        from_bot = tmpfile();
        to_bot = tmpfile();
        line_buf = malloc(EXTBOT_LINE_MAX);
        if (!from_bot || !to_bot || !line_buf)
            abort();
    }
    /* 1. the position: rules, and a few legal actions played */
    LitRules rules;
    lit_rules_default(&rules);
    rules.deck = (uint8_t)(data[0] % LIT_DECK_COUNT);
    rules.players = (uint8_t)(4 + 2 * (data[0] / LIT_DECK_COUNT % 5));
    static LitEvent events[16];
    LitLog log;
    lit_log_init(&log, events, 16);
    LitGame g;
    if (lit_game_new(&g, &rules, data[0], 0) != LIT_OK)
        abort();
    for (int i = 0; i < data[1] % 16; i++) {
        LitAction legal[LIT_MAX_LEGAL];
        int n = lit_game_legal(&g, g.pub.turn, legal, LIT_MAX_LEGAL);
        if (n == 0 || lit_game_play(&g, &log, &legal[(i * 31 + data[1]) % n]) != LIT_OK)
            break;
    }
    LitView v;
    if (lit_view_make(&v, &g, &log, g.pub.turn) != LIT_OK)
        abort();
    LitAction fallback[LIT_MAX_LEGAL];
    if (lit_game_legal(&g, g.pub.turn, fallback, LIT_MAX_LEGAL) == 0)
        return 0; /* the arena would claim: nothing to ask the bot */

    /* 2. what the bot writes (LINES lines at most: each costs a request of
     * kilobytes, and under ASan long inputs took a second), and the files
     * reset */
    const uint8_t *text = data + 3;
    size_t len = size - 3, lines = 0;
    for (size_t i = 0; i < len; i++)
        if (text[i] == '\n' && ++lines == LINES)
            len = i + 1;
    int in = fileno(from_bot), out = fileno(to_bot);
    if (ftruncate(in, 0) || ftruncate(out, 0) || lseek(in, 0, SEEK_SET) ||
        lseek(out, 0, SEEK_SET))
        abort();
    size_t pad = data[2] & 0x80 ? (size_t)EXTBOT_LINE_MAX - 64 + (data[2] & 0x7F) : 0;
    static char spaces[EXTBOT_LINE_MAX + 64];
    memset(spaces, ' ', pad);
    put(in, spaces, pad);
    put(in, text, len);
    if (lseek(in, 0, SEEK_SET))
        abort();

    /* 3. requests until the bot has exited */
    ExtBot b;
    memset(&b, 0, sizeof b);
    b.to_bot = out;
    b.from_bot = in;
    b.timeout_ms = 60000;
    b.buf = line_buf;
    uint32_t answers = 0, views = 0, n = v.history_len + 1;
    off_t done = 0;
    for (;;) {
        LitAction a;
        char why[EXTBOT_WHY_MAX];
        if (extbot_act(&b, &v, &a, why) == LIT_OK) {
            check_action(&g, &v, &a);
        } else {
            check_refusal(why);
            if (strncmp(why, "exited:", 7) == 0)
                break;
            extbot_refused(&b, &v, n, why, "a refusal", &fallback[0]);
        }
        views += views_sent(out, &done, n);
        if (++answers > size + 2)
            abort(); /* more answers than lines */
    }
    views += views_sent(out, &done, n);
    if (!b.dead || answers + b.stale + views != lines_in(pad, text, len))
        abort();
    return 0;
}
