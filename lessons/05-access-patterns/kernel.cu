// kernel.cu: lesson 05 -- access patterns.  A warp reading global memory at a
// lane stride of 1, 2, 8 or 32 floats (32-byte sectors and coalescing), a warp
// reading shared memory at a lane stride (bank conflicts, and padding that
// removes them), and a matrix transpose three ways: naive, through a shared
// tile, and through a padded shared tile.

// Thread i copies in[i * stride] to out[i]: at stride 1 a warp's 32 loads are
// 128 consecutive bytes, four 32-byte sectors; at stride 8 and up every lane
// has a sector of its own.
extern "C" __global__ void strided_copy(const float *in, float *out, int stride, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = in[i * stride];
}

// Shared memory has 32 banks of 4-byte words: word w is in bank w % 32.  Lane
// l reads word l * stride (mod 2048), `iters` times at a moving offset; lanes
// whose words share a bank (and differ) are served one after another.
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
    out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

// Transposes of the n x n matrix a into b (n a multiple of 32): blocks of 32x8
// threads, each block moving one 32x32 tile, 4 elements a thread.
#define T 32
#define ROWS 8

// Reads a row (coalesced), writes a column: lanes n floats apart.
extern "C" __global__ void transpose_naive(const float *a, float *b, int n)
{
    int x = blockIdx.x * T + threadIdx.x, y = blockIdx.y * T + threadIdx.y;
    for (int j = 0; j < T; j += ROWS)
        b[x * n + (y + j)] = a[(y + j) * n + x];
}

// Through a 32x32 tile: both global accesses are rows, but the tile is read
// by column, and a column of a 32-wide float tile is one bank.
extern "C" __global__ void transpose_smem(const float *a, float *b, int n)
{
    __shared__ float tile[T][T];
    int x = blockIdx.x * T + threadIdx.x, y = blockIdx.y * T + threadIdx.y;
    for (int j = 0; j < T; j += ROWS)
        tile[threadIdx.y + j][threadIdx.x] = a[(y + j) * n + x];
    __syncthreads();
    x = blockIdx.y * T + threadIdx.x;
    y = blockIdx.x * T + threadIdx.y;
    for (int j = 0; j < T; j += ROWS)
        b[(y + j) * n + x] = tile[threadIdx.x][threadIdx.y + j];
}

// The same with one column of padding: a row is 33 words, so a column walks
// through all 32 banks.
extern "C" __global__ void transpose_padded(const float *a, float *b, int n)
{
    __shared__ float tile[T][T + 1];
    int x = blockIdx.x * T + threadIdx.x, y = blockIdx.y * T + threadIdx.y;
    for (int j = 0; j < T; j += ROWS)
        tile[threadIdx.y + j][threadIdx.x] = a[(y + j) * n + x];
    __syncthreads();
    x = blockIdx.y * T + threadIdx.x;
    y = blockIdx.x * T + threadIdx.y;
    for (int j = 0; j < T; j += ROWS)
        b[(y + j) * n + x] = tile[threadIdx.x][threadIdx.y + j];
}
