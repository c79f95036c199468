// pipe_sum.cu: exercise 9's starter.  Block b walks `tiles` tiles of 256
// ints (tile i of block b starts at in[(b * tiles + i) * 256]) and leaves in
// out[b * 256 + t] the sum over the tiles of element (t + 1) % 256: a value
// another thread's copy brought.  The tiles are double buffered with
// cp.async: tile i+1 is copied while tile i is added up.  It is launched
// with 256 threads a block.  It has a bug: find it with --check races.
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
        __pipeline_wait_prior(1);       // every group but the newest has landed
        __syncthreads();                // ... for every thread of the block
        acc += buf[i & 1][j];
    }
    out[blockIdx.x * T + threadIdx.x] = acc;
}
