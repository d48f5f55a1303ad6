/* limit.c - what one address or one connection may do: its connections
 * and rooms (counted per address), its lookups that found nothing (guesses
 * of room codes and tokens), and its messages a second (the rate).
 */
#include "room.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../mem/mem.h"

static Address **address_slot(Hub *h, const char *text)
{
    uint32_t x = 2166136261u; /* FNV-1a */
    for (const unsigned char *p = (const unsigned char *)text; *p; p++)
        x = (x ^ *p) * 16777619u;
    Address **a = &h->addresses[x % ADDRESS_BUCKETS];
    while (*a && strcmp((*a)->text, text) != 0)
        a = &(*a)->next;
    return a;
}

Address *hub_limit_address(Hub *h, const char *text)
{
    Address **slot = address_slot(h, text);
    if (!*slot && (*slot = mem_calloc(1, sizeof **slot)))
        snprintf((*slot)->text, sizeof (*slot)->text, "%s", text);
    return *slot;
}

/* Whether the entry holds nothing: no connection, no room, its guesses
 * and its bots-only games whole. */
static int address_idle(const Hub *h, const Address *a)
{
    return !a->clients && !a->rooms && a->guess_at <= h->now && a->bot_game_at <= h->now;
}

void hub_limit_put(Hub *h, Address *a)
{
    if (!a || !address_idle(h, a))
        return;
    Address **slot = address_slot(h, a->text);
    *slot = a->next;
    free(a);
}

void hub_limit_sweep(Hub *h)
{
    for (int i = 0; i < ADDRESS_BUCKETS; i++)
        for (Address **a = &h->addresses[i]; *a;) {
            Address *x = *a;
            if (address_idle(h, x)) {
                *a = x->next;
                free(x);
            } else {
                a = &x->next;
            }
        }
    h->swept_at = h->now;
}

int hub_limit_guessing(const Hub *h, const HubClient *c)
{
    const Address *a = c->address;
    return a && a->guess_at + HUB_GUESS_MS - h->now > (int64_t)HUB_GUESSES * HUB_GUESS_MS;
}

void hub_limit_guessed(Hub *h, HubClient *c)
{
    Address *a = c->address;
    if (a)
        a->guess_at = (a->guess_at > h->now ? a->guess_at : h->now) + HUB_GUESS_MS;
}

int hub_limit_bot_game(Hub *h, HubClient *c)
{
    Address *a = c->address;
    if (!a)
        return 1;
    int64_t at = a->bot_game_at > h->now ? a->bot_game_at : h->now;
    if (at + HUB_BOT_GAME_MS - h->now > (int64_t)HUB_BOT_GAMES * HUB_BOT_GAME_MS)
        return 0;
    a->bot_game_at = at + HUB_BOT_GAME_MS;
    return 1;
}

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
