/* exec_int.h: internals shared by the executor's files (exec_*.c).
 *
 * A loaded module is decoded once (exec_decode.c) into one flat array of
 * SimInst for all its functions, with every operand resolved to a register
 * slot, a constant slot or an address.  Registers are lane-contiguous:
 * slot k of a warp is r[k*32 .. k*32+31], one uint64_t per lane; predicates
 * are one 32-bit lane mask each.  Handlers (exec_arith.c, exec_float.c,
 * exec_mem.c, exec_ctrl.c, exec_warp.c) run one instruction for the lanes of
 * a mask in tight loops; exec_run.c schedules blocks, warps and divergent
 * lane groups (one PC per thread). */
#ifndef WARPSIM_EXEC_INT_H
#define WARPSIM_EXEC_INT_H

#include <stdbool.h>
#include <stdint.h>

#include "alu.h"
#include "device.h"
#include "error.h"
#include "memory.h"
#include "ptx.h"
#include "trace.h"

#define WARP 32
#define FULL_MASK 0xffffffffu

typedef struct Exec Exec;
typedef struct Warp Warp;
typedef struct SimInst SimInst;

/* Runs instruction `in` for the lanes in m (guard already applied). */
typedef void (*ExecFn)(Exec *x, Warp *w, const SimInst *in, uint32_t m);

/* Control-flow class: how the scheduler moves PCs after the handler ran. */
enum {
    SIM_FLOW_NEXT = 0,  /* every lane of the group goes to pc+1 */
    SIM_FLOW_BRANCH,    /* lanes in the exec mask go to target */
    SIM_FLOW_SELF       /* the handler moved the PCs itself */
};

/* Per-lane special registers materialised into register slots when a warp
 * starts (their values never change during its life). */
enum {
    SLOT_TID_X, SLOT_TID_Y, SLOT_TID_Z, SLOT_NTID_X, SLOT_NTID_Y, SLOT_NTID_Z,
    SLOT_CTAID_X, SLOT_CTAID_Y, SLOT_CTAID_Z, SLOT_NCTAID_X, SLOT_NCTAID_Y,
    SLOT_NCTAID_Z, SLOT_LANEID, SLOT_WARPID, SLOT_NWARPID, SLOT_SMID,
    SLOT_NSMID, SLOT_GRIDID, SLOT_LANEMASK_EQ, SLOT_LANEMASK_LE,
    SLOT_LANEMASK_LT, SLOT_LANEMASK_GE, SLOT_LANEMASK_GT, SLOT_DYN_SMEM,
    SLOT_TOTAL_SMEM, SLOT_COUNT
};

struct SimInst {
    ExecFn fn;
    uint8_t flow;        /* SIM_FLOW_* */
    uint8_t type;        /* PtxType of the operation (destination for cvt) */
    uint8_t type2;       /* second type (cvt source, mul.wide source, ...) */
    uint8_t rnd;         /* AluRound */
    uint8_t ftz, sat, approx, cmp; /* flags; cmp is AluCmp */
    uint8_t space;       /* PtxSpace of a memory access */
    uint8_t vec;         /* 1, 2, 4 elements */
    uint8_t size;        /* bytes per element of a memory access */
    uint8_t sub;         /* instruction-specific sub-operation */
    uint8_t bop;         /* setp/vote combining op: 0 none, 1 and, 2 or, 3 xor */
    uint8_t negsrc;      /* bit i: predicate source i written negated */
    uint8_t aligned;     /* bar.*, barrier.*.aligned: the whole warp must
                            execute the same barrier instruction */
    int32_t d, d2;       /* destination slots (-1 none); predicates index p[] */
    int32_t s[4];        /* source slots: >=0 register, <0 constant ~k */
    int32_t pd;          /* destination predicate of "|%p" forms, -1 none */
    int32_t ps;          /* source predicate (selp c, setp combine, vote), -1 */
    int32_t vd[4];       /* vector destination/source slots (-1 for '_') */
    int32_t base;        /* address base register slot, or -1 */
    int64_t off;         /* address offset (variables already folded in) */
    int32_t guard;       /* guard predicate, -1 none */
    uint8_t guard_neg;
    int32_t target;      /* branch target pc, call target entry pc */
    int32_t aux;         /* instruction-specific (call descriptor index, ...) */
    int32_t ptx_line;    /* for faults and the stepper */
    int32_t loc;         /* PtxModule.locs index, -1 none */
    int32_t func;        /* index of the function it belongs to */
};

