/* grade.c: lesson 5's exercise, transpose, as `warpsim grade 5` checks it
 * (the contract is grade/grade_exercise.h; the text is README.md here).
 *
 * b = the transpose of the n x n float matrix a (n a multiple of 32), one
 * 32x32 tile a block of 32x8 threads, through a shared-memory tile.  Tests
 * are one tile, two and eight tiles a side and the lesson's 1024x1024, with
 * random inputs; the reference is exact (a transpose moves bits).  The
 * rubric asks for the timing model's cycles on the largest test: the
 * starter's 32-way bank conflicts miss it, a padded tile makes it. */
#include <stdio.h>
#include <string.h>

#include "exercise.h"

#define T 32                     /* a block's tile is T x T */
#define ROWS 8                   /* a block is T x ROWS threads */

static const GradeParam params[] = {
    {"const float *a", 8, true},
    {"float *b", 8, true},
    {"int n", 4, false},
};

static const GradeExerciseTest tests[] = {
    {"n = 32 (one tile, one block)", 32, 10},
    {"n = 64 (2x2 tiles: blocks trade places)", 64, 10},
    {"n = 256 (8x8 tiles)", 256, 10},
    {"n = 1024 (32x32 tiles, the lesson's matrix)", 1024, 10},
};

/* The starter takes about 14,900 cycles in the model at n = 1024, a tile
 * padded to 33 words a row about 8,200, the naive transpose without shared
 * memory about 30,400 (the timing suite's naive_1024; tests/test_grade_lesson05.c
 * keeps both sides). */
static const GradeRubric rubric[] = {
    {GRADE_RUBRIC_MAX_CYCLES, "at most 10,000 cycles in the timing model (n = 1024, sm_90)", 10000,
     GRADE_PER_LAUNCH, 60},
};

static void transpose_launch(const GradeExerciseTest *t, GradeLaunch *l)
{
    memset(l, 0, sizeof *l);
    unsigned tiles = (unsigned)(t->n / T);
    l->grid = (DeviceDim3){tiles, tiles, 1};
    l->block = (DeviceDim3){T, ROWS, 1};
    l->nargs = 3;
    snprintf(l->args[0], GRADE_ARG_CAP, "buf:f32[%lld]=rand:%lld", t->n * t->n, t->n);
    snprintf(l->args[1], GRADE_ARG_CAP, "buf:f32[%lld]=fill:0", t->n * t->n);
    snprintf(l->args[2], GRADE_ARG_CAP, "i32:%lld", t->n);
}

/* Where in a (n x n, bit patterns) the word w is: its index, -1 if nowhere. */
static long long find_word(const unsigned *a, long long n, unsigned w)
{
    for (long long k = 0; k < n * n; k++)
        if (a[k] == w)
            return k;
    return -1;
}

/* The three ways a whole tile of b goes wrong that a student can fix by
 * name: b's tile at tile row tr, column tc holds a's element (p, q) for
 * each (R, C) of it as `source` says. */
typedef enum { COPIED, NOT_MOVED, NOT_TURNED } TileMistake;

static long long source(TileMistake m, long long R, long long C, long long n)
{
    long long p, q;
    if (m == COPIED) {
        p = R;
        q = C;
    } else if (m == NOT_MOVED) { /* turned inside, left at its own place */
        p = R / T * T + C % T;
        q = C / T * T + R % T;
    } else { /* moved to the mirror tile, not turned inside */
        p = C / T * T + R % T;
        q = R / T * T + C % T;
    }
    return p * n + q;
}

/* b's rows r0..r1-1 and columns c0..c1-1 all hold what mistake m puts there. */
static bool all_of(const unsigned *a, const unsigned *b, long long n, long long r0, long long r1, long long c0,
                   long long c1, TileMistake m)
{
    for (long long R = r0; R < r1; R++)
        for (long long C = c0; C < c1; C++)
            if (b[R * n + C] != a[source(m, R, C, n)])
                return false;
    return true;
}

