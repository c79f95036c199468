/* test_grade_lesson09.c: `warpsim grade 9` on lesson 9's exercise,
 * pipe_sum -- the double buffer with both barriers earns full marks; the
 * starter, which lacks the barrier after the sum, is reported as a
 * write-after-read race at the copy that overwrites the buffer (30 points:
 * the tests of 1 and 2 tiles overwrite nothing); a wait that
 * leaves the tile about to be read in flight is a cp-async race with wrong
 * sums; no barrier between the wait and the read is a read-after-write race;
 * and the reference check with its explanations.  Runs build/warpsim
 * ($WARPSIM); the cases that compile need nvcc and are skipped without it. */
#include "lesson.h"

#include "grade_fixture.h"

#define STARTER "lessons/09-async-copies/exercise/pipe_sum.cu"

static JsonValue *grade_json(int *rc, const char *name, const char *extra)
{
    return grade_fixture(rc, 9, name, extra);
}

/* The race finding of this detail ("write-after-read", "cp-async") at line
 * of file; the test fails naming the findings there are when none is. */
static void expect_race(const JsonValue *r, const char *file, const char *detail, int line)
{
    const JsonValue *fs = json_get(r, "findings");
    assert_non_null(fs);
    char seen[512] = "";
    for (size_t i = 0; i < fs->n; i++) {
        const JsonValue *f = &fs->items[i];
        const char *k = json_get_string(f, "kind"), *d = json_get_string(f, "detail"), *p = json_get_string(f, "file");
        int l = (int)json_get_number(f, "line", 0);
        if (k && d && p && !strcmp(k, "race") && !strcmp(d, detail) && !strcmp(p, file) && l == line)
            return;
        if (strlen(seen) < 400)
            snprintf(seen + strlen(seen), sizeof seen - strlen(seen), " %s/%s:%d", k ? k : "?", d ? d : "-", l);
    }
    fail_msg("%s: no race (%s) at line %d; the findings are:%s", file, detail, line, seen);
}

static void test_grade09_both_barriers_get_full_marks(void **s)
{
    (void)s;
    need_nvcc();
    int rc;
    JsonValue *r = grade_json(&rc, "lesson09_good", "--runs 2");
    assert_int_equal(rc, 0);
    assert_true(passed(r));
    assert_int_equal(json_get(r, "findings")->n, 0);
    assert_int_equal((int)json_get_number(r, "score", -1), 100);
}

static void test_grade09_starter_overwrites_a_buffer_still_read(void **s)
{
    (void)s;
    need_nvcc();
    int rc;
    JsonValue *r = grade_path(&rc, 9, STARTER, "--runs 2");
    assert_int_equal(rc, 1);
    assert_false(passed(item(r, "rubric: no races")));
    assert_true((int)json_get_number(r, "score", -1) < 100);
    /* reported at the copy into the next buffer (line 20 of the starter) */
    expect_race(r, STARTER, "write-after-read", 20);
    /* tiles 1 and 2 overwrite no buffer: their tests pass */
    assert_true(passed(item(r, "tiles = 2 ")));
    assert_false(passed(item(r, "tiles = 7 ")));
    assert_int_equal((int)json_get_number(r, "score", -1), 30);
}

static void test_grade09_short_wait_reads_a_copy_in_flight(void **s)
{
    (void)s;
    need_nvcc();
    int rc;
    JsonValue *r = grade_json(&rc, "lesson09_wait2", "--runs 2");
    assert_int_equal(rc, 1);
    assert_int_equal((int)json_get_number(r, "score", -1), 0);
    /* the read of the tile (line 20) while its copy still flies */
    expect_race(r, "tests/grade/lesson09_wait2.cu", "cp-async", 20);
    assert_non_null(finding(r, "wrong-answer"));
    assert_false(passed(item(r, "tiles = 2 ")));
}

