/* test_grade_lesson03.c: `warpsim grade 3` on lesson 3's exercise,
 * count_positive -- a correct ballot solution earns full marks, the starter
 * (one atomic per element) every test but not the rubric, a plain += on the
 * counter a race, a vote inside if (i < n) a warp-sync fault on the partial
 * warp -- each at its .cu line; the JSON report's shape; and the reference
 * check with its explanations of a wrong count.  Runs build/warpsim
 * ($WARPSIM); the cases that compile need nvcc and are skipped without it. */
#include "lesson.h"

#include "grade_fixture.h"

/* Grade the .cu at path against lesson 3. */
static JsonValue *grade_json_path(int *rc, const char *path, const char *extra)
{
    return grade_path(rc, 3, path, extra);
}

/* The same for fixture tests/grade/NAME.cu. */
static JsonValue *grade_json(int *rc, const char *name, const char *extra)
{
    return grade_fixture(rc, 3, name, extra);
}

/* The report has a finding of kind at line; its file is the fixture. */
static const JsonValue *expect_finding(const JsonValue *r, const char *name, const char *kind, int line)
{
    return expect_fixture_finding(r, name, kind, line);
}

/* ---- the fixtures ------------------------------------------------------------ */

static void test_grade3_ballot_per_warp_gets_full_marks(void **s)
{
    (void)s;
    need_nvcc();
    int rc;
    JsonValue *r = grade_json(&rc, "lesson03_good", "");
    assert_int_equal(rc, 0);
    assert_true(passed(r));
    assert_int_equal(json_get(r, "findings")->n, 0);
    assert_int_equal((int)json_get_number(r, "score", -1), 100);
    assert_int_equal((int)json_get_number(r, "max_score", -1), 100);
    assert_non_null(strstr(json_get_string(item(r, "n = 100001"), "output"), "correct in all 8 runs"));
    const JsonValue *at = item(r, "rubric: at most one atomicAdd per warp");
    assert_true(passed(at));
    /* 1000 elements, 32 warps with data: one atomic each */
    assert_non_null(strstr(json_get_string(at, "output"), "32 atomic updates for 4 blocks"));
}

static void test_grade3_one_atomic_per_element_passes_but_misses_the_atomics_rubric(void **s)
{
    (void)s;
    need_nvcc();
    int rc;
    JsonValue *r = grade_json(&rc, "lesson03_per_thread", "");
    assert_int_equal(rc, 0);
    assert_true(passed(r));
    assert_int_equal(json_get(r, "findings")->n, 0);
    assert_int_equal((int)json_get_number(r, "score", -1), 85);
    assert_true(passed(item(r, "rubric: no data race")));
    const JsonValue *at = item(r, "rubric: at most one atomicAdd per warp");
    assert_false(passed(at));
    assert_int_equal((int)json_get_number(at, "score", -1), 0);
    /* 49,745 positive elements in 391 blocks */
    assert_non_null(strstr(json_get_string(at, "output"), "49745 atomic updates for 391 blocks (127 per block"));
}

/* The starter is that same kernel: a report that says what is left to do. */
static void test_grade3_starter_loses_only_the_atomics_rubric(void **s)
{
    (void)s;
    need_nvcc();
    int rc;
    JsonValue *r = grade_json_path(&rc, "lessons/03-atomics/exercise/count_positive.cu", "--runs 2");
    assert_int_equal(rc, 0);
    assert_int_equal((int)json_get_number(r, "score", -1), 85);
    assert_false(passed(item(r, "rubric: at most one atomicAdd per warp")));
}

/* Needs the race checker: even a right count (n = 1) is luck. */
static void test_grade3_plain_increment_of_the_counter_is_a_race_at_its_line(void **s)
{
    (void)s;
    need_nvcc();
    int rc;
    JsonValue *r = grade_json(&rc, "lesson03_racy", "");
    assert_int_equal(rc, 1);
    assert_false(passed(r));
    const JsonValue *f = expect_finding(r, "lesson03_racy", "race", 10);
    assert_non_null(strstr(json_get_string(f, "replay"), "--check races"));
    assert_false(passed(item(r, "rubric: no data race")));
    expect_finding(r, "lesson03_racy", "wrong-answer", 5); /* the kernel's line */
    assert_non_null(strstr(json_get_string(item(r, "n = 100001"), "output"), "updates were lost"));
    assert_false(passed(item(r, "n = 1 ")));
}

