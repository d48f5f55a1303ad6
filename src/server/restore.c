/* restore.c - rooms taken up from the store (hub_restore), each as it was
 * saved, with nobody connected: its state read and checked (its options
 * through option.c's table), its game replayed from its record.
 */
#include "room.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "literature/notation.h"
#include "literature/status.h"

/* The members of a stored room: NULL, or what is wrong. */
static const char *read_members(Room *r, json_t *members)
{
    size_t i;
    json_t *o;
    json_array_foreach(members, i, o) {
        json_int_t m, last_seq, joined;
        json_t *seat;
        const char *name, *token, *last_id;
        int waits = 0;
        if (json_unpack(o, "{s:I,s:s,s:o,s:s,s:s,s:I,s:I,s?i!}", "i", &m, "name", &name, "seat",
                        &seat, "token", &token, "last_id", &last_id, "last_seq", &last_seq,
                        "joined", &joined, "waits", &waits))
            return "a member does not read";
        if (m < 0 || m >= HUB_MEMBERS_MAX || r->members[m].used)
            return "a member's index is out of range";
        if (json_is_null(seat))
            continue; /* a spectator's membership ended with its connection */
        Member *mem = &r->members[m];
        if (lit_name_check(name, strlen(name), HUB_NAME_MAX) != LIT_OK ||
            !hub_room_is_token(token) || strlen(last_id) > HUB_ID_MAX || last_seq < 0 ||
            last_seq > UINT32_MAX || joined < 0 || joined > UINT32_MAX || waits < 0 ||
            waits > HUB_WAITS)
            return "a member's name, token or last action does not read";
        mem->used = 1;
        mem->waits = (uint8_t)waits;
        memcpy(mem->name, name, strlen(name) + 1);
        memcpy(mem->token, token, HUB_TOKEN_LEN + 1);
        memcpy(mem->last_id, last_id, strlen(last_id) + 1);
        mem->last_seq = (uint32_t)last_seq;
        mem->joined = (uint32_t)joined;
        json_int_t s = json_integer_value(seat);
        if (!json_is_integer(seat) || s < 1 || s > r->opt.rules.players)
            return "a member's seat is out of range";
        mem->seat = (uint8_t)(s - 1);
    }
    return NULL;
}

/* The seats of a stored room: NULL, or what is wrong. */
static const char *read_seats(Hub *h, Room *r, json_t *seats)
{
    if (json_array_size(seats) != r->opt.rules.players)
        return "not one seat for each player";
    for (int s = 0; s < r->opt.rules.players; s++) {
        json_t *member, *bot;
        int vacated;
        if (json_unpack(json_array_get(seats, (size_t)s), "{s:o,s:o,s:b!}", "member", &member,
                        "bot", &bot, "vacated", &vacated))
            return "a seat does not read";
        Seat *seat = &r->seats[s];
        seat->member = -1;
        if (!json_is_null(member)) {
            json_int_t m = json_integer_value(member);
            if (!json_is_integer(member) || m < 0 || m >= HUB_MEMBERS_MAX ||
                !r->members[m].used || r->members[m].seat != s)
                return "a seat's member does not sit there";
            seat->member = (int)m;
        }
        if (!json_is_null(bot)) {
            const char *spec = json_string_value(bot);
            LitBotSpec b;
            if (!spec || lit_bot_spec_parse(&b, spec, strlen(spec)) != LIT_OK ||
                seat->member >= 0)
                return "a seat's bot does not read";
            const char *why = hub_room_expert_here(h, &b);
            if (why)
                return why;
            if (hub_room_seat_bot(h, r, s, &b))
                return "out of memory";
        }
        seat->vacated = (uint8_t)vacated;
    }
    for (int m = 0; m < HUB_MEMBERS_MAX; m++)
        if (r->members[m].used && r->members[m].seat != LIT_NOBODY &&
            r->seats[r->members[m].seat].member != m)
            return "a member's seat is not kept for it";
    return NULL;
}

