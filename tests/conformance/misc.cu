// misc.cu: conformance kernels for the rest of sm_90 CUDA a course meets --
// recursion, device malloc/free, __grid_constant__ parameters, L2 cache
// hints and priorities, programmatic dependent launch controls, and a
// struct passed by value.
#include <cuda_runtime.h>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

#define IDX int i = blockIdx.x * blockDim.x + threadIdx.x; if (i >= n) return

__device__ __noinline__ unsigned fib(unsigned k)
{
    return k < 2 ? k : fib(k - 1) + fib(k - 2);
}

__device__ __noinline__ int ackermann_small(int m, int k)
{
    if (m == 0) return k + 1;
    if (k == 0) return ackermann_small(m - 1, 1);
    return ackermann_small(m - 1, ackermann_small(m, k - 1));
}

extern "C" __global__ void recursion(const unsigned *in, unsigned *out, int n)
{
    IDX;
    out[2 * i] = fib(in[i] % 16);
    out[2 * i + 1] = (unsigned)ackermann_small(1 + (int)(in[i] % 2), (int)(in[i] >> 8) % 4);
}

extern "C" __global__ void heap_alloc(const int *in, int *out, int n)
{
    IDX;
    int len = 1 + in[i] % 16;
    if (len < 0) len = -len + 1;
    int *p = (int *)malloc(len * sizeof(int));
    if (!p) { out[i] = -1; return; }
    for (int k = 0; k < len; k++) p[k] = in[(i + k) % n] >> 4;
    int s = 0;
    for (int k = 0; k < len; k++) s += p[k];
    free(p);
    free(NULL);
    out[i] = s;
}

// 8 bytes, so a launch line passes it as one u64 (low word: scale)
struct Params {
    int scale;
    int offset;
};

extern "C" __global__ void grid_constant_param(const __grid_constant__ Params p, const int *in, int *out, int n)
{
    IDX;
    const int *t = &p.scale; // taking its address: the .param space through a pointer
    out[i] = in[i] * t[i % 2] + p.offset;
}

extern "C" __global__ void struct_by_value(Params p, const int *in, int *out, int n)
{
    IDX;
    out[i] = (in[i] >> 4) * p.scale - p.offset;
}

// scratch: a line is discarded (its contents become undefined), then written
extern "C" __global__ void cache_hints(const float *in, float *out, float *scratch, int n)
{
    IDX;
    unsigned long long pol;
    asm volatile("createpolicy.fractional.L2::evict_last.b64 %0, 1.0;" : "=l"(pol));
    float v;
    asm volatile("ld.global.L2::cache_hint.f32 %0, [%1], %2;" : "=f"(v) : "l"(in + i), "l"(pol));
    asm volatile("applypriority.global.L2::evict_normal [%0], 128;" :: "l"(in + (i & ~31)));
    out[i] = v * 2.0f;
    if (i % 32 == 0)
        asm volatile("discard.global.L2 [%0], 128;" :: "l"(scratch + i) : "memory");
    __syncwarp();
    scratch[i] = (float)i;
}

extern "C" __global__ void dependent_launch(const int *in, int *out, int n)
{
    IDX;
    asm volatile("griddepcontrol.wait;" ::: "memory");
    out[i] = in[i] + 1;
    asm volatile("griddepcontrol.launch_dependents;");
}

// a cluster of two blocks: each reads the other's shared memory (distributed
// shared memory) between two cluster barriers
extern "C" __global__ void __cluster_dims__(2, 1, 1) cluster_exchange(const int *in, int *out, int n)
{
    __shared__ int mine[64];
    auto cluster = cg::this_cluster();
    int t = threadIdx.x, g = blockIdx.x * 64 + t;
    mine[t] = g < n ? in[g] : 0;
    cluster.sync();
    unsigned other = cluster.block_rank() ^ 1;
    int *theirs = cluster.map_shared_rank(mine, other);
    int v = theirs[63 - t];
    cluster.sync();
    if (g < n) out[g] = v * 2 + (int)cluster.block_rank();
}
