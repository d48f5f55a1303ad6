/* policy.c - beliefs, and the one policy of casual and basic (docs/BOTS.md).
 *
 * Casual and basic share one policy (bot_policy_play) over beliefs: for
 * every card the seat believed to hold it, for every seat the cards it may
 * hold and its unknown slots. Basic's beliefs are its certain knowledge
 * (src/infer), so they are never wrong; casual's come from a memory that
 * took in each public fact only by chance, so they can be stale, and casual
 * can misclaim. Basic is also a whole player here (bot_policy_basic_*), for
 * expert's rollouts.
 */
#include <string.h>

#include "internal.h"

#include "literature/status.h"

/* ---- beliefs ------------------------------------------------------------------ */

void bot_policy_beliefs_of_knowledge(Beliefs *b, const LitKnow *k)
{
    int players = k->pub.rules.players;
    memset(b->holder, LIT_NOBODY, sizeof b->holder);
    for (int s = 0; s < players; s++) {
        for (uint64_t x = k->held[s] & k->pub.live; x;)
            b->holder[lit_pop_lsb(&x)] = (uint8_t)s;
        b->may[s] = k->may[s];
        b->slots[s] = k->slots[s];
    }
}

void bot_policy_beliefs_of_memory(Beliefs *b, const LitBotMemory *m, const LitView *v)
{
    const LitPublic *p = &v->pub;
    int players = p->rules.players, me = v->seat;
    uint64_t placed = v->hand;
    memset(b->holder, LIT_NOBODY, sizeof b->holder);
    memset(b->slots, 0, sizeof b->slots);
    for (uint64_t x = v->hand; x;)
        b->holder[lit_pop_lsb(&x)] = (uint8_t)me;
    for (uint64_t x = p->live & ~v->hand; x;) {
        int c = lit_pop_lsb(&x), s = m->holder[c];
        if (s != LIT_NOBODY && s != me && p->counts[s] > 0) {
            b->holder[c] = (uint8_t)s;
            placed |= lit_bit(c);
            b->slots[s]--;
        }
    }
    for (int s = 0; s < players; s++) {
        b->may[s] = s == me || p->counts[s] == 0 ? 0 : p->live & ~placed & ~m->lacks[s];
        b->slots[s] = s == me ? 0 : b->slots[s] + p->counts[s];
        if (b->slots[s] < 0)
            b->slots[s] = 0;
    }
}

static unsigned team_of_seat(const LitPublic *p, int seat)
{
    return lit_team_seats(&p->rules, lit_team_of(seat));
}

/* ---- claims under the beliefs ------------------------------------------------- */

/* The placement of set's live cards that the beliefs make likeliest: a card
 * at its believed holder when that seat may be named, else at the seat that
 * may be named with the most unknown slots among those that may hold it
 * (the claimer when none may). */
LitAction bot_policy_best_claim(const LitView *v, const Beliefs *b, int set)
{
    const LitPublic *p = &v->pub;
    int deck = p->rules.deck, me = v->seat, first = lit_set_first(deck, set);
    unsigned named = p->rules.split_claims ? (1u << p->rules.players) - 1 : team_of_seat(p, me);
    LitAction a = lit_action_make(LIT_CLAIM, me);
    a.set = (uint8_t)set;
    for (int i = 0; i < lit_deck_set_size(deck); i++) {
        int c = first + i, pick = me;
        if (b->holder[c] != LIT_NOBODY && (named >> b->holder[c] & 1)) {
            pick = b->holder[c];
        } else {
            int most = -1;
            for (unsigned m = named; m; m &= m - 1) {
                int s = lit_lsb(m);
                if ((b->may[s] & lit_bit(c)) && b->slots[s] > most) {
                    most = b->slots[s];
                    pick = s;
                }
            }
        }
        a.holders[i] = (uint8_t)pick;
    }
    return a;
}

/* Whether the beliefs place every live card of set at a seat a claim may name. */
static int certain(const LitView *v, const Beliefs *b, int set)
{
    const LitPublic *p = &v->pub;
    unsigned named = p->rules.split_claims ? (1u << p->rules.players) - 1 : team_of_seat(p, v->seat);
    for (uint64_t x = lit_set_mask(p->rules.deck, set) & p->live; x;) {
        int s = b->holder[lit_pop_lsb(&x)];
        if (s == LIT_NOBODY || !(named >> s & 1))
            return 0;
    }
    return 1;
}

/* How likely the beliefs make it that seat's team holds every live card of
 * set: per card 1 when believed at a teammate, else the teammates' unknown
 * slots among those of every seat that may hold it (as if the cards were
 * independent, which a person reckoning at the table assumes). */
