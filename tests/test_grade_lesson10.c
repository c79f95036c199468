/* test_grade_lesson10.c: `warpsim grade 10` on lesson 10's exercise,
 * tile_sums -- a tile of 16 with cg::reduce, and shuffles of width 16, earn
 * full marks; the starter's warp-wide shuffles cross the tile boundary (right
 * only for one tile); a shared-memory tree without tile.sync() races; a tile
 * whose lanes past n leave before cg::reduce waits for exited lanes; and the
 * reference check with its explanations.  Runs build/warpsim ($WARPSIM); the
 * cases that compile need nvcc and are skipped without it. */
#include "lesson.h"

#include "grade_fixture.h"
#include "lesson_fixture.h"

static JsonValue *grade_json(int *rc, const char *name, const char *extra)
{
    return grade_fixture(rc, 10, name, extra);
}

static void test_grade10_tiles_of_16_get_full_marks(void **s)
{
    (void)s;
    need_nvcc();
    static const char *const good[] = {"lesson10_good", "lesson10_width"};
    expect_full_marks(10, "10-cooperative-groups", 5, good, 2);
}

static void test_grade10_starter_crosses_the_tile_boundary(void **s)
{
    (void)s;
    need_nvcc();
    int rc;
    JsonValue *r = grade_path(&rc, 10, "lessons/10-cooperative-groups/exercise/tile_sums.cu", "--runs 2");
    assert_int_equal(rc, 1);
    assert_int_equal((int)json_get_number(r, "score", -1), 40);
    assert_true(passed(item(r, "n = 16 ")));
    assert_false(passed(item(r, "n = 40 ")));
    expect_output(r, "n = 40 ", "that is the sum of in[0..31], two tiles -- a shuffle crossed from this tile into the next");
    assert_true(passed(item(r, "rubric: no races")));
}

static void test_grade10_shared_tree_without_tile_sync_races(void **s)
{
    (void)s;
    need_nvcc();
    int rc;
    JsonValue *r = grade_json(&rc, "lesson10_no_tile_sync", "--runs 2");
    assert_int_equal(rc, 1);
    assert_int_equal((int)json_get_number(r, "score", -1), 0);
    expect_fixture_finding(r, "lesson10_no_tile_sync", "race", 15);
    expect_output(r, "n = 5000 ", "the answer was right in 2 of 2 runs");
    assert_false(passed(item(r, "rubric: no races")));
}

static void test_grade10_leaving_before_the_tiles_reduce_waits_for_exited_lanes(void **s)
{
    (void)s;
    need_nvcc();
    int rc;
    JsonValue *r = grade_json(&rc, "lesson10_early_exit", "--runs 2");
    assert_int_equal(rc, 1);
    assert_int_equal((int)json_get_number(r, "score", -1), 20);
    assert_true(passed(item(r, "n = 16 ")));
    expect_fixture_finding(r, "lesson10_early_exit", "warp-sync", 15);
    expect_output(r, "n = 40 ", "member mask 0x0000ffff waits for lanes 0x0000ff00 of warp 1, which have already exited");
}

static const GradeExercise *ex10(void)
{
    return lesson_exercise("10", "10-cooperative-groups");
}

static void test_lesson10_exercise_launches_the_documented_inputs(void **s)
{
    (void)s;
    const GradeExercise *ex = ex10();
    assert_int_equal(ex->ntests, 4);
    for (int i = 1; i < ex->ntests; i++)
        assert_true(ex->tests[i].n > ex->tests[i - 1].n); /* smallest first */
    assert_int_equal(grade_exercise_max_score(ex), 100);
    GradeLaunch l;
    ex->launch(&ex->tests[1], &l);
    assert_string_equal(l.args[0], "buf:i32[40]=rand:50");
    assert_string_equal(l.args[1], "buf:i32[3]=fill:0");
    assert_string_equal(l.args[2], "i32:40");
    assert_int_equal(l.grid.x, 1);
    ex->launch(&ex->tests[3], &l);
    assert_int_equal(l.grid.x, 20);
    assert_int_equal(l.block.x, 256);
    assert_string_equal(l.args[1], "buf:i32[313]=fill:0");
}

static char msg[800];


static bool judge(const GradeExercise *ex, int n, const int *in, const int *in_after, const int *got)
{
    GradeExerciseTest t = {"t", n, 20};
    static int zero[8];
    GradeData before[3] = {{in, (uint64_t)n, 4}, {zero, (uint64_t)(n + 15) / 16, 4}, {&n, 1, 4}};
    GradeData after[3] = {{in_after, (uint64_t)n, 4}, {got, (uint64_t)(n + 15) / 16, 4}, {&n, 1, 4}};
    msg[0] = 0;
    return ex->check(&t, before, after, msg, sizeof msg);
}

static void test_lesson10_check_wants_each_tiles_sum_and_says_why_not(void **s)
{
    (void)s;
    const GradeExercise *ex = ex10();
    int in[40];
    for (int i = 0; i < 40; i++)
        in[i] = i;
    const int right[3] = {120, 376, 284}; /* the README's answer for iota */
    char *raw = lesson_read_text("lessons/10-cooperative-groups/exercise/README.md");
    char *readme = lesson_squash(raw);
    free(raw);
    assert_non_null(strstr(readme, "it prints `496 752 284`, where `120 376 284` is right"));
    assert_non_null(strstr(readme, "(the right answer: `120 376 284`)"));
    free(readme);
    assert_true(judge(ex, 40, in, in, right));
    const int crossed[3] = {120 + 376, 2 * 376, 284};
    assert_false(judge(ex, 40, in, in, crossed));
    assert_non_null(strstr(msg, "out[0] = 496, expected 120 (in[0] + ... + in[15]): that is the sum of in[0..31], "
                                "two tiles"));
    const int doubled[3] = {120, 2 * 376, 284};
    assert_false(judge(ex, 40, in, in, doubled));
    assert_non_null(strstr(msg, "out[1] = 752, expected 376 (in[16] + ... + in[31]): twice the sum"));
    const int hole[3] = {120, 376, 0};
    assert_false(judge(ex, 40, in, in, hole));
    assert_non_null(strstr(msg, "out[2] = 0, expected 284 (in[32] + ... + in[39], a partial tile): nothing was written there"));
    int changed[40];
    memcpy(changed, in, sizeof changed);
    changed[7] = 0;
    assert_false(judge(ex, 40, in, changed, right));
    assert_non_null(strstr(msg, "in[7] changed from 7 to 0: the input is const"));
    /* sums wrap as 32-bit ints, in any order */
    const int big[2] = {0x7fffffff, 1};
    const int wrapped[1] = {(int)0x80000000};
    assert_true(judge(ex, 2, big, big, wrapped));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_teardown(test_grade10_tiles_of_16_get_full_marks, free_report),
        cmocka_unit_test_teardown(test_grade10_starter_crosses_the_tile_boundary, free_report),
        cmocka_unit_test_teardown(test_grade10_shared_tree_without_tile_sync_races, free_report),
        cmocka_unit_test_teardown(test_grade10_leaving_before_the_tiles_reduce_waits_for_exited_lanes, free_report),
        cmocka_unit_test(test_lesson10_exercise_launches_the_documented_inputs),
        cmocka_unit_test(test_lesson10_check_wants_each_tiles_sum_and_says_why_not),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
