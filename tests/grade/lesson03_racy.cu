// grade fixture (lesson 3): the warp's count added with a plain += instead
// of atomicAdd.  Lane 0 of each warp reads *count, adds and writes it back;
// two warps doing that at once lose one update.  Right for n <= 32 (one
// warp), a race everywhere.
extern "C" __global__ void count_positive(const int *in, int *count, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned votes = __ballot_sync(0xffffffffu, i < n && in[i] > 0);
    if ((threadIdx.x & 31) == 0)
        *count += __popc(votes);
}
