/* grade.c: lesson 3's exercise, count_positive, as `warpsim grade 3` checks
 * it (the contract is grade/grade_exercise.h; the text is README.md here).
 *
 * Tests are sizes that end inside a warp -- one element, one lane short of
 * a warp, a warp and one lane, one past a block, 1000 and 100,001 -- so the
 * last warp of every test is partial, plus a small hand-written input full
 * of zeros and negatives (zero is not positive).  The reference is the
 * count in C.  The rubric asks for what the lesson teaches: no race on the
 * counter, and at most one atomicAdd per warp. */
#include <stdio.h>
#include <string.h>

#include "exercise.h"

#define BLOCK 256
#define WARPS_PER_BLOCK (BLOCK / 32)

static const GradeParam params[] = {
    {"const int *in", 8, true},
    {"int *count", 8, true},
    {"int n", 4, false},
};

static const GradeExerciseTest tests[] = {
    {"n = 1 (a single positive element)", 1, 10},
    {"n = 31 (one lane short of a warp)", 31, 10},
    {"n = 33 (a warp and one lane of a second)", 33, 10},
    {"n = 70 (zeros and negatives: zero is not positive)", 70, 10},
    {"n = 257 (one past a block: a second block with one lane working)", 257, 10},
    {"n = 1000 (4 blocks, the last warp 8 lanes)", 1000, 10},
    {"n = 100001 (391 blocks, the last warp 1 lane)", 100001, 10},
};

static const GradeRubric rubric[] = {
    {GRADE_RUBRIC_NO_RACES, "no data race on the counter in any run", 0, GRADE_PER_LAUNCH, 15},
    /* a launch has 8 warps per block; PER_ELEMENT at 1/32 would fail a
     * correct kernel whenever the last warp is partial (2 atomics for 33) */
    {GRADE_RUBRIC_MAX_ATOMICS, "at most one atomicAdd per warp (8 per 256-thread block)", WARPS_PER_BLOCK,
     GRADE_PER_BLOCK, 15},
};

/* The hand-written inputs; every other test is rand:N (the seed is the
 * size, so each test has its own inputs).  rand:1 gives a negative
 * element, and a kernel that adds nothing would pass on it. */
static const char *input_init(long long n)
{
    if (n == 1)
        return "list:42";
    if (n == 70) /* the 56 elements past the list are 0 */
        return "list:7,0,-3,0,12,-1,0,5,2147483647,-2147483648,1,0,-9,4";
    return NULL;
}

static void count_positive_launch(const GradeExerciseTest *t, GradeLaunch *l)
{
    memset(l, 0, sizeof *l);
    l->grid = (DeviceDim3){exercise_blocks_for(t->n, BLOCK), 1, 1};
    l->block = (DeviceDim3){BLOCK, 1, 1};
    l->nargs = 3;
    const char *init = input_init(t->n);
    if (init)
        snprintf(l->args[0], GRADE_ARG_CAP, "buf:i32[%lld]=%s", t->n, init);
    else
        snprintf(l->args[0], GRADE_ARG_CAP, "buf:i32[%lld]=rand:%lld", t->n, t->n);
    snprintf(l->args[1], GRADE_ARG_CAP, "buf:i32[1]=fill:0");
    snprintf(l->args[2], GRADE_ARG_CAP, "i32:%lld", t->n);
}

/* Elements of in[lo..hi) greater than zero, and equal to zero. */
static long long positives(const int32_t *in, long long lo, long long hi)
{
    long long c = 0;
    for (long long i = lo; i < hi; i++)
        c += in[i] > 0;
    return c;
}

static long long zeros(const int32_t *in, long long n)
{
    long long c = 0;
    for (long long i = 0; i < n; i++)
        c += in[i] == 0;
    return c;
}

/* The first warp (of 32 elements, the last one partial) holding exactly
 * c positive elements; -1 when none. */
static long long warp_with(const int32_t *in, long long n, long long c)
{
    for (long long w = 0; w * 32 < n; w++) {
        long long hi = w * 32 + 32 < n ? w * 32 + 32 : n;
        if (positives(in, w * 32, hi) == c)
            return w;
    }
    return -1;
}

/* Why got differs from want: the mistakes this exercise invites, each
 * recognised by the number it leaves in *count.  Appends to msg. */
