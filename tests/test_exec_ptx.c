/* test_exec_ptx.c: end-to-end tests of the PTX coverage issue 14 asked for --
 * state-space spellings (cvta.param of a __grid_constant__ parameter), extended-precision carry chains, half and bfloat16
 * arithmetic and conversions, the integer extras (fns lop3 bmsk szext dp4a
 * dp2a isspacep), SIMD video bytes and cp.async.mbarrier.arrive.  Each kernel
 * is nvcc's PTX of a committed .cu (tests/kernels/) or a small hand-written
 * one; every result is compared with a plain-C reference built here from the
 * PTX ISA's rules, never with the simulator's own code.  Run from the
 * repository root. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "harness.h"
#include "ptx_fixture.h"

/* ---- state spaces ------------------------------------------------------- */

/* A __grid_constant__ parameter's address: cvta.param turns the kernel
 * parameter's param-space address into a generic one that every thread
 * shares, generic loads through it read the launch's parameters (cvta.to.param
 * and isspacep.param agree), and a generic store there faults.  (cvta.param
 * used to be refused as unsupported, so no kernel taking such an address ran.) */
static const char grid_constant_ptx[] =
    PTX_HEAD
    ".visible .entry k(.param .align 4 .b8 t[64], .param .u64 pout)\n{\n.reg .pred %p<3>;\n.reg .b32 %r<12>;\n"
    ".reg .b64 %rd<12>;\n"
    "ld.param.u64 %rd1, [pout];\ncvta.to.global.u64 %rd1, %rd1;\nmov.b64 %rd2, t;\ncvta.param.u64 %rd3, %rd2;\n"
    "mov.u32 %r1, %tid.x;\nand.b32 %r2, %r1, 15;\nmul.wide.u32 %rd4, %r2, 4;\nadd.s64 %rd5, %rd3, %rd4;\n"
    "ld.u32 %r3, [%rd5];\n"
    "cvta.to.param.u64 %rd6, %rd5;\nld.param.u32 %r4, [%rd6];\n"
    "isspacep.param %p1, %rd3;\nselp.u32 %r5, 1, 0, %p1;\nisspacep.global %p2, %rd3;\nselp.u32 %r6, 1, 0, %p2;\n"
    "mul.wide.u32 %rd7, %r1, 16;\nadd.s64 %rd8, %rd1, %rd7;\n"
    "st.global.v4.u32 [%rd8], {%r3, %r4, %r5, %r6};\nret;\n}\n"
    ".visible .entry w(.param .align 4 .b8 t[64], .param .u64 pout)\n{\n.reg .b32 %r<2>;\n.reg .b64 %rd<4>;\n"
    "mov.b64 %rd2, t;\ncvta.param.u64 %rd3, %rd2;\nmov.u32 %r1, 7;\nst.u32 [%rd3], %r1;\nret;\n}\n";

static void test_ptx_cvta_param_reads_a_grid_constant_parameter(void **s)
{
    (void)s;
    DeviceModule *m = load_text("grid_constant.ptx", grid_constant_ptx);
    uint32_t t[16], out[32 * 4];
    for (int i = 0; i < 16; i++)
        t[i] = 1000u + 37u * (uint32_t)i;
    DevicePtr dout = dalloc(sizeof out);
    void *args[] = {t, &dout};
    launch(m, "k", 1, 32, args);
    down(out, dout, sizeof out);
    for (int i = 0; i < 32; i++) {
        assert_int_equal(out[4 * i], t[i & 15]);     /* the generic load */
        assert_int_equal(out[4 * i + 1], t[i & 15]); /* back to param space */
        assert_int_equal(out[4 * i + 2], 1);         /* isspacep.param */
        assert_int_equal(out[4 * i + 3], 0);         /* not global */
    }
}

static void test_ptx_store_through_a_grid_constant_address_faults(void **s)
{
    (void)s;
    SIM_ONLY_TEST();
    DeviceModule *m = load_text("grid_constant.ptx", grid_constant_ptx);
    uint32_t t[16] = {0};
    DevicePtr dout = dalloc(64);
    void *args[] = {t, &dout};
    SimError err;
    DeviceLaunch cfg = {.grid = {1, 1, 1}, .block = {1, 1, 1}};
    assert_int_equal(device_launch(m, "w", &cfg, args, NULL, &fault, &err), SIM_ERR_FAULT);
    assert_string_equal(fault.kind, "out-of-bounds");
    assert_non_null(strstr(fault.msg, "kernel parameter space"));
}

/* cvta.param in a device function: its .param space is the call's, not the
 * kernel's, so the address could name no kernel parameter: refused with a
 * message, not run with a wrong address. */
static void test_ptx_cvta_param_in_a_device_function_is_refused(void **s)
{
    (void)s;
    SIM_ONLY_TEST();
    const char *text = PTX_HEAD
        ".func (.param .b64 r) f(.param .b64 a)\n{\n.reg .b64 %rd<3>;\nld.param.b64 %rd1, [a];\ncvta.param.u64 %rd2, %rd1;\n"
        "st.param.b64 [r], %rd2;\nret;\n}\n"
        ".visible .entry k(.param .u64 pout)\n{\n.reg .b64 %rd<4>;\nld.param.u64 %rd1, [pout];\n"
        "{\n.param .b64 a0;\nst.param.b64 [a0], %rd1;\n.param .b64 r0;\ncall.uni (r0), f, (a0);\nld.param.b64 %rd2, [r0];\n}\n"
        "st.global.u64 [%rd1], %rd2;\nret;\n}\n";
    DeviceModule *m = load_text("cvta_param_func.ptx", text);
    DevicePtr dout = dalloc(8);
    void *args[] = {&dout};
    SimError err;
    DeviceLaunch cfg = {.grid = {1, 1, 1}, .block = {1, 1, 1}};
    assert_int_equal(device_launch(m, "k", &cfg, args, NULL, &fault, &err), SIM_ERR_UNSUPPORTED);
    assert_non_null(strstr(err.msg, "cvta.param of a device function's parameter"));
}

