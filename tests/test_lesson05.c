/* test_lesson05.c: lesson 05 (access patterns) -- its harness runs under the
 * timing model, every result matches its C reference and every claim its
 * README makes holds ("check: ... yes", computed from the simulator each
 * run, never a fixed cycle count); the stepper and `run --timing` commands
 * the README gives show what it says; every H100 cycle count it quotes is
 * the one traces/hw/timing-h100.json holds; and its xcheck.txt launches parse
 * and agree with a second simulator standing in for the GPU. */
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

#include "lesson.h"
#include "source.h"

static char out[1 << 16];
static char *text;          /* the lesson's output (open_memstream) */
static size_t text_len;

static char *run_lesson05(int *rc)
{
    const Lesson *l = lesson_find("5");
    assert_non_null(l);
    assert_string_equal(l->slug, "05-access-patterns");
    assert_ptr_equal(lesson_find("05-access-patterns"), l);
    assert_non_null(l->run);
    text = NULL;
    text_len = 0;
    FILE *f = open_memstream(&text, &text_len);
    assert_non_null(f);
    LessonEnv env = {.dir = "lessons/05-access-patterns", .arch = "sm_90", .out = f};
    *rc = l->run(&env);
    fclose(f);
    return text;
}

/* The line "check: <what> ... yes" must be in t. */
static void expect_claim(const char *t, const char *what)
{
    char key[160];
    snprintf(key, sizeof key, "check: %s ", what);
    const char *a = strstr(t, key);
    if (!a)
        fail_msg("lesson 05 printed no claim \"%s\":\n%s", what, t);
    const char *e = strchr(a, '\n');
    size_t n = e ? (size_t)(e - a) : strlen(a);
    if (n < 3 || strncmp(a + n - 3, "yes", 3))
        fail_msg("lesson 05: %.*s", (int)n, a);
}

static int count(const char *t, const char *what)
{
    int n = 0;
    for (const char *p = strstr(t, what); p; p = strstr(p + 1, what))
        n++;
    return n;
}

static void test_lesson05_every_claim_of_the_readme_holds(void **st)
{
    (void)st;
    int rc;
    char *t = run_lesson05(&rc);
    /* section 1: sectors and coalescing */
    expect_claim(t, "stride 1: 4 sectors per request");
    expect_claim(t, "stride 2: 8 sectors per request");
    expect_claim(t, "stride 8 and 32: 32 sectors per request");
    expect_claim(t, "stride 32 reads at least 4x the DRAM bytes of stride 1");
    /* the same words in sections 1 and 2: both must hold */
    assert_int_equal(count(t, "check: stride 32 takes at least 1.5x the cycles of stride 1 "), 2);
    const char *s2 = strstr(t, "2. Bank conflicts");
    assert_non_null(s2);
    expect_claim(t, "stride 32 takes at least 1.5x the cycles of stride 1");
    expect_claim(s2, "stride 32 takes at least 1.5x the cycles of stride 1");
    /* section 2: bank conflicts */
    expect_claim(t, "stride 1 and 33: no replays");
    expect_claim(t, "stride 2: one replay per read");
    expect_claim(t, "stride 32: 31 replays per read");
    expect_claim(t, "stride 33 takes at most 2/3 of the cycles of stride 32");
    /* section 3: transpose */
    expect_claim(t, "naive moves at least 1.5x the L2 sectors of padded");
    expect_claim(t, "smem has bank-conflict replays, padded none");
    expect_claim(t, "naive is slower than padded");
    expect_claim(t, "smem is slower than padded");
    assert_int_equal(count(t, "check: "), 14);
    assert_int_equal(count(t, " NO\n"), 0);
    /* 4 strided copies and 3 transposes compared with C */
    assert_int_equal(count(t, "matches C"), 7);
    assert_int_equal(count(t, "DIFFERS"), 0);
    /* a question before each answer */
    for (const char *q = strstr(t, "Question:"); q; q = strstr(q + 1, "Question:")) {
        const char *a = strstr(q, "Answer:");
        const char *next = strstr(q + 1, "Question:");
        assert_non_null(a);
        assert_true(!next || a < next);
    }
    assert_int_equal(count(t, "Question:"), 3);
    if (rc)
        fail_msg("lesson05_run returned %d:\n%s", rc, t);
    free(t);
}

