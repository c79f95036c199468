/* test_grade_lesson02.c: `warpsim grade 2` -- lesson 2's warp_max exercise
 * (lessons/02-warps/exercise/grade.c) end to end on the fixtures
 * tests/grade/lesson02_*.cu: the correct solution earns full marks, each
 * typical mistake fails (or loses its rubric item) with the right finding
 * kind and line, the starter fails sensibly, the JSON has its shape; and
 * the exercise's launch() and check() themselves, which need no nvcc.
 * Runs build/warpsim ($WARPSIM); the cases that compile need nvcc and are
 * skipped without it. */
#include <limits.h>
#include "lesson.h"

#include "grade_fixture.h"

/* Grade the .cu at path against lesson 2. */
static JsonValue *grade_json_path(int *rc, const char *path, const char *extra)
{
    return grade_path(rc, 2, path, extra);
}

/* Grade fixture tests/grade/lesson02_NAME.cu. */
static JsonValue *grade_json(int *rc, const char *name, const char *extra)
{
    char fixture[128];
    snprintf(fixture, sizeof fixture, "lesson02_%s", name);
    return grade_fixture(rc, 2, fixture, extra);
}

/* ---- the fixtures ------------------------------------------------------------ */

static void test_lesson02_shuffle_tree_with_int_min_padding_gets_full_marks(void **s)
{
    (void)s;
    need_nvcc();
    int rc;
    JsonValue *r = grade_json(&rc, "good", "");
    assert_int_equal(rc, 0);
    assert_true(passed(r));
    assert_int_equal(json_get(r, "findings")->n, 0);
    assert_int_equal((int)json_get_number(r, "score", -1), 100);
    assert_int_equal((int)json_get_number(r, "max_score", -1), 100);
    expect_output(r, "n = 100003", "correct in all 8 runs");
    expect_output(r, "rubric: no atomics", "0 atomic updates");
    expect_output(r, "rubric: occupancy 100%", "earned: occupancy 100%");
}

/* `if (i >= n) return;` before a full-mask shuffle: the mask names exited
 * lanes in every partial warp. */
static void test_lesson02_early_return_before_full_mask_shuffle_is_a_warp_sync_finding(void **s)
{
    (void)s;
    need_nvcc();
    int rc;
    JsonValue *r = grade_json(&rc, "early_exit", "");
    assert_int_equal(rc, 1);
    assert_false(passed(r));
    const JsonValue *f = expect_finding_in(r, "tests/grade/lesson02_early_exit.cu", "warp-sync", 14);
    assert_non_null(strstr(json_get_string(f, "message"), "already exited"));
    assert_string_equal(json_get_string(f, "test"), "n = 1 (one lane of one warp)");
    assert_non_null(strstr(json_get_string(f, "replay"), "--kernel warp_max --grid 1 --block 256"));
    /* a full warp has no lane past n: that test passes, the partial ones fail */
    assert_true(passed(item(r, "n = 32")));
    assert_false(passed(item(r, "n = 31")));
    assert_false(passed(item(r, "n = 100003")));
    assert_int_equal(json_get(r, "findings")->n, 1);
}

/* Lanes past n bring 0: wrong wherever a warp that ends past n holds only
 * negative elements -- the list test always, tiny random ones by chance. */
static void test_lesson02_zero_padding_loses_to_negative_elements_and_says_why(void **s)
{
    (void)s;
    need_nvcc();
    int rc;
    JsonValue *r = grade_json(&rc, "zero_pad", "");
    assert_int_equal(rc, 1);
    assert_false(passed(r));
    const JsonValue *f = expect_finding_in(r, "tests/grade/lesson02_zero_pad.cu", "wrong-answer", 5);
    assert_non_null(strstr(json_get_string(f, "message"), "pad with INT_MIN"));
    assert_false(passed(item(r, "n = 20, every element negative")));
    expect_output(r, "n = 20, every element negative",
                  "out[0] = 0, expected -2 (the largest of in[0..19]): 0 is larger than every element of this "
                  "warp, so it came from a lane past n");
    assert_true(passed(item(r, "n = 32")));
    assert_true(passed(item(r, "n = 100003")));
    assert_int_equal((int)json_get_number(r, "score", -1), 60);
}

/* One atomicMax per element: right answers, the lesson's point missed. */
static void test_lesson02_atomic_max_passes_the_tests_but_not_the_no_atomics_rubric(void **s)
{
    (void)s;
    need_nvcc();
    int rc;
    JsonValue *r = grade_json(&rc, "atomic", "");
    assert_int_equal(rc, 0);
    assert_true(passed(r));
    assert_int_equal(json_get(r, "findings")->n, 0);
    assert_int_equal((int)json_get_number(r, "score", -1), 90);
    const JsonValue *at = item(r, "rubric: no atomics");
    assert_false(passed(at));
    expect_output(r, "rubric: no atomics", "100003 atomic updates");
    assert_true(passed(item(r, "rubric: no data race")));
}

