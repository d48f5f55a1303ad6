/* route.c - the answers to HTTP requests (route.h). */
#include "route.h"

#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <strings.h>

#include "../mem/mem.h"
#include "../store/store.h"
#include "web.h"

const RouteHeader route_headers[] = {
    {"content-security-policy:",
     "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
     "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"},
    {"x-content-type-options:", "nosniff"},
    {"referrer-policy:", "no-referrer"},
    {NULL, NULL},
};

/* An answer whose body is len bytes at body (static, or owned when the
 * caller has set a->owned to it). */
static int answer(RouteAnswer *a, int status, const char *type, const char *body, size_t len)
{
    a->status = status;
    a->type = type;
    a->body = body;
    a->len = len;
    return 0;
}

static int text(RouteAnswer *a, int status, const char *body)
{
    return answer(a, status, "text/plain", body, strlen(body));
}

/* GET /games/ID.lit: the record of a finished game. An unfinished game's is
 * refused: its header holds the deal. The id is 16 characters of the room
 * codes' alphabet (28^16 ids: not to be guessed). */
static int record(const RouteConfig *config, const char *path, RouteAnswer *a)
{
    char id[HUB_GAME_ID_LEN + 1];
    size_t len = strlen(path);
    if (!config->store || len != 7 + HUB_GAME_ID_LEN + 4 || strcmp(path + len - 4, ".lit") != 0 ||
        strspn(path + 7, "BCDFGHJKLMNPQRSTVWXZ23456789") != HUB_GAME_ID_LEN)
        return text(a, ROUTE_NOT_FOUND, "not found\n");
    memcpy(id, path + 7, HUB_GAME_ID_LEN);
    id[HUB_GAME_ID_LEN] = 0;
    char *body = NULL;
    size_t body_len = 0;
    int st = store_record(config->store, id, &body, &body_len);
    if (st == STORE_NOT_FOUND)
        return text(a, ROUTE_NOT_FOUND, "not found\n");
    if (st == STORE_UNFINISHED)
        return text(a, ROUTE_CONFLICT, "unfinished: a game's record is given once it has ended\n");
    if (st != STORE_OK) {
        /* no id: whoever holds a finished game's id may download its hands */
        snprintf(a->log, sizeof a->log, "a record: %s", store_error(config->store));
        return text(a, ROUTE_UNAVAILABLE, "store_error: try again\n");
    }
    a->owned = body;
    a->cache = "no-store";
    snprintf(a->download, sizeof a->download, "%s.lit", id);
    return answer(a, ROUTE_OK, "text/plain; charset=utf-8", body, body_len);
}

/* GET / and GET /NAME: the browser table's files, built in or from --web. */
static int web(const RouteConfig *config, const char *path, RouteAnswer *a)
{
    const char *name = strcmp(path, "/") == 0 ? "index.html" : path + 1;
    if (!web_name_ok(name))
        return text(a, ROUTE_NOT_FOUND, "not found\n");
    if (!config->web_dir) {
        const WebFile *f = web_find(name);
        if (!f)
            return text(a, ROUTE_NOT_FOUND, "not found\n");
        return answer(a, ROUTE_OK, web_type(name), (const char *)f->data, f->len);
    }
    char file[4096];
    snprintf(file, sizeof file, "%s/%s", config->web_dir, name);
    FILE *in = fopen(file, "rb");
    struct stat st; /* a folder opens too: only files are served */
    if (in && (fstat(fileno(in), &st) != 0 || !S_ISREG(st.st_mode))) {
        fclose(in);
        in = NULL;
    }
    if (!in)
        return text(a, ROUTE_NOT_FOUND, "not found\n");
    char *data = mem_alloc(ROUTE_FILE_MAX);
    size_t len = data ? fread(data, 1, ROUTE_FILE_MAX, in) : 0;
    fclose(in);
    if (!data)
        return -1;
    a->owned = data;
    return answer(a, ROUTE_OK, web_type(name), data, len);
}

int route_http(const RouteConfig *config, const char *path, RouteAnswer *a)
{
    memset(a, 0, sizeof *a);
    a->cache = "no-cache";
    int rc;
    if (strcmp(path, "/healthz") == 0) {
        snprintf(a->text, sizeof a->text, "{\"ok\":true,\"rooms\":%d,\"clients\":%d}\n",
                 hub_server_rooms(config->hub), hub_server_clients(config->hub));
        rc = answer(a, ROUTE_OK, "application/json", a->text, strlen(a->text));
    } else if (strncmp(path, "/games/", 7) == 0) {
        rc = record(config, path, a);
    } else {
        rc = web(config, path, a);
    }
    if (rc)
        memset(a, 0, sizeof *a);
    return rc;
}

