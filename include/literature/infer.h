/* infer.h - deduction from one seat's view: where the cards are.
 *
 * A LitKnow is what one seat (or, for the public view, every seat and every
 * spectator) can be certain of: for every live card the seats that may hold
 * it and the seat that surely does, for every seat and set the least number of
 * that set's cards the seat must hold. It reads only the seat's own hand and
 * the public history; it never sees the other hands.
 *
 * How (docs/DEDUCTION.md): a card whose holder is not certain has not moved
 * since the deal (every move is a public hit), so each fact of the history is
 * a fact about where such cards are now: a miss says the target lacks the
 * card; an ask says the asker holds another card of the set (a clause "one of
 * these cards is at this seat"); under must-claim, acting without claiming
 * says the seat lacks some card of every live set (a clause "one of these is
 * not at this seat"); hits and claims place cards. Hand sizes count. All of
 * it is propagated to a fixpoint after every event. A plain value: copy with
 * `=`; nothing here allocates.
 */
#ifndef LITERATURE_INFER_H
#define LITERATURE_INFER_H

#include <stdint.h>

#include "game.h"
#include "rng.h"
#include "u192.h"
#include "view.h"

enum {
    /* Clauses kept per seat and set: only the minimal ones are kept (a clause
     * on a superset of another's cards says less), and the minimal subsets of
     * a six-card set number at most C(6,3) = 20, so this never overflows. */
    LIT_KNOW_CLAUSES = 20
};

typedef struct LitKnow {
    LitPublic pub;                   /* the public position, kept in step */
    uint8_t seat;                    /* whose knowledge; LIT_NOBODY: public */
    uint8_t consistent;              /* 0 once no deal can fit the history */
    uint8_t slots[LIT_MAX_PLAYERS];  /* cards of each seat not yet placed */
    uint64_t held[LIT_MAX_PLAYERS];  /* cards each seat surely holds */
    uint64_t may[LIT_MAX_PLAYERS];   /* cards not yet placed each seat may hold */
    /* "seat holds one of these cards" and "seat lacks one of these cards",
     * as position masks within the set, per seat and set. */
    uint8_t need[LIT_MAX_PLAYERS][LIT_MAX_SETS][LIT_KNOW_CLAUSES];
    uint8_t lack[LIT_MAX_PLAYERS][LIT_MAX_SETS][LIT_KNOW_CLAUSES];
    uint8_t n_need[LIT_MAX_PLAYERS][LIT_MAX_SETS];
    uint8_t n_lack[LIT_MAX_PLAYERS][LIT_MAX_SETS];
} LitKnow;

/* Knowledge at the start of a game: seat's dealt hand (LIT_NOBODY and 0 for
 * the public view). LIT_BAD_RULE_VALUE, LIT_BAD_SEAT, LIT_BAD_DEAL (the hand
 * is not of the deck or not of the size the deal gives the seat). */
int lit_know_start(LitKnow *k, const LitRules *rules, int dealer, int seat,
                   uint64_t hand);

/* Knowledge of a view: its seat's hand and the whole public history (the
 * hand the seat was dealt is worked back from the history). Statuses as
 * lit_know_start and lit_know_apply. */
int lit_know_from_view(LitKnow *k, const LitView *view);

/* Brings the knowledge up to date with one more event, with every answer
 * written (as lit_public_apply). Statuses of lit_public_apply; on an error
 * nothing changes. A history that no deal fits is not an error: it clears
 * k->consistent (for a referee's events that never happens). */
int lit_know_apply(LitKnow *k, const LitEvent *event);

/* What the knowledge would be were card known to be at seat (a what-if:
 * the card placed there, and all that follows propagated; lit_odds of the
 * result counts the deals with the card there). A card already placed at
 * seat changes nothing; one placed elsewhere, or that seat may not hold,
 * clears k->consistent. LIT_BAD_CARD for a card not in play, LIT_BAD_SEAT
 * for a seat not in the game: k is then unchanged. */
int lit_know_assume(LitKnow *k, int card, int seat);

/* The seat that surely holds card, or LIT_NOBODY. */
int lit_know_holder(const LitKnow *k, int card);

/* Seats (bit = seat) that may hold card: one seat when it is certain, none
 * for a card out of play. */
unsigned lit_know_candidates(const LitKnow *k, int card);

/* The least number of cards of set that seat must hold now. */
int lit_know_min_hold(const LitKnow *k, int seat, int set);

