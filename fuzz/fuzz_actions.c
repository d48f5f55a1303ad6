/* fuzz_actions.c - the engine under arbitrary action sequences.
 *
 * The header chooses the rules, the seed and the dealer, then every 4 bytes
 * make an action (game_bytes.h): raw fields (malformed and illegal actions),
 * the n-th legal action, or a claim built from the true hands. When the
 * bytes run out the game is played on to its end by legal actions drawn
 * from a generator the input seeds: with claims from the true hands now and
 * then, or (one input in 64: the top bits of the fourth byte 0 and the
 * fifth byte a multiple of 16) with claims only when nothing else is legal,
 * so that games long enough to reach the action bound come too.
 *
 * Invariants after every step: cards are conserved and hand sizes right; a
 * refused action changed nothing, and once the game is over everything is
 * refused with game_over; the public state rebuilt from the events alone
 * (lit_public_apply) equals the referee's; no game applies more than
 * LIT_MAX_ACTIONS actions, one that applies that many is over (aborted),
 * and every game ends: the seat on turn always has a legal action or a set
 * it may claim. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "game_bytes.h"
#include "literature/game.h"
#include "literature/rng.h"
#include "literature/status.h"
#include "literature/view.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_conserved(const LitGame *g)
{
    uint64_t seen = 0;
    for (int s = 0; s < LIT_MAX_PLAYERS; s++) {
        if (seen & g->hands[s])
            abort();
        seen |= g->hands[s];
        if (g->pub.counts[s] != lit_popcount(g->hands[s]))
            abort();
        if (s >= g->pub.rules.players && g->hands[s])
            abort();
    }
    if (seen != g->pub.live)
        abort();
}

typedef struct Play {
    LitGame g;
    LitPublic pub;      /* rebuilt from the events alone */
    unsigned applied;
} Play;

/* Applies a (or refuses it) and checks every invariant: the status. */
static int step(Play *p, const LitAction *a)
{
    LitGame before = p->g;
    LitEvent e;
    int st = lit_game_apply(&p->g, a, &e);
    if (st != LIT_OK) {
        if (memcmp(&before, &p->g, sizeof p->g) != 0)
            abort();
        if (before.pub.result != LIT_ONGOING && st != LIT_GAME_OVER)
            abort();
        return st;
    }
    p->applied++;
    check_conserved(&p->g);
    if (lit_public_apply(&p->pub, &e) != LIT_OK || memcmp(&p->pub, &p->g.pub, sizeof p->pub) != 0)
        abort();
    if (p->applied > LIT_MAX_ACTIONS || p->g.pub.actions != p->applied)
        abort();
    if (p->applied == LIT_MAX_ACTIONS && p->g.pub.result == LIT_ONGOING)
        abort();
    if (p->g.pub.result != LIT_ONGOING &&
        (p->g.pub.turn != LIT_NOBODY || p->g.pub.phase != LIT_PHASE_OVER))
        abort();
    return st;
}

/* A claim by seat of one of sets (bit = set): the true holders, one maybe
 * moved, and the other team's cards named at the claimer unless split
 * claims allow naming them (a wrong claim, but a legal one). */
static LitAction claim(const LitGame *g, LitRng *rng, int seat, unsigned sets)
{
    int set = lit_nth_card(sets, (int)lit_rng_below(rng, (uint32_t)lit_popcount(sets)));
    uint8_t move = (uint8_t)(lit_rng_below(rng, 8) == 0 ? lit_rng_next(rng) | 0x80 : 0);
    LitAction a = gb_true_claim(g, seat, set, move);
    for (int k = 0; k < LIT_MAX_SET_SIZE && !g->pub.rules.split_claims; k++)
        if (a.holders[k] != LIT_NOBODY && lit_team_of(a.holders[k]) != lit_team_of(seat))
            a.holders[k] = (uint8_t)seat;
    return a;
}

/* A legal ask or pass of the seat on turn in the play phase, drawn
 * uniformly as from lit_game_legal's list, without the list (listing, with
 * the fuzzer's tracing of comparisons, was most of the time of a long
 * game); 0 when there is none. */
static int draw_play(const LitGame *g, LitRng *rng, LitAction *a)
{
    const LitPublic *p = &g->pub;
    int seat = p->turn;
    if (p->phase != LIT_PHASE_PLAY ||
        (p->rules.must_claim && lit_whole_sets(p, g->hands[seat])))
        return 0;
    uint64_t cards = lit_askable(p, g->hands[seat]);
    unsigned targets = lit_targets(p, seat);
    unsigned mates = p->rules.pass_play
                         ? p->holding & lit_team_seats(&p->rules, lit_team_of(seat)) &
                               ~(1u << seat)
                         : 0;
    int n_targets = lit_popcount(targets);
    uint32_t asks = (uint32_t)(lit_popcount(cards) * n_targets);
    uint32_t all = asks + (uint32_t)lit_popcount(mates);
    if (all == 0)
        return 0;
    int k = (int)lit_rng_below(rng, all);
    if (k < (int)asks) {
        *a = lit_action_make(LIT_ASK, seat);
        a->card = (uint8_t)lit_nth_card(cards, k / n_targets);
        a->target = (uint8_t)lit_nth_card(targets, k % n_targets);
    } else {
        *a = lit_action_make(LIT_PASS, seat);
        a->target = (uint8_t)lit_nth_card(mates, k - (int)asks);
    }
    return 1;
}

/* Plays the game to its end by legal actions. */
static void play_out(Play *p, LitRng *rng, int claims)
{
    static LitAction legal[LIT_MAX_LEGAL];
    while (p->g.pub.result == LIT_ONGOING) {
        int seat = p->g.pub.turn;
        unsigned sets = lit_claimable(&p->g.pub, seat);
        LitAction a;
        if (claims && sets && lit_rng_below(rng, 8) == 0) {
            a = claim(&p->g, rng, seat, sets);
        } else if (!draw_play(&p->g, rng, &a)) {
            int n = lit_game_legal(&p->g, seat, legal, LIT_MAX_LEGAL);
            if (n > 0)
                a = legal[lit_rng_below(rng, (uint32_t)n)];
            else if (sets)
                a = claim(&p->g, rng, seat, sets);
            else
                abort(); /* nothing the seat on turn may do: a game stuck */
        }
        if (step(p, &a) != LIT_OK)
            abort(); /* a legal action or a claimable set refused */
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < GB_HEADER)
        return 0;
    LitRules rules;
    gb_rules(&rules, data);
    Play p;
    if (lit_game_new(&p.g, &rules, gb_seed(data), gb_dealer(&rules, data)) != LIT_OK)
        abort();
    p.pub = p.g.pub;
    p.applied = 0;
    for (size_t i = GB_HEADER; i + 4 <= size; i += 4) {
        LitAction a = gb_action(&p.g, data + i);
        step(&p, &a);
    }
    LitRng rng;
    lit_rng_seed(&rng, lit_seed_mix(gb_seed(data), size));
    /* the long games, slow to play out, one input in 64 */
    play_out(&p, &rng, data[3] >> 6 != 0 || data[4] % 16 != 0);
    /* over: everything is refused */
    LitAction a = gb_action(&p.g, data + 4);
    if (step(&p, &a) == LIT_OK)
        abort();
    return 0;
}
