/* test_clusters.c: thread block clusters of several CTAs (issue 14, point 2;
 * sim/exec_cluster.c): the cluster special registers of 1-D and 2-D
 * clusters, a histogram split over the cluster's distributed shared memory,
 * a ring exchange through neighbours' shared memory, each under several
 * schedules and with the timing model on and off (the same outputs), a
 * missing cluster.sync() found by the race checker (and no finding on the
 * correct kernels), faults for a rank out of the cluster and for a CTA that
 * exited, a barrier.cluster deadlock, and the launches the driver refuses.
 * Kernels: tests/kernels/clusters.cu.  Run from the repository root. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "harness.h"
#include "launch.h"
#include "ptx_fixture.h"

#define KFILE "tests/kernels/clusters.ptx"

/* Launch entry with cfg; the status (faults land in `fault`). */
static SimStatus run_cfg(DeviceModule *m, const char *entry, DeviceLaunch cfg, void **args, SimError *err)
{
    if (!cfg.inst_budget)
        cfg.inst_budget = 50000000;
    return device_launch(m, entry, &cfg, args, NULL, &fault, err);
}

static void run_ok(DeviceModule *m, const char *entry, DeviceLaunch cfg, void **args)
{
    SimError err;
    SimStatus st = run_cfg(m, entry, cfg, args, &err);
    if (st == SIM_ERR_FAULT)
        fail_msg("%s faulted: %s: %s", entry, fault.kind, fault.msg);
    if (st)
        fail_msg("%s: %s", entry, err.msg);
}

/* %cluster_ctarank ... %is_explicit_cluster of every CTA, for clusters
 * (cx, cy) of a (gx, gy) grid; (0, 0): no cluster. */
static void check_ids(DeviceModule *m, unsigned gx, unsigned gy, unsigned cx, unsigned cy)
{
    unsigned n = gx * gy, out[10 * 16];
    DevicePtr d = dalloc(sizeof out);
    void *args[] = {&d};
    DeviceLaunch cfg = {.grid = {gx, gy, 1}, .block = {32, 1, 1}, .cluster = {cx, cy, cx ? 1 : 0}};
    run_ok(m, "_Z11cluster_idsPj", cfg, args);
    down(out, d, sizeof out);
    unsigned dx = cx ? cx : 1, dy = cy ? cy : 1;
    for (unsigned by = 0; by < gy; by++)
        for (unsigned bx = 0; bx < gx; bx++) {
            const unsigned *v = &out[(bx + gx * by) * 10];
            unsigned want[10] = {bx % dx + dx * (by % dy), dx * dy, bx % dx, by % dy, bx / dx, by / dy,
                                 gx / dx, gy / dy, dx, cx != 0};
            for (int i = 0; i < 10; i++)
                if (v[i] != want[i])
                    fail_msg("cluster %ux%u, block (%u,%u): register %d is %u, want %u", cx, cy, bx, by, i, v[i],
                             want[i]);
        }
    assert_true(n <= 16);
}

static void test_cluster_ranks_and_ids_in_1d_and_2d_clusters(void **s)
{
    (void)s;
    DeviceModule *m = load_file(KFILE);
    check_ids(m, 8, 1, 2, 1);
    check_ids(m, 8, 1, 8, 1);
    check_ids(m, 4, 2, 2, 2);
    check_ids(m, 4, 4, 4, 1);
    check_ids(m, 4, 2, 0, 0); /* no clusters: clusters of one, not explicit */
}

/* The histogram of n values with clusters of cs CTAs: the same as a plain
 * count under every schedule and atomic order. */
