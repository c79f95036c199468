// grade fixture (lesson 7): the starter -- right, but a 48 KB shared "cache"
// by hand: four blocks an SM, occupancy 50%.
#define WINDOW 8
#define STAGE 12288                     // ints: 48 KB, far more than a block reads

extern "C" __global__ void window_sum(const int *in, int *out, int n)
{
    __shared__ int stage[STAGE];
    int base = blockIdx.x * blockDim.x;
    for (int k = threadIdx.x; k < blockDim.x + WINDOW - 1; k += blockDim.x)
        stage[k] = base + k < n ? in[base + k] : 0;
    __syncthreads();
    int i = base + threadIdx.x;
    if (i >= n)
        return;
    int s = 0;
    for (int k = 0; k < WINDOW; k++)
        s += stage[threadIdx.x + k];
    out[i] = s;
}
