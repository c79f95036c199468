// grade fixture (lesson 10): a tree in shared memory per tile of 16 with no
// tile.sync() between its steps: lanes read what other lanes write with
// nothing ordering them -- the race checker's finding, whatever the sums.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

extern "C" __global__ void tile_sums(const int *in, int *out, int n)
{
    __shared__ int s[256];
    cg::thread_block_tile<16> tile = cg::tiled_partition<16>(cg::this_thread_block());
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    s[threadIdx.x] = i < n ? in[i] : 0;
    for (int d = 8; d > 0; d /= 2) {
        if (tile.thread_rank() < d)
            s[threadIdx.x] += s[threadIdx.x + d];
    }
    if (tile.thread_rank() == 0 && i < n)
        out[i / 16] = s[threadIdx.x];
}
