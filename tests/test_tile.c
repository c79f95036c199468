/* test_tile.c: the tile header (lessons/include/tile.cuh) against plain-C
 * references.  The kernels of tests/kernels/tiles.cu run in the simulator
 * (or on a GPU with WARPSIM_BACKEND=gpu) and every output element is compared
 * bit for bit with what the header's documented semantics give: partial
 * tiles, every pad value, negative and out-of-range gather indices, masked
 * scatter, broadcasting with scalars, reductions of NaN and -0, matmul, and
 * every tile atomic under the atomic-order policies.  Run from the
 * repository root. */
#include "harness.h"

#include <limits.h>
#include <math.h>
#include <unistd.h>

#include "trace.h"

#define ARGS(...) ((void *[]){__VA_ARGS__})
#define KTHREADS 128

static DeviceModule *tiles(void) { return load_file("tests/kernels/tiles.ptx"); }

static uint64_t rng;
static void seed(uint64_t s) { rng = s * 0x9e3779b97f4a7c15ull + 1; }
static uint32_t rnd(void)
{
    rng ^= rng >> 12;
    rng ^= rng << 25;
    rng ^= rng >> 27;
    return (uint32_t)((rng * 0x2545f4914f6cdd1dull) >> 32);
}
static float rndf(void) { return (float)((int)(rnd() % 20001) - 10000) / 64.0f; }

static uint32_t fbits(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}
static float bitsf(uint32_t u)
{
    float f;
    memcpy(&f, &u, 4);
    return f;
}

/* Launch with the tile block size; order/seed pick the atomic order. */
static void launch_ord(DeviceModule *m, const char *k, unsigned gx, unsigned gy, int order, uint64_t sd, void **args)
{
    SimError err;
    DeviceFault fault;
    memset(&err, 0, sizeof err);
    const char *entry = device_find_kernel(m, k, &err);
    if (!entry)
        fail_msg("find %s: %s", k, err.msg);
    DeviceLaunch cfg = {.grid = {gx, gy, 1}, .block = {KTHREADS, 1, 1}, .atomic_order = order, .seed = sd};
    SimStatus st = device_launch(m, entry, &cfg, args, NULL, &fault, &err);
    if (st == SIM_ERR_FAULT)
        fail_msg("%s faulted: %s: %s (ptx line %d)", k, fault.kind, fault.msg, fault.ptx_line);
    if (st != SIM_OK)
        fail_msg("launch %s: %s", k, err.msg);
}
static void launch(DeviceModule *m, const char *k, unsigned gx, unsigned gy, void **args)
{
    launch_ord(m, k, gx, gy, DEVICE_ATOMIC_LANE, 0, args);
}

/* ---- the tile space: pads, partial tiles, dropped stores ------------------ */

enum { PAD_ZERO, PAD_NEG_ZERO, PAD_NAN, PAD_POS_INF, PAD_NEG_INF, PAD_COUNT };
static const uint32_t pad_f32[PAD_COUNT] = {0x0u, 0x80000000u, 0x7fffffffu, 0x7f800000u, 0xff800000u};
static const int pad_i32[PAD_COUNT] = {0, 0, 0, INT_MAX, INT_MIN};

static void test_tile_load_pads_partial_tile_with_every_value(void **s)
{
    (void)s;
    DeviceModule *m = tiles();
    enum { N = 150, G = 3 };
    float in[N];
    int ini[N];
    for (int i = 0; i < N; i++) {
        in[i] = (float)i - 0.5f;
        ini[i] = -i * 7;
    }
    DevicePtr din = up(in, sizeof in), dini = up(ini, sizeof ini);
    for (int pad = 0; pad < PAD_COUNT; pad++) {
        DevicePtr dout = up(NULL, G * 64 * 4), douti = up(NULL, G * 64 * 4);
        int n = N;
        launch(m, "pad_f32", G, 1, ARGS(&din, &dout, &n, &pad));
        launch(m, "pad_i32", G, 1, ARGS(&dini, &douti, &n, &pad));
        uint32_t out[G * 64];
        int outi[G * 64];
        down(out, dout, sizeof out);
        down(outi, douti, sizeof outi);
        for (int i = 0; i < G * 64; i++) {
            uint32_t want = i < N ? fbits(in[i]) : pad_f32[pad];
            if (out[i] != want)
                fail_msg("pad %d element %d: %08x, want %08x", pad, i, out[i], want);
            assert_int_equal(outi[i], i < N ? ini[i] : pad_i32[pad]);
        }
    }
}

static void test_tile_load_2d_pads_right_and_bottom_tiles(void **s)
{
    (void)s;
    DeviceModule *m = tiles();
    enum { R = 13, C = 20, GX = 2, GY = 2, OR = GY * 8, OC = GX * 16 };
    float in[R * C];
    for (int i = 0; i < R * C; i++)
        in[i] = (float)i * 0.25f;
    DevicePtr din = up(in, sizeof in);
    for (int pad = 0; pad < PAD_COUNT; pad++) {
        DevicePtr dout = up(NULL, OR * OC * 4);
        int r = R, c = C;
        launch(m, "pad_2d", GX, GY, ARGS(&din, &dout, &r, &c, &pad));
        uint32_t out[OR * OC];
        down(out, dout, sizeof out);
        for (int y = 0; y < OR; y++)
            for (int x = 0; x < OC; x++) {
                uint32_t want = y < R && x < C ? fbits(in[y * C + x]) : pad_f32[pad];
                if (out[y * OC + x] != want)
                    fail_msg("pad %d (%d,%d): %08x, want %08x", pad, y, x, out[y * OC + x], want);
            }
    }
}

/* The stores of the last, partial tile would fault past the end of out (the
 * simulator guards every allocation) if they were not dropped. */
