/* test_lessons23.c: lessons 2 (warps) and 3 (atomics) -- their harnesses run
 * and every result they show matches the expected value, section by
 * section, and their xcheck.txt launches parse and run.  A harness marks a
 * result that differs with "<- DIFFERS"; each test below owns the sections
 * it names, so a failure says which idea broke.
 *
 * Some sections need the concurrent executor (warp-synchronous collectives
 * that wait for their mask across branches, the stack divergence model,
 * seeded atomic orders, the atomic-scope check); their tests say so when
 * they fail. */
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
#include "xcheck.h"

/* Run lesson `n`'s harness; its text in a malloc'd string, status in *rc. */
static char *run_lesson(int n, int *rc)
{
    const Lesson *l = lesson_find(n == 2 ? "2" : "3");
    assert_non_null(l);
    assert_non_null(l->run);
    char dir[256];
    snprintf(dir, sizeof dir, "lessons/%s", l->slug);
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    assert_non_null(f);
    LessonEnv env = {.dir = dir, .arch = "sm_90", .out = f};
    *rc = l->run(&env);
    fclose(f);
    return text;
}

/* The part of text from the line starting with `from` up to the line
 * starting with `to` (NULL: the end), as a malloc'd string. */
static char *section(const char *text, const char *from, const char *to)
{
    const char *a = strstr(text, from);
    if (!a)
        fail_msg("the lesson printed no section \"%s\"", from);
    const char *b = to ? strstr(a + 1, to) : NULL;
    size_t n = b ? (size_t)(b - a) : strlen(a);
    char *s = malloc(n + 1);
    memcpy(s, a, n);
    s[n] = 0;
    return s;
}

static void expect_no_differs(const char *text, const char *from, const char *to, const char *needs)
{
    char *s = section(text, from, to);
    if (strstr(s, "DIFFERS"))
        fail_msg("%s%s\n%s", needs ? "(needs " : "", needs ? needs : "", s);
    free(s);
}

static void test_lesson2_shuffles_votes_segments_partial_warps_match(void **st)
{
    (void)st;
    int rc;
    char *t = run_lesson(2, &rc);
    assert_true(rc == 0 || rc == 1);
    assert_non_null(strstr(t, "Lesson 2: warp-level programming"));
    expect_no_differs(t, "1. The shuffle reduction", "2. Votes", NULL);
    expect_no_differs(t, "2. Votes", "3. Segments", NULL);
    expect_no_differs(t, "3. Segments", "4. Partial warps", NULL);
    expect_no_differs(t, "4. Partial warps", "5. Match", NULL);
    expect_no_differs(t, "5. Match", "6. The strange shuffle", NULL);
    assert_non_null(strstr(t, "0x0000ffff")); /* a partial warp's ballot mask */
    free(t);
}

static void test_lesson2_strange_shuffle_matches_an_h100(void **st)
{
    (void)st;
    int rc;
    char *t = run_lesson(2, &rc);
    expect_no_differs(t, "   --divergence its", "   --divergence stack",
                      "shfl.sync that waits for every lane of its mask at any PC: concurrent executor)");
    free(t);
}

static void test_lesson2_strange_shuffle_faults_under_the_stack_model(void **st)
{
    (void)st;
    int rc;
    char *t = run_lesson(2, &rc);
    char *s = section(t, "   --divergence stack", "7. __activemask");
    if (!strstr(s, "fault: "))
        fail_msg("(needs --divergence stack reporting lanes of the mask not converged: concurrent executor)\n%s", s);
    free(s);
    free(t);
}

static void test_lesson2_ballots_in_two_branches_meet(void **st)
{
    (void)st;
    int rc;
    char *t = run_lesson(2, &rc);
    expect_no_differs(t, "7. __activemask", "Try it yourself",
                      "vote.sync waiting across branches, redux.sync with a mask per group: concurrent executor)");
    free(t);
}

static void test_lesson2_harness_exits_0(void **st)
{
    (void)st;
    int rc;
    char *t = run_lesson(2, &rc);
    if (rc)
        fail_msg("lesson02_run returned %d (the sections above say which results differ)", rc);
    assert_non_null(strstr(t, "exercise/README.md"));
    free(t);
}

