/* counting.h - the private state of exact counting, which every file of
 * src/infer but know.c and u192.c shares: the packed vectors and their
 * tables, a block, the context and the plan (see odds.c for the program,
 * docs/DEDUCTION.md "Exact counting"), the hot helpers every pass inlines,
 * and lit_odds with a choice of how, which the tests use. Not part of the
 * public API.
 *
 * The files, by stage and technique (each INFER_ flag is read in one):
 *   table.c   tables of vectors to counts, hashed or dense
 *   fields.c  the fields of the vectors; merged seats (INFER_MERGE)
 *   words.c   counts in two words (INFER_NARROW)
 *   walk.c    a walk over a block's placements
 *   free.c    free sets and the free cards
 *   claims.c  a placement's claim figures
 *   local.c   a block's local table (step 1)
 *   dense.c   dense layers and their passes (INFER_DENSE)
 *   pool.c    the pool (INFER_POOL)
 *   horner.c  Horner steps (INFER_HORNER)
 *   steps.c   card steps (INFER_STEPS, INFER_STEPS_ALWAYS)
 *   gpass.c   G's pass over one layer
 *   deriv.c   marginals by derivatives (INFER_DERIV)
 *   side.c    which side G goes over (INFER_AHEAD)
 *   prune.c   layers kept to what the blocks before reach (INFER_PRUNE)
 *   plan.c    the plan: blocks and backward layers (steps 1 and 2)
 *   figures.c a block's marginals and claim figures from G, and the rest
 *             the forward sweep and the two threads share
 *   twin.c    lit_odds on two threads (lit_odds_helped)
 *   odds.c    lit_odds: the forward sweep (step 3) on one thread
 *   sample.c  exact uniform sampling
 *   estimate.c  estimates by importance sampling, past the budget
 */
#ifndef LIT_INFER_COUNTING_H
#define LIT_INFER_COUNTING_H

#include <stdint.h>
#include <string.h>

#include "literature/infer.h"

#include "../core/work.h"

/* lit_odds, with a choice of how, which the tests compare: INFER_MERGE,
 * seats nothing tells apart share a field (docs/DEDUCTION.md "Merged
 * seats"); INFER_DENSE, the layers may be dense arrays ("Dense layers");
 * INFER_POOL, the free cards of sets with clauses join the free sets' ("The
 * pool"); INFER_STEPS, a block's layers may come by card steps where those
 * cost less than its vectors ("Card steps"), and INFER_STEPS_ALWAYS, by
 * card steps wherever the steps can take its clauses; INFER_NARROW, the
 * hot loops work in two words where every count is below 2^128 ("Two
 * words"); INFER_HORNER, a block's named cards go by Horner steps where
 * they are alike and those cost less than the terms ("Horner steps");
 * INFER_AHEAD, a block's G may also pair a layer one block further out,
 * ahead (from the F before it) or behind (from the layer after the next
 * block), where that costs less ("Which side G goes over"; with
 * INFER_STEPS_ALWAYS, ahead for two blocks of every three and behind
 * wherever it can go for the rest, and no block that goes by steps goes
 * forward vector by vector); INFER_DERIV, a block of alike cards by
 * Horner steps may give its marginals by derivatives of those and G only
 * where the claims look it up, where that costs less ("Marginals by
 * derivatives"; with INFER_STEPS_ALWAYS, wherever it can go, and then no
 * block's G goes ahead); INFER_PRUNE, each layer and each table within a
 * block's card steps keeps only the states the other side can complete
 * ("Layers kept to what the blocks before them reach"; with
 * INFER_STEPS_ALWAYS, wherever the layers are dense); INFER_TWIN_ALWAYS,
 * with a helper lent (infer_odds_helped), the forward sweep goes on two
 * threads wherever it can, however short ("Two threads": the tests).
 * lit_odds does all but INFER_STEPS_ALWAYS and INFER_TWIN_ALWAYS.
 * The figures are the same either way. */
enum {
    INFER_MERGE = 1,
    INFER_DENSE = 2,
    INFER_POOL = 4,
    INFER_STEPS = 8,
    INFER_STEPS_ALWAYS = 16,
    INFER_NARROW = 32,
    INFER_HORNER = 64,
    INFER_AHEAD = 128,
    INFER_DERIV = 256,
    INFER_PRUNE = 512,
    INFER_TWIN_ALWAYS = 1024
};
/* lit_odds' choices: every technique, each where it pays. */
#define LIT_ODDS_HOW                                                                       \
    (INFER_MERGE | INFER_DENSE | INFER_POOL | INFER_STEPS | INFER_NARROW | INFER_HORNER |  \
     INFER_AHEAD | INFER_DERIV | INFER_PRUNE)
int infer_odds(const LitKnow *k, void *work, size_t work_size, LitOdds *odds, unsigned how);
/* ... with a helper (lit_odds_helped; NULL: none). */
int infer_odds_helped(const LitKnow *k, void *work, size_t work_size, LitHelper *helper,
                      LitOdds *odds, unsigned how);

enum { FIELD = 5, FOLD_MAX = 1 << 16, DENSE_MAX = 1 << 17, CHUNK = 2048, STEP_CLAUSES = 4 };
/* A pair of the forward pass vector by vector, in gpass_work's units. */
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
    /* The vector of index i, less the sum's field: lo[i % split] +
     * hi[i / split] (split a stride, so the digits part there), the
     * division by magic (DENSE_SHIFT, exact below DENSE_MAX). Both lists
     * are short (at most a few thousand), so they stay in the nearest
     * cache where a key a slot would be read from memory. */
    uint8_t sum_off, sum_mask;      /* the sum's field in a packed vector */
    uint32_t split;
    uint64_t magic;
    const uint64_t *lo, *hi;
} Dense;

enum { DENSE_SHIFT = 40 };

