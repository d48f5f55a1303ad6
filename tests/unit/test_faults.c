/* test_faults.c - out of memory at every allocation of a scripted game
 * (src/mem/mem.h), in process: the hub, the store (SQLite) and jansson
 * under them, fed by clients whose frames are read from their queues as in
 * test_hub.c. (libwebsockets' allocations, over real sockets, are failed
 * by tests/integration/cli_netfault.sh: docs/RELIABILITY.md.)
 *
 * The script: two rooms on one hub saving to one store. In room A the host
 * creates, a second player joins as a spectator and sits, the host fills the
 * other seats with bots and starts; in room B one player plays with bots.
 * The players play to the end (a claim of a set held whole, else the first
 * ask, pass or choice offered), ask for the aid, and chat once; then the
 * player of room B asks for its finished game's replay and a scoresheet
 * halfway (docs/PROTOCOL.md "Finished games"). A first run
 * without faults counts the allocations N; then, for n in 1..N (every n, or
 * a stride: LIT_FAULT_STRIDE), a run fails exactly the nth. A player that
 * is answered server_error sends the same message again; one whose
 * connection is closed connects again and resumes with its token (or, with
 * none yet, makes its membership again). Every run must end both games, and:
 * - every frame is a JSON object with a type, every error one the hub knows,
 *   and the only error or close a fault makes is server_error (1013);
 * - at most one client is answered server_error or closed: nobody else;
 * - the events every client saw agree (a resumed client's catch-up with what
 *   it saw before), and number the game's actions 1..n;
 * - afterwards the store holds each game's whole record, which parses,
 *   replays with its deal, and has the lines the clients saw; every room's
 *   state reads back (a new hub takes them all up);
 * - no leak and no undefined behaviour (the sanitizer build runs it).
 */
#include <criterion/criterion.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../src/mem/mem.h"
#include "../../src/server/hub.h"
#include "../../src/store/store.h"
#include "../support/counter_random.h"
#include "literature/cards.h"
#include "literature/notation.h"
#include "literature/rules.h"
#include "helpers.h"

enum {
    PLAYERS = 3,   /* p0 hosts room A, p1 joins it; p2 plays alone in room B */
    ROOMS = 2,
    MAX_LINES = 256,
    STEPS_MAX = 4000
};

typedef struct Player {
    HubClient *c;
    int room;                 /* 0: A, 1: B */
    char code[HUB_CODE_LEN + 1];
    char token[HUB_TOKEN_LEN + 1];
    int seat;                 /* 1-based once seated, 0 before */
    int seq;                  /* the last seq seen */
    int players, filled, playing, over; /* from the last room and game frames */
    int host;                 /* the room's host (it passes on when the host
                               * is gone: the other player may hold it) */
    int turn;                 /* the seat on turn (1-based; 0: none) */
    int actions;              /* actions of the game so far */
    json_t *you, *sets;       /* the last "you", the game's sets */
    int aided, chatted;
    int replay_steps;         /* steps of the last replay frame (0: none) */
    int sheets;               /* sheet frames */
    int incidents;            /* server_error answers and closes */
} Player;

typedef struct Run {
    Hub *hub;
    Store *store;
    uint64_t random;
    int64_t now;
    Player p[PLAYERS];
    char lines[ROOMS][MAX_LINES][160]; /* each room's event lines by number */
    int n_lines[ROOMS];
    char game_id[ROOMS][HUB_GAME_ID_LEN + 1];
    char result[ROOMS][16];
    int incidents;
    int served;               /* the hub was made (not the first fault) */
} Run;

static char dir[64];

static void make_dir(void)
{
    scratch_make(dir, sizeof dir, "test_faults");
}

static void remove_dir(void)
{
    scratch_remove(dir);
}

/* Every seat holds two sets whole, but seats 1 and 2 have swapped a card:
 * a few asks, then every set claimed (the bots claim what they hold). */
