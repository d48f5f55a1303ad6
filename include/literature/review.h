/* review.h - a review of one seat's decisions in a finished (or unfinished)
 * game: what it did, its chance of success from its own view at that moment,
 * what the expert bot would have done from the same view, and the expected
 * cost of the difference (docs/REVIEW.md).
 *
 * Every figure is taken from the seat's view alone: its hand and the public
 * history up to the decision (lit_know_apply, lit_odds, lit_odds_estimate),
 * never the true deal. The deal is needed only to know the seat's hand at
 * each moment, as a player knows its own cards.
 *
 * Like the rest of the library this allocates nothing, prints nothing and
 * reads no clock: the caller lends a workspace and the arrays to fill, so a
 * server can call it as the `lit review` command does.
 */
#ifndef LITERATURE_REVIEW_H
#define LITERATURE_REVIEW_H

#include <stddef.h>
#include <stdint.h>

#include "bot.h"
#include "game.h"

enum {
    /* The workspace lit_review needs: the bot's, and its own knowledge and
     * odds (docs/REVIEW.md). */
    LIT_REVIEW_WORK = LIT_BOT_WORK + (1u << 20),
    /* The workspace lit_claim_chance needs: the counting's, and the
     * knowledge with the claim imposed. */
    LIT_REVIEW_CLAIM_WORK = LIT_ODDS_WORK + (1u << 20),
    /* Draws for the estimates beyond the state budget (10 and 12 players):
     * the default and the range accepted. */
    LIT_REVIEW_SAMPLES = 20000,
    LIT_REVIEW_SAMPLES_MIN = LIT_ESTIMATE_MIN,
    LIT_REVIEW_SAMPLES_MAX = 200000
};

/* The grades of a decision, by its cost (docs/REVIEW.md "Grades"). */
typedef enum LitGrade {
    LIT_GRADE_BEST = 0,       /* the action the bot chose */
    LIT_GRADE_GOOD = 1,       /* another action, cost below LIT_REVIEW_INACCURACY */
    LIT_GRADE_INACCURACY = 2, /* cost from LIT_REVIEW_INACCURACY to below LIT_REVIEW_MISTAKE */
    LIT_GRADE_MISTAKE = 3,    /* cost LIT_REVIEW_MISTAKE or more */
    LIT_GRADES
} LitGrade;

/* The thresholds of the grades, in units of the cost (docs/REVIEW.md). */
#define LIT_REVIEW_INACCURACY 0.10
#define LIT_REVIEW_MISTAKE 0.30
/* A claim is sure when its placement's chance is at least this. */
#define LIT_REVIEW_SURE (1.0 - 1e-9)

/* The kind of LitJudged.action for "the bot would not act here": a claim
 * the seat made out of turn (claim-time any-time or penalty), where the bot,
 * which acts only on turn, waits. */
enum { LIT_REVIEW_WAIT = 0 };

/* What the review is made with. */
typedef struct LitReviewOptions {
    uint32_t rollouts; /* the bot's budget (LIT_EXPERT_ROLLOUTS: its default) */
    uint64_t seed;     /* its draws, and those of the estimates */
    uint32_t samples;  /* draws of an estimate (LIT_REVIEW_SAMPLES) */
    /* Optional, one an event: who chose it (LitBy, a record's marks). An
     * action of the seat that its player did not choose (a stand-in's, a
     * fallback) is no decision of it: not judged, only counted
     * (LitReviewSummary.stand_ins). NULL: every action the seat's own. */
    const uint8_t *by;
} LitReviewOptions;

/* An action and how it was judged from the seat's view. */
typedef struct LitJudged {
    LitAction action;  /* kind LIT_REVIEW_WAIT: no action (best only) */
    double chance;     /* ask: P(the target holds the card); claim: P(every
                        * card is where the claim names it); -1 for a pass,
                        * a choice or waiting, which cannot fail */
    double value;      /* what the cost compares: the chance of an ask; a
                        * claim's expected result in units of the set's value
                        * (1 won, 0 cancelled, -1 lost or point-off) under the
                        * room's misclaim rule; 1 for a pass, a choice or
                        * waiting */
    uint8_t estimated; /* 1: chance and value are estimates by sampling */
} LitJudged;

