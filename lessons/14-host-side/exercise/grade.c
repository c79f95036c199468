/* grade.c: lesson 14's exercise, histogram, as `warpsim grade 14` checks it
 * (the contract is grade/grade_exercise.h; the text is README.md here).
 *
 * hist[k] += how many in[i] have (unsigned)in[i] % bins == k.  A block may
 * count in a private histogram from the device heap; the largest test asks
 * for more heap than 8 MB holds, so some blocks get NULL from malloc and
 * must still count their elements.  The reference counts in C.  The rubric
 * asks for no race, no barrier problem. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exercise.h"

#define BLOCK 256

static const GradeParam params[] = {
    {"const int *in", 8, true},
    {"int *hist", 8, true},
    {"int n", 4, false},
    {"int bins", 4, false},
};

/* Each test's n names its number of bins (bins_for). */
static const GradeExerciseTest tests[] = {
    {"n = 1, 1 bin", 1, 10},
    {"n = 1000, 10 bins (a hundred elements a bin)", 1000, 10},
    {"n = 3000, 1,000 bins (12 blocks, the last one partial)", 3000, 10},
    {"n = 4096, 300,000 bins (16 blocks of 1.2 MB: more than the 8 MB heap holds)", 4096, 50},
};

static const GradeRubric rubric[] = {
    {GRADE_RUBRIC_NO_RACES, "no race or barrier problem", 0, GRADE_PER_LAUNCH, 20},
};

static long long bins_for(long long n)
{
    switch (n) {
    case 1: return 1;
    case 1000: return 10;
    case 3000: return 1000;
    default: return 300000;
    }
}

static void histogram_launch(const GradeExerciseTest *t, GradeLaunch *l)
{
    memset(l, 0, sizeof *l);
    l->grid = (DeviceDim3){exercise_blocks_for(t->n, BLOCK), 1, 1};
    l->block = (DeviceDim3){BLOCK, 1, 1};
    l->nargs = 4;
    snprintf(l->args[0], GRADE_ARG_CAP, "buf:i32[%lld]=rand:%lld", t->n, t->n + 14);
    snprintf(l->args[1], GRADE_ARG_CAP, "buf:i32[%lld]=fill:0", bins_for(t->n));
    snprintf(l->args[2], GRADE_ARG_CAP, "i32:%lld", t->n);
    snprintf(l->args[3], GRADE_ARG_CAP, "i32:%lld", bins_for(t->n));
}

static bool histogram_check(const GradeExerciseTest *t, const GradeData *in, const GradeData *out, char *msg,
                            size_t cap)
{
    const int *x = in[0].data, *x_after = out[0].data, *h = out[1].data;
    long long bins = bins_for(t->n);
    for (long long i = 0; i < t->n; i++)
        if (x[i] != x_after[i]) {
            snprintf(msg, cap, "in[%lld] changed from %d to %d: the input is const, leave it as it is", i, x[i],
                     x_after[i]);
            return false;
        }
    int *want = calloc((size_t)bins, sizeof *want);
    if (!want) {
        snprintf(msg, cap, "the grader ran out of memory for the reference histogram");
        return false;
    }
    for (long long i = 0; i < t->n; i++)
        want[(unsigned)x[i] % (unsigned long long)bins]++;
    long long total = 0, first = -1;
    for (long long k = 0; k < bins; k++) {
        total += h[k];
        if (first < 0 && h[k] != want[k])
            first = k;
    }
    bool ok = first < 0;
    if (!ok && total < t->n)
        snprintf(msg, cap,
                 "hist[%lld] = %d, expected %d: hist counts %lld elements of %lld; %lld were never counted "
                 "(a block whose malloc returned NULL must still count its elements)",
                 first, h[first], want[first], total, t->n, t->n - total);
    else if (!ok)
        snprintf(msg, cap, "hist[%lld] = %d, expected %d (hist counts %lld elements of %lld)", first, h[first],
                 want[first], total, t->n);
    free(want);
    return ok;
}

const GradeExercise lesson14_exercise = {
    .lesson = "14-host-side",
    .lesson_number = 14,
    .kernel = "histogram",
    .signature = "extern \"C\" __global__ void histogram(const int *in, int *hist, int n, int bins)",
    .readme = "lessons/14-host-side/exercise/README.md",
    .arch = "sm_90",
    .nparams = 4,
    .params = params,
    .ntests = (int)(sizeof tests / sizeof *tests),
    .tests = tests,
    .nrubric = (int)(sizeof rubric / sizeof *rubric),
    .rubric = rubric,
    .budget_per_warp = 200000,
    .launch = histogram_launch,
    .check = histogram_check,
};
