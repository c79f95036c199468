// algo.cu: conformance kernels for the algorithms a CUDA course builds --
// bitonic sort, tiled matrix multiply, histogram, transpose, reductions and
// scans with cooperative groups, dynamic shared memory, local arrays, 3D
// grids, float4 loads, 64-bit atomics, cuda::atomic_ref, cuda::pipeline.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>
#include <cuda/atomic>
#include <cuda/pipeline>
namespace cg = cooperative_groups;

#define IDX int i = blockIdx.x * blockDim.x + threadIdx.x; if (i >= n) return

// one block sorts 512 keys in shared memory
extern "C" __global__ void bitonic_sort(const unsigned *in, unsigned *out)
{
    __shared__ unsigned s[512];
    unsigned t = threadIdx.x, base = blockIdx.x * 512;
    s[t] = in[base + t];
    s[t + 256] = in[base + t + 256];
    __syncthreads();
    for (unsigned k = 2; k <= 512; k <<= 1)
        for (unsigned j = k >> 1; j > 0; j >>= 1) {
            for (unsigned idx = t; idx < 512; idx += 256) {
                unsigned p = idx ^ j;
                if (p > idx) {
                    bool up = (idx & k) == 0;
                    unsigned a = s[idx], b = s[p];
                    if ((a > b) == up) { s[idx] = b; s[p] = a; }
                }
            }
            __syncthreads();
        }
    out[base + t] = s[t];
    out[base + t + 256] = s[t + 256];
}

#define TILE 16
// C = A * B, n x n (n a multiple of 16), 16x16 blocks
extern "C" __global__ void tiled_matmul(const float *A, const float *B, float *C, int n)
{
    __shared__ float As[TILE][TILE], Bs[TILE][TILE];
    int row = blockIdx.y * TILE + threadIdx.y, col = blockIdx.x * TILE + threadIdx.x;
    float acc = 0.0f;
    for (int t = 0; t < n / TILE; t++) {
        As[threadIdx.y][threadIdx.x] = A[row * n + t * TILE + threadIdx.x];
        Bs[threadIdx.y][threadIdx.x] = B[(t * TILE + threadIdx.y) * n + col];
        __syncthreads();
        for (int k = 0; k < TILE; k++)
            acc += As[threadIdx.y][k] * Bs[k][threadIdx.x];
        __syncthreads();
    }
    C[row * n + col] = acc;
}

extern "C" __global__ void histogram(const unsigned *in, unsigned *bins, int n)
{
    __shared__ unsigned h[64];
    if (threadIdx.x < 64) h[threadIdx.x] = 0;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        atomicAdd(&h[(in[i] >> 7) % 64], 1u);
    __syncthreads();
    if (threadIdx.x < 64) atomicAdd(&bins[threadIdx.x], h[threadIdx.x]);
}

// out = in^T for an n x n matrix (n a multiple of 32), 32x8 blocks
extern "C" __global__ void transpose(const float *in, float *out, int n)
{
    __shared__ float tile[32][33];
    int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
    for (int j = 0; j < 32; j += 8)
        tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * n + x];
    __syncthreads();
    x = blockIdx.y * 32 + threadIdx.x;
    y = blockIdx.x * 32 + threadIdx.y;
    for (int j = 0; j < 32; j += 8)
        out[(y + j) * n + x] = tile[threadIdx.x][threadIdx.y + j];
}

extern "C" __global__ void cg_reduce(const int *in, int *out, int n)
{
    auto block = cg::this_thread_block();
    auto warp = cg::tiled_partition<32>(block);
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = i < n ? in[i] : 0;
    int s = cg::reduce(warp, v, cg::plus<int>());
    int mx = cg::reduce(warp, v, cg::greater<int>());
    if (warp.thread_rank() == 0) {
        atomicAdd(&out[0], s);
        atomicMax(&out[1], mx);
    }
}

