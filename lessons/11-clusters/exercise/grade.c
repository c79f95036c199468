/* grade.c: lesson 11's exercise, cluster_sums, as `warpsim grade 11` checks
 * it (contract: grade/grade_exercise.h; text: README.md here).  out[c] is the
 * sum of cluster c's 1024 values (clusters of 4 CTAs from the kernel's
 * __cluster_dims__), checked in C on wrapping 32-bit ints; a wrong sum is
 * explained when it is one CTA's part alone, the sum less one part, or
 * another cluster's.  The rubric wants no race between the cluster's CTAs. */
#include <stdio.h>
#include <string.h>

#include "exercise.h"

#define BLOCK 256
#define CLUSTER 4
#define PER_CLUSTER (BLOCK * CLUSTER)

static const GradeParam params[] = {
    {"const int *in", 8, true},
    {"int *out", 8, true},
    {"int n", 4, false},
};

static const GradeExerciseTest tests[] = {
    {"n = 1024 (one cluster of four full CTAs)", 1024, 20},
    {"n = 1500 (two clusters, the second with two CTAs that add nothing)", 1500, 20},
    {"n = 5000 (five clusters, 20 CTAs)", 5000, 20},
    {"n = 20000 (20 clusters, 80 CTAs)", 20000, 20},
};

static const GradeRubric rubric[] = {
    {GRADE_RUBRIC_NO_RACES, "no races: every part a CTA reads was written before a cluster.sync()", 0,
     GRADE_PER_LAUNCH, 20},
};

static long long clusters_for(long long n)
{
    return n > 0 ? (n + PER_CLUSTER - 1) / PER_CLUSTER : 1;
}

static void cluster_sums_launch(const GradeExerciseTest *t, GradeLaunch *l)
{
    memset(l, 0, sizeof *l);
    l->grid = (DeviceDim3){(unsigned)(CLUSTER * clusters_for(t->n)), 1, 1};
    l->block = (DeviceDim3){BLOCK, 1, 1};
    l->nargs = 3;
    snprintf(l->args[0], GRADE_ARG_CAP, "buf:i32[%lld]=rand:%lld", t->n, t->n + 11);
    snprintf(l->args[1], GRADE_ARG_CAP, "buf:i32[%lld]=fill:0", clusters_for(t->n));
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

/* Why out[c] = y is wrong, when the check can tell: into msg (cap left). */
static void explain(const int *x, long long n, long long c, unsigned y, unsigned want, char *msg, size_t cap)
{
    long long base = c * PER_CLUSTER;
    unsigned part[CLUSTER];
    for (int r = 0; r < CLUSTER; r++)
        part[r] = sum(x, n, base + r * BLOCK, base + (r + 1) * BLOCK);
    if (y == 0) {
        snprintf(msg, cap, ": nothing was written there");
        return;
    }
    for (int r = 0; r < CLUSTER; r++)
        if (y == part[r] && part[r] != want) {
            snprintf(msg, cap, ": that is the part of the CTA of rank %d alone -- the other CTAs' parts were read "
                               "before those CTAs had added into them: the cluster must meet at cluster.sync() "
                               "between writing the parts and reading them", r);
            return;
        }
    for (int r = 0; r < CLUSTER; r++)
        if (y == want - part[r] && part[r] != 0) {
            snprintf(msg, cap, ": the part of the CTA of rank %d (in[%lld..%lld]) is missing", r,
                     base + r * BLOCK, base + (r + 1) * BLOCK - 1);
            return;
        }
    long long clusters = clusters_for(n);
    for (long long d = 0; d < clusters; d++)
        if (d != c && y == sum(x, n, d * PER_CLUSTER, (d + 1) * PER_CLUSTER)) {
            snprintf(msg, cap, ": that is the sum of cluster %lld -- out's index must be the cluster's, "
                               "blockIdx.x / cluster.num_blocks()", d);
            return;
        }
}

static bool cluster_sums_check(const GradeExerciseTest *t, const GradeData *in, const GradeData *out, char *msg,
                               size_t cap)
{
    const int *x = in[0].data, *x_after = out[0].data, *y = out[1].data;
    for (long long i = 0; i < t->n; i++)
        if (x[i] != x_after[i]) {
            snprintf(msg, cap, "in[%lld] changed from %d to %d: the input is const, leave it as it is", i, x[i],
                     x_after[i]);
            return false;
        }
    long long clusters = clusters_for(t->n);
    for (long long c = 0; c < clusters; c++) {
        unsigned want = sum(x, t->n, c * PER_CLUSTER, (c + 1) * PER_CLUSTER);
        if ((unsigned)y[c] == want)
            continue;
        long long last = (c + 1) * PER_CLUSTER - 1 < t->n ? (c + 1) * PER_CLUSTER - 1 : t->n - 1;
        int len = snprintf(msg, cap, "out[%lld] = %d, expected %d (in[%lld] + ... + in[%lld], cluster %lld)", c,
                           y[c], (int)want, c * PER_CLUSTER, last, c);
        if (len >= 0 && (size_t)len < cap)
            explain(x, t->n, c, (unsigned)y[c], want, msg + len, cap - (size_t)len);
        return false;
    }
    return true;
}

const GradeExercise lesson11_exercise = {
    .lesson = "11-clusters",
    .lesson_number = 11,
    .kernel = "cluster_sums",
    .signature = "extern \"C\" __global__ void __cluster_dims__(4, 1, 1) cluster_sums(const int *in, int *out, int n)",
    .readme = "lessons/11-clusters/exercise/README.md",
    .arch = "sm_90",
    .nparams = 3,
    .params = params,
    .ntests = (int)(sizeof tests / sizeof *tests),
    .tests = tests,
    .nrubric = (int)(sizeof rubric / sizeof *rubric),
    .rubric = rubric,
    .budget_per_warp = 20000,
    .launch = cluster_sums_launch,
    .check = cluster_sums_check,
};
