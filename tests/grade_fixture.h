/* grade_fixture.h: what the tests of `warpsim grade` share -- running the
 * command on a student fixture, reading its JSON report, and finding the
 * findings and test items in it (tests/test_grade*.c).  Every helper fails
 * the current cmocka test with the reason. */
#ifndef WARPSIM_TEST_GRADE_FIXTURE_H
#define WARPSIM_TEST_GRADE_FIXTURE_H

#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>

#include <cmocka.h>

#include "grade_exercise.h"
#include "json.h"
#include "lesson.h"
#include "nvcc_probe.h"

static inline const char *warpsim(void)
{
    const char *w = getenv("WARPSIM");
    return w ? w : "build/warpsim";
}

static inline double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static char out[1 << 20];  /* what the last sh() printed */
static double took;        /* seconds the last sh() took */

/* Run a shell command line; capture stdout (and stderr when both is set). */
static inline int sh(bool both, const char *fmt, ...)
{
    char cmd[4096];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(cmd, sizeof cmd - 16, fmt, ap);
    va_end(ap);
    strcat(cmd, both ? " 2>&1" : " 2>/dev/null");
    double t0 = now();
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    size_t n = fread(out, 1, sizeof out - 1, p);
    out[n] = 0;
    int st = pclose(p);
    took = now() - t0;
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* Skip a test that compiles CUDA when that cannot be done here (said once). */
static inline void need_nvcc(void)
{
    need_grade_compile("`warpsim grade` compiles the submission, so its tests were skipped");
}

/* The report of the current test, freed by the teardown (also when the
 * test fails half-way). */
static JsonValue *report;

static inline int free_report(void **s)
{
    (void)s;
    json_free(report);
    report = NULL;
    return 0;
}

/* Grade the .cu at path against lesson `lesson` as JSON with extra options;
 * the parsed report (the test fails when it is not valid JSON). */
static inline JsonValue *grade_path(int *rc, int lesson, const char *path, const char *extra)
{
    *rc = sh(false, "%s grade %d %s --format json %s", warpsim(), lesson, path, extra);
    char msg[256];
    free_report(NULL);
    report = json_parse(out, strlen(out), msg, sizeof msg);
    if (!report)
        fail_msg("grade %s: not JSON (%s): %.400s", path, msg, out);
    return report;
}

/* The same for the fixture tests/grade/NAME.cu. */
static inline JsonValue *grade_fixture(int *rc, int lesson, const char *name, const char *extra)
{
    char path[256];
    snprintf(path, sizeof path, "tests/grade/%s.cu", name);
    return grade_path(rc, lesson, path, extra);
}

/* The first finding of kind `kind` (NULL when none). */
static inline const JsonValue *finding(const JsonValue *r, const char *kind)
{
    const JsonValue *fs = json_get(r, "findings");
    assert_non_null(fs);
    assert_int_equal(fs->type, JSON_ARRAY);
    for (size_t i = 0; i < fs->n; i++) {
        const char *k = json_get_string(&fs->items[i], "kind");
        if (k && !strcmp(k, kind))
            return &fs->items[i];
    }
    return NULL;
}

/* The report has a finding of kind at line of file (a path). */
static inline const JsonValue *expect_finding_in(const JsonValue *r, const char *file, const char *kind, int line)
{
    const JsonValue *f = finding(r, kind);
    if (!f) {
        char kinds[512] = "";
        const JsonValue *fs = json_get(r, "findings");
        for (size_t i = 0; i < fs->n && strlen(kinds) < 400; i++)
            snprintf(kinds + strlen(kinds), sizeof kinds - strlen(kinds), " %s:%d",
                     json_get_string(&fs->items[i], "kind"), (int)json_get_number(&fs->items[i], "line", 0));
        fail_msg("%s: no %s finding; the findings are:%s", file, kind, *kinds ? kinds : " none");
    }
    assert_int_equal((int)json_get_number(f, "line", -1), line);
    assert_string_equal(json_get_string(f, "file"), file);
    return f;
}

/* The same for the fixture tests/grade/NAME.cu. */
static inline const JsonValue *expect_fixture_finding(const JsonValue *r, const char *name, const char *kind,
                                                      int line)
{
    char file[256];
    snprintf(file, sizeof file, "tests/grade/%s.cu", name);
    return expect_finding_in(r, file, kind, line);
}

static inline bool passed(const JsonValue *r)
{
    const JsonValue *p = json_get(r, "passed");
    assert_non_null(p);
    assert_int_equal(p->type, JSON_BOOL);
    return p->boolean;
}

/* The test item called name (a prefix is enough). */
static inline const JsonValue *item(const JsonValue *r, const char *name)
{
    const JsonValue *ts = json_get(r, "tests");
    for (size_t i = 0; ts && i < ts->n; i++) {
        const char *n = json_get_string(&ts->items[i], "name");
        if (n && !strncmp(n, name, strlen(name)))
            return &ts->items[i];
    }
    fail_msg("no test item '%s'", name);
    return NULL;
}

/* Item name's output contains text. */
static inline void expect_output(const JsonValue *r, const char *name, const char *text)
{
    const char *o = json_get_string(item(r, name), "output");
    assert_non_null(o);
    if (!strstr(o, text))
        fail_msg("'%s' says \"%s\", not \"%s\"", name, o, text);
}

/* The report has exactly the documented fields (issue 7): the top-level
 * keys in order, lesson `slug`, and ntests test items each with exactly
 * name, passed, score, max_score, output. */
static inline void expect_report_shape(const JsonValue *r, const char *slug, size_t ntests)
{
    assert_int_equal(r->type, JSON_OBJECT);
    static const char *const keys[] = {"lesson", "passed", "score", "max_score", "tests", "findings"};
    assert_int_equal(r->n, 6);
    for (size_t i = 0; i < 6; i++)
        assert_string_equal(r->keys[i], keys[i]);
    assert_string_equal(json_get_string(r, "lesson"), slug);
    const JsonValue *ts = json_get(r, "tests");
    assert_int_equal(ts->n, ntests);
    static const char *const tk[] = {"name", "passed", "score", "max_score", "output"};
    for (size_t j = 0; j < ts->n; j++) {
        assert_int_equal(ts->items[j].n, 5);
        for (size_t i = 0; i < 5; i++)
            assert_string_equal(ts->items[j].keys[i], tk[i]);
    }
}

/* Each of the fixtures tests/grade/NAME.cu graded for lesson (--runs 2):
 * passed, 100 points, no finding, and the documented report shape. */
static inline void expect_full_marks(int lesson, const char *slug, size_t ntests, const char *const *names, int n)
{
    for (int k = 0; k < n; k++) {
        int rc;
        JsonValue *r = grade_fixture(&rc, lesson, names[k], "--runs 2");
        assert_int_equal(rc, 0);
        assert_true(passed(r));
        assert_int_equal(json_get(r, "findings")->n, 0);
        assert_int_equal((int)json_get_number(r, "score", -1), 100);
        expect_report_shape(r, slug, ntests);
        json_free(report);
        report = NULL;
    }
}


/* Lesson `number`'s graded exercise: registered, valid (grade_exercise_valid)
 * and belonging to lessons/`slug`. */
static inline const GradeExercise *lesson_exercise(const char *number, const char *slug)
{
    const Lesson *l = lesson_find(number);
    assert_non_null(l);
    assert_non_null(l->exercise);
    char m[256];
    if (!grade_exercise_valid(l->exercise, m, sizeof m))
        fail_msg("%s", m);
    assert_string_equal(l->exercise->lesson, slug);
    return l->exercise;
}

#endif