static double plausible(const LitView *v, const Beliefs *b, int set)
{
    const LitPublic *p = &v->pub;
    unsigned team = team_of_seat(p, v->seat);
    double x = 1.0;
    for (uint64_t m = lit_set_mask(p->rules.deck, set) & p->live; m;) {
        int c = lit_pop_lsb(&m), h = b->holder[c];
        if (h != LIT_NOBODY) {
            x *= (team >> h & 1) ? 1.0 : 0.0;
            continue;
        }
        int ours = 0, all = 0;
        for (int s = 0; s < p->rules.players; s++)
            if (b->may[s] & lit_bit(c)) {
                all += b->slots[s];
                ours += (team >> s & 1) ? b->slots[s] : 0;
            }
        x *= all ? (double)ours / all : 0.0;
    }
    return x;
}

/* Casual's uncertain claim: of the sets it may claim (bit = set), the one
 * its team most likely holds, when that is as sure as 0.9 at the start and
 * anything after 300 actions; else -1. */
static int likely_set(const LitView *v, const Beliefs *b, unsigned may_claim)
{
    double need = 0.9 * (1.0 - v->pub.actions / 300.0), most = -1;
    int pick = -1;
    for (unsigned m = may_claim; m; m &= m - 1) {
        double x = plausible(v, b, lit_lsb(m));
        if (x > most) {
            most = x;
            pick = lit_lsb(m);
        }
    }
    return most >= need ? pick : -1;
}

/* Of the sets it may claim (bit = set) that the beliefs give the team
 * entirely, the one with the fewest cards of unknown holder; else -1. */
static int surest_own_set(const LitView *v, const Beliefs *b, unsigned may_claim)
{
    const LitPublic *p = &v->pub;
    int deck = p->rules.deck, pick = -1, fewest = LIT_MAX_SET_SIZE + 1;
    for (unsigned m = may_claim; m; m &= m - 1) {
        int set = lit_lsb(m), unknown = 0;
        if (plausible(v, b, set) < 1.0)
            continue;
        for (uint64_t y = lit_set_mask(deck, set) & p->live; y;)
            unknown += b->holder[lit_pop_lsb(&y)] == LIT_NOBODY;
        if (unknown < fewest) {
            fewest = unknown;
            pick = set;
        }
    }
    return pick;
}

/* ---- turns and asks ----------------------------------------------------------- */

/* The seat among cand (bit = seat) with the most cards (fewest with fewest),
 * ties to the first from `from` clockwise. */
static int by_cards(const LitPublic *p, unsigned cand, int from, int fewest)
{
    int best = -1, best_n = 0, n = p->rules.players;
    for (int i = 0; i < n; i++) {
        int s = (from + i) % n;
        if (!(cand >> s & 1))
            continue;
        int c = p->counts[s];
        if (best < 0 || (fewest ? c < best_n : c > best_n)) {
            best = s;
            best_n = c;
        }
    }
    return best;
}

/* The ask likeliest to hit: a card's chance at a seat is the seat's
 * unknown slots over those of every seat that may hold it (1 when the
 * holder is known, 0 when the seat cannot hold it); ties go to the set
 * in which the team has placed the most cards, then by lot. *best gets the
 * numerator of its chance (0 when every ask is a sure miss, -1 when there
 * is none; the ask's card is then LIT_NO_CARD). */
static LitAction likeliest_ask(const LitView *v, const Beliefs *b, LitRng *rng, int64_t *best)
{
    const LitPublic *p = &v->pub;
    int me = v->seat, deck = p->rules.deck, players = p->rules.players;
    uint64_t cards = lit_askable(p, v->hand);
    unsigned targets = lit_targets(p, me);
    unsigned team = team_of_seat(p, me);
    int64_t best_num = -1, best_den = 1;
    int best_progress = -1, ties = 0;
    LitAction a = lit_action_make(LIT_ASK, me);
    for (uint64_t x = cards; x;) {
        int c = lit_pop_lsb(&x), set = lit_set_of(deck, c);
        int progress = 0;
        for (uint64_t y = lit_set_mask(deck, set) & p->live; y;) {
            int h = b->holder[lit_pop_lsb(&y)];
            progress += h != LIT_NOBODY && (team >> h & 1);
        }
        int64_t den = 0;
        for (int s = 0; s < players; s++)
            if (b->may[s] & lit_bit(c))
                den += b->slots[s];
        for (unsigned t = targets; t; t &= t - 1) {
            int s = lit_lsb(t);
            int64_t num;
            if (b->holder[c] != LIT_NOBODY)
                num = b->holder[c] == s, den = 1;
            else
                num = (b->may[s] & lit_bit(c)) && den > 0 ? b->slots[s] : 0;
            int64_t d = den > 0 ? den : 1;
            int64_t cmp = num * best_den - best_num * d;
            if (cmp > 0 || (cmp == 0 && progress > best_progress)) {
                best_num = num;
                best_den = d;
                best_progress = progress;
                ties = 1;
            } else if (cmp == 0 && progress == best_progress) {
                ties++;
            } else {
                continue;
            }
            if (ties == 1 || lit_rng_below(rng, (uint32_t)ties) == 0) {
                a.card = (uint8_t)c;
                a.target = (uint8_t)s;
            }
        }
    }
    *best = best_num;
    return a;
}

