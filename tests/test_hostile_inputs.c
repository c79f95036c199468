/* test_hostile_inputs.c: what a hostile user can hand the simulator's readers
 * and limits (issue 12): devices, FIFOs, truncated and lying traces, a PTX
 * file with a million parameters or instructions, literals ptxas refuses,
 * kernels that ask for more memory than the course allows, endless loops
 * and floods of printf.  Each case checks the exact message it must give,
 * under limits small enough that the suite stays fast. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "argspec.h"
#include "device.h"
#include "file_read.h"
#include "launch.h"
#include "ptx.h"
#include "source.h"
#include "step_input.h"
#include "trace.h"

static char tmpdir[64];

static int setup(void **s)
{
    (void)s;
    snprintf(tmpdir, sizeof tmpdir, "/tmp/warpsim-hostile-XXXXXX");
    return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown(void **s)
{
    (void)s;
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    return system(cmd) == 0 ? 0 : -1;
}

static const char *tmp_path(const char *name)
{
    static char p[4][128];
    static int k;
    k = (k + 1) % 4;
    snprintf(p[k], sizeof p[k], "%s/%s", tmpdir, name);
    return p[k];
}

static void write_bytes(const char *path, const void *d, size_t n)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(d, 1, n, f), n);
    assert_int_equal(fclose(f), 0);
}

static const char *make_fifo(void)
{
    const char *p = tmp_path("fifo");
    unlink(p);
    assert_int_equal(mkfifo(p, 0600), 0);
    return p;
}

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* ---- readers: devices and FIFOs are refused before any read ------------ */

static void test_trace_open_refuses_dev_zero(void **s)
{
    (void)s;
    SimError err;
    assert_null(trace_open_file("/dev/zero", &err));
    assert_int_equal(err.status, SIM_ERR_IO);
    assert_string_equal(err.file, "/dev/zero");
    assert_string_equal(err.msg, "the trace is a character device, not a regular file; warpsim reads only "
                                 "regular files (save it to a file first)");
}

static void test_trace_open_refuses_a_fifo_without_waiting(void **s)
{
    (void)s;
    SimError err;
    const char *fifo = make_fifo();
    double t0 = now();
    assert_null(trace_open_file(fifo, &err)); /* no writer: would block forever */
    assert_true(now() - t0 < 2.0);
    assert_int_equal(err.status, SIM_ERR_IO);
    assert_string_equal(err.msg, "the trace is a FIFO (pipe), not a regular file; warpsim reads only "
                                 "regular files (save it to a file first)");
}

static void test_source_read_refuses_devices_and_fifos(void **s)
{
    (void)s;
    char msg[512];
    size_t len;
    assert_null(source_read_file("/dev/zero", &len, msg, sizeof msg));
    assert_string_equal(msg, "/dev/zero: the file is a character device, not a regular file; warpsim reads "
                             "only regular files (save it to a file first)");
    const char *fifo = make_fifo();
    assert_null(source_read_file(fifo, &len, msg, sizeof msg));
    assert_non_null(strstr(msg, "the file is a FIFO (pipe), not a regular file"));
    assert_null(source_read_file(tmpdir, &len, msg, sizeof msg));
    assert_non_null(strstr(msg, "the file is a folder, not a regular file"));
}

static void test_file_read_refuses_a_file_over_its_limit_before_reading(void **s)
{
    (void)s;
    char big[100];
    memset(big, 'x', sizeof big);
    const char *p = tmp_path("big");
    write_bytes(p, big, sizeof big);
    SimError err;
    size_t len;
    assert_null(file_read_all(p, 50, "trace", &len, &err));
    assert_int_equal(err.status, SIM_ERR_IO);
    assert_string_equal(err.msg, "the trace is 100 bytes, over the 50 bytes limit for a trace");
    char *t = file_read_all(p, 100, "trace", &len, &err);
    assert_non_null(t);
    assert_int_equal(len, 100);
    assert_int_equal(t[100], 0);
    free(t);
    FILE *f = file_open_regular(p, 99, "script", &err);
    assert_null(f);
    assert_string_equal(err.msg, "the script is 100 bytes, over the 99 bytes limit for a script");
}

