// lesson09_wait2.cu: a wrong answer to exercise 9 -- __pipeline_wait_prior(2)
// lets the tile about to be read still be in flight: a cp-async race, and
// the sums miss tiles.
#include <cuda_pipeline.h>
#define T 256
extern "C" __global__ void pipe_sum(const int *in, int *out, int tiles)
{
    __shared__ int buf[2][T];
    const int *src = in + (size_t)blockIdx.x * tiles * T;
    unsigned j = (threadIdx.x + 1) % T;
    int acc = 0;
    __pipeline_memcpy_async(&buf[0][threadIdx.x], &src[threadIdx.x], sizeof(int));
    __pipeline_commit();
    for (int i = 0; i < tiles; i++) {
        if (i + 1 < tiles)
            __pipeline_memcpy_async(&buf[(i + 1) & 1][threadIdx.x], &src[(i + 1) * T + threadIdx.x], sizeof(int));
        __pipeline_commit();
        __pipeline_wait_prior(2);
        __syncthreads();
        acc += buf[i & 1][j];
        __syncthreads();
    }
    out[blockIdx.x * T + threadIdx.x] = acc;
}