static void deal_sets(uint64_t *hands, int players, int dealer, void *ctx)
{
    (void)dealer;
    (void)ctx;
    for (int s = 0; s < players; s++)
        hands[s] = ((UINT64_C(1) << 12) - 1) << (12 * s);
    hands[0] = (hands[0] & ~UINT64_C(1)) | (UINT64_C(1) << 12);
    hands[1] = (hands[1] & ~(UINT64_C(1) << 12)) | UINT64_C(1);
}

static int run_random(void *buf, size_t len, void *ctx)
{
    return counter_random(buf, len, &((Run *)ctx)->random);
}

static void quiet(const char *line, void *ctx)
{
    (void)line;
    (void)ctx;
}

static Store *open_store(const char *name)
{
    char path[128], error[STORE_ERROR_MAX];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    Store *s = store_sqlite_open(path, NULL, error);
    cr_assert(s, "%s", error);
    return s;
}

/* The hub's calls, counted (and failed) by mem.h; the test's own reading of
 * frames with jansson is not. */
/* In a debug build hub_next_wake checks every room's place in the heap of
 * times against its times (hub.c): after every call a fault may cut short. */
static void due_checked(Run *r)
{
    cr_assert_geq(hub_next_wake(r->hub), 0);
}

static void connect(Run *r, Player *p)
{
    mem_fault_count(1);
    p->c = hub_connect(r->hub, NULL, r->now);
    mem_fault_count(0);
}

static void say(Run *r, Player *p, const char *text)
{
    mem_fault_count(1);
    hub_receive(r->hub, p->c, text, strlen(text), r->now);
    mem_fault_count(0);
    due_checked(r);
}

static void tick(Run *r)
{
    mem_fault_count(1);
    hub_tick(r->hub, r->now);
    mem_fault_count(0);
    due_checked(r);
}

static void gone(Run *r, Player *p)
{
    mem_fault_count(1);
    hub_disconnect(r->hub, p->c, r->now);
    mem_fault_count(0);
    due_checked(r);
    p->c = NULL;
}

/* An event line seen by a client of room k: the same as any seen before
 * under its number. */
static void saw_line(Run *r, int k, json_t *event)
{
    json_t *n = json_object_get(event, "n");
    const char *line = json_string_value(json_object_get(event, "line"));
    cr_assert(json_is_integer(n) && line, "an event without its number or line");
    json_int_t i = json_integer_value(n);
    cr_assert(i >= 1 && i <= MAX_LINES && strlen(line) < sizeof r->lines[k][0]);
    char *slot = r->lines[k][i - 1];
    if (slot[0])
        cr_assert_str_eq(slot, line, "event %d of room %c told two ways", (int)i, 'A' + k);
    else
        snprintf(slot, sizeof r->lines[k][0], "%s", line);
    if (i > r->n_lines[k])
        r->n_lines[k] = (int)i;
}

static void take_state(Player *p, json_t *j)
{
    json_t *state = json_object_get(j, "state");
    if (json_is_object(state)) {
        p->turn = (int)json_integer_value(json_object_get(state, "turn"));
        p->actions = (int)json_integer_value(json_object_get(state, "actions"));
    }
    json_t *you = json_object_get(j, "you");
    if (json_is_object(you)) {
        json_decref(p->you);
        p->you = json_incref(you);
    }
}

/* A game or event frame's result: the game is over. */
static void take_result(Run *r, Player *p, json_t *j)
{
    const char *result = json_string_value(json_object_get(j, "result"));
    if (!result)
        return;
    p->over = 1;
    snprintf(r->result[p->room], sizeof r->result[0], "%s", result);
}

/* Reads the client's frames; returns the error names answered, in err (the
 * last one), or "" for none. */
