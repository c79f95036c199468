/* test_hazards.c: every hazard class `--check races` knows, end to end, on
 * real CUDA kernels (tests/kernels/hazards.cu): each hazard kernel is
 * reported with the right kind, memory space, .cu line and two threads under
 * the default schedule and several random and adversarial ones, and its
 * correct twin is not.  Deadlock and a spin nobody ends stop the launch
 * cleanly.  Then the `warpsim run --check races` contract: text, JSON and
 * exit status.  The line a finding must name is marked "// @NAME" in the
 * .cu, and looked up here. */
#include "harness.h"

#include <sys/wait.h>

#define CU "tests/kernels/hazards.cu"
#define PTX "tests/kernels/hazards.ptx"

/* The .cu line holding the marker "// @name". */
static int marker_line(const char *name)
{
    char want[64], buf[512];
    snprintf(want, sizeof want, "// @%s", name);
    FILE *f = fopen(CU, "r");
    if (!f)
        fail_msg("cannot open %s (run the tests from the repository root)", CU);
    int line = 0, found = 0;
    while (fgets(buf, sizeof buf, f)) {
        line++;
        const char *p = strstr(buf, want);
        if (p && (p[strlen(want)] == '\n' || p[strlen(want)] == ' ' || !p[strlen(want)])) {
            found = line;
            break;
        }
    }
    fclose(f);
    if (!found)
        fail_msg("no marker %s in %s", want, CU);
    return found;
}

/* One launch: grid x block threads; arguments are an optional input buffer
 * (in_n ints: in_vals, else 0, 1, 2, ...) then an output buffer. */
typedef struct {
    const char *kernel;
    unsigned grid, block;
    int in_n;                 /* 0: the kernel takes only the output */
    const int *in_vals;       /* NULL: iota */
    int out_n;
} Launch;

typedef struct {
    int schedule, atomic_order;
    uint64_t seed;
} Sched;

static const Sched scheds[] = {
    {DEVICE_SCHED_ROUNDROBIN, DEVICE_ATOMIC_LANE, 0},
    {DEVICE_SCHED_RANDOM, DEVICE_ATOMIC_RANDOM, 1},
    {DEVICE_SCHED_RANDOM, DEVICE_ATOMIC_RANDOM, 7},
    {DEVICE_SCHED_RANDOM, DEVICE_ATOMIC_RANDOM, 12345},
    {DEVICE_SCHED_ADVERSARIAL, DEVICE_ATOMIC_ADVERSARIAL, 3},
    {DEVICE_SCHED_ADVERSARIAL, DEVICE_ATOMIC_REVERSE, 99},
};
#define NSCHED (int)(sizeof scheds / sizeof scheds[0])

static SimStatus run_checked(const Launch *l, const Sched *s, uint64_t budget, DeviceFault *f)
{
    DeviceModule *m = load_file(PTX);
    SimError err;
    const char *entry = device_find_kernel(m, l->kernel, &err);
    if (!entry)
        fail_msg("%s: %s", l->kernel, err.msg);
    DevicePtr in = 0, out = dalloc((size_t)l->out_n * sizeof(int));
    if (l->in_n) {
        int *v = malloc((size_t)l->in_n * sizeof *v);
        assert_non_null(v);
        for (int i = 0; i < l->in_n; i++)
            v[i] = l->in_vals ? l->in_vals[i] : i;
        in = up(v, (size_t)l->in_n * sizeof *v);
        free(v);
    }
    DeviceLaunch cfg = {.grid = {l->grid, 1, 1}, .block = {l->block, 1, 1}, .inst_budget = budget,
                        .schedule = s->schedule, .atomic_order = s->atomic_order, .seed = s->seed,
                        .checks = DEVICE_CHECK_RACES};
    void *args2[] = {&in, &out}, *args1[] = {&out};
    SimStatus st = device_launch(m, entry, &cfg, l->in_n ? args2 : args1, NULL, f, &err);
    if (st != SIM_OK && st != SIM_ERR_FAULT)
        fail_msg("%s: %s", l->kernel, err.msg);
    return st;
}

