/* test_step.c: `warpsim step` driven by scripts as a student would drive it
 * at the prompt -- stepping the focus warp, next, breakpoints, print of
 * registers and memory, info, errors, quitting, faults, viz -- on lesson 1's
 * kernels; the lesson-1 script that watches racy_sum lose updates; the
 * stepper as a library (step.h), driven with no warpsim process; and the
 * inspect.h additions the stepper relies on (view_next, view_param, ...). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "device.h"
#include "inspect.h"
#include "launch.h"
#include "ptx.h"
#include "source.h"
#include "step.h"
#include "step_fixture.h"

#define L1 "lessons/01-threads-and-races/kernel.ptx"
#define RACY L1 " --kernel racy_sum --grid 4 --block 256 " \
    "--arg buf:i32[1000]=fill:1 --arg buf:i32[1]=fill:0 --arg i32:1000"
#define STAGED L1 " --kernel staged_sum --grid 4 --block 256 " \
    "--arg buf:i32[1000]=fill:1 --arg buf:i32[1]=fill:0 --arg i32:1000"
/* n = 2000 with 1000 elements: thread 1000 reads past the end */
#define FAULTY L1 " --kernel atomic_sum --grid 8 --block 256 " \
    "--arg buf:i32[1000]=fill:1 --arg buf:i32[1]=fill:0 --arg i32:2000"

/* The text after the n-th (0-based) occurrence of what, or NULL. */
static const char *nth(const char *hay, const char *what, int n)
{
    const char *p = hay;
    for (int i = 0; p && i <= n; i++) {
        p = strstr(p, what);
        if (p && i < n)
            p += strlen(what);
    }
    return p;
}

/* The numbers after every "(pc " in out, in order. */
static int where_pcs(int *pcs, int cap)
{
    int n = 0;
    for (const char *p = out; (p = strstr(p, "(pc ")) && n < cap; p += 4)
        pcs[n++] = atoi(p + 4);
    return n;
}

static void test_step_pauses_first_and_quit_ends_cleanly(void **s)
{
    (void)s;
    assert_int_equal(step(RACY, "quit\nstep\n"), 0);
    assert_non_null(strstr(out, "paused before the first instruction of racy_sum"));
    assert_non_null(strstr(out, "[block 0 warp 0, SM 0, cycle 0] kernel.cu:22"));
    assert_non_null(strstr(out, "(warpsim) quit\n"));
    assert_non_null(strstr(out, "the launch was stopped at cycle"));
    /* what the buffers hold so far: out[0] untouched */
    assert_non_null(strstr(out, "arg1 (buf:i32[1]=fill:0) holds: 0\n"));
    /* nothing after quit runs */
    assert_null(strstr(out, "(warpsim) step"));
}

static void test_step_advances_the_focus_warps_pc(void **s)
{
    (void)s;
    assert_int_equal(step(RACY, "where\nstep\nwhere\nstep 3\nwhere\n"), 0);
    int pc[3];
    assert_int_equal(where_pcs(pc, 3), 3);
    /* ld.param, ld.param, ld.param, mov, ...: straight-line code */
    assert_int_equal(pc[1], pc[0] + 1);
    assert_int_equal(pc[2], pc[1] + 3);
    assert_non_null(strstr(out, "ptx line 84 (pc"));
    assert_non_null(strstr(out, "(pc 30): mov.u32 %r4, %ctaid.x;"));
}

static void test_next_goes_to_another_cu_line(void **s)
{
    (void)s;
    assert_int_equal(step(RACY, "next\nnext\n"), 0);
    const char *a = nth(out, "(warpsim) next", 0), *b = nth(out, "(warpsim) next", 1);
    assert_non_null(a);
    assert_non_null(b);
    /* line 22 (the parameters) -> 24 (the index) -> 25 (if (i < n)) */
    const char *l24 = strstr(a, "kernel.cu:24  "), *l25 = strstr(b, "kernel.cu:25  ");
    assert_non_null(l24);
    assert_true(l24 < b);
    assert_non_null(l25);
    assert_non_null(strstr(b, "    25      if (i < n)"));
}

static void test_break_stops_any_warp_at_the_line(void **s)
{
    (void)s;
    assert_int_equal(step(RACY, "break 26\ncontinue\ncontinue\ninfo breakpoints\n"), 0);
    assert_non_null(strstr(out, "breakpoint 1 at kernel.cu:26\n"));
    assert_non_null(strstr(out, "breakpoint 1 (kernel.cu:26), hit 1: focus on block 0 warp 0\n"
                                "[block 0 warp 0, SM 0, cycle 0] kernel.cu:26  mul.wide.s32"));
    /* the next warp to enter the line: the focus moves to it */
    assert_non_null(strstr(out, "hit 2: focus on block 0 warp 1\n"));
    assert_non_null(strstr(out, "breakpoint 1 at kernel.cu:26, hit 2 times"));
}

static void test_break_file_line_and_bad_lines(void **s)
{
    (void)s;
    assert_int_equal(step(RACY, "break kernel.cu:25\nbreak 3\nbreak nosuch.cu:26\nbreak x\nbreak 25\n"
                                "delete 7\ndelete 1\ncontinue\n"), 2);
    assert_non_null(strstr(out, "breakpoint 1 at kernel.cu:25\n"));
    assert_non_null(strstr(out, "error: no instruction comes from line 3 (the nearest line with code is 9)"));
    assert_non_null(strstr(out, "error: no instruction comes from a file named 'nosuch.cu'"));
    assert_non_null(strstr(out, "error: break 'x': expected a .cu line number"));
    assert_non_null(strstr(out, "error: breakpoint 1 is already at kernel.cu:25"));
    assert_non_null(strstr(out, "error: delete '7': no such breakpoint"));
    assert_non_null(strstr(out, "deleted breakpoint 1\n"));
    /* with it deleted, continue runs to the end */
    assert_non_null(strstr(out, "the launch finished:"));
    assert_non_null(strstr(out, "warpsim step: 5 commands failed"));
}

