/* test_lesson07.c: lesson 07 (caches and the carveout) -- its harness runs
 * under the timing model and every claim its README makes holds (hit rates
 * and times move the way it says, by the ratios it names), the H100 figures
 * the README quotes are those of traces/hw/timing-h100.json, and its
 * xcheck.txt launches parse and run clean. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "lesson_fixture.h"

#include "lesson.h"
#include "source.h"
#include "xcheck.h"

static void test_lesson07_is_listed(void **st)
{
    (void)st;
    const Lesson *l = lesson_find("07-caches-carveout");
    assert_non_null(l);
    assert_int_equal(l->number, 7);
    assert_ptr_equal(lesson_find("7"), l);
    assert_ptr_equal(lesson_find("07"), l);
}

/* Each claim of the README, as the harness words its check: it must be
 * printed as holding, and the README must make it. */
static const LessonClaim claims[] = {
    {"holds:  read once, nothing is found in L1 (under 10% hits)", "With `iters = 0` almost none"},
    {"holds:  re-read, the 128 KB working set answers from L1 (over 70% hits)", "With `iters = 64`, 80%"},
    {"holds:  the hit rate falls as shared memory takes L1's room (0 > 50 > 100)",
     "hit rate goes down from 0 to 50 to 100"},
    {"holds:  128 KB fits L1 at carveout 0 and not at 100", "At carveout 0 the 128 KB fits L1 (224 KB)"},
    {"holds:  carveout 100 is at least 1.5x slower than carveout 0", "carveout 100 takes at least\n1.5 times as long"},
    {"holds:  L1's misses become L2 hits: L2's hit rate rises by over 30 points",
     "the L2 hit rate rises with the carveout by more than 30 points"},
    {"holds:  DRAM delivers each block's 128 KB once at every carveout (within 5%)",
     "DRAM delivers each block's 128 KB once at\nevery carveout"},
    {"holds:  occupancy goes from about 12.5% to over 75%", "Achieved occupancy goes from about 12.5% to over 75%"},
    {"holds:  1 block per SM is at least 3x slower than 8", "1 block per SM takes at\nleast 3 times as long as 8"},
    {"holds:  at both, warps spend most of their cycles in long_scoreboard", "in both, most of their cycles\nare in the `long_scoreboard` state"},
};

static void test_lesson07_every_claim_holds(void **st)
{
    (void)st;
    int rc;
    char *t = lesson_output("7", "lessons/07-caches-carveout", &rc);
    char *r = lesson_read_text("lessons/07-caches-carveout/README.md");
    if (rc || strstr(t, "WRONG"))
        fail_msg("lesson07_run returned %d:\n%s", rc, t);
    /* every step asks before it answers */
    assert_int_equal(lesson_expect_claims(7, t, r, claims, sizeof claims / sizeof *claims), 4);
    /* the split the README names */
    assert_non_null(strstr(t, "224 KB"));
    assert_non_null(strstr(t, "124 KB"));
    assert_non_null(strstr(t, " 28 KB"));
    assert_non_null(strstr(t, "80.0%"));
    assert_non_null(strstr(t, "17301696"));
    free(r);
    free(t);
}

/* The number after "key": in launch `launch`'s object of the H100 recording. */
static void expect_in(const char *text, const char *fmt, double v)
{
    char buf[64];
    snprintf(buf, sizeof buf, fmt, v);
    if (!strstr(text, buf))
        fail_msg("README.md does not quote the H100's \"%s\"", buf);
}

