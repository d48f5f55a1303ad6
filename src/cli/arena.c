/* arena.c - duplicate-deal matches between bots and their statistics. */
#include "arena.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "common.h"
#include "literature/notation.h"
#include "literature/rng.h"
#include "literature/status.h"
#include "literature/view.h"

int entrant_parse(Entrant *e, const char *text, const char **bad)
{
    size_t len = strlen(text);
    memset(e, 0, sizeof *e);
    if (len >= sizeof e->text) {
        *bad = text;
        return LIT_TOO_LONG;
    }
    memcpy(e->text, text, len + 1);
    if (strncmp(text, "cmd:", 4) == 0) {
        if (len == 4) {
            *bad = text;
            return LIT_UNKNOWN_BOT;
        }
        e->cmd = e->text + 4;
        e->n = 1;
        return LIT_OK;
    }
    return bot_list_parse(text, e->seats, LIT_MAX_PLAYERS / 2, &e->n, bad);
}

int bot_list_parse(const char *text, LitBotSpec *specs, int cap, int *n, const char **bad)
{
    *n = 0;
    for (const char *p = text;;) {
        const char *end = strchr(p, ',');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        if (len == 0 || *n == cap) {
            *bad = p;
            return len == 0 ? LIT_UNKNOWN_BOT : LIT_TOO_LONG;
        }
        int st = lit_bot_spec_parse(&specs[*n], p, len);
        if (st != LIT_OK) {
            *bad = p;
            return st;
        }
        ++*n;
        if (!end)
            return LIT_OK;
        p = end + 1;
    }
}

double outcome_score(const GameOutcome *g)
{
    if (g->result == LIT_DRAW || g->result == LIT_ABORTED)
        return 0.5;
    return g->points[0] > g->points[1] ? 1.0 : 0.0;
}

LitAction arena_fallback(const LitGame *g, int seat)
{
    LitAction legal[LIT_MAX_LEGAL];
    if (lit_game_legal(g, seat, legal, LIT_MAX_LEGAL) > 0)
        return legal[0];
    LitAction a = lit_action_make(LIT_CLAIM, seat);
    unsigned sets = lit_claimable(&g->pub, seat);
    a.set = (uint8_t)(sets ? lit_lsb(sets) : 0);
    memset(a.holders, seat, (size_t)lit_deck_set_size(g->pub.rules.deck));
    return a;
}

/* Logs a refused action: which game, action and seat, why, and what was
 * played instead. */
static void log_refusal(uint64_t index, int playing, uint32_t n, int seat, const Entrant *e,
                        const char *why, const LitRules *r, const LitAction *played)
{
    LitEvent ev;
    char line[LIT_LINE_MAX];
    memset(&ev, 0, sizeof ev);
    ev.action = *played;
    if (lit_event_format(r, &ev, 0, line, sizeof line) < 0)
        line[0] = 0;
    fprintf(stderr, "lit arena: deal %llu%c, action %u, seat %d (%s): %s; played %s\n",
            (unsigned long long)index, playing ? 'b' : 'a', n, seat + 1, e->text, why, line);
}

int entrant_needs_work(const Entrant *e)
{
    for (int i = 0; i < e->n && !e->cmd; i++)
        if (lit_bot_searches(e->seats[i].kind))
            return 1;
    return 0;
}

static void play_game(const LitRules *rules, uint64_t seed, uint64_t index, int playing,
                      const Entrant *a, const Entrant *b, ExtBot *const ext[2], void *work,
                      GameOutcome *out, LitGame *start, LitGame *end, LitLog *log,
                      ArenaMark *marks, ArenaWatch *watch);

void arena_game(const LitRules *rules, uint64_t seed, uint64_t index, int playing,
                const Entrant *a, const Entrant *b, ExtBot *const ext[2], void *work,
                GameOutcome *out, LitGame *start, LitGame *end, LitLog *log,
                ArenaMark *marks)
{
    play_game(rules, seed, index, playing, a, b, ext, work, out, start, end, log, marks,
              NULL);
}

void arena_game_watched(const LitRules *rules, uint64_t seed, uint64_t index, int playing,
                        const Entrant *a, const Entrant *b, void *work, GameOutcome *out,
                        LitLog *log, ArenaWatch *watch)
{
    play_game(rules, seed, index, playing, a, b, NULL, work, out, NULL, NULL, log, NULL,
              watch);
}

