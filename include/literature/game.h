/* game.h - the position, actions, and the referee's apply / legal.
 *
 * The position (LitGame) is a plain value with no pointers: the public part
 * (LitPublic: rules, hand sizes, turn, phase, claimed sets, scores) and every
 * hand. Copy it with `=`. The history is a separate log of events owned by
 * the caller (LitLog). Seats are 0-based here; every text and JSON interface
 * numbers them 1..N. Seat s belongs to team s % 2 (team A = seats 1, 3, 5...).
 *
 * Nothing here allocates, prints or reads a clock.
 */
#ifndef LITERATURE_GAME_H
#define LITERATURE_GAME_H

#include <stdint.h>
#include <string.h>

#include "cards.h"
#include "rules.h"

enum {
    LIT_NOBODY = 0xFF,
    /* Largest number of asks, passes and choices lit_game_legal can list. */
    LIT_MAX_LEGAL = LIT_MAX_CARDS * (LIT_MAX_PLAYERS / 2) + LIT_MAX_PLAYERS
};

typedef enum LitActionKind {
    LIT_ASK = 1,    /* seat asks target for card */
    LIT_CLAIM = 2,  /* seat claims set, naming holders[pos] for every card */
    LIT_PASS = 3,   /* seat hands the turn to teammate target */
    LIT_CHOOSE = 4  /* seat names target: the next asker or the endgame claimer */
} LitActionKind;

/* What the seat on turn (pub.turn) must do. */
typedef enum LitPhase {
    LIT_PHASE_PLAY = 0,          /* ask (or claim; pass under pass-play) */
    LIT_PHASE_PASS = 1,          /* emptied by a claim: pass to a teammate with cards (or claim) */
    LIT_PHASE_CHOOSE_ASKER = 2,  /* after-claim=team: choose who asks next (or claim) */
    LIT_PHASE_CHOOSE_CLAIMER = 3,/* endgame, own team empty: choose the opponent who claims */
    LIT_PHASE_ENDGAME = 4,       /* endgame: the seat on turn claims every remaining set */
    LIT_PHASE_OVER = 5
} LitPhase;

typedef enum LitResult {
    LIT_ONGOING = 0,
    LIT_WIN_A = 1,
    LIT_WIN_B = 2,
    LIT_DRAW = 3,
    LIT_ABORTED = 4 /* LIT_MAX_ACTIONS reached */
} LitResult;

/* The answer to an ask and the outcome of a claim. */
typedef enum LitAnswer {
    LIT_UNKNOWN = 0,    /* not (yet) known: a record may leave it out */
    LIT_HIT = 1,        /* the target held the card; it moved to the asker */
    LIT_MISS = 2,       /* the target did not; the turn went to the target */
    LIT_WON = 3,        /* right claim: the claiming team won the set */
    LIT_CANCELLED = 4,  /* wrong claim, the set counts for neither team */
    LIT_LOST = 5,       /* wrong claim, the set went to the opponents */
    LIT_POINT_OFF = 6   /* wrong claim, the claiming team lost the set's value */
} LitAnswer;

/* 16 bytes on an 8-byte boundary, the last five always 0: an action is
 * copied as two whole words, and the engine builds one in registers, never
 * from byte stores read back as a word (which stalls store forwarding). */
typedef struct LitAction {
    _Alignas(8) uint8_t kind;           /* LitActionKind */
    uint8_t seat;                       /* who acts */
    uint8_t target;                     /* ask: the opponent; pass, choose: the seat named */
    uint8_t card;                       /* ask: the card */
    uint8_t set;                        /* claim: the set */
    uint8_t holders[LIT_MAX_SET_SIZE];  /* claim: seat named for each position */
    uint8_t zero[5];                    /* always 0 */
} LitAction;

/* An applied action and what became public by it. Events hold only public
 * information: the history of a game is the same for every seat. */
typedef struct LitEvent {
    LitAction action;
    uint8_t answer;                     /* LitAnswer */
    uint8_t truth[LIT_MAX_SET_SIZE];    /* claim: true holder of each position */
    uint8_t zero;                       /* always 0 */
} LitEvent;

_Static_assert(sizeof(LitAction) == 16 && sizeof(LitEvent) == 24,
               "an action is two words, an event three");

/* Everything every seat knows about the position. */
typedef struct LitPublic {
    LitRules rules;
    uint8_t dealer;
    uint8_t turn;                       /* seat on turn (LIT_NOBODY when over) */
    uint8_t phase;                      /* LitPhase */
    uint8_t result;                     /* LitResult */
    uint8_t counts[LIT_MAX_PLAYERS];    /* hand sizes */
    uint16_t holding;                   /* seats with cards (bit = seat) */
    uint16_t actions;                   /* actions applied */
    uint16_t won[2];                    /* sets won by each team (bit = set) */
    uint16_t dead;                      /* sets out of play won by nobody */
    int16_t score[2];                   /* points of team A and team B */
    uint64_t live;                      /* cards of the sets still in play */
} LitPublic;

