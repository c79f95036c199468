// fmath.cu: IEEE-exact float and double arithmetic (correctly rounded add,
// sub, mul, fma, sqrt and division) on NaN, -0.0, inf and subnormal inputs.
// Each result is stored separately so the compiler cannot contract a*b+c.
extern "C" __global__ void fmath(const float *a, const float *b, const float *c, float *o, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float x = a[i], y = b[i], z = c[i];
    float *p = o + i * 8;
    p[0] = x + y;
    p[1] = x - y;
    p[2] = x * y;
    p[3] = fmaf(x, y, z);
    p[4] = sqrtf(x);
    p[5] = x / y;
    p[6] = -x;
    p[7] = __fmul_rz(x, y);
}

extern "C" __global__ void dmath(const double *a, const double *b, const double *c, double *o,
                                 int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    double x = a[i], y = b[i], z = c[i];
    double *p = o + i * 6;
    p[0] = x + y;
    p[1] = x * y;
    p[2] = fma(x, y, z);
    p[3] = sqrt(x);
    p[4] = x / y;
    p[5] = x - y;
}

// Compare results: setp with NaN operands is unordered.
extern "C" __global__ void fcompare(const float *a, const float *b, int *o, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float x = a[i], y = b[i];
    o[i] = (x < y) | (x <= y) << 1 | (x > y) << 2 | (x >= y) << 3 | (x == y) << 4 |
           (x != y) << 5 | isnan(x) << 6 | isinf(y) << 7 | signbit(x) << 8;
}
