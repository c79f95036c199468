// grade fixture (lesson 12): one atomicCAS and no loop.  A thread that
// loses the CAS gives up, so a larger value can be lost.
extern "C" __global__ void float_max(const float *in, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float v = in[i];
    int old = *(int *)out;
    if (__int_as_float(old) < v)
        atomicCAS((int *)out, old, __float_as_int(v));
}
