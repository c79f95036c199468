// kernel.cu: lesson 10 -- cooperative groups.  Groups below a block (a warp's
// sum by hand and by cooperative_groups' tiles of 32, 16 and 8, and what a
// tile's shuffle cannot cross), a grid-wide sum that must cross the block
// boundary (two launches, or one cooperative launch with grid.sync(), and the
// same with __syncthreads(), which does not cross it), the cost of a crossing
// (block syncs against grid syncs), and CUB's block and warp reductions.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cub/cub.cuh>
namespace cg = cooperative_groups;

// ---- 1. Groups below a block ----------------------------------------------

// A warp's sum by hand: five shuffles down, lane 0 holds the warp's 32 values.
extern "C" __global__ void warp_sum_shfl(const int *in, int *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = in[i];
    for (int d = 16; d > 0; d /= 2)
        v += __shfl_down_sync(0xffffffffu, v, d);
    if (threadIdx.x % 32 == 0)
        out[i / 32] = v;
}

// The same with a tile of T threads: cg::reduce over the tile, its rank 0
// writes the tile's sum.  T = 32 is the warp above in library form.
template <int T> __device__ void tile_sum(const int *in, int *out)
{
    cg::thread_block_tile<T> tile = cg::tiled_partition<T>(cg::this_thread_block());
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = cg::reduce(tile, in[i], cg::plus<int>());
    if (tile.thread_rank() == 0)
        out[i / T] = v;
}
extern "C" __global__ void tile32_sum(const int *in, int *out) { tile_sum<32>(in, out); }
extern "C" __global__ void tile16_sum(const int *in, int *out) { tile_sum<16>(in, out); }
extern "C" __global__ void tile8_sum(const int *in, int *out) { tile_sum<8>(in, out); }

// What a shuffle crosses: out[i] = the value `delta` lanes further down,
// read by a whole-warp shuffle and by a tile of 16's.
extern "C" __global__ void shfl_warp(const int *in, int *out, int delta)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = __shfl_down_sync(0xffffffffu, in[i], delta);
}
extern "C" __global__ void shfl_tile16(const int *in, int *out, int delta)
{
    cg::thread_block_tile<16> tile = cg::tiled_partition<16>(cg::this_thread_block());
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = tile.shfl_down(in[i], delta);
}

// ---- 2. Crossing the block boundary: a grid-wide sum -----------------------

// Phase 1: each block sums a grid-stride share of in[0..n) into
// partial[blockIdx.x] (warps by cg::reduce, then warp 0 over the warps' sums).
__device__ void block_partial(const int *in, int *partial, int n)
{
    __shared__ int warp_sums[32];
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
    int s = 0;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        s += in[i];
    s = cg::reduce(warp, s, cg::plus<int>());
    if (warp.thread_rank() == 0)
        warp_sums[warp.meta_group_rank()] = s;
    block.sync();
    if (warp.meta_group_rank() == 0) {
        s = warp.thread_rank() < warp.meta_group_size() ? warp_sums[warp.thread_rank()] : 0;
        s = cg::reduce(warp, s, cg::plus<int>());
        if (warp.thread_rank() == 0)
            partial[blockIdx.x] = s;
    }
}

// Phase 2: the first warp of block 0 sums the nb partial sums into out[0].
__device__ void sum_partials(const int *partial, int *out, int nb)
{
    if (blockIdx.x != 0 || threadIdx.x >= 32)
        return;
    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(cg::this_thread_block());
    int s = 0;
    for (int k = warp.thread_rank(); k < nb; k += 32)
        s += partial[k];
    s = cg::reduce(warp, s, cg::plus<int>());
    if (warp.thread_rank() == 0)
        out[0] = s;
}

// Two launches: the end of the first is the grid-wide barrier.
extern "C" __global__ void partial_sums(const int *in, int *partial, int n) { block_partial(in, partial, n); }
extern "C" __global__ void final_sum(const int *partial, int *out, int nb) { sum_partials(partial, out, nb); }

// One cooperative launch: grid.sync() between the phases.
extern "C" __global__ void grid_sum(const int *in, int *partial, int *out, int n)
{
    block_partial(in, partial, n);
    cg::this_grid().sync();
    sum_partials(partial, out, gridDim.x);
}

// The same with __syncthreads(): it waits for block 0's own threads only.
extern "C" __global__ void grid_sum_syncthreads(const int *in, int *partial, int *out, int n)
{
    block_partial(in, partial, n);
    __syncthreads();
    sum_partials(partial, out, gridDim.x);
}

// ---- 3. What a crossing costs ------------------------------------------------

// rounds barriers in a row -- of the block, or of the whole grid (a
// cooperative launch) -- with a step of register arithmetic between them;
// each thread writes what it computed, out[i] = the same in both.
extern "C" __global__ void sync_block(int *out, int rounds)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x, s = i;
    for (int r = 0; r < rounds; r++) {
        s = s * 3 + r;
        __syncthreads();
    }
    out[i] = s;
}
extern "C" __global__ void sync_grid(int *out, int rounds)
{
    cg::grid_group grid = cg::this_grid();
    int i = blockIdx.x * blockDim.x + threadIdx.x, s = i;
    for (int r = 0; r < rounds; r++) {
        s = s * 3 + r;
        grid.sync();
    }
    out[i] = s;
}

// ---- 4. The library: CUB ------------------------------------------------------

// A block's sum by cub::BlockReduce (256 threads) and each warp's by
// cub::WarpReduce: the primitives above, written and tuned by NVIDIA.
extern "C" __global__ void cub_block_sum(const int *in, int *out)
{
    typedef cub::BlockReduce<int, 256> BlockReduce;
    __shared__ typename BlockReduce::TempStorage tmp;
    int s = BlockReduce(tmp).Sum(in[blockIdx.x * 256 + threadIdx.x]);
    if (threadIdx.x == 0)
        out[blockIdx.x] = s;
}
extern "C" __global__ void cub_warp_sum(const int *in, int *out)
{
    typedef cub::WarpReduce<int> WarpReduce;
    __shared__ typename WarpReduce::TempStorage tmp[8];
    int i = blockIdx.x * 256 + threadIdx.x;
    int s = WarpReduce(tmp[threadIdx.x / 32]).Sum(in[i]);
    if (threadIdx.x % 32 == 0)
        out[i / 32] = s;
}
