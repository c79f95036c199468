/* grade.c: lesson 7's exercise, window_sum, as `warpsim grade 7` checks it
 * (the contract is grade/grade_exercise.h; the text is README.md here).
 *
 * out[i] = in[i] + ... + in[i+7], elements past the end counting 0: each
 * input is read by eight neighbouring threads, reuse L1 serves by itself.
 * Tests are sizes around the window and the block with random inputs; the
 * reference is the sum in C on 32-bit ints (wrapping, exact in any order).
 * The rubric asks for 75% occupancy: no shared memory reserved to cache by
 * hand what L1 caches anyway. */
#include <stdio.h>
#include <string.h>

#include "exercise.h"

#define BLOCK 256
#define WINDOW 8

static const GradeParam params[] = {
    {"const int *in", 8, true},
    {"int *out", 8, true},
    {"int n", 4, false},
};

static const GradeExerciseTest tests[] = {
    {"n = 1 (a single element: its window is itself)", 1, 10},
    {"n = 7 (shorter than one window)", 7, 10},
    {"n = 257 (one past a block)", 257, 10},
    {"n = 5000 (20 blocks, the last one partial)", 5000, 10},
};

static const GradeRubric rubric[] = {
    {GRADE_RUBRIC_MIN_OCCUPANCY, "occupancy at least 75% (sm_90, 256-thread blocks)", 0.75, GRADE_PER_LAUNCH, 60},
};

static void window_sum_launch(const GradeExerciseTest *t, GradeLaunch *l)
{
    memset(l, 0, sizeof *l);
    l->grid = (DeviceDim3){exercise_blocks_for(t->n, BLOCK), 1, 1};
    l->block = (DeviceDim3){BLOCK, 1, 1};
    l->nargs = 3;
    snprintf(l->args[0], GRADE_ARG_CAP, "buf:i32[%lld]=rand:%lld", t->n, t->n + 7);
    snprintf(l->args[1], GRADE_ARG_CAP, "buf:i32[%lld]=fill:0", t->n);
    snprintf(l->args[2], GRADE_ARG_CAP, "i32:%lld", t->n);
}

static bool window_sum_check(const GradeExerciseTest *t, const GradeData *in, const GradeData *out, char *msg,
                             size_t cap)
{
    const int *x = in[0].data, *x_after = out[0].data, *y = out[1].data;
    for (long long i = 0; i < t->n; i++)
        if (x[i] != x_after[i]) {
            snprintf(msg, cap, "in[%lld] changed from %d to %d: the input is const, leave it as it is", i, x[i],
                     x_after[i]);
            return false;
        }
    for (long long i = 0; i < t->n; i++) {
        unsigned want = 0;
        for (long long k = i; k < i + WINDOW && k < t->n; k++)
            want += (unsigned)x[k];
        if ((unsigned)y[i] == want)
            continue;
        int len = snprintf(msg, cap, "out[%lld] = %d, expected %d", i, y[i], (int)want);
        if (len < 0 || (size_t)len >= cap)
            return false;
        if (i + WINDOW > t->n)
            snprintf(msg + len, cap - (size_t)len,
                     ": its window runs past the end (n = %lld); the elements past in[n-1] count 0", t->n);
        else if (y[i] == 0)
            snprintf(msg + len, cap - (size_t)len, ": nothing was written there");
        return false;
    }
    return true;
}

const GradeExercise lesson07_exercise = {
    .lesson = "07-caches-carveout",
    .lesson_number = 7,
    .kernel = "window_sum",
    .signature = "extern \"C\" __global__ void window_sum(const int *in, int *out, int n)",
    .readme = "lessons/07-caches-carveout/exercise/README.md",
    .arch = "sm_90",
    .nparams = 3,
    .params = params,
    .ntests = (int)(sizeof tests / sizeof *tests),
    .tests = tests,
    .nrubric = (int)(sizeof rubric / sizeof *rubric),
    .rubric = rubric,
    .budget_per_warp = 20000,
    .launch = window_sum_launch,
    .check = window_sum_check,
};
