/* test_trace_state.c: warp states in timed traces (format v3, record 0x0d,
 * traces/FORMAT.md).  The writer and reader round trip state records; a
 * file without the states flag may not hold them; every truncation and
 * corrupted byte of a v3 file is a parse error; a timed launch of lesson
 * 07's gather traced at level warps sums, state by state, to the timing
 * model's own stall counts, mostly long_scoreboard; untimed traces stay
 * version 2 with no state record.  Run from the repository root. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "harness.h"
#include "trace.h"

static char *tmp_path(const char *name)
{
    static char buf[4][256];
    static int k;
    char *p = buf[k++ % 4];
    snprintf(p, 256, "/tmp/warpsim_test_tstate_%d_%s", (int)getpid(), name);
    return p;
}

static uint8_t *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        fail_msg("cannot open %s", path);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *b = malloc((size_t)n + 1);
    assert_non_null(b);
    assert_int_equal(fread(b, 1, (size_t)n, f), (size_t)n);
    fclose(f);
    *len = (size_t)n;
    return b;
}

static const char *const strings[] = {"k", "sm_90"};

/* A small v3 trace: two warps' state records around a block's life. */
static void write_states(const char *path, uint8_t flags)
{
    TraceLaunch l = {.level = TRACE_LEVEL_WARPS, .flags = flags, .arch = 1, .kernel = 0, .grid = {2, 1, 1},
                     .block = {64, 1, 1}, .regs = TRACE_NONE, .sm_count = 2, .warp_size = 32};
    SimError err;
    TraceWriter *t = trace_writer_open(path, &l, strings, 2, &err);
    assert_non_null(t);
    TraceEvent ev = {.type = TRACE_EV_BLOCK_DISPATCH, .cycle = 0, .block = 1};
    trace_write_event(t, &ev);
    ev = (TraceEvent){.type = TRACE_EV_WARP_STATE, .cycle = 700, .block = 1};
    ev.u.states.warp = 1;
    ev.u.states.n = 4;
    const uint8_t st[] = {TRACE_STATE_DISPATCH, TRACE_STATE_SELECTED, TRACE_STATE_LONG_SCOREBOARD,
                          TRACE_STATE_SELECTED};
    const uint32_t cy[] = {6, 1, 600, 3};
    memcpy(ev.u.states.state, st, sizeof st);
    memcpy(ev.u.states.cycles, cy, sizeof cy);
    trace_write_event(t, &ev);
    ev = (TraceEvent){.type = TRACE_EV_WARP_STATE, .cycle = 900, .block = 1};
    ev.u.states.warp = 0;
    ev.u.states.n = TRACE_STATES_MAX;
    for (int i = 0; i < TRACE_STATES_MAX; i++) {
        ev.u.states.state[i] = (uint8_t)(i % TRACE_STATE_COUNT);
        ev.u.states.cycles[i] = (uint32_t)(i + 1);
    }
    trace_write_event(t, &ev);
    assert_int_equal(trace_writer_close(t, 0, &err), SIM_OK);
}

static void test_trace_state_records_round_trip_in_a_v3_file(void **s)
{
    (void)s;
    const char *path = tmp_path("rt.wst");
    write_states(path, TRACE_FLAG_STATES);
    SimError err;
    TraceReader *r = trace_open_file(path, &err);
    if (!r)
        fail_msg("%s", err.msg);
    assert_int_equal(trace_version(r), 3);
    assert_int_equal(trace_launch(r)->flags, TRACE_FLAG_STATES);
    TraceEvent e;
    assert_true(trace_next(r, &e));
    assert_int_equal(e.type, TRACE_EV_BLOCK_DISPATCH);
    assert_true(trace_next(r, &e));
    assert_int_equal(e.type, TRACE_EV_WARP_STATE);
    assert_int_equal(e.cycle, 700);
    assert_int_equal(e.block, 1);
    assert_int_equal(e.u.states.warp, 1);
    assert_int_equal(e.u.states.n, 4);
    assert_int_equal(e.u.states.state[2], TRACE_STATE_LONG_SCOREBOARD);
    assert_int_equal(e.u.states.cycles[2], 600);
    assert_int_equal(e.u.states.cycles[3], 3);
    assert_true(trace_next(r, &e));
    assert_int_equal(e.u.states.n, TRACE_STATES_MAX);
    for (int i = 0; i < TRACE_STATES_MAX; i++) {
        assert_int_equal(e.u.states.state[i], i % TRACE_STATE_COUNT);
        assert_int_equal(e.u.states.cycles[i], i + 1);
    }
    assert_false(trace_next(r, &e));
    /* the dump names the states and sums them */
    char *buf = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&buf, &n);
    trace_dump_text(f, r);
    fclose(f);
    assert_non_null(strstr(buf, "warpsim trace v3: k on sm_90, level warps, warp states (modelled cycles)"));
    assert_non_null(strstr(buf, "state       w1 cycles 91..700: dispatch_stall 6, selected 1, long_scoreboard 600, "
                                "selected 3"));
    assert_non_null(strstr(buf, "warp states: 1138 warp-cycles"));
    assert_non_null(strstr(buf, "  long_scoreboard                 642   56.4%"));
    free(buf);
    trace_close(r);
    unlink(path);
}