/* cuda::barrier + cuda::memcpy_async: the barrier is armed with
 * mbarrier.arrive.shared::cta.b64, which used to be taken as a generic
 * address and fault as out of bounds. */
static void test_ptx_barrier_memcpy_async_with_shared_cta_mbarrier(void **s)
{
    (void)s;
    DeviceModule *m = load_file("tests/kernels/async_barrier.ptx");
    float in[512], out[512];
    for (int i = 0; i < 512; i++)
        in[i] = (float)i * 0.5f;
    DevicePtr din = up(in, sizeof in), dout = dalloc(sizeof out);
    void *args[] = {&din, &dout};
    launch(m, "_Z12barrier_copyPKfPf", 2, 256, args);
    down(out, dout, sizeof out);
    for (int b = 0; b < 2; b++)
        for (int t = 0; t < 256; t++)
            assert_true(out[b * 256 + t] == 2.0f * in[b * 256 + 255 - t]);
}

/* ---- carry chains ------------------------------------------------------- */

typedef unsigned __int128 u128;

static u128 words128(const uint32_t *w)
{
    return (u128)w[0] | (u128)w[1] << 32 | (u128)w[2] << 64 | (u128)w[3] << 96;
}

/* Inputs that make carries ripple: all ones, zeros, one word full, random. */
static void carry_inputs(uint32_t *a, uint32_t *b, int n)
{
    for (int i = 0; i < 4 * n; i++) {
        uint64_t r = rnd64();
        switch ((i / 4) % 4) {
        case 0: a[i] = 0xffffffffu; b[i] = i % 4 == 0 ? 1 : 0; break;  /* ripples all the way */
        case 1: a[i] = 0; b[i] = i % 4 == 0 ? 1 : 0; break;            /* borrows all the way */
        case 2: a[i] = (uint32_t)r; b[i] = (uint32_t)(r >> 32) | 0x80000000u; break;
        default: a[i] = (uint32_t)r; b[i] = (uint32_t)(r >> 32); break;
        }
    }
}

static void test_ptx_add_sub_128_through_carry_flag(void **s)
{
    (void)s;
    enum { N = 256 };
    DeviceModule *m = load_file("tests/kernels/carry.ptx");
    static uint32_t a[4 * N], b[4 * N], sum[4 * N], diff[4 * N];
    carry_inputs(a, b, N);
    DevicePtr da = up(a, sizeof a), db = up(b, sizeof b), ds = dalloc(sizeof sum), dd = dalloc(sizeof diff);
    int n = N;
    void *args[] = {&da, &db, &ds, &dd, &n};
    launch(m, "_Z11add_sub_128PKjS0_PjS1_i", N / 64, 64, args);
    down(sum, ds, sizeof sum);
    down(diff, dd, sizeof diff);
    for (int i = 0; i < N; i++) {
        u128 x = words128(a + 4 * i), y = words128(b + 4 * i);
        u128 want_s = x + y, want_d = x - y; /* 128-bit wrap-around, as the chain computes */
        if (words128(sum + 4 * i) != want_s || words128(diff + 4 * i) != want_d)
            fail_msg("element %d: sum or difference of 128-bit values is wrong", i);
    }
    /* hand-checked: (2^128 - 1) + 1 carries through every word and wraps to
     * 0; 0 - 1 borrows out of every word */
    assert_int_equal(sum[0] | sum[1] | sum[2] | sum[3], 0);
    assert_int_equal(diff[4] & diff[5] & diff[6] & diff[7], 0xffffffffu);
}

static void test_ptx_mad_cc_madc_64x64_multiply_and_u64_carries(void **s)
{
    (void)s;
    enum { N = 256 };
    DeviceModule *m = load_file("tests/kernels/carry.ptx");
    static uint32_t a[4 * N], b[4 * N], prod[4 * N];
    static uint64_t wide[5 * N];
    carry_inputs(a, b, N);
    DevicePtr da = up(a, sizeof a), db = up(b, sizeof b), dp = dalloc(sizeof prod), dw = dalloc(sizeof wide);
    int n = N;
    void *args[] = {&da, &db, &dp, &dw, &n};
    launch(m, "_Z21mul_64x64_and_add_u64PKjS0_PjPyi", N / 64, 64, args);
    down(prod, dp, sizeof prod);
    down(wide, dw, sizeof wide);
    for (int i = 0; i < N; i++) {
        uint64_t x = (uint64_t)a[4 * i + 1] << 32 | a[4 * i], y = (uint64_t)b[4 * i + 1] << 32 | b[4 * i];
        u128 want = (u128)x * y;
        if (words128(prod + 4 * i) != want)
            fail_msg("element %d: 64x64 product through mad.cc/madc is wrong", i);
        uint64_t p = (uint64_t)a[4 * i + 3] << 32 | a[4 * i + 2], q = (uint64_t)b[4 * i + 3] << 32 | b[4 * i + 2];
        u128 s1 = (u128)p + q;                          /* add.cc.u64 */
        u128 s2 = (u128)p + p + (uint64_t)(s1 >> 64);   /* addc.cc.u64 */
        assert_true(wide[5 * i] == (uint64_t)s1);
        assert_true(wide[5 * i + 1] == (uint64_t)s2);
        assert_true(wide[5 * i + 2] == (uint64_t)(s2 >> 64)); /* addc.s64 0, 0: the carry */
        u128 lo = (u128)(uint64_t)(p * q) + p;          /* mad.lo.cc.u64 */
        __int128 sp = (__int128)(int64_t)p * (int64_t)q; /* madc.hi.s64: signed high half */
        assert_true(wide[5 * i + 3] == (uint64_t)lo);
        assert_true(wide[5 * i + 4] == (uint64_t)((u128)sp >> 64) + (uint64_t)(lo >> 64));
    }
}

