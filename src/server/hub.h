/* hub.h - the rooms of `lit serve` and the online protocol (docs/PROTOCOL.md),
 * apart from the network.
 *
 * The hub is the server's whole game logic: it reads a client's message
 * (bytes), answers it, and queues frames (bytes) for clients. It knows no
 * sockets and no clock: the network layer (net.c, libwebsockets) feeds it
 * messages with the time, writes the queued frames when a socket is writable,
 * and calls hub_tick when hub_next_wake says a room has something to do (a
 * bot to move). So every rule of rooms and play is tested in process
 * (tests/unit/test_hub.c) and the network layer stays thin.
 *
 * Single-threaded: one hub lives in one event loop. Frames to a seat are
 * built from that seat's view (const LitView *) and nothing else, so what a
 * client receives cannot depend on hands it may not see. The one exception
 * to "no threads" is at arm's length: the expert bot's decisions are handed
 * out as jobs (HubJob, below) that another thread may run; the hub itself
 * starts none, and only hub_job_run may be called off the hub's thread.
 */
#ifndef LIT_SERVER_HUB_H
#define LIT_SERVER_HUB_H

#include <stddef.h>
#include <stdint.h>

enum {
    HUB_PROTOCOL = 1,
    HUB_MESSAGE_MAX = 8192,     /* bytes of one client message */
    HUB_SCRATCH = 16384,        /* bytes for a message's JSON (more: malloc) */
    HUB_QUEUE_MAX = 1 << 20,    /* bytes queued to one client before it is dropped */
    HUB_FRAME_BLOCK = 4096,     /* a frame this size or less is a block used again */
    HUB_FRAME_SPARES = 256,     /* blocks kept for the next frames */
    HUB_NAME_MAX = 32,          /* bytes of a name (docs/NOTATION.md's rule) */
    HUB_ID_MAX = 64,            /* bytes of a client action id */
    HUB_MEMBERS_MAX = 32,       /* players and spectators of one room */
    HUB_ROOMS_DEFAULT = 1000,
    HUB_PACE_DEFAULT = 1000,    /* ms a bot waits before it acts */
    HUB_PACE_MAX = 10000,
    HUB_CODE_LEN = 6,
    HUB_GAME_ID_LEN = 16,       /* characters of a game id (as a room code's) */
    HUB_TOKEN_LEN = 32,         /* hex digits of a seat token */
    HUB_CHAT_MAX = 200,         /* bytes of a chat line */
    HUB_CHAT_BURST = 5,         /* chat lines a member may send ... */
    HUB_CHAT_WINDOW_MS = 10000, /* ... within this time */
    HUB_RETRY_MS = 1000,        /* a failed save is tried again after this, */
    HUB_RETRY_MAX_MS = 5000,    /* doubling up to this */
    HUB_TURN_MIN_MS = 10000,    /* a timed turn (002: "20 or 30 seconds") is */
    HUB_TURN_MAX_MS = 300000,   /* ... at least and at most this */
    HUB_GRACE_DEFAULT = 60000,  /* ms a player may be gone before the basic */
    HUB_GRACE_MAX = 600000,     /* ... bot plays for it, by default and at most */
    HUB_MATCH_MAX = 9,          /* games to win a match, at most (002: 5) */
    HUB_WAITS = 2,              /* waits (000) a player may call in a game, */
    HUB_WAIT_MS = 60000,        /* ... each holding play at most this long */
    HUB_RATE_DEFAULT = 20,      /* messages a second from one connection, */
    HUB_BURST = 40,             /* ... after a burst of this many; this many
                                 * refused in a row close the connection */
    HUB_PER_ADDRESS_DEFAULT = 32, /* connections from one address */
    HUB_ROOMS_PER_ADDRESS_DEFAULT = 8, /* rooms made from one address that
                                 * someone is connected to, open at once */
    HUB_ROOMS_KEPT = 4,         /* ... and rooms made from it open at once,
                                 * someone connected or not: this many times
                                 * that (one address cannot fill the server
                                 * with rooms it closed its tabs on) */
    HUB_GUESSES = 20,           /* lookups that found nothing (a room code, a
                                 * token) one address may make at once, */
    HUB_GUESS_MS = 10000,       /* ... then one more each this many ms */
    HUB_BOT_GAMES = 10,         /* games with no player seated (bots only) one
                                 * address may start at once, */
    HUB_BOT_GAME_MS = 60000,    /* ... then one more each this many ms (60 an
                                 * hour: each keeps its record in the store) */
    HUB_ADDRESS_MAX = 63,       /* bytes of an address's text */
    HUB_EXPERT_ROLLOUTS_MAX = 64, /* an expert's rollouts in a room, at most
                                 * (LIT_EXPERT_ROLLOUTS, its default) */
    HUB_LOBBY_PAGE = 50,        /* rooms in one page of the lobby */
    HUB_HEAVY = 10,             /* a replay, sheet or review counts as this
                                 * many messages against the rate */
    HUB_REVIEWS_OUT = 2,        /* reviews being made at once, server-wide */
    HUB_REVIEW_CACHE = 8,       /* reviews kept (game, seat) for a second ask */
    HUB_REPLAY_ACTIONS = 800    /* actions of a game replayed, at most (its
                                 * frame: about 600 bytes a step at 12 players,
                                 * within HUB_QUEUE_MAX) */
};

