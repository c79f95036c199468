// grade fixture (lesson 11): the cluster meets before rank 0 reads the
// parts but not after, so the other CTAs may exit while rank 0 still reads
// their shared memory, which goes with them: undefined on a GPU, a fault
// in the simulator whenever a CTA has gone first.
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
            sum += *cluster.map_shared_rank(&partial, r);
        out[blockIdx.x / cluster.num_blocks()] = sum;
    }
}
