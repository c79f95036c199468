/* test_exec_corpus.c: the executor fuzzer's finds, replayed, and the
 * decoder's answers to them pinned.
 *
 * Every file in tests/corpus/exec/ goes through the same recipe as
 * tests/fuzz_exec.c (included here, so the two cannot drift): load, fill
 * the parameters, launch the first .entry.  Under `make test` that shows
 * nothing crashes or hangs; under `make asan` / `make ubsan` it shows
 * nothing reads outside its operands either.  The tests after the replay
 * check the status and message each fixed bug now gets (SQLite style: every
 * fuzzer find kept, every fix with the test that would have caught it).
 * Run from the repository root. */
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#define FUZZ_EXEC_NO_MAIN
#include "fuzz_exec.c"

#define CORPUS "tests/corpus/exec"

/* ---- replay ------------------------------------------------------------- */

static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *buf = NULL;
    size_t n = 0, cap = 0;
    for (;;) {
        if (n == cap) {
            cap = cap ? cap * 2 : 4096;
            char *nb = realloc(buf, cap);
            if (!nb)
                break;
            buf = nb;
        }
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (!got)
            break;
    }
    fclose(f);
    *len = n;
    return buf;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static void test_exec_corpus_replays_without_crash(void **state)
{
    (void)state;
    DIR *dir = opendir(CORPUS);
    if (!dir)
        fail_msg("cannot open %s (run the tests from the repository root)", CORPUS);
    char *names[4096];
    int n = 0;
    for (struct dirent *e; (e = readdir(dir)) && n < 4096;)
        if (e->d_name[0] != '.')
            names[n++] = strdup(e->d_name);
    closedir(dir);
    qsort(names, (size_t)n, sizeof *names, by_name);
    assert_true(n > 0);
    int loaded = 0;
    for (int i = 0; i < n; i++) {
        char path[512];
        snprintf(path, sizeof path, "%s/%s", CORPUS, names[i]);
        size_t len = 0;
        char *text = slurp(path, &len);
        if (!text)
            fail_msg("cannot read %s", path);
        SimStatus st = fuzz_exec_run(text, len);
        /* a status, never a crash: ok, a fault, or a load that said why */
        if (st != SIM_OK && st != SIM_ERR_FAULT && st != SIM_ERR_PARSE &&
            st != SIM_ERR_UNSUPPORTED && st != SIM_ERR_USAGE)
            fail_msg("%s: unexpected status %d", path, (int)st);
        loaded += st == SIM_OK || st == SIM_ERR_FAULT;
        free(text);
        free(names[i]);
    }
    print_message("replayed %d inputs, %d launched\n", n, loaded);
}

/* ---- what the decoder says now ---------------------------------------- */

static const char *hdr = ".version 8.0\n.target sm_90\n.address_size 64\n";

/* A kernel k with a few registers of each kind around body. */
static char *kernel(const char *body)
{
    static char buf[4096];
    snprintf(buf, sizeof buf,
             "%s.visible .entry k(.param .u64 p0)\n{\n.reg .pred %%p<4>;\n.reg .b16 %%rs<4>;\n"
             ".reg .b32 %%r<8>;\n.reg .b64 %%rd<8>;\n.reg .f32 %%f<4>;\n%s\n}\n",
             hdr, body);
    return buf;
}

/* Load text and launch its kernel k (when the load succeeds and k has at
 * most one parameter, a pointer to a buffer): an instruction the simulator lacks no longer fails
 * the load, it refuses the launch of a kernel that can reach it.  Returns
 * the status, the message in msg. */
static SimStatus load(const char *text, char *msg, size_t cap, int *line)
{
    SimError err;
    memset(&err, 0, sizeof err);
    Device *d = device_open_sim("sm_90", &err);
    assert_non_null(d);
    DeviceModule *m = NULL;
    SimStatus st = device_load_ptx(d, "t.ptx", text, strlen(text), &m, &err);
    if (st == SIM_OK && device_entry_index(m, "k") >= 0 && device_kernel_nparams(m, "k") <= 1) {
        DevicePtr buf = 0;
        assert_int_equal(device_malloc(d, 4096, &buf, &err), SIM_OK);
        static uint8_t big[32768]; /* as large as any parameter k may have */
        memcpy(big, &buf, sizeof buf);
        void *args[] = {big};
        DeviceLaunch cfg = {.grid = {1, 1, 1}, .block = {1, 1, 1}, .inst_budget = 1000};
        st = device_launch(m, "k", &cfg, args, NULL, NULL, &err);
        if (st == SIM_ERR_FAULT)
            st = SIM_OK; /* it ran (into a fault of its own): the decoder took it */
    }
    snprintf(msg, cap, "%s", st ? err.msg : "");
    if (line)
        *line = err.line;
    device_close(d);
    return st;
}

