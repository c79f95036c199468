// grade fixture (lesson 2): the right answers from one atomicMax per
// element -- no shuffle at all.  Every test passes (out is preset to each
// warp's first element, so the atomics only raise it); the rubric's "no
// atomics" is not earned.
extern "C" __global__ void warp_max(const int *in, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n && i % 32 == 0)
        out[i / 32] = in[i];
    __syncthreads();
    if (i < n)
        atomicMax(&out[i / 32], in[i]);
}
