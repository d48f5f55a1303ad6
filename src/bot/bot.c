/* bot.c - random, casual and basic (docs/BOTS.md says what each does and why).
 *
 * Casual and basic share one policy (play()) over beliefs: for every card the
 * seat believed to hold it, for every seat the cards it may hold and its
 * unknown slots. Basic's beliefs are its certain knowledge (src/infer), so
 * they are never wrong; casual's come from a memory that took in each public
 * fact only by chance, so they can be stale, and casual can misclaim.
 */
#include "literature/bot.h"

#include <string.h>

#include "internal.h"

#include "literature/status.h"

/* ---- specs ------------------------------------------------------------------ */

static const char *const kind_names[LIT_BOT_KINDS] = {"random", "casual", "basic", "expert"};

const char *lit_bot_kind_name(int kind)
{
    return kind >= 0 && kind < LIT_BOT_KINDS ? kind_names[kind] : "";
}

LitBotSpec lit_bot_spec_default(LitBotKind kind)
{
    LitBotSpec s = {(uint8_t)kind, LIT_CASUAL_MEMORY, LIT_EXPERT_ROLLOUTS};
    return s;
}

/* A chance written 0, 1, 0.5, 0.75, .125 (at most three decimals), in
 * thousandths: 0, or -1 when it is not one. */
static int parse_chance(const char *s, size_t len, uint16_t *out)
{
    size_t i = 0;
    unsigned whole = 0, frac = 0, digits = 0;
    if (len == 0)
        return -1;
    if (s[i] == '0' || s[i] == '1')
        whole = (unsigned)(s[i++] - '0');
    if (i < len) {
        if (s[i++] != '.' || i == len)
            return -1;
        for (; i < len; i++, digits++) {
            if (s[i] < '0' || s[i] > '9' || digits == 3)
                return -1;
            frac = frac * 10 + (unsigned)(s[i] - '0');
        }
    } else if (i == 0) {
        return -1;
    }
    for (; digits < 3; digits++)
        frac *= 10;
    unsigned v = whole * 1000 + frac;
    if (v > 1000)
        return -1;
    *out = (uint16_t)v;
    return 0;
}

int lit_bot_spec_parse(LitBotSpec *spec, const char *text, size_t len)
{
    size_t name_len = 0;
    while (name_len < len && text[name_len] != ':')
        name_len++;
    for (int kind = 0; kind < LIT_BOT_KINDS; kind++) {
        if (strlen(kind_names[kind]) != name_len ||
            memcmp(kind_names[kind], text, name_len) != 0)
            continue;
        LitBotSpec s = lit_bot_spec_default((LitBotKind)kind);
        if (name_len < len) {
            /* casual takes its memory, expert its rollouts per decision */
            const char *arg = text + name_len + 1;
            size_t arg_len = len - name_len - 1;
            if (kind == LIT_BOT_CASUAL) {
                if (parse_chance(arg, arg_len, &s.memory))
                    return LIT_BAD_BOT_OPTION;
            } else if (kind == LIT_BOT_EXPERT) {
                uint32_t r = 0;
                if (arg_len == 0 || arg_len > 6)
                    return LIT_BAD_BOT_OPTION;
                for (size_t i = 0; i < arg_len; i++) {
                    if (arg[i] < '0' || arg[i] > '9')
                        return LIT_BAD_BOT_OPTION;
                    r = r * 10 + (uint32_t)(arg[i] - '0');
                }
                if (r > LIT_EXPERT_ROLLOUTS_MAX)
                    return LIT_BAD_BOT_OPTION;
                s.rollouts = r;
            } else {
                return LIT_BAD_BOT_OPTION;
            }
        }
        *spec = s;
        return LIT_OK;
    }
    return LIT_UNKNOWN_BOT;
}

