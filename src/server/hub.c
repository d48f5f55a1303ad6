/* hub.c - rooms and the online protocol (hub.h, docs/PROTOCOL.md).
 *
 * Reading order: frames out (queue, errors); rooms (codes, members, seats);
 * what each member is sent (built from its seat's view); the store (saving
 * rooms as they change, taking them up again); the messages, one handler
 * each (finished games' replay, sheet and review among them); bots and
 * time.
 */
#include "hub.h"

#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

#include "../mem/mem.h"
#include "../store/store.h"
#include "../wire/review_json.h"
#include "../wire/wire.h"
#include "literature/bot.h"
#include "literature/game.h"
#include "literature/infer.h"
#include "literature/notation.h"
#include "literature/review.h"
#include "literature/rules.h"
#include "literature/status.h"
#include "literature/view.h"

enum {
    ROOM_LOBBY = 0,   /* seats being taken; no game yet */
    ROOM_PLAYING = 1,
    ROOM_OVER = 2,    /* a game has ended; the host may start another */
    ROOM_IDLE_MS = 10 * 60 * 1000, /* a room no client is connected to closes */
    AID_SAMPLES = 4000             /* draws for the aid beyond exact counting */
};

/* Who made an action of the game, when not the seat's own player or bot:
 * the basic bot standing in (marked in the record, docs/PROTOCOL.md). */
enum {
    BY_SEAT = 0,
    BY_TIMEOUT = 1, /* its player's turn timed out */
    BY_AWAY = 2     /* its player was gone past the grace period */
};

static const char *const stand_in_names[] = {NULL, "timeout", "away"};

/* The bot that stands in for a player (never a stronger one: a timeout
 * must not buy a strong move), and keeps the seat of a player who left. */
static const LitBotSpec BASIC = {LIT_BOT_BASIC, LIT_CASUAL_MEMORY, 0};

typedef struct Member {
    int used;
    char name[HUB_NAME_MAX + 1];
    uint8_t seat;                  /* LIT_NOBODY: a spectator */
    HubClient *client;             /* NULL while disconnected */
    char token[HUB_TOKEN_LEN + 1]; /* resumes the membership (docs/PROTOCOL.md) */
    char last_id[HUB_ID_MAX + 1];  /* the last action id accepted from it */
    uint32_t last_seq;             /* the seq of that action's event */
    uint32_t joined;               /* order of joining: the host passes in it */
    int64_t chat_at[HUB_CHAT_BURST]; /* when its last chat lines were sent */
    int chat_next;                 /* the oldest of them */
    uint32_t chat_sent;            /* chat lines sent */
    int64_t gone_at;               /* when its connection went (client NULL) */
    uint8_t away;                  /* gone past the grace: the basic bot plays */
    uint8_t waits;                 /* waits called in this game */
    uint32_t asked;                /* a spectator asking the host for a seat:
                                    * the order it asked in (0: not asking) */
} Member;

typedef struct Seat {
    int member;                    /* the member sitting here, or -1 */
    uint8_t bot;                   /* 1: a bot plays the seat */
    uint8_t vacated;               /* its player left mid-game: anyone may take it */
    LitBotSpec spec;
    LitBot *brain;                 /* the bot's memory, while it plays a game */
    LitBot *stand_in;              /* the basic bot's, when it stands in for the
                                    * seat's player */
} Seat;

/* The record of a game that has ended, until the store has it. */
typedef struct Ended {
    struct Ended *next;
    StoreEnded e;
    char id[HUB_GAME_ID_LEN + 1];
    char score[16];
    char *record;
} Ended;

/* What one address holds: its connections, the rooms made from it that are
 * still open, and its lookups that found nothing (guessing room codes or
 * tokens). Freed when it holds no connection and no room and its guesses
 * are whole again (at once, or by the sweep of hub_connect_from): so a
 * guesser cannot get its guesses back by closing its connections. */
typedef struct Address {
    struct Address *next;          /* in its bucket */
    int clients, rooms;
    int64_t guess_at;              /* the guesses' clock (see guessing) */
    char text[HUB_ADDRESS_MAX + 1];
} Address;

enum { ADDRESS_BUCKETS = 1024 };

typedef struct Room {
    struct Room *next;
    struct Hub *hub;
    char code[HUB_CODE_LEN + 1];
    /* options, set at creation */
    LitRules rules;
    LitBotSpec bots;               /* the level of bots the host adds */
    int pace_ms;
    int listed;                    /* public: in the lobby list */
    int aid;                       /* the scoresheet aid is allowed */
    int chat;                      /* chat is on (off: a silent room) */
    int turn_ms;                   /* a player's time for a turn (0: untimed) */
    int grace_ms;                  /* a player gone this long is stood in for */
    int match_to;                  /* games a team must win (0: no match) */
    int wins[2];                   /* games each team has won in the match */
    /* who is here */
    Member members[HUB_MEMBERS_MAX];
    Seat seats[LIT_MAX_PLAYERS];
    int host;                      /* member index, -1 when nobody is left */
    int64_t host_at;               /* a host gone keeps the role until then
                                    * (its grace; INT64_MAX: nothing due) */
    uint32_t joins;
    uint32_t asks;                 /* requests for a seat made (their order) */
    /* the game */
    int state;
    int dealer;
    int games;                     /* games started in this room */
    LitGame game;
    LitEvent events[LIT_MAX_ACTIONS];
    LitLog log;
    /* sequence numbers: seq counts every frame sent to the room; game_seq
     * is the seq of the last frame that changed the game */
    uint32_t seq, game_seq;
    int64_t wake_at;               /* the seat on turn is moved for then (a bot's
                                    * pace, a player's time out; INT64_MAX: none) */
    int64_t paced_at;              /* the pace's or the turn's time: wake_at, but
                                    * for an expert whose answer is not back */
    uint32_t armed_seq;            /* the game_seq paced_at was set for */
    int armed_by;                  /* ... and who moves then (BY_*) */
    int64_t grace_at;              /* a player's grace ends then */
    int waiter;                    /* the member whose wait holds play, or -1 */
    int64_t wait_until;            /* ... until then */
    int64_t held_ms;               /* what was left of paced_at when it began */
    /* who made each action of the game (BY_*), and the seq of its event:
     * known from action known_from on (the game's start, or the room's
     * restart at seq base_seq) */
    uint8_t by[LIT_MAX_ACTIONS];
    uint32_t event_seq[LIT_MAX_ACTIONS];
    uint32_t known_from, base_seq;
    /* the last aid of each seat and the game_seq it is for */
    json_t *aids[LIT_MAX_PLAYERS];
    uint32_t aids_seq[LIT_MAX_PLAYERS];
    int64_t idle_since;            /* no client connected since (-1: some are) */
    /* the game's record: its id, its deal and names (the header) */
    char game_id[HUB_GAME_ID_LEN + 1];
    LitGame start;
    char names[LIT_MAX_PLAYERS][LIT_NAME_MAX + 1];
    /* what the store has of the room */
    struct Room *dirty_next;       /* in the hub's list of rooms to save */
    int dirty;                     /* changed since its last save */
    int unsaved;                   /* a save failed and its members were told */
    int header_saved;              /* the store has the game's header */
    uint32_t lines_saved;          /* ... and this many of its lines */
    Ended *ended;                  /* records of games ended, not yet saved */
    int unkept;                    /* the game has ended and its record could not be
                                    * made (out of memory): made at the next save,
                                    * and before another game starts */
    Address *made_from;            /* the address that made it (NULL: not known) */
    /* the expert's decision for the seat on turn, made off the loop (HubJob) */
    uint64_t job_id;               /* the job out for the room (0: none) */
    uint64_t wanted;               /* nonzero: a job waits for a place in the
                                    * queue; the order it asked in */
    HubJob *answer;                /* a job back, not yet played */
} Room;

/* A review made (the `review` message), kept for the next ask of the same
 * game and seat: a finished game never changes, so neither does it. */
typedef struct KeptReview {
    char game[HUB_GAME_ID_LEN + 1]; /* "" for none */
    int seat;
    json_t *review;                /* wire_review's object */
} KeptReview;

/* A room closed whose removal from the store failed: tried again. */
typedef struct Drop {
    struct Drop *next;
    char code[HUB_CODE_LEN + 1];
} Drop;

struct Hub {
    HubConfig config;
    Room *rooms;
    HubClient *clients;
    int n_rooms, n_clients;
    void *work;                    /* the aid's workspace (LIT_ODDS_WORK), lazily */
    json_t *catalogue;             /* the rules' words the welcome carries, lazily */
    int64_t now;                   /* the time of the call being served */
    unsigned long failures;        /* mem_failures() when the frame being built
                                    * began (see whole) */
    Address *addresses[ADDRESS_BUCKETS];
    int64_t swept_at;              /* addresses were last swept then */
    /* the store */
    Room *dirty;                   /* rooms changed since they were saved */
    Drop *drops;
    int retry_ms;                  /* nonzero: saves are failing; the wait */
    int64_t retry_at;              /* the next try */
    /* the expert's jobs */
    uint64_t jobs;                 /* jobs made (their ids) */
    uint64_t wants;                /* rooms that waited for a place (their order) */
    /* reviews: jobs out, and the last ones made (the oldest replaced) */
    int reviews_out;
    KeptReview kept[HUB_REVIEW_CACHE];
    int kept_next;
};

/* A review of one seat of a finished game to be made off the loop: the
 * deal, the events as the referee gave them, and what lit_review fills. */
typedef struct ReviewJob {
    char game[HUB_GAME_ID_LEN + 1];
    int seat;                      /* 0-based */
    LitGame start;
    LitReviewOptions options;
    uint32_t n_events;
    int status;                    /* lit_review's: decisions, or a status */
    LitReviewSummary summary;
    LitEvent *events;              /* n_events, owned */
    LitDecision *decisions;        /* n_events, owned */
} ReviewJob;

/* A job to be done off the loop (hub.h): an expert's decision (the view's
 * history points into events, the job's own copy), or a review. */
struct HubJob {
    uint64_t id;
    int kind;                      /* HUB_JOB_* */
    ReviewJob *review;             /* a review's (NULL for an expert's) */
    char room[HUB_CODE_LEN + 1];
    uint32_t seq;                  /* the room's game_seq it is for */
    int status;                    /* lit_bot_act's, once run */
    LitAction action;              /* ... and its action */
    LitBot bot;                    /* the seat's bot; run: after deciding */
    LitView view;                  /* the seat's view */
    LitEvent events[];             /* view.history_len events */
};

/* ---- frames out ---------------------------------------------------------- */

/* An allocation that failed has been dealt with (the call that made it
 * returned its error, and the caller took another way): the frames built
 * from now on are whole. */
static void forget_failures(Hub *h)
{
    h->failures = mem_failures();
}

/* Whether no allocation has failed since the hub's last look (mem.h), and
 * the look moves to now. jansson leaves out of an object a value it could
 * not allocate and says so only in a return value, so a frame or a state
 * built while one failed may lack a part: it is never sent or saved. */
static int whole(Hub *h)
{
    unsigned long now = mem_failures();
    int ok = now == h->failures;
    h->failures = now;
    return ok;
}

static void wake(HubClient *c)
{
    if (c->hub->config.wake)
        c->hub->config.wake(c, c->hub->config.ctx);
}

static void drop_queue(HubClient *c)
{
    while (c->head) {
        HubFrame *f = c->head;
        c->head = f->next;
        hub_frame_free(f);
    }
    c->tail = NULL;
    c->queued = 0;
}

/* Closes the client once its queue is written, with a close code and its
 * reason (docs/PROTOCOL.md "Close codes"). */
static void close_client(HubClient *c, int code, const char *reason)
{
    if (!c->close_code) {
        c->close_code = code;
        c->close_reason = reason;
    }
    wake(c);
}

/* Queues j (stolen) as one frame. A client that has let more than
 * HUB_QUEUE_MAX bytes pile up is not reading: it is dropped (its seat and
 * token stay) rather than let the server's memory grow. */
static void send_json(HubClient *c, json_t *j)
{
    /* NULL, or short of a part: out of memory while it was built. The
     * client cannot be left without it (its state would be wrong): it is
     * closed with 1013 and resumes */
    if (!whole(c->hub) || !j) {
        json_decref(j);
        close_client(c, HUB_CLOSE_TRY_AGAIN, "server_error");
        return;
    }
    if (c->close_code) {
        json_decref(j);
        return;
    }
    char *text = json_dumps(j, JSON_COMPACT);
    json_decref(j);
    /* jansson's dump may go on past a failed allocation and write a key as
     * nothing (found by tests/unit/test_faults.c): its text is not sent */
    if (!text || !whole(c->hub)) {
        free(text);
        close_client(c, HUB_CLOSE_TRY_AGAIN, "server_error");
        forget_failures(c->hub);
        return;
    }
    size_t len = strlen(text), head = c->hub->config.headroom;
    HubFrame *f = mem_alloc(sizeof *f + head + len);
    if (!f || c->queued + len > HUB_QUEUE_MAX) {
        free(f);
        free(text);
        drop_queue(c);
        if (f)
            close_client(c, HUB_CLOSE_POLICY, "too_slow");
        else
            close_client(c, HUB_CLOSE_TRY_AGAIN, "server_error");
        forget_failures(c->hub);
        return;
    }
    f->next = NULL;
    f->len = len;
    f->data = (unsigned char *)(f + 1) + head;
    memcpy(f->data, text, len);
    free(text);
    if (c->tail)
        c->tail->next = f;
    else
        c->head = f;
    c->tail = f;
    c->queued += len;
    wake(c);
}

HubFrame *hub_pop(HubClient *c)
{
    HubFrame *f = c->head;
    if (f) {
        c->head = f->next;
        if (!c->head)
            c->tail = NULL;
        c->queued -= f->len;
        f->next = NULL;
    }
    return f;
}

void hub_frame_free(HubFrame *f)
{
    free(f);
}

/* An error answer: a stable name, a sentence, and the id of the action it
 * answers (NULL: none). */
static int send_error(HubClient *c, const char *name, const char *text, const char *id)
{
    forget_failures(c->hub); /* a failure before it is what it answers */
    json_t *j = json_pack("{s:s,s:s,s:s}", "type", "error", "error", name, "text", text);
    if (!j) /* a text that is not UTF-8: the name alone */
        j = json_pack("{s:s,s:s,s:s}", "type", "error", "error", name, "text", "");
    if (j && id)
        json_object_set_new(j, "id", json_string(id));
    send_json(c, j);
    return -1;
}

static int send_status(HubClient *c, int status, const char *id)
{
    return send_error(c, lit_status_name(status), lit_status_text(status), id);
}

/* ---- the log ------------------------------------------------------------ */

