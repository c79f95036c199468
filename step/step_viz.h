/* step_viz.h: the stepper's `viz` -- the paused launch shown in the
 * visualizer.  The launch is run once more, from the start, in a fresh
 * simulator with a memory-level trace (the default schedule is
 * deterministic, so it replays identically), and the window opens on that
 * trace at the current cycle with the focus block selected. */
#ifndef WARPSIM_STEP_VIZ_H
#define WARPSIM_STEP_VIZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "step.h"

/* `viz [VIEW]` at the stepper's current cycle (view: gpu, sm, memory,
 * atomics).  The trace is written once per session to a temporary file that
 * is kept (its path is printed).  0, or nonzero with msg. */
int step_viz(Stepper *s, const char *view, char *msg, size_t cap);

/* Run cfg's launch again with a memory-level trace into a new temporary
 * file; its path (malloc'd), or NULL with msg. */
char *step_viz_trace(const StepConfig *cfg, char *msg, size_t cap);

/* Show trace at cycle in view with block (and its SM) selected: the
 * visualizer's window when warpsim is built with viz/, else the commands
 * that do it, printed on out.  0, or nonzero with msg. */
int step_viz_open(const char *trace, uint64_t cycle, const char *view, uint64_t block, int sm, FILE *out,
                  char *msg, size_t cap);

#endif