/* The room's game from its record: NULL, or what is wrong. */
static const char *read_game(Room *r, const char *game, const char *record)
{
    if (!game || !record || !hub_room_is_code(game, HUB_GAME_ID_LEN))
        return "its game's record is missing";
    LitRecord rec;
    char ours[LIT_RULES_TEXT_MAX], its[LIT_RULES_TEXT_MAX];
    lit_record_init(&rec, r->events, NULL, LIT_MAX_ACTIONS);
    rec.by = r->by; /* the stand-ins' marks */
    if (lit_record_parse(&rec, record, strlen(record), NULL) != LIT_OK || !rec.has_deal)
        return "its game's record does not read";
    lit_rules_format(&r->opt.rules, ours, sizeof ours);
    lit_rules_format(&rec.rules, its, sizeof its);
    if (strcmp(ours, its) != 0)
        return "its game's rules are not the room's";
    LitReplay rp;
    LitLog log;
    lit_log_init(&log, r->events, LIT_MAX_ACTIONS);
    if (lit_replay_start(&rp, &rec) != LIT_OK)
        return "its game's deal does not read";
    r->start = rp.game;
    /* the events are replayed in place: each is read before it is written */
    for (uint32_t i = 0; i < rec.n_events; i++) {
        LitEvent e;
        if (lit_replay_step(&rp, &rec.events[i], &e) != LIT_OK)
            return "its game does not replay";
        lit_log_push(&log, &e);
    }
    if (rec.has_result && rec.result == LIT_ABORTED) {
        hub_room_abort(&rp.game); /* the server ended it, not an action */
    } else if (rec.has_result && rec.result != LIT_ONGOING &&
               lit_replay_check_result(&rp, &rec, NULL)) {
        return "its game's result is not the replay's";
    }
    r->game = rp.game;
    r->log = log;
    memcpy(r->game_id, game, HUB_GAME_ID_LEN + 1);
    for (int s = 0; s < r->opt.rules.players; s++)
        memcpy(r->names[s], rec.names[s], sizeof r->names[s]);
    return NULL;
}

static const char NO_MEMBERS[] = "it has no members left";

/* A room from the store, with nobody connected: NULL, with *why set. */
static Room *read_room(Hub *h, const char *code, const char *state, const char *game,
                       const char *record, const char **why)
{
    static const char *const counts[] = {"v",     "host", "joins", "state",   "dealer",
                                         "games", "seq",  "game_seq", "members", "seats", NULL};
    json_t *j = json_loads(state, JSON_REJECT_DUPLICATES, NULL), *members, *seats;
    const char *st;
    int v, host, dealer, games, options = 0;
    json_int_t joins, seq, game_seq;
    Room *r = hub_room_new(h);
    *why = NULL;
    if (r && j) /* the options, through option.c's table */
        options = hub_option_read(j, counts, &r->opt, r->wins);
    if (!r || !j) {
        *why = r ? "its state is not JSON" : "out of memory";
    } else if (json_unpack(j, "{s:i,s:i,s:I,s:s,s:i,s:i,s:I,s:I,s:o,s:o}", "v", &v, "host",
                           &host, "joins", &joins, "state", &st, "dealer", &dealer, "games",
                           &games, "seq", &seq, "game_seq", &game_seq, "members", &members,
                           "seats", &seats) ||
               options == HUB_OPTION_UNREAD || v != 1 || !json_is_array(members) ||
               !json_is_array(seats)) {
        *why = "its state does not read";
    } else if (!hub_room_is_code(code, HUB_CODE_LEN) || options == HUB_OPTION_RANGE || games < 0 ||
               games >= INT32_MAX || joins < 0 || joins >= UINT32_MAX || game_seq < 0 ||
               seq < game_seq || seq >= UINT32_MAX || dealer < 0 || host < -1 ||
               host >= HUB_MEMBERS_MAX) {
        *why = "its options or counts are out of range";
    } else {
        *why = hub_room_expert_here(h, &r->opt.bots);
    }
    if (!*why) {
        memcpy(r->code, code, HUB_CODE_LEN + 1);
        r->joins = (uint32_t)joins;
        r->dealer = dealer;
        r->games = games;
        r->seq = (uint32_t)seq;
        r->game_seq = (uint32_t)game_seq;
        r->state = hub_save_state_of(st);
        if (r->state < 0 || dealer >= r->opt.rules.players)
            *why = "its state or dealer is out of range";
        if (!*why)
            *why = read_members(r, members);
        if (!*why)
            *why = read_seats(h, r, seats);
        if (!*why && games > 0)
            *why = read_game(r, game, record);
        if (!*why && (games > 0 ? (r->state == ROOM_PLAYING) != (r->game.pub.result == LIT_ONGOING)
                                : r->state != ROOM_LOBBY))
            *why = "its state is not its game's";
        r->host = host;
        if (!*why && (host < 0 || !r->members[host].used))
            hub_room_pass_host(r); /* the host was a spectator */
        if (!*why && r->host < 0)
            *why = NO_MEMBERS;
    }
    json_decref(j);
    if (*why) {
        if (r)
            hub_room_free_brains(r);
        free(r);
        return NULL;
    }
    r->header_saved = games > 0;
    r->lines_saved = r->log.len;
    /* the seqs of the events before now are not kept */
    r->known_from = r->log.len;
    r->base_seq = r->seq;
    return r;
}