static void test_print_register_groups_equal_lanes(void **s)
{
    (void)s;
    assert_int_equal(step(RACY, "break 26\ncontinue\nprint %r1\nstep 4\nprint %r7\nprint %p1\nprint %tid.x\n"
                                "focus block 2\nnext 2\nprint %r1\nprint %r99\n"),
                     2);
    /* %r1 = the global thread index: 32 values, a table of 8 lanes a row */
    assert_non_null(strstr(out, "%r1 (b32) in block 0 warp 0:\n  lanes  0-7 :          0          1"));
    assert_non_null(strstr(out, "  lanes 24-31:         24         25"));
    /* the load of out[0]: every lane read 0, one group */
    assert_non_null(strstr(out, "%r7 (b32) in block 0 warp 0:\n  lanes 0-31         0\n"));
    assert_non_null(strstr(out, "%p1 (pred) in block 0 warp 0:\n  lanes 0-31         false\n"));
    assert_non_null(strstr(out, "%tid.x (u32) in block 0 warp 0:\n  lanes  0-7 :          0"));
    /* block 2 starts at thread 512 */
    assert_non_null(strstr(out, "%r1 (b32) in block 2 warp 0:\n  lanes  0-7 :        512        513"));
    assert_non_null(strstr(out, "error: no register %r99 in racy_sum (it declares %p0..%p1, %r0..%r8, "
                                "%rd0..%rd6"));
}

static void test_print_global_and_arguments(void **s)
{
    (void)s;
    assert_int_equal(step(RACY, "print arg2\nprint arg0\nprint global arg0[998] 2\nprint global arg0[999] 4\n"
                                "print global arg0+4 2 u8\nprint global 0x10\nprint arg5\nprint global arg2\n"),
                     2);
    assert_non_null(strstr(out, "arg2 (i32:1000): 1000\n"));
    assert_non_null(strstr(out, "(arg0, buf:i32[1000]=fill:1: its first 8 elements), 8 x i32:\n"
                                "  [0]           1        1        1        1        1        1        1        1\n"
                                "  hex    00000001 00000001"));
    /* rows are labelled by the array's own index */
    assert_non_null(strstr(out, "(arg0[998], buf:i32[1000]=fill:1), 2 x i32:\n  [998]         1        1\n"));
    /* reading on past the buffer stops at its end, saying so */
    assert_non_null(strstr(out, "(arg0[999], buf:i32[1000]=fill:1), 4 x i32:\n  [999]         1\n"
                                "  hex    00000001\n  0x"));
    assert_non_null(strstr(out, " is outside every allocation\n"));
    assert_non_null(strstr(out, ", 2 x u8:\n  [0]     1  0\n  hex    01 00\n"));
    assert_non_null(strstr(out, "global 0x10, 1 x i32:\n  0x10 is outside every allocation"));
    assert_non_null(strstr(out, "error: no argument 5: racy_sum takes 3 (arg0..arg2)"));
    assert_non_null(strstr(out, "error: arg2 is a scalar (i32:1000), not a buffer"));
}

static void test_print_shared_and_info_at_a_barrier(void **s)
{
    (void)s;
    assert_int_equal(run("step " STAGED " --script tests/step/staged-barrier.txt"), 0);
    /* warp 0 stored s[0..31] = in[0..31] before the barrier */
    assert_non_null(strstr(out, "shared 0x0 of block 0, 8 x i32:\n  [0]           1        1"));
    assert_non_null(strstr(out, "barrier 0 of block 0: 32 of 256 threads arrived (0 exited); waiting: w0\n"));
    assert_non_null(strstr(out, "    0     at a barrier        32     80    kernel.cu:46  bar.sync 0;\n"
                                " *> 1     issuing now         32     80    kernel.cu:46  bar.sync 0;\n"));
    assert_non_null(strstr(out, "  lanes 0-31         threads (32,0,0)..(63,0,0)  issues next      pc 80 "
                                "kernel.cu:46\n"));
    assert_int_equal(step(STAGED, "print shared 1020 2\nprint shared 4096\n"), 2);
    assert_non_null(strstr(out, "shared 0x3fc of block 0, 2 x i32:\n  [0]           0\n  hex    00000000\n"
                                "  0x400 is past the end of the block's shared memory (1024 bytes)\n"));
    assert_non_null(strstr(out, "  0x1000 is past the end of the block's shared memory (1024 bytes)\n"));
    /* 200 blocks on a T4's 40 SMs, 4 at a time each: block 199 waits */
    assert_int_equal(step(L1 " --kernel staged_sum --grid 200 --block 256 --gpu t4 --arg buf:i32[1]=fill:1 "
                          "--arg buf:i32[1]=fill:0 --arg i32:1",
                          "info sms\nfocus block 199\nprint shared 0\nprint %r1\ninfo warps\nstep\n"),
                     2);
    assert_non_null(strstr(out, "160 blocks resident on 40 SMs, 0 finished, 40 not started (grid of 200)\n"
                                "  SMs 0-39    4 blocks each, 32 of 32 warps (100% occupancy)\n"));
    assert_non_null(strstr(out, "error: block 199 is not resident, so it has no shared memory now"));
    assert_non_null(strstr(out, "error: block 199 is not resident (it has not started yet)"));
    assert_non_null(strstr(out, "block 199 is not resident (it has not started yet)\n"));
    /* stepping a block that has not started runs until it has */
    assert_non_null(strstr(out, "(warpsim) step\n[block 199 warp 0, SM "));
}

