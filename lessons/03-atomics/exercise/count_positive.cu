// Exercise 3: count the positive elements of in into *count (zero on entry)
// with at most one atomicAdd per warp.  Launched with ceil(n / 256) blocks
// of 256 threads.  See README.md.
extern "C" __global__ void count_positive(const int *in, int *count, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    // TODO: one __ballot_sync per warp (every lane votes; lanes past n vote
    // false), then one lane adds the number of set bits (__popc).
    if (i < n && in[i] > 0)
        atomicAdd(count, 1);   // correct, but one atomic per positive element
}
