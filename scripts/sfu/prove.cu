// prove.cu: the exhaustive proof of the simulator's special functions on an
// H100.  For every variant and every 32-bit input (every b for division by
// three fixed a, and 2^32 pseudo-random pairs): the real instruction, a
// CUDA port of sim/alu_sfu.c's algorithm on the simulator's own decoded
// tables, and (prove_host.c) the simulator's C code itself on the host.
// Prints mismatch counts; writes the recorded samples for make test.
#include "common.cuh"
#include "prove_host.h"
extern "C" {
#include "sfu_table.h"
uint16_t alu_f16_ex2_approx(uint16_t a);
uint16_t alu_bf16_ex2_approx(uint16_t a);
uint16_t alu_f16_tanh_approx(uint16_t a);
uint16_t alu_bf16_tanh_approx(uint16_t a);
}
#include <vector>

__device__ inline u32 ph_mix32_d(u64 z)
{
    z += 0x9e3779b97f4a7c15ull; z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull; return (u32)(z ^ (z >> 31));
}
__device__ inline void d_inputs(int v, u64 i, u32 *a, u32 *b)
{
    const u32 div_a[3] = {0x3f800000u, 0x00001000u, 0x7f61b1e6u};
    if (v >= PH_DIVA && v <= PH_DIVFF) { *a = ph_mix32_d(i); *b = ph_mix32_d(i ^ 0xa5a5a5a5a5a5ull); }
    else if (v >= PH_DIVA_B) { *a = div_a[(v - PH_DIVA_B) % 3]; *b = (u32)i; }
    else { *a = (u32)i; *b = 0; }
}
struct DT { const u32 *rcp, *rsq, *sqrt, *ex2, *lg2, *sin, *r64, *tanh, *h[4]; };
#define SIGN32 0x80000000u
#define ABS32 0x7fffffffu
#define INF32 0x7f800000u
#define NAN32 0x7fffffffu

