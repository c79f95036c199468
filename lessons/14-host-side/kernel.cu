// kernel.cu: lesson 14 -- the host side.  Kernels that make what the host
// does visible from the device: the architecture the PTX was compiled for,
// a module's own __device__ variable, kernel parameters in the param space
// (by value and __grid_constant__), the device heap (malloc in a kernel),
// per-kernel attributes, and a grid too small to fill the GPU by itself.

// 1. __CUDA_ARCH__ exists only while nvcc compiles device code: the host pass
// of the same function sees no __CUDA_ARCH__ and returns 0.
__host__ __device__ int arch_number()
{
#ifdef __CUDA_ARCH__
    return __CUDA_ARCH__;
#else
    return 0;
#endif
}

extern "C" __global__ void which_arch(int *out)
{
    out[blockIdx.x * blockDim.x + threadIdx.x] = arch_number();
}

// 2. A module is like a shared library: each load of it has its own copy of
// every __device__ variable, set from the module image (here 100).  A C++
// kernel (no extern "C"): its PTX name is mangled.
__device__ int g_calls = 100;

__global__ void bump(int *out)
{
    if (blockIdx.x == 0 && threadIdx.x == 0) {
        g_calls += 1;
        out[0] = g_calls;
    }
}

// 3. Kernel parameters: the host packs them into one buffer that the kernel
// reads from the param space (ld.param).  A 4 KB table by value: pick() takes
// its address, so without __grid_constant__ every thread copies the table to
// its local memory first; with it, every thread reads the one parameter.
struct Table {
    int v[1024];
};

__device__ __noinline__ int pick(const Table *t, int i)
{
    return t->v[i & 1023];
}

extern "C" __global__ void table_copy(Table t, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = pick(&t, i * 7);
}

extern "C" __global__ void table_grid_constant(const __grid_constant__ Table t, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = pick(&t, i * 7);
}

// The most parameter bytes a kernel may take on sm_90 with CUDA 12.1 or
// later: 32,764.  One pointer and 8,189 ints fill it exactly (the pointer
// first: after the table it would be aligned up to 8 and need 32,768);
// one int more and nvcc refuses the kernel.
struct Huge {
    int v[8189];
};

extern "C" __global__ void huge_params(int *out, Huge h)
{
    int s = 0;
    for (int k = threadIdx.x; k < 8189; k += blockDim.x)
        s += h.v[k];
    atomicAdd(out, s);
}

// 4. The device heap: malloc and free inside a kernel.  Each thread borrows
// n ints, fills and sums them, and gives them back; -1 when malloc said NULL.
extern "C" __global__ void heap_scratch(int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int *p = (int *)malloc((size_t)n * sizeof(int));
    if (p == NULL) {
        out[i] = -1;
        return;
    }
    for (int k = 0; k < n; k++)
        p[k] = i + k;
    int s = 0;
    for (int k = 0; k < n; k++)
        s += p[k];
    free(p);
    out[i] = s;
}

// Every thread asks for `bytes` at once: counts[0] gets the ones that got
// memory, counts[1] the ones that got NULL.  Everything is freed at the end.
extern "C" __global__ void heap_grab(int *counts, unsigned bytes)
{
    char *p = (char *)malloc(bytes);
    if (p == NULL) {
        atomicAdd(&counts[1], 1);
    } else {
        p[0] = 1;
        atomicAdd(&counts[0], 1);
    }
    __syncthreads();
    free(p);                            // free(NULL) does nothing
}

// The same without the check: a thread that got NULL writes through it.
extern "C" __global__ void heap_grab_unchecked(int *counts, unsigned bytes)
{
    char *p = (char *)malloc(bytes);
    p[0] = 1;
    atomicAdd(&counts[0], 1);
    __syncthreads();
    free(p);
}

// 5. Function attributes belong to one __global__ function: two kernels with
// the same body, each with its own dynamic shared memory limit and carveout.
extern "C" __global__ void stage_a(float *out, int n)
{
    extern __shared__ float buf[];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    buf[threadIdx.x] = (float)i;
    __syncthreads();
    if (i < n)
        out[i] = buf[blockDim.x - 1 - threadIdx.x];
}

extern "C" __global__ void stage_b(float *out, int n)
{
    extern __shared__ float buf[];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    buf[threadIdx.x] = (float)i;
    __syncthreads();
    if (i < n)
        out[i] = buf[blockDim.x - 1 - threadIdx.x];
}

// 6. Work a grid of few blocks cannot spread over the whole GPU: each block
// runs a chain of `iters` dependent multiply-adds per thread.  66 blocks leave
// half of an H100's 132 SMs idle; a second kernel in another stream could
// use them.
extern "C" __global__ void busy_blocks(float *out, int iters)
{
    float x = (float)threadIdx.x * 1e-3f;
    for (int k = 0; k < iters; k++)
        x = x * 0.999f + 0.5f;
    out[blockIdx.x * blockDim.x + threadIdx.x] = x;
}