static bool ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), k = strlen(suffix);
    return n >= k && !strcmp(s + n - k, suffix);
}

static bool same_thread(const DeviceAccess *a, const DeviceAccess *b)
{
    return a->block.x == b->block.x && a->thread.x == b->thread.x;
}

/* An expected finding: kind (or alt, when the schedule decides which of the
 * two the same bug shows as), space, the marker the second access (or
 * either, with either_line) is on; others: kinds also allowed. */
typedef struct {
    const char *kind, *alt, *space, *marker;
    bool either_line, same_thread_ok;
    const char *others;
} Expect;

static void check_hazard(const Launch *l, const Expect *e)
{
    int line = marker_line(e->marker);
    for (int k = 0; k < NSCHED; k++) {
        DeviceFault f;
        const Sched *s = &scheds[k];
        if (run_checked(l, s, 10000000, &f) != SIM_OK)
            fail_msg("%s (%s seed %llu) faulted: %s: %s", l->kernel, device_schedule_name(s->schedule),
                     (unsigned long long)s->seed, f.kind, f.msg);
        int n = device_race_count(dev), hits = 0;
        if (!n)
            fail_msg("%s (%s seed %llu): no finding, expected %s", l->kernel,
                     device_schedule_name(s->schedule), (unsigned long long)s->seed, e->kind);
        for (int i = 0; i < n; i++) {
            const DeviceRace *r = device_race(dev, i);
            bool kind_ok = !strcmp(r->kind, e->kind) || (e->alt && !strcmp(r->kind, e->alt));
            if (!kind_ok) {
                if (!e->others || !strstr(e->others, r->kind))
                    fail_msg("%s (%s seed %llu): unexpected %s at line %d/%d", l->kernel,
                             device_schedule_name(s->schedule), (unsigned long long)s->seed, r->kind,
                             r->first.line, r->second.line);
                continue;
            }
            if (strcmp(r->space, e->space))
                continue;
            if (!(r->second.line == line || (e->either_line && r->first.line == line)))
                continue;
            assert_true(ends_with(r->file, CU));
            assert_true(r->first.op[0] && r->second.op[0]);
            assert_true(r->first.line > 0 && r->second.line > 0);
            assert_true(r->first.ptx_line > 0 && r->second.ptx_line > 0);
            assert_true(r->msg[0]);
            if (!e->same_thread_ok && same_thread(&r->first, &r->second))
                fail_msg("%s: a %s between a thread and itself", l->kernel, r->kind);
            hits++;
        }
        if (!hits)
            fail_msg("%s (%s seed %llu): %d findings, none a %s on %s memory at %s:%d", l->kernel,
                     device_schedule_name(s->schedule), (unsigned long long)s->seed, n, e->kind, e->space, CU,
                     line);
    }
}

static void check_clean(const Launch *l)
{
    for (int k = 0; k < NSCHED; k++) {
        DeviceFault f;
        const Sched *s = &scheds[k];
        if (run_checked(l, s, 10000000, &f) != SIM_OK)
            fail_msg("%s (%s seed %llu) faulted: %s: %s", l->kernel, device_schedule_name(s->schedule),
                     (unsigned long long)s->seed, f.kind, f.msg);
        if (device_race_count(dev)) {
            const DeviceRace *r = device_race(dev, 0);
            fail_msg("%s (%s seed %llu): %d findings on a correct kernel, the first %s at lines %d and %d: %s",
                     l->kernel, device_schedule_name(s->schedule), (unsigned long long)s->seed,
                     device_race_count(dev), r->kind, r->first.line, r->second.line, r->msg);
        }
    }
}

/* ---- the pairs ------------------------------------------------------------ */

static void test_raw_missing_syncwarp_in_reduction_is_read_after_write(void **s)
{
    (void)s;
    check_hazard(&(Launch){"raw_racy", 2, 64, 128, NULL, 2},
                 &(Expect){"read-after-write", NULL, "shared", "raw", false, false, NULL});
}

