/* test_residency.c: blocks resident per SM, waves and achieved occupancy
 * from hand-made per-block records (gpu/residency.h), where every number
 * can be worked out on paper. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "residency.h"

#define REC(sm, s, e) {(sm), 0, (s), (e)}

/* SM 0: [10,20) [15,25) [20,30); SM 1: [10,30). */
static const InstrRecord two_sms[] = {REC(0, 10, 20), REC(0, 15, 25), REC(0, 20, 30), REC(1, 10, 30)};

static void test_residency_overlap_counts_ends_before_starts(void **s)
{
    (void)s;
    Residency r;
    assert_int_equal(residency_compute(two_sms, 4, 2, 8, &r, NULL), SIM_OK);
    assert_int_equal(r.blocks, 4);
    assert_int_equal(r.complete, 4);
    assert_int_equal(r.sms, 2);
    assert_int_equal(r.max_smid, 1);
    assert_int_equal(r.max_resident, 2);        /* [20,30) starts as [10,20) ends */
    assert_int_equal(r.max_resident_per_sm[0], 2);
    assert_int_equal(r.max_resident_per_sm[1], 1);
    assert_int_equal(r.min_of_max_resident, 1);
    assert_int_equal(r.first_start, 10);
    assert_int_equal(r.last_end, 30);
    residency_free(&r);
}

/* Two blocks held together for 50 us, a third that overlaps the end of one
 * of them briefly (as when the next block starts while the old block's last
 * warps finish): the steady level is 2, the brief peak 3. */
static void test_residency_steady_ignores_brief_peaks(void **s)
{
    (void)s;
    static const InstrRecord recs[] = {REC(0, 1000, 51000), REC(0, 1000, 51000), REC(0, 50000, 100000)};
    Residency r;
    assert_int_equal(residency_compute(recs, 3, 1, 64, &r, NULL), SIM_OK);
    assert_int_equal(r.max_resident, 3);    /* [50000, 51000): 1 us of 99 */
    assert_int_equal(r.steady_resident, 2); /* 49 us of 99 at two, 49 at one */
    assert_true(r.time_at[3] < RESIDENCY_STEADY_FRACTION);
    residency_free(&r);
}

static void test_residency_waves_are_the_longest_chain_on_one_sm(void **s)
{
    (void)s;
    Residency r;
    assert_int_equal(residency_compute(two_sms, 4, 2, 8, &r, NULL), SIM_OK);
    assert_int_equal(r.waves, 2);
    residency_free(&r);
    /* 3 full waves of 2 blocks on each of 2 SMs */
    InstrRecord w[12];
    for (int i = 0; i < 12; i++)
        w[i] = (InstrRecord){(uint32_t)(i % 2), 0, 100 + 10 * (uint64_t)(i / 4), 110 + 10 * (uint64_t)(i / 4)};
    assert_int_equal(residency_compute(w, 12, 1, 4, &r, NULL), SIM_OK);
    assert_int_equal(r.waves, 3);
    assert_int_equal(r.max_resident, 2);
    assert_true(r.achieved_occupancy > 0.4999 && r.achieved_occupancy < 0.5001); /* 2 of 4 warps */
    residency_free(&r);
}

static void test_residency_achieved_occupancy_is_time_weighted(void **s)
{
    (void)s;
    Residency r;
    /* warp-time: SM0 2*(10+10+10) = 60, SM1 2*20 = 40; active time 20 + 20;
     * 100 / (8 * 40) = 0.3125; mean resident 100 / 2 / 40 = 1.25 */
    assert_int_equal(residency_compute(two_sms, 4, 2, 8, &r, NULL), SIM_OK);
    assert_true(r.achieved_occupancy > 0.31249 && r.achieved_occupancy < 0.31251);
    assert_true(r.mean_resident > 1.2499 && r.mean_resident < 1.2501);
    /* time at 1 resident: SM0 5+5, SM1 20 -> 30 of 40; at 2: 10 of 40 */
    assert_true(r.time_at[1] > 0.7499 && r.time_at[1] < 0.7501);
    assert_true(r.time_at[2] > 0.2499 && r.time_at[2] < 0.2501);
    residency_free(&r);
}

static void test_residency_skips_incomplete_records(void **s)
{
    (void)s;
    InstrRecord recs[] = {REC(0, 10, 20), REC(0, 0, 0), REC(3, 15, 0), REC(0, 30, 25)};
    Residency r;
    assert_int_equal(residency_compute(recs, 4, 1, 64, &r, NULL), SIM_OK);
    assert_int_equal(r.blocks, 4);
    assert_int_equal(r.complete, 1);
    assert_int_equal(r.sms, 1);
    assert_int_equal(r.max_smid, 0);
    assert_int_equal(r.max_resident, 1);
    residency_free(&r);
    assert_int_equal(residency_compute(recs, 0, 1, 64, &r, NULL), SIM_OK);
    assert_int_equal(r.max_resident, 0);
    assert_int_equal(r.waves, 0);
    residency_free(&r);
}

static void test_residency_series_steps_per_distinct_time(void **s)
{
    (void)s;
    ResidencyStep st[8];
    size_t n = residency_series(two_sms, 4, 0, st, 8);
    assert_int_equal(n, 5);
    const uint64_t t[] = {10, 15, 20, 25, 30};
    const int k[] = {1, 2, 2, 1, 0};
    for (size_t i = 0; i < n; i++) {
        assert_int_equal(st[i].t, t[i]);
        assert_int_equal(st[i].resident, k[i]);
    }
    assert_int_equal(residency_series(two_sms, 4, 0, st, 2), 5); /* as snprintf */
    assert_int_equal(residency_series(two_sms, 4, 7, st, 8), 0);
}

static void test_residency_rejects_zero_warps(void **s)
{
    (void)s;
    Residency r;
    SimError e;
    sim_error_clear(&e);
    assert_int_equal(residency_compute(two_sms, 4, 0, 8, &r, &e), SIM_ERR_USAGE);
    assert_non_null(strstr(e.msg, "at least 1"));
    residency_free(&r);
}

static void test_residency_decodes_little_endian_records(void **s)
{
    (void)s;
    unsigned char b[INSTR_RECORD_BYTES] = {7, 0, 0, 0, 64, 0, 0, 0, 0x10, 0x27, 0, 0, 0, 0, 0, 0,
                                           0x20, 0x4e, 0, 0, 0, 0, 0, 1};
    InstrRecord r;
    instr_decode(b, 1, &r);
    assert_int_equal(r.smid, 7);
    assert_int_equal(r.finished, 64);
    assert_int_equal(r.start, 10000);
    assert_int_equal(r.end, 20000 + (1ull << 56));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_residency_overlap_counts_ends_before_starts),
        cmocka_unit_test(test_residency_steady_ignores_brief_peaks),
        cmocka_unit_test(test_residency_waves_are_the_longest_chain_on_one_sm),
        cmocka_unit_test(test_residency_achieved_occupancy_is_time_weighted),
        cmocka_unit_test(test_residency_skips_incomplete_records),
        cmocka_unit_test(test_residency_series_steps_per_distinct_time),
        cmocka_unit_test(test_residency_rejects_zero_warps),
        cmocka_unit_test(test_residency_decodes_little_endian_records),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
