// hostile: malloc inside the kernel, 1 MB a thread and never checked: the
// 8 MB device heap runs out after a few threads, malloc returns NULL as on a
// GPU, and the store through it is a fault the report names.
extern "C" __global__ void block_sum(const int *in, int *out, int n)
{
    int *p = (int *)malloc(1 << 20);
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    p[0] = i < n ? in[i] : 0;
    atomicAdd(out, p[0]);
    free(p);
}
