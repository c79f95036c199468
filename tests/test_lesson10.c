/* test_lesson10.c: lesson 10 (cooperative groups) -- its harness runs and
 * every claim its README makes holds (tiles and their shuffles, the
 * grid-wide sum by two launches and by a cooperative launch, the wrong sum
 * of __syncthreads(), the trap and the refusal, the cost of a grid barrier
 * in the timing model, CUB); its xcheck.txt launches parse, carry
 * --cooperative and run clean, also through a recording and back; and the
 * H100 recording the README cites is there. */
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

#define SLUG "10-cooperative-groups"

static void test_lesson10_is_listed(void **st)
{
    (void)st;
    const Lesson *l = lesson_find(SLUG);
    assert_non_null(l);
    assert_int_equal(l->number, 10);
    assert_ptr_equal(lesson_find("10"), l);
    assert_non_null(l->run);
}

/* Each claim of the README, as the harness words its check: it must be
 * printed as holding, and the README must make it. */
static const LessonClaim claims[] = {
    {"holds:  a tile of 32 is a warp: the same two sums, 496 and 1520", "A tile of 32 is a warp: the same two sums, 496 and 1520"},
    {"holds:  a tile of 16 sums its own 16 values (0 + ... + 15 = 120), one sum per tile",
     "A tile of 16\nsums its own 16 values (0 + ... + 15 = 120): four sums, one per tile"},
    {"holds:  tiles of 16 and of 8 cover the block: their sums add to 2016", "Their sums add to 2016"},
    {"holds:  inside the tile both give lane i+4's value (thread 11 gets 15)",
     "Inside the tile both give lane i+4's value (thread 11 gets 15)"},
    {"holds:  a tile of 16's lanes 12..15 get their own value back: its shuffle does not cross into the next tile",
     "a tile of 16's\nlanes 12..15 get their own value back"},
    {"holds:  the warp's shuffle does not cross into the next warp either (thread 28 gets 28)", "thread 28\ngets 28"},
    {"holds:  two launches and one cooperative launch with grid.sync() both count 1048576", "Both count 1048576"},
    {"holds:  with __syncthreads() the sum is wrong under every schedule, and not always the same wrong sum",
     "With `__syncthreads()` the sum is wrong under every schedule"},
    {"holds:  without a cooperative launch grid.sync() has no barrier to use: the kernel traps",
     "`grid.sync()` has no barrier to use: the kernel traps"},
    {"holds:  2048 threads per SM: 8 blocks of 256 or 2 of 1024 on each of 132 SMs",
     "with 2048 threads per SM, 8 blocks of 256 or 2 of 1024\non each of 132 SMs"},
    {"holds:  1056 blocks launch; 1057 are refused before they start (cudaErrorCooperativeLaunchTooLarge)",
     "1056 blocks launch; 1057 are refused before they start\n(`cudaErrorCooperativeLaunchTooLarge`)"},
    {"holds:  a grid barrier costs at least 5 times a block barrier", "A grid barrier costs at least 5 times a block barrier"},
    {"holds:  sync_grid's warps wait mostly in the `barrier` state", "`sync_grid`'s warps wait mostly in the `barrier` state"},
    {"holds:  one cooperative launch is faster: it saves a launch overhead and pays one grid barrier",
     "one cooperative launch is faster: it saves a launch overhead"},
    {"holds:  CUB's block and warp sums are the hand-written ones, in one line each",
     "CUB's block and warp sums are the hand-written ones, in one line each"},
};

static void test_lesson10_every_claim_holds(void **st)
{
    (void)st;
    int rc;
    char *t = lesson_output("10", "lessons/" SLUG, &rc);
    char *raw = lesson_read_text("lessons/" SLUG "/README.md");
    if (rc || strstr(t, "WRONG"))
        fail_msg("lesson10_run returned %d:\n%s", rc, t);
    /* the README's claims, whatever its line breaks */
    char *r = lesson_squash(raw);
    LessonClaim sq[sizeof claims / sizeof *claims];
    char *keep[sizeof claims / sizeof *claims];
    for (size_t i = 0; i < sizeof claims / sizeof *claims; i++) {
        keep[i] = lesson_squash(claims[i].readme);
        sq[i] = (LessonClaim){claims[i].harness, keep[i]};
    }
    /* every step asks before it answers */
    assert_int_equal(lesson_expect_claims(10, t, r, sq, sizeof sq / sizeof *sq), 7);
    /* figures the README names, as the harness prints them */
    assert_non_null(strstr(t, "tiles of 16   120 376 632 888"));
    assert_non_null(strstr(t, "default schedule                                  8192"));
    assert_non_null(strstr(r, "(the default: 8192, block 0's own share)"));
    assert_non_null(strstr(t, "but 132 SMs hold 8 blocks each of this kernel (1056 in all)"));
    for (size_t i = 0; i < sizeof claims / sizeof *claims; i++)
        free(keep[i]);
    free(r);
    free(raw);
    free(t);
}

