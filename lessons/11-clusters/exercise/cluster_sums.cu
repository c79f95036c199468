// cluster_sums.cu: lesson 11's exercise (README.md here).  Each CTA adds its
// 256 values into a partial sum in its shared memory; the CTA of rank 0 then
// reads every CTA's partial through distributed shared memory and writes the
// cluster's sum.  The starter has no cluster.sync(): make it right.
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
    __syncthreads();
    if (cluster.block_rank() == 0 && threadIdx.x == 0) {
        int sum = 0;
        for (unsigned r = 0; r < cluster.num_blocks(); r++)
            sum += *cluster.map_shared_rank(&partial, r);
        out[blockIdx.x / cluster.num_blocks()] = sum;
    }
}
