/* test_lesson12.c: lesson 12 (all the atomics) -- its harness runs and every
 * result it shows matches its C reference, section by section; what its
 * README says about the PTX (atom for a used and an unused result, the three
 * scopes, release/acquire against relaxed) is what kernel.ptx holds; the
 * stepper shows the CAS winner the README describes; and its xcheck.txt
 * launches parse and run clean. */
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

static char *run_lesson12(int *rc)
{
    const Lesson *l = lesson_find("12");
    assert_non_null(l);
    assert_non_null(l->run);
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    assert_non_null(f);
    LessonEnv env = {.dir = "lessons/12-atomics", .arch = "sm_90", .out = f};
    *rc = l->run(&env);
    fclose(f);
    return text;
}

/* The text from `from` to `to` must hold no "DIFFERS". */
static void expect_section_clean(const char *t, const char *from, const char *to)
{
    const char *a = strstr(t, from);
    if (!a)
        fail_msg("lesson 12 printed no \"%s\"", from);
    const char *b = to ? strstr(a + 1, to) : NULL;
    size_t n = b ? (size_t)(b - a) : strlen(a);
    const char *d = strstr(a, "DIFFERS");
    if (d && (size_t)(d - a) < n)
        fail_msg("%.*s", (int)n, a);
}

static char *read_text(const char *path)
{
    char msg[256];
    size_t len;
    char *t = source_read_file(path, &len, msg, sizeof msg);
    if (!t)
        fail_msg("%s", msg);
    return t;
}

static void test_lesson12_is_listed(void **st)
{
    (void)st;
    const Lesson *l = lesson_find("12-atomics");
    assert_non_null(l);
    assert_int_equal(l->number, 12);
    assert_ptr_equal(lesson_find("12"), l);
}

static void test_lesson12_every_section_matches_its_reference(void **st)
{
    (void)st;
    int rc;
    char *t = run_lesson12(&rc);
    expect_section_clean(t, "1. Five read-modify-writes", "2. A float max");
    expect_section_clean(t, "2. A float max", "3. atom against red");
    expect_section_clean(t, "3. atom against red", "4. cuda::atomic_ref");
    expect_section_clean(t, "4. cuda::atomic_ref", "5. Relaxed");
    expect_section_clean(t, "5. Relaxed", "Try it yourself");
    if (rc)
        fail_msg("lesson12_run returned %d:\n%s", rc, t);
    /* a question before each answer */
    int q = 0, a = 0;
    for (const char *p = t; (p = strstr(p, "Question:")); p++)
        q++;
    for (const char *p = t; (p = strstr(p, "Answer:")); p++)
        a++;
    assert_int_equal(q, 5);
    assert_int_equal(a, 5);
    assert_non_null(strstr(t, "warpsim step"));
    assert_non_null(strstr(t, "warpsim viz"));
    assert_non_null(strstr(t, "0.995855093 in every one of 20 seeds"));
    free(t);
}

/* What the harness and the README say of the H100's relaxed message is
 * what the recording holds: 42 in every run (they said it awaited one). */
static void test_lesson12_relaxed_message_on_the_h100_is_the_recordings(void **st)
{
    (void)st;
    XcheckRecording rec;
    char msg[512];
    if (!xcheck_recording_read("traces/hw/nvidia-h100-80gb-hbm3/xcheck.json", &rec, msg, sizeof msg))
        fail_msg("%s", msg);
    int found = 0;
    for (int i = 0; i < rec.n; i++)
        for (int k = 0; !strcmp(rec.lessons[i].slug, "12-atomics") && k < rec.lessons[i].n; k++) {
            const XcheckRef *r = &rec.lessons[i].refs[k];
            if (!strstr(r->line, "--kernel message_relaxed "))
                continue;
            for (int b = 0; b < r->nbufs; b++) {
                if (r->bufs[b].arg != 2)
                    continue;
                assert_int_equal(r->bufs[b].nruns, 3);
                for (int j = 0; j < 3; j++) {
                    int32_t v;
                    memcpy(&v, r->bufs[b].runs[j], 4);
                    assert_int_equal(v, 42);
                }
                found++;
            }
        }
    assert_int_equal(found, 1);
    xcheck_recording_free(&rec);
    int rc;
    char *t = run_lesson12(&rc);
    char *sq = lesson_squash(t);
    assert_non_null(strstr(sq, "On an H100 (traces/hw/nvidia-h100-80gb-hbm3/xcheck.json, 3 runs) the relaxed kernel "
                               "read 42 every time too"));
    assert_null(strstr(sq, "for the recording"));
    free(sq);
    free(t);
    char *raw = lesson_read_text("lessons/12-atomics/README.md");
    char *r = lesson_squash(raw);
    assert_non_null(strstr(r, "In the H100's recording it read 42 in all three runs"));
    free(r);
    free(raw);
}

