/* test_bot.c - the built-in bots (include/literature/bot.h, docs/BOTS.md).
 *
 * - bot texts: parsed and written back, every refusal by its exact status;
 * - lit_bot_act's refusals (not on turn, game over, the public view);
 * - whole games of every bot under every preset, player count and option
 *   that changes what may be done: every action the referee accepts, every
 *   game ends before the action bound (no livelock);
 * - the same seed gives the same game; a bot kept from one game to the next
 *   (or moved to another seat) starts afresh and knows what a new bot would;
 * - basic's rule: it never asks a question its knowledge says must miss
 *   while another may hit, and its claims are right unless it claims because
 *   every question it could ask must miss (the stuck rule of docs/BOTS.md);
 * - casual remembers exactly what its memory setting says: everything at 1,
 *   nothing at 0;
 * - expert: its texts and workspace, whole games under every variant, claims
 *   that the exact odds of the seat's view justify, the same game for a seed;
 * - master: the same texts and workspace, whole games under every variant
 *   against expert, the same game for a seed (its beliefs: test_master.c).
 *
 * No test here sets a Criterion .timeout: with --jobs=2, two long tests with
 * timeouts made Criterion 2.4's runner leak 48 bytes (seen under LSan), which
 * fails the sanitizer suite; CTest's timeout bounds the binary instead.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "helpers.h"
#include "literature/bot.h"
#include "literature/infer.h"

static LitBotSpec spec_of(const char *text)
{
    LitBotSpec s;
    int st = lit_bot_spec_parse(&s, text, strlen(text));
    cr_assert_eq(st, LIT_OK, "'%s': %s", text, lit_status_name(st));
    return s;
}

Test(bot_spec, parses_and_writes_back)
{
    static const char *const texts[] = {"random", "casual", "basic", "casual:0.75",
                                        "casual:0.125", "casual:1", "casual:0"};
    for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++) {
        LitBotSpec s = spec_of(texts[i]);
        char buf[LIT_BOT_TEXT_MAX];
        cr_assert_gt(lit_bot_spec_format(&s, buf, sizeof buf), 0);
        cr_assert_str_eq(buf, texts[i]);
    }
    cr_assert_eq(spec_of("casual").memory, LIT_CASUAL_MEMORY);
    cr_assert_eq(spec_of("casual:0.75").memory, 750);
    cr_assert_eq(spec_of("casual:.5").memory, 500);
    cr_assert_eq(spec_of("casual:1.000").memory, 1000);
    cr_assert_eq(spec_of("basic").kind, LIT_BOT_BASIC);
}

Test(bot_spec, refuses_with_the_exact_status)
{
    static const struct {
        const char *text;
        int status;
    } bad[] = {
        {"", LIT_UNKNOWN_BOT},          {"Basic", LIT_UNKNOWN_BOT},
        {"grandmaster", LIT_UNKNOWN_BOT}, {"basic ", LIT_UNKNOWN_BOT},
        {"basic:0.5", LIT_BAD_BOT_OPTION}, {"random:1", LIT_BAD_BOT_OPTION},
        {"casual:", LIT_BAD_BOT_OPTION}, {"casual:1.5", LIT_BAD_BOT_OPTION},
        {"casual:2", LIT_BAD_BOT_OPTION}, {"casual:0.1234", LIT_BAD_BOT_OPTION},
        {"casual:-0.5", LIT_BAD_BOT_OPTION}, {"casual:0.5x", LIT_BAD_BOT_OPTION},
        {"casual:.", LIT_BAD_BOT_OPTION},  {"casual:1.001", LIT_BAD_BOT_OPTION},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        LitBotSpec s = {LIT_BOT_RANDOM, 123, 0};
        int st = lit_bot_spec_parse(&s, bad[i].text, strlen(bad[i].text));
        cr_assert_eq(st, bad[i].status, "'%s': got %s, want %s", bad[i].text,
                     lit_status_name(st), lit_status_name(bad[i].status));
        cr_assert(s.kind == LIT_BOT_RANDOM && s.memory == 123, "'%s' changed the spec",
                  bad[i].text);
    }
    char small[4];
    LitBotSpec s = spec_of("casual:0.75");
    cr_assert_eq(lit_bot_spec_format(&s, small, sizeof small), LIT_NO_SPACE);
    LitBot bot;
    LitBotSpec wrong = {LIT_BOT_KINDS, 0, 0};
    cr_assert_eq(lit_bot_init(&bot, &wrong, 1), LIT_BAD_BOT_OPTION);
    LitBotSpec too_much = {LIT_BOT_CASUAL, 1001, 0};
    cr_assert_eq(lit_bot_init(&bot, &too_much, 1), LIT_BAD_BOT_OPTION);
}

Test(bot_act, refuses_views_it_cannot_act_in)
{
    LitGame g;
    LitRules r = rules_of("classic");
    cr_assert_eq(lit_game_new(&g, &r, 7, 0), LIT_OK);
    LitBot bot;
    LitView v;
    LitAction a = lit_action_make(LIT_ASK, 0), before = a;
    cr_assert_eq(lit_bot_init(&bot, &(LitBotSpec){LIT_BOT_BASIC, 0, 0}, 1), LIT_OK);
    int other = (g.pub.turn + 1) % 6;
    lit_view_make(&v, &g, NULL, other);
    cr_assert_eq(lit_bot_act(&bot, &v, &a), LIT_NOT_YOUR_TURN);
    lit_view_make(&v, &g, NULL, LIT_NOBODY);
    cr_assert_eq(lit_bot_act(&bot, &v, &a), LIT_BAD_SEAT);
    lit_view_make(&v, &g, NULL, g.pub.turn);
    v.pub.result = LIT_WIN_A;
    cr_assert_eq(lit_bot_act(&bot, &v, &a), LIT_GAME_OVER);
    cr_assert(memcmp(&a, &before, sizeof a) == 0, "a refusal wrote an action");
}

/* ---- whole games ---------------------------------------------------------- */

