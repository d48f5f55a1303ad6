/* gate.c - the listening socket in front of libwebsockets (gate.h).
 *
 * libwebsockets 4.1's own listener, out of file handles, logs "accept:
 * errno 24" and returns to the loop with the connection still queued: the
 * socket stays readable, and the loop spins on it (millions of lines a
 * minute) until a handle is free. And it counts nothing per address before
 * a request is whole, so one address could hold every handle with
 * connections that never send a byte. So we listen ourselves and hand each
 * connection to lws (net.c, lws_adopt_socket_vhost):
 * - an accept that fails for want of a handle (EMFILE, ENFILE; or of
 *   memory, or anything not transient) stops the listening watcher; it
 *   starts again RETRY_MS later, or at once when a connection is closed
 *   (gate_freed): the connections wait in the kernel's backlog meanwhile,
 *   and the first one in is served as soon as a handle is free;
 * - an address may have GATE_PENDING_MAX connections whose handshake (the
 *   first request: an HTTP one or the WebSocket's upgrade) is not over;
 *   one more is closed at once, before lws sees it;
 * - a handshake has GATE_HANDSHAKE_MS: then net.c closes the connection.
 *   lws's own timeouts would not do: its libev glue never moves its one
 *   armed timer earlier, so a timeout due before that timer waits for it
 *   (20 s and more were seen). All handshakes have the same time, so the
 *   list of them in the order they came is the order they are due in,
 *   and one libev timer for its head is all it takes;
 * - each kind of trouble is one line of the log at most every GATE_LOG_MS,
 *   with how many times it happened since the last;
 * - a peer that vanished without closing (no FIN, no reset) is the
 *   kernel's to find: TCP keepalive and a user timeout on every connection
 *   (GATE_IDLE_S and the rest). lws's own check (a ping after 300 s without
 *   traffic, its "validity" timer) is off (net.c): it re-armed a timer in a
 *   sorted list of every connection's on every message received, a walk
 *   of them all, a tenth of the server's time at 6,000 connections.
 */
#define _DEFAULT_SOURCE /* SO_REUSEPORT (Linux 3.9) */
#include "gate.h"

#include <arpa/inet.h>
#include <errno.h>
#include <ev.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "../mem/mem.h"

enum {
    PEER_BUCKETS = 1024,
    ACCEPTS_AT_ONCE = 64, /* connections taken a wake-up (then the other sockets') */
    RETRY_MS = 100        /* out of handles: the next try, unless one is freed first */
};

typedef struct GatePeer GatePeer; /* an address with handshakes not over */

struct GatePeer {
    GatePeer *next;
    int pending; /* its connections whose handshake is not over */
    char text[INET6_ADDRSTRLEN];
};

struct GatePeers {
    pthread_mutex_t lock;
    GatePeer *table[PEER_BUCKETS];
};

struct GateConn {
    GateConn *prev, *next; /* in the list of handshakes, while listed */
    int listed;
    GatePeer *peer;   /* its address (NULL: not counted, the proxy's) */
    void *handle;     /* adopt's */
    int64_t due;      /* when its handshake's time is up (monotonic ms) */
};

struct Gate {
    GateConfig config;
    int fd, port;
    ev_io io;         /* the listening socket readable: connections to accept */
    ev_timer retry;   /* out of handles: accepting again */
    ev_timer report;  /* the log's next line, when one waits to be said */
    ev_timer expiry;  /* the first handshake's time up */
    GateConn *head, *tail; /* the handshakes not over, the oldest first */
    int waiting;      /* 1: accepting waits for a free handle */
    GatePeers *peers; /* its own, or shared with the other gates */
    int own_peers;
    /* what the log has yet to say, since its last line */
    long failed; /* accepts failed for want of a handle (or of memory) */
    int failed_errno;
    long refused; /* connections closed beyond GATE_PENDING_MAX */
    char refused_from[INET6_ADDRSTRLEN];
    long expired; /* connections closed, their handshake's time up */
    int64_t logged_at; /* the last line (monotonic ms; 0: none yet) */
};

static int64_t now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* ---- the log ---------------------------------------------------------------- */

