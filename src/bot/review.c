/* review.c - a review of one seat's decisions (docs/REVIEW.md).
 *
 * One pass over the game: the referee's position (for the seat's own hand
 * at each moment), the seat's knowledge (lit_know_apply) and the best bot
 * (LIT_BOT_BEST, master) following the seat's view are kept in step, event
 * by event. At each
 * decision of the seat:
 *   1. the odds of the seat's view: exact (lit_odds), or estimated beyond
 *      the state budget (lit_odds_estimate);
 *   2. the action done, judged: an ask by its chance to hit; a claim by the
 *      chance that its whole placement is right (a joint probability, not a
 *      product of marginals: counted with the placement imposed, below) and
 *      its expected result under the room's misclaim rule;
 *   3. the best bot's action in the same view (reseeded per decision, so a
 *      decision's figures do not depend on the draws of earlier ones),
 *      judged the same way;
 *   4. the cost of the difference and its grade;
 *   5. the sets a sure claim was open for, to find those the seat's team
 *      did not win in the end (docs/REVIEW.md "Sets an earlier claim would
 *      have kept").
 */
#include "literature/review.h"

#include <string.h>

#include "../core/work.h"
#include "literature/infer.h"
#include "literature/notation.h"
#include "literature/status.h"

/* What the review keeps in the caller's workspace (too large for a stack a
 * server's worker thread may have), before the bot's and the counting's
 * workspace. */
typedef struct Scratch {
    LitBot bot;
    LitKnow know;
    LitOdds odds;
} Scratch;

_Static_assert(sizeof(Scratch) + 16 <= LIT_REVIEW_WORK - LIT_BOT_WORK,
               "the review's scratch fits beside the bot's workspace");

LitReviewOptions lit_review_defaults(void)
{
    LitReviewOptions o = {LIT_EXPERT_ROLLOUTS, 1, LIT_REVIEW_SAMPLES, NULL};
    return o;
}

const char *lit_grade_name(int grade)
{
    static const char *const names[LIT_GRADES] = {"best", "good", "inaccuracy", "mistake"};
    return grade >= 0 && grade < LIT_GRADES ? names[grade] : "";
}

/* Whether two actions are the same (the fields each kind uses). */
static int same_action(const LitRules *r, const LitAction *a, const LitAction *b)
{
    if (a->kind != b->kind || a->seat != b->seat)
        return 0;
    switch (a->kind) {
    case LIT_ASK:
        return a->card == b->card && a->target == b->target;
    case LIT_CLAIM:
        return a->set == b->set &&
               memcmp(a->holders, b->holders, (size_t)lit_deck_set_size(r->deck)) == 0;
    case LIT_PASS:
    case LIT_CHOOSE:
        return a->target == b->target;
    default:
        return 1;
    }
}

/* The expected result of a claim in units of the set's value: right with
 * chance p, the team holding every card with chance q; on_team when the
 * placement names only the claiming team's seats (then a right claim is one
 * where the team held every card). A wrong claim counts as the misclaim
 * rule judges it: cancelled 0, lost or point-off -1 (docs/RULES.md). */
static double claim_value(const LitRules *r, double p, double q, int on_team)
{
    double inside = r->misclaim == LIT_MISCLAIM_OPPONENTS ? -1.0 : 0.0;
    double wrong_inside = q - (on_team ? p : 0.0);
    if (wrong_inside < 0)
        wrong_inside = 0;
    double wrong_outside = 1.0 - p - wrong_inside;
    if (wrong_outside < 0)
        wrong_outside = 0;
    return p + inside * wrong_inside - wrong_outside;
}

static double clamp01(double x)
{
    return x < 0 ? 0 : x > 1 ? 1 : x;
}

/* Where lit_claim_chance counts: the knowledge with the claim imposed and
 * its odds, then the counting's workspace. */
typedef struct Cond {
    LitKnow know;
    LitOdds odds;
} Cond;

