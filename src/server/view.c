/* view.c - what each member is sent. Every frame about a game is built
 * from the member's seat's view (LitView) and nothing else, so what a
 * client receives cannot depend on hands it may not see: this file is the
 * only one that makes a member's frames from a game in play.
 */
#include "room.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../mem/mem.h"
#include "../wire/wire.h"
#include "literature/status.h"

static json_t *seat_json(const Room *r, int s)
{
    const Seat *seat = &r->seats[s];
    json_t *j = json_pack("{s:i,s:s}", "seat", s + 1, "team", wire_team_name(lit_team_of(s)));
    if (seat->member >= 0) {
        const Member *m = &r->members[seat->member];
        json_object_set_new(j, "kind", json_string("human"));
        json_object_set_new(j, "name", json_string(m->name));
        json_object_set_new(j, "connected", json_boolean(m->client != NULL));
        json_object_set_new(j, "away", json_boolean(m->away));
        json_object_set_new(j, "host", json_boolean(seat->member == r->host));
    } else if (seat->bot) {
        char text[LIT_BOT_TEXT_MAX];
        lit_bot_spec_format(&seat->spec, text, sizeof text);
        json_object_set_new(j, "kind", json_string("bot"));
        json_object_set_new(j, "bot", json_string(text));
    } else {
        json_object_set_new(j, "kind", json_string("empty"));
    }
    return j;
}

/* Who holds the host role: its name, seat (null: a spectator) and whether
 * it is connected (a host gone keeps the role through its grace); null when
 * nobody does. */
static json_t *host_json(const Room *r)
{
    if (r->host < 0)
        return json_null();
    const Member *host = &r->members[r->host];
    return json_pack("{s:s,s:o,s:b}", "name", host->name, "seat",
                     host->seat == LIT_NOBODY ? json_null() : json_integer(host->seat + 1),
                     "connected", host->client != NULL);
}

/* The names of the spectators asking the host for a seat, in the order
 * they asked. */
static json_t *waiting_json(const Room *r)
{
    json_t *names = json_array();
    uint32_t after = 0;
    for (;;) {
        int next = -1;
        for (int m = 0; m < HUB_MEMBERS_MAX; m++) {
            const Member *mem = &r->members[m];
            if (mem->used && mem->asked > after &&
                (next < 0 || mem->asked < r->members[next].asked))
                next = m;
        }
        if (next < 0)
            return names;
        json_array_append_new(names, json_string(r->members[next].name));
        after = r->members[next].asked;
    }
}

/* The room as member m sees it (everything in it is public but "you"):
 * its options (option.c's table) among its state. */
static json_t *room_json(const Room *r, int m)
{
    json_t *seats = json_array(), *spectators = json_array();
    for (int s = 0; s < r->opt.rules.players; s++)
        json_array_append_new(seats, seat_json(r, s));
    for (int i = 0; i < HUB_MEMBERS_MAX; i++)
        if (r->members[i].used && r->members[i].seat == LIT_NOBODY)
            json_array_append_new(spectators, json_string(r->members[i].name));
    const Member *me = &r->members[m];
    json_t *j = json_pack("{s:s,s:i,s:s,s:s}", "type", "room", "seq", r->seq, "code", r->code,
                          "state", hub_save_state_name(r->state));
    if (j)
        hub_option_frame(r, j);
    json_t *rest = json_pack(
        "{s:o,s:o,s:i,s:b,s:{s:s,s:o,s:b,s:i}}", "seats", seats, "spectators", spectators,
        "games", r->games, "saved", r->hub->config.store && !r->unsaved, "you", "name", me->name,
        "seat", me->seat == LIT_NOBODY ? json_null() : json_integer(me->seat + 1), "host",
        m == r->host, "waits_left", HUB_WAITS - me->waits);
    if (!j || !rest) {
        json_decref(j);
        json_decref(rest);
        return NULL;
    }
    json_object_update_new(j, rest);
    json_object_set_new(j, "host", host_json(r));
    json_object_set_new(j, "waiting", waiting_json(r));
    return j;
}

/* Why the seat may not ask for each card it cannot, and may not ask each
 * seat it cannot: the referee's own statuses (lit_view_check), so a client
 * can say why without knowing a rule. When nothing can be asked for one
 * reason (not on turn, another phase), only "why". */
