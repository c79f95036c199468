// Lesson 1: the thread hierarchy, and a race.
//
// Every kernel here adds the n integers of `in` into out[0] (zero on entry),
// launched with ceil(n / 256) blocks of 256 threads.  Only how the threads
// combine their values differs -- and that decides whether the answer is right.

// Who am I?  Each thread records where it sits in the hierarchy:
// its block, its warp inside the block, its lane inside the warp.
extern "C" __global__ void hierarchy(int *block_of, int *warp_of, int *lane_of, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;   // global thread index
    if (i < n) {
        block_of[i] = blockIdx.x;
        warp_of[i] = threadIdx.x / warpSize;          // warps are 32 consecutive threads
        lane_of[i] = threadIdx.x % warpSize;
    }
}

// 1. The race: read out[0], add, write it back.  Thousands of threads do this
//    at once; two that read the same old value both write old + x, and one
//    update is lost.  The result is short, and changes from run to run.
extern "C" __global__ void racy_sum(const int *in, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[0] = out[0] + in[i];
}

// 2. atomicAdd makes each read-modify-write indivisible: correct; the PTX
//    asks for one atomic per thread, every one on the same address.
extern "C" __global__ void atomic_sum(const int *in, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        atomicAdd(out, in[i]);
}

// 3. Stage in shared memory: the block sums its 256 values in fast on-chip
//    memory (a tree, halving the active threads each step, with a barrier
//    between steps), then one thread does one atomicAdd for the whole block.
extern "C" __global__ void staged_sum(const int *in, int *out, int n)
{
    __shared__ int s[256];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    s[threadIdx.x] = i < n ? in[i] : 0;   // threads past n contribute 0
    __syncthreads();                      // every value is in s[] before anyone reads
    for (int stride = blockDim.x / 2; stride > 0; stride /= 2) {
        if (threadIdx.x < stride)
            s[threadIdx.x] += s[threadIdx.x + stride];
        __syncthreads();                  // this step is finished before the next
    }
    if (threadIdx.x == 0)
        atomicAdd(out, s[0]);             // one atomic per block
}
