/* table.h - the full-screen table of `lit play` (table.c, ncursesw): one
 * face of the play session (play.h); plain mode (cmd_play.c) is the other. */
#ifndef LIT_CLI_TABLE_H
#define LIT_CLI_TABLE_H

#include "play.h"

/* Plays the session at the table until the end (0) or quit (1: q,
 * Ctrl-C, a signal (play_stopped), the terminal gone), then leaves the
 * screen as it was. Keys typed while the bots play are kept for the turn
 * (q and Ctrl-C quit at once); a fault puts the terminal back first. */
int table_loop(Play *pl);

/* Whether the terminal (TERM, standard output) can show the table: known
 * to terminfo and able to move the cursor. */
int table_usable(void);

#endif
