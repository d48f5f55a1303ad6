/* helper.h - a second thread for lit_odds_helped (LitHelper): one POSIX
 * thread that runs one call at a time, for the commands that count. */
#ifndef LIT_CLI_HELPER_H
#define LIT_CLI_HELPER_H

#include "literature/infer.h"

typedef struct Helper Helper;

/* A helper thread when threads is 2 and it can be started; NULL when
 * threads is 1 (or the thread could not be made: the counting then runs
 * alone, with the same figures). helper_free(NULL) is nothing. */
Helper *helper_new(int threads);
void helper_free(Helper *h);

/* What lit_odds_helped takes: NULL for NULL. */
LitHelper *helper_lent(Helper *h);

/* The threads a count may take by default: 2 on a machine of two cores or
 * more, else 1. */
int helper_default_threads(void);

#endif
