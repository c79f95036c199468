/* test_lesson04.c: lesson 4 (occupancy and the carveout) -- the figures its
 * README and exercises quote are what the commands they give print: the
 * bytes a third 100 KB block would need, the register count the simulator
 * does not know (8 blocks of poly_eval on an SM in the stepper), ptxas's
 * registers and spills and step 6's four occupancies (where a toolkit is
 * here), scale_pad's need for 4 bytes of shared memory, the waves the
 * visualizer shows, the barrier pools of exercise 5, and the H100 launch
 * time the README and harness quote from the recording.  (test_course.c
 * checks the stepper's cycle 47, --block 100 and the harness's steps.) */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "lesson_fixture.h"
#include "nvcc_probe.h"

#include "lesson.h"
#include "xcheck.h"

#define README "lessons/04-occupancy/README.md"

static const char *warpsim(void)
{
    const char *w = getenv("WARPSIM");
    return w ? w : "build/warpsim";
}

/* `warpsim ARGS` prints every string of want (NULL-terminated). */
static void expect_prints(const char *args, const char *const *want)
{
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "%s %s 2>&1", warpsim(), args);
    char *out = lesson_run_cmd(cmd);
    for (; *want; want++)
        if (!strstr(out, *want))
            fail_msg("warpsim %s did not print \"%s\":\n%s", args, *want, out);
    free(out);
}

/* text (squashed) says every string of want. */
static void expect_says(const char *path, const char *text, const char *const *want)
{
    for (; *want; want++)
        if (!strstr(text, *want))
            fail_msg("%s no longer says \"%s\"", path, *want);
}

static char *squashed(const char *path)
{
    char *raw = lesson_read_text(path), *s = lesson_squash(raw);
    free(raw);
    return s;
}

/* Step 3: a third block of 100 KB (plus the 1 KB reserve) needs 310,272
 * bytes -- the README used to say 300 KB. */
static void test_lesson4_step3_third_block_bytes(void **st)
{
    (void)st;
    static const char *const out[] = {"blocks per SM       2   (limited by shared_memory)",
                                      "a block number 3 would need 310272 bytes in all", NULL};
    expect_prints("occupancy --arch sm_100 --block 256 --regs 16 --smem-dyn 100K --explain", out);
    char *r = squashed(README);
    static const char *const says[] = {"A third block would bring the total to 310,272 bytes (303 KB)", NULL};
    expect_says(README, r, says);
    assert_null(strstr(r, "to 300 KB"));
    free(r);
}

/* Step 4: the simulator does not know ptxas's register count, so its
 * launches are not limited by registers: poly_eval (56 registers on the
 * H100, 4 blocks per SM) sits 8 blocks to an SM in the stepper. */
static void test_lesson4_simulator_launches_ignore_registers(void **st)
{
    (void)st;
    char cmd[1024];
    snprintf(cmd, sizeof cmd,
             "printf 'info sms\\n' | %s step lessons/04-occupancy/kernel.ptx --kernel poly_eval --grid 1056 --block 256 "
             "--arg 'buf:f32[270336]=rand:1' --arg 'buf:f32[270336]=fill:0' --arg i32:270336 2>&1",
             warpsim());
    char *out = lesson_run_cmd(cmd);
    if (!strstr(out, "SMs 0-131   8 blocks each, 64 of 64 warps (100% occupancy)"))
        fail_msg("%s", out);
    free(out);
    char *r = squashed(README);
    static const char *const says[] = {"`warpsim step` on `poly_eval` with 1,056 blocks of 256 threads and `info sms` "
                                       "shows `8 blocks each`",
                                       NULL};
    expect_says(README, r, says);
    free(r);
    r = squashed("lessons/04-occupancy/exercise/README.md");
    static const char *const ex[] = {"puts as many blocks of either version on an SM as if registers were free "
                                     "(8 of 256 threads) and runs them without the spills",
                                     NULL};
    expect_says("lessons/04-occupancy/exercise/README.md", r, ex);
    assert_null(strstr(r, "issue slots, not latency"));
    free(r);
}

/* Steps 4, 5 and 6 through ptxas: 56 registers and 50%; 492 bytes spilled
 * at 32 registers (100%), 332 stored and 336 loaded at 40 (75%); scale_pad
 * at 100, 100, 50 and 25%. */
