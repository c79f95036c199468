// vote.cu: __ballot_sync, __all_sync, __any_sync and __activemask in
// converged code.
extern "C" __global__ void vote(const int *in, unsigned *ballot, int *all, int *any,
                                unsigned *active, unsigned *ballot_half)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = in[i];
    unsigned b = __ballot_sync(0xffffffffu, v > 0);
    int a = __all_sync(0xffffffffu, v > 0);
    int y = __any_sync(0xffffffffu, v > 100);
    unsigned am = __activemask();
    // only the even lanes take part (a divergent branch)
    unsigned h = 0;
    if ((threadIdx.x & 1) == 0)
        h = __ballot_sync(0x55555555u, v & 1);
    ballot[i] = b;
    all[i] = a;
    any[i] = y;
    active[i] = am;
    ballot_half[i] = h;
}
