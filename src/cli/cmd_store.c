/* cmd_store.c - `lit games` and `lit backup`: the store of `lit serve --db`
 * from the command line (src/store). */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "../store/store.h"
#include "cmds.h"
#include "common.h"

static const char games_usage[] =
    "usage: lit games --db FILE [--record ID]\n"
    "\n"
    "Lists the games of a `lit serve` store, newest first: id, room, game\n"
    "number in the room, start and end (UTC), result, score and actions. A game\n"
    "being played shows \"playing\". Reads only; safe while the server runs.\n"
    "\n"
    "  --db FILE     the store (`lit serve --db FILE`)\n"
    "  --record ID   print that finished game's record instead (docs/NOTATION.md)\n"
    "  --help        this text\n";

static const char backup_usage[] =
    "usage: lit backup --db FILE --to NEW\n"
    "\n"
    "Copies a `lit serve` store to a new file with SQLite's online backup: the\n"
    "copy is of one moment, and the server may go on running and writing.\n"
    "NEW must not exist. Serve from the copy with `lit serve --db NEW`.\n"
    "\n"
    "  --db FILE     the store\n"
    "  --to NEW      the copy\n"
    "  --help        this text\n";

static void utc(int64_t t, char out[32])
{
    time_t tt = (time_t)t;
    struct tm tm;
    if (!t || !gmtime_r(&tt, &tm) || !strftime(out, 32, "%Y-%m-%d %H:%M", &tm))
        snprintf(out, 32, "%s", "-");
}

static int print_game(void *ctx, const StoreGame *g)
{
    char started[32], finished[32];
    int *n = ctx;
    if (!(*n)++)
        printf("%-16s  %-6s  %4s  %-16s  %-16s  %-7s  %-5s  %s\n", "id", "room", "game",
               "started", "finished", "result", "score", "actions");
    utc(g->started, started);
    utc(g->finished, finished);
    printf("%-16s  %-6s  %4d  %-16s  %-16s  %-7s  %-5s  %d\n", g->id, g->room, g->number,
           started, finished, g->result ? g->result : "playing", g->score ? g->score : "-",
           g->actions);
    return 0;
}

/* The store at path, opened for reading: NULL after a message. */
static Store *open_read(const char *path)
{
    char error[STORE_ERROR_MAX];
    StoreOptions o = {0, 1, 0, 0};
    Store *s = store_sqlite_open(path, &o, error);
    if (!s)
        say("%s: %s", path, error);
    return s;
}

int cmd_games(int argc, char **argv)
{
    static const struct option longs[] = {{"db", required_argument, NULL, 'd'},
                                          {"record", required_argument, NULL, 'r'},
                                          {"help", no_argument, NULL, OPT_HELP},
                                          {NULL, 0, NULL, 0}};
    const char *db = NULL, *record = NULL;
    int opt;
    while ((opt = getopt_long(argc, argv, "", longs, NULL)) != -1) {
        if (opt == 'd')
            db = optarg;
        else if (opt == 'r')
            record = optarg;
        else
            return help_or_usage(games_usage, opt);
    }
    if (no_operands("games", argc, argv))
        return 2;
    if (!db) {
        say("games: give --db FILE");
        return 2;
    }
    Store *s = open_read(db);
    if (!s)
        return 1;
    int rc = 0, n = 0;
    if (record) {
        char *text = NULL;
        size_t len = 0;
        int st = store_record(s, record, &text, &len);
        if (st == STORE_OK)
            fwrite(text, 1, len, stdout);
        else if (st == STORE_NOT_FOUND)
            say("%s: no game %s", db, record);
        else if (st == STORE_UNFINISHED)
            say("%s: game %s is still being played: its record is given once it has ended",
                db, record);
        else
            say("%s: %s", db, store_error(s));
        rc = st == STORE_OK ? 0 : 1;
        free(text);
    } else if (store_games(s, print_game, &n) != STORE_OK) {
        say("%s: %s", db, store_error(s));
        rc = 1;
    } else if (!n) {
        printf("no games\n");
    }
    store_close(s);
    return rc;
}

int cmd_backup(int argc, char **argv)
{
    static const struct option longs[] = {{"db", required_argument, NULL, 'd'},
                                          {"to", required_argument, NULL, 't'},
                                          {"help", no_argument, NULL, OPT_HELP},
                                          {NULL, 0, NULL, 0}};
    const char *db = NULL, *to = NULL;
    int opt;
    while ((opt = getopt_long(argc, argv, "", longs, NULL)) != -1) {
        if (opt == 'd')
            db = optarg;
        else if (opt == 't')
            to = optarg;
        else
            return help_or_usage(backup_usage, opt);
    }
    if (no_operands("backup", argc, argv))
        return 2;
    if (!db || !to) {
        say("backup: give --db FILE and --to NEW");
        return 2;
    }
    struct stat sb; /* (a link to nothing exists too; the store checks again) */
    if (lstat(to, &sb) == 0) {
        say("%s: exists: the backup goes to a new file", to);
        return 1;
    }
    Store *s = open_read(db);
    if (!s)
        return 1;
    umask(077); /* a copy of the tokens, as private as the store */
    int st = store_backup(s, to);
    if (st != STORE_OK)
        say("%s", store_error(s));
    else
        printf("%s: backed up to %s\n", db, to);
    store_close(s);
    return st == STORE_OK ? 0 : 1;
}