static void test_lesson4_ptxas_figures(void **st)
{
    (void)st;
    need_working_nvcc("ptxas's registers and spills were not checked");
    static const char *const s4[] = {"kernel poly_eval: 56 registers", "occupancy           50.0%", NULL};
    expect_prints("occupancy --gpu h100-sxm --block 256 --ptx lessons/04-occupancy/kernel.ptx --kernel poly_eval", s4);
    static const char *const s5a[] = {"kernel poly_eval_bounded: 32 registers",
                                      "spills: 492 bytes stored, 492 bytes loaded per thread",
                                      "occupancy           100.0%", NULL};
    expect_prints("occupancy --gpu h100-sxm --block 256 --ptx lessons/04-occupancy/kernel.ptx --kernel poly_eval_bounded",
                  s5a);
    static const char *const s5b[] = {"kernel poly_eval: 40 registers",
                                      "spills: 332 bytes stored, 336 bytes loaded per thread",
                                      "occupancy           75.0%", NULL};
    expect_prints("occupancy --gpu h100-sxm --block 256 --ptx lessons/04-occupancy/kernel.ptx --kernel poly_eval "
                  "--maxrregcount 40",
                  s5b);
    static const char *const smem[4] = {"", " --smem-dyn 24K", " --smem-dyn 56K", " --smem-dyn 112K"};
    static const char *const occ[4] = {"occupancy           100.0%", "occupancy           100.0%",
                                       "occupancy           50.0%", "occupancy           25.0%"};
    for (int k = 0; k < 4; k++) {
        char args[256];
        snprintf(args, sizeof args,
                 "occupancy --gpu h100-sxm --block 256 --ptx lessons/04-occupancy/kernel.ptx --kernel scale_pad%s",
                 smem[k]);
        const char *const want[] = {occ[k], NULL};
        expect_prints(args, want);
    }
    char *r = squashed(README);
    static const char *const says[] = {"reads \"Used 56 registers\": 4 blocks, **50%**",
                                       "ptxas reports 492 bytes of spill stores and loads per thread",
                                       "40 registers give 75% with 332 bytes of spill stores and 336 of loads",
                                       "100%, 100%, 50%, 25%.", NULL};
    expect_says(README, r, says);
    free(r);
}

/* Step 6: scale_pad writes pad[0], so it needs 4 bytes of dynamic shared
 * memory; with none the simulator reports an out-of-bounds store. */
static void test_lesson4_scale_pad_needs_4_bytes_of_shared_memory(void **st)
{
    (void)st;
    static const char *const zero[] = {"kernel fault: out-of-bounds", "outside the 0 bytes of shared memory",
                                       "at lessons/04-occupancy/kernel.cu:22", NULL};
    expect_prints("run lessons/04-occupancy/kernel.ptx --kernel scale_pad --grid 4 --block 256 --smem 0 "
                  "--arg 'buf:f32[1000]=rand:1' --arg 'buf:f32[1000]=fill:0' --arg f32:2.5 --arg i32:1000",
                  zero);
    static const char *const four[] = {"4 blocks, 32 warps", NULL};
    expect_prints("run lessons/04-occupancy/kernel.ptx --kernel scale_pad --grid 4 --block 256 --smem 4 "
                  "--arg 'buf:f32[1000]=rand:1' --arg 'buf:f32[1000]=fill:0' --arg f32:2.5 --arg i32:1000",
                  four);
    char *r = squashed(README);
    static const char *const says[] = {"any amount of dynamic shared memory from 4 bytes up (it writes `pad[0]`", NULL};
    expect_says(README, r, says);
    free(r);
    r = squashed("lessons/04-occupancy/exercise.md");
    static const char *const ex[] = {"`scale_pad` with 4 bytes, 24K, 56K and 112K", NULL};
    expect_says("lessons/04-occupancy/exercise.md", r, ex);
    free(r);
}

/* Step 6: the README and the harness quote the H100's time for one warp of
 * lesson 2's strange_shuffle_volta from the recording, and no longer an
 * earlier recording's times that traces/hw/ does not hold. */
static void test_lesson4_launch_cost_is_the_recordings(void **st)
{
    (void)st;
    XcheckRecording rec;
    char msg[512];
    if (!xcheck_recording_read("traces/hw/nvidia-h100-80gb-hbm3/xcheck.json", &rec, msg, sizeof msg))
        fail_msg("%s", msg);
    const XcheckRef *ref = NULL;
    for (int l = 0; l < rec.n && !ref; l++)
        for (int i = 0; !ref && !strcmp(rec.lessons[l].slug, "02-warps") && i < rec.lessons[l].n; i++)
            if (strstr(rec.lessons[l].refs[i].line, "--kernel strange_shuffle_volta --grid 1 --block 32 "))
                ref = &rec.lessons[l].refs[i];
    assert_non_null(ref);
    char want[64];
    snprintf(want, sizeof want, "took %.5f ms", ref->time);
    xcheck_recording_free(&rec);
    char *r = squashed(README);
    if (!strstr(r, want))
        fail_msg("README.md does not quote the recorded \"%s\"", want);
    assert_null(strstr(r, "0.0188"));
    assert_null(strstr(r, "0.0211"));
    free(r);
    int rc;
    char *t = lesson_output("4", "lessons/04-occupancy", &rc);
    char *ts = lesson_squash(t);
    if (rc || !strstr(ts, want))
        fail_msg("lesson 4 (status %d) does not quote the recorded \"%s\":\n%s", rc, want, t);
    free(ts);
    free(t);
}

