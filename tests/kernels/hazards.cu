// hazards.cu: one small kernel per hazard `warpsim run --check races` finds,
// each beside its correct twin (the same work, synchronised).  The
// tests/test_hazards.c checks the hazard kernel is reported with the right
// kind, memory space and .cu line under several schedules, and the twin is
// not.  The line of each access a finding must name carries a marker comment
// "// @NAME" that the test looks up, so this file can change shape freely.
#include <cuda_pipeline.h>

// ---- read-after-write: the last warp of a tree reduction without
// __syncwarp.  Since Volta the lanes of a warp are not in lockstep: lane 0
// may read s[8] before lane 8 has written it.  Block: 64 threads.
extern "C" __global__ void raw_racy(const int *in, int *out)
{
    __shared__ int s[64];
    int t = threadIdx.x;
    s[t] = in[blockIdx.x * 64 + t];
    __syncthreads();
    if (t < 32) {
        s[t] += s[t + 32];
        for (int k = 16; k > 0; k >>= 1)
            if (t < k)
                s[t] += s[t + k]; // @raw
    }
    if (t == 0)
        out[blockIdx.x] = s[0];
}

extern "C" __global__ void raw_ok(const int *in, int *out)
{
    __shared__ int s[64];
    int t = threadIdx.x;
    s[t] = in[blockIdx.x * 64 + t];
    __syncthreads();
    if (t < 32) {
        s[t] += s[t + 32];
        __syncwarp();
        for (int k = 16; k > 0; k >>= 1) {
            if (t < k)
                s[t] += s[t + k];
            __syncwarp();
        }
    }
    if (t == 0)
        out[blockIdx.x] = s[0];
}

// ---- write-after-read: shift left in place.  Thread t reads s[t + 1],
// then overwrites s[t] -- which thread t - 1 may not have read yet.
// Block: 32 threads.
extern "C" __global__ void war_racy(const int *in, int *out)
{
    __shared__ int s[33];
    int t = threadIdx.x;
    s[t] = in[t];
    if (t == 0)
        s[32] = 0;
    __syncthreads();
    int v = s[t + 1];
    s[t] = v; // @war
    __syncthreads();
    out[t] = s[t];
}

extern "C" __global__ void war_ok(const int *in, int *out)
{
    __shared__ int s[33];
    int t = threadIdx.x;
    s[t] = in[t];
    if (t == 0)
        s[32] = 0;
    __syncthreads();
    int v = s[t + 1];
    __syncthreads();
    s[t] = v;
    __syncthreads();
    out[t] = s[t];
}

// ---- write-after-write: every thread of a warp writes that warp's s[w]
// (in a one-warp block: every thread writes s[0]); which value stays
// depends on the schedule.  (One slot per warp keeps the value that stays
// the same here, whatever order the warps run in: tests/test_instrument.c
// compares outputs across schedules.)  Block: 64 threads.
extern "C" __global__ void waw_racy(int *out)
{
    __shared__ int s[32];
    int w = threadIdx.x / 32;
    s[w] = threadIdx.x; // @waw
    __syncthreads();
    if (threadIdx.x % 32 == 0)
        out[blockIdx.x * (blockDim.x / 32) + w] = s[w];
}

extern "C" __global__ void waw_ok(int *out)
{
    __shared__ int s[32];
    int w = threadIdx.x / 32;
    if (threadIdx.x % 32 == 31)
        s[w] = threadIdx.x;
    __syncthreads();
    if (threadIdx.x % 32 == 0)
        out[blockIdx.x * (blockDim.x / 32) + w] = s[w];
}

// ---- global write-after-write between blocks: nothing orders two blocks
// of one launch.  Grid: 4 blocks of 32.
extern "C" __global__ void global_racy(int *out)
{
    if (threadIdx.x == 0)
        out[0] = blockIdx.x; // @global
}

extern "C" __global__ void global_ok(int *out)
{
    if (threadIdx.x == 0)
        out[blockIdx.x] = blockIdx.x;
}