/* The stub a student starts from copies each warp's first element. */
static void test_lesson02_starter_fails_and_names_the_first_element(void **s)
{
    (void)s;
    need_nvcc();
    int rc;
    const char *starter = "lessons/02-warps/exercise/warp_max.cu";
    JsonValue *r = grade_json_path(&rc, starter, "--runs 2");
    assert_int_equal(rc, 1);
    assert_false(passed(r));
    expect_finding_in(r, starter, "wrong-answer", 6); /* the kernel's line */
    expect_output(r, "n = 31", "that is in[0], the warp's first element");
    assert_false(passed(item(r, "n = 20, every element negative")));
    assert_true(json_get_number(r, "score", 100) <= 40);
}

static void test_lesson02_json_has_the_documented_shape(void **s)
{
    (void)s;
    need_nvcc();
    int rc;
    JsonValue *r = grade_json(&rc, "early_exit", "--runs 1");
    expect_report_shape(r, "02-warps", 8 + 3);
    const JsonValue *ts = json_get(r, "tests");
    assert_string_equal(json_get_string(&ts->items[8], "name"), "rubric: no data race or warp-sync problem in any run");
    const JsonValue *f = finding(r, "warp-sync");
    assert_non_null(f);
    static const char *const fk[] = {"kind", "file", "line", "message", "block", "thread", "test", "run", "seed",
                                     "count", "replay", "step"};
    for (size_t i = 0; i < sizeof fk / sizeof *fk; i++)
        if (!json_get(f, fk[i]))
            fail_msg("finding lacks \"%s\"", fk[i]);
    assert_ptr_equal(strchr(out, '\n'), out + strlen(out) - 1); /* exactly one line */
}

/* ---- the exercise's own pieces (no nvcc needed) ---------------------------- */

/* check()'s message says text. */
static void expect_msg(const char *msg, const char *text)
{
    if (!strstr(msg, text))
        fail_msg("check() says \"%s\", not \"%s\"", msg, text);
}

static const GradeExercise *ex2(void)
{
    const Lesson *l = lesson_find("2");
    assert_non_null(l);
    assert_ptr_equal(l->exercise, &lesson02_exercise);
    return l->exercise;
}

/* The test of size n. */
static const GradeExerciseTest *test_of(const GradeExercise *ex, long long n, const char *name_part)
{
    for (int i = 0; i < ex->ntests; i++)
        if (ex->tests[i].n == n && (!name_part || strstr(ex->tests[i].name, name_part)))
            return &ex->tests[i];
    fail_msg("no test of size %lld", n);
    return NULL;
}

static void test_lesson02_exercise_is_registered_with_partial_warp_sizes(void **s)
{
    (void)s;
    const GradeExercise *ex = ex2();
    assert_string_equal(ex->kernel, "warp_max");
    assert_non_null(strstr(ex->signature, "warp_max(const int *in, int *out, int n)"));
    assert_int_equal(ex->nparams, 3);
    assert_int_equal(grade_exercise_max_score(ex), 100);
    int partial = 0;
    for (int i = 0; i < ex->ntests; i++) {
        partial += ex->tests[i].n % 32 != 0;
        if (i)
            assert_true(ex->tests[i].n >= ex->tests[i - 1].n); /* smallest first */
    }
    assert_true(partial >= 6);
    static const long long tiny[] = {1, 31, 33};
    for (size_t i = 0; i < 3; i++)
        test_of(ex, tiny[i], NULL);
}

static void test_lesson02_launch_covers_n_with_256_thread_blocks_and_marks_out(void **s)
{
    (void)s;
    const GradeExercise *ex = ex2();
    GradeLaunch l;
    ex->launch(test_of(ex, 100003, NULL), &l);
    assert_int_equal(l.grid.x, 391);
    assert_int_equal(l.block.x, 256);
    assert_int_equal(l.nargs, 3);
    assert_string_equal(l.args[0], "buf:i32[100003]=rand:100003");
    assert_string_equal(l.args[1], "buf:i32[3126]=fill:195936478");
    assert_string_equal(l.args[2], "i32:100003");
    ex->launch(test_of(ex, 20, "negative"), &l);
    assert_int_equal(l.grid.x, 1);
    assert_non_null(strstr(l.args[0], "buf:i32[20]=list:-9,"));
    assert_string_equal(l.args[1], "buf:i32[1]=fill:195936478");
    assert_int_equal(grade_exercise_budget(ex, &l), 8 * ex->budget_per_warp + GRADE_BUDGET_BASE);
}

/* check() on n = 33 (two warps, the second with one lane): the reference,
 * and the explanation of each typical wrong answer. */