/* A call site's parameter copying (decoded from call's operand lists). */
typedef struct {
    int callee;              /* function index */
    int n_args, n_rets;
    int64_t arg_src[16], arg_dst[16], arg_size[16]; /* thread-param offsets */
    int64_t ret_src[4], ret_dst[4], ret_size[4];
    bool is_vprintf;
} SimCall;

/* Per function, after decoding. */
typedef struct {
    int entry_pc;            /* index of its first instruction in insts */
    int end_pc;
    uint64_t static_smem;    /* bytes of .shared declared in or used by it */
    uint64_t local_size;     /* bytes of .local frame */
    int nparams;
    int64_t param_off[64];   /* entry: offset in the param buffer; func: thread-param offset */
    int param_size[64];
    int64_t ret_off[8];
    int ret_size[8];
    int nrets;
} SimFuncInfo;

/* A decoded module. */
typedef struct SimProgram {
    PtxModule *ptx;          /* owned */
    SimInst *insts;
    int n_insts;
    SimFuncInfo *funcs;      /* parallel to ptx->funcs */
    int n_regs;              /* register slots (incl. SLOT_COUNT specials first) */
    int n_preds;
    uint64_t *konst;         /* constants, WARP copies each */
    int n_konst, cap_konst;
    SimCall *calls;
    int n_calls;
    uint64_t shared_size;    /* all static .shared laid out (offset 0 up) */
    uint64_t *var_addr;      /* module var i: its address (global/const/shared) */
    uint64_t *fvar_off;      /* per function var: flat index -> offset (see decode) */
    int *fvar_base;          /* per function: index of its first var in fvar_off */
    uint64_t local_size;     /* per-thread local frame for every function */
    uint64_t tparam_size;    /* per-thread param frame */
    uint64_t dyn_smem_align; /* alignment of extern .shared */
    uint8_t *const_bank;     /* .const variables' bytes */
    uint64_t const_size;
} SimProgram;

/* Lane states. */
enum { LANE_RUN = 0, LANE_BAR, LANE_EXIT, LANE_ABSENT };

struct Warp {
    uint64_t *r;             /* n_regs * WARP */
    uint32_t *p;             /* n_preds */
    int32_t pc[WARP];        /* per-lane pc (valid for all lanes when !conv) */
    int32_t upc;             /* the common pc while conv */
    bool conv;               /* every runnable lane is at upc */
    uint32_t run;            /* runnable lanes */
    uint32_t exited;
    uint32_t present;        /* lanes that exist (partial last warp) */
    uint32_t barwait;        /* lanes waiting at a block barrier */
    int id;                  /* warp index within the block */
    uint8_t barid[WARP];     /* barrier each waiting lane waits at */
    uint32_t bar_skip;       /* live lanes that were elsewhere (and not about
                                to exit) when part of the warp arrived at an
                                aligned barrier; cleared as they arrive.  Any
                                left at release: barrier divergence */
    uint8_t callsp[WARP];    /* call depth per lane */
    int32_t *retpc;          /* [lane * MAX_CALL_DEPTH + depth]: pc of the call */
};

#define MAX_CALL_DEPTH 32

/* Per-block barrier state (16 hardware barriers). */
typedef struct {
    uint32_t arrived;        /* threads arrived */
    uint32_t expected;       /* 0: every non-exited thread */
    uint32_t red_popc;       /* bar.red accumulators */
    bool red_and, red_or;
    uint32_t gen;
} SimBarrier;

