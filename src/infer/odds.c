/* odds.c - exact counting of the deals consistent with a view, and exact
 * probabilities (see infer.h and docs/DEDUCTION.md "Exact counting").
 *
 * Every fact of the history is about the unplaced cards of one set, and the
 * hand sizes couple the sets. So the count is a dynamic program over the sets
 * (the blocks): a block's local table lists, for every way to place its
 * unplaced cards that meets its clauses, the vector of cards it gives each
 * seat; the state between blocks is the vector of cards given so far, packed
 * five bits a seat into a uint64_t (a seat takes at most 14, a block at most
 * 6, so fields never carry into each other).
 *
 *   1. Local tables, block by block.
 *   2. Backward layers B_j(r): ways for blocks j.. to give exactly r.
 *      The count is B_0(slots).
 *   3. A forward sweep with F_j(u): ways for blocks ..j-1 to give u. For each
 *      vector v of block j, G(v) = sum_u F_j(u) B_{j+1}(slots - u - v) is the
 *      number of consistent deals in which block j gives v; every local
 *      placement with vector v has that many deals, which gives the marginals
 *      and the claim figures of the block's set.
 * Where it costs less, a block's layers come card by card instead of vector
 * by vector (back_steps; docs/DEDUCTION.md "Card steps").
 * Nothing is allocated: tables live in the caller's workspace.
 */
#include "literature/infer.h"

#include "free.h"

#include <string.h>

#include "literature/rng.h"
#include "literature/status.h"

enum { FIELD = 5, FOLD_MAX = 1 << 16, DENSE_MAX = 1 << 17, CHUNK = 2048, STEP_CLAUSES = 4 };
/* A pair of the forward pass vector by vector, in g_work's units. */
enum { VECTOR_PAIR = 10 };
/* The ways to give at most 6 cards to at most 4 seats: C(10, 4). */
enum { HORNER_SHIFTS = 210 };

/* A dense index of the vectors of one sum: every field but one (the one
 * the sum then gives) as a digit, field f's radix its slots + 1. So the
 * index of u + v is the index of u plus that of v, and a layer walked in
 * index order reads and writes the next layer in order too. */
typedef struct Dense {
    int n;                          /* digits */
    uint8_t off[LIT_MAX_PLAYERS];   /* where each is in a packed vector */
    uint8_t mask[LIT_MAX_PLAYERS];
    uint32_t stride[LIT_MAX_PLAYERS];
    uint32_t size;                  /* every index is below it */
} Dense;

static uint32_t dense_index(const Dense *d, uint64_t v)
{
    uint32_t i = 0;
    for (int f = 0; f < d->n; f++)
        i += (uint32_t)((v >> d->off[f]) & d->mask[f]) * d->stride[f];
    return i;
}

/* Keys apart from values: a probe reads only keys, eight to a cache line.
 * A hashed table probes from the key's hash; a dense one holds every vector
 * of its sum at its dense index, so it never probes. */
typedef struct Table {
    uint64_t *key; /* packed vector + 1; 0 for an empty slot */
    LitU192 *val;
    uint32_t cap;   /* a power of two, or the dense size */
    uint32_t count;
    const Dense *dense; /* NULL when hashed */
} Table;

typedef struct Vec {
    uint64_t v;     /* packed vector */
    uint64_t n;     /* local placements giving it */
} Vec;

/* Where each unit's count sits in a packed vector. The program's units are
 * its fields: a seat, or several exchangeable seats merged into one (see
 * plan_build); a walk over real seats uses seats, five bits each. */
typedef struct Layout {
    int n;                          /* units */
    uint8_t off[LIT_MAX_PLAYERS];   /* bit offset of each */
    uint8_t mask[LIT_MAX_PLAYERS];  /* its values: 31, or 127 when merged */
    uint64_t guard;                 /* the top bit of each */
    uint8_t unit_of[LIT_MAX_PLAYERS];/* each seat's unit */
} Layout;

/* The unit u of a packed vector v. */
static int unit_count(const Layout *lay, uint64_t v, int u)
{
    return (int)((v >> lay->off[u]) & lay->mask[u]);
}

static uint64_t unit_one(const Layout *lay, int u)
{
    return UINT64_C(1) << lay->off[u];
}

typedef struct Block {
    int set;
    int n;                          /* unplaced cards */
    uint8_t pos[LIT_MAX_SET_SIZE];  /* their positions in the set */
    unsigned cand[LIT_MAX_SET_SIZE];/* their candidate fields */
    unsigned seat_cand[LIT_MAX_SET_SIZE]; /* ... and seats */
    int pooled;                     /* the set's other unplaced cards, pooled */
    Vec *vec;
    uint32_t n_vec;
    uint32_t *list;                 /* for sampling: placements by vector */
    uint32_t *start;
    /* at[v][c][f]: the placements with vector v that put card c in field f */
    uint32_t (*at)[LIT_MAX_SET_SIZE][LIT_MAX_PLAYERS];
} Block;

typedef struct Work {
    unsigned char *p;
    size_t left;
} Work;

/* A workspace from the caller's buffer, its start aligned to 16 bytes
 * (whatever the buffer's alignment and size). */
static Work work_of(void *buf, size_t size)
{
    size_t skip = (16 - (uintptr_t)buf % 16) % 16;
    Work w = {(unsigned char *)buf + skip, size > skip ? size - skip : 0};
    w.left &= ~(size_t)15;
    return w;
}

/* Takes bytes (rounded up to 16, so every piece stays aligned). */
static void *take(Work *w, size_t bytes)
{
    if (bytes > w->left)
        return NULL;
    bytes = (bytes + 15) & ~(size_t)15;
    if (bytes > w->left)
        return NULL;
    void *out = w->p;
    w->p += bytes;
    w->left -= bytes;
    return out;
}

/* A table for want entries at most half full: 0, or -1 when the workspace
 * cannot hold it. */
static int table_in(Table *t, Work *w, uint64_t want, const Dense *dense)
{
    uint64_t cap = 16;
    while (cap < 2 * want + 1)
        cap *= 2;
    if (dense)
        cap = dense->size;
    if (cap > w->left / (sizeof(uint64_t) + sizeof(LitU192)))
        return -1;
    t->key = take(w, sizeof(uint64_t) * cap);
    t->val = take(w, sizeof(LitU192) * cap);
    if (!t->key || !t->val)
        return -1;
    memset(t->key, 0, sizeof(uint64_t) * cap); /* values are written on insertion */
    t->cap = (uint32_t)cap;
    t->count = 0;
    t->dense = dense;
    return 0;
}

/* A hashed table. */
static int table_new(Table *t, Work *w, uint64_t want)
{
    return table_in(t, w, want, NULL);
}

static uint32_t slot_of(const Table *t, uint64_t key)
{
    if (t->dense)
        return dense_index(t->dense, key - 1);
    uint64_t h = key * UINT64_C(0x9e3779b97f4a7c15);
    return (uint32_t)(h >> 32) & (t->cap - 1);
}

static const LitU192 *lookup(const Table *t, uint64_t v)
{
    uint64_t key = v + 1;
    for (uint32_t i = slot_of(t, key);; i = (i + 1) & (t->cap - 1)) {
        if (t->key[i] == key)
            return &t->val[i];
        if (t->key[i] == 0)
            return NULL;
    }
}

/* The slot of v, a new entry of 0 when v is not there yet: UINT32_MAX
 * when a hashed table is full (past half). */
static uint32_t entry(Table *t, uint64_t v)
{
    uint64_t key = v + 1;
    uint32_t i = slot_of(t, key);
    while (t->key[i] && t->key[i] != key)
        i = (i + 1) & (t->cap - 1); /* (a dense table never probes) */
    if (!t->key[i]) {
        if (!t->dense && 2 * (t->count + 1) > t->cap)
            return UINT32_MAX;
        t->key[i] = key;
        t->val[i] = lit_u192(0);
        t->count++;
    }
    return i;
}

/* Adds x to the entry of v: 0, or -1 when the table is full (past half). */
static int add_to(Table *t, uint64_t v, const LitU192 *x)
{
    uint32_t i = entry(t, v);
    if (i == UINT32_MAX)
        return -1;
    lit_u192_add(&t->val[i], &t->val[i], x);
    return 0;
}

/* a * b mod 2^192, for the hot loops: every product there is a count of
 * deals, below 2^168, so the words past the third are zero and need not be
 * formed (six word products instead of nine). */
static inline LitU192 mul_low(const LitU192 *a, const LitU192 *b)
{
    uint64_t h00, l00, h01, l01, h10, l10;
    lit_u64_mul(a->w[0], b->w[0], &h00, &l00);
    lit_u64_mul(a->w[0], b->w[1], &h01, &l01);
    lit_u64_mul(a->w[1], b->w[0], &h10, &l10);
    uint64_t w1 = h00 + l01, c = w1 < l01;
    w1 += l10;
    c += w1 < l10;
    uint64_t w2 = h01 + h10 + c + a->w[1] * b->w[1] + a->w[0] * b->w[2] + a->w[2] * b->w[0];
    LitU192 r = {{l00, w1, w2}};
    return r;
}

/* a * small */
static inline LitU192 times(const LitU192 *a, uint64_t small)
{
    /* mod 2^192, like mul_low: the products here are counts of deals. In
     * words, not a loop over an array: the compiler keeps them in
     * registers (through the stack, the next wide load stalls). */
    uint64_t h0, l0, h1, l1;
    lit_u64_mul(a->w[0], small, &h0, &l0);
    lit_u64_mul(a->w[1], small, &h1, &l1);
    uint64_t w1 = l1 + h0, c = w1 < h0;
    LitU192 r = {{l0, w1, a->w[2] * small + h1 + c}};
    return r;
}

/* a += x mod 2^192, in words (see times). */
static inline void add_in(LitU192 *a, const LitU192 *x)
{
    uint64_t w0 = a->w[0] + x->w[0], c0 = w0 < x->w[0];
    uint64_t w1 = a->w[1] + x->w[1], c1 = w1 < x->w[1];
    w1 += c0;
    c1 += w1 < c0;
    a->w[0] = w0;
    a->w[1] = w1;
    a->w[2] += x->w[2] + c1;
}

/* a += x mod 2^128, the word above left as it is: where every count is
 * below 2^128 (Ctx.narrow), the hot loops keep that word zero and work in
 * two. */
static inline void add_in2(LitU192 *a, const LitU192 *x)
{
    uint64_t w0 = a->w[0] + x->w[0];
    a->w[1] += x->w[1] + (w0 < x->w[0]);
    a->w[0] = w0;
}

/* a * b mod 2^128 (as add_in2): three word products where mul_low takes
 * six. */
static inline LitU192 mul_low2(const LitU192 *a, const LitU192 *b)
{
    uint64_t hi, lo;
    lit_u64_mul(a->w[0], b->w[0], &hi, &lo);
    LitU192 r = {{lo, hi + a->w[0] * b->w[1] + a->w[1] * b->w[0], 0}};
    return r;
}

/* The entries of a table in slot order (for a dense table, index order):
 * count of them in w, or NULL when w cannot hold them. */
static uint32_t *entries_of(const Table *t, Work *w)
{
    uint32_t *at = take(w, sizeof(uint32_t) * (t->count + 1u));
    if (!at)
        return NULL;
    uint32_t n = 0;
    for (uint32_t i = 0; i < t->cap && n < t->count; i++)
        if (t->key[i])
            at[n++] = i;
    return at;
}

/* Adds x at dense index i, the vector v's: the caller knows i is v's. In
 * two words when narrow (Ctx.narrow): the top word stays 0. */
static inline void add_dense(Table *t, uint32_t i, uint64_t v, const LitU192 *x, int narrow)
{
    if (t->key[i]) {
        if (narrow)
            add_in2(&t->val[i], x);
        else
            add_in(&t->val[i], x);
    } else {
        t->key[i] = v + 1;
        t->val[i] = *x;
        if (narrow)
            t->val[i].w[2] = 0;
        t->count++;
    }
}

/* The dense indices of n vectors (vec[v * stride]) in index[v], and the
 * vectors in the order of their indices in order, both in w: 0, or -1 when
 * w cannot hold them. */
static int dense_order(const Dense *d, const uint64_t *vec, size_t stride, uint32_t n, Work *w,
                       uint32_t **index, uint32_t **order)
{
    uint32_t *ix = take(w, sizeof(uint32_t) * (n + 1u)), *o = take(w, sizeof(uint32_t) * (n + 1u));
    if (!ix || !o)
        return -1;
    for (uint32_t v = 0; v < n; v++) {
        ix[v] = dense_index(d, vec[(size_t)v * stride]);
        uint32_t k = v;
        for (; k > 0 && ix[o[k - 1]] > ix[v]; k--)
            o[k] = o[k - 1];
        o[k] = v;
    }
    *index = ix;
    *order = o;
    return 0;
}


/* Bit 4 of each of twelve five-bit fields: the guard of vectors by seat. */
#define GUARD UINT64_C(0x842108421084210)

/* Whether every field of x is at most its field in limit, where guard has
 * the top bit of every field and no field of x or limit reaches it (a seat's
 * slots are at most its dealt hand, 14, in five bits; a merged field's at
 * most 54, in seven; a block gives a field at most 6): the top bit is then a
 * guard that a field's subtraction clears only when it borrows, so one
 * subtraction compares every field. */
static int fits(uint64_t guard, uint64_t x, uint64_t limit)
{
    return (((limit | guard) - x) & guard) == guard;
}

/* The placement index i (mixed radix over the candidate fields) of a
 * block: the field of each card and the vector it gives the fields. */
static void decode(const Layout *lay, const Block *b, uint32_t i, int unit[LIT_MAX_SET_SIZE],
                   uint64_t *vector)
{
    *vector = 0;
    for (int c = 0; c < b->n; c++) {
        unsigned m = b->cand[c];
        int n = lit_popcount(m), pick = (int)(i % (uint32_t)n);
        i /= (uint32_t)n;
        unit[c] = lit_nth_card(m, pick);
        *vector += unit_one(lay, unit[c]);
    }
}

/* A depth-first walk over a block's placements: each card in each of its
 * allowed units (fields, or seats) with room, each clause checked from the
 * cards each unit got once its last card is placed (a clause's seat is never
 * merged with another, so its unit is its own). The index of a placement
 * over the fields is decode()'s. */