static void test_tile_store_drops_elements_outside_the_array(void **s)
{
    (void)s;
    DeviceModule *m = tiles();
    static const int sizes[] = {1000, 768, 1, 255, 257};
    for (size_t k = 0; k < sizeof sizes / sizeof *sizes; k++) {
        int n = sizes[k];
        int *in = malloc((size_t)n * 4), *out = malloc((size_t)n * 4);
        for (int i = 0; i < n; i++)
            in[i] = i * 3 + 1;
        DevicePtr din = up(in, (size_t)n * 4), dout = up(NULL, (size_t)n * 4);
        launch(m, "copy_partial", 2, 1, ARGS(&din, &dout, &n));
        down(out, dout, (size_t)n * 4);
        assert_memory_equal(out, in, (size_t)n * 4);
        free(in);
        free(out);
    }
    enum { R = 37, C = 45 };
    float in2[R * C], out2[R * C];
    for (int i = 0; i < R * C; i++)
        in2[i] = (float)i;
    DevicePtr d2 = up(in2, sizeof in2), o2 = up(NULL, sizeof out2);
    int r = R, c = C;
    launch(m, "copy_partial_2d", 1, 1, ARGS(&d2, &o2, &r, &c));
    down(out2, o2, sizeof out2);
    assert_memory_equal(out2, in2, sizeof in2);
}

/* ---- gather and scatter ----------------------------------------------------- */

static void test_tile_gather_masks_and_pads_bad_indices(void **s)
{
    (void)s;
    DeviceModule *m = tiles();
    enum { N = 100, E = 256 };
    float in[N];
    for (int i = 0; i < N; i++)
        in[i] = (float)i + 0.125f;
    static const int bad[] = {-1, -2, -1000, INT_MIN, N, N + 1, 5000, INT_MAX};
    int idx[E], mask[E];
    seed(11);
    for (int e = 0; e < E; e++) {
        idx[e] = e % 5 == 0 ? bad[e / 5 % 8] : (int)(rnd() % N);
        mask[e] = e % 7 != 3;
    }
    DevicePtr din = up(in, sizeof in), di = up(idx, sizeof idx), dm = up(mask, sizeof mask);
    for (int pad = 0; pad < PAD_COUNT; pad++) {
        DevicePtr dout = up(NULL, E * 4);
        int n = N;
        launch(m, "gather_f32", 1, 1, ARGS(&din, &n, &di, &dm, &dout, &pad));
        uint32_t out[E];
        down(out, dout, sizeof out);
        for (int e = 0; e < E; e++) {
            bool ok = mask[e] && idx[e] >= 0 && idx[e] < N;
            uint32_t want = ok ? fbits(in[idx[e]]) : pad_f32[pad];
            if (out[e] != want)
                fail_msg("pad %d element %d (index %d mask %d): %08x want %08x", pad, e, idx[e], mask[e], out[e],
                         want);
        }
    }
    int ini[N], out[128];
    for (int i = 0; i < N; i++)
        ini[i] = 1000 + i;
    DevicePtr dini = up(ini, sizeof ini), dout = up(NULL, sizeof out);
    int n = N;
    launch(m, "gather_nomask", 1, 1, ARGS(&dini, &n, &di, &dout));
    down(out, dout, sizeof out);
    for (int e = 0; e < 128; e++)
        assert_int_equal(out[e], idx[e] >= 0 && idx[e] < N ? ini[idx[e]] : 0);
}

static void test_tile_scatter_writes_only_unmasked_in_range_elements(void **s)
{
    (void)s;
    DeviceModule *m = tiles();
    enum { N = 200, E = 256 };
    int idx[E], mask[E];
    float val[E], out[N], want[N];
    for (int e = 0; e < E; e++) { /* distinct indices: no two elements race */
        idx[e] = e < 240 ? (e * 37) % 240 - 20 : 1000 + e;
        mask[e] = e % 3 != 0;
        val[e] = (float)e * 1.5f;
    }
    for (int i = 0; i < N; i++)
        want[i] = -7.0f;
    for (int e = 0; e < E; e++)
        if (mask[e] && idx[e] >= 0 && idx[e] < N)
            want[idx[e]] = val[e];
    DevicePtr di = up(idx, sizeof idx), dm = up(mask, sizeof mask), dv = up(val, sizeof val);
    DevicePtr dout = up(want, sizeof want);
    for (int i = 0; i < N; i++)
        out[i] = -7.0f;
    SimError err;
    assert_int_equal(device_memcpy_htod(dev, dout, out, sizeof out, &err), SIM_OK);
    int n = N;
    launch(m, "scatter_f32", 1, 1, ARGS(&di, &dm, &dv, &dout, &n));
    down(out, dout, sizeof out);
    assert_memory_equal(out, want, sizeof want);
}

/* ---- element-wise operators and broadcasting ------------------------------ */

static int iop(int op, int x, int y)
{
    switch (op) {
    case 0: return (int)((unsigned)x + (unsigned)y);
    case 1: return (int)((unsigned)x - (unsigned)y);
    case 2: return (int)((unsigned)x * (unsigned)y);
    case 3: return x / y;
    case 4: return x % y;
    case 5: return x & y;
    case 6: return x | y;
    case 7: return x ^ y;
    case 8: return x < y;
    case 9: return x <= y;
    case 10: return x > y;
    case 11: return x >= y;
    case 12: return x == y;
    default: return x != y;
    }
}

static void test_tile_operators_with_tiles_and_scalars_on_either_side(void **s)
{
    (void)s;
    DeviceModule *m = tiles();
    int a[128], b[128], out[42 * 128];
    seed(3);
    for (int e = 0; e < 128; e++) {
        a[e] = (int)(rnd() % 2001) - 1000;
        b[e] = e % 9 == 0 ? a[e] : (int)(rnd() % 199) - 99;
        if (b[e] == 0)
            b[e] = 5;
    }
    int sc = -7;
    DevicePtr da = up(a, sizeof a), db = up(b, sizeof b), dout = up(NULL, sizeof out);
    launch(m, "int_ops", 1, 1, ARGS(&da, &db, &dout, &sc));
    down(out, dout, sizeof out);
    for (int op = 0; op < 14; op++)
        for (int e = 0; e < 128; e++) {
            int w[3] = {iop(op, a[e], b[e]), iop(op, a[e], sc), iop(op, sc, b[e])};
            for (int v = 0; v < 3; v++)
                if (out[(op * 3 + v) * 128 + e] != w[v])
                    fail_msg("op %d form %d element %d: %d, want %d", op, v, e, out[(op * 3 + v) * 128 + e], w[v]);
        }
}