_Static_assert(sizeof(Cond) + 16 <= LIT_REVIEW_CLAIM_WORK - LIT_ODDS_WORK,
               "the claim's scratch fits beside the counting's workspace");

/* The claim is imposed as a right one (an event revealing every card where
 * the claim names it, outcome won): certain knowledge is equivalent to the
 * history (docs/DEDUCTION.md), so the deals consistent with the history and
 * the imposed placement number exactly those of the knowledge after that
 * event, and the chance is their ratio to o's count. A placement no deal
 * fits (a seat shown more cards than it holds, a card where the history
 * says it cannot be) has chance 0. Beyond the budget both counts are
 * estimated, from the same seed (the likeliest placement takes the
 * estimate of o itself). */
int lit_claim_chance(const LitKnow *k, const LitOdds *o, const LitAction *a, uint32_t samples,
                     uint64_t seed, void *work, size_t work_size, double *chance, int *estimated)
{
    if (!work || work_size < LIT_REVIEW_CLAIM_WORK)
        return LIT_NO_SPACE;
    LitWork w = lit_work_of(work, work_size);
    Cond *x = lit_work_take(&w, sizeof *x);
    const LitRules *r = &k->pub.rules;
    int set_size = lit_deck_set_size(r->deck);
    if (a->kind != LIT_CLAIM || a->seat != k->seat || a->seat >= r->players ||
        a->set >= lit_deck_sets(r->deck))
        return LIT_BAD_ACTION;
    for (int i = 0; i < set_size; i++)
        if (a->holders[i] >= r->players)
            return LIT_BAD_SEAT;
    if (!o->exact && !o->samples)
        return LIT_INCONSISTENT; /* no figures to start from */
    int team = lit_team_of(a->seat);
    *estimated = !o->exact;
    *chance = 0;
    if (!o->exact && memcmp(a->holders, o->best[team][a->set], (size_t)set_size) == 0) {
        *chance = clamp01(o->best_p[team][a->set]);
        return LIT_OK;
    }
    LitEvent e;
    memset(&e, 0, sizeof e);
    e.action = *a;
    e.answer = LIT_WON;
    memset(e.truth, LIT_NOBODY, sizeof e.truth);
    memcpy(e.truth, a->holders, (size_t)set_size);
    /* Who may claim, and when, does not change where the cards are: the
     * claim is imposed as if its seat were on turn in the play phase, with
     * claims naming opponents allowed (the placement may name any seat). */
    x->know = *k;
    x->know.pub.turn = a->seat;
    x->know.pub.phase = LIT_PHASE_PLAY;
    x->know.pub.rules.claim_time = LIT_CLAIM_OWN_TURN;
    x->know.pub.rules.split_claims = 1;
    if (lit_know_apply(&x->know, &e) != LIT_OK || !x->know.consistent)
        return LIT_OK;
    if (lit_odds_or_estimate(&x->know, samples, seed, w.p, w.left, &x->odds) != LIT_OK)
        return LIT_OK;
    if (o->exact && x->odds.exact) {
        *chance = clamp01(lit_u192_ratio(&x->odds.deals, &o->deals));
        return LIT_OK;
    }
    *estimated = 1;
    double num = x->odds.exact ? lit_u192_to_double(&x->odds.deals) : x->odds.deals_estimate;
    double den = o->exact ? lit_u192_to_double(&o->deals) : o->deals_estimate;
    *chance = den > 0 ? clamp01(num / den) : 0;
    return LIT_OK;
}

/* Judges action a of the seat in view v (the seat's knowledge and its odds
 * in x). */
