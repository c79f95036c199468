/* test_exec_ops.c: instruction-level end-to-end tests of the executor.
 * Each test runs a small hand-written PTX kernel (embedded below as a C
 * string) through the host API: inputs come from a global buffer, results go
 * to another, and every result is compared with a value computed here in
 * plain C -- plus a few constants worked out by hand, so a test cannot pass
 * by repeating the simulator's own arithmetic.  These cover the instructions
 * the kernel-level tests (test_exec.c) do not reach.  WARPSIM_BACKEND=gpu
 * runs the same binary on a real GPU; checks of rules the PTX ISA leaves
 * open are wrapped in SIM_ONLY.  Run from the repository root. */
#include <fenv.h>
#include <float.h>
#include <limits.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "alu.h"
#include "harness.h"

/* ---- harness ------------------------------------------------------------ */

static DeviceFault fault;

#define PTX_HEAD ".version 8.0\n.target sm_90\n.address_size 64\n"

/* A zero-filled buffer (written explicitly: the GPU backend need not). */
static DevicePtr zeros(size_t bytes)
{
    void *z = calloc(1, bytes);
    assert_non_null(z);
    DevicePtr p = up(z, bytes);
    free(z);
    return p;
}

static void launch(DeviceModule *m, const char *kernel, DeviceLaunch cfg, void **args)
{
    SimError err;
    memset(&err, 0, sizeof err);
    const char *entry = device_find_kernel(m, kernel, &err);
    if (!entry)
        fail_msg("find %s: %s", kernel, err.msg);
    SimStatus st = device_launch(m, entry, &cfg, args, NULL, &fault, &err);
    if (st == SIM_ERR_FAULT)
        fail_msg("%s faulted: %s: %s (ptx line %d: %s)", kernel, fault.kind, fault.msg,
                 fault.ptx_line, fault.ptx_text);
    if (st != SIM_OK)
        fail_msg("launch %s: %s", kernel, err.msg);
}

static DeviceLaunch cfg1(unsigned block) { return (DeviceLaunch){.grid = {1, 1, 1}, .block = {block, 1, 1}, .smem = 0, .inst_budget = 0}; }

#define ARGS(...) ((void *[]){__VA_ARGS__})

