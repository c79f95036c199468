/* ptx_int.h: internals shared by the PTX parser files (ptx_parse.c,
 * ptx_decl.c, ptx_inst.c, ptx_arena.c); the public contract is ptx.h.
 *
 * Errors unwind: ptx_fail() records the first problem and longjmps back to
 * ptx_parse_module(), which frees everything through its one `fail:` path.
 * Every allocation the parser makes lives in the module's arena or in the
 * PtxParser's own vectors, so nothing can leak on that jump. */
#ifndef WARPSIM_PTX_INT_H
#define WARPSIM_PTX_INT_H

#include <setjmp.h>
#include <stdnoreturn.h>

#include "ptx.h"
#include "ptx_lex.h"

/* ---- limits on what one module may declare (bad input gets an error) ---- */
#define PTX_LIM_REGS        (1 << 22)          /* registers in the module */
#define PTX_LIM_REG_RANGE   (1 << 20)          /* %r<N>: N */
#define PTX_LIM_VAR_BYTES   ((uint64_t)1 << 30) /* one variable */
#define PTX_LIM_INIT_BYTES  ((uint64_t)64 << 20) /* one initialized variable */
#define PTX_LIM_INIT_TOTAL  ((uint64_t)256 << 20) /* all initializers */
#define PTX_LIM_DIMS        8                  /* array dimensions / brace depth */
#define PTX_LIM_SCOPES      64                 /* nested { } in a body */
#define PTX_LIM_ELEMS       4096               /* {..} and (..) operand elements */
#define PTX_LIM_FILES       (1 << 16)          /* .file numbers */
#define PTX_LIM_ARENA       ((size_t)3 << 30)  /* bytes of one module */

/* ---- arena: bump allocation, freed all at once (ptx_arena.c) ---- */
struct PtxArena;
struct PtxArena *ptx_arena_new(void);
void ptx_arena_free(struct PtxArena *a);
/* bytes taken from malloc so far */
size_t ptx_arena_bytes(const struct PtxArena *a);
/* n zeroed bytes aligned to 16; NULL when out of memory or past the limit. */
void *ptx_arena_alloc(struct PtxArena *a, size_t n);

/* ---- maps from interned names (pointer identity) to ints ---- */
typedef struct {
    const char **keys;
    int *vals;
    size_t cap, n;
} PtxMap;
/* value for key, or -1 */
int ptx_map_get(const PtxMap *m, const char *key);
/* false when out of memory */
bool ptx_map_set(PtxMap *m, const char *key, int val);
void ptx_map_free(PtxMap *m);

/* ---- parser state ---- */
typedef struct {            /* one initializer element before layout */
    uint64_t idx;           /* element slot */
    PtxTokKind kind;        /* INT, F32, F64, or IDENT for a symbol */
    uint64_t bits;
    bool neg;               /* INT written with a minus */
    const PtxToken *tok;
    const char *sym;
    int64_t addend;
    bool generic;
    int shift;              /* 0xFF00(sym): 8 */
    bool masked;
} PtxInitItem;

typedef struct {
    const char *name;       /* interned */
    int inst;               /* index of the instruction after it */
    int line, col;
} PtxLabel;

typedef struct {            /* an operand waiting for a label or function */
    int func, inst, opnd, elem; /* elem -1: the operand itself */
    const PtxToken *tok;
} PtxFixup;

typedef struct {            /* a slot of the .loc position table (ptx_dir.c) */
    int file, line, col;
    int loc;                /* index into PtxModule.locs; -1: empty slot */
} PtxLocSlot;

typedef struct {            /* ".reg .b32 %r<25>" remembered for messages */
    const char *prefix;
    int count;
} PtxRange;