static void test_file_size_text_names_units(void **s)
{
    (void)s;
    char b[32];
    assert_string_equal(file_size_text(1, b, sizeof b), "1 byte");
    assert_string_equal(file_size_text(65536, b, sizeof b), "64 KiB");
    assert_string_equal(file_size_text((uint64_t)3 << 29, b, sizeof b), "1.5 GiB");
}

static void test_arg_file_refuses_dev_zero_and_fifos(void **s)
{
    (void)s;
    ArgSpec a;
    char msg[512];
    assert_false(argspec_parse("buf:i32[4]=file:/dev/zero", &a, msg, sizeof msg));
    assert_string_equal(msg, "--arg 'buf:i32[4]=file:/dev/zero': '/dev/zero': the data file is a character "
                             "device, not a regular file; warpsim reads only regular files (save it to a "
                             "file first)");
    char spec[256];
    snprintf(spec, sizeof spec, "buf:i32[4]=file:%s", make_fifo());
    assert_false(argspec_parse(spec, &a, msg, sizeof msg));
    assert_non_null(strstr(msg, "the data file is a FIFO (pipe)"));
}

static void test_step_script_refuses_dev_zero(void **s)
{
    (void)s;
    char msg[512];
    assert_null(step_input_open("/dev/zero", NULL, msg, sizeof msg));
    assert_string_equal(msg, "cannot open script '/dev/zero': the script is a character device, not a regular "
                             "file; warpsim reads only regular files (save it to a file first)");
}

/* ---- traces: truncated and lying ---------------------------------------- */

static const char KPTX[] = ".version 8.0\n.target sm_90\n.address_size 64\n"
                           ".visible .entry k(.param .u64 p)\n{\n"
                           "\t.reg .b32 %r<3>;\n\t.reg .b64 %rd<3>;\n"
                           "\tld.param.u64 %rd1, [p];\n\tcvta.to.global.u64 %rd2, %rd1;\n"
                           "\tmov.u32 %r1, %tid.x;\n\tst.global.u32 [%rd2], %r1;\n\tret;\n}\n";

/* A real trace of a small launch, read into *len bytes. */
static uint8_t *small_trace(size_t *len)
{
    SimError err;
    Device *d = device_open_sim("sm_90", &err);
    assert_non_null(d);
    DeviceModule *m;
    assert_int_equal(device_load_ptx(d, "k.ptx", KPTX, strlen(KPTX), &m, &err), SIM_OK);
    DevicePtr buf;
    assert_int_equal(device_malloc(d, 64, &buf, &err), SIM_OK);
    void *args[] = {&buf};
    const char *path = tmp_path("small.wst");
    DeviceLaunch cfg = {.grid = {2, 1, 1}, .block = {32, 1, 1}, .trace_path = path,
                        .trace_level = TRACE_LEVEL_MEMORY};
    DeviceStats st;
    assert_int_equal(device_launch(m, "k", &cfg, args, &st, NULL, &err), SIM_OK);
    device_close(d);
    char msg[256];
    uint8_t *t = (uint8_t *)source_read_file(path, len, msg, sizeof msg);
    assert_non_null(t);
    return t;
}

static void expect_trace_error(const uint8_t *d, size_t n, const char *want)
{
    const char *p = tmp_path("bad.wst");
    write_bytes(p, d, n);
    SimError err;
    TraceReader *r = trace_open_file(p, &err);
    if (r)
        trace_close(r);
    assert_null(r);
    assert_int_equal(err.status, SIM_ERR_PARSE);
    if (!strstr(err.msg, want))
        fail_msg("expected \"%s\" in \"%s\"", want, err.msg);
}

