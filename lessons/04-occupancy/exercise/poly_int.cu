// Exercise 4: poly_int -- 48 integer polynomials per element, kept live in
// registers.  It is right, and it needs 56 registers: 50% occupancy with
// 256-thread blocks on sm_90.  Make it reach 75% without changing a single
// result.  See README.md.
#define TERMS 48

extern "C" __global__ void poly_int(const int *x, int *y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    unsigned v = (unsigned)x[i];
    unsigned acc[TERMS];
#pragma unroll
    for (int t = 0; t < TERMS; t++)
        acc[t] = v * (t + 1);
#pragma unroll 1
    for (int k = 0; k < 16; k++) {
#pragma unroll
        for (int t = 0; t < TERMS; t++)
            acc[t] = acc[t] * v + (acc[(t + 7) % TERMS] >> 1) + k;
    }
    unsigned s = 0;
#pragma unroll
    for (int t = 0; t < TERMS; t++)
        s += t & 1 ? 0u - acc[t] : acc[t];
    y[i] = (int)s;
}
