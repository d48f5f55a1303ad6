/* net.h - `lit serve`'s network: HTTP and WebSocket on libwebsockets 4.1.6
 * (docs/PROTOCOL.md), feeding the hub (hub.h). */
#ifndef LIT_SERVER_NET_H
#define LIT_SERVER_NET_H

#include <stddef.h>

typedef struct NetConfig {
    const char *bind;      /* address to listen on ("127.0.0.1") */
    int port;              /* 0: any free port */
    const char *origins;   /* extra allowed Origins, comma-separated (may be NULL) */
    /* names a request's Host may give besides the loopback's and bind's
     * (--host-name; route.h, route_host_ok): count of them at names */
    const char *const *host_names;
    int host_name_count;
    int max_rooms;         /* 0: the hub's default */
    int max_rate;          /* messages a second per connection (0: the hub's default) */
    int max_per_address;   /* connections from one address (0: the hub's default) */
    int max_rooms_per_address; /* rooms open made from one address (0: default) */
    const char *proxy;     /* a reverse proxy trusted for X-Forwarded-For (may be NULL) */
    const char *web_dir;   /* the browser table's files from there (NULL: built in) */
    int workers;           /* expert workers in all (0: pool_default_experts, a core
                            * each), shared out among the loops, one a loop at least */
    int loops;             /* event loops, a thread each (0: one a core) */
    int verbose;           /* 1: libwebsockets' notices too */
    struct Store *store;   /* rooms and games are kept there (NULL: in memory) */
    /* Hooks for tests (NULL and 0 in `lit serve`). listening is called once
     * the server listens, before it serves anything; random is the hub's
     * source of random bytes (HubConfig.random: NULL, the OS's). Both get
     * ctx. retry_ms is HubConfig.retry_ms. */
    void (*listening)(void *ctx);
    int (*random)(void *buf, size_t len, void *ctx);
    void *ctx;
    int retry_ms;
} NetConfig;

/* Takes up the store's rooms, then serves until SIGINT or SIGTERM, printing
 * "serving on http://ADDR:PORT/" on standard output once listening. Returns
 * 0 after a clean stop, 1 when the server could not start (the reason on
 * standard error). */
int net_serve(const NetConfig *config);

#endif