static void refusals_text(WireText *t, const LitView *v)
{
    const LitPublic *p = &v->pub;
    int deck = p->rules.deck, players = p->rules.players, me = v->seat;
    uint64_t askable = lit_askable(p, v->hand);
    unsigned targets = lit_targets(p, me);
    LitAction a = lit_action_make(LIT_ASK, me);
    /* the first opponent, one with cards when there is one */
    a.target = (uint8_t)(targets ? lit_lsb(targets) : (me + 1) % players);
    a.card = (uint8_t)(askable ? lit_lsb(askable) : 0);
    int st = lit_view_check(v, &a);
    wire_text_lit(t, "{\"why\":");
    if (st != LIT_OK && st != LIT_SET_CLAIMED && st != LIT_NO_BASE_CARD && st != LIT_OWN_CARD &&
        st != LIT_TARGET_EMPTY) {
        wire_text_name(t, lit_status_name(st));
        wire_text_raw(t, "}", 1);
        return;
    }
    wire_text_lit(t, "null,\"cards\":{");
    int8_t status[LIT_MAX_CARDS];
    lit_view_check_asks(v, a.target, status);
    for (int c = 0, n = 0; c < lit_deck_cards(deck); c++) {
        int cs = status[c];
        if (cs != LIT_OK && cs != LIT_TARGET_EMPTY) {
            if (n++)
                wire_text_raw(t, ",", 1);
            wire_text_name(t, lit_card_name(deck, c));
            wire_text_raw(t, ":", 1);
            wire_text_name(t, lit_status_name(cs));
        }
    }
    wire_text_lit(t, "},\"targets\":{");
    a.card = (uint8_t)(askable ? lit_lsb(askable) : 0);
    for (int s = 0, n = 0; s < players; s++) {
        if (s == me)
            continue;
        a.target = (uint8_t)s;
        int ts = lit_view_check(v, &a);
        if (ts == LIT_ASK_TEAMMATE || ts == LIT_TARGET_EMPTY) {
            wire_text_put(t, n++ ? ",\"" : "\"");
            wire_text_int(t, s + 1);
            wire_text_lit(t, "\":");
            wire_text_name(t, lit_status_name(ts));
        }
    }
    wire_text_lit(t, "}}");
}

/* What a seat may do now: its hand, its legal actions and the reasons for
 * the asks it may not make. From its view alone. */
static void you_text(WireText *t, const LitView *v)
{
    wire_text_lit(t, "{\"seat\":");
    wire_text_int(t, v->seat + 1);
    wire_text_lit(t, ",\"team\":");
    wire_text_name(t, wire_team_name(lit_team_of(v->seat)));
    wire_text_lit(t, ",\"hand\":");
    wire_text_cards(t, v->pub.rules.deck, v->hand);
    wire_text_raw(t, ",", 1);
    wire_text_legal(t, v);
    wire_text_lit(t, ",\"refused\":");
    refusals_text(t, v);
    wire_text_raw(t, "}", 1);
}

static void view_of(const Room *r, int seat, LitView *v)
{
    lit_view_make(v, &r->game, &r->log, seat);
}

/* Action i of the game as text: wire's event, with "stand_in" when the
 * basic bot made it for a player. */
static void event_text(WireText *t, const Room *r, const LitEvent *e, uint32_t i)
{
    wire_text_event_open(t, &r->opt.rules, e, i + 1);
    if (r->by[i]) {
        wire_text_lit(t, ",\"stand_in\":");
        wire_text_str(t, hub_save_stand_in(r->by[i])->name);
    }
    wire_text_raw(t, "}", 1);
}

json_t *hub_view_event_of(const Room *r, const LitEvent *e, uint32_t i)
{
    WireText t = {0};
    event_text(&t, r, e, i);
    return wire_text_json(&t);
}

static void clock_text(WireText *t, const Room *r)
{
    int64_t left = -1;
    if (r->state == ROOM_PLAYING && r->waiter >= 0)
        left = r->armed_by == BY_TIMEOUT ? r->held_ms : -1;
    else if (r->state == ROOM_PLAYING && r->armed_by == BY_TIMEOUT && r->wake_at != INT64_MAX)
        left = r->wake_at - r->hub->now;
    wire_text_lit(t, "{\"turn_ms\":");
    wire_text_int(t, r->opt.turn_ms);
    wire_text_lit(t, ",\"left_ms\":");
    if (left >= 0)
        wire_text_int(t, left);
    else
        wire_text_lit(t, "null");
    wire_text_lit(t, ",\"wait\":");
    if (r->waiter >= 0) {
        const Member *w = &r->members[r->waiter];
        wire_text_lit(t, "{\"seat\":");
        wire_text_int(t, w->seat + 1);
        wire_text_lit(t, ",\"name\":");
        wire_text_str(t, w->name);
        wire_text_lit(t, ",\"left_ms\":");
        wire_text_int(t, r->wait_until - r->hub->now);
        wire_text_raw(t, "}", 1);
    } else {
        wire_text_lit(t, "null");
    }
    wire_text_raw(t, "}", 1);
}

