/* grade.c: lesson 6's exercise, axpy, as `warpsim grade 6` checks it (the
 * contract is grade/grade_exercise.h; the text is README.md here).
 *
 * y[i] = a * x[i] + y[i] over n ints, launched as one block of 256 threads
 * per SM (132 blocks, dynamic shared memory that keeps out a second): a
 * memory-bound loop at low occupancy, where the bytes each thread has in
 * flight set the time.  Tests are sizes around the 16-byte vector with
 * random inputs; the reference is the same arithmetic in C (wrapping 32-bit
 * ints, exact).  The rubric asks for the timing model's cycles on the
 * largest test: the starter's 4-byte loads miss it, 16-byte loads make it. */
#include <stdio.h>
#include <string.h>

#include "exercise.h"

#define GRID 132                 /* one block per SM of an H100 */
#define BLOCK 256
#define ONE_BLOCK_SMEM 232448    /* no room for a second block on an SM */
#define A 3                      /* the scalar a of every test */

static const GradeParam params[] = {
    {"const int *x", 8, true},
    {"int *y", 8, true},
    {"int n", 4, false},
    {"int a", 4, false},
};

static const GradeExerciseTest tests[] = {
    {"n = 1 (a single element)", 1, 10},
    {"n = 7 (shorter than two int4)", 7, 10},
    {"n = 1001 (not a multiple of 4)", 1001, 10},
    {"n = 540672 (16 elements a thread)", GRID * BLOCK * 16, 10},
};

/* The starter takes about 15,900 cycles in the model on the largest test,
 * a 16-byte load per array about 8,300 (tests/test_grade_lesson06.c keeps
 * both sides of the limit). */
static const GradeRubric rubric[] = {
    {GRADE_RUBRIC_MAX_CYCLES, "at most 10,000 cycles in the timing model (n = 540672, sm_90)", 10000, GRADE_PER_LAUNCH,
     60},
};

static void axpy_launch(const GradeExerciseTest *t, GradeLaunch *l)
{
    memset(l, 0, sizeof *l);
    l->grid = (DeviceDim3){GRID, 1, 1};
    l->block = (DeviceDim3){BLOCK, 1, 1};
    l->smem = ONE_BLOCK_SMEM;
    l->nargs = 4;
    snprintf(l->args[0], GRADE_ARG_CAP, "buf:i32[%lld]=rand:%lld", t->n, t->n);
    snprintf(l->args[1], GRADE_ARG_CAP, "buf:i32[%lld]=rand:%lld", t->n, t->n + 1);
    snprintf(l->args[2], GRADE_ARG_CAP, "i32:%lld", t->n);
    snprintf(l->args[3], GRADE_ARG_CAP, "i32:%d", A);
}

static bool axpy_check(const GradeExerciseTest *t, const GradeData *in, const GradeData *out, char *msg, size_t cap)
{
    const int *x = in[0].data, *x_after = out[0].data, *y0 = in[1].data, *y = out[1].data;
    unsigned a = (unsigned)*(const int *)in[3].data;
    for (long long i = 0; i < t->n; i++)
        if (x[i] != x_after[i]) {
            snprintf(msg, cap, "x[%lld] changed from %d to %d: x is const, leave it as it is", i, x[i], x_after[i]);
            return false;
        }
    for (long long i = 0; i < t->n; i++) {
        int want = (int)(a * (unsigned)x[i] + (unsigned)y0[i]);
        if (y[i] == want)
            continue;
        int len = snprintf(msg, cap, "y[%lld] = %d, expected %d", i, y[i], want);
        if (len < 0 || (size_t)len >= cap)
            return false;
        if (y[i] == y0[i])
            snprintf(msg + len, cap - (size_t)len, ": it was never updated%s",
                     i >= t->n / 4 * 4 ? " (one of the last n % 4 elements, past the last whole int4)" : "");
        else if (y[i] == (int)(2u * a * (unsigned)x[i] + (unsigned)y0[i]))
            snprintf(msg + len, cap - (size_t)len, ": it was updated twice");
        return false;
    }
    return true;
}

const GradeExercise lesson06_exercise = {
    .lesson = "06-latency-throughput",
    .lesson_number = 6,
    .kernel = "axpy",
    .signature = "extern \"C\" __global__ void axpy(const int *x, int *y, int n, int a)",
    .readme = "lessons/06-latency-throughput/exercise/README.md",
    .arch = "sm_90",
    .nparams = 4,
    .params = params,
    .ntests = (int)(sizeof tests / sizeof *tests),
    .tests = tests,
    .nrubric = (int)(sizeof rubric / sizeof *rubric),
    .rubric = rubric,
    .budget_per_warp = 20000,
    .launch = axpy_launch,
    .check = axpy_check,
};
