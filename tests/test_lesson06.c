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
#include <unistd.h>

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
    {"holds:  in all three, long_scoreboard leads with over 60% of warp-cycles",
     "In all three, `long_scoreboard` leads with over 60% of warp-cycles"},
    {"holds:  load_1 takes at least 2x as long as load_4 and as load_v4",
     "`load_1` takes at least 2x as long as `load_4` and as `load_v4`"},
    {"holds:  load_4 and load_v4, 16 bytes in flight each, take the same time within 20%",
     "`load_4` and `load_v4`, 16 bytes in flight each, take the same time within 20%"},
    {"holds:  load_v4 issues fewer instructions than load_4", "`load_v4` issues fewer instructions than `load_4`"},
    {"holds:  load_v4 moves at least 2x load_1's bytes a cycle, and still under half of what DRAM can give",
     "`load_v4` moves at least 2x `load_1`'s bytes a cycle, and still under half of what DRAM can give"},
    {"holds:  a division costs at least 2.5x a multiply, at 1 and at 8 warps per scheduler",
     "A division costs at least 2.5x a multiply, at 1 and at 8 warps per scheduler"},
    {"holds:  the sine's warps wait longer in short_scoreboard than the multiply's, and most there",
     "The sine's warps wait longer in `short_scoreboard` than the multiply's, and most there"},
    {"holds:  with 8 warps per scheduler, math_pipe_throttle leads in all three",
     "With 8 warps per scheduler, `math_pipe_throttle` leads in all three"},
    {"holds:  all four on scheduler 0 take at least 1.8x as long on the SMs as one each",
     "All four on scheduler 0 take at least 1.8x as long on the SMs as one each"},
    {"holds:  two schedulers land in between", "two schedulers land in between"},
    {"holds:  on one scheduler over 40% of warp-cycles wait for its pipe or issue slot (math_pipe_throttle and "
     "not_selected), on four under 10%",
     "On one scheduler over 40% of warp-cycles wait for its pipe or issue slot (`math_pipe_throttle` and "
     "`not_selected`), on four under 10%"},
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

static const char *warpsim(void)
{
    const char *w = getenv("WARPSIM");
    return w ? w : "build/warpsim";
}

static char *readme_squashed(void)
{
    char *raw = lesson_read_text("lessons/06-latency-throughput/README.md"), *r = lesson_squash(raw);
    free(raw);
    return r;
}

/* Step 1: the model gets both gains but not their order -- in it 8 warps
 * finish before 4 chains, on the H100 the 4 chains do (by 1%); both its
 * ratios are smaller than the H100's, the one for 4 chains the smaller.  The
 * harness prints both pairs of ratios, the H100's from the recording. */
static void test_lesson06_ilp_and_tlp_against_the_h100(void **st)
{
    (void)st;
    int rc;
    char *t = lesson_output("6", "lessons/06-latency-throughput", &rc);
    double m_ilp, m_tlp, h_ilp, h_tlp, c_ilp, c_tlp;
    const char *a = strstr(t, "In all cycles 1 chain takes ");
    assert_non_null(a);
    if (sscanf(a, "In all cycles 1 chain takes %lfx as long as 4 chains and %lfx as long as 8 warps here; "
                  "the H100 took %lfx and %lfx",
               &m_ilp, &m_tlp, &h_ilp, &h_tlp) != 4)
        fail_msg("%.300s", a);
    const char *r4 = strstr(t, "     4 chains (ILP) "), *r8 = strstr(t, "     8 warps/scheduler (TLP) ");
    assert_non_null(r4);
    assert_non_null(r8);
    assert_int_equal(sscanf(r4 + strlen("     4 chains (ILP) "), "%lf", &c_ilp), 1);
    assert_int_equal(sscanf(r8 + strlen("     8 warps/scheduler (TLP) "), "%lf", &c_tlp), 1);
    char *rec = lesson_read_text("traces/hw/timing-h100.json");
    double w1 = lesson_h100(rec, "ilp1_w1", "cycles"), i4 = lesson_h100(rec, "ilp4_w1", "cycles"),
           w8 = lesson_h100(rec, "ilp1_w8", "cycles");
    free(rec);
    char want[64], got[64];
    snprintf(want, sizeof want, "%.2f %.2f", w1 / i4, w1 / w8);
    snprintf(got, sizeof got, "%.2f %.2f", h_ilp, h_tlp);
    assert_string_equal(got, want);
    /* what the README says of them */
    if (!(m_ilp > 1 && m_tlp > 1 && m_ilp < w1 / i4 && m_tlp < w1 / w8 && m_ilp < m_tlp && c_tlp < c_ilp && i4 < w8 &&
          (w8 - i4) / i4 < 0.015))
        fail_msg("the README's comparison no longer holds: model %.2fx, %.2fx (%g, %g cycles); H100 %.2fx, %.2fx",
                 m_ilp, m_tlp, c_ilp, c_tlp, w1 / i4, w1 / w8);
    char *r = readme_squashed();
    assert_non_null(strstr(r, "both smaller than the H100's and 4 chains worth less than 8 warps, so in the model the 8 "
                              "warps finish first, on the H100 the 4 chains (by 1%)"));
    assert_null(strstr(r, "same order with smaller ratios"));
    free(r);
    free(t);
}