json_t *hub_view_clock(const Room *r)
{
    WireText t = {0};
    clock_text(&t, r);
    return wire_text_json(&t);
}

/* What ends every game, event and catchup frame, the one part of it that
 * differs from member to member: the member's own part ("you", null for a
 * spectator) and, once the game has ended, its result. Written as text
 * after the frame's shared part (its closing brace left off). */
static void seat_text(WireText *t, const Room *r, const Member *me)
{
    wire_text_lit(t, ",\"you\":");
    if (me->seat == LIT_NOBODY) {
        wire_text_lit(t, "null");
    } else {
        LitView v;
        view_of(r, me->seat, &v);
        you_text(t, &v);
    }
    if (r->game.pub.result != LIT_ONGOING) {
        wire_text_lit(t, ",\"result\":");
        wire_text_name(t, lit_result_name(r->game.pub.result));
        if (r->hub->config.store) { /* the record is downloaded from there */
            wire_text_lit(t, ",\"record\":\"/games/");
            wire_text_put(t, r->game_id);
            wire_text_lit(t, ".lit\"");
        }
    }
    wire_text_raw(t, "}", 1);
}

/* Member m is sent the shared part (a frame's object as text, its closing
 * brace left off) and its own (NULL: out of memory; the member is closed
 * with 1013 and resumes). */
static void send_seated(const Room *r, int m, const char *head, size_t len)
{
    HubClient *c = r->members[m].client;
    WireText *t = &r->hub->text;
    wire_text_reset(t);
    if (head)
        seat_text(t, r, &r->members[m]);
    if (!head || t->failed) {
        hub_send_forget(r->hub);
        hub_send_close(c, HUB_CLOSE_TRY_AGAIN, "server_error");
        return;
    }
    hub_send_parts(c, head, len, t->buf, t->len);
}

/* A frame's shared part as text, its closing brace left off, or NULL (out
 * of memory, now or while it was built). Takes head. */
static char *head_text(Hub *h, json_t *head, size_t *len)
{
    char *text = head && hub_send_whole(h) ? json_dumps(head, JSON_COMPACT) : NULL;
    json_decref(head);
    if (text && !hub_send_whole(h)) { /* a key dumped as nothing: not sent */
        free(text);
        text = NULL;
    }
    *len = text ? strlen(text) - 1 : 0;
    return text;
}

void hub_view_send_seated_to(const Room *r, int m, json_t *head)
{
    size_t len;
    char *text = head_text(r->hub, head, &len);
    send_seated(r, m, text, len);
    free(text);
}

/* The event frame's shared part as text, its closing brace left off:
 * 0, or -1 out of memory. */
static int event_head(WireText *t, const Room *r, uint32_t i, int by_bot)
{
    wire_text_reset(t);
    wire_text_lit(t, "{\"type\":\"event\",\"seq\":");
    wire_text_int(t, r->seq);
    wire_text_lit(t, ",\"event\":");
    event_text(t, r, &r->log.events[i], i);
    wire_text_lit(t, ",\"state\":");
    wire_text_state(t, &r->game.pub);
    wire_text_put(t, by_bot ? ",\"bot\":true,\"clock\":" : ",\"bot\":false,\"clock\":");
    clock_text(t, r);
    return t->failed ? -1 : 0;
}

void hub_view_broadcast_event(Room *r, uint32_t i, int by_bot)
{
    WireText *t = &r->hub->head;
    int shared = event_head(t, r, i, by_bot) == 0;
    for (int m = 0; m < HUB_MEMBERS_MAX; m++)
        if (r->members[m].used && r->members[m].client) {
            /* short of memory once: each member's is written on its own,
             * so one failure costs one member (tests/unit/test_faults.c) */
            int ok = shared || event_head(t, r, i, by_bot) == 0;
            send_seated(r, m, ok ? t->buf : NULL, t->len);
        }
}

json_t *hub_view_game(const Room *r)
{
    LitView v; /* the public one: the state and the history are everyone's */
    view_of(r, LIT_NOBODY, &v);
    char rules[LIT_RULES_TEXT_MAX];
    lit_rules_format(&r->opt.rules, rules, sizeof rules);
    json_t *history = json_array();
    for (uint32_t i = 0; i < v.history_len; i++)
        json_array_append_new(history, hub_view_event_of(r, &v.history[i], i));
    return json_pack("{s:s,s:i,s:i,s:s,s:s,s:i,s:o,s:o,s:o,s:o}", "type", "game", "seq", r->seq,
                     "game", r->games, "id", r->game_id, "rules", rules, "dealer", r->dealer + 1,
                     "sets", wire_sets(r->opt.rules.deck), "state", wire_state(&v.pub), "history",
                     history, "clock", hub_view_clock(r));
}

