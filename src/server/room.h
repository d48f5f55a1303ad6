/* room.h - the hub's private state: the Hub, its rooms (Room, Member,
 * Seat), its jobs, and what the hub's files share (hub.h is the public side).
 *
 * The hub is a few files around this header, each one concern, each calling
 * only the ones below it (so no two call each other):
 *
 *   hub.c      entry points (hub.h) and the handler table: one row a message
 *   lobby.c, play.c, archive.c   the messages' handlers: the room's, the
 *              game's, finished games'
 *   restore.c  rooms taken up from the store
 *   pace.c     time: bots' pace, timed turns, waits, stand-ins, expert jobs
 *   view.c     what each member is sent: built from its seat's view alone
 *   room.c     rooms, codes, tokens, members, seats, the host
 *   save.c     the store kept up to date; the game's record
 *   option.c   the room's options, one table
 *   field.c    a message's fields; limit.c the limits of an address and a
 *              connection; job.c the jobs; send.c frames, errors, the log;
 *              due.c the rooms by their next time (the next wake-up)
 *
 * Single-threaded but for HubJob (hub.h): everything here runs on the hub's
 * thread.
 */
#ifndef LIT_SERVER_ROOM_H
#define LIT_SERVER_ROOM_H

#include <jansson.h>
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include "../store/store.h"
#include "../wire/wire.h"
#include "hub.h"
#include "literature/bot.h"
#include "literature/game.h"
#include "literature/infer.h"
#include "literature/notation.h"
#include "literature/review.h"
#include "literature/rules.h"
#include "literature/view.h"

enum {
    ROOM_LOBBY = 0,   /* seats being taken; no game yet */
    ROOM_PLAYING = 1,
    ROOM_OVER = 2,    /* a game has ended; the host may start another */
    ROOM_IDLE_MS = 10 * 60 * 1000, /* a room no client is connected to closes */
    AID_SAMPLES = 4000             /* draws for the aid beyond exact counting */
};

/* Who made an action of the game, when not the seat's own player or bot:
 * the basic bot standing in (marked in the record, docs/PROTOCOL.md), as
 * the record's reader reads the marks (LitBy; the server writes no
 * fallback). */
enum {
    BY_SEAT = LIT_BY_SEAT,
    BY_TIMEOUT = LIT_BY_TIMEOUT, /* its player's turn timed out */
    BY_AWAY = LIT_BY_AWAY,       /* its player was gone past the grace period */
    BY_KINDS = LIT_BY_KINDS
};

/* The words of each BY_* (one table: save.c's hub_save_stand_in). */
typedef struct StandIn {
    const char *name; /* the event's "stand_in" in frames (NULL: none) */
    const char *mark; /* the comment marking its actions in the record */
} StandIn;

/* A room's options, set at creation: each one a row of option.c's table,
 * which reads them from `create`, keeps them in the store, takes them up
 * again and shows them in the room frame. */
typedef struct RoomOptions {
    LitRules rules;                /* players among them */
    LitBotSpec bots;               /* the level of bots the host adds */
    int pace_ms;
    int listed;                    /* public: in the lobby list */
    int aid;                       /* the scoresheet aid is allowed */
    int chat;                      /* chat is on (off: a silent room) */
    int turn_ms;                   /* a player's time for a turn (0: untimed) */
    int grace_ms;                  /* a player gone this long is stood in for */
    int match_to;                  /* games a team must win (0: no match) */
} RoomOptions;

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
    uint8_t vacated;               /* its player left mid-game: the host may give
                                    * it (or take it), nobody else (E_HOST_GIVES) */
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
 * still open (and how many of them someone is connected to: live), and its
 * lookups that found nothing (guessing room codes or tokens). Freed when it
 * holds no connection and no room and its guesses are whole again (at
 * once, or by the sweep of hub_limit_connect): so a guesser cannot get its
 * guesses back by closing its connections. Kept in the HubShared (limit.c),
 * and read or changed only there, under its lock. */
typedef struct Address {
    struct Address *next;          /* in its bucket */
    int clients, rooms, live;
    int64_t guess_at;              /* the guesses' clock (see guessing) */
    int64_t bot_game_at;           /* the bots-only games' clock, alike */
    char text[HUB_ADDRESS_MAX + 1];
} Address;

enum { ADDRESS_BUCKETS = 1024 };

/* A room as the lobby offers it (listing.c): public, not playing, someone
 * connected. Each room keeps its own, and the HubShared's list links
 * those offered, newest first: the list, and the entries' fields while
 * linked, are read and written under the HubShared's lock only. */
