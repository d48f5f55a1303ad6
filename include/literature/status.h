/* status.h - every status the library returns, from one table.
 *
 * LIT_STATUS_MAP is the single source: each row gives the enum suffix, the
 * stable name used in logs, records and protocol frames (a contract: never
 * renamed), and a sentence for people. 0 is success, errors are negative, and
 * a call that fails leaves its objects exactly as they were (unless its own
 * comment says otherwise: a parser may have filled part of its output).
 */
#ifndef LITERATURE_STATUS_H
#define LITERATURE_STATUS_H

#define LIT_STATUS_MAP(X)                                                      \
    /* malformed actions */                                                   \
    X(BAD_ACTION, "bad_action", "there is no such action")                    \
    X(BAD_SEAT, "bad_seat", "there is no such seat")                          \
    X(BAD_CARD, "bad_card", "there is no such card in this deck")             \
    X(BAD_SET, "bad_set", "there is no such set in this deck")                \
    /* who may act now */                                                     \
    X(GAME_OVER, "game_over", "the game is over")                             \
    X(NOT_YOUR_TURN, "not_your_turn", "it is not your turn")                  \
    X(MUST_PASS, "must_pass",                                                 \
      "you have no cards: pass the turn to a teammate who has cards (or "     \
      "claim)")                                                               \
    X(MUST_CHOOSE, "must_choose",                                             \
      "first choose who plays next")                                          \
    X(MUST_CLAIM, "must_claim",                                               \
      "you hold a whole set: the rules make you claim it first")              \
    X(CLAIMS_ONLY, "claims_only",                                             \
      "one team has no cards: no more questions, the remaining sets must be " \
      "claimed")                                                              \
    /* asks */                                                                \
    X(ASK_TEAMMATE, "ask_teammate",                                           \
      "you may ask only a player of the other team")                          \
    X(TARGET_EMPTY, "target_empty", "that player has no cards")               \
    X(SET_CLAIMED, "set_claimed", "that set has already been claimed")        \
    X(NO_BASE_CARD, "no_base_card",                                           \
      "you hold no other card of that set")                                   \
    X(OWN_CARD, "own_card", "you hold that card")                             \
    /* claims */                                                              \
    X(CLAIM_INCOMPLETE, "claim_incomplete",                                   \
      "a claim must name a holder for every card of the set")                 \
    X(CLAIM_NAMES_OPPONENT, "claim_names_opponent",                           \
      "a claim may name only players of your own team")                       \
    /* passes and choices */                                                  \
    X(PASS_NOT_ALLOWED, "pass_not_allowed",                                   \
      "you may not pass the turn now")                                        \
    X(PASS_TO_SELF, "pass_to_self", "you cannot pass the turn to yourself")   \
    X(PASS_TO_OPPONENT, "pass_to_opponent",                                   \
      "the turn can go only to a player of your own team")                    \
    X(CHOOSE_TEAMMATE, "choose_teammate",                                     \
      "the final claims must be made by a player of the other team")          \
    X(NOTHING_TO_CHOOSE, "nothing_to_choose",                                 \
      "there is no choice to make now")                                       \
    /* deals, rules, buffers */                                               \
    X(BAD_DEAL, "bad_deal",                                                   \
      "the hands are not a deal of this deck (every card once, every seat "   \
      "at least one)")                                                        \
    X(UNKNOWN_PRESET, "unknown_preset", "there is no rule preset of that name") \
    X(UNKNOWN_RULE, "unknown_rule", "there is no rule option of that name")   \
    X(BAD_RULE_VALUE, "bad_rule_value",                                       \
      "that value is not allowed for this rule option")                       \
    X(NO_SPACE, "no_space", "the buffer is too small")                        \
    /* records (notation) */                                                  \
    X(SYNTAX, "syntax", "the line cannot be read")                            \
    X(TOO_LONG, "too_long", "the line or the record is too long")             \
    X(UNKNOWN_TAG, "unknown_tag", "there is no header tag of that name")      \
    X(DUPLICATE_TAG, "duplicate_tag", "that header tag was given twice")      \
    X(MISSING_TAG, "missing_tag", "a required header tag is missing")         \
    X(BAD_TAG_VALUE, "bad_tag_value", "the value of that header tag is not valid") \
    X(BAD_NAME, "bad_name",                                                   \
      "a player name is 1 to 32 bytes of UTF-8 with no control characters "   \
      "and no space at either end; a new one also shows something and has "   \
      "no invisible or reordering characters")                                \
    X(BAD_MOVE_NUMBER, "bad_move_number",                                     \
      "the move number is not the next one")                                  \
    X(BAD_CLAIM_CARDS, "bad_claim_cards",                                     \
      "a claim may list only cards of its set, each once")                    \
    X(MISSING_OUTCOME, "missing_outcome",                                     \
      "without a known deal every answer and claim outcome must be written")  \
    X(OUTCOME_MISMATCH, "outcome_mismatch",                                   \
      "the written answer or outcome is not what happened")                   \
    X(BAD_REVEAL, "bad_reveal",                                               \
      "the revealed holders cannot hold those cards")                         \
    X(DEAL_MISMATCH, "deal_mismatch", "the seed does not give the hands written") \
    X(RESULT_MISMATCH, "result_mismatch",                                     \
      "the Result or Score tag does not match the game")                      \
    /* deduction */                                                           \
    X(INCONSISTENT, "inconsistent",                                           \
      "no deal of the cards fits what has been seen")                         \
    /* bots */                                                                \
    X(UNKNOWN_BOT, "unknown_bot", "there is no bot of that name")             \
    X(BAD_BOT_OPTION, "bad_bot_option",                                       \
      "that bot does not take that setting or value")

/* Positive indices first, so the public codes can be their negations. */
enum {
    LIT_STATUS_INDEX_OK_,
#define LIT_X_(code, name, text) LIT_STATUS_INDEX_##code##_,
    LIT_STATUS_MAP(LIT_X_)
#undef LIT_X_
    LIT_STATUS_COUNT_
};

/* LIT_OK is 0; every error is negative (LIT_BAD_CARD, LIT_NOT_YOUR_TURN...). */
typedef enum LitStatus {
    LIT_OK = 0,
#define LIT_X_(code, name, text) LIT_##code = -LIT_STATUS_INDEX_##code##_,
    LIT_STATUS_MAP(LIT_X_)
#undef LIT_X_
    LIT_STATUS_MIN_ = -(LIT_STATUS_COUNT_ - 1)
} LitStatus;

/* Stable name of a status ("ok", "not_your_turn"); "unknown" for a code that
 * is not in the table. Static storage. */
const char *lit_status_name(int status);

/* A sentence for people; static storage. */
const char *lit_status_text(int status);

/* The status of a stable name, or 1 when no status has that name. */
int lit_status_from_name(const char *name);

#endif
