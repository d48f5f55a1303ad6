/* sqlite.c - the store in one SQLite file (store.h).
 *
 * WAL journal with synchronous=NORMAL: a commit is written to the WAL before
 * store_save returns, so a process killed at any moment (kill -9) loses no
 * committed save; a power cut or an operating system crash may lose the last
 * saves before the WAL reached the disk, never the file's consistency
 * (docs/ARCHITECTURE.md, section 13, "src/store").
 *
 * The schema's version is the file's user_version, its owner the
 * application_id. Opening an older file runs the missing steps of
 * migrations[] in one transaction; a newer file, or another program's, is
 * refused.
 */
#include "store.h"

#include <pthread.h>
#include <sqlite3.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../mem/mem.h"

/* Step k brings a file from version k to k + 1. Never edit a step that has
 * shipped: add one. */
static const char *const migrations[] = {
    /* 0 -> 1: rooms, games, and the lines of games being played */
    "CREATE TABLE rooms(\n"
    "  code TEXT PRIMARY KEY,\n"
    "  state TEXT NOT NULL,          -- the hub's JSON\n"
    "  game TEXT,                    -- its game, while it has one\n"
    "  updated INTEGER NOT NULL);\n"
    "CREATE TABLE games(\n"
    "  id TEXT PRIMARY KEY,\n"
    "  room TEXT NOT NULL,\n"
    "  number INTEGER NOT NULL,\n"
    "  header TEXT,                  -- the record's header while it is played\n"
    "  started INTEGER NOT NULL,\n"
    "  finished INTEGER,             -- NULL while it is played\n"
    "  result TEXT,\n"
    "  score TEXT,\n"
    "  actions INTEGER,\n"
    "  record TEXT);                 -- the whole record once it has ended\n"
    "CREATE INDEX games_by_start ON games(started);\n"
    "CREATE TABLE actions(\n"
    "  game TEXT NOT NULL,\n"
    "  n INTEGER NOT NULL,\n"
    "  line TEXT NOT NULL,\n"
    "  PRIMARY KEY(game, n)) WITHOUT ROWID;\n",
    /* 1 -> 2: finished games by the time they ended, for retention */
    "CREATE INDEX games_by_finish ON games(finished) WHERE finished IS NOT NULL;\n",
};

_Static_assert(sizeof migrations / sizeof *migrations == STORE_SCHEMA,
               "one migration per schema version");

enum {
    Q_BEGIN,
    Q_COMMIT,
    Q_ROLLBACK,
    Q_GAME,
    Q_LINE,
    Q_ENDED,
    Q_ENDED_LINES,
    Q_ROOM,
    Q_DROP,
    Q_ROOMS,
    Q_LINES,
    Q_RECORD,
    Q_GAMES,
    Q_KEEP_GAMES,
    Q_KEEP_DAYS,
    Q_COUNT
};