static void test_info_blocks_sms_and_lanes_of_a_diverged_warp(void **s)
{
    (void)s;
    /* n = 1000: block 3's warp 7 has threads 992..1023, only 8 of them in
     * range: at line 26 it issues with 8 lanes, the rest are elsewhere */
    assert_int_equal(step(RACY, "info blocks\ninfo sms\nfocus block 3 warp 7\nnext 4\nwhere\n"
                                "info lanes\ninfo registers\ninfo nonsense\ninfo\n"),
                     2);
    assert_non_null(strstr(out, "4 blocks resident on 4 SMs, 0 finished, 0 not started (grid of 4)\n"
                                " * block 0  SM 0   warps: 8 ready, 0 at a barrier, 0 exited, 0 other\n"
                                "   block 1  SM 1   warps: 8 ready"));
    assert_non_null(strstr(out, "  SMs 0-3     1 block each, 8 of 64 warps (12.5% occupancy)\n"
                                "  SM 0 holds block 0 (the focus block's SM)\n  SM 1 holds block 1\n"));
    assert_non_null(strstr(out, "] kernel.cu:26  mul.wide.s32 %rd5, %r1, 4;  (8 lanes)\n"));
    assert_non_null(strstr(out, "mask   [########........................]  8 lanes issue\n"));
    assert_non_null(strstr(out, "  lanes 0-7          threads (224,0,0)..(231,0,0)  issues next"));
    assert_non_null(strstr(out, "  lanes 8-31         threads (232,0,0)..(255,0,0)  ready, elsewhere"));
    assert_non_null(strstr(out, "registers of block 3 warp 7 lane 0 (print %REG shows every lane):\n"));
    assert_non_null(strstr(out, "error: info 'nonsense': expected warps, lanes"));
    assert_non_null(strstr(out, "error: info what?"));
}

static void test_unknown_command_suggests_the_closest(void **s)
{
    (void)s;
    assert_int_equal(step(RACY, "stpe\nfrobnicate\nprint\nfocus block 99\nfocus warp 8\n"
                                "focus thread 300\nstep 0\nhelp step\nhelp\ncontinu\n"),
                     2);
    assert_non_null(strstr(out, "error: unknown command 'stpe'; did you mean 'step'? (help lists the commands)"));
    /* a prefix is the command */
    assert_null(strstr(out, "unknown command 'continu'"));
    assert_non_null(strstr(out, "(warpsim) continu\nthe launch finished"));
    assert_non_null(strstr(out, "error: unknown command 'frobnicate' (help lists the commands)"));
    assert_non_null(strstr(out, "error: print what?"));
    assert_non_null(strstr(out, "error: focus block '99': the grid has blocks 0..3"));
    assert_non_null(strstr(out, "error: focus warp '8': a block has warps 0..7"));
    assert_non_null(strstr(out, "error: focus thread '300': a block has threads 0..255"));
    assert_non_null(strstr(out, "error: step '0': expected a count from 1 to 10^9"));
    assert_non_null(strstr(out, "step [N]\nRun until the focus warp has issued one warp instruction"));
    assert_non_null(strstr(out, "  viz [gpu|sm|memory|atomics]"));
}

static void test_garbage_commands_are_errors_never_crashes(void **s)
{
    (void)s;
    /* 400 random lines of command words (tests/step/garbage.txt) */
    assert_int_equal(run("step " STAGED " --script tests/step/garbage.txt"), 2);
    assert_non_null(strstr(out, "(end of the commands: quit)\nthe launch was stopped"));
    assert_non_null(strstr(out, "commands failed (the messages above say why)"));
    assert_int_equal(step(RACY, "blocks\n%r5\nglobal arg1\n"), 2);
    assert_non_null(strstr(out, "error: unknown command 'blocks'; did you mean 'info blocks'?"));
    assert_non_null(strstr(out, "error: unknown command '%r5'; did you mean 'print %r5'?"));
    assert_non_null(strstr(out, "error: unknown command 'global'; did you mean 'print global arg1'?"));
}

static void test_faulting_kernel_reports_the_fault(void **s)
{
    (void)s;
    assert_int_equal(step(FAULTY, "continue\nwhere\nprint %r1\ncontinue\nwhere\n"), 1);
    assert_non_null(strstr(out, "the launch ended with a fault:\nkernel fault: out-of-bounds"));
    assert_non_null(strstr(out, "block (3,0,0) thread (232,0,0)"));
    assert_non_null(strstr(out, "at lessons/01-threads-and-races/kernel.cu:35"));
    /* what the buffers hold after the fault */
    assert_non_null(strstr(out, "arg1 (buf:i32[1]=fill:0) holds: "));
    /* then the replay stops just before the faulting load, on lane 8 */
    assert_non_null(strstr(out, "replaying the launch to just before the instruction that faulted:\n"
                                "the next instruction of block 3 warp 7 faults in lane 8; focus on it\n"
                                "[block 3 warp 7, SM 3, cycle "));
    assert_non_null(strstr(out, "block 3 warp 7 lane 8 (thread 232,0,0) on SM 3"));
    assert_non_null(strstr(out, "=>   35          atomicAdd(out, in[i]);\n"));
    assert_non_null(strstr(out, "): ld.global.u32 %r6, [%rd5];\n"));
    assert_non_null(strstr(out, "  lanes  8-15:       1000       1001"));
    assert_non_null(strstr(out, "the replay faulted again: out-of-bounds at lessons/01-threads-and-races/kernel.cu:35\n"
                                "(1 command of the script not run: the launch had ended)"));
}