/* Distance in units in the last place between two finite floats. */
static int64_t ulps(float a, float b)
{
    int32_t x, y;
    memcpy(&x, &a, 4);
    memcpy(&y, &b, 4);
    int64_t ix = x < 0 ? (int64_t)INT32_MIN - x : x, iy = y < 0 ? (int64_t)INT32_MIN - y : y;
    return ix > iy ? ix - iy : iy - ix;
}

/* sinf/cosf of arguments far beyond 2^17 go through the Payne-Hanek
 * reduction (a 2/pi table, 32x32 products and their carries); CUDA's sinf is
 * within 2 ulp of sin (Programming Guide, table of single-precision
 * functions), so a wrong carry anywhere shows as a wildly wrong result. */
static void test_ptx_sinf_cosf_of_large_arguments_within_two_ulp(void **s)
{
    (void)s;
    enum { N = 512 };
    DeviceModule *m = load_file("tests/kernels/carry.ptx");
    static float x[N], sv[N], cv[N];
    for (int i = 0; i < N; i++) {
        /* 2^17 .. 2^127, every exponent, mantissas from the generator */
        uint32_t bits = (uint32_t)(144 + i % 110) << 23 | (uint32_t)(rnd64() & 0x7fffff);
        memcpy(&x[i], &bits, 4);
        if (i % 3 == 0)
            x[i] = -x[i];
    }
    x[0] = 1e30f;
    x[1] = 3.4028235e38f;
    DevicePtr dx = up(x, sizeof x), ds = dalloc(sizeof sv), dc = dalloc(sizeof cv);
    int n = N;
    void *args[] = {&dx, &ds, &dc, &n};
    launch(m, "_Z13sin_cos_largePKfPfS1_i", N / 128, 128, args);
    down(sv, ds, sizeof sv);
    down(cv, dc, sizeof cv);
    for (int i = 0; i < N; i++) {
        float ws = (float)sin((double)x[i]), wc = (float)cos((double)x[i]);
        if (ulps(sv[i], ws) > 2 || ulps(cv[i], wc) > 2)
            fail_msg("x = %a: sinf %a (want %a), cosf %a (want %a)", (double)x[i], (double)sv[i], (double)ws,
                     (double)cv[i], (double)wc);
    }
}

/* ---- half and bfloat16 -------------------------------------------------- */

/* The value of a finite f16 (mb 10, bias 15) or bf16 (mb 7, bias 127)
 * pattern, as a double (exact). */
static double half_value(uint32_t h, int mb, int eb, int bias)
{
    uint32_t ex = (h >> mb) & ((1u << eb) - 1), fr = h & ((1u << mb) - 1);
    double v = ex ? ldexp((double)(fr | 1u << mb), (int)ex - bias - mb) : ldexp((double)fr, 1 - bias - mb);
    return (h >> (mb + eb)) & 1 ? -v : v;
}

/* Reference rounding to nearest even by search: the two neighbouring
 * patterns of the ordered positive range, the nearer wins, a tie goes to
 * the even pattern; the infinity pattern stands for the value one ulp past
 * the largest finite (IEEE 754 overflow rule).  NaN: 0x7fff. */
static uint32_t ref_round(double v, int mb, int eb, int bias)
{
    if (v != v)
        return 0x7fff;
    uint32_t sign = v < 0 || (v == 0 && signbit(v)) ? 1u << (mb + eb) : 0;
    double a = fabs(v);
    uint32_t inf = ((1u << eb) - 1) << mb;
    double top = half_value(inf - 1, mb, eb, bias) + ldexp(1.0, (1 << eb) - 2 - bias - mb);
    if (a >= top || isinf(a))
        return sign | inf;
    uint32_t lo = 0, hi = inf; /* value(lo) <= a < value(hi) (hi may be the "infinity" stand-in) */
    while (hi - lo > 1) {
        uint32_t mid = (lo + hi) / 2;
        if (half_value(mid, mb, eb, bias) <= a)
            lo = mid;
        else
            hi = mid;
    }
    double vl = half_value(lo, mb, eb, bias), vh = hi == inf ? top : half_value(hi, mb, eb, bias);
    uint32_t r = a - vl < vh - a ? lo : a - vl > vh - a ? hi : (lo & 1 ? hi : lo);
    return sign | r;
}

static bool is_half_nan(uint32_t h, int mb, int eb)
{
    return ((h >> mb) & ((1u << eb) - 1)) == (1u << eb) - 1 && (h & ((1u << mb) - 1));
}

/* add/sub/mul of f16x2 and bf16x2, each half on its own, against the
 * search reference (double holds these sums and products exactly or, for
 * far-apart addends, rounds them to the larger, which is its own answer);
 * cvt.rn.f16x2.f32 puts a in the upper half; .relu and .satfinite. */
