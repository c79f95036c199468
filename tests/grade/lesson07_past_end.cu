// grade fixture (lesson 7): window_sum with no bound on the window: the last
// seven threads read past the end of in.
extern "C" __global__ void window_sum(const int *in, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    int s = 0;
    for (int k = 0; k < 8; k++)
        s += in[i + k];
    out[i] = s;
}
