/* test_exec_calls.c: end-to-end tests of the sm_90 features issue 14 found
 * refused that are about calls, launches and warps rather than arithmetic --
 * elect.sync, cache hints and griddepcontrol, __grid_constant__ parameters,
 * recursion through a per-thread stack, the device heap (malloc/free),
 * cooperative launch with grid.sync(), and clusters of one CTA (and of two).  Kernels are
 * committed .cu files' PTX (tests/kernels/) or hand-written; results are
 * checked against plain-C references.  Run from the repository root. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "harness.h"
#include "ptx_fixture.h"

/* ---- sm_90 instructions that used to be refused -------------------------- */

/* elect.sync d|p, membermask: the lowest lane of the mask that executes it
 * leads (what an H100 does), every lane gets its id; lanes of a diverged
 * warp elect among themselves. */
static void test_ptx_elect_sync_picks_lowest_lane_of_mask_in_divergent_code(void **s)
{
    (void)s;
    const char *text =
        PTX_HEAD
        ".visible .entry k(.param .u64 po)\n{\n.reg .pred %p<4>;\n.reg .b32 %r<8>;\n.reg .b64 %rd<4>;\n"
        "ld.param.u64 %rd1, [po];\nmov.u32 %r1, %tid.x;\nmul.wide.u32 %rd2, %r1, 4;\nadd.s64 %rd3, %rd1, %rd2;\n"
        "and.b32 %r2, %r1, 3;\nsetp.ne.u32 %p1, %r2, 0;\n@%p1 bra $odd;\n"
        "elect.sync %r3|%p2, 0x11111111;\nbra $join;\n"
        "$odd:\nelect.sync %r3|%p2, 0xeeeeeeee;\n"
        "$join:\nselp.u32 %r4, 256, 0, %p2;\nor.b32 %r5, %r3, %r4;\nst.global.u32 [%rd3], %r5;\nret;\n}\n";
    DeviceModule *m = load_text("elect.ptx", text);
    uint32_t out[64];
    DevicePtr d = dalloc(sizeof out);
    void *args[] = {&d};
    launch(m, "k", 1, 64, args);
    down(out, d, sizeof out);
    for (int t = 0; t < 64; t++) {
        int lane = t % 32, leader = lane % 4 == 0 ? 0 : 1; /* lowest lane of each group */
        uint32_t want = (uint32_t)leader | (lane == leader ? 256u : 0u);
        if (out[t] != want)
            fail_msg("thread %d: %#x, want %#x", t, out[t], want);
    }
}

/* createpolicy, ld with .L2::cache_hint, applypriority, discard.global.L2
 * and griddepcontrol change no value; discard checks its 128 bytes. */
static void test_ptx_cache_policy_hints_and_griddepcontrol_run_and_discard_checks_alignment(void **s)
{
    (void)s;
    char text[2048];
    const char *body =
        "createpolicy.fractional.L2::evict_last.b64 %rd4, 1.0;\n"
        "ld.global.L2::cache_hint.u32 %r1, [%rd1], %rd4;\n"
        "griddepcontrol.wait;\n"
        "applypriority.global.L2::evict_normal [%rd1], 128;\n"
        "add.s64 %rd5, %rd1, %rd2;\n"
        "discard.global.L2 [%rd5], 128;\n"
        "add.u32 %r1, %r1, 1;\nst.global.u32 [%rd1], %r1;\n"
        "griddepcontrol.launch_dependents;\nret;\n";
    snprintf(text, sizeof text,
             PTX_HEAD ".visible .entry k(.param .u64 pa, .param .u64 poff)\n{\n.reg .b32 %%r<4>;\n.reg .b64 %%rd<8>;\n"
             "ld.param.u64 %%rd1, [pa];\nld.param.u64 %%rd2, [poff];\n%s}\n", body);
    DeviceModule *m = load_text("hints.ptx", text);
    uint32_t v[64] = {41};
    DevicePtr d = up(v, sizeof v);
    uint64_t off = 128;
    void *args[] = {&d, &off};
    launch(m, "k", 1, 1, args);
    down(v, d, sizeof v);
    assert_int_equal(v[0], 42);
    SIM_ONLY({
        /* discard of a line that is not 128-byte aligned: a clear fault */
        off = 4;
        SimError err;
        DeviceLaunch cfg = {.grid = {1, 1, 1}, .block = {1, 1, 1}, .inst_budget = 1000};
        assert_int_equal(device_launch(m, "k", &cfg, args, NULL, &fault, &err), SIM_ERR_FAULT);
        assert_string_equal(fault.kind, "misaligned");
        assert_non_null(strstr(fault.msg, "discard.global.L2"));
    });
}

