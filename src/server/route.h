/* route.h - what `lit serve` answers to an HTTP request (docs/PROTOCOL.md
 * "Transport"), apart from libwebsockets.
 *
 * net.c hands every HTTP request's method, Host and path here and writes
 * the answer it gets back: the status, the content type, the headers that
 * vary, the body. So the answers are tested in process (tests/unit/test_hub.c:
 * two hubs that a seat cannot tell apart give byte-identical answers), and
 * net.c only puts them on the wire. The answer depends on those three alone
 * (a GET's on the path alone), never on the request's other headers or who
 * asks: every client is sent the same answer to the same request at the
 * same moment.
 */
#ifndef LIT_SERVER_ROUTE_H
#define LIT_SERVER_ROUTE_H

#include <stddef.h>

#include "hub.h"

struct Store;

/* What an answer depends on besides the request. */
typedef struct RouteConfig {
    Hub *hub;                /* the counts of /healthz (the server's) */
    struct Store *store;     /* the records of /games/ID.lit (NULL: none, 404) */
    const char *web_dir;     /* the page's files from there (NULL: built in) */
    /* The names a request's Host may give besides the loopback's (route_host_ok):
     * the address listened on (NULL or "0.0.0.0": none), and --host-name's. */
    const char *bind;
    const char *const *host_names;
    int host_name_count;
} RouteConfig;

enum {
    ROUTE_OK = 200,
    ROUTE_FORBIDDEN = 403,
    ROUTE_NOT_FOUND = 404,
    ROUTE_NOT_ALLOWED = 405,
    ROUTE_CONFLICT = 409,
    ROUTE_UNAVAILABLE = 503,
    ROUTE_FILE_MAX = 4 << 20, /* bytes read of a file of --web DIR */
    ROUTE_HOST_NAMES_MAX = 16 /* --host-name's at most */
};

/* A request's method, as far as an answer goes: GET and HEAD are answered
 * (HEAD with GET's status and headers, no body), any other is 405. */
typedef enum RouteMethod { ROUTE_GET, ROUTE_HEAD, ROUTE_OTHER } RouteMethod;

/* The methods every path takes (a 405's allow header), and a 405's body. */
#define ROUTE_ALLOW "GET, HEAD"
#define ROUTE_NOT_ALLOWED_TEXT "method_not_allowed: GET and HEAD only\n"
/* The body of a 400 to a GET or HEAD that sends a body (http.c). */
#define ROUTE_NO_BODY_TEXT "bad_request: a request here sends no body\n"

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
    int head;                    /* 1: HEAD: the headers as for GET (the
                                  * content-length len), the body not sent */
    const char *allow;           /* the allow header (static), NULL none */
    int close;                   /* 1: the connection is closed once this is
                                  * sent (the request's body is not read) */
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

/* The client's word (a Host, an Origin) for a line of the log: only its
 * printable ASCII, the rest as '?', at most size - 1 bytes. */
void route_shown(const char *word, char *out, size_t size);

/* The answer to a GET of path ("/healthz", "/games/ID.lit", "/",
 * "/app.js"...; a path with no file is 404). 0, or -1 out of memory (a
 * is then empty: nothing to free). */
int route_http(const RouteConfig *config, const char *path, RouteAnswer *a);

/* The answer to a request: 403 "unknown_host" when host (its Host header;
 * NULL or "" when it sent none) is not route_host_ok's, else 405 with
 * allow ROUTE_ALLOW for a method but GET and HEAD (closing: its body is
 * not read), else route_http's (HEAD: with head set). 0, or -1 out of
 * memory, as route_http. */
int route_request(const RouteConfig *config, RouteMethod method, const char *host,
                  const char *path, RouteAnswer *a);

/* Whether host, a request's Host header (NAME or NAME:PORT, any port), names
 * this server: NAME is 127.0.0.1, localhost or [::1], config's bind, or one
 * of its host_names (letters' case aside). A request naming another name
 * comes from a page of another site whose name was made to point here (DNS
 * rebinding): it is refused. No Host at all (NULL or ""; no browser sends
 * none) is taken. */
int route_host_ok(const RouteConfig *config, const char *host);

/* Whether name may be a --host-name: a DNS name (1 to 253 bytes of letters,
 * digits, '-' and '.', neither '.' nor '-' first, not ending in '.'), an IPv4
 * address, or an IPv6 address in brackets ("[::1]"). No port. */
int route_host_name_valid(const char *name);

/* Lets go of what route_http allocated for the answer. */
void route_answer_free(RouteAnswer *a);

#endif
