// clusters.cu: thread block clusters of several CTAs (sm_90) for
// tests/test_clusters.c: ids and ranks, a histogram split over the cluster's
// distributed shared memory, a ring exchange through neighbours' shared
// memory, the same without the barrier (a race), and a rank out of range.
// Plain (not extern "C") names, as a course writes them; launched with
// --cluster (cudaLaunchKernelEx's cluster dimension) except where
// __cluster_dims__ fixes the size.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

// Every special register of the cluster, per thread 0 of each CTA: 10 words.
__global__ void cluster_ids(unsigned *out)
{
    if (threadIdx.x != 0)
        return;
    unsigned v[10];
    asm("mov.u32 %0, %%cluster_ctarank;" : "=r"(v[0]));
    asm("mov.u32 %0, %%cluster_nctarank;" : "=r"(v[1]));
    asm("mov.u32 %0, %%cluster_ctaid.x;" : "=r"(v[2]));
    asm("mov.u32 %0, %%cluster_ctaid.y;" : "=r"(v[3]));
    asm("mov.u32 %0, %%clusterid.x;" : "=r"(v[4]));
    asm("mov.u32 %0, %%clusterid.y;" : "=r"(v[5]));
    asm("mov.u32 %0, %%nclusterid.x;" : "=r"(v[6]));
    asm("mov.u32 %0, %%nclusterid.y;" : "=r"(v[7]));
    asm("mov.u32 %0, %%cluster_nctaid.x;" : "=r"(v[8]));
    asm("{ .reg .pred p; mov.pred p, %%is_explicit_cluster; selp.u32 %0, 1, 0, p; }" : "=r"(v[9]));
    unsigned b = blockIdx.x + gridDim.x * blockIdx.y;
    for (int i = 0; i < 10; i++)
        out[b * 10 + i] = v[i];
}

// A histogram of NBINS bins split over the cluster: CTA rank r owns bins
// [r * per, (r+1) * per) in its shared memory, and every thread adds its
// values into whichever CTA owns the bin (atomicAdd on distributed shared
// memory).  Then each CTA adds its part to the global histogram.
#define NBINS 256
__global__ void dsmem_histogram(const unsigned *in, int n, unsigned *hist)
{
    extern __shared__ unsigned part[];
    cg::cluster_group cluster = cg::this_cluster();
    unsigned nb = cluster.num_blocks(), per = NBINS / nb;
    for (unsigned i = threadIdx.x; i < per; i += blockDim.x)
        part[i] = 0;
    cluster.sync();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        unsigned bin = in[i] % NBINS;
        unsigned *owner = cluster.map_shared_rank(part, bin / per);
        atomicAdd(owner + bin % per, 1u);
    }
    cluster.sync();
    unsigned r = cluster.block_rank();
    for (unsigned i = threadIdx.x; i < per; i += blockDim.x)
        atomicAdd(&hist[r * per + i], part[i]);
}

// A ring: each CTA writes its values into its own shared memory, the
// cluster syncs, and each reads its right neighbour's (rank + 1 mod n).
__global__ void __cluster_dims__(4, 1, 1) ring_exchange(const int *in, int *out)
{
    __shared__ int mine[128];
    cg::cluster_group cluster = cg::this_cluster();
    unsigned r = cluster.block_rank(), n = cluster.num_blocks();
    int g = blockIdx.x * blockDim.x + threadIdx.x;
    mine[threadIdx.x] = in[g] * 3 + (int)r;
    cluster.sync();
    int *right = cluster.map_shared_rank(mine, (r + 1) % n);
    int v = right[blockDim.x - 1 - threadIdx.x];
    cluster.sync(); // no CTA exits while its neighbour still reads
    out[g] = v;
}

// The same without the first cluster.sync(): a neighbour's shared memory is
// read before it was written (a race --check races finds).
__global__ void __cluster_dims__(4, 1, 1) ring_no_sync(const int *in, int *out)
{
    __shared__ int mine[128];
    cg::cluster_group cluster = cg::this_cluster();
    unsigned r = cluster.block_rank(), n = cluster.num_blocks();
    int g = blockIdx.x * blockDim.x + threadIdx.x;
    mine[threadIdx.x] = in[g] * 3 + (int)r;
    int *right = cluster.map_shared_rank(mine, (r + 1) % n);
    int v = right[blockDim.x - 1 - threadIdx.x];
    cluster.sync();
    out[g] = v;
}

// A rank from the input: one past the last is out of the cluster.
__global__ void __cluster_dims__(2, 1, 1) bad_rank(const unsigned *rank, int *out)
{
    __shared__ int s[32];
    cg::cluster_group cluster = cg::this_cluster();
    s[threadIdx.x] = threadIdx.x;
    cluster.sync();
    int *p = cluster.map_shared_rank(s, rank[0]);
    out[blockIdx.x * blockDim.x + threadIdx.x] = p[threadIdx.x];
    cluster.sync();
}

// Rank 1 leaves early; rank 0 then reads its shared memory: an access to a
// CTA that has exited.
__global__ void __cluster_dims__(2, 1, 1) early_exit(int *out)
{
    __shared__ int s[32];
    cg::cluster_group cluster = cg::this_cluster();
    s[threadIdx.x] = threadIdx.x;
    cluster.sync();
    if (cluster.block_rank() == 1)
        return;
    for (int spin = 0; spin < 2000; spin++)
        __nanosleep(100);
    int *p = cluster.map_shared_rank(s, 1);
    out[threadIdx.x] = p[threadIdx.x];
}

// Latency of a dependent load from the CTA's own shared memory and from its
// neighbour's (distributed shared memory): thread 0 of rank 0 chases a chain
// of `steps` indices through each, timing both with clock64().  out[0], out[1]:
// cycles of the local and the remote chase; out[2]: where the chase ended (so
// the loads cannot be dropped).  One cluster of 2 CTAs, 32 threads each.
__global__ void __cluster_dims__(2, 1, 1) dsmem_latency(long long *out, int steps)
{
    __shared__ int chain[1024];
    cg::cluster_group cluster = cg::this_cluster();
    for (int i = threadIdx.x; i < 1024; i += blockDim.x)
        chain[i] = (i * 33 + 7) % 1024;
    cluster.sync();
    if (cluster.block_rank() == 0 && threadIdx.x == 0) {
        volatile int *own = chain, *remote = cluster.map_shared_rank(chain, 1);
        int j = 0;
        long long t0 = clock64();
        for (int s = 0; s < steps; s++)
            j = own[j];
        long long t1 = clock64();
        for (int s = 0; s < steps; s++)
            j = remote[j];
        long long t2 = clock64();
        out[0] = t1 - t0;
        out[1] = t2 - t1;
        out[2] = j;
    }
    cluster.sync();
}