static LitJudged judge(Scratch *x, const LitView *v, const LitAction *a, uint32_t samples,
                       uint64_t seed, void *work, size_t size)
{
    const LitOdds *o = &x->odds;
    const LitRules *r = &v->pub.rules;
    LitJudged j;
    memset(&j, 0, sizeof j); /* padding too: decisions compare byte for byte */
    j.action = *a;
    j.chance = -1;
    j.value = 1;
    j.estimated = 0;
    if (a->kind == LIT_ASK) {
        j.chance = clamp01(o->p[a->card][a->target]);
        j.estimated = !o->exact;
        /* beyond the budget too, what certain knowledge settles is exact:
         * the card surely at a seat, or surely not at the target */
        int holder = lit_know_holder(&x->know, a->card);
        if (!o->exact && holder != LIT_NOBODY) {
            j.chance = holder == a->target;
            j.estimated = 0;
        } else if (!o->exact && !(x->know.may[a->target] & lit_bit(a->card))) {
            j.chance = 0;
            j.estimated = 0;
        }
        j.value = j.chance;
    } else if (a->kind == LIT_CLAIM) {
        int team = lit_team_of(a->seat), on_team = 1, est = 0;
        for (int i = 0; i < lit_deck_set_size(r->deck); i++)
            on_team &= a->holders[i] < r->players && lit_team_of(a->holders[i]) == team;
        double q = clamp01(o->team_all[team][a->set]);
        if (r->claim_time == LIT_CLAIM_PENALTY && v->pub.turn != a->seat) {
            j.chance = 0; /* out of turn: judged wrong whatever it names */
            est = !o->exact;
        } else {
            if (lit_claim_chance(&x->know, o, a, samples, seed, work, size, &j.chance, &est) !=
                LIT_OK)
                j.chance = 0;
        }
        j.value = claim_value(r, j.chance, q, on_team);
        j.estimated = (uint8_t)est;
    }
    return j;
}

/* Whether the seat could claim set for sure in its view: it may claim it,
 * and the likeliest placement is right with chance LIT_REVIEW_SURE or more
 * by the exact count, or (an estimate) certain knowledge places every card
 * of it on the team. */
static int sure_claim(const Scratch *x, const LitView *v, int set)
{
    const LitKnow *k = &x->know;
    int deck = v->pub.rules.deck, team = lit_team_of(v->seat);
    if (!(lit_claimable(&v->pub, v->seat) >> set & 1))
        return 0;
    /* out of turn under claim-time=penalty a claim is wrong whatever it
     * names: no sure one is open */
    if (v->pub.rules.claim_time == LIT_CLAIM_PENALTY && v->pub.turn != v->seat)
        return 0;
    if (x->odds.exact)
        return x->odds.best_p[team][set] >= LIT_REVIEW_SURE;
    for (uint64_t m = lit_set_mask(deck, set) & v->pub.live; m;) {
        int h = lit_know_holder(k, lit_pop_lsb(&m));
        if (h == LIT_NOBODY || lit_team_of(h) != team)
            return 0;
    }
    return 1;
}

/* The grade of a decision's cost. */
static uint8_t grade_of(int same, double cost)
{
    if (same)
        return LIT_GRADE_BEST;
    if (cost < LIT_REVIEW_INACCURACY)
        return LIT_GRADE_GOOD;
    return cost < LIT_REVIEW_MISTAKE ? LIT_GRADE_INACCURACY : LIT_GRADE_MISTAKE;
}

/* The decision at event i (the seat's action; v its view before it).
 * LIT_OK or the status of a counting or of the bot. */
