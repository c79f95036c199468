/* grade.c: lesson 4's exercise, poly_int, as `warpsim grade 4` checks it
 * (the contract is grade/grade_exercise.h; the text is README.md here).
 *
 * The kernel is given and right; the task is occupancy: at least 75% on
 * sm_90 with 256-thread blocks (registers from ptxas), with every result
 * unchanged.  Tests are sizes around the block with random inputs; the
 * reference is the same arithmetic in C on 32-bit unsigned integers, exact
 * whatever the compiler does with registers. */
#include <stdio.h>
#include <string.h>

#include "exercise.h"

#define BLOCK 256
#define TERMS 48

static const GradeParam params[] = {
    {"const int *x", 8, true},
    {"int *y", 8, true},
    {"int n", 4, false},
};

static const GradeExerciseTest tests[] = {
    {"n = 1 (a single element)", 1, 10},
    {"n = 255 (one short of a block)", 255, 10},
    {"n = 257 (one past a block)", 257, 10},
    {"n = 5000 (20 blocks, the last one partial)", 5000, 10},
};

static const GradeRubric rubric[] = {
    {GRADE_RUBRIC_MIN_OCCUPANCY, "occupancy at least 75% (sm_90, 256-thread blocks)", 0.75, GRADE_PER_LAUNCH, 60},
};

static void poly_int_launch(const GradeExerciseTest *t, GradeLaunch *l)
{
    memset(l, 0, sizeof *l);
    l->grid = (DeviceDim3){exercise_blocks_for(t->n, BLOCK), 1, 1};
    l->block = (DeviceDim3){BLOCK, 1, 1};
    l->nargs = 3;
    snprintf(l->args[0], GRADE_ARG_CAP, "buf:i32[%lld]=rand:%lld", t->n, t->n + 4);
    snprintf(l->args[1], GRADE_ARG_CAP, "buf:i32[%lld]=fill:0", t->n);
    snprintf(l->args[2], GRADE_ARG_CAP, "i32:%lld", t->n);
}

/* poly_int of one element, as the kernel computes it. */
static uint32_t poly(uint32_t v)
{
    uint32_t acc[TERMS];
    for (int t = 0; t < TERMS; t++)
        acc[t] = v * (uint32_t)(t + 1);
    for (uint32_t k = 0; k < 16; k++)
        for (int t = 0; t < TERMS; t++)
            acc[t] = acc[t] * v + (acc[(t + 7) % TERMS] >> 1) + k;
    uint32_t s = 0;
    for (int t = 0; t < TERMS; t++)
        s += t & 1 ? 0u - acc[t] : acc[t];
    return s;
}

static bool poly_int_check(const GradeExerciseTest *t, const GradeData *in, const GradeData *out, char *msg,
                           size_t cap)
{
    const int32_t *x = in[0].data, *x2 = out[0].data, *y = out[1].data;
    for (uint64_t i = 0; i < in[0].count; i++)
        if (x[i] != x2[i]) {
            snprintf(msg, cap, "x[%llu] changed from %d to %d: the input is const, leave it as it is",
                     (unsigned long long)i, x[i], x2[i]);
            return false;
        }
    long long wrong = 0, first = -1;
    for (long long i = 0; i < t->n; i++)
        if ((uint32_t)y[i] != poly((uint32_t)x[i])) {
            if (first < 0)
                first = i;
            wrong++;
        }
    if (!wrong)
        return true;
    int n = snprintf(msg, cap, "y[%lld] = %d, expected %d", first, y[first], (int32_t)poly((uint32_t)x[first]));
    if (n < 0 || (size_t)n >= cap)
        return false;
    if (wrong == t->n && y[first] != 0)
        snprintf(msg + n, cap - (size_t)n,
                 "; all %lld results differ: the arithmetic changed -- occupancy must come from the "
                 "resources, not from doing less work",
                 wrong);
    else
        snprintf(msg + n, cap - (size_t)n, "; %lld of %lld results differ%s", wrong, t->n,
                 y[first] == 0 ? " (still 0: never written)" : "");
    return false;
}

const GradeExercise lesson04_exercise = {
    .lesson = "04-occupancy",
    .lesson_number = 4,
    .kernel = "poly_int",
    .signature = "extern \"C\" __global__ void poly_int(const int *x, int *y, int n)",
    .readme = "lessons/04-occupancy/exercise/README.md",
    .arch = "sm_90",
    .nparams = 3,
    .params = params,
    .ntests = (int)(sizeof tests / sizeof *tests),
    .tests = tests,
    .nrubric = (int)(sizeof rubric / sizeof *rubric),
    .rubric = rubric,
    .budget_per_warp = 40000, /* 16 rounds of 48 terms, and spill traffic */
    .launch = poly_int_launch,
    .check = poly_int_check,
};
