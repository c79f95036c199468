// Lesson 11: thread block clusters (sm_90).  A cluster is a group of CTAs the
// hardware runs at the same time on SMs of one GPC; each CTA can read, write
// and update (ld, st, atom) the shared memory of every other CTA of its
// cluster, and all of them can meet at one barrier.  Launched with
// `--cluster N` (cudaLaunchKernelEx's cluster dimension) or fixed in the
// kernel with __cluster_dims__.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

// Where each CTA runs: its rank in the cluster, its cluster, and its SM.
// One word each per CTA, written by thread 0.
__global__ void where_am_i(unsigned *rank, unsigned *cluster_id, unsigned *sm)
{
    cg::cluster_group cluster = cg::this_cluster();
    if (threadIdx.x != 0)
        return;
    unsigned smid;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(smid));
    rank[blockIdx.x] = cluster.block_rank();
    cluster_id[blockIdx.x] = blockIdx.x / cluster.num_blocks();
    sm[blockIdx.x] = smid;
}

// A histogram of 256 bins split over the cluster: the CTA of rank r keeps
// bins [r * per, (r + 1) * per) in its shared memory and every thread adds
// into whichever CTA owns its value's bin -- an atomicAdd on distributed
// shared memory.  Each CTA then adds its part to the global histogram.
// With clusters of one CTA it is the plain shared-memory histogram.
#define BINS 256
__global__ void cluster_histogram(const unsigned *in, int n, unsigned *hist)
{
    extern __shared__ unsigned part[];
    cg::cluster_group cluster = cg::this_cluster();
    unsigned per = BINS / cluster.num_blocks();
    for (unsigned i = threadIdx.x; i < per; i += blockDim.x)
        part[i] = 0;
    cluster.sync(); // every part is zero before anyone adds to it
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        unsigned bin = in[i] % BINS;
        unsigned *owner = cluster.map_shared_rank(part, bin / per);
        atomicAdd(owner + bin % per, 1u);
    }
    cluster.sync(); // every add has landed before the parts are read
    unsigned r = cluster.block_rank();
    for (unsigned i = threadIdx.x; i < per; i += blockDim.x)
        atomicAdd(&hist[r * per + i], part[i]);
}

// Each CTA puts its slice in its shared memory, then reads its right-hand
// neighbour's (rank + 1, around the cluster).  `synced` says whether the
// cluster meets at cluster.sync() between the write and the read.
__global__ void neighbour_read(const int *in, int *out, int synced)
{
    __shared__ int mine[256];
    cg::cluster_group cluster = cg::this_cluster();
    unsigned r = cluster.block_rank(), n = cluster.num_blocks();
    int g = blockIdx.x * blockDim.x + threadIdx.x;
    mine[threadIdx.x] = in[g];
    if (synced)
        cluster.sync();
    int *right = cluster.map_shared_rank(mine, (r + 1) % n);
    int v = right[threadIdx.x];
    cluster.sync(); // no CTA leaves while its neighbour may still read it
    out[g] = v;
}
