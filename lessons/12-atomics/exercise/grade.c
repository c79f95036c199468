/* grade.c: lesson 12's exercise, float_max, as `warpsim grade 12` checks it
 * (the contract is grade/grade_exercise.h; the text is README.md here).
 *
 * Tests: one element; five negatives, where atomicMax on the float's bits
 * picks -4 over -0.5; a warp's worth of values ascending, where every later
 * lane beats the earlier ones, so a CAS that does not loop loses; then
 * random inputs of growing size.  *out starts at -3.4e38.  The reference is
 * the max in C, compared bit for bit; the rubric asks for no race. */
#include <stdio.h>
#include <string.h>

#include "exercise.h"

#define BLOCK 256

static const GradeParam params[] = {
    {"const float *in", 8, true},
    {"float *out", 8, true},
    {"int n", 4, false},
};

static const GradeExerciseTest tests[] = {
    {"n = 1 (a single element)", 1, 10},
    {"n = 5 (every value negative)", 5, 10},
    {"n = 32 (one warp, values ascending: the last lane has the max)", 32, 10},
    {"n = 257 (one past a block)", 257, 10},
    {"n = 1000 (4 blocks, the last one partial)", 1000, 10},
    {"n = 100000 (391 blocks)", 100000, 10},
};

static const GradeRubric rubric[] = {
    {GRADE_RUBRIC_NO_RACES, "no data race on *out in any run", 0, GRADE_PER_LAUNCH, 40},
};

static const char *input_init(long long n)
{
    if (n == 1)
        return "list:0.25";
    if (n == 5)
        return "list:-3,-1,-2,-0.5,-4";
    if (n == 32)
        return "iota";
    return NULL;
}

static void float_max_launch(const GradeExerciseTest *t, GradeLaunch *l)
{
    memset(l, 0, sizeof *l);
    l->grid = (DeviceDim3){exercise_blocks_for(t->n, BLOCK), 1, 1};
    l->block = (DeviceDim3){BLOCK, 1, 1};
    l->nargs = 3;
    const char *init = input_init(t->n);
    if (init)
        snprintf(l->args[0], GRADE_ARG_CAP, "buf:f32[%lld]=%s", t->n, init);
    else
        snprintf(l->args[0], GRADE_ARG_CAP, "buf:f32[%lld]=rand:%lld", t->n, t->n);
    snprintf(l->args[1], GRADE_ARG_CAP, "buf:f32[1]=fill:-3.4e38");
    snprintf(l->args[2], GRADE_ARG_CAP, "i32:%lld", t->n);
}

static uint32_t bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

static bool float_max_check(const GradeExerciseTest *t, const GradeData *in, const GradeData *out, char *msg,
                            size_t cap)
{
    const float *x = in[0].data, *y = out[0].data;
    for (uint64_t i = 0; i < in[0].count; i++)
        if (bits(x[i]) != bits(y[i])) {
            snprintf(msg, cap, "in[%llu] changed from %.9g to %.9g: the input is const, leave it as it is",
                     (unsigned long long)i, x[i], y[i]);
            return false;
        }
    float want = x[0];
    long long at = 0;
    for (long long i = 1; i < t->n; i++)
        if (x[i] > want) {
            want = x[i];
            at = i;
        }
    float got = ((const float *)out[1].data)[0];
    if (bits(got) == bits(want))
        return true;
    int n = snprintf(msg, cap, "out[0] = %.9g, expected %.9g (in[%lld], the largest)", got, want, at);
    if (n < 0 || (size_t)n >= cap)
        return false;
    /* the largest as an int, *out's start value included */
    float int_max = -3.4e38f;
    for (long long i = 0; i < t->n; i++)
        if ((int32_t)bits(x[i]) > (int32_t)bits(int_max))
            int_max = x[i];
    long long hit = -1;
    for (long long i = 0; i < t->n && hit < 0; i++)
        if (bits(x[i]) == bits(got))
            hit = i;
    if (bits(got) == bits(int_max))
        snprintf(msg + n, cap - (size_t)n,
                 ": that is the largest as an int (the start value counted) -- either nothing was written, "
                 "or the max was taken on the float's bits as an int, which orders negative floats backwards");
    else if (hit >= 0)
        snprintf(msg + n, cap - (size_t)n,
                 ": in[%lld] was written last, over a larger value -- an update was lost (a CAS that "
                 "gave up, or a plain store)",
                 hit);
    return false;
}

const GradeExercise lesson12_exercise = {
    .lesson = "12-atomics",
    .lesson_number = 12,
    .kernel = "float_max",
    .signature = "extern \"C\" __global__ void float_max(const float *in, float *out, int n)",
    .readme = "lessons/12-atomics/exercise/README.md",
    .arch = "sm_90",
    .nparams = 3,
    .params = params,
    .ntests = (int)(sizeof tests / sizeof *tests),
    .tests = tests,
    .nrubric = (int)(sizeof rubric / sizeof *rubric),
    .rubric = rubric,
    .budget_per_warp = 20000, /* a CAS loop under the adversarial order goes round often */
    .launch = float_max_launch,
    .check = float_max_check,
};