static void test_lesson3_sums_counts_and_old_value_guarantees(void **st)
{
    (void)st;
    int rc;
    char *t = run_lesson(3, &rc);
    assert_true(rc == 0 || rc == 1);
    assert_non_null(strstr(t, "Lesson 3: atomics"));
    /* every sum near the exact one, the integer sum the same in every order */
    char *s = section(t, "     sum_warp_f32", "   The exact sum");
    if (strstr(s, "DIFFERS"))
        fail_msg("%s", s);
    free(s);
    /* the counts right, whatever the scope finding says */
    s = section(t, "     count_per_block", "       race check");
    if (strstr(s, "DIFFERS"))
        fail_msg("%s", s);
    free(s);
    expect_no_differs(t, "3. When the old value", "Try it yourself", NULL);
    /* the reductions make fewer atomics: 10000, 320, 40, 0 (sim counts, PTX level) */
    static const struct {
        const char *row;
        unsigned long long atomics;
    } rows[] = {{"     sum_atomic_f32 ", 10000}, {"     sum_warp_f32 ", 320}, {"     sum_block_f32 ", 40},
                {"     two-pass ", 0}};
    for (int k = 0; k < 4; k++) {
        const char *r = strstr(t, rows[k].row);
        assert_non_null(r);
        char name[32];
        double sum;
        unsigned long long atomics, insts;
        assert_int_equal(sscanf(r, "%31s %lf %llu %llu", name, &sum, &atomics, &insts), 4);
        assert_true(atomics == rows[k].atomics);
        assert_true(sum > -209.13 && sum < -209.11);
    }
    free(t);
}

static void test_lesson3_float_atomic_sum_varies_with_the_order(void **st)
{
    (void)st;
    int rc;
    char *t = run_lesson(3, &rc);
    expect_no_differs(t, "     sum_atomic_f32", "     sum_warp_f32", "seeded atomic orders: concurrent executor)");
    free(t);
}

static void test_lesson3_wrong_scope_is_reported(void **st)
{
    (void)st;
    int rc;
    char *t = run_lesson(3, &rc);
    expect_no_differs(t, "       race check", "   Per-block counters",
                      "--check races reporting a .cta atomic on an address other blocks update)");
    free(t);
}

static void test_lesson3_harness_exits_0(void **st)
{
    (void)st;
    int rc;
    char *t = run_lesson(3, &rc);
    if (rc)
        fail_msg("lesson03_run returned %d (the sections above say which results differ)", rc);
    free(t);
}

/* Every line of the new lessons' xcheck.txt parses, names a kernel of the
 * lesson, and runs clean in the simulator (`warpsim xcheck --backend sim`
 * compares the simulator with itself: it must agree on every launch). */
static void test_lessons23_xcheck_lines_parse_and_run(void **st)
{
    (void)st;
    static const char *const files[] = {"lessons/02-warps/xcheck.txt", "lessons/03-atomics/xcheck.txt"};
    for (int f = 0; f < 2; f++) {
        XcheckLaunch *ls;
        int n;
        char msg[512];
        if (!xcheck_read_file(files[f], &ls, &n, msg, sizeof msg))
            fail_msg("%s", msg);
        assert_true(n >= 10);
        for (int i = 0; i < n; i++)
            xcheck_launch_free(&ls[i]);
        free(ls);
    }
    const char *w = getenv("WARPSIM");
    char cmd[512], out[1 << 16];
    snprintf(cmd, sizeof cmd, "%s xcheck 02-warps 03-atomics --backend sim 2>&1", w ? w : "build/warpsim");
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    size_t len = fread(out, 1, sizeof out - 1, p);
    out[len] = 0;
    int status = pclose(p);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
        fail_msg("warpsim xcheck 02-warps 03-atomics --backend sim:\n%s", out);
    assert_non_null(strstr(out, "0 mismatches"));
    assert_null(strstr(out, "fault"));
    /* lesson 3's time claims: judged on both sides (a second simulator
     * stands in for the GPU), every one holding */
    assert_non_null(strstr(out, "time: sum_warp_f32 (line 32) faster than sum_atomic_f32 (line 31) by 5x"));
    assert_non_null(strstr(out, "time: sum_block_f32 (line 33) faster than sum_atomic_f32 (line 31) by 10x"));
    assert_non_null(strstr(out, "2 time claims judged, 0 failing"));
    assert_null(strstr(out, "FAILS"));
}

/* Lesson 3 shows the contention experiment in the timing model's cycles
 * beside the H100's recorded ones, each reduction faster than the one
 * before it (computed by the simulator each run). */
