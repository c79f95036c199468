/* alu.h: the exact scalar semantics of PTX arithmetic, one lane at a time.
 *
 * The executor (exec_*.c) runs lanes in tight loops; the common integer and
 * f32 operations it inlines itself, everything with rounding modes, ftz,
 * saturation, NaN rules, conversions and bit fiddling comes here.  Every
 * function is pure: inputs are bit patterns, the result is a bit pattern.
 * Rules follow the PTX ISA (9.x) section of each instruction; the comment on
 * each prototype names the rule it implements.
 *
 * NaN results (measured on an H100): f32 arithmetic, abs and neg produce the
 * canonical NaN 0x7fffffff; f64 arithmetic propagates an input NaN quieted
 * (sign and payload kept) and makes 0xfff8000000000000 from non-NaN inputs;
 * alu_float.c documents which input wins when several are NaN. */
#ifndef WARPSIM_ALU_H
#define WARPSIM_ALU_H

#include <stdbool.h>
#include <stdint.h>

#include "ptx.h"

/* Rounding modifiers.  For float results: .rn .rz .rm .rp.  For float->int
 * and float->float-integer conversions the same four mean .rni .rzi .rmi .rpi. */
typedef enum { ALU_RN = 0, ALU_RZ, ALU_RM, ALU_RP } AluRound;

#define ALU_F32_CANON_NAN 0x7fffffffu
#define ALU_F64_CANON_NAN 0x7fffffffffffffffull

/* ---- f32 (bits in uint32_t) -------------------------------------------
 * ftz: subnormal inputs and results become sign-preserving zero.
 * sat: the result is clamped to [0.0, 1.0], NaN becomes +0.0. */
uint32_t alu_f32_add(uint32_t a, uint32_t b, AluRound r, bool ftz, bool sat);
uint32_t alu_f32_sub(uint32_t a, uint32_t b, AluRound r, bool ftz, bool sat);
uint32_t alu_f32_mul(uint32_t a, uint32_t b, AluRound r, bool ftz, bool sat);
/* fma.rnd.f32 and mad.rnd.f32: a*b+c rounded once. */
uint32_t alu_f32_fma(uint32_t a, uint32_t b, uint32_t c, AluRound r, bool ftz, bool sat);
/* div.rnd.f32 (IEEE, correctly rounded). */
uint32_t alu_f32_div(uint32_t a, uint32_t b, AluRound r, bool ftz);
/* div.approx.f32 and div.full.f32, bit for bit as an H100 computes them
 * (alu_sfu.c: MUFU.RCP and a multiply, with the operand scaling ptxas adds). */
uint32_t alu_f32_div_approx(uint32_t a, uint32_t b, bool ftz);
uint32_t alu_f32_div_full(uint32_t a, uint32_t b, bool ftz);
/* rcp.rnd.f32 (IEEE) and rcp.approx.f32. */
uint32_t alu_f32_rcp(uint32_t a, AluRound r, bool ftz);
uint32_t alu_f32_rcp_approx(uint32_t a, bool ftz);
/* sqrt.rnd.f32 (IEEE) and sqrt.approx.f32; negative -> NaN, -0 -> -0. */
uint32_t alu_f32_sqrt(uint32_t a, AluRound r, bool ftz);
uint32_t alu_f32_sqrt_approx(uint32_t a, bool ftz);
/* rcp/sqrt/rsqrt/ex2/lg2/sin/cos/tanh .approx: the H100's special function
 * unit bit for bit (alu_sfu.c; proved over every input on the GPU, see
 * docs/special-functions.md). */
uint32_t alu_f32_rsqrt_approx(uint32_t a, bool ftz);
uint32_t alu_f32_ex2_approx(uint32_t a, bool ftz);
uint32_t alu_f32_lg2_approx(uint32_t a, bool ftz);
uint32_t alu_f32_sin_approx(uint32_t a, bool ftz);
uint32_t alu_f32_cos_approx(uint32_t a, bool ftz);
uint32_t alu_f32_tanh_approx(uint32_t a);
/* min/max.f32: NaN operand ignored (both NaN -> canonical NaN); -0 < +0.
 * nan: the .NaN modifier (any NaN operand gives canonical NaN). */