static void test_dsmem_histogram_split_over_the_cluster_matches_under_schedules(void **s)
{
    (void)s;
    DeviceModule *m = load_file(KFILE);
    enum { N = 4096, BINS = 256 };
    uint32_t *in = malloc(N * sizeof *in), want[BINS] = {0}, got[BINS];
    for (int i = 0; i < N; i++) {
        in[i] = (uint32_t)(rnd64() >> 7);
        want[in[i] % BINS]++;
    }
    DevicePtr din = up(in, N * sizeof *in), dh = dalloc(sizeof got);
    int n = N;
    void *args[] = {&din, &n, &dh};
    const struct { unsigned cs; int sched, order; uint64_t seed; bool timing; } runs[] = {
        {4, DEVICE_SCHED_ROUNDROBIN, DEVICE_ATOMIC_LANE, 0, false},
        {2, DEVICE_SCHED_RANDOM, DEVICE_ATOMIC_RANDOM, 7, false},
        {8, DEVICE_SCHED_ADVERSARIAL, DEVICE_ATOMIC_REVERSE, 3, false},
        {4, DEVICE_SCHED_RANDOM, DEVICE_ATOMIC_ADVERSARIAL, 11, false},
        {4, DEVICE_SCHED_ROUNDROBIN, DEVICE_ATOMIC_LANE, 0, true},
    };
    for (size_t k = 0; k < sizeof runs / sizeof runs[0]; k++) {
        if (on_gpu && k)
            break;
        uint32_t zero[BINS] = {0};
        device_memcpy_htod(dev, dh, zero, sizeof zero, NULL);
        DeviceLaunch cfg = {.grid = {8, 1, 1}, .block = {128, 1, 1}, .smem = BINS / runs[k].cs * 4,
                            .cluster = {runs[k].cs, 1, 1}, .schedule = runs[k].sched,
                            .atomic_order = runs[k].order, .seed = runs[k].seed, .timing = runs[k].timing};
        run_ok(m, "_Z15dsmem_histogramPKjiPj", cfg, args);
        down(got, dh, sizeof got);
        for (int b = 0; b < BINS; b++)
            if (got[b] != want[b])
                fail_msg("run %zu (clusters of %u): bin %d is %u, want %u", k, runs[k].cs, b, got[b], want[b]);
    }
    free(in);
}

/* The ring through neighbours' shared memory: the reference under every
 * schedule, timed or not, and no race finding. */
static void test_ring_exchange_through_neighbours_shared_memory_is_schedule_independent(void **s)
{
    (void)s;
    DeviceModule *m = load_file(KFILE);
    enum { G = 16, B = 128 };
    int in[G * B], out[G * B];
    for (int i = 0; i < G * B; i++)
        in[i] = (int)(rnd64() >> 40) - 5000;
    DevicePtr di = up(in, sizeof in), dout = dalloc(sizeof out);
    void *args[] = {&di, &dout};
    const struct { int sched; uint64_t seed; bool timing; unsigned checks; } runs[] = {
        {DEVICE_SCHED_ROUNDROBIN, 0, false, 0}, {DEVICE_SCHED_RANDOM, 1, false, 0},
        {DEVICE_SCHED_RANDOM, 2, false, 0},     {DEVICE_SCHED_ADVERSARIAL, 5, false, 0},
        {DEVICE_SCHED_ROUNDROBIN, 0, true, 0},  {DEVICE_SCHED_RANDOM, 3, false, DEVICE_CHECK_RACES},
    };
    for (size_t k = 0; k < sizeof runs / sizeof runs[0]; k++) {
        if (on_gpu && k)
            break;
        DeviceLaunch cfg = {.grid = {G, 1, 1}, .block = {B, 1, 1}, .schedule = runs[k].sched,
                            .seed = runs[k].seed, .timing = runs[k].timing, .checks = runs[k].checks};
        run_ok(m, "_Z13ring_exchangePKiPi", cfg, args);
        down(out, dout, sizeof out);
        for (int b = 0; b < G; b++)
            for (int t = 0; t < B; t++) {
                int r = b % 4, nb = b / 4 * 4 + (r + 1) % 4;
                int want = in[nb * B + B - 1 - t] * 3 + (r + 1) % 4;
                if (out[b * B + t] != want)
                    fail_msg("run %zu: block %d thread %d: %d, want %d", k, b, t, out[b * B + t], want);
            }
        SIM_ONLY(if (runs[k].checks) assert_int_equal(device_race_count(dev), 0));
    }
}

/* Without the first cluster.sync() the neighbour's shared memory is read
 * while (or before) it is written: --check races reports it on shared
 * memory, naming the two lines. */
