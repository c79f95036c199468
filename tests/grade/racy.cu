// grade fixture: out[0] += in[i] from every thread -- a lost-update race.
// Correct for n = 1 (one thread), short or lucky everywhere else.
extern "C" __global__ void block_sum(const int *in, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[0] += in[i];
}