/* One decision of the seat. */
typedef struct LitDecision {
    uint32_t n;           /* the action's number in the record, from 1 */
    LitEvent event;       /* what was done, and what it made public */
    LitJudged done;       /* how it was judged */
    LitJudged best;       /* the expert's action in the same position */
    uint8_t same;         /* 1: the same action as the expert's */
    uint8_t grade;        /* LitGrade */
    double cost;          /* max(0, best.value - done.value); 0 when same */
    double best_hit;      /* an ask: the highest P(hit) of any legal ask; else -1 */
    double surest_ask;    /* the highest P(hit) of any legal ask, whatever was
                           * done (-1: the seat could not ask); the cost is
                           * against it where it is worth more than master's
                           * action */
    double team_all;      /* a claim: P(the team holds every card of the set); else -1 */
} LitDecision;

/* The whole review of the seat. */
typedef struct LitReviewSummary {
    uint32_t decisions, asks, hits, claims, claims_won, misclaims, passes, choices;
    uint32_t stand_ins;       /* the seat's actions its player did not choose */
    double expected_hits;     /* sum of the chances of the seat's asks */
    double best_hits;         /* sum of their best_hit */
    uint32_t grades[LIT_GRADES]; /* decisions of each grade */
    double cost;              /* sum of the costs */
    uint32_t estimated;       /* decisions with an estimated figure */
    /* Sets an earlier claim would have kept (docs/REVIEW.md): at some
     * decision of the seat a sure claim of the set was open to it (the
     * chance of the likeliest placement at least LIT_REVIEW_SURE), and its
     * team did not win the set: the opponents claimed it (split-claims), or
     * a claim of the team was wrong. Bit = set; for each, the number of the
     * first such decision, and of the claim that ended the set, its seat and
     * its outcome (LitAnswer). */
    uint16_t kept_by_claim;
    uint32_t sure_at[LIT_MAX_SETS];
    uint32_t lost_at[LIT_MAX_SETS];
    uint8_t lost_by[LIT_MAX_SETS];
    uint8_t lost_how[LIT_MAX_SETS];
} LitReviewSummary;

/* The options' defaults: the expert's default budget, seed 1, the default
 * draws. */
LitReviewOptions lit_review_defaults(void);

/* Reviews seat's decisions: the actions events[0 .. n_events) played from
 * the position start (the dealt game: rules, dealer, every hand), each
 * event with its answer and revealed holders written as the referee gave
 * them (lit_replay_step's out). Fills out[0 .. min(count, cap)) in the order
 * of the record and *summary (may be NULL), in work (work_size bytes of any
 * alignment; LIT_REVIEW_WORK), which it uses only during the call. Returns
 * the number of the seat's decisions (possibly more than cap), or: the
 * status of lit_rules_check for start's rules, LIT_BAD_SEAT (seat not in
 * the game), LIT_BAD_BOT_OPTION (rollouts above
 * LIT_EXPERT_ROLLOUTS_MAX or samples out of range), LIT_NO_SPACE (work too
 * small), the status of lit_game_apply for an action the referee refuses,
 * LIT_OUTCOME_MISMATCH for an answer or a holder that is not what the
 * referee gives; out and *summary are then unspecified. Deterministic: the
 * same arguments give the same figures. */
int lit_review(const LitGame *start, const LitEvent *events, uint32_t n_events, int seat,
               const LitReviewOptions *options, void *work, size_t work_size,
               LitDecision *out, uint32_t cap, LitReviewSummary *summary);

/* The chance that claim's placement is right (every card where it names
 * it), a claim by k's seat, from knowledge k whose odds are o (lit_odds, or
 * lit_odds_estimate beyond the budget): a joint probability over the set's
 * cards, counted exactly with the placement imposed (docs/REVIEW.md "The
 * chance of a claim"), or estimated when o is, from samples draws seeded by
 * seed. In work (work_size bytes of any alignment, LIT_REVIEW_CLAIM_WORK).
 * Sets *chance and *estimated (1 for an estimate). LIT_OK; LIT_NO_SPACE;
 * LIT_BAD_ACTION (not a claim of a set of the deck by k's seat, or k is the
 * public view);
 * LIT_BAD_SEAT (a holder not in the game); LIT_INCONSISTENT (o has no
 * figures). A placement no deal fits has chance 0, and so does a claim a
 * counting cannot take (beyond the estimate's workspace). */
int lit_claim_chance(const LitKnow *k, const LitOdds *o, const LitAction *claim, uint32_t samples,
                     uint64_t seed, void *work, size_t work_size, double *chance, int *estimated);

/* Name of a grade ("best", "good", "inaccuracy", "mistake"), "" for none.
 * Static storage. */
const char *lit_grade_name(int grade);

#endif
