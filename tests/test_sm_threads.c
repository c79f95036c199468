/* test_sm_threads.c: one launch's SMs on several threads (sim/exec_par.c,
 * device_set_threads) give exactly what one thread gives -- every buffer,
 * every statistic, the fault and the atomic log -- both when the SMs run
 * side by side to the end (blocks that share nothing in global memory) and
 * when the launch has to run again on one thread (blocks meeting at an
 * atomic counter or in each other's words, a fault, the instruction
 * budget), and global memory written before running again is put back.
 * Also every lesson's launches through `warpsim run --threads`, untimed and
 * timed; and timed launches (the model's L2 answers deferred to the round's
 * end, sim/timing_defer.c) give every timing result of one thread. */
#include "harness.h"

#include "grade_fixture.h"

#define KERNELS "tests/kernels/sm_threads.ptx"

/* What one launch left: its buffers (their bytes, concatenated), stats,
 * fault, status and atomic log. */
typedef struct {
    uint8_t *bytes;
    size_t len;
    DeviceStats stats;
    DeviceFault fault;
    SimStatus st;
    int n_alog;
    DeviceAtomicLog alog[DEVICE_ATOMIC_LOG_ADDRS];
} Outcome;

/* A launch's buffers: initial contents, and which are arguments. */
typedef struct {
    const void *init[4];
    size_t bytes[4];
    int nbuf;
    int32_t ints[2];   /* scalar arguments after the buffers */
    int nints;
} Args;

/* a's buffers uploaded into p, then the launch's arguments: the buffers'
 * addresses and a's ints. */
static void up_args(const Args *a, DevicePtr p[4], void *args[6])
{
    int n = 0;
    for (int i = 0; i < a->nbuf; i++) {
        p[i] = up(a->init[i], a->bytes[i]);
        args[n++] = &p[i];
    }
    for (int i = 0; i < a->nints; i++)
        args[n++] = (void *)&a->ints[i];
}

/* a's buffers p read back into o->bytes, one after another, and freed. */
static void down_all(const Args *a, const DevicePtr p[4], Outcome *o)
{
    for (int i = 0; i < a->nbuf; i++)
        o->len += a->bytes[i];
    o->bytes = malloc(o->len ? o->len : 1);
    assert_non_null(o->bytes);
    size_t at = 0;
    for (int i = 0; i < a->nbuf; i++) {
        down(o->bytes + at, p[i], a->bytes[i]);
        at += a->bytes[i];
        device_free(dev, p[i], NULL);
    }
}

static Outcome launch_with(int threads, const char *kernel, unsigned grid, unsigned block, const Args *a,
                           uint64_t budget)
{
    Outcome o;
    memset(&o, 0, sizeof o);
    device_set_threads(dev, threads);
    DeviceModule *m = load_file(KERNELS);
    DevicePtr p[4];
    void *args[6];
    up_args(a, p, args);
    DeviceLaunch cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.grid = (DeviceDim3){grid, 1, 1};
    cfg.block = (DeviceDim3){block, 1, 1};
    cfg.inst_budget = budget;
    SimError err;
    o.st = device_launch(m, kernel, &cfg, args, &o.stats, &o.fault, &err);
    if (o.st != SIM_OK && o.st != SIM_ERR_FAULT)
        fail_msg("%s: %s", kernel, err.msg);
    down_all(a, p, &o);
    o.n_alog = device_atomic_log_count(dev);
    for (int i = 0; i < o.n_alog; i++)
        o.alog[i] = *device_atomic_log(dev, i);
    device_set_threads(dev, 1);
    return o;
}

/* Every field but the host's time and the thread count itself. */
static void stats_equal(const char *kernel, DeviceStats one, DeviceStats many)
{
    one.seconds = many.seconds = 0;
    one.sm_threads = many.sm_threads = 0;
    memset(one.sm_threads_note, 0, sizeof one.sm_threads_note);
    memset(many.sm_threads_note, 0, sizeof many.sm_threads_note);
    if (memcmp(&one, &many, sizeof one))
        fail_msg("%s: statistics differ: %llu/%llu warp insts, %llu/%llu blocks, %llu/%llu cycles", kernel,
                 (unsigned long long)one.warp_insts, (unsigned long long)many.warp_insts,
                 (unsigned long long)one.blocks, (unsigned long long)many.blocks,
                 (unsigned long long)one.cycles, (unsigned long long)many.cycles);
}