static const char *const queries[Q_COUNT] = {
    [Q_BEGIN] = "BEGIN IMMEDIATE",
    [Q_COMMIT] = "COMMIT",
    [Q_ROLLBACK] = "ROLLBACK",
    [Q_GAME] = "INSERT INTO games(id, room, number, header, started) "
               "VALUES(?1, ?2, ?3, ?4, unixepoch()) ON CONFLICT(id) DO NOTHING",
    [Q_LINE] = "INSERT OR REPLACE INTO actions(game, n, line) VALUES(?1, ?2, ?3)",
    [Q_ENDED] = "INSERT INTO games(id, room, number, started, finished, result, score, "
                "actions, record) VALUES(?1, ?2, ?3, ?8, ?8, ?4, ?5, ?6, ?7) "
                "ON CONFLICT(id) DO UPDATE SET finished = ?8, result = ?4, "
                "score = ?5, actions = ?6, record = ?7, header = NULL",
    [Q_ENDED_LINES] = "DELETE FROM actions WHERE game = ?1",
    [Q_ROOM] = "INSERT OR REPLACE INTO rooms(code, state, game, updated) "
               "VALUES(?1, ?2, ?3, unixepoch())",
    [Q_DROP] = "DELETE FROM rooms WHERE code = ?1",
    [Q_ROOMS] = "SELECT r.code, r.state, r.game, g.finished IS NOT NULL, "
                "coalesce(g.record, g.header) FROM rooms r "
                "LEFT JOIN games g ON g.id = r.game ORDER BY r.code",
    [Q_LINES] = "SELECT line FROM actions WHERE game = ?1 ORDER BY n",
    [Q_RECORD] = "SELECT finished, record FROM games WHERE id = ?1",
    [Q_GAMES] = "SELECT id, room, number, started, finished, result, score, "
                "coalesce(actions, (SELECT count(*) FROM actions a WHERE a.game = g.id)) "
                "FROM games g ORDER BY started DESC, rowid DESC",
    /* Retention: finished games beyond the newest ?1, and finished games
     * older than ?1 days; never a game a room still names (its last one,
     * which a restart reads back). */
    [Q_KEEP_GAMES] = "DELETE FROM games WHERE id IN (SELECT id FROM games "
                     "WHERE finished IS NOT NULL ORDER BY finished DESC, rowid DESC "
                     "LIMIT -1 OFFSET ?1) AND id NOT IN (SELECT game FROM rooms "
                     "WHERE game IS NOT NULL)",
    [Q_KEEP_DAYS] = "DELETE FROM games WHERE finished IS NOT NULL AND "
                    "finished < unixepoch() - ?1 * 86400 AND id NOT IN "
                    "(SELECT game FROM rooms WHERE game IS NOT NULL)",
};

typedef struct Sqlite {
    Store base;
    sqlite3 *db;
    sqlite3_stmt *q[Q_COUNT];
    int64_t keep_games, keep_days; /* StoreOptions' retention */
    int owner;                     /* the file opened again for flock (one
                                    * writer a store), or -1; closed after
                                    * the database (closing a descriptor of
                                    * the file drops SQLite's own locks) */
} Sqlite;

static void unclaim(Sqlite *q);

static int failed(Store *s, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(s->error, sizeof s->error, fmt, ap);
    va_end(ap);
    return STORE_FAILED;
}

static int db_failed(Sqlite *q, const char *what)
{
    return failed(&q->base, "%s: %s", what, sqlite3_errmsg(q->db));
}

/* A prepared statement, reset and with its bindings cleared. */
static sqlite3_stmt *query(Sqlite *q, int which)
{
    sqlite3_stmt *st = q->q[which];
    sqlite3_reset(st);
    sqlite3_clear_bindings(st);
    return st;
}

static int bind_text(sqlite3_stmt *st, int i, const char *text)
{
    return text ? sqlite3_bind_text(st, i, text, -1, SQLITE_STATIC) : sqlite3_bind_null(st, i);
}

/* Runs a statement that returns no rows: 0, or -1. */
static int run(sqlite3_stmt *st)
{
    int rc = sqlite3_step(st);
    sqlite3_reset(st);
    return rc == SQLITE_DONE ? 0 : -1;
}

/* ---- save ------------------------------------------------------------------ */

static int save_lines(Sqlite *q, const StoreSave *sv)
{
    uint32_t n = sv->first;
    for (const char *p = sv->lines; p && *p;) {
        const char *nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p) : strlen(p);
        sqlite3_stmt *st = query(q, Q_LINE);
        bind_text(st, 1, sv->game);
        sqlite3_bind_int64(st, 2, ++n);
        sqlite3_bind_text(st, 3, p, (int)len, SQLITE_STATIC);
        if (run(st))
            return -1;
        p += len + (nl != NULL);
    }
    return 0;
}

static int save_ended(Sqlite *q, const StoreSave *sv, const StoreEnded *e)
{
    sqlite3_stmt *st = query(q, Q_ENDED);
    bind_text(st, 1, e->id);
    bind_text(st, 2, sv->room);
    sqlite3_bind_int(st, 3, e->number);
    bind_text(st, 4, e->result);
    bind_text(st, 5, e->score);
    sqlite3_bind_int(st, 6, e->actions);
    bind_text(st, 7, e->record);
    sqlite3_bind_int64(st, 8, e->finished);
    if (run(st))
        return -1;
    st = query(q, Q_ENDED_LINES);
    bind_text(st, 1, e->id);
    return run(st);
}