typedef struct Listing {
    struct Listing *prev, *next;   /* in the list */
    int on;                        /* linked */
    uint32_t number;               /* the room's (newest: the highest) */
    char code[HUB_CODE_LEN + 1];
    char rules[LIT_RULES_TEXT_MAX];
    char host[HUB_NAME_MAX + 1];
    int players, seated, turn_ms, match_to;
} Listing;

/* What the hubs of one server share (hub.h's HubShared): the counts that
 * span rooms (limit.c) and the lobby's list (listing.c), under one lock. */
struct HubShared {
    pthread_mutex_t lock;
    Address *addresses[ADDRESS_BUCKETS];
    int64_t swept_at;      /* the addresses were last swept then */
    int rooms;             /* rooms open, server-wide */
    int clients;           /* clients connected, server-wide */
    int reviews_out;       /* reviews being made, server-wide */
    uint32_t numbered;     /* rooms made or taken up (their numbers) */
    Listing *listed;       /* the rooms the lobby offers, newest first */
    int n_listed;
};

typedef struct Room {
    struct Room *next;
    struct Hub *hub;
    char code[HUB_CODE_LEN + 1];
    uint32_t number;               /* the log's name for it: the code is a key to
                                    * the room, and the log holds none */
    RoomOptions opt;               /* set at creation (option.c) */
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
    /* each seat's hint: the job out for it (0: none), and the last answer
     * with the game_seq it is for (kept until the game moves on, so asking
     * again costs nothing; one job a seat, whatever the connections) */
    uint64_t hint_job[LIT_MAX_PLAYERS];
    json_t *hints[LIT_MAX_PLAYERS];
    uint32_t hints_seq[LIT_MAX_PLAYERS];
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
    /* when it is next due (due.c): the earliest of its times above, and
     * its place in the hub's heap (ROOM_NOT_DUE: not in it) */
    int64_t due;
    size_t due_i;
    uint64_t ticked;               /* the last hub_tick that looked at it */
    Listing listing;               /* as the lobby offers it (listing.c) */
} Room;

#define ROOM_NOT_DUE SIZE_MAX

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
    Room **due;                    /* the rooms by when they are due (due.c) */
    size_t n_due, due_cap;
    uint64_t ticks;                /* hub_tick's calls */
    HubClient *clients;
    int n_rooms, n_clients;        /* this hub's (the server's: HubShared) */
    void *work;                    /* the aid's workspace (LIT_ODDS_WORK), lazily */
    json_t *catalogue;             /* the rules' words the welcome carries, lazily */
    WireText text;                 /* a member's part of a frame (view.c), kept */
    WireText head;                 /* ... and the part shared by all */
    HubFrame *spares;              /* blocks of frames sent, for the next (send.c):
                                    * a block malloc'd a frame made glibc
                                    * consolidate its small chunks each time,
                                    * a quarter of the server's time */
    int n_spares;
    int64_t now;                   /* the time of the call being served: the
                                    * one clock (set by every entry point) */
    const char *msg;               /* the message hub_receive reads, */
    size_t msg_len;                /* ... its bytes (a moving client takes it) */
    _Alignas(16) unsigned char scratch[HUB_SCRATCH]; /* ... its JSON's memory
                                    * (mem_scratch_start: no malloc or free a
                                    * value; a fifth of the loop's user time
                                    * was jansson reading the message, most
                                    * of it malloc missing the cache) */
    unsigned long failures;        /* mem_failures() when the frame being built
                                    * began (see hub_send_whole) */
    HubShared *shared;             /* the counts that span rooms (limit.c) */
    int own_shared;                /* ... made by hub_new (none configured) */
    /* the store */
    Room *dirty;                   /* rooms changed since they were saved */
    Drop *drops;
    int retry_ms;                  /* nonzero: saves are failing; the wait */
    int64_t retry_at;              /* the next try */
    /* the expert's jobs */
    uint64_t jobs;                 /* jobs made (their ids) */
    uint64_t wants;                /* rooms that waited for a place (their order) */
    /* reviews: the last ones made (the oldest replaced) */
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
    uint8_t *by;                   /* n_events, owned: options.by */
    LitDecision *decisions;        /* n_events, owned */
} ReviewJob;

/* A job to be done off the loop (hub.h): an expert's decision or a hint
 * (the view's history points into events, the job's own copy), or a
 * review. */