/* The launch with 1 thread and with `threads`: everything the same.
 * Returns the many-thread outcome's thread count and note in *used, note. */
static int same_as_one(const char *kernel, unsigned grid, unsigned block, const Args *a, uint64_t budget,
                       int threads, char *note, size_t cap)
{
    Outcome one = launch_with(1, kernel, grid, block, a, budget);
    Outcome many = launch_with(threads, kernel, grid, block, a, budget);
    assert_int_equal(one.st, many.st);
    assert_int_equal(one.len, many.len);
    if (memcmp(one.bytes, many.bytes, one.len)) {
        size_t k = 0;
        while (one.bytes[k] == many.bytes[k])
            k++;
        fail_msg("%s on %d threads: buffers differ from one thread's at byte %zu", kernel, threads, k);
    }
    stats_equal(kernel, one.stats, many.stats);
    if (memcmp(&one.fault, &many.fault, sizeof one.fault))
        fail_msg("%s: faults differ: '%s: %s' against '%s: %s'", kernel, one.fault.kind, one.fault.msg,
                 many.fault.kind, many.fault.msg);
    assert_int_equal(one.n_alog, many.n_alog);
    if (memcmp(one.alog, many.alog, (size_t)one.n_alog * sizeof one.alog[0]))
        fail_msg("%s: the atomic logs differ", kernel);
    assert_int_equal(one.stats.sm_threads, 1);
    assert_string_equal(one.stats.sm_threads_note, "");
    snprintf(note, cap, "%s", many.stats.sm_threads_note);
    int used = many.stats.sm_threads;
    free(one.bytes);
    free(many.bytes);
    return used;
}

static float *floats(int n, unsigned seed)
{
    float *v = malloc((size_t)n * sizeof *v);
    assert_non_null(v);
    for (int i = 0; i < n; i++) {
        seed = seed * 1664525u + 1013904223u;
        v[i] = (float)(seed >> 8) / 16777216.0f - 0.5f;
    }
    return v;
}

static void test_blocks_that_share_nothing_run_on_every_thread(void **s)
{
    (void)s;
    enum { N = 600 * 256 - 77 };
    float *in = floats(N, 3);
    Args a = {.init = {in, NULL, NULL}, .bytes = {N * 4, N * 4, 600 * 4}, .nbuf = 3, .ints = {N}, .nints = 1};
    char note[160];
    for (int t = 2; t <= 5; t += 3) {
        assert_int_equal(same_as_one("scale_parts", 600, 256, &a, 0, t, note, sizeof note), t);
        assert_string_equal(note, "");
    }
    free(in);
}

static void test_shared_memory_atomics_keep_the_serial_atomic_log(void **s)
{
    (void)s;
    enum { N = 300 * 128 };
    unsigned *in = malloc(N * sizeof *in);
    assert_non_null(in);
    for (int i = 0; i < N; i++)
        in[i] = (unsigned)i * 2654435761u >> 7;
    Args a = {.init = {in, NULL}, .bytes = {N * 4, 300 * 16 * 4}, .nbuf = 2, .ints = {N}, .nints = 1};
    char note[160];
    assert_int_equal(same_as_one("block_hist", 300, 128, &a, 0, 3, note, sizeof note), 3);
    Outcome o = launch_with(3, "block_hist", 300, 128, &a, 0);
    assert_true(o.n_alog > 0); /* the log the comparison covered has entries */
    assert_string_equal(o.alog[0].space, "shared");
    free(o.bytes);
    free(in);
}

/* kernel(float *x, int n, unsigned *counter) on 1 thread and on 4, timed
 * or not: x doubled once, the counter's value and the statistics (timing
 * included) the same; the 4-thread launch's note in note. */