typedef struct Walk {
    const Block *b;
    const Layout *lay;
    const unsigned *cand;             /* the block's candidates, as units */
    uint64_t slots;
    unsigned allow[LIT_MAX_SET_SIZE]; /* candidates walked (a subset of cand) */
    uint32_t radix[LIT_MAX_SET_SIZE];
    int nc;                           /* the set's clauses: */
    uint8_t cseat[2 * LIT_MAX_PLAYERS * LIT_KNOW_CLAUSES];
    uint8_t cmask[2 * LIT_MAX_PLAYERS * LIT_KNOW_CLAUSES];
    uint8_t cneed[2 * LIT_MAX_PLAYERS * LIT_KNOW_CLAUSES];
    /* the clauses by the last of the block's cards they name, when the walk
     * checks them: card c's are corder[cfirst[c]] .. corder[cfirst[c + 1] - 1]
     * (card n: naming none of them, checked at the end) */
    uint16_t corder[2 * LIT_MAX_PLAYERS * LIT_KNOW_CLAUSES];
    uint16_t cfirst[LIT_MAX_SET_SIZE + 2];
    int seat[LIT_MAX_SET_SIZE];       /* the unit of each card */
    uint8_t here[LIT_MAX_PLAYERS];    /* positions each unit got */
    /* called for every placement that meets the clauses; non-zero stops */
    int (*visit)(struct Walk *w, uint64_t v, uint32_t index);
    void *ctx;
} Walk;

/* A walk over the units of lay, with the block's candidates cand (b->cand
 * for fields, b->seat_cand for seats), within slots, each card only in the
 * units of allow. */
static void walk_init(Walk *w, const LitKnow *k, const Block *b, const Layout *lay,
                      const unsigned *cand, uint64_t slots, unsigned allow)
{
    memset(w, 0, sizeof *w);
    w->b = b;
    w->lay = lay;
    w->cand = cand;
    w->slots = slots;
    uint32_t radix = 1;
    for (int c = 0; c < b->n; c++) {
        w->allow[c] = cand[c] & allow;
        w->radix[c] = radix;
        radix *= (uint32_t)lit_popcount(cand[c]);
    }
    for (int s = 0; s < k->pub.rules.players; s++) {
        for (int i = 0; i < k->n_need[s][b->set]; i++, w->nc++) {
            w->cseat[w->nc] = lay->unit_of[s];
            w->cmask[w->nc] = k->need[s][b->set][i];
            w->cneed[w->nc] = 1;
        }
        for (int i = 0; i < k->n_lack[s][b->set]; i++, w->nc++) {
            w->cseat[w->nc] = lay->unit_of[s];
            w->cmask[w->nc] = k->lack[s][b->set][i];
            w->cneed[w->nc] = 0;
        }
    }
    int last[2 * LIT_MAX_PLAYERS * LIT_KNOW_CLAUSES], count[LIT_MAX_SET_SIZE + 1] = {0};
    for (int i = 0; i < w->nc; i++) {
        last[i] = b->n;
        for (int c = 0; c < b->n; c++)
            if (w->cmask[i] >> b->pos[c] & 1)
                last[i] = c;
        count[last[i]]++;
    }
    w->cfirst[0] = 0;
    for (int c = 0; c <= b->n; c++)
        w->cfirst[c + 1] = (uint16_t)(w->cfirst[c] + count[c]);
    uint16_t at[LIT_MAX_SET_SIZE + 1];
    memcpy(at, w->cfirst, sizeof at);
    for (int i = 0; i < w->nc; i++)
        w->corder[at[last[i]]++] = (uint16_t)i;
}

/* Whether the clauses checked at card c (all of them named cards placed)
 * hold. */
static inline int clauses_hold(const Walk *w, int c)
{
    for (int i = w->cfirst[c]; i < w->cfirst[c + 1]; i++) {
        int k = w->corder[i];
        uint8_t got = w->here[w->cseat[k]] & w->cmask[k];
        if (w->cneed[k] ? got == 0 : got == w->cmask[k])
            return 0;
    }
    return 1;
}

/* Walks cards c.. of the placement with vector v so far: 0, or what a
 * visit returned. A "holds one of" clause fails when its seat got none of
 * its cards, a "lacks one of" clause when its seat got them all; each is
 * checked once its last card is placed, so a failing branch ends there. */
static int walk(Walk *w, int c, uint64_t v, uint32_t index)
{
    const Block *b = w->b;
    if (c == b->n)
        return clauses_hold(w, c) ? w->visit(w, v, index) : 0;
    int pick = 0;
    for (unsigned m = w->cand[c]; m; m &= m - 1, pick++) {
        int s = lit_lsb(m);
        uint64_t one = unit_one(w->lay, s);
        if (!(w->allow[c] >> s & 1) || !fits(w->lay->guard, v + one, w->slots))
            continue;
        w->seat[c] = s;
        w->here[s] |= (uint8_t)(1u << b->pos[c]);
        uint32_t at = index + (uint32_t)pick * w->radix[c];
        int stop = clauses_hold(w, c) ? walk(w, c + 1, v + one, at) : 0;
        w->here[s] &= (uint8_t)~(1u << b->pos[c]);
        if (stop)
            return stop;
    }
    return 0;
}

/* How many vectors have fields summing to total, each at most its field of
 * limit: no layer of the program can hold more states. */
static uint64_t vectors(const Layout *lay, uint64_t limit, int total)
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

uint64_t infer_unplaced(const LitKnow *k)
{
    uint64_t placed = 0;
    for (int s = 0; s < k->pub.rules.players; s++)
        placed |= k->held[s];
    return k->pub.live & ~placed;
}

unsigned infer_free_sets(const LitKnow *k)
{
    int deck = k->pub.rules.deck, players = k->pub.rules.players;
    uint64_t unplaced = infer_unplaced(k);
    unsigned free_sets = 0;
    for (int set = 0; set < lit_deck_sets(deck); set++) {
        uint64_t m = lit_set_mask(deck, set) & unplaced;
        int clauses = 0, full = m != 0;
        for (int s = 0; s < players; s++) {
            clauses += k->n_need[s][set] + k->n_lack[s][set];
            if (k->slots[s] && (k->may[s] & m) != m)
                full = 0;
        }
        if (!clauses && full)
            free_sets |= 1u << set;
    }
    return free_sets;
}

/* What the passes below share. */
typedef struct Ctx {
    const LitKnow *k;
    int players;
    Layout lay;              /* the fields */
    Layout seats;            /* five bits a seat */
    uint64_t slots;          /* slots of every field (a merged one: its seats'), packed */
    uint64_t seat_slots;     /* slots of every seat, five bits each */
    unsigned merged;         /* the fields of two or more seats */
    unsigned members[LIT_MAX_PLAYERS]; /* the seats of each field */
    int free;                /* cards in the pool (the free sets' and other free cards) */
    uint64_t choose[LIT_MAX_CARDS + 1][LIT_MAX_CARDS + 1]; /* C(n, k): below 2^51 */
    Dense dense;             /* the layers' index, when use_dense */
    int use_dense;
    int narrow;              /* every count below 2^128: the hot loops work in two words */
    int roomy;               /* and below 2^125 (2^189 when not narrow): room for a weight < 8 */
    unsigned how;            /* infer_odds's choices (free.h) */
} Ctx;

/* The layers and F are dense (Dense) when the vectors within the slots
 * have at most DENSE_MAX indices and tables of that size fit in room;
 * else hashed. The field left out is the one with the most
 * slots. */
static void make_dense(Ctx *cx, int tables, size_t room)
{
    const Layout *lay = &cx->lay;
    int drop = 0;
    for (int f = 1; f < lay->n; f++)
        if (unit_count(lay, cx->slots, f) > unit_count(lay, cx->slots, drop))
            drop = f;
    Dense *d = &cx->dense;
    uint64_t size = 1;
    d->n = 0;
    for (int f = 0; f < lay->n; f++) {
        int cap = unit_count(lay, cx->slots, f);
        if (f == drop || cap == 0)
            continue;
        d->off[d->n] = lay->off[f];
        d->mask[d->n] = lay->mask[f];
        d->stride[d->n++] = (uint32_t)size;
        size *= (uint64_t)cap + 1;
    }
    d->size = (uint32_t)(size < DENSE_MAX ? size : DENSE_MAX);
    cx->use_dense = size <= DENSE_MAX &&
                    (uint64_t)tables * size * (sizeof(uint64_t) + sizeof(LitU192)) <= room;
}

/* The table of a layer or of F: dense or hashed as cx says. */
static int layer_new(Table *t, Work *w, uint64_t want, const Ctx *cx)
{
    return table_in(t, w, want, cx->use_dense ? &cx->dense : NULL);
}

/* Ways to place `cards` distinct exchangeable cards so that every unit of
 * lay gets its count in r: cards! / prod r_u!, 0 when the counts do not sum
 * to cards. A product of binomials, so nothing overflows on the way. */
static LitU192 spread_in(const Ctx *cx, const Layout *lay, uint64_t r, int cards)
{
    LitU192 x = lit_u192(1);
    int left = cards;
    for (int f = 0; f < lay->n; f++) {
        int n = unit_count(lay, r, f);
        if (n > left)
            return lit_u192(0);
        if (n) {
            x = times(&x, cx->choose[left][n]);
            left -= n;
        }
    }
    return left ? lit_u192(0) : x;
}

/* ... over the fields. */
static LitU192 spread(const Ctx *cx, uint64_t r, int cards)
{
    return spread_in(cx, &cx->lay, r, cards);
}

/* A vector by seat as a vector by field. */
static uint64_t to_fields(const Ctx *cx, uint64_t by_seat)
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
 * are splits(y) times the deals of the fields in which they lie as
 * to_fields(y) says. */
static LitU192 splits(const Ctx *cx, uint64_t y)
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

/* The team holding the placed cards of a set: -1 when none is placed, 2
 * when both teams hold some. */
static int placed_team(const LitKnow *k, uint64_t setmask)
{
    int team = -1;
    for (int s = 0; s < k->pub.rules.players; s++)
        if (k->held[s] & setmask)
            team = team < 0 || team == lit_team_of(s) ? lit_team_of(s) : 2;
    return team;
}

/* The claim figures of q free cards for a team, which every free set with
 * q unplaced cards shares: computed once per team and q. */
typedef struct FreeClaim {
    int done;
    LitU192 all, best;
    uint64_t best_v;
} FreeClaim;

/* The sum of a vector's fields. */
static int cards_in(const Ctx *cx, uint64_t v)
{
    int n = 0;
    for (int f = 0; f < cx->lay.n; f++)
        n += unit_count(&cx->lay, v, f);
    return n;
}

/* F projected on one team's fields (those with a seat of the team), for
 * the free sets' claims: with x = slots - w what the free cards give when
 * the blocks gave w, x_T its team's fields and x_N the rest, proj(x_T) =
 * sum of F(w) spread(x_N) over the w with that x_T. Then the deals in which
 * q given free cards give the team's fields the vector v and the other free
 * cards go anywhere are
 *   sum over x_T of proj(x_T) C(free - q, |x_T| - q) spread(x_T - v),
 * a sum over the (few) team parts instead of over F. 0, or -1 when the
 * workspace is too small. */
static int project(const Ctx *cx, const Table *f, unsigned team_seats, Table *proj, Work *w)
{
    uint64_t mask = 0, most = 1;
    unsigned units = 0;
    for (int s = 0; s < cx->players; s++)
        if (team_seats >> s & 1)
            units |= 1u << cx->lay.unit_of[s];
    for (unsigned m = units; m; m &= m - 1) {
        int u = lit_lsb(m);
        mask |= (uint64_t)cx->lay.mask[u] << cx->lay.off[u];
        most *= (uint64_t)unit_count(&cx->lay, cx->slots, u) + 1;
    }
    /* no larger than the vectors over the team's fields can fill: the
     * claims go over the whole table once per vector a team's seats get */
    if (table_new(proj, w, most < f->count ? most : f->count))
        return -1;
    for (uint32_t i = 0; i < f->cap; i++) {
        if (!f->key[i])
            continue;
        uint64_t x = cx->slots - (f->key[i] - 1), xt = x & mask;
        LitU192 ways = spread(cx, x - xt, cx->free - cards_in(cx, xt)), y;
        lit_u192_mul(&y, &f->val[i], &ways);
        if (add_to(proj, xt, &y))
            return -1;
    }
    return 0;
}

/* Deals of the fields in which the blocks gave some w (F) and q given free
 * cards gave the team's fields the vector v, from the projection. */
static LitU192 team_completions(const Ctx *cx, const Table *proj, uint64_t v, int q)
{
    LitU192 sum = lit_u192(0);
    for (uint32_t i = 0; i < proj->cap; i++) {
        if (!proj->key[i])
            continue;
        uint64_t xt = proj->key[i] - 1;
        int n = cards_in(cx, xt);
        if (n < q || !fits(cx->lay.guard, v, xt))
            continue;
        LitU192 ways = spread(cx, xt - v, n - q), y;
        ways = times(&ways, cx->choose[cx->free - q][n - q]);
        lit_u192_mul(&y, &proj->val[i], &ways);
        lit_u192_add(&sum, &sum, &y);
    }
    return sum;
}

/* Whether the placement of vector v by seat (its cards in order, seat by
 * seat) comes before w's in card order: more cards at the first seat where
 * they differ. */
static int earlier(uint64_t v, uint64_t w)
{
    for (; v != w; v >>= FIELD, w >>= FIELD)
        if ((v & 31) != (w & 31))
            return (v & 31) > (w & 31);
    return 0;
}

static void free_claim(const Ctx *cx, const Table *proj, int t, int q, FreeClaim *fc)
{
    const LitKnow *k = cx->k;
    int seats[LIT_MAX_PLAYERS], n = 0;
    fc->done = 1;
    fc->all = fc->best = lit_u192(0);
    fc->best_v = 0;
    for (int s = t; s < cx->players; s += 2)
        if (k->slots[s])
            seats[n++] = s;
    if (n == 0)
        return;
    /* Every vector over the team's seats with sum q, as counters; the deals
     * of each placement with that vector are those of the fields times the
     * splits of the merged fields' other cards. */
    int cnt[LIT_MAX_PLAYERS] = {0};
    cnt[0] = q;
    for (;;) {
        uint64_t v = 0;
        for (int i = 0; i < n; i++)
            v += (uint64_t)cnt[i] << (FIELD * seats[i]);
        if (fits(GUARD, v, cx->seat_slots)) {
            LitU192 fields = team_completions(cx, proj, to_fields(cx, v), q), x, each;
            LitU192 split = splits(cx, v);
            lit_u192_mul(&each, &fields, &split);
            LitU192 ways = spread_in(cx, &cx->seats, v, q);
            lit_u192_mul(&x, &each, &ways);
            lit_u192_add(&fc->all, &fc->all, &x);
            int cmp = lit_u192_cmp(&each, &fc->best);
            if (cmp > 0 || (cmp == 0 && !lit_u192_is_zero(&each) && earlier(v, fc->best_v))) {
                fc->best = each;
                fc->best_v = v;
            }
        }
        /* next composition: move one from the first non-zero counter (not
         * the last) to the one after it, and gather the rest back */
        int i = 0;
        while (i < n - 1 && cnt[i] == 0)
            i++;
        if (i >= n - 1)
            break;
        int carry = cnt[i] - 1;
        cnt[i] = 0;
        cnt[i + 1]++;
        cnt[0] += carry;
    }
}