/* Retention (StoreOptions), after games have ended: the finished games
 * past the cap and past the age go, in the save's transaction. */
static int keep(Sqlite *q)
{
    if (q->keep_games > 0) {
        sqlite3_stmt *st = query(q, Q_KEEP_GAMES);
        sqlite3_bind_int64(st, 1, q->keep_games);
        if (run(st))
            return -1;
    }
    if (q->keep_days > 0) {
        sqlite3_stmt *st = query(q, Q_KEEP_DAYS);
        sqlite3_bind_int64(st, 1, q->keep_days);
        if (run(st))
            return -1;
    }
    return 0;
}

static int sqlite_save(Store *s, const StoreSave *sv)
{
    Sqlite *q = (Sqlite *)s;
    if (run(query(q, Q_BEGIN)))
        return db_failed(q, "save");
    int bad = 0;
    if (sv->game && sv->header) {
        sqlite3_stmt *st = query(q, Q_GAME);
        bind_text(st, 1, sv->game);
        bind_text(st, 2, sv->room);
        sqlite3_bind_int(st, 3, sv->number);
        bind_text(st, 4, sv->header);
        bad = run(st);
    }
    if (!bad && sv->game)
        bad = save_lines(q, sv);
    for (int i = 0; !bad && i < sv->n_ended; i++)
        bad = save_ended(q, sv, &sv->ended[i]);
    if (!bad) {
        sqlite3_stmt *st = query(q, Q_ROOM);
        bind_text(st, 1, sv->room);
        bind_text(st, 2, sv->state);
        bind_text(st, 3, sv->game);
        bad = run(st);
    }
    if (!bad && sv->n_ended > 0)
        bad = keep(q);
    if (!bad && run(query(q, Q_COMMIT)) == 0)
        return STORE_OK;
    int full = (sqlite3_extended_errcode(q->db) & 0xff) == SQLITE_FULL;
    db_failed(q, "save");
    if (!sqlite3_get_autocommit(q->db))
        run(query(q, Q_ROLLBACK));
    /* a full disk: the WAL is checkpointed only after a commit, so it would
     * keep the space it holds; moved into the file and cut to nothing, it
     * gives most of it back for the next try */
    if (full)
        sqlite3_wal_checkpoint_v2(q->db, NULL, SQLITE_CHECKPOINT_TRUNCATE, NULL, NULL);
    return STORE_FAILED;
}

static int sqlite_drop(Store *s, const char *room)
{
    Sqlite *q = (Sqlite *)s;
    sqlite3_stmt *st = query(q, Q_DROP);
    bind_text(st, 1, room);
    return run(st) ? db_failed(q, "drop") : STORE_OK;
}

/* ---- read ------------------------------------------------------------------ */

/* A growing text. */
typedef struct Text {
    char *p;
    size_t len, cap;
} Text;

static int text_add(Text *t, const char *s, size_t n)
{
    if (t->len + n + 1 > t->cap) {
        size_t cap = t->cap ? t->cap : 4096;
        while (cap < t->len + n + 1)
            cap *= 2;
        char *p = mem_realloc(t->p, cap);
        if (!p)
            return -1;
        t->p = p;
        t->cap = cap;
    }
    memcpy(t->p + t->len, s, n);
    t->len += n;
    t->p[t->len] = 0;
    return 0;
}

/* The header and the lines so far of a game being played, in *t. */
static int game_text(Sqlite *q, const char *game, const char *header, Text *t)
{
    t->len = 0;
    if (text_add(t, header, strlen(header)))
        return -1;
    sqlite3_stmt *st = query(q, Q_LINES);
    bind_text(st, 1, game);
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        const char *line = (const char *)sqlite3_column_text(st, 0);
        if (!line || text_add(t, line, strlen(line)) || text_add(t, "\n", 1)) {
            sqlite3_reset(st);
            return -1;
        }
    }
    sqlite3_reset(st);
    return rc == SQLITE_DONE ? 0 : -1;
}

