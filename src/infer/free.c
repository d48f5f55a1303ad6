/* free.c - free sets and the free cards (docs/DEDUCTION.md "Free sets"):
 * which sets are free, the spreads of exchangeable cards, the free cards
 * as the last layer, and the pool's marginals and the free sets' claim
 * figures (step 4 of lit_odds). */
#include "counting.h"

uint64_t free_unplaced(const LitKnow *k)
{
    uint64_t placed = 0;
    for (int s = 0; s < k->pub.rules.players; s++)
        placed |= k->held[s];
    return k->pub.live & ~placed;
}

unsigned free_sets_of(const LitKnow *k)
{
    int deck = k->pub.rules.deck, players = k->pub.rules.players;
    uint64_t unplaced = free_unplaced(k);
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

/* Ways to place `cards` distinct exchangeable cards so that every unit of
 * lay gets its count in r (cards! / prod r_u!) in one word: 1 with them in
 * *word, 0 when the counts do not sum to cards (no way), or 2 when they do
 * not fit a word. A product of binomials, C(cards left, what the unit
 * takes) unit by unit. */
static inline int spread_word(const Ctx *cx, const Layout *lay, uint64_t r, int cards,
                              uint64_t *word)
{
    uint64_t x = 1;
    int left = cards;
    for (int f = 0; f < lay->n; f++) {
        int n = unit_count(lay, r, f);
        if (n > left)
            return 0;
        if (n) {
            uint64_t hi;
            lit_u64_mul(x, cx->choose[left][n], &hi, &x);
            if (hi)
                return 2;
            left -= n;
        }
    }
    *word = x;
    return left == 0;
}

/* ... in full: 0 when the counts do not sum to cards. In one word while
 * they fit (most do), else a product in three, so nothing overflows on
 * the way. */
LitU192 free_spread_in(const Ctx *cx, const Layout *lay, uint64_t r, int cards)
{
    uint64_t word = 0;
    int got = spread_word(cx, lay, r, cards, &word);
    if (got < 2)
        return lit_u192(got ? word : 0);
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
LitU192 free_spread(const Ctx *cx, uint64_t r, int cards)
{
    return free_spread_in(cx, &cx->lay, r, cards);
}

/* a times free_spread(r, cards): by one word where the spread fits one (a
 * product of three words by one), else in full. */
static inline LitU192 spread_times(const Ctx *cx, const LitU192 *a, uint64_t r, int cards)
{
    uint64_t word = 0;
    int got = spread_word(cx, &cx->lay, r, cards, &word);
    if (got < 2)
        return got ? times(a, word) : lit_u192(0);
    LitU192 ways = free_spread(cx, r, cards), x;
    lit_u192_mul(&x, a, &ways);
    return x;
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
 * sum of F(w) free_spread(x_N) over the w with that x_T. Then the deals in which
 * q given free cards give the team's fields the vector v and the other free
 * cards go anywhere are
 *   sum over x_T of proj(x_T) C(free - q, |x_T| - q) free_spread(x_T - v),
 * a sum over the (few) team parts instead of over F, each part with its
 * number of cards |x_T|, in a list (the sum is taken once for every
 * vector of every free set's claims). free_odds makes it in its pass over
 * F. */
typedef struct Proj {
    Layout lay;     /* the team's fields alone */
    uint32_t n;
    uint64_t *x;    /* x_T */
    uint8_t *cards; /* |x_T| */
    LitU192 *val;   /* proj(x_T) */
} Proj;

/* The team's fields and a table for its projection, no larger than the
 * vectors over them can fill (the claims go over the whole of it once per
 * vector a team's seats get): 0, or -1 when w cannot hold it. */
static int project_begin(const Ctx *cx, const Table *f, unsigned team_seats, Proj *out,
                         Table *proj, uint64_t *mask, LitWork *w)
{
    uint64_t most = 1;
    unsigned units = 0;
    for (int s = 0; s < cx->players; s++)
        if (team_seats >> s & 1)
            units |= 1u << cx->lay.unit_of[s];
    memset(&out->lay, 0, sizeof out->lay);
    *mask = 0;
    for (unsigned m = units; m; m &= m - 1) {
        int u = lit_lsb(m);
        *mask |= (uint64_t)cx->lay.mask[u] << cx->lay.off[u];
        most *= (uint64_t)unit_count(&cx->lay, cx->slots, u) + 1;
        out->lay.off[out->lay.n] = cx->lay.off[u];
        out->lay.mask[out->lay.n++] = cx->lay.mask[u];
    }
    return table_new(proj, w, most < f->count ? most : f->count);
}

/* The projection's entries into lists: 0, or -1 when w cannot hold them. */
static int project_end(const Ctx *cx, const Table *proj, Proj *out, LitWork *w)
{
    out->n = 0;
    out->x = lit_work_take(w, sizeof(uint64_t) * proj->count);
    out->cards = lit_work_take(w, proj->count);
    out->val = lit_work_take(w, sizeof(LitU192) * proj->count);
    if (proj->count && (!out->x || !out->cards || !out->val))
        return -1;
    for (uint32_t i = 0; i < proj->cap; i++)
        if (slot_full(proj, i)) {
            out->x[out->n] = slot_vec(proj, i);
            out->cards[out->n] = (uint8_t)cards_in(cx, slot_vec(proj, i));
            out->val[out->n++] = val_get(proj, i);
        }
    return 0;
}

/* Deals of the fields in which the blocks gave some w (F) and q given free
 * cards gave the team's fields the vector v, from the projection. */
static LitU192 team_completions(const Ctx *cx, const Proj *proj, uint64_t v, int q)
{
    LitU192 sum = lit_u192(0);
    for (uint32_t e = 0; e < proj->n; e++) {
        uint64_t xt = proj->x[e];
        int n = proj->cards[e];
        if (n < q || !fits(cx->lay.guard, v, xt))
            continue;
        /* the spread over the team's fields (the others of xt - v are 0),
         * times the choice of its cards, in a word where they fit */
        uint64_t choose = cx->choose[cx->free - q][n - q], word = 0, hi = 1;
        int got = spread_word(cx, &proj->lay, xt - v, n - q, &word);
        if (got == 0)
            continue;
        if (got == 1)
            lit_u64_mul(word, choose, &hi, &word);
        LitU192 y;
        if (!hi) {
            y = times(&proj->val[e], word);
        } else {
            LitU192 ways = free_spread_in(cx, &proj->lay, xt - v, n - q);
            ways = times(&ways, choose);
            lit_u192_mul(&y, &proj->val[e], &ways);
        }
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

static void team_claim(const Ctx *cx, const Proj *proj, int t, int q, FreeClaim *fc)
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
            LitU192 fields = team_completions(cx, proj, fields_of(cx, v), q), x, each;
            LitU192 split = fields_splits(cx, v);
            lit_u192_mul(&each, &fields, &split);
            LitU192 ways = free_spread_in(cx, &cx->seats, v, q);
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
static void free_claims(const Ctx *cx, const Proj proj[2], int set, uint64_t unplaced,
                        const LitU192 *total, FreeClaim memo[2][LIT_MAX_SET_SIZE + 1],
                            LitOdds *odds)
{
    const LitKnow *k = cx->k;
    int deck = k->pub.rules.deck, players = cx->players, first = lit_set_first(deck, set);
    uint64_t m = lit_set_mask(deck, set);
    int q = lit_popcount(m & unplaced), team_of_placed = claims_team(k, m);
    for (int t = 0; t < 2; t++) {
        memset(odds->best[t][set], LIT_NOBODY, LIT_MAX_SET_SIZE);
        if (team_of_placed >= 0 && team_of_placed != t)
            continue;
        FreeClaim *fc = &memo[t][q];
        if (!fc->done)
            team_claim(cx, &proj[t], t, q, fc);
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

/* The fields free_fill goes down: each taken x = 0.. cards at a time (its
 * index moved by its stride), then the last takes what is left. Into a
 * dense table, the index's fields from the largest stride down and the one
 * it leaves out last: the vectors come in index order, every write just
 * past the one before. Into a hashed one, the fields in order. */
typedef struct Fill {
    Table *t;
    const Ctx *cx;
    int n, last;                         /* the fields gone down; the last (-1: none) */
    int field[LIT_MAX_PLAYERS];
    uint32_t stride[LIT_MAX_PLAYERS];    /* 0 when hashed */
} Fill;

static int fill_run(const Fill *fl, int depth, uint64_t v, uint32_t index, int left,
                    LitU192 ways)
{
    const Ctx *cx = fl->cx;
    if (depth == fl->n) {
        if (fl->last < 0 ? left != 0 : left > unit_count(&cx->lay, cx->slots, fl->last))
            return 0;
        if (fl->last >= 0)
            v += (uint64_t)left << cx->lay.off[fl->last];
        if (fl->t->dense) {
            add_dense(fl->t, index, v, &ways, fl->t->vw == 2);
            return 0;
        }
        return add_to(fl->t, v, &ways);
    }
    int f = fl->field[depth], cap = unit_count(&cx->lay, cx->slots, f);
    for (int x = 0; x <= cap && x <= left; x++) {
        LitU192 more = x ? times(&ways, cx->choose[left][x]) : ways;
        if (fill_run(fl, depth + 1, v + ((uint64_t)x << cx->lay.off[f]),
                     index + (uint32_t)x * fl->stride[depth], left - x, more))
            return -1;
    }
    return 0;
}

/* Every vector within the slots whose fields sum to cards, with the ways
 * to spread that many free cards so, added to t: the free cards as one
 * last layer. The ways are free_spread()'s product of binomials, C(cards
 * left, what the field takes) field by field, taken on the way down. */
int free_fill(Table *t, const Ctx *cx, int cards)
{
    const Layout *lay = &cx->lay;
    const Dense *d = t->dense;
    Fill fl = {t, cx, 0, -1, {0}, {0}};
    if (!d) {
        for (int f = 0; f + 1 < lay->n; f++)
            fl.field[fl.n++] = f;
        fl.last = lay->n - 1;
        return fill_run(&fl, 0, 0, 0, cards, lit_u192(1));
    }
    for (int i = d->n; i-- > 0;)
        for (int f = 0; f < lay->n; f++)
            if (lay->off[f] == d->off[i]) {
                fl.field[fl.n] = f;
                fl.stride[fl.n++] = d->stride[i];
            }
    /* the field the index leaves out: the one with room that is not a
     * digit (the others without room take nothing) */
    for (int f = 0; f < lay->n; f++) {
        int digit = 0;
        for (int i = 0; i < d->n; i++)
            digit |= lay->off[f] == d->off[i];
        if (!digit && unit_count(lay, cx->slots, f) > 0)
            fl.last = f;
    }
    return fill_run(&fl, 0, 0, 0, cards, lit_u192(1));
}

/* 4. The pool (the free sets' cards and the other free cards), from F
 * after every block: all its cards are alike. A card in field u leaves
 * the other free - 1 spread over the room left less one in u, which is
 * free_spread(left, free) r_u / free ways where the room left gives u r_u
 * (a multinomial less one card is the whole one times r_u / free): one
 * spread a state rather than one a field, and the division, which is
 * exact, once on the sums (each below free times the deals of the fields,
 * so within the 192 bits). */
int free_odds(const Plan *pl, const Table *f, LitWork spare, LitU192 (*mass)[LIT_MAX_PLAYERS],
              LitOdds *odds)
{
    const Ctx *cx = &pl->cx;
    const LitRules *r = &cx->k->pub.rules;
    int deck = r->deck, teams = pl->free_sets ? 2 : 0;
    uint64_t slots = cx->slots, mask[2];
    LitU192 free_mass[LIT_MAX_PLAYERS];
    FreeClaim memo[2][LIT_MAX_SET_SIZE + 1];
    memset(free_mass, 0, sizeof free_mass);
    memset(memo, 0, sizeof memo);
    Proj proj[2];
    Table table[2];
    for (int t = 0; t < teams; t++)
        if (project_begin(cx, f, lit_team_seats(r, t), &proj[t], &table[t], &mask[t], &spare))
            return -1;
    /* one pass over F: the pool's marginals, and F projected on each
     * team's fields */
    for (uint32_t i = 0; i < f->cap; i++) {
        if (!slot_full(f, i))
            continue;
        uint64_t left = slots - slot_vec(f, i);
        LitU192 a = val_get(f, i), x = spread_times(cx, &a, left, cx->free);
        for (int u = 0; u < cx->lay.n; u++) {
            int in_u = unit_count(&cx->lay, left, u);
            if (in_u) {
                LitU192 y = times(&x, (uint64_t)in_u);
                add_in(&free_mass[u], &y);
            }
        }
        for (int t = 0; t < teams; t++) {
            uint64_t xt = left & mask[t];
            LitU192 y = spread_times(cx, &a, left - xt, cx->free - cards_in(cx, xt));
            if (add_to(&table[t], xt, &y))
                return -1;
        }
    }
    for (int t = 0; t < teams; t++)
        if (project_end(cx, &table[t], &proj[t], &spare))
            return -1;
    for (int u = 0; u < cx->lay.n; u++)
        lit_u192_divmod_small(&free_mass[u], &free_mass[u], (uint32_t)cx->free);
    for (uint64_t x = pl->free_cards; x;) {
        int c = lit_pop_lsb(&x);
        for (int u = 0; u < cx->lay.n; u++)
            mass[c][u] = free_mass[u];
    }
    for (int set = 0; set < lit_deck_sets(deck); set++)
        if (pl->free_sets >> set & 1)
            free_claims(cx, proj, set, pl->unplaced, &pl->deals, memo, odds);
    return 0;
}
