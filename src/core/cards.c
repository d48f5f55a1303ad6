/* cards.c - per-deck tables: card and set names, and their parsers.
 *
 * Cards are named through a global id: rank * 4 + suit for the 52 cards
 * (rank 0 = 2 ... 8 = T, 9 = J, 10 = Q, 11 = K, 12 = A; suit 0..3 = c d h s),
 * 52 and 53 for JK1 and JK2. Each deck maps its bits to global ids.
 */
#include "literature/cards.h"

#include "literature/status.h"

enum { GID_JK1 = 52, GID_JK2 = 53, GIDS = 54 };

static const char gid_names[GIDS][4] = {
    "2c", "2d", "2h", "2s", "3c", "3d", "3h", "3s", "4c", "4d", "4h", "4s",
    "5c", "5d", "5h", "5s", "6c", "6d", "6h", "6s", "7c", "7d", "7h", "7s",
    "8c", "8d", "8h", "8s", "9c", "9d", "9h", "9s", "Tc", "Td", "Th", "Ts",
    "Jc", "Jd", "Jh", "Js", "Qc", "Qd", "Qh", "Qs", "Kc", "Kd", "Kh", "Ks",
    "Ac", "Ad", "Ah", "As", "JK1", "JK2"};
_Static_assert(sizeof gid_names[0] == LIT_CARD_NAME_MAX + 1, "cards.h's LIT_CARD_NAME_MAX");

/* Ranks of the six positions of a low and a high half-suit, per deck. */
static const uint8_t half_ranks[3][2][6] = {
    {{0, 1, 2, 3, 4, 5}, {7, 8, 9, 10, 11, 12}},  /* no8: 2-7, 9-A */
    {{1, 2, 3, 4, 5, 6}, {7, 8, 9, 10, 11, 12}},  /* no2: 3-8, 9-A */
    {{12, 0, 1, 2, 3, 4}, {6, 7, 8, 9, 10, 11}},  /* no7: A-6, 8-K */
};

static const char *const half_names[8] = {
    "low-clubs",  "high-clubs",  "low-diamonds", "high-diamonds",
    "low-hearts", "high-hearts", "low-spades",   "high-spades"};
static const char *const half_shorts[8] = {"lc", "hc", "ld", "hd",
                                           "lh", "hh", "ls", "hs"};
static const char *const rank_names[13] = {
    "twos", "threes", "fours", "fives", "sixes", "sevens", "eights",
    "nines", "tens", "jacks", "queens", "kings", "aces"};
static const char *const rank_shorts[13] = {"q2", "q3", "q4", "q5", "q6",
                                            "q7", "q8", "q9", "qT", "qJ",
                                            "qQ", "qK", "qA"};

static int card_gid(int deck, int card)
{
    int set = lit_set_of(deck, card), pos = lit_pos_of(deck, card);
    if (deck == LIT_DECK_QUARTETS)
        return set * 4 + pos;
    if (deck == LIT_DECK_JOKERS && set == 8)
        return pos < 4 ? 6 * 4 + pos : GID_JK1 + pos - 4;
    int table = deck == LIT_DECK_JOKERS ? LIT_DECK_NO8 : deck;
    return half_ranks[table][set & 1][pos] * 4 + set / 2;
}

const char *lit_card_name(int deck, int card)
{
    return gid_names[card_gid(deck, card)];
}

static int lower(int c)
{
    return c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c;
}

static int same_word(const char *s, size_t len, const char *word)
{
    size_t i = 0;
    for (; i < len && word[i]; i++)
        if (lower((unsigned char)s[i]) != lower((unsigned char)word[i]))
            return 0;
    return i == len && word[i] == 0;
}

int lit_card_parse(int deck, const char *s, size_t len)
{
    int gid = -1;
    if (same_word(s, len, "JK1"))
        gid = GID_JK1;
    else if (same_word(s, len, "JK2"))
        gid = GID_JK2;
    else if (len == 2 || len == 3) {
        int rank = -1, suit = -1, c = lower((unsigned char)s[0]);
        size_t rest = 1;
        if (len == 3) {
            if (s[0] != '1' || s[1] != '0')
                return LIT_BAD_CARD;
            rank = 8;
            rest = 2;
        } else if (c >= '2' && c <= '9') {
            rank = c - '2';
        } else {
            const char *letters = "tjqka";
            for (int i = 0; letters[i]; i++)
                if (c == letters[i])
                    rank = 8 + i;
        }
        const char *suits = "cdhs";
        for (int i = 0; i < 4; i++)
            if (lower((unsigned char)s[rest]) == suits[i])
                suit = i;
        if (rank < 0 || suit < 0)
            return LIT_BAD_CARD;
        gid = rank * 4 + suit;
    }
    if (gid < 0)
        return LIT_BAD_CARD;
    for (int card = 0; card < lit_deck_cards(deck); card++)
        if (card_gid(deck, card) == gid)
            return card;
    return LIT_BAD_CARD;
}

const char *lit_set_name(int deck, int set)
{
    assert(set >= 0 && set < lit_deck_sets(deck));
    if (deck == LIT_DECK_QUARTETS)
        return rank_names[set];
    if (set == 8)
        return "eights-jokers";
    return half_names[set];
}

const char *lit_set_short(int deck, int set)
{
    assert(set >= 0 && set < lit_deck_sets(deck));
    if (deck == LIT_DECK_QUARTETS)
        return rank_shorts[set];
    if (set == 8)
        return "ej";
    return half_shorts[set];
}

int lit_set_parse(int deck, const char *s, size_t len)
{
    for (int set = 0; set < lit_deck_sets(deck); set++)
        if (same_word(s, len, lit_set_name(deck, set)) ||
            same_word(s, len, lit_set_short(deck, set)))
            return set;
    return LIT_BAD_SET;
}

int lit_set_is_high(int deck, int set)
{
    if (deck == LIT_DECK_QUARTETS || set >= 8)
        return 0;
    return set & 1;
}
