/* cmd_threads.c: --threads N for the subcommands that run independent
 * launches side by side (run, explore, grade, occupancy, xcheck): the
 * default from WARPSIM_THREADS or the cores (pool.h), a bad value refused
 * with the subcommand's name. */
#include <stdio.h>
#include <string.h>

#include "cmd.h"
#include "pool.h"

bool cmd_threads_default(const char *cmd, int *threads)
{
    char msg[300];
    if (pool_threads_default(threads, msg, sizeof msg))
        return true;
    fprintf(stderr, "warpsim %s: %s\n", cmd, msg);
    return false;
}

int cmd_threads_option(const char *cmd, int argc, char **argv, int *i, int *threads)
{
    const char *a = argv[*i];
    const char *v = NULL;
    if (!strncmp(a, "--threads=", 10))
        v = a + 10;
    else if (!strcmp(a, "--threads") && *i + 1 < argc)
        v = argv[++*i];
    else
        return 0;
    char msg[300];
    if (pool_threads_parse(v, threads, msg, sizeof msg))
        return 1;
    fprintf(stderr, "warpsim %s: --threads %s\n(see warpsim %s --help)\n", cmd, msg, cmd);
    return -1;
}