int lit_bot_spec_format(const LitBotSpec *spec, char *buf, size_t cap)
{
    char text[LIT_BOT_TEXT_MAX];
    const char *name = lit_bot_kind_name(spec->kind);
    size_t n = strlen(name);
    memcpy(text, name, n);
    if (spec->kind == LIT_BOT_EXPERT && spec->rollouts != LIT_EXPERT_ROLLOUTS) {
        unsigned r = spec->rollouts, digits = 1;
        text[n++] = ':';
        for (unsigned x = r; x >= 10; x /= 10)
            digits++;
        for (unsigned d = digits; d-- > 0; r /= 10)
            text[n + d] = (char)('0' + r % 10);
        n += digits;
    }
    if (spec->kind == LIT_BOT_CASUAL && spec->memory != LIT_CASUAL_MEMORY) {
        unsigned m = spec->memory;
        text[n++] = ':';
        text[n++] = (char)('0' + m / 1000);
        if (m % 1000) {
            text[n++] = '.';
            for (unsigned d = 100, r = m % 1000; r; d /= 10) {
                text[n++] = (char)('0' + r / d);
                r %= d;
            }
        }
    }
    if (n + 1 > cap)
        return LIT_NO_SPACE;
    memcpy(buf, text, n);
    buf[n] = 0;
    return (int)n;
}

int lit_bot_init(LitBot *bot, const LitBotSpec *spec, uint64_t seed)
{
    if (spec->kind >= LIT_BOT_KINDS || spec->memory > 1000 ||
        spec->rollouts > LIT_EXPERT_ROLLOUTS_MAX)
        return LIT_BAD_BOT_OPTION;
    memset(bot, 0, sizeof *bot);
    bot->spec = *spec;
    lit_rng_seed(&bot->rng, seed);
    return LIT_OK;
}

/* ---- beliefs and the shared policy ------------------------------------------ */

void bot_beliefs_of_knowledge(Beliefs *b, const LitKnow *k)
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

static void beliefs_of_memory(Beliefs *b, const LitBotMemory *m, const LitView *v)
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

/* The placement of set's live cards that the beliefs make likeliest: a card
 * at its believed holder when that seat may be named, else at the seat that
 * may be named with the most unknown slots among those that may hold it
 * (the claimer when none may). */
LitAction bot_best_claim(const LitView *v, const Beliefs *b, int set)
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

/* The seat among cand (bit = seat) with the most cards (fewest with fewest),
 * ties to the first from `from` clockwise. */
int bot_by_cards(const LitPublic *p, unsigned cand, int from, int fewest)
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

/* The policy of casual and basic (docs/BOTS.md "basic"): claim what the
 * beliefs make certain; ask the question likeliest to hit; hand the turn on
 * to the teammate with the most cards. */
