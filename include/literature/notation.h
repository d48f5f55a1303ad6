/* notation.h - the text record of a whole game (docs/NOTATION.md).
 *
 * A record is a header of tag pairs, [Rules "classic"], then one action per
 * line: "12. 3 asks 4 for Qh: hit". The writer is canonical:
 * parse(format(r)) == r, and format(parse(x)) == x for canonical x. Records
 * with no known deal (no Seed, no Hand tags) hold every answer and claim
 * outcome, so their public information replays.
 *
 * Nothing here allocates: the caller gives the event buffer and the text
 * buffer.
 */
#ifndef LITERATURE_NOTATION_H
#define LITERATURE_NOTATION_H

#include <stddef.h>
#include <stdint.h>

#include "game.h"

enum {
    LIT_NAME_MAX = 32,               /* bytes of a player name */
    LIT_TEXT_MAX = 64,               /* bytes of the Event, Site, Date tags */
    LIT_LINE_MAX = 4096,             /* bytes of a line */
    LIT_MARK_MAX = 100,              /* bytes of an action's mark written */
    /* Actions of a record: a whole game (LIT_MAX_ACTIONS) and as many
     * refused ones again, for traces that check refusals. */
    LIT_RECORD_MAX_EVENTS = 2 * LIT_MAX_ACTIONS,
    /* Bytes of a record, read or written: the canonical text of any record
     * that parses fits (at most about 150 bytes an action). */
    LIT_RECORD_TEXT_MAX = 1 << 20
};

/* Who chose an action when its seat's player did not: the mark after its
 * line in a record (docs/NOTATION.md), a comment whose text starts with the
 * word and a colon. */
typedef enum LitBy {
    LIT_BY_SEAT = 0,     /* no such mark: the seat's own */
    LIT_BY_TIMEOUT = 1,  /* "; timeout: ...": lit serve, the player's time ran out */
    LIT_BY_AWAY = 2,     /* "; away: ...": lit serve, the player was gone */
    LIT_BY_FALLBACK = 3, /* "; fallback: ...": lit arena, the bot's answer refused */
    LIT_BY_KINDS = 4
} LitBy;

typedef struct LitRecord {
    LitRules rules;
    uint8_t dealer;                  /* seat, 0-based */
    uint8_t has_seed;                /* the Seed tag was given */
    uint8_t has_deal;                /* the Hand tags were given */
    uint8_t has_result;              /* the Result tag was given */
    uint8_t has_score;               /* the Score tag was given */
    uint8_t result;                  /* LitResult ("*" is LIT_ONGOING) */
    int16_t score[2];
    uint64_t seed;
    uint64_t hands[LIT_MAX_PLAYERS]; /* the deal, when has_deal */
    char names[LIT_MAX_PLAYERS][LIT_NAME_MAX + 1]; /* "" when not given */
    char event[LIT_TEXT_MAX + 1];
    char site[LIT_TEXT_MAX + 1];
    char date[LIT_TEXT_MAX + 1];
    LitEvent *events;                /* the caller's buffer */
    uint32_t n_events;
    uint32_t cap;
    uint32_t *lines;                 /* optional: the parser writes each event's line */
    uint8_t *by;                     /* optional, cap of them: the parser writes
                                      * each event's LitBy */
    /* optional, written only: a mark for event i, a comment after its line
     * (" ; fallback: timeout ..."), NULL or "" for none; the parser reads
     * comments as nothing and sets this NULL */
    const char *const *marks;
    uint32_t result_line;            /* lines of the Result, Score, Hand1 (else */
    uint32_t score_line;             /* Seed) tags, written by the parser for */
    uint32_t deal_line;              /* messages; 0 when not given */
} LitRecord;

/* Where parsing stopped: the status and the 1-based line. moves: the
 * header was read whole and the error is in the movetext, so the record
 * holds the header and the rec->n_events events before that line (a trace
 * follows them, then names the line). tag: for LIT_MISSING_TAG, the tag
 * missing ("Rules", "Dealer" or "Hand3"), else "". */
typedef struct LitParseError {
    int status;
    uint32_t line;
    int moves;
    char tag[8];
} LitParseError;

/* An empty record with the default rules, dealer seat 1 (index 0), and the
 * caller's event buffer (and optional line buffer of the same cap). */
void lit_record_init(LitRecord *rec, LitEvent *events, uint32_t *lines,
                     uint32_t cap);

/* Parses text[0 .. len). On error fills *err (may be NULL) and returns its
 * status; *rec is then unspecified except its buffers, and but for what
 * err->moves says. Records longer than
 * LIT_RECORD_TEXT_MAX, or with more events than cap or
 * LIT_RECORD_MAX_EVENTS: LIT_TOO_LONG. The parser
 * checks form only (cards of the deck, seats of the game, every card of a
 * claimed set once); legality is the replay's. */
