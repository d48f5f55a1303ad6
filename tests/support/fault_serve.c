/* fault_serve.c - `lit-fault-serve`: `lit serve` with one allocation failed,
 * for tests/integration/cli_netfault.sh (built with the tests only; nothing
 * in `lit` switches fault injection on).
 *
 *     lit-fault-serve N [lit serve's options]
 *
 * Runs the very server of `lit serve` (serve_with, src/cli/cmd_serve.c:
 * the same options, store, hub and net_serve) and, once it listens, counts
 * every allocation of its layers and libraries (src/mem/mem.h: the hub,
 * jansson, SQLite, libwebsockets) and fails the Nth (0: none, count only).
 * When the server has stopped (SIGTERM) it prints on standard error
 *
 *     fault-serve: ALLOCATIONS allocations, fault N hit
 *
 * ("not reached" when the run made fewer than N; "none" for 0; after "hit",
 * libwebsockets' name for the allocation when it was one of lws's), and
 * exits with the server's status.
 *
 * Every seed the hub draws (8 bytes: the deals' and the bots') is the same
 * number, so a game depends only on what its clients do, and a run with a
 * fault can be compared with one without; room codes, tokens and game ids
 * come from the OS as in `lit serve`.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/types.h>

#include <libwebsockets.h>

#include "../../src/cli/cmds.h"
#include "../../src/mem/mem.h"
#include "../../src/server/net.h"

enum { SEED = 7 };

static unsigned long nth;
static const char *lws_reason; /* lws's name of the allocation failed, if its */

/* libwebsockets' allocations through mem.h as net_serve has them, and the
 * name lws gives the one that fails (for the report). */
static void *lws_alloc(void *p, size_t size, const char *reason)
{
    unsigned long before = mem_failures();
    void *q = mem_lws(p, size, reason);
    if (mem_failures() != before)
        lws_reason = reason;
    return q;
}

static void listening(void *ctx)
{
    (void)ctx;
    lws_set_allocator(lws_alloc);
    mem_fault_start(nth);
}

static int random_source(void *buf, size_t len, void *ctx)
{
    (void)ctx;
    if (len == sizeof(uint64_t)) { /* a seed */
        uint64_t seed = SEED;
        memcpy(buf, &seed, sizeof seed);
        return 0;
    }
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

int main(int argc, char **argv)
{
    char *end;
    if (argc < 2 || !argv[1][0] || (nth = strtoul(argv[1], &end, 10), *end)) {
        fputs("usage: lit-fault-serve N [lit serve's options]\n", stderr);
        return 2;
    }
    /* one loop: fault injection counts one thread's allocations (mem.h);
     * a save failed by the fault is tried again after 50 ms, not a second
     * (a client fetching the record waits for it) */
    NetConfig base = {.listening = listening, .random = random_source, .loops = 1,
                      .retry_ms = 50};
    /* serve_with reads argv as `lit serve` does: argv[0] is the command */
    argv[1] = argv[0];
    int rc = serve_with(argc - 1, argv + 1, &base);
    int hit = mem_fault_hit();
    unsigned long made = mem_fault_stop();
    if (!nth)
        fprintf(stderr, "fault-serve: %lu allocations, fault none\n", made);
    else
        fprintf(stderr, "fault-serve: %lu allocations, fault %lu %s%s%s%s\n", made, nth,
                hit ? "hit" : "not reached", lws_reason ? " (libwebsockets: " : "",
                lws_reason ? lws_reason : "", lws_reason ? ")" : "");
    return rc;
}