/* __grid_constant__: the kernel takes its parameter's address (mov of the
 * .param name) and reads it with ld.param through a register; past the
 * parameters is out of bounds. */
static void test_ptx_grid_constant_parameter_read_through_its_address(void **s)
{
    (void)s;
    const char *text =
        PTX_HEAD
        ".visible .entry k(.param .align 4 .b8 p0[16], .param .u64 po, .param .u32 pi)\n{\n"
        ".reg .b32 %r<6>;\n.reg .b64 %rd<8>;\n"
        "mov.b64 %rd1, p0;\nld.param.u64 %rd2, [po];\nld.param.u32 %r1, [pi];\n"
        "mul.wide.u32 %rd3, %r1, 4;\nadd.s64 %rd4, %rd1, %rd3;\nld.param.u32 %r2, [%rd4];\n"
        "st.global.u32 [%rd2], %r2;\nret;\n}\n";
    DeviceModule *m = load_text("gc.ptx", text);
    uint32_t p0[4] = {11, 22, 33, 44}, out = 0, idx = 2;
    DevicePtr d = dalloc(4);
    void *args[] = {p0, &d, &idx};
    launch(m, "k", 1, 1, args);
    down(&out, d, 4);
    assert_int_equal(out, 33);
    SIM_ONLY({
        idx = 1000; /* 4000 bytes past the parameters */
        SimError err;
        DeviceLaunch cfg = {.grid = {1, 1, 1}, .block = {1, 1, 1}, .inst_budget = 1000};
        assert_int_equal(device_launch(m, "k", &cfg, args, NULL, &fault, &err), SIM_ERR_FAULT);
        assert_string_equal(fault.kind, "out-of-bounds");
    });
}

/* ---- recursion ------------------------------------------------------------ */

static int ref_tree_sum(const int *a, int lo, int hi)
{
    if (hi - lo <= 4) {
        int s = 0;
        for (int k = lo; k < hi; k++)
            s += a[k] * (k - lo + 1);
        return s;
    }
    int mid = (lo + hi) / 2;
    return ref_tree_sum(a, lo, mid) - ref_tree_sum(a, mid, hi) + lo;
}

static float ref_odd_even(int k, float acc);
static float ref_even_odd(int k, float acc) { return k == 0 ? -acc : ref_odd_even(k - 1, acc + (float)k); }
static float ref_odd_even(int k, float acc) { return k == 0 ? acc : ref_even_odd(k - 1, acc * 0.5f + 1.0f); }

/* A recursive function with a .local array per frame, and two functions
 * calling each other: every activation keeps its own registers, .local
 * array, parameters and result (they used to be refused). */
static void test_ptx_recursion_keeps_each_activations_registers_locals_and_params(void **s)
{
    (void)s;
    DeviceModule *m = load_file("tests/kernels/recursion.ptx");
    enum { N = 100 };
    int a[N], sums[64];
    float mutual[64];
    for (int i = 0; i < N; i++)
        a[i] = (int)(rnd64() % 2001) - 1000;
    DevicePtr da = up(a, sizeof a), ds = dalloc(sizeof sums), dm = dalloc(sizeof mutual);
    int n = N;
    void *args[] = {&da, &n, &ds, &dm};
    launch(m, "_Z14recursive_sumsPKiiPiPf", 1, 64, args);
    down(sums, ds, sizeof sums);
    down(mutual, dm, sizeof mutual);
    for (int t = 0; t < 64; t++) {
        if (sums[t] != ref_tree_sum(a, 0, N - t))
            fail_msg("thread %d: tree_sum %d, want %d", t, sums[t], ref_tree_sum(a, 0, N - t));
        assert_true(mutual[t] == ref_even_odd(t % 20, 1.0f));
    }
}