__device__ inline bool dnan(u32 u) { return (u & ABS32) > INF32; }
__device__ inline bool dgeu(u32 x) { return dnan(x) || (x & ABS32) >= 0x00800000u; }
__device__ inline u32 dscale(u32 t, int k)
{
    int e = (int)(t >> 23) + k;
    if (e <= 0) return 0;
    if (e >= 255) return INF32;
    return (t & 0x7fffffu) | (u32)e << 23;
}
__device__ u32 d_rcp(const DT &T, u32 x)
{
    u32 s = x & SIGN32, a = x & ABS32;
    if (a > INF32) return NAN32;
    if (a == INF32) return s;
    if (a < 0x00800000u) return s | INF32;
    return s | dscale(T.rcp[a & 0x7fffffu], -((int)(a >> 23) - 127));
}
__device__ u32 d_rsq(const DT &T, u32 x, bool sq)
{
    u32 s = x & SIGN32, a = x & ABS32;
    if (a > INF32) return NAN32;
    if (a < 0x00800000u) return sq ? s : s | INF32;
    if (s) return NAN32;
    if (a == INF32) return sq ? INF32 : 0;
    int e = (int)(a >> 23) - 127, p = e & 1, k = (e - p) / 2;
    return dscale((sq ? T.sqrt : T.rsq)[(u32)p << 23 | (a & 0x7fffffu)], sq ? k : -k);
}
__device__ u32 d_ex2(const DT &T, u32 x)
{
    u32 a = x & ABS32;
    if (a > INF32) return NAN32;
    if (x == INF32) return INF32;
    if (x == (SIGN32 | INF32)) return 0;
    if (a < 0x00800000u) x &= SIGN32;
    double d = (double)bf(x);
    if (d >= 128.0) return INF32;
    if (d <= -160.0) return 0;
    i64 N = (i64)(fabs(d) * 0x1p23);
    int n = (int)(N >> 23);
    u32 f = (u32)(N & 0x7fffff);
    return d >= 0 ? dscale(T.ex2[f], n) : dscale(T.ex2[(1u << 23) + f], -n);
}
__device__ u32 d_lg2(const DT &T, u32 x)
{
    u32 s = x & SIGN32, a = x & ABS32;
    if (a > INF32) return NAN32;
    if (a < 0x00800000u) return SIGN32 | INF32;
    if (s) return NAN32;
    if (a == INF32) return INF32;
    int e = (int)(a >> 23) - 127;
    u32 m = a & 0x7fffffu;
    if (e == 0) return T.lg2[1u << 23 | m];
    if (e == -1) return T.lg2[m];
    float L = bf(T.lg2[1u << 23 | m]);
    if (e > 0) return fb(__double2float_rz((double)e + (double)L));
    double M = (double)(-e) - (double)L;
    u32 r = fb(__double2float_rz(M));
    if ((double)bf(r) == M) r -= 1;
    return r | SIGN32;
}
__device__ u32 d_sc(const DT &T, u32 x, bool cosine)
{
    u32 a = x & ABS32;
    if (a >= INF32) return NAN32;
    if (a < 0x00800000u) x &= SIGN32;
    double u = fabs((double)bf(x)), fr = u - floor(u);
    u32 idx = (u32)(fr * 0x1p25);
    if (cosine) idx = (idx + (1u << 23)) & ((1u << 25) - 1);
    u32 r = idx < (1u << 24) ? T.sin[idx] : T.sin[idx - (1u << 24)] ^ SIGN32;
    if (!cosine && (x & SIGN32)) r ^= SIGN32;
    return r;
}
__device__ u32 d_tanh(const DT &T, u32 x)
{
    u32 s = x & SIGN32, a = x & ABS32;
    if (a > INF32) return NAN32;
    int e = (int)(a >> 23) - 127;
    if (e >= 3) return s | 0x3f800000u;
    if (e <= -9) return x;
    u32 m = a & 0x7fffffu;
    u32 idx = e < 0 ? (u32)(e + 8) << 19 | m >> 4 : (8u << 19) + ((u32)e << 21) + (m >> 2);
    return s | T.tanh[idx];
}
__device__ u32 d_r64(const DT &T, u32 h)
{
    u32 s = h & SIGN32, m = h & ABS32;
    if (m > 0x7ff00000u) return ABS32;
    if (m == 0x7ff00000u) return s;
    if (m < 0x00100000u) return s | 0x7ff00000u;
    int e = (int)(m >> 20) - 1023;
    u32 t = T.r64[m & 0xfffffu];
    int ee = (int)(t >> 20) - e;
    return ee <= 0 ? s : ee >= 0x7ff ? s | 0x7ff00000u : s | (t & 0xfffffu) | (u32)ee << 20;
}
__device__ inline u32 mulf(u32 a, u32 b, bool ftz) { return ftz ? i_mul_ftz(a, b) : fb(__fmul_rn(bf(a), bf(b))); }
__device__ u32 d_model(const DT &T, int v, u32 a, u32 b)
{
    const u32 P24 = 0x4b800000u, Q = 0x3e800000u, ONE = 0x3f800000u;
    switch (v) {
    case PH_RCP: { u32 s = dgeu(a) ? ONE : P24; if (!dnan(a) && (a & ABS32) > 0x7e800000u) s = Q;
                   return mulf(s, d_rcp(T, mulf(a, s, false)), false); }
    case PH_RCP_FTZ: return d_rcp(T, a);
    case PH_RSQ: case PH_SQRT: { bool sq = v == PH_SQRT; if (dgeu(a)) return d_rsq(T, a, sq);
        return mulf(d_rsq(T, mulf(a, P24, false), sq), sq ? 0x39800000u : 0x45800000u, false); }
    case PH_RSQ_FTZ: return d_rsq(T, a, false);
    case PH_SQRT_FTZ: return d_rsq(T, a, true);
    case PH_EX2: { if (dnan(a) || !(bf(a) < -126.0f)) return d_ex2(T, a);
        u32 r = d_ex2(T, mulf(a, 0x3f000000u, false)); return mulf(r, r, false); }
    case PH_EX2_FTZ: return d_ex2(T, a);
    case PH_LG2: if (dgeu(a)) return d_lg2(T, a);
        return fb(__fadd_rn(bf(d_lg2(T, mulf(a, P24, false))), -24.0f));
    case PH_LG2_FTZ: return d_lg2(T, a);
    case PH_SIN: case PH_SIN_FTZ: return d_sc(T, fb(__fmul_rz(bf(a), bf(0x3e22f983u))), false);
    case PH_COS: case PH_COS_FTZ: return d_sc(T, fb(__fmul_rz(bf(a), bf(0x3e22f983u))), true);
    case PH_TANH: return d_tanh(T, a);
    case PH_RCP64: return d_r64(T, a);
    case PH_EX2_F16X2: case PH_EX2_BF16X2: case PH_TANH_F16X2: case PH_TANH_BF16X2: {
        const u32 *t = T.h[v - PH_EX2_F16X2]; return t[a & 0xffff] | t[a >> 16] << 16; }
    default: break;
    }
    int op = v >= PH_DIVA_B ? (v - PH_DIVA_B) / 3 : v - PH_DIVA;   // 0 approx 1 approx.ftz 2 full 3 full.ftz
    if (op == 1) return mulf(a, d_rcp(T, b), true);
    if (op == 3) { if (!dnan(b) && (b & ABS32) > 0x7e800000u) { b = mulf(b, Q, true); a = mulf(a, Q, true); }
                   return mulf(d_rcp(T, b), a, true); }
    bool big = op == 2 && !dnan(b) && (b & ABS32) > 0x7e800000u, small = !dgeu(b);
    if (big) { b = mulf(b, Q, false); a = mulf(a, Q, false); }
    if (small) { b = mulf(b, P24, false); a = mulf(a, P24, false); }
    return mulf(d_rcp(T, b), a, false);
}
__device__ u32 d_hw(int v, u32 a, u32 b)
{
    switch (v) {
    case PH_RCP: return i_rcp(a); case PH_RCP_FTZ: return i_rcp_ftz(a);
    case PH_RSQ: return i_rsq(a); case PH_RSQ_FTZ: return i_rsq_ftz(a);
    case PH_SQRT: return i_sqrt(a); case PH_SQRT_FTZ: return i_sqrt_ftz(a);
    case PH_EX2: return i_ex2(a); case PH_EX2_FTZ: return i_ex2_ftz(a);
    case PH_LG2: return i_lg2(a); case PH_LG2_FTZ: return i_lg2_ftz(a);
    case PH_SIN: return i_sin(a); case PH_SIN_FTZ: return i_sin_ftz(a);
    case PH_COS: return i_cos(a); case PH_COS_FTZ: return i_cos_ftz(a);
    case PH_TANH: return i_tanh(a);
    case PH_RCP64: { u32 lo; u32 hi = i_rcp64((u64)a << 32 | ph_mix32_d(a), &lo); return lo ? 0xdeadbeefu : hi; }
    case PH_EX2_F16X2: return i_ex2_f16x2(a); case PH_EX2_BF16X2: return i_ex2_bf16x2(a);
    case PH_TANH_F16X2: return i_tanh_f16x2(a); case PH_TANH_BF16X2: return i_tanh_bf16x2(a);
    default: break;
    }
    int op = v >= PH_DIVA_B ? (v - PH_DIVA_B) / 3 : v - PH_DIVA;
    return op == 0 ? i_div_approx(a, b) : op == 1 ? i_div_approx_ftz(a, b) : op == 2 ? i_div_full(a, b) : i_div_full_ftz(a, b);
}

