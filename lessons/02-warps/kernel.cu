// Lesson 2: warp-level programming.
//
// A warp is 32 threads (lanes) that the hardware schedules together.  The
// *_sync intrinsics let the lanes of a warp exchange registers directly --
// no shared memory, no __syncthreads -- and each takes a mask naming the
// lanes that take part.  Every lane named in the mask must reach the call;
// the call waits for them all, then runs once for all of them.

#define FULL_MASK 0xffffffffu

// The lanes of this thread's warp that exist.  A block whose size is not a
// multiple of 32 ends in a partial warp: 48 threads are warp 0 (32 lanes)
// and warp 1 (16 lanes).  A mask must never name a lane that does not exist.
__device__ unsigned existing_lanes()
{
    unsigned first = threadIdx.x / 32 * 32;             // lane 0 of this warp
    unsigned lanes = min(32u, blockDim.x - first);
    return lanes == 32 ? FULL_MASK : (1u << lanes) - 1;
}

// 1. The shuffle reduction.  __shfl_down_sync(mask, v, d) gives lane l the v
//    of lane l + d.  Five steps (d = 16, 8, 4, 2, 1) fold 32 values into lane
//    0: after the step with d, lane l holds the sum of lanes l .. l + 2d - 1.
//    __shfl_xor_sync pairs lane l with lane l ^ d instead (a butterfly): after
//    the same five steps *every* lane holds the total.  Launch full warps; a
//    thread past n contributes 0.
extern "C" __global__ void shuffle_sums(const int *in, int *down_sum, int *xor_sum, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = i < n ? in[i] : 0;
    int w = v;
    for (int d = 16; d > 0; d /= 2)
        v += __shfl_down_sync(FULL_MASK, v, d);   // lanes >= 32 - d read their own v: only lane 0 is exact
    for (int d = 16; d > 0; d /= 2)
        w += __shfl_xor_sync(FULL_MASK, w, d);    // every lane ends with the same total
    if (threadIdx.x % 32 == 0)
        down_sum[i / 32] = v;
    if (i < n)
        xor_sum[i] = w;
}

// 2. Votes.  Every lane passes a predicate; __ballot_sync returns the 32-bit
//    mask of the lanes where it was true (the same value in every lane),
//    __any_sync / __all_sync whether any / all of them were.  __popc counts
//    the bits.  Launched with 48 threads a block, so warp 1 is a partial warp
//    and its mask is 0x0000ffff.
extern "C" __global__ void votes(const int *in, unsigned *ballot, int *any, int *all, int *count)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int w = blockIdx.x * ((blockDim.x + 31) / 32) + threadIdx.x / 32;   // warps of the grid, in order
    unsigned mask = existing_lanes();
    bool positive = in[i] > 0;
    unsigned b = __ballot_sync(mask, positive);
    int a = __any_sync(mask, positive);
    int l = __all_sync(mask, positive);
    if (threadIdx.x % 32 == 0) {
        ballot[w] = b;
        any[w] = a;
        all[w] = l;
        count[w] = __popc(b);
    }
}

// 3. Segments: the optional width (a power of two up to 32) splits the warp
//    into independent segments of `width` lanes; lane numbers in the call
//    are relative to the segment.  The same tree as in 1, with width 8, sums
//    each group of 8 lanes; __shfl_sync(mask, v, 0, 8) then broadcasts each
//    segment's lane 0 to the whole segment.
extern "C" __global__ void segmented_sum(const int *in, int *seg_sum, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = i < n ? in[i] : 0;
    for (int d = 4; d > 0; d /= 2)
        v += __shfl_down_sync(FULL_MASK, v, d, 8);   // never crosses a segment boundary
    v = __shfl_sync(FULL_MASK, v, 0, 8);              // every lane gets its segment's sum
    if (i < n)
        seg_sum[i] = v;
}

