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

/* What lesson 8 says of the H100's last-block launches is what the
 * recording holds: the fence-less kernel's total, in every run, is the
 * fenced kernel's (they said the launches awaited a recording). */
static void test_lesson8_last_block_on_the_h100_is_the_recordings(void **st)
{
    (void)st;
    XcheckRecording rec;
    char msg[512];
    if (!xcheck_recording_read("traces/hw/nvidia-h100-80gb-hbm3/xcheck.json", &rec, msg, sizeof msg))
        fail_msg("%s", msg);
    const XcheckRef *fenced = NULL, *bare = NULL;
    for (int i = 0; i < rec.n; i++)
        for (int k = 0; !strcmp(rec.lessons[i].slug, "08-memory-ordering") && k < rec.lessons[i].n; k++) {
            const XcheckRef *r = &rec.lessons[i].refs[k];
            if (strstr(r->line, "--kernel last_block_sum "))
                fenced = r;
            if (strstr(r->line, "--kernel last_block_nofence "))
                bare = r;
        }
    assert_non_null(fenced);
    assert_non_null(bare);
    /* arg 3, the total: exact for the fenced kernel, by runs for the other */
    const XcheckRefBuf *ft = NULL, *bt = NULL;
    for (int b = 0; b < fenced->nbufs; b++)
        if (fenced->bufs[b].arg == 3)
            ft = &fenced->bufs[b];
    for (int b = 0; b < bare->nbufs; b++)
        if (bare->bufs[b].arg == 3)
            bt = &bare->bufs[b];
    assert_non_null(ft);
    assert_non_null(ft->data);
    assert_non_null(bt);
    assert_int_equal(bt->nruns, 3);
    for (int j = 0; j < 3; j++)
        assert_memory_equal(bt->runs[j], ft->data, 4);
    xcheck_recording_free(&rec);
    int rc;
    char *t = run_lesson8(&rc);
    char *sq = lesson_squash(t);
    assert_non_null(strstr(sq, "On an H100 (traces/hw/nvidia-h100-80gb-hbm3/xcheck.json, 3 runs each) both totals "
                               "came out right too"));
    free(sq);
    free(t);
    char *raw = lesson_read_text("lessons/08-memory-ordering/README.md");
    char *r = lesson_squash(raw);
    assert_non_null(strstr(r, "three runs each) both added every partial"));
    free(r);
    free(raw);
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
        cmocka_unit_test(test_lesson8_last_block_on_the_h100_is_the_recordings),
        cmocka_unit_test(test_lesson8_xcheck_lines_parse_and_run),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
