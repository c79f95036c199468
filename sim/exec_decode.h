/* exec_decode.h: decoding one instruction -- the context each exec_*.c
 * file's decoder (dec_arith, dec_mem, ...) gets, the helpers that read its
 * modifiers and operands (exec_decode.c, exec_operand.c), and the per-file
 * decoders exec_decode.c dispatches to.  The executor's state and the rest
 * of its contract: exec_int.h. */
#ifndef WARPSIM_EXEC_DECODE_H
#define WARPSIM_EXEC_DECODE_H

#include "exec_int.h"

/* Decoding one instruction: each exec_*.c file decodes the opcodes it
 * runs, with the helpers below (exec_decode.c). */
typedef struct DecodeCtx {
    SimProgram *p;
    PtxModule *m;
    int fi;                 /* function index */
    const PtxFunc *f;
    const int32_t *slot;    /* per register of f: slot, or pred index */
    const ContractFuse *fuse; /* per instruction of f: the mul ptxas fuses into it */
    const PtxInst *pi;
    SimInst *in;
    uint32_t used;          /* bit i: modifier i was understood */
    uint8_t cta_scope;      /* the instruction has a .cta modifier */
    SimError *err;
} DecodeCtx;

typedef SimStatus (*DecodeFn)(DecodeCtx *c);

/* Variable i of f's vars is its parameter (or, *is_ret, its return value)
 * number k: k, else -1 (a .local or .shared of the function). */
int dec_var_param(const PtxFunc *f, int i, bool *is_ret);
/* True (and marked used) when modifier `word` is present. */
bool dec_mod(DecodeCtx *c, const char *word);
/* Mark every modifier in the NULL-terminated list used when present. */
void dec_ignore(DecodeCtx *c, const char *const *words);
/* Type modifiers in order (marked used); returns how many (at most 2). */
int dec_types(DecodeCtx *c, PtxType out[2]);
/* Rounding modifier (rn/rz/rm/rp or rni/rzi/rmi/rpi); *is_int set for the
 * i forms; -1 when none. */
int dec_round(DecodeCtx *c, bool *is_int);
/* True (and marked used) for .shared, .shared::cta or .shared::cluster. */
bool dec_shared(DecodeCtx *c);
/* State space modifier (global/shared/local/const/param), 0 when none. */
int dec_space(DecodeCtx *c);
/* Vector modifier v2/v4 -> 2/4, else 1. */
int dec_vec(DecodeCtx *c);
/* Operands.  Each fails with dec_fail when operand i is missing or of the
 * wrong kind, so a handler only ever sees slots it may read and write.
 * dec_src: a value (register, immediate encoded as `type`, special register,
 * variable address).  dec_dst: a value register to write ('_' is refused);
 * dec_dst_or_sink: the same, or -1 for '_' (the handler must test d >= 0).
 * dec_pred: a predicate register; with neg non-NULL a source that may be
 * negated ("!%p"), a constant 0/1 (-3/-2) or '_' (-1); with neg NULL a
 * destination (no negation, no '_').  dec_vec_reg: element k of the vector
 * operand i, a value register (or -1 for '_' when sink_ok). */
SimStatus dec_src(DecodeCtx *c, int i, PtxType type, int32_t *out);
SimStatus dec_dst(DecodeCtx *c, int i, int32_t *out);
SimStatus dec_dst_or_sink(DecodeCtx *c, int i, int32_t *out);
SimStatus dec_pred(DecodeCtx *c, int i, int32_t *out, bool *neg);
SimStatus dec_vec_reg(DecodeCtx *c, int i, int k, bool sink_ok, int32_t *out);
/* The predicate after '|' in "d|p" destination operand i (setp, shfl,
 * match): its index in *out, or -1 when there is none. */
SimStatus dec_pred2(DecodeCtx *c, int i, int32_t *out);
/* [base+off] operand i: base register slot or -1 and folded offset; the
 * variable's space (if it names one) in *vspace (0 otherwise). */
SimStatus dec_addr(DecodeCtx *c, int i, int32_t *base, int64_t *off, int *vspace);
/* The variable operand o names: its address (shared/local/const offset,
 * global address, param offset) and space (SPACE_TPARAM for call and .func
 * parameters); NULL when o names none. */
const PtxVar *dec_var(DecodeCtx *c, const PtxOperand *o, uint64_t *addr, int *space);
/* An error naming the instruction and its line. */
SimStatus dec_fail(DecodeCtx *c, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* A 32-lane constant slot for v (deduplicated). */
int32_t dec_konst(DecodeCtx *c, uint64_t v);

/* The per-file decoders. */
SimStatus dec_arith(DecodeCtx *c);   /* exec_arith.c: integer and bit ops */
SimStatus dec_float(DecodeCtx *c);   /* exec_float.c */
SimStatus dec_cvt(DecodeCtx *c);     /* exec_float.c: cvt */
SimStatus dec_cmp(DecodeCtx *c);     /* exec_arith.c: setp set selp slct */
SimStatus dec_mov(DecodeCtx *c);     /* exec_mov.c: mov cvta */
SimStatus dec_mem(DecodeCtx *c);     /* exec_mem.c: ld st atom red cp.async */
SimStatus dec_ctrl(DecodeCtx *c);    /* exec_ctrl.c: bra ret exit call bar */
SimStatus dec_warp(DecodeCtx *c);    /* exec_warp.c: shfl vote match redux */
SimStatus dec_async(DecodeCtx *c);   /* exec_async.c: cp.async, mbarrier */
SimStatus dec_tile(DecodeCtx *c);    /* exec_tile.c: tile.cuh's markers */
/* exec_intx.c: carry chains (called by dec_arith with the type), fns lop3
 * bmsk szext dp4a dp2a, isspacep */
SimStatus dec_carry(DecodeCtx *c, PtxType t);
SimStatus dec_intx(DecodeCtx *c);
SimStatus dec_isspacep(DecodeCtx *c);
SimStatus dec_video4(DecodeCtx *c);
/* Decode function f of p again into out (its n_insts + 1 instructions),
 * register r of it in slot (or predicate index) slots[r] (exec_decode.c,
 * for exec_pack.c). */
SimStatus exec_decode_func(SimProgram *p, int f, const int32_t *slots, SimInst *out, SimError *err);
SimStatus dec_cache_ctl(DecodeCtx *c); /* exec_hint.c: createpolicy applypriority discard */
/* exec_half.c: f16/f16x2/bf16/bf16x2 arithmetic of type t (its type
 * modifier already taken), and set/setp comparing halves (is_set: set with
 * destination type dt; st the source type) */
SimStatus dec_half(DecodeCtx *c, PtxType t);
SimStatus dec_half_cmp(DecodeCtx *c, bool is_set, PtxType dt, PtxType st);
#endif
