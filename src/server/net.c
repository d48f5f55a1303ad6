/* net.c - HTTP and WebSocket on libwebsockets 4.1.6 (net.h).
 *
 * One event loop, one protocol for both HTTP (/healthz, the records of
 * finished games, the page; each answer decided by route.c, and only
 * written here) and the WebSocket of docs/PROTOCOL.md. The loop is libev's
 * (epoll here), owned by us and lent to libwebsockets: lws's own loop is
 * poll(), whose every wake-up walks every socket, and at a thousand tables
 * that is six thousand (docs/BENCHMARKS.md). The hub's timer is a libev
 * timer, not an lws_sul: lws 4.1's libev glue never moves its one armed
 * timer earlier, so a sul due before it would wait for the next socket
 * event. What libwebsockets leaves to us:
 * - lws_write buffers whatever the socket does not take, without limit: we
 *   write one frame per writable callback from the hub's per-client queue,
 *   which the hub caps (HUB_QUEUE_MAX);
 * - there is no message size setting: fragments are put together here under
 *   HUB_MESSAGE_MAX, and a longer message closes the connection with 1009;
 * - a browser on another site may open a WebSocket to us: an upgrade whose
 *   Origin is neither this host nor an allowed one is refused, and so is
 *   every request (upgrade or not) whose Host names no name of this server
 *   (route_host_ok: a page of a site whose name was made to point here);
 * - the method is ours to check: lws would send a HEAD the body we write
 *   (we write none), upgrade a POST, and make a CONNECT a raw socket bound
 *   to our protocol that nothing answers or times out
 *   (lws_handshake_server's "Changing to RAW mode"): we answer that 405;
 * - binary frames are delivered like text ones: we close with 1003;
 * - lws's listener spins when out of file handles and counts no handshake
 *   per address: we listen ourselves (gate.c) and adopt each connection;
 *   the gate times handshakes out too (lws's timeouts fire late on libev).
 * Besides the loop there are the workers' threads (pool.c): the hub
 * hands out an expert's decisions and the reviews of finished games as jobs
 * (hub.h, HubJob), and each job comes back to the loop, where the hub plays
 * a move at the room's pace or sends a review to the client that asked.
 */
#include "net.h"

#include <arpa/inet.h>
#include <ev.h>
#include <libwebsockets.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gate.h"
#include "hub.h"
#include "../mem/mem.h"
#include "pool.h"
#include "route.h"

typedef struct Conn {
    HubClient *client;    /* WebSocket: the hub's client */
    char *in;             /* WebSocket: the message being put together */
    size_t in_len;
    char *body;           /* HTTP: the answer's body, after LWS_PRE bytes */
    size_t body_len, body_off; /* its length, and how much is written */
    int close;            /* HTTP: closed once the body is written */
    char peer[64];
    struct lws *wsi;      /* WebSocket: its connection, while in the list */
    struct Conn *next_out; /* in net.out: frames queued since the loop last wrote */
    int in_out;           /* ... and whether it is in that list */
    int broken;           /* a write failed: closed at its writable callback */
} Conn;

enum {
    HTTP_CHUNK = 4096, /* bytes of an HTTP body written at once (http_writable) */
    /* an idle HTTP connection's seconds for its next request; the first
     * one's are GATE_HANDSHAKE_MS */
    NET_KEEPALIVE_SECS = 5,
    CLOSE_UNSUPPORTED = 1003 /* a binary frame (RFC 6455: data it cannot take) */
};

typedef struct Net {
    const NetConfig *config;
    struct lws_context *ctx;
    struct ev_loop *loop;
    ev_signal sigint, sigterm;
    ev_timer timer;       /* the hub's next wake-up */
    int64_t timer_at;     /* ... the time it is armed for (INT64_MAX: none) */
    ev_timer drain;       /* on the way out: until the clients are gone */
    ev_prepare flush;     /* before the loop waits: net.out written */
    Conn *out;            /* the connections with frames queued since */
    int64_t drain_until;
    Hub *hub;
    Pool pool;            /* the workers */
    Gate *gate;           /* the listening socket */
} Net;

