/* net.c - HTTP and WebSocket on libwebsockets 4.1.6 (net.h).
 *
 * One event loop a core (--loops), each a thread with its own libev loop,
 * libwebsockets context, hub and workers, and one protocol for both HTTP
 * (/healthz, the records of finished games, the page; each answer decided
 * by route.c, and only written here) and the WebSocket of docs/PROTOCOL.md.
 * The loops are libev's (epoll here), owned by us and lent to
 * libwebsockets: lws's own loop is poll(), whose every wake-up walks every
 * socket, and at a thousand tables that is six thousand
 * (docs/BENCHMARKS.md). Each hub's timer is a libev timer, not an lws_sul:
 * lws 4.1's libev glue never moves its one armed timer earlier, so a sul
 * due before it would wait for the next socket event.
 *
 * Several loops (docs/SCALING.md, "Every core"). Each loop listens on the
 * port with its own gate (SO_REUSEPORT: the kernel spreads the connections
 * over them), and a connection stays on the loop that took it. Its client
 * lives on a hub: at first its own loop's; a room lives on the hub its
 * code names (hub_home), and a client in no room that joins or resumes a
 * room of another hub is moved there (HubConfig.move). A Link joins the
 * two: the loop with the socket (origin) and the loop whose hub has the
 * client (target). While they are one loop, messages go straight to the
 * hub and frames straight from it to the socket; otherwise each message is
 * posted to the target's mailbox and the frames, copied (a frame's block
 * goes back to its own hub's spares), to the origin's, each mailbox a list
 * under a lock woken by ev_async. The hubs share their limits, lobby and
 * store (HubShared, store_shared). Ordering: the origin posts a message
 * holding the link's lock, and a hub moving a client on changes the link's
 * target holding it too, taking with it the messages already in its own
 * mailbox for that link: so no message overtakes another.
 *
 * The files: loop.h. What libwebsockets leaves to us:
 * - lws_write buffers whatever the socket does not take, without limit: we
 *   write one frame per writable callback from the hub's per-client queue,
 *   which the hub caps (HUB_QUEUE_MAX; frames from another loop's hub are
 *   capped here alike);
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
 * Besides the loops there are the workers' threads (pool.c), a pool a
 * loop: the hub hands out an expert's decisions and the reviews of
 * finished games as jobs (hub.h, HubJob), and each job comes back to its
 * loop, where the hub plays a move at the room's pace or sends a review to
 * the client that asked.
 */
#include "net.h"

#include <ev.h>
#include <libwebsockets.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../mem/mem.h"
#include "../store/store.h"
#include "gate.h"
#include "hub.h"
#include "loop.h"
#include "pool.h"

typedef struct Net {
    const NetConfig *config;
    int n;                /* loops */
    Loop *loops;
    HubShared *shared;
    GatePeers *peers;
    Store *store;         /* the hubs' (shared by the loops when several) */
    ev_signal sigint, sigterm; /* on loop 0 */
} Net;

static Net net;

static Loop *loop_of(struct lws *wsi)
{
    return lws_context_user(lws_get_context(wsi));
}

static void log_hub(const char *line, void *ctx)
{
    (void)ctx;
    fprintf(stderr, "serve: %s\n", line);
}

/* GateConfig.adopt: lws takes the connection as if its listener had
 * accepted it; the gate's conn rides on the wsi until handshake_over. */
static void *adopt(int fd, GateConn *conn, void *ctx)
{
    Loop *L = ctx;
    struct lws *wsi = lws_adopt_socket(L->ctx, fd);
    if (wsi) {
        lws_set_opaque_user_data(wsi, conn);
    }
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
        gate_done(loop_of(wsi)->gate, conn);
    }
}

/* What an HTTP answer depends on: the loop's hub (the server's counts) and
 * the store as the loops share it. */
static RouteConfig route_of(Loop *L)
{
    const NetConfig *nc = net.config;
    RouteConfig rc = {L->hub,   net.store,      nc->web_dir,
                      nc->bind, nc->host_names, nc->host_name_count};
    return rc;
}