static void test_tile_broadcasts_rows_columns_and_scalars(void **s)
{
    (void)s;
    DeviceModule *m = tiles();
    float a[8 * 16], row[16], col[8], out[48 * 16];
    seed(5);
    for (int i = 0; i < 8 * 16; i++)
        a[i] = rndf();
    a[3] = 0.0f;
    a[4] = bitsf(0x80000000u); /* s / -0 = -inf */
    for (int i = 0; i < 16; i++)
        row[i] = rndf();
    for (int i = 0; i < 8; i++)
        col[i] = rndf();
    float sc = 2.5f;
    DevicePtr da = up(a, sizeof a), dr = up(row, sizeof row), dc = up(col, sizeof col), dout = up(NULL, sizeof out);
    launch(m, "broadcast_f32", 1, 1, ARGS(&da, &dr, &dc, &dout, &sc));
    down(out, dout, sizeof out);
    for (int y = 0; y < 8; y++)
        for (int x = 0; x < 16; x++) {
            float v = a[y * 16 + x], r = row[x], c = col[y];
            float want[6] = {
                v + r,
                fmaf(v, c, -sc),            /* ptxas fuses this mul and sub into an FMA; the
                                               inputs (multiples of 1/64) make v * c exact,
                                               so fused and unfused agree (warpsim does not
                                               fuse yet: traces/hw/tiles-h100.txt) */
                fmaf(r, c, sc / v),         /* nvcc wrote fma.rn itself */
                v > sc ? v : c,
                r < c ? sc : v,
                ((float)(x * 2) + 0.5f) - c,
            };
            for (int k = 0; k < 6; k++) {
                uint32_t got = fbits(out[(k * 8 + y) * 16 + x]);
                if (got != fbits(want[k]))
                    fail_msg("row %d (%d,%d): %08x, want %08x", k, y, x, got, fbits(want[k]));
            }
        }
}

/* ---- reductions ------------------------------------------------------------- */

static float fmax2(float a, float b)
{
    if (isnan(a) || isnan(b))
        return bitsf(0x7fffffffu);
    if (a == b)
        return signbit(a) ? b : a;
    return a > b ? a : b;
}
static float fmin2(float a, float b)
{
    if (isnan(a) || isnan(b))
        return bitsf(0x7fffffffu);
    if (a == b)
        return signbit(a) ? a : b;
    return a < b ? a : b;
}
static float fsum2(float a, float b)
{
    float r = a + b;
    return isnan(r) ? bitsf(0x7fffffffu) : r; /* the GPU's add gives the canonical NaN */
}

/* The header's order: per thread its slots in order, a butterfly per warp,
 * then the 4 warps' lane 0 in order. */
static float ref_reduce(const float *v, int size, float ident, float (*f)(float, float))
{
    float acc[KTHREADS];
    for (int t = 0; t < KTHREADS; t++) {
        acc[t] = ident;
        for (int e = t; e < size; e += KTHREADS)
            acc[t] = f(acc[t], v[e]);
    }
    for (int d = 16; d > 0; d /= 2) {
        float nx[KTHREADS];
        for (int t = 0; t < KTHREADS; t++)
            nx[t] = f(acc[t], acc[t ^ d]);
        memcpy(acc, nx, sizeof acc);
    }
    float r = acc[0];
    for (int w = 1; w < KTHREADS / 32; w++)
        r = f(r, acc[w * 32]);
    return r;
}

static void check_reduce(DeviceModule *m, const float *in, int n)
{
    float tile[512];
    DevicePtr din = up(in, (size_t)n * 4), dout = up(NULL, 12);
    launch(m, "reduce_f32", 1, 1, ARGS(&din, &n, &dout));
    float out[3];
    down(out, dout, sizeof out);
    for (int e = 0; e < 512; e++)
        tile[e] = e < n ? in[e] : bitsf(0x80000000u);
    float ws = ref_reduce(tile, 512, bitsf(0x80000000u), fsum2);
    for (int e = n; e < 512; e++)
        tile[e] = -INFINITY;
    float wmax = ref_reduce(tile, 512, -INFINITY, fmax2);
    for (int e = n; e < 512; e++)
        tile[e] = INFINITY;
    float wmin = ref_reduce(tile, 512, INFINITY, fmin2);
    if (fbits(out[0]) != fbits(ws) || fbits(out[1]) != fbits(wmax) || fbits(out[2]) != fbits(wmin))
        fail_msg("n %d: sum %08x max %08x min %08x, want %08x %08x %08x", n, fbits(out[0]), fbits(out[1]),
                 fbits(out[2]), fbits(ws), fbits(wmax), fbits(wmin));
}