LitAction bot_play(const LitView *v, const Beliefs *b, LitRng *rng, int patient)
{
    const LitPublic *p = &v->pub;
    int me = v->seat, deck = p->rules.deck, players = p->rules.players;
    unsigned mates = p->holding & team_of_seat(p, me);
    LitAction a;

    /* 1. The endgame: the claimer claims the lowest set left. */
    if (p->phase == LIT_PHASE_ENDGAME)
        return bot_best_claim(v, b, lit_set_of(deck, lit_lsb(p->live)));
    /* 2. Naming the opponent who claims: the one with the fewest cards,
     * who has seen the least of them. */
    if (p->phase == LIT_PHASE_CHOOSE_CLAIMER) {
        a = lit_action_make(LIT_CHOOSE, me);
        a.target = (uint8_t)bot_by_cards(p, p->holding & ~team_of_seat(p, me), me, 1);
        return a;
    }
    /* 3. A claim the beliefs make certain, lowest set first. */
    unsigned may_claim = lit_claimable(p, me);
    for (unsigned m = may_claim; m; m &= m - 1)
        if (certain(v, b, lit_lsb(m)))
            return bot_best_claim(v, b, lit_lsb(m));
    /* Casual (not patient) also claims the set its team most likely holds
     * when that is likely enough, and asks for less the longer the game
     * runs: as sure as 0.9 at the start, anything after 300 actions. */
    if (!patient && may_claim) {
        double need = 0.9 * (1.0 - p->actions / 300.0), most = -1;
        int pick = -1;
        for (unsigned m = may_claim; m; m &= m - 1) {
            double x = plausible(v, b, lit_lsb(m));
            if (x > most) {
                most = x;
                pick = lit_lsb(m);
            }
        }
        if (most >= need)
            return bot_best_claim(v, b, pick);
    }
    /* 4. Passing and choosing: the teammate with the most cards. */
    if (p->phase == LIT_PHASE_PASS || p->phase == LIT_PHASE_CHOOSE_ASKER) {
        a = lit_action_make(p->phase == LIT_PHASE_PASS ? LIT_PASS : LIT_CHOOSE, me);
        unsigned cand = p->phase == LIT_PHASE_PASS ? mates & ~(1u << me) : mates;
        a.target = (uint8_t)bot_by_cards(p, cand, me, 0);
        return a;
    }
    /* 5. The ask likeliest to hit: a card's chance at a seat is the seat's
     * unknown slots over those of every seat that may hold it (1 when the
     * holder is known, 0 when the seat cannot hold it); ties go to the set
     * in which the team has placed the most cards, then by lot. */
    uint64_t cards = lit_askable(p, v->hand);
    unsigned targets = lit_targets(p, me);
    unsigned team = team_of_seat(p, me);
    int64_t best_num = -1, best_den = 1;
    int best_progress = -1, ties = 0;
    a = lit_action_make(LIT_ASK, me);
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
            a.target = (uint8_t)bot_by_cards(p, mates & ~(1u << me), me, 0);
            return a;
        }
        int pick = -1, fewest = LIT_MAX_SET_SIZE + 1;
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
        if (pick >= 0)
            return bot_best_claim(v, b, pick);
    }
    if (a.card != LIT_NO_CARD)
        return a;
    /* 7. Nothing to ask (no card to ask with, which leaves only claims):
     * the likeliest claim of the lowest set the seat holds a card of. */
    uint64_t own = v->hand & p->live;
    return bot_best_claim(v, b, lit_set_of(deck, lit_lsb(own ? own : p->live)));
}

/* ---- random ------------------------------------------------------------------ */

enum { RANDOM_CLAIM_ONE_IN = 16 };

/* A claim of set naming the seat itself for its own cards and a uniformly
 * drawn teammate for each other card. */
static LitAction random_claim(const LitView *v, LitRng *rng, int set)
{
    const LitPublic *p = &v->pub;
    int me = v->seat, deck = p->rules.deck, first = lit_set_first(deck, set);
    unsigned others = team_of_seat(p, me) & ~(1u << me);
    LitAction a = lit_action_make(LIT_CLAIM, me);
    a.set = (uint8_t)set;
    for (int i = 0; i < lit_deck_set_size(deck); i++)
        a.holders[i] = (uint8_t)((v->hand & lit_bit(first + i))
                                     ? me
                                     : lit_nth_card(others, (int)lit_rng_below(
                                                               rng, (uint32_t)lit_popcount(others))));
    return a;
}

/* A uniformly drawn set of mask (bit = set). */
static int draw_set(LitRng *rng, unsigned mask)
{
    return lit_nth_card(mask, (int)lit_rng_below(rng, (uint32_t)lit_popcount(mask)));
}

static LitAction play_random(const LitView *v, LitRng *rng)
{
    const LitPublic *p = &v->pub;
    LitAction legal[LIT_MAX_LEGAL];
    int n = lit_view_legal(v, legal, LIT_MAX_LEGAL);
    unsigned claimable = lit_claimable(p, v->seat);
    /* A whole set in hand under must-claim is claimed: the rules allow
     * nothing else. */
    unsigned whole = p->rules.must_claim ? lit_whole_sets(p, v->hand) : 0;
    if (whole && (claimable & whole))
        return random_claim(v, rng, lit_lsb(claimable & whole));
    if (claimable && (n <= 0 || lit_rng_below(rng, RANDOM_CLAIM_ONE_IN) == 0))
        return random_claim(v, rng, draw_set(rng, claimable));
    return legal[lit_rng_below(rng, (uint32_t)n)];
}

/* ---- casual's memory ---------------------------------------------------------- */

