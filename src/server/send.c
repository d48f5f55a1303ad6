/* send.c - what leaves the hub: frames queued for a client (capped, and
 * never sent short of a part), error answers (the protocol's own, in
 * room.h's table, and the engine's statuses), and log lines.
 */
#include "room.h"

#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../mem/mem.h"
#include "literature/status.h"

void hub_send_forget(Hub *h)
{
    h->failures = mem_failures();
}

int hub_send_whole(Hub *h)
{
    unsigned long now = mem_failures();
    int ok = now == h->failures;
    h->failures = now;
    return ok;
}

static void wake(HubClient *c)
{
    if (c->hub->config.wake)
        c->hub->config.wake(c, c->hub->config.ctx);
}

void hub_send_drop(HubClient *c)
{
    while (c->head) {
        HubFrame *f = c->head;
        c->head = f->next;
        hub_frame_free(f);
    }
    c->tail = NULL;
    c->queued = 0;
}

void hub_send_close(HubClient *c, int code, const char *reason)
{
    if (!c->close_code) {
        c->close_code = code;
        c->close_reason = reason;
    }
    wake(c);
}

void hub_send_json(HubClient *c, json_t *j)
{
    /* NULL, or short of a part: out of memory while it was built. The
     * client cannot be left without it (its state would be wrong): it is
     * closed with 1013 and resumes */
    if (!hub_send_whole(c->hub) || !j) {
        json_decref(j);
        hub_send_close(c, HUB_CLOSE_TRY_AGAIN, "server_error");
        return;
    }
    if (c->close_code) {
        json_decref(j);
        return;
    }
    char *text = json_dumps(j, JSON_COMPACT);
    json_decref(j);
    /* jansson's dump may go on past a failed allocation and write a key as
     * nothing (found by tests/unit/test_faults.c): its text is not sent */
    if (!text || !hub_send_whole(c->hub)) {
        free(text);
        hub_send_close(c, HUB_CLOSE_TRY_AGAIN, "server_error");
        hub_send_forget(c->hub);
        return;
    }
    hub_send_parts(c, text, strlen(text), NULL, 0);
    free(text);
}

void hub_send_parts(HubClient *c, const char *a, size_t alen, const char *b, size_t blen)
{
    if (c->close_code)
        return;
    Hub *h = c->hub;
    size_t len = alen + blen, head = h->config.headroom;
    int block = sizeof(HubFrame) + head + len <= HUB_FRAME_BLOCK;
    HubFrame *f = block && h->spares ? h->spares : NULL;
    if (f) {
        h->spares = f->next;
        h->n_spares--;
    } else {
        f = mem_alloc(block ? HUB_FRAME_BLOCK : sizeof *f + head + len);
    }
    if (f) {
        f->hub = h;
        f->spare = block;
    }
    if (!f || c->queued + len > HUB_QUEUE_MAX) {
        hub_frame_free(f);
        hub_send_drop(c);
        if (f)
            hub_send_close(c, HUB_CLOSE_POLICY, "too_slow");
        else
            hub_send_close(c, HUB_CLOSE_TRY_AGAIN, "server_error");
        hub_send_forget(c->hub);
        return;
    }
    f->next = NULL;
    f->len = len;
    f->data = (unsigned char *)(f + 1) + head;
    memcpy(f->data, a, alen);
    if (blen)
        memcpy(f->data + alen, b, blen);
    if (c->tail)
        c->tail->next = f;
    else
        c->head = f;
    c->tail = f;
    c->queued += len;
    wake(c);
}

HubFrame *hub_pop(HubClient *c)
{
    HubFrame *f = c->head;
    if (f) {
        c->head = f->next;
        if (!c->head)
            c->tail = NULL;
        c->queued -= f->len;
        f->next = NULL;
    }
    return f;
}

void hub_frame_free(HubFrame *f)
{
    if (f && f->spare && f->hub->n_spares < HUB_FRAME_SPARES) {
        f->next = f->hub->spares;
        f->hub->spares = f;
        f->hub->n_spares++;
        return;
    }
    free(f);
}

int hub_send_error(HubClient *c, const char *name, const char *text, const char *id)
{
    hub_send_forget(c->hub); /* a failure before it is what it answers */
    json_t *j = json_pack("{s:s,s:s,s:s}", "type", "error", "error", name, "text", text);
    if (!j) /* a text that is not UTF-8: the name alone */
        j = json_pack("{s:s,s:s,s:s}", "type", "error", "error", name, "text", "");
    if (j && id)
        json_object_set_new(j, "id", json_string(id));
    hub_send_json(c, j);
    return -1;
}

int hub_send_status(HubClient *c, int status, const char *id)
{
    return hub_send_error(c, lit_status_name(status), lit_status_text(status), id);
}

void hub_send_log(Hub *h, const char *fmt, ...)
{
    if (!h->config.log)
        return;
    char line[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    h->config.log(line, h->config.ctx);
}

static const char *const error_names[] = {
#define X_(code, name, text) name,
    HUB_ERRORS(X_)
#undef X_
};

static const char *const error_texts[] = {
#define X_(code, name, text) text,
    HUB_ERRORS(X_)
#undef X_
};

int hub_send_fail(HubClient *c, HubError e, const char *id)
{
    return hub_send_error(c, error_names[e], error_texts[e], id);
}

int hub_send_fail_text(HubClient *c, HubError e, const char *text, const char *id)
{
    return hub_send_error(c, error_names[e], text, id);
}

int hub_error_known(const char *name)
{
    for (size_t i = 0; i < sizeof error_names / sizeof *error_names; i++)
        if (strcmp(error_names[i], name) == 0)
            return 1;
    return lit_status_from_name(name) < 0;
}
