/* lobby.c - the room's messages (docs/PROTOCOL.md): making, joining and
 * resuming a room, the lobby list, seats, bots, the host's moves, requests
 * for a seat, leaving, chat. One handler each, in hub.c's table.
 */
#include "room.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../mem/mem.h"
#include "literature/notation.h"
#include "literature/status.h"

/* Whether a room may be made from c's address now (limit.c counts it
 * then), or c is answered why not: the server is full, or the address has
 * as many rooms someone is connected to as it may (rooms nobody is
 * connected to, tabs closed, do not count, so a user can always make one
 * more; but they close only when idle for ROOM_IDLE_MS, so all the
 * address's rooms open are capped too, at HUB_ROOMS_KEPT times that). */
static int room_refused(Hub *h, HubClient *c)
{
    switch (hub_limit_room_made(h, c->address)) {
    case LIMIT_SERVER_FULL:
        return hub_send_fail(c, E_TOO_MANY_ROOMS, NULL);
    case LIMIT_OWN_KEPT:
        return hub_send_fail_text(c, E_TOO_MANY_OWN_ROOMS,
                                  "rooms made from your address are still open: a room nobody "
                                  "is connected to closes after 10 minutes",
                                  NULL);
    case LIMIT_OWN_LIVE:
        return hub_send_fail(c, E_TOO_MANY_OWN_ROOMS, NULL);
    default:
        return 0;
    }
}

int hub_lobby_create(Hub *h, HubClient *c, json_t *j)
{
    if (c->room)
        return hub_send_fail(c, E_IN_ROOM, NULL);
    const char *name = hub_field_name(c, j);
    if (!name)
        return -1;
    RoomOptions opt;
    if (hub_option_create(h, c, j, &opt))
        return -1;
    if (room_refused(h, c))
        return -1;

    /* counted: given back if it cannot be made (a room new: nobody was
     * connected to it, and its maker was counted) */
    Room *r = hub_room_new(h);
    if (!r || hub_room_new_code(h, r->code)) {
        free(r);
        hub_limit_room_gone(h, c->address, 1);
        return hub_send_fail(c, E_SERVER_ERROR, NULL);
    }
    r->opt = opt;
    Member *m = hub_room_add(h, r, c, name);
    if (!m || hub_room_open(h, r)) {
        c->room = NULL;
        free(r);
        hub_limit_room_gone(h, c->address, 1);
        return hub_send_fail(c, E_SERVER_ERROR, NULL);
    }
    m->seat = 0;
    r->seats[0].member = c->member;
    r->made_from = c->address; /* its maker is connected: counted live */
    char rules[LIT_RULES_TEXT_MAX];
    lit_rules_format(&r->opt.rules, rules, sizeof rules);
    r->number = hub_limit_number(h);
    hub_send_log(h, "room #%u created: %s, %s bots, %s (%d rooms)", r->number, rules,
                 lit_bot_kind_name(r->opt.bots.kind), r->opt.listed ? "public" : "private",
                 hub_limit_rooms(h));
    hub_view_joined(c);
    hub_view_catch_up(c, -1);
    hub_listing_update(c->room);
    return 0;
}

int hub_lobby_moves(Hub *h, HubClient *c, const char *code)
{
    int home = hub_home(code, h->config.hubs);
    if (!h->config.move || home == h->config.index)
        return 0;
    h->config.move(c, home, h->msg, h->msg_len, h->config.ctx);
    return 1;
}

int hub_lobby_join(Hub *h, HubClient *c, json_t *j)
{
    if (c->room)
        return hub_send_fail(c, E_IN_ROOM, NULL);
    const char *code = json_string_value(json_object_get(j, "room"));
    if (!code)
        return hub_send_fail_text(c, E_BAD_MESSAGE, "room must be a string", NULL);
    if (hub_lobby_moves(h, c, code))
        return 0;
    if (hub_limit_guessing(h, c))
        return hub_send_fail(c, E_TOO_MANY_GUESSES, NULL);
    Room *r = hub_room_find(h, code);
    if (!r) {
        hub_limit_guessed(h, c);
        return hub_send_fail(c, E_NO_ROOM, NULL);
    }
    const char *name = hub_field_name(c, j);
    if (!name)
        return -1;
    if (hub_room_name_taken(r, name))
        return hub_send_fail(c, E_NAME_TAKEN, NULL);
    int s = -1;
    if (json_object_get(j, "seat")) {
        if ((s = hub_field_seat(c, r, j)) < 0)
            return -1;
        int e = hub_room_seat_free(r, s);
        if (e)
            return hub_send_fail(c, (HubError)e, NULL);
    }
    if (!hub_room_add(h, r, c, name))
        return hub_send_fail(c, E_ROOM_FULL, NULL);
    hub_room_host_passes(r, h->now);
    if (s >= 0)
        hub_room_take_seat(r, c->member, s);
    hub_view_joined(c);
    hub_view_catch_up(c, -1);
    hub_listing_update(c->room);
    hub_pace_arm(r, h->now);
    return 0;
}

