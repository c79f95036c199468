// tiles.cu: kernels that exercise every operation of lessons/include/tile.cuh,
// one tile kernel per group; tests/test_tile.c runs them and compares every
// element with a plain-C reference.  All are launched with --grid only: the
// block size comes from __launch_bounds__(tile::kThreads).
#include "../../lessons/include/tile.cuh"

using namespace tile;

#define TILE_KERNEL extern "C" __global__ void __launch_bounds__(kThreads)

// Tile bid(0) of a 1-D array of n floats, padded with pad, written whole into
// tile bid(0) of out (grid * 64 elements): the pad values show.
TILE_KERNEL pad_f32(const float *__restrict__ in, float *__restrict__ out, int n, int pad)
{
    auto t = load<64>(array(in, n), bid(0), (Pad)pad);
    store(array(out, num_blocks(0) * 64), bid(0), t);
}
TILE_KERNEL pad_i32(const int *__restrict__ in, int *__restrict__ out, int n, int pad)
{
    auto t = load<64>(array(in, n), bid(0), (Pad)pad);
    store(array(out, num_blocks(0) * 64), bid(0), t);
}
// A 2-D tile space: tile (bid(1), bid(0)) of 8 x 16 from rows x cols, padded,
// written whole into a (grid.y * 8) x (grid.x * 16) array.
TILE_KERNEL pad_2d(const float *__restrict__ in, float *__restrict__ out, int rows, int cols, int pad)
{
    auto t = load<8, 16>(array(in, rows, cols), bid(1), bid(0), (Pad)pad);
    store(array(out, num_blocks(1) * 8, num_blocks(0) * 16), bid(1), bid(0), t);
}
// Copy through tiles of 256 (2 elements a thread): the last tile's store
// drops what falls outside the n elements of out.
TILE_KERNEL copy_partial(const int *__restrict__ in, int *__restrict__ out, int n)
{
    for (int i = bid(0); i < num_tiles<256>(array(in, n)); i += num_blocks(0))
        store(array(out, n), i, load<256>(array(in, n), i));
}
// The same over a 2-D array: the right and bottom tiles are partial.
TILE_KERNEL copy_partial_2d(const float *__restrict__ in, float *__restrict__ out, int rows, int cols)
{
    auto a = array(in, rows, cols);
    auto b = array(out, rows, cols);
    for (int i = 0; i < num_tiles<16, 32>(a, 0); i++)
        for (int j = 0; j < num_tiles<16, 32>(a, 1); j++)
            store(b, i, j, load<16, 32>(a, i, j, Pad::nan));
}

// gather with a mask and a pad; idx and mask hold 256 entries.
TILE_KERNEL gather_f32(const float *__restrict__ in, int n, const int *__restrict__ idx,
                       const int *__restrict__ mask, float *__restrict__ out, int pad)
{
    auto it = load<256>(array(idx, 256), 0);
    auto mt = load<256>(array(mask, 256), 0) != 0;
    store(array(out, 256), 0, gather(array(in, n), it, mt, (Pad)pad));
}
// gather without a mask (out-of-range indices take the zero pad).
TILE_KERNEL gather_nomask(const int *__restrict__ in, int n, const int *__restrict__ idx, int *__restrict__ out)
{
    store(array(out, 128), 0, gather(array(in, n), load<128>(array(idx, 128), 0)));
}
// scatter value[e] to out[idx[e]] where mask[e] != 0.
TILE_KERNEL scatter_f32(const int *__restrict__ idx, const int *__restrict__ mask, const float *__restrict__ val,
                        float *__restrict__ out, int n)
{
    auto it = load<256>(array(idx, 256), 0);
    auto mt = load<256>(array(mask, 256), 0) != 0;
    scatter(array(out, n), it, load<256>(array(val, 256), 0), mt);
}

