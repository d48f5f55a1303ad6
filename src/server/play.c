/* play.c - the game's messages (docs/PROTOCOL.md): starting a game, an
 * action (ask, claim, pass, choose), the scoresheet aid, wait and ready.
 * One handler each, in hub.c's table.
 */
#include "room.h"

#include <jansson.h>
#include <stdio.h>
#include <string.h>

#include "../mem/mem.h"
#include "../wire/wire.h"
#include "literature/status.h"

/* The team that starts the next game of a match: the last game's loser,
 * or after a draw (or a game the server ended) the team that did not
 * start it. */
static int next_starters(const Room *r)
{
    int result = r->game.pub.result;
    if (result == LIT_WIN_A || result == LIT_WIN_B)
        return result == LIT_WIN_A ? 1 : 0;
    return !lit_team_of(r->start.pub.turn);
}

int hub_play_start(Hub *h, HubClient *c, json_t *msg)
{
    (void)msg;
    Room *r = c->room;
    int players = 0;
    for (int s = 0; s < r->opt.rules.players; s++) {
        if (r->seats[s].member < 0 && !r->seats[s].bot)
            return hub_send_fail(c, E_SEATS_EMPTY, NULL);
        /* a seated member counts while connected: a player gone from its
         * seat is played by the basic bot from the first move (a grace of
         * 0), so its game is one of bots */
        players += r->seats[s].member >= 0 && r->members[r->seats[s].member].client;
    }
    /* every game is kept in the store: games with no player connected are
     * paced per address, or a script could fill the disk (issue 27) */
    if (!players && !hub_limit_bot_game(h, c))
        return hub_send_fail(c, E_TOO_MANY_BOT_GAMES, NULL);
    /* a match won: the next game starts a new one */
    int new_match =
        r->opt.match_to && (r->wins[0] >= r->opt.match_to || r->wins[1] >= r->opt.match_to);
    /* the first game is dealt by seat 1; each next one by the seat to the
     * last dealer's left. In a match the team that lost starts the next
     * game, and after a draw the team that did not start it (002; RULES.md,
     * "Outside the engine"): the deal then passes one seat further. */
    int dealer = r->games ? (r->dealer + 1) % r->opt.rules.players : 0;
    int starts = r->opt.match_to && r->games && !new_match ? next_starters(r) : -1;
    LitGame game;
    int st = LIT_OK;
    for (int tries = 0; tries < 2; tries++) {
        if (h->config.deal) {
            uint64_t hands[LIT_MAX_PLAYERS] = {0};
            h->config.deal(hands, r->opt.rules.players, dealer, h->config.ctx);
            st = lit_game_from_deal(&game, &r->opt.rules, hands, dealer);
        } else {
            st = lit_game_new(&game, &r->opt.rules, hub_room_seed(h), dealer);
        }
        if (st != LIT_OK || starts < 0 || lit_team_of(game.pub.turn) == starts)
            break;
        dealer = (dealer + 1) % r->opt.rules.players;
    }
    if (st != LIT_OK)
        return hub_send_status(c, st, NULL);
    char id[HUB_GAME_ID_LEN + 1];
    if (r->unkept)
        hub_save_ended(r); /* the last game's record, before the game goes */
    if (r->unkept || hub_room_code(h, id, HUB_GAME_ID_LEN))
        return hub_send_fail(c, E_SERVER_ERROR, NULL);
    for (int s = 0; s < r->opt.rules.players; s++)
        if (r->seats[s].member < 0 && hub_room_seat_bot(h, r, s, &r->seats[s].spec))
            return hub_send_fail(c, E_SERVER_ERROR, NULL);
    /* the record's header: the deal, and who sits where (a bot by its name) */
    memcpy(r->game_id, id, sizeof id);
    r->start = game;
    for (int s = 0; s < r->opt.rules.players; s++) {
        if (r->seats[s].member >= 0)
            memcpy(r->names[s], r->members[r->seats[s].member].name, sizeof r->names[s]);
        else
            lit_bot_spec_format(&r->seats[s].spec, r->names[s], sizeof r->names[s]);
    }
    r->header_saved = 0;
    r->lines_saved = 0;
    r->game = game;
    r->dealer = dealer;
    lit_log_init(&r->log, r->events, LIT_MAX_ACTIONS);
    memset(r->by, 0, sizeof r->by);
    r->known_from = 0;
    for (int m = 0; m < HUB_MEMBERS_MAX; m++)
        r->members[m].waits = 0;
    if (new_match)
        r->wins[0] = r->wins[1] = 0;
    r->state = ROOM_PLAYING;
    r->games++;
    hub_send_log(h, "room #%u game %d started, dealer %d", r->number, r->games, dealer + 1);
    hub_pace_broadcast_game(r);
    r->base_seq = r->seq; /* a member who saw the game frame can catch up */
    hub_view_broadcast_room(r); /* the room is playing, and everyone's waits are whole */
    return 0;
}

