/* lesson_xcheck.h: the lessons' checked launches (lessons/NN-topic/xcheck.txt)
 * run in the simulator and on a GPU, or compared with a GPU's recording
 * (traces/hw/<gpu>/xcheck.json) -- which lessons, their kernel.ptx on each
 * device, the recording written and read.  Running, comparing and the report
 * are xcheck.h's; this is the part that knows the lessons' folders. */
#ifndef WARPSIM_LESSON_XCHECK_H
#define WARPSIM_LESSON_XCHECK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "xcheck.h"

typedef struct {
    bool all;                    /* every lesson that has an xcheck.txt */
    const char *const *sel;      /* else these lessons (numbers or folder names) */
    int nsel;
    int runs;                    /* hardware runs of an order-dependent launch */
    int threads;                 /* simulator launches side by side */
    bool use_sim;                /* live: a second simulator stands in for the GPU */
    const char *arch;            /* its arch (and the sim profile asked for) */
    const char *record_dir;      /* live: also write DIR/<gpu>/xcheck.json; NULL none */
    const char *recorded_path;   /* recorded: a folder or a .json; NULL: traces/hw beside
                                    the lessons */
    FILE *err;                   /* where what stops a check is said ("warpsim xcheck: ...") */
} LessonXcheckOptions;

/* Check the selected lessons against a GPU (or a second simulator) into
 * rep, and record when asked; the recording's path into saved ("" none).
 * 0 everything agrees, 1 a mismatch, 2 it could not run (said on o->err). */
int lesson_xcheck_live(const LessonXcheckOptions *o, XcheckReport *rep, char *saved, size_t saved_cap);

/* Compare the simulator with the recordings at o->recorded_path into rep.
 * The same statuses. */
int lesson_xcheck_recorded(const LessonXcheckOptions *o, XcheckReport *rep);

#endif