static void test_grade09_no_barrier_after_the_wait_is_a_race(void **s)
{
    (void)s;
    need_nvcc();
    int rc;
    JsonValue *r = grade_json(&rc, "lesson09_no_first_sync", "--runs 2");
    assert_int_equal(rc, 1);
    assert_int_equal((int)json_get_number(r, "score", -1), 0);
    /* the read of the neighbour's element (line 19) with no barrier after
     * the neighbour's wait */
    expect_race(r, "tests/grade/lesson09_no_first_sync.cu", "read-after-write", 19);
}

static const GradeExercise *ex09(void)
{
    return lesson_exercise("9", "09-async-copies");
}

static void test_lesson09_exercise_launches_the_documented_inputs(void **s)
{
    (void)s;
    const GradeExercise *ex = ex09();
    assert_int_equal(ex->ntests, 4);
    for (int i = 1; i < ex->ntests; i++)
        assert_true(ex->tests[i].n > ex->tests[i - 1].n); /* smallest first */
    assert_int_equal(grade_exercise_max_score(ex), 100);
    GradeLaunch l;
    ex->launch(&ex->tests[2], &l);
    assert_string_equal(l.args[0], "buf:i32[5376]=rand:16");
    assert_string_equal(l.args[1], "buf:i32[768]=fill:0");
    assert_string_equal(l.args[2], "i32:7");
    assert_int_equal(l.grid.x, 3);
    assert_int_equal(l.block.x, 256);
}

static char msg[800];

/* Judge tiles = 2 over in[0..1535] = 0, 1, 2, ... (after = in unless told). */
static bool judge(const GradeExercise *ex, const int *in_after, const int *got)
{
    static int in[3 * 256 * 2], zero[768];
    for (int i = 0; i < 3 * 256 * 2; i++)
        in[i] = i;
    int tiles = 2;
    GradeExerciseTest t = {"t", tiles, 15};
    GradeData before[3] = {{in, 1536, 4}, {zero, 768, 4}, {&tiles, 1, 4}};
    GradeData after[3] = {{in_after ? in_after : in, 1536, 4}, {got, 768, 4}, {&tiles, 1, 4}};
    msg[0] = 0;
    return ex->check(&t, before, after, msg, sizeof msg);
}

static void test_lesson09_check_wants_every_tile_and_says_why_not(void **s)
{
    (void)s;
    const GradeExercise *ex = ex09();
    static int right[768], in[1536];
    for (int i = 0; i < 1536; i++)
        in[i] = i;
    for (int b = 0; b < 3; b++)
        for (int t = 0; t < 256; t++)
            right[b * 256 + t] = in[(b * 2) * 256 + (t + 1) % 256] + in[(b * 2 + 1) * 256 + (t + 1) % 256];
    assert_true(judge(ex, NULL, right));
    static int wrong[768];
    memcpy(wrong, right, sizeof wrong);
    wrong[5] = in[6];                    /* only the first tile of block 0 */
    assert_false(judge(ex, NULL, wrong));
    assert_non_null(strstr(msg, "out[5] = 6, expected 268 (block 0, thread 5): the last tile is missing"));
    memcpy(wrong, right, sizeof wrong);
    wrong[300] = 0;
    assert_false(judge(ex, NULL, wrong));
    assert_non_null(strstr(msg, "out[300] = 0, expected"));
    assert_non_null(strstr(msg, "nothing was written there"));
    static int changed[1536];
    memcpy(changed, in, sizeof changed);
    changed[7] = -1;
    assert_false(judge(ex, changed, right));
    assert_non_null(strstr(msg, "in[7] changed from 7 to -1: the input is const"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_teardown(test_grade09_both_barriers_get_full_marks, free_report),
        cmocka_unit_test_teardown(test_grade09_starter_overwrites_a_buffer_still_read, free_report),
        cmocka_unit_test_teardown(test_grade09_short_wait_reads_a_copy_in_flight, free_report),
        cmocka_unit_test_teardown(test_grade09_no_barrier_after_the_wait_is_a_race, free_report),
        cmocka_unit_test(test_lesson09_exercise_launches_the_documented_inputs),
        cmocka_unit_test(test_lesson09_check_wants_every_tile_and_says_why_not),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