static void expect_unsupported(const char *text, const char *want, int want_line)
{
    char msg[512];
    int line = 0;
    SimStatus st = load(text, msg, sizeof msg, &line);
    if (st != SIM_ERR_UNSUPPORTED || !strstr(msg, want))
        fail_msg("status %d, message \"%s\"; wanted SIM_ERR_UNSUPPORTED with \"%s\"", (int)st, msg,
                 want);
    if (want_line && line != want_line)
        fail_msg("error on line %d, wanted %d (%s)", line, want_line, msg);
}

/* The body's first instruction is on line 11 of kernel(). */
#define BODY_LINE 11

static void test_exec_decode_rejects_sink_destinations(void **state)
{
    (void)state;
    static const char *const bodies[] = {
        "mov.u32 _, 1;",
        "add.f32 _, %f1, %f2;",
        "cvt.u32.u64 _, %rd1;",
        "cvta.to.global.u64 _, %rd1;",
        "selp.b32 _, 1, 2, %p1;",
        "set.eq.u32.u32 _, %r1, %r2;",
        "slct.u32.s32 _, %r1, %r2, %r3;",
        "mov.b64 _, {%r1, %r2};",
        "shfl.sync.idx.b32 _, %r1, 0, 31, -1;",
        "vote.sync.ballot.b32 _, %p1, -1;",
        "match.any.sync.b32 _, %r1, -1;",
        "redux.sync.add.u32 _, %r1, -1;",
        "activemask.b32 _;",
        "bar.red.popc.u32 _, 0, %p1;",
    };
    for (size_t i = 0; i < sizeof bodies / sizeof *bodies; i++)
        expect_unsupported(kernel(bodies[i]), "operand 1 cannot be '_': the instruction writes its result",
                           BODY_LINE);
    static const char *const preds[] = {
        "mov.pred _, %p1;",
        "vote.sync.all.pred _, %p1, -1;",
        "testp.finite.f32 _, %f1;",
        "bar.red.and.pred _, 0, %p1;",
    };
    for (size_t i = 0; i < sizeof preds / sizeof *preds; i++)
        expect_unsupported(kernel(preds[i]), "operand 1 cannot be '_': the instruction writes a predicate",
                           BODY_LINE);
}

static void test_exec_decode_rejects_predicates_in_vectors(void **state)
{
    (void)state;
    expect_unsupported(kernel("ld.param.v2.u32 {%p1, %p2}, [p0];"),
                       "'ld.param.v2.u32': element 1 of operand 1 is a predicate", BODY_LINE);
    expect_unsupported(kernel("st.global.v2.u32 [%rd1], {%r1, %p2};"),
                       "element 2 of operand 2 is a predicate", BODY_LINE);
    expect_unsupported(kernel("mov.b64 {%p1, %p2}, %rd1;"), "element 1 of operand 1 is a predicate",
                       BODY_LINE);
    expect_unsupported(kernel("mov.b64 %rd1, {%r1, %p2};"), "element 2 of operand 2 is a predicate",
                       BODY_LINE);
    expect_unsupported(kernel("mov.b64 %rd1, {%r1, _};"), "'_' as element 2 of operand 2", BODY_LINE);
}

static void test_exec_decode_rejects_bad_second_destination(void **state)
{
    (void)state;
    expect_unsupported(kernel("match.all.sync.b32 %r2|%r3, %r1, -1;"),
                       "the destination after '|' must be a predicate", BODY_LINE);
    expect_unsupported(kernel("shfl.sync.idx.b32 %r2|%rd3, %r1, 0, 31, -1;"),
                       "the destination after '|' must be a predicate", BODY_LINE);
    expect_unsupported(kernel("match.all.sync.b16 %r2, %rs1, -1;"), "needs .b32 or .b64", BODY_LINE);
}

