// warp_redux.cu: __reduce_*_sync and __match_*_sync (sm_80+/sm_70+).
extern "C" __global__ void warp_redux(const unsigned *in, const int *sin, unsigned *sum,
                                      unsigned *umin, int *smax, unsigned *uor,
                                      unsigned *match_any, unsigned *match_all, int *all_pred)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned v = in[i];
    sum[i] = __reduce_add_sync(0xffffffffu, v);
    umin[i] = __reduce_min_sync(0xffffffffu, v);
    smax[i] = __reduce_max_sync(0xffffffffu, sin[i]);
    uor[i] = __reduce_or_sync(0xffffffffu, v);
    match_any[i] = __match_any_sync(0xffffffffu, v & 7);
    int pred;
    match_all[i] = __match_all_sync(0xffffffffu, v >> 29, &pred);
    all_pred[i] = pred;
}