/* Close codes a client is sent off with (RFC 6455). */
enum {
    HUB_CLOSE_NORMAL = 1000,
    HUB_CLOSE_GOING_AWAY = 1001,
    HUB_CLOSE_POLICY = 1008,
    HUB_CLOSE_TOO_BIG = 1009,
    HUB_CLOSE_TRY_AGAIN = 1013
};

typedef struct Hub Hub;
typedef struct HubJob HubJob;
typedef struct HubShared HubShared;
struct Store;

/* A frame queued for a client: len bytes at data + headroom (the network
 * layer's room before the payload, LWS_PRE for libwebsockets). */
typedef struct HubFrame {
    struct HubFrame *next;
    size_t len;
    unsigned char *data;
    Hub *hub;                 /* whose spare frames it goes back to */
    int spare;                /* a block of HUB_FRAME_BLOCK bytes: kept */
} HubFrame;

/* One connection. The network layer holds it from hub_connect to
 * hub_disconnect; user is its own. */
typedef struct HubClient {
    Hub *hub;
    void *user;
    struct Room *room;        /* the room it is a member of, or NULL */
    struct Address *address;  /* where it connects from (NULL: not known) */
    int64_t rate_at;          /* the rate limit's clock (see hub_receive) */
    int64_t rate_before;      /* ... before the message being read */
    int refused;              /* messages refused in a row for the rate */
    int member;               /* its member index there */
    uint64_t review;          /* the id of its review job out (0: none) */
    HubFrame *head, *tail;    /* frames to write, oldest first */
    size_t queued;            /* their bytes */
    int close_code;           /* nonzero: close once the queue is written, */
    const char *close_reason; /* ... with this reason (static) */
    struct HubClient *prev, *next; /* every client of the hub */
} HubClient;