/* ---- the policy --------------------------------------------------------------- */

/* The policy of casual and basic (docs/BOTS.md "basic"): claim what the
 * beliefs make certain; ask the question likeliest to hit; hand the turn on
 * to the teammate with the most cards. */
LitAction bot_policy_play(const LitView *v, const Beliefs *b, LitRng *rng, int patient)
{
    const LitPublic *p = &v->pub;
    int me = v->seat, deck = p->rules.deck;
    unsigned mates = p->holding & team_of_seat(p, me);
    LitAction a;

    /* 1. The endgame: the claimer claims the lowest set left. */
    if (p->phase == LIT_PHASE_ENDGAME)
        return bot_policy_best_claim(v, b, lit_set_of(deck, lit_lsb(p->live)));
    /* 2. Naming the opponent who claims: the one with the fewest cards,
     * who has seen the least of them. */
    if (p->phase == LIT_PHASE_CHOOSE_CLAIMER) {
        a = lit_action_make(LIT_CHOOSE, me);
        a.target = (uint8_t)by_cards(p, p->holding & ~team_of_seat(p, me), me, 1);
        return a;
    }
    /* 3. A claim the beliefs make certain, lowest set first. */
    unsigned may_claim = lit_claimable(p, me);
    for (unsigned m = may_claim; m; m &= m - 1)
        if (certain(v, b, lit_lsb(m)))
            return bot_policy_best_claim(v, b, lit_lsb(m));
    /* Casual (not patient) also claims the set its team most likely holds
     * when that is likely enough, and asks for less the longer the game
     * runs: as sure as 0.9 at the start, anything after 300 actions. */
    if (!patient && may_claim) {
        int pick = likely_set(v, b, may_claim);
        if (pick >= 0)
            return bot_policy_best_claim(v, b, pick);
    }
    /* 4. Passing and choosing: the teammate with the most cards. */
    if (p->phase == LIT_PHASE_PASS || p->phase == LIT_PHASE_CHOOSE_ASKER) {
        a = lit_action_make(p->phase == LIT_PHASE_PASS ? LIT_PASS : LIT_CHOOSE, me);
        unsigned cand = p->phase == LIT_PHASE_PASS ? mates & ~(1u << me) : mates;
        a.target = (uint8_t)by_cards(p, cand, me, 0);
        return a;
    }
    /* 5. The ask likeliest to hit. */
    int64_t best_num;
    a = likeliest_ask(v, b, rng, &best_num);
    /* 6. Every ask is a sure miss. Under pass-play the turn goes to a
     * teammate instead (not straight back: a seat handed the turn does not
     * hand it on). Else every set the seat holds a card of is the team's
     * alone, the team's hands are not all known, and the opponents cannot
     * take those cards: asking would only give the turn away, and when the
     * other team is as stuck the game would never end. So the team claims
     * the set of its own with the fewest cards of unknown holder. */
    if (best_num <= 0 || a.card == LIT_NO_CARD) {
        int passed = v->history_len > 0 && v->history[v->history_len - 1].action.kind == LIT_PASS;
        if (p->rules.pass_play && (mates & ~(1u << me)) && !passed) {
            a = lit_action_make(LIT_PASS, me);
            a.target = (uint8_t)by_cards(p, mates & ~(1u << me), me, 0);
            return a;
        }
        int pick = surest_own_set(v, b, may_claim);
        if (pick >= 0)
            return bot_policy_best_claim(v, b, pick);
    }
    if (a.card != LIT_NO_CARD)
        return a;
    /* 7. Nothing to ask (no card to ask with, which leaves only claims):
     * the likeliest claim of the lowest set the seat holds a card of. */
    uint64_t own = v->hand & p->live;
    return bot_policy_best_claim(v, b, lit_set_of(deck, lit_lsb(own ? own : p->live)));
}

/* ---- basic as a whole player ---------------------------------------------------- */

void bot_policy_basic_init(LitBot *bot, uint64_t seed)
{
    LitBotSpec basic = lit_bot_spec_default(LIT_BOT_BASIC);
    bot_follow_init(bot, &basic, seed);
}

int bot_policy_basic_act(LitBot *bot, const LitView *v, LitAction *out)
{
    int st = bot_follow_view(bot, v);
    if (st != LIT_OK)
        return st;
    Beliefs b;
    bot_policy_beliefs_of_knowledge(&b, &bot->know);
    *out = bot_policy_play(v, &b, &bot->rng, 1);
    return LIT_OK;
}