static void read_frames(Run *r, Player *p, char err[32])
{
    HubFrame *f;
    err[0] = 0;
    while ((f = hub_pop(p->c))) {
        json_t *j = json_loadb((const char *)f->data, f->len, 0, NULL);
        cr_assert(json_is_object(j), "a frame that is not a JSON object: %.*s", (int)f->len,
                  f->data);
        const char *type = json_string_value(json_object_get(j, "type"));
        cr_assert(type, "a frame without a type: %.*s", (int)f->len, f->data);
        json_t *seq = json_object_get(j, "seq");
        if (json_is_integer(seq) && strcmp(type, "ack") != 0) /* an ack's: its event's */
            p->seq = (int)json_integer_value(seq);
        if (strcmp(type, "error") == 0) {
            const char *name = json_string_value(json_object_get(j, "error"));
            cr_assert(name && hub_error_known(name), "an error of no name the hub knows");
            snprintf(err, 32, "%s", name);
        } else if (strcmp(type, "joined") == 0) {
            snprintf(p->code, sizeof p->code, "%s",
                     json_string_value(json_object_get(j, "room")));
            snprintf(p->token, sizeof p->token, "%s",
                     json_string_value(json_object_get(j, "token")));
        } else if (strcmp(type, "room") == 0) {
            json_t *seats = json_object_get(j, "seats"), *s;
            size_t i;
            p->players = (int)json_array_size(seats);
            p->filled = 0;
            json_array_foreach(seats, i, s) p->filled +=
                strcmp(json_string_value(json_object_get(s, "kind")), "empty") != 0;
            const char *state = json_string_value(json_object_get(j, "state"));
            p->playing = state && strcmp(state, "lobby") != 0;
            json_t *you = json_object_get(j, "you");
            json_t *seat = json_object_get(you, "seat");
            p->seat = json_is_integer(seat) ? (int)json_integer_value(seat) : 0;
            p->host = json_is_true(json_object_get(you, "host"));
        } else if (strcmp(type, "game") == 0) {
            json_t *history = json_object_get(j, "history"), *e;
            size_t i;
            json_array_foreach(history, i, e) saw_line(r, p->room, e);
            json_decref(p->sets);
            p->sets = json_incref(json_object_get(j, "sets"));
            snprintf(r->game_id[p->room], sizeof r->game_id[0], "%s",
                     json_string_value(json_object_get(j, "id")));
            take_state(p, j);
            take_result(r, p, j);
        } else if (strcmp(type, "catchup") == 0) {
            snprintf(r->game_id[p->room], sizeof r->game_id[0], "%s",
                     json_string_value(json_object_get(j, "id")));
            json_t *events = json_object_get(j, "events"), *e;
            size_t i;
            json_array_foreach(events, i, e) saw_line(r, p->room, e);
            take_state(p, j);
            take_result(r, p, j);
        } else if (strcmp(type, "event") == 0) {
            saw_line(r, p->room, json_object_get(j, "event"));
            take_state(p, j);
            take_result(r, p, j);
        } else if (strcmp(type, "replay") == 0) {
            p->replay_steps = (int)json_array_size(json_object_get(j, "steps"));
        } else if (strcmp(type, "sheet") == 0) {
            cr_assert(json_is_true(json_object_get(j, "exact")), "a sheet without its figures");
            p->sheets++;
        }
        json_decref(j);
        hub_frame_free(f);
    }
}

/* The client is closed (a fault): out of memory is the only reason here.
 * It goes, connects again (until that works) and resumes with its token,
 * from the last seq it saw or, every other time, afresh. */
