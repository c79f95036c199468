// minmax.cu: integer min/max/abs (INT_MIN included) and float fminf/fmaxf
// (a NaN operand is ignored).
extern "C" __global__ void minmax(const int *a, const int *b, const float *fa, const float *fb,
                                  int *o, float *fo, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    int x = a[i], y = b[i];
    int *p = o + i * 8;
    p[0] = min(x, y);
    p[1] = max(x, y);
    p[2] = (int)min((unsigned)x, (unsigned)y);
    p[3] = (int)max((unsigned)x, (unsigned)y);
    p[4] = abs(x);
    p[5] = (int)llabs((long long)x * 3);
    p[6] = (int)(llmin((long long)x << 8, (long long)y << 8) >> 8);
    p[7] = x < 0 ? -x : x;
    fo[i * 4 + 0] = fminf(fa[i], fb[i]);
    fo[i * 4 + 1] = fmaxf(fa[i], fb[i]);
    fo[i * 4 + 2] = fabsf(fa[i]);
    fo[i * 4 + 3] = (float)fmin((double)fa[i], (double)fb[i]);
}
