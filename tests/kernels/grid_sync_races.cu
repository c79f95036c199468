// grid_sync_races.cu: what the race checker makes of cooperative groups'
// grid barrier.  handoff: block b writes its slot, the grid syncs, block b
// reads slot b+1 (another block's write, ordered by the barrier: no race).
// same_slot_after: after the barrier every block writes slot 0 (a race the
// barrier does not order).  same_slot_before: every block writes slot 0
// before the barrier (a race the barrier comes too late to order).
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

extern "C" __global__ void handoff(int *slot, int *out)
{
    cg::grid_group grid = cg::this_grid();
    if (threadIdx.x == 0)
        slot[blockIdx.x] = (int)blockIdx.x * 10;
    grid.sync();
    if (threadIdx.x == 0)
        out[blockIdx.x] = slot[(blockIdx.x + 1) % gridDim.x];
    grid.sync();
    if (threadIdx.x == 0)
        slot[blockIdx.x] = out[(blockIdx.x + gridDim.x - 1) % gridDim.x] + 1;
}

extern "C" __global__ void same_slot_after(int *slot, int *out)
{
    cg::this_grid().sync();
    if (threadIdx.x == 0)
        slot[0] = (int)blockIdx.x;
    if (threadIdx.x == 0)
        out[blockIdx.x] = 1;
}

extern "C" __global__ void same_slot_before(int *slot, int *out)
{
    if (threadIdx.x == 0)
        slot[0] = (int)blockIdx.x;
    cg::this_grid().sync();
    if (threadIdx.x == 0)
        out[blockIdx.x] = 1;
}
