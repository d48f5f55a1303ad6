/* fuzz_hub.c - the server's message handler (src/server/hub.c) under
 * arbitrary messages.
 *
 * Two clients: the first has made a 4-seat room with bots and started a game
 * (so messages reach the room and the game); the input is split at newlines
 * into messages, sent alternately from the two clients, the clock moved
 * on between them to whatever is due next (bots, timed turns, waits), so
 * every timer fires. Invariants: no crash, no leak, no undefined
 * behaviour (ASan + UBSan); every frame the hub queues is a JSON object with
 * a string "type", and every error frame names its error. */
#include <jansson.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../src/server/hub.h"
#include "../tests/support/counter_random.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_frames(HubClient *c)
{
    HubFrame *f;
    while ((f = hub_pop(c))) {
        json_t *j = json_loadb((const char *)f->data, f->len, 0, NULL);
        if (!json_is_object(j) || !json_is_string(json_object_get(j, "type")))
            abort();
        if (strcmp(json_string_value(json_object_get(j, "type")), "error") == 0 &&
            !json_is_string(json_object_get(j, "error")))
            abort();
        json_decref(j);
        hub_frame_free(f);
    }
}

static void say(Hub *h, HubClient *c, const char *text)
{
    hub_receive(h, c, text, strlen(text), 0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    uint64_t state = 1;
    /* a rate at which long inputs reach both sides of the limit */
    HubConfig config = {.ctx = &state, .random = counter_random, .max_rate = 200};
    Hub *h = hub_new(&config);
    HubClient *c[2] = {hub_connect(h, NULL, 0), hub_connect(h, NULL, 0)};
    say(h, c[0], "{\"type\":\"create\",\"name\":\"A\",\"players\":4,\"pace_ms\":0,\"public\":true}");
    say(h, c[0], "{\"type\":\"fill\"}");
    say(h, c[0], "{\"type\":\"start\"}");
    check_frames(c[0]);
    check_frames(c[1]);
    int64_t now = 0;
    size_t start = 0;
    for (size_t i = 0, k = 0; i <= size; i++) {
        if (i < size && data[i] != '\n')
            continue;
        HubClient *who = c[k++ & 1];
        hub_receive(h, who, (const char *)data + start, i - start, now);
        start = i + 1;
        int64_t due = hub_next_wake(h);
        now = due != INT64_MAX && due > now + 1 ? due : now + 1;
        hub_tick(h, now);
        check_frames(c[0]);
        check_frames(c[1]);
    }
    hub_disconnect(h, c[0], now);
    hub_disconnect(h, c[1], now);
    hub_free(h);
    return 0;
}
