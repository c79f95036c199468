/* grade.c: lesson 1's exercise, block_sum, as `warpsim grade 1` checks it
 * (the contract is grade/grade_exercise.h; the text is README.md here).
 *
 * Tests are sizes around the block size of 256 -- one element, less than a
 * warp, one short of a block, a block, one past it, a few blocks with a
 * partial last one, and 100,000 -- with random inputs (rand:SEED), so that
 * an element added twice or forgotten changes the sum.  The reference is
 * the sum in C with 32-bit wraparound, as the GPU's int addition. */
#include <stdio.h>
#include <string.h>

#include "exercise.h"

#define BLOCK 256

static const GradeParam params[] = {
    {"const int *in", 8, true},
    {"int *out", 8, true},
    {"int n", 4, false},
};

static const GradeExerciseTest tests[] = {
    {"n = 1 (a single element)", 1, 10},
    {"n = 7 (fewer threads than a warp)", 7, 10},
    {"n = 255 (one short of a full block)", 255, 10},
    {"n = 256 (exactly one block)", 256, 10},
    {"n = 257 (one past a block: a second block with one thread working)", 257, 10},
    {"n = 1000 (4 blocks, the last one partial)", 1000, 10},
    {"n = 100000 (391 blocks)", 100000, 10},
};

static const GradeRubric rubric[] = {
    {GRADE_RUBRIC_NO_RACES, "no data race or barrier problem in any run", 0, GRADE_PER_LAUNCH, 15},
    {GRADE_RUBRIC_MAX_ATOMICS, "at most one atomicAdd per block", 1, GRADE_PER_BLOCK, 10},
    {GRADE_RUBRIC_MIN_OCCUPANCY, "occupancy at least 50% (sm_90, 256-thread blocks)", 0.5, GRADE_PER_LAUNCH, 5},
};

static void block_sum_launch(const GradeExerciseTest *t, GradeLaunch *l)
{
    memset(l, 0, sizeof *l);
    l->grid = (DeviceDim3){exercise_blocks_for(t->n, BLOCK), 1, 1};
    l->block = (DeviceDim3){BLOCK, 1, 1};
    l->nargs = 3;
    /* the seed is the size: each test has its own inputs */
    snprintf(l->args[0], GRADE_ARG_CAP, "buf:i32[%lld]=rand:%lld", t->n, t->n);
    snprintf(l->args[1], GRADE_ARG_CAP, "buf:i32[1]=fill:0");
    snprintf(l->args[2], GRADE_ARG_CAP, "i32:%lld", t->n);
}

/* Sum of in[lo..hi) with 32-bit wraparound. */
static uint32_t sum_range(const int32_t *in, long long lo, long long hi)
{
    uint32_t s = 0;
    for (long long i = lo; i < hi; i++)
        s += (uint32_t)in[i];
    return s;
}

/* Why got differs from the sum: a forgotten or doubled element, or only a
 * prefix or suffix of in[] added.  Appends a reason to msg when one fits. */
static void explain(const int32_t *in, long long n, uint32_t got, uint32_t want, char *msg, size_t cap)
{
    size_t k = strlen(msg);
    char *m = msg + k;
    cap -= k;
    if (got == 0) {
        snprintf(m, cap, ": out[0] is still 0, nothing was added to it");
        return;
    }
    for (long long j = n - 1; j >= 0; j--)
        if (got == want - (uint32_t)in[j]) {
            snprintf(m, cap, ": that is the sum without in[%lld]%s", j,
                     j == n - 1 ? ", the last element (a bound like i < n - 1?)" : "");
            return;
        }
    for (long long j = 0; j < n; j++)
        if (got == want + (uint32_t)in[j]) {
            snprintf(m, cap, ": in[%lld] was added twice", j);
            return;
        }
    uint32_t pre = 0;
    for (long long j = 1; j < n; j++) {
        pre += (uint32_t)in[j - 1];
        if (got == pre) {
            snprintf(m, cap, ": that is the sum of in[0..%lld] only; in[%lld] and after are missing", j - 1, j);
            return;
        }
    }
    uint32_t suf = want;
    for (long long j = 1; j < n; j++) {
        suf -= (uint32_t)in[j - 1];
        if (got == suf) {
            snprintf(m, cap, ": that is the sum of in[%lld..%lld] only; in[0..%lld] are missing", j, n - 1,
                     j - 1);
            return;
        }
    }
    snprintf(m, cap, ": some updates were lost or counted twice");
}

static bool block_sum_check(const GradeExerciseTest *t, const GradeData *in, const GradeData *out, char *msg,
                            size_t cap)
{
    const int32_t *x = in[0].data, *y = out[0].data;
    for (uint64_t i = 0; i < in[0].count; i++)
        if (x[i] != y[i]) {
            snprintf(msg, cap, "in[%llu] changed from %d to %d: the input is const, leave it as it is",
                     (unsigned long long)i, x[i], y[i]);
            return false;
        }
    uint32_t want = sum_range(x, 0, t->n);
    uint32_t got = (uint32_t)((const int32_t *)out[1].data)[0];
    if (got == want)
        return true;
    snprintf(msg, cap, "out[0] = %d, expected %d (the sum of in[0..%lld], wrapping at 32 bits)", (int32_t)got,
             (int32_t)want, t->n - 1);
    explain(x, t->n, got, want, msg, cap);
    return false;
}

const GradeExercise lesson01_exercise = {
    .lesson = "01-threads-and-races",
    .lesson_number = 1,
    .kernel = "block_sum",
    .signature = "extern \"C\" __global__ void block_sum(const int *in, int *out, int n)",
    .readme = "lessons/01-threads-and-races/exercise/README.md",
    .arch = "sm_90",
    .nparams = 3,
    .params = params,
    .ntests = (int)(sizeof tests / sizeof *tests),
    .tests = tests,
    .nrubric = (int)(sizeof rubric / sizeof *rubric),
    .rubric = rubric,
    .budget_per_warp = 2000, /* the lesson's staged_sum issues about 82 per warp */
    .launch = block_sum_launch,
    .check = block_sum_check,
};
