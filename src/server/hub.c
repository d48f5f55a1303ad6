/* hub.c - the hub's entry points (hub.h) and the handler table of the
 * online protocol (docs/PROTOCOL.md): a message is read, its type looked up
 * in the table, its keys and its needs checked from its row, and its
 * handler run (lobby.c, play.c, archive.c). A new message is one handler
 * and one row. The rest of the hub is in the files room.h lists.
 */
#include "room.h"

#include <assert.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "../mem/mem.h"
#include "../wire/wire.h"
#include "literature/status.h"

/* ---- the messages: one row each ------------------------------------------ */

/* What a message needs before its handler runs, checked in this order. */
enum {
    NEED_ROOM = 1, /* the client is a member of a room (not_in_room) */
    NEED_HOST = 2, /* ... its host (not_host) */
    NEED_IDLE = 4  /* ... and no game is being played (game_started) */
};

/* The keys a message takes besides its row's own. */
enum {
    TAKES_OPTIONS = 1, /* the room's options (option.c's table) */
    TAKES_ACTION = 2   /* an action's: its handler reads them with
                        * wire_read_action, which checks every key */
};

/* One row a message: everything the dispatcher needs to know of it. */
typedef struct Handler {
    const char *type;
    int (*run)(Hub *h, HubClient *c, json_t *msg);
    int need;            /* NEED_* */
    int takes;           /* TAKES_* */
    const char *keys[4]; /* the keys it takes besides "type" */
} Handler;

/* "ping": answered "pong", by which a client that has heard nothing for a
 * while learns whether its connection still carries frames. */
static int ping(Hub *h, HubClient *c, json_t *msg)
{
    (void)h;
    (void)msg;
    hub_send_json(c, json_pack("{s:s}", "type", "pong"));
    return 0;
}

static const Handler handlers[] = {
    {"ping", ping, 0, 0, {NULL}},
    {"create", hub_lobby_create, 0, TAKES_OPTIONS, {"name", NULL}},
    {"join", hub_lobby_join, 0, 0, {"room", "name", "seat", NULL}},
    {"resume", hub_lobby_resume, 0, 0, {"room", "token", "seq", NULL}},
    {"lobby", hub_lobby_list, 0, 0, {"page", NULL}},
    {"sit", hub_lobby_sit, NEED_ROOM, 0, {"seat", NULL}},
    {"stand", hub_lobby_stand, NEED_ROOM, 0, {NULL}},
    {"bot", hub_lobby_bot, NEED_ROOM | NEED_HOST | NEED_IDLE, 0, {"seat", NULL}},
    {"fill", hub_lobby_fill, NEED_ROOM | NEED_HOST | NEED_IDLE, 0, {NULL}},
    {"kick", hub_lobby_kick, NEED_ROOM | NEED_HOST, 0, {"seat", NULL}},
    {"shuffle", hub_lobby_shuffle, NEED_ROOM | NEED_HOST | NEED_IDLE, 0, {NULL}},
    {"start", hub_play_start, NEED_ROOM | NEED_HOST | NEED_IDLE, 0, {NULL}},
    {"act", hub_play_act, 0, TAKES_ACTION, {NULL}},
    {"aid", hub_play_aid, NEED_ROOM, 0, {NULL}},
    {"hint", hub_play_hint, NEED_ROOM, 0, {NULL}},
    {"chat", hub_lobby_chat, NEED_ROOM, 0, {"text", NULL}},
    {"wait", hub_play_wait, NEED_ROOM, 0, {NULL}},
    {"ready", hub_play_ready, NEED_ROOM, 0, {NULL}},
    {"request", hub_lobby_request, NEED_ROOM, 0, {"cancel", NULL}},
    {"give", hub_lobby_give, NEED_ROOM | NEED_HOST, 0, {"seat", "name", NULL}},
    {"leave", hub_lobby_leave, NEED_ROOM, 0, {NULL}},
    {"replay", hub_archive_replay, 0, 0, {"game", NULL}},
    {"sheet", hub_archive_sheet, 0, 0, {"game", "seat", "after", NULL}},
    {"review", hub_archive_review, 0, 0, {"game", "seat", NULL}},
};

