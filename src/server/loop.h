/* loop.h - what the files of `lit serve`'s network share (net.h is the
 * public side): a connection (Conn), its link to its client's hub (Link),
 * the mail between loops (Mail), and an event loop (Loop).
 *
 *   net.c    the loops: made, run, stopped; lws's callback; the gate's glue
 *   link.c   links and mail: messages to the hubs, frames to the sockets,
 *            moves between loops, the workers' jobs
 *   http.c   HTTP answers and the checks of an upgrade, written through lws
 *
 * net.c calls the other two, link.c calls neither, http.c neither.
 */
#ifndef LIT_SERVER_LOOP_H
#define LIT_SERVER_LOOP_H

#include <ev.h>
#include <libwebsockets.h>
#include <pthread.h>
#include <stdint.h>
#include <time.h>

#include "gate.h"
#include "hub.h"
#include "net.h"
#include "pool.h"
#include "route.h"

typedef struct Loop Loop;

enum {
    LOOP_BATCH = 16384 /* bytes of frames written to a connection in one send */
};
typedef struct Link Link;

typedef struct Conn {
    Link *link;           /* WebSocket: its client's link */
    char *in;             /* WebSocket: the message being put together */
    size_t in_len;
    char *body;           /* HTTP: the answer's body, after LWS_PRE bytes */
    size_t body_len, body_off; /* its length, and how much is written */
    int close;            /* HTTP: closed once the body is written */
    char peer[64];
    struct lws *wsi;      /* WebSocket: its connection, while in the list */
    struct Conn *next_out; /* in its loop's out: frames queued since the loop last wrote */
    int in_out;           /* ... and whether it is in that list */
    int broken;           /* a write failed: closed at its writable callback */
    /* frames from another loop's hub (copies), oldest first, before any of
     * its own hub's; and a close that hub asked for */
    HubFrame *head, *tail;
    size_t queued;
    int close_code;
    const char *close_reason;
    int local;            /* its client is on this loop's hub (the origin's own
                           * flag: link->target is the target's to change) */
} Conn;

/* A connection's client (see above). refs: the connection's (until its
 * end is told to the target), the client's on its hub, and each mail's. */
struct Link {
    int refs;             /* atomic */
    pthread_mutex_t lock; /* target: its changes, and every post to it */
    Loop *origin;         /* the loop with the socket */
    Loop *target;         /* the loop whose hub has (or is taking) the client:
                           * changed by that loop alone, under the lock */
    Conn *conn;           /* the origin's alone: NULL once the connection went */
    HubClient *client;    /* the target's alone: NULL while moving */
    Link *next_remote;    /* in the target's remote list (the target's alone; the
                           * list holds a reference) */
    int in_remote;
    int close_sent;       /* the target told the origin of its close */
    struct Mail *gone;    /* the connection's end, made with the link: posted
                           * when it goes (so that can never fail) */
};

enum {
    MAIL_MESSAGE = 0, /* a client's message, for its hub */
    MAIL_MOVE = 1,    /* a client moving in, with its message */
    MAIL_FRAMES = 2,  /* frames (and a close) for a connection */
    MAIL_GONE = 3     /* the connection went: its client leaves */
};

typedef struct Mail {
    struct Mail *next;
    int kind;
    Link *link;             /* a reference, the mail's */
    HubMoving moving;       /* MOVE: what the client takes along (no frames) */
    HubFrame *frames;       /* FRAMES: copies, oldest first */
    int close_code;         /* FRAMES: nonzero: close once written */
    const char *close_reason;
    size_t len;
    char data[];            /* MESSAGE, MOVE: the message */
} Mail;

