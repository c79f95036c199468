// hostile: #line names /proc/self/environ before a faulting store, so a report that
// reads the file a .loc names would print line 5 of /proc/self/environ.
extern "C" __global__ void block_sum(const int *in, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        atomicAdd(out, in[i]);
#line 5 "/proc/self/environ"
    out[1 << 20] = 1;
}
