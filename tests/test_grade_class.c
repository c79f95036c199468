/* test_grade_class.c: `warpsim grade LESSON A.cu B.cu ...` grading a class
 * side by side (grade_class_run) -- each report, in --out-dir or on
 * standard output, is byte for byte the one a single `warpsim grade LESSON
 * FILE` writes (but for the seconds the text report prints), with
 * --threads 1 and 4; the summary table lists every submission in the order
 * given; the exit status is the highest of the submissions'; two files of
 * one name, a missing file and a file that is not .cu are refused before
 * anything is graded.  Lesson 2's fixtures with --runs 2 keep it quick. */
#include "grade_fixture.h"

#include <sys/stat.h>

#define L2 "tests/grade/lesson02_"
/* In the order given: two that pass (the atomic one loses a rubric item)
 * and one that fails 7 of 8 tests. */
static const char *const files[] = {L2 "good.cu", L2 "early_exit.cu", L2 "atomic.cu"};
static const char *const names[] = {"lesson02_good", "lesson02_early_exit", "lesson02_atomic"};
#define NFILES 3
#define FILES L2 "good.cu " L2 "early_exit.cu " L2 "atomic.cu"

/* The seconds a text report ends with ("(0.6 s)"), blanked. */
#define NO_SECONDS "sed -e 's/ ([0-9.]* s)$/ (S s)/'"

static char *dup_out(void)
{
    char *t = strdup(out);
    assert_non_null(t);
    return t;
}

/* What a single `warpsim grade 2 FILE` writes for files[i] in format, the
 * seconds blanked. */
static char *single(int i, const char *format)
{
    int rc = sh(false, "WARPSIM_NO_PROGRESS=1 %s grade 2 %s --runs 2 --threads 1 --format %s | " NO_SECONDS,
                warpsim(), files[i], format);
    (void)rc;
    if (!strstr(out, "lesson02") && !strstr(out, "\"score\""))
        fail_msg("`warpsim grade 2 %s` wrote no report: %.300s", files[i], out);
    return dup_out();
}

static void same(const char *what, const char *want, const char *got)
{
    if (!strcmp(want, got))
        return;
    size_t k = 0;
    while (want[k] == got[k])
        k++;
    fail_msg("%s differs from the single grade's report at byte %zu:\n%.300s\n---\n%.300s", what, k,
             want + (k > 100 ? k - 100 : 0), got + (k > 100 ? k - 100 : 0));
}

static void test_grade_class_reports_in_out_dir_are_the_single_reports(void **s)
{
    (void)s;
    need_nvcc();
    const char *formats[] = {"text", "json", "gradescope"};
    for (int fi = 0; fi < 3; fi++) {
        char *want[NFILES];
        for (int i = 0; i < NFILES; i++)
            want[i] = single(i, formats[fi]);
        for (int threads = 1; threads <= 4; threads += 3) {
            char dir[64];
            snprintf(dir, sizeof dir, "build/tests/grade_class_%s_%d", formats[fi], threads);
            sh(true, "rm -rf %s", dir);
            int rc = sh(false, "WARPSIM_NO_PROGRESS=1 %s grade 2 " FILES " --runs 2 --threads %d --format %s "
                               "--out-dir %s", warpsim(), threads, formats[fi], dir);
            assert_int_equal(rc, 1); /* one submission failed */
            for (int i = 0; i < NFILES; i++) {
                char path[128], what[160];
                if (!strcmp(formats[fi], "gradescope"))
                    snprintf(path, sizeof path, "%s/results-%s.json", dir, names[i]);
                else
                    snprintf(path, sizeof path, "%s/%s.%s", dir, names[i], fi ? "json" : "txt");
                sh(false, "cat %s | " NO_SECONDS, path);
                snprintf(what, sizeof what, "%s (--threads %d)", path, threads);
                same(what, want[i], out);
            }
        }
        for (int i = 0; i < NFILES; i++)
            free(want[i]);
    }
}

static void test_grade_class_reports_on_stdout_follow_the_order_given(void **s)
{
    (void)s;
    need_nvcc();
    size_t len = 0;
    char *want[NFILES];
    for (int i = 0; i < NFILES; i++) {
        want[i] = single(i, "text");
        len += strlen(want[i]);
    }
    char *all = calloc(len + 1, 1);
    assert_non_null(all);
    for (int i = 0; i < NFILES; i++)
        strcat(all, want[i]);
    for (int threads = 1; threads <= 4; threads += 3) {
        int rc = sh(false, "WARPSIM_NO_PROGRESS=1 %s grade 2 " FILES " --runs 2 --threads %d | " NO_SECONDS,
                    warpsim(), threads);
        assert_int_equal(rc, 0); /* sed's status; the command's is checked in the summary test */
        char what[64];
        snprintf(what, sizeof what, "standard output (--threads %d)", threads);
        same(what, all, out);
        assert_null(strstr(out, "findings  seconds")); /* the table went to stderr */
    }
    free(all);
    for (int i = 0; i < NFILES; i++)
        free(want[i]);
}

/* The summary line of file i in text, its columns after the name. */
static void row_is(const char *text, const char *file, const char *score, const char *tests, int findings)
{
    const char *p = strstr(text, file);
    if (!p)
        fail_msg("no summary line for %s in:\n%s", file, text);
    char name[256], sc[32], te[32];
    int fi;
    double secs;
    if (sscanf(p, "%255s %31s %31s %d %lf", name, sc, te, &fi, &secs) != 5)
        fail_msg("summary line for %s unreadable: %.200s", file, p);
    assert_string_equal(name, file);
    assert_string_equal(sc, score);
    assert_string_equal(te, tests);
    assert_int_equal(fi, findings);
    assert_true(secs > 0);
}

