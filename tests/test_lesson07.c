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
    assert_non_null(strstr(t, "17301696")); /* 132 x 128 KB and the constants' 6 sectors */
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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lesson07_is_listed),
        cmocka_unit_test(test_lesson07_every_claim_holds),
        cmocka_unit_test(test_lesson07_h100_figures_are_recorded),
        cmocka_unit_test(test_lesson07_xcheck_lines_parse_and_run),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
