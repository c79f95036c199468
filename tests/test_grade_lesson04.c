/* test_grade_lesson04.c: `warpsim grade 4` on lesson 4's exercise, poly_int
 * -- the starter is right and earns every test but not the occupancy
 * rubric (56 registers, 50%); __launch_bounds__(256, 6) earns full marks
 * (40 registers, 75%); fewer terms lower the registers and break every
 * result, which earns nothing; and the reference check.  Runs build/warpsim
 * ($WARPSIM); the cases that compile need nvcc and are skipped without it. */
#include "lesson.h"

#include "grade_fixture.h"

static void test_grade4_starter_is_right_at_50_percent(void **s)
{
    (void)s;
    need_nvcc();
    int rc;
    JsonValue *r = grade_path(&rc, 4, "lessons/04-occupancy/exercise/poly_int.cu", "--runs 2");
    assert_int_equal((int)json_get_number(r, "score", -1), 40);
    assert_true(passed(item(r, "n = 5000")));
    const JsonValue *occ = item(r, "rubric: occupancy at least 75%");
    assert_false(passed(occ));
    assert_non_null(strstr(json_get_string(occ, "output"), "the kernel uses 56 registers per thread"));
    assert_non_null(strstr(json_get_string(occ, "output"), "occupancy 50% on sm_90"));
}

static void test_grade4_launch_bounds_reach_75_percent_with_the_same_results(void **s)
{
    (void)s;
    need_nvcc();
    int rc;
    JsonValue *r = grade_fixture(&rc, 4, "lesson04_bounded", "--runs 2");
    assert_int_equal(rc, 0);
    assert_true(passed(r));
    assert_int_equal((int)json_get_number(r, "score", -1), 100);
    expect_output(r, "rubric: occupancy at least 75%", "40 registers per thread");
}

static void test_grade4_fewer_terms_change_every_result_and_earn_nothing(void **s)
{
    (void)s;
    need_nvcc();
    int rc;
    JsonValue *r = grade_fixture(&rc, 4, "lesson04_fewer_terms", "--runs 1");
    assert_int_equal(rc, 1);
    assert_int_equal((int)json_get_number(r, "score", -1), 0);
    expect_output(r, "n = 255 ", "all 255 results differ: the arithmetic changed");
}

static void test_lesson4_check_is_exact_and_names_the_first_wrong_element(void **s)
{
    (void)s;
    const Lesson *l = lesson_find("4");
    assert_non_null(l);
    assert_non_null(l->exercise);
    char m[800];
    assert_true(grade_exercise_valid(l->exercise, m, sizeof m));
    assert_int_equal(grade_exercise_max_score(l->exercise), 100);
    const GradeExercise *ex = l->exercise;
    GradeExerciseTest t = {"t", 2, 10};
    int32_t x[2] = {3, -7}, y0[2] = {0, 0}, n = 2;
    GradeData in[3] = {{x, 2, 4}, {y0, 2, 4}, {&n, 1, 4}};
    int32_t y[2] = {0, 0};
    GradeData out[3] = {{x, 2, 4}, {y, 2, 4}, {&n, 1, 4}};
    assert_false(ex->check(&t, in, out, m, sizeof m));
    assert_non_null(strstr(m, "y[0] = 0, expected"));
    assert_non_null(strstr(m, "never written"));
    GradeLaunch gl;
    ex->launch(&ex->tests[3], &gl);
    assert_int_equal(gl.grid.x, 20);
    assert_string_equal(gl.args[0], "buf:i32[5000]=rand:5004");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_teardown(test_grade4_starter_is_right_at_50_percent, free_report),
        cmocka_unit_test_teardown(test_grade4_launch_bounds_reach_75_percent_with_the_same_results, free_report),
        cmocka_unit_test_teardown(test_grade4_fewer_terms_change_every_result_and_earn_nothing, free_report),
        cmocka_unit_test(test_lesson4_check_is_exact_and_names_the_first_wrong_element),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