static int decide(Scratch *x, const LitView *v, const LitEvent *e, uint32_t i,
                  const LitReviewOptions *opt, void *work, size_t size, LitDecision *d)
{
    const LitRules *r = &v->pub.rules;
    uint64_t seed = lit_seed_mix(opt->seed, i);
    uint64_t draws = lit_seed_mix(seed, 1);
    memset(d, 0, sizeof *d);
    d->n = i + 1;
    d->event = *e;
    d->best_hit = -1;
    d->team_all = -1;

    /* 1. The odds of the seat's view. */
    int st = lit_odds_or_estimate(&x->know, opt->samples, draws, work, size, &x->odds);
    if (st != LIT_OK)
        return st;

    /* 2. What was done, and the surest ask on offer (-1: none, as out of
     * turn or in another phase). */
    d->done = judge(x, v, &e->action, opt->samples, draws, work, size);
    double surest = -1;
    LitAction legal[LIT_MAX_LEGAL];
    int n = lit_view_legal(v, legal, LIT_MAX_LEGAL);
    for (int k = 0; k < n; k++)
        if (legal[k].kind == LIT_ASK && x->odds.p[legal[k].card][legal[k].target] > surest)
            surest = clamp01(x->odds.p[legal[k].card][legal[k].target]);
    d->surest_ask = surest;
    if (e->action.kind == LIT_ASK) {
        d->best_hit = surest < d->done.chance ? d->done.chance : surest;
    } else if (e->action.kind == LIT_CLAIM) {
        d->team_all = clamp01(x->odds.team_all[lit_team_of(v->seat)][e->action.set]);
    }

    /* 3. The best bot's action from the same view (it acts only on turn: out
     * of turn it waits). */
    LitAction best;
    lit_rng_seed(&x->bot.rng, seed);
    st = lit_bot_act(&x->bot, v, &best);
    if (st == LIT_NOT_YOUR_TURN) {
        memset(&d->best, 0, sizeof d->best);
        d->best.action = lit_action_make(LIT_REVIEW_WAIT, v->seat);
        d->best.chance = -1;
        d->best.value = 1;
    } else if (st != LIT_OK) {
        return st;
    } else if (same_action(r, &best, &e->action)) {
        d->best = d->done;
        d->same = 1;
    } else {
        d->best = judge(x, v, &best, opt->samples, draws, work, size);
    }

    /* 4. The cost and the grade: against the better of master's action
     * and the surest ask on offer (master, weighing more than the chance,
     * may choose a claim worth less than a sure hit: an ask that must miss
     * is no better for it). */
    double reference = d->best.value > surest ? d->best.value : surest;
    if (!d->same && reference > d->done.value)
        d->cost = reference - d->done.value;
    d->grade = grade_of(d->same, d->cost);
    return LIT_OK;
}

/* Adds decision d to the summary. */
static void count(LitReviewSummary *s, const LitDecision *d)
{
    const LitEvent *e = &d->event;
    s->decisions++;
    switch (e->action.kind) {
    case LIT_ASK:
        s->asks++;
        s->hits += e->answer == LIT_HIT;
        s->expected_hits += d->done.chance;
        s->best_hits += d->best_hit;
        break;
    case LIT_CLAIM:
        s->claims++;
        s->claims_won += e->answer == LIT_WON;
        s->misclaims += e->answer != LIT_WON;
        break;
    case LIT_PASS:
        s->passes++;
        break;
    default:
        s->choices++;
        break;
    }
    s->grades[d->grade]++;
    s->cost += d->cost;
    s->estimated += d->done.estimated || d->best.estimated;
}

/* Whether the referee's event matches the written one (answer, and the
 * holders a claim revealed). */
static int same_event(const LitRules *r, const LitEvent *a, const LitEvent *b)
{
    if (!same_action(r, &a->action, &b->action) || a->answer != b->answer)
        return 0;
    return a->action.kind != LIT_CLAIM ||
           memcmp(a->truth, b->truth, (size_t)lit_deck_set_size(r->deck)) == 0;
}