struct Loop {
    int index;
    Loop *all;            /* every loop of the server (all[index] is this one) */
    struct ev_loop *loop;
    struct lws_context *ctx;
    Hub *hub;
    Pool pool;            /* its workers */
    int pooled;           /* ... started */
    Gate *gate;
    ev_timer timer;       /* the hub's next wake-up */
    int64_t timer_at;     /* ... the time it is armed for (INT64_MAX: none) */
    ev_prepare flush;     /* before the loop waits: out written, remote posted */
    Conn *out;            /* the connections with frames queued since */
    Link *remote;         /* this hub's clients on other loops with frames queued */
    ev_async mail;        /* mail has come, or the loop is to stop */
    pthread_mutex_t lock; /* the mailbox */
    Mail *head, *tail;
    int stop;             /* (under lock) to stop */
    int draining;         /* its way out: the clients told, their frames written */
    int restored;         /* rooms it took up from the store */
    ev_timer drain;       /* on the way out: until the clients are gone */
    int64_t drain_until;
    int websockets;       /* WebSocket connections on it (its way out waits for
                           * them: they may carry other loops' clients) */
    pthread_t thread;
    /* a move the hub asked for during the call being made (HubConfig.move) */
    HubClient *moving;
    int moving_to;
    char *moving_msg;
    size_t moving_len;
    /* a connection's queued frames framed together for one write
     * (write_queued): LWS_PRE bytes, then LOOP_BATCH */
    unsigned char batch[LWS_PRE + LOOP_BATCH];
};



enum {
    HTTP_CHUNK = 4096, /* bytes of an HTTP body written at once (http_writable) */
    /* an idle HTTP connection's seconds for its next request; the first
     * one's are GATE_HANDSHAKE_MS */
    NET_KEEPALIVE_SECS = 5,
    CLOSE_UNSUPPORTED = 1003, /* a binary frame (RFC 6455: data it cannot take) */
    NET_LOOPS_MAX = 64
};

static inline int64_t loop_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* ---- link.c ---------------------------------------------------------------- */

/* The calling thread is L's (its hub's callbacks find their loop so). */
void link_enter(Loop *L);

/* A WebSocket is open (conn zeroed, its peer set): its link, and its
 * client on L's hub. 0, or -1 out of memory. */
int link_open(Loop *L, struct lws *wsi, Conn *conn);

/* lws's RECEIVE and SERVER_WRITEABLE of a WebSocket: 0, or -1 to close. */
int link_receive(struct lws *wsi, Conn *conn, const void *in, size_t len);
int link_writable(struct lws *wsi, Conn *conn);

/* lws's CLOSED of a WebSocket: its client leaves its hub, here or on
 * another loop. */
void link_closed(Loop *L, Conn *conn);

/* The hub's callbacks (HubConfig.wake, move, post) and the workers' done
 * (PoolDone, ctx the loop). */
void link_wake(HubClient *client, void *ctx);
void link_move(HubClient *client, int hub, const char *msg, size_t len, void *ctx);
int link_post_job(HubJob *job, void *ctx);
void link_jobs_done(HubJob **jobs, int n, void *ctx);

/* After a hub call: a move it asked for, and the hub's next wake-up (the
 * loop's timer). */
void link_after_hub(Loop *L);
void link_reschedule(Loop *L);

/* The loop's watchers: its flush (ev_prepare: frames written, and posted to
 * other loops) and its mailbox (ev_async; data the loop). */
void link_on_flush(struct ev_loop *loop, ev_prepare *w, int revents);
void link_on_mail(struct ev_loop *loop, ev_async *w, int revents);

/* Every mail in L's mailbox, handled. */
void link_read_mail(Loop *L);

/* On the way out, no loop running, every connection closed: the mail left
 * in L's mailbox let go of (a client moving in let go of by its hub, a
 * departed connection's client disconnected, messages and frames
 * dropped), and the frames of L's hub for other loops. */
void link_clear_mail(Loop *L);

/* ---- http.c ---------------------------------------------------------------- */

/* LWS_CALLBACK_HTTP: the answer to the request of path (route.c's) put on
 * the wire: its headers now, its body when writable (http_writable). 0, or
 * -1 to close. */
int http_answer(struct lws *wsi, Conn *conn, const char *path, const RouteConfig *rc);
int http_writable(struct lws *wsi, Conn *conn);

/* LWS_CALLBACK_HTTP_CONFIRM_UPGRADE: 0 to upgrade, 1 when refused (the
 * refusal written). */
int http_confirm_upgrade(struct lws *wsi, const RouteConfig *rc, const NetConfig *config);

/* LWS_CALLBACK_RAW_ADOPT (a CONNECT): 405, and -1 to close. */
int http_refuse_connect(struct lws *wsi);

/* Who connects: the peer's address, or the trusted proxy's client. */
void http_client_address(struct lws *wsi, const NetConfig *config, char *out, size_t size);

#endif