static void test_lesson3_shows_simulated_cycles_beside_the_h100(void **st)
{
    (void)st;
    int rc;
    char *t = run_lesson(3, &rc);
    const char *at = strstr(t, "simulated cycles   faster   achieved occ.   an H100, cycles");
    assert_non_null(at);
    unsigned long long cyc[3];
    double fast[3], hfast[3];
    static const char *const rows[] = {"     sum_atomic_f32 ", "     sum_warp_f32 ", "     sum_block_f32 "};
    for (int k = 0; k < 3; k++) {
        const char *r = strstr(at, rows[k]);
        assert_non_null(r);
        char name[32];
        double occ;
        if (sscanf(r, "%31s %llu %lfx %lf%%", name, &cyc[k], &fast[k], &occ) != 4)
            fail_msg("row: %.120s", r);
        const char *h = strstr(r, ")");
        assert_non_null(h);
        assert_int_equal(sscanf(h + 1, " %lfx", &hfast[k]), 1);
        assert_true(occ > 0 && occ <= 100);
        const char *eol = strchr(r, '\n');
        assert_true(eol && !memmem(r, (size_t)(eol - r), "DIFFERS", 7));
    }
    assert_true(cyc[0] > cyc[1] && cyc[1] > cyc[2]);
    assert_true(fast[1] > 1 && fast[2] > fast[1]);
    assert_true(hfast[1] > 20 && hfast[1] < 22 && hfast[2] > 40 && hfast[2] < 41); /* 309198/14545, /7692 */
    assert_non_null(strstr(at, "309,198 (atomic_bins, 1 bin)"));
    free(t);
}

static const char *warpsim(void)
{
    const char *w = getenv("WARPSIM");
    return w ? w : "build/warpsim";
}

/* Up to max integers after `at`, up to the end of its line. */
static int ints_on_line(const char *at, int *v, int max)
{
    int n = 0;
    const char *end = strchr(at, '\n');
    for (const char *p = at; n < max && (!end || p < end);) {
        char *e;
        long x = strtol(p, &e, 10);
        if (e == p) {
            p++;
            continue;
        }
        v[n++] = (int)x;
        p = e;
    }
    return n;
}

/* Lesson 2's strange shuffle: the README's table, the harness's "expected
 * (an H100)" column and the simulator's own column are the 32 values the
 * H100 printed (traces/hw/warp-sync-h100.txt). */
static void test_lesson2_strange_shuffle_table_is_the_h100_recording(void **st)
{
    (void)st;
    char *rec = lesson_read_text("traces/hw/warp-sync-h100.txt");
    const char *r = strstr(rec, "strange_shuffle_volta<<<1,32>>>:");
    assert_non_null(r);
    int h100[32];
    assert_int_equal(ints_on_line(r + strlen("strange_shuffle_volta<<<1,32>>>:"), h100, 32), 32);
    free(rec);
    char *readme = lesson_read_text("lessons/02-warps/README.md");
    int rc;
    char *t = run_lesson(2, &rc);
    static const char *const rows[4] = {"lanes  0..7 ", "lanes  8..15", "lanes 16..23", "lanes 24..31"};
    static const char *const hrows[4] = {"      0..7  ", "      8..15 ", "     16..23 ", "     24..31 "};
    const char *six = strstr(t, "6. The strange shuffle");
    assert_non_null(six);
    for (int k = 0; k < 4; k++) {
        const char *a = strstr(readme, rows[k]);
        assert_non_null(a);
        int v[8], sim[16];
        assert_int_equal(ints_on_line(a + strlen(rows[k]), v, 8), 8);
        const char *b = strstr(six, hrows[k]);
        assert_non_null(b);
        assert_int_equal(ints_on_line(b + strlen(hrows[k]), sim, 16), 16);
        for (int i = 0; i < 8; i++) {
            if (v[i] != h100[8 * k + i])
                fail_msg("README.md: lane %d of the strange shuffle is %d, the H100 printed %d", 8 * k + i, v[i],
                         h100[8 * k + i]);
            if (sim[i] != h100[8 * k + i] || sim[8 + i] != h100[8 * k + i])
                fail_msg("warpsim lesson 2: lane %d is %d (expected column %d), the H100 printed %d", 8 * k + i,
                         sim[i], sim[8 + i], h100[8 * k + i]);
        }
    }
    free(t);
    free(readme);
}

/* Lesson 2's section 8: the README's table is what the harness prints, and
 * the simulator agrees with the H100's recording of the lesson
 * (`warpsim xcheck 02-warps --recorded`, as the README says). */