typedef struct LitGame {
    LitPublic pub;
    uint64_t hands[LIT_MAX_PLAYERS];
} LitGame;

/* The caller's history: events[0 .. len) in a buffer of cap events. */
typedef struct LitLog {
    LitEvent *events;
    uint32_t len;
    uint32_t cap;
} LitLog;

static inline int lit_team_of(int seat)
{
    return seat & 1;
}

/* Seats (bit = seat) of a team. */
static inline unsigned lit_team_seats(const LitRules *rules, int team)
{
    unsigned all = (1u << rules->players) - 1;
    return all & (team ? 0xAAAu : 0x555u);
}

/* An action of kind by seat with every other field unset (target LIT_NOBODY,
 * card and set LIT_NO_CARD, holders LIT_NOBODY): fill in what the kind uses.
 * Actions in events always have their unused fields unset like this. */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define LIT_BYTE_AT(v, k) ((uint64_t)(uint8_t)(v) << (56 - 8 * (k)))
#else
/* The byte v at offset k of a word as the word lies in memory. */
#define LIT_BYTE_AT(v, k) ((uint64_t)(uint8_t)(v) << (8 * (k)))
#endif

/* An action's two words from its fields (holders[0..2] are in the first). */
static inline LitAction lit_action_words(uint64_t w0, uint64_t w1)
{
    LitAction a;
    uint64_t w[2] = {w0, w1};
    memcpy(&a, w, sizeof a);
    return a;
}

static inline LitAction lit_action_make(int kind, int seat)
{
    _Static_assert(LIT_MAX_SET_SIZE == 6, "holders 0 to 2 in the first word, 3 to 5 in the second");
    return lit_action_words(
        LIT_BYTE_AT(kind, 0) | LIT_BYTE_AT(seat, 1) | LIT_BYTE_AT(LIT_NOBODY, 2) |
            LIT_BYTE_AT(LIT_NO_CARD, 3) | LIT_BYTE_AT(LIT_NO_CARD, 4) |
            LIT_BYTE_AT(LIT_NOBODY, 5) | LIT_BYTE_AT(LIT_NOBODY, 6) | LIT_BYTE_AT(LIT_NOBODY, 7),
        LIT_BYTE_AT(LIT_NOBODY, 0) | LIT_BYTE_AT(LIT_NOBODY, 1) | LIT_BYTE_AT(LIT_NOBODY, 2));
}

/* Deals the deck from a seed: the frozen shuffle of docs/RULES.md, one card
 * at a time clockwise from the dealer's left. Unused seats get 0.
 * LIT_BAD_RULE_VALUE or LIT_BAD_SEAT (dealer) leave hands unchanged. */
int lit_deal(const LitRules *rules, uint64_t seed, int dealer,
             uint64_t hands[LIT_MAX_PLAYERS]);

/* Number of cards seat gets in a deal by dealer, or LIT_BAD_RULE_VALUE /
 * LIT_BAD_SEAT (dealer or seat not in the game). */
int lit_deal_size(const LitRules *rules, int dealer, int seat);

/* A new game dealt from a seed. LIT_BAD_RULE_VALUE, LIT_BAD_SEAT (dealer). */
int lit_game_new(LitGame *game, const LitRules *rules, uint64_t seed,
                 int dealer);

/* A new game from given hands: every card of the deck in exactly one hand,
 * every seat at least one card (LIT_BAD_DEAL); sizes need not follow the
 * deal order. */
int lit_game_from_deal(LitGame *game, const LitRules *rules,
                       const uint64_t hands[LIT_MAX_PLAYERS], int dealer);

/* The public position at the start of a game whose deal is unknown: hand
 * sizes follow the deal order. */
int lit_public_init(LitPublic *pub, const LitRules *rules, int dealer);

/* Whether the action is legal now: LIT_OK or the status that refuses it,
 * the checks in the order docs/RULES.md "Order of checks" gives. */
int lit_game_check(const LitGame *game, const LitAction *action);

/* The same from public information and the actor's hand (NULL when not
 * known: the checks that need it are left out). Views use it. */
int lit_public_check(const LitPublic *pub, const LitAction *action,
                     const uint64_t *hand);

/* The status lit_public_check gives seat's ask of target for each card of
 * the deck, in status[card] (a LitStatus); one call in place of a
 * check a card (a client told why it may not ask for each). */