typedef struct Played {
    uint32_t actions;
    uint8_t result;
    LitEvent events[LIT_MAX_ACTIONS];
} Played;

/* expert's workspace: static (LIT_BOT_WORK is too much for a stack); each
 * Test() runs in its own process. Lent to every bot (only experts use it). */
static _Alignas(16) unsigned char expert_work[LIT_BOT_WORK];

/* A check of one decision: the game before it, the deciding seat's view. */
typedef void (*Check)(const LitGame *g, const LitView *v, const LitAction *a, uint64_t seed,
                      uint32_t n);

/* Plays a game with bot bots[s % n] at seat s, every action checked by the
 * referee and, when check is not NULL, by check. */
static void play_game_checked(const LitRules *r, uint64_t seed, const char *const *bots, int n,
                              Played *out, Check check)
{
    LitGame g;
    LitLog log;
    LitBot bot[LIT_MAX_PLAYERS];
    lit_log_init(&log, out->events, LIT_MAX_ACTIONS);
    cr_assert_eq(lit_game_new(&g, r, seed, (int)(seed % r->players)), LIT_OK);
    for (int s = 0; s < r->players; s++) {
        LitBotSpec spec = spec_of(bots[s % n]);
        cr_assert_eq(lit_bot_init(&bot[s], &spec, lit_seed_mix(seed, (uint64_t)s)), LIT_OK);
        lit_bot_lend(&bot[s], expert_work, LIT_BOT_WORK);
    }
    while (g.pub.result == LIT_ONGOING) {
        int t = g.pub.turn;
        LitView v;
        LitAction a;
        lit_view_make(&v, &g, &log, t);
        int st = lit_bot_act(&bot[t], &v, &a);
        cr_assert_eq(st, LIT_OK, "%s at seat %d: %s", bots[t % n], t + 1, lit_status_name(st));
        if (check)
            check(&g, &v, &a, seed, log.len + 1);
        st = lit_game_play(&g, &log, &a);
        cr_assert_eq(st, LIT_OK, "%s at seat %d, action %u: refused %s", bots[t % n], t + 1,
                     log.len + 1, lit_status_name(st));
    }
    cr_assert_neq(g.pub.result, LIT_ABORTED, "a livelock: %s", bots[0]);
    out->actions = log.len;
    out->result = g.pub.result;
}

static void play_game(const LitRules *r, uint64_t seed, const char *const *bots, int n,
                      Played *out)
{
    play_game_checked(r, seed, bots, n, out, NULL);
}

static Played played, again;

static const char *const variants[] = {
    "classic", "club", "encyclopedia", "jokers", "quartets", "india",
    "classic misclaim=opponents", "classic misclaim=point-off", "classic claim-time=any-time",
    "classic claim-time=penalty", "classic split-claims=on", "classic after-claim=team",
    "classic bluff=on", "classic must-claim=on", "classic double-high=on early-end=on",
    "classic first=left", "classic pass-play=on", "classic deck=no2", "classic deck=no7",
    "quartets after-claim=team must-claim=on bluff=on pass-play=on",
};