/* Claim figures of a free set (all its unplaced cards free): a placement of
 * its q cards that gives the team's seats the vector kv has
 * team_completions(kv, q) deals, and q!/prod kv_s! placements share kv. */
static void free_set_claims(const Ctx *cx, const Table proj[2], int set, uint64_t unplaced,
                            const LitU192 *total, FreeClaim memo[2][LIT_MAX_SET_SIZE + 1],
                            LitOdds *odds)
{
    const LitKnow *k = cx->k;
    int deck = k->pub.rules.deck, players = cx->players, first = lit_set_first(deck, set);
    uint64_t m = lit_set_mask(deck, set);
    int q = lit_popcount(m & unplaced), team_of_placed = placed_team(k, m);
    for (int t = 0; t < 2; t++) {
        memset(odds->best[t][set], LIT_NOBODY, LIT_MAX_SET_SIZE);
        if (team_of_placed >= 0 && team_of_placed != t)
            continue;
        FreeClaim *fc = &memo[t][q];
        if (!fc->done)
            free_claim(cx, &proj[t], t, q, fc);
        odds->team_all[t][set] = lit_u192_ratio(&fc->all, total);
        odds->best_p[t][set] = lit_u192_ratio(&fc->best, total);
        if (lit_u192_is_zero(&fc->best))
            continue;
        /* The likeliest placement: the cards in order, seat by seat. */
        uint64_t x = m & unplaced, v = fc->best_v;
        for (int s = 0; s < players; s++, v >>= FIELD)
            for (int c = 0; c < (int)(v & 31); c++)
                odds->best[t][set][lit_pop_lsb(&x) - first] = (uint8_t)s;
        for (int s = 0; s < players; s++)
            for (uint64_t h = k->held[s] & m; h;)
                odds->best[t][set][lit_pop_lsb(&h) - first] = (uint8_t)s;
    }
}

/* Every vector within the slots whose fields sum to the cards left, with
 * the ways to spread that many free cards so: the free cards as one last
 * layer. The ways are spread()'s product of binomials, C(cards left, what
 * the field takes) field by field, taken on the way down; the last field
 * takes what is left. Call with field 0, v 0 and ways 1. */
static int fill_free(Table *t, const Ctx *cx, int field, uint64_t v, int left, LitU192 ways)
{
    int n = cx->lay.n;
    if (field >= n - 1) {
        if (field == n - 1) {
            if (left > unit_count(&cx->lay, cx->slots, field))
                return 0;
            v += (uint64_t)left << cx->lay.off[field];
        } else if (left) {
            return 0;
        }
        if (t->dense) {
            add_dense(t, dense_index(t->dense, v), v, &ways, 0);
            return 0;
        }
        return add_to(t, v, &ways);
    }
    int cap = unit_count(&cx->lay, cx->slots, field);
    for (int x = 0; x <= cap && x <= left; x++) {
        LitU192 more = x ? times(&ways, cx->choose[left][x]) : ways;
        if (fill_free(t, cx, field + 1, v + ((uint64_t)x << cx->lay.off[field]), left - x, more))
            return -1;
    }
    return 0;
}

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
} Local;

static int count_placement(Walk *w, uint64_t v, uint32_t index)
{
    Local *l = w->ctx;
    Table *t = l->t;
    if (!l->second) {
        uint32_t i = entry(t, v);
        if (i == UINT32_MAX)
            return -1;
        t->val[i].w[0]++;
        for (int c = 0; c < l->b->n; c++)
            l->at[i][c][w->seat[c]]++;
        l->valid++;
        return 0;
    }
    uint32_t idx = (uint32_t)lookup(t, v)->w[0];
    l->b->list[l->b->start[idx]++] = index;
    return 0;
}

/* The same table by classes. Cards of a block that nothing tells apart
 * (the same candidate fields, named by the same clauses) form a class, and
 * the walk deals each class's count over its fields instead of placing
 * card by card: a deal giving field u k_u of a class's m cards stands for
 * m! / prod k_u! placements, and any one card of the class is in u in k_u / m
 * of them. The clauses read the counts: a class's cards are all in a
 * clause's cards or none. Same table, same counts, far fewer leaves (a block
 * of six cards alike over five fields: 210 deals for 15,625 placements). */
typedef struct Classes {
    const Walk *w;                   /* the block, its clauses, the room */
    Local *l;
    int n;
    int m[LIT_MAX_SET_SIZE];         /* cards in each class */
    unsigned cand[LIT_MAX_SET_SIZE]; /* their candidate fields */
    uint8_t pos[LIT_MAX_SET_SIZE];   /* their positions in the set */
    unsigned cards[LIT_MAX_SET_SIZE];/* the block's cards in each (bit = card) */
    int k[LIT_MAX_SET_SIZE][LIT_MAX_PLAYERS]; /* the deal so far */
} Classes;

static void classes_init(Classes *cl, const Walk *w, Local *l)
{
    const Block *b = w->b;
    memset(cl, 0, sizeof *cl);
    cl->w = w;
    cl->l = l;
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
}

/* A whole deal: the clauses, then the table. */
static int class_leaf(Classes *cl, uint64_t v, uint64_t ways)
{
    const Walk *w = cl->w;
    for (int i = 0; i < w->nc; i++) {
        int got = 0;
        for (int j = 0; j < cl->n; j++)
            if ((cl->pos[j] & w->cmask[i]) == cl->pos[j])
                got += cl->k[j][w->cseat[i]];
        if (w->cneed[i] ? got == 0 : got == lit_popcount(w->cmask[i]))
            return 0;
    }
    Local *l = cl->l;
    uint32_t slot = entry(l->t, v);
    if (slot == UINT32_MAX)
        return -1;
    l->t->val[slot].w[0] += ways;
    for (int j = 0; j < cl->n; j++)
        for (unsigned m = cl->cand[j]; m; m &= m - 1) {
            int u = lit_lsb(m);
            if (!cl->k[j][u])
                continue;
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
        if (++j == cl->n)
            return class_leaf(cl, v, ways);
        return class_deal(cl, j, cl->cand[j], cl->m[j], v, ways);
    }
    const Walk *w = cl->w;
    int u = lit_lsb(rest);
    unsigned others = rest & (rest - 1);
    uint64_t one = unit_one(w->lay, u), choose = 1;
    for (int t = others ? 0 : left; t <= left; t++) {
        uint64_t to = v + one * (uint64_t)t;
        if (!fits(w->lay->guard, to, w->slots))
            break; /* more cards in u fit no better */
        cl->k[j][u] = t;
        int stop = class_deal(cl, j, others, left - t, to, ways * choose);
        cl->k[j][u] = 0;
        if (stop)
            return stop;
        choose = choose * (uint64_t)(left - t) / (uint64_t)(t + 1); /* C(left, t + 1) */
    }
    return 0;
}

/* Horner steps (docs/DEDUCTION.md "Horner steps"): m cards alike (the same
 * fields A, named by the same clauses) whose clauses ("inner") name no
 * other card of the block. Whether a placement meets those clauses then
 * depends only on how many of the m cards each of their seats gets, a_s,
 * so the m cards' polynomial is the sum over the a that meet them of
 * m! / (prod a_s! r!) y^a rest^r, with rest the fields of A but the
 * clauses' seats and r = m - |a| the cards there. As Horner's rule in
 * rest: acc = Q_top, then acc = rest acc + Q_r for each r below, Q_r the
 * shifts of the a with r cards in rest: top steps in rest and one shift
 * per a, instead of a step per card and term. */
typedef struct Shift {
    uint64_t v;      /* the vector a */
    uint32_t stride; /* its dense index */
    uint32_t coef;   /* m! / (prod a_s! r!) */
} Shift;

typedef struct Horner {
    unsigned rest;
    int top;                              /* the largest r with a shift; -1: none */
    uint16_t level[LIT_MAX_SET_SIZE + 2]; /* Q_r: shift[level[r]] .. shift[level[r + 1] - 1] */
    Shift shift[HORNER_SHIFTS];
} Horner;

/* The card steps of a block (docs/DEDUCTION.md "Card steps"): its cards
 * that no clause names first; then per term of the inclusion-exclusion
 * over its clauses the others, each in the fields the term allows. With
 * inner clauses, the terms are over the other clauses only, and in each
 * the alike cards go first, by Horner steps in the fields the term leaves
 * them. */
typedef struct Steps {
    int n;                            /* the block's cards: */
    int card[LIT_MAX_SET_SIZE];       /* in the order they are stepped */
    int named;                        /* the first named one, in that order */
    int alike;                        /* the first of the alike cards (n: none) */
    int nc;                           /* clauses (at most STEP_CLAUSES) */
    unsigned inner;                   /* the clauses the Horner steps take */
    uint8_t cseat[STEP_CLAUSES];      /* each clause's seat */
    uint8_t cneed[STEP_CLAUSES];      /* and kind */
    unsigned drop[1 << STEP_CLAUSES][LIT_MAX_SET_SIZE]; /* fields a term takes away */
    unsigned keep[1 << STEP_CLAUSES][LIT_MAX_SET_SIZE]; /* fields it keeps to */
    uint32_t stride[LIT_MAX_PLAYERS]; /* each field's dense stride (0 for the sum's) */
} Steps;

/* What counting and sampling share: the blocks with their local tables and
 * the backward layers. */
typedef struct Plan {
    Ctx cx;
    Block blocks[LIT_MAX_SETS];
    int nb;
    unsigned free_sets;
    uint64_t unplaced;       /* live cards not placed */
    uint64_t free_cards;     /* the pool: the free sets' cards and the free cards of others */
    /* layer[j]: the ways for blocks j.. (and, when conv is 0, the free
     * cards) to give exactly each vector; layer[nb] is the free cards
     * alone, or {0: 1} when conv is not 0 */
    Table layer[LIT_MAX_SETS + 1];
    int conv;                /* free cards left to spread: 0 or cx.free */
    LitU192 total;           /* consistent deals of the fields */
    LitU192 deals;           /* consistent deals: total times splits(0) */
    uint32_t states;         /* the largest layer */
    uint32_t stepped;        /* layers made by card steps */
    uint32_t horner, mixed;  /* ... with Horner steps (LitOdds) */
    Steps steps[LIT_MAX_SETS]; /* each block's card steps, */
    uint8_t by_steps[LIT_MAX_SETS]; /* where it goes by them, */
    uint64_t step_work[LIT_MAX_SETS]; /* and their work a state (steps_work) */
    uint64_t deriv[LIT_MAX_SETS];     /* its derivatives' work a state (deriv_work), */
    uint32_t claims[LIT_MAX_SETS];    /* and the vectors whose G the claims need */
    /* For a block with pooled cards (claims only): the layer after it with
     * the pool less those cards, blocks j+1.. and free - pooled cards. */
    Table short_pool[LIT_MAX_SETS];
} Plan;

enum { PLAN_OK = 0, PLAN_NONE = 1, PLAN_OVER = -1 };

/* A bound on the work of the backward layers, in state transitions (the
 * states of the layer after a block times the block's vectors), from the
 * blocks' candidates alone: each layer holds at most the states of the one
 * after times the block's vectors, and at most every vector of its sum
 * within the slots. */
static uint64_t predicted_work(const Plan *pl)
{
    const Ctx *cx = &pl->cx;
    int cards = cx->free;
    uint64_t states = cx->free ? vectors(&cx->lay, cx->slots, cx->free) : 1, work = 0;
    for (int j = pl->nb - 1; j >= 0; j--) {
        uint64_t local = local_bound(&pl->blocks[j]);
        work += states * local;
        cards += pl->blocks[j].n;
        uint64_t cap = vectors(&cx->lay, cx->slots, cards);
        states = states > cap / local ? cap : states * local;
    }
    return work;
}

/* The cards among cards that no clause of their set names and that may be
 * at every seat with room. */
static uint64_t free_cards_of(const LitKnow *k, uint64_t cards)
{
    int deck = k->pub.rules.deck, players = k->pub.rules.players;
    uint64_t room = 0, out = 0;
    for (int s = 0; s < players; s++)
        if (k->slots[s])
            room |= UINT64_C(1) << s;
    for (uint64_t x = cards; x;) {
        int card = lit_pop_lsb(&x), set = lit_set_of(deck, card);
        uint8_t named = 0;
        uint64_t may = 0;
        for (int s = 0; s < players; s++) {
            for (int i = 0; i < k->n_need[s][set]; i++)
                named |= k->need[s][set][i];
            for (int i = 0; i < k->n_lack[s][set]; i++)
                named |= k->lack[s][set][i];
            if (k->may[s] & lit_bit(card))
                may |= UINT64_C(1) << s;
        }
        if (!(named >> lit_pos_of(deck, card) & 1) && (may & room) == room)
            out |= lit_bit(card);
    }
    return out;
}

/* The fields of k: seats that nothing tells apart share one field (with
 * merge): seats with room, named by no clause, such that each unplaced card
 * may be at all of them or at none. Every other seat is a field of its own.
 * The program then counts the deals of the fields, each of which stands for
 * splits(0) deals of the seats (docs/DEDUCTION.md "Merged seats"). */
static void make_fields(Ctx *cx, uint64_t unplaced, int merge)
{
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
        seats->unit_of[s] = (uint8_t)s;
        cx->seat_slots |= (uint64_t)k->slots[s] << (FIELD * s);
    }
}

/* out += the ways for block b and what next counts to give each vector:
 * one step of the backward layers through hash tables. 0, or -1 when out
 * is full. */
static int back_hashed(const Ctx *cx, const Block *b, const Table *next, Table *out)
{
    for (uint32_t i = 0; i < next->cap; i++) {
        if (!next->key[i])
            continue;
        uint64_t rest = next->key[i] - 1;
        for (uint32_t v = 0; v < b->n_vec; v++) {
            if (!fits(cx->lay.guard, b->vec[v].v, cx->slots - rest))
                continue;
            LitU192 x = times(&next->val[i], b->vec[v].n);
            if (add_to(out, rest + b->vec[v].v, &x))
                return -1;
        }
    }
    return 0;
}

/* a = -a mod 2^192 (an inclusion-exclusion term to subtract; the sum of
 * the terms is a count, so it comes out right whatever the partial sums
 * wrap to). */
static inline void neg_in(LitU192 *a)
{
    uint64_t c0 = a->w[0] == 0, c1 = c0 && a->w[1] == 0;
    a->w[0] = -a->w[0];
    a->w[1] = ~a->w[1] + c0;
    a->w[2] = ~a->w[2] + c1;
}