/* The H100's CUDA-event times the README quotes are the recording's:
 * steps 2, 3 and 4. */
static void test_lesson06_h100_event_times_are_recorded(void **st)
{
    (void)st;
    static const struct {
        const char *line;    /* the recorded launch line, from its start */
        const char *readme;  /* the README's words before the time */
    } t[] = {
        {"--kernel load_1 --grid 264 ", "`load_1` "},
        {"--kernel load_4 --grid 264 ", "`load_4` "},
        {"--kernel load_v4 --grid 264 ", "`load_v4` "},
        {"--kernel op_div --grid 132 --block 128 --arg buf:u32[1]=fill:0 --arg i32:2048 ", "took "},
        {"faster-than 38 BY 2.5 --kernel op_mul --grid 132 --block 128 --arg buf:u32[1]=fill:0 --arg i32:2048 ", "and "},
        {"--kernel busy_warps --grid 132 --block 512 --arg buf:f32[4]=fill:0 --arg i32:512 --arg i32:1 ", ": "},
        {"--kernel busy_warps --grid 132 --block 512 --arg buf:f32[4]=fill:0 --arg i32:512 --arg i32:2 ", "schedulers, "},
        {"--kernel busy_warps --grid 132 --block 512 --arg buf:f32[4]=fill:0 --arg i32:512 --arg i32:4 ", "two, "},
    };
    XcheckRecording rec;
    char msg[512];
    if (!xcheck_recording_read("traces/hw/nvidia-h100-80gb-hbm3/xcheck.json", &rec, msg, sizeof msg))
        fail_msg("%s", msg);
    char *r = readme_squashed();
    double tm[8];
    for (size_t k = 0; k < sizeof t / sizeof *t; k++) {
        const XcheckRef *ref = NULL;
        for (int l = 0; l < rec.n && !ref; l++)
            for (int i = 0; !ref && !strcmp(rec.lessons[l].slug, "06-latency-throughput") && i < rec.lessons[l].n; i++)
                if (!strncmp(rec.lessons[l].refs[i].line, t[k].line, strlen(t[k].line)))
                    ref = &rec.lessons[l].refs[i];
        if (!ref)
            fail_msg("the recording has no launch %s", t[k].line);
        tm[k] = ref->time;
        char want[96];
        snprintf(want, sizeof want, "%s%.5f ms", t[k].readme, ref->time);
        if (!strstr(r, want))
            fail_msg("README.md does not quote the recorded \"%s\"", want);
    }
    char want[64];
    snprintf(want, sizeof want, "%.2fx, where the model gives", tm[3] / tm[4]);
    if (!strstr(r, want))
        fail_msg("README.md lacks \"%s\"", want);
    snprintf(want, sizeof want, "one scheduler %.2fx as long", tm[7] / tm[5]);
    if (!strstr(r, want))
        fail_msg("README.md lacks \"%s\"", want);
    assert_true(tm[6] / tm[5] < 1.05); /* "two hardly longer than four" */
    assert_null(strstr(r, "for the next recording to judge"));
    free(r);
    xcheck_recording_free(&rec);
}