static void doubled_once(const char *kernel, bool timing, char *note, size_t cap)
{
    enum { N = 500 * 256 };
    float *x = floats(N, 9);
    DeviceModule *m = load_file(KERNELS);
    int n = N;
    float *got[2];
    unsigned counter[2];
    DeviceStats st[2];
    for (int k = 0; k < 2; k++) {
        device_set_threads(dev, k ? 4 : 1);
        DevicePtr px = up(x, N * 4), pc = up(NULL, 4);
        unsigned zero = 0;
        SimError err;
        device_memcpy_htod(dev, pc, &zero, 4, &err);
        void *args[] = {&px, &n, &pc};
        DeviceLaunch cfg;
        memset(&cfg, 0, sizeof cfg);
        cfg.grid = (DeviceDim3){500, 1, 1};
        cfg.block = (DeviceDim3){256, 1, 1};
        cfg.timing = timing;
        DeviceFault f;
        assert_int_equal(device_launch(m, kernel, &cfg, args, &st[k], &f, &err), SIM_OK);
        got[k] = malloc(N * 4);
        assert_non_null(got[k]);
        down(got[k], px, N * 4);
        down(&counter[k], pc, 4);
        device_free(dev, px, &err);
        device_free(dev, pc, &err);
    }
    device_set_threads(dev, 1);
    for (int i = 0; i < N; i++)
        if (got[1][i] != x[i] * 2.0f) /* doubled once, not twice */
            fail_msg("%s: x[%d] = %g on 4 threads, want %g", kernel, i, got[1][i], x[i] * 2.0f);
    assert_memory_equal(got[0], got[1], N * 4);
    assert_int_equal(counter[0], counter[1]);
    stats_equal(kernel, st[0], st[1]);
    assert_int_equal(st[1].timing.on, timing);
    assert_int_equal(st[1].sm_threads, 1);
    snprintf(note, cap, "%s", st[1].sm_threads_note);
    free(got[0]);
    free(got[1]);
    free(x);
}

static void test_a_shared_counter_runs_again_on_one_thread_and_memory_is_put_back(void **s)
{
    (void)s;
    char note[160];
    doubled_once("double_and_tally", false, note, sizeof note);
    assert_non_null(strstr(note, "tried on 4 threads"));
    assert_non_null(strstr(note, "same bytes of global memory"));
}

static void test_a_kernel_with_global_atomics_stays_on_one_thread_without_trying(void **s)
{
    (void)s;
    char note[160];
    doubled_once("double_and_count", false, note, sizeof note);
    assert_string_equal(note, "atomics on global memory");
}

static void test_blocks_reading_each_others_words_give_the_serial_chain(void **s)
{
    (void)s;
    enum { B = 400 };
    int *a0 = calloc(B + 1, sizeof *a0);
    assert_non_null(a0);
    Args a = {.init = {a0}, .bytes = {(B + 1) * 4}, .nbuf = 1};
    char note[160];
    assert_int_equal(same_as_one("chain", B, 32, &a, 0, 4, note, sizeof note), 1);
    assert_non_null(strstr(note, "same bytes"));
    free(a0);
}

static void test_blocks_gathering_each_others_words_give_the_serial_chain(void **s)
{
    (void)s;
    enum { B = 400 };
    int *a0 = calloc((B + 1) * 32, sizeof *a0);
    assert_non_null(a0);
    for (int i = 0; i < 32; i++)
        a0[i] = i * 3;
    Args a = {.init = {a0}, .bytes = {(B + 1) * 32 * 4}, .nbuf = 1};
    char note[160];
    assert_int_equal(same_as_one("gather_chain", B, 32, &a, 0, 4, note, sizeof note), 1);
    assert_non_null(strstr(note, "same bytes"));
    free(a0);
}

static void test_a_fault_is_the_serial_fault(void **s)
{
    (void)s;
    enum { N = 700 * 128 };
    Args a = {.init = {NULL}, .bytes = {N * 4}, .nbuf = 1, .ints = {N}, .nints = 1};
    char note[160];
    assert_int_equal(same_as_one("late_oob", 700, 128, &a, 0, 3, note, sizeof note), 1);
    assert_non_null(strstr(note, "a fault: out-of-bounds"));
    Outcome o = launch_with(3, "late_oob", 700, 128, &a, 0);
    assert_int_equal(o.st, SIM_ERR_FAULT);
    assert_string_equal(o.fault.kind, "out-of-bounds");
    free(o.bytes);
}

static void test_the_budget_stops_where_one_thread_stops(void **s)
{
    (void)s;
    Args a = {.init = {NULL}, .bytes = {4}, .nbuf = 1};
    char note[160];
    assert_int_equal(same_as_one("forever", 264, 64, &a, 200000, 2, note, sizeof note), 1);
    assert_non_null(strstr(note, "budget-exceeded"));
    Outcome o = launch_with(2, "forever", 264, 64, &a, 200000);
    assert_string_equal(o.fault.kind, "budget-exceeded");
    free(o.bytes);
}

