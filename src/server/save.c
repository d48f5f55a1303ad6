/* save.c - the store kept up to date: every change of a room is marked
 * and saved before the hub call that made it returns (hub_save_flush), with the
 * room's state (its options through option.c's table) and its game's
 * record; the names of the room's states and of the stand-ins, as the
 * store and the frames write them.
 */
#include "room.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../mem/mem.h"
#include "literature/notation.h"

/* The room's states (ROOM_*) by name, in the stored state and the room
 * frame. */
static const char *const state_names[] = {"lobby", "playing", "over"};

/* Who made an action (BY_*): the comment marks it in the record (lines_text
 * writes it, the record's reader reads it back as LitBy). */
static const StandIn stand_ins[BY_KINDS] = {
    [BY_SEAT] = {NULL, ""},
    [BY_TIMEOUT] = {"timeout", " ; timeout: the basic bot moved"},
    [BY_AWAY] = {"away", " ; away: the basic bot moved"},
    [LIT_BY_FALLBACK] = {"fallback", " ; fallback: the arena moved"}, /* never written here */
};

const char *hub_save_state_name(int state)
{
    return state_names[state == ROOM_LOBBY ? 0 : state == ROOM_PLAYING ? 1 : 2];
}

int hub_save_state_of(const char *name)
{
    for (int i = 0; i < (int)(sizeof state_names / sizeof *state_names); i++)
        if (strcmp(state_names[i], name) == 0)
            return i;
    return -1;
}

const StandIn *hub_save_stand_in(int by)
{
    return &stand_ins[by];
}

void hub_save_mark(Room *r)
{
    Hub *h = r->hub;
    if (!h->config.store || r->dirty)
        return;
    r->dirty = 1;
    r->dirty_next = h->dirty;
    h->dirty = r;
}

/* The room's state as the store keeps it: everything but the game (kept as
 * its record) and what a restart starts afresh (connections, bots' memory,
 * timers). Tokens are in it: the store is the server's, never a client's. */
static char *room_state(const Room *r)
{
    unsigned long failures = mem_failures();
    json_t *members = json_array(), *seats = json_array();
    for (int m = 0; m < HUB_MEMBERS_MAX; m++) {
        const Member *mem = &r->members[m];
        if (mem->used)
            json_array_append_new(
                members, json_pack("{s:i,s:s,s:o,s:s,s:s,s:I,s:I,s:i}", "i", m, "name",
                                   mem->name, "seat",
                                   mem->seat == LIT_NOBODY ? json_null()
                                                           : json_integer(mem->seat + 1),
                                   "token", mem->token, "last_id", mem->last_id, "last_seq",
                                   (json_int_t)mem->last_seq, "joined", (json_int_t)mem->joined,
                                   "waits", mem->waits));
    }
    for (int s = 0; s < r->opt.rules.players; s++) {
        const Seat *seat = &r->seats[s];
        char spec[LIT_BOT_TEXT_MAX];
        lit_bot_spec_format(&seat->spec, spec, sizeof spec);
        json_array_append_new(
            seats, json_pack("{s:o,s:o,s:b}", "member",
                             seat->member >= 0 ? json_integer(seat->member) : json_null(), "bot",
                             seat->bot ? json_string(spec) : json_null(), "vacated",
                             seat->vacated));
    }
    /* the options of version 1's first form, the room's counts, then the
     * options added after it (read as optional) */
    json_t *j = json_pack("{s:i}", "v", 1);
    if (j) {
        hub_option_store(r, j, 0);
        json_object_update_new(
            j, json_pack("{s:i,s:I,s:s,s:i,s:i,s:I,s:I,s:o,s:o}", "host", r->host, "joins",
                         (json_int_t)r->joins, "state", hub_save_state_name(r->state), "dealer",
                         r->dealer, "games", r->games, "seq", (json_int_t)r->seq, "game_seq",
                         (json_int_t)r->game_seq, "members", members, "seats", seats));
        hub_option_store(r, j, 1);
    } else {
        json_decref(members);
        json_decref(seats);
    }
    char *text = j ? json_dumps(j, JSON_COMPACT) : NULL;
    json_decref(j);
    if (mem_failures() != failures) { /* short of a member, a seat or a key */
        free(text);
        return NULL;
    }
    return text;
}

/* The game's record's header (malloc'd): the deal and names, and with whole
 * the result so far. NULL when out of memory. */
static char *record_text(Room *r, int whole)
{
    LitRecord rec;
    lit_record_init(&rec, r->events, NULL, LIT_MAX_ACTIONS);
    lit_record_set_game(&rec, &r->start, whole ? &r->game : &r->start);
    for (int s = 0; s < r->opt.rules.players; s++)
        memcpy(rec.names[s], r->names[s], sizeof rec.names[s]);
    /* not the room's code: a record is shared, a private room's code not */
    snprintf(rec.event, sizeof rec.event, "Online game %d", r->games);
    snprintf(rec.site, sizeof rec.site, "lit serve");
    rec.n_events = 0; /* the lines come from lines_text, with their marks */
    char *text = mem_alloc(LIT_RECORD_TEXT_MAX);
    int len = text ? lit_record_format(&rec, text, LIT_RECORD_TEXT_MAX) : -1;
    if (len < 0) {
        free(text);
        return NULL;
    }
    char *fit = mem_realloc(text, (size_t)len + 1);
    return fit ? fit : text;
}

/* The record's lines of actions from..end, each with its mark, after head
 * and a blank line (head NULL: the lines alone), malloc'd. */
