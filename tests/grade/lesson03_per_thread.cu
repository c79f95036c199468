// grade fixture (lesson 3): the starter as it is -- one atomicAdd for every
// positive element.  The count is right in every test; the rubric's "at
// most one atomicAdd per warp" is not earned.
extern "C" __global__ void count_positive(const int *in, int *count, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n && in[i] > 0)
        atomicAdd(count, 1);
}