struct Exec {
    SimProgram *prog;
    int fidx;                 /* the kernel */
    Memory *mem;
    const DeviceLaunch *cfg;
    uint8_t *params;          /* kernel parameter buffer */
    uint64_t params_size;
    uint8_t *shared;          /* this block's shared memory */
    uint64_t shared_size;     /* static + dynamic */
    uint64_t dyn_smem;
    uint8_t *local;           /* nthreads * prog->local_size */
    uint8_t *tparam;          /* nthreads * prog->tparam_size */
    DeviceDim3 ctaid;
    int nthreads;
    int nwarps;
    Warp *warps;
    SimBarrier bar[16];
    uint32_t exited_threads;
    DeviceStats *stats;
    DeviceFault *fault;
    bool faulted;
    uint64_t budget;
    uint64_t clock;           /* a simple per-launch instruction clock */
    int nsm;
    TraceWriter *trace;       /* NULL unless the launch is traced (exec_trace.c) */
    /* printf output of this launch */
    char *out;
    size_t out_len, out_cap;
};

/* ---- operand access ---------------------------------------------------- */
static inline uint64_t *exec_reg(Warp *w, int32_t slot)
{
    return w->r + (int64_t)slot * WARP;
}
static inline const uint64_t *exec_src(const Exec *x, const Warp *w, int32_t s)
{
    return s >= 0 ? w->r + (int64_t)s * WARP : x->prog->konst + (int64_t)(~s) * WARP;
}

/* Set lanes of a mask.  __builtin_popcount is a libgcc call without
 * -mpopcnt; this is the branch-free SWAR count, and a full warp is free. */
static inline int exec_popc(uint32_t m)
{
    if (m == FULL_MASK)
        return WARP;
    m = m - ((m >> 1) & 0x55555555u);
    m = (m & 0x33333333u) + ((m >> 2) & 0x33333333u);
    m = (m + (m >> 4)) & 0x0f0f0f0fu;
    return (int)((m * 0x01010101u) >> 24);
}

/* Thread index within the block of lane l of warp w. */
static inline int exec_tid(const Warp *w, int l) { return w->id * WARP + l; }

/* ---- faults (exec_run.c) ----------------------------------------------- */
/* Stop the launch: record kind and message for lane `lane` of w at in. */
void exec_fault(Exec *x, Warp *w, const SimInst *in, int lane, const char *kind,
                uint64_t addr, const char *fmt, ...)
    __attribute__((format(printf, 7, 8)));

/* Leave the converged fast path: write the common PC to every lane. */
void exec_warp_diverge(Warp *w);

/* ---- memory access (exec_mem.c) ---------------------------------------- */
/* Host pointer for `size` bytes at address a in space sp for lane l, or NULL
 * after recording a fault. */
uint8_t *exec_addr(Exec *x, Warp *w, const SimInst *in, int l, int sp,
                   uint64_t a, unsigned size, bool write);

/* ---- decoding (exec_decode.c) ------------------------------------------ */
/* Decode a parsed module; takes ownership of ptx (also on failure).
 * NULL with err filled (SIM_ERR_UNSUPPORTED naming the instruction). */
SimProgram *exec_decode(PtxModule *ptx, Memory *mem, SimError *err);
void exec_program_free(SimProgram *p);

/* Decoding one instruction: each exec_*.c file decodes the opcodes it
 * runs, with the helpers below (exec_decode.c). */
typedef struct DecodeCtx {
    SimProgram *p;
    PtxModule *m;
    int fi;                 /* function index */
    const PtxFunc *f;
    const int32_t *slot;    /* per register of f: slot, or pred index */
    const PtxInst *pi;
    SimInst *in;
    uint32_t used;          /* bit i: modifier i was understood */
    SimError *err;
} DecodeCtx;

typedef SimStatus (*DecodeFn)(DecodeCtx *c);