int lit_review(const LitGame *start, const LitEvent *events, uint32_t n_events, int seat,
               const LitReviewOptions *options, void *work, size_t work_size,
               LitDecision *out, uint32_t cap, LitReviewSummary *summary)
{
    LitReviewOptions opt = options ? *options : lit_review_defaults();
    const LitRules *r = &start->pub.rules;
    int st = lit_rules_check(r);
    if (st != LIT_OK)
        return st;
    if (seat < 0 || seat >= r->players)
        return LIT_BAD_SEAT;
    if (opt.rollouts > LIT_EXPERT_ROLLOUTS_MAX || opt.samples < LIT_REVIEW_SAMPLES_MIN ||
        opt.samples > LIT_REVIEW_SAMPLES_MAX)
        return LIT_BAD_BOT_OPTION;

    /* The workspace: the scratch, then the bot's and the counting's (the
     * bot uses it only inside lit_bot_act, so the two share it). */
    if (!work || work_size < LIT_REVIEW_WORK)
        return LIT_NO_SPACE;
    LitWork w = lit_work_of(work, work_size);
    Scratch *x = lit_work_take(&w, sizeof *x);

    LitBotSpec spec = lit_bot_spec_default(LIT_BOT_BEST);
    spec.rollouts = opt.rollouts;
    st = lit_bot_init(&x->bot, &spec, opt.seed);
    if (st != LIT_OK)
        return st;
    lit_bot_lend(&x->bot, w.p, w.left);
    st = lit_know_start(&x->know, r, start->pub.dealer, seat, start->hands[seat]);
    if (st != LIT_OK)
        return st;

    LitReviewSummary s;
    memset(&s, 0, sizeof s);
    LitGame game = *start;
    uint32_t found = 0;
    int team = lit_team_of(seat), deck = r->deck;
    uint16_t sure = 0; /* sets a sure claim was open for, not yet claimed */
    for (uint32_t i = 0; i < n_events; i++) {
        /* The referee checks the event first: a decision is judged only
         * once its action is known to be legal and its answer right. */
        const LitEvent *e = &events[i];
        LitGame next = game;
        LitEvent applied;
        st = lit_game_apply(&next, &e->action, &applied);
        if (st != LIT_OK)
            return st;
        if (!same_event(r, &applied, e))
            return LIT_OUTCOME_MISMATCH;
        if (e->action.seat == seat && opt.by && opt.by[i] != LIT_BY_SEAT) {
            s.stand_ins++;
        } else if (e->action.seat == seat) {
            LitView v;
            v.pub = game.pub;
            v.seat = (uint8_t)seat;
            v.hand = game.hands[seat];
            v.history = events;
            v.history_len = i;
            LitDecision d;
            st = decide(x, &v, e, i, &opt, w.p, w.left, &d);
            if (st != LIT_OK)
                return st;
            count(&s, &d);
            for (int set = 0; set < lit_deck_sets(deck); set++)
                if (!(sure >> set & 1) && (game.pub.live & lit_set_mask(deck, set)) &&
                    sure_claim(x, &v, set)) {
                    sure |= (uint16_t)(1u << set);
                    s.sure_at[set] = i + 1;
                }
            if (found < cap)
                out[found] = d;
            found++;
        }
        game = next;
        st = lit_know_apply(&x->know, &applied);
        if (st != LIT_OK)
            return st;
        /* 5. A claim ends the set's story: kept for the summary when a
         * sure claim was open to the seat and its team did not win the set
         * (the opponents claimed it, or a claim of the team was wrong). */
        if (applied.action.kind == LIT_CLAIM) {
            int set = applied.action.set;
            if ((sure >> set & 1) &&
                !(lit_team_of(applied.action.seat) == team && applied.answer == LIT_WON)) {
                s.kept_by_claim |= (uint16_t)(1u << set);
                s.lost_at[set] = i + 1;
                s.lost_by[set] = applied.action.seat;
                s.lost_how[set] = applied.answer;
            } else {
                s.sure_at[set] = 0;
            }
            sure &= (uint16_t)~(1u << set);
        }
    }
    for (int set = 0; set < LIT_MAX_SETS; set++)
        if (!(s.kept_by_claim >> set & 1))
            s.sure_at[set] = 0;
    if (summary)
        *summary = s;
    return (int)found;
}