static void test_step_after_the_focus_warp_exits(void **s)
{
    (void)s;
    /* warp 0 returns after line 26; a step then stops as soon as the warp
     * is gone, at the next instruction of any other warp */
    assert_int_equal(step(RACY, "step 100\nstep\nfocus block 0 warp 7\nstep 100\nstep\n"), 2);
    assert_non_null(strstr(out, "(warpsim) step 100\nblock 0 warp 0 has exited; focus on another warp (info warps)\n"
                                "[block 0 warp 0, SM 0, cycle "));
    assert_non_null(strstr(out, "] every lane of this warp has exited\n"));
    assert_non_null(strstr(out, "error: every lane of block 0 warp 0 has exited"));
    /* the block's last warp: the block is gone too */
    assert_non_null(strstr(out, "block 0 warp 7 has exited; focus on another warp (info warps)\n"
                                "[block 0 warp 7, cycle 0] this block has finished\n"));
    assert_non_null(strstr(out, "error: block 0 has finished: focus on a resident block (info blocks)"));
}

static void test_end_of_input_quits_and_stdin_is_a_script(void **s)
{
    (void)s;
    assert_int_equal(run("step " RACY " < tests/step/lesson01-racy.txt"), 0);
    assert_non_null(strstr(out, "(warpsim) print %r7\n"));
    assert_int_equal(run("step " RACY " < /dev/null"), 0);
    assert_non_null(strstr(out, "(end of the commands: quit)\nthe launch was stopped"));
}

static void test_check_races_reports_the_lost_update_at_the_end(void **s)
{
    (void)s;
    assert_int_equal(step(RACY " --check races", "continue\n"), 1);
    assert_non_null(strstr(out, "the launch finished:"));
    assert_non_null(strstr(out, "race check: "));
    assert_non_null(strstr(out, "lost-update on global memory"));
    assert_int_equal(step(RACY " --check races", "quit\n"), 0);
}

static void test_bad_usage_is_status_2(void **s)
{
    (void)s;
    assert_int_equal(run("step " RACY " --script /nonexistent/x.txt"), 2);
    assert_non_null(strstr(out, "cannot open script '/nonexistent/x.txt'"));
    assert_int_equal(run("step " RACY " --backend gpu"), 2);
    assert_non_null(strstr(out, "a GPU cannot be paused"));
    assert_int_equal(run("step " L1 " --grid 1 --block 1"), 2);
    assert_non_null(strstr(out, "missing --kernel"));
    assert_int_equal(run("step --help"), 0);
    assert_non_null(strstr(out, "usage: warpsim step FILE"));
    /* a binary "script" is a failed command, not a crash */
    assert_int_equal(run("step " RACY " --script build/warpsim"), 2);
}

/* The script lesson 1's README shows: the student watches the updates go. */
static void test_lesson1_script_watches_racy_sum_lose_updates(void **s)
{
    (void)s;
    assert_int_equal(run("step " RACY " --script tests/step/lesson01-racy.txt"), 0);
    /* warp 0 loaded out[0]: 0 in every lane; each is about to store 1 */
    assert_non_null(strstr(out, "(warpsim) print %r7\n%r7 (b32) in block 0 warp 0:\n  lanes 0-31         0\n"));
    assert_non_null(strstr(out, "(warpsim) print %r8\n%r8 (b32) in block 0 warp 0:\n  lanes 0-31         1\n"));
    /* after the warp's 32 stores out[0] is 1, and after warp 1's still 1 */
    const char *p1 = nth(out, "(warpsim) print global arg1\n", 0), *p2 = nth(out, "(warpsim) print global arg1\n", 1);
    assert_non_null(p1);
    assert_non_null(p2);
    assert_non_null(strstr(p1, "1 x i32:\n  [0]           1\n"));
    assert_non_null(strstr(p2, "1 x i32:\n  [0]           1\n"));
    assert_non_null(strstr(out, "    1     ready               32     42    kernel.cu:26  st.global.u32 [%rd3], %r8;"));
    assert_non_null(strstr(out, "%r8 (b32) in block 0 warp 1:\n  lanes 0-31         1\n"));
    /* and in the end 1000 threads added 1 each, but out[0] is far short */
    const char *end = strstr(out, "arg1 (buf:i32[1]=fill:0) holds: ");
    assert_non_null(end);
    int total = atoi(end + strlen("arg1 (buf:i32[1]=fill:0) holds: "));
    assert_true(total >= 1 && total < 1000);
    /* the README shows the same commands, in the same order */
    FILE *f = fopen("lessons/01-threads-and-races/README.md", "r");
    assert_non_null(f);
    static char readme[1 << 16];
    readme[fread(readme, 1, sizeof readme - 1, f)] = 0;
    fclose(f);
    f = fopen("tests/step/lesson01-racy.txt", "r");
    assert_non_null(f);
    char line[256];
    const char *at = strstr(readme, "warpsim step " L1 " --kernel racy_sum");
    assert_non_null(at);
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '#' || line[0] == '\n')
            continue;
        line[strcspn(line, "\n")] = 0;
        char want[300];
        snprintf(want, sizeof want, "\n%s", line);
        const char *hit = strstr(at, want);
        if (!hit)
            fail_msg("README lacks the script line '%s' after the previous ones", line);
        at = hit + 1;
    }
    fclose(f);
}

