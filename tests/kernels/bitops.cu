// bitops.cu: population count, leading zeros, bit reverse, find-first-set,
// byte permute, funnel shifts and bit-field extraction by shift and mask.
extern "C" __global__ void bitops(const unsigned *a, const unsigned *b, const unsigned *c,
                                  unsigned *o, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    unsigned x = a[i], y = b[i], s = c[i];
    unsigned *p = o + i * 14;
    p[0] = __popc(x);
    p[1] = __clz((int)x);
    p[2] = __brev(x);
    p[3] = __ffs((int)x);
    p[4] = __byte_perm(x, y, s & 0xffff);
    p[5] = __funnelshift_l(x, y, s);
    p[6] = __funnelshift_r(x, y, s);
    p[7] = __funnelshift_lc(x, y, s);
    p[8] = __funnelshift_rc(x, y, s);
    p[9] = (x >> (s & 31)) & ((1u << (y & 15)) - 1);     // bfe by hand
    p[10] = __popcll(((unsigned long long)x << 32) | y);
    p[11] = __clzll((long long)(((unsigned long long)y << 32) | x)) + 100 * __ffsll((long long)x << 7);
    p[12] = (unsigned)(__brevll(((unsigned long long)x << 32) | y) >> 16);
    p[13] = (unsigned)((int)x >> (s & 31)) ^ (x << (s & 7));
}
