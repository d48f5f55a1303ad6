/* local.c - a block's local table (docs/DEDUCTION.md "Exact counting",
 * step 1): every placement of its unplaced cards that meets its clauses,
 * grouped by the vector it gives the fields, counted card by card (for
 * sampling, which keeps the placements) or by classes of alike cards. */
#include "counting.h"

/* The most vectors a block's placements can give: its placements, and
 * the ways to split its cards over the fields any of them may be in. */
static uint32_t local_bound(const Block *b)
{
    uint64_t placements = 1, ways = 1;
    unsigned seats = 0;
    for (int c = 0; c < b->n; c++) {
        placements *= (uint64_t)lit_popcount(b->cand[c]);
        seats |= b->cand[c];
    }
    int k = lit_popcount(seats); /* C(n + k - 1, n) */
    for (int i = 1; i <= b->n; i++)
        ways = ways * (uint64_t)(k - 1 + i) / (uint64_t)i;
    return (uint32_t)(placements < ways ? placements : ways);
}

/* The walk that builds a block's local table: in one pass, the placements
 * of each vector and which card each puts where (by the vector's slot in
 * the table); then, only when the block keeps lists (for sampling), a
 * second pass for the placements themselves. */
typedef struct Local {
    Table *t;
    Block *b;
    uint32_t (*at)[LIT_MAX_SET_SIZE][LIT_MAX_PLAYERS]; /* by slot */
    uint32_t valid;
    int second;
    uint64_t *budget; /* spent a leaf of the first pass, */
    int spent;        /* and 1 once it ran out */
} Local;

/* A leaf's work from the budget: 0, or -1 when it ran out. */
static int leaf_spend(Local *l)
{
    if (budget_spend(l->budget, LEAF_WORK) == 0)
        return 0;
    l->spent = 1;
    return -1;
}

static int count_placement(Walk *w, uint64_t v, uint32_t index)
{
    Local *l = w->ctx;
    Table *t = l->t;
    if (!l->second) {
        if (leaf_spend(l))
            return -1;
        uint32_t i = entry(t, v);
        if (i == UINT32_MAX)
            return -1;
        val_at(t, i)[0]++; /* (the count's low word) */
        for (int c = 0; c < l->b->n; c++)
            l->at[i][c][w->seat[c]]++;
        l->valid++;
        return 0;
    }
    LitU192 idx = lit_u192(0);
    lookup(t, v, &idx);
    l->b->list[l->b->start[idx.w[0]]++] = index;
    return 0;
}

/* The same table by classes. Cards of a block that nothing tells apart
 * (the same candidate fields, named by the same clauses) form a class, and
 * the walk deals each class's count over its fields instead of placing
 * card by card: a deal giving field u k_u of a class's m cards stands for
 * m! / prod k_u! placements, and any one card of the class is in u in k_u / m
 * of them. The clauses read the counts: a class's cards are all in a
 * clause's cards or none. Same table, same counts, far fewer leaves (a block
 * of six cards alike over five fields: 210 deals for 15,625 placements).
 * Each clause is checked once the last class it names is dealt, so a deal
 * that breaks it goes no further (at 12 players most deals of a block of
 * cards told apart break one: a million leaves, of which thousands fit). */
typedef struct Classes {
    const Walk *w;                   /* the block, its clauses, the room */
    Local *l;
    const uint64_t (*choose)[LIT_MAX_CARDS + 1]; /* C(n, k) */
    int n;
    int m[LIT_MAX_SET_SIZE];         /* cards in each class */
    unsigned cand[LIT_MAX_SET_SIZE]; /* their candidate fields */
    uint8_t pos[LIT_MAX_SET_SIZE];   /* their positions in the set */
    unsigned cards[LIT_MAX_SET_SIZE];/* the block's cards in each (bit = card) */
    int k[LIT_MAX_SET_SIZE][LIT_MAX_PLAYERS]; /* the deal so far, */
    unsigned used[LIT_MAX_SET_SIZE];          /* and the fields it gives each class */
    /* the clauses by the last class they name: class j's are
     * due[first[j]] .. due[first[j + 1] - 1] (naming none: the first's,
     * whose count nothing after changes) */
    uint16_t due[2 * LIT_MAX_PLAYERS * LIT_KNOW_CLAUSES];
    uint16_t first[LIT_MAX_SET_SIZE + 1];
} Classes;

