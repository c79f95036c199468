/* test_grade_lesson13.c: `warpsim grade 13` on lesson 13's exercise,
 * row_max, a tile kernel that includes the course's "tile.cuh" -- padding
 * with -infinity earns full marks; the starter's default pad (0) fails the
 * rows of negative values and the finding says why; a 1 x 128 tile misses
 * the columns past 128; every thread storing the result is a race at its
 * line; an #include outside the submission's folder and the course's
 * headers is still refused; and the reference check with its explanations.
 * Runs build/warpsim ($WARPSIM); the cases that compile need nvcc. */
#include "lesson.h"

#include "grade_fixture.h"

static JsonValue *grade_json(int *rc, const char *name, const char *extra)
{
    return grade_fixture(rc, 13, name, extra);
}

static void test_grade13_pad_with_neg_inf_gets_full_marks(void **s)
{
    (void)s;
    need_nvcc();
    int rc;
    JsonValue *r = grade_json(&rc, "lesson13_good", "--runs 2");
    assert_int_equal(rc, 0);
    assert_true(passed(r));
    assert_int_equal(json_get(r, "findings")->n, 0);
    assert_int_equal((int)json_get_number(r, "score", -1), 100);
}

static void test_grade13_the_starter_pads_with_zero_and_is_told_so(void **s)
{
    (void)s;
    need_nvcc();
    int rc;
    JsonValue *r = grade_path(&rc, 13, "lessons/13-tiles/exercise/row_max.cu", "--runs 2");
    assert_int_equal(rc, 1);
    assert_false(passed(item(r, "2 x 5 ")));
    assert_true(passed(item(r, "8 x 1000 "))); /* random rows have positives: the pad hides */
    expect_output(r, "2 x 5 ", "out[0] = 0, expected -0.5 (a[0][3], the largest of row 0)");
    expect_output(r, "2 x 5 ", "pad with tile::Pad::neg_inf");
    expect_finding_in(r, "lessons/13-tiles/exercise/row_max.cu", "wrong-answer", 9);
}

static void test_grade13_a_narrow_tile_misses_the_end_of_long_rows(void **s)
{
    (void)s;
    need_nvcc();
    int rc;
    JsonValue *r = grade_json(&rc, "lesson13_narrow", "--runs 1");
    assert_int_equal(rc, 1);
    assert_true(passed(item(r, "4 x 128 ")));
    assert_false(passed(item(r, "8 x 1000 ")));
    assert_false(passed(item(r, "16 x 1024 ")));
    expect_output(r, "8 x 1000 ", "part of the row was not looked at");
}

static void test_grade13_every_thread_storing_is_a_race_at_its_line(void **s)
{
    (void)s;
    need_nvcc();
    int rc;
    JsonValue *r = grade_json(&rc, "lesson13_all_threads", "--runs 1");
    assert_int_equal(rc, 1);
    expect_fixture_finding(r, "lesson13_all_threads", "race", 9);
    assert_false(passed(item(r, "rubric: no data race")));
}

/* The course's headers are allowed, and only them: a header of another
 * lesson's folder, reached by a path, is still refused. */
