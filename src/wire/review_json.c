/* review_json.c - a review of one seat's decisions as JSON (docs/REVIEW.md). */
#include "review_json.h"

#include "wire.h"

/* A probability, or null for none (a pass, a choice, waiting). */
static json_t *chance(double p)
{
    return p < 0 ? json_null() : json_real(p);
}

/* A rate of k over n, or null when n is 0. */
static json_t *rate(double k, uint32_t n)
{
    return n ? json_real(k / n) : json_null();
}

/* The figures of a judged action on obj. */
static void set_judged(json_t *obj, const LitJudged *j)
{
    json_object_set_new(obj, "chance", chance(j->chance));
    json_object_set_new(obj, "estimated", json_boolean(j->estimated));
    json_object_set_new(obj, "value", json_real(j->value));
}

static json_t *decision(const LitRules *r, const LitDecision *d)
{
    json_t *j = wire_event(r, &d->event, d->n);
    json_t *best = d->best.action.kind == LIT_REVIEW_WAIT
                       ? json_pack("{s:s,s:i}", "action", "wait", "seat", d->best.action.seat + 1)
                       : wire_action(r, &d->best.action);
    if (!j || !best) {
        json_decref(j);
        json_decref(best);
        return NULL;
    }
    set_judged(j, &d->done);
    set_judged(best, &d->best);
    json_object_set_new(j, "best", best);
    json_object_set_new(j, "same", json_boolean(d->same));
    json_object_set_new(j, "cost", json_real(d->cost));
    json_object_set_new(j, "grade", json_string(lit_grade_name(d->grade)));
    if (d->event.action.kind == LIT_ASK)
        json_object_set_new(j, "best_hit", json_real(d->best_hit));
    json_object_set_new(j, "surest_ask", d->surest_ask < 0 ? json_null() : json_real(d->surest_ask));
    if (d->event.action.kind == LIT_CLAIM)
        json_object_set_new(j, "team_holds_all", json_real(d->team_all));
    return j;
}

static json_t *summary(const LitRules *r, const LitReviewSummary *s)
{
    json_t *grades = json_object(), *kept = json_array();
    for (int g = 0; g < LIT_GRADES; g++)
        json_object_set_new(grades, lit_grade_name(g), json_integer(s->grades[g]));
    for (int set = 0; set < lit_deck_sets(r->deck); set++)
        if (s->kept_by_claim >> set & 1)
            json_array_append_new(kept, json_pack("{s:s,s:i,s:i,s:i,s:s}", "set",
                                                  lit_set_name(r->deck, set), "sure_at",
                                                  (int)s->sure_at[set], "lost_at",
                                                  (int)s->lost_at[set], "claimed_by",
                                                  s->lost_by[set] + 1, "outcome",
                                                  lit_answer_name(s->lost_how[set])));
    return json_pack("{s:i,s:i,s:i,s:o,s:o,s:o,s:i,s:i,s:i,s:i,s:i,s:o,s:f,s:i,s:o,s:i}", "decisions",
                     (int)s->decisions, "asks", (int)s->asks, "hits", (int)s->hits, "hit_rate",
                     rate(s->hits, s->asks), "expected_hit_rate", rate(s->expected_hits, s->asks),
                     "best_hit_rate", rate(s->best_hits, s->asks), "claims", (int)s->claims,
                     "claims_won", (int)s->claims_won, "misclaims", (int)s->misclaims, "passes",
                     (int)s->passes, "choices", (int)s->choices, "grades", grades, "cost", s->cost,
                     "estimated", (int)s->estimated, "kept_by_earlier_claim", kept, "stand_ins",
                     (int)s->stand_ins);
}

json_t *wire_review(const LitRules *r, int seat, const LitReviewOptions *opt, const LitDecision *d,
                    uint32_t n, const LitReviewSummary *s)
{
    char rules[LIT_RULES_TEXT_MAX], bot[LIT_BOT_TEXT_MAX];
    LitBotSpec spec = {LIT_BOT_BEST, 0, opt->rollouts};
    if (lit_rules_format(r, rules, sizeof rules) < 0 ||
        lit_bot_spec_format(&spec, bot, sizeof bot) < 0)
        return NULL;
    json_t *list = json_array();
    for (uint32_t i = 0; list && i < n; i++) {
        json_t *one = decision(r, &d[i]);
        if (!one || json_array_append_new(list, one)) {
            json_decref(list);
            return NULL;
        }
    }
    return json_pack("{s:i,s:s,s:s,s:I,s:o,s:o}", "seat", seat + 1, "rules", rules, "bot", bot,
                     "seed", (json_int_t)opt->seed, "decisions", list, "summary", summary(r, s));
}