static int sqlite_rooms(Store *s, StoreRoomFn each, void *ctx)
{
    Sqlite *q = (Sqlite *)s;
    /* the rooms are read whole first: the lines' query cannot run while
     * theirs is stepped */
    typedef struct Row {
        struct Row *next;
        int finished;
        char *col[4]; /* code, state, game, record or header */
    } Row;
    Row *rows = NULL, **tail = &rows;
    sqlite3_stmt *st = query(q, Q_ROOMS);
    int rc, out = STORE_OK;
    while (out == STORE_OK && (rc = sqlite3_step(st)) == SQLITE_ROW) {
        Row *r = mem_calloc(1, sizeof *r);
        if (!r) {
            out = failed(s, "rooms: out of memory");
            break;
        }
        *tail = r;
        tail = &r->next;
        r->finished = sqlite3_column_int(st, 3);
        for (int i = 0; i < 4; i++) {
            const char *v = (const char *)sqlite3_column_text(st, i < 3 ? i : 4);
            if (v && !(r->col[i] = mem_strdup(v)))
                out = failed(s, "rooms: out of memory");
        }
    }
    if (out == STORE_OK && rc != SQLITE_DONE)
        out = db_failed(q, "rooms");
    sqlite3_reset(st);
    Text t = {0};
    for (Row *r = rows; r && out == STORE_OK; r = r->next) {
        const char *record = r->col[3];
        /* a header: its lines follow it (lines that do not read leave the
         * room without its game, which the hub then leaves out) */
        if (record && !r->finished)
            record = game_text(q, r->col[2], record, &t) ? NULL : t.p;
        out = each(ctx, r->col[0], r->col[1], r->col[2], record);
    }
    free(t.p);
    while (rows) {
        Row *next = rows->next;
        for (int i = 0; i < 4; i++)
            free(rows->col[i]);
        free(rows);
        rows = next;
    }
    return out;
}

static int sqlite_record(Store *s, const char *game, char **text, size_t *len)
{
    Sqlite *q = (Sqlite *)s;
    sqlite3_stmt *st = query(q, Q_RECORD);
    bind_text(st, 1, game);
    int rc = sqlite3_step(st), out;
    if (rc == SQLITE_DONE) {
        out = STORE_NOT_FOUND;
    } else if (rc != SQLITE_ROW) {
        out = db_failed(q, "record");
    } else if (sqlite3_column_type(st, 0) == SQLITE_NULL) {
        out = STORE_UNFINISHED;
    } else {
        const char *r = (const char *)sqlite3_column_text(st, 1);
        size_t n = (size_t)sqlite3_column_bytes(st, 1);
        *text = r ? mem_alloc(n + 1) : NULL;
        if (!r) {
            out = failed(s, "record: game %s has ended and has no record", game);
        } else if (*text) {
            memcpy(*text, r, n + 1);
            *len = n;
            out = STORE_OK;
        } else {
            out = failed(s, "record: out of memory");
        }
    }
    sqlite3_reset(st);
    return out;
}

static int sqlite_games(Store *s, StoreGameFn each, void *ctx)
{
    Sqlite *q = (Sqlite *)s;
    sqlite3_stmt *st = query(q, Q_GAMES);
    int rc, out = STORE_OK;
    while (out == STORE_OK && (rc = sqlite3_step(st)) == SQLITE_ROW) {
        StoreGame g = {
            (const char *)sqlite3_column_text(st, 0),
            (const char *)sqlite3_column_text(st, 1),
            sqlite3_column_int(st, 2),
            sqlite3_column_int64(st, 3),
            sqlite3_column_int64(st, 4),
            (const char *)sqlite3_column_text(st, 5),
            (const char *)sqlite3_column_text(st, 6),
            sqlite3_column_int(st, 7),
        };
        /* a damaged row (a NULL where the schema cannot stop one) is listed
         * as "?" rather than stopping the list */
        g.id = g.id ? g.id : "?";
        g.room = g.room ? g.room : "?";
        out = each(ctx, &g);
    }
    if (out == STORE_OK && rc != SQLITE_DONE)
        out = db_failed(q, "games");
    sqlite3_reset(st);
    return out;
}

/* Whether SQLite takes path for no file of that name: "" (a temporary
 * database), ":memory:", and URIs ("file:..."). */
static int no_file_name(const char *path)
{
    return !*path || path[0] == ':' || strncmp(path, "file:", 5) == 0;
}

