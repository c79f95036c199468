/* ptx.h: the PTX module as the parser hands it to the rest of warpsim.
 *
 * Pipeline: PTX text -> ptx_lex (tokens) -> ptx_parse (this IR) -> exec_decode
 * (compact executable form).  The parser knows PTX *syntax* only: an
 * instruction is its opcode, its dot-modifiers as written, a guard and its
 * operands with every name resolved (registers, variables, labels, functions).
 * What the modifiers mean is decided by the decoder, which names any
 * instruction it does not support together with its line.
 *
 * Ownership: everything hangs off one PtxModule and is freed by
 * ptx_module_free().  Strings are interned in the module and live as long. */
#ifndef WARPSIM_PTX_H
#define WARPSIM_PTX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "error.h"

/* ---- types and state spaces ------------------------------------------- */

typedef enum {
    PTX_T_NONE = 0,
    PTX_T_B8, PTX_T_B16, PTX_T_B32, PTX_T_B64, PTX_T_B128,
    PTX_T_U8, PTX_T_U16, PTX_T_U32, PTX_T_U64,
    PTX_T_S8, PTX_T_S16, PTX_T_S32, PTX_T_S64,
    PTX_T_F16, PTX_T_F16X2, PTX_T_BF16, PTX_T_BF16X2, PTX_T_F32, PTX_T_F64,
    PTX_T_PRED,
    PTX_T_COUNT
} PtxType;

/* Size of one element of T in bytes (pred: 0). */
int ptx_type_size(PtxType t);
/* Signed integer (.s8 ... .s64) / floating point (.f16 ... .f64, packed too). */
bool ptx_type_is_signed(PtxType t);
bool ptx_type_is_float(PtxType t);
/* "u32", "f64", ... ; "?" for PTX_T_NONE. */
const char *ptx_type_name(PtxType t);
/* Type named by a modifier or declaration word without its dot ("u32");
 * PTX_T_NONE when the word is not a type. */
PtxType ptx_type_from_name(const char *word);

typedef enum {
    PTX_SPACE_NONE = 0, /* generic addressing */
    PTX_SPACE_REG,
    PTX_SPACE_GLOBAL,
    PTX_SPACE_SHARED,
    PTX_SPACE_LOCAL,
    PTX_SPACE_CONST,
    PTX_SPACE_PARAM
} PtxSpace;

const char *ptx_space_name(PtxSpace s);

/* ---- special registers ------------------------------------------------ */

typedef enum {
    PTX_SREG_NONE = 0,
    PTX_SREG_TID_X, PTX_SREG_TID_Y, PTX_SREG_TID_Z,
    PTX_SREG_NTID_X, PTX_SREG_NTID_Y, PTX_SREG_NTID_Z,
    PTX_SREG_CTAID_X, PTX_SREG_CTAID_Y, PTX_SREG_CTAID_Z,
    PTX_SREG_NCTAID_X, PTX_SREG_NCTAID_Y, PTX_SREG_NCTAID_Z,
    PTX_SREG_LANEID, PTX_SREG_WARPID, PTX_SREG_NWARPID,
    PTX_SREG_SMID, PTX_SREG_NSMID, PTX_SREG_GRIDID,
    PTX_SREG_LANEMASK_EQ, PTX_SREG_LANEMASK_LE, PTX_SREG_LANEMASK_LT,
    PTX_SREG_LANEMASK_GE, PTX_SREG_LANEMASK_GT,
    PTX_SREG_CLOCK, PTX_SREG_CLOCK_HI, PTX_SREG_CLOCK64,
    PTX_SREG_GLOBALTIMER, PTX_SREG_GLOBALTIMER_LO, PTX_SREG_GLOBALTIMER_HI,
    PTX_SREG_DYNAMIC_SMEM_SIZE, PTX_SREG_TOTAL_SMEM_SIZE,
    PTX_SREG_ACTIVEMASK,
    /* sm_90 thread block clusters (nvcc emits %cluster_ctarank for
     * cluster.block_rank()) */
    PTX_SREG_CLUSTER_CTARANK, PTX_SREG_CLUSTER_NCTARANK,
    PTX_SREG_CLUSTER_CTAID_X, PTX_SREG_CLUSTER_CTAID_Y, PTX_SREG_CLUSTER_CTAID_Z,
    PTX_SREG_CLUSTER_NCTAID_X, PTX_SREG_CLUSTER_NCTAID_Y, PTX_SREG_CLUSTER_NCTAID_Z,
    PTX_SREG_CLUSTERID_X, PTX_SREG_CLUSTERID_Y, PTX_SREG_CLUSTERID_Z,
    PTX_SREG_NCLUSTERID_X, PTX_SREG_NCLUSTERID_Y, PTX_SREG_NCLUSTERID_Z,
    PTX_SREG_IS_EXPLICIT_CLUSTER,
    /* %envreg0..31: driver-defined values; a cooperative launch puts its grid
     * barrier's workspace address in %envreg1 (high) and %envreg2 (low) */
    PTX_SREG_ENVREG0,
    PTX_SREG_ENVREG31 = PTX_SREG_ENVREG0 + 31,
    PTX_SREG_COUNT
} PtxSreg;

