// lesson05_row_pad.cu: exercise 5 padded in the wrong dimension -- a 33rd
// row instead of a 33rd column.  A row is still 32 words, a column still
// one bank: right answers, every tile read still a 32-way conflict.
#define T 32
#define ROWS 8

extern "C" __global__ void transpose(const float *a, float *b, int n)
{
    __shared__ float tile[T + 1][T];
    int x = blockIdx.x * T + threadIdx.x, y = blockIdx.y * T + threadIdx.y;
    for (int j = 0; j < T; j += ROWS)
        tile[threadIdx.y + j][threadIdx.x] = a[(y + j) * n + x];
    __syncthreads();
    x = blockIdx.y * T + threadIdx.x;
    y = blockIdx.x * T + threadIdx.y;
    for (int j = 0; j < T; j += ROWS)
        b[(y + j) * n + x] = tile[threadIdx.x][threadIdx.y + j];
}
