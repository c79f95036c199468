// lesson11_push.cu: a right answer to exercise 11 the other way round --
// every CTA pushes its part into rank 0's shared memory with an atomicAdd
// through distributed shared memory.  The first cluster.sync() orders rank
// 0's zero before the pushes, the second the pushes before rank 0 reads.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

extern "C" __global__ void __cluster_dims__(4, 1, 1) cluster_sums(const int *in, int *out, int n)
{
    __shared__ int partial, total;
    cg::cluster_group cluster = cg::this_cluster();
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (threadIdx.x == 0)
        partial = total = 0;
    __syncthreads();
    if (i < n)
        atomicAdd(&partial, in[i]);
    cluster.sync();
    if (threadIdx.x == 0)
        atomicAdd(cluster.map_shared_rank(&total, 0), partial);
    cluster.sync();
    if (cluster.block_rank() == 0 && threadIdx.x == 0)
        out[blockIdx.x / cluster.num_blocks()] = total;
}
