/* test_timing_model.c: the timing model end to end, through the host API
 * (DeviceLaunch.timing) on the kernels of tests/kernels/timing.cu and
 * lesson 3: the scoreboard (a dependent chain against independent ones,
 * %clock64 reading modelled time), occupancy hiding memory latency, and
 * the directions of the H100 measurements issue 15 quotes -- 1 block/SM
 * against 8 (4.2x), atomicAdd per element against a block tree reduction
 * (93x), a 128 KB gather at carveout 100 against 0 (2.6x), shared stride
 * 32 against 1 (2.7x; 33 like 1), 4 FMA chains against 1 (1.4x).  The
 * thresholds ask for the direction and a clear margin; the calibration
 * against the recorded H100 numbers is the timing suite's job. */
#include "harness.h"
#include "measure.h"
#include "timing.h"

#include <sys/wait.h>

#define TK "tests/kernels/timing.ptx"

static DeviceModule *tmod;

static int setup(void **s)
{
    if (harness_setup_sim(s))
        return -1;
    tmod = load_file(TK);
    return 0;
}

/* Launch kernel with the timing model (carveout -2: leave it); returns the stats. */
static DeviceStats timed(DeviceModule *m, const char *kernel, unsigned grid, unsigned block, int carveout,
                         void **args)
{
    SimError err;
    const char *entry = device_find_kernel(m, kernel, &err);
    assert_non_null(entry);
    if (carveout > -2)
        assert_int_equal(device_set_attr(m, entry, DEVICE_ATTR_PREFERRED_CARVEOUT, carveout, &err), SIM_OK);
    DeviceLaunch cfg = {.grid = {grid, 1, 1}, .block = {block, 1, 1}, .timing = true};
    DeviceStats st;
    DeviceFault f;
    memset(&st, 0, sizeof st);
    if (device_launch(m, entry, &cfg, args, &st, &f, &err) != SIM_OK)
        fail_msg("%s: %s %s", kernel, err.msg, f.faulted ? f.msg : "");
    assert_true(st.timing.on);
    return st;
}

static DevicePtr zeros(size_t bytes)
{
    DevicePtr p;
    SimError err;
    assert_int_equal(device_malloc(dev, bytes, &p, &err), SIM_OK);
    return p;
}

static DevicePtr ones_f32(size_t n)
{
    float *h = malloc(n * sizeof *h);
    for (size_t i = 0; i < n; i++)
        h[i] = 1.0f;
    DevicePtr p = zeros(n * sizeof *h);
    SimError err;
    assert_int_equal(device_memcpy_htod(dev, p, h, n * sizeof *h, &err), SIM_OK);
    free(h);
    return p;
}

/* ---- scoreboard --------------------------------------------------------- */

static void test_dependent_chain_is_slower_than_four_independent_chains(void **s)
{
    (void)s;
    DevicePtr out = zeros(128 * 4);
    int n = 1024;
    DeviceStats one = timed(tmod, "fma_chain1", 1, 128, -2, (void *[]){&out, &n});
    DeviceStats four = timed(tmod, "fma_chain4", 1, 128, -2, (void *[]){&out, &n});
    double ratio = (double)one.cycles / (double)four.cycles;
    print_message("fma chains, one warp per scheduler: 1 chain %llu cycles, 4 chains %llu (%.2fx; H100 1.4x)\n",
                  (unsigned long long)one.cycles, (unsigned long long)four.cycles, ratio);
    assert_true(ratio > 1.2);
    /* one chain: each FMA waits for the one before (4 cycles) */
    double per = (double)(one.cycles - one.timing.launch_overhead) / (4.0 * n);
    assert_true(per >= 3.5 && per < 6);
    assert_true(one.timing.stall[DEVICE_STALL_WAIT] > one.timing.stall[DEVICE_STALL_NOT_SELECTED]);
}

static void test_clock64_reads_modelled_time(void **s)
{
    (void)s;
    DevicePtr cyc = zeros(8), out = zeros(32 * 4);
    int n = 1000;
    timed(tmod, "clock_chain", 1, 32, -2, (void *[]){&cyc, &out, &n});
    long long c = 0;
    SimError err;
    assert_int_equal(device_memcpy_dtoh(dev, &c, cyc, 8, &err), SIM_OK);
    print_message("clock64 around 1000 dependent FMAs: %lld cycles\n", c);
    /* 4 cycles an FMA at least; the loop (4 FMAs, 2 movs ptxas folds, add,
     * setp, bra) also waits for its branch: the H100 runs that shape at 7.5
     * cycles an FMA (timing suite, ilp1_w1) */
    assert_true(c >= 4 * n && c < 10 * n);
}

