/* progress.h: what the commands show while long work runs, and Ctrl-C.
 * A line on stderr, only when stderr is a terminal and not --quiet, only
 * once the work has run for a second: what is done, of what, and an
 * estimate of the time left; erased when the work ends.  Ctrl-C sets a flag
 * that the work polls, so a command stops cleanly, prints what was done so
 * far, and exits 130. */
#ifndef WARPSIM_PROGRESS_H
#define WARPSIM_PROGRESS_H

#include <stdbool.h>
#include <stdint.h>

typedef struct {
    const char *what;       /* "run", "explore": the line's head */
    const char *unit;       /* "blocks", "runs", "tests" */
    bool show;              /* stderr is a terminal and not --quiet */
    double start, last;     /* seconds (monotonic) */
    bool drawn;             /* a line is on the screen */
} Progress;

/* Start: the line will be shown when stderr is a terminal and !quiet. */
void progress_start(Progress *p, const char *what, const char *unit, bool quiet);

/* done of total units so far; draws at most four times a second.  Returns
 * true when Ctrl-C was pressed (the caller stops). */
bool progress_update(Progress *p, uint64_t done, uint64_t total);

/* Erase the line. */
void progress_end(Progress *p);

/* Catch SIGINT (and SIGTERM) from now on: they set the flag that
 * progress_update and progress_interrupted report, instead of killing. */
void progress_catch_interrupt(void);

/* Was Ctrl-C pressed since progress_catch_interrupt? */
bool progress_interrupted(void);

/* A LaunchSpec.on_progress for one launch: user is a Progress. */
int progress_launch_cb(void *user, uint64_t retired, uint64_t total);

/* The exit status of an interrupted command. */
#define PROGRESS_EXIT_INTERRUPTED 130

#endif