typedef struct HubConfig {
    size_t headroom;          /* bytes before every frame's payload */
    int max_rooms;            /* 0: HUB_ROOMS_DEFAULT */
    int max_rate;             /* messages a second per connection (0: default) */
    int max_per_address;      /* connections from one address (0: default) */
    int max_rooms_per_address; /* rooms made from one address that someone is
                                * connected to, open at once (0: default) */
    /* Called when a client has new frames or is to be closed (may be NULL). */
    void (*wake)(HubClient *client, void *ctx);
    void *ctx;
    /* Random bytes for room codes, seat tokens and deals (NULL: getrandom). */
    int (*random)(void *buf, size_t len, void *ctx);
    /* Deals a game into hands (NULL: a deal from a random seed). Tests use
     * it to play chosen deals. */
    void (*deal)(uint64_t *hands, int players, int dealer, void *ctx);
    /* One line per room's and game's start and end and per trouble, what an
     * operator needs only: a room by its number (room #N), never its code (a
     * key to it), a game id, a token, a name, a card or a chat line; NULL:
     * none. */
    void (*log)(const char *line, void *ctx);
    /* Where rooms and games are kept (src/store), or NULL: in memory only.
     * Every change of a room is saved before the hub call that made it
     * returns, so before any frame telling of it can be written. */
    struct Store *store;
    /* Takes a job to be done off the hub's thread (see HubJob: an expert
     * bot's decision, or a review): 0 when taken (the job comes back through
     * hub_job_done, or is freed with hub_job_free if it never runs), nonzero
     * when the queue is full: an expert's room then waits, and its job is
     * handed out when a job comes back; a review is refused (busy). It must
     * not call into the hub. NULL: nothing runs jobs, and neither the expert
     * bot (bot_not_offered) nor reviews (review_not_offered) are offered. */
    int (*post)(HubJob *job, void *ctx);
    /* What the hubs of one server share when it runs several, one an event
     * loop (hub_shared_new): the counts that span rooms, so that each limit
     * (max_rooms, an address's connections, rooms, guesses and bots-only
     * games, the reviews made at once) is the server's, whichever hub a
     * connection or a room is on. NULL: the hub has its own. */
    HubShared *shared;
    /* The hubs of the server (0 or 1: this one alone) and this one's index
     * among them: a room lives on the hub its code's hash names
     * (hub_home), so this hub makes codes that name it and takes up from
     * the store only the rooms that are its own. */
    int hubs, index;
    /* A client in no room joins or resumes a room of another hub (its code
     * names hub): the message (len bytes) is not answered here, and the
     * client is to be moved there (hub_release here, then hub_adopt and
     * the message there). It must not call into the hub. NULL: such a
     * message is answered here (no room of that code is here). */
    void (*move)(HubClient *client, int hub, const char *msg, size_t len, void *ctx);
    /* A failed save's first wait before it is tried again, in ms, doubling
     * up to HUB_RETRY_MAX_MS (0: HUB_RETRY_MS); a test that fails saves on
     * purpose shortens it. */
    int retry_ms;
} HubConfig;

/* A room code's hub among hubs (0 for one hub or none): a hash of the
 * code, the same in every process (a proxy in front of several servers
 * could route by it too: docs/SCALING.md). */
int hub_home(const char *code, int hubs);

/* The shared counts (see HubConfig.shared), or NULL when out of memory;
 * freed after the last hub that uses it. Its calls are thread-safe. */
HubShared *hub_shared_new(void);
void hub_shared_free(HubShared *shared);

/* A new hub, or NULL when out of memory. */
Hub *hub_new(const HubConfig *config);

/* Frees the hub and its rooms; the store keeps them (a server that stops
 * finds them again on its next start). */
void hub_free(Hub *hub);

/* Takes up the rooms of the configured store, each as it was saved, with
 * nobody connected (members resume with their tokens). Returns how many, or
 * -1 when the store cannot be read. A room whose state does not read or
 * whose game does not replay is left out, with a log line. */
int hub_restore(Hub *hub, int64_t now_ms);

/* A new client (sent the welcome frame), or NULL when out of memory. */
HubClient *hub_connect(Hub *hub, void *user, int64_t now_ms);

/* The same from an address (the peer's, or the one a trusted proxy gave;
 * NULL: not known, and then not limited). A client beyond the address's
 * connections is sent too_many_connections and closed (1008). */
HubClient *hub_connect_from(Hub *hub, void *user, const char *address, int64_t now_ms);

/* One whole message from a client (len bytes, any content). */
void hub_receive(Hub *hub, HubClient *client, const char *msg, size_t len, int64_t now_ms);

/* The client's connection is gone: it leaves its room's table connected set
 * (its seat and token stay) and is freed. */
void hub_disconnect(Hub *hub, HubClient *client, int64_t now_ms);

/* Takes the oldest queued frame (the caller frees it with hub_frame_free,
 * before hub_free), or NULL. */
HubFrame *hub_pop(HubClient *client);
void hub_frame_free(HubFrame *frame);

/* What a client moving to another hub takes with it: its address (still
 * counted: the connection goes on), its rate's clock, and its frames not
 * yet written, oldest first (the caller writes them before any of the next
 * hub's, and frees them with hub_frame_free, on any thread). */
typedef struct HubMoving {
    struct Address *address;
    int64_t rate_at;
    int refused;
    HubFrame *head;
} HubMoving;