static void test_trace_state_records_need_the_header_flag(void **s)
{
    (void)s;
    const char *path = tmp_path("noflag.wst");
    /* a writer opened without the flag drops them: a v2 file */
    write_states(path, 0);
    SimError err;
    TraceReader *r = trace_open_file(path, &err);
    assert_non_null(r);
    assert_int_equal(trace_version(r), 2);
    assert_int_equal(trace_nevents(r), 1);
    trace_close(r);
    /* a v3 file whose flag is cleared: its state records are refused */
    write_states(path, TRACE_FLAG_STATES);
    size_t n;
    uint8_t *d = slurp(path, &n);
    d[11] = 0;
    assert_null(trace_open_mem("t.wst", d, n, TRACE_READ_NO_CRC, &err));
    assert_int_equal(err.status, SIM_ERR_PARSE);
    assert_non_null(strstr(err.msg, "states flag"));
    /* flags in a v2 file, and unknown flag bits, are refused */
    d[11] = 1;
    d[8] = 2;
    assert_null(trace_open_mem("t.wst", d, n, TRACE_READ_NO_CRC, &err));
    assert_string_equal(err.msg, "byte 11: reserved flags byte is 1, not 0 (version 2)");
    d[8] = 3;
    d[11] = 3;
    assert_null(trace_open_mem("t.wst", d, n, TRACE_READ_NO_CRC, &err));
    assert_string_equal(err.msg, "byte 11: flags byte 0x03 sets bits this warpsim does not know");
    free(d);
    unlink(path);
}

static void test_trace_state_every_truncation_and_corruption_is_a_parse_error(void **s)
{
    (void)s;
    const char *path = tmp_path("bad.wst");
    write_states(path, TRACE_FLAG_STATES);
    size_t n;
    uint8_t *d = slurp(path, &n);
    uint8_t *c = malloc(n);
    assert_non_null(c);
    SimError err;
    for (size_t k = 0; k < n; k++) {
        TraceReader *r = trace_open_mem("t.wst", d, k, 0, &err);
        if (r)
            fail_msg("first %zu of %zu bytes: accepted", k, n);
        assert_int_equal(err.status, SIM_ERR_PARSE);
        assert_int_equal(strncmp(err.msg, "byte ", 5), 0);
        for (int bit = 0; bit < 8; bit += 3) {
            memcpy(c, d, n);
            c[k] ^= (uint8_t)(1u << bit);
            r = trace_open_mem("t.wst", c, n, 0, &err);
            if (r)
                fail_msg("bit %d of byte %zu flipped: accepted", bit, k);
            trace_close(trace_open_mem("t.wst", c, n, TRACE_READ_NO_CRC, &err)); /* never crashes */
        }
    }
    free(c);
    free(d);
    unlink(path);
}

#define LESSON7 "lessons/07-caches-carveout/kernel.ptx"

/* Lesson 07's gather, grid blocks of 256, iters random reads a thread,
 * timed or not, traced to path at level. */
