/* grade.c: lesson 9's exercise, pipe_sum, as `warpsim grade 9` checks it
 * (the contract is grade/grade_exercise.h; the text is README.md here).
 * out[b * 256 + t] sums element (t + 1) % 256 of block b's tiles: another
 * thread's copy, so a missing barrier or a short wait is a race the checker
 * reports.  The reference is the sum in C on 32-bit ints (wrapping). */
#include <stdio.h>
#include <string.h>

#include "exercise.h"

#define BLOCK 256
#define GRID 3

static const GradeParam params[] = {
    {"const int *in", 8, true},
    {"int *out", 8, true},
    {"int tiles", 4, false},
};

static const GradeExerciseTest tests[] = {
    {"tiles = 1 (only the first copy)", 1, 15},
    {"tiles = 2 (both buffers once)", 2, 15},
    {"tiles = 7 (an odd count: the buffers alternate)", 7, 15},
    {"tiles = 32", 32, 15},
};

static const GradeRubric rubric[] = {
    {GRADE_RUBRIC_NO_RACES, "no races: every tile landed and read by all before it is overwritten", 0, GRADE_PER_LAUNCH,
     40},
};

static void pipe_sum_launch(const GradeExerciseTest *t, GradeLaunch *l)
{
    memset(l, 0, sizeof *l);
    l->grid = (DeviceDim3){GRID, 1, 1};
    l->block = (DeviceDim3){BLOCK, 1, 1};
    l->nargs = 3;
    snprintf(l->args[0], GRADE_ARG_CAP, "buf:i32[%lld]=rand:%lld", GRID * BLOCK * t->n, t->n + 9);
    snprintf(l->args[1], GRADE_ARG_CAP, "buf:i32[%d]=fill:0", GRID * BLOCK);
    snprintf(l->args[2], GRADE_ARG_CAP, "i32:%lld", t->n);
}

static bool pipe_sum_check(const GradeExerciseTest *t, const GradeData *in, const GradeData *out, char *msg,
                           size_t cap)
{
    const int *x = in[0].data, *x_after = out[0].data, *y = out[1].data;
    long long n = GRID * BLOCK * t->n;
    for (long long i = 0; i < n; i++)
        if (x[i] != x_after[i]) {
            snprintf(msg, cap, "in[%lld] changed from %d to %d: the input is const, leave it as it is", i, x[i],
                     x_after[i]);
            return false;
        }
    for (int b = 0; b < GRID; b++)
        for (int th = 0; th < BLOCK; th++) {
            unsigned want = 0;
            for (long long i = 0; i < t->n; i++)
                want += (unsigned)x[(b * t->n + i) * BLOCK + (th + 1) % BLOCK];
            int got = y[b * BLOCK + th];
            if ((unsigned)got == want)
                continue;
            int len = snprintf(msg, cap, "out[%d] = %d, expected %d (block %d, thread %d)", b * BLOCK + th, got,
                               (int)want, b, th);
            if (len < 0 || (size_t)len >= cap)
                return false;
            unsigned last = 0;
            for (long long i = 0; i + 1 < t->n; i++)
                last += (unsigned)x[(b * t->n + i) * BLOCK + (th + 1) % BLOCK];
            if (t->n > 1 && (unsigned)got == last)
                snprintf(msg + len, cap - (size_t)len, ": the last tile is missing");
            else if (got == 0)
                snprintf(msg + len, cap - (size_t)len, ": nothing was written there");
            return false;
        }
    return true;
}

const GradeExercise lesson09_exercise = {
    .lesson = "09-async-copies",
    .lesson_number = 9,
    .kernel = "pipe_sum",
    .signature = "extern \"C\" __global__ void pipe_sum(const int *in, int *out, int tiles)",
    .readme = "lessons/09-async-copies/exercise/README.md",
    .arch = "sm_90",
    .nparams = 3,
    .params = params,
    .ntests = (int)(sizeof tests / sizeof *tests),
    .tests = tests,
    .nrubric = (int)(sizeof rubric / sizeof *rubric),
    .rubric = rubric,
    .budget_per_warp = 20000,
    .launch = pipe_sum_launch,
    .check = pipe_sum_check,
};