static int callback(struct lws *wsi, enum lws_callback_reasons reason, void *user, void *in,
                    size_t len)
{
    Conn *conn = user;
    Loop *L = loop_of(wsi);
    RouteConfig rc;
    switch (reason) {
    case LWS_CALLBACK_WSI_DESTROY:
        if (lws_get_network_wsi(wsi) == wsi) {
            handshake_over(wsi);
            gate_freed(L->gate);
        }
        break;
    case LWS_CALLBACK_HTTP:
        handshake_over(wsi);
        rc = route_of(L);
        return http_answer(wsi, conn, (const char *)in, &rc);
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
        rc = route_of(L);
        return http_confirm_upgrade(wsi, &rc, net.config);
    case LWS_CALLBACK_RAW_ADOPT:
        handshake_over(wsi);
        return http_refuse_connect(wsi);
    case LWS_CALLBACK_ESTABLISHED:
        memset(conn, 0, sizeof *conn);
        http_client_address(wsi, net.config, conn->peer, sizeof conn->peer);
        return link_open(L, wsi, conn);
    case LWS_CALLBACK_RECEIVE:
        return link_receive(wsi, conn, in, len);
    case LWS_CALLBACK_SERVER_WRITEABLE:
        return link_writable(wsi, conn);
    case LWS_CALLBACK_CLOSED:
        if (conn)
            link_closed(L, conn);
        break;
    default:
        break;
    }
    return 0;
}

static const struct lws_protocols protocols[] = {
    {"literature", callback, sizeof(Conn), 0, 0, NULL, 0},
    {NULL, NULL, 0, 0, 0, NULL, 0}};

static void on_timer(struct ev_loop *loop, ev_timer *w, int revents)
{
    (void)loop;
    (void)revents;
    Loop *L = w->data;
    hub_tick(L->hub, loop_now_ms());
    link_after_hub(L);
}

/* SIGINT or SIGTERM (loop 0's): every loop out of its run, in its own time. */
static void on_signal(struct ev_loop *loop, ev_signal *w, int revents)
{
    (void)w;
    (void)revents;
    for (int i = 1; i < net.n; i++) {
        Loop *L = &net.loops[i];
        pthread_mutex_lock(&L->lock);
        L->stop = 1;
        pthread_mutex_unlock(&L->lock);
        ev_async_send(L->loop, &L->mail);
    }
    ev_break(loop, EVBREAK_ALL);
}

static void on_drain(struct ev_loop *loop, ev_timer *w, int revents)
{
    (void)revents;
    Loop *L = w->data;
    link_read_mail(L);
    if ((!hub_clients(L->hub) && !L->websockets) || loop_now_ms() >= L->drain_until)
        ev_break(loop, EVBREAK_ALL);
}

/* A loop made: its libev loop, its hub (taking up its own rooms), its
 * workers, its lws context and its gate (listening on port, 0: any). 0, or
 * -1 (said why). */