static void come_back(Run *r, Player *p)
{
    cr_assert_eq(p->c->close_code, HUB_CLOSE_TRY_AGAIN, "closed with %d %s", p->c->close_code,
                 p->c->close_reason);
    cr_assert_str_eq(p->c->close_reason, "server_error");
    p->incidents++;
    gone(r, p);
    for (int tries = 0; !p->c; tries++) {
        cr_assert(tries < 3, "cannot connect again");
        connect(r, p);
        p->incidents += !p->c;
    }
    char err[32];
    read_frames(r, p, err);
    if (!p->token[0])
        return; /* no membership yet: its step makes one */
    char msg[160];
    if (p->incidents % 2)
        snprintf(msg, sizeof msg,
                 "{\"type\":\"resume\",\"room\":\"%s\",\"token\":\"%s\",\"seq\":%d}", p->code,
                 p->token, p->seq);
    else
        snprintf(msg, sizeof msg, "{\"type\":\"resume\",\"room\":\"%s\",\"token\":\"%s\"}",
                 p->code, p->token);
    /* a spectator's membership ends with its connection: it joins again */
    say(r, p, msg);
    read_frames(r, p, err);
    if (p->c->close_code)
        return come_back(r, p);
    if (strcmp(err, "server_error") == 0) {
        p->incidents++;
        say(r, p, msg);
        read_frames(r, p, err);
    }
    if (strcmp(err, "bad_token") == 0) { /* it was a spectator: it is gone */
        p->token[0] = 0;
        return;
    }
    cr_assert_str_eq(err, "", "resume answered %s", err);
}

/* Sends msg until it is answered without server_error (once more at most:
 * one fault a run) and the connection stays; returns the error answered
 * ("" none). */
static void send_msg(Run *r, Player *p, const char *msg, char err[32])
{
    for (int tries = 0;; tries++) {
        cr_assert(tries < 4, "%s: still failing", msg);
        say(r, p, msg);
        read_frames(r, p, err);
        if (p->c->close_code) {
            come_back(r, p);
            err[0] = 0;
            return; /* its step decides what to do again */
        }
        if (strcmp(err, "server_error") != 0)
            return;
        p->incidents++;
    }
}

/* Whether p holds every card of the set (a JSON array of names). */
static int holds(const Player *p, json_t *cards)
{
    json_t *hand = json_object_get(p->you, "hand"), *c, *h;
    size_t i, k;
    json_array_foreach(cards, i, c) {
        int in = 0;
        json_array_foreach(hand, k, h) in |= json_equal(c, h);
        if (!in)
            return 0;
    }
    return json_array_size(cards) > 0;
}

/* The player's action now: a claim of a set it holds whole, else the first
 * ask, pass or choice offered, else a claim of the first claimable set
 * given to its own seat and its teammate's. */
static void act(Run *r, Player *p)
{
    char msg[512], body[400] = "", err[32];
    json_t *you = p->you, *claimable = json_object_get(you, "claimable"), *name;
    size_t i;
    const char *set = NULL;
    json_array_foreach(claimable, i, name) if (!set &&
                                              holds(p, json_object_get(p->sets,
                                                                       json_string_value(name))))
        set = json_string_value(name);
    json_t *asks = json_object_get(you, "asks"), *passes = json_object_get(you, "passes"),
           *choices = json_object_get(you, "choices");
    if (!set && json_array_size(asks)) {
        json_t *a = json_array_get(asks, 0);
        snprintf(body, sizeof body, "\"action\":\"ask\",\"card\":\"%s\",\"target\":%d",
                 json_string_value(json_object_get(a, "card")),
                 (int)json_integer_value(json_object_get(a, "target")));
    } else if (!set && json_array_size(passes)) {
        snprintf(body, sizeof body, "\"action\":\"pass\",\"target\":%d",
                 (int)json_integer_value(json_array_get(passes, 0)));
    } else if (!set && json_array_size(choices)) {
        snprintf(body, sizeof body, "\"action\":\"choose\",\"target\":%d",
                 (int)json_integer_value(json_array_get(choices, 0)));
    } else {
        if (!set)
            set = json_string_value(json_array_get(claimable, 0));
        cr_assert(set, "seat %d on turn with nothing to do", p->seat);
        json_t *cards = json_object_get(p->sets, set), *c, *hand = json_object_get(you, "hand");
        int n = snprintf(body, sizeof body, "\"action\":\"claim\",\"set\":\"%s\",\"holders\":{",
                         set);
        json_array_foreach(cards, i, c) {
            json_t *h;
            size_t k;
            int mine = 0;
            json_array_foreach(hand, k, h) mine |= json_equal(c, h);
            int holder = mine ? p->seat : (p->seat + 1) % p->players + 1;
            n += snprintf(body + n, sizeof body - (size_t)n, "%s\"%s\":%d", i ? "," : "",
                          json_string_value(c), holder);
        }
        snprintf(body + n, sizeof body - (size_t)n, "}");
    }
    /* the id is the action's number: sent again after a fault, it is the
     * same action (answered as a repeat if it was played) */
    snprintf(msg, sizeof msg, "{\"type\":\"act\",\"seq\":%d,\"id\":\"a%d\",%s}", p->seq,
             p->actions, body);
    send_msg(r, p, msg, err);
    cr_assert(!err[0] || strcmp(err, "stale") == 0, "%s: %s", msg, err);
}

