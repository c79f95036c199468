// hoist.cu: loads that the timing model may issue ahead of an instruction
// waiting for its operands (sim/timing_hoist.c) and loads it must not.
// tests/test_timing_identical.c runs every entry with the model on and off
// (grid 4 x block 128, each pointer its own 64 KB buffer, n = 64) and
// compares every byte; tests/test_timing_hoist.c watches the issue order.

// A tile through shared memory: the PTX stores each loaded element to the
// tile before the next load; the loads may go first (a global load passes a
// shared store), the guarded one too.
extern "C" __global__ void tile_through_shared(const float *in, float *out, int n)
{
    __shared__ float t[32][33];
    int x = threadIdx.x & 31, y = threadIdx.x >> 5, base = blockIdx.x * 1024;
    for (int j = 0; j < 32; j += 4)
        t[y + j][x] = in[(base + (y + j) * 32 + x) & 16383];
    if (x & 1)
        t[y][x] += in[(base + x * 7) & 16383];
    __syncthreads();
    for (int j = 0; j < 32; j += 4)
        out[base + (y + j) * 32 + x] = t[x][y + j] + (float)n;
}

// A load after a global store to the same array: it reads what the
// neighbour lane of its own warp just stored, so it must stay after it.
extern "C" __global__ void load_after_global_store(int *a, int n)
{
    int g = blockIdx.x * blockDim.x + threadIdx.x;
    int v = a[g] * 3 + n;
    a[g] = v;
    int w = a[g ^ 1];
    a[g + 8192] = v + w;
}

// A shared load after a store through a generic pointer that points into
// shared memory here: it must see the neighbour lane's generic store.
extern "C" __global__ void load_after_generic_store(int *a, const int *b, int n)
{
    __shared__ int s[128];
    int t = threadIdx.x;
    s[t] = b[blockIdx.x * 128 + t];
    int *p = n > 32 ? &s[t ^ 1] : &a[t];
    *p = t * 7 + n;
    int r = s[t];
    a[blockIdx.x * 128 + t + 4096] = r + b[(blockIdx.x * 128 + t + 1) & 8191];
}