/* The first key of the message its row does not take, or NULL (an
 * action's keys are its handler's to check). */
static const char *unknown_key(const Handler *hd, json_t *j)
{
    const char *key;
    json_t *value;
    if (hd->takes & TAKES_ACTION)
        return NULL;
    json_object_foreach(j, key, value) {
        (void)value;
        int known =
            strcmp(key, "type") == 0 || ((hd->takes & TAKES_OPTIONS) && hub_option_key(key));
        for (const char *const *k = hd->keys; !known && *k; k++)
            known = strcmp(*k, key) == 0;
        if (!known)
            return key;
    }
    return NULL;
}

/* The needs of a handler: 0, or -1 after answering. */
static int check_needs(HubClient *c, int need)
{
    Room *r = c->room;
    if ((need & NEED_ROOM) && !r)
        return hub_send_fail(c, E_NOT_IN_ROOM, NULL);
    if ((need & NEED_HOST) && r->host != c->member)
        return hub_send_fail(c, E_NOT_HOST, NULL);
    if ((need & NEED_IDLE) && r->state == ROOM_PLAYING)
        return hub_send_fail(c, E_GAME_STARTED, NULL);
    return 0;
}

void hub_receive(Hub *h, HubClient *c, const char *bytes, size_t len, int64_t now)
{
    h->now = now;
    hub_send_forget(h); /* what failed before is not this call's */
    if (c->close_code)
        return;
    /* 0. the rate */
    c->rate_before = c->rate_at;
    h->msg = bytes;
    h->msg_len = len;
    if (hub_limit_rate(h, c, now, 1)) {
        hub_send_fail(c, E_TOO_MANY_MESSAGES, NULL);
        if (++c->refused >= HUB_BURST)
            hub_send_close(c, HUB_CLOSE_POLICY, "too_many_messages");
        return;
    }
    c->refused = 0;
    /* 1. the bytes: capped before anything reads them */
    if (len > HUB_MESSAGE_MAX) {
        hub_send_fail(c, E_TOO_BIG, NULL);
        hub_send_close(c, HUB_CLOSE_TOO_BIG, "too_big");
        return;
    }
    json_error_t err;
    mem_scratch_start(h->scratch, sizeof h->scratch); /* the last message's, taken back */
    /* any JSON value: one that is no object is bad_message, not not_json */
    json_t *j = json_loadb(bytes, len, JSON_REJECT_DUPLICATES | JSON_DECODE_ANY, &err);
    mem_scratch_stop(); /* what the handler makes is its own */
    /* out of memory: not bad JSON; and a message parsed while an allocation
     * failed may have lost bytes (jansson's lexer drops what it cannot keep
     * of a string longer than 16 bytes: a game id; tests/unit/test_faults.c
     * found it), so it is not read */
    if (mem_failures() != h->failures) {
        json_decref(j);
        hub_send_fail(c, E_SERVER_ERROR, NULL);
        return;
    }
    if (!j) {
        char text[WIRE_WHY_MAX];
        snprintf(text, sizeof text, "%s at byte %d", err.text, err.position);
        hub_send_fail_text(c, E_NOT_JSON, text, NULL);
        return;
    }
    /* 2. the type, then the keys that type takes */
    const char *type = json_string_value(json_object_get(j, "type"));
    if (!json_is_object(j) || !type) {
        hub_send_fail_text(c, E_BAD_MESSAGE, "a message is an object with a string \"type\"", NULL);
        json_decref(j);
        return;
    }
    const Handler *hd = NULL;
    for (size_t i = 0; i < sizeof handlers / sizeof *handlers; i++)
        if (strcmp(handlers[i].type, type) == 0)
            hd = &handlers[i];
    if (!hd) {
        hub_send_fail(c, E_UNKNOWN_TYPE, NULL);
        json_decref(j);
        return;
    }
    const char *bad = unknown_key(hd, j);
    if (bad) {
        char text[WIRE_WHY_MAX];
        snprintf(text, sizeof text, "%s takes no key \"%.*s\"", type, wire_cut(bad, 64), bad);
        hub_send_fail_text(c, E_UNKNOWN_KEY, text, NULL);
        json_decref(j);
        return;
    }
    /* 3. who may send it now, then the message itself */
    if (check_needs(c, hd->need) == 0)
        hd->run(h, c, j);
    json_decref(j);
    hub_save_flush(h, now);
}