struct HubJob {
    uint64_t id;
    int kind;                      /* HUB_JOB_* */
    ReviewJob *review;             /* a review's (NULL for an expert's) */
    char room[HUB_CODE_LEN + 1];
    uint32_t seq;                  /* the room's game_seq it is for */
    int status;                    /* lit_bot_act's, once run */
    LitAction action;              /* ... and its action */
    double chance;                 /* a hint's: lit_bot_chance's, or -1 */
    int at_most;                   /* ... and whether it bounds the move's */
    LitBot bot;                    /* the seat's bot; run: after deciding */
    LitView view;                  /* the seat's view */
    LitEvent events[];             /* view.history_len events */
};

/* A job for the seat s of r (job.c): its own copy of the seat's view of
 * the game as it is (the view's history points into the job's events), for
 * the room's game as it is now (seq); NULL when out of memory. The caller
 * gives it its bot. */
HubJob *hub_job_for_seat(Room *r, int s, int kind);

/* A frame for member m of the room (view.c's builders). */
typedef json_t *(*MemberFrame)(const Room *r, int m);

/* The protocol's own errors (docs/PROTOCOL.md): one table makes the enum
 * (E_*), the stable names and the sentences (send.c). */
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
      "rooms made from your address that someone is in are still open: leave one first") \
    X(TOO_MANY_MESSAGES, "too_many_messages",                                          \
      "messages come faster than the server takes them: slow down")                    \
    X(TOO_MANY_CONNECTIONS, "too_many_connections",                                    \
      "your address has as many connections as the server allows")                     \
    X(TOO_MANY_GUESSES, "too_many_guesses",                                            \
      "codes or tokens from your address found nothing too often: wait a moment")       \
    X(NAME_TAKEN, "name_taken", "someone in the room has that name")                   \
    X(BAD_TOKEN, "bad_token", "no member of that room has that token")                 \
    X(NOT_HOST, "not_host", "only the host may do that")                               \
    X(TOO_MANY_BOT_GAMES, "too_many_bot_games",                                        \
      "games with no player at the table: 60 an hour from one address: wait a moment") \
    X(SEAT_TAKEN, "seat_taken", "that seat is taken")                                  \
    X(HOST_GIVES, "host_gives",                                                        \
      "its player left during the game: only the host gives that seat (request it)")     \
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

/* ---- send.c: what leaves the hub (frames queued for a client, error answers, log lines) --- */

/* An allocation that failed has been dealt with (the call that made it
 * returned its error, and the caller took another way): the frames built
 * from now on are whole. */
void hub_send_forget(Hub *h);

/* Whether no allocation has failed since the hub's last look (mem.h), and
 * the look moves to now. jansson leaves out of an object a value it could
 * not allocate and says so only in a return value, so a frame or a state
 * built while one failed may lack a part: it is never sent or saved. */
int hub_send_whole(Hub *h);

/* Drops every frame queued for c. */
void hub_send_drop(HubClient *c);

/* Closes the client once its queue is written, with a close code and its
 * reason (docs/PROTOCOL.md "Close codes"). */
void hub_send_close(HubClient *c, int code, const char *reason);

/* Queues j (stolen) as one frame. A client that has let more than
 * HUB_QUEUE_MAX bytes pile up is not reading: it is dropped (its seat and
 * token stay) rather than let the server's memory grow. */
void hub_send_json(HubClient *c, json_t *j);

/* Queues the text a (alen bytes) then b (blen) as one frame, capped as
 * hub_send_json's: JSON already, written by the caller. */
void hub_send_parts(HubClient *c, const char *a, size_t alen, const char *b, size_t blen);

/* An error answer: a stable name, a sentence, and the id of the action it
 * answers (NULL: none). */
int hub_send_error(HubClient *c, const char *name, const char *text, const char *id);

/* An engine status as an error answer (its stable name and sentence):
 * -1. */
int hub_send_status(HubClient *c, int status, const char *id);

/* One line to the hub's log callback (HubConfig.log), if any. */
void hub_send_log(Hub *h, const char *fmt, ...);

/* One of the protocol's own errors (room.h's HUB_ERRORS) with its
 * sentence, answering the action id (NULL: none): -1. */
int hub_send_fail(HubClient *c, HubError e, const char *id);

/* The same error with a sentence that says more than the table's. */
int hub_send_fail_text(HubClient *c, HubError e, const char *text, const char *id);

/* ---- listing.c: the lobby's list of rooms, across the hubs --------------- */

/* The room's entry in the lobby's list made current: linked (or its
 * fields changed) when it is offered, unlinked when not. Every change of a
 * room that is told to its members is followed by this (hub_view's
 * broadcasts, a room made, joined or resumed); the lock is taken only when
 * the entry changes. */