static void play_game(const LitRules *rules, uint64_t seed, uint64_t index, int playing,
                      const Entrant *a, const Entrant *b, ExtBot *const ext[2], void *work,
                      GameOutcome *out, LitGame *start, LitGame *end, LitLog *log,
                      ArenaMark *marks, ArenaWatch *watch)
{
    int players = rules->players;
    uint64_t deal = lit_seed_mix(seed, index);
    LitGame g;
    LitBot bots[LIT_MAX_PLAYERS];
    ExtBot *proc[LIT_MAX_PLAYERS];
    const Entrant *who[LIT_MAX_PLAYERS];
    int side_of[LIT_MAX_PLAYERS];
    LitEvent buffer[LIT_MAX_ACTIONS];
    LitLog own;
    LitView view;
    if (!log) {
        lit_log_init(&own, buffer, LIT_MAX_ACTIONS);
        log = &own;
    }
    log->len = 0;
    lit_game_new(&g, rules, deal, (int)(index % (uint64_t)players));
    if (start)
        *start = g;
    /* Team A's seats are 0, 2, 4...: the k-th seat of a team is 2k + team. */
    for (int s = 0; s < players; s++) {
        int k = (lit_team_of(s) == 0) == (playing == 0) ? 0 : 1;
        const Entrant *e = k ? b : a;
        side_of[s] = k;
        who[s] = e;
        proc[s] = e->cmd && ext && ext[k] ? &ext[k][s / 2] : NULL;
        if (proc[s]) {
            lit_view_make(&view, &g, log, s);
            extbot_game(proc[s], 2 * index + (uint64_t)playing, &view);
        } else {
            lit_bot_init(&bots[s], &e->seats[(s / 2) % e->n],
                         lit_seed_mix(deal, (uint64_t)(16 + 16 * playing + s)));
            lit_bot_lend(&bots[s], work, work ? LIT_BOT_WORK : 0);
        }
    }
    memset(out, 0, sizeof *out);
    while (g.pub.result == LIT_ONGOING) {
        int t = g.pub.turn;
        LitAction act;
        char why[EXTBOT_WHY_MAX];
        lit_view_make(&view, &g, log, t);
        int timed = watch && watch->side == side_of[t] && watch->n < watch->cap;
        double t0 = timed ? now_seconds() : 0;
        int st = proc[t] ? extbot_act(proc[t], &view, &act, why)
                         : lit_bot_act(&bots[t], &view, &act);
        if (timed)
            watch->ms[watch->n++] = (now_seconds() - t0) * 1000;
        if (st == LIT_OK && (st = lit_game_check(&g, &act)) != LIT_OK)
            snprintf(why, sizeof why, "%s: %s", lit_status_name(st), lit_status_text(st));
        else if (st != LIT_OK && !proc[t])
            snprintf(why, sizeof why, "%s: %s", lit_status_name(st), lit_status_text(st));
        char what[64];
        if (st != LIT_OK && proc[t] && extbot_never_answered(proc[t], what, sizeof what)) {
            out->silent = 1; /* the match stops (cmd_arena.c) */
            break;
        }
        if (marks)
            marks[log->len][0] = 0;
        if (st != LIT_OK) {
            out->bad[side_of[t]]++;
            if (marks)
                snprintf(marks[log->len], sizeof marks[log->len], "fallback: %.90s", why);
            act = arena_fallback(&g, t);
            log_refusal(index, playing, log->len + 1, t, who[t], why, rules, &act);
            if (proc[t]) {
                char name[EXTBOT_WHY_MAX];
                snprintf(name, sizeof name, "%.*s", (int)strcspn(why, ":"), why);
                extbot_refused(proc[t], &view, log->len + 1, name, why + strlen(name) + 2, &act);
            }
        }
        if (lit_game_play(&g, log, &act) != LIT_OK) {
            /* the fallback is legal by construction; should it ever not be,
             * the game stops here as aborted rather than loop */
            fprintf(stderr, "lit arena: deal %llu%c, action %u: the fallback was refused; "
                            "the game is aborted\n",
                    (unsigned long long)index, playing ? 'b' : 'a', log->len + 1);
            g.pub.result = LIT_ABORTED;
            break;
        }
        for (int s = 0; s < players; s++)
            if (proc[s]) {
                lit_view_make(&view, &g, log, s);
                extbot_event(proc[s], &view, &log->events[log->len - 1], log->len);
            }
    }
    for (int s = 0; s < players; s++)
        if (proc[s]) {
            lit_view_make(&view, &g, log, s);
            extbot_result(proc[s], 2 * index + (uint64_t)playing, &view);
        }
    int a_team = playing == 0 ? 0 : 1;
    out->result = g.pub.result;
    out->points[0] = g.pub.score[a_team];
    out->points[1] = g.pub.score[1 - a_team];
    out->sets[0] = (uint8_t)lit_popcount(g.pub.won[a_team]);
    out->sets[1] = (uint8_t)lit_popcount(g.pub.won[1 - a_team]);
    out->actions = g.pub.actions;
    if (end)
        *end = g;
}

double elo_of(double score)
{
    if (score <= 0)
        return -INFINITY;
    if (score >= 1)
        return INFINITY;
    return -400.0 * log10(1.0 / score - 1.0);
}

void arena_stats(const GameOutcome *games, size_t n, Stats *s)
{
    memset(s, 0, sizeof *s);
    s->pairs = n;
    s->games = 2 * n;
    double sum = 0, sum2 = 0, margin = 0, set_margin = 0, actions = 0;
    for (size_t i = 0; i < n; i++) {
        double pair = 0;
        for (int p = 0; p < 2; p++) {
            const GameOutcome *g = &games[2 * i + (size_t)p];
            double x = outcome_score(g);
            pair += x / 2;
            if (g->result == LIT_ABORTED)
                s->livelocks++;
            else if (x == 1.0)
                s->wins++;
            else if (x == 0.0)
                s->losses++;
            else
                s->draws++;
            s->bad[0] += g->bad[0];
            s->bad[1] += g->bad[1];
            margin += g->points[0] - g->points[1];
            set_margin += g->sets[0] - g->sets[1];
            actions += g->actions;
        }
        sum += pair;
        sum2 += pair * pair;
    }
    if (n == 0)
        return;
    s->score = sum / (double)n;
    /* one deal pair has no spread to make an interval of: NaN, said so */
    double var = n > 1 ? (sum2 - (double)n * s->score * s->score) / (double)(n - 1) : NAN;
    double half = 1.96 * sqrt(var > 0 ? var : n > 1 ? 0 : NAN) / sqrt((double)n);
    s->score_lo = n > 1 ? fmax(0.0, s->score - half) : NAN;
    s->score_hi = n > 1 ? fmin(1.0, s->score + half) : NAN;
    s->elo = elo_of(s->score);
    s->elo_lo = elo_of(s->score_lo);
    s->elo_hi = elo_of(s->score_hi);
    s->margin = margin / (double)s->games;
    s->set_margin = set_margin / (double)s->games;
    s->actions = actions / (double)s->games;
}