struct Cnt { unsigned long long n, maxd; unsigned int ns; u32 sa[8], sb[8], shw[8], sm[8]; };
__device__ inline long long dord(u32 u) { return (u & SIGN32) ? -(long long)(u & ABS32) - 1 : (long long)u; }
__global__ void k_prove(DT T, int v, u64 base, u32 n, u32 *hwout, Cnt *c)
{
    for (u32 i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        u32 a, b;
        d_inputs(v, base + i, &a, &b);
        u32 h = d_hw(v, a, b), m = d_model(T, v, a, b);
        if (hwout) hwout[i] = h;
        if (h != m) {
            atomicAdd(&c->n, 1ull);
            long long d = dord(h) - dord(m);
            atomicMax(&c->maxd, (unsigned long long)(d < 0 ? -d : d));
            unsigned k = atomicAdd(&c->ns, 1u);
            if (k < 8) { c->sa[k] = a; c->sb[k] = b; c->shw[k] = h; c->sm[k] = m; }
        }
    }
}
__global__ void k_sample(int v, u32 n, const u32 *in_a, const u32 *in_b, u32 *out)
{
    u32 i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = d_hw(v, in_a[i], in_b[i]);
}
__global__ void k_half(int k, u32 *out)
{
    u32 i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= 65536) return;
    u32 r = k == 0 ? i_ex2_f16(i) : k == 1 ? i_ex2_bf16(i) : k == 2 ? i_tanh_f16(i) : i_tanh_bf16(i);
    out[i] = r;
}