static void run_gather(unsigned grid, int iters, bool timing, const char *path, int level, DeviceStats *st)
{
    SimError err;
    DeviceModule *m = load_file(LESSON7);
    DevicePtr out = dalloc(4);
    void *args[] = {&out, &iters};
    DeviceLaunch cfg = {.grid = {grid, 1, 1}, .block = {256, 1, 1}, .timing = timing, .trace_path = path,
                        .trace_level = level};
    const char *entry = device_find_kernel(m, "l1_gather", &err);
    assert_non_null(entry);
    if (device_launch(m, entry, &cfg, args, st, NULL, &err))
        fail_msg("launch: %s", err.msg);
    device_free(dev, out, &err);
}

static void test_trace_state_timed_launch_sums_to_the_models_stalls(void **s)
{
    (void)s;
    const char *path = tmp_path("timed.wst");
    DeviceStats st;
    run_gather(4, 16, true, path, TRACE_LEVEL_WARPS, &st);
    assert_true(st.timing.on);
    SimError err;
    TraceReader *r = trace_open_file(path, &err);
    if (!r)
        fail_msg("%s", err.msg);
    assert_int_equal(trace_version(r), 3);
    uint64_t sum[TRACE_STATE_COUNT] = {0}, all = 0, records = 0;
    uint64_t last_end[4][8];
    memset(last_end, 0xff, sizeof last_end);
    TraceEvent e;
    while (trace_next(r, &e)) {
        if (e.type != TRACE_EV_WARP_STATE)
            continue;
        records++;
        uint64_t total = 0;
        for (uint32_t i = 0; i < e.u.states.n; i++) {
            sum[e.u.states.state[i]] += e.u.states.cycles[i];
            total += e.u.states.cycles[i];
            if (i) /* coalesced: neighbours differ */
                assert_int_not_equal(e.u.states.state[i], e.u.states.state[i - 1]);
        }
        all += total;
        /* a warp's records follow one another without gaps or overlaps */
        uint64_t *le = &last_end[e.block][e.u.states.warp];
        if (*le != UINT64_MAX)
            assert_int_equal(e.cycle + 1 - total, *le + 1);
        *le = e.cycle;
    }
    assert_true(records > 32); /* 32 warps, several records each */
    for (int k = 0; k < TRACE_STATE_COUNT; k++)
        if (sum[k] != st.timing.stall[k])
            fail_msg("%s: trace %llu, model %llu", trace_state_name(k), (unsigned long long)sum[k],
                     (unsigned long long)st.timing.stall[k]);
    assert_true(sum[TRACE_STATE_LONG_SCOREBOARD] * 2 > all); /* the gather waits for memory */
    assert_true(sum[TRACE_STATE_SELECTED] > 0);
    trace_close(r);
    unlink(path);
}

static void test_trace_state_untimed_and_blocks_level_traces_stay_v2(void **s)
{
    (void)s;
    const char *path = tmp_path("untimed.wst");
    DeviceStats st;
    const int levels[] = {TRACE_LEVEL_BLOCKS, TRACE_LEVEL_WARPS, TRACE_LEVEL_MEMORY};
    for (int t = 0; t < 2; t++)
        for (int i = 0; i < 3; i++) {
            if (t && levels[i] != TRACE_LEVEL_BLOCKS)
                continue; /* timed: only the blocks level leaves the states out */
            run_gather(2, 2, t, path, levels[i], &st);
            size_t n;
            uint8_t *d = slurp(path, &n);
            assert_int_equal(d[8], 2); /* version 2, flags 0: the bytes of before v3 */
            assert_int_equal(d[11], 0);
            free(d);
            SimError err;
            TraceReader *r = trace_open_file(path, &err);
            assert_non_null(r);
            TraceEvent e;
            while (trace_next(r, &e))
                assert_int_not_equal(e.type, TRACE_EV_WARP_STATE);
            trace_close(r);
        }
    unlink(path);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
#define T(f) cmocka_unit_test(f)
        T(test_trace_state_records_round_trip_in_a_v3_file),
        T(test_trace_state_records_need_the_header_flag),
        T(test_trace_state_every_truncation_and_corruption_is_a_parse_error),
        T(test_trace_state_timed_launch_sums_to_the_models_stalls),
        T(test_trace_state_untimed_and_blocks_level_traces_stay_v2),
#undef T
    };
    return cmocka_run_group_tests(tests, harness_setup_sim, harness_teardown);
}