void lit_public_check_asks(const LitPublic *pub, int seat, int target,
                           const uint64_t *hand, int8_t status[LIT_MAX_CARDS]);

/* The pass or the choice the engine made itself after event (as the
 * referee applied it from pub, the position before it): when it left a
 * single seat to pass to or to choose, that is made at once, asked of no one
 * (docs/RULES.md). 1 with *made filled (kind LIT_PASS or LIT_CHOOSE, the seat
 * that passed or chose, the target), else 0 and kind 0. */
int lit_public_made(const LitPublic *pub, const LitEvent *event, LitAction *made);

/* Checks and applies an action. On LIT_OK fills *event (may be NULL) with the
 * action and what it made public. On an error nothing changes. A wrong claim
 * is legal: its outcome is in event->answer. */
int lit_game_apply(LitGame *game, const LitAction *action, LitEvent *event);

/* Applies an action and appends its event to the log: LIT_NO_SPACE (nothing
 * applied) when the log is full. */
int lit_game_play(LitGame *game, LitLog *log, const LitAction *action);

/* Applies an event whose answer is written (a record with no known deal, or
 * a client following the referee): every check of the order of checks that
 * needs no hand, then the answer: an ask's answer is a hit or a miss, a pass
 * or choice has none (LIT_OUTCOME_MISMATCH), a claim reveals a holder for
 * every card (LIT_MISSING_OUTCOME), no seat more cards than it holds
 * (LIT_BAD_REVEAL), and its outcome follows from the holders
 * (LIT_OUTCOME_MISMATCH). Where cards are is not tracked here: lit_replay_step
 * also checks the cards public events have shown, and whether some deal fits
 * at all is for the deduction layer. On an error nothing changes. */
int lit_public_apply(LitPublic *pub, const LitEvent *event);

/* Lists seat's legal asks, passes and choices (claims are validated, not
 * listed: see lit_claimable) into out[0 .. cap). Returns how many there are
 * (possibly more than cap; LIT_MAX_LEGAL always suffices). Order: asks by
 * card then target, then passes and choices by seat. */
int lit_game_legal(const LitGame *game, int seat, LitAction *out, int cap);

/* The same from public information plus the seat's own hand (views use it). */
int lit_public_legal(const LitPublic *pub, int seat, uint64_t hand,
                     LitAction *out, int cap);

/* Cards the holder of hand may ask for if on turn in the play phase: cards of
 * live sets in which the hand holds another card, not in the hand unless
 * bluffs are allowed. */
static inline uint64_t lit_askable(const LitPublic *pub, uint64_t hand)
{
    int deck = pub->rules.deck;
    hand &= pub->live;
    uint64_t sets = lit_sets_touched(deck, hand);
    if (!pub->rules.bluff)
        return sets & ~hand;
    /* Under bluffs a held card may be asked for when another card of the
     * set stays in hand as the base (000's "another card"): drop only the
     * cards that are their set's single card in hand. */
    uint64_t out = sets, rest = hand;
    while (rest) {
        uint64_t m = lit_set_mask(deck, lit_set_of(deck, lit_lsb(rest)));
        if (lit_popcount(hand & m) == 1)
            out &= ~(hand & m);
        rest &= ~m;
    }
    return out;
}

/* Seats (bit = seat) of the other team than seat's that hold cards. */
static inline unsigned lit_targets(const LitPublic *pub, int seat)
{
    return pub->holding & lit_team_seats(&pub->rules, 1 - lit_team_of(seat));
}

/* Sets (bit = set) seat may claim now. */
unsigned lit_claimable(const LitPublic *pub, int seat);

/* Sets (bit = set) still in play that hand holds entirely. */
static inline unsigned lit_whole_sets(const LitPublic *pub, uint64_t hand)
{
    int deck = pub->rules.deck;
    uint64_t starts = lit_sets_whole(deck, hand & pub->live);
    unsigned sets = 0;
    while (starts)
        sets |= 1u << lit_set_of(deck, lit_pop_lsb(&starts));
    return sets;
}

/* Whether the game has ended (won, drawn or aborted). */
static inline int lit_game_over(const LitGame *game)
{
    return game->pub.result != LIT_ONGOING;
}

void lit_log_init(LitLog *log, LitEvent *buffer, uint32_t cap);

/* Appends a copy of the event: LIT_NO_SPACE when full. */
int lit_log_push(LitLog *log, const LitEvent *event);

/* Words of the notation, also used in JSON: "hit", "won", ...; "" for
 * LIT_UNKNOWN. Static storage. */
const char *lit_answer_name(int answer);
const char *lit_result_name(int result); /* "A", "B", "draw", "aborted", "*" */
const char *lit_phase_name(int phase);   /* "play", "pass", ... "over" */

#endif