/* The PTX the README quotes: a tile of 16's shuffle is shfl.sync with
 * clamp 4127 (0x101f), the warp's with 31. */
static void test_lesson10_tile_shuffle_is_the_warps_with_a_segment(void **st)
{
    (void)st;
    char *tile = lesson_entry_text("lessons/" SLUG "/kernel.ptx", "shfl_tile16");
    char *warp = lesson_entry_text("lessons/" SLUG "/kernel.ptx", "shfl_warp");
    assert_non_null(strstr(tile, "shfl.sync.down.b32"));
    assert_non_null(strstr(tile, "mov.u32 \t%r11, 4127;"));
    assert_non_null(strstr(warp, "shfl.sync.down.b32"));
    assert_null(strstr(warp, "4127"));
    free(tile);
    free(warp);
}

static int count(const char *text, const char *what)
{
    int n = 0;
    for (const char *p = text; (p = strstr(p, what)) != NULL; p++)
        n++;
    return n;
}

/* The README: cg::reduce is one redux.sync on tiles of 32 and 16 ints,
 * three shuffles on a tile of 8; the hand-written sum five. */
static void test_lesson10_reduce_is_one_redux_on_16_and_32(void **st)
{
    (void)st;
    static const struct {
        const char *entry;
        int redux, shfl;
    } want[] = {{"tile32_sum", 1, 0}, {"tile16_sum", 1, 0}, {"tile8_sum", 0, 3}, {"warp_sum_shfl", 0, 5}};
    for (size_t i = 0; i < sizeof want / sizeof *want; i++) {
        char *e = lesson_entry_text("lessons/" SLUG "/kernel.ptx", want[i].entry);
        if (count(e, "redux.sync") != want[i].redux || count(e, "shfl.sync") != want[i].shfl)
            fail_msg("%s: %d redux.sync and %d shfl.sync, the README says %d and %d", want[i].entry,
                     count(e, "redux.sync"), count(e, "shfl.sync"), want[i].redux, want[i].shfl);
        free(e);
    }
    char *raw = lesson_read_text("lessons/" SLUG "/README.md"), *r = lesson_squash(raw);
    free(raw);
    assert_non_null(strstr(r, "`cg::reduce` over a tile of 32 or 16 ints is a single `redux.sync` instruction"));
    assert_non_null(strstr(r, "over a tile of 8 three `shfl.sync` steps; by hand it is five"));
    free(r);
}

/* xcheck lines carry --cooperative: the parsed launch is cooperative, and
 * the lesson's launches run clean on a second simulator. */
static void test_lesson10_xcheck_lines_parse_and_run(void **st)
{
    (void)st;
    XcheckLaunch *ls;
    int n, coop = 0;
    char msg[512];
    if (!xcheck_read_file("lessons/" SLUG "/xcheck.txt", &ls, &n, msg, sizeof msg))
        fail_msg("%s", msg);
    for (int i = 0; i < n; i++) {
        bool want = strstr(ls[i].line, "--cooperative") != NULL;
        assert_int_equal(ls[i].spec.cooperative, want);
        coop += want;
        xcheck_launch_free(&ls[i]);
    }
    free(ls);
    assert_int_equal(coop, 3);
    const char *out = lesson_xcheck_runs(SLUG, 14);
    assert_non_null(strstr(out, "14 launches checked, 0 mismatches"));
    assert_non_null(strstr(out, "1 time claim judged, 0 failing"));
}

/* A recording keeps the launch line, so the recorded comparison launches
 * grid_sum cooperatively again (it would trap otherwise). */