static void explain(const int32_t *in, long long n, long long got, long long want, char *msg, size_t cap)
{
    size_t k = strlen(msg);
    char *m = msg + k;
    cap -= k;
    long long full = n / 32 * 32; /* elements in full warps */
    long long tail = positives(in, full, n);
    long long z = zeros(in, n);
    long long pad = (long long)exercise_blocks_for(n, BLOCK) * BLOCK - n;
    long long nwarps = (n + 31) / 32;
    if (got == 0) {
        snprintf(m, cap, ": no warp's count reached *count -- never added, or overwritten by a warp that found "
                         "nothing and wrote back the 0 it had read");
    } else if (z && got == want + z) {
        long long j = 0;
        while (in[j] != 0)
            j++;
        snprintf(m, cap, ": that counts the %lld zeros too (in[%lld] = 0 is not positive: > 0, not >= 0)", z, j);
    } else if (got == n - want) {
        snprintf(m, cap, ": that is the number of elements that are NOT positive; the vote is the wrong way round");
    } else if (got == n) {
        snprintf(m, cap, ": that is every element, the negative ones too; the vote must be in[i] > 0");
    } else if (got == want + pad) {
        snprintf(m, cap, ": the %lld threads past n (i = %lld and on) were counted too; lanes past n must vote false",
                 pad, n);
    } else if (n > 1 && in[n - 1] > 0 && got == want - 1) {
        snprintf(m, cap, ": in[%lld] = %d, the last element, is positive but was not counted (a bound like "
                         "i < n - 1?)", n - 1, in[n - 1]);
    } else if (tail && got == want - tail) {
        snprintf(m, cap, ": in[%lld..%lld], the %lld lanes of the last, partial warp, hold %lld positive "
                         "element%s that %s not counted; every lane must take part in "
                         "__ballot_sync(0xffffffff, ...), lanes past n voting false", full, n - 1, n - full, tail,
                 tail == 1 ? "" : "s", tail == 1 ? "was" : "were");
    } else if (nwarps > 1 && warp_with(in, n, got) >= 0) {
        long long w = warp_with(in, n, got);
        snprintf(m, cap, ": that is the count of one warp alone (warp %lld, in[%lld..%lld]); the others' counts "
                         "were overwritten or lost -- *count = or *count += instead of atomicAdd?", w, w * 32,
                 w * 32 + 32 < n ? w * 32 + 31 : n - 1);
    } else if (got < want && warp_with(in, n, want - got) >= 0) {
        long long w = warp_with(in, n, want - got);
        snprintf(m, cap, ": %lld short, exactly the positive elements of warp %lld (in[%lld..%lld]): its update "
                         "was lost or never made", want - got, w, w * 32, w * 32 + 32 < n ? w * 32 + 31 : n - 1);
    } else if (got < want) {
        snprintf(m, cap, ": %lld short; updates were lost -- a plain *count += is a read and a write that another "
                         "warp can come between: use atomicAdd", want - got);
    } else if (warp_with(in, n, got - want) >= 0) {
        long long w = warp_with(in, n, got - want);
        snprintf(m, cap, ": %lld too many, exactly the positive elements of warp %lld (in[%lld..%lld]): counted "
                         "twice?", got - want, w, w * 32, w * 32 + 32 < n ? w * 32 + 31 : n - 1);
    } else {
        snprintf(m, cap, ": %lld too many; elements were counted more than once (more than one lane adding "
                         "__popc of the same ballot?)", got - want);
    }
}

static bool count_positive_check(const GradeExerciseTest *t, const GradeData *in, const GradeData *out,
                                 char *msg, size_t cap)
{
    const int32_t *x = in[0].data, *y = out[0].data;
    for (uint64_t i = 0; i < in[0].count; i++)
        if (x[i] != y[i]) {
            snprintf(msg, cap, "in[%llu] changed from %d to %d: the input is const, leave it as it is",
                     (unsigned long long)i, x[i], y[i]);
            return false;
        }
    long long want = positives(x, 0, t->n);
    long long got = ((const int32_t *)out[1].data)[0];
    if (got == want)
        return true;
    snprintf(msg, cap, "*count = %lld, expected %lld (the elements of in[0..%lld] greater than zero)", got, want,
             t->n - 1);
    explain(x, t->n, got, want, msg, cap);
    return false;
}

const GradeExercise lesson03_exercise = {
    .lesson = "03-atomics",
    .lesson_number = 3,
    .kernel = "count_positive",
    .signature = "extern \"C\" __global__ void count_positive(const int *in, int *count, int n)",
    .readme = "lessons/03-atomics/exercise/README.md",
    .arch = "sm_90",
    .nparams = 3,
    .params = params,
    .ntests = (int)(sizeof tests / sizeof *tests),
    .tests = tests,
    .nrubric = (int)(sizeof rubric / sizeof *rubric),
    .rubric = rubric,
    .budget_per_warp = 2000, /* a ballot solution issues about 26 per warp */
    .launch = count_positive_launch,
    .check = count_positive_check,
};
