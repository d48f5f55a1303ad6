/* know.c - certain knowledge of where the cards are (see infer.h).
 *
 * Invariants between events:
 *   - held[s] are the cards surely at s; a card is in at most one held[s];
 *   - the cards not placed are live & ~(every held); may[s] is the subset s
 *     may hold, and only seats with slots left may hold any;
 *   - slots[s] = counts[s] - |held[s]|;
 *   - a clause mentions only cards not placed: place() settles or shrinks
 *     every clause of the card's set the moment its holder is known.
 * A card not placed has not moved since the deal, so a fact about where it
 * was when an event happened is a fact about where it is now.
 */
#include "literature/infer.h"

#include <string.h>

#include "literature/status.h"

static int set_size(const LitKnow *k)
{
    return lit_deck_set_size(k->pub.rules.deck);
}

static uint64_t placed(const LitKnow *k)
{
    uint64_t all = 0;
    for (int s = 0; s < k->pub.rules.players; s++)
        all |= k->held[s];
    return all;
}

/* Clause lists: position masks within a set. */
static void drop(uint8_t *list, uint8_t *n, int i)
{
    list[i] = list[--*n];
}

/* Adds clause x to a list, keeping only minimal clauses. */
static void add_minimal(uint8_t *list, uint8_t *n, uint8_t x)
{
    for (int i = 0; i < *n; i++)
        if ((list[i] & x) == list[i])
            return; /* a clause on fewer cards says more */
    for (int i = 0; i < *n;)
        if ((list[i] & x) == x)
            drop(list, n, i);
        else
            i++;
    /* Minimal subsets of a set form an antichain: at most 20 for 6 cards. */
    list[(*n)++] = x;
}

static void place(LitKnow *k, int card, int seat);

/* Clause "seat holds one of the cards pos (of set)": settled, shrunk to the
 * cards seat may hold, or, when a single card is left, that card placed. */
static void need(LitKnow *k, int seat, int set, uint8_t pos)
{
    int first = lit_set_first(k->pub.rules.deck, set);
    uint64_t cards = (uint64_t)pos << first;
    if (k->held[seat] & cards)
        return;
    cards &= k->may[seat];
    if (!cards) {
        k->consistent = 0;
        return;
    }
    if (lit_popcount(cards) == 1) {
        place(k, lit_lsb(cards), seat);
        return;
    }
    add_minimal(k->need[seat][set], &k->n_need[seat][set], (uint8_t)(cards >> first));
}

/* Clause "seat lacks one of the cards pos (of set)". */
static void lack(LitKnow *k, int seat, int set, uint8_t pos)
{
    int first = lit_set_first(k->pub.rules.deck, set);
    uint64_t cards = (uint64_t)pos << first;
    uint64_t elsewhere = placed(k) & ~k->held[seat];
    if ((cards & elsewhere) || (cards & ~k->held[seat] & ~k->may[seat]))
        return; /* a card surely not at seat */
    cards &= ~k->held[seat];
    if (!cards) {
        k->consistent = 0;
        return;
    }
    if (lit_popcount(cards) == 1) {
        k->may[seat] &= ~cards;
        return;
    }
    add_minimal(k->lack[seat][set], &k->n_lack[seat][set], (uint8_t)(cards >> first));
}

