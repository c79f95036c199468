/* test_timing_cache.c: the L1 (sim/timing_l1.c), L2 (sim/timing_l2.c) and
 * DRAM (sim/timing_dram.c) units on their own: the L1's capacity follows
 * the carveout, lines are sectored, LRU evicts a working set larger than
 * the cache, the L2 is shared and partitioned, DRAM bandwidth queues. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "arch.h"
#include "carveout.h"
#include "timing_int.h"

static const ArchProfile *sm90(void)
{
    ArchTarget t;
    SimError e;
    assert_int_equal(arch_resolve("sm_90", &t, &e), SIM_OK);
    return t.arch;
}

static size_t l1_for(int carveout)
{
    size_t smem;
    SimError e;
    assert_int_equal(carveout_capacity(sm90(), carveout, CARVEOUT_CACHE_PREFER_NONE, &smem, &e), SIM_OK);
    return carveout_l1(sm90(), smem);
}

static TimingModel *model(int nsm, size_t l1, DeviceTiming *out)
{
    TimingModel *tm = timing_model_new(timing_params_for(sm90()), nsm, l1, out);
    assert_non_null(tm);
    return tm;
}

/* Load `bytes` of consecutive lines (all 4 sectors) on SM 0 at cycle t;
 * returns the L1 sector hits of the pass. */
static uint64_t pass(TimingModel *tm, uint64_t bytes, uint64_t t)
{
    uint64_t before = tm->out->l1_hits;
    for (uint32_t line = 0; line < bytes / 128; line++)
        timing_l1_load(tm, 0, t, line, 0xf, NULL);
    return tm->out->l1_hits - before;
}

static void test_l1_capacity_is_the_unified_cache_minus_the_carveout(void **s)
{
    (void)s;
    assert_int_equal(l1_for(0), 256 * 1024);
    assert_int_equal(l1_for(100), 28 * 1024);
    DeviceTiming out;
    TimingModel *tm = model(1, l1_for(100), &out);
    assert_int_equal(tm->l1_bytes, 28 * 1024);
    timing_model_free(tm);
}

static void test_128kb_working_set_hits_l1_at_carveout_0_and_misses_at_100(void **s)
{
    (void)s;
    DeviceTiming out;
    TimingModel *big = model(1, l1_for(0), &out);
    assert_int_equal(pass(big, 128 * 1024, 0), 0);              /* cold */
    assert_int_equal(pass(big, 128 * 1024, 100000), 4 * 1024);  /* every sector hits */
    timing_model_free(big);
    TimingModel *small = model(1, l1_for(100), &out);
    pass(small, 128 * 1024, 0);
    assert_true(pass(small, 128 * 1024, 100000) < 4 * 1024 / 10); /* LRU streams it out */
    timing_model_free(small);
}

static void test_l1_hit_is_faster_than_l2_hit_is_faster_than_dram(void **s)
{
    (void)s;
    DeviceTiming out;
    TimingModel *tm = model(2, l1_for(0), &out);
    const double *v = tm->p->v;
    uint64_t dram = timing_l1_load(tm, 0, 1000, 7, 0x1, NULL) - 1000;
    uint64_t l1 = timing_l1_load(tm, 0, 100000, 7, 0x1, NULL) - 100000;
    uint64_t l2 = timing_l1_load(tm, 1, 200000, 7, 0x1, NULL) - 200000; /* another SM: its L1 is cold */
    assert_int_equal(l1, (uint64_t)v[TP_L1_LAT]);
    assert_true(l2 >= (uint64_t)v[TP_L2_LAT] && l2 < dram);
    assert_true(dram >= (uint64_t)(v[TP_L2_LAT] + v[TP_DRAM_LAT]));
    assert_int_equal(out.dram_read_bytes, 32 * (uint64_t)v[TP_DRAM_FETCH_SECTORS]); /* one fetch: a sector pair */
    timing_model_free(tm);
}

/* The L2 reads DRAM in aligned pairs of sectors (the H100 coalescing
 * recording: stride 16 and 32 read twice the bytes they use): one sector
 * reads its pair, the pair's other sector then hits L2, a sector of the
 * other pair reads that pair. */
static void test_l2_reads_dram_in_sector_pairs(void **s)
{
    (void)s;
    DeviceTiming out;
    TimingModel *tm = model(2, l1_for(0), &out);
    assert_true(tm->p->v[TP_DRAM_FETCH_SECTORS] == 2);
    timing_l1_load(tm, 0, 0, 5, 0x1, NULL);
    assert_int_equal(out.dram_read_bytes, 64);
    uint64_t l2_hits = out.l2_hits;
    timing_l1_load(tm, 1, 10000, 5, 0x2, NULL); /* another SM: L1 misses, L2 has it */
    assert_int_equal(out.dram_read_bytes, 64);
    assert_int_equal(out.l2_hits, l2_hits + 1);
    timing_l1_load(tm, 0, 20000, 5, 0x4, NULL); /* the other pair */
    assert_int_equal(out.dram_read_bytes, 128);
    timing_l1_load(tm, 0, 30000, 6, 0xf, NULL); /* a whole line: its four sectors */
    assert_int_equal(out.dram_read_bytes, 256);
    timing_model_free(tm);
}

