__constant__ float coeffs[8] = {1.0f, 2.0f, 0.5f, -1.0f, 3.25f, 0.0f, 1e-3f, 7.0f};
__constant__ int ci = 42;
__constant__ double cd[2] = {1.0, -2.5};
__device__ int gvals[4] = {1, 2, 3, 4};
__device__ float gf = 3.5f;
__device__ int *gptrs[3] = {&gvals[0], &gvals[2], 0};
__device__ float *gfp = &gf;
__device__ char gstr[] = "hello";
__device__ short gs[3] = {1, -2, 3};
__device__ unsigned long long gbig = 0x123456789abcdefULL;
struct S { int a; float b; int *p; };
__device__ S gS = {1, 2.0f, &gvals[1]};
__device__ int gmat[2][3] = {{1,2,3},{4,5,6}};
__global__ void k_local(float *out, int idx, int n) {
    float loc[64];
    for (int i = 0; i < 64; i++) loc[i] = coeffs[i & 7] * i + ci;
    out[threadIdx.x] = loc[idx & 63] + cd[idx & 1] + *gptrs[idx & 1] + *gfp + gstr[idx % 5] + gs[idx%3] + gS.b + *gS.p + gmat[idx&1][idx%3] + (float)gbig;
    volatile int vl[16]; vl[idx & 15] = n; out[0] += vl[(idx+1)&15];
}
