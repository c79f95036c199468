// noinline.cu: a real call to a __noinline__ device function with
// parameters and a return value (including a recursive one).
extern "C" __device__ __noinline__ int mix(int a, int b, unsigned c)
{
    int r = a * 31 + b;
    if (c & 1)
        r ^= (int)(c >> 1);
    return r - (int)c;
}

extern "C" __device__ __noinline__ float fmix(float x, int k)
{
    return x * (float)k + 0.5f;
}

extern "C" __device__ __noinline__ unsigned gcd(unsigned a, unsigned b)
{
    return b == 0 ? a : gcd(b, a % b);
}

extern "C" __global__ void noinline(const int *a, const int *b, int *out, float *fout,
                                    unsigned *g, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    int r = mix(a[i], b[i], (unsigned)i);
    if (r & 1)                      // called from divergent code too
        r = mix(r, 3, 5u);
    out[i] = r;
    fout[i] = fmix((float)a[i], i & 7);
    g[i] = gcd((unsigned)a[i], (unsigned)b[i]);
}