void hub_listing_update(Room *r);

/* The room is closing: out of the list. */
void hub_listing_withdraw(Room *r);

/* Whether the room's entry is what hub_listing_update would make it now
 * (debug builds check every room at hub_next_wake). */
int hub_listing_current(const Room *r);

/* The entries of the page (HUB_LOBBY_PAGE a page, newest first) copied
 * into out: how many; *total: the rooms offered in all. */
int hub_listing_page(Hub *h, int page, Listing out[HUB_LOBBY_PAGE], int *total);

/* ---- limit.c: what one address or one connection may do ------------------ *
 *
 * Each call takes the HubShared's lock for what it reads and changes, and
 * uses the hub's clock (h->now). */

/* A connection from the address: its entry (made when new), its
 * connections counted, and *over set when they are now more than the
 * server allows (the caller refuses it; hub_limit_disconnect still
 * follows). NULL out of memory (nothing counted). */
Address *hub_limit_connect(Hub *h, const char *text, int *over);

/* The connection is gone (a NULL address: nothing). */
void hub_limit_disconnect(Hub *h, Address *a);

/* What hub_limit_room_made answers. */
enum {
    LIMIT_ROOM_MADE = 0,   /* counted: the room may be made */
    LIMIT_SERVER_FULL = 1, /* the server holds max_rooms */
    LIMIT_OWN_KEPT = 2,    /* the address's rooms open, someone in them or
                            * not, are HUB_ROOMS_KEPT times its limit */
    LIMIT_OWN_LIVE = 3     /* its rooms someone is connected to are at its
                            * limit (max_rooms_per_address) */
};

/* A room is to be made from address a (NULL: not known, not limited):
 * LIMIT_ROOM_MADE, and then it is counted (server-wide, and as one of a's
 * rooms that someone is connected to: its maker), or why not. Checked and
 * counted at once, so two hubs cannot both take the last place. */
int hub_limit_room_made(Hub *h, Address *a);

/* The HubShared's lock (listing.c's list is under it too). */
void hub_shared_lock(Hub *h);
void hub_shared_unlock(Hub *h);

/* A room taken up from the store (made from no address known): counted
 * server-wide. */
void hub_limit_room_taken_up(Hub *h);

/* A room counted by one of the two above is closed; live: someone was
 * still connected to it. */
void hub_limit_room_gone(Hub *h, Address *a, int live);

/* A room made from a went from nobody connected to someone (delta 1) or
 * back (-1): hub_room_set_idle's. */
void hub_limit_live(Hub *h, Address *a, int delta);

/* The next room's number (the log's name for it), server-wide. */
uint32_t hub_limit_number(Hub *h);

/* Rooms open, server-wide. */
int hub_limit_rooms(Hub *h);

/* A client came (delta 1) or went (-1): counted server-wide. */
void hub_limit_clients(Hub *h, int delta);

/* Whether c's address has spent its guesses: HUB_GUESSES lookups that found
 * nothing at once, then one each HUB_GUESS_MS (each is due HUB_GUESS_MS
 * after the last; one that would be due further ahead than the whole budget
 * is refused). Then join and resume are refused before the lookup, whatever
 * the code: a guesser must not learn that a guess was right. */
int hub_limit_guessing(Hub *h, const HubClient *c);

/* Whether c's address may start one more game with no player seated now
 * (HUB_BOT_GAMES at once, then one each HUB_BOT_GAME_MS): 1 and counted, or
 * 0. */
int hub_limit_bot_game(Hub *h, HubClient *c);

/* A lookup from c that found nothing: a guess spent. */
void hub_limit_guessed(Hub *h, HubClient *c);

/* A review may be made now (HUB_REVIEWS_OUT at once, server-wide): 1 and
 * counted until hub_limit_review_done, or 0. */
int hub_limit_review_take(Hub *h);
void hub_limit_review_done(Hub *h);

/* Whether a message from c at now goes beyond max_rate a second (with
 * HUB_BURST ahead at most): each message is due one step after the last
 * (in us; weight steps for a message that counts as several: HUB_HEAVY),
 * and one due further ahead than the burst is refused. */
int hub_limit_rate(const Hub *h, HubClient *c, int64_t now, int weight);

/* ---- save.c: the store, kept up to date as rooms change ------------------ */

/* The name of a room's state (ROOM_*): "lobby", "playing" or "over". */
const char *hub_save_state_name(int state);

/* The state (ROOM_*) of a name, or -1. */
int hub_save_state_of(const char *name);

