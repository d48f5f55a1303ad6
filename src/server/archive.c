/* archive.c - finished games (docs/PROTOCOL.md): replay, sheet and review,
 * for any client, in a room or not. One handler each, in hub.c's table.
 */
#include "room.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../mem/mem.h"
#include "../wire/review_json.h"
#include "../wire/wire.h"
#include "literature/notation.h"
#include "literature/status.h"

/* ---- finished games: replay, sheet, review (docs/PROTOCOL.md) ------------
 *
 * A game's record is public once the game has ended (anyone with its id:
 * the link /#game=ID), and private before (its header holds the deal): the
 * store says which (store_record: STORE_UNFINISHED while it is played), as
 * for GET /games/ID.lit. These messages are for any client, in a room or
 * not; each counts HUB_HEAVY messages against the rate. Reading and
 * replaying a record takes microseconds, and so do the replay's frame and a
 * sheet at 4 to 8 players (exact counting of one position, as the aid); a
 * review plays the expert at every decision of the seat (seconds): it is a
 * job (HubJob) on the worker, at most one a client and HUB_REVIEWS_OUT in
 * all, and the last HUB_REVIEW_CACHE are kept. */

/* A finished game read from the store and replayed by the referee. */
typedef struct Finished {
    char id[HUB_GAME_ID_LEN + 1];
    char *text;                    /* the record (store_record's) */
    LitRecord rec;                 /* its events point into events */
    LitGame start;                 /* the deal */
    LitEvent *events;              /* LIT_RECORD_MAX_EVENTS: the record's */
    uint8_t *by;                   /* LIT_RECORD_MAX_EVENTS: their marks (BY_*) */
    LitEvent *applied;             /* rec.n_events: as the referee gave them */
} Finished;

static void finished_free(Finished *f)
{
    free(f->text);
    free(f->events);
    free(f->by);
    free(f->applied);
}

/* The game id of the message's "game": 0 and id set, or -1 after answering
 * (bad_game: not 16 characters of the codes' alphabet). */
static int game_field(HubClient *c, json_t *j, char id[HUB_GAME_ID_LEN + 1])
{
    json_t *v = json_object_get(j, "game");
    const char *s = json_string_value(v);
    if (!s || json_string_length(v) != HUB_GAME_ID_LEN || !hub_room_is_code(s, HUB_GAME_ID_LEN))
        return hub_send_fail(c, E_BAD_GAME, NULL);
    memcpy(id, s, HUB_GAME_ID_LEN + 1);
    return 0;
}

/* Whether the client may ask for a heavy message now: HUB_HEAVY messages
 * against its rate, the one hub_receive counted among them. 0, or -1 after
 * answering too_many_messages. */
static int heavy(Hub *h, HubClient *c, int64_t now)
{
    if (hub_limit_rate(h, c, now, HUB_HEAVY - 1))
        return hub_send_fail(c, E_TOO_MANY_MESSAGES, NULL);
    return 0;
}

/* Reads the finished game id into f: 0, or -1 after answering
 * (no_records, no_game, unfinished, store_error, server_error). */
static int read_finished(Hub *h, HubClient *c, const char *id, Finished *f)
{
    memset(f, 0, sizeof *f);
    memcpy(f->id, id, sizeof f->id);
    if (!h->config.store)
        return hub_send_fail(c, E_NO_RECORDS, NULL);
    size_t len = 0;
    int st = store_record(h->config.store, id, &f->text, &len);
    if (st == STORE_NOT_FOUND)
        return hub_send_fail_text(c, E_NO_GAME, "no game has that id", NULL);
    if (st == STORE_UNFINISHED)
        return hub_send_fail(c, E_UNFINISHED, NULL);
    if (st != STORE_OK && mem_failures() != h->failures) /* out of memory */
        return hub_send_fail(c, E_SERVER_ERROR, NULL);
    if (st != STORE_OK) {
        hub_send_log(h, "store: a record: %s", store_error(h->config.store));
        return hub_send_fail(c, E_STORE_ERROR, NULL);
    }
    f->events = mem_alloc(LIT_RECORD_MAX_EVENTS * sizeof *f->events);
    f->by = mem_alloc(LIT_RECORD_MAX_EVENTS);
    if (!f->events || !f->by) {
        finished_free(f);
        return hub_send_fail(c, E_SERVER_ERROR, NULL);
    }
    lit_record_init(&f->rec, f->events, NULL, LIT_RECORD_MAX_EVENTS);
    f->rec.by = f->by;
    LitReplay rp;
    st = lit_record_parse(&f->rec, f->text, len, NULL);
    if (st == LIT_OK)
        st = lit_replay_start(&rp, &f->rec);
    if (st == LIT_OK && !rp.known)
        st = LIT_BAD_DEAL;
    if (st == LIT_OK)
        f->start = rp.game;
    f->applied = st == LIT_OK ? mem_alloc((f->rec.n_events + 1) * sizeof *f->applied) : NULL;
    if (st == LIT_OK && !f->applied)
        st = LIT_NO_SPACE;
    for (uint32_t i = 0; st == LIT_OK && i < f->rec.n_events; i++)
        st = lit_replay_step(&rp, &f->events[i], &f->applied[i]);
    if (st != LIT_OK) { /* a record the server wrote that does not replay */
        hub_send_log(h, "store: a record does not replay: %s", lit_status_name(st));
        finished_free(f);
        return hub_send_fail(c, E_SERVER_ERROR, NULL);
    }
    return 0;
}

