// grade fixture (lesson 7): window_sum that writes only full windows: the
// last seven outputs stay 0.
extern "C" __global__ void window_sum(const int *in, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i + 8 > n)
        return;
    int s = 0;
    for (int k = 0; k < 8; k++)
        s += in[i + k];
    out[i] = s;
}
