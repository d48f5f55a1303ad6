/* link.c - a connection's link to its client's hub, and the mail between
 * event loops (loop.h; the design in net.c's opening comment): messages
 * to the hubs, frames to the sockets, moves between loops, the workers'
 * jobs back to their loop.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../mem/mem.h"
#include "loop.h"

static _Thread_local Loop *self; /* the loop whose thread this is */

void link_enter(Loop *L)
{
    self = L;
}

/* After anything that may change the hub: its next wake-up as the timer. */
void link_reschedule(Loop *L)
{
    int64_t next = hub_next_wake(L->hub);
    if (next == L->timer_at && (next == INT64_MAX || ev_is_active(&L->timer)))
        return; /* armed for it already (most messages change no time) */
    ev_timer_stop(L->loop, &L->timer);
    L->timer_at = next;
    if (next == INT64_MAX)
        return;
    int64_t wait = next - loop_now_ms();
    ev_timer_set(&L->timer, wait > 0 ? (double)wait / 1e3 : 0.0, 0.0);
    ev_timer_start(L->loop, &L->timer);
}

static void link_ref(Link *l)
{
    __atomic_add_fetch(&l->refs, 1, __ATOMIC_RELAXED);
}

static void link_unref(Link *l)
{
    if (__atomic_sub_fetch(&l->refs, 1, __ATOMIC_ACQ_REL) == 0) {
        pthread_mutex_destroy(&l->lock);
        free(l->gone);
        free(l);
    }
}

/* A mail for l with len bytes of message (a reference to l taken), or NULL
 * out of memory. */
static Mail *mail_new(int kind, Link *l, const char *msg, size_t len)
{
    Mail *m = mem_calloc(1, sizeof *m + len + 1);
    if (!m)
        return NULL;
    m->kind = kind;
    m->link = l;
    link_ref(l);
    if (len)
        memcpy(m->data, msg, len);
    m->len = len;
    return m;
}

/* Frees a list of frames (a hub's, on its own thread, or copies). */
static void frames_free(HubFrame *list)
{
    while (list) {
        HubFrame *f = list;
        list = f->next;
        hub_frame_free(f);
    }
}

/* Drops the frames of the connection's own queue. */
static void conn_drop_frames(Conn *conn)
{
    frames_free(conn->head);
    conn->head = conn->tail = NULL;
    conn->queued = 0;
}

static void mail_free(Mail *m)
{
    frames_free(m->frames);
    link_unref(m->link);
    free(m);
}

/* Appends the mails head .. tail (linked by next) to L's mailbox in one
 * step, so that L finds them all there once it finds the first, and wakes
 * L. */
static void post_chain(Loop *L, Mail *head, Mail *tail)
{
    pthread_mutex_lock(&L->lock);
    *(L->tail ? &L->tail->next : &L->head) = head;
    L->tail = tail;
    pthread_mutex_unlock(&L->lock);
    ev_async_send(L->loop, &L->mail);
}

/* Into L's mailbox, and L woken. */
static void post(Loop *L, Mail *m)
{
    m->next = NULL;
    post_chain(L, m, m);
}

/* The next mail of L's mailbox, or NULL. */
static Mail *take(Loop *L)
{
    pthread_mutex_lock(&L->lock);
    Mail *m = L->head;
    if (m && !(L->head = m->next))
        L->tail = NULL;
    pthread_mutex_unlock(&L->lock);
    return m;
}

/* Copies of the frames of list (freed: they are this loop's hub's), oldest
 * first; NULL when out of memory (then none). */
static HubFrame *copy_frames(HubFrame *list)
{
    HubFrame *head = NULL, **tail = &head;
    int short_of_memory = 0;
    while (list) {
        HubFrame *f = list;
        list = f->next;
        HubFrame *copy = short_of_memory ? NULL : mem_alloc(sizeof *copy + LWS_PRE + f->len);
        if (copy) {
            copy->next = NULL;
            copy->len = f->len;
            copy->data = (unsigned char *)(copy + 1) + LWS_PRE;
            copy->hub = NULL;
            copy->spare = 0;
            memcpy(copy->data, f->data, f->len);
            *tail = copy;
            tail = &copy->next;
        } else {
            short_of_memory = 1;
        }
        hub_frame_free(f);
    }
    if (short_of_memory)
        frames_free(head);
    return short_of_memory ? NULL : head;
}