/* Every H100 figure of the README is the recording's; the ratios too. */
static void test_lesson07_h100_figures_are_recorded(void **st)
{
    (void)st;
    char *rec = lesson_read_text("traces/hw/timing-h100.json");
    char *r = lesson_read_text("lessons/07-caches-carveout/README.md");
    const char *hit = "l1tex__t_sector_hit_rate.pct", *l2 = "lts__t_sector_hit_rate.pct";
    double c0 = lesson_h100(rec, "c0", "cycles"), c50 = lesson_h100(rec, "c50", "cycles"), c100 = lesson_h100(rec, "c100", "cycles");
    char buf[96];
    snprintf(buf, sizeof buf, "| 0 | %.0f%% | %d,%03d | 1.00x |", lesson_h100(rec, "c0", hit), (int)c0 / 1000,
             (int)c0 % 1000);
    if (!strstr(r, buf))
        fail_msg("README.md lacks the row \"%s\"", buf);
    snprintf(buf, sizeof buf, "| 50 | %.2f%% | %d,%03d | %.2fx |", lesson_h100(rec, "c50", hit), (int)c50 / 1000,
             (int)c50 % 1000, c50 / c0);
    if (!strstr(r, buf))
        fail_msg("README.md lacks the row \"%s\"", buf);
    snprintf(buf, sizeof buf, "| 100 | %.2f%% | %d,%03d | %.2fx |", lesson_h100(rec, "c100", hit), (int)c100 / 1000,
             (int)c100 % 1000, c100 / c0);
    if (!strstr(r, buf))
        fail_msg("README.md lacks the row \"%s\"", buf);
    expect_in(r, "%.1f%% at carveout 0", lesson_h100(rec, "c0", l2));
    expect_in(r, "%.2f%% at 100", lesson_h100(rec, "c100", l2));
    double dram = lesson_h100(rec, "c0", "dram__bytes_read.sum");
    snprintf(buf, sizeof buf, "counts %d,%03d,%03d", (int)dram / 1000000, (int)dram / 1000 % 1000, (int)dram % 1000);
    if (!strstr(r, buf))
        fail_msg("README.md lacks \"%s\"", buf);
    double b1 = lesson_h100(rec, "b1", "cycles"), b8 = lesson_h100(rec, "b8", "cycles");
    snprintf(buf, sizeof buf, "%d,%03d cycles against %d,%03d, %.2fx", (int)b1 / 1000, (int)b1 % 1000,
             (int)b8 / 1000, (int)b8 % 1000, b1 / b8);
    if (!strstr(r, buf))
        fail_msg("README.md lacks \"%s\"", buf);
    expect_in(r, "occupancy\n%.2f%%", lesson_h100(rec, "b1", "achieved_occupancy_pct"));
    expect_in(r, "and %.2f%%)", lesson_h100(rec, "b8", "achieved_occupancy_pct"));
    expect_in(r, "counts %.2f\ncycles of `long_scoreboard`", lesson_h100(rec, "b1", "long_scoreboard"));
    expect_in(r, "and %.2f at 8", lesson_h100(rec, "b8", "long_scoreboard"));
    free(r);
    free(rec);
}

static void test_lesson07_xcheck_lines_parse_and_run(void **st)
{
    (void)st;
    const char *out = lesson_xcheck_runs("07-caches-carveout", 6);
    assert_non_null(strstr(out, "6 launches checked, 0 mismatches"));
}

static const char *warpsim(void)
{
    const char *w = getenv("WARPSIM");
    return w ? w : "build/warpsim";
}

static char *readme_squashed(void)
{
    char *raw = lesson_read_text("lessons/07-caches-carveout/README.md"), *r = lesson_squash(raw);
    free(raw);
    return r;
}

/* Step 1: the shared memory the H100's driver configured at carveouts 0, 50
 * and 100 (Nsight Compute's launch__shared_mem_config_size) is what the
 * README says and what the harness's "shared" column shows. */
static void test_lesson07_shared_memory_configured_is_the_recordings(void **st)
{
    (void)st;
    char *rec = lesson_read_text("traces/hw/timing-h100.json");
    static const char *const launch[3] = {"c0", "c50", "c100"};
    int kb[3];
    for (int k = 0; k < 3; k++)
        kb[k] = (int)(lesson_h100(rec, launch[k], "launch__shared_mem_config_size") / 1024);
    free(rec);
    char want[160];
    snprintf(want, sizeof want, "`launch__shared_mem_config_size` in the recording: %d KB at carveout 0, %d KB at 50, "
             "%d KB at 100)", kb[0], kb[1], kb[2]);
    char *r = readme_squashed();
    if (!strstr(r, want))
        fail_msg("README.md lacks \"%s\"", want);
    assert_null(strstr(r, "never configures less"));
    free(r);
    int rc;
    char *t = lesson_output("7", "lessons/07-caches-carveout", &rc);
    static const int pct[3] = {0, 50, 100};
    for (int k = 0; k < 3; k++) {
        snprintf(want, sizeof want, "     %4d%%     %4d KB", pct[k], kb[k]);
        if (!strstr(t, want))
            fail_msg("lesson 7 does not show \"%s\":\n%s", want, t);
    }
    free(t);
}

/* Step 4's picture: the cycles the README gives are the harness's, the
 * cycle shown is half of the 1-block launch, and there the trace has 528
 * blocks retired and 660 dispatched (the fifth wave, blocks 528-659). */
static void test_lesson07_picture_is_what_the_commands_give(void **st)
{
    (void)st;
    int rc;
    char *t = lesson_output("7", "lessons/07-caches-carveout", &rc);
    double b1, b8;
    const char *a = strstr(t, "\n         1    "), *b = strstr(t, "\n         8    ");
    assert_non_null(a);
    assert_non_null(b);
    assert_int_equal(sscanf(a, " %*d %*f%% %lf", &b1), 1);
    assert_int_equal(sscanf(b, " %*d %*f%% %lf", &b8), 1);
    free(t);
    long half = (long)b1 / 2;
    char want[400];
    snprintf(want, sizeof want, "at cycle %ld,%03ld: half of the %ld,%03ld cycles the launch with 1 block per SM (left) "
             "takes in the model, and it is in its fifth wave of 132 blocks (blocks 528-659); the one with 8 (right) "
             "finished at cycle %ld,%03ld", half / 1000, half % 1000, (long)b1 / 1000, (long)b1 % 1000,
             (long)b8 / 1000, (long)b8 % 1000);
    char *r = readme_squashed();
    if (!strstr(r, want))
        fail_msg("README.md lacks \"%s\"", want);
    free(r);
    char *raw = lesson_read_text("lessons/07-caches-carveout/README.md");
    snprintf(want, sizeof want, "\nwarpsim viz b1.wst b8.wst --view gpu --at %ld\n", half);
    if (!strstr(raw, want))
        fail_msg("README.md lacks the command \"%s\"", want + 1);
    free(raw);
    char *out = lesson_trace_dump(warpsim(), "lessons/07-caches-carveout/kernel.ptx --kernel stream_sum --grid 1056 --block 256 --smem 232448 "
                                  "--timing --arg 'buf:f32[1]=fill:0'", "blocks");
    int retired = 0, dispatched = 0;
    for (const char *l = out; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
        long cyc, block;
        char ev[32];
        if (sscanf(l, "%ld %ld %31s", &cyc, &block, ev) == 3 && cyc <= half) {
            retired += !strcmp(ev, "retire");
            dispatched += !strcmp(ev, "dispatch");
        }
    }
    if (retired != 528 || dispatched != 660)
        fail_msg("at cycle %ld: %d retired, %d dispatched", half, retired, dispatched);
    free(out);
}

