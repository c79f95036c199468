// grade fixture (lesson 10): threads past n return before cg::reduce, which
// still needs all 16 lanes of the tile.  In a partial tile the others wait
// for lanes that have exited: undefined on a GPU, a reported error in the
// simulator.  Right whenever n is a multiple of 16.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;

extern "C" __global__ void tile_sums(const int *in, int *out, int n)
{
    cg::thread_block_tile<16> tile = cg::tiled_partition<16>(cg::this_thread_block());
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    int v = cg::reduce(tile, in[i], cg::plus<int>());
    if (tile.thread_rank() == 0)
        out[i / 16] = v;
}
