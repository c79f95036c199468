/* test_timing_hoist.c: the timing model issues loads as ptxas schedules them
 * (sim/timing_hoist.c): while a warp's next instruction waits for its
 * operands, a later load it may pass goes first -- a global load passes a
 * shared store -- and a load never passes a store that may write what it
 * reads (a global store, a store through a generic pointer).  Watched in the
 * stepper, which shows each instruction as it issues; that the results stay
 * those of PTX order is test_timing_identical.c's (tests/kernels/hoist.cu). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "step_fixture.h"

/* Step warp 0 of block 0 n times. */
static void step_n(const char *launch, int n)
{
    char script[4096] = "";
    for (int i = 0; i < n; i++)
        strcat(script, "step\n");
    strcat(script, "quit\n");
    assert_int_equal(step(launch, script), 0);
}

/* Of the stepper's stop lines ("[block ..., issuing] file:line  inst"), the
 * number of the k-th (from 1) whose instruction starts with inst; -1 none. */
static int issuing(const char *inst, int k)
{
    int line = 0;
    for (const char *p = out; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL) {
        const char *e = strchr(p, '\n'), *at = strstr(p, ", issuing] ");
        if (strncmp(p, "[block ", 7) || !at || (e && at > e))
            continue;
        line++;
        const char *i = strstr(at, "  ");
        if (i && (!e || i < e) && !strncmp(i + 2, inst, strlen(inst)) && --k == 0)
            return line;
    }
    return -1;
}

#define TRANSPOSE "tests/timing/smem.ptx --grid 1 --block 32,8 --arg i32:32 --timing"

static void test_a_tiles_four_loads_issue_before_its_first_shared_store(void **s)
{
    (void)s;
    step_n("--kernel transpose_padded " TRANSPOSE, 30);
    int ld4 = issuing("ld.global.f32 %f4", 1), st1 = issuing("st.shared.f32 [%r14], %f1", 1);
    assert_true(ld4 > 0 && st1 > 0);
    assert_true(ld4 < st1); /* the PTX has the store second, the fourth load seventh */
}

static void test_a_load_stays_after_a_global_store(void **s)
{
    (void)s;
    step_n("--kernel copy_tile " TRANSPOSE, 30);
    int st1 = issuing("st.global.f32", 1), ld2 = issuing("ld.global.f32", 2);
    assert_true(st1 > 0 && ld2 > 0);
    assert_true(st1 < ld2); /* g_a and g_b are different arrays, but ptxas does not know it either */
}

static void test_a_shared_load_stays_after_a_generic_store(void **s)
{
    (void)s;
    step_n("--kernel load_after_generic_store tests/kernels/hoist.ptx --grid 1 --block 32 --timing "
           "--arg 'buf:i32[8192]=fill:1' --arg 'buf:i32[8192]=fill:2' --arg i32:64",
           40);
    int st = issuing("st.u32", 1), lds = issuing("ld.shared.u32", 1), ldg = issuing("ld.global.u32 %r14", 1);
    assert_true(st > 0 && lds > 0 && ldg > 0);
    assert_true(st < lds && st < ldg); /* the generic store may write anything */
    /* and what it computed is PTX order's: lane t reads lane t ^ 1's
     * (t ^ 1) * 7 + 64, plus b's 2, into a[4096 + t] */
    assert_int_equal(run("run tests/kernels/hoist.ptx --kernel load_after_generic_store --grid 1 --block 32 "
                         "--timing --arg 'buf:i32[8192]=fill:1' --arg 'buf:i32[8192]=fill:2' --arg i32:64 --json"),
                     0);
    assert_non_null(strstr(out, ", 1, 73, 66, 87, 80, 101, 94, "));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_a_tiles_four_loads_issue_before_its_first_shared_store),
        cmocka_unit_test(test_a_load_stays_after_a_global_store),
        cmocka_unit_test(test_a_shared_load_stays_after_a_generic_store),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
