/* test_grade_lesson08.c: `warpsim grade 8` on lesson 8's exercise, rotate --
 * two waits a round earn full marks, with cuda::barrier or __syncthreads();
 * the starter's one wait is a write-after-read at its line and wrong
 * answers the check explains; and the reference check.  Runs build/warpsim
 * ($WARPSIM); the cases that compile need nvcc and are skipped without it. */
#include "lesson.h"

#include "grade_fixture.h"

static void test_grade8_two_waits_a_round_get_full_marks(void **s)
{
    (void)s;
    need_nvcc();
    int rc;
    JsonValue *r = grade_fixture(&rc, 8, "lesson08_good", "");
    assert_int_equal(rc, 0);
    assert_int_equal((int)json_get_number(r, "score", -1), 100);
    assert_int_equal(json_get(r, "findings")->n, 0);
}

static void test_grade8_syncthreads_does_as_well(void **s)
{
    (void)s;
    need_nvcc();
    int rc;
    JsonValue *r = grade_fixture(&rc, 8, "lesson08_syncthreads", "--runs 2");
    assert_int_equal(rc, 0);
    assert_int_equal((int)json_get_number(r, "score", -1), 100);
}

static void test_grade8_one_wait_is_a_write_after_read_at_its_line(void **s)
{
    (void)s;
    need_nvcc();
    int rc;
    JsonValue *r = grade_fixture(&rc, 8, "lesson08_one_wait", "--runs 2");
    assert_int_equal(rc, 1);
    const JsonValue *f = expect_fixture_finding(r, "lesson08_one_wait", "race", 19);
    assert_non_null(strstr(json_get_string(f, "message"), "overwrote it while another thread could still be reading"));
    assert_int_equal((int)json_get_number(r, "score", -1), 0);
}

static void test_grade8_starter_is_the_one_wait_kernel(void **s)
{
    (void)s;
    need_nvcc();
    int rc;
    JsonValue *r = grade_path(&rc, 8, "lessons/08-memory-ordering/exercise/rotate.cu", "--runs 1");
    assert_int_equal(rc, 1);
    assert_false(passed(item(r, "rubric: no race")));
}

static void test_lesson8_check_wants_every_rotation_and_names_a_round_off(void **s)
{
    (void)s;
    const Lesson *l = lesson_find("08-memory-ordering");
    assert_non_null(l);
    assert_non_null(l->exercise);
    const GradeExercise *ex = l->exercise;
    char m[800];
    if (!grade_exercise_valid(ex, m, sizeof m))
        fail_msg("%s", m);
    static int32_t x[1024], y[1024];
    for (int i = 0; i < 1024; i++)
        x[i] = i * 7 - 300;
    int32_t r = 2;
    for (int b = 0; b < 4; b++)
        for (int k = 0; k < 256; k++)
            y[b * 256 + k] = x[b * 256 + (k + 2) % 256] + 2;
    GradeExerciseTest t = {"t", 2, 10};
    GradeData in[3] = {{x, 1024, 4}, {y, 1024, 4}, {&r, 1, 4}};
    GradeData out[3] = {{x, 1024, 4}, {y, 1024, 4}, {&r, 1, 4}};
    assert_true(ex->check(&t, in, out, m, sizeof m));
    y[300] = x[256 + (44 + 3) % 256] + 3; /* block 1, thread 44: three rounds' value */
    assert_false(ex->check(&t, in, out, m, sizeof m));
    assert_non_null(strstr(m, "out[300] = "));
    assert_non_null(strstr(m, "that is the value after 3 rounds"));
    GradeLaunch gl;
    ex->launch(&ex->tests[0], &gl);
    assert_int_equal(gl.grid.x, 4);
    assert_string_equal(gl.args[2], "i32:1");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_teardown(test_grade8_two_waits_a_round_get_full_marks, free_report),
        cmocka_unit_test_teardown(test_grade8_syncthreads_does_as_well, free_report),
        cmocka_unit_test_teardown(test_grade8_one_wait_is_a_write_after_read_at_its_line, free_report),
        cmocka_unit_test_teardown(test_grade8_starter_is_the_one_wait_kernel, free_report),
        cmocka_unit_test(test_lesson8_check_wants_every_rotation_and_names_a_round_off),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