static void test_raw_reduction_with_syncwarp_is_clean(void **s)
{
    (void)s;
    check_clean(&(Launch){"raw_ok", 2, 64, 128, NULL, 2});
}

static void test_war_shift_in_place_is_write_after_read(void **s)
{
    (void)s;
    check_hazard(&(Launch){"war_racy", 1, 32, 32, NULL, 32},
                 &(Expect){"write-after-read", NULL, "shared", "war", false, false, NULL});
}

static void test_war_shift_with_barrier_is_clean(void **s)
{
    (void)s;
    check_clean(&(Launch){"war_ok", 1, 32, 32, NULL, 32});
}

static void test_waw_every_thread_writes_s0(void **s)
{
    (void)s;
    check_hazard(&(Launch){"waw_racy", 2, 64, 0, NULL, 4},
                 &(Expect){"write-after-write", NULL, "shared", "waw", false, false, NULL});
}

static void test_waw_one_writer_is_clean(void **s)
{
    (void)s;
    check_clean(&(Launch){"waw_ok", 2, 64, 0, NULL, 4});
}

static void test_global_blocks_writing_out0_race(void **s)
{
    (void)s;
    check_hazard(&(Launch){"global_racy", 4, 32, 0, NULL, 4},
                 &(Expect){"write-after-write", NULL, "global", "global", false, false, NULL});
}

static void test_global_out_b_per_block_is_clean(void **s)
{
    (void)s;
    check_clean(&(Launch){"global_ok", 4, 32, 0, NULL, 4});
}

static void test_lost_update_in_shared(void **s)
{
    (void)s;
    check_hazard(&(Launch){"lost_shared_racy", 2, 64, 64, NULL, 2},
                 &(Expect){"lost-update", NULL, "shared", "lost_shared", false, false, NULL});
}

static void test_atomic_add_in_shared_is_clean(void **s)
{
    (void)s;
    check_clean(&(Launch){"lost_shared_ok", 2, 64, 64, NULL, 2});
}

static void test_lost_update_in_global(void **s)
{
    (void)s;
    /* block 1 also reads what block 0 wrote: that read is a race too */
    check_hazard(&(Launch){"lost_global_racy", 2, 32, 64, NULL, 1},
                 &(Expect){"lost-update", NULL, "global", "lost_global", false, false,
                           "read-after-write write-after-read write-after-write"});
}

static void test_atomic_add_in_global_is_clean(void **s)
{
    (void)s;
    check_clean(&(Launch){"lost_global_ok", 2, 32, 64, NULL, 1});
}

static void test_atomic_add_block_on_a_shared_counter_is_atomic_scope(void **s)
{
    (void)s;
    check_hazard(&(Launch){"scope_racy", 4, 32, 0, NULL, 4},
                 &(Expect){"atomic-scope", NULL, "global", "scope", false, false, NULL});
}

static void test_atomic_add_and_per_block_counters_are_clean(void **s)
{
    (void)s;
    check_clean(&(Launch){"scope_ok", 4, 32, 0, NULL, 4});
    check_clean(&(Launch){"scope_ok_per_block", 4, 32, 0, NULL, 4});
}

static void test_cp_async_read_before_wait(void **s)
{
    (void)s;
    /* the thread reads its own copy's destination: one thread, on purpose */
    check_hazard(&(Launch){"cp_async_racy", 1, 32, 32, NULL, 32},
                 &(Expect){"cp-async", NULL, "shared", "cp_async", false, true, NULL});
}

static void test_cp_async_read_after_wait_and_barrier_is_clean(void **s)
{
    (void)s;
    check_clean(&(Launch){"cp_async_ok", 1, 32, 32, NULL, 32});
}

static void test_syncthreads_in_a_branch_is_barrier_divergence(void **s)
{
    (void)s;
    check_hazard(&(Launch){"bar_div_racy", 1, 256, 0, NULL, 128},
                 &(Expect){"barrier-divergence", NULL, "barrier", "bar_div", true, false, NULL});
    /* first: a thread that exited without reaching it; second: the barrier */
    const DeviceRace *r = device_race(dev, 0);
    assert_string_equal(r->first.op, "exit");
    assert_string_equal(r->second.op, "bar.sync");
    assert_true(r->first.thread.x >= 128);
    assert_true(r->second.thread.x < 128);
}