/* Recursion 31 deep fits the simulator's 32-level call stack; 40 deep is a
 * stack-overflow fault naming the depth limit, not a crash. */
static void test_ptx_recursion_deeper_than_the_call_stack_is_a_clear_fault(void **s)
{
    (void)s;
    SIM_ONLY_TEST();
    DeviceModule *m = load_file("tests/kernels/recursion.ptx");
    unsigned out[32];
    DevicePtr d = dalloc(sizeof out);
    unsigned k = 31;
    void *args[] = {&k, &d};
    launch(m, "_Z4deepjPj", 1, 32, args);
    down(out, d, sizeof out);
    unsigned want = 0;
    for (unsigned i = 1; i <= 31; i++)
        want = (want ^ (want >> 1)) + i;
    assert_int_equal(out[5], want);
    k = 40;
    SimError err;
    DeviceLaunch cfg = {.grid = {1, 1, 1}, .block = {32, 1, 1}, .inst_budget = 100000};
    assert_int_equal(device_launch(m, "_Z4deepjPj", &cfg, args, NULL, &fault, &err), SIM_ERR_FAULT);
    assert_string_equal(fault.kind, "stack-overflow");
    assert_non_null(strstr(fault.msg, "call depth exceeds 32"));
}

/* ---- device heap ----------------------------------------------------------- */

/* malloc'd blocks outlive their launch and are freed by a later one; 1 MB
 * blocks exhaust the 8 MB heap (7 fit beside the bookkeeping), after which
 * malloc returns NULL; freeing them makes room again. */
static void test_ptx_device_malloc_free_across_launches_and_heap_exhaustion(void **s)
{
    (void)s;
    SIM_ONLY_TEST(); /* how much of 8 MB a 1 MB request leaves is the allocator's own */
    DeviceModule *m = load_file("tests/kernels/heap.ptx");
    unsigned bytes[32];
    int got[32], out[32];
    for (int t = 0; t < 32; t++)
        bytes[t] = t < 10 ? (1u << 20) : 100u + (unsigned)t;
    DevicePtr db = up(bytes, sizeof bytes), dg = dalloc(sizeof got), dout = dalloc(sizeof out);
    void *args[] = {&db, &dg};
    launch(m, "_Z10alloc_manyPKjPi", 1, 32, args);
    down(got, dg, sizeof got);
    int big = 0;
    for (int t = 0; t < 10; t++)
        big += got[t];
    assert_int_equal(big, 7); /* 8 MB / (1 MB + 16 bytes of bookkeeping) */
    for (int t = 10; t < 32; t++)
        assert_int_equal(got[t], 1); /* small blocks fit in the MB the large ones left */
    void *args2[] = {&db, &dout};
    launch(m, "_Z13read_and_freePKjPi", 1, 32, args2);
    down(out, dout, sizeof out);
    for (int t = 0; t < 32; t++)
        assert_int_equal(out[t], got[t] ? (int)(t + 1000 * (t + 1)) : -1);
    /* everything was freed: the same launch now gets every block */
    launch(m, "_Z10alloc_manyPKjPi", 1, 32, args);
    down(got, dg, sizeof got);
    assert_int_equal(got[0] + got[6] + got[31], 3);
}

/* Writing through the NULL an exhausted heap gave is a fault that says so;
 * free of a pointer malloc did not return stops the launch. */
