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

#include <cmocka.h>

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
        cmocka_unit_test(test_lesson3_sums_counts_and_old_value_guarantees),
        cmocka_unit_test(test_lesson3_float_atomic_sum_varies_with_the_order),
        cmocka_unit_test(test_lesson3_wrong_scope_is_reported),
        cmocka_unit_test(test_lesson3_harness_exits_0),
        cmocka_unit_test(test_lessons23_xcheck_lines_parse_and_run),
        cmocka_unit_test(test_lesson3_shows_simulated_cycles_beside_the_h100),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