static void test_what_shares_more_than_memory_stays_on_one_thread(void **s)
{
    (void)s;
    /* a random schedule draws from one generator for every SM: one thread,
     * without trying */
    enum { N = 300 * 256 };
    float *in = floats(N, 5);
    DeviceModule *m = load_file(KERNELS);
    DevicePtr pi = up(in, N * 4), po = up(NULL, N * 4), pp = up(NULL, 300 * 4);
    int n = N;
    void *args[] = {&pi, &po, &pp, &n};
    DeviceLaunch cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.grid = (DeviceDim3){300, 1, 1};
    cfg.block = (DeviceDim3){256, 1, 1};
    cfg.schedule = DEVICE_SCHED_RANDOM;
    DeviceStats st;
    DeviceFault f;
    SimError err;
    device_set_threads(dev, 4);
    assert_int_equal(device_launch(m, "scale_parts", &cfg, args, &st, &f, &err), SIM_OK);
    assert_int_equal(st.sm_threads, 1);
    assert_non_null(strstr(st.sm_threads_note, "random"));
    cfg.schedule = DEVICE_SCHED_ROUNDROBIN;
    assert_int_equal(device_launch(m, "scale_parts", &cfg, args, &st, &f, &err), SIM_OK);
    assert_int_equal(st.sm_threads, 4);
    device_set_threads(dev, 1);
    assert_int_equal(device_threads(dev), 1);
    device_set_threads(dev, -3);
    assert_int_equal(device_threads(dev), 1);
    free(in);
}

/* Blocks on different threads write bytes of the same words and pages:
 * notes are exact to the byte (no conflict), and the page each round
 * saves before its first write is saved once, by whichever thread comes
 * first, before any of them writes it. */
static void test_blocks_sharing_words_but_not_bytes_run_on_every_thread(void **s)
{
    (void)s;
    enum { G = 3000 };
    Args a = {.init = {NULL}, .bytes = {G}, .nbuf = 1};
    char note[160];
    assert_int_equal(same_as_one("byte_per_block", G, 256, &a, 0, 4, note, sizeof note), 4);
    assert_string_equal(note, "");
    Outcome o = launch_with(4, "byte_per_block", G, 256, &a, 0);
    for (int b = 0; b < G; b++)
        assert_int_equal(o.bytes[b], (uint8_t)(b * 7 + 1));
    free(o.bytes);
}

/* Pages read and then written in rounds that passed are kept for the
 * launch: a fault in a later round puts them back, and x is doubled once
 * (same_as_one), not twice. */
static void test_pages_read_then_written_go_back_after_rounds_that_passed(void **s)
{
    (void)s;
    enum { G = 4000, B = 128, N = G * B };
    float *x = floats(N, 11);
    Args a = {.init = {x}, .bytes = {N * 4}, .nbuf = 1, .ints = {N}, .nints = 1};
    char note[160];
    assert_int_equal(same_as_one("double_then_oob", G, B, &a, 0, 3, note, sizeof note), 1);
    assert_non_null(strstr(note, "a fault: out-of-bounds"));
    assert_null(strstr(note, "after round 1:")); /* rounds passed before it */
    free(x);
}

/* A first round whose notes of memory cost more than its simulation
 * (every warp's store is 32 words 4 KB apart) stops early, and the launch
 * runs again on one thread. */
static void test_a_first_round_too_costly_to_keep_track_of_runs_again_on_one_thread(void **s)
{
    (void)s;
    enum { N = 1024 * 128 };
    float *in = floats(N, 13);
    Args a = {.init = {in}, .bytes = {N * 4, N * 4, 4}, .nbuf = 3, .ints = {0}, .nints = 1};
    char note[160];
    assert_int_equal(same_as_one("compute_then_transpose", N / 256, 256, &a, 0, 2, note, sizeof note), 1);
    assert_string_equal(note, "tried on 2 threads, ran again on one after round 1: keeping track of its global "
                              "memory cost more than simulating it");
    free(in);
}

/* The same stores after a first wave that computes: the rounds that were
 * cheap to keep track of stand, and the launch goes on on one thread from
 * the first that was not. */