static void test_trace_truncated_anywhere_is_an_error(void **s)
{
    (void)s;
    size_t n;
    uint8_t *t = small_trace(&n);
    const char *p = tmp_path("ok.wst");
    write_bytes(p, t, n);
    SimError err;
    TraceReader *r = trace_open_file(p, &err);
    assert_non_null(r);
    trace_close(r);
    expect_trace_error(t, 40, "the header is cut short: 40 of 72 bytes");
    expect_trace_error(t, n / 2, "byte ");
    expect_trace_error(t, n - 1, "(truncated?)");
    free(t);
}

static void test_trace_lying_header_is_an_error(void **s)
{
    (void)s;
    size_t n;
    uint8_t *t = small_trace(&n);
    uint8_t *c = malloc(n);
    assert_non_null(c);
    /* four billion strings in a file of a few hundred bytes */
    memcpy(c, t, n);
    memset(c + 68, 0xff, 4);
    expect_trace_error(c, n, "byte 68: 4294967295 strings cannot fit in the");
    /* a grid of 2^31 x 65535 x 65535 blocks: over CUDA's limits */
    memcpy(c, t, n);
    memset(c + 24, 0xff, 8);
    expect_trace_error(c, n, "byte 20: grid");
    /* the first string claims to be 4 GiB long */
    memcpy(c, t, n);
    memset(c + 72, 0xff, 4);
    expect_trace_error(c, n, "byte 72: string 0: 4294967295 bytes run past the end of the file");
    free(c);
    free(t);
}

/* ---- the PTX parser: linear in its input -------------------------------- */

static char *gen_params(int n, size_t *len)
{
    size_t cap = (size_t)n * 40 + 256, o = 0;
    char *t = malloc(cap);
    assert_non_null(t);
    o += (size_t)snprintf(t + o, cap - o, ".version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k(\n");
    for (int i = 0; i < n; i++)
        o += (size_t)snprintf(t + o, cap - o, "\t.param .u32 k_param_%d%s\n", i, i + 1 < n ? "," : "");
    o += (size_t)snprintf(t + o, cap - o, ")\n{\n\tret;\n}\n");
    *len = o;
    return t;
}

static char *gen_insts(int n, size_t *len)
{
    size_t cap = (size_t)n * 40 + 256, o = 0;
    char *t = malloc(cap);
    assert_non_null(t);
    o += (size_t)snprintf(t + o, cap - o,
                          ".version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n"
                          "\t.reg .b32 %%r<101>;\n");
    for (int i = 0; i < n; i++)
        o += (size_t)snprintf(t + o, cap - o, "\tadd.s32 %%r%d, %%r%d, %d;\n", i % 100 + 1, (i + 1) % 100 + 1,
                              i);
    o += (size_t)snprintf(t + o, cap - o, "\tret;\n}\n");
    *len = o;
    return t;
}

static void test_ptx_parses_a_million_parameters_in_seconds(void **s)
{
    (void)s;
    size_t len;
    char *t = gen_params(1000000, &len);
    SimError err;
    double t0 = now();
    PtxModule *m = ptx_parse_module("params.ptx", t, len, &err);
    double took = now() - t0;
    if (!m)
        fail_msg("%s", err.msg);
    assert_int_equal(m->funcs[0].n_params, 1000000);
    /* was over 120 s (a quadratic duplicate check); a few seconds even
     * under a sanitizer */
    assert_true(took < 20.0);
    size_t bytes = ptx_module_bytes(m);
    if (bytes > 12 * len)
        fail_msg("%zu bytes of module for %zu bytes of text", bytes, len);
    ptx_module_free(m);
    /* the map that made it linear still finds a duplicate */
    memcpy(strstr(t, "k_param_999999"), "k_param_1\t\t\t\t\t", 14);
    assert_null(ptx_parse_module("params.ptx", t, len, &err));
    assert_string_equal(err.msg, "duplicate parameter 'k_param_1'");
    free(t);
}

