/* test_grade_lesson11.c: `warpsim grade 11` on cluster_sums -- two right
 * answers earn full marks; the starter, a missing first or last
 * cluster.sync() and ranks from blockIdx.x lose what they should, with the
 * race or fault named; the README's claims run; the reference check and its
 * explanations.  Runs build/warpsim ($WARPSIM); the cases that compile need
 * nvcc and are skipped without it. */
#include "lesson.h"

#include "grade_fixture.h"
#include "lesson_fixture.h"

#define STARTER "lessons/11-clusters/exercise/cluster_sums.cu"

static JsonValue *grade_json(int *rc, const char *name, const char *extra)
{
    return grade_fixture(rc, 11, name, extra);
}


static void test_grade11_both_cluster_syncs_get_full_marks(void **s)
{
    (void)s;
    need_nvcc();
    static const char *const good[] = {"lesson11_good", "lesson11_push"};
    expect_full_marks(11, "11-clusters", 5, good, 2);
}

/* The starter: no cluster.sync() at all.  The default schedule reads the
 * other CTAs' parts before they are written (rank 0's part alone, and the
 * race); other schedules let a CTA exit first (the fault). */
static void test_grade11_starter_races_and_reads_exited_ctas(void **s)
{
    (void)s;
    need_nvcc();
    int rc;
    JsonValue *r = grade_path(&rc, 11, STARTER, "--runs 2");
    assert_int_equal(rc, 1);
    assert_int_equal((int)json_get_number(r, "score", -1), 0);
    expect_finding_in(r, STARTER, "race", 14);
    expect_output(r, "n = 1024 ", "that is the part of the CTA of rank 0 alone");
    expect_output(r, "n = 1024 ", "which has exited: its shared memory is gone");
    assert_false(passed(item(r, "rubric: no races")));
}

/* What the exercise's README says the starter prints is what it prints. */
static void test_lesson11_starter_prints_what_the_readme_says(void **s)
{
    (void)s;
    need_nvcc();
    char *raw = lesson_read_text("lessons/11-clusters/exercise/README.md");
    char *readme = lesson_squash(raw);
    free(raw);
    assert_non_null(strstr(readme, "It prints `32640 294784`, where `523776 600474` is right"));
    assert_non_null(strstr(readme, "Add `--schedule random --seed 3` and it faults instead: a CTA of rank 1"));
    free(readme);
    const char *run = "%s run " STARTER " --kernel cluster_sums --grid 8 --block 256 --arg buf:i32[1500]=iota "
                      "--arg buf:i32[2]=fill:0 --arg i32:1500 %s";
    sh(true, run, warpsim(), "--check races");
    assert_non_null(strstr(out, "arg 1  i32[2]: 32640 294784\n"));
    assert_non_null(strstr(out, "no cluster.sync() (barrier.cluster) between them"));
    sh(true, run, warpsim(), "--schedule random --seed 3");
    assert_non_null(strstr(out, "access to CTA rank 1 of the cluster, which has exited"));
    sh(true, "%s run tests/grade/lesson11_good.cu --kernel cluster_sums --grid 8 --block 256 "
             "--arg buf:i32[1500]=iota --arg buf:i32[2]=fill:0 --arg i32:1500 --check races", warpsim());
    assert_non_null(strstr(out, "arg 1  i32[2]: 523776 600474\n"));
    assert_non_null(strstr(out, "race check: no hazards found"));
}

static void test_grade11_no_sync_before_the_reads_is_a_race(void **s)
{
    (void)s;
    need_nvcc();
    int rc;
    JsonValue *r = grade_json(&rc, "lesson11_no_first_sync", "--runs 2");
    assert_int_equal(rc, 1);
    assert_int_equal((int)json_get_number(r, "score", -1), 0);
    const JsonValue *f = expect_fixture_finding(r, "lesson11_no_first_sync", "race", 14);
    assert_non_null(strstr(json_get_string(f, "message"), "no cluster.sync() (barrier.cluster) between them"));
    expect_output(r, "n = 1500 ", "that is the part of the CTA of rank 0 alone -- the other CTAs' parts were read "
                                  "before those CTAs had added into them");
}

static void test_grade11_exiting_while_rank_0_reads_is_a_fault(void **s)
{
    (void)s;
    need_nvcc();
    int rc;
    JsonValue *r = grade_json(&rc, "lesson11_early_exit", "--runs 2");
    assert_int_equal(rc, 1);
    assert_int_equal((int)json_get_number(r, "score", -1), 0);
    const JsonValue *f = expect_fixture_finding(r, "lesson11_early_exit", "out-of-bounds", 22);
    assert_non_null(strstr(json_get_string(f, "message"), "of the cluster, which has exited"));
    assert_non_null(strstr(json_get_string(f, "message"), "end with cluster.sync()"));
}

static void test_grade11_ranks_from_blockidx_leave_the_cluster(void **s)
{
    (void)s;
    need_nvcc();
    int rc;
    JsonValue *r = grade_json(&rc, "lesson11_block_rank", "--runs 2");
    assert_int_equal(rc, 1);
    assert_int_equal((int)json_get_number(r, "score", -1), 40);
    assert_true(passed(item(r, "n = 1024 ")));
    assert_false(passed(item(r, "n = 1500 ")));
    expect_fixture_finding(r, "lesson11_block_rank", "out-of-bounds", 22);
    expect_output(r, "n = 1500 ", "mapa to CTA rank 4, outside the cluster of 4 CTAs (ranks 0..3)");
    assert_true(passed(item(r, "rubric: no races")));
}

