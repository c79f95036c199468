/* test_memrow.c: the handlers of the commonest loads and stores
 * (sim/exec_mem.c: a warp's or a group's 4-byte elements one after another
 * in shared memory, a kernel parameter) against ex_ld and ex_st's general
 * path.  tests/kernels/shared_rows.cu computes what the host computes here,
 * with every shape of lane group, and counts the same accesses; a lane
 * past shared memory faults as lane by lane; signed elements sign-extend
 * into 64-bit registers under guards; and every entry of every kernel in
 * tests/kernels/ and the lessons computes the same bytes, faults, printf
 * text and statistics with the handlers and without (WARPSIM_MEMROW=0). */
#include "harness.h"
#include "sweep_fixture.h"
#include "device_int.h"

enum { G = 340, B = 256 };

/* What shared_rows writes for thread t of block b, and the shared loads
 * and stores it makes (per block, added to *loads and *stores). */
static void host_shared_rows(const int *in, int *out, uint64_t *loads, uint64_t *stores)
{
    for (int b = 0; b < G; b++) {
        int s[B + 32], v[B];
        int k = b % 34;
        for (int t = 0; t < B; t++)
            s[t] = in[b * B + t];
        for (int l = 0; l < 32; l++)
            s[B + l] = -l;
        *stores += B + 32;
        for (int t = 0; t < B; t++) {
            int lane = t & 31;
            v[t] = 0;
            if (lane < k)
                v[t] += s[t + 1], ++*loads;
            if (lane & 1)
                v[t] += 3 * s[t ^ 1], ++*loads;
            if (lane == (b & 31))
                v[t] += 5 * s[255 - t], ++*loads;
            if (lane < 16)
                v[t] += 7 * s[(t * 7) & 255], ++*loads;
        }
        for (int t = 0; t < B; t++)
            if ((t & 31) >= k)
                s[t] = v[t], ++*stores;
        for (int t = 0; t < B; t++)
            out[b * B + t] = s[t] + s[B + (t & 31)];
        *loads += 2 * B;
    }
}

static DeviceModule *load_rows(const char *path, bool rows)
{
    if (!rows)
        setenv("WARPSIM_MEMROW", "0", 1);
    DeviceModule *m = load_file(path);
    unsetenv("WARPSIM_MEMROW");
    return m;
}

static void test_shared_rows_match_the_host(void **s)
{
    (void)s;
    static int in[G * B], want[G * B], got[G * B];
    for (int i = 0; i < G * B; i++)
        in[i] = (int)((unsigned)i * 37u % 2001u) - 1000;
    uint64_t loads = 0, stores = 0;
    host_shared_rows(in, want, &loads, &stores);
    static const int scheds[] = {DEVICE_SCHED_ROUNDROBIN, DEVICE_SCHED_RANDOM, DEVICE_SCHED_ADVERSARIAL};
    for (int rows = 0; rows < 2; rows++) {
        DeviceModule *m = load_rows("tests/kernels/shared_rows.ptx", rows);
        for (int k = 0; k < 3; k++) {
            DevicePtr din = up(in, sizeof in), dout = dalloc(sizeof got);
            DeviceLaunch cfg = {.grid = {G, 1, 1}, .block = {B, 1, 1}, .schedule = scheds[k], .seed = 11};
            DeviceStats st;
            DeviceFault f;
            SimError err;
            assert_int_equal(device_launch(m, "shared_rows", &cfg, (void *[]){&din, &dout}, &st, &f, &err), SIM_OK);
            down(got, dout, sizeof got);
            for (int i = 0; i < G * B; i++)
                if (got[i] != want[i])
                    fail_msg("rows %d schedule %d: block %d thread %d: %d, want %d", rows, scheds[k], i / B, i % B,
                             got[i], want[i]);
            assert_int_equal(st.shared_loads, loads);
            assert_int_equal(st.shared_stores, stores);
            device_free(dev, din, NULL);
            device_free(dev, dout, NULL);
        }
    }
}

static DeviceFault run_past(bool rows)
{
    DeviceModule *m = load_rows("tests/kernels/shared_rows.ptx", rows);
    DevicePtr dout = dalloc(4096);
    int n = 64;
    DeviceLaunch cfg = {.grid = {3, 1, 1}, .block = {64, 1, 1}};
    DeviceStats st;
    DeviceFault f;
    SimError err;
    assert_int_equal(device_launch(m, "shared_rows_past", &cfg, (void *[]){&dout, &n}, &st, &f, &err),
                     SIM_ERR_FAULT);
    device_free(dev, dout, NULL);
    return f;
}

