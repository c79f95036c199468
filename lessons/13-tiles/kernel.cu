// Lesson 13: tile programming.
//
// A tile kernel is written for a whole block, not for one thread: it loads
// tiles -- immutable values with power-of-two shapes fixed at compile time --
// from arrays, computes on whole tiles and stores them back.  The header
// lessons/include/tile.cuh (namespace tile) maps every tile onto the
// tile::kThreads = 128 threads of the block; on the GPU it is ordinary SIMT
// code, so this file runs unchanged on both sides.  Every tile kernel is
// declared __launch_bounds__(tile::kThreads): `warpsim run` then needs only
// --grid.
#include "../include/tile.cuh"

#define TILE_KERNEL extern "C" __global__ void __launch_bounds__(tile::kThreads)

// 1. The same computation twice: y = a * x + y.
//    SIMT: one thread, one element; each thread finds its element and checks
//    it is inside the array.  Launch ceil(n / 256) blocks of 256.
extern "C" __global__ void saxpy_simt(const float *__restrict__ x, float *__restrict__ y, float a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = a * x[i] + y[i];
}
//    Tiles: one block, one tile of 256 elements -- tile bid(0) of the arrays'
//    tile spaces.  The last tile is partial: load pads what lies past the end
//    (with 0 here), store drops it.  Launch ceil(n / 256) blocks.
TILE_KERNEL saxpy_tile(const float *__restrict__ x, float *__restrict__ y, float a, int n)
{
    auto X = tile::array(x, n);
    auto Y = tile::array(y, n);
    int i = tile::bid(0);
    tile::store(Y, i, a * tile::load<256>(X, i) + tile::load<256>(Y, i));
}

// 2. A 2-D tile space and broadcasting.  B = A * s, row r of A scaled by
//    s[r]: tile (i, j) of A is 16 x 32, the matching piece of s a 16 x 1
//    column that broadcasts across the 32 columns.  The grid is the tile
//    space: grid (ceil(cols / 32), ceil(rows / 16)); the right and bottom
//    tiles are partial.
TILE_KERNEL scale_rows(const float *__restrict__ a, const float *__restrict__ s, float *__restrict__ b, int rows,
                       int cols)
{
    int i = tile::bid(1), j = tile::bid(0);
    auto t = tile::load<16, 32>(tile::array(a, rows, cols), i, j);
    auto col = tile::load<16, 1>(tile::array(s, rows, 1), i, 0);
    tile::store(tile::array(b, rows, cols), i, j, t * col);
}

// 3. Reductions.  One block per row of a rows x cols matrix (cols <= 1024):
//    the row's sum, maximum and mean deviation.  The pads matter: a missing
//    element must not change the result, so the sum pads with 0 and the
//    maximum with -infinity.  The results are the same in every thread.
TILE_KERNEL row_stats(const float *__restrict__ a, float *__restrict__ sum, float *__restrict__ max,
                      float *__restrict__ dev, int rows, int cols)
{
    auto A = tile::array(a, rows, cols);
    int r = tile::bid(0);
    float s = tile::sum(tile::load<1, 1024>(A, r, 0, tile::Pad::zero));
    float m = tile::reduce_max(tile::load<1, 1024>(A, r, 0, tile::Pad::neg_inf));
    auto t = tile::load<1, 1024>(A, r, 0);
    float mean = s / cols;
    // |x - mean| for the elements that exist; where() zeroes the padding
    auto inside = tile::arange<1024>() < cols;
    auto d = tile::where(inside, t - mean, 0.0f);
    float dv = tile::sum(tile::where(d < 0.0f, -d, d)) / cols;
    if (threadIdx.x == 0) {
        sum[r] = s;
        max[r] = m;
        dev[r] = dv;
    }
}

