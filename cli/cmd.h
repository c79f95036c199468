/* cmd.h: the subcommands of the warpsim front end.  Each lives in its own
 * cli/cmd_<name>.c, takes argv with argv[0] = the subcommand name, and
 * returns the process exit status: 0 success, 1 the kernel/check failed,
 * 2 bad usage or bad input (the message already printed to stderr). */
#ifndef WARPSIM_CMD_H
#define WARPSIM_CMD_H

#include <stdbool.h>

int cmd_run(int argc, char **argv);
int cmd_explore(int argc, char **argv);
int cmd_lesson(int argc, char **argv);
int cmd_occupancy(int argc, char **argv);
int cmd_xcheck(int argc, char **argv);
int cmd_trace(int argc, char **argv);
int cmd_grade(int argc, char **argv);
int cmd_step(int argc, char **argv);
int cmd_viz(int argc, char **argv);

/* cmd_threads.c: the worker threads of a subcommand.  cmd_threads_default
 * sets *threads from WARPSIM_THREADS or the cores available; false (the
 * message printed, exit 2) when WARPSIM_THREADS is bad.  cmd_threads_option
 * takes argv[*i] when it is --threads N (or --threads=N): 1 taken (*i on
 * its value), 0 not this option, -1 a bad count (message printed, exit 2). */
bool cmd_threads_default(const char *cmd, int *threads);
int cmd_threads_option(const char *cmd, int argc, char **argv, int *i, int *threads);

/* options.c: "warpsim CMD: " and the message (fmt with one string argument)
 * on stderr, then where the help is; returns 2, the usage exit status. */
int cmd_usage(const char *cmd, const char *fmt, const char *arg);
/* argv[*i] is option name, as "--name value" or "--name=value":
 * 1 with *val (and *i on the value when it was a separate word), 0 not this
 * option, -1 name without the value it needs. */
int cmd_opt_value(int argc, char **argv, int *i, const char *name, const char **val);
/* A non-negative integer with an optional K / KB suffix (x 1024), at most
 * max: false when s is anything else. */
bool cmd_parse_size(const char *s, long long max, long long *out);

/* The help page of `warpsim occupancy` (occupancy_help.c). */
extern const char cmd_occupancy_help[];

#endif
