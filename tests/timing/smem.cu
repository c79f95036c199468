// smem.cu: the timing suite's shared-memory kernels (tests/timing/families.txt):
// reads at a lane stride of 1..33 words (the bank-conflict degree is the
// stride's power of two up to 32; 33 is conflict-free) and a matrix transpose
// written naively, through a 32x32 tile, and through a padded 32x33 tile.
__shared__ float s_words[2048];

extern "C" __global__ void smem_stride(float *out, int stride, int iters)
{
    for (int k = threadIdx.x; k < 2048; k += blockDim.x)
        s_words[k] = (float)k;
    __syncthreads();
    unsigned base = (threadIdx.x & 31) * (unsigned)stride;
    float acc = 0.0f;
    for (int it = 0; it < iters; it++)
        acc += s_words[(base + it) & 2047];
    if (acc == -1.0f)
        out[0] = acc;
}

// Transposes of the n x n matrix g_a into g_b (n a multiple of 32, at most
// 1024), blocks of 32x8 threads each moving a 32x32 tile, 4 elements a thread.
#define T 32
#define ROWS 8
__device__ float g_a[1024 * 1024], g_b[1024 * 1024];

extern "C" __global__ void copy_tile(int n)      // the coalesced baseline
{
    int x = blockIdx.x * T + threadIdx.x, y = blockIdx.y * T + threadIdx.y;
    for (int j = 0; j < T; j += ROWS)
        g_b[(y + j) * n + x] = g_a[(y + j) * n + x];
}

extern "C" __global__ void transpose_naive(int n) // coalesced reads, strided writes
{
    int x = blockIdx.x * T + threadIdx.x, y = blockIdx.y * T + threadIdx.y;
    for (int j = 0; j < T; j += ROWS)
        g_b[x * n + (y + j)] = g_a[(y + j) * n + x];
}

extern "C" __global__ void transpose_smem(int n)  // 32-way conflicts on the column reads
{
    __shared__ float tile[T][T];
    int x = blockIdx.x * T + threadIdx.x, y = blockIdx.y * T + threadIdx.y;
    for (int j = 0; j < T; j += ROWS)
        tile[threadIdx.y + j][threadIdx.x] = g_a[(y + j) * n + x];
    __syncthreads();
    x = blockIdx.y * T + threadIdx.x;
    y = blockIdx.x * T + threadIdx.y;
    for (int j = 0; j < T; j += ROWS)
        g_b[(y + j) * n + x] = tile[threadIdx.x][threadIdx.y + j];
}

extern "C" __global__ void transpose_padded(int n) // one column of padding: no conflicts
{
    __shared__ float tile[T][T + 1];
    int x = blockIdx.x * T + threadIdx.x, y = blockIdx.y * T + threadIdx.y;
    for (int j = 0; j < T; j += ROWS)
        tile[threadIdx.y + j][threadIdx.x] = g_a[(y + j) * n + x];
    __syncthreads();
    x = blockIdx.y * T + threadIdx.x;
    y = blockIdx.x * T + threadIdx.y;
    for (int j = 0; j < T; j += ROWS)
        g_b[(y + j) * n + x] = tile[threadIdx.x][threadIdx.y + j];
}