static void test_lesson10_cooperative_launches_survive_a_recording(void **st)
{
    (void)st;
    char dir[] = "/tmp/warpsim-l10-XXXXXX";
    assert_non_null(mkdtemp(dir));
    const char *w = getenv("WARPSIM");
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "%s xcheck %s --backend sim --record %s >/dev/null 2>&1 && %s xcheck %s --recorded %s 2>&1",
             w ? w : "build/warpsim", SLUG, dir, w ? w : "build/warpsim", SLUG, dir);
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    static char out[1 << 16];
    size_t got = fread(out, 1, sizeof out - 1, p);
    out[got] = 0;
    int status = pclose(p);
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    if (system(cmd) != 0)
        fail_msg("cannot remove %s", dir);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
        fail_msg("record and compare:\n%s", out);
    assert_non_null(strstr(out, "14 launches checked against 1 recording, 0 mismatches"));
    assert_null(strstr(out, "trap"));
}

/* `warpsim run ... --check races` as the README's table says: a finding
 * for __syncthreads() (block 0 reads partial[1] before block 1 writes it),
 * none for the cooperative grid_sum. */
static char *run_out(const char *args, int *rc)
{
    const char *w = getenv("WARPSIM");
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "%s run lessons/" SLUG "/kernel.ptx %s --grid 132 --block 256 "
             "--arg buf:i32[1048576]=fill:1 --arg buf:i32[132]=fill:0 --arg buf:i32[1]=fill:0 --arg i32:1048576 "
             "--check races 2>&1", w ? w : "build/warpsim", args);
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    char *out = calloc(1, 1 << 16);
    assert_non_null(out);
    size_t got = fread(out, 1, (1 << 16) - 1, p);
    out[got] = 0;
    int st = pclose(p);
    *rc = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    return out;
}

static void test_lesson10_race_checker_as_the_readme_says(void **st)
{
    (void)st;
    int rc;
    char *o = run_out("--kernel grid_sum_syncthreads", &rc);
    assert_int_equal(rc, 1);
    const char *f = strstr(o, "write-after-read on global memory");
    if (!f)
        fail_msg("no write-after-read:\n%s", o);
    assert_non_null(strstr(f, "first : read by block (0,0,0) thread (1,0,0)"));
    assert_non_null(strstr(f, "second: write by block (1,0,0) thread (0,0,0)"));
    free(o);
    o = run_out("--kernel grid_sum --cooperative", &rc);
    if (rc != 0 || !strstr(o, "race check: no hazards found"))
        fail_msg("grid_sum --cooperative --check races:\n%s", o);
    free(o);
    char *raw = lesson_read_text("lessons/" SLUG "/README.md"), *r = lesson_squash(raw);
    free(raw);
    assert_non_null(strstr(r, "block 0 reads `partial[1]` before block 1 writes it; the cooperative `grid_sum` with "
                              "`--check races` has no finding"));
    free(r);
}

/* `warpsim xcheck 10 --recorded`, the comparison with the H100's recording. */
static char *recorded_xcheck(void)
{
    const char *w = getenv("WARPSIM");
    char cmd[512];
    snprintf(cmd, sizeof cmd, "%s xcheck %s --recorded 2>&1", w ? w : "build/warpsim", SLUG);
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    char *out = calloc(1, 1 << 16);
    assert_non_null(out);
    out[fread(out, 1, (1 << 16) - 1, p)] = 0;
    int st = pclose(p);
    if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
        fail_msg("warpsim xcheck %s --recorded:\n%s", SLUG, out);
    return out;
}

/* Step 3's H100 figures are the recording's: 20 grid barriers against 20
 * block barriers, on the H100 and in the model (the README and the
 * COVERAGE row quote both); step 2's cooperative grid_sum ran there. */