/* Step 3: the division's cost judged on both sides, as the README says
 * (`warpsim xcheck 6 --recorded`), and the SASS sequence it cites. */
static void test_lesson06_division_judged_on_the_model_and_the_h100(void **st)
{
    (void)st;
    char cmd[256];
    snprintf(cmd, sizeof cmd, "%s xcheck 6 --recorded 2>&1", warpsim());
    char *out = lesson_run_cmd(cmd);
    const char *c = strstr(out, "time: op_mul (line 39) faster than op_div (line 38) by 2.5x");
    if (!c || !strstr(out, " 0 mismatches") || !strstr(out, "2 time claims judged, 0 failing"))
        fail_msg("%s", out);
    double sim, hw;
    const char *s = strstr(c, " cycles = "), *h = strstr(c, " ms = ");
    assert_non_null(s);
    assert_non_null(h);
    assert_int_equal(sscanf(s, " cycles = %lfx", &sim), 1);
    assert_int_equal(sscanf(h, " ms = %lfx", &hw), 1);
    char want[64];
    snprintf(want, sizeof want, "%.2fx, where the model gives %.2fx", hw, sim);
    char *r = readme_squashed();
    if (!strstr(r, want))
        fail_msg("README.md lacks \"%s\"", want);
    free(r);
    free(out);
    char *sass = lesson_read_text("traces/hw/timing-sass-h100.txt");
    const char *f = strstr(sass, "Function : mb_chase_init");
    assert_non_null(f);
    const char *next = strstr(f + 1, "Function : ");
    const char *i2f = strstr(f, "I2F.U32.RP"), *rcp = strstr(f, "MUFU.RCP"), *hi = strstr(f, "IMAD.HI.U32");
    assert_true(i2f && rcp && hi && (!next || (i2f < next && rcp < next && hi < next)));
    free(sass);
}

/* The stepper sessions of "Step through it" stop at the modelled cycles the
 * README names, and the busy_warps trace has warps 0, 4, 8 and 12 at work
 * at cycle 2,000 with the other twelve gone. */