// 4. A partial warp reduces with the mask of the lanes that exist.  With 48
//    threads, warp 1 has lanes 0..15; lane l + d may not exist, so each lane
//    reads a lane that does (min(l + d, lanes - 1)) and adds it only when it
//    is the neighbour it wanted.  __reduce_add_sync (redux.sync, sm_80 and
//    later) does the whole tree in one instruction, for any mask.
extern "C" __global__ void partial_warp_sum(const int *in, int *tree_sum, int *redux_sum)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned mask = existing_lanes();
    int lanes = __popc(mask), lane = threadIdx.x % 32;
    int v = in[i];
    int r = __reduce_add_sync(mask, v);
    for (int d = 16; d > 0; d /= 2) {
        int other = __shfl_sync(mask, v, min(lane + d, lanes - 1));
        if (lane + d < lanes)                         // lane + d exists
            v += other;
    }
    int w = blockIdx.x * ((blockDim.x + 31) / 32) + threadIdx.x / 32;
    if (lane == 0) {
        tree_sum[w] = v;
        redux_sum[w] = r;
    }
}

// 5. Match: __match_any_sync returns, in each lane, the mask of the lanes
//    holding the same key.  The lowest lane of each group adds the group's
//    size with one atomicAdd: a histogram of key % bins with one atomic per
//    distinct key per warp instead of one per thread ("warp-aggregated
//    atomics").  __reduce_max_sync (redux.sync) gives the warp's largest bin.
extern "C" __global__ void match_histogram(const unsigned *key, int *hist, unsigned *peers, int *warp_max, int n,
                                           int bins)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int k = i < n ? (int)(key[i] % bins) : -1;        // -1: a padding lane, counted nowhere
    unsigned same = __match_any_sync(FULL_MASK, k);
    int leader = __ffs(same) - 1;                     // lowest lane with this key
    if (k >= 0 && threadIdx.x % 32 == leader)
        atomicAdd(&hist[k], __popc(same));
    int m = (int)__reduce_max_sync(FULL_MASK, (unsigned)(k + 1)) - 1;
    if (i < n)
        peers[i] = same;
    if (threadIdx.x % 32 == 0)
        warp_max[i / 32] = m;
}

// 6. The strange shuffle (a known puzzle): two *different* __shfl_sync calls in
//    two branches, with one mask naming lanes 0..29 of both.  With
//    independent thread scheduling (Volta and later) lanes 0..14 wait at
//    shfl1 until lanes 15..29 reach shfl2; then the 30 lanes exchange values
//    together, each with its own source lane.  Lane 14 reads lane 15's
//    value, which lane 15 supplied at shfl2 (15 * 2 = 30).  Lanes 30 and 31
//    take no part and keep 188.  A pre-Volta GPU reconverges the branches
//    only after both finish, so the two calls can never meet: undefined.
extern "C" __global__ void strange_shuffle_volta(int *out)
{
    const unsigned mask = 0x3fffffff;                 // lanes 0..29
    int swapped = 188;
    if (threadIdx.x < 15) {
        int val = threadIdx.x;
        swapped = __shfl_sync(mask, val, threadIdx.x + 1);          // shfl1
    } else if (threadIdx.x < 30) {
        int val = threadIdx.x * 2;
        swapped = __shfl_sync(mask, val, (threadIdx.x + 2) % 30);   // shfl2
    }
    out[threadIdx.x] = swapped;
}

// 7. __activemask() is not a synchronisation.  It returns the lanes that
//    happen to be executing this instruction together -- it waits for no
//    one.  In a branch that is only the lanes on this side: used as a mask
//    it silently leaves the others out.  __ballot_sync(FULL_MASK, ...) names
//    all 32 lanes, so it waits for the lanes of the other branch (which
//    reach their own ballot) and sees them all.
extern "C" __global__ void activemask_vs_ballot(const int *in, unsigned *active, unsigned *ballot, int *sum)
{
    int lane = threadIdx.x % 32;
    int v = in[threadIdx.x];
    unsigned a, b;
    if (v % 2 == 0) {                                 // even values this way ...
        a = __activemask();
        b = __ballot_sync(FULL_MASK, lane < 16);
    } else {                                          // ... odd ones that way
        a = __activemask();
        b = __ballot_sync(FULL_MASK, lane >= 16);
    }
    active[threadIdx.x] = a;
    ballot[threadIdx.x] = b;
    sum[threadIdx.x] = __reduce_add_sync(a, v);       // WRONG intent: sums only the lanes in a
}
