/* wire.h - the JSON words of a game, shared by every protocol: the bot
 * protocol (docs/BOT_PROTOCOL.md) and the online protocol (docs/PROTOCOL.md).
 *
 * Cards and sets by their notation names, seats numbered 1..N, teams "A" and
 * "B". Builders return a new jansson reference the caller owns (NULL only
 * when jansson runs out of memory). The reader checks everything: it never
 * trusts a name, a number or a key it did not expect.
 */
#ifndef LIT_WIRE_WIRE_H
#define LIT_WIRE_WIRE_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "literature/game.h"
#include "literature/infer.h"
#include "literature/view.h"

enum { WIRE_WHY_MAX = 256 };

json_t *wire_cards(int deck, uint64_t cards);

/* Every set of the deck with its cards, in the deck's order:
 * {"low-clubs":["2c",...,"7c"],...}. */
json_t *wire_sets(int deck);
json_t *wire_seats(unsigned seats);
const char *wire_team_name(int team);

/* The public state: whose turn, the phase, hand sizes, score, live sets,
 * actions so far. */
json_t *wire_state(const LitPublic *pub);

/* An action (the fields its kind uses), and an event (number n, the answer
 * or claim outcome with every card's true holder, and its notation line).
 * These three are the text writers' below, read back: one writer each. */
json_t *wire_action(const LitRules *rules, const LitAction *action);
json_t *wire_event(const LitRules *rules, const LitEvent *event, uint32_t n);

/* The wire's name of an action kind: "ask", "claim", "pass", "choose". */
const char *wire_action_name(int kind);

/* The seat's legal asks, passes, choices and claimable sets, as four arrays
 * set on obj ("asks": [{"card","target"}], "passes", "choices": [seats],
 * "claimable": [sets]): wire_text_legal's, read back (one writer of them). */
void wire_set_legal(json_t *obj, const LitView *view);

/* ---- JSON written as text (text.c) ----------------------------------------
 * For the parts of frames written for every seat at every event: appended
 * to a buffer that grows (through mem.h) and is kept for the next. A
 * failed allocation sets `failed` and the rest is not written: the text is
 * then not to be sent. */
typedef struct WireText {
    char *buf;    /* not NUL-terminated */
    size_t len, cap;
    int failed;
} WireText;

void wire_text_reset(WireText *t); /* empty, kept for the next */
void wire_text_free(WireText *t);
/* Room for n more bytes (wire_text_raw's growing, out of line): 0, or -1
 * (t->failed) out of memory. */
int wire_text_room(WireText *t, size_t n);
/* Inline: a literal's copy is then a store or two, not a call to memcpy. */
static inline void wire_text_raw(WireText *t, const char *s, size_t n)
{
    if ((t->len + n <= t->cap && !t->failed) || wire_text_room(t, n) == 0) {
        memcpy(t->buf + t->len, s, n);
        t->len += n;
    }
}
void wire_text_put(WireText *t, const char *s); /* s as it is: JSON already */
/* ... a string literal's, its length known */
#define wire_text_lit(t, s) wire_text_raw((t), "" s, sizeof(s) - 1)
void wire_text_int(WireText *t, long long v);
void wire_text_str(WireText *t, const char *s); /* a JSON string of s (UTF-8) */
void wire_text_key(WireText *t, const char *key); /* "key": */
/* A name from the engine's tables (a card's, set's, phase's, status's...:
 * printable ASCII without a quote or a backslash, as tests/unit/test_wire.c
 * checks of every one) quoted as it is: no byte looked at for escaping. */
void wire_text_name(WireText *t, const char *name);
void wire_text_cards(WireText *t, int deck, uint64_t cards); /* ["2c",...] */

/* The members "asks", "passes", "choices" and "claimable" as
 * wire_set_legal sets them, without braces. */
void wire_text_legal(WireText *t, const LitView *view);

/* The public state as wire_state's object. */
void wire_text_state(WireText *t, const LitPublic *pub);

/* An action's, an event's object as wire_action and wire_event write them,
 * left open (no closing brace): the caller may add keys, then closes it. */
void wire_text_action_open(WireText *t, const LitRules *rules, const LitAction *action);
void wire_text_event_open(WireText *t, const LitRules *rules, const LitEvent *event, uint32_t n);

/* The text read back as JSON (NULL: it failed, or out of memory), and t
 * freed. */
json_t *wire_text_json(WireText *t);

/* The scoresheet of `lit infer --json` (docs/DEDUCTION.md): "seat" (null
 * for the public view), "after" (the actions so far), "consistent", "exact", "consistent_deals" (a decimal
 * string, null when not exact), per live card each seat's chance ("cards":
 * 1 certain, 0 impossible, null when neither counted nor estimated), per
 * live set the claim figures of the seat's team (both teams, "A" and "B", for
 * the public view), "must_hold"; for an estimate also "samples",
 * "consistent_deals_estimate", "consistent_deals_se", "cards_se" and the
 * claim figures' "_se". */
json_t *wire_scoresheet(const LitKnow *k, const LitOdds *o);

/* The likeliest placement of set on team's seats by o, card name to seat
 * (1-based), as the scoresheet's "best_assignment": null when o gives no
 * placement of it a chance. */
json_t *wire_best_assignment(const LitKnow *k, const LitOdds *o, int team, int set);

/* Why wire_read_action refused an action: the error's stable name (static
 * text: bad_message, bad_card, bad_set, bad_seat or bad_claim_cards) and a
 * sentence for
 * people (at most 200 bytes). */
typedef struct WireError {
    const char *name;
    char detail[WIRE_WHY_MAX];
} WireError;

/* The action kind (LIT_ASK, LIT_CLAIM, LIT_PASS, LIT_CHOOSE) the wire writes
 * as name ("ask", "claim", "pass", "choose"); 0 for none (or NULL). */
int wire_action_kind(const char *name);

/* Reads an action of view's seat from obj: "action" (ask, claim, pass,
 * choose) and its fields. Every key of obj must be one the action kind uses
 * or one of extra (a NULL-terminated list; may be NULL). Returns 0 and fills
 * *out, or -1 with *err set and *out unchanged. Whether the action is legal
 * is the referee's to say. */
int wire_read_action(const LitRules *rules, int seat, json_t *obj,
                     const char *const *extra, LitAction *out, WireError *err);

/* The length of s cut to at most max bytes without splitting a UTF-8
 * character (a key quoted in an error must stay valid UTF-8, or jansson
 * refuses the whole frame). */
int wire_cut(const char *s, int max);

/* The first key of obj that is not in allowed (NULL-terminated lists; either
 * may be NULL), or NULL when every key is. */
const char *wire_unknown_key(json_t *obj, const char *const *allowed,
                             const char *const *also);

#endif