static void test_tile_reductions_of_partial_tiles_nan_and_negative_zero(void **s)
{
    (void)s;
    DeviceModule *m = tiles();
    float in[512];
    seed(9);
    for (int i = 0; i < 512; i++)
        in[i] = rndf() * 1.0001f;
    check_reduce(m, in, 300);
    check_reduce(m, in, 512);
    check_reduce(m, in, 1);
    /* only -0: the sum stays -0, max and min are -0 */
    for (int i = 0; i < 512; i++)
        in[i] = bitsf(0x80000000u);
    check_reduce(m, in, 200);
    DevicePtr d0 = up(in, 200 * 4), o0 = up(NULL, 12);
    int n = 200;
    launch(m, "reduce_f32", 1, 1, ARGS(&d0, &n, &o0));
    uint32_t o[3];
    down(o, o0, sizeof o);
    assert_int_equal(o[0], 0x80000000u);
    assert_int_equal(o[1], 0x80000000u);
    assert_int_equal(o[2], 0x80000000u);
    /* +0 and -0 mixed: max +0, min -0 */
    in[17] = 0.0f;
    check_reduce(m, in, 200);
    /* one NaN: every result NaN */
    seed(10);
    for (int i = 0; i < 512; i++)
        in[i] = rndf();
    in[77] = bitsf(0x7fc00000u);
    check_reduce(m, in, 300);
    DevicePtr d1 = up(in, 300 * 4), o1 = up(NULL, 12);
    n = 300;
    launch(m, "reduce_f32", 1, 1, ARGS(&d1, &n, &o1));
    float f[3];
    down(f, o1, sizeof f);
    assert_true(isnan(f[0]) && isnan(f[1]) && isnan(f[2]));
}

static void test_tile_integer_reductions_agree_in_every_thread(void **s)
{
    (void)s;
    DeviceModule *m = tiles();
    int in[128], out[3 * KTHREADS];
    seed(12);
    int ws = 0, wmax = INT_MIN, wmin = INT_MAX;
    for (int i = 0; i < 128; i++) {
        in[i] = (int)(rnd() % 100001) - 50000;
        ws += in[i];
        wmax = in[i] > wmax ? in[i] : wmax;
        wmin = in[i] < wmin ? in[i] : wmin;
    }
    DevicePtr din = up(in, sizeof in), dout = up(NULL, sizeof out);
    launch(m, "reduce_i32", 1, 1, ARGS(&din, &dout));
    down(out, dout, sizeof out);
    for (int t = 0; t < KTHREADS; t++) {
        assert_int_equal(out[3 * t], ws);
        assert_int_equal(out[3 * t + 1], wmax);
        assert_int_equal(out[3 * t + 2], wmin);
    }
}

/* ---- matmul ------------------------------------------------------------------ */

static void test_tile_matmul_matches_the_fma_chain(void **s)
{
    (void)s;
    DeviceModule *m = tiles();
    float a[16 * 8], b[8 * 32], c[16 * 32];
    seed(13);
    for (int i = 0; i < 16 * 8; i++)
        a[i] = rndf();
    for (int i = 0; i < 8 * 32; i++)
        b[i] = rndf() / 3.0f;
    DevicePtr da = up(a, sizeof a), db = up(b, sizeof b), dc = up(NULL, sizeof c);
    launch(m, "matmul_f32", 1, 1, ARGS(&da, &db, &dc));
    down(c, dc, sizeof c);
    for (int r = 0; r < 16; r++)
        for (int col = 0; col < 32; col++) {
            float acc = 0.0f;
            for (int q = 0; q < 8; q++)
                acc = fmaf(a[r * 8 + q], b[q * 32 + col], acc);
            if (fbits(acc) != fbits(c[r * 32 + col]))
                fail_msg("(%d,%d): %a, want %a", r, col, (double)c[r * 32 + col], (double)acc);
        }
    int ai[16], bi[8], ci[8];
    for (int i = 0; i < 16; i++)
        ai[i] = i - 5;
    for (int i = 0; i < 8; i++)
        bi[i] = 3 * i - 11;
    DevicePtr dai = up(ai, sizeof ai), dbi = up(bi, sizeof bi), dci = up(NULL, sizeof ci);
    launch(m, "matmul_i32", 1, 1, ARGS(&dai, &dbi, &dci));
    down(ci, dci, sizeof ci);
    for (int r = 0; r < 4; r++)
        for (int col = 0; col < 2; col++) {
            int acc = 0;
            for (int q = 0; q < 4; q++)
                acc += ai[r * 4 + q] * bi[q * 2 + col];
            assert_int_equal(ci[r * 2 + col], acc);
        }
}

/* ---- tile atomics ------------------------------------------------------------ */

static int aop(int op, int old, int v, int cmp)
{
    switch (op) {
    case 0: return (int)((unsigned)old + (unsigned)v);
    case 1: return v > old ? v : old;
    case 2: return v < old ? v : old;
    case 3: return old & v;
    case 4: return old | v;
    case 5: return old ^ v;
    case 6: return v;
    default: return old == cmp ? v : old;
    }
}

/* Distinct indices (some outside the array): every element's old value and
 * the final array are known exactly, for every op, order and scope. */
static void test_tile_atomics_every_op_order_and_scope(void **s)
{
    (void)s;
    DeviceModule *m = tiles();
    enum { N = 300, E = 256 };
    int idx[E], val[E], cmp[E], init[N];
    seed(14);
    for (int i = 0; i < N; i++)
        init[i] = (int)(rnd() % 2001) - 1000;
    for (int e = 0; e < E; e++) {
        idx[e] = e % 17 == 5 ? (e % 2 ? -3 - e : N + e) : (e * 7 + 3) % N;
        val[e] = (int)(rnd() % 2001) - 1000;
        cmp[e] = e % 2 ? init[idx[e] >= 0 && idx[e] < N ? idx[e] : 0] : 12345;
    }
    DevicePtr di = up(idx, sizeof idx), dv = up(val, sizeof val), dcmp = up(cmp, sizeof cmp);
    for (int op = 0; op < 8; op++)
        for (int order = 0; order < 4; order++)
            for (int scope = 0; scope < 3; scope++) {
                if (op != 0 && (order + scope) % 3 != 0) /* every op sees each order and each scope */
                    continue;
                DevicePtr dd = up(init, sizeof init), dold = up(NULL, E * 4);
                int n = N;
                launch_ord(m, "atomic_i32", 1, 1, DEVICE_ATOMIC_RANDOM, (uint64_t)(op * 12 + order * 3 + scope),
                           ARGS(&dd, &n, &di, &dv, &dcmp, &dold, &op, &order, &scope));
                int data[N], old[E], want[N];
                down(data, dd, sizeof data);
                down(old, dold, sizeof old);
                memcpy(want, init, sizeof want);
                for (int e = 0; e < E; e++) {
                    bool in = idx[e] >= 0 && idx[e] < N;
                    if (old[e] != (in ? init[idx[e]] : 0))
                        fail_msg("op %d order %d scope %d element %d: old %d, want %d", op, order, scope, e, old[e],
                                 in ? init[idx[e]] : 0);
                    if (in)
                        want[idx[e]] = aop(op, init[idx[e]], val[e], cmp[e]);
                }
                for (int i = 0; i < N; i++)
                    if (data[i] != want[i])
                        fail_msg("op %d order %d scope %d data[%d] = %d, want %d", op, order, scope, i, data[i],
                                 want[i]);
            }
}