/* Frames of this loop's hub (list, taken) and a close for l's connection on
 * another loop: 0, or -1 when no mail could be made (the frames lost; the
 * close to be told again). Out of memory for the copies the connection is
 * closed (1013: it resumes). */
static int post_frames(Link *l, HubFrame *list, int close_code, const char *close_reason)
{
    int had = list != NULL;
    HubFrame *copies = copy_frames(list);
    Mail *m = mail_new(MAIL_FRAMES, l, NULL, 0);
    if (!m || (had && !copies)) {
        frames_free(copies);
        copies = NULL;
        if (!m) /* nothing to tell it with: tried again at the next frames */
            return -1;
        close_code = HUB_CLOSE_TRY_AGAIN;
        close_reason = "server_error";
    }
    m->frames = copies;
    m->close_code = close_code;
    m->close_reason = close_reason;
    post(l->origin, m);
    return 0;
}

/* Appends frames (copies) to the connection's own queue, capped as the
 * hub caps its queues: beyond HUB_QUEUE_MAX the client is not reading, and
 * the connection is closed (1008, too_slow). */
static void conn_take_frames(Conn *conn, HubFrame *frames)
{
    while (frames) {
        HubFrame *f = frames;
        frames = f->next;
        f->next = NULL;
        if (conn->close_code || conn->queued + f->len > HUB_QUEUE_MAX) {
            hub_frame_free(f);
            if (!conn->close_code) {
                conn_drop_frames(conn);
                conn->close_code = HUB_CLOSE_POLICY;
                conn->close_reason = "too_slow";
            }
            continue;
        }
        *(conn->tail ? &conn->tail->next : &conn->head) = f;
        conn->tail = f;
        conn->queued += f->len;
    }
}

/* The connection's client, when it is on its own loop's hub (else NULL). */
static HubClient *local_client(const Conn *conn)
{
    return conn->local && conn->link ? conn->link->client : NULL;
}

/* A close of the connection asked here (a binary frame, a message too
 * long): its local client's, as the hub's own closes are (its frames stop
 * there), else the connection's. */
static void conn_close(Conn *conn, int code, const char *reason)
{
    HubClient *c = local_client(conn);
    int *at = c ? &c->close_code : &conn->close_code;
    if (*at)
        return;
    *at = code;
    if (c)
        c->close_reason = reason;
    else
        conn->close_reason = reason;
}

/* The connection joins its loop's list written before the loop next waits
 * (flush). */
static void conn_wake(Loop *L, Conn *conn)
{
    if (conn->in_out)
        return;
    conn->in_out = 1;
    conn->next_out = L->out;
    L->out = conn;
}

/* HubConfig.wake: frames are queued for c (on this loop's hub). */
void link_wake(HubClient *c, void *ctx)
{
    (void)ctx;
    Loop *L = self;
    Link *l = c->user;
    if (l->origin == L) {
        if (l->conn)
            conn_wake(L, l->conn);
        return;
    }
    if (l->in_remote)
        return;
    l->in_remote = 1;
    l->next_remote = L->remote;
    L->remote = l;
    link_ref(l); /* the list's, until on_flush */
}

/* Leaves its loop's list (its connection is closing). */
static void leave_out(Loop *L, Conn *conn)
{
    for (Conn **p = &L->out; conn->in_out && *p; p = &(*p)->next_out)
        if (*p == conn) {
            *p = conn->next_out;
            conn->in_out = 0;
            break;
        }
}

/* The connection's next frame to write: its own queue's (from another
 * loop's hub), then its local client's. */
static HubFrame *next_frame(Conn *conn)
{
    if (conn->head) {
        HubFrame *f = conn->head;
        if (!(conn->head = f->next))
            conn->tail = NULL;
        conn->queued -= f->len;
        return f;
    }
    HubClient *c = local_client(conn);
    return c ? hub_pop(c) : NULL;
}

/* The frame next_frame would take, left where it is (NULL: none). */
static const HubFrame *peek_frame(const Conn *conn)
{
    const HubClient *c = local_client(conn);
    return conn->head ? conn->head : c ? c->head : NULL;
}

static int has_frames(const Conn *conn)
{
    return peek_frame(conn) != NULL;
}

