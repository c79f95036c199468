#include <cstdio>
__global__ void reduce_sum(const float *in, float *out, int n) {
    __shared__ float s[256];
    int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
    s[t] = i < n ? in[i] : 0.0f;
    __syncthreads();
    for (int k = blockDim.x / 2; k > 0; k >>= 1) {
        if (t < k) s[t] += s[t + k];
        __syncthreads();
    }
    if (t == 0) atomicAdd(out, s[0]);
}
extern __shared__ double dyn[];
__global__ void dyn_shared(double *out, int n) {
    dyn[threadIdx.x] = threadIdx.x * 2.5;
    __syncthreads();
    double v = 0;
    for (int i = 0; i < n; i++) v += dyn[(threadIdx.x + i) % blockDim.x];
    out[blockIdx.x * blockDim.x + threadIdx.x] = v;
}