uint32_t alu_f32_min(uint32_t a, uint32_t b, bool ftz, bool nan);
uint32_t alu_f32_max(uint32_t a, uint32_t b, bool ftz, bool nan);
/* abs/neg: the sign bit; a NaN becomes the canonical NaN (as on an H100);
 * ftz flushes subnormals. */
uint32_t alu_f32_abs(uint32_t a, bool ftz);
uint32_t alu_f32_neg(uint32_t a, bool ftz);

/* ---- f64 (bits in uint64_t); no ftz or sat except where PTX has it ---- */
uint64_t alu_f64_add(uint64_t a, uint64_t b, AluRound r);
uint64_t alu_f64_sub(uint64_t a, uint64_t b, AluRound r);
uint64_t alu_f64_mul(uint64_t a, uint64_t b, AluRound r);
uint64_t alu_f64_fma(uint64_t a, uint64_t b, uint64_t c, AluRound r);
uint64_t alu_f64_div(uint64_t a, uint64_t b, AluRound r);
uint64_t alu_f64_rcp(uint64_t a, AluRound r);
/* rcp.approx.ftz.f64: MUFU.RCP64H as an H100 computes it; only a's high
 * word is read, the result's low word is 0. */
uint64_t alu_f64_rcp_approx(uint64_t a);
uint64_t alu_f64_sqrt(uint64_t a, AluRound r);
uint64_t alu_f64_rsqrt_approx(uint64_t a);
uint64_t alu_f64_min(uint64_t a, uint64_t b);
uint64_t alu_f64_max(uint64_t a, uint64_t b);
uint64_t alu_f64_abs(uint64_t a);
uint64_t alu_f64_neg(uint64_t a);

/* ---- comparisons (setp/set/slct) --------------------------------------- */
typedef enum {
    ALU_CMP_EQ, ALU_CMP_NE, ALU_CMP_LT, ALU_CMP_LE, ALU_CMP_GT, ALU_CMP_GE,
    ALU_CMP_LO, ALU_CMP_LS, ALU_CMP_HI, ALU_CMP_HS,        /* unsigned ints */
    ALU_CMP_EQU, ALU_CMP_NEU, ALU_CMP_LTU, ALU_CMP_LEU, ALU_CMP_GTU, ALU_CMP_GEU,
    ALU_CMP_NUM, ALU_CMP_NAN,                               /* floats only */
    ALU_CMP_COUNT
} AluCmp;
/* "eq" -> ALU_CMP_EQ ...; -1 when the word is not a comparison. */
int alu_cmp_from_name(const char *word);
/* Compare a and b, both of type t (integer types use their signedness; the
 * ordered float compares are false when either is NaN, the "u" ones true). */
bool alu_compare(AluCmp c, PtxType t, uint64_t a, uint64_t b, bool ftz);

/* ---- integer ------------------------------------------------------------
 * Values are passed zero-extended in uint64_t; results are truncated to the
 * type's width (and zero-extended) by the callee. */
uint64_t alu_int_mul_hi(PtxType t, uint64_t a, uint64_t b);   /* mul.hi */
/* div/rem: PTX leaves x/0 unspecified; an H100 gives all ones for div and
 * rem by zero, of every type and sign; INT_MIN / -1 gives INT_MIN, rem 0. */
uint64_t alu_int_div(PtxType t, uint64_t a, uint64_t b);
uint64_t alu_int_rem(PtxType t, uint64_t a, uint64_t b);
uint64_t alu_int_min(PtxType t, uint64_t a, uint64_t b);
uint64_t alu_int_max(PtxType t, uint64_t a, uint64_t b);
uint64_t alu_int_abs(PtxType t, uint64_t a);                  /* abs(INT_MIN) = INT_MIN */
uint64_t alu_int_sad(PtxType t, uint64_t a, uint64_t b, uint64_t c); /* |a-b|+c */
/* add.sat.s32 / sub.sat.s32: clamp to [INT32_MIN, INT32_MAX]. */
uint32_t alu_s32_add_sat(uint32_t a, uint32_t b);
uint32_t alu_s32_sub_sat(uint32_t a, uint32_t b);
/* mul24.lo/hi and mad24 for .u32/.s32 */
uint32_t alu_mul24(PtxType t, bool hi, uint32_t a, uint32_t b);
uint32_t alu_popc(PtxType t, uint64_t a);   /* .b32/.b64 */
uint32_t alu_clz(PtxType t, uint64_t a);
uint64_t alu_brev(PtxType t, uint64_t a);
/* bfind.{u32,s32,u64,s64}[.shiftamt]: position of the most significant
 * non-sign bit; 0xffffffff when none. */