static void test_lines_are_sectored(void **s)
{
    (void)s;
    DeviceTiming out;
    TimingModel *tm = model(1, l1_for(0), &out);
    timing_l1_load(tm, 0, 0, 3, 0x1, NULL);
    uint64_t hits = out.l1_hits;
    timing_l1_load(tm, 0, 10000, 3, 0x2, NULL); /* same line, another sector: a miss */
    assert_int_equal(out.l1_hits, hits);
    assert_int_equal(out.dram_read_bytes, 64);
    timing_l1_load(tm, 0, 20000, 3, 0x3, NULL);
    assert_int_equal(out.l1_hits, hits + 2);
    timing_model_free(tm);
}

static void test_a_load_waits_for_a_fill_in_flight(void **s)
{
    (void)s;
    DeviceTiming out;
    TimingModel *tm = model(1, l1_for(0), &out);
    uint64_t first = timing_l1_load(tm, 0, 0, 9, 0xf, NULL);
    uint64_t second = timing_l1_load(tm, 0, 5, 9, 0xf, NULL); /* hits a line still being filled */
    assert_true(second >= first);
    timing_model_free(tm);
}

static void test_l2_far_partition_costs_more(void **s)
{
    (void)s;
    DeviceTiming out;
    TimingModel *tm = model(2, 0, &out); /* no L1: every load reaches L2 */
    const double *v = tm->p->v;
    uint64_t lat[2] = {0, 0};
    for (uint32_t line = 0; line < 64 && (!lat[0] || !lat[1]); line++) {
        timing_l2_access(tm, 0, 0, line, 0x1, TIMING_L2_LOAD); /* warm it */
        uint64_t t = timing_l2_access(tm, 0, 100000, line, 0x1, TIMING_L2_LOAD) - 100000;
        lat[t > (uint64_t)v[TP_L2_LAT]] = t;
    }
    assert_int_equal(lat[0], (uint64_t)v[TP_L2_LAT]);
    assert_int_equal(lat[1], (uint64_t)(v[TP_L2_LAT] + v[TP_L2_FAR_EXTRA]));
    timing_model_free(tm);
}

static void test_l2_stores_allocate_without_reading_dram(void **s)
{
    (void)s;
    DeviceTiming out;
    TimingModel *tm = model(1, 0, &out);
    timing_l2_access(tm, 0, 0, 40, 0xf, TIMING_L2_STORE);
    assert_int_equal(out.dram_read_bytes, 0);
    timing_l2_access(tm, 0, 10000, 40, 0xf, TIMING_L2_LOAD);
    assert_int_equal(out.l2_hits, 4);
    timing_model_free(tm);
}

static void test_dram_bandwidth_queues_requests(void **s)
{
    (void)s;
    DeviceTiming out;
    TimingModel *tm = model(1, 0, &out);
    const double *v = tm->p->v;
    uint64_t last = 0;
    enum { LINES = 20000 };
    for (uint32_t line = 0; line < LINES; line++) {
        uint64_t t = timing_dram_access(tm, -1, 0, 128, false, line);
        last = t > last ? t : last;
    }
    double need = LINES * 128.0 / v[TP_DRAM_BYTES_PER_CYCLE];
    assert_true(last >= (uint64_t)(need * 0.9 + v[TP_DRAM_LAT]));
    assert_true(last <= (uint64_t)(need * 1.1 + v[TP_DRAM_LAT] + v[TP_DRAM_SPREAD] + TIMING_BW_WINDOW));
    /* out of time order: an early request still finds the early room taken */
    uint64_t early = timing_dram_access(tm, -1, 0, 128, false, 0);
    assert_true(early + (uint64_t)v[TP_DRAM_SPREAD] >= last - TIMING_BW_WINDOW);
    timing_model_free(tm);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_l1_capacity_is_the_unified_cache_minus_the_carveout),
        cmocka_unit_test(test_128kb_working_set_hits_l1_at_carveout_0_and_misses_at_100),
        cmocka_unit_test(test_l1_hit_is_faster_than_l2_hit_is_faster_than_dram),
        cmocka_unit_test(test_lines_are_sectored),
        cmocka_unit_test(test_l2_reads_dram_in_sector_pairs),
        cmocka_unit_test(test_a_load_waits_for_a_fill_in_flight),
        cmocka_unit_test(test_l2_far_partition_costs_more),
        cmocka_unit_test(test_l2_stores_allocate_without_reading_dram),
        cmocka_unit_test(test_dram_bandwidth_queues_requests),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