static void test_grade13_includes_outside_the_course_headers_are_refused(void **s)
{
    (void)s;
    need_nvcc();
    char dir[] = "/tmp/warpsim-test-g13-XXXXXX", path[128];
    assert_non_null(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/row_max.cu", dir);
    char cwd[4096];
    assert_non_null(getcwd(cwd, sizeof cwd));
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fprintf(f, "#include \"tile.cuh\"\n#include \"%s/lessons/13-tiles/kernel.cu\"\n", cwd);
    fclose(f);
    int rc;
    JsonValue *r = grade_path(&rc, 13, path, "--runs 1");
    assert_int_equal(rc, 1);
    assert_non_null(finding(r, "include-refused"));
    unlink(path);
    rmdir(dir);
}

/* `warpsim run` finds "tile.cuh" too (the README's command), and takes
 * the block from __launch_bounds__. */
static void test_lesson13_readme_run_command_compiles_with_the_course_header(void **s)
{
    (void)s;
    need_working_nvcc("the README's run command was not tried");
    int rc = sh(true, "%s run lessons/13-tiles/exercise/row_max.cu --kernel row_max --grid 2 "
                      "--arg buf:f32[10]=list:-3,-1,-2,-0.5,-4,-7,-6.5,-9,-8,-7.25 --arg buf:f32[2]=fill:0 "
                      "--arg i32:2 --arg i32:5", warpsim());
    if (rc != 0)
        fail_msg("exit %d: %.600s", rc, out);
    assert_non_null(strstr(out, "row_max<<<(2,1,1), (128,1,1), 0>>>"));
}

static const GradeExercise *ex13(void)
{
    return lesson_exercise("13", "13-tiles");
}

static void test_lesson13_exercise_launches_the_documented_inputs(void **s)
{
    (void)s;
    const GradeExercise *ex = ex13();
    assert_int_equal(ex->ntests, 6);
    assert_int_equal(grade_exercise_max_score(ex), 100);
    GradeLaunch l;
    ex->launch(&ex->tests[1], &l); /* README's command */
    assert_int_equal(l.grid.x, 2);
    assert_int_equal(l.block.x, 128);
    assert_string_equal(l.args[0], "buf:f32[10]=list:-3,-1,-2,-0.5,-4,-7,-6.5,-9,-8,-7.25");
    assert_string_equal(l.args[1], "buf:f32[2]=fill:0");
    assert_string_equal(l.args[2], "i32:2");
    assert_string_equal(l.args[3], "i32:5");
    ex->launch(&ex->tests[5], &l);
    assert_int_equal(l.grid.x, 300);
    assert_string_equal(l.args[0], "buf:f32[11100]=rand:3000037");
    assert_string_equal(l.args[3], "i32:37");
}

static char msg[800];

static bool judge(const GradeExercise *ex, int rows, int cols, const float *a, const float *got)
{
    GradeExerciseTest t = {"t", rows * 10000LL + cols, 10};
    int32_t r32 = rows, c32 = cols;
    float zero[4] = {0};
    GradeData before[4] = {{a, (uint64_t)rows * cols, 4}, {zero, (uint64_t)rows, 4}, {&r32, 1, 4}, {&c32, 1, 4}};
    GradeData after[4] = {{a, (uint64_t)rows * cols, 4}, {got, (uint64_t)rows, 4}, {&r32, 1, 4}, {&c32, 1, 4}};
    msg[0] = 0;
    return ex->check(&t, before, after, msg, sizeof msg);
}

static void test_lesson13_check_wants_each_rows_max_and_says_why_not(void **s)
{
    (void)s;
    const GradeExercise *ex = ex13();
    const float a[6] = {-3, -1, -2, 5, 7, 6}; /* 2 x 3 */
    const float right[2] = {-1, 7}, padded[2] = {0, 7}, partial[2] = {-1, 5}, alien[2] = {-1, 9};
    assert_true(judge(ex, 2, 3, a, right));
    assert_false(judge(ex, 2, 3, a, padded));
    assert_non_null(strstr(msg, "out[0] = 0, expected -1 (a[0][1], the largest of row 0)"));
    assert_non_null(strstr(msg, "tile::Pad::neg_inf"));
    assert_false(judge(ex, 2, 3, a, partial));
    assert_non_null(strstr(msg, "part of the row was not looked at"));
    assert_false(judge(ex, 2, 3, a, alien));
    assert_non_null(strstr(msg, "not in row 1 at all"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_teardown(test_grade13_pad_with_neg_inf_gets_full_marks, free_report),
        cmocka_unit_test_teardown(test_grade13_the_starter_pads_with_zero_and_is_told_so, free_report),
        cmocka_unit_test_teardown(test_grade13_a_narrow_tile_misses_the_end_of_long_rows, free_report),
        cmocka_unit_test_teardown(test_grade13_every_thread_storing_is_a_race_at_its_line, free_report),
        cmocka_unit_test_teardown(test_grade13_includes_outside_the_course_headers_are_refused, free_report),
        cmocka_unit_test(test_lesson13_readme_run_command_compiles_with_the_course_header),
        cmocka_unit_test(test_lesson13_exercise_launches_the_documented_inputs),
        cmocka_unit_test(test_lesson13_check_wants_each_rows_max_and_says_why_not),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