static void log_line(Hub *h, const char *fmt, ...)
{
    if (!h->config.log)
        return;
    char line[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    h->config.log(line, h->config.ctx);
}

/* ---- randomness ---------------------------------------------------------- */

static int random_bytes(Hub *h, void *buf, size_t len)
{
    if (h->config.random)
        return h->config.random(buf, len, h->config.ctx);
    unsigned char *p = buf;
    while (len) {
        ssize_t n = getrandom(p, len, 0);
        if (n <= 0)
            return -1;
        p += n;
        len -= (size_t)n;
    }
    return 0;
}

/* ---- addresses ------------------------------------------------------------ */

static Address **address_slot(Hub *h, const char *text)
{
    uint32_t x = 2166136261u; /* FNV-1a */
    for (const unsigned char *p = (const unsigned char *)text; *p; p++)
        x = (x ^ *p) * 16777619u;
    Address **a = &h->addresses[x % ADDRESS_BUCKETS];
    while (*a && strcmp((*a)->text, text) != 0)
        a = &(*a)->next;
    return a;
}

/* The address's entry, made when new: NULL out of memory. */
static Address *address_get(Hub *h, const char *text)
{
    Address **slot = address_slot(h, text);
    if (!*slot && (*slot = mem_calloc(1, sizeof **slot)))
        snprintf((*slot)->text, sizeof (*slot)->text, "%s", text);
    return *slot;
}

/* Whether the entry holds nothing: no connection, no room, its guesses
 * whole. */
static int address_idle(const Hub *h, const Address *a)
{
    return !a->clients && !a->rooms && a->guess_at <= h->now;
}

/* Frees the entry once it holds nothing. */
static void address_put(Hub *h, Address *a)
{
    if (!a || !address_idle(h, a))
        return;
    Address **slot = address_slot(h, a->text);
    *slot = a->next;
    free(a);
}

/* Frees every entry that holds nothing: those kept only for their guesses
 * once these are whole again. */
static void address_sweep(Hub *h)
{
    for (int i = 0; i < ADDRESS_BUCKETS; i++)
        for (Address **a = &h->addresses[i]; *a;) {
            Address *x = *a;
            if (address_idle(h, x)) {
                *a = x->next;
                free(x);
            } else {
                a = &x->next;
            }
        }
    h->swept_at = h->now;
}

/* Whether c's address has spent its guesses: HUB_GUESSES lookups that found
 * nothing at once, then one each HUB_GUESS_MS (each is due HUB_GUESS_MS
 * after the last; one that would be due further ahead than the whole budget
 * is refused). Then join and resume are refused before the lookup, whatever
 * the code: a guesser must not learn that a guess was right. */
static int guessing(const Hub *h, const HubClient *c)
{
    const Address *a = c->address;
    return a && a->guess_at + HUB_GUESS_MS - h->now > (int64_t)HUB_GUESSES * HUB_GUESS_MS;
}

/* A lookup from c that found nothing: a guess spent. */
static void guessed(Hub *h, HubClient *c)
{
    Address *a = c->address;
    if (a)
        a->guess_at = (a->guess_at > h->now ? a->guess_at : h->now) + HUB_GUESS_MS;
}

/* ---- rooms --------------------------------------------------------------- */

/* An empty room of the hub, its times unset: NULL out of memory. */
static Room *room_new(Hub *h)
{
    Room *r = mem_calloc(1, sizeof *r);
    if (!r)
        return NULL;
    r->hub = h;
    r->host = -1;
    r->idle_since = -1;
    r->wake_at = r->paced_at = r->grace_at = r->host_at = INT64_MAX;
    r->waiter = -1;
    r->held_ms = -1;
    for (int s = 0; s < LIT_MAX_PLAYERS; s++)
        r->seats[s].member = -1;
    lit_log_init(&r->log, r->events, LIT_MAX_ACTIONS);
    return r;
}

/* A turn's time: 0 (untimed), or HUB_TURN_MIN_MS to HUB_TURN_MAX_MS. */
static int turn_ok(json_int_t ms)
{
    return ms == 0 || (ms >= HUB_TURN_MIN_MS && ms <= HUB_TURN_MAX_MS);
}

/* Room codes: no vowels (no words), no 0/O, 1/I: 28^6 = 481 million. */
static const char code_alphabet[] = "BCDFGHJKLMNPQRSTVWXZ23456789";

static Room *find_room(Hub *h, const char *code)
{
    for (Room *r = h->rooms; r; r = r->next)
        if (strcmp(r->code, code) == 0)
            return r;
    return NULL;
}

/* len random characters of the alphabet (a room code, a game id). */
static int random_code(Hub *h, char *code, int len)
{
    unsigned char b[HUB_GAME_ID_LEN];
    if (len > HUB_GAME_ID_LEN || random_bytes(h, b, (size_t)len))
        return -1;
    for (int i = 0; i < len; i++)
        code[i] = code_alphabet[b[i] % (sizeof code_alphabet - 1)];
    code[len] = 0;
    return 0;
}

static int is_code(const char *s, size_t len)
{
    if (strlen(s) != len)
        return 0;
    for (size_t i = 0; i < len; i++)
        if (!strchr(code_alphabet, s[i]) || !s[i])
            return 0;
    return 1;
}

static int new_code(Hub *h, char code[HUB_CODE_LEN + 1])
{
    for (int tries = 0; tries < 16; tries++) {
        if (random_code(h, code, HUB_CODE_LEN))
            return -1;
        if (!find_room(h, code))
            return 0;
    }
    return -1;
}

static int new_token(Hub *h, char token[HUB_TOKEN_LEN + 1])
{
    unsigned char b[HUB_TOKEN_LEN / 2];
    if (random_bytes(h, b, sizeof b))
        return -1;
    for (size_t i = 0; i < sizeof b; i++)
        snprintf(token + 2 * i, 3, "%02x", b[i]);
    return 0;
}

static void free_brains(Room *r)
{
    for (int s = 0; s < LIT_MAX_PLAYERS; s++) {
        free(r->seats[s].brain);
        free(r->seats[s].stand_in);
        r->seats[s].brain = r->seats[s].stand_in = NULL;
    }
}

static void forget_room(Hub *h, Room *r);

/* Closes a room; forget: it is gone for good, and the store forgets it
 * (else, the server stopping, the store keeps it for the next start). */
static void close_room(Hub *h, Room *r, int forget)
{
    if (forget) {
        log_line(h, "room %s closed", r->code);
        forget_room(h, r);
    }
    for (Room **p = &h->rooms; *p; p = &(*p)->next)
        if (*p == r) {
            *p = r->next;
            break;
        }
    for (Room **p = &h->dirty; *p; p = &(*p)->dirty_next)
        if (*p == r) {
            *p = r->dirty_next;
            break;
        }
    while (r->ended) {
        Ended *e = r->ended;
        r->ended = e->next;
        free(e->record);
        free(e);
    }
    for (int m = 0; m < HUB_MEMBERS_MAX; m++)
        if (r->members[m].used && r->members[m].client)
            r->members[m].client->room = NULL;
    if (r->made_from) {
        r->made_from->rooms--;
        address_put(h, r->made_from);
    }
    free_brains(r);
    for (int s = 0; s < LIT_MAX_PLAYERS; s++)
        json_decref(r->aids[s]);
    hub_job_free(r->answer); /* a job still out is dropped when it comes back */
    free(r);
    h->n_rooms--;
}

static int connected_members(const Room *r)
{
    int n = 0;
    for (int m = 0; m < HUB_MEMBERS_MAX; m++)
        n += r->members[m].used && r->members[m].client;
    return n;
}

static const char *state_name(int state)
{
    return state == ROOM_LOBBY ? "lobby" : state == ROOM_PLAYING ? "playing" : "over";
}

/* ---- what members are sent ----------------------------------------------- */

static json_t *rules_json(const LitRules *rules)
{
    json_t *o = json_object();
    for (int i = 0; i < lit_rules_option_count(); i++)
        json_object_set_new(o, lit_rules_option_name(i),
                            json_string(lit_rules_option_value(rules, i)));
    return o;
}

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

/* The room as member m sees it (everything in it is public but "you"). */
static json_t *room_json(const Room *r, int m)
{
    char rules[LIT_RULES_TEXT_MAX], bots[LIT_BOT_TEXT_MAX];
    lit_rules_format(&r->rules, rules, sizeof rules);
    lit_bot_spec_format(&r->bots, bots, sizeof bots);
    json_t *seats = json_array(), *spectators = json_array();
    for (int s = 0; s < r->rules.players; s++)
        json_array_append_new(seats, seat_json(r, s));
    for (int i = 0; i < HUB_MEMBERS_MAX; i++)
        if (r->members[i].used && r->members[i].seat == LIT_NOBODY)
            json_array_append_new(spectators, json_string(r->members[i].name));
    const Member *me = &r->members[m];
    json_t *match = json_null();
    if (r->match_to) {
        int won = r->wins[0] >= r->match_to ? 0 : r->wins[1] >= r->match_to ? 1 : -1;
        match = json_pack("{s:i,s:[i,i],s:o}", "to", r->match_to, "wins", r->wins[0], r->wins[1],
                          "winner", won < 0 ? json_null() : json_string(wire_team_name(won)));
    }
    json_t *j = json_pack(
        "{s:s,s:i,s:s,s:s,s:s,s:o,s:i,s:s,s:i,s:i,s:i,s:o,s:b,s:b,s:b,s:o,s:o,s:i,s:b,"
        "s:{s:s,s:o,s:b,s:i}}",
        "type", "room", "seq", r->seq, "code", r->code, "state", state_name(r->state), "rules",
        rules, "options", rules_json(&r->rules), "players", r->rules.players, "bots", bots,
        "pace_ms", r->pace_ms, "turn_ms", r->turn_ms, "grace_ms", r->grace_ms, "match", match,
        "public", r->listed, "aid", r->aid, "chat", r->chat, "seats", seats, "spectators",
        spectators, "games", r->games, "saved", r->hub->config.store && !r->unsaved, "you",
        "name", me->name, "seat",
        me->seat == LIT_NOBODY ? json_null() : json_integer(me->seat + 1), "host", m == r->host,
        "waits_left", HUB_WAITS - me->waits);
    if (j) {
        json_object_set_new(j, "host", host_json(r));
        json_object_set_new(j, "waiting", waiting_json(r));
    }
    return j;
}

/* Why the seat may not ask for each card it cannot, and may not ask each
 * seat it cannot: the referee's own statuses (lit_view_check), so a client
 * can say why without knowing a rule. When nothing can be asked for one
 * reason (not on turn, another phase), only "why". */
static json_t *refusals_json(const LitView *v)
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
    json_t *j = json_object();
    if (st != LIT_OK && st != LIT_SET_CLAIMED && st != LIT_NO_BASE_CARD && st != LIT_OWN_CARD &&
        st != LIT_TARGET_EMPTY) {
        json_object_set_new(j, "why", json_string(lit_status_name(st)));
        return j;
    }
    json_t *cards = json_object(), *seats = json_object();
    for (int c = 0; c < lit_deck_cards(deck); c++) {
        a.card = (uint8_t)c;
        int cs = lit_view_check(v, &a);
        if (cs != LIT_OK && cs != LIT_TARGET_EMPTY)
            json_object_set_new(cards, lit_card_name(deck, c), json_string(lit_status_name(cs)));
    }
    a.card = (uint8_t)(askable ? lit_lsb(askable) : 0);
    for (int t = 0; t < players; t++) {
        if (t == me)
            continue;
        a.target = (uint8_t)t;
        int ts = lit_view_check(v, &a);
        if (ts == LIT_ASK_TEAMMATE || ts == LIT_TARGET_EMPTY) {
            char key[4];
            snprintf(key, sizeof key, "%d", t + 1);
            json_object_set_new(seats, key, json_string(lit_status_name(ts)));
        }
    }
    json_object_set_new(j, "why", json_null());
    json_object_set_new(j, "cards", cards);
    json_object_set_new(j, "targets", seats);
    return j;
}

/* What a seat may do now: its hand, its legal actions and the reasons for
 * the asks it may not make. From its view alone. */
static json_t *you_json(const LitView *v)
{
    json_t *j = json_pack("{s:i,s:s,s:o}", "seat", v->seat + 1, "team",
                          wire_team_name(lit_team_of(v->seat)), "hand",
                          wire_cards(v->pub.rules.deck, v->hand));
    wire_set_legal(j, v);
    json_object_set_new(j, "refused", refusals_json(v));
    return j;
}

static void view_of(const Room *r, int seat, LitView *v)
{
    lit_view_make(v, &r->game, &r->log, seat);
}

/* Action i of the game (e, the same for every view) as members see it:
 * with "stand_in" when the basic bot made it for a player. */
static json_t *event_of(const Room *r, const LitEvent *e, uint32_t i)
{
    json_t *j = wire_event(&r->rules, e, i + 1);
    if (j && r->by[i])
        json_object_set_new(j, "stand_in", json_string(stand_in_names[r->by[i]]));
    return j;
}

/* The turn's clock (docs/PROTOCOL.md "Time"): the time a timed turn has
 * (0: untimed), what is left of it (null while it does not run), and the
 * wait holding play, if any. */
static json_t *clock_json(const Room *r)
{
    int64_t left = -1;
    if (r->state == ROOM_PLAYING && r->waiter >= 0)
        left = r->armed_by == BY_TIMEOUT ? r->held_ms : -1;
    else if (r->state == ROOM_PLAYING && r->armed_by == BY_TIMEOUT && r->wake_at != INT64_MAX)
        left = r->wake_at - r->hub->now;
    json_t *wait = json_null();
    if (r->waiter >= 0) {
        const Member *w = &r->members[r->waiter];
        wait = json_pack("{s:i,s:s,s:I}", "seat", w->seat + 1, "name", w->name, "left_ms",
                         (json_int_t)(r->wait_until - r->hub->now));
    }
    return json_pack("{s:i,s:o,s:o}", "turn_ms", r->turn_ms, "left_ms",
                     left >= 0 ? json_integer(left) : json_null(), "wait", wait);
}

/* What ends every game and event frame: the member's own part ("you", null
 * for a spectator) and, once the game has ended, its result. */
static json_t *with_seat(json_t *j, const Room *r, const Member *me, const LitView *v)
{
    json_object_set_new(j, "you", me->seat == LIT_NOBODY ? json_null() : you_json(v));
    if (r->game.pub.result != LIT_ONGOING) {
        json_object_set_new(j, "result", json_string(lit_result_name(r->game.pub.result)));
        if (r->hub->config.store) { /* the record is downloaded from there */
            char link[40];
            snprintf(link, sizeof link, "/games/%s.lit", r->game_id);
            json_object_set_new(j, "record", json_string(link));
        }
    }
    return j;
}

/* The whole game as member m may see it: sent at the start of a game and
 * to a member who joins or returns during one. */
static json_t *game_json(const Room *r, int m)
{
    const Member *me = &r->members[m];
    LitView v;
    view_of(r, me->seat, &v);
    char rules[LIT_RULES_TEXT_MAX];
    lit_rules_format(&r->rules, rules, sizeof rules);
    json_t *history = json_array();
    for (uint32_t i = 0; i < v.history_len; i++)
        json_array_append_new(history, event_of(r, &v.history[i], i));
    json_t *j = json_pack("{s:s,s:i,s:i,s:s,s:s,s:i,s:o,s:o,s:o,s:o}", "type", "game", "seq",
                          r->seq, "game", r->games, "id", r->game_id, "rules", rules, "dealer",
                          r->dealer + 1, "sets", wire_sets(r->rules.deck), "state",
                          wire_state(&v.pub), "history", history, "clock", clock_json(r));
    return with_seat(j, r, me, &v);
}

/* One event of the game as member m sees it: the event and the public state
 * (the same for every member, built once by the caller and shared), then
 * the member's own part. */
static json_t *event_json(const Room *r, int m, json_t *event, json_t *state, json_t *clock,
                          int by_bot)
{
    const Member *me = &r->members[m];
    LitView v;
    view_of(r, me->seat, &v);
    json_t *j = json_pack("{s:s,s:i,s:O,s:O,s:b,s:O}", "type", "event", "seq", r->seq, "event",
                          event, "state", state, "bot", by_bot, "clock", clock);
    return with_seat(j, r, me, &v);
}

