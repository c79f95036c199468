/* step.h: the interactive stepper behind `warpsim step` -- a launch runs in
 * the simulator with DeviceLaunch.on_issue set to step_on_issue, so the
 * simulator pauses before every warp instruction and the stepper decides,
 * command by command (cuda-gdb's vocabulary: step, next, continue, break,
 * focus, info, print, where), when it goes on.  The prompt runs inside that
 * callback: the simulation simply waits while the user types.
 *
 * Files: step.c (this contract: modes, breakpoints, stops), step_cmd.c (the
 * command line: parsing, dispatch, help, print), step_show.c (where, info,
 * .cu source), step_input.c (libedit, scripts, piped stdin), step_viz.c
 * (the visualizer at the current cycle). */
#ifndef WARPSIM_STEP_H
#define WARPSIM_STEP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "inspect.h"
#include "launch.h"
#include "step_input.h"

typedef struct Stepper Stepper;

/* What a stepping session is about: all of it borrowed, it must outlive
 * the Stepper. */
typedef struct {
    const char *file;            /* the kernel file as given (.ptx or .cu) */
    const char *ptx_path;        /* where the PTX came from (file itself for .ptx) */
    const char *arch;            /* "sm_90" */
    const char *ptx;             /* the PTX text and its length */
    size_t ptx_len;
    const LaunchSpec *spec;      /* the launch (its buffers: print global argK) */
    int argc;                    /* the `warpsim step` arguments as typed, for the */
    char **argv;                 /* equivalent `warpsim run` line that viz prints */
    StepInput *in;               /* where commands come from */
    FILE *out;                   /* where everything is printed */
} StepConfig;

/* A stepper for one launch; NULL when out of memory. */
Stepper *step_new(const StepConfig *cfg);
void step_free(Stepper *s);

/* The DeviceLaunch.on_issue callback (a SimIssueFn): user is the Stepper.
 * Stops where the current mode says (the first instruction, the focus
 * warp's next instruction or .cu line, a breakpoint, Ctrl-C), runs the
 * prompt until a command resumes, and returns SIM_VIEW_STOP after quit or
 * the end of input. */
int step_on_issue(void *user, const SimView *v, uint64_t block, int warp);

/* Make the launch a replay of one that faulted after issuing insts warp
 * instructions (DeviceStats.warp_insts; the last one faulted in lane): it
 * runs without stopping to just before the faulting instruction and stops
 * there with the focus on that warp and lane.  Call before the launch. */
void step_stop_before(Stepper *s, uint64_t insts, int lane);

/* After the launch returned: did the user quit (the launch then ends with a
 * "stopped" fault); commands that failed (unknown, bad arguments); input
 * lines left unread (a script that went on past the end of the launch). */
bool step_quit_requested(const Stepper *s);
int step_errors(const Stepper *s);
int step_lines_left(Stepper *s);

#endif