/* The close asked for (0: none), and its reason. */
static int close_asked(const Conn *conn, const char **reason)
{
    const HubClient *c = local_client(conn);
    if (conn->close_code) {
        *reason = conn->close_reason;
        return conn->close_code;
    }
    if (c && c->close_code) {
        *reason = c->close_reason;
        return c->close_code;
    }
    return 0;
}

/* A server's WebSocket header for a whole text frame of len bytes (RFC
 * 6455, 5.2: FIN and text, unmasked, the length in 7, 16 or 64 bits): its
 * size, at most WS_HEADER_MAX. */
enum { WS_HEADER_MAX = 10 };
static size_t text_header(unsigned char *h, size_t len)
{
    h[0] = 0x81;
    if (len < 126) {
        h[1] = (unsigned char)len;
        return 2;
    }
    size_t bytes = len < 65536 ? 2 : 8;
    h[1] = bytes == 2 ? 126 : 127;
    for (size_t i = 0; i < bytes; i++)
        h[1 + bytes - i] = (unsigned char)(len >> (8 * i));
    return 2 + bytes;
}

/* f and the frames queued after it that fit, framed one after another in
 * the loop's batch and freed: their length. */
static size_t batch_frames(Loop *L, Conn *conn, HubFrame *f)
{
    unsigned char *at = L->batch + LWS_PRE, *end = at + LOOP_BATCH;
    for (;;) {
        at += text_header(at, f->len);
        memcpy(at, f->data, f->len);
        at += f->len;
        hub_frame_free(f);
        const HubFrame *next = peek_frame(conn);
        if (!next || next->len + WS_HEADER_MAX > (size_t)(end - at))
            return (size_t)(at - (L->batch + LWS_PRE));
        f = next_frame(conn);
    }
}

/* Writes the connection's frames while the socket takes them whole (lws
 * buffers what a write could not send; nothing more is written until that
 * is out: lws_partial_buffered): 0, or -1 when a write failed. Frames
 * queued together are one send (an ack and its event: a segment, and on
 * loopback the receiver's TCP work, less), framed here as lws frames one:
 * the connection has no extension that would change a frame. */
static int write_queued(Loop *L, struct lws *wsi, Conn *conn)
{
    while (has_frames(conn) && !lws_partial_buffered(wsi)) {
        HubFrame *f = next_frame(conn);
        int n;
        if (has_frames(conn) && f->len + WS_HEADER_MAX <= LOOP_BATCH) {
            size_t len = batch_frames(L, conn, f);
            n = lws_write(wsi, L->batch + LWS_PRE, len, LWS_WRITE_RAW);
        } else {
            n = lws_write(wsi, f->data, f->len, LWS_WRITE_TEXT);
            hub_frame_free(f);
        }
        if (n < 0)
            return -1;
    }
    return 0;
}

/* Before the loop waits: the frames of this hub's clients on other loops
 * posted to them; then every connection with frames queued since the loop
 * last waited is written to at once, and asks for a writable callback only
 * for what lws could not send (a socket that takes nothing is a write lws
 * buffers whole: its lws_issue_raw keeps what send() left, EAGAIN too, and
 * asks for POLLOUT itself; lws_partial_buffered then stops us). Asking for
 * a callback a frame cost two epoll_ctl calls and a round of the loop each,
 * and lws_send_pipe_choked a poll() a frame: docs/BENCHMARKS.md, "A fifth
 * of the cost". A close is always sent from the writable callback, after
 * the frames. */
void link_on_flush(struct ev_loop *loop, ev_prepare *w, int revents)
{
    (void)loop;
    (void)revents;
    Loop *L = w->data;
    while (L->remote) {
        Link *l = L->remote;
        L->remote = l->next_remote;
        l->in_remote = 0;
        HubClient *c = l->client;
        if (c && l->target == L) {
            HubFrame *list = c->head;
            c->head = c->tail = NULL;
            c->queued = 0;
            int close = c->close_code && !l->close_sent;
            if ((list || close) &&
                post_frames(l, list, close ? c->close_code : 0, close ? c->close_reason : NULL) ==
                    0)
                l->close_sent |= close;
        }
        link_unref(l);
    }
    while (L->out) {
        Conn *conn = L->out;
        L->out = conn->next_out;
        conn->in_out = 0;
        struct lws *wsi = conn->wsi;
        const char *reason;
        if (has_frames(conn) && !conn->broken && write_queued(L, wsi, conn))
            conn->broken = 1; /* closed from its callback: lws closes only there */
        if (has_frames(conn) || close_asked(conn, &reason) || conn->broken)
            lws_callback_on_writable(wsi);
    }
}