/* The holder of card is now known: seat. */
static void place(LitKnow *k, int card, int seat)
{
    int players = k->pub.rules.players, deck = k->pub.rules.deck;
    int set = lit_set_of(deck, card);
    uint8_t pos = (uint8_t)(1u << lit_pos_of(deck, card));
    uint64_t bit = lit_bit(card);
    if (!(k->may[seat] & bit) || k->slots[seat] == 0) {
        k->consistent = 0;
        return;
    }
    for (int s = 0; s < players; s++)
        k->may[s] &= ~bit;
    k->held[seat] |= bit;
    k->slots[seat]--;
    /* Settle or shrink the clauses of the card's set; a clause left with one
     * card is re-added, which places or excludes that card. */
    for (int s = 0; s < players; s++) {
        uint8_t *n = &k->n_need[s][set], *list = k->need[s][set];
        for (int i = 0; i < *n;) {
            if (!(list[i] & pos)) {
                i++;
            } else if (s == seat) {
                drop(list, n, i);
            } else {
                uint8_t rest = (uint8_t)(list[i] & ~pos);
                drop(list, n, i);
                need(k, s, set, rest);
                i = 0; /* the list may have changed under us */
            }
        }
        n = &k->n_lack[s][set];
        list = k->lack[s][set];
        for (int i = 0; i < *n;) {
            if (!(list[i] & pos)) {
                i++;
            } else if (s != seat) {
                drop(list, n, i);
            } else {
                uint8_t rest = (uint8_t)(list[i] & ~pos);
                drop(list, n, i);
                lack(k, s, set, rest);
                i = 0;
            }
        }
    }
}

/* The fewest cards of set not yet placed that seat must hold to meet every
 * "holds one of" clause of it: at most 64 subsets of what it may hold (7:
 * none meets them). */
static int fewest(const LitKnow *k, int seat, int set)
{
    int n = k->n_need[seat][set];
    if (!n)
        return 0;
    int first = lit_set_first(k->pub.rules.deck, set), best = 7;
    uint8_t may = (uint8_t)(k->may[seat] >> first) & (uint8_t)((1u << set_size(k)) - 1);
    for (unsigned sub = may;; sub = (sub - 1) & may) {
        int ok = 1;
        for (int i = 0; i < n && ok; i++)
            ok = (k->need[seat][set][i] & sub) != 0;
        if (ok && lit_popcount(sub) < best)
            best = lit_popcount(sub);
        if (sub == 0)
            break;
    }
    return best;
}

/* 5. A seat's unplaced cards cannot meet its clauses of every set at once:
 * the fewest each set needs add up to more than its slots (a seat of 3
 * cards that must hold a card of 4 sets). Sets are disjoint, so the sum is
 * a bound every deal must meet; found once the fixpoint is reached. */
static void clauses_fit(LitKnow *k)
{
    int players = k->pub.rules.players, sets = lit_deck_sets(k->pub.rules.deck);
    for (int s = 0; s < players && k->consistent; s++) {
        /* a set needs at most a card a clause: most of the time the
         * clauses are too few to matter, and no subset is looked at */
        int clauses = 0;
        for (int set = 0; set < sets; set++)
            clauses += k->n_need[s][set];
        if (clauses <= k->slots[s])
            continue;
        int need = 0;
        for (int set = 0; set < sets; set++)
            need += fewest(k, s, set);
        if (need > k->slots[s])
            k->consistent = 0;
    }
}