static void test_ptx_parses_a_million_instructions_in_proportion(void **s)
{
    (void)s;
    size_t len;
    char *t = gen_insts(1000000, &len);
    SimError err;
    double t0 = now();
    PtxModule *m = ptx_parse_module("insts.ptx", t, len, &err);
    double took = now() - t0;
    if (!m)
        fail_msg("%s", err.msg);
    assert_int_equal(m->funcs[0].n_insts, 1000001);
    assert_true(took < 20.0);
    /* a fixed 712-byte instruction made this 50 times the text; now the
     * instruction holds exactly its operands */
    size_t bytes = ptx_module_bytes(m);
    if (bytes > 16 * len)
        fail_msg("%zu bytes of module for %zu bytes of text", bytes, len);
    const PtxInst *in = &m->funcs[0].insts[999999];
    assert_string_equal(in->opcode, "add");
    assert_int_equal(in->n_mods, 1);
    assert_string_equal(in->mods[0], "s32");
    assert_int_equal(in->n_opnds, 3);
    assert_int_equal(in->opnds[2].ival, 999999);
    ptx_module_free(m);
    free(t);
}

static void expect_ptx_error(const char *text, int line, int col, const char *msg)
{
    SimError err;
    PtxModule *m = ptx_parse_module("bad.ptx", text, strlen(text), &err);
    ptx_module_free(m);
    assert_null(m);
    assert_int_equal(err.status, SIM_ERR_PARSE);
    assert_string_equal(err.msg, msg);
    assert_int_equal(err.line, line);
    assert_int_equal(err.col, col);
}

#define HDR ".version 8.0\n.target sm_90\n.address_size 64\n"

static void test_ptx_rejects_what_ptxas_rejects(void **s)
{
    (void)s;
    expect_ptx_error(HDR ".visible .entry k()\n{\n\t.reg .f64 %fd<2>;\n\tmov.f64 %fd1, 1e99999;\n\tret;\n}\n", 7, 16,
                     "float literal out of range (beyond 1.8e308): '1e99999'");
    expect_ptx_error(HDR ".visible .entry k()\n{\n\t.reg .f64 %fd<2>;\n\tmov.f64 %fd1, -1.5e400;\n\tret;\n}\n", 7, 17,
                     "float literal out of range (beyond 1.8e308): '1.5e400'");
    expect_ptx_error(HDR ".visible .entry k()\n.reqntid 0\n{\n\tret;\n}\n", 5, 10,
                     "thread count in '.reqntid' out of range (1..2147483647)");
    expect_ptx_error(HDR ".visible .entry k()\n.maxntid 256, 0, 1\n{\n\tret;\n}\n", 5, 15,
                     "thread count in '.maxntid' out of range (1..2147483647)");
    expect_ptx_error(HDR ".visible .entry k()\n.reqnctapercluster 2, 1, 0\n{\n\tret;\n}\n", 5, 26,
                     "CTA count in '.reqnctapercluster' out of range (1..2147483647)");
    /* the smallest and largest doubles still parse */
    SimError err;
    const char *ok = HDR ".visible .entry k()\n.reqntid 1\n{\n\t.reg .f64 %fd<2>;\n"
                         "\tmov.f64 %fd1, 1.7e308;\n\tmov.f64 %fd1, 1e-400;\n\tret;\n}\n";
    PtxModule *m = ptx_parse_module("ok.ptx", ok, strlen(ok), &err);
    if (!m)
        fail_msg("%s", err.msg);
    ptx_module_free(m);
}

/* ---- memory a kernel may ask for ---------------------------------------- */

static const char LOCAL_PTX[] = HDR ".visible .entry k()\n{\n\t.local .align 4 .b8 buf[65536];\n\tret;\n}\n";

