/* test_lesson09.c: lesson 09 (asynchronous copies and pipelines) -- its
 * harness runs under the timing model and the race checker and every claim
 * its README makes holds (times and warp states move the way it says, the
 * early read is reported at the line it names), the H100 figures the README
 * quotes are those of traces/hw/timing-h100.json and timing-sass-h100.txt,
 * the lines its stepper commands name are the ones meant, and its
 * xcheck.txt launches run clean. */
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

#define DIR "lessons/09-async-copies"

static void test_lesson09_is_listed(void **st)
{
    (void)st;
    const Lesson *l = lesson_find("09-async-copies");
    assert_non_null(l);
    assert_int_equal(l->number, 9);
    assert_ptr_equal(lesson_find("9"), l);
    assert_ptr_equal(lesson_find("09"), l);
}

/* Each claim of the README, as the harness words its check: it must be
 * printed as holding, and the README must make it. */
static const LessonClaim claims[] = {
    {"holds:  the copy is a global load into a register and a shared store from it, once a tile",
     "The harness counts one global load and one shared store per thread and tile"},
    {"holds:  two block barriers a tile: after the copy and after the compute",
     "two block barriers a tile: one after the copy"},
    {"holds:  long_scoreboard (waiting for the global load) is where warps spend the most cycles",
     "long_scoreboard (waiting for the global load) is where warps spend the most cycles"},
    {"holds:  cp.async copies global to shared with no load or store instruction of the thread's own",
     "cp.async copies global to shared with no load or store instruction of the thread's own"},
    {"holds:  waited for at once, cp.async gains nothing: pipe_async1 is within 10% of pipe_sync",
     "waited for at once, cp.async gains nothing: pipe_async1 is within 10% of pipe_sync"},
    {"holds:  double buffered, pipe_async2 is at least 1.25x faster than pipe_async1",
     "Double buffered, pipe_async2 is at least 1.25x faster than pipe_async1"},
    {"holds:  long_scoreboard's share of the warps' cycles falls to under half of pipe_sync's",
     "long_scoreboard's share of the warps' cycles falls to under half of pipe_sync's"},
    {"holds:  double buffering wins at 4, 16 and 64 FMAs per thread (at least 1.15x)",
     "double buffering wins at 4, 16 and 64 FMAs per thread"},
    {"holds:  after cg::wait(block) every sum is right and the checker finds nothing",
     "After cg::wait(block) every sum is right and the checker finds nothing"},
    {"holds:  read before the wait, the checker reports a cp-async race at the early read's line",
     "Read before the wait, the checker reports a cp-async race at the early read's line"},
    {"holds:  the early sums are wrong: the copies had not landed", "the early sums are wrong: the copies had not landed"},
    {"holds:  on the default schedule every early read sees the tile as it was before the copy (zeros)",
     "On the default schedule every early read comes before any wait, so it sees the tile as it was before the copy"},
    {"holds:  in another order of the warps a few early reads find the copy landed: the result depends on the order",
     "In another order of the warps"},
};

static void test_lesson09_every_claim_holds(void **st)
{
    (void)st;
    int rc;
    char *t = lesson_output("9", DIR, &rc);
    char *raw = lesson_read_text(DIR "/README.md");
    char *r = lesson_squash(raw);
    if (rc || strstr(t, "WRONG"))
        fail_msg("lesson09_run returned %d:\n%s", rc, t);
    /* every step that runs asks before it answers */
    assert_int_equal(lesson_expect_claims(9, t, r, claims, sizeof claims / sizeof *claims), 3);
    /* the counts the README names */
    assert_non_null(strstr(t, "1 global load, 1 shared store;  per block and tile: 2 barriers"));
    assert_non_null(strstr(t, "early = 0: 1024 of 1024 sums right, 0 race finding(s)"));
    /* step 3's early read: all zeros on the default schedule, 10 right on a random one */
    assert_non_null(strstr(t, "early = 1: 0 of 1024 sums right (1024 are 0), 1 race finding(s)"));
    assert_non_null(strstr(r, "(zeros here: 1024 of 1024 sums are 0)"));
    assert_non_null(strstr(t, "early = 1, --schedule random --seed 1: 10 of 1024 sums right"));
    assert_non_null(strstr(r, "(`--schedule random --seed 1`) 10 of the 1024 sums come out right"));
    /* the work is a chain of FMAs per thread, not per element of the tile */
    assert_null(strstr(r, "per element"));
    assert_null(strstr(t, "per element"));
    /* the model's gains at 4, 16 and 64 FMAs grow as the H100's do (1.25x at 4,
     * 1.40x at 64), each above the H100's, as the README says */
    double g[3];
    const char *gains = strstr(t, "async1 / async2 ");
    assert_non_null(gains);
    assert_int_equal(sscanf(gains, "async1 / async2 %lfx %lfx %lfx", &g[0], &g[1], &g[2]), 3);
    if (!(g[0] <= g[1] && g[1] <= g[2] && g[2] > g[0] && g[0] > 1.25 && g[2] > 1.40))
        fail_msg("the model's gains %.2f %.2f %.2f: the README says they grow, each above the H100's", g[0], g[1],
                 g[2]);
    assert_non_null(strstr(r, "The model's three gains, in the lesson's output, grow the same way from 4 to 64 FMAs, "
                              "though less, each above the H100's"));
    /* the commands to look closer and the graded exercise */
    assert_non_null(strstr(r, "`warpsim step lessons/09-async-copies/kernel.ptx"));
    assert_non_null(strstr(r, "`warpsim viz s.wst a2.wst --view sm`"));
    assert_non_null(strstr(r, "`warpsim grade 9`"));
    /* the lines of the race, as the README names them */
    assert_non_null(strstr(t, "cp.async by thread 1 at kernel.cu:93"));
    assert_non_null(strstr(t, "at kernel.cu:97"));
    assert_non_null(strstr(r, "(kernel.cu:97, where the copy comes from line 93)"));
    /* the simulator's top state for the double buffer is the H100's */
    assert_non_null(strstr(t, "pipe_async2"));
    const char *row = strstr(t, "     pipe_async2 ");
    assert_non_null(row);
    const char *eol = strchr(row, '\n');
    const char *top = strstr(row, " wait");
    assert_true(top && top < eol);
    free(r);
    free(raw);
    free(t);
}

