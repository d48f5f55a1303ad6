/* game.c - the referee: deals, checks, applies, lists legal actions.
 *
 * One transition drives every position: transition() moves the public part
 * (hand sizes, turn, phase, scores) from an event that already carries its
 * answer. lit_game_apply works out the answer from the hands, moves the
 * cards, then calls it; lit_public_apply takes the answer from a record and
 * calls the same function. So a replay without the deal, a seat's view and
 * the referee can never disagree on whose turn it is.
 */
#include "literature/game.h"

#include <stddef.h>
#include <string.h>

#include "literature/rng.h"
#include "literature/status.h"

static void count_holding(LitPublic *p)
{
    p->holding = 0;
    for (int s = 0; s < p->rules.players; s++)
        if (p->counts[s])
            p->holding = (uint16_t)(p->holding | 1u << s);
}

/* ---- dealing and starting positions -------------------------------------- */

static int check_start(const LitRules *rules, int dealer)
{
    if (lit_rules_check(rules) != LIT_OK)
        return LIT_BAD_RULE_VALUE;
    if (dealer < 0 || dealer >= rules->players)
        return LIT_BAD_SEAT;
    return LIT_OK;
}

int lit_deal(const LitRules *rules, uint64_t seed, int dealer,
             uint64_t hands[LIT_MAX_PLAYERS])
{
    int st = check_start(rules, dealer);
    if (st != LIT_OK)
        return st;
    uint8_t order[LIT_MAX_CARDS];
    int n = lit_deck_cards(rules->deck), players = rules->players;
    LitRng rng;
    for (int i = 0; i < LIT_MAX_CARDS; i++)
        order[i] = (uint8_t)i;
    /* Fisher-Yates from the top: position i swaps with a uniform j <= i. */
    lit_rng_seed(&rng, seed);
    for (int i = n - 1; i > 0; i--) {
        int j = (int)lit_rng_below(&rng, (uint32_t)i + 1);
        uint8_t t = order[i];
        order[i] = order[j];
        order[j] = t;
    }
    memset(hands, 0, sizeof(uint64_t) * LIT_MAX_PLAYERS);
    /* One card at a time, clockwise, from the dealer's left. */
    for (int k = 0; k < n; k++)
        hands[(dealer + 1 + k) % players] |= lit_bit(order[k]);
    return LIT_OK;
}

int lit_deal_size(const LitRules *rules, int dealer, int seat)
{
    int st = check_start(rules, dealer);
    if (st != LIT_OK)
        return st;
    if (seat < 0 || seat >= rules->players)
        return LIT_BAD_SEAT;
    int n = lit_deck_cards(rules->deck), players = rules->players;
    int offset = (seat - dealer - 1 + 2 * players) % players;
    return n / players + (offset < n % players);
}

static void start(LitPublic *p, const LitRules *rules, int dealer)
{
    memset(p, 0, sizeof *p);
    p->rules = *rules;
    p->dealer = (uint8_t)dealer;
    p->turn = (uint8_t)(rules->first == LIT_FIRST_LEFT
                            ? (dealer + 1) % rules->players
                            : dealer);
    p->phase = LIT_PHASE_PLAY;
    p->result = LIT_ONGOING;
    p->live = lit_deck_mask(rules->deck);
}

int lit_public_init(LitPublic *pub, const LitRules *rules, int dealer)
{
    int st = check_start(rules, dealer);
    if (st != LIT_OK)
        return st;
    start(pub, rules, dealer);
    for (int s = 0; s < rules->players; s++)
        pub->counts[s] = (uint8_t)lit_deal_size(rules, dealer, s);
    count_holding(pub);
    return LIT_OK;
}