/* The words of who made an action (BY_*). */
const StandIn *hub_save_stand_in(int by);

/* A room changed: it is saved before the hub call returns (hub_save_flush). */
void hub_save_mark(Room *r);

/* The game has ended: its whole record waits for the next save. Out of
 * memory, r->unkept says it is still to be made. */
void hub_save_ended(Room *r);

/* Saves every room changed (and forgets the rooms closed) before the hub
 * call returns. While saves fail they are tried again after a wait that
 * doubles up to HUB_RETRY_MAX_MS; meanwhile the rooms go on in memory and
 * their members are told they are not saved. */
void hub_save_flush(Hub *h, int64_t now);

/* The room is closed for good: the store forgets it, once what it has not
 * saved yet (a game's end: hub_room_close ends a game in play first) is
 * saved. */
void hub_save_forget(Hub *h, Room *r);

/* ---- due.c: when each room is next due ---------------------------------- */

/* The earliest of the room's times: its wake_at, grace_at, host_at, the end
 * of its wait and of its idleness (INT64_MAX: none). */
int64_t hub_due_of(const Room *r);

/* Places an open room in the heap: 0, or -1 out of memory. */
int hub_due_add(Hub *h, Room *r);

/* Takes a room out of the heap (a room never added: nothing). */
void hub_due_remove(Hub *h, Room *r);

/* Mends the room's place after its times changed: every change of them
 * is followed by this (hub_pace_arm ends with it). */
void hub_due_update(Room *r);

/* The room due first, or NULL for none. */
Room *hub_due_first(const Hub *h);

/* ---- room.c: rooms, codes, tokens, members, seats and the host ----------- */

/* len random bytes (HubConfig.random, else getrandom): 0, or -1. */
int hub_room_random(Hub *h, void *buf, size_t len);

/* An empty room of the hub, its times unset: NULL out of memory. */
Room *hub_room_new(Hub *h);

/* Opens a room made by hub_room_new: among the hub's rooms and in its
 * heap of times. 0, or -1 out of memory (nothing changed). */
int hub_room_open(Hub *h, Room *r);

/* The room of that code, or NULL. */
Room *hub_room_find(Hub *h, const char *code);

/* len random characters of the alphabet (a room code, a game id). */
int hub_room_code(Hub *h, char *code, int len);

/* Whether s is len characters of the codes' alphabet (a room code, a
 * game id). */
int hub_room_is_code(const char *s, size_t len);

/* A room code no room has, that names this hub (hub_home): 0, or -1. */
int hub_room_new_code(Hub *h, char code[HUB_CODE_LEN + 1]);

/* Sets the room's idle_since (-1: someone is connected; else since when
 * nobody is), and with it its address's count of rooms someone is
 * connected to (hub_limit_live) and its place among the rooms' times. */
void hub_room_set_idle(Hub *h, Room *r, int64_t since);

/* Frees the bots' memories of the room's seats. */
void hub_room_free_brains(Room *r);

/* Closes a room; forget: it is gone for good, and the store forgets it
 * (else, the server stopping, the store keeps it for the next start). */
void hub_room_close(Hub *h, Room *r, int forget);

/* How many of the room's members are connected. */
int hub_room_connected(const Room *r);

/* The server ends a game no action will end (a bot that failed, a room
 * closed during it). */
void hub_room_abort(LitGame *g);

/* Whether t is a seat token's form: HUB_TOKEN_LEN lowercase hex digits. */
int hub_room_is_token(const char *t);

/* Whether a stored bot may play here: NULL, or why not (an expert needs
 * the hub's post, and at most HUB_EXPERT_ROLLOUTS_MAX rollouts). */
const char *hub_room_expert_here(const Hub *h, const LitBotSpec *b);

/* A random seed (a deal, a bot, an estimate). */
uint64_t hub_room_seed(Hub *h);

/* A bot of spec in *brain, its memory fresh: 0, or -1 out of memory. */
int hub_room_brain(Hub *h, LitBot **brain, const LitBotSpec *spec);

/* A bot plays seat s from now on (its own memory, fresh). */
int hub_room_seat_bot(Hub *h, Room *r, int s, const LitBotSpec *spec);

/* At the end of a game the seats whose players left are free again, and
 * a match counts the game. */
void hub_room_finish(Room *r);

/* The client's membership, or NULL when it is in no room. */
Member *hub_room_member(HubClient *c);

/* The host is gone for good (it left, was a spectator whose connection
 * went, or the room was taken up without it): the next host is the
 * connected member who joined first, else any. */
void hub_room_pass_host(Room *r);

