/* cmds.h - the subcommands of `lit`; each takes the arguments after its name
 * (argv[0] is the subcommand) and returns the exit status. */
#ifndef LIT_CLI_CMDS_H
#define LIT_CLI_CMDS_H

int cmd_replay(int argc, char **argv);
int cmd_deal(int argc, char **argv);
int cmd_selfplay(int argc, char **argv);
int cmd_bench(int argc, char **argv);
int cmd_infer(int argc, char **argv);
int cmd_review(int argc, char **argv);
int cmd_arena(int argc, char **argv);
int cmd_play(int argc, char **argv);
int cmd_serve(int argc, char **argv);
int cmd_games(int argc, char **argv);
int cmd_backup(int argc, char **argv);

struct NetConfig;
/* `lit serve` (cmd_serve.c) with its options in argv, over base: the
 * settings the options give are set on a copy of base, its other fields
 * (the tests' hooks: tests/support/fault_serve.c) kept. cmd_serve passes
 * a config of zeros. */
int serve_with(int argc, char **argv, const struct NetConfig *base);

#include "literature/infer.h"

/* The scoresheet of `lit infer` (cmd_infer.c): the grid of cards by seats,
 * the least holdings, the count and the claim figures, on stdout; master:
 * o is master's beliefs (lit_bot_beliefs), with the exact count. */
void infer_print_grid(const LitKnow *k, const LitOdds *o, int master);

#endif
