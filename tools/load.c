/* load.c - lit-load: a load generator for `lit serve` (docs/BENCHMARKS.md).
 *
 * Tables of six protocol clients (libwebsockets, one event loop): the first
 * creates a 6-player room, the other five join a seat each, and the host
 * starts a game, and another when one ends. Each table acts at --rate
 * actions a second (each wait drawn from half to one and a half times the
 * mean): the client on turn sends a legal action read from its last frame
 * (an ask mostly; now and then a claim of a claimable set naming itself for
 * every card, which ends games; a pass or a choice when that is all it
 * may do). The latency of an action is from its send to the moment the last
 * of the table's six clients has its event. Each table connects from its
 * own loopback address (127.1.X.Y), as many players from many places would.
 * The loop is libev's (epoll), as the server's: poll() over six thousand
 * sockets would measure the generator, not the server. Timers are libev's
 * too: lws 4.1's libev glue never moves its one armed timer earlier, so
 * an lws_sul due before it waits for the next socket event.
 *
 * Usage: lit-load --port N [--tables N] [--seconds N] [--rate R]
 *                 [--server-pid PID] [--ramp-ms N]
 * Prints the figures; exits 0 when every table played and nothing went
 * wrong (no error frame, no connection lost), 1 otherwise.
 */
#include <getopt.h>
#include <ev.h>
#include <jansson.h>
#include <libwebsockets.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "literature/cards.h"
#include "literature/rules.h"
#include "literature/status.h"

enum { SEATS = 6, OUT_MAX = 1024, ERRORS_SHOWN = 5 };

struct Table;

typedef struct Client {
    struct Table *t;
    int seat;              /* 0-based */
    struct lws *wsi;
    char *in;              /* the frame being put together */
    size_t in_len, in_cap;
    unsigned char out[LWS_PRE + OUT_MAX]; /* the message to send, if out_len */
    size_t out_len;
    json_t *you;           /* "you" of its last game or event frame */
    long seq;              /* the last seq it saw */
} Client;

typedef struct Table {
    int index;
    char address[32];      /* its clients' source address */
    Client c[SEATS];
    char code[8];
    int joined, playing;
    int deck;
    int turn;              /* 0-based seat on turn, or -1 */
    long actions;          /* actions of the game so far */
    int64_t sent_at;       /* the pending action's send (0: none) */
    long pending_n;        /* ... and its event's number */
    int got;               /* clients that have that event */
    uint64_t rng;
    ev_timer timer;        /* its next action */
    long ids;
} Table;

static struct {
    struct lws_context *ctx;
    struct ev_loop *loop;
    int64_t began;
    int port, tables, seconds, ramp_ms, server_pid;
    double rate;
    Table *t;
    int playing;           /* tables whose first game has started */
    int64_t window_from, window_to; /* the measured window (0: not yet) */
    int64_t *lat;          /* latencies in the window, us */
    size_t n_lat, cap_lat;
    long games, errors, lost;
    int done;
    ev_timer clock;
    long rss_before, rss_at_start;
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

static void problem(const char *what, const Table *t, const char *detail)
{
    if (L.errors + L.lost <= ERRORS_SHOWN)
        fprintf(stderr, "lit-load: table %d: %s: %.200s\n", t->index, what, detail);
}

static void send_text(Client *c, const char *text)
{
    size_t len = strlen(text);
    if (len > OUT_MAX || c->out_len) {
        problem("a message could not be queued", c->t, text);
        L.errors++;
        return;
    }
    memcpy(c->out + LWS_PRE, text, len);
    c->out_len = len;
    lws_callback_on_writable(c->wsi);
}

static void connect_client(Table *t, int seat)
{
    Client *c = &t->c[seat];
    struct lws_client_connect_info i;
    memset(&i, 0, sizeof i);
    c->t = t;
    c->seat = seat;
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
    }
}

/* ---- acting ------------------------------------------------------------- */