static const char *const lineups[][3] = {
    {"random", "random", "random"}, {"casual", "casual", "casual"},
    {"basic", "basic", "basic"},    {"basic", "random", "basic"},
    {"casual", "basic", "casual"},  {"casual:0", "casual:1", "random"},
};

Test(bot_games, every_bot_under_every_variant_and_player_count)
{
    int games = 0;
    for (size_t v = 0; v < sizeof variants / sizeof variants[0]; v++)
        for (int players = 4; players <= 12; players += 2) {
            char text[128];
            snprintf(text, sizeof text, "%s players=%d", variants[v], players);
            LitRules r = rules_of(text);
            for (size_t l = 0; l < sizeof lineups / sizeof lineups[0]; l++)
                for (uint64_t seed = 1; seed <= 3; seed++, games++)
                    play_game(&r, seed * 1000 + l, lineups[l], 3, &played);
        }
    cr_assert_eq(games, 20 * 5 * 6 * 3);
}

Test(bot_games, the_same_seed_gives_the_same_game)
{
    LitRules r = rules_of("classic players=8");
    for (size_t l = 0; l < sizeof lineups / sizeof lineups[0]; l++) {
        play_game(&r, 42, lineups[l], 3, &played);
        play_game(&r, 42, lineups[l], 3, &again);
        cr_assert_eq(played.actions, again.actions);
        cr_assert(memcmp(played.events, again.events, sizeof(LitEvent) * played.actions) == 0,
                  "lineup %zu: two runs differ", l);
    }
    /* and a different seed another game */
    play_game(&r, 43, lineups[0], 3, &again);
    cr_assert(played.actions != again.actions ||
              memcmp(played.events, again.events, sizeof(LitEvent) * again.actions) != 0);
}

/* A bot kept from one game into another, and moved between seats, reads the
 * new game from its start: its knowledge equals a fresh reading of the view. */
Test(bot_games, a_kept_bot_starts_afresh)
{
    LitRules r = rules_of("classic");
    LitBot bot;
    cr_assert_eq(lit_bot_init(&bot, &(LitBotSpec){LIT_BOT_BASIC, 0, 0}, 5), LIT_OK);
    for (uint64_t seed = 1; seed <= 6; seed++) {
        LitGame g;
        LitLog log;
        lit_log_init(&log, played.events, LIT_MAX_ACTIONS);
        cr_assert_eq(lit_game_new(&g, &r, seed, 0), LIT_OK);
        int steps = 0;
        while (g.pub.result == LIT_ONGOING && steps++ < 40) {
            LitView v;
            LitAction a;
            lit_view_make(&v, &g, &log, g.pub.turn);
            cr_assert_eq(lit_bot_act(&bot, &v, &a), LIT_OK);
            LitKnow fresh;
            cr_assert_eq(lit_know_from_view(&fresh, &v), LIT_OK);
            cr_assert(memcmp(fresh.held, bot.know.held, sizeof fresh.held) == 0 &&
                          memcmp(fresh.may, bot.know.may, sizeof fresh.may) == 0 &&
                          bot.know.seat == v.seat,
                      "game %llu step %d: the kept bot's knowledge is not the view's",
                      (unsigned long long)seed, steps);
            cr_assert_eq(lit_game_play(&g, &log, &a), LIT_OK);
        }
    }
}

/* ---- basic's rule ----------------------------------------------------------- */

/* Whether knowledge k says the ask (c, t) must miss. */
static int sure_miss(const LitKnow *k, int card, int target)
{
    return !(lit_know_candidates(k, card) >> target & 1);
}