static int loop_open(Loop *L, int index, int experts, int port)
{
    const NetConfig *config = net.config;
    L->index = index;
    L->all = net.loops;
    L->timer_at = INT64_MAX;
    if (pthread_mutex_init(&L->lock, NULL) ||
        !(L->loop = ev_loop_new(EVFLAG_AUTO | EVFLAG_NOENV))) {
        fprintf(stderr, "serve: cannot make an event loop\n");
        return -1;
    }
    HubConfig hc = {.headroom = LWS_PRE,
                    .max_rooms = config->max_rooms,
                    .max_rate = config->max_rate,
                    .max_per_address = config->max_per_address,
                    .max_rooms_per_address = config->max_rooms_per_address,
                    .wake = link_wake,
                    .log = log_hub,
                    .ctx = config->ctx,
                    .random = config->random,
                    .store = net.store,
                    .shared = net.shared,
                    .hubs = net.n,
                    .index = index,
                    .move = net.n > 1 ? link_move : NULL,
                    .retry_ms = config->retry_ms};
    /* without its workers the server runs, and offers no expert bot */
    if (pool_start(&L->pool, L->loop, experts, link_jobs_done, L) == 0) {
        L->pooled = 1;
        hc.post = link_post_job;
    } else if (index == 0)
        fprintf(stderr, "serve: no workers for the expert bot and reviews (no memory or no "
                        "thread): neither is offered\n");
    link_enter(L);
    L->hub = hub_new(&hc);
    int rooms = L->hub ? hub_restore(L->hub, loop_now_ms()) : -1;
    if (rooms < 0) {
        if (!L->hub)
            fprintf(stderr, "serve: out of memory\n");
        return -1;
    }
    L->restored = rooms;
    void *loops[1] = {L->loop};
    struct lws_context_creation_info info;
    memset(&info, 0, sizeof info);
    info.port = CONTEXT_PORT_NO_LISTEN_SERVER; /* the gate listens (gate.c) */
    info.protocols = protocols;
    info.foreign_loops = loops;
    info.user = L;
    info.keepalive_timeout = NET_KEEPALIVE_SECS;
    /* no idle check of lws's (a ping after 300 s): it cost a walk of every
     * connection's timer a message; TCP finds a vanished peer (gate.c) */
    static const lws_retry_bo_t no_idle_check = {.secs_since_valid_ping = 0,
                                                 .secs_since_valid_hangup = 0};
    info.retry_and_idle_policy = &no_idle_check;
    info.options = LWS_SERVER_OPTION_DISABLE_IPV6 | LWS_SERVER_OPTION_VALIDATE_UTF8 |
                   LWS_SERVER_OPTION_LIBEV;
    L->ctx = lws_create_context(&info);
    int reuse = net.n == 1 ? GATE_PORT_ALONE : index == 0 ? GATE_PORT_FIRST : GATE_PORT_JOIN;
    GateConfig gc = {L->loop, config->bind, port,          config->proxy,
                     adopt,   expire,       L,             reuse,
                     net.peers};
    char error[128];
    if (!L->ctx || !(L->gate = gate_open(&gc, error, sizeof error))) {
        fprintf(stderr, "serve: cannot listen on %s:%d%s%s\n", config->bind, port,
                L->ctx ? ": " : "", L->ctx ? error : "");
        return -1;
    }
    ev_timer_init(&L->timer, on_timer, 0.0, 0.0);
    L->timer.data = L;
    ev_prepare_init(&L->flush, link_on_flush);
    L->flush.data = L;
    ev_prepare_start(L->loop, &L->flush);
    ev_async_init(&L->mail, link_on_mail);
    L->mail.data = L;
    ev_async_start(L->loop, &L->mail);
    return 0;
}

/* A loop's run, then its way out: no new connection and no expert; every
 * client told to reconnect, and a moment for the frames. */
static void loop_run(Loop *L, int serve)
{
    link_enter(L);
    link_reschedule(L);
    if (serve) /* (ev_run forgets a break made before it runs) */
        ev_run(L->loop, 0);
    gate_stop(L->gate);
    if (L->pooled)
        pool_stop(&L->pool);
    L->pooled = 0;
    hub_shutdown(L->hub);
    ev_timer_stop(L->loop, &L->timer);
    L->draining = 1;
    L->drain_until = loop_now_ms() + 1000;
    ev_timer_init(&L->drain, on_drain, 0.0, 0.05);
    L->drain.data = L;
    ev_timer_start(L->loop, &L->drain);
    ev_run(L->loop, 0);
    ev_timer_stop(L->loop, &L->drain);
}

static void *loop_thread(void *arg)
{
    loop_run(arg, 1);
    return NULL;
}

/* Lets go of every loop once none runs: the lws contexts first (their
 * connections close, telling other loops' hubs by mail), then the mail
 * left, then the gates, workers and hubs. */
static void loops_close(void)
{
    for (int i = 0; i < net.n; i++) {
        Loop *L = &net.loops[i];
        link_enter(L);
        gate_stop(L->gate);
        if (L->ctx) {
            lws_context_destroy(L->ctx);
            /* lws lets go of its watchers in the loop's time */
            ev_run(L->loop, EVRUN_NOWAIT);
        }
    }
    for (int i = 0; i < net.n; i++)
        if (net.loops[i].hub)
            link_clear_mail(&net.loops[i]);
    for (int i = 0; i < net.n; i++) {
        Loop *L = &net.loops[i];
        gate_free(L->gate);
        if (L->pooled)
            pool_stop(&L->pool);
        free(L->moving_msg);
        hub_free(L->hub);
        if (L->loop) {
            ev_async_stop(L->loop, &L->mail);
            ev_prepare_stop(L->loop, &L->flush);
            ev_loop_destroy(L->loop);
        }
        pthread_mutex_destroy(&L->lock);
    }
    free(net.loops);
    gate_peers_free(net.peers);
    hub_shared_free(net.shared);
    if (net.store && net.store != net.config->store)
        store_unshare(net.store);
    net.loops = NULL;
}

