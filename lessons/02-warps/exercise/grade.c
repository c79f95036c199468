/* grade.c: lesson 2's exercise, warp_max, as `warpsim grade 2` checks it
 * (the contract is grade/grade_exercise.h; the text is README.md here).
 *
 * Tests are sizes that end in a partial warp -- 1, 31, 33, one past a block,
 * 1000 and 100,003 -- plus one full warp, with random inputs (rand:SEED),
 * and 20 elements that are all negative (a list), where a lane past n that
 * brings 0 instead of INT_MIN wins.  out is filled beforehand with a
 * marker, so an element nobody wrote is told apart from a wrong maximum.
 * The reference is each warp's maximum computed in C. */
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "exercise.h"

#define BLOCK 256
#define WARP 32
/* what out[] holds before the launch: 0x0badc0de, unlikely as a maximum */
#define UNWRITTEN 195936478
/* the all-negative test's elements: 20 of them, all different from their
 * neighbours, the largest (-2) in lane 13, so neither lane 0 nor a padding 0
 * can pass for it */
#define NEGATIVE_N 20
#define NEGATIVE_LIST "-9,-4,-7,-3,-8,-5,-6,-9,-4,-7,-3,-8,-5,-2,-6,-9,-4,-7,-3,-8"

static const GradeParam params[] = {
    {"const int *in", 8, true},
    {"int *out", 8, true},
    {"int n", 4, false},
};

/* Index of the test whose inputs are NEGATIVE_LIST (the others are random). */
#define ALL_NEGATIVE 1
_Static_assert(sizeof "buf:i32[20]=list:" NEGATIVE_LIST <= GRADE_ARG_CAP, "the list must fit an --arg spec");

static const GradeExerciseTest tests[] = {
    {"n = 1 (one lane of one warp)", 1, 10},
    {"n = 20, every element negative (a lane past n must not win)", NEGATIVE_N, 10},
    {"n = 31 (one lane short of a full warp)", 31, 10},
    {"n = 32 (exactly one warp)", 32, 10},
    {"n = 33 (a second warp with one lane working)", 33, 10},
    {"n = 257 (one past a block: a second block whose warp 0 has one lane working)", 257, 10},
    {"n = 1000 (4 blocks; the last warp has 8 lanes working)", 1000, 10},
    {"n = 100003 (391 blocks; the last warp has 3 lanes working)", 100003, 10},
};

static const GradeRubric rubric[] = {
    {GRADE_RUBRIC_NO_RACES, "no data race or warp-sync problem in any run", 0, GRADE_PER_LAUNCH, 5},
    /* the lesson's point: the lanes combine their values in registers */
    {GRADE_RUBRIC_MAX_ATOMICS, "no atomics: the lanes combine their values with shuffles", 0,
     GRADE_PER_LAUNCH, 10},
    {GRADE_RUBRIC_MIN_OCCUPANCY, "occupancy 100% (sm_90, 256-thread blocks)", 1.0, GRADE_PER_LAUNCH, 5},
};

static long long warps_for(long long n)
{
    return (n + WARP - 1) / WARP;
}

static void warp_max_launch(const GradeExerciseTest *t, GradeLaunch *l)
{
    memset(l, 0, sizeof *l);
    l->grid = (DeviceDim3){exercise_blocks_for(t->n, BLOCK), 1, 1};
    l->block = (DeviceDim3){BLOCK, 1, 1};
    l->nargs = 3;
    /* the seed is the size: each test has its own inputs */
    if (t == &tests[ALL_NEGATIVE])
        snprintf(l->args[0], GRADE_ARG_CAP, "buf:i32[%d]=list:%s", NEGATIVE_N, NEGATIVE_LIST);
    else
        snprintf(l->args[0], GRADE_ARG_CAP, "buf:i32[%lld]=rand:%lld", t->n, t->n);
    snprintf(l->args[1], GRADE_ARG_CAP, "buf:i32[%lld]=fill:%d", warps_for(t->n), UNWRITTEN);
    snprintf(l->args[2], GRADE_ARG_CAP, "i32:%lld", t->n);
}

/* The largest of in[lo..hi); INT_MIN when the range is empty. */
static int32_t max_range(const int32_t *in, long long lo, long long hi)
{
    int32_t m = INT32_MIN;
    for (long long i = lo; i < hi; i++)
        if (in[i] > m)
            m = in[i];
    return m;
}

/* Why warp w's answer got differs from want: nothing written, the stub's
 * first element, a padding 0 that won, a tree that missed lanes, a value
 * from outside the warp.  Appends a reason to msg. */
