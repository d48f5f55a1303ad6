/* store.h - where `lit serve` keeps rooms and games (docs/ARCHITECTURE.md,
 * section 13, "src/store").
 *
 * One interface, so that a backend other than SQLite (PostgreSQL, for
 * several server machines sharing games) can be put behind it later. The
 * store knows nothing of the game: a room's state is the hub's text (JSON),
 * a game is its record in the notation (docs/NOTATION.md), kept as a header
 * and one line per action while it is played and as the whole record once it
 * has ended. Each save is one transaction: a room's state, its game's new
 * lines and the records of games that have ended are stored together or not
 * at all.
 *
 * Single-threaded: one store is used by one thread at a time.
 */
#ifndef LIT_STORE_STORE_H
#define LIT_STORE_STORE_H

#include <stddef.h>
#include <stdint.h>

enum {
    STORE_OK = 0,
    STORE_FAILED = -1,     /* the backend failed; store_error says how */
    STORE_NOT_FOUND = -2,  /* no game with that id */
    STORE_UNFINISHED = -3, /* the game is still being played */
    STORE_ERROR_MAX = 256  /* bytes of an error message */
};

/* A game that has ended: its whole record. */
typedef struct StoreEnded {
    const char *id;
    int number;                /* its number in the room */
    int actions;               /* its lines */
    const char *result;        /* "A", "B", "draw", "aborted" */
    const char *score;         /* "4-5" */
    const char *record;        /* the canonical record */
    int64_t finished;          /* when it ended (Unix seconds): a game saved
                                * late (saves failing) keeps its time */
} StoreEnded;

/* What one save writes, in one transaction. */
typedef struct StoreSave {
    const char *room;          /* the room's code */
    const char *state;         /* its state (the hub's JSON) */
    const char *game;          /* the id of its game, or NULL before the first */
    int number;                /* that game's number in the room */
    const char *header;        /* the game's record header (kept while it is played) */
    uint32_t first;            /* lines of the game saved before */
    const char *lines;         /* its lines first+1, first+2, ... each ended by '\n' */
    const StoreEnded *ended;   /* games that have ended since the last save */
    int n_ended;
} StoreSave;

/* A game as listed. */
typedef struct StoreGame {
    const char *id;
    const char *room;
    int number;
    int64_t started;           /* seconds since 1970 (UTC) */
    int64_t finished;          /* 0 while it is played */
    const char *result;        /* NULL while it is played */
    const char *score;
    int actions;               /* lines so far (of the whole record once ended) */
} StoreGame;

typedef struct Store Store;

/* A room as stored, handed to store_rooms' callback: its state, and the
 * record text of its game (the whole record, or the header and the lines
 * so far; NULL before its first game, or when it does not read). A damaged
 * row may give a NULL code or state: the callback leaves such a room out. */
typedef int (*StoreRoomFn)(void *ctx, const char *code, const char *state, const char *game,
                           const char *record);
typedef int (*StoreGameFn)(void *ctx, const StoreGame *game);

typedef struct StoreOps {
    int (*save)(Store *s, const StoreSave *save);
    int (*drop)(Store *s, const char *room);
    int (*rooms)(Store *s, StoreRoomFn each, void *ctx);
    int (*record)(Store *s, const char *game, char **text, size_t *len);
    int (*games)(Store *s, StoreGameFn each, void *ctx);
    int (*backup)(Store *s, const char *path);
    void (*close)(Store *s);
    /* The last failure's sentence (NULL: the struct's error). */
    const char *(*error)(const Store *s);
} StoreOps;

/* Every backend's struct starts with this. */
struct Store {
    const StoreOps *ops;
    char error[STORE_ERROR_MAX]; /* the last failure */
};

/* Each of these returns STORE_OK, or STORE_FAILED with store_error(s) set. */

/* Writes a room's state, its game's new lines and the games that ended. */
int store_save(Store *s, const StoreSave *save);

/* Removes a room (its games stay). */
int store_drop(Store *s, const char *room);

/* Calls each for every room; a nonzero return stops it and is returned. */
int store_rooms(Store *s, StoreRoomFn each, void *ctx);

/* The record of a game that has ended, in *text (malloc'd, 0-terminated,
 * *len bytes): also STORE_NOT_FOUND or STORE_UNFINISHED. */
int store_record(Store *s, const char *game, char **text, size_t *len);

/* Calls each for every game, newest first. */
int store_games(Store *s, StoreGameFn each, void *ctx);

/* Copies the whole store to a new SQLite file at path, while it is used. */
int store_backup(Store *s, const char *path);

const char *store_error(const Store *s);
void store_close(Store *s);

/* A store several threads may use at once (the event loops of `lit serve
 * --loops`): each call of inner made under one lock (a recursive one:
 * store_rooms' callback may drop a room), and store_error the calling
 * thread's own last failure. Closing it closes inner. NULL when out of
 * memory (inner is left open). */
Store *store_shared(Store *inner);

/* Frees a store_shared wrapper, leaving its inner store open (its owner
 * closes it). */
void store_unshare(Store *shared);

/* ---- SQLite (sqlite.c) ---------------------------------------------------- */

typedef struct StoreOptions {
    int64_t max_bytes;         /* the file's size cap (0: none): beyond it saves fail */
    int read_only;             /* open for reading (lit games, lit backup) */
    /* Retention, applied in every save in which games end: the finished
     * games kept, newest first (0: all), and the days a finished game is
     * kept (0: for ever). A game a room still names (its last) is kept. */
    int64_t keep_games;
    int64_t keep_days;
} StoreOptions;

enum {
    STORE_SCHEMA = 2,             /* the schema this program writes */
    STORE_APPLICATION = 0x4c495431 /* "LIT1": the file's application_id */
};

/* Opens (creating it unless read_only) the SQLite store at path, bringing an
 * older schema up to date. NULL with error (STORE_ERROR_MAX bytes) set when
 * it cannot: a file that is not SQLite or not ours, a schema newer than this
 * program's, no access. */
Store *store_sqlite_open(const char *path, const StoreOptions *options, char *error);

#endif
