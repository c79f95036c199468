/* test_lesson06.c: lesson 06 (latency and throughput) -- its harness runs
 * under the timing model and every claim its README makes holds (times and
 * warp states move the way it says, by the ratios it names), the H100
 * figures the README quotes are those of traces/hw/timing-h100.json and
 * timing-microbench-h100.json, and its xcheck.txt launches run clean. */
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

static void test_lesson06_is_listed(void **st)
{
    (void)st;
    const Lesson *l = lesson_find("06-latency-throughput");
    assert_non_null(l);
    assert_int_equal(l->number, 6);
    assert_ptr_equal(lesson_find("6"), l);
    assert_ptr_equal(lesson_find("06"), l);
}

/* Each claim of the README, as the harness words its check: it must be
 * printed as holding, and the README must make it. */
static const LessonClaim claims[] = {
    {"holds:  one chain: most warp-cycles are `wait`", "most warp-cycles are `wait`, a fixed-latency dependency"},
    {"holds:  4 independent chains take less time: 1 chain is at least 1.4x as long (1.8x on the SMs)",
     "1 chain is at least 1.4x as long (1.8x on the SMs)"},
    {"holds:  8 warps per scheduler hide the latency too: at least 1.8x faster on the SMs",
     "the single chain is at least 1.8x slower on the SMs"},
    {"holds:  with 8 warps, `wait` falls to under half its share", "`wait` falls to under half its share"},
    {"holds:  in all three, over 75% of warp-cycles are long_scoreboard",
     "In all three, over 75% of warp-cycles are `long_scoreboard`"},
    {"holds:  load_1 takes at least 2x as long as load_4 and as load_v4",
     "`load_1` takes at least 2x as long as `load_4` and as `load_v4`"},
    {"holds:  load_4 and load_v4, 16 bytes in flight each, take the same time within 20%",
     "`load_4` and `load_v4`, 16 bytes in flight each, take the same time within 20%"},
    {"holds:  load_v4 issues fewer instructions than load_4", "`load_v4` issues fewer instructions than `load_4`"},
    {"holds:  load_v4 moves at least 2x load_1's bytes a cycle, and still under half of what DRAM can give",
     "`load_v4` moves at least 2x `load_1`'s bytes a cycle, and still under half of what DRAM can give"},
    {"holds:  a division costs at least 2.5x a multiply, at 1 and at 8 warps per scheduler",
     "A division costs at least 2.5x a multiply, at 1 and at 8 warps per scheduler"},
    {"holds:  the sine's warps wait mostly in short_scoreboard", "The sine's warps wait mostly in `short_scoreboard`"},
    {"holds:  with 8 warps per scheduler, math_pipe_throttle leads in all three",
     "With 8 warps per scheduler, `math_pipe_throttle` leads in all three"},
    {"holds:  all four on scheduler 0 take at least 1.8x as long on the SMs as one each",
     "All four on scheduler 0 take at least 1.8x as long on the SMs as one each"},
    {"holds:  two schedulers land in between", "two schedulers land in between"},
    {"holds:  on one scheduler the warps wait for its pipe or issue slot (math_pipe_throttle or not_selected)",
     "On one scheduler the warps wait for its pipe or issue slot (`math_pipe_throttle` or `not_selected`)"},
};

static void test_lesson06_every_claim_holds(void **st)
{
    (void)st;
    int rc;
    char *t = lesson_output("6", "lessons/06-latency-throughput", &rc);
    char *raw = lesson_read_text("lessons/06-latency-throughput/README.md");
    char *r = lesson_squash(raw);
    if (rc || strstr(t, "WRONG"))
        fail_msg("lesson06_run returned %d:\n%s", rc, t);
    /* every step asks before it answers, and every check of the harness is
     * one of the claims above */
    assert_int_equal(lesson_expect_claims(6, t, r, claims, sizeof claims / sizeof *claims), 4);
    const char *q;
    int holds = 0;
    for (q = t; (q = strstr(q, "holds:")) != NULL; q++)
        holds++;
    assert_int_equal(holds, (int)(sizeof claims / sizeof *claims));
    /* the figures the README derives: latency x bandwidth */
    assert_non_null(strstr(t, "574 x 1948 = 1092 KB for the GPU, 8.3 KB"));
    assert_non_null(strstr(r, "574 x 1,948 = about 1.1 MB must be in flight for the whole GPU, 8.3 KB per SM"));
    free(r);
    free(raw);
    free(t);
}