/* HubConfig.post: a job for this loop's workers, or 1 when their queue is
 * full. */
int link_post_job(HubJob *job, void *ctx)
{
    (void)ctx;
    return pool_post(&self->pool, job);
}

/* In the loop: the jobs run, back to the hub (which may hand out more). */
void link_jobs_done(HubJob **jobs, int n, void *ctx)
{
    Loop *L = ctx;
    for (int i = 0; i < n; i++)
        hub_job_done(L->hub, jobs[i], loop_now_ms());
    link_reschedule(L);
}

/* Closes a client of this loop's hub (out of memory: it resumes). */
static void close_client(HubClient *c)
{
    if (!c->close_code) {
        c->close_code = HUB_CLOSE_TRY_AGAIN;
        c->close_reason = "server_error";
    }
    link_wake(c, NULL);
}

/* HubConfig.move: the hub asks for its client to be moved to another hub
 * with the message being read; done when the hub call returns
 * (after_hub). */
void link_move(HubClient *c, int hub, const char *msg, size_t len, void *ctx)
{
    (void)ctx;
    Loop *L = self;
    char *copy = mem_alloc(len ? len : 1);
    if (!copy) { /* out of memory: the client stays, closed: it tries again */
        close_client(c);
        return;
    }
    memcpy(copy, msg, len);
    L->moving = c;
    L->moving_to = hub;
    L->moving_msg = copy;
    L->moving_len = len;
}

/* Moves the client the hub asked for (move) to its room's loop: taken
 * from this hub with its unwritten frames (written first: to its own
 * connection, or posted to its origin), the link's target changed under
 * its lock, the client and its message posted to the new target with the
 * mail of the link still in this loop's mailbox after it, in one step. */
static void move_now(Loop *L)
{
    HubClient *c = L->moving;
    Loop *to = &L->all[L->moving_to];
    Link *l = c->user;
    L->moving = NULL;
    Mail *m = mail_new(MAIL_MOVE, l, L->moving_msg, L->moving_len);
    free(L->moving_msg);
    L->moving_msg = NULL;
    if (!m) {
        close_client(c);
        return;
    }
    hub_release(L->hub, c, &m->moving);
    HubFrame *frames = m->moving.head;
    m->moving.head = NULL;
    if (l->in_remote) { /* its frames went with it: out of this loop's list */
        for (Link **p = &L->remote; *p; p = &(*p)->next_remote)
            if (*p == l) {
                *p = l->next_remote;
                break;
            }
        l->in_remote = 0;
        link_unref(l); /* the list's */
    }
    if (l->origin == L) {
        if (l->conn) { /* this hub's own frames, written here: the connection's now */
            l->conn->local = 0;
            conn_take_frames(l->conn, frames);
            conn_wake(L, l->conn);
        } else {
            frames_free(frames);
        }
    } else if (frames) {
        post_frames(l, frames, 0, NULL);
    }
    /* the client's reference passes to the mail */
    pthread_mutex_lock(&l->lock);
    l->target = to;
    l->client = NULL;
    l->close_sent = 0;
    /* this loop's mail for the link goes after it, posted with it in one
     * step: posted one by one, the new loop could take the move alone, go
     * back to its sockets and take the client's next message from its own
     * connection before the ones still on their way (a review found it) */
    pthread_mutex_lock(&L->lock);
    Mail *tail = m, *last = NULL;
    m->next = NULL;
    for (Mail **p = &L->head; *p;) {
        Mail *x = *p;
        if (x->link == l && (x->kind == MAIL_MESSAGE || x->kind == MAIL_GONE)) {
            *p = x->next;
            x->next = NULL;
            tail->next = x;
            tail = x;
        } else {
            last = x;
            p = &x->next;
        }
    }
    L->tail = last;
    pthread_mutex_unlock(&L->lock);
    post_chain(to, m, tail);
    pthread_mutex_unlock(&l->lock);
    link_unref(l); /* the client's, on this hub */
}