static void schedule(Table *t, int64_t at)
{
    int64_t wait = at - now_us();
    ev_timer_stop(L.loop, &t->timer);
    ev_timer_set(&t->timer, wait > 0 ? (double)wait / 1e6 : 0.0, 0.0);
    ev_timer_start(L.loop, &t->timer);
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

/* The client on turn sends an action read from its last frame. */
static void act(Table *t)
{
    if (t->turn < 0 || t->sent_at)
        return;
    Client *c = &t->c[t->turn];
    json_t *asks = json_object_get(c->you, "asks");
    json_t *claimable = json_object_get(c->you, "claimable");
    json_t *passes = json_object_get(c->you, "passes");
    json_t *choices = json_object_get(c->you, "choices");
    size_t n_asks = json_array_size(asks), n_claims = json_array_size(claimable);
    char text[OUT_MAX];
    t->ids++;
    if (n_claims && (!n_asks || next_random(&t->rng) % 8 == 0)) {
        size_t k = next_random(&t->rng) % n_claims;
        const char *set = json_string_value(json_array_get(claimable, k));
        claim_text(t, c, set ? set : "", text, sizeof text);
    } else if (n_asks) {
        json_t *a = json_array_get(asks, next_random(&t->rng) % n_asks);
        snprintf(text, sizeof text,
                 "{\"type\":\"act\",\"seq\":%ld,\"id\":\"a%ld\",\"action\":\"ask\",\"card\":\"%s\","
                 "\"target\":%d}",
                 c->seq, t->ids, json_string_value(json_object_get(a, "card")),
                 (int)json_integer_value(json_object_get(a, "target")));
    } else if (json_array_size(passes) || json_array_size(choices)) {
        json_t *p = json_array_get(json_array_size(passes) ? passes : choices, 0);
        json_t *target = json_is_object(p) ? json_object_get(p, "target") : p;
        snprintf(text, sizeof text,
                 "{\"type\":\"act\",\"seq\":%ld,\"id\":\"a%ld\",\"action\":\"%s\",\"target\":%d}",
                 c->seq, t->ids, json_array_size(passes) ? "pass" : "choose",
                 (int)json_integer_value(target));
    } else {
        return; /* nothing to do: the next frame will say */
    }
    t->sent_at = now_us();
    t->pending_n = t->actions + 1;
    t->got = 0;
    send_text(c, text);
}

static void on_table_timer(struct ev_loop *loop, ev_timer *w, int revents)
{
    (void)loop;
    (void)revents;
    act(w->data);
}

/* The next action's time: a wait around 1 / rate seconds after the last. */
static void plan_next(Table *t, int64_t from)
{
    double mean = 1e6 / L.rate;
    double wait = mean * (0.5 + (double)(next_random(&t->rng) % 1000) / 1000.0);
    schedule(t, from + (int64_t)wait);
}

static void record_latency(int64_t us)
{
    int64_t now = now_us();
    if (!L.window_from || now < L.window_from || now > L.window_to)
        return;
    if (L.n_lat == L.cap_lat) {
        L.cap_lat = L.cap_lat ? L.cap_lat * 2 : 1 << 16;
        L.lat = realloc(L.lat, L.cap_lat * sizeof *L.lat);
        if (!L.lat) {
            fprintf(stderr, "lit-load: out of memory\n");
            exit(1);
        }
    }
    L.lat[L.n_lat++] = us;
}

/* ---- frames --------------------------------------------------------------- */

static void on_frame(Client *c, json_t *j)
{
    Table *t = c->t;
    const char *type = json_string_value(json_object_get(j, "type"));
    json_t *seq = json_object_get(j, "seq");
    if (json_is_integer(seq))
        c->seq = (long)json_integer_value(seq);
    if (!type)
        return;
    if (strcmp(type, "error") == 0) {
        L.errors++;
        problem("error", t, json_string_value(json_object_get(j, "error")));
        if (c->seat == t->turn && t->sent_at) {
            t->sent_at = 0; /* acted on a stale frame: try again */
            plan_next(t, now_us());
        }
        return;
    }
    if (strcmp(type, "joined") == 0 && c->seat == 0) {
        snprintf(t->code, sizeof t->code, "%s", json_string_value(json_object_get(j, "room")));
        for (int s = 1; s < SEATS; s++)
            connect_client(t, s);
        return;
    }
    if (strcmp(type, "joined") == 0 && ++t->joined == SEATS - 1) {
        send_text(&t->c[0], "{\"type\":\"start\"}");
        return;
    }
    if (strcmp(type, "game") != 0 && strcmp(type, "event") != 0)
        return;
    json_decref(c->you);
    c->you = json_incref(json_object_get(j, "you"));
    json_t *state = json_object_get(j, "state");
    json_t *turn = json_object_get(state, "turn");
    long actions = (long)json_integer_value(json_object_get(state, "actions"));
    if (strcmp(type, "game") == 0) {
        if (c->seat == 0) {
            int deck = 0;
            LitRules rules;
            if (lit_rules_parse(&rules, json_string_value(json_object_get(j, "rules")), NULL) ==
                LIT_OK)
                deck = rules.deck;
            t->deck = deck;
            if (!t->playing++)
                L.playing++;
            L.games++;
        }
        t->turn = json_is_integer(turn) ? (int)json_integer_value(turn) - 1 : -1;
        t->actions = actions;
        if (c->seat == 0)
            plan_next(t, now_us());
        return;
    }
    long n = (long)json_integer_value(json_object_get(json_object_get(j, "event"), "n"));
    if (t->sent_at && n == t->pending_n && ++t->got == SEATS) {
        int64_t now = now_us();
        record_latency(now - t->sent_at);
        t->actions = n;
        t->turn = json_is_integer(turn) ? (int)json_integer_value(turn) - 1 : -1;
        int64_t from = t->sent_at;
        t->sent_at = 0;
        if (json_object_get(j, "result"))
            send_text(&t->c[0], "{\"type\":\"start\"}"); /* the next game */
        else
            plan_next(t, from);
    }
}

static int callback(struct lws *wsi, enum lws_callback_reasons reason, void *user, void *in,
                    size_t len)
{
    Client *c = user;
    switch (reason) {
    case LWS_CALLBACK_CLIENT_ESTABLISHED:
        if (c->seat == 0) {
            send_text(c, "{\"type\":\"create\",\"name\":\"P1\",\"players\":6,\"pace_ms\":0}");
        } else {
            char text[128];
            snprintf(text, sizeof text,
                     "{\"type\":\"join\",\"room\":\"%s\",\"name\":\"P%d\",\"seat\":%d}",
                     c->t->code, c->seat + 1, c->seat + 1);
            send_text(c, text);
        }
        break;
    case LWS_CALLBACK_CLIENT_RECEIVE:
        if (c->in_len + len + 1 > c->in_cap) {
            c->in_cap = (c->in_len + len + 1) * 2;
            c->in = realloc(c->in, c->in_cap);
            if (!c->in) {
                fprintf(stderr, "lit-load: out of memory\n");
                exit(1);
            }
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
        if (c->out_len) {
            size_t n = c->out_len;
            c->out_len = 0;
            if (lws_write(wsi, c->out + LWS_PRE, n, LWS_WRITE_TEXT) < (int)n)
                return -1;
        }
        break;
    case LWS_CALLBACK_CLIENT_CONNECTION_ERROR:
    case LWS_CALLBACK_CLIENT_CLOSED:
        if (!L.done) {
            L.lost++;
            problem("connection lost", c->t, in ? (const char *)in : "");
        }
        c->wsi = NULL;
        break;
    default:
        break;
    }
    return 0;
}

static const struct lws_protocols protocols[] = {{"load", callback, 0, 1 << 16, 0, NULL, 0},
                                                 {NULL, NULL, 0, 0, 0, NULL, 0}};

/* Starts the tables one after another, opens the window once all play, and
 * ends the run. */
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
    }
    if (L.window_from && now >= L.window_from + (int64_t)(L.minute + 1) * 60000000 &&
        now < L.window_to) {
        L.minute++;
        long rss = server_rss();
        if (rss)
            printf("minute %d: server resident %.1f MiB\n", L.minute, (double)rss / 1024);
        fflush(stdout);
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

static double percentile(double p)
{
    if (!L.n_lat)
        return 0;
    size_t i = (size_t)(p * (double)(L.n_lat - 1) + 0.5);
    return (double)L.lat[i] / 1000.0;
}

static const char usage[] =
    "usage: lit-load --port N [--tables N] [--seconds N] [--rate R] [--server-pid PID]\n"
    "                [--ramp-ms N]\n"
    "  --port N        the port of a `lit serve` on 127.0.0.1\n"
    "  --tables N      tables of six clients (default 100)\n"
    "  --seconds N     the measured window, after every table plays (default 30)\n"
    "  --rate R        actions a second at each table (default 1)\n"
    "  --server-pid P  read the server's resident memory from /proc\n"
    "  --ramp-ms N     ms between two tables' first connections (default 5)\n";

int main(int argc, char **argv)
{
    static const struct option longs[] = {
        {"port", required_argument, NULL, 'p'},   {"tables", required_argument, NULL, 't'},
        {"seconds", required_argument, NULL, 's'}, {"rate", required_argument, NULL, 'r'},
        {"server-pid", required_argument, NULL, 'P'}, {"ramp-ms", required_argument, NULL, 'm'},
        {NULL, 0, NULL, 0}};
    L.tables = 100;
    L.seconds = 30;
    L.rate = 1;
    L.ramp_ms = 5;
    int opt;
    while ((opt = getopt_long(argc, argv, "", longs, NULL)) != -1) {
        char *end;
        long v = strtol(optarg ? optarg : "", &end, 10);
        if (opt == '?' || (opt != 'r' && (*end || v < 0 || v > 1000000))) {
            fputs(usage, stderr);
            return 2;
        }
        switch (opt) {
        case 'p': L.port = (int)v; break;
        case 't': L.tables = (int)v; break;
        case 's': L.seconds = (int)v; break;
        case 'r': L.rate = strtod(optarg, &end); break;
        case 'P': L.server_pid = (int)v; break;
        case 'm': L.ramp_ms = (int)v; break;
        default: break;
        }
    }
    if (!L.port || L.tables < 1 || L.tables > 60000 || !(L.rate > 0) || L.seconds < 1) {
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
    if (!L.ctx || !L.t) {
        fprintf(stderr, "lit-load: cannot start\n");
        return 1;
    }
    for (int i = 0; i < L.tables; i++) {
        Table *t = &L.t[i];
        t->index = i;
        ev_timer_init(&t->timer, on_table_timer, 0.0, 0.0);
        t->timer.data = t;
        t->turn = -1;
        t->rng = 0x9E3779B97F4A7C15u * (uint64_t)(i + 1);
        snprintf(t->address, sizeof t->address, "127.1.%d.%d", i / 250, i % 250 + 1);
    }
    L.rss_before = server_rss();
    L.began = now_us();
    ev_timer_init(&L.clock, on_clock, 0.0, 0.0);
    ev_timer_start(L.loop, &L.clock);
    ev_run(L.loop, 0);
    long rss_end = server_rss();
    qsort(L.lat, L.n_lat, sizeof *L.lat, compare);
    printf("tables %d, clients %d, window %d s, rate %.2f actions/s a table\n", L.tables,
           L.tables * SEATS, L.seconds, L.rate);
    printf("actions %zu (%.1f/s), games started %ld, errors %ld, connections lost %ld\n",
           L.n_lat, (double)L.n_lat / L.seconds, L.games, L.errors, L.lost);
    printf("latency to the last of six: p50 %.2f ms, p99 %.2f ms, max %.2f ms\n",
           percentile(0.5), percentile(0.99), L.n_lat ? (double)L.lat[L.n_lat - 1] / 1000 : 0.0);
    if (L.server_pid)
        printf("server resident: %.1f MiB idle, %.1f MiB at the window's start, %.1f MiB at its "
               "end: %.1f KiB a table\n",
               (double)L.rss_before / 1024, (double)L.rss_at_start / 1024, (double)rss_end / 1024,
               (double)(rss_end - L.rss_before) / L.tables);
    L.done = 1;
    for (int i = 0; i < L.tables; i++)
        ev_timer_stop(L.loop, &L.t[i].timer);
    lws_context_destroy(L.ctx);
    ev_run(L.loop, EVRUN_NOWAIT);
    ev_loop_destroy(L.loop);
    for (int i = 0; i < L.tables; i++)
        for (int s = 0; s < SEATS; s++) {
            free(L.t[i].c[s].in);
            json_decref(L.t[i].c[s].you);
        }
    free(L.t);
    free(L.lat);
    return L.errors || L.lost || !L.n_lat ? 1 : 0;
}