static void test_a_lane_past_shared_memory_faults_as_lane_by_lane(void **s)
{
    (void)s;
    DeviceFault a = run_past(true), b = run_past(false);
    assert_true(a.faulted);
    assert_int_equal(a.lane, 0); /* the group's first lane, as the lane-by-lane path finds it */
    assert_string_equal(a.kind, b.kind);
    assert_string_equal(a.msg, b.msg);
    assert_int_equal(a.block.x, b.block.x);
    assert_int_equal(a.thread.x, b.thread.x);
    assert_int_equal(a.warp, b.warp);
    assert_int_equal(a.ptx_line, b.ptx_line);
    assert_int_equal(a.addr, b.addr);
}

/* ld.shared.s32 into 64-bit registers under guards: a prefix of 13 lanes
 * reading the next element, odd lanes their own; the others keep 7 and 9. */
static const char signed_rows[] =
    ".version 8.0\n.target sm_90\n.address_size 64\n"
    ".visible .entry signed_rows(.param .u64 out)\n{\n"
    "  .reg .pred %p<4>;\n  .reg .b32 %r<10>;\n  .reg .b64 %rd<10>;\n"
    "  .shared .align 4 .b8 sm[1024];\n"
    "  ld.param.u64 %rd1, [out];\n  cvta.to.global.u64 %rd1, %rd1;\n"
    "  mov.u32 %r1, %tid.x;\n  mov.u32 %r2, sm;\n  shl.b32 %r3, %r1, 2;\n  add.u32 %r4, %r2, %r3;\n"
    "  sub.s32 %r5, 0, %r1;\n  mul.lo.s32 %r5, %r5, 1000003;\n  st.shared.u32 [%r4], %r5;\n"
    "  bar.sync 0;\n"
    "  and.b32 %r6, %r1, 31;\n  mov.u64 %rd2, 7;\n  setp.lt.u32 %p1, %r6, 13;\n"
    "  @%p1 ld.shared.s32 %rd2, [%r4+4];\n"
    "  and.b32 %r7, %r1, 1;\n  setp.eq.u32 %p2, %r7, 1;\n  mov.u64 %rd3, 9;\n"
    "  @%p2 ld.shared.s32 %rd3, [%r4];\n"
    "  add.s64 %rd4, %rd2, %rd3;\n  mul.wide.u32 %rd5, %r1, 8;\n  add.s64 %rd6, %rd1, %rd5;\n"
    "  st.global.u64 [%rd6], %rd4;\n  ret;\n}\n";

static void test_signed_elements_extend_under_guards(void **s)
{
    (void)s;
    enum { T = 128 };
    for (int rows = 0; rows < 2; rows++) {
        if (!rows)
            setenv("WARPSIM_MEMROW", "0", 1);
        DeviceModule *m = load_text("signed_rows", signed_rows);
        unsetenv("WARPSIM_MEMROW");
        DevicePtr dout = dalloc(T * 8);
        DeviceLaunch cfg = {.grid = {1, 1, 1}, .block = {T, 1, 1}};
        DeviceStats st;
        DeviceFault f;
        SimError err;
        assert_int_equal(device_launch(m, "signed_rows", &cfg, (void *[]){&dout}, &st, &f, &err), SIM_OK);
        int64_t got[T];
        down(got, dout, sizeof got);
        for (int t = 0; t < T; t++) {
            int64_t a = (t & 31) < 13 ? -(int64_t)(t + 1) * 1000003 : 7;
            int64_t b = (t & 1) ? -(int64_t)t * 1000003 : 9;
            if (got[t] != a + b)
                fail_msg("rows %d thread %d: %lld, want %lld", rows, t, (long long)got[t], (long long)(a + b));
        }
        device_free(dev, dout, NULL);
    }
}

static void test_every_kernel_runs_the_same_with_rows_and_lane_by_lane(void **s)
{
    (void)s;
    static const SweepRun runs[] = {{DEVICE_SCHED_ROUNDROBIN, 300}, {DEVICE_SCHED_ADVERSARIAL, 4}};
    int files, compared = sweep_compare_switch("WARPSIM_MEMROW", runs, 2, &files);
    print_message("%d files: %d launches the same with the row handlers and without\n", files, compared);
    assert_true(files >= 50);
    assert_true(compared >= 300);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_shared_rows_match_the_host, harness_setup_sim, harness_teardown),
        cmocka_unit_test_setup_teardown(test_a_lane_past_shared_memory_faults_as_lane_by_lane, harness_setup_sim,
                                        harness_teardown),
        cmocka_unit_test_setup_teardown(test_signed_elements_extend_under_guards, harness_setup_sim,
                                        harness_teardown),
        cmocka_unit_test_setup_teardown(test_every_kernel_runs_the_same_with_rows_and_lane_by_lane,
                                        harness_setup_sim, harness_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
