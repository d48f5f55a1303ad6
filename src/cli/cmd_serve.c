/* cmd_serve.c - `lit serve`: online tables (docs/PROTOCOL.md). */
#include <arpa/inet.h>
#include <getopt.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <string.h>

#include "../server/hub.h"
#include "../server/net.h"
#include "../server/pool.h"
#include "../server/route.h"
#include "../store/store.h"
#include "cmds.h"
#include "common.h"

/* Finished games a store keeps by default (about 5 KB a record: 500 MB). */
enum { KEEP_GAMES = 100000 };

static const char usage[] =
    "usage: lit serve [--db FILE] [--port N] [--bind ADDR] [--origin LIST]\n"
    "                 [--host-name NAME]... [--max-rooms N] [--db-max-mb N]\n"
    "                 [--keep-games N] [--keep-days N]\n"
    "                 [--proxy ADDR]\n"
    "                 [--max-per-address N] [--max-rooms-per-address N] [--max-rate N]\n"
    "                 [--workers N] [--loops N] [--web DIR]\n"
    "\n"
    "Serves online tables: HTTP and WebSocket (docs/PROTOCOL.md). Prints\n"
    "\"serving on http://ADDR:PORT/\" once listening; stops cleanly on SIGINT or\n"
    "SIGTERM, telling every client to reconnect.\n"
    "\n"
    "  --db FILE       keep rooms and games in this SQLite file (created if\n"
    "                  missing): a restart takes them up again, and finished\n"
    "                  games are downloaded from /games/ID.lit (default: in\n"
    "                  memory only, lost when the server stops)\n"
    "  --db-max-mb N   the file's size cap in MiB, 1 to 1000000 (default: none);\n"
    "                  beyond it games go on unsaved (docs/PROTOCOL.md)\n"
    "  --keep-games N  finished games kept in the file, newest first, 0 to\n"
    "                  100000000 (default 100000; 0: all); older ones are\n"
    "                  deleted as games end (a room's last game is kept)\n"
    "  --keep-days N   days a finished game is kept, 0 to 36500 (default 0:\n"
    "                  no limit)\n"
    "  --port N        the TCP port, 0 to 65535 (default 8080; 0: any free port)\n"
    "  --bind ADDR     the IPv4 address to listen on (default 127.0.0.1: this\n"
    "                  machine only; put a TLS proxy in front, docs/PROTOCOL.md)\n"
    "  --origin LIST   more Origins allowed to open a WebSocket, comma-separated\n"
    "                  (\"https://example.org\"); the server's own host always is\n"
    "  --host-name NAME  a name requests may give as their Host (the name the\n"
    "                  browser's address bar shows: \"fish.example.org\"; no\n"
    "                  port), besides 127.0.0.1, localhost, [::1] and --bind's;\n"
    "                  any other Host is refused 403 (DNS rebinding). Repeat\n"
    "                  it for more names, 16 at most\n"
    "  --max-rooms N   rooms at most, 1 to 100000 (default 1000)\n"
    "  --proxy ADDR    the IPv4 address of a reverse proxy trusted to say who\n"
    "                  connects (its X-Forwarded-For; from anyone else the\n"
    "                  header is ignored)\n"
    "  --max-per-address N  connections from one address, 1 to 100000\n"
    "                  (default 32)\n"
    "  --max-rooms-per-address N  rooms made from one address open at once,\n"
    "                  1 to 100000 (default 8)\n"
    "  --max-rate N    messages a second from one connection, 1 to 100000\n"
    "                  (default 20, after a burst of 40)\n"
    "  --workers N     threads deciding expert bots' moves, 1 to 64 (default:\n"
    "                  one a core), shared out among the loops\n"
    "  --loops N       event loops, a thread each, 1 to 64 (default: one a\n"
    "                  core): each room lives on one\n"
    "  --web DIR       serve the browser table's files from DIR, read on each\n"
    "                  request (for working on web/; default: the files built\n"
    "                  into this binary)\n"
    "  --verbose       libwebsockets' own notices too\n"
    "  --help          this text\n";

/* A count option's value, 1 to max, into *out: 0, or -1 (said why). */
static int count_option(const char *name, const char *arg, uint64_t max, int *out)
{
    uint64_t v;
    if (parse_u64(arg, &v) || v < 1 || v > max) {
        say("--%s: not a number from 1 to %llu: '%s'", name, (unsigned long long)max, arg);
        return -1;
    }
    *out = (int)v;
    return 0;
}

/* --db-max-mb (opt 'm'), --keep-games ('k') or --keep-days ('K') into o:
 * 0, or 1 (said why). */
static int store_option(int opt, const char *arg, StoreOptions *o)
{
    uint64_t v;
    if (opt == 'm') {
        if (parse_u64(arg, &v) || v < 1 || v > 1000000) {
            say("--db-max-mb: not a number from 1 to 1000000: '%s'", arg);
            return 1;
        }
        o->max_bytes = (int64_t)v << 20;
        return 0;
    }
    if (parse_u64(arg, &v) || v > (opt == 'k' ? 100000000u : 36500u)) {
        say("--%s: not a number from 0 to %s: '%s'", opt == 'k' ? "keep-games" : "keep-days",
            opt == 'k' ? "100000000" : "36500", arg);
        return 1;
    }
    *(opt == 'k' ? &o->keep_games : &o->keep_days) = (int64_t)v;
    return 0;
}