/* Float atomics with distinct indices; 64-bit add and max. */
static void test_tile_atomics_float_and_64_bit(void **s)
{
    (void)s;
    DeviceModule *m = tiles();
    enum { N = 256 };
    int idx[N];
    float val[N], cmp[N], init[N];
    for (int e = 0; e < N; e++) {
        idx[e] = (e * 5 + 1) % N;
        val[e] = (float)e * 0.5f;
        init[e] = (float)e - 100.0f;
        cmp[e] = e % 2 ? 0.0f : init[idx[e]];
    }
    DevicePtr di = up(idx, sizeof idx), dv = up(val, sizeof val), dc = up(cmp, sizeof cmp);
    for (int op = 0; op < 3; op++) {
        DevicePtr dd = up(init, sizeof init), dold = up(NULL, sizeof init);
        int n = N;
        launch(m, "atomic_f32", 1, 1, ARGS(&dd, &n, &di, &dv, &dc, &dold, &op));
        float data[N], old[N];
        down(data, dd, sizeof data);
        down(old, dold, sizeof old);
        for (int e = 0; e < N; e++) {
            float o = init[idx[e]];
            assert_int_equal(fbits(old[e]), fbits(o));
            float w = op == 0 ? o + val[e] : op == 1 ? val[e] : (o == cmp[e] ? val[e] : o);
            assert_int_equal(fbits(data[idx[e]]), fbits(w));
        }
    }
    enum { M = 128 };
    int idx64[M];
    unsigned long long v64[M], d64[2 * M], o64[M];
    for (int e = 0; e < M; e++) {
        idx64[e] = e;
        v64[e] = 0x100000000ull * (unsigned)e + 7;
        d64[e] = 0xfffffffffull;
        d64[M + e] = 0x500000000ull;
    }
    DevicePtr dd = up(d64, sizeof d64), di64 = up(idx64, sizeof idx64), dv64 = up(v64, sizeof v64),
              dold = up(NULL, sizeof o64);
    int n = 2 * M;
    launch(m, "atomic_u64", 1, 1, ARGS(&dd, &n, &di64, &dv64, &dold));
    unsigned long long got[2 * M];
    down(got, dd, sizeof got);
    down(o64, dold, sizeof o64);
    for (int e = 0; e < M; e++) {
        assert_true(o64[e] == 0xfffffffffull);
        assert_true(got[e] == 0xfffffffffull + v64[e]);
        assert_true(got[M + e] == (v64[e] > 0x500000000ull ? v64[e] : 0x500000000ull));
    }
}

/* Integer add is associative and commutative: one result whatever the
 * order; float add is not: several results under random orders. */
static void test_tile_atomics_contention_integer_one_result_float_several(void **s)
{
    (void)s;
    SIM_ONLY_TEST();
    DeviceModule *m = tiles();
    static const int orders[] = {DEVICE_ATOMIC_LANE, DEVICE_ATOMIC_REVERSE, DEVICE_ATOMIC_RANDOM,
                                 DEVICE_ATOMIC_ADVERSARIAL};
    for (int o = 0; o < 4; o++)
        for (uint64_t sd = 0; sd < 4; sd++) {
            int zero = 0;
            DevicePtr slot = up(&zero, 4);
            launch_ord(m, "slot_sum_i32", 1, 1, orders[o], sd, ARGS(&slot));
            int got;
            down(&got, slot, 4);
            assert_int_equal(got, 63 * 64 / 2);
        }
    float in[64];
    for (int i = 0; i < 64; i++)
        in[i] = i % 4 == 0 ? 1.0e8f : i % 4 == 1 ? 3.0f : i % 4 == 2 ? -1.0e8f : 0.3f;
    DevicePtr din = up(in, sizeof in);
    uint32_t seen[32];
    int nseen = 0;
    for (uint64_t sd = 0; sd < 32; sd++) {
        float zero = 0.0f;
        DevicePtr slot = up(&zero, 4);
        launch_ord(m, "slot_sum_f32", 1, 1, DEVICE_ATOMIC_RANDOM, sd, ARGS(&din, &slot));
        float got;
        down(&got, slot, 4);
        bool dup = false;
        for (int k = 0; k < nseen; k++)
            dup |= seen[k] == fbits(got);
        if (!dup)
            seen[nseen++] = fbits(got);
    }
    if (nseen < 2)
        fail_msg("float tile atomic_add gave %d distinct sums over 32 random orders", nseen);
    /* under one policy and seed: one result (determinism) */
    float r[2];
    for (int k = 0; k < 2; k++) {
        float zero = 0.0f;
        DevicePtr slot = up(&zero, 4);
        launch_ord(m, "slot_sum_f32", 1, 1, DEVICE_ATOMIC_RANDOM, 99, ARGS(&din, &slot));
        down(&r[k], slot, 4);
    }
    assert_int_equal(fbits(r[0]), fbits(r[1]));
}

