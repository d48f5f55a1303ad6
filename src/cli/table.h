/* table.h - the full-screen table of `lit play` (table.c, ncursesw): one
 * face of the play session (play.h); plain mode (cmd_play.c) is the other. */
#ifndef LIT_CLI_TABLE_H
#define LIT_CLI_TABLE_H

#include "play.h"

/* Plays the session at the table until the end (0) or quit (1), then
 * leaves the screen as it was. */
int table_loop(Play *pl);

#endif