static Net net;

static int64_t now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* After anything that may change the hub: its next wake-up as the timer. */
static void reschedule(void)
{
    int64_t next = hub_next_wake(net.hub);
    if (next == net.timer_at && (next == INT64_MAX || ev_is_active(&net.timer)))
        return; /* armed for it already (most messages change no time) */
    ev_timer_stop(net.loop, &net.timer);
    net.timer_at = next;
    if (next == INT64_MAX)
        return;
    int64_t wait = next - now_ms();
    ev_timer_set(&net.timer, wait > 0 ? (double)wait / 1e3 : 0.0, 0.0);
    ev_timer_start(net.loop, &net.timer);
}

static void on_timer(struct ev_loop *loop, ev_timer *w, int revents)
{
    (void)loop;
    (void)w;
    (void)revents;
    hub_tick(net.hub, now_ms());
    reschedule();
}

static void log_hub(const char *line, void *ctx)
{
    (void)ctx;
    fprintf(stderr, "serve: %s\n", line);
}

/* Frames are queued for c: its connection joins the list written before
 * the loop next waits (flush). */
static void wake(HubClient *c, void *ctx)
{
    (void)ctx;
    struct lws *wsi = c->user;
    Conn *conn = lws_wsi_user(wsi);
    if (conn->in_out)
        return;
    conn->wsi = wsi;
    conn->in_out = 1;
    conn->next_out = net.out;
    net.out = conn;
}

/* Leaves the list (its connection is closing). */
static void leave_out(Conn *conn)
{
    for (Conn **p = &net.out; conn->in_out && *p; p = &(*p)->next_out)
        if (*p == conn) {
            *p = conn->next_out;
            conn->in_out = 0;
            break;
        }
}

/* Writes the client's frames while the socket takes them whole (lws
 * buffers what a write could not send; nothing more is written until that
 * is out: lws_partial_buffered): 0, or -1 when a write failed. */
static int write_queued(struct lws *wsi, HubClient *c)
{
    while (c->head && !lws_partial_buffered(wsi)) {
        HubFrame *f = hub_pop(c);
        int n = lws_write(wsi, f->data, f->len, LWS_WRITE_TEXT);
        hub_frame_free(f);
        if (n < 0)
            return -1;
    }
    return 0;
}
/* Before the loop waits: every connection with frames queued since it last
 * waited is written to at once, and asks for a writable callback only for
 * what lws could not send (a socket that takes nothing is a write lws
 * buffers whole: its lws_issue_raw keeps what send() left, EAGAIN too, and
 * asks for POLLOUT itself; lws_partial_buffered then stops us). Asking for
 * a callback a frame cost two epoll_ctl calls and a round of the loop each,
 * and lws_send_pipe_choked a poll() a frame: docs/BENCHMARKS.md, "A fifth
 * of the cost". A close is always sent from the writable callback, after
 * the frames. */
static void on_flush(struct ev_loop *loop, ev_prepare *w, int revents)
{
    (void)loop;
    (void)w;
    (void)revents;
    while (net.out) {
        Conn *conn = net.out;
        net.out = conn->next_out;
        conn->in_out = 0;
        HubClient *c = conn->client;
        struct lws *wsi = conn->wsi;
        if (!c)
            continue;
        if (c->head && !conn->broken && write_queued(wsi, c))
            conn->broken = 1; /* closed from its callback: lws closes only there */
        if (c->head || c->close_code || conn->broken)
            lws_callback_on_writable(wsi);
    }
}

/* ---- the workers (pool.c) ------------------------------------------------- */

/* HubConfig.post: a job for the workers, or 1 when their queue is full. */
static int post(HubJob *job, void *ctx)
{
    (void)ctx;
    return pool_post(&net.pool, job);
}

/* In the loop: the jobs run, back to the hub (which may hand out more). */
static void jobs_done(HubJob **jobs, int n, void *ctx)
{
    (void)ctx;
    for (int i = 0; i < n; i++)
        hub_job_done(net.hub, jobs[i], now_ms());
    reschedule();
}

