/* limit.c - what one address or one connection may do: its connections
 * and rooms (counted per address), its lookups that found nothing (guesses
 * of room codes and tokens), its games with no player seated, and its
 * messages a second (the rate); and what the server holds at once (rooms,
 * reviews being made).
 *
 * Every count that spans rooms lives in a HubShared (hub.h), which the
 * hubs of one server share when it runs several (one an event loop), each
 * under its lock: so a limit an address has is the server's, whichever
 * hub its connections and rooms are on. A hub made without one has its
 * own. The rate is a connection's alone, and takes no lock.
 */
#include "room.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../mem/mem.h"

HubShared *hub_shared_new(void)
{
    HubShared *s = mem_calloc(1, sizeof *s);
    if (s && pthread_mutex_init(&s->lock, NULL)) {
        free(s);
        return NULL;
    }
    return s;
}

void hub_shared_free(HubShared *s)
{
    if (!s)
        return;
    for (int i = 0; i < ADDRESS_BUCKETS; i++)
        while (s->addresses[i]) { /* of clients not disconnected */
            Address *a = s->addresses[i];
            s->addresses[i] = a->next;
            free(a);
        }
    pthread_mutex_destroy(&s->lock);
    free(s);
}

void hub_shared_lock(Hub *h)
{
    pthread_mutex_lock(&h->shared->lock);
}

void hub_shared_unlock(Hub *h)
{
    pthread_mutex_unlock(&h->shared->lock);
}

static void lock(Hub *h)
{
    hub_shared_lock(h);
}

static void unlock(Hub *h)
{
    hub_shared_unlock(h);
}

/* ---- the addresses' entries (under the lock) ------------------------------ */

static Address **address_slot(HubShared *s, const char *text)
{
    uint32_t x = 2166136261u; /* FNV-1a */
    for (const unsigned char *p = (const unsigned char *)text; *p; p++)
        x = (x ^ *p) * 16777619u;
    Address **a = &s->addresses[x % ADDRESS_BUCKETS];
    while (*a && strcmp((*a)->text, text) != 0)
        a = &(*a)->next;
    return a;
}

/* Whether the entry holds nothing: no connection, no room, its guesses
 * and its bots-only games whole. */
static int address_idle(const Address *a, int64_t now)
{
    return !a->clients && !a->rooms && a->guess_at <= now && a->bot_game_at <= now;
}

/* Frees the entry once it holds nothing. */
static void address_put(HubShared *s, Address *a, int64_t now)
{
    if (!a || !address_idle(a, now))
        return;
    Address **slot = address_slot(s, a->text);
    *slot = a->next;
    free(a);
}

/* Frees every entry that holds nothing: those kept only for their guesses
 * once these are whole again. */
static void sweep(HubShared *s, int64_t now)
{
    for (int i = 0; i < ADDRESS_BUCKETS; i++)
        for (Address **a = &s->addresses[i]; *a;) {
            Address *x = *a;
            if (address_idle(x, now)) {
                *a = x->next;
                free(x);
            } else {
                a = &x->next;
            }
        }
    s->swept_at = now;
}

/* ---- connections ---------------------------------------------------------- */

Address *hub_limit_connect(Hub *h, const char *text, int *over)
{
    int most = h->config.max_per_address ? h->config.max_per_address : HUB_PER_ADDRESS_DEFAULT;
    HubShared *s = h->shared;
    lock(h);
    /* the entries kept for their guesses are let go at most this late */
    if (h->now - s->swept_at >= (int64_t)HUB_GUESSES * HUB_GUESS_MS)
        sweep(s, h->now);
    Address **slot = address_slot(s, text);
    if (!*slot && (*slot = mem_calloc(1, sizeof **slot)))
        snprintf((*slot)->text, sizeof (*slot)->text, "%s", text);
    Address *a = *slot;
    if (a)
        *over = ++a->clients > most;
    unlock(h);
    return a;
}

void hub_limit_disconnect(Hub *h, Address *a)
{
    if (!a)
        return;
    lock(h);
    a->clients--;
    address_put(h->shared, a, h->now);
    unlock(h);
}

/* ---- rooms ---------------------------------------------------------------- */

