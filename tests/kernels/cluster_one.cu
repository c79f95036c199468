// cluster_one.cu: cooperative groups' cluster API in a launch without
// clusters, where every CTA is a cluster of one: rank 0 of 1, the cluster id
// is the CTA id, map_shared_rank(p, 0) is p, cluster.sync() a CTA barrier.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void single_cta_cluster(int *out)
{
    __shared__ int s[64];
    auto cluster = cg::this_cluster();
    int t = threadIdx.x;
    s[t] = t * 3 + (int)blockIdx.x;
    cluster.sync();
    int *mine = cluster.map_shared_rank(s, 0);
    int v = mine[63 - t];
    cluster.sync();
    unsigned cid;
    asm("mov.u32 %0, %%clusterid.x;" : "=r"(cid));
    out[blockIdx.x * 64 + t] = v + 1000 * (int)cluster.block_rank() + 10000 * (int)cluster.num_blocks() +
                               100000 * (int)cid;
}
