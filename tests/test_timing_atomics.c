/* test_timing_atomics.c: the atomics unit (sim/timing_atomics.c): updates
 * of one address serialise at L2, distinct addresses do not; shared-memory
 * atomics serialise per address inside the SM. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "arch.h"
#include "timing_int.h"

#define GBASE 0x0000700000000000ull

static TimingModel *model(DeviceTiming *out)
{
    ArchTarget t;
    SimError e;
    assert_int_equal(arch_resolve("sm_90", &t, &e), SIM_OK);
    TimingModel *tm = timing_model_new(timing_params_for(t.arch), 2, 64 * 1024, out);
    assert_non_null(tm);
    return tm;
}

static uint64_t warp(TimingModel *tm, uint64_t t, uint64_t stride)
{
    uint64_t a[32];
    for (int l = 0; l < 32; l++)
        a[l] = GBASE + 4096 + (uint64_t)l * stride;
    return timing_atomics_global(tm, 0, t, 0xffffffffu, a, 4, NULL);
}

static void test_one_address_serialises_a_warp(void **s)
{
    (void)s;
    DeviceTiming out;
    TimingModel *tm = model(&out);
    /* (the lines warmed in L2 first: DRAM latencies differ by address) */
    const uint64_t t = 1000000;
    warp(tm, 0, 128);
    uint64_t spread = warp(tm, t, 128) - t; /* 32 addresses in 32 lines */
    timing_model_free(tm);
    tm = model(&out);
    warp(tm, 0, 0);
    uint64_t same = warp(tm, t, 0) - t;
    const double *v = tm->p->v;
    assert_true(same >= spread + (uint64_t)(31 * v[TP_ATOM_SAME_ADDR]));
    timing_model_free(tm);
}

/* 32 counters in one 128-byte line share the line's atomic unit
 * (TP_ATOM_SAME_LINE per address: the H100's atomics bins32), 32 counters
 * in 32 lines do not; one line is still far faster than one address. */
static void test_addresses_of_one_line_share_its_unit(void **s)
{
    (void)s;
    DeviceTiming out;
    TimingModel *tm = model(&out);
    const double *v = tm->p->v;
    uint64_t lines0 = warp(tm, 0, 128), lines = 0, line0, line = 0, one0, one = 0;
    for (int i = 1; i < 64; i++)
        lines = warp(tm, 0, 128);
    timing_model_free(tm);
    tm = model(&out);
    line0 = warp(tm, 0, 4);
    for (int i = 1; i < 64; i++)
        line = warp(tm, 0, 4);
    timing_model_free(tm);
    tm = model(&out);
    one0 = warp(tm, 0, 0);
    for (int i = 1; i < 64; i++)
        one = warp(tm, 0, 0);
    timing_model_free(tm);
    /* 63 more requests of 32 addresses each through one line's unit */
    uint64_t per_line = (uint64_t)(63 * 32 * v[TP_ATOM_SAME_LINE]);
    assert_true(line - line0 + 2 >= per_line);
    assert_true(lines - lines0 < per_line);
    assert_true(one - one0 > 4 * (line - line0));
}

static void test_contended_counter_costs_one_interval_per_update(void **s)
{
    (void)s;
    DeviceTiming out;
    TimingModel *tm = model(&out);
    const double *v = tm->p->v;
    uint64_t last = 0;
    enum { WARPS = 1000 };
    for (int k = 0; k < WARPS; k++) /* all issued at once, from two SMs */
        last = warp(tm, 0, 0);
    assert_true(last >= (uint64_t)(WARPS * 32 * v[TP_ATOM_SAME_ADDR]));
    timing_model_free(tm);
    tm = model(&out);
    uint64_t spread = 0;
    for (int k = 0; k < WARPS; k++)
        spread = warp(tm, 0, 4);
    assert_true(spread * 4 < last);
    timing_model_free(tm);
}

static uint64_t sent_of(TimingModel *tm, uint64_t stride)
{
    uint64_t a[32], sent = 0;
    for (int l = 0; l < 32; l++)
        a[l] = GBASE + 4096 + (uint64_t)l * stride;
    timing_atomics_global(tm, 0, 0, 0xffffffffu, a, 4, &sent);
    return sent;
}

/* An SM sends at most TP_ATOM_OUTSTANDING updates that L2 has not
 * performed: lanes on one address are an update each (bins1: 32 a warp), a
 * sector of distinct addresses one (bins32: 4 a warp).  The H100 keeps
 * bins1's warps resident while they wait (drain); bins32's leave at once. */
static void test_an_sm_sends_a_bounded_number_of_updates(void **s)
{
    (void)s;
    DeviceTiming out;
    TimingModel *tm = model(&out);
    const double *v = tm->p->v;
    int per = (int)v[TP_ATOM_OUTSTANDING] / 32, k;
    assert_true(per >= 2);
    for (k = 0; k < per; k++) /* room for these: sent at once */
        assert_int_equal(sent_of(tm, 0), 0);
    uint64_t waited = sent_of(tm, 0), more = 0;
    assert_true(waited > 0);
    for (k = 0; k < per; k++)
        more = sent_of(tm, 0);
    /* each further warp waits for 32 updates of the address to be done */
    assert_true(more >= waited + (uint64_t)((per - 1) * 32 * v[TP_ATOM_SAME_ADDR]));
    timing_model_free(tm);
    tm = model(&out);
    for (k = 0; k < (int)v[TP_ATOM_OUTSTANDING] / 4; k++) /* 4 updates a warp */
        assert_int_equal(sent_of(tm, 4), 0);
    assert_true(sent_of(tm, 4) > 0);
    timing_model_free(tm);
}

static void test_shared_atomics_serialise_per_address(void **s)
{
    (void)s;
    uint64_t a[32];
    for (int l = 0; l < 32; l++)
        a[l] = (uint64_t)(l % 4) * 4; /* 4 addresses, 8 lanes each */
    assert_int_equal(timing_atomics_shared_serial(0xffffffffu, a), 7);
    for (int l = 0; l < 32; l++)
        a[l] = (uint64_t)l * 4;
    assert_int_equal(timing_atomics_shared_serial(0xffffffffu, a), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_one_address_serialises_a_warp),
        cmocka_unit_test(test_addresses_of_one_line_share_its_unit),
        cmocka_unit_test(test_contended_counter_costs_one_interval_per_update),
        cmocka_unit_test(test_an_sm_sends_a_bounded_number_of_updates),
        cmocka_unit_test(test_shared_atomics_serialise_per_address),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
