/* grade.c: lesson 10's exercise, tile_sums, as `warpsim grade 10` checks it
 * (the contract is grade/grade_exercise.h; the text is README.md here).
 *
 * out[t] = in[16t] + ... + in[16t+15], elements past the end counting 0:
 * one sum per tile of 16 threads.  Tests are sizes around a tile, a warp
 * and a block with random inputs; the reference is the sum in C on 32-bit
 * ints (wrapping, exact in any order).  A wrong sum is recognised when it
 * is what a shuffle across the tile's boundary gives (two tiles' sums, or
 * the warp's second half counted twice).  The rubric wants no races: a
 * tile that reduces through shared memory must sync the tile. */
#include <stdio.h>
#include <string.h>

#include "exercise.h"

#define BLOCK 256
#define TILE 16

static const GradeParam params[] = {
    {"const int *in", 8, true},
    {"int *out", 8, true},
    {"int n", 4, false},
};

static const GradeExerciseTest tests[] = {
    {"n = 16 (one tile)", 16, 20},
    {"n = 40 (two tiles and a half: a partial warp)", 40, 20},
    {"n = 300 (two blocks, the last tile partial)", 300, 20},
    {"n = 5000 (20 blocks)", 5000, 20},
};

static const GradeRubric rubric[] = {
    {GRADE_RUBRIC_NO_RACES, "no races: every value a tile reads was written before a sync of the tile", 0,
     GRADE_PER_LAUNCH, 20},
};

static void tile_sums_launch(const GradeExerciseTest *t, GradeLaunch *l)
{
    memset(l, 0, sizeof *l);
    l->grid = (DeviceDim3){exercise_blocks_for(t->n, BLOCK), 1, 1};
    l->block = (DeviceDim3){BLOCK, 1, 1};
    l->nargs = 3;
    snprintf(l->args[0], GRADE_ARG_CAP, "buf:i32[%lld]=rand:%lld", t->n, t->n + 10);
    snprintf(l->args[1], GRADE_ARG_CAP, "buf:i32[%lld]=fill:0", (t->n + TILE - 1) / TILE);
    snprintf(l->args[2], GRADE_ARG_CAP, "i32:%lld", t->n);
}

/* in[a] + ... + in[b-1], past n counting 0, wrapping as 32-bit ints. */
static unsigned sum(const int *x, long long n, long long a, long long b)
{
    unsigned s = 0;
    for (long long k = a; k < b && k < n; k++)
        s += (unsigned)x[k];
    return s;
}

static bool tile_sums_check(const GradeExerciseTest *t, const GradeData *in, const GradeData *out, char *msg,
                            size_t cap)
{
    const int *x = in[0].data, *x_after = out[0].data, *y = out[1].data;
    for (long long i = 0; i < t->n; i++)
        if (x[i] != x_after[i]) {
            snprintf(msg, cap, "in[%lld] changed from %d to %d: the input is const, leave it as it is", i, x[i],
                     x_after[i]);
            return false;
        }
    long long tiles = (t->n + TILE - 1) / TILE;
    for (long long k = 0; k < tiles; k++) {
        unsigned want = sum(x, t->n, k * TILE, (k + 1) * TILE);
        if ((unsigned)y[k] == want)
            continue;
        long long last = k * TILE + TILE - 1 < t->n ? k * TILE + TILE - 1 : t->n - 1;
        int len = snprintf(msg, cap, "out[%lld] = %d, expected %d (in[%lld] + ... + in[%lld]%s)", k, y[k], (int)want,
                           k * TILE, last, last < k * TILE + TILE - 1 ? ", a partial tile" : "");
        if (len < 0 || (size_t)len >= cap)
            return false;
        size_t left = cap - (size_t)len;
        if ((unsigned)y[k] == sum(x, t->n, k * TILE, (k + 2) * TILE) && k % 2 == 0)
            snprintf(msg + len, left, ": that is the sum of in[%lld..%lld], two tiles -- a shuffle crossed from "
                                      "this tile into the next", k * TILE, k * TILE + 2 * TILE - 1);
        else if ((unsigned)y[k] == 2u * want)
            snprintf(msg + len, left, ": twice the sum -- a shuffle 16 lanes down ran past the warp and each lane "
                                      "added its own value back; a tile of 16 starts at 8");
        else if (y[k] == 0)
            snprintf(msg + len, left, ": nothing was written there");
        return false;
    }
    return true;
}

const GradeExercise lesson10_exercise = {
    .lesson = "10-cooperative-groups",
    .lesson_number = 10,
    .kernel = "tile_sums",
    .signature = "extern \"C\" __global__ void tile_sums(const int *in, int *out, int n)",
    .readme = "lessons/10-cooperative-groups/exercise/README.md",
    .arch = "sm_90",
    .nparams = 3,
    .params = params,
    .ntests = (int)(sizeof tests / sizeof *tests),
    .tests = tests,
    .nrubric = (int)(sizeof rubric / sizeof *rubric),
    .rubric = rubric,
    .budget_per_warp = 20000,
    .launch = tile_sums_launch,
    .check = tile_sums_check,
};