static void test_a_later_round_too_costly_to_keep_track_of_goes_on_on_one_thread(void **s)
{
    (void)s;
    enum { N = 1024 * 128, FIRST = 132 * 8 };
    float *in = floats(N, 17);
    Args a = {.init = {in}, .bytes = {N * 4, N * 4, FIRST * 4}, .nbuf = 3, .ints = {FIRST}, .nints = 1};
    char note[160];
    assert_int_equal(same_as_one("compute_then_transpose", FIRST + N / 256, 256, &a, 0, 2, note, sizeof note), 2);
    unsigned long long first = 0, all = 0;
    if (sscanf(note, "its first %llu of %llu rounds; the rest on one: keeping track", &first, &all) != 2)
        fail_msg("note: %s", note);
    assert_true(first >= 1 && first < all);
    free(in);
}

/* ---- timed launches (sim/timing_defer.c) ------------------------------------------- */

/* A timed launch: its kernel and shape, and its buffers in a. */
typedef struct {
    const char *ptx, *kernel;
    DeviceDim3 grid, block;
    unsigned smem;
    int carveout;              /* -1: the default */
    Args a;
    bool part;                 /* may go on on one thread after rounds on several */
} Timed;

/* t on `threads` threads, its L2 answers deferred (defer) or at once, in
 * module m (loaded once: its variables' addresses are in the timing). */
static Outcome timed_with(DeviceModule *m, int threads, const Timed *t, bool defer)
{
    Outcome o;
    memset(&o, 0, sizeof o);
    if (defer)
        unsetenv("WARPSIM_TIMING_DEFER");
    else
        setenv("WARPSIM_TIMING_DEFER", "0", 1);
    device_set_threads(dev, threads);
    SimError err;
    if (t->carveout >= 0)
        assert_int_equal(device_set_attr(m, t->kernel, DEVICE_ATTR_PREFERRED_CARVEOUT, t->carveout, &err), SIM_OK);
    const Args *a = &t->a;
    DevicePtr p[4];
    void *args[6];
    up_args(a, p, args);
    DeviceLaunch cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.grid = t->grid;
    cfg.block = t->block;
    cfg.smem = t->smem;
    cfg.timing = true;
    o.st = device_launch(m, t->kernel, &cfg, args, &o.stats, &o.fault, &err);
    if (o.st != SIM_OK)
        fail_msg("%s: %s %s", t->kernel, err.msg, o.fault.msg);
    down_all(a, p, &o);
    device_set_threads(dev, 1);
    unsetenv("WARPSIM_TIMING_DEFER");
    return o;
}

/* Memory-bound launches of the timing suite (tests/timing/) and of this
 * file's kernels: L2 misses and DRAM bandwidth shared by every SM
 * (stream_sum, stride_load), L1 hits (l1_gather at carveout 0), stores
 * (transpose_naive, scale_parts), cp.async (pipe_async2); each reads its
 * parameters through the constant cache.  On 1, 2, 3 and 8 threads, and
 * with the model answering at once on one: the same buffers, statistics
 * and DeviceTiming, every field; and the SMs really ran on the threads. */
