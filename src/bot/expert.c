/* expert.c - the strongest player we can make (docs/BOTS.md "expert").
 *
 * A decision, in stages (each says why it exists):
 *   1. the exact odds of its seat's view (lit_odds; estimates beyond the
 *      state budget): P(seat holds card), and per set P(the team holds it
 *      all), the likeliest placement and P(that placement is right);
 *   2. the endgame and the turn-passing phases, which need no search;
 *   3. claims, decided by the exact probabilities and the rules' payoffs,
 *      never by a sampled deal (in a sampled deal every claim looks sure);
 *      a set the team surely holds entirely is kept as a stalemate-breaker
 *      while asking goes well;
 *   4. asks: every legal ask scored by its exact chance to hit, less the
 *      danger of handing the turn to that opponent (000's "locking out")
 *      and what the question tells the opponents; a sure hit is taken at
 *      once;
 *   5. a search over the best few: rollouts in deals drawn exactly from the
 *      belief (LitSampler), each candidate played in the same deals, every
 *      seat after it played by basic on its own view (policy.c); the mean
 *      result, weighted, is added to the ask score. A fixed number of
 *      rollouts, so results repeat.
 */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "../core/work.h"
#include "internal.h"
#include "literature/status.h"

enum {
    CANDIDATES = 4,      /* asks searched */
    HORIZON = 20         /* actions a rollout plays */
};

/* Weights of the ask score (stage 4), in units of a sure hit. */
#define DANGER_WEIGHT 0.08 /* per card the opponent could then take for sure */
#define LEAK_WEIGHT 0.03   /* telling the opponents a set of ours */
#define PROGRESS_WEIGHT 0.15
/* Claims (stage 3): the least expected gain of an uncertain claim, in units
 * of the set's value, while asking goes well and when it does not. */
#define CLAIM_WHILE_ASKING 0.80
#define CLAIM_BEFORE_MISSING 0.50
/* Asking goes well while some ask hits with at least this chance. */
#define GOOD_ASK 0.5
/* A rollout's value: the point margin, and this for the result. */
#define WIN_VALUE 2.0
/* A candidate's final score: its ask score plus this times its mean
 * rollout value (measured: rollouts alone ranked the asks worse than the
 * score, 0.426 [0.384, 0.469] against expert:0 over 200 deals; blended,
 * they break near ties). */
#define ROLLOUT_WEIGHT 0.02

typedef struct Scratch {
    LitOdds odds;
    LitOdds behaved; /* master's */
    BehavePool pool; /* master's */
    LitBot sim[LIT_MAX_PLAYERS];
    LitEvent log[LIT_MAX_ACTIONS];
} Scratch;

typedef struct Candidate {
    LitAction a;
    double score, value;
} Candidate;

void lit_bot_lend(LitBot *bot, void *work, size_t size)
{
    bot->work = work;
    bot->work_size = size;
}

static unsigned team_seats(const LitPublic *p, int seat)
{
    return lit_team_seats(&p->rules, lit_team_of(seat));
}

/* Whether knowledge k has seat holding a card of set. */
static int holds_some(const LitKnow *k, int seat, int set)
{
    return (k->held[seat] & lit_set_mask(k->pub.rules.deck, set) & k->pub.live) ||
           lit_know_min_hold(k, seat, set) > 0;
}

/* The chance that seat t holds a card of set (1 when known; else the sum of
 * its chances for the unplaced cards, at most 1). */
static double base_chance(const LitKnow *k, const LitOdds *o, int t, int set)
{
    if (holds_some(k, t, set))
        return 1.0;
    double x = 0;
    for (uint64_t m = lit_set_mask(k->pub.rules.deck, set) & k->pub.live; m;)
        x += o->p[lit_pop_lsb(&m)][t];
    return x < 1 ? x : 1;
}

/* How much handing the turn to opponent t costs: the cards every seat knows
 * to be with our team in sets where t may hold a card to ask with. */
static double danger(const LitBot *bot, const LitOdds *o, int t)
{
    const LitKnow *pub = &bot->public_know;
    const LitPublic *p = &pub->pub;
    int deck = p->rules.deck;
    unsigned mates = team_seats(p, bot->seat);
    double d = 0;
    for (int set = 0; set < lit_deck_sets(deck); set++) {
        uint64_t m = lit_set_mask(deck, set) & p->live;
        if (!m)
            continue;
        int shown = 0;
        for (unsigned x = mates; x; x &= x - 1)
            shown += lit_popcount(pub->held[lit_lsb(x)] & m);
        if (shown)
            d += shown * base_chance(&bot->know, o, t, set);
    }
    return d;
}