int lit_game_from_deal(LitGame *game, const LitRules *rules,
                       const uint64_t hands[LIT_MAX_PLAYERS], int dealer)
{
    int st = check_start(rules, dealer);
    if (st != LIT_OK)
        return st;
    uint64_t seen = 0;
    int total = 0;
    for (int s = 0; s < LIT_MAX_PLAYERS; s++) {
        if (s >= rules->players ? hands[s] != 0 : hands[s] == 0)
            return LIT_BAD_DEAL;
        seen |= hands[s];
        total += lit_popcount(hands[s]);
    }
    if (seen != lit_deck_mask(rules->deck) ||
        total != lit_deck_cards(rules->deck))
        return LIT_BAD_DEAL;
    start(&game->pub, rules, dealer);
    for (int s = 0; s < LIT_MAX_PLAYERS; s++) {
        game->hands[s] = hands[s];
        game->pub.counts[s] = (uint8_t)lit_popcount(hands[s]);
    }
    count_holding(&game->pub);
    return LIT_OK;
}

int lit_game_new(LitGame *game, const LitRules *rules, uint64_t seed,
                 int dealer)
{
    uint64_t hands[LIT_MAX_PLAYERS];
    int st = lit_deal(rules, seed, dealer, hands);
    if (st != LIT_OK)
        return st;
    return lit_game_from_deal(game, rules, hands, dealer);
}

/* ---- queries ------------------------------------------------------------- */

/* Whether seat may claim now (under the rules on claim timing and the
 * endgame), whatever the set. */
static int claim_status(const LitPublic *p, int seat)
{
    if (seat == p->turn)
        return p->phase == LIT_PHASE_CHOOSE_CLAIMER ? LIT_MUST_CHOOSE : LIT_OK;
    if (p->rules.claim_time == LIT_CLAIM_OWN_TURN ||
        p->phase == LIT_PHASE_ENDGAME || p->phase == LIT_PHASE_CHOOSE_CLAIMER)
        return LIT_NOT_YOUR_TURN;
    return LIT_OK;
}

unsigned lit_claimable(const LitPublic *pub, int seat)
{
    if (pub->result != LIT_ONGOING || seat < 0 || seat >= pub->rules.players ||
        claim_status(pub, seat) != LIT_OK)
        return 0;
    return lit_whole_sets(pub, pub->live); /* the sets still in play */
}

/* ---- checking ------------------------------------------------------------ */

/* Unused fields get fixed values, so equal actions compare equal. The
 * fields are read a byte each (the caller may have just stored them so) and
 * the result is built as two words. */
static inline __attribute__((always_inline)) LitAction normalize(const LitAction *a, int set_size)
{
    int kind = a->kind;
    uint64_t w0 = LIT_BYTE_AT(kind, 0) | LIT_BYTE_AT(a->seat, 1);
    uint64_t target = LIT_NOBODY, card = LIT_NO_CARD, set = LIT_NO_CARD;
    uint64_t holders[LIT_MAX_SET_SIZE];
    for (int i = 0; i < LIT_MAX_SET_SIZE; i++)
        holders[i] = LIT_NOBODY;
    switch (kind) {
    case LIT_ASK:
        target = a->target;
        card = a->card;
        break;
    case LIT_CLAIM:
        set = a->set;
        for (int i = 0; i < set_size; i++)
            holders[i] = a->holders[i];
        break;
    case LIT_PASS:
    case LIT_CHOOSE:
        target = a->target;
        break;
    default:
        break;
    }
    w0 |= LIT_BYTE_AT(target, 2) | LIT_BYTE_AT(card, 3) | LIT_BYTE_AT(set, 4) |
          LIT_BYTE_AT(holders[0], 5) | LIT_BYTE_AT(holders[1], 6) | LIT_BYTE_AT(holders[2], 7);
    return lit_action_words(w0, LIT_BYTE_AT(holders[3], 0) | LIT_BYTE_AT(holders[4], 1) |
                                    LIT_BYTE_AT(holders[5], 2));
}

/* What the phase of the seat on turn says of an ask, pass or choice. */
static inline __attribute__((always_inline)) int phase_status(const LitPublic *p, int kind)
{
    switch (p->phase) {
    case LIT_PHASE_PLAY:
        if (kind == LIT_PASS && !p->rules.pass_play)
            return LIT_PASS_NOT_ALLOWED;
        return kind == LIT_CHOOSE ? LIT_NOTHING_TO_CHOOSE : LIT_OK;
    case LIT_PHASE_PASS:
        return kind == LIT_PASS ? LIT_OK
               : kind == LIT_ASK ? LIT_MUST_PASS
                                 : LIT_NOTHING_TO_CHOOSE;
    case LIT_PHASE_CHOOSE_ASKER:
    case LIT_PHASE_CHOOSE_CLAIMER:
        return kind == LIT_CHOOSE ? LIT_OK : LIT_MUST_CHOOSE;
    default:
        return LIT_CLAIMS_ONLY;
    }
}