/* Removes a copy not made whole, and the journal SQLite may have left. */
static void unlink_copy(const char *tmp)
{
    char journal[4096 + 16];
    unlink(tmp);
    snprintf(journal, sizeof journal, "%s-journal", tmp);
    unlink(journal);
}

/* tmp's file takes the name path, which must not exist: by link(), which
 * refuses one that has come to exist meanwhile, or where the file system
 * has no links (FAT, some network file systems) by rename() after a look,
 * which leaves that window. tmp's name is left for unlink_copy. 0, or -1
 * with errno set (EEXIST: path exists). */
static int take_name(const char *tmp, const char *path)
{
    if (link(tmp, path) == 0)
        return 0;
    if (errno != EPERM && errno != EOPNOTSUPP && errno != ENOSYS)
        return -1;
    struct stat sb;
    if (lstat(path, &sb) == 0) {
        errno = EEXIST;
        return -1;
    }
    if (rename(tmp, path) != 0)
        return -1;
    return 0;
}

/* The copy is made at a name of its own beside path (path, a dot and six
 * random characters; mode 0600, a copy of the tokens) and takes path only
 * whole: a backup that fails leaves nothing at path, and one that is
 * killed leaves only that other name (and its -journal), which may be
 * deleted. */
static int sqlite_backup(Store *s, const char *path)
{
    Sqlite *q = (Sqlite *)s;
    if (no_file_name(path)) {
        failed(s, "backup to '%s': SQLite writes no file of that name: give a path, say ./%s",
               path, *path ? path : "copy.db");
        return STORE_FAILED;
    }
    size_t len = strlen(path);
    if (path[len - 1] == '/') {
        failed(s, "backup to %s: a file's name, not a folder's", path);
        return STORE_FAILED;
    }
    char tmp[4096];
    if (len + 8 > sizeof tmp) {
        failed(s, "backup to %s: %s", path, strerror(ENAMETOOLONG));
        return STORE_FAILED;
    }
    /* mkstemp's template: the path, a dot, and six X it replaces */
    snprintf(tmp, sizeof tmp, "%s.", path);
    memset(tmp + len + 1, 'X', 6);
    tmp[len + 7] = '\0';
    int fd = mkstemp(tmp); /* an empty file, mode 0600: SQLite takes it for a new one */
    if (fd < 0) {
        failed(s, "backup to %s: %s", path, strerror(errno));
        return STORE_FAILED;
    }
    close(fd);
    sqlite3 *to = NULL;
    int rc = sqlite3_open_v2(tmp, &to, SQLITE_OPEN_READWRITE, NULL);
    if (rc == SQLITE_OK) {
        sqlite3_backup *b = sqlite3_backup_init(to, "main", q->db, "main");
        if (b) {
            /* in one step: the copy is of one moment; the source is only
             * read, so the server goes on writing (WAL) */
            sqlite3_backup_step(b, -1);
            sqlite3_backup_finish(b);
        }
        rc = sqlite3_errcode(to);
    }
    if (rc != SQLITE_OK)
        failed(s, "backup to %s: %s", path, to ? sqlite3_errmsg(to) : sqlite3_errstr(rc));
    sqlite3_close(to);
    if (rc == SQLITE_OK && take_name(tmp, path) != 0) {
        if (errno == EEXIST)
            failed(s, "%s: exists: the backup goes to a new file", path);
        else
            failed(s, "backup to %s: %s", path, strerror(errno));
        rc = SQLITE_ERROR;
    }
    unlink_copy(tmp);
    return rc == SQLITE_OK ? STORE_OK : STORE_FAILED;
}

static void sqlite_close(Store *s)
{
    Sqlite *q = (Sqlite *)s;
    for (int i = 0; i < Q_COUNT; i++)
        sqlite3_finalize(q->q[i]);
    sqlite3_close(q->db);
    unclaim(q);
    mem_free(q);
}

static const StoreOps sqlite_ops = {sqlite_save,  sqlite_drop,   sqlite_rooms, sqlite_record,
                                    sqlite_games, sqlite_backup, sqlite_close, NULL};

/* ---- open -------------------------------------------------------------------- */

static int pragma_int(sqlite3 *db, const char *sql, int64_t *out)
{
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
        return -1;
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW)
        *out = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    return rc == SQLITE_ROW ? 0 : -1;
}

