// grid_stride.cu: a grid-stride loop covering n elements with fewer threads
// than elements, and a bounds-checked kernel whose size is not a multiple of
// the block (partial last warp).
extern "C" __global__ void grid_stride(const int *a, const int *b, int *c, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        c[i] = a[i] * 7 - b[i] + (i ^ 0x55);
}

extern "C" __global__ void bounds(const int *in, int *out, int *count, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        out[i] = in[i] * 3 + 1;
        atomicAdd(count, 1);
    }
}