/* Everything that follows from the counts and the clauses, to a fixpoint. */
static void propagate(LitKnow *k)
{
    int players = k->pub.rules.players, deck = k->pub.rules.deck;
    int changed = 1;
    while (changed && k->consistent) {
        changed = 0;
        /* 1. A seat with no slot left holds no other card. */
        for (int s = 0; s < players; s++)
            if (k->slots[s] == 0 && k->may[s]) {
                k->may[s] = 0;
                changed = 1;
            }
        /* 2. A card no seat may hold is a contradiction; a card one seat
         * may hold is there. */
        uint64_t open = k->pub.live & ~placed(k), ones = 0, twos = 0;
        for (int s = 0; s < players; s++) {
            twos |= ones & k->may[s];
            ones |= k->may[s];
        }
        if (open & ~ones) {
            k->consistent = 0;
            return;
        }
        for (uint64_t single = open & ones & ~twos; single && k->consistent;) {
            int card = lit_pop_lsb(&single);
            for (int s = 0; s < players; s++)
                if (k->may[s] & lit_bit(card)) {
                    place(k, card, s);
                    break;
                }
            changed = 1;
        }
        /* 3. A seat with as many slots as candidate cards holds them all;
         * with fewer candidates than slots, no deal fits. Each card is
         * taken from may[s] as it is now: placing one can place others at
         * s through the clauses (a copy taken before would place those
         * twice, which reads as a contradiction). */
        for (int s = 0; s < players && k->consistent; s++) {
            int n = lit_popcount(k->may[s]);
            if (n < k->slots[s]) {
                k->consistent = 0;
            } else if (n && n == k->slots[s]) {
                while (k->may[s] && k->consistent)
                    place(k, lit_lsb(k->may[s]), s);
                changed = 1;
            }
        }
        /* 4. Clauses whose cards a seat may no longer hold. */
        for (int s = 0; s < players && k->consistent; s++) {
            for (int set = 0; set < lit_deck_sets(deck) && k->consistent; set++) {
                int first = lit_set_first(deck, set);
                uint8_t may = (uint8_t)(k->may[s] >> first) &
                              (uint8_t)((1u << set_size(k)) - 1);
                uint8_t *n = &k->n_need[s][set], *list = k->need[s][set];
                for (int i = 0; i < *n && k->consistent;) {
                    if ((list[i] & may) == list[i]) {
                        i++;
                        continue;
                    }
                    uint8_t rest = list[i] & may;
                    drop(list, n, i);
                    need(k, s, set, rest);
                    changed = 1;
                    i = 0;
                }
                n = &k->n_lack[s][set];
                list = k->lack[s][set];
                for (int i = 0; i < *n && k->consistent;) {
                    if ((list[i] & may) == list[i]) {
                        i++;
                        continue;
                    }
                    drop(list, n, i); /* a card of it cannot be at s */
                    changed = 1;
                }
            }
        }
    }
    clauses_fit(k);
}

int lit_know_start(LitKnow *k, const LitRules *rules, int dealer, int seat,
                   uint64_t hand)
{
    LitPublic pub;
    int st = lit_public_init(&pub, rules, dealer);
    if (st != LIT_OK)
        return st;
    if (seat != LIT_NOBODY && (seat < 0 || seat >= rules->players))
        return LIT_BAD_SEAT;
    uint64_t deck = lit_deck_mask(rules->deck);
    if (seat == LIT_NOBODY ? hand != 0
                           : (hand & ~deck) || lit_popcount(hand) != pub.counts[seat])
        return LIT_BAD_DEAL;
    memset(k, 0, sizeof *k);
    k->pub = pub;
    k->seat = (uint8_t)seat;
    k->consistent = 1;
    for (int s = 0; s < rules->players; s++) {
        if (s == seat) {
            k->held[s] = hand;
        } else {
            k->may[s] = deck & ~hand;
            k->slots[s] = pub.counts[s];
        }
    }
    propagate(k);
    return LIT_OK;
}

int lit_know_from_view(LitKnow *k, const LitView *view)
{
    const LitPublic *p = &view->pub;
    int deck = p->rules.deck, me = view->seat;
    uint64_t hand = view->hand;
    /* The dealt hand: the history undone, newest first. */
    for (uint32_t i = view->history_len; i-- > 0;) {
        const LitEvent *e = &view->history[i];
        const LitAction *a = &e->action;
        if (me == LIT_NOBODY)
            break;
        if (a->kind == LIT_ASK && e->answer == LIT_HIT) {
            if (a->seat == me)
                hand &= ~lit_bit(a->card);
            if (a->target == me)
                hand |= lit_bit(a->card);
        } else if (a->kind == LIT_CLAIM) {
            for (int i2 = 0; i2 < lit_deck_set_size(deck); i2++)
                if (e->truth[i2] == me)
                    hand |= lit_bit(lit_set_first(deck, a->set) + i2);
        }
    }
    int st = lit_know_start(k, &p->rules, p->dealer, me, hand);
    for (uint32_t i = 0; st == LIT_OK && i < view->history_len; i++)
        st = lit_know_apply(k, &view->history[i]);
    return st;
}

