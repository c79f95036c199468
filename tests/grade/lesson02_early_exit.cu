// grade fixture (lesson 2): lanes past n return before the shuffles, which
// still name all 32 lanes.  In a partial warp the mask names lanes that have
// exited: undefined behaviour on a GPU, a reported error in the simulator.
// Right whenever n is a multiple of 32.
#include <climits>

extern "C" __global__ void warp_max(const int *in, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    int v = in[i];
    for (int d = 16; d > 0; d /= 2)
        v = max(v, __shfl_down_sync(0xffffffffu, v, d));
    if (threadIdx.x % 32 == 0)
        out[i / 32] = v;
}
