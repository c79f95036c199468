// lesson05_no_sync.cu: exercise 5 padded, but without the __syncthreads
// between filling the tile and reading it: a warp reads a column whose
// words other warps of the block have not written yet.
#define T 32
#define ROWS 8

extern "C" __global__ void transpose(const float *a, float *b, int n)
{
    __shared__ float tile[T][T + 1];
    int x = blockIdx.x * T + threadIdx.x, y = blockIdx.y * T + threadIdx.y;
    for (int j = 0; j < T; j += ROWS)
        tile[threadIdx.y + j][threadIdx.x] = a[(y + j) * n + x];
    x = blockIdx.y * T + threadIdx.x;
    y = blockIdx.x * T + threadIdx.y;
    for (int j = 0; j < T; j += ROWS)
        b[(y + j) * n + x] = tile[threadIdx.x][threadIdx.y + j];
}
