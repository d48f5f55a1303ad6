/* review_json.h - a review of one seat's decisions as JSON (`lit review
 * --json`; docs/REVIEW.md gives every key). Kept beside wire.h, in its own
 * file, so that the review's words can change without touching the
 * protocol's. */
#ifndef LIT_WIRE_REVIEW_JSON_H
#define LIT_WIRE_REVIEW_JSON_H

#include <jansson.h>
#include <stdint.h>

#include "literature/review.h"

/* The whole review: "seat" (1-based), "rules" (the rules text), "bot" (the
 * bot text, "expert:64"), "seed", "decisions" (one object per decision of
 * d[0 .. n): the event's fields as wire_event gives them, then "chance",
 * "estimated", "value", "best", "same", "cost", "grade", and "best_hit" for
 * an ask, "team_holds_all" for a claim) and "summary". A new reference the
 * caller owns; NULL when jansson runs out of memory. */
json_t *wire_review(const LitRules *rules, int seat, const LitReviewOptions *options,
                    const LitDecision *d, uint32_t n, const LitReviewSummary *s);

#endif