static void explain(const int32_t *in, long long n, long long w, int32_t got, int32_t want, char *msg, size_t cap)
{
    size_t k = strlen(msg);
    char *m = msg + k;
    cap -= k;
    long long lo = w * WARP, hi = lo + WARP < n ? lo + WARP : n;
    int lanes = (int)(hi - lo);
    if (got == UNWRITTEN) {
        snprintf(m, cap, ": out[%lld] still holds %d, its value before the launch -- no thread wrote it%s", w,
                 UNWRITTEN,
                 lanes < WARP ? " (this warp is partial: did its lanes past n leave before the write?)" : "");
        return;
    }
    if (got == 0 && want < 0) {
        snprintf(m, cap, ": 0 is larger than every element of this warp%s -- pad with INT_MIN, a value that "
                         "cannot win, not 0", lanes < WARP ? ", so it came from a lane past n" : "");
        return;
    }
    if (got == INT32_MIN) {
        snprintf(m, cap, ": INT_MIN, the padding value, won: the lanes' own elements were not loaded or not "
                         "compared");
        return;
    }
    if (got == in[lo] && lanes > 1) {
        snprintf(m, cap, ": that is in[%lld], the warp's first element -- the lanes' values were never "
                         "combined (the stub's answer?)", lo);
        return;
    }
    if (got < want) {
        /* the tree reached lanes 0..p-1 only: a step missing, or stopped early */
        for (int p = 1; p < lanes; p++)
            if (max_range(in, lo, lo + p) == got && max_range(in, lo, lo + p + 1) != got) {
                long long top = lo;
                while (in[top] != want)
                    top++;
                snprintf(m, cap, ": that is the largest of lanes 0..%d only; the largest, in[%lld] = %d, is in "
                                 "lane %lld -- does the tree take all five steps, 16, 8, 4, 2 and 1?",
                         p - 1, top, want, top - lo);
                return;
            }
        snprintf(m, cap, ": smaller than the warp's largest element -- some lanes' values were lost");
        return;
    }
    for (long long j = 0; j < n; j++)
        if (in[j] == got && (j < lo || j >= hi)) {
            snprintf(m, cap, ": larger than any of the warp's elements; it is in[%lld], which belongs to warp "
                             "%lld -- a value crossed between warps (an index or a shuffle width?)", j, j / WARP);
            return;
        }
    snprintf(m, cap, ": larger than any element of the warp -- where did it come from?");
}

static bool warp_max_check(const GradeExerciseTest *t, const GradeData *in, const GradeData *out, char *msg,
                           size_t cap)
{
    const int32_t *x = in[0].data, *y = out[0].data;
    for (uint64_t i = 0; i < in[0].count; i++)
        if (x[i] != y[i]) {
            snprintf(msg, cap, "in[%llu] changed from %d to %d: the input is const, leave it as it is",
                     (unsigned long long)i, x[i], y[i]);
            return false;
        }
    const int32_t *got = out[1].data;
    long long nw = warps_for(t->n), bad = -1, nbad = 0;
    for (long long w = 0; w < nw; w++) {
        long long hi = (w + 1) * WARP < t->n ? (w + 1) * WARP : t->n;
        if (got[w] != max_range(x, w * WARP, hi) && !nbad++)
            bad = w;
    }
    if (!nbad)
        return true;
    long long lo = bad * WARP, hi = lo + WARP < t->n ? lo + WARP : t->n;
    int32_t want = max_range(x, lo, hi);
    int k = snprintf(msg, cap, "out[%lld] = %d, expected %d (the largest of in[%lld..%lld])", bad, got[bad], want,
                     lo, hi - 1);
    if (nbad > 1 && k > 0 && (size_t)k < cap)
        snprintf(msg + k, cap - (size_t)k, "; %lld of the %lld outputs are wrong", nbad, nw);
    explain(x, t->n, bad, got[bad], want, msg, cap);
    return false;
}

const GradeExercise lesson02_exercise = {
    .lesson = "02-warps",
    .lesson_number = 2,
    .kernel = "warp_max",
    .signature = "extern \"C\" __global__ void warp_max(const int *in, int *out, int n)",
    .readme = "lessons/02-warps/exercise/README.md",
    .arch = "sm_90",
    .nparams = 3,
    .params = params,
    .ntests = (int)(sizeof tests / sizeof *tests),
    .tests = tests,
    .nrubric = (int)(sizeof rubric / sizeof *rubric),
    .rubric = rubric,
    .budget_per_warp = 1000, /* a shuffle tree issues about 40 per warp */
    .launch = warp_max_launch,
    .check = warp_max_check,
};
