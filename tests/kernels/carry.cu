// carry.cu: extended-precision arithmetic through the carry flag CC.CF
// (add.cc, addc, sub.cc, subc, mad.cc, madc in u32/s32/u64/s64), and sinf /
// cosf of large arguments, whose Payne-Hanek reduction nvcc writes with
// mad.lo.cc / madc chains.

// 128-bit a + b, a - b from four 32-bit words each (words[0] lowest).
__global__ void add_sub_128(const unsigned *a, const unsigned *b, unsigned *sum, unsigned *diff, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    const unsigned *x = a + 4 * i, *y = b + 4 * i;
    unsigned s0, s1, s2, s3, d0, d1, d2, d3;
    asm("add.cc.u32 %0, %4, %8;\n\t"
        "addc.cc.u32 %1, %5, %9;\n\t"
        "addc.cc.s32 %2, %6, %10;\n\t"
        "addc.u32 %3, %7, %11;"
        : "=r"(s0), "=r"(s1), "=r"(s2), "=r"(s3)
        : "r"(x[0]), "r"(x[1]), "r"(x[2]), "r"(x[3]), "r"(y[0]), "r"(y[1]), "r"(y[2]), "r"(y[3]));
    asm("sub.cc.u32 %0, %4, %8;\n\t"
        "subc.cc.u32 %1, %5, %9;\n\t"
        "subc.cc.s32 %2, %6, %10;\n\t"
        "subc.u32 %3, %7, %11;"
        : "=r"(d0), "=r"(d1), "=r"(d2), "=r"(d3)
        : "r"(x[0]), "r"(x[1]), "r"(x[2]), "r"(x[3]), "r"(y[0]), "r"(y[1]), "r"(y[2]), "r"(y[3]));
    sum[4 * i] = s0; sum[4 * i + 1] = s1; sum[4 * i + 2] = s2; sum[4 * i + 3] = s3;
    diff[4 * i] = d0; diff[4 * i + 1] = d1; diff[4 * i + 2] = d2; diff[4 * i + 3] = d3;
}

// [r3,r2,r1,r0] = [x1,x0] * [y1,y0]: the PTX ISA's madc example; and the
// carry out of a 64-bit add.cc / addc.cc.u64 / addc.s64 chain.
__global__ void mul_64x64_and_add_u64(const unsigned *a, const unsigned *b, unsigned *prod,
                                      unsigned long long *wide, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    unsigned x0 = a[4 * i], x1 = a[4 * i + 1], y0 = b[4 * i], y1 = b[4 * i + 1];
    unsigned r0, r1, r2, r3;
    asm("mul.lo.u32 %0, %4, %6;\n\t"
        "mul.hi.u32 %1, %4, %6;\n\t"
        "mad.lo.cc.u32 %1, %5, %6, %1;\n\t"
        "madc.hi.u32 %2, %5, %6, 0;\n\t"
        "mad.lo.cc.u32 %1, %4, %7, %1;\n\t"
        "madc.hi.cc.u32 %2, %4, %7, %2;\n\t"
        "addc.u32 %3, 0, 0;\n\t"
        "mad.lo.cc.u32 %2, %5, %7, %2;\n\t"
        "madc.hi.u32 %3, %5, %7, %3;"
        : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3)
        : "r"(x0), "r"(x1), "r"(y0), "r"(y1));
    prod[4 * i] = r0; prod[4 * i + 1] = r1; prod[4 * i + 2] = r2; prod[4 * i + 3] = r3;
    unsigned long long p = ((unsigned long long)a[4 * i + 3] << 32) | a[4 * i + 2];
    unsigned long long q = ((unsigned long long)b[4 * i + 3] << 32) | b[4 * i + 2];
    unsigned long long lo, hi, top, mlo, mhi;
    asm("add.cc.u64 %0, %3, %4;\n\t"
        "addc.cc.u64 %1, %3, %3;\n\t"
        "addc.s64 %2, 0, 0;"
        : "=l"(lo), "=l"(hi), "=l"(top) : "l"(p), "l"(q));
    asm("mad.lo.cc.u64 %0, %2, %3, %2;\n\t"
        "madc.hi.s64 %1, %2, %3, 0;"
        : "=l"(mlo), "=l"(mhi) : "l"(p), "l"(q));
    wide[5 * i] = lo; wide[5 * i + 1] = hi; wide[5 * i + 2] = top;
    wide[5 * i + 3] = mlo; wide[5 * i + 4] = mhi;
}

__global__ void sin_cos_large(const float *x, float *s, float *c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        s[i] = sinf(x[i]);
        c[i] = cosf(x[i]);
    }
}