/* ---- the other entry points (hub.h) --------------------------------------- */

static void use_mem(void)
{
    json_set_alloc_funcs(mem_alloc, mem_free);
}

Hub *hub_new(const HubConfig *config)
{
    /* the JSON of frames and states through mem.h: its failures are seen
     * (once: it is jansson's global, and hubs may be made on threads) */
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, use_mem);
    Hub *h = mem_calloc(1, sizeof *h);
    if (!h)
        return NULL;
    h->config = *config;
    h->shared = config->shared;
    if (!h->shared) {
        if (!(h->shared = hub_shared_new())) {
            free(h);
            return NULL;
        }
        h->own_shared = 1;
    }
    return h;
}

void hub_free(Hub *h)
{
    if (!h)
        return;
    while (h->rooms)
        hub_room_close(h, h->rooms, 0);
    if (h->own_shared)
        hub_shared_free(h->shared);
    while (h->drops) {
        Drop *d = h->drops;
        h->drops = d->next;
        free(d);
    }
    free(h->due);
    wire_text_free(&h->text);
    wire_text_free(&h->head);
    while (h->spares) {
        HubFrame *f = h->spares;
        h->spares = f->next;
        free(f);
    }
    json_decref(h->catalogue);
    for (int i = 0; i < HUB_REVIEW_CACHE; i++)
        json_decref(h->kept[i].review);
    mem_unmap(h->work, LIT_ODDS_WORK);
    free(h);
}

/* The rules' words the welcome frame carries (docs/PROTOCOL.md): every
 * preset with its text and its options' values, every option with its
 * title and each value's sentence, all from the core's option table
 * (rules.c), so a client explains the rules from these and nowhere else.
 * Built at the first welcome and kept (it never changes); NULL when out of
 * memory (built again at the next). */
static json_t *catalogue(Hub *h)
{
    if (h->catalogue)
        return h->catalogue;
    unsigned long failures = mem_failures();
    json_t *presets = json_array(), *options = json_array();
    for (int p = 0; p < lit_rules_preset_count(); p++) {
        const char *name = lit_rules_preset_name(p);
        LitRules rules;
        lit_rules_preset(&rules, name, strlen(name));
        json_array_append_new(presets, json_pack("{s:s,s:s,s:o}", "name", name, "text",
                                                 lit_rules_preset_text(p), "options",
                                                 hub_option_rules(&rules)));
    }
    for (int i = 0; i < lit_rules_option_count(); i++) {
        json_t *values = json_array();
        for (int v = 0; v < lit_rules_option_values(i); v++)
            json_array_append_new(values,
                                  json_pack("{s:s,s:s}", "name", lit_rules_option_value_name(i, v),
                                            "text", lit_rules_option_value_text(i, v)));
        json_array_append_new(options, json_pack("{s:s,s:s,s:o}", "key", lit_rules_option_name(i),
                                                 "title", lit_rules_option_title(i), "values",
                                                 values));
    }
    json_t *j = json_pack("{s:o,s:o}", "presets", presets, "options", options);
    if (j && mem_failures() == failures)
        h->catalogue = j;
    else
        json_decref(j);
    return h->catalogue;
}

/* Links a new client in: the hub's list and count. */
static HubClient *client_new(Hub *h, void *user)
{
    HubClient *c = mem_calloc(1, sizeof *c);
    if (!c)
        return NULL;
    c->hub = h;
    c->user = user;
    c->next = h->clients;
    if (h->clients)
        h->clients->prev = c;
    h->clients = c;
    h->n_clients++;
    hub_limit_clients(h, 1);
    return c;
}