/* Whether some deal fits the knowledge: 1, or 0 when none does, decided
 * exactly at every size (k->consistent is what follows cheaply from each
 * event, and may miss that the constraints cannot all be met at once): a
 * flow of the cards into the seats' slots, searching by branches only on
 * the clauses a flow cannot state (docs/DEDUCTION.md "Feasibility").
 * Allocates nothing: the network (11 KiB) and a copy of the knowledge a
 * branch (7 KiB) live on the stack. */
int lit_know_feasible(const LitKnow *k);

/* ---- exact counting and probabilities ------------------------------------ */

/* Exact odds under a uniform prior over every deal consistent with the view
 * (docs/DEDUCTION.md "Exact counting"). */
typedef struct LitOdds {
    uint8_t exact;        /* 1: every figure below is exact. 0 from lit_odds:
                           * the position is beyond the workspace or the
                           * state budget, and nothing below but work is
                           * filled; 0 from lit_odds_estimate: the figures
                           * are estimates (samples > 0) */
    LitU192 deals;        /* consistent deals (0: no deal fits) */
    uint32_t states;      /* the largest layer of the dynamic program */
    uint32_t stepped;     /* its layers made card by card (docs/DEDUCTION.md) */
    uint32_t horner;      /* ... of them with Horner steps, and of those */
    uint32_t mixed;       /* with inclusion-exclusion over other clauses too */
    uint32_t ahead;       /* blocks whose G came from the F before theirs, */
    uint32_t behind;      /* from the layer after the next block, */
    uint32_t turned;      /* over the layer after them rather than F; */
    uint32_t forward_vectors; /* blocks by steps whose next F went by vectors */
    uint32_t derived;     /* blocks whose marginals came by derivatives */
    uint32_t pruned;      /* states the backward layers dropped, which the
                           * blocks before them cannot complete */
    uint32_t dense_pools; /* chains of short pools (a mixed set's claims)
                           * in dense tables */
    uint8_t narrow;       /* 1: counted in two words, every count below 2^128 */
    uint64_t work;        /* the work done, in the units of LIT_ODDS_BUDGET
                           * (at 10 and 12 players at most that, however
                           * many plans it tried) */
    /* P(seat holds card), for live cards (0 for cards out of play) */
    double p[LIT_MAX_CARDS][LIT_MAX_PLAYERS];
    /* For each live set and team: P(the team holds every card of the set),
     * the most likely placement of its cards among the team's seats, and the
     * probability that this placement is right (what a claim needs). */
    double team_all[2][LIT_MAX_SETS];
    uint8_t best[2][LIT_MAX_SETS][LIT_MAX_SET_SIZE];
    double best_p[2][LIT_MAX_SETS];
    /* Filled by lit_odds_estimate only (exact == 0, samples > 0): the draws,
     * the estimated number of consistent deals, and the standard error of
     * every figure above. */
    uint32_t samples;
    double deals_estimate, deals_se;
    double p_se[LIT_MAX_CARDS][LIT_MAX_PLAYERS];
    double team_all_se[2][LIT_MAX_SETS];
    double best_p_se[2][LIT_MAX_SETS];
} LitOdds;

enum {
    /* Workspace that lit_odds needs for every position of 4 to 8 players
     * (the states of the dynamic program; docs/DEDUCTION.md). */
    LIT_ODDS_WORK = 64u << 20,
    /* The state budget at 10 and 12 players: the work lit_odds may do,
     * counted as it is done (each state a block meets, by a vector or a
     * step's field, going back through its layers, twice going forward,
     * three times for one adding into a large hashed layer, and 8 for
     * each step of the walk of a block's local table); where it would go
     * past this it stops and says exact == 0 (and lit_odds_estimate
     * answers). Chosen over the corpus for the worst position's counting,
     * and the time to find a position beyond it, to stay well under 50 ms
     * (docs/DEDUCTION.md "The state budget"). */
    LIT_ODDS_BUDGET = 1u << 22,
    /* The estimate's independent batches: its standard errors are the
     * jackknife over them, so a figure's error in them follows Student's t
     * with 39 degrees of freedom, and about 2 standard errors each way make
     * a 95% interval (2.023; docs/DEDUCTION.md "How often the quoted
     * interval holds the truth"). */
    LIT_ESTIMATE_BATCHES = 40,
    LIT_ESTIMATE_MIN = 2 * LIT_ESTIMATE_BATCHES /* the fewest draws of an estimate */
};

/* Exact counts and probabilities from knowledge k, in the caller's
 * workspace (work_size bytes of any alignment, LIT_ODDS_WORK recommended).
 * LIT_OK with odds->exact == 0 when the position needs more than the
 * workspace holds or, at 10 and 12 players, is beyond LIT_ODDS_BUDGET;
 * LIT_INCONSISTENT when k is. */