/* A block retiring beside a working one: the SM's warp lists are rebuilt and
 * the working block's warps move to other schedulers.  (A scheduler that
 * remembered "none of mine can issue" across that hung the launch.) */
static void test_warps_that_change_scheduler_when_a_block_retires_still_issue(void **s)
{
    (void)s;
    SimError err;
    int n = 200;
    enum { G = 264, B = 64 };
    DevicePtr out = zeros(G * B * 4);
    DeviceStats st = timed(tmod, "uneven_blocks", G, B, -2, (void *[]){&out, &n});
    static float timed_out[G * B], plain_out[G * B];
    assert_int_equal(device_memcpy_dtoh(dev, timed_out, out, sizeof timed_out, &err), SIM_OK);
    const char *entry = device_find_kernel(tmod, "uneven_blocks", &err);
    DeviceLaunch cfg = {.grid = {G, 1, 1}, .block = {B, 1, 1}};
    assert_int_equal(device_launch(tmod, entry, &cfg, (void *[]){&out, &n}, NULL, NULL, &err), SIM_OK);
    assert_int_equal(device_memcpy_dtoh(dev, plain_out, out, sizeof plain_out, &err), SIM_OK);
    assert_memory_equal(timed_out, plain_out, sizeof plain_out);
    assert_int_equal(st.blocks, G);
    /* the long blocks' n dependent FMAs, ~4 cycles each, bound the time */
    assert_true(st.cycles - st.timing.launch_overhead >= 4 * (uint64_t)n);
    /* and nothing else: a long block sharing its SM with a short one ends when
     * it would alone (132 blocks: one per SM) -- a moved warp is not left waiting */
    DeviceStats alone = timed(tmod, "uneven_blocks", G / 2, B, -2, (void *[]){&out, &n});
    print_message("uneven blocks: %llu cycles two per SM, %llu one per SM\n", (unsigned long long)st.cycles,
                  (unsigned long long)alone.cycles);
    assert_true(st.cycles * 4 <= alone.cycles * 5);
}

/* ---- occupancy ------------------------------------------------------------ */

static void test_more_warps_hide_memory_latency(void **s)
{
    (void)s;
    int n = 132 * 256 * 8 * 2;
    DevicePtr in = ones_f32((size_t)n), out = zeros((size_t)n * 4);
    double prev = 1e30;
    DeviceStats first = {0}, last = {0};
    for (unsigned per_sm = 1; per_sm <= 8; per_sm *= 2) {
        DeviceStats st = timed(tmod, "stream_scale", 132 * per_sm, 256, -2, (void *[]){&in, &out, &n});
        double per_elem = (double)st.cycles / n;
        print_message("stream_scale, %u blocks of 256 per SM: %llu cycles, occupancy %.2f\n", per_sm,
                      (unsigned long long)st.cycles, st.timing.achieved_occupancy);
        assert_true(per_elem < prev);
        prev = per_elem;
        if (per_sm == 1)
            first = st;
        last = st;
    }
    /* the kernel's own cycles: the H100's 4.2x cannot include the 3,561-cycle
     * launch overhead Nsight Compute measures for an empty kernel (the 8-block
     * launch would then be under it), so the overhead is left out of both */
    double ratio = (double)(first.cycles - first.timing.launch_overhead) /
                   (double)(last.cycles - last.timing.launch_overhead);
    print_message("memory bound, 1 block/SM vs 8: %.2fx without the launch overhead (H100 4.2x)\n", ratio);
    assert_true(ratio > 2.5);
    /* 8 warps of 64: 1/8 of the SM's warp slots; 64 warps: most (one wave whose
     * blocks start 126 cycles apart: the H100 keeps 75-92% of such launches'
     * warps active, the model 2-8 points fewer -- docs/timing.md, Still wrong) */
    assert_true(first.timing.achieved_occupancy > 0.10 && first.timing.achieved_occupancy <= 0.126);
    assert_true(last.timing.achieved_occupancy > 0.70);
    assert_true(last.timing.stall[DEVICE_STALL_LONG_SCOREBOARD] > last.timing.stall[DEVICE_STALL_WAIT]);
    /* the data, and the few sectors of the launch's constant banks (cold) */
    assert_true(last.timing.dram_read_bytes >= (uint64_t)n * 4 && last.timing.dram_read_bytes < (uint64_t)n * 4 + 1024);
}

