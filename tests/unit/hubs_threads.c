/* hubs_threads.c - two hubs on two threads, as two event loops of one
 * server, sharing their counts and the lobby's list (HubConfig.shared)
 * and one store (store_shared): each makes public rooms, lists the lobby
 * and leaves, and connects and goes, from the same addresses at once. The
 * counts must come out whole (every room and connection given back, so an
 * address may again do all it could), and ThreadSanitizer (scripts/test.sh
 * runs this under it; Criterion's forked runner cannot run there, so this
 * is a plain program) must see no race. Exits 0, or 1 with the reason. */
#include <jansson.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../src/server/hub.h"
#include "../../src/store/store.h"
#include "../support/counter_random.h"

enum { ROUNDS = 300, HOUR_MS = 3600000 };

static int failed;

static void fail(const char *what, int a, int b)
{
    fprintf(stderr, "hubs_threads: %s (%d, %d)\n", what, a, b);
    __atomic_store_n(&failed, 1, __ATOMIC_SEQ_CST);
}

/* c's last frame: its error's name or its type, in got (the others
 * dropped). */
static const char *last_answer(HubClient *c, char got[64])
{
    HubFrame *f;
    got[0] = 0;
    while ((f = hub_pop(c))) {
        json_t *j = json_loadb((const char *)f->data, f->len, 0, NULL);
        hub_frame_free(f);
        const char *e = json_string_value(json_object_get(j, "error"));
        snprintf(got, 64, "%s", e ? e : json_string_value(json_object_get(j, "type")));
        json_decref(j);
    }
    return got;
}

static int make_room(Hub *h, HubClient *c, int64_t now)
{
    static const char create[] = "{\"type\":\"create\",\"name\":\"Ann\",\"public\":true}";
    char got[64];
    hub_receive(h, c, create, sizeof create - 1, now);
    return strcmp(last_answer(c, got), "room") == 0;
}

typedef struct Churn {
    Hub *hub;
    int made; /* rooms made */
} Churn;

static void *churn(void *arg)
{
    static const char leave[] = "{\"type\":\"leave\"}", lobby[] = "{\"type\":\"lobby\"}";
    Churn *ch = arg;
    char from[32], got[64];
    for (int i = 0; i < ROUNDS; i++) {
        int64_t now = (int64_t)i * HOUR_MS;
        snprintf(from, sizeof from, "10.0.4.%d", i % 3);
        HubClient *c = hub_connect_from(ch->hub, NULL, from, now);
        if (!c || strcmp(last_answer(c, got), "welcome") != 0) {
            fail("a connection was refused", i, 0);
            return NULL;
        }
        if (make_room(ch->hub, c, now)) {
            ch->made++;
            /* the lobby lists both hubs' rooms: this one among them */
            hub_receive(ch->hub, c, lobby, sizeof lobby - 1, now);
            if (strcmp(last_answer(c, got), "lobby") != 0)
                fail("no lobby", i, 0);
            if (i % 2)
                hub_receive(ch->hub, c, leave, sizeof leave - 1, now);
        }
        hub_disconnect(ch->hub, c, now); /* a room not left stays, idle */
        hub_tick(ch->hub, now + HOUR_MS / 2); /* ... until it closes */
    }
    return NULL;
}

int main(void)
{
    uint64_t random[2] = {24, 1u << 30};
    /* one store for both, as `lit serve --loops 2 --db` has */
    char dir[] = "/tmp/hubs_threads.______", path[64], error[STORE_ERROR_MAX];
    memset(dir + sizeof dir - 7, 'X', 6); /* mkdtemp's template: six X's it replaces */
    if (!mkdtemp(dir))
        return fprintf(stderr, "hubs_threads: no scratch folder\n"), 1;
    snprintf(path, sizeof path, "%s/lit.db", dir);
    Store *inner = store_sqlite_open(path, NULL, error);
    Store *store = inner ? store_shared(inner) : NULL;
    if (!store)
        return fprintf(stderr, "hubs_threads: no store: %s\n", error), 1;
    HubShared *shared = hub_shared_new();
    Churn ch[2];
    pthread_t t[2];
    for (int i = 0; i < 2; i++) {
        HubConfig config = {.ctx = &random[i], .random = counter_random, .max_rooms = 4,
                            .max_rooms_per_address = 4, .max_rate = 1000, .shared = shared,
                            .hubs = 2, .index = i, .store = store};
        ch[i] = (Churn){hub_new(&config), 0};
        if (!ch[i].hub || pthread_create(&t[i], NULL, churn, &ch[i]) != 0)
            return fprintf(stderr, "hubs_threads: cannot start\n"), 1;
    }
    for (int i = 0; i < 2; i++)
        pthread_join(t[i], NULL);
    if (ch[0].made + ch[1].made <= ROUNDS)
        fail("too few rooms made", ch[0].made, ch[1].made);
    if (hub_rooms(ch[0].hub) + hub_rooms(ch[1].hub) != 0)
        fail("rooms left open", hub_rooms(ch[0].hub), hub_rooms(ch[1].hub));
    /* everything given back: one address makes as many rooms as the server
     * holds (4), on both hubs */
    HubClient *c[4];
    for (int i = 0; i < 4; i++) {
        Hub *h = ch[i % 2].hub;
        c[i] = hub_connect_from(h, NULL, "10.0.4.0", 3 * ROUNDS * (int64_t)HOUR_MS);
        if (!c[i] || !make_room(h, c[i], 3 * ROUNDS * (int64_t)HOUR_MS))
            fail("a room refused after the churn", i, 0);
    }
    for (int i = 0; i < 4; i++)
        if (c[i])
            hub_disconnect(ch[i % 2].hub, c[i], 3 * ROUNDS * (int64_t)HOUR_MS);
    hub_free(ch[0].hub);
    hub_free(ch[1].hub);
    hub_shared_free(shared);
    /* the store has those four rooms, and nothing of the churn's: one hub
     * takes them up */
    HubConfig one = {.ctx = &random[0], .random = counter_random, .store = store};
    Hub *h = hub_new(&one);
    int rooms = h ? hub_restore(h, 3 * ROUNDS * (int64_t)HOUR_MS) : -1;
    if (rooms != 4)
        fail("rooms taken up from the store", rooms, 4);
    hub_free(h);
    store_close(store);
    unlink(path);
    char wal[80];
    snprintf(wal, sizeof wal, "%s-wal", path);
    unlink(wal);
    snprintf(wal, sizeof wal, "%s-shm", path);
    unlink(wal);
    rmdir(dir);
    if (!failed)
        printf("hubs_threads: %d and %d rooms made on two threads, saved in one store, the "
               "counts whole\n",
               ch[0].made, ch[1].made);
    return failed;
}
