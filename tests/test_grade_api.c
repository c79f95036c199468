/* test_grade_api.c: the grader as a library -- grading through grade.h
 * alone, with no `warpsim` process, as a course platform or a web back end
 * would: lesson 1's exercise on the fixtures of tests/grade/, an exercise
 * defined here in the test (no lesson behind it), the progress callback,
 * the statuses and messages of bad input, and the layering (the grader
 * includes nothing from lessons/ or cli/, lessons/ nothing from cli/).  The
 * cases that compile need nvcc and are skipped without it. */
#include <glob.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <cmocka.h>

#include "grade.h"
#include "lesson.h"
#include "source.h"
#include "nvcc_probe.h"

static void need_nvcc(void)
{
    need_grade_compile("grading compiles the submission, so its tests were skipped");
}

/* The first finding of kind in r, NULL when none. */
static const GradeFinding *finding(const GradeReport *r, const char *kind)
{
    for (int i = 0; i < r->nfindings; i++)
        if (!strcmp(r->findings[i].kind, kind))
            return &r->findings[i];
    return NULL;
}

static const GradeItem *item(const GradeReport *r, const char *name)
{
    for (int i = 0; i < r->nitems; i++)
        if (!strncmp(r->items[i].name, name, strlen(name)))
            return &r->items[i];
    fail_msg("no item '%s'", name);
    return NULL;
}

static GradeOptions options(const char *student, int runs)
{
    return (GradeOptions){.student = student, .runs = runs, .gpu_timeout = GRADE_GPU_TIMEOUT};
}

/* ---- lesson 1's exercise, through the library -------------------------------- */

static void test_grade_api_racy_fixture_gets_a_race_finding_and_its_score(void **s)
{
    (void)s;
    need_nvcc();
    const Lesson *l = lesson_find("1");
    assert_non_null(l);
    GradeOptions o = options("tests/grade/racy.cu", 2);
    GradeReport r;
    SimError err;
    assert_int_equal(grade_run(l->exercise, &o, &r, &err), SIM_OK);
    assert_ptr_equal(r.ex, l->exercise);
    assert_true(r.compiled);
    assert_false(r.passed);
    assert_int_equal(r.max_score, 100);
    assert_int_equal(r.nitems, 10);
    /* n = 1 has one thread and no one to race with: that test passes */
    assert_true(item(&r, "n = 1 ")->passed);
    assert_int_equal(item(&r, "n = 1 ")->score, 10);
    assert_false(item(&r, "n = 257")->passed);
    assert_false(item(&r, "rubric: no data race")->passed);
    int sum = 0;
    for (int i = 0; i < r.nitems; i++)
        sum += r.items[i].score;
    assert_int_equal(r.score, sum);
    /* n = 1, then the rubric's no atomics (10) and occupancy (5): they are
     * judged because one test's answer was right */
    assert_int_equal(r.score, 10 + 10 + 5);
    const GradeFinding *f = finding(&r, "race");
    assert_non_null(f);
    assert_string_equal(f->file, "tests/grade/racy.cu");
    assert_int_equal(f->line, 7);
    assert_string_equal(f->backend, "simulator");
    assert_string_equal(f->detail, "lost-update");
    assert_true(f->has_thread && f->has_other);
    assert_int_equal(f->test, 1); /* first seen in n = 7, the first with more than one thread */
    assert_int_equal(f->run, 0);
    assert_non_null(strstr(f->replay, "warpsim run tests/grade/racy.cu --kernel block_sum"));
    assert_non_null(strstr(f->replay, "--check races"));
    assert_non_null(strstr(f->step, "warpsim step "));
    grade_report_free(&r);
    assert_null(r.items);
}

/* The writers take the library's report as it is: the JSON names the lesson
 * the exercise says it comes from. */
static void test_grade_api_report_writes_as_json_with_the_exercises_lesson(void **s)
{
    (void)s;
    need_nvcc();
    const Lesson *l = lesson_find("1");
    GradeOptions o = options("tests/grade/atomic.cu", 1);
    GradeReport r;
    SimError err;
    assert_int_equal(grade_run(l->exercise, &o, &r, &err), SIM_OK);
    assert_true(r.passed);
    assert_int_equal(r.nfindings, 0);
    assert_int_equal(r.score, 90);
    char *text = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&text, &len);
    grade_write_json(m, &r);
    fclose(m);
    assert_non_null(strstr(text, "{\"lesson\": \"01-threads-and-races\", \"passed\": true, \"score\": 90, "));
    free(text);
    grade_report_free(&r);
}

/* ---- an exercise of the test's own: no lesson behind it ----------------------- */

#define OWN_BLOCK 128

static const GradeParam own_params[] = {{"const int *in", 8, true}, {"int *out", 8, true}, {"int n", 4, false}};
static const GradeExerciseTest own_tests[] = {{"five", 5, 10}, {"three hundred", 300, 20}};
static const GradeRubric own_rubric[] = {
    {GRADE_RUBRIC_NO_RACES, "no race", 0, GRADE_PER_LAUNCH, 3},
    {GRADE_RUBRIC_MAX_ATOMICS, "one atomic per element at most", 1, GRADE_PER_ELEMENT, 7},
};