static void test_ptx_heap_exhaustion_null_and_bad_free_are_clear_faults(void **s)
{
    (void)s;
    SIM_ONLY_TEST();
    DeviceModule *m = load_file("tests/kernels/heap.ptx");
    DevicePtr d = dalloc(256);
    void *args[] = {&d};
    SimError err;
    DeviceLaunch cfg = {.grid = {1, 1, 1}, .block = {32, 1, 1}, .inst_budget = 100000};
    assert_int_equal(device_launch(m, "_Z20use_null_from_mallocPi", &cfg, args, NULL, &fault, &err), SIM_ERR_FAULT);
    assert_string_equal(fault.kind, "out-of-bounds");
    assert_non_null(strstr(fault.msg, "a device malloc returned NULL, its 8 MB heap"));
    assert_int_equal(device_launch(m, "_Z17free_not_mallocedPi", &cfg, args, NULL, &fault, &err), SIM_ERR_FAULT);
    assert_string_equal(fault.kind, "trap");
    assert_non_null(strstr(fault.msg, "not a block device malloc returned"));
}

/* ---- cooperative launch ----------------------------------------------------- */

/* grid.sync() in a cooperative launch: blocks see each other's writes
 * across the barrier; without --cooperative the kernel traps (its workspace
 * address, %envreg1/2, is 0, as on a GPU); a grid larger than can be
 * resident at once is refused before it runs. */
static void test_ptx_cooperative_launch_grid_sync_and_its_refusals(void **s)
{
    (void)s;
    SIM_ONLY_TEST(); /* the GPU backend does not launch cooperatively yet */
    DeviceModule *m = load_file("tests/kernels/grid_sync.ptx");
    enum { N = 1000 };
    int a[N], b[N];
    for (int i = 0; i < N; i++)
        a[i] = i * 7 % 101;
    DevicePtr da = up(a, sizeof a), db = dalloc(sizeof b);
    int n = N;
    void *args[] = {&da, &db, &n};
    SimError err;
    DeviceLaunch cfg = {.grid = {8, 1, 1}, .block = {128, 1, 1}, .inst_budget = 50000000, .cooperative = true};
    SimStatus st = device_launch(m, "_Z9two_phasePiS_i", &cfg, args, NULL, &fault, &err);
    if (st)
        fail_msg("%s %s", err.msg, fault.msg);
    int got[N];
    down(got, da, sizeof got);
    for (int i = 0; i < N; i++) {
        int j = (i + N - 1) % N; /* a[i] = b[i - 1] = (a0[i] + 1) * 10 + a0[i - 1] + 1 */
        int want = (a[(j + 1) % N] + 1) * 10 + a[j] + 1;
        if (got[i] != want)
            fail_msg("element %d: %d, want %d", i, got[i], want);
    }
    cfg.cooperative = false;
    assert_int_equal(device_launch(m, "_Z9two_phasePiS_i", &cfg, args, NULL, &fault, &err), SIM_ERR_FAULT);
    assert_string_equal(fault.kind, "trap");
    cfg.cooperative = true;
    cfg.grid.x = 100000;
    assert_int_equal(device_launch(m, "_Z9two_phasePiS_i", &cfg, args, NULL, &fault, &err), SIM_ERR_USAGE);
    assert_non_null(strstr(err.msg, "cudaErrorCooperativeLaunchTooLarge"));
}

/* The race checker follows grid.sync(): a block reading what another wrote
 * before the barrier is ordered (no finding), two blocks
 * writing one slot after it, or both before it, still race. */
