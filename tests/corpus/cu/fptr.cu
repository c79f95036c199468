#include <cuda_fp16.h>
#include <cstdio>
__device__ __noinline__ int add1(int x) { return x + 1; }
__device__ __noinline__ int mul2(int x) { return x * 2; }
typedef int (*op_t)(int);
__device__ op_t ops[2] = {add1, mul2};
__device__ __noinline__ void wide(float4 v, double d, char c, int *p) { p[0] = v.x + v.w + d + c; }
struct Big { int a[5]; };
__device__ __noinline__ Big mkbig(int s) { Big b; for (int i = 0; i < 5; i++) b.a[i] = s + i; return b; }
__global__ void k_fptr(int *out, int sel, cudaTextureObject_t tex) {
    op_t f = ops[sel & 1];
    out[threadIdx.x] = f(threadIdx.x);
    wide(make_float4(1, 2, 3, 4), 2.0, 'c', out);
    Big b = mkbig(threadIdx.x);
    out[1] = b.a[sel % 5];
    float t = tex2D<float>(tex, threadIdx.x * 0.5f, 0.5f);
    out[2] = (int)t;
    if (sel > 100) __brkpt();
    if (sel > 1000) asm("exit;");
}
__device__ __half hh;