static void test_grade3_vote_inside_if_i_lt_n_is_a_warp_sync_fault_on_the_partial_warp(void **s)
{
    (void)s;
    need_nvcc();
    int rc;
    JsonValue *r = grade_json(&rc, "lesson03_partial_warp", "--runs 2");
    assert_int_equal(rc, 1);
    const JsonValue *f = expect_finding(r, "lesson03_partial_warp", "warp-sync", 9);
    assert_non_null(strstr(json_get_string(f, "message"), "already exited"));
    assert_string_equal(json_get_string(f, "test"), "n = 1 (a single positive element)");
    /* every test ends inside a warp, so every test shows it */
    assert_false(passed(item(r, "n = 1000")));
    assert_int_equal((int)json_get_number(r, "score", -1), 0);
}

static void test_grade3_json_has_the_documented_shape(void **s)
{
    (void)s;
    need_nvcc();
    int rc;
    JsonValue *r = grade_json(&rc, "lesson03_racy", "--runs 1");
    expect_report_shape(r, "03-atomics", 7 + 2);
    const JsonValue *ts = json_get(r, "tests");
    assert_int_equal((int)json_get_number(&ts->items[7], "max_score", -1), 15);
    const JsonValue *f = finding(r, "race");
    assert_non_null(f);
    static const char *const fk[] = {"kind", "file", "line", "message", "block", "thread", "test", "run", "seed",
                                     "count", "replay", "step"};
    for (size_t i = 0; i < sizeof fk / sizeof *fk; i++)
        if (!json_get(f, fk[i]))
            fail_msg("finding lacks \"%s\"", fk[i]);
    assert_ptr_equal(strchr(out, '\n'), out + strlen(out) - 1); /* exactly one line */
}

/* ---- the exercise definition itself ------------------------------------------- */

static const GradeExercise *ex3(void)
{
    const Lesson *l = lesson_find("3");
    assert_non_null(l);
    assert_non_null(l->exercise);
    return l->exercise;
}

static void test_lesson3_exercise_launches_partial_warps_with_the_full_inputs(void **s)
{
    (void)s;
    const GradeExercise *ex = ex3();
    assert_string_equal(ex->kernel, "count_positive");
    assert_int_equal(ex->nparams, 3);
    assert_int_equal(grade_exercise_max_score(ex), 100);
    for (int i = 0; i < ex->ntests; i++) {
        assert_true(ex->tests[i].n % 32 != 0); /* the last warp is always partial */
        if (i)
            assert_true(ex->tests[i].n > ex->tests[i - 1].n); /* smallest first */
    }
    GradeLaunch l;
    ex->launch(&ex->tests[3], &l); /* n = 70 */
    assert_int_equal(l.grid.x, 1);
    assert_int_equal(l.block.x, 256);
    /* the whole list: a cut one would silently change the test */
    assert_string_equal(l.args[0], "buf:i32[70]=list:7,0,-3,0,12,-1,0,5,2147483647,-2147483648,1,0,-9,4");
    assert_string_equal(l.args[1], "buf:i32[1]=fill:0");
    assert_string_equal(l.args[2], "i32:70");
    ex->launch(&ex->tests[6], &l);
    assert_int_equal(l.grid.x, 391);
    assert_string_equal(l.args[0], "buf:i32[100001]=rand:100001");
    const GradeRubric *at = &ex->rubric[1];
    assert_int_equal(at->kind, GRADE_RUBRIC_MAX_ATOMICS);
    assert_int_equal(at->per, GRADE_PER_BLOCK);
    assert_true(at->limit == 256 / 32);
}

/* Judge *count = got on in[0..n-1]; the message when wrong. */
static char msg[800];

static bool judge(const GradeExercise *ex, long long n, const int32_t *in, int32_t got)
{
    GradeExerciseTest t = {"t", n, 10};
    int32_t zero = 0, nn = (int32_t)n;
    GradeData before[3] = {{in, (uint64_t)n, 4}, {&zero, 1, 4}, {&nn, 1, 4}};
    GradeData after[3] = {{in, (uint64_t)n, 4}, {&got, 1, 4}, {&nn, 1, 4}};
    msg[0] = 0;
    return ex->check(&t, before, after, msg, sizeof msg);
}

