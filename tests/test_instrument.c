/* test_instrument.c: residency instrumentation (gpu/instrument.h) and the
 * synthetic kernel (gpu/synth.h).  Every entry of every lesson and test
 * kernel is instrumented; ptxas must accept the result (when the toolkit is
 * here), the simulator must compute exactly what the original computes
 * (every buffer byte, printf output, the same fault), and each block must
 * leave one record with start <= end and every thread counted.  The
 * synthetic kernel must have exactly the registers asked for. */
#include <glob.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "device.h"
#include "instrument.h"
#include "ptx.h"
#include "source.h"
#include "synth.h"

#define BUF_BYTES 65536
#define GRID_X 3
#define GRID_Y 2
#define BLOCK 64
/* A kernel with __cluster_dims__ (2 or 4 CTAs here) needs a grid that is a
 * multiple of its cluster: 4 x 2, and its clusters go to SMs of one GPC
 * rather than block i to SM i. */
#define GRID_X_CLUSTER 4
static unsigned grid_x = GRID_X;

/* ptxas -v on text: true when it accepts; regs gets "Used N registers"
 * of the last entry (-1 if absent).  *have false when there is no ptxas. */
static bool ptxas_ok(const char *text, size_t len, int *regs, bool *have)
{
    const char *ptxas = source_find_tool("ptxas");
    *have = ptxas != NULL;
    *regs = -1;
    if (!ptxas)
        return true;
    char path[] = "/tmp/warpsim-instr-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, text, len), (ssize_t)len);
    close(fd);
    char cmd[1024], line[512];
    snprintf(cmd, sizeof cmd, "'%s' -v --gpu-name sm_90 '%s' -o /dev/null 2>&1", ptxas, path);
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    bool error = false;
    while (fgets(line, sizeof line, p)) {
        const char *u = strstr(line, "Used ");
        if (u)
            *regs = atoi(u + 5);
        if (strstr(line, "error"))
            error = true, fprintf(stderr, "%s", line);
    }
    int rc = pclose(p);
    unlink(path);
    return rc == 0 && !error;
}

static char *sorted_lines(const char *text);

typedef struct {
    bool faulted;
    int races;               /* race findings (uninstrumented runs check) */
    char kind[32];
    unsigned char *bufs[16];
    int nbufs;
    char *printf_out;
    InstrRecord recs[GRID_X_CLUSTER * GRID_Y];
} Run;

/* Run entry of text in the simulator with made-up arguments: a zeroed
 * 64 KB buffer for each 8-byte parameter, 64 for each 4-byte one; with
 * instrumented, the last parameter is the record buffer. */
static void run_sched(const char *text, size_t len, const char *entry, bool instrumented, int schedule, uint64_t seed,
                      Run *out)
{
    memset(out, 0, sizeof *out);
    SimError e;
    sim_error_clear(&e);
    Device *d = device_open_sim("sm_90", &e);
    assert_non_null(d);
    DeviceModule *m;
    assert_int_equal(device_load_ptx(d, "k.ptx", text, len, &m, &e), SIM_OK);
    int np = device_kernel_nparams(m, entry);
    assert_true(np >= 0 && np <= 16);
    uint64_t vals[16];
    void *args[16], *blobs[16] = {0};
    DevicePtr ptrs[16];
    for (int i = 0; i < np; i++) {
        int sz = device_kernel_param_size(m, entry, i);
        vals[i] = 0;
        ptrs[i] = 0;
        if (sz > 8) { /* a struct by value (lesson 14's 4 KB table): zeros, as many bytes as it has */
            blobs[i] = calloc(1, (size_t)sz);
            assert_non_null(blobs[i]);
            args[i] = blobs[i];
            continue;
        }
        if (sz == 8) {
            size_t bytes = instrumented && i == np - 1 ? sizeof out->recs / sizeof *out->recs * INSTR_RECORD_BYTES
                                                       : BUF_BYTES;
            assert_int_equal(device_malloc(d, bytes, &ptrs[i], &e), SIM_OK);
            vals[i] = ptrs[i];
        } else if (sz == 4) {
            vals[i] = 64;
        }
        args[i] = &vals[i];
    }
    DeviceLaunch l = {.grid = {grid_x, GRID_Y, 1}, .block = {BLOCK, 1, 1}, .smem = 1024, .inst_budget = 2000000,
                      .schedule = schedule, .atomic_order = schedule ? DEVICE_ATOMIC_RANDOM : 0,
                      .seed = seed, .checks = instrumented ? 0 : DEVICE_CHECK_RACES};
    DeviceStats st;
    DeviceFault f;
    memset(&f, 0, sizeof f);
    SimStatus rc = device_launch(m, entry, &l, args, &st, &f, &e);
    for (int i = 0; i < np; i++)
        free(blobs[i]);
    assert_true(rc == SIM_OK || rc == SIM_ERR_FAULT);
    out->faulted = rc == SIM_ERR_FAULT;
    out->races = device_race_count(d);
    snprintf(out->kind, sizeof out->kind, "%s", f.kind);
    for (int i = 0; i < np; i++) {
        if (!ptrs[i])
            continue;
        if (instrumented && i == np - 1) {
            unsigned char raw[sizeof out->recs / sizeof *out->recs * INSTR_RECORD_BYTES];
            assert_int_equal(device_memcpy_dtoh(d, raw, ptrs[i], sizeof raw, &e), SIM_OK);
            instr_decode(raw, (int)grid_x * GRID_Y, out->recs);
            continue;
        }
        out->bufs[out->nbufs] = malloc(BUF_BYTES);
        assert_int_equal(device_memcpy_dtoh(d, out->bufs[out->nbufs++], ptrs[i], BUF_BYTES, &e), SIM_OK);
    }
    out->printf_out = sorted_lines(device_printf_output(d));
    device_close(d);
}

