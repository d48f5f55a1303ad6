/* load.c - lit-load: a load generator for `lit serve` (docs/BENCHMARKS.md,
 * and its soak with disconnects, docs/RELIABILITY.md "Load and soak").
 *
 * Tables of six protocol clients (libwebsockets, one event loop): the first
 * creates a 6-player room, the other five join a seat each, and the host
 * starts a game, and another when one ends. Each table acts at --rate
 * actions a second (each wait drawn from half to one and a half times the
 * mean): the client on turn sends a legal action read from its last frame
 * (an ask mostly; now and then a claim of a claimable set naming itself for
 * every card, which ends games; a pass or a choice when that is all it
 * may do). The latency of an action is from its send to the moment the last
 * of the table's connected clients has its event. Each table connects from
 * its own loopback address (127.1.X.Y), as many players from many places
 * would. The loop is libev's (epoll), as the server's: poll() over six
 * thousand sockets would measure the generator, not the server. Timers are
 * libev's too: lws 4.1's libev glue never moves its one armed timer
 * earlier, so an lws_sul due before it waits for the next socket event.
 *
 * Disconnects (--drops R: R a table a minute on average, each wait drawn
 * from 0 to twice the mean, seeded by --seed): a random connected client
 * of the table drops its connection, half the time cleanly (a close frame)
 * and half abruptly (the socket shut with no close frame, and reset when
 * it is closed). After a random 50 ms to --away-ms it connects again from
 * the same address and sends `resume` with the room's code, its token and
 * the last seq it saw, and plays on. The table plays on meanwhile; when
 * the away seat is on turn, the table waits for it. Checked all along:
 * - seqs: a room, event or clock frame is one more than the client's last,
 *   a snapshot (a game frame sent to it alone, catchup, aid) the same; the
 *   first room frame after joining or resuming may skip (others' changes);
 * - events: each one's n follows the last the client saw of its game, and
 *   its line is the one every other client of the table saw for that n;
 *   a game frame's history is the table's too;
 * - a catchup starts at the seq resumed with, is of the client's game and
 *   follows on from its last event;
 * - an action sent before a drop and not seen played is sent again after
 *   the resume with its id, and must be answered as a repeat exactly when
 *   the client has since seen it played: no action lost, none played twice;
 * - every action is answered by one ack (or an error) and its event is the
 *   acting seat's;
 * - a table that makes no progress for 15 s has stalled (nothing it waits
 *   for takes that long: a turn's wait, a reconnection, a start).
 * Any of these, an error frame, or a connection lost that the tool did not
 * drop makes the exit status 1, as does a server whose resident memory at
 * the window's last whole minute is over 5% above minute 2 (windows of 3
 * minutes or more).
 *
 * Usage: lit-load --port N [--tables N] [--seconds N] [--rate R]
 *                 [--server-pid PID] [--ramp-ms N]
 *                 [--drops R] [--away-ms N] [--seed N]
 */
#include <getopt.h>
#include <ev.h>
#include <jansson.h>
#include <libwebsockets.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "literature/cards.h"
#include "literature/rules.h"
#include "literature/status.h"

enum {
    SEATS = 6,
    OUT_MAX = 1024,
    ERRORS_SHOWN = 5,
    TOKEN_MAX = 64,
    ACKS_MAX = 4,          /* acks a client may wait for at once */
    AWAY_MIN_MS = 50,      /* the shortest time away after a drop */
    RSS_BOUND_PCT = 5      /* the last minute's resident memory against minute 2 */
};
static const int64_t STALL_US = 15000000;

enum { OFF, OPENING, LIVE };          /* a client's connection */
enum { KEPT, CLEAN, ABRUPT, LOSE };   /* how the tool drops it (LOSE: abruptly,
                                       * with its action not yet written) */

struct Table;

/* A message queued behind the one being written (rare: a resumed client
 * sending an action again, then its next). */
typedef struct Later {
    struct Later *next;
    char text[];
} Later;

typedef struct Client {
    struct Table *t;
    int seat;              /* 0-based */
    struct lws *wsi;
    int state;             /* OFF, OPENING (connecting, joining, resuming), LIVE */
    int closing;           /* CLEAN, ABRUPT: the tool is dropping it */
    int fresh;             /* joined or resumed: its next room frame may skip seqs */
    int is_host;           /* its last room frame said it is the host */
    char token[TOKEN_MAX + 1];
    char *in;              /* the frame being put together */
    size_t in_len, in_cap;
    unsigned char out[LWS_PRE + OUT_MAX]; /* the message to send, if out_len */
    size_t out_len;
    Later *later;          /* messages to send after it, oldest first */
    json_t *you;           /* "you" of its last game, catchup or event frame */
    long seq;              /* the last seq it saw */
    int game;              /* the game it is in (0: none yet) */
    long last_n;           /* the last event of that game it saw */
    long resumed_from;     /* the seq its resume named (-1: not resuming) */
    int64_t opened_at;     /* when its reconnection began */
    int64_t upgraded_at;   /* ... and when its WebSocket was open */
    char act[OUT_MAX + 1]; /* its last action sent, of game act_game, event act_n */
    int act_game;
    long act_n;
    int resend;            /* it dropped before seeing that action played */
    int drop_after;        /* CLEAN, ABRUPT: drop once that action is written;
                            * LOSE: drop abruptly instead of writing it */
    int acks[ACKS_MAX];    /* acks awaited, oldest first: 1 a repeat, 0 not */
    int n_acks;
    ev_timer back;         /* its reconnection */
} Client;

