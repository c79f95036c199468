// grade fixture (lesson 12): a right float_max -- an atomic first read, then
// a CAS loop that tries only while its value is still larger than the word.
extern "C" __global__ void float_max(const float *in, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float v = in[i];
    int *addr = (int *)out;
    int old = atomicAdd(addr, 0);
    while (__int_as_float(old) < v) {
        int seen = atomicCAS(addr, old, __float_as_int(v));
        if (seen == old)
            break;
        old = seen;
    }
}
