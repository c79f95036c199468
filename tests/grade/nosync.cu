// grade fixture: a shared-memory reduction missing the __syncthreads()
// between steps.  Threads read partial sums other warps may not have
// written yet; it can still come out right, which is why it is a trap.
extern "C" __global__ void block_sum(const int *in, int *out, int n)
{
    __shared__ int s[256];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    s[threadIdx.x] = i < n ? in[i] : 0;
    __syncthreads();
    for (int stride = blockDim.x / 2; stride > 0; stride /= 2) {
        if (threadIdx.x < stride)
            s[threadIdx.x] += s[threadIdx.x + stride];
    }
    if (threadIdx.x == 0)
        atomicAdd(out, s[0]);
}