static void test_grade_class_summary_lists_each_submission_in_order(void **s)
{
    (void)s;
    need_nvcc();
    /* with --out-dir the table is all stdout carries */
    sh(true, "rm -rf build/tests/grade_class_sum");
    int rc = sh(false, "WARPSIM_NO_PROGRESS=1 %s grade 2 " FILES " --runs 2 --threads 2 --out-dir "
                       "build/tests/grade_class_sum", warpsim());
    assert_int_equal(rc, 1);
    if (strncmp(out, "submission ", 11))
        fail_msg("the summary does not start with its header:\n%s", out);
    const char *head = strstr(out, "score");
    assert_non_null(head);
    assert_non_null(strstr(head, "tests"));
    assert_non_null(strstr(head, "findings"));
    assert_non_null(strstr(head, "seconds"));
    const char *a = strstr(out, files[0]), *b = strstr(out, files[1]), *c = strstr(out, files[2]);
    assert_true(a && b && c && a < b && b < c);
    row_is(out, files[0], "100/100", "8/8", 0);
    row_is(out, files[1], "25/100", "1/8", 1);
    row_is(out, files[2], "90/100", "8/8", 0);
    assert_non_null(strstr(out, "3 submissions in "));
    assert_non_null(strstr(out, ": 2 passed, 1 failed, 0 not graded\n"));
    /* without it, the reports are stdout's and the table goes to stderr */
    rc = sh(false, "{ WARPSIM_NO_PROGRESS=1 %s grade 2 " FILES " --runs 2 --threads 2 2>&1 >/dev/null; }", warpsim());
    assert_int_equal(rc, 1);
    row_is(out, files[1], "25/100", "1/8", 1);
    assert_non_null(strstr(out, ": 2 passed, 1 failed, 0 not graded\n"));
    /* every submission passing: 0, as for one */
    rc = sh(false, "WARPSIM_NO_PROGRESS=1 %s grade 2 %s --runs 2 --out-dir build/tests/grade_class_sum", warpsim(),
            files[0]);
    assert_int_equal(rc, 0);
    assert_non_null(strstr(out, "1 submission in "));
    assert_non_null(strstr(out, ": 1 passed, 0 failed, 0 not graded\n"));
}

static void test_grade_class_refuses_two_submissions_of_one_name(void **s)
{
    (void)s;
    sh(true, "rm -rf build/tests/grade_class_dup build/tests/grade_class_dupdir; mkdir -p build/tests/grade_class_dup "
             "&& cp %s build/tests/grade_class_dup/", files[0]);
    int rc = sh(true, "%s grade 2 %s build/tests/grade_class_dup/lesson02_good.cu %s --out-dir "
                      "build/tests/grade_class_dupdir", warpsim(), files[0], files[1]);
    assert_int_equal(rc, 2);
    assert_non_null(strstr(out, "same file name"));
    assert_non_null(strstr(out, "build/tests/grade_class_dupdir/lesson02_good.txt"));
    assert_non_null(strstr(out, "nothing was graded"));
    assert_null(strstr(out, "Score:"));
    struct stat st;
    assert_int_not_equal(stat("build/tests/grade_class_dupdir", &st), 0); /* not even made */
}

static void test_grade_class_refuses_missing_and_non_cu_files_before_grading(void **s)
{
    (void)s;
    int rc = sh(true, "%s grade 2 %s tests/grade/no_such_file.cu %s", warpsim(), files[0], files[1]);
    assert_int_equal(rc, 2);
    assert_non_null(strstr(out, "tests/grade/no_such_file.cu: cannot open"));
    assert_null(strstr(out, "Score:"));
    rc = sh(true, "%s grade 2 %s README.md", warpsim(), files[0]);
    assert_int_equal(rc, 2);
    assert_non_null(strstr(out, "'README.md' is not a .cu file"));
    assert_null(strstr(out, "Score:"));
    rc = sh(true, "%s grade 99 %s %s", warpsim(), files[0], files[1]);
    assert_int_equal(rc, 2);
    assert_non_null(strstr(out, "no lesson '99'"));
    rc = sh(true, "%s grade 2 %s %s --out build/tests/grade_class_x.txt", warpsim(), files[0], files[1]);
    assert_int_equal(rc, 2);
    assert_non_null(strstr(out, "--out-dir"));
}

static void test_grade_class_help_teaches_it(void **s)
{
    (void)s;
    assert_int_equal(sh(false, "%s grade --help", warpsim()), 0);
    assert_non_null(strstr(out, "A.cu B.cu ..."));
    assert_non_null(strstr(out, "--out-dir DIR"));
    assert_non_null(strstr(out, "results-NAME.json"));
    assert_non_null(strstr(out, "A class exits with"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_grade_class_reports_in_out_dir_are_the_single_reports),
        cmocka_unit_test(test_grade_class_reports_on_stdout_follow_the_order_given),
        cmocka_unit_test(test_grade_class_summary_lists_each_submission_in_order),
        cmocka_unit_test(test_grade_class_refuses_two_submissions_of_one_name),
        cmocka_unit_test(test_grade_class_refuses_missing_and_non_cu_files_before_grading),
        cmocka_unit_test(test_grade_class_help_teaches_it),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
