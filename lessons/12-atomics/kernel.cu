// Lesson 12: all the atomics -- and/or/xor/max/min, compare-and-swap loops,
// cuda::atomic_ref with a scope and a memory order, and what nvcc and ptxas
// make of an atomic whose result nobody reads.  The harness (harness.c)
// runs every kernel in the simulator; README.md is the lesson.
#include <cuda/atomic>

// 1. Five read-modify-writes on five words, one per thread and word:
//    and, or, xor (bits), max, min (signed).  out[] holds the start values
//    (all ones, 0, 0, INT_MIN, INT_MAX); every order gives the same result.
extern "C" __global__ void bit_ops(const int *in, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        int v = in[i];
        atomicAnd(&out[0], v);
        atomicOr(&out[1], v);
        atomicXor(&out[2], v);
        atomicMax(&out[3], v);
        atomicMin(&out[4], v);
    }
}

// 2. There is no atomicMax for float: build it from atomicCAS.  Read the
//    word, compute the new value, and swap it in only if nobody changed the
//    word meanwhile; else try again with what the CAS returned.  The first
//    read is atomic too (adding 0): a plain *addr would race with the CAS of
//    other threads.  tries[0] counts the CAS that failed and went round.
extern "C" __global__ void float_max_cas(const float *in, float *out, int *tries, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float v = in[i];
    int *addr = (int *)out;
    int old = atomicAdd(addr, 0);
    while (__int_as_float(old) < v) {
        int seen = atomicCAS(addr, old, __float_as_int(v));
        if (seen == old)
            break;
        old = seen;
        atomicAdd(tries, 1);
    }
}

// 3. The same add, with its result used and unused.  count_atom keeps each
//    thread's old value (a ticket); count_red throws it away.
extern "C" __global__ void count_atom(int *counter, int *ticket, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        ticket[i] = atomicAdd(counter, 1);
}

extern "C" __global__ void count_red(int *counter, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        atomicAdd(counter, 1);
}

// 4. cuda::atomic_ref: the scope is part of the type, the memory order an
//    argument.  Three counters, one per scope; relaxed is enough for a count.
extern "C" __global__ void scoped_counts(int *per_block, int *device, int *system, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    cuda::atomic_ref<int, cuda::thread_scope_block> b(per_block[blockIdx.x]);
    cuda::atomic_ref<int, cuda::thread_scope_device> d(*device);
    cuda::atomic_ref<int, cuda::thread_scope_system> s(*system);
    b.fetch_add(1, cuda::memory_order_relaxed);
    d.fetch_add(1, cuda::memory_order_relaxed);
    s.fetch_add(1, cuda::memory_order_relaxed);
}

// 5. Relaxed against acquire-release: block 0 writes a payload and then
//    raises a flag; block 1 waits for the flag and reads the payload.  With
//    release/acquire, seeing the flag guarantees seeing the payload; with
//    relaxed it guarantees nothing: the payload's store and the flag's may
//    become visible in either order.
extern "C" __global__ void message_relaxed(int *payload, int *flag, int *seen)
{
    cuda::atomic_ref<int, cuda::thread_scope_device> f(*flag);
    if (threadIdx.x != 0)
        return;
    if (blockIdx.x == 0) {
        payload[0] = 42;
        f.store(1, cuda::memory_order_relaxed);
    } else {
        while (f.load(cuda::memory_order_relaxed) == 0)
            ;
        seen[0] = payload[0];
    }
}

extern "C" __global__ void message_acq_rel(int *payload, int *flag, int *seen)
{
    cuda::atomic_ref<int, cuda::thread_scope_device> f(*flag);
    if (threadIdx.x != 0)
        return;
    if (blockIdx.x == 0) {
        payload[0] = 42;
        f.store(1, cuda::memory_order_release);
    } else {
        while (f.load(cuda::memory_order_acquire) == 0)
            ;
        seen[0] = payload[0];
    }
}
