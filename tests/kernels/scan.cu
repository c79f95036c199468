// scan.cu: a block-wide inclusive scan (Hillis-Steele, double-buffered in
// shared memory).
extern "C" __global__ void scan_block(const int *in, int *out, int n)
{
    __shared__ int buf[2][512];
    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    int cur = 0;
    buf[0][t] = i < n ? in[i] : 0;
    __syncthreads();
    for (int o = 1; o < blockDim.x; o <<= 1) {
        int v = buf[cur][t];
        if (t >= o)
            v += buf[cur][t - o];
        buf[cur ^ 1][t] = v;
        cur ^= 1;
        __syncthreads();
    }
    if (i < n)
        out[i] = buf[cur][t];
}