/* The expected points of claiming set with the likeliest placement (right
 * with chance p; the team holds it all with chance q), per the rules'
 * payoff of a wrong claim, in units of the set's value. */
static double claim_gain(const LitRules *r, double p, double q)
{
    double inside = r->misclaim == LIT_MISCLAIM_OPPONENTS ? -1.0 : 0.0;
    double outside = -1.0; /* lost to the opponents, or point-off */
    return p + (q - p) * inside + (1 - q) * outside;
}

static LitAction placement_claim(const LitView *v, const Beliefs *b, const LitOdds *o, int set)
{
    int team = lit_team_of(v->seat), size = lit_deck_set_size(v->pub.rules.deck);
    LitAction a = lit_action_make(LIT_CLAIM, v->seat);
    a.set = (uint8_t)set;
    for (int i = 0; i < size; i++) {
        if (o->best[team][set][i] == LIT_NOBODY)
            return bot_policy_best_claim(v, b, set);
        a.holders[i] = o->best[team][set][i];
    }
    return a;
}

/* One rollout: candidate a in the drawn deal, then basic everywhere for
 * HORIZON actions. The value for the seat's team: the point margin, with
 * WIN_VALUE for a result; a game still going counts each live set by the
 * share of its cards the team holds (the set's value at all of them, minus
 * it at none). Measured: a short horizon and this material count ranked
 * better than whole games (whose margins are too noisy to tell candidates
 * apart in 16 rollouts). */
static double rollout(const LitView *v, const uint64_t hands[LIT_MAX_PLAYERS],
                      const LitAction *a, uint64_t seed, Scratch *x)
{
    const LitRules *r = &v->pub.rules;
    int me = lit_team_of(v->seat), deck = r->deck;
    LitGame g;
    LitLog log;
    g.pub = v->pub;
    memcpy(g.hands, hands, sizeof g.hands);
    lit_log_init(&log, x->log, LIT_MAX_ACTIONS);
    if (v->history_len)
        memcpy(x->log, v->history, sizeof *x->log * v->history_len);
    log.len = v->history_len;
    if (lit_game_play(&g, &log, a) != LIT_OK)
        return -1e9; /* cannot happen: the candidate is legal for the view */
    for (int s = 0; s < r->players; s++)
        bot_policy_basic_init(&x->sim[s], lit_seed_mix(seed, (uint64_t)s));
    for (int steps = 0; g.pub.result == LIT_ONGOING && steps < HORIZON; steps++) {
        LitView sv;
        LitAction act;
        int t = g.pub.turn;
        lit_view_make(&sv, &g, &log, t);
        if (bot_policy_basic_act(&x->sim[t], &sv, &act) != LIT_OK ||
            lit_game_play(&g, &log, &act) != LIT_OK)
            break; /* cannot happen: basic plays legally */
    }
    double value = g.pub.score[me] - g.pub.score[1 - me];
    if (g.pub.result == LIT_ONGOING) {
        unsigned mates = lit_team_seats(r, me);
        for (int set = 0; set < lit_deck_sets(deck); set++) {
            uint64_t m = lit_set_mask(deck, set) & g.pub.live;
            if (!m)
                continue;
            int ours = 0;
            for (unsigned y = mates; y; y &= y - 1)
                ours += lit_popcount(g.hands[lit_lsb(y)] & m);
            value += lit_rules_set_value(r, set) * (2.0 * ours - lit_popcount(m)) /
                     lit_popcount(m);
        }
    } else if (g.pub.result == LIT_WIN_A || g.pub.result == LIT_WIN_B) {
        value += (g.pub.result == (me ? LIT_WIN_B : LIT_WIN_A)) ? WIN_VALUE : -WIN_VALUE;
    }
    return value;
}

/* Stage 5: the candidate with the best mean over the same drawn deals:
 * drawn from the uniform posterior (expert), or by master's weights from
 * its pool (pool not NULL). */
