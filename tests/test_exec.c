/* test_exec.c: end-to-end tests of the executor.  Real CUDA kernels
 * (tests/kernels/NAME.cu, compiled by nvcc into the committed NAME.ptx) run
 * through the host API (device.h) on inputs from a fixed seed, and every
 * output element is compared with a plain-C reference computed here (SQLite
 * style: the clever machine beside a naive model) -- bit for bit for
 * integers and for IEEE-exact float operations.  GPU rules C leaves undefined
 * (float -> int of NaN and out-of-range values, INT_MIN cases) are written
 * out explicitly.  Fault tests check the kind, the thread and the .cu line.
 * Run from the repository root. */
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

#include "harness.h"

/* ---- harness ------------------------------------------------------------ */

static DeviceStats stats;
static DeviceFault fault;

/* Load tests/kernels/NAME.ptx. */
static DeviceModule *mod(const char *name)
{
    char path[256];
    snprintf(path, sizeof path, "tests/kernels/%s.ptx", name);
    return load_file(path);
}

/* Launch and return the status; stats and fault land in the globals. */
static SimStatus launch_cfg(DeviceModule *m, const char *kernel, DeviceLaunch cfg, void **args)
{
    SimError err;
    memset(&err, 0, sizeof err);
    const char *entry = device_find_kernel(m, kernel, &err);
    if (!entry)
        fail_msg("find %s: %s", kernel, err.msg);
    memset(&stats, 0, sizeof stats);
    SimStatus st = device_launch(m, entry, &cfg, args, &stats, &fault, &err);
    if (st != SIM_OK && st != SIM_ERR_FAULT)
        fail_msg("launch %s: %s", kernel, err.msg);
    return st;
}

/* Launch that must succeed. */
static void run2d(DeviceModule *m, const char *kernel, unsigned gx, unsigned gy, unsigned bx,
                  unsigned by, unsigned smem, void **args)
{
    DeviceLaunch cfg = {.grid = {gx, gy, 1}, .block = {bx, by, 1}, .smem = smem, .inst_budget = 0};
    SimStatus st = launch_cfg(m, kernel, cfg, args);
    if (st != SIM_OK)
        fail_msg("%s faulted: %s: %s (block %u thread %u, ptx line %d: %s)", kernel, fault.kind,
                 fault.msg, fault.block.x, fault.thread.x, fault.ptx_line, fault.ptx_text);
}

static void run(DeviceModule *m, const char *kernel, unsigned grid, unsigned block, void **args)
{
    run2d(m, kernel, grid, 1, block, 1, 0, args);
}

#define ARGS(...) ((void *[]){__VA_ARGS__})

/* Fixed-seed generator (xorshift64*). */
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
/* uniform in [lo, hi] */
static int rndi(int lo, int hi) { return lo + (int)(rnd64() % (uint64_t)((int64_t)hi - lo + 1)); }

