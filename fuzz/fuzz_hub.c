/* fuzz_hub.c - the server's message handler (src/server/hub.c) under
 * arbitrary messages.
 *
 * Two clients: the first has made a 4-seat room with bots and started a game
 * (so messages reach the room and the game); the input is split at newlines
 * into messages, sent alternately from the two clients, the clock moved
 * on between them to whatever is due next (bots, timed turns, waits), so
 * every timer fires. The hub hands expert bots' decisions out as jobs into
 * a queue of two (so a full queue is reached too); after each message the
 * oldest comes back, run without a workspace (an expert's search is far too
 * slow for fuzzing: it fails at once with no_space, and the hub ends that
 * game as it does for any bot that fails), so handing out, stale answers,
 * rooms closed with a job out and waiting for a place are all reached. The
 * hub's random source is a counter, so the room's code (6X7SKV) and the
 * first client's token (8d10d632...) are the same in every run: the seeds
 * and the dictionary use them.
 *
 * Invariants: no crash, no leak, no undefined behaviour (ASan + UBSan);
 * every frame the hub queues is a JSON object with a string "type", and
 * every error frame names an error the hub knows (hub_error_known) with a
 * sentence; every message of a client not closed is answered: a refused
 * one by exactly one error frame and nothing else to anyone (it changed
 * nothing), an accepted one by at least one frame to its sender and no
 * error frame to it; an accepted hint, which an expert works out, by its
 * answer (the hint, or an error) when its job comes back, and by nothing
 * before. A closed client's messages are not read. */
#include <jansson.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../src/server/hub.h"
#include "../tests/support/counter_random.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

typedef struct Fuzz {
    uint64_t random; /* counter_random's state */
    HubJob *jobs[2]; /* the expert's jobs out, oldest first */
    int n;
} Fuzz;

static int fuzz_random(void *buf, size_t len, void *ctx)
{
    return counter_random(buf, len, &((Fuzz *)ctx)->random);
}

static int post(HubJob *job, void *ctx)
{
    Fuzz *f = ctx;
    if (f->n == 2)
        return 1;
    f->jobs[f->n++] = job;
    return 0;
}

/* The oldest job back, run without a workspace. */
static void job_back(Hub *h, Fuzz *f, int64_t now)
{
    if (!f->n)
        return;
    HubJob *job = f->jobs[0];
    f->jobs[0] = f->jobs[1];
    f->n--;
    hub_job_run(job, NULL, 0);
    hub_job_done(h, job, now);
}

/* The frames queued for a client, each checked, then freed. */
typedef struct Heard {
    int frames;
    int errors;
    int hints;
} Heard;

static Heard hear(HubClient *c)
{
    Heard h = {0, 0, 0};
    HubFrame *f;
    while ((f = hub_pop(c))) {
        json_t *j = json_loadb((const char *)f->data, f->len, 0, NULL);
        const char *type = json_string_value(json_object_get(j, "type"));
        if (!json_is_object(j) || !type)
            abort();
        if (strcmp(type, "error") == 0) {
            const char *name = json_string_value(json_object_get(j, "error"));
            if (!name || !hub_error_known(name) ||
                !json_is_string(json_object_get(j, "text")))
                abort();
            h.errors++;
        }
        h.hints += strcmp(type, "hint") == 0;
        h.frames++;
        json_decref(j);
        hub_frame_free(f);
    }
    return h;
}

static void say(Hub *h, HubClient *c, const char *text)
{
    hub_receive(h, c, text, strlen(text), 0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    Fuzz fz = {.random = 1};
    /* a rate at which long inputs reach both sides of the limit */
    HubConfig config = {.ctx = &fz, .random = fuzz_random, .max_rate = 200, .post = post};
    Hub *h = hub_new(&config);
    HubClient *c[2] = {hub_connect(h, NULL, 0), hub_connect(h, NULL, 0)};
    say(h, c[0],
        "{\"type\":\"create\",\"name\":\"A\",\"players\":4,\"pace_ms\":0,\"public\":true}");
    say(h, c[0], "{\"type\":\"fill\"}");
    say(h, c[0], "{\"type\":\"start\"}");
    hear(c[0]);
    hear(c[1]);
    int64_t now = 0;
    size_t start = 0;
    for (size_t i = 0, k = 0; i <= size; i++) {
        if (i < size && data[i] != '\n')
            continue;
        HubClient *who = c[k & 1], *other = c[~k++ & 1];
        int closed = who->close_code != 0;
        int had = hub_hint_out(who);
        hub_receive(h, who, (const char *)data + start, i - start, now);
        start = i + 1;
        Heard mine = hear(who), theirs = hear(other);
        /* a hint handed to the expert: answered when its job is back */
        int later =
            !closed && !had && hub_hint_out(who) && mine.frames == 0 && theirs.frames == 0;
        if (closed ? mine.frames != 0
                   : !later && (mine.frames == 0 ||
                                (mine.errors && (mine.frames != 1 || theirs.frames != 0))))
            abort();
        int64_t due = hub_next_wake(h);
        now = due != INT64_MAX && due > now + 1 ? due : now + 1;
        hub_tick(h, now);
        int out[2] = {hub_hint_out(c[0]), hub_hint_out(c[1])};
        job_back(h, &fz, now);
        for (int s = 0; s < 2; s++) {
            Heard got = hear(c[s]);
            if (out[s] && !hub_hint_out(c[s]) && !c[s]->close_code && got.hints + got.errors == 0)
                abort();
        }
    }
    hub_disconnect(h, c[0], now);
    hub_disconnect(h, c[1], now);
    hub_free(h);
    for (int i = 0; i < fz.n; i++)
        hub_job_free(fz.jobs[i]);
    return 0;
}