/* A host whose connection went keeps the role through the room's grace
 * (a reload, a short drop: the same grace a seat gets); past it the role
 * passes to the connected member who joined first, and stays where it is
 * while nobody is connected. Returns whether it moved. */
int hub_room_host_passes(Room *r, int64_t now);

/* Adds a member for client c: NULL when the room is full. */
Member *hub_room_add(Hub *h, Room *r, HubClient *c, const char *name);

/* Whether a member of the room has that name. */
int hub_room_name_taken(const Room *r, const char *name);

/* Whether a member may take seat s now: 0, or the error. Before a game
 * (in the lobby, or between games) a seat is free when no member sits
 * there: a bot steps aside for a person. During a game a seat is taken
 * (E_SEAT_TAKEN) but one whose player left (a bot keeps it meanwhile),
 * which only the host may give or take (E_HOST_GIVES): its hand is not for
 * any member who asks, an opponent's second connection among them. */
int hub_room_seat_free(const Room *r, int s);

/* Member m sits at seat s (leaving its own, and its request for one); a
 * bot there steps aside. */
void hub_room_take_seat(Room *r, int m, int s);

/* Constant-time comparison of two tokens of HUB_TOKEN_LEN digits. */
int hub_room_same_token(const char *a, const char *b);

/* ---- pace.c: time: bots' pace, timed turns, waits, stand-ins, the expert's jobs --- */

/* The whole game to every member (its start, or the server ended it). */
void hub_pace_broadcast_game(Room *r);

/* The game's last action to every member, made by a bot or not. */
void hub_pace_broadcast_event(Hub *h, Room *r, int by_bot);

/* Sets the room's times after any change (docs/PROTOCOL.md "Time"). The
 * seat on turn is moved for the room's pace (a bot) or its time (a timed
 * player) after the change of the game that gave it the turn; members
 * coming and going do not put that off (armed_seq, armed_by), but nothing
 * moves in a room nobody is connected to, nor during a wait. An expert bot
 * moves at its pace or when its answer comes back, whichever is later (its
 * job is handed out here). grace_at: when the first player gone is to be
 * stood in for; host_at: when a host gone passes the role on, if someone
 * connected is there to take it (else it passes when someone comes). */
void hub_pace_arm(Room *r, int64_t now);

/* A place in the queue is free: the rooms that waited for one get it, in
 * the order they asked, until the queue is full again. */
void hub_pace_hand_out_wanted(Hub *h, int64_t now);

/* The seat on turn is moved for (its wake_at has come): by its bot, or by
 * the basic bot standing in for its player. An expert's move is the answer
 * of its job (hub_pace_arm handed it out), made for this very state. */
void hub_pace_move(Hub *h, Room *r, int64_t now);

/* Players gone past the grace period: the basic bot plays for each until
 * it returns. */
void hub_pace_stand_in(Hub *h, Room *r, int64_t now);

/* The wait ends (its player is ready, acted or went, or its time is up):
 * what was left of the turn's time runs again. */
void hub_pace_end_wait(Room *r, int64_t now);

/* ---- view.c: what each member is sent, built from its seat's view -------- */

/* Action i of the game (e, the same for every view) as members see it:
 * with "stand_in" when the basic bot made it for a player. */
json_t *hub_view_event_of(const Room *r, const LitEvent *e, uint32_t i);

/* The turn's clock (docs/PROTOCOL.md "Time"): the time a timed turn has
 * (0: untimed), what is left of it (null while it does not run), and the
 * wait holding play, if any. */
json_t *hub_view_clock(const Room *r);

/* The whole game, all but a member's own part: sent (through
 * hub_view_send_seated_to) at the start of a game and to a member who joins,
 * sits or returns during one. */
json_t *hub_view_game(const Room *r);

/* The game frame to every member, under the next seq. */
void hub_view_broadcast_game(Room *r);

/* Sends member m the frame head with its own part after it ("you", and the
 * result once the game has ended): head (taken) is the part of a game or
 * catchup frame that is the same for everyone; the member's part is
 * written straight as text (no jansson tree a member). A NULL head (out of
 * memory) closes it with 1013: it resumes. */
void hub_view_send_seated_to(const Room *r, int m, json_t *head);

/* Action i of the game's log to every member, under the room's seq (the caller's
 * hub_pace_broadcast_event counts it): what is the same for everyone
 * written as text once, then each member's own part. */
void hub_view_broadcast_event(Room *r, uint32_t i, int by_bot);

/* The clock alone, when a wait begins or ends. */
json_t *hub_view_clock_frame(const Room *r, int m);