// Every operator on 128-element int tiles, tile with tile and with the scalar
// s on either side: out holds 3 x 14 rows of 128.
TILE_KERNEL int_ops(const int *__restrict__ a, const int *__restrict__ b, int *__restrict__ out, int s)
{
    auto x = load<128>(array(a, 128), 0);
    auto y = load<128>(array(b, 128), 0);
    auto o = array(out, 42 * 128);
    int r = 0;
#define ROW3(OP)                                                                \
    store(o, r++, astype<int>(x OP y));                                         \
    store(o, r++, astype<int>(x OP s));                                         \
    store(o, r++, astype<int>(s OP y));
    ROW3(+) ROW3(-) ROW3(*) ROW3(/) ROW3(%) ROW3(&) ROW3(|) ROW3(^)
    ROW3(<) ROW3(<=) ROW3(>) ROW3(>=) ROW3(==) ROW3(!=)
#undef ROW3
}
// Broadcasting on floats: a (8 x 16) with a row (16), a column (8 x 1) and a
// scalar; where() mixing all three; arange, full and astype.  out: 6 x 128.
TILE_KERNEL broadcast_f32(const float *__restrict__ a, const float *__restrict__ row, const float *__restrict__ col,
                          float *__restrict__ out, float s)
{
    auto x = load<8, 16>(array(a, 8, 16), 0, 0);
    auto r = load<16>(array(row, 16), 0);
    auto c = load<8, 1>(array(col, 8, 1), 0, 0);
    auto o = array(out, 48, 16);
    store(o, 0, 0, x + r);
    store(o, 1, 0, x * c - s);
    store(o, 2, 0, s / x + r * c);
    store(o, 3, 0, where(x > s, x, c));
    store(o, 4, 0, where(r < c, s, x));
    store(o, 5, 0, astype<float>(arange<16>() * 2) + full<8, 1>(0.5f) - c);
}

// Reductions of in[0, n) as a tile of 512: the pads that leave each result
// alone (sum: -0, max: -inf, min: +inf).  out: sum, max, min of floats.
TILE_KERNEL reduce_f32(const float *__restrict__ in, int n, float *__restrict__ out)
{
    auto a = array(in, n);
    float s = sum(load<512>(a, 0, Pad::neg_zero));
    float hi = reduce_max(load<512>(a, 0, Pad::neg_inf));
    float lo = reduce_min(load<512>(a, 0, Pad::pos_inf));
    if (threadIdx.x == 0) {
        out[0] = s;
        out[1] = hi;
        out[2] = lo;
    }
}
// Integer reductions of an 8 x 16 tile; every thread writes its value to
// out[3 * tid ...] so the test sees that all threads agree.
TILE_KERNEL reduce_i32(const int *__restrict__ in, int *__restrict__ out)
{
    auto t = load<8, 16>(array(in, 8, 16), 0, 0);
    int s = sum(t), hi = reduce_max(t), lo = reduce_min(t);
    out[3 * threadIdx.x] = s;
    out[3 * threadIdx.x + 1] = hi;
    out[3 * threadIdx.x + 2] = lo;
}

// matmul: (16 x 8) x (8 x 32) floats, and (4 x 4) x (4 x 2) ints.
TILE_KERNEL matmul_f32(const float *__restrict__ a, const float *__restrict__ b, float *__restrict__ c)
{
    auto x = load<16, 8>(array(a, 16, 8), 0, 0);
    auto y = load<8, 32>(array(b, 8, 32), 0, 0);
    store(array(c, 16, 32), 0, 0, matmul(x, y));
}
TILE_KERNEL matmul_i32(const int *__restrict__ a, const int *__restrict__ b, int *__restrict__ c)
{
    store(array(c, 4, 2), 0, 0, matmul(load<4, 4>(array(a, 4, 4), 0, 0), load<4, 2>(array(b, 4, 2), 0, 0)));
}

