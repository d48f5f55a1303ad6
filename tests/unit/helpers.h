/* helpers.h - building positions and actions for tests. Seats in these
 * helpers are numbered 1..N, as in records, so tests read like the notation. */
#ifndef LIT_TEST_HELPERS_H
#define LIT_TEST_HELPERS_H

#include <stddef.h>
#include <stdint.h>

#include "literature/game.h"
#include "literature/notation.h"
#include "literature/rng.h"
#include "literature/rules.h"
#include "literature/status.h"
#include "literature/view.h"
#include "../support/deal_fits.h"

/* 1 in the sanitizer build (ASan + UBSan), 0 in the normal one. There the
 * counting tests run three to six times slower, so the longest of them
 * take every second position they take in the normal build (each with
 * every check), and ask for half as many of each kind of case seen: the
 * normal build's suite keeps the whole sweep. */
#if defined(__SANITIZE_ADDRESS__)
#define TEST_SANITIZED 1
#else
#define TEST_SANITIZED 0
#endif

/* A 6-player classic deal used across the tests (team A: seats 1, 3, 5):
 *   1: 2h 3h 4h 6h 7h 9s Ts 2c      2: 9c Tc Jc Qc Kc Ac 3c 5c (every high club)
 *   3: 5h 9h Th Jh Qh Kh Ah 4c      4: 2d 3d 4d 5d 6d 7d 6c 7c
 *   5: 9d Td Jd Qd Kd Ad Js Qs      6: 2s 3s 4s 5s 6s 7s Ks As */
extern const char *const DEAL6[6];

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

/* A random player for whole-game tests (seats 0-based here, as in the API).
 * random_claim: a claim by seat of a random live set, right or with random
 * teammates (any seat under split-claims); 0 when seat may not claim now.
 * random_step: applies one random legal action (asks, passes and choices
 * from lit_game_legal, claims by the seat on turn about one time in
 * claim_odds and whenever nothing else is legal, and by other seats when the
 * rules allow) and fills *ev. */
int random_claim(const LitGame *g, LitRng *rng, int seat, LitAction *a);
void random_step(LitGame *g, LitEvent *ev, LitRng *rng, unsigned claim_odds);

/* Assertions on one action, printing status names. EXPECT: refused with
 * exactly st (play() checks nothing moved); ANSWER: accepted with exactly
 * this answer; OK: accepted, a pass or choice (no answer). */
#define EXPECT(g, a, st)                                                      \
    do {                                                                      \
        int st_ = play((g), (a), NULL);                                       \
        cr_assert_eq(st_, (st), "got %s, want %s", lit_status_name(st_),      \
                     lit_status_name(st));                                    \
    } while (0)

#define ANSWER(g, a, ans)                                                     \
    do {                                                                      \
        LitEvent e_;                                                          \
        int st_ = play((g), (a), &e_);                                        \
        cr_assert_eq(st_, LIT_OK, "refused: %s", lit_status_name(st_));       \
        cr_assert_eq(e_.answer, (ans), "answer '%s', want '%s'",              \
                     lit_answer_name(e_.answer), lit_answer_name(ans));       \
    } while (0)

#define OK(g, a) ANSWER(g, a, LIT_UNKNOWN)

/* The bit of a set of the game's deck, by name. */
unsigned set_bit(const LitGame *g, const char *name);

/* Number of legal asks, passes and choices of a 1-based seat. */
int legal_count(const LitGame *g, int seat);

/* deal_fits(), whether a deal fits a history: tests/support/deal_fits.h
 * (shared with fuzz_infer). */

/* A fresh directory for a test's files, /tmp/NAME_ and six random
 * characters, written to dir (cap bytes); aborts the test when it cannot be
 * made. */
void scratch_make(char *dir, size_t cap, const char *name);

/* Removes the directory and everything in it. */
void scratch_remove(const char *dir);

/* The file at rel under the source directory (say "bench/corpus/12/0060.lit")
 * read into buf, NUL-terminated: its length. Aborts the test when it cannot
 * be opened or does not fit. */
size_t read_source(const char *rel, char *buf, size_t cap);

#endif
