/* test_trace.c: traces (sim/trace.h, traces/FORMAT.md) -- the writer and
 * reader round trip every event type; real launches (lesson 1's staged_sum)
 * traced at each level agree with the launch's own statistics; a
 * 100,000-block launch at `blocks` level stays small; every truncation and
 * every corrupted byte of a trace is a SIM_ERR_PARSE naming the offset; the
 * fuzz corpus (tests/corpus/trace) replays cleanly; the same launch twice
 * gives the same bytes; `warpsim trace export` writes valid JSON.  Run from
 * the repository root. */
#include <dirent.h>
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
#include "json.h"
#include "trace.h"

/* ---- helpers -------------------------------------------------------------- */

static char *tmp_path(const char *name)
{
    static char buf[8][256];
    static int k;
    char *p = buf[k++ % 8];
    snprintf(p, 256, "/tmp/warpsim_test_trace_%d_%s", (int)getpid(), name);
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

#define LESSON1 "lessons/01-threads-and-races/kernel.ptx"

/* staged_sum over n ones with grid x 256 threads; traced to path at level
 * (path NULL: not traced).  Returns the sum; *st gets the statistics. */
static int run_staged_sum(DeviceModule *m, unsigned grid, int n, const char *path, int level, DeviceStats *st)
{
    SimError err;
    int *in = malloc((size_t)n * sizeof *in);
    assert_non_null(in);
    for (int i = 0; i < n; i++)
        in[i] = 1;
    DevicePtr din, dout;
    int zero = 0, out = -1;
    assert_int_equal(device_malloc(dev, (size_t)n * 4, &din, &err), SIM_OK);
    assert_int_equal(device_malloc(dev, 4, &dout, &err), SIM_OK);
    assert_int_equal(device_memcpy_htod(dev, din, in, (size_t)n * 4, &err), SIM_OK);
    assert_int_equal(device_memcpy_htod(dev, dout, &zero, 4, &err), SIM_OK);
    void *args[] = {&din, &dout, &n};
    DeviceLaunch cfg = {.grid = {grid, 1, 1}, .block = {256, 1, 1}, .trace_path = path, .trace_level = level};
    const char *entry = device_find_kernel(m, "staged_sum", &err);
    assert_non_null(entry);
    SimStatus rc = device_launch(m, entry, &cfg, args, st, NULL, &err);
    if (rc)
        fail_msg("launch: %s", err.msg);
    assert_int_equal(device_memcpy_dtoh(dev, &out, dout, 4, &err), SIM_OK);
    device_free(dev, din, &err);
    device_free(dev, dout, &err);
    free(in);
    return out;
}

static TraceReader *open_ok(const char *path)
{
    SimError err;
    TraceReader *r = trace_open_file(path, &err);
    if (!r)
        fail_msg("%s: %s", path, err.msg);
    return r;
}

/* ---- round trip ---------------------------------------------------------- */

static void fill_events(TraceEvent *ev, int *n)
{
    int k = 0;
    memset(ev, 0, 16 * sizeof *ev);
    ev[k] = (TraceEvent){.type = TRACE_EV_BLOCK_DISPATCH, .cycle = 0, .block = 5};
    ev[k++].u.blk.sm = 3;
    ev[k] = (TraceEvent){.type = TRACE_EV_ISSUE, .cycle = 0, .block = 5};
    ev[k].u.issue.warp = 1; ev[k].u.issue.pc = 70000; ev[k].u.issue.mask = 0xfffffff0u;
    ev[k].u.issue.ptx_line = 167; ev[k].u.issue.file = 2; ev[k++].u.issue.line = 41;
    ev[k] = (TraceEvent){.type = TRACE_EV_ISSUE, .cycle = 1, .block = 5};
    ev[k].u.issue.warp = 0; ev[k].u.issue.mask = 1; ev[k++].u.issue.file = TRACE_NONE;
    ev[k] = (TraceEvent){.type = TRACE_EV_MEM, .cycle = 2, .block = 5};
    ev[k].u.mem.warp = 1; ev[k].u.mem.pc = 9; ev[k].u.mem.mask = 0xffffffffu; ev[k].u.mem.kind = TRACE_MEM_LOAD;
    ev[k].u.mem.space = TRACE_SPACE_GLOBAL; ev[k].u.mem.size = 4;
    for (int l = 0; l < 32; l++)
        ev[k].u.mem.addr[l] = 0x700000000000ull + 4 * (uint64_t)l;
    k++;
    ev[k] = (TraceEvent){.type = TRACE_EV_MEM, .cycle = 3, .block = 5};
    ev[k].u.mem.warp = 0; ev[k].u.mem.mask = 0x0f0f00f1u; ev[k].u.mem.kind = TRACE_MEM_STORE;
    ev[k].u.mem.space = TRACE_SPACE_SHARED; ev[k].u.mem.size = 8; ev[k].u.mem.conflict = 4;
    for (int l = 0; l < 32; l++)
        ev[k].u.mem.addr[l] = (0x0f0f00f1u >> l & 1) ? (uint64_t)((l * 7919) % 512) * 8 : 0;
    k++;
    ev[k] = (TraceEvent){.type = TRACE_EV_MEM, .cycle = 3, .block = 5};
    ev[k].u.mem.warp = 0; ev[k].u.mem.mask = 0x80000001u; ev[k].u.mem.kind = TRACE_MEM_CP_ASYNC;
    ev[k].u.mem.space = TRACE_SPACE_SHARED; ev[k].u.mem.size = 16; ev[k].u.mem.conflict = 1;
    ev[k].u.mem.addr[0] = 4096; ev[k++].u.mem.addr[31] = 4096 - 31 * 16; /* negative stride */
    ev[k] = (TraceEvent){.type = TRACE_EV_ATOMIC, .cycle = 4, .block = 5};
    ev[k].u.atom.warp = 1; ev[k].u.atom.lane = 31; ev[k].u.atom.pc = 12; ev[k].u.atom.op = TRACE_ATOM_CAS;
    ev[k].u.atom.space = TRACE_SPACE_GLOBAL; ev[k].u.atom.size = 8; ev[k].u.atom.addr = ~0ull - 7;
    ev[k].u.atom.old = ~0ull; ev[k].u.atom.val = 0; ev[k++].u.atom.order = 7;
    ev[k] = (TraceEvent){.type = TRACE_EV_BAR_ARRIVE, .cycle = 5, .block = 5};
    ev[k].u.arrive.warp = 1; ev[k].u.arrive.id = 15; ev[k].u.arrive.mask = 0xffff; ev[k++].u.arrive.arrived = 48;
    ev[k] = (TraceEvent){.type = TRACE_EV_BAR_RELEASE, .cycle = 6, .block = 5};
    ev[k].u.release.id = 15; ev[k++].u.release.released = 64;
    ev[k] = (TraceEvent){.type = TRACE_EV_COLLECTIVE, .cycle = 7, .block = 5};
    ev[k].u.coll.warp = 1; ev[k].u.coll.pc = 13; ev[k].u.coll.mask = 0xff; ev[k].u.coll.member = 0xffffffffu;
    ev[k].u.coll.kind = TRACE_COLL_REDUX; ev[k++].u.coll.mode = 5;
    ev[k] = (TraceEvent){.type = TRACE_EV_WARP_TURN, .cycle = 8, .block = 5};
    ev[k].u.turn.warp = 1; ev[k++].u.turn.count = 8;
    ev[k] = (TraceEvent){.type = TRACE_EV_BLOCK_RETIRE, .cycle = 8, .block = 5};
    ev[k++].u.blk.sm = 3;
    ev[k] = (TraceEvent){.type = TRACE_EV_RACE, .cycle = 9, .block = 0};
    ev[k].u.race.warp = 0; ev[k].u.race.lane = 1; ev[k].u.race.pc = 2; ev[k].u.race.other_warp = 1;
    ev[k].u.race.other_lane = 30; ev[k].u.race.space = TRACE_SPACE_SHARED; ev[k].u.race.addr = 128;
    ev[k].u.race.msg = "write-write"; ev[k++].u.race.msg_len = 11;
    ev[k] = (TraceEvent){.type = TRACE_EV_FAULT, .cycle = 1000000000000ull, .block = 0};
    ev[k].u.fault.warp = TRACE_NONE; ev[k].u.fault.lane = TRACE_NONE; ev[k].u.fault.pc = TRACE_NONE;
    ev[k].u.fault.addr = 0; ev[k].u.fault.kind = "trap"; ev[k].u.fault.kind_len = 4;
    ev[k].u.fault.msg = "the kernel executed trap"; ev[k++].u.fault.msg_len = 24;
    *n = k;
}

static const TraceLaunch small_launch = {.level = TRACE_LEVEL_MEMORY, .arch = 1, .kernel = 0,
                                         .grid = {3, 2, 1}, .block = {64, 1, 1}, .dyn_smem = 16,
                                         .static_smem = 1024, .regs = TRACE_NONE, .ptx_regs = 37,
                                         .sm_count = 4, .warp_size = 32};
static const char *const small_strings[] = {"k", "sm_90", "kernel.cu"};

static void write_small(const char *path)
{
    SimError err;
    TraceWriter *t = trace_writer_open(path, &small_launch, small_strings, 3, &err);
    assert_non_null(t);
    TraceEvent ev[16];
    int n;
    fill_events(ev, &n);
    for (int i = 0; i < n; i++)
        trace_write_event(t, &ev[i]);
    assert_int_equal(trace_writer_close(t, 1, &err), SIM_OK);
}

static void test_trace_round_trip_of_every_event_type(void **s)
{
    (void)s;
    const char *path = tmp_path("rt.wst");
    write_small(path);
    TraceReader *r = open_ok(path);
    const TraceLaunch *l = trace_launch(r);
    assert_memory_equal(l, &small_launch, sizeof *l);
    assert_int_equal(trace_nstrings(r), 3);
    assert_string_equal(trace_string(r, 2), "kernel.cu");
    assert_string_equal(trace_string(r, 99), "");
    assert_int_equal(trace_end_status(r), 1);
    assert_int_equal(trace_end_cycle(r), 1000000000000ull);
    TraceEvent want[16], got;
    int n;
    fill_events(want, &n);
    assert_int_equal(trace_nevents(r), n);
    bool seen[16] = {false};
    for (int i = 0; i < n; i++) {
        assert_true(trace_next(r, &got));
        const TraceEvent *w = &want[i];
        assert_int_equal(got.type, w->type);
        assert_int_equal(got.cycle, w->cycle);
        assert_int_equal(got.block, w->block);
        seen[got.type] = true;
        switch (got.type) {
        case TRACE_EV_MEM:
            assert_int_equal(got.u.mem.warp, w->u.mem.warp);
            assert_int_equal(got.u.mem.mask, w->u.mem.mask);
            assert_int_equal(got.u.mem.kind, w->u.mem.kind);
            assert_int_equal(got.u.mem.space, w->u.mem.space);
            assert_int_equal(got.u.mem.size, w->u.mem.size);
            assert_int_equal(got.u.mem.conflict, w->u.mem.conflict);
            for (int q = 0; q < 32; q++)
                if (w->u.mem.mask >> q & 1)
                    assert_int_equal(got.u.mem.addr[q], w->u.mem.addr[q]);
            break;
        case TRACE_EV_FAULT:
            assert_int_equal(got.u.fault.warp, TRACE_NONE);
            assert_int_equal(got.u.fault.lane, TRACE_NONE);
            assert_int_equal(got.u.fault.pc, TRACE_NONE);
            assert_int_equal(got.u.fault.kind_len, 4);
            assert_memory_equal(got.u.fault.kind, "trap", 4);
            assert_memory_equal(got.u.fault.msg, w->u.fault.msg, w->u.fault.msg_len);
            break;
        case TRACE_EV_RACE:
            assert_int_equal(got.u.race.other_lane, 30);
            assert_int_equal(got.u.race.addr, 128);
            assert_memory_equal(got.u.race.msg, "write-write", 11);
            break;
        default: /* the rest are plain numbers: compare the whole union */
            assert_memory_equal(&got.u, &w->u, sizeof got.u);
        }
    }
    assert_false(trace_next(r, &got));
    for (int t = TRACE_EV_BLOCK_DISPATCH; t <= TRACE_EV_RACE; t++)
        if (!seen[t])
            fail_msg("event type %d not covered", t);
    /* the address forms: stride, list, and a negative stride */
    trace_rewind(r);
    int forms[2] = {0, 0};
    while (trace_next(r, &got))
        if (got.type == TRACE_EV_MEM)
            forms[got.u.mem.form]++;
    assert_int_equal(forms[TRACE_ADDR_STRIDE], 2);
    assert_int_equal(forms[TRACE_ADDR_LIST], 1);
    trace_close(r);
    unlink(path);
}

/* ---- real launches -------------------------------------------------------- */

typedef struct {
    uint64_t count[TRACE_EV_RACE + 1];
    uint64_t turn_insts, released, atomics, bad_order;
} Census;

static Census census(TraceReader *r)
{
    Census c;
    memset(&c, 0, sizeof c);
    TraceEvent e;
    uint64_t last = 0;
    while (trace_next(r, &e)) {
        if (e.type <= TRACE_EV_RACE)
            c.count[e.type]++;
        if (e.cycle < last)
            c.bad_order++;
        last = e.cycle;
        if (e.type == TRACE_EV_WARP_TURN)
            c.turn_insts += e.u.turn.count;
        if (e.type == TRACE_EV_BAR_RELEASE)
            c.released += e.u.release.released;
        if (e.type == TRACE_EV_ATOMIC) {
            if (e.u.atom.order != c.atomics)
                c.bad_order++;
            c.atomics++;
        }
    }
    return c;
}

static void test_trace_staged_sum_at_each_level(void **s)
{
    (void)s;
    DeviceModule *m = load_file(LESSON1);
    DeviceStats plain, st;
    assert_int_equal(run_staged_sum(m, 8, 2000, NULL, 0, &plain), 2000);
    size_t prev_size = 0;
    for (int lv = TRACE_LEVEL_BLOCKS; lv <= TRACE_LEVEL_MEMORY; lv++) {
        const char *path = tmp_path("ss.wst");
        assert_int_equal(run_staged_sum(m, 8, 2000, path, lv, &st), 2000);
        /* tracing changes nothing the launch computes or counts */
        assert_int_equal(st.warp_insts, plain.warp_insts);
        assert_int_equal(st.thread_insts, plain.thread_insts);
        assert_int_equal(st.barriers, plain.barriers);
        TraceReader *r = open_ok(path);
        assert_int_equal(trace_launch(r)->level, lv);
        assert_string_equal(trace_string(r, trace_launch(r)->kernel), "staged_sum");
        assert_string_equal(trace_string(r, trace_launch(r)->arch), "sm_90");
        assert_int_equal(trace_launch(r)->grid[0], 8);
        assert_int_equal(trace_launch(r)->block[0], 256);
        assert_int_equal(trace_launch(r)->static_smem, 1024);
        assert_int_equal(trace_end_cycle(r), plain.cycles);
        assert_int_equal(trace_end_status(r), 0);
        assert_true(trace_size(r) > prev_size);
        prev_size = trace_size(r);
        Census c = census(r);
        assert_int_equal(c.bad_order, 0);
        assert_int_equal(c.count[TRACE_EV_BLOCK_DISPATCH], 8);
        assert_int_equal(c.count[TRACE_EV_BLOCK_RETIRE], 8);
        assert_int_equal(c.count[TRACE_EV_FAULT], 0);
        if (lv >= TRACE_LEVEL_WARPS) {
            /* a span ends at every barrier wait of every warp and at its exit */
            assert_int_equal(c.count[TRACE_EV_WARP_TURN], plain.barriers * 8 + 8 * 8);
            assert_true(c.turn_insts <= plain.cycles * 64);
            assert_int_equal(c.count[TRACE_EV_BAR_RELEASE], plain.barriers);
            assert_int_equal(c.released, plain.barriers * 256);
            assert_int_equal(c.count[TRACE_EV_BAR_ARRIVE], plain.barriers * 8);
            assert_true(c.count[TRACE_EV_ISSUE] > 0);
        } else {
            assert_int_equal(c.count[TRACE_EV_WARP_TURN] + c.count[TRACE_EV_ISSUE], 0);
        }
        if (lv >= TRACE_LEVEL_INSTRUCTIONS)
            assert_int_equal(c.count[TRACE_EV_ISSUE], plain.warp_insts);
        else if (lv == TRACE_LEVEL_WARPS)
            assert_true(c.count[TRACE_EV_ISSUE] < plain.warp_insts / 4);
        if (lv == TRACE_LEVEL_MEMORY) {
            assert_int_equal(c.atomics, plain.atomics);
            assert_true(c.count[TRACE_EV_MEM] > 0);
        } else {
            assert_int_equal(c.count[TRACE_EV_MEM] + c.count[TRACE_EV_ATOMIC], 0);
        }
        trace_close(r);
        unlink(path);
    }
}

static void test_trace_memory_level_records_shared_bank_conflicts(void **s)
{
    (void)s;
    /* lane l stores to shared word 32 * l: every lane in bank 0 */
    DeviceModule *m = load_text("inline.ptx", 
        ".version 8.0\n.target sm_90\n.address_size 64\n"
        ".visible .entry conflict()\n{\n.reg .b32 %r<4>;\n.shared .align 4 .b8 sm[4096];\n"
        "mov.u32 %r1, %tid.x;\nshl.b32 %r2, %r1, 7;\nmov.u32 %r3, sm;\nadd.s32 %r2, %r2, %r3;\n"
        "st.shared.u32 [%r2], %r1;\nshl.b32 %r2, %r1, 2;\nadd.s32 %r2, %r2, %r3;\nst.shared.u32 [%r2], %r1;\n"
        "ret;\n}\n");
    const char *path = tmp_path("bank.wst");
    DeviceLaunch cfg = {.grid = {1, 1, 1}, .block = {32, 1, 1}, .trace_path = path,
                        .trace_level = TRACE_LEVEL_MEMORY};
    SimError err;
    assert_int_equal(device_launch(m, "conflict", &cfg, NULL, NULL, NULL, &err), SIM_OK);
    TraceReader *r = open_ok(path);
    TraceEvent e;
    int k = 0;
    uint8_t deg[2] = {0, 0};
    while (trace_next(r, &e))
        if (e.type == TRACE_EV_MEM && e.u.mem.space == TRACE_SPACE_SHARED && k < 2) {
            assert_int_equal(e.u.mem.form, TRACE_ADDR_STRIDE);
            deg[k++] = e.u.mem.conflict;
        }
    assert_int_equal(k, 2);
    assert_int_equal(deg[0], 32);
    assert_int_equal(deg[1], 1);
    trace_close(r);
    unlink(path);
}

static const char nop_ptx[] = ".version 8.0\n.target sm_90\n.address_size 64\n"
                              ".visible .entry nop()\n{\nret;\n}\n";

/* The README states this size: keep them in step. */
static void test_trace_100000_blocks_at_blocks_level_stays_small(void **s)
{
    (void)s;
    DeviceModule *m = load_text("inline.ptx", nop_ptx);
    const char *path = tmp_path("big.wst");
    DeviceLaunch cfg = {.grid = {100000, 1, 1}, .block = {32, 1, 1}, .trace_path = path,
                        .trace_level = TRACE_LEVEL_BLOCKS};
    SimError err;
    assert_int_equal(device_launch(m, "nop", &cfg, NULL, NULL, NULL, &err), SIM_OK);
    TraceReader *r = open_ok(path);
    Census c = census(r);
    assert_int_equal(c.count[TRACE_EV_BLOCK_DISPATCH], 100000);
    assert_int_equal(c.count[TRACE_EV_BLOCK_RETIRE], 100000);
    size_t size = trace_size(r);
    if (size > 1300000) /* 13 bytes a block at most */
        fail_msg("a 100,000-block trace at blocks level takes %zu bytes", size);
    print_message("100,000 blocks at level blocks: %zu bytes\n", size);
    trace_close(r);
    unlink(path);
}

static void test_trace_fault_is_recorded_and_end_says_faulted(void **s)
{
    (void)s;
    DeviceModule *m = load_text("inline.ptx", ".version 8.0\n.target sm_90\n.address_size 64\n"
                                ".visible .entry oob()\n{\n.reg .b64 %rd<2>;\n.reg .b32 %r<2>;\n"
                                "mov.u64 %rd1, 16;\nmov.u32 %r1, 7;\nst.global.u32 [%rd1], %r1;\nret;\n}\n");
    const char *path = tmp_path("fault.wst");
    DeviceLaunch cfg = {.grid = {2, 1, 1}, .block = {32, 1, 1}, .trace_path = path};
    SimError err;
    DeviceFault f;
    assert_int_equal(device_launch(m, "oob", &cfg, NULL, NULL, &f, &err), SIM_ERR_FAULT);
    TraceReader *r = open_ok(path);
    assert_int_equal(trace_end_status(r), 1);
    TraceEvent e;
    int faults = 0;
    while (trace_next(r, &e))
        if (e.type == TRACE_EV_FAULT) {
            faults++;
            assert_int_equal(e.block, 0);
            assert_int_equal(e.u.fault.warp, 0);
            assert_int_equal(e.u.fault.lane, 0);
            assert_int_equal(e.u.fault.addr, 16);
            assert_int_equal(e.u.fault.kind_len, strlen("out-of-bounds"));
            assert_memory_equal(e.u.fault.kind, "out-of-bounds", e.u.fault.kind_len);
            assert_int_equal(e.u.fault.msg_len, strlen(f.msg));
        }
    assert_int_equal(faults, 1);
    trace_close(r);
    unlink(path);
}

static void test_trace_unwritable_path_is_an_io_error(void **s)
{
    (void)s;
    DeviceModule *m = load_text("inline.ptx", nop_ptx);
    DeviceLaunch cfg = {.grid = {1, 1, 1}, .block = {32, 1, 1}, .trace_path = "/nonexistent-dir/x.wst"};
    SimError err;
    assert_int_equal(device_launch(m, "nop", &cfg, NULL, NULL, NULL, &err), SIM_ERR_IO);
    assert_non_null(strstr(err.msg, "/nonexistent-dir/x.wst"));
    cfg.trace_path = tmp_path("lv.wst");
    cfg.trace_level = 9;
    assert_int_equal(device_launch(m, "nop", &cfg, NULL, NULL, NULL, &err), SIM_ERR_USAGE);
}

static void test_trace_same_launch_twice_is_byte_identical(void **s)
{
    (void)s;
    /* each on a fresh device, so that the buffers get the same addresses */
    DeviceStats st;
    const char *a = tmp_path("a.wst"), *b = tmp_path("b.wst");
    Device *keep = dev;
    for (int i = 0; i < 2; i++) {
        SimError err;
        dev = device_open_sim("sm_90", &err);
        assert_non_null(dev);
        run_staged_sum(load_file(LESSON1), 3, 700, i ? b : a, TRACE_LEVEL_MEMORY, &st);
        device_close(dev);
    }
    dev = keep;
    size_t na, nb;
    uint8_t *da = slurp(a, &na), *db = slurp(b, &nb);
    assert_int_equal(na, nb);
    assert_memory_equal(da, db, na);
    free(da);
    free(db);
    unlink(a);
    unlink(b);
}

/* ---- bad input ------------------------------------------------------------ */

static void expect_parse_error(const uint8_t *d, size_t n, unsigned flags, const char *what)
{
    SimError err;
    sim_error_clear(&err);
    TraceReader *r = trace_open_mem("t.wst", d, n, flags, &err);
    if (r)
        fail_msg("%s: accepted", what);
    assert_int_equal(err.status, SIM_ERR_PARSE);
    if (strncmp(err.msg, "byte ", 5))
        fail_msg("%s: message without an offset: %s", what, err.msg);
}

static void test_trace_every_truncation_is_a_parse_error_with_offset(void **s)
{
    (void)s;
    const char *path = tmp_path("trunc.wst");
    write_small(path);
    size_t n;
    uint8_t *d = slurp(path, &n);
    for (size_t k = 0; k < n; k++) {
        char what[64];
        snprintf(what, sizeof what, "first %zu of %zu bytes", k, n);
        expect_parse_error(d, k, 0, what);
        expect_parse_error(d, k, TRACE_READ_NO_CRC, what);
    }
    SimError err;
    TraceReader *r = trace_open_mem("t.wst", d, n / 2, 0, &err);
    assert_null(r);
    assert_non_null(strstr(err.msg, "truncated"));
    free(d);
    unlink(path);
}

static void test_trace_every_corrupted_byte_is_a_parse_error_with_offset(void **s)
{
    (void)s;
    const char *path = tmp_path("corrupt.wst");
    write_small(path);
    size_t n;
    uint8_t *d = slurp(path, &n);
    uint8_t *c = malloc(n + 1);
    assert_non_null(c);
    for (size_t k = 0; k < n; k++)
        for (int bit = 0; bit < 8; bit += 3) {
            memcpy(c, d, n);
            c[k] ^= (uint8_t)(1u << bit);
            char what[64];
            snprintf(what, sizeof what, "bit %d of byte %zu flipped", bit, k);
            expect_parse_error(c, n, 0, what);
            /* without the CRC the decoder alone must still never crash */
            SimError err;
            TraceReader *r = trace_open_mem("t.wst", c, n, TRACE_READ_NO_CRC, &err);
            trace_close(r);
        }
    /* a byte appended after END */
    memcpy(c, d, n);
    c[n] = 0;
    expect_parse_error(c, n + 1, 0, "trailing byte");
    free(c);
    free(d);
    unlink(path);
}

static void test_trace_rejects_bad_magic_version_and_header(void **s)
{
    (void)s;
    const char *path = tmp_path("hdr.wst");
    write_small(path);
    size_t n;
    uint8_t *d = slurp(path, &n);
    SimError err;
    d[0] = 'X';
    assert_null(trace_open_mem("t.wst", d, n, 0, &err));
    assert_string_equal(err.msg, "byte 0: not a warpsim trace (no \"WSTRACE1\" magic)");
    d[0] = 'W';
    d[8] = 4; /* v3 added warp states; a version after it is refused */
    assert_null(trace_open_mem("t.wst", d, n, 0, &err));
    assert_string_equal(err.msg, "byte 8: format version 4; this warpsim reads versions 1 to 3");
    d[8] = 1;
    d[64] = 16; /* warp size */
    assert_null(trace_open_mem("t.wst", d, n, TRACE_READ_NO_CRC, &err));
    assert_string_equal(err.msg, "byte 64: warp size 16 is not 32");
    d[64] = 32;
    d[60] = 0; /* sm_count */
    assert_null(trace_open_mem("t.wst", d, n, TRACE_READ_NO_CRC, &err));
    assert_string_equal(err.msg, "byte 60: sm_count 0 is not 1..65536");
    free(d);
    assert_null(trace_open_file("/nonexistent-dir/x.wst", &err));
    assert_int_equal(err.status, SIM_ERR_IO);
    unlink(path);
}

/* Every file libFuzzer kept (tests/corpus/trace) opens or fails cleanly. */
static void test_trace_replays_fuzz_corpus(void **s)
{
    (void)s;
    const char *dir = "tests/corpus/trace";
    DIR *dp = opendir(dir);
    if (!dp)
        fail_msg("cannot open %s (run from the repository root)", dir);
    int files = 0, good = 0;
    struct dirent *de;
    while ((de = readdir(dp))) {
        if (de->d_name[0] == '.')
            continue;
        char path[512];
        snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
        size_t n;
        uint8_t *d = slurp(path, &n);
        for (unsigned flags = 0; flags <= TRACE_READ_NO_CRC; flags++) {
            SimError err;
            sim_error_clear(&err);
            TraceReader *r = trace_open_mem(path, d, n, flags, &err);
            if (!r) {
                assert_int_equal(err.status, SIM_ERR_PARSE);
                if (strncmp(err.msg, "byte ", 5))
                    fail_msg("%s: %s", path, err.msg);
                continue;
            }
            good += flags == 0;
            TraceEvent e;
            uint64_t k = 0;
            while (trace_next(r, &e)) {
                k++;
                if (e.type == TRACE_EV_TILE && e.u.tile.nlisted) { /* listed elements decode */
                    TraceTileElem *el = malloc(e.u.tile.nlisted * sizeof *el);
                    assert_int_equal(trace_tile_elems(&e, el, e.u.tile.nlisted), e.u.tile.nlisted);
                    free(el);
                }
            }
            assert_int_equal(k, trace_nevents(r));
            trace_close(r);
        }
        free(d);
        files++;
    }
    closedir(dp);
    assert_true(files >= 4);
    assert_true(good >= 4); /* the seeds are valid traces */
}

/* ---- text and Perfetto JSON, through the library ----------------------------- */

static char *capture_dump(TraceReader *r, size_t *n)
{
    char *text = NULL;
    FILE *f = open_memstream(&text, n);
    assert_non_null(f);
    trace_dump_text(f, r);
    fclose(f);
    return text;
}

static void test_trace_dump_text_names_every_event_and_rewinds(void **s)
{
    (void)s;
    const char *path = tmp_path("dump.wst");
    write_small(path);
    TraceReader *r = open_ok(path);
    size_t n1, n2;
    char *a = capture_dump(r, &n1);
    char *b = capture_dump(r, &n2); /* a second dump starts again at the first event */
    assert_int_equal(n1, n2);
    assert_memory_equal(a, b, n1);
    assert_non_null(strstr(a, "k on sm_90, level memory"));
    assert_non_null(strstr(a, "grid 3x2x1  block 64x1x1  smem 16 dynamic + 1024 static  regs ? (PTX 37)  4 SMs"));
    assert_non_null(strstr(a, " 2=\"kernel.cu\""));
    assert_non_null(strstr(a, "faulted"));
    assert_non_null(strstr(a, "w1 pc 70000 mask 0xfffffff0 ptx:167 kernel.cu:41"));
    assert_non_null(strstr(a, "conflict 4-way"));
    assert_non_null(strstr(a, "w1 lane 31 pc 12 atom.cas.global 8B"));
    assert_non_null(strstr(a, "redux.xor"));
    assert_non_null(strstr(a, "trap: the kernel executed trap"));
    int lines = 0;
    for (const char *p = a; *p; p++)
        lines += *p == '\n';
    int nev;
    TraceEvent ev[16];
    fill_events(ev, &nev);
    assert_int_equal(lines, 5 + nev); /* title, shape, strings, counts, column names */
    free(a);
    free(b);
    trace_close(r);
    unlink(path);
}

static void test_trace_export_perfetto_pairs_dispatch_and_retire(void **s)
{
    (void)s;
    const char *path = tmp_path("exp.wst");
    write_small(path);
    TraceReader *r = open_ok(path);
    char *text = NULL;
    size_t n;
    FILE *f = open_memstream(&text, &n);
    assert_non_null(f);
    SimError err;
    sim_error_clear(&err);
    assert_int_equal(trace_export_perfetto(f, r, &err), SIM_OK);
    fclose(f);
    char msg[256];
    JsonValue *v = json_parse(text, n, msg, sizeof msg);
    if (!v)
        fail_msg("export is not JSON: %s", msg);
    const JsonValue *evs = json_get(v, "traceEvents");
    assert_non_null(evs);
    int spans = 0, races = 0, traps = 0;
    for (size_t i = 0; i < evs->n; i++) {
        const JsonValue *e = &evs->items[i];
        const char *ph = json_get_string(e, "ph"), *name = json_get_string(e, "name");
        if (!strcmp(ph, "X") && json_get_number(e, "tid", -1) == 0) {
            spans++; /* block 5 ran on SM 3 from cycle 0 to 8 */
            assert_string_equal(name, "block 5 (2,1,0)");
            assert_int_equal((int)json_get_number(e, "pid", -1), 3);
            assert_int_equal((int)json_get_number(e, "dur", -1), 8);
        }
        races += !strcmp(name, "race");
        traps += !strcmp(name, "trap");
    }
    assert_int_equal(spans, 1);
    assert_int_equal(races, 1);
    assert_int_equal(traps, 1);
    json_free(v);
    free(text);
    trace_close(r);
    unlink(path);
}

/* ---- the command line ----------------------------------------------------- */

static const char *warpsim(void)
{
    const char *w = getenv("WARPSIM");
    return w ? w : "build/warpsim";
}

static void test_trace_perfetto_export_is_valid_json(void **s)
{
    (void)s;
    char cmd[1024];
    const char *t = tmp_path("cli.wst"), *j = tmp_path("cli.json");
    snprintf(cmd, sizeof cmd,
             "%s run " LESSON1 " --kernel staged_sum --grid 3 --block 256 --arg buf:i32[700]=fill:1 "
             "--arg buf:i32[1]=fill:0 --arg i32:700 --trace %s --trace-level warps > /dev/null && "
             "%s trace export %s --perfetto %s", warpsim(), t, warpsim(), t, j);
    assert_int_equal(system(cmd), 0);
    size_t n;
    char *text = (char *)slurp(j, &n);
    char msg[256];
    JsonValue *v = json_parse(text, n, msg, sizeof msg);
    if (!v)
        fail_msg("export is not JSON: %s", msg);
    const JsonValue *evs = json_get(v, "traceEvents");
    assert_non_null(evs);
    assert_int_equal(evs->type, JSON_ARRAY);
    int blocks = 0, turns = 0, sms = 0, warps = 0;
    for (size_t i = 0; i < evs->n; i++) {
        const JsonValue *e = &evs->items[i];
        const char *ph = json_get_string(e, "ph"), *name = json_get_string(e, "name");
        assert_non_null(ph);
        assert_non_null(name);
        if (!strcmp(ph, "X") && json_get_number(e, "tid", -1) == 0) {
            blocks++;
            assert_true(json_get_number(e, "dur", -1) > 0);
        } else if (!strcmp(ph, "X")) {
            turns++;
        } else if (!strcmp(ph, "M") && !strcmp(name, "process_name")) {
            sms++;
        } else if (!strcmp(ph, "M") && !strcmp(name, "thread_name")) {
            warps++;
        }
    }
    assert_int_equal(blocks, 3);
    assert_int_equal(sms, 3);
    assert_int_equal(warps, 3 * (1 + 8)); /* "blocks" and 8 warps on each SM */
    assert_true(turns >= 3 * 8);
    json_free(v);
    free(text);
    /* dump prints the header and one line per event */
    snprintf(cmd, sizeof cmd, "%s trace dump %s", warpsim(), t);
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    char line[512];
    int lines = 0, dispatch = 0;
    while (fgets(line, sizeof line, p)) {
        lines++;
        dispatch += strstr(line, " dispatch ") != NULL;
    }
    assert_int_equal(pclose(p), 0);
    assert_int_equal(dispatch, 3);
    assert_true(lines > 20);
    /* a corrupt trace: exit status 2 and the offset on stderr */
    FILE *f = fopen(t, "r+b");
    assert_non_null(f);
    fseek(f, 100, SEEK_SET);
    fputc(0xee, f);
    fclose(f);
    snprintf(cmd, sizeof cmd, "%s trace dump %s 2>&1 >/dev/null | grep -q 'byte [0-9]*: '; "
                              "%s trace dump %s >/dev/null 2>&1; test $? -eq 2", warpsim(), t, warpsim(), t);
    assert_int_equal(system(cmd), 0);
    unlink(t);
    unlink(j);
}

static void test_trace_run_prints_the_same_with_and_without_trace(void **s)
{
    (void)s;
    char cmd[1400];
    const char *a = tmp_path("plain.txt"), *b = tmp_path("traced.txt"), *t = tmp_path("same.wst");
    const char *launch = "run " LESSON1 " --kernel staged_sum --grid 2 --block 256 --arg buf:i32[500]=rand:3 "
                         "--arg buf:i32[1]=fill:0 --arg i32:500 --json";
    snprintf(cmd, sizeof cmd,
             "%s %s | sed 's/\"seconds\": [^,}]*//' > %s && %s %s --trace %s --trace-level memory | "
             "sed 's/\"seconds\": [^,}]*//' > %s && cmp -s %s %s",
             warpsim(), launch, a, warpsim(), launch, t, b, a, b);
    assert_int_equal(system(cmd), 0);
    unlink(a);
    unlink(b);
    unlink(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
#define T(f) cmocka_unit_test(f)
        T(test_trace_round_trip_of_every_event_type),
        T(test_trace_staged_sum_at_each_level),
        T(test_trace_memory_level_records_shared_bank_conflicts),
        T(test_trace_100000_blocks_at_blocks_level_stays_small),
        T(test_trace_fault_is_recorded_and_end_says_faulted),
        T(test_trace_unwritable_path_is_an_io_error),
        T(test_trace_same_launch_twice_is_byte_identical),
        T(test_trace_every_truncation_is_a_parse_error_with_offset),
        T(test_trace_every_corrupted_byte_is_a_parse_error_with_offset),
        T(test_trace_rejects_bad_magic_version_and_header),
        T(test_trace_replays_fuzz_corpus),
        T(test_trace_dump_text_names_every_event_and_rewinds),
        T(test_trace_export_perfetto_pairs_dispatch_and_retire),
        T(test_trace_perfetto_export_is_valid_json),
        T(test_trace_run_prints_the_same_with_and_without_trace),
#undef T
    };
    return cmocka_run_group_tests(tests, harness_setup_sim, harness_teardown);
}
