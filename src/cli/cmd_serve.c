/* cmd_serve.c - `lit serve`: online tables (docs/PROTOCOL.md). */
#include <arpa/inet.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "../server/hub.h"
#include "../server/net.h"
#include "cmds.h"
#include "common.h"

static const char usage[] =
    "usage: lit serve [--port N] [--bind ADDR] [--origin LIST] [--max-rooms N]\n"
    "\n"
    "Serves online tables: HTTP and WebSocket (docs/PROTOCOL.md). Prints\n"
    "\"serving on http://ADDR:PORT/\" once listening; stops cleanly on SIGINT or\n"
    "SIGTERM, telling every client to reconnect.\n"
    "\n"
    "  --port N        the TCP port, 0 to 65535 (default 8080; 0: any free port)\n"
    "  --bind ADDR     the IPv4 address to listen on (default 127.0.0.1: this\n"
    "                  machine only; put a TLS proxy in front, docs/PROTOCOL.md)\n"
    "  --origin LIST   more Origins allowed to open a WebSocket, comma-separated\n"
    "                  (\"https://example.org\"); the server's own host always is\n"
    "  --max-rooms N   rooms at most, 1 to 100000 (default 1000)\n"
    "  --verbose       libwebsockets' own notices too\n"
    "  --help          this text\n";

int cmd_serve(int argc, char **argv)
{
    static const struct option longs[] = {{"port", required_argument, NULL, 'p'},
                                          {"bind", required_argument, NULL, 'b'},
                                          {"origin", required_argument, NULL, 'o'},
                                          {"max-rooms", required_argument, NULL, 'r'},
                                          {"verbose", no_argument, NULL, 'v'},
                                          {"help", no_argument, NULL, OPT_HELP},
                                          {NULL, 0, NULL, 0}};
    NetConfig config = {"127.0.0.1", 8080, NULL, 0, 0};
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
            if (inet_pton(AF_INET, optarg, &addr) != 1) {
                say("--bind: not an IPv4 address: '%s'", optarg);
                return 2;
            }
            config.bind = optarg;
            break;
        case 'o':
            config.origins = optarg;
            break;
        case 'r':
            if (parse_u64(optarg, &v) || v < 1 || v > 100000) {
                say("--max-rooms: not a number from 1 to 100000: '%s'", optarg);
                return 2;
            }
            config.max_rooms = (int)v;
            break;
        case 'v':
            config.verbose = 1;
            break;
        case OPT_HELP:
            fputs(usage, stdout);
            return 0;
        default:
            fputs(usage, stderr);
            return 2;
        }
    }
    if (no_operands("serve", argc, argv))
        return 2;
    return net_serve(&config);
}