static void test_exec_decode_rejects_b128_pack_and_split(void **state)
{
    (void)state;
    expect_unsupported(kernel("mov.b128 {%rd1, %rd2}, %rd3;"), "splitting or packing .b128", BODY_LINE);
    expect_unsupported(kernel("mov.b128 %rd3, {%rd1, %rd2};"), "splitting or packing .b128", BODY_LINE);
    expect_unsupported(kernel("mov.b16 %rs1, {%r1, %r2, %r3, %r4};"), "4 elements do not fit in .b16",
                       BODY_LINE);
}

static void test_exec_decode_rejects_call_to_kernel(void **state)
{
    (void)state;
    char text[1024];
    snprintf(text, sizeof text,
             "%s.visible .entry k2(.param .u64 q)\n{\nret;\n}\n"
             ".visible .entry k(.param .u64 p0)\n{\n.param .b64 a0;\nst.param.b64 [a0], 1;\n"
             "call.uni k2, (a0);\nret;\n}\n", hdr);
    expect_unsupported(text, "k2 is a kernel (.entry); only a .func can be called", 12);
}

static void test_exec_decode_limits_frames_params_and_const(void **state)
{
    (void)state;
    char text[1024];
    snprintf(text, sizeof text, "%s.visible .entry k()\n{\n.local .b8 big[1000000000];\nret;\n}\n", hdr);
    expect_unsupported(text, "exceed the 524288 bytes of local memory a thread may have", 0);
    snprintf(text, sizeof text, "%s.func f(.param .b8 x[600000])\n{\nret;\n}\n"
                                ".visible .entry k()\n{\nret;\n}\n", hdr);
    expect_unsupported(text, "call parameters (600000 bytes)", 0);
    snprintf(text, sizeof text, "%s.visible .entry k(.param .b8 p[100000])\n{\nret;\n}\n", hdr);
    expect_unsupported(text, "the parameters of kernel k take more than the 32764 bytes", 4);
    snprintf(text, sizeof text, "%s.const .b8 c[70000];\n.visible .entry k()\n{\nret;\n}\n", hdr);
    expect_unsupported(text, ".const variables take 70000 bytes; a constant bank holds 65536", 0);
    /* at the limits: fine */
    snprintf(text, sizeof text, "%s.const .b8 c[65536];\n.visible .entry k(.param .b8 p[32764])\n"
                                "{\n.local .b8 l[524288];\nret;\n}\n", hdr);
    char msg[512];
    assert_int_equal(load(text, msg, sizeof msg, NULL), SIM_OK);
}

/* Launch entry "k" of text with the fuzzer's recipe on d; fault filled. */
static SimStatus launch_k(Device *d, const char *text, DeviceFault *fault)
{
    SimError err;
    memset(&err, 0, sizeof err);
    DeviceModule *m = NULL;
    SimStatus st = device_load_ptx(d, "t.ptx", text, strlen(text), &m, &err);
    if (st != SIM_OK)
        fail_msg("load: %s", err.msg);
    DeviceLaunch cfg = {.grid = {1, 1, 1}, .block = {32, 1, 1}, .inst_budget = 20000};
    DevicePtr p = 0;
    assert_int_equal(device_malloc(d, 4096, &p, &err), SIM_OK);
    void *args[] = {&p, &p};
    memset(fault, 0, sizeof *fault);
    return device_launch(m, "k", &cfg, args, NULL, fault, &err);
}

static void test_exec_extern_entry_faults_instead_of_running_other_code(void **state)
{
    (void)state;
    char text[512];
    SimError err;
    DeviceFault fault;
    /* k declared only, and nothing else: the load used to say "out of memory" */
    snprintf(text, sizeof text, "%s.extern .entry k(.param .u64 p0);\n", hdr);
    Device *d = device_open_sim("sm_90", &err);
    assert_int_equal(launch_k(d, text, &fault), SIM_ERR_FAULT);
    assert_string_equal(fault.kind, "unsupported");
    assert_non_null(strstr(fault.msg, "kernel k is only declared (.extern)"));
    /* k declared before a kernel with a body: k used to run k2's code */
    snprintf(text, sizeof text, "%s.extern .entry k(.param .u64 p0);\n"
                                ".visible .entry k2()\n{\ntrap;\n}\n", hdr);
    assert_int_equal(launch_k(d, text, &fault), SIM_ERR_FAULT);
    assert_string_equal(fault.kind, "unsupported");
    device_close(d);
}

