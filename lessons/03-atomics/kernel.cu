// Lesson 3: atomics.
//
// An atomic function is one read-modify-write of one memory location that no
// other thread can split.  Many threads may update the same location: each
// update happens whole, one after another -- but in an order nobody chose.
// These kernels show what that costs (contention), where it is allowed to be
// cheaper (scope), when the order shows in the result (exchange, CAS, float
// sums), and the reduction that needs almost no atomics at all.
//
// Sums are launched with ceil(n / 256) blocks of 256 threads; a thread past
// n contributes nothing.

#define FULL_MASK 0xffffffffu

// 1. Contention across blocks: every thread of every block adds into out[0].
//    Integer addition is associative and commutative (wrapping included), so
//    any order gives the same total -- but the n updates of one address are
//    done one at a time.
extern "C" __global__ void sum_atomic_i32(const int *in, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        atomicAdd(out, in[i]);
}

// 2. The same with floats.  Float addition is not associative:
//    (a + b) + c and a + (b + c) round differently.  The order of the atomic
//    updates decides the last bits of the sum, and that order changes from
//    run to run.  `warpsim explore` runs it under many orders.
extern "C" __global__ void sum_atomic_f32(const float *in, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        atomicAdd(out, in[i]);
}

// 3. Reduce in registers first: a shuffle tree sums each warp's 32 values,
//    then lane 0 makes one atomicAdd -- 32 times fewer atomics.  The order of
//    the warps' updates still varies, so fewer, but still several, results.
extern "C" __global__ void sum_warp_f32(const float *in, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = i < n ? in[i] : 0.0f;
    for (int d = 16; d > 0; d /= 2)
        v += __shfl_down_sync(FULL_MASK, v, d);
    if (threadIdx.x % 32 == 0)
        atomicAdd(out, v);
}

// 4. Reduce the block: each warp's sum goes to shared memory, warp 0 sums
//    the 8 warp sums, thread 0 makes one atomicAdd for 256 values.
extern "C" __global__ void sum_block_f32(const float *in, float *out, int n)
{
    __shared__ float warp_sums[8];                 // 256 threads = 8 warps
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    float v = i < n ? in[i] : 0.0f;
    for (int d = 16; d > 0; d /= 2)
        v += __shfl_down_sync(FULL_MASK, v, d);
    if (lane == 0)
        warp_sums[warp] = v;
    __syncthreads();                               // all 8 sums written before warp 0 reads
    if (warp == 0) {
        v = lane < 8 ? warp_sums[lane] : 0.0f;
        for (int d = 4; d > 0; d /= 2)
            v += __shfl_down_sync(FULL_MASK, v, d);
        if (lane == 0)
            atomicAdd(out, v);
    }
}

// 5. A float sum that is the same in every run: no atomics at all.  Each
//    block writes its partial sum to its own slot (same tree as 4) ...
extern "C" __global__ void block_partials_f32(const float *in, float *partials, int n)
{
    __shared__ float warp_sums[8];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    float v = i < n ? in[i] : 0.0f;
    for (int d = 16; d > 0; d /= 2)
        v += __shfl_down_sync(FULL_MASK, v, d);
    if (lane == 0)
        warp_sums[warp] = v;
    __syncthreads();
    if (warp == 0) {
        v = lane < 8 ? warp_sums[lane] : 0.0f;
        for (int d = 4; d > 0; d /= 2)
            v += __shfl_down_sync(FULL_MASK, v, d);
        if (lane == 0)
            partials[blockIdx.x] = v;
    }
}

//    ... and a second launch adds the partials in a fixed order.
extern "C" __global__ void sum_in_order_f32(const float *partials, float *out, int m)
{
    if (blockIdx.x == 0 && threadIdx.x == 0) {
        float s = 0.0f;
        for (int k = 0; k < m; k++)
            s += partials[k];
        out[0] = s;
    }
}

// 6. Scope.  atomicAdd is atomic for the whole device (PTX atom.global.add,
//    scope .gpu).  atomicAdd_block is atomic only among the threads of one
//    block (.cta): cheaper, and right when no other block touches the
//    address.  Here each block counts its positive inputs in its own slot:
//    contention only inside the block, so block scope is enough.
extern "C" __global__ void count_per_block(const int *in, int *counts, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n && in[i] > 0)
        atomicAdd_block(&counts[blockIdx.x], 1);
}

//    The same scope on one counter for all blocks is wrong: the updates of
//    different blocks are not atomic with respect to each other.  A GPU may
//    still give the right count today; the program is incorrect all the same
//    (`warpsim run --check races` reports it).
extern "C" __global__ void count_wrong_scope(const int *in, int *count, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n && in[i] > 0)
        atomicAdd_block(count, 1);
}

// 7. When the old value matters, so does the order.
//    atomicExch stores a new value and returns the old one: after the launch
//    `last` holds the index of whichever thread came last, and prev[i] says
//    who came just before thread i.
extern "C" __global__ void last_writer(int *last, int *prev, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        prev[i] = atomicExch(last, i);
}

//    atomicCAS(p, expected, desired) stores desired only if *p == expected,
//    and returns the old value either way: exactly one thread turns -1 into
//    its own index.  Which one depends on the order.
extern "C" __global__ void first_claim(int *owner, int *won, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        won[i] = atomicCAS(owner, -1, i) == -1;
}

//    A ticket dispenser: atomicAdd returns the old count, so every thread gets
//    a different ticket 0 .. n-1 and the counter ends at n -- always.  Which
//    thread holds which ticket changes from run to run.
extern "C" __global__ void take_ticket(int *counter, int *ticket, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        ticket[i] = atomicAdd(counter, 1);
}