extern "C" __global__ void cg_scan(const int *in, int *out, int n)
{
    auto block = cg::this_thread_block();
    auto tile = cg::tiled_partition<16>(block);
    IDX;
    out[2 * i] = cg::inclusive_scan(tile, in[i] & 0xffff);
    out[2 * i + 1] = cg::exclusive_scan(tile, in[i] >> 20, cg::bit_xor<int>());
}

// the classic shared-memory tree reduction
extern "C" __global__ void block_reduce(const float *in, float *out, int n)
{
    __shared__ float s[256];
    int t = threadIdx.x, i = blockIdx.x * 256 + t;
    s[t] = i < n ? in[i] : 0.0f;
    __syncthreads();
    for (int st = 128; st > 0; st >>= 1) {
        if (t < st) s[t] += s[t + st];
        __syncthreads();
    }
    if (t == 0) out[blockIdx.x] = s[0];
}

extern "C" __global__ void dyn_smem_reverse(const int *in, int *out, int n)
{
    extern __shared__ int buf[];
    int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
    buf[t] = i < n ? in[i] : -1;
    __syncthreads();
    if (i < n) out[i] = buf[blockDim.x - 1 - t];
}

extern "C" __global__ void sync_or_count(const unsigned *in, int *out, int n)
{
    IDX;
    int p = (in[i] % 97) == 0;
    int q = in[i] & 1;
    out[3 * i] = __syncthreads_or(p);
    out[3 * i + 1] = __syncthreads_and(q | (threadIdx.x != 5));
    out[3 * i + 2] = __syncthreads_count(q);
}

extern "C" __global__ void local_array(const unsigned *in, unsigned *out, int n)
{
    IDX;
    unsigned a[24];
    for (int k = 0; k < 24; k++) a[k] = in[(i + k) % n] ^ k;
    for (int k = 0; k < 24; k++) a[(a[k] % 24)] += a[k] >> 3;
    unsigned r = 0;
    for (int k = 0; k < 24; k++) r = r * 31 + a[k];
    out[i] = r;
}

extern "C" __global__ void grid_3d(unsigned *out)
{
    unsigned bx = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
    unsigned tx = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
    unsigned nt = blockDim.x * blockDim.y * blockDim.z;
    out[bx * nt + tx] = (blockIdx.z << 24) | (blockIdx.y << 16) | (threadIdx.z << 12) | (threadIdx.y << 8) |
                        (threadIdx.x << 4) | blockIdx.x;
}

extern "C" __global__ void float4_saxpy(const float4 *x, float4 *y, float a, int n)
{
    IDX;
    float4 v = x[i], w = y[i];
    w.x = a * v.x + w.x;
    w.y = a * v.y + w.y;
    w.z = a * v.z - w.z;
    w.w = v.x * v.y - v.z;
    y[i] = w;
}

extern "C" __global__ void atomics_64(const unsigned long long *in, unsigned long long *acc, int n)
{
    IDX;
    unsigned long long v = in[i];
    atomicAdd(&acc[0], v >> 8);
    atomicMax((long long *)&acc[1], (long long)v);
    atomicMin(&acc[2], v);
    atomicOr(&acc[3], 1ull << (v % 64));
    atomicAnd(&acc[4], v | 0xff00ff00ff00ff00ull);
    atomicXor(&acc[5], v);
    unsigned long long old = acc[6], assumed;
    do { // a CAS loop: order-independent result (a sum)
        assumed = old;
        old = atomicCAS(&acc[6], assumed, assumed + (v & 0xffff));
    } while (old != assumed);
}

extern "C" __global__ void atomic_ref_ops(const int *in, int *acc, int n)
{
    IDX;
    cuda::atomic_ref<int, cuda::thread_scope_device> sum(acc[0]), mn(acc[1]), mx(acc[2]);
    sum.fetch_add(in[i] >> 4, cuda::memory_order_relaxed);
    mn.fetch_min(in[i]);
    mx.fetch_max(in[i]);
    cuda::atomic_ref<int, cuda::thread_scope_block> cnt(acc[3]);
    cnt.fetch_add(1);
}

