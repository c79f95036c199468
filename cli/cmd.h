/* cmd.h: the subcommands of the warpsim front end.  Each lives in its own
 * cli/cmd_<name>.c, takes argv with argv[0] = the subcommand name, and
 * returns the process exit status: 0 success, 1 the kernel/check failed,
 * 2 bad usage or bad input (the message already printed to stderr). */
#ifndef WARPSIM_CMD_H
#define WARPSIM_CMD_H

int cmd_run(int argc, char **argv);
int cmd_explore(int argc, char **argv);
int cmd_lesson(int argc, char **argv);
int cmd_occupancy(int argc, char **argv);
int cmd_xcheck(int argc, char **argv);
int cmd_trace(int argc, char **argv);
int cmd_grade(int argc, char **argv);
int cmd_step(int argc, char **argv);
int cmd_viz(int argc, char **argv);

#endif
