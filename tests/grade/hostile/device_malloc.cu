// hostile: malloc inside the kernel.
extern "C" __global__ void block_sum(const int *in, int *out, int n)
{
    int *p = (int *)malloc(64 * sizeof(int));
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (p) {
        p[0] = i < n ? in[i] : 0;
        atomicAdd(out, p[0]);
        free(p);
    }
}