/* Under must-claim, a seat that acted without claiming held no whole set. */
static void no_whole_set(LitKnow *k, int seat)
{
    int deck = k->pub.rules.deck;
    for (int set = 0; set < lit_deck_sets(deck); set++)
        if (k->pub.live & lit_set_mask(deck, set))
            lack(k, seat, set, (uint8_t)((1u << set_size(k)) - 1));
}

int lit_know_apply(LitKnow *k, const LitEvent *event)
{
    LitPublic pub = k->pub;
    int st = lit_public_apply(&pub, event);
    if (st != LIT_OK)
        return st;
    const LitAction *a = &event->action;
    int deck = k->pub.rules.deck, players = k->pub.rules.players;
    if (!k->consistent) {
        k->pub = pub;
        return LIT_OK;
    }
    if (a->kind != LIT_CLAIM && k->pub.rules.must_claim)
        no_whole_set(k, a->seat);
    if (a->kind == LIT_ASK) {
        int set = lit_set_of(deck, a->card), pos = lit_pos_of(deck, a->card);
        uint64_t bit = lit_bit(a->card);
        /* The asker held another card of the set, and (without bluffs) not
         * this one. */
        need(k, a->seat, set, (uint8_t)(((1u << set_size(k)) - 1) & ~(1u << pos)));
        if (!k->pub.rules.bluff) {
            if (k->held[a->seat] & bit)
                k->consistent = 0;
            k->may[a->seat] &= ~bit;
        }
        if (event->answer == LIT_HIT) {
            if (k->consistent && !(k->held[a->target] & bit))
                place(k, a->card, a->target);
            if (k->consistent) {
                /* The card moves in public; both hand sizes move with it. */
                k->held[a->target] &= ~bit;
                k->held[a->seat] |= bit;
            }
        } else {
            if (k->held[a->target] & bit)
                k->consistent = 0;
            k->may[a->target] &= ~bit;
        }
    } else if (a->kind == LIT_CLAIM) {
        /* Every holder is shown; then the set leaves play. */
        int first = lit_set_first(deck, a->set);
        uint64_t m = lit_set_mask(deck, a->set);
        for (int i = 0; i < set_size(k) && k->consistent; i++) {
            int card = first + i, who = event->truth[i];
            if (!(k->held[who] & lit_bit(card)))
                place(k, card, who);
        }
        for (int s = 0; s < players; s++) {
            k->held[s] &= ~m;
            k->may[s] &= ~m;
            k->n_need[s][a->set] = 0;
            k->n_lack[s][a->set] = 0;
        }
    }
    k->pub = pub;
    /* slots follow the new hand sizes */
    for (int s = 0; s < players && k->consistent; s++) {
        int n = pub.counts[s] - lit_popcount(k->held[s]);
        if (n < 0)
            k->consistent = 0;
        else
            k->slots[s] = (uint8_t)n;
    }
    propagate(k);
    return LIT_OK;
}

int lit_know_assume(LitKnow *k, int card, int seat)
{
    if (card < 0 || card >= lit_deck_cards(k->pub.rules.deck) || !(k->pub.live & lit_bit(card)))
        return LIT_BAD_CARD;
    if (seat < 0 || seat >= k->pub.rules.players)
        return LIT_BAD_SEAT;
    if (!(k->held[seat] & lit_bit(card)) && k->consistent) {
        place(k, card, seat);
        propagate(k);
    }
    return LIT_OK;
}

int lit_know_holder(const LitKnow *k, int card)
{
    if (card < 0 || card >= lit_deck_cards(k->pub.rules.deck))
        return LIT_NOBODY;
    for (int s = 0; s < k->pub.rules.players; s++)
        if (k->held[s] & lit_bit(card))
            return s;
    return LIT_NOBODY;
}

