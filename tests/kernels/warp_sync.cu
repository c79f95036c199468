// warp_sync.cu: warp-synchronous instructions whose results an H100 gave
// (traces/hw/warp-sync-h100.txt); tests/test_warp_sync.c checks the
// simulator against them, and runs them on a GPU with WARPSIM_BACKEND=gpu.
#include <cstdint>

constexpr int sync_thread_num = 30;

// Seed 002: two shuffles in two branches meet, because the mask names both.
extern "C" __global__ void strange_shuffle_volta(int *out)
{
    int swapped = 188;
    constexpr uint32_t mask = 0x3fffffff;
    if (threadIdx.x < 15) {
        int val = threadIdx.x;
        swapped = __shfl_sync(mask, val, threadIdx.x + 1);
    } else if (threadIdx.x < 30) {
        int val = threadIdx.x * 2;
        swapped = __shfl_sync(mask, val, (threadIdx.x + 2) % sync_thread_num);
    }
    out[threadIdx.x] = swapped;
}

// Ballots in two branches meet too; every lane gets the whole vote.
extern "C" __global__ void ballot_two_branches(unsigned *out)
{
    unsigned b;
    if (threadIdx.x < 10)
        b = __ballot_sync(0xffffffff, threadIdx.x & 1);
    else
        b = __ballot_sync(0xffffffff, threadIdx.x > 20);
    out[threadIdx.x] = b;
}

// __activemask() names the lanes running with it: one group per branch.
extern "C" __global__ void activemask_groups(unsigned *out)
{
    unsigned a = 0;
    if (threadIdx.x % 3 == 0)
        a = __activemask();
    else if (threadIdx.x % 3 == 1)
        a = __activemask() | 0x80000000u;
    out[threadIdx.x] = a;
    out[32 + threadIdx.x] = __activemask();
}

// A partial warp (launch with 20 threads): shuffles with widths, sources
// that do not exist, ballot, redux and match over the lanes that do.
extern "C" __global__ void partial_warp(int *out)
{
    unsigned m = __activemask();
    out[threadIdx.x] = __shfl_down_sync(m, (int)threadIdx.x + 1, 3);
    out[32 + threadIdx.x] = __shfl_sync(m, (int)threadIdx.x * 3, threadIdx.x + 5, 8);
    out[64 + threadIdx.x] = __shfl_up_sync(m, (int)threadIdx.x, 2, 16);
    out[96 + threadIdx.x] = __shfl_xor_sync(m, (int)threadIdx.x, 16);
    out[128 + threadIdx.x] = __ballot_sync(m, 1);
    out[160 + threadIdx.x] = __reduce_add_sync(m, threadIdx.x);
    out[192 + threadIdx.x] = __match_any_sync(m, threadIdx.x / 3);
}

// Different shuffles in two branches with one mask never meet: an H100
// hangs; the simulator reports it.
extern "C" __global__ void mismatched_shuffles(int *out)
{
    int r = -1;
    if (threadIdx.x & 1)
        r = __shfl_sync(0xffffffff, (int)threadIdx.x * 100, 0);
    else
        r = __shfl_xor_sync(0xffffffff, (int)threadIdx.x + 7, 1);
    out[threadIdx.x] = r;
}

// A mask naming lanes that have exited.
extern "C" __global__ void mask_names_exited(int *out)
{
    if (threadIdx.x >= 16)
        return;
    out[threadIdx.x] = __shfl_sync(0xffffffff, (int)threadIdx.x, 0);
}

// __syncwarp between two phases of a warp's shared-memory exchange.
extern "C" __global__ void syncwarp_exchange(int *out)
{
    __shared__ int s[32];
    s[threadIdx.x] = threadIdx.x * 7;
    __syncwarp();
    out[threadIdx.x] = s[31 - threadIdx.x];
}

// Lane 0 sets a flag the other lanes of its warp spin on.  Independent
// thread scheduling lets lane 0 go on while they spin (Volta and later); a
// pre-Volta warp runs the spinning lanes forever.
extern "C" __global__ void intra_warp_flag(volatile int *flag, int *out)
{
    if (threadIdx.x == 0) {
        for (int i = 0; i < 100; i++)
            out[1] += i;
        *flag = 1;
    } else {
        while (*flag == 0)
            ;
    }
    out[0] = 7;
}

// One converged warp, two disjoint masks at one instruction: each half is
// a collective of its own.
extern "C" __global__ void two_masks_one_instruction(unsigned *out)
{
    unsigned m = threadIdx.x < 16 ? 0x0000ffffu : 0xffff0000u;
    out[threadIdx.x] = __ballot_sync(m, threadIdx.x & 1);
    out[32 + threadIdx.x] = __reduce_add_sync(m, threadIdx.x);
}