static void test_local_memory_over_the_limit_is_a_finding(void **s)
{
    (void)s;
    SimError err;
    Device *d = device_open_sim("sm_90", &err);
    assert_non_null(d);
    assert_int_equal(device_memory_limit(d), 0);
    device_set_memory_limit(d, (uint64_t)256 << 20);
    DeviceModule *m;
    assert_int_equal(device_load_ptx(d, "local.ptx", LOCAL_PTX, strlen(LOCAL_PTX), &m, &err), SIM_OK);
    DeviceLaunch cfg = {.grid = {8, 1, 1}, .block = {1024, 1, 1}};
    DeviceStats st;
    DeviceFault f;
    double t0 = now();
    assert_int_equal(device_launch(m, "k", &cfg, NULL, &st, &f, &err), SIM_ERR_FAULT);
    assert_true(now() - t0 < 1.0); /* refused before allocating 512 MiB */
    assert_string_equal(f.kind, "memory-limit");
    assert_string_equal(f.msg, "local memory: 64 KiB per thread \u00d7 1024 threads \u00d7 8 resident blocks = "
                               "512 MiB exceeds the 256 MiB limit (514.8 MiB in all; --max-memory sets it)");
    /* under the limit the same kernel runs */
    cfg.grid.x = 2;
    cfg.block.x = 256;
    assert_int_equal(device_launch(m, "k", &cfg, NULL, &st, &f, &err), SIM_OK);
    device_close(d);
}

/* The blocks the simulator holds at once, which a grader's memory estimate
 * counts: blocks per SM (occupancy) x SMs, never more than the grid.  The
 * grader once counted every block of the grid, refusing a big grid of a
 * kernel with modest local memory. */
static void test_resident_blocks_are_per_sm_times_sms_capped_by_the_grid(void **s)
{
    (void)s;
    SimError err;
    Device *d = device_open_sim("sm_90", &err);
    assert_non_null(d);
    const char *smem = HDR ".visible .entry big()\n{\n\t.shared .align 4 .b8 tile[49152];\n\tret;\n}\n";
    DeviceModule *m, *m2;
    assert_int_equal(device_load_ptx(d, "local.ptx", LOCAL_PTX, strlen(LOCAL_PTX), &m, &err), SIM_OK);
    assert_int_equal(device_load_ptx(d, "smem.ptx", smem, strlen(smem), &m2, &err), SIM_OK);
    /* 256-thread blocks: 8 per SM (2048 threads) on each of sm_90's 132 SMs */
    DeviceLaunch cfg = {.grid = {100000, 1, 1}, .block = {256, 1, 1}};
    assert_int_equal(device_resident_blocks(m, "k", &cfg), 8 * 132);
    cfg.block.x = 1024; /* 2 per SM */
    assert_int_equal(device_resident_blocks(m, "k", &cfg), 2 * 132);
    cfg.grid = (DeviceDim3){10, 10, 10}; /* 1000 blocks in three dimensions */
    assert_int_equal(device_resident_blocks(m, "k", &cfg), 2 * 132);
    cfg.grid = (DeviceDim3){391, 1, 1}; /* all of a smaller grid, not the 396 slots it lays out */
    cfg.block.x = 256;
    assert_int_equal(device_resident_blocks(m, "k", &cfg), 391);
    cfg.grid.x = 3;
    assert_int_equal(device_resident_blocks(m, "k", &cfg), 3);
    /* 48 KiB of shared memory a block: 4 fit in sm_90's 228 KiB */
    cfg.grid.x = 100000;
    assert_int_equal(device_resident_blocks(m2, "big", &cfg), 4 * 132);
    assert_int_equal(device_resident_blocks(m, "nosuch", &cfg), 0);
    /* the memory limit counts the same blocks: 64 KiB x 256 threads x 1056 */
    device_set_memory_limit(d, (uint64_t)1 << 30);
    DeviceFault f;
    DeviceStats st;
    assert_int_equal(device_launch(m, "k", &cfg, NULL, &st, &f, &err), SIM_ERR_FAULT);
    assert_non_null(strstr(f.msg, "64 KiB per thread \u00d7 256 threads \u00d7 1056 resident blocks = 16.5 GiB"));
    device_close(d);
}