/* The clock alone, when a wait begins or ends. */
static json_t *clock_frame(const Room *r, int m)
{
    (void)m;
    return json_pack("{s:s,s:i,s:o}", "type", "clock", "seq", r->seq, "clock", clock_json(r));
}

typedef json_t *(*MemberFrame)(const Room *r, int m);

static void mark(Room *r);

/* Sends every connected member its own frame under the next seq. Every
 * change of a room is told this way (or by broadcast_event), so this is
 * where a room is marked to be saved. */
static void broadcast(Room *r, MemberFrame make)
{
    mark(r);
    r->seq++;
    for (int m = 0; m < HUB_MEMBERS_MAX; m++)
        if (r->members[m].used && r->members[m].client)
            send_json(r->members[m].client, make(r, m));
}

static void broadcast_room(Room *r)
{
    broadcast(r, room_json);
}

static void arm(Room *r, int64_t now);

/* The whole game to every member (its start, or the server ended it). */
static void broadcast_game(Room *r)
{
    r->game_seq = r->seq + 1;
    arm(r, r->hub->now);
    broadcast(r, game_json);
    if (r->state == ROOM_OVER)
        broadcast_room(r); /* its state, and a match's count */
}

/* The game's last action to every member, made by a bot or not. */
static void broadcast_event(Hub *h, Room *r, const LitEvent *e, int by_bot)
{
    uint32_t i = r->log.len - 1;
    json_t *event = event_of(r, e, i), *state = wire_state(&r->game.pub);
    const char *line = json_string_value(json_object_get(event, "line"));
    const char *who = !by_bot                  ? ""
                      : r->by[i] == BY_TIMEOUT ? " (bot, timeout)"
                      : r->by[i] == BY_AWAY    ? " (bot, away)"
                                               : " (bot)";
    if (line)
        log_line(h, "room %s game %d: %s%s", r->code, r->games, line, who);
    if (r->game.pub.result != LIT_ONGOING)
        log_line(h, "room %s game %d over: %s %d-%d", r->code, r->games,
                 lit_result_name(r->game.pub.result), r->game.pub.score[0],
                 r->game.pub.score[1]);
    mark(r);
    r->seq++;
    r->game_seq = r->seq;
    r->event_seq[i] = r->seq;
    arm(r, h->now);
    json_t *clock = clock_json(r); /* the same for every member, as state */
    if (!whole(h)) { /* short of a part: each member's is built on its own */
        json_decref(event);
        json_decref(state);
        json_decref(clock);
        event = state = clock = NULL;
    }
    for (int m = 0; m < HUB_MEMBERS_MAX; m++)
        if (r->members[m].used && r->members[m].client) {
            json_t *ev = event ? json_incref(event) : event_of(r, e, i),
                   *st = state ? json_incref(state) : wire_state(&r->game.pub),
                   *cl = clock ? json_incref(clock) : clock_json(r);
            send_json(r->members[m].client, event_json(r, m, ev, st, cl, by_bot));
            json_decref(ev);
            json_decref(st);
            json_decref(cl);
        }
    json_decref(event);
    json_decref(state);
    json_decref(clock);
    if (r->state == ROOM_OVER)
        broadcast_room(r); /* its state, and a match's count */
}

/* ---- the store ------------------------------------------------------------ */

/* The server ends a game no action will end (a bot that failed, a room
 * closed during it). */
static void abort_game(LitGame *g)
{
    g->pub.result = LIT_ABORTED;
    g->pub.turn = LIT_NOBODY;
}

static void finish_if_over(Room *r);

/* A room changed: it is saved before the hub call returns (flush). */
static void mark(Room *r)
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
    char rules[LIT_RULES_TEXT_MAX], bots[LIT_BOT_TEXT_MAX];
    lit_rules_format(&r->rules, rules, sizeof rules);
    lit_bot_spec_format(&r->bots, bots, sizeof bots);
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
    for (int s = 0; s < r->rules.players; s++) {
        const Seat *seat = &r->seats[s];
        char spec[LIT_BOT_TEXT_MAX];
        lit_bot_spec_format(&seat->spec, spec, sizeof spec);
        json_array_append_new(
            seats, json_pack("{s:o,s:o,s:b}", "member",
                             seat->member >= 0 ? json_integer(seat->member) : json_null(), "bot",
                             seat->bot ? json_string(spec) : json_null(), "vacated",
                             seat->vacated));
    }
    json_t *j = json_pack("{s:i,s:s,s:s,s:i,s:b,s:b,s:b,s:i,s:I,s:s,s:i,s:i,s:I,s:I,s:o,s:o}", "v",
                          1, "rules", rules, "bots", bots, "pace_ms", r->pace_ms, "public",
                          r->listed, "aid", r->aid, "chat", r->chat, "host", r->host, "joins",
                          (json_int_t)r->joins, "state", state_name(r->state), "dealer",
                          r->dealer, "games", r->games, "seq", (json_int_t)r->seq, "game_seq",
                          (json_int_t)r->game_seq, "members", members, "seats", seats);
    /* added after version 1's first form: read as optional */
    if (j)
        json_object_update_new(j, json_pack("{s:i,s:i,s:i,s:[i,i]}", "turn_ms", r->turn_ms,
                                            "grace_ms", r->grace_ms, "match_to", r->match_to,
                                            "wins", r->wins[0], r->wins[1]));
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
    for (int s = 0; s < r->rules.players; s++)
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

/* The comment that marks an action the basic bot made for a player (the
 * record keeps it; read_marks reads it back). */
static const char *const mark_texts[] = {NULL, " ; timeout: the basic bot moved",
                                         " ; away: the basic bot moved"};

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
        if (lit_event_format(&r->rules, &r->log.events[i], (int)i + 1, line, sizeof line) >= 0)
            fprintf(f, "%s%s\n", line, r->by[i] ? mark_texts[r->by[i]] : "");
    if (fclose(f)) {
        free(text);
        return NULL;
    }
    return text;
}

/* The marks of a record's lines (its text as lines_text wrote it) into
 * by (BY_*, one per action). */
static void read_marks(uint8_t by[LIT_MAX_ACTIONS], const char *record)
{
    memset(by, 0, LIT_MAX_ACTIONS);
    for (const char *p = record; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
        char *end;
        unsigned long n = strtoul(p, &end, 10);
        const char *nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p) : strlen(p);
        if (end == p || *end != '.' || n < 1 || n > LIT_MAX_ACTIONS)
            continue;
        for (int k = BY_TIMEOUT; k <= BY_AWAY; k++) {
            size_t mlen = strlen(mark_texts[k]);
            if (len >= mlen && memcmp(p + len - mlen, mark_texts[k], mlen) == 0)
                by[n - 1] = (uint8_t)k;
        }
    }
}

/* The game has ended: its whole record waits for the next save. Out of
 * memory, r->unkept says it is still to be made. */
static void keep_ended(Room *r)
{
    r->unkept = 0;
    if (!r->hub->config.store)
        return;
    Ended *e = mem_calloc(1, sizeof *e);
    char *header = e ? record_text(r, 1) : NULL;
    if (header)
        e->record = lines_text(r, 0, header);
    free(header);
    forget_failures(r->hub);
    if (!e || !e->record) {
        free(e);
        log_line(r->hub, "room %s game %d: out of memory: its record is made later", r->code,
                 r->games);
        r->unkept = 1;
        return;
    }
    memcpy(e->id, r->game_id, sizeof e->id);
    snprintf(e->score, sizeof e->score, "%d-%d", r->game.pub.score[0], r->game.pub.score[1]);
    e->e = (StoreEnded){e->id, r->games, (int)r->log.len, lit_result_name(r->game.pub.result),
                        e->score, e->record};
    e->next = r->ended;
    r->ended = e;
}

/* Saves the room in one transaction: 0, or -1. */
static int save_room(Hub *h, Room *r)
{
    if (r->unkept)
        keep_ended(r);
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
            send_json(r->members[m].client,
                      json_pack("{s:s,s:b,s:s}", "type", "saved", "saved", saved, "text",
                                saved ? "the room is saved again"
                                      : "the server cannot save this room now: the game goes "
                                        "on, and it keeps trying"));
}

/* Saves every room changed (and forgets the rooms closed) before the hub
 * call returns. While saves fail they are tried again after a wait that
 * doubles up to HUB_RETRY_MAX_MS; meanwhile the rooms go on in memory and
 * their members are told they are not saved. */
static void flush(Hub *h, int64_t now)
{
    Store *st = h->config.store;
    if (!st || (!h->dirty && !h->drops))
        return;
    int failed = h->retry_ms && now < h->retry_at;
    while (!failed && h->drops) {
        Drop *d = h->drops;
        if (store_drop(st, d->code) != STORE_OK) {
            forget_failures(h);
            failed = 1;
            break;
        }
        h->drops = d->next;
        free(d);
    }
    for (Room **p = &h->dirty; *p;) {
        Room *r = *p;
        int saved = !failed && save_room(h, r) == 0;
        forget_failures(h); /* a failed save is told, and tried again */
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
        h->retry_ms = h->retry_ms ? h->retry_ms * 2 : HUB_RETRY_MS;
        if (h->retry_ms > HUB_RETRY_MAX_MS)
            h->retry_ms = HUB_RETRY_MAX_MS;
        h->retry_at = now + h->retry_ms;
        log_line(h, "store: %s: trying again in %d ms", store_error(st), h->retry_ms);
    } else if (!failed && h->retry_ms) {
        h->retry_ms = 0;
        log_line(h, "store: saving again");
    }
}

/* The room is closed for good: the store forgets it, once what it has not
 * saved yet (a game's end) is saved. */
static void forget_room(Hub *h, Room *r)
{
    Store *st = h->config.store;
    if (!st)
        return;
    if (r->state == ROOM_PLAYING) {
        /* nobody will finish it: it ends aborted, and its record is kept */
        abort_game(&r->game);
        finish_if_over(r);
        r->dirty = 1;
    }
    if (r->dirty && save_room(h, r))
        log_line(h, "room %s closed unsaved: %s", r->code, store_error(st));
    if (store_drop(st, r->code) == STORE_OK)
        return;
    Drop *d = mem_calloc(1, sizeof *d);
    if (d) {
        memcpy(d->code, r->code, sizeof d->code);
        d->next = h->drops;
        h->drops = d;
    }
}

/* ---- taking rooms up again -------------------------------------------------- */

static int is_token(const char *t)
{
    if (strlen(t) != HUB_TOKEN_LEN)
        return 0;
    for (int i = 0; i < HUB_TOKEN_LEN; i++)
        if (!strchr("0123456789abcdef", t[i]))
            return 0;
    return 1;
}

static int seat_bot(Hub *h, Room *r, int s, const LitBotSpec *spec);

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
        if (lit_name_check(name, strlen(name), HUB_NAME_MAX) != LIT_OK || !is_token(token) ||
            strlen(last_id) > HUB_ID_MAX || last_seq < 0 || last_seq > UINT32_MAX || joined < 0 ||
            joined > UINT32_MAX || waits < 0 || waits > HUB_WAITS)
            return "a member's name, token or last action does not read";
        mem->used = 1;
        mem->waits = (uint8_t)waits;
        memcpy(mem->name, name, strlen(name) + 1);
        memcpy(mem->token, token, HUB_TOKEN_LEN + 1);
        memcpy(mem->last_id, last_id, strlen(last_id) + 1);
        mem->last_seq = (uint32_t)last_seq;
        mem->joined = (uint32_t)joined;
        json_int_t s = json_integer_value(seat);
        if (!json_is_integer(seat) || s < 1 || s > r->rules.players)
            return "a member's seat is out of range";
        mem->seat = (uint8_t)(s - 1);
    }
    return NULL;
}

/* Whether a stored bot may play here: NULL, or why not (an expert needs
 * the hub's post, and at most HUB_EXPERT_ROLLOUTS_MAX rollouts). */
static const char *expert_here(const Hub *h, const LitBotSpec *b)
{
    if (b->kind != LIT_BOT_EXPERT)
        return NULL;
    if (!h->config.post)
        return "its expert bots have no worker here";
    return b->rollouts > HUB_EXPERT_ROLLOUTS_MAX ? "its expert bots search too long" : NULL;
}

/* The seats of a stored room: NULL, or what is wrong. */
static const char *read_seats(Hub *h, Room *r, json_t *seats)
{
    if (json_array_size(seats) != r->rules.players)
        return "not one seat for each player";
    for (int s = 0; s < r->rules.players; s++) {
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
            const char *why = expert_here(h, &b);
            if (why)
                return why;
            if (seat_bot(h, r, s, &b))
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
    if (!game || !record || !is_code(game, HUB_GAME_ID_LEN))
        return "its game's record is missing";
    LitRecord rec;
    char ours[LIT_RULES_TEXT_MAX], its[LIT_RULES_TEXT_MAX];
    lit_record_init(&rec, r->events, NULL, LIT_MAX_ACTIONS);
    if (lit_record_parse(&rec, record, strlen(record), NULL) != LIT_OK || !rec.has_deal)
        return "its game's record does not read";
    lit_rules_format(&r->rules, ours, sizeof ours);
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
        abort_game(&rp.game); /* the server ended it, not an action */
    } else if (rec.has_result && rec.result != LIT_ONGOING &&
               lit_replay_check_result(&rp, &rec, NULL)) {
        return "its game's result is not the replay's";
    }
    r->game = rp.game;
    r->log = log;
    read_marks(r->by, record);
    memcpy(r->game_id, game, HUB_GAME_ID_LEN + 1);
    for (int s = 0; s < r->rules.players; s++)
        memcpy(r->names[s], rec.names[s], sizeof r->names[s]);
    return NULL;
}

static const char NO_MEMBERS[] = "it has no members left";

static void pass_host(Room *r);
static int host_passes(Room *r, int64_t now);

