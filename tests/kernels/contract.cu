// contract.cu: mul and add/sub pairs nvcc leaves to ptxas, which fuses some
// of them into one FMA (sim/contract.h): the simulator must round once
// exactly where the GPU does.
extern "C" __global__ void f4_mul_sub(const float4 *in, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float4 v = in[i];
        out[i] = v.x * v.y - v.z;
    }
}

extern "C" __global__ void dot3(const float *a, const float *b, float *o, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        o[i] = a[3 * i] * b[3 * i] + a[3 * i + 1] * b[3 * i + 1] + a[3 * i + 2] * b[3 * i + 2];
}

// The product is also stored: ptxas keeps the mul and the add apart.
extern "C" __global__ void mul_reused(const float *a, float *o, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float p = a[i] * a[i + n];
        o[i] = p + 1.0f;
        o[i + n] = p;
    }
}

extern "C" __global__ void horner_d(const double *x, double *o, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        double t = x[i];
        o[i] = ((t * 0.5 + 0.25) * t - 0.125) * t + 1.0;
    }
}

// The sum crosses a branch: the mul is in one block, the add in the next.
extern "C" __global__ void mul_then_branch(const float *a, float *o, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float p = a[i] * a[i + n];
    if (a[i] > 0.0f)
        p = p - a[i + 2 * n];
    o[i] = p;
}