typedef struct Table {
    int index;
    char address[32];      /* its clients' source address */
    Client c[SEATS];
    char code[8];
    int joined, playing;
    int deck;
    int game;              /* the latest game any of its clients has seen */
    int turn;              /* 0-based seat on turn, or -1 */
    long actions;          /* actions of that game its clients have seen */
    int over;              /* ... and it has ended */
    int need_start;        /* the host is to start the next game */
    int start_by;          /* the seat whose start is on its way (-1: none) */
    int blocked;           /* the seat on turn is away: act once it is back */
    int drop_after;        /* how the next client to act drops (its drop_after) */
    int64_t sent_at;       /* the pending action's send (0: none) */
    long pending_n;        /* ... its event's number */
    int sender;            /* ... its seat */
    unsigned waiting;      /* ... the connected clients that have not had it */
    int disturbed;         /* ... a client dropped meanwhile */
    int64_t progress_at;   /* its last action played or game started */
    int stalled;
    uint64_t rng, drop_rng;
    ev_timer timer;        /* its next action */
    ev_timer drops;        /* its next drop */
    long ids;
    /* the hash of each event's line by game parity and n (0: not seen) */
    uint32_t lines[2][LIT_MAX_ACTIONS + 1];
} Table;

typedef struct Series {
    int64_t *v;
    size_t n, cap;
} Series;

static struct {
    struct lws_context *ctx;
    struct ev_loop *loop;
    int64_t began;
    int port, tables, seconds, ramp_ms, server_pid, away_ms;
    double rate, drops;
    unsigned long seed;
    Table *t;
    int playing;           /* tables whose first game has started */
    int64_t window_from, window_to; /* the measured window (0: not yet) */
    Series lat;            /* action latencies in the window, us */
    Series back;           /* reconnections: from connecting to the catchup, us */
    Series opening;        /* ... their part until the WebSocket is open */
    long actions, across;  /* actions played in the window; those across a drop */
    long games, errors, lost, inconsistent, stalls;
    long went_on;          /* stalled tables that made progress again */
    long dropped[3], catchups, caught_events, snapshots, resent, repeats;
    int done;
    ev_timer clock;
    long rss_before, rss_at_start;
    double cpu_at_start;   /* the server's CPU seconds at the window's start */
    double sys_at_start;   /* ... of which in the kernel */
    double own_at_start;   /* ... and this process's */
    long *rss;             /* at the window's whole minutes, from minute 1 */
    int minute;
} L;

static int64_t now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

static uint64_t next_random(uint64_t *s)
{
    *s = *s * 6364136223846793005u + 1442695040888963407u;
    return *s >> 33;
}

static void *grow(void *p, size_t size)
{
    void *q = realloc(p, size);
    if (!q) {
        fprintf(stderr, "lit-load: out of memory\n");
        exit(1);
    }
    return q;
}

static void add(Series *s, int64_t v)
{
    if (s->n == s->cap) {
        s->cap = s->cap ? s->cap * 2 : 1 << 12;
        s->v = grow(s->v, s->cap * sizeof *s->v);
    }
    s->v[s->n++] = v;
}

/* The server's resident memory in KiB (0: not known). */
static long server_rss(void)
{
    char path[64], line[256];
    long kib = 0;
    if (!L.server_pid)
        return 0;
    snprintf(path, sizeof path, "/proc/%d/status", L.server_pid);
    FILE *f = fopen(path, "r");
    while (f && fgets(line, sizeof line, f))
        if (sscanf(line, "VmRSS: %ld kB", &kib) == 1)
            break;
    if (f)
        fclose(f);
    return kib;
}

/* The server's CPU time (user and system) in seconds (0: not known); its
 * system part in *sys. */
static double server_cpu(double *sys_out)
{
    char path[64];
    unsigned long user = 0, sys = 0;
    if (!L.server_pid)
        return 0;
    snprintf(path, sizeof path, "/proc/%d/stat", L.server_pid);
    FILE *f = fopen(path, "r");
    /* after "pid (comm) ": fields 3 to 15; utime and stime are 14 and 15 */
    if (f && fscanf(f, "%*d (%*[^)]) %*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %lu %lu", &user,
                    &sys) != 2)
        user = sys = 0;
    if (f)
        fclose(f);
    long hz = sysconf(_SC_CLK_TCK);
    *sys_out = hz > 0 ? (double)sys / (double)hz : 0;
    return hz > 0 ? (double)(user + sys) / (double)hz : 0;
}