/* One step of the script for p: what it does next, or 0 when it has
 * nothing to do now. */
static int step(Run *r, Player *p, const Player *host)
{
    char msg[256], err[32];
    if (!p->token[0]) {
        if (p->room == 1 || p == host)
            snprintf(msg, sizeof msg,
                     "{\"type\":\"create\",\"name\":\"P%d\",\"players\":4,\"pace_ms\":0}",
                     (int)(p - r->p));
        else if (host->code[0] && host->token[0])
            snprintf(msg, sizeof msg, "{\"type\":\"join\",\"room\":\"%s\",\"name\":\"P1\"}",
                     host->code);
        else
            return 0;
        send_msg(r, p, msg, err);
        cr_assert_str_eq(err, "", "%s: %s", msg, err);
        return 1;
    }
    if (p->room == 0 && p != host && !p->seat && !p->playing) {
        send_msg(r, p, "{\"type\":\"sit\",\"seat\":2}", err);
        cr_assert(!err[0], "sit: %s", err);
        return 1;
    }
    if (p->playing || p->over) {
        if (p->over)
            return 0;
        if (p->turn != p->seat || !p->you)
            return 0;
        if (!p->aided) {
            send_msg(r, p, "{\"type\":\"aid\"}", err);
            cr_assert(!err[0], "aid: %s", err);
            p->aided = 1;
            return 1;
        }
        if (!p->chatted) {
            send_msg(r, p, "{\"type\":\"chat\",\"text\":\"hello\"}", err);
            cr_assert(!err[0], "chat: %s", err);
            p->chatted = 1;
            return 1;
        }
        act(r, p);
        return 1;
    }
    /* the host, in the lobby: the other player seated, bots, the start */
    if (!p->host)
        return 0;
    if (p->room == 0 && p->filled < 2)
        return 0;
    if (p->filled < p->players) {
        send_msg(r, p, "{\"type\":\"fill\"}", err);
        cr_assert(!err[0], "fill: %s", err);
        return 1;
    }
    send_msg(r, p, "{\"type\":\"start\"}", err);
    cr_assert(!err[0] || strcmp(err, "game_started") == 0, "start: %s", err);
    return 1;
}

/* The whole script with the nth allocation failed (0: none); returns the
 * allocations it made. */
/* p, its game over, asks for the game's replay and a scoresheet halfway
 * (as a client in no room may: p is in its room, which changes nothing),
 * until each is answered whole. A message counts ten against the rate: a
 * second between them. */
static void look_back(Run *r, Player *p)
{
    char msg[128], err[32];
    const char *id = r->game_id[p->room];
    for (int tries = 0; !p->replay_steps; tries++) {
        cr_assert(tries < 3, "no replay");
        r->now += 1000;
        snprintf(msg, sizeof msg, "{\"type\":\"replay\",\"game\":\"%s\"}", id);
        send_msg(r, p, msg, err);
        cr_assert_str_eq(err, "", "replay answered %s", err);
    }
    cr_assert_eq(p->replay_steps, r->n_lines[p->room] + 1, "a step an action, and the deal");
    for (int tries = 0; !p->sheets; tries++) {
        cr_assert(tries < 3, "no sheet");
        r->now += 1000;
        snprintf(msg, sizeof msg,
                 "{\"type\":\"sheet\",\"game\":\"%s\",\"seat\":%d,\"after\":%d}", id,
                 p->seat ? p->seat : 1, r->n_lines[p->room] / 2);
        send_msg(r, p, msg, err);
        cr_assert_str_eq(err, "", "sheet answered %s", err);
    }
}