static void test_lesson2_activemask_table_is_the_output_and_the_recording(void **st)
{
    (void)st;
    int rc;
    char *t = run_lesson(2, &rc);
    char *raw = lesson_read_text("lessons/02-warps/README.md"), *readme = lesson_squash(raw);
    free(raw);
    static const char *const side[2] = {"even", "odd"};
    for (int p = 0; p < 2; p++) {
        char row[32];
        snprintf(row, sizeof row, "     %-5s      0x", side[p]);
        const char *a = strstr(t, row);
        assert_non_null(a);
        unsigned act, bal;
        int sum;
        assert_int_equal(sscanf(a, " %*s 0x%x 0x%x %d", &act, &bal, &sum), 3);
        char want[160];
        snprintf(want, sizeof want, "| %s | `0x%08x` | `0x%08x` | %d (%s lanes only) |", side[p], act, bal, sum,
                 side[p]);
        if (!strstr(readme, want))
            fail_msg("README.md has no row \"%s\"", want);
    }
    assert_non_null(strstr(readme, "`warpsim xcheck 02-warps --recorded`"));
    free(readme);
    free(t);
    char cmd[512];
    snprintf(cmd, sizeof cmd, "%s xcheck 02-warps --recorded 2>&1", warpsim());
    char *out = lesson_run_cmd(cmd);
    if (!strstr(out, "strange_shuffle_volta <<<(1,1,1), (32,1,1), 0>>>  exact") ||
        !strstr(out, "activemask_vs_ballot <<<(1,1,1), (32,1,1), 0>>>  exact") || !strstr(out, " 0 mismatches"))
        fail_msg("%s", out);
    free(out);
}

/* The stepper session the README shows prints what the README says it
 * prints; and under --divergence stack it stops at shfl1 with the fault. */
static void test_lesson2_stepper_shows_what_the_readme_says(void **st)
{
    (void)st;
    static const char *const launch =
        "lessons/02-warps/kernel.ptx --kernel strange_shuffle_volta --grid 1 --block 32 --arg 'buf:i32[32]=fill:0'";
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "printf 'break 142\\ncontinue\\nstep\\ninfo lanes\\nstep 2\\nprint %%%%r15\\n' | %s step %s 2>&1",
             warpsim(), launch);
    char *out = lesson_run_cmd(cmd);
    if (!strstr(out, "lanes 0-14 ") || !strstr(out, "at a warp sync   pc 275 kernel.cu:139") ||
        !strstr(out, "lanes 15-29 ") || !strstr(out, "issues next      pc 291 kernel.cu:142") ||
        !strstr(out, "lanes 24-31:         52         54         56         58          0          1        188        188") ||
        !strstr(out, "lanes  8-15:          9         10         11         12         13         14         30         34"))
        fail_msg("%s", out);
    free(out);
    snprintf(cmd, sizeof cmd, "printf 'break 142\\ncontinue\\n' | %s step %s --divergence stack 2>&1", warpsim(), launch);
    out = lesson_run_cmd(cmd);
    if (!strstr(out, "the launch ended with a fault") || !strstr(out, "kernel fault: warp-sync") ||
        !strstr(out, "at lessons/02-warps/kernel.cu:139"))
        fail_msg("%s", out);
    free(out);
    char *raw = lesson_read_text("lessons/02-warps/README.md"), *readme = lesson_squash(raw);
    free(raw);
    static const char *const says[] = {"Break at shfl2 (line 142)", "at a warp sync pc 275 kernel.cu:139`",
                                        "issues next ... kernel.cu:142`", "`1 2 ... 14 30 34 ... 58 0 1`",
                                        "stops at shfl1 with the `warp-sync` fault"};
    for (size_t i = 0; i < sizeof says / sizeof *says; i++)
        if (!strstr(readme, says[i]))
            fail_msg("README.md no longer says \"%s\"", says[i]);
    free(readme);
}

/* The trace the README has the learner dump and visualize: the issue masks
 * of the two groups, the cycles and lines the SM view shows, and the two
 * collective events where the groups meet. */