/* The checks of docs/RULES.md "Order of checks". hand is the actor's hand,
 * or NULL when it is not known (a replay without the deal): the checks that
 * need it are then left out. */
static inline __attribute__((always_inline)) int check(const LitPublic *p, const LitAction *a,
                                                       const uint64_t *hand)
{
    const LitRules *r = &p->rules;
    int players = r->players, deck = r->deck, s = a->seat;

    /* 1. The game must go on. */
    if (p->result != LIT_ONGOING)
        return LIT_GAME_OVER;
    /* 2. The action must be well formed. */
    if (a->kind < LIT_ASK || a->kind > LIT_CHOOSE)
        return LIT_BAD_ACTION;
    if (s >= players)
        return LIT_BAD_SEAT;
    if (a->kind == LIT_CLAIM) {
        for (int i = 0; i < lit_deck_set_size(deck); i++)
            if (a->holders[i] != LIT_NOBODY && a->holders[i] >= players)
                return LIT_BAD_SEAT;
        if (a->set >= lit_deck_sets(deck))
            return LIT_BAD_SET;
    } else {
        if (a->target >= players)
            return LIT_BAD_SEAT;
        if (a->kind == LIT_ASK && a->card >= lit_deck_cards(deck))
            return LIT_BAD_CARD;
    }

    if (a->kind == LIT_CLAIM) {
        /* 3. Claims: who may claim now, then the claim itself. */
        int st = claim_status(p, s);
        if (st != LIT_OK)
            return st;
        uint64_t m = lit_set_mask(deck, a->set);
        if (!(p->live & m))
            return LIT_SET_CLAIMED;
        for (int i = 0; i < lit_deck_set_size(deck); i++)
            if (a->holders[i] == LIT_NOBODY)
                return LIT_CLAIM_INCOMPLETE;
        if (!r->split_claims)
            for (int i = 0; i < lit_deck_set_size(deck); i++)
                if (lit_team_of(a->holders[i]) != lit_team_of(s))
                    return LIT_CLAIM_NAMES_OPPONENT;
        return LIT_OK;
    }

    /* 3. Asks, passes and choices: only the seat on turn, as its phase
     * allows; 4. the must-claim rule. */
    if (s != p->turn)
        return LIT_NOT_YOUR_TURN;
    int st = phase_status(p, a->kind);
    if (st != LIT_OK)
        return st;
    if (r->must_claim && hand && lit_whole_sets(p, *hand))
        return LIT_MUST_CLAIM;

    /* 5. The action's own rules. */
    int t = a->target;
    switch (a->kind) {
    case LIT_ASK: {
        uint64_t bit = lit_bit(a->card);
        uint64_t m = lit_set_mask(deck, lit_set_of(deck, a->card));
        if (lit_team_of(t) == lit_team_of(s))
            return LIT_ASK_TEAMMATE;
        if (p->counts[t] == 0)
            return LIT_TARGET_EMPTY;
        if (!(p->live & bit))
            return LIT_SET_CLAIMED;
        if (hand ? !(*hand & m & ~bit) : p->counts[s] == 0)
            return LIT_NO_BASE_CARD;
        if (hand && !r->bluff && (*hand & bit))
            return LIT_OWN_CARD;
        return LIT_OK;
    }
    case LIT_PASS:
        if (t == s)
            return LIT_PASS_TO_SELF;
        if (lit_team_of(t) != lit_team_of(s))
            return LIT_PASS_TO_OPPONENT;
        return p->counts[t] ? LIT_OK : LIT_TARGET_EMPTY;
    default: /* LIT_CHOOSE */
        if (p->phase == LIT_PHASE_CHOOSE_ASKER) {
            if (lit_team_of(t) != lit_team_of(s))
                return LIT_PASS_TO_OPPONENT;
        } else if (lit_team_of(t) == lit_team_of(s)) {
            return LIT_CHOOSE_TEAMMATE;
        }
        return p->counts[t] ? LIT_OK : LIT_TARGET_EMPTY;
    }
}