/* A room from the store, with nobody connected: NULL, with *why set. */
static Room *read_room(Hub *h, const char *code, const char *state, const char *game,
                       const char *record, const char **why)
{
    json_t *j = json_loads(state, JSON_REJECT_DUPLICATES, NULL), *members, *seats;
    const char *rules, *bots, *st;
    int v, pace, listed, aid, chat = 1, host, dealer, games;
    int turn_ms = 0, grace_ms = HUB_GRACE_DEFAULT, match_to = 0, wins[2] = {0, 0};
    json_int_t joins, seq, game_seq;
    Room *r = room_new(h);
    *why = NULL;
    if (!r || !j) {
        *why = r ? "its state is not JSON" : "out of memory";
    } else if (json_unpack(j,
                           "{s:i,s:s,s:s,s:i,s:b,s:b,s?b,s:i,s:I,s:s,s:i,s:i,s:I,s:I,s:o,s:o,"
                           "s?i,s?i,s?i,s?[ii]!}",
                           "v", &v, "rules", &rules, "bots", &bots, "pace_ms", &pace, "public",
                           &listed, "aid", &aid, "chat", &chat, "host", &host, "joins", &joins,
                           "state", &st, "dealer", &dealer, "games", &games, "seq", &seq,
                           "game_seq", &game_seq, "members", &members, "seats", &seats,
                           "turn_ms", &turn_ms, "grace_ms", &grace_ms, "match_to", &match_to,
                           "wins", &wins[0], &wins[1]) ||
               v != 1 || !json_is_array(members) || !json_is_array(seats)) {
        *why = "its state does not read";
    } else if (!is_code(code, HUB_CODE_LEN) || lit_rules_parse(&r->rules, rules, NULL) != LIT_OK ||
               lit_bot_spec_parse(&r->bots, bots, strlen(bots)) != LIT_OK || pace < 0 ||
               pace > HUB_PACE_MAX || games < 0 ||
               games >= INT32_MAX || joins < 0 || joins >= UINT32_MAX || game_seq < 0 ||
               seq < game_seq || seq >= UINT32_MAX || dealer < 0 || host < -1 ||
               host >= HUB_MEMBERS_MAX || !turn_ok(turn_ms) || grace_ms < 0 ||
               grace_ms > HUB_GRACE_MAX || match_to < 0 || match_to > HUB_MATCH_MAX ||
               wins[0] < 0 || wins[1] < 0 || wins[0] > match_to || wins[1] > match_to) {
        *why = "its options or counts are out of range";
    } else {
        *why = expert_here(h, &r->bots);
    }
    if (!*why) {
        memcpy(r->code, code, HUB_CODE_LEN + 1);
        r->pace_ms = pace;
        r->turn_ms = turn_ms;
        r->grace_ms = grace_ms;
        r->match_to = match_to;
        r->wins[0] = wins[0];
        r->wins[1] = wins[1];
        r->listed = listed;
        r->aid = aid;
        r->chat = chat;
        r->joins = (uint32_t)joins;
        r->dealer = dealer;
        r->games = games;
        r->seq = (uint32_t)seq;
        r->game_seq = (uint32_t)game_seq;
        r->state = strcmp(st, "lobby") == 0 ? ROOM_LOBBY
                   : strcmp(st, "playing") == 0 ? ROOM_PLAYING
                   : strcmp(st, "over") == 0    ? ROOM_OVER
                                                : -1;
        if (r->state < 0 || dealer >= r->rules.players)
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
            pass_host(r); /* the host was a spectator */
        if (!*why && r->host < 0)
            *why = NO_MEMBERS;
    }
    json_decref(j);
    if (*why) {
        if (r)
            free_brains(r);
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
} Restore;

static int restore_room(void *ctx, const char *code, const char *state, const char *game,
                        const char *record)
{
    Restore *rs = ctx;
    Hub *h = rs->h;
    const char *why = "twice";
    if (!code || !state) {
        log_line(h, "a room not taken up: its row has no %s", code ? "state" : "code");
        return 0;
    }
    Room *r = find_room(h, code) ? NULL : read_room(h, code, state, game, record, &why);
    if (!r && why == NO_MEMBERS) {
        /* its spectators were all it had: gone, as their connections are */
        if (store_drop(h->config.store, code) != STORE_OK)
            log_line(h, "store: %s", store_error(h->config.store));
        return 0;
    }
    if (!r) {
        log_line(h, "room %.16s not taken up: %s", code, why);
        return 0;
    }
    r->idle_since = rs->now; /* until a member returns */
    for (int m = 0; m < HUB_MEMBERS_MAX; m++)
        r->members[m].gone_at = rs->now; /* their grace starts again */
    r->next = h->rooms;
    h->rooms = r;
    h->n_rooms++;
    rs->rooms++;
    log_line(h, "room %s taken up: %s, game %d", r->code, state_name(r->state), r->games);
    return 0;
}

int hub_restore(Hub *h, int64_t now)
{
    Restore rs = {h, now, 0};
    h->now = now;
    forget_failures(h); /* what failed before is not this call's */
    if (!h->config.store)
        return 0;
    if (store_rooms(h->config.store, restore_room, &rs) != STORE_OK) {
        log_line(h, "store: %s", store_error(h->config.store));
        return -1;
    }
    return rs.rooms;
}

/* ---- bots and time ------------------------------------------------------- */

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
    return r->turn_ms ? BY_TIMEOUT : -1;
}

static int expert_ready(Room *r, int seat);

/* Sets the room's times after any change (docs/PROTOCOL.md "Time"). The
 * seat on turn is moved for the room's pace (a bot) or its time (a timed
 * player) after the change of the game that gave it the turn; members
 * coming and going do not put that off (armed_seq, armed_by), but nothing
 * moves in a room nobody is connected to, nor during a wait. An expert bot
 * moves at its pace or when its answer comes back, whichever is later (its
 * job is handed out here). grace_at: when the first player gone is to be
 * stood in for; host_at: when a host gone passes the role on, if someone
 * connected is there to take it (else it passes when someone comes). */
static void arm(Room *r, int64_t now)
{
    int connected = connected_members(r), playing = r->state == ROOM_PLAYING && connected;
    r->host_at = INT64_MAX;
    if (r->host >= 0 && !r->members[r->host].client && connected)
        r->host_at = r->members[r->host].gone_at + r->grace_ms;
    r->grace_at = INT64_MAX;
    for (int m = 0; playing && m < HUB_MEMBERS_MAX; m++) {
        const Member *mem = &r->members[m];
        if (mem->used && !mem->client && !mem->away && mem->seat != LIT_NOBODY &&
            mem->gone_at + r->grace_ms < r->grace_at)
            r->grace_at = mem->gone_at + r->grace_ms;
    }
    int t = r->game.pub.turn, by = t == LIT_NOBODY ? -1 : mover(r, t);
    if (!playing || by < 0 || r->waiter >= 0) {
        r->wake_at = r->paced_at = INT64_MAX;
        return;
    }
    if (r->paced_at == INT64_MAX || r->armed_seq != r->game_seq || r->armed_by != by) {
        r->paced_at = now + (by == BY_TIMEOUT ? r->turn_ms : r->pace_ms);
        r->armed_seq = r->game_seq;
        r->armed_by = by;
    }
    r->wake_at = r->paced_at;
    if (by == BY_SEAT && r->seats[t].spec.kind == LIT_BOT_EXPERT) {
        int ready = expert_ready(r, t);
        if (ready <= 0) /* its answer is not back; out of memory: try again */
            r->wake_at = ready == 0 ? INT64_MAX : now + 1000;
    }
}

static uint64_t random_seed(Hub *h)
{
    uint64_t seed = 0;
    if (random_bytes(h, &seed, sizeof seed))
        seed = (uint64_t)(uintptr_t)h ^ 0x9E3779B97F4A7C15u; /* never reached on Linux */
    return seed;
}

/* A bot of spec in *brain, its memory fresh: 0, or -1 out of memory. */
static int new_brain(Hub *h, LitBot **brain, const LitBotSpec *spec)
{
    if (!*brain && !(*brain = mem_alloc(sizeof **brain))) {
        forget_failures(h);
        return -1;
    }
    lit_bot_init(*brain, spec, random_seed(h));
    return 0;
}

/* A bot plays seat s from now on (its own memory, fresh). */
static int seat_bot(Hub *h, Room *r, int s, const LitBotSpec *spec)
{
    Seat *seat = &r->seats[s];
    if (new_brain(h, &seat->brain, spec))
        return -1;
    seat->bot = 1;
    seat->spec = *spec;
    return 0;
}

/* ---- the expert's jobs (hub.h) ------------------------------------------ */

/* Hands out a job for the expert at seat s of r, made from the room as it
 * is: 0 out, 1 the queue is full (the room waits for a place: wanted), -1
 * out of memory. Only a hub with a post callback has expert seats (create
 * and hub_restore refuse them otherwise). */
