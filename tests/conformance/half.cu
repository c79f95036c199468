// half.cu: conformance kernels for cuda_fp16.h and cuda_bf16.h -- scalar and
// paired arithmetic, comparisons, min/max with and without NaN propagation,
// conversions in every rounding mode.  Inputs are raw 32-bit patterns (two
// halves each, so NaN, infinity and subnormals all occur).
#include <cuda_fp16.h>
#include <cuda_bf16.h>

#define IDX int i = blockIdx.x * blockDim.x + threadIdx.x; if (i >= n) return

static __device__ __half lo_h(unsigned u) { return __ushort_as_half((unsigned short)u); }
static __device__ __half hi_h(unsigned u) { return __ushort_as_half((unsigned short)(u >> 16)); }
static __device__ unsigned hbits(__half h) { return __half_as_ushort(h); }
static __device__ unsigned h2bits(__half2 h) { return *(unsigned *)&h; }
static __device__ __half2 as_h2(unsigned u) { return *(__half2 *)&u; }
static __device__ __nv_bfloat16 lo_b(unsigned u) { return __ushort_as_bfloat16((unsigned short)u); }
static __device__ __nv_bfloat16 hi_b(unsigned u) { return __ushort_as_bfloat16((unsigned short)(u >> 16)); }
static __device__ unsigned bbits(__nv_bfloat16 h) { return __bfloat16_as_ushort(h); }
static __device__ unsigned b2bits(__nv_bfloat162 h) { return *(unsigned *)&h; }
static __device__ __nv_bfloat162 as_b2(unsigned u) { return *(__nv_bfloat162 *)&u; }

extern "C" __global__ void half_arith(const unsigned *a, const unsigned *b, unsigned *out, int n)
{
    IDX;
    __half x = lo_h(a[i]), y = hi_h(a[i]), z = lo_h(b[i]);
    out[11 * i] = hbits(__hadd(x, y));
    out[11 * i + 1] = hbits(__hsub(x, y));
    out[11 * i + 2] = hbits(__hmul(x, y));
    out[11 * i + 3] = hbits(__hfma(x, y, z));
    out[11 * i + 4] = hbits(__hneg(x));
    out[11 * i + 5] = hbits(__habs(y));
    out[11 * i + 6] = hbits(__hmin(x, y));
    out[11 * i + 7] = hbits(__hmax(x, y));
    out[11 * i + 8] = hbits(__hmin_nan(x, y));
    out[11 * i + 9] = hbits(__hmax_nan(x, y));
    out[11 * i + 10] = hbits(__hadd_sat(x, y)) | hbits(__hfma_relu(x, y, z)) << 16;
}

extern "C" __global__ void half2_arith(const unsigned *a, const unsigned *b, unsigned *out, int n)
{
    IDX;
    __half2 x = as_h2(a[i]), y = as_h2(b[i]), z = as_h2(a[(i + 1) % n]);
    out[10 * i] = h2bits(__hadd2(x, y));
    out[10 * i + 1] = h2bits(__hsub2(x, y));
    out[10 * i + 2] = h2bits(__hmul2(x, y));
    out[10 * i + 3] = h2bits(__hfma2(x, y, z));
    out[10 * i + 4] = h2bits(__hneg2(x));
    out[10 * i + 5] = h2bits(__habs2(y));
    out[10 * i + 6] = h2bits(__hmin2(x, y));
    out[10 * i + 7] = h2bits(__hmax2_nan(x, y));
    out[10 * i + 8] = h2bits(__hfma2_relu(x, y, z));
    out[10 * i + 9] = h2bits(__hmul2_sat(x, y));
}

