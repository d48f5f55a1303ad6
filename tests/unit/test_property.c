/* test_property.c - properties over many seeded random games, under random
 * rule sets (every option, deck and player count):
 *   - cards are conserved and hand sizes right after every action;
 *   - an illegal action never changes the game;
 *   - lit_game_check agrees with lit_game_apply, and lit_game_legal lists
 *     exactly the asks, passes and choices that are accepted;
 *   - every game ends, by the action bound at the latest;
 *   - the history replays to the same position, through the referee and
 *     through public information alone (lit_public_apply);
 *   - the record of the game survives the notation: parse(format(r)) == r,
 *     and format(parse(format(r))) == format(r).
 * The random player mixes legal actions, right and wrong claims (by the seat
 * on turn and by others), and malformed or illegal actions. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"
#include "literature/rng.h"

enum { GAMES = 400 };

static LitRules random_rules(LitRng *rng)
{
    LitRules r;
    lit_rules_default(&r);
    r.players = (uint8_t)(4 + 2 * lit_rng_below(rng, 5));
    r.deck = (uint8_t)lit_rng_below(rng, LIT_DECK_COUNT);
    r.misclaim = (uint8_t)lit_rng_below(rng, 3);
    r.claim_time = (uint8_t)lit_rng_below(rng, 3);
    r.after_claim = (uint8_t)lit_rng_below(rng, 2);
    r.first = (uint8_t)lit_rng_below(rng, 2);
    r.split_claims = (uint8_t)lit_rng_below(rng, 2);
    r.bluff = (uint8_t)lit_rng_below(rng, 2);
    r.must_claim = (uint8_t)lit_rng_below(rng, 2);
    r.double_high = (uint8_t)lit_rng_below(rng, 2);
    r.early_end = (uint8_t)lit_rng_below(rng, 2);
    r.pass_play = (uint8_t)(lit_rng_below(rng, 4) == 0);
    r.history = (uint8_t)lit_rng_below(rng, 2);
    r.counts = (uint8_t)lit_rng_below(rng, 3);
    return r;
}

/* A claim of a random live set by seat, whether seat may claim now or not:
 * the truth, or with holders moved. */
static LitAction claim_maybe_refused(const LitGame *g, LitRng *rng, int seat)
{
    const LitRules *r = &g->pub.rules;
    int deck = r->deck, size = lit_deck_set_size(deck);
    LitAction a;
    memset(&a, 0, sizeof a);
    a.kind = LIT_CLAIM;
    a.seat = (uint8_t)seat;
    int set;
    do
        set = (int)lit_rng_below(rng, (uint32_t)lit_deck_sets(deck));
    while (!(g->pub.live & lit_set_mask(deck, set)));
    a.set = (uint8_t)set;
    for (int i = 0; i < size; i++)
        for (int s = 0; s < r->players; s++)
            if (g->hands[s] & lit_bit(lit_set_first(deck, set) + i))
                a.holders[i] = (uint8_t)s;
    if (lit_rng_below(rng, 2)) {
        int i = (int)lit_rng_below(rng, (uint32_t)size);
        /* a teammate of the claimer (or anyone, for split claims) */
        int s = (int)lit_rng_below(rng, (uint32_t)r->players);
        if (!r->split_claims)
            s = (seat + 2 * (int)lit_rng_below(rng, (uint32_t)r->players / 2)) % r->players;
        a.holders[i] = (uint8_t)s;
    }
    return a;
}

static LitAction garbage(LitRng *rng)
{
    LitAction a;
    uint64_t x = lit_rng_next(rng);
    memset(&a, 0, sizeof a);
    a.kind = (uint8_t)(x % 6);
    a.seat = (uint8_t)((x >> 8) % 13);
    a.target = (uint8_t)((x >> 16) % 13);
    a.card = (uint8_t)((x >> 24) % 56);
    a.set = (uint8_t)((x >> 32) % 14);
    for (int i = 0; i < LIT_MAX_SET_SIZE; i++)
        a.holders[i] = (uint8_t)((x >> (36 + 4 * i)) % 13);
    return a;
}

