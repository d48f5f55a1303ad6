/* deriv.c - marginals by derivatives (INFER_DERIV; docs/DEDUCTION.md
 * "Marginals by derivatives"): for a block of alike cards by Horner steps,
 * the marginals by derivatives of those steps and G only where the claims
 * look it up. */
#include "counting.h"

/* docs/DEDUCTION.md "Marginals by derivatives". A block whose steps are
 * at most one card no clause names (c0, in the fields C) and then one
 * class of m alike cards by Horner steps, every clause inner, counts
 * U H F: U = sum_{u in C} y_u, H = sum_r R^r Q_r (R the class's fields
 * but the clauses' seats, Q_r the shifts that leave r cards to R). The
 * deals with c0 at u are <y_u H F, B>, B the layer after read at slots
 * less each vector (with a second such card c1, U = U0 U1, and those of
 * c0 are <y_u U1 H F, B>, of c1 <y_u U0 H F, B>); the class's cards at
 * u, counted once per card there, are <y_u dH/dy_u U F, B>: for u in R,
 * y_u sum_r r R^(r-1) Q_r; for a clause's seat s, sum_r R^r (a_s Q_r).
 * Each is Horner steps again. By symmetry every card of the class has a
 * m-th of them. The claims need G only at the vectors of one team's
 * fields, which a pass gives. */

/* The Horner steps of y_s dH/dy_s (s a clause's field), or with s < 0 of
 * y_u dH/dy_u / y_u for any u in h's rest: the same shifts, weighed by
 * a_s, or by r one level down. */
static void horner_deriv(const Ctx *cx, const Horner *h, int s, Horner *d)
{
    int n = 0;
    d->rest = h->rest;
    d->top = -1;
    for (int r = 0; r <= LIT_MAX_SET_SIZE; r++) {
        d->level[r] = (uint16_t)n;
        int from = s < 0 ? r + 1 : r;
        for (int i = from <= h->top ? h->level[from] : 0; from <= h->top && i < h->level[from + 1];
             i++) {
            uint32_t weight =
                s < 0 ? (uint32_t)from : (uint32_t)unit_count(&cx->lay, h->shift[i].v, s);
            if (!weight)
                continue;
            d->shift[n] = h->shift[i];
            d->shift[n++].coef *= weight;
        }
        if (n > d->level[r])
            d->top = r;
    }
    d->level[LIT_MAX_SET_SIZE + 1] = (uint16_t)n;
}

/* A Horner pass's work a state, as steps_work counts it. */
static uint64_t horner_work(const Horner *h)
{
    return (uint64_t)(h->top > 0 ? h->top : 0) * (uint64_t)lit_popcount(h->rest) +
           h->level[h->top + 1];
}

/* Horner steps h from in, acc = Q_top in and then acc = rest acc + Q_r in,
 * in the empty buffer buf, each level after the first in place, the last
 * into out when it is not NULL: where the result is. The result holds
 * cards of the block, level r cards less; with keep (prune_masks), a
 * level in buf keeps only the states keep marks for its cards. */
static Table *horner_run(const Ctx *cx, const Steps *st, const Horner *h, const Table *in,
                         Table *buf, Table *out, const uint64_t *const *keep, int cards)
{
    for (int r = h->top; r >= 0; r--) {
        if (r == 0 && out) {
            if (r < h->top)
                steps_card(cx, st, buf, buf, h->rest, out, 1);
            horner_shift(cx, h, in, r, out, 1);
            return out;
        }
        if (r == h->top)
            horner_shift(cx, h, in, r, buf, 1);
        else
            horner_level(cx, st, h, in, r, buf);
        if (keep && keep[cards - r])
            table_keep(buf, keep[cards - r]);
    }
    return buf;
}

/* For each of n cards e[k] (one card in a field, stride[k] its dense
 * index; or 0): out[k] = sum over z's vectors w of z(w) B(slots - w -
 * e[k]), after the layer B. One pass over z, which it leaves empty.
 * Inlined twice, narrow or not. */
