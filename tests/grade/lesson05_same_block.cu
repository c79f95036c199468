// lesson05_same_block.cu: exercise 5 padded, but the write keeps the read's
// block indices: each tile is transposed in place, not moved to the mirror
// tile.  One tile (n = 32) is right; from two tiles a side, wrong.
#define T 32
#define ROWS 8

extern "C" __global__ void transpose(const float *a, float *b, int n)
{
    __shared__ float tile[T][T + 1];
    int x = blockIdx.x * T + threadIdx.x, y = blockIdx.y * T + threadIdx.y;
    for (int j = 0; j < T; j += ROWS)
        tile[threadIdx.y + j][threadIdx.x] = a[(y + j) * n + x];
    __syncthreads();
    y = blockIdx.y * T + threadIdx.y;
    for (int j = 0; j < T; j += ROWS)
        b[(y + j) * n + x] = tile[threadIdx.x][threadIdx.y + j];
}