static void own_launch(const GradeExerciseTest *t, GradeLaunch *l)
{
    memset(l, 0, sizeof *l);
    l->grid = (DeviceDim3){(unsigned)((t->n + OWN_BLOCK - 1) / OWN_BLOCK), 1, 1};
    l->block = (DeviceDim3){OWN_BLOCK, 1, 1};
    l->nargs = 3;
    snprintf(l->args[0], GRADE_ARG_CAP, "buf:i32[%lld]=list:1,2,3,4,5", t->n); /* the rest is 0 */
    snprintf(l->args[1], GRADE_ARG_CAP, "buf:i32[1]=fill:0");
    snprintf(l->args[2], GRADE_ARG_CAP, "i32:%lld", t->n);
}

static bool own_check(const GradeExerciseTest *t, const GradeData *in, const GradeData *out, char *msg, size_t cap)
{
    (void)t;
    assert_int_equal(in[0].count, (uint64_t)t->n);
    assert_int_equal(in[0].elem_size, 4);
    int got = ((const int32_t *)out[1].data)[0];
    if (got == 15)
        return true;
    snprintf(msg, cap, "out[0] = %d, expected 15", got);
    return false;
}

static const GradeExercise own_exercise = {
    .lesson = "test-own",
    .lesson_number = 99,
    .kernel = "block_sum",
    .signature = "extern \"C\" __global__ void block_sum(const int *in, int *out, int n)",
    .arch = "sm_80",
    .nparams = 3,
    .params = own_params,
    .ntests = 2,
    .tests = own_tests,
    .nrubric = 2,
    .rubric = own_rubric,
    .budget_per_warp = 1000,
    .launch = own_launch,
    .check = own_check,
};

static int progress_calls, progress_last_test;

static void count_progress(void *arg, const GradeExercise *ex, int test, int run, int runs)
{
    assert_ptr_equal(arg, &progress_calls);
    assert_ptr_equal(ex, &own_exercise);
    assert_true(test >= -1 && test < ex->ntests);
    assert_true(run >= 0 && run < runs);
    progress_calls++;
    progress_last_test = test;
}

static void test_grade_api_own_exercise_full_marks_and_progress(void **s)
{
    (void)s;
    need_nvcc();
    GradeOptions o = options("tests/grade/atomic.cu", 3);
    o.progress = count_progress;
    o.progress_arg = &progress_calls;
    progress_calls = 0;
    GradeReport r;
    SimError err;
    assert_int_equal(grade_run(&own_exercise, &o, &r, &err), SIM_OK);
    assert_true(r.passed);
    assert_int_equal(r.score, 40);
    assert_int_equal(r.max_score, 40);
    assert_int_equal(r.nfindings, 0);
    assert_non_null(strstr(item(&r, "three hundred")->output, "correct in all 3 runs"));
    assert_non_null(strstr(item(&r, "rubric: one atomic")->output, "earned"));
    assert_int_equal(progress_calls, 2 * 3 + 1); /* each run, then the end */
    assert_int_equal(progress_last_test, -1);
    grade_report_free(&r);
}

/* wrong.cu stops at i < n - 1: for n = 5 that loses in[4] = 5, for n = 300
 * only in[299] = 0, so one test fails and the other passes. */
static void test_grade_api_own_exercise_wrong_answer_is_a_finding_at_the_kernel(void **s)
{
    (void)s;
    need_nvcc();
    GradeOptions o = options("tests/grade/wrong.cu", 2);
    GradeReport r;
    SimError err;
    assert_int_equal(grade_run(&own_exercise, &o, &r, &err), SIM_OK);
    assert_false(r.passed);
    assert_false(item(&r, "five")->passed);
    assert_true(item(&r, "three hundred")->passed);
    assert_int_equal(r.score, 20 + 3 + 7); /* a right answer somewhere: the rubric is judged */
    assert_int_equal(r.nfindings, 1);
    const GradeFinding *f = finding(&r, "wrong-answer");
    assert_non_null(f);
    assert_string_equal(f->file, "tests/grade/wrong.cu");
    assert_int_equal(f->line, 2); /* the kernel's declaration */
    assert_int_equal(f->test, 0);
    assert_int_equal(f->count, 2);
    assert_int_equal(f->tests_mask, 1);
    assert_non_null(strstr(item(&r, "five")->output, "out[0] = 10, expected 15"));
    assert_non_null(strstr(f->replay, "--arg 'buf:i32[5]=list:1,2,3,4,5'"));
    grade_report_free(&r);
}

/* ---- bad input: a status, one line, no report to act on ---------------------- */

static void expect_refused(const GradeExercise *ex, const GradeOptions *o, SimStatus st, const char *text)
{
    GradeReport r;
    SimError err;
    assert_int_equal(grade_run(ex, o, &r, &err), st);
    assert_int_equal(err.status, st);
    if (!strstr(err.msg, text))
        fail_msg("the message is \"%s\", not \"%s\"", err.msg, text);
    grade_report_free(&r);
}