/* The fields term t allows card c (the i-th stepped). */
static unsigned term_fields(const Steps *st, const Block *b, unsigned t, int i)
{
    int c = st->card[i];
    return b->cand[c] & ~st->drop[t][c] & st->keep[t][c];
}

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
static void horner_of(const Steps *st, const Ctx *cx, unsigned fields, Horner *h)
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
static unsigned alike_fields(const Steps *st, const Block *b, unsigned t)
{
    return term_fields(st, b, t, st->alike);
}

/* The work of b's card steps a state (the fields a card may go to, per
 * step; a Horner step in rest, its fields; a shift, one), to weigh against
 * its vectors. */
static uint64_t steps_work(const Steps *st, const Ctx *cx, const Block *b)
{
    uint64_t work = 0;
    for (int i = 0; i < st->named; i++)
        work += (uint64_t)lit_popcount(b->cand[st->card[i]]);
    for (unsigned t = 0; t < 1u << st->nc; t++) {
        if (t & st->inner)
            continue;
        for (int i = st->named; i < st->alike; i++)
            work += (uint64_t)lit_popcount(term_fields(st, b, t, i));
        if (st->inner) {
            Horner h;
            horner_of(st, cx, alike_fields(st, b, t), &h);
            work += (uint64_t)(h.top > 0 ? h.top : 0) * (uint64_t)lit_popcount(h.rest) +
                    h.level[h.top + 1];
        } else {
            for (int i = st->alike; i < st->n; i++)
                work += (uint64_t)lit_popcount(term_fields(st, b, t, i));
        }
    }
    return work;
}

/* The card steps of b: 0, or -1 when it has more clauses than they take.
 * With INFER_HORNER, the inner clauses that cost the least: those of the
 * cards of one clause when they are alike, or none. */
static int steps_init(Steps *st, const Ctx *cx, const Block *b)
{
    const LitKnow *k = cx->k;
    Walk wk;
    walk_init(&wk, k, b, &cx->lay, b->cand, cx->slots, ~0u);
    if (wk.nc > STEP_CLAUSES)
        return -1;
    memset(st, 0, sizeof *st);
    st->nc = wk.nc;
    uint8_t named = 0;
    for (int i = 0; i < wk.nc; i++) {
        named |= wk.cmask[i];
        st->cseat[i] = wk.cseat[i];
        st->cneed[i] = wk.cneed[i];
    }
    for (int pass = 0; pass < 2; pass++)
        for (int c = 0; c < b->n; c++)
            if ((named >> b->pos[c] & 1) == pass)
                st->card[st->n++] = c;
    st->named = 0;
    while (st->named < st->n && !(named >> b->pos[st->card[st->named]] & 1))
        st->named++;
    st->alike = st->n;
    /* Term S: the deals that break every clause of S (with sign (-1)^|S|):
     * "seat holds one of C" broken, no card of C there; "seat lacks one of
     * L" broken, every card of L there. */
    for (unsigned t = 0; t < 1u << st->nc; t++)
        for (int c = 0; c < b->n; c++) {
            st->keep[t][c] = ~0u;
            for (int i = 0; i < st->nc; i++)
                if ((t >> i & 1) && (wk.cmask[i] >> b->pos[c] & 1)) {
                    if (wk.cneed[i])
                        st->drop[t][c] |= 1u << wk.cseat[i];
                    else
                        st->keep[t][c] &= 1u << wk.cseat[i];
                }
        }
    const Dense *d = &cx->dense;
    for (int f = 0; f < cx->lay.n; f++)
        for (int i = 0; i < d->n; i++)
            if (d->off[i] == cx->lay.off[f])
                st->stride[f] = d->stride[i];
    if (!(cx->how & INFER_HORNER))
        return 0;
    /* The cards of clause i, when alike, with every clause that names
     * exactly them as inner; the named cards stepped in an order with them
     * last. */
    Steps best = *st;
    uint64_t least = steps_work(st, cx, b);
    uint8_t blockpos = 0;
    for (int c = 0; c < b->n; c++)
        blockpos |= (uint8_t)(1u << b->pos[c]);
    for (int i = 0; i < wk.nc; i++) {
        int first = -1, ok = 1;
        uint8_t mine = 0; /* the block's cards of clause i, as positions */
        for (int c = 0; c < b->n && ok; c++) {
            if (!(wk.cmask[i] >> b->pos[c] & 1))
                continue;
            if (first < 0)
                first = c;
            mine |= (uint8_t)(1u << b->pos[c]);
            ok = b->cand[c] == b->cand[first];
            for (int j = 0; j < wk.nc && ok; j++)
                ok = (wk.cmask[j] >> b->pos[c] & 1) == (wk.cmask[j] >> b->pos[first] & 1);
        }
        if (!ok || first < 0)
            continue;
        Steps try = *st;
        try.inner = 0;
        for (int j = 0; j < wk.nc; j++)
            if ((wk.cmask[j] & blockpos) == mine)
                try.inner |= 1u << j;
        try.n = try.named;
        for (int pass = 0; pass < 2; pass++)
            for (int x = st->named; x < st->n; x++)
                if ((wk.cmask[i] >> b->pos[st->card[x]] & 1) == pass)
                    try.card[try.n++] = st->card[x];
        try.alike = try.n - lit_popcount(mine);
        uint64_t work = steps_work(&try, cx, b);
        if (work < least) {
            least = work;
            best = try;
        }
    }
    *st = best;
    return 0;
}

/* Whether block b goes by card steps (st, from steps_init): with dense
 * layers, clauses the steps take, and less work a state than its vectors
 * (or always, with INFER_STEPS_ALWAYS: the tests). */
static int stepping(const Ctx *cx, Steps *st, const Block *b)
{
    if (!cx->use_dense || !(cx->how & (INFER_STEPS | INFER_STEPS_ALWAYS)) ||
        steps_init(st, cx, b))
        return 0;
    return (cx->how & INFER_STEPS_ALWAYS) || steps_work(st, cx, b) < b->n_vec;
}

/* The one state of index i, vector x and count a into the fields of one:
 * inlined twice, narrow or not, so the inner loop has no test of it. */
static inline void step_state(uint64_t guard, uint64_t slots, const uint64_t *one,
                              const uint32_t *stride, int n, uint32_t i, uint64_t x,
                              const LitU192 *a, Table *out, int narrow)
{
    for (int f = 0; f < n; f++) {
        uint64_t y = x + one[f];
        if (!fits(guard, y, slots))
            continue;
        uint32_t at = i + stride[f];
        if (!out->key[at]) {
            out->key[at] = y + 1;
            out->val[at] = lit_u192(0);
            out->count++;
        }
        if (narrow)
            add_in2(&out->val[at], a);
        else
            add_in(&out->val[at], a);
    }
}

/* One card step: out (+= or -=, by sign) the ways in gives each vector with
 * one more card, in one of the fields of allow. Dense tables. consume is
 * in or NULL: in is then left empty (a buffer of the steps, cleared as it
 * is read rather than by a pass of its own). A term to subtract is added
 * negated (mod 2^192, or mod 2^128 when narrow: the word above is then
 * zero throughout, see plan_build). */
static void step_card(const Ctx *cx, const Steps *st, const Table *in, Table *consume,
                      unsigned allow, Table *out, int sign)
{
    uint64_t guard = cx->lay.guard, slots = cx->slots;
    uint64_t one[LIT_MAX_PLAYERS];
    uint32_t stride[LIT_MAX_PLAYERS];
    int n = 0, narrow = cx->narrow;
    for (unsigned m = allow; m; m &= m - 1) {
        one[n] = unit_one(&cx->lay, lit_lsb(m));
        stride[n++] = st->stride[lit_lsb(m)];
    }
    uint32_t left = in->count;
    for (uint32_t i = 0; left > 0; i++) {
        if (!in->key[i])
            continue;
        left--;
        uint64_t x = in->key[i] - 1;
        if (consume)
            consume->key[i] = 0;
        LitU192 a = in->val[i];
        if (sign < 0)
            neg_in(&a);
        if (narrow)
            step_state(guard, slots, one, stride, n, i, x, &a, out, 1);
        else
            step_state(guard, slots, one, stride, n, i, x, &a, out, 0);
    }
    if (consume)
        consume->count = 0;
}

/* Counts a layer made by st's steps in LitOdds's horner and mixed. */
static void count_horner(const Steps *st, uint32_t *horner, uint32_t *mixed)
{
    *horner += st->inner != 0;
    *mixed += st->inner != 0 && st->inner != (1u << st->nc) - 1;
}

/* A pass of Horner steps: out += Q_r in (or -=, by sign), each shift its
 * coefficient times in, moved by its vector. */
static void shift_in(const Ctx *cx, const Horner *h, const Table *in, int r, Table *out, int sign)
{
    uint64_t guard = cx->lay.guard, slots = cx->slots;
    const Shift *q = &h->shift[h->level[r]];
    int n = h->level[r + 1] - h->level[r];
    uint32_t left = n ? in->count : 0;
    for (uint32_t i = 0; left > 0; i++) {
        if (!in->key[i])
            continue;
        left--;
        uint64_t x = in->key[i] - 1;
        for (int k = 0; k < n; k++) {
            if (!fits(guard, x + q[k].v, slots))
                continue;
            LitU192 a = q[k].coef == 1 ? in->val[i] : times(&in->val[i], q[k].coef);
            if (sign < 0)
                neg_in(&a);
            if (cx->narrow)
                step_state(guard, slots, &q[k].v, &q[k].stride, 1, i, x, &a, out, 1);
            else
                step_state(guard, slots, &q[k].v, &q[k].stride, 1, i, x, &a, out, 0);
        }
    }
}

/* out = the ways block b and what next counts give each vector, by card
 * steps: dense tables, three of them in w for the steps. 0, or -1 when w
 * cannot hold them. */
static int back_steps(const Ctx *cx, const Steps *st, const Block *b, const Table *next,
                      Table *out, Work w)
{
    /* The buffers start empty and each is left empty as it is read. */
    Table buf[3];
    for (int i = 0; i < 3; i++)
        if (layer_new(&buf[i], &w, 1, cx))
            return -1;
    /* the cards no clause names, once */
    const Table *from = next;
    Table *mine = NULL; /* from, when it is a buffer */
    int use = 0;
    for (int i = 0; i < st->named; i++) {
        Table *to = st->named == st->n && i == st->n - 1 ? out : &buf[use];
        step_card(cx, st, from, mine, b->cand[st->card[i]], to, 1);
        from = mine = to;
        use = 1 - use;
    }
    if (st->named == st->n)
        return 0;
    /* the terms step from there through the two other buffers */
    const Table *common = from;
    int spare[2] = {0, 1};
    if (common == &buf[0])
        spare[0] = 2;
    else if (common == &buf[1])
        spare[1] = 2;
    Horner h;
    for (unsigned t = 0; t < 1u << st->nc; t++) {
        if (t & st->inner)
            continue;
        int sign = lit_popcount(t) & 1 ? -1 : 1, empty = 0, u = 0;
        for (int i = st->named; i < st->n; i++)
            empty |= term_fields(st, b, t, i) == 0;
        if (st->inner) {
            horner_of(st, cx, alike_fields(st, b, t), &h);
            empty |= h.top < 0;
        }
        if (empty)
            continue;
        from = common;
        mine = NULL;
        if (st->inner) {
            /* the alike cards first: acc = Q_top common, then acc = rest
             * acc + Q_r common for each r below */
            for (int r = h.top; r >= 0; r--, u = 1 - u) {
                int last = r == 0 && st->alike == st->named;
                Table *to = last ? out : &buf[spare[u]];
                if (mine)
                    step_card(cx, st, mine, mine, h.rest, to, last ? sign : 1);
                shift_in(cx, &h, common, r, to, last ? sign : 1);
                from = mine = to;
            }
        }
        for (int i = st->named; i < st->alike; i++, u = 1 - u) {
            int last = i == st->alike - 1;
            Table *to = last ? out : &buf[spare[u]];
            step_card(cx, st, from, mine, term_fields(st, b, t, i), to, last ? sign : 1);
            from = mine = to;
        }
    }
    /* the terms' vectors whose sum is no deal */
    for (uint32_t i = 0; i < out->cap; i++)
        if (out->key[i] && lit_u192_is_zero(&out->val[i])) {
            out->key[i] = 0;
            out->count--;
        }
    return 0;
}

/* Swaps n bytes at x and y. */
static void swap_bytes(void *x, void *y, size_t n)
{
    unsigned char *p = x, *q = y;
    for (size_t i = 0; i < n; i++) {
        unsigned char t = p[i];
        p[i] = q[i];
        q[i] = t;
    }
}

/* Swaps blocks a and b of the plan, with what goes with each (their steps
 * and key in the sort). */
static void swap_blocks(Plan *pl, uint64_t *key, int a, int b)
{
    swap_bytes(&pl->blocks[a], &pl->blocks[b], sizeof pl->blocks[a]);
    swap_bytes(&pl->steps[a], &pl->steps[b], sizeof pl->steps[a]);
    swap_bytes(&pl->by_steps[a], &pl->by_steps[b], sizeof pl->by_steps[a]);
    swap_bytes(&pl->step_work[a], &pl->step_work[b], sizeof pl->step_work[a]);
    swap_bytes(&key[a], &key[b], sizeof key[a]);
}

/* Builds the plan of k in w: PLAN_OK, PLAN_NONE when no deal fits (the
 * plan is then incomplete) or PLAN_OVER when w is too small. With lists,
 * every block also keeps its placements grouped by vector (for sampling);
 * how says whether seats nothing tells apart share a field and whether the
 * layers may be dense (infer_odds). */
static uint64_t deriv_work(const Plan *pl, int j, uint32_t *claims);

