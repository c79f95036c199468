/* test_grade_lesson07.c: `warpsim grade 7` on lesson 7's exercise,
 * window_sum -- plain global reads earn full marks; the starter's 48 KB
 * shared-memory stage is right but loses the occupancy points; a window with
 * no bound reads past the end at its line; one that writes only full windows
 * leaves the tail wrong; and the reference check with its explanations.
 * Runs build/warpsim ($WARPSIM); the cases that compile need nvcc and are
 * skipped without it. */
#include "lesson.h"

#include "grade_fixture.h"

static JsonValue *grade_json(int *rc, const char *name, const char *extra)
{
    return grade_fixture(rc, 7, name, extra);
}

static void test_grade07_global_reads_get_full_marks(void **s)
{
    (void)s;
    need_nvcc();
    int rc;
    JsonValue *r = grade_json(&rc, "lesson07_good", "--runs 2");
    assert_int_equal(rc, 0);
    assert_true(passed(r));
    assert_int_equal(json_get(r, "findings")->n, 0);
    assert_int_equal((int)json_get_number(r, "score", -1), 100);
    expect_output(r, "rubric: occupancy at least 75%", "occupancy 100%");
}

static void test_grade07_starter_stage_is_right_but_loses_occupancy(void **s)
{
    (void)s;
    need_nvcc();
    int rc;
    JsonValue *r = grade_path(&rc, 7, "lessons/07-caches-carveout/exercise/window_sum.cu", "--runs 2");
    assert_int_equal((int)json_get_number(r, "score", -1), 40);
    assert_true(passed(item(r, "n = 5000")));
    assert_false(passed(item(r, "rubric: occupancy at least 75%")));
    expect_output(r, "rubric: occupancy at least 75%", "limited by shared_memory");
    json_free(report);
    report = NULL;
    r = grade_json(&rc, "lesson07_big_stage", "--runs 2");
    assert_int_equal((int)json_get_number(r, "score", -1), 40);
    expect_output(r, "rubric: occupancy at least 75%", "occupancy 50%");
}

static void test_grade07_unbounded_window_reads_past_the_end(void **s)
{
    (void)s;
    need_nvcc();
    int rc;
    JsonValue *r = grade_json(&rc, "lesson07_past_end", "--runs 2");
    assert_int_equal(rc, 1);
    assert_int_equal((int)json_get_number(r, "score", -1), 0);
    expect_fixture_finding(r, "lesson07_past_end", "out-of-bounds", 10);
}

static void test_grade07_full_windows_only_leave_the_tail_wrong(void **s)
{
    (void)s;
    need_nvcc();
    int rc;
    JsonValue *r = grade_json(&rc, "lesson07_short_tail", "--runs 2");
    assert_int_equal(rc, 1);
    assert_false(passed(item(r, "n = 257 ")));
    expect_output(r, "n = 257 ", "out[250] = 0");
    expect_output(r, "n = 257 ", "its window runs past the end (n = 257)");
}

static const GradeExercise *ex07(void)
{
    return lesson_exercise("7", "07-caches-carveout");
}

static void test_lesson07_exercise_launches_the_documented_inputs(void **s)
{
    (void)s;
    const GradeExercise *ex = ex07();
    assert_int_equal(ex->ntests, 4);
    for (int i = 1; i < ex->ntests; i++)
        assert_true(ex->tests[i].n > ex->tests[i - 1].n); /* smallest first */
    assert_int_equal(grade_exercise_max_score(ex), 100);
    GradeLaunch l;
    ex->launch(&ex->tests[1], &l);
    assert_string_equal(l.args[0], "buf:i32[7]=rand:14");
    assert_string_equal(l.args[1], "buf:i32[7]=fill:0");
    assert_string_equal(l.args[2], "i32:7");
    ex->launch(&ex->tests[3], &l);
    assert_int_equal(l.grid.x, 20);
    assert_int_equal(l.block.x, 256);
}

static char msg[800];

static bool judge(const GradeExercise *ex, int n, const int *in, const int *in_after, const int *got)
{
    GradeExerciseTest t = {"t", n, 10};
    static int zero[16];
    GradeData before[3] = {{in, (uint64_t)n, 4}, {zero, (uint64_t)n, 4}, {&n, 1, 4}};
    GradeData after[3] = {{in_after, (uint64_t)n, 4}, {got, (uint64_t)n, 4}, {&n, 1, 4}};
    msg[0] = 0;
    return ex->check(&t, before, after, msg, sizeof msg);
}

static void test_lesson07_check_wants_each_window_and_says_why_not(void **s)
{
    (void)s;
    const GradeExercise *ex = ex07();
    const int in[10] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
    const int right[10] = {36, 44, 52, 49, 45, 40, 34, 27, 19, 10};
    assert_true(judge(ex, 10, in, in, right));
    int tail[10];
    memcpy(tail, right, sizeof tail);
    tail[9] = 0;
    assert_false(judge(ex, 10, in, in, tail));
    assert_non_null(strstr(msg, "out[9] = 0, expected 10: its window runs past the end (n = 10)"));
    int hole[10];
    memcpy(hole, right, sizeof hole);
    hole[1] = 0;
    assert_false(judge(ex, 10, in, in, hole));
    assert_non_null(strstr(msg, "out[1] = 0, expected 44: nothing was written there"));
    int changed[10];
    memcpy(changed, in, sizeof changed);
    changed[3] = 0;
    assert_false(judge(ex, 10, in, changed, right));
    assert_non_null(strstr(msg, "in[3] changed from 4 to 0: the input is const"));
    /* sums wrap as 32-bit ints, in any order */
    const int big[2] = {0x7fffffff, 1};
    const int wrapped[2] = {(int)0x80000000, 1};
    assert_true(judge(ex, 2, big, big, wrapped));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_teardown(test_grade07_global_reads_get_full_marks, free_report),
        cmocka_unit_test_teardown(test_grade07_starter_stage_is_right_but_loses_occupancy, free_report),
        cmocka_unit_test_teardown(test_grade07_unbounded_window_reads_past_the_end, free_report),
        cmocka_unit_test_teardown(test_grade07_full_windows_only_leave_the_tail_wrong, free_report),
        cmocka_unit_test(test_lesson07_exercise_launches_the_documented_inputs),
        cmocka_unit_test(test_lesson07_check_wants_each_window_and_says_why_not),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