static void test_missing_cluster_sync_before_reading_a_neighbour_is_a_race(void **s)
{
    (void)s;
    SIM_ONLY_TEST();
    DeviceModule *m = load_file(KFILE);
    int in[8 * 128] = {0};
    DevicePtr di = up(in, sizeof in), dout = dalloc(sizeof in);
    void *args[] = {&di, &dout};
    for (int seed = 0; seed < 3; seed++) {
        DeviceLaunch cfg = {.grid = {8, 1, 1}, .block = {128, 1, 1}, .checks = DEVICE_CHECK_RACES,
                            .schedule = seed ? DEVICE_SCHED_RANDOM : DEVICE_SCHED_ROUNDROBIN, .seed = (uint64_t)seed};
        run_ok(m, "_Z12ring_no_syncPKiPi", cfg, args);
        assert_true(device_race_count(dev) > 0);
        const DeviceRace *r = device_race(dev, 0);
        assert_string_equal(r->space, "shared");
        assert_true(!strcmp(r->kind, "read-after-write") || !strcmp(r->kind, "write-after-read"));
        /* the write (line 80) and the neighbour's read (line 82) of clusters.cu */
        int a = r->first.line, b = r->second.line;
        assert_true((a == 80 && b == 82) || (a == 82 && b == 80));
        assert_true(r->first.block.x / 4 == r->second.block.x / 4); /* one cluster */
        assert_true(r->first.block.x != r->second.block.x);
        assert_non_null(strstr(r->msg, "no cluster.sync() (barrier.cluster) between them"));
    }
}

static void test_rank_outside_the_cluster_and_an_exited_cta_are_clear_faults(void **s)
{
    (void)s;
    SIM_ONLY_TEST();
    DeviceModule *m = load_file(KFILE);
    SimError err;
    unsigned rank = 1;
    int out[64];
    DevicePtr dr = up(&rank, sizeof rank), dout = dalloc(sizeof out);
    void *args[] = {&dr, &dout};
    DeviceLaunch cfg = {.grid = {2, 1, 1}, .block = {32, 1, 1}};
    run_ok(m, "_Z8bad_rankPKjPi", cfg, args); /* rank 1 of 2: fine */
    down(out, dout, sizeof out);
    for (int i = 0; i < 64; i++)
        assert_int_equal(out[i], i % 32);
    rank = 2;
    device_memcpy_htod(dev, dr, &rank, sizeof rank, NULL);
    for (int seed = 0; seed < 3; seed++) {
        cfg.schedule = seed ? DEVICE_SCHED_RANDOM : DEVICE_SCHED_ROUNDROBIN;
        cfg.seed = (uint64_t)seed;
        assert_int_equal(run_cfg(m, "_Z8bad_rankPKjPi", cfg, args, &err), SIM_ERR_FAULT);
        assert_string_equal(fault.kind, "out-of-bounds");
        assert_non_null(strstr(fault.msg, "mapa to CTA rank 2, outside the cluster of 2 CTAs"));
        assert_int_equal(fault.line, 94);
    }
    void *a1[] = {&dout};
    cfg.schedule = DEVICE_SCHED_ROUNDROBIN;
    assert_int_equal(run_cfg(m, "_Z10early_exitPi", cfg, a1, &err), SIM_ERR_FAULT);
    assert_string_equal(fault.kind, "out-of-bounds");
    assert_non_null(strstr(fault.msg, "CTA rank 1 of the cluster, which has exited"));
    assert_int_equal(fault.block.x, 0);
    assert_int_equal(fault.line, 112);
}

/* Rank 1's second warp waits at a named barrier its first warp never
 * reaches (that warp waits at barrier.cluster): nothing in the cluster can
 * run.  A deadlock fault, not a hang. */
