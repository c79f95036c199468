// grade fixture (lesson 12): atomicMax on the float's bits as an int.  Right
// while the max is positive (positive floats order like their bits); wrong
// when every input is negative: -4.0f's bits are a larger int than -0.5f's.
extern "C" __global__ void float_max(const float *in, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        atomicMax((int *)out, __float_as_int(in[i]));
}
