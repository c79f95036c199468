// collect_tanh.cu: MUFU.TANH on [2^-8, 8) at the resolution the unit reads
// (top 19 mantissa bits below 1, 21 from 1 up), for sim/sfu_tables.bin.
#include "common.cuh"
__global__ void k(u32 *out, u32 n)
{
    for (u32 i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        u32 x;
        if (i < (8u << 19)) x = ((i >> 19) + 119u) << 23 | (i & 0x7ffffu) << 4;
        else { u32 j = i - (8u << 19); x = ((j >> 21) + 127u) << 23 | (j & 0x1fffffu) << 2; }
        out[i] = i_tanh(x);
    }
}
int main()
{
    const u32 n = (8u << 19) + (3u << 21);
    u32 *d; CK(cudaMalloc(&d, 4ull * n));
    k<<<1024, 256>>>(d, n);
    CK(cudaDeviceSynchronize());
    u32 *h = (u32 *)malloc(4ull * n);
    CK(cudaMemcpy(h, d, 4ull * n, cudaMemcpyDeviceToHost));
    FILE *f = fopen("tanh.u32", "wb"); fwrite(h, 4, n, f); fclose(f);
    printf("tanh: %u entries\n", n);
    return 0;
}
