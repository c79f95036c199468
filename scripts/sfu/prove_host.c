/* prove_host.c: the host half of the SFU proof (scripts/sfu/prove.cu): runs
 * the simulator's own C functions (sim/alu_sfu.c) on every input of a chunk
 * whose hardware results the GPU produced, in parallel threads, counting
 * mismatches and the largest difference in ulps. */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "alu.h"
#include "prove_host.h"

uint32_t ph_mix32(uint64_t z)
{
    z += 0x9e3779b97f4a7c15ull;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return (uint32_t)(z ^ (z >> 31));
}

static const uint32_t div_a[3] = {0x3f800000u, 0x00001000u, 0x7f61b1e6u}; /* 1, 2^-137, 3e38 */

void ph_inputs(int v, uint64_t i, uint32_t *a, uint32_t *b)
{
    if (v >= PH_DIVA && v <= PH_DIVFF) { *a = ph_mix32(i); *b = ph_mix32(i ^ 0xa5a5a5a5a5a5ull); }
    else if (v >= PH_DIVA_B) { *a = div_a[(v - PH_DIVA_B) % 3]; *b = (uint32_t)i; }
    else { *a = (uint32_t)i; *b = 0; }
}

static uint32_t pair16(uint16_t (*f)(uint16_t), uint32_t x)
{
    return f((uint16_t)x) | (uint32_t)f((uint16_t)(x >> 16)) << 16;
}

uint32_t ph_model(int v, uint32_t a, uint32_t b)
{
    switch (v) {
    case PH_RCP: return alu_f32_rcp_approx(a, false);
    case PH_RCP_FTZ: return alu_f32_rcp_approx(a, true);
    case PH_RSQ: return alu_f32_rsqrt_approx(a, false);
    case PH_RSQ_FTZ: return alu_f32_rsqrt_approx(a, true);
    case PH_SQRT: return alu_f32_sqrt_approx(a, false);
    case PH_SQRT_FTZ: return alu_f32_sqrt_approx(a, true);
    case PH_EX2: return alu_f32_ex2_approx(a, false);
    case PH_EX2_FTZ: return alu_f32_ex2_approx(a, true);
    case PH_LG2: return alu_f32_lg2_approx(a, false);
    case PH_LG2_FTZ: return alu_f32_lg2_approx(a, true);
    case PH_SIN: return alu_f32_sin_approx(a, false);
    case PH_SIN_FTZ: return alu_f32_sin_approx(a, true);
    case PH_COS: return alu_f32_cos_approx(a, false);
    case PH_COS_FTZ: return alu_f32_cos_approx(a, true);
    case PH_TANH: return alu_f32_tanh_approx(a);
    case PH_RCP64: return (uint32_t)(alu_f64_rcp_approx((uint64_t)a << 32 | ph_mix32(a)) >> 32);
    case PH_EX2_F16X2: return pair16(alu_f16_ex2_approx, a);
    case PH_EX2_BF16X2: return pair16(alu_bf16_ex2_approx, a);
    case PH_TANH_F16X2: return pair16(alu_f16_tanh_approx, a);
    case PH_TANH_BF16X2: return pair16(alu_bf16_tanh_approx, a);
    case PH_DIVA: case PH_DIVA_B: case PH_DIVA_B + 1: case PH_DIVA_B + 2: return alu_f32_div_approx(a, b, false);
    case PH_DIVAF: case PH_DIVAF_B: case PH_DIVAF_B + 1: case PH_DIVAF_B + 2: return alu_f32_div_approx(a, b, true);
    case PH_DIVF: case PH_DIVF_B: case PH_DIVF_B + 1: case PH_DIVF_B + 2: return alu_f32_div_full(a, b, false);
    default: return alu_f32_div_full(a, b, true);
    }
}

static int64_t ord_of(uint32_t u)
{
    return (u & 0x80000000u) ? -(int64_t)(u & 0x7fffffffu) - 1 : (int64_t)u;
}

typedef struct { int v; uint64_t base; uint32_t lo, hi; const uint32_t *hw; PhResult r; } Job;

static void *work(void *p)
{
    Job *j = p;
    for (uint32_t i = j->lo; i < j->hi; i++) {
        uint32_t a, b;
        ph_inputs(j->v, j->base + i, &a, &b);
        uint32_t m = ph_model(j->v, a, b), h = j->hw[i];
        if (m != h) {
            if (j->r.mismatches < 8) { j->r.sa[j->r.mismatches] = a; j->r.sb[j->r.mismatches] = b;
                                       j->r.shw[j->r.mismatches] = h; j->r.smodel[j->r.mismatches] = m; }
            j->r.mismatches++;
            int64_t d = ord_of(m) - ord_of(h);
            if (d < 0) d = -d;
            if ((uint64_t)d > j->r.maxdiff) j->r.maxdiff = (uint64_t)d;
        }
    }
    return NULL;
}

void ph_check(int v, uint64_t base, uint32_t n, const uint32_t *hw, int threads, PhResult *acc)
{
    Job jobs[64];
    pthread_t th[64];
    if (threads > 64) threads = 64;
    for (int t = 0; t < threads; t++) {
        memset(&jobs[t], 0, sizeof jobs[t]);
        jobs[t].v = v; jobs[t].base = base; jobs[t].hw = hw;
        jobs[t].lo = (uint32_t)((uint64_t)n * t / threads);
        jobs[t].hi = (uint32_t)((uint64_t)n * (t + 1) / threads);
        pthread_create(&th[t], NULL, work, &jobs[t]);
    }
    for (int t = 0; t < threads; t++) {
        pthread_join(th[t], NULL);
        for (uint64_t k = 0; k < jobs[t].r.mismatches && k < 8 && acc->mismatches + k < 8; k++) {
            uint64_t s = acc->mismatches + k;
            acc->sa[s] = jobs[t].r.sa[k]; acc->sb[s] = jobs[t].r.sb[k];
            acc->shw[s] = jobs[t].r.shw[k]; acc->smodel[s] = jobs[t].r.smodel[k];
        }
        acc->mismatches += jobs[t].r.mismatches;
        if (jobs[t].r.maxdiff > acc->maxdiff) acc->maxdiff = jobs[t].r.maxdiff;
    }
}

/* The sampled inputs recorded for `make test` (tests/test_sfu.c draws the
 * same ones): sample k of variant v.  A quarter fully random, a quarter
 * with an edge exponent (subnormal, near 1, near the top, Inf/NaN), half
 * with an exponent in the working range. */
void ph_sample_inputs(int v, uint32_t k, uint32_t *a, uint32_t *b)
{
    static const uint32_t edge[8] = {0, 1, 2, 126, 127, 128, 253, 254};
    uint64_t key = (uint64_t)v << 40 | k;
    uint32_t r = ph_mix32(key), r2 = ph_mix32(key ^ 0x5bd1e995ull);
    uint32_t e = (k & 3) == 0 ? (r >> 23) & 0xff : (k & 3) == 1 ? edge[r2 & 7] + ((r2 >> 3) & 1)
                                                  : 100 + r2 % 56;
    uint32_t x = (r & 0x807fffffu) | (e & 0xff) << 23;
    if (v >= PH_DIVA_B) { *a = div_a[(v - PH_DIVA_B) % 3]; *b = x; }
    else if (v >= PH_DIVA) { *a = ph_mix32(key ^ 0x1234567ull); *b = x; }
    else { *a = x; *b = 0; }
}