static const GradeExercise *ex11(void)
{
    return lesson_exercise("11", "11-clusters");
}

static void test_lesson11_exercise_launches_whole_clusters(void **s)
{
    (void)s;
    const GradeExercise *ex = ex11();
    assert_int_equal(ex->ntests, 4);
    for (int i = 1; i < ex->ntests; i++)
        assert_true(ex->tests[i].n > ex->tests[i - 1].n); /* smallest first */
    assert_int_equal(grade_exercise_max_score(ex), 100);
    GradeLaunch l;
    ex->launch(&ex->tests[1], &l);
    assert_string_equal(l.args[0], "buf:i32[1500]=rand:1511");
    assert_string_equal(l.args[1], "buf:i32[2]=fill:0");
    assert_string_equal(l.args[2], "i32:1500");
    assert_int_equal(l.grid.x, 8); /* two clusters of 4, the last two CTAs idle */
    assert_int_equal(l.block.x, 256);
    ex->launch(&ex->tests[3], &l);
    assert_int_equal(l.grid.x, 80);
    assert_string_equal(l.args[1], "buf:i32[20]=fill:0");
    for (int i = 0; i < ex->ntests; i++) {
        ex->launch(&ex->tests[i], &l);
        assert_int_equal(l.grid.x % 4, 0); /* __cluster_dims__(4, 1, 1) needs whole clusters */
        assert_int_equal(l.smem, 0);
    }
    assert_non_null(strstr(ex->signature, "__cluster_dims__(4, 1, 1)"));
}

static char msg[800];


static bool judge(const GradeExercise *ex, int n, const int *in, const int *in_after, const int *got)
{
    GradeExerciseTest t = {"t", n, 20};
    static int zero[8];
    uint64_t outs = (uint64_t)(n + 1023) / 1024;
    GradeData before[3] = {{in, (uint64_t)n, 4}, {zero, outs, 4}, {&n, 1, 4}};
    GradeData after[3] = {{in_after, (uint64_t)n, 4}, {got, outs, 4}, {&n, 1, 4}};
    msg[0] = 0;
    return ex->check(&t, before, after, msg, sizeof msg);
}

static void test_lesson11_check_wants_each_clusters_sum_and_says_why_not(void **s)
{
    (void)s;
    const GradeExercise *ex = ex11();
    enum { N = 1500 };
    static int in[N];
    for (int i = 0; i < N; i++)
        in[i] = i;
    /* cluster 0: 0..1023 = 523776 (rank parts 32640, 98176, 163712, 229248);
     * cluster 1: 1024..1499 = 600474 (parts 294784, 305690, 0, 0) */
    const int right[2] = {523776, 600474};
    assert_true(judge(ex, N, in, in, right));
    const int alone[2] = {32640, 600474};
    assert_false(judge(ex, N, in, in, alone));
    assert_non_null(strstr(msg, "out[0] = 32640, expected 523776 (in[0] + ... + in[1023], cluster 0): that is the "
                                "part of the CTA of rank 0 alone -- the other CTAs' parts were read before those "
                                "CTAs had added into them: the cluster must meet at cluster.sync()"));
    const int alone1[2] = {523776, 294784};
    assert_false(judge(ex, N, in, in, alone1));
    assert_non_null(strstr(msg, "out[1] = 294784, expected 600474 (in[1024] + ... + in[1499], cluster 1): that is "
                                "the part of the CTA of rank 0 alone"));
    const int less[2] = {523776 - 163712, 600474};
    assert_false(judge(ex, N, in, in, less));
    assert_non_null(strstr(msg, ": the part of the CTA of rank 2 (in[512..767]) is missing"));
    const int swapped[2] = {600474, 0};
    assert_false(judge(ex, N, in, in, swapped));
    assert_non_null(strstr(msg, "out[0] = 600474, expected 523776 (in[0] + ... + in[1023], cluster 0): that is the "
                                "sum of cluster 1 -- out's index must be the cluster's"));
    const int hole[2] = {523776, 0};
    assert_false(judge(ex, N, in, in, hole));
    assert_non_null(strstr(msg, "out[1] = 0, expected 600474 (in[1024] + ... + in[1499], cluster 1): nothing was "
                                "written there"));
    static int changed[N];
    memcpy(changed, in, sizeof changed);
    changed[7] = 0;
    assert_false(judge(ex, N, in, changed, right));
    assert_non_null(strstr(msg, "in[7] changed from 7 to 0: the input is const"));
    /* sums wrap as 32-bit ints, in any order */
    const int big[2] = {0x7fffffff, 1};
    const int wrapped[1] = {(int)0x80000000};
    assert_true(judge(ex, 2, big, big, wrapped));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_teardown(test_grade11_both_cluster_syncs_get_full_marks, free_report),
        cmocka_unit_test_teardown(test_grade11_starter_races_and_reads_exited_ctas, free_report),
        cmocka_unit_test(test_lesson11_starter_prints_what_the_readme_says),
        cmocka_unit_test_teardown(test_grade11_no_sync_before_the_reads_is_a_race, free_report),
        cmocka_unit_test_teardown(test_grade11_exiting_while_rank_0_reads_is_a_fault, free_report),
        cmocka_unit_test_teardown(test_grade11_ranks_from_blockidx_leave_the_cluster, free_report),
        cmocka_unit_test(test_lesson11_exercise_launches_whole_clusters),
        cmocka_unit_test(test_lesson11_check_wants_each_clusters_sum_and_says_why_not),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