/* What a dense slot keeps of v: its sum's field + 1 (Table.sum). */
static inline uint8_t dense_sum(const Dense *d, uint64_t v)
{
    return (uint8_t)(((v >> d->sum_off) & d->sum_mask) + 1u);
}

static inline uint32_t dense_index(const Dense *d, uint64_t v)
{
    uint32_t i = 0;
    for (int f = 0; f < d->n; f++)
        i += (uint32_t)((v >> d->off[f]) & d->mask[f]) * d->stride[f];
    return i;
}

/* Keys apart from values: a probe reads only keys, eight to a cache line.
 * A hashed table probes from the key's hash; a dense one holds every vector
 * of its sum at its dense index, so it never probes, and its index gives
 * every field of the vector but the sum's: a byte a slot keeps that one
 * (sum), an eighth of a key's bytes to read, write and clear. */
typedef struct Table {
    uint64_t *key; /* hashed: packed vector + 1; 0 for an empty slot */
    uint8_t *sum;  /* dense: the sum's field of the vector + 1; 0 for an
                    * empty slot */
    uint64_t *val; /* the counts, vw words each (val_get, val_put) */
    uint64_t *occ;  /* dense: a bit a slot, set where sum is not 0, so
                     * a pass skips 64 empty slots in one word; NULL when
                     * hashed */
    uint32_t cap;   /* a power of two, or the dense size */
    uint32_t count;
    const Dense *dense; /* NULL when hashed */
    int vw;         /* words a count: 3, or 2 in a dense table of a narrow
                     * count (Ctx.narrow), whose counts are below 2^128:
                     * a slot of 24 bytes where it took 32 */
} Table;

/* The words of count i of t, the low one first. */
static inline uint64_t *val_at(const Table *t, uint32_t i)
{
    return t->val + (size_t)i * (unsigned)t->vw;
}

/* Count i of t, in three words (the top one 0 in a table of two). */
static inline LitU192 val_get(const Table *t, uint32_t i)
{
    const uint64_t *p = val_at(t, i);
    LitU192 r = {{p[0], p[1], t->vw > 2 ? p[2] : 0}};
    return r;
}

/* val_get where the caller knows the words: narrow (a constant where it is
 * inlined) in a dense table of a narrow count, which has two. */
static inline __attribute__((always_inline)) LitU192 val_get_n(const Table *t, uint32_t i,
                                                               const int narrow)
{
    const uint64_t *p = t->val + (size_t)i * (narrow ? 2u : 3u);
    LitU192 r = {{p[0], p[1], narrow ? 0 : p[2]}};
    return r;
}

/* Count i of t = x (in a table of two words, x mod 2^128). */
static inline void val_put(Table *t, uint32_t i, const LitU192 *x)
{
    uint64_t *p = val_at(t, i);
    p[0] = x->w[0];
    p[1] = x->w[1];
    if (t->vw > 2)
        p[2] = x->w[2];
}

/* The occupancy bit of dense slot i: set, cleared. */
static inline void occ_set(Table *t, uint32_t i)
{
    t->occ[i >> 6] |= UINT64_C(1) << (i & 63);
}

static inline void occ_clear(Table *t, uint32_t i)
{
    t->occ[i >> 6] &= ~(UINT64_C(1) << (i & 63));
}

/* The highest bit of a non-zero word. */
static inline int occ_msb(uint64_t x)
{
#if defined(__GNUC__) || defined(__clang__)
    return 63 - __builtin_clzll(x);
#else
    int n = 63;
    while (!(x >> n))
        n--;
    return n;
#endif
}

/* The words of a dense table's occupancy. */
static inline uint32_t occ_words(const Table *t)
{
    return (t->cap + 63) >> 6;
}

typedef struct Vec {
    uint64_t v;     /* packed vector */
    uint64_t n;     /* local placements giving it */
} Vec;

/* Where each unit's count sits in a packed vector. The program's units are
 * its fields: a seat, or several exchangeable seats merged into one (see
 * fields_make); a walk over real seats uses seats, five bits each. */
typedef struct Layout {
    int n;                          /* units */
    uint8_t off[LIT_MAX_PLAYERS];   /* bit offset of each */
    uint8_t mask[LIT_MAX_PLAYERS];  /* its values: 31, or 127 when merged */
    uint64_t guard;                 /* the top bit of each */
    uint64_t ones;                  /* 1 in each */
    uint8_t unit_of[LIT_MAX_PLAYERS];/* each seat's unit */
} Layout;

/* The unit u of a packed vector v. */
static inline int unit_count(const Layout *lay, uint64_t v, int u)
{
    return (int)((v >> lay->off[u]) & lay->mask[u]);
}

static inline uint64_t unit_one(const Layout *lay, int u)
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

/* Where a hashed table's probe for key starts. */
static inline uint32_t slot_of(const Table *t, uint64_t key)
{
    uint64_t h = key * UINT64_C(0x9e3779b97f4a7c15);
    return (uint32_t)(h >> 32) & (t->cap - 1);
}

/* Whether t holds v, and its count in *x when it does. */
static inline int lookup(const Table *t, uint64_t v, LitU192 *x)
{
    if (t->dense) {
        uint32_t i = dense_index(t->dense, v);
        if (t->sum[i] != dense_sum(t->dense, v))
            return 0;
        *x = val_get(t, i);
        return 1;
    }
    uint64_t key = v + 1;
    for (uint32_t i = slot_of(t, key);; i = (i + 1) & (t->cap - 1)) {
        if (t->key[i] == key) {
            *x = val_get(t, i);
            return 1;
        }
        if (t->key[i] == 0)
            return 0;
    }
}

/* The slot of v, a new entry of 0 when v is not there yet: UINT32_MAX
 * when a hashed table is full (past half). */