/* ---- HTTP ---------------------------------------------------------------- */

/* The request's method: lws_http_get_uri_and_method's, or for HTTP/2
 * (h2c: lws takes that upgrade) its :method. */
static RouteMethod request_method(struct lws *wsi)
{
    char *uri, m[8];
    int len;
    switch (lws_http_get_uri_and_method(wsi, &uri, &len)) {
    case LWSHUMETH_GET:
        return ROUTE_GET;
    case LWSHUMETH_HEAD:
        return ROUTE_HEAD;
    case LWSHUMETH_COLON_PATH:
        if (lws_hdr_copy(wsi, m, sizeof m, WSI_TOKEN_HTTP_COLON_METHOD) > 0)
            return strcmp(m, "GET") == 0 ? ROUTE_GET
                   : strcmp(m, "HEAD") == 0 ? ROUTE_HEAD
                                            : ROUTE_OTHER;
        return ROUTE_OTHER;
    default:
        return ROUTE_OTHER;
    }
}

/* The request's Host (HTTP/2: :authority) into host ("" none; one too long
 * for host is kept cut, and then names nothing of ours). */
static void request_host(struct lws *wsi, char *host, int size)
{
    host[0] = 0;
    if (lws_hdr_copy(wsi, host, size, WSI_TOKEN_HOST) <= 0 &&
        lws_hdr_copy(wsi, host, size, WSI_TOKEN_HTTP_COLON_AUTHORITY) <= 0)
        host[0] = 0;
    if (!host[0] && lws_hdr_total_length(wsi, WSI_TOKEN_HOST) > 0)
        snprintf(host, (size_t)size, "%s", "(too long)");
}

static RouteConfig route_config(void)
{
    RouteConfig rc = {net.hub,          net.config->store,      net.config->web_dir,
                      net.config->bind, net.config->host_names, net.config->host_name_count};
    return rc;
}

/* Puts the hub's answer (route.c) on the wire: its headers now, its body
 * (copied behind LWS_PRE) when the connection is writable; a HEAD's headers
 * say the body's length, and an empty body follows them (which ends the
 * answer, an HTTP/2 stream too). */
static int on_http(struct lws *wsi, Conn *conn, const char *path)
{
    RouteConfig rc = route_config();
    RouteAnswer a;
    char host[256];
    request_host(wsi, host, sizeof host);
    if (route_request(&rc, request_method(wsi), host, path, &a))
        return -1;
    if (a.log[0])
        fprintf(stderr, "serve: %s\n", a.log);
    unsigned char buf[LWS_PRE + 1024], *start = buf + LWS_PRE, *p = start,
                                       *end = buf + sizeof buf - 1;
    size_t content_length = a.len;
    if (a.head)
        a.len = 0;
    /* HTTP/2 (an h2c upgrade; lws takes it): a stream, which ends, and no
     * connection header (a protocol error there) */
    if (lws_get_network_wsi(wsi) != wsi)
        a.close = 0;
    conn->body_len = a.len;
    conn->body_off = 0;
    conn->close = a.close;
    conn->body = mem_alloc(LWS_PRE + a.len + 1);
    if (!conn->body) {
        route_answer_free(&a);
        return -1;
    }
    memcpy(conn->body + LWS_PRE, a.body, a.len);
    route_answer_free(&a);
    char disposition[96];
    snprintf(disposition, sizeof disposition, "attachment; filename=\"%s\"", a.download);
    if (lws_add_http_common_headers(wsi, (unsigned)a.status, a.type, content_length, &p, end) ||
        (a.download[0] &&
         lws_add_http_header_by_name(wsi, (const unsigned char *)"content-disposition:",
                                     (const unsigned char *)disposition,
                                     (int)strlen(disposition), &p, end)) ||
        (a.allow && lws_add_http_header_by_name(wsi, (const unsigned char *)"allow:",
                                                (const unsigned char *)a.allow,
                                                (int)strlen(a.allow), &p, end)) ||
        (a.close && lws_add_http_header_by_name(wsi, (const unsigned char *)"connection:",
                                                (const unsigned char *)"close", 5, &p, end)))
        return -1;
    for (const RouteHeader *h = route_headers; h->name; h++)
        if (lws_add_http_header_by_name(wsi, (const unsigned char *)h->name,
                                        (const unsigned char *)h->value, (int)strlen(h->value),
                                        &p, end))
            return -1;
    if (lws_add_http_header_by_name(wsi, (const unsigned char *)"cache-control:",
                                    (const unsigned char *)a.cache, (int)strlen(a.cache), &p,
                                    end) ||
        lws_finalize_write_http_header(wsi, start, &p, end))
        return -1;
    lws_callback_on_writable(wsi);
    return 0;
}

