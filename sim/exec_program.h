/* exec_program.h: a loaded module as the executor runs it -- one flat
 * array of decoded instructions (SimInst) for all its functions, every
 * operand resolved to a register slot, a constant slot or an address; each
 * function's place in it (SimFuncInfo); the same instructions again with
 * registers packed into fewer slots (SimProgram.packed, exec_pack.c); and
 * the loading that makes them (exec_decode.c, exec_regs.c, exec_pack.c).
 * What a launch keeps while it runs (warps, blocks, SMs) is exec_int.h's. */
#ifndef WARPSIM_EXEC_PROGRAM_H
#define WARPSIM_EXEC_PROGRAM_H

#include <stdbool.h>
#include <stdint.h>

#include "error.h"
#include "memory.h"
#include "ptx.h"

#define WARP 32
#define FULL_MASK 0xffffffffu

typedef struct Exec Exec;   /* a launch running (exec_int.h) */
typedef struct Warp Warp;
typedef struct SimInst SimInst;

/* Runs instruction `in` for the lanes in m (guard already applied). */
typedef void (*ExecFn)(Exec *x, Warp *w, const SimInst *in, uint32_t m);

/* SimInst.defs bits (exec_regs.c). */
enum { EXEC_DEFS_D = 1, EXEC_DEFS_VD = 2, EXEC_DEFS_PRED = 4 };

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
    SLOT_TOTAL_SMEM, SLOT_COUNT /* (the cluster's: read by mov, exec_cluster_sreg) */
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
    uint8_t scope;       /* atom/red: 1 for .cta scope, 0 .gpu/.sys */
    uint8_t visible;     /* other warps can observe it (shared/global memory,
                            barriers, warp sync, clocks): the scheduler
                            interleaves warps at these (exec_sched.c) */
    uint8_t pseudo;      /* a tile marker (exec_tile.c): no hardware instruction --
                            not issued, counted, traced or timed */
    uint8_t wsync;       /* a warp-synchronous instruction (shfl/vote/match/
                            redux .sync, bar.warp.sync): its lanes wait for
                            every lane of the member mask (exec_sync.c) */
    uint8_t plain;       /* flow NEXT or BRANCH, not pseudo, not wsync: the
                            fast path of exec_issue_burst */
    uint8_t blk_private; /* visible, but only to the warps of its block: a
                            shared-memory ld/st (exec_burst_goes_on) */
    uint8_t cta_sync;    /* bar.sync / barrier.sync with no thread count:
                            exec_bar_whole's fast path may take it */
    uint8_t straight;    /* instructions from this one on (at most 255) that a
                            converged warp runs one after another with nothing
                            to decide between them: plain, flow NEXT, no
                            guard, not visible (exec_issue.c's straight runs) */
    uint8_t straight_blk; /* the same, counting blk_private ones as not visible:
                            the run while the rest of the block waits */
    uint8_t jumps;       /* bit 0: the straight run from here (straight >= 1)
                            ends at a bra (flow BRANCH, plain), which a straight
                            run may take too; bit 1: the same for straight_blk.
                            A bra does nothing but move pcs (its handler is a
                            no-op), so the run decides its lanes from its guard
                            alone (exec_issue.c) */
    uint8_t defs;        /* what it writes whole (every bit, whatever the slot
                            held) in every lane it runs, for exec_regs.c:
                            EXEC_DEFS_D d, EXEC_DEFS_VD the vd[] >= 0; and
                            EXEC_DEFS_PRED: d is a predicate, not a slot.
                            0: nothing known (conservative) */
    int32_t wmask;       /* wsync: slot of the member mask operand */
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
    uint8_t sys;             /* callee < 0: SIM_SYS_* */
} SimCall;

/* The system calls a module may declare .extern and call. */
enum { SIM_SYS_ASSERT, SIM_SYS_PRINTF, SIM_SYS_MALLOC, SIM_SYS_FREE };

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
    int reg_base, pred_base; /* its registers' first value slot and predicate
                                (in declaration order: see inspect.c) */
    bool recursive;          /* it can call itself (through its calls): each call
                                saves its registers and frames on the calling
                                lane's stack, each return restores them */
    int n_vals, n_preds;     /* its value registers and predicates (slots from
                                reg_base / pred_base on) */
    uint64_t local_lo, local_hi; /* its .local variables' byte range in a thread's frame */
    uint32_t frame_bytes;    /* what one recursive call of it saves */
    SimError *unsup;         /* the first instruction of it the simulator cannot
                                run (decoded as a fault), NULL when none: a
                                kernel that can reach it is refused at launch */
    int unsup_cu_file, unsup_cu_line; /* its .cu location (file index, line), -1 none */
    uint64_t *read_unset;    /* bit k: value register reg_base + k may be read by a
                                lane before that lane wrote it (exec_regs.c); NULL:
                                any may be.  Only these are cleared when a warp
                                starts in it (exec_run.c) */
    int32_t *pack;           /* value register k's slot in SimProgram.packed
                                (exec_pack.c); NULL: reg_base + k there too */
} SimFuncInfo;

/* A decoded module. */
typedef struct SimProgram {
    PtxModule *ptx;          /* owned */
    SimInst *insts;
    int n_insts;
    SimInst *packed;         /* insts again with each function's registers packed
                                into fewer slots (exec_pack.c): what a launch with
                                no timing model, trace or stepper runs (Exec.insts);
                                NULL: none could be packed */
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
    struct SimTileMark *tile_marks; /* decoded tile markers (exec_tile.c); SimInst.aux indexes */
    int n_tile_marks, cap_tile_marks;
} SimProgram;

/* ---- decoding (exec_decode.c; decoding one instruction: exec_decode.h) ---- */
/* Decode a parsed module; takes ownership of ptx (also on failure).
 * An instruction the simulator lacks does not fail the load: it is decoded
 * as a fault and its function remembers it (SimFuncInfo.unsup), so the
 * module's other kernels still run.  NULL with err filled only when the
 * module as a whole cannot be laid out (memory, limits). */
SimProgram *exec_decode(PtxModule *ptx, Memory *mem, SimError *err);
void exec_program_free(SimProgram *p);
/* Fill p->funcs[f].read_unset from its decoded instructions (exec_regs.c);
 * out of memory, or control flow it cannot follow, leaves it NULL. */
void exec_regs_plan(SimProgram *p, int f);
/* Where a lane goes after instruction i of function f (both relative to
 * its entry): up to 2 in out[], their count, or -1 when it cannot be
 * followed (exec_regs.c: its control-flow graph, for exec_regs.c and
 * exec_pack.c). */
int exec_succs(const SimProgram *p, int f, int i, int out[2]);
/* Pack each function's value registers into fewer slots where their lives
 * never overlap: p->packed, p->funcs[f].pack (exec_pack.c).  Out of memory
 * or anything it cannot follow leaves a function as named. */
void exec_pack_plan(SimProgram *p);
/* Whether launches may run p->packed: not when WARPSIM_PACK=0 (the named
 * slots everywhere, for comparisons). */
bool exec_pack_wanted(void);

/* Limits checked at decode: bytes of kernel parameters (cuLaunchKernel's,
 * Volta and later), and of local memory per thread (.local frames plus the
 * call parameter frame), and of .const variables (one constant bank). */
#define EXEC_MAX_KPARAMS 32764
#define EXEC_MAX_CONST 65536
#define EXEC_MAX_LOCAL (512 * 1024)

/* Thread-param pseudo space (call-site, .func parameters). */
#define SPACE_TPARAM 7

#endif
