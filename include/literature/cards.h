/* cards.h - decks, cards and sets as bits of a uint64_t.
 *
 * A hand is a set of cards: one bit per card. Under every deck the cards of a
 * set (a half-suit, the eights-and-jokers set, a rank quartet) are one
 * contiguous group of bits:
 *
 *     bit = set * set_size + position
 *
 *   deck no8 (default, 48 cards, 8 sets of 6), suits in the order c d h s:
 *
 *     bit:  0  1  2  3  4  5 |  6  7  8  9 10 11 | 12 ... 17 | 18 ... 23 | ...
 *          2c 3c 4c 5c 6c 7c | 9c Tc Jc Qc Kc Ac | 2d ... 7d | 9d ... Ad | ...
 *          set 0 low-clubs   | set 1 high-clubs  | set 2     | set 3     |
 *
 *   no2: low 3-8, high 9-A.  no7: low A-6, high 8-K.  jokers (54 cards):
 *   the no8 layout, then set 8 = 8c 8d 8h 8s JK1 JK2 at bits 48..53.
 *   quartets (52 cards, 13 sets of 4): set r = the rank r (2 first, ace
 *   last), position = suit: bit = rank * 4 + suit.
 *
 * Bit indices never leave the library: records and protocols name cards
 * ("Qh", "Ts", "JK1") and sets ("low-hearts"). Card numbers in this header
 * are bit indices of the deck in force.
 */
#ifndef LITERATURE_CARDS_H
#define LITERATURE_CARDS_H

#include <assert.h>
#include <stddef.h>
#include <stdint.h>

enum {
    LIT_MAX_CARDS = 54,   /* the jokers deck */
    LIT_MAX_SETS = 13,    /* the quartets deck */
    LIT_MAX_SET_SIZE = 6, /* half-suits */
    LIT_NO_CARD = 0xFF
};

/* The decks; the numbers are stable (they appear in no text, but in tables). */
typedef enum LitDeck {
    LIT_DECK_NO8 = 0,   /* 8s removed: 2-7 / 9-A (default) */
    LIT_DECK_NO2 = 1,   /* 2s removed: 3-8 / 9-A */
    LIT_DECK_NO7 = 2,   /* 7s removed: A-6 / 8-K */
    LIT_DECK_JOKERS = 3, /* 54 cards: no8 plus the set 8c 8d 8h 8s JK1 JK2 */
    LIT_DECK_QUARTETS = 4, /* 52 cards: 13 sets of the four cards of a rank */
    LIT_DECK_COUNT = 5
} LitDeck;

static inline int lit_deck_cards(int deck)
{
    return deck == LIT_DECK_JOKERS ? 54 : deck == LIT_DECK_QUARTETS ? 52 : 48;
}

static inline int lit_deck_sets(int deck)
{
    return deck == LIT_DECK_JOKERS ? 9 : deck == LIT_DECK_QUARTETS ? 13 : 8;
}

static inline int lit_deck_set_size(int deck)
{
    return deck == LIT_DECK_QUARTETS ? 4 : 6;
}

/* Every card of the deck. */
static inline uint64_t lit_deck_mask(int deck)
{
    return (UINT64_C(1) << lit_deck_cards(deck)) - 1;
}

static inline uint64_t lit_bit(int card)
{
    assert(card >= 0 && card < 64);
    return UINT64_C(1) << card;
}

static inline int lit_set_of(int deck, int card)
{
    assert(card >= 0 && card < lit_deck_cards(deck));
    return card / lit_deck_set_size(deck);
}

/* Position of a card within its set, 0 .. set_size - 1. */
static inline int lit_pos_of(int deck, int card)
{
    assert(card >= 0 && card < lit_deck_cards(deck));
    return card % lit_deck_set_size(deck);
}

static inline int lit_set_first(int deck, int set)
{
    assert(set >= 0 && set < lit_deck_sets(deck));
    return set * lit_deck_set_size(deck);
}

/* The cards of a set. */
static inline uint64_t lit_set_mask(int deck, int set)
{
    int size = lit_deck_set_size(deck);
    assert(set >= 0 && set < lit_deck_sets(deck));
    return ((UINT64_C(1) << size) - 1) << (set * size);
}

static inline int lit_popcount(uint64_t x)
{
#if defined(__POPCNT__) && (defined(__GNUC__) || defined(__clang__))
    return __builtin_popcountll(x);
#else
    /* SWAR: without the popcnt instruction the builtin is a library call. */
    x = x - ((x >> 1) & UINT64_C(0x5555555555555555));
    x = (x & UINT64_C(0x3333333333333333)) + ((x >> 2) & UINT64_C(0x3333333333333333));
    x = (x + (x >> 4)) & UINT64_C(0x0F0F0F0F0F0F0F0F);
    return (int)((x * UINT64_C(0x0101010101010101)) >> 56);
#endif
}