static void test_timed_launches_are_the_same_on_1_2_3_and_8_threads(void **s)
{
    (void)s;
    enum { N = 300 * 256 - 77 };
    float *in = floats(N, 11);
    const Timed t[] = {
        {"tests/timing/memory.ptx", "stream_sum", {264, 1, 1}, {256, 1, 1}, 28160, -1,
         {.bytes = {4}, .nbuf = 1}, false},
        {"tests/timing/memory.ptx", "stride_load", {264, 1, 1}, {256, 1, 1}, 0, -1,
         {.bytes = {4}, .nbuf = 1, .ints = {32}, .nints = 1}, true},
        {"tests/timing/memory.ptx", "l1_gather", {132, 1, 1}, {256, 1, 1}, 0, 0,
         {.bytes = {4}, .nbuf = 1, .ints = {16}, .nints = 1}, false},
        {"tests/timing/smem.ptx", "transpose_naive", {16, 16, 1}, {32, 8, 1}, 0, -1, {.ints = {512}, .nints = 1},
         true},
        {"tests/timing/async.ptx", "pipe_async2", {132, 1, 1}, {256, 1, 1}, 0, -1,
         {.bytes = {4}, .nbuf = 1, .ints = {8, 4}, .nints = 2}, false},
        {KERNELS, "scale_parts", {300, 1, 1}, {256, 1, 1}, 0, -1,
         {.init = {in, NULL, NULL}, .bytes = {N * 4, N * 4, 300 * 4}, .nbuf = 3, .ints = {N}, .nints = 1}, false},
    };
    static const int threads[] = {2, 3, 8};
    for (size_t k = 0; k < sizeof t / sizeof t[0]; k++) {
        DeviceModule *m = load_file(t[k].ptx);
        Outcome ref = timed_with(m, 1, &t[k], false), one = timed_with(m, 1, &t[k], true);
        assert_true(one.stats.timing.on);
        assert_true(one.stats.timing.dram_read_bytes > 0 && one.stats.timing.l2_sectors > 0);
        assert_int_equal(one.stats.sm_threads, 1);
        stats_equal(t[k].kernel, ref.stats, one.stats); /* deferring changes nothing */
        assert_memory_equal(ref.bytes, one.bytes, one.len);
        for (size_t i = 0; i < sizeof threads / sizeof threads[0]; i++) {
            Outcome many = timed_with(m, threads[i], &t[k], true);
            if (memcmp(one.bytes, many.bytes, one.len))
                fail_msg("%s on %d threads: buffers differ from one thread's", t[k].kernel, threads[i]);
            if (memcmp(&one.stats.timing, &many.stats.timing, sizeof one.stats.timing))
                fail_msg("%s on %d threads: DeviceTiming differs: %.6f against %.6f occupancy, %llu against %llu "
                         "long_scoreboard", t[k].kernel, threads[i], one.stats.timing.achieved_occupancy,
                         many.stats.timing.achieved_occupancy,
                         (unsigned long long)one.stats.timing.stall[DEVICE_STALL_LONG_SCOREBOARD],
                         (unsigned long long)many.stats.timing.stall[DEVICE_STALL_LONG_SCOREBOARD]);
            stats_equal(t[k].kernel, one.stats, many.stats);
            /* (scattered stores cost their notes: such a launch may go on on one
             * thread after its first rounds, exec_par.c) */
            bool part = many.stats.sm_threads_note[0] && !strncmp(many.stats.sm_threads_note, "its first", 9);
            if (many.stats.sm_threads != threads[i] || (many.stats.sm_threads_note[0] && !(t[k].part && part)))
                fail_msg("%s on %d threads ran on %d: %s", t[k].kernel, threads[i], many.stats.sm_threads,
                         many.stats.sm_threads_note);
            free(many.bytes);
        }
        free(ref.bytes);
        free(one.bytes);
    }
    free(in);
}

/* A timed launch whose model cannot defer (global atomics pace an SM
 * inside its slice; or switched off) stays on one thread, saying why. */
static void test_a_timed_launch_that_cannot_defer_stays_on_one_thread(void **s)
{
    (void)s;
    const Timed bins = {"tests/timing/atomics.ptx", "atomic_bins", {132, 1, 1}, {256, 1, 1}, 0, -1,
                        {.bytes = {4}, .nbuf = 1, .ints = {4096, 0}, .nints = 2}, false};
    Outcome o = timed_with(load_file(bins.ptx), 4, &bins, true);
    assert_int_equal(o.stats.sm_threads, 1);
    assert_non_null(strstr(o.stats.sm_threads_note, "deferred L2 answers"));
    free(o.bytes);
    const Timed sum = {"tests/timing/memory.ptx", "stream_sum", {132, 1, 1}, {256, 1, 1}, 0, -1,
                       {.bytes = {4}, .nbuf = 1}, false};
    o = timed_with(load_file(sum.ptx), 4, &sum, false);
    assert_int_equal(o.stats.sm_threads, 1);
    assert_non_null(strstr(o.stats.sm_threads_note, "deferred L2 answers"));
    free(o.bytes);
}

/* A counter every block adds to without an atomic, timed: the attempt on
 * threads is abandoned and the launch runs again on one, the timing model
 * afresh -- buffers and every timing result the serial run's. */
static void test_a_timed_launch_run_again_on_one_thread_times_as_one(void **s)
{
    (void)s;
    char note[160];
    doubled_once("double_and_tally", true, note, sizeof note);
    if (!strstr(note, "ran again on one"))
        fail_msg("double_and_tally timed on 4 threads: '%s'", note);
}

/* Every launch of every lesson's xcheck.txt through `warpsim run --json
 * opts`, with --threads 1 (env before the command) and 3: the same bytes,
 * seconds aside. */