uint32_t alu_bfind(PtxType t, uint64_t a, bool shiftamt);
/* bfe.{u32,s32,u64,s64} a, pos (b & 0xff), len (c & 0xff), exact PTX rule
 * including sign replication and pos/len beyond the width. */
uint64_t alu_bfe(PtxType t, uint64_t a, uint32_t pos, uint32_t len);
/* bfi.{b32,b64} f = a inserted into b at pos, len. */
uint64_t alu_bfi(PtxType t, uint64_t a, uint64_t b, uint32_t pos, uint32_t len);
/* prmt.b32[.mode] d, a, b, c: mode is 0 for the default (generic) form or
 * one of "f4e" "b4e" "rc8" "ecl" "ecr" "rc16". */
typedef enum { ALU_PRMT_DEFAULT, ALU_PRMT_F4E, ALU_PRMT_B4E, ALU_PRMT_RC8,
               ALU_PRMT_ECL, ALU_PRMT_ECR, ALU_PRMT_RC16 } AluPrmtMode;
uint32_t alu_prmt(uint32_t a, uint32_t b, uint32_t c, AluPrmtMode mode);
/* shf.{l,r}.{wrap,clamp}.b32: funnel shift of b:a by c. */
uint32_t alu_shf(bool left, bool wrap, uint32_t a, uint32_t b, uint32_t c);
/* shl/shr with PTX's rule: shift amounts >= width give 0 (shr.s: sign fill). */
uint64_t alu_shl(PtxType t, uint64_t a, uint32_t n);
uint64_t alu_shr(PtxType t, uint64_t a, uint32_t n);
/* Sign- or zero-extend the low bits of a of type t to 64 bits. */
uint64_t alu_extend(PtxType t, uint64_t a);

/* ---- conversions ---------------------------------------------------------
 * cvt.{irnd|frnd}{.ftz}{.sat}.dtype.atype, exact PTX rules:
 *  - float -> int: round by r (integer rounding), NaN -> 0, saturate to the
 *    destination range always (PTX: float->int conversions saturate);
 *  - int -> float: round by r (default rn);
 *  - float -> float narrowing: round by r; widening exact; same size with
 *    int_round: round to an integral value in that format (.rni etc);
 *  - int -> int: truncate or extend; with sat clamp to the destination range;
 *  - .sat on a float destination clamps to [0,1] (NaN -> 0);
 *  - f16/bf16 sources and destinations (bits in the low 16 bits).
 * int_round is true when the modifier was written .rni/.rzi/.rmi/.rpi.
 * Returns the destination bits zero-extended. */
uint64_t alu_cvt(PtxType dst, PtxType src, uint64_t a, AluRound r,
                 bool int_round, bool sat, bool ftz);

/* ex2.approx.f16, ex2.approx.ftz.bf16, tanh.approx.f16, tanh.approx.bf16:
 * the H100's result for the 16-bit input (the .f16x2/.bf16x2 forms apply
 * these to each half). */
uint16_t alu_f16_ex2_approx(uint16_t a);
uint16_t alu_bf16_ex2_approx(uint16_t a);
uint16_t alu_f16_tanh_approx(uint16_t a);
uint16_t alu_bf16_tanh_approx(uint16_t a);

/* f16 <-> f32 helpers (IEEE binary16, rn unless stated). */
uint32_t alu_f16_to_f32(uint16_t h);
uint16_t alu_f32_to_f16(uint32_t f, AluRound r);
uint32_t alu_bf16_to_f32(uint16_t h);
uint16_t alu_f32_to_bf16(uint32_t f, AluRound r);

#endif
