/* test_hub.c - the rooms and protocol of `lit serve` in process (hub.h): no
 * network, clients whose frames are read straight from their queues. The
 * same protocol over real sockets is tests/integration/cli_serve.sh. */
#include <criterion/criterion.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../src/server/hub.h"
#include "helpers.h"

/* Random bytes from a counter: two hubs given the same draw the same codes,
 * tokens and seeds. */
static int counter_random(void *buf, size_t len, void *ctx)
{
    uint64_t *state = ctx;
    unsigned char *p = buf;
    for (size_t i = 0; i < len; i++) {
        *state = *state * 6364136223846793005u + 1442695040888963407u;
        p[i] = (unsigned char)(*state >> 56);
    }
    return 0;
}

typedef struct Table {
    uint64_t random;            /* counter_random's state */
    uint64_t hands[LIT_MAX_PLAYERS];
    Hub *hub;
    HubClient *c[8];            /* c[0..5]: seats 1..6; c[6]: a spectator */
    char *log[8];               /* every frame each client got, one a line */
    size_t log_len[8];
    int seq[8];                 /* the last seq each client saw */
    int lines;                  /* log lines */
} Table;

static void count_line(const char *line, void *ctx)
{
    cr_assert(strncmp(line, "room ", 5) == 0, "%s", line);
    ((Table *)ctx)->lines++;
}

static void deal_given(uint64_t *hands, int players, int dealer, void *ctx)
{
    (void)dealer;
    Table *t = ctx;
    memcpy(hands, t->hands, (size_t)players * sizeof *hands);
}

static int table_random(void *buf, size_t len, void *ctx)
{
    return counter_random(buf, len, &((Table *)ctx)->random);
}

/* Moves client i's queued frames to its log; returns the last one parsed. */
static json_t *drain_into(Table *t, int i)
{
    json_t *last = NULL;
    HubFrame *f;
    while ((f = hub_pop(t->c[i]))) {
        t->log[i] = realloc(t->log[i], t->log_len[i] + f->len + 1);
        memcpy(t->log[i] + t->log_len[i], f->data, f->len);
        t->log_len[i] += f->len;
        t->log[i][t->log_len[i]++] = '\n';
        json_decref(last);
        last = json_loadb((const char *)f->data, f->len, 0, NULL);
        cr_assert(last);
        json_t *seq = json_object_get(last, "seq");
        if (seq)
            t->seq[i] = (int)json_integer_value(seq);
        hub_frame_free(f);
    }
    return last;
}

static json_t *drain(Table *t, int i)
{
    return drain_into(t, i);
}

static void say(Table *t, int i, const char *text)
{
    hub_receive(t->hub, t->c[i], text, strlen(text), 0);
}

/* Sends a message (a format whose %d, if any, is the client's last seq) and
 * expects an error of that name back. */
static void expect_error(Table *t, int i, const char *format, const char *name)
{
    char text[512];
    snprintf(text, sizeof text, format, t->seq[i]);
    say(t, i, text);
    json_t *j = drain(t, i);
    cr_assert(j, "no answer to %s", text);
    cr_assert_str_eq(json_string_value(json_object_get(j, "error")), name, "%s", text);
    json_decref(j);
}

/* Six members seated 1..6 and one spectator, in a 6-player classic room. */
static void table_open(Table *t, const uint64_t hands[6])
{
    memset(t, 0, sizeof *t);
    t->random = 42;
    memcpy(t->hands, hands, 6 * sizeof *hands);
    HubConfig config = {0, 0, NULL, t, table_random, deal_given, count_line};
    t->hub = hub_new(&config);
    for (int i = 0; i < 7; i++)
        t->c[i] = hub_connect(t->hub, NULL, 0);
    say(t, 0, "{\"type\":\"create\",\"name\":\"P1\",\"pace_ms\":0}");
    json_t *j = drain(t, 0); /* the room */
    const char *code = json_string_value(json_object_get(j, "code"));
    char msg[128];
    for (int i = 1; i < 7; i++) {
        if (i < 6)
            snprintf(msg, sizeof msg, "{\"type\":\"join\",\"room\":\"%s\",\"name\":\"P%d\",\"seat\":%d}",
                     code, i + 1, i + 1);
        else
            snprintf(msg, sizeof msg, "{\"type\":\"join\",\"room\":\"%s\",\"name\":\"Spec\"}", code);
        say(t, i, msg);
    }
    json_decref(j);
    say(t, 0, "{\"type\":\"start\"}");
    for (int i = 0; i < 7; i++)
        json_decref(drain(t, i));
}