int lit_odds(const LitKnow *k, void *work, size_t work_size, LitOdds *odds);

/* A second thread that a caller lends lit_odds_helped (the counting never
 * starts a thread of its own). run(h, fn, arg) starts fn(arg) on that
 * thread and returns 0, or returns non-zero when it cannot, and the
 * counting then calls fn(arg) itself; wait(h) returns once the call that
 * run started has returned. The counting starts one call at a time and
 * waits for it before it returns; it lends the helper the forward sweep's
 * chain of layers and some of its blocks, where a position is large
 * enough (docs/DEDUCTION.md "Two threads"). One helper serves one count
 * at a time. */
typedef struct LitHelper LitHelper;
struct LitHelper {
    int (*run)(LitHelper *h, void (*fn)(void *), void *arg);
    void (*wait)(LitHelper *h);
};

/* lit_odds with a helper (NULL: none): the same figures and counters,
 * every one, sooner where the position is large and the helper runs on
 * another core. */
int lit_odds_helped(const LitKnow *k, void *work, size_t work_size, LitHelper *helper,
                    LitOdds *odds);

/* The count alone, *deals (lit_odds' odds->deals, without its marginals
 * and claim figures: the backward layers only). LIT_OK (0 deals when none
 * fits); LIT_NO_SPACE where lit_odds says exact == 0; LIT_INCONSISTENT when
 * k is (*deals then 0). */
int lit_odds_count(const LitKnow *k, void *work, size_t work_size, LitU192 *deals);

/* The figures of lit_odds estimated by importance sampling, for positions
 * beyond the state budget (docs/DEDUCTION.md "Beyond the budget"): samples
 * weighted draws from rng, in LIT_ESTIMATE_BATCHES batches (samples rounded
 * down to a multiple of them). Fills odds with exact == 0,
 * samples, an estimate of every probability and claim figure, the estimated
 * count, and their standard errors (every standard error is 1 when fewer
 * than two batches drew a deal that meets the history; every figure 0 when
 * none did; a card's chance at a seat that may hold it has at least the
 * error of a share none of the effective draws saw, about one over their
 * number, unless it is exact). work holds at least lit_odds_estimate_work(samples) bytes,
 * of any alignment. LIT_OK; LIT_INCONSISTENT; LIT_NO_SPACE (samples below
 * LIT_ESTIMATE_MIN or
 * above 2^22, or the workspace too small: about 300 bytes a draw and 3 MiB);
 * on an error odds is untouched. */
int lit_odds_estimate(const LitKnow *k, LitRng *rng, uint32_t samples, void *work,
                      size_t work_size, LitOdds *odds);
size_t lit_odds_estimate_work(uint32_t samples);

/* The figures to show or play by: lit_odds, and where it does not count
 * exactly, lit_odds_estimate with samples draws from a generator seeded
 * by seed (so the same position gives the same figures). LIT_OK, or the
 * status of either. */
int lit_odds_or_estimate(const LitKnow *k, uint32_t samples, uint64_t seed, void *work,
                         size_t work_size, LitOdds *odds);

/* ---- exact uniform sampling ----------------------------------------------- */

/* A sampler draws deals uniformly from every deal consistent with a view:
 * each with probability exactly 1 / (consistent deals). It lives in the
 * caller's workspace (docs/DEDUCTION.md "Sampling"). */
typedef struct LitSampler LitSampler;

/* Prepares sampling from knowledge k in work (work_size bytes of any
 * alignment; LIT_ODDS_WORK recommended), which the sampler then occupies:
 * keep it unchanged while drawing. k is copied. Sets *sampler. LIT_OK;
 * LIT_INCONSISTENT when no deal fits; LIT_NO_SPACE when the position needs
 * more than the workspace holds or, at 10 and 12 players, is beyond
 * LIT_ODDS_BUDGET (the sampler keeps more than lit_odds, its placements by
 * vector, so a position lit_odds counts may still need a larger workspace
 * here). */
int lit_sampler_init(LitSampler **sampler, const LitKnow *k, void *work, size_t work_size);

/* Draws one deal: every seat's present hand, the placed cards and the drawn
 * ones (a card not placed has not moved since the deal, so this is also
 * where it was dealt). Deterministic for a given rng state. */
void lit_sampler_draw(const LitSampler *sampler, LitRng *rng, uint64_t hands[LIT_MAX_PLAYERS]);

/* The number of deals it draws from. */
LitU192 lit_sampler_deals(const LitSampler *sampler);

#endif
