// divergence.cu: divergent branches and loops whose trip count differs per
// lane.
extern "C" __global__ void collatz(const unsigned *in, unsigned *steps, unsigned *peak, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    unsigned x = in[i], s = 0, p = x;
    while (x != 1 && s < 1000) {
        if (x & 1)
            x = 3 * x + 1;
        else
            x >>= 1;
        p = x > p ? x : p;
        s++;
    }
    steps[i] = s;
    peak[i] = p;
}

extern "C" __global__ void branches(const int *in, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    int v = in[i], r;
    switch (v & 3) {
    case 0:
        r = v * 2;
        for (int k = 0; k < (v & 15); k++)
            r ^= r >> 1;
        break;
    case 1:
        r = -v;
        if (threadIdx.x & 4)
            r += 100;
        else
            r -= 7;
        break;
    case 2:
        r = 0;
        for (int k = threadIdx.x & 31; k > 0; k -= 3)
            r += k;
        break;
    default:
        r = v / 3;
        while (r > 10)
            r = r / 2 + 1;
    }
    out[i] = r;
}