static inline __attribute__((always_inline)) void
dots_in(const Ctx *cx, Table *z, const Table *after, int n, const uint64_t *e,
        const uint32_t *stride, LitU192 *out, const int narrow)
{
    uint64_t guard = cx->lay.guard, slots = cx->slots;
    uint32_t is = dense_index(&cx->dense, slots);
    for (int k = 0; k < n; k++)
        out[k] = lit_u192(0);
    for (uint32_t word = 0; word < occ_words(z); word++) {
        uint64_t bits = z->occ[word];
        z->occ[word] = 0;
        for (; bits; bits &= bits - 1) {
            uint32_t i = word << 6 | (uint32_t)lit_lsb(bits);
            uint64_t w = dense_vec(z, i);
            z->sum[i] = 0;
            for (int k = 0; k < n; k++) {
                uint32_t ib = is - i - stride[k];
                if (!fits(guard, w + e[k], slots) || !after->sum[ib])
                    continue;
                LitU192 a = val_get_n(z, i, narrow), c = val_get_n(after, ib, narrow);
                if (narrow) {
                    LitU192 y = mul_low2(&a, &c);
                    add_in2(&out[k], &y);
                } else {
                    LitU192 y = mul_low(&a, &c);
                    add_in(&out[k], &y);
                }
            }
        }
    }
    z->count = 0;
}

/* dots_in with one card in each field of fields, or with fields 0 once
 * with none (into out[0]); out by field. */
static void dots(const Ctx *cx, const Steps *st, Table *z, const Table *after, unsigned fields,
                 LitU192 out[LIT_MAX_PLAYERS])
{
    uint64_t e[LIT_MAX_PLAYERS] = {0};
    uint32_t stride[LIT_MAX_PLAYERS] = {0};
    LitU192 sum[LIT_MAX_PLAYERS];
    int n = 0, field[LIT_MAX_PLAYERS] = {0};
    for (unsigned m = fields; m; m &= m - 1, n++) {
        field[n] = lit_lsb(m);
        e[n] = unit_one(&cx->lay, field[n]);
        stride[n] = st->stride[field[n]];
    }
    n += !fields;
    if (cx->narrow)
        dots_in(cx, z, after, n, e, stride, sum, 1);
    else
        dots_in(cx, z, after, n, e, stride, sum, 0);
    for (int k = 0; k < n; k++)
        out[field[k]] = sum[k];
}

/* x / d, exact (d divides x): by halves of words, so that every step
 * divides 64 bits (no 128-bit division, which the core does without). */
static LitU192 div_exact(const LitU192 *x, uint32_t d)
{
    LitU192 q;
    uint64_t r = 0;
    for (int i = 2; i >= 0; i--) {
        uint64_t hi = r << 32 | x->w[i] >> 32, lo;
        r = hi % d;
        lo = r << 32 | (x->w[i] & UINT32_MAX);
        r = lo % d;
        q.w[i] = (hi / d) << 32 | lo / d;
    }
    return q;
}

/* Whether block j's marginals may come by derivatives (the top of this
 * file): by card steps, its set pooled nowhere, every clause inner after
 * at most two cards no clause names, and room for a weight below 8 in the
 * words the program counts in (Ctx.roomy). */
static int deriv_can(const Plan *pl, int j)
{
    const Steps *st = &pl->steps[j];
    return (pl->cx.how & INFER_DERIV) && pl->cx.roomy && pl->by_steps[j] &&
           !pl->blocks[j].pooled && st->nc > 0 && st->inner == (1u << st->nc) - 1 &&
           st->alike == st->named && st->named <= 2;
}

/* The fields on which the claims of block j's set look G up, per team:
 * those of the team's seats, or none when the set's placed cards are the
 * other team's (its claims walk no placement). */
static void claim_fields(const Plan *pl, int j, unsigned fields[2])
{
    const LitKnow *k = pl->cx.k;
    int team = claims_team(k, lit_set_mask(k->pub.rules.deck, pl->blocks[j].set));
    for (int t = 0; t < 2; t++) {
        fields[t] = 0;
        if (team >= 0 && team != t)
            continue;
        for (unsigned seats = lit_team_seats(&k->pub.rules, t); seats; seats &= seats - 1)
            fields[t] |= 1u << pl->cx.lay.unit_of[lit_lsb(seats)];
    }
}

/* Whether the claims look G(v) up: v is on one team's claim fields. */
static int claim_vector(const Layout *lay, const unsigned fields[2], uint64_t v)
{
    for (int t = 0; t < 2; t++) {
        int on = fields[t] != 0;
        for (int f = 0; f < lay->n && on; f++)
            on = !unit_count(lay, v, f) || (fields[t] >> f & 1);
        if (on)
            return 1;
    }
    return 0;
}

/* The work a state of block j's derivatives beyond its card steps (c0's
 * dots and step, the passes for the class, the dots), 0 when it cannot go
 * so; and in *claims the vectors whose G the claims need. */