static int plan_build(Plan *pl, const LitKnow *k, Work *w, int lists, unsigned how)
{
    const LitRules *r = &k->pub.rules;
    int deck = r->deck, players = r->players;
    memset(pl, 0, sizeof *pl);
    Ctx *cx = &pl->cx;
    cx->k = k;
    cx->players = players;
    cx->how = how;
    for (int n = 0; n <= LIT_MAX_CARDS; n++) {
        cx->choose[n][0] = 1;
        for (int j = 1; j <= n; j++)
            cx->choose[n][j] = cx->choose[n][j - 1] * (uint64_t)(n - j + 1) / (uint64_t)j;
    }
    uint64_t unplaced = infer_unplaced(k);
    pl->unplaced = unplaced;
    make_fields(cx, unplaced, how & INFER_MERGE);
    uint64_t slots = cx->slots, guard = cx->lay.guard;
    /* Every count the program forms (a table entry, a term of the card
     * steps, a product of F and a layer, a sum of them) counts placements
     * of some of the unplaced cards on the fields within their slots, so it
     * is at most the ways to spread all of them, cards! / prod slots!. When
     * that is below 2^128, the hot loops keep the top word zero and work in
     * two (mod 2^128, exact since the true values are below it): at 8
     * players from a seat it is at most 42! / 6!^7, about 2^104. */
    LitU192 every = spread(cx, slots, lit_popcount(unplaced));
    cx->narrow = (how & INFER_NARROW) && every.w[2] == 0;
    cx->roomy = cx->narrow ? every.w[1] >> 61 == 0 : every.w[2] >> 61 == 0;

    /* 1. Free sets (no clause, every unplaced card possible at every seat
     * with room): their cards are exchangeable, counted by spread(). The
     * other sets are blocks of the program, with their local tables. */
    pl->free_sets = infer_free_sets(k);
    for (int set = 0; set < lit_deck_sets(deck); set++)
        if (pl->free_sets >> set & 1)
            pl->free_cards |= lit_set_mask(deck, set) & unplaced;
    if (how & INFER_POOL) {
        /* A card of another set that no clause names and that may be at
         * every seat with room is as free as those: it joins the pool, and
         * a set all of whose cards do is a free set. Only while the pool's
         * spreads stay few enough to be the last layer. */
        uint64_t more = free_cards_of(k, unplaced & ~pl->free_cards);
        int m = lit_popcount(pl->free_cards | more);
        if (more && vectors(&cx->lay, cx->slots, m) <= FOLD_MAX) {
            pl->free_cards |= more;
            for (int set = 0; set < lit_deck_sets(deck); set++) {
                uint64_t cards = lit_set_mask(deck, set) & unplaced;
                if (cards && (cards & ~pl->free_cards) == 0)
                    pl->free_sets |= 1u << set;
            }
        }
    }
    cx->free = lit_popcount(pl->free_cards);
    for (int set = 0; set < lit_deck_sets(deck); set++) {
        uint64_t all = lit_set_mask(deck, set) & unplaced, m = all & ~pl->free_cards;
        if (!m || (pl->free_sets >> set & 1))
            continue;
        Block *b = &pl->blocks[pl->nb++];
        memset(b, 0, sizeof *b);
        b->set = set;
        b->pooled = lit_popcount(all & pl->free_cards);
        for (uint64_t x = m; x;) {
            int card = lit_pop_lsb(&x);
            b->pos[b->n] = (uint8_t)lit_pos_of(deck, card);
            for (int s = 0; s < players; s++)
                if (k->may[s] & lit_bit(card)) {
                    b->cand[b->n] |= 1u << cx->lay.unit_of[s];
                    b->seat_cand[b->n] |= 1u << s;
                }
            b->n++;
        }
    }
    if (players > 8 && predicted_work(pl) > LIT_ODDS_BUDGET)
        return PLAN_OVER; /* beyond the budget: decided before any table */
    for (int j = 0; j < pl->nb; j++) {
        Block *b = &pl->blocks[j];
        /* The local table: every placement's vector, counted, and which
         * card each puts where (by vector); for sampling, the placements.
         * The vectors and their counts take at most local_bound; the counts
         * by slot come after them, for the walk only, and so does the
         * table, unless the second pass (lists) needs it after. */
        uint32_t bound = local_bound(b);
        b->vec = take(w, sizeof(Vec) * bound);
        b->at = take(w, sizeof *b->at * bound);
        Table t;
        if (!b->vec || !b->at || (lists && table_new(&t, w, bound)))
            return PLAN_OVER;
        Work tmp = *w;
        if (!lists && table_new(&t, &tmp, bound))
            return PLAN_OVER;
        Local loc = {&t, b, take(&tmp, sizeof *b->at * t.cap), 0, 0};
        if (!loc.at)
            return PLAN_OVER;
        memset(loc.at, 0, sizeof *b->at * t.cap);
        Walk wk;
        walk_init(&wk, k, b, &cx->lay, b->cand, slots, ~0u);
        wk.visit = count_placement;
        wk.ctx = &loc;
        if (lists) {
            if (walk(&wk, 0, 0, 0))
                return PLAN_OVER;
        } else {
            /* counting alone: the walk by classes */
            Classes cl;
            classes_init(&cl, &wk, &loc);
            if (class_deal(&cl, 0, cl.cand[0], cl.m[0], 0, 1))
                return PLAN_OVER;
        }
        if (t.count == 0)
            return PLAN_NONE; /* no placement meets the clauses */
        for (uint32_t i = 0; i < t.cap; i++)
            if (t.key[i]) {
                /* the table's value becomes the vector's index */
                b->vec[b->n_vec] = (Vec){t.key[i] - 1, t.val[i].w[0]};
                memcpy(b->at[b->n_vec], loc.at[i], sizeof *b->at);
                t.val[i] = lit_u192(b->n_vec++);
            }
        if (lists) {
            /* The placements of each vector, together: vector v's are
             * list[start[v]] .. list[start[v + 1] - 1]. */
            b->start = take(w, sizeof(uint32_t) * (b->n_vec + 1));
            b->list = take(w, sizeof(uint32_t) * loc.valid);
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
            walk(&wk, 0, 0, 0);
            for (uint32_t v = b->n_vec; v > 0; v--)
                b->start[v] = b->start[v - 1];
            b->start[0] = 0;
        }
    }

    /* 2. Backward layers over the blocks: D_j(x), the ways blocks j.. give
     * exactly x. With the free cards, the ways to complete a deal in which
     * the earlier blocks gave u are sum_x D_j(x) spread(slots - u - x). */
    /* When the free cards can be spread few ways, they become the last
     * layer and every completion is a lookup; else completions sum over
     * the layer (conv free cards left to spread). */
    int nb = pl->nb;
    Table *layer = pl->layer;
    LitU192 one = lit_u192(1);
    uint64_t free_vectors = cx->free ? vectors(&cx->lay, slots, cx->free) : 1;
    int conv = free_vectors <= FOLD_MAX ? 0 : cx->free, cards_after = 0;
    pl->conv = conv;
    if (conv == 0 && (how & INFER_DENSE))
        make_dense(cx, nb + 5, w->left); /* the layers, and F, the next F and
                                          * the projections in two halves */
    /* The blocks with the most work a state first: a sweep's first blocks
     * meet its smallest layers (the backward sweep's first block is one
     * lookup a vector, the forward's starts from one state), so the
     * costliest blocks go there. The work: the block's vectors, or its
     * steps; and G's pass, a product per vector, weighed as a sixteenth of
     * a step's field (measured at 8 players: the slowest positions 10 to
     * 20% faster than with the most vectors first, and G's weight another
     * 3 to 5%, where a quarter was slower). In sixteenths. */
    uint64_t work[LIT_MAX_SETS];
    for (int j = 0; j < nb; j++) {
        const Block *b = &pl->blocks[j];
        pl->by_steps[j] = (uint8_t)stepping(cx, &pl->steps[j], b);
        pl->step_work[j] = pl->by_steps[j] ? steps_work(&pl->steps[j], cx, b) : 0;
        work[j] = 16 * (pl->by_steps[j] ? pl->step_work[j] : b->n_vec) + b->n_vec;
    }
    for (int a = 1; a < nb; a++)
        for (int b = a; b > 0 && work[b] > work[b - 1]; b--)
            swap_blocks(pl, work, b - 1, b);
    for (int j = 0; j < nb; j++)
        pl->deriv[j] = deriv_work(pl, j, &pl->claims[j]);
    if (conv == 0 && cx->free) {
        if (layer_new(&layer[nb], w, free_vectors, cx) ||
            fill_free(&layer[nb], cx, 0, 0, cx->free, lit_u192(1)))
            return PLAN_OVER;
        cards_after = cx->free;
    } else {
        if (layer_new(&layer[nb], w, 1, cx))
            return PLAN_OVER;
        add_to(&layer[nb], 0, &one);
    }
    for (int j = nb - 1; j >= 0; j--) {
        const Table *next = &layer[j + 1];
        const Block *b = &pl->blocks[j];
        cards_after += b->n;
        uint64_t bound = (uint64_t)next->count * b->n_vec;
        uint64_t most = vectors(&cx->lay, slots, cards_after);
        if (bound > most)
            bound = most;
        if (!cx->use_dense && bound > (w->left / (sizeof(uint64_t) + sizeof(LitU192))) / 4)
            return PLAN_OVER;
        if (layer_new(&layer[j], w, bound, cx))
            return PLAN_OVER;
        if (j == 0 && conv == 0) {
            /* The first layer, with every card: only the slots themselves,
             * one lookup a vector. */
            LitU192 sum = lit_u192(0);
            for (uint32_t v = 0; v < b->n_vec; v++) {
                if (!fits(guard, b->vec[v].v, slots))
                    continue;
                const LitU192 *rest = lookup(next, slots - b->vec[v].v);
                if (rest) {
                    LitU192 x = times(rest, b->vec[v].n);
                    add_in(&sum, &x);
                }
            }
            if (!lit_u192_is_zero(&sum))
                add_to(&layer[0], slots, &sum);
        } else if (pl->by_steps[j] &&
                   back_steps(cx, &pl->steps[j], b, next, &layer[j], *w) == 0) {
            pl->stepped++; /* card by card (docs/DEDUCTION.md "Card steps") */
            count_horner(&pl->steps[j], &pl->horner, &pl->mixed);
        } else if (cx->use_dense) {
            /* Vector by vector, the layer after in index order: its reads
             * and the writes at index + the vector's go in order. */
            Work tmp = *w;
            const uint32_t *at = entries_of(next, &tmp);
            uint32_t *iv, *order;
            if (!at || dense_order(&cx->dense, &b->vec[0].v, sizeof(Vec) / sizeof(uint64_t),
                                   b->n_vec, &tmp, &iv, &order))
                return PLAN_OVER;
            /* in chunks of the layer after, with the vectors by index, so
             * what one chunk reads and writes stays in the cache */
            for (uint32_t e0 = 0; e0 < next->count; e0 += CHUNK) {
                uint32_t e1 = next->count - e0 < CHUNK ? next->count : e0 + CHUNK;
                for (uint32_t o = 0; o < b->n_vec; o++) {
                    uint32_t v = order[o];
                    uint64_t vec = b->vec[v].v;
                    for (uint32_t e = e0; e < e1; e++) {
                        uint32_t i = at[e];
                        uint64_t rest = next->key[i] - 1;
                        if (!fits(guard, vec, slots - rest))
                            continue;
                        LitU192 x = times(&next->val[i], b->vec[v].n);
                        add_dense(&layer[j], i + iv[v], rest + vec, &x, 0);
                    }
                }
            }
        } else if (back_hashed(cx, b, next, &layer[j])) {
            return PLAN_OVER;
        }
        if (layer[j].count > pl->states)
            pl->states = layer[j].count;
    }
    LitU192 total = lit_u192(0);
    for (uint32_t i = 0; i < layer[0].cap; i++) {
        if (!layer[0].key[i] || !fits(guard, layer[0].key[i] - 1, slots))
            continue;
        LitU192 ways = spread(cx, slots - (layer[0].key[i] - 1), conv), x;
        lit_u192_mul(&x, &layer[0].val[i], &ways);
        lit_u192_add(&total, &total, &x);
    }
    pl->total = total;
    LitU192 every_split = splits(cx, 0);
    lit_u192_mul(&pl->deals, &total, &every_split);
    return lit_u192_is_zero(&total) ? PLAN_NONE : PLAN_OK;
}

/* The walk over one team's placements of a block: the deals in which the
 * team holds all of the set, and the likeliest placement (the first of
 * the most deals). */
typedef struct Claim {
    const Ctx *cx;
    const Table *gv; /* deals of the fields per vector */
    LitU192 all, best;
    int seat[LIT_MAX_SET_SIZE];
} Claim;

/* Counts a placement by seat y (seat: where each card is) that has fields
 * deals of the fields: its deals are those times the splits of the merged
 * fields' other cards; the first with the most is the likeliest. */
static void claim_count(Claim *cl, const LitU192 *fields, uint64_t y, const int *seat)
{
    LitU192 split = splits(cl->cx, y), deals;
    lit_u192_mul(&deals, fields, &split);
    lit_u192_add(&cl->all, &cl->all, &deals);
    if (lit_u192_cmp(&deals, &cl->best) > 0) {
        cl->best = deals;
        memcpy(cl->seat, seat, sizeof cl->seat);
    }
}

/* A placement by seat (the walk is over seats): the deals of the fields in
 * which the block gives its vector by field. */
static int claim_placement(Walk *w, uint64_t v, uint32_t index)
{
    Claim *cl = w->ctx;
    const LitU192 *d = lookup(cl->gv, to_fields(cl->cx, v));
    (void)index;
    if (d)
        claim_count(cl, d, v, w->seat);
    return 0;
}

/* The layer of block b before next, into the hashed table out (made with
 * step_back): 0, or -1 when w is full. */
static int step_back(const Ctx *cx, const Block *b, const Table *next, int cards, Table *out,
                     Work *w)
{
    uint64_t bound = (uint64_t)next->count * b->n_vec, most = vectors(&cx->lay, cx->slots, cards);
    if (table_new(out, w, bound < most ? bound : most))
        return -1;
    return back_hashed(cx, b, next, out);
}

/* For the claims of the sets with pooled cards: for each such block j,
 * the layer after it counted with the pool less the set's pooled cards
 * (pl->short_pool[j]), down a chain from the end per number pooled. The
 * blocks with few vectors, which these mostly are, come last, so the
 * chains are short. 0, or -1 when w is full. */
static int short_pools(Plan *pl, Work *w)
{
    const Ctx *cx = &pl->cx;
    for (int q = 1; q <= LIT_MAX_SET_SIZE; q++) {
        int first = -1;
        for (int j = 0; j < pl->nb && first < 0; j++)
            if (pl->blocks[j].pooled == q)
                first = j;
        if (first < 0)
            continue;
        Table t;
        int cards = cx->free - q;
        if (table_new(&t, w, vectors(&cx->lay, cx->slots, cards)) ||
            fill_free(&t, cx, 0, 0, cards, lit_u192(1)))
            return -1;
        for (int j = pl->nb - 1; j >= first; j--) {
            if (pl->blocks[j].pooled == q)
                pl->short_pool[j] = t;
            if (j == first)
                break;
            Table next = t;
            cards += pl->blocks[j].n;
            if (step_back(cx, &pl->blocks[j], &next, cards, &t, w))
                return -1;
        }
    }
    return 0;
}

/* The claims of a set with pooled cards, for one team: every placement of
 * all its unplaced cards on the team's seats (the block's cards where they
 * may be, the pooled ones at any seat with room) that meets the clauses has
 * h(z) = sum_u F(u) D(slots - u - z) deals of the fields, z its vector by
 * field and D the layer after the block with the pool less the set's cards;
 * times the splits. h is kept per z in memo. */
typedef struct Mixed {
    Claim cl;
    const Table *f, *d;
    Table *memo;
    int full;                        /* the memo overflowed */
} Mixed;

