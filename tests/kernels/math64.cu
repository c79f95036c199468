// math64.cu: 64-bit integer arithmetic: high halves of products, division
// and remainder by run-time values, variable shifts.
extern "C" __global__ void math64(const unsigned long long *a, const unsigned long long *b,
                                  const unsigned *sh, unsigned long long *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    unsigned long long x = a[i], y = b[i];
    long long sx = (long long)x, sy = (long long)y;
    unsigned s = sh[i];
    unsigned long long *o = out + (size_t)i * 12;
    o[0] = __umul64hi(x, y);
    o[1] = (unsigned long long)__mul64hi(sx, sy);
    o[2] = x * y;
    o[3] = y ? x / y : 0;
    o[4] = y ? x % y : 0;
    o[5] = (sy && !(sy == -1 && sx == (-9223372036854775807LL - 1))) ? (unsigned long long)(sx / sy) : 1;
    o[6] = (sy && sy != -1) ? (unsigned long long)(sx % sy) : 2;
    o[7] = x << (s & 63);
    o[8] = x >> (s & 63);
    o[9] = (unsigned long long)(sx >> (s & 63));
    o[10] = ((unsigned long long)__umulhi((unsigned)x, (unsigned)y) << 32) |
            (unsigned)__mulhi((int)x, (int)y);
    o[11] = (unsigned long long)((unsigned)x / ((unsigned)y | 1u)) << 32 |
            (unsigned)((int)x % ((int)(y >> 40) | 1));
}
