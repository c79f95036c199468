/* test_sched.c: the simulator's schedule -- blocks resident at once on the
 * SMs, dispatched breadth-first; seeds that reproduce; atomic orders; the
 * order log (tests/kernels/sched.cu). */
#include "harness.h"

#define KERNELS "tests/kernels/sched.ptx"

typedef struct {
    int schedule, atomic_order;
    uint64_t seed;
} Sched;

static void launch(const char *kernel, unsigned grid, unsigned block, void **args, Sched s, DeviceStats *st)
{
    DeviceModule *m = load_file(KERNELS);
    SimError err;
    const char *entry = device_find_kernel(m, kernel, &err);
    assert_non_null(entry);
    DeviceLaunch cfg = {.grid = {grid, 1, 1}, .block = {block, 1, 1}, .inst_budget = 10000000,
                        .schedule = s.schedule, .atomic_order = s.atomic_order, .seed = s.seed};
    DeviceFault f;
    if (device_launch(m, entry, &cfg, args, st, &f, &err) != SIM_OK)
        fail_msg("%s: %s", kernel, err.msg);
}

static void test_first_wave_goes_breadth_first_over_the_sms(void **s)
{
    (void)s;
    unsigned out[300];
    DevicePtr d = dalloc(sizeof out);
    launch("which_sm", 300, 32, (void *[]){&d}, (Sched){0}, NULL);
    down(out, d, sizeof out);
    for (int i = 0; i < 300; i++) /* sm_90 has 132 SMs, each holds 32 such blocks */
        assert_int_equal(out[i], (unsigned)(i % 132));
}

static void test_a_block_can_wait_for_another_block(void **s)
{
    (void)s;
    int zero = 0, res[2] = {0, 0};
    DevicePtr flag = up(&zero, sizeof zero), out = up(res, sizeof res);
    for (int sch = 0; sch < 3; sch++) {
        launch("wait_for_block0", 2, 32, (void *[]){&flag, &out}, (Sched){sch, 0, 5}, NULL);
        down(res, out, sizeof res);
        assert_int_equal(res[0], 42);
        assert_int_equal(res[1], 43);
        int z = 0;
        device_memcpy_htod(dev, flag, &z, sizeof z, NULL);
    }
}

static int last_writer(int order, uint64_t seed, int old[32])
{
    int minus1 = -1, word;
    DevicePtr w = up(&minus1, sizeof minus1), o = dalloc(32 * sizeof(int));
    launch("last_writer", 1, 32, (void *[]){&w, &o}, (Sched){0, order, seed}, NULL);
    down(&word, w, sizeof word);
    down(old, o, 32 * sizeof(int));
    return word;
}

static void test_atomic_order_decides_the_last_writer(void **s)
{
    (void)s;
    int old[32];
    assert_int_equal(last_writer(DEVICE_ATOMIC_LANE, 0, old), 31);
    assert_int_equal(old[0], -1); /* lane 0 went first */
    for (int l = 1; l < 32; l++)
        assert_int_equal(old[l], l - 1);
    assert_int_equal(last_writer(DEVICE_ATOMIC_REVERSE, 0, old), 0);
    assert_int_equal(old[31], -1);
    /* random: a permutation -- every old value once, the chain ends at the result */
    int seen[33] = {0}, w = last_writer(DEVICE_ATOMIC_RANDOM, 7, old);
    for (int l = 0; l < 32; l++)
        seen[old[l] + 1]++;
    for (int v = 0; v < 33; v++)
        assert_int_equal(seen[v], v == w + 1 ? 0 : 1);
    /* the same seed, the same order; some other seed another one */
    int again[32], other[32];
    last_writer(DEVICE_ATOMIC_RANDOM, 7, again);
    assert_memory_equal(old, again, sizeof old);
    bool differs = false;
    for (uint64_t sd = 8; sd < 12 && !differs; sd++) {
        last_writer(DEVICE_ATOMIC_RANDOM, sd, other);
        differs = memcmp(old, other, sizeof old) != 0;
    }
    assert_true(differs);
}