void route_shown(const char *word, char *out, size_t size)
{
    size_t n = 0;
    for (const char *p = word; *p && n < size - 1; p++)
        out[n++] = *p > ' ' && *p < 127 ? *p : '?';
    out[n] = 0;
}

/* The answer, before HEAD is taken in (route_request). */
static int route_for(const RouteConfig *config, RouteMethod method, const char *host,
                     const char *path, RouteAnswer *a)
{
    if (!route_host_ok(config, host)) {
        memset(a, 0, sizeof *a);
        a->cache = "no-cache";
        /* the name as sent, but only its printable ASCII: it is the
         * client's word, and a line of the log */
        char shown[101];
        route_shown(host, shown, sizeof shown);
        snprintf(a->log, sizeof a->log, "refused a request for host %s: not a name of this server",
                 shown);
        return text(a, ROUTE_FORBIDDEN, "unknown_host\n");
    }
    if (method == ROUTE_OTHER) {
        memset(a, 0, sizeof *a);
        a->cache = "no-cache";
        a->allow = ROUTE_ALLOW;
        a->close = 1;
        return text(a, ROUTE_NOT_ALLOWED, ROUTE_NOT_ALLOWED_TEXT);
    }
    return route_http(config, path, a);
}

int route_request(const RouteConfig *config, RouteMethod method, const char *host,
                  const char *path, RouteAnswer *a)
{
    int rc = route_for(config, method, host, path, a);
    /* every answer to a HEAD is without its body, a refusal's too (its
     * body would be read as the start of the next answer) */
    a->head = !rc && method == ROUTE_HEAD;
    return rc;
}

/* The length of host's name: up to the port's ':' (an IPv6 address is in
 * brackets, its ':'s inside them); 0 when what follows the name is
 * neither nothing nor ':' and 1 to 5 digits. */
static size_t host_name_len(const char *host)
{
    size_t n;
    if (host[0] == '[') {
        const char *close = strchr(host, ']');
        if (!close)
            return 0;
        n = (size_t)(close - host) + 1;
    } else {
        n = strcspn(host, ":");
    }
    if (!host[n])
        return n;
    size_t digits = strspn(host + n + 1, "0123456789");
    return host[n] == ':' && digits >= 1 && digits <= 5 && !host[n + 1 + digits] ? n : 0;
}

static int name_is(const char *host, size_t n, const char *name)
{
    return name && strlen(name) == n && strncasecmp(host, name, n) == 0;
}

int route_host_ok(const RouteConfig *config, const char *host)
{
    static const char *const loopback[] = {"127.0.0.1", "localhost", "[::1]"};
    if (!host || !host[0])
        return 1;
    size_t n = host_name_len(host);
    if (!n)
        return 0;
    for (size_t i = 0; i < sizeof loopback / sizeof *loopback; i++)
        if (name_is(host, n, loopback[i]))
            return 1;
    if (config->bind && strcmp(config->bind, "0.0.0.0") != 0 && name_is(host, n, config->bind))
        return 1;
    for (int i = 0; i < config->host_name_count; i++)
        if (name_is(host, n, config->host_names[i]))
            return 1;
    return 0;
}

int route_host_name_valid(const char *name)
{
    unsigned char bytes[16];
    char inner[64];
    size_t len = strlen(name);
    if (name[0] == '[') {
        if (len < 3 || len - 2 >= sizeof inner || name[len - 1] != ']')
            return 0;
        memcpy(inner, name + 1, len - 2);
        inner[len - 2] = 0;
        return inet_pton(AF_INET6, inner, bytes) == 1;
    }
    if (inet_pton(AF_INET, name, bytes) == 1)
        return 1;
    return len >= 1 && len <= 253 && name[0] != '.' && name[0] != '-' && name[len - 1] != '.' &&
           strspn(name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-.") ==
               len;
}

void route_answer_free(RouteAnswer *a)
{
    free(a->owned);
    a->owned = NULL;
    a->body = NULL;
    a->len = 0;
}