static void test_viz_replays_the_launch_into_a_trace(void **s)
{
    (void)s;
    /* no display: the visualizer (when built in) cannot open, so the
     * command may fail, but the trace is written and its path named */
    unsetenv("DISPLAY");
    unsetenv("WAYLAND_DISPLAY");
    setenv("SDL_VIDEODRIVER", "x11", 1);
    int rc = run("step " RACY " --script tests/step/viz.txt");
    assert_true(rc == 0 || rc == 2);
    const char *t = strstr(out, "trace written to ");
    assert_non_null(t);
    char path[512];
    assert_int_equal(sscanf(t, "trace written to %511[^ ;]", path), 1);
    assert_non_null(strstr(t, "(removed when the stepper ends)"));
    struct stat st;
    /* the replay's trace lived as long as the session, and no longer */
    assert_int_not_equal(stat(path, &st), 0);
    assert_non_null(strstr(out, "warpsim run " L1 " --kernel racy_sum"));
    assert_non_null(strstr(out, "--trace-level memory\n"));
    assert_non_null(strstr(out, "error: viz 'nope': the views are gpu, sm, memory and atomics"));
    /* the trace is made once per session */
    assert_null(nth(out, "trace written to ", 1));
    assert_int_equal(run("trace dump %s", path), 2);
}

/* The defects a new user met: row labels of argK[I], the focus lane across
 * a breakpoint, a clock that seemed to run backwards, the help table. */
static void test_step_labels_rows_keeps_the_lane_and_explains_clocks(void **s)
{
    (void)s;
    int rc = step(L1 " --kernel racy_sum --grid 400 --block 256 --arg buf:i32[102400]=iota "
                  "--arg buf:i32[1]=fill:0 --arg i32:102400",
                  "print global arg0[998] 4\nhelp\nstep 40\nfocus block 0 warp 0 lane 5\n"
                  "break 26\ncontinue\nwhere\n");
    assert_int_equal(rc, 0);
    /* rows count from the element asked for */
    assert_non_null(strstr(out, "  [998]       998      999     1000     1001\n"));
    /* the alias column stays one column, after the longest usage */
    const char *p = strstr(out, "  print %REG | argK | shared ADDR [N] [TYPE] | global ADDR [N] [TYPE]  p\n");
    assert_non_null(p);
    const char *q = strstr(out, "  step [N]");
    assert_non_null(q);
    const char *qe = strchr(q, '\n'), *pe = strchr(p, '\n');
    assert_int_equal(qe - q, pe - p);
    /* the breakpoint moves the focus to another warp, not to another lane */
    assert_non_null(strstr(out, "block 1 warp 0 lane 5 (thread 5,0,0) on SM 1"));
    /* occupancy as it is, not rounded to a whole percent */
    assert_int_equal(step(L1 " --kernel racy_sum --grid 1 --block 256 --arg buf:i32[256]=fill:1 "
                             "--arg buf:i32[1]=fill:0 --arg i32:256", "info sms\n"), 0);
    assert_non_null(strstr(out, "1 block, 8 of 64 warps (12.5% occupancy)"));
    rc = step(L1 " --kernel racy_sum --grid 400 --block 256 --arg buf:i32[102400]=iota "
                 "--arg buf:i32[1]=fill:0 --arg i32:102400",
              "print global arg0[998] 4\nhelp\nstep 40\nfocus block 0 warp 0 lane 5\n"
              "break 26\ncontinue\nwhere\n");
    assert_int_equal(rc, 0);
    /* SM 1's clock reads less than SM 0's: said, once */
    assert_non_null(strstr(out, "so SM 0 has already reached cycle 128)"));
    assert_null(nth(out, "SMs are simulated in turn", 1));
}

/* ---- warpsim lesson ------------------------------------------------------------- */

static void test_lesson_offers_the_stepper_from_its_readme(void **s)
{
    (void)s;
    assert_int_equal(run("lesson 1 < /dev/null"), 0);
    assert_non_null(strstr(out, "Step through this lesson's kernel warp by warp"));
    assert_non_null(strstr(out, "  warpsim step lessons/01-threads-and-races/kernel.ptx --kernel racy_sum \\\n"
                                "    --grid 4 --block 256 --arg buf:i32[1000]=fill:1 --arg buf:i32[1]=fill:0 \\\n"
                                "    --arg i32:1000\n"));
    assert_non_null(strstr(out, "--trace lesson.wst --trace-level memory\n  warpsim viz lesson.wst\n"));
    /* not a terminal: no question */
    assert_null(strstr(out, "step through it now?"));
    /* lesson 4: its harness, then the offer */
    assert_int_equal(run("lesson 4 < /dev/null"), 0);
    assert_non_null(strstr(out, "  warpsim step lessons/04-occupancy/kernel.ptx --kernel scale_pad --gpu t4"));
}

/* Lesson 4's stepper section, as its README gives it. */
static void test_lesson4_blocks_wait_for_room(void **s)
{
    (void)s;
    const char *launch = "lessons/04-occupancy/kernel.ptx --kernel scale_pad --gpu t4 --grid 80 --block 256 "
                         "--smem %s --arg buf:f32[20480]=rand:1 --arg buf:f32[20480]=fill:0 --arg f32:2.5 "
                         "--arg i32:20480";
    char l[512];
    snprintf(l, sizeof l, launch, "40000");
    assert_int_equal(step(l, "info sms\nfocus block 40\nstep\ninfo sms\n"), 0);
    assert_non_null(strstr(out, "40 blocks resident on 40 SMs, 0 finished, 40 not started (grid of 80)\n"
                                "  SMs 0-39    1 block each, 8 of 32 warps (25% occupancy)\n"));
    assert_non_null(strstr(out, "[block 40 warp 0, cycle 0] this block has not started yet\n"));
    assert_non_null(strstr(out, "(warpsim) step\n[block 40 warp 0, SM 0, cycle "));
    /* the whole first wave ends at once; the second takes every SM's place */
    assert_non_null(strstr(out, "40 blocks resident on 40 SMs, 40 finished, 0 not started (grid of 80)\n"));
    snprintf(l, sizeof l, launch, "4");
    assert_int_equal(step(l, "info sms\n"), 0);
    assert_non_null(strstr(out, "80 blocks resident on 40 SMs, 0 finished, 0 not started (grid of 80)\n"
                                "  SMs 0-39    2 blocks each, 16 of 32 warps (50% occupancy)\n"
                                "  SM 0 holds blocks 0 40 (the focus block's SM)\n"));
}

