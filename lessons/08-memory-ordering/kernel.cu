// Lesson 8: memory ordering and barriers -- the last-block pattern (a fence
// and an atomic ticket), volatile reads, and cuda::barrier's phases, with
// what the race checker reports.  The harness (harness.c) runs every kernel
// in the simulator; README.md is the lesson.
#include <cuda/barrier>

// 1. The last-block pattern: every block writes its partial sum, fences,
//    and takes a ticket; the block that draws the last ticket adds the
//    partials.  __threadfence() makes the partial visible to every thread
//    of the device before the ticket is: whoever sees the ticket count
//    reach gridDim.x also sees all the partials.  volatile makes the last
//    block read memory, not a value it may have kept in a register.
//    *total: the sum; *last: which block was last.  blockDim.x = 256.
extern "C" __global__ void last_block_sum(const int *in, int *partial, unsigned *done, int *total, int *last, int n)
{
    __shared__ int s[256];
    __shared__ bool am_last;
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    s[threadIdx.x] = i < n ? in[i] : 0;
    __syncthreads();
    for (int h = 128; h > 0; h >>= 1) {
        if (threadIdx.x < h)
            s[threadIdx.x] += s[threadIdx.x + h];
        __syncthreads();
    }
    if (threadIdx.x == 0) {
        partial[blockIdx.x] = s[0];
        __threadfence();
        unsigned ticket = atomicAdd(done, 1);
        am_last = ticket == gridDim.x - 1;
    }
    __syncthreads();
    if (am_last && threadIdx.x == 0) {
        int t = 0;
        for (int b = 0; b < gridDim.x; b++)
            t += ((volatile int *)partial)[b];
        *total = t;
        *last = blockIdx.x;
    }
}

// 2. The same without the fence: nothing orders the partial's store before
//    the ticket, so the last block may add a partial that is not there yet.
extern "C" __global__ void last_block_nofence(const int *in, int *partial, unsigned *done, int *total, int *last, int n)
{
    __shared__ int s[256];
    __shared__ bool am_last;
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    s[threadIdx.x] = i < n ? in[i] : 0;
    __syncthreads();
    for (int h = 128; h > 0; h >>= 1) {
        if (threadIdx.x < h)
            s[threadIdx.x] += s[threadIdx.x + h];
        __syncthreads();
    }
    if (threadIdx.x == 0) {
        partial[blockIdx.x] = s[0];
        unsigned ticket = atomicAdd(done, 1);
        am_last = ticket == gridDim.x - 1;
    }
    __syncthreads();
    if (am_last && threadIdx.x == 0) {
        int t = 0;
        for (int b = 0; b < gridDim.x; b++)
            t += ((volatile int *)partial)[b];
        *total = t;
        *last = blockIdx.x;
    }
}

#pragma nv_diag_suppress static_var_with_dynamic_init

// 3. cuda::barrier: initialised once, by one thread; each arrive_and_wait
//    completes a phase when all blockDim.x threads have arrived.  Each
//    round writes buf, waits (phase 2r), reads a neighbour's value, and
//    waits again (phase 2r + 1) before the next round overwrites buf.
extern "C" __global__ void phases(int *out, int rounds)
{
    __shared__ cuda::barrier<cuda::thread_scope_block> bar;
    __shared__ int buf[256];
    if (threadIdx.x == 0)
        init(&bar, blockDim.x);
    __syncthreads();
    int acc = 0;
    for (int r = 0; r < rounds; r++) {
        buf[threadIdx.x] = threadIdx.x + r;
        bar.arrive_and_wait();
        acc += buf[(threadIdx.x + 1) % blockDim.x];
        bar.arrive_and_wait();
    }
    out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

// 4. The same with the second wait left out: round r + 1's write to buf can
//    overwrite a value a slower thread has not read yet in round r.
extern "C" __global__ void phases_racy(int *out, int rounds)
{
    __shared__ cuda::barrier<cuda::thread_scope_block> bar;
    __shared__ int buf[256];
    if (threadIdx.x == 0)
        init(&bar, blockDim.x);
    __syncthreads();
    int acc = 0;
    for (int r = 0; r < rounds; r++) {
        buf[threadIdx.x] = threadIdx.x + r;
        bar.arrive_and_wait();
        acc += buf[(threadIdx.x + 1) % blockDim.x];
    }
    out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}