/* The body, HTTP_CHUNK bytes a writable callback. lws_write sends at most
 * its service buffer (4096 bytes) at once and keeps the rest in a list it
 * allocates; out of memory there it closes the connection mid-body, after
 * a 200's headers (tests/integration/cli_netfault.sh found it). A chunk the
 * socket takes whole allocates nothing. */
static int http_writable(struct lws *wsi, Conn *conn)
{
    if (!conn->body)
        return 0;
    size_t n = conn->body_len - conn->body_off;
    int last = n <= HTTP_CHUNK;
    if (!last)
        n = HTTP_CHUNK;
    /* lws_write may write LWS_PRE bytes before the chunk: they are the
     * last chunk's (already sent) or the headroom */
    unsigned char *chunk = (unsigned char *)conn->body + LWS_PRE + conn->body_off;
    if (lws_write(wsi, chunk, n, last ? LWS_WRITE_HTTP_FINAL : LWS_WRITE_HTTP) < 0)
        return -1;
    conn->body_off += n;
    if (!last) {
        lws_callback_on_writable(wsi);
        return 0;
    }
    free(conn->body);
    conn->body = NULL;
    /* a 405: the request's body, if any, is not read: closed */
    if (conn->close)
        return -1;
    return lws_http_transaction_completed(wsi) ? -1 : 0;
}

/* ---- WebSocket ------------------------------------------------------------ */

/* Whether origin (empty: none sent, a client that is no browser) may open a
 * WebSocket: this host itself, or one of --origin's. */
static int origin_allowed(struct lws *wsi, const char *origin)
{
    if (!origin[0])
        return 1;
    char host[256];
    if (lws_hdr_copy(wsi, host, sizeof host, WSI_TOKEN_HOST) > 0) {
        const char *rest = strncmp(origin, "http://", 7) == 0    ? origin + 7
                           : strncmp(origin, "https://", 8) == 0 ? origin + 8
                                                                  : NULL;
        if (rest && strcmp(rest, host) == 0)
            return 1;
    }
    const char *list = net.config->origins;
    size_t len = strlen(origin);
    while (list && *list) {
        const char *comma = strchr(list, ',');
        size_t n = comma ? (size_t)(comma - list) : strlen(list);
        if (n == len && strncmp(list, origin, n) == 0)
            return 1;
        list = comma ? comma + 1 : NULL;
    }
    return 0;
}

/* A message over the cap, or a binary one: the rest of it is not kept, and
 * the connection is closed with 1009 (1003) from the writable callback,
 * where lws sends the close frame and waits for the client's (closing at
 * once, with the message's rest unread, would reset the connection and
 * lose the close frame). */