static void test_atomic_order_log_lists_the_updates_in_order(void **s)
{
    (void)s;
    SIM_ONLY_TEST();
    int old[32];
    last_writer(DEVICE_ATOMIC_REVERSE, 0, old);
    assert_int_equal(device_atomic_log_count(dev), 1);
    const DeviceAtomicLog *lg = device_atomic_log(dev, 0);
    assert_string_equal(lg->space, "global");
    assert_int_equal(lg->total, 32);
    assert_int_equal(lg->n, 32);
    for (int k = 0; k < 32; k++) {
        assert_int_equal(lg->u[k].thread.x, 31 - k);
        assert_int_equal((int)lg->u[k].val, 31 - k);
        assert_int_equal((int)lg->u[k].old, k ? 32 - k : -1);
    }
}

static int racy(Sched sc, DeviceStats *st)
{
    int zero = 0, v;
    DevicePtr w = up(&zero, sizeof zero);
    launch("racy_count", 64, 256, (void *[]){&w}, sc, st);
    down(&v, w, sizeof v);
    return v;
}

static void test_seeds_reproduce_and_schedules_differ(void **s)
{
    (void)s;
    SIM_ONLY_TEST();
    DeviceStats a, b;
    int rr = racy((Sched){DEVICE_SCHED_ROUNDROBIN, 0, 0}, &a);
    assert_int_equal(racy((Sched){DEVICE_SCHED_ROUNDROBIN, 0, 0}, &b), rr);
    assert_int_equal(a.cycles, b.cycles);
    assert_true(rr >= 1 && rr < 64 * 256); /* updates are lost */
    int r1 = racy((Sched){DEVICE_SCHED_RANDOM, 0, 1}, &a);
    assert_int_equal(racy((Sched){DEVICE_SCHED_RANDOM, 0, 1}, &b), r1);
    bool differs = false;
    for (uint64_t sd = 2; sd < 10 && !differs; sd++)
        differs = racy((Sched){DEVICE_SCHED_RANDOM, 0, sd}, &a) != r1;
    assert_true(differs);
    int adv = racy((Sched){DEVICE_SCHED_ADVERSARIAL, 0, 3}, &a);
    assert_true(adv >= 1 && adv <= 64 * 256);
}

static void test_stats_count_cycles(void **s)
{
    (void)s;
    SIM_ONLY_TEST();
    DeviceStats st;
    racy((Sched){0}, &st);
    /* 4 schedulers per SM: at least warp_insts / (4 x SMs in use) cycles */
    assert_true(st.cycles >= st.warp_insts / (4 * 64));
    assert_true(st.cycles <= st.warp_insts);
}

/* Two blocks on SM 0 (blocks 0 and 132 of sm_90's 132 SMs), 4 warps each:
 * warp 0 of each is on scheduler 0.  Warp 0 stores to and loads from
 * shared memory four times; warps 1-3 either wait at the block's barrier
 * (mode 0), which warp 0 reaches last, or first spin through a loop of
 * register work long enough to outlast warp 0's accesses (mode 1). */
static const char burst_ptx[] =
    ".version 8.0\n.target sm_90\n.address_size 64\n"
    ".visible .entry lone(.param .u32 mode)\n{\n"
    ".reg .pred %p<4>;\n.reg .b32 %r<12>;\n.shared .align 4 .b8 sm[512];\n"
    "ld.param.u32 %r9, [mode];\n"
    "mov.u32 %r1, %tid.x;\nsetp.lt.u32 %p1, %r1, 32;\n@%p1 bra W0;\n"
    "setp.eq.u32 %p2, %r9, 0;\n@%p2 bra BAR;\nmov.u32 %r10, 0;\n"
    "SPIN:\nadd.s32 %r10, %r10, 1;\nsetp.lt.u32 %p3, %r10, 400;\n@%p3 bra SPIN;\n"
    "BAR:\nbar.sync 0;\nret;\n"
    "W0:\nmov.u32 %r2, sm;\nshl.b32 %r3, %r1, 2;\nadd.s32 %r2, %r2, %r3;\n"
    "st.shared.u32 [%r2], %r1;\nld.shared.u32 %r4, [%r2];\nst.shared.u32 [%r2+128], %r4;\n"
    "ld.shared.u32 %r5, [%r2+128];\nbar.sync 0;\nret;\n}\n";