int lit_game_check(const LitGame *game, const LitAction *action)
{
    int seat = action->seat;
    return lit_public_check(&game->pub, action,
                            seat < game->pub.rules.players ? &game->hands[seat] : NULL);
}

int lit_public_check(const LitPublic *pub, const LitAction *action,
                     const uint64_t *hand)
{
    LitAction n = normalize(action, lit_deck_set_size(pub->rules.deck));
    return check(pub, &n, hand);
}

_Static_assert(LIT_STATUS_MIN_ >= INT8_MIN, "a status fits an int8_t");

void lit_public_check_asks(const LitPublic *pub, int seat, int target,
                           const uint64_t *hand, int8_t status[LIT_MAX_CARDS])
{
    /* normalize()'s ask: only the card changes */
    LitAction a = lit_action_make(LIT_ASK, seat);
    a.target = (uint8_t)target;
    for (int c = 0; c < lit_deck_cards(pub->rules.deck); c++) {
        a.card = (uint8_t)c;
        status[c] = (int8_t)check(pub, &a, hand);
    }
}

/* ---- the transition ------------------------------------------------------ */

static int claim_outcome(const LitPublic *p, const LitAction *a,
                         const uint8_t truth[LIT_MAX_SET_SIZE])
{
    int team = lit_team_of(a->seat), right = 1, team_all = 1;
    for (int i = 0; i < lit_deck_set_size(p->rules.deck); i++) {
        right &= truth[i] == a->holders[i];
        team_all &= lit_team_of(truth[i]) == team;
    }
    /* 000: a claim out of turn is judged as a wrong one. */
    if (p->rules.claim_time == LIT_CLAIM_PENALTY && a->seat != p->turn)
        right = 0;
    if (right)
        return LIT_WON;
    switch (p->rules.misclaim) {
    case LIT_MISCLAIM_OPPONENTS:
        return LIT_LOST;
    case LIT_MISCLAIM_POINT_OFF:
        return team_all ? LIT_CANCELLED : LIT_POINT_OFF;
    default:
        return team_all ? LIT_CANCELLED : LIT_LOST;
    }
}

static void finish(LitPublic *p, int result)
{
    p->phase = LIT_PHASE_OVER;
    p->turn = LIT_NOBODY;
    p->result = (uint8_t)result;
}

/* After every action: end the game, start the endgame, or make the choices
 * that have a single option (a pass or choice with one candidate is made
 * here, not asked of anyone: into *made when made is not NULL). */
static void settle(LitPublic *p, LitAction *made)
{
    const LitRules *r = &p->rules;
    if (r->early_end) {
        int total = lit_rules_total_points(r);
        if (2 * p->score[0] > total || 2 * p->score[1] > total) {
            finish(p, p->score[0] > p->score[1] ? LIT_WIN_A : LIT_WIN_B);
            return;
        }
    }
    if (!p->live) {
        finish(p, p->score[0] > p->score[1]   ? LIT_WIN_A
                  : p->score[0] < p->score[1] ? LIT_WIN_B
                                              : LIT_DRAW);
        return;
    }
    unsigned has = p->holding;
    int t = p->turn, team = lit_team_of(t);
    unsigned mates = has & lit_team_seats(r, team);
    unsigned others = has & lit_team_seats(r, 1 - team);
    unsigned cand;

    if (!mates || !others) {
        /* The endgame (000): one team holds every card left. */
        if (p->phase == LIT_PHASE_ENDGAME)
            return;
        if (mates) {
            p->phase = LIT_PHASE_ENDGAME;
            return;
        }
        p->phase = LIT_PHASE_CHOOSE_CLAIMER;
        cand = others;
    } else if (p->phase == LIT_PHASE_PLAY && !(has & (1u << t))) {
        p->phase = LIT_PHASE_PASS;
        cand = mates;
    } else if (p->phase == LIT_PHASE_PASS) {
        cand = mates & ~(1u << t);
    } else if (p->phase == LIT_PHASE_CHOOSE_ASKER) {
        cand = mates;
    } else {
        return;
    }
    if (lit_popcount(cand) == 1) {
        if (made) {
            *made = lit_action_make(p->phase == LIT_PHASE_PASS ? LIT_PASS : LIT_CHOOSE, t);
            made->target = (uint8_t)lit_lsb(cand);
        }
        p->turn = (uint8_t)lit_lsb(cand);
        p->phase = p->phase == LIT_PHASE_CHOOSE_CLAIMER ? LIT_PHASE_ENDGAME
                                                        : LIT_PHASE_PLAY;
    }
}

