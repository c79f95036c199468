// grade fixture (lesson 2): a correct warp_max.  Every lane loads one
// element, INT_MIN past n, so all 32 lanes reach the full-mask shuffles;
// five __shfl_down_sync steps fold the warp's maximum into lane 0.  Full marks.
#include <climits>

extern "C" __global__ void warp_max(const int *in, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = i < n ? in[i] : INT_MIN;
    for (int d = 16; d > 0; d /= 2)
        v = max(v, __shfl_down_sync(0xffffffffu, v, d));
    if (threadIdx.x % 32 == 0 && i < n)
        out[i / 32] = v;
}