static void test_lesson06_stepper_and_viz_show_what_the_readme_says(void **st)
{
    (void)st;
    static const struct {
        const char *kernel, *args, *script;
        const char *want[4];
    } s[] = {
        {"fma_ilp1", "--arg 'buf:f32[1]=fill:0' --arg i32:8 --arg f32:0.999 --arg f32:0.5",
         "step 12\\nstep\\nstep\\nstep\\nstep\\nstep 4\\n",
         {"modelled cycle 800, issuing] kernel.cu:35  fma.rn.f32", "modelled cycle 804, issuing] kernel.cu:35  fma.rn.f32",
          "modelled cycle 812, issuing] kernel.cu:35  fma.rn.f32", "modelled cycle 827, issuing] kernel.cu:35  fma.rn.f32"}},
        {"fma_ilp4", "--arg 'buf:f32[1]=fill:0' --arg i32:8 --arg f32:0.999 --arg f32:0.5", "step 19\\nstep 15\\nstep 4\\n",
         {"modelled cycle 800, issuing] kernel.cu:36  fma.rn.f32", "modelled cycle 818, issuing] kernel.cu:36  fma.rn.f32",
          "modelled cycle 835, issuing] kernel.cu:36  fma.rn.f32", NULL}},
        {"op_div", "--arg 'buf:u32[1]=fill:0' --arg i32:8 --arg u32:7", "step 15\\nstep\\nstep\\n",
         {"modelled cycle 802, issuing] kernel.cu:111  div.u32", "modelled cycle 862, issuing] kernel.cu:111  add.s32",
          "modelled cycle 866, issuing] kernel.cu:111  div.u32", NULL}},
    };
    for (size_t k = 0; k < sizeof s / sizeof *s; k++) {
        char cmd[1024];
        snprintf(cmd, sizeof cmd,
                 "printf '%s' | %s step lessons/06-latency-throughput/kernel.ptx --kernel %s --grid 1 --block 32 "
                 "--timing %s 2>&1",
                 s[k].script, warpsim(), s[k].kernel, s[k].args);
        char *out = lesson_run_cmd(cmd);
        for (int i = 0; i < 4 && s[k].want[i]; i++)
            if (!strstr(out, s[k].want[i]))
                fail_msg("%s: no \"%s\":\n%s", s[k].kernel, s[k].want[i], out);
        free(out);
    }
    char *r = readme_squashed();
    static const char *const says[] = {"the four dependent `fma`s of an iteration issue at cycles 800, 804, 808, 812, "
                                       "each 4 cycles (the FMA's latency)",
                                       "`step 4` reaches the next iteration's first `fma` at cycle 827: 27 cycles for "
                                       "four FMAs",
                                       "the four chains' 16 `fma`s issue from cycle 800 to 818 and the next iteration "
                                       "starts at 835: 35 cycles for four times the FMAs",
                                       "`step 15`, `step`, `step`: the `div.u32` issues at cycle 802, the `add` that "
                                       "needs its result waits until 862, and the next `div.u32`, which needs the "
                                       "`add`'s, issues at 866, 64 cycles after the first",
                                       "Warps 0, 4, 8 and 12, all on scheduler 0, are still at work", NULL};
    for (const char *const *w = says; *w; w++)
        if (!strstr(r, *w))
            fail_msg("README.md no longer says \"%s\"", *w);
    free(r);
    char *out = lesson_trace_dump(warpsim(), "lessons/06-latency-throughput/kernel.ptx --kernel busy_warps --grid 1 --block 512 --timing "
                                  "--arg 'buf:f32[4]=fill:0' --arg i32:64 --arg i32:4 --arg f32:0.999", "warps");
    int ended[16];
    for (int w = 0; w < 16; w++)
        ended[w] = -1;
    for (const char *l = out; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
        long cyc, block;
        int w;
        if (sscanf(l, "%ld %ld turn w%d", &cyc, &block, &w) == 3 && w >= 0 && w < 16)
            ended[w] = (int)cyc;
    }
    for (int w = 0; w < 16; w++)
        if (ended[w] < 0 || (w % 4 == 0) != (ended[w] > 2000))
            fail_msg("warp %d ended at cycle %d:\n%.3000s", w, ended[w], out);
    free(out);
    char *raw = lesson_read_text("lessons/06-latency-throughput/README.md");
    assert_non_null(strstr(raw, "\nwarpsim step lessons/06-latency-throughput/kernel.ptx --kernel fma_ilp1"));
    assert_non_null(strstr(raw, "\nwarpsim viz b.wst --view sm --at 2000"));
    assert_non_null(strstr(raw, "`warpsim grade 6`"));
    free(raw);
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "%s lesson 6 </dev/null 2>&1", warpsim());
    out = lesson_run_cmd(cmd);
    if (!strstr(out, "Step through this lesson's kernel") || !strstr(out, "warpsim viz lesson.wst"))
        fail_msg("%s", out);
    free(out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lesson06_kernels_are_the_timing_suites),
        cmocka_unit_test(test_lesson06_is_listed),
        cmocka_unit_test(test_lesson06_every_claim_holds),
        cmocka_unit_test(test_lesson06_h100_figures_are_recorded),
        cmocka_unit_test(test_lesson06_xcheck_lines_parse_and_run),
        cmocka_unit_test(test_lesson06_ilp_and_tlp_against_the_h100),
        cmocka_unit_test(test_lesson06_h100_event_times_are_recorded),
        cmocka_unit_test(test_lesson06_division_judged_on_the_model_and_the_h100),
        cmocka_unit_test(test_lesson06_stepper_and_viz_show_what_the_readme_says),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
