// lesson06_past_end.cu: exercise 6 rounding n / 4 up -- the last int4
// runs past the end of x and y when n is not a multiple of 4.
extern "C" __global__ void axpy(const int *x, int *y, int n, int a)
{
    int stride = gridDim.x * blockDim.x;
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    const int4 *x4 = (const int4 *)x;
    int4 *y4 = (int4 *)y;
    for (int i = t; i < (n + 3) / 4; i += stride) {
        int4 u = x4[i], v = y4[i];
        v.x += a * u.x;
        v.y += a * u.y;
        v.z += a * u.z;
        v.w += a * u.w;
        y4[i] = v;
    }
}