extern "C" __global__ void pipeline_copy(const float *in, float *out, int n)
{
    __shared__ float buf[2][128];
    auto block = cg::this_thread_block();
#pragma nv_diag_suppress static_var_with_dynamic_init
    __shared__ cuda::pipeline_shared_state<cuda::thread_scope_block, 2> state;
    auto pipe = cuda::make_pipeline(block, &state);
    int chunks = n / 128;
    for (int c = 0; c < 2 && c < chunks; c++) {
        pipe.producer_acquire();
        cuda::memcpy_async(block, buf[c], in + c * 128, sizeof(float) * 128, pipe);
        pipe.producer_commit();
    }
    for (int c = 0; c < chunks; c++) {
        pipe.consumer_wait();
        out[c * 128 + threadIdx.x] = buf[c % 2][127 - threadIdx.x] * 3.0f;
        block.sync();
        pipe.consumer_release();
        if (c + 2 < chunks) {
            pipe.producer_acquire();
            cuda::memcpy_async(block, buf[c % 2], in + (c + 2) * 128, sizeof(float) * 128, pipe);
            pipe.producer_commit();
        }
    }
}

extern "C" __global__ void stencil_1d(const float *in, float *out, int n)
{
    __shared__ float s[128 + 6];
    int g = blockIdx.x * 128 + threadIdx.x, t = threadIdx.x + 3;
    s[t] = g < n ? in[g] : 0.0f;
    if (threadIdx.x < 3) {
        s[threadIdx.x] = g >= 3 ? in[g - 3] : 0.0f;
        s[t + 128] = g + 128 < n ? in[g + 128] : 0.0f;
    }
    __syncthreads();
    float r = 0.0f;
    for (int k = -3; k <= 3; k++) r += s[t + k] * (0.25f * (k + 4));
    if (g < n) out[g] = r;
}

extern "C" __global__ void matvec_double(const double *A, const double *x, double *y, int n)
{
    IDX;
    double acc = 0.0;
    for (int k = 0; k < n; k++) acc = fma(A[i * n + k], x[k], acc);
    y[i] = acc;
}

// Hillis-Steele inclusive scan of one block of 256
extern "C" __global__ void block_scan(const int *in, int *out, int n)
{
    __shared__ int s[2][256];
    int t = threadIdx.x, i = blockIdx.x * 256 + t, p = 0;
    s[0][t] = i < n ? in[i] % 1000 : 0;
    __syncthreads();
    for (int off = 1; off < 256; off <<= 1) {
        s[1 - p][t] = s[p][t] + (t >= off ? s[p][t - off] : 0);
        p = 1 - p;
        __syncthreads();
    }
    if (i < n) out[i] = s[p][t];
}

extern "C" __global__ void saxpy_grid_stride(const float *x, float *y, float a, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        y[i] = a * x[i] + y[i];
}

extern "C" __global__ void atomic_inc_dec(const unsigned *in, unsigned *acc, int n)
{
    IDX;
    atomicInc(&acc[0], 100u);
    atomicDec(&acc[1], 1000u);
    if (in[i] & 1) atomicExch(&acc[2], 7u);
    atomicAdd(&acc[3], in[i] & 0xff);
}

// one atomic per warp: a leader adds the warp's count
extern "C" __global__ void warp_aggregated_count(const int *in, int *count, int n)
{
    IDX;
    bool keep = in[i] > 0;
    unsigned m = __ballot_sync(0xffffffff, keep);
    if ((threadIdx.x & 31) == 0) atomicAdd(count, __popc(m));
}

extern "C" __global__ void char4_add(const char4 *a, const char4 *b, char4 *c, int n)
{
    IDX;
    char4 x = a[i], y = b[i];
    c[i] = make_char4(x.x + y.x, x.y - y.y, (signed char)(x.z * y.z), (signed char)__vabsss4(*(int *)&x));
}
