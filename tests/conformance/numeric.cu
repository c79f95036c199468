// numeric.cu: conformance kernels for integer and floating-point arithmetic
// a CUDA course writes -- division, rounding intrinsics, conversions, bit
// intrinsics, switch, the math library in single and double precision.
// Inputs are raw 32-bit patterns (buf:u32 rand) or values in [-1, 1) (f32
// rand), scaled inside the kernels.  Launch lines: tests/conformance/suite.txt.
#include <stdint.h>

#define IDX int i = blockIdx.x * blockDim.x + threadIdx.x; if (i >= n) return

extern "C" __global__ void int_div_rem(const int *a, const int *b, int *out, int n)
{
    IDX;
    int y = b[i] >> (i % 29);
    if (y == 0) y = 7;
    if (a[i] == INT32_MIN && y == -1) y = 3;
    out[2 * i] = a[i] / y;
    out[2 * i + 1] = a[i] % y;
}

extern "C" __global__ void uint_div_rem64(const unsigned long long *a, const unsigned long long *b,
                                          unsigned long long *out, int n)
{
    IDX;
    unsigned long long y = b[i] >> (i % 61);
    if (y == 0) y = 13;
    out[2 * i] = a[i] / y;
    out[2 * i + 1] = a[i] % y;
}

extern "C" __global__ void sint_div64(const long long *a, const long long *b, long long *out, int n)
{
    IDX;
    long long y = b[i] >> (i % 50);
    if (y == 0 || (a[i] == INT64_MIN && y == -1)) y = -5;
    out[2 * i] = a[i] / y;
    out[2 * i + 1] = a[i] % y;
}

extern "C" __global__ void rounding(const float *in, float *out, int n)
{
    IDX;
    float x = in[i] * 40.0f;
    if (i % 8 == 0) x = (float)(i / 8) * 0.5f - 8.0f; // exact halves
    out[6 * i] = rintf(x);
    out[6 * i + 1] = roundf(x);
    out[6 * i + 2] = truncf(x);
    out[6 * i + 3] = floorf(x);
    out[6 * i + 4] = ceilf(x);
    out[6 * i + 5] = nearbyintf(x);
}

extern "C" __global__ void float_to_int(const float *in, int *out, int n)
{
    IDX;
    float x = in[i] * 3.0e9f;
    if (i % 4 == 1) x = in[i] * 20.0f;
    out[8 * i] = __float2int_rn(x);
    out[8 * i + 1] = __float2int_rz(x);
    out[8 * i + 2] = __float2int_ru(x);
    out[8 * i + 3] = __float2int_rd(x);
    out[8 * i + 4] = (int)__float2uint_rn(x);
    out[8 * i + 5] = (int)__float2uint_rz(x);
    out[8 * i + 6] = (int)__float2ll_rn(x * 1e10f);
    out[8 * i + 7] = (int)(__float2ull_rz(x * 1e10f) >> 20);
}

extern "C" __global__ void int_to_float(const unsigned *in, float *out, int n)
{
    IDX;
    unsigned u = in[i];
    long long ll = ((long long)u << 31) ^ u;
    out[8 * i] = __int2float_rn((int)u);
    out[8 * i + 1] = __int2float_rz((int)u);
    out[8 * i + 2] = __uint2float_ru(u);
    out[8 * i + 3] = __uint2float_rd(u);
    out[8 * i + 4] = __ll2float_rn(ll);
    out[8 * i + 5] = __ull2float_rz((unsigned long long)ll);
    out[8 * i + 6] = (float)(double)ll;
    out[8 * i + 7] = __int_as_float(u);
}