uint64_t deriv_work(const Plan *pl, int j, uint32_t *claims)
{
    const Ctx *cx = &pl->cx;
    const Steps *st = &pl->steps[j];
    const Block *b = &pl->blocks[j];
    *claims = 0;
    if (!deriv_can(pl, j))
        return 0;
    unsigned fields[2];
    claim_fields(pl, j, fields);
    for (uint32_t v = 0; v < b->n_vec; v++)
        *claims += (uint32_t)claim_vector(&cx->lay, fields, b->vec[v].v);
    Horner h, d;
    horner_of(st, cx, horner_fields(st, b, 0), &h);
    unsigned seats = horner_fields(st, b, 0) & ~h.rest;
    uint64_t work = 1 + (uint64_t)lit_popcount(h.rest);
    /* c0's dots and its step of F; with c1, c1's dots, its step of H F
     * and of F */
    if (st->named)
        work += 2 * (uint64_t)lit_popcount(b->cand[st->card[0]]);
    if (st->named > 1)
        work += 3 * (uint64_t)lit_popcount(b->cand[st->card[1]]);
    horner_deriv(cx, &h, -1, &d);
    work += horner_work(&d);
    for (unsigned m = seats & (seats - 1); m; m &= m - 1) {
        horner_deriv(cx, &h, lit_lsb(m), &d);
        work += horner_work(&d) + 1;
    }
    return work;
}

/* The work of block j's G and marginals by derivatives from F_j of f
 * states (UINT64_MAX where they cannot go): the passes' layers lie
 * between F_j and the next F, priced on the mean of F_j and the layer
 * after (the next F's bound; measured at bench/corpus/8, where pricing
 * them on the larger of the two turned down blocks that paid), and G's
 * pass goes over the smaller of F_j and the layer after. */
uint64_t deriv_cost(const Plan *pl, int j, uint32_t f)
{
    if (!pl->deriv[j])
        return UINT64_MAX;
    uint64_t after = pl->layer[j + 1].count;
    uint64_t mean = (after + f) / 2, least = after < f ? after : f;
    return gpass_work(pl->claims[j] * least, pl->deriv[j] * mean);
}

/* The marginals of card c, its dots: each field of cand from sum. */
static void card_mass(unsigned cand, const LitU192 *sum, LitU192 *mass)
{
    for (unsigned x = cand; x; x &= x - 1)
        mass[lit_lsb(x)] = sum[lit_lsb(x)];
}

/* The cards no clause names, one (c0) or two (c0 and c1, steps U0 and U1),
 * from hf = H F, which this empties: the next F, U H F, into nf (empty;
 * none with nf NULL);
 * each card's marginals into mass0 and mass1, the dots of the other's
 * step of H F (for one card, of H F itself); and U F, which the class's
 * passes start from, into common (empty). For two cards, two is an empty
 * table, left empty. */
static void unnamed_cards(const Ctx *cx, const Steps *st, const Block *b, const Table *f,
                          Table *hf, const Table *after, Table *nf, Table *two, Table *common,
                          LitU192 *mass0, LitU192 *mass1)
{
    LitU192 sum[LIT_MAX_PLAYERS];
    unsigned u0 = b->cand[st->card[0]], u1 = b->cand[st->card[st->named - 1]];
    if (st->named == 1) {
        if (nf)
            steps_card(cx, st, hf, NULL, u0, nf, 1);
        dots(cx, st, hf, after, u0, sum);
        card_mass(u0, sum, mass0);
        steps_card(cx, st, f, NULL, u0, common, 1);
        return;
    }
    steps_card(cx, st, hf, NULL, u0, two, 1); /* U0 H F */
    if (nf)
        steps_card(cx, st, two, NULL, u1, nf, 1);
    dots(cx, st, two, after, u1, sum);
    card_mass(u1, sum, mass1);
    steps_card(cx, st, hf, hf, u1, two, 1); /* U1 H F */
    dots(cx, st, two, after, u0, sum);
    card_mass(u0, sum, mass0);
    steps_card(cx, st, f, NULL, u0, two, 1); /* U0 U1 F */
    steps_card(cx, st, two, two, u1, common, 1);
}

/* Block j's next F by its card steps (into nf, empty; none with nf NULL),
 * its G at the vectors the claims look up (the rest 0), and its cards'
 * marginals into mass, by derivatives (the top of this file) from F_j =
 * f. The steps go H F first and then c0's, so that H F gives c0's
 * marginals too. One table in spare, two and the pass's lists in w. 0, or
 * -1 when they do not fit (nf and mass untouched). */