static const char *vname(int v)
{
    static const char *n[] = {"rcp.approx.f32", "rcp.approx.ftz.f32", "rsqrt.approx.f32", "rsqrt.approx.ftz.f32",
        "sqrt.approx.f32", "sqrt.approx.ftz.f32", "ex2.approx.f32", "ex2.approx.ftz.f32", "lg2.approx.f32",
        "lg2.approx.ftz.f32", "sin.approx.f32", "sin.approx.ftz.f32", "cos.approx.f32", "cos.approx.ftz.f32",
        "tanh.approx.f32", "rcp.approx.ftz.f64 (every high word)", "ex2.approx.f16x2", "ex2.approx.ftz.bf16x2",
        "tanh.approx.f16x2", "tanh.approx.bf16x2", "div.approx.f32 (2^32 random pairs)",
        "div.approx.ftz.f32 (2^32 random pairs)", "div.full.f32 (2^32 random pairs)",
        "div.full.ftz.f32 (2^32 random pairs)"};
    static char buf[96];
    if (v < PH_DIVA_B) return n[v];
    static const char *op[] = {"div.approx.f32", "div.approx.ftz.f32", "div.full.f32", "div.full.ftz.f32"};
    static const char *an[] = {"1.0", "2^-137", "3e38"};
    snprintf(buf, sizeof buf, "%s (a = %s, every b)", op[(v - PH_DIVA_B) / 3], an[(v - PH_DIVA_B) % 3]);
    return buf;
}