static int search(LitBot *bot, const LitView *v, Candidate *c, int n, Scratch *x, LitWork w,
                  const BehavePool *pool)
{
    LitSampler *sp = NULL;
    if (!pool && lit_sampler_init(&sp, &bot->know, w.p, w.left) != LIT_OK)
        return 0;
    uint64_t seed = lit_rng_next(&bot->rng);
    uint32_t per = bot->spec.rollouts / (uint32_t)n;
    if (per == 0)
        per = 1;
    for (uint32_t i = 0; i < per; i++) {
        LitRng rng;
        uint64_t hands[LIT_MAX_PLAYERS];
        lit_rng_seed(&rng, lit_seed_mix(seed, i));
        if (pool)
            bot_behave_draw(pool, &rng, hands);
        else
            lit_sampler_draw(sp, &rng, hands);
        for (int k = 0; k < n; k++)
            c[k].value += rollout(v, hands, &c[k].a, lit_seed_mix(seed, 1000000 + i), x);
    }
    int best = 0;
    double beta = ROLLOUT_WEIGHT;
    for (int k = 0; k < n; k++)
        c[k].value = c[k].score + beta * c[k].value / per;
    for (int k = 1; k < n; k++)
        if (c[k].value > c[best].value)
            best = k;
    return best;
}

/* ---- the stages of a decision ------------------------------------------------ */

/* 2. The endgame: the surest set first (each claim shows its holders,
 * which the next decision counts with). */
static LitAction endgame_claim(const LitView *v, const Beliefs *b, const LitOdds *o)
{
    const LitPublic *p = &v->pub;
    int team = lit_team_of(v->seat), deck = p->rules.deck;
    int best = -1;
    for (int set = 0; set < lit_deck_sets(deck); set++)
        if ((p->live & lit_set_mask(deck, set)) &&
            (best < 0 || o->best_p[team][set] > o->best_p[team][best]))
            best = set;
    return placement_claim(v, b, o, best);
}

/* How likely teammate u is to hit with its best ask: for each card, the
 * chance it is at an opponent times the chance u holds a card of its set to
 * ask with and not the card. */
static double teammate_hit(const LitBot *bot, const LitView *v, const LitOdds *o, int u)
{
    const LitPublic *p = &v->pub;
    int me = v->seat, deck = p->rules.deck;
    double value = 0;
    for (uint64_t live = p->live; live;) {
        int c = lit_pop_lsb(&live);
        double at_opponent = 0;
        for (unsigned t = p->holding & ~team_seats(p, me); t; t &= t - 1)
            at_opponent += o->p[c][lit_lsb(t)];
        double chance = at_opponent *
                        base_chance(&bot->know, o, u, lit_set_of(deck, c)) *
                        (1 - o->p[c][u]);
        if (chance > value)
            value = chance;
    }
    return value;
}

/* 2. Passing the turn, or naming the next asker after a claim (which
 * is how a claim hands the turn on under after-claim=team): a sure
 * claim first, then the teammate most likely to hit with its best ask. */
static LitAction hand_on(const LitBot *bot, const LitView *v, const Beliefs *b, const LitOdds *o)
{
    const LitPublic *p = &v->pub;
    int me = v->seat, team = lit_team_of(me), players = p->rules.players;
    for (unsigned m = lit_claimable(p, me); m; m &= m - 1)
        if (o->exact && o->best_p[team][lit_lsb(m)] >= 1.0 - 1e-12)
            return placement_claim(v, b, o, lit_lsb(m));
    unsigned cand = p->holding & team_seats(p, me);
    if (p->phase == LIT_PHASE_PASS)
        cand &= ~(1u << me);
    int pick = -1;
    double pick_value = -1;
    for (int i = 0; i < players; i++) {
        int u = (me + i) % players;
        if (!(cand >> u & 1))
            continue;
        double value = teammate_hit(bot, v, o, u);
        if (value > pick_value + 1e-12) {
            pick_value = value;
            pick = u;
        }
    }
    LitAction a = lit_action_make(p->phase == LIT_PHASE_PASS ? LIT_PASS : LIT_CHOOSE, me);
    a.target = (uint8_t)pick;
    return a;
}

/* 4 (first part). The asks, scored: every legal ask into cand, by its exact
 * chance to hit less the danger of a miss, the leak and with the progress
 * (the weights above). The number of asks; *best_hit gets the best chance
 * to hit (it stays 0 when there is none). */