/* "%tid.x" etc.; NULL for PTX_SREG_NONE. */
const char *ptx_sreg_name(PtxSreg s);
/* The special register written name ("%tid.x"); PTX_SREG_NONE if none. */
PtxSreg ptx_sreg_from_name(const char *name);

/* ---- declarations ----------------------------------------------------- */

/* A register declared with .reg (".reg .b32 %r<25>;" declares 25). */
typedef struct {
    const char *name;   /* "%r7" */
    PtxType type;
    int vec;            /* 1, or 2/4 for ".reg .v4 .f32" */
} PtxReg;

/* A variable in an addressable state space: module-level .global/.const/
 * .shared, function-level .shared/.local, .param of entries, functions and
 * call sequences. */
typedef struct {
    const char *name;
    PtxSpace space;
    PtxType type;       /* element type (.b8 for byte arrays) */
    int vec;            /* 1, 2 or 4 (".v4 .f32") */
    int align;          /* bytes; natural alignment when not written */
    uint64_t count;     /* elements (1 for a scalar; product of all
                           dimensions); 0 for "x[]" (an initializer gives
                           "x[] = {..}" its count) */
    bool is_array;
    bool is_extern;     /* ".extern .shared ... dyn[]" */
    uint64_t size;      /* count * type size * vec, bytes */
    uint8_t *init;      /* initializer bytes (size bytes) or NULL */
    bool is_ptr_init;   /* some initializer elements were symbol addresses */
    struct PtxInitRef *init_refs; /* symbol addresses to patch in, or NULL */
    int n_init_refs;
    int line;           /* PTX line of the declaration */
} PtxVar;

/* "{..., foo, ...}" in an initializer that names a variable: its address (plus
 * addend) is written at byte `offset` of the initializer, `size` bytes wide. */
typedef struct PtxInitRef {
    uint64_t offset;
    int size;
    const char *symbol;
    int64_t addend;
    bool generic;       /* written as generic(foo) */
    int shift;          /* bits: the value written is (address >> shift), cut
                           to size bytes; nonzero only for a lone masked byte
                           "0xFF00(foo)" (nvcc's full 8-byte runs of those are
                           merged into one ref with size 8, shift 0) */
} PtxInitRef;

/* ---- source locations ------------------------------------------------- */

/* One .loc: file number (index into PtxModule.files), line, column, and the
 * location it was inlined at (index into PtxModule.locs, -1 for none). */
typedef struct {
    int file;
    int line;
    int col;
    int inlined_at;
    const char *function_name; /* from "function_name $L__info_stringN": the
                                  (mangled) name .debug_str holds for that
                                  label, or the label itself when the module
                                  has no .debug_str; NULL without one */
} PtxLoc;