static void say_now(Gate *g)
{
    if (g->failed)
        fprintf(stderr,
                "serve: accept: %s (errno %d), %ld time%s: new connections wait for a "
                "free file handle\n",
                strerror(g->failed_errno), g->failed_errno, g->failed, g->failed > 1 ? "s" : "");
    if (g->refused)
        fprintf(stderr,
                "serve: refused %ld connection%s (the last from %s): %d handshakes from one "
                "address not over\n",
                g->refused, g->refused > 1 ? "s" : "", g->refused_from, GATE_PENDING_MAX);
    if (g->expired)
        fprintf(stderr, "serve: closed %ld connection%s: no request in %d ms\n", g->expired,
                g->expired > 1 ? "s" : "", GATE_HANDSHAKE_MS);
    if (g->failed || g->refused || g->expired)
        g->logged_at = now_ms();
    g->failed = g->refused = g->expired = 0;
}

/* Something to say: now, or when GATE_LOG_MS have passed since the last
 * line (the report timer). */
static void say(Gate *g)
{
    int64_t wait = g->logged_at ? g->logged_at + GATE_LOG_MS - now_ms() : 0;
    if (wait <= 0) {
        say_now(g);
        return;
    }
    if (!ev_is_active(&g->report)) {
        ev_timer_set(&g->report, (double)wait / 1e3, 0.0);
        ev_timer_start(g->config.loop, &g->report);
    }
}

static void on_report(struct ev_loop *loop, ev_timer *w, int revents)
{
    (void)loop;
    (void)revents;
    say_now(w->data);
}

/* ---- addresses -------------------------------------------------------------- */

GatePeers *gate_peers_new(void)
{
    GatePeers *p = mem_calloc(1, sizeof *p);
    if (p && pthread_mutex_init(&p->lock, NULL)) {
        free(p);
        return NULL;
    }
    return p;
}

void gate_peers_free(GatePeers *peers)
{
    if (!peers)
        return;
    for (int i = 0; i < PEER_BUCKETS; i++)
        while (peers->table[i]) {
            GatePeer *p = peers->table[i];
            peers->table[i] = p->next;
            free(p);
        }
    pthread_mutex_destroy(&peers->lock);
    free(peers);
}

/* Under the peers' lock. */
static GatePeer **peer_slot(Gate *g, const char *text)
{
    uint32_t x = 2166136261u; /* FNV-1a */
    for (const unsigned char *p = (const unsigned char *)text; *p; p++)
        x = (x ^ *p) * 16777619u;
    GatePeer **p = &g->peers->table[x % PEER_BUCKETS];
    while (*p && strcmp((*p)->text, text) != 0)
        p = &(*p)->next;
    return p;
}

static void peer_put(Gate *g, GatePeer *peer)
{
    if (!peer)
        return;
    pthread_mutex_lock(&g->peers->lock);
    if (--peer->pending <= 0) {
        GatePeer **slot = peer_slot(g, peer->text);
        *slot = peer->next;
        free(peer);
    }
    pthread_mutex_unlock(&g->peers->lock);
}

/* ---- handshakes ---------------------------------------------------------------- */

static void unlist(Gate *g, GateConn *c)
{
    if (!c->listed)
        return;
    *(c->prev ? &c->prev->next : &g->head) = c->next;
    *(c->next ? &c->next->prev : &g->tail) = c->prev;
    c->listed = 0;
}

static void arm_expiry(Gate *g)
{
    if (!g->head || ev_is_active(&g->expiry))
        return;
    int64_t wait = g->head->due - now_ms();
    ev_timer_set(&g->expiry, wait > 0 ? (double)wait / 1e3 : 0.0, 0.0);
    ev_timer_start(g->config.loop, &g->expiry);
}

/* The handshakes whose time is up: off the list, and closed by net.c. */
static void on_expiry(struct ev_loop *loop, ev_timer *w, int revents)
{
    (void)loop;
    (void)revents;
    Gate *g = w->data;
    int64_t now = now_ms();
    while (g->head && g->head->due <= now) {
        GateConn *c = g->head;
        unlist(g, c);
        g->expired++;
        g->config.expire(c->handle, g->config.ctx); /* may free c */
    }
    if (g->expired)
        say(g);
    arm_expiry(g);
}

void gate_done(Gate *g, GateConn *c)
{
    unlist(g, c);
    peer_put(g, c->peer);
    free(c);
}

/* ---- accepting -------------------------------------------------------------- */

/* No handle (or memory) for a connection: the listening watcher stops, and
 * starts again in RETRY_MS or when a connection is closed. */
static void wait_for_handle(Gate *g, int error)
{
    ev_io_stop(g->config.loop, &g->io);
    g->waiting = 1;
    ev_timer_stop(g->config.loop, &g->retry);
    ev_timer_set(&g->retry, RETRY_MS / 1e3, 0.0);
    ev_timer_start(g->config.loop, &g->retry);
    g->failed++;
    g->failed_errno = error;
    say(g);
}

