/* horner.c - Horner steps (INFER_HORNER; docs/DEDUCTION.md "Horner
 * steps"): the shifts of a block's alike cards (counting.h has Horner),
 * a pass of them, and which clauses they may take. */
#include "counting.h"

/* Gives the alike cards' seats of the inner clauses a, from seat i on
 * with left cards to give: every a whose shift meets the clauses goes
 * into out, its r in r_of. */
static void horner_walk(const Steps *st, const Ctx *cx, const int *seat, int z, int m, int i,
                        int left, int *a, Shift *out, uint8_t *r_of, int *n)
{
    if (i < z) {
        for (a[i] = 0; a[i] <= left; a[i]++)
            horner_walk(st, cx, seat, z, m, i + 1, left - a[i], a, out, r_of, n);
        return;
    }
    for (int k = 0; k < st->nc; k++) {
        if (!(st->inner >> k & 1))
            continue;
        int j = 0;
        while (j < z && seat[j] != st->cseat[k])
            j++;
        /* a "holds one of" whose seat they may not be at is never met; a
         * "lacks one of" is met unless every card is at its seat */
        if (st->cneed[k] ? j == z || a[j] == 0 : j < z && a[j] == m)
            return;
    }
    static const uint32_t fact[LIT_MAX_SET_SIZE + 1] = {1, 1, 2, 6, 24, 120, 720};
    Shift *q = &out[*n];
    q->v = 0;
    q->stride = 0;
    q->coef = fact[m] / fact[left];
    for (int j = 0; j < z; j++) {
        q->v += (uint64_t)a[j] << cx->lay.off[seat[j]];
        q->stride += (uint32_t)a[j] * st->stride[seat[j]];
        q->coef /= fact[a[j]];
    }
    r_of[(*n)++] = (uint8_t)left;
}

/* The Horner steps of st's alike cards in the fields A. */
void horner_of(const Steps *st, const Ctx *cx, unsigned fields, Horner *h)
{
    int m = st->n - st->alike, seat[STEP_CLAUSES] = {0}, z = 0, a[STEP_CLAUSES] = {0};
    unsigned seats = 0;
    for (int k = 0; k < st->nc; k++)
        if ((st->inner >> k & 1) && (fields >> st->cseat[k] & 1) && !(seats >> st->cseat[k] & 1)) {
            seats |= 1u << st->cseat[k];
            seat[z++] = st->cseat[k];
        }
    Shift all[HORNER_SHIFTS];
    uint8_t r_of[HORNER_SHIFTS];
    int n = 0, count[LIT_MAX_SET_SIZE + 1] = {0};
    horner_walk(st, cx, seat, z, m, 0, m, a, all, r_of, &n);
    h->rest = fields & ~seats;
    h->top = -1;
    h->level[0] = 0;
    for (int i = 0; i < n; i++)
        count[r_of[i]]++;
    for (int r = 0; r <= m; r++) {
        h->level[r + 1] = (uint16_t)(h->level[r] + count[r]);
        if (count[r])
            h->top = r;
    }
    uint16_t at[LIT_MAX_SET_SIZE + 1];
    memcpy(at, h->level, sizeof at);
    for (int i = 0; i < n; i++)
        h->shift[at[r_of[i]]++] = all[i];
}

/* The fields a term leaves the alike cards. */
unsigned horner_fields(const Steps *st, const Block *b, unsigned t)
{
    return term_fields(st, b, t, st->alike);
}

/* horner_shift, narrow or not (inlined twice). */
static inline __attribute__((always_inline)) void
shift_run(const Ctx *cx, const Horner *h, const Table *in, int r, Table *out, int sign,
          const int narrow)
{
    uint64_t guard = cx->lay.guard, slots = cx->slots;
    const Shift *q = &h->shift[h->level[r]];
    int n = h->level[r + 1] - h->level[r];
    for (uint32_t w = 0; n && w < occ_words(in); w++)
        for (uint64_t bits = in->occ[w]; bits; bits &= bits - 1) {
            uint32_t i = w << 6 | (uint32_t)lit_lsb(bits);
            uint64_t x = dense_vec(in, i);
            for (int k = 0; k < n; k++) {
                if (!fits(guard, x + q[k].v, slots))
                    continue;
                LitU192 a = val_get_n(in, i, narrow);
                if (q[k].coef != 1)
                    a = times_n(&a, q[k].coef, narrow);
                if (sign < 0)
                    neg_in(&a);
                add_dense(out, i + q[k].stride, x + q[k].v, &a, narrow);
            }
        }
}