/* After a hub call: a move it asked for, and the hub's next wake-up. */
void link_after_hub(Loop *L)
{
    while (L->moving)
        move_now(L);
    link_reschedule(L);
}

/* A whole message from the connection: to its client's hub, here or on
 * another loop. */
static void deliver(Loop *L, Conn *conn, const char *msg, size_t len)
{
    Link *l = conn->link;
    pthread_mutex_lock(&l->lock);
    Loop *to = l->target;
    HubClient *c = to == L ? l->client : NULL;
    if (!c) {
        Mail *m = mail_new(MAIL_MESSAGE, l, msg, len);
        if (m)
            post(to, m);
        else if (!conn->close_code) { /* out of memory: it reconnects */
            conn->close_code = HUB_CLOSE_TRY_AGAIN;
            conn->close_reason = "server_error";
            conn_wake(L, conn);
        }
        pthread_mutex_unlock(&l->lock);
        return;
    }
    pthread_mutex_unlock(&l->lock);
    hub_receive(L->hub, c, msg, len, loop_now_ms());
    link_after_hub(L);
}

/* The connection went: its client leaves its hub, here or on another
 * loop; the connection's reference to the link goes. */
static void conn_gone(Loop *L, Conn *conn)
{
    Link *l = conn->link;
    conn->link = NULL;
    conn_drop_frames(conn);
    pthread_mutex_lock(&l->lock);
    l->conn = NULL;
    Loop *to = l->target;
    HubClient *c = to == L ? l->client : NULL;
    if (!c) {
        Mail *m = l->gone; /* made with the link: this cannot fail */
        l->gone = NULL;
        link_ref(l); /* the mail's */
        post(to, m);
        pthread_mutex_unlock(&l->lock);
        link_unref(l);
        return;
    }
    l->client = NULL;
    pthread_mutex_unlock(&l->lock);
    hub_disconnect(L->hub, c, loop_now_ms());
    link_unref(l); /* the client's */
    link_unref(l); /* the connection's */
    link_reschedule(L);
}

/* One mail, on its loop. */
static void handle(Loop *L, Mail *m)
{
    Link *l = m->link;
    switch (m->kind) {
    case MAIL_MESSAGE:
        if (l->client && l->target == L) {
            hub_receive(L->hub, l->client, m->data, m->len, loop_now_ms());
            link_after_hub(L);
        }
        break;
    case MAIL_MOVE: {
        HubClient *c = hub_adopt(L->hub, l, &m->moving, loop_now_ms());
        if (!c) {
            hub_disconnect_moving(L->hub, &m->moving, loop_now_ms());
            Mail *f = mail_new(MAIL_FRAMES, l, NULL, 0);
            if (f) {
                f->close_code = HUB_CLOSE_TRY_AGAIN;
                f->close_reason = "server_error";
                post(l->origin, f);
            }
            break;
        }
        link_ref(l); /* the client's, here */
        l->client = c;
        if (l->origin == L && l->conn) /* back on its own loop */
            l->conn->local = 1;
        hub_receive(L->hub, c, m->data, m->len, loop_now_ms());
        if (L->draining) /* the loop is on its way out: it is told too */
            hub_shutdown(L->hub);
        link_after_hub(L);
        break;
    }
    case MAIL_FRAMES:
        if (l->conn) {
            conn_take_frames(l->conn, m->frames);
            m->frames = NULL;
            if (m->close_code && !l->conn->close_code) {
                l->conn->close_code = m->close_code;
                l->conn->close_reason = m->close_reason;
            }
            conn_wake(L, l->conn);
        }
        break;
    case MAIL_GONE:
        if (l->client && l->target == L) {
            HubClient *c = l->client;
            l->client = NULL;
            hub_disconnect(L->hub, c, loop_now_ms());
            link_unref(l); /* the client's */
            link_reschedule(L);
        }
        break;
    default:
        break;
    }
    mail_free(m);
}

void link_on_mail(struct ev_loop *loop, ev_async *w, int revents)
{
    (void)revents;
    Loop *L = w->data;
    pthread_mutex_lock(&L->lock);
    int stop = L->stop;
    pthread_mutex_unlock(&L->lock);
    for (Mail *m; (m = take(L));)
        handle(L, m);
    if (stop && !L->draining)
        ev_break(loop, EVBREAK_ALL);
}