/* True (and marked used) when modifier `word` is present. */
bool dec_mod(DecodeCtx *c, const char *word);
/* Mark every modifier in the NULL-terminated list used when present. */
void dec_ignore(DecodeCtx *c, const char *const *words);
/* Type modifiers in order (marked used); returns how many (at most 2). */
int dec_types(DecodeCtx *c, PtxType out[2]);
/* Rounding modifier (rn/rz/rm/rp or rni/rzi/rmi/rpi); *is_int set for the
 * i forms; -1 when none. */
int dec_round(DecodeCtx *c, bool *is_int);
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

/* Limits checked at decode: bytes of kernel parameters (cuLaunchKernel's,
 * Volta and later), and of local memory per thread (.local frames plus the
 * call parameter frame), and of .const variables (one constant bank). */
#define EXEC_MAX_KPARAMS 32764
#define EXEC_MAX_CONST 65536
#define EXEC_MAX_LOCAL (512 * 1024)

/* Thread-param pseudo space (call-site, .func parameters). */
#define SPACE_TPARAM 7

/* The per-file decoders. */
SimStatus dec_arith(DecodeCtx *c);   /* exec_arith.c: integer and bit ops */
SimStatus dec_float(DecodeCtx *c);   /* exec_float.c */
SimStatus dec_cvt(DecodeCtx *c);     /* exec_float.c: cvt */
SimStatus dec_cmp(DecodeCtx *c);     /* exec_arith.c: setp set selp slct */
SimStatus dec_mov(DecodeCtx *c);     /* exec_arith.c: mov cvta */
SimStatus dec_mem(DecodeCtx *c);     /* exec_mem.c: ld st atom red cp.async */
SimStatus dec_ctrl(DecodeCtx *c);    /* exec_ctrl.c: bra ret exit call bar */
SimStatus dec_warp(DecodeCtx *c);    /* exec_warp.c: shfl vote match redux */

/* ---- running (exec_run.c) ---------------------------------------------- */
/* Launch function fidx of prog.  Returns SIM_OK or SIM_ERR_FAULT.  trace:
 * the writer to record the launch into, or NULL (the caller opens and
 * closes it). */
SimStatus exec_launch(SimProgram *prog, Memory *mem, int fidx,
                      const DeviceLaunch *cfg, uint8_t *params,
                      DeviceStats *stats, DeviceFault *fault, int nsm,
                      char **out, size_t *out_len, TraceWriter *trace);

/* ---- tracing hooks (exec_trace.c), called only when x->trace ----------- */
void exec_trace_block(Exec *x, bool begin);              /* dispatch / retire */
void exec_trace_issue(Exec *x, const Warp *w, const SimInst *in, uint32_t m);
void exec_trace_turn(Exec *x, const Warp *w, uint64_t start); /* start: clock before */
void exec_trace_mem(Exec *x, const Warp *w, const SimInst *in, uint32_t m, int kind);
void exec_trace_atomic(Exec *x, const Warp *w, const SimInst *in, int lane, uint64_t addr,
                       uint64_t old, uint64_t val);
void exec_trace_arrive(Exec *x, const Warp *w, uint32_t id, uint32_t m, uint32_t arrived);
void exec_trace_release(Exec *x, uint32_t id, uint32_t released);
void exec_trace_collective(Exec *x, const Warp *w, const SimInst *in, uint32_t m, int kind,
                           uint32_t member);
void exec_trace_fault(Exec *x, const Warp *w, const SimInst *in, int lane);

/* For tests (exec_float.c): true makes full-warp fma.rn.f32 take the
 * portable double-precision path even where the CPU has AVX2 and FMA, so
 * both paths can be checked on one machine.  Not for concurrent launches. */
void exec_float_test_portable_fma(bool on);

/* printf (exec_printf.c): format vprintf(fmt, args) for lane l into x->out. */
void exec_vprintf(Exec *x, Warp *w, const SimInst *in, int l,
                  uint64_t fmt, uint64_t args);

#endif