static int score_asks(const LitBot *bot, const LitView *v, const Beliefs *b, const LitOdds *o,
                      Candidate *cand, double *best_hit)
{
    const LitPublic *p = &v->pub;
    int me = v->seat, deck = p->rules.deck, n = 0;
    LitAction legal[LIT_MAX_LEGAL];
    int count = lit_view_legal(v, legal, LIT_MAX_LEGAL);
    double dangers[LIT_MAX_PLAYERS];
    for (int t = 0; t < p->rules.players; t++)
        dangers[t] = -1;
    for (int i = 0; i < count; i++) {
        if (legal[i].kind != LIT_ASK)
            continue;
        int c = legal[i].card, t = legal[i].target, set = lit_set_of(deck, c);
        double hit = o->p[c][t];
        if (dangers[t] < 0)
            dangers[t] = danger(bot, o, t);
        int progress = 0;
        for (uint64_t y = lit_set_mask(deck, set) & p->live; y;) {
            int h = b->holder[lit_pop_lsb(&y)];
            progress += h != LIT_NOBODY && (team_seats(p, me) >> h & 1);
        }
        double leak = holds_some(&bot->public_know, me, set) ? 0.0 : 1.0;
        cand[n].a = legal[i];
        cand[n].score = hit - (1 - hit) * DANGER_WEIGHT * dangers[t] - LEAK_WEIGHT * leak +
                        PROGRESS_WEIGHT * progress;
        cand[n].value = 0;
        if (hit > *best_hit)
            *best_hit = hit;
        n++;
    }
    /* A sure miss is no candidate while another ask may hit (basic's rule 5,
     * docs/BOTS.md): scored as a safe way to hand the turn on, it let two
     * stuck experts ask each other for the same missing cards to the
     * action bound (4 games in 600 of expert:8 against itself). */
    if (*best_hit > 0) {
        int kept = 0;
        for (int i = 0; i < n; i++)
            if (o->p[cand[i].a.card][cand[i].a.target] > 0)
                cand[kept++] = cand[i];
        n = kept;
    }
    return n;
}

/* The claims stage 3 weighs: the lowest set a sure claim is open for, and
 * the uncertain claim of the greatest expected gain (-1: none). */
typedef struct Claims {
    int sure, likely;
    double likely_gain;
} Claims;

static Claims claims_open(const LitView *v, const LitOdds *o)
{
    const LitPublic *p = &v->pub;
    int team = lit_team_of(v->seat);
    Claims cl = {-1, -1, -1e9};
    for (unsigned m = lit_claimable(p, v->seat); m; m &= m - 1) {
        int set = lit_lsb(m);
        double pr = o->best_p[team][set], q = o->team_all[team][set];
        if (o->exact && pr >= 1.0 - 1e-12) {
            if (cl.sure < 0)
                cl.sure = set;
            continue;
        }
        /* no hurry while the team surely holds it all: nobody can take it */
        if (q >= 1.0 - 1e-12)
            continue;
        double gain = claim_gain(&p->rules, pr, q);
        if (gain > cl.likely_gain) {
            cl.likely_gain = gain;
            cl.likely = set;
        }
    }
    return cl;
}

/* Stuck: every ask must miss. A sure set, else under pass-play basic's
 * pass, else (as basic, docs/BOTS.md rule 6) the claim the exact odds make
 * likeliest. */
static LitAction stuck(LitBot *bot, const LitView *v, const Beliefs *b, const LitOdds *o, int sure)
{
    const LitPublic *p = &v->pub;
    const LitRules *r = &p->rules;
    int me = v->seat, team = lit_team_of(me);
    if (sure >= 0)
        return placement_claim(v, b, o, sure);
    if (!(r->pass_play && v->history_len > 0 &&
          v->history[v->history_len - 1].action.kind != LIT_PASS &&
          (p->holding & team_seats(p, me) & ~(1u << me)))) {
        int best = -1;
        for (unsigned m = lit_claimable(p, me); m; m &= m - 1)
            if (best < 0 || o->best_p[team][lit_lsb(m)] > o->best_p[team][best])
                best = lit_lsb(m);
        if (best >= 0)
            return placement_claim(v, b, o, best);
    }
    return bot_policy_play(v, b, &bot->rng, 1);
}

/* 4. The best-scored asks; a sure hit at once, else (5) the search over
 * the best few. */