static void test_ptx_f16x2_bf16x2_arithmetic_and_packing_against_c_reference(void **s)
{
    (void)s;
    const char *text =
        PTX_HEAD
        ".visible .entry k(.param .u64 pa, .param .u64 pb, .param .u64 po)\n{\n"
        ".reg .b32 %r<16>;\n.reg .b64 %rd<8>;\n.reg .f32 %f<4>;\n"
        "ld.param.u64 %rd1, [pa];\nld.param.u64 %rd2, [pb];\nld.param.u64 %rd3, [po];\n"
        "mov.u32 %r1, %tid.x;\nmul.wide.u32 %rd4, %r1, 4;\nadd.s64 %rd5, %rd1, %rd4;\nadd.s64 %rd6, %rd2, %rd4;\n"
        "ld.global.u32 %r2, [%rd5];\nld.global.u32 %r3, [%rd6];\n"
        "add.f16x2 %r4, %r2, %r3;\nsub.f16x2 %r5, %r2, %r3;\nmul.f16x2 %r6, %r2, %r3;\n"
        "add.rn.bf16x2 %r7, %r2, %r3;\nmul.rn.bf16x2 %r8, %r2, %r3;\nsub.rn.bf16x2 %r9, %r2, %r3;\n"
        "mov.b32 %f1, %r2;\nmov.b32 %f2, %r3;\n"
        "cvt.rn.f16x2.f32 %r10, %f1, %f2;\ncvt.rn.bf16x2.f32 %r11, %f1, %f2;\n"
        "cvt.rn.relu.f16x2.f32 %r12, %f1, %f2;\ncvt.rn.satfinite.bf16x2.f32 %r13, %f1, %f2;\n"
        "mul.wide.u32 %rd4, %r1, 48;\nadd.s64 %rd7, %rd3, %rd4;\n"
        "st.global.v4.u32 [%rd7], {%r4, %r5, %r6, %r7};\nst.global.v4.u32 [%rd7+16], {%r8, %r9, %r10, %r11};\n"
        "st.global.v2.u32 [%rd7+32], {%r12, %r13};\nret;\n}\n";
    enum { N = 1024 };
    static uint32_t a[N], b[N], out[12 * N];
    for (int i = 0; i < N; i++) {
        uint64_t r = rnd64();
        a[i] = (uint32_t)r;
        b[i] = (uint32_t)(r >> 32);
        if (i % 4 == 1) /* nearby exponents: cancellation and rounding at every position */
            b[i] = a[i] ^ (uint32_t)(r >> 40 & 0x00ff00ff);
    }
    a[0] = 0x3c003c00; b[0] = 0x3c00bc00; /* hand-checked below */
    DeviceModule *m = load_text("half.ptx", text);
    DevicePtr da = up(a, sizeof a), db = up(b, sizeof b), dout = dalloc(sizeof out);
    void *args[] = {&da, &db, &dout};
    launch(m, "k", 1, N, args); /* one block: the kernel indexes by %tid.x */
    down(out, dout, sizeof out);
    /* low halves 1 + -1 = +0, high halves 1 + 1 = 2 (0x4000) */
    assert_int_equal(out[0], 0x40000000);
    for (int i = 0; i < N; i++) {
        const uint32_t *o = out + 12 * i;
        for (int h = 0; h < 2; h++) {
            uint32_t x = a[i] >> (16 * h) & 0xffff, y = b[i] >> (16 * h) & 0xffff;
            int fmb[2] = {10, 7}, feb[2] = {5, 8}, fbias[2] = {15, 127};
            for (int f = 0; f < 2; f++) {
                int mb = fmb[f], eb = feb[f], bias = fbias[f];
                bool nan_in = is_half_nan(x, mb, eb) || is_half_nan(y, mb, eb);
                double vx = half_value(x, mb, eb, bias), vy = half_value(y, mb, eb, bias);
                if (((x >> mb) & ((1u << eb) - 1)) == (1u << eb) - 1 && !nan_in)
                    vx = x >> (mb + eb) ? -INFINITY : INFINITY;
                if (((y >> mb) & ((1u << eb) - 1)) == (1u << eb) - 1 && !nan_in)
                    vy = y >> (mb + eb) ? -INFINITY : INFINITY;
                double sum = nan_in ? NAN : vx + vy, dif = nan_in ? NAN : vx - vy, prod = nan_in ? NAN : vx * vy;
                uint32_t want[3] = {ref_round(sum, mb, eb, bias), ref_round(dif, mb, eb, bias),
                                    ref_round(prod, mb, eb, bias)};
                uint32_t got[3] = {f ? o[3] : o[0], f ? o[5] : o[1], f ? o[4] : o[2]};
                for (int k = 0; k < 3; k++) {
                    uint32_t g = got[k] >> (16 * h) & 0xffff;
                    if (g != want[k])
                        fail_msg("%s %s of %04x and %04x: %04x, want %04x", f ? "bf16" : "f16",
                                 k == 0 ? "add" : k == 1 ? "sub" : "mul", x, y, g, want[k]);
                }
            }
        }
        /* cvt.rn.f16x2.f32 d, a, b: a (the first source) in the upper half */
        float fa, fb;
        memcpy(&fa, &a[i], 4);
        memcpy(&fb, &b[i], 4);
        uint32_t wf = ref_round(fb, 10, 5, 15) | ref_round(fa, 10, 5, 15) << 16;
        uint32_t wb = ref_round(fb, 7, 8, 127) | ref_round(fa, 7, 8, 127) << 16;
        if (o[6] != wf || o[7] != wb)
            fail_msg("cvt of %a, %a: f16x2 %08x (want %08x), bf16x2 %08x (want %08x)", (double)fa, (double)fb, o[6],
                     wf, o[7], wb);
        for (int h = 0; h < 2; h++) {
            float v = h ? fa : fb;
            uint32_t relu = o[8] >> (16 * h) & 0xffff, sf = o[9] >> (16 * h) & 0xffff;
            uint32_t r = ref_round(v, 10, 5, 15);
            uint32_t want_relu = v != v ? 0x7fff : (r & 0x8000) ? 0 : r;
            uint32_t rb = ref_round(v, 7, 8, 127);
            uint32_t want_sf = v != v ? 0x7fff : (rb & 0x7fff) == 0x7f80 ? rb - 1 : rb;
            if (relu != want_relu || sf != want_sf)
                fail_msg("%a: relu f16 %04x (want %04x), satfinite bf16 %04x (want %04x)", (double)v, relu,
                         want_relu, sf, want_sf);
        }
    }
}