int hub_lobby_resume(Hub *h, HubClient *c, json_t *j)
{
    if (c->room)
        return hub_send_fail(c, E_IN_ROOM, NULL);
    const char *code = json_string_value(json_object_get(j, "room"));
    const char *token = json_string_value(json_object_get(j, "token"));
    json_int_t from = -1;
    if (!code || !token)
        return hub_send_fail_text(c, E_BAD_MESSAGE, "room and token must be strings", NULL);
    if (hub_lobby_moves(h, c, code))
        return 0;
    if (hub_field_int(j, "seq", &from) < 0 || from < -1)
        return hub_send_fail_text(c, E_BAD_MESSAGE, "seq must be a number, the last one seen",
                                  NULL);
    if (hub_limit_guessing(h, c))
        return hub_send_fail(c, E_TOO_MANY_GUESSES, NULL);
    Room *r = hub_room_find(h, code);
    if (!r) {
        hub_limit_guessed(h, c);
        return hub_send_fail(c, E_NO_ROOM, NULL);
    }
    int found = -1;
    for (int m = 0; m < HUB_MEMBERS_MAX; m++)
        if (r->members[m].used && hub_room_same_token(r->members[m].token, token))
            found = m;
    if (found < 0) {
        hub_limit_guessed(h, c);
        return hub_send_fail(c, E_BAD_TOKEN, NULL);
    }
    Member *mem = &r->members[found];
    if (mem->client) {
        /* the same member on another connection: the newer one wins */
        HubClient *old = mem->client;
        old->room = NULL;
        hub_send_fail(old, E_REPLACED, NULL);
        hub_send_close(old, HUB_CLOSE_NORMAL, "replaced");
    }
    mem->client = c;
    c->room = r;
    c->member = found;
    hub_room_set_idle(h, r, -1);
    if (mem->away) { /* back: the basic bot stops standing in */
        mem->away = 0;
        hub_send_log(h, "room #%u seat %d: its player is back", r->number, mem->seat + 1);
    }
    hub_room_host_passes(r, h->now);
    hub_view_joined(c);
    hub_view_catch_up(c, from);
    hub_listing_update(c->room);
    hub_pace_arm(r, h->now);
    return 0;
}

int hub_lobby_list(Hub *h, HubClient *c, json_t *msg)
{
    json_int_t page = 0;
    if (hub_field_int(msg, "page", &page) < 0)
        return hub_send_fail_text(c, E_BAD_MESSAGE, "page must be a number", NULL);
    if (page < 0)
        return hub_send_fail_text(c, E_BAD_VALUE, "page is 0 or more", NULL);
    /* every hub's rooms: the list they share (listing.c) */
    Listing page_of[HUB_LOBBY_PAGE];
    int total = 0;
    int n = hub_listing_page(h, page > INT32_MAX ? INT32_MAX : (int)page, page_of, &total);
    json_t *rooms = json_array();
    for (int i = 0; i < n; i++) {
        const Listing *e = &page_of[i];
        json_array_append_new(rooms, json_pack("{s:s,s:s,s:i,s:i,s:s,s:i,s:i}", "code", e->code,
                                               "rules", e->rules, "players", e->players, "seated",
                                               e->seated, "host", e->host, "turn_ms", e->turn_ms,
                                               "match_to", e->match_to));
    }
    hub_send_json(c, json_pack("{s:s,s:I,s:I,s:I,s:o}", "type", "lobby", "page", page, "pages",
                               (json_int_t)(total ? (total + HUB_LOBBY_PAGE - 1) / HUB_LOBBY_PAGE
                                                  : 1),
                               "total", (json_int_t)total, "rooms", rooms));
    return 0;
}

/* Member m sits at seat s, and the room is told; during a game (a seat its
 * player left) the member is sent the game from its seat. */