static LitAction best_ask(LitBot *bot, const LitView *v, const LitOdds *o, Candidate *cand, int n,
                          Scratch *x, LitWork w, const BehavePool *pool)
{
    for (int i = 0; i < n; i++)
        for (int j = i; j > 0 && cand[j].score > cand[j - 1].score; j--) {
            Candidate t = cand[j];
            cand[j] = cand[j - 1];
            cand[j - 1] = t;
        }
    int pick = 0;
    if (o->p[cand[0].a.card][cand[0].a.target] < 1.0 && bot->spec.rollouts > 0 && n > 1 &&
        o->exact) {
        /* 5. The search. */
        pick = search(bot, v, cand, n < CANDIDATES ? n : CANDIDATES, x, w, pool);
    }
    return cand[pick].a;
}

/* ---- a decision --------------------------------------------------------------- */

int bot_expert_act(LitBot *bot, const LitView *v, LitAction *out)
{
    if (!bot->work || bot->work_size < LIT_BOT_WORK)
        return LIT_NO_SPACE;
    const LitPublic *p = &v->pub;
    const LitRules *r = &p->rules;
    /* The workspace: the scratch, then the counting's, which the search
     * reuses once the odds are in the scratch. */
    LitWork w = lit_work_of(bot->work, bot->work_size);
    Scratch *x = lit_work_take(&w, sizeof *x);
    Beliefs b;
    bot_policy_beliefs_of_knowledge(&b, &bot->know);

    /* 2. Choosing who claims the endgame: basic's rule (the opponent with
     * the fewest cards, who has seen the least). */
    if (p->phase == LIT_PHASE_CHOOSE_CLAIMER) {
        *out = bot_policy_play(v, &b, &bot->rng, 1);
        return LIT_OK;
    }

    /* 1. The odds. */
    LitOdds *o = &x->odds;
    if (lit_odds(&bot->know, w.p, w.left, o) != LIT_OK || (!o->exact &&
        lit_odds_estimate(&bot->know, &bot->rng, 1000, w.p, w.left, o) != LIT_OK)) {
        *out = bot_policy_play(v, &b, &bot->rng, 1);
        return LIT_OK;
    }

    /* 1 (master). The odds weighted by how players ask, where they are not
     * sure, drawn from the view's own seed (so lit infer --model master
     * shows the figures decided by); the exact ones stand when the sampler
     * cannot draw. The claims are decided by the model's figures, with the
     * thresholds tuned on them (the chance master states for a claim is
     * calibrated: lit_bot_beliefs). */
    const BehavePool *pool = NULL;
    if (bot->spec.kind == LIT_BOT_MASTER && o->exact &&
        bot_behave_odds(&bot->know, v, o, 0, &x->pool, &x->behaved, w.p, w.left) == LIT_OK) {
        o = &x->behaved;
        pool = &x->pool;
    }

    /* 2. The endgame, passing the turn and naming the next asker. */
    if (p->phase == LIT_PHASE_ENDGAME) {
        *out = endgame_claim(v, &b, o);
        return LIT_OK;
    }
    if (p->phase == LIT_PHASE_PASS || p->phase == LIT_PHASE_CHOOSE_ASKER) {
        *out = hand_on(bot, v, &b, o);
        return LIT_OK;
    }

    /* 4 (first part). The asks, scored. */
    Candidate cand[LIT_MAX_LEGAL];
    double best_hit = 0;
    int n = p->phase == LIT_PHASE_PLAY ? score_asks(bot, v, &b, o, cand, &best_hit) : 0;

    /* 3. Claims. A sure one is made unless asking goes well (then the set,
     * which nobody can take from a team that holds it all, waits as a
     * stalemate-breaker; under early-end it is made at once, since points
     * not yet scored count for nothing when the other team wins early). An
     * uncertain one when its expected gain is high enough. */
    Claims cl = claims_open(v, o);
    int asking_well = best_hit >= GOOD_ASK;
    if (cl.sure >= 0 && (r->early_end || !asking_well)) {
        *out = placement_claim(v, &b, o, cl.sure);
        return LIT_OK;
    }
    if (cl.likely >= 0 &&
        cl.likely_gain >= (asking_well ? CLAIM_WHILE_ASKING : CLAIM_BEFORE_MISSING)) {
        *out = placement_claim(v, &b, o, cl.likely);
        return LIT_OK;
    }
    if (n == 0 || best_hit <= 0) {
        *out = stuck(bot, v, &b, o, cl.sure);
        return LIT_OK;
    }

    /* 4 and 5. The best-scored asks, and the search. */
    *out = best_ask(bot, v, o, cand, n, x, w, pool);
    return LIT_OK;
}