/* A module with a kernel the simulator cannot run (an instruction it lacks,
 * reached directly or through a call) still loads: that kernel is refused
 * at launch with the instruction, its PTX line and its .cu line, and the
 * module's other kernels run. */
static void test_exec_unsupported_instruction_refuses_only_its_kernels(void **state)
{
    (void)state;
    char text[2048];
    snprintf(text, sizeof text,
             "%s.file 1 \"/src/app/kern.cu\"\n"                               /* 4 */
             ".func helper()\n{\n.loc 1 7 3\nwgmma.fence.sync.aligned;\nret;\n}\n" /* 5-10: wgmma on 8 */
             ".visible .entry direct(.param .u64 p0)\n{\n"                   /* 11-12 */
             ".loc 1 12 5\nwgmma.fence.sync.aligned;\nret;\n}\n"             /* 13-16: wgmma on 14 */
             ".visible .entry via_call(.param .u64 p0)\n{\n.loc 1 20 1\ncall.uni helper, ();\nret;\n}\n"
             ".visible .entry fine(.param .u64 p0)\n{\n.reg .b32 %%r<2>;\n.reg .b64 %%rd<2>;\n"
             "ld.param.u64 %%rd1, [p0];\nmov.u32 %%r1, 42;\nst.global.u32 [%%rd1], %%r1;\nret;\n}\n",
             hdr);
    SimError err;
    memset(&err, 0, sizeof err);
    Device *d = device_open_sim("sm_90", &err);
    assert_non_null(d);
    DeviceModule *m = NULL;
    if (device_load_ptx(d, "t.ptx", text, strlen(text), &m, &err))
        fail_msg("the module should load: %s", err.msg);
    DevicePtr buf = 0;
    assert_int_equal(device_malloc(d, 64, &buf, &err), SIM_OK);
    void *args[] = {&buf};
    DeviceLaunch cfg = {.grid = {1, 1, 1}, .block = {32, 1, 1}, .inst_budget = 100000};
    DeviceFault fault;
    /* the kernel itself */
    assert_int_equal(device_launch(m, "direct", &cfg, args, NULL, &fault, &err), SIM_ERR_UNSUPPORTED);
    assert_int_equal(err.line, 14);
    assert_string_equal(err.file, "t.ptx");
    assert_non_null(strstr(err.msg, "kernel direct cannot run"));
    assert_non_null(strstr(err.msg, "wgmma.fence.sync.aligned"));
    assert_non_null(strstr(err.msg, "(kern.cu:12)"));
    /* through a call */
    memset(&err, 0, sizeof err);
    assert_int_equal(device_launch(m, "via_call", &cfg, args, NULL, &fault, &err), SIM_ERR_UNSUPPORTED);
    assert_int_equal(err.line, 8);
    assert_non_null(strstr(err.msg, "kernel via_call cannot run in helper, which it calls"));
    assert_non_null(strstr(err.msg, "(kern.cu:7)"));
    /* the other kernel runs */
    assert_int_equal(device_launch(m, "fine", &cfg, args, NULL, &fault, &err), SIM_OK);
    uint32_t v = 0;
    assert_int_equal(device_memcpy_dtoh(d, &v, buf, 4, &err), SIM_OK);
    assert_int_equal(v, 42);
    device_close(d);
}

