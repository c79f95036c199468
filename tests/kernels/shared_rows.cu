// Shared-memory loads and stores by groups of lanes of every shape, for
// exec_mem.c's row handlers (a warp's 4-byte elements one after another)
// against its lane-by-lane path: a prefix of each warp of every length (a
// diverged if), odd lanes reading their even neighbour, one lane alone,
// lanes 28 bytes apart (not a row), and a suffix storing; negative values
// throughout.  tests/test_memrow.c computes the same on the host.

extern "C" __global__ void shared_rows(const int *in, int *out)
{
    __shared__ int s[256 + 32];
    int t = threadIdx.x, b = blockIdx.x;
    int lane = t & 31, k = b % 34; // a prefix of 0 to 33 lanes
    s[t] = in[b * blockDim.x + t];
    if (t < 32)
        s[256 + t] = -t;
    __syncthreads();
    int v = 0;
    if (lane < k)
        v += s[t + 1];
    if (lane & 1)
        v += 3 * s[t ^ 1];
    if (lane == (b & 31))
        v += 5 * s[255 - t];
    if (lane < 16)
        v += 7 * s[(t * 7) & 255];
    __syncthreads();
    if (lane >= k)
        s[t] = v;
    __syncthreads();
    out[b * blockDim.x + t] = s[t] + s[256 + lane];
}

// Lanes [0, 5) of each warp read n * 100 elements past their own: with the
// sweep's n (64) past the block's shared memory, a fault in the first lane.
extern "C" __global__ void shared_rows_past(int *out, int n)
{
    __shared__ int s[64];
    int t = threadIdx.x;
    s[t & 63] = t;
    __syncthreads();
    if ((t & 31) < 5)
        out[t] = s[t + n * 100];
}
