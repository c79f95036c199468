// convert.cu: conversions between integers and floats with each rounding
// mode, double <-> float, saturation of out-of-range and NaN values, and
// narrow integer casts.
extern "C" __global__ void f2i(const float *f, int *o, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float x = f[i];
    int *p = o + i * 12;
    p[0] = __float2int_rn(x);
    p[1] = __float2int_rz(x);
    p[2] = __float2int_rd(x);
    p[3] = __float2int_ru(x);
    p[4] = (int)__float2uint_rn(x);
    p[5] = (int)__float2uint_rz(x);
    p[6] = (int)(x);                       // C cast: cvt.rzi.s32.f32, saturating
    long long ll = __float2ll_rd(x);
    p[7] = (int)ll;
    p[8] = (int)(ll >> 32);
    unsigned long long ull = __float2ull_ru(x);
    p[9] = (int)ull;
    p[10] = (int)(ull >> 32);
    p[11] = __float_as_int(rintf(x));
}

extern "C" __global__ void i2f(const int *a, const long long *b, float *o, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    int x = a[i];
    long long y = b[i];
    float *p = o + i * 12;
    p[0] = __int2float_rn(x);
    p[1] = __int2float_rz(x);
    p[2] = __int2float_rd(x);
    p[3] = __int2float_ru(x);
    p[4] = __uint2float_rn((unsigned)x);
    p[5] = __uint2float_rz((unsigned)x);
    p[6] = __ll2float_rn(y);
    p[7] = __ll2float_rz(y);
    p[8] = __ll2float_rd(y);
    p[9] = __ull2float_ru((unsigned long long)y);
    p[10] = (float)x;
    p[11] = (float)y;
}

extern "C" __global__ void d2f(const double *a, float *o, double *od, long long *oi, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    double x = a[i];
    float *p = o + i * 4;
    p[0] = __double2float_rn(x);
    p[1] = __double2float_rz(x);
    p[2] = __double2float_rd(x);
    p[3] = __double2float_ru(x);
    od[i] = (double)p[0];
    oi[i * 3 + 0] = __double2ll_rn(x);
    oi[i * 3 + 1] = (long long)__double2int_rz(x);
    oi[i * 3 + 2] = (long long)__double2uint_ru(x);
}

extern "C" __global__ void narrow(const int *a, const float *f, int *o, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    int x = a[i];
    int *p = o + i * 6;
    p[0] = (unsigned char)x;
    p[1] = (signed char)x;
    p[2] = (unsigned short)x;
    p[3] = (short)x;
    p[4] = (unsigned char)(f[i] * 0.5f);  // in-range floats only
    p[5] = (short)(int)(f[i] * 300.0f);
}