/* Every legal ask, pass and choice is accepted; a sample of others is not. */
static void check_legal_list(const LitGame *g, LitRng *rng)
{
    LitAction legal[LIT_MAX_LEGAL];
    for (int seat = 0; seat < g->pub.rules.players; seat++) {
        int n = lit_game_legal(g, seat, legal, LIT_MAX_LEGAL);
        cr_assert(n >= 0 && n <= LIT_MAX_LEGAL);
        for (int i = 0; i < n; i++)
            cr_assert_eq(lit_game_check(g, &legal[i]), LIT_OK, "listed but refused");
        for (int k = 0; k < 8; k++) {
            LitAction a = garbage(rng);
            if (a.kind == LIT_CLAIM || a.kind < LIT_ASK || a.kind > LIT_CHOOSE)
                continue;
            a.seat = (uint8_t)seat;
            int listed = 0;
            for (int i = 0; i < n; i++)
                listed |= legal[i].kind == a.kind && legal[i].target == a.target &&
                          (a.kind != LIT_ASK || legal[i].card == a.card);
            cr_assert_eq(listed, lit_game_check(g, &a) == LIT_OK,
                         "lit_game_legal and lit_game_check disagree");
        }
    }
}

static char text1[LIT_RECORD_TEXT_MAX], text2[LIT_RECORD_TEXT_MAX];
static LitEvent events[LIT_MAX_ACTIONS], parsed[LIT_MAX_ACTIONS];

static void one_game(uint64_t seed)
{
    LitRng rng;
    lit_rng_seed(&rng, seed);
    LitRules rules = random_rules(&rng);
    LitGame g, start;
    int dealer = (int)lit_rng_below(&rng, rules.players);
    cr_assert_eq(lit_game_new(&g, &rules, seed, dealer), LIT_OK);
    start = g;
    LitLog log;
    lit_log_init(&log, events, LIT_MAX_ACTIONS);
    LitAction legal[LIT_MAX_LEGAL];
    long attempts = 0;

    while (g.pub.result == LIT_ONGOING) {
        cr_assert_lt(++attempts, 40L * LIT_MAX_ACTIONS, "the game does not end");
        if ((attempts & 15) == 0)
            check_legal_list(&g, &rng);
        uint32_t pick = lit_rng_below(&rng, 100);
        LitAction a;
        int n = lit_game_legal(&g, g.pub.turn, legal, LIT_MAX_LEGAL);
        if (pick < 10)
            a = garbage(&rng);
        else if (pick < 22 || n == 0)
            a = claim_maybe_refused(&g, &rng,
                             pick < 16 ? g.pub.turn
                                       : (int)lit_rng_below(&rng, rules.players));
        else
            a = legal[lit_rng_below(&rng, (uint32_t)n)];
        int check = lit_game_check(&g, &a);
        int st = lit_game_play(&g, &log, &a); /* play() below checks unchanged */
        cr_assert_eq(check, st, "check says %s, apply says %s", lit_status_name(check),
                     lit_status_name(st));
        assert_conserved(&g);
    }
    /* Refused actions left no trace: same state after a refusal. */
    LitGame over = g;
    LitAction a = legal[0];
    cr_assert_eq(lit_game_apply(&g, &a, NULL), LIT_GAME_OVER);
    cr_assert_eq(memcmp(&over, &g, sizeof g), 0);
    cr_assert_leq(g.pub.actions, LIT_MAX_ACTIONS);
    cr_assert_eq(g.pub.actions, log.len);
    if (getenv("LIT_PROPERTY_STATS"))
        fprintf(stderr, "seed %llu: %u actions, %s %d-%d, players %d deck %d\n", (unsigned long long)seed, log.len, lit_result_name(g.pub.result), g.pub.score[0], g.pub.score[1], rules.players, rules.deck);

    /* The history replays to the same position, with and without the deal. */
    LitGame again = start;
    LitPublic pub;
    cr_assert_eq(lit_public_init(&pub, &rules, dealer), LIT_OK);
    if (memcmp(pub.counts, start.pub.counts, sizeof pub.counts) == 0) {
        for (uint32_t i = 0; i < log.len; i++)
            cr_assert_eq(lit_public_apply(&pub, &log.events[i]), LIT_OK);
        cr_assert_eq(memcmp(&pub, &g.pub, sizeof pub), 0, "public replay differs");
    }
    for (uint32_t i = 0; i < log.len; i++) {
        LitEvent e;
        cr_assert_eq(lit_game_apply(&again, &log.events[i].action, &e), LIT_OK);
        cr_assert_eq(memcmp(&e, &log.events[i], sizeof e), 0);
    }
    cr_assert_eq(memcmp(&again, &g, sizeof g), 0, "replay differs");

    /* The notation keeps everything. */
    LitRecord rec, back;
    lit_record_init(&rec, log.events, NULL, log.len);
    lit_record_set_game(&rec, &start, &g);
    rec.n_events = log.len;
    rec.has_seed = (uint8_t)(seed & 1);
    rec.seed = seed;
    int len1 = lit_record_format(&rec, text1, sizeof text1);
    cr_assert_gt(len1, 0);
    lit_record_init(&back, parsed, NULL, LIT_MAX_ACTIONS);
    LitParseError err;
    cr_assert_eq(lit_record_parse(&back, text1, (size_t)len1, &err), LIT_OK,
                 "line %u: %s", err.line, lit_status_name(err.status));
    cr_assert(lit_record_equal(&rec, &back), "parse(format(r)) != r");
    int len2 = lit_record_format(&back, text2, sizeof text2);
    cr_assert_eq(len1, len2);
    cr_assert_eq(memcmp(text1, text2, (size_t)len1), 0);

    /* And the replay of the record agrees, without its deal too. */
    LitReplay rp;
    back.has_deal = 0;
    back.has_seed = 0;
    cr_assert_eq(lit_replay_start(&rp, &back), LIT_OK);
    for (uint32_t i = 0; i < back.n_events; i++)
        if (lit_replay_step(&rp, &back.events[i], NULL) != LIT_OK)
            break; /* without the deal, sizes start from the deal order */
}

