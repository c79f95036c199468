/* grade.h: the grader -- grading a student's kernel against an exercise
 * (grade_exercise.h), usable from `warpsim grade`, a course platform, a web
 * page's back end or a test alike.  This header and grade_exercise.h are
 * the whole contract.
 *
 * The .cu is compiled with nvcc -ptx -lineinfo; the kernel is found by the
 * exercise's name and checked against its parameters; every test runs K
 * times in the simulator, run 0 with the default schedule and atomic order
 * and the others with seeded adversarial and random ones, with race
 * checking, bounds checking, deadlock detection and an instruction budget
 * on.  What goes wrong becomes findings (deduplicated by kind and line, each
 * with the command that replays it); optionally the tests also run on a GPU
 * in a child process with a timeout.  The report can then be written as
 * text, JSON or Gradescope's results.json.  Nothing here prints to the
 * terminal or exits: problems fill a SimError. */
#ifndef WARPSIM_GRADE_H
#define WARPSIM_GRADE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "device.h"
#include "error.h"
#include "grade_exercise.h"

/* Runs per test when the caller has no opinion: run 0 plus seeded schedules. */
#define GRADE_DEFAULT_RUNS 8
/* Seconds nvcc may take on a submission before it counts as a compile error. */
#define GRADE_COMPILE_TIMEOUT 120
/* Seconds each GPU launch (and the GPU setup) may take by default. */
#define GRADE_GPU_TIMEOUT 10
/* Address space nvcc (each of its stages) and ptxas may use by default. */
#define GRADE_COMPILE_MEMORY (4ull << 30)
/* Simulated memory one launch may use by default: global buffers, shared
 * memory of every block and local memory of every thread together. */
#define GRADE_MAX_MEMORY (256ull << 20)
/* The most warp instructions one launch may issue, whatever the exercise
 * allows.  Above every shipped exercise's own budget (lesson 8's largest
 * test has 12.9 million), so it only stops an exercise that asks for more;
 * an endless loop ends at the exercise's budget, in well under a second. */
#define GRADE_MAX_BUDGET 20000000ull
/* The most printf output one launch may write (device_set_printf_limit),
 * far below `warpsim run`'s DEVICE_PRINTF_MAX: past it the test stops with
 * a printf-limit finding.  The report never shows a kernel's printf output,
 * and a kernel printing in every thread of a loop would otherwise spend
 * the whole budget formatting text nobody reads. */
#define GRADE_MAX_PRINTF (1ull << 20)

/* Told as each run of each test is taken into the report (in test and run
 * order; with threads > 1 the runs themselves go side by side), and once
 * more with test = -1 when the simulator's runs are over; called on the
 * grading thread.  test and run
 * count from 0; runs is GradeOptions.runs. */
typedef void (*GradeProgressFn)(void *arg, const GradeExercise *ex, int test, int run, int runs);

typedef struct {
    const char *student;         /* the .cu to grade (a path; borrowed) */
    int runs;                    /* K >= 1 (GRADE_DEFAULT_RUNS) */
    uint64_t seed;               /* run k >= 1 uses seed + k */
    bool gpu;                    /* also run the tests on the GPU */
    bool gpu_sim;                /* a second simulator stands in for the GPU
                                    (to test the GPU path without one); needs gpu */
    int gpu_timeout;             /* seconds, see GRADE_GPU_TIMEOUT; <= 0: that default */
    /* Ceilings a course sets and a submission cannot raise; 0: the default. */
    int compile_timeout;         /* wall and CPU seconds of nvcc and of ptxas (GRADE_COMPILE_TIMEOUT) */
    uint64_t compile_memory;     /* their address space, bytes (GRADE_COMPILE_MEMORY) */
    uint64_t max_memory;         /* simulated bytes per launch (GRADE_MAX_MEMORY): a test that
                                    needs more is not run, a memory-limit finding says why */
    uint64_t max_budget;         /* warp instructions per launch (GRADE_MAX_BUDGET): the
                                    exercise's budget is cut to it */
    int threads;                 /* simulator runs side by side (pool.h); <= 1: one at a
                                    time.  The report is the same with any count */
    const char *include_dir;     /* headers the course ships (lessons/include: tile.cuh),
                                    which a submission may #include besides its own
                                    folder's; NULL none */
    GradeProgressFn progress;    /* NULL: no progress reports */
    void *progress_arg;          /* passed to progress */
} GradeOptions;