static void test_syncthreads_unconditional_is_clean(void **s)
{
    (void)s;
    check_clean(&(Launch){"bar_div_ok", 1, 256, 0, NULL, 128});
}

static void test_syncthreads_in_loops_of_different_trips_meet_at_two_barriers(void **s)
{
    (void)s;
    static const int trips[2] = {2, 1};
    check_hazard(&(Launch){"bar_loop_racy", 1, 64, 2, trips, 64},
                 &(Expect){"barrier-divergence", NULL, "barrier", "bar_loop", true, false, NULL});
    const DeviceRace *r = device_race(dev, 0);
    assert_string_equal(r->first.op, "bar.sync");
    assert_string_equal(r->second.op, "bar.sync");
    assert_int_not_equal(r->first.line, r->second.line);
    assert_int_not_equal(r->first.warp, r->second.warp);
}

static void test_syncthreads_in_loops_of_equal_trips_is_clean(void **s)
{
    (void)s;
    static const int trips[2] = {2, 2};
    check_clean(&(Launch){"bar_loop_racy", 1, 64, 2, trips, 64});
}

/* Without checking, a barrier that exited threads never reach releases, as
 * on hardware: divergence is a finding, not a fault. */
static void test_barrier_divergence_only_reported_when_checking(void **s)
{
    (void)s;
    DeviceModule *m = load_file(PTX);
    SimError err;
    DevicePtr out = dalloc(128 * sizeof(int));
    DeviceLaunch cfg = {.grid = {1, 1, 1}, .block = {256, 1, 1}};
    void *args[] = {&out};
    DeviceFault f;
    assert_int_equal(device_launch(m, device_find_kernel(m, "bar_div_racy", &err), &cfg, args, NULL, &f, &err),
                     SIM_OK);
    assert_int_equal(device_race_count(dev), 0);
}

static void test_two_named_barriers_deadlock(void **s)
{
    (void)s;
    int line = marker_line("deadlock");
    for (int k = 0; k < NSCHED; k++) {
        DeviceFault f;
        assert_int_equal(run_checked(&(Launch){"deadlock_racy", 1, 64, 0, NULL, 64}, &scheds[k], 1000000, &f),
                         SIM_ERR_FAULT);
        assert_string_equal(f.kind, "deadlock");
        assert_true(ends_with(f.file, CU));
        /* the barrier either warp waits at: the marked one or the next line's */
        assert_true(f.line == line || f.line == line + 2);
        assert_non_null(strstr(f.msg, "barrier"));
    }
}

static void test_one_named_barrier_for_both_warps_is_clean(void **s)
{
    (void)s;
    check_clean(&(Launch){"deadlock_ok", 1, 64, 0, NULL, 64});
}

static void test_warp_exchange_without_syncwarp_is_read_after_write(void **s)
{
    (void)s;
    check_hazard(&(Launch){"warp_exchange_racy", 1, 32, 32, NULL, 32},
                 &(Expect){"read-after-write", NULL, "shared", "exchange", false, false, NULL});
}

static void test_warp_exchange_with_syncwarp_is_clean(void **s)
{
    (void)s;
    check_clean(&(Launch){"warp_exchange_ok", 1, 32, 32, NULL, 32});
}

