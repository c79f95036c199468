/* step.h: the stepper -- a library that pauses a simulated launch before
 * warp instructions and is driven by command lines in cuda-gdb's vocabulary
 * (step, next, continue, break, focus, info, print, where, viz), writing what
 * they show to a FILE *.  It has no terminal in it: the caller gives the
 * command lines (StepReadFn) and decides what Ctrl-C does (step_interrupt).
 * `warpsim step` (cli/cmd_step.c) is one such caller; tests are another.
 *
 * How it runs: the caller sets DeviceLaunch.on_issue (LaunchSpec.on_issue)
 * to step_on_issue with the Stepper as its user pointer and launches.  Before
 * every warp instruction the simulator calls step_on_issue; where the current
 * mode says to stop (the first instruction, the focus warp's next
 * instruction or .cu line, a breakpoint, an interrupt), the Stepper prints
 * where the launch is, then reads and runs commands until one resumes the
 * launch (step, next, continue) or ends it (quit, or the end of input).  The
 * simulation simply waits inside the callback meanwhile. */
#ifndef WARPSIM_STEP_H
#define WARPSIM_STEP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "inspect.h"
#include "launch.h"

typedef struct Stepper Stepper;   /* opaque: one stepping session of one launch */

/* The next command line, without its newline; NULL at the end of input
 * (the Stepper then quits the launch).  prompt is what a terminal would
 * show ("(warpsim) ").  The text must stay valid until the next call.  An
 * empty line repeats the last command; a line starting with # is a comment. */
typedef const char *(*StepReadFn)(void *user, const char *prompt);

/* Told as the launch goes on after a command resumed it (running true) and
 * as it pauses again (false), before the stop is shown; s is the Stepper.
 * A terminal front end catches SIGINT while running (and calls
 * step_interrupt) and leaves it to the prompt while paused. */
typedef void (*StepRunningFn)(void *user, Stepper *s, bool running);

/* What a stepping session is about and how it talks: all of it borrowed,
 * it must outlive the Stepper. */
typedef struct {
    const char *file;            /* the kernel file as given (.ptx or .cu): the
                                    module name, and in viz's `warpsim run` line */
    const char *ptx_path;        /* where the PTX came from (file itself for .ptx):
                                    .cu files the PTX names are looked for beside it */
    const char *arch;            /* "sm_90": viz reruns the launch on it */
    const char *ptx;             /* the PTX text and its length (viz reloads it) */
    size_t ptx_len;
    const LaunchSpec *spec;      /* the launch: its shape (focus, %tid), its
                                    argument specs (print argK, types) */
    int argc;                    /* the `warpsim step` arguments as typed (argv[0] */
    char **argv;                 /* the subcommand), for the equivalent `warpsim run`
                                    line that viz prints; argc 0 prints none */
    StepReadFn read;             /* where commands come from (required) */
    StepRunningFn running;       /* NULL: nobody needs telling */
    void *user;                  /* given to read and running */
    bool interactive;            /* a person types the commands: the end of input
                                    shows as "quit" rather than "(end of the
                                    commands: quit)" */
    FILE *out;                   /* where everything is written (required) */
} StepConfig;

/* A stepper for one launch, paused before its first warp instruction once
 * the launch starts; NULL when out of memory or cfg lacks read or out.
 * Free it with step_free (NULL is fine) after the launch returned. */
Stepper *step_new(const StepConfig *cfg);
void step_free(Stepper *s);

/* The on_issue callback (a SimIssueFn of inspect.h): user is the Stepper.
 * Stops where the current mode says, shows the stop on cfg.out, and runs
 * commands from cfg.read until one resumes the launch.  Returns
 * SIM_VIEW_CONTINUE, or SIM_VIEW_STOP after quit or the end of input (the
 * launch then ends with a "stopped" fault). */
int step_on_issue(void *user, const SimView *v, uint64_t block, int warp);

/* Make the launch a replay of one that faulted after issuing insts warp
 * instructions (DeviceStats.warp_insts; the last one faulted in lane, 0..31,
 * anything else taken as 0): it runs without stopping to just before the
 * faulting instruction and stops there with the focus on that warp and
 * lane.  Call before the launch. */
void step_stop_before(Stepper *s, uint64_t insts, int lane);

/* Stop at the next warp instruction, whatever the mode (Ctrl-C).  Only sets
 * a flag: safe to call from a signal handler, while the launch runs. */
void step_interrupt(Stepper *s);

/* After the launch returned: did the user quit (the launch then ends with a
 * "stopped" fault); how many commands failed (unknown, bad arguments: each
 * printed an "error: ..." line). */
bool step_quit_requested(const Stepper *s);
int step_errors(const Stepper *s);

/* Words for tab completion: the i-th word that may follow the command
 * `first` (first NULL: the i-th command name; first "help": the command
 * names; an abbreviation of a command counts as the command), NULL after
 * the last.  Static strings; no Stepper needed. */
const char *step_command_word(const char *first, int i);

#endif