static int recalls(LitBot *bot)
{
    return lit_rng_below(&bot->rng, 1000) < bot->spec.memory;
}

/* Takes in the facts of one event, each only by chance: where a card went
 * on a hit; on a miss, that the target lacks the card and (without bluffs)
 * that the asker does. */
static void remember(LitBot *bot, const LitRules *rules, const LitEvent *e)
{
    const LitAction *a = &e->action;
    LitBotMemory *m = &bot->memory;
    if (a->kind != LIT_ASK || a->card >= LIT_MAX_CARDS)
        return;
    if (e->answer == LIT_HIT) {
        if (recalls(bot)) {
            m->holder[a->card] = a->seat;
            m->lacks[a->seat] &= ~lit_bit(a->card);
        }
    } else {
        if (recalls(bot))
            m->lacks[a->target] |= lit_bit(a->card);
        if (!rules->bluff && recalls(bot))
            m->lacks[a->seat] |= lit_bit(a->card);
    }
}

/* ---- following the game ------------------------------------------------------- */

/* Brings what the bot has read up to the view: from the start when the view
 * is of another seat or game than the events read so far. */
static int follow(LitBot *bot, const LitView *v)
{
    int fresh = !bot->started || bot->seat != v->seat || bot->seen > v->history_len ||
                (bot->seen > 0 &&
                 memcmp(&bot->last, &v->history[bot->seen - 1], sizeof bot->last) != 0);
    if (fresh) {
        bot->started = 1;
        bot->seat = v->seat;
        bot->seen = 0;
        memset(bot->memory.holder, LIT_NOBODY, sizeof bot->memory.holder);
        memset(bot->memory.lacks, 0, sizeof bot->memory.lacks);
        if (bot->spec.kind >= LIT_BOT_BASIC) {
            int st = lit_know_from_view(&bot->know, v);
            if (st == LIT_OK && bot->spec.kind == LIT_BOT_EXPERT) {
                LitView pv = *v;
                pv.seat = LIT_NOBODY;
                pv.hand = 0;
                st = lit_know_from_view(&bot->public_know, &pv);
            }
            if (st != LIT_OK) {
                bot->started = 0;
                return st;
            }
            bot->seen = v->history_len;
        }
    }
    for (; bot->seen < v->history_len; bot->seen++) {
        const LitEvent *e = &v->history[bot->seen];
        if (bot->spec.kind >= LIT_BOT_BASIC) {
            int st = lit_know_apply(&bot->know, e);
            if (st == LIT_OK && bot->spec.kind == LIT_BOT_EXPERT)
                st = lit_know_apply(&bot->public_know, e);
            if (st != LIT_OK) {
                bot->started = 0;
                return st;
            }
        } else if (bot->spec.kind == LIT_BOT_CASUAL) {
            remember(bot, &v->pub.rules, e);
        }
    }
    if (bot->seen > 0)
        bot->last = v->history[bot->seen - 1];
    return LIT_OK;
}

int lit_bot_act(LitBot *bot, const LitView *view, LitAction *out)
{
    const LitPublic *p = &view->pub;
    if (view->seat == LIT_NOBODY || view->seat >= p->rules.players)
        return LIT_BAD_SEAT;
    if (p->result != LIT_ONGOING)
        return LIT_GAME_OVER;
    if (p->turn != view->seat)
        return LIT_NOT_YOUR_TURN;
    int st = follow(bot, view);
    if (st != LIT_OK)
        return st;
    Beliefs b;
    switch (bot->spec.kind) {
    case LIT_BOT_RANDOM:
        *out = play_random(view, &bot->rng);
        break;
    case LIT_BOT_CASUAL:
        beliefs_of_memory(&b, &bot->memory, view);
        *out = bot_play(view, &b, &bot->rng, 0);
        break;
    case LIT_BOT_BASIC:
        bot_beliefs_of_knowledge(&b, &bot->know);
        *out = bot_play(view, &b, &bot->rng, 1);
        break;
    default:
        return bot_expert_act(bot, view, out);
    }
    return LIT_OK;
}
