// local_array.cu: per-thread arrays indexed by run-time values live in local
// memory.
extern "C" __global__ void local_array(const int *in, const int *idx, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    int a[24];
    for (int k = 0; k < 24; k++)
        a[k] = in[i] * (k + 1) + k;
    // permute through run-time indices
    for (int k = 0; k < 8; k++) {
        int j = idx[(i + k) % n] % 24;
        int t = a[j];
        a[j] = a[k];
        a[k] = t + j;
    }
    int s = 0;
    for (int k = 0; k < 24; k++)
        s = s * 31 + a[k];
    out[i] = s + a[idx[i] % 24];
}