static void test_exec_mov_b32_packs_halves_at_bit_16(void **state)
{
    (void)state;
    /* mov.b32 d, {lo, hi} of two 16-bit halves: hi lands in bits 16..31
     * (it used to be shifted by 32 and lost) */
    const char *text = kernel("ld.param.u64 %rd1, [p0];\nmov.b16 %rs1, 0x1234;\nmov.b16 %rs2, 0xabcd;\n"
                              "mov.b32 %r1, {%rs1, %rs2};\nmov.b32 {%rs3, _}, %r1;\n"
                              "cvt.u32.u16 %r2, %rs3;\nst.global.u32 [%rd1], %r1;\n"
                              "st.global.u32 [%rd1+4], %r2;");
    SimError err;
    DeviceFault fault;
    Device *d = device_open_sim("sm_90", &err);
    DeviceModule *m = NULL;
    assert_int_equal(device_load_ptx(d, "t.ptx", text, strlen(text), &m, &err), SIM_OK);
    DevicePtr p = 0;
    assert_int_equal(device_malloc(d, 8, &p, &err), SIM_OK);
    void *args[] = {&p};
    DeviceLaunch cfg = {.grid = {1, 1, 1}, .block = {1, 1, 1}};
    assert_int_equal(device_launch(m, "k", &cfg, args, NULL, &fault, &err), SIM_OK);
    uint32_t out[2];
    assert_int_equal(device_memcpy_dtoh(d, out, p, sizeof out, &err), SIM_OK);
    assert_int_equal(out[0], 0xabcd1234u);
    assert_int_equal(out[1], 0x1234u);
    device_close(d);
}

static void test_exec_printf_caps_width_and_precision(void **state)
{
    (void)state;
    /* "%.999999999f|%999999999d|%5.2f" with (1.5, 7, 2.25): used to keep
     * the host's snprintf busy for many seconds per lane */
    char text[2048];
    snprintf(text, sizeof text,
             "%s.global .align 1 .b8 fmt[40] = {37, 46, 57, 57, 57, 57, 57, 57, 57, 57, 57, 102, 124, 37, "
             "57, 57, 57, 57, 57, 57, 57, 57, 57, 100, 124, 37, 53, 46, 50, 102, 0};\n"
             ".extern .func (.param .b32 func_retval0) vprintf(.param .b64 a, .param .b64 b);\n"
             ".visible .entry k(.param .u64 p0)\n{\n.reg .b32 %%r<2>;\n.reg .b64 %%rd<4>;\n"
             ".local .align 8 .b8 buf[24];\n"
             "mov.u64 %%rd2, buf;\nmov.b64 %%rd3, 0d3FF8000000000000;\nst.local.u64 [%%rd2], %%rd3;\n"
             "mov.u32 %%r1, 7;\nst.local.u32 [%%rd2+8], %%r1;\n"
             "mov.b64 %%rd3, 0d4002000000000000;\nst.local.u64 [%%rd2+16], %%rd3;\n"
             "cvta.global.u64 %%rd1, fmt;\ncvta.local.u64 %%rd2, %%rd2;\n"
             "{\n.param .b64 a0;\nst.param.b64 [a0], %%rd1;\n.param .b64 a1;\nst.param.b64 [a1], %%rd2;\n"
             ".param .b32 r0;\ncall.uni (r0), vprintf, (a0, a1);\n}\nret;\n}\n",
             hdr);
    SimError err;
    DeviceFault fault;
    Device *d = device_open_sim("sm_90", &err);
    assert_int_equal(launch_k(d, text, &fault), SIM_OK);
    const char *out = device_printf_output(d);
    /* 32 lanes, each "1.5000...(400 digits)|<400 wide>7| 2.25" */
    char want[1024];
    int n = snprintf(want, sizeof want, "%.400f|%400d| 2.25", 1.5, 7);
    assert_int_equal(strlen(out), (size_t)32 * (size_t)n);
    assert_memory_equal(out, want, (size_t)n);
    device_close(d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_exec_corpus_replays_without_crash),
        cmocka_unit_test(test_exec_unsupported_instruction_refuses_only_its_kernels),
        cmocka_unit_test(test_exec_decode_rejects_sink_destinations),
        cmocka_unit_test(test_exec_decode_rejects_predicates_in_vectors),
        cmocka_unit_test(test_exec_decode_rejects_bad_second_destination),
        cmocka_unit_test(test_exec_decode_rejects_b128_pack_and_split),
        cmocka_unit_test(test_exec_decode_rejects_call_to_kernel),
        cmocka_unit_test(test_exec_decode_limits_frames_params_and_const),
        cmocka_unit_test(test_exec_extern_entry_faults_instead_of_running_other_code),
        cmocka_unit_test(test_exec_mov_b32_packs_halves_at_bit_16),
        cmocka_unit_test(test_exec_printf_caps_width_and_precision),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