extern "C" __global__ void bf16_arith(const unsigned *a, const unsigned *b, unsigned *out, int n)
{
    IDX;
    __nv_bfloat16 x = lo_b(a[i]), y = hi_b(a[i]), z = lo_b(b[i]);
    out[10 * i] = bbits(__hadd(x, y));
    out[10 * i + 1] = bbits(__hsub(x, y));
    out[10 * i + 2] = bbits(__hmul(x, y));
    out[10 * i + 3] = bbits(__hfma(x, y, z));
    out[10 * i + 4] = bbits(__hneg(x));
    out[10 * i + 5] = bbits(__habs(y));
    out[10 * i + 6] = bbits(__hmin(x, y));
    out[10 * i + 7] = bbits(__hmax(x, y));
    out[10 * i + 8] = bbits(__hmin_nan(x, y));
    out[10 * i + 9] = bbits(__hfma_relu(x, y, z));
}

extern "C" __global__ void bf162_arith(const unsigned *a, const unsigned *b, unsigned *out, int n)
{
    IDX;
    __nv_bfloat162 x = as_b2(a[i]), y = as_b2(b[i]), z = as_b2(a[(i + 1) % n]);
    out[8 * i] = b2bits(__hadd2(x, y));
    out[8 * i + 1] = b2bits(__hsub2(x, y));
    out[8 * i + 2] = b2bits(__hmul2(x, y));
    out[8 * i + 3] = b2bits(__hfma2(x, y, z));
    out[8 * i + 4] = b2bits(__hneg2(x));
    out[8 * i + 5] = b2bits(__habs2(y));
    out[8 * i + 6] = b2bits(__hmax2(x, y));
    out[8 * i + 7] = b2bits(__hmin2_nan(x, y));
}

extern "C" __global__ void half_compare(const unsigned *a, const unsigned *b, unsigned *out, int n)
{
    IDX;
    __half x = lo_h(a[i]), y = (i % 5 == 0) ? lo_h(b[i]) : hi_h(a[i]);
    if (i % 7 == 0) y = x;
    __half2 p = as_h2(a[i]), q = as_h2(b[i]);
    unsigned r = 0;
    r |= __heq(x, y) << 0;
    r |= __hne(x, y) << 1;
    r |= __hlt(x, y) << 2;
    r |= __hle(x, y) << 3;
    r |= __hgt(x, y) << 4;
    r |= __hge(x, y) << 5;
    r |= __hequ(x, y) << 6;
    r |= __hneu(x, y) << 7;
    r |= __hltu(x, y) << 8;
    r |= __hgeu(x, y) << 9;
    r |= __hisnan(x) << 10;
    r |= __hisinf(y) << 11;
    r |= __hbeq2(p, q) << 12;
    r |= __hblt2(p, q) << 13;
    out[3 * i] = r;
    out[3 * i + 1] = h2bits(__hlt2(p, q));
    out[3 * i + 2] = h2bits(__hgeu2(p, q)) ^ __hge2_mask(p, q);
}

extern "C" __global__ void bf16_compare(const unsigned *a, const unsigned *b, unsigned *out, int n)
{
    IDX;
    __nv_bfloat16 x = lo_b(a[i]), y = hi_b(a[i]);
    if (i % 7 == 0) y = x;
    __nv_bfloat162 p = as_b2(a[i]), q = as_b2(b[i]);
    unsigned r = 0;
    r |= __heq(x, y) << 0;
    r |= __hlt(x, y) << 1;
    r |= __hgeu(x, y) << 2;
    r |= __hisnan(x) << 3;
    r |= __hbgt2(p, q) << 4;
    out[2 * i] = r;
    out[2 * i + 1] = b2bits(__hle2(p, q));
}