/* ---- operands --------------------------------------------------------- */

typedef enum {
    PTX_OPND_NONE = 0,
    PTX_OPND_REG,       /* reg (and reg2 for "%r1|%p1") */
    PTX_OPND_SREG,      /* special register */
    PTX_OPND_IMM_INT,   /* ival (as written; 64-bit two's complement) */
    PTX_OPND_IMM_F32,   /* fbits: 0fXXXXXXXX */
    PTX_OPND_IMM_F64,   /* fbits: 0dXXXXXXXXXXXXXXXX or a decimal float */
    PTX_OPND_VAR,       /* a variable's address: var (plus ival as addend) */
    PTX_OPND_LABEL,     /* a branch target: target instruction index (also
                           the .callprototype label of an indirect call) */
    PTX_OPND_FUNC,      /* a function name (call target, or its address) */
    PTX_OPND_ADDR,      /* [base + ival]: base is a REG, VAR or none; the
                           "[%rd1, {%f1, %f2}]" of tex/tensor ops has the part
                           after the comma in elems[0] (n_elems 1) */
    PTX_OPND_VEC,       /* {a, b, c, d}: elems */
    PTX_OPND_LIST,      /* (a, b, ...) of a call: elems */
    PTX_OPND_SINK       /* "_" */
} PtxOpndKind;

typedef struct PtxOperand {   /* (fields ordered to pack: 56 bytes) */
    PtxOpndKind kind;
    int reg;                  /* REG, ADDR with register base: index into func regs */
    int reg2;                 /* REG with "|%p": second register, else -1 */
    PtxSreg sreg;             /* SREG */
    int var;                  /* VAR, ADDR with variable base: index into
                                 var_scope's table, else -1 */
    int target;               /* LABEL: instruction index; FUNC: function index */
    int n_elems;
    bool neg;                 /* "!%p" (predicates) or "-" written before a
                                 register; a minus before a number is folded
                                 into ival / fbits instead */
    bool var_is_module;       /* var indexes PtxModule.vars, else PtxFunc.vars */
    int64_t ival;             /* IMM_INT value; ADDR/VAR offset */
    uint64_t fbits;           /* IMM_F32 (low 32 bits) / IMM_F64 bit pattern */
    struct PtxOperand *elems; /* VEC, LIST */
} PtxOperand;

/* ---- instructions ----------------------------------------------------- */

/* mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 has 9 modifiers, TMA's
 * cp.async.bulk.tensor.* up to 10; wgmma takes 8 operands */
#define PTX_MAX_MODS 12
#define PTX_MAX_OPNDS 8

/* mods and opnds point into the module's arena and hold exactly n_mods and
 * n_opnds elements (at most PTX_MAX_MODS / PTX_MAX_OPNDS), so that a
 * million instructions take memory in proportion to what they say. */
typedef struct {
    const char *opcode;            /* "ld" */
    const char **mods;             /* {"global","nc","v4","f32"}: without dots */
    int n_mods;
    int guard;                     /* predicate register index, or -1 */
    bool guard_neg;                /* "@!%p" */
    PtxOperand *opnds;
    int n_opnds;
    int ptx_line;                  /* line in the PTX text */
    int ptx_col;                   /* column of the opcode */
    int loc;                       /* index into PtxModule.locs, or -1 */
} PtxInst;

/* ---- tile markers (ptx_tile.c) -------------------------------------------- */

/* lessons/include/tile.cuh marks each tile operation with a comment
 * "//@ tile.OP a, b, ...;" that ptxas ignores.  The parser reads it as an
 * instruction with opcode "tile", one modifier (the operation) and its
 * operands (registers or integer constants; the layouts are in ptx_tile.c),
 * and rejects a malformed one like any bad instruction. */