/* The loops a server runs: --loops, else one a core. */
static int loops_wanted(const NetConfig *config)
{
    if (config->loops)
        return config->loops;
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    return cores < 1 ? 1 : cores > NET_LOOPS_MAX ? NET_LOOPS_MAX : (int)cores;
}

int net_serve(const NetConfig *config)
{
    lws_set_allocator(mem_lws); /* mem.h: counted, and failed by tests */
    lws_set_log_level(config->verbose ? LLL_ERR | LLL_WARN | LLL_NOTICE : LLL_ERR, NULL);
    memset(&net, 0, sizeof net);
    net.config = config;
    net.n = loops_wanted(config);
    net.store = config->store;
    net.loops = mem_calloc((size_t)net.n, sizeof *net.loops);
    net.shared = hub_shared_new();
    net.peers = gate_peers_new();
    if (net.n > 1 && config->store && !(net.store = store_shared(config->store)))
        net.store = NULL;
    if (!net.loops || !net.shared || !net.peers || (config->store && !net.store)) {
        fprintf(stderr, "serve: out of memory\n");
        if (net.loops)
            loops_close();
        else {
            gate_peers_free(net.peers);
            hub_shared_free(net.shared);
        }
        return 1;
    }
    /* the expert workers: --workers (else one a core) shared out among the
     * loops, one a loop at least */
    int experts = config->workers ? config->workers : pool_default_experts();
    int port = config->port, total = 0;
    for (int i = 0; i < net.n; i++) {
        int each = experts / net.n + (i < experts % net.n);
        each = each > 0 ? each : 1;
        if (loop_open(&net.loops[i], i, each, port)) {
            loops_close();
            return 1;
        }
        total += net.loops[i].pooled ? each : 0;
        port = gate_port(net.loops[i].gate);
    }
    if (config->store) {
        int rooms = 0;
        for (int i = 0; i < net.n; i++)
            rooms += net.loops[i].restored;
        fprintf(stderr, "serve: %d rooms taken up from the store\n", rooms);
    }
    if (total)
        fprintf(stderr, "serve: %d expert worker%s and a review worker%s, on %d event loop%s\n",
                total, total == 1 ? "" : "s", net.n == 1 ? "" : " a loop", net.n,
                net.n == 1 ? "" : "s");
    printf("serving on http://%s:%d/\n", config->bind, port);
    fflush(stdout);
    if (config->listening)
        config->listening(config->ctx);

    signal(SIGPIPE, SIG_IGN);
    Loop *L0 = &net.loops[0];
    ev_signal_init(&net.sigint, on_signal, SIGINT);
    ev_signal_init(&net.sigterm, on_signal, SIGTERM);
    ev_signal_start(L0->loop, &net.sigint);
    ev_signal_start(L0->loop, &net.sigterm);
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, &old);
    int started = 1;
    for (; started < net.n; started++)
        if (pthread_create(&net.loops[started].thread, NULL, loop_thread,
                           &net.loops[started])) {
            fprintf(stderr, "serve: cannot start a thread for loop %d: it does not run\n",
                    started + 1);
            break;
        }
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (started < net.n) { /* the others stop again; those not started take nothing */
        for (int i = started; i < net.n; i++)
            gate_stop(net.loops[i].gate);
        on_signal(L0->loop, &net.sigint, 0);
    }
    loop_run(L0, started == net.n);
    for (int i = 1; i < started; i++)
        pthread_join(net.loops[i].thread, NULL);
    fprintf(stderr, "serve: stopping\n");
    ev_signal_stop(L0->loop, &net.sigint);
    ev_signal_stop(L0->loop, &net.sigterm);
    loops_close();
    return started < net.n ? 1 : 0;
}

