// sm_threads.cu: kernels for tests/test_sm_threads.c -- one launch's SMs on
// several threads must give exactly what one thread gives, for kernels
// whose blocks share nothing (they run side by side) and for kernels whose
// blocks meet in global memory (the launch runs again on one thread).

// Blocks share nothing: each scales its own part and writes one partial sum.
extern "C" __global__ void scale_parts(const float *in, float *out, float *part, int n)
{
    __shared__ float s[256];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = i < n ? in[i] * 1.5f : 0.0f;
    if (i < n)
        out[i] = v;
    s[threadIdx.x] = v;
    __syncthreads();
    for (int k = blockDim.x / 2; k > 0; k >>= 1) {
        if (threadIdx.x < k)
            s[threadIdx.x] += s[threadIdx.x + k];
        __syncthreads();
    }
    if (threadIdx.x == 0)
        part[blockIdx.x] = s[0];
}

// Every block doubles its part in place, then counts itself on one counter
// without an atomic (a race: the serial run's count is what it is): SMs
// meet at the counter, and the doubling must not happen twice when the
// launch runs again.
extern "C" __global__ void double_and_tally(float *x, int n, unsigned *tally)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] *= 2.0f;
    if (threadIdx.x == 0)
        tally[0] = tally[0] + 1;
}

// The same with an atomic counter: on one thread without trying.
extern "C" __global__ void double_and_count(float *x, int n, unsigned *count)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] *= 2.0f;
    if (threadIdx.x == 0)
        atomicAdd(count, 1u);
}

// Block b reads what block b - 1 wrote (a race across blocks: what it reads
// depends on which ran first), and writes its own word.
extern "C" __global__ void chain(int *a)
{
    if (threadIdx.x == 0)
        a[blockIdx.x + 1] = a[blockIdx.x] + 1;
}

// Shared-memory atomics only (a histogram per block), then each block's
// bins written to its own words: nothing global in common.
extern "C" __global__ void block_hist(const unsigned *in, unsigned *out, int n)
{
    __shared__ unsigned bins[16];
    if (threadIdx.x < 16)
        bins[threadIdx.x] = 0;
    __syncthreads();
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        atomicAdd(&bins[in[i] & 15], 1u);
    __syncthreads();
    if (threadIdx.x < 16)
        out[blockIdx.x * 16 + threadIdx.x] = bins[threadIdx.x];
}

// The last block writes one word past the end; every block writes first.
extern "C" __global__ void late_oob(int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i < n ? i : 0] = i;
    if (blockIdx.x == gridDim.x - 1 && threadIdx.x == 0)
        out[n] = -1;
}

// Never ends: the launch stops at its instruction budget.
extern "C" __global__ void forever(int *out)
{
    int k = threadIdx.x;
    while (k >= 0)
        k = (k * 5 + 1) & 0x7fffffff;
    out[0] = k;
}

// Every element doubled in place (read, then written) by waves of blocks,
// then the last block writes past the end: the launch runs again on one
// thread, from memory put back as it was before it -- the pages read and
// then written in the rounds that passed too (x doubled once, not twice).
extern "C" __global__ void double_then_oob(float *x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] *= 2.0f;
    if (blockIdx.x == gridDim.x - 1 && threadIdx.x == 0)
        x[n] = -1.0f;
}

// Blocks below `first` compute (a loop, one store per block); the others
// copy in (1024 x 128) to out transposed, each warp's store 32 words 4 KB
// apart: keeping track of those stores costs more than simulating them.
// With first = 0 the first round shows it (the launch runs again on one
// thread); with the first wave computing, a later round does (the launch
// goes on on one thread from there).
extern "C" __global__ void compute_then_transpose(const float *in, float *out, float *part, int first)
{
    const int rows = 1024, cols = 128;
    if (blockIdx.x < first) {
        float v = threadIdx.x;
        for (int k = 0; k < 100; k++)
            v = v * 0.999f + 1.0f;
        if (threadIdx.x == 0)
            part[blockIdx.x] = v;
        return;
    }
    int i = (blockIdx.x - first) * blockDim.x + threadIdx.x;
    if (i < rows * cols)
        out[(i % cols) * rows + i / cols] = in[i];
}

// Each block writes its own byte of one small buffer: blocks on different
// threads share words and pages, never a byte.
extern "C" __global__ void byte_per_block(unsigned char *out)
{
    if (threadIdx.x == 0)
        out[blockIdx.x] = (unsigned char)(blockIdx.x * 7 + 1);
}

// Block b gathers (lanes at scattered words, not one range) what block
// b - 1 wrote: a race across blocks that the notes of a gather (its pages)
// must catch.
extern "C" __global__ void gather_chain(int *a)
{
    int l = threadIdx.x;
    int v = a[blockIdx.x * 32 + (l * 5 % 16) * 2];
    a[(blockIdx.x + 1) * 32 + l] = v + 1;
}
