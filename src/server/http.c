/* http.c - HTTP answers and the checks of a WebSocket's upgrade, written
 * through libwebsockets (loop.h): each answer decided by route.c (the
 * records of finished games, /healthz, the page), and what lws leaves to
 * us: the method (lws would send a HEAD the body we write, upgrade a POST,
 * and make a CONNECT a raw socket nothing answers: 405), the Host of every
 * request (route_host_ok: DNS rebinding), the Origin of an upgrade, and
 * the address of a client behind the trusted proxy.
 */
#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../mem/mem.h"
#include "loop.h"
#include "route.h"

/* The request's method: lws_http_get_uri_and_method's, or for HTTP/2
 * (h2c: lws takes that upgrade) its :method. */
static RouteMethod request_method(struct lws *wsi)
{
    char *uri, m[8];
    int len;
    switch (lws_http_get_uri_and_method(wsi, &uri, &len)) {
    case LWSHUMETH_GET:
        return ROUTE_GET;
    case LWSHUMETH_HEAD:
        return ROUTE_HEAD;
    case LWSHUMETH_COLON_PATH:
        if (lws_hdr_copy(wsi, m, sizeof m, WSI_TOKEN_HTTP_COLON_METHOD) > 0)
            return strcmp(m, "GET") == 0 ? ROUTE_GET
                   : strcmp(m, "HEAD") == 0 ? ROUTE_HEAD
                                            : ROUTE_OTHER;
        return ROUTE_OTHER;
    default:
        return ROUTE_OTHER;
    }
}

/* The request's Host (HTTP/2: :authority) into host ("" none; one too long
 * for host is kept cut, and then names nothing of ours). */
static void request_host(struct lws *wsi, char *host, int size)
{
    host[0] = 0;
    if (lws_hdr_copy(wsi, host, size, WSI_TOKEN_HOST) <= 0 &&
        lws_hdr_copy(wsi, host, size, WSI_TOKEN_HTTP_COLON_AUTHORITY) <= 0)
        host[0] = 0;
    if (!host[0] && (lws_hdr_total_length(wsi, WSI_TOKEN_HOST) > 0 ||
                     lws_hdr_total_length(wsi, WSI_TOKEN_HTTP_COLON_AUTHORITY) > 0))
        snprintf(host, (size_t)size, "%s", "(too long)");
}

/* Whether the request says a body follows: a Content-Length other than 0,
 * or a Transfer-Encoding. */
static int has_body(struct lws *wsi)
{
    char n[32];
    if (lws_hdr_total_length(wsi, WSI_TOKEN_HTTP_TRANSFER_ENCODING) > 0)
        return 1;
    if (lws_hdr_total_length(wsi, WSI_TOKEN_HTTP_CONTENT_LENGTH) <= 0)
        return 0;
    if (lws_hdr_copy(wsi, n, sizeof n, WSI_TOKEN_HTTP_CONTENT_LENGTH) <= 0)
        return 1; /* one too long to read: a body, surely */
    return strspn(n, "0 \t") != strlen(n);
}

/* Puts the hub's answer (route.c) on the wire: its headers now, its body
 * (copied behind LWS_PRE) when the connection is writable; a HEAD's headers
 * say the body's length, and an empty body follows them (which ends the
 * answer, an HTTP/2 stream too). */
static int refuse(struct lws *wsi, const char *status, const char *headers, const char *body);