/* A seat field of a finished game (1-based): 0-based, or -1 after
 * answering (bad_message, bad_seat). */
static int game_seat(HubClient *c, const Finished *f, json_t *j)
{
    json_int_t s = 0;
    if (hub_field_int(j, "seat", &s) != 0)
        return hub_send_fail_text(c, E_BAD_MESSAGE, "seat must be a number", NULL);
    if (s < 1 || s > f->rec.rules.players)
        return hub_send_status(c, LIT_BAD_SEAT, NULL);
    return (int)(s - 1);
}

/* Step k of the replay: the event that led to it (null for the deal), the
 * public state and every hand. */
static json_t *step_json(const Finished *f, const LitGame *g, uint32_t k)
{
    json_t *event = json_null();
    if (k > 0) {
        event = wire_event(&f->rec.rules, &f->applied[k - 1], k);
        if (event && f->by[k - 1])
            json_object_set_new(event, "stand_in",
                                json_string(hub_save_stand_in(f->by[k - 1])->name));
    }
    json_t *hands = json_array();
    for (int s = 0; s < f->rec.rules.players; s++)
        json_array_append_new(hands, wire_cards(f->rec.rules.deck, g->hands[s]));
    return json_pack("{s:o,s:o,s:o}", "event", event, "state", wire_state(&g->pub), "hands",
                     hands);
}

int hub_archive_replay(Hub *h, HubClient *c, json_t *msg)
{
    char id[HUB_GAME_ID_LEN + 1];
    Finished f;
    if (game_field(c, msg, id) || heavy(h, c, h->now) || read_finished(h, c, id, &f))
        return -1;
    if (f.rec.n_events > HUB_REPLAY_ACTIONS) { /* its frame would not fit a client's queue */
        finished_free(&f);
        return hub_send_fail(c, E_TOO_LONG, NULL);
    }
    LitGame g = f.start;
    json_t *steps = json_array(), *names = json_array(), *bots = json_array();
    for (uint32_t k = 0; k <= f.rec.n_events; k++) {
        if (k > 0) /* replayed before: the referee takes it again */
            lit_game_apply(&g, &f.applied[k - 1].action, NULL);
        json_array_append_new(steps, step_json(&f, &g, k));
    }
    for (int s = 0; s < f.rec.rules.players; s++) {
        /* a bot's seat is named by its level, which no person may take
         * (hub_field_name) */
        LitBotSpec spec;
        const char *name = f.rec.names[s];
        json_array_append_new(names, name[0] ? json_string(name) : json_null());
        json_array_append_new(bots, json_boolean(lit_bot_spec_parse(&spec, name, strlen(name)) ==
                                                 LIT_OK));
    }
    char rules[LIT_RULES_TEXT_MAX];
    lit_rules_format(&f.rec.rules, rules, sizeof rules);
    hub_send_json(c, json_pack("{s:s,s:s,s:s,s:i,s:o,s:o,s:i,s:o,s:s,s:o}", "type", "replay",
                               "game", id, "rules", rules, "players", f.rec.rules.players, "names",
                               names, "bots", bots,
                               "dealer", f.rec.dealer + 1, "sets", wire_sets(f.rec.rules.deck),
                               "result", lit_result_name(f.rec.result), "steps", steps));
    finished_free(&f);
    return 0;
}

int hub_archive_sheet(Hub *h, HubClient *c, json_t *msg)
{
    char id[HUB_GAME_ID_LEN + 1];
    Finished f;
    json_int_t after = 0;
    if (game_field(c, msg, id) || heavy(h, c, h->now))
        return -1;
    if (hub_field_int(msg, "after", &after) != 0)
        return hub_send_fail_text(c, E_BAD_MESSAGE, "after must be a number", NULL);
    if (read_finished(h, c, id, &f))
        return -1;
    int seat = game_seat(c, &f, msg);
    if (seat >= 0 && (after < 0 || after > (json_int_t)f.rec.n_events)) {
        char text[WIRE_WHY_MAX];
        snprintf(text, sizeof text, "after is 0 to %u: the game's actions", f.rec.n_events);
        seat = hub_send_fail_text(c, E_BAD_STEP, text, NULL);
    }
    if (seat < 0) {
        finished_free(&f);
        return -1;
    }
    LitKnow *k = mem_alloc(sizeof *k);
    int st = k ? lit_know_start(k, &f.start.pub.rules, f.start.pub.dealer, seat,
                                f.start.hands[seat])
               : LIT_NO_SPACE;
    for (json_int_t i = 0; st == LIT_OK && i < after; i++)
        st = lit_know_apply(k, &f.applied[i]);
    json_t *j = hub_view_sheet(h, k, st, 1, "sheet");
    finished_free(&f);
    if (!j)
        return hub_send_fail(c, E_SERVER_ERROR, NULL);
    json_object_set_new(j, "game", json_string(id));
    hub_send_json(c, j);
    return 0;
}