static int mixed_placement(Walk *w, uint64_t y, uint32_t index)
{
    Mixed *mx = w->ctx;
    const Ctx *cx = mx->cl.cx;
    (void)index;
    uint64_t z = to_fields(cx, y);
    const LitU192 *known = lookup(mx->memo, z);
    LitU192 h = lit_u192(0);
    if (known) {
        h = *known;
    } else {
        /* over the smaller of F and D, looking the other up */
        const Table *a = mx->f, *c = mx->d;
        if (c->count < a->count) {
            a = mx->d;
            c = mx->f;
        }
        for (uint32_t i = 0; i < a->cap; i++) {
            if (!a->key[i])
                continue;
            uint64_t left = cx->slots - (a->key[i] - 1);
            if (!fits(cx->lay.guard, z, left))
                continue;
            const LitU192 *other = lookup(c, left - z);
            if (other) {
                LitU192 x = mul_low(&a->val[i], other);
                add_in(&h, &x);
            }
        }
        if (add_to(mx->memo, z, &h)) {
            mx->full = 1;
            return 1;
        }
    }
    if (!lit_u192_is_zero(&h))
        claim_count(&mx->cl, &h, y, w->seat);
    return 0;
}

/* sum over the entries at[e0..e1) of F of F(u) B(slots - u - v), with
 * is_v the dense index of slots - v and after the layer B: the part of G(v)
 * that one chunk of F gives. Inlined twice, narrow or not (Ctx.narrow). */
static inline LitU192 g_chunk(const LitU192 *fv, const uint64_t *left, const Table *after,
                              const uint32_t *at, uint32_t e0, uint32_t e1, uint64_t guard,
                              uint64_t vec, uint32_t is_v, int narrow)
{
    LitU192 sum = lit_u192(0);
    for (uint32_t e = e0; e < e1; e++) {
        if (!fits(guard, vec, left[e]))
            continue;
        uint32_t ib = is_v - at[e];
        if (!after->key[ib])
            continue;
        if (narrow) {
            LitU192 y = mul_low2(&fv[e], &after->val[ib]);
            add_in2(&sum, &y);
        } else {
            LitU192 y = mul_low(&fv[e], &after->val[ib]);
            add_in(&sum, &y);
        }
    }
    return sum;
}

/* For one chunk at[e0..e1) of F and one vector: the next F, nf(u + v) +=
 * F(u) n_v where the layer after can complete it, and the part of G(v)
 * the chunk gives (g_chunk), in one pass; iv the dense index of v, is_v
 * that of slots - v. Inlined twice, narrow or not (Ctx.narrow). */
static inline LitU192 vec_chunk(const Table *f, const Table *after, Table *nf, const uint32_t *at,
                                uint32_t e0, uint32_t e1, const Ctx *cx, const Vec *vec,
                                uint32_t iv, uint32_t is_v, int narrow)
{
    uint64_t guard = cx->lay.guard, slots = cx->slots, v = vec->v;
    LitU192 sum = lit_u192(0);
    for (uint32_t e = e0; e < e1; e++) {
        uint32_t i = at[e];
        uint64_t given = f->key[i] - 1;
        if (!fits(guard, v, slots - given))
            continue;
        uint32_t ib = is_v - i;
        if (!after->key[ib])
            continue;
        LitU192 x = times(&f->val[i], vec->n);
        add_dense(nf, i + iv, given + v, &x, narrow);
        if (narrow) {
            LitU192 y = mul_low2(&f->val[i], &after->val[ib]);
            add_in2(&sum, &y);
        } else {
            LitU192 y = mul_low(&f->val[i], &after->val[ib]);
            add_in(&sum, &y);
        }
    }
    return sum;
}

/* g_chunk for two vectors at once in two words: each state of the chunk
 * read once for both. */
static inline void g_chunk_pair(const LitU192 *fv, const uint64_t *left, const Table *after,
                                const uint32_t *at, uint32_t e0, uint32_t e1, uint64_t guard,
                                const uint64_t vec[2], const uint32_t is_v[2], LitU192 sum[2])
{
    LitU192 s0 = lit_u192(0), s1 = lit_u192(0);
    for (uint32_t e = e0; e < e1; e++) {
        uint64_t l = left[e];
        uint32_t i = at[e];
        if (fits(guard, vec[0], l)) {
            uint32_t ib = is_v[0] - i;
            if (after->key[ib]) {
                LitU192 y = mul_low2(&fv[e], &after->val[ib]);
                add_in2(&s0, &y);
            }
        }
        if (fits(guard, vec[1], l)) {
            uint32_t ib = is_v[1] - i;
            if (after->key[ib]) {
                LitU192 y = mul_low2(&fv[e], &after->val[ib]);
                add_in2(&s1, &y);
            }
        }
    }
    sum[0] = s0;
    sum[1] = s1;
}

/* g[v] = G(v) = sum over u of F(u) B(slots - u - v) for every vector v of
 * b, with after the layer B: F's entries packed in index order (their
 * counts and what is left of the slots beside them), then a pass over
 * them in chunks, vector by vector (two at a time in two words). 0, or
 * -1 when w cannot hold the packed entries. */
static int g_pass(const Ctx *cx, const Table *f, const Block *b, const Table *after, LitU192 *g,
                  Work w)
{
    uint64_t guard = cx->lay.guard, slots = cx->slots;
    const uint32_t *at = entries_of(f, &w);
    uint32_t *iv, *order;
    LitU192 *fv = take(&w, sizeof(LitU192) * (f->count + 1u));
    uint64_t *left = take(&w, sizeof(uint64_t) * (f->count + 1u));
    if (!at || !fv || !left ||
        dense_order(&cx->dense, &b->vec[0].v, sizeof(Vec) / sizeof(uint64_t), b->n_vec, &w, &iv,
                    &order))
        return -1;
    for (uint32_t e = 0; e < f->count; e++) {
        fv[e] = f->val[at[e]];
        left[e] = slots - (f->key[at[e]] - 1);
    }
    uint32_t is = dense_index(&cx->dense, slots);
    memset(g, 0, sizeof(LitU192) * b->n_vec);
    for (uint32_t e0 = 0; e0 < f->count; e0 += CHUNK) {
        uint32_t e1 = f->count - e0 < CHUNK ? f->count : e0 + CHUNK;
        uint32_t o = 0;
        for (; cx->narrow && o + 1 < b->n_vec; o += 2) {
            uint32_t v[2] = {order[o], order[o + 1]};
            uint64_t vec[2] = {b->vec[v[0]].v, b->vec[v[1]].v};
            uint32_t is_v[2] = {is - iv[v[0]], is - iv[v[1]]};
            LitU192 sum[2];
            g_chunk_pair(fv, left, after, at, e0, e1, guard, vec, is_v, sum);
            add_in(&g[v[0]], &sum[0]);
            add_in(&g[v[1]], &sum[1]);
        }
        for (; o < b->n_vec; o++) {
            uint32_t v = order[o];
            uint64_t vec = b->vec[v].v;
            LitU192 sum;
            if (cx->narrow)
                sum = g_chunk(fv, left, after, at, e0, e1, guard, vec, is - iv[v], 1);
            else
                sum = g_chunk(fv, left, after, at, e0, e1, guard, vec, is - iv[v], 0);
            add_in(&g[v], &sum);
        }
    }
    return 0;
}

/* g_pass over the smaller of F and the layer after, looking the other up
 * (counted in LitOdds.turned when it is the layer after). */
static int g_direct(const Ctx *cx, const Table *f, const Block *b, const Table *after,
                    LitU192 *g, Work w, LitOdds *odds)
{
    if (after->count < f->count) {
        odds->turned++;
        return g_pass(cx, after, b, f, g, w);
    }
    return g_pass(cx, f, b, after, g, w);
}

/* The ways to form G of block j (docs/DEDUCTION.md "Which side G goes
 * over"): G(v) = sum_u A(u) C(slots - u - v) for any two layers A and C
 * that count, between them, every block but j. The pass goes over A's
 * entries and looks C up, so its pairs are A's states times j's vectors:
 * A is F_j or the layer after j, whichever is smaller (G_DIRECT), or the
 * layer after j + 1, with C = F_j and block j + 1's cards by card steps
 * (G_BEHIND), or (decided a block earlier) F_{j-1}, with C = the layer
 * after j and block j - 1's cards by card steps (ahead_pays). */
enum { G_DIRECT, G_BEHIND };

/* A pass's pairs and a step's fields, in a common unit: a card step's
 * field costs about one and a half of G's pairs (perf at bench/corpus/8). */
static uint64_t g_work(uint64_t pairs, uint64_t fields)
{
    return 2 * pairs + 3 * fields;
}

/* The cheaper of G_DIRECT and G_BEHIND for block j, with f states in F_j;
 * its work in *work. Under INFER_STEPS_ALWAYS (the tests) G_BEHIND
 * wherever it can go. */
static int g_way(const Plan *pl, int j, uint32_t f, uint64_t *work)
{
    const Ctx *cx = &pl->cx;
    uint64_t n_vec = pl->blocks[j].n_vec, after = pl->layer[j + 1].count;
    *work = g_work((f < after ? f : after) * n_vec, 0);
    if (j + 1 >= pl->nb || !pl->by_steps[j + 1] || !(cx->how & INFER_AHEAD))
        return G_DIRECT;
    uint64_t behind =
        g_work(pl->layer[j + 2].count * n_vec,
               pl->step_work[j + 1] * (uint64_t)f);
    if (behind >= *work && !(cx->how & INFER_STEPS_ALWAYS))
        return G_DIRECT;
    *work = behind;
    return G_BEHIND;
}

/* ---- G where the claims need it; the marginals by derivatives ---- */

/* docs/DEDUCTION.md "Marginals by derivatives". A block whose steps are
 * at most one card no clause names (c0, in the fields C) and then one
 * class of m alike cards by Horner steps, every clause inner, counts
 * U H F: U = sum_{u in C} y_u, H = sum_r R^r Q_r (R the class's fields
 * but the clauses' seats, Q_r the shifts that leave r cards to R). The
 * deals with c0 at u are <y_u H F, B>, B the layer after read at slots
 * less each vector; the class's cards at u, counted once per card there,
 * are <y_u dH/dy_u U F, B>: for u in R, y_u sum_r r R^(r-1) Q_r; for a
 * clause's seat s, sum_r R^r (a_s Q_r). Each is Horner steps again. By
 * symmetry every card of the class has a m-th of them. The claims need G
 * only at the vectors of one team's fields, which a pass gives. */

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
 * through the two empty buffers buf, the last into out (a buffer when
 * out is NULL): where the result is. */
static Table *horner_run(const Ctx *cx, const Steps *st, const Horner *h, const Table *in,
                         Table buf[2], Table *out)
{
    Table *mine = NULL;
    for (int r = h->top, u = 0; r >= 0; r--, u = 1 - u) {
        Table *to = r == 0 && out ? out : &buf[u];
        if (mine)
            step_card(cx, st, mine, mine, h->rest, to, 1);
        shift_in(cx, h, in, r, to, 1);
        mine = to;
    }
    return mine;
}

/* For each of n cards e[k] (one card in a field, stride[k] its dense
 * index; or 0): out[k] = sum over z's vectors w of z(w) B(slots - w -
 * e[k]), after the layer B. One pass over z, which it leaves empty.
 * Inlined twice, narrow or not. */
