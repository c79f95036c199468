// raw.cu: sin.approx.ftz.f32 / cos.approx.ftz.f32 kernels whose cubin the
// explorer patches (the FMUL by 1/(2 pi) becomes a multiply by 1.0), giving
// the raw MUFU.SIN / MUFU.COS of any argument t.
#include "common.cuh"
extern "C" __global__ void sinraw(u32 *out, u64 base, u32 n, int mode)
{
    for (u32 i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        u32 x = mode == 2 ? fb((float)i * 0x1p-25f) : mode ? fb((float)i * 0x1p-24f) : (u32)(base + i);
        out[i] = i_sin_ftz(x);
    }
}
extern "C" __global__ void cosraw(u32 *out, u64 base, u32 n, int mode)
{
    for (u32 i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        u32 x = mode == 2 ? fb((float)i * 0x1p-25f) : mode ? fb((float)i * 0x1p-24f) : (u32)(base + i);
        out[i] = i_cos_ftz(x);
    }
}