/* The ack of action id: written as text, as the event after it. */
static void send_ack(HubClient *c, const char *id, uint32_t seq, int repeat)
{
    WireText *t = &c->hub->text;
    wire_text_reset(t);
    wire_text_lit(t, "{\"type\":\"ack\",\"id\":");
    wire_text_str(t, id);
    wire_text_lit(t, ",\"seq\":");
    wire_text_int(t, seq);
    wire_text_put(t, repeat ? ",\"repeat\":true}" : ",\"repeat\":false}");
    if (t->failed)
        hub_send_close(c, HUB_CLOSE_TRY_AGAIN, "server_error");
    else
        hub_send_parts(c, t->buf, t->len, NULL, 0);
}

int hub_play_act(Hub *h, HubClient *c, json_t *j)
{
    static const char *const extra[] = {"type", "seq", "id", NULL};
    const char *id = json_string_value(json_object_get(j, "id"));
    json_int_t seq = 0;
    if (!id || json_string_length(json_object_get(j, "id")) < 1 ||
        json_string_length(json_object_get(j, "id")) > HUB_ID_MAX || strlen(id) == 0)
        return hub_send_fail(c, E_BAD_ID, NULL);
    if (hub_field_int(j, "seq", &seq) != 0)
        return hub_send_fail_text(c, E_BAD_MESSAGE, "seq must be a number", id);
    Room *r = c->room;
    if (!r)
        return hub_send_fail(c, E_NOT_IN_ROOM, id);
    Member *m = hub_room_member(c);
    /* 1. a repeated action: answered as the first time, nothing changes */
    if (m->last_id[0] && strcmp(m->last_id, id) == 0) {
        send_ack(c, id, m->last_seq, 1);
        return -1;
    }
    if (m->seat == LIT_NOBODY)
        return hub_send_fail(c, E_NOT_SEATED, id);
    if (!r->games)
        return hub_send_fail(c, E_NO_GAME, id);
    /* 2. an action on a state the game has left, or while another's wait
     * holds play */
    if (seq < (json_int_t)r->game_seq || seq > (json_int_t)r->seq)
        return hub_send_fail(c, E_STALE_STATE, id);
    if (r->waiter >= 0 && r->waiter != c->member)
        return hub_send_fail(c, E_WAITING, id);
    LitAction a;
    WireError err;
    if (wire_read_action(&r->opt.rules, m->seat, j, extra, &a, &err))
        return hub_send_error(c, err.name, err.detail, id);
    /* 3. the referee */
    int st = lit_game_play(&r->game, &r->log, &a);
    if (st != LIT_OK)
        return hub_send_status(c, st, id);
    r->by[r->log.len - 1] = BY_SEAT;
    if (r->waiter >= 0) { /* its own wait: acting ends it */
        r->waiter = -1;
        r->held_ms = -1;
    }
    hub_room_finish(r);
    snprintf(m->last_id, sizeof m->last_id, "%s", id);
    m->last_seq = r->seq + 1;
    send_ack(c, id, m->last_seq, 0);
    hub_pace_broadcast_event(h, r, 0);
    return 0;
}

/* The seat of c that the aid (the scoresheet, a hint) serves, or -1 with
 * the error sent: a room without the aid, a spectator, no game yet. */
static int aided_seat(HubClient *c)
{
    if (!c->room->opt.aid)
        return hub_send_fail(c, E_NO_AID, NULL);
    int s = hub_room_member(c)->seat;
    if (s == LIT_NOBODY)
        return hub_send_fail(c, E_NOT_SEATED, NULL);
    if (!c->room->games)
        return hub_send_fail(c, E_NO_GAME, NULL);
    return s;
}

int hub_play_aid(Hub *h, HubClient *c, json_t *msg)
{
    (void)msg;
    Room *r = c->room;
    int s = aided_seat(c);
    if (s < 0)
        return -1;
    if (!r->aids[s] || r->aids_seq[s] != r->game_seq) {
        json_decref(r->aids[s]);
        r->aids[s] = hub_view_aid(h, r, s);
        r->aids_seq[s] = r->game_seq;
        if (r->aids[s] && mem_failures() != h->failures) { /* short: not kept */
            json_decref(r->aids[s]);
            r->aids[s] = NULL;
        }
        if (!r->aids[s])
            return hub_send_fail(c, E_SERVER_ERROR, NULL);
    }
    json_t *j = json_copy(r->aids[s]);
    if (!j)
        return hub_send_fail(c, E_SERVER_ERROR, NULL);
    json_object_set_new(j, "seq", json_integer(r->seq));
    hub_send_json(c, j);
    return 0;
}

