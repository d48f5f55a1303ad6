/* helpers.h - building positions and actions for tests. Seats in these
 * helpers are numbered 1..N, as in records, so tests read like the notation. */
#ifndef LIT_TEST_HELPERS_H
#define LIT_TEST_HELPERS_H

#include <stdint.h>

#include "literature/game.h"
#include "literature/notation.h"
#include "literature/rules.h"
#include "literature/status.h"
#include "literature/view.h"

/* Rules from text ("classic players=8"); aborts the test on a bad text. */
LitRules rules_of(const char *text);

/* Cards of a deck from names separated by spaces. */
uint64_t cards_of(int deck, const char *names);

/* A game with given hands (hands[0] is seat 1's), dealer a 1-based seat. */
void game_from(LitGame *g, const char *rules, int dealer, const char *const *hands);

LitAction ask(const LitGame *g, int seat, int target, const char *card);
LitAction pass_to(int seat, int target);
LitAction choose(int seat, int target);
/* groups like the notation: "1:2h,3h 3:4h,5h,6h,7h" */
LitAction claim(const LitGame *g, int seat, const char *set, const char *groups);
/* A correct claim of set by seat (naming the true holders). */
LitAction claim_true(const LitGame *g, int seat, const char *set);

/* Asserts the cards of the position are conserved and the hand sizes right. */
void assert_conserved(const LitGame *g);

/* Applies and returns the status; on an error asserts nothing changed. */
int play(LitGame *g, LitAction a, LitEvent *ev);

/* 1-based seat on turn (0 when nobody). */
int turn_of(const LitGame *g);

#endif