int http_answer(struct lws *wsi, Conn *conn, const char *path, const RouteConfig *rc)
{
    RouteAnswer a;
    char host[256];
    /* A request with a body (no answer of ours takes one), HTTP/1: refused
     * at once, written whole, and the connection closed, its body never
     * read. Answered the usual way (headers, then the body when writable),
     * a body behind a pipelined request left lws serving the connection's
     * buffered input for ever, the loop at full CPU and deaf to SIGTERM (a
     * review found it). */
    if (lws_get_network_wsi(wsi) == wsi && has_body(wsi)) {
        if (request_method(wsi) != ROUTE_GET && request_method(wsi) != ROUTE_HEAD)
            refuse(wsi, "405 Method Not Allowed", "allow: " ROUTE_ALLOW "\r\n",
                   ROUTE_NOT_ALLOWED_TEXT);
        else
            refuse(wsi, "400 Bad Request", "", ROUTE_NO_BODY_TEXT);
        return -1;
    }
    request_host(wsi, host, sizeof host);
    if (route_request(rc, request_method(wsi), host, path, &a))
        return -1;
    if (a.log[0])
        fprintf(stderr, "serve: %s\n", a.log);
    unsigned char buf[LWS_PRE + 1024], *start = buf + LWS_PRE, *p = start,
                                       *end = buf + sizeof buf - 1;
    size_t content_length = a.len;
    if (a.head)
        a.len = 0;
    /* HTTP/2 (an h2c upgrade; lws takes it): a stream, which ends, and no
     * connection header (a protocol error there) */
    if (lws_get_network_wsi(wsi) != wsi)
        a.close = 0;
    conn->body_len = a.len;
    conn->body_off = 0;
    conn->close = a.close;
    conn->body = mem_alloc(LWS_PRE + a.len + 1);
    if (!conn->body) {
        route_answer_free(&a);
        return -1;
    }
    memcpy(conn->body + LWS_PRE, a.body, a.len);
    route_answer_free(&a);
    char disposition[96];
    snprintf(disposition, sizeof disposition, "attachment; filename=\"%s\"", a.download);
    if (lws_add_http_common_headers(wsi, (unsigned)a.status, a.type, content_length, &p, end) ||
        (a.download[0] &&
         lws_add_http_header_by_name(wsi, (const unsigned char *)"content-disposition:",
                                     (const unsigned char *)disposition,
                                     (int)strlen(disposition), &p, end)) ||
        (a.allow && lws_add_http_header_by_name(wsi, (const unsigned char *)"allow:",
                                                (const unsigned char *)a.allow,
                                                (int)strlen(a.allow), &p, end)) ||
        (a.close && lws_add_http_header_by_name(wsi, (const unsigned char *)"connection:",
                                                (const unsigned char *)"close", 5, &p, end)))
        return -1;
    for (const RouteHeader *h = route_headers; h->name; h++)
        if (lws_add_http_header_by_name(wsi, (const unsigned char *)h->name,
                                        (const unsigned char *)h->value, (int)strlen(h->value),
                                        &p, end))
            return -1;
    if (lws_add_http_header_by_name(wsi, (const unsigned char *)"cache-control:",
                                    (const unsigned char *)a.cache, (int)strlen(a.cache), &p,
                                    end) ||
        lws_finalize_write_http_header(wsi, start, &p, end))
        return -1;
    lws_callback_on_writable(wsi);
    return 0;
}

/* The body, HTTP_CHUNK bytes a writable callback. lws_write sends at most
 * its service buffer (4096 bytes) at once and keeps the rest in a list it
 * allocates; out of memory there it closes the connection mid-body, after
 * a 200's headers (tests/integration/cli_netfault.sh found it). A chunk the
 * socket takes whole allocates nothing. */
int http_writable(struct lws *wsi, Conn *conn)
{
    if (!conn->body)
        return 0;
    size_t n = conn->body_len - conn->body_off;
    int last = n <= HTTP_CHUNK;
    if (!last)
        n = HTTP_CHUNK;
    /* lws_write may write LWS_PRE bytes before the chunk: they are the
     * last chunk's (already sent) or the headroom */
    unsigned char *chunk = (unsigned char *)conn->body + LWS_PRE + conn->body_off;
    if (lws_write(wsi, chunk, n, last ? LWS_WRITE_HTTP_FINAL : LWS_WRITE_HTTP) < 0)
        return -1;
    conn->body_off += n;
    if (!last) {
        lws_callback_on_writable(wsi);
        return 0;
    }
    free(conn->body);
    conn->body = NULL;
    /* a 405: the request's body, if any, is not read: closed */
    if (conn->close)
        return -1;
    return lws_http_transaction_completed(wsi) ? -1 : 0;
}

/* Whether origin (empty: none sent, a client that is no browser) may open a
 * WebSocket: this host itself, or one of --origin's. */
static int origin_allowed(struct lws *wsi, const NetConfig *config, const char *origin)
{
    if (!origin[0])
        return 1;
    char host[256];
    if (lws_hdr_copy(wsi, host, sizeof host, WSI_TOKEN_HOST) > 0) {
        const char *rest = strncmp(origin, "http://", 7) == 0    ? origin + 7
                           : strncmp(origin, "https://", 8) == 0 ? origin + 8
                                                                  : NULL;
        if (rest && strcmp(rest, host) == 0)
            return 1;
    }
    const char *list = config->origins;
    size_t len = strlen(origin);
    while (list && *list) {
        const char *comma = strchr(list, ',');
        size_t n = comma ? (size_t)(comma - list) : strlen(list);
        if (n == len && strncmp(list, origin, n) == 0)
            return 1;
        list = comma ? comma + 1 : NULL;
    }
    return 0;
}

/* Who connects: the peer's address, or, when the peer is the trusted proxy
 * (--proxy), the last address of its X-Forwarded-For (the one the proxy
 * added; the ones before it are the client's word). */
