#include <cstdio>
__device__ __noinline__ int square_plus(int a, float b, double c) {
    return a * a + (int)b + (int)c;
}
__device__ __noinline__ void say(int x) { printf("x=%d %f\n", x, 1.5 * x); }
__device__ __noinline__ float2 pairf(float a) { return make_float2(a, -a); }
__global__ void k_printf(int *out) {
    int v = square_plus(threadIdx.x, 2.5f, 3.25);
    say(v);
    float2 p = pairf(v);
    printf("hello from %d,%d block %d\n", threadIdx.x, threadIdx.y, blockIdx.x);
    out[threadIdx.x] = v + (int)p.x;
}
