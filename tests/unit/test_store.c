/* test_store.c - the SQLite store of `lit serve` (src/store): saves read
 * back, one transaction each, files that are not ours refused by name, a
 * full file or one opened for reading failing a save and losing nothing,
 * one writer a file, backups whole or not at all. The hub's use of it
 * (restart, failures told to rooms) is in test_hub.c. */
#include <criterion/criterion.h>
#include <dirent.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "../../src/store/store.h"
#include "helpers.h"

/* A fresh directory for each test's files. */
static char dir[64];

static void make_dir(void)
{
    scratch_make(dir, sizeof dir, "test_store");
}

static void remove_dir(void)
{
    scratch_remove(dir);
}

TestSuite(store, .init = make_dir, .fini = remove_dir);

static const char *path_of(const char *name)
{
    static char p[128];
    snprintf(p, sizeof p, "%s/%s", dir, name);
    return p;
}

static Store *open_ok(const char *name, const StoreOptions *o)
{
    char error[STORE_ERROR_MAX] = "";
    Store *s = store_sqlite_open(path_of(name), o, error);
    cr_assert(s, "open %s: %s", name, error);
    return s;
}

/* The error opening name gives. */
static const char *open_error(const char *name, const StoreOptions *o)
{
    static char error[STORE_ERROR_MAX];
    error[0] = 0;
    Store *s = store_sqlite_open(path_of(name), o, error);
    cr_assert_null(s, "%s opened", name);
    return error;
}

/* What store_rooms hands out, one room a line: "CODE|STATE|GAME|RECORD". */
typedef struct Seen {
    char text[8192];
} Seen;

static int see_room(void *ctx, const char *code, const char *state, const char *game,
                    const char *record)
{
    Seen *s = ctx;
    size_t n = strlen(s->text);
    snprintf(s->text + n, sizeof s->text - n, "%s|%s|%s|%s\n", code, state, game ? game : "-",
             record ? record : "-");
    return 0;
}

static const char *rooms_of(Store *s)
{
    static Seen seen;
    seen.text[0] = 0;
    cr_assert_eq(store_rooms(s, see_room, &seen), STORE_OK, "%s", store_error(s));
    return seen.text;
}

static int see_game(void *ctx, const StoreGame *g)
{
    Seen *s = ctx;
    size_t n = strlen(s->text);
    snprintf(s->text + n, sizeof s->text - n, "%s %s %d %s %s %d %s\n", g->id, g->room, g->number,
             g->result ? g->result : "playing", g->score ? g->score : "-", g->actions,
             g->finished ? "finished" : "-");
    return 0;
}

static const char *games_of(Store *s)
{
    static Seen seen;
    seen.text[0] = 0;
    cr_assert_eq(store_games(s, see_game, &seen), STORE_OK, "%s", store_error(s));
    return seen.text;
}

/* One integer a query of the file gives (a connection of its own). */
static int64_t sql_int(const char *file, const char *sql)
{
    sqlite3 *db;
    sqlite3_stmt *st;
    cr_assert_eq(sqlite3_open(path_of(file), &db), SQLITE_OK);
    cr_assert_eq(sqlite3_prepare_v2(db, sql, -1, &st, NULL), SQLITE_OK, "%s", sqlite3_errmsg(db));
    cr_assert_eq(sqlite3_step(st), SQLITE_ROW);
    int64_t v = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    sqlite3_close(db);
    return v;
}

static StoreSave save_at(const char *state, uint32_t first, const char *lines)
{
    StoreSave sv = {"BCDFGH", state, "GAME000000000001", 1, "[Rules \"classic\"]\n",
                    first, lines, NULL, 0};
    return sv;
}