static void test_lesson02_check_is_each_warps_max_and_explains_wrong_answers(void **s)
{
    (void)s;
    const GradeExercise *ex = ex2();
    const GradeExerciseTest *t = test_of(ex, 33, NULL);
    int32_t in[33], n = 33;
    for (int i = 0; i < 33; i++)
        in[i] = -1000 - i; /* every element negative; lane 0 the largest of warp 0 */
    in[20] = 500;          /* now lane 20 is */
    int32_t res[2] = {500, -1032}, before[2] = {195936478, 195936478};
    GradeData bin[3] = {{in, 33, 4}, {before, 2, 4}, {&n, 1, 4}};
    GradeData aft[3] = {{in, 33, 4}, {res, 2, 4}, {&n, 1, 4}};
    char msg[600];
    assert_true(ex->check(t, bin, aft, msg, sizeof msg));

    res[1] = 0; /* the one-lane warp's padding lanes brought 0 */
    assert_false(ex->check(t, bin, aft, msg, sizeof msg));
    expect_msg(msg, "out[1] = 0, expected -1032 (the largest of in[32..32])");
    expect_msg(msg, "so it came from a lane past n -- pad with INT_MIN");

    res[1] = 195936478; /* never written */
    assert_false(ex->check(t, bin, aft, msg, sizeof msg));
    expect_msg(msg, "no thread wrote it (this warp is partial");

    res[1] = -1032;
    res[0] = -1000; /* the stub: lane 0's element */
    assert_false(ex->check(t, bin, aft, msg, sizeof msg));
    expect_msg(msg, "that is in[0], the warp's first element");

    in[1] = -900; /* a tree that missed lanes 20 and up: it finds -900 */
    res[0] = -900;
    assert_false(ex->check(t, bin, aft, msg, sizeof msg));
    expect_msg(msg, "the largest of lanes 0..19 only; the largest, in[20] = 500, is in lane 20");
    in[1] = -1001;

    in[32] = 900; /* larger than anything in warp 0: warp 1's */
    res[0] = 900;
    res[1] = 900;
    assert_false(ex->check(t, bin, aft, msg, sizeof msg));
    expect_msg(msg, "it is in[32], which belongs to warp 1");
    in[32] = -1032;

    res[0] = 500;
    res[1] = -1032;
    int32_t changed[33];
    memcpy(changed, in, sizeof in);
    changed[7] = 0;
    aft[0].data = changed;
    assert_false(ex->check(t, bin, aft, msg, sizeof msg));
    expect_msg(msg, "in[7] changed from -1007 to 0");
}

/* Several wrong warps: the first is explained, the count is given. */
static void test_lesson02_check_counts_wrong_outputs(void **s)
{
    (void)s;
    const GradeExercise *ex = ex2();
    const GradeExerciseTest *t = test_of(ex, 1000, NULL);
    static int32_t in[1000], res[32], before[32];
    int32_t n = 1000;
    for (int i = 0; i < 1000; i++)
        in[i] = (int32_t)((i * 7919) % 1000) - 500;
    for (int w = 0; w < 32; w++) {
        int32_t m = INT32_MIN;
        for (int i = 32 * w; i < 32 * w + 32 && i < 1000; i++)
            m = in[i] > m ? in[i] : m;
        res[w] = m;
    }
    GradeData bin[3] = {{in, 1000, 4}, {before, 32, 4}, {&n, 1, 4}};
    GradeData aft[3] = {{in, 1000, 4}, {res, 32, 4}, {&n, 1, 4}};
    char msg[600];
    assert_true(ex->check(t, bin, aft, msg, sizeof msg));
    res[31] = INT32_MIN;
    res[30] = INT32_MIN;
    assert_false(ex->check(t, bin, aft, msg, sizeof msg));
    expect_msg(msg, "out[30] = -2147483648");
    expect_msg(msg, "2 of the 32 outputs are wrong");
    expect_msg(msg, "INT_MIN, the padding value, won");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_teardown(test_lesson02_shuffle_tree_with_int_min_padding_gets_full_marks, free_report),
        cmocka_unit_test_teardown(test_lesson02_early_return_before_full_mask_shuffle_is_a_warp_sync_finding,
                                  free_report),
        cmocka_unit_test_teardown(test_lesson02_zero_padding_loses_to_negative_elements_and_says_why, free_report),
        cmocka_unit_test_teardown(test_lesson02_atomic_max_passes_the_tests_but_not_the_no_atomics_rubric,
                                  free_report),
        cmocka_unit_test_teardown(test_lesson02_starter_fails_and_names_the_first_element, free_report),
        cmocka_unit_test_teardown(test_lesson02_json_has_the_documented_shape, free_report),
        cmocka_unit_test(test_lesson02_exercise_is_registered_with_partial_warp_sizes),
        cmocka_unit_test(test_lesson02_launch_covers_n_with_256_thread_blocks_and_marks_out),
        cmocka_unit_test(test_lesson02_check_is_each_warps_max_and_explains_wrong_answers),
        cmocka_unit_test(test_lesson02_check_counts_wrong_outputs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