void http_client_address(struct lws *wsi, const NetConfig *config, char *out, size_t size)
{
    char xff[4097]; /* every header lws keeps (4,096 bytes in all) */
    unsigned char bytes[sizeof(struct in6_addr)];
    lws_get_peer_simple(wsi, out, size);
    if (!config->proxy || strcmp(out, config->proxy) != 0 ||
        lws_hdr_total_length(wsi, WSI_TOKEN_X_FORWARDED_FOR) <= 0)
        return;
    /* one too long to read is not the proxy's own address: a bucket of
     * its own, not the proxy's, which every client behind it would share */
    if (lws_hdr_copy(wsi, xff, sizeof xff, WSI_TOKEN_X_FORWARDED_FOR) <= 0) {
        snprintf(out, size, "%s", "unreadable-forwarded-for");
        return;
    }
    char *last = strrchr(xff, ',');
    last = last ? last + 1 : xff;
    last += strspn(last, " \t");
    last[strcspn(last, " \t")] = 0;
    if ((inet_pton(AF_INET, last, bytes) == 1 || inet_pton(AF_INET6, last, bytes) == 1) &&
        strlen(last) < size)
        memcpy(out, last, strlen(last) + 1);
}

/* After the n bytes of a raw answer's first headers in answer (size
 * bytes): the headers every answer carries (route_headers), no caching,
 * the blank line and body. The answer's length, or -1 when it does not
 * fit. */
static int headers_and_body(char *answer, size_t size, int n, const char *body)
{
    for (const RouteHeader *h = route_headers; h->name && n > 0 && (size_t)n < size; h++)
        n += snprintf(answer + n, size - (size_t)n, "%s %s\r\n", h->name, h->value);
    if (n > 0 && (size_t)n < size)
        n += snprintf(answer + n, size - (size_t)n, "cache-control: no-cache\r\n\r\n%s", body);
    return n > 0 && (size_t)n < size ? n : -1;
}

/* A refusal, closing: status ("403 Forbidden"), the headers in headers
 * (each ending "\r\n"), and the error's name (body: "NAME\n"). Written
 * whole: lws_return_http_status would say HTTP/1.0 at an upgrade, before
 * the request's version is taken in, which WebSocket clients do not read
 * as an answer. */
static int refuse(struct lws *wsi, const char *status, const char *headers, const char *body)
{
    char answer[1024];
    int n = snprintf(answer, sizeof answer,
                     "HTTP/1.1 %s\r\n"
                     "content-type: text/plain\r\n"
                     "content-length: %zu\r\n"
                     "%s"
                     "connection: close\r\n",
                     status, strlen(body), headers);
    n = headers_and_body(answer, sizeof answer, n, body);
    if (n < 0)
        return 1;
    unsigned char buf[LWS_PRE + sizeof answer];
    memcpy(buf + LWS_PRE, answer, (size_t)n);
    lws_write(wsi, buf + LWS_PRE, (size_t)n, LWS_WRITE_HTTP_FINAL);
    return 1;
}

/* An upgrade (to a WebSocket; lws takes h2c's too): refused, and the
 * connection is not upgraded, when its Host names no name of this server
 * (403), its method is not GET (405: lws would upgrade a POST), or it comes
 * from a page of another site (403). */
int http_confirm_upgrade(struct lws *wsi, const RouteConfig *rc, const NetConfig *config)
{
    char host[256], origin[256] = "";
    request_host(wsi, host, sizeof host);
    if (!route_host_ok(rc, host)) {
        RouteAnswer a; /* the log's line, as route.c words it */
        if (route_request(rc, ROUTE_GET, host, "/", &a) == 0) {
            fprintf(stderr, "serve: %s (an upgrade)\n", a.log);
            route_answer_free(&a);
        }
        return refuse(wsi, "403 Forbidden", "", "unknown_host\n");
    }
    if (request_method(wsi) != ROUTE_GET)
        return refuse(wsi, "405 Method Not Allowed", "allow: " ROUTE_ALLOW "\r\n",
                              ROUTE_NOT_ALLOWED_TEXT);
    if (lws_hdr_copy(wsi, origin, sizeof origin, WSI_TOKEN_ORIGIN) < 0 ||
        !origin_allowed(wsi, config, origin)) {
        char shown[201]; /* the client's word: printable ASCII only */
        route_shown(origin, shown, sizeof shown);
        fprintf(stderr, "serve: refused a WebSocket from origin %s\n", shown);
        return refuse(wsi, "403 Forbidden", "", "cross_origin\n");
    }
    return 0;
}

/* A CONNECT, made a raw socket by lws: 405, and closed. */
int http_refuse_connect(struct lws *wsi)
{
    static const char body[] = ROUTE_NOT_ALLOWED_TEXT;
    char answer[1024];
    int n = snprintf(answer, sizeof answer,
                     "HTTP/1.1 405 Method Not Allowed\r\n"
                     "content-type: text/plain\r\n"
                     "content-length: %zu\r\n"
                     "allow: " ROUTE_ALLOW "\r\n"
                     "connection: close\r\n",
                     sizeof body - 1);
    n = headers_and_body(answer, sizeof answer, n, body);
    if (n < 0)
        return -1;
    unsigned char buf[LWS_PRE + sizeof answer];
    memcpy(buf + LWS_PRE, answer, (size_t)n);
    lws_write(wsi, buf + LWS_PRE, (size_t)n, LWS_WRITE_RAW);
    return -1;
}