/* One finding: a problem, where it is, and how to see it again. */
typedef struct {
    char kind[32];               /* compile-error, include-refused, submission-refused,
                                    unsupported, memory-limit, not-graded, signature,
                                    wrong-answer, race, out-of-bounds, budget-exceeded,
                                    deadlock, barrier-divergence, scope, timeout, launch-failed,
                                    printf-limit,
                                    or another fault kind of device.h (misaligned,
                                    trap, ...) */
    char detail[32];             /* the simulator's finer word ("lost-update",
                                    "read-after-write"); "" when none */
    char backend[12];            /* "simulator", "gpu" or "" (compiler) */
    char file[256];              /* the .cu (as the student named it when it is
                                    the submission); "" unknown */
    int line, col;               /* 1-based; 0 unknown */
    char msg[1024];              /* what is wrong, for a student */
    bool has_thread;             /* block and thread are known */
    DeviceDim3 block, thread;    /* the thread that showed it (%ctaid, %tid) */
    char op[16];                 /* races: the access that revealed it ("write") */
    bool has_other;              /* races: the earlier access is known */
    DeviceDim3 other_block, other_thread; /* races: the earlier access's thread */
    int other_line;              /* races: its line, 0 unknown */
    char other_op[16];           /* races: its kind ("read") */
    int test;                    /* first test that showed it (index into ex->tests), -1 none */
    int run;                     /* and its run: 0..runs-1 in the simulator, -1 the GPU or none */
    int schedule, atomic_order;  /* of that run (DEVICE_SCHED_*, DEVICE_ATOMIC_*) */
    uint64_t seed;               /* of that run */
    int count;                   /* how many (test, run) pairs showed it */
    uint64_t tests_mask;         /* bit i: test i showed it */
    char replay[1024];           /* `warpsim run ...` that replays it; "" none */
    char step[1024];             /* the same with `warpsim step`; "" none */
} GradeFinding;

/* A test or a rubric item, as scored. */
typedef struct {
    char name[160];              /* the test's name; a rubric item's is "rubric: " + its name */
    bool rubric;                 /* a rubric item (else a test) */
    bool passed;
    int score, max_score;        /* points earned (0 or max_score) and possible */
    char output[2048];           /* what happened, one or more lines */
} GradeItem;

/* The result of one grading.  Everything it points to is owned by it
 * (freed by grade_report_free) except ex and student, which it borrows:
 * they must outlive the report. */
typedef struct {
    const GradeExercise *ex;     /* the exercise graded (borrowed) */
    const char *student;         /* the path as given (borrowed) */
    char *source;                /* the student's .cu text (owned), NULL unread */
    size_t source_len;
    int runs;                    /* runs per test asked for */
    uint64_t seed;               /* GradeOptions.seed */
    bool compiled;               /* nvcc (and ptxas) accepted the file */
    char *compiler_output;       /* nvcc's messages when it failed (owned), else NULL */
    GradeItem *items;            /* ex->ntests tests, then ex->nrubric rubric items (owned) */
    int nitems;
    GradeFinding *findings;      /* in the order first seen (owned) */
    int nfindings;
    int score, max_score;        /* the items' points together */
    bool passed;                 /* compiled and every test passed; rubric items
                                    add points but never fail a grade */
    bool gpu_requested;          /* GradeOptions.gpu */
    bool gpu_ran;                /* the tests ran on a GPU (or its stand-in) */
    char gpu_note[512];          /* one line: the device, or why it did not run */
    double seconds;              /* wall time of the grading */
} GradeReport;

