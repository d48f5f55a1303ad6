/* lit.c - the `lit` command: dispatches to a subcommand. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cmds.h"

static const char usage[] =
    "usage: lit COMMAND [options]    (lit COMMAND --help for each)\n"
    "\n"
    "  replay FILE      check and print a game record; --trace for JSON\n"
    "  deal --seed N    print the deal a seed gives, as a record header\n"
    "  selfplay         play many games with the pinned policy (the engine\n"
    "                   benchmark)\n"
    "  bench            the fixed workload and its behaviour signature\n"
    "  infer FILE       what a seat (or everyone) can deduce: the scoresheet\n"
    "  review FILE      a seat's decisions against the expert bot, graded\n"
    "  arena            bots against bots on duplicate deals\n"
    "  play             a game against bots (plain mode: one command a line)\n"
    "  serve            online tables for friends and bots (docs/PROTOCOL.md)\n"
    "  games --db FILE  the games a server kept, and their records\n"
    "  backup           copy a server's store while it runs\n"
    "\n"
    "  --version        print the version\n"
    "  --help           this text\n";

/* A command's exit status, or 1 when what it wrote to stdout did not all
 * get there (a full disk, a closed pipe's reader gone): a command that
 * says nothing of it would exit 0 with its output lost. */
static int finished(int rc)
{
    if (fflush(stdout) == 0 && !ferror(stdout))
        return rc;
    fprintf(stderr, "lit: standard output: %s\n", errno ? strerror(errno) : "a write failed");
    return rc ? rc : 1;
}

int main(int argc, char **argv)
{
    static const struct {
        const char *name;
        int (*run)(int, char **);
    } cmds[] = {{"replay", cmd_replay},
                {"deal", cmd_deal},
                {"selfplay", cmd_selfplay},
                {"bench", cmd_bench},
                {"infer", cmd_infer},
                {"review", cmd_review},
                {"arena", cmd_arena},
                {"play", cmd_play},
                {"serve", cmd_serve},
                {"games", cmd_games},
                {"backup", cmd_backup}};
    if (argc < 2) {
        fputs(usage, stderr);
        return 2;
    }
    int version = strcmp(argv[1], "--version") == 0,
        help = strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "help") == 0;
    if ((version || help) && argc > 2) {
        fprintf(stderr, "lit: %s: unexpected argument '%s'\n", argv[1], argv[2]);
        return 2;
    }
    if (version) {
        printf("lit %s\n", LIT_VERSION);
        return finished(0);
    }
    if (help) {
        fputs(usage, stdout);
        return finished(0);
    }
    for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++)
        if (strcmp(argv[1], cmds[i].name) == 0)
            return finished(cmds[i].run(argc - 1, argv + 1));
    fprintf(stderr, "lit: unknown command '%s'\n", argv[1]);
    fputs(usage, stderr);
    return 2;
}