/* Across blocks: each block's partial sum, one device-scope atomic each. */
static void test_tile_block_sum_across_blocks(void **s)
{
    (void)s;
    DeviceModule *m = tiles();
    enum { N = 1000, G = 4 };
    int in[N], total = 0;
    seed(15);
    for (int i = 0; i < N; i++) {
        in[i] = (int)(rnd() % 201) - 100;
        total += in[i];
    }
    int zero = 0;
    DevicePtr din = up(in, sizeof in), dout = up(&zero, 4), dprev = up(NULL, G * 4);
    int n = N;
    launch(m, "block_sum_i32", G, 1, ARGS(&din, &dout, &dprev, &n));
    int got, prev[G];
    down(&got, dout, 4);
    down(prev, dprev, sizeof prev);
    assert_int_equal(got, total);
    /* the old values are the running totals in some block order: one is 0 and
     * each other is an earlier running total plus one block's partial */
    int partial[G];
    for (int b = 0; b < G; b++) {
        partial[b] = 0;
        for (int i = b * 256; i < N && i < b * 256 + 256; i++)
            partial[b] += in[i];
    }
    int zeros = 0;
    for (int b = 0; b < G; b++) {
        if (prev[b] == 0) {
            zeros++;
            continue;
        }
        bool found = false;
        for (int c = 0; c < G; c++)
            found |= c != b && prev[c] + partial[c] == prev[b];
        assert_true(found);
    }
    assert_true(zeros >= 1);
    float inf[N];
    double dt = 0;
    for (int i = 0; i < N; i++) {
        inf[i] = (float)in[i];
        dt += inf[i];
    }
    float fz = 0.0f, fgot;
    DevicePtr dinf = up(inf, sizeof inf), doutf = up(&fz, 4);
    launch(m, "block_sum_f32", G, 1, ARGS(&dinf, &doutf, &n));
    down(&fgot, doutf, 4);
    assert_true(fgot == (float)dt); /* small integers: exact in any order */
}

/* ---- hints ------------------------------------------------------------------- */

static void test_tile_hints_change_the_ptx_not_the_result(void **s)
{
    (void)s;
    DeviceModule *m = tiles();
    enum { N = 700 };
    float in[N], a[N], b[N];
    seed(16);
    for (int i = 0; i < N; i++)
        in[i] = rndf();
    DevicePtr din = up(in, sizeof in), da = up(NULL, sizeof a), db = up(NULL, sizeof b);
    int n = N;
    launch(m, "copy_hint_heavy", 3, 1, ARGS(&din, &da, &n));
    launch(m, "copy_hint_occupancy", 3, 1, ARGS(&din, &db, &n));
    down(a, da, sizeof a);
    down(b, db, sizeof b);
    assert_memory_equal(a, in, sizeof in);
    assert_memory_equal(b, in, sizeof in);
    /* and the PTX differs: streaming loads and stores, cached loads, a minimum
     * of 8 blocks per SM */
    char msg[256];
    size_t len;
    char *text = source_read_file("tests/kernels/tiles.ptx", &len, msg, sizeof msg);
    assert_non_null(text);
    char *heavy = strstr(text, ".entry copy_hint_heavy"), *occ = strstr(text, ".entry copy_hint_occupancy");
    assert_non_null(heavy);
    assert_non_null(occ);
    char *heavy_end = strstr(heavy, "\n}"), *occ_end = strstr(occ, "\n}");
    *heavy_end = *occ_end = 0;
    assert_non_null(strstr(heavy, "ld.global.cs.f32"));
    assert_non_null(strstr(heavy, "st.global.cs.f32"));
    assert_non_null(strstr(occ, ".minnctapersm 8"));
    assert_non_null(strstr(occ, "ld.global.ca.f32"));
    free(text);
}

/* ---- the simulator sees tiles: markers and trace records --------------------- */

/* Launch k with a trace at `level` into path (atomic order `order`). */
static void launch_traced(DeviceModule *m, const char *k, unsigned gx, unsigned gy, int order, const char *path,
                          void **args)
{
    SimError err;
    DeviceFault fault;
    const char *entry = device_find_kernel(m, k, &err);
    assert_non_null(entry);
    DeviceLaunch cfg = {.grid = {gx, gy, 1}, .block = {KTHREADS, 1, 1}, .atomic_order = order,
                        .trace_path = path, .trace_level = TRACE_LEVEL_BLOCKS};
    if (device_launch(m, entry, &cfg, args, NULL, &fault, &err) != SIM_OK)
        fail_msg("%s: %s %s", k, err.msg, fault.msg);
}

/* The tile records of a trace, in order (at most cap). */
static int tile_events(const char *path, TraceEvent *out, int cap, TraceReader **rd)
{
    SimError err;
    TraceReader *r = trace_open_file(path, &err);
    if (!r)
        fail_msg("%s: %s", path, err.msg);
    int n = 0;
    TraceEvent e;
    while (trace_next(r, &e))
        if (e.type == TRACE_EV_TILE && n < cap)
            out[n++] = e;
    *rd = r; /* events point into the reader: the caller closes it */
    return n;
}

static void test_tile_trace_records_2d_loads_and_stores_with_padding(void **s)
{
    (void)s;
    DeviceModule *m = tiles();
    enum { R = 13, C = 20 };
    float in[R * C] = {0};
    DevicePtr din = up(in, sizeof in), dout = up(NULL, 16 * 32 * 4);
    int r = R, c = C, pad = PAD_NAN;
    const char *path = "build/test_tile_2d.wst";
    launch_traced(m, "pad_2d", 2, 2, DEVICE_ATOMIC_LANE, path, ARGS(&din, &dout, &r, &c, &pad));
    TraceEvent ev[16];
    TraceReader *rd;
    int n = tile_events(path, ev, 16, &rd);
    assert_int_equal(n, 8); /* a load and a store in each of 4 blocks */
    int loads = 0;
    for (int k = 0; k < n; k++) {
        const __typeof__(ev[k].u.tile) *t = &ev[k].u.tile;
        assert_int_equal(t->rank, 2);
        assert_int_equal(t->dtype, 6); /* f32 */
        assert_int_equal(t->tm, 8);
        assert_int_equal(t->tn, 16);
        assert_int_equal(t->nelem, 128);
        unsigned bx = (unsigned)(ev[k].block % 2), by = (unsigned)(ev[k].block / 2);
        assert_int_equal(t->ti, (int)by);
        assert_int_equal(t->tj, (int)bx);
        if (t->op == TRACE_TILE_LOAD) {
            loads++;
            assert_int_equal(t->seq, 0);
            assert_int_equal(t->rows, R);
            assert_int_equal(t->cols, C);
            assert_int_equal(t->sub, PAD_NAN);
            unsigned inr = by ? R - 8 : 8, inc = bx ? C - 16 : 16;
            assert_int_equal(t->special, 128 - inr * inc);
        } else {
            assert_int_equal(t->op, TRACE_TILE_STORE);
            assert_int_equal(t->seq, 1);
            assert_int_equal(t->special, 0); /* the output array holds whole tiles */
        }
    }
    assert_int_equal(loads, 4);
    char line[256];
    trace_tile_summary(&ev[0], line, sizeof line);
    assert_non_null(strstr(line, "load f32 tile ("));
    assert_non_null(strstr(line, "of 8x16 from [13 x 20]"));
    trace_close(rd);
    unlink(path);
}