/* The README's PTX claims: nvcc writes atom for an unused result too; the
 * scopes and orders are the ones it names. */
static void test_lesson12_ptx_is_what_the_readme_says(void **st)
{
    (void)st;
    char *p = read_text("lessons/12-atomics/kernel.ptx");
    const char *red = strstr(p, ".entry count_red(");
    assert_non_null(red);
    const char *next = strstr(red + 1, ".entry ");
    const char *atom = strstr(red, "atom.global.add.u32");
    assert_non_null(atom);
    assert_true(!next || atom < next);
    assert_null(strstr(p, "red.global"));
    static const char *const want[] = {"atom.add.relaxed.cta.s32", "atom.add.relaxed.gpu.s32",
                                       "atom.add.relaxed.sys.s32", "st.release.gpu.b32", "ld.acquire.gpu.b32",
                                       "st.relaxed.gpu.b32",       "ld.relaxed.gpu.b32", "atom.global.cas.b32",
                                       "atom.global.and.b32",      "atom.global.xor.b32", "atom.global.min.s32"};
    for (size_t k = 0; k < sizeof want / sizeof *want; k++)
        if (!strstr(p, want[k]))
            fail_msg("kernel.ptx has no %s", want[k]);
    assert_null(strstr(p, "__assertfail"));
    free(p);
    char *r = read_text("lessons/12-atomics/README.md");
    assert_non_null(strstr(r, "`atom.add.relaxed.cta.s32`, `atom.add.relaxed.gpu.s32`"));
    assert_non_null(strstr(r, "nvcc writes `atom.global.add.u32` for both"));
    free(r);
    char *s = read_text("traces/hw/timing-sass-h100.txt");
    const char *f = strstr(s, "Function : atomic_bins");
    assert_non_null(f);
    assert_non_null(strstr(f, "REDG.E.ADD"));
    free(s);
}

/* Step 2's stepper session: lane 0 wins the first CAS, lanes 1-31 lose. */
static void test_lesson12_stepper_shows_one_cas_winner(void **st)
{
    (void)st;
    const char *w = getenv("WARPSIM");
    char cmd[1024];
    snprintf(cmd, sizeof cmd,
             "printf 'break 37\\ncontinue\\nstep\\nprint %%%%r12\\nprint %%%%r5\\n' | %s step "
             "lessons/12-atomics/kernel.ptx --kernel float_max_cas --grid 1 --block 64 --arg buf:f32[64]=rand:1 "
             "--arg buf:f32[1]=fill:-2 --arg buf:i32[1]=fill:0 --arg i32:64 2>&1",
             w ? w : "build/warpsim");
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    static char out[1 << 16];
    size_t n = fread(out, 1, sizeof out - 1, p);
    out[n] = 0;
    pclose(p);
    const char *r5 = strstr(out, "%r5 (b32)");
    if (!strstr(out, "lanes 0-31         -1073741824 (0xc0000000)") || !r5 ||
        !strstr(r5, "lane  0            -1073741824 (0xc0000000)") ||
        !strstr(r5, "lanes 1-31         1040732520 (0x3e085168)"))
        fail_msg("%s", out);
    char *rd = read_text("lessons/12-atomics/README.md");
    assert_non_null(strstr(rd, "Lanes 1-31 got `0x3e085168`"));
    free(rd);
}

static void test_lesson12_xcheck_lines_parse_and_run(void **st)
{
    (void)st;
    lesson_xcheck_runs("12-atomics", 8);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lesson12_is_listed),
        cmocka_unit_test(test_lesson12_every_section_matches_its_reference),
        cmocka_unit_test(test_lesson12_relaxed_message_on_the_h100_is_the_recordings),
        cmocka_unit_test(test_lesson12_ptx_is_what_the_readme_says),
        cmocka_unit_test(test_lesson12_stepper_shows_one_cas_winner),
        cmocka_unit_test(test_lesson12_xcheck_lines_parse_and_run),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