extern "C" __global__ void double_conv(const unsigned *in, double *out, int n)
{
    IDX;
    unsigned long long bits = ((unsigned long long)in[i] << 32) | in[(i + 1) % n];
    double d = __longlong_as_double((long long)bits);
    float f = __uint_as_float(in[i]);
    out[8 * i] = (double)f;
    out[8 * i + 1] = (double)__double2float_rn(d);
    out[8 * i + 2] = (double)__double2float_rz(d);
    out[8 * i + 3] = (double)__double2float_ru(d);
    out[8 * i + 4] = (double)__double2float_rd(d);
    out[8 * i + 5] = (double)__double2int_rn(d * 1e-300);
    out[8 * i + 6] = __ll2double_rn((long long)bits);
    out[8 * i + 7] = __ull2double_rz(bits);
}

extern "C" __global__ void bit_intrinsics(const unsigned *a, const unsigned *b, unsigned *out, int n)
{
    IDX;
    unsigned x = a[i], y = b[i];
    unsigned long long xy = ((unsigned long long)x << 32) | y;
    out[16 * i] = __popc(x);
    out[16 * i + 1] = __clz(x >> (i % 32));
    out[16 * i + 2] = __ffs(x >> (i % 32));
    out[16 * i + 3] = __brev(x);
    out[16 * i + 4] = __byte_perm(x, y, y & 0x7777);
    out[16 * i + 5] = __funnelshift_l(x, y, i);
    out[16 * i + 6] = __funnelshift_rc(x, y, i);
    out[16 * i + 7] = __umulhi(x, y);
    out[16 * i + 8] = __mul24(x, y);
    out[16 * i + 9] = __sad((int)x, (int)y, 5u);
    out[16 * i + 10] = __popcll(xy);
    out[16 * i + 11] = __clzll(xy >> (i % 64));
    out[16 * i + 12] = (unsigned)__brevll(xy);
    out[16 * i + 13] = (unsigned)(__umul64hi(xy, xy * 3) >> 7);
    out[16 * i + 14] = __hadd((int)x, (int)y) ^ __rhadd((int)x, (int)y);
    out[16 * i + 15] = __fns(x, i % 32, (int)(y % 9) - 4);
}

extern "C" __global__ void switch_table(const unsigned *in, int *out, int n)
{
    IDX;
    int r;
    switch (in[i] % 12) {
    case 0: r = 17; break;
    case 1: r = -3; break;
    case 2: r = in[i] >> 3; break;
    case 3: r = 99; break;
    case 4: r = (int)in[i] * 3; break;
    case 5: r = 1 << (in[i] % 31); break;
    case 6: r = 600; break;
    case 7: r = -700; break;
    case 8: r = 8; break;
    case 9: r = (int)(in[i] ^ 0x5555); break;
    default: r = 0; break;
    }
    out[i] = r;
}

extern "C" __global__ void float_math(const float *in, float *out, int n)
{
    IDX;
    float x = in[i] * 10.0f, y = in[(i + 7) % n] * 4.0f;
    out[12 * i] = sqrtf(fabsf(x));
    out[12 * i + 1] = x / y;
    out[12 * i + 2] = fmaf(x, y, 0.25f);
    out[12 * i + 3] = expf(x);
    out[12 * i + 4] = logf(fabsf(x) + 1e-3f);
    out[12 * i + 5] = sinf(x);
    out[12 * i + 6] = cosf(y);
    out[12 * i + 7] = powf(fabsf(x), y);
    out[12 * i + 8] = tanhf(x);
    out[12 * i + 9] = atan2f(x, y);
    out[12 * i + 10] = erff(y);
    out[12 * i + 11] = cbrtf(x);
}

extern "C" __global__ void float_misc(const float *in, float *out, int n)
{
    IDX;
    float x = in[i] * 50.0f, y = in[(i + 3) % n] * 7.0f;
    if (i % 16 == 5) x = __int_as_float(0x7fc00000);
    int e = 0;
    float fr = frexpf(x, &e);
    out[10 * i] = fminf(x, y);
    out[10 * i + 1] = fmaxf(x, y);
    out[10 * i + 2] = __saturatef(y);
    out[10 * i + 3] = copysignf(x, y);
    out[10 * i + 4] = fmodf(x, y);
    out[10 * i + 5] = remainderf(x, y);
    out[10 * i + 6] = ldexpf(y, i % 40 - 20);
    out[10 * i + 7] = fr + (float)e;
    out[10 * i + 8] = (float)ilogbf(y);
    out[10 * i + 9] = nextafterf(x, y);
}