/* --host-name NAME: one more of names (count of them), or 1 (said why). */
static int add_host_name(const char **names, int *count, const char *name)
{
    if (!route_host_name_valid(name)) {
        say("--host-name: not a host name (letters, digits, '-' and '.', or an IP address; no "
            "port): '%s'",
            name);
        return 1;
    }
    if (*count == ROUTE_HOST_NAMES_MAX) {
        say("--host-name: at most %d names", ROUTE_HOST_NAMES_MAX);
        return 1;
    }
    names[(*count)++] = name;
    return 0;
}

/* The options of `lit serve`. */
static const struct option longs[] = {
    {"port", required_argument, NULL, 'p'},
    {"bind", required_argument, NULL, 'b'},
    {"origin", required_argument, NULL, 'o'},
    {"host-name", required_argument, NULL, 'H'},
    {"max-rooms", required_argument, NULL, 'r'},
    {"verbose", no_argument, NULL, 'v'},
    {"db", required_argument, NULL, 'd'},
    {"db-max-mb", required_argument, NULL, 'm'},
    {"keep-games", required_argument, NULL, 'k'},
    {"keep-days", required_argument, NULL, 'K'},
    {"proxy", required_argument, NULL, 'x'},
    {"max-per-address", required_argument, NULL, 'a'},
    {"max-rooms-per-address", required_argument, NULL, 'R'},
    {"max-rate", required_argument, NULL, 't'},
    {"web", required_argument, NULL, 'w'},
    {"workers", required_argument, NULL, 'W'},
    {"loops", required_argument, NULL, 'L'},
    {"help", no_argument, NULL, OPT_HELP},
    {NULL, 0, NULL, 0},
};

int serve_with(int argc, char **argv, const NetConfig *base)
{
    NetConfig config = *base;
    const char *host_names[ROUTE_HOST_NAMES_MAX];
    config.host_names = host_names;
    config.host_name_count = 0;
    config.bind = "127.0.0.1";
    config.port = 8080;
    const char *db = NULL;
    StoreOptions so = {0, 0, KEEP_GAMES, 0};
    const char *keep = NULL; /* a retention option given */
    uint64_t v;
    int opt;
    struct in_addr addr;
    while ((opt = getopt_long(argc, argv, "", longs, NULL)) != -1) {
        switch (opt) {
        case 'p':
            if (parse_u64(optarg, &v) || v > 65535) {
                say("--port: not a port (0 to 65535): '%s'", optarg);
                return 2;
            }
            config.port = (int)v;
            break;
        case 'b':
        case 'x':
            if (inet_pton(AF_INET, optarg, &addr) != 1) {
                say("--%s: not an IPv4 address: '%s'", opt == 'b' ? "bind" : "proxy", optarg);
                return 2;
            }
            *(opt == 'b' ? &config.bind : &config.proxy) = optarg;
            break;
        case 'o':
            config.origins = optarg;
            break;
        case 'H':
            if (add_host_name(host_names, &config.host_name_count, optarg))
                return 2;
            break;
        case 'r':
            if (count_option("max-rooms", optarg, 100000, &config.max_rooms))
                return 2;
            break;
        case 'a':
            if (count_option("max-per-address", optarg, 100000, &config.max_per_address))
                return 2;
            break;
        case 'R':
            if (count_option("max-rooms-per-address", optarg, 100000,
                             &config.max_rooms_per_address))
                return 2;
            break;
        case 't':
            if (count_option("max-rate", optarg, 100000, &config.max_rate))
                return 2;
            break;
        case 'L':
            if (count_option("loops", optarg, 64, &config.loops))
                return 2;
            break;
        case 'W':
            if (count_option("workers", optarg, POOL_EXPERTS_MAX, &config.workers))
                return 2;
            break;
        case 'v':
            config.verbose = 1;
            break;
        case 'd':
            db = optarg;
            break;
        case 'w': {
            struct stat st;
            if (stat(optarg, &st) != 0 || !S_ISDIR(st.st_mode)) {
                say("--web: not a folder: '%s'", optarg);
                return 2;
            }
            config.web_dir = optarg;
            break;
        }
        case 'm':
        case 'k':
        case 'K':
            if (store_option(opt, optarg, &so))
                return 2;
            keep = opt == 'm' ? keep : opt == 'k' ? "keep-games" : "keep-days";
            break;
        default: /* --help, or an option not known */
            return help_or_usage(usage, opt);
        }
    }
    if (no_operands("serve", argc, argv))
        return 2;
    if ((so.max_bytes || keep) && !db) {
        say("--%s: give --db FILE too", so.max_bytes ? "db-max-mb" : keep);
        return 2;
    }
    char error[STORE_ERROR_MAX];
    /* the store holds every seat's token: its files are the server's alone */
    umask(077);
    if (db && !(config.store = store_sqlite_open(db, &so, error))) {
        say("%s: %s", db, error);
        return 1;
    }
    if (!db)
        say("games are kept in memory only (--db FILE keeps them across restarts)");
    int rc = net_serve(&config);
    store_close(config.store);
    return rc;
}

int cmd_serve(int argc, char **argv)
{
    const NetConfig none = {0};
    return serve_with(argc, argv, &none);
}