static inline __attribute__((always_inline)) void transition(LitPublic *p, const LitEvent *e,
                                                             LitAction *made)
{
    const LitAction *a = &e->action;
    int s = a->seat, deck = p->rules.deck;
    int changed = 1;
    switch (a->kind) {
    case LIT_ASK:
        /* An ask changes nothing settle() looks at unless it empties the
         * target's hand (the asker had cards; a miss hands the turn to a
         * seat with cards). */
        if (e->answer == LIT_HIT) {
            changed = --p->counts[a->target] == 0;
            p->counts[s]++;
            if (changed)
                p->holding = (uint16_t)(p->holding & ~(1u << a->target));
        } else {
            p->turn = a->target;
            changed = 0;
        }
        break;
    case LIT_CLAIM: {
        int team = lit_team_of(s), v = lit_rules_set_value(&p->rules, a->set);
        uint16_t bit = (uint16_t)(1u << a->set);
        for (int i = 0; i < lit_deck_set_size(deck); i++)
            if (--p->counts[e->truth[i]] == 0)
                p->holding = (uint16_t)(p->holding & ~(1u << e->truth[i]));
        p->live &= ~lit_set_mask(deck, a->set);
        switch (e->answer) {
        case LIT_WON:
            p->won[team] |= bit;
            p->score[team] = (int16_t)(p->score[team] + v);
            break;
        case LIT_LOST:
            p->won[1 - team] |= bit;
            p->score[1 - team] = (int16_t)(p->score[1 - team] + v);
            break;
        case LIT_POINT_OFF:
            p->dead |= bit;
            p->score[team] = (int16_t)(p->score[team] - v);
            break;
        default:
            p->dead |= bit;
            break;
        }
        /* A claim on the claimer's own turn: 000 the claimer goes on, 001
         * the team (the claimer speaking for it) names the next asker. A
         * claim by another seat does not move the turn. */
        if (s == p->turn && p->phase != LIT_PHASE_ENDGAME)
            p->phase = p->rules.after_claim == LIT_AFTER_TEAM
                           ? LIT_PHASE_CHOOSE_ASKER
                           : LIT_PHASE_PLAY;
        break;
    }
    case LIT_PASS:
        p->turn = a->target;
        p->phase = LIT_PHASE_PLAY;
        break;
    default: /* LIT_CHOOSE */
        p->turn = a->target;
        p->phase = p->phase == LIT_PHASE_CHOOSE_CLAIMER ? LIT_PHASE_ENDGAME
                                                        : LIT_PHASE_PLAY;
        break;
    }
    p->actions++;
    if (changed)
        settle(p, made);
    if (p->result == LIT_ONGOING && p->actions >= LIT_MAX_ACTIONS)
        finish(p, LIT_ABORTED);
}

/* An event's third word: the answer, the truth and its zero byte. */
static uint64_t event_tail(int answer, const uint8_t truth[LIT_MAX_SET_SIZE])
{
    uint64_t w = LIT_BYTE_AT(answer, 0);
    for (int i = 0; i < LIT_MAX_SET_SIZE; i++)
        w |= LIT_BYTE_AT(truth[i], 1 + i);
    return w;
}

/* The third word of an event that reveals no holder (an ask, pass or
 * choice): a constant but for the answer. */