Test(store, a_save_reads_back_and_a_game_is_its_header_and_lines)
{
    Store *s = open_ok("a.db", NULL);
    cr_assert_str_eq(rooms_of(s), "");
    StoreSave sv = save_at("{\"v\":1}", 0, "1. 1 asks 2 for 2c: hit\n");
    cr_assert_eq(store_save(s, &sv), STORE_OK, "%s", store_error(s));
    sv = save_at("{\"v\":2}", 1, "2. 1 asks 2 for 3c: miss\n3. 2 asks 1 for 2c: hit\n");
    cr_assert_eq(store_save(s, &sv), STORE_OK, "%s", store_error(s));
    cr_assert_str_eq(rooms_of(s), "BCDFGH|{\"v\":2}|GAME000000000001|[Rules \"classic\"]\n"
                                  "1. 1 asks 2 for 2c: hit\n2. 1 asks 2 for 3c: miss\n"
                                  "3. 2 asks 1 for 2c: hit\n\n");
    cr_assert_str_eq(games_of(s), "GAME000000000001 BCDFGH 1 playing - 3 -\n");
    /* an unfinished game's record is refused; an unknown one is not found */
    char *text = NULL;
    size_t len = 0;
    cr_assert_eq(store_record(s, "GAME000000000001", &text, &len), STORE_UNFINISHED);
    cr_assert_eq(store_record(s, "NOSUCHGAME", &text, &len), STORE_NOT_FOUND);
    cr_assert_null(text);
    /* the game ends: its whole record replaces its lines */
    StoreEnded e = {"GAME000000000001", 1, 3, "B", "2-7", "[Rules \"classic\"]\n\nthe end\n",
                    (int64_t)time(NULL)};
    sv = save_at("{\"v\":3}", 3, "");
    sv.ended = &e;
    sv.n_ended = 1;
    cr_assert_eq(store_save(s, &sv), STORE_OK, "%s", store_error(s));
    cr_assert_eq(store_record(s, "GAME000000000001", &text, &len), STORE_OK);
    cr_assert_str_eq(text, e.record);
    cr_assert_eq(len, strlen(e.record));
    free(text);
    cr_assert_str_eq(games_of(s), "GAME000000000001 BCDFGH 1 B 2-7 3 finished\n");
    cr_assert_str_eq(rooms_of(s), "BCDFGH|{\"v\":3}|GAME000000000001|[Rules \"classic\"]\n\n"
                                  "the end\n\n");
    /* a game that ended before its header was ever saved is kept too, at
     * the time it ended (saves may have failed since) */
    StoreEnded e2 = {"GAME000000000002", 2, 0, "draw", "4-4", "record 2\n", 1000000000};
    StoreSave sv2 = {"BCDFGH", "{\"v\":4}", "GAME000000000003", 3, "[Rules \"club\"]\n", 0, "",
                     &e2, 1};
    cr_assert_eq(store_save(s, &sv2), STORE_OK, "%s", store_error(s));
    cr_assert(strstr(games_of(s), "GAME000000000002 BCDFGH 2 draw 4-4 0 finished\n"));
    cr_assert_eq(sql_int("a.db", "SELECT finished FROM games WHERE id = 'GAME000000000002'"),
                 1000000000);
    /* a dropped room is gone; its games stay */
    cr_assert_eq(store_drop(s, "BCDFGH"), STORE_OK);
    cr_assert_str_eq(rooms_of(s), "");
    cr_assert(strstr(games_of(s), "GAME000000000001"));
    store_close(s);

    /* and all of it is there for the next program to open the file */
    s = open_ok("a.db", &(StoreOptions){0, 1, 0, 0});
    cr_assert(strstr(games_of(s), "GAME000000000001 BCDFGH 1 B 2-7 3 finished\n"));
    store_close(s);
}