static void on_retry(struct ev_loop *loop, ev_timer *w, int revents)
{
    (void)revents;
    Gate *g = w->data;
    g->waiting = 0;
    if (g->fd >= 0)
        ev_io_start(loop, &g->io);
}

void gate_freed(Gate *g)
{
    if (!g || !g->waiting || g->fd < 0)
        return;
    ev_timer_stop(g->config.loop, &g->retry);
    ev_timer_set(&g->retry, 0.0, 0.0);
    ev_timer_start(g->config.loop, &g->retry);
}

/* An accepted connection: closed at once when its address has
 * GATE_PENDING_MAX handshakes not over, else counted and handed on. */
static void admit(Gate *g, int fd, const struct sockaddr_storage *sa)
{
    char text[INET6_ADDRSTRLEN] = "";
    if (sa->ss_family == AF_INET)
        inet_ntop(AF_INET, &((const struct sockaddr_in *)sa)->sin_addr, text, sizeof text);
    else if (sa->ss_family == AF_INET6)
        inet_ntop(AF_INET6, &((const struct sockaddr_in6 *)sa)->sin6_addr, text, sizeof text);
    int one = 1; /* frames are small and waited for: no Nagle (as lws's listener does) */
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    int idle = GATE_IDLE_S, probe = GATE_PROBE_S, probes = GATE_PROBES;
    unsigned unacked = GATE_UNACKED_MS;
    setsockopt(fd, SOL_SOCKET, SO_KEEPALIVE, &one, sizeof one);
    setsockopt(fd, IPPROTO_TCP, TCP_KEEPIDLE, &idle, sizeof idle);
    setsockopt(fd, IPPROTO_TCP, TCP_KEEPINTVL, &probe, sizeof probe);
    setsockopt(fd, IPPROTO_TCP, TCP_KEEPCNT, &probes, sizeof probes);
    setsockopt(fd, IPPROTO_TCP, TCP_USER_TIMEOUT, &unacked, sizeof unacked);
    fcntl(fd, F_SETFD, FD_CLOEXEC);
    GatePeer *peer = NULL;
    if (!g->config.exempt || strcmp(text, g->config.exempt) != 0) {
        pthread_mutex_lock(&g->peers->lock);
        GatePeer **slot = peer_slot(g, text);
        int full = *slot && (*slot)->pending >= GATE_PENDING_MAX;
        if (!full && !*slot && (*slot = mem_calloc(1, sizeof **slot)))
            memcpy((*slot)->text, text, sizeof text);
        if (!full && (peer = *slot))
            peer->pending++;
        pthread_mutex_unlock(&g->peers->lock);
        if (full) {
            close(fd);
            g->refused++;
            memcpy(g->refused_from, text, sizeof text);
            say(g);
            return;
        }
        if (!peer) {
            close(fd);
            g->failed++;
            g->failed_errno = ENOMEM;
            say(g);
            return;
        }
    }
    GateConn *c = mem_calloc(1, sizeof *c);
    if (!c) {
        close(fd);
        peer_put(g, peer);
        g->failed++;
        g->failed_errno = ENOMEM;
        say(g);
        return;
    }
    c->peer = peer;
    c->due = now_ms() + GATE_HANDSHAKE_MS;
    if (!(c->handle = g->config.adopt(fd, c, g->config.ctx))) {
        peer_put(g, peer);
        free(c);
        return;
    }
    c->prev = g->tail;
    *(g->tail ? &g->tail->next : &g->head) = c;
    g->tail = c;
    c->listed = 1;
    arm_expiry(g);
}

static void on_accept(struct ev_loop *loop, ev_io *w, int revents)
{
    (void)loop;
    (void)revents;
    Gate *g = w->data;
    for (int i = 0; i < ACCEPTS_AT_ONCE; i++) {
        struct sockaddr_storage sa;
        socklen_t len = sizeof sa;
        memset(&sa, 0, sizeof sa);
        int fd = accept(g->fd, (struct sockaddr *)&sa, &len);
        if (fd >= 0) {
            admit(g, fd, &sa);
            continue;
        }
        switch (errno) {
        case EAGAIN:
#if EWOULDBLOCK != EAGAIN
        case EWOULDBLOCK:
#endif
            return;
        /* that connection's trouble (Linux passes its network errors on
         * through accept), not ours: the next one */
        case EINTR:
        case ECONNABORTED:
        case EPROTO:
        case ENETDOWN:
        case ENOPROTOOPT:
        case EHOSTDOWN:
        case EHOSTUNREACH:
        case EOPNOTSUPP:
        case ENETUNREACH:
            continue;
        default: /* EMFILE, ENFILE, ENOBUFS, ENOMEM, ...: wait, do not spin */
            wait_for_handle(g, errno);
            return;
        }
    }
}