static void test_tile_trace_lists_masked_and_outside_gather_elements(void **s)
{
    (void)s;
    DeviceModule *m = tiles();
    enum { N = 100, E = 256 };
    float in[N] = {0};
    int idx[E], mask[E], bad = 0;
    for (int e = 0; e < E; e++) {
        idx[e] = e % 3 == 0 ? N + e : e % 3 == 1 ? -e - 1 : e % N;
        mask[e] = e % 4 != 0;
        bad += !mask[e] || idx[e] < 0 || idx[e] >= N;
    }
    DevicePtr din = up(in, sizeof in), di = up(idx, sizeof idx), dm = up(mask, sizeof mask), dout = up(NULL, E * 4);
    int n = N, pad = PAD_NEG_INF;
    const char *path = "build/test_tile_gather.wst";
    launch_traced(m, "gather_f32", 1, 1, DEVICE_ATOMIC_LANE, path, ARGS(&din, &n, &di, &dm, &dout, &pad));
    TraceEvent ev[8];
    TraceReader *rd;
    int k = tile_events(path, ev, 8, &rd);
    int g = -1;
    for (int i = 0; i < k; i++)
        if (ev[i].u.tile.op == TRACE_TILE_GATHER)
            g = i;
    assert_true(g >= 0);
    const __typeof__(ev[g].u.tile) *t = &ev[g].u.tile;
    assert_int_equal(t->nelem, E);
    assert_int_equal(t->cols, N);
    assert_int_equal(t->special, bad);
    assert_int_equal(t->sub, PAD_NEG_INF);
    assert_int_equal(t->nlisted, E);
    TraceTileElem el[E];
    assert_int_equal(trace_tile_elems(&ev[g], el, E), E);
    for (int e = 0; e < E; e++) {
        assert_int_equal(el[e].elem, e);
        assert_int_equal(el[e].index, idx[e]);
        int want = !mask[e] ? TRACE_TILE_ELEM_MASKED : idx[e] < 0 || idx[e] >= N ? TRACE_TILE_ELEM_OUTSIDE
                                                                                 : TRACE_TILE_ELEM_OK;
        assert_int_equal(el[e].state, want);
    }
    trace_close(rd);
    unlink(path);
}

/* Every element's update in the order applied: one chain of old -> new on
 * the one slot, lanes ascending under "lane" and descending under "reverse". */
static void test_tile_trace_atomic_updates_follow_the_atomic_order(void **s)
{
    (void)s;
    DeviceModule *m = tiles();
    const char *path = "build/test_tile_atom.wst";
    for (int pol = 0; pol < 2; pol++) {
        int zero = 0;
        DevicePtr slot = up(&zero, 4);
        launch_traced(m, "slot_sum_i32", 1, 1, pol ? DEVICE_ATOMIC_REVERSE : DEVICE_ATOMIC_LANE, path,
                      ARGS(&slot));
        TraceEvent ev[4];
        TraceReader *rd;
        assert_int_equal(tile_events(path, ev, 4, &rd), 1);
        const __typeof__(ev[0].u.tile) *t = &ev[0].u.tile;
        assert_int_equal(t->op, TRACE_TILE_ATOM);
        assert_int_equal(t->sub, TRACE_ATOM_ADD);
        assert_int_equal(t->order, 0); /* relaxed */
        assert_int_equal(t->scope, 0); /* block */
        assert_int_equal(t->nelem, 64);
        assert_int_equal(t->special, 0);
        assert_int_equal(t->nlisted, 64);
        TraceTileElem el[64];
        assert_int_equal(trace_tile_elems(&ev[0], el, 64), 64);
        uint64_t prev = 0;
        for (int k = 0; k < 64; k++) {
            assert_true(el[k].updated);
            assert_int_equal(el[k].index, 0);
            assert_int_equal(el[k].elem, el[k].thread); /* element e lives in thread e */
            assert_int_equal(el[k].old, prev);
            assert_int_equal(el[k].val, prev + el[k].elem); /* arange: element e adds e */
            prev = el[k].val;
            if (k % 32) { /* within one warp's instruction */
                int step = (int)el[k].thread - (int)el[k - 1].thread;
                assert_int_equal(step, pol ? -1 : 1);
            }
        }
        assert_int_equal(prev, 63 * 64 / 2);
        trace_close(rd);
    }
    unlink(path);
}

