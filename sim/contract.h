/* contract.h: which mul and add/sub pairs ptxas contracts into one FMA.
 *
 * A mul and an add or sub written without rounding modifiers may be fused by
 * ptxas into one fma that rounds once (PTX ISA: "mul/add ... may be
 * optimized aggressively"); on the GPU the result then differs from two
 * roundings.  The rule below was read from the SASS of probe kernels
 * (scripts/sfu/gen_fma_probes.py) and is checked against ptxas on every
 * committed PTX (traces/hw/fma-contraction-sm90.txt, tests/test_contract.c).
 * ptxas (CUDA 13.0, sm_90) fuses the add/sub at j with the mul at i when:
 *  - both have the same type (f32, f64, f16, f16x2, bf16, bf16x2) and no
 *    .rn/.rz/.rm/.rp; the mul has no .sat (the add may: fma.sat); for f32
 *    both are .ftz or neither;
 *  - the mul has no guard predicate (the add may have one);
 *  - i and j are in the same basic block (no label, branch, call, ret or
 *    exit between them; bar.sync is no boundary) and neither of the mul's
 *    sources is written between them;
 *  - every read of the mul's result is by such an add/sub in that block,
 *    each reading it in one operand only (a*b + a*b is not fused); a result
 *    also stored, compared or used in another block is not fused at all;
 *  - a neg of the product between them (f32, f64, f16, f16x2) is folded in
 *    when the neg's result is read only by such adds: fma(-a, b, c);
 *  - when both operands of an add come from fusable muls, the first
 *    operand's mul is fused. */
#ifndef WARPSIM_CONTRACT_H
#define WARPSIM_CONTRACT_H

#include <stdbool.h>

#include "ptx.h"

typedef struct {
    int mul;            /* instruction index of the fused mul, -1: not fused */
    int addend;         /* operand index (1 or 2) of the add/sub holding c */
    bool neg_product;   /* fma(-a, b, c): c - a*b, or a neg in between */
    bool neg_addend;    /* fma(a, b, -c): a*b - c */
} ContractFuse;

/* Fill out[0 .. f->n_insts-1]: for every add/sub that ptxas would fuse, the
 * mul it absorbs; out[i].mul = -1 for every other instruction.  Returns the
 * number of fused adds.  Pure; f must come from ptx_parse_module. */
int contract_plan(const PtxFunc *f, ContractFuse *out);

#endif