/* The review frame of a kept review, or NULL. */
static json_t *review_frame(const char *id, int seat, json_t *review)
{
    return json_pack("{s:s,s:s,s:i,s:O}", "type", "review", "game", id, "seat", seat + 1,
                     "review", review);
}

static KeptReview *kept_review(Hub *h, const char *id, int seat)
{
    for (int i = 0; i < HUB_REVIEW_CACHE; i++)
        if (h->kept[i].review && h->kept[i].seat == seat && strcmp(h->kept[i].game, id) == 0)
            return &h->kept[i];
    return NULL;
}

void hub_archive_done(Hub *h, HubJob *j)
{
    ReviewJob *rv = j->review;
    HubClient *c = h->clients;
    while (c && c->review != j->id)
        c = c->next;
    hub_limit_review_done(h);
    if (c)
        c->review = 0;
    json_t *review = NULL;
    if (rv->status >= 0) {
        review = wire_review(&rv->start.pub.rules, rv->seat, &rv->options, rv->decisions,
                             (uint32_t)rv->status, &rv->summary);
        if (review && !hub_send_whole(h)) { /* short: neither sent nor kept */
            json_decref(review);
            review = NULL;
        }
    } else {
        hub_send_log(h, "a review of seat %d: %s", rv->seat + 1, lit_status_name(rv->status));
    }
    if (review && !kept_review(h, rv->game, rv->seat)) {
        KeptReview *k = &h->kept[h->kept_next];
        h->kept_next = (h->kept_next + 1) % HUB_REVIEW_CACHE;
        json_decref(k->review);
        memcpy(k->game, rv->game, sizeof k->game);
        k->seat = rv->seat;
        k->review = json_incref(review);
    }
    if (c && review)
        hub_send_json(c, review_frame(rv->game, rv->seat, review));
    else if (c)
        hub_send_fail(c, E_SERVER_ERROR, NULL);
    json_decref(review);
}

int hub_archive_review(Hub *h, HubClient *c, json_t *msg)
{
    char id[HUB_GAME_ID_LEN + 1];
    json_int_t s = 0;
    if (game_field(c, msg, id) || heavy(h, c, h->now))
        return -1;
    if (hub_field_int(msg, "seat", &s) != 0)
        return hub_send_fail_text(c, E_BAD_MESSAGE, "seat must be a number", NULL);
    KeptReview *kept = s >= 1 && s <= LIT_MAX_PLAYERS ? kept_review(h, id, (int)s - 1) : NULL;
    if (kept) {
        hub_send_json(c, review_frame(id, kept->seat, kept->review));
        return 0;
    }
    if (!h->config.post)
        return hub_send_fail(c, E_REVIEW_NOT_OFFERED, NULL);
    if (c->review)
        return hub_send_fail(c, E_BUSY, NULL);
    Finished f;
    if (read_finished(h, c, id, &f))
        return -1;
    int seat = game_seat(c, &f, msg);
    if (seat < 0) {
        finished_free(&f);
        return -1;
    }
    if (!hub_limit_review_take(h)) {
        finished_free(&f);
        return hub_send_fail_text(
            c, E_BUSY, "the server is making other reviews: ask again in a moment", NULL);
    }
    HubJob *j = mem_calloc(1, sizeof *j);
    ReviewJob *rv = mem_calloc(1, sizeof *rv);
    uint32_t n = f.rec.n_events ? f.rec.n_events : 1;
    if (j && rv) {
        rv->events = mem_alloc(n * sizeof *rv->events);
        rv->by = mem_alloc(n);
        rv->decisions = mem_alloc(n * sizeof *rv->decisions);
    }
    if (!j || !rv || !rv->events || !rv->by || !rv->decisions) {
        if (rv) {
            free(rv->events);
            free(rv->by);
            free(rv->decisions);
        }
        free(rv);
        free(j);
        finished_free(&f);
        hub_limit_review_done(h);
        return hub_send_fail(c, E_SERVER_ERROR, NULL);
    }
    j->id = ++h->jobs;
    j->kind = HUB_JOB_REVIEW;
    j->review = rv;
    memcpy(rv->game, id, sizeof rv->game);
    rv->seat = seat;
    rv->start = f.start;
    rv->options = lit_review_defaults();
    rv->n_events = f.rec.n_events;
    rv->status = LIT_NO_SPACE; /* until it runs */
    memcpy(rv->events, f.applied, f.rec.n_events * sizeof *rv->events);
    memcpy(rv->by, f.by, f.rec.n_events); /* a stand-in's action is no decision of the seat */
    rv->options.by = rv->by;
    finished_free(&f);
    if (h->config.post(j, h->config.ctx)) {
        hub_job_free(j);
        hub_limit_review_done(h);
        return hub_send_fail_text(
            c, E_BUSY, "the server is making other reviews: ask again in a moment", NULL);
    }
    c->review = j->id;
    return 0;
}