typedef struct Restore {
    Hub *h;
    int64_t now;
    int rooms;
    int rows;  /* rows of the store read: the log's name for one left out (its
                * code is a key to the room, and the log holds none) */
} Restore;

static int restore_room(void *ctx, const char *code, const char *state, const char *game,
                        const char *record)
{
    Restore *rs = ctx;
    Hub *h = rs->h;
    rs->rows++;
    const char *why = "twice";
    /* another hub's room (HubConfig.hubs): that hub takes it up; a row with
     * no code is the first hub's to tell of */
    if (code ? hub_home(code, h->config.hubs) != h->config.index : h->config.index != 0)
        return 0;
    if (!code || !state) {
        hub_send_log(h, "stored room %d not taken up: its row has no %s", rs->rows,
                     code ? "state" : "code");
        return 0;
    }
    Room *r = hub_room_find(h, code) ? NULL : read_room(h, code, state, game, record, &why);
    if (!r && why == NO_MEMBERS) {
        /* its spectators were all it had: gone, as their connections are */
        if (store_drop(h->config.store, code) != STORE_OK)
            hub_send_log(h, "store: %s", store_error(h->config.store));
        return 0;
    }
    if (!r) {
        hub_send_log(h, "stored room %d not taken up: %s", rs->rows, why);
        return 0;
    }
    hub_room_set_idle(h, r, rs->now); /* until a member returns */
    for (int m = 0; m < HUB_MEMBERS_MAX; m++)
        r->members[m].gone_at = rs->now; /* their grace starts again */
    if (hub_room_open(h, r)) {
        hub_send_log(h, "stored room %d not taken up: out of memory", rs->rows);
        hub_room_free_brains(r);
        free(r);
        return 0;
    }
    rs->rooms++;
    hub_limit_room_taken_up(h);
    r->number = hub_limit_number(h);
    hub_send_log(h, "room #%u taken up: %s, game %d", r->number, hub_save_state_name(r->state),
                 r->games);
    return 0;
}

int hub_restore(Hub *h, int64_t now)
{
    Restore rs = {h, now, 0, 0};
    h->now = now;
    hub_send_forget(h); /* what failed before is not this call's */
    if (!h->config.store)
        return 0;
    if (store_rooms(h->config.store, restore_room, &rs) != STORE_OK) {
        hub_send_log(h, "store: %s", store_error(h->config.store));
        return -1;
    }
    return rs.rooms;
}