static inline uint64_t event_tail_untold(int answer)
{
    _Static_assert(LIT_MAX_SET_SIZE == 6, "the truth is bytes 1 to 6");
    return LIT_BYTE_AT(answer, 0) | LIT_BYTE_AT(LIT_NOBODY, 1) | LIT_BYTE_AT(LIT_NOBODY, 2) |
           LIT_BYTE_AT(LIT_NOBODY, 3) | LIT_BYTE_AT(LIT_NOBODY, 4) | LIT_BYTE_AT(LIT_NOBODY, 5) |
           LIT_BYTE_AT(LIT_NOBODY, 6);
}

_Static_assert(offsetof(LitEvent, answer) == sizeof(LitAction), "the tail is the third word");

/* lit_game_apply, inlined into lit_game_play too: an action is checked, made
 * and written into the history with no call and no copy between. */
static inline __attribute__((always_inline)) int apply(LitGame *game, const LitAction *action,
                                                       LitEvent *event)
{
    LitPublic *p = &game->pub;
    int deck = p->rules.deck;
    LitEvent e;
    e.action = normalize(action, lit_deck_set_size(deck));
    const LitAction *a = &e.action;
    const uint64_t *hand = a->seat < p->rules.players ? &game->hands[a->seat] : NULL;
    int st = check(p, a, hand);
    if (st != LIT_OK)
        return st;
    uint64_t tail;
    if (a->kind == LIT_ASK) {
        uint64_t bit = lit_bit(a->card);
        int hit = (game->hands[a->target] & bit) != 0;
        if (hit) {
            game->hands[a->target] &= ~bit;
            game->hands[a->seat] |= bit;
        }
        tail = event_tail_untold(hit ? LIT_HIT : LIT_MISS);
    } else if (a->kind == LIT_CLAIM) {
        uint8_t truth[LIT_MAX_SET_SIZE];
        memset(truth, LIT_NOBODY, sizeof truth);
        uint64_t m = lit_set_mask(deck, a->set);
        int first = lit_set_first(deck, a->set);
        for (int s = 0; s < p->rules.players; s++) {
            uint64_t held = game->hands[s] & m;
            while (held)
                truth[lit_pop_lsb(&held) - first] = (uint8_t)s;
            game->hands[s] &= ~m;
        }
        tail = event_tail(claim_outcome(p, a, truth), truth);
    } else {
        tail = event_tail_untold(LIT_UNKNOWN);
    }
    memcpy(&e.answer, &tail, sizeof tail);
    transition(p, &e, NULL);
    if (event)
        *event = e;
    return LIT_OK;
}

int lit_game_apply(LitGame *game, const LitAction *action, LitEvent *event)
{
    return apply(game, action, event);
}

int lit_public_apply(LitPublic *pub, const LitEvent *event)
{
    LitEvent e = *event;
    int deck = pub->rules.deck, size = lit_deck_set_size(deck);
    e.action = normalize(&event->action, size);
    int st = check(pub, &e.action, NULL);
    if (st != LIT_OK)
        return st;
    if (e.action.kind == LIT_ASK) {
        if (e.answer == LIT_UNKNOWN)
            return LIT_MISSING_OUTCOME;
        if (e.answer != LIT_HIT && e.answer != LIT_MISS)
            return LIT_OUTCOME_MISMATCH;
        memset(e.truth, LIT_NOBODY, sizeof e.truth);
    } else if (e.action.kind == LIT_CLAIM) {
        int need[LIT_MAX_PLAYERS] = {0};
        if (e.answer == LIT_UNKNOWN)
            return LIT_MISSING_OUTCOME;
        for (int i = 0; i < size; i++) {
            if (e.truth[i] == LIT_NOBODY)
                return LIT_MISSING_OUTCOME;
            if (e.truth[i] >= pub->rules.players)
                return LIT_BAD_REVEAL;
            need[e.truth[i]]++;
        }
        for (int i = size; i < LIT_MAX_SET_SIZE; i++)
            e.truth[i] = LIT_NOBODY;
        for (int s = 0; s < pub->rules.players; s++)
            if (need[s] > pub->counts[s])
                return LIT_BAD_REVEAL;
        if (claim_outcome(pub, &e.action, e.truth) != e.answer)
            return LIT_OUTCOME_MISMATCH;
    } else {
        if (e.answer != LIT_UNKNOWN)
            return LIT_OUTCOME_MISMATCH;
        memset(e.truth, LIT_NOBODY, sizeof e.truth);
    }
    transition(pub, &e, NULL);
    return LIT_OK;
}