static void test_global_memory_over_the_limit_is_refused(void **s)
{
    (void)s;
    SimError err;
    Device *d = device_open_sim("sm_90", &err);
    assert_non_null(d);
    device_set_memory_limit(d, (uint64_t)1 << 20);
    DevicePtr p;
    assert_int_equal(device_malloc(d, 768 << 10, &p, &err), SIM_OK);
    assert_int_equal(device_malloc(d, 512 << 10, &p, &err), SIM_ERR_USAGE);
    assert_string_equal(err.msg, "global memory: 512 KiB of device_malloc on top of the 768 KiB allocated "
                                 "exceeds the 1 MiB memory limit (--max-memory sets it)");
    const char *big = HDR ".global .align 4 .b8 g[2097152];\n.visible .entry k()\n{\n\tret;\n}\n";
    DeviceModule *m;
    assert_int_equal(device_load_ptx(d, "big.ptx", big, strlen(big), &m, &err), SIM_ERR_USAGE);
    assert_string_equal(err.msg, "global memory: 2 MiB of module variables on top of the 768 KiB allocated "
                                 "exceeds the 1 MiB memory limit (--max-memory sets it)");
    assert_string_equal(err.file, "big.ptx");
    device_close(d);
}

static void test_launch_parse_bytes_takes_units(void **s)
{
    (void)s;
    uint64_t v;
    assert_true(launch_parse_bytes("4096", &v));
    assert_int_equal(v, 4096);
    assert_true(launch_parse_bytes("256M", &v));
    assert_int_equal(v, (uint64_t)256 << 20);
    assert_true(launch_parse_bytes("4GiB", &v));
    assert_int_equal(v, (uint64_t)4 << 30);
    assert_true(launch_parse_bytes("64k", &v));
    assert_int_equal(v, 65536);
    assert_false(launch_parse_bytes("0", &v));
    assert_false(launch_parse_bytes("-1", &v));
    assert_false(launch_parse_bytes("12X", &v));
    assert_false(launch_parse_bytes("99999999999T", &v));
}

/* ---- time and output ---------------------------------------------------- */

static const char SPIN_PTX[] = HDR ".visible .entry spin()\n{\n\t.reg .b32 %r<2>;\n\tmov.u32 %r1, 0;\n"
                                   "$L:\n\tadd.s32 %r1, %r1, 1;\n\tbra.uni $L;\n}\n";

static void test_budget_fault_says_how_to_raise_it(void **s)
{
    (void)s;
    SimError err;
    Device *d = device_open_sim("sm_90", &err);
    assert_non_null(d);
    DeviceModule *m;
    assert_int_equal(device_load_ptx(d, "spin.ptx", SPIN_PTX, strlen(SPIN_PTX), &m, &err), SIM_OK);
    DeviceLaunch cfg = {.grid = {1, 1, 1}, .block = {32, 1, 1}, .inst_budget = 1000};
    DeviceStats st;
    DeviceFault f;
    assert_int_equal(device_launch(m, "spin", &cfg, NULL, &st, &f, &err), SIM_ERR_FAULT);
    assert_string_equal(f.kind, "budget-exceeded");
    assert_string_equal(f.msg, "the launch executed 1000 warp instructions, its instruction budget (an infinite "
                               "loop?  If not, raise the budget: --budget N, or DeviceLaunch.inst_budget)");
    device_close(d);
}

/* A kernel `flood` whose every thread calls vprintf once with the n bytes
 * of fmt as its format (a NUL among them or not) and four copies of its
 * %tid.x as arguments. */