/* ---- fns, lop3, bmsk, szext, dp4a, dp2a, isspacep ------------------------ */

static uint32_t ref_fns(uint32_t mask, uint32_t base, int offset)
{
    /* by counting set bits, a different route from the ISA's walk */
    if (offset == 0)
        return base < 32 && (mask >> base & 1) ? base : 0xffffffffu;
    int seen = 0;
    if (offset > 0) {
        for (uint32_t p = base; p < 32; p++)
            if ((mask >> p & 1) && ++seen == offset)
                return p;
    } else {
        for (int p = (int)base; p >= 0 && p < 32; p--)
            if ((mask >> p & 1) && ++seen == -offset)
                return (uint32_t)p;
    }
    return 0xffffffffu;
}

static void test_ptx_fns_lop3_bmsk_szext_dp4a_dp2a_against_c_references(void **s)
{
    (void)s;
    const char *text =
        PTX_HEAD
        ".visible .entry k(.param .u64 pin, .param .u64 pout)\n{\n.reg .pred %p<3>;\n.reg .b32 %r<24>;\n.reg .b64 %rd<8>;\n"
        "ld.param.u64 %rd1, [pin];\nld.param.u64 %rd2, [pout];\nmov.u32 %r1, %tid.x;\n"
        "mul.wide.u32 %rd3, %r1, 12;\nadd.s64 %rd4, %rd1, %rd3;\n"
        "ld.global.u32 %r2, [%rd4];\nld.global.u32 %r3, [%rd4+4];\nld.global.u32 %r4, [%rd4+8];\n"
        "and.b32 %r5, %r3, 31;\nand.b32 %r6, %r4, 15;\nsub.s32 %r6, %r6, 7;\n"
        "fns.b32 %r7, %r2, %r5, %r6;\n"
        "lop3.b32 %r8, %r2, %r3, %r4, 0x96;\nlop3.b32 %r9, %r2, %r3, %r4, 0xe8;\n"
        "and.b32 %r10, %r4, 63;\nshr.u32 %r11, %r4, 8;\nand.b32 %r11, %r11, 63;\n"
        "bmsk.clamp.b32 %r12, %r10, %r11;\nbmsk.wrap.b32 %r13, %r10, %r11;\n"
        "szext.clamp.s32 %r14, %r2, %r10;\nszext.wrap.u32 %r15, %r2, %r11;\n"
        "dp4a.s32.u32 %r16, %r2, %r3, %r4;\ndp4a.u32.u32 %r17, %r2, %r3, %r4;\n"
        "dp2a.lo.s32.s32 %r18, %r2, %r3, %r4;\ndp2a.hi.u32.s32 %r19, %r2, %r3, %r4;\n"
        "mul.wide.u32 %rd5, %r1, 64;\nadd.s64 %rd6, %rd2, %rd5;\n"
        "st.global.v4.u32 [%rd6], {%r7, %r8, %r9, %r12};\nst.global.v4.u32 [%rd6+16], {%r13, %r14, %r15, %r16};\n"
        "st.global.v4.u32 [%rd6+32], {%r17, %r18, %r19, %r5};\n"
        "isspacep.global %p1, %rd2;\ncvta.to.global.u64 %rd7, %rd2;\n"
        "selp.u32 %r20, 1, 0, %p1;\nst.global.u32 [%rd6+48], %r20;\nret;\n}\n";
    enum { N = 512 };
    static uint32_t in[3 * N], out[16 * N];
    for (int i = 0; i < 3 * N; i++)
        in[i] = (uint32_t)rnd64();
    in[0] = 0x00f0u; in[1] = 2; in[2] = 7 + 2; /* fns(0xf0, base 2, offset 2): bits 4, 5 -> 5 */
    DeviceModule *m = load_text("intx.ptx", text);
    DevicePtr din = up(in, sizeof in), dout = dalloc(sizeof out);
    void *args[] = {&din, &dout};
    launch(m, "k", 1, N, args);
    down(out, dout, sizeof out);
    assert_int_equal(out[0], 5);
    for (int t = 0; t < N; t++) {
        uint32_t A = in[3 * t], B = in[3 * t + 1], C = in[3 * t + 2];
        const uint32_t *o = out + 16 * t;
        uint32_t base = B & 31, a6 = C & 63, b6 = (C >> 8) & 63;
        int off = (int)(C & 15) - 7;
        assert_int_equal(o[0], ref_fns(A, base, off));
        assert_int_equal(o[1], A ^ B ^ C);                     /* 0x96: three-way xor */
        assert_int_equal(o[2], (A & B) | (A & C) | (B & C));   /* 0xe8: majority */
        uint32_t bc = b6 > 32 ? 32 : b6, ac = a6 > 32 ? 32 : a6;
        assert_int_equal(o[3], ac >= 32 ? 0 : (uint32_t)(((1ull << bc) - 1) << ac));
        uint32_t aw = a6 & 31, bw = b6 & 31;
        assert_int_equal(o[4], (uint32_t)(((1ull << bw) - 1) << aw));
        uint32_t n1 = a6 > 32 ? 32 : a6;
        int32_t sx = n1 == 0 ? 0 : n1 == 32 ? (int32_t)A : (int32_t)((uint64_t)(A & ((1u << n1) - 1)) ^ (1ull << (n1 - 1))) - (int32_t)(1u << (n1 - 1));
        assert_int_equal(o[5], (uint32_t)sx);
        assert_int_equal(o[6], bw == 0 ? 0 : A & (uint32_t)((1ull << bw) - 1));
        int64_t d4s = (int32_t)C, d4u = C;
        for (int k = 0; k < 4; k++) {
            d4s += (int64_t)(int8_t)(A >> 8 * k) * (uint8_t)(B >> 8 * k);
            d4u += (int64_t)(uint8_t)(A >> 8 * k) * (uint8_t)(B >> 8 * k);
        }
        assert_int_equal(o[7], (uint32_t)d4s);
        assert_int_equal(o[8], (uint32_t)d4u);
        int64_t lo = (int32_t)C + (int64_t)(int16_t)A * (int8_t)B + (int64_t)(int16_t)(A >> 16) * (int8_t)(B >> 8);
        int64_t hi = (int32_t)C + (int64_t)(uint16_t)A * (int8_t)(B >> 16) + (int64_t)(uint16_t)(A >> 16) * (int8_t)(B >> 24);
        assert_int_equal(o[9], (uint32_t)lo);
        assert_int_equal(o[10], (uint32_t)hi);
        assert_int_equal(o[12], 1); /* the output buffer is global memory */
    }
}

