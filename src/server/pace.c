/* pace.c - time in a room (docs/PROTOCOL.md "Time"): when the seat on turn
 * is moved for (a bot's pace, a timed player's turn, a wait holding play),
 * the basic bot standing in for a player who timed out or is away, the
 * expert's decisions handed out as jobs, and the game's changes told.
 */
#include "room.h"

#include <stdlib.h>
#include <string.h>

#include "../mem/mem.h"
#include "../wire/wire.h"
#include "literature/status.h"

/* Who moves for seat t when it is on turn and nobody acts: its bot
 * (BY_SEAT), the basic bot for a player gone past the grace (BY_AWAY) or,
 * on a timed turn, for a player out of time (BY_TIMEOUT); -1: nobody. */
static int mover(const Room *r, int t)
{
    int m = r->seats[t].member;
    if (m < 0)
        return BY_SEAT;
    if (r->members[m].away)
        return BY_AWAY;
    return r->opt.turn_ms ? BY_TIMEOUT : -1;
}

/* Hands out a job for the expert at seat s of r, made from the room as it
 * is: 0 out, 1 the queue is full (the room waits for a place: wanted), -1
 * out of memory. Only a hub with a post callback has expert seats (create
 * and hub_restore refuse them otherwise). */
static int hand_out(Room *r, int s)
{
    Hub *h = r->hub;
    Seat *seat = &r->seats[s];
    if (!seat->brain && hub_room_brain(h, &seat->brain, &seat->spec))
        return -1;
    /* the seat's own view: the bot's job sees what its seat sees */
    HubJob *j = hub_job_for_seat(r, s, HUB_JOB_EXPERT);
    if (!j) {
        hub_send_forget(h);
        return -1;
    }
    j->bot = *seat->brain;
    if (h->config.post(j, h->config.ctx)) {
        free(j);
        r->wanted = ++h->wants;
        return 1;
    }
    r->job_id = j->id;
    return 0;
}

/* Whether the expert at seat s of r has its answer for the game as it is
 * now: 1 yes; 0 not yet (its job is out or waits for a place; handed out
 * now when neither); -1 out of memory. */
static int expert_ready(Room *r, int s)
{
    if (r->answer && r->answer->seq == r->game_seq)
        return 1;
    hub_job_free(r->answer); /* the answer to an earlier state */
    r->answer = NULL;
    if (r->job_id || r->wanted)
        return 0;
    return hand_out(r, s) < 0 ? -1 : 0;
}

/* Sets the room's times from its state (hub_pace_arm). */
static void arm(Room *r, int64_t now)
{
    int connected = hub_room_connected(r), playing = r->state == ROOM_PLAYING && connected;
    r->host_at = INT64_MAX;
    if (r->host >= 0 && !r->members[r->host].client && connected)
        r->host_at = r->members[r->host].gone_at + r->opt.grace_ms;
    r->grace_at = INT64_MAX;
    for (int m = 0; playing && m < HUB_MEMBERS_MAX; m++) {
        const Member *mem = &r->members[m];
        if (mem->used && !mem->client && !mem->away && mem->seat != LIT_NOBODY &&
            mem->gone_at + r->opt.grace_ms < r->grace_at)
            r->grace_at = mem->gone_at + r->opt.grace_ms;
    }
    int t = r->game.pub.turn, by = t == LIT_NOBODY ? -1 : mover(r, t);
    if (!playing || by < 0 || r->waiter >= 0) {
        r->wake_at = r->paced_at = INT64_MAX;
        return;
    }
    if (r->paced_at == INT64_MAX || r->armed_seq != r->game_seq || r->armed_by != by) {
        r->paced_at = now + (by == BY_TIMEOUT ? r->opt.turn_ms : r->opt.pace_ms);
        r->armed_seq = r->game_seq;
        r->armed_by = by;
    }
    r->wake_at = r->paced_at;
    if (by == BY_SEAT && lit_bot_searches(r->seats[t].spec.kind)) {
        int ready = expert_ready(r, t);
        if (ready <= 0) /* its answer is not back; out of memory: try again */
            r->wake_at = ready == 0 ? INT64_MAX : now + 1000;
    }
}

void hub_pace_arm(Room *r, int64_t now)
{
    arm(r, now);
    hub_due_update(r);
}