/* ---- the H100 headlines ---------------------------------------------------- */

static void test_atomic_per_element_is_far_slower_than_a_block_reduction(void **s)
{
    (void)s;
    DeviceModule *l3 = load_file("lessons/03-atomics/kernel.ptx");
    int n = 262144;
    DevicePtr in = ones_f32((size_t)n), out = zeros(4);
    DeviceStats atom = timed(l3, "sum_atomic_f32", n / 256, 256, -2, (void *[]){&in, &out, &n});
    DeviceStats tree = timed(l3, "sum_block_f32", n / 256, 256, -2, (void *[]){&in, &out, &n});
    double ratio = (double)atom.cycles / (double)tree.cycles;
    print_message("atomicAdd per element vs block tree: %llu / %llu cycles = %.1fx (H100 93x)\n",
                  (unsigned long long)atom.cycles, (unsigned long long)tree.cycles, ratio);
    assert_true(ratio > 30);
    assert_true(atom.cycles >= (uint64_t)n); /* one update of the counter per L2 cycle */
    /* an SM sends a bounded number of updates ahead of L2 (TP_ATOM_OUTSTANDING):
     * the rest wait in its warps, which stay resident (drain) -- the H100's
     * SMs stay active for 85% of the one-counter launch (atomics bins1) */
    uint64_t active = 0, span = atom.cycles - atom.timing.launch_overhead;
    for (int i = 0; i < atom.timing.nsm; i++)
        active += atom.timing.sm_active_cycles[i];
    print_message("atomicAdd per element: SMs active %.0f%% of the launch, occupancy %.1f%%\n",
                  100.0 * (double)active / ((double)span * atom.timing.nsm), 100 * atom.timing.achieved_occupancy);
    assert_true(active > span / 2 * (uint64_t)atom.timing.nsm);
}

static void test_l1_resident_gather_slows_down_when_the_carveout_takes_the_l1(void **s)
{
    (void)s;
    int window = 32768, iters = 256; /* 128 KB per block */
    unsigned grid = 16;
    DevicePtr data = ones_f32((size_t)grid * window), out = zeros((size_t)grid * 256 * 4);
    DeviceStats c0 = timed(tmod, "window_gather", grid, 256, 0, (void *[]){&data, &out, &window, &iters});
    DeviceStats c100 = timed(tmod, "window_gather", grid, 256, 100, (void *[]){&data, &out, &window, &iters});
    double ratio = (double)c100.cycles / (double)c0.cycles;
    double h0 = (double)c0.timing.l1_hits / (double)c0.timing.l1_sectors;
    double h100 = (double)c100.timing.l1_hits / (double)c100.timing.l1_sectors;
    print_message("128 KB gather: carveout 100 %llu cycles (L1 %zu KB, hits %.2f), carveout 0 %llu (L1 %zu KB, "
                  "hits %.2f): %.2fx (H100 2.6x)\n", (unsigned long long)c100.cycles, c100.timing.l1_bytes / 1024,
                  h100, (unsigned long long)c0.cycles, c0.timing.l1_bytes / 1024, h0, ratio);
    /* carveout 0: the occupancy API's 8 KB (the 1 KB per-block reserve), but the
     * H100's driver configures 32 KB there (traces/hw/timing-h100.json): L1 224 KB */
    assert_int_equal(c0.timing.l1_bytes, 224 * 1024);
    assert_int_equal(c0.timing.smem_carveout_bytes, 32 * 1024);
    assert_int_equal(c100.timing.l1_bytes, 28 * 1024);
    assert_true(h0 > 0.8 && h100 < 0.3);
    assert_true(ratio > 1.5);
}

/* The naive transpose's column stores send 32 lines each, and a stored line
 * holds the L1 l1_cycles_per_store_line_out (3) cycles: on the H100 naive_512
 * takes 1.66x copy_512 (timing suite; 1.46x with stores at a load miss's 2). */