static unsigned long play_script(Run *r, const char *db, unsigned long nth)
{
    memset(r, 0, sizeof *r);
    r->random = 7;
    r->store = open_store(db);
    HubConfig config = {.ctx = r, .random = run_random, .deal = deal_sets, .log = quiet,
                        .store = r->store};
    mem_fault_start(nth);
    mem_fault_count(1);
    r->hub = hub_new(&config);
    mem_fault_count(0);
    if (!r->hub) { /* the first allocation: nothing to serve */
        cr_assert_eq(nth, 1);
        cr_assert(mem_fault_hit());
        mem_fault_stop();
        store_close(r->store);
        return 0;
    }
    r->served = 1;
    for (int i = 0; i < PLAYERS; i++) {
        Player *p = &r->p[i];
        p->room = i == 2;
        for (int tries = 0; !p->c; tries++) {
            cr_assert(tries < 2);
            connect(r, p);
            p->incidents += !p->c;
        }
        char err[32];
        read_frames(r, p, err);
        if (p->c->close_code)
            come_back(r, p);
    }
    for (int steps = 0; !(r->p[0].over && r->p[1].over && r->p[2].over); steps++) {
        cr_assert(steps < STEPS_MAX, "the games do not end (fault %lu)", nth);
        int did = 0;
        for (int i = 0; i < PLAYERS; i++)
            did |= step(r, &r->p[i], &r->p[0]);
        if (!did) { /* the bots' moves, and a failed save or brain tried again */
            r->now += 500;
            tick(r);
            for (int i = 0; i < PLAYERS; i++) {
                char err[32];
                read_frames(r, &r->p[i], err);
                cr_assert_str_eq(err, "", "an error out of the blue");
                if (r->p[i].c->close_code)
                    come_back(r, &r->p[i]);
            }
        }
    }
    /* the saves that failed are tried again, up to the longest wait */
    for (int k = 0; k < 4; k++) {
        r->now += HUB_RETRY_MAX_MS;
        tick(r);
    }
    look_back(r, &r->p[2]);
    unsigned long made = mem_fault_stop();
    for (int i = 0; i < PLAYERS; i++) {
        char err[32];
        read_frames(r, &r->p[i], err);
        r->incidents += r->p[i].incidents;
        hub_disconnect(r->hub, r->p[i].c, r->now);
        json_decref(r->p[i].you);
        json_decref(r->p[i].sets);
    }
    hub_free(r->hub);
    store_close(r->store);
    return made;
}

static int count_room(void *ctx, const char *code, const char *state, const char *game,
                      const char *record)
{
    (void)code;
    (void)state;
    (void)game;
    (void)record;
    (*(int *)ctx)++;
    return 0;
}

/* The store after a run: each game's whole record, which replays and has
 * the lines the clients saw; every room taken up by a new hub. */