// One tile atomic of 256 elements on data[0, n): op 0 add, 1 max, 2 min,
// 3 and, 4 or, 5 xor, 6 xchg, 7 cas (expected cmp[e], desired val[e]); the
// old values land in old.
TILE_KERNEL atomic_i32(int *data, int n, const int *__restrict__ idx, const int *__restrict__ val,
                       const int *__restrict__ cmp, int *__restrict__ old, int op, int order, int scope)
{
    auto d = array(data, n);
    auto it = load<256>(array(idx, 256), 0);
    auto vt = load<256>(array(val, 256), 0);
    Order o = (Order)order;
    Scope sc = (Scope)scope;
    Tile<int, 256> r;
    switch (op) {
    case 0: r = atomic_add(d, it, vt, o, sc); break;
    case 1: r = atomic_max(d, it, vt, o, sc); break;
    case 2: r = atomic_min(d, it, vt, o, sc); break;
    case 3: r = atomic_and(d, it, vt, o, sc); break;
    case 4: r = atomic_or(d, it, vt, o, sc); break;
    case 5: r = atomic_xor(d, it, vt, o, sc); break;
    case 6: r = atomic_xchg(d, it, vt, o, sc); break;
    default: r = atomic_cas(d, it, load<256>(array(cmp, 256), 0), vt, o, sc); break;
    }
    store(array(old, 256), 0, r);
}
// Float tile atomics: op 0 add, 1 xchg, 2 cas.
TILE_KERNEL atomic_f32(float *data, int n, const int *__restrict__ idx, const float *__restrict__ val,
                       const float *__restrict__ cmp, float *__restrict__ old, int op)
{
    auto d = array(data, n);
    auto it = load<256>(array(idx, 256), 0);
    auto vt = load<256>(array(val, 256), 0);
    Tile<float, 256> r;
    if (op == 0)
        r = atomic_add(d, it, vt, Order::relaxed, Scope::block);
    else if (op == 1)
        r = atomic_xchg(d, it, vt);
    else
        r = atomic_cas(d, it, load<256>(array(cmp, 256), 0), vt);
    store(array(old, 256), 0, r);
}
// 64-bit tile atomics: add into data[0, 128), max into data[128, 256).
TILE_KERNEL atomic_u64(unsigned long long *data, int n, const int *__restrict__ idx,
                       const unsigned long long *__restrict__ val, unsigned long long *__restrict__ old)
{
    auto d = array(data, n);
    auto it = load<128>(array(idx, 128), 0);
    auto vt = load<128>(array(val, 128), 0);
    store(array(old, 128), 0, atomic_add(d, it, vt, Order::relaxed, Scope::device));
    atomic_max(d, it + 128, vt, Order::release, Scope::system);
}
// The study note's block_sum: each block sums its tile (partial last tile
// padded with 0) and adds the partial sum into out[0] with a device-scope
// atomic; every thread of the block gets the old value (prev[bid]).
TILE_KERNEL block_sum_i32(const int *__restrict__ in, int *__restrict__ out, int *__restrict__ prev, int n)
{
    int partial = sum(load<256>(array(in, n), bid(0)));
    int before = atomic_add(array(out, 1), 0, partial, Order::relaxed, Scope::device);
    if (threadIdx.x == kThreads - 1)
        prev[bid(0)] = before;
}
TILE_KERNEL block_sum_f32(const float *__restrict__ in, float *__restrict__ out, int n)
{
    atomic_add(array(out, 1), 0, sum(load<256>(array(in, n), bid(0))), Order::relaxed, Scope::device);
}
// Intra-block contention (the study note's iota example): every element of
// arange<64>() (ints) or in[0, 64) (floats) into one slot, block scope.
TILE_KERNEL slot_sum_i32(int *slot)
{
    atomic_add(array(slot, 1), full<64>(0), arange<64>(), Order::relaxed, Scope::block);
}
TILE_KERNEL slot_sum_f32(const float *__restrict__ in, float *slot)
{
    atomic_add(array(slot, 1), full<64>(0), load<64>(array(in, 64), 0), Order::relaxed, Scope::block);
}

// Hints: the same copy with a heavy-latency hint (streaming loads and
// stores), a light one for sm_90 only, and an occupancy hint.
TILE_KERNEL copy_hint_heavy(const float *__restrict__ in, float *__restrict__ out, int n)
{
    store(array(out, n), bid(0), load<256>(array(in, n), bid(0), Pad::zero, latency<9>{}), latency<9>{});
}
extern "C" __global__ void TILE_OCCUPANCY(900, 8) copy_hint_occupancy(const float *__restrict__ in,
                                                                      float *__restrict__ out, int n)
{
    store(array(out, n), bid(0), load<256>(array(in, n), bid(0), Pad::zero, latency<1, 900>{}));
}