/* Sends every connected member its own frame under the next seq. Every
 * change of a room is told this way (or by hub_pace_broadcast_event), so this is
 * where a room is marked to be saved, and its lobby entry made current. */
void hub_view_broadcast(Room *r, MemberFrame make);

/* The room frame to every member. */
void hub_view_broadcast_room(Room *r);

/* The "joined" frame to a member who arrives or returns: its room, token,
 * link and name. */
void hub_view_joined(HubClient *c);

/* What a member who arrives (or returns) is sent besides "joined": the
 * room, then the game (from: the last seq it saw, -1 none). */
void hub_view_catch_up(HubClient *c, json_int_t from);

/* The scoresheet of knowledge k (st: LIT_OK, or why k could not be made)
 * as a frame of that type: certain knowledge and exact odds, estimated at
 * 10 and 12 players beyond the state budget from AID_SAMPLES draws seeded
 * by seed (0: one drawn from the hub's random source). Frees k (may be
 * NULL); NULL when out of memory. */
json_t *hub_view_sheet(Hub *h, LitKnow *k, int st, uint64_t seed, const char *type);

/* The scoresheet from the member's view. Counting takes up to a tenth of a
 * second at 8 players on the one event loop, so each seat's answer is kept
 * until the game changes: asking again is free. */
json_t *hub_view_aid(Hub *h, const Room *r, int seat);

/* ---- option.c: the room's options, one table ------------------------------ */

/* What hub_option_read found wrong: an option missing or of another type,
 * or one out of its limits. */
enum { HUB_OPTION_UNREAD = 1, HUB_OPTION_RANGE = 2 };

/* The rules' options as a JSON object, {"key":"value",...} (the welcome's
 * presets, the room frame). */
json_t *hub_option_rules(const LitRules *rules);

/* Reads the options of a `create` message into *o, each absent one its
 * default: 0, or -1 after answering c (bad_message, bad_value,
 * bot_not_offered, or the engine's status for the rules or the bots). */
int hub_option_create(Hub *h, HubClient *c, json_t *msg, RoomOptions *o);

/* Whether key is a room option's (a key `create` takes). */
int hub_option_key(const char *key);

/* Sets the room's options on the stored state j: with later 0 the keys of
 * version 1's first form (they come before the room's counts), else those
 * added after it (after them). */
void hub_option_store(const Room *r, json_t *j, int later);

/* Sets the room's options on its room frame j, in the frame's order. */
void hub_option_frame(const Room *r, json_t *j);

/* Reads the options (and the match's wins) of a stored state j into *o:
 * 0, HUB_OPTION_UNREAD (one is missing or of another type, or j has a key
 * neither an option's nor one of also, a NULL-terminated list) or
 * HUB_OPTION_RANGE (one is out of its limits). */
int hub_option_read(json_t *j, const char *const *also, RoomOptions *o, int wins[2]);

/* ---- field.c: the fields of a client's message, read and checked --------- */

/* An optional integer field: 0 and *out set, 1 absent, -1 not an integer. */
int hub_field_int(json_t *j, const char *key, json_int_t *out);

/* A seat field (1-based) of a room: 0-based, or -1 after answering. */
int hub_field_seat(HubClient *c, const Room *r, json_t *j);

/* A name field: 1 to 32 bytes of UTF-8, no control characters. */
const char *hub_field_name(HubClient *c, json_t *j);


/* ---- lobby.c: the room's messages (hub.c's handler table) ---------------- *
 *
 * Each handler answers one message (msg, its keys checked by hub.c from its
 * row, and its row's needs met): 0, or -1 after answering with an error.
 * The same holds for play.c's and archive.c's. */

/* create: a new room (its options: option.c), the client its host at seat
 * 1. */
int hub_lobby_create(Hub *h, HubClient *c, json_t *msg);

/* Whether a join or resume of the room of code is another hub's (its code
 * names it, and HubConfig.move is set): then the client is moved there with
 * the message (HubConfig.move), and this hub answers nothing. */
int hub_lobby_moves(Hub *h, HubClient *c, const char *code);

/* join: the client joins a room by its code, as a spectator or at a seat. */
int hub_lobby_join(Hub *h, HubClient *c, json_t *msg);

/* resume: a member returns with its token, and catches up from the last
 * seq it saw. */
int hub_lobby_resume(Hub *h, HubClient *c, json_t *msg);

/* The public rooms not playing that someone is connected to, newest first,
 * HUB_LOBBY_PAGE a page. */