static void check_store(const Run *r, const char *db, unsigned long nth)
{
    Store *s = open_store(db);
    for (int k = 0; k < ROOMS; k++) {
        char *text = NULL;
        size_t len = 0;
        int st = store_record(s, r->game_id[k], &text, &len);
        cr_assert_eq(st, STORE_OK, "fault %lu: room %c's game %s: no record (%d)", nth,
                     'A' + k, r->game_id[k], st);
        static LitEvent events[LIT_MAX_ACTIONS];
        LitRecord rec;
        lit_record_init(&rec, events, NULL, LIT_MAX_ACTIONS);
        cr_assert_eq(lit_record_parse(&rec, text, len, NULL), LIT_OK, "fault %lu: %s", nth,
                     text);
        LitReplay rp;
        cr_assert_eq(lit_replay_start(&rp, &rec), LIT_OK);
        cr_assert_eq((int)rec.n_events, r->n_lines[k], "fault %lu: room %c: %d lines saved, "
                     "%d seen", nth, 'A' + k, (int)rec.n_events, r->n_lines[k]);
        for (uint32_t i = 0; i < rec.n_events; i++) {
            char line[LIT_LINE_MAX];
            cr_assert_eq(lit_replay_step(&rp, &rec.events[i], NULL), LIT_OK);
            lit_event_format(&rec.rules, &rec.events[i], (int)i + 1, line, sizeof line);
            cr_assert_str_eq(line, r->lines[k][i], "fault %lu: room %c line %u: %s, seen %s, in %s",
                             nth, 'A' + k, i + 1, line, r->lines[k][i], text);
        }
        cr_assert(rp.game.pub.result != LIT_ONGOING);
        cr_assert_str_eq(lit_result_name(rp.game.pub.result), r->result[k]);
        free(text);
    }
    int stored = 0;
    cr_assert_eq(store_rooms(s, count_room, &stored), STORE_OK);
    uint64_t random = 1;
    HubConfig config = {.ctx = &random, .random = counter_random, .store = s};
    Hub *h = hub_new(&config);
    cr_assert_eq(hub_restore(h, r->now), stored, "fault %lu: a room does not read back", nth);
    hub_free(h);
    store_close(s);
}

static unsigned long stride(void)
{
    const char *s = getenv("LIT_FAULT_STRIDE");
    unsigned long n = s ? strtoul(s, NULL, 10) : 0;
    return n ? n : 1;
}

TestSuite(faults, .init = make_dir, .fini = remove_dir, .timeout = 600);

/* The clean run: both games to their end, and its figures. */
static unsigned long clean_run(Run *r, char results[ROOMS][16], int lines[ROOMS])
{
    unsigned long n = play_script(r, "clean.db", 0);
    check_store(r, "clean.db", 0);
    cr_assert_eq(r->incidents, 0);
    cr_assert(n > 100, "only %lu allocations", n);
    for (int k = 0; k < ROOMS; k++) {
        memcpy(results[k], r->result[k], sizeof results[k]);
        lines[k] = r->n_lines[k];
        cr_assert(r->n_lines[k] > 4, "room %c: %d actions", 'A' + k, r->n_lines[k]);
    }
    return n;
}

Test(faults, every_allocation_of_a_game_fails_once)
{
    static Run run;
    char results[ROOMS][16];
    int lines[ROOMS];
    unsigned long total = clean_run(&run, results, lines), step_n = stride();
    int with_incident = 0;
    fprintf(stderr, "test_faults: %lu allocations in the script; failing every %lu%s\n", total,
            step_n, step_n == 1 ? "" : " (LIT_FAULT_STRIDE)");
    /* the offset spreads a stride's runs over the script's parts */
    for (unsigned long n = 1 + (step_n > 1 ? total % step_n : 0); n <= total; n += step_n) {
        char db[32];
        snprintf(db, sizeof db, "f%lu.db", n);
        play_script(&run, db, n);
        cr_assert(mem_fault_hit(), "fault %lu: not reached", n);
        if (!run.served)
            continue;
        cr_assert(run.incidents <= 1, "fault %lu: %d clients affected", n, run.incidents);
        with_incident += run.incidents;
        check_store(&run, db, n);
        for (int k = 0; k < ROOMS; k++)
            cr_assert_str_eq(run.result[k], results[k], "fault %lu: room %c", n, 'A' + k);
        char path[128];
        snprintf(path, sizeof path, "%s/%s", dir, db);
        remove(path);
        snprintf(path, sizeof path, "%s/%s-wal", dir, db);
        remove(path);
        snprintf(path, sizeof path, "%s/%s-shm", dir, db);
        remove(path);
    }
    fprintf(stderr, "test_faults: %d runs answered server_error or closed a client\n",
            with_incident);
    cr_assert(with_incident > 0, "no fault reached a client");
}