Test(bot_basic, asks_no_sure_miss_and_claims_only_when_certain_or_stuck)
{
    static const char *const rules[] = {"classic", "classic players=8", "classic players=4",
                                        "classic bluff=on", "jokers", "quartets",
                                        "classic split-claims=on"};
    int asks = 0, claims = 0, stuck_claims = 0;
    for (size_t ri = 0; ri < sizeof rules / sizeof rules[0]; ri++) {
        LitRules r = rules_of(rules[ri]);
        for (uint64_t seed = 1; seed <= 40; seed++) {
            LitGame g;
            LitLog log;
            LitBot bot[LIT_MAX_PLAYERS];
            lit_log_init(&log, played.events, LIT_MAX_ACTIONS);
            cr_assert_eq(lit_game_new(&g, &r, seed, 0), LIT_OK);
            for (int s = 0; s < r.players; s++)
                lit_bot_init(&bot[s], &(LitBotSpec){(uint8_t)(s % 2 ? LIT_BOT_BASIC : LIT_BOT_CASUAL), 500, 0},
                             seed * 31 + (uint64_t)s);
            while (g.pub.result == LIT_ONGOING) {
                int t = g.pub.turn;
                LitView v;
                LitAction a;
                lit_view_make(&v, &g, &log, t);
                cr_assert_eq(lit_bot_act(&bot[t], &v, &a), LIT_OK);
                if (t % 2 == 1) {
                    LitKnow k;
                    cr_assert_eq(lit_know_from_view(&k, &v), LIT_OK);
                    /* could any legal ask hit? */
                    LitAction legal[LIT_MAX_LEGAL];
                    int n = lit_view_legal(&v, legal, LIT_MAX_LEGAL), may_hit = 0;
                    for (int i = 0; i < n; i++)
                        if (legal[i].kind == LIT_ASK && !sure_miss(&k, legal[i].card, legal[i].target))
                            may_hit = 1;
                    if (a.kind == LIT_ASK) {
                        asks++;
                        cr_assert(!may_hit || !sure_miss(&k, a.card, a.target),
                                  "%s seed %llu: basic asked a sure miss while another ask may hit",
                                  rules[ri], (unsigned long long)seed);
                    }
                    if (a.kind == LIT_CLAIM && g.pub.phase != LIT_PHASE_ENDGAME) {
                        int deck = r.deck, first = lit_set_first(deck, a.set), sure = 1;
                        for (int i = 0; i < lit_deck_set_size(deck); i++)
                            if ((g.pub.live >> (first + i) & 1) &&
                                lit_know_holder(&k, first + i) != a.holders[i])
                                sure = 0;
                        claims++;
                        if (!sure) {
                            stuck_claims++;
                            cr_assert(!may_hit, "%s seed %llu: basic claimed without certainty "
                                                "while an ask may hit",
                                      rules[ri], (unsigned long long)seed);
                        }
                    }
                }
                cr_assert_eq(lit_game_play(&g, &log, &a), LIT_OK);
            }
        }
    }
    cr_assert_gt(asks, 1000);
    cr_assert_gt(claims, 100);
    cr_assert_lt(stuck_claims, claims / 2, "stuck claims %d of %d", stuck_claims, claims);
}

/* ---- casual's memory -------------------------------------------------------- */

Test(bot_casual, remembers_as_much_as_its_setting)
{
    LitRules r = rules_of("classic");
    static const char *const all_random[] = {"random"};
    play_game(&r, 9, all_random, 1, &played);
    /* Replay the first half of the game into casual bots at seat 1 by
     * asking them to act on views of it (they read every event first). */
    for (int memory = 0; memory <= 1000; memory += 1000) {
        LitGame g;
        LitLog log;
        LitEvent ev[LIT_MAX_ACTIONS];
        lit_log_init(&log, ev, LIT_MAX_ACTIONS);
        cr_assert_eq(lit_game_new(&g, &r, 9, (int)(9 % r.players)), LIT_OK);
        uint32_t half = played.actions / 2;
        for (uint32_t i = 0; i < half; i++)
            cr_assert_eq(lit_game_play(&g, &log, &played.events[i].action), LIT_OK);
        LitBot bot;
        lit_bot_init(&bot, &(LitBotSpec){LIT_BOT_CASUAL, (uint16_t)memory, 0}, 3);
        LitView v;
        lit_view_make(&v, &g, &log, g.pub.turn);
        LitAction a;
        cr_assert_eq(lit_bot_act(&bot, &v, &a), LIT_OK);
        /* the last hit on each card, as a perfect memory keeps it */
        uint8_t holder[LIT_MAX_CARDS];
        memset(holder, LIT_NOBODY, sizeof holder);
        uint64_t lacks[LIT_MAX_PLAYERS] = {0};
        for (uint32_t i = 0; i < half; i++) {
            const LitEvent *e = &ev[i];
            if (e->action.kind != LIT_ASK)
                continue;
            if (e->answer == LIT_HIT) {
                holder[e->action.card] = e->action.seat;
                lacks[e->action.seat] &= ~lit_bit(e->action.card);
            } else {
                lacks[e->action.target] |= lit_bit(e->action.card);
                lacks[e->action.seat] |= lit_bit(e->action.card);
            }
        }
        for (int c = 0; c < LIT_MAX_CARDS; c++)
            cr_assert_eq(bot.memory.holder[c], memory ? holder[c] : LIT_NOBODY,
                         "memory %d card %d", memory, c);
        for (int s = 0; s < r.players; s++)
            cr_assert_eq(bot.memory.lacks[s], memory ? lacks[s] : 0, "memory %d seat %d", memory,
                         s + 1);
    }
}

