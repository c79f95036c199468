// grade fixture (lesson 11): ranks taken from blockIdx.x, which counts CTAs
// over the whole grid, not within the cluster.  In the first cluster they
// agree; from the second on, map_shared_rank is asked for ranks 4 and up
// of a cluster of 4: a fault naming the rank.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

extern "C" __global__ void __cluster_dims__(4, 1, 1) cluster_sums(const int *in, int *out, int n)
{
    __shared__ int partial;
    cg::cluster_group cluster = cg::this_cluster();
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (threadIdx.x == 0)
        partial = 0;
    __syncthreads();
    if (i < n)
        atomicAdd(&partial, in[i]);
    cluster.sync();
    if (cluster.block_rank() == 0 && threadIdx.x == 0) {
        int sum = 0;
        for (unsigned r = 0; r < cluster.num_blocks(); r++)
            sum += *cluster.map_shared_rank(&partial, blockIdx.x + r);
        out[blockIdx.x / cluster.num_blocks()] = sum;
    }
    cluster.sync();
}