static void test_ptx_race_checker_orders_blocks_across_grid_sync(void **s)
{
    (void)s;
    SIM_ONLY_TEST(); /* race checking is the simulator's */
    DeviceModule *m = load_file("tests/kernels/grid_sync_races.ptx");
    static const struct {
        const char *kernel;
        int findings, line;
    } want[] = {{"handoff", 0, 0}, {"same_slot_after", 1, 27}, {"same_slot_before", 1, 35}};
    for (size_t k = 0; k < sizeof want / sizeof *want; k++) {
        int slot[8] = {0}, out[8] = {0};
        DevicePtr ds = up(slot, sizeof slot), d_out = up(out, sizeof out);
        void *args[] = {&ds, &d_out};
        SimError err;
        DeviceLaunch cfg = {.grid = {8, 1, 1}, .block = {64, 1, 1}, .cooperative = true,
                            .checks = DEVICE_CHECK_RACES};
        if (device_launch(m, want[k].kernel, &cfg, args, NULL, &fault, &err))
            fail_msg("%s: %s %s", want[k].kernel, err.msg, fault.msg);
        if (device_race_count(dev) != want[k].findings)
            fail_msg("%s: %d findings, want %d", want[k].kernel, device_race_count(dev), want[k].findings);
        if (want[k].findings) {
            const DeviceRace *r = device_race(dev, 0);
            assert_string_equal(r->kind, "write-after-write");
            assert_string_equal(r->space, "global");
            assert_int_equal(r->second.line, want[k].line);
            assert_int_not_equal(r->first.block.x, r->second.block.x);
        } else {
            down(out, d_out, sizeof out);
            down(slot, ds, sizeof slot);
            for (int b = 0; b < 8; b++) {
                assert_int_equal(out[b], (b + 1) % 8 * 10);
                assert_int_equal(slot[b], b * 10 + 1); /* out[b - 1] + 1 */
            }
        }
    }
}

/* ---- clusters of one CTA ------------------------------------------------------ */

/* A launch without clusters runs each CTA as a cluster of one: the cluster
 * API (barrier.cluster, mapa, %cluster_ctarank, %cluster_nctarank,
 * %clusterid) works with rank 0 of 1; a kernel declaring clusters of two
 * runs as a cluster, each CTA reading the other's shared memory. */
static void test_ptx_single_cta_clusters_run_and_so_do_clusters_of_two(void **s)
{
    (void)s;
    DeviceModule *m = load_file("tests/kernels/cluster_one.ptx");
    int out[128];
    DevicePtr d = dalloc(sizeof out);
    void *args[] = {&d};
    launch(m, "_Z18single_cta_clusterPi", 2, 64, args);
    down(out, d, sizeof out);
    for (int b = 0; b < 2; b++)
        for (int t = 0; t < 64; t++)
            assert_int_equal(out[b * 64 + t], (63 - t) * 3 + b + 10000 + 100000 * b);
    /* a kernel declaring clusters of 2 CTAs used to be refused; it runs now
     * (tests/test_clusters.c tests clusters in depth) */
    DeviceModule *mm = load_file("tests/conformance/misc.ptx");
    SimError err;
    int in[128], n = 128;
    for (int i = 0; i < 128; i++)
        in[i] = i * 7 - 300;
    DevicePtr di = up(in, sizeof in);
    void *a3[] = {&di, &d, &n};
    DeviceLaunch cfg = {.grid = {2, 1, 1}, .block = {64, 1, 1}, .inst_budget = 100000};
    assert_int_equal(device_launch(mm, "cluster_exchange", &cfg, a3, NULL, &fault, &err), SIM_OK);
    down(out, d, sizeof out);
    for (int b = 0; b < 2; b++)
        for (int t = 0; t < 64; t++)
            assert_int_equal(out[b * 64 + t], in[(b ^ 1) * 64 + 63 - t] * 2 + b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
#define T(f) cmocka_unit_test_setup_teardown(f, harness_setup, harness_teardown)
        T(test_ptx_elect_sync_picks_lowest_lane_of_mask_in_divergent_code),
        T(test_ptx_cache_policy_hints_and_griddepcontrol_run_and_discard_checks_alignment),
        T(test_ptx_grid_constant_parameter_read_through_its_address),
        T(test_ptx_recursion_keeps_each_activations_registers_locals_and_params),
        T(test_ptx_recursion_deeper_than_the_call_stack_is_a_clear_fault),
        T(test_ptx_device_malloc_free_across_launches_and_heap_exhaustion),
        T(test_ptx_heap_exhaustion_null_and_bad_free_are_clear_faults),
        T(test_ptx_cooperative_launch_grid_sync_and_its_refusals),
        T(test_ptx_race_checker_orders_blocks_across_grid_sync),
        T(test_ptx_single_cta_clusters_run_and_so_do_clusters_of_two),
#undef T
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