static void table_close(Table *t)
{
    for (int i = 0; i < 7; i++) {
        hub_disconnect(t->hub, t->c[i], 0);
        free(t->log[i]);
    }
    hub_free(t->hub);
}

/* Plays actions[0..n) through the seats' clients; each must be accepted. The
 * seq each names is the one its client saw last. */
static void table_play(Table *t, const LitAction *actions, int n, int deck)
{
    for (int k = 0; k < n; k++) {
        const LitAction *a = &actions[k];
        int i = a->seat;
        char msg[256];
        snprintf(msg, sizeof msg,
                 "{\"type\":\"act\",\"seq\":%d,\"id\":\"k%d\",\"action\":\"ask\",\"card\":\"%s\","
                 "\"target\":%d}",
                 t->seq[i], k, lit_card_name(deck, a->card), a->target + 1);
        say(t, i, msg);
        for (int c = 0; c < 7; c++) {
            json_t *j = drain(t, c);
            cr_assert(j);
            cr_assert_str_eq(json_string_value(json_object_get(j, "type")), "event",
                             "action %d by seat %d: %s", k, i + 1,
                             json_string_value(json_object_get(j, "error")));
            json_decref(j);
        }
    }
}

/* The non-interference test: two deals that give seat 1 the same
 * view (cards of sets nobody touches swapped between two other seats) and
 * the same actions give seat 1 and a spectator byte-identical frames. */
Test(hub, frames_depend_only_on_the_view)
{
    LitRules rules = rules_of("classic");
    uint64_t a[LIT_MAX_PLAYERS] = {0}, b[LIT_MAX_PLAYERS];
    LitGame g;
    lit_game_new(&g, &rules, 7, 0);
    memcpy(a, g.hands, sizeof a);
    /* the actions: 24 first legal asks */
    LitAction actions[24];
    uint64_t touched = 0;
    for (int k = 0; k < 24; k++) {
        LitAction legal[LIT_MAX_LEGAL];
        cr_assert(lit_game_legal(&g, g.pub.turn, legal, LIT_MAX_LEGAL) > 0);
        actions[k] = legal[0];
        cr_assert_eq(legal[0].kind, LIT_ASK);
        touched |= lit_set_mask(rules.deck, lit_set_of(rules.deck, legal[0].card));
        cr_assert_eq(lit_game_apply(&g, &legal[0], NULL), LIT_OK);
    }
    /* the swap: a card of an untouched set from seat 3 and one from seat 5 */
    memcpy(b, a, sizeof b);
    uint64_t x = a[2] & ~touched, y = a[4] & ~touched;
    cr_assert(x && y, "every set was touched: choose another seed");
    uint64_t cx = x & (~x + 1), cy = y & (~y + 1);
    b[2] = (b[2] & ~cx) | cy;
    b[4] = (b[4] & ~cy) | cx;
    cr_assert(memcmp(a, b, sizeof a) != 0);

    Table ta, tb;
    table_open(&ta, a);
    table_play(&ta, actions, 24, rules.deck);
    table_open(&tb, b);
    table_play(&tb, actions, 24, rules.deck);
    for (int i = 0; i < 7; i += 6) {
        cr_assert_eq(ta.log_len[i], tb.log_len[i], "client %d: lengths differ", i);
        cr_assert(memcmp(ta.log[i], tb.log[i], ta.log_len[i]) == 0, "client %d: frames differ", i);
    }
    /* the log: the room, the deal and one line per action */
    cr_assert_eq(ta.lines, 2 + 24);
    /* and the test would see a difference: seat 3's own frames differ */
    cr_assert(ta.log_len[2] != tb.log_len[2] || memcmp(ta.log[2], tb.log[2], ta.log_len[2]));
    table_close(&ta);
    table_close(&tb);
}

