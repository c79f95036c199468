// grade fixture: every thread reads in[i], also those with i >= n.
// Right whenever n is a multiple of 256; reads past the end otherwise.
extern "C" __global__ void block_sum(const int *in, int *out, int n)
{
    __shared__ int s[256];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    s[threadIdx.x] = in[i];
    __syncthreads();
    for (int stride = blockDim.x / 2; stride > 0; stride /= 2) {
        if (threadIdx.x < stride)
            s[threadIdx.x] += s[threadIdx.x + stride];
        __syncthreads();
    }
    if (threadIdx.x == 0 && i < n)
        atomicAdd(out, s[0]);
}