static void every_lesson_launch_alike(const char *env, const char *opts)
{
    int rc = sh(false,
                "n=0; bad=0; for f in lessons/[0-9]*/xcheck.txt; do d=$(dirname $f); "
                "grep -v '^[[:space:]]*#' $f | grep -e '--kernel' | sed 's/^.*--kernel/--kernel/' > build/tests/smt_lines.txt; "
                "while IFS= read -r line; do n=$((n+1)); "
                "eval \"%s %s run $d/kernel.ptx $line %s --json --quiet --threads 1\" 2>&1 | sed 's/\"seconds\": [0-9.e+-]*//' > build/tests/smt1.txt; "
                "eval \"%s run $d/kernel.ptx $line %s --json --quiet --threads 3\" 2>&1 | sed 's/\"seconds\": [0-9.e+-]*//' > build/tests/smt3.txt; "
                "cmp -s build/tests/smt1.txt build/tests/smt3.txt || { bad=$((bad+1)); echo \"differs: $d $line\"; }; "
                "done < build/tests/smt_lines.txt; done; echo \"$n launches, $bad differ\"; [ $bad = 0 ] && [ $n -gt 100 ]",
                env, warpsim(), opts, warpsim(), opts);
    if (rc)
        fail_msg("%s", out);
}

static void test_every_lesson_launch_is_the_same_on_three_threads(void **s)
{
    (void)s;
    every_lesson_launch_alike("", "");
}

/* The same launches with --timing: on 3 threads, every number the model
 * answering at once gives on one (WARPSIM_TIMING_DEFER=0). */
static void test_every_lesson_launch_times_the_same_on_three_threads(void **s)
{
    (void)s;
    every_lesson_launch_alike("WARPSIM_TIMING_DEFER=0", "--timing");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_blocks_that_share_nothing_run_on_every_thread, harness_setup_sim,
                                        harness_teardown),
        cmocka_unit_test_setup_teardown(test_shared_memory_atomics_keep_the_serial_atomic_log, harness_setup_sim,
                                        harness_teardown),
        cmocka_unit_test_setup_teardown(test_a_shared_counter_runs_again_on_one_thread_and_memory_is_put_back,
                                        harness_setup_sim, harness_teardown),
        cmocka_unit_test_setup_teardown(test_a_kernel_with_global_atomics_stays_on_one_thread_without_trying,
                                        harness_setup_sim, harness_teardown),
        cmocka_unit_test_setup_teardown(test_blocks_reading_each_others_words_give_the_serial_chain,
                                        harness_setup_sim, harness_teardown),
        cmocka_unit_test_setup_teardown(test_blocks_gathering_each_others_words_give_the_serial_chain,
                                        harness_setup_sim, harness_teardown),
        cmocka_unit_test_setup_teardown(test_a_fault_is_the_serial_fault, harness_setup_sim, harness_teardown),
        cmocka_unit_test_setup_teardown(test_the_budget_stops_where_one_thread_stops, harness_setup_sim,
                                        harness_teardown),
        cmocka_unit_test_setup_teardown(test_what_shares_more_than_memory_stays_on_one_thread, harness_setup_sim,
                                        harness_teardown),
        cmocka_unit_test_setup_teardown(test_blocks_sharing_words_but_not_bytes_run_on_every_thread,
                                        harness_setup_sim, harness_teardown),
        cmocka_unit_test_setup_teardown(test_pages_read_then_written_go_back_after_rounds_that_passed,
                                        harness_setup_sim, harness_teardown),
        cmocka_unit_test_setup_teardown(test_a_first_round_too_costly_to_keep_track_of_runs_again_on_one_thread,
                                        harness_setup_sim, harness_teardown),
        cmocka_unit_test_setup_teardown(test_a_later_round_too_costly_to_keep_track_of_goes_on_on_one_thread,
                                        harness_setup_sim, harness_teardown),
        cmocka_unit_test_setup_teardown(test_timed_launches_are_the_same_on_1_2_3_and_8_threads, harness_setup_sim,
                                        harness_teardown),
        cmocka_unit_test_setup_teardown(test_a_timed_launch_that_cannot_defer_stays_on_one_thread,
                                        harness_setup_sim, harness_teardown),
        cmocka_unit_test_setup_teardown(test_a_timed_launch_run_again_on_one_thread_times_as_one,
                                        harness_setup_sim, harness_teardown),
        cmocka_unit_test(test_every_lesson_launch_is_the_same_on_three_threads),
        cmocka_unit_test(test_every_lesson_launch_times_the_same_on_three_threads),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