Test(hub, refusals_name_the_referee_status)
{
    LitRules rules = rules_of("classic");
    LitGame g;
    lit_game_new(&g, &rules, 7, 0);
    Table t;
    table_open(&t, g.hands);
    /* seat 2 is not on turn; seat 1 asks a teammate */
    expect_error(&t, 1, "{\"type\":\"act\",\"seq\":%d,\"id\":\"x\",\"action\":\"pass\",\"target\":4}",
                 "not_your_turn");
    expect_error(&t, 0, "{\"type\":\"act\",\"seq\":%d,\"id\":\"y\",\"action\":\"ask\",\"card\":\"2c\","
                        "\"target\":3}",
                 "ask_teammate");
    t.seq[0]--;
    expect_error(&t, 0, "{\"type\":\"act\",\"seq\":%d,\"id\":\"z\",\"action\":\"ask\",\"card\":\"2c\","
                        "\"target\":2}",
                 "stale_state");
    t.seq[0]++;
    expect_error(&t, 6, "{\"type\":\"act\",\"seq\":%d,\"id\":\"s\",\"action\":\"ask\",\"card\":\"2c\","
                        "\"target\":2}",
                 "not_seated");
    expect_error(&t, 0, "{\"type\":\"act\",\"seq\":%d,\"id\":\"u\",\"action\":\"ask\",\"card\":\"2c\","
                        "\"target\":2,\"extra\":1}",
                 "bad_message");
    expect_error(&t, 0, "{\"type\":\"kick\",\"seat\":1}", "bad_seat");
    expect_error(&t, 1, "{\"type\":\"kick\",\"seat\":1}", "not_host");
    expect_error(&t, 0, "{\"type\":\"sit\",\"seat\":\"1\"}", "bad_message");
    expect_error(&t, 0, "{\"type\":\"create\",\"name\":\"again\"}", "in_room");
    char big[HUB_MESSAGE_MAX + 2];
    memset(big, ' ', sizeof big);
    hub_receive(t.hub, t.c[3], big, sizeof big, 0);
    json_t *j = drain(&t, 3);
    cr_assert_str_eq(json_string_value(json_object_get(j, "error")), "too_big");
    cr_assert_eq(t.c[3]->close_code, HUB_CLOSE_TOO_BIG);
    json_decref(j);
    table_close(&t);
}

/* A client that never reads is dropped once HUB_QUEUE_MAX bytes wait for
 * it: the server's memory for one connection stays bounded. */
Test(hub, a_client_that_never_reads_is_dropped)
{
    uint64_t state = 1;
    HubConfig config = {0, 0, NULL, &state, counter_random, NULL, NULL};
    Hub *h = hub_new(&config);
    HubClient *c = hub_connect(h, NULL, 0);
    int sent = 0;
    while (!c->close_code && sent < 1000000) {
        hub_receive(h, c, "{\"type\":\"lobby\"}", 16, 0);
        sent++;
        cr_assert_leq(c->queued, HUB_QUEUE_MAX);
    }
    cr_assert_eq(c->close_code, HUB_CLOSE_POLICY);
    cr_assert_eq(c->queued, 0);
    cr_assert_gt(sent, 1000);
    hub_disconnect(h, c, 0);
    hub_free(h);
}

/* Bots move at the room's pace, only while someone is connected; a room
 * nobody is connected to closes after ten minutes. */
Test(hub, bots_pace_and_idle_rooms_close)
{
    uint64_t state = 3;
    HubConfig config = {0, 0, NULL, &state, counter_random, NULL, NULL};
    Hub *h = hub_new(&config);
    HubClient *c = hub_connect(h, NULL, 0);
    const char *msgs[] = {"{\"type\":\"create\",\"name\":\"Ann\",\"players\":4,\"pace_ms\":700}",
                          "{\"type\":\"stand\"}", "{\"type\":\"fill\"}", "{\"type\":\"start\"}"};
    for (int i = 0; i < 4; i++)
        hub_receive(h, c, msgs[i], strlen(msgs[i]), 1000);
    int64_t now = 1000;
    int moves = 0;
    while (hub_next_wake(h) != INT64_MAX) {
        cr_assert_eq(hub_next_wake(h), now + 700, "a bot moves after the room's pace");
        now += 700;
        hub_tick(h, now);
        moves++;
        HubFrame *f;
        while ((f = hub_pop(c)))
            hub_frame_free(f);
    }
    cr_assert_gt(moves, 20, "four bots play a whole game while a spectator watches");
    /* Ann takes seat 1 back (a seated member's place is kept) and goes */
    const char *back[] = {"{\"type\":\"kick\",\"seat\":1}", "{\"type\":\"sit\",\"seat\":1}"};
    for (int i = 0; i < 2; i++)
        hub_receive(h, c, back[i], strlen(back[i]), now);
    hub_disconnect(h, c, now);
    cr_assert_eq(hub_rooms(h), 1);
    cr_assert_eq(hub_next_wake(h), now + 10 * 60 * 1000, "paused; closes in ten minutes");
    hub_tick(h, now + 10 * 60 * 1000);
    cr_assert_eq(hub_rooms(h), 0);
    hub_free(h);
}

/* The last queued frame of that type, or of any when type is NULL (the
 * others are dropped). */
static json_t *frame_of(HubClient *c, const char *type)
{
    json_t *found = NULL;
    HubFrame *f;
    while ((f = hub_pop(c))) {
        json_t *j = json_loadb((const char *)f->data, f->len, 0, NULL);
        hub_frame_free(f);
        if (!type || strcmp(json_string_value(json_object_get(j, "type")), type) == 0) {
            json_decref(found);
            found = j;
        } else {
            json_decref(j);
        }
    }
    return found;
}