static int ws_receive(struct lws *wsi, Conn *conn, const void *in, size_t len)
{
    HubClient *c = conn->client;
    if (c->close_code)
        return 0;
    if (lws_frame_is_binary(wsi)) { /* frames are text (docs/PROTOCOL.md) */
        fprintf(stderr, "serve: %s: binary frame: closed\n", conn->peer);
        c->close_code = CLOSE_UNSUPPORTED;
        c->close_reason = "text_only";
        conn->in_len = 0;
        lws_callback_on_writable(wsi);
        return 0;
    }
    if (conn->in_len + len > HUB_MESSAGE_MAX) {
        fprintf(stderr, "serve: %s: message over %d bytes: closed\n", conn->peer,
                HUB_MESSAGE_MAX);
        c->close_code = HUB_CLOSE_TOO_BIG;
        c->close_reason = "too_big";
        conn->in_len = 0;
        lws_callback_on_writable(wsi);
        return 0;
    }
    int whole = lws_is_final_fragment(wsi) && !lws_remaining_packet_payload(wsi);
    if (whole && !conn->in_len) { /* in one piece, as nearly always: read where lws has it */
        hub_receive(net.hub, c, in, len, now_ms());
        reschedule();
        return 0;
    }
    /* In pieces: put together in a buffer kept only until the message is
     * whole. Not one kept a connection: 8 KiB at each of thousands of
     * connections, placed anew at every reconnection, left the heap's
     * pages touched further and further (docs/RELIABILITY.md, "Load and
     * soak"). */
    if (!conn->in && !(conn->in = mem_alloc(HUB_MESSAGE_MAX)))
        return -1;
    memcpy(conn->in + conn->in_len, in, len);
    conn->in_len += len;
    if (!whole)
        return 0;
    hub_receive(net.hub, c, conn->in, conn->in_len, now_ms());
    conn->in_len = 0;
    free(conn->in);
    conn->in = NULL;
    reschedule();
    return 0;
}

static int ws_writable(struct lws *wsi, Conn *conn)
{
    HubClient *c = conn->client;
    if (conn->broken || write_queued(wsi, c))
        return -1;
    if (c->head) { /* lws holds part of one: the rest at the next */
        lws_callback_on_writable(wsi);
        return 0;
    }
    if (c->close_code) {
        const char *reason = c->close_reason;
        lws_close_reason(wsi, (enum lws_close_status)c->close_code,
                         (unsigned char *)(uintptr_t)reason, strlen(reason));
        return -1;
    }
    return 0;
}

/* Who connects: the peer's address, or, when the peer is the trusted proxy
 * (--proxy), the last address of its X-Forwarded-For (the one the proxy
 * added; the ones before it are the client's word). */
static void client_address(struct lws *wsi, char *out, size_t size)
{
    char xff[256];
    unsigned char bytes[sizeof(struct in6_addr)];
    lws_get_peer_simple(wsi, out, size);
    if (!net.config->proxy || strcmp(out, net.config->proxy) != 0 ||
        lws_hdr_copy(wsi, xff, sizeof xff, WSI_TOKEN_X_FORWARDED_FOR) <= 0)
        return;
    char *last = strrchr(xff, ',');
    last = last ? last + 1 : xff;
    last += strspn(last, " \t");
    last[strcspn(last, " \t")] = 0;
    if ((inet_pton(AF_INET, last, bytes) == 1 || inet_pton(AF_INET6, last, bytes) == 1) &&
        strlen(last) < size)
        memcpy(out, last, strlen(last) + 1);
}

/* A refusal of an upgrade: status ("403 Forbidden"), the headers in
 * headers (each ending "\r\n"), and the error's name (body: "NAME\n").
 * Written whole: lws_return_http_status would say HTTP/1.0 here, before the
 * request's version is taken in, which WebSocket clients do not read as an
 * answer. */
static int refuse_upgrade(struct lws *wsi, const char *status, const char *headers,
                          const char *body)
{
    char answer[256];
    int n = snprintf(answer, sizeof answer,
                     "HTTP/1.1 %s\r\n"
                     "content-type: text/plain\r\n"
                     "content-length: %zu\r\n"
                     "%s"
                     "connection: close\r\n"
                     "\r\n"
                     "%s",
                     status, strlen(body), headers, body);
    unsigned char buf[LWS_PRE + sizeof answer];
    memcpy(buf + LWS_PRE, answer, (size_t)n);
    lws_write(wsi, buf + LWS_PRE, (size_t)n, LWS_WRITE_HTTP_FINAL);
    return 1;
}

/* An upgrade (to a WebSocket; lws takes h2c's too): refused, and the
 * connection is not upgraded, when its Host names no name of this server
 * (403), its method is not GET (405: lws would upgrade a POST), or it comes
 * from a page of another site (403). */
