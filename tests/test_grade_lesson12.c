/* test_grade_lesson12.c: `warpsim grade 12` on lesson 12's exercise,
 * float_max -- an atomic read and a CAS loop earn full marks; atomicMax on
 * the float's bits fails only the all-negative test; a single CAS with no
 * loop loses updates; the starter's compare-and-store is a race at its line;
 * and the reference check with its explanations.  Runs build/warpsim
 * ($WARPSIM); the cases that compile need nvcc and are skipped without it. */
#include "lesson.h"

#include "grade_fixture.h"

static JsonValue *grade_json(int *rc, const char *name, const char *extra)
{
    return grade_fixture(rc, 12, name, extra);
}

static void test_grade12_atomic_read_and_cas_loop_gets_full_marks(void **s)
{
    (void)s;
    need_nvcc();
    int rc;
    JsonValue *r = grade_json(&rc, "lesson12_good", "");
    assert_int_equal(rc, 0);
    assert_true(passed(r));
    assert_int_equal(json_get(r, "findings")->n, 0);
    assert_int_equal((int)json_get_number(r, "score", -1), 100);
    assert_non_null(strstr(json_get_string(item(r, "n = 100000"), "output"), "correct in all 8 runs"));
}

static void test_grade12_atomicmax_on_the_bits_fails_only_the_negative_test(void **s)
{
    (void)s;
    need_nvcc();
    int rc;
    JsonValue *r = grade_json(&rc, "lesson12_int_bits", "--runs 2");
    assert_int_equal(rc, 1);
    assert_int_equal((int)json_get_number(r, "score", -1), 90);
    assert_false(passed(item(r, "n = 5 ")));
    assert_true(passed(item(r, "n = 1000")));
    assert_true(passed(item(r, "rubric: no data race")));
    expect_output(r, "n = 5 ", "orders negative floats backwards");
}

static void test_grade12_one_cas_without_a_loop_loses_the_ascending_warp(void **s)
{
    (void)s;
    need_nvcc();
    int rc;
    JsonValue *r = grade_json(&rc, "lesson12_cas_once", "--runs 2");
    assert_int_equal(rc, 1);
    assert_false(passed(item(r, "n = 32 ")));
    expect_output(r, "n = 32 ", "out[0] = 0, expected 31 (in[31], the largest)");
    expect_output(r, "n = 32 ", "an update was lost");
    /* its first read is plain: a race with the CAS of other threads */
    expect_fixture_finding(r, "lesson12_cas_once", "race", 11);
}

static void test_grade12_starter_compare_and_store_is_a_race_at_its_line(void **s)
{
    (void)s;
    need_nvcc();
    int rc;
    JsonValue *r = grade_json(&rc, "lesson12_racy", "--runs 2");
    assert_int_equal(rc, 1);
    expect_fixture_finding(r, "lesson12_racy", "race", 8);
    assert_false(passed(item(r, "rubric: no data race")));
    assert_true(passed(item(r, "n = 1 "))); /* one element: nobody to race with */
    assert_false(passed(item(r, "n = 1000")));
}

static const GradeExercise *ex12(void)
{
    return lesson_exercise("12", "12-atomics");
}

static void test_lesson12_exercise_launches_the_documented_inputs(void **s)
{
    (void)s;
    const GradeExercise *ex = ex12();
    assert_int_equal(ex->ntests, 6);
    for (int i = 1; i < ex->ntests; i++)
        assert_true(ex->tests[i].n > ex->tests[i - 1].n); /* smallest first */
    assert_int_equal(grade_exercise_max_score(ex), 100);
    GradeLaunch l;
    ex->launch(&ex->tests[1], &l);
    assert_string_equal(l.args[0], "buf:f32[5]=list:-3,-1,-2,-0.5,-4");
    assert_string_equal(l.args[1], "buf:f32[1]=fill:-3.4e38");
    assert_string_equal(l.args[2], "i32:5");
    ex->launch(&ex->tests[2], &l);
    assert_string_equal(l.args[0], "buf:f32[32]=iota");
    ex->launch(&ex->tests[5], &l);
    assert_int_equal(l.grid.x, 391);
    assert_int_equal(l.block.x, 256);
    assert_string_equal(l.args[0], "buf:f32[100000]=rand:100000");
}

static char msg[800];

static bool judge(const GradeExercise *ex, long long n, const float *in, float got)
{
    GradeExerciseTest t = {"t", n, 10};
    float start = -3.4e38f;
    int32_t nn = (int32_t)n;
    GradeData before[3] = {{in, (uint64_t)n, 4}, {&start, 1, 4}, {&nn, 1, 4}};
    GradeData after[3] = {{in, (uint64_t)n, 4}, {&got, 1, 4}, {&nn, 1, 4}};
    msg[0] = 0;
    return ex->check(&t, before, after, msg, sizeof msg);
}

static void test_lesson12_check_wants_the_exact_max_and_says_why_not(void **s)
{
    (void)s;
    const GradeExercise *ex = ex12();
    const float neg[5] = {-3, -1, -2, -0.5f, -4};
    assert_true(judge(ex, 5, neg, -0.5f));
    assert_false(judge(ex, 5, neg, -3.4e38f));
    assert_non_null(strstr(msg, "out[0] = -3.39999995e+38, expected -0.5 (in[3], the largest)"));
    assert_non_null(strstr(msg, "orders negative floats backwards"));
    assert_false(judge(ex, 5, neg, -4));
    assert_non_null(strstr(msg, "in[4] was written last, over a larger value"));
    const float pos[3] = {0.25f, 0.75f, 0.5f};
    assert_true(judge(ex, 3, pos, 0.75f));
    assert_false(judge(ex, 3, pos, 0.7500001f)); /* bit for bit */
    assert_false(judge(ex, 3, pos, 0.5f));
    assert_non_null(strstr(msg, "in[2] was written last"));
    /* a changed input is wrong whatever out says */
    float changed[3] = {0.25f, 0.75f, 0.75f};
    GradeExerciseTest t = {"t", 3, 10};
    float start = -3.4e38f, got = 0.75f;
    int32_t n3 = 3;
    GradeData before[3] = {{pos, 3, 4}, {&start, 1, 4}, {&n3, 1, 4}};
    GradeData after[3] = {{changed, 3, 4}, {&got, 1, 4}, {&n3, 1, 4}};
    assert_false(ex->check(&t, before, after, msg, sizeof msg));
    assert_non_null(strstr(msg, "in[2] changed from 0.5 to 0.75: the input is const"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_teardown(test_grade12_atomic_read_and_cas_loop_gets_full_marks, free_report),
        cmocka_unit_test_teardown(test_grade12_atomicmax_on_the_bits_fails_only_the_negative_test, free_report),
        cmocka_unit_test_teardown(test_grade12_one_cas_without_a_loop_loses_the_ascending_warp, free_report),
        cmocka_unit_test_teardown(test_grade12_starter_compare_and_store_is_a_race_at_its_line, free_report),
        cmocka_unit_test(test_lesson12_exercise_launches_the_documented_inputs),
        cmocka_unit_test(test_lesson12_check_wants_the_exact_max_and_says_why_not),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
