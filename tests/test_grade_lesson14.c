/* test_grade_lesson14.c: `warpsim grade 14` on lesson 14's exercise,
 * histogram -- a block that falls back to global atomics when malloc says
 * NULL gets full marks; the starter, which never checks, faults once the
 * heap runs out; a block that returns on NULL loses its elements; thread 0
 * freeing before the block is done is a use after free; and the reference
 * check with its explanations.  Runs build/warpsim ($WARPSIM); the cases
 * that compile need nvcc and are skipped without it. */
#include "lesson.h"

#include "grade_fixture.h"

static JsonValue *grade_json(int *rc, const char *name, const char *extra)
{
    return grade_fixture(rc, 14, name, extra);
}

static void test_grade14_fallback_on_null_gets_full_marks(void **s)
{
    (void)s;
    need_nvcc();
    int rc;
    JsonValue *r = grade_json(&rc, "lesson14_good", "--runs 2");
    assert_int_equal(rc, 0);
    assert_true(passed(r));
    assert_int_equal(json_get(r, "findings")->n, 0);
    assert_int_equal((int)json_get_number(r, "score", -1), 100);
}

static void test_grade14_starter_faults_when_the_heap_runs_out(void **s)
{
    (void)s;
    need_nvcc();
    int rc;
    JsonValue *r = grade_path(&rc, 14, "lessons/14-host-side/exercise/histogram.cu", "--runs 2");
    assert_int_equal(rc, 1);
    assert_int_equal((int)json_get_number(r, "score", -1), 50);
    assert_true(passed(item(r, "n = 3000")));
    assert_false(passed(item(r, "n = 4096")));
    assert_true(passed(item(r, "rubric: no race or barrier problem")));
    const JsonValue *f = expect_finding_in(r, "lessons/14-host-side/exercise/histogram.cu", "out-of-bounds", 12);
    assert_non_null(strstr(json_get_string(f, "message"), "a device malloc returned NULL"));
}

static void test_grade14_returning_on_null_loses_the_blocks_elements(void **s)
{
    (void)s;
    need_nvcc();
    int rc;
    JsonValue *r = grade_json(&rc, "lesson14_drop", "--runs 2");
    assert_int_equal(rc, 1);
    assert_int_equal((int)json_get_number(r, "score", -1), 50);
    assert_false(passed(item(r, "n = 4096")));
    expect_output(r, "n = 4096", "were never counted (a block whose malloc returned NULL must still count its elements)");
}

static void test_grade14_freeing_before_the_block_is_done_is_a_use_after_free(void **s)
{
    (void)s;
    need_nvcc();
    int rc;
    JsonValue *r = grade_json(&rc, "lesson14_free_early", "--runs 2");
    assert_int_equal(rc, 1);
    assert_false(passed(item(r, "n = 4096")));
    expect_fixture_finding(r, "lesson14_free_early", "out-of-bounds", 24);
}

static const GradeExercise *ex14(void)
{
    return lesson_exercise("14", "14-host-side");
}

static void test_lesson14_exercise_launches_the_documented_inputs(void **s)
{
    (void)s;
    const GradeExercise *ex = ex14();
    assert_int_equal(ex->ntests, 4);
    for (int i = 1; i < ex->ntests; i++)
        assert_true(ex->tests[i].n > ex->tests[i - 1].n); /* smallest first */
    assert_int_equal(grade_exercise_max_score(ex), 100);
    GradeLaunch l;
    ex->launch(&ex->tests[1], &l);
    assert_string_equal(l.args[0], "buf:i32[1000]=rand:1014");
    assert_string_equal(l.args[1], "buf:i32[10]=fill:0");
    assert_string_equal(l.args[2], "i32:1000");
    assert_string_equal(l.args[3], "i32:10");
    ex->launch(&ex->tests[3], &l);
    assert_int_equal(l.grid.x, 16);
    assert_int_equal(l.block.x, 256);
    assert_string_equal(l.args[1], "buf:i32[300000]=fill:0");
    assert_string_equal(l.args[3], "i32:300000");
    /* 16 blocks of 1.2 MB do not fit the 8 MB heap: the test the README promises */
    assert_true(16ull * 300000 * 4 > 8ull << 20);
}

static char msg[800];

/* Judge hist (bins entries) for in[0..n) on the test with that n. */
static bool judge(const GradeExercise *ex, int test, const int *in, const int *in_after, const int *hist)
{
    const GradeExerciseTest *t = &ex->tests[test];
    GradeLaunch l;
    ex->launch(t, &l);
    int n = (int)t->n, bins = atoi(l.args[3] + 4);
    static int zero[300000];
    GradeData before[4] = {{in, (uint64_t)n, 4}, {zero, (uint64_t)bins, 4}, {&n, 1, 4}, {&bins, 1, 4}};
    GradeData after[4] = {{in_after, (uint64_t)n, 4}, {hist, (uint64_t)bins, 4}, {&n, 1, 4}, {&bins, 1, 4}};
    msg[0] = 0;
    return ex->check(t, before, after, msg, sizeof msg);
}

static void test_lesson14_check_counts_each_bin_and_says_why_not(void **s)
{
    (void)s;
    const GradeExercise *ex = ex14();
    static int in[1000], hist[10];
    for (int i = 0; i < 1000; i++)
        in[i] = i * 7 - 3000;           /* negative values: the bin of (unsigned)in[i] */
    memset(hist, 0, sizeof hist);
    for (int i = 0; i < 1000; i++)
        hist[(unsigned)in[i] % 10u]++;
    assert_true(judge(ex, 1, in, in, hist));
    hist[3] -= 2;                       /* two elements never counted */
    assert_false(judge(ex, 1, in, in, hist));
    assert_non_null(strstr(msg, "expected"));
    assert_non_null(strstr(msg, "hist counts 998 elements of 1000; 2 were never counted"));
    hist[3] += 2;
    hist[3]++;                          /* one counted in the wrong bin */
    hist[4]--;
    assert_false(judge(ex, 1, in, in, hist));
    assert_non_null(strstr(msg, "(hist counts 1000 elements of 1000)"));
    hist[3]--;
    hist[4]++;
    static int changed[1000];
    memcpy(changed, in, sizeof changed);
    changed[5] = 1;
    assert_false(judge(ex, 1, in, changed, hist));
    assert_non_null(strstr(msg, "in[5] changed from -2965 to 1: the input is const"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_teardown(test_grade14_fallback_on_null_gets_full_marks, free_report),
        cmocka_unit_test_teardown(test_grade14_starter_faults_when_the_heap_runs_out, free_report),
        cmocka_unit_test_teardown(test_grade14_returning_on_null_loses_the_blocks_elements, free_report),
        cmocka_unit_test_teardown(test_grade14_freeing_before_the_block_is_done_is_a_use_after_free, free_report),
        cmocka_unit_test(test_lesson14_exercise_launches_the_documented_inputs),
        cmocka_unit_test(test_lesson14_check_counts_each_bin_and_says_why_not),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