/* Grade o->student against exercise ex; r and err must not be NULL, ex
 * and o->student must outlive *r.  The submission is hostile input: it is
 * read once (a regular file of at most SOURCE_MAX_CU bytes), compiled in a
 * private sandbox (launch/sandbox.h) under o's compile limits after its
 * #includes were checked, and reports show only its own text.  SIM_OK with
 * *r filled, whether the kernel passed or not (r->passed): a file that is
 * refused or does not compile, an #include outside its folder, a kernel
 * the simulator cannot load, a missing kernel, wrong parameters, a wrong
 * answer, a race, a fault, an endless loop, a test past o->max_memory are
 * all findings in a graded report, with 0 points for the tests they
 * prevented.  Any other status when it could not grade, with one line (no
 * prefix) in err->msg: SIM_ERR_USAGE for a NULL or invalid exercise
 * (grade_exercise_valid says why), no student file or runs < 1 (r->ex is
 * then NULL: nothing to write); SIM_ERR_IO when the file does not exist;
 * SIM_ERR_NODEVICE when nvcc is missing or cannot be run, no temporary
 * folder can be made, or warpsim was interrupted; SIM_ERR_NOMEM.  In those
 * cases with r->ex set, *r is still a complete report (score 0, a
 * not-graded finding saying why) that the writers accept.  Free *r with
 * grade_report_free in every case.  Blocking: nvcc and ptxas run as child
 * processes and, with o->gpu, the GPU's runs in a forked one, all killed
 * with warpsim; o->progress is called on the way. */
SimStatus grade_run(const GradeExercise *ex, const GradeOptions *o, GradeReport *r, SimError *err);

/* Free what *r owns and zero it; a zeroed report is fine. */
void grade_report_free(GradeReport *r);

/* ---- a class: many submissions at once (grade_class.c) ---- */

/* Told of submission `index` once it is graded, on the thread that called
 * grade_class_run, for index = 0, 1, 2, ... in order: r, st and err are
 * what grade_run gave for it (r->ex is set, so r can be written even when
 * st is not SIM_OK).  r is freed when this returns: copy what is kept. */
typedef void (*GradeClassDoneFn)(void *arg, int index, const GradeReport *r, SimStatus st, const SimError *err);

/* Grade students[0 .. n-1] against ex, each as grade_run would with o
 * (o->student, o->progress and o->threads are set per submission): the
 * submissions go side by side on o->threads workers (pool.h), each
 * compiling and running its own tests, and a submission's report is the
 * one grade_run gives for it alone, byte for byte, with any o->threads.
 * done (not NULL) gets each in order.  SIM_OK when every submission was
 * handed to done (each with its own status); SIM_ERR_USAGE (err filled,
 * done never called) for n < 1, a NULL student or an invalid exercise or
 * options (see grade_run); SIM_ERR_NOMEM.  Blocking; the students' paths
 * must outlive the call. */
SimStatus grade_class_run(const GradeExercise *ex, const GradeOptions *o, const char *const *students, int n,
                          GradeClassDoneFn done, void *arg, SimError *err);

/* The writers take a report grade_run filled with SIM_OK (or one filled
 * alike: ex, student and items set) and write it to f; they change nothing
 * in r and report no error (check f with ferror).
 *
 * The report for a terminal (in colour when f is one and $NO_COLOR is
 * unset): tests, rubric, findings with their source line (from r->source
 * only: a finding in another file, a header or a name a #line chose, shows
 * none) and a marker, replay commands, the score.  Control characters and
 * bytes that are not UTF-8 in anything the submission controls are written
 * as \xNN. */
void grade_write_text(FILE *f, const GradeReport *r);
/* The JSON writers escape control characters and replace bytes that are
 * not UTF-8 with U+FFFD: their output is always valid JSON in UTF-8.
 * {"lesson", "passed", "score", "max_score", "tests": [{"name", "passed",
 * "score", "max_score", "output"}], "findings": [{"kind", "file", "line",
 * ...}]} (+ "gpu" with --gpu); rubric items are tests named "rubric: ...". */
void grade_write_json(FILE *f, const GradeReport *r);
/* Gradescope's results.json: {"score", "output", "tests": [{"name",
 * "score", "max_score", "status", "output", "visibility"}]}. */
void grade_write_gradescope(FILE *f, const GradeReport *r);

#endif
