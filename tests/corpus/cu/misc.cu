#include <cstdio>
__device__ inline float helper(float x) { return x * x + 1.0f; }
__device__ __forceinline__ float helper2(float x) { return helper(x) * 2.0f; }
__device__ __noinline__ double dfun(double a, double b) { return fma(a, b, 1.0) / (a - b); }
__device__ float (*fptr)(float) = nullptr;
__global__ void k_misc(float *o, const float *__restrict__ in, long long n, unsigned short h, char c) {
    float x = __ldg(&in[threadIdx.x]);
    o[threadIdx.x] = helper2(x) + sinf(x) + expf(x) + logf(x + 1) + rsqrtf(x) + __fdividef(x, 3.0f);
    o[threadIdx.x + 32] = (float)dfun(x, n) + __saturatef(x) + fminf(x, 1.0f) + h + c;
    if (threadIdx.x == 0) { printf("n=%lld\n", n); __trap(); }
}
__global__ void k_vote_loop(int *o, int n) {
    int i = threadIdx.x;
    while (__any_sync(0xffffffff, i < n)) { if (i < n) o[i] = i * 3; i += 32; }
}