static void expect_reason(const GradeExercise *ex, long long n, const int32_t *in, int32_t got, const char *reason)
{
    assert_false(judge(ex, n, in, got));
    if (!strstr(msg, reason))
        fail_msg("*count = %d on n = %lld: expected \"%s\" in: %s", got, n, reason, msg);
}

static void test_lesson3_check_counts_positives_and_explains_a_wrong_count(void **s)
{
    (void)s;
    const GradeExercise *ex = ex3();
    /* the n = 70 input: 6 positive, 60 zeros, 4 negative */
    int32_t in[100] = {7, 0, -3, 0, 12, -1, 0, 5, INT32_MAX, INT32_MIN, 1, 0, -9, 4};
    assert_true(judge(ex, 70, in, 6));
    expect_reason(ex, 70, in, 7, "*count = 7, expected 6 (the elements of in[0..69] greater than zero)");
    expect_reason(ex, 70, in, 0, "no warp's count reached *count");
    expect_reason(ex, 70, in, 66, "counts the 60 zeros too (in[1] = 0 is not positive");
    expect_reason(ex, 70, in, 64, "NOT positive");
    expect_reason(ex, 70, in, 70, "every element, the negative ones too");
    expect_reason(ex, 70, in, 6 + 186, "the 186 threads past n (i = 70 and on) were counted");

    /* n = 37: every 4th element positive, in[36] the last: warp 0 holds 8,
     * the partial warp 1 (in[32..36]) holds 2 */
    for (int i = 0; i < 37; i++)
        in[i] = i % 4 == 0 ? 10 : -(i + 1);
    assert_true(judge(ex, 37, in, 10));
    expect_reason(ex, 37, in, 9, "in[36] = 10, the last element, is positive but was not counted");
    expect_reason(ex, 37, in, 8, "in[32..36], the 5 lanes of the last, partial warp, hold 2 positive elements "
                                 "that were not counted");
    expect_reason(ex, 37, in, 2, "the count of one warp alone (warp 1, in[32..36])");
    expect_reason(ex, 37, in, 5, "5 short; updates were lost");

    /* n = 100: warps 0-2 hold 8 each, the partial warp 3 holds 1 (in[96]) */
    for (int i = 0; i < 100; i++)
        in[i] = i % 4 == 0 ? 10 : -1;
    assert_true(judge(ex, 100, in, 25));
    expect_reason(ex, 100, in, 17, "8 short, exactly the positive elements of warp 0 (in[0..31])");
    expect_reason(ex, 100, in, 33, "8 too many, exactly the positive elements of warp 0 (in[0..31])");
    expect_reason(ex, 100, in, 28, "3 too many; elements were counted more than once");

    /* a changed input is wrong whatever the count */
    GradeExerciseTest t = {"t", 3, 10};
    int32_t a[3] = {1, 2, 3}, b[3] = {1, 2, -3}, zero = 0, three = 3, n3 = 3;
    GradeData before[3] = {{a, 3, 4}, {&zero, 1, 4}, {&n3, 1, 4}};
    GradeData after[3] = {{b, 3, 4}, {&three, 1, 4}, {&n3, 1, 4}};
    assert_false(ex->check(&t, before, after, msg, sizeof msg));
    assert_non_null(strstr(msg, "in[2] changed from 3 to -3: the input is const"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_teardown(test_grade3_ballot_per_warp_gets_full_marks, free_report),
        cmocka_unit_test_teardown(test_grade3_one_atomic_per_element_passes_but_misses_the_atomics_rubric,
                                  free_report),
        cmocka_unit_test_teardown(test_grade3_starter_loses_only_the_atomics_rubric, free_report),
        cmocka_unit_test_teardown(test_grade3_plain_increment_of_the_counter_is_a_race_at_its_line, free_report),
        cmocka_unit_test_teardown(test_grade3_vote_inside_if_i_lt_n_is_a_warp_sync_fault_on_the_partial_warp,
                                  free_report),
        cmocka_unit_test_teardown(test_grade3_json_has_the_documented_shape, free_report),
        cmocka_unit_test(test_lesson3_exercise_launches_partial_warps_with_the_full_inputs),
        cmocka_unit_test(test_lesson3_check_counts_positives_and_explains_a_wrong_count),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