/* Unlinks and frees a client. */
static void client_free(Hub *h, HubClient *c)
{
    if (c->prev)
        c->prev->next = c->next;
    else
        h->clients = c->next;
    if (c->next)
        c->next->prev = c->prev;
    h->n_clients--;
    hub_limit_clients(h, -1);
    free(c);
}

HubClient *hub_connect(Hub *h, void *user, int64_t now)
{
    return hub_connect_from(h, user, NULL, now);
}

HubClient *hub_connect_from(Hub *h, void *user, const char *address, int64_t now)
{
    h->now = now;
    hub_send_forget(h);
    int over = 0;
    Address *a = NULL;
    if (address && !(a = hub_limit_connect(h, address, &over)))
        return NULL;
    HubClient *c = client_new(h, user);
    if (!c) {
        hub_limit_disconnect(h, a);
        return NULL;
    }
    c->address = a;
    if (over) {
        hub_send_fail(c, E_TOO_MANY_CONNECTIONS, NULL);
        hub_send_close(c, HUB_CLOSE_POLICY, "too_many_connections");
        return c;
    }
    json_t *rules = catalogue(h); /* NULL: out of memory, and so is the frame */
    hub_send_json(c, rules ? json_pack("{s:s,s:i,s:s,s:{s:i,s:i,s:i,s:i},s:O}", "type", "welcome",
                                       "protocol", HUB_PROTOCOL, "server",
                                       "literature " LIT_VERSION, "limits", "message_bytes",
                                       HUB_MESSAGE_MAX, "name_bytes", HUB_NAME_MAX, "id_bytes",
                                       HUB_ID_MAX, "members", HUB_MEMBERS_MAX, "rules", rules)
                           : NULL);
    return c;
}

void hub_disconnect(Hub *h, HubClient *c, int64_t now)
{
    Room *r = c->room;
    h->now = now;
    hub_send_forget(h); /* what failed before is not this call's */
    if (r && hub_room_member(c)->seat == LIT_NOBODY) {
        /* a spectator's place is not kept: strangers cannot fill a room
         * with memberships nobody uses */
        hub_room_member(c)->client = NULL;
        hub_lobby_remove(h, r, c->member, now);
    } else if (r) {
        Member *m = hub_room_member(c);
        m->client = NULL;
        m->gone_at = now; /* the grace period starts */
        if (r->waiter == c->member)
            hub_pace_end_wait(r, now);
        hub_room_host_passes(r, now); /* at once only with a grace of 0 */
        if (!hub_room_connected(r))
            hub_room_set_idle(h, r, now);
        hub_view_broadcast_room(r);
        hub_pace_arm(r, now);
    }
    hub_send_drop(c);
    hub_limit_disconnect(h, c->address);
    client_free(h, c);
    hub_save_flush(h, now);
}

void hub_release(Hub *h, HubClient *c, HubMoving *out)
{
    /* the message that moves it is read again there, and counted there;
     * its frames are freed plainly wherever they are written (a block
     * never goes back to this hub's spares from another thread) */
    for (HubFrame *f = c->head; f; f = f->next)
        f->spare = 0;
    *out = (HubMoving){c->address, c->rate_before, c->refused, c->head};
    c->head = c->tail = NULL;
    c->queued = 0;
    client_free(h, c);
}

HubClient *hub_adopt(Hub *h, void *user, const HubMoving *in, int64_t now)
{
    h->now = now;
    hub_send_forget(h);
    HubClient *c = client_new(h, user);
    if (c) {
        c->address = in->address;
        c->rate_at = in->rate_at;
        c->refused = in->refused;
    }
    return c;
}

void hub_disconnect_moving(Hub *h, HubMoving *m, int64_t now)
{
    h->now = now;
    hub_limit_disconnect(h, m->address);
    while (m->head) {
        HubFrame *f = m->head;
        m->head = f->next;
        hub_frame_free(f);
    }
}

