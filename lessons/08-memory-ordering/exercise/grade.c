/* grade.c: lesson 8's exercise, rotate, as `warpsim grade 8` checks it (the
 * contract is grade/grade_exercise.h; the text is README.md here).
 *
 * A test's n is the number of rounds; every launch is 4 blocks of 256 with
 * random inputs.  After r rounds thread t holds in[(t + r) % 256] + r of its
 * block.  The rubric asks for what the lesson teaches: no race between a
 * round's reads and the next writes (a missing wait is reported even when
 * the schedule happened to give the right answer). */
#include <stdio.h>
#include <string.h>

#include "exercise.h"

#define BLOCK 256
#define GRID 4

static const GradeParam params[] = {
    {"const int *in", 8, true},
    {"int *out", 8, true},
    {"int rounds", 4, false},
};

static const GradeExerciseTest tests[] = {
    {"1 round", 1, 10},
    {"2 rounds", 2, 10},
    {"5 rounds", 5, 10},
    {"32 rounds (a warp's width: every value crosses into the next warp)", 32, 10},
    {"64 rounds", 64, 10},
};

static const GradeRubric rubric[] = {
    {GRADE_RUBRIC_NO_RACES, "no race or barrier problem in any run", 0, GRADE_PER_LAUNCH, 50},
};

static void rotate_launch(const GradeExerciseTest *t, GradeLaunch *l)
{
    memset(l, 0, sizeof *l);
    l->grid = (DeviceDim3){GRID, 1, 1};
    l->block = (DeviceDim3){BLOCK, 1, 1};
    l->nargs = 3;
    snprintf(l->args[0], GRADE_ARG_CAP, "buf:i32[%d]=rand:%lld", GRID * BLOCK, t->n + 8);
    snprintf(l->args[1], GRADE_ARG_CAP, "buf:i32[%d]=fill:0", GRID * BLOCK);
    snprintf(l->args[2], GRADE_ARG_CAP, "i32:%lld", t->n);
}

static bool rotate_check(const GradeExerciseTest *t, const GradeData *in, const GradeData *out, char *msg,
                         size_t cap)
{
    const int32_t *x = in[0].data, *x2 = out[0].data, *y = out[1].data;
    for (uint64_t i = 0; i < in[0].count; i++)
        if (x[i] != x2[i]) {
            snprintf(msg, cap, "in[%llu] changed from %d to %d: the input is const, leave it as it is",
                     (unsigned long long)i, x[i], x2[i]);
            return false;
        }
    long long r = t->n;
    for (int b = 0; b < GRID; b++)
        for (int k = 0; k < BLOCK; k++) {
            int i = b * BLOCK + k;
            uint32_t want = (uint32_t)x[b * BLOCK + (int)((k + r) % BLOCK)] + (uint32_t)r;
            if ((uint32_t)y[i] == want)
                continue;
            int n = snprintf(msg, cap, "out[%d] = %d, expected %d (block %d's in[%lld] + %lld)", i, y[i],
                             (int32_t)want, b, (k + r) % BLOCK, r);
            if (n < 0 || (size_t)n >= cap)
                return false;
            /* a value from a round too many or too few */
            for (long long d = -2; d <= 2; d++) {
                long long rr = r + d;
                if (d == 0 || rr < 0)
                    continue;
                if ((uint32_t)y[i] == (uint32_t)x[b * BLOCK + (int)((k + rr) % BLOCK)] + (uint32_t)rr) {
                    snprintf(msg + n, cap - (size_t)n,
                             ": that is the value after %lld round%s -- a neighbour's value was read after it "
                             "was overwritten, or before it was written (a missing wait?)",
                             rr, rr == 1 ? "" : "s");
                    return false;
                }
            }
            return false;
        }
    return true;
}

const GradeExercise lesson08_exercise = {
    .lesson = "08-memory-ordering",
    .lesson_number = 8,
    .kernel = "rotate",
    .signature = "extern \"C\" __global__ void rotate(const int *in, int *out, int rounds)",
    .readme = "lessons/08-memory-ordering/exercise/README.md",
    .arch = "sm_90",
    .nparams = 3,
    .params = params,
    .ntests = (int)(sizeof tests / sizeof *tests),
    .tests = tests,
    .nrubric = (int)(sizeof rubric / sizeof *rubric),
    .rubric = rubric,
    /* 64 rounds of two waits, each a try_wait loop: about 3,500 warp
     * instructions a warp a round under the adversarial schedule */
    .budget_per_warp = 400000,
    .launch = rotate_launch,
    .check = rotate_check,
};
