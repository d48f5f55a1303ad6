/* fuzz_infer.c - the deduction layer (include/literature/infer.h) on random
 * views of random legal games.
 *
 * The header of game_bytes.h chooses the rules (4 or 6 players, or 8 when
 * the first byte's top bit is set too, so that one input counts in well
 * under 10 ms), the seed and the dealer; one more byte
 * the viewer (a seat, or the public view); then every 4 bytes make a legal
 * action or a claim from the true hands (game_bytes.h with the selector's
 * top bits set; refused claims are skipped). The knowledge of the viewer
 * follows every event (lit_know_apply) and is checked at every position.
 * The last position before the game ends that is cheap enough to count
 * (blocks(), below: at 4 players every position, at 6 at most 3 sets of
 * the dynamic program from a seat's view and 2 in the public view, at 8 at
 * most 2 and 1) is
 * rebuilt from the view (lit_know_from_view), counted exactly (lit_odds)
 * and sampled (LitSampler).
 *
 * Invariants: certain knowledge never contradicts the true hands (placed
 * cards are where it says, every card's true holder is a candidate, the
 * least holdings per set are held, the slots are the cards not placed), it
 * stays consistent, and the view rebuilds it byte for byte; the odds are
 * exact, count the true deal (at least one deal), give every true holder a
 * positive probability and every impossible holder 0, probabilities are in
 * [0, 1], for each live card they sum to 1 over the seats and for each seat
 * to its hand size over the cards; claim figures are probabilities with
 * P(best placement) <= P(the team holds the set), positive for a set the
 * team truly holds; the sampler counts the same deals, and every deal it
 * draws keeps the placed cards and the hand sizes and replays the history
 * (deal_fits). */
#include <math.h>
#include <stdalign.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "game_bytes.h"
#include "literature/infer.h"
#include "literature/status.h"
#include "literature/view.h"
#include "../src/infer/counting.h"
#include "../tests/support/deal_fits.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* At 8 players, the most blocks counted (blocks(), below) from a seat and
 * in public. Measured as for 6 players (2026-11-24, 300 random 8-player
 * inputs under the fuzzer's instrumentation, libFuzzer's time per input):
 * with 2 and 1, 99 in 100 took at most 11 ms and the worst 14 (the median
 * 1); with 3 and 2 one in a hundred took over 60 ms and the worst 153; with
 * 4 and 3, 238 and 433. */
enum { MOST_8_SEAT = 2, MOST_8_PUBLIC = 1 };

/* lit_odds' workspace and the sampler's, once for the whole run. */
static alignas(max_align_t) unsigned char work[LIT_ODDS_WORK];
static LitEvent events[LIT_MAX_ACTIONS];
static LitOdds odds;

/* The knowledge k of a viewer agrees with the game g. */
static void check_sound(const LitKnow *k, const LitGame *g)
{
    int deck = g->pub.rules.deck, players = g->pub.rules.players;
    if (!k->consistent || memcmp(&k->pub, &g->pub, sizeof k->pub) != 0)
        abort();
    uint64_t placed = 0;
    for (int s = 0; s < players; s++) {
        if (k->held[s] & ~g->hands[s] || placed & k->held[s])
            abort();
        placed |= k->held[s];
        if (k->slots[s] != g->pub.counts[s] - lit_popcount(k->held[s]))
            abort();
        /* the cards of s not placed are cards s may hold */
        if (g->hands[s] & ~k->held[s] & ~k->may[s])
            abort();
        for (int set = 0; set < lit_deck_sets(deck); set++)
            if (lit_know_min_hold(k, s, set) >
                lit_popcount(g->hands[s] & lit_set_mask(deck, set)))
                abort();
    }
    if (k->seat != LIT_NOBODY && k->held[k->seat] != g->hands[k->seat])
        abort(); /* a seat knows its own hand */
    for (uint64_t live = g->pub.live; live;) {
        int c = lit_pop_lsb(&live);
        int h = lit_know_holder(k, c);
        for (int s = 0; s < players; s++)
            if (g->hands[s] & lit_bit(c) &&
                (!(lit_know_candidates(k, c) >> s & 1) || (h != LIT_NOBODY && h != s)))
                abort();
    }
}

static int true_holder(const LitGame *g, int card)
{
    for (int s = 0; s < g->pub.rules.players; s++)
        if (g->hands[s] & lit_bit(card))
            return s;
    abort(); /* a live card in no hand */
}

/* lit_odds at the position (g, k) agrees with the true hands and itself. */
static void check_odds(const LitKnow *k, const LitGame *g)
{
    const LitPublic *p = &g->pub;
    int deck = p->rules.deck, players = p->rules.players;
    if (lit_odds(k, work, sizeof work, &odds) != LIT_OK || !odds.exact ||
        lit_u192_is_zero(&odds.deals))
        abort();
    double seat_sum[LIT_MAX_PLAYERS] = {0};
    for (uint64_t live = p->live; live;) {
        int c = lit_pop_lsb(&live);
        int truth = true_holder(g, c), holder = lit_know_holder(k, c);
        unsigned cand = lit_know_candidates(k, c);
        if (!(odds.p[c][truth] > 0.0))
            abort();
        double sum = 0;
        for (int s = 0; s < players; s++) {
            double q = odds.p[c][s];
            if (!(q >= 0.0 && q <= 1.0) || (!(cand >> s & 1) && q != 0.0) ||
                (holder == s && q != 1.0))
                abort();
            sum += q;
            seat_sum[s] += q;
        }
        if (fabs(sum - 1.0) > 1e-9)
            abort();
    }
    for (int s = 0; s < players; s++)
        if (fabs(seat_sum[s] - p->counts[s]) > 1e-9)
            abort();
    for (int t = 0; t < 2; t++) {
        if (k->seat != LIT_NOBODY && t != lit_team_of(k->seat))
            continue; /* a seat's figures are its own team's */
        uint64_t team = 0;
        for (int s = t; s < players; s += 2)
            team |= g->hands[s];
        for (int set = 0; set < lit_deck_sets(deck); set++) {
            uint64_t m = lit_set_mask(deck, set);
            if (!(p->live & m))
                continue;
            double all = odds.team_all[t][set], best = odds.best_p[t][set];
            if (!(all >= 0.0 && all <= 1.0 && best >= 0.0 && best <= 1.0) ||
                best > all + 1e-12 || ((team & m) == m && !(all > 0.0)))
                abort();
        }
    }
}