/* The stepper commands of the README stop at the lines they mean. */
static void test_lesson09_stepper_lines(void **st)
{
    (void)st;
    char *k = lesson_read_text(DIR "/kernel.cu");
    char *r = lesson_read_text(DIR "/README.md");
    const char *line = k;
    char want97[64] = "", want101[64] = "", want93[64] = "";
    for (int n = 1; line && *line; n++) {
        const char *eol = strchr(line, '\n');
        size_t len = eol ? (size_t)(eol - line) : strlen(line);
        char *l = strndup(line, len);
        if (n == 93)
            snprintf(want93, sizeof want93, "%s", strstr(l, "cg::memcpy_async(block") ? "ok" : l);
        if (n == 97)
            snprintf(want97, sizeof want97, "%s", strstr(l, "// too early") ? "ok" : l);
        if (n == 101)
            snprintf(want101, sizeof want101, "%s", strstr(l, "out[blockIdx.x") ? "ok" : l);
        free(l);
        line = eol ? eol + 1 : NULL;
    }
    if (strcmp(want93, "ok") || strcmp(want97, "ok") || strcmp(want101, "ok"))
        fail_msg("kernel.cu's lines 93, 97, 101 moved: \"%s\" \"%s\" \"%s\"", want93, want97, want101);
    assert_non_null(strstr(r, "`break 97`"));
    assert_non_null(strstr(r, "`break 101`"));
    free(r);
    free(k);
}

/* The number after "key": in launch `launch`'s object of the H100 recording. */
/* The first (largest) stall reason of launch `launch`. */
static void h100_top(const char *rec, const char *launch, char *out, size_t cap)
{
    char want[96];
    snprintf(want, sizeof want, "\"launch\": \"%s\"", launch);
    const char *a = strstr(rec, want);
    assert_non_null(a);
    const char *s = strstr(a, "\"stalls\": {\"");
    assert_non_null(s);
    s += strlen("\"stalls\": {\"");
    size_t n = strcspn(s, "\"");
    snprintf(out, cap, "%.*s", (int)n, s);
}

static void expect_row(const char *readme, const char *rec, const char *name, const char *launch, double base)
{
    char buf[160], top[32];
    double c = lesson_h100(rec, launch, "cycles");
    h100_top(rec, launch, top, sizeof top);
    snprintf(buf, sizeof buf, "| %s | %d,%03d | %.2fx | %.2f | %s |", name, (int)c / 1000, (int)c % 1000, base / c,
             lesson_h100(rec, launch, "long_scoreboard"), top);
    if (!strstr(readme, buf))
        fail_msg("README.md lacks the row \"%s\"", buf);
}