/* ---- expert ----------------------------------------------------------------- */


/* expert's and master's texts (the rollouts), and the workspace both need */
static void searching_spec_and_workspace(const char *kind)
{
    char text[64];
    snprintf(text, sizeof text, "%s", kind);
    cr_assert_eq(spec_of(text).rollouts, LIT_EXPERT_ROLLOUTS);
    cr_assert(lit_bot_searches(spec_of(text).kind));
    snprintf(text, sizeof text, "%s:0", kind);
    cr_assert_eq(spec_of(text).rollouts, 0);
    snprintf(text, sizeof text, "%s:200", kind);
    cr_assert_eq(spec_of(text).rollouts, 200);
    static const char *const args[] = {"", ":0", ":7", ":100000"};
    for (size_t i = 0; i < sizeof args / sizeof args[0]; i++) {
        snprintf(text, sizeof text, "%s%s", kind, args[i]);
        LitBotSpec s = spec_of(text);
        char buf[LIT_BOT_TEXT_MAX];
        cr_assert_gt(lit_bot_spec_format(&s, buf, sizeof buf), 0);
        cr_assert_str_eq(buf, text);
    }
    static const char *const bad[] = {":", ":x", ":100001", ":-1", ":1.5", ":1234567"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        LitBotSpec s;
        snprintf(text, sizeof text, "%s%s", kind, bad[i]);
        cr_assert_eq(lit_bot_spec_parse(&s, text, strlen(text)), LIT_BAD_BOT_OPTION, "%s", text);
    }
    /* without a workspace, or with too small a one, it says so */
    LitGame g;
    LitRules r = rules_of("classic");
    cr_assert_eq(lit_game_new(&g, &r, 3, 0), LIT_OK);
    LitBot bot;
    LitBotSpec s = spec_of(kind);
    cr_assert_eq(lit_bot_init(&bot, &s, 1), LIT_OK);
    LitView v;
    LitAction a;
    lit_view_make(&v, &g, NULL, g.pub.turn);
    cr_assert_eq(lit_bot_act(&bot, &v, &a), LIT_NO_SPACE);
    lit_bot_lend(&bot, expert_work, LIT_BOT_WORK - 1);
    cr_assert_eq(lit_bot_act(&bot, &v, &a), LIT_NO_SPACE);
    lit_bot_lend(&bot, expert_work, LIT_BOT_WORK);
    cr_assert_eq(lit_bot_act(&bot, &v, &a), LIT_OK);
    cr_assert_eq(lit_game_check(&g, &a), LIT_OK);
}

Test(bot_expert, spec_and_workspace)
{
    searching_spec_and_workspace("expert");
    cr_assert(!lit_bot_searches(LIT_BOT_BASIC) && !lit_bot_searches(LIT_BOT_CASUAL) &&
              !lit_bot_searches(LIT_BOT_RANDOM));
}

Test(bot_master, spec_and_workspace)
{
    searching_spec_and_workspace("master");
    cr_assert_eq(spec_of("master").kind, LIT_BOT_MASTER);
    cr_assert_str_eq(lit_bot_kind_name(LIT_BOT_MASTER), "master");
}

/* Why a move: lit_bot_chance is the seat's exact odds of the move, an
 * ask's that the target holds the card and a claim's that its placement is
 * right (bounded by the likeliest's when another placement is named); a
 * pass has none, and a small workspace is said. */