static char *printf_ptx_of(const char *fmt, size_t n)
{
    char bytes[256] = "";
    size_t o = 0;
    for (size_t i = 0; i < n; i++)
        o += (size_t)snprintf(bytes + o, sizeof bytes - o, "%s%d", i ? ", " : "", (unsigned char)fmt[i]);
    char *t = malloc(2048);
    assert_non_null(t);
    snprintf(t, 2048,
             HDR ".extern .func (.param .b32 func_retval0) vprintf\n(\n\t.param .b64 vprintf_param_0,\n"
                 "\t.param .b64 vprintf_param_1\n)\n;\n"
                 ".global .align 1 .b8 $str[%zu] = {%s};\n"
                 ".visible .entry flood()\n{\n\t.local .align 16 .b8 __local_depot0[16];\n"
                 "\t.reg .b64 %%SP;\n\t.reg .b64 %%SPL;\n\t.reg .b32 %%r<3>;\n\t.reg .b64 %%rd<3>;\n"
                 "\tmov.u64 %%SPL, __local_depot0;\n\tcvta.local.u64 %%SP, %%SPL;\n\tmov.u32 %%r1, %%tid.x;\n"
                 "\tst.local.v4.u32 [%%SPL], {%%r1, %%r1, %%r1, %%r1};\n\tmov.u64 %%rd1, $str;\n"
                 "\tcvta.global.u64 %%rd2, %%rd1;\n\t{\n\t.param .b64 param0;\n\tst.param.b64 [param0], %%rd2;\n"
                 "\t.param .b64 param1;\n\tst.param.b64 [param1], %%SP;\n\t.param .b32 retval0;\n"
                 "\tcall.uni (retval0), vprintf, (param0, param1);\n\tld.param.b32 %%r2, [retval0];\n\t}\n"
                 "\tret;\n}\n",
             n, bytes);
    return t;
}

/* vprintf of "%400d%400d%400d%400d\n": 1601 bytes a thread */
static char *printf_ptx(void)
{
    static const char fmt[] = "%400d%400d%400d%400d\n";
    return printf_ptx_of(fmt, sizeof fmt);
}

static void test_printf_past_64_mib_is_counted_not_lost_silently(void **s)
{
    (void)s;
    SimError err;
    Device *d = device_open_sim("sm_90", &err);
    assert_non_null(d);
    char *ptx = printf_ptx();
    DeviceModule *m;
    if (device_load_ptx(d, "flood.ptx", ptx, strlen(ptx), &m, &err))
        fail_msg("%s:%d:%d: %s", err.file, err.line, err.col, err.msg);
    DeviceLaunch cfg = {.grid = {1, 1, 1}, .block = {32, 1, 1}};
    DeviceStats st;
    assert_int_equal(device_launch(m, "flood", &cfg, NULL, &st, NULL, &err), SIM_OK);
    assert_int_equal(strlen(device_printf_output(d)), 32 * 1601);
    assert_int_equal(st.printf_dropped, 0);
    /* 48 x 1024 threads print 78.6 MB: 64 MiB kept, the rest counted */
    cfg.grid.x = 48;
    cfg.block.x = 1024;
    assert_int_equal(device_launch(m, "flood", &cfg, NULL, &st, NULL, &err), SIM_OK);
    size_t kept = strlen(device_printf_output(d));
    assert_true(kept <= DEVICE_PRINTF_MAX);
    assert_int_equal(kept + st.printf_dropped, (uint64_t)48 * 1024 * 1601);
    device_close(d);
    free(ptx);
}

/* A grader's printf ceiling: past it the launch stops with a printf-limit
 * fault that names the limit, keeping the output written before. */