static void test_mbarrier_producer_consumer_is_clean_and_correct(void **s)
{
    (void)s;
    Launch l = {"mbarrier_ok", 1, 64, 32, NULL, 32};
    check_clean(&l);
    /* and it computes the right thing: consumer t-32 reads s[63-t] = 2 * (63-t) */
    int res[32];
    SimError err;
    DeviceModule *m = load_file(PTX);
    DevicePtr in = dalloc(32 * sizeof(int)), o = dalloc(32 * sizeof(int));
    int iota[32];
    for (int i = 0; i < 32; i++)
        iota[i] = i;
    assert_int_equal(device_memcpy_htod(dev, in, iota, sizeof iota, &err), SIM_OK);
    DeviceLaunch cfg = {.grid = {1, 1, 1}, .block = {64, 1, 1}, .schedule = DEVICE_SCHED_RANDOM, .seed = 5};
    void *args[] = {&in, &o};
    assert_int_equal(device_launch(m, device_find_kernel(m, "mbarrier_ok", &err), &cfg, args, NULL, NULL, &err),
                     SIM_OK);
    down(res, o, sizeof res);
    for (int i = 0; i < 32; i++)
        assert_int_equal(res[i], 2 * (31 - i));
}

/* mbarrier.arrive.shared::cta -- what nvcc writes for cuda::barrier's
 * arrive -- arrives on the shared-memory object: it was taken for a generic
 * address and faulted ("8-byte write at global address 0x0"). */
static void test_mbarrier_arrive_shared_cta_is_shared_memory(void **s)
{
    (void)s;
    static const char ptx[] =
        ".version 8.0\n.target sm_90\n.address_size 64\n"
        ".visible .entry cta_arrive(.param .u64 out)\n{\n"
        "  .reg .b32 %r<8>;\n  .reg .b64 %rd<6>;\n  .reg .pred %p<3>;\n"
        "  .shared .align 8 .b64 bar;\n  .shared .align 4 .b32 buf[64];\n"
        "  ld.param.u64 %rd1, [out];\n  mov.u32 %r1, %tid.x;\n  mov.u32 %r2, bar;\n"
        "  setp.ne.u32 %p1, %r1, 0;\n  @%p1 bra SKIP;\n  mbarrier.init.shared.b64 [%r2], 64;\n"
        "SKIP:\n  bar.sync 0;\n  mov.u32 %r3, buf;\n  shl.b32 %r4, %r1, 2;\n  add.u32 %r5, %r3, %r4;\n"
        "  st.shared.u32 [%r5], %r1;\n  mbarrier.arrive.shared::cta.b64 %rd2, [%r2], 1;\n"
        "WAIT:\n  mbarrier.try_wait.shared.b64 %p2, [%r2], %rd2;\n  @!%p2 bra WAIT;\n"
        "  add.u32 %r6, %r1, 1;\n  and.b32 %r6, %r6, 63;\n  shl.b32 %r6, %r6, 2;\n  add.u32 %r6, %r3, %r6;\n"
        "  ld.shared.u32 %r7, [%r6];\n  cvta.to.global.u64 %rd3, %rd1;\n  mul.wide.u32 %rd4, %r1, 4;\n"
        "  add.s64 %rd5, %rd3, %rd4;\n  st.global.u32 [%rd5], %r7;\n  ret;\n}\n";
    SimError err;
    DeviceModule *m = load_text("cta_arrive.ptx", ptx);
    DevicePtr o = dalloc(64 * sizeof(int));
    void *args[] = {&o};
    DeviceFault fault;
    for (uint64_t seed = 0; seed < 4; seed++) {
        DeviceLaunch cfg = {.grid = {1, 1, 1}, .block = {64, 1, 1}, .schedule = DEVICE_SCHED_RANDOM, .seed = seed,
                            .checks = DEVICE_CHECK_RACES};
        SimStatus st = device_launch(m, device_find_kernel(m, "cta_arrive", &err), &cfg, args, NULL, &fault, &err);
        if (st != SIM_OK)
            fail_msg("seed %llu: %s %s", (unsigned long long)seed, st == SIM_ERR_FAULT ? fault.msg : "", err.msg);
        assert_int_equal(device_race_count(dev), 0);
        int res[64];
        down(res, o, sizeof res);
        for (int t = 0; t < 64; t++)
            assert_int_equal(res[t], (t + 1) % 64);
    }
}