int lit_record_parse(LitRecord *rec, const char *text, size_t len,
                     LitParseError *err);

/* Writes the canonical text and a terminating 0, each event's mark after its
 * line (its first LIT_MARK_MAX bytes, a control character or a byte that is
 * no UTF-8 written '?'). Returns its length or LIT_NO_SPACE.
 * LIT_RECORD_TEXT_MAX bytes suffice for any record of at most
 * LIT_RECORD_MAX_EVENTS events, marks on LIT_MAX_ACTIONS of them. */
int lit_record_format(const LitRecord *rec, char *buf, size_t cap);

/* Writes one event as its move line, "12. 3 asks 4 for Qh: hit" (n is its
 * number; 0 leaves the number out), with no newline and a terminating 0.
 * Returns the length or LIT_NO_SPACE; LIT_LINE_MAX bytes suffice. */
int lit_event_format(const LitRules *rules, const LitEvent *event, int n,
                     char *buf, size_t cap);

/* Parses one move line as in a record, "3 asks 4 for Qh", "3 claims lh
 * 3:2h,3h,4h 5:5h,6h,7h", with or without its answer and the number 1
 * ("1. 3 asks ..."; a line on its own is the first), exactly len bytes, one
 * line, under rules, into *out (unused fields unset; truth
 * as written, else LIT_NOBODY). Statuses of the record parser for a move:
 * LIT_SYNTAX, LIT_BAD_SEAT, LIT_BAD_CARD, LIT_BAD_SET, LIT_BAD_CLAIM_CARDS,
 * LIT_BAD_MOVE_NUMBER (a number other than 1), LIT_TOO_LONG; *out is then
 * unchanged. */
int lit_move_parse(const LitRules *rules, const char *s, size_t len, LitEvent *out);

/* Whether two records say the same (buffers and line numbers aside). */
int lit_record_equal(const LitRecord *a, const LitRecord *b);

/* Checks a player name or text tag: 1 to max bytes of UTF-8, no control
 * characters, no space at either end. LIT_OK or LIT_BAD_NAME. */
int lit_name_check(const char *s, size_t len, size_t max);

/* Checks a name or text a person gives now (a player's name, a chat line):
 * lit_name_check, and also no format characters (Unicode's Cf: the
 * zero-width space, the bidirectional marks, embeddings, overrides and
 * isolates, the byte order mark, the tags; the zero-width joiner and
 * non-joiner are allowed), no line or paragraph separator, no filler that
 * draws nothing, no space of any kind at either end, and at least one
 * character that is not a space, joiner or variation selector. Records and
 * stored rooms are read with lit_name_check, so what was kept before still
 * reads. LIT_OK or LIT_BAD_NAME. */
int lit_name_check_new(const char *s, size_t len, size_t max);

/* A replay in progress: the game when the deal is known, else only its public
 * part (known == 0) and, per seat, the cards public events have shown in its
 * hand (a hit shows the card in the asker's hand until it moves again). */
typedef struct LitReplay {
    LitGame game;
    int known;
    uint64_t shown[LIT_MAX_PLAYERS];
} LitReplay;

/* Starts a replay of a record: from the Hand tags, else from the Seed, else
 * with no deal. LIT_DEAL_MISMATCH when the Seed does not give the Hand tags;
 * LIT_BAD_DEAL, LIT_BAD_SEAT. */
int lit_replay_start(LitReplay *rp, const LitRecord *rec);

/* Applies one event of a record: with a known deal the action is applied and
 * a written answer (and revealed holders) must match what happened
 * (LIT_OUTCOME_MISMATCH); without one, lit_public_apply, and then the answer
 * must agree with the cards shown: asking for a card one was shown to hold is
 * LIT_OWN_CARD (without bluffs), a hit on a card shown elsewhere or a miss on
 * a card shown at the target LIT_OUTCOME_MISMATCH, a claim revealing a shown
 * card elsewhere LIT_BAD_REVEAL. On LIT_OK *out (may be NULL) is the event
 * as applied. On an error nothing changes. */
int lit_replay_step(LitReplay *rp, const LitEvent *event, LitEvent *out);

/* Whether the Result and Score tags (those given) match the replayed game:
 * LIT_OK or LIT_RESULT_MISMATCH. *line (may be NULL) gets the line of the tag
 * that does not match. */
int lit_replay_check_result(const LitReplay *rp, const LitRecord *rec,
                            uint32_t *line);

/* Fills a record's header from a game at its start (rules, dealer, deal) and
 * its result fields from the game at its end; events are the caller's. */
void lit_record_set_game(LitRecord *rec, const LitGame *start,
                         const LitGame *end);

#endif