static int confirm_upgrade(struct lws *wsi)
{
    char host[256], origin[256] = "";
    RouteConfig rc = route_config();
    request_host(wsi, host, sizeof host);
    if (!route_host_ok(&rc, host)) {
        RouteAnswer a; /* the log's line, as route.c words it */
        if (route_request(&rc, ROUTE_GET, host, "/", &a) == 0) {
            fprintf(stderr, "serve: %s (an upgrade)\n", a.log);
            route_answer_free(&a);
        }
        return refuse_upgrade(wsi, "403 Forbidden", "", "unknown_host\n");
    }
    if (request_method(wsi) != ROUTE_GET)
        return refuse_upgrade(wsi, "405 Method Not Allowed", "allow: " ROUTE_ALLOW "\r\n",
                              ROUTE_NOT_ALLOWED_TEXT);
    if (lws_hdr_copy(wsi, origin, sizeof origin, WSI_TOKEN_ORIGIN) < 0 ||
        !origin_allowed(wsi, origin)) {
        fprintf(stderr, "serve: refused a WebSocket from origin %.200s\n", origin);
        return refuse_upgrade(wsi, "403 Forbidden", "", "cross_origin\n");
    }
    return 0;
}

/* A CONNECT, made a raw socket by lws: 405, and closed. */
static int refuse_connect(struct lws *wsi)
{
    static const char body[] = ROUTE_NOT_ALLOWED_TEXT;
    char answer[1024];
    int n = snprintf(answer, sizeof answer,
                     "HTTP/1.1 405 Method Not Allowed\r\n"
                     "content-type: text/plain\r\n"
                     "content-length: %zu\r\n"
                     "allow: " ROUTE_ALLOW "\r\n"
                     "connection: close\r\n",
                     sizeof body - 1);
    for (const RouteHeader *h = route_headers; h->name; h++)
        n += snprintf(answer + n, sizeof answer - (size_t)n, "%s %s\r\n", h->name, h->value);
    n += snprintf(answer + n, sizeof answer - (size_t)n, "cache-control: no-cache\r\n\r\n%s",
                  body);
    if (n <= 0 || (size_t)n >= sizeof answer)
        return -1;
    unsigned char buf[LWS_PRE + sizeof answer];
    memcpy(buf + LWS_PRE, answer, (size_t)n);
    lws_write(wsi, buf + LWS_PRE, (size_t)n, LWS_WRITE_RAW);
    return -1;
}

/* ---- connections (gate.c) ---------------------------------------------------- */

/* GateConfig.adopt: lws takes the connection as if its listener had
 * accepted it; the gate's conn rides on the wsi until handshake_over. */
static void *adopt(int fd, GateConn *conn, void *ctx)
{
    (void)ctx;
    struct lws *wsi = lws_adopt_socket(net.ctx, fd);
    if (wsi)
        lws_set_opaque_user_data(wsi, conn);
    return wsi;
}

/* GateConfig.expire: no request in GATE_HANDSHAKE_MS: closed now (from the
 * gate's timer, outside lws's service of the wsi). */
static void expire(void *handle, void *ctx)
{
    (void)ctx;
    lws_set_timeout(handle, PENDING_TIMEOUT_USER_OK, LWS_TO_KILL_SYNC);
}

/* The connection's first request is whole (or it is gone): its address
 * may open another (an HTTP/2 stream's is its connection's). */
static void handshake_over(struct lws *wsi)
{
    struct lws *nwsi = lws_get_network_wsi(wsi);
    GateConn *conn = lws_get_opaque_user_data(nwsi);
    if (conn) {
        lws_set_opaque_user_data(nwsi, NULL);
        gate_done(net.gate, conn);
    }
}