int deriv_block(const Plan *pl, int j, const Table *f, Table *nf, LitU192 *g,
                LitU192 (*mass)[LIT_MAX_PLAYERS], LitWork spare, LitWork w, LitOdds *odds)
{
    const Ctx *cx = &pl->cx;
    const Steps *st = &pl->steps[j];
    const Block *b = &pl->blocks[j];
    const Table *after = &pl->layer[j + 1];
    unsigned fields = horner_fields(st, b, 0);
    Horner h, d;
    horner_of(st, cx, fields, &h);
    if (h.top < 0)
        return -1;
    /* G where the claims look it up, over the smaller of F and the layer
     * after */
    LitWork lw = w;
    Block claims = *b;
    uint32_t *of = lit_work_take(&lw, sizeof(uint32_t) * b->n_vec);
    LitU192 *gc = lit_work_take(&lw, sizeof(LitU192) * b->n_vec);
    claims.vec = lit_work_take(&lw, sizeof(Vec) * b->n_vec);
    if (!of || !gc || !claims.vec)
        return -1;
    unsigned team[2];
    claim_fields(pl, j, team);
    claims.n_vec = 0;
    for (uint32_t v = 0; v < b->n_vec; v++)
        if (claim_vector(&cx->lay, team, b->vec[v].v)) {
            of[claims.n_vec] = v;
            claims.vec[claims.n_vec++] = b->vec[v];
        }
    memset(g, 0, sizeof(LitU192) * b->n_vec);
    if (claims.n_vec) {
        if (gpass_direct(cx, f, &claims, after, gc, lw, odds))
            return -1;
        for (uint32_t i = 0; i < claims.n_vec; i++)
            g[of[i]] = gc[i];
    }
    /* the tables, over the pass's lists, and what each may keep */
    const uint64_t *keep[LIT_MAX_SET_SIZE + 1];
    const uint64_t *const *within = prune_masks(pl, after, -1, j, keep, &w);
    Table common, buf, two;
    if (dense_layer(&buf, &w, 1, cx) || (st->named && dense_layer(&common, &spare, 1, cx)) ||
        (st->named > 1 && dense_layer(&two, &w, 1, cx)))
        return -1;
    /* the next F, and the marginals of the cards no clause names */
    int first = lit_set_first(cx->k->pub.rules.deck, b->set);
    int alike = st->card[st->alike], m = st->n - st->alike;
    LitU192 sum[LIT_MAX_PLAYERS], *class = mass[first + b->pos[alike]];
    const Table *from = f;
    if (st->named) {
        Table *hf = horner_run(cx, st, &h, f, &buf, NULL, within, m);
        unnamed_cards(cx, st, b, f, hf, after, nf, &two, &common, mass[first + b->pos[st->card[0]]],
                      mass[first + b->pos[st->card[st->named - 1]]]);
        from = &common;
    } else if (nf) {
        horner_run(cx, st, &h, f, &buf, nf, within, m);
    }
    /* the class's cards, counted once per card: in the rest, and at every
     * clause's seat but the first, which has what the others leave of m
     * times the deals */
    horner_deriv(cx, &h, -1, &d);
    if (d.top >= 0 && h.rest) {
        dots(cx, st, horner_run(cx, st, &d, from, &buf, NULL, within, st->named + m - 1), after,
             h.rest, sum);
        for (unsigned x = h.rest; x; x &= x - 1)
            class[lit_lsb(x)] = sum[lit_lsb(x)];
    }
    unsigned seats = fields & ~h.rest;
    for (unsigned x = seats & (seats - 1); x; x &= x - 1) {
        horner_deriv(cx, &h, lit_lsb(x), &d);
        if (d.top < 0)
            continue;
        dots(cx, st, horner_run(cx, st, &d, from, &buf, NULL, within, st->named + m), after, 0,
             sum);
        class[lit_lsb(x)] = sum[0];
    }
    if (seats) {
        LitU192 rest = pl->total;
        lit_u192_mul64(&rest, &rest, (uint64_t)m);
        for (unsigned x = fields & ~(seats & -seats); x; x &= x - 1)
            lit_u192_sub(&rest, &rest, &class[lit_lsb(x)]);
        class[lit_lsb(seats)] = rest;
    }
    for (int u = 0; u < cx->lay.n; u++) {
        LitU192 one = div_exact(&class[u], (uint32_t)m);
        for (int c = st->alike; c < st->n; c++)
            mass[first + b->pos[st->card[c]]][u] = one;
    }
    return 0;
}