void hub_view_broadcast_game(Room *r)
{
    hub_save_mark(r);
    hub_listing_update(r);
    r->seq++;
    size_t len;
    char *text = head_text(r->hub, hub_view_game(r), &len);
    for (int m = 0; m < HUB_MEMBERS_MAX; m++)
        if (r->members[m].used && r->members[m].client) {
            if (text) /* short of memory once: each member's made on its own */
                send_seated(r, m, text, len);
            else
                hub_view_send_seated_to(r, m, hub_view_game(r));
        }
    free(text);
}

json_t *hub_view_clock_frame(const Room *r, int m)
{
    (void)m;
    return json_pack("{s:s,s:i,s:o}", "type", "clock", "seq", r->seq, "clock", hub_view_clock(r));
}

void hub_view_broadcast(Room *r, MemberFrame make)
{
    hub_save_mark(r);
    hub_listing_update(r);
    r->seq++;
    for (int m = 0; m < HUB_MEMBERS_MAX; m++)
        if (r->members[m].used && r->members[m].client)
            hub_send_json(r->members[m].client, make(r, m));
}

void hub_view_broadcast_room(Room *r)
{
    hub_view_broadcast(r, room_json);
}

void hub_view_joined(HubClient *c)
{
    Room *r = c->room;
    char link[32];
    snprintf(link, sizeof link, "/#room=%s", r->code);
    hub_send_json(c, json_pack("{s:s,s:s,s:s,s:s,s:s}", "type", "joined", "room", r->code, "token",
                               hub_room_member(c)->token, "link", link, "name",
                               hub_room_member(c)->name));
}

/* What member m missed of the game after seq `from`, having seen every
 * frame up to it: the events since, the state now (its own part is added
 * by send_seated). NULL when the hub cannot tell (a seq from before this
 * game or this server's start, or one it never sent): the whole game is
 * sent instead. */
static json_t *catchup_json(const Room *r, json_int_t from)
{
    if (!r->games || from < (json_int_t)r->base_seq || from > (json_int_t)r->seq)
        return NULL;
    LitView v;
    view_of(r, LIT_NOBODY, &v);
    json_t *events = json_array();
    for (uint32_t i = r->known_from; i < v.history_len; i++)
        if (r->event_seq[i] > from)
            json_array_append_new(events, hub_view_event_of(r, &v.history[i], i));
    return json_pack("{s:s,s:i,s:i,s:s,s:I,s:o,s:o,s:o}", "type", "catchup", "seq", r->seq,
                     "game", r->games, "id", r->game_id, "from", from, "events", events, "state",
                     wire_state(&v.pub), "clock", hub_view_clock(r));
}

void hub_view_catch_up(HubClient *c, json_int_t from)
{
    Room *r = c->room;
    hub_view_broadcast_room(r);
    if (!r->games)
        return;
    json_t *j = from >= 0 ? catchup_json(r, from) : NULL;
    hub_view_send_seated_to(r, c->member, j ? j : hub_view_game(r));
}

json_t *hub_view_sheet(Hub *h, LitKnow *k, int st, uint64_t seed, const char *type)
{
    LitOdds *o = mem_alloc(sizeof *o);
    if (!h->work)
        h->work = mem_map(LIT_ODDS_WORK);
    if (!k || !o || !h->work)
        st = LIT_NO_SPACE;
    if (st == LIT_OK) {
        memset(o, 0, sizeof *o);
        st = lit_odds(k, h->work, LIT_ODDS_WORK, o);
    }
    if (st == LIT_OK && !o->exact) {
        LitRng rng;
        lit_rng_seed(&rng, seed ? seed : hub_room_seed(h));
        st = lit_odds_estimate(k, &rng, AID_SAMPLES, h->work, LIT_ODDS_WORK, o);
    }
    json_t *j = st == LIT_OK ? wire_scoresheet(k, o) : NULL;
    if (j)
        json_object_set_new(j, "type", json_string(type));
    free(k);
    free(o);
    return j;
}

json_t *hub_view_aid(Hub *h, const Room *r, int seat)
{
    LitView v;
    view_of(r, seat, &v);
    LitKnow *k = mem_alloc(sizeof *k);
    return hub_view_sheet(h, k, k ? lit_know_from_view(k, &v) : LIT_NO_SPACE, 0, "aid");
}
