/* test_step_timing.c: `warpsim step --timing` driven by a script -- every
 * stop shows the modelled cycle and what the focus warp does in it (issuing,
 * or stalled for a reason under Nsight Compute's name), `info warps` gains a
 * timing column in which lesson 07's gather waits on long_scoreboard, and
 * the same script untimed shows neither.  Run from the repository root
 * ($WARPSIM names build/warpsim). */
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

#include "step_fixture.h"

#define GATHER "lessons/07-caches-carveout/kernel.ptx --kernel l1_gather --grid 2 --block 256 " \
    "--arg buf:f32[1]=fill:0 --arg i32:2"

/* The modelled cycles of every stop line, in order. */
static int stop_cycles(uint64_t *c, int cap)
{
    int n = 0;
    for (const char *p = out; (p = strstr(p, ", modelled cycle ")) && n < cap; p++)
        c[n++] = strtoull(p + strlen(", modelled cycle "), NULL, 10);
    return n;
}

static const char script[] = "step\nstep 40\ninfo warps\nfocus block 0 warp 2\nwhere\nstep\nquit\n";

static void test_step_timing_stops_show_modelled_cycles_and_stall_reasons(void **s)
{
    (void)s;
    assert_int_equal(step(GATHER " --timing", script), 0);
    /* the first stop: after the block's dispatch and its first instruction
     * fetches, the focus warp about to issue */
    assert_non_null(strstr(out, "[block 0 warp 0, SM 0, modelled cycle 225, issuing] kernel.cu:15"));
    uint64_t c[8];
    int n = stop_cycles(c, 8);
    assert_true(n >= 5);
    for (int i = 1; i < n; i++) /* time only goes forward on one SM */
        assert_true(c[i] >= c[i - 1]);
    /* 40 instructions of warp 0 include global loads it had to wait for:
     * hundreds of modelled cycles, not 40 issue slots */
    assert_true(c[2] > c[1] + 300);
    /* info warps: the timing column, the focus warp issuing, the others
     * mostly waiting for their loads */
    assert_non_null(strstr(out, "   warp  state               timing                       lanes  pc"));
    assert_non_null(strstr(out, " *> 0     issuing now         issuing       "));
    assert_true(count("stalled: long_scoreboard     32 ") >= 4);
    /* focus on a stalled warp: its stop line says why it waits, where too
     * (its next load waits for the registers the last one still has to
     * write: the add that reads them was let go ahead, ptxas's schedule) */
    assert_non_null(strstr(out, "[block 0 warp 2, SM 0, modelled cycle "));
    const char *f = strstr(out, "(warpsim) focus block 0 warp 2\n");
    assert_non_null(f);
    assert_non_null(strstr(f, ", stalled: long_scoreboard] kernel.cu:21  ld.global.v4.f32"));
    assert_non_null(strstr(f, "this warp is stalled: long_scoreboard (the timing model, this cycle)"));
    /* stepping it: the load issues once the last one is back, and the add
     * after it is next */
    const char *st = strstr(f, "(warpsim) step\n");
    assert_non_null(st);
    assert_non_null(strstr(st, "[block 0 warp 2, SM 0, modelled cycle "));
    assert_non_null(strstr(st, ", issuing] kernel.cu:22"));
}

static void test_step_untimed_shows_neither(void **s)
{
    (void)s;
    assert_int_equal(step(GATHER, script), 0);
    assert_non_null(strstr(out, "[block 0 warp 0, SM 0, cycle 0] kernel.cu:15"));
    assert_null(strstr(out, "modelled"));
    assert_null(strstr(out, "stalled:"));
    assert_non_null(strstr(out, "   warp  state               lanes  pc    line          instruction\n"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_step_timing_stops_show_modelled_cycles_and_stall_reasons),
        cmocka_unit_test(test_step_untimed_shows_neither),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
