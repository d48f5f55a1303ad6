/* room.c - rooms (made, found, closed), their codes and tokens, their
 * members and seats, the host role, the bots that sit in seats, and the
 * end of a game.
 */
#include "room.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

#include "../mem/mem.h"
#include "literature/notation.h"

int hub_room_random(Hub *h, void *buf, size_t len)
{
    if (h->config.random)
        return h->config.random(buf, len, h->config.ctx);
    unsigned char *p = buf;
    while (len) {
        ssize_t n = getrandom(p, len, 0);
        if (n <= 0)
            return -1;
        p += n;
        len -= (size_t)n;
    }
    return 0;
}

Room *hub_room_new(Hub *h)
{
    Room *r = mem_calloc(1, sizeof *r);
    if (!r)
        return NULL;
    r->hub = h;
    r->host = -1;
    r->idle_since = -1;
    r->wake_at = r->paced_at = r->grace_at = r->host_at = INT64_MAX;
    r->waiter = -1;
    r->held_ms = -1;
    r->due = INT64_MAX;
    r->due_i = ROOM_NOT_DUE;
    for (int s = 0; s < LIT_MAX_PLAYERS; s++)
        r->seats[s].member = -1;
    lit_log_init(&r->log, r->events, LIT_MAX_ACTIONS);
    return r;
}

int hub_room_open(Hub *h, Room *r)
{
    if (hub_due_add(h, r))
        return -1;
    r->next = h->rooms;
    h->rooms = r;
    h->n_rooms++;
    return 0;
}

/* Room codes: no vowels (no words), no 0/O, 1/I: 28^6 = 481 million. */
static const char code_alphabet[] = "BCDFGHJKLMNPQRSTVWXZ23456789";

Room *hub_room_find(Hub *h, const char *code)
{
    for (Room *r = h->rooms; r; r = r->next)
        if (strcmp(r->code, code) == 0)
            return r;
    return NULL;
}

int hub_room_code(Hub *h, char *code, int len)
{
    unsigned char b[HUB_GAME_ID_LEN];
    if (len > HUB_GAME_ID_LEN || hub_room_random(h, b, (size_t)len))
        return -1;
    for (int i = 0; i < len; i++)
        code[i] = code_alphabet[b[i] % (sizeof code_alphabet - 1)];
    code[len] = 0;
    return 0;
}

int hub_room_is_code(const char *s, size_t len)
{
    if (strlen(s) != len)
        return 0;
    for (size_t i = 0; i < len; i++)
        if (!strchr(code_alphabet, s[i]) || !s[i])
            return 0;
    return 1;
}

int hub_home(const char *code, int hubs)
{
    if (hubs <= 1)
        return 0;
    uint32_t x = 2166136261u; /* FNV-1a */
    for (const unsigned char *p = (const unsigned char *)code; *p; p++)
        x = (x ^ *p) * 16777619u;
    return (int)(x % (uint32_t)hubs);
}

int hub_room_new_code(Hub *h, char code[HUB_CODE_LEN + 1])
{
    /* a code that names this hub: one draw in hubs does */
    int hubs = h->config.hubs > 1 ? h->config.hubs : 1;
    for (int tries = 0; tries < 16 * hubs; tries++) {
        if (hub_room_code(h, code, HUB_CODE_LEN))
            return -1;
        if (hub_home(code, hubs) == h->config.index && !hub_room_find(h, code))
            return 0;
    }
    return -1;
}

void hub_room_set_idle(Hub *h, Room *r, int64_t since)
{
    int was = r->idle_since < 0, is = since < 0;
    r->idle_since = since;
    if (was != is)
        hub_limit_live(h, r->made_from, is ? 1 : -1);
    hub_due_update(r);
}

static int new_token(Hub *h, char token[HUB_TOKEN_LEN + 1])
{
    unsigned char b[HUB_TOKEN_LEN / 2];
    if (hub_room_random(h, b, sizeof b))
        return -1;
    for (size_t i = 0; i < sizeof b; i++)
        snprintf(token + 2 * i, 3, "%02x", b[i]);
    return 0;
}

void hub_room_free_brains(Room *r)
{
    for (int s = 0; s < LIT_MAX_PLAYERS; s++) {
        free(r->seats[s].brain);
        free(r->seats[s].stand_in);
        r->seats[s].brain = r->seats[s].stand_in = NULL;
    }
}

void hub_room_close(Hub *h, Room *r, int forget)
{
    if (forget) {
        hub_send_log(h, "room #%u closed", r->number);
        if (h->config.store && r->state == ROOM_PLAYING) {
            /* nobody will finish it: it ends aborted, and its record is kept */
            hub_room_abort(&r->game);
            hub_room_finish(r);
            r->dirty = 1;
        }
        hub_save_forget(h, r);
    }
    for (Room **p = &h->rooms; *p; p = &(*p)->next)
        if (*p == r) {
            *p = r->next;
            break;
        }
    hub_due_remove(h, r);
    for (Room **p = &h->dirty; *p; p = &(*p)->dirty_next)
        if (*p == r) {
            *p = r->dirty_next;
            break;
        }
    while (r->ended) {
        Ended *e = r->ended;
        r->ended = e->next;
        free(e->record);
        free(e);
    }
    for (int m = 0; m < HUB_MEMBERS_MAX; m++)
        if (r->members[m].used && r->members[m].client)
            r->members[m].client->room = NULL;
    hub_limit_room_gone(h, r->made_from, r->idle_since < 0);
    hub_listing_withdraw(r);
    hub_room_free_brains(r);
    for (int s = 0; s < LIT_MAX_PLAYERS; s++) {
        json_decref(r->aids[s]);
        json_decref(r->hints[s]);
    }
    hub_job_free(r->answer); /* a job still out is dropped when it comes back */
    free(r);
    h->n_rooms--;
}

