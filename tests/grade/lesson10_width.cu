// grade fixture (lesson 10): by hand, __shfl_down_sync with width 16 and
// offsets from 8 -- also right, full marks.
extern "C" __global__ void tile_sums(const int *in, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = i < n ? in[i] : 0;
    for (int d = 8; d > 0; d /= 2)
        v += __shfl_down_sync(0xffffffffu, v, d, 16);
    if (i % 16 == 0 && i < n)
        out[i / 16] = v;
}