/* `warpsim trace dump` (trace_dump_text) prints a tile atomic's updates in order. */
static void test_tile_trace_dump_prints_tile_records(void **s)
{
    (void)s;
    DeviceModule *m = tiles();
    const char *path = "build/test_tile_dump.wst";
    int zero = 0;
    DevicePtr slot = up(&zero, 4);
    launch_traced(m, "slot_sum_i32", 1, 1, DEVICE_ATOMIC_LANE, path, ARGS(&slot));
    SimError err;
    TraceReader *r = trace_open_file(path, &err);
    assert_non_null(r);
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    assert_non_null(f);
    trace_dump_text(f, r);
    fclose(f);
    trace_close(r);
    const char *want[] = {"warpsim trace v2: slot_sum_i32", "  tile        #0 atom.add s32, 64 elements on [1]",
                          "(relaxed, block scope): 64 updates, 0 skipped",
                          "1. element 0 [0] thread 0: 0x0 -> 0x0", "2. element 1 [0] thread 1: 0x0 -> 0x1",
                          "64. element 63 [0] thread 63: 0x7a1 -> 0x7e0"};
    for (size_t k = 0; k < sizeof want / sizeof *want; k++)
        if (!strstr(text, want[k]))
            fail_msg("the dump lacks \"%s\":\n%s", want[k], text);
    free(text);
    unlink(path);
}

/* Markers are comments to ptxas and free in the simulator: the same counts
 * and cycles as the PTX with every marker removed. */
static void test_tile_markers_cost_no_instructions_or_cycles(void **s)
{
    (void)s;
    char msg[256];
    size_t len;
    char *text = source_read_file("tests/kernels/tiles.ptx", &len, msg, sizeof msg);
    assert_non_null(text);
    int markers = 0;
    for (char *p = strstr(text, "//@ tile."); p; p = strstr(p + 1, "//@ tile.")) {
        p[2] = ' '; /* "// tile.": an ordinary comment */
        markers++;
    }
    assert_true(markers > 100);
    DeviceModule *plain = load_text("plain.ptx", text);
    free(text);
    DeviceModule *marked = tiles();
    enum { N = 1000 };
    int in[N];
    for (int i = 0; i < N; i++)
        in[i] = i;
    DeviceStats st[2];
    for (int k = 0; k < 2; k++) {
        DevicePtr din = up(in, sizeof in), dout = up(NULL, sizeof in), dprev = up(NULL, 16);
        int n = N;
        SimError err;
        DeviceModule *mm = k ? plain : marked;
        DeviceLaunch cfg = {.grid = {4, 1, 1}, .block = {KTHREADS, 1, 1}};
        assert_int_equal(device_launch(mm, device_find_kernel(mm, "block_sum_i32", &err), &cfg,
                                       ARGS(&din, &dout, &dprev, &n), &st[k], NULL, &err), SIM_OK);
    }
    assert_int_equal(st[0].warp_insts, st[1].warp_insts);
    assert_int_equal(st[0].thread_insts, st[1].thread_insts);
    assert_int_equal(st[0].cycles, st[1].cycles);
}

static void test_tile_bad_marker_is_a_parse_error_at_its_line(void **s)
{
    (void)s;
    static const char *bad[][2] = {
        {"//@ tile.load %rd1;", "tile marker tile.load: expected 8 operands, found 1"},
        {"//@ tile.frob;", "tile marker: unknown operation 'frob'"},
        {"//@ tile.reduce %r1, 1, 2;", "tile marker tile.reduce: operand 1 must be an integer constant"},
        {"//@ tile.elem %rd1, 1, [%rd1];", "operand 3 must be a register or an integer constant"},
    };
    for (size_t k = 0; k < sizeof bad / sizeof *bad; k++) {
        char text[512];
        snprintf(text, sizeof text,
                 ".version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n"
                 "\t.reg .b32 %%r<2>;\n\t.reg .b64 %%rd<2>;\n\t%s\n\tret;\n}\n", bad[k][0]);
        DeviceModule *mod = NULL;
        SimError err;
        assert_int_not_equal(device_load_ptx(dev, "bad.ptx", text, strlen(text), &mod, &err), SIM_OK);
        assert_int_equal(err.status, SIM_ERR_PARSE);
        assert_int_equal(err.line, 8);
        if (!strstr(err.msg, bad[k][1]))
            fail_msg("%s: got '%s'", bad[k][0], err.msg);
    }
    /* any other //@ comment stays a comment */
    const char *ok = ".version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n"
                     "\t//@ not a marker\n\t//@ tiles, tile-less text\n\tret;\n}\n";
    DeviceModule *mod = NULL;
    SimError err;
    assert_int_equal(device_load_ptx(dev, "ok.ptx", ok, strlen(ok), &mod, &err), SIM_OK);
}

#define T(f) cmocka_unit_test_setup_teardown(f, harness_setup, harness_teardown)
#define TS(f) cmocka_unit_test_setup_teardown(f, harness_setup_sim, harness_teardown)

int main(void)
{
    const struct CMUnitTest tests[] = {
        T(test_tile_load_pads_partial_tile_with_every_value),
        T(test_tile_load_2d_pads_right_and_bottom_tiles),
        T(test_tile_store_drops_elements_outside_the_array),
        T(test_tile_gather_masks_and_pads_bad_indices),
        T(test_tile_scatter_writes_only_unmasked_in_range_elements),
        T(test_tile_operators_with_tiles_and_scalars_on_either_side),
        T(test_tile_broadcasts_rows_columns_and_scalars),
        T(test_tile_reductions_of_partial_tiles_nan_and_negative_zero),
        T(test_tile_integer_reductions_agree_in_every_thread),
        T(test_tile_matmul_matches_the_fma_chain),
        T(test_tile_atomics_every_op_order_and_scope),
        T(test_tile_atomics_float_and_64_bit),
        T(test_tile_atomics_contention_integer_one_result_float_several),
        T(test_tile_block_sum_across_blocks),
        T(test_tile_hints_change_the_ptx_not_the_result),
        TS(test_tile_trace_records_2d_loads_and_stores_with_padding),
        TS(test_tile_trace_lists_masked_and_outside_gather_elements),
        TS(test_tile_trace_atomic_updates_follow_the_atomic_order),
        TS(test_tile_trace_dump_prints_tile_records),
        TS(test_tile_markers_cost_no_instructions_or_cycles),
        TS(test_tile_bad_marker_is_a_parse_error_at_its_line),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