typedef enum {
    PTX_TILE_LOAD, PTX_TILE_STORE, PTX_TILE_GATHER, PTX_TILE_SCATTER, PTX_TILE_ATOM,
    PTX_TILE_ELEM, PTX_TILE_END, PTX_TILE_REDUCE, PTX_TILE_MATMUL,
    PTX_TILE_COUNT
} PtxTileOp;

/* The PtxTileOp of a tile marker; -1 for any other instruction. */
int ptx_tile_op(const PtxInst *in);
/* "load", "atom", ...; "?" when out of range. */
const char *ptx_tile_op_name(int op);

/* ---- functions and the module ----------------------------------------- */

typedef struct {
    const char *name;
    bool is_entry;            /* .entry (a kernel) or .func */
    bool is_extern;           /* declaration only (vprintf, malloc): .extern,
                                 or a header ending in ';' that this module
                                 never defines */
    bool is_visible;
    PtxVar *params;           /* .param of the entry/func, in order */
    int n_params;
    PtxVar *rets;             /* return .params of a .func */
    int n_rets;
    PtxReg *regs;             /* every register declared anywhere in it */
    int n_regs;
    PtxVar *vars;             /* the params (n_params), then the rets
                                 (n_rets), then every .shared/.local/.param
                                 declared in the body, in order: an operand
                                 naming a param has var < n_params */
    int n_vars;
    PtxInst *insts;
    int n_insts;
    int maxntid[3], reqntid[3];     /* 0 when absent */
    int minnctapersm, maxnreg, maxclusterrank; /* 0 when absent */
    int reqnctapercluster[3];
    int line;                 /* PTX line of its header */
} PtxFunc;

typedef struct {
    const char *path;         /* as given to ptx_parse_module */
    char *text;               /* the whole source (for error carets) */
    int version_major, version_minor;
    char target[32];          /* "sm_90" */
    int address_size;         /* 64 */
    const char **files;       /* .file N "path": files[N], NULL if not given;
                                 n_files covers every N of .file and .loc */
    int n_files;
    PtxLoc *locs;
    int n_locs;
    PtxVar *vars;             /* module-level variables */
    int n_vars;
    PtxFunc *funcs;
    int n_funcs;
    struct PtxArena *arena;   /* private: owns every allocation */
} PtxModule;

/* Parse PTX text (len bytes, need not be NUL-terminated).  path names it in
 * messages.  On success returns a module the caller frees with
 * ptx_module_free(); on bad input returns NULL and fills *err with the file,
 * line, column and message of the first problem (status SIM_ERR_PARSE).
 * Out of memory: NULL with SIM_ERR_NOMEM; text NULL with len > 0:
 * SIM_ERR_USAGE.  err may be NULL.  Limits (an error, not a crash): 1 GiB of
 * text, 1 GiB per variable, 64 MiB per initialized variable, 2^22 registers,
 * 64 nested { } scopes, 8 array dimensions. */
PtxModule *ptx_parse_module(const char *path, const char *text, size_t len,
                            SimError *err);

void ptx_module_free(PtxModule *m);

/* Bytes the module holds (its arena: the text copy, every function,
 * instruction, operand and string), for checks that memory grows in
 * proportion to the input. */
size_t ptx_module_bytes(const PtxModule *m);

/* Index of the function called name, or -1. */
int ptx_find_func(const PtxModule *m, const char *name);

/* Whether the instruction has modifier m (written without its dot: "global"). */
bool ptx_inst_has_mod(const PtxInst *in, const char *m);

/* The location an instruction was written at in the outermost source (the
 * user's .cu line, following inlined_at links), or NULL without .loc. */
const PtxLoc *ptx_inst_outer_loc(const PtxModule *m, const PtxInst *in);

/* The full text of PTX line `line` (1-based) without its newline, copied into
 * buf (truncated to cap-1). Returns buf, "" when out of range. */
const char *ptx_source_line(const PtxModule *m, int line, char *buf, size_t cap);

#endif
