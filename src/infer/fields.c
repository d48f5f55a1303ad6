/* fields.c - the fields of the vectors: which seats share one (merged
 * seats, INFER_MERGE; docs/DEDUCTION.md "Merged seats"), where each
 * field sits in a packed vector, the splits of a merged field's cards
 * among its seats, and how many vectors fit within the slots. */
#include "counting.h"

/* The fields of k: seats that nothing tells apart share one field (with
 * INFER_MERGE): seats with room, named by no clause, such that each unplaced card
 * may be at all of them or at none. Every other seat is a field of its own.
 * The program then counts the deals of the fields, each of which stands for
 * fields_splits(0) deals of the seats (docs/DEDUCTION.md "Merged seats"). */
void fields_make(Ctx *cx, uint64_t unplaced)
{
    int merge = (cx->how & INFER_MERGE) != 0;
    const LitKnow *k = cx->k;
    int players = cx->players;
    Layout *lay = &cx->lay;
    unsigned open = 0; /* fields that more seats may join */
    for (int s = 0; s < players; s++) {
        int clauses = 0;
        for (int set = 0; set < LIT_MAX_SETS; set++)
            clauses += k->n_need[s][set] + k->n_lack[s][set];
        int mergeable = merge && k->slots[s] && !clauses, unit = -1;
        for (unsigned m = mergeable ? open : 0; m && unit < 0; m &= m - 1) {
            int f = lit_lsb(m), first = lit_lsb(cx->members[f]);
            if (((k->may[s] ^ k->may[first]) & unplaced) == 0)
                unit = f;
        }
        if (unit < 0) {
            unit = lay->n++;
            cx->members[unit] = 0;
            if (mergeable)
                open |= 1u << unit;
        }
        cx->members[unit] |= 1u << s;
        lay->unit_of[s] = (uint8_t)unit;
    }
    int off = 0;
    for (int f = 0; f < lay->n; f++) {
        int bits = lit_popcount(cx->members[f]) > 1 ? 7 : FIELD, slots = 0;
        if (bits > FIELD)
            cx->merged |= 1u << f;
        lay->off[f] = (uint8_t)off;
        lay->mask[f] = (uint8_t)((1u << bits) - 1);
        lay->guard |= UINT64_C(1) << (off + bits - 1);
        lay->ones |= UINT64_C(1) << off;
        off += bits;
        for (unsigned m = cx->members[f]; m; m &= m - 1)
            slots += k->slots[lit_lsb(m)];
        cx->slots |= (uint64_t)slots << lay->off[f];
    }
    Layout *seats = &cx->seats;
    seats->n = players;
    seats->guard = GUARD;
    for (int s = 0; s < players; s++) {
        seats->off[s] = (uint8_t)(FIELD * s);
        seats->mask[s] = 31;
        seats->ones |= UINT64_C(1) << (FIELD * s);
        seats->unit_of[s] = (uint8_t)s;
        cx->seat_slots |= (uint64_t)k->slots[s] << (FIELD * s);
    }
}

/* A vector by seat as a vector by field. */
uint64_t fields_of(const Ctx *cx, uint64_t by_seat)
{
    uint64_t v = 0;
    for (int s = 0; s < cx->players; s++)
        v += (uint64_t)unit_count(&cx->seats, by_seat, s) << cx->lay.off[cx->lay.unit_of[s]];
    return v;
}

/* A field counts every deal of its seats as one: a deal of the fields
 * stands for every way to split each merged field's cards among its seats,
 * and the splits do not depend on which cards they are (no clause names a
 * merged seat and all of them may hold the same cards). With the cards of
 * y (a vector by seat) already at their seats, the splits of the rest are
 * the product over merged fields of (cap - |y|)! / prod (slots_s - y_s)!;
 * with y = 0, every split. So the deals in which given cards lie as y says
 * are fields_splits(y) times the deals of the fields in which they lie as
 * fields_of(y) says. */
LitU192 fields_splits(const Ctx *cx, uint64_t y)
{
    LitU192 x = lit_u192(1);
    for (unsigned m = cx->merged; m;) {
        int f = lit_lsb(m), left = unit_count(&cx->lay, cx->slots, f);
        m &= m - 1;
        for (unsigned seats = cx->members[f]; seats; seats &= seats - 1)
            left -= unit_count(&cx->seats, y, lit_lsb(seats));
        for (unsigned seats = cx->members[f]; seats; seats &= seats - 1) {
            int s = lit_lsb(seats);
            int n = cx->k->slots[s] - unit_count(&cx->seats, y, s);
            if (n < 0 || n > left)
                return lit_u192(0);
            x = times(&x, cx->choose[left][n]);
            left -= n;
        }
    }
    return x;
}

/* How many vectors have fields summing to total, each at most its field of
 * limit: no layer of the program can hold more states. */
uint64_t fields_vectors(const Layout *lay, uint64_t limit, int total)
{
    uint64_t ways[LIT_MAX_CARDS + 1] = {1};
    for (int f = 0; f < lay->n; f++) {
        int cap = unit_count(lay, limit, f);
        uint64_t next[LIT_MAX_CARDS + 1] = {0};
        for (int t = 0; t <= total; t++)
            for (int x = 0; x <= cap && x <= t; x++)
                next[t] += ways[t - x];
        memcpy(ways, next, sizeof ways);
    }
    return ways[total];
}