/* ---- the socket --------------------------------------------------------------- */

/* Whether a socket without SO_REUSEPORT may bind sa (SO_REUSEADDR, as the
 * gates: a port in TIME_WAIT is free, one a socket listens on is not):
 * 0, or -1 with errno set. */
static int port_free(const struct sockaddr_in *sa)
{
    int one = 1, fd = socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0)
        return -1;
    int rc = setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one) < 0 ||
                     bind(fd, (const struct sockaddr *)sa, sizeof *sa) < 0
                 ? -1
                 : 0;
    int err = errno;
    close(fd);
    errno = err;
    return rc;
}

static int listen_on(Gate *g, char *error, int error_size)
{
    struct sockaddr_in sa;
    memset(&sa, 0, sizeof sa);
    sa.sin_family = AF_INET;
    sa.sin_port = htons((uint16_t)g->config.port);
    if (inet_pton(AF_INET, g->config.bind, &sa.sin_addr) != 1) {
        snprintf(error, (size_t)error_size, "not an IPv4 address: %s", g->config.bind);
        return -1;
    }
    if (g->config.reuse_port == GATE_PORT_FIRST && g->config.port != 0 && port_free(&sa)) {
        snprintf(error, (size_t)error_size, "%s", strerror(errno));
        return -1;
    }
    int one = 1;
    socklen_t len = sizeof sa;
    if ((g->fd = socket(AF_INET, SOCK_STREAM, 0)) < 0 ||
        fcntl(g->fd, F_SETFD, FD_CLOEXEC) < 0 ||
        fcntl(g->fd, F_SETFL, fcntl(g->fd, F_GETFL) | O_NONBLOCK) < 0 ||
        setsockopt(g->fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one) < 0 ||
        (g->config.reuse_port &&
         setsockopt(g->fd, SOL_SOCKET, SO_REUSEPORT, &one, sizeof one) < 0) ||
        bind(g->fd, (struct sockaddr *)&sa, sizeof sa) < 0 || listen(g->fd, SOMAXCONN) < 0 ||
        getsockname(g->fd, (struct sockaddr *)&sa, &len) < 0) {
        snprintf(error, (size_t)error_size, "%s", strerror(errno));
        return -1;
    }
    g->port = ntohs(sa.sin_port);
    return 0;
}

Gate *gate_open(const GateConfig *config, char *error, int error_size)
{
    Gate *g = mem_calloc(1, sizeof *g);
    if (!g) {
        snprintf(error, (size_t)error_size, "out of memory");
        return NULL;
    }
    g->config = *config;
    g->fd = -1;
    g->peers = config->peers;
    if (!g->peers) {
        if (!(g->peers = gate_peers_new())) {
            snprintf(error, (size_t)error_size, "out of memory");
            free(g);
            return NULL;
        }
        g->own_peers = 1;
    }
    if (listen_on(g, error, error_size)) {
        if (g->fd >= 0)
            close(g->fd);
        if (g->own_peers)
            gate_peers_free(g->peers);
        free(g);
        return NULL;
    }
    ev_io_init(&g->io, on_accept, g->fd, EV_READ);
    ev_timer_init(&g->retry, on_retry, 0.0, 0.0);
    ev_timer_init(&g->report, on_report, 0.0, 0.0);
    ev_timer_init(&g->expiry, on_expiry, 0.0, 0.0);
    g->io.data = g->retry.data = g->report.data = g->expiry.data = g;
    ev_io_start(g->config.loop, &g->io);
    return g;
}

int gate_port(const Gate *g)
{
    return g->port;
}

void gate_stop(Gate *g)
{
    if (!g || g->fd < 0)
        return;
    ev_io_stop(g->config.loop, &g->io);
    ev_timer_stop(g->config.loop, &g->retry);
    ev_timer_stop(g->config.loop, &g->report);
    ev_timer_stop(g->config.loop, &g->expiry);
    say_now(g);
    close(g->fd);
    g->fd = -1;
    g->waiting = 0;
}

void gate_free(Gate *g)
{
    if (!g)
        return;
    gate_stop(g);
    while (g->head) /* none once lws has closed every connection */
        gate_done(g, g->head);
    if (g->own_peers)
        gate_peers_free(g->peers);
    free(g);
}