/* cp.async.mbarrier.arrive without .noinc raises the pending count before
 * its arrival, so it completes no phase by itself; with .noinc it is one of
 * the arrivals init counted.  (Taking both as arrivals made cuda::pipeline
 * spin forever.) */
static void test_ptx_cp_async_mbarrier_arrive_counts_only_with_noinc(void **s)
{
    (void)s;
    const char *text =
        PTX_HEAD
        ".visible .entry k(.param .u64 po)\n{\n.reg .pred %p<4>;\n.reg .b32 %r<8>;\n.reg .b64 %rd<8>;\n"
        ".shared .align 8 .b64 bar;\n"
        "ld.param.u64 %rd1, [po];\nmov.u32 %r1, bar;\n"
        "mbarrier.init.shared.b64 [%r1], 1;\n"
        "cp.async.mbarrier.arrive.shared.b64 [%r1];\n"
        "mbarrier.test_wait.parity.shared.b64 %p1, [%r1], 0;\n"      /* not complete: nothing counted */
        "mbarrier.arrive.shared.b64 %rd2, [%r1];\n"
        "mbarrier.test_wait.parity.shared.b64 %p2, [%r1], 0;\n"      /* now phase 0 is over */
        "cp.async.mbarrier.arrive.noinc.shared.b64 [%r1];\n"
        "mbarrier.test_wait.parity.shared.b64 %p3, [%r1], 1;\n"      /* .noinc arrived: phase 1 over */
        "selp.u32 %r2, 1, 0, %p1;\nselp.u32 %r3, 1, 0, %p2;\nselp.u32 %r4, 1, 0, %p3;\n"
        "st.global.v2.u32 [%rd1], {%r2, %r3};\nst.global.u32 [%rd1+8], %r4;\nret;\n}\n";
    DeviceModule *m = load_text("cpmbar.ptx", text);
    uint32_t out[3] = {9, 9, 9};
    DevicePtr d = up(out, sizeof out);
    void *args[] = {&d};
    launch(m, "k", 1, 1, args);
    down(out, d, sizeof out);
    assert_int_equal(out[0], 0);
    assert_int_equal(out[1], 1);
    assert_int_equal(out[2], 1);
}

/* vadd4/vsub4/vabsdiff4/vmin4/vmax4: byte by byte, signed or not per
 * operand type, .sat clamping to the destination's byte range. */
static void test_ptx_simd_video4_bytewise_against_c_reference(void **s)
{
    (void)s;
    const char *text =
        PTX_HEAD
        ".visible .entry k(.param .u64 pin, .param .u64 pout)\n{\n.reg .b32 %r<16>;\n.reg .b64 %rd<8>;\n"
        "ld.param.u64 %rd1, [pin];\nld.param.u64 %rd2, [pout];\nmov.u32 %r1, %tid.x;\n"
        "mul.wide.u32 %rd3, %r1, 8;\nadd.s64 %rd4, %rd1, %rd3;\n"
        "ld.global.u32 %r2, [%rd4];\nld.global.u32 %r3, [%rd4+4];\n"
        "vadd4.s32.s32.s32.sat %r4, %r2, %r3, %r2;\nvsub4.u32.u32.u32.sat %r5, %r2, %r3, %r2;\n"
        "vabsdiff4.u32.u32.u32 %r6, %r2, %r3, %r2;\nvmin4.s32.s32.u32 %r7, %r2, %r3, %r2;\n"
        "vmax4.u32.u32.s32 %r8, %r2, %r3, %r2;\nvadd4.u32.u32.u32 %r9, %r2, %r3, %r2;\n"
        "mul.wide.u32 %rd5, %r1, 32;\nadd.s64 %rd6, %rd2, %rd5;\n"
        "st.global.v4.u32 [%rd6], {%r4, %r5, %r6, %r7};\nst.global.v2.u32 [%rd6+16], {%r8, %r9};\nret;\n}\n";
    enum { N = 256 };
    static uint32_t in[2 * N], out[8 * N];
    for (int i = 0; i < 2 * N; i++)
        in[i] = (uint32_t)rnd64();
    DeviceModule *m = load_text("video4.ptx", text);
    DevicePtr din = up(in, sizeof in), dout = dalloc(sizeof out);
    void *args[] = {&din, &dout};
    launch(m, "k", 1, N, args);
    down(out, dout, sizeof out);
    for (int t = 0; t < N; t++) {
        uint32_t A = in[2 * t], B = in[2 * t + 1];
        uint32_t w[6] = {0};
        for (int k = 0; k < 4; k++) {
            int sa = (int8_t)(A >> 8 * k), sb = (int8_t)(B >> 8 * k);
            int ua = (uint8_t)(A >> 8 * k), ub = (uint8_t)(B >> 8 * k);
            int v[6];
            v[0] = sa + sb; v[0] = v[0] < -128 ? -128 : v[0] > 127 ? 127 : v[0];
            v[1] = ua - ub; v[1] = v[1] < 0 ? 0 : v[1];
            v[2] = ua > ub ? ua - ub : ub - ua;
            v[3] = sa < ub ? sa : ub;
            v[4] = ua > sb ? ua : sb;
            v[5] = ua + ub;
            for (int j = 0; j < 6; j++)
                w[j] |= ((uint32_t)v[j] & 0xff) << (8 * k);
        }
        for (int j = 0; j < 6; j++)
            if (out[8 * t + j] != w[j])
                fail_msg("%08x, %08x: op %d gave %08x, want %08x", A, B, j, out[8 * t + j], w[j]);
    }
}