unsigned lit_know_candidates(const LitKnow *k, int card)
{
    unsigned out = 0;
    if (card < 0 || card >= lit_deck_cards(k->pub.rules.deck))
        return 0;
    for (int s = 0; s < k->pub.rules.players; s++)
        if ((k->held[s] | k->may[s]) & lit_bit(card))
            out |= 1u << s;
    return out;
}

int lit_know_min_hold(const LitKnow *k, int seat, int set)
{
    int deck = k->pub.rules.deck;
    if (seat < 0 || seat >= k->pub.rules.players || set < 0 ||
        set >= lit_deck_sets(deck))
        return 0;
    int best = fewest(k, seat, set);
    return lit_popcount(k->held[seat] & lit_set_mask(deck, set)) + (best > 6 ? 0 : best);
}

/* ---- exact feasibility (lit_know_feasible) ------------------------------- */

/* Whether some deal fits the knowledge is a flow problem but for some
 * clauses. Each card not placed goes to one seat that may hold it, each
 * seat takes exactly its slots, and the cards of a set a seat takes are
 * bounded: at least one when the seat "holds one of" every card of the set
 * it may hold, at most all but one when it "lacks one of" them. Sets are
 * disjoint, so these are bounds on the edges of a network
 *   source -> card (1) -> (seat, set) [lower, upper] -> seat -> sink (slots)
 * and an integral flow of it is a deal (Ford and Fulkerson; bounds below by
 * the usual change of demands). A clause on fewer cards than the seat may
 * hold of the set, or two clauses of one seat and set, are no bound on a
 * sum: for those the search branches (a "holds one of" clause on the card
 * the seat holds, a "lacks one of" clause on the card it lacks, each branch
 * carried to its fixpoint by propagate), and each branch places a card or
 * takes one from may, so it ends. */
enum {
    FLOW_SOURCE = 0,
    FLOW_SINK = 1,
    FLOW_NODES = 2 + LIT_MAX_CARDS + LIT_MAX_PLAYERS * LIT_MAX_SETS + LIT_MAX_PLAYERS,
    FLOW_EDGES = 2 * (LIT_MAX_CARDS * (LIT_MAX_PLAYERS + 1) +
                      2 * LIT_MAX_PLAYERS * LIT_MAX_SETS + LIT_MAX_PLAYERS)
};

typedef struct Flow {
    int16_t head[FLOW_NODES], next[FLOW_EDGES], to[FLOW_EDGES];
    uint8_t cap[FLOW_EDGES];
    uint8_t seen[FLOW_NODES];
    int n_nodes, n_edges;
} Flow;

static int flow_node(Flow *f)
{
    f->head[f->n_nodes] = -1;
    return f->n_nodes++;
}

/* An edge u -> v of capacity cap, and its residual twin (edge ^ 1). */
static void flow_edge(Flow *f, int u, int v, int cap)
{
    int e = f->n_edges;
    f->to[e] = (int16_t)v;
    f->cap[e] = (uint8_t)cap;
    f->next[e] = f->head[u];
    f->head[u] = (int16_t)e;
    f->to[e + 1] = (int16_t)u;
    f->cap[e + 1] = 0;
    f->next[e + 1] = f->head[v];
    f->head[v] = (int16_t)(e + 1);
    f->n_edges = e + 2;
}

/* One unit from u to the sink along edges with room left: 1, or 0. */
static int flow_augment(Flow *f, int u)
{
    if (u == FLOW_SINK)
        return 1;
    f->seen[u] = 1;
    for (int e = f->head[u]; e >= 0; e = f->next[e]) {
        int v = f->to[e];
        if (f->cap[e] && !f->seen[v] && flow_augment(f, v)) {
            f->cap[e]--;
            f->cap[e ^ 1]++;
            return 1;
        }
    }
    return 0;
}

/* The position mask of the cards of set that seat may hold. */
static uint8_t may_in(const LitKnow *k, int seat, int set)
{
    int first = lit_set_first(k->pub.rules.deck, set);
    return (uint8_t)((k->may[seat] >> first) & ((1u << set_size(k)) - 1));
}

