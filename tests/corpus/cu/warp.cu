#include <cooperative_groups.h>
__global__ void k_warp(int *out, const int *in) {
    int v = in[threadIdx.x];
    for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffff, v, o);
    int x = __shfl_xor_sync(0xffffffff, v, 1);
    int u = __shfl_up_sync(0xffffffff, x, 2, 16);
    int w = __shfl_sync(0xffffffff, u, 3);
    unsigned b = __ballot_sync(0xffffffff, v > 5);
    int all = __all_sync(0xffffffff, v > 0);
    int any = __any_sync(0xffffffff, v < 0);
    unsigned r = __reduce_add_sync(0xffffffff, (unsigned)v);
    unsigned m = __match_any_sync(0xffffffff, v & 3);
    int pred;
    unsigned ma = __match_all_sync(0xffffffff, v, &pred);
    unsigned act = __activemask();
    unsigned lane; asm volatile("mov.u32 %0, %%laneid;" : "=r"(lane));
    unsigned lt; asm("mov.u32 %0, %%lanemask_lt;" : "=r"(lt));
    __syncwarp();
    out[threadIdx.x] = v + x + u + w + b + all + any + r + m + ma + pred + act + lane + lt + __popc(b) + __clz(v) + __ffs(v) + __brev(v);
}
