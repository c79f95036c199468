/* grade.h: `warpsim grade` -- grading a student's kernel against a lesson's
 * exercise (lessons/exercise.h).
 *
 * The .cu is compiled with nvcc -ptx -lineinfo; the kernel is found by the
 * exercise's name and checked against its parameters; every test runs K
 * times in the simulator, run 0 with the default schedule and atomic order
 * and the others with seeded adversarial and random ones, with race checking,
 * bounds checking, deadlock detection and an instruction budget on.  What
 * goes wrong becomes findings (deduplicated by kind and line, each with the
 * command that replays it); optionally the tests also run on a GPU in a
 * child process with a timeout.  The report is then written as text, JSON
 * or Gradescope's results.json. */
#ifndef WARPSIM_GRADE_H
#define WARPSIM_GRADE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "device.h"
#include "exercise.h"
#include "lesson.h"

/* Runs per test when --runs is not given: run 0 plus seeded schedules. */
#define GRADE_DEFAULT_RUNS 8
/* Seconds nvcc may take on a submission before it counts as a compile error. */
#define GRADE_COMPILE_TIMEOUT 120
/* Seconds each GPU launch (and the GPU setup) may take by default. */
#define GRADE_GPU_TIMEOUT 10

typedef struct {
    const char *student;         /* the .cu to grade */
    int runs;                    /* K >= 1 */
    uint64_t seed;               /* run k >= 1 uses seed + k */
    bool gpu;                    /* also run the tests on the GPU */
    bool gpu_sim;                /* a second simulator stands in for the GPU
                                    (to test the GPU path without one) */
    int gpu_timeout;             /* seconds, see GRADE_GPU_TIMEOUT */
    bool progress;               /* progress on stderr while grading */
} GradeOptions;

/* One finding: a problem, where it is, and how to see it again. */
typedef struct {
    char kind[32];               /* compile-error, signature, wrong-answer, race,
                                    out-of-bounds, budget-exceeded, deadlock,
                                    barrier-divergence, scope, timeout, or another
                                    fault kind of device.h (misaligned, trap, ...) */
    char detail[32];             /* the simulator's finer word ("lost-update",
                                    "read-after-write"); "" when none */
    char backend[12];            /* "simulator", "gpu" or "" (compiler) */
    char file[256];              /* the .cu (as the student named it when it is
                                    the submission); "" unknown */
    int line, col;               /* 1-based; 0 unknown */
    char msg[1024];              /* what is wrong, for a student */
    bool has_thread;             /* block and thread are known */
    DeviceDim3 block, thread;
    char op[16];                 /* races: the access that revealed it */
    bool has_other;              /* races: the earlier access */
    DeviceDim3 other_block, other_thread;
    int other_line;
    char other_op[16];
    int test;                    /* first test that showed it, -1 none */
    int run;                     /* and its run, -1 none */
    int schedule, atomic_order;  /* of that run (DEVICE_SCHED_*, DEVICE_ATOMIC_*) */
    uint64_t seed;
    int count;                   /* how many (test, run) pairs showed it */
    uint64_t tests_mask;         /* bit i: test i showed it */
    char replay[1024];           /* `warpsim run ...` that replays it; "" none */
    char step[1024];             /* the same with `warpsim step` */
} GradeFinding;

/* A test or a rubric item, as scored. */
typedef struct {
    char name[160];
    bool rubric;                 /* a rubric item (else a test) */
    bool passed;
    int score, max_score;
    char output[2048];           /* what happened, one or more lines */
} GradeItem;

typedef struct {
    const Lesson *lesson;
    const Exercise *ex;
    const char *student;         /* the path as given */
    char *source;                /* the student's .cu text (owned) */
    size_t source_len;
    int runs;
    uint64_t seed;
    bool compiled;
    char *compiler_output;       /* nvcc's messages when it failed (owned), else NULL */
    GradeItem *items;            /* ex->ntests tests, then ex->nrubric rubric items */
    int nitems;
    GradeFinding *findings;      /* in the order first seen */
    int nfindings;
    int score, max_score;
    bool passed;                 /* compiled and every test passed; rubric items
                                    add points but never fail a grade */
    bool gpu_requested;
    bool gpu_ran;                /* the tests ran on a GPU (or its stand-in) */
    char gpu_note[512];          /* one line: the device, or why it did not run */
    double seconds;              /* wall time of the grading */
} GradeReport;

/* Grade o->student against lesson l's exercise.  Returns 0 with *r filled
 * (passed or not: r->passed), or 2 with msg (one line, no prefix) when it
 * could not grade: the lesson has no exercise, the file cannot be read, nvcc
 * is missing, a temporary file cannot be made.  Free *r with
 * grade_report_free in both cases. */
int grade_run(const Lesson *l, const GradeOptions *o, GradeReport *r, char *msg, size_t cap);
void grade_report_free(GradeReport *r);

/* The report for a terminal: tests, rubric, findings with their source line
 * and a marker, replay commands, the score. */
void grade_write_text(FILE *f, const GradeReport *r);
/* {"lesson", "passed", "score", "max_score", "tests": [{"name", "passed",
 * "score", "max_score", "output"}], "findings": [{"kind", "file", "line",
 * ...}]} (+ "gpu" with --gpu); rubric items are tests named "rubric: ...". */
void grade_write_json(FILE *f, const GradeReport *r);
/* Gradescope's results.json: {"score", "output", "tests": [{"name",
 * "score", "max_score", "output", "visibility"}]}. */
void grade_write_gradescope(FILE *f, const GradeReport *r);

#endif