typedef struct {
    const char *path;
    PtxModule *m;
    SimError *err;
    jmp_buf jb;
    const PtxToken *toks;
    int pos, n_toks;

    const char **istrs;     /* intern table: open addressing (ptx_arena.c) */
    size_t icap, in;

    PtxMap mod_vars, mod_funcs;
    PtxMap pnames;          /* parameter names of the list being parsed */
    PtxVar *pvec; int pvec_cap; /* that list, before it moves to the arena */
    int vars_cap, funcs_cap, locs_cap, files_cap;
    uint64_t init_total;
    long total_regs;

    /* the function being parsed */
    int fn;                 /* index into m->funcs, -1 at module level */
    int regs_cap, vars_fcap, insts_cap;
    PtxMap fregs, fvars;    /* name -> innermost visible index */
    int *reg_prev, *reg_scope; int reg_side_cap;
    int *var_prev, *var_scope; int var_side_cap;
    int scope_id, n_scope_ids;
    int scope_stack[PTX_LIM_SCOPES + 1];
    int scope_reg0[PTX_LIM_SCOPES + 1], scope_var0[PTX_LIM_SCOPES + 1];
    int depth;
    PtxMap flabels;
    PtxLabel *labels; int n_labels, labels_cap;
    PtxMap fprotos;         /* .callprototype label -> instruction index */
    PtxRange *ranges; int n_ranges, ranges_cap;
    PtxFixup *lfix; int n_lfix, lfix_cap;   /* label fixups of this function */
    int cur_loc;
    PtxLocSlot *lslots;     /* (file, line, col) -> latest .loc of the body */
    size_t lcap, ln;

    PtxFixup *ffix; int n_ffix, ffix_cap;   /* function fixups of the module */
    PtxInitItem *items; int n_items, items_cap;
    struct { int var, ref; const PtxToken *tok; } *irefs; /* initializer */
    int n_irefs, irefs_cap;                               /* symbols to check */
    struct { const char *label; const char *str; } *dstr; int n_dstr, dstr_cap;
} PtxParser;

noreturn void ptx_fail(PtxParser *p, const PtxToken *t, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
noreturn void ptx_nomem(PtxParser *p);
void *ptx_alloc(PtxParser *p, size_t n);
/* grow a malloc'd vector *v of *cap elements of size sz to hold need */
void ptx_vec_reserve(PtxParser *p, void **v, int *cap, int need, size_t sz);
/* grow an arena array (old contents copied) */
void *ptx_arena_grow(PtxParser *p, void *old, int n, int *cap, size_t sz);
const char *ptx_intern(PtxParser *p, const char *s, size_t len);
/* A parsed "tile" instruction (a tile.cuh marker): fail at t unless its
 * operation and operands have the documented shape (ptx_tile.c). */
void ptx_tile_check(PtxParser *p, const PtxInst *in, const PtxToken *t);
const char *ptx_tok_intern(PtxParser *p, const PtxToken *t);

/* token helpers (ptx_parse.c) */
const PtxToken *ptx_peek(PtxParser *p);
const PtxToken *ptx_peek_at(PtxParser *p, int ahead);
const PtxToken *ptx_next(PtxParser *p);
bool ptx_is_punct(const PtxToken *t, char c);
bool ptx_is_dir(const PtxToken *t, const char *word);
bool ptx_accept(PtxParser *p, char c);
const PtxToken *ptx_expect(PtxParser *p, char c, const char *after);
int64_t ptx_expect_int(PtxParser *p, const char *what, int64_t lo, int64_t hi);
const PtxToken *ptx_expect_kind(PtxParser *p, PtxTokKind k, const char *what);
bool ptx_is_ident(const PtxToken *t, const char *word);

/* directives (ptx_dir.c); each starts at its directive token */
void ptx_dir_version(PtxParser *p);
void ptx_dir_target(PtxParser *p);
void ptx_dir_file(PtxParser *p);
void ptx_dir_loc(PtxParser *p);      /* sets p->cur_loc */
void ptx_dir_section(PtxParser *p);
void ptx_dir_pragma(PtxParser *p);
/* replace .loc function_name labels by their .debug_str text */
void ptx_dir_apply_debug_names(PtxParser *p);

/* declarations (ptx_decl.c) */
/* Parse the variable declaration(s) starting at the state-space directive
 * (linkage already consumed); space given; appends to module or function. */
void ptx_decl_vars(PtxParser *p, bool module_level, bool is_extern);
/* One ".param ..." of a function header into a PtxVar (no initializer). */
void ptx_decl_param(PtxParser *p, PtxVar *v);
/* ".reg ..." in a body. */
void ptx_decl_regs(PtxParser *p);
/* Append v to the current function's vars, with scoping; returns index. */
int ptx_decl_add_fvar(PtxParser *p, const PtxVar *v, const PtxToken *at);
/* Resolve initializer symbol references (module end). */
void ptx_decl_resolve_inits(PtxParser *p);

/* instructions (ptx_inst.c) */
void ptx_inst_parse(PtxParser *p);
/* Name lookup in the current function then module: */
int ptx_lookup_reg(PtxParser *p, const char *name);

#endif
