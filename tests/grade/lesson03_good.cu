// grade fixture (lesson 3): a correct count_positive -- every lane of the
// warp votes (lanes past n vote false and read nothing), lane 0 adds the
// warp's __popc once, and only when the warp found something.  Full marks.
extern "C" __global__ void count_positive(const int *in, int *count, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    bool positive = i < n && in[i] > 0;
    unsigned votes = __ballot_sync(0xffffffffu, positive);
    if ((threadIdx.x & 31) == 0 && votes != 0)
        atomicAdd(count, __popc(votes));
}