/* script(1) is there and can make a pseudo-terminal (a container without
 * /dev/pts cannot): else the terminal tests skip, saying why. */
static void need_pty(void)
{
    if (system("command -v script > /dev/null 2>&1") != 0) {
        printf("skip: no script(1) to make a pseudo-terminal\n");
        skip();
    }
    if (system("script -qc true /dev/null > /dev/null 2>&1") != 0) {
        printf("skip: script(1) cannot make a pseudo-terminal here (no /dev/pts?)\n");
        skip();
    }
}

/* On a terminal (a pseudo-terminal made by script(1)): the lesson asks, the
 * stepper reads through libedit, and an empty line repeats the command. */
static void test_lesson_on_a_terminal_starts_the_stepper(void **s)
{
    (void)s;
    need_pty();
    char cmd[512];
    snprintf(cmd, sizeof cmd, "printf 'y\\nnext\\n\\nquit\\n' | script -qc '%s lesson 1' /dev/null 2>&1",
             warpsim());
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    size_t n = fread(out, 1, sizeof out - 1, p);
    out[n] = 0;
    pclose(p);
    assert_non_null(strstr(out, "step through it now? [y/N]"));
    assert_non_null(strstr(out, "(warpsim) next\r\n[block 0 warp 0, SM 0, cycle 0] kernel.cu:24"));
    assert_non_null(strstr(out, "(warpsim) \r\n[block 0 warp 0, SM 0, cycle 0] kernel.cu:25"));
    assert_non_null(strstr(out, "the launch was stopped at cycle"));
}

/* At a terminal, Tab completes commands and the words after them. */
static void test_tab_completes_commands_and_their_words(void **s)
{
    (void)s;
    need_pty();
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "printf 'inf\\tbl\\t\\nfoc\\t th\\t 40\\nq\\t\\n' | script -qc '%s step %s' "
             "/dev/null 2>&1", warpsim(), RACY);
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    size_t n = fread(out, 1, sizeof out - 1, p);
    out[n] = 0;
    pclose(p);
    assert_non_null(strstr(out, "4 blocks resident on 4 SMs"));
    assert_non_null(strstr(out, "[block 0 warp 1, SM 0, cycle 0]"));
    assert_non_null(strstr(out, "the launch was stopped at cycle"));
}

/* ---- step.h, directly: a Stepper with no terminal and no warpsim process ---------- */

/* The caller's side of a session: the command lines to give, and a log of
 * what the Stepper asked and told. */
typedef struct {
    const char *const *lines;    /* NULL-terminated */
    int next;
    int reads;                   /* read calls, the one answered NULL included */
    char prompt[32];
    int resumed, paused;         /* running(true) / running(false) calls */
    bool interrupt_on_resume;    /* Ctrl-C as soon as the launch goes on */
    Stepper *seen;               /* the Stepper running() was given */
} Session;

static const char *lib_read(void *user, const char *prompt)
{
    Session *c = user;
    c->reads++;
    snprintf(c->prompt, sizeof c->prompt, "%s", prompt);
    return c->lines[c->next] ? c->lines[c->next++] : NULL;
}

static void lib_running(void *user, Stepper *s, bool on)
{
    Session *c = user;
    c->seen = s;
    if (!on) {
        c->paused++;
        return;
    }
    c->resumed++;
    if (c->interrupt_on_resume) {
        c->interrupt_on_resume = false;
        step_interrupt(s);
    }
}

/* Run lesson 1's racy_sum (4 blocks of 256) under a Stepper fed c's lines;
 * its output into out, the Stepper's error count and quit into *errors and
 * *quit.  Returns the launch's status. */
static SimStatus lib_session(Session *c, int *errors, bool *quit)
{
    char msg[512];
    SimError err;
    sim_error_clear(&err);
    Device *dev = device_open_sim("sm_90", &err);
    assert_non_null(dev);
    size_t len = 0;
    char *ptx = source_load_ptx(L1, device_arch(dev), &len, msg, sizeof msg);
    assert_non_null(ptx);
    DeviceModule *mod = NULL;
    assert_int_equal(device_load_ptx(dev, L1, ptx, len, &mod, &err), SIM_OK);
    char *toks[] = {"--kernel", "racy_sum", "--grid", "4", "--block", "256", "--arg", "buf:i32[1000]=fill:1",
                    "--arg", "buf:i32[1]=fill:0", "--arg", "i32:1000", NULL};
    LaunchSpec spec;
    launch_spec_init(&spec);
    assert_true(launch_parse_tokens(&spec, 12, toks, msg, sizeof msg));
    char *text = NULL;
    size_t tlen = 0;
    FILE *o = open_memstream(&text, &tlen);
    assert_non_null(o);
    StepConfig cfg = {.file = L1, .ptx_path = L1, .arch = device_arch(dev), .ptx = ptx, .ptx_len = len,
                      .spec = &spec, .read = lib_read, .running = lib_running, .user = c, .out = o};
    Stepper *s = step_new(&cfg);
    assert_non_null(s);
    spec.on_issue = step_on_issue;
    spec.on_issue_user = s;
    LaunchResult res;
    memset(&res, 0, sizeof res);
    SimStatus st = launch_run(dev, mod, &spec, &res, msg, sizeof msg);
    *errors = step_errors(s);
    *quit = step_quit_requested(s);
    if (st == SIM_ERR_FAULT)
        assert_string_equal(res.fault.kind, "stopped");
    if (st == SIM_OK) /* every update of out[0] ran, however many were lost */
        assert_true(res.nbufs == 2 && res.bufs[1].count == 1);
    if (c->seen)
        assert_ptr_equal(c->seen, s);
    step_free(s);
    fclose(o);
    assert_true(tlen < sizeof out);
    memcpy(out, text, tlen + 1);
    free(text);
    launch_result_free(&res);
    launch_spec_free(&spec);
    free(ptx);
    device_close(dev);
    return st;
}