static int callback(struct lws *wsi, enum lws_callback_reasons reason, void *user, void *in,
                    size_t len)
{
    Conn *conn = user;
    switch (reason) {
    case LWS_CALLBACK_WSI_DESTROY:
        if (lws_get_network_wsi(wsi) == wsi) {
            handshake_over(wsi);
            gate_freed(net.gate);
        }
        break;
    case LWS_CALLBACK_HTTP:
        handshake_over(wsi);
        return on_http(wsi, conn, (const char *)in);
    case LWS_CALLBACK_HTTP_WRITEABLE:
        return http_writable(wsi, conn);
    case LWS_CALLBACK_HTTP_DROP_PROTOCOL:
    case LWS_CALLBACK_CLOSED_HTTP:
        if (conn) {
            free(conn->body);
            conn->body = NULL;
        }
        break;
    case LWS_CALLBACK_HTTP_CONFIRM_UPGRADE:
        handshake_over(wsi);
        return confirm_upgrade(wsi);
    case LWS_CALLBACK_RAW_ADOPT:
        handshake_over(wsi);
        return refuse_connect(wsi);
    case LWS_CALLBACK_ESTABLISHED:
        memset(conn, 0, sizeof *conn);
        client_address(wsi, conn->peer, sizeof conn->peer);
        conn->client = hub_connect_from(net.hub, wsi, conn->peer, now_ms());
        if (!conn->client)
            return -1;
        fprintf(stderr, "serve: %s connected (%d clients)\n", conn->peer,
                hub_clients(net.hub));
        break;
    case LWS_CALLBACK_RECEIVE:
        return ws_receive(wsi, conn, in, len);
    case LWS_CALLBACK_SERVER_WRITEABLE:
        return ws_writable(wsi, conn);
    case LWS_CALLBACK_CLOSED:
        if (conn)
            leave_out(conn);
        if (conn->client) {
            hub_disconnect(net.hub, conn->client, now_ms());
            conn->client = NULL;
            fprintf(stderr, "serve: %s disconnected (%d clients)\n", conn->peer,
                    hub_clients(net.hub));
            reschedule();
        }
        free(conn->in);
        conn->in = NULL;
        break;
    default:
        break;
    }
    return 0;
}

static const struct lws_protocols protocols[] = {
    {"literature", callback, sizeof(Conn), 0, 0, NULL, 0},
    {NULL, NULL, 0, 0, 0, NULL, 0}};

/* SIGINT or SIGTERM: out of the loop, in the loop's own time */
static void on_signal(struct ev_loop *loop, ev_signal *w, int revents)
{
    (void)w;
    (void)revents;
    ev_break(loop, EVBREAK_ALL);
}

static void on_drain(struct ev_loop *loop, ev_timer *w, int revents)
{
    (void)w;
    (void)revents;
    if (!hub_clients(net.hub) || now_ms() >= net.drain_until)
        ev_break(loop, EVBREAK_ALL);
}

/* Lets go of what net_serve made: lws's context (started: it ran), the
 * worker, the hub, the loop. */
static void stop(int started)
{
    gate_stop(net.gate);
    if (started) {
        lws_context_destroy(net.ctx);
        /* lws lets go of its watchers in the loop's time */
        ev_run(net.loop, EVRUN_NOWAIT);
    }
    gate_free(net.gate);
    pool_stop(&net.pool);
    hub_free(net.hub);
    ev_loop_destroy(net.loop);
}