static char *lines_text(const Room *r, uint32_t from, const char *head)
{
    char *text = NULL, line[LIT_LINE_MAX];
    size_t size = 0;
    FILE *f = open_memstream(&text, &size);
    if (!f)
        return NULL;
    if (head)
        fprintf(f, "%s\n", head);
    for (uint32_t i = from; i < r->log.len; i++)
        if (lit_event_format(&r->opt.rules, &r->log.events[i], (int)i + 1, line, sizeof line) >= 0)
            fprintf(f, "%s%s\n", line, stand_ins[r->by[i]].mark);
    if (fclose(f)) {
        free(text);
        return NULL;
    }
    return text;
}

void hub_save_ended(Room *r)
{
    r->unkept = 0;
    if (!r->hub->config.store)
        return;
    Ended *e = mem_calloc(1, sizeof *e);
    char *header = e ? record_text(r, 1) : NULL;
    if (header)
        e->record = lines_text(r, 0, header);
    free(header);
    hub_send_forget(r->hub);
    if (!e || !e->record) {
        free(e);
        hub_send_log(r->hub, "room #%u game %d: out of memory: its record is made later", r->number,
                     r->games);
        r->unkept = 1;
        return;
    }
    memcpy(e->id, r->game_id, sizeof e->id);
    snprintf(e->score, sizeof e->score, "%d-%d", r->game.pub.score[0], r->game.pub.score[1]);
    e->e = (StoreEnded){e->id,    r->games,  (int)r->log.len, lit_result_name(r->game.pub.result),
                        e->score, e->record, (int64_t)time(NULL)};
    e->next = r->ended;
    r->ended = e;
}

/* Saves the room in one transaction: 0, or -1. */
static int save_room(Hub *h, Room *r)
{
    if (r->unkept)
        hub_save_ended(r);
    if (r->unkept) {
        snprintf(h->config.store->error, STORE_ERROR_MAX, "out of memory");
        return -1;
    }
    int n_ended = 0;
    for (Ended *e = r->ended; e; e = e->next)
        n_ended++;
    StoreEnded *ended = mem_calloc((size_t)n_ended + 1, sizeof *ended);
    char *state = room_state(r);
    char *header = r->games && !r->header_saved ? record_text(r, 0) : NULL;
    char *lines = r->games ? lines_text(r, r->lines_saved, NULL) : NULL;
    int st = STORE_FAILED;
    if (ended && state && (!r->games || ((header || r->header_saved) && lines))) {
        int i = n_ended;
        for (Ended *e = r->ended; e; e = e->next) /* oldest first */
            ended[--i] = e->e;
        StoreSave sv = {r->code, state, r->games ? r->game_id : NULL, r->games, header,
                        r->lines_saved, lines, ended, n_ended};
        st = store_save(h->config.store, &sv);
    } else {
        snprintf(h->config.store->error, STORE_ERROR_MAX, "out of memory");
    }
    if (st == STORE_OK) {
        r->header_saved = r->games > 0;
        r->lines_saved = r->log.len;
        while (r->ended) {
            Ended *e = r->ended;
            r->ended = e->next;
            free(e->record);
            free(e);
        }
    }
    free(ended);
    free(state);
    free(header);
    free(lines);
    return st == STORE_OK ? 0 : -1;
}

/* Tells the room's members when its saves start failing and when they work
 * again. */
static void tell_saved(Room *r, int saved)
{
    if (r->unsaved == !saved)
        return;
    r->unsaved = !saved;
    for (int m = 0; m < HUB_MEMBERS_MAX; m++)
        if (r->members[m].used && r->members[m].client)
            hub_send_json(r->members[m].client,
                          json_pack("{s:s,s:b,s:s}", "type", "saved", "saved", saved, "text",
                                    saved ? "the room is saved again"
                                          : "the server cannot save this room now: the game goes "
                                            "on, and it keeps trying"));
}

void hub_save_flush(Hub *h, int64_t now)
{
    Store *st = h->config.store;
    if (!st || (!h->dirty && !h->drops))
        return;
    int failed = h->retry_ms && now < h->retry_at;
    while (!failed && h->drops) {
        Drop *d = h->drops;
        if (store_drop(st, d->code) != STORE_OK) {
            hub_send_forget(h);
            failed = 1;
            break;
        }
        h->drops = d->next;
        free(d);
    }
    for (Room **p = &h->dirty; *p;) {
        Room *r = *p;
        int saved = !failed && save_room(h, r) == 0;
        hub_send_forget(h); /* a failed save is told, and tried again */
        if (saved) {
            *p = r->dirty_next;
            r->dirty = 0;
            tell_saved(r, 1);
        } else {
            failed = 1;
            tell_saved(r, 0);
            p = &r->dirty_next;
        }
    }
    if (failed && !(h->retry_ms && now < h->retry_at)) {
        int first = h->config.retry_ms > 0 ? h->config.retry_ms : HUB_RETRY_MS;
        h->retry_ms = h->retry_ms ? h->retry_ms * 2 : first;
        if (h->retry_ms > HUB_RETRY_MAX_MS)
            h->retry_ms = HUB_RETRY_MAX_MS;
        h->retry_at = now + h->retry_ms;
        hub_send_log(h, "store: %s: trying again in %d ms", store_error(st), h->retry_ms);
    } else if (!failed && h->retry_ms) {
        h->retry_ms = 0;
        hub_send_log(h, "store: saving again");
    }
}

void hub_save_forget(Hub *h, Room *r)
{
    Store *st = h->config.store;
    if (!st)
        return;
    if (r->dirty && save_room(h, r))
        hub_send_log(h, "room #%u closed unsaved: %s", r->number, store_error(st));
    if (store_drop(st, r->code) == STORE_OK)
        return;
    Drop *d = mem_calloc(1, sizeof *d);
    if (d) {
        memcpy(d->code, r->code, sizeof d->code);
        d->next = h->drops;
        h->drops = d;
    }
}
