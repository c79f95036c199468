// atomics.cu: the timing suite's atomics family (tests/timing/families.txt):
// one atomicAdd per element into 1..4096 bins (contention falls as bins
// grow) against a warp-shuffle reduction and a block tree reduction that
// make one atomicAdd per warp or per block.  Every kernel adds x[i] + 1 over
// the zero-filled g_x, so each total is n: a result the simulator can check.
#define NX (1u << 20)
__device__ int g_x[NX];

extern "C" __global__ void atomic_bins(int *bins, int n, int mask)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        atomicAdd(&bins[i & mask], g_x[i] + 1);
}

extern "C" __global__ void warp_reduce_atomic(int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = i < n ? g_x[i] + 1 : 0;
    for (int o = 16; o > 0; o >>= 1)
        v += __shfl_down_sync(0xffffffffu, v, o);
    if ((threadIdx.x & 31) == 0)
        atomicAdd(out, v);
}

// blockDim.x must be 256.
extern "C" __global__ void block_reduce(int *out, int n)
{
    __shared__ int s[256];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    s[threadIdx.x] = i < n ? g_x[i] + 1 : 0;
    __syncthreads();
    for (int h = blockDim.x / 2; h > 0; h >>= 1) {
        if (threadIdx.x < h)
            s[threadIdx.x] += s[threadIdx.x + h];
        __syncthreads();
    }
    if (threadIdx.x == 0)
        atomicAdd(out, s[0]);
}