// ---- lost update in shared memory: s[0] = s[0] + x reads, adds, writes;
// two threads that read the same old value lose one update.  Block: 64.
extern "C" __global__ void lost_shared_racy(const int *in, int *out)
{
    __shared__ int s[1];
    if (threadIdx.x == 0)
        s[0] = 0;
    __syncthreads();
    s[0] = s[0] + in[threadIdx.x]; // @lost_shared
    __syncthreads();
    if (threadIdx.x == 0)
        out[blockIdx.x] = s[0];
}

extern "C" __global__ void lost_shared_ok(const int *in, int *out)
{
    __shared__ int s[1];
    if (threadIdx.x == 0)
        s[0] = 0;
    __syncthreads();
    atomicAdd(&s[0], in[threadIdx.x]);
    __syncthreads();
    if (threadIdx.x == 0)
        out[blockIdx.x] = s[0];
}

// ---- lost update in global memory: out[0] += x.  Grid: 2 blocks of 32.
extern "C" __global__ void lost_global_racy(const int *in, int *out)
{
    out[0] += in[blockIdx.x * blockDim.x + threadIdx.x]; // @lost_global
}

extern "C" __global__ void lost_global_ok(const int *in, int *out)
{
    atomicAdd(&out[0], in[blockIdx.x * blockDim.x + threadIdx.x]);
}

// ---- atomic scope: atomicAdd_block is atomic only among the threads of one
// block, and every block updates the same counter.  Grid: 4 blocks of 32.
extern "C" __global__ void scope_racy(int *count)
{
    atomicAdd_block(&count[0], 1); // @scope
}

extern "C" __global__ void scope_ok(int *count)
{
    atomicAdd(&count[0], 1);
}

// The other right way: a counter per block, where .cta scope is enough.
extern "C" __global__ void scope_ok_per_block(int *count)
{
    atomicAdd_block(&count[blockIdx.x], 1);
}

// ---- cp.async read before the wait: the copy lands at
// __pipeline_wait_prior(0), not at issue.  Block: 32 threads.
extern "C" __global__ void cp_async_racy(const int *in, int *out)
{
    __shared__ int s[32];
    int t = threadIdx.x;
    __pipeline_memcpy_async(&s[t], &in[t], sizeof(int));
    __pipeline_commit();
    int v = s[t]; // @cp_async
    __pipeline_wait_prior(0);
    out[t] = v;
}

extern "C" __global__ void cp_async_ok(const int *in, int *out)
{
    __shared__ int s[32];
    int t = threadIdx.x;
    __pipeline_memcpy_async(&s[t], &in[t], sizeof(int));
    __pipeline_commit();
    __pipeline_wait_prior(0);
    __syncthreads(); // the copies of the other threads landed too
    out[t] = s[(t + 1) % 32];
}

// ---- barrier divergence: a __syncthreads() only half the block reaches
// (the other half exits).  Block: 256 threads.
extern "C" __global__ void bar_div_racy(int *out)
{
    __shared__ int s[256];
    s[threadIdx.x] = threadIdx.x;
    if (threadIdx.x < 128) {
        __syncthreads(); // @bar_div
        out[threadIdx.x] = s[threadIdx.x + 128];
    }
}

extern "C" __global__ void bar_div_ok(int *out)
{
    __shared__ int s[256];
    s[threadIdx.x] = threadIdx.x;
    __syncthreads();
    if (threadIdx.x < 128)
        out[threadIdx.x] = s[threadIdx.x + 128];
}

// Barrier divergence of the other sort: a __syncthreads() in a loop whose
// trip count differs by warp, so warps meet at two different barriers.
// Block: 64 threads.
extern "C" __global__ void bar_loop_racy(const int *trips, int *out)
{
    int n = trips[threadIdx.x / 32];
    int acc = 0;
    for (int i = 0; i < n; i++) {
        acc += i;
        __syncthreads(); // @bar_loop
    }
    __syncthreads();
    out[threadIdx.x] = acc;
}

