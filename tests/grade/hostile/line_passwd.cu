// hostile: #line names /etc/passwd before a faulting store, so a report that
// reads the file a .loc names would print line 5 of /etc/passwd.
extern "C" __global__ void block_sum(const int *in, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        atomicAdd(out, in[i]);
#line 5 "/etc/passwd"
    out[1 << 20] = 1;
}