int hub_room_connected(const Room *r)
{
    int n = 0;
    for (int m = 0; m < HUB_MEMBERS_MAX; m++)
        n += r->members[m].used && r->members[m].client;
    return n;
}

void hub_room_abort(LitGame *g)
{
    g->pub.result = LIT_ABORTED;
    g->pub.turn = LIT_NOBODY;
}

int hub_room_is_token(const char *t)
{
    if (strlen(t) != HUB_TOKEN_LEN)
        return 0;
    for (int i = 0; i < HUB_TOKEN_LEN; i++)
        if (!strchr("0123456789abcdef", t[i]))
            return 0;
    return 1;
}

const char *hub_room_expert_here(const Hub *h, const LitBotSpec *b)
{
    if (!lit_bot_searches(b->kind))
        return NULL;
    int master = b->kind == LIT_BOT_MASTER;
    if (!h->config.post)
        return master ? "its master bots have no worker here"
                      : "its expert bots have no worker here";
    if (b->rollouts <= HUB_EXPERT_ROLLOUTS_MAX)
        return NULL;
    return master ? "its master bots search too long" : "its expert bots search too long";
}

uint64_t hub_room_seed(Hub *h)
{
    uint64_t seed = 0;
    if (hub_room_random(h, &seed, sizeof seed))
        seed = (uint64_t)(uintptr_t)h ^ 0x9E3779B97F4A7C15u; /* never reached on Linux */
    return seed;
}

int hub_room_brain(Hub *h, LitBot **brain, const LitBotSpec *spec)
{
    if (!*brain && !(*brain = mem_alloc(sizeof **brain))) {
        hub_send_forget(h);
        return -1;
    }
    lit_bot_init(*brain, spec, hub_room_seed(h));
    return 0;
}

int hub_room_seat_bot(Hub *h, Room *r, int s, const LitBotSpec *spec)
{
    Seat *seat = &r->seats[s];
    if (hub_room_brain(h, &seat->brain, spec))
        return -1;
    seat->bot = 1;
    seat->spec = *spec;
    return 0;
}

void hub_room_finish(Room *r)
{
    int result = r->game.pub.result;
    if (result == LIT_ONGOING)
        return;
    r->state = ROOM_OVER;
    r->waiter = -1;
    if (r->opt.match_to && (result == LIT_WIN_A || result == LIT_WIN_B))
        r->wins[result == LIT_WIN_B]++;
    hub_save_ended(r);
    for (int s = 0; s < LIT_MAX_PLAYERS; s++)
        if (r->seats[s].vacated)
            r->seats[s].bot = r->seats[s].vacated = 0;
}

Member *hub_room_member(HubClient *c)
{
    return c->room ? &c->room->members[c->member] : NULL;
}

/* The member who joined first, among the connected ones (connected) or
 * all, or -1. */
static int first_joined(const Room *r, int connected)
{
    int best = -1;
    for (int m = 0; m < HUB_MEMBERS_MAX; m++)
        if (r->members[m].used && (!connected || r->members[m].client) &&
            (best < 0 || r->members[m].joined < r->members[best].joined))
            best = m;
    return best;
}

void hub_room_pass_host(Room *r)
{
    int best = first_joined(r, 1);
    r->host = best >= 0 ? best : first_joined(r, 0);
}

int hub_room_host_passes(Room *r, int64_t now)
{
    const Member *host = r->host >= 0 ? &r->members[r->host] : NULL;
    if (host && (host->client || now - host->gone_at < r->opt.grace_ms))
        return 0;
    int best = first_joined(r, 1);
    if (best < 0 || best == r->host)
        return 0;
    r->host = best;
    return 1;
}

Member *hub_room_add(Hub *h, Room *r, HubClient *c, const char *name)
{
    for (int m = 0; m < HUB_MEMBERS_MAX; m++) {
        Member *mem = &r->members[m];
        if (mem->used)
            continue;
        memset(mem, 0, sizeof *mem);
        if (new_token(h, mem->token))
            return NULL;
        mem->used = 1;
        snprintf(mem->name, sizeof mem->name, "%s", name);
        mem->seat = LIT_NOBODY;
        mem->client = c;
        mem->joined = r->joins++;
        c->room = r;
        c->member = m;
        hub_room_set_idle(h, r, -1);
        if (r->host < 0)
            r->host = m;
        return mem;
    }
    return NULL;
}

int hub_room_name_taken(const Room *r, const char *name)
{
    for (int m = 0; m < HUB_MEMBERS_MAX; m++)
        if (r->members[m].used && strcmp(r->members[m].name, name) == 0)
            return 1;
    return 0;
}

int hub_room_seat_free(const Room *r, int s)
{
    const Seat *seat = &r->seats[s];
    if (seat->member >= 0)
        return E_SEAT_TAKEN;
    if (r->state == ROOM_PLAYING)
        return seat->vacated ? E_HOST_GIVES : E_SEAT_TAKEN;
    return 0;
}

void hub_room_take_seat(Room *r, int m, int s)
{
    Member *mem = &r->members[m];
    if (mem->seat != LIT_NOBODY)
        r->seats[mem->seat].member = -1;
    mem->seat = (uint8_t)s;
    mem->asked = 0; /* seated: it asks for a seat no more */
    r->seats[s].member = m;
    r->seats[s].bot = 0;
    r->seats[s].vacated = 0;
}

int hub_room_same_token(const char *a, const char *b)
{
    unsigned diff = 0;
    size_t n = strlen(b);
    if (n != HUB_TOKEN_LEN)
        return 0;
    for (size_t i = 0; i < HUB_TOKEN_LEN; i++)
        diff |= (unsigned)(a[i] ^ b[i]);
    return diff == 0;
}