int hub_limit_room_made(Hub *h, Address *a)
{
    int most = h->config.max_rooms ? h->config.max_rooms : HUB_ROOMS_DEFAULT;
    int own = h->config.max_rooms_per_address ? h->config.max_rooms_per_address
                                              : HUB_ROOMS_PER_ADDRESS_DEFAULT;
    HubShared *s = h->shared;
    int refused = LIMIT_ROOM_MADE;
    lock(h);
    if (s->rooms >= most)
        refused = LIMIT_SERVER_FULL;
    else if (a && a->rooms >= HUB_ROOMS_KEPT * own)
        refused = LIMIT_OWN_KEPT;
    else if (a && a->live >= own)
        refused = LIMIT_OWN_LIVE;
    else {
        s->rooms++;
        if (a) {
            a->rooms++;
            a->live++;
        }
    }
    unlock(h);
    return refused;
}

void hub_limit_room_taken_up(Hub *h)
{
    lock(h);
    h->shared->rooms++;
    unlock(h);
}

void hub_limit_room_gone(Hub *h, Address *a, int live)
{
    lock(h);
    h->shared->rooms--;
    if (a) {
        a->rooms--;
        a->live -= live;
        address_put(h->shared, a, h->now);
    }
    unlock(h);
}

void hub_limit_live(Hub *h, Address *a, int delta)
{
    if (!a)
        return;
    lock(h);
    a->live += delta;
    unlock(h);
}

uint32_t hub_limit_number(Hub *h)
{
    lock(h);
    uint32_t n = ++h->shared->numbered;
    unlock(h);
    return n;
}

int hub_limit_rooms(Hub *h)
{
    lock(h);
    int n = h->shared->rooms;
    unlock(h);
    return n;
}

void hub_limit_clients(Hub *h, int delta)
{
    lock(h);
    h->shared->clients += delta;
    unlock(h);
}

int hub_server_rooms(Hub *h)
{
    return hub_limit_rooms(h);
}

int hub_server_clients(Hub *h)
{
    lock(h);
    int n = h->shared->clients;
    unlock(h);
    return n;
}

/* ---- guesses and bots-only games ------------------------------------------ */

int hub_limit_guessing(Hub *h, const HubClient *c)
{
    const Address *a = c->address;
    if (!a)
        return 0;
    lock(h);
    int spent = a->guess_at + HUB_GUESS_MS - h->now > (int64_t)HUB_GUESSES * HUB_GUESS_MS;
    unlock(h);
    return spent;
}

void hub_limit_guessed(Hub *h, HubClient *c)
{
    Address *a = c->address;
    if (!a)
        return;
    lock(h);
    a->guess_at = (a->guess_at > h->now ? a->guess_at : h->now) + HUB_GUESS_MS;
    unlock(h);
}

int hub_limit_bot_game(Hub *h, HubClient *c)
{
    Address *a = c->address;
    if (!a)
        return 1;
    lock(h);
    int64_t at = a->bot_game_at > h->now ? a->bot_game_at : h->now;
    int may = at + HUB_BOT_GAME_MS - h->now <= (int64_t)HUB_BOT_GAMES * HUB_BOT_GAME_MS;
    if (may)
        a->bot_game_at = at + HUB_BOT_GAME_MS;
    unlock(h);
    return may;
}

/* ---- reviews -------------------------------------------------------------- */

int hub_limit_review_take(Hub *h)
{
    lock(h);
    int may = h->shared->reviews_out < HUB_REVIEWS_OUT;
    h->shared->reviews_out += may;
    unlock(h);
    return may;
}

void hub_limit_review_done(Hub *h)
{
    lock(h);
    h->shared->reviews_out--;
    unlock(h);
}

/* ---- the rate (a connection's own: no lock) -------------------------------- */

int hub_limit_rate(const Hub *h, HubClient *c, int64_t now, int weight)
{
    int rate = h->config.max_rate ? h->config.max_rate : HUB_RATE_DEFAULT;
    int64_t step = 1000000 / rate, at = now * 1000;
    int64_t due = (c->rate_at > at ? c->rate_at : at) + step * weight;
    if (due - at > (int64_t)HUB_BURST * step)
        return 1;
    c->rate_at = due;
    return 0;
}
