/* grade_exercise.h: what an exercise is, for the grader -- the part of the
 * grader's contract (grade.h) that whoever sets an exercise fills in: a
 * lesson (lessons/NN-topic/exercise/grade.c), a course platform, a test.
 *
 * An exercise is one kernel a student writes (lesson 1: block_sum):
 *   - the kernel's name and parameters (the signature the grader looks for);
 *   - tests: each a problem size n with points, turned by launch() into a
 *     launch configuration and arguments, and judged by check(), which
 *     computes the reference in C from the inputs and compares;
 *   - rubric items with points: no races, at most N atomics per element (or
 *     per block, or per launch), occupancy at least X, at most N cycles in
 *     the timing model.
 *
 * Arguments are written exactly as `warpsim run --arg` takes them
 * ("buf:i32[257]=rand:257", "i32:257"), so the input generator is the one
 * the README documents (splitmix64 for rand:SEED), and every finding comes
 * with a `warpsim run` command line that rebuilds the same inputs. */
#ifndef WARPSIM_GRADE_EXERCISE_H
#define WARPSIM_GRADE_EXERCISE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "device.h"

#define GRADE_MAX_PARAMS 8       /* kernel parameters an exercise may have */
#define GRADE_MAX_TESTS 64       /* tests an exercise may have */
#define GRADE_ARG_CAP 96         /* bytes of one --arg spec, NUL included */

/* One kernel parameter of the signature. */
typedef struct {
    const char *decl;            /* as the signature writes it: "const int *in" */
    int size;                    /* its size in bytes: 8 for a pointer, 4 for an int */
    bool is_buffer;              /* a pointer to a buffer (else a scalar) */
} GradeParam;

/* One test: a problem size and what it is worth. */
typedef struct {
    const char *name;            /* "n = 257 (one past a full block)" */
    long long n;                 /* the size launch() and check() work from */
    int points;                  /* earned when every run is correct and clean */
} GradeExerciseTest;

/* A launch, as launch() fills it. */
typedef struct {
    DeviceDim3 grid, block;
    unsigned smem;               /* dynamic shared memory, bytes */
    int nargs;                   /* = the exercise's nparams */
    char args[GRADE_MAX_PARAMS][GRADE_ARG_CAP]; /* --arg specs, in order */
} GradeLaunch;

/* One argument's contents: a buffer's count elements of elem_size bytes
 * (little-endian), or a scalar's value (count 1). */
typedef struct {
    const void *data;
    uint64_t count;
    int elem_size;
} GradeData;

/* What a rubric item measures. */
typedef enum {
    GRADE_RUBRIC_NO_RACES,       /* no race, barrier or scope finding in any run */
    GRADE_RUBRIC_MAX_ATOMICS,    /* DeviceStats.atomics <= limit x units, every run */
    GRADE_RUBRIC_MIN_OCCUPANCY,  /* theoretical occupancy (registers and shared
                                    memory from ptxas, block size of the tests)
                                    >= limit (0..1) on the exercise's arch */
    GRADE_RUBRIC_MAX_CYCLES      /* the timing model's cycles (DeviceStats.cycles
                                    of a timed launch, docs/timing.md) of run 0
                                    of the largest test <= limit, judged only
                                    when that run's answer was right (a time of
                                    a smaller test says nothing of the size the
                                    item names); run 0 of every test is timed when
                                    an exercise has such an item (timing never
                                    changes results) */
} GradeRubricKind;

/* The units of a MAX_ATOMICS limit. */
typedef enum {
    GRADE_PER_ELEMENT,           /* per element: the test's n */
    GRADE_PER_BLOCK,             /* per block of the launch */
    GRADE_PER_LAUNCH             /* in total */
} GradePer;

/* A rubric item.  It is judged only on tests whose answer was right: a
 * kernel that computes nothing earns no rubric points. */
typedef struct {
    GradeRubricKind kind;
    const char *name;            /* "at most one atomicAdd per block" */
    double limit;                /* MAX_ATOMICS: atomics per unit; MIN_OCCUPANCY: 0..1;
                                    MAX_CYCLES: modelled cycles of one launch */
    GradePer per;                /* MAX_ATOMICS only */
    int points;
} GradeRubric;

typedef struct GradeExercise {
    const char *lesson;          /* who set it, as the report names it: the
                                    lesson's folder name ("01-threads-and-races") */
    int lesson_number;           /* the same as a number (1), for the text heading */
    const char *kernel;          /* the name the student's kernel must have */
    const char *signature;       /* the declaration, shown when it is missing */
    const char *readme;          /* the exercise text, a path from the repository's
                                    root, shown with a signature finding; NULL none */
    const char *arch;            /* the arch profile graded on ("sm_90") */
    int nparams;                 /* 0..GRADE_MAX_PARAMS */
    const GradeParam *params;
    int ntests;                  /* 1..GRADE_MAX_TESTS */
    const GradeExerciseTest *tests; /* smallest first: findings quote the first test
                                    that shows them, so the replay is small */
    int nrubric;                 /* 0 or more */
    const GradeRubric *rubric;
    /* The instruction budget of a launch is budget_per_warp x the warps it
     * launches, plus GRADE_BUDGET_BASE: generous for any sane solution
     * (say 10x one), small enough that an endless loop ends in a second. */
    uint64_t budget_per_warp;
    /* Fill *l for test t.  Never fails. */
    void (*launch)(const GradeExerciseTest *t, GradeLaunch *l);
    /* Judge one run: in[i] and out[i] are argument i before and after the
     * launch.  true when the answer is right; else false with one or two
     * sentences in msg saying what is wrong and, when it can tell, why
     * ("out[0] = 32640, expected 32897: in[256], the last element, is
     * missing"). */
    bool (*check)(const GradeExerciseTest *t, const GradeData *in, const GradeData *out, char *msg, size_t cap);
} GradeExercise;

#define GRADE_BUDGET_BASE 100000

/* true when e can be graded: names, arch, counts within their limits,
 * every array and both callbacks present, every test and rubric item named
 * and worth >= 0 points, rubric kinds and units known.
 * Else false with one line in msg naming the first problem ("the exercise
 * has no tests").  It does not call launch() or check(). */
bool grade_exercise_valid(const GradeExercise *e, char *msg, size_t cap);

/* The rest take an exercise grade_exercise_valid accepts. */

/* Points of all tests and rubric items together. */
int grade_exercise_max_score(const GradeExercise *e);

/* The instruction budget of launch l (see budget_per_warp). */
uint64_t grade_exercise_budget(const GradeExercise *e, const GradeLaunch *l);

/* How many units a MAX_ATOMICS item counts for test t launched as l. */
uint64_t grade_rubric_units(const GradeRubric *r, const GradeExerciseTest *t, const GradeLaunch *l);

/* The rubric kind's short name: "no-races", "max-atomics", "min-occupancy",
 * "max-cycles"; "?" for a value outside the enum. */
const char *grade_rubric_kind_name(GradeRubricKind k);

/* true when e has a MAX_CYCLES rubric item (its runs 0 are then timed). */
bool grade_exercise_timed(const GradeExercise *e);

#endif
