/* exercise.h: how a lesson's exercise tells `warpsim grade` what to check.
 *
 * An exercise is one kernel a student writes (lesson 1: block_sum).  Its
 * lesson defines, in C, in lessons/NN-topic/exercise/grade.c:
 *   - the kernel's name and parameters (the signature the grader looks for);
 *   - tests: each a problem size n with points, turned by launch() into a
 *     launch configuration and arguments, and judged by check(), which
 *     computes the reference in C from the inputs and compares;
 *   - rubric items with points: no races, at most N atomics per element (or
 *     per block, or per launch), occupancy at least X.
 * The lesson registry (lesson.h) points at it; cli/grade.c runs it.
 *
 * Arguments are written exactly as `warpsim run --arg` takes them
 * ("buf:i32[257]=rand:257", "i32:257"), so the input generator is the one
 * the README documents (splitmix64 for rand:SEED), and every finding comes
 * with a `warpsim run` command line that rebuilds the same inputs. */
#ifndef WARPSIM_EXERCISE_H
#define WARPSIM_EXERCISE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "device.h"

#define EXERCISE_MAX_PARAMS 8
#define EXERCISE_ARG_CAP 96

/* One kernel parameter of the signature. */
typedef struct {
    const char *decl;            /* as the signature writes it: "const int *in" */
    int size;                    /* its size in bytes: 8 for a pointer, 4 for an int */
    bool is_buffer;              /* a pointer to a buffer (else a scalar) */
} ExerciseParam;

/* One test: a problem size and what it is worth. */
typedef struct {
    const char *name;            /* "n = 257 (one past a full block)" */
    long long n;                 /* the size launch() and check() work from */
    int points;                  /* earned when every run is correct and clean */
} ExerciseTest;

/* A launch, as launch() fills it. */
typedef struct {
    DeviceDim3 grid, block;
    unsigned smem;               /* dynamic shared memory, bytes */
    int nargs;                   /* = the exercise's nparams */
    char args[EXERCISE_MAX_PARAMS][EXERCISE_ARG_CAP]; /* --arg specs, in order */
} ExerciseLaunch;

/* One argument's contents: a buffer's count elements of elem_size bytes
 * (little-endian), or a scalar's value (count 1). */
typedef struct {
    const void *data;
    uint64_t count;
    int elem_size;
} ExerciseData;

/* What a rubric item measures. */
typedef enum {
    EXERCISE_RUBRIC_NO_RACES,      /* no race, barrier or scope finding in any run */
    EXERCISE_RUBRIC_MAX_ATOMICS,   /* DeviceStats.atomics <= limit x units, every run */
    EXERCISE_RUBRIC_MIN_OCCUPANCY  /* theoretical occupancy (registers and shared
                                      memory from ptxas, block size of the tests)
                                      >= limit (0..1) on the exercise's arch */
} ExerciseRubricKind;

/* The units of a MAX_ATOMICS limit. */
typedef enum {
    EXERCISE_PER_ELEMENT,        /* per element: the test's n */
    EXERCISE_PER_BLOCK,          /* per block of the launch */
    EXERCISE_PER_LAUNCH          /* in total */
} ExercisePer;

/* A rubric item.  It is judged only on tests whose answer was right: a
 * kernel that computes nothing earns no rubric points. */
typedef struct {
    ExerciseRubricKind kind;
    const char *name;            /* "at most one atomicAdd per block" */
    double limit;                /* MAX_ATOMICS: atomics per unit; MIN_OCCUPANCY: 0..1 */
    ExercisePer per;             /* MAX_ATOMICS only */
    int points;
} ExerciseRubric;

typedef struct Exercise {
    const char *kernel;          /* the name the student's kernel must have */
    const char *signature;       /* the declaration, shown when it is missing */
    const char *readme;          /* the exercise text, relative to the lesson folder */
    const char *arch;            /* the arch profile graded on ("sm_90") */
    int nparams;
    const ExerciseParam *params;
    int ntests;
    const ExerciseTest *tests;   /* smallest first: findings quote the first test
                                    that shows them, so the replay is small */
    int nrubric;
    const ExerciseRubric *rubric;
    /* The instruction budget of a launch is budget_per_warp x the warps it
     * launches, plus EXERCISE_BUDGET_BASE: generous for any sane solution
     * (say 10x one), small enough that an endless loop ends in a second. */
    uint64_t budget_per_warp;
    /* Fill *l for test t.  Never fails. */
    void (*launch)(const ExerciseTest *t, ExerciseLaunch *l);
    /* Judge one run: in[i] and out[i] are argument i before and after the
     * launch.  true when the answer is right; else false with one or two
     * sentences in msg saying what is wrong and, when it can tell, why
     * ("out[0] = 32640, expected 32897: in[256], the last element, is
     * missing"). */
    bool (*check)(const ExerciseTest *t, const ExerciseData *in, const ExerciseData *out, char *msg,
                  size_t cap);
} Exercise;

#define EXERCISE_BUDGET_BASE 100000

/* Points of all tests and rubric items together. */
int exercise_max_score(const Exercise *e);

/* Blocks of `block` threads that cover n elements: ceil(n / block). */
unsigned exercise_blocks_for(long long n, unsigned block);

/* The instruction budget of launch l (see budget_per_warp). */
uint64_t exercise_budget(const Exercise *e, const ExerciseLaunch *l);

/* How many units a MAX_ATOMICS item counts for test t launched as l. */
uint64_t exercise_rubric_units(const ExerciseRubric *r, const ExerciseTest *t, const ExerciseLaunch *l);

/* The rubric kind's short name: "no-races", "max-atomics", "min-occupancy". */
const char *exercise_rubric_kind_name(ExerciseRubricKind k);

#endif