static void test_printf_past_the_printf_limit_stops_the_launch(void **s)
{
    (void)s;
    SimError err;
    Device *d = device_open_sim("sm_90", &err);
    assert_non_null(d);
    assert_int_equal(device_printf_limit(d), 0);
    device_set_printf_limit(d, 64 * 1024);
    assert_int_equal(device_printf_limit(d), 64 * 1024);
    char *ptx = printf_ptx();
    DeviceModule *m;
    if (device_load_ptx(d, "flood.ptx", ptx, strlen(ptx), &m, &err))
        fail_msg("%s:%d:%d: %s", err.file, err.line, err.col, err.msg);
    /* 32 threads print 51 KB: under the limit, whole */
    DeviceLaunch cfg = {.grid = {1, 1, 1}, .block = {32, 1, 1}};
    DeviceStats st;
    DeviceFault f;
    assert_int_equal(device_launch(m, "flood", &cfg, NULL, &st, &f, &err), SIM_OK);
    assert_int_equal(strlen(device_printf_output(d)), 32 * 1601);
    /* 8 x 256 threads would print 3.3 MB: stopped at the 41st call, 65641 bytes */
    cfg.grid.x = 8;
    cfg.block.x = 256;
    assert_int_equal(device_launch(m, "flood", &cfg, NULL, &st, &f, &err), SIM_ERR_FAULT);
    assert_string_equal(f.kind, "printf-limit");
    assert_string_equal(f.msg, "printf wrote more than 64 KiB, this launch's printf limit; the launch was stopped");
    assert_int_equal(f.thread.x, 40);
    assert_int_equal(strlen(device_printf_output(d)), 41 * 1601);
    assert_int_equal(st.printf_dropped, 0);
    device_close(d);
    free(ptx);
}

/* A format string with no NUL before the end of its variable: printf reads
 * it a run at a time now, and still faults at the first byte past it, as
 * a one-byte read there does. */
static void test_printf_format_running_off_its_variable_faults_there(void **s)
{
    (void)s;
    SimError err;
    Device *d = device_open_sim("sm_90", &err);
    assert_non_null(d);
    char *ptx = printf_ptx_of("%d and more", 11);
    DeviceModule *m;
    if (device_load_ptx(d, "flood.ptx", ptx, strlen(ptx), &m, &err))
        fail_msg("%s:%d:%d: %s", err.file, err.line, err.col, err.msg);
    DeviceLaunch cfg = {.grid = {1, 1, 1}, .block = {32, 1, 1}};
    DeviceStats st;
    DeviceFault f;
    assert_int_equal(device_launch(m, "flood", &cfg, NULL, &st, &f, &err), SIM_ERR_FAULT);
    assert_string_equal(f.kind, "out-of-bounds");
    assert_non_null(strstr(f.msg, "1-byte read at global address"));
    assert_non_null(strstr(f.msg, "1 bytes past the end of variable $str (11 bytes"));
    assert_int_equal(f.thread.x, 0);
    assert_string_equal(device_printf_output(d), "");
    device_close(d);
    free(ptx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_trace_open_refuses_dev_zero),
        cmocka_unit_test(test_trace_open_refuses_a_fifo_without_waiting),
        cmocka_unit_test(test_source_read_refuses_devices_and_fifos),
        cmocka_unit_test(test_file_read_refuses_a_file_over_its_limit_before_reading),
        cmocka_unit_test(test_file_size_text_names_units),
        cmocka_unit_test(test_arg_file_refuses_dev_zero_and_fifos),
        cmocka_unit_test(test_step_script_refuses_dev_zero),
        cmocka_unit_test(test_trace_truncated_anywhere_is_an_error),
        cmocka_unit_test(test_trace_lying_header_is_an_error),
        cmocka_unit_test(test_ptx_parses_a_million_parameters_in_seconds),
        cmocka_unit_test(test_ptx_parses_a_million_instructions_in_proportion),
        cmocka_unit_test(test_ptx_rejects_what_ptxas_rejects),
        cmocka_unit_test(test_local_memory_over_the_limit_is_a_finding),
        cmocka_unit_test(test_global_memory_over_the_limit_is_refused),
        cmocka_unit_test(test_launch_parse_bytes_takes_units),
        cmocka_unit_test(test_budget_fault_says_how_to_raise_it),
        cmocka_unit_test(test_resident_blocks_are_per_sm_times_sms_capped_by_the_grid),
        cmocka_unit_test(test_printf_past_64_mib_is_counted_not_lost_silently),
        cmocka_unit_test(test_printf_past_the_printf_limit_stops_the_launch),
        cmocka_unit_test(test_printf_format_running_off_its_variable_faults_there),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