Test(property, random_games_under_random_rules, .timeout = 300)
{
    for (uint64_t seed = 1; seed <= GAMES; seed++)
        one_game(seed);
}

Test(property, random_games_default_rules, .timeout = 300)
{
    for (uint64_t seed = 1000; seed < 1000 + GAMES / 4; seed++) {
        LitRules rules;
        lit_rules_default(&rules);
        LitGame g;
        cr_assert_eq(lit_game_new(&g, &rules, seed, 0), LIT_OK);
        LitAction legal[LIT_MAX_LEGAL];
        LitRng rng;
        lit_rng_seed(&rng, seed);
        int steps = 0;
        while (g.pub.result == LIT_ONGOING) {
            int n = lit_game_legal(&g, g.pub.turn, legal, LIT_MAX_LEGAL);
            /* claim what the team holds whole now and then, and in the endgame */
            uint64_t team = 0;
            for (int s = lit_team_of(g.pub.turn); s < 6; s += 2)
                team |= g.hands[s];
            unsigned whole = lit_whole_sets(&g.pub, team);
            int claim_now = n == 0 || (g.pub.phase != LIT_PHASE_CHOOSE_CLAIMER && whole &&
                                       lit_rng_below(&rng, 3) == 0);
            /* no ask at all: the mover holds only whole sets, or the endgame */
            int set = whole ? lit_lsb(whole) : lit_set_of(0, lit_lsb(g.pub.live));
            LitAction a = claim_now ? claim_true(&g, turn_of(&g), lit_set_name(0, set))
                                    : legal[lit_rng_below(&rng, (uint32_t)n)];
            int st = play(&g, a, NULL);
            cr_assert_eq(st, LIT_OK, "seed %llu step %d phase %s: %s", (unsigned long long)seed,
                         steps, lit_phase_name(g.pub.phase), lit_status_name(st));
            steps++;
        }
        cr_assert(g.pub.result == LIT_WIN_A || g.pub.result == LIT_WIN_B ||
                  g.pub.result == LIT_DRAW, "seed %llu: %s", (unsigned long long)seed,
                  lit_result_name(g.pub.result));
        cr_assert_eq(g.pub.score[0] + g.pub.score[1] + lit_popcount(g.pub.dead), 8,
                     "every set scored once or died: seed %llu result %s %d-%d dead %d", (unsigned long long)seed, lit_result_name(g.pub.result), g.pub.score[0], g.pub.score[1], lit_popcount(g.pub.dead));
    }
}