/* Whether class j names clause i: its cards are all among the clause's. */
static int names(const Classes *cl, int j, int i)
{
    return (cl->pos[j] & cl->w->cmask[i]) == cl->pos[j];
}

static void classes_init(Classes *cl, const Ctx *cx, const Walk *w, Local *l)
{
    const Block *b = w->b;
    memset(cl, 0, sizeof *cl);
    cl->w = w;
    cl->l = l;
    cl->choose = (const uint64_t (*)[LIT_MAX_CARDS + 1])cx->choose;
    for (int c = 0; c < b->n; c++) {
        int j = 0;
        for (; j < cl->n; j++) {
            int first = lit_lsb(cl->pos[j]), same = w->cand[c] == cl->cand[j];
            for (int i = 0; i < w->nc && same; i++)
                same = (w->cmask[i] >> b->pos[c] & 1) == (w->cmask[i] >> first & 1);
            if (same)
                break;
        }
        if (j == cl->n)
            cl->cand[cl->n++] = w->cand[c];
        cl->m[j]++;
        cl->pos[j] |= (uint8_t)(1u << b->pos[c]);
        cl->cards[j] |= 1u << c;
    }
    int last[2 * LIT_MAX_PLAYERS * LIT_KNOW_CLAUSES], count[LIT_MAX_SET_SIZE] = {0};
    for (int i = 0; i < w->nc; i++) {
        int j = cl->n - 1;
        while (j > 0 && !names(cl, j, i))
            j--;
        last[i] = j;
        count[j]++;
    }
    for (int j = 0; j < cl->n; j++)
        cl->first[j + 1] = (uint16_t)(cl->first[j] + count[j]);
    uint16_t at[LIT_MAX_SET_SIZE];
    memcpy(at, cl->first, sizeof at);
    for (int i = 0; i < w->nc; i++)
        cl->due[at[last[i]]++] = (uint16_t)i;
}

/* Whether the deal so far breaks one of the clauses due at class j: a
 * "holds one of" that got none of its cards, a "lacks one of" that got
 * all of them. */
static int breaks(const Classes *cl, int j)
{
    const Walk *w = cl->w;
    for (int d = cl->first[j]; d < cl->first[j + 1]; d++) {
        int i = cl->due[d], got = 0;
        for (int c = 0; c <= j; c++)
            if (names(cl, c, i))
                got += cl->k[c][w->cseat[i]];
        if (w->cneed[i] ? got == 0 : got == lit_popcount(w->cmask[i]))
            return 1;
    }
    return 0;
}

/* A whole deal that meets the clauses: into the table. */
static int class_leaf(Classes *cl, uint64_t v, uint64_t ways)
{
    Local *l = cl->l;
    uint32_t slot = entry(l->t, v);
    if (slot == UINT32_MAX)
        return -1;
    val_at(l->t, slot)[0] += ways; /* (the count's low word) */
    for (int j = 0; j < cl->n; j++)
        for (unsigned m = cl->used[j]; m; m &= m - 1) {
            int u = lit_lsb(m);
            uint32_t each = cl->m[j] == 1 ? (uint32_t)ways
                                          : (uint32_t)(ways * (uint64_t)cl->k[j][u] /
                                                       (uint64_t)cl->m[j]);
            for (unsigned cards = cl->cards[j]; cards; cards &= cards - 1)
                l->at[slot][lit_lsb(cards)][u] += each;
        }
    return 0;
}

/* Deals class j's left cards over the fields of rest (the rest of its
 * candidates), the vector so far v standing for ways placements; then the
 * classes after it. */