/* Checks the file is ours and brings its schema up to date: 0, or -1 with
 * error set. */
static int migrate(Sqlite *q, const StoreOptions *o, char *error)
{
    sqlite3 *db = q->db;
    int64_t app = 0, version = 0, tables = 0;
    if (pragma_int(db, "PRAGMA application_id", &app) ||
        pragma_int(db, "PRAGMA user_version", &version) ||
        pragma_int(db, "SELECT count(*) FROM sqlite_schema", &tables)) {
        snprintf(error, STORE_ERROR_MAX, "%s", sqlite3_errmsg(db));
        return -1;
    }
    if ((app != 0 && app != STORE_APPLICATION) || (app == 0 && tables > 0)) {
        snprintf(error, STORE_ERROR_MAX, "not a literature store (another program's database)");
        return -1;
    }
    if (version > STORE_SCHEMA) {
        snprintf(error, STORE_ERROR_MAX,
                 "the store's schema is version %lld, newer than this program's %d",
                 (long long)version, STORE_SCHEMA);
        return -1;
    }
    if (version == STORE_SCHEMA)
        return 0;
    if (o->read_only) {
        snprintf(error, STORE_ERROR_MAX,
                 app ? "the store's schema is version %lld: `lit serve --db` brings it up to date"
                     : "not a literature store (an empty file)",
                 (long long)version);
        return -1;
    }
    char *msg = NULL;
    int rc = sqlite3_exec(db, "BEGIN IMMEDIATE", NULL, NULL, &msg);
    for (int64_t v = version; rc == SQLITE_OK && v < STORE_SCHEMA; v++)
        rc = sqlite3_exec(db, migrations[v], NULL, NULL, &msg);
    if (rc == SQLITE_OK) {
        char sql[96];
        snprintf(sql, sizeof sql, "PRAGMA application_id = %d; PRAGMA user_version = %d; COMMIT",
                 STORE_APPLICATION, STORE_SCHEMA);
        rc = sqlite3_exec(db, sql, NULL, NULL, &msg);
    }
    if (rc != SQLITE_OK) {
        snprintf(error, STORE_ERROR_MAX, "bringing the schema from version %lld to %d: %s",
                 (long long)version, STORE_SCHEMA, msg ? msg : sqlite3_errmsg(db));
        sqlite3_free(msg);
        sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
        return -1;
    }
    return 0;
}

#define UNWRITABLE "cannot be written (the file, its folder or its disk is read-only)"

/* The files this process has claimed (claim), by device and inode: a file
 * is looked up here before any descriptor of it is opened, since closing a
 * descriptor of a file drops every POSIX lock the process holds on it,
 * SQLite's own among them. */
enum { CLAIMED_MAX = 16 };
static struct {
    dev_t dev;
    ino_t ino;
} claimed[CLAIMED_MAX];
static int n_claimed;
static pthread_mutex_t claimed_lock = PTHREAD_MUTEX_INITIALIZER;

static int claimed_at(dev_t dev, ino_t ino)
{
    for (int i = 0; i < n_claimed; i++)
        if (claimed[i].dev == dev && claimed[i].ino == ino)
            return i;
    return -1;
}

/* For a store to be written, before SQLite opens it: one writer a file (two
 * servers on one file would each take its rooms up and write over the
 * other's games). An exclusive flock of the file, made here if missing
 * (as SQLite makes it: 0644 less the umask), held until the store is
 * closed; flock's locks are not SQLite's (POSIX fcntl locks), which readers
 * (lit games, lit backup) take as before. 0, or -1 with error set. */