/* This process's CPU time in seconds. */
static double own_cpu(void)
{
    struct rusage u;
    getrusage(RUSAGE_SELF, &u);
    return (double)(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
           (double)(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
}

static void problem(const char *what, const Table *t, const char *detail)
{
    if (L.errors + L.lost + L.inconsistent + L.stalls <= ERRORS_SHOWN)
        fprintf(stderr, "lit-load: table %d: %s: %.400s\n", t->index, what, detail);
}

/* A check failed: what the server sent does not fit what the client had. */
static void inconsistent(const Client *c, const char *fmt, long a, long b)
{
    char detail[160];
    snprintf(detail, sizeof detail, fmt, a, b);
    L.inconsistent++;
    char what[48];
    snprintf(what, sizeof what, "seat %d: inconsistent", c->seat + 1);
    problem(what, c->t, detail);
}

static void send_text(Client *c, const char *text)
{
    size_t len = strlen(text);
    if (len > OUT_MAX || !c->wsi) {
        problem("a message could not be queued", c->t, text);
        L.errors++;
        return;
    }
    if (c->out_len) { /* behind the one being written */
        Later *m = grow(NULL, sizeof *m + len + 1), **end = &c->later;
        while (*end)
            end = &(*end)->next;
        m->next = NULL;
        memcpy(m->text, text, len + 1);
        *end = m;
        return;
    }
    memcpy(c->out + LWS_PRE, text, len);
    c->out_len = len;
    lws_callback_on_writable(c->wsi);
}

/* Forgets the messages not written (dropped with the connection). */
static void forget_output(Client *c)
{
    c->out_len = 0;
    while (c->later) {
        Later *m = c->later;
        c->later = m->next;
        free(m);
    }
}

static void connect_client(Table *t, int seat)
{
    Client *c = &t->c[seat];
    struct lws_client_connect_info i;
    memset(&i, 0, sizeof i);
    c->state = OPENING;
    c->fresh = 1;
    c->opened_at = now_us();
    i.context = L.ctx;
    i.address = "127.0.0.1";
    i.port = L.port;
    i.path = "/";
    i.host = "127.0.0.1";
    i.iface = t->address;
    i.local_protocol_name = "load";
    i.userdata = c;
    i.pwsi = &c->wsi;
    if (!lws_client_connect_via_info(&i)) {
        problem("cannot connect", t, t->address);
        L.lost++;
        c->state = OFF;
    }
}

/* ---- acting ------------------------------------------------------------- */

static void schedule(ev_timer *w, int64_t at)
{
    int64_t wait = at - now_us();
    ev_timer_stop(L.loop, w);
    ev_timer_set(w, wait > 0 ? (double)wait / 1e6 : 0.0, 0.0);
    ev_timer_start(L.loop, w);
}

/* The claim of set (its name) by seat: every card to itself. */
static void claim_text(const Table *t, const Client *c, const char *set, char *out, size_t size)
{
    int s = lit_set_parse(t->deck, set, strlen(set));
    size_t n = (size_t)snprintf(out, size, "{\"type\":\"act\",\"seq\":%ld,\"id\":\"a%ld\","
                                           "\"action\":\"claim\",\"set\":\"%s\",\"holders\":{",
                                c->seq, t->ids, set);
    for (int k = 0; s >= 0 && k < lit_deck_set_size(t->deck); k++)
        n += (size_t)snprintf(out + n, size - n, "%s\"%s\":%d", k ? "," : "",
                              lit_card_name(t->deck, lit_set_first(t->deck, s) + k), c->seat + 1);
    snprintf(out + n, size - n, "}}");
}

static void expect_ack(Client *c, int repeat)
{
    if (c->n_acks == ACKS_MAX) {
        inconsistent(c, "%ld actions sent and not answered%.0ld", (long)ACKS_MAX, 0);
        return;
    }
    c->acks[c->n_acks++] = repeat;
}

static int take_ack(Client *c)
{
    if (!c->n_acks)
        return -1;
    int repeat = c->acks[0];
    memmove(c->acks, c->acks + 1, (size_t)--c->n_acks * sizeof *c->acks);
    return repeat;
}

/* The next action's time: a wait around 1 / rate seconds after the last. */
static void plan_next(Table *t, int64_t from)
{
    double mean = 1e6 / L.rate;
    double wait = mean * (0.5 + (double)(next_random(&t->rng) % 1000) / 1000.0);
    schedule(&t->timer, from + (int64_t)wait);
}

/* The host, when connected, starts the next game. */
static void try_start(Table *t)
{
    if (!t->need_start || t->start_by >= 0 || t->sent_at)
        return;
    for (int s = 0; s < SEATS; s++)
        if (t->c[s].state == LIVE && t->c[s].is_host && !t->c[s].closing) {
            t->start_by = s;
            send_text(&t->c[s], "{\"type\":\"start\"}");
            return;
        }
}

/* The client on turn sends an action read from its last frame. */
static void act(Table *t)
{
    if (t->turn < 0 || t->sent_at || t->over || t->need_start)
        return;
    Client *c = &t->c[t->turn];
    if (c->state != LIVE) {
        t->blocked = 1; /* away: acts once it is back */
        return;
    }
    if (c->game != t->game || c->last_n != t->actions) {
        schedule(&t->timer, now_us() + 10000); /* its frame is on the way */
        return;
    }
    json_t *asks = json_object_get(c->you, "asks");
    json_t *claimable = json_object_get(c->you, "claimable");
    json_t *passes = json_object_get(c->you, "passes");
    json_t *choices = json_object_get(c->you, "choices");
    size_t n_asks = json_array_size(asks), n_claims = json_array_size(claimable);
    char *text = c->act;
    t->ids++;
    if (n_claims && (!n_asks || next_random(&t->rng) % 8 == 0)) {
        size_t k = next_random(&t->rng) % n_claims;
        const char *set = json_string_value(json_array_get(claimable, k));
        claim_text(t, c, set ? set : "", text, sizeof c->act);
    } else if (n_asks) {
        json_t *a = json_array_get(asks, next_random(&t->rng) % n_asks);
        snprintf(text, sizeof c->act,
                 "{\"type\":\"act\",\"seq\":%ld,\"id\":\"a%ld\",\"action\":\"ask\",\"card\":\"%s\","
                 "\"target\":%d}",
                 c->seq, t->ids, json_string_value(json_object_get(a, "card")),
                 (int)json_integer_value(json_object_get(a, "target")));
    } else if (json_array_size(passes) || json_array_size(choices)) {
        json_t *p = json_array_get(json_array_size(passes) ? passes : choices, 0);
        json_t *target = json_is_object(p) ? json_object_get(p, "target") : p;
        snprintf(text, sizeof c->act,
                 "{\"type\":\"act\",\"seq\":%ld,\"id\":\"a%ld\",\"action\":\"%s\",\"target\":%d}",
                 c->seq, t->ids, json_array_size(passes) ? "pass" : "choose",
                 (int)json_integer_value(target));
    } else {
        c->act[0] = 0;
        return; /* nothing to do: the next frame will say */
    }
    t->sent_at = now_us();
    t->pending_n = t->actions + 1;
    t->sender = c->seat;
    t->waiting = 0;
    for (int s = 0; s < SEATS; s++)
        if (t->c[s].state == LIVE)
            t->waiting |= 1u << s;
    t->disturbed = 0;
    c->act_game = t->game;
    c->act_n = t->pending_n;
    c->drop_after = t->drop_after;
    t->drop_after = KEPT;
    expect_ack(c, 0);
    send_text(c, text);
}

static void on_table_timer(struct ev_loop *loop, ev_timer *w, int revents)
{
    (void)loop;
    (void)revents;
    act(w->data);
}

/* The pending action has come to every connected client: the next one. */
static void check_done(Table *t)
{
    if (!t->sent_at || t->waiting || t->game != t->c[t->sender].act_game ||
        t->actions < t->pending_n)
        return;
    int64_t now = now_us();
    if (L.window_from && now >= L.window_from && now <= L.window_to) {
        L.actions++;
        if (t->disturbed)
            L.across++;
        else
            add(&L.lat, now - t->sent_at);
    }
    int64_t from = t->sent_at;
    t->sent_at = 0;
    t->progress_at = now;
    L.went_on += t->stalled;
    t->stalled = 0;
    if (t->over) {
        t->need_start = 1;
        try_start(t);
    } else {
        plan_next(t, from);
    }
}

/* ---- what the clients see --------------------------------------------- */

/* Event n of game `game` read line: the same at every client of the table. */
static void check_line(Client *c, int game, long n, const char *line)
{
    Table *t = c->t;
    if (n < 1 || n > LIT_MAX_ACTIONS || !line) {
        inconsistent(c, "event %ld of game %ld has no line or is out of range", n, game);
        return;
    }
    if (game < t->game - 1)
        return; /* two games back: no longer kept */
    uint32_t h = 2166136261u;
    for (const char *p = line; *p; p++)
        h = (h ^ (unsigned char)*p) * 16777619u;
    h |= 1;
    uint32_t *slot = &t->lines[game & 1][n];
    if (!*slot)
        *slot = h;
    else if (*slot != h)
        inconsistent(c, "event %ld of game %ld is not what another client saw", n, game);
}

/* A later state of the table's game than it knew: its turn and end. */
static void table_state(Table *t, int game, long n, json_t *state, int ended)
{
    if (game != t->game || n <= t->actions)
        return;
    json_t *turn = json_object_get(state, "turn");
    t->actions = n;
    t->turn = json_is_integer(turn) ? (int)json_integer_value(turn) - 1 : -1;
    t->over = ended;
}

static void plan_drop(Table *t);

static void new_game(Table *t, int game, json_t *j)
{
    LitRules rules;
    int deck = 0;
    if (lit_rules_parse(&rules, json_string_value(json_object_get(j, "rules")), NULL) == LIT_OK)
        deck = rules.deck;
    t->deck = deck;
    t->game = game;
    memset(t->lines[game & 1], 0, sizeof t->lines[game & 1]);
    t->actions = -1; /* table_state takes the frame's */
    t->over = 0;
    t->need_start = 0;
    t->start_by = -1;
    t->progress_at = now_us();
    L.went_on += t->stalled;
    t->stalled = 0;
    L.games++;
    if (!t->playing++) {
        L.playing++;
        if (L.drops > 0)
            plan_drop(t);
    }
    plan_next(t, now_us());
}

/* A resumed client has caught up: it is connected again, sends again an
 * action it had not seen played, and the table goes on. */
static void resumed(Client *c, int whole)
{
    Table *t = c->t;
    c->state = LIVE;
    c->resumed_from = -1;
    add(&L.back, now_us() - c->opened_at);
    add(&L.opening, c->upgraded_at - c->opened_at);
    if (whole)
        L.snapshots++;
    else
        L.catchups++;
    if (c->resend) {
        /* played exactly when it has seen it since, or its game is over */
        int repeat = c->game != c->act_game || c->last_n >= c->act_n;
        c->resend = 0;
        L.resent++;
        L.repeats += repeat;
        expect_ack(c, repeat);
        send_text(c, c->act);
    }
    check_done(t);
    if (t->blocked) {
        t->blocked = 0;
        plan_next(t, now_us());
    }
    try_start(t);
}

static void on_game(Client *c, json_t *j)
{
    Table *t = c->t;
    int game = (int)json_integer_value(json_object_get(j, "game"));
    json_t *history = json_object_get(j, "history"), *state = json_object_get(j, "state");
    long n = (long)json_array_size(history);
    int resuming = c->resumed_from >= 0;
    if (game < c->game || (!resuming && game != c->game + 1))
        inconsistent(c, "game %ld after game %ld", game, c->game);
    if (game == c->game && n < c->last_n)
        inconsistent(c, "a history of %ld events after event %ld", n, c->last_n);
    if (!resuming && n)
        inconsistent(c, "a new game with %ld events%.0ld", n, 0);
    if (json_integer_value(json_object_get(state, "actions")) != n)
        inconsistent(c, "a history of %ld events for %ld actions", n,
                     (long)json_integer_value(json_object_get(state, "actions")));
    if (game > t->game)
        new_game(t, game, j);
    for (long i = 0; i < n; i++)
        check_line(c, game, i + 1,
                   json_string_value(json_object_get(json_array_get(history, (size_t)i), "line")));
    c->game = game;
    c->last_n = n;
    json_decref(c->you);
    c->you = json_incref(json_object_get(j, "you"));
    table_state(t, game, n, state, json_object_get(j, "result") != NULL);
    if (resuming)
        resumed(c, 1);
}

static void on_catchup(Client *c, json_t *j)
{
    Table *t = c->t;
    json_t *events = json_object_get(j, "events"), *state = json_object_get(j, "state");
    long from = (long)json_integer_value(json_object_get(j, "from"));
    long game = (long)json_integer_value(json_object_get(j, "game"));
    if (c->resumed_from < 0) {
        inconsistent(c, "a catchup not asked for (from %ld, game %ld)", from, game);
        return;
    }
    if (from != c->resumed_from)
        inconsistent(c, "a catchup from %ld, resumed from %ld", from, c->resumed_from);
    if (game != c->game)
        inconsistent(c, "a catchup of game %ld in game %ld", game, c->game);
    for (size_t i = 0; i < json_array_size(events); i++) {
        json_t *e = json_array_get(events, i);
        long n = (long)json_integer_value(json_object_get(e, "n"));
        if (n != c->last_n + 1)
            inconsistent(c, "caught up with event %ld after event %ld", n, c->last_n);
        check_line(c, c->game, n, json_string_value(json_object_get(e, "line")));
        c->last_n = n;
    }
    L.caught_events += (long)json_array_size(events);
    if (json_integer_value(json_object_get(state, "actions")) != c->last_n)
        inconsistent(c, "caught up to %ld actions, the state has %ld", c->last_n,
                     (long)json_integer_value(json_object_get(state, "actions")));
    json_decref(c->you);
    c->you = json_incref(json_object_get(j, "you"));
    table_state(t, c->game, c->last_n, state, json_object_get(j, "result") != NULL);
    resumed(c, 0);
}

static void on_event(Client *c, json_t *j)
{
    Table *t = c->t;
    json_t *e = json_object_get(j, "event"), *state = json_object_get(j, "state");
    long n = (long)json_integer_value(json_object_get(e, "n"));
    if (n != c->last_n + 1)
        inconsistent(c, "event %ld after event %ld", n, c->last_n);
    if (json_integer_value(json_object_get(state, "actions")) != n)
        inconsistent(c, "event %ld with %ld actions", n,
                     (long)json_integer_value(json_object_get(state, "actions")));
    check_line(c, c->game, n, json_string_value(json_object_get(e, "line")));
    c->last_n = n;
    json_decref(c->you);
    c->you = json_incref(json_object_get(j, "you"));
    table_state(t, c->game, n, state, json_object_get(j, "result") != NULL);
    if (t->sent_at && c->game == t->game && n == t->pending_n) {
        long seat = (long)json_integer_value(json_object_get(e, "seat"));
        if (seat != t->sender + 1)
            inconsistent(c, "event %ld is seat %ld's, not the action the tool sent", n, seat);
        t->waiting &= ~(1u << c->seat);
        check_done(t);
    }
}

/* Whether frame seq fits the last one the client saw: a change to every
 * member is the next, a snapshot to it alone the same. */
static void check_seq(Client *c, const char *type, long seq)
{
    int change = strcmp(type, "room") == 0 || strcmp(type, "event") == 0 ||
                 strcmp(type, "clock") == 0;
    int ok = change ? (c->fresh ? seq > c->seq : seq == c->seq + 1)
             : strcmp(type, "game") == 0 ? seq == c->seq || seq == c->seq + 1
                                         : seq == c->seq;
    if (!ok)
        inconsistent(c, "seq %ld after seq %ld", seq, c->seq);
    if (change)
        c->fresh = 0;
    c->seq = seq;
}

static void on_frame(Client *c, json_t *j)
{
    Table *t = c->t;
    const char *type = json_string_value(json_object_get(j, "type"));
    json_t *seq = json_object_get(j, "seq");
    if (c->closing || c->state == OFF || !type)
        return; /* a connection being dropped: nothing more is read from it */
    if (json_is_integer(seq) && strcmp(type, "ack") != 0)
        check_seq(c, type, (long)json_integer_value(seq));
    if (strcmp(type, "error") == 0) {
        L.errors++;
        problem("error", t, json_string_value(json_object_get(j, "error")));
        if (json_object_get(j, "id"))
            take_ack(c);
        if (c->seat == t->sender && t->sent_at) {
            t->sent_at = 0; /* acted on a stale frame: try again */
            plan_next(t, now_us());
        }
        return;
    }
    if (strcmp(type, "ack") == 0) {
        int want = take_ack(c);
        int repeat = json_is_true(json_object_get(j, "repeat"));
        if (want < 0 || repeat != want)
            inconsistent(c, "an ack with repeat %ld, wanted %ld", repeat, want);
        return;
    }
    if (strcmp(type, "joined") == 0) {
        snprintf(c->token, sizeof c->token, "%s", json_string_value(json_object_get(j, "token")));
        if (c->resumed_from >= 0)
            return; /* the room and a catchup or the game follow */
        c->state = LIVE;
        if (c->seat == 0) {
            snprintf(t->code, sizeof t->code, "%s", json_string_value(json_object_get(j, "room")));
            for (int s = 1; s < SEATS; s++)
                connect_client(t, s);
        } else if (++t->joined == SEATS - 1) {
            t->need_start = 1;
            try_start(t);
        }
        return;
    }
    if (strcmp(type, "room") == 0) {
        c->is_host = json_is_true(json_object_get(json_object_get(j, "you"), "host"));
        try_start(t);
    } else if (strcmp(type, "game") == 0) {
        on_game(c, j);
    } else if (strcmp(type, "catchup") == 0) {
        on_catchup(c, j);
    } else if (strcmp(type, "event") == 0) {
        on_event(c, j);
    }
}

/* ---- drops and reconnections -------------------------------------------- */

/* The next drop at the table: a wait from 0 to twice 60 / drops s. */
static void plan_drop(Table *t)
{
    double wait = 60e6 / L.drops * (double)(next_random(&t->drop_rng) % 2001) / 1000.0;
    schedule(&t->drops, now_us() + (int64_t)wait);
}

/* Drops a client's connection: with a close frame (CLEAN) or without (ABRUPT:
 * the socket shut both ways, and reset when lws closes it). Its reconnection
 * is planned when lws reports it closed. */
static void drop(Client *c, int how)
{
    Table *t = c->t;
    c->closing = how;
    c->state = OFF;
    c->drop_after = KEPT;
    c->resend = c->act[0] && c->act_game == c->game && c->last_n < c->act_n;
    forget_output(c); /* not written: an action among it is sent again */
    c->n_acks = 0;
    L.dropped[how]++;
    if (t->sent_at) {
        t->disturbed = 1;
        t->waiting &= ~(1u << c->seat);
        check_done(t);
    }
    if (how == ABRUPT) {
        int fd = (int)lws_get_socket_fd(c->wsi);
        struct linger now = {1, 0};
        setsockopt(fd, SOL_SOCKET, SO_LINGER, &now, sizeof now);
        shutdown(fd, SHUT_RDWR);
    } else {
        lws_callback_on_writable(c->wsi); /* the close frame */
    }
}

/* Half the drops are of a random client at a random moment; the other
 * half of the next client to act, the moment its action is written (so
 * that the server may or may not have read it). */
static void on_drop_timer(struct ev_loop *loop, ev_timer *w, int revents)
{
    (void)loop;
    (void)revents;
    Table *t = w->data;
    if (L.done)
        return;
    Client *c = &t->c[next_random(&t->drop_rng) % SEATS];
    int how = next_random(&t->drop_rng) % 2 ? ABRUPT : CLEAN;
    if (next_random(&t->drop_rng) % 2)
        t->drop_after = how == ABRUPT && next_random(&t->drop_rng) % 2 ? LOSE : how;
    /* one not connected is left alone, and so is the host whose start is
     * on its way (a start is not idempotent: it cannot be sent again) */
    else if (c->state == LIVE && c->wsi && t->start_by != c->seat)
        drop(c, how);
    plan_drop(t);
}

static void on_back_timer(struct ev_loop *loop, ev_timer *w, int revents)
{
    (void)loop;
    (void)revents;
    Client *c = w->data;
    if (L.done)
        return;
    c->resumed_from = c->seq;
    connect_client(c->t, c->seat);
}

static int callback(struct lws *wsi, enum lws_callback_reasons reason, void *user, void *in,
                    size_t len)
{
    Client *c = user;
    switch (reason) {
    case LWS_CALLBACK_CLIENT_ESTABLISHED: {
        char text[256];
        c->upgraded_at = now_us();
        if (c->resumed_from >= 0)
            snprintf(text, sizeof text,
                     "{\"type\":\"resume\",\"room\":\"%s\",\"token\":\"%s\",\"seq\":%ld}",
                     c->t->code, c->token, c->resumed_from);
        else if (c->seat == 0)
            snprintf(text, sizeof text,
                     "{\"type\":\"create\",\"name\":\"P1\",\"players\":6,\"pace_ms\":0}");
        else
            snprintf(text, sizeof text,
                     "{\"type\":\"join\",\"room\":\"%s\",\"name\":\"P%d\",\"seat\":%d}",
                     c->t->code, c->seat + 1, c->seat + 1);
        send_text(c, text);
        break;
    }
    case LWS_CALLBACK_CLIENT_RECEIVE:
        if (c->in_len + len + 1 > c->in_cap) {
            c->in_cap = (c->in_len + len + 1) * 2;
            c->in = grow(c->in, c->in_cap);
        }
        memcpy(c->in + c->in_len, in, len);
        c->in_len += len;
        if (lws_is_final_fragment(wsi)) {
            json_t *j = json_loadb(c->in, c->in_len, 0, NULL);
            c->in_len = 0;
            if (j)
                on_frame(c, j);
            json_decref(j);
        }
        break;
    case LWS_CALLBACK_CLIENT_WRITEABLE:
        if (c->drop_after == LOSE && c->state == LIVE) {
            c->drop_after = KEPT;
            drop(c, ABRUPT); /* the action is lost with the connection */
        } else if (c->out_len) {
            size_t n = c->out_len;
            c->out_len = 0;
            if (lws_write(wsi, c->out + LWS_PRE, n, LWS_WRITE_TEXT) < (int)n)
                return -1;
            if (c->drop_after && c->state == LIVE) {
                int how = c->drop_after;
                c->drop_after = KEPT;
                drop(c, how);
            } else if (c->closing) {
                lws_callback_on_writable(wsi);
            } else if (c->later) {
                Later *m = c->later;
                c->later = m->next;
                send_text(c, m->text);
                free(m);
            }
        } else if (c->closing == CLEAN) {
            lws_close_reason(wsi, LWS_CLOSE_STATUS_NORMAL, (unsigned char *)"bye", 3);
            return -1;
        }
        break;
    case LWS_CALLBACK_CLIENT_CONNECTION_ERROR:
    case LWS_CALLBACK_CLIENT_CLOSED:
        c->wsi = NULL;
        c->in_len = 0;
        forget_output(c);
        if (L.done)
            break;
        if (c->closing) {
            int64_t away = AWAY_MIN_MS * 1000 +
                           (int64_t)(next_random(&c->t->drop_rng) %
                                     (uint64_t)((L.away_ms - AWAY_MIN_MS) * 1000 + 1));
            c->closing = KEPT;
            schedule(&c->back, now_us() + away);
        } else {
            L.lost++;
            c->state = OFF;
            problem("connection lost", c->t, in ? (const char *)in : "");
        }
        break;
    default:
        break;
    }
    return 0;
}

static const struct lws_protocols protocols[] = {{"load", callback, 0, 1 << 16, 0, NULL, 0},
                                                 {NULL, NULL, 0, 0, 0, NULL, 0}};

/* Starts the tables one after another, opens the window once all play,
 * samples the server's memory each minute of it, watches for tables that
 * stall, and ends the run. */
static void on_clock(struct ev_loop *loop, ev_timer *w, int revents)
{
    (void)revents;
    static int started;
    int64_t now = now_us();
    int batch = L.ramp_ms ? 1 : L.tables;
    for (int k = 0; k < batch && started < L.tables; k++)
        connect_client(&L.t[started++], 0);
    if (!L.window_from && L.playing == L.tables) {
        L.window_from = now + 2000000; /* two seconds to settle */
        L.window_to = L.window_from + (int64_t)L.seconds * 1000000;
        L.rss_at_start = server_rss();
        L.cpu_at_start = server_cpu(&L.sys_at_start);
        L.own_at_start = own_cpu();
    }
    while (L.window_from && L.minute < L.seconds / 60 &&
           now >= L.window_from + (int64_t)(L.minute + 1) * 60000000) {
        long rss = server_rss();
        L.rss[L.minute++] = rss;
        if (rss)
            printf("minute %d: server resident %.1f MiB\n", L.minute, (double)rss / 1024);
        fflush(stdout);
    }
    for (int i = 0; i < started; i++) {
        Table *t = &L.t[i];
        if (t->playing && !t->stalled && now - t->progress_at > STALL_US) {
            /* what it waits for, and each seat: state/closing/game.last event */
            char d[320];
            int n = snprintf(d, sizeof d, "%s (room %s, game %d, event %ld, sent by %d, waiting %x):",
                             t->sent_at       ? "an action's event is awaited"
                             : t->need_start ? "a start is awaited"
                                             : "an action is awaited",
                             t->code, t->game, t->sent_at ? t->pending_n : t->actions + 1,
                             t->sent_at ? t->sender + 1 : 0, t->waiting);
            for (int s = 0; s < SEATS && n > 0 && (size_t)n < sizeof d; s++)
                n += snprintf(d + n, sizeof d - (size_t)n, " %d/%d/%d.%ld", t->c[s].state,
                              t->c[s].closing, t->c[s].game, t->c[s].last_n);
            t->stalled = 1;
            L.stalls++;
            problem("no progress for 15 s", t, d);
        }
    }
    if (!L.window_from && now - L.began > 120000000) {
        fprintf(stderr, "lit-load: only %d of %d tables playing after 120 s\n", L.playing,
                L.tables);
        L.lost++;
        L.window_to = now; /* and stop */
    }
    if (L.window_to && now >= L.window_to) {
        L.done = 1;
        ev_break(loop, EVBREAK_ALL);
        return;
    }
    ev_timer_set(w, started < L.tables && L.ramp_ms ? L.ramp_ms / 1e3 : 0.1, 0.0);
    ev_timer_start(loop, w);
}

static int compare(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* Percentile p of a sorted series, in ms. */
static double percentile(const Series *s, double p)
{
    if (!s->n)
        return 0;
    size_t i = (size_t)(p * (double)(s->n - 1) + 0.5);
    return (double)s->v[i] / 1000.0;
}

/* Prints the figures; whether the memory bound holds (1: yes or not
 * checked). */
static int report(long rss_end, double cpu_end, double sys_end)
{
    qsort(L.lat.v, L.lat.n, sizeof *L.lat.v, compare);
    qsort(L.back.v, L.back.n, sizeof *L.back.v, compare);
    qsort(L.opening.v, L.opening.n, sizeof *L.opening.v, compare);
    printf("tables %d, clients %d, window %d s, rate %.2f actions/s a table, drops %.2f a table "
           "a minute (seed %lu)\n",
           L.tables, L.tables * SEATS, L.seconds, L.rate, L.drops, L.seed);
    printf("actions %ld (%.1f/s), games started %ld, errors %ld, connections lost %ld, "
           "inconsistent %ld, stalled %ld\n",
           L.actions, (double)L.actions / L.seconds, L.games, L.errors, L.lost, L.inconsistent,
           L.stalls);
    if (L.stalls)
        printf("tables stalled 15 s that went on later: %ld of %ld\n", L.went_on, L.stalls);
    printf("latency to the last of six: p50 %.2f ms, p99 %.2f ms, max %.2f ms (%ld actions "
           "across a drop left out)\n",
           percentile(&L.lat, 0.5), percentile(&L.lat, 0.99), percentile(&L.lat, 1), L.across);
    if (L.drops > 0)
        printf("drops %ld (%ld clean, %ld abrupt), reconnections %zu: p50 %.2f ms, p99 %.2f ms, "
               "max %.2f ms; catchups %ld (%ld events), whole games %ld; actions sent again "
               "%ld (%ld repeats)\n",
               L.dropped[CLEAN] + L.dropped[ABRUPT], L.dropped[CLEAN], L.dropped[ABRUPT],
               L.back.n, percentile(&L.back, 0.5), percentile(&L.back, 0.99),
               percentile(&L.back, 1), L.catchups, L.caught_events, L.snapshots, L.resent,
               L.repeats);
    if (L.opening.n)
        printf("of which opening the WebSocket (connect and upgrade): p50 %.2f ms, p99 %.2f ms, "
               "max %.2f ms\n",
               percentile(&L.opening, 0.5), percentile(&L.opening, 0.99),
               percentile(&L.opening, 1));
    double own = own_cpu() - L.own_at_start;
    printf("lit-load's CPU over the window: %.0f%% of a core\n", 100 * own / L.seconds);
    if (!L.server_pid)
        return 1;
    double cpu = cpu_end - L.cpu_at_start, sys = sys_end - L.sys_at_start;
    printf("server CPU over the window: %.1f s, %.0f%% of a core, %.0f us an action (%.0f in "
           "the kernel)\n",
           cpu, 100 * cpu / L.seconds, L.actions ? 1e6 * cpu / (double)L.actions : 0.0,
           L.actions ? 1e6 * sys / (double)L.actions : 0.0);
    printf("server resident: %.1f MiB idle, %.1f MiB at the window's start, %.1f MiB at its "
           "end: %.1f KiB a table\n",
           (double)L.rss_before / 1024, (double)L.rss_at_start / 1024, (double)rss_end / 1024,
           (double)(rss_end - L.rss_before) / L.tables);
    if (L.minute < 3 || !L.rss[1])
        return 1;
    double growth = 100.0 * (double)(L.rss[L.minute - 1] - L.rss[1]) / (double)L.rss[1];
    int ok = growth <= RSS_BOUND_PCT && growth >= -RSS_BOUND_PCT;
    printf("server resident at minute %d against minute 2: %+.1f%% (%s %d%%)\n", L.minute, growth,
           ok ? "within" : "NOT within", RSS_BOUND_PCT);
    return ok;
}

static const char usage[] =
    "usage: lit-load --port N [--tables N] [--seconds N] [--rate R] [--server-pid PID]\n"
    "                [--ramp-ms N] [--drops R] [--away-ms N] [--seed N]\n"
    "  --port N        the port of a `lit serve` on 127.0.0.1\n"
    "  --tables N      tables of six clients (default 100)\n"
    "  --seconds N     the measured window, after every table plays (default 30)\n"
    "  --rate R        actions a second at each table (default 1)\n"
    "  --server-pid P  read the server's resident memory from /proc\n"
    "  --ramp-ms N     ms between two tables' first connections (default 5)\n"
    "  --drops R       connections dropped a minute at each table, on average (default 0);\n"
    "                  each client dropped resumes after 50 ms to --away-ms\n"
    "  --away-ms N     the longest time a dropped client stays away (default 1000)\n"
    "  --seed N        the drops' generator (default 1)\n";

int main(int argc, char **argv)
{
    static const struct option longs[] = {
        {"port", required_argument, NULL, 'p'},   {"tables", required_argument, NULL, 't'},
        {"seconds", required_argument, NULL, 's'}, {"rate", required_argument, NULL, 'r'},
        {"server-pid", required_argument, NULL, 'P'}, {"ramp-ms", required_argument, NULL, 'm'},
        {"drops", required_argument, NULL, 'd'},  {"away-ms", required_argument, NULL, 'a'},
        {"seed", required_argument, NULL, 'S'},   {NULL, 0, NULL, 0}};
    L.tables = 100;
    L.seconds = 30;
    L.rate = 1;
    L.ramp_ms = 5;
    L.away_ms = 1000;
    L.seed = 1;
    int opt;
    while ((opt = getopt_long(argc, argv, "", longs, NULL)) != -1) {
        char *end;
        int real = opt == 'r' || opt == 'd';
        long v = real ? 0 : strtol(optarg ? optarg : "", &end, 10);
        double x = real ? strtod(optarg ? optarg : "", &end) : 0;
        if (opt == '?' || *end || v < 0 || v > 1000000 || !(x >= 0 && x <= 1e6)) {
            fputs(usage, stderr);
            return 2;
        }
        switch (opt) {
        case 'p': L.port = (int)v; break;
        case 't': L.tables = (int)v; break;
        case 's': L.seconds = (int)v; break;
        case 'r': L.rate = x; break;
        case 'P': L.server_pid = (int)v; break;
        case 'm': L.ramp_ms = (int)v; break;
        case 'd': L.drops = x; break;
        case 'a': L.away_ms = (int)v; break;
        case 'S': L.seed = (unsigned long)v; break;
        default: break;
        }
    }
    if (!L.port || L.tables < 1 || L.tables > 60000 || !(L.rate > 0) || L.seconds < 1 ||
        L.away_ms < AWAY_MIN_MS || L.away_ms > 60000) {
        fputs(usage, stderr);
        return 2;
    }
    lws_set_log_level(LLL_ERR, NULL);
    struct lws_context_creation_info info;
    memset(&info, 0, sizeof info);
    info.port = CONTEXT_PORT_NO_LISTEN;
    info.protocols = protocols;
    /* no fd_limit_per_thread: with it, lws 4.1 finds a socket's connection
     * by walking all of them (wsi_from_fd), a quarter of the generator's time
     * at 6,000; without, by a table as long as the open-file limit, which
     * scripts/load.sh raises */
    L.loop = ev_loop_new(EVFLAG_AUTO | EVFLAG_NOENV);
    void *loops[1] = {L.loop};
    info.foreign_loops = loops;
    info.options = LWS_SERVER_OPTION_LIBEV;
    L.ctx = L.loop ? lws_create_context(&info) : NULL;
    L.t = calloc((size_t)L.tables, sizeof *L.t);
    L.rss = calloc((size_t)L.seconds / 60 + 1, sizeof *L.rss);
    if (!L.ctx || !L.t || !L.rss) {
        fprintf(stderr, "lit-load: cannot start\n");
        return 1;
    }
    for (int i = 0; i < L.tables; i++) {
        Table *t = &L.t[i];
        t->index = i;
        ev_timer_init(&t->timer, on_table_timer, 0.0, 0.0);
        t->timer.data = t;
        ev_timer_init(&t->drops, on_drop_timer, 0.0, 0.0);
        t->drops.data = t;
        t->turn = -1;
        t->start_by = -1;
        t->rng = 0x9E3779B97F4A7C15u * (uint64_t)(i + 1);
        t->drop_rng = (0xD1B54A32D192ED03u * (uint64_t)(i + 1)) ^ (uint64_t)L.seed;
        snprintf(t->address, sizeof t->address, "127.1.%d.%d", i / 250, i % 250 + 1);
        for (int s = 0; s < SEATS; s++) {
            Client *c = &t->c[s];
            c->t = t;
            c->seat = s;
            c->resumed_from = -1;
            ev_timer_init(&c->back, on_back_timer, 0.0, 0.0);
            c->back.data = c;
        }
    }
    L.rss_before = server_rss();
    L.began = now_us();
    ev_timer_init(&L.clock, on_clock, 0.0, 0.0);
    ev_timer_start(L.loop, &L.clock);
    ev_run(L.loop, 0);
    double sys_end = 0, cpu_end = server_cpu(&sys_end);
    int memory_ok = report(server_rss(), cpu_end, sys_end);
    L.done = 1;
    for (int i = 0; i < L.tables; i++) {
        ev_timer_stop(L.loop, &L.t[i].timer);
        ev_timer_stop(L.loop, &L.t[i].drops);
        for (int s = 0; s < SEATS; s++)
            ev_timer_stop(L.loop, &L.t[i].c[s].back);
    }
    lws_context_destroy(L.ctx);
    ev_run(L.loop, EVRUN_NOWAIT);
    ev_loop_destroy(L.loop);
    for (int i = 0; i < L.tables; i++)
        for (int s = 0; s < SEATS; s++) {
            free(L.t[i].c[s].in);
            forget_output(&L.t[i].c[s]);
            json_decref(L.t[i].c[s].you);
        }
    free(L.t);
    free(L.lat.v);
    free(L.back.v);
    free(L.opening.v);
    free(L.rss);
    return L.errors || L.lost || L.inconsistent || L.stalls || !L.lat.n || !memory_ok ? 1 : 0;
}
