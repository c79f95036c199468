/* exec_vec.h: the vector-unit handlers of exec_vec.c and exec_vec_int.c, as
 * the decoders ask for them.  A decoder first picks its plain-C handler;
 * where the host has a vector form of it (AVX2 on x86-64, allowed by
 * exec_vec_test_mode), it takes that instead.  Every vector handler writes
 * exactly what the plain one does, in the lanes of its mask only.  Also
 * the affine-address test and the copies of exec_memfast.c, which pick
 * their code on each call: exec_vec_test_mode(0) sends them to plain C at
 * once.  (setp's and the test switch's prototypes are in exec_int.h.) */
#ifndef WARPSIM_EXEC_VEC_H
#define WARPSIM_EXEC_VEC_H

#include "exec_int.h"

/* The integer operations with a vector form.  32-bit ones store their
 * result zero-extended, as (uint64_t)(uint32_t); 64-bit ones all 64 bits. */
typedef enum {
    EXEC_VEC_ADD32, EXEC_VEC_SUB32, EXEC_VEC_MUL32, /* mul.lo */
    EXEC_VEC_AND32, EXEC_VEC_OR32, EXEC_VEC_XOR32,
    EXEC_VEC_SHL32, EXEC_VEC_SHR_U32, EXEC_VEC_SHR_S32, /* count >= 32: 0, 0, sign */
    EXEC_VEC_MAD32,                                     /* mad.lo */
    EXEC_VEC_MULWIDE_S32, EXEC_VEC_MULWIDE_U32,         /* 64-bit products */
    EXEC_VEC_MADWIDE_S32, EXEC_VEC_MADWIDE_U32,         /* + a 64-bit c */
    EXEC_VEC_ADD64, EXEC_VEC_SUB64, EXEC_VEC_AND64, EXEC_VEC_OR64, EXEC_VEC_XOR64,
    EXEC_VEC_MOV,   /* d = a & wm, wm = in->off or all ones when 0 (ex_mov) */
    EXEC_VEC_CVTA,  /* d = (a + in->off) & (in->size == 4 ? 0xffffffff : ~0) */
    EXEC_VEC_N
} ExecVecOp;

/* The vector handler of op for the decoded instruction in (its operands
 * already decoded: d, s[0..2], off, size), or NULL where the host has none
 * or exec_vec_test_mode(0) asked for the portable handlers; the decoder then
 * keeps its plain-C one. */
ExecFn exec_vec_int(ExecVecOp op, const SimInst *in);

/* Do the 32 lanes of register slot b hold b[0] + l * step (modulo 2^64),
 * step = b[1] - b[0]?  *step gets that difference either way.  AVX2 where
 * the host has it and exec_vec_test_mode allows, else plain C; the answer
 * is the same. */
bool exec_vec_affine(const uint64_t *b, uint64_t *step);

/* Copies for exec_memfast.c's whole-warp loads and stores, AVX2 or plain
 * C as exec_vec_affine.  exec_vec_fill: d[l] = v for each lane l of m.
 * exec_vec_load32: d[l] = the l-th of 32 consecutive 4-byte elements at src
 * (any alignment), zero-extended, or sign-extended when sgn.
 * exec_vec_store32: the l-th element at dst = the low 4 bytes of s[l]. */
void exec_vec_fill(uint64_t *d, uint64_t v, uint32_t m);
void exec_vec_load32(uint64_t *d, const uint8_t *src, bool sgn);
void exec_vec_store32(uint8_t *dst, const uint64_t *s);
/* d[l] = a[l] & wm for each lane l of m (d may be a). */
void exec_vec_and(uint64_t *d, const uint64_t *a, uint64_t wm, uint32_t m);
/* The lowest of p[l] over the lanes l of r, and in *at the lanes of r
 * holding it (r == 0: INT32_MAX and 0): a diverged warp's next group
 * (exec_lanes.c).  AVX2 or plain C as exec_vec_affine. */
int32_t exec_vec_lowest(const int32_t *p, uint32_t r, uint32_t *at);

#endif
