// grade fixture (lesson 3): the vote inside if (i < n).  In the last,
// partial warp the lanes past n never reach __ballot_sync, yet its mask
// 0xffffffff names them: undefined behaviour that the simulator reports.
// Right whenever n is a multiple of 32.
extern "C" __global__ void count_positive(const int *in, int *count, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        unsigned votes = __ballot_sync(0xffffffffu, in[i] > 0);
        if ((threadIdx.x & 31) == 0)
            atomicAdd(count, __popc(votes));
    }
}
