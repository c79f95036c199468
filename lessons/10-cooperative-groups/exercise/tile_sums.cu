// tile_sums.cu: lesson 10's exercise (README.md here).  The starter is the
// lesson's warp sum, writing where tiles of 16 should: its shuffles cross
// from one tile into the next.  Make out[t] the sum of tile t's 16 values.
extern "C" __global__ void tile_sums(const int *in, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = i < n ? in[i] : 0;
    for (int d = 16; d > 0; d /= 2)
        v += __shfl_down_sync(0xffffffffu, v, d);
    if (i % 16 == 0 && i < n)
        out[i / 16] = v;
}