/* "Step through it": the stops the README names, at carveout 0 and 100. */
static void test_lesson07_stepper_shows_an_l1_hit_and_a_miss(void **st)
{
    (void)st;
    static const struct {
        int carveout;
        const char *want[3];
    } s[] = {
        {0, {"[block 0 warp 0, SM 0, modelled cycle 88682, issuing] kernel.cu:27",
             "[block 0 warp 0, SM 0, modelled cycle 89304, issuing] kernel.cu:27",
             "[block 0 warp 1, SM 0, modelled cycle 89456, issuing] kernel.cu:27"}},
        {100, {"[block 0 warp 0, SM 0, modelled cycle 89304, issuing] kernel.cu:27",
               "[block 0 warp 1, SM 0, modelled cycle 89348, issuing] kernel.cu:27",
               "[block 0 warp 1, SM 0, modelled cycle 90094, issuing] kernel.cu:27"}},
    };
    for (int k = 0; k < 2; k++) {
        char cmd[1024];
        snprintf(cmd, sizeof cmd,
                 "printf 'break 27\\n%s' | %s step lessons/07-caches-carveout/kernel.ptx "
                 "--kernel l1_gather --grid 1 --block 64 --carveout %d --timing --arg 'buf:f32[1]=fill:0' --arg i32:8 2>&1",
                 "continue\\ncontinue\\ncontinue\\ncontinue\\ncontinue\\ncontinue\\ncontinue\\n"
                 "continue\\ncontinue\\ncontinue\\ncontinue\\ncontinue\\ncontinue\\n",
                 warpsim(), s[k].carveout);
        char *out = lesson_run_cmd(cmd);
        for (int i = 0; i < 3; i++)
            if (!strstr(out, s[k].want[i]))
                fail_msg("carveout %d: no \"%s\":\n%s", s[k].carveout, s[k].want[i], out);
        free(out);
    }
    char *r = readme_squashed();
    static const char *const says[] = {"warp 0 stops at modelled cycle 88,666, after the warm-up pass, and its "
                                       "next three reads follow 5 to 6 cycles apart, the last at 88,682",
                                       "Warp 0's fifth read, the next iteration's first, waits until 89,304 at either "
                                       "carveout: the L1 hands data back in the order it took the loads",
                                       "its reads start at 89,348, and its fifth comes at 89,456, 108 cycles later, at "
                                       "carveout 0: its first reads hit L1",
                                       "With `--carveout 100` it comes at 90,094, 746 cycles later: they missed L1 and "
                                       "the L2 answered",
                                       NULL};
    for (const char *const *w = says; *w; w++)
        if (!strstr(r, *w))
            fail_msg("README.md no longer says \"%s\"", *w);
    free(r);
    char *raw = lesson_read_text("lessons/07-caches-carveout/README.md");
    assert_non_null(strstr(raw, "\nwarpsim step lessons/07-caches-carveout/kernel.ptx --kernel l1_gather"));
    assert_non_null(strstr(raw, "`warpsim grade 7"));
    free(raw);
    char cmd[256];
    snprintf(cmd, sizeof cmd, "%s lesson 7 </dev/null 2>&1", warpsim());
    char *out = lesson_run_cmd(cmd);
    if (!strstr(out, "Step through this lesson's kernel") || !strstr(out, "--kernel l1_gather"))
        fail_msg("%s", out);
    free(out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lesson07_is_listed),
        cmocka_unit_test(test_lesson07_every_claim_holds),
        cmocka_unit_test(test_lesson07_h100_figures_are_recorded),
        cmocka_unit_test(test_lesson07_xcheck_lines_parse_and_run),
        cmocka_unit_test(test_lesson07_shared_memory_configured_is_the_recordings),
        cmocka_unit_test(test_lesson07_picture_is_what_the_commands_give),
        cmocka_unit_test(test_lesson07_stepper_shows_an_l1_hit_and_a_miss),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