Test(bot_chance, is_the_seats_odds_of_the_move)
{
    LitRules r = rules_of("classic");
    LitGame g;
    cr_assert_eq(lit_game_new(&g, &r, 11, 0), LIT_OK);
    LitEvent events[64];
    LitLog log = {events, 0, 64};
    LitBot basic[6];
    LitBotSpec bs = spec_of("basic");
    for (int s = 0; s < 6; s++)
        cr_assert_eq(lit_bot_init(&basic[s], &bs, (uint64_t)s), LIT_OK);
    for (int i = 0; i < 24 && g.pub.result == LIT_ONGOING; i++) {
        LitView v;
        LitAction a;
        lit_view_make(&v, &g, &log, g.pub.turn);
        cr_assert_eq(lit_bot_act(&basic[g.pub.turn], &v, &a), LIT_OK);
        cr_assert_eq(lit_game_play(&g, &log, &a), LIT_OK);
    }
    cr_assert_eq(g.pub.result, LIT_ONGOING);
    int me = g.pub.turn;
    LitView v;
    lit_view_make(&v, &g, &log, me);
    static LitOdds odds;
    LitKnow k;
    cr_assert_eq(lit_know_from_view(&k, &v), LIT_OK);
    cr_assert_eq(lit_odds(&k, expert_work, LIT_ODDS_WORK, &odds), LIT_OK);
    cr_assert(odds.exact);
    LitAction legal[LIT_MAX_LEGAL];
    int n = lit_game_legal(&g, me, legal, LIT_MAX_LEGAL), asks = 0;
    for (int i = 0; i < n; i++) {
        if (legal[i].kind != LIT_ASK)
            continue;
        double p = -1;
        int at_most = -1;
        cr_assert_eq(lit_bot_chance(&v, &legal[i], 1, expert_work, LIT_BOT_WORK, &p, &at_most),
                     LIT_OK);
        cr_assert_eq(p, odds.p[legal[i].card][legal[i].target]);
        cr_assert_eq(at_most, 0);
        asks++;
    }
    cr_assert_gt(asks, 0);
    /* a claim of a live set: the likeliest placement, then another */
    int team = lit_team_of(me), set = lit_set_of(r.deck, lit_lsb(g.pub.live));
    LitAction c = lit_action_make(LIT_CLAIM, me);
    c.set = (uint8_t)set;
    memcpy(c.holders, odds.best[team][set], sizeof c.holders);
    double p = -1;
    int at_most = -1;
    cr_assert_eq(lit_bot_chance(&v, &c, 1, expert_work, LIT_BOT_WORK, &p, &at_most), LIT_OK);
    cr_assert_eq(p, odds.best_p[team][set]);
    cr_assert_eq(at_most, 0);
    c.holders[0] = (uint8_t)(c.holders[0] == me ? (me + 2) % 6 : me);
    cr_assert_eq(lit_bot_chance(&v, &c, 1, expert_work, LIT_BOT_WORK, &p, &at_most), LIT_OK);
    cr_assert_eq(p, odds.best_p[team][set], "the likeliest's, which bounds it");
    cr_assert_eq(at_most, 1);
    /* none for a pass; a small workspace; either leaves the figures alone */
    LitAction pass = lit_action_make(LIT_PASS, me);
    pass.target = (uint8_t)((me + 2) % 6);
    p = 7;
    at_most = 7;
    cr_assert_eq(lit_bot_chance(&v, &pass, 1, expert_work, LIT_BOT_WORK, &p, &at_most),
                 LIT_BAD_ACTION);
    cr_assert_eq(lit_bot_chance(&v, &c, 1, expert_work, LIT_BOT_WORK - 1, &p, &at_most),
                 LIT_NO_SPACE);
    cr_assert(p == 7 && at_most == 7);
}

/* A claim of team A's expert (not in the endgame) is decided by the exact
 * odds of the seat's view: sure, or an expected gain of at least 0.5 of the
 * set, or stuck; and it names the likeliest placement. */
