/* rules.h - the rule set of a game: every variant of the sources, as options.
 *
 * A rule set is a plain value. It is written as a preset name followed by
 * overrides, "classic misclaim=opponents players=8"; the preset names, option
 * names and values are a stable contract, listed with their sources in
 * docs/RULES.md.
 */
#ifndef LITERATURE_RULES_H
#define LITERATURE_RULES_H

#include <stddef.h>
#include <stdint.h>

enum {
    LIT_MIN_PLAYERS = 4,
    LIT_MAX_PLAYERS = 12,
    /* A game that has applied this many actions without ending is aborted:
     * nothing else can make a game run for ever. */
    LIT_MAX_ACTIONS = 2000,
    /* Longest rules text lit_rules_format writes, with its terminating 0. */
    LIT_RULES_TEXT_MAX = 256
};

/* What becomes of a wrong claim. */
typedef enum LitMisclaim {
    LIT_MISCLAIM_CANCEL = 0,    /* cancelled if the team held every card, else to the opponents (000) */
    LIT_MISCLAIM_OPPONENTS = 1, /* always to the opponents (001, 002) */
    LIT_MISCLAIM_POINT_OFF = 2  /* cancelled if the team held every card, else the team loses the set's value (003) */
} LitMisclaim;

/* When claims may be made. */
typedef enum LitClaimTime {
    LIT_CLAIM_OWN_TURN = 0, /* on your own turn; others are refused (default) */
    LIT_CLAIM_ANY_TIME = 1, /* any seat at any time (not during the endgame) */
    LIT_CLAIM_PENALTY = 2   /* any time, but out of turn is judged wrong (000) */
} LitClaimTime;

/* Who asks after a claim made on the claimer's turn. */
typedef enum LitAfterClaim {
    LIT_AFTER_CLAIMER = 0, /* the claimer keeps the turn (default, 000) */
    LIT_AFTER_TEAM = 1     /* the claimer names the teammate who asks next (001) */
} LitAfterClaim;

typedef enum LitFirst {
    LIT_FIRST_DEALER = 0, /* the dealer asks first (000) */
    LIT_FIRST_LEFT = 1    /* the player on the dealer's left (003) */
} LitFirst;

/* Display rules for human clients, not information limits (docs/RULES.md). */
typedef enum LitHistoryShown {
    LIT_HISTORY_LAST = 0, /* only the last question is shown (000) */
    LIT_HISTORY_FULL = 1
} LitHistoryShown;

typedef enum LitCountsShown {
    LIT_COUNTS_REQUEST = 0, /* hand sizes on request, a public event (000) */
    LIT_COUNTS_SHOWN = 1,
    LIT_COUNTS_HIDDEN = 2   /* (003) */
} LitCountsShown;

typedef struct LitRules {
    uint8_t players;      /* 4, 6, 8, 10 or 12; seats alternate teams */
    uint8_t deck;         /* LitDeck */
    uint8_t misclaim;     /* LitMisclaim */
    uint8_t claim_time;   /* LitClaimTime */
    uint8_t after_claim;  /* LitAfterClaim */
    uint8_t first;        /* LitFirst */
    uint8_t split_claims; /* 1: claims may name opponents' cards too (002) */
    uint8_t bluff;        /* 1: asking for a card you hold is allowed (001) */
    uint8_t must_claim;   /* 1: a seat holding a whole set must claim it first (001) */
    uint8_t double_high;  /* 1: high half-suits score 2 (001, 003) */
    uint8_t early_end;    /* 1: a team holding a majority of the points wins at once (002) */
    uint8_t pass_play;    /* 1: the seat on turn may hand it to a teammate (002) */
    uint8_t history;      /* LitHistoryShown (display) */
    uint8_t counts;       /* LitCountsShown (display) */
} LitRules;

/* The default rule set: preset "classic" (000) at 6 players. */
void lit_rules_default(LitRules *rules);

/* Number of presets, and the name of preset i (static storage), or NULL
 * for no such preset. Its rule set is lit_rules_preset of that name. */
int lit_rules_preset_count(void);
const char *lit_rules_preset_name(int i);

/* One sentence for people saying where preset i comes from (static
 * storage), or NULL for no such preset. It never restates the preset's
 * values: those are its rule set's, described by the option texts below. */
const char *lit_rules_preset_text(int i);

/* Resets *rules to the preset of that name (exactly len bytes).
 * LIT_UNKNOWN_PRESET leaves *rules unchanged. */
int lit_rules_preset(LitRules *rules, const char *name, size_t len);

/* Applies one override "key=value" (exactly len bytes). LIT_UNKNOWN_RULE or
 * LIT_BAD_RULE_VALUE leave *rules unchanged. */
int lit_rules_set(LitRules *rules, const char *kv, size_t len);

/* Parses "preset key=value ..." (spaces between words; NUL-terminated). On
 * error *rules is unchanged and, when bad is not NULL, *bad points at the
 * offending word. */
int lit_rules_parse(LitRules *rules, const char *text, const char **bad);

/* Whether every field holds a valid value: LIT_OK or LIT_BAD_RULE_VALUE. */
int lit_rules_check(const LitRules *rules);

/* Writes the canonical text: the preset needing the fewest overrides (the
 * earliest on a tie), then the overrides in the documented option order.
 * Returns the length written (without the 0), or LIT_NO_SPACE.
 * LIT_RULES_TEXT_MAX bytes always suffice. */
int lit_rules_format(const LitRules *rules, char *buf, size_t cap);

/* Points a set is worth under these rules (1, or 2 for a high half-suit
 * under double-high). */
int lit_rules_set_value(const LitRules *rules, int set);

/* Points of the whole deck; a team passing half of them wins early under
 * early-end. */
int lit_rules_total_points(const LitRules *rules);

/* Number of option keys and the name of key i in the documented order. */
int lit_rules_option_count(void);
const char *lit_rules_option_name(int i);

/* The value of option i in rules as written ("no8", "on", "6"; static
 * storage), or NULL for no such option or a value out of range. */
const char *lit_rules_option_value(const LitRules *rules, int i);

/* The words for people of option i, from the option table that parsing
 * and formatting walk (so they cannot name an option or a value that does
 * not exist); docs/RULES.md gives the same rules with their sources.
 * All are static storage; NULL (or 0) for no such option or value.
 *
 * lit_rules_option_title: a short title ("A wrong claim").
 * lit_rules_option_values: how many values option i takes; value v is
 *   0..count-1 in the table's order.
 * lit_rules_option_value_name: value v as written ("cancel"), the word
 *   lit_rules_set takes.
 * lit_rules_option_value_text: one sentence saying exactly what value v
 *   does ("A wrong claim is cancelled ... when an opponent held one, the
 *   opponents score it."). */
const char *lit_rules_option_title(int i);
int lit_rules_option_values(int i);
const char *lit_rules_option_value_name(int i, int v);
const char *lit_rules_option_value_text(int i, int v);

#endif