int lit_public_made(const LitPublic *pub, const LitEvent *event, LitAction *made)
{
    LitPublic p = *pub;
    *made = lit_action_make(0, LIT_NOBODY);
    transition(&p, event, made);
    return made->kind != 0;
}

int lit_game_play(LitGame *game, LitLog *log, const LitAction *action)
{
    if (log->len >= log->cap)
        return LIT_NO_SPACE;
    /* apply writes the event only when the action is made. */
    int st = apply(game, action, &log->events[log->len]);
    if (st == LIT_OK)
        log->len++;
    return st;
}

/* ---- legal actions ------------------------------------------------------- */

int lit_public_legal(const LitPublic *pub, int seat, uint64_t hand,
                     LitAction *out, int cap)
{
    const LitRules *r = &pub->rules;
    int n = 0;
    if (pub->result != LIT_ONGOING || seat != pub->turn)
        return 0;
    unsigned has = pub->holding;
    unsigned mates = has & lit_team_seats(r, lit_team_of(seat));
    unsigned to = 0;
    int kind = LIT_PASS;
    LitAction a = lit_action_make(LIT_ASK, seat);

    switch (pub->phase) {
    case LIT_PHASE_PLAY: {
        if (r->must_claim && lit_whole_sets(pub, hand))
            return 0;
        uint64_t cards = lit_askable(pub, hand);
        unsigned targets = lit_targets(pub, seat);
        while (cards) {
            a.card = (uint8_t)lit_pop_lsb(&cards);
            for (unsigned t = targets; t; t &= t - 1) {
                a.target = (uint8_t)lit_lsb(t);
                if (n < cap)
                    out[n] = a;
                n++;
            }
        }
        if (r->pass_play)
            to = mates & ~(1u << seat);
        break;
    }
    case LIT_PHASE_PASS:
        to = mates & ~(1u << seat);
        break;
    case LIT_PHASE_CHOOSE_ASKER:
        if (r->must_claim && lit_whole_sets(pub, hand))
            return 0;
        to = mates;
        kind = LIT_CHOOSE;
        break;
    case LIT_PHASE_CHOOSE_CLAIMER:
        to = has & ~lit_team_seats(r, lit_team_of(seat));
        kind = LIT_CHOOSE;
        break;
    default:
        return 0;
    }
    a.kind = (uint8_t)kind;
    a.card = LIT_NO_CARD;
    for (; to; to &= to - 1) {
        a.target = (uint8_t)lit_lsb(to);
        if (n < cap)
            out[n] = a;
        n++;
    }
    return n;
}

int lit_game_legal(const LitGame *game, int seat, LitAction *out, int cap)
{
    if (seat < 0 || seat >= game->pub.rules.players)
        return LIT_BAD_SEAT;
    return lit_public_legal(&game->pub, seat, game->hands[seat], out, cap);
}

/* ---- the log and names --------------------------------------------------- */

void lit_log_init(LitLog *log, LitEvent *buffer, uint32_t cap)
{
    log->events = buffer;
    log->len = 0;
    log->cap = cap;
}

int lit_log_push(LitLog *log, const LitEvent *event)
{
    if (log->len >= log->cap)
        return LIT_NO_SPACE;
    log->events[log->len++] = *event;
    return LIT_OK;
}

const char *lit_answer_name(int answer)
{
    static const char *const names[] = {"",          "hit",  "miss",
                                        "won",       "cancelled",
                                        "lost",      "point-off"};
    return answer >= 0 && answer <= LIT_POINT_OFF ? names[answer] : "";
}

const char *lit_result_name(int result)
{
    static const char *const names[] = {"*", "A", "B", "draw", "aborted"};
    return result >= 0 && result <= LIT_ABORTED ? names[result] : "*";
}

const char *lit_phase_name(int phase)
{
    static const char *const names[] = {"play",   "pass",    "choose-asker",
                                        "choose-claimer", "endgame", "over"};
    return phase >= 0 && phase <= LIT_PHASE_OVER ? names[phase] : "";
}