static void test_column_stores_cost_the_l1_per_line(void **s)
{
    (void)s;
    DeviceModule *sm = load_file("tests/timing/smem.ptx");
    SimError err;
    int n = 512;
    DeviceStats st[2];
    const char *kernels[2] = {"copy_tile", "transpose_naive"};
    for (int k = 0; k < 2; k++) {
        const char *entry = device_find_kernel(sm, kernels[k], &err);
        assert_non_null(entry);
        DeviceLaunch cfg = {.grid = {16, 16, 1}, .block = {32, 8, 1}, .timing = true};
        DeviceFault f;
        memset(&st[k], 0, sizeof st[k]);
        if (device_launch(sm, entry, &cfg, (void *[]){&n}, &st[k], &f, &err) != SIM_OK)
            fail_msg("%s: %s %s", kernels[k], err.msg, f.faulted ? f.msg : "");
    }
    double ratio = (double)st[1].cycles / (double)st[0].cycles;
    print_message("transpose 512: naive %llu cycles, copy %llu: %.2fx (H100 1.66x)\n",
                  (unsigned long long)st[1].cycles, (unsigned long long)st[0].cycles, ratio);
    /* (both pay the cold start of every SM -- instruction fetch, constants --
     * which compresses the ratio a little: the suite has naive_512 5% short of
     * the H100 and copy_512 4% long) */
    assert_true(ratio > 1.45 && ratio < 2.0);
}

static void test_shared_stride_32_conflicts_and_33_does_not(void **s)
{
    (void)s;
    DevicePtr out = zeros(132 * 256 * 4);
    int iters = 128;
    uint64_t c[34] = {0};
    DeviceStats st32 = {0};
    for (int stride = 1; stride <= 33; stride++) {
        if (stride != 1 && stride != 2 && stride != 32 && stride != 33)
            continue;
        DeviceStats st = timed(tmod, "smem_stride", 132, 256, -2, (void *[]){&out, &stride, &iters});
        c[stride] = st.cycles;
        if (stride == 32)
            st32 = st;
    }
    double r32 = (double)c[32] / (double)c[1], r33 = (double)c[33] / (double)c[1];
    print_message("shared stride 1/2/32/33: %llu %llu %llu %llu cycles; 32 vs 1 %.2fx (H100 2.7x), 33 vs 1 %.2fx\n",
                  (unsigned long long)c[1], (unsigned long long)c[2], (unsigned long long)c[32],
                  (unsigned long long)c[33], r32, r33);
    assert_true(r32 > 2);
    assert_true(r33 > 0.9 && r33 < 1.1);
    assert_true(c[2] >= c[1]);
    assert_true(st32.timing.bank_conflict_replays > 0);
    assert_true(st32.timing.stall[DEVICE_STALL_MIO_THROTTLE] + st32.timing.stall[DEVICE_STALL_SHORT_SCOREBOARD] >
                st32.timing.stall[DEVICE_STALL_WAIT]);
}

static void test_cp_async_overlaps_the_copy_with_compute(void **s)
{
    (void)s;
    int tiles = 16;
    DevicePtr in = ones_f32((size_t)8 * tiles * 256), out = zeros(8 * 256 * 4);
    DeviceStats st = timed(tmod, "async_tiles", 8, 256, -2, (void *[]){&in, &out, &tiles});
    float h[256];
    SimError err;
    assert_int_equal(device_memcpy_dtoh(dev, h, out, sizeof h, &err), SIM_OK);
    assert_true(h[0] == (float)tiles); /* every tile summed once */
    /* 16 tiles each needing a DRAM round trip (the model's mean, the H100's
     * chase: 574 cycles): pipelined, under 16 serial trips even with the cold
     * start of the SM (instruction fetch, constants) */
    ArchTarget at;
    assert_int_equal(arch_resolve("sm_90", &at, &err), SIM_OK); /* the harness's device */
    const double *v = timing_params_for(at.arch)->v;
    const double dram = v[TP_L2_LAT] + v[TP_L2_FAR_EXTRA] / 2 + v[TP_DRAM_LAT] + v[TP_DRAM_SPREAD] / 2;
    print_message("cp.async double buffer, 16 tiles: %llu cycles\n", (unsigned long long)st.cycles);
    assert_true((double)(st.cycles - st.timing.launch_overhead) < 16 * dram);
}