static void seat_member(Hub *h, Room *r, int m, int s)
{
    hub_room_take_seat(r, m, s);
    hub_view_broadcast_room(r);
    if (r->state == ROOM_PLAYING) {
        if (r->members[m].client)
            hub_view_send_seated_to(r, m, hub_view_game(r));
        hub_pace_arm(r, h->now);
    }
}

int hub_lobby_sit(Hub *h, HubClient *c, json_t *msg)
{
    Room *r = c->room;
    int s = hub_field_seat(c, r, msg);
    if (s < 0)
        return -1;
    if (r->state == ROOM_PLAYING && hub_room_member(c)->seat != LIT_NOBODY)
        return hub_send_fail(c, E_GAME_STARTED, NULL);
    int e = hub_room_seat_free(r, s);
    if (e == E_HOST_GIVES && r->host == c->member)
        e = 0; /* the host may give it, so it may take it */
    if (e)
        return hub_send_fail(c, (HubError)e, NULL);
    seat_member(h, r, c->member, s);
    return 0;
}

int hub_lobby_stand(Hub *h, HubClient *c, json_t *msg)
{
    (void)h, (void)msg;
    Room *r = c->room;
    Member *m = hub_room_member(c);
    if (m->seat == LIT_NOBODY)
        return hub_send_fail(c, E_NOT_SEATED, NULL);
    if (r->state == ROOM_PLAYING)
        return hub_send_fail(c, E_GAME_STARTED, NULL);
    r->seats[m->seat].member = -1;
    m->seat = LIT_NOBODY;
    hub_view_broadcast_room(r);
    return 0;
}

int hub_lobby_bot(Hub *h, HubClient *c, json_t *msg)
{
    Room *r = c->room;
    int s = hub_field_seat(c, r, msg);
    if (s < 0)
        return -1;
    if (r->seats[s].member >= 0 || r->seats[s].bot)
        return hub_send_fail(c, E_SEAT_TAKEN, NULL);
    if (hub_room_seat_bot(h, r, s, &r->opt.bots))
        return hub_send_fail(c, E_SERVER_ERROR, NULL);
    hub_view_broadcast_room(r);
    return 0;
}

int hub_lobby_fill(Hub *h, HubClient *c, json_t *msg)
{
    (void)msg;
    Room *r = c->room;
    for (int s = 0; s < r->opt.rules.players; s++)
        if (r->seats[s].member < 0 && !r->seats[s].bot && hub_room_seat_bot(h, r, s, &r->opt.bots))
            return hub_send_fail(c, E_SERVER_ERROR, NULL);
    hub_view_broadcast_room(r);
    return 0;
}

void hub_lobby_remove(Hub *h, Room *r, int m, int64_t now)
{
    Member *mem = &r->members[m];
    int s = mem->seat;
    if (s != LIT_NOBODY) {
        r->seats[s].member = -1;
        if (r->state == ROOM_PLAYING) {
            /* the basic bot (never a stronger one) keeps the seat; out of
             * memory, hub_pace_move makes its memory when it is to move */
            LitBotSpec basic = lit_bot_spec_default(LIT_BOT_BASIC);
            if (hub_room_seat_bot(h, r, s, &basic)) {
                r->seats[s].bot = 1;
                r->seats[s].spec = basic;
            }
            r->seats[s].vacated = 1;
        }
    }
    if (mem->client)
        mem->client->room = NULL;
    if (r->waiter == m)
        hub_pace_end_wait(r, now);
    memset(mem, 0, sizeof *mem);
    if (r->host == m)
        hub_room_pass_host(r);
    if (r->host < 0) {
        hub_room_close(h, r, 1);
        return;
    }
    if (!hub_room_connected(r) && r->idle_since < 0)
        hub_room_set_idle(h, r, now);
    hub_view_broadcast_room(r);
    hub_pace_arm(r, now);
}

int hub_lobby_kick(Hub *h, HubClient *c, json_t *msg)
{
    Room *r = c->room;
    int s = hub_field_seat(c, r, msg);
    if (s < 0)
        return -1;
    Seat *seat = &r->seats[s];
    if (seat->member == c->member)
        return hub_send_status(c, LIT_BAD_SEAT, NULL);
    if (seat->member >= 0) {
        HubClient *them = r->members[seat->member].client;
        if (them)
            hub_send_json(them, json_pack("{s:s,s:s}", "type", "kicked", "room", r->code));
        hub_lobby_remove(h, r, seat->member, h->now);
        return -1;
    }
    if (!seat->bot)
        return hub_send_fail(c, E_SEAT_EMPTY, NULL);
    if (r->state == ROOM_PLAYING)
        return hub_send_fail(c, E_GAME_STARTED, NULL);
    seat->bot = 0;
    hub_view_broadcast_room(r);
    return 0;
}

