/* test_lesson08.c: lesson 8 (memory ordering and barriers) -- its harness
 * runs clean; the fence is in one last-block kernel's PTX and not the
 * other's; cuda::barrier's phases are right and race-free, and the kernel
 * missing its second wait is reported as write-after-read at the lines the
 * README names; its xcheck.txt launches parse and run clean. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include <cmocka.h>

#include "lesson_fixture.h"

#include "lesson.h"
#include "source.h"
#include "xcheck.h"

static char *run_lesson8(int *rc)
{
    const Lesson *l = lesson_find("8");
    assert_non_null(l);
    assert_non_null(l->run);
    assert_string_equal(l->slug, "08-memory-ordering");
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    assert_non_null(f);
    LessonEnv env = {.dir = "lessons/08-memory-ordering", .arch = "sm_90", .out = f};
    *rc = l->run(&env);
    fclose(f);
    return text;
}

static void test_lesson8_harness_shows_what_the_readme_says(void **st)
{
    (void)st;
    int rc;
    char *t = run_lesson8(&rc);
    if (rc || strstr(t, "DIFFERS"))
        fail_msg("lesson08_run returned %d:\n%s", rc, t);
    assert_non_null(strstr(t, "last_block_sum      PTX fence: membar.gl   total right in 20 seeds"));
    assert_non_null(strstr(t, "last_block_nofence  PTX fence: none        total right in 20 seeds"));
    assert_non_null(strstr(t, "phases       results wrong in 0 of 20 seeds; race check: 0 findings"));
    assert_non_null(strstr(t, "write-after-read on shared memory: read at kernel.cu:107, overwritten at kernel.cu:105"));
    int q = 0;
    for (const char *p = t; (p = strstr(p, "Question:")); p++)
        q++;
    assert_int_equal(q, 2);
    free(t);
    char msg[256];
    size_t len;
    char *r = source_read_file("lessons/08-memory-ordering/README.md", &len, msg, sizeof msg);
    assert_non_null(r);
    assert_non_null(strstr(r, "read at kernel.cu:107, overwritten at kernel.cu:105"));
    assert_non_null(strstr(r, "17 different last blocks"));
    free(r);
}

static void test_lesson8_xcheck_lines_parse_and_run(void **st)
{
    (void)st;
    lesson_xcheck_runs("08-memory-ordering", 4);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lesson8_harness_shows_what_the_readme_says),
        cmocka_unit_test(test_lesson8_xcheck_lines_parse_and_run),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