static int line_cmp(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* printf text with its lines sorted: which thread prints first is up to the
 * schedule (the instrumentation's branch at entry changes it, on hardware
 * nothing fixes it), what each prints is not. */
static char *sorted_lines(const char *text)
{
    char *copy = strdup(text), *lines[4096], *save = NULL;
    int n = 0;
    for (char *l = strtok_r(copy, "\n", &save); l && n < 4096; l = strtok_r(NULL, "\n", &save))
        lines[n++] = l;
    qsort(lines, (size_t)n, sizeof *lines, line_cmp);
    char *out = calloc(strlen(text) + 2, 1);
    for (int i = 0; i < n; i++)
        strcat(strcat(out, lines[i]), "\n");
    free(copy);
    return out;
}

static void run(const char *text, size_t len, const char *entry, bool instrumented, Run *out)
{
    run_sched(text, len, entry, instrumented, DEVICE_SCHED_ROUNDROBIN, 0, out);
}

static void run_free(Run *r)
{
    for (int i = 0; i < r->nbufs; i++)
        free(r->bufs[i]);
    free(r->printf_out);
}

static void test_instrument_every_lesson_and_test_kernel(void **s)
{
    (void)s;
    glob_t g;
    assert_int_equal(glob("lessons/*/kernel.ptx", 0, NULL, &g), 0);
    assert_int_equal(glob("tests/kernels/*.ptx", GLOB_APPEND, NULL, &g), 0);
    int entries = 0, checked_ptxas = 0, ran_clean = 0, at_limit = 0;
    for (size_t fi = 0; fi < g.gl_pathc; fi++) {
        char msg[256];
        size_t len;
        char *text = source_read_file(g.gl_pathv[fi], &len, msg, sizeof msg);
        assert_non_null(text);
        SimError e;
        PtxModule *m = ptx_parse_module(g.gl_pathv[fi], text, len, &e);
        assert_non_null(m);
        for (int k = 0; k < m->n_funcs; k++) {
            const PtxFunc *fn = &m->funcs[k];
            if (!fn->is_entry || fn->is_extern)
                continue;
            char *inst;
            size_t ilen;
            sim_error_clear(&e);
            SimStatus ist = instr_residency(g.gl_pathv[fi], text, len, fn->name, &inst, &ilen, &e);
            if (ist == SIM_ERR_UNSUPPORTED && strstr(e.msg, "past the 32764 bytes a kernel may take")) {
                at_limit++; /* lesson 14's huge_params: no room for the pointer */
                continue;
            }
            if (ist != SIM_OK)
                fail_msg("%s %s: %s", g.gl_pathv[fi], fn->name, e.msg);
            entries++;
            int regs;
            bool have;
            if (!ptxas_ok(inst, ilen, &regs, &have))
                fail_msg("ptxas rejects the instrumented %s of %s", fn->name, g.gl_pathv[fi]);
            checked_ptxas += have;
            Run a, b, c;
            memset(&c, 0, sizeof c);
            bool clustered = fn->reqnctapercluster[0] > 1;
            grid_x = clustered ? GRID_X_CLUSTER : GRID_X;
            run(text, len, fn->name, false, &a);
            run(inst, ilen, fn->name, true, &b);
            /* a kernel whose result depends on the schedule (lesson 3's last
             * writer) may differ: the added instructions change the schedule */
            bool order_dependent = a.races > 0; /* a race: the result depends on the order */
            for (int k = 0; k < 4 && !order_dependent; k++) { /* random and adversarial, seeds 1-4 */
                run_sched(text, len, fn->name, false, k & 1 ? DEVICE_SCHED_ADVERSARIAL : DEVICE_SCHED_RANDOM,
                          (uint64_t)k + 1, &c);
                order_dependent = c.faulted != a.faulted || c.nbufs != a.nbufs;
                for (int i = 0; i < a.nbufs && i < c.nbufs && !order_dependent; i++)
                    order_dependent = memcmp(a.bufs[i], c.bufs[i], BUF_BYTES) != 0;
                if (!order_dependent && k < 3)
                    run_free(&c);
            }
            if (a.faulted) {
                assert_true(b.faulted);
                assert_string_equal(a.kind, b.kind);
            } else {
                if (b.faulted)
                    fail_msg("%s %s: the instrumented kernel faulted (%s)", g.gl_pathv[fi], fn->name, b.kind);
                ran_clean++;
                assert_int_equal(a.nbufs, b.nbufs);
                for (int i = 0; i < a.nbufs && !order_dependent; i++)
                    if (memcmp(a.bufs[i], b.bufs[i], BUF_BYTES))
                        fail_msg("%s %s: buffer %d differs", g.gl_pathv[fi], fn->name, i);
                if (!order_dependent)
                    assert_string_equal(a.printf_out, b.printf_out);
                for (int i = 0; i < (int)grid_x * GRID_Y; i++) {
                    /* the first wave goes breadth-first: block i to SM i */
                    if (!clustered)
                        assert_int_equal(b.recs[i].smid, i);
                    assert_int_equal(b.recs[i].finished, BLOCK);
                    assert_true(b.recs[i].end >= b.recs[i].start);
                }
            }
            run_free(&a);
            run_free(&b);
            run_free(&c);
            free(inst);
        }
        ptx_module_free(m);
        free(text);
    }
    globfree(&g);
    printf("note: %d entries instrumented, %d checked with ptxas, %d ran clean and matched; %d refused at the "
           "parameter limit\n", entries, checked_ptxas, ran_clean, at_limit);
    assert_true(entries >= 20);
    assert_true(at_limit <= 1); /* lesson 14's huge_params, and no other */
    assert_true(ran_clean >= 10);
}

static void test_instrument_rejects_unknown_and_twice(void **s)
{
    (void)s;
    size_t len, ilen, i2;
    char msg[256], *inst, *twice;
    char *text = source_read_file("tests/kernels/reduce_block.ptx", &len, msg, sizeof msg);
    assert_non_null(text);
    SimError e;
    sim_error_clear(&e);
    assert_int_equal(instr_residency("r.ptx", text, len, "nope", &inst, &ilen, &e), SIM_ERR_USAGE);
    assert_non_null(strstr(e.msg, "no kernel (.entry) named 'nope'"));
    PtxModule *m = ptx_parse_module("r.ptx", text, len, &e);
    const char *entry = m->funcs[0].is_entry ? m->funcs[0].name : m->funcs[1].name;
    assert_int_equal(instr_residency("r.ptx", text, len, entry, &inst, &ilen, &e), SIM_OK);
    assert_int_equal(instr_residency("r.ptx", inst, ilen, entry, &twice, &i2, &e), SIM_ERR_USAGE);
    assert_non_null(strstr(e.msg, "already instrumented"));
    ptx_module_free(m);
    free(inst);
    free(text);
}

/* A kernel whose parameters fill the 32,764 bytes leaves no room for the
 * residency pointer: refused with both sizes, where it used to give PTX
 * that ptxas rejects ("uses too much parameter space"); 12 bytes fewer and
 * the 8-aligned pointer fits. */
static void test_instrument_refuses_a_kernel_at_the_parameter_limit(void **s)
{
    (void)s;
    char t[512];
    char *inst;
    size_t ilen;
    SimError e;
    const char *fmt = ".version %s\n.target sm_90\n.address_size 64\n"
                      ".visible .entry k(.param .u64 out, .param .align 4 .b8 big[%d])\n{\n\tret;\n}\n";
    snprintf(t, sizeof t, fmt, "8.1", 32756);
    sim_error_clear(&e);
    assert_int_equal(instr_residency("k.ptx", t, strlen(t), "k", &inst, &ilen, &e), SIM_ERR_UNSUPPORTED);
    assert_non_null(strstr(e.msg, "kernel 'k' takes 32764 bytes of parameters: with the residency buffer's "
                                  "pointer, 32776, past the 32764 bytes a kernel may take"));
    snprintf(t, sizeof t, fmt, "8.1", 32744); /* 32,752 bytes: the pointer at 32,752 ends at 32,760 */
    assert_int_equal(instr_residency("k.ptx", t, strlen(t), "k", &inst, &ilen, &e), SIM_OK);
    int regs;
    bool have;
    assert_true(ptxas_ok(inst, ilen, &regs, &have));
    free(inst);
    /* before PTX ISA 8.1 ptxas allows 4,352 bytes */
    snprintf(t, sizeof t, fmt, "8.0", 4344);
    assert_int_equal(instr_residency("k.ptx", t, strlen(t), "k", &inst, &ilen, &e), SIM_ERR_UNSUPPORTED);
    assert_non_null(strstr(e.msg, "takes 4352 bytes of parameters: with the residency buffer's pointer, 4360, "
                                  "past the 4352 bytes"));
    snprintf(t, sizeof t, fmt, "8.0", 4336);
    assert_int_equal(instr_residency("k.ptx", t, strlen(t), "k", &inst, &ilen, &e), SIM_OK);
    assert_true(ptxas_ok(inst, ilen, &regs, &have));
    free(inst);
}

static void test_instrument_fresh_names_avoid_existing_ones(void **s)
{
    (void)s;
    const char *t = ".version 8.0\n.target sm_90\n.address_size 64\n"
                    ".visible .entry k()\n{\n\t.reg .b32 %__wsr<4>;\n\tmov.u32 %__wsr0, 1;\n\tret;\n}\n";
    char *inst;
    size_t ilen;
    SimError e;
    assert_int_equal(instr_residency("k.ptx", t, strlen(t), "k", &inst, &ilen, &e), SIM_OK);
    assert_non_null(strstr(inst, "%__ws1r<8>"));
    assert_non_null(strstr(inst, ".param .u64 __warpsim_residency"));
    PtxModule *m = ptx_parse_module("k.ptx", inst, ilen, &e);
    assert_non_null(m);
    assert_int_equal(m->funcs[0].n_params, 1);
    ptx_module_free(m);
    int regs;
    bool have;
    assert_true(ptxas_ok(inst, ilen, &regs, &have));
    free(inst);
}

static void test_synth_has_exactly_the_registers_asked_for(void **s)
{
    (void)s;
    static const int want[] = {16, 24, 32, 40, 64, 96, 128, 168, 200, 255};
    bool have = true;
    for (size_t i = 0; i < sizeof want / sizeof *want && have; i++) {
        size_t len, ilen;
        SimError e;
        char *t = synth_ptx("sm_90", want[i], 4096, &len, &e), *inst;
        assert_non_null(t);
        assert_int_equal(instr_residency("s.ptx", t, len, SYNTH_ENTRY, &inst, &ilen, &e), SIM_OK);
        int regs;
        assert_true(ptxas_ok(inst, ilen, &regs, &have));
        if (have && regs != want[i])
            fail_msg("synthetic kernel for %d registers has %d", want[i], regs);
        free(t);
        free(inst);
    }
    if (!have) {
        printf("skip: no ptxas here; the synthetic kernel's register counts were not checked\n");
        skip();
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_instrument_every_lesson_and_test_kernel),
        cmocka_unit_test(test_instrument_rejects_unknown_and_twice),
        cmocka_unit_test(test_instrument_refuses_a_kernel_at_the_parameter_limit),
        cmocka_unit_test(test_instrument_fresh_names_avoid_existing_ones),
        cmocka_unit_test(test_synth_has_exactly_the_registers_asked_for),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