/* Whether a deal fits k when every clause of it is a bound on a sum (no
 * clause left for branch()): the network above, and a flow of every card. */
static int flow_fits(const LitKnow *k)
{
    int players = k->pub.rules.players, deck = k->pub.rules.deck;
    int sets = lit_deck_sets(deck);
    Flow f; /* 11 KiB of stack: lit_know_feasible's note */
    f.n_nodes = f.n_edges = 0;
    flow_node(&f); /* the source */
    flow_node(&f); /* the sink */
    uint64_t open = k->pub.live & ~placed(k);
    int card_node[LIT_MAX_CARDS], cards = 0, slots = 0;
    for (uint64_t left = open; left;) {
        int c = lit_pop_lsb(&left);
        card_node[c] = flow_node(&f);
        flow_edge(&f, FLOW_SOURCE, card_node[c], 1);
        cards++;
    }
    for (int s = 0; s < players; s++) {
        slots += k->slots[s];
        int seat = flow_node(&f), least = 0;
        for (int set = 0; set < sets; set++) {
            int first = lit_set_first(deck, set);
            uint8_t m = may_in(k, s, set) & (uint8_t)(open >> first);
            int lower = k->n_need[s][set] > 0;
            int upper = lit_popcount(m) - (k->n_lack[s][set] > 0);
            if (upper < lower)
                return 0;
            if (!m)
                continue;
            int pair = flow_node(&f);
            for (uint8_t left = m; left; left &= (uint8_t)(left - 1))
                flow_edge(&f, card_node[first + lit_lsb(left)], pair, 1);
            flow_edge(&f, pair, seat, upper - lower);
            if (lower)
                flow_edge(&f, pair, FLOW_SINK, lower);
            least += lower;
        }
        if (least > k->slots[s])
            return 0;
        flow_edge(&f, seat, FLOW_SINK, k->slots[s] - least);
    }
    if (cards != slots)
        return 0;
    for (int i = 0; i < cards; i++) {
        memset(f.seen, 0, (size_t)f.n_nodes);
        if (!flow_augment(&f, FLOW_SOURCE))
            return 0;
    }
    return 1;
}

/* A clause that is no bound on a sum, the one of fewest cards: 1 (its
 * seat, set, cards, and whether it is a "lacks one of"), or 0 (none). */
static int branch(const LitKnow *k, int *seat, int *set, uint8_t *cards, int *lacks)
{
    int players = k->pub.rules.players, sets = lit_deck_sets(k->pub.rules.deck);
    int best = 7;
    for (int s = 0; s < players; s++)
        for (int t = 0; t < sets; t++) {
            uint8_t m = may_in(k, s, t);
            for (int kind = 0; kind < 2; kind++) {
                int n = kind ? k->n_lack[s][t] : k->n_need[s][t];
                const uint8_t *list = kind ? k->lack[s][t] : k->need[s][t];
                if (n == 0 || (n == 1 && list[0] == m))
                    continue;
                for (int i = 0; i < n; i++)
                    if (lit_popcount(list[i]) < best) {
                        best = lit_popcount(list[i]);
                        *seat = s, *set = t, *cards = list[i], *lacks = kind;
                    }
            }
        }
    return best < 7;
}

int lit_know_feasible(const LitKnow *k)
{
    if (!k->consistent)
        return 0;
    int seat, set, lacks;
    uint8_t cards;
    if (!branch(k, &seat, &set, &cards, &lacks))
        return flow_fits(k);
    int first = lit_set_first(k->pub.rules.deck, set);
    for (uint8_t left = cards; left; left &= (uint8_t)(left - 1)) {
        int card = first + lit_lsb(left);
        LitKnow next = *k;
        if (lacks)
            next.may[seat] &= ~lit_bit(card);
        else
            place(&next, card, seat);
        propagate(&next);
        if (lit_know_feasible(&next))
            return 1;
    }
    return 0;
}