typedef struct {
    uint64_t blocks[4096];
    int n;
} IssueLog;

/* The on_issue log of warp 0's instructions on SM 0 (blocks 0 and 132). */
static int log_issue(void *user, const struct SimView *v, uint64_t block, int warp)
{
    (void)v;
    IssueLog *lg = user;
    if (warp == 0 && (block == 0 || block == 132) && lg->n < 4096)
        lg->blocks[lg->n++] = block;
    return 0; /* SIM_VIEW_CONTINUE */
}

/* How many times warp 0's issues switch between the two blocks. */
static int block_switches(unsigned mode)
{
    DeviceModule *m = load_text("lone.ptx", burst_ptx);
    SimError err;
    IssueLog *lg = calloc(1, sizeof *lg);
    assert_non_null(lg);
    DeviceLaunch cfg = {.grid = {133, 1, 1}, .block = {128, 1, 1}, .inst_budget = 1000000,
                        .on_issue = log_issue, .on_issue_user = lg};
    DeviceFault f;
    if (device_launch(m, "lone", &cfg, (void *[]){&mode}, NULL, &f, &err) != SIM_OK)
        fail_msg("lone: %s%s", err.msg, f.faulted ? f.msg : "");
    int n = 0;
    for (int i = 1; i < lg->n; i++)
        n += lg->blocks[i] != lg->blocks[i - 1];
    assert_true(lg->n >= 2 * 12); /* every instruction of both warps 0 seen */
    free(lg);
    return n;
}

static void test_shared_accesses_join_a_burst_while_the_block_waits(void **s)
{
    (void)s;
    SIM_ONLY_TEST();
    /* each warp 0 issues 7 instructions up to its first store, while the
     * other warps still run; then the rest of its block waits at the
     * barrier, nobody can see its four shared accesses before its bar.sync,
     * and they go in one burst; the two take turns again at the bar.sync and
     * the ret: 0000000 1111111 0000 1111 0 1 0 1, 7 switches */
    assert_int_equal(block_switches(0), 7);
    /* the rest still running: each access is a turn of its own, 13 switches */
    assert_int_equal(block_switches(1), 13);
}

/* ---- a stepper that only watches changes nothing --------------------------
 * A launch with on_issue issues one instruction at a time through exec_issue
 * (and the named registers); without it, bursts run exec_burst.h's loop,
 * which takes straight runs with the bra ending them, whole-warp barrier
 * arrivals, a diverged warp's kept group and the groups' meeting, and
 * shared accesses while the rest of the block waits.  Both must make the
 * same bursts: every statistic, the cycles first, the same. */
static int watch_only(void *user, const struct SimView *v, uint64_t block, int warp)
{
    (void)v, (void)block, (void)warp;
    ++*(uint64_t *)user;
    return 0; /* SIM_VIEW_CONTINUE */
}

static void run_watched(const char *file, const char *entry, unsigned grid, unsigned block, void **args,
                        DevicePtr out, size_t out_bytes, bool watched, DeviceStats *st, uint8_t *result)
{
    DeviceModule *m = load_file(file);
    SimError err;
    DeviceFault f;
    uint64_t issues = 0;
    memset(result, 0, out_bytes); /* the output cleared: each run writes its own */
    assert_int_equal(device_memcpy_htod(dev, out, result, out_bytes, &err), SIM_OK);
    DeviceLaunch cfg = {.grid = {grid, 1, 1}, .block = {block, 1, 1}, .inst_budget = 100000000,
                        .on_issue = watched ? watch_only : NULL, .on_issue_user = &issues};
    if (device_launch(m, entry, &cfg, args, st, &f, &err) != SIM_OK)
        fail_msg("%s %s: %s%s", file, entry, err.msg, f.faulted ? f.msg : "");
    if (watched)
        assert_int_equal(issues, st->warp_insts);
    st->seconds = 0;
    down(result, out, out_bytes);
}