/* "Step through it": the visualizer command the README adds shows, at
 * cycle 47, the first wave retired and the second resident. */
static void test_lesson4_waves_trace_shows_the_second_wave(void **st)
{
    (void)st;
    char *out = lesson_trace_dump(warpsim(), "lessons/04-occupancy/kernel.ptx --kernel scale_pad --gpu t4 --grid 80 --block 256 --smem 40000 "
                                  "--arg 'buf:f32[20480]=rand:1' --arg 'buf:f32[20480]=fill:0' --arg f32:2.5 --arg i32:20480", "blocks");
    int retired = 0, dispatched = 0, sm0 = -1;
    for (const char *l = out; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
        long cyc, block;
        char ev[32];
        int sm;
        if (sscanf(l, "%ld %ld %31s", &cyc, &block, ev) != 3 || cyc > 47)
            continue;
        retired += !strcmp(ev, "retire");
        dispatched += !strcmp(ev, "dispatch");
        if (!strcmp(ev, "dispatch") && block == 40 && sscanf(strstr(l, "sm "), "sm %d", &sm) == 1)
            sm0 = sm;
    }
    if (retired != 40 || dispatched != 80 || sm0 != 0)
        fail_msg("by cycle 47: %d retired, %d dispatched, block 40 on SM %d:\n%.2000s", retired, dispatched, sm0, out);
    free(out);
    char *raw = lesson_read_text(README);
    assert_non_null(strstr(raw, "\nwarpsim viz waves.wst --view gpu --at 47"));
    free(raw);
    char *r = squashed(README);
    static const char *const says[] = {"blocks 40-79 on SMs 0-39",
                                       "`blocks: 80 of 80 dispatched, 40 retired, 40 resident now`", NULL};
    expect_says(README, r, says);
    free(r);
}

/* Exercise 5's barrier pools: on CC 12.0 barriers limit 32-thread blocks from
 * 1 barrier a block on (a tie with the block limit), on CC 9.0 from 2 (a
 * tie) and alone from 3 -- so the README's table says "from 2 a block on
 * sm_120, from 3 on sm_90". */
static void test_lesson4_barrier_pools(void **st)
{
    (void)st;
    static const char *const a[] = {"(limited by blocks, barriers)", NULL};
    expect_prints("occupancy --gpu rtx5090 --block 32 --regs 16 --barriers 1", a);
    static const char *const b[] = {"blocks per SM       12   (limited by barriers)", NULL};
    expect_prints("occupancy --gpu rtx5090 --block 32 --regs 16 --barriers 2", b);
    static const char *const c[] = {"blocks per SM       32   (limited by blocks, barriers)", NULL};
    expect_prints("occupancy --arch sm_90 --block 32 --regs 16 --barriers 2", c);
    static const char *const d[] = {"blocks per SM       21   (limited by barriers)", NULL};
    expect_prints("occupancy --arch sm_90 --block 32 --regs 16 --barriers 3", d);
    char *r = squashed(README);
    static const char *const says[] = {"from 2 a block on sm_120, from 3 on sm_90", NULL};
    expect_says(README, r, says);
    free(r);
    r = squashed("lessons/04-occupancy/exercise.md");
    assert_null(strstr(r, "Why can the same launch not be limited by barriers on CC 9.0?"));
    free(r);
}

/* The README shows the stepper, the visualizer, the graded exercise and
 * asks before it answers. */
static void test_lesson4_readme_shows_step_viz_grade_and_questions(void **st)
{
    (void)st;
    char *raw = lesson_read_text(README);
    assert_non_null(strstr(raw, "\nwarpsim step lessons/04-occupancy/kernel.ptx"));
    assert_non_null(strstr(raw, "\nwarpsim viz "));
    assert_non_null(strstr(raw, "`warpsim grade 4`"));
    int q = 0;
    for (const char *p = raw; (p = strstr(p, "Predict")); p++)
        q++;
    assert_true(q >= 8);
    free(raw);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lesson4_step3_third_block_bytes),
        cmocka_unit_test(test_lesson4_simulator_launches_ignore_registers),
        cmocka_unit_test(test_lesson4_ptxas_figures),
        cmocka_unit_test(test_lesson4_scale_pad_needs_4_bytes_of_shared_memory),
        cmocka_unit_test(test_lesson4_launch_cost_is_the_recordings),
        cmocka_unit_test(test_lesson4_waves_trace_shows_the_second_wave),
        cmocka_unit_test(test_lesson4_barrier_pools),
        cmocka_unit_test(test_lesson4_readme_shows_step_viz_grade_and_questions),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