int hub_lobby_list(Hub *h, HubClient *c, json_t *msg);

/* sit: the member takes a free seat (during a game, a seat whose player
 * left: the host only). */
int hub_lobby_sit(Hub *h, HubClient *c, json_t *msg);

/* stand: the member leaves its seat (not during a game). */
int hub_lobby_stand(Hub *h, HubClient *c, json_t *msg);

/* bot: the host puts a bot of the room's level at an empty seat. */
int hub_lobby_bot(Hub *h, HubClient *c, json_t *msg);

/* fill: the host puts a bot at every empty seat. */
int hub_lobby_fill(Hub *h, HubClient *c, json_t *msg);

/* Member m is no longer in the room (left or was kicked). During a game a
 * basic bot plays its seat, which the host may give to another member. */
void hub_lobby_remove(Hub *h, Room *r, int m, int64_t now);

/* kick: the host removes the member or the bot at a seat. */
int hub_lobby_kick(Hub *h, HubClient *c, json_t *msg);

/* shuffle: the host seats everyone at random. */
int hub_lobby_shuffle(Hub *h, HubClient *c, json_t *msg);

/* A chat line, to every connected member of the room (rendered as text by
 * clients; never logged). At most HUB_CHAT_BURST lines in
 * HUB_CHAT_WINDOW_MS per member. */
int hub_lobby_chat(Hub *h, HubClient *c, json_t *msg);

/* A spectator asks the host for a seat, or with "cancel" withdraws: the
 * room frame lists who asks, in the order they asked. Asking again changes
 * nothing; a member leaves the list when it sits, leaves or withdraws. */
int hub_lobby_request(Hub *h, HubClient *c, json_t *msg);

/* The host gives a spectator who asks for a seat the seat: before a game
 * an empty one or a bot's (the bot steps aside); during one only a seat
 * whose player left (game_started for any other), the game then sent to
 * its new player. */
int hub_lobby_give(Hub *h, HubClient *c, json_t *msg);

/* leave: the member leaves the room. */
int hub_lobby_leave(Hub *h, HubClient *c, json_t *msg);

/* ---- play.c: the game's messages (hub.c's handler table) ----------------- */

/* start: the host deals a game (the next of a match). */
int hub_play_start(Hub *h, HubClient *c, json_t *msg);

/* act: an action of the member's seat (its keys read by
 * wire_read_action), once per action id, for the referee. */
int hub_play_act(Hub *h, HubClient *c, json_t *msg);

/* aid: the scoresheet of the member's seat, if the room allows it. */
int hub_play_aid(Hub *h, HubClient *c, json_t *msg);

/* hint: the expert's move for the member's seat on turn and its chance,
 * worked out as a job on an expert's worker (the room must allow the aid),
 * one a seat at once, kept for the seat until the game moves on;
 * hub_play_hint_done answers the seat's member on its connection of the
 * moment, if it has one. */
int hub_play_hint(Hub *h, HubClient *c, json_t *msg);
void hub_play_hint_done(Hub *h, HubJob *j);

/* "Wait" (000: a player "may call 'Wait' or 'Stop' at any time. Play
 * should pause until that player indicates that he or she is ready"): the
 * turn's clock stops and nobody else may act, until the player says ready,
 * acts, goes, or HUB_WAIT_MS pass; HUB_WAITS a game for each player, so it
 * cannot be "used solely to break the pace of play". */
int hub_play_wait(Hub *h, HubClient *c, json_t *msg);

/* ready: the member's wait ends. */
int hub_play_ready(Hub *h, HubClient *c, json_t *msg);

/* ---- archive.c: finished games (hub.c's handler table) ------------------- */

/* {"type":"replay","game":ID}: the whole game, step by step, every hand
 * shown. */
int hub_archive_replay(Hub *h, HubClient *c, json_t *msg);

/* {"type":"sheet","game":ID,"seat":N,"after":K}: the scoresheet of seat N
 * after K actions, as `lit infer --seat N --after K --samples 4000 --json`
 * gives it (the same counting; estimates seeded by 1). */
int hub_archive_sheet(Hub *h, HubClient *c, json_t *msg);

/* A review job back (hub_job_done): kept, and sent to the client that asked
 * if it is still connected. */
void hub_archive_done(Hub *h, HubJob *j);

/* {"type":"review","game":ID,"seat":N}: the review of seat N's decisions
 * (docs/REVIEW.md) at the expert's default budget and seed 1, made on the
 * worker; answered at once when kept. */
int hub_archive_review(Hub *h, HubClient *c, json_t *msg);

#endif