static int sh(const char *cmd, char *buf, size_t cap)
{
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    size_t n = fread(buf, 1, cap - 1, p);
    buf[n] = 0;
    int st = pclose(p);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

#define SMEM_RUN                                                                                               \
    "build/warpsim run lessons/05-access-patterns/kernel.ptx --kernel smem_stride --grid 1 --block 32 "         \
    "--arg buf:f32[32]=fill:0 --arg i32:%d --arg i32:4 --timing 2>&1"

/* README step 2: 4 reads at stride 32 replay 124 times (31 each); at 33, 0. */
static void test_lesson05_readme_replay_counts(void **st)
{
    (void)st;
    char cmd[400];
    snprintf(cmd, sizeof cmd, SMEM_RUN, 32);
    assert_int_equal(sh(cmd, out, sizeof out), 0);
    if (!strstr(out, " 124 bank-conflict replays"))
        fail_msg("%s", out);
    snprintf(cmd, sizeof cmd, SMEM_RUN, 33);
    assert_int_equal(sh(cmd, out, sizeof out), 0);
    if (!strstr(out, " 0 bank-conflict replays"))
        fail_msg("%s", out);
}

/* README step 2: the stepper shows the 32 lanes' byte offsets 0, 128, ... 3968. */
static void test_lesson05_readme_stepper_shows_one_bank(void **st)
{
    (void)st;
    int rc = sh("printf 'break 30\\ncontinue\\nstep\\nstep\\nstep\\nprint %%r30\\n' | build/warpsim step "
                "lessons/05-access-patterns/kernel.ptx --kernel smem_stride --grid 1 --block 32 "
                "--arg buf:f32[32]=fill:0 --arg i32:32 --arg i32:4 2>&1",
                out, sizeof out);
    assert_int_equal(rc, 0);
    const char *p = strstr(out, "%r30 (b32) in block 0 warp 0:");
    if (!p)
        fail_msg("%s", out);
    assert_non_null(strstr(p, "lanes  0-7 :          0        128        256"));
    assert_non_null(strstr(p, "3840       3968"));
}

#define TILE_TRACE                                                                                             \
    "build/warpsim run lessons/05-access-patterns/kernel.ptx --kernel %s --grid 1 --block 32,8 "                \
    "--arg buf:f32[1024]=rand:1 --arg buf:f32[1024]=fill:0 --arg i32:32 --trace %s --trace-level memory "        \
    ">/dev/null 2>&1 && build/warpsim trace dump %s 2>&1 | grep -m1 ld.shared"

/* README step 3 and its picture: transpose_smem's first column read, at cycle
 * 82, is a 32-way conflict; transpose_padded's is conflict-free. */
static void test_lesson05_readme_picture_shows_the_conflict(void **st)
{
    (void)st;
    char cmd[600], path[64];
    snprintf(path, sizeof path, "/tmp/test_lesson05_%d.wst", (int)getpid());
    snprintf(cmd, sizeof cmd, TILE_TRACE, "transpose_smem", path, path);
    assert_int_equal(sh(cmd, out, sizeof out), 0);
    long cycle = strtol(out, NULL, 10);
    if (cycle != 82 || !strstr(out, "ld.shared 4B mask 0xffffffff base 0x0 stride 128 conflict 32-way"))
        fail_msg("transpose_smem: %s", out);
    snprintf(cmd, sizeof cmd, TILE_TRACE, "transpose_padded", path, path);
    assert_int_equal(sh(cmd, out, sizeof out), 0);
    if (!strstr(out, "stride 132 conflict 1-way"))
        fail_msg("transpose_padded: %s", out);
    remove(path);
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

/* The README quotes "N,NNN" cycles for a launch of the H100 recording: the
 * recording's line for that family and launch must hold those cycles. */
static void expect_h100(const char *rec, const char *readme, const char *family, const char *launch, int cycles)
{
    char key[160], want[64], quoted[32];
    snprintf(key, sizeof key, "{\"family\": \"%s\", \"launch\": \"%s\",", family, launch);
    const char *a = strstr(rec, key);
    if (!a)
        fail_msg("timing-h100.json has no launch %s/%s", family, launch);
    const char *e = strchr(a, '\n');
    snprintf(want, sizeof want, "\"metrics\": {\"cycles\": %d,", cycles);
    const char *c = strstr(a, want);
    if (!c || (e && c > e))
        fail_msg("timing-h100.json: %s/%s does not take %d cycles", family, launch, cycles);
    snprintf(quoted, sizeof quoted, "%d,%03d", cycles / 1000, cycles % 1000);
    if (!strstr(readme, quoted))
        fail_msg("README.md does not quote %s (%s/%s)", quoted, family, launch);
}

static void test_lesson05_readme_quotes_the_h100_recording(void **st)
{
    (void)st;
    char *rec = read_text("traces/hw/timing-h100.json");
    char *readme = read_text("lessons/05-access-patterns/README.md");
    expect_h100(rec, readme, "coalescing", "s1", 5994);
    expect_h100(rec, readme, "coalescing", "s32", 15695);
    expect_h100(rec, readme, "banks", "s1", 6376);
    expect_h100(rec, readme, "banks", "s32", 37118);
    expect_h100(rec, readme, "banks", "s33", 6330);
    expect_h100(rec, readme, "transpose", "naive_1024", 32832);
    expect_h100(rec, readme, "transpose", "smem_1024", 15321);
    expect_h100(rec, readme, "transpose", "padded_1024", 8185);
    assert_non_null(strstr(rec, "\"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum\": 1015808"));
    assert_non_null(strstr(readme, "1,015,808 bank conflicts"));
    free(rec);
    free(readme);
}

static void test_lesson05_xcheck_launches_agree_with_a_second_simulator(void **st)
{
    (void)st;
    int rc = sh("build/warpsim xcheck 05-access-patterns --backend sim 2>&1", out, sizeof out);
    if (rc != 0)
        fail_msg("xcheck 05 (rc %d):\n%s", rc, out);
    assert_non_null(strstr(out, "11 launches checked, 0 mismatches"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lesson05_every_claim_of_the_readme_holds),
        cmocka_unit_test(test_lesson05_readme_replay_counts),
        cmocka_unit_test(test_lesson05_readme_stepper_shows_one_bank),
        cmocka_unit_test(test_lesson05_readme_picture_shows_the_conflict),
        cmocka_unit_test(test_lesson05_readme_quotes_the_h100_recording),
        cmocka_unit_test(test_lesson05_xcheck_launches_agree_with_a_second_simulator),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