static inline uint32_t entry(Table *t, uint64_t v)
{
    LitU192 zero = lit_u192(0);
    if (t->dense) {
        /* (a dense slot holds one vector of the table's sum) */
        uint32_t i = dense_index(t->dense, v);
        if (!t->sum[i]) {
            t->sum[i] = dense_sum(t->dense, v);
            val_put(t, i, &zero);
            t->count++;
            occ_set(t, i);
        }
        return i;
    }
    uint64_t key = v + 1;
    uint32_t i = slot_of(t, key);
    while (t->key[i] && t->key[i] != key)
        i = (i + 1) & (t->cap - 1);
    if (!t->key[i]) {
        if (2 * (t->count + 1) > t->cap)
            return UINT32_MAX;
        t->key[i] = key;
        val_put(t, i, &zero);
        t->count++;
    }
    return i;
}

/* Adds x to the entry of v: 0, or -1 when the table is full (past half). */
static inline int add_to(Table *t, uint64_t v, const LitU192 *x)
{
    uint32_t i = entry(t, v);
    if (i == UINT32_MAX)
        return -1;
    LitU192 sum = val_get(t, i);
    lit_u192_add(&sum, &sum, x);
    val_put(t, i, &sum);
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

/* a * small mod 2^128 (as add_in2), the top word 0: where a is below
 * 2^128 and so is the product. */
static inline LitU192 times2(const LitU192 *a, uint64_t small)
{
    uint64_t h0, l0;
    lit_u64_mul(a->w[0], small, &h0, &l0);
    LitU192 r = {{l0, a->w[1] * small + h0, 0}};
    return r;
}

/* times2 or times as narrow says (a constant where the hot loops inline
 * it, as val_get_n). */
static inline __attribute__((always_inline)) LitU192 times_n(const LitU192 *a, uint64_t small,
                                                             const int narrow)
{
    return narrow ? times2(a, small) : times(a, small);
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

/* A sum mod 2^128 that a hot loop keeps across many add_in2's: the
 * compiler's 128-bit integer where it has one (an addition with carry,
 * kept in two registers), else two words. */
#if defined(__SIZEOF_INT128__)
typedef LitU128 Sum2;
static inline Sum2 sum2_zero(void)
{
    return 0;
}
static inline void sum2_add(Sum2 *s, const LitU192 *x)
{
    *s += (LitU128)x->w[1] << 64 | x->w[0];
}
static inline LitU192 sum2_get(Sum2 s)
{
    LitU192 r = {{(uint64_t)s, (uint64_t)(s >> 64), 0}};
    return r;
}
#else
typedef LitU192 Sum2;
static inline Sum2 sum2_zero(void)
{
    return lit_u192(0);
}
static inline void sum2_add(Sum2 *s, const LitU192 *x)
{
    add_in2(s, x);
}
static inline LitU192 sum2_get(Sum2 s)
{
    return s;
}
#endif

/* a * b mod 2^128 (as add_in2): three word products where mul_low takes
 * six. */
static inline LitU192 mul_low2(const LitU192 *a, const LitU192 *b)
{
    uint64_t hi, lo;
    lit_u64_mul(a->w[0], b->w[0], &hi, &lo);
    LitU192 r = {{lo, hi + a->w[0] * b->w[1] + a->w[1] * b->w[0], 0}};
    return r;
}

/* Adds x at dense index i, the vector v's: the caller knows i is v's.
 * narrow is t's width (t->vw == 2): a constant in the hot loops, which are
 * inlined once for each; the table's own elsewhere. The sum is add_in2's
 * or add_in's, written on the slot's words in place (through a LitU192
 * copy of the slot it measured 1.06 times slower, 8 pairs). */
static inline __attribute__((always_inline)) void
add_dense(Table *t, uint32_t i, uint64_t v, const LitU192 *x, const int narrow)
{
    uint64_t *p = t->val + (size_t)i * (narrow ? 2u : 3u);
    if (t->sum[i]) {
        uint64_t w0 = p[0] + x->w[0], c0 = w0 < x->w[0];
        if (narrow) {
            p[1] += x->w[1] + c0;
        } else {
            uint64_t w1 = p[1] + x->w[1], c1 = w1 < x->w[1];
            w1 += c0;
            c1 += w1 < c0;
            p[1] = w1;
            p[2] += x->w[2] + c1;
        }
        p[0] = w0;
    } else {
        t->sum[i] = dense_sum(t->dense, v);
        p[0] = x->w[0];
        p[1] = x->w[1];
        if (!narrow)
            p[2] = x->w[2];
        t->count++;
        occ_set(t, i);
    }
}

/* Empties dense slot i. */
static inline void dense_drop(Table *t, uint32_t i)
{
    t->sum[i] = 0;
    t->count--;
    occ_clear(t, i);
}

/* The vector of dense slot i, which holds one. */
static inline uint64_t dense_vec(const Table *t, uint32_t i)
{
    const Dense *d = t->dense;
    uint32_t hi = (uint32_t)(((uint64_t)i * d->magic) >> DENSE_SHIFT);
    return d->lo[i - hi * d->split] + d->hi[hi] + ((uint64_t)(t->sum[i] - 1u) << d->sum_off);
}

/* Whether slot i of a table, dense or hashed, holds a vector. */
static inline int slot_full(const Table *t, uint32_t i)
{
    return t->dense ? t->sum[i] != 0 : t->key[i] != 0;
}

/* The vector of slot i of a table, dense or hashed, which holds one. */
static inline uint64_t slot_vec(const Table *t, uint32_t i)
{
    return t->dense ? dense_vec(t, i) : t->key[i] - 1;
}

/* Bit 4 of each of twelve five-bit fields: the guard of vectors by seat. */
#define GUARD UINT64_C(0x842108421084210)

/* Whether every field of x is at most its field in limit, where guard has
 * the top bit of every field and no field of x or limit reaches it (a seat's
 * slots are at most its dealt hand, 14, in five bits; a merged field's at
 * most 54, in seven; a block gives a field at most 6): the top bit is then a
 * guard that a field's subtraction clears only when it borrows, so one
 * subtraction compares every field. */
static inline int fits(uint64_t guard, uint64_t x, uint64_t limit)
{
    return (((limit | guard) - x) & guard) == guard;
}

/* A depth-first walk over a block's placements: each card in each of its
 * allowed units (fields, or seats) with room, each clause checked from the
 * cards each unit got once its last card is placed (a clause's seat is never
 * merged with another, so its unit is its own). The index of a placement
 * over the fields is walk_decode()'s. */
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

/* What the passes of one count share. */
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
    unsigned how;            /* infer_odds's choices (INFER_) */
} Ctx;

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

/* What the blocks before each layer may give (prune.c): at[j] a bit at the
 * dense index of slots - u for each u blocks ..j-1 may give (a superset),
 * NULL where the layers are not pruned. */
typedef struct Reach {
    const uint64_t *at[LIT_MAX_SETS + 1];
    const uint64_t *some[LIT_MAX_PLAYERS]; /* the indices whose digit i is not 0 */
    int digit[LIT_MAX_PLAYERS];            /* each field's digit, -1: the sum's */
    uint32_t words;                        /* of each bitset */
} Reach;

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
    Reach re;                /* the states of each layer ever read (prune.c) */
    uint64_t low[LIT_MAX_SETS];       /* what every vector of block j gives
                                       * each field at least, packed, */
    uint64_t least[LIT_MAX_SETS + 1]; /* and what blocks ..j-1 give (0 without
                                       * INFER_PRUNE) */
    uint32_t pruned;         /* the states the layers dropped, read by none */
    int conv;                /* free cards left to spread: 0 or cx.free */
    LitU192 total;           /* consistent deals of the fields */
    LitU192 deals;           /* consistent deals: total times fields_splits(0) */
    uint32_t states;         /* the largest layer */
    uint32_t stepped;        /* layers made by card steps */
    uint32_t horner, mixed;  /* ... with Horner steps (LitOdds) */
    Steps steps[LIT_MAX_SETS]; /* each block's card steps, */
    uint8_t by_steps[LIT_MAX_SETS]; /* where it goes by them, */
    uint64_t step_work[LIT_MAX_SETS]; /* and their work a state (steps_work) */
    uint64_t deriv[LIT_MAX_SETS];     /* its derivatives' work a state (deriv_work), */
    uint32_t claims[LIT_MAX_SETS];    /* and the vectors whose G the claims need */
    uint64_t unit[LIT_MAX_SETS];      /* block j's work a state it meets
                                       * (the budget's units) */
    /* For a block with pooled cards (claims only): the layer after it with
     * the pool less those cards, blocks j+1.. and free - pooled cards. */
    Table short_pool[LIT_MAX_SETS];
    uint32_t dense_pools;    /* the chains of short pools made dense */
    /* The work it may still do (docs/DEDUCTION.md "The state budget"):
     * what plan_build was given (plan_budget, or what an earlier try left),
     * spent as it is done, and what is left for the forward sweep */
    uint64_t budget;
    /* Called with j once layer j is made, or NULL (lit_odds on two
     * threads, whose helper makes the chain of F meanwhile) */
    void (*made)(void *arg, int j);
    void *made_arg;
} Plan;