/* atom.add.noftz of f16, f16x2, bf16x2: one read-modify-write per lane in
 * lane order (the default --atomic-order), each rounded to nearest. */
static void test_ptx_half_precision_atomic_add_in_lane_order(void **s)
{
    (void)s;
    SIM_ONLY_TEST(); /* the GPU's order of the lanes' updates is its own */
    const char *text =
        PTX_HEAD
        ".visible .entry k(.param .u64 pin, .param .u64 pacc)\n{\n.reg .b16 %rs<4>;\n.reg .b32 %r<8>;\n"
        ".reg .b64 %rd<8>;\n"
        "ld.param.u64 %rd1, [pin];\nld.param.u64 %rd2, [pacc];\nmov.u32 %r1, %tid.x;\n"
        "mul.wide.u32 %rd3, %r1, 4;\nadd.s64 %rd4, %rd1, %rd3;\nld.global.u32 %r2, [%rd4];\n"
        "mov.b32 {%rs1, %rs2}, %r2;\n"
        "atom.global.add.noftz.f16 %rs3, [%rd2], %rs1;\n"
        "atom.global.add.noftz.f16x2 %r3, [%rd2+4], %r2;\n"
        "red.global.add.noftz.bf16x2 [%rd2+8], %r2;\nret;\n}\n";
    uint32_t in[32], acc[3] = {0, 0, 0};
    for (int i = 0; i < 32; i++) /* moderate magnitudes, both signs, in both formats */
        in[i] = (uint32_t)(rnd64() & 0x37ff37ff) | (i % 3 == 0 ? 0x80008000u : 0);
    DeviceModule *m = load_text("hatom.ptx", text);
    DevicePtr din = up(in, sizeof in), dacc = up(acc, sizeof acc);
    void *args[] = {&din, &dacc};
    launch(m, "k", 1, 32, args);
    down(acc, dacc, sizeof acc);
    uint32_t f = 0, lo = 0, hi = 0, blo = 0, bhi = 0;
    for (int i = 0; i < 32; i++) {
        f = ref_round(half_value(f, 10, 5, 15) + half_value(in[i] & 0xffff, 10, 5, 15), 10, 5, 15);
        lo = ref_round(half_value(lo, 10, 5, 15) + half_value(in[i] & 0xffff, 10, 5, 15), 10, 5, 15);
        hi = ref_round(half_value(hi, 10, 5, 15) + half_value(in[i] >> 16, 10, 5, 15), 10, 5, 15);
        blo = ref_round(half_value(blo, 7, 8, 127) + half_value(in[i] & 0xffff, 7, 8, 127), 7, 8, 127);
        bhi = ref_round(half_value(bhi, 7, 8, 127) + half_value(in[i] >> 16, 7, 8, 127), 7, 8, 127);
    }
    assert_int_equal(acc[0] & 0xffff, f);
    assert_int_equal(acc[1], lo | hi << 16);
    assert_int_equal(acc[2], blo | bhi << 16);
}

/* setp on halves with a BoolOp and p|q (PTX ISA setp: p = BoolOp(t, c),
 * q = BoolOp(!t, c); for .f16x2 p and q are the two halves' results).  With
 * .xor and c true, q is t itself (it used to come out as !t). */