static int hand_out(Room *r, int s)
{
    Hub *h = r->hub;
    Seat *seat = &r->seats[s];
    if (!seat->brain && new_brain(h, &seat->brain, &seat->spec))
        return -1;
    LitView v;
    view_of(r, s, &v);
    HubJob *j = mem_alloc(sizeof *j + v.history_len * sizeof *j->events);
    if (!j) {
        forget_failures(h);
        return -1;
    }
    memset(j, 0, sizeof *j);
    j->id = ++h->jobs;
    memcpy(j->room, r->code, sizeof j->room);
    j->seq = r->game_seq;
    j->status = LIT_NO_SPACE; /* until it runs */
    j->bot = *seat->brain;
    j->view = v;
    memcpy(j->events, v.history, v.history_len * sizeof *j->events);
    j->view.history = j->events;
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

/* A place in the queue is free: the rooms that waited for one get it, in
 * the order they asked, until the queue is full again. */
static void hand_out_wanted(Hub *h, int64_t now)
{
    for (;;) {
        Room *first = NULL;
        for (Room *r = h->rooms; r; r = r->next)
            if (r->wanted && (!first || r->wanted < first->wanted))
                first = r;
        if (!first)
            return;
        first->wanted = 0;
        arm(first, now); /* hands out its job if its expert is still to move */
        if (first->wanted)
            return;
    }
}

void hub_job_run(HubJob *j, void *work, size_t size)
{
    ReviewJob *rv = j->review;
    if (j->kind == HUB_JOB_REVIEW) {
        rv->status = lit_review(&rv->start, rv->events, rv->n_events, rv->seat, &rv->options,
                                work, size, rv->decisions, rv->n_events, &rv->summary);
        return;
    }
    lit_bot_lend(&j->bot, work, size);
    j->status = lit_bot_act(&j->bot, &j->view, &j->action);
    lit_bot_lend(&j->bot, NULL, 0);
}

static void review_done(Hub *h, HubJob *j);

void hub_job_done(Hub *h, HubJob *j, int64_t now)
{
    h->now = now;
    forget_failures(h); /* what failed before is not this call's */
    if (j->kind == HUB_JOB_REVIEW) {
        review_done(h, j);
        hub_job_free(j);
        hand_out_wanted(h, now); /* a place in the queue is free */
        flush(h, now);
        return;
    }
    Room *r = find_room(h, j->room);
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
    hand_out_wanted(h, now);
    if (r)
        arm(r, now); /* its move at the pace; dropped: a job for the state now */
    flush(h, now);
}

void hub_job_free(HubJob *j)
{
    if (j && j->review) {
        free(j->review->events);
        free(j->review->decisions);
        free(j->review);
    }
    free(j);
}

int hub_job_kind(const HubJob *j)
{
    return j->kind;
}

const char *hub_job_room(const HubJob *j)
{
    return j->room;
}

uint32_t hub_job_seq(const HubJob *j)
{
    return j->seq;
}

/* At the end of a game the seats whose players left are free again, and
 * a match counts the game. */
static void finish_if_over(Room *r)
{
    int result = r->game.pub.result;
    if (result == LIT_ONGOING)
        return;
    r->state = ROOM_OVER;
    r->waiter = -1;
    if (r->match_to && (result == LIT_WIN_A || result == LIT_WIN_B))
        r->wins[result == LIT_WIN_B]++;
    keep_ended(r);
    for (int s = 0; s < LIT_MAX_PLAYERS; s++)
        if (r->seats[s].vacated)
            r->seats[s].bot = r->seats[s].vacated = 0;
}

/* The seat on turn is moved for (its wake_at has come): by its bot, or by
 * the basic bot standing in for its player. An expert's move is the answer
 * of its job (arm handed it out), made for this very state. */
static void move_for(Hub *h, Room *r, int64_t now)
{
    int t = r->game.pub.turn, by = r->armed_by;
    r->wake_at = r->paced_at = INT64_MAX;
    if (r->state != ROOM_PLAYING || t == LIT_NOBODY || mover(r, t) != by)
        return;
    Seat *seat = &r->seats[t];
    LitAction a;
    int st;
    if (by == BY_SEAT && seat->spec.kind == LIT_BOT_EXPERT) {
        HubJob *j = r->answer;
        if (!j || j->seq != r->game_seq || !seat->brain)
            return; /* not back (arm hands its job out) */
        r->answer = NULL;
        *seat->brain = j->bot; /* its memory, now of this state */
        lit_bot_lend(seat->brain, NULL, 0);
        st = j->status;
        a = j->action;
        hub_job_free(j);
    } else {
        LitBot **brain = by == BY_SEAT ? &seat->brain : &seat->stand_in;
        if (!*brain && new_brain(h, brain, by == BY_SEAT ? &seat->spec : &BASIC)) {
            /* out of memory: try again in a second */
            r->wake_at = r->paced_at = now + 1000;
            return;
        }
        LitView v;
        view_of(r, t, &v);
        st = lit_bot_act(*brain, &v, &a);
    }
    if (st == LIT_OK)
        st = lit_game_play(&r->game, &r->log, &a);
    if (st != LIT_OK) {
        /* A built-in bot always answers a legal action; should it not,
         * the game is aborted rather than left waiting for ever. */
        fprintf(stderr, "serve: room %s: bot at seat %d: %s\n", r->code, t + 1,
                lit_status_name(st));
        abort_game(&r->game);
        finish_if_over(r);
        broadcast_game(r);
        return;
    }
    r->by[r->log.len - 1] = (uint8_t)by;
    finish_if_over(r);
    broadcast_event(h, r, &r->log.events[r->log.len - 1], 1);
}

/* Players gone past the grace period: the basic bot plays for each until
 * it returns. */
static void stand_in_for_gone(Hub *h, Room *r, int64_t now)
{
    for (int m = 0; m < HUB_MEMBERS_MAX; m++) {
        Member *mem = &r->members[m];
        if (mem->used && !mem->client && !mem->away && mem->seat != LIT_NOBODY &&
            mem->gone_at + r->grace_ms <= now) {
            mem->away = 1;
            log_line(h, "room %s seat %d: its player is away: the basic bot plays", r->code,
                     mem->seat + 1);
        }
    }
    broadcast_room(r);
    arm(r, now);
}

/* The wait ends (its player is ready, acted or went, or its time is up):
 * what was left of the turn's time runs again. */
static void end_wait(Room *r, int64_t now)
{
    if (r->waiter < 0)
        return;
    r->waiter = -1;
    if (r->held_ms >= 0)
        r->paced_at = now + r->held_ms;
    r->held_ms = -1;
    arm(r, now);
    broadcast(r, clock_frame);
}

void hub_tick(Hub *h, int64_t now)
{
    Room *next;
    h->now = now;
    forget_failures(h); /* what failed before is not this call's */
    for (Room *r = h->rooms; r; r = next) {
        next = r->next;
        if (r->idle_since >= 0 && now - r->idle_since >= ROOM_IDLE_MS) {
            close_room(h, r, 1);
            continue;
        }
        /* each arms the room again; a room with nothing due is not looked at */
        if (r->waiter >= 0 && r->wait_until <= now)
            end_wait(r, now);
        if (r->grace_at <= now)
            stand_in_for_gone(h, r, now);
        if (r->host_at <= now) {
            if (host_passes(r, now))
                broadcast_room(r);
            arm(r, now);
        }
        if (r->wake_at <= now) {
            move_for(h, r, now);
            arm(r, now); /* when move_for found nothing to move */
        }
    }
    flush(h, now);
}

int64_t hub_next_wake(const Hub *h)
{
    int64_t next = INT64_MAX;
    for (const Room *r = h->rooms; r; r = r->next) {
        if (r->wake_at < next)
            next = r->wake_at;
        if (r->grace_at < next)
            next = r->grace_at;
        if (r->host_at < next)
            next = r->host_at;
        if (r->waiter >= 0 && r->wait_until < next)
            next = r->wait_until;
        if (r->idle_since >= 0 && r->idle_since + ROOM_IDLE_MS < next)
            next = r->idle_since + ROOM_IDLE_MS;
    }
    if ((h->dirty || h->drops) && h->retry_at < next)
        next = h->retry_at;
    return next;
}

/* ---- members ------------------------------------------------------------- */

static Member *member_of(HubClient *c)
{
    return c->room ? &c->room->members[c->member] : NULL;
}

/* The member who joined first, among the connected ones (connected) or
 * all, or -1. */
static int first_joined(const Room *r, int connected)
{
    int best = -1;
    for (int m = 0; m < HUB_MEMBERS_MAX; m++)
        if (r->members[m].used && (!connected || r->members[m].client) &&
            (best < 0 || r->members[m].joined < r->members[best].joined))
            best = m;
    return best;
}

/* The host is gone for good (it left, was a spectator whose connection
 * went, or the room was taken up without it): the next host is the
 * connected member who joined first, else any. */
static void pass_host(Room *r)
{
    int best = first_joined(r, 1);
    r->host = best >= 0 ? best : first_joined(r, 0);
}

/* A host whose connection went keeps the role through the room's grace
 * (a reload, a short drop: the same grace a seat gets); past it the role
 * passes to the connected member who joined first, and stays where it is
 * while nobody is connected. Returns whether it moved. */
static int host_passes(Room *r, int64_t now)
{
    const Member *host = r->host >= 0 ? &r->members[r->host] : NULL;
    if (host && (host->client || now - host->gone_at < r->grace_ms))
        return 0;
    int best = first_joined(r, 1);
    if (best < 0 || best == r->host)
        return 0;
    r->host = best;
    return 1;
}

/* Adds a member for client c: NULL when the room is full. */
static Member *add_member(Hub *h, Room *r, HubClient *c, const char *name)
{
    for (int m = 0; m < HUB_MEMBERS_MAX; m++) {
        Member *mem = &r->members[m];
        if (mem->used)
            continue;
        memset(mem, 0, sizeof *mem);
        if (new_token(h, mem->token))
            return NULL;
        mem->used = 1;
        snprintf(mem->name, sizeof mem->name, "%s", name);
        mem->seat = LIT_NOBODY;
        mem->client = c;
        mem->joined = r->joins++;
        c->room = r;
        c->member = m;
        r->idle_since = -1;
        if (r->host < 0)
            r->host = m;
        return mem;
    }
    return NULL;
}

/* ---- the protocol's own errors (docs/PROTOCOL.md) ---------------------------- */

#define HUB_ERRORS(X)                                                                   \
    X(NOT_JSON, "not_json", "the message is not JSON")                                 \
    X(BAD_MESSAGE, "bad_message", "the message is not an object of the protocol")      \
    X(UNKNOWN_TYPE, "unknown_type", "there is no message of that type")                \
    X(UNKNOWN_KEY, "unknown_key", "the message has a key its type does not take")      \
    X(TOO_BIG, "too_big", "the message is longer than the protocol allows")            \
    X(BAD_VALUE, "bad_value", "a value is out of its range")                           \
    X(BAD_ID, "bad_id", "an action id is 1 to 64 bytes")                               \
    X(IN_ROOM, "in_room", "you are in a room already: leave it first")                 \
    X(NOT_IN_ROOM, "not_in_room", "you are in no room")                                \
    X(NO_ROOM, "no_room", "there is no room with that code")                           \
    X(ROOM_FULL, "room_full", "the room has no place left")                            \
    X(TOO_MANY_ROOMS, "too_many_rooms", "the server has as many rooms as it can hold") \
    X(TOO_MANY_OWN_ROOMS, "too_many_own_rooms",                                        \
      "rooms made from your address are still open: close one first")                 \
    X(TOO_MANY_MESSAGES, "too_many_messages",                                          \
      "messages come faster than the server takes them: slow down")                    \
    X(TOO_MANY_CONNECTIONS, "too_many_connections",                                    \
      "your address has as many connections as the server allows")                     \
    X(TOO_MANY_GUESSES, "too_many_guesses",                                            \
      "codes or tokens from your address found nothing too often: wait a moment")       \
    X(NAME_TAKEN, "name_taken", "someone in the room has that name")                   \
    X(BAD_TOKEN, "bad_token", "no member of that room has that token")                 \
    X(NOT_HOST, "not_host", "only the host may do that")                               \
    X(SEAT_TAKEN, "seat_taken", "that seat is taken")                                  \
    X(SEAT_EMPTY, "seat_empty", "nobody sits there")                                   \
    X(NOT_SEATED, "not_seated", "you have no seat at the table")                       \
    X(SEATS_EMPTY, "seats_empty", "every seat needs a player or a bot first")          \
    X(GAME_STARTED, "game_started", "not while a game is being played")                \
    X(NO_GAME, "no_game", "no game has started in this room")                          \
    X(STALE_STATE, "stale_state",                                                      \
      "the game has moved on since the state you acted on")                            \
    X(NO_AID, "no_aid", "this room does not allow the scoresheet aid")                 \
    X(CHAT_OFF, "chat_off", "this room is silent: chat is off")                        \
    X(BAD_TEXT, "bad_text",                                                            \
      "a chat line is 1 to 200 bytes of text, no control characters")                  \
    X(TOO_FAST, "too_fast", "five chat lines in ten seconds at most: wait a moment")   \
    X(NOT_PLAYING, "not_playing", "no game is being played in this room")              \
    X(WAITING, "waiting", "play is held: a player called wait")                        \
    X(NO_WAITS, "no_waits", "you have called wait as often as a game allows")          \
    X(NOT_WAITING, "not_waiting", "you have not called wait")                          \
    X(ALREADY_SEATED, "already_seated", "you have a seat already")                     \
    X(NO_REQUEST, "no_request", "nobody of that name is asking for a seat")            \
    X(BOT_NOT_OFFERED, "bot_not_offered",                                              \
      "this server runs no worker for the expert bot: choose another")                 \
    X(REPLACED, "replaced", "your seat was taken up on another connection")            \
    X(BAD_GAME, "bad_game", "a game id is 16 characters of BCDFGHJKLMNPQRSTVWXZ23456789") \
    X(UNFINISHED, "unfinished", "a game's record is private until it has ended")       \
    X(BAD_STEP, "bad_step", "after is 0 to the game's number of actions")              \
    X(NO_RECORDS, "no_records", "this server keeps no records (it runs without --db)") \
    X(STORE_ERROR, "store_error", "the server cannot read its store now: try again")   \
    X(BUSY, "busy", "your review is still being made: wait for it")                    \
    X(TOO_LONG, "too_long",                                                            \
      "the game is too long to replay (over 800 actions): download its record")        \
    X(REVIEW_NOT_OFFERED, "review_not_offered",                                        \
      "this server runs no worker for reviews")                                        \
    X(SERVER_ERROR, "server_error", "the server could not do that; try again")

typedef enum HubError {
#define X_(code, name, text) E_##code,
    HUB_ERRORS(X_)
#undef X_
} HubError;

static const char *const error_names[] = {
#define X_(code, name, text) name,
    HUB_ERRORS(X_)
#undef X_
};
static const char *const error_texts[] = {
#define X_(code, name, text) text,
    HUB_ERRORS(X_)
#undef X_
};

static int fail(HubClient *c, HubError e, const char *id)
{
    return send_error(c, error_names[e], error_texts[e], id);
}

/* The same error with a sentence that says more than the table's. */
static int fail_text(HubClient *c, HubError e, const char *text, const char *id)
{
    return send_error(c, error_names[e], text, id);
}

int hub_error_known(const char *name)
{
    for (size_t i = 0; i < sizeof error_names / sizeof *error_names; i++)
        if (strcmp(error_names[i], name) == 0)
            return 1;
    return lit_status_from_name(name) < 0;
}

/* ---- the messages -------------------------------------------------------- */

typedef struct Message {
    json_t *j;
    int64_t now;
} Message;

/* An optional integer field: 0 and *out set, 1 absent, -1 not an integer. */
static int opt_int(json_t *j, const char *key, json_int_t *out)
{
    json_t *v = json_object_get(j, key);
    if (!v)
        return 1;
    if (!json_is_integer(v))
        return -1;
    *out = json_integer_value(v);
    return 0;
}

/* A seat field (1-based) of a room: 0-based, or -1 after answering. */
static int seat_field(HubClient *c, const Room *r, json_t *j)
{
    json_int_t s = 0;
    if (opt_int(j, "seat", &s) != 0) {
        fail_text(c, E_BAD_MESSAGE, "seat must be a number", NULL);
        return -1;
    }
    if (s < 1 || s > r->rules.players) {
        send_status(c, LIT_BAD_SEAT, NULL);
        return -1;
    }
    return (int)(s - 1);
}

/* A name field: 1 to 32 bytes of UTF-8, no control characters. */
static const char *name_field(HubClient *c, json_t *j)
{
    const char *name = json_string_value(json_object_get(j, "name"));
    size_t len = name ? json_string_length(json_object_get(j, "name")) : 0;
    if (!name || strlen(name) != len || lit_name_check(name, len, HUB_NAME_MAX) != LIT_OK) {
        send_status(c, LIT_BAD_NAME, NULL);
        return NULL;
    }
    return name;
}

static int name_taken(const Room *r, const char *name)
{
    for (int m = 0; m < HUB_MEMBERS_MAX; m++)
        if (r->members[m].used && strcmp(r->members[m].name, name) == 0)
            return 1;
    return 0;
}

static void send_joined(HubClient *c)
{
    Room *r = c->room;
    char link[32];
    snprintf(link, sizeof link, "/#room=%s", r->code);
    send_json(c, json_pack("{s:s,s:s,s:s,s:s,s:s}", "type", "joined", "room", r->code, "token",
                           member_of(c)->token, "link", link, "name", member_of(c)->name));
}

/* What member m missed of the game after seq `from`, having seen every
 * frame up to it: the events since, the state now and its own part. NULL
 * when the hub cannot tell (a seq from before this game or this server's
 * start, or one it never sent): the whole game is sent instead. */
static json_t *catchup_json(const Room *r, int m, json_int_t from)
{
    if (!r->games || from < (json_int_t)r->base_seq || from > (json_int_t)r->seq)
        return NULL;
    const Member *me = &r->members[m];
    LitView v;
    view_of(r, me->seat, &v);
    json_t *events = json_array();
    for (uint32_t i = r->known_from; i < v.history_len; i++)
        if (r->event_seq[i] > from)
            json_array_append_new(events, event_of(r, &v.history[i], i));
    json_t *j = json_pack("{s:s,s:i,s:i,s:s,s:I,s:o,s:o,s:o}", "type", "catchup", "seq", r->seq,
                          "game", r->games, "id", r->game_id, "from", from, "events", events,
                          "state", wire_state(&v.pub), "clock", clock_json(r));
    return with_seat(j, r, me, &v);
}

/* What a member who arrives (or returns) is sent besides "joined": the
 * room, then the game (from: the last seq it saw, -1 none). */
static void catch_up(HubClient *c, json_int_t from)
{
    Room *r = c->room;
    broadcast_room(r);
    if (!r->games)
        return;
    json_t *j = from >= 0 ? catchup_json(r, c->member, from) : NULL;
    send_json(c, j ? j : game_json(r, c->member));
}

static int on_create(Hub *h, HubClient *c, Message *msg)
{
    json_t *j = msg->j;
    if (c->room)
        return fail(c, E_IN_ROOM, NULL);
    const char *name = name_field(c, j);
    if (!name)
        return -1;
    LitRules rules;
    const char *text = json_string_value(json_object_get(j, "rules"));
    if (json_object_get(j, "rules") && !text)
        return fail_text(c, E_BAD_MESSAGE, "rules must be a string", NULL);
    int st = lit_rules_parse(&rules, text ? text : "classic", NULL);
    if (st != LIT_OK)
        return send_status(c, st, NULL);
    json_int_t players = rules.players, pace = HUB_PACE_DEFAULT, turn_ms = 0,
               grace_ms = HUB_GRACE_DEFAULT, match_to = 0;
    if (opt_int(j, "players", &players) < 0 || opt_int(j, "pace_ms", &pace) < 0 ||
        opt_int(j, "turn_ms", &turn_ms) < 0 || opt_int(j, "grace_ms", &grace_ms) < 0 ||
        opt_int(j, "match_to", &match_to) < 0)
        return fail_text(c, E_BAD_MESSAGE,
                         "players, pace_ms, turn_ms, grace_ms and match_to must be numbers", NULL);
    if (players < LIT_MIN_PLAYERS || players > LIT_MAX_PLAYERS || players % 2)
        return send_status(c, LIT_BAD_RULE_VALUE, NULL);
    rules.players = (uint8_t)players;
    if (lit_rules_check(&rules) != LIT_OK)
        return send_status(c, LIT_BAD_RULE_VALUE, NULL);
    if (pace < 0 || pace > HUB_PACE_MAX)
        return fail_text(c, E_BAD_VALUE, "pace_ms is 0 to 10000", NULL);
    if (!turn_ok(turn_ms))
        return fail_text(c, E_BAD_VALUE, "turn_ms is 0 (untimed) or 10000 to 300000", NULL);
    if (grace_ms < 0 || grace_ms > HUB_GRACE_MAX)
        return fail_text(c, E_BAD_VALUE, "grace_ms is 0 to 600000", NULL);
    if (match_to < 0 || match_to > HUB_MATCH_MAX)
        return fail_text(c, E_BAD_VALUE, "match_to is 0 (no match) to 9", NULL);
    LitBotSpec bots;
    const char *level = json_string_value(json_object_get(j, "bots"));
    if (json_object_get(j, "bots") && !level)
        return fail_text(c, E_BAD_MESSAGE, "bots must be a string", NULL);
    if (!level)
        level = "basic";
    st = lit_bot_spec_parse(&bots, level, strlen(level));
    if (st != LIT_OK)
        return send_status(c, st, NULL);
    if (bots.kind == LIT_BOT_EXPERT && !h->config.post)
        return fail(c, E_BOT_NOT_OFFERED, NULL);
    if (bots.kind == LIT_BOT_EXPERT && bots.rollouts > HUB_EXPERT_ROLLOUTS_MAX)
        return fail_text(c, E_BAD_VALUE, "an expert's rollouts are 0 to 64 here", NULL);
    json_t *pub = json_object_get(j, "public"), *aid = json_object_get(j, "aid"),
           *chat = json_object_get(j, "chat");
    if ((pub && !json_is_boolean(pub)) || (aid && !json_is_boolean(aid)) ||
        (chat && !json_is_boolean(chat)))
        return fail_text(c, E_BAD_MESSAGE, "public, aid and chat must be true or false", NULL);
    if (h->n_rooms >= (h->config.max_rooms ? h->config.max_rooms : HUB_ROOMS_DEFAULT))
        return fail(c, E_TOO_MANY_ROOMS, NULL);
    int own = h->config.max_rooms_per_address ? h->config.max_rooms_per_address
                                              : HUB_ROOMS_PER_ADDRESS_DEFAULT;
    if (c->address && c->address->rooms >= own)
        return fail(c, E_TOO_MANY_OWN_ROOMS, NULL);

    Room *r = room_new(h);
    if (!r || new_code(h, r->code)) {
        free(r);
        return fail(c, E_SERVER_ERROR, NULL);
    }
    r->rules = rules;
    r->bots = bots;
    r->pace_ms = (int)pace;
    r->listed = pub ? json_is_true(pub) : 0;
    r->aid = aid ? json_is_true(aid) : 1;
    r->chat = chat ? json_is_true(chat) : 1;
    r->turn_ms = (int)turn_ms;
    r->grace_ms = (int)grace_ms;
    r->match_to = (int)match_to;
    Member *m = add_member(h, r, c, name);
    if (!m) {
        c->room = NULL;
        free(r);
        return fail(c, E_SERVER_ERROR, NULL);
    }
    m->seat = 0;
    r->seats[0].member = c->member;
    if ((r->made_from = c->address))
        r->made_from->rooms++;
    r->next = h->rooms;
    h->rooms = r;
    h->n_rooms++;
    char text2[LIT_RULES_TEXT_MAX];
    lit_rules_format(&r->rules, text2, sizeof text2);
    log_line(h, "room %s created: %s, %s bots, %s (%d rooms)", r->code, text2,
             lit_bot_kind_name(r->bots.kind), r->listed ? "public" : "private", h->n_rooms);
    send_joined(c);
    catch_up(c, -1);
    return 0;
}

/* Whether a member may take seat s now: 0, or the error. Before a game
 * (in the lobby, or between games) a seat is free when no member sits
 * there: a bot steps aside for a person; during a game only when its
 * player left (a bot keeps it meanwhile). */
static int seat_free(const Room *r, int s)
{
    const Seat *seat = &r->seats[s];
    if (seat->member >= 0)
        return E_SEAT_TAKEN;
    if (r->state == ROOM_PLAYING)
        return seat->vacated ? 0 : E_SEAT_TAKEN;
    return 0;
}

static void take_seat(Room *r, int m, int s)
{
    Member *mem = &r->members[m];
    if (mem->seat != LIT_NOBODY)
        r->seats[mem->seat].member = -1;
    mem->seat = (uint8_t)s;
    mem->asked = 0; /* seated: it asks for a seat no more */
    r->seats[s].member = m;
    r->seats[s].bot = 0;
    r->seats[s].vacated = 0;
}

static int on_join(Hub *h, HubClient *c, Message *msg)
{
    json_t *j = msg->j;
    if (c->room)
        return fail(c, E_IN_ROOM, NULL);
    const char *code = json_string_value(json_object_get(j, "room"));
    if (!code)
        return fail_text(c, E_BAD_MESSAGE, "room must be a string", NULL);
    if (guessing(h, c))
        return fail(c, E_TOO_MANY_GUESSES, NULL);
    Room *r = find_room(h, code);
    if (!r) {
        guessed(h, c);
        return fail(c, E_NO_ROOM, NULL);
    }
    const char *name = name_field(c, j);
    if (!name)
        return -1;
    if (name_taken(r, name))
        return fail(c, E_NAME_TAKEN, NULL);
    int s = -1;
    if (json_object_get(j, "seat")) {
        if ((s = seat_field(c, r, j)) < 0)
            return -1;
        int e = seat_free(r, s);
        if (e)
            return fail(c, (HubError)e, NULL);
    }
    if (!add_member(h, r, c, name))
        return fail(c, E_ROOM_FULL, NULL);
    host_passes(r, msg->now);
    if (s >= 0)
        take_seat(r, c->member, s);
    send_joined(c);
    catch_up(c, -1);
    arm(r, msg->now);
    return 0;
}

/* Constant-time comparison of two tokens of HUB_TOKEN_LEN digits. */
static int same_token(const char *a, const char *b)
{
    unsigned diff = 0;
    size_t n = strlen(b);
    if (n != HUB_TOKEN_LEN)
        return 0;
    for (size_t i = 0; i < HUB_TOKEN_LEN; i++)
        diff |= (unsigned)(a[i] ^ b[i]);
    return diff == 0;
}

static int on_resume(Hub *h, HubClient *c, Message *msg)
{
    json_t *j = msg->j;
    if (c->room)
        return fail(c, E_IN_ROOM, NULL);
    const char *code = json_string_value(json_object_get(j, "room"));
    const char *token = json_string_value(json_object_get(j, "token"));
    json_int_t from = -1;
    if (!code || !token)
        return fail_text(c, E_BAD_MESSAGE, "room and token must be strings", NULL);
    if (opt_int(j, "seq", &from) < 0 || from < -1)
        return fail_text(c, E_BAD_MESSAGE, "seq must be a number, the last one seen", NULL);
    if (guessing(h, c))
        return fail(c, E_TOO_MANY_GUESSES, NULL);
    Room *r = find_room(h, code);
    if (!r) {
        guessed(h, c);
        return fail(c, E_NO_ROOM, NULL);
    }
    int found = -1;
    for (int m = 0; m < HUB_MEMBERS_MAX; m++)
        if (r->members[m].used && same_token(r->members[m].token, token))
            found = m;
    if (found < 0) {
        guessed(h, c);
        return fail(c, E_BAD_TOKEN, NULL);
    }
    Member *mem = &r->members[found];
    if (mem->client) {
        /* the same member on another connection: the newer one wins */
        HubClient *old = mem->client;
        old->room = NULL;
        fail(old, E_REPLACED, NULL);
        close_client(old, HUB_CLOSE_NORMAL, "replaced");
    }
    mem->client = c;
    c->room = r;
    c->member = found;
    r->idle_since = -1;
    if (mem->away) { /* back: the basic bot stops standing in */
        mem->away = 0;
        log_line(h, "room %s seat %d: its player is back", r->code, mem->seat + 1);
    }
    host_passes(r, msg->now);
    send_joined(c);
    catch_up(c, from);
    arm(r, msg->now);
    return 0;
}

/* The public rooms not playing that someone is connected to, newest first,
 * HUB_LOBBY_PAGE a page. */
static int on_lobby(Hub *h, HubClient *c, Message *msg)
{
    json_int_t page = 0;
    if (opt_int(msg->j, "page", &page) < 0)
        return fail_text(c, E_BAD_MESSAGE, "page must be a number", NULL);
    if (page < 0)
        return fail_text(c, E_BAD_VALUE, "page is 0 or more", NULL);
    json_t *rooms = json_array();
    json_int_t total = 0;
    for (Room *r = h->rooms; r; r = r->next) {
        /* a room every member of which has gone is not offered */
        if (!r->listed || r->state == ROOM_PLAYING || !connected_members(r))
            continue;
        if (total++ / HUB_LOBBY_PAGE != page)
            continue;
        int seated = 0;
        for (int s = 0; s < r->rules.players; s++)
            seated += r->seats[s].member >= 0 || r->seats[s].bot;
        char rules[LIT_RULES_TEXT_MAX];
        lit_rules_format(&r->rules, rules, sizeof rules);
        json_array_append_new(
            rooms, json_pack("{s:s,s:s,s:i,s:i,s:s,s:i,s:i}", "code", r->code, "rules", rules,
                             "players", r->rules.players, "seated", seated, "host",
                             r->host >= 0 ? r->members[r->host].name : "", "turn_ms", r->turn_ms,
                             "match_to", r->match_to));
    }
    send_json(c, json_pack("{s:s,s:I,s:I,s:I,s:o}", "type", "lobby", "page", page, "pages",
                           total ? (total + HUB_LOBBY_PAGE - 1) / HUB_LOBBY_PAGE : 1, "total",
                           total, "rooms", rooms));
    return 0;
}

static int on_sit(Hub *h, HubClient *c, Message *msg)
{
    (void)h;
    Room *r = c->room;
    int s = seat_field(c, r, msg->j);
    if (s < 0)
        return -1;
    if (r->state == ROOM_PLAYING && member_of(c)->seat != LIT_NOBODY)
        return fail(c, E_GAME_STARTED, NULL);
    int e = seat_free(r, s);
    if (e)
        return fail(c, (HubError)e, NULL);
    take_seat(r, c->member, s);
    broadcast_room(r);
    if (r->state == ROOM_PLAYING) {
        send_json(c, game_json(r, c->member));
        arm(r, msg->now);
    }
    return 0;
}

static int on_stand(Hub *h, HubClient *c, Message *msg)
{
    (void)h, (void)msg;
    Room *r = c->room;
    Member *m = member_of(c);
    if (m->seat == LIT_NOBODY)
        return fail(c, E_NOT_SEATED, NULL);
    if (r->state == ROOM_PLAYING)
        return fail(c, E_GAME_STARTED, NULL);
    r->seats[m->seat].member = -1;
    m->seat = LIT_NOBODY;
    broadcast_room(r);
    return 0;
}

static int on_bot(Hub *h, HubClient *c, Message *msg)
{
    Room *r = c->room;
    int s = seat_field(c, r, msg->j);
    if (s < 0)
        return -1;
    if (r->seats[s].member >= 0 || r->seats[s].bot)
        return fail(c, E_SEAT_TAKEN, NULL);
    if (seat_bot(h, r, s, &r->bots))
        return fail(c, E_SERVER_ERROR, NULL);
    broadcast_room(r);
    return 0;
}

static int on_fill(Hub *h, HubClient *c, Message *msg)
{
    (void)msg;
    Room *r = c->room;
    for (int s = 0; s < r->rules.players; s++)
        if (r->seats[s].member < 0 && !r->seats[s].bot && seat_bot(h, r, s, &r->bots))
            return fail(c, E_SERVER_ERROR, NULL);
    broadcast_room(r);
    return 0;
}

/* Member m is no longer in the room (left or was kicked). During a game a
 * basic bot plays its seat, which another member may take. */
static void remove_member(Hub *h, Room *r, int m, int64_t now)
{
    Member *mem = &r->members[m];
    int s = mem->seat;
    if (s != LIT_NOBODY) {
        r->seats[s].member = -1;
        if (r->state == ROOM_PLAYING) {
            /* the basic bot (never a stronger one) keeps the seat; out of
             * memory, move_for makes its memory when it is to move */
            if (seat_bot(h, r, s, &BASIC)) {
                r->seats[s].bot = 1;
                r->seats[s].spec = BASIC;
            }
            r->seats[s].vacated = 1;
        }
    }
    if (mem->client)
        mem->client->room = NULL;
    if (r->waiter == m)
        end_wait(r, now);
    memset(mem, 0, sizeof *mem);
    if (r->host == m)
        pass_host(r);
    if (r->host < 0) {
        close_room(h, r, 1);
        return;
    }
    if (!connected_members(r) && r->idle_since < 0)
        r->idle_since = now;
    broadcast_room(r);
    arm(r, now);
}

static int on_kick(Hub *h, HubClient *c, Message *msg)
{
    Room *r = c->room;
    int s = seat_field(c, r, msg->j);
    if (s < 0)
        return -1;
    Seat *seat = &r->seats[s];
    if (seat->member == c->member)
        return send_status(c, LIT_BAD_SEAT, NULL);
    if (seat->member >= 0) {
        HubClient *them = r->members[seat->member].client;
        if (them)
            send_json(them, json_pack("{s:s,s:s}", "type", "kicked", "room", r->code));
        remove_member(h, r, seat->member, msg->now);
        return -1;
    }
    if (!seat->bot)
        return fail(c, E_SEAT_EMPTY, NULL);
    if (r->state == ROOM_PLAYING)
        return fail(c, E_GAME_STARTED, NULL);
    seat->bot = 0;
    broadcast_room(r);
    return 0;
}

static int on_shuffle(Hub *h, HubClient *c, Message *msg)
{
    (void)msg;
    Room *r = c->room;
    for (int s = r->rules.players - 1; s > 0; s--) {
        uint32_t x;
        if (random_bytes(h, &x, sizeof x))
            return fail(c, E_SERVER_ERROR, NULL);
        int t = (int)(x % (uint32_t)(s + 1));
        Seat tmp = r->seats[s];
        r->seats[s] = r->seats[t];
        r->seats[t] = tmp;
    }
    for (int s = 0; s < r->rules.players; s++)
        if (r->seats[s].member >= 0)
            r->members[r->seats[s].member].seat = (uint8_t)s;
    broadcast_room(r);
    return 0;
}

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

static int on_start(Hub *h, HubClient *c, Message *msg)
{
    (void)msg;
    Room *r = c->room;
    for (int s = 0; s < r->rules.players; s++)
        if (r->seats[s].member < 0 && !r->seats[s].bot)
            return fail(c, E_SEATS_EMPTY, NULL);
    /* a match won: the next game starts a new one */
    int new_match = r->match_to && (r->wins[0] >= r->match_to || r->wins[1] >= r->match_to);
    /* the first game is dealt by seat 1; each next one by the seat to the
     * last dealer's left. In a match the team that lost starts the next
     * game, and after a draw the team that did not start it (002; RULES.md,
     * "Outside the engine"): the deal then passes one seat further. */
    int dealer = r->games ? (r->dealer + 1) % r->rules.players : 0;
    int starts = r->match_to && r->games && !new_match ? next_starters(r) : -1;
    LitGame game;
    int st = LIT_OK;
    for (int tries = 0; tries < 2; tries++) {
        if (h->config.deal) {
            uint64_t hands[LIT_MAX_PLAYERS] = {0};
            h->config.deal(hands, r->rules.players, dealer, h->config.ctx);
            st = lit_game_from_deal(&game, &r->rules, hands, dealer);
        } else {
            st = lit_game_new(&game, &r->rules, random_seed(h), dealer);
        }
        if (st != LIT_OK || starts < 0 || lit_team_of(game.pub.turn) == starts)
            break;
        dealer = (dealer + 1) % r->rules.players;
    }
    if (st != LIT_OK)
        return send_status(c, st, NULL);
    char id[HUB_GAME_ID_LEN + 1];
    if (r->unkept)
        keep_ended(r); /* the last game's record, before the game goes */
    if (r->unkept || random_code(h, id, HUB_GAME_ID_LEN))
        return fail(c, E_SERVER_ERROR, NULL);
    for (int s = 0; s < r->rules.players; s++)
        if (r->seats[s].member < 0 && seat_bot(h, r, s, &r->seats[s].spec))
            return fail(c, E_SERVER_ERROR, NULL);
    /* the record's header: the deal, and who sits where (a bot by its name) */
    memcpy(r->game_id, id, sizeof id);
    r->start = game;
    for (int s = 0; s < r->rules.players; s++) {
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
    log_line(h, "room %s game %d started, dealer %d", r->code, r->games, dealer + 1);
    broadcast_game(r);
    r->base_seq = r->seq; /* a member who saw the game frame can catch up */
    broadcast_room(r);    /* the room is playing, and everyone's waits are whole */
    return 0;
}

static int on_act(Hub *h, HubClient *c, Message *msg)
{
    (void)h;
    static const char *const extra[] = {"type", "seq", "id", NULL};
    json_t *j = msg->j;
    const char *id = json_string_value(json_object_get(j, "id"));
    json_int_t seq = 0;
    if (!id || json_string_length(json_object_get(j, "id")) < 1 ||
        json_string_length(json_object_get(j, "id")) > HUB_ID_MAX || strlen(id) == 0)
        return fail(c, E_BAD_ID, NULL);
    if (opt_int(j, "seq", &seq) != 0)
        return fail_text(c, E_BAD_MESSAGE, "seq must be a number", id);
    Room *r = c->room;
    if (!r)
        return fail(c, E_NOT_IN_ROOM, id);
    Member *m = member_of(c);
    /* 1. a repeated action: answered as the first time, nothing changes */
    if (m->last_id[0] && strcmp(m->last_id, id) == 0) {
        send_json(c, json_pack("{s:s,s:s,s:i,s:b}", "type", "ack", "id", id, "seq", m->last_seq,
                               "repeat", 1));
        return -1;
    }
    if (m->seat == LIT_NOBODY)
        return fail(c, E_NOT_SEATED, id);
    if (!r->games)
        return fail(c, E_NO_GAME, id);
    /* 2. an action on a state the game has left, or while another's wait
     * holds play */
    if (seq < (json_int_t)r->game_seq || seq > (json_int_t)r->seq)
        return fail(c, E_STALE_STATE, id);
    if (r->waiter >= 0 && r->waiter != c->member)
        return fail(c, E_WAITING, id);
    LitAction a;
    char why[WIRE_WHY_MAX];
    if (wire_read_action(&r->rules, m->seat, j, extra, &a, why)) {
        char *colon = strchr(why, ':');
        *colon = 0;
        return send_error(c, why, colon + 2, id);
    }
    /* 3. the referee */
    int st = lit_game_play(&r->game, &r->log, &a);
    if (st != LIT_OK)
        return send_status(c, st, id);
    r->by[r->log.len - 1] = BY_SEAT;
    if (r->waiter >= 0) { /* its own wait: acting ends it */
        r->waiter = -1;
        r->held_ms = -1;
    }
    finish_if_over(r);
    snprintf(m->last_id, sizeof m->last_id, "%s", id);
    m->last_seq = r->seq + 1;
    send_json(c, json_pack("{s:s,s:s,s:i,s:b}", "type", "ack", "id", id, "seq", m->last_seq,
                           "repeat", 0));
    broadcast_event(h, r, &r->log.events[r->log.len - 1], 0);
    return 0;
}

/* The scoresheet of knowledge k (st: LIT_OK, or why k could not be made)
 * as a frame of that type: certain knowledge and exact odds, estimated at
 * 10 and 12 players beyond the state budget from AID_SAMPLES draws seeded
 * by seed (0: one drawn from the hub's random source). Frees k (may be
 * NULL); NULL when out of memory. */
static json_t *sheet_json(Hub *h, LitKnow *k, int st, uint64_t seed, const char *type)
{
    LitOdds *o = mem_alloc(sizeof *o);
    if (!h->work)
        h->work = mem_alloc(LIT_ODDS_WORK);
    if (!k || !o || !h->work)
        st = LIT_NO_SPACE;
    if (st == LIT_OK) {
        memset(o, 0, sizeof *o);
        st = lit_odds(k, h->work, LIT_ODDS_WORK, o);
    }
    if (st == LIT_OK && !o->exact) {
        LitRng rng;
        lit_rng_seed(&rng, seed ? seed : random_seed(h));
        st = lit_odds_estimate(k, &rng, AID_SAMPLES, h->work, LIT_ODDS_WORK, o);
    }
    json_t *j = st == LIT_OK ? wire_scoresheet(k, o) : NULL;
    if (j)
        json_object_set_new(j, "type", json_string(type));
    free(k);
    free(o);
    return j;
}

/* The scoresheet from the member's view. Counting takes up to a tenth of a
 * second at 8 players on the one event loop, so each seat's answer is kept
 * until the game changes: asking again is free. */
static json_t *scoresheet(Hub *h, const Room *r, int seat)
{
    LitView v;
    view_of(r, seat, &v);
    LitKnow *k = mem_alloc(sizeof *k);
    return sheet_json(h, k, k ? lit_know_from_view(k, &v) : LIT_NO_SPACE, 0, "aid");
}

static int on_aid(Hub *h, HubClient *c, Message *msg)
{
    (void)msg;
    Room *r = c->room;
    if (!r->aid)
        return fail(c, E_NO_AID, NULL);
    int s = member_of(c)->seat;
    if (s == LIT_NOBODY)
        return fail(c, E_NOT_SEATED, NULL);
    if (!r->games)
        return fail(c, E_NO_GAME, NULL);
    if (!r->aids[s] || r->aids_seq[s] != r->game_seq) {
        json_decref(r->aids[s]);
        r->aids[s] = scoresheet(h, r, s);
        r->aids_seq[s] = r->game_seq;
        if (r->aids[s] && mem_failures() != h->failures) { /* short: not kept */
            json_decref(r->aids[s]);
            r->aids[s] = NULL;
        }
        if (!r->aids[s])
            return fail(c, E_SERVER_ERROR, NULL);
    }
    json_t *j = json_copy(r->aids[s]);
    if (!j)
        return fail(c, E_SERVER_ERROR, NULL);
    json_object_set_new(j, "seq", json_integer(r->seq));
    send_json(c, j);
    return 0;
}

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

static int over_rate(const Hub *h, HubClient *c, int64_t now, int weight);

/* A finished game read from the store and replayed by the referee. */
typedef struct Finished {
    char id[HUB_GAME_ID_LEN + 1];
    char *text;                    /* the record (store_record's) */
    LitRecord rec;                 /* its events point into events */
    LitGame start;                 /* the deal */
    LitEvent *events;              /* LIT_RECORD_MAX_EVENTS: the record's */
    LitEvent *applied;             /* rec.n_events: as the referee gave them */
} Finished;

static void finished_free(Finished *f)
{
    free(f->text);
    free(f->events);
    free(f->applied);
}

/* The game id of the message's "game": 0 and id set, or -1 after answering
 * (bad_game: not 16 characters of the codes' alphabet). */
static int game_field(HubClient *c, json_t *j, char id[HUB_GAME_ID_LEN + 1])
{
    json_t *v = json_object_get(j, "game");
    const char *s = json_string_value(v);
    if (!s || json_string_length(v) != HUB_GAME_ID_LEN || !is_code(s, HUB_GAME_ID_LEN))
        return fail(c, E_BAD_GAME, NULL);
    memcpy(id, s, HUB_GAME_ID_LEN + 1);
    return 0;
}

/* Whether the client may ask for a heavy message now: HUB_HEAVY messages
 * against its rate, the one hub_receive counted among them. 0, or -1 after
 * answering too_many_messages. */
static int heavy(Hub *h, HubClient *c, int64_t now)
{
    if (over_rate(h, c, now, HUB_HEAVY - 1))
        return fail(c, E_TOO_MANY_MESSAGES, NULL);
    return 0;
}

/* Reads the finished game id into f: 0, or -1 after answering
 * (no_records, no_game, unfinished, store_error, server_error). */
static int read_finished(Hub *h, HubClient *c, const char *id, Finished *f)
{
    memset(f, 0, sizeof *f);
    memcpy(f->id, id, sizeof f->id);
    if (!h->config.store)
        return fail(c, E_NO_RECORDS, NULL);
    size_t len = 0;
    int st = store_record(h->config.store, id, &f->text, &len);
    if (st == STORE_NOT_FOUND)
        return fail_text(c, E_NO_GAME, "no game has that id", NULL);
    if (st == STORE_UNFINISHED)
        return fail(c, E_UNFINISHED, NULL);
    if (st != STORE_OK && mem_failures() != h->failures) /* out of memory */
        return fail(c, E_SERVER_ERROR, NULL);
    if (st != STORE_OK) {
        log_line(h, "store: record %s: %s", id, store_error(h->config.store));
        return fail(c, E_STORE_ERROR, NULL);
    }
    f->events = mem_alloc(LIT_RECORD_MAX_EVENTS * sizeof *f->events);
    if (!f->events) {
        finished_free(f);
        return fail(c, E_SERVER_ERROR, NULL);
    }
    lit_record_init(&f->rec, f->events, NULL, LIT_RECORD_MAX_EVENTS);
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
        log_line(h, "store: record %s does not replay: %s", id, lit_status_name(st));
        finished_free(f);
        return fail(c, E_SERVER_ERROR, NULL);
    }
    return 0;
}

/* A seat field of a finished game (1-based): 0-based, or -1 after
 * answering (bad_message, bad_seat). */
static int game_seat(HubClient *c, const Finished *f, json_t *j)
{
    json_int_t s = 0;
    if (opt_int(j, "seat", &s) != 0)
        return fail_text(c, E_BAD_MESSAGE, "seat must be a number", NULL);
    if (s < 1 || s > f->rec.rules.players)
        return send_status(c, LIT_BAD_SEAT, NULL);
    return (int)(s - 1);
}

/* Step k of the replay: the event that led to it (null for the deal), the
 * public state and every hand. */
static json_t *step_json(const Finished *f, const LitGame *g, uint32_t k, const uint8_t *by)
{
    json_t *event = json_null();
    if (k > 0) {
        event = wire_event(&f->rec.rules, &f->applied[k - 1], k);
        if (event && by[k - 1])
            json_object_set_new(event, "stand_in", json_string(stand_in_names[by[k - 1]]));
    }
    json_t *hands = json_array();
    for (int s = 0; s < f->rec.rules.players; s++)
        json_array_append_new(hands, wire_cards(f->rec.rules.deck, g->hands[s]));
    return json_pack("{s:o,s:o,s:o}", "event", event, "state", wire_state(&g->pub), "hands",
                     hands);
}

/* {"type":"replay","game":ID}: the whole game, step by step, every hand
 * shown. */
static int on_replay(Hub *h, HubClient *c, Message *msg)
{
    char id[HUB_GAME_ID_LEN + 1];
    Finished f;
    if (game_field(c, msg->j, id) || heavy(h, c, msg->now) || read_finished(h, c, id, &f))
        return -1;
    if (f.rec.n_events > HUB_REPLAY_ACTIONS) { /* its frame would not fit a client's queue */
        finished_free(&f);
        return fail(c, E_TOO_LONG, NULL);
    }
    uint8_t *by = mem_alloc(LIT_MAX_ACTIONS);
    if (!by) {
        finished_free(&f);
        return fail(c, E_SERVER_ERROR, NULL);
    }
    read_marks(by, f.text);
    LitGame g = f.start;
    json_t *steps = json_array(), *names = json_array();
    for (uint32_t k = 0; k <= f.rec.n_events; k++) {
        if (k > 0) /* replayed before: the referee takes it again */
            lit_game_apply(&g, &f.applied[k - 1].action, NULL);
        json_array_append_new(steps, step_json(&f, &g, k, by));
    }
    for (int s = 0; s < f.rec.rules.players; s++)
        json_array_append_new(names, f.rec.names[s][0] ? json_string(f.rec.names[s])
                                                       : json_null());
    char rules[LIT_RULES_TEXT_MAX];
    lit_rules_format(&f.rec.rules, rules, sizeof rules);
    send_json(c, json_pack("{s:s,s:s,s:s,s:i,s:o,s:i,s:o,s:s,s:o}", "type", "replay", "game", id,
                           "rules", rules, "players", f.rec.rules.players, "names", names,
                           "dealer", f.rec.dealer + 1, "sets", wire_sets(f.rec.rules.deck),
                           "result", lit_result_name(f.rec.result), "steps", steps));
    free(by);
    finished_free(&f);
    return 0;
}

/* {"type":"sheet","game":ID,"seat":N,"after":K}: the scoresheet of seat N
 * after K actions, as `lit infer --seat N --after K --samples 4000 --json`
 * gives it (the same counting; estimates seeded by 1). */
static int on_sheet(Hub *h, HubClient *c, Message *msg)
{
    char id[HUB_GAME_ID_LEN + 1];
    Finished f;
    json_int_t after = 0;
    if (game_field(c, msg->j, id) || heavy(h, c, msg->now))
        return -1;
    if (opt_int(msg->j, "after", &after) != 0)
        return fail_text(c, E_BAD_MESSAGE, "after must be a number", NULL);
    if (read_finished(h, c, id, &f))
        return -1;
    int seat = game_seat(c, &f, msg->j);
    if (seat >= 0 && (after < 0 || after > (json_int_t)f.rec.n_events)) {
        char text[WIRE_WHY_MAX];
        snprintf(text, sizeof text, "after is 0 to %u: the game's actions", f.rec.n_events);
        seat = fail_text(c, E_BAD_STEP, text, NULL);
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
    json_t *j = sheet_json(h, k, st, 1, "sheet");
    finished_free(&f);
    if (!j)
        return fail(c, E_SERVER_ERROR, NULL);
    json_object_set_new(j, "game", json_string(id));
    send_json(c, j);
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

/* A review job back (hub_job_done): kept, and sent to the client that asked
 * if it is still connected. */
static void review_done(Hub *h, HubJob *j)
{
    ReviewJob *rv = j->review;
    HubClient *c = h->clients;
    while (c && c->review != j->id)
        c = c->next;
    h->reviews_out--;
    if (c)
        c->review = 0;
    json_t *review = NULL;
    if (rv->status >= 0) {
        review = wire_review(&rv->start.pub.rules, rv->seat, &rv->options, rv->decisions,
                             (uint32_t)rv->status, &rv->summary);
        if (review && !whole(h)) { /* short: neither sent nor kept */
            json_decref(review);
            review = NULL;
        }
    } else {
        log_line(h, "review %s seat %d: %s", rv->game, rv->seat + 1,
                 lit_status_name(rv->status));
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
        send_json(c, review_frame(rv->game, rv->seat, review));
    else if (c)
        fail(c, E_SERVER_ERROR, NULL);
    json_decref(review);
}

/* {"type":"review","game":ID,"seat":N}: the review of seat N's decisions
 * (docs/REVIEW.md) at the expert's default budget and seed 1, made on the
 * worker; answered at once when kept. */
static int on_review(Hub *h, HubClient *c, Message *msg)
{
    char id[HUB_GAME_ID_LEN + 1];
    json_int_t s = 0;
    if (game_field(c, msg->j, id) || heavy(h, c, msg->now))
        return -1;
    if (opt_int(msg->j, "seat", &s) != 0)
        return fail_text(c, E_BAD_MESSAGE, "seat must be a number", NULL);
    KeptReview *kept = s >= 1 && s <= LIT_MAX_PLAYERS ? kept_review(h, id, (int)s - 1) : NULL;
    if (kept) {
        send_json(c, review_frame(id, kept->seat, kept->review));
        return 0;
    }
    if (!h->config.post)
        return fail(c, E_REVIEW_NOT_OFFERED, NULL);
    if (c->review)
        return fail(c, E_BUSY, NULL);
    Finished f;
    if (read_finished(h, c, id, &f))
        return -1;
    int seat = game_seat(c, &f, msg->j);
    if (seat < 0) {
        finished_free(&f);
        return -1;
    }
    if (h->reviews_out >= HUB_REVIEWS_OUT) {
        finished_free(&f);
        return fail_text(c, E_BUSY, "the server is making other reviews: ask again in a moment",
                         NULL);
    }
    HubJob *j = mem_calloc(1, sizeof *j);
    ReviewJob *rv = mem_calloc(1, sizeof *rv);
    uint32_t n = f.rec.n_events ? f.rec.n_events : 1;
    if (j && rv) {
        rv->events = mem_alloc(n * sizeof *rv->events);
        rv->decisions = mem_alloc(n * sizeof *rv->decisions);
    }
    if (!j || !rv || !rv->events || !rv->decisions) {
        if (rv) {
            free(rv->events);
            free(rv->decisions);
        }
        free(rv);
        free(j);
        finished_free(&f);
        return fail(c, E_SERVER_ERROR, NULL);
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
    finished_free(&f);
    if (h->config.post(j, h->config.ctx)) {
        hub_job_free(j);
        return fail_text(c, E_BUSY, "the server is making other reviews: ask again in a moment",
                         NULL);
    }
    c->review = j->id;
    h->reviews_out++;
    return 0;
}

/* A chat line, to every connected member of the room (rendered as text by
 * clients; never logged). At most HUB_CHAT_BURST lines in
 * HUB_CHAT_WINDOW_MS per member. */
static int on_chat(Hub *h, HubClient *c, Message *msg)
{
    (void)h;
    Room *r = c->room;
    Member *me = member_of(c);
    if (!r->chat)
        return fail(c, E_CHAT_OFF, NULL);
    json_t *t = json_object_get(msg->j, "text");
    const char *text = json_string_value(t);
    if (!text)
        return fail_text(c, E_BAD_MESSAGE, "text must be a string", NULL);
    size_t len = json_string_length(t);
    if (strlen(text) != len || lit_name_check(text, len, HUB_CHAT_MAX) != LIT_OK)
        return fail(c, E_BAD_TEXT, NULL);
    int64_t *oldest = &me->chat_at[me->chat_next];
    if (me->chat_sent >= HUB_CHAT_BURST && msg->now - *oldest < HUB_CHAT_WINDOW_MS)
        return fail(c, E_TOO_FAST, NULL);
    *oldest = msg->now;
    me->chat_next = (me->chat_next + 1) % HUB_CHAT_BURST;
    me->chat_sent++;
    for (int m = 0; m < HUB_MEMBERS_MAX; m++)
        if (r->members[m].used && r->members[m].client)
            send_json(r->members[m].client,
                      json_pack("{s:s,s:s,s:o,s:s}", "type", "chat", "from", me->name, "seat",
                                me->seat == LIT_NOBODY ? json_null()
                                                       : json_integer(me->seat + 1),
                                "text", text));
    return 0;
}

/* "Wait" (000: a player "may call 'Wait' or 'Stop' at any time. Play
 * should pause until that player indicates that he or she is ready"): the
 * turn's clock stops and nobody else may act, until the player says ready,
 * acts, goes, or HUB_WAIT_MS pass; HUB_WAITS a game for each player, so it
 * cannot be "used solely to break the pace of play". */
static int on_wait(Hub *h, HubClient *c, Message *msg)
{
    Room *r = c->room;
    Member *me = member_of(c);
    if (me->seat == LIT_NOBODY)
        return fail(c, E_NOT_SEATED, NULL);
    if (r->state != ROOM_PLAYING)
        return fail(c, E_NOT_PLAYING, NULL);
    if (r->waiter >= 0)
        return fail(c, E_WAITING, NULL);
    if (me->waits >= HUB_WAITS)
        return fail(c, E_NO_WAITS, NULL);
    me->waits++;
    r->waiter = c->member;
    r->wait_until = msg->now + HUB_WAIT_MS;
    r->held_ms = r->paced_at == INT64_MAX ? -1 : r->paced_at - msg->now;
    arm(r, msg->now);
    log_line(h, "room %s game %d: seat %d waits", r->code, r->games, me->seat + 1);
    broadcast_room(r); /* its waits_left is one less */
    broadcast(r, clock_frame);
    return 0;
}

static int on_ready(Hub *h, HubClient *c, Message *msg)
{
    (void)h;
    Room *r = c->room;
    if (r->waiter != c->member)
        return fail(c, E_NOT_WAITING, NULL);
    end_wait(r, msg->now);
    return 0;
}

/* A spectator asks the host for a seat, or with "cancel" withdraws: the
 * room frame lists who asks, in the order they asked. Asking again changes
 * nothing; a member leaves the list when it sits, leaves or withdraws. */
static int on_request(Hub *h, HubClient *c, Message *msg)
{
    (void)h;
    Room *r = c->room;
    Member *me = member_of(c);
    json_t *cancel = json_object_get(msg->j, "cancel");
    if (cancel && !json_is_boolean(cancel))
        return fail_text(c, E_BAD_MESSAGE, "cancel must be true or false", NULL);
    if (json_is_true(cancel)) {
        me->asked = 0;
    } else {
        if (me->seat != LIT_NOBODY)
            return fail(c, E_ALREADY_SEATED, NULL);
        if (!me->asked)
            me->asked = ++r->asks;
    }
    broadcast_room(r);
    return 0;
}

/* The host gives a spectator who asks for a seat the seat: an empty one or
 * a bot's (the bot steps aside), before a game (NEED_IDLE). */
static int on_give(Hub *h, HubClient *c, Message *msg)
{
    (void)h;
    Room *r = c->room;
    int s = seat_field(c, r, msg->j);
    if (s < 0)
        return -1;
    const char *name = name_field(c, msg->j);
    if (!name)
        return -1;
    int e = seat_free(r, s);
    if (e)
        return fail(c, (HubError)e, NULL);
    int to = -1;
    for (int m = 0; m < HUB_MEMBERS_MAX; m++)
        if (r->members[m].used && r->members[m].asked && strcmp(r->members[m].name, name) == 0)
            to = m;
    if (to < 0)
        return fail(c, E_NO_REQUEST, NULL);
    take_seat(r, to, s);
    broadcast_room(r);
    return 0;
}

static int on_leave(Hub *h, HubClient *c, Message *msg)
{
    Room *r = c->room;
    send_json(c, json_pack("{s:s,s:s}", "type", "left", "room", r->code));
    remove_member(h, r, c->member, msg->now);
    return 0;
}

/* What a message needs before its handler runs, checked in this order. */
enum {
    NEED_ROOM = 1, /* the client is a member of a room (not_in_room) */
    NEED_HOST = 2, /* ... its host (not_host) */
    NEED_IDLE = 4  /* ... and no game is being played (game_started) */
};

typedef struct Handler {
    const char *type;
    int (*run)(Hub *h, HubClient *c, Message *msg);
    int need;
    const char *keys[12]; /* besides "type"; act: wire_read_action checks */
} Handler;

static const Handler handlers[] = {
    {"create",
     on_create,
     0,
     {"name", "rules", "players", "bots", "pace_ms", "public", "aid", "chat", "turn_ms",
      "grace_ms", "match_to", NULL}},
    {"join", on_join, 0, {"room", "name", "seat", NULL}},
    {"resume", on_resume, 0, {"room", "token", "seq", NULL}},
    {"lobby", on_lobby, 0, {"page", NULL}},
    {"sit", on_sit, NEED_ROOM, {"seat", NULL}},
    {"stand", on_stand, NEED_ROOM, {NULL}},
    {"bot", on_bot, NEED_ROOM | NEED_HOST | NEED_IDLE, {"seat", NULL}},
    {"fill", on_fill, NEED_ROOM | NEED_HOST | NEED_IDLE, {NULL}},
    {"kick", on_kick, NEED_ROOM | NEED_HOST, {"seat", NULL}},
    {"shuffle", on_shuffle, NEED_ROOM | NEED_HOST | NEED_IDLE, {NULL}},
    {"start", on_start, NEED_ROOM | NEED_HOST | NEED_IDLE, {NULL}},
    {"act", on_act, 0, {NULL}},
    {"aid", on_aid, NEED_ROOM, {NULL}},
    {"chat", on_chat, NEED_ROOM, {"text", NULL}},
    {"wait", on_wait, NEED_ROOM, {NULL}},
    {"ready", on_ready, NEED_ROOM, {NULL}},
    {"request", on_request, NEED_ROOM, {"cancel", NULL}},
    {"give", on_give, NEED_ROOM | NEED_HOST | NEED_IDLE, {"seat", "name", NULL}},
    {"leave", on_leave, NEED_ROOM, {NULL}},
    {"replay", on_replay, 0, {"game", NULL}},
    {"sheet", on_sheet, 0, {"game", "seat", "after", NULL}},
    {"review", on_review, 0, {"game", "seat", NULL}},
};

/* The needs of a handler: 0, or -1 after answering. */
static int check_needs(HubClient *c, int need)
{
    Room *r = c->room;
    if ((need & NEED_ROOM) && !r)
        return fail(c, E_NOT_IN_ROOM, NULL);
    if ((need & NEED_HOST) && r->host != c->member)
        return fail(c, E_NOT_HOST, NULL);
    if ((need & NEED_IDLE) && r->state == ROOM_PLAYING)
        return fail(c, E_GAME_STARTED, NULL);
    return 0;
}

/* Whether a message from c at now goes beyond max_rate a second (with
 * HUB_BURST ahead at most): each message is due one step after the last
 * (in us; weight steps for a message that counts as several: HUB_HEAVY),
 * and one due further ahead than the burst is refused. */
static int over_rate(const Hub *h, HubClient *c, int64_t now, int weight)
{
    int rate = h->config.max_rate ? h->config.max_rate : HUB_RATE_DEFAULT;
    int64_t step = 1000000 / rate, at = now * 1000;
    int64_t due = (c->rate_at > at ? c->rate_at : at) + step * weight;
    if (due - at > (int64_t)HUB_BURST * step)
        return 1;
    c->rate_at = due;
    return 0;
}

void hub_receive(Hub *h, HubClient *c, const char *bytes, size_t len, int64_t now)
{
    static const char *const type_key[] = {"type", NULL};
    h->now = now;
    forget_failures(h); /* what failed before is not this call's */
    if (c->close_code)
        return;
    /* 0. the rate */
    if (over_rate(h, c, now, 1)) {
        fail(c, E_TOO_MANY_MESSAGES, NULL);
        if (++c->refused >= HUB_BURST)
            close_client(c, HUB_CLOSE_POLICY, "too_many_messages");
        return;
    }
    c->refused = 0;
    /* 1. the bytes: capped before anything reads them */
    if (len > HUB_MESSAGE_MAX) {
        fail(c, E_TOO_BIG, NULL);
        close_client(c, HUB_CLOSE_TOO_BIG, "too_big");
        return;
    }
    json_error_t err;
    json_t *j = json_loadb(bytes, len, JSON_REJECT_DUPLICATES, &err);
    /* out of memory: not bad JSON; and a message parsed while an allocation
     * failed may have lost bytes (jansson's lexer drops what it cannot keep
     * of a string longer than 16 bytes: a game id; tests/unit/test_faults.c
     * found it), so it is not read */
    if (mem_failures() != h->failures) {
        json_decref(j);
        fail(c, E_SERVER_ERROR, NULL);
        return;
    }
    if (!j) {
        char text[WIRE_WHY_MAX];
        snprintf(text, sizeof text, "%s at byte %d", err.text, err.position);
        fail_text(c, E_NOT_JSON, text, NULL);
        return;
    }
    /* 2. the type, then the keys that type takes */
    const char *type = json_string_value(json_object_get(j, "type"));
    if (!json_is_object(j) || !type) {
        fail_text(c, E_BAD_MESSAGE, "a message is an object with a string \"type\"", NULL);
        json_decref(j);
        return;
    }
    const Handler *hd = NULL;
    for (size_t i = 0; i < sizeof handlers / sizeof *handlers; i++)
        if (strcmp(handlers[i].type, type) == 0)
            hd = &handlers[i];
    if (!hd) {
        fail(c, E_UNKNOWN_TYPE, NULL);
        json_decref(j);
        return;
    }
    const char *bad = hd->run == on_act ? NULL : wire_unknown_key(j, hd->keys, type_key);
    if (bad) {
        char text[WIRE_WHY_MAX];
        snprintf(text, sizeof text, "%s takes no key \"%.*s\"", type, wire_cut(bad, 64), bad);
        fail_text(c, E_UNKNOWN_KEY, text, NULL);
        json_decref(j);
        return;
    }
    /* 3. who may send it now, then the message itself */
    Message msg = {j, now};
    if (check_needs(c, hd->need) == 0)
        hd->run(h, c, &msg);
    json_decref(j);
    flush(h, now);
}

/* ---- connections --------------------------------------------------------- */

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
                                                 rules_json(&rules)));
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

HubClient *hub_connect(Hub *h, void *user, int64_t now)
{
    return hub_connect_from(h, user, NULL, now);
}

HubClient *hub_connect_from(Hub *h, void *user, const char *address, int64_t now)
{
    h->now = now;
    forget_failures(h);
    /* the entries kept for their guesses are let go at most this late */
    if (now - h->swept_at >= (int64_t)HUB_GUESSES * HUB_GUESS_MS)
        address_sweep(h);
    HubClient *c = mem_calloc(1, sizeof *c);
    if (!c)
        return NULL;
    if (address && !(c->address = address_get(h, address))) {
        free(c);
        return NULL;
    }
    c->hub = h;
    c->user = user;
    c->next = h->clients;
    if (h->clients)
        h->clients->prev = c;
    h->clients = c;
    h->n_clients++;
    int most = h->config.max_per_address ? h->config.max_per_address : HUB_PER_ADDRESS_DEFAULT;
    if (c->address && ++c->address->clients > most) {
        fail(c, E_TOO_MANY_CONNECTIONS, NULL);
        close_client(c, HUB_CLOSE_POLICY, "too_many_connections");
        return c;
    }
    json_t *rules = catalogue(h); /* NULL: out of memory, and so is the frame */
    send_json(c, rules ? json_pack("{s:s,s:i,s:s,s:{s:i,s:i,s:i,s:i},s:O}", "type", "welcome",
                                   "protocol", HUB_PROTOCOL, "server", "literature " LIT_VERSION,
                                   "limits", "message_bytes", HUB_MESSAGE_MAX, "name_bytes",
                                   HUB_NAME_MAX, "id_bytes", HUB_ID_MAX, "members",
                                   HUB_MEMBERS_MAX, "rules", rules)
                       : NULL);
    return c;
}

void hub_disconnect(Hub *h, HubClient *c, int64_t now)
{
    Room *r = c->room;
    h->now = now;
    forget_failures(h); /* what failed before is not this call's */
    if (r && member_of(c)->seat == LIT_NOBODY) {
        /* a spectator's place is not kept: strangers cannot fill a room
         * with memberships nobody uses */
        member_of(c)->client = NULL;
        remove_member(h, r, c->member, now);
    } else if (r) {
        Member *m = member_of(c);
        m->client = NULL;
        m->gone_at = now; /* the grace period starts */
        if (r->waiter == c->member)
            end_wait(r, now);
        host_passes(r, now); /* at once only with a grace of 0 */
        if (!connected_members(r))
            r->idle_since = now;
        broadcast_room(r);
        arm(r, now);
    }
    drop_queue(c);
    if (c->address) {
        c->address->clients--;
        address_put(h, c->address);
    }
    if (c->prev)
        c->prev->next = c->next;
    else
        h->clients = c->next;
    if (c->next)
        c->next->prev = c->prev;
    h->n_clients--;
    free(c);
    flush(h, now);
}

void hub_shutdown(Hub *h)
{
    forget_failures(h);
    for (HubClient *c = h->clients; c; c = c->next) {
        send_json(c, json_pack("{s:s,s:s}", "type", "closing", "text",
                               "the server is stopping: reconnect in a moment"));
        close_client(c, HUB_CLOSE_GOING_AWAY, "closing");
    }
}

Hub *hub_new(const HubConfig *config)
{
    /* the JSON of frames and states through mem.h: its failures are seen */
    json_set_alloc_funcs(mem_alloc, mem_free);
    Hub *h = mem_calloc(1, sizeof *h);
    if (h)
        h->config = *config;
    return h;
}

void hub_free(Hub *h)
{
    if (!h)
        return;
    while (h->rooms)
        close_room(h, h->rooms, 0);
    for (int i = 0; i < ADDRESS_BUCKETS; i++)
        while (h->addresses[i]) { /* of clients not disconnected */
            Address *a = h->addresses[i];
            h->addresses[i] = a->next;
            free(a);
        }
    while (h->drops) {
        Drop *d = h->drops;
        h->drops = d->next;
        free(d);
    }
    json_decref(h->catalogue);
    for (int i = 0; i < HUB_REVIEW_CACHE; i++)
        json_decref(h->kept[i].review);
    free(h->work);
    free(h);
}

int hub_rooms(const Hub *h)
{
    return h->n_rooms;
}

int hub_clients(const Hub *h)
{
    return h->n_clients;
}