/* ---- measured occupancy, simulated ------------------------------------------ */

/* gpu/measure.h on the simulator with the timing model: residency measured
 * by %smid and %globaltimer in modelled time, beside the model's own
 * achieved occupancy -- the simulated side of "simulated vs measured". */
static void test_measured_residency_in_modelled_time(void **s)
{
    (void)s;
    SimError err;
    MeasureKernel *k = NULL;
    assert_int_equal(measure_kernel_load(dev, 32, 0, &k, &err), SIM_OK);
    MeasureConfig c;
    measure_config_init(&c);
    c.block_size = 256;
    c.timing = true;
    c.wait_ns = 2000; /* 200 ns (the default) is over before greedy schedulers start the last blocks */
    MeasureResult r;
    memset(&r, 0, sizeof r);
    if (measure_run(k, &c, &r, &err) != SIM_OK)
        fail_msg("measure_run: %s", err.msg);
    print_message("measured in modelled time: %d blocks resident per SM (model %d), %d waves, achieved "
                  "occupancy %.2f (timing model %.2f)\n", r.res.max_resident, r.model.blocks_per_sm, r.res.waves,
                  r.res.achieved_occupancy, r.sim_achieved_occupancy);
    assert_int_equal(r.res.max_resident, r.model.blocks_per_sm);
    /* two waves' worth of blocks; greedy scheduling lets the oldest spinning
     * warps finish first, so some SMs chain more blocks one after another */
    assert_true(r.res.waves >= 2);
    assert_true(r.sim_achieved_occupancy > 0.3 && r.sim_achieved_occupancy <= 1);
    assert_true(r.res.achieved_occupancy > 0.3 && r.res.achieved_occupancy <= 1);
    measure_result_free(&r);
    measure_kernel_free(k);
}

/* ---- the host API ----------------------------------------------------------- */

static void test_untimed_launch_clears_timing_of_a_reused_stats_record(void **s)
{
    (void)s;
    SimError err;
    const char *entry = device_find_kernel(tmod, "fma_chain1", &err);
    DevicePtr out = zeros(32 * 4);
    int n = 8;
    void *args[] = {&out, &n};
    DeviceLaunch cfg = {.grid = {1, 1, 1}, .block = {32, 1, 1}, .timing = true};
    DeviceStats st;
    memset(&st, 0, sizeof st);
    assert_int_equal(device_launch(tmod, entry, &cfg, args, &st, NULL, &err), SIM_OK);
    assert_true(st.timing.on);
    uint64_t timed_cycles = st.cycles;
    cfg.timing = false;
    assert_int_equal(device_launch(tmod, entry, &cfg, args, &st, NULL, &err), SIM_OK);
    assert_false(st.timing.on);
    assert_true(st.cycles < timed_cycles); /* issue slots: no latency, no launch overhead */
}

static void test_sm80_has_its_own_plausible_table(void **s)
{
    (void)s;
    SimError err;
    Device *d80 = device_open_sim("sm_80", &err);
    assert_non_null(d80);
    Device *keep = dev;
    dev = d80;
    DeviceModule *m = load_file(TK);
    int n = 108 * 256 * 4;
    DevicePtr in = ones_f32((size_t)n), out = zeros((size_t)n * 4);
    DeviceStats st = timed(m, "stream_scale", 108 * 4, 256, 0, (void *[]){&in, &out, &n});
    assert_true(st.timing.clock_mhz == 1410);
    assert_int_equal(st.timing.nsm, 108);
    assert_int_equal(st.timing.l1_bytes, 184 * 1024); /* 192 KB unified, 8 KB shared at carveout 0 */
    assert_true(st.timing.dram_read_bytes >= (uint64_t)n * 4 && st.timing.dram_read_bytes < (uint64_t)n * 4 + 1024);
    assert_true(st.cycles > st.timing.launch_overhead);
    device_close(d80);
    dev = keep;
}

/* ---- the command line -------------------------------------------------- */

