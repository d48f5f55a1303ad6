/* notation.c - reading and writing game records (docs/NOTATION.md).
 *
 * The reader works a line at a time: tag pairs until the first move, then
 * one action per line. Tag values are kept as spans of the input until the
 * header ends, because cards and seats can only be read once the Rules tag
 * is known, wherever it stands in the header.
 */
#include "literature/notation.h"

#include <string.h>

#include "literature/status.h"
#include "utf8.h"

/* ---- writing ------------------------------------------------------------- */

typedef struct Out {
    char *buf;
    size_t cap, len;
    int full;
} Out;

static void put(Out *o, const char *s, size_t n)
{
    if (o->full || o->len + n + 1 > o->cap) {
        o->full = 1;
        return;
    }
    memcpy(o->buf + o->len, s, n);
    o->len += n;
}

static void puts_(Out *o, const char *s)
{
    put(o, s, strlen(s));
}

static void put_uint(Out *o, uint64_t v)
{
    char tmp[24];
    int n = 0;
    do {
        tmp[sizeof tmp - 1 - (size_t)n++] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    put(o, tmp + sizeof tmp - (size_t)n, (size_t)n);
}

static void put_int(Out *o, int v)
{
    if (v < 0) {
        put(o, "-", 1);
        put_uint(o, (uint64_t)(-(int64_t)v));
    } else {
        put_uint(o, (uint64_t)v);
    }
}

static void put_tag(Out *o, const char *name, int index, const char *value)
{
    puts_(o, "[");
    puts_(o, name);
    if (index)
        put_int(o, index);
    puts_(o, " \"");
    for (const char *p = value; *p; p++) {
        if (*p == '"' || *p == '\\')
            put(o, "\\", 1);
        put(o, p, 1);
    }
    puts_(o, "\"]\n");
}

static void put_hand(Out *o, int deck, uint64_t hand)
{
    for (int first = 1; hand; first = 0) {
        if (!first)
            put(o, " ", 1);
        puts_(o, lit_card_name(deck, lit_pop_lsb(&hand)));
    }
}

/* " S:c,c S:c" for the positions of a set whose seat in seats[] is s, for
 * every seat in order; positions where skip[pos] is set are left out. */
static void put_groups(Out *o, const LitRules *r, int set,
                       const uint8_t seats[LIT_MAX_SET_SIZE],
                       const uint8_t skip[LIT_MAX_SET_SIZE])
{
    int deck = r->deck, size = lit_deck_set_size(deck);
    for (int s = 0; s < r->players; s++) {
        int n = 0;
        for (int i = 0; i < size; i++) {
            if (seats[i] != s || skip[i])
                continue;
            if (n++ == 0) {
                put(o, " ", 1);
                put_int(o, s + 1);
                put(o, ":", 1);
            } else {
                put(o, ",", 1);
            }
            puts_(o, lit_card_name(deck, lit_set_first(deck, set) + i));
        }
    }
}

static void put_event(Out *o, const LitRules *r, const LitEvent *e, int n)
{
    const LitAction *a = &e->action;
    if (n > 0) {
        put_int(o, n);
        puts_(o, ". ");
    }
    put_int(o, a->seat + 1);
    switch (a->kind) {
    case LIT_ASK:
        puts_(o, " asks ");
        put_int(o, a->target + 1);
        puts_(o, " for ");
        puts_(o, lit_card_name(r->deck, a->card));
        if (e->answer != LIT_UNKNOWN) {
            puts_(o, ": ");
            puts_(o, lit_answer_name(e->answer));
        }
        break;
    case LIT_CLAIM: {
        uint8_t none[LIT_MAX_SET_SIZE] = {0}, same[LIT_MAX_SET_SIZE];
        int size = lit_deck_set_size(r->deck), wrong = 0;
        puts_(o, " claims ");
        puts_(o, lit_set_name(r->deck, a->set));
        put_groups(o, r, a->set, a->holders, none);
        if (e->answer == LIT_UNKNOWN)
            break;
        puts_(o, " ");
        puts_(o, lit_answer_name(e->answer));
        for (int i = 0; i < LIT_MAX_SET_SIZE; i++) {
            same[i] = (uint8_t)(i >= size || e->truth[i] == a->holders[i] ||
                                e->truth[i] == LIT_NOBODY);
            wrong += !same[i];
        }
        if (wrong) {
            puts_(o, " (");
            size_t mark = o->len;
            put_groups(o, r, a->set, e->truth, same);
            /* put_groups starts every group with a space: drop the first. */
            if (!o->full && o->len > mark) {
                memmove(o->buf + mark, o->buf + mark + 1, o->len - mark - 1);
                o->len--;
            }
            puts_(o, ")");
        }
        break;
    }
    case LIT_PASS:
        puts_(o, " passes to ");
        put_int(o, a->target + 1);
        break;
    default:
        puts_(o, " chooses ");
        put_int(o, a->target + 1);
        break;
    }
}

int lit_event_format(const LitRules *rules, const LitEvent *event, int n,
                     char *buf, size_t cap)
{
    Out o = {buf, cap, 0, 0};
    if (cap == 0)
        return LIT_NO_SPACE;
    put_event(&o, rules, event, n);
    if (o.full)
        return LIT_NO_SPACE;
    buf[o.len] = 0;
    return (int)o.len;
}

/* " ; " and the mark, as one comment on the line: its first LIT_MARK_MAX
 * bytes (whole characters), each control character or byte of no UTF-8
 * character '?'. */
static void put_mark(Out *o, const char *mark)
{
    const unsigned char *p = (const unsigned char *)mark, *end = p + strlen(mark);
    const unsigned char *stop = end - p > LIT_MARK_MAX ? p + LIT_MARK_MAX : end;
    puts_(o, " ; ");
    while (p < stop) {
        const unsigned char *at = p;
        long cp = next_code_point(&p, end);
        if (p > stop)
            break; /* a character the cut would split */
        if (cp < 0 || is_control(cp)) {
            put(o, "?", 1);
            p = at + 1;
        } else {
            put(o, (const char *)at, (size_t)(p - at));
        }
    }
}

int lit_record_format(const LitRecord *rec, char *buf, size_t cap)
{
    Out o = {buf, cap, 0, 0};
    char rules[LIT_RULES_TEXT_MAX];
    const LitRules *r = &rec->rules;
    if (cap == 0)
        return LIT_NO_SPACE;
    if (lit_rules_format(r, rules, sizeof rules) < 0)
        return LIT_BAD_RULE_VALUE;
    if (rec->event[0])
        put_tag(&o, "Event", 0, rec->event);
    if (rec->site[0])
        put_tag(&o, "Site", 0, rec->site);
    if (rec->date[0])
        put_tag(&o, "Date", 0, rec->date);
    put_tag(&o, "Rules", 0, rules);
    puts_(&o, "[Dealer \"");
    put_int(&o, rec->dealer + 1);
    puts_(&o, "\"]\n");
    if (rec->has_seed) {
        puts_(&o, "[Seed \"");
        put_uint(&o, rec->seed);
        puts_(&o, "\"]\n");
    }
    for (int s = 0; s < r->players; s++)
        if (rec->names[s][0])
            put_tag(&o, "Name", s + 1, rec->names[s]);
    for (int s = 0; rec->has_deal && s < r->players; s++) {
        puts_(&o, "[Hand");
        put_int(&o, s + 1);
        puts_(&o, " \"");
        put_hand(&o, r->deck, rec->hands[s]);
        puts_(&o, "\"]\n");
    }
    if (rec->has_result)
        put_tag(&o, "Result", 0, lit_result_name(rec->result));
    if (rec->has_score) {
        puts_(&o, "[Score \"");
        put_int(&o, rec->score[0]);
        puts_(&o, "-");
        put_int(&o, rec->score[1]);
        puts_(&o, "\"]\n");
    }
    if (rec->n_events)
        puts_(&o, "\n");
    for (uint32_t i = 0; i < rec->n_events; i++) {
        put_event(&o, r, &rec->events[i], (int)i + 1);
        if (rec->marks && rec->marks[i] && rec->marks[i][0])
            put_mark(&o, rec->marks[i]);
        puts_(&o, "\n");
    }
    if (o.full)
        return LIT_NO_SPACE;
    buf[o.len] = 0;
    return (int)o.len;
}

/* ---- reading ------------------------------------------------------------- */

enum {
    TAG_EVENT, TAG_SITE, TAG_DATE, TAG_RULES, TAG_DEALER, TAG_SEED,
    TAG_RESULT, TAG_SCORE, TAG_NAME, TAG_HAND = TAG_NAME + LIT_MAX_PLAYERS,
    TAGS = TAG_HAND + LIT_MAX_PLAYERS
};

static const char *const tag_names[TAG_NAME] = {
    "Event", "Site", "Date", "Rules", "Dealer", "Seed", "Result", "Score"};

typedef struct Span {
    const char *p;   /* the raw value, escapes included */
    size_t len;
    uint32_t line;   /* 0: not given */
} Span;

typedef struct Parser {
    LitRecord *rec;
    Span tags[TAGS];
    uint32_t line;
    int status;
    char missing[8]; /* LitParseError.tag */
} Parser;

static int fail(Parser *ps, int status)
{
    ps->status = status;
    return status;
}

/* LIT_MISSING_TAG for the tag `name` (with seat number s + 1 if s >= 0). */
static int fail_missing(Parser *ps, const char *name, int s)
{
    size_t n = strlen(name); /* "Dealer", or "Hand" and at most two digits */
    memcpy(ps->missing, name, n);
    if (s >= 9)
        ps->missing[n++] = (char)('0' + (s + 1) / 10);
    if (s >= 0)
        ps->missing[n++] = (char)('0' + (s + 1) % 10);
    ps->missing[n] = '\0';
    return fail(ps, LIT_MISSING_TAG);
}

static int is_space(char c)
{
    return c == ' ' || c == '\t';
}

static int is_digit(char c)
{
    return c >= '0' && c <= '9';
}

static int is_word(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || is_digit(c) ||
           c == '-';
}

/* Unescapes a tag value into out (cap bytes with the 0): LIT_TOO_LONG. */
static int unescape(const Span *v, char *out, size_t cap, size_t *len)
{
    size_t n = 0;
    for (size_t i = 0; i < v->len; i++) {
        char c = v->p[i];
        if (c == '\\')
            c = v->p[++i]; /* the reader checked every \ escapes " or \ */
        if (n + 1 >= cap)
            return LIT_TOO_LONG;
        out[n++] = c;
    }
    out[n] = 0;
    *len = n;
    return LIT_OK;
}

/* Reads an unsigned decimal number of at most max from s[0 .. len). */
static int read_number(const char *s, size_t len, uint64_t max, uint64_t *v)
{
    uint64_t x = 0;
    if (len == 0 || len > 20 || (len > 1 && s[0] == '0'))
        return LIT_BAD_TAG_VALUE;
    for (size_t i = 0; i < len; i++) {
        if (!is_digit(s[i]))
            return LIT_BAD_TAG_VALUE;
        uint64_t d = (uint64_t)(s[i] - '0');
        if (x > (UINT64_MAX - d) / 10)
            return LIT_BAD_TAG_VALUE;
        x = x * 10 + d;
    }
    if (x > max)
        return LIT_BAD_TAG_VALUE;
    *v = x;
    return LIT_OK;
}

/* One header line: [Name "value"] with an optional comment after it. */
static int parse_tag(Parser *ps, const char *p, const char *end)
{
    p++; /* '[' */
    const char *name = p;
    while (p < end && ((*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z') ||
                       is_digit(*p)))
        p++;
    size_t nlen = (size_t)(p - name);
    if (nlen == 0 || p >= end || !is_space(*p))
        return fail(ps, LIT_SYNTAX);
    while (p < end && is_space(*p))
        p++;
    if (p >= end || *p != '"')
        return fail(ps, LIT_SYNTAX);
    const char *value = ++p;
    while (p < end && *p != '"') {
        if (*p == '\\') {
            if (p + 1 >= end || (p[1] != '"' && p[1] != '\\'))
                return fail(ps, LIT_SYNTAX);
            p++;
        }
        p++;
    }
    if (p >= end)
        return fail(ps, LIT_SYNTAX);
    size_t vlen = (size_t)(p - value);
    p++;
    if (p >= end || *p != ']')
        return fail(ps, LIT_SYNTAX);
    for (p++; p < end && is_space(*p); p++)
        ;
    if (p < end && *p != ';')
        return fail(ps, LIT_SYNTAX);

    int tag = -1;
    for (int i = 0; i < TAG_NAME; i++)
        if (strlen(tag_names[i]) == nlen && memcmp(tag_names[i], name, nlen) == 0)
            tag = i;
    if (tag < 0) {
        int base = -1;
        size_t plen = 0;
        if (nlen > 4 && memcmp(name, "Name", 4) == 0)
            base = TAG_NAME, plen = 4;
        else if (nlen > 4 && memcmp(name, "Hand", 4) == 0)
            base = TAG_HAND, plen = 4;
        uint64_t seat;
        if (base < 0 ||
            read_number(name + plen, nlen - plen, LIT_MAX_PLAYERS, &seat) != LIT_OK ||
            seat == 0)
            return fail(ps, LIT_UNKNOWN_TAG);
        tag = base + (int)seat - 1;
    }
    if (ps->tags[tag].line)
        return fail(ps, LIT_DUPLICATE_TAG);
    ps->tags[tag] = (Span){value, vlen, ps->line};
    return LIT_OK;
}

/* Reads the value of a tag that is a name or free text (Event, Site,
 * Date): what is wrong with it is bad_name, or bad_tag_value for the text. */
static int read_text(Parser *ps, const Span *v, char *out, size_t max, int status)
{
    char tmp[LIT_LINE_MAX];
    size_t len;
    ps->line = v->line;
    if (unescape(v, tmp, sizeof tmp, &len) != LIT_OK ||
        lit_name_check(tmp, len, max) != LIT_OK)
        return fail(ps, status);
    memcpy(out, tmp, len + 1);
    return LIT_OK;
}

static int read_score_part(const char **p, const char *end, int16_t *out)
{
    int neg = 0;
    uint64_t v = 0;
    if (*p < end && **p == '-') {
        neg = 1;
        (*p)++;
    }
    const char *start = *p;
    while (*p < end && is_digit(**p))
        (*p)++;
    if (read_number(start, (size_t)(*p - start), neg ? 32768 : INT16_MAX, &v) != LIT_OK)
        return LIT_BAD_TAG_VALUE;
    *out = (int16_t)(neg ? -(int32_t)v : (int32_t)v);
    return LIT_OK;
}

/* Interprets the header once it has ended at line `end_line`. */
static int finish_header(Parser *ps, uint32_t end_line)
{
    LitRecord *rec = ps->rec;
    char tmp[LIT_LINE_MAX];
    size_t len;
    uint64_t v;
    Span *t = ps->tags;

    ps->line = end_line;
    if (!t[TAG_RULES].line || !t[TAG_DEALER].line)
        return fail_missing(ps, t[TAG_RULES].line ? "Dealer" : "Rules", -1);
    ps->line = t[TAG_RULES].line;
    if (unescape(&t[TAG_RULES], tmp, sizeof tmp, &len) != LIT_OK)
        return fail(ps, LIT_TOO_LONG);
    int st = lit_rules_parse(&rec->rules, tmp, NULL);
    if (st != LIT_OK)
        return fail(ps, st);
    int players = rec->rules.players, deck = rec->rules.deck;

    ps->line = t[TAG_DEALER].line;
    if (read_number(t[TAG_DEALER].p, t[TAG_DEALER].len, (uint64_t)players, &v) != LIT_OK ||
        v == 0)
        return fail(ps, LIT_BAD_TAG_VALUE);
    rec->dealer = (uint8_t)(v - 1);

    if (t[TAG_SEED].line) {
        ps->line = t[TAG_SEED].line;
        if (read_number(t[TAG_SEED].p, t[TAG_SEED].len, UINT64_MAX, &rec->seed) != LIT_OK)
            return fail(ps, LIT_BAD_TAG_VALUE);
        rec->has_seed = 1;
    }
    if (t[TAG_EVENT].line && read_text(ps, &t[TAG_EVENT], rec->event, LIT_TEXT_MAX, LIT_BAD_TAG_VALUE))
        return ps->status;
    if (t[TAG_SITE].line && read_text(ps, &t[TAG_SITE], rec->site, LIT_TEXT_MAX, LIT_BAD_TAG_VALUE))
        return ps->status;
    if (t[TAG_DATE].line && read_text(ps, &t[TAG_DATE], rec->date, LIT_TEXT_MAX, LIT_BAD_TAG_VALUE))
        return ps->status;

    int hands = 0;
    for (int s = 0; s < LIT_MAX_PLAYERS; s++) {
        const Span *name = &t[TAG_NAME + s], *hand = &t[TAG_HAND + s];
        if ((name->line || hand->line) && s >= players) {
            ps->line = name->line ? name->line : hand->line;
            return fail(ps, LIT_BAD_SEAT);
        }
        if (name->line && read_text(ps, name, rec->names[s], LIT_NAME_MAX, LIT_BAD_NAME))
            return ps->status;
        hands += hand->line != 0;
    }
    if (hands) {
        for (int s = 0; s < players; s++) {
            const Span *hand = &t[TAG_HAND + s];
            if (!hand->line) {
                ps->line = end_line;
                return fail_missing(ps, "Hand", s);
            }
            ps->line = hand->line;
            const char *p = hand->p, *end = p + hand->len;
            uint64_t cards = 0;
            for (;;) {
                while (p < end && is_space(*p))
                    p++;
                if (p >= end)
                    break;
                const char *w = p;
                while (p < end && !is_space(*p))
                    p++;
                int card = lit_card_parse(deck, w, (size_t)(p - w));
                if (card < 0)
                    return fail(ps, LIT_BAD_CARD);
                if (cards & lit_bit(card))
                    return fail(ps, LIT_BAD_DEAL);
                cards |= lit_bit(card);
            }
            rec->hands[s] = cards;
        }
        rec->has_deal = 1;
        rec->deal_line = t[TAG_HAND].line;
    }
    if (t[TAG_SEED].line && !rec->deal_line)
        rec->deal_line = t[TAG_SEED].line;

    if (t[TAG_RESULT].line) {
        ps->line = t[TAG_RESULT].line;
        rec->result_line = ps->line;
        int found = 0;
        for (int res = LIT_ONGOING; res <= LIT_ABORTED; res++) {
            const char *name = lit_result_name(res);
            if (strlen(name) == t[TAG_RESULT].len &&
                memcmp(name, t[TAG_RESULT].p, t[TAG_RESULT].len) == 0) {
                rec->result = (uint8_t)res;
                found = 1;
            }
        }
        if (!found)
            return fail(ps, LIT_BAD_TAG_VALUE);
        rec->has_result = 1;
    }
    if (t[TAG_SCORE].line) {
        const char *p = t[TAG_SCORE].p, *end = p + t[TAG_SCORE].len;
        ps->line = t[TAG_SCORE].line;
        rec->score_line = ps->line;
        if (read_score_part(&p, end, &rec->score[0]) != LIT_OK || p >= end ||
            *p++ != '-' || read_score_part(&p, end, &rec->score[1]) != LIT_OK ||
            p != end)
            return fail(ps, LIT_BAD_TAG_VALUE);
        rec->has_score = 1;
    }
    return LIT_OK;
}

typedef struct Cur {
    const char *p, *end;
} Cur;

static void skip(Cur *c)
{
    while (c->p < c->end && is_space(*c->p))
        c->p++;
}

/* The next word (letters, digits, '-'), after spaces; empty at the end. */
static size_t word(Cur *c, const char **w)
{
    skip(c);
    *w = c->p;
    while (c->p < c->end && is_word(*c->p))
        c->p++;
    return (size_t)(c->p - *w);
}

static int word_is(const char *w, size_t len, const char *s)
{
    return strlen(s) == len && memcmp(w, s, len) == 0;
}

/* A seat number 1..players; returns the 0-based seat or an error. */
static int seat_of(const char *w, size_t len, int players)
{
    uint64_t v;
    if (len == 0 || !is_digit(w[0]))
        return LIT_SYNTAX;
    if (read_number(w, len, 99, &v) != LIT_OK || v == 0 || v > (uint64_t)players)
        return LIT_BAD_SEAT;
    return (int)v - 1;
}

/* Groups "S:c,c S:c" of a claim into seats[pos]; stops at a word that does
 * not start with a digit. seen marks positions already given. */
static int read_groups(Cur *c, const LitRules *r, int set,
                       uint8_t seats[LIT_MAX_SET_SIZE], unsigned *seen)
{
    int deck = r->deck;
    for (;;) {
        skip(c);
        if (c->p >= c->end || !is_digit(*c->p))
            return LIT_OK;
        const char *w = c->p;
        while (c->p < c->end && is_digit(*c->p))
            c->p++;
        int seat = seat_of(w, (size_t)(c->p - w), r->players);
        if (seat < 0)
            return seat;
        if (c->p >= c->end || *c->p != ':')
            return LIT_SYNTAX;
        do {
            c->p++; /* ':' or ',' */
            w = c->p;
            while (c->p < c->end && is_word(*c->p))
                c->p++;
            int card = lit_card_parse(deck, w, (size_t)(c->p - w));
            if (card < 0)
                return card;
            if (lit_set_of(deck, card) != set)
                return LIT_BAD_CLAIM_CARDS;
            int pos = lit_pos_of(deck, card);
            if (*seen & (1u << pos))
                return LIT_BAD_CLAIM_CARDS;
            *seen |= 1u << pos;
            seats[pos] = (uint8_t)seat;
        } while (c->p < c->end && *c->p == ',');
    }
}

/* The move's number "N." if it is written (it must be the next one); *n and
 * *w are then the word after it. */
static int read_number_prefix(Cur *c, uint32_t next, const char **w, size_t *n)
{
    if (c->p >= c->end || *c->p != '.')
        return LIT_OK;
    uint64_t v;
    c->p++;
    for (size_t i = 0; i < *n; i++)
        if (!is_digit((*w)[i]))
            return LIT_SYNTAX;
    if (*n == 0)
        return LIT_SYNTAX;
    if (read_number(*w, *n, UINT32_MAX, &v) != LIT_OK || v != next)
        return LIT_BAD_MOVE_NUMBER;
    *n = word(c, w);
    return LIT_OK;
}

/* "asks T for CARD", then ": hit" or ": miss" if the answer is written. */
static int read_ask(Cur *c, const LitRules *r, LitEvent *e)
{
    const char *w;
    size_t n = word(c, &w);
    int st;
    e->action.kind = LIT_ASK;
    if ((st = seat_of(w, n, r->players)) < 0)
        return st;
    e->action.target = (uint8_t)st;
    n = word(c, &w);
    if (!word_is(w, n, "for"))
        return LIT_SYNTAX;
    n = word(c, &w);
    if (n == 0)
        return LIT_SYNTAX;
    if ((st = lit_card_parse(r->deck, w, n)) < 0)
        return st;
    e->action.card = (uint8_t)st;
    skip(c);
    if (c->p < c->end && *c->p == ':') {
        c->p++;
        n = word(c, &w);
        if (word_is(w, n, "hit"))
            e->answer = LIT_HIT;
        else if (word_is(w, n, "miss"))
            e->answer = LIT_MISS;
        else
            return LIT_SYNTAX;
    }
    return LIT_OK;
}

/* "claims SET S:c,c S:c", then the outcome if it is written, and after it
 * "(S:c ...)" where the cards truly were, if not where the claim put them. */
static int read_claim(Cur *c, const LitRules *r, LitEvent *e)
{
    unsigned seen = 0, size = (unsigned)lit_deck_set_size(r->deck);
    const char *w;
    size_t n = word(c, &w);
    int st;
    e->action.kind = LIT_CLAIM;
    if (n == 0)
        return LIT_SYNTAX;
    if ((st = lit_set_parse(r->deck, w, n)) < 0)
        return st;
    e->action.set = (uint8_t)st;
    if ((st = read_groups(c, r, e->action.set, e->action.holders, &seen)) < 0)
        return st;
    /* A card left out is the rules' matter, not the form's: its holder is
     * LIT_NOBODY, and the referee refuses the claim (claim_incomplete), as
     * it does one sent over the protocol. */
    n = word(c, &w);
    if (n == 0)
        return LIT_OK;
    int answer = 0;
    for (int a = LIT_WON; a <= LIT_POINT_OFF; a++)
        if (word_is(w, n, lit_answer_name(a)))
            answer = a;
    if (!answer)
        return LIT_SYNTAX;
    e->answer = (uint8_t)answer;
    memcpy(e->truth, e->action.holders, size);
    skip(c);
    if (c->p < c->end && *c->p == '(') {
        unsigned fixed = 0;
        c->p++;
        if ((st = read_groups(c, r, e->action.set, e->truth, &fixed)) < 0)
            return st;
        skip(c);
        if (c->p >= c->end || *c->p != ')')
            return LIT_SYNTAX;
        c->p++;
    }
    return LIT_OK;
}

/* "passes to T" or "chooses T" (verb is the word already read). */
static int read_pass_or_choice(Cur *c, const LitRules *r, const char *verb, LitEvent *e)
{
    const char *w;
    size_t n;
    int st;
    e->action.kind = verb[0] == 'p' ? LIT_PASS : LIT_CHOOSE;
    if (e->action.kind == LIT_PASS) {
        n = word(c, &w);
        if (!word_is(w, n, "to"))
            return LIT_SYNTAX;
    }
    n = word(c, &w);
    if ((st = seat_of(w, n, r->players)) < 0)
        return st;
    e->action.target = (uint8_t)st;
    return LIT_OK;
}

/* One move line: "[N.] S asks|claims|passes|chooses ...", nothing after. */
static int parse_move(Parser *ps, const char *p, const char *end)
{
    LitRecord *rec = ps->rec;
    const LitRules *r = &rec->rules;
    Cur c = {p, end};
    const char *w;
    size_t n;
    LitEvent e;
    memset(&e, 0, sizeof e);
    e.action = lit_action_make(0, 0);
    memset(e.truth, LIT_NOBODY, sizeof e.truth);

    if (rec->n_events >= rec->cap || rec->n_events >= LIT_RECORD_MAX_EVENTS)
        return fail(ps, LIT_TOO_LONG);
    n = word(&c, &w);
    int st = read_number_prefix(&c, rec->n_events + 1, &w, &n);
    if (st < 0)
        return fail(ps, st);
    if ((st = seat_of(w, n, r->players)) < 0)
        return fail(ps, st);
    e.action.seat = (uint8_t)st;
    n = word(&c, &w);
    if (word_is(w, n, "asks"))
        st = read_ask(&c, r, &e);
    else if (word_is(w, n, "claims"))
        st = read_claim(&c, r, &e);
    else if (word_is(w, n, "passes") || word_is(w, n, "chooses"))
        st = read_pass_or_choice(&c, r, w, &e);
    else
        st = LIT_SYNTAX;
    if (st < 0)
        return fail(ps, st);
    skip(&c);
    if (c.p != c.end)
        return fail(ps, LIT_SYNTAX);
    if (rec->lines)
        rec->lines[rec->n_events] = ps->line;
    rec->events[rec->n_events++] = e;
    return LIT_OK;
}

int lit_move_parse(const LitRules *rules, const char *s, size_t len, LitEvent *out)
{
    LitRecord rec;
    LitEvent ev;
    Parser ps;
    lit_record_init(&rec, &ev, NULL, 1);
    rec.rules = *rules;
    memset(&ps, 0, sizeof ps);
    ps.rec = &rec;
    if (len > LIT_LINE_MAX)
        return LIT_TOO_LONG;
    for (size_t i = 0; i < len; i++)
        if (s[i] == '\n' || s[i] == '\r' || s[i] == 0)
            return LIT_SYNTAX;
    int st = parse_move(&ps, s, s + len);
    if (st != LIT_OK)
        return st;
    *out = ev;
    return LIT_OK;
}

void lit_record_init(LitRecord *rec, LitEvent *events, uint32_t *lines,
                     uint32_t cap)
{
    memset(rec, 0, sizeof *rec);
    lit_rules_default(&rec->rules);
    rec->events = events;
    rec->lines = lines;
    rec->cap = cap;
}

/* Who chose an action, by the comment after its line (p .. end, after the
 * ';'): LitBy. */
static int by_of(const char *p, const char *end)
{
    static const char *const words[LIT_BY_KINDS] = {
        [LIT_BY_TIMEOUT] = "timeout:", [LIT_BY_AWAY] = "away:", [LIT_BY_FALLBACK] = "fallback:"};
    while (p < end && is_space(*p))
        p++;
    for (int k = LIT_BY_SEAT + 1; k < LIT_BY_KINDS; k++) {
        size_t n = strlen(words[k]);
        if ((size_t)(end - p) >= n && memcmp(p, words[k], n) == 0)
            return k;
    }
    return LIT_BY_SEAT;
}

/* The header ends at the first move line (the parser's line): checked
 * whole, and what follows is the moves (*moves 1, the line kept for the
 * move's own errors). LIT_OK, or finish_header's status. */
static int end_header(Parser *ps, int *header, int *moves)
{
    uint32_t here = ps->line;
    *header = 0;
    int st = finish_header(ps, here);
    if (st == LIT_OK) {
        *moves = 1;
        ps->line = here;
    }
    return st;
}

int lit_record_parse(LitRecord *rec, const char *text, size_t len,
                     LitParseError *err)
{
    Parser ps;
    memset(&ps, 0, sizeof ps);
    uint8_t *by = rec->by;
    lit_record_init(rec, rec->events, rec->lines, rec->cap);
    rec->by = by;
    ps.rec = rec;
    int header = 1, moves = 0, st = LIT_OK; /* moves: the header read whole */
    const char *p = text, *end = text + len;
    if (len > LIT_RECORD_TEXT_MAX) {
        ps.line = 1;
        st = fail(&ps, LIT_TOO_LONG);
    }
    while (st == LIT_OK && p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *q = p, *e = nl ? nl : end;
        ps.line++;
        p = nl ? nl + 1 : end;
        if (e > q && e[-1] == '\r')
            e--;
        size_t n = (size_t)(e - q);
        int bad = n > LIT_LINE_MAX ? LIT_TOO_LONG : memchr(q, 0, n) ? LIT_SYNTAX : LIT_OK;
        if (bad != LIT_OK) {
            /* on the first move line, the header before it is whole: what
             * reads on (a trace) has it */
            const char *f = q;
            while (f < e && is_space(*f))
                f++;
            if (header && f < e && *f != '[' && *f != ';' &&
                (st = end_header(&ps, &header, &moves)) != LIT_OK)
                break;
            st = fail(&ps, bad);
            break;
        }
        /* A UTF-8 byte-order mark before the first line is ignored. */
        if (ps.line == 1 && n >= 3 && memcmp(q, "\xEF\xBB\xBF", 3) == 0)
            q += 3;
        while (q < e && is_space(*q))
            q++;
        if (q < e && *q == '[') {
            if (!header) {
                st = fail(&ps, LIT_SYNTAX);
                break;
            }
            st = parse_tag(&ps, q, e);
            continue;
        }
        const char *semi = q < e ? memchr(q, ';', (size_t)(e - q)) : NULL, *line_end = e;
        if (semi)
            e = semi;
        while (e > q && is_space(e[-1]))
            e--;
        if (q == e)
            continue;
        if (header && (st = end_header(&ps, &header, &moves)) != LIT_OK)
            break;
        st = parse_move(&ps, q, e);
        if (st == LIT_OK && rec->by)
            rec->by[rec->n_events - 1] = (uint8_t)(semi ? by_of(semi + 1, line_end) : LIT_BY_SEAT);
    }
    if (st == LIT_OK && header)
        st = finish_header(&ps, ps.line ? ps.line : 1);
    if (err) {
        err->status = st;
        err->line = st == LIT_OK ? 0 : ps.line;
        err->moves = st != LIT_OK && moves;
        memset(err->tag, 0, sizeof err->tag);
        if (st == LIT_MISSING_TAG)
            memcpy(err->tag, ps.missing, sizeof err->tag);
    }
    return st;
}