/* The number after "key": in launch `launch`'s object of the H100 recording. */
/* The number after "key": within the object of `name` in the microbenchmarks. */
static double micro(const char *rec, const char *name, const char *key)
{
    char want[96];
    snprintf(want, sizeof want, "\"%s\": {", name);
    const char *a = strstr(rec, want);
    if (!a)
        fail_msg("timing-microbench-h100.json has no %s", name);
    const char *end = strchr(a + strlen(want), '}');
    snprintf(want, sizeof want, "\"%s\": ", key);
    const char *k = strstr(a, want);
    if (!k || k > end)
        fail_msg("timing-microbench-h100.json: %s has no %s", name, key);
    return strtod(k + strlen(want), NULL);
}

static void expect_row(const char *r, const char *rec, const char *launch)
{
    char buf[96];
    double c = lesson_h100(rec, launch, "cycles"), a = lesson_h100(rec, launch, "sm__cycles_active.avg");
    snprintf(buf, sizeof buf, "(`%s`) | %d,%03d | %d,%03d | %.2f%% |", launch, (int)c / 1000, (int)c % 1000,
             (int)(a + 0.5) / 1000, (int)(a + 0.5) % 1000, lesson_h100(rec, launch, "achieved_occupancy_pct"));
    if (!strstr(r, buf))
        fail_msg("README.md lacks the H100 row \"%s\"", buf);
}

/* Every H100 figure of the README is a recording's; the ratios too. */
static void test_lesson06_h100_figures_are_recorded(void **st)
{
    (void)st;
    char *rec = lesson_read_text("traces/hw/timing-h100.json");
    char *mb = lesson_read_text("traces/hw/timing-microbench-h100.json");
    char *raw = lesson_read_text("lessons/06-latency-throughput/README.md");
    char *r = lesson_squash(raw);
    expect_row(r, rec, "ilp1_w1");
    expect_row(r, rec, "ilp4_w1");
    expect_row(r, rec, "ilp1_w8");
    double w1 = lesson_h100(rec, "ilp1_w1", "cycles"), i4 = lesson_h100(rec, "ilp4_w1", "cycles"), w8 = lesson_h100(rec, "ilp1_w8", "cycles");
    char buf[128];
    snprintf(buf, sizeof buf, "1 chain takes %.2fx the cycles of 4 chains on the H100, %.2fx those of 8 warps", w1 / i4,
             w1 / w8);
    if (!strstr(r, buf))
        fail_msg("README.md lacks \"%s\"", buf);
    snprintf(buf, sizeof buf, "(%.2f measured on the H100", micro(mb, "fma_dependent_latency", "cycles_base_clock"));
    if (!strstr(r, buf))
        fail_msg("README.md lacks \"%s\"", buf);
    snprintf(buf, sizeof buf, "about %.0f cycles later", micro(mb, "dram_latency", "cycles_base_clock"));
    if (!strstr(r, buf))
        fail_msg("README.md lacks \"%s\"", buf);
    double bw = micro(mb, "dram_read_bandwidth", "bytes_per_cycle_base_clock");
    snprintf(buf, sizeof buf, "(%d,%03d bytes a cycle on the H100", (int)(bw + 0.5) / 1000, (int)(bw + 0.5) % 1000);
    if (!strstr(r, buf))
        fail_msg("README.md lacks \"%s\"", buf);
    free(r);
    free(raw);
    free(mb);
    free(rec);
}

static void test_lesson06_xcheck_lines_parse_and_run(void **st)
{
    (void)st;
    const char *out = lesson_xcheck_runs("06-latency-throughput", 18);
    assert_non_null(strstr(out, "18 launches checked, 0 mismatches"));
    /* the time claims the next recording judges on the H100 hold in the model */
    assert_non_null(strstr(out, "time: load_v4 (line 36) faster than load_1 (line 16) by 1.5x"));
    assert_non_null(strstr(out, "time: op_mul (line 39) faster than op_div (line 38) by 2.5x"));
    assert_non_null(strstr(out, "2 time claims judged, 0 failing"));
}

/* The kernels whose H100 figures the lesson quotes are the timing suite's
 * own, instruction for instruction. */
static void test_lesson06_kernels_are_the_timing_suites(void **s)
{
    (void)s;
    expect_same_entry("lessons/06-latency-throughput/kernel.ptx", "tests/timing/compute.ptx", "fma_ilp1");
    expect_same_entry("lessons/06-latency-throughput/kernel.ptx", "tests/timing/compute.ptx", "fma_ilp4");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lesson06_kernels_are_the_timing_suites),
        cmocka_unit_test(test_lesson06_is_listed),
        cmocka_unit_test(test_lesson06_every_claim_holds),
        cmocka_unit_test(test_lesson06_h100_figures_are_recorded),
        cmocka_unit_test(test_lesson06_xcheck_lines_parse_and_run),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