static int class_deal(Classes *cl, int j, unsigned rest, int left, uint64_t v, uint64_t ways)
{
    if (!rest) {
        if (left)
            return 0;
        /* every class dealt spends a step's work, whether it breaks a
         * clause or not */
        if (leaf_spend(cl->l))
            return -1;
        if (breaks(cl, j))
            return 0;
        if (++j == cl->n)
            return class_leaf(cl, v, ways);
        return class_deal(cl, j, cl->cand[j], cl->m[j], v, ways);
    }
    const Walk *w = cl->w;
    int u = lit_lsb(rest);
    unsigned others = rest & (rest - 1);
    uint64_t one = unit_one(w->lay, u);
    unsigned had = cl->used[j];
    int stop = 0;
    for (int t = others ? 0 : left; t <= left && !stop; t++) {
        uint64_t to = v + one * (uint64_t)t;
        if (!fits(w->lay->guard, to, w->slots))
            break; /* more cards in u fit no better */
        cl->k[j][u] = t;
        cl->used[j] = t ? had | 1u << u : had;
        stop = class_deal(cl, j, others, left - t, to, ways * cl->choose[left][t]);
        cl->k[j][u] = 0;
    }
    cl->used[j] = had;
    return stop;
}

/* Block b's local table in w: PLAN_OK, PLAN_NONE when no placement meets
 * its clauses, PLAN_OVER when w is too small, or PLAN_BUDGET when its walk
 * went past *budget. */
int local_table(const Ctx *cx, Block *b, LitWork *w, int lists, uint64_t *budget)
{
    /* The local table: every placement's vector, counted, and which
     * card each puts where (by vector); for sampling, the placements.
     * The vectors and their counts take at most local_bound; the counts
     * by slot come after them, for the walk only, and so does the
     * table, unless the second pass (lists) needs it after. */
    uint32_t bound = local_bound(b);
    b->vec = lit_work_take(w, sizeof(Vec) * bound);
    b->at = lit_work_take(w, sizeof *b->at * bound);
    Table t;
    if (!b->vec || !b->at || (lists && table_new(&t, w, bound)))
        return PLAN_OVER;
    LitWork tmp = *w;
    if (!lists && table_new(&t, &tmp, bound))
        return PLAN_OVER;
    Local loc = {&t, b, lit_work_take(&tmp, sizeof *b->at * t.cap), 0, 0, budget, 0};
    if (!loc.at)
        return PLAN_OVER;
    memset(loc.at, 0, sizeof *b->at * t.cap);
    Walk wk;
    walk_init(&wk, cx->k, b, &cx->lay, b->cand, cx->slots, ~0u);
    wk.visit = count_placement;
    wk.ctx = &loc;
    int stop;
    if (lists) {
        stop = walk_run(&wk, 0, 0, 0);
    } else {
        /* counting alone: the walk by classes */
        Classes cl;
        classes_init(&cl, cx, &wk, &loc);
        stop = class_deal(&cl, 0, cl.cand[0], cl.m[0], 0, 1);
    }
    if (stop)
        return loc.spent ? PLAN_BUDGET : PLAN_OVER;
    if (t.count == 0)
        return PLAN_NONE; /* no placement meets the clauses */
    for (uint32_t i = 0; i < t.cap; i++)
        if (t.key[i]) {
            /* the table's value becomes the vector's index */
            b->vec[b->n_vec] = (Vec){t.key[i] - 1, val_get(&t, i).w[0]};
            memcpy(b->at[b->n_vec], loc.at[i], sizeof *b->at);
            LitU192 index = lit_u192(b->n_vec++);
            val_put(&t, i, &index);
        }
    if (lists) {
        /* The placements of each vector, together: vector v's are
         * list[start[v]] .. list[start[v + 1] - 1]. */
        b->start = lit_work_take(w, sizeof(uint32_t) * (b->n_vec + 1));
        b->list = lit_work_take(w, sizeof(uint32_t) * loc.valid);
        if (!b->start || !b->list)
            return PLAN_OVER;
        uint32_t at = 0;
        for (uint32_t v = 0; v < b->n_vec; v++) {
            b->start[v] = at;
            at += (uint32_t)b->vec[v].n;
        }
        b->start[b->n_vec] = at;
    }
    if (lists) {
        loc.second = 1;
        walk_run(&wk, 0, 0, 0);
        for (uint32_t v = b->n_vec; v > 0; v--)
            b->start[v] = b->start[v - 1];
        b->start[0] = 0;
    }
    return PLAN_OK;
}
