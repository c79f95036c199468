// transpose.cu: lesson 5's exercise (README.md here).  The starter is right:
// it reads a 32x32 tile of a by rows into shared memory and writes b by rows
// from the tile's columns.  But a column of a 32-wide float tile is one bank,
// so every read of the tile is a 32-way bank conflict.  Make it at most
// 10,000 cycles in the timing model with every result unchanged.
#define T 32     // a block moves one T x T tile
#define ROWS 8   // with T x ROWS threads: T / ROWS elements a thread

extern "C" __global__ void transpose(const float *a, float *b, int n)
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
