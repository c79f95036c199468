// shuffle.cu: warp-shuffle reductions, scans and broadcasts.
#define FULL 0xffffffffu

// Each warp sums its 32 values with __shfl_down_sync; lane 0 writes.
extern "C" __global__ void shfl_down_sum(const int *in, int *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = in[i];
    for (int o = 16; o > 0; o >>= 1)
        v += __shfl_down_sync(FULL, v, o);
    if ((threadIdx.x & 31) == 0)
        out[i / 32] = v;
}

// Butterfly reduction: every lane ends with the warp's maximum and sum.
extern "C" __global__ void shfl_xor_allreduce(const int *in, int *sum, int *mx)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int s = in[i], m = in[i];
    for (int o = 1; o < 32; o <<= 1) {
        s += __shfl_xor_sync(FULL, s, o);
        m = max(m, __shfl_xor_sync(FULL, m, o));
    }
    sum[i] = s;
    mx[i] = m;
}

// Inclusive scan inside each warp with __shfl_up_sync.
extern "C" __global__ void shfl_up_scan(const int *in, int *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x & 31;
    int v = in[i];
    for (int o = 1; o < 32; o <<= 1) {
        int t = __shfl_up_sync(FULL, v, o);
        if (lane >= o)
            v += t;
    }
    out[i] = v;
}

// Sub-warp segments: broadcast from lane src of each 8-lane segment, a
// segmented down-sum over 16 lanes, an up-shift by 3 in segments of 4 and an
// xor inside segments of 16.
extern "C" __global__ void shfl_width(const int *in, const int *src, int *bc, int *dsum,
                                      int *up, int *bx)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = in[i];
    bc[i] = __shfl_sync(FULL, v, src[i], 8);
    int s = v;
    for (int o = 8; o > 0; o >>= 1)
        s += __shfl_down_sync(FULL, s, o, 16);
    dsum[i] = s;
    up[i] = __shfl_up_sync(FULL, v, 3, 4);
    bx[i] = __shfl_xor_sync(FULL, v, 5, 16);
}