static char *sh(const char *args, int *rc)
{
    const char *w = getenv("WARPSIM");
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "%s %s 2>&1", w ? w : "build/warpsim", args);
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    size_t cap = 1 << 22, n = 0;
    char *out = calloc(1, cap);
    size_t got;
    while ((got = fread(out + n, 1, cap - 1 - n, p)) > 0)
        n += got;
    *rc = WEXITSTATUS(pclose(p));
    return out;
}

static void test_run_timing_json_has_the_timing_object(void **s)
{
    (void)s;
    int rc;
    char *out = sh("run " TK " --kernel stream_scale --grid 8 --block 256 --arg buf:f32[2048]=fill:1 "
                   "--arg buf:f32[2048]=fill:0 --arg i32:2048 --timing --carveout 50 --json", &rc);
    assert_int_equal(rc, 0);
    const char *keys[] = {"\"cycles\"", "\"timing\": {", "\"achieved_occupancy\"", "\"sm_active_cycles\": [",
                          "\"l1_hit_rate\"", "\"l2_hit_rate\"", "\"dram_bytes\"", "\"bank_conflict_replays\"",
                          "\"long_scoreboard\"", "\"short_scoreboard\"", "\"barrier\"", "\"membar\"",
                          "\"mio_throttle\"", "\"lg_throttle\"", "\"math_pipe_throttle\"", "\"not_selected\"",
                          "\"wait\"", "\"smem_carveout_bytes\": 135168"}; /* 50% of 228 KB rounds up to 132 KB */
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
        if (!strstr(out, keys[i]))
            fail_msg("no %s in: %s", keys[i], out);
    free(out);
    out = sh("run " TK " --kernel stream_scale --grid 8 --block 256 --arg buf:f32[2048]=fill:1 "
             "--arg buf:f32[2048]=fill:0 --arg i32:2048 --timing", &rc);
    assert_int_equal(rc, 0);
    assert_non_null(strstr(out, "cycles modelled"));
    assert_non_null(strstr(out, "achieved occupancy"));
    const char *states = strstr(out, "warp states: "); /* a small launch: its cold start weighs */
    assert_non_null(states);
    const char *eol = strchr(states, '\n');
    const char *ls = strstr(states, "long_scoreboard");
    assert_true(ls && (!eol || ls < eol));
    free(out);
}

static void test_run_rejects_a_bad_carveout(void **s)
{
    (void)s;
    int rc;
    char *out = sh("run " TK " --kernel stream_scale --grid 1 --block 32 --arg buf:f32[32]=fill:1 "
                   "--arg buf:f32[32]=fill:0 --arg i32:32 --carveout 101", &rc);
    assert_int_equal(rc, 2);
    assert_non_null(strstr(out, "--carveout '101'"));
    free(out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_dependent_chain_is_slower_than_four_independent_chains, setup,
                                        harness_teardown),
        cmocka_unit_test_setup_teardown(test_clock64_reads_modelled_time, setup, harness_teardown),
        cmocka_unit_test_setup_teardown(test_warps_that_change_scheduler_when_a_block_retires_still_issue, setup,
                                        harness_teardown),
        cmocka_unit_test_setup_teardown(test_more_warps_hide_memory_latency, setup, harness_teardown),
        cmocka_unit_test_setup_teardown(test_atomic_per_element_is_far_slower_than_a_block_reduction, setup,
                                        harness_teardown),
        cmocka_unit_test_setup_teardown(test_l1_resident_gather_slows_down_when_the_carveout_takes_the_l1, setup,
                                        harness_teardown),
        cmocka_unit_test_setup_teardown(test_column_stores_cost_the_l1_per_line, setup, harness_teardown),
        cmocka_unit_test_setup_teardown(test_shared_stride_32_conflicts_and_33_does_not, setup, harness_teardown),
        cmocka_unit_test_setup_teardown(test_cp_async_overlaps_the_copy_with_compute, setup, harness_teardown),
        cmocka_unit_test_setup_teardown(test_measured_residency_in_modelled_time, setup, harness_teardown),
        cmocka_unit_test_setup_teardown(test_untimed_launch_clears_timing_of_a_reused_stats_record, setup,
                                        harness_teardown),
        cmocka_unit_test_setup_teardown(test_sm80_has_its_own_plausible_table, setup, harness_teardown),
        cmocka_unit_test(test_run_timing_json_has_the_timing_object),
        cmocka_unit_test(test_run_rejects_a_bad_carveout),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