Test(store, files_that_are_not_ours_are_refused_by_name)
{
    /* a newer schema */
    Store *s = open_ok("new.db", NULL);
    store_close(s);
    sqlite3 *db;
    cr_assert_eq(sqlite3_open(path_of("new.db"), &db), SQLITE_OK);
    cr_assert_eq(sqlite3_exec(db, "PRAGMA user_version = 7", NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(db);
    cr_assert_str_eq(open_error("new.db", NULL),
                     "the store's schema is version 7, newer than this program's 2");
    /* another program's database */
    cr_assert_eq(sqlite3_open(path_of("other.db"), &db), SQLITE_OK);
    cr_assert_eq(sqlite3_exec(db, "CREATE TABLE t(x)", NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(db);
    cr_assert_str_eq(open_error("other.db", NULL),
                     "not a literature store (another program's database)");
    /* not SQLite at all */
    FILE *f = fopen(path_of("text.db"), "w");
    fputs("[Rules \"classic\"]\nthis is a record, not a database, and it is long enough to "
          "have a header's worth of bytes: more than one hundred of them in all.\n",
          f);
    fclose(f);
    cr_assert_str_eq(open_error("text.db", NULL), "file is not a database");
    /* read-only: no file to read, and an empty file is not ours */
    cr_assert_str_eq(open_error("missing.db", &(StoreOptions){0, 1, 0, 0}),
                     "No such file or directory");
    cr_assert_eq(sqlite3_open(path_of("empty.db"), &db), SQLITE_OK);
    sqlite3_close(db);
    cr_assert_str_eq(open_error("empty.db", &(StoreOptions){0, 1, 0, 0}),
                     "not a literature store (an empty file)");
}

Test(store, an_older_file_is_brought_up_to_date)
{
    /* version 0 is an empty file: every step runs, in one transaction */
    sqlite3 *db;
    cr_assert_eq(sqlite3_open(path_of("old.db"), &db), SQLITE_OK);
    sqlite3_close(db);
    Store *s = open_ok("old.db", NULL);
    store_close(s);
    cr_assert_eq(sqlite3_open(path_of("old.db"), &db), SQLITE_OK);
    sqlite3_stmt *st;
    cr_assert_eq(sqlite3_prepare_v2(db, "SELECT (SELECT user_version FROM pragma_user_version), "
                                        "(SELECT application_id FROM pragma_application_id), "
                                        "(SELECT journal_mode FROM pragma_journal_mode)",
                                    -1, &st, NULL),
                 SQLITE_OK);
    cr_assert_eq(sqlite3_step(st), SQLITE_ROW);
    cr_assert_eq(sqlite3_column_int(st, 0), STORE_SCHEMA);
    cr_assert_eq(sqlite3_column_int(st, 1), STORE_APPLICATION);
    cr_assert_str_eq((const char *)sqlite3_column_text(st, 2), "wal");
    sqlite3_finalize(st);
    sqlite3_close(db);
}

/* Ends game n of room (its record rec) and names game n + 1 as the room's
 * game being played. */
static void end_game(Store *s, const char *room, int n, const char *rec)
{
    char id[32], next[32];
    snprintf(id, sizeof id, "GAME%012d", n);
    snprintf(next, sizeof next, "GAME%012d", n + 1);
    StoreEnded e = {id, n, 1, "A", "5-4", rec, (int64_t)time(NULL)};
    StoreSave sv = {room, "{\"v\":1}", next, n + 1, "[Rules \"classic\"]\n", 0, "", &e, 1};
    cr_assert_eq(store_save(s, &sv), STORE_OK, "%s", store_error(s));
}


/* Retention: past the cap the oldest finished games go, in the save that
 * ends a game; games being played and a room's last game stay; the file
 * stops growing however many games end. */
Test(store, finished_games_past_the_cap_go_and_the_file_stays_bounded)
{
    static char rec[4096];
    memset(rec, 'x', sizeof rec - 2);
    rec[sizeof rec - 2] = '\n';
    Store *s = open_ok("keep.db", &(StoreOptions){0, 0, 3, 0});
    /* a room whose game has ended and which still names it (no next game) */
    StoreEnded quiet = {"GAME000000000001", 1, 1, "A", "5-4", rec, (int64_t)time(NULL)};
    StoreSave sv = {"QUIETR", "{\"v\":1}", "GAME000000000001", 1, NULL, 0, "", &quiet, 1};
    cr_assert_eq(store_save(s, &sv), STORE_OK, "%s", store_error(s));
    for (int n = 100; n < 110; n++)
        end_game(s, "BUSYRM", n, rec);
    cr_assert_str_eq(games_of(s), "GAME000000000110 BUSYRM 110 playing - 0 -\n"
                                  "GAME000000000109 BUSYRM 109 A 5-4 1 finished\n"
                                  "GAME000000000108 BUSYRM 108 A 5-4 1 finished\n"
                                  "GAME000000000107 BUSYRM 107 A 5-4 1 finished\n"
                                  "GAME000000000001 QUIETR 1 A 5-4 1 finished\n");
    for (int n = 110; n < 160; n++)
        end_game(s, "BUSYRM", n, rec);
    store_close(s);
    int64_t pages = sql_int("keep.db", "PRAGMA page_count");
    s = open_ok("keep.db", &(StoreOptions){0, 0, 3, 0});
    for (int n = 160; n < 460; n++)
        end_game(s, "BUSYRM", n, rec);
    store_close(s);
    cr_assert_eq(sql_int("keep.db", "SELECT count(*) FROM games WHERE finished IS NOT NULL"), 4);
    cr_assert_leq(sql_int("keep.db", "PRAGMA page_count"), pages + 2,
                  "300 more games of 4 KB made the file grow");
}

Test(store, finished_games_past_their_days_go)
{
    Store *s = open_ok("days.db", &(StoreOptions){0, 0, 0, 2});
    end_game(s, "BUSYRM", 1, "record 1\n");
    end_game(s, "BUSYRM", 2, "record 2\n");
    sqlite3 *db;
    cr_assert_eq(sqlite3_open(path_of("days.db"), &db), SQLITE_OK);
    cr_assert_eq(sqlite3_exec(db, "UPDATE games SET finished = unixepoch() - 3 * 86400 "
                                  "WHERE id = 'GAME000000000001'",
                              NULL, NULL, NULL),
                 SQLITE_OK);
    sqlite3_close(db);
    cr_assert(strstr(games_of(s), "GAME000000000001"), "kept until a game ends");
    end_game(s, "BUSYRM", 3, "record 3\n");
    cr_assert_str_eq(games_of(s), "GAME000000000004 BUSYRM 4 playing - 0 -\n"
                                  "GAME000000000003 BUSYRM 3 A 5-4 1 finished\n"
                                  "GAME000000000002 BUSYRM 2 A 5-4 1 finished\n");
    store_close(s);
}

/* A full disk: a save past the cap fails whole (nothing of it is kept),
 * what was saved before stays, and the store works again once there is
 * room. */
Test(store, a_full_file_fails_a_save_and_loses_nothing)
{
    Store *s = open_ok("full.db", &(StoreOptions){64 << 10, 0, 0, 0});
    StoreSave sv = save_at("{\"v\":1}", 0, "1. first\n");
    cr_assert_eq(store_save(s, &sv), STORE_OK, "%s", store_error(s));
    /* lines of a kilobyte each until the file is full */
    static char lines[200 * 1024];
    size_t n = 0;
    for (int i = 0; i < 200; i++) {
        memset(lines + n, 'x', 1000);
        n += 1000;
        lines[n++] = '\n';
    }
    lines[n] = 0;
    sv = save_at("{\"v\":2}", 1, lines);
    cr_assert_eq(store_save(s, &sv), STORE_FAILED);
    cr_assert_str_eq(store_error(s), "save: database or disk is full");
    /* the WAL the failed save wrote to is checkpointed and cut to nothing,
     * giving its space back (no reader holds it here) */
    struct stat wal;
    char wal_path[160];
    snprintf(wal_path, sizeof wal_path, "%s-wal", path_of("full.db"));
    cr_assert_eq(stat(wal_path, &wal), 0);
    cr_assert_eq(wal.st_size, 0, "the WAL after a full save: %lld bytes", (long long)wal.st_size);
    cr_assert_str_eq(rooms_of(s), "BCDFGH|{\"v\":1}|GAME000000000001|[Rules \"classic\"]\n"
                                  "1. first\n\n");
    sv = save_at("{\"v\":3}", 1, "2. second\n");
    cr_assert_eq(store_save(s, &sv), STORE_OK, "%s", store_error(s));
    cr_assert(strstr(rooms_of(s), "{\"v\":3}"));
    store_close(s);
}

/* A store opened for reading (lit games, lit backup) reads, and a save or a
 * drop fails by name. */
Test(store, a_store_read_only_reads_and_fails_a_save)
{
    Store *s = open_ok("ro.db", NULL);
    StoreSave sv = save_at("{\"v\":1}", 0, "");
    cr_assert_eq(store_save(s, &sv), STORE_OK, "%s", store_error(s));
    store_close(s);
    s = open_ok("ro.db", &(StoreOptions){0, 1, 0, 0});
    cr_assert(strstr(rooms_of(s), "{\"v\":1}"));
    sv = save_at("{\"v\":2}", 0, "");
    cr_assert_eq(store_save(s, &sv), STORE_FAILED);
    cr_assert_str_eq(store_error(s), "save: attempt to write a readonly database");
    cr_assert_eq(store_drop(s, "BCDFGH"), STORE_FAILED);
    cr_assert_str_eq(store_error(s), "drop: attempt to write a readonly database");
    store_close(s);
}

/* A store to be written is a file, written by one process (one server) at
 * a time; readers (lit games, lit backup) open it beside that one. Where
 * SQLite would open a file only for reading (a mode=ro URI, or a file or
 * folder that may not be written, which root is never refused:
 * cli_restart tests that as another user) it is refused at the open. */
Test(store, a_store_is_written_by_one_server_and_read_by_any)
{
    Store *s = open_ok("one.db", NULL);
    StoreSave sv = save_at("{\"v\":1}", 0, "");
    cr_assert_eq(store_save(s, &sv), STORE_OK, "%s", store_error(s));
    /* this process is refused by its own list, before it opens a
     * descriptor of the file (closing one would drop the SQLite locks the
     * store above holds: it saves on below); another process (a second
     * server) by the flock, which cli_restart tries */
    cr_assert_str_eq(open_error("one.db", NULL), "in use by this process's store already");
    sv = save_at("{\"v\":2}", 0, "");
    cr_assert_eq(store_save(s, &sv), STORE_OK, "%s", store_error(s));
    Store *r = open_ok("one.db", &(StoreOptions){0, 1, 0, 0});
    cr_assert(strstr(rooms_of(r), "{\"v\":2}"));
    store_close(r);
    store_close(s);
    s = open_ok("one.db", NULL); /* free again once closed */
    store_close(s);
    char uri[160], error[STORE_ERROR_MAX];
    snprintf(uri, sizeof uri, "file:%s?mode=ro", path_of("one.db"));
    cr_assert_null(store_sqlite_open(uri, NULL, error));
    cr_assert_str_eq(error, "a URI, which may keep the store in memory or read-only: give the "
                            "file's path");
    for (int i = 0; i < 2; i++) {
        const char *name = i ? ":memory:" : "";
        cr_assert_null(store_sqlite_open(name, NULL, error));
        cr_assert_str_eq(error, "SQLite writes no file of that name: give a path, say ./lit.db");
    }
    /* reading, "" and ":memory:" are no file either */
    for (int i = 0; i < 2; i++) {
        cr_assert_null(store_sqlite_open(i ? ":memory:" : "", &(StoreOptions){0, 1, 0, 0}, error));
        cr_assert_str_eq(error, "SQLite reads no file of that name: give the store's path");
    }
    /* reading, a URI may name the file */
    r = store_sqlite_open(uri, &(StoreOptions){0, 1, 0, 0}, error);
    cr_assert(r, "%s", error);
    store_close(r);
}

Test(store, a_backup_is_a_whole_copy_made_while_the_store_is_open)
{
    Store *s = open_ok("live.db", NULL);
    StoreSave sv = save_at("{\"v\":1}", 0, "1. one\n");
    cr_assert_eq(store_save(s, &sv), STORE_OK, "%s", store_error(s));
    cr_assert_eq(store_backup(s, path_of("copy.db")), STORE_OK, "%s", store_error(s));
    /* the store goes on; the copy is of the moment it was made */
    sv = save_at("{\"v\":2}", 1, "2. two\n");
    cr_assert_eq(store_save(s, &sv), STORE_OK, "%s", store_error(s));
    Store *c = open_ok("copy.db", &(StoreOptions){0, 1, 0, 0});
    cr_assert_str_eq(rooms_of(c), "BCDFGH|{\"v\":1}|GAME000000000001|[Rules \"classic\"]\n"
                                  "1. one\n\n");
    store_close(c);
    cr_assert_eq(store_backup(s, "/nonexistent/dir/copy.db"), STORE_FAILED);
    cr_assert_str_eq(store_error(s),
                     "backup to /nonexistent/dir/copy.db: No such file or directory");
    /* a path that exists is not written over, and nothing is left beside it */
    cr_assert_eq(store_backup(s, path_of("copy.db")), STORE_FAILED);
    char want[2 * STORE_ERROR_MAX];
    snprintf(want, sizeof want, "%s: exists: the backup goes to a new file", path_of("copy.db"));
    cr_assert_str_eq(store_error(s), want);
    c = open_ok("copy.db", &(StoreOptions){0, 1, 0, 0});
    cr_assert(strstr(rooms_of(c), "{\"v\":1}"), "the copy was written over");
    store_close(c);
    char folder[160];
    snprintf(folder, sizeof folder, "%s/", path_of("new"));
    cr_assert_eq(store_backup(s, folder), STORE_FAILED);
    snprintf(want, sizeof want, "backup to %s: a file's name, not a folder's", folder);
    cr_assert_str_eq(store_error(s), want);
    store_close(s);
    DIR *d = opendir(path_of(""));
    cr_assert(d);
    for (struct dirent *e; (e = readdir(d));)
        cr_expect(strncmp(e->d_name, "copy.db.", 8) != 0, "a backup's copy left: %s", e->d_name);
    closedir(d);
}
