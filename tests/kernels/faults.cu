// faults.cu: kernels that go wrong, for the simulator's fault reports.
extern "C" __global__ void oob_store(int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = i;   // no bounds check: the last block writes past n
}

extern "C" __global__ void divergent_barrier(int *out)
{
    __shared__ int s[64];
    s[threadIdx.x] = threadIdx.x;
    if (threadIdx.x < 16)
        __syncthreads();  // only some threads reach the barrier
    out[threadIdx.x] = s[63 - threadIdx.x];
}

extern "C" __global__ void spin(volatile int *flag, int *out)
{
    int k = 0;
    while (*flag == 0)   // nobody ever sets the flag
        k++;
    out[threadIdx.x] = k;
}