extern "C" __global__ void fast_math(const float *in, float *out, int n)
{
    IDX;
    float x = in[i] * 8.0f, y = in[(i + 5) % n] * 3.0f + 3.5f;
    out[8 * i] = __expf(x);
    out[8 * i + 1] = __logf(y);
    out[8 * i + 2] = __sinf(x);
    out[8 * i + 3] = __cosf(x);
    out[8 * i + 4] = __fdividef(x, y);
    out[8 * i + 5] = __powf(y, x * 0.25f);
    out[8 * i + 6] = rsqrtf(y);
    out[8 * i + 7] = __frcp_rn(y) + __fsqrt_rz(y) + __fmul_ru(x, y) + __fadd_rd(x, y);
}

extern "C" __global__ void double_math(const double *in, double *out, int n)
{
    IDX;
    double x = in[i] * 20.0, y = in[(i + 11) % n] * 3.0;
    out[10 * i] = sqrt(fabs(x));
    out[10 * i + 1] = x / y;
    out[10 * i + 2] = fma(x, y, 0.125);
    out[10 * i + 3] = exp(x);
    out[10 * i + 4] = log(fabs(x) + 1e-9);
    out[10 * i + 5] = sin(x);
    out[10 * i + 6] = cos(y);
    out[10 * i + 7] = pow(fabs(x), y);
    out[10 * i + 8] = rint(x) + floor(y) + trunc(x * y);
    out[10 * i + 9] = __dmul_rz(x, y) + __dadd_ru(x, y) + __drcp_rn(y) + __dsqrt_rd(fabs(x));
}

extern "C" __global__ void integer_misc(const int *a, const int *b, long long *out, int n)
{
    IDX;
    int x = a[i], y = b[i];
    out[8 * i] = abs(x);
    out[8 * i + 1] = min(x, y);
    out[8 * i + 2] = max((unsigned)x, (unsigned)y);
    out[8 * i + 3] = (long long)x * y;
    out[8 * i + 4] = __mulhi(x, y);
    out[8 * i + 5] = llabs((long long)x * y);
    out[8 * i + 6] = (long long)((unsigned long long)x * (unsigned)y) >> (i % 64);
    out[8 * i + 7] = (short)x * (signed char)y;
}

extern "C" __global__ void dot_and_masks(const unsigned *a, const unsigned *b, unsigned *out, int n)
{
    IDX;
    unsigned x = a[i], y = b[i], z = a[(i + 1) % n], r0, r1, r2, r3;
    out[8 * i] = (unsigned)__dp4a((int)x, (int)y, (int)z);
    out[8 * i + 1] = __dp4a(x, y, z);
    out[8 * i + 2] = (unsigned)__dp2a_lo((int)x, (int)y, (int)z);
    out[8 * i + 3] = __dp2a_hi(x, y, z);
    asm("lop3.b32 %0, %1, %2, %3, 0x6a;" : "=r"(r0) : "r"(x), "r"(y), "r"(z));
    asm("bmsk.clamp.b32 %0, %1, %2;" : "=r"(r1) : "r"(x & 63), "r"(y & 63));
    asm("szext.wrap.s32 %0, %1, %2;" : "=r"(r2) : "r"(x), "r"(y));
    asm("szext.clamp.u32 %0, %1, %2;" : "=r"(r3) : "r"(x), "r"(y & 63));
    out[8 * i + 4] = r0;
    out[8 * i + 5] = r1;
    out[8 * i + 6] = r2;
    out[8 * i + 7] = r3;
}
