/* prove_host.h: what prove.cu needs from prove_host.c (plain C, so that it
 * can include the simulator's headers). */
#ifndef PROVE_HOST_H
#define PROVE_HOST_H
#include <stdint.h>
#ifdef __cplusplus
extern "C" {
#endif
enum {
    PH_RCP, PH_RCP_FTZ, PH_RSQ, PH_RSQ_FTZ, PH_SQRT, PH_SQRT_FTZ, PH_EX2, PH_EX2_FTZ,
    PH_LG2, PH_LG2_FTZ, PH_SIN, PH_SIN_FTZ, PH_COS, PH_COS_FTZ, PH_TANH, PH_RCP64,
    PH_EX2_F16X2, PH_EX2_BF16X2, PH_TANH_F16X2, PH_TANH_BF16X2,
    PH_DIVA, PH_DIVAF, PH_DIVF, PH_DIVFF,           /* 2^32 pseudo-random pairs */
    PH_DIVA_B, PH_DIVAF_B = PH_DIVA_B + 3, PH_DIVF_B = PH_DIVA_B + 6, PH_DIVFF_B = PH_DIVA_B + 9,
    PH_N = PH_DIVA_B + 12                           /* three fixed a, every b */
};
typedef struct { uint64_t mismatches, maxdiff; uint32_t sa[8], sb[8], shw[8], smodel[8]; } PhResult;
uint32_t ph_mix32(uint64_t z);
void ph_inputs(int v, uint64_t i, uint32_t *a, uint32_t *b);
uint32_t ph_model(int v, uint32_t a, uint32_t b);
void ph_sample_inputs(int v, uint32_t k, uint32_t *a, uint32_t *b);
void ph_check(int v, uint64_t base, uint32_t n, const uint32_t *hw, int threads, PhResult *acc);
#ifdef __cplusplus
}
#endif
#endif