void hub_shutdown(Hub *h)
{
    hub_send_forget(h);
    for (HubClient *c = h->clients; c; c = c->next) {
        hub_send_json(c, json_pack("{s:s,s:s}", "type", "closing", "text",
                                   "the server is stopping: reconnect in a moment"));
        hub_send_close(c, HUB_CLOSE_GOING_AWAY, "closing");
    }
}

void hub_tick(Hub *h, int64_t now)
{
    h->now = now;
    hub_send_forget(h); /* what failed before is not this call's */
    /* the rooms due, each once a tick: a room still due after its turn
     * (a pace of 0) is the next tick's, so one room cannot hold the others */
    uint64_t tick = ++h->ticks;
    for (Room *r; (r = hub_due_first(h)) && r->due <= now && r->ticked != tick;) {
        r->ticked = tick;
        if (r->idle_since >= 0 && now - r->idle_since >= ROOM_IDLE_MS) {
            hub_room_close(h, r, 1);
            continue;
        }
        /* each arms the room again; a room with nothing due is not looked at */
        if (r->waiter >= 0 && r->wait_until <= now)
            hub_pace_end_wait(r, now);
        if (r->grace_at <= now)
            hub_pace_stand_in(h, r, now);
        if (r->host_at <= now) {
            if (hub_room_host_passes(r, now))
                hub_view_broadcast_room(r);
            hub_pace_arm(r, now);
        }
        if (r->wake_at <= now) {
            hub_pace_move(h, r, now);
            hub_pace_arm(r, now); /* when hub_pace_move found nothing to move */
        }
        hub_due_update(r); /* hub_pace_move may set its wake_at alone */
    }
    hub_save_flush(h, now);
}

int64_t hub_next_wake(const Hub *h)
{
    const Room *first = hub_due_first(h);
    int64_t next = first ? first->due : INT64_MAX;
#ifndef NDEBUG
    /* the heap is the walk it replaced: checked in every debug build (the
     * sanitizers' suite), so a time changed without hub_due_update fails;
     * and so is a room's idleness, which its address's count of rooms
     * someone is in follows (hub_room_set_idle) */
    int64_t walk = INT64_MAX;
    for (const Room *r = h->rooms; r; r = r->next) {
        assert(r->due == hub_due_of(r));
        assert((r->idle_since < 0) == (hub_room_connected(r) > 0));
        assert(hub_listing_current(r));
        if (r->due < walk)
            walk = r->due;
    }
    assert(walk == next);
#endif
    if ((h->dirty || h->drops) && h->retry_at < next)
        next = h->retry_at;
    return next;
}

void hub_job_done(Hub *h, HubJob *j, int64_t now)
{
    h->now = now;
    hub_send_forget(h); /* what failed before is not this call's */
    if (j->kind == HUB_JOB_REVIEW || j->kind == HUB_JOB_HINT) {
        if (j->kind == HUB_JOB_REVIEW)
            hub_archive_done(h, j);
        else
            hub_play_hint_done(h, j);
        hub_job_free(j);
        hub_pace_hand_out_wanted(h, now); /* a place in the queue is free */
        hub_save_flush(h, now);
        return;
    }
    Room *r = hub_room_find(h, j->room);
    if (r && r->job_id == j->id) {
        r->job_id = 0;
        if (j->seq == r->game_seq) { /* kept until its move is due */
            hub_job_free(r->answer);
            r->answer = j;
            j = NULL;
        }
    } else {
        r = NULL; /* its room closed while it was out */
    }
    hub_job_free(j); /* dropped: the game has moved on, or its room is gone */
    hub_pace_hand_out_wanted(h, now);
    if (r)
        hub_pace_arm(r, now); /* its move at the pace; dropped: a job for the state now */
    hub_save_flush(h, now);
}

int hub_rooms(const Hub *h)
{
    return h->n_rooms;
}

int hub_clients(const Hub *h)
{
    return h->n_clients;
}