/* A message over the cap, or a binary one: the rest of it is not kept, and
 * the connection is closed with 1009 (1003) from the writable callback,
 * where lws sends the close frame and waits for the client's (closing at
 * once, with the message's rest unread, would reset the connection and
 * lose the close frame). */
int link_receive(struct lws *wsi, Conn *conn, const void *in, size_t len)
{
    Loop *L = conn->link->origin;
    const char *reason;
    if (close_asked(conn, &reason))
        return 0;
    if (lws_frame_is_binary(wsi)) { /* frames are text (docs/PROTOCOL.md) */
        fprintf(stderr, "serve: %s: binary frame: closed\n", conn->peer);
        conn_close(conn, CLOSE_UNSUPPORTED, "text_only");
        conn->in_len = 0;
        lws_callback_on_writable(wsi);
        return 0;
    }
    if (conn->in_len + len > HUB_MESSAGE_MAX) {
        fprintf(stderr, "serve: %s: message over %d bytes: closed\n", conn->peer,
                HUB_MESSAGE_MAX);
        conn_close(conn, HUB_CLOSE_TOO_BIG, "too_big");
        conn->in_len = 0;
        lws_callback_on_writable(wsi);
        return 0;
    }
    int whole = lws_is_final_fragment(wsi) && !lws_remaining_packet_payload(wsi);
    if (whole && !conn->in_len) { /* in one piece, as nearly always: read where lws has it */
        deliver(L, conn, in, len);
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
    deliver(L, conn, conn->in, conn->in_len);
    conn->in_len = 0;
    free(conn->in);
    conn->in = NULL;
    return 0;
}

int link_writable(struct lws *wsi, Conn *conn)
{
    if (conn->broken || write_queued(self, wsi, conn))
        return -1;
    if (has_frames(conn)) { /* lws holds part of one: the rest at the next */
        lws_callback_on_writable(wsi);
        return 0;
    }
    const char *reason;
    int code = close_asked(conn, &reason);
    if (code) {
        lws_close_reason(wsi, (enum lws_close_status)code, (unsigned char *)(uintptr_t)reason,
                         strlen(reason));
        return -1;
    }
    return 0;
}

/* A WebSocket is open: its link, and its client on this loop's hub. */
int link_open(Loop *L, struct lws *wsi, Conn *conn)
{
    conn->wsi = wsi;
    Link *l = mem_calloc(1, sizeof *l);
    if (!l)
        return -1;
    if (!(l->gone = mem_calloc(1, sizeof *l->gone)) || pthread_mutex_init(&l->lock, NULL)) {
        free(l->gone);
        free(l);
        return -1;
    }
    l->gone->kind = MAIL_GONE;
    l->gone->link = l;
    l->refs = 2; /* the connection's and the client's */
    l->origin = l->target = L;
    l->conn = conn;
    conn->link = l;
    conn->local = 1;
    if (!(l->client = hub_connect_from(L->hub, l, conn->peer, loop_now_ms()))) {
        conn->link = NULL;
        pthread_mutex_destroy(&l->lock);
        free(l->gone);
        free(l);
        return -1;
    }
    L->websockets++;
    fprintf(stderr, "serve: %s connected (%d clients)\n", conn->peer, hub_clients(L->hub));
    return 0;
}

void link_closed(Loop *L, Conn *conn)
{
    leave_out(L, conn);
    if (conn->link) {
        L->websockets--;
        conn_gone(L, conn);
        fprintf(stderr, "serve: %s disconnected (%d clients)\n", conn->peer, hub_clients(L->hub));
    }
    free(conn->in);
    conn->in = NULL;
}

void link_read_mail(Loop *L)
{
    for (Mail *m; (m = take(L));)
        handle(L, m);
}

void link_clear_mail(Loop *L)
{
    self = L;
    for (Mail *m; (m = take(L));) {
        if (m->kind == MAIL_MOVE) /* nobody to take it in */
            hub_disconnect_moving(L->hub, &m->moving, loop_now_ms());
        if (m->kind == MAIL_GONE) /* its client leaves (nothing is posted then) */
            handle(L, m);
        else /* a message nobody answers, frames nobody reads */
            mail_free(m);
    }
    while (L->remote) { /* frames nobody reads: the list's references */
        Link *l = L->remote;
        L->remote = l->next_remote;
        l->in_remote = 0;
        link_unref(l);
    }
}
