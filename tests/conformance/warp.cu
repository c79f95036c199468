// warp.cu: conformance kernels for warp-level CUDA -- shuffles, votes,
// match, redux, cooperative-groups tiles, elect, and the printf formats,
// __nanosleep and clock64 (only what is deterministic: ordering, not time).
#include <cooperative_groups.h>
#include <cstdio>
namespace cg = cooperative_groups;

#define IDX int i = blockIdx.x * blockDim.x + threadIdx.x; if (i >= n) return

extern "C" __global__ void shuffles(const int *in, int *out, int n)
{
    IDX;
    int v = in[i];
    out[5 * i] = __shfl_sync(0xffffffff, v, (threadIdx.x * 7) % 32);
    out[5 * i + 1] = __shfl_up_sync(0xffffffff, v, 3);
    out[5 * i + 2] = __shfl_down_sync(0xffffffff, v, 5);
    out[5 * i + 3] = __shfl_xor_sync(0xffffffff, v, 9);
    out[5 * i + 4] = __shfl_sync(0xffffffff, v, threadIdx.x + 1, 8);
}

extern "C" __global__ void shuffle_double(const double *in, double *out, int n)
{
    IDX;
    double v = in[i];
    for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffff, v, o);
    out[i] = v;
}

extern "C" __global__ void votes(const unsigned *in, unsigned *out, int n)
{
    IDX;
    int p = (in[i] & 3) == 0;
    out[4 * i] = __ballot_sync(0xffffffff, p);
    out[4 * i + 1] = __any_sync(0xffffffff, p);
    out[4 * i + 2] = __all_sync(0xffffffff, p | (threadIdx.x & 1));
    unsigned lt;
    asm("mov.u32 %0, %%lanemask_lt;" : "=r"(lt));
    out[4 * i + 3] = __activemask() ^ lt;
}

extern "C" __global__ void match_redux(const unsigned *in, unsigned *out, int n)
{
    IDX;
    unsigned v = in[i] % 5;
    int pred;
    out[6 * i] = __match_any_sync(0xffffffff, v);
    out[6 * i + 1] = __match_all_sync(0xffffffff, v / 8, &pred) ^ pred;
    out[6 * i + 2] = __reduce_add_sync(0xffffffff, in[i] >> 8);
    out[6 * i + 3] = __reduce_min_sync(0xffffffff, in[i]);
    out[6 * i + 4] = (unsigned)__reduce_max_sync(0xffffffff, (int)in[i]);
    out[6 * i + 5] = __reduce_xor_sync(0xffffffff, in[i]);
}

extern "C" __global__ void divergent_shuffle(const int *in, int *out, int n)
{
    IDX;
    int v = in[i];
    unsigned m = __ballot_sync(0xffffffff, threadIdx.x % 3 != 0);
    if (threadIdx.x % 3 != 0) {
        int src = __ffs(m) - 1;
        v += __shfl_sync(m, v, src);
    }
    out[i] = v;
}

extern "C" __global__ void cg_tiles(const int *in, int *out, int n)
{
    auto block = cg::this_thread_block();
    auto t8 = cg::tiled_partition<8>(block);
    auto t4 = cg::tiled_partition<4>(block);
    IDX;
    int v = in[i];
    out[4 * i] = t8.shfl_down(v, 1);
    out[4 * i + 1] = t4.any(v & 1) | t8.all(v > 0) << 1;
    out[4 * i + 2] = t8.ballot(v < 0);
    out[4 * i + 3] = cg::coalesced_threads().thread_rank() + 100 * t8.meta_group_rank();
}

extern "C" __global__ void warp_reduce_float(const float *in, float *out, int n)
{
    IDX;
    float v = in[i];
    for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffff, v, o);
    if (threadIdx.x % 32 == 0) out[i / 32] = v;
}

extern "C" __global__ void printf_formats(int k, double d)
{
    if (threadIdx.x != 0 || blockIdx.x != 0)
        return;
    printf("int %d %5d %-5d| %+d %x %X %o %u\n", k, k, k, k, k, k, k, (unsigned)k);
    printf("ll %lld %llx char %c str %s %%\n", (long long)k * 1000000007ll, (unsigned long long)k << 40, 'A' + k % 26,
           "text");
    printf("float %f %.3f %e %.2E %g %G %a\n", d, d, d, d, d, d * 1e10, d);
    printf("width %8.3f|%-10.2e|%010.4f|%+.1f\n", d, d, -d, d);
    printf("ptr-free %5.1s %.0f %g %g\n", "abc", 2.5, 1e-5, 123456789.0);
}

extern "C" __global__ void sleep_clock(unsigned *out, int n)
{
    IDX;
    long long t0 = clock64();
    __nanosleep(100 + threadIdx.x);
    long long t1 = clock64();
    unsigned c0 = (unsigned)clock();
    unsigned c1 = (unsigned)clock();
    out[i] = (t1 >= t0) + 2 * (c1 - c0 < 0x80000000u); // 32-bit wrap-around difference
}

extern "C" __global__ void elect_one(unsigned *out, int n)
{
    IDX;
    unsigned m = __activemask();
    unsigned is_leader;
    asm volatile("{\n\t.reg .pred p;\n\t.reg .b32 l;\n\t"
                 "elect.sync l|p, %1;\n\tselp.u32 %0, 1, 0, p;\n\t}"
                 : "=r"(is_leader) : "r"(m));
    out[i] = is_leader;
}