int hub_play_hint(Hub *h, HubClient *c, json_t *msg)
{
    (void)msg;
    Room *r = c->room;
    int s = aided_seat(c);
    if (s < 0)
        return -1;
    if (r->game.pub.result != LIT_ONGOING)
        return hub_send_status(c, LIT_GAME_OVER, NULL);
    if (r->game.pub.turn != s)
        return hub_send_status(c, LIT_NOT_YOUR_TURN, NULL);
    if (!h->config.post)
        return hub_send_fail(c, E_BOT_NOT_OFFERED, NULL);
    if (r->hints[s] && r->hints_seq[s] == r->game_seq) {
        json_t *kept = json_copy(r->hints[s]);
        if (!kept)
            return hub_send_fail(c, E_SERVER_ERROR, NULL);
        hub_send_json(c, kept);
        return 0;
    }
    /* one job a seat: a member resuming on new connections asks no more */
    if (r->hint_job[s])
        return hub_send_fail_text(c, E_BUSY, "your hint is still being worked out: wait for it",
                                  NULL);
    /* the seat's own view: the hint sees what the player sees */
    HubJob *j = hub_job_for_seat(r, s, HUB_JOB_HINT);
    LitBotSpec best = lit_bot_spec_default(LIT_BOT_BEST);
    if (!j || lit_bot_init(&j->bot, &best, hub_room_seed(h)) != LIT_OK) {
        free(j);
        return hub_send_fail(c, E_SERVER_ERROR, NULL);
    }
    if (h->config.post(j, h->config.ctx)) {
        free(j);
        return hub_send_fail_text(
            c, E_BUSY, "the server's experts are busy: ask again in a moment", NULL);
    }
    r->hint_job[s] = j->id;
    return 0;
}

int hub_hint_out(HubClient *c)
{
    if (!c->room)
        return 0;
    int s = hub_room_member(c)->seat;
    return s != LIT_NOBODY && c->room->hint_job[s] != 0;
}

void hub_play_hint_done(Hub *h, HubJob *j)
{
    Room *r = hub_room_find(h, j->room);
    int s = j->view.seat;
    if (!r || r->hint_job[s] != j->id)
        return; /* the room has gone */
    r->hint_job[s] = 0;
    /* to the seat's member, on its connection now (it may have resumed on
     * another since it asked); dropped when it has none */
    int m = r->seats[s].member;
    HubClient *c = m >= 0 ? r->members[m].client : NULL;
    if (j->status != LIT_OK) {
        hub_send_log(h, "a hint: %s", lit_status_name(j->status));
        if (c)
            hub_send_fail(c, E_SERVER_ERROR, NULL);
        return;
    }
    const LitRules *rules = &j->view.pub.rules;
    json_t *f = json_pack("{s:s, s:s, s:I, s:i, s:I, s:o}", "type", "hint", "room", j->room,
                          "seq", (json_int_t)j->seq, "seat", j->view.seat + 1, "after",
                          (json_int_t)j->view.history_len, "action",
                          wire_action(rules, &j->action));
    if (f && j->chance >= 0) {
        json_object_set_new(f, "chance", json_real(j->chance));
        json_object_set_new(f, "at_most", json_boolean(j->at_most));
    } else if (f) {
        json_object_set_new(f, "chance", json_null());
    }
    if (!f || !hub_send_whole(h)) {
        json_decref(f);
        if (c)
            hub_send_fail(c, E_SERVER_ERROR, NULL);
        return;
    }
    if (j->seq == r->game_seq) { /* kept for the seat until the game moves on */
        json_decref(r->hints[s]);
        r->hints[s] = json_copy(f); /* (short of memory: not kept) */
        r->hints_seq[s] = j->seq;
    }
    if (c)
        hub_send_json(c, f);
    else
        json_decref(f);
}

int hub_play_wait(Hub *h, HubClient *c, json_t *msg)
{
    (void)msg;
    Room *r = c->room;
    Member *me = hub_room_member(c);
    if (me->seat == LIT_NOBODY)
        return hub_send_fail(c, E_NOT_SEATED, NULL);
    if (r->state != ROOM_PLAYING)
        return hub_send_fail(c, E_NOT_PLAYING, NULL);
    if (r->waiter >= 0)
        return hub_send_fail(c, E_WAITING, NULL);
    if (me->waits >= HUB_WAITS)
        return hub_send_fail(c, E_NO_WAITS, NULL);
    me->waits++;
    r->waiter = c->member;
    r->wait_until = h->now + HUB_WAIT_MS;
    r->held_ms = r->paced_at == INT64_MAX ? -1 : r->paced_at - h->now;
    hub_pace_arm(r, h->now);
    hub_send_log(h, "room #%u game %d: seat %d waits", r->number, r->games, me->seat + 1);
    hub_view_broadcast_room(r); /* its waits_left is one less */
    hub_view_broadcast(r, hub_view_clock_frame);
    return 0;
}

int hub_play_ready(Hub *h, HubClient *c, json_t *msg)
{
    (void)msg;
    Room *r = c->room;
    if (r->waiter != c->member)
        return hub_send_fail(c, E_NOT_WAITING, NULL);
    hub_pace_end_wait(r, h->now);
    return 0;
}