static int claim(Sqlite *q, const char *path, char *error)
{
    struct stat sb;
    pthread_mutex_lock(&claimed_lock);
    int mine = stat(path, &sb) == 0 && claimed_at(sb.st_dev, sb.st_ino) >= 0;
    pthread_mutex_unlock(&claimed_lock);
    if (mine) {
        snprintf(error, STORE_ERROR_MAX, "in use by this process's store already");
        return -1;
    }
    int fd = open(path, O_RDONLY | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0) {
        snprintf(error, STORE_ERROR_MAX, "%s", strerror(errno));
        return -1;
    }
    if (flock(fd, LOCK_EX | LOCK_NB) != 0 || fstat(fd, &sb) != 0) {
        snprintf(error, STORE_ERROR_MAX, "%s",
                 errno == EWOULDBLOCK ? "in use by another lit serve: a store has one server"
                                      : strerror(errno));
        close(fd); /* (no SQLite connection of this process has the file yet) */
        return -1;
    }
    pthread_mutex_lock(&claimed_lock);
    int room = n_claimed < CLAIMED_MAX;
    if (room) {
        claimed[n_claimed].dev = sb.st_dev;
        claimed[n_claimed++].ino = sb.st_ino;
    }
    pthread_mutex_unlock(&claimed_lock);
    if (!room) {
        snprintf(error, STORE_ERROR_MAX, "this process has %d stores open already", CLAIMED_MAX);
        close(fd);
        return -1;
    }
    q->owner = fd;
    return 0;
}

/* Lets the file go, once SQLite has closed it. */
static void unclaim(Sqlite *q)
{
    struct stat sb;
    if (q->owner < 0)
        return;
    pthread_mutex_lock(&claimed_lock);
    int at = fstat(q->owner, &sb) == 0 ? claimed_at(sb.st_dev, sb.st_ino) : -1;
    if (at >= 0)
        claimed[at] = claimed[--n_claimed];
    pthread_mutex_unlock(&claimed_lock);
    close(q->owner);
    q->owner = -1;
}

/* SQLite's memory from mem.h (its failures counted, and failed by tests),
 * each block after a header that keeps its size (SQLite asks for it). */
typedef union MemHead {
    size_t size;
    max_align_t align;
} MemHead;

static void *sq_malloc(int n)
{
    MemHead *h = n > 0 ? mem_alloc(sizeof *h + (size_t)n) : NULL;
    if (!h)
        return NULL;
    h->size = (size_t)n;
    return h + 1;
}

static void sq_free(void *p)
{
    if (p)
        mem_free((MemHead *)p - 1);
}

static void *sq_realloc(void *p, int n)
{
    MemHead *h = n > 0 ? mem_realloc((MemHead *)p - 1, sizeof *h + (size_t)n) : NULL;
    if (!h)
        return NULL;
    h->size = (size_t)n;
    return h + 1;
}

static int sq_size(void *p)
{
    return p ? (int)((MemHead *)p - 1)->size : 0;
}

static int sq_roundup(int n)
{
    return (n + 7) & ~7;
}

static int sq_init(void *ctx)
{
    (void)ctx;
    return SQLITE_OK;
}

static void sq_shutdown(void *ctx)
{
    (void)ctx;
}

/* Gives SQLite mem.h's allocator, once, before its first use in the
 * process (after that sqlite3_config refuses, and SQLite keeps its own). */
static void plug_memory(void)
{
    static const sqlite3_mem_methods methods = {sq_malloc, sq_free,   sq_realloc, sq_size,
                                                sq_roundup, sq_init, sq_shutdown, NULL};
    static int plugged;
    if (!plugged) {
        plugged = 1;
        sqlite3_config(SQLITE_CONFIG_MALLOC, &methods);
    }
}