void hub_pace_hand_out_wanted(Hub *h, int64_t now)
{
    for (;;) {
        Room *first = NULL;
        for (Room *r = h->rooms; r; r = r->next)
            if (r->wanted && (!first || r->wanted < first->wanted))
                first = r;
        if (!first)
            return;
        first->wanted = 0;
        hub_pace_arm(first, now); /* hands out its job if its expert is still to move */
        if (first->wanted)
            return;
    }
}

void hub_pace_move(Hub *h, Room *r, int64_t now)
{
    int t = r->game.pub.turn, by = r->armed_by;
    r->wake_at = r->paced_at = INT64_MAX;
    if (r->state != ROOM_PLAYING || t == LIT_NOBODY || mover(r, t) != by)
        return;
    Seat *seat = &r->seats[t];
    LitAction a;
    int st;
    if (by == BY_SEAT && lit_bot_searches(seat->spec.kind)) {
        HubJob *j = r->answer;
        if (!j || j->seq != r->game_seq || !seat->brain)
            return; /* not back (hub_pace_arm hands its job out) */
        r->answer = NULL;
        *seat->brain = j->bot; /* its memory, now of this state */
        lit_bot_lend(seat->brain, NULL, 0);
        st = j->status;
        a = j->action;
        hub_job_free(j);
    } else {
        LitBot **brain = by == BY_SEAT ? &seat->brain : &seat->stand_in;
        /* the basic bot stands in (never a stronger one: a timeout must not
         * buy a strong move) */
        LitBotSpec basic = lit_bot_spec_default(LIT_BOT_BASIC);
        if (!*brain && hub_room_brain(h, brain, by == BY_SEAT ? &seat->spec : &basic)) {
            /* out of memory: try again in a second */
            r->wake_at = r->paced_at = now + 1000;
            return;
        }
        LitView v;
        lit_view_make(&v, &r->game, &r->log, t);
        st = lit_bot_act(*brain, &v, &a);
    }
    if (st == LIT_OK)
        st = lit_game_play(&r->game, &r->log, &a);
    if (st != LIT_OK) {
        /* A built-in bot always answers a legal action; should it not,
         * the game is aborted rather than left waiting for ever. */
        hub_send_log(h, "room #%u: bot at seat %d: %s", r->number, t + 1, lit_status_name(st));
        hub_room_abort(&r->game);
        hub_room_finish(r);
        hub_pace_broadcast_game(r);
        return;
    }
    r->by[r->log.len - 1] = (uint8_t)by;
    hub_room_finish(r);
    hub_pace_broadcast_event(h, r, 1);
}

void hub_pace_stand_in(Hub *h, Room *r, int64_t now)
{
    for (int m = 0; m < HUB_MEMBERS_MAX; m++) {
        Member *mem = &r->members[m];
        if (mem->used && !mem->client && !mem->away && mem->seat != LIT_NOBODY &&
            mem->gone_at + r->opt.grace_ms <= now) {
            mem->away = 1;
            hub_send_log(h, "room #%u seat %d: its player is away: the basic bot plays", r->number,
                         mem->seat + 1);
        }
    }
    hub_view_broadcast_room(r);
    hub_pace_arm(r, now);
}

void hub_pace_end_wait(Room *r, int64_t now)
{
    if (r->waiter < 0)
        return;
    r->waiter = -1;
    if (r->held_ms >= 0)
        r->paced_at = now + r->held_ms;
    r->held_ms = -1;
    hub_pace_arm(r, now);
    hub_view_broadcast(r, hub_view_clock_frame);
}

void hub_pace_broadcast_game(Room *r)
{
    r->game_seq = r->seq + 1;
    hub_pace_arm(r, r->hub->now);
    hub_view_broadcast_game(r);
    if (r->state == ROOM_OVER)
        hub_view_broadcast_room(r); /* its state, and a match's count */
}

void hub_pace_broadcast_event(Hub *h, Room *r, int by_bot)
{
    uint32_t i = r->log.len - 1;
    /* the log has the game's end, never its moves (they tell of hands) */
    if (r->game.pub.result != LIT_ONGOING)
        hub_send_log(h, "room #%u game %d over: %s %d-%d after %u actions", r->number, r->games,
                     lit_result_name(r->game.pub.result), r->game.pub.score[0],
                     r->game.pub.score[1], r->log.len);
    hub_save_mark(r);
    r->seq++;
    r->game_seq = r->seq;
    r->event_seq[i] = r->seq;
    hub_pace_arm(r, h->now);
    hub_view_broadcast_event(r, i, by_bot);
    hub_listing_update(r);
    if (r->state == ROOM_OVER)
        hub_view_broadcast_room(r); /* its state, and a match's count */
}