static void test_grade_api_refuses_bad_input_with_a_reason(void **s)
{
    (void)s;
    GradeOptions o = options("tests/grade/atomic.cu", 2);
    expect_refused(NULL, &o, SIM_ERR_USAGE, "the exercise is missing");
    GradeExercise ex = own_exercise;
    ex.ntests = 0;
    expect_refused(&ex, &o, SIM_ERR_USAGE, "the exercise block_sum: has no tests");
    ex = own_exercise;
    ex.check = NULL;
    expect_refused(&ex, &o, SIM_ERR_USAGE, "has no check()");
    ex = own_exercise;
    ex.nparams = GRADE_MAX_PARAMS + 1;
    expect_refused(&ex, &o, SIM_ERR_USAGE, "more than 8 parameters");
    ex = own_exercise;
    GradeRubric odd[] = {{GRADE_RUBRIC_MAX_ATOMICS, "per what?", 1, (GradePer)7, 1}};
    ex.rubric = odd;
    ex.nrubric = 1;
    expect_refused(&ex, &o, SIM_ERR_USAGE, "an unknown kind or unit");
    ex = own_exercise;
    ex.lesson = NULL;
    expect_refused(&ex, &o, SIM_ERR_USAGE, "names no lesson");
    GradeOptions bad = options("tests/grade/atomic.cu", 0);
    expect_refused(&own_exercise, &bad, SIM_ERR_USAGE, "at least 1, not 0");
    bad = options(NULL, 2);
    expect_refused(&own_exercise, &bad, SIM_ERR_USAGE, "no student file");
    bad = options("tests/grade/no-such-file.cu", 2);
    expect_refused(&own_exercise, &bad, SIM_ERR_IO, "no-such-file.cu: cannot open");
}

/* Every lesson's exercise can be graded and names the lesson that sets it
 * (the report's "lesson") and a README that exists. */
static void test_grade_api_every_lessons_exercise_is_valid_and_names_its_lesson(void **s)
{
    (void)s;
    int with = 0;
    for (int i = 0; i < lesson_count(); i++) {
        const Lesson *l = lesson_at(i);
        if (!l->exercise)
            continue;
        with++;
        char msg[256];
        if (!grade_exercise_valid(l->exercise, msg, sizeof msg))
            fail_msg("lesson %d: %s", l->number, msg);
        assert_string_equal(l->exercise->lesson, l->slug);
        assert_int_equal(l->exercise->lesson_number, l->number);
        char dir[64];
        snprintf(dir, sizeof dir, "lessons/%s/", l->slug);
        assert_non_null(l->exercise->readme);
        assert_true(!strncmp(l->exercise->readme, dir, strlen(dir)));
        struct stat st;
        assert_int_equal(stat(l->exercise->readme, &st), 0);
    }
    assert_true(with >= 3);
}

/* ---- layering: lessons sit above the grader, the command above both ---------- */

/* Every `#include "NAME"` of the files matching pattern whose NAME is a
 * header in one of the folders of `above` (space-separated globs): none. */
static void expect_no_include_from(const char *pattern, const char *above)
{
    glob_t files, hs;
    assert_int_equal(glob(pattern, GLOB_BRACE, NULL, &files), 0);
    assert_int_equal(glob(above, GLOB_BRACE, NULL, &hs), 0);
    for (size_t i = 0; i < files.gl_pathc; i++) {
        FILE *f = fopen(files.gl_pathv[i], "r");
        assert_non_null(f);
        char line[512];
        while (fgets(line, sizeof line, f)) {
            char name[256];
            if (sscanf(line, " #include \"%255[^\"]\"", name) != 1)
                continue;
            for (size_t k = 0; k < hs.gl_pathc; k++) {
                const char *base = strrchr(hs.gl_pathv[k], '/');
                if (!strcmp(base ? base + 1 : hs.gl_pathv[k], name))
                    fail_msg("%s includes \"%s\", which is %s, a folder above it", files.gl_pathv[i], name,
                             hs.gl_pathv[k]);
            }
        }
        fclose(f);
    }
    globfree(&files);
    globfree(&hs);
}

static void test_grade_api_no_folder_includes_one_above_it(void **s)
{
    (void)s;
    expect_no_include_from("grade/*.[ch]", "{lessons/*.h,lessons/*/*.h,lessons/*/*/*.h,cli/*.h}");
    expect_no_include_from("{lessons/*.[ch],lessons/*/*.[ch],lessons/*/*/*.[ch]}", "cli/*.h");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_grade_api_racy_fixture_gets_a_race_finding_and_its_score),
        cmocka_unit_test(test_grade_api_report_writes_as_json_with_the_exercises_lesson),
        cmocka_unit_test(test_grade_api_own_exercise_full_marks_and_progress),
        cmocka_unit_test(test_grade_api_own_exercise_wrong_answer_is_a_finding_at_the_kernel),
        cmocka_unit_test(test_grade_api_refuses_bad_input_with_a_reason),
        cmocka_unit_test(test_grade_api_every_lessons_exercise_is_valid_and_names_its_lesson),
        cmocka_unit_test(test_grade_api_no_folder_includes_one_above_it),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