static inline void dots_in(const Ctx *cx, Table *z, const Table *after, int n, const uint64_t *e,
                           const uint32_t *stride, LitU192 *out, int narrow)
{
    uint64_t guard = cx->lay.guard, slots = cx->slots;
    uint32_t is = dense_index(&cx->dense, slots), left = z->count;
    for (int k = 0; k < n; k++)
        out[k] = lit_u192(0);
    for (uint32_t i = 0; left > 0; i++) {
        if (!z->key[i])
            continue;
        left--;
        uint64_t w = z->key[i] - 1;
        z->key[i] = 0;
        for (int k = 0; k < n; k++) {
            uint32_t ib = is - i - stride[k];
            if (!fits(guard, w + e[k], slots) || !after->key[ib])
                continue;
            if (narrow) {
                LitU192 y = mul_low2(&z->val[i], &after->val[ib]);
                add_in2(&out[k], &y);
            } else {
                LitU192 y = mul_low(&z->val[i], &after->val[ib]);
                add_in(&out[k], &y);
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

/* Whether block j's marginals may come by derivatives (above): by card
 * steps, its set pooled nowhere, every clause inner after at most one
 * card no clause names, and room for a weight below 8 in the words the
 * program counts in (Ctx.roomy). */
static int deriv_can(const Plan *pl, int j)
{
    const Steps *st = &pl->steps[j];
    return (pl->cx.how & INFER_DERIV) && pl->cx.roomy && pl->by_steps[j] &&
           !pl->blocks[j].pooled && st->nc > 0 && st->inner == (1u << st->nc) - 1 &&
           st->alike == st->named && st->named <= 1;
}

/* The fields on which the claims of block j's set look G up, per team:
 * those of the team's seats, or none when the set's placed cards are the
 * other team's (its claims walk no placement). */
static void claim_fields(const Plan *pl, int j, unsigned fields[2])
{
    const LitKnow *k = pl->cx.k;
    int team = placed_team(k, lit_set_mask(k->pub.rules.deck, pl->blocks[j].set));
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
static uint64_t deriv_work(const Plan *pl, int j, uint32_t *claims)
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
    horner_of(st, cx, alike_fields(st, b, 0), &h);
    unsigned seats = alike_fields(st, b, 0) & ~h.rest;
    uint64_t work = 1 + (uint64_t)lit_popcount(h.rest);
    if (st->named)
        work += 2 * (uint64_t)lit_popcount(b->cand[st->card[0]]);
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
static uint64_t deriv_cost(const Plan *pl, int j, uint32_t f)
{
    if (!pl->deriv[j])
        return UINT64_MAX;
    uint64_t after = pl->layer[j + 1].count;
    uint64_t mean = (after + f) / 2, least = after < f ? after : f;
    return g_work(pl->claims[j] * least, pl->deriv[j] * mean);
}

/* Whether block j's G and marginals should come by derivatives from F_j
 * of f states: where that costs less than G's own ways (wherever they can
 * go, under INFER_STEPS_ALWAYS). */
static int deriv_pays(const Plan *pl, int j, uint32_t f)
{
    if (!pl->deriv[j])
        return 0;
    if (pl->cx.how & INFER_STEPS_ALWAYS)
        return 1;
    uint64_t g;
    g_way(pl, j, f, &g);
    return deriv_cost(pl, j, f) < g;
}

/* Block j's next F by its card steps (into nf, empty), its G at the
 * vectors the claims look up (the rest 0), and its cards' marginals into
 * mass, by derivatives (above) from F_j = f. The steps go H F first and
 * then c0's, so that H F gives c0's marginals too. One table in spare,
 * two and the pass's lists in w. 0, or -1 when they do not fit (nf and
 * mass untouched). */
static int deriv_block(const Plan *pl, int j, const Table *f, Table *nf, LitU192 *g,
                       LitU192 (*mass)[LIT_MAX_PLAYERS], Work spare, Work w, LitOdds *odds)
{
    const Ctx *cx = &pl->cx;
    const Steps *st = &pl->steps[j];
    const Block *b = &pl->blocks[j];
    const Table *after = &pl->layer[j + 1];
    unsigned fields = alike_fields(st, b, 0);
    Horner h, d;
    horner_of(st, cx, fields, &h);
    if (h.top < 0)
        return -1;
    /* G where the claims look it up, over the smaller of F and the layer
     * after */
    Work lw = w;
    Block claims = *b;
    uint32_t *of = take(&lw, sizeof(uint32_t) * b->n_vec);
    LitU192 *gc = take(&lw, sizeof(LitU192) * b->n_vec);
    claims.vec = take(&lw, sizeof(Vec) * b->n_vec);
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
        if (g_direct(cx, f, &claims, after, gc, lw, odds))
            return -1;
        for (uint32_t i = 0; i < claims.n_vec; i++)
            g[of[i]] = gc[i];
    }
    /* the tables, over the pass's lists */
    Table common, buf[2];
    if (layer_new(&buf[0], &w, 1, cx) || layer_new(&buf[1], &w, 1, cx) ||
        (st->named && layer_new(&common, &spare, 1, cx)))
        return -1;
    /* the next F, and c0's marginals */
    int first = lit_set_first(cx->k->pub.rules.deck, b->set);
    int alike = st->card[st->alike], m = st->n - st->alike;
    LitU192 sum[LIT_MAX_PLAYERS], *class = mass[first + b->pos[alike]];
    const Table *from = f;
    if (st->named) {
        int c0 = st->card[0];
        Table *hf = horner_run(cx, st, &h, f, buf, NULL);
        step_card(cx, st, hf, NULL, b->cand[c0], nf, 1);
        dots(cx, st, hf, after, b->cand[c0], sum);
        for (unsigned x = b->cand[c0]; x; x &= x - 1)
            mass[first + b->pos[c0]][lit_lsb(x)] = sum[lit_lsb(x)];
        step_card(cx, st, f, NULL, b->cand[c0], &common, 1);
        from = &common;
    } else {
        horner_run(cx, st, &h, f, buf, nf);
    }
    /* the class's cards, counted once per card: in the rest, and at every
     * clause's seat but the first, which has what the others leave of m
     * times the deals */
    horner_deriv(cx, &h, -1, &d);
    if (d.top >= 0 && h.rest) {
        dots(cx, st, horner_run(cx, st, &d, from, buf, NULL), after, h.rest, sum);
        for (unsigned x = h.rest; x; x &= x - 1)
            class[lit_lsb(x)] = sum[lit_lsb(x)];
    }
    unsigned seats = fields & ~h.rest;
    for (unsigned x = seats & (seats - 1); x; x &= x - 1) {
        horner_deriv(cx, &h, lit_lsb(x), &d);
        if (d.top < 0)
            continue;
        dots(cx, st, horner_run(cx, st, &d, from, buf, NULL), after, 0, sum);
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

/* Whether block j's next F (with G in the same pass) should go vector by
 * vector from F_j of f states although the block goes by steps: where its
 * pairs are fewer than the steps' fields. Going forward the steps' layers
 * grow from F_j towards the next F, which holds at most the states of the
 * layer after j (the rest cannot be completed), so the steps are priced
 * on the larger of the two. Not under INFER_STEPS_ALWAYS (the tests). */
static int vectors_pay(const Plan *pl, int j, uint32_t f)
{
    const Ctx *cx = &pl->cx;
    if (cx->how & INFER_STEPS_ALWAYS)
        return 0;
    uint64_t after = pl->layer[j + 1].count, grown = after > f ? after : f;
    uint64_t pairs = (uint64_t)f * pl->blocks[j].n_vec;
    uint64_t g = (after < f ? after : f) * (uint64_t)pl->blocks[j].n_vec;
    return VECTOR_PAIR * pairs < g_work(g, pl->step_work[j] * grown);
}

/* Whether G of block j + 1 should come from F_j (f states), ahead, with
 * next_f states in F_{j+1}: where that costs less than the block's own
 * ways, and the block goes by steps from F_{j+1} (vector by vector, its
 * pass forms G anyway). Under INFER_STEPS_ALWAYS, for two blocks of every
 * three (so that the tests see G_BEHIND too, and ahead twice in a row). */
static int ahead_pays(const Plan *pl, int j, uint32_t f, uint32_t next_f)
{
    const Ctx *cx = &pl->cx;
    if (!(cx->how & INFER_AHEAD) || j + 1 >= pl->nb || !pl->by_steps[j] ||
        !pl->by_steps[j + 1] || vectors_pay(pl, j + 1, next_f))
        return 0;
    if (cx->how & INFER_STEPS_ALWAYS)
        return !pl->deriv[j + 1] && j % 3 != 2;
    uint64_t next_work, deriv = deriv_cost(pl, j + 1, next_f);
    g_way(pl, j + 1, next_f, &next_work);
    if (deriv < next_work)
        next_work = deriv;
    /* the steps' layers grow from the layer after j + 1 towards the one
     * after j (as the backward sweep's did): priced on the larger */
    uint64_t pairs = (uint64_t)f * pl->blocks[j + 1].n_vec;
    uint64_t from = pl->layer[j + 2].count, to = pl->layer[j + 1].count;
    uint64_t fields = pl->step_work[j] * (from > to ? from : to);
    return g_work(pairs, fields) < next_work;
}

/* g = G of block j (stepped) from F_j = f by G_DIRECT or G_BEHIND, the
 * layer G_BEHIND steps in spare (one table) and its buffers and the
 * pass's lists in w. 0, or -1 when w cannot hold the lists. */
static int g_block(const Plan *pl, int j, const Table *f, LitU192 *g, Work spare, Work w,
                   LitOdds *odds)
{
    const Ctx *cx = &pl->cx;
    const Block *b = &pl->blocks[j];
    const Table *after = &pl->layer[j + 1];
    uint64_t work;
    Table x;
    if (g_way(pl, j, f->count, &work) == G_BEHIND && layer_new(&x, &spare, 1, cx) == 0 &&
        back_steps(cx, &pl->steps[j + 1], &pl->blocks[j + 1], f, &x, w) == 0) {
        odds->behind++;
        return g_pass(cx, &pl->layer[j + 2], b, &x, g, w);
    }
    return g_direct(cx, f, b, after, g, w, odds);
}

int lit_odds(const LitKnow *k, void *work, size_t work_size, LitOdds *odds)
{
    return infer_odds(k, work, work_size, odds,
                      INFER_MERGE | INFER_DENSE | INFER_POOL | INFER_STEPS | INFER_NARROW |
                          INFER_HORNER | INFER_AHEAD | INFER_DERIV);
}

int infer_odds(const LitKnow *k, void *work, size_t work_size, LitOdds *odds, unsigned how)
{
    const LitRules *r = &k->pub.rules;
    int deck = r->deck, players = r->players;
    memset(odds, 0, sizeof *odds);
    if (!k->consistent)
        return LIT_INCONSISTENT;

    /* The plan, and for the sets with pooled cards the short pools; when the
     * workspace cannot hold those, the plan again with no pooled card. */
    Work w;
    Plan *pl;
    int built;
    for (;;) {
        w = work_of(work, work_size);
        pl = take(&w, sizeof *pl);
        if (!pl)
            goto over;
        built = plan_build(pl, k, &w, 0, how);
        if (built == PLAN_OK && short_pools(pl, &w) == 0)
            break;
        if (built == PLAN_NONE)
            break;
        if (!(how & INFER_POOL))
            goto over;
        how &= ~(unsigned)INFER_POOL;
    }
    odds->exact = 1;
    odds->states = pl->states;
    odds->stepped = pl->stepped;
    odds->horner = pl->horner;
    odds->mixed = pl->mixed;
    odds->narrow = (uint8_t)pl->cx.narrow;
    for (int t = 0; t < 2; t++)
        memset(odds->best[t], LIT_NOBODY, sizeof odds->best[t]);
    if (built == PLAN_NONE)
        return LIT_OK;
    const Ctx cx = pl->cx;
    const Block *blocks = pl->blocks;
    const Table *layer = pl->layer;
    int nb = pl->nb, conv = pl->conv;
    unsigned free_sets = pl->free_sets;
    uint64_t slots = cx.slots, guard = cx.lay.guard, unplaced = pl->unplaced;
    LitU192 deals = pl->deals, one = lit_u192(1);
    odds->deals = deals;

    /* 3. The forward sweep: per block, the deals of each local vector. */
    LitU192 (*mass)[LIT_MAX_PLAYERS] = take(&w, sizeof(LitU192) * LIT_MAX_CARDS * LIT_MAX_PLAYERS);
    uint32_t most_vectors = 1;
    for (int j = 0; j < nb; j++)
        if (blocks[j].n_vec > most_vectors)
            most_vectors = blocks[j].n_vec;
    LitU192 *g = take(&w, sizeof(LitU192) * most_vectors);
    LitU192 *g_ahead = take(&w, sizeof(LitU192) * most_vectors);
    Table gv;
    if (!mass || !g || !g_ahead || table_new(&gv, &w, most_vectors))
        goto over;
    memset(mass, 0, sizeof(LitU192) * LIT_MAX_CARDS * LIT_MAX_PLAYERS);
    /* F and the next F alternate between the two halves of what is left
     * (with the completions of the conv path beside the next F). */
    size_t half_size = (w.left / 2) & ~(size_t)15;
    Work half[2] = {{w.p, half_size}, {w.p + half_size, half_size}};
    Work use = half[0];
    int side = 0;
    Table f;
    if (layer_new(&f, &use, 1, &cx))
        goto over;
    add_to(&f, 0, &one);
    Work past_f = use; /* what F's half does not use */
    int cards_before = 0, g_ahead_ready = 0;
    for (int j = 0; j < nb; j++) {
        const Block *b = &blocks[j];
        const Table *after = &layer[j + 1];
        cards_before += b->n;
        Table nf;
        uint64_t bound = (uint64_t)f.count * b->n_vec;
        uint64_t most = vectors(&cx.lay, slots, cards_before);
        if (bound > most)
            bound = most;
        Work scratch = half[1 - side];
        if (layer_new(&nf, &scratch, bound, &cx))
            goto over;
        Work past_nf = scratch; /* free once this block is done */
        int stepped = 0, ahead = g_ahead_ready, derived = 0;
        g_ahead_ready = 0;
        memset(g, 0, sizeof(LitU192) * b->n_vec);
        if (conv == 0 && cx.use_dense) {
            /* a. The next F by card steps when they cost less, less the
             * vectors the layer after cannot complete, and G by its own
             * pass (or from the look-ahead below, f.); otherwise as below,
             * vector by vector over F in index order: the layer after is
             * read at index(slots) - index(u) - index(v), in order, and
             * the next F written at index(u) + index(v). */
            uint32_t is = dense_index(&cx.dense, slots);
            int forward_vectors = pl->by_steps[j] && vectors_pay(pl, j, f.count);
            odds->forward_vectors += (uint32_t)forward_vectors;
            /* by derivatives, the next F by card steps as well */
            derived = pl->by_steps[j] && !forward_vectors && !ahead &&
                      deriv_pays(pl, j, f.count) &&
                      deriv_block(pl, j, &f, &nf, g, mass, past_f, scratch, odds) == 0;
            odds->derived += (uint32_t)derived;
            stepped = pl->by_steps[j] && !forward_vectors &&
                      (derived || back_steps(&cx, &pl->steps[j], b, &f, &nf, scratch) == 0);
            odds->stepped += (uint32_t)stepped;
            if (stepped) {
                count_horner(&pl->steps[j], &odds->horner, &odds->mixed);
                for (uint32_t i = 0; i < nf.cap; i++)
                    if (nf.key[i] && !after->key[is - i]) {
                        nf.key[i] = 0;
                        nf.count--;
                    }
                if (ahead) {
                    odds->ahead++;
                    LitU192 *t = g;
                    g = g_ahead;
                    g_ahead = t;
                } else if (!derived && g_block(pl, j, &f, g, past_f, scratch, odds)) {
                    goto over;
                }
            } else {
                const uint32_t *at = entries_of(&f, &scratch);
                uint32_t *iv, *order;
                if (!at || dense_order(&cx.dense, &b->vec[0].v, sizeof(Vec) / sizeof(uint64_t),
                                       b->n_vec, &scratch, &iv, &order))
                    goto over;
                for (uint32_t e0 = 0; e0 < f.count; e0 += CHUNK) {
                    uint32_t e1 = f.count - e0 < CHUNK ? f.count : e0 + CHUNK;
                    for (uint32_t o = 0; o < b->n_vec; o++) {
                        uint32_t v = order[o];
                        LitU192 sum;
                        if (cx.narrow)
                            sum = vec_chunk(&f, after, &nf, at, e0, e1, &cx, &b->vec[v], iv[v],
                                            is - iv[v], 1);
                        else
                            sum = vec_chunk(&f, after, &nf, at, e0, e1, &cx, &b->vec[v], iv[v],
                                            is - iv[v], 0);
                        add_in(&g[v], &sum);
                    }
                }
            }
        } else if (conv == 0) {
            /* a. In one pass over F and the block's vectors: the next F
             * (the vectors that can be completed, which the layer after
             * says) and G(v) = sum_u F(u) B_{j+1}(slots - u - v), the deals
             * in which block j gives v. */
            for (uint32_t i = 0; i < f.cap; i++) {
                if (!f.key[i])
                    continue;
                uint64_t given = f.key[i] - 1, left = slots - given;
                for (uint32_t v = 0; v < b->n_vec; v++) {
                    if (!fits(guard, b->vec[v].v, left))
                        continue;
                    const LitU192 *c = lookup(after, left - b->vec[v].v);
                    if (!c)
                        continue;
                    LitU192 x = times(&f.val[i], b->vec[v].n), y = mul_low(&f.val[i], c);
                    if (add_to(&nf, given + b->vec[v].v, &x))
                        goto over;
                    lit_u192_add(&g[v], &g[v], &y);
                }
            }
        } else {
            /* a. Every vector the blocks up to j can give, b. the ways to
             * complete each (a sum over the layer after, with the free
             * cards spread over the rest), c. G(v) from both; then the
             * next F keeps the vectors that can be completed. */
            Table all, done;
            if (table_new(&all, &scratch, bound))
                goto over;
            for (uint32_t i = 0; i < f.cap; i++) {
                if (!f.key[i])
                    continue;
                uint64_t given = f.key[i] - 1;
                for (uint32_t v = 0; v < b->n_vec; v++) {
                    if (!fits(guard, b->vec[v].v, slots - given))
                        continue;
                    LitU192 x = times(&f.val[i], b->vec[v].n);
                    if (add_to(&all, given + b->vec[v].v, &x))
                        goto over;
                }
            }
            if (table_new(&done, &scratch, all.count))
                goto over;
            for (uint32_t i = 0; i < all.cap; i++) {
                if (!all.key[i])
                    continue;
                uint64_t left = slots - (all.key[i] - 1);
                LitU192 c = lit_u192(0);
                for (uint32_t x = 0; x < after->cap; x++) {
                    if (!after->key[x] || !fits(guard, after->key[x] - 1, left))
                        continue;
                    LitU192 ways = spread(&cx, left - (after->key[x] - 1), conv), y;
                    lit_u192_mul(&y, &after->val[x], &ways);
                    lit_u192_add(&c, &c, &y);
                }
                if (!lit_u192_is_zero(&c)) {
                    add_to(&done, all.key[i] - 1, &c);
                    add_to(&nf, all.key[i] - 1, &all.val[i]);
                }
            }
            for (uint32_t i = 0; i < f.cap; i++) {
                if (!f.key[i])
                    continue;
                uint64_t given = f.key[i] - 1;
                for (uint32_t v = 0; v < b->n_vec; v++) {
                    if (!fits(guard, b->vec[v].v, slots - given))
                        continue;
                    const LitU192 *c = lookup(&done, given + b->vec[v].v);
                    if (!c)
                        continue;
                    LitU192 x;
                    lit_u192_mul(&x, &f.val[i], c);
                    lit_u192_add(&g[v], &g[v], &x);
                }
            }
        }
        /* d. Every placement with vector v has g[v] deals of the fields:
         * the marginals from which card each vector's placements put where,
         * the claim figures from a walk over the placements on one team's
         * seats. */
        memset(gv.key, 0, sizeof(uint64_t) * gv.cap);
        gv.count = 0;
        int first = lit_set_first(deck, b->set);
        for (uint32_t v = 0; v < b->n_vec; v++) {
            add_to(&gv, b->vec[v].v, &g[v]);
            if (derived || lit_u192_is_zero(&g[v]))
                continue;
            for (int c = 0; c < b->n; c++)
                for (int u = 0; u < cx.lay.n; u++)
                    if (b->at[v][c][u]) {
                        LitU192 x = times(&g[v], b->at[v][c][u]);
                        lit_u192_add(&mass[first + b->pos[c]][u], &mass[first + b->pos[c]][u], &x);
                    }
        }
        uint64_t setmask = lit_set_mask(deck, b->set);
        int team_of_placed = placed_team(k, setmask);
        /* With pooled cards, the claims walk over all of the set's unplaced
         * cards (mixed_placement). */
        Block full = *b;
        if (b->pooled) {
            full.n = 0;
            for (uint64_t x = setmask & unplaced; x;) {
                int card = lit_pop_lsb(&x);
                full.pos[full.n] = (uint8_t)(card - first);
                full.seat_cand[full.n] = 0;
                for (int s = 0; s < players; s++)
                    if (k->may[s] & lit_bit(card))
                        full.seat_cand[full.n] |= 1u << s;
                full.n++;
            }
        }
        for (int t = 0; t < 2; t++) {
            Mixed mx = {{&cx, &gv, lit_u192(0), lit_u192(0), {0}}, &f, &pl->short_pool[j], NULL, 0};
            Claim *cl = &mx.cl;
            if (team_of_placed < 0 || team_of_placed == t) {
                Walk wk;
                walk_init(&wk, k, &full, &cx.seats, full.seat_cand, cx.seat_slots,
                          lit_team_seats(r, t));
                wk.visit = claim_placement;
                wk.ctx = cl;
                Table memo;
                if (b->pooled) {
                    Work room = scratch;
                    if (table_new(&memo, &room, 1024))
                        goto over;
                    mx.memo = &memo;
                    wk.visit = mixed_placement;
                    wk.ctx = &mx;
                }
                walk(&wk, 0, 0, 0);
                if (mx.full)
                    goto over;
            }
            odds->team_all[t][b->set] = lit_u192_ratio(&cl->all, &deals);
            odds->best_p[t][b->set] = lit_u192_ratio(&cl->best, &deals);
            if (lit_u192_is_zero(&cl->best)) {
                memset(odds->best[t][b->set], LIT_NOBODY, LIT_MAX_SET_SIZE);
                continue;
            }
            for (int c = 0; c < full.n; c++)
                odds->best[t][b->set][full.pos[c]] = (uint8_t)cl->seat[c];
            for (int s = 0; s < players; s++)
                for (uint64_t x = k->held[s] & setmask; x;)
                    odds->best[t][b->set][lit_pop_lsb(&x) - first] = (uint8_t)s;
        }
        /* e. G of the next block from this F (ahead), where that costs
         * less than the next block's own ways: the layer after it with
         * this block's cards stepped in, in what F's half does not use,
         * its buffers and the pass's lists in what the next F's does not. */
        if (stepped && ahead_pays(pl, j, f.count, nf.count)) {
            Work yw = past_f;
            Table y;
            g_ahead_ready = layer_new(&y, &yw, 1, &cx) == 0 &&
                            back_steps(&cx, &pl->steps[j], b, &layer[j + 2], &y, past_nf) == 0 &&
                            g_pass(&cx, &f, &blocks[j + 1], &y, g_ahead, past_nf) == 0;
        }
        /* f. The next F. */
        past_f = past_nf;
        f = nf;
        side = 1 - side;
        if (f.count > odds->states)
            odds->states = f.count;
    }

    /* 4. The pool (the free sets' cards and the other free cards), from F
     * after every block: all its cards are alike. A card in field f leaves
     * the others spread over slots - w - f. */
    if (cx.free) {
        LitU192 free_mass[LIT_MAX_PLAYERS];
        FreeClaim memo[2][LIT_MAX_SET_SIZE + 1];
        memset(free_mass, 0, sizeof free_mass);
        memset(memo, 0, sizeof memo);
        Table proj[2];
        Work spare = half[1 - side]; /* what F does not use now */
        for (int t = 0; t < 2 && free_sets; t++)
            if (project(&cx, &f, lit_team_seats(r, t), &proj[t], &spare))
                goto over;
        for (uint32_t i = 0; i < f.cap; i++) {
            if (!f.key[i])
                continue;
            uint64_t left = slots - (f.key[i] - 1);
            for (int u = 0; u < cx.lay.n; u++) {
                if (!unit_count(&cx.lay, left, u))
                    continue;
                LitU192 ways = spread(&cx, left - unit_one(&cx.lay, u), cx.free - 1), x;
                lit_u192_mul(&x, &f.val[i], &ways);
                lit_u192_add(&free_mass[u], &free_mass[u], &x);
            }
        }
        for (uint64_t x = pl->free_cards; x;) {
            int c = lit_pop_lsb(&x);
            for (int u = 0; u < cx.lay.n; u++)
                mass[c][u] = free_mass[u];
        }
        for (int set = 0; set < lit_deck_sets(deck); set++)
            if (free_sets >> set & 1)
                free_set_claims(&cx, proj, set, unplaced, &deals, memo, odds);
    }

    /* Sets with every card placed: certain either way. */
    for (int set = 0; set < lit_deck_sets(deck); set++) {
        uint64_t m = lit_set_mask(deck, set);
        if (!(k->pub.live & m) || (unplaced & m))
            continue;
        int team = placed_team(k, m);
        if (team == 0 || team == 1) {
            odds->team_all[team][set] = 1.0;
            odds->best_p[team][set] = 1.0;
            for (int s = 0; s < players; s++)
                for (uint64_t x = k->held[s] & m; x;)
                    odds->best[team][set][lit_pop_lsb(&x) - lit_set_first(deck, set)] =
                        (uint8_t)s;
        }
    }
    /* Marginals: placed cards are certain; a card in a field is at one of
     * its seats in splits(that seat holds it) of the splits. */
    LitU192 split[LIT_MAX_PLAYERS];
    for (int s = 0; s < players; s++)
        split[s] = splits(&cx, unit_one(&cx.seats, s));
    for (uint64_t live = k->pub.live; live;) {
        int c = lit_pop_lsb(&live);
        for (int s = 0; s < players; s++) {
            if (k->held[s] & lit_bit(c))
                odds->p[c][s] = 1.0;
            else if (unplaced & lit_bit(c)) {
                LitU192 x;
                lit_u192_mul(&x, &mass[c][cx.lay.unit_of[s]], &split[s]);
                odds->p[c][s] = lit_u192_ratio(&x, &deals);
            }
        }
    }
    return LIT_OK;

over:
    memset(odds, 0, sizeof *odds);
    return LIT_OK;
}

/* ---- exact uniform sampling ---------------------------------------------------------- */

/* A draw walks the backward layers: with r the vector still to give (the
 * slots, or under conv the part the blocks give), block j gives v with
 * probability n_v B_{j+1}(r - v) / B_j(r), one of its n_v placements with
 * that vector uniformly; the free cards are then shuffled into what is
 * left. Every deal comes out with probability 1 / total: the weights are
 * the exact counts, and each choice is an exact draw below a 192-bit count. */
struct LitSampler {
    LitKnow k;
    Plan plan;
};

int lit_sampler_init(LitSampler **sampler, const LitKnow *k, void *work, size_t work_size)
{
    if (!k->consistent)
        return LIT_INCONSISTENT;
    Work w = work_of(work, work_size);
    LitSampler *sp = take(&w, sizeof *sp);
    if (!sp)
        return LIT_NO_SPACE;
    sp->k = *k;
    int built = plan_build(&sp->plan, &sp->k, &w, 1,
                           INFER_MERGE | INFER_DENSE | INFER_POOL | INFER_STEPS);
    if (built == PLAN_OVER)
        return LIT_NO_SPACE;
    if (built == PLAN_NONE)
        return LIT_INCONSISTENT;
    *sampler = sp;
    return LIT_OK;
}

LitU192 lit_sampler_deals(const LitSampler *sampler)
{
    return sampler->plan.deals;
}

/* Uniform in [0, n), n > 0: draws of n's bit length until one is below. */
static LitU192 below(LitRng *rng, const LitU192 *n)
{
    int bits = 0;
    for (int i = 2; i >= 0 && !bits; i--)
        for (int b = 63; b >= 0; b--)
            if (n->w[i] >> b & 1) {
                bits = 64 * i + b + 1;
                break;
            }
    for (;;) {
        LitU192 x = lit_u192(0);
        for (int i = 0; i < 3 && 64 * i < bits; i++) {
            int left = bits - 64 * i;
            x.w[i] = left >= 64 ? lit_rng_next(rng) : lit_rng_next(rng) >> (64 - left);
        }
        if (lit_u192_cmp(&x, n) < 0)
            return x;
    }
}

/* Whether x falls in the next weight: acc += weight, then x < acc. */
static int lands(LitU192 *acc, const LitU192 *weight, const LitU192 *x)
{
    lit_u192_add(acc, acc, weight);
    return lit_u192_cmp(x, acc) < 0;
}

void lit_sampler_draw(const LitSampler *sampler, LitRng *rng, uint64_t hands[LIT_MAX_PLAYERS])
{
    const Plan *pl = &sampler->plan;
    const LitKnow *k = &sampler->k;
    const Ctx *cx = &pl->cx;
    const Layout *lay = &cx->lay;
    int players = cx->players, deck = k->pub.rules.deck;
    uint64_t r = cx->slots, in[LIT_MAX_PLAYERS] = {0}; /* the cards of each field */
    if (pl->conv) {
        /* the part the blocks give, weighted by the ways to spread the
         * free cards over the rest */
        LitU192 x = below(rng, &pl->total), acc = lit_u192(0);
        const Table *t = &pl->layer[0];
        for (uint32_t i = 0; i < t->cap; i++) {
            if (!t->key[i] || !fits(lay->guard, t->key[i] - 1, cx->slots))
                continue;
            LitU192 ways = spread(cx, cx->slots - (t->key[i] - 1), pl->conv), weight;
            lit_u192_mul(&weight, &t->val[i], &ways);
            if (lands(&acc, &weight, &x)) {
                r = t->key[i] - 1;
                break;
            }
        }
    }
    for (int j = 0; j < pl->nb; j++) {
        const Block *b = &pl->blocks[j];
        LitU192 x = below(rng, lookup(&pl->layer[j], r)), acc = lit_u192(0);
        uint32_t v = 0;
        for (; v < b->n_vec; v++) {
            if (!fits(lay->guard, b->vec[v].v, r))
                continue;
            const LitU192 *after = lookup(&pl->layer[j + 1], r - b->vec[v].v);
            if (!after)
                continue;
            LitU192 weight = times(after, b->vec[v].n);
            if (lands(&acc, &weight, &x))
                break;
        }
        uint32_t pick = b->list[b->start[v] + lit_rng_below(rng, (uint32_t)b->vec[v].n)];
        int unit[LIT_MAX_SET_SIZE];
        uint64_t given;
        decode(lay, b, pick, unit, &given);
        for (int c = 0; c < b->n; c++)
            in[unit[c]] |= lit_bit(lit_set_first(deck, b->set) + b->pos[c]);
        r -= b->vec[v].v;
    }
    /* The free cards, shuffled into what is left of every field. */
    uint8_t cards[LIT_MAX_CARDS];
    int n = 0;
    for (uint64_t m = pl->free_cards; m;)
        cards[n++] = (uint8_t)lit_pop_lsb(&m);
    for (int f = 0; f < lay->n; f++) {
        int want = unit_count(lay, cx->slots, f) - lit_popcount(in[f]);
        for (int i = 0; i < want; i++) {
            int at = (int)lit_rng_below(rng, (uint32_t)n);
            in[f] |= lit_bit(cards[at]);
            cards[at] = cards[--n];
        }
    }
    /* Each field's cards dealt to its seats: every split equally likely,
     * and every deal of the fields has as many splits (splits()), so every
     * deal of the seats comes out with the same probability. */
    memset(hands, 0, sizeof(uint64_t) * LIT_MAX_PLAYERS);
    for (int f = 0; f < lay->n; f++) {
        unsigned seats = cx->members[f];
        if (!(cx->merged >> f & 1)) {
            hands[lit_lsb(seats)] = in[f];
            continue;
        }
        n = 0;
        for (uint64_t m = in[f]; m;)
            cards[n++] = (uint8_t)lit_pop_lsb(&m);
        for (; seats; seats &= seats - 1) {
            int s = lit_lsb(seats);
            for (int i = 0; i < k->slots[s]; i++) {
                int at = (int)lit_rng_below(rng, (uint32_t)n);
                hands[s] |= lit_bit(cards[at]);
                cards[at] = cards[--n];
            }
        }
    }
    for (int s = 0; s < players; s++)
        hands[s] |= k->held[s];
}