int main(int argc, char **argv)
{
    int threads = argc > 1 ? atoi(argv[1]) : 16;
    const int NSAMP = 4096;
    DT T;
    const u32 **slots[12] = {&T.rcp, &T.rsq, &T.sqrt, &T.ex2, &T.lg2, &T.sin, &T.r64, &T.tanh, &T.h[0], &T.h[1], &T.h[2], &T.h[3]};
    for (int t = 0; t < SFU_T_COUNT; t++) {
        SimError err;
        if (sfu_table_require((SfuTable)t, &err) != SIM_OK) { printf("table %s: %s\n", sfu_table_name((SfuTable)t), err.msg); return 1; }
        u32 *d;
        CK(cudaMalloc(&d, 4 * sfu_table_size((SfuTable)t)));
        CK(cudaMemcpy(d, sfu_table((SfuTable)t), 4 * sfu_table_size((SfuTable)t), cudaMemcpyHostToDevice));
        *slots[t] = d;
    }
    // the 16-bit forms: every input against the tables
    {
        u32 *d; CK(cudaMalloc(&d, 4 * 65536));
        std::vector<u32> h(65536);
        static const char *hn[] = {"ex2.approx.f16", "ex2.approx.ftz.bf16", "tanh.approx.f16", "tanh.approx.bf16"};
        static uint16_t (*const hf[])(uint16_t) = {alu_f16_ex2_approx, alu_bf16_ex2_approx, alu_f16_tanh_approx, alu_bf16_tanh_approx};
        for (int k = 0; k < 4; k++) {
            k_half<<<256, 256>>>(k, d);
            CK(cudaMemcpy(h.data(), d, 4 * 65536, cudaMemcpyDeviceToHost));
            int bad = 0;
            for (u32 i = 0; i < 65536; i++) bad += hf[k]((uint16_t)i) != h[i];
            printf("%-44s C: %d mismatches of 65536\n", hn[k], bad);
        }
    }
    const u32 CH = 1u << 28;
    u32 *dhw, *hhw;
    Cnt *dc, hc;
    CK(cudaMalloc(&dhw, 4ull * CH));
    CK(cudaMallocHost(&hhw, 4ull * CH));
    CK(cudaMalloc(&dc, sizeof(Cnt)));
    std::vector<u32> samples;
    for (int v = 0; v < PH_N; v++) {
        CK(cudaMemset(dc, 0, sizeof(Cnt)));
        PhResult hr;
        memset(&hr, 0, sizeof hr);
        cudaEvent_t e0, e1; cudaEventCreate(&e0); cudaEventCreate(&e1);
        cudaEventRecord(e0);
        for (u64 base = 0; base < (1ull << 32); base += CH) {
            k_prove<<<2048, 256>>>(T, v, base, CH, dhw, dc);
            CK(cudaMemcpy(hhw, dhw, 4ull * CH, cudaMemcpyDeviceToHost));
            ph_check(v, base, CH, hhw, threads, &hr);
        }
        cudaEventRecord(e1); CK(cudaDeviceSynchronize());
        float ms; cudaEventElapsedTime(&ms, e0, e1);
        CK(cudaMemcpy(&hc, dc, sizeof hc, cudaMemcpyDeviceToHost));
        printf("%-44s device port: %llu mismatches (max %llu ulp); C: %llu mismatches (max %llu ulp) of 2^32 [%.1f s]\n",
               vname(v), hc.n, hc.maxd, (unsigned long long)hr.mismatches, (unsigned long long)hr.maxdiff, ms / 1000);
        for (unsigned k = 0; k < hc.ns && k < 4; k++)
            printf("    device a=%08x b=%08x hw=%08x model=%08x\n", hc.sa[k], hc.sb[k], hc.shw[k], hc.sm[k]);
        for (unsigned k = 0; k < hr.mismatches && k < 4; k++)
            printf("    C      a=%08x b=%08x hw=%08x model=%08x\n", hr.sa[k], hr.sb[k], hr.shw[k], hr.smodel[k]);
        fflush(stdout);
        // samples for make test
        std::vector<u32> sa(NSAMP), sb(NSAMP), so(NSAMP);
        for (int k = 0; k < NSAMP; k++) ph_sample_inputs(v, (u32)k, &sa[k], &sb[k]);
        u32 *da, *db, *dout;
        CK(cudaMalloc(&da, 4 * NSAMP)); CK(cudaMalloc(&db, 4 * NSAMP)); CK(cudaMalloc(&dout, 4 * NSAMP));
        CK(cudaMemcpy(da, sa.data(), 4 * NSAMP, cudaMemcpyHostToDevice));
        CK(cudaMemcpy(db, sb.data(), 4 * NSAMP, cudaMemcpyHostToDevice));
        k_sample<<<NSAMP / 256, 256>>>(v, NSAMP, da, db, dout);
        CK(cudaMemcpy(so.data(), dout, 4 * NSAMP, cudaMemcpyDeviceToHost));
        int bad = 0;
        for (int k = 0; k < NSAMP; k++) bad += ph_model(v, sa[k], sb[k]) != so[k];
        printf("    samples: %d of %d differ from C\n", bad, NSAMP);
        samples.insert(samples.end(), so.begin(), so.end());
        cudaFree(da); cudaFree(db); cudaFree(dout);
    }
    FILE *f = fopen("samples.u32", "wb");
    fwrite(samples.data(), 4, samples.size(), f);
    fclose(f);
    return 0;
}
