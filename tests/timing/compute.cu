// compute.cu: the timing suite's ILP-against-TLP family (tests/timing/
// families.txt): 1, 2 or 4 independent chains of dependent FMAs per thread.
// With one warp per scheduler a chain waits out the FMA latency; independent
// chains (ILP) or more warps (TLP) fill those cycles.  Every thread does
// n x C FMAs; m and c come from the launch so nothing folds at compile time.
template <int C>
__device__ void chains(float *out, int n, float m, float c)
{
    float a[C];
#pragma unroll
    for (int k = 0; k < C; k++)
        a[k] = (float)(threadIdx.x + k);
#pragma unroll 4
    for (int i = 0; i < n; i++) {
#pragma unroll
        for (int k = 0; k < C; k++)
            a[k] = fmaf(a[k], m, c);
    }
    float s = 0.0f;
#pragma unroll
    for (int k = 0; k < C; k++)
        s += a[k];
    if (s == -1.0f)
        out[0] = s;
}

extern "C" __global__ void fma_ilp1(float *out, int n, float m, float c) { chains<1>(out, n, m, c); }
extern "C" __global__ void fma_ilp2(float *out, int n, float m, float c) { chains<2>(out, n, m, c); }
extern "C" __global__ void fma_ilp4(float *out, int n, float m, float c) { chains<4>(out, n, m, c); }
