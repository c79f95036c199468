// contract_h100.cu: runs tests/kernels/contract.ptx through the driver's own
// PTX compiler (cuModuleLoadData, as warpsim's GPU backend does) on the
// inputs tests/test_contract.c uses, and counts which outputs equal the
// fused (one rounding) and the unfused (two roundings) results.
#include <cuda.h>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cmath>
#include <cstdint>
#include <vector>
static float input(uint32_t k)
{
    uint64_t z = k * 0x9e3779b97f4a7c15ull + 0x632be59bd9b4e019ull;
    z = (z ^ (z >> 31)) * 0xbf58476d1ce4e5b9ull;
    z ^= z >> 29;
    uint32_t u = (uint32_t)z;
    uint32_t bits = (u & 0x807fffffu) | (uint32_t)(125 + (u >> 23) % 5) << 23;
    float f; memcpy(&f, &bits, 4); return f;
}
#define N 1024
#define CKD(x) do { CUresult r_ = (x); if (r_) { printf("%s: %d\n", #x, (int)r_); exit(1); } } while (0)
static int same(float a, float b) { return memcmp(&a, &b, 4) == 0; }
int main(int argc, char **argv)
{
    FILE *f = fopen(argv[1], "rb"); fseek(f, 0, SEEK_END); long n = ftell(f); fseek(f, 0, SEEK_SET);
    std::vector<char> ptx(n + 1); fread(ptx.data(), 1, n, f); ptx[n] = 0; fclose(f);
    CKD(cuInit(0)); CUdevice dev; CKD(cuDeviceGet(&dev, 0)); CUcontext ctx; CKD(cuDevicePrimaryCtxRetain(&ctx, dev)); CKD(cuCtxSetCurrent(ctx));
    CUmodule mod; CKD(cuModuleLoadData(&mod, ptx.data()));
    std::vector<float> in(4 * N), out(2 * N);
    for (int k = 0; k < 4 * N; k++) in[k] = input(k);
    CUdeviceptr din, dout; CKD(cuMemAlloc(&din, 4 * 4 * N)); CKD(cuMemAlloc(&dout, 4 * 2 * N));
    CKD(cuMemcpyHtoD(din, in.data(), 4 * 4 * N));
    int nn = N; void *args[] = {&din, &dout, &nn};
    const char *names[] = {"f4_mul_sub", "mul_reused", "mul_then_branch"};
    for (int k = 0; k < 3; k++) {
        CUfunction fn; CKD(cuModuleGetFunction(&fn, mod, names[k]));
        CKD(cuLaunchKernel(fn, N / 128, 1, 1, 128, 1, 1, 0, 0, args, 0));
        CKD(cuCtxSynchronize());
        CKD(cuMemcpyDtoH(out.data(), dout, 4 * 2 * N));
        int one = 0, two = 0, differ = 0;
        for (int i = 0; i < N; i++) {
            float x, y, c, o = out[i], r1, r2;
            if (k == 0) { x = in[4 * i]; y = in[4 * i + 1]; c = -in[4 * i + 2]; }
            else if (k == 1) { x = in[i]; y = in[i + N]; c = 1.0f; }
            else { x = in[i]; y = in[i + N]; c = in[i] > 0.0f ? -in[i + 2 * N] : 0.0f; }
            volatile float p = x * y;
            r2 = (k == 2 && !(in[i] > 0.0f)) ? p : p + c;
            r1 = (k == 2 && !(in[i] > 0.0f)) ? p : fmaf(x, y, c);
            one += same(o, r1); two += same(o, r2); differ += !same(r1, r2);
        }
        printf("%-16s %d outputs: %d equal the fused fma, %d the mul then add (the two differ in %d)\n",
               names[k], N, one, two, differ);
    }
    return 0;
}