static void send_text(Hub *h, HubClient *c, const char *text, int64_t now)
{
    hub_receive(h, c, text, strlen(text), now);
}

/* Found by review: members coming and going must not put a bot's move off,
 * the host role must not stay with someone gone, a spectator's place is
 * not kept, and a key cut in an error stays UTF-8 (or no answer is sent). */
Test(hub, strangers_cannot_stall_a_room)
{
    uint64_t state = 5;
    HubConfig config = {0, 0, NULL, &state, counter_random, NULL, NULL};
    Hub *h = hub_new(&config);
    HubClient *host = hub_connect(h, NULL, 0);
    send_text(h, host, "{\"type\":\"create\",\"name\":\"Ann\",\"players\":4,\"pace_ms\":1000}", 0);
    json_t *room = frame_of(host, NULL);
    char join[128];
    snprintf(join, sizeof join, "{\"type\":\"join\",\"room\":\"%s\",\"name\":\"Eve\"}",
             json_string_value(json_object_get(room, "code")));
    json_decref(room);
    send_text(h, host, "{\"type\":\"sit\",\"seat\":2}", 0); /* a bot deals and moves first */
    send_text(h, host, "{\"type\":\"fill\"}", 0);
    send_text(h, host, "{\"type\":\"start\"}", 0);
    cr_assert_eq(hub_next_wake(h), 1000);
    /* a stranger joins and leaves every 500 ms: the bot still moves at 1000 */
    for (int64_t t = 100; t < 1000; t += 500) {
        HubClient *eve = hub_connect(h, NULL, t);
        send_text(h, eve, join, t);
        hub_disconnect(h, eve, t + 1);
    }
    cr_assert_eq(hub_next_wake(h), 1000, "joins and leaves put the move off");
    /* the disconnected spectators left no membership behind */
    for (int i = 0; i < HUB_MEMBERS_MAX + 5; i++) {
        HubClient *eve = hub_connect(h, NULL, 2);
        send_text(h, eve, join, 2);
        json_t *j = frame_of(eve, NULL);
        cr_assert_str_eq(json_string_value(json_object_get(j, "type")), "game", "not room_full");
        json_decref(j);
        hub_disconnect(h, eve, 2);
    }
    /* the host gone: the next to join is host */
    hub_disconnect(h, host, 3);
    HubClient *bo = hub_connect(h, NULL, 4);
    send_text(h, bo, join, 4);
    json_t *j = frame_of(bo, "room");
    cr_assert(json_is_true(json_object_get(json_object_get(j, "you"), "host")));
    json_decref(j);
    /* an unknown key of multi-byte characters, cut in the error's text */
    char bad[256] = "{\"type\":\"lobby\",\"a";
    for (int i = 0; i < 40; i++)
        strcat(bad, "\xc3\xa9");
    strcat(bad, "\":1}");
    send_text(h, bo, bad, 5);
    j = frame_of(bo, NULL);
    cr_assert(j, "no answer to a key of multi-byte characters");
    cr_assert_str_eq(json_string_value(json_object_get(j, "error")), "unknown_key");
    json_decref(j);
    hub_disconnect(h, bo, 6);
    hub_free(h);
}

/* The aid is counted once per seat and change of the game. */
Test(hub, the_aid_is_kept_until_the_game_changes)
{
    uint64_t state = 9;
    HubConfig config = {0, 0, NULL, &state, counter_random, NULL, NULL};
    Hub *h = hub_new(&config);
    HubClient *c = hub_connect(h, NULL, 0);
    send_text(h, c, "{\"type\":\"create\",\"name\":\"Ann\",\"players\":4,\"pace_ms\":0}", 0);
    send_text(h, c, "{\"type\":\"fill\"}", 0);
    send_text(h, c, "{\"type\":\"start\"}", 0);
    json_decref(frame_of(c, NULL));
    send_text(h, c, "{\"type\":\"aid\"}", 0);
    json_t *a = frame_of(c, NULL);
    send_text(h, c, "{\"type\":\"aid\"}", 0);
    json_t *b = frame_of(c, NULL);
    cr_assert(a && b);
    cr_assert_str_eq(json_string_value(json_object_get(a, "type")), "aid");
    cr_assert(json_equal(a, b), "the same figures twice");
    cr_assert_str_eq(json_string_value(json_object_get(a, "consistent_deals")),
                     json_string_value(json_object_get(b, "consistent_deals")));
    json_decref(a);
    json_decref(b);
    hub_disconnect(h, c, 0);
    hub_free(h);
}