static void test_lesson10_h100_figures_are_the_recordings(void **st)
{
    (void)st;
    char *o = recorded_xcheck();
    assert_non_null(strstr(o, "grid_sum <<<(132,1,1), (256,1,1), 0>>>  exact"));
    assert_non_null(strstr(o, "grid_sum <<<(1056,1,1), (256,1,1), 0>>>  exact"));
    double sg, sb, sr, hg, hb, hr;
    const char *sim = strstr(o, "\n    simulator  "), *ref = strstr(o, "\n    reference  ");
    assert_true(sim && ref);
    assert_int_equal(sscanf(sim, " simulator %lf / %lf cycles = %lfx", &sg, &sb, &sr), 3);
    assert_int_equal(sscanf(ref, " reference %lf / %lf ms = %lfx", &hg, &hb, &hr), 3);
    char *raw = lesson_read_text("lessons/" SLUG "/README.md"), *r = lesson_squash(raw);
    char want[256];
    snprintf(want, sizeof want, "`sync_grid` took %.2fx as long as `sync_block` (%.4f against %.4f ms), where the model "
             "says %.2fx for the same two launches", hr, hg, hb, sr);
    if (!strstr(r, want))
        fail_msg("README.md lacks \"%s\"", want);
    assert_non_null(strstr(r, "this lesson's `grid_sum` at 132 and at 1056 blocks"));
    char *cov = lesson_read_text("lessons/COVERAGE.md");
    snprintf(want, sizeof want, "%.2fx on the H100, %.2fx in the model", hr, sr);
    if (!strstr(cov, want))
        fail_msg("COVERAGE.md lacks \"%s\"", want);
    free(cov);
    free(r);
    free(raw);
    free(o);
}

/* Step 2's trap is cooperative groups' own check in the PTX; step 3's
 * launch overhead is the model's, from the H100's empty kernel. */
static void test_lesson10_trap_and_launch_overhead_as_the_readme_says(void **st)
{
    (void)st;
    char *e = lesson_entry_text("lessons/" SLUG "/kernel.ptx", "grid_sum");
    assert_non_null(strstr(e, "%envreg1"));
    assert_non_null(strstr(e, "%envreg2"));
    assert_non_null(strstr(e, "\ttrap;"));
    free(e);
    int rc;
    char *t = lesson_output("10", "lessons/" SLUG, &rc);
    assert_non_null(strstr(t, "(two launch overheads of 3335)"));
    char *rec = lesson_read_text("traces/hw/timing-microbench-h100.json");
    const char *lo = strstr(rec, "\"launch_overhead\": {");
    assert_non_null(lo);
    lo = strstr(lo, "\"1\": ");
    assert_non_null(lo);
    int one = atoi(lo + 5);
    char *raw = lesson_read_text("lessons/" SLUG "/README.md"), *r = lesson_squash(raw);
    char want[160];
    snprintf(want, sizeof want, "3,335 cycles, set so that an empty kernel of one block takes what it took on the H100: %d,%03d cycles",
             one / 1000, one % 1000);
    if (!strstr(r, want))
        fail_msg("README.md lacks \"%s\"", want);
    assert_non_null(strstr(r, "executes `trap`"));
    /* the commands to look closer and the graded exercise */
    assert_non_null(strstr(r, "`warpsim step lessons/10-cooperative-groups/kernel.ptx"));
    assert_non_null(strstr(r, "`warpsim viz g.wst --view sm --at 1000`"));
    assert_non_null(strstr(r, "`warpsim grade 10`"));
    free(r);
    free(raw);
    free(rec);
    free(t);
}

/* The H100 recording of a cooperative launch that the README cites. */
static void test_lesson10_cited_recording_exists(void **st)
{
    (void)st;
    char *r = lesson_read_text("lessons/" SLUG "/README.md");
    assert_non_null(strstr(r, "`traces/hw/cooperative-h100.json`"));
    char *rec = lesson_read_text("traces/hw/cooperative-h100.json");
    assert_non_null(strstr(rec, "\"backend\": \"gpu\""));
    assert_non_null(strstr(rec, "two_phase"));
    free(rec);
    free(r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lesson10_is_listed),
        cmocka_unit_test(test_lesson10_every_claim_holds),
        cmocka_unit_test(test_lesson10_tile_shuffle_is_the_warps_with_a_segment),
        cmocka_unit_test(test_lesson10_reduce_is_one_redux_on_16_and_32),
        cmocka_unit_test(test_lesson10_xcheck_lines_parse_and_run),
        cmocka_unit_test(test_lesson10_cooperative_launches_survive_a_recording),
        cmocka_unit_test(test_lesson10_race_checker_as_the_readme_says),
        cmocka_unit_test(test_lesson10_cited_recording_exists),
        cmocka_unit_test(test_lesson10_h100_figures_are_the_recordings),
        cmocka_unit_test(test_lesson10_trap_and_launch_overhead_as_the_readme_says),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