static void test_mbarrier_read_before_wait_races(void **s)
{
    (void)s;
    /* the consumer's read and the producer's write are unordered: which
     * comes first decides whether it shows as RAW or WAR */
    check_hazard(&(Launch){"mbarrier_racy", 1, 64, 32, NULL, 32},
                 &(Expect){"read-after-write", "write-after-read", "shared", "mbarrier", true, false, NULL});
}

static void test_spin_on_a_flag_nobody_sets_ends_as_budget_exceeded(void **s)
{
    (void)s;
    int line = marker_line("spin");
    for (int k = 0; k < NSCHED; k++) {
        DeviceFault f;
        assert_int_equal(run_checked(&(Launch){"spin_forever", 1, 32, 1, (const int[]){0}, 1}, &scheds[k],
                                     200000, &f),
                         SIM_ERR_FAULT);
        assert_string_equal(f.kind, "budget-exceeded");
        assert_int_equal(f.line, line);
        assert_int_equal(device_race_count(dev), 0);
    }
}

/* ---- warpsim run --check races ---------------------------------------------- */

static const char *warpsim(void)
{
    const char *w = getenv("WARPSIM");
    return w ? w : "build/warpsim";
}

static char out[1 << 18];

static int run_cli(const char *fmt, ...)
{
    char args[1024], cmd[1400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(args, sizeof args, fmt, ap);
    va_end(ap);
    snprintf(cmd, sizeof cmd, "%s run " PTX " %s 2>&1", warpsim(), args);
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    size_t n = fread(out, 1, sizeof out - 1, p);
    out[n] = 0;
    int st = pclose(p);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static void test_cli_text_names_kind_space_lines_and_exits_1(void **s)
{
    (void)s;
    char want[128];
    assert_int_equal(run_cli("--kernel waw_racy --grid 2 --block 64 --arg buf:i32[4]=fill:0 --check races"), 1);
    assert_non_null(strstr(out, "race check: 1 finding"));
    assert_non_null(strstr(out, "write-after-write on shared memory at 0x0"));
    snprintf(want, sizeof want, CU ":%d", marker_line("waw"));
    assert_non_null(strstr(out, want));
    assert_non_null(strstr(out, "first : write by block (0,0,0) thread"));
    assert_non_null(strstr(out, "second: write by block (0,0,0) thread"));
    assert_int_equal(run_cli("--kernel waw_ok --grid 2 --block 64 --arg buf:i32[4]=fill:0 --check races"), 0);
    assert_non_null(strstr(out, "race check: no hazards found"));
    /* without --check races the racy kernel runs clean */
    assert_int_equal(run_cli("--kernel waw_racy --grid 2 --block 64 --arg buf:i32[4]=fill:0"), 0);
    assert_null(strstr(out, "race check"));
}

static void test_cli_json_races_array_has_kind_space_line_file(void **s)
{
    (void)s;
    char want[128];
    assert_int_equal(run_cli("--kernel lost_shared_racy --grid 2 --block 64 --arg buf:i32[64]=fill:1 "
                             "--arg buf:i32[2]=fill:0 --check races --json"), 1);
    assert_true(out[0] == '{');
    assert_non_null(strstr(out, "\"races\": [{\"kind\": \"lost-update\", \"space\": \"shared\""));
    assert_non_null(strstr(out, "\"file\": \"" CU "\""));
    snprintf(want, sizeof want, "\"line\": %d, \"message\": ", marker_line("lost_shared"));
    assert_non_null(strstr(out, want));
    assert_non_null(strstr(out, "\"first\": {\"op\": \"write\""));
    assert_non_null(strstr(out, "\"second\": {\"op\": \"write\""));
    assert_int_equal(run_cli("--kernel lost_shared_ok --grid 2 --block 64 --arg buf:i32[64]=fill:1 "
                             "--arg buf:i32[2]=fill:0 --check races --json"), 0);
    assert_non_null(strstr(out, "\"races\": []"));
}

static void test_cli_barrier_divergence_and_deadlock(void **s)
{
    (void)s;
    assert_int_equal(run_cli("--kernel bar_div_racy --grid 1 --block 256 --arg buf:i32[128]=fill:0 "
                             "--check races --json"), 1);
    assert_non_null(strstr(out, "\"kind\": \"barrier-divergence\", \"space\": \"barrier\""));
    assert_non_null(strstr(out, "\"op\": \"exit\""));
    assert_int_equal(run_cli("--kernel deadlock_racy --grid 1 --block 64 --arg buf:i32[64]=fill:0 "
                             "--check races"), 1);
    assert_non_null(strstr(out, "kernel fault: deadlock"));
    assert_int_equal(run_cli("--kernel deadlock_ok --grid 1 --block 64 --arg buf:i32[64]=fill:0 "
                             "--check races"), 0);
    assert_int_equal(run_cli("--kernel spin_forever --grid 1 --block 32 --arg buf:i32[1]=fill:0 "
                             "--arg buf:i32[1]=fill:0 --budget 100000 --check races"), 1);
    assert_non_null(strstr(out, "kernel fault: budget-exceeded"));
}

static void test_cli_random_schedule_still_finds_the_scope_race(void **s)
{
    (void)s;
    for (int seed = 1; seed <= 3; seed++) {
        assert_int_equal(run_cli("--kernel scope_racy --grid 4 --block 32 --arg buf:i32[4]=fill:0 --check races "
                                 "--schedule random --atomic-order random --seed %d --json", seed), 1);
        assert_non_null(strstr(out, "\"kind\": \"atomic-scope\", \"space\": \"global\""));
    }
    assert_int_equal(run_cli("--kernel scope_ok --grid 4 --block 32 --arg buf:i32[4]=fill:0 --check races "
                             "--schedule adversarial --seed 2 --json"), 0);
    assert_non_null(strstr(out, "\"values\": [128, 0, 0, 0]"));
}

#define T(f) cmocka_unit_test_setup_teardown(f, harness_setup_sim, harness_teardown)

int main(void)
{
    const struct CMUnitTest tests[] = {
        T(test_raw_missing_syncwarp_in_reduction_is_read_after_write),
        T(test_raw_reduction_with_syncwarp_is_clean),
        T(test_war_shift_in_place_is_write_after_read),
        T(test_war_shift_with_barrier_is_clean),
        T(test_waw_every_thread_writes_s0),
        T(test_waw_one_writer_is_clean),
        T(test_global_blocks_writing_out0_race),
        T(test_global_out_b_per_block_is_clean),
        T(test_lost_update_in_shared),
        T(test_atomic_add_in_shared_is_clean),
        T(test_lost_update_in_global),
        T(test_atomic_add_in_global_is_clean),
        T(test_atomic_add_block_on_a_shared_counter_is_atomic_scope),
        T(test_atomic_add_and_per_block_counters_are_clean),
        T(test_cp_async_read_before_wait),
        T(test_cp_async_read_after_wait_and_barrier_is_clean),
        T(test_syncthreads_in_a_branch_is_barrier_divergence),
        T(test_syncthreads_unconditional_is_clean),
        T(test_syncthreads_in_loops_of_different_trips_meet_at_two_barriers),
        T(test_syncthreads_in_loops_of_equal_trips_is_clean),
        T(test_barrier_divergence_only_reported_when_checking),
        T(test_two_named_barriers_deadlock),
        T(test_one_named_barrier_for_both_warps_is_clean),
        T(test_warp_exchange_without_syncwarp_is_read_after_write),
        T(test_warp_exchange_with_syncwarp_is_clean),
        T(test_mbarrier_producer_consumer_is_clean_and_correct),
        T(test_mbarrier_read_before_wait_races),
        T(test_mbarrier_arrive_shared_cta_is_shared_memory),
        T(test_spin_on_a_flag_nobody_sets_ends_as_budget_exceeded),
        T(test_cli_text_names_kind_space_lines_and_exits_1),
        T(test_cli_json_races_array_has_kind_space_line_file),
        T(test_cli_barrier_divergence_and_deadlock),
        T(test_cli_random_schedule_still_finds_the_scope_race),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