static uint32_t F(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static float FV(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
static uint64_t D(double d) { uint64_t u; memcpy(&u, &d, 8); return u; }
static double DV(uint64_t u) { double d; memcpy(&d, &u, 8); return d; }
static uint32_t canon32(float f) { return isnan(f) ? 0x7fffffffu : F(f); }

/* xorshift64* with a fixed seed */
static uint64_t rng = 0x2545f4914f6cdd1dull;
static void seed(uint64_t s) { rng = s * 0x9e3779b97f4a7c15ull + 1; }
static uint64_t rnd64(void)
{
    rng ^= rng >> 12;
    rng ^= rng << 25;
    rng ^= rng >> 27;
    return rng * 0x2545f4914f6cdd1dull;
}
static uint32_t rnd32(void) { return (uint32_t)(rnd64() >> 32); }

#define CHECK(i, what, got, want)                                                           \
    do {                                                                                    \
        unsigned long long g_ = (unsigned long long)(got), w_ = (unsigned long long)(want); \
        if (g_ != w_)                                                                       \
            fail_msg("%s, case %d: got 0x%llx, want 0x%llx", what, (int)(i), g_, w_);      \
    } while (0)

/* ---- the scalar-op kernel ------------------------------------------------
 * One thread per case.  Thread t reads four u64 operands at in + 32t into
 * %rd11..%rd14; their low words are %r1 %r2 %r3 %r9, also seen as %f1 %f2
 * %f3 and %fd1 %fd2 %fd3.  The body computes and stores its results at %rd6
 * (= out + 32t): up to eight u32 or four u64 words. */
static const char OP_PROLOGUE[] =
    PTX_HEAD
    ".visible .entry op(.param .u64 pin, .param .u64 pout)\n{\n"
    "  .reg .pred %p<8>;\n  .reg .b16 %h<10>;\n  .reg .b32 %r<24>;\n  .reg .b64 %rd<24>;\n"
    "  .reg .f32 %f<16>;\n  .reg .f64 %fd<12>;\n"
    "  ld.param.u64 %rd1, [pin];\n  ld.param.u64 %rd2, [pout];\n"
    "  mov.u32 %r0, %tid.x;\n"
    "  mul.wide.u32 %rd3, %r0, 32;\n  add.s64 %rd4, %rd1, %rd3;\n  add.s64 %rd6, %rd2, %rd3;\n"
    "  ld.global.u64 %rd11, [%rd4];\n  ld.global.u64 %rd12, [%rd4+8];\n"
    "  ld.global.u64 %rd13, [%rd4+16];\n  ld.global.u64 %rd14, [%rd4+24];\n"
    "  cvt.u32.u64 %r1, %rd11;\n  cvt.u32.u64 %r2, %rd12;\n  cvt.u32.u64 %r3, %rd13;\n"
    "  cvt.u32.u64 %r9, %rd14;\n"
    "  mov.b32 %f1, %r1;\n  mov.b32 %f2, %r2;\n  mov.b32 %f3, %r3;\n"
    "  mov.b64 %fd1, %rd11;\n  mov.b64 %fd2, %rd12;\n  mov.b64 %fd3, %rd13;\n";

typedef struct { uint64_t a, b, c, d; } OpIn;
typedef union { uint32_t w[8]; uint64_t q[4]; } OpOut;

/* Run `body` on n cases; out gets n results. */
static void op_run(const char *body, const OpIn *in, int n, OpOut *out)
{
    size_t len = sizeof OP_PROLOGUE + strlen(body) + 32;
    char *text = malloc(len);
    assert_non_null(text);
    snprintf(text, len, "%s%s\n  ret;\n}\n", OP_PROLOGUE, body);
    DeviceModule *m = load_text("op.ptx", text);
    free(text);
    DevicePtr din = up(in, sizeof *in * (size_t)n), dout = zeros(sizeof *out * (size_t)n);
    launch(m, "op", cfg1((unsigned)n), ARGS(&din, &dout));
    down(out, dout, sizeof *out * (size_t)n);
}

#define NCASES(a) ((int)(sizeof(a) / sizeof((a)[0])))

/* ---- barriers ------------------------------------------------------------ */

static const char BAR_RED_PTX[] = PTX_HEAD
    ".visible .entry barred(.param .u64 pin, .param .u64 pout)\n{\n"
    "  .reg .pred %p<4>;\n  .reg .b32 %r<8>;\n  .reg .b64 %rd<8>;\n"
    "  ld.param.u64 %rd1, [pin];\n  ld.param.u64 %rd2, [pout];\n"
    "  mov.u32 %r0, %tid.x;\n  mul.wide.u32 %rd3, %r0, 4;\n  add.s64 %rd4, %rd1, %rd3;\n"
    "  ld.global.u32 %r1, [%rd4];\n  setp.ne.u32 %p1, %r1, 0;\n"
    "  bar.red.popc.u32 %r2, 0, %p1;\n"
    "  bar.red.and.pred %p2, 0, %p1;\n"
    "  bar.red.or.pred %p3, 1, !%p1;\n"
    "  selp.u32 %r3, 1, 0, %p2;\n  selp.u32 %r4, 1, 0, %p3;\n"
    "  mul.wide.u32 %rd5, %r0, 16;\n  add.s64 %rd6, %rd2, %rd5;\n"
    "  st.global.v4.u32 [%rd6], {%r2, %r3, %r4, %r0};\n  ret;\n}\n";

static void bar_red_case(const uint32_t *in, int n)
{
    DeviceModule *m = load_text("barred.ptx", BAR_RED_PTX);
    DevicePtr din = up(in, 4 * (size_t)n), dout = zeros(16 * (size_t)n);
    launch(m, "barred", cfg1((unsigned)n), ARGS(&din, &dout));
    uint32_t out[4 * 96];
    down(out, dout, 16 * (size_t)n);
    uint32_t popc = 0;
    for (int i = 0; i < n; i++)
        popc += in[i] != 0;
    for (int i = 0; i < n; i++) {
        CHECK(i, "bar.red.popc", out[4 * i], popc);
        CHECK(i, "bar.red.and", out[4 * i + 1], popc == (uint32_t)n);
        CHECK(i, "bar.red.or of !p", out[4 * i + 2], popc != (uint32_t)n);
        CHECK(i, "tid", out[4 * i + 3], i);
    }
}

static void test_ops_bar_red_popc_and_or_reduce_predicate_over_block(void **s)
{
    (void)s;
    uint32_t in[96];
    seed(1);
    for (int i = 0; i < 96; i++)
        in[i] = rnd32() % 3 ? rnd32() : 0;     /* about a third zero */
    bar_red_case(in, 96);
    for (int i = 0; i < 80; i++)
        in[i] = (uint32_t)i + 1;                 /* all true, partial last warp */
    bar_red_case(in, 80);
    in[79] = 0;                                  /* one false in the partial warp */
    bar_red_case(in, 80);
}

/* Warp 0 produces into buf1 and arrives on barrier 1 (64 threads: warps 0
 * and 1); warp 1 waits on it and consumes.  Warps 2 and 3 swap halves of
 * buf2 through barrier 2 (64 threads).  Then all four meet at barrier 0 and
 * read what warp 0 wrote. */
static const char BAR_NAMED_PTX[] = PTX_HEAD
    ".visible .entry named(.param .u64 pin, .param .u64 pout)\n{\n"
    "  .reg .pred %p<4>;\n  .reg .b32 %r<16>;\n  .reg .b64 %rd<16>;\n"
    "  .shared .align 4 .b32 buf1[32];\n  .shared .align 4 .b32 buf2[64];\n"
    "  ld.param.u64 %rd1, [pin];\n  ld.param.u64 %rd2, [pout];\n"
    "  mov.u32 %r0, %tid.x;\n  shr.u32 %r1, %r0, 5;\n  and.b32 %r2, %r0, 31;\n"
    "  mul.wide.u32 %rd3, %r0, 4;\n  add.s64 %rd4, %rd1, %rd3;\n  add.s64 %rd6, %rd2, %rd3;\n"
    "  ld.global.u32 %r3, [%rd4];\n"
    "  mov.u64 %rd7, buf1;\n  mul.wide.u32 %rd8, %r2, 4;\n  add.s64 %rd9, %rd7, %rd8;\n"
    "  mov.u64 %rd10, buf2;\n"
    "  setp.eq.u32 %p1, %r1, 0;\n  @%p1 bra W0;\n"
    "  setp.eq.u32 %p1, %r1, 1;\n  @%p1 bra W1;\n"
    "  bra.uni W23;\n"
    "W0:\n  mul.lo.u32 %r4, %r3, 3;\n  st.shared.u32 [%rd9], %r4;\n"
    "  bar.arrive 1, 64;\n  mov.u32 %r5, 7;\n  bra.uni DONE;\n"
    "W1:\n  bar.sync 1, 64;\n  ld.shared.u32 %r4, [%rd9];\n  add.u32 %r5, %r4, 1;\n"
    "  bra.uni DONE;\n"
    "W23:\n  sub.u32 %r6, %r0, 64;\n  mul.wide.u32 %rd11, %r6, 4;\n  add.s64 %rd12, %rd10, %rd11;\n"
    "  xor.b32 %r4, %r3, 0x55;\n  st.shared.u32 [%rd12], %r4;\n"
    "  bar.sync 2, 64;\n"
    "  xor.b32 %r7, %r6, 32;\n  mul.wide.u32 %rd13, %r7, 4;\n  add.s64 %rd14, %rd10, %rd13;\n"
    "  ld.shared.u32 %r5, [%rd14];\n"
    "DONE:\n  st.global.u32 [%rd6], %r5;\n"
    "  bar.sync 0;\n"
    "  ld.shared.u32 %r8, [%rd9];\n  st.global.u32 [%rd6+512], %r8;\n"
    "  ret;\n}\n";

static void test_ops_named_barriers_with_thread_count_order_producer_and_consumer(void **s)
{
    (void)s;
    uint32_t in[128], out[256];
    seed(2);
    for (int i = 0; i < 128; i++)
        in[i] = rnd32();
    DeviceModule *m = load_text("named.ptx", BAR_NAMED_PTX);
    DevicePtr din = up(in, sizeof in), dout = zeros(sizeof out);
    launch(m, "named", cfg1(128), ARGS(&din, &dout));
    down(out, dout, sizeof out);
    for (int t = 0; t < 128; t++) {
        uint32_t want;
        if (t < 32)
            want = 7;
        else if (t < 64)
            want = in[t - 32] * 3 + 1;
        else
            want = in[64 + ((t - 64) ^ 32)] ^ 0x55;
        CHECK(t, "named barrier exchange", out[t], want);
        CHECK(t, "after bar.sync 0", out[128 + t], in[t % 32] * 3);
    }
}

/* ---- cp.async ------------------------------------------------------------ */

/* Thread t: 16 bytes of junk into sm[t] (group 1, waited), then 16 bytes from
 * src[t] with src-size (t % 5) * 4 over it (group 2), so the tail must be
 * zero-filled; then 4- and 8-byte copies into sm2 (two groups, wait_all). */
static const char CP_ASYNC_PTX[] = PTX_HEAD
    ".visible .entry cpa(.param .u64 pin, .param .u64 pjunk, .param .u64 pout)\n{\n"
    "  .reg .b32 %r<24>;\n  .reg .b64 %rd<16>;\n"
    "  .shared .align 16 .b8 sm[1024];\n  .shared .align 16 .b8 sm2[1024];\n"
    "  ld.param.u64 %rd1, [pin];\n  ld.param.u64 %rd2, [pjunk];\n  ld.param.u64 %rd3, [pout];\n"
    "  cvta.to.global.u64 %rd1, %rd1;\n  cvta.to.global.u64 %rd2, %rd2;\n"
    "  mov.u32 %r0, %tid.x;\n  mul.wide.u32 %rd4, %r0, 16;\n"
    "  add.s64 %rd5, %rd1, %rd4;\n  add.s64 %rd6, %rd2, %rd4;\n"
    "  mov.u32 %r1, sm;\n  mad.lo.u32 %r2, %r0, 16, %r1;\n"
    "  mov.u32 %r3, sm2;\n  mad.lo.u32 %r4, %r0, 16, %r3;\n"
    "  rem.u32 %r5, %r0, 5;\n  shl.b32 %r6, %r5, 2;\n"
    "  cp.async.ca.shared.global [%r2], [%rd6], 16;\n"
    "  cp.async.commit_group;\n  cp.async.wait_group 0;\n"
    "  cp.async.ca.shared.global [%r2], [%rd5], 16, %r6;\n"
    "  cp.async.commit_group;\n"
    "  cp.async.ca.shared.global [%r4], [%rd5], 4;\n"
    "  cp.async.commit_group;\n"
    "  cp.async.ca.shared.global [%r4+8], [%rd5+8], 8;\n"
    "  cp.async.commit_group;\n"
    "  cp.async.wait_all;\n"
    "  ld.shared.v4.u32 {%r10, %r11, %r12, %r13}, [%r2];\n"
    "  ld.shared.u32 %r14, [%r4];\n  ld.shared.v2.u32 {%r15, %r16}, [%r4+8];\n"
    "  mul.wide.u32 %rd7, %r0, 32;\n  add.s64 %rd8, %rd3, %rd7;\n"
    "  st.global.v4.u32 [%rd8], {%r10, %r11, %r12, %r13};\n"
    "  st.global.v4.u32 [%rd8+16], {%r14, %r15, %r16, %r6};\n"
    "  ret;\n}\n";

static void test_ops_cp_async_copies_and_zero_fills_past_src_size(void **s)
{
    (void)s;
    enum { N = 64 };
    uint32_t in[N * 4], junk[N * 4], out[N * 8];
    seed(3);
    for (int i = 0; i < N * 4; i++) {
        in[i] = rnd32() | 1;          /* never zero, so a missing fill shows */
        junk[i] = 0xdead0000u | (uint32_t)i;
    }
    DeviceModule *m = load_text("cpa.ptx", CP_ASYNC_PTX);
    DevicePtr din = up(in, sizeof in), dj = up(junk, sizeof junk), dout = zeros(sizeof out);
    launch(m, "cpa", cfg1(N), ARGS(&din, &dj, &dout));
    down(out, dout, sizeof out);
    for (int t = 0; t < N; t++) {
        unsigned words = (unsigned)(t % 5);   /* src-size / 4 */
        for (unsigned k = 0; k < 4; k++)
            CHECK(t * 4 + (int)k, "cp.async with src-size", out[8 * t + k],
                  k < words ? in[4 * t + k] : 0);
        CHECK(t, "cp.async 4 bytes", out[8 * t + 4], in[4 * t]);
        CHECK(t, "cp.async 8 bytes lo", out[8 * t + 5], in[4 * t + 2]);
        CHECK(t, "cp.async 8 bytes hi", out[8 * t + 6], in[4 * t + 3]);
    }
    /* hand-checked: thread 2 copied 8 bytes, so its words 2 and 3 are zero */
    assert_int_equal(out[8 * 2 + 1], in[9]);
    assert_int_equal(out[8 * 2 + 2], 0);
}

/* ---- integer bit operations ------------------------------------------------ */

static uint32_t ref_bfind(uint32_t a, bool sgn, bool shiftamt)
{
    if (sgn && (a >> 31))
        a = ~a;
    for (int i = 31; i >= 0; i--)
        if ((a >> i) & 1)
            return shiftamt ? (uint32_t)(31 - i) : (uint32_t)i;
    return 0xffffffffu;
}

static void test_ops_bfind_u32_s32_shiftamt_with_zero_and_negative(void **s)
{
    (void)s;
    OpIn in[64];
    OpOut out[64];
    uint32_t fixed[] = {0, 1, 2, 0x80000000u, 0xffffffffu, 0xfffffffeu, 0x7fffffffu,
                        0x00010000u, 0xc0000000u, 0x40000000u};
    int n = 0;
    for (int i = 0; i < NCASES(fixed); i++)
        in[n++] = (OpIn){fixed[i], 0, 0, 0};
    seed(4);
    while (n < 64)
        in[n++] = (OpIn){rnd32() >> (rnd32() % 32), 0, 0, 0};
    op_run("  bfind.u32 %r4, %r1;\n  bfind.s32 %r5, %r1;\n"
           "  bfind.shiftamt.u32 %r6, %r1;\n  bfind.shiftamt.s32 %r7, %r1;\n"
           "  bfind.u64 %r8, %rd11;\n"
           "  st.global.v4.u32 [%rd6], {%r4, %r5, %r6, %r7};\n  st.global.u32 [%rd6+16], %r8;\n",
           in, n, out);
    for (int i = 0; i < n; i++) {
        uint32_t a = (uint32_t)in[i].a;
        CHECK(i, "bfind.u32", out[i].w[0], ref_bfind(a, false, false));
        CHECK(i, "bfind.s32", out[i].w[1], ref_bfind(a, true, false));
        CHECK(i, "bfind.shiftamt.u32", out[i].w[2], ref_bfind(a, false, true));
        CHECK(i, "bfind.shiftamt.s32", out[i].w[3], ref_bfind(a, true, true));
        CHECK(i, "bfind.u64", out[i].w[4], ref_bfind(a, false, false));
    }
    /* by hand: 0 has no set bit; -1 has no clear bit; -2's top clear bit is 0 */
    assert_int_equal(out[0].w[0], 0xffffffffu);
    assert_int_equal(out[0].w[2], 0xffffffffu);
    assert_int_equal(out[4].w[1], 0xffffffffu);
    assert_int_equal(out[5].w[1], 0);
    assert_int_equal(out[5].w[3], 31);
    assert_int_equal(out[3].w[0], 31);
    assert_int_equal(out[3].w[1], 30);   /* 0x80000000 = ~0x7fffffff */
    assert_int_equal(out[3].w[2], 0);
}

static uint64_t ref_bfe(uint64_t a, int w, bool sgn, uint32_t pos, uint32_t len)
{
    pos &= 0xff;
    len &= 0xff;
    int msb = w - 1;
    unsigned top = pos + len - 1 < (unsigned)msb ? pos + len - 1 : (unsigned)msb;
    uint64_t sbit = (!sgn || len == 0) ? 0 : (a >> top) & 1;
    uint64_t d = 0;
    for (int i = 0; i <= msb; i++) {
        uint64_t bit = ((unsigned)i < len && pos + (unsigned)i <= (unsigned)msb) ? (a >> (pos + i)) & 1
                                                                                 : sbit;
        d |= bit << i;
    }
    return d;
}

static void test_ops_bfe_with_pos_and_len_beyond_width(void **s)
{
    (void)s;
    OpIn in[64];
    OpOut out[64];
    static const uint32_t pl[][2] = {{0, 0}, {0, 32}, {4, 8}, {28, 8}, {31, 1}, {32, 5},
                                     {200, 3}, {0, 255}, {0x104, 0x208}, {16, 40}, {60, 10}};
    int n = 0;
    seed(5);
    for (int i = 0; i < NCASES(pl); i++)
        in[n++] = (OpIn){rnd64() | 0x8000000080000000ull, pl[i][0], pl[i][1], 0};
    while (n < 64)
        in[n++] = (OpIn){rnd64(), rnd32() % 80, rnd32() % 80, 0};
    op_run("  bfe.u32 %r4, %r1, %r2, %r3;\n  bfe.s32 %r5, %r1, %r2, %r3;\n"
           "  bfe.u64 %rd15, %rd11, %r2, %r3;\n  bfe.s64 %rd16, %rd11, %r2, %r3;\n"
           "  st.global.v2.u32 [%rd6], {%r4, %r5};\n  st.global.v2.u64 [%rd6+16], {%rd15, %rd16};\n",
           in, n, out);
    for (int i = 0; i < n; i++) {
        uint32_t pos = (uint32_t)in[i].b, len = (uint32_t)in[i].c;
        /* the ISA restricts pos and len to 0..255 (its pseudocode masks them
         * with 0xff; an H100 does not for .u64/.s64): simulator only beyond */
        if (on_gpu && (pos > 255 || len > 255))
            continue;
        CHECK(i, "bfe.u32", out[i].w[0], ref_bfe((uint32_t)in[i].a, 32, false, pos, len));
        CHECK(i, "bfe.s32", out[i].w[1],
              (uint32_t)ref_bfe((uint32_t)in[i].a, 32, true, pos, len));
        CHECK(i, "bfe.u64", out[i].q[2], ref_bfe(in[i].a, 64, false, pos, len));
        CHECK(i, "bfe.s64", out[i].q[3], ref_bfe(in[i].a, 64, true, pos, len));
    }
    /* by hand: a has bit 31 set; bfe.s32 at pos 31 len 1 is all ones; pos 32
     * is past the width: unsigned 0, signed replicates bit 31 */
    assert_int_equal(out[4].w[1], 0xffffffffu);
    assert_int_equal(out[4].w[0], 1);
    assert_int_equal(out[5].w[0], 0);
    assert_int_equal(out[5].w[1], 0xffffffffu);
    assert_int_equal(out[0].w[1], 0);   /* len 0: zero even when signed */
}

static uint64_t ref_bfi(uint64_t a, uint64_t b, int w, uint32_t pos, uint32_t len)
{
    pos &= 0xff;
    len &= 0xff;
    uint64_t f = b;
    for (unsigned i = 0; i < len && pos + i < (unsigned)w; i++)
        f = (f & ~(1ull << (pos + i))) | (((a >> i) & 1) << (pos + i));
    return f;
}

static void test_ops_bfi_inserts_field_and_clips_at_width(void **s)
{
    (void)s;
    OpIn in[48];
    OpOut out[48];
    static const uint32_t pl[][2] = {{0, 0}, {0, 32}, {8, 8}, {28, 8}, {32, 4}, {0x101, 0x104}};
    int n = 0;
    seed(6);
    for (int i = 0; i < NCASES(pl); i++)
        in[n++] = (OpIn){0xffffffffffffffffull, 0, pl[i][0], pl[i][1]};
    while (n < 48)
        in[n++] = (OpIn){rnd64(), rnd64(), rnd32() % 72, rnd32() % 72};
    op_run("  bfi.b32 %r4, %r1, %r2, %r3, %r9;\n  bfi.b64 %rd15, %rd11, %rd12, %r3, %r9;\n"
           "  st.global.u32 [%rd6], %r4;\n  st.global.u64 [%rd6+8], %rd15;\n",
           in, n, out);
    for (int i = 0; i < n; i++) {
        uint32_t pos = (uint32_t)in[i].c, len = (uint32_t)in[i].d;
        if (on_gpu && (pos > 255 || len > 255))   /* outside the ISA's 0..255 */
            continue;
        CHECK(i, "bfi.b32", out[i].w[0], ref_bfi((uint32_t)in[i].a, (uint32_t)in[i].b, 32, pos, len));
        CHECK(i, "bfi.b64", out[i].q[1], ref_bfi(in[i].a, in[i].b, 64, pos, len));
    }
    assert_int_equal(out[2].w[0], 0x0000ff00u);
    assert_int_equal(out[3].w[0], 0xf0000000u);
    assert_int_equal(out[4].w[0], 0);
    SIM_ONLY(assert_int_equal(out[5].w[0], 0x0000001eu));   /* pos 0x101, len 0x104 masked */
}

/* prmt, written from the ISA's tables: for each mode and c[1:0], the source
 * byte of d.b3 d.b2 d.b1 d.b0 (bytes 0-3 from a, 4-7 from b). */
static const uint8_t PRMT_MODES[6][4][4] = {
    /* f4e  */ {{3, 2, 1, 0}, {4, 3, 2, 1}, {5, 4, 3, 2}, {6, 5, 4, 3}},
    /* b4e  */ {{5, 6, 7, 0}, {6, 7, 0, 1}, {7, 0, 1, 2}, {0, 1, 2, 3}},
    /* rc8  */ {{0, 0, 0, 0}, {1, 1, 1, 1}, {2, 2, 2, 2}, {3, 3, 3, 3}},
    /* ecl  */ {{3, 2, 1, 0}, {3, 2, 1, 1}, {3, 2, 2, 2}, {3, 3, 3, 3}},
    /* ecr  */ {{0, 0, 0, 0}, {1, 1, 1, 0}, {2, 2, 1, 0}, {3, 2, 1, 0}},
    /* rc16 */ {{1, 0, 1, 0}, {3, 2, 3, 2}, {1, 0, 1, 0}, {3, 2, 3, 2}},
};

static uint32_t ref_prmt(uint32_t a, uint32_t b, uint32_t c, int mode)
{
    uint8_t src[8];
    for (int i = 0; i < 4; i++) {
        src[i] = (uint8_t)(a >> (8 * i));
        src[4 + i] = (uint8_t)(b >> (8 * i));
    }
    uint32_t d = 0;
    for (int i = 0; i < 4; i++) {
        uint8_t byte;
        if (mode < 0) {
            unsigned sel = (c >> (4 * i)) & 0xf;
            byte = src[sel & 7];
            if (sel & 8)
                byte = (byte & 0x80) ? 0xff : 0;
        } else {
            byte = src[PRMT_MODES[mode][c & 3][3 - i]];
        }
        d |= (uint32_t)byte << (8 * i);
    }
    return d;
}

static void test_ops_prmt_in_every_mode(void **s)
{
    (void)s;
    OpIn in[40];
    OpOut out[40];
    int n = 0;
    in[n++] = (OpIn){0x44332211u, 0x88776655u, 0x3210, 0};
    in[n++] = (OpIn){0x44332211u, 0x88776655u, 0x7654, 0};
    in[n++] = (OpIn){0x44332211u, 0x88776655u, 0xcdef, 0};  /* sign replication */
    in[n++] = (OpIn){0x44332211u, 0x88776655u, 0xffff0001, 0};
    seed(7);
    while (n < 40)
        in[n++] = (OpIn){rnd32(), rnd32(), rnd32(), 0};
    op_run("  prmt.b32 %r4, %r1, %r2, %r3;\n"
           "  prmt.b32.f4e %r5, %r1, %r2, %r3;\n  prmt.b32.b4e %r6, %r1, %r2, %r3;\n"
           "  prmt.b32.rc8 %r7, %r1, %r2, %r3;\n  prmt.b32.ecl %r8, %r1, %r2, %r3;\n"
           "  prmt.b32.ecr %r10, %r1, %r2, %r3;\n  prmt.b32.rc16 %r11, %r1, %r2, %r3;\n"
           "  st.global.v4.u32 [%rd6], {%r4, %r5, %r6, %r7};\n"
           "  st.global.v4.u32 [%rd6+16], {%r8, %r10, %r11, %r0};\n",
           in, n, out);
    static const char *const names[] = {"prmt", "prmt.f4e", "prmt.b4e", "prmt.rc8",
                                        "prmt.ecl", "prmt.ecr", "prmt.rc16"};
    for (int i = 0; i < n; i++)
        for (int m = 0; m < 7; m++)
            CHECK(i, names[m], out[i].w[m],
                  ref_prmt((uint32_t)in[i].a, (uint32_t)in[i].b, (uint32_t)in[i].c, m - 1));
    /* by hand */
    assert_int_equal(out[0].w[0], 0x44332211u);
    assert_int_equal(out[1].w[0], 0x88776655u);
    assert_int_equal(out[2].w[0], 0x000000ffu);  /* sign of b.b3 (0x88), b.b2, b.b1, b.b0 */
    assert_int_equal(out[0].w[1], 0x44332211u);  /* f4e, c=0 */
    assert_int_equal(out[1].w[2], 0x66778811u);  /* b4e, c=0 (0x7654 & 3 = 0): 5 6 7 0 */
    assert_int_equal(out[3].w[3], 0x22222222u);  /* rc8, c=1 */
    assert_int_equal(out[3].w[6], 0x44334433u);  /* rc16, c=1 */
}

static uint32_t ref_shf(bool left, bool wrap, uint32_t a, uint32_t b, uint32_t c)
{
    uint32_t n = wrap ? (c & 31) : (c > 32 ? 32 : c);
    uint64_t v = ((uint64_t)b << 32) | a;
    if (left)
        return n == 0 ? b : (uint32_t)((v << n) >> 32);
    return (uint32_t)(v >> n);
}

static void test_ops_shf_wrap_and_clamp_with_shift_of_32_and_more(void **s)
{
    (void)s;
    OpIn in[48];
    OpOut out[48];
    static const uint32_t sh[] = {0, 1, 31, 32, 33, 63, 64, 100, 0xffffffffu};
    int n = 0;
    for (int i = 0; i < NCASES(sh); i++)
        in[n++] = (OpIn){0x89abcdefu, 0x01234567u, sh[i], 0};
    seed(8);
    while (n < 48)
        in[n++] = (OpIn){rnd32(), rnd32(), rnd32() % 70, 0};
    op_run("  shf.l.wrap.b32 %r4, %r1, %r2, %r3;\n  shf.l.clamp.b32 %r5, %r1, %r2, %r3;\n"
           "  shf.r.wrap.b32 %r6, %r1, %r2, %r3;\n  shf.r.clamp.b32 %r7, %r1, %r2, %r3;\n"
           "  st.global.v4.u32 [%rd6], {%r4, %r5, %r6, %r7};\n",
           in, n, out);
    for (int i = 0; i < n; i++) {
        uint32_t a = (uint32_t)in[i].a, b = (uint32_t)in[i].b, c = (uint32_t)in[i].c;
        CHECK(i, "shf.l.wrap", out[i].w[0], ref_shf(true, true, a, b, c));
        CHECK(i, "shf.l.clamp", out[i].w[1], ref_shf(true, false, a, b, c));
        CHECK(i, "shf.r.wrap", out[i].w[2], ref_shf(false, true, a, b, c));
        CHECK(i, "shf.r.clamp", out[i].w[3], ref_shf(false, false, a, b, c));
    }
    /* by hand: shift 32 clamps to the other word; wraps to a shift of 0 */
    assert_int_equal(out[3].w[1], 0x89abcdefu);
    assert_int_equal(out[3].w[3], 0x01234567u);
    assert_int_equal(out[3].w[0], 0x01234567u);
    assert_int_equal(out[3].w[2], 0x89abcdefu);
    assert_int_equal(out[4].w[0], 0x02468acfu);  /* 33 wraps to 1 */
    assert_int_equal(out[2].w[2], 0x02468acfu);  /* r by 31 */
}

static void test_ops_sad_mul24_lo_hi_and_mad_hi_32bit(void **s)
{
    (void)s;
    OpIn in[64];
    OpOut out[64];
    int n = 0;
    in[n++] = (OpIn){0x7fffffffu, 0x80000000u, 5, 0};
    in[n++] = (OpIn){0x00ffffffu, 0x00ffffffu, 0, 0};
    in[n++] = (OpIn){0xff800000u, 0x00000002u, 0, 0};   /* -2^23 in 24 bits */
    in[n++] = (OpIn){0xffffffffffffffffull, 0xffffffffffffffffull, 7, 0};
    in[n++] = (OpIn){0x8000000000000000ull, 0x8000000000000000ull, 0, 0};
    seed(9);
    while (n < 64)
        in[n++] = (OpIn){rnd64(), rnd64(), rnd64(), 0};
    op_run("  sad.u32 %r4, %r1, %r2, %r3;\n  sad.s32 %r5, %r1, %r2, %r3;\n"
           "  mul24.lo.u32 %r6, %r1, %r2;\n  mul24.hi.u32 %r7, %r1, %r2;\n"
           "  mul24.lo.s32 %r8, %r1, %r2;\n  mul24.hi.s32 %r10, %r1, %r2;\n"
           "  mad.hi.u32 %r11, %r1, %r2, %r3;\n  mad.hi.s32 %r12, %r1, %r2, %r3;\n"
           "  st.global.v4.u32 [%rd6], {%r4, %r5, %r6, %r7};\n"
           "  st.global.v4.u32 [%rd6+16], {%r8, %r10, %r11, %r12};\n",
           in, n, out);
    for (int i = 0; i < n; i++) {
        uint32_t a = (uint32_t)in[i].a, b = (uint32_t)in[i].b, c = (uint32_t)in[i].c;
        int32_t sa = (int32_t)a, sb = (int32_t)b;
        CHECK(i, "sad.u32", out[i].w[0], (a < b ? b - a : a - b) + c);
        CHECK(i, "sad.s32", out[i].w[1], (sa < sb ? b - a : a - b) + c);
        uint64_t pu = (uint64_t)(a & 0xffffff) * (b & 0xffffff);
        int64_t ps = (int64_t)(((int32_t)(a << 8)) >> 8) * (((int32_t)(b << 8)) >> 8);
        CHECK(i, "mul24.lo.u32", out[i].w[2], (uint32_t)pu);
        CHECK(i, "mul24.hi.u32", out[i].w[3], (uint32_t)(pu >> 16));
        CHECK(i, "mul24.lo.s32", out[i].w[4], (uint32_t)ps);
        CHECK(i, "mul24.hi.s32", out[i].w[5], (uint32_t)((uint64_t)ps >> 16));
        CHECK(i, "mad.hi.u32", out[i].w[6], (uint32_t)(((uint64_t)a * b) >> 32) + c);
        CHECK(i, "mad.hi.s32", out[i].w[7], (uint32_t)((uint64_t)((int64_t)sa * sb) >> 32) + c);
    }
    assert_int_equal(out[0].w[1], 0xffffffffu + 5u);   /* |INT_MAX - INT_MIN| wraps */
    assert_int_equal(out[1].w[3], 0xfffffe00u);         /* (2^24-1)^2 >> 16 */
    assert_int_equal(out[2].w[4], 0xff000000u);         /* -2^23 * 2 */
    assert_int_equal(out[2].w[5], 0xffffff00u);
}

static void test_ops_mul_hi_and_mad_hi_64bit_signed_and_unsigned(void **s)
{
    (void)s;
    OpIn in[64];
    OpOut out[64];
    int n = 0;
    in[n++] = (OpIn){0x7fffffffu, 0x80000000u, 5, 0};
    in[n++] = (OpIn){0x00ffffffu, 0x00ffffffu, 0, 0};
    in[n++] = (OpIn){0xff800000u, 0x00000002u, 0, 0};
    in[n++] = (OpIn){0xffffffffffffffffull, 0xffffffffffffffffull, 7, 0};
    in[n++] = (OpIn){0x8000000000000000ull, 0x8000000000000000ull, 0, 0};
    seed(21);
    while (n < 64)
        in[n++] = (OpIn){rnd64(), rnd64(), rnd64(), 0};
    op_run("  mul.hi.u64 %rd15, %rd11, %rd12;\n  mul.hi.s64 %rd16, %rd11, %rd12;\n"
           "  mad.hi.u64 %rd17, %rd11, %rd12, %rd13;\n  mad.hi.s64 %rd18, %rd11, %rd12, %rd13;\n"
           "  st.global.v2.u64 [%rd6], {%rd15, %rd16};\n  st.global.v2.u64 [%rd6+16], {%rd17, %rd18};\n",
           in, n, out);
    for (int i = 0; i < n; i++) {
        __extension__ unsigned __int128 pu = (unsigned __int128)in[i].a * in[i].b;
        __extension__ __int128 ps = (__int128)(int64_t)in[i].a * (int64_t)in[i].b;
        CHECK(i, "mul.hi.u64", out[i].q[0], (uint64_t)(pu >> 64));
        CHECK(i, "mul.hi.s64", out[i].q[1], (uint64_t)(ps >> 64));
        CHECK(i, "mad.hi.u64", out[i].q[2], (uint64_t)(pu >> 64) + in[i].c);
        CHECK(i, "mad.hi.s64", out[i].q[3], (uint64_t)(ps >> 64) + in[i].c);
    }
    assert_true(out[3].q[0] == 0xfffffffffffffffeull);   /* (2^64-1)^2 >> 64 */
    assert_true(out[3].q[1] == 0);                       /* (-1)*(-1) = 1 */
    assert_true(out[4].q[1] == 0x4000000000000000ull);   /* (-2^63)^2 = 2^126 */
}

static void test_ops_16bit_add_mul_wide_min_max_wrap_and_sign(void **s)
{
    (void)s;
    OpIn in[48];
    OpOut out[48];
    int n = 0;
    in[n++] = (OpIn){0xffff, 0x0001, 0, 0};
    in[n++] = (OpIn){0x8000, 0x8000, 0, 0};
    in[n++] = (OpIn){0x7fff, 0x8000, 0, 0};
    seed(10);
    while (n < 48)
        in[n++] = (OpIn){rnd32() & 0xffff, rnd32() & 0xffff, 0, 0};
    op_run("  cvt.u16.u32 %h1, %r1;\n  cvt.u16.u32 %h2, %r2;\n"
           "  add.u16 %h3, %h1, %h2;\n  sub.s16 %h4, %h1, %h2;\n"
           "  min.s16 %h5, %h1, %h2;\n  max.s16 %h6, %h1, %h2;\n  min.u16 %h7, %h1, %h2;\n"
           "  mul.lo.s16 %h8, %h1, %h2;\n"
           "  mul.wide.s16 %r4, %h1, %h2;\n  mul.wide.u16 %r5, %h1, %h2;\n"
           "  st.global.v4.u16 [%rd6], {%h3, %h4, %h5, %h6};\n"
           "  st.global.v2.u16 [%rd6+8], {%h7, %h8};\n"
           "  st.global.v2.u32 [%rd6+16], {%r4, %r5};\n",
           in, n, out);
    for (int i = 0; i < n; i++) {
        uint16_t a = (uint16_t)in[i].a, b = (uint16_t)in[i].b;
        int16_t sa = (int16_t)a, sb = (int16_t)b;
        uint16_t h[8];
        memcpy(h, out[i].w, sizeof h);
        CHECK(i, "add.u16", h[0], (uint16_t)(a + b));
        CHECK(i, "sub.s16", h[1], (uint16_t)(a - b));
        CHECK(i, "min.s16", h[2], (uint16_t)(sa < sb ? sa : sb));
        CHECK(i, "max.s16", h[3], (uint16_t)(sa > sb ? sa : sb));
        CHECK(i, "min.u16", h[4], a < b ? a : b);
        CHECK(i, "mul.lo.s16", h[5], (uint16_t)((uint32_t)a * b));
        CHECK(i, "mul.wide.s16", out[i].w[4], (uint32_t)((int32_t)sa * sb));
        CHECK(i, "mul.wide.u16", out[i].w[5], (uint32_t)a * b);
    }
    assert_int_equal(out[0].w[0] & 0xffff, 0);            /* 0xffff + 1 wraps */
    assert_int_equal(out[0].w[4], 0xffffffffu);           /* -1 * 1 */
    assert_int_equal(out[1].w[4], 0x40000000u);           /* -32768^2 */
    assert_int_equal(out[2].w[1] & 0xffff, 0x8000);       /* min.s16(32767,-32768) */
}

static void test_ops_div_rem_by_zero_give_all_ones_and_int_min_by_minus_one(void **s)
{
    (void)s;
    OpIn in[40];
    OpOut out[40];
    int n = 0;
    in[n++] = (OpIn){7, 0, 0, 0};
    in[n++] = (OpIn){0xfffffff9u, 0, 0, 0};
    in[n++] = (OpIn){0, 0, 0, 0};
    in[n++] = (OpIn){0x80000000u, 0xffffffffu, 0, 0};
    in[n++] = (OpIn){0x8000000000000000ull, 0xffffffffffffffffull, 0, 0};
    in[n++] = (OpIn){0xfffffff9u, 2, 0, 0};                /* -7 / 2 */
    seed(11);
    while (n < 40)
        in[n++] = (OpIn){rnd64(), rnd64() >> (rnd32() % 64), 0, 0};
    op_run("  div.u32 %r4, %r1, %r2;\n  rem.u32 %r5, %r1, %r2;\n"
           "  div.s32 %r6, %r1, %r2;\n  rem.s32 %r7, %r1, %r2;\n"
           "  div.u64 %rd15, %rd11, %rd12;\n  rem.u64 %rd16, %rd11, %rd12;\n"
           "  div.s64 %rd17, %rd11, %rd12;\n  rem.s64 %rd18, %rd11, %rd12;\n"
           "  st.global.v4.u32 [%rd6], {%r4, %r5, %r6, %r7};\n"
           "  st.global.v2.u64 [%rd6+16], {%rd15, %rd16};\n",
           in, n, out);
    OpOut out2[40];
    op_run("  div.s64 %rd17, %rd11, %rd12;\n  rem.s64 %rd18, %rd11, %rd12;\n"
           "  st.global.v2.u64 [%rd6], {%rd17, %rd18};\n",
           in, n, out2);
    for (int i = 0; i < n; i++) {
        uint32_t a = (uint32_t)in[i].a, b = (uint32_t)in[i].b;
        int32_t sa = (int32_t)a, sb = (int32_t)b;
        uint64_t A = in[i].a, B = in[i].b;
        int64_t SA = (int64_t)A, SB = (int64_t)B;
        /* alu.h: an H100 gives all ones for x/0 and x%0 (PTX leaves it open) */
        CHECK(i, "div.u32", out[i].w[0], b ? a / b : 0xffffffffu);
        CHECK(i, "rem.u32", out[i].w[1], b ? a % b : 0xffffffffu);
        CHECK(i, "div.s32", out[i].w[2],
              !b ? 0xffffffffu : (sa == INT32_MIN && sb == -1) ? (uint32_t)INT32_MIN : (uint32_t)(sa / sb));
        CHECK(i, "rem.s32", out[i].w[3],
              !b ? 0xffffffffu : (sa == INT32_MIN && sb == -1) ? 0 : (uint32_t)(sa % sb));
        CHECK(i, "div.u64", out[i].q[2], B ? A / B : ~0ull);
        CHECK(i, "rem.u64", out[i].q[3], B ? A % B : ~0ull);
        CHECK(i, "div.s64", out2[i].q[0],
              !B ? ~0ull : (SA == INT64_MIN && SB == -1) ? (uint64_t)INT64_MIN : (uint64_t)(SA / SB));
        CHECK(i, "rem.s64", out2[i].q[1],
              !B ? ~0ull : (SA == INT64_MIN && SB == -1) ? 0 : (uint64_t)(SA % SB));
    }
    assert_int_equal(out[5].w[2], 0xfffffffdu);   /* -7/2 = -3 (toward zero) */
    assert_int_equal(out[5].w[3], 0xffffffffu);   /* -7%2 = -1 */
    assert_int_equal(out[3].w[2], 0x80000000u);
}

/* ---- predicates, selects and sets --------------------------------------- */

static const uint32_t FSPECIAL[] = {
    0x00000000u, 0x80000000u, 0x3f800000u, 0xbf800000u, 0x7f800000u, 0xff800000u,
    0x7fc00000u, 0xffc00001u, 0x7f800001u, 0x00000001u, 0x807fffffu, 0x00800000u,
    0x7f7fffffu, 0x40490fdbu, 0xc2c80000u, 0x3e800000u,
};

static void test_ops_testp_classifies_every_f32_and_f64_class(void **s)
{
    (void)s;
    OpIn in[32];
    OpOut out[32];
    int n = 0;
    for (int i = 0; i < NCASES(FSPECIAL); i++) {
        float f = FV(FSPECIAL[i]);
        in[n++] = (OpIn){FSPECIAL[i], 0, 0, 0};
        in[n - 1].b = D((double)f);
        if (fpclassify(f) == FP_SUBNORMAL)
            in[n - 1].b = 0x000fffffffffffffull | ((uint64_t)(FSPECIAL[i] >> 31) << 63);
        if (isnan(f))
            in[n - 1].b = 0x7ff0000000000001ull;
    }
    op_run("  testp.finite.f32 %p1, %f1;\n  selp.u32 %r4, 1, 0, %p1;\n"
           "  testp.infinite.f32 %p1, %f1;\n  selp.u32 %r5, 2, 0, %p1;\n  or.b32 %r4, %r4, %r5;\n"
           "  testp.number.f32 %p1, %f1;\n  selp.u32 %r5, 4, 0, %p1;\n  or.b32 %r4, %r4, %r5;\n"
           "  testp.notanumber.f32 %p1, %f1;\n  selp.u32 %r5, 8, 0, %p1;\n  or.b32 %r4, %r4, %r5;\n"
           "  testp.normal.f32 %p1, %f1;\n  selp.u32 %r5, 16, 0, %p1;\n  or.b32 %r4, %r4, %r5;\n"
           "  testp.subnormal.f32 %p1, %f1;\n  selp.u32 %r5, 32, 0, %p1;\n  or.b32 %r4, %r4, %r5;\n"
           "  testp.finite.f64 %p1, %fd2;\n  selp.u32 %r6, 1, 0, %p1;\n"
           "  testp.infinite.f64 %p1, %fd2;\n  selp.u32 %r5, 2, 0, %p1;\n  or.b32 %r6, %r6, %r5;\n"
           "  testp.number.f64 %p1, %fd2;\n  selp.u32 %r5, 4, 0, %p1;\n  or.b32 %r6, %r6, %r5;\n"
           "  testp.notanumber.f64 %p1, %fd2;\n  selp.u32 %r5, 8, 0, %p1;\n  or.b32 %r6, %r6, %r5;\n"
           "  testp.normal.f64 %p1, %fd2;\n  selp.u32 %r5, 16, 0, %p1;\n  or.b32 %r6, %r6, %r5;\n"
           "  testp.subnormal.f64 %p1, %fd2;\n  selp.u32 %r5, 32, 0, %p1;\n  or.b32 %r6, %r6, %r5;\n"
           "  st.global.v2.u32 [%rd6], {%r4, %r6};\n",
           in, n, out);
    for (int i = 0; i < n; i++) {
        float f = FV((uint32_t)in[i].a);
        double d = DV(in[i].b);
        int cf = fpclassify(f), cd = fpclassify(d);
        uint32_t wf = (uint32_t)(isfinite(f) | ((isinf(f) != 0) << 1) | (!isnan(f) << 2) |
                                 (isnan(f) << 3) | ((cf == FP_NORMAL || cf == FP_ZERO) << 4) | ((cf == FP_SUBNORMAL) << 5));
        uint32_t wd = (uint32_t)(isfinite(d) | ((isinf(d) != 0) << 1) | (!isnan(d) << 2) |
                                 (isnan(d) << 3) | ((cd == FP_NORMAL || cd == FP_ZERO) << 4) | ((cd == FP_SUBNORMAL) << 5));
        CHECK(i, "testp f32 classes", out[i].w[0], wf);
        CHECK(i, "testp f64 classes", out[i].w[1], wd);
    }
    assert_int_equal(out[0].w[0], 1 | 4 | 16);     /* +0: the ISA counts zeros as normal */
    assert_int_equal(out[1].w[1], 1 | 4 | 16);     /* -0.0 as f64 too */
    assert_int_equal(out[9].w[0], 1 | 4 | 32);     /* smallest subnormal */
    assert_int_equal(out[4].w[0], 2 | 4);          /* +inf */
    assert_int_equal(out[8].w[0], 8);              /* signalling NaN */
}

static void test_ops_copysign_abs_neg_min_max_nan_rules(void **s)
{
    (void)s;
    OpIn in[NCASES(FSPECIAL) * NCASES(FSPECIAL)];
    OpOut *out = calloc(NCASES(in), sizeof *out);
    assert_non_null(out);
    int n = 0;
    for (int i = 0; i < NCASES(FSPECIAL); i++)
        for (int j = 0; j < NCASES(FSPECIAL); j++)
            in[n++] = (OpIn){FSPECIAL[i], FSPECIAL[j], 0, 0};
    op_run("  copysign.f32 %f4, %f1, %f2;\n  min.f32 %f5, %f1, %f2;\n  max.f32 %f6, %f1, %f2;\n"
           "  min.NaN.f32 %f7, %f1, %f2;\n  max.NaN.f32 %f8, %f1, %f2;\n"
           "  abs.f32 %f9, %f1;\n  neg.f32 %f10, %f1;\n  abs.ftz.f32 %f11, %f1;\n"
           "  st.global.v4.f32 [%rd6], {%f4, %f5, %f6, %f7};\n"
           "  st.global.v4.f32 [%rd6+16], {%f8, %f9, %f10, %f11};\n",
           in, n, out);
    for (int i = 0; i < n; i++) {
        uint32_t a = (uint32_t)in[i].a, b = (uint32_t)in[i].b;
        float fa = FV(a), fb = FV(b);
        bool na = isnan(fa), nb = isnan(fb);
        /* copysign d, a, b: b's magnitude with a's sign */
        if (!nb)
            CHECK(i, "copysign", out[i].w[0], (b & 0x7fffffffu) | (a & 0x80000000u));
        else
            assert_true(isnan(FV(out[i].w[0])));
        uint32_t mn, mx;
        if (na && nb)
            mn = mx = 0x7fffffffu;
        else if (na)
            mn = mx = b;
        else if (nb)
            mn = mx = a;
        else if (fa == fb) {  /* -0 < +0 */
            mn = a | b;
            mx = a & b;
        } else {
            mn = fa < fb ? a : b;
            mx = fa < fb ? b : a;
        }
        CHECK(i, "min.f32", out[i].w[1], mn);
        CHECK(i, "max.f32", out[i].w[2], mx);
        CHECK(i, "min.NaN.f32", out[i].w[3], (na || nb) ? 0x7fffffffu : mn);
        CHECK(i, "max.NaN.f32", out[i].w[4], (na || nb) ? 0x7fffffffu : mx);
        /* alu.h: on an H100, abs/neg of a NaN give the canonical NaN */
        CHECK(i, "abs.f32", out[i].w[5], na ? 0x7fffffffu : a & 0x7fffffffu);
        CHECK(i, "neg.f32", out[i].w[6], na ? 0x7fffffffu : a ^ 0x80000000u);
        uint32_t az = fpclassify(fa) == FP_SUBNORMAL ? 0 : a & 0x7fffffffu;
        CHECK(i, "abs.ftz.f32", out[i].w[7], na ? 0x7fffffffu : az);
    }
    /* by hand: copysign(-1, 2) = -2; min(+0, -0) = -0; min(NaN, 1) = 1 */
    in[0] = (OpIn){0xbf800000u, 0x40000000u, 0, 0};
    op_run("  copysign.f32 %f4, %f1, %f2;\n  st.global.f32 [%rd6], %f4;\n", in, 1, out);
    assert_int_equal(out[0].w[0], 0xc0000000u);
    free(out);
}

static void test_ops_slct_selects_on_sign_of_s32_and_f32_including_minus_zero_and_nan(void **s)
{
    (void)s;
    static const uint32_t sel[] = {0, 1, 0xffffffffu, 0x80000000u, 0x7fffffffu,
                                   0x80000000u /* -0.0f */, 0x7fc00000u, 0xffc00000u,
                                   0xff800000u, 0x80000001u, 0x00000001u, 0x3f800000u};
    OpIn in[NCASES(sel)];
    OpOut out[NCASES(sel)];
    for (int i = 0; i < NCASES(sel); i++)
        in[i] = (OpIn){0xaaaa0000u + (uint32_t)i, 0xbbbb0000u + (uint32_t)i, sel[i], 0};
    op_run("  slct.u32.s32 %r4, %r1, %r2, %r3;\n  slct.u32.f32 %r5, %r1, %r2, %f3;\n"
           "  slct.ftz.u32.f32 %r6, %r1, %r2, %f3;\n  slct.f32.s32 %f4, %f1, %f2, %r3;\n"
           "  st.global.v4.u32 [%rd6], {%r4, %r5, %r6, %r0};\n  st.global.f32 [%rd6+16], %f4;\n",
           in, NCASES(sel), out);
    for (int i = 0; i < NCASES(sel); i++) {
        uint32_t a = (uint32_t)in[i].a, b = (uint32_t)in[i].b;
        float c = FV(sel[i]);
        bool cs = (int32_t)sel[i] >= 0;
        bool cf = c >= 0.0f;                     /* -0 >= 0; NaN is false */
        float cz = fpclassify(c) == FP_SUBNORMAL ? copysignf(0.0f, c) : c;
        CHECK(i, "slct.s32", out[i].w[0], cs ? a : b);
        CHECK(i, "slct.f32", out[i].w[1], cf ? a : b);
        CHECK(i, "slct.ftz.f32", out[i].w[2], cz >= 0.0f ? a : b);
        CHECK(i, "slct.f32.s32", out[i].w[4], cs ? a : b);
    }
    assert_int_equal(out[5].w[1], 0xaaaa0005u);   /* -0.0 selects a */
    assert_int_equal(out[6].w[1], 0xbbbb0006u);   /* +NaN selects b */
    assert_int_equal(out[9].w[1], 0xbbbb0009u);   /* -subnormal: b ... */
    assert_int_equal(out[9].w[2], 0xaaaa0009u);   /* ... but -0 with .ftz: a */
}

static void test_ops_set_with_u32_and_f32_destinations_and_bool_combining(void **s)
{
    (void)s;
    OpIn in[NCASES(FSPECIAL) * 4];
    OpOut out[NCASES(FSPECIAL) * 4];
    int n = 0;
    for (int i = 0; i < NCASES(FSPECIAL); i++)
        for (int j = 0; j < 4; j++)
            in[n++] = (OpIn){FSPECIAL[i], FSPECIAL[(i * 5 + j * 3) % NCASES(FSPECIAL)], (uint64_t)(j & 1), 0};
    op_run("  setp.ne.u32 %p3, %r3, 0;\n"
           "  set.lt.u32.f32 %r4, %f1, %f2;\n  set.gtu.f32.f32 %f5, %f1, %f2;\n"
           "  set.ge.and.u32.f32 %r6, %f1, %f2, %p3;\n  set.num.or.s32.f32 %r7, %f1, %f2, !%p3;\n"
           "  set.ne.xor.f32.f32 %f8, %f1, %f2, %p3;\n"
           "  mov.b32 %r5, %f5;\n  mov.b32 %r8, %f8;\n"
           "  st.global.v4.u32 [%rd6], {%r4, %r5, %r6, %r7};\n  st.global.u32 [%rd6+16], %r8;\n",
           in, n, out);
    for (int i = 0; i < n; i++) {
        float a = FV((uint32_t)in[i].a), b = FV((uint32_t)in[i].b);
        bool c = in[i].c != 0, un = isnan(a) || isnan(b);
        CHECK(i, "set.lt.u32.f32", out[i].w[0], a < b ? 0xffffffffu : 0);
        CHECK(i, "set.gtu.f32.f32", out[i].w[1], (un || a > b) ? 0x3f800000u : 0);
        CHECK(i, "set.ge.and", out[i].w[2], (a >= b && c) ? 0xffffffffu : 0);
        CHECK(i, "set.num.or", out[i].w[3], (!un || !c) ? 0xffffffffu : 0);
        CHECK(i, "set.ne.xor.f32", out[i].w[4], ((a != b && !un) != c) ? 0x3f800000u : 0);
    }
}

static void test_ops_setp_with_two_destinations_and_and_or_combining(void **s)
{
    (void)s;
    OpIn in[64];
    OpOut out[64];
    int n = 0;
    seed(12);
    while (n < 64) {
        uint32_t a = rnd32() % 8 - 4, b = rnd32() % 8 - 4;
        in[n] = (OpIn){a, b, (uint64_t)(n & 1), 0};
        n++;
    }
    op_run("  setp.ne.u32 %p3, %r3, 0;\n"
           "  setp.lt.and.s32 %p1|%p2, %r1, %r2, %p3;\n"
           "  selp.u32 %r4, 1, 0, %p1;\n  selp.u32 %r5, 1, 0, %p2;\n"
           "  setp.lo.or.u32 %p1|%p2, %r1, %r2, %p3;\n"
           "  selp.u32 %r6, 1, 0, %p1;\n  selp.u32 %r7, 1, 0, %p2;\n"
           "  setp.eq.xor.s32 %p1|%p2, %r1, %r2, !%p3;\n"
           "  selp.u32 %r8, 1, 0, %p1;\n  selp.u32 %r10, 1, 0, %p2;\n"
           "  st.global.v4.u32 [%rd6], {%r4, %r5, %r6, %r7};\n  st.global.v2.u32 [%rd6+16], {%r8, %r10};\n",
           in, n, out);
    for (int i = 0; i < n; i++) {
        int32_t a = (int32_t)in[i].a, b = (int32_t)in[i].b;
        bool c = in[i].c != 0;
        bool lt = a < b, lo = (uint32_t)a < (uint32_t)b, eq = a == b;
        CHECK(i, "setp.and p", out[i].w[0], lt && c);
        CHECK(i, "setp.and q", out[i].w[1], !lt && c);
        CHECK(i, "setp.or p", out[i].w[2], lo || c);
        CHECK(i, "setp.or q", out[i].w[3], !lo || c);
        CHECK(i, "setp.xor p", out[i].w[4], eq != !c);
        CHECK(i, "setp.xor q", out[i].w[5], !eq != !c);
    }
}

/* ---- IEEE float with rounding modes ------------------------------------- */

static const int FE[4] = {FE_TONEAREST, FE_TOWARDZERO, FE_DOWNWARD, FE_UPWARD};

/* The host FPU in rounding mode fe (volatile keeps the operation between the
 * two fesetround calls). */
static uint32_t host_f32(char op, int fe, uint32_t a, uint32_t b, uint32_t c)
{
    volatile float x = FV(a), y = FV(b), z = FV(c);
    volatile float r = 0;
    fesetround(fe);
    switch (op) {
    case '+': r = x + y; break;
    case '*': r = x * y; break;
    case '/': r = x / y; break;
    case 'f': r = fmaf(x, y, z); break;
    case 'q': r = sqrtf(x); break;
    }
    fesetround(FE_TONEAREST);
    return canon32(r);
}

static uint64_t host_f64_add(int fe, uint64_t a, uint64_t b)
{
    volatile double x = DV(a), y = DV(b);
    volatile double r;
    fesetround(fe);
    r = x + y;
    fesetround(FE_TONEAREST);
    return D(r);
}

static OpIn *float_pairs(int *n)
{
    static const uint32_t v[] = {0x3f800000u, 0x40400000u, 0xbf800001u, 0x33800000u,
                                 0x7f7fffffu, 0xff7fffffu, 0x00000003u, 0x80400000u,
                                 0x00800000u, 0x4b800001u, 0xc0490fdbu, 0x3eaaaaabu};
    enum { NV = sizeof v / sizeof v[0], NR = 64 };
    static OpIn in[NV * NV + NR];
    int k = 0;
    for (int i = 0; i < NV; i++)
        for (int j = 0; j < NV; j++)
            in[k++] = (OpIn){v[i], v[j], v[(i + j) % NV], 0};
    seed(13);
    for (int i = 0; i < NR; i++) {
        uint32_t e = 100 + rnd32() % 56;     /* moderate exponents */
        in[k++] = (OpIn){(rnd32() & 0x807fffffu) | (e << 23), (rnd32() & 0x807fffffu) | (e << 23),
                         rnd32() & 0xbf7fffffu, 0};
    }
    *n = k;
    return in;
}

static void test_ops_f32_add_div_fma_in_each_rounding_mode(void **s)
{
    (void)s;
    int n;
    OpIn *in = float_pairs(&n);
    OpOut *out = calloc((size_t)n, sizeof *out);
    assert_non_null(out);
    op_run("  add.rn.f32 %f4, %f1, %f2;\n  add.rz.f32 %f5, %f1, %f2;\n"
           "  add.rm.f32 %f6, %f1, %f2;\n  add.rp.f32 %f7, %f1, %f2;\n"
           "  div.rz.f32 %f8, %f1, %f2;\n  div.rm.f32 %f9, %f1, %f2;\n"
           "  div.rp.f32 %f10, %f1, %f2;\n  fma.rz.f32 %f11, %f1, %f2, %f3;\n"
           "  st.global.v4.f32 [%rd6], {%f4, %f5, %f6, %f7};\n"
           "  st.global.v4.f32 [%rd6+16], {%f8, %f9, %f10, %f11};\n",
           in, n, out);
    for (int i = 0; i < n; i++) {
        uint32_t a = (uint32_t)in[i].a, b = (uint32_t)in[i].b, c = (uint32_t)in[i].c;
        for (int r = 0; r < 4; r++)
            CHECK(i * 4 + r, "add.{rn,rz,rm,rp}.f32", out[i].w[r], host_f32('+', FE[r], a, b, 0));
        CHECK(i, "div.rz.f32", out[i].w[4], host_f32('/', FE_TOWARDZERO, a, b, 0));
        CHECK(i, "div.rm.f32", out[i].w[5], host_f32('/', FE_DOWNWARD, a, b, 0));
        CHECK(i, "div.rp.f32", out[i].w[6], host_f32('/', FE_UPWARD, a, b, 0));
        CHECK(i, "fma.rz.f32", out[i].w[7], host_f32('f', FE_TOWARDZERO, a, b, c));
        SIM_ONLY(CHECK(i, "fma.rz.f32 (alu)", out[i].w[7], alu_f32_fma(a, b, c, ALU_RZ, false, false)));
    }
    /* by hand: FLT_MAX + FLT_MAX; 1 + (-1-ulp) rounded down is negative;
     * x + (-x) is -0 only when rounding down */
    in[0] = (OpIn){0x7f7fffffu, 0x7f7fffffu, 0, 0};
    in[1] = (OpIn){0x3f800000u, 0xbf800000u, 0, 0};
    in[2] = (OpIn){0x3f800000u, 0x40400000u, 0, 0};
    op_run("  add.rz.f32 %f4, %f1, %f2;\n  add.rm.f32 %f5, %f1, %f2;\n"
           "  add.rp.f32 %f6, %f1, %f2;\n  div.rp.f32 %f7, %f1, %f2;\n"
           "  st.global.v4.f32 [%rd6], {%f4, %f5, %f6, %f7};\n",
           in, 3, out);
    assert_int_equal(out[0].w[0], 0x7f7fffffu);
    assert_int_equal(out[0].w[1], 0x7f7fffffu);
    assert_int_equal(out[0].w[2], 0x7f800000u);
    assert_int_equal(out[1].w[0], 0x00000000u);
    assert_int_equal(out[1].w[1], 0x80000000u);
    assert_int_equal(out[2].w[3], 0x3eaaaaabu);   /* 1/3 rounded up */
    free(out);
}

static void test_ops_f64_add_in_each_rounding_mode(void **s)
{
    (void)s;
    OpIn in[72];
    OpOut out[72];
    int n = 0;
    in[n++] = (OpIn){D(1.0), D(0x1p-60), 0, 0};
    in[n++] = (OpIn){D(1.0), D(-1.0), 0, 0};
    in[n++] = (OpIn){D(DBL_MAX), D(DBL_MAX), 0, 0};
    in[n++] = (OpIn){D(-1.0), D(-0x1p-60), 0, 0};
    in[n++] = (OpIn){D(0x1p-1074), D(0x1p-1074), 0, 0};
    seed(14);
    while (n < 72) {
        uint64_t e = 900 + rnd64() % 200;
        in[n++] = (OpIn){(rnd64() & 0x800fffffffffffffull) | (e << 52),
                         (rnd64() & 0x800fffffffffffffull) | ((e + rnd64() % 60 - 30) << 52), 0, 0};
    }
    op_run("  add.rn.f64 %fd4, %fd1, %fd2;\n  add.rz.f64 %fd5, %fd1, %fd2;\n"
           "  add.rm.f64 %fd6, %fd1, %fd2;\n  add.rp.f64 %fd7, %fd1, %fd2;\n"
           "  st.global.v2.f64 [%rd6], {%fd4, %fd5};\n  st.global.v2.f64 [%rd6+16], {%fd6, %fd7};\n",
           in, n, out);
    for (int i = 0; i < n; i++)
        for (int r = 0; r < 4; r++)
            CHECK(i * 4 + r, "add.{rn,rz,rm,rp}.f64", out[i].q[r], host_f64_add(FE[r], in[i].a, in[i].b));
    assert_true(out[0].q[0] == D(1.0));
    assert_true(out[0].q[3] == D(1.0) + 1);          /* next double up */
    assert_true(out[1].q[2] == 0x8000000000000000ull);
    assert_true(out[2].q[1] == D(DBL_MAX));
    assert_true(out[3].q[1] == D(-1.0));
    assert_true(out[3].q[2] == (D(-1.0) + 1));        /* away from zero when rounding down */
}

static void test_ops_rcp_sqrt_rounded_and_mul_sat(void **s)
{
    (void)s;
    int n;
    OpIn *in = float_pairs(&n);
    OpOut *out = calloc((size_t)n, sizeof *out);
    assert_non_null(out);
    op_run("  rcp.rn.f32 %f4, %f1;\n  rcp.rz.f32 %f5, %f1;\n  sqrt.rn.f32 %f6, %f1;\n"
           "  mul.sat.f32 %f7, %f1, %f2;\n  rcp.rm.f32 %f8, %f1;\n  sqrt.rp.f32 %f9, %f1;\n"
           "  st.global.v4.f32 [%rd6], {%f4, %f5, %f6, %f7};\n  st.global.v2.f32 [%rd6+16], {%f8, %f9};\n",
           in, n, out);
    for (int i = 0; i < n; i++) {
        uint32_t a = (uint32_t)in[i].a, b = (uint32_t)in[i].b;
        CHECK(i, "rcp.rn.f32", out[i].w[0], host_f32('/', FE_TONEAREST, 0x3f800000u, a, 0));
        CHECK(i, "rcp.rz.f32", out[i].w[1], host_f32('/', FE_TOWARDZERO, 0x3f800000u, a, 0));
        CHECK(i, "sqrt.rn.f32", out[i].w[2], host_f32('q', FE_TONEAREST, a, 0, 0));
        float p = FV(host_f32('*', FE_TONEAREST, a, b, 0));
        float sat = isnan(p) ? 0.0f : p < 0.0f ? 0.0f : p > 1.0f ? 1.0f : p;
        if (!(p == 0.0f))   /* the sign of a zero result under .sat is left open */
            CHECK(i, "mul.sat.f32", out[i].w[3], F(sat));
        CHECK(i, "rcp.rm.f32", out[i].w[4], host_f32('/', FE_DOWNWARD, 0x3f800000u, a, 0));
        CHECK(i, "sqrt.rp.f32", out[i].w[5], host_f32('q', FE_UPWARD, a, 0, 0));
    }
    in[0] = (OpIn){0x40400000u, 0x3f000000u, 0, 0};   /* 3, 0.5 */
    in[1] = (OpIn){0x00000001u, 0x7fc00000u, 0, 0};   /* 2^-149, NaN */
    in[2] = (OpIn){0x40000000u, 0xbf800000u, 0, 0};   /* 2, -1 */
    op_run("  rcp.rn.f32 %f4, %f1;\n  rcp.rz.f32 %f5, %f1;\n  sqrt.rn.f32 %f6, %f1;\n"
           "  mul.sat.f32 %f7, %f1, %f2;\n"
           "  st.global.v4.f32 [%rd6], {%f4, %f5, %f6, %f7};\n",
           in, 3, out);
    assert_int_equal(out[0].w[0], 0x3eaaaaabu);   /* 1/3 */
    assert_int_equal(out[0].w[1], 0x3eaaaaaau);
    assert_int_equal(out[0].w[3], 0x3f800000u);   /* 1.5 clamps to 1 */
    assert_int_equal(out[1].w[0], 0x7f800000u);   /* 1/2^-149 overflows */
    assert_int_equal(out[1].w[1], 0x7f7fffffu);   /* ... to FLT_MAX toward zero */
    assert_int_equal(out[1].w[2], 0x1a3504f3u);   /* sqrt(2^-149) = 2^-74.5 */
    assert_int_equal(out[1].w[3], 0);             /* NaN saturates to +0 */
    assert_int_equal(out[2].w[2], 0x3fb504f3u);   /* sqrt 2 */
    free(out);
}

static void test_ops_add_ftz_flushes_subnormal_inputs_and_results_keeping_sign(void **s)
{
    (void)s;
    OpIn in[8];
    OpOut out[8];
    int n = 0;
    in[n++] = (OpIn){0x00000001u, 0x00000001u, 0, 0};   /* denorm + denorm */
    in[n++] = (OpIn){0x80000010u, 0x80000020u, 0, 0};   /* -denorm + -denorm -> -0 */
    in[n++] = (OpIn){0x00c00000u, 0x80800000u, 0, 0};   /* 1.5*2^-126 - 2^-126: subnormal result */
    in[n++] = (OpIn){0x3f800000u, 0x00400000u, 0, 0};   /* 1 + denorm */
    in[n++] = (OpIn){0x00800000u, 0x807fffffu, 0, 0};   /* min normal - max denorm */
    op_run("  add.ftz.f32 %f4, %f1, %f2;\n  add.f32 %f5, %f1, %f2;\n"
           "  mul.ftz.f32 %f6, %f1, %f2;\n"
           "  st.global.v4.f32 [%rd6], {%f4, %f5, %f6, %f6};\n",
           in, n, out);
    for (int i = 0; i < n; i++) {
        SIM_ONLY(CHECK(i, "add.ftz (alu)", out[i].w[0],
                       alu_f32_add((uint32_t)in[i].a, (uint32_t)in[i].b, ALU_RN, true, false)));
        CHECK(i, "add.f32", out[i].w[1], host_f32('+', FE_TONEAREST, (uint32_t)in[i].a, (uint32_t)in[i].b, 0));
    }
    assert_int_equal(out[0].w[0], 0x00000000u);
    assert_int_equal(out[0].w[1], 0x00000002u);
    assert_int_equal(out[1].w[0], 0x80000000u);
    assert_int_equal(out[1].w[1], 0x80000030u);
    assert_int_equal(out[2].w[0], 0x00000000u);
    assert_int_equal(out[2].w[1], 0x00400000u);
    assert_int_equal(out[3].w[0], 0x3f800000u);
    assert_int_equal(out[4].w[0], 0x00800000u);   /* max denorm flushes to 0 first */
    assert_int_equal(out[4].w[1], 0x00000001u);
    assert_int_equal(out[0].w[2], 0x00000000u);
}

/* ---- conversions ---------------------------------------------------------- */

/* f32 -> f16, round to nearest even, written out by hand (not alu_cvt). */
static uint16_t ref_f32_to_f16(float f)
{
    uint16_t sgn = (uint16_t)((F(f) >> 16) & 0x8000);
    double a = fabs((double)f);
    if (isinf(f) || a >= 65520.0)
        return sgn | 0x7c00;
    if (a < 0x1p-14)
        return sgn | (uint16_t)nearbyint(a * 0x1p24);   /* 1024 is the smallest normal */
    int e;
    frexp(a, &e);                                       /* a = m * 2^e, m in [0.5, 1) */
    double m = nearbyint(ldexp(a, 11 - e));             /* 11 significant bits */
    if (m == 2048.0) {
        m = 1024.0;
        e++;
    }
    if (e - 1 > 15)
        return sgn | 0x7c00;
    return (uint16_t)(sgn | ((e - 1 + 15) << 10) | ((int)m - 1024));
}

static float ref_f16_to_f32(uint16_t h)
{
    int e = (h >> 10) & 0x1f, m = h & 0x3ff;
    float v = e == 0 ? ldexpf((float)m, -24)
              : e == 31 ? (m ? NAN : INFINITY)
                        : ldexpf((float)(m + 1024), e - 25);
    return (h & 0x8000) ? -v : v;
}

static void test_ops_cvt_f32_f16_round_trip_with_subnormals_and_overflow(void **s)
{
    (void)s;
    OpIn in[96];
    OpOut out[96];
    static const uint32_t f[] = {0x3f800000u, 0x477fe000u /* 65504 */, 0x477ff000u /* 65520 */,
                                 0x477fefffu, 0x33800000u /* 2^-24 */, 0x33000000u /* 2^-25 */,
                                 0x33400000u /* 1.5*2^-25 */, 0x80000001u, 0x3f801000u /* 1+2^-11 */,
                                 0x3f803000u, 0xff800000u, 0x38800000u /* 2^-14 */};
    int n = 0;
    for (int i = 0; i < NCASES(f); i++)
        in[n++] = (OpIn){f[i], 0, 0, 0};
    seed(15);
    while (n < 96) {
        uint32_t e = 100 + rnd32() % 45;
        in[n] = (OpIn){(rnd32() & 0x807fffffu) | (e << 23), rnd32() & 0xffff, 0, 0};
        if (((in[n].b >> 10) & 0x1f) == 0x1f)
            in[n].b &= 0xbfff;                  /* no f16 NaN/inf sources here */
        n++;
    }
    for (int i = 0; i < NCASES(f); i++)
        in[i].b = (uint64_t)(i == 0 ? 0x3c00 : i == 1 ? 0x0001 : i == 2 ? 0x83ff : i == 3 ? 0x7c00 : 0x7bff);
    op_run("  cvt.rn.f16.f32 %h1, %f1;\n  cvt.rz.f16.f32 %h2, %f1;\n"
           "  cvt.u16.u32 %h3, %r2;\n  cvt.f32.f16 %f4, %h3;\n"
           "  st.global.v2.u16 [%rd6], {%h1, %h2};\n  st.global.f32 [%rd6+4], %f4;\n",
           in, n, out);
    for (int i = 0; i < n; i++) {
        float x = FV((uint32_t)in[i].a);
        uint16_t rn = (uint16_t)out[i].w[0], rz = (uint16_t)(out[i].w[0] >> 16);
        CHECK(i, "cvt.rn.f16.f32", rn, ref_f32_to_f16(x));
        /* rz: the rn result, or the next value toward zero when rn rounded away */
        uint16_t z = ref_f32_to_f16(x);
        if (fabsf(ref_f16_to_f32(z)) > fabsf(x) && !isinf(x))
            z--;
        CHECK(i, "cvt.rz.f16.f32", rz, z);
        CHECK(i, "cvt.f32.f16", out[i].w[1], F(ref_f16_to_f32((uint16_t)in[i].b)));
    }
    assert_int_equal(out[0].w[0] & 0xffff, 0x3c00);
    assert_int_equal(out[1].w[0] & 0xffff, 0x7bff);
    assert_int_equal(out[2].w[0] & 0xffff, 0x7c00);     /* 65520 rounds to inf */
    assert_int_equal(out[2].w[0] >> 16, 0x7bff);        /* but not toward zero */
    assert_int_equal(out[3].w[0] & 0xffff, 0x7bff);
    assert_int_equal(out[4].w[0] & 0xffff, 0x0001);
    assert_int_equal(out[5].w[0] & 0xffff, 0x0000);     /* tie to even */
    assert_int_equal(out[6].w[0] & 0xffff, 0x0001);
    assert_int_equal(out[7].w[0] & 0xffff, 0x8000);
    assert_int_equal(out[8].w[0] & 0xffff, 0x3c00);     /* 1 + half ulp: tie to even */
    assert_int_equal(out[9].w[0] & 0xffff, 0x3c02);
    assert_int_equal(out[0].w[1], 0x3f800000u);
    assert_int_equal(out[1].w[1], 0x33800000u);         /* f16 subnormal 2^-24 */
    assert_int_equal(out[2].w[1], 0xb87fc000u);         /* -1023 * 2^-24 */
    assert_int_equal(out[3].w[1], 0x7f800000u);
    assert_int_equal(out[4].w[1], 0x477fe000u);
}

static void test_ops_cvt_integer_rounding_modes_float_to_int_and_to_float(void **s)
{
    (void)s;
    static const float v[] = {2.5f, -2.5f, 3.5f, -3.5f, 0.5f, -0.5f, 1.0f, -1.0f, 2.75f,
                              -2.75f, 1e10f, -1e10f, 0.0f, -0.0f, 8388607.5f, 2147483520.0f,
                              -2147483648.0f, 1e-40f, -1e-40f};
    OpIn in[NCASES(v) + 2];
    OpOut out[NCASES(v) + 2];
    int n = 0;
    for (int i = 0; i < NCASES(v); i++)
        in[n++] = (OpIn){F(v[i]), 0, 0, 0};
    in[n++] = (OpIn){0x7fc00000u, 0, 0, 0};
    in[n++] = (OpIn){0xff800000u, 0, 0, 0};
    op_run("  cvt.rni.s32.f32 %r4, %f1;\n  cvt.rzi.s32.f32 %r5, %f1;\n"
           "  cvt.rmi.s32.f32 %r6, %f1;\n  cvt.rpi.s32.f32 %r7, %f1;\n"
           "  cvt.rni.f32.f32 %f8, %f1;\n  cvt.rzi.f32.f32 %f9, %f1;\n"
           "  cvt.rmi.f32.f32 %f10, %f1;\n  cvt.rpi.f32.f32 %f11, %f1;\n"
           "  st.global.v4.u32 [%rd6], {%r4, %r5, %r6, %r7};\n"
           "  st.global.v4.f32 [%rd6+16], {%f8, %f9, %f10, %f11};\n",
           in, n, out);
    for (int i = 0; i < n; i++) {
        float x = FV((uint32_t)in[i].a);
        float r[4] = {nearbyintf(x), truncf(x), floorf(x), ceilf(x)};   /* host rn is ties-even */
        for (int k = 0; k < 4; k++) {
            int32_t want = isnan(x) ? 0 : r[k] >= 2147483648.0f ? INT32_MAX
                         : r[k] < -2147483648.0f ? INT32_MIN : (int32_t)r[k];
            CHECK(i * 4 + k, "cvt.{rni,rzi,rmi,rpi}.s32.f32", out[i].w[k], (uint32_t)want);
            if (isnan(x))
                assert_true(isnan(FV(out[i].w[4 + k])));
            else
                CHECK(i * 4 + k, "cvt.{rni,rzi,rmi,rpi}.f32.f32", out[i].w[4 + k], F(r[k]));
        }
    }
    /* by hand */
    assert_int_equal(out[0].w[0], 2);
    assert_int_equal(out[1].w[0], (uint32_t)-2);
    assert_int_equal(out[2].w[0], 4);
    assert_int_equal(out[1].w[2], (uint32_t)-3);
    assert_int_equal(out[1].w[3], (uint32_t)-2);
    assert_int_equal(out[5].w[4], 0x80000000u);       /* rni(-0.5) = -0.0 */
    assert_int_equal(out[5].w[7], 0x80000000u);       /* rpi(-0.5) = -0.0 */
    assert_int_equal(out[10].w[0], 0x7fffffffu);      /* 1e10 saturates */
    assert_int_equal(out[11].w[0], 0x80000000u);
    assert_int_equal(out[NCASES(v)].w[0], 0);          /* NaN -> 0 */
    assert_int_equal(out[NCASES(v) + 1].w[1], 0x80000000u);
    assert_int_equal(out[17].w[7], 0x3f800000u);       /* rpi(1e-40) = 1 (no ftz) */
    assert_int_equal(out[18].w[6], 0xbf800000u);       /* rmi(-1e-40) = -1 */
}

static void test_ops_cvt_saturating_and_truncating_integer_narrowing(void **s)
{
    (void)s;
    static const int64_t v[] = {0, 1, 255, 256, -1, -128, -129, 127, 128, 1000, -1000,
                                0x12345678, INT32_MIN, INT32_MAX, 0x123456789abcdef0ll,
                                -0x123456789abcdef0ll, 32767, 32768, -32769};
    OpIn in[NCASES(v)];
    OpOut out[NCASES(v)];
    for (int i = 0; i < NCASES(v); i++)
        in[i] = (OpIn){(uint64_t)v[i], 0, 0, 0};
    op_run("  cvt.sat.u8.s32 %h1, %r1;\n  cvt.sat.s8.s32 %h2, %r1;\n"
           "  cvt.s16.s64 %h3, %rd11;\n  cvt.sat.s16.s64 %h4, %rd11;\n"
           "  cvt.s32.s16 %r4, %h3;\n  cvt.sat.u32.s64 %r5, %rd11;\n"
           "  st.global.v4.u16 [%rd6], {%h1, %h2, %h3, %h4};\n"
           "  st.global.v2.u32 [%rd6+8], {%r4, %r5};\n",
           in, NCASES(v), out);
    for (int i = 0; i < NCASES(v); i++) {
        int32_t x32 = (int32_t)v[i];
        int64_t x = v[i];
        uint16_t h[4];
        memcpy(h, out[i].w, sizeof h);
        CHECK(i, "cvt.sat.u8.s32", h[0], x32 < 0 ? 0 : x32 > 255 ? 255 : x32);
        /* a 16-bit register holding an s8 result is sign-extended */
        CHECK(i, "cvt.sat.s8.s32", h[1], (uint16_t)(x32 < -128 ? -128 : x32 > 127 ? 127 : x32));
        CHECK(i, "cvt.s16.s64", h[2], (uint16_t)x);
        CHECK(i, "cvt.sat.s16.s64", h[3], (uint16_t)(x < -32768 ? -32768 : x > 32767 ? 32767 : x));
        CHECK(i, "cvt.s32.s16", out[i].w[2], (uint32_t)(int32_t)(int16_t)x);
        CHECK(i, "cvt.sat.u32.s64", out[i].w[3], x < 0 ? 0 : x > UINT32_MAX ? UINT32_MAX : (uint32_t)x);
    }
    assert_int_equal(out[3].w[0] & 0xffff, 255);
    assert_int_equal(out[6].w[0] >> 16, 0xff80);         /* -129 -> -128 */
    assert_int_equal(out[14].w[1] & 0xffff, 0xdef0);    /* truncation */
    assert_int_equal(out[14].w[2], 0xffffdef0u);
}

static void test_ops_cvt_u64_s64_to_float_rounds_by_mode(void **s)
{
    (void)s;
    static const uint64_t v[] = {0, 1, 0xffffffffffffffffull, 0x8000000000000000ull,
                                 0x1000001ull, 0x1000003ull, 0x20000000000001ull,
                                 0x20000000000003ull, 0x7fffffffffffffffull, 12345678901234567ull};
    OpIn in[NCASES(v) + 32];
    OpOut out[NCASES(v) + 32];
    int n = 0;
    for (int i = 0; i < NCASES(v); i++)
        in[n++] = (OpIn){v[i], 0, 0, 0};
    seed(16);
    while (n < NCASES(in))
        in[n++] = (OpIn){rnd64() >> (rnd32() % 40), 0, 0, 0};
    op_run("  cvt.rn.f32.u64 %f4, %rd11;\n  cvt.rz.f32.u64 %f5, %rd11;\n"
           "  cvt.rn.f32.s64 %f6, %rd11;\n  cvt.rm.f32.s64 %f7, %rd11;\n"
           "  cvt.rn.f64.s64 %fd4, %rd11;\n  cvt.rz.f64.u64 %fd5, %rd11;\n"
           "  st.global.v4.f32 [%rd6], {%f4, %f5, %f6, %f7};\n"
           "  st.global.v2.f64 [%rd6+16], {%fd4, %fd5};\n",
           in, n, out);
    for (int i = 0; i < n; i++) {
        volatile uint64_t u = in[i].a;
        volatile int64_t sv = (int64_t)in[i].a;
        volatile float f;
        volatile double d;
        f = (float)u;
        CHECK(i, "cvt.rn.f32.u64", out[i].w[0], F(f));
        fesetround(FE_TOWARDZERO);
        f = (float)u;
        fesetround(FE_TONEAREST);
        CHECK(i, "cvt.rz.f32.u64", out[i].w[1], F(f));
        f = (float)sv;
        CHECK(i, "cvt.rn.f32.s64", out[i].w[2], F(f));
        fesetround(FE_DOWNWARD);
        f = (float)sv;
        fesetround(FE_TONEAREST);
        CHECK(i, "cvt.rm.f32.s64", out[i].w[3], F(f));
        d = (double)sv;
        CHECK(i, "cvt.rn.f64.s64", out[i].q[2], D(d));
        fesetround(FE_TOWARDZERO);
        d = (double)u;
        fesetround(FE_TONEAREST);
        CHECK(i, "cvt.rz.f64.u64", out[i].q[3], D(d));
    }
    assert_int_equal(out[2].w[0], 0x5f800000u);    /* 2^64-1 -> 2^64 */
    assert_int_equal(out[2].w[1], 0x5f7fffffu);
    assert_int_equal(out[2].w[2], 0xbf800000u);    /* as s64: -1 */
    assert_int_equal(out[3].w[2], 0xdf000000u);    /* INT64_MIN exactly */
    assert_int_equal(out[4].w[0], 0x4b800000u);    /* 2^24+1: tie to even (down) */
    assert_int_equal(out[5].w[0], 0x4b800002u);    /* 2^24+3: tie to even (up) */
    assert_true(out[6].q[2] == D(0x1p53));          /* 2^53+1 -> 2^53 */
    assert_true(out[7].q[2] == D(0x1p53) + 2);      /* 2^53+3 -> 2^53+4 */
    assert_true(out[3].q[2] == D(-0x1p63));
}

/* ---- approximate functions ------------------------------------------------ */

typedef enum { AP_EX2, AP_LG2, AP_SIN, AP_COS, AP_RSQRT, AP_RCP, AP_TANH, AP_COUNT } Approx;

/* Error allowed by the PTX ISA (slightly rounded up): relative for ex2,
 * rsqrt, rcp and tanh, absolute for lg2, sin and cos. */
static bool approx_ok(Approx k, float x, float got)
{
    double want;
    switch (k) {
    case AP_EX2: want = exp2((double)x); return fabs(got - want) <= ldexp(fabs(want), -21);
    case AP_LG2: /* absolute 2^-22 on (0.5, 2), relative 2^-22 elsewhere (+ rounding) */
        want = log2((double)x);
        return fabs(got - want) <= (x > 0.5f && x < 2.0f ? 0x1p-22 : ldexp(fabs(want), -21));
    case AP_SIN: /* absolute 2^-20.5 on [-2pi, 2pi], 2^-14.7 on [-100pi, 100pi] */
        want = sin((double)x);
        return fabs(got - want) <= (fabsf(x) <= 6.28f ? 0x1p-20 : 0x1.6ap-15);
    case AP_COS:
        want = cos((double)x);
        return fabs(got - want) <= (fabsf(x) <= 6.28f ? 0x1p-20 : 0x1.6ap-15);
    case AP_RSQRT: want = 1 / sqrt((double)x); return fabs(got - want) <= ldexp(fabs(want), -22);
    case AP_RCP: want = 1 / (double)x; return fabs(got - want) <= ldexp(fabs(want), -22);
    case AP_TANH: want = tanh((double)x); return fabs(got - want) <= ldexp(fabs(want), -10);
    default: return false;
    }
}

static uint32_t alu_approx(Approx k, uint32_t x)
{
    switch (k) {
    case AP_EX2: return alu_f32_ex2_approx(x, false);
    case AP_LG2: return alu_f32_lg2_approx(x, false);
    case AP_SIN: return alu_f32_sin_approx(x, false);
    case AP_COS: return alu_f32_cos_approx(x, false);
    case AP_RSQRT: return alu_f32_rsqrt_approx(x, false);
    case AP_RCP: return alu_f32_rcp_approx(x, false);
    default: return alu_f32_tanh_approx(x);
    }
}

static const char APPROX_BODY[] =
    "  ex2.approx.f32 %f4, %f1;\n  lg2.approx.f32 %f5, %f1;\n"
    "  sin.approx.f32 %f6, %f1;\n  cos.approx.f32 %f7, %f1;\n"
    "  rsqrt.approx.f32 %f8, %f1;\n  rcp.approx.f32 %f9, %f1;\n"
    "  tanh.approx.f32 %f10, %f1;\n"
    "  st.global.v4.f32 [%rd6], {%f4, %f5, %f6, %f7};\n"
    "  st.global.v4.f32 [%rd6+16], {%f8, %f9, %f10, %f1};\n";

static void test_ops_approx_functions_are_within_ptx_error_of_libm(void **s)
{
    (void)s;
    enum { N = 256 };
    OpIn in[N];
    OpOut out[N];
    seed(17);
    for (int i = 0; i < N; i++) {
        /* positive normals in [2^-20, 2^20) and values within +-100 pi */
        float x = i % 2 ? ldexpf(1.0f + (float)(rnd32() >> 8) * 0x1p-24f, (int)(rnd32() % 40) - 20)
                        : ((float)(rnd32() >> 8) * 0x1p-23f - 1.0f) * (i % 4 ? 3.0f : 314.0f);
        in[i] = (OpIn){F(x), 0, 0, 0};
    }
    op_run(APPROX_BODY, in, N, out);
    static const char *const names[] = {"ex2", "lg2", "sin", "cos", "rsqrt", "rcp", "tanh"};
    for (int i = 0; i < N; i++) {
        float x = FV((uint32_t)in[i].a);
        for (int k = 0; k < AP_COUNT; k++) {
            if ((k == AP_LG2 || k == AP_RSQRT) && x <= 0)
                continue;
            if ((k == AP_EX2 && fabsf(x) > 100) || (k == AP_TANH && fabsf(x) < 0x1p-10f) ||
                ((k == AP_SIN || k == AP_COS) && fabsf(x) > 314.0f))
                continue;
            float got = FV(out[i].w[k]);
            if (!approx_ok((Approx)k, x, got))
                fail_msg("%s.approx(%a) = %a, outside the ISA's error", names[k], (double)x, (double)got);
            SIM_ONLY(CHECK(i * 8 + k, names[k], out[i].w[k], alu_approx((Approx)k, F(x))));
        }
    }
}

static void test_ops_approx_functions_give_ptx_special_values(void **s)
{
    (void)s;
    static const uint32_t v[] = {0x00000000u, 0x80000000u, 0x7f800000u, 0xff800000u,
                                 0x7fc00000u, 0xbf800000u, 0x3f800000u, 0x40000000u};
    OpIn in[NCASES(v)];
    OpOut out[NCASES(v)];
    for (int i = 0; i < NCASES(v); i++)
        in[i] = (OpIn){v[i], 0, 0, 0};
    op_run(APPROX_BODY, in, NCASES(v), out);
    const uint32_t PINF = 0x7f800000u, NINF = 0xff800000u, ONE = 0x3f800000u;
    /* +0 */
    CHECK(0, "ex2(+0)", out[0].w[AP_EX2], ONE);
    CHECK(0, "lg2(+0)", out[0].w[AP_LG2], NINF);
    CHECK(0, "sin(+0)", out[0].w[AP_SIN], 0);
    CHECK(0, "cos(+0)", out[0].w[AP_COS], ONE);
    CHECK(0, "rsqrt(+0)", out[0].w[AP_RSQRT], PINF);
    CHECK(0, "rcp(+0)", out[0].w[AP_RCP], PINF);
    CHECK(0, "tanh(+0)", out[0].w[AP_TANH], 0);
    /* -0 */
    CHECK(1, "ex2(-0)", out[1].w[AP_EX2], ONE);
    CHECK(1, "lg2(-0)", out[1].w[AP_LG2], NINF);
    CHECK(1, "sin(-0)", out[1].w[AP_SIN], 0x80000000u);
    CHECK(1, "rsqrt(-0)", out[1].w[AP_RSQRT], NINF);
    CHECK(1, "rcp(-0)", out[1].w[AP_RCP], NINF);
    CHECK(1, "tanh(-0)", out[1].w[AP_TANH], 0x80000000u);
    /* +inf */
    CHECK(2, "ex2(+inf)", out[2].w[AP_EX2], PINF);
    CHECK(2, "lg2(+inf)", out[2].w[AP_LG2], PINF);
    assert_true(isnan(FV(out[2].w[AP_SIN])));
    assert_true(isnan(FV(out[2].w[AP_COS])));
    CHECK(2, "rsqrt(+inf)", out[2].w[AP_RSQRT], 0);
    CHECK(2, "rcp(+inf)", out[2].w[AP_RCP], 0);
    CHECK(2, "tanh(+inf)", out[2].w[AP_TANH], ONE);
    /* -inf */
    CHECK(3, "ex2(-inf)", out[3].w[AP_EX2], 0);
    assert_true(isnan(FV(out[3].w[AP_LG2])));
    assert_true(isnan(FV(out[3].w[AP_RSQRT])));
    CHECK(3, "rcp(-inf)", out[3].w[AP_RCP], 0x80000000u);
    CHECK(3, "tanh(-inf)", out[3].w[AP_TANH], 0xbf800000u);
    /* NaN in, NaN out */
    for (int k = 0; k < AP_COUNT; k++)
        assert_true(isnan(FV(out[4].w[k])));
    /* negative */
    assert_true(isnan(FV(out[5].w[AP_LG2])));
    assert_true(isnan(FV(out[5].w[AP_RSQRT])));

    /* exact on the simulator; the ISA promises only its error bound */
    SIM_ONLY(CHECK(6, "lg2(1)", out[6].w[AP_LG2], 0));
    SIM_ONLY(CHECK(7, "ex2(2)", out[7].w[AP_EX2], 0x40800000u));
    SIM_ONLY(CHECK(7, "rcp(2)", out[7].w[AP_RCP], 0x3f000000u));
    for (int i = 5; i < NCASES(v); i++)
        for (int k = 0; k < AP_COUNT; k++)
            if (!((k == AP_LG2 || k == AP_RSQRT) && i == 5) &&
                !approx_ok((Approx)k, FV(v[i]), FV(out[i].w[k])))
                fail_msg("approx %d of %a: %a", k, (double)FV(v[i]), (double)FV(out[i].w[k]));
}

/* ---- vector loads and stores ---------------------------------------------- */

static const char VEC_PTX[] = PTX_HEAD
    ".visible .entry vec(.param .u64 pin, .param .u64 pout)\n{\n"
    "  .reg .b16 %h<8>;\n  .reg .b32 %r<16>;\n  .reg .b64 %rd<8>;\n  .reg .f64 %fd<4>;\n"
    "  ld.param.u64 %rd1, [pin];\n  ld.param.u64 %rd2, [pout];\n"
    "  ld.global.v4.u8 {%h1, %h2, %h3, %h4}, [%rd1];\n"
    "  ld.global.v2.u8 {%h5, %h6}, [%rd1+6];\n"
    "  st.global.v4.u16 [%rd2], {%h4, %h3, %h2, %h1};\n"
    "  st.global.v2.u16 [%rd2+8], {%h5, %h6};\n"
    "  ld.global.v4.u16 {%h1, %h2, %h3, %h4}, [%rd1+8];\n"
    "  ld.global.v2.s16 {%r1, %r2}, [%rd1+16];\n"
    "  st.global.v4.u16 [%rd2+16], {%h4, %h3, %h2, %h1};\n"
    "  st.global.v2.u32 [%rd2+24], {%r1, %r2};\n"
    "  ld.global.v2.f64 {%fd1, %fd2}, [%rd1+32];\n"
    "  st.global.v2.f64 [%rd2+32], {%fd2, %fd1};\n"
    "  ld.global.v4.u8 {%r3, %r4, %r5, %r6}, [%rd1+20];\n"
    "  st.global.v4.u32 [%rd2+48], {%r3, %r4, %r5, %r6};\n"
    "  st.global.v2.u32 [%rd2+64], {%r3, 77};\n"
    "  st.global.v4.u8 [%rd2+72], {%h1, 9, %h2, 200};\n"
    "  ret;\n}\n";

static void test_ops_vector_loads_of_u8_u16_f64_and_stores_with_immediates(void **s)
{
    (void)s;
    uint8_t in[48];
    for (int i = 0; i < 48; i++)
        in[i] = (uint8_t)(0x81 + 7 * i);
    double d0 = -1.25, d1 = 3.0e300;
    memcpy(in + 32, &d0, 8);
    memcpy(in + 40, &d1, 8);
    uint8_t out[80];
    DeviceModule *m = load_text("vec.ptx", VEC_PTX);
    DevicePtr din = up(in, sizeof in), dout = zeros(sizeof out);
    launch(m, "vec", cfg1(1), ARGS(&din, &dout));
    down(out, dout, sizeof out);
    uint16_t h[40];
    memcpy(h, out, 80);
    uint32_t w[20];
    memcpy(w, out, 80);
    for (int k = 0; k < 4; k++)
        CHECK(k, "ld.v4.u8 zero-extends", h[k], in[3 - k]);
    CHECK(0, "ld.v2.u8", h[4], in[6]);
    CHECK(1, "ld.v2.u8", h[5], in[7]);
    uint16_t src16[4];
    memcpy(src16, in + 8, 8);
    for (int k = 0; k < 4; k++)
        CHECK(k, "ld.v4.u16", h[8 + k], src16[3 - k]);
    int16_t s16[2];
    memcpy(s16, in + 16, 4);
    CHECK(0, "ld.v2.s16 sign-extends", w[6], (uint32_t)(int32_t)s16[0]);
    CHECK(1, "ld.v2.s16 sign-extends", w[7], (uint32_t)(int32_t)s16[1]);
    double g0, g1;
    memcpy(&g0, out + 32, 8);
    memcpy(&g1, out + 40, 8);
    assert_true(g0 == d1 && g1 == d0);
    for (int k = 0; k < 4; k++)
        CHECK(k, "ld.v4.u8 into u32", w[12 + k], in[20 + k]);
    CHECK(0, "st.v2 with immediate", w[16], in[20]);
    CHECK(1, "st.v2 with immediate", w[17], 77);
    CHECK(0, "st.v4.u8 with immediates", out[72], (uint8_t)src16[0]);
    CHECK(1, "st.v4.u8 with immediates", out[73], 9);
    CHECK(2, "st.v4.u8 with immediates", out[74], (uint8_t)src16[1]);
    CHECK(3, "st.v4.u8 with immediates", out[75], 200);
    assert_int_equal(h[0], 0x96);   /* in[3] = 0x81 + 21 */
}

/* ---- atomics ---------------------------------------------------------------- */

/* 64 threads on shared words: inc (limit 9), dec (limit 6, from 5), a cas
 * ticket loop (thread t swaps t for t+1), exch, min.s32, max.u64; thread 0
 * stores the final values. */
static const char ATOM_SHARED_PTX[] = PTX_HEAD
    ".visible .entry atoms(.param .u64 pin, .param .u64 pout, .param .u64 pfin)\n{\n"
    "  .reg .pred %p<4>;\n  .reg .b32 %r<24>;\n  .reg .b64 %rd<24>;\n"
    "  .shared .align 8 .b32 w[8];\n  .shared .align 8 .b64 q[2];\n"
    "  ld.param.u64 %rd1, [pin];\n  ld.param.u64 %rd2, [pout];\n  ld.param.u64 %rd3, [pfin];\n"
    "  mov.u32 %r0, %tid.x;\n"
    "  mul.wide.u32 %rd4, %r0, 16;\n  add.s64 %rd5, %rd1, %rd4;\n"
    "  ld.global.u32 %r1, [%rd5];\n  ld.global.u64 %rd6, [%rd5+8];\n"
    "  mul.wide.u32 %rd7, %r0, 32;\n  add.s64 %rd8, %rd2, %rd7;\n"
    "  setp.ne.u32 %p1, %r0, 0;\n  @%p1 bra INIT_DONE;\n"
    "  mov.u32 %r20, 0;\n  mov.u32 %r21, 5;\n  mov.u32 %r22, 1000;\n  mov.u32 %r23, 0x7ffffff0;\n"
    "  mov.u64 %rd20, 0x10;\n"
    "  st.shared.v2.u32 [w], {%r20, %r21};\n  st.shared.v2.u32 [w+8], {%r20, %r22};\n"
    "  st.shared.u32 [w+16], %r23;\n  st.shared.u64 [q], %rd20;\n"
    "INIT_DONE:\n  bar.sync 0;\n"
    "  mov.u32 %r18, 9;\n  mov.u32 %r19, 6;\n"
    "  atom.shared.inc.u32 %r2, [w], %r18;\n"
    "  atom.shared.dec.u32 %r3, [w+4], %r19;\n"
    "  add.u32 %r10, %r0, 1;\n"
    "CAS:\n  atom.shared.cas.b32 %r4, [w+8], %r0, %r10;\n"
    "  setp.ne.u32 %p2, %r4, %r0;\n  @%p2 bra CAS;\n"
    "  atom.shared.exch.b32 %r5, [w+12], %r0;\n"
    "  atom.shared.min.s32 %r6, [w+16], %r1;\n"
    "  atom.shared.max.u64 %rd9, [q], %rd6;\n"
    "  st.global.v4.u32 [%rd8], {%r2, %r3, %r4, %r5};\n"
    "  bar.sync 0;\n"
    "  @%p1 bra END;\n"
    "  ld.shared.v4.u32 {%r11, %r12, %r13, %r14}, [w];\n  ld.shared.u32 %r15, [w+16];\n"
    "  ld.shared.u64 %rd10, [q];\n"
    "  st.global.v4.u32 [%rd3], {%r11, %r12, %r13, %r14};\n  st.global.u32 [%rd3+16], %r15;\n"
    "  st.global.u64 [%rd3+24], %rd10;\n"
    "END:\n  ret;\n}\n";

static void test_ops_shared_atomics_inc_dec_cas_exch_min_max(void **s)
{
    (void)s;
    enum { N = 64 };
    struct { uint32_t v; uint32_t pad; uint64_t q; } in[N];
    uint32_t out[N * 8], fin[8];
    seed(18);
    int32_t mn = 0x7ffffff0;
    uint64_t mx = 0x10;
    for (int i = 0; i < N; i++) {
        in[i].v = rnd32();
        in[i].pad = 0;
        in[i].q = rnd64();
        if ((int32_t)in[i].v < mn)
            mn = (int32_t)in[i].v;
        if (in[i].q > mx)
            mx = in[i].q;
    }
    DeviceModule *m = load_text("atoms.ptx", ATOM_SHARED_PTX);
    DevicePtr din = up(in, sizeof in), dout = zeros(sizeof out), dfin = zeros(sizeof fin);
    DeviceLaunch c = cfg1(N);
    c.inst_budget = 2000000;
    launch(m, "atoms", c, ARGS(&din, &dout, &dfin));
    down(out, dout, sizeof out);
    down(fin, dfin, sizeof fin);
    /* inc and dec: each thread applies the same step, so the multiset of old
     * values and the final value do not depend on the order */
    int inc_count[16] = {0}, dec_count[16] = {0}, want_inc[16] = {0}, want_dec[16] = {0};
    uint32_t vi = 0, vd = 5;
    for (int i = 0; i < N; i++) {
        want_inc[vi]++;
        vi = vi >= 9 ? 0 : vi + 1;
        want_dec[vd]++;
        vd = (vd == 0 || vd > 6) ? 6 : vd - 1;
    }
    bool seen[N + 1001] = {false};
    for (int t = 0; t < N; t++) {
        assert_true(out[8 * t] < 16 && out[8 * t + 1] < 16);
        inc_count[out[8 * t]]++;
        dec_count[out[8 * t + 1]]++;
        CHECK(t, "cas ticket", out[8 * t + 2], t);
        uint32_t old = out[8 * t + 3];
        assert_true(old < N || old == 1000);
        assert_false(seen[old]);
        seen[old] = true;
    }
    for (int k = 0; k < 16; k++) {
        CHECK(k, "atom.inc old values", inc_count[k], want_inc[k]);
        CHECK(k, "atom.dec old values", dec_count[k], want_dec[k]);
    }
    CHECK(0, "atom.inc final", fin[0], vi);
    CHECK(0, "atom.dec final", fin[1], vd);
    assert_int_equal(fin[0], 4);     /* 64 mod 10 */
    assert_int_equal(fin[2], N);     /* every ticket taken */
    assert_true(fin[3] < N);         /* exch: olds + final = {1000, 0..63} */
    assert_false(seen[fin[3]]);
    CHECK(0, "atom.min.s32", fin[4], (uint32_t)mn);
    uint64_t fq;
    memcpy(&fq, &fin[6], 8);
    CHECK(0, "atom.max.u64", fq, mx);
    assert_true(mx > 0x8000000000000000ull);   /* the unsigned compare mattered */
}

/* red.global.add.f64, and f32 atomic adds of subnormals: flushed on global
 * memory, kept on shared memory. */
static const char ATOM_FLOAT_PTX[] = PTX_HEAD
    ".visible .entry atomf(.param .u64 pin, .param .u64 pout)\n{\n"
    "  .reg .pred %p<4>;\n  .reg .b32 %r<8>;\n  .reg .b64 %rd<12>;\n  .reg .f32 %f<8>;\n"
    "  .reg .f64 %fd<4>;\n  .shared .align 4 .f32 sf[2];\n"
    "  ld.param.u64 %rd1, [pin];\n  ld.param.u64 %rd2, [pout];\n"
    "  mov.u32 %r0, %tid.x;\n  mul.wide.u32 %rd3, %r0, 8;\n  add.s64 %rd4, %rd1, %rd3;\n"
    "  ld.global.f64 %fd1, [%rd4];\n"
    "  setp.ne.u32 %p1, %r0, 0;\n  @%p1 bra I;\n"
    "  mov.f32 %f6, 0f00000000;\n  mov.f32 %f7, 0f00800000;\n"
    "  st.shared.v2.f32 [sf], {%f6, %f7};\n"
    "I:\n  bar.sync 0;\n"
    "  mov.f32 %f1, 0f00000001;\n  mov.f32 %f2, 0f3fc00000;\n  mov.f32 %f3, 0f80000001;\n"
    "  red.global.add.f64 [%rd2], %fd1;\n"
    "  atom.global.add.f32 %f4, [%rd2+8], %f1;\n"
    "  red.global.add.f32 [%rd2+12], %f2;\n"
    "  atom.shared.add.f32 %f5, [sf], %f1;\n"
    "  atom.shared.add.f32 %f5, [sf+4], %f3;\n"
    "  bar.sync 0;\n  @%p1 bra E;\n"
    "  ld.shared.f32 %f4, [sf];\n  ld.shared.f32 %f5, [sf+4];\n"
    "  st.global.v2.f32 [%rd2+16], {%f4, %f5};\n"
    "E:\n  ret;\n}\n";

static void test_ops_float_atomics_global_flushes_subnormals_shared_keeps_them(void **s)
{
    (void)s;
    enum { N = 64 };
    double in[N], sum = 0;
    for (int i = 0; i < N; i++) {
        in[i] = (i % 7 - 3) * 0.25 + (i % 3) * 1024.0;
        sum += in[i];
    }
    DeviceModule *m = load_text("atomf.ptx", ATOM_FLOAT_PTX);
    DevicePtr din = up(in, sizeof in), dout = zeros(32);
    launch(m, "atomf", cfg1(N), ARGS(&din, &dout));
    uint8_t out[32];
    down(out, dout, sizeof out);
    double got;
    uint32_t w[4];
    memcpy(&got, out, 8);
    memcpy(w, out + 8, 16);
    assert_true(got == sum);                    /* every partial sum is exact */
    CHECK(0, "atom.global.add.f32 of subnormals stays +0", w[0], 0);
    CHECK(0, "red.global.add.f32", w[1], F(96.0f));
    CHECK(0, "atom.shared.add.f32 keeps subnormals", w[2], 0x00000040u);
    CHECK(0, "atom.shared.add.f32 subnormal result", w[3], 0x00800000u - 64);
}

/* ---- warp-level ---------------------------------------------------------- */

static const char WARP_PTX[] = PTX_HEAD
    ".visible .entry warp(.param .u64 pin, .param .u64 pout)\n{\n"
    "  .reg .pred %p<8>;\n  .reg .b32 %r<24>;\n  .reg .b64 %rd<8>;\n"
    "  ld.param.u64 %rd1, [pin];\n  ld.param.u64 %rd2, [pout];\n"
    "  mov.u32 %r0, %tid.x;\n  mul.wide.u32 %rd3, %r0, 4;\n  add.s64 %rd4, %rd1, %rd3;\n"
    "  ld.global.u32 %r1, [%rd4];\n"
    "  setp.gt.s32 %p1, %r1, 0;\n"
    "  vote.sync.uni.pred %p2, %p1, 0xffffffff;\n  selp.u32 %r2, 1, 0, %p2;\n"
    "  match.all.sync.b32 %r3|%p3, %r1, 0xffffffff;\n  selp.u32 %r4, 1, 0, %p3;\n"
    "  match.any.sync.b32 %r5, %r1, 0xffffffff;\n"
    "  redux.sync.min.s32 %r6, %r1, 0xffffffff;\n"
    "  redux.sync.max.u32 %r7, %r1, 0xffffffff;\n"
    "  redux.sync.xor.b32 %r8, %r1, 0xffffffff;\n"
    "  mov.u32 %r9, %lanemask_lt;\n  mov.u32 %r10, %lanemask_le;\n  mov.u32 %r11, %lanemask_eq;\n"
    "  mov.u32 %r12, %lanemask_ge;\n  mov.u32 %r13, %lanemask_gt;\n"
    "  mul.wide.u32 %rd5, %r0, 64;\n  add.s64 %rd6, %rd2, %rd5;\n"
    "  st.global.v4.u32 [%rd6], {%r2, %r3, %r4, %r5};\n"
    "  st.global.v4.u32 [%rd6+16], {%r6, %r7, %r8, %r9};\n"
    "  st.global.v4.u32 [%rd6+32], {%r10, %r11, %r12, %r13};\n"
    "  ret;\n}\n";

static void test_ops_vote_uni_match_all_redux_and_lanemasks_per_warp(void **s)
{
    (void)s;
    enum { N = 128 };
    int32_t in[N];
    seed(19);
    for (int i = 0; i < N; i++) {
        int w = i / 32;
        in[i] = w == 0 ? (int32_t)rnd32()                /* mixed */
              : w == 1 ? 42                              /* all equal */
              : w == 2 ? (int32_t)(rnd32() % 4 + 1)      /* all positive, 4 values */
                       : -(int32_t)(rnd32() % 3);        /* all <= 0 */
    }
    uint32_t out[N * 16];
    DeviceModule *m = load_text("warp.ptx", WARP_PTX);
    DevicePtr din = up(in, sizeof in), dout = zeros(sizeof out);
    launch(m, "warp", cfg1(N), ARGS(&din, &dout));
    down(out, dout, sizeof out);
    for (int w = 0; w < N / 32; w++) {
        const int32_t *v = in + 32 * w;
        bool allpos = true, anypos = false, alleq = true;
        int32_t mn = v[0];
        uint32_t mx = (uint32_t)v[0], x = 0;
        for (int l = 0; l < 32; l++) {
            allpos &= v[l] > 0;
            anypos |= v[l] > 0;
            alleq &= v[l] == v[0];
            mn = v[l] < mn ? v[l] : mn;
            mx = (uint32_t)v[l] > mx ? (uint32_t)v[l] : mx;
            x ^= (uint32_t)v[l];
        }
        for (int l = 0; l < 32; l++) {
            const uint32_t *o = out + 16 * (32 * w + l);
            int t = 32 * w + l;
            uint32_t same = 0;
            for (int k = 0; k < 32; k++)
                same |= (uint32_t)(v[k] == v[l]) << k;
            CHECK(t, "vote.uni", o[0], allpos == anypos);
            CHECK(t, "match.all mask", o[1], alleq ? 0xffffffffu : 0);
            CHECK(t, "match.all pred", o[2], alleq);
            CHECK(t, "match.any", o[3], same);
            CHECK(t, "redux.min.s32", o[4], (uint32_t)mn);
            CHECK(t, "redux.max.u32", o[5], mx);
            CHECK(t, "redux.xor", o[6], x);
            uint32_t eq = 1u << l, lt = eq - 1, le = lt | eq;
            CHECK(t, "%lanemask_lt", o[7], lt);
            CHECK(t, "%lanemask_le", o[8], le);
            CHECK(t, "%lanemask_eq", o[9], eq);
            CHECK(t, "%lanemask_ge", o[10], ~lt);
            CHECK(t, "%lanemask_gt", o[11], ~le);
        }
    }
    assert_int_equal(out[16 * 31 + 7], 0x7fffffffu);    /* lane 31 lt */
    assert_int_equal(out[16 * 31 + 11], 0);             /* lane 31 gt */
    assert_int_equal(out[16 * 32 + 1], 0xffffffffu);    /* warp 1 all equal */
    assert_int_equal(out[16 * 64 + 0], 1);              /* warp 2 uniform */
}

/* ---- special registers, 3D launches, mov packing ------------------------- */

static const char GRID3_PTX[] = PTX_HEAD
    ".visible .entry grid3(.param .u64 pout)\n{\n"
    "  .reg .b32 %r<32>;\n  .reg .b64 %rd<8>;\n"
    "  ld.param.u64 %rd1, [pout];\n"
    "  mov.u32 %r1, %tid.x;\n  mov.u32 %r2, %tid.y;\n  mov.u32 %r3, %tid.z;\n"
    "  mov.u32 %r4, %ntid.x;\n  mov.u32 %r5, %ntid.y;\n  mov.u32 %r6, %ntid.z;\n"
    "  mov.u32 %r7, %ctaid.x;\n  mov.u32 %r8, %ctaid.y;\n  mov.u32 %r9, %ctaid.z;\n"
    "  mov.u32 %r10, %nctaid.x;\n  mov.u32 %r11, %nctaid.y;\n  mov.u32 %r12, %nctaid.z;\n"
    "  mov.u32 %r13, %dynamic_smem_size;\n"
    /* block = (ctaid.z * nctaid.y + ctaid.y) * nctaid.x + ctaid.x, likewise thread */
    "  mad.lo.u32 %r14, %r9, %r11, %r8;\n  mad.lo.u32 %r14, %r14, %r10, %r7;\n"
    "  mad.lo.u32 %r15, %r3, %r5, %r2;\n  mad.lo.u32 %r15, %r15, %r4, %r1;\n"
    "  mul.lo.u32 %r16, %r4, %r5;\n  mul.lo.u32 %r16, %r16, %r6;\n"
    "  mad.lo.u32 %r17, %r14, %r16, %r15;\n"
    "  shl.b32 %r18, %r9, 8;\n  shl.b32 %r19, %r8, 4;\n  or.b32 %r18, %r18, %r19;\n"
    "  or.b32 %r18, %r18, %r7;\n"
    "  shl.b32 %r19, %r3, 24;\n  shl.b32 %r20, %r2, 20;\n  or.b32 %r19, %r19, %r20;\n"
    "  shl.b32 %r20, %r1, 16;\n  or.b32 %r19, %r19, %r20;\n  or.b32 %r18, %r18, %r19;\n"
    "  shl.b32 %r21, %r12, 16;\n  shl.b32 %r22, %r11, 8;\n  or.b32 %r21, %r21, %r22;\n"
    "  or.b32 %r21, %r21, %r10;\n"
    "  mul.wide.u32 %rd2, %r17, 16;\n  add.s64 %rd3, %rd1, %rd2;\n"
    "  st.global.v4.u32 [%rd3], {%r18, %r21, %r13, %r16};\n"
    "  ret;\n}\n";

static void test_ops_3d_grid_and_block_read_z_indices_nctaid_and_dynamic_smem_size(void **s)
{
    (void)s;
    enum { GX = 3, GY = 2, GZ = 4, BX = 5, BY = 3, BZ = 2, NB = GX * GY * GZ, NT = BX * BY * BZ };
    uint32_t out[NB * NT * 4];
    DeviceModule *m = load_text("grid3.ptx", GRID3_PTX);
    DevicePtr dout = zeros(sizeof out);
    DeviceLaunch c = {.grid = {GX, GY, GZ}, .block = {BX, BY, BZ}, .smem = 4352, .inst_budget = 0};
    launch(m, "grid3", c, ARGS(&dout));
    down(out, dout, sizeof out);
    for (unsigned cz = 0; cz < GZ; cz++)
        for (unsigned cy = 0; cy < GY; cy++)
            for (unsigned cx = 0; cx < GX; cx++)
                for (unsigned tz = 0; tz < BZ; tz++)
                    for (unsigned ty = 0; ty < BY; ty++)
                        for (unsigned tx = 0; tx < BX; tx++) {
                            unsigned b = (cz * GY + cy) * GX + cx, t = (tz * BY + ty) * BX + tx;
                            const uint32_t *o = out + 4 * (b * NT + t);
                            int i = (int)(b * NT + t);
                            CHECK(i, "ctaid/tid xyz", o[0],
                                  cz << 8 | cy << 4 | cx | tz << 24 | ty << 20 | tx << 16);
                            CHECK(i, "nctaid xyz", o[1], GZ << 16 | GY << 8 | GX);
                            CHECK(i, "%dynamic_smem_size", o[2], 4352);
                            CHECK(i, "ntid product", o[3], NT);
                        }
}

static void test_ops_mov_b64_packs_and_unpacks_32bit_halves(void **s)
{
    (void)s;
    OpIn in[16];
    OpOut out[16];
    seed(20);
    for (int i = 0; i < 16; i++)
        in[i] = (OpIn){rnd64(), rnd64(), 0, 0};
    in[0] = (OpIn){0x11111111u, 0x22222222u, 0, 0};
    op_run("  mov.b64 %rd15, {%r1, %r2};\n  mov.b64 {%r4, %r5}, %rd12;\n"
           "  cvt.u16.u32 %h1, %r1;\n  cvt.u16.u32 %h2, %r2;\n  mov.b32 %r6, {%h1, %h2};\n"
           "  mov.b32 {%h3, %h4}, %r1;\n  cvt.u32.u16 %r7, %h4;\n"
           "  st.global.u64 [%rd6], %rd15;\n  st.global.v2.u32 [%rd6+8], {%r4, %r5};\n"
           "  st.global.v2.u32 [%rd6+16], {%r6, %r7};\n",
           in, 16, out);
    for (int i = 0; i < 16; i++) {
        uint32_t a = (uint32_t)in[i].a, b = (uint32_t)in[i].b;
        CHECK(i, "mov.b64 {lo,hi}", out[i].q[0], (uint64_t)b << 32 | a);
        CHECK(i, "mov.b64 unpack lo", out[i].w[2], (uint32_t)in[i].b);
        CHECK(i, "mov.b64 unpack hi", out[i].w[3], (uint32_t)(in[i].b >> 32));
        CHECK(i, "mov.b32 {h,h}", out[i].w[4], (b & 0xffff) << 16 | (a & 0xffff));
        CHECK(i, "mov.b32 unpack hi half", out[i].w[5], a >> 16);
    }
    assert_true(out[0].q[0] == 0x2222222211111111ull);
}


/* ---- more: f64 rounding, narrowing cvt, ftz compares, partial warps ---- */

static uint64_t host_f64(char op, int fe, uint64_t a, uint64_t b, uint64_t c)
{
    volatile double x = DV(a), y = DV(b), z = DV(c);
    volatile double r = 0;
    fesetround(fe);
    switch (op) {
    case '/': r = x / y; break;
    case 'f': r = fma(x, y, z); break;
    case 'q': r = sqrt(x); break;
    }
    fesetround(FE_TONEAREST);
    return D(r);
}

static void test_ops_f64_div_fma_sqrt_rcp_in_each_rounding_mode(void **s)
{
    (void)s;
    enum { N = 96 };
    OpIn in[N];
    OpOut out[N];
    seed(22);
    in[0] = (OpIn){D(1.0), D(3.0), D(0.0), 0};
    in[1] = (OpIn){D(2.0), D(-3.0), D(1.0), 0};
    for (int i = 2; i < N; i++) {
        uint64_t e = 1000 + rnd64() % 47;
        in[i] = (OpIn){(rnd64() & 0x000fffffffffffffull) | (e << 52),
                       (rnd64() & 0x800fffffffffffffull) | ((e + rnd64() % 9 - 4) << 52),
                       (rnd64() & 0x800fffffffffffffull) | ((e + 2) << 52), 0};
    }
    op_run("  div.rz.f64 %fd4, %fd1, %fd2;\n  fma.rm.f64 %fd5, %fd1, %fd2, %fd3;\n"
           "  sqrt.rp.f64 %fd6, %fd1;\n  rcp.rn.f64 %fd7, %fd2;\n"
           "  st.global.v2.f64 [%rd6], {%fd4, %fd5};\n  st.global.v2.f64 [%rd6+16], {%fd6, %fd7};\n",
           in, N, out);
    for (int i = 0; i < N; i++) {
        CHECK(i, "div.rz.f64", out[i].q[0], host_f64('/', FE_TOWARDZERO, in[i].a, in[i].b, 0));
        CHECK(i, "fma.rm.f64", out[i].q[1], host_f64('f', FE_DOWNWARD, in[i].a, in[i].b, in[i].c));
        CHECK(i, "sqrt.rp.f64", out[i].q[2], host_f64('q', FE_UPWARD, in[i].a, 0, 0));
        CHECK(i, "rcp.rn.f64", out[i].q[3], host_f64('/', FE_TONEAREST, D(1.0), in[i].b, 0));
    }
    assert_true(out[0].q[0] == 0x3fd5555555555555ull);   /* 1/3 truncated */
    assert_true(out[0].q[3] == 0x3fd5555555555555ull);   /* 1/3 to nearest */
    assert_true(out[1].q[1] == D(-5.0));                  /* 2*-3+1 exactly */
}

static void test_ops_cvt_f64_to_f32_rounds_by_mode_and_f32_to_f64_is_exact(void **s)
{
    (void)s;
    enum { N = 64 };
    OpIn in[N];
    OpOut out[N];
    seed(23);
    in[0] = (OpIn){D(1.0 + 0x1p-24), 0, 0, 0};          /* a tie */
    in[1] = (OpIn){D(-(1.0 + 0x1p-24)), 0, 0, 0};
    in[2] = (OpIn){D(1e39), 0, 0, 0};                   /* beyond FLT_MAX */
    in[3] = (OpIn){D(0x1p-140), 0x00000001u, 0, 0};     /* f32 subnormal result */
    for (int i = 4; i < N; i++)
        in[i] = (OpIn){(rnd64() & 0x800fffffffffffffull) | ((uint64_t)(1023 - 140 + rnd64() % 270) << 52),
                       rnd32(), 0, 0};
    op_run("  cvt.rn.f32.f64 %f4, %fd1;\n  cvt.rz.f32.f64 %f5, %fd1;\n"
           "  cvt.rm.f32.f64 %f6, %fd1;\n  cvt.rp.f32.f64 %f7, %fd1;\n"
           "  cvt.f64.f32 %fd8, %f2;\n"
           "  st.global.v4.f32 [%rd6], {%f4, %f5, %f6, %f7};\n  st.global.f64 [%rd6+16], %fd8;\n",
           in, N, out);
    for (int i = 0; i < N; i++) {
        for (int r = 0; r < 4; r++) {
            volatile double d = DV(in[i].a);
            volatile float f;
            fesetround(FE[r]);
            f = (float)d;
            fesetround(FE_TONEAREST);
            CHECK(i * 4 + r, "cvt.{rn,rz,rm,rp}.f32.f64", out[i].w[r], canon32(f));
        }
        float src = FV((uint32_t)in[i].b);
        if (!isnan(src))
            CHECK(i, "cvt.f64.f32", out[i].q[2], D((double)src));
    }
    assert_int_equal(out[0].w[0], 0x3f800000u);   /* tie to even */
    assert_int_equal(out[0].w[3], 0x3f800001u);
    assert_int_equal(out[1].w[2], 0xbf800001u);
    assert_int_equal(out[2].w[0], 0x7f800000u);
    assert_int_equal(out[2].w[1], 0x7f7fffffu);
    assert_int_equal(out[3].w[0], 0x00000200u);   /* 2^-140 = 2^9 * 2^-149 */
    assert_true(out[3].q[2] == D(0x1p-149));
}

static void test_ops_setp_ftz_compares_subnormals_as_signed_zero(void **s)
{
    (void)s;
    OpIn in[6];
    OpOut out[6];
    in[0] = (OpIn){0x00000001u, 0x00000000u, 0, 0};
    in[1] = (OpIn){0x80000001u, 0x00000000u, 0, 0};
    in[2] = (OpIn){0x00400000u, 0x00200000u, 0, 0};
    in[3] = (OpIn){0x00800000u, 0x007fffffu, 0, 0};
    in[4] = (OpIn){0x7fc00000u, 0x00000001u, 0, 0};
    op_run("  setp.eq.f32 %p1, %f1, %f2;\n  selp.u32 %r4, 1, 0, %p1;\n"
           "  setp.eq.ftz.f32 %p1, %f1, %f2;\n  selp.u32 %r5, 1, 0, %p1;\n"
           "  setp.gt.ftz.f32 %p1, %f1, %f2;\n  selp.u32 %r6, 1, 0, %p1;\n"
           "  setp.gtu.ftz.f32 %p1, %f1, %f2;\n  selp.u32 %r7, 1, 0, %p1;\n"
           "  st.global.v4.u32 [%rd6], {%r4, %r5, %r6, %r7};\n",
           in, 5, out);
    static const uint32_t want[5][4] = {
        {0, 1, 0, 0},   /* denorm vs +0: equal only with ftz */
        {0, 1, 0, 0},   /* -denorm flushes to -0, and -0 == +0 */
        {0, 1, 0, 0},   /* two different denorms both flush */
        {0, 0, 1, 1},   /* min normal > max denorm (flushed) */
        {0, 0, 0, 1},   /* NaN: unordered */
    };
    for (int i = 0; i < 5; i++)
        for (int k = 0; k < 4; k++)
            CHECK(i * 4 + k, "setp .ftz", out[i].w[k], want[i][k]);
}

static void test_ops_approx_ftz_flushes_subnormal_inputs_and_results(void **s)
{
    (void)s;
    OpIn in[4];
    OpOut out[4];
    in[0] = (OpIn){0x00000010u, 0xc3020000u /* -130 */, 0, 0};
    in[1] = (OpIn){0x80000010u, 0xc3020000u, 0, 0};
    op_run("  ex2.approx.ftz.f32 %f4, %f2;\n  lg2.approx.ftz.f32 %f5, %f1;\n"
           "  rcp.approx.ftz.f32 %f6, %f1;\n  rsqrt.approx.ftz.f32 %f7, %f1;\n"
           "  sin.approx.ftz.f32 %f8, %f1;\n  sqrt.approx.ftz.f32 %f9, %f1;\n"
           "  st.global.v4.f32 [%rd6], {%f4, %f5, %f6, %f7};\n  st.global.v2.f32 [%rd6+16], {%f8, %f9};\n",
           in, 2, out);
    CHECK(0, "ex2.approx.ftz(-130) flushes", out[0].w[0], 0);
    CHECK(0, "lg2.approx.ftz(denorm) = lg2(+0)", out[0].w[1], 0xff800000u);
    CHECK(0, "rcp.approx.ftz(denorm) = rcp(+0)", out[0].w[2], 0x7f800000u);
    CHECK(0, "rsqrt.approx.ftz(denorm)", out[0].w[3], 0x7f800000u);
    CHECK(0, "sin.approx.ftz(denorm)", out[0].w[4], 0);
    CHECK(0, "sqrt.approx.ftz(denorm)", out[0].w[5], 0);
    CHECK(1, "lg2.approx.ftz(-denorm) = lg2(-0)", out[1].w[1], 0xff800000u);
    CHECK(1, "rcp.approx.ftz(-denorm) = rcp(-0)", out[1].w[2], 0xff800000u);
    CHECK(1, "rsqrt.approx.ftz(-denorm)", out[1].w[3], 0xff800000u);
    CHECK(1, "sin.approx.ftz(-denorm)", out[1].w[4], 0x80000000u);
    CHECK(1, "sqrt.approx.ftz(-denorm)", out[1].w[5], 0x80000000u);
}

static void test_ops_integer_min_max_abs_neg_64bit_and_int_min(void **s)
{
    (void)s;
    OpIn in[40];
    OpOut out[40];
    int n = 0;
    in[n++] = (OpIn){0x80000000u, 0x7fffffffu, 0, 0};
    in[n++] = (OpIn){0x8000000000000000ull, 1, 0, 0};
    seed(24);
    while (n < 40)
        in[n++] = (OpIn){rnd64(), rnd64(), 0, 0};
    op_run("  abs.s32 %r4, %r1;\n  neg.s32 %r5, %r1;\n  min.u32 %r6, %r1, %r2;\n  max.s32 %r7, %r1, %r2;\n"
           "  min.s64 %rd15, %rd11, %rd12;\n  max.u64 %rd16, %rd11, %rd12;\n  abs.s64 %rd17, %rd11;\n"
           "  st.global.v4.u32 [%rd6], {%r4, %r5, %r6, %r7};\n  st.global.u64 [%rd6+16], %rd15;\n"
           "  st.global.v2.u64 [%rd6+16], {%rd15, %rd16};\n",
           in, n, out);
    OpOut out2[40];
    op_run("  abs.s64 %rd17, %rd11;\n  neg.s64 %rd18, %rd11;\n  st.global.v2.u64 [%rd6], {%rd17, %rd18};\n",
           in, n, out2);
    for (int i = 0; i < n; i++) {
        uint32_t a = (uint32_t)in[i].a, b = (uint32_t)in[i].b;
        int32_t sa = (int32_t)a, sb = (int32_t)b;
        int64_t SA = (int64_t)in[i].a, SB = (int64_t)in[i].b;
        CHECK(i, "abs.s32", out[i].w[0], sa < 0 ? 0u - a : a);
        CHECK(i, "neg.s32", out[i].w[1], 0u - a);
        CHECK(i, "min.u32", out[i].w[2], a < b ? a : b);
        CHECK(i, "max.s32", out[i].w[3], (uint32_t)(sa > sb ? sa : sb));
        CHECK(i, "min.s64", out[i].q[2], (uint64_t)(SA < SB ? SA : SB));
        CHECK(i, "max.u64", out[i].q[3], in[i].a > in[i].b ? in[i].a : in[i].b);
        CHECK(i, "abs.s64", out2[i].q[0], SA < 0 ? 0 - in[i].a : in[i].a);
        CHECK(i, "neg.s64", out2[i].q[1], 0 - in[i].a);
    }
    assert_int_equal(out[0].w[0], 0x80000000u);         /* abs(INT_MIN) = INT_MIN */
    assert_true(out2[1].q[0] == 0x8000000000000000ull);
    assert_true(out[1].q[2] == 0x8000000000000000ull);  /* min.s64 */
}

static void test_ops_16bit_shifts_clamp_at_width(void **s)
{
    (void)s;
    OpIn in[32];
    OpOut out[32];
    static const uint32_t sh[] = {0, 1, 15, 16, 17, 31, 32, 1000};
    int n = 0;
    for (int i = 0; i < NCASES(sh); i++) {
        in[n++] = (OpIn){0x8421, sh[i], 0, 0};
        in[n++] = (OpIn){0x7ffe, sh[i], 0, 0};
    }
    op_run("  cvt.u16.u32 %h1, %r1;\n"
           "  shl.b16 %h2, %h1, %r2;\n  shr.u16 %h3, %h1, %r2;\n  shr.s16 %h4, %h1, %r2;\n"
           "  st.global.v4.u16 [%rd6], {%h2, %h3, %h4, %h1};\n",
           in, n, out);
    for (int i = 0; i < n; i++) {
        uint16_t a = (uint16_t)in[i].a;
        uint32_t k = (uint32_t)in[i].b;
        uint16_t h[4];
        memcpy(h, out[i].w, sizeof h);
        CHECK(i, "shl.b16", h[0], k >= 16 ? 0 : (uint16_t)(a << k));
        CHECK(i, "shr.u16", h[1], k >= 16 ? 0 : (uint16_t)(a >> k));
        CHECK(i, "shr.s16", h[2], (uint16_t)((int16_t)a >> (k >= 16 ? 15 : k)));
    }
    assert_int_equal(out[6].w[1] & 0xffff, 0xffff);   /* 0x8421 >> 16 arithmetic */
}

/* A block of 48: warp 1 has 16 threads, so its warp-wide operations name
 * membermask 0xffff. */
static const char PARTIAL_PTX[] = PTX_HEAD
    ".visible .entry partial(.param .u64 pin, .param .u64 pout)\n{\n"
    "  .reg .pred %p<4>;\n  .reg .b32 %r<24>;\n  .reg .b64 %rd<8>;\n"
    "  ld.param.u64 %rd1, [pin];\n  ld.param.u64 %rd2, [pout];\n"
    "  mov.u32 %r0, %tid.x;\n  mul.wide.u32 %rd3, %r0, 4;\n  add.s64 %rd4, %rd1, %rd3;\n"
    "  ld.global.u32 %r1, [%rd4];\n"
    "  setp.lt.u32 %p1, %r0, 32;\n  selp.b32 %r2, -1, 0xffff, %p1;\n"
    "  and.b32 %r3, %r1, 1;\n  setp.ne.u32 %p2, %r3, 0;\n"
    "  redux.sync.add.u32 %r4, %r1, %r2;\n  redux.sync.min.u32 %r5, %r1, %r2;\n"
    "  redux.sync.or.b32 %r6, %r1, %r2;\n  vote.sync.ballot.b32 %r7, %p2, %r2;\n"
    "  activemask.b32 %r8;\n  mov.u32 %r9, %lanemask_gt;\n"
    "  vote.sync.all.pred %p3, %p2, %r2;\n  selp.u32 %r10, 1, 0, %p3;\n"
    "  mul.wide.u32 %rd5, %r0, 32;\n  add.s64 %rd6, %rd2, %rd5;\n"
    "  st.global.v4.u32 [%rd6], {%r4, %r5, %r6, %r7};\n"
    "  st.global.v4.u32 [%rd6+16], {%r8, %r9, %r10, %r0};\n"
    "  ret;\n}\n";

static void test_ops_redux_vote_and_lanemask_in_a_partial_warp(void **s)
{
    (void)s;
    enum { N = 48 };
    uint32_t in[N], out[N * 8];
    seed(25);
    for (int i = 0; i < N; i++)
        in[i] = rnd32() >> 4;
    for (int i = 32; i < N; i++)
        in[i] |= 1;     /* warp 1: all odd */
    DeviceModule *m = load_text("partial.ptx", PARTIAL_PTX);
    DevicePtr din = up(in, sizeof in), dout = zeros(sizeof out);
    launch(m, "partial", cfg1(N), ARGS(&din, &dout));
    down(out, dout, sizeof out);
    for (int w = 0; w < 2; w++) {
        int lo = 32 * w, hi = w ? N : 32;
        uint32_t sum = 0, mn = 0xffffffffu, orv = 0, ballot = 0;
        bool all = true;
        for (int i = lo; i < hi; i++) {
            sum += in[i];
            mn = in[i] < mn ? in[i] : mn;
            orv |= in[i];
            ballot |= (in[i] & 1u) << (i - lo);
            all &= (in[i] & 1) != 0;
        }
        uint32_t active = w ? 0xffffu : 0xffffffffu;
        for (int i = lo; i < hi; i++) {
            const uint32_t *o = out + 8 * i;
            unsigned lane = (unsigned)(i - lo);
            CHECK(i, "redux.add", o[0], sum);
            CHECK(i, "redux.min", o[1], mn);
            CHECK(i, "redux.or", o[2], orv);
            CHECK(i, "vote.ballot", o[3], ballot);
            CHECK(i, "activemask", o[4], active);
            CHECK(i, "%lanemask_gt", o[5], lane == 31 ? 0 : ~((2u << lane) - 1));
            CHECK(i, "vote.all", o[6], all);
        }
    }
    assert_int_equal(out[8 * 40 + 6], 1);            /* warp 1 is all odd */
    assert_int_equal(out[8 * 47 + 5], 0xffff0000u);  /* lane 15: gt covers absent lanes too */
}

/* bar.red with a thread count: warps 0-1 reduce on barrier 1, warps 2-3 on
 * barrier 2, each over its own 64 threads. */
static const char BAR_RED_COUNT_PTX[] = PTX_HEAD
    ".visible .entry barcnt(.param .u64 pin, .param .u64 pout)\n{\n"
    "  .reg .pred %p<4>;\n  .reg .b32 %r<8>;\n  .reg .b64 %rd<8>;\n"
    "  ld.param.u64 %rd1, [pin];\n  ld.param.u64 %rd2, [pout];\n"
    "  mov.u32 %r0, %tid.x;\n  mul.wide.u32 %rd3, %r0, 4;\n  add.s64 %rd4, %rd1, %rd3;\n"
    "  add.s64 %rd5, %rd2, %rd3;\n"
    "  ld.global.u32 %r1, [%rd4];\n  setp.ne.u32 %p1, %r1, 0;\n"
    "  setp.lt.u32 %p2, %r0, 64;\n  @%p2 bra LOW;\n"
    "  bar.red.popc.u32 %r2, 2, 64, %p1;\n  bar.red.or.pred %p3, 2, 64, %p1;\n  bra.uni OUT;\n"
    "LOW:\n  bar.red.popc.u32 %r2, 1, 64, %p1;\n  bar.red.or.pred %p3, 1, 64, %p1;\n"
    "OUT:\n  selp.u32 %r3, 0x10000, 0, %p3;\n  or.b32 %r2, %r2, %r3;\n"
    "  st.global.u32 [%rd5], %r2;\n  ret;\n}\n";

static void test_ops_bar_red_with_thread_count_reduces_each_named_group(void **s)
{
    (void)s;
    enum { N = 128 };
    uint32_t in[N], out[N];
    seed(26);
    for (int i = 0; i < N; i++)
        in[i] = i < 64 ? rnd32() % 2 : 0;
    in[100] = 5;    /* the upper group has exactly one true */
    DeviceModule *m = load_text("barcnt.ptx", BAR_RED_COUNT_PTX);
    DevicePtr din = up(in, sizeof in), dout = zeros(sizeof out);
    launch(m, "barcnt", cfg1(N), ARGS(&din, &dout));
    down(out, dout, sizeof out);
    uint32_t pl = 0;
    for (int i = 0; i < 64; i++)
        pl += in[i] != 0;
    for (int i = 0; i < N; i++)
        CHECK(i, "bar.red popc|or<<16", out[i], i < 64 ? (pl | (pl ? 0x10000u : 0)) : 0x10001u);
}

static void test_ops_div_full_and_approx_f32_are_within_two_ulp(void **s)
{
    (void)s;
    enum { N = 128 };
    OpIn in[N];
    OpOut out[N];
    seed(27);
    for (int i = 0; i < N; i++) {
        uint32_t ea = 80 + rnd32() % 90, eb = 80 + rnd32() % 90;
        in[i] = (OpIn){(rnd32() & 0x807fffffu) | (ea << 23), (rnd32() & 0x807fffffu) | (eb << 23), 0, 0};
    }
    op_run("  div.full.f32 %f4, %f1, %f2;\n  div.approx.f32 %f5, %f1, %f2;\n  div.rn.f32 %f6, %f1, %f2;\n"
           "  st.global.v4.f32 [%rd6], {%f4, %f5, %f6, %f6};\n",
           in, N, out);
    for (int i = 0; i < N; i++) {
        uint32_t rn = host_f32('/', FE_TONEAREST, (uint32_t)in[i].a, (uint32_t)in[i].b, 0);
        CHECK(i, "div.rn.f32", out[i].w[2], rn);
        for (int k = 0; k < 2; k++) {
            int64_t d = (int64_t)(int32_t)out[i].w[k] - (int64_t)(int32_t)rn;
            if (d > 2 || d < -2)
                fail_msg("div.%s case %d: %08x vs correctly rounded %08x", k ? "approx" : "full", i,
                         out[i].w[k], rn);
        }
        SIM_ONLY(CHECK(i, "div.full (alu)", out[i].w[0],
                       alu_f32_div_full((uint32_t)in[i].a, (uint32_t)in[i].b, false)));
    }
}

static const char ATOM_GLOBAL_PTX[] = PTX_HEAD
    ".visible .entry atomg(.param .u64 pin, .param .u64 pout)\n{\n"
    "  .reg .b32 %r<8>;\n  .reg .b64 %rd<16>;\n"
    "  ld.param.u64 %rd1, [pin];\n  ld.param.u64 %rd2, [pout];\n"
    "  mov.u32 %r0, %tid.x;\n  mul.wide.u32 %rd3, %r0, 8;\n  add.s64 %rd4, %rd1, %rd3;\n"
    "  ld.global.u64 %rd5, [%rd4];\n  cvt.u32.u64 %r1, %rd5;\n  mov.u32 %r2, 6;\n"
    "  atom.global.and.b64 %rd6, [%rd2], %rd5;\n"
    "  atom.global.or.b64 %rd7, [%rd2+8], %rd5;\n"
    "  red.global.xor.b64 [%rd2+16], %rd5;\n"
    "  red.global.add.u64 [%rd2+24], %rd5;\n"
    "  atom.global.inc.u32 %r3, [%rd2+32], %r2;\n"
    "  red.global.max.s32 [%rd2+36], %r1;\n"
    "  atom.global.min.u64 %rd8, [%rd2+40], %rd5;\n"
    "  ret;\n}\n";

static void test_ops_global_atomics_64bit_bitwise_add_and_inc_wrap(void **s)
{
    (void)s;
    enum { N = 96 };
    uint64_t in[N], init[6] = {~0ull, 0, 0x5555, 0, 0, ~0ull}, out[6];
    uint64_t a = init[0], o = init[1], x = init[2], sum = 0, mn = init[5];
    int32_t mx = 0;
    seed(28);
    for (int i = 0; i < N; i++) {
        in[i] = rnd64() | rnd64();
        a &= in[i];
        o |= in[i];
        x ^= in[i];
        sum += in[i];
        mn = in[i] < mn ? in[i] : mn;
        mx = (int32_t)in[i] > mx ? (int32_t)in[i] : mx;
    }
    DeviceModule *m = load_text("atomg.ptx", ATOM_GLOBAL_PTX);
    DevicePtr din = up(in, sizeof in), dout = up(init, sizeof init);
    launch(m, "atomg", cfg1(N), ARGS(&din, &dout));
    down(out, dout, sizeof out);
    CHECK(0, "atom.and.b64", out[0], a);
    CHECK(0, "atom.or.b64", out[1], o);
    CHECK(0, "red.xor.b64", out[2], x);
    CHECK(0, "red.add.u64", out[3], sum);
    CHECK(0, "atom.inc.u32 wraps", (uint32_t)out[4], N % 7);    /* 96 steps of 0..6 */
    CHECK(0, "red.max.s32", (uint32_t)(out[4] >> 32), (uint32_t)mx);
    CHECK(0, "atom.min.u64", out[5], mn);
    assert_int_equal((uint32_t)out[4], 5);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
#define T(name) cmocka_unit_test_setup_teardown(name, harness_setup, harness_teardown)
        T(test_ops_bar_red_popc_and_or_reduce_predicate_over_block),
        T(test_ops_named_barriers_with_thread_count_order_producer_and_consumer),
        T(test_ops_cp_async_copies_and_zero_fills_past_src_size),
        T(test_ops_bfind_u32_s32_shiftamt_with_zero_and_negative),
        T(test_ops_bfe_with_pos_and_len_beyond_width),
        T(test_ops_bfi_inserts_field_and_clips_at_width),
        T(test_ops_prmt_in_every_mode),
        T(test_ops_shf_wrap_and_clamp_with_shift_of_32_and_more),
        T(test_ops_sad_mul24_lo_hi_and_mad_hi_32bit),
        T(test_ops_mul_hi_and_mad_hi_64bit_signed_and_unsigned),
        T(test_ops_16bit_add_mul_wide_min_max_wrap_and_sign),
        T(test_ops_div_rem_by_zero_give_all_ones_and_int_min_by_minus_one),
        T(test_ops_testp_classifies_every_f32_and_f64_class),
        T(test_ops_copysign_abs_neg_min_max_nan_rules),
        T(test_ops_slct_selects_on_sign_of_s32_and_f32_including_minus_zero_and_nan),
        T(test_ops_set_with_u32_and_f32_destinations_and_bool_combining),
        T(test_ops_setp_with_two_destinations_and_and_or_combining),
        T(test_ops_f32_add_div_fma_in_each_rounding_mode),
        T(test_ops_f64_add_in_each_rounding_mode),
        T(test_ops_rcp_sqrt_rounded_and_mul_sat),
        T(test_ops_add_ftz_flushes_subnormal_inputs_and_results_keeping_sign),
        T(test_ops_cvt_f32_f16_round_trip_with_subnormals_and_overflow),
        T(test_ops_cvt_integer_rounding_modes_float_to_int_and_to_float),
        T(test_ops_cvt_saturating_and_truncating_integer_narrowing),
        T(test_ops_cvt_u64_s64_to_float_rounds_by_mode),
        T(test_ops_approx_functions_are_within_ptx_error_of_libm),
        T(test_ops_approx_functions_give_ptx_special_values),
        T(test_ops_vector_loads_of_u8_u16_f64_and_stores_with_immediates),
        T(test_ops_shared_atomics_inc_dec_cas_exch_min_max),
        T(test_ops_float_atomics_global_flushes_subnormals_shared_keeps_them),
        T(test_ops_vote_uni_match_all_redux_and_lanemasks_per_warp),
        T(test_ops_3d_grid_and_block_read_z_indices_nctaid_and_dynamic_smem_size),
        T(test_ops_mov_b64_packs_and_unpacks_32bit_halves),
        T(test_ops_f64_div_fma_sqrt_rcp_in_each_rounding_mode),
        T(test_ops_cvt_f64_to_f32_rounds_by_mode_and_f32_to_f64_is_exact),
        T(test_ops_setp_ftz_compares_subnormals_as_signed_zero),
        T(test_ops_approx_ftz_flushes_subnormal_inputs_and_results),
        T(test_ops_integer_min_max_abs_neg_64bit_and_int_min),
        T(test_ops_16bit_shifts_clamp_at_width),
        T(test_ops_redux_vote_and_lanemask_in_a_partial_warp),
        T(test_ops_bar_red_with_thread_count_reduces_each_named_group),
        T(test_ops_div_full_and_approx_f32_are_within_two_ulp),
        T(test_ops_global_atomics_64bit_bitwise_add_and_inc_wrap),
#undef T
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