static void test_cluster_barrier_that_cannot_complete_is_a_deadlock(void **s)
{
    (void)s;
    SIM_ONLY_TEST();
    const char *text =
        PTX_HEAD
        ".visible .entry k(.param .u64 po)\n.reqnctapercluster 2, 1, 1\n{\n.reg .pred %p<4>;\n.reg .b32 %r<8>;\n"
        "mov.u32 %r1, %cluster_ctarank;\nmov.u32 %r2, %tid.x;\n"
        "setp.eq.u32 %p1, %r1, 1;\nsetp.ge.u32 %p2, %r2, 32;\nand.pred %p3, %p1, %p2;\n"
        "@%p3 bra $named;\nbarrier.cluster.arrive;\nbarrier.cluster.wait;\nret;\n"
        "$named:\nbar.sync 1, 64;\nret;\n}\n";
    DeviceModule *m = load_text("deadlock.ptx", text);
    DevicePtr d = dalloc(4);
    void *args[] = {&d};
    SimError err;
    DeviceLaunch cfg = {.grid = {4, 1, 1}, .block = {64, 1, 1}};
    assert_int_equal(run_cfg(m, "k", cfg, args, &err), SIM_ERR_FAULT);
    assert_string_equal(fault.kind, "deadlock");
    assert_non_null(strstr(fault.msg, "barrier.cluster waits for 128 threads"));
    assert_non_null(strstr(fault.msg, "CTA rank 1 wait elsewhere"));
}

/* What the driver refuses: a grid that is not a multiple, more than 8 CTAs,
 * __cluster_dims__ that disagree with the launch. */
static void test_cluster_launches_the_driver_refuses_are_refused_with_reasons(void **s)
{
    (void)s;
    SIM_ONLY_TEST();
    DeviceModule *m = load_file(KFILE);
    SimError err;
    DevicePtr d = dalloc(4096);
    int n = 0;
    void *args[] = {&d, &n, &d};
    DeviceLaunch cfg = {.grid = {6, 1, 1}, .block = {32, 1, 1}, .smem = 256, .cluster = {4, 1, 1}};
    assert_int_equal(run_cfg(m, "_Z15dsmem_histogramPKjiPj", cfg, args, &err), SIM_ERR_USAGE);
    assert_non_null(strstr(err.msg, "grid 6x1x1 is not a multiple of the cluster 4x1x1"));
    cfg = (DeviceLaunch){.grid = {16, 1, 1}, .block = {32, 1, 1}, .smem = 64, .cluster = {16, 1, 1}};
    assert_int_equal(run_cfg(m, "_Z15dsmem_histogramPKjiPj", cfg, args, &err), SIM_ERR_USAGE);
    assert_non_null(strstr(err.msg, "clusters of 16 CTAs"));
    assert_non_null(strstr(err.msg, "at most 8 are portable"));
    void *a2[] = {&d, &d};
    cfg = (DeviceLaunch){.grid = {8, 1, 1}, .block = {128, 1, 1}, .cluster = {2, 1, 1}};
    assert_int_equal(run_cfg(m, "_Z13ring_exchangePKiPi", cfg, a2, &err), SIM_ERR_USAGE);
    assert_non_null(strstr(err.msg, "declares __cluster_dims__(4, 1, 1) but the launch asks for clusters of 2x1x1"));
    cfg.cluster = (DeviceDim3){4, 1, 1}; /* the same as declared: fine */
    int in[8 * 128] = {0};
    DevicePtr di = up(in, sizeof in), dout = dalloc(sizeof in);
    void *a3[] = {&di, &dout};
    run_ok(m, "_Z13ring_exchangePKiPi", cfg, a3);
}

/* The timing model's distributed shared memory: a dependent load from the
 * neighbour's shared memory takes TP_DSMEM_LAT (180 cycles, [LUO]), one from
 * the CTA's own ~29 (the H100's measured chase); the values are the same
 * with timing off. */