extern "C" __global__ void half_convert(const unsigned *a, unsigned *out, int n)
{
    IDX;
    float f = __uint_as_float(a[i]);
    if (i % 3 == 1) f = __uint_as_float(a[i] & 0x8fffffff); // into half's range
    double d = (double)f * 1.0000001;
    __half h = lo_h(a[i]);
    out[12 * i] = hbits(__float2half_rn(f));
    out[12 * i + 1] = hbits(__float2half_rz(f));
    out[12 * i + 2] = hbits(__float2half_rd(f));
    out[12 * i + 3] = hbits(__float2half_ru(f));
    out[12 * i + 4] = __float_as_uint(__half2float(h));
    out[12 * i + 5] = h2bits(__float22half2_rn(make_float2(f, -f * 0.5f)));
    out[12 * i + 6] = hbits(__double2half(d));
    out[12 * i + 7] = (unsigned)__half2int_rn(h);
    out[12 * i + 8] = (unsigned)__half2int_rz(h) ^ ((unsigned)__half2uint_rd(h) << 8);
    out[12 * i + 9] = hbits(__int2half_rn((int)a[i] >> (i % 20))) | hbits(__uint2half_rz(a[i] >> 16)) << 16;
    out[12 * i + 10] = (unsigned short)__half2short_rz(h) | hbits(__short2half_rd((short)a[i])) << 16;
    out[12 * i + 11] = (unsigned)__half2ll_rn(h) ^ hbits(__ll2half_ru((long long)a[i] << 20));
}

extern "C" __global__ void bf16_convert(const unsigned *a, unsigned *out, int n)
{
    IDX;
    float f = __uint_as_float(a[i]);
    double d = (double)f * 1.0000001;
    __nv_bfloat16 h = lo_b(a[i]);
    out[10 * i] = bbits(__float2bfloat16_rn(f));
    out[10 * i + 1] = bbits(__float2bfloat16_rz(f));
    out[10 * i + 2] = bbits(__float2bfloat16_rd(f));
    out[10 * i + 3] = bbits(__float2bfloat16_ru(f));
    out[10 * i + 4] = __float_as_uint(__bfloat162float(h));
    out[10 * i + 5] = b2bits(__floats2bfloat162_rn(f, -f * 0.5f));
    out[10 * i + 6] = bbits(__double2bfloat16(d));
    out[10 * i + 7] = (unsigned)__bfloat162int_rn(h);
    out[10 * i + 8] = bbits(__int2bfloat16_rn((int)a[i])) | bbits(__uint2bfloat16_rz(a[i] >> 3)) << 16;
    out[10 * i + 9] = hbits(__float2half(__bfloat162float(h))) | bbits(__float2bfloat16(__half2float(lo_h(a[i])))) << 16;
}

// a dot product in half2 accumulating in float, the common mixed-precision idiom
extern "C" __global__ void half_dot(const unsigned *a, const unsigned *b, float *out, int n)
{
    IDX;
    float acc = 0.0f;
    for (int k = 0; k < 16; k++) {
        unsigned u = (a[(i + k) % n] & 0x3fff3fff) ^ 0x00000000, v = b[(i * 3 + k) % n] & 0xbbffbbff;
        __half2 p = __hmul2(as_h2(u), as_h2(v));
        float2 f = __half22float2(p);
        acc += f.x + f.y;
    }
    out[i] = acc;
}

// the native half-precision special functions (ex2.approx, tanh.approx)
extern "C" __global__ void half_special(const unsigned *a, unsigned *out, int n)
{
    IDX;
    unsigned u = a[i] & 0xbfffbfff, r0, r1, r2, r3;   // |x| < 2 in both formats' halves
    unsigned short h = (unsigned short)u, hb = (unsigned short)(u >> 16);
    asm("ex2.approx.f16 %0, %1;" : "=h"(*(unsigned short *)&r0) : "h"(h));
    asm("tanh.approx.f16x2 %0, %1;" : "=r"(r1) : "r"(u));
    asm("ex2.approx.ftz.bf16x2 %0, %1;" : "=r"(r2) : "r"(u));
    asm("tanh.approx.bf16 %0, %1;" : "=h"(*(unsigned short *)&r3) : "h"(hb));
    out[4 * i] = r0 & 0xffff;
    out[4 * i + 1] = r1;
    out[4 * i + 2] = r2;
    out[4 * i + 3] = r3 & 0xffff;
}