/* PLAN_BUDGET: the work went past the plan's budget (a caller does not
 * try again with more of it, as it does when the workspace is short). */
enum { PLAN_OK = 0, PLAN_NONE = 1, PLAN_OVER = -1, PLAN_BUDGET = -2 };

/* The work of a step of a local table's walk, in the budget's units (a
 * state met by a vector or a step's field): each class dealt in the walk
 * by classes, each placement in the walk card by card. Measured at 12
 * players before the walk by classes checked the clauses as it went, a
 * whole deal about 40 ns and such a unit 5 ns. */
enum { LEAF_WORK = 8 };

/* A unit of a layer's work counts HASHED_WORK when it adds into a hashed
 * table that may hold HASHED_BIG states or more: past that size (2^15
 * slots, 1 MiB of keys and counts) most adds miss the cache twice, for the
 * key and for the count, and a unit took about 11 ns where over a dense
 * or a small hashed table it takes 4 to 6 (docs/DEDUCTION.md "The state
 * budget"). */
enum { HASHED_BIG = 1 << 14, HASHED_WORK = 3 };

/* The forward sweep's work at a block: F's states times the block's work a
 * state, times FORWARD_WORK, counted as the sweep reaches the block (F
 * keeps only what the block's layer completes, which at the slowest
 * positions with hashed layers was a fifth of that layer's states): the
 * sweep makes the next F and, from F and the layer after, each vector's
 * G, two passes where going back is one (docs/DEDUCTION.md "The state
 * budget"). */
enum { FORWARD_WORK = 2 };