static void test_timed_dsmem_chase_costs_the_sm_to_sm_latency(void **s)
{
    (void)s;
    SIM_ONLY_TEST();
    DeviceModule *m = load_file(KFILE);
    long long out[3], plain[3];
    int steps = 256;
    DevicePtr d = dalloc(sizeof out);
    void *args[] = {&d, &steps};
    DeviceLaunch cfg = {.grid = {2, 1, 1}, .block = {32, 1, 1}, .timing = true};
    run_ok(m, "_Z13dsmem_latencyPxi", cfg, args);
    down(out, d, sizeof out);
    double local = (double)out[0] / steps, remote = (double)out[1] / steps;
    if (local < 25 || local > 35 || remote < 175 || remote > 200)
        fail_msg("a local step took %.1f cycles (want ~29), a remote one %.1f (want ~180 + its arithmetic)", local,
                 remote);
    cfg.timing = false;
    run_ok(m, "_Z13dsmem_latencyPxi", cfg, args);
    down(plain, d, sizeof plain);
    assert_int_equal(plain[2], out[2]);
}

/* A cluster launch that faults leaves its blocks resident, naming their
 * cluster; the next launch of the same shape reuses those block slots and
 * must not see the old cluster (a use after free under make asan). */
static void test_launch_after_a_faulted_cluster_launch_starts_without_its_clusters(void **s)
{
    (void)s;
    SIM_ONLY_TEST();
    DeviceModule *m = load_file(KFILE);
    SimError err;
    uint32_t one = 5, hist[256];
    DevicePtr din = up(&one, sizeof one), dh = dalloc(sizeof hist);
    int n = 132 * 128;
    void *args[] = {&din, &n, &dh};
    DeviceLaunch cfg = {.grid = {132, 1, 1}, .block = {128, 1, 1}, .smem = 1024, .cluster = {2, 1, 1}};
    assert_int_equal(run_cfg(m, "_Z15dsmem_histogramPKjiPj", cfg, args, &err), SIM_ERR_FAULT);
    assert_string_equal(fault.kind, "out-of-bounds");
    n = 1;
    uint32_t zero[256] = {0};
    device_memcpy_htod(dev, dh, zero, sizeof zero, NULL);
    cfg.cluster = (DeviceDim3){0, 0, 0};
    run_ok(m, "_Z15dsmem_histogramPKjiPj", cfg, args); /* clusters of one: every CTA counts its own */
    down(hist, dh, sizeof hist);
    assert_int_equal(hist[5], 1);
}

/* --cluster on a launch line: X[,Y[,Z]] into DeviceLaunch.cluster's source,
 * anything else refused with what it expects. */
static void test_cluster_option_parses_dimensions_and_refuses_zero(void **s)
{
    (void)s;
    LaunchSpec spec;
    launch_spec_init(&spec);
    char msg[256];
    char *ok[] = {"--cluster", "2,2"}, *bad[] = {"--cluster", "0"};
    int i = 0;
    assert_int_equal(launch_parse_option(&spec, 2, ok, &i, msg, sizeof msg), LAUNCH_OPT_TAKEN);
    assert_int_equal(spec.cluster.x, 2);
    assert_int_equal(spec.cluster.y, 2);
    assert_int_equal(spec.cluster.z, 1);
    i = 0;
    assert_int_equal(launch_parse_option(&spec, 2, bad, &i, msg, sizeof msg), LAUNCH_OPT_USAGE);
    assert_non_null(strstr(msg, "--cluster '0': expected X[,Y[,Z]] of positive integers"));
    assert_non_null(strstr(launch_sched_help, "--cluster X[,Y[,Z]]"));
    launch_spec_free(&spec);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
#define T(f) cmocka_unit_test_setup_teardown(f, harness_setup, harness_teardown)
        T(test_cluster_ranks_and_ids_in_1d_and_2d_clusters),
        T(test_dsmem_histogram_split_over_the_cluster_matches_under_schedules),
        T(test_ring_exchange_through_neighbours_shared_memory_is_schedule_independent),
        T(test_missing_cluster_sync_before_reading_a_neighbour_is_a_race),
        T(test_rank_outside_the_cluster_and_an_exited_cta_are_clear_faults),
        T(test_cluster_barrier_that_cannot_complete_is_a_deadlock),
        T(test_cluster_launches_the_driver_refuses_are_refused_with_reasons),
        T(test_cluster_option_parses_dimensions_and_refuses_zero),
        T(test_timed_dsmem_chase_costs_the_sm_to_sm_latency),
        T(test_launch_after_a_faulted_cluster_launch_starts_without_its_clusters),
#undef T
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
