/* selfplay.h - the pinned self-play policy: the engine benchmark's workload
 * and the behaviour `lit bench` signs (docs/BENCHMARKS.md).
 *
 * Game i of a run with seed S is dealt by seat 1 from lit_seed_mix(S, i); the
 * policy draws from a generator seeded with lit_seed_mix(that seed, 1).
 * Before each ask the mover's team correctly claims every set it holds
 * entirely (the mover claims, lowest set first); then the mover asks a
 * uniformly random legal question. Passes and choices are uniform among the
 * legal ones (under must-claim a seat that must choose while it holds a whole
 * set claims it first); in the endgame the claimer claims the lowest set,
 * correctly.
 * Every action goes through lit_game_play.
 */
#ifndef LIT_CLI_SELFPLAY_H
#define LIT_CLI_SELFPLAY_H

#include <stdint.h>

#include "literature/game.h"

/* Plays game `index` of a run with seed `seed` to its end. *start receives
 * the dealt position, *end the final one, log the events (its cap must be at
 * least LIT_MAX_ACTIONS). Returns the number of actions. */
uint32_t selfplay_game(const LitRules *rules, uint64_t seed, uint64_t index,
                       LitGame *start, LitGame *end, LitLog *log);

/* FNV-1a over events, continuing from h (start with SELFPLAY_HASH_INIT). */
uint64_t selfplay_hash(uint64_t h, const LitEvent *events, uint32_t n);
#define SELFPLAY_HASH_INIT UINT64_C(0xcbf29ce484222325)

#endif
