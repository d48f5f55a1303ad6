/* listing.c - the lobby's list of rooms (the `lobby` message), across the
 * hubs of a server: each room keeps its entry (Listing) current as it
 * changes, linked into the HubShared's list while the lobby offers it
 * (public, not playing, someone connected), so a `lobby` on any hub lists
 * the rooms of all of them without touching another hub's rooms.
 */
#include "room.h"

#include <stdio.h>
#include <string.h>

/* The room's entry as it should be: 1 when offered (and *e filled), 0 when
 * not. */
static int offered(const Room *r, Listing *e)
{
    /* a room every member of which has gone is not offered */
    if (!r->opt.listed || r->state == ROOM_PLAYING || r->idle_since >= 0)
        return 0;
    memset(e, 0, sizeof *e);
    e->number = r->number;
    memcpy(e->code, r->code, sizeof e->code);
    lit_rules_format(&r->opt.rules, e->rules, sizeof e->rules);
    snprintf(e->host, sizeof e->host, "%s", r->host >= 0 ? r->members[r->host].name : "");
    e->players = r->opt.rules.players;
    for (int s = 0; s < r->opt.rules.players; s++)
        e->seated += r->seats[s].member >= 0 || r->seats[s].bot;
    e->turn_ms = r->opt.turn_ms;
    e->match_to = r->opt.match_to;
    return 1;
}

/* Whether two entries say the same (their links aside). */
static int same(const Listing *a, const Listing *b)
{
    return a->number == b->number && strcmp(a->code, b->code) == 0 &&
           strcmp(a->rules, b->rules) == 0 && strcmp(a->host, b->host) == 0 &&
           a->players == b->players && a->seated == b->seated && a->turn_ms == b->turn_ms &&
           a->match_to == b->match_to;
}

/* Under the lock. */
static void unlink_entry(HubShared *s, Listing *e)
{
    if (e->prev)
        e->prev->next = e->next;
    else
        s->listed = e->next;
    if (e->next)
        e->next->prev = e->prev;
    e->prev = e->next = NULL;
    e->on = 0;
    s->n_listed--;
}

/* Under the lock: in its place, newest (highest number) first. */
static void link_entry(HubShared *s, Listing *e)
{
    Listing *before = NULL, *at = s->listed;
    while (at && at->number > e->number) {
        before = at;
        at = at->next;
    }
    e->prev = before;
    e->next = at;
    if (before)
        before->next = e;
    else
        s->listed = e;
    if (at)
        at->prev = e;
    e->on = 1;
    s->n_listed++;
}

void hub_listing_update(Room *r)
{
    Listing now;
    Hub *h = r->hub;
    int offer = offered(r, &now);
    if (!offer) {
        hub_listing_withdraw(r);
        return;
    }
    /* the entry is written by this room's hub alone: read here without
     * the lock, which only another hub's reading of the list needs */
    Listing *e = &r->listing;
    if (e->on && same(e, &now))
        return;
    hub_shared_lock(h);
    if (e->on && e->number == now.number) { /* its place stays */
        now.prev = e->prev;
        now.next = e->next;
        now.on = 1;
        *e = now;
    } else {
        if (e->on)
            unlink_entry(h->shared, e);
        *e = now;
        link_entry(h->shared, e);
    }
    hub_shared_unlock(h);
}

void hub_listing_withdraw(Room *r)
{
    if (!r->listing.on) /* this hub's own field, as above */
        return;
    Hub *h = r->hub;
    hub_shared_lock(h);
    unlink_entry(h->shared, &r->listing);
    hub_shared_unlock(h);
}

int hub_listing_current(const Room *r)
{
    Listing now;
    return offered(r, &now) ? r->listing.on && same(&r->listing, &now) : !r->listing.on;
}

int hub_listing_page(Hub *h, int page, Listing out[HUB_LOBBY_PAGE], int *total)
{
    int n = 0, i = 0;
    hub_shared_lock(h);
    *total = h->shared->n_listed;
    for (const Listing *e = h->shared->listed; e && n < HUB_LOBBY_PAGE; e = e->next, i++)
        if (i / HUB_LOBBY_PAGE == page) {
            out[n] = *e;
            out[n].prev = out[n].next = NULL;
            n++;
        }
    hub_shared_unlock(h);
    return n;
}