static void test_lesson2_trace_shows_the_groups_the_readme_names(void **st)
{
    (void)st;
    char *out = lesson_trace_dump(warpsim(), "lessons/02-warps/kernel.ptx --kernel strange_shuffle_volta --grid 1 --block 32 "
                                  "--arg 'buf:i32[32]=fill:0'", "instructions");
    static const char *const lines[] = {
        "           5        0  issue       w0 pc 272 mask 0x00007fff ptx:549 lessons/02-warps/kernel.cu:139",
        "          12        0  issue       w0 pc 291 mask 0x3fff8000 ptx:577 lessons/02-warps/kernel.cu:142",
        "          24        0  collective  w0 pc 275 shfl.idx mask 0x00007fff members 0x3fffffff",
        "          24        0  collective  w0 pc 292 shfl.idx mask 0x3fff8000 members 0x3fffffff",
    };
    for (size_t i = 0; i < sizeof lines / sizeof *lines; i++)
        if (!strstr(out, lines[i]))
            fail_msg("the trace has no line \"%s\":\n%s", lines[i], out);
    free(out);
    char *raw = lesson_read_text("lessons/02-warps/README.md"), *readme = lesson_squash(raw);
    free(raw);
    static const char *const says[] = {"(`mask 0x00007fff`, then `0x3fff8000`)", "lanes 0-14 at `kernel.cu:139` at cycle 5",
                                        "lanes 15-29 at `kernel.cu:142` at cycle 12",
                                        "at cycle 24 the line under the view reads `shfl.sync, lanes 0x3fff8000`"};
    for (size_t i = 0; i < sizeof says / sizeof *says; i++)
        if (!strstr(readme, says[i]))
            fail_msg("README.md no longer says \"%s\"", says[i]);
    free(readme);
}

/* Lesson 2's README shows the stepper, the visualizer and the graded
 * exercise, and asks before it answers; `warpsim lesson 2` offers both. */
static void test_lesson2_readme_shows_step_viz_grade_and_questions(void **st)
{
    (void)st;
    char *readme = lesson_read_text("lessons/02-warps/README.md");
    assert_non_null(strstr(readme, "\nwarpsim step lessons/02-warps/kernel.ptx"));
    assert_non_null(strstr(readme, "\nwarpsim viz strange.wst --view sm"));
    assert_non_null(strstr(readme, "`warpsim grade 2 lessons/02-warps/exercise/warp_max.cu`"));
    int q = 0;
    for (const char *p = readme; (p = strstr(p, "Predict, then")); p++)
        q++;
    assert_true(q >= 4);
    free(readme);
    char cmd[256];
    snprintf(cmd, sizeof cmd, "%s lesson 2 </dev/null 2>&1", warpsim());
    char *out = lesson_run_cmd(cmd);
    if (!strstr(out, "warpsim step lessons/02-warps/kernel.ptx --kernel strange_shuffle_volta") ||
        !strstr(out, "warpsim viz lesson.wst") || !strstr(out, "warpsim grade 2 "))
        fail_msg("%s", out);
    free(out);
}

static void test_lessons_2_and_3_are_listed(void **st)
{
    (void)st;
    const Lesson *a = lesson_find("02-warps"), *b = lesson_find("03");
    assert_non_null(a);
    assert_non_null(b);
    assert_int_equal(a->number, 2);
    assert_string_equal(b->slug, "03-atomics");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lessons_2_and_3_are_listed),
        cmocka_unit_test(test_lesson2_shuffles_votes_segments_partial_warps_match),
        cmocka_unit_test(test_lesson2_strange_shuffle_matches_an_h100),
        cmocka_unit_test(test_lesson2_strange_shuffle_faults_under_the_stack_model),
        cmocka_unit_test(test_lesson2_ballots_in_two_branches_meet),
        cmocka_unit_test(test_lesson2_harness_exits_0),
        cmocka_unit_test(test_lesson2_strange_shuffle_table_is_the_h100_recording),
        cmocka_unit_test(test_lesson2_activemask_table_is_the_output_and_the_recording),
        cmocka_unit_test(test_lesson2_stepper_shows_what_the_readme_says),
        cmocka_unit_test(test_lesson2_trace_shows_the_groups_the_readme_names),
        cmocka_unit_test(test_lesson2_readme_shows_step_viz_grade_and_questions),
        cmocka_unit_test(test_lesson3_sums_counts_and_old_value_guarantees),
        cmocka_unit_test(test_lesson3_float_atomic_sum_varies_with_the_order),
        cmocka_unit_test(test_lesson3_wrong_scope_is_reported),
        cmocka_unit_test(test_lesson3_harness_exits_0),
        cmocka_unit_test(test_lessons23_xcheck_lines_parse_and_run),
        cmocka_unit_test(test_lesson3_shows_simulated_cycles_beside_the_h100),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