static void expect_unwatched_same(const char *file, const char *entry, unsigned grid, unsigned block, void **args,
                                  DevicePtr out, size_t out_bytes)
{
    DeviceStats a, b;
    uint8_t *ra = malloc(out_bytes), *rb = malloc(out_bytes);
    assert_true(ra && rb);
    run_watched(file, entry, grid, block, args, out, out_bytes, false, &a, ra);
    run_watched(file, entry, grid, block, args, out, out_bytes, true, &b, rb);
    if (a.cycles != b.cycles || a.warp_insts != b.warp_insts || a.thread_insts != b.thread_insts ||
        a.divergent_branches != b.divergent_branches || a.barriers != b.barriers ||
        a.shared_loads != b.shared_loads || a.shared_stores != b.shared_stores)
        fail_msg("%s %s: cycles %llu and %llu, warp instructions %llu and %llu, divergent branches %llu and %llu",
                 file, entry, (unsigned long long)a.cycles, (unsigned long long)b.cycles,
                 (unsigned long long)a.warp_insts, (unsigned long long)b.warp_insts,
                 (unsigned long long)a.divergent_branches, (unsigned long long)b.divergent_branches);
    assert_memory_equal(ra, rb, out_bytes);
    free(ra);
    free(rb);
}

static void test_a_stepper_that_only_watches_changes_no_statistic(void **s)
{
    (void)s;
    enum { N = 1200 * 256 };
    int *in = malloc(N * sizeof *in);
    assert_non_null(in);
    for (int i = 0; i < N; i++)
        in[i] = (int)((unsigned)i * 2654435761u % 2001u) - 1000;
    DevicePtr din = up(in, N * sizeof *in), dout = dalloc(N * sizeof *in), dpeak = dalloc(N * sizeof *in);
    int n = N;
    /* a tree reduction on more blocks than the SMs hold: barriers, groups of
     * a diverged warp meeting, blocks retiring and others dispatched */
    expect_unwatched_same("tests/kernels/bench.ptx", "bench_reduce", 1200, 256, (void *[]){&din, &dout, &n}, dout,
                          1200 * sizeof(int));
    /* shared accesses by groups of every shape */
    expect_unwatched_same("tests/kernels/shared_rows.ptx", "shared_rows", 340, 256, (void *[]){&din, &dout}, dout,
                          340 * 256 * sizeof(int));
    /* data-dependent branches and loops */
    int nb = 64 * 128;
    expect_unwatched_same("tests/kernels/divergence.ptx", "branches", 64, 128, (void *[]){&din, &dout, &nb}, dout,
                          (size_t)nb * sizeof(int));
    expect_unwatched_same("tests/kernels/divergence.ptx", "collatz", 64, 128,
                          (void *[]){&din, &dout, &dpeak, &nb}, dout, (size_t)nb * sizeof(int));
    free(in);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_first_wave_goes_breadth_first_over_the_sms, harness_setup_sim,
                                        harness_teardown),
        cmocka_unit_test_setup_teardown(test_a_block_can_wait_for_another_block, harness_setup, harness_teardown),
        cmocka_unit_test_setup_teardown(test_atomic_order_decides_the_last_writer, harness_setup_sim,
                                        harness_teardown),
        cmocka_unit_test_setup_teardown(test_atomic_order_log_lists_the_updates_in_order, harness_setup_sim,
                                        harness_teardown),
        cmocka_unit_test_setup_teardown(test_seeds_reproduce_and_schedules_differ, harness_setup_sim,
                                        harness_teardown),
        cmocka_unit_test_setup_teardown(test_stats_count_cycles, harness_setup_sim, harness_teardown),
        cmocka_unit_test_setup_teardown(test_a_stepper_that_only_watches_changes_no_statistic, harness_setup_sim,
                                        harness_teardown),
        cmocka_unit_test_setup_teardown(test_shared_accesses_join_a_burst_while_the_block_waits, harness_setup_sim,
                                        harness_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
