// transpose.cu: a 2D grid transposing a rows x cols matrix through 16x16
// shared-memory tiles (padded against bank conflicts); sizes need not be
// multiples of 16.
#define TILE 16
extern "C" __global__ void transpose(const float *in, float *out, int rows, int cols)
{
    __shared__ float tile[TILE][TILE + 1];
    int x = blockIdx.x * TILE + threadIdx.x;   // column in `in`
    int y = blockIdx.y * TILE + threadIdx.y;   // row in `in`
    if (x < cols && y < rows)
        tile[threadIdx.y][threadIdx.x] = in[(size_t)y * cols + x];
    __syncthreads();
    int tx = blockIdx.y * TILE + threadIdx.x;  // column in `out` (= row in `in`)
    int ty = blockIdx.x * TILE + threadIdx.y;  // row in `out`
    if (tx < rows && ty < cols)
        out[(size_t)ty * rows + tx] = tile[threadIdx.x][threadIdx.y];
}
