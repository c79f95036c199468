/* options.c: what the subcommands share (cmd.h): the usage-error message,
 * option spellings "--name value" or "--name=value", and byte counts with an
 * optional K / KB suffix. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"

int cmd_usage(const char *cmd, const char *fmt, const char *arg)
{
    fprintf(stderr, "warpsim %s: ", cmd);
    fprintf(stderr, fmt, arg);
    fprintf(stderr, "\n(see warpsim %s --help)\n", cmd);
    return 2;
}

int cmd_opt_value(int argc, char **argv, int *i, const char *name, const char **val)
{
    size_t n = strlen(name);
    *val = NULL;
    if (strncmp(argv[*i], name, n))
        return 0;
    if (argv[*i][n] == '=') {
        *val = argv[*i] + n + 1;
        return 1;
    }
    if (argv[*i][n])
        return 0;
    if (*i + 1 >= argc)
        return -1;
    *val = argv[++*i];
    return 1;
}

bool cmd_parse_size(const char *s, long long max, long long *out)
{
    if (!s || !*s || *s == '-')
        return false;
    char *end;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    if (errno || end == s)
        return false;
    if (*end == 'K' || *end == 'k') {
        if (v > max / 1024)
            return false;
        v *= 1024;
        end++;
        if (*end == 'B' || *end == 'b')
            end++;
    }
    if (*end || v > max)
        return false;
    *out = v;
    return true;
}
