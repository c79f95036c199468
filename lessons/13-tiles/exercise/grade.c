/* grade.c: lesson 13's exercise, row_max, as `warpsim grade 13` checks it
 * (the contract is grade/grade_exercise.h; the text is README.md here).
 *
 * A tile kernel: one block of tile::kThreads per row of a rows x cols
 * matrix (cols 1..1024) leaves the row's largest element in out[row].
 * Tests: one element; rows of five negative values, where a load that pads
 * with zero makes 0 the "largest"; rows narrower and wider than a warp;
 * full 1024-wide rows; many short rows.  The reference is the max in C; the
 * rubric asks for no race. */
#include <stdio.h>
#include <string.h>

#include "exercise.h"

#define THREADS 128              /* tile::kThreads in lessons/include/tile.cuh */

static const GradeParam params[] = {
    {"const float *a", 8, true},
    {"float *out", 8, true},
    {"int rows", 4, false},
    {"int cols", 4, false},
};

/* n is rows * 10000 + cols: one number per test, as the contract has it. */
#define RC(rows, cols) ((rows) * 10000LL + (cols))

static const GradeExerciseTest tests[] = {
    {"1 x 1 (a single element)", RC(1, 1), 10},
    {"2 x 5 (every value negative: what do the padded elements hold?)", RC(2, 5), 15},
    {"4 x 128 (rows one tile row of threads wide)", RC(4, 128), 10},
    {"8 x 1000 (rows almost a whole 1024-wide tile)", RC(8, 1000), 15},
    {"16 x 1024 (rows exactly one tile)", RC(16, 1024), 10},
    {"300 x 37 (many short rows)", RC(300, 37), 10},
};

static const GradeRubric rubric[] = {
    {GRADE_RUBRIC_NO_RACES, "no data race or barrier problem in any run", 0, GRADE_PER_LAUNCH, 30},
};

static void row_max_launch(const GradeExerciseTest *t, GradeLaunch *l)
{
    long long rows = t->n / 10000, cols = t->n % 10000;
    memset(l, 0, sizeof *l);
    l->grid = (DeviceDim3){(unsigned)rows, 1, 1};
    l->block = (DeviceDim3){THREADS, 1, 1};
    l->nargs = 4;
    if (t->n == RC(2, 5))
        snprintf(l->args[0], GRADE_ARG_CAP, "buf:f32[10]=list:-3,-1,-2,-0.5,-4,-7,-6.5,-9,-8,-7.25");
    else
        snprintf(l->args[0], GRADE_ARG_CAP, "buf:f32[%lld]=rand:%lld", rows * cols, t->n);
    snprintf(l->args[1], GRADE_ARG_CAP, "buf:f32[%lld]=fill:0", rows);
    snprintf(l->args[2], GRADE_ARG_CAP, "i32:%lld", rows);
    snprintf(l->args[3], GRADE_ARG_CAP, "i32:%lld", cols);
}

static bool row_max_check(const GradeExerciseTest *t, const GradeData *in, const GradeData *out, char *msg,
                          size_t cap)
{
    long long rows = t->n / 10000, cols = t->n % 10000;
    const float *a = in[0].data, *after = out[0].data, *got = out[1].data;
    if (memcmp(a, after, in[0].count * sizeof *a)) {
        snprintf(msg, cap, "the matrix a changed: it is the input, leave it as it is");
        return false;
    }
    for (long long r = 0; r < rows; r++) {
        float want = a[r * cols];
        long long at = 0;
        for (long long c = 1; c < cols; c++)
            if (a[r * cols + c] > want) {
                want = a[r * cols + c];
                at = c;
            }
        if (got[r] == want)
            continue;
        int n = snprintf(msg, cap, "out[%lld] = %.9g, expected %.9g (a[%lld][%lld], the largest of row %lld)", r,
                         got[r], want, r, at, r);
        if (n < 0 || (size_t)n >= cap)
            return false;
        bool in_row = false;
        for (long long c = 0; c < cols; c++)
            in_row |= a[r * cols + c] == got[r];
        if (got[r] == 0.0f && want < 0 && !in_row)
            snprintf(msg + n, cap - (size_t)n, ": 0 is not in the row -- the load padded the elements past the "
                                               "row's end with 0, and 0 beat every negative value; pad with "
                                               "tile::Pad::neg_inf, which no value loses to");
        else if (in_row && got[r] < want)
            snprintf(msg + n, cap - (size_t)n, ": that value is in the row, a smaller one -- part of the row "
                                               "was not looked at (a tile narrower than the row?)");
        else if (!in_row)
            snprintf(msg + n, cap - (size_t)n, ": that value is not in row %lld at all", r);
        return false;
    }
    return true;
}

const GradeExercise lesson13_exercise = {
    .lesson = "13-tiles",
    .lesson_number = 13,
    .kernel = "row_max",
    .signature = "extern \"C\" __global__ void __launch_bounds__(tile::kThreads) row_max(const float *a, float *out, "
                 "int rows, int cols)",
    .readme = "lessons/13-tiles/exercise/README.md",
    .arch = "sm_90",
    .nparams = 4,
    .params = params,
    .ntests = (int)(sizeof tests / sizeof *tests),
    .tests = tests,
    .nrubric = (int)(sizeof rubric / sizeof *rubric),
    .rubric = rubric,
    .budget_per_warp = 20000, /* a 1024-wide tile reduction is about 400 per warp */
    .launch = row_max_launch,
    .check = row_max_check,
};
