// Exercise 2: the largest value of each warp's 32 elements.
// out[w] = max(in[32w .. 32w+31]), counting only elements below n.
// Launched with ceil(n / 256) blocks of 256 threads.  See README.md.
#include <climits>

extern "C" __global__ void warp_max(const int *in, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    // TODO: every lane loads its own element (INT_MIN past n), then five
    // __shfl_down_sync (or __shfl_xor_sync) steps with max instead of +.
    if (threadIdx.x % 32 == 0 && i < n)
        out[i / 32] = in[i];   // wrong: only the warp's first element
}