int net_serve(const NetConfig *config)
{
    lws_set_allocator(mem_lws); /* mem.h: counted, and failed by tests */
    lws_set_log_level(config->verbose ? LLL_ERR | LLL_WARN | LLL_NOTICE : LLL_ERR, NULL);
    HubConfig hc = {.headroom = LWS_PRE,
                    .max_rooms = config->max_rooms,
                    .max_rate = config->max_rate,
                    .max_per_address = config->max_per_address,
                    .max_rooms_per_address = config->max_rooms_per_address,
                    .wake = wake,
                    .log = log_hub,
                    .ctx = config->ctx,
                    .random = config->random,
                    .store = config->store};
    memset(&net, 0, sizeof net);
    net.config = config;
    net.loop = ev_loop_new(EVFLAG_AUTO | EVFLAG_NOENV);
    if (!net.loop) {
        fprintf(stderr, "serve: cannot make an event loop\n");
        return 1;
    }
    /* without its worker the server runs, and offers no expert bot */
    int experts = config->workers ? config->workers : pool_default_experts();
    if (pool_start(&net.pool, net.loop, experts, jobs_done, NULL) == 0) {
        hc.post = post;
        fprintf(stderr, "serve: %d expert worker%s and a review worker\n", experts,
                experts == 1 ? "" : "s");
    } else
        fprintf(stderr, "serve: no workers for the expert bot and reviews (no memory or no "
                        "thread): neither is offered\n");
    net.hub = hub_new(&hc);
    int rooms = net.hub ? hub_restore(net.hub, now_ms()) : -1;
    if (rooms < 0) {
        if (!net.hub)
            fprintf(stderr, "serve: out of memory\n");
        stop(0);
        return 1;
    }
    if (config->store)
        fprintf(stderr, "serve: %d rooms taken up from the store\n", rooms);
    void *loops[1] = {net.loop};
    struct lws_context_creation_info info;
    memset(&info, 0, sizeof info);
    info.port = CONTEXT_PORT_NO_LISTEN_SERVER; /* the gate listens (gate.c) */
    info.protocols = protocols;
    info.foreign_loops = loops;
    info.keepalive_timeout = NET_KEEPALIVE_SECS;
    /* no idle check of lws's (a ping after 300 s): it cost a walk of every
     * connection's timer a message; TCP finds a vanished peer (gate.c) */
    static const lws_retry_bo_t no_idle_check = {.secs_since_valid_ping = 0,
                                                 .secs_since_valid_hangup = 0};
    info.retry_and_idle_policy = &no_idle_check;
    info.options = LWS_SERVER_OPTION_DISABLE_IPV6 | LWS_SERVER_OPTION_VALIDATE_UTF8 |
                   LWS_SERVER_OPTION_LIBEV;
    net.ctx = lws_create_context(&info);
    GateConfig gc = {net.loop, config->bind, config->port, config->proxy, adopt, expire, NULL};
    char error[128];
    if (!net.ctx || !(net.gate = gate_open(&gc, error, sizeof error))) {
        fprintf(stderr, "serve: cannot listen on %s:%d%s%s\n", config->bind, config->port,
                net.ctx ? ": " : "", net.ctx ? error : "");
        stop(net.ctx != NULL);
        return 1;
    }
    int port = gate_port(net.gate);
    printf("serving on http://%s:%d/\n", config->bind, port);
    fflush(stdout);
    if (config->listening)
        config->listening(config->ctx);

    signal(SIGPIPE, SIG_IGN);
    ev_signal_init(&net.sigint, on_signal, SIGINT);
    ev_signal_init(&net.sigterm, on_signal, SIGTERM);
    ev_signal_start(net.loop, &net.sigint);
    ev_signal_start(net.loop, &net.sigterm);
    ev_timer_init(&net.timer, on_timer, 0.0, 0.0);
    net.timer_at = INT64_MAX;
    ev_prepare_init(&net.flush, on_flush);
    ev_prepare_start(net.loop, &net.flush);
    reschedule();
    ev_run(net.loop, 0);

    /* no expert decides any more; tell every client to reconnect, and give
     * the frames a moment */
    fprintf(stderr, "serve: stopping\n");
    gate_stop(net.gate);
    pool_stop(&net.pool);
    hub_shutdown(net.hub);
    ev_timer_stop(net.loop, &net.timer);
    net.drain_until = now_ms() + 1000;
    ev_timer_init(&net.drain, on_drain, 0.0, 0.05);
    ev_timer_start(net.loop, &net.drain);
    ev_run(net.loop, 0);
    ev_timer_stop(net.loop, &net.drain);
    ev_timer_stop(net.loop, &net.timer);
    ev_prepare_stop(net.loop, &net.flush);
    ev_signal_stop(net.loop, &net.sigint);
    ev_signal_stop(net.loop, &net.sigterm);
    stop(1);
    return 0;
}