/* The sets that are blocks of lit_odds' dynamic program: sets with cards not
 * placed that are not free (free_sets_of). What counting costs grows
 * with them. At 6 players under the fuzzer's instrumentation (2026-11-24,
 * random positions): from a seat's view with 5 or more blocks one input in
 * ten took over 15 ms, in the public view with 5 or more one in ten took
 * over 100 ms and the worst up to a second. With at most 3 blocks from a
 * seat and 2 in public, 99 inputs in 100 of a fuzzing run took under 10 ms
 * (the median under 1 ms). At 4 players every position is counted. */
static int blocks(const LitKnow *k)
{
    int deck = k->pub.rules.deck, n = 0;
    unsigned free_sets = free_sets_of(k);
    uint64_t unplaced = free_unplaced(k);
    for (int set = 0; set < lit_deck_sets(deck); set++)
        n += !(free_sets >> set & 1) && (unplaced & lit_set_mask(deck, set));
    return n;
}

/* The sampler counts what lit_odds counted, and its draws fit the view. */
static void check_draws(const LitKnow *k, const LitLog *log, uint64_t seed)
{
    LitSampler *sampler;
    int st = lit_sampler_init(&sampler, k, work, sizeof work);
    if (st == LIT_NO_SPACE)
        return; /* it keeps more than lit_odds: allowed (infer.h) */
    LitU192 deals = lit_sampler_deals(sampler);
    if (st != LIT_OK || lit_u192_cmp(&deals, &odds.deals) != 0)
        abort();
    const LitRules *r = &k->pub.rules;
    LitRng rng;
    lit_rng_seed(&rng, seed);
    for (int i = 0; i < 2; i++) {
        uint64_t hands[LIT_MAX_PLAYERS], all = 0;
        lit_sampler_draw(sampler, &rng, hands);
        for (int s = 0; s < r->players; s++) {
            if ((hands[s] & k->held[s]) != k->held[s] || all & hands[s] ||
                lit_popcount(hands[s]) != k->pub.counts[s])
                abort();
            all |= hands[s];
        }
        if (all != k->pub.live || !deal_fits(r, k->pub.dealer, hands, log))
            abort();
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < GB_HEADER + 1)
        return 0;
    LitRules rules;
    gb_rules(&rules, data);
    rules.players = data[0] & 1 ? (data[0] & 0x80 ? 8 : 6) : 4;
    int dealer = gb_dealer(&rules, data);
    int viewer = data[GB_HEADER] % (rules.players + 1);
    if (viewer == rules.players)
        viewer = LIT_NOBODY;
    int most = rules.players == 4 ? LIT_MAX_SETS
               : rules.players == 6 ? (viewer == LIT_NOBODY ? 2 : 3)
                                    : (viewer == LIT_NOBODY ? MOST_8_PUBLIC : MOST_8_SEAT);
    LitGame g, last;
    if (lit_game_new(&g, &rules, gb_seed(data), dealer) != LIT_OK)
        abort();
    static LitKnow k, k_last, again;
    if (lit_know_start(&k, &rules, dealer, viewer,
                       viewer == LIT_NOBODY ? 0 : g.hands[viewer]) != LIT_OK)
        abort();
    check_sound(&k, &g);
    LitLog log;
    lit_log_init(&log, events, LIT_MAX_ACTIONS);
    last = g;
    k_last = k; /* the start has no block */
    uint32_t last_len = 0;
    for (size_t i = GB_HEADER + 1; i + 4 <= size && g.pub.result == LIT_ONGOING; i += 4) {
        uint8_t b[4] = {(uint8_t)(data[i] | 0xC0), data[i + 1], data[i + 2], data[i + 3]};
        LitAction a = gb_action(&g, b);
        if (lit_game_play(&g, &log, &a) != LIT_OK)
            continue; /* a claim by a seat that may not claim now */
        if (lit_know_apply(&k, &log.events[log.len - 1]) != LIT_OK)
            abort();
        check_sound(&k, &g);
        if (g.pub.result == LIT_ONGOING && blocks(&k) <= most) {
            last = g;
            k_last = k;
            last_len = log.len;
        }
    }
    /* the last position counted, from the view */
    log.len = last_len;
    LitView v;
    if (lit_view_make(&v, &last, &log, viewer) != LIT_OK ||
        lit_know_from_view(&again, &v) != LIT_OK || memcmp(&again, &k_last, sizeof k_last) != 0)
        abort();
    check_odds(&k_last, &last);
    check_draws(&k_last, &log, gb_seed(data) ^ size);
    return 0;
}