static void test_stepper_library_breaks_steps_prints_and_continues(void **s)
{
    (void)s;
    static const char *const lines[] = {"break 26", "continue", "print %r1", "step 4", "print %r7", "",
                                        "delete", "continue", NULL};
    Session c = {.lines = lines};
    int errors;
    bool quit;
    assert_int_equal(lib_session(&c, &errors, &quit), SIM_OK);
    assert_int_equal(errors, 0);
    assert_false(quit);
    assert_int_equal(c.reads, 8); /* every line, and none after the last continue */
    assert_string_equal(c.prompt, "(warpsim) ");
    /* paused at the start, at the breakpoint, after the step; resumed three times */
    assert_int_equal(c.paused, 3);
    assert_int_equal(c.resumed, 3);
    const char *start = strstr(out, "paused before the first instruction of racy_sum");
    const char *hit = strstr(out, "breakpoint 1 (kernel.cu:26), hit 1: focus on block 0 warp 0\n"
                                  "[block 0 warp 0, SM 0, cycle 0] kernel.cu:26  mul.wide.s32");
    const char *r1 = strstr(out, "%r1 (b32) in block 0 warp 0:\n  lanes  0-7 :          0          1");
    const char *r7 = strstr(out, "%r7 (b32) in block 0 warp 0:\n  lanes 0-31         0\n");
    assert_non_null(start);
    assert_non_null(strstr(out, "breakpoint 1 at kernel.cu:26\n"));
    assert_non_null(hit);
    assert_non_null(r1);
    assert_non_null(r7);
    assert_true(start < hit && hit < r1 && r1 < r7);
    /* the empty line repeated print %r7 */
    assert_non_null(strstr(r7 + 1, "%r7 (b32) in block 0 warp 0:"));
    assert_non_null(strstr(out, "deleted every breakpoint\n"));
    /* no prompt echo: echoing is the caller's business */
    assert_null(strstr(out, "(warpsim)"));
}

static void test_stepper_library_end_of_input_quits_and_counts_errors(void **s)
{
    (void)s;
    static const char *const lines[] = {"frobnicate", "print %r99", "step", NULL};
    Session c = {.lines = lines};
    int errors;
    bool quit;
    assert_int_equal(lib_session(&c, &errors, &quit), SIM_ERR_FAULT);
    assert_true(quit);
    assert_int_equal(errors, 2);
    assert_int_equal(c.reads, 4); /* 2 bad, step; then the end of input */
    assert_int_equal(c.paused, 2);
    assert_non_null(strstr(out, "error: unknown command 'frobnicate' (help lists the commands)\n"));
    assert_non_null(strstr(out, "error: no register %r99 in racy_sum"));
    assert_non_null(strstr(out, "(end of the commands: quit)\n"));
    /* a quit does not tell the caller the launch goes on */
    assert_int_equal(c.resumed, 1);
}

static void test_stepper_library_interrupt_stops_at_the_next_instruction(void **s)
{
    (void)s;
    /* continue with no breakpoint would run to the end; Ctrl-C stops it */
    static const char *const lines[] = {"continue", "quit", NULL};
    Session c = {.lines = lines, .interrupt_on_resume = true};
    int errors;
    bool quit;
    assert_int_equal(lib_session(&c, &errors, &quit), SIM_ERR_FAULT);
    assert_true(quit);
    assert_int_equal(errors, 0);
    assert_int_equal(c.reads, 2);
    assert_int_equal(c.paused, 2);
    const char *intr = strstr(out, "interrupted\n[block ");
    assert_non_null(intr);
    assert_true(strstr(out, "paused before the first instruction") < intr);
}

static void test_stepper_library_rejects_a_config_without_read_or_out(void **s)
{
    (void)s;
    LaunchSpec spec;
    launch_spec_init(&spec);
    Session c = {.lines = (const char *const[]){NULL}};
    StepConfig cfg = {.file = L1, .spec = &spec, .read = lib_read, .user = &c, .out = stdout};
    cfg.read = NULL;
    assert_null(step_new(&cfg));
    cfg.read = lib_read;
    cfg.out = NULL;
    assert_null(step_new(&cfg));
    assert_null(step_new(NULL));
    step_free(NULL);
}