/* Spends work from *budget: 0, or -1 (and *budget 0) when it had less. */
static inline int budget_spend(uint64_t *budget, uint64_t work)
{
    if (work > *budget) {
        *budget = 0;
        return -1;
    }
    *budget -= work;
    return 0;
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

/* The claims of a set with pooled cards, for one team: every placement of
 * all its unplaced cards on the team's seats (the block's cards where they
 * may be, the pooled ones at any seat with room) that meets the clauses has
 * h(z) = sum_u F(u) D(slots - u - z) deals of the fields, z its vector by
 * field and D the layer after the block with the pool less the set's cards;
 * times the splits. h is kept per z in memo. */
typedef struct Mixed {
    Claim cl;
    const Table *f, *d;
    const Table *dense_d;            /* D as a dense table (pool_dense), or NULL */
    Table *memo;
    int full;                        /* the memo overflowed */
} Mixed;

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
static inline unsigned term_fields(const Steps *st, const Block *b, unsigned t, int i)
{
    int c = st->card[i];
    return b->cand[c] & ~st->drop[t][c] & st->keep[t][c];
}

/* A card step's fields (those of allow): the unit of each, its guard bit
 * (room for one more card where it is set in (slots | guard) - ones - x,
 * one subtraction for every field; see fits) and its dense stride. */
typedef struct StepFields {
    int n;
    uint64_t one[LIT_MAX_PLAYERS], gbit[LIT_MAX_PLAYERS];
    uint32_t stride[LIT_MAX_PLAYERS];
} StepFields;

static inline void step_fields(const Ctx *cx, const uint32_t *stride, unsigned allow,
                               StepFields *sf)
{
    sf->n = 0;
    for (unsigned m = allow; m; m &= m - 1) {
        int f = lit_lsb(m);
        sf->one[sf->n] = unit_one(&cx->lay, f);
        sf->gbit[sf->n] = cx->lay.guard & ((uint64_t)cx->lay.mask[f] << cx->lay.off[f]);
        sf->stride[sf->n++] = stride[f];
    }
}

/* RUN(k) for the number of fields n, k a constant in each case (so that a
 * loop over the fields inlined there unrolls). */
#define BY_FIELDS(n, RUN)                                                                 \
    switch (n) {                                                                          \
    case 0: RUN(0); break;                                                                \
    case 1: RUN(1); break;                                                                \
    case 2: RUN(2); break;                                                                \
    case 3: RUN(3); break;                                                                \
    case 4: RUN(4); break;                                                                \
    case 5: RUN(5); break;                                                                \
    case 6: RUN(6); break;                                                                \
    case 7: RUN(7); break;                                                                \
    case 8: RUN(8); break;                                                                \
    case 9: RUN(9); break;                                                                \
    case 10: RUN(10); break;                                                              \
    case 11: RUN(11); break;                                                              \
    case 12: RUN(12); break;                                                              \
    default: break; /* (no more fields than a Layout has) */                              \
    }

/* State i of dense t stepped in place into the n fields of sf (n a
 * constant where this is inlined): moved up by each field's stride, or
 * kept at i in the field of stride 0 (the sum's); top is (slots | guard)
 * - ones. Every slot it writes is i or above, which a pass from the
 * highest index down has read already (see steps_card_in_place). */
static inline __attribute__((always_inline)) void
step_in_place(Table *t, uint32_t i, uint64_t top, uint64_t guard, const StepFields *sf,
              const int n, const int narrow)
{
    uint64_t x = dense_vec(t, i), room = (top - x) & guard;
    int keep = 0;
    LitU192 a = val_get_n(t, i, narrow);
#pragma GCC unroll 12 /* (n is a constant: one copy a field) */
    for (int f = 0; f < n; f++) {
        if (!(room & sf->gbit[f]))
            continue;
        if (sf->stride[f] == 0)
            keep = 1; /* (the sum's field, at the same index) */
        else
            add_dense(t, i + sf->stride[f], x + sf->one[f], &a, narrow);
    }
    if (keep)
        t->sum[i]++;
    else
        dense_drop(t, i);
}

/* ---- table.c ---- */

/* A table for want entries at most half full, or dense when dense is not
 * NULL, its counts in two words when it is dense and narrow (Table.vw): 0,
 * or -1 when the workspace cannot hold it. */
int table_in(Table *t, LitWork *w, uint64_t want, const Dense *dense, int narrow);

/* The bytes of the workspace table_in takes for such a table. */
size_t table_bytes(uint64_t want, const Dense *dense, int narrow);

/* table_in, the table's slots left as the workspace had them: for a caller
 * that empties it (table_clear) only if it uses it. */
int table_take(Table *t, LitWork *w, uint64_t want, const Dense *dense, int narrow);

/* A hashed table. */
int table_new(Table *t, LitWork *w, uint64_t want);

/* Empties t. */
void table_clear(Table *t);

/* The entries of a table in slot order (for a dense table, index order):
 * count of them in w, or NULL when w cannot hold them. */
uint32_t *table_entries(const Table *t, LitWork *w);

/* out += the ways for block b and what next counts to give each vector
 * within limit (the slots, or what the blocks before leave of them at
 * most: slots less pl->least): one step of the backward layers through
 * hash tables. 0, or -1 when out is full. */
int table_back(const Ctx *cx, const Block *b, const Table *next, uint64_t limit, Table *out);

/* Drops the states of dense table t that the bitset keep (a bit an index)
 * does not mark; how many (prune.c makes such bitsets). */
uint32_t table_keep(Table *t, const uint64_t *keep);

/* ---- fields.c ---- */

/* The fields of k (docs/DEDUCTION.md "Merged seats"): with INFER_MERGE,
 * seats nothing tells apart share one. Fills cx's lay, seats, slots,
 * seat_slots, merged and members. */
void fields_make(Ctx *cx, uint64_t unplaced);

/* A vector by seat as a vector by field. */
uint64_t fields_of(const Ctx *cx, uint64_t by_seat);

/* The splits of the merged fields' cards among their seats with the cards
 * of y (a vector by seat) at their seats (docs/DEDUCTION.md "Merged
 * seats"); fields_splits(cx, 0) is every split. */
LitU192 fields_splits(const Ctx *cx, uint64_t y);

/* How many vectors have fields summing to total, each at most its field of
 * limit: no layer of the program can hold more states. */
uint64_t fields_vectors(const Layout *lay, uint64_t limit, int total);

/* ---- words.c ---- */

/* Whether the hot loops work in two words (Ctx.narrow, under INFER_NARROW)
 * and whether a weight below 8 fits (Ctx.roomy), for the unplaced cards on
 * cx's fields. */
void words_choose(Ctx *cx, uint64_t unplaced);

/* ---- walk.c ---- */

/* A walk over the units of lay, with the block's candidates cand (b->cand
 * for fields, b->seat_cand for seats), within slots, each card only in the
 * units of allow. */
void walk_init(Walk *w, const LitKnow *k, const Block *b, const Layout *lay,
               const unsigned *cand, uint64_t slots, unsigned allow);

/* Walks cards c.. of the placement with vector v so far: 0, or what a
 * visit returned. */
int walk_run(Walk *w, int c, uint64_t v, uint32_t index);

/* The placement index i (mixed radix over the candidate fields) of a
 * block: the field of each card and the vector it gives the fields. */
void walk_decode(const Layout *lay, const Block *b, uint32_t i, int unit[LIT_MAX_SET_SIZE],
                 uint64_t *vector);

/* ---- free.c ---- */

/* The live cards no seat is known to hold. */
uint64_t free_unplaced(const LitKnow *k);

/* The sets (bit = set) that are free: no clause, and every unplaced card
 * possible at every seat with room. Their cards are exchangeable. */
unsigned free_sets_of(const LitKnow *k);

/* Ways to place `cards` distinct exchangeable cards so that every unit of
 * lay gets its count in r: cards! / prod r_u!, 0 when the counts do not sum
 * to cards. */
LitU192 free_spread_in(const Ctx *cx, const Layout *lay, uint64_t r, int cards);

/* ... over the fields. */
LitU192 free_spread(const Ctx *cx, uint64_t r, int cards);

/* Every vector within the slots whose fields sum to cards, with the ways
 * to spread that many free cards so, added to t: the free cards as one
 * last layer. 0, or -1 when t is full. */
int free_fill(Table *t, const Ctx *cx, int cards);

/* Step 4 of lit_odds: the pool's figures from F after every block, f: every
 * free card's marginals into mass, and the free sets' claim figures into
 * odds. The projections go in spare. 0, or -1 when spare is too small. */
int free_odds(const Plan *pl, const Table *f, LitWork spare, LitU192 (*mass)[LIT_MAX_PLAYERS],
              LitOdds *odds);

/* ---- claims.c ---- */

/* The team holding the placed cards of a set: -1 when none is placed, 2
 * when both teams hold some. */
int claims_team(const LitKnow *k, uint64_t setmask);

/* Counts a placement by seat y (seat: where each card is) that has fields
 * deals of the fields into cl. */
void claims_count(Claim *cl, const LitU192 *fields, uint64_t y, const int *seat);

/* A walk's visit: a placement by seat, with the deals of the fields of its
 * vector by field looked up in cl->gv (w->ctx is the Claim). */
int claims_visit(Walk *w, uint64_t v, uint32_t index);

/* ---- local.c ---- */

/* Block b's local table (docs/DEDUCTION.md "Exact counting", step 1) in w:
 * its vectors with their counts, which card each puts where, and with
 * lists its placements grouped by vector (for sampling). Each step of
 * its walk spends LEAF_WORK of *budget. PLAN_OK, PLAN_NONE when no
 * placement meets the clauses, PLAN_OVER when w is too small, or
 * PLAN_BUDGET when the walk went past *budget. */
int local_table(const Ctx *cx, Block *b, LitWork *w, int lists, uint64_t *budget);

/* ---- dense.c ---- */

/* Whether the layers and F are dense (cx->use_dense and cx->dense), under
 * INFER_DENSE, with tables of them to fit in what w has left; the dense
 * index's lists (Dense.lo, .hi) taken from w. */
void dense_choose(Ctx *cx, int tables, LitWork *w);

/* The table of a layer or of F: dense or hashed as cx says. */
int dense_layer(Table *t, LitWork *w, uint64_t want, const Ctx *cx);

/* dense_layer, the table not yet emptied: for a caller that empties it
 * (table_clear) only if it uses it. */
int dense_take(Table *t, LitWork *w, uint64_t want, const Ctx *cx);

/* The dense indices of n vectors (vec[v * stride]) in index[v], and the
 * vectors in the order of their indices in order, both in w: 0, or -1 when
 * w cannot hold them. */
int dense_order(const Dense *d, const uint64_t *vec, size_t stride, uint32_t n, LitWork *w,
                uint32_t **index, uint32_t **order);

/* out = the ways block b and what next counts give each vector, vector by
 * vector over dense tables, in w: 0, or -1 when w cannot hold the lists. */
int dense_back(const Ctx *cx, const Block *b, const Table *next, Table *out, LitWork w);

/* The next F (into nf) and G of block b (added to g) from F = f in one pass
 * vector by vector over dense tables, after the layer after b; the lists
 * taken from w. 0, or -1 when w cannot hold them. */
int dense_forward(const Ctx *cx, const Block *b, const Table *f, const Table *after, Table *nf,
                  LitU192 *g, LitWork *w);

/* ---- pool.c ---- */

/* The free cards of sets with clauses that join the pool (under
 * INFER_POOL; docs/DEDUCTION.md "The pool"), into pl->free_cards and
 * pl->free_sets. */
void pool_join(Plan *pl);

/* Whether the plan may go again with no card pooled but the free sets'
 * (when the workspace cannot hold the short pools): *how without
 * INFER_POOL, or 0 when it had none. */
int pool_drop(unsigned *how);

/* For the claims of the sets with pooled cards: each such block's layer
 * after it with the pool less the set's pooled cards, pl->short_pool. 0,
 * or -1 when w is full. */
int pool_short(Plan *pl, LitWork *w);

/* A walk's visit for the claims of a set with pooled cards (w->ctx is the
 * Mixed): 0, or 1 when the memo is full. */
int pool_visit(Walk *w, uint64_t y, uint32_t index);

/* A walk's visit: a placement's vector by field into Mixed's memo, its h
 * zero until pool_fill counts it; 0, or 1 when the memo is full. */
int pool_collect(Walk *w, uint64_t y, uint32_t index);

/* D (a layer of pl->short_pool, hashed) copied into dense table out, from
 * w: 0, or -1 when w cannot hold it. */
int pool_dense(const Ctx *cx, const Table *d, Table *out, LitWork *w);

/* h(z) for every z in Mixed's memo, in one G pass over F and Mixed's
 * dense_d: 0, or -1 when w cannot hold the pass (the memo's values are
 * then left as they were). */
int pool_fill(const Mixed *mx, LitWork w);

/* ---- horner.c ---- */

/* The Horner steps of st's alike cards in the fields A. */
void horner_of(const Steps *st, const Ctx *cx, unsigned fields, Horner *h);

/* The fields a term leaves the alike cards. */
unsigned horner_fields(const Steps *st, const Block *b, unsigned t);

/* A pass of Horner steps: out += Q_r in (or -=, by sign), each shift its
 * coefficient times in, moved by its vector. */
void horner_shift(const Ctx *cx, const Horner *h, const Table *in, int r, Table *out, int sign);

/* One level of Horner steps in place, acc = rest acc + Q_r in, in one pass
 * from the highest index down: at each index acc's state is stepped
 * (where the field of the sum takes the card, it keeps its index) before
 * in's shifts are added there or above, where every state has been read
 * already (see steps_card_in_place). */
void horner_level(const Ctx *cx, const Steps *st, const Horner *h, const Table *in, int r,
                  Table *acc);

/* Under INFER_HORNER, the card steps st of b with inner clauses, one for
 * each clause whose cards are alike (wk the walk of b's clauses), in try:
 * how many. */
int horner_candidates(const Steps *st, const Ctx *cx, const Block *b, const Walk *wk,
                      Steps try[STEP_CLAUSES]);

/* ---- steps.c ---- */

/* Whether every technique goes wherever it can go (INFER_STEPS_ALWAYS:
 * the tests). */
int steps_always(const Ctx *cx);

/* The work of b's card steps a state, to weigh against its vectors. */
uint64_t steps_work(const Steps *st, const Ctx *cx, const Block *b);

/* Whether block b goes by card steps (into st). */
int steps_choose(const Ctx *cx, Steps *st, const Block *b);

/* One card step: out (+= or -=, by sign) the ways in gives each vector with
 * one more card, in one of the fields of allow; consume is in or NULL. */
void steps_card(const Ctx *cx, const Steps *st, const Table *in, Table *consume,
                unsigned allow, Table *out, int sign);

/* Counts a layer made by st's steps in LitOdds's horner and mixed. */
void steps_count(const Steps *st, uint32_t *horner, uint32_t *mixed);

/* out = the ways block b and what next counts give each vector, by card
 * steps: dense tables, two of them in w for the steps. With keep
 * (prune_within), a table holding k of the block's cards keeps only the
 * states keep[k] marks. 0, or -1 when w cannot hold them. */
int steps_back(const Ctx *cx, const Steps *st, const Block *b, const Table *next, Table *out,
               LitWork w, const uint64_t *const *keep);

/* Whether block j's next F should go vector by vector from F_j of f states
 * although the block goes by steps. */
int steps_vectors(const Plan *pl, int j, uint32_t f);

/* ---- gpass.c ---- */

/* g[v] = G(v) for every vector v of b from F = f, with after the layer
 * after b, in w: 0, or -1 when w cannot hold the packed entries. */
int gpass_run(const Ctx *cx, const Table *f, const Block *b, const Table *after, LitU192 *g,
              LitWork w);

/* gpass_run over the smaller of F and the layer after. */
int gpass_direct(const Ctx *cx, const Table *f, const Block *b, const Table *after,
                 LitU192 *g, LitWork w, LitOdds *odds);

/* A pass's pairs and a step's fields, in a common unit. */
uint64_t gpass_work(uint64_t pairs, uint64_t fields);

/* ---- deriv.c ---- */

/* The work a state of block j's derivatives beyond its card steps, 0 when
 * it cannot go so; and in *claims the vectors whose G the claims need. */
uint64_t deriv_work(const Plan *pl, int j, uint32_t *claims);

/* The work of block j's G and marginals by derivatives from F_j of f
 * states (UINT64_MAX where they cannot go). */
uint64_t deriv_cost(const Plan *pl, int j, uint32_t f);

/* Block j's next F (into nf; none with nf NULL, where the forward sweep
 * on two threads has it from its chain), its G where the claims look it
 * up and its cards' marginals, by derivatives from F_j = f. 0, or -1 when
 * they do not fit. */
int deriv_block(const Plan *pl, int j, const Table *f, Table *nf, LitU192 *g,
                LitU192 (*mass)[LIT_MAX_PLAYERS], LitWork spare, LitWork w, LitOdds *odds);

/* ---- side.c ---- */

/* Whether block j's G and marginals should come by derivatives from F_j of
 * f states. */
int side_deriv_pays(const Plan *pl, int j, uint32_t f);

/* Whether G of block j + 1 should come from F_j (f states), ahead, with
 * next_f states in F_{j+1}. */
int side_ahead_pays(const Plan *pl, int j, uint32_t f, uint32_t next_f);

/* g = G of block j (stepped) from F_j = f, directly or behind. 0, or -1
 * when w cannot hold the lists. */
int side_block(const Plan *pl, int j, const Table *f, LitU192 *g, LitWork spare, LitWork w,
               LitOdds *odds);

/* G of block j + 1 from F_j = f, ahead, into g: 1 when it is there, 0 when
 * it did not fit. */
int side_ahead(const Plan *pl, int j, const Table *f, LitU192 *g, LitWork past_f,
               LitWork past_nf);

/* ---- prune.c ---- */

/* Pruning pays where the layers' bound of states times the blocks' work a
 * state is more than PRUNE_PAYS times the bitsets' passes (a card's
 * fields, each a pass over the words of a dense index's bits, a word's
 * pass weighed as a unit: 8 was too many to prune the slowest positions of
 * bench/corpus/8, 1/4 no better than 1). */
enum { PRUNE_PAYS = 1 };

/* pl->low and pl->least, under INFER_PRUNE (else every one 0). */
void prune_least(Plan *pl);

/* pl->re, in w, under INFER_PRUNE with dense layers where it pays (or
 * always under INFER_STEPS_ALWAYS); else every re.at NULL. 0, or -1 when
 * w cannot hold the bits. */
int prune_plan(Plan *pl, LitWork *w);

/* For block j's card steps back from layer j + 1: keep[k] the states a
 * table holding k of its cards may keep (0 < k < its cards; NULL at 0 and
 * the cards), in w; keep, or NULL where the layers are not pruned or w is
 * too small. */
const uint64_t *const *prune_within(const Plan *pl, int j, const uint64_t **keep, LitWork *w);

/* For block j's card steps from a table on one side of it: keep[k] the
 * states of a table holding that table's vectors and k of block j's cards
 * that other's states (on the far side) complete with block extra's cards
 * (none when extra is -1) and block j's other cards. The next F from F_j
 * (other: the layer after j), G behind (block j + 1's steps from F_j;
 * other: the layer after j + 2, extra j) and G ahead (block j's steps from
 * the layer after j + 1; other: F_j, extra j + 1). NULL where the layers
 * are not pruned or w is too small. */
const uint64_t *const *prune_masks(const Plan *pl, const Table *other, int extra, int j,
                                   const uint64_t **keep, LitWork *w);

/* table_keep of layer j by what the blocks before it may give (none
 * where the layers are not pruned). */
uint32_t prune_layer(const Plan *pl, int j, Table *t);

/* ---- plan.c ---- */

/* The work a plan of k may do (docs/DEDUCTION.md "The state budget"):
 * LIT_ODDS_BUDGET at 10 and 12 players, no bound at 4 to 8. */
uint64_t plan_budget(const LitKnow *k);

/* Builds the plan of k in w, spending at most budget of work (the plan's
 * budget field then holds what is left): PLAN_OK, PLAN_NONE when no deal
 * fits (the plan is then incomplete), PLAN_OVER when w is too small or
 * PLAN_BUDGET when the work went past budget. With lists, every block
 * also keeps its placements grouped by vector (for sampling); how says
 * which techniques the program may use (infer_odds). */
int plan_build(Plan *pl, const LitKnow *k, LitWork *w, int lists, unsigned how, uint64_t budget);

/* plan_build in two: all but the backward layers (PLAN_OK or PLAN_OVER;
 * what the layers need in *free_vectors), then those layers, from the
 * last down (each announced to pl->made when it is set), and the count. */
int plan_start(Plan *pl, const LitKnow *k, LitWork *w, int lists, unsigned how, uint64_t budget,
               uint64_t *free_vectors);
int plan_finish(Plan *pl, uint64_t free_vectors, LitWork *w);

/* After plan_start, a bound on the backward layers' work (units of
 * LIT_ODDS_BUDGET): each layer's states bounded by its vectors within the
 * slots and by what the blocks before it may reach. */
uint64_t plan_back_bound(const Plan *pl);

/* ---- figures.c ---- */

/* What the plan says before the sweep into odds: its counters, and no
 * likeliest placement yet. */
void odds_start(const Plan *pl, LitOdds *odds);

/* The most vectors of a block (at least 1): what G takes. */
uint32_t block_vectors(const Plan *pl);

/* The next F from F_j = f by block j's card steps, each table within them
 * kept to what the layer after can complete; w for both. 0, or -1 when w
 * cannot hold them. */
int next_steps(const Plan *pl, const Table *f, int j, Table *nf, LitWork w);

/* Drops the states of the next F (block j's, by steps) that the layer
 * after cannot complete. */
void next_complete(const Plan *pl, int j, Table *nf);

/* Block b's marginals into mass from its G (g; derived: mass holds them
 * already, by derivatives), and G by vector into gv. */
void block_marginals(const Ctx *cx, const Block *b, const LitU192 *g, int derived, Table *gv,
                     LitU192 (*mass)[LIT_MAX_PLAYERS]);

/* The claim figures of block j's set into odds, from F_j = f and G by
 * vector (gv), scratch for the memo: 0, or -1 when it does not fit. */
int block_claims(const Plan *pl, const Table *f, const Table *gv, int j, LitWork scratch,
                 LitOdds *odds);

/* The claim figures of the sets with every card placed: certain. */
void placed_sets(const Plan *pl, LitOdds *odds);

/* The marginals as probabilities into odds, from the masses by card and
 * field and the placed cards. */
void marginals(const Plan *pl, LitU192 (*mass)[LIT_MAX_PLAYERS], LitOdds *odds);

/* ---- twin.c ---- */

/* twin_odds' answers but 0: the position does not go on two threads (the
 * plan is as plan_start left it), or it went part of the way and the
 * counting must start again on one thread. */
enum { TWIN_NO = -1, TWIN_AGAIN = 1 };

/* lit_odds on two threads with helper h, from the plan as plan_start left
 * it in w (docs/DEDUCTION.md "Two threads"): 0 with every figure in odds,
 * TWIN_NO or TWIN_AGAIN. */
int twin_odds(Plan *pl, LitHelper *h, uint64_t free_vectors, LitWork *w, LitOdds *odds);

#endif