// 4. Tile atomics.  A tile atomic makes one atomic update per element: each
//    update is atomic, the call as a whole is not, and the order of the
//    elements' updates is unspecified (warpsim's --atomic-order picks one).
//
//    a. Intra-block contention: every element of a tile into one slot.  Only
//       this block touches it: block scope suffices.
TILE_KERNEL slot_sum_i32(const int *__restrict__ in, int *slot)
{
    tile::atomic_add(tile::array(slot, 1), tile::full<256>(0), tile::load<256>(tile::array(in, 256), 0),
                     tile::Order::relaxed, tile::Scope::block);
}
TILE_KERNEL slot_sum_f32(const float *__restrict__ in, float *slot)
{
    tile::atomic_add(tile::array(slot, 1), tile::full<256>(0), tile::load<256>(tile::array(in, 256), 0),
                     tile::Order::relaxed, tile::Scope::block);
}
//    b. Cross-block contention (the study notes' block_sum): each block sums
//       its tile with a reduction, then adds the partial sum into out[0] --
//       one atomic per block, device scope because other blocks add too.
TILE_KERNEL block_sum_i32(const int *__restrict__ in, int *out, int n)
{
    int partial = tile::sum(tile::load<256>(tile::array(in, n), tile::bid(0)));
    tile::atomic_add(tile::array(out, 1), 0, partial, tile::Order::relaxed, tile::Scope::device);
}
TILE_KERNEL block_sum_f32(const float *__restrict__ in, float *out, int n)
{
    float partial = tile::sum(tile::load<256>(tile::array(in, n), tile::bid(0)));
    tile::atomic_add(tile::array(out, 1), 0, partial, tile::Order::relaxed, tile::Scope::device);
}
//    c. A histogram: element e adds 1 to bin key[e].  Elements of the last
//       tile past n must not count: their index becomes -1, and a tile
//       atomic skips indices outside the array.
TILE_KERNEL histogram(const int *__restrict__ key, int *hist, int n, int nbins)
{
    int i = tile::bid(0);
    auto k = tile::load<256>(tile::array(key, n), i);
    auto inside = tile::arange<256>() + i * 256 < n;
    tile::atomic_add(tile::array(hist, nbins), tile::where(inside, k, -1), 1, tile::Order::relaxed,
                     tile::Scope::device);
}

// 5. A hint changes the generated code, never the result.  latency<9> says
//    the loads and stores move heavy DRAM traffic: tile.cuh makes them
//    streaming accesses (ld.global.cs / st.global.cs, evict first).  The
//    same copy without the hint is copy_plain.
TILE_KERNEL copy_plain(const float *__restrict__ in, float *__restrict__ out, int n)
{
    int i = tile::bid(0);
    tile::store(tile::array(out, n), i, tile::load<256>(tile::array(in, n), i));
}
TILE_KERNEL copy_hinted(const float *__restrict__ in, float *__restrict__ out, int n)
{
    int i = tile::bid(0);
    tile::store(tile::array(out, n), i, tile::load<256>(tile::array(in, n), i, tile::Pad::zero, tile::latency<9>{}),
                tile::latency<9>{});
}

// 6. __restrict__: "this memory is reached through this pointer only".
//    In SIMT code that lets the compiler read a const input through the
//    read-only path (ld.global.nc) and move loads past stores; without it a
//    store to out might change in, so every load stays a plain one in
//    program order.  Same result either way -- as long as the promise holds.
//    Each thread handles two elements, i and i + n / 2.
extern "C" __global__ void twice_restrict(const float *__restrict__ in, float *__restrict__ out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n / 2) {
        out[i] = 2.0f * in[i];
        out[i + n / 2] = 2.0f * in[i + n / 2];
    }
}
extern "C" __global__ void twice_alias(const float *in, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n / 2) {
        out[i] = 2.0f * in[i];
        out[i + n / 2] = 2.0f * in[i + n / 2];
    }
}
//    A tile kernel already loads a whole tile before it stores anything
//    (the conservative order the study notes describe for arrays that may
//    overlap), and tile.cuh's markers keep nvcc from moving memory accesses
//    across tile operations: add_restrict and add_alias compile to the same
//    PTX.
TILE_KERNEL add_restrict(const float *__restrict__ a, const float *__restrict__ b, float *__restrict__ c, int n)
{
    int i = tile::bid(0);
    tile::store(tile::array(c, n), i, tile::load<512>(tile::array(a, n), i) + tile::load<512>(tile::array(b, n), i));
}
TILE_KERNEL add_alias(const float *a, const float *b, float *c, int n)
{
    int i = tile::bid(0);
    tile::store(tile::array(c, n), i, tile::load<512>(tile::array(a, n), i) + tile::load<512>(tile::array(b, n), i));
}
