// reduce_block.cu: a block-wide tree reduction in shared memory with
// __syncthreads between steps; one partial sum per block.
extern "C" __global__ void reduce_block(const int *in, int *out, int n)
{
    __shared__ int s[256];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    s[threadIdx.x] = i < n ? in[i] : 0;
    __syncthreads();
    for (int stride = blockDim.x / 2; stride > 0; stride >>= 1) {
        if (threadIdx.x < stride)
            s[threadIdx.x] += s[threadIdx.x + stride];
        __syncthreads();
    }
    if (threadIdx.x == 0)
        out[blockIdx.x] = s[0];
}

// Threads past `active` return before the barrier (common, and fine on
// hardware: exited threads count as arrived); the rest reverse their values
// through shared memory, after a divergent if/else that rejoins first.
extern "C" __global__ void early_return_sync(const int *in, int *out, int active)
{
    __shared__ int s[256];
    int t = threadIdx.x;
    if (t >= active)
        return;
    int v = in[t];
    if (t & 1)
        v = v * 3;
    else
        v = -v;
    s[t] = v;
    __syncthreads();
    out[t] = s[active - 1 - t];
}