static void test_stepper_library_completion_words(void **s)
{
    (void)s;
    assert_string_equal(step_command_word(NULL, 0), "step");
    assert_string_equal(step_command_word("info", 0), "warps");
    assert_string_equal(step_command_word("i", 5), "breakpoints"); /* the abbreviation */
    assert_string_equal(step_command_word("help", 1), "next");
    assert_string_equal(step_command_word("focus", 3), "thread");
    assert_null(step_command_word("quit", 0));
    assert_null(step_command_word("nosuch", 0));
    int n = 0;
    while (step_command_word(NULL, n))
        n++;
    assert_int_equal(n, 12);
}

/* ---- inspect.h, directly ------------------------------------------------------- */

typedef struct {
    int calls;
    uint64_t param1;
    int nparams, size1;
    int32_t first_pc;
    uint32_t first_mask;
    int type_r7, type_rd1, type_p1, nregs;
    bool next_ok_for_absent;
} Seen;

static int on_issue(void *user, const SimView *v, uint64_t block, int warp)
{
    Seen *s = user;
    if (s->calls++ == 0) {
        s->nparams = view_param_count(v);
        view_param(v, 1, &s->param1, &s->size1);
        view_next(v, block, warp, &s->first_pc, &s->first_mask);
        s->type_r7 = view_reg_type(v, block, warp, 0, "%r7");
        s->type_rd1 = view_reg_type(v, block, warp, 0, "%rd1");
        s->type_p1 = view_reg_type(v, block, warp, 0, "%p1");
        const char *names[4];
        s->nregs = view_regs(v, block, warp, 0, names, 4);
        int32_t pc;
        uint32_t m;
        s->next_ok_for_absent = view_next(v, 999, 0, &pc, &m) || view_next(v, block, 99, &pc, &m);
    }
    return SIM_VIEW_CONTINUE;
}

static void test_inspect_next_param_and_register_types(void **st)
{
    (void)st;
    SimError err;
    Device *d = device_open_sim("sm_90", &err);
    assert_non_null(d);
    size_t len;
    char msg[256];
    char *ptx = source_read_file(L1, &len, msg, sizeof msg);
    assert_non_null(ptx);
    DeviceModule *m;
    assert_int_equal(device_load_ptx(d, L1, ptx, len, &m, &err), SIM_OK);
    DevicePtr in, o;
    assert_int_equal(device_malloc(d, 64 * 4, &in, &err), SIM_OK);
    assert_int_equal(device_malloc(d, 4, &o, &err), SIM_OK);
    int n = 64;
    void *args[] = {&in, &o, &n};
    Seen seen = {0};
    DeviceLaunch cfg = {.grid = {1, 1, 1}, .block = {64, 1, 1}, .on_issue = on_issue, .on_issue_user = &seen};
    assert_int_equal(device_launch(m, "racy_sum", &cfg, args, NULL, NULL, &err), SIM_OK);
    assert_true(seen.calls > 10);
    assert_int_equal(seen.nparams, 3);
    assert_int_equal(seen.param1, o);
    assert_int_equal(seen.size1, 8);
    assert_int_equal(seen.first_mask, 0xffffffffu);
    assert_true(seen.first_pc >= 0);
    assert_int_equal(seen.type_r7, PTX_T_B32);
    assert_int_equal(seen.type_rd1, PTX_T_B64);
    assert_int_equal(seen.type_p1, PTX_T_PRED);
    assert_int_equal(seen.nregs, 2 + 9 + 7); /* %p<2>, %r<9>, %rd<7> */
    assert_false(seen.next_ok_for_absent);
    free(ptx);
    device_close(d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_step_pauses_first_and_quit_ends_cleanly),
        cmocka_unit_test(test_step_advances_the_focus_warps_pc),
        cmocka_unit_test(test_next_goes_to_another_cu_line),
        cmocka_unit_test(test_break_stops_any_warp_at_the_line),
        cmocka_unit_test(test_break_file_line_and_bad_lines),
        cmocka_unit_test(test_print_register_groups_equal_lanes),
        cmocka_unit_test(test_print_global_and_arguments),
        cmocka_unit_test(test_print_shared_and_info_at_a_barrier),
        cmocka_unit_test(test_info_blocks_sms_and_lanes_of_a_diverged_warp),
        cmocka_unit_test(test_unknown_command_suggests_the_closest),
        cmocka_unit_test(test_garbage_commands_are_errors_never_crashes),
        cmocka_unit_test(test_faulting_kernel_reports_the_fault),
        cmocka_unit_test(test_step_after_the_focus_warp_exits),
        cmocka_unit_test(test_end_of_input_quits_and_stdin_is_a_script),
        cmocka_unit_test(test_check_races_reports_the_lost_update_at_the_end),
        cmocka_unit_test(test_bad_usage_is_status_2),
        cmocka_unit_test(test_lesson1_script_watches_racy_sum_lose_updates),
        cmocka_unit_test(test_viz_replays_the_launch_into_a_trace),
        cmocka_unit_test(test_lesson_offers_the_stepper_from_its_readme),
        cmocka_unit_test(test_lesson4_blocks_wait_for_room),
        cmocka_unit_test(test_lesson_on_a_terminal_starts_the_stepper),
        cmocka_unit_test(test_tab_completes_commands_and_their_words),
        cmocka_unit_test(test_stepper_library_breaks_steps_prints_and_continues),
        cmocka_unit_test(test_stepper_library_end_of_input_quits_and_counts_errors),
        cmocka_unit_test(test_stepper_library_interrupt_stops_at_the_next_instruction),
        cmocka_unit_test(test_stepper_library_rejects_a_config_without_read_or_out),
        cmocka_unit_test(test_stepper_library_completion_words),
        cmocka_unit_test(test_step_labels_rows_keeps_the_lane_and_explains_clocks),
        cmocka_unit_test(test_inspect_next_param_and_register_types),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