static void check_expert_claim(const LitGame *g, const LitView *v, const LitAction *a,
                               uint64_t seed, uint32_t n_action)
{
    static LitOdds odds;
    static _Alignas(16) unsigned char work[LIT_ODDS_WORK];
    int t = v->seat;
    if (t % 2 != 0 || a->kind != LIT_CLAIM || g->pub.phase == LIT_PHASE_ENDGAME)
        return;
    LitKnow k;
    cr_assert_eq(lit_know_from_view(&k, v), LIT_OK);
    cr_assert_eq(lit_odds(&k, work, sizeof work, &odds), LIT_OK);
    cr_assert(odds.exact);
    int team = lit_team_of(t);
    double p = odds.best_p[team][a->set], q = odds.team_all[team][a->set];
    double gain = p - (1 - q);
    LitAction legal[LIT_MAX_LEGAL];
    int n = lit_view_legal(v, legal, LIT_MAX_LEGAL), may_hit = 0;
    for (int i = 0; i < n; i++)
        if (legal[i].kind == LIT_ASK && odds.p[legal[i].card][legal[i].target] > 0)
            may_hit = 1;
    cr_assert(p >= 1.0 - 1e-12 || gain >= 0.5 - 1e-12 || !may_hit,
              "seed %llu action %u: claim with p %.3f q %.3f while an ask may hit",
              (unsigned long long)seed, n_action, p, q);
    for (int i = 0; i < lit_deck_set_size(g->pub.rules.deck); i++)
        cr_assert_eq(a->holders[i], odds.best[team][a->set][i]);
}

/* Plays a game with expert (spec) on team A and basic, or other, on team
 * B. */
static void expert_game_against(const LitRules *r, uint64_t seed, const char *spec,
                                const char *other, Played *out, int check_claims)
{
    const char *bots[2] = {spec, other};
    play_game_checked(r, seed, bots, 2, out, check_claims ? check_expert_claim : NULL);
}

static void expert_game(const LitRules *r, uint64_t seed, const char *spec, Played *out,
                        int check_claims)
{
    expert_game_against(r, seed, spec, "basic", out, check_claims);
}

/* Whole games of spec against other under every stride-th variant at 4
 * and 6 players, and at 8 and from big (10 or 12) to 12 under classic
 * rules. */
static void searching_games(const char *spec, const char *other, size_t first, size_t stride,
                            int big)
{
    for (size_t v = first; v < sizeof variants / sizeof variants[0]; v += stride)
        for (int players = 4; players <= 6; players += 2) {
            char text[128];
            snprintf(text, sizeof text, "%s players=%d", variants[v], players);
            LitRules r = rules_of(text);
            expert_game_against(&r, v * 10 + (uint64_t)players, spec, other, &played, 0);
        }
    /* 10 and 12 players: beyond the state budget early on, estimates */
    for (int players = big; players <= 12; players += 2) {
        char text[64];
        snprintf(text, sizeof text, "classic players=%d", players);
        LitRules r = rules_of(text);
        expert_game_against(&r, 5, spec, other, &played, 0);
    }
#ifndef __SANITIZE_ADDRESS__
    /* 8 players counts exactly at every position: up to a second a decision
     * early on, too slow under the sanitizers */
    LitRules r8 = rules_of("classic players=8");
    expert_game_against(&r8, 5, spec, other, &played, 0);
#endif
}

/* Under the sanitizers expert plays the even variants and master the odd
 * ones (every variant met once there; master's decision is expert's, and
 * its own part, its beliefs, is test_master.c's), and master of 10 and 12
 * players the 12 only (its game of 10 was 20 s of that suite, the same
 * code as the 12's); the normal build plays every variant and size with
 * both. */
Test(bot_expert, plays_every_variant_and_player_count)
{
    searching_games("expert:8", "basic", 0, TEST_SANITIZED ? 2 : 1, 10);
}

Test(bot_master, plays_every_variant_and_player_count)
{
    searching_games("master:8", "basic", TEST_SANITIZED, TEST_SANITIZED ? 2 : 1,
                    TEST_SANITIZED ? 12 : 10);
}

Test(bot_master, repeats_for_a_seed)
{
    LitRules r = rules_of("classic");
    expert_game_against(&r, 77, "master:16", "master:4", &played, 0);
    expert_game_against(&r, 77, "master:16", "master:4", &again, 0);
    cr_assert_eq(played.actions, again.actions);
    cr_assert(memcmp(played.events, again.events, sizeof(LitEvent) * played.actions) == 0,
              "master: two runs of one seed differ");
}

Test(bot_expert, claims_by_the_exact_odds_and_repeats)
{
    LitRules r = rules_of("classic");
    for (uint64_t seed = 1; seed <= 12; seed++)
        expert_game(&r, seed, "expert:0", &played, 1);
    expert_game(&r, 77, "expert:16", &played, 0);
    expert_game(&r, 77, "expert:16", &again, 0);
    cr_assert_eq(played.actions, again.actions);
    cr_assert(memcmp(played.events, again.events, sizeof(LitEvent) * played.actions) == 0,
              "expert: two runs of one seed differ");
}