static void test_ptx_setp_half_boolop_writes_p_and_q(void **s)
{
    (void)s;
    const char *text =
        PTX_HEAD
        ".visible .entry k(.param .u64 pout)\n{\n.reg .pred %p<8>;\n.reg .b16 %rs<4>;\n.reg .b32 %r<12>;\n"
        ".reg .b64 %rd<4>;\n"
        "ld.param.u64 %rd1, [pout];\n"
        "mov.b16 %rs1, 0x3c00;\nmov.b16 %rs2, 0x4000;\n"           /* 1.0 < 2.0 */
        "setp.eq.u32 %p7, 0, 0;\n"                                   /* c = true */
        "setp.lt.xor.f16 %p1|%p2, %rs1, %rs2, %p7;\n"
        "setp.lt.and.f16 %p3|%p4, %rs2, %rs1, %p7;\n"
        "mov.b32 %r1, 0x40003c00;\nmov.b32 %r2, 0x3c004000;\n"       /* {1, 2} vs {2, 1} */
        "setp.lt.f16x2 %p5|%p6, %r1, %r2;\n"
        "selp.u32 %r3, 1, 0, %p1;\nselp.u32 %r4, 1, 0, %p2;\nselp.u32 %r5, 1, 0, %p3;\n"
        "selp.u32 %r6, 1, 0, %p4;\nselp.u32 %r7, 1, 0, %p5;\nselp.u32 %r8, 1, 0, %p6;\n"
        "st.global.v4.u32 [%rd1], {%r3, %r4, %r5, %r6};\nst.global.v2.u32 [%rd1+16], {%r7, %r8};\nret;\n}\n";
    DeviceModule *m = load_text("hsetp.ptx", text);
    uint32_t out[6];
    DevicePtr d = dalloc(sizeof out);
    void *args[] = {&d};
    launch(m, "k", 1, 1, args);
    down(out, d, sizeof out);
    assert_int_equal(out[0], 0); /* t = 1: p = 1 ^ 1 */
    assert_int_equal(out[1], 1); /* q = !1 ^ 1 */
    assert_int_equal(out[2], 0); /* t = 0: p = 0 & 1 */
    assert_int_equal(out[3], 1); /* q = 1 & 1 */
    assert_int_equal(out[4], 1); /* low halves (the ISA's t[0], a[15:0]): 1 < 2 */
    assert_int_equal(out[5], 0); /* high halves: 2 < 1 is false */
}

/* ---- special registers ------------------------------------------------- */

/* Special registers read directly as operands (not through mov), in a 3-D
 * grid with more blocks than the SMs hold at once, so that each block slot
 * takes several blocks and its warps' %ctaid rows must be written again for
 * each; %p7 is a predicate whose index is %ctaid.y's slot number, which must
 * not count as a special register read (exec_run.c's span_add). */
static const char sregs_direct_ptx[] =
    PTX_HEAD
    ".visible .entry k(.param .u64 out)\n{\n.reg .pred %p<8>;\n.reg .b32 %r<12>;\n.reg .b64 %rd<4>;\n"
    "ld.param.u64 %rd1, [out];\ncvta.to.global.u64 %rd1, %rd1;\n"
    "setp.eq.u32 %p7, %tid.x, 0;\n"
    "mad.lo.u32 %r1, %ctaid.z, %nctaid.y, %ctaid.y;\nmad.lo.u32 %r1, %r1, %nctaid.x, %ctaid.x;\n"
    "mad.lo.u32 %r2, %r1, %ntid.x, %tid.x;\n"
    "selp.u32 %r3, 1000000000, 0, %p7;\nadd.u32 %r4, %r2, %r3;\n"
    "mad.lo.u32 %r5, %ctaid.z, 100, %laneid;\n"
    "mul.wide.u32 %rd2, %r2, 8;\nadd.s64 %rd3, %rd1, %rd2;\n"
    "st.global.v2.u32 [%rd3], {%r4, %r5};\nret;\n}\n";

static void test_ptx_special_registers_as_operands_in_every_block_of_a_slot(void **s)
{
    (void)s;
    enum { GX = 25, GY = 30, GZ = 2, B = 256, N = GX * GY * GZ * B };
    DeviceModule *m = load_text("sregs_direct.ptx", sregs_direct_ptx);
    static uint32_t out[N * 2];
    DevicePtr dout = dalloc(sizeof out);
    SimError err;
    DeviceLaunch cfg = {.grid = {GX, GY, GZ}, .block = {B, 1, 1}};
    assert_int_equal(device_launch(m, "k", &cfg, (void *[]){&dout}, NULL, &fault, &err), SIM_OK);
    down(out, dout, sizeof out);
    for (uint32_t g = 0; g < N; g++) {
        uint32_t blk = g / B, t = g % B, z = blk / (GX * GY);
        uint32_t want0 = g + (t == 0 ? 1000000000u : 0), want1 = z * 100 + t % 32;
        if (out[2 * g] != want0 || out[2 * g + 1] != want1)
            fail_msg("thread %u of block %u: %u %u, want %u %u", t, blk, out[2 * g], out[2 * g + 1], want0, want1);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
#define T(f) cmocka_unit_test_setup_teardown(f, harness_setup, harness_teardown)
        T(test_ptx_barrier_memcpy_async_with_shared_cta_mbarrier),
        T(test_ptx_cvta_param_reads_a_grid_constant_parameter),
        T(test_ptx_store_through_a_grid_constant_address_faults),
        T(test_ptx_cvta_param_in_a_device_function_is_refused),
        T(test_ptx_add_sub_128_through_carry_flag),
        T(test_ptx_mad_cc_madc_64x64_multiply_and_u64_carries),
        T(test_ptx_sinf_cosf_of_large_arguments_within_two_ulp),
        T(test_ptx_f16x2_bf16x2_arithmetic_and_packing_against_c_reference),
        T(test_ptx_half_precision_atomic_add_in_lane_order),
        T(test_ptx_setp_half_boolop_writes_p_and_q),
        T(test_ptx_fns_lop3_bmsk_szext_dp4a_dp2a_against_c_references),
        T(test_ptx_cp_async_mbarrier_arrive_counts_only_with_noinc),
        T(test_ptx_simd_video4_bytewise_against_c_reference),
#undef T
        cmocka_unit_test_setup_teardown(test_ptx_special_registers_as_operands_in_every_block_of_a_slot,
                                        harness_setup_sim, harness_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