int hub_lobby_shuffle(Hub *h, HubClient *c, json_t *msg)
{
    (void)msg;
    Room *r = c->room;
    for (int s = r->opt.rules.players - 1; s > 0; s--) {
        uint32_t x;
        if (hub_room_random(h, &x, sizeof x))
            return hub_send_fail(c, E_SERVER_ERROR, NULL);
        int t = (int)(x % (uint32_t)(s + 1));
        Seat tmp = r->seats[s];
        r->seats[s] = r->seats[t];
        r->seats[t] = tmp;
    }
    for (int s = 0; s < r->opt.rules.players; s++)
        if (r->seats[s].member >= 0)
            r->members[r->seats[s].member].seat = (uint8_t)s;
    hub_view_broadcast_room(r);
    return 0;
}

int hub_lobby_chat(Hub *h, HubClient *c, json_t *msg)
{
    Room *r = c->room;
    Member *me = hub_room_member(c);
    if (!r->opt.chat)
        return hub_send_fail(c, E_CHAT_OFF, NULL);
    json_t *t = json_object_get(msg, "text");
    const char *text = json_string_value(t);
    if (!text)
        return hub_send_fail_text(c, E_BAD_MESSAGE, "text must be a string", NULL);
    size_t len = json_string_length(t);
    if (strlen(text) != len || lit_name_check_new(text, len, HUB_CHAT_MAX) != LIT_OK)
        return hub_send_fail(c, E_BAD_TEXT, NULL);
    int64_t *oldest = &me->chat_at[me->chat_next];
    if (me->chat_sent >= HUB_CHAT_BURST && h->now - *oldest < HUB_CHAT_WINDOW_MS)
        return hub_send_fail(c, E_TOO_FAST, NULL);
    *oldest = h->now;
    me->chat_next = (me->chat_next + 1) % HUB_CHAT_BURST;
    me->chat_sent++;
    for (int m = 0; m < HUB_MEMBERS_MAX; m++)
        if (r->members[m].used && r->members[m].client)
            hub_send_json(
                r->members[m].client,
                json_pack("{s:s,s:s,s:o,s:s}", "type", "chat", "from", me->name, "seat",
                          me->seat == LIT_NOBODY ? json_null() : json_integer(me->seat + 1), "text",
                          text));
    return 0;
}

int hub_lobby_request(Hub *h, HubClient *c, json_t *msg)
{
    (void)h;
    Room *r = c->room;
    Member *me = hub_room_member(c);
    json_t *cancel = json_object_get(msg, "cancel");
    if (cancel && !json_is_boolean(cancel))
        return hub_send_fail_text(c, E_BAD_MESSAGE, "cancel must be true or false", NULL);
    if (json_is_true(cancel)) {
        me->asked = 0;
    } else {
        if (me->seat != LIT_NOBODY)
            return hub_send_fail(c, E_ALREADY_SEATED, NULL);
        if (!me->asked)
            me->asked = ++r->asks;
    }
    hub_view_broadcast_room(r);
    return 0;
}

int hub_lobby_give(Hub *h, HubClient *c, json_t *msg)
{
    Room *r = c->room;
    int s = hub_field_seat(c, r, msg);
    if (s < 0)
        return -1;
    const char *name = hub_field_name(c, msg);
    if (!name)
        return -1;
    /* during a game only a seat its player left is given */
    if (r->state == ROOM_PLAYING && !r->seats[s].vacated)
        return hub_send_fail(c, E_GAME_STARTED, NULL);
    int e = hub_room_seat_free(r, s);
    if (e && e != E_HOST_GIVES)
        return hub_send_fail(c, (HubError)e, NULL);
    int to = -1;
    for (int m = 0; m < HUB_MEMBERS_MAX; m++)
        if (r->members[m].used && r->members[m].asked && r->members[m].seat == LIT_NOBODY &&
            strcmp(r->members[m].name, name) == 0)
            to = m;
    if (to < 0)
        return hub_send_fail(c, E_NO_REQUEST, NULL);
    seat_member(h, r, to, s);
    return 0;
}

int hub_lobby_leave(Hub *h, HubClient *c, json_t *msg)
{
    (void)msg;
    Room *r = c->room;
    hub_send_json(c, json_pack("{s:s,s:s}", "type", "left", "room", r->code));
    hub_lobby_remove(h, r, c->member, h->now);
    return 0;
}