static uint32_t F(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static float FV(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
static uint64_t D(double d) { uint64_t u; memcpy(&u, &d, 8); return u; }
static double DV(uint64_t u) { double d; memcpy(&d, &u, 8); return d; }

/* NVIDIA f32 arithmetic returns the canonical NaN (f64: see dmath). */
static uint32_t canon32(float f) { return isnan(f) ? 0x7fffffffu : F(f); }

/* Compare arrays element by element, naming the first mismatch. */
#define CHECK_EQ_ARRAY(got, want, n, fmt)                                               \
    do {                                                                                \
        for (size_t k_ = 0; k_ < (size_t)(n); k_++)                                     \
            if ((got)[k_] != (want)[k_])                                                \
                fail_msg("element %zu: got " fmt ", want " fmt, k_, (got)[k_], (want)[k_]); \
    } while (0)

/* ---- block reduction ---------------------------------------------------- */

static void test_exec_block_reduce_sums_each_block_with_syncthreads(void **s)
{
    (void)s;
    enum { N = 1000, B = 256, G = (N + B - 1) / B };
    int in[N], out[G], want[G] = {0};
    seed(1);
    for (int i = 0; i < N; i++) {
        in[i] = rndi(-100000, 100000);
        want[i / B] += in[i];
    }
    DeviceModule *m = mod("reduce_block");
    DevicePtr din = up(in, sizeof in), dout = dalloc(sizeof out);
    int n = N;
    run(m, "reduce_block", G, B, ARGS(&din, &dout, &n));
    down(out, dout, sizeof out);
    CHECK_EQ_ARRAY(out, want, G, "%d");
    SIM_ONLY(assert_int_equal(stats.barriers, (uint64_t)G * 9));
    SIM_ONLY(assert_int_equal(stats.blocks, G));
}

static void test_exec_early_return_before_syncthreads_is_not_divergence(void **s)
{
    (void)s;
    enum { B = 96, ACTIVE = 45 }; /* warp 1 keeps 13 lanes, warp 2 none */
    int in[B], out[B], want[B];
    seed(31);
    for (int t = 0; t < B; t++) {
        in[t] = rndi(-1000, 1000);
        out[t] = want[t] = 12345;
    }
    for (int t = 0; t < ACTIVE; t++) {
        int u = ACTIVE - 1 - t;
        want[t] = u & 1 ? in[u] * 3 : -in[u];
    }
    DeviceModule *m = mod("reduce_block");
    DevicePtr din = up(in, sizeof in), dout = up(out, sizeof out);
    int active = ACTIVE;
    run(m, "early_return_sync", 1, B, ARGS(&din, &dout, &active));
    down(out, dout, sizeof out);
    CHECK_EQ_ARRAY(out, want, B, "%d");
    SIM_ONLY(assert_int_equal(stats.barriers, 1));
}

/* ---- warp shuffles ------------------------------------------------------ */

static void test_exec_shfl_down_sums_each_warp(void **s)
{
    (void)s;
    enum { N = 512 };
    int in[N], out[N / 32], want[N / 32] = {0};
    seed(2);
    for (int i = 0; i < N; i++) {
        in[i] = (int)rnd32();
        want[i / 32] = (int)((uint32_t)want[i / 32] + (uint32_t)in[i]);
    }
    DeviceModule *m = mod("shuffle");
    DevicePtr din = up(in, sizeof in), dout = dalloc(sizeof out);
    run(m, "shfl_down_sum", 4, 128, ARGS(&din, &dout));
    down(out, dout, sizeof out);
    CHECK_EQ_ARRAY(out, want, N / 32, "%d");
}

static void test_exec_shfl_xor_gives_every_lane_the_warp_sum_and_max(void **s)
{
    (void)s;
    enum { N = 256 };
    int in[N], sum[N], mx[N], wsum[N], wmx[N];
    seed(3);
    for (int i = 0; i < N; i++)
        in[i] = rndi(-1000000, 1000000);
    for (int w = 0; w < N / 32; w++) {
        int s_ = 0, m_ = INT_MIN;
        for (int l = 0; l < 32; l++) {
            s_ += in[w * 32 + l];
            m_ = in[w * 32 + l] > m_ ? in[w * 32 + l] : m_;
        }
        for (int l = 0; l < 32; l++) {
            wsum[w * 32 + l] = s_;
            wmx[w * 32 + l] = m_;
        }
    }
    DeviceModule *m = mod("shuffle");
    DevicePtr din = up(in, sizeof in), ds = dalloc(sizeof sum), dm = dalloc(sizeof mx);
    run(m, "shfl_xor_allreduce", 2, 128, ARGS(&din, &ds, &dm));
    down(sum, ds, sizeof sum);
    down(mx, dm, sizeof mx);
    CHECK_EQ_ARRAY(sum, wsum, N, "%d");
    CHECK_EQ_ARRAY(mx, wmx, N, "%d");
}

static void test_exec_shfl_up_gives_inclusive_warp_scan(void **s)
{
    (void)s;
    enum { N = 320 };
    int in[N], out[N], want[N];
    seed(4);
    for (int i = 0; i < N; i++) {
        in[i] = rndi(-50, 50);
        want[i] = in[i] + (i % 32 ? want[i - 1] : 0);
    }
    DeviceModule *m = mod("shuffle");
    DevicePtr din = up(in, sizeof in), dout = dalloc(sizeof out);
    run(m, "shfl_up_scan", 5, 64, ARGS(&din, &dout));
    down(out, dout, sizeof out);
    CHECK_EQ_ARRAY(out, want, N, "%d");
}

static void test_exec_shfl_with_width_below_32_stays_in_segment(void **s)
{
    (void)s;
    enum { N = 128 };
    int in[N], src[N], bc[N], dsum[N], upv[N], bx[N];
    int wbc[N], wdsum[N], wup[N], wbx[N];
    seed(5);
    for (int i = 0; i < N; i++) {
        in[i] = rndi(-1000, 1000);
        src[i] = rndi(0, 40); /* srcLane is taken modulo the width */
    }
    for (int w = 0; w < N / 32; w++) {
        const int *v = in + w * 32;
        int cur[32], nxt[32];
        memcpy(cur, v, sizeof cur);
        for (int o = 8; o > 0; o >>= 1) {
            for (int l = 0; l < 32; l++)
                nxt[l] = cur[l] + ((l % 16) + o < 16 ? cur[l + o] : cur[l]);
            memcpy(cur, nxt, sizeof cur);
        }
        for (int l = 0; l < 32; l++) {
            int i = w * 32 + l;
            wbc[i] = v[(l & ~7) + (src[i] & 7)];
            wdsum[i] = cur[l];
            wup[i] = (l % 4) >= 3 ? v[l - 3] : v[l];
            wbx[i] = v[l ^ 5];
        }
    }
    DeviceModule *m = mod("shuffle");
    DevicePtr din = up(in, sizeof in), dsrc = up(src, sizeof src), d1 = dalloc(sizeof bc),
              d2 = dalloc(sizeof dsum), d3 = dalloc(sizeof upv), d4 = dalloc(sizeof bx);
    run(m, "shfl_width", 2, 64, ARGS(&din, &dsrc, &d1, &d2, &d3, &d4));
    down(bc, d1, sizeof bc);
    down(dsum, d2, sizeof dsum);
    down(upv, d3, sizeof upv);
    down(bx, d4, sizeof bx);
    CHECK_EQ_ARRAY(bc, wbc, N, "%d");
    CHECK_EQ_ARRAY(dsum, wdsum, N, "%d");
    CHECK_EQ_ARRAY(upv, wup, N, "%d");
    CHECK_EQ_ARRAY(bx, wbx, N, "%d");
}

/* ---- votes -------------------------------------------------------------- */

static void test_exec_vote_ballot_all_any_and_activemask(void **s)
{
    (void)s;
    enum { N = 256 };
    int in[N], all[N], any[N], wall[N], wany[N];
    unsigned ballot[N], active[N], half[N], wballot[N], wactive[N], whalf[N];
    seed(6);
    for (int i = 0; i < N; i++) {
        int w = i / 32;
        in[i] = w % 2 == 0 ? rndi(1, 100) : rndi(-50, 150); /* even warps: all positive */
        if (w == 3)
            in[i] = rndi(-100, 0);                          /* a warp with no positive */
    }
    for (int w = 0; w < N / 32; w++) {
        unsigned b = 0, h = 0;
        int a = 1, y = 0;
        for (int l = 0; l < 32; l++) {
            int v = in[w * 32 + l];
            b |= (unsigned)(v > 0) << l;
            a &= v > 0;
            y |= v > 100;
            if (l % 2 == 0)
                h |= (unsigned)(v & 1) << l;
        }
        for (int l = 0; l < 32; l++) {
            int i = w * 32 + l;
            wballot[i] = b;
            wall[i] = a;
            wany[i] = y;
            wactive[i] = 0xffffffffu;
            whalf[i] = l % 2 == 0 ? h : 0;
        }
    }
    DeviceModule *m = mod("vote");
    DevicePtr din = up(in, sizeof in), d1 = dalloc(sizeof ballot), d2 = dalloc(sizeof all),
              d3 = dalloc(sizeof any), d4 = dalloc(sizeof active), d5 = dalloc(sizeof half);
    run(m, "vote", 2, 128, ARGS(&din, &d1, &d2, &d3, &d4, &d5));
    down(ballot, d1, sizeof ballot);
    down(all, d2, sizeof all);
    down(any, d3, sizeof any);
    down(active, d4, sizeof active);
    down(half, d5, sizeof half);
    CHECK_EQ_ARRAY(ballot, wballot, N, "%#x");
    CHECK_EQ_ARRAY(all, wall, N, "%d");
    CHECK_EQ_ARRAY(any, wany, N, "%d");
    CHECK_EQ_ARRAY(active, wactive, N, "%#x");
    CHECK_EQ_ARRAY(half, whalf, N, "%#x");
}

/* ---- redux and match ---------------------------------------------------- */

static void test_exec_reduce_sync_and_match_sync_per_warp(void **s)
{
    (void)s;
    enum { N = 192 };
    unsigned in[N], sum[N], umin[N], uor[N], many[N], mall[N];
    int sin_[N], smax[N], pred[N];
    unsigned wsum[N], wumin[N], wuor[N], wmany[N], wmall[N];
    int wsmax[N], wpred[N];
    seed(7);
    for (int i = 0; i < N; i++) {
        in[i] = rnd32();
        if ((i / 32) % 2 == 0)
            in[i] = (in[i] & 0x1fffffffu) | 5u << 29; /* match_all holds here */
        sin_[i] = (int)rnd32();
    }
    for (int w = 0; w < N / 32; w++) {
        unsigned su = 0, mn = ~0u, o = 0;
        int mx = INT_MIN, same = 1;
        for (int l = 0; l < 32; l++) {
            unsigned v = in[w * 32 + l];
            su += v;
            mn = v < mn ? v : mn;
            o |= v;
            mx = sin_[w * 32 + l] > mx ? sin_[w * 32 + l] : mx;
            same &= (v >> 29) == (in[w * 32] >> 29);
        }
        for (int l = 0; l < 32; l++) {
            int i = w * 32 + l;
            unsigned ma = 0;
            for (int k = 0; k < 32; k++)
                if ((in[w * 32 + k] & 7) == (in[i] & 7))
                    ma |= 1u << k;
            wsum[i] = su;
            wumin[i] = mn;
            wsmax[i] = mx;
            wuor[i] = o;
            wmany[i] = ma;
            wmall[i] = same ? 0xffffffffu : 0;
            wpred[i] = same;
        }
    }
    DeviceModule *m = mod("warp_redux");
    DevicePtr din = up(in, sizeof in), dsin = up(sin_, sizeof sin_), d[7];
    for (int k = 0; k < 7; k++)
        d[k] = dalloc(N * 4);
    run(m, "warp_redux", 3, 64, ARGS(&din, &dsin, &d[0], &d[1], &d[2], &d[3], &d[4], &d[5], &d[6]));
    down(sum, d[0], sizeof sum);
    down(umin, d[1], sizeof umin);
    down(smax, d[2], sizeof smax);
    down(uor, d[3], sizeof uor);
    down(many, d[4], sizeof many);
    down(mall, d[5], sizeof mall);
    down(pred, d[6], sizeof pred);
    CHECK_EQ_ARRAY(sum, wsum, N, "%u");
    CHECK_EQ_ARRAY(umin, wumin, N, "%u");
    CHECK_EQ_ARRAY(smax, wsmax, N, "%d");
    CHECK_EQ_ARRAY(uor, wuor, N, "%#x");
    CHECK_EQ_ARRAY(many, wmany, N, "%#x");
    CHECK_EQ_ARRAY(mall, wmall, N, "%#x");
    for (int i = 0; i < N; i++)
        if ((pred[i] != 0) != (wpred[i] != 0))
            fail_msg("pred %d: got %d want %d", i, pred[i], wpred[i]);
}

/* ---- atomics ------------------------------------------------------------ */

static void test_exec_integer_atomics_reach_order_independent_values(void **s)
{
    (void)s;
    enum { N = 1000 };
    int in[N];
    seed(8);
    for (int i = 0; i < N; i++)
        in[i] = rndi(-100000, 1000000);
    int c[10] = {0, INT_MIN, INT_MAX, 0, 0, 0, 0, 0, 0, 0};
    unsigned u[5] = {0, 0xffffffffu, 0, 0, 0};
    int flags[37] = {0};
    unsigned long long c64[2] = {0, 0};
    /* reference, sequentially */
    int wc[10];
    unsigned wu[5];
    unsigned long long w64[2] = {0, 0};
    memcpy(wc, c, sizeof c);
    memcpy(wu, u, sizeof u);
    for (int i = 0; i < N; i++) {
        int v = in[i];
        wc[0] += v;
        wc[1] = v > wc[1] ? v : wc[1];
        wc[2] = v < wc[2] ? v : wc[2];
        wu[0] |= (unsigned)v;
        wu[1] &= (unsigned)v | 0x80000001u;
        wu[2] ^= (unsigned)v;
        wu[3] = wu[3] >= 100u ? 0 : wu[3] + 1;
        wc[7] += v;
        wu[4] = (wu[4] == 0 || wu[4] > 50u) ? 50u : wu[4] - 1;
        w64[0] += (unsigned long long)(unsigned)v * 1000003ull;
        unsigned long long sh = (unsigned long long)(unsigned)v << 20;
        w64[1] = sh > w64[1] ? sh : w64[1];
    }
    wc[8] = 37;
    DeviceModule *m = mod("atomics");
    DevicePtr din = up(in, sizeof in), dc = up(c, sizeof c), du = up(u, sizeof u),
              df = up(flags, sizeof flags), d64 = up(c64, sizeof c64);
    int n = N;
    run(m, "atomics", 4, 256, ARGS(&din, &n, &dc, &du, &df, &d64));
    down(c, dc, sizeof c);
    down(u, du, sizeof u);
    down(flags, df, sizeof flags);
    down(c64, d64, sizeof c64);
    CHECK_EQ_ARRAY(c, wc, 10, "%d");
    CHECK_EQ_ARRAY(u, wu, 5, "%#x");
    CHECK_EQ_ARRAY(c64, w64, 2, "%llu");
    for (int k = 0; k < 37; k++)
        assert_int_equal(flags[k], 1);
    SIM_ONLY(assert_true(stats.atomics >= (uint64_t)N * 12));
}

static void test_exec_shared_atomic_histogram_matches_counts(void **s)
{
    (void)s;
    enum { N = 5000 };
    unsigned char in[N];
    unsigned hist[64] = {0}, want[64] = {0};
    seed(9);
    for (int i = 0; i < N; i++) {
        in[i] = (unsigned char)rnd32();
        want[in[i] & 63]++;
    }
    DeviceModule *m = mod("atomics");
    DevicePtr din = up(in, sizeof in), dh = up(hist, sizeof hist);
    int n = N;
    run(m, "histogram", 4, 128, ARGS(&din, &n, &dh));
    down(hist, dh, sizeof hist);
    CHECK_EQ_ARRAY(hist, want, 64, "%u");
}

static void test_exec_float_atomic_add_of_small_integers_is_exact(void **s)
{
    (void)s;
    enum { N = 777 };
    float in[N], sum[4] = {0}, want[4] = {0};
    double dsum = 0, wd = 0;
    seed(10);
    for (int i = 0; i < N; i++) {
        in[i] = (float)rndi(-100, 100);
        want[i & 3] += in[i];
        wd += (double)in[i] * 0.5;
    }
    DeviceModule *m = mod("atomics");
    DevicePtr din = up(in, sizeof in), ds = up(sum, sizeof sum), dd = up(&dsum, sizeof dsum);
    int n = N;
    run(m, "atomic_fadd", 4, 256, ARGS(&din, &n, &ds, &dd));
    down(sum, ds, sizeof sum);
    down(&dsum, dd, sizeof dsum);
    for (int k = 0; k < 4; k++)
        assert_int_equal(F(sum[k]), F(want[k]));
    assert_int_equal(D(dsum), D(wd));
}

/* ---- scan --------------------------------------------------------------- */

static void test_exec_hillis_steele_scan_is_inclusive_per_block(void **s)
{
    (void)s;
    enum { N = 1500, B = 512 };
    int in[N], out[N], want[N];
    seed(11);
    for (int i = 0; i < N; i++) {
        in[i] = rndi(-1000, 1000);
        want[i] = in[i] + (i % B ? want[i - 1] : 0);
    }
    DeviceModule *m = mod("scan");
    DevicePtr din = up(in, sizeof in), dout = dalloc(sizeof out);
    int n = N;
    run(m, "scan_block", (N + B - 1) / B, B, ARGS(&din, &dout, &n));
    down(out, dout, sizeof out);
    CHECK_EQ_ARRAY(out, want, N, "%d");
}

/* ---- local memory ------------------------------------------------------- */

static void test_exec_local_array_with_dynamic_index(void **s)
{
    (void)s;
    enum { N = 300 };
    int in[N], idx[N], out[N], want[N];
    seed(12);
    for (int i = 0; i < N; i++) {
        in[i] = rndi(-1000, 1000);
        idx[i] = rndi(0, 1000);
    }
    for (int i = 0; i < N; i++) {
        int a[24];
        for (int k = 0; k < 24; k++)
            a[k] = in[i] * (k + 1) + k;
        for (int k = 0; k < 8; k++) {
            int j = idx[(i + k) % N] % 24;
            int t = a[j];
            a[j] = a[k];
            a[k] = t + j;
        }
        uint32_t acc = 0;
        for (int k = 0; k < 24; k++)
            acc = acc * 31u + (uint32_t)a[k];
        want[i] = (int)(acc + (uint32_t)a[idx[i] % 24]);
    }
    DeviceModule *m = mod("local_array");
    DevicePtr din = up(in, sizeof in), didx = up(idx, sizeof idx), dout = dalloc(sizeof out);
    int n = N;
    run(m, "local_array", 3, 128, ARGS(&din, &didx, &dout, &n));
    down(out, dout, sizeof out);
    CHECK_EQ_ARRAY(out, want, N, "%d");
    SIM_ONLY(assert_true(stats.local_bytes >= 24 * 4));
}

/* ---- 64-bit integers ---------------------------------------------------- */

static void test_exec_64bit_mulhi_div_rem_and_shifts(void **s)
{
    (void)s;
    enum { N = 256 };
    static uint64_t a[N], b[N], out[N * 12], want[N * 12];
    unsigned sh[N];
    seed(13);
    for (int i = 0; i < N; i++) {
        a[i] = rnd64() >> rndi(0, 63);
        b[i] = rnd64() >> rndi(0, 63);
        if (rndi(0, 1))
            a[i] = (uint64_t)-(int64_t)a[i];
        if (rndi(0, 3) == 0)
            b[i] = (uint64_t)-(int64_t)b[i];
        sh[i] = rnd32();
    }
    a[0] = 0x8000000000000000ull; b[0] = ~0ull;   /* INT64_MIN / -1 */
    a[1] = 12345; b[1] = 0;                       /* guarded by zero */
    a[2] = ~0ull; b[2] = ~0ull;
    a[3] = 0x8000000000000000ull; b[3] = 0x8000000000000000ull;
    for (int i = 0; i < N; i++) {
        uint64_t x = a[i], y = b[i];
        int64_t sx = (int64_t)x, sy = (int64_t)y;
        unsigned sv = sh[i];
        uint64_t *o = want + i * 12;
        o[0] = (uint64_t)(((unsigned __int128)x * y) >> 64);
        o[1] = (uint64_t)(((__int128)sx * sy) >> 64);
        o[2] = x * y;
        o[3] = y ? x / y : 0;
        o[4] = y ? x % y : 0;
        o[5] = (sy && !(sy == -1 && sx == INT64_MIN)) ? (uint64_t)(sx / sy) : 1;
        o[6] = (sy && sy != -1) ? (uint64_t)(sx % sy) : 2;
        o[7] = x << (sv & 63);
        o[8] = x >> (sv & 63);
        o[9] = (uint64_t)(sx >> (sv & 63));
        uint32_t hu = (uint32_t)(((uint64_t)(uint32_t)x * (uint32_t)y) >> 32);
        uint32_t hs = (uint32_t)(((int64_t)(int32_t)x * (int32_t)y) >> 32);
        o[10] = (uint64_t)hu << 32 | hs;
        int32_t dv = (int32_t)(y >> 40) | 1;
        o[11] = (uint64_t)((uint32_t)x / ((uint32_t)y | 1u)) << 32 | (uint32_t)((int32_t)x % dv);
    }
    DeviceModule *m = mod("math64");
    DevicePtr da = up(a, sizeof a), db = up(b, sizeof b), ds = up(sh, sizeof sh),
              dout = dalloc(sizeof out);
    int n = N;
    run(m, "math64", 2, 128, ARGS(&da, &db, &ds, &dout, &n));
    down(out, dout, sizeof out);
    for (int k = 0; k < N * 12; k++)
        if (out[k] != want[k])
            fail_msg("thread %d result %d (a=%#llx b=%#llx sh=%u): got %#llx want %#llx", k / 12,
                     k % 12, (unsigned long long)a[k / 12], (unsigned long long)b[k / 12],
                     sh[k / 12], (unsigned long long)out[k], (unsigned long long)want[k]);
}

/* ---- conversions -------------------------------------------------------- */

/* The GPU's float -> integer rule: round, saturate to the range; NaN gives 0
 * for a 32-bit result from f32, and 1 << (w-1) from f64 or into 64 bits. */
static int64_t sat_s(double r, int bits)
{
    double lim = ldexp(1.0, bits - 1);
    if (r >= lim)
        return bits == 64 ? INT64_MAX : (int64_t)(lim - 1);
    if (r < -lim)
        return bits == 64 ? INT64_MIN : -(int64_t)lim;
    return (int64_t)r;
}
static uint64_t sat_u(double r, int bits)
{
    double lim = ldexp(1.0, bits);
    if (r >= lim)
        return bits == 64 ? UINT64_MAX : (uint64_t)(lim - 1);
    if (r <= -1.0 || r < 0)
        return 0;
    return (uint64_t)r;
}

static const int fe_mode[4] = {FE_TONEAREST, FE_TOWARDZERO, FE_DOWNWARD, FE_UPWARD};
enum { RN, RZ, RD, RU };
static double round_mode(double x, int mode)
{
    switch (mode) {
    case RN: return nearbyint(x); /* ties to even in the default mode */
    case RZ: return trunc(x);
    case RD: return floor(x);
    default: return ceil(x);
    }
}

static float special_f32(int k)
{
    static const uint32_t sp[] = {
        0x7fc00000u, 0xffc00000u, 0x7f800001u, 0x7f800000u, 0xff800000u, 0x00000000u, 0x80000000u,
        0x00000001u, 0x80000001u, 0x007fffffu, 0x807fffffu, 0x00400000u, 0x00800000u, 0x7f7fffffu,
        0xff7fffffu, 0x3f800000u, 0xbf800000u, 0x3f000000u, 0xbf000000u, 0x3fc00000u, 0xbfc00000u,
        0x40200000u, 0xc0200000u, 0x4effffffu, 0x4f000000u, 0xcf000000u, 0xcf000001u, 0x4f7fffffu,
        0x4f800000u, 0x5f000000u, 0x5effffffu, 0xdf000000u, 0x5f800000u, 0x3effffffu, 0x3f7fffffu,
        0x34000000u, 0x1f800000u, 0x5f7fffffu};
    return FV(sp[k % (int)(sizeof sp / sizeof sp[0])]);
}
#define N_SPECIAL_F32 38

/* Random float with a spread of exponents: random mantissa, exponent chosen
 * from the whole range or near 1. */
static float rnd_f32(int near)
{
    uint32_t u = rnd32();
    if (near) {
        int e = 127 + rndi(-near, near);
        u = (u & 0x807fffffu) | (uint32_t)e << 23;
    }
    return FV(u);
}

static void test_exec_float_to_int_rounds_and_saturates_nan_to_zero(void **s)
{
    (void)s;
    enum { N = 256 };
    float f[N];
    int32_t o[N * 12];
    seed(14);
    for (int i = 0; i < N; i++)
        f[i] = i < N_SPECIAL_F32 ? special_f32(i) : rnd_f32(i % 3 ? 40 : 0);
    DeviceModule *m = mod("convert");
    DevicePtr df = up(f, sizeof f), dout = dalloc(sizeof o);
    int n = N;
    run(m, "f2i", 2, 128, ARGS(&df, &dout, &n));
    down(o, dout, sizeof o);
    for (int i = 0; i < N; i++) {
        float x = f[i];
        double dx = x;
        bool nan = isnan(x);
        int32_t w[12];
        w[0] = nan ? 0 : (int32_t)sat_s(round_mode(dx, RN), 32);
        w[1] = nan ? 0 : (int32_t)sat_s(round_mode(dx, RZ), 32);
        w[2] = nan ? 0 : (int32_t)sat_s(round_mode(dx, RD), 32);
        w[3] = nan ? 0 : (int32_t)sat_s(round_mode(dx, RU), 32);
        w[4] = nan ? 0 : (int32_t)(uint32_t)sat_u(round_mode(dx, RN), 32);
        w[5] = nan ? 0 : (int32_t)(uint32_t)sat_u(round_mode(dx, RZ), 32);
        w[6] = w[1];
        int64_t ll = nan ? INT64_MIN : sat_s(round_mode(dx, RD), 64);
        w[7] = (int32_t)ll;
        w[8] = (int32_t)(ll >> 32);
        uint64_t ull = nan ? 1ull << 63 : sat_u(round_mode(dx, RU), 64);
        w[9] = (int32_t)ull;
        w[10] = (int32_t)(ull >> 32);
        w[11] = (int32_t)canon32(rintf(x));
        for (int k = 0; k < 12; k++)
            if (o[i * 12 + k] != w[k])
                fail_msg("x=%a (%#x) result %d: got %d (%#x) want %d (%#x)", (double)x, F(x), k,
                         o[i * 12 + k], (unsigned)o[i * 12 + k], w[k], (unsigned)w[k]);
    }
}

static float host_cvt_s32(int32_t v, int mode)
{
    fesetround(fe_mode[mode]);
    volatile int32_t vv = v;
    volatile float r = (float)vv;
    fesetround(FE_TONEAREST);
    return r;
}
static float host_cvt_u32(uint32_t v, int mode)
{
    fesetround(fe_mode[mode]);
    volatile uint32_t vv = v;
    volatile float r = (float)vv;
    fesetround(FE_TONEAREST);
    return r;
}
static float host_cvt_s64(int64_t v, int mode)
{
    fesetround(fe_mode[mode]);
    volatile int64_t vv = v;
    volatile float r = (float)vv;
    fesetround(FE_TONEAREST);
    return r;
}
static float host_cvt_u64(uint64_t v, int mode)
{
    fesetround(fe_mode[mode]);
    volatile uint64_t vv = v;
    volatile float r = (float)vv;
    fesetround(FE_TONEAREST);
    return r;
}
static float host_d2f(double v, int mode)
{
    fesetround(fe_mode[mode]);
    volatile double vv = v;
    volatile float r = (float)vv;
    fesetround(FE_TONEAREST);
    return r;
}

static void test_exec_int_to_float_rounds_in_each_mode(void **s)
{
    (void)s;
    enum { N = 256 };
    int32_t a[N];
    int64_t b[N];
    float o[N * 12];
    seed(15);
    for (int i = 0; i < N; i++) {
        a[i] = (int32_t)(rnd32() >> rndi(0, 31));
        b[i] = (int64_t)(rnd64() >> rndi(0, 63));
        if (rndi(0, 1))
            a[i] = (int32_t)(0u - (uint32_t)a[i]);
        if (rndi(0, 2) == 0)
            b[i] = (int64_t)(0ull - (uint64_t)b[i]);
    }
    a[0] = INT_MIN; a[1] = INT_MAX; a[2] = -1; a[3] = 16777217; a[4] = -16777217;
    b[0] = INT64_MIN; b[1] = INT64_MAX; b[2] = -1; b[3] = (1ll << 40) + 1;
    DeviceModule *m = mod("convert");
    DevicePtr da = up(a, sizeof a), db = up(b, sizeof b), dout = dalloc(sizeof o);
    int n = N;
    run(m, "i2f", 2, 128, ARGS(&da, &db, &dout, &n));
    down(o, dout, sizeof o);
    for (int i = 0; i < N; i++) {
        int32_t x = a[i];
        int64_t y = b[i];
        float w[12] = {
            host_cvt_s32(x, RN), host_cvt_s32(x, RZ), host_cvt_s32(x, RD), host_cvt_s32(x, RU),
            host_cvt_u32((uint32_t)x, RN), host_cvt_u32((uint32_t)x, RZ),
            host_cvt_s64(y, RN), host_cvt_s64(y, RZ), host_cvt_s64(y, RD),
            host_cvt_u64((uint64_t)y, RU), host_cvt_s32(x, RN), host_cvt_s64(y, RN)};
        for (int k = 0; k < 12; k++)
            if (F(o[i * 12 + k]) != F(w[k]))
                fail_msg("a=%d b=%lld result %d: got %a want %a", x, (long long)y, k,
                         (double)o[i * 12 + k], (double)w[k]);
    }
}

static void test_exec_double_to_float_rounds_and_double_to_int_saturates(void **s)
{
    (void)s;
    enum { N = 256 };
    double a[N], od[N];
    float o[N * 4];
    int64_t oi[N * 3];
    seed(16);
    for (int i = 0; i < N; i++) {
        uint64_t u = rnd64();
        int e = i % 4 == 0 ? rndi(0, 2047) : 1023 + rndi(-160, 160);
        a[i] = DV((u & 0x800fffffffffffffull) | (uint64_t)e << 52);
    }
    const double sp[] = {NAN, -NAN, INFINITY, -INFINITY, 0.0, -0.0, 1e-46, -1e-46, 0x1p-149,
                         0x1.8p-149, 0x1p-150, 0x1.000001p-150, 0x1.fffffefp127, 0x1.ffffffp127,
                         1e300, -1e300, 2147483647.5, -2147483648.5, 4294967295.5, 9.3e18,
                         -9.3e18, 0.5, 1.5, 2.5, -2.5, 0x1.000001p0, 0x1.0000018p0};
    for (size_t k = 0; k < sizeof sp / sizeof sp[0]; k++)
        a[k] = sp[k];
    DeviceModule *m = mod("convert");
    DevicePtr da = up(a, sizeof a), dfo = dalloc(sizeof o), ddo = dalloc(sizeof od),
              dio = dalloc(sizeof oi);
    int n = N;
    run(m, "d2f", 2, 128, ARGS(&da, &dfo, &ddo, &dio, &n));
    down(o, dfo, sizeof o);
    down(od, ddo, sizeof od);
    down(oi, dio, sizeof oi);
    for (int i = 0; i < N; i++) {
        double x = a[i];
        bool nan = isnan(x);
        /* f64 -> f32 carries a NaN the IEEE way (sign kept, quieted, payload
         * truncated), as the host's conversion does */
        for (int k = 0; k < 4; k++) {
            uint32_t w = F(host_d2f(x, k));
            if (F(o[i * 4 + k]) != w)
                fail_msg("x=%a mode %d: got %#x want %#x", x, k, F(o[i * 4 + k]), w);
        }
        assert_int_equal(D(od[i]), D((double)host_d2f(x, RN)));
        int64_t w0 = nan ? INT64_MIN : sat_s(round_mode(x, RN), 64);
        int64_t w1 = nan ? INT32_MIN : sat_s(round_mode(x, RZ), 32);
        int64_t w2 = nan ? 0x80000000ll : (int64_t)sat_u(round_mode(x, RU), 32);
        if (oi[i * 3] != w0 || oi[i * 3 + 1] != w1 || oi[i * 3 + 2] != w2)
            fail_msg("x=%a: got %lld %lld %lld want %lld %lld %lld", x, (long long)oi[i * 3],
                     (long long)oi[i * 3 + 1], (long long)oi[i * 3 + 2], (long long)w0,
                     (long long)w1, (long long)w2);
    }
}

static void test_exec_narrow_integer_casts_truncate(void **s)
{
    (void)s;
    enum { N = 200 };
    int a[N], o[N * 6], want[N * 6];
    float f[N];
    seed(17);
    for (int i = 0; i < N; i++) {
        a[i] = (int)rnd32();
        f[i] = (float)rndi(0, 499) + (float)rndi(0, 3) * 0.25f;
    }
    for (int i = 0; i < N; i++) {
        int32_t x = a[i];
        int *w = want + i * 6;
        w[0] = (uint8_t)x;
        w[1] = (int8_t)(uint8_t)x;
        w[2] = (uint16_t)x;
        w[3] = (int16_t)(uint16_t)x;
        w[4] = (uint8_t)(int)(f[i] * 0.5f);
        w[5] = (int16_t)(uint16_t)(int)(f[i] * 300.0f);
    }
    DeviceModule *m = mod("convert");
    DevicePtr da = up(a, sizeof a), dfl = up(f, sizeof f), dout = dalloc(sizeof o);
    int n = N;
    run(m, "narrow", 2, 128, ARGS(&da, &dfl, &dout, &n));
    down(o, dout, sizeof o);
    CHECK_EQ_ARRAY(o, want, N * 6, "%d");
}

/* ---- grid-stride loops and bounds checks -------------------------------- */

static void test_exec_grid_stride_loop_covers_every_element(void **s)
{
    (void)s;
    enum { N = 10007 };
    static int a[N], b[N], c[N], want[N];
    seed(18);
    for (int i = 0; i < N; i++) {
        a[i] = rndi(-100000, 100000);
        b[i] = rndi(-100000, 100000);
        want[i] = a[i] * 7 - b[i] + (i ^ 0x55);
    }
    DeviceModule *m = mod("grid_stride");
    DevicePtr da = up(a, sizeof a), db = up(b, sizeof b), dc = dalloc(sizeof c);
    int n = N;
    run(m, "grid_stride", 5, 128, ARGS(&da, &db, &dc, &n));
    down(c, dc, sizeof c);
    CHECK_EQ_ARRAY(c, want, N, "%d");
}

static void test_exec_partial_last_block_is_bounds_checked(void **s)
{
    (void)s;
    enum { N = 1000, B = 256 };
    int in[N], out[N], want[N], count = 0;
    seed(19);
    for (int i = 0; i < N; i++) {
        in[i] = rndi(-1000, 1000);
        want[i] = in[i] * 3 + 1;
    }
    DeviceModule *m = mod("grid_stride");
    DevicePtr din = up(in, sizeof in), dout = dalloc(sizeof out), dcount = up(&count, 4);
    int n = N;
    run(m, "bounds", (N + B - 1) / B, B, ARGS(&din, &dout, &dcount, &n));
    down(out, dout, sizeof out);
    down(&count, dcount, 4);
    CHECK_EQ_ARRAY(out, want, N, "%d");
    assert_int_equal(count, N);
    SIM_ONLY(assert_int_equal(stats.threads, 1024));
    SIM_ONLY(assert_int_equal(stats.global_stores, N));
}

static void test_exec_odd_block_size_makes_partial_warp(void **s)
{
    (void)s;
    enum { N = 1000, B = 100 }; /* 100 threads: 4 warps, the last with 4 lanes */
    int in[N], out[N], want[N], count = 0;
    seed(20);
    for (int i = 0; i < N; i++) {
        in[i] = rndi(-1000, 1000);
        want[i] = in[i] * 3 + 1;
    }
    DeviceModule *m = mod("grid_stride");
    DevicePtr din = up(in, sizeof in), dout = dalloc(sizeof out), dcount = up(&count, 4);
    int n = N;
    run(m, "bounds", N / B, B, ARGS(&din, &dout, &dcount, &n));
    down(out, dout, sizeof out);
    down(&count, dcount, 4);
    CHECK_EQ_ARRAY(out, want, N, "%d");
    assert_int_equal(count, N);
    SIM_ONLY(assert_int_equal(stats.warps, (N / B) * 4));
}

/* ---- 2D grid, dynamic shared memory ------------------------------------- */

static void test_exec_transpose_2d_grid_with_ragged_edges(void **s)
{
    (void)s;
    enum { R = 37, C = 50 };
    static float in[R * C], out[R * C];
    seed(21);
    for (int i = 0; i < R * C; i++)
        in[i] = (float)rndi(-100000, 100000) / 8.0f;
    DeviceModule *m = mod("transpose");
    DevicePtr din = up(in, sizeof in), dout = dalloc(sizeof out);
    int rows = R, cols = C;
    run2d(m, "transpose", (C + 15) / 16, (R + 15) / 16, 16, 16, 0, ARGS(&din, &dout, &rows, &cols));
    down(out, dout, sizeof out);
    for (int y = 0; y < R; y++)
        for (int x = 0; x < C; x++)
            if (F(out[x * R + y]) != F(in[y * C + x]))
                fail_msg("out[%d][%d] = %g, want %g", x, y, (double)out[x * R + y],
                         (double)in[y * C + x]);
    SIM_ONLY(assert_int_equal(stats.blocks, 4 * 3));
}

static void test_exec_dynamic_shared_memory_sized_at_launch(void **s)
{
    (void)s;
    enum { B = 96, G = 5, N = B * G };
    int in[N], out[N], p2[N], wout[N], wp2[N];
    seed(22);
    for (int i = 0; i < N; i++)
        in[i] = rndi(-100000, 100000);
    for (int g = 0; g < G; g++)
        for (int t = 0; t < B; t++) {
            wout[g * B + t] = in[g * B + B - 1 - t];
            wp2[g * B + t] = 2 * in[g * B + (t + 1) % B] + 2 * in[g * B];
        }
    DeviceModule *m = mod("dyn_smem");
    DevicePtr din = up(in, sizeof in), dout = dalloc(sizeof out), dp = dalloc(sizeof p2);
    run2d(m, "dyn_reverse", G, 1, B, 1, 2 * B * 4, ARGS(&din, &dout, &dp));
    down(out, dout, sizeof out);
    down(p2, dp, sizeof p2);
    CHECK_EQ_ARRAY(out, wout, N, "%d");
    CHECK_EQ_ARRAY(p2, wp2, N, "%d");
}

static void test_exec_dynamic_shared_memory_too_small_faults_out_of_bounds(void **s)
{
    SIM_ONLY_TEST();
    (void)s;
    enum { B = 64 };
    int in[B] = {0};
    DeviceModule *m = mod("dyn_smem");
    DevicePtr din = up(in, sizeof in), dout = dalloc(sizeof in), dp = dalloc(sizeof in);
    DeviceLaunch cfg = {.grid = {1, 1, 1}, .block = {B, 1, 1}, .smem = B * 4, .inst_budget = 0}; /* room for s[] only, not t[] */
    assert_int_equal(launch_cfg(m, "dyn_reverse", cfg, ARGS(&din, &dout, &dp)), SIM_ERR_FAULT);
    assert_string_equal(fault.kind, "out-of-bounds");
    assert_int_equal(fault.line, 9);
}

/* ---- divergence ---------------------------------------------------------- */

static void test_exec_loop_with_per_lane_trip_count(void **s)
{
    (void)s;
    enum { N = 500 };
    unsigned in[N], steps[N], peak[N], ws[N], wp[N];
    seed(23);
    for (int i = 0; i < N; i++)
        in[i] = (unsigned)rndi(1, 100000);
    in[7] = 0; /* never reaches 1: runs the full 1000 steps */
    in[8] = 1;
    for (int i = 0; i < N; i++) {
        unsigned x = in[i], st = 0, p = x;
        while (x != 1 && st < 1000) {
            x = x & 1 ? 3 * x + 1 : x >> 1;
            p = x > p ? x : p;
            st++;
        }
        ws[i] = st;
        wp[i] = p;
    }
    DeviceModule *m = mod("divergence");
    DevicePtr din = up(in, sizeof in), d1 = dalloc(sizeof steps), d2 = dalloc(sizeof peak);
    int n = N;
    run(m, "collatz", 4, 128, ARGS(&din, &d1, &d2, &n));
    down(steps, d1, sizeof steps);
    down(peak, d2, sizeof peak);
    CHECK_EQ_ARRAY(steps, ws, N, "%u");
    CHECK_EQ_ARRAY(peak, wp, N, "%u");
    SIM_ONLY(assert_true(stats.divergent_branches > 0));
}

static void test_exec_divergent_switch_with_nested_loops(void **s)
{
    (void)s;
    enum { N = 700, B = 128 };
    int in[N], out[N], want[N];
    seed(24);
    for (int i = 0; i < N; i++)
        in[i] = rndi(-1000000, 1000000);
    for (int i = 0; i < N; i++) {
        int v = in[i], r, tid = i % B;
        switch (v & 3) {
        case 0:
            r = v * 2;
            for (int k = 0; k < (v & 15); k++)
                r ^= r >> 1;
            break;
        case 1:
            r = -v;
            r += (tid & 4) ? 100 : -7;
            break;
        case 2:
            r = 0;
            for (int k = tid & 31; k > 0; k -= 3)
                r += k;
            break;
        default:
            r = v / 3;
            while (r > 10)
                r = r / 2 + 1;
        }
        want[i] = r;
    }
    DeviceModule *m = mod("divergence");
    DevicePtr din = up(in, sizeof in), dout = dalloc(sizeof out);
    int n = N;
    run(m, "branches", (N + B - 1) / B, B, ARGS(&din, &dout, &n));
    down(out, dout, sizeof out);
    CHECK_EQ_ARRAY(out, want, N, "%d");
}

/* ---- calls --------------------------------------------------------------- */

static int ref_mix(int a, int b, unsigned c)
{
    int r = (int)((unsigned)a * 31u + (unsigned)b);
    if (c & 1)
        r ^= (int)(c >> 1);
    return (int)((unsigned)r - c);
}
static unsigned ref_gcd(unsigned a, unsigned b) { return b == 0 ? a : ref_gcd(b, a % b); }

static void test_exec_noinline_function_call_with_params_and_return(void **s)
{
    (void)s;
    enum { N = 300 };
    int a[N], b[N], out[N], want[N];
    float fo[N];
    unsigned g[N];
    seed(25);
    for (int i = 0; i < N; i++) {
        a[i] = rndi(1, 100000);
        b[i] = rndi(0, 100000);
    }
    DeviceModule *m = mod("noinline");
    DevicePtr da = up(a, sizeof a), db = up(b, sizeof b), dout = dalloc(sizeof out),
              dfo = dalloc(sizeof fo), dg = dalloc(sizeof g);
    int n = N;
    run(m, "noinline", 3, 128, ARGS(&da, &db, &dout, &dfo, &dg, &n));
    down(out, dout, sizeof out);
    down(fo, dfo, sizeof fo);
    down(g, dg, sizeof g);
    for (int i = 0; i < N; i++) {
        int r = ref_mix(a[i], b[i], (unsigned)i);
        if (r & 1)
            r = ref_mix(r, 3, 5u);
        want[i] = r;
        float wf = fmaf((float)a[i], (float)(i & 7), 0.5f); /* nvcc contracts to fma.rn */
        if (F(fo[i]) != F(wf))
            fail_msg("fmix %d: got %a want %a", i, (double)fo[i], (double)wf);
        if (g[i] != ref_gcd((unsigned)a[i], (unsigned)b[i]))
            fail_msg("gcd(%d, %d): got %u want %u", a[i], b[i], g[i],
                     ref_gcd((unsigned)a[i], (unsigned)b[i]));
    }
    CHECK_EQ_ARRAY(out, want, N, "%d");
}

/* ---- printf -------------------------------------------------------------- */

static void test_exec_printf_from_a_few_threads_in_order(void **s)
{
    SIM_ONLY_TEST();
    (void)s;
    int v[64];
    for (int t = 0; t < 64; t++)
        v[t] = t * 5 - 40;
    DeviceModule *m = mod("printf");
    DevicePtr dv = up(v, sizeof v);
    run(m, "hello", 2, 64, ARGS(&dv));
    char want[2048] = "", line[256];
    for (int b = 0; b < 2; b++)
        for (int t = 0; t < 64; t++) {
            if (t % 16 == 3) {
                snprintf(line, sizeof line, "block %d thread %d v=%d x=%x f=%.2f s=%s\n", b, t,
                         v[t], (unsigned)(v[t] * 3), v[t] / 4.0, "ok");
                strcat(want, line);
            }
            if (b == 1 && t == 31) /* after warp 0's first call */
                strcat(want, "-1234567890123 4000000000 A|   42|7   |\n");
        }
    /* within a warp the lines come in program order: warp 0 of block 1
     * prints lanes 3 and 19 (first call) before lane 0's second call */
    const char *got = device_printf_output(dev);
    if (strcmp(got, want) != 0)
        fail_msg("printf output:\n%s\nwant:\n%s", got, want);
}

/* ---- bit operations ------------------------------------------------------ */

static uint32_t ref_brev(uint32_t x)
{
    uint32_t r = 0;
    for (int k = 0; k < 32; k++)
        r |= (x >> k & 1) << (31 - k);
    return r;
}
static uint64_t ref_brev64(uint64_t x) { return (uint64_t)ref_brev((uint32_t)x) << 32 | ref_brev((uint32_t)(x >> 32)); }
static int ref_clz64(uint64_t x) { int n = 0; while (n < 64 && !(x >> (63 - n) & 1)) n++; return n; }
static int ref_popc64(uint64_t x) { int n = 0; for (; x; x >>= 1) n += (int)(x & 1); return n; }
static int ref_ffs64(uint64_t x) { for (int k = 0; k < 64; k++) if (x >> k & 1) return k + 1; return 0; }

static void test_exec_bit_operations(void **s)
{
    (void)s;
    enum { N = 256 };
    unsigned a[N], b[N], c[N], o[N * 14];
    seed(26);
    for (int i = 0; i < N; i++) {
        a[i] = rnd32() >> rndi(0, 31);
        b[i] = rnd32();
        c[i] = rnd32() % 70; /* shift amounts beyond 32 test the clamp */
    }
    a[0] = 0; a[1] = 0xffffffffu; a[2] = 0x80000000u; a[3] = 1;
    DeviceModule *m = mod("bitops");
    DevicePtr da = up(a, sizeof a), db = up(b, sizeof b), dc = up(c, sizeof c),
              dout = dalloc(sizeof o);
    int n = N;
    run(m, "bitops", 2, 128, ARGS(&da, &db, &dc, &dout, &n));
    down(o, dout, sizeof o);
    for (int i = 0; i < N; i++) {
        uint32_t x = a[i], y = b[i], sv = c[i], w[14];
        uint64_t xy = (uint64_t)y << 32 | x; /* {hi=y, lo=x} */
        w[0] = (uint32_t)ref_popc64(x);
        w[1] = (uint32_t)ref_clz64(x) - 32;
        w[2] = ref_brev(x);
        w[3] = (uint32_t)ref_ffs64(x);
        uint32_t sel = sv & 0xffff & 0x7777, bp = 0;
        for (int k = 0; k < 4; k++)
            bp |= (uint32_t)(xy >> (8 * ((sel >> (4 * k)) & 7)) & 0xff) << (8 * k);
        w[4] = bp;
        w[5] = (uint32_t)((xy << (sv & 31)) >> 32);
        w[6] = (uint32_t)(xy >> (sv & 31));
        unsigned cl = sv < 32 ? sv : 32;
        w[7] = cl == 32 ? x : (uint32_t)((xy << cl) >> 32);
        w[8] = cl == 32 ? y : (uint32_t)(xy >> cl);
        w[9] = (x >> (sv & 31)) & ((1u << (y & 15)) - 1);
        w[10] = (uint32_t)ref_popc64((uint64_t)x << 32 | y);
        w[11] = (uint32_t)ref_clz64((uint64_t)y << 32 | x) + 100u * (uint32_t)ref_ffs64((uint64_t)x << 7);
        w[12] = (uint32_t)(ref_brev64((uint64_t)x << 32 | y) >> 16);
        w[13] = (uint32_t)((int32_t)x >> (sv & 31)) ^ (x << (sv & 7));
        for (int k = 0; k < 14; k++)
            if (o[i * 14 + k] != w[k])
                fail_msg("x=%#x y=%#x s=%u result %d: got %#x want %#x", x, y, sv, k, o[i * 14 + k],
                         w[k]);
    }
}

/* ---- min, max, abs ------------------------------------------------------- */

static float ref_fmin(float a, float b)
{
    if (isnan(a) && isnan(b))
        return FV(0x7fffffffu);
    if (isnan(a))
        return b;
    if (isnan(b))
        return a;
    if (a == 0 && b == 0)
        return signbit(a) || signbit(b) ? -0.0f : 0.0f;
    return a < b ? a : b;
}
static float ref_fmax(float a, float b)
{
    if (isnan(a) && isnan(b))
        return FV(0x7fffffffu);
    if (isnan(a))
        return b;
    if (isnan(b))
        return a;
    if (a == 0 && b == 0)
        return signbit(a) && signbit(b) ? -0.0f : 0.0f;
    return a > b ? a : b;
}

static void test_exec_min_max_abs_including_int_min_and_nan(void **s)
{
    (void)s;
    enum { N = 256 };
    int a[N], b[N], o[N * 8];
    float fa[N], fb[N], fo[N * 4];
    seed(27);
    for (int i = 0; i < N; i++) {
        a[i] = (int)rnd32() >> rndi(0, 31);
        b[i] = (int)rnd32() >> rndi(0, 31);
        fa[i] = i < 80 ? special_f32(i) : rnd_f32(20);
        fb[i] = i < 80 ? special_f32(i * 7 + 3) : rnd_f32(20);
    }
    a[0] = INT_MIN; b[0] = INT_MAX; a[1] = INT_MAX; b[1] = INT_MIN; a[2] = -1; b[2] = 0;
    DeviceModule *m = mod("minmax");
    DevicePtr da = up(a, sizeof a), db = up(b, sizeof b), dfa = up(fa, sizeof fa),
              dfb = up(fb, sizeof fb), dout = dalloc(sizeof o), dfo = dalloc(sizeof fo);
    int n = N;
    run(m, "minmax", 2, 128, ARGS(&da, &db, &dfa, &dfb, &dout, &dfo, &n));
    down(o, dout, sizeof o);
    down(fo, dfo, sizeof fo);
    for (int i = 0; i < N; i++) {
        int32_t x = a[i], y = b[i];
        int32_t w[8];
        w[0] = x < y ? x : y;
        w[1] = x > y ? x : y;
        w[2] = (int32_t)((uint32_t)x < (uint32_t)y ? (uint32_t)x : (uint32_t)y);
        w[3] = (int32_t)((uint32_t)x > (uint32_t)y ? (uint32_t)x : (uint32_t)y);
        w[4] = (int32_t)(x < 0 ? 0u - (uint32_t)x : (uint32_t)x); /* abs(INT_MIN) = INT_MIN */
        int64_t x3 = (int64_t)x * 3;
        w[5] = (int32_t)(uint32_t)(uint64_t)(x3 < 0 ? -x3 : x3);
        w[6] = w[0];
        w[7] = w[4];
        for (int k = 0; k < 8; k++)
            if (o[i * 8 + k] != w[k])
                fail_msg("x=%d y=%d result %d: got %d want %d", x, y, k, o[i * 8 + k], w[k]);
        /* a NaN result is the canonical NaN, from abs too (H100, see alu.h) */
        uint32_t fw[4] = {canon32(ref_fmin(fa[i], fb[i])), canon32(ref_fmax(fa[i], fb[i])),
                          canon32(fabsf(fa[i])), canon32(ref_fmin(fa[i], fb[i]))};
        for (int k = 0; k < 4; k++) {
            uint32_t g = F(fo[i * 4 + k]);
            if (g != fw[k])
                fail_msg("a=%a b=%a result %d: got %#x want %#x", (double)fa[i], (double)fb[i], k,
                         g, fw[k]);
        }
    }
}

/* ---- IEEE-exact float math ----------------------------------------------- */

static void test_exec_float_add_mul_fma_sqrt_div_are_ieee_exact(void **s)
{
    (void)s;
    enum { N = 1024 };
    static float a[N], b[N], c[N], o[N * 8];
    seed(28);
    for (int i = 0; i < N; i++) {
        a[i] = i % 4 == 0 ? special_f32(rndi(0, 100)) : rnd_f32(i % 4 == 1 ? 0 : 30);
        b[i] = i % 4 == 1 ? special_f32(rndi(0, 100)) : rnd_f32(i % 4 == 2 ? 0 : 30);
        c[i] = i % 8 == 3 ? special_f32(rndi(0, 100)) : rnd_f32(i % 4 == 3 ? 0 : 30);
        if (i % 16 == 5) { /* cancellation and exact products */
            b[i] = a[i];
            c[i] = -a[i] * a[i];
        }
    }
    DeviceModule *m = mod("fmath");
    DevicePtr da = up(a, sizeof a), db = up(b, sizeof b), dc = up(c, sizeof c),
              dout = dalloc(sizeof o);
    int n = N;
    run(m, "fmath", N / 128, 128, ARGS(&da, &db, &dc, &dout, &n));
    down(o, dout, sizeof o);
    for (int i = 0; i < N; i++) {
        volatile float x = a[i], y = b[i], z = c[i];
        fesetround(FE_TOWARDZERO);
        volatile float mrz = x * y;
        fesetround(FE_TONEAREST);
        uint32_t w[8] = {canon32(x + y), canon32(x - y),     canon32(x * y), canon32(fmaf(x, y, z)),
                         canon32(sqrtf(x)), canon32(x / y), canon32(-x),    canon32(mrz)};
        for (int k = 0; k < 8; k++) {
            uint32_t g = F(o[i * 8 + k]);
            if (g != w[k])
                fail_msg("a=%a (%#x) b=%a (%#x) c=%a op %d: got %a (%#x) want %a (%#x)", (double)x,
                         F(x), (double)y, F(y), (double)z, k, (double)FV(g), g, (double)FV(w[k]),
                         w[k]);
        }
    }
}

static void test_exec_double_math_is_ieee_exact(void **s)
{
    (void)s;
    enum { N = 512 };
    static double a[N], b[N], c[N], o[N * 6];
    seed(29);
    const double sp[] = {NAN, INFINITY, -INFINITY, 0.0, -0.0, 0x1p-1074, -0x1p-1074,
                         0x1p-1022, DBL_MAX, -DBL_MAX, 1.0, -1.0, 3.0, 0.1};
    for (int i = 0; i < N; i++) {
        uint64_t u[3];
        for (int k = 0; k < 3; k++) {
            u[k] = rnd64();
            if (i % 3 != 0)
                u[k] = (u[k] & 0x800fffffffffffffull) | (uint64_t)(1023 + rndi(-60, 60)) << 52;
            else if (isnan(DV(u[k])))
                u[k] &= 0xfff0000000000000ull; /* the only NaN input is NAN itself */
        }
        a[i] = i % 5 == 0 ? sp[rndi(0, 13)] : DV(u[0]);
        b[i] = i % 5 == 1 ? sp[rndi(0, 13)] : DV(u[1]);
        c[i] = i % 5 == 2 ? sp[rndi(0, 13)] : DV(u[2]);
    }
    DeviceModule *m = mod("fmath");
    DevicePtr da = up(a, sizeof a), db = up(b, sizeof b), dc = up(c, sizeof c),
              dout = dalloc(sizeof o);
    int n = N;
    run(m, "dmath", N / 128, 128, ARGS(&da, &db, &dc, &dout, &n));
    down(o, dout, sizeof o);
    for (int i = 0; i < N; i++) {
        volatile double x = a[i], y = b[i], z = c[i];
        double w[6] = {x + y, x * y, fma(x, y, z), sqrt(x), x / y, x - y};
        bool nan_in[6] = {isnan(x) || isnan(y), isnan(x) || isnan(y),
                          isnan(x) || isnan(y) || isnan(z), isnan(x), isnan(x) || isnan(y),
                          isnan(x) || isnan(y)};
        for (int k = 0; k < 6; k++) {
            /* f64 NaN results (H100, alu.h): an input NaN propagates quieted
             * (every NaN input here is the same 0x7ff8...), otherwise the
             * result is 0xfff8000000000000 */
            uint64_t want = !isnan(w[k]) ? D(w[k]) : nan_in[k] ? D(NAN) : 0xfff8000000000000ull;
            bool ok = D(o[i * 6 + k]) == want;
            if (!ok)
                fail_msg("a=%a b=%a c=%a op %d: got %a want %a", x, y, z, k, o[i * 6 + k], w[k]);
        }
    }
}

static void test_exec_float_compare_is_unordered_with_nan(void **s)
{
    (void)s;
    enum { N = 256 };
    float a[N], b[N];
    int o[N];
    seed(30);
    for (int i = 0; i < N; i++) {
        a[i] = i < 128 ? special_f32(i) : rnd_f32(3);
        b[i] = i < 128 ? special_f32(i * 5 + 1) : (i % 3 ? rnd_f32(3) : a[i]);
    }
    DeviceModule *m = mod("fmath");
    DevicePtr da = up(a, sizeof a), db = up(b, sizeof b), dout = dalloc(sizeof o);
    int n = N;
    run(m, "fcompare", 2, 128, ARGS(&da, &db, &dout, &n));
    down(o, dout, sizeof o);
    for (int i = 0; i < N; i++) {
        float x = a[i], y = b[i];
        int w = (x < y) | (x <= y) << 1 | (x > y) << 2 | (x >= y) << 3 | (x == y) << 4 |
                (x != y) << 5 | (isnan(x) != 0) << 6 | (isinf(y) != 0) << 7 | (signbit(x) != 0) << 8;
        if (o[i] != w)
            fail_msg("a=%a b=%a: got %#x want %#x", (double)x, (double)y, o[i], w);
    }
}

/* ---- faults --------------------------------------------------------------- */

static void test_exec_out_of_bounds_store_faults_with_thread_and_line(void **s)
{
    SIM_ONLY_TEST();
    (void)s;
    DeviceModule *m = mod("faults");
    DevicePtr dout = dalloc(1000 * 4);
    int n = 1000;
    DeviceLaunch cfg = {.grid = {4, 1, 1}, .block = {256, 1, 1}, .smem = 0, .inst_budget = 0};
    assert_int_equal(launch_cfg(m, "oob_store", cfg, ARGS(&dout, &n)), SIM_ERR_FAULT);
    assert_true(fault.faulted);
    assert_string_equal(fault.kind, "out-of-bounds");
    assert_int_equal(fault.block.x, 3);
    assert_int_equal(fault.thread.x, 1000 - 3 * 256);
    assert_int_equal(fault.warp, (1000 - 768) / 32);
    assert_int_equal(fault.lane, 1000 % 32);
    assert_int_equal(fault.line, 5);
    assert_non_null(strstr(fault.file, "tests/kernels/faults.cu"));
    assert_non_null(strstr(fault.ptx_text, "st.global"));
    assert_int_equal(fault.addr, dout + 4000);
    /* the blocks before the faulting one completed their stores */
    int out[1000];
    down(out, dout, sizeof out);
    for (int i = 0; i < 768; i++)
        assert_int_equal(out[i], i);
}

static void test_exec_syncthreads_in_divergent_branch_reports_barrier_fault(void **s)
{
    SIM_ONLY_TEST();
    (void)s;
    DeviceModule *m = mod("faults");
    DevicePtr dout = dalloc(64 * 4);
    DeviceLaunch cfg = {.grid = {1, 1, 1}, .block = {64, 1, 1}, .smem = 0, .inst_budget = 0};
    assert_int_equal(launch_cfg(m, "divergent_barrier", cfg, ARGS(&dout)), SIM_ERR_FAULT);
    if (strcmp(fault.kind, "barrier-divergence") && strcmp(fault.kind, "deadlock"))
        fail_msg("kind %s: %s", fault.kind, fault.msg);
    assert_int_equal(fault.line, 13);
    assert_int_equal(fault.block.x, 0);
    assert_true(fault.thread.x < 32);
}

static void test_exec_infinite_loop_stops_at_instruction_budget(void **s)
{
    SIM_ONLY_TEST();
    (void)s;
    DeviceModule *m = mod("faults");
    int zero = 0;
    DevicePtr dflag = up(&zero, 4), dout = dalloc(64 * 4);
    DeviceLaunch cfg = {.grid = {2, 1, 1}, .block = {64, 1, 1}, .smem = 0, .inst_budget = 100000};
    assert_int_equal(launch_cfg(m, "spin", cfg, ARGS(&dflag, &dout)), SIM_ERR_FAULT);
    assert_string_equal(fault.kind, "budget-exceeded");
    SIM_ONLY(assert_int_equal(stats.warp_insts, 100000));
    assert_true(fault.line == 20 || fault.line == 21);
}

static void test_exec_launch_after_fault_runs_cleanly(void **s)
{
    SIM_ONLY_TEST();
    (void)s;
    DeviceModule *m = mod("faults");
    DevicePtr dout = dalloc(1024 * 4);
    int n = 1024;
    DeviceLaunch cfg = {.grid = {4, 1, 1}, .block = {256, 1, 1}, .smem = 0, .inst_budget = 0};
    DevicePtr small = dalloc(16);
    assert_int_equal(launch_cfg(m, "oob_store", cfg, ARGS(&small, &n)), SIM_ERR_FAULT);
    assert_int_equal(launch_cfg(m, "oob_store", cfg, ARGS(&dout, &n)), SIM_OK);
    assert_false(fault.faulted);
    int out[1024];
    down(out, dout, sizeof out);
    for (int i = 0; i < 1024; i++)
        assert_int_equal(out[i], i);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
#define T(name) cmocka_unit_test_setup_teardown(name, harness_setup, harness_teardown)
        T(test_exec_block_reduce_sums_each_block_with_syncthreads),
        T(test_exec_early_return_before_syncthreads_is_not_divergence),
        T(test_exec_shfl_down_sums_each_warp),
        T(test_exec_shfl_xor_gives_every_lane_the_warp_sum_and_max),
        T(test_exec_shfl_up_gives_inclusive_warp_scan),
        T(test_exec_shfl_with_width_below_32_stays_in_segment),
        T(test_exec_vote_ballot_all_any_and_activemask),
        T(test_exec_reduce_sync_and_match_sync_per_warp),
        T(test_exec_integer_atomics_reach_order_independent_values),
        T(test_exec_shared_atomic_histogram_matches_counts),
        T(test_exec_float_atomic_add_of_small_integers_is_exact),
        T(test_exec_hillis_steele_scan_is_inclusive_per_block),
        T(test_exec_local_array_with_dynamic_index),
        T(test_exec_64bit_mulhi_div_rem_and_shifts),
        T(test_exec_float_to_int_rounds_and_saturates_nan_to_zero),
        T(test_exec_int_to_float_rounds_in_each_mode),
        T(test_exec_double_to_float_rounds_and_double_to_int_saturates),
        T(test_exec_narrow_integer_casts_truncate),
        T(test_exec_grid_stride_loop_covers_every_element),
        T(test_exec_partial_last_block_is_bounds_checked),
        T(test_exec_odd_block_size_makes_partial_warp),
        T(test_exec_transpose_2d_grid_with_ragged_edges),
        T(test_exec_dynamic_shared_memory_sized_at_launch),
        T(test_exec_dynamic_shared_memory_too_small_faults_out_of_bounds),
        T(test_exec_loop_with_per_lane_trip_count),
        T(test_exec_divergent_switch_with_nested_loops),
        T(test_exec_noinline_function_call_with_params_and_return),
        T(test_exec_printf_from_a_few_threads_in_order),
        T(test_exec_bit_operations),
        T(test_exec_min_max_abs_including_int_min_and_nan),
        T(test_exec_float_add_mul_fma_sqrt_div_are_ieee_exact),
        T(test_exec_double_math_is_ieee_exact),
        T(test_exec_float_compare_is_unordered_with_nan),
        T(test_exec_out_of_bounds_store_faults_with_thread_and_line),
        T(test_exec_syncthreads_in_divergent_branch_reports_barrier_fault),
        T(test_exec_infinite_loop_stops_at_instruction_budget),
        T(test_exec_launch_after_fault_runs_cleanly),
#undef T
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