/* Lowest card of a non-empty set of cards. */
static inline int lit_lsb(uint64_t x)
{
    assert(x != 0);
#if defined(__GNUC__) || defined(__clang__)
    return __builtin_ctzll(x);
#else
    int n = 0;
    while (!(x & 1)) {
        x >>= 1;
        n++;
    }
    return n;
#endif
}

/* Removes and returns the lowest card of a non-empty set of cards. */
static inline int lit_pop_lsb(uint64_t *x)
{
    int card = lit_lsb(*x);
    *x &= *x - 1;
    return card;
}

/* The position of the r-th lowest set bit of the byte b, r from 0 (in
 * cards.c). */
extern const uint8_t lit_select_in_byte[256][8];

/* The k-th lowest card (k from 0) of a set with more than k cards. Without
 * a branch: a loop of k steps mispredicts its exit when k is a random draw.
 * The byte holding the card from the running counts of the bytes' cards
 * (the broadword select of Vigna, 2008), then the card in the byte from a
 * table: a short chain of dependent instructions, as a drawn card is on
 * the path to the action. */
static inline int lit_nth_card(uint64_t x, int k)
{
    assert(k >= 0 && k < lit_popcount(x));
    const uint64_t ones = UINT64_C(0x0101010101010101), highs = UINT64_C(0x8080808080808080);
    uint64_t s = x - ((x >> 1) & UINT64_C(0x5555555555555555));
    s = (s & UINT64_C(0x3333333333333333)) + ((s >> 2) & UINT64_C(0x3333333333333333));
    s = (s + (s >> 4)) & UINT64_C(0x0F0F0F0F0F0F0F0F);
    uint64_t upto = s * ones; /* byte i: the cards of bytes 0..i */
    /* A byte's high bit is set where its count is at most k: no borrow
     * crosses a byte, as every count is at most 64. Those bytes come
     * first; the card is in the first byte without it, which exists as
     * the last byte's count is more than k. */
    uint64_t before = (((uint64_t)k * ones | highs) - upto) & highs;
    int shift = lit_lsb(~before & highs) - 7;
    int rank = k - (int)(((upto << 8) >> shift) & 0xFF);
    return shift + lit_select_in_byte[(x >> shift) & 0xFF][rank];
}

/* The first card of every set: one bit per set. */
static inline uint64_t lit_set_starts(int deck)
{
    uint64_t starts = lit_deck_set_size(deck) == 4 ? UINT64_C(0x1111111111111111)
                                                   : UINT64_C(0x1041041041041041);
    return starts & lit_deck_mask(deck);
}

/* Union of the sets that hold at least one card of x: each set's cards are
 * OR-ed down to its first bit, then spread over the set by a multiplication
 * (the sets do not overlap, so nothing carries). */
static inline uint64_t lit_sets_touched(int deck, uint64_t x)
{
    uint64_t any = x | x >> 1 | x >> 2 | x >> 3;
    if (lit_deck_set_size(deck) == 6)
        any |= x >> 4 | x >> 5;
    any &= lit_set_starts(deck);
    return any * ((UINT64_C(1) << lit_deck_set_size(deck)) - 1);
}

/* First bits of the sets x holds entirely. */
static inline uint64_t lit_sets_whole(int deck, uint64_t x)
{
    uint64_t all = x & x >> 1 & x >> 2 & x >> 3;
    if (lit_deck_set_size(deck) == 6)
        all &= x >> 4 & x >> 5;
    return all & lit_set_starts(deck);
}

/* Name of a card of the deck ("Qh", "Ts", "JK1"); static storage. The card
 * must be in the deck. At most LIT_CARD_NAME_MAX bytes and the NUL. */
const char *lit_card_name(int deck, int card);
enum { LIT_CARD_NAME_MAX = 3 };

/* Parses a card name: rank A 2-9 T J Q K (or 10), then suit c d h s, either in
 * either case; or JK1 / JK2. Reads exactly len bytes. Returns the card, or
 * LIT_BAD_CARD when the name is no card of this deck. */
int lit_card_parse(int deck, const char *s, size_t len);

/* Long name of a set ("low-hearts", "eights-jokers", "queens"); static. */
const char *lit_set_name(int deck, int set);

/* Short name of a set ("lh", "ej", "qQ"); static. */
const char *lit_set_short(int deck, int set);

/* Parses a long or short set name (exactly len bytes, case-insensitive).
 * Returns the set or LIT_BAD_SET. */
int lit_set_parse(int deck, const char *s, size_t len);

/* Whether the set is a high half-suit (9-A, or 8-K without 7s): the sets
 * that score double under double-high. */
int lit_set_is_high(int deck, int set);

#endif