/* Takes a client in no room away from the hub (after HubConfig.move): it
 * is freed, and what goes on with its connection is in *out. A review it
 * asked for and is still being made is kept in the hub's cache when it
 * comes back, and not sent (the client asks again on its new hub). */
void hub_release(Hub *hub, HubClient *client, HubMoving *out);

/* The client of *in, released by another hub sharing this one's counts,
 * here (no welcome: it had one), or NULL when out of memory (then
 * hub_disconnect_moving lets its address go). */
HubClient *hub_adopt(Hub *hub, void *user, const HubMoving *in, int64_t now_ms);

/* A moving client's connection went before any hub adopted it (at now):
 * its address lets it go, and its frames are freed. */
void hub_disconnect_moving(Hub *hub, HubMoving *moving, int64_t now_ms);

/* Sends every client the "closing" frame and closes it with 1001 (the
 * server stops: reconnect). */
void hub_shutdown(Hub *hub);

/* Does what is due at now (bots' moves); the next time something is due,
 * or INT64_MAX. */
void hub_tick(Hub *hub, int64_t now_ms);
int64_t hub_next_wake(const Hub *hub);

/* ---- the expert bot's decisions, off the event loop ----------------------
 *
 * Expert searches up to about a quarter of a second a decision at 8 players
 * (docs/BENCHMARKS.md): too long for the one loop that serves every table.
 * So when an expert bot is to move, the hub hands its decision out as a job
 * (HubConfig.post) at once, while the room's pace runs: a copy of the bot
 * (its memory of the game and its generator), a copy of its seat's view
 * (the public state, its own hand, the history; no other hand), the room
 * and the room's game sequence number it is for. One job per room is out
 * at a time. When it comes back (hub_job_done) its move is played at the
 * room's pace, the later of the pace's time and the answer's, if the
 * room's game is still where it was; else it is dropped and, if the expert
 * is still to move, a job for the new state is handed out. */

/* A job is an expert's decision (above) or a review of one seat of a
 * finished game (the `review` message: lit_review, which plays the expert at
 * every decision of the seat, up to seconds: never on the loop). A review
 * job holds a copy of the game's deal and events and the seat; its answer
 * goes to the client that asked, if still connected, and is kept in the
 * hub's cache of reviews either way. A hint (the `hint` message) is an
 * expert's decision for a player's seat and its chance (lit_bot_chance),
 * run on an expert's worker; its answer goes to the client that asked. */
enum { HUB_JOB_EXPERT = 0, HUB_JOB_REVIEW = 1, HUB_JOB_HINT = 2 };

/* Does the job: the one call of the hub that may run on any thread. It
 * touches only the job and work (size bytes, lent to it for the call: an
 * expert's decision needs LIT_BOT_WORK, a review LIT_REVIEW_WORK, which is
 * more; a review given less fails, and is answered server_error). */
void hub_job_run(HubJob *job, void *work, size_t size);

/* A job run by hub_job_run, back on the hub's thread at now (see above);
 * the hub frees it. */
void hub_job_done(Hub *hub, HubJob *job, int64_t now_ms);

/* Frees a job that will not come back (the server stops with it queued). */
void hub_job_free(HubJob *job);

/* What a job is for: its kind (HUB_JOB_*); an expert's room's code
 * (static for the job's life; "" for a review) and the room's game
 * sequence number (the seq of the last change of its game; 0 for a
 * review). */
int hub_job_kind(const HubJob *job);
const char *hub_job_room(const HubJob *job);
uint32_t hub_job_seq(const HubJob *job);

/* Whether a hint (the `hint` message) is being worked out for the seat of
 * c's member: its answer comes when the job is back (fuzz_hub checks it). */
int hub_hint_out(HubClient *c);

/* Counts for logs: this hub's. */
int hub_rooms(const Hub *hub);
int hub_clients(const Hub *hub);

/* Counts for /healthz: the server's (every hub sharing this one's
 * HubShared). */
int hub_server_rooms(Hub *hub);
int hub_server_clients(Hub *hub);

/* Whether name is an error the hub answers with: one of the protocol's own
 * (docs/PROTOCOL.md) or an engine status (include/literature/status.h).
 * Tests and the fuzzer check every error frame's name with it. */
int hub_error_known(const char *name);

#endif
