// async_barrier.cu: cuda::barrier with cuda::memcpy_async, whose PTX arrives
// with mbarrier.arrive.shared::cta.b64 (issue 14: a false out-of-bounds).
#include <cuda/barrier>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
// Each block copies 256 floats into shared memory with cuda::memcpy_async
// tracked by a cuda::barrier, then writes them back doubled.
__global__ void barrier_copy(const float *in, float *out)
{
    __shared__ float tile[256];
#pragma nv_diag_suppress static_var_with_dynamic_init
    __shared__ cuda::barrier<cuda::thread_scope_block> bar;
    auto block = cg::this_thread_block();
    if (block.thread_rank() == 0)
        init(&bar, block.size());
    block.sync();
    cuda::memcpy_async(block, tile, in + blockIdx.x * 256, sizeof(tile), bar);
    bar.arrive_and_wait();
    out[blockIdx.x * 256 + threadIdx.x] = 2.0f * tile[255 - threadIdx.x];
}