/* Every H100 figure of the README is the recording's; the ratios too. */
static void test_lesson09_h100_figures_are_recorded(void **st)
{
    (void)st;
    char *rec = lesson_read_text("traces/hw/timing-h100.json");
    char *raw = lesson_read_text(DIR "/README.md");
    char *r = lesson_squash(raw);
    double sync = lesson_h100(rec, "sync_w64", "cycles");
    expect_row(r, rec, "pipe_sync", "sync_w64", sync);
    expect_row(r, rec, "pipe_async1", "async1_w64", sync);
    expect_row(r, rec, "pipe_async2", "async2_w64", sync);
    char buf[160];
    snprintf(buf, sizeof buf, "long_scoreboard is its top stall reason for this launch, %.2f cycles per issued",
             lesson_h100(rec, "sync_w64", "long_scoreboard"));
    if (!strstr(r, buf))
        fail_msg("README.md lacks \"%s\"", buf);
    const char *st_key = "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum";
    double w = lesson_h100(rec, "sync_w64", st_key);
    snprintf(buf, sizeof buf, "counts %d,%03d shared-store wavefronts for `pipe_sync` and 0 for both", (int)w / 1000,
             (int)w % 1000);
    if (!strstr(r, buf))
        fail_msg("README.md lacks \"%s\"", buf);
    assert_true(lesson_h100(rec, "async1_w64", st_key) == 0 && lesson_h100(rec, "async2_w64", st_key) == 0);
    snprintf(buf, sizeof buf, "the H100 gains %.2fx at 4 FMAs against %.2fx at 64",
             lesson_h100(rec, "async1_w4", "cycles") / lesson_h100(rec, "async2_w4", "cycles"),
             lesson_h100(rec, "async1_w64", "cycles") / lesson_h100(rec, "async2_w64", "cycles"));
    if (!strstr(r, buf))
        fail_msg("README.md lacks \"%s\"", buf);
    /* the machine code step 4 quotes is pipe_async2's in the SASS recording */
    char *sass = lesson_read_text("traces/hw/timing-sass-h100.txt");
    const char *fn = strstr(sass, "Function : pipe_async2");
    assert_non_null(fn);
    const char *next = strstr(fn + 1, "Function : ");
    static const char *ops[] = {"LDGSTS.E.BYPASS.128", "LDGDEPBAR", "DEPBAR.LE SB0, 0x1"};
    for (size_t i = 0; i < sizeof ops / sizeof *ops; i++) {
        const char *at = strstr(fn, ops[i]);
        if (!at || (next && at > next))
            fail_msg("timing-sass-h100.txt: pipe_async2 has no %s", ops[i]);
        snprintf(buf, sizeof buf, "`%s`", ops[i]);
        if (!strstr(r, buf))
            fail_msg("README.md does not quote %s", buf);
    }
    free(sass);
    free(r);
    free(raw);
    free(rec);
}

/* Step 4: alignment_of stores 0 0 0 12 in the simulator, as the README
 * says, and the H100's recording holds the same. */
static void test_lesson09_alignment_as_the_readme_says(void **st)
{
    (void)st;
    const char *w = getenv("WARPSIM");
    char cmd[512];
    snprintf(cmd, sizeof cmd,
             "%s run " DIR "/kernel.ptx --kernel alignment_of --grid 1 --block 32 --arg buf:f32[3]=fill:0 "
             "--arg buf:f32[1000]=fill:0 --arg buf:u32[4]=fill:0 2>&1",
             w ? w : "build/warpsim");
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    static char out[1 << 14];
    out[fread(out, 1, sizeof out - 1, p)] = 0;
    assert_int_equal(pclose(p), 0);
    if (!strstr(out, "arg 2  u32[4]: 0 0 0 12\n"))
        fail_msg("alignment_of:\n%s", out);
    char *raw = lesson_read_text(DIR "/README.md"), *r = lesson_squash(raw);
    assert_non_null(strstr(r, "--arg buf:f32[3]=fill:0 --arg buf:f32[1000]=fill:0 --arg buf:u32[4]=fill:0` prints "
                              "`u32[4]: 0 0 0 12`, and the H100 stored the same"));
    char *rec = lesson_read_text("traces/hw/nvidia-h100-80gb-hbm3/xcheck.json");
    const char *a = strstr(rec, "\"line\": \"--kernel alignment_of ");
    assert_non_null(a);
    const char *h = strstr(a, "\"hex\": \"00000000 00000000 00000000 0000000c\"");
    const char *next = strstr(a + 1, "\"line\": ");
    assert_true(h && (!next || h < next));
    free(rec);
    free(r);
    free(raw);
}

static void test_lesson09_xcheck_lines_parse_and_run(void **st)
{
    (void)st;
    const char *out = lesson_xcheck_runs("09-async-copies", 7);
    assert_non_null(strstr(out, "7 launches checked, 0 mismatches"));
    /* step 4: cudaMalloc's alignment, as the README says */
    assert_non_null(strstr(out, "alignment_of"));
}

/* The kernels whose H100 figures the lesson quotes are the timing suite's
 * own, instruction for instruction. */
static void test_lesson09_kernels_are_the_timing_suites(void **s)
{
    (void)s;
    expect_same_entry("lessons/09-async-copies/kernel.ptx", "tests/timing/async.ptx", "pipe_sync");
    expect_same_entry("lessons/09-async-copies/kernel.ptx", "tests/timing/async.ptx", "pipe_async1");
    expect_same_entry("lessons/09-async-copies/kernel.ptx", "tests/timing/async.ptx", "pipe_async2");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lesson09_kernels_are_the_timing_suites),
        cmocka_unit_test(test_lesson09_is_listed),
        cmocka_unit_test(test_lesson09_every_claim_holds),
        cmocka_unit_test(test_lesson09_stepper_lines),
        cmocka_unit_test(test_lesson09_h100_figures_are_recorded),
        cmocka_unit_test(test_lesson09_alignment_as_the_readme_says),
        cmocka_unit_test(test_lesson09_xcheck_lines_parse_and_run),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