/* A pass of Horner steps: out += Q_r in (or -=, by sign), each shift its
 * coefficient times in, moved by its vector. */
void horner_shift(const Ctx *cx, const Horner *h, const Table *in, int r, Table *out, int sign)
{
    if (cx->narrow)
        shift_run(cx, h, in, r, out, sign, 1);
    else
        shift_run(cx, h, in, r, out, sign, 0);
}

/* horner_level, narrow or not, the rest's fields sf, n of them (n and
 * narrow constants where it is inlined, as in the card steps). */
static inline __attribute__((always_inline)) void
level_run(const Ctx *cx, const Horner *h, const StepFields *sf, const Table *in, int r,
          Table *acc, const int n, const int narrow)
{
    uint64_t guard = cx->lay.guard, slots = cx->slots, top = (slots | guard) - cx->lay.ones;
    const Shift *q = &h->shift[h->level[r]];
    int nq = h->level[r + 1] - h->level[r];
    for (uint32_t w = occ_words(acc); w-- > 0;) {
        /* (what this pass adds to the word is above every slot left in
         * bits, or at the slot it is at) */
        for (uint64_t bits = acc->occ[w] | (nq ? in->occ[w] : 0); bits;) {
            int b = occ_msb(bits);
            bits ^= UINT64_C(1) << b;
            uint32_t i = w << 6 | (uint32_t)b;
            if (acc->sum[i])
                step_in_place(acc, i, top, guard, sf, n, narrow);
            if (nq && in->sum[i]) {
                uint64_t y = dense_vec(in, i);
                for (int k = 0; k < nq; k++) {
                    if (!fits(guard, y + q[k].v, slots))
                        continue;
                    LitU192 a = val_get_n(in, i, narrow);
                    if (q[k].coef != 1)
                        a = times_n(&a, q[k].coef, narrow);
                    add_dense(acc, i + q[k].stride, y + q[k].v, &a, narrow);
                }
            }
        }
    }
}

void horner_level(const Ctx *cx, const Steps *st, const Horner *h, const Table *in, int r,
                  Table *acc)
{
    StepFields sf;
    step_fields(cx, st->stride, h->rest, &sf);
#define RUN(k)                                                                            \
    (cx->narrow ? level_run(cx, h, &sf, in, r, acc, k, 1) : level_run(cx, h, &sf, in, r, acc, k, 0))
    BY_FIELDS(sf.n, RUN)
#undef RUN
}

/* With INFER_HORNER, the steps that take as inner clauses those of the
 * cards of one clause when they are alike (steps_init keeps the one that
 * costs the least, or none). */
int horner_candidates(const Steps *st, const Ctx *cx, const Block *b, const Walk *wk,
                      Steps try[STEP_CLAUSES])
{
    if (!(cx->how & INFER_HORNER))
        return 0;
    /* The cards of clause i, when alike, with every clause that names
     * exactly them as inner; the named cards stepped in an order with them
     * last. */
    int n = 0;
    uint8_t blockpos = 0;
    for (int c = 0; c < b->n; c++)
        blockpos |= (uint8_t)(1u << b->pos[c]);
    for (int i = 0; i < wk->nc; i++) {
        int first = -1, ok = 1;
        uint8_t mine = 0; /* the block's cards of clause i, as positions */
        for (int c = 0; c < b->n && ok; c++) {
            if (!(wk->cmask[i] >> b->pos[c] & 1))
                continue;
            if (first < 0)
                first = c;
            mine |= (uint8_t)(1u << b->pos[c]);
            ok = b->cand[c] == b->cand[first];
            for (int j = 0; j < wk->nc && ok; j++)
                ok = (wk->cmask[j] >> b->pos[c] & 1) == (wk->cmask[j] >> b->pos[first] & 1);
        }
        if (!ok || first < 0)
            continue;
        Steps *t = &try[n++];
        *t = *st;
        t->inner = 0;
        for (int j = 0; j < wk->nc; j++)
            if ((wk->cmask[j] & blockpos) == mine)
                t->inner |= 1u << j;
        t->n = t->named;
        for (int pass = 0; pass < 2; pass++)
            for (int x = st->named; x < st->n; x++)
                if ((wk->cmask[i] >> b->pos[st->card[x]] & 1) == pass)
                    t->card[t->n++] = st->card[x];
        t->alike = t->n - lit_popcount(mine);
    }
    return n;
}