/* Append to msg (holding len bytes) why b[r][c] is wrong: the mistake of
 * the whole matrix, or of b[r][c]'s tile, when it is one of the three (on
 * the whole matrix first: on a diagonal tile a tile not turned is a tile
 * copied); else where the value came from. */
static void explain(const unsigned *a, const unsigned *b, long long n, long long r, long long c, char *msg,
                    size_t cap, int len)
{
    char *m = msg + len;
    size_t left = cap - (size_t)len;
    long long tr = r / T, tc = c / T;
    if (n > T && all_of(a, b, n, 0, n, 0, n, NOT_TURNED))
        snprintf(m, left, ": every tile of a is at its mirror in b but not transposed inside: the tile is read "
                 "along a row where the write needs a column");
    else if (n > T && all_of(a, b, n, 0, n, 0, n, NOT_MOVED))
        snprintf(m, left, ": every tile of a is transposed but written back at its own place instead of its "
                 "mirror: b's tile (%lld, %lld) holds a's tile (%lld, %lld), where a's tile (%lld, %lld) belongs "
                 "(swap the block's row and column for the write)", tr, tc, tr, tc, tc, tr);
    else if (all_of(a, b, n, 0, n, 0, n, COPIED))
        snprintf(m, left, ": b is a copy of a, every element where it was: nothing was transposed");
    else if (all_of(a, b, n, tr * T, tr * T + T, tc * T, tc * T + T, NOT_MOVED))
        snprintf(m, left, ": b's tile (%lld, %lld) holds a's tile (%lld, %lld) transposed, where a's tile (%lld, "
                 "%lld) belongs: the tile is written back at its own place instead of its mirror", tr, tc, tr, tc,
                 tc, tr);
    else if (all_of(a, b, n, tr * T, tr * T + T, tc * T, tc * T + T, NOT_TURNED))
        snprintf(m, left, ": b's tile (%lld, %lld) holds a's tile (%lld, %lld), the right one, but not transposed "
                 "inside", tr, tc, tc, tr);
    else if (!b[r * n + c])
        snprintf(m, left, ": nothing was written there");
    else {
        long long k = find_word(a, n, b[r * n + c]);
        if (k >= 0)
            snprintf(m, left, ": that is a[%lld][%lld]", k / n, k % n);
        else
            snprintf(m, left, ": a value that is nowhere in a");
    }
}

static bool transpose_check(const GradeExerciseTest *t, const GradeData *in, const GradeData *out, char *msg,
                            size_t cap)
{
    const unsigned *a = in[0].data, *a_after = out[0].data, *b = out[1].data;
    long long n = t->n;
    for (long long k = 0; k < n * n; k++)
        if (a[k] != a_after[k]) {
            snprintf(msg, cap, "a[%lld][%lld] changed: a is const, leave it as it is", k / n, k % n);
            return false;
        }
    for (long long r = 0; r < n; r++)
        for (long long c = 0; c < n; c++) {
            unsigned want = a[c * n + r], got = b[r * n + c];
            if (got == want)
                continue;
            float gf, wf;
            memcpy(&gf, &got, 4);
            memcpy(&wf, &want, 4);
            int len = snprintf(msg, cap, "b[%lld][%lld] = %g, expected a[%lld][%lld] = %g", r, c, (double)gf, c,
                               r, (double)wf);
            if (len < 0 || (size_t)len >= cap)
                return false;
            explain(a, b, n, r, c, msg, cap, len);
            return false;
        }
    return true;
}

const GradeExercise lesson05_exercise = {
    .lesson = "05-access-patterns",
    .lesson_number = 5,
    .kernel = "transpose",
    .signature = "extern \"C\" __global__ void transpose(const float *a, float *b, int n)",
    .readme = "lessons/05-access-patterns/exercise/README.md",
    .arch = "sm_90",
    .nparams = 3,
    .params = params,
    .ntests = (int)(sizeof tests / sizeof *tests),
    .tests = tests,
    .nrubric = (int)(sizeof rubric / sizeof *rubric),
    .rubric = rubric,
    .budget_per_warp = 20000,
    .launch = transpose_launch,
    .check = transpose_check,
};
