/* test_lesson13.c: lesson 13 (tile programming) -- its harness runs and
 * every result it shows matches the expected value (a harness marks a result
 * that differs with "<- DIFFERS"), the explore claim of its README holds
 * (integer tile atomic: one result; float: several), the H100's float sums
 * the README quotes are those of the committed recording, and its xcheck.txt
 * launches parse and agree with a second simulator standing in for the GPU. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include <cmocka.h>

#include "lesson.h"
#include "lesson_fixture.h"

static char *run_lesson(int *rc)
{
    const Lesson *l = lesson_find("13");
    assert_non_null(l);
    assert_string_equal(l->slug, "13-tiles");
    assert_non_null(l->run);
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    assert_non_null(f);
    LessonEnv env = {.dir = "lessons/13-tiles", .arch = "sm_90", .out = f};
    *rc = l->run(&env);
    fclose(f);
    return text;
}

static void test_lesson13_every_section_matches(void **s)
{
    (void)s;
    int rc;
    char *text = run_lesson(&rc);
    if (rc != 0 || strstr(text, "DIFFERS"))
        fail_msg("lesson 13 (rc %d):\n%s", rc, text);
    static const char *const want[] = {
        "elements equal bit for bit, SIMT vs tiles: 1000 of 1000",
        "load f32 tile 3 of 256 from [1000]", "24 padded (zero)", "24 dropped",
        "B[r][k] == A[r][k] * s[r]: 1665 of 1665",
        "slot_sum_i32    256 elements, 1 slot   block    1\n",
        "block_sum_i32   40 blocks, out[0]      device   1\n",
        "Bin 0 holds 63 (want 63)",
        "1. element 31, thread 31:",
        "streaming accesses (.cs) in the PTX: copy_plain 0, copy_hinted 4",
        "read-only loads (ld.global.nc): with __restrict__ 2, without 0",
    };
    for (size_t k = 0; k < sizeof want / sizeof *want; k++)
        if (!strstr(text, want[k]))
            fail_msg("lesson 13 does not say \"%s\":\n%s", want[k], text);
    free(text);
}

static int sh(const char *cmd, char *out, size_t cap)
{
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    size_t n = fread(out, 1, cap - 1, p);
    out[n] = 0;
    int st = pclose(p);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static char out[1 << 18];

/* The README's explore runs: one integer result, several float ones. */
static void test_lesson13_explore_integer_one_float_several(void **s)
{
    (void)s;
    assert_int_equal(sh("build/warpsim explore lessons/13-tiles/kernel.ptx --kernel slot_sum_i32 --grid 1 --block 128 "
                        "--arg buf:i32[256]=rand:5 --arg buf:i32[1]=fill:0 --runs 100 2>&1",
                        out, sizeof out), 0);
    assert_non_null(strstr(out, "arg 1  i32[1]: the same in every run: 329994762"));
    assert_int_equal(sh("build/warpsim explore lessons/13-tiles/kernel.ptx --kernel slot_sum_f32 --grid 1 --block 128 "
                        "--arg buf:f32[256]=rand:5 --arg buf:f32[1]=fill:0 --runs 100 2>&1",
                        out, sizeof out), 0);
    assert_non_null(strstr(out, "arg 1  f32[1]: 8 distinct results in 100 runs"));
}

/* The float tile atomics' H100 results the README quotes ("14.1536503 in
 * all three runs") are the committed recording's (it quoted an earlier
 * recording's once the launches were recorded again). */
static void test_lesson13_h100_float_sums_are_the_recordings(void **s)
{
    (void)s;
    XcheckRecording r;
    char msg[512];
    if (!xcheck_recording_read("traces/hw/nvidia-h100-80gb-hbm3/xcheck.json", &r, msg, sizeof msg))
        fail_msg("%s", msg);
    char *raw = lesson_read_text("lessons/13-tiles/README.md");
    char *readme = lesson_squash(raw);
    int quoted = 0;
    for (int i = 0; i < r.n; i++) {
        if (strcmp(r.lessons[i].slug, "13-tiles"))
            continue;
        for (int k = 0; k < r.lessons[i].n; k++) {
            const XcheckRef *ref = &r.lessons[i].refs[k];
            if (!strstr(ref->line, "--kernel slot_sum_f32 ") && !strstr(ref->line, "--kernel block_sum_f32 "))
                continue;
            const XcheckRefBuf *b = &ref->bufs[1];
            assert_int_equal(b->nruns, 3);
            float v[3];
            for (int j = 0; j < 3; j++)
                memcpy(&v[j], b->runs[j], 4);
            /* one value: "X in all three"; else the three in run order */
            char want[96];
            if (v[0] == v[1] && v[1] == v[2])
                snprintf(want, sizeof want, "%.9g in all three", (double)v[0]);
            else
                snprintf(want, sizeof want, "%.9g, %.9g and %.9g", (double)v[0], (double)v[1], (double)v[2]);
            if (!strstr(readme, want))
                fail_msg("lessons/13-tiles/README.md does not say \"%s\" (%s)", want, ref->line);
            quoted++;
        }
    }
    assert_int_equal(quoted, 2);
    free(readme);
    free(raw);
    xcheck_recording_free(&r);
}

static void test_lesson13_xcheck_launches_agree_with_a_second_simulator(void **s)
{
    (void)s;
    int rc = sh("build/warpsim xcheck 13 --backend sim 2>&1", out, sizeof out);
    if (rc != 0)
        fail_msg("xcheck 13 (rc %d):\n%s", rc, out);
    assert_non_null(strstr(out, "15 launches checked, 0 mismatches"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lesson13_every_section_matches),
        cmocka_unit_test(test_lesson13_explore_integer_one_float_several),
        cmocka_unit_test(test_lesson13_h100_float_sums_are_the_recordings),
        cmocka_unit_test(test_lesson13_xcheck_launches_agree_with_a_second_simulator),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