// ---- deadlock: two warps wait at two different named barriers, each
// expecting both warps (64 threads).  Neither is ever complete.  Block: 64.
extern "C" __global__ void deadlock_racy(int *out)
{
    if (threadIdx.x < 32)
        asm volatile("bar.sync 1, 64;" ::: "memory"); // @deadlock
    else
        asm volatile("bar.sync 2, 64;" ::: "memory");
    out[threadIdx.x] = 1;
}

extern "C" __global__ void deadlock_ok(int *out)
{
    asm volatile("bar.sync 1, 64;" ::: "memory");
    out[threadIdx.x] = 1;
}

// ---- a warp exchange: lane t writes s[t], then reads its neighbour's
// s[t ^ 1].  __syncwarp() orders the lanes' writes before their reads;
// without it the lanes of a warp are unordered since Volta (independent
// thread scheduling), so the checker says read-after-write.  Block: 32.
extern "C" __global__ void warp_exchange_racy(const int *in, int *out)
{
    __shared__ int s[32];
    int t = threadIdx.x;
    s[t] = in[t];
    out[t] = s[t ^ 1]; // @exchange
}

extern "C" __global__ void warp_exchange_ok(const int *in, int *out)
{
    __shared__ int s[32];
    int t = threadIdx.x;
    s[t] = in[t];
    __syncwarp();
    out[t] = s[t ^ 1];
}

// ---- mbarrier producer/consumer: warp 0 fills s[] and arrives; warp 1
// waits for the phase to complete, then reads.  Correct: the arrival
// releases warp 0's writes, the completed wait acquires them.  The racy
// version reads before waiting.  Block: 64 threads.
__device__ __forceinline__ unsigned smem_addr(const void *p)
{
    return (unsigned)__cvta_generic_to_shared(p);
}

__device__ __forceinline__ void mbar_init(unsigned long long *bar, unsigned count)
{
    asm volatile("mbarrier.init.shared.b64 [%0], %1;" ::"r"(smem_addr(bar)), "r"(count) : "memory");
}

__device__ __forceinline__ unsigned long long mbar_arrive(unsigned long long *bar)
{
    unsigned long long state;
    asm volatile("mbarrier.arrive.shared.b64 %0, [%1];" : "=l"(state) : "r"(smem_addr(bar)) : "memory");
    return state;
}

// Wait until the phase of parity `parity` has completed.
__device__ __forceinline__ void mbar_wait(unsigned long long *bar, unsigned parity)
{
    unsigned done = 0;
    while (!done)
        asm volatile("{ .reg .pred p; mbarrier.test_wait.parity.shared.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
                     : "=r"(done)
                     : "r"(smem_addr(bar)), "r"(parity)
                     : "memory");
}

extern "C" __global__ void mbarrier_ok(const int *in, int *out)
{
    __shared__ int s[32];
    __shared__ unsigned long long bar;
    int t = threadIdx.x;
    if (t == 0)
        mbar_init(&bar, 32);
    __syncthreads();
    if (t < 32) {
        s[t] = in[t] * 2;
        mbar_arrive(&bar);
    } else {
        mbar_wait(&bar, 0); // phase 0, which the producers complete
        out[t - 32] = s[63 - t];
    }
}

extern "C" __global__ void mbarrier_racy(const int *in, int *out)
{
    __shared__ int s[32];
    __shared__ unsigned long long bar;
    int t = threadIdx.x;
    if (t == 0)
        mbar_init(&bar, 32);
    __syncthreads();
    if (t < 32) {
        s[t] = in[t] * 2;
        mbar_arrive(&bar);
    } else {
        int v = s[63 - t]; // @mbarrier
        mbar_wait(&bar, 0);
        out[t - 32] = v;
    }
}

// ---- a spin on a flag nobody sets: must end as budget-exceeded.
extern "C" __global__ void spin_forever(volatile int *flag, int *out)
{
    while (flag[0] == 0) // @spin
        ;
    out[0] = 1;
}
