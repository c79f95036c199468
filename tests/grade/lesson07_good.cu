// grade fixture (lesson 7): a right window_sum -- eight reads from global
// memory, neighbouring threads sharing them through L1; no shared memory.
extern "C" __global__ void window_sum(const int *in, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    int s = 0;
    for (int k = i; k < i + 8 && k < n; k++)
        s += in[k];
    out[i] = s;
}
