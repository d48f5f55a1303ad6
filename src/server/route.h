/* route.h - what `lit serve` answers to an HTTP request (docs/PROTOCOL.md
 * "Transport"), apart from libwebsockets.
 *
 * net.c hands every HTTP request's path here and writes the answer it gets
 * back: the status, the content type, the headers that vary, the body. So
 * the answers are tested in process (tests/unit/test_hub.c: two hubs that a
 * seat cannot tell apart give byte-identical answers), and net.c only puts
 * them on the wire. The answer depends on the path alone, never on the
 * method, the request's other headers or who asks: every client is sent the
 * same answer to the same path at the same moment.
 */
#ifndef LIT_SERVER_ROUTE_H
#define LIT_SERVER_ROUTE_H

#include <stddef.h>

#include "hub.h"

struct Store;

/* What an answer depends on besides the path. */
typedef struct RouteConfig {
    const Hub *hub;          /* the counts of /healthz */
    struct Store *store;     /* the records of /games/ID.lit (NULL: none, 404) */
    const char *web_dir;     /* the page's files from there (NULL: built in) */
} RouteConfig;

enum {
    ROUTE_OK = 200,
    ROUTE_NOT_FOUND = 404,
    ROUTE_CONFLICT = 409,
    ROUTE_UNAVAILABLE = 503,
    ROUTE_FILE_MAX = 4 << 20  /* bytes read of a file of --web DIR */
};

/* One answer. Filled in place by route_http, and not to be copied (body
 * may point into text); route_answer_free lets go of it. */
typedef struct RouteAnswer {
    int status;                  /* ROUTE_OK ... */
    const char *type;            /* the content-type (static) */
    const char *cache;           /* the cache-control (static): records never
                                  * kept, the page's files asked again */
    char download[HUB_GAME_ID_LEN + 8]; /* the file name the browser saves the
                                  * body as (content-disposition), "" none */
    const char *body;            /* len bytes */
    size_t len;
    char *owned;                 /* the body when malloc'd here, else NULL */
    char text[128];              /* a short body made here */
    char log[320];               /* a line for the server's log, "" none */
} RouteAnswer;

/* The headers every answer carries besides those of RouteAnswer: the page
 * may run only its own scripts and styles (no inline ones), talk only to
 * this server, and be framed by nobody. name ends with ':' (as lws takes
 * it); the table ends with a NULL name. */
typedef struct RouteHeader {
    const char *name, *value;
} RouteHeader;

extern const RouteHeader route_headers[];

/* The answer to a request for path ("/healthz", "/games/ID.lit", "/",
 * "/app.js"...; a path with no file is 404). 0, or -1 out of memory (a
 * is then empty: nothing to free). */
int route_http(const RouteConfig *config, const char *path, RouteAnswer *a);

/* Lets go of what route_http allocated for the answer. */
void route_answer_free(RouteAnswer *a);

#endif
