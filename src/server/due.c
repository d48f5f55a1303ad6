/* due.c - when each room is next due (room.h): a binary min-heap of the
 * hub's rooms keyed by the earliest of their times, so that the next
 * wake-up is the heap's first and a tick looks only at the rooms due. A
 * room's place is mended whenever its times change (hub_pace_arm, and where
 * idle_since changes), in O(log rooms); before it, every message walked
 * every room (13% of the server's time at 1,000 tables: docs/BENCHMARKS.md).
 */
#include "room.h"

#include <assert.h>
#include <stdlib.h>

#include "../mem/mem.h"

int64_t hub_due_of(const Room *r)
{
    int64_t due = r->wake_at;
    if (r->grace_at < due)
        due = r->grace_at;
    if (r->host_at < due)
        due = r->host_at;
    if (r->waiter >= 0 && r->wait_until < due)
        due = r->wait_until;
    if (r->idle_since >= 0 && r->idle_since + ROOM_IDLE_MS < due)
        due = r->idle_since + ROOM_IDLE_MS;
    return due;
}

static void put(Hub *h, size_t i, Room *r)
{
    h->due[i] = r;
    r->due_i = i;
}

static void up(Hub *h, size_t i)
{
    Room *r = h->due[i];
    while (i > 0 && h->due[(i - 1) / 2]->due > r->due) {
        put(h, i, h->due[(i - 1) / 2]);
        i = (i - 1) / 2;
    }
    put(h, i, r);
}

static void down(Hub *h, size_t i)
{
    Room *r = h->due[i];
    for (;;) {
        size_t kid = 2 * i + 1;
        if (kid >= h->n_due)
            break;
        if (kid + 1 < h->n_due && h->due[kid + 1]->due < h->due[kid]->due)
            kid++;
        if (h->due[kid]->due >= r->due)
            break;
        put(h, i, h->due[kid]);
        i = kid;
    }
    put(h, i, r);
}

int hub_due_add(Hub *h, Room *r)
{
    if (h->n_due == h->due_cap) {
        size_t cap = h->due_cap ? 2 * h->due_cap : 64;
        Room **grown = mem_realloc(h->due, cap * sizeof *grown);
        if (!grown)
            return -1;
        h->due = grown;
        h->due_cap = cap;
    }
    r->due = hub_due_of(r);
    put(h, h->n_due++, r);
    up(h, r->due_i);
    return 0;
}

void hub_due_remove(Hub *h, Room *r)
{
    size_t i = r->due_i;
    if (i == ROOM_NOT_DUE)
        return; /* never added */
    assert(i < h->n_due && h->due[i] == r);
    r->due_i = ROOM_NOT_DUE;
    Room *last = h->due[--h->n_due];
    if (last == r)
        return;
    put(h, i, last);
    up(h, i);
    down(h, last->due_i);
}

void hub_due_update(Room *r)
{
    Hub *h = r->hub;
    int64_t due = hub_due_of(r);
    if (due == r->due)
        return;
    r->due = due;
    if (r->due_i == ROOM_NOT_DUE)
        return; /* not open yet: hub_due_add places it */
    up(h, r->due_i);
    down(h, r->due_i);
}

Room *hub_due_first(const Hub *h)
{
    return h->n_due ? h->due[0] : NULL;
}