Store *store_sqlite_open(const char *path, const StoreOptions *options, char *error)
{
    plug_memory();
    static const StoreOptions none = {0, 0, 0, 0};
    const StoreOptions *o = options ? options : &none;
    Sqlite *q = mem_calloc(1, sizeof *q);
    if (!q) {
        snprintf(error, STORE_ERROR_MAX, "out of memory");
        return NULL;
    }
    q->keep_games = o->keep_games;
    q->keep_days = o->keep_days;
    q->owner = -1;
    q->base.ops = &sqlite_ops;
    /* a store written is a file: SQLite keeps "" and ":memory:" in memory,
     * and a URI may say mode=memory or immutable (read, a URI may name a
     * file: mode=ro) */
    if (no_file_name(path) && !(o->read_only && strncmp(path, "file:", 5) == 0)) {
        snprintf(error, STORE_ERROR_MAX, "%s",
                 strncmp(path, "file:", 5) == 0
                     ? "a URI, which may keep the store in memory or read-only: give the "
                       "file's path"
                     : o->read_only ? "SQLite reads no file of that name: give the store's path"
                                    : "SQLite writes no file of that name: give a path, say ./lit.db");
        goto fail;
    }
    /* a folder or a device is no store: said so, where SQLite would say
     * "disk I/O error" or take /dev/zero for an empty file */
    struct stat sb;
    if (o->read_only && !no_file_name(path) && stat(path, &sb) != 0) { /* SQLite: "unable to open" */
        snprintf(error, STORE_ERROR_MAX, "%s", strerror(errno));
        goto fail;
    }
    if (!no_file_name(path) && stat(path, &sb) == 0 && !S_ISREG(sb.st_mode)) {
        snprintf(error, STORE_ERROR_MAX, "%s",
                 S_ISDIR(sb.st_mode) ? "a folder, not a store's file" : "not a regular file");
        goto fail;
    }
    if (!o->read_only && claim(q, path, error))
        goto fail;
    int flags = SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX |
                (o->read_only ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE);
    int rc = sqlite3_open_v2(path, &q->db, flags, NULL);
    int64_t mode = 0;
    if (rc != SQLITE_OK) {
        snprintf(error, STORE_ERROR_MAX, "%s",
                 q->db ? sqlite3_errmsg(q->db) : sqlite3_errstr(rc));
        goto fail;
    }
    sqlite3_extended_result_codes(q->db, 1);
    sqlite3_busy_timeout(q->db, 200);
    /* SQLite opens a file it may not write for reading, without a word */
    if (!o->read_only && sqlite3_db_readonly(q->db, "main") == 1) {
        snprintf(error, STORE_ERROR_MAX, "%s", UNWRITABLE);
        goto fail;
    }
    /* a file that is not SQLite fails on its first read; one in WAL mode
     * whose folder may not be written, there (no -shm file can be made) */
    if (migrate(q, o, error)) {
        if ((sqlite3_extended_errcode(q->db) & 0xff) == SQLITE_READONLY)
            snprintf(error, STORE_ERROR_MAX, "%s",
                     o->read_only ? "cannot be read here: a store in WAL mode is read with "
                                    "its -shm file, which its folder must let be made (or "
                                    "copy the store with its -wal and -shm files)"
                                  : UNWRITABLE);
        goto fail;
    }
    if (!o->read_only) {
        char *msg = NULL;
        sqlite3_stmt *st;
        if (sqlite3_prepare_v2(q->db, "PRAGMA journal_mode = WAL", -1, &st, NULL) != SQLITE_OK ||
            sqlite3_step(st) != SQLITE_ROW ||
            strcmp((const char *)sqlite3_column_text(st, 0), "wal") != 0) {
            snprintf(error, STORE_ERROR_MAX, "cannot use a write-ahead log: %s",
                     sqlite3_errmsg(q->db));
            sqlite3_finalize(st);
            goto fail;
        }
        sqlite3_finalize(st);
        /* (the WAL cut back to 4 MiB after each checkpoint: its file
         * otherwise keeps the most it ever held) */
        if (sqlite3_exec(q->db, "PRAGMA synchronous = NORMAL; PRAGMA journal_size_limit = 4194304",
                         NULL, NULL, &msg) != SQLITE_OK) {
            snprintf(error, STORE_ERROR_MAX, "%s", msg);
            sqlite3_free(msg);
            goto fail;
        }
        int64_t page = 0;
        if (o->max_bytes > 0 && pragma_int(q->db, "PRAGMA page_size", &page) == 0 && page > 0) {
            char sql[64];
            snprintf(sql, sizeof sql, "PRAGMA max_page_count = %lld",
                     (long long)(o->max_bytes / page > 0 ? o->max_bytes / page : 1));
            pragma_int(q->db, sql, &mode);
        }
    }
    for (int i = 0; i < Q_COUNT; i++)
        if (sqlite3_prepare_v3(q->db, queries[i], -1, SQLITE_PREPARE_PERSISTENT, &q->q[i],
                               NULL) != SQLITE_OK) {
            snprintf(error, STORE_ERROR_MAX, "%s", sqlite3_errmsg(q->db));
            goto fail;
        }
    return &q->base;
fail:
    sqlite_close(&q->base);
    return NULL;
}
