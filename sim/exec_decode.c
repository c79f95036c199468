/* exec_decode.c: turn a parsed PtxModule into a SimProgram, once per load.
 *
 * Lays out memory (module .global variables become allocations, .const
 * variables a constant bank, .shared an offset map, .local and call
 * parameters per-thread frames), numbers register slots across all
 * functions, and decodes every instruction through the decoder of its
 * opcode family (dec_* in exec_*.c).  Anything not supported is reported
 * here, at load time, naming the instruction and its PTX line. */
#include "exec_int.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- decoding helpers (see exec_int.h) --------------------------------- */

SimStatus dec_fail(DecodeCtx *c, const char *fmt, ...)
{
    char msg[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    char full[200] = "";
    size_t o = 0;
    o += (size_t)snprintf(full + o, sizeof full - o, "%s", c->pi->opcode);
    for (int i = 0; i < c->pi->n_mods && o < sizeof full; i++)
        o += (size_t)snprintf(full + o, sizeof full - o, ".%s", c->pi->mods[i]);
    return sim_error_set(c->err, SIM_ERR_UNSUPPORTED, c->m->path, c->pi->ptx_line,
                         c->pi->ptx_col, "unsupported instruction '%s': %s", full, msg);
}

bool dec_mod(DecodeCtx *c, const char *word)
{
    for (int i = 0; i < c->pi->n_mods; i++)
        if (!strcmp(c->pi->mods[i], word)) {
            c->used |= 1u << i;
            return true;
        }
    return false;
}

void dec_ignore(DecodeCtx *c, const char *const *words)
{
    for (; *words; words++)
        dec_mod(c, *words);
}

int dec_types(DecodeCtx *c, PtxType out[2])
{
    int n = 0;
    for (int i = 0; i < c->pi->n_mods && n < 2; i++) {
        PtxType t = ptx_type_from_name(c->pi->mods[i]);
        if (t != PTX_T_NONE) {
            out[n++] = t;
            c->used |= 1u << i;
        }
    }
    return n;
}

int dec_round(DecodeCtx *c, bool *is_int)
{
    static const char *const names[] = {"rn", "rz", "rm", "rp", "rni", "rzi", "rmi", "rpi"};
    for (int k = 0; k < 8; k++)
        if (dec_mod(c, names[k])) {
            if (is_int)
                *is_int = k >= 4;
            return k & 3;
        }
    if (is_int)
        *is_int = false;
    return -1;
}

int dec_space(DecodeCtx *c)
{
    if (dec_mod(c, "global")) return PTX_SPACE_GLOBAL;
    if (dec_mod(c, "shared")) {
        dec_mod(c, "cta");
        return PTX_SPACE_SHARED;
    }
    if (dec_mod(c, "local")) return PTX_SPACE_LOCAL;
    if (dec_mod(c, "const")) return PTX_SPACE_CONST;
    if (dec_mod(c, "param")) return PTX_SPACE_PARAM;
    return PTX_SPACE_NONE;
}

int dec_vec(DecodeCtx *c)
{
    if (dec_mod(c, "v2")) return 2;
    if (dec_mod(c, "v4")) return 4;
    if (dec_mod(c, "v8")) return 8;
    return 1;
}

int32_t dec_konst(DecodeCtx *c, uint64_t v)
{
    SimProgram *p = c->p;
    /* Slot 0 is reserved and never handed out: its code ~0 is -1, which
     * SimInst.s[] uses for "no operand" (handlers test s[i] != -1). */
    for (int k = 1; k < p->n_konst; k++)
        if (p->konst[(int64_t)k * WARP] == v)
            return ~k;
    if (p->n_konst + 2 > p->cap_konst) {
        int cap = p->cap_konst ? p->cap_konst * 2 : 64;
        uint64_t *nk = realloc(p->konst, (size_t)cap * WARP * sizeof *nk);
        if (!nk)
            return ~0; /* reported by the caller's memory check below */
        p->konst = nk;
        p->cap_konst = cap;
    }
    if (p->n_konst == 0) {
        for (int l = 0; l < WARP; l++)
            p->konst[l] = 0;
        p->n_konst = 1;
    }
    for (int l = 0; l < WARP; l++)
        p->konst[(int64_t)p->n_konst * WARP + l] = v;
    return ~(p->n_konst++);
}

/* The parser lists a function's parameters (then its return parameters)
 * among its variables too; which parameter is variable i, or -1. */
static int var_param(const PtxFunc *f, int i, bool *is_ret)
{
    if (i < f->n_params && !strcmp(f->vars[i].name, f->params[i].name)) {
        *is_ret = false;
        return i;
    }
    int j = i - f->n_params;
    if (j >= 0 && j < f->n_rets && !strcmp(f->vars[i].name, f->rets[j].name)) {
        *is_ret = true;
        return j;
    }
    return -1;
}

/* The variable an operand names, its address and its space. */
const PtxVar *dec_var(DecodeCtx *c, const PtxOperand *o, uint64_t *addr, int *space)
{
    const PtxModule *m = c->m;
    const PtxFunc *f = c->f;
    SimProgram *p = c->p;
    if (o->var_is_module) {
        if (o->var < 0 || o->var >= m->n_vars)
            return NULL;
        const PtxVar *v = &m->vars[o->var];
        *space = v->space;
        if (v->space == PTX_SPACE_SHARED && v->is_extern)
            *addr = p->funcs[c->fi].static_smem; /* dynamic shared starts after static */
        else
            *addr = p->var_addr[o->var];
        return v;
    }
    int i = o->var;
    if (i < 0)
        return NULL;
    if (i < f->n_vars) {
        const PtxVar *v = &f->vars[i];
        bool is_ret;
        int pi = var_param(f, i, &is_ret);
        if (pi >= 0 && !is_ret) {
            *addr = (uint64_t)p->funcs[c->fi].param_off[pi];
            *space = f->is_entry ? PTX_SPACE_PARAM : SPACE_TPARAM;
            return v;
        }
        if (pi >= 0) {
            *addr = (uint64_t)p->funcs[c->fi].ret_off[pi];
            *space = SPACE_TPARAM;
            return v;
        }
        *addr = p->fvar_off[p->fvar_base[c->fi] + i];
        *space = v->space == PTX_SPACE_PARAM ? SPACE_TPARAM : (int)v->space;
        if (v->space == PTX_SPACE_SHARED && v->is_extern)
            *addr = p->funcs[c->fi].static_smem;
        return v;
    }
    i -= f->n_vars;
    if (i < f->n_params) {
        *addr = (uint64_t)p->funcs[c->fi].param_off[i];
        *space = f->is_entry ? PTX_SPACE_PARAM : SPACE_TPARAM;
        return &f->params[i];
    }
    i -= f->n_params;
    if (i < f->n_rets) {
        *addr = (uint64_t)p->funcs[c->fi].ret_off[i];
        *space = SPACE_TPARAM;
        return &f->rets[i];
    }
    return NULL;
}

static SimStatus check_opnd(DecodeCtx *c, int i)
{
    if (i >= c->pi->n_opnds)
        return dec_fail(c, "expected at least %d operands", i + 1);
    return SIM_OK;
}

SimStatus dec_src(DecodeCtx *c, int i, PtxType type, int32_t *out)
{
    if (check_opnd(c, i))
        return c->err->status;
    const PtxOperand *o = &c->pi->opnds[i];
    switch (o->kind) {
    case PTX_OPND_REG:
        if (o->reg < 0 || o->reg >= c->f->n_regs)
            return dec_fail(c, "bad register");
        if (c->f->regs[o->reg].type == PTX_T_PRED)
            return dec_fail(c, "operand %d is a predicate where a value is expected", i + 1);
        *out = c->slot[o->reg];
        if (o->neg)
            return dec_fail(c, "negated operand");
        return SIM_OK;
    case PTX_OPND_IMM_INT: {
        uint64_t v = (uint64_t)o->ival;
        if (type == PTX_T_F32) {
            float f = (float)o->ival;
            uint32_t b;
            memcpy(&b, &f, 4);
            v = b;
        } else if (type == PTX_T_F64) {
            double d = (double)o->ival;
            memcpy(&v, &d, 8);
        }
        *out = dec_konst(c, v);
        return SIM_OK;
    }
    case PTX_OPND_IMM_F32: {
        uint64_t v = o->fbits & 0xffffffffu;
        if (type == PTX_T_F64) {
            float f;
            uint32_t b = (uint32_t)v;
            memcpy(&f, &b, 4);
            double d = f;
            memcpy(&v, &d, 8);
        }
        *out = dec_konst(c, v);
        return SIM_OK;
    }
    case PTX_OPND_IMM_F64: {
        uint64_t v = o->fbits;
        if (type == PTX_T_F32 || type == PTX_T_B32) {
            double d;
            memcpy(&d, &v, 8);
            float f = (float)d;
            uint32_t b;
            memcpy(&b, &f, 4);
            v = b;
        }
        *out = dec_konst(c, v);
        return SIM_OK;
    }
    case PTX_OPND_SREG: {
        static const int8_t map[PTX_SREG_COUNT] = {
            [PTX_SREG_TID_X] = SLOT_TID_X + 1, [PTX_SREG_TID_Y] = SLOT_TID_Y + 1,
            [PTX_SREG_TID_Z] = SLOT_TID_Z + 1, [PTX_SREG_NTID_X] = SLOT_NTID_X + 1,
            [PTX_SREG_NTID_Y] = SLOT_NTID_Y + 1, [PTX_SREG_NTID_Z] = SLOT_NTID_Z + 1,
            [PTX_SREG_CTAID_X] = SLOT_CTAID_X + 1, [PTX_SREG_CTAID_Y] = SLOT_CTAID_Y + 1,
            [PTX_SREG_CTAID_Z] = SLOT_CTAID_Z + 1, [PTX_SREG_NCTAID_X] = SLOT_NCTAID_X + 1,
            [PTX_SREG_NCTAID_Y] = SLOT_NCTAID_Y + 1, [PTX_SREG_NCTAID_Z] = SLOT_NCTAID_Z + 1,
            [PTX_SREG_LANEID] = SLOT_LANEID + 1, [PTX_SREG_WARPID] = SLOT_WARPID + 1,
            [PTX_SREG_NWARPID] = SLOT_NWARPID + 1, [PTX_SREG_SMID] = SLOT_SMID + 1,
            [PTX_SREG_NSMID] = SLOT_NSMID + 1, [PTX_SREG_GRIDID] = SLOT_GRIDID + 1,
            [PTX_SREG_LANEMASK_EQ] = SLOT_LANEMASK_EQ + 1, [PTX_SREG_LANEMASK_LE] = SLOT_LANEMASK_LE + 1,
            [PTX_SREG_LANEMASK_LT] = SLOT_LANEMASK_LT + 1, [PTX_SREG_LANEMASK_GE] = SLOT_LANEMASK_GE + 1,
            [PTX_SREG_LANEMASK_GT] = SLOT_LANEMASK_GT + 1,
            [PTX_SREG_DYNAMIC_SMEM_SIZE] = SLOT_DYN_SMEM + 1,
            [PTX_SREG_TOTAL_SMEM_SIZE] = SLOT_TOTAL_SMEM + 1,
        };
        if (o->sreg <= PTX_SREG_NONE || o->sreg >= PTX_SREG_COUNT || !map[o->sreg])
            return dec_fail(c, "special register %s can only be read with mov",
                            ptx_sreg_name(o->sreg) ? ptx_sreg_name(o->sreg) : "?");
        *out = map[o->sreg] - 1;
        return SIM_OK;
    }
    case PTX_OPND_VAR: {
        uint64_t a;
        int sp;
        if (!dec_var(c, o, &a, &sp))
            return dec_fail(c, "bad variable operand");
        if (sp == PTX_SPACE_PARAM || sp == SPACE_TPARAM)
            return dec_fail(c, "taking the address of a .param variable");
        *out = dec_konst(c, a + (uint64_t)o->ival);
        return SIM_OK;
    }
    default:
        return dec_fail(c, "operand %d is not a value", i + 1);
    }
}

SimStatus dec_dst_or_sink(DecodeCtx *c, int i, int32_t *out)
{
    if (check_opnd(c, i))
        return c->err->status;
    const PtxOperand *o = &c->pi->opnds[i];
    if (o->kind == PTX_OPND_SINK) {
        *out = -1;
        return SIM_OK;
    }
    return dec_dst(c, i, out);
}

SimStatus dec_dst(DecodeCtx *c, int i, int32_t *out)
{
    if (check_opnd(c, i))
        return c->err->status;
    const PtxOperand *o = &c->pi->opnds[i];
    if (o->kind == PTX_OPND_SINK)
        return dec_fail(c, "operand %d cannot be '_': the instruction writes its result there", i + 1);
    if (o->kind != PTX_OPND_REG || o->reg < 0 || o->reg >= c->f->n_regs)
        return dec_fail(c, "operand %d must be a register", i + 1);
    if (c->f->regs[o->reg].type == PTX_T_PRED)
        return dec_fail(c, "operand %d is a predicate where a value register is expected", i + 1);
    *out = c->slot[o->reg];
    return SIM_OK;
}

SimStatus dec_pred(DecodeCtx *c, int i, int32_t *out, bool *neg)
{
    if (check_opnd(c, i))
        return c->err->status;
    const PtxOperand *o = &c->pi->opnds[i];
    if (o->kind == PTX_OPND_SINK && !neg)
        return dec_fail(c, "operand %d cannot be '_': the instruction writes a predicate there", i + 1);
    if (o->kind == PTX_OPND_SINK) {
        *out = -1;
        *neg = false;
        return SIM_OK;
    }
    if (o->kind == PTX_OPND_IMM_INT && neg) { /* a constant predicate: 0 or 1 */
        *out = o->ival ? -2 : -3;
        *neg = false;
        return SIM_OK;
    }
    if (o->kind != PTX_OPND_REG || o->reg < 0 || o->reg >= c->f->n_regs ||
        c->f->regs[o->reg].type != PTX_T_PRED)
        return dec_fail(c, "operand %d must be a predicate", i + 1);
    *out = c->slot[o->reg];
    if (neg)
        *neg = o->neg;
    else if (o->neg)
        return dec_fail(c, "operand %d cannot be negated", i + 1);
    return SIM_OK;
}

SimStatus dec_vec_reg(DecodeCtx *c, int i, int k, bool sink_ok, int32_t *out)
{
    const PtxOperand *e = &c->pi->opnds[i].elems[k];
    if (e->kind == PTX_OPND_SINK && sink_ok) {
        *out = -1;
        return SIM_OK;
    }
    if (e->kind == PTX_OPND_SINK)
        return dec_fail(c, "'_' as element %d of operand %d, which is read", k + 1, i + 1);
    if (e->kind != PTX_OPND_REG || e->reg < 0 || e->reg >= c->f->n_regs)
        return dec_fail(c, "element %d of operand %d must be a register", k + 1, i + 1);
    if (c->f->regs[e->reg].type == PTX_T_PRED)
        return dec_fail(c, "element %d of operand %d is a predicate where a value register is expected",
                        k + 1, i + 1);
    *out = c->slot[e->reg];
    return SIM_OK;
}

SimStatus dec_pred2(DecodeCtx *c, int i, int32_t *out)
{
    *out = -1;
    if (check_opnd(c, i))
        return c->err->status;
    const PtxOperand *o = &c->pi->opnds[i];
    if (o->kind != PTX_OPND_REG || o->reg2 < 0)
        return SIM_OK;
    if (o->reg2 >= c->f->n_regs || c->f->regs[o->reg2].type != PTX_T_PRED)
        return dec_fail(c, "the destination after '|' must be a predicate");
    *out = c->slot[o->reg2];
    return SIM_OK;
}

SimStatus dec_addr(DecodeCtx *c, int i, int32_t *base, int64_t *off, int *vspace)
{
    if (check_opnd(c, i))
        return c->err->status;
    const PtxOperand *o = &c->pi->opnds[i];
    *vspace = 0;
    *base = -1;
    *off = 0;
    if (o->kind != PTX_OPND_ADDR)
        return dec_fail(c, "operand %d must be an address [..]", i + 1);
    *off = o->ival;
    if (o->var >= 0) {
        uint64_t a;
        int sp;
        if (!dec_var(c, o, &a, &sp))
            return dec_fail(c, "bad variable in address");
        *off = (int64_t)((uint64_t)*off + a); /* wraps like the address arithmetic */
        *vspace = sp;
    } else if (o->reg >= 0) {
        if (o->reg >= c->f->n_regs || c->f->regs[o->reg].type == PTX_T_PRED)
            return dec_fail(c, "bad address register");
        *base = c->slot[o->reg];
    }
    return SIM_OK;
}

/* ---- the opcode table ---------------------------------------------------- */

typedef struct {
    const char *op;
    DecodeFn fn;
} OpEntry;

static const OpEntry optab[] = {
    {"add", dec_arith}, {"sub", dec_arith}, {"mul", dec_arith}, {"mad", dec_arith},
    {"mul24", dec_arith}, {"mad24", dec_arith}, {"div", dec_arith}, {"rem", dec_arith},
    {"abs", dec_arith}, {"neg", dec_arith}, {"min", dec_arith}, {"max", dec_arith},
    {"popc", dec_arith}, {"clz", dec_arith}, {"brev", dec_arith}, {"bfind", dec_arith},
    {"bfe", dec_arith}, {"bfi", dec_arith}, {"prmt", dec_arith}, {"shf", dec_arith},
    {"shl", dec_arith}, {"shr", dec_arith}, {"and", dec_arith}, {"or", dec_arith},
    {"xor", dec_arith}, {"not", dec_arith}, {"cnot", dec_arith}, {"sad", dec_arith},
    {"fma", dec_float}, {"rcp", dec_float}, {"sqrt", dec_float}, {"rsqrt", dec_float},
    {"ex2", dec_float}, {"lg2", dec_float}, {"sin", dec_float}, {"cos", dec_float},
    {"tanh", dec_float}, {"testp", dec_float}, {"copysign", dec_float},
    {"cvt", dec_cvt},
    {"setp", dec_cmp}, {"set", dec_cmp}, {"selp", dec_cmp}, {"slct", dec_cmp},
    {"mov", dec_mov}, {"cvta", dec_mov},
    {"ld", dec_mem}, {"ldu", dec_mem}, {"st", dec_mem}, {"atom", dec_mem}, {"red", dec_mem},
    {"cp", dec_async}, {"mbarrier", dec_async}, {"prefetch", dec_mem}, {"prefetchu", dec_mem},
    {"bra", dec_ctrl}, {"ret", dec_ctrl}, {"exit", dec_ctrl}, {"call", dec_ctrl},
    {"bar", dec_ctrl}, {"barrier", dec_ctrl}, {"membar", dec_ctrl}, {"fence", dec_ctrl},
    {"trap", dec_ctrl}, {"brkpt", dec_ctrl}, {"nanosleep", dec_ctrl}, {"pmevent", dec_ctrl},
    {"shfl", dec_warp}, {"vote", dec_warp}, {"match", dec_warp}, {"redux", dec_warp},
    {"activemask", dec_warp},
    {"tile", dec_tile},
};

static DecodeFn find_decoder(const char *op, const PtxInst *pi)
{
    for (size_t i = 0; i < sizeof optab / sizeof *optab; i++)
        if (!strcmp(optab[i].op, op)) {
            /* float add/sub/mul/mad/div/min/max/abs/neg go to the float decoder */
            if (optab[i].fn == dec_arith) {
                for (int k = 0; k < pi->n_mods; k++) {
                    PtxType t = ptx_type_from_name(pi->mods[k]);
                    if (ptx_type_is_float(t))
                        return dec_float;
                }
            }
            return optab[i].fn;
        }
    return NULL;
}

static SimStatus decode_inst(DecodeCtx *c)
{
    const PtxInst *pi = c->pi;
    SimInst *in = c->in;
    memset(in, 0, sizeof *in);
    in->d = in->d2 = in->pd = in->ps = in->base = -1;
    for (int k = 0; k < 4; k++)
        in->s[k] = in->vd[k] = -1;
    in->guard = -1;
    in->ptx_line = pi->ptx_line;
    in->loc = pi->loc;
    in->func = c->fi;
    in->vec = 1;
    if (pi->guard >= 0) {
        if (pi->guard >= c->f->n_regs || c->f->regs[pi->guard].type != PTX_T_PRED)
            return dec_fail(c, "guard is not a predicate");
        in->guard = c->slot[pi->guard];
        in->guard_neg = pi->guard_neg;
    }
    DecodeFn fn = find_decoder(pi->opcode, pi);
    if (!fn)
        return sim_error_set(c->err, SIM_ERR_UNSUPPORTED, c->m->path, pi->ptx_line,
                             pi->ptx_col, "unsupported instruction '%s': the simulator does not implement it",
                             pi->opcode);
    c->used = 0;
    c->cta_scope = 0;
    for (int k = 0; k < pi->n_mods; k++)
        if (!strcmp(pi->mods[k], "cta"))
            c->cta_scope = 1;
    SimStatus st = fn(c);
    if (st)
        return st;
    for (int k = 0; k < pi->n_mods; k++)
        if (!(c->used & (1u << k)))
            return dec_fail(c, "modifier .%s is not supported here", pi->mods[k]);
    if (!in->fn)
        return dec_fail(c, "no handler");
    static const char *const shows[] = {"atom", "red", "cp", "mbarrier", "bar", "barrier", "shfl", "vote",
                                        "match", "redux", NULL};
    for (const char *const *o = shows; *o; o++)
        if (!strcmp(pi->opcode, *o))
            in->visible = 1;
    if ((!strcmp(pi->opcode, "ld") || !strcmp(pi->opcode, "ldu") || !strcmp(pi->opcode, "st")) &&
        in->space != PTX_SPACE_LOCAL && in->space != PTX_SPACE_PARAM && in->space != PTX_SPACE_CONST &&
        in->space != SPACE_TPARAM)
        in->visible = 1;
    return SIM_OK;
}

/* ---- memory layout ------------------------------------------------------- */

static uint64_t align_up(uint64_t v, uint64_t a)
{
    if (a < 1)
        a = 1;
    return (v + a - 1) / a * a;
}

static int var_align(const PtxVar *v)
{
    int a = v->align;
    if (a <= 0) {
        a = ptx_type_size(v->type) * (v->vec > 0 ? v->vec : 1);
        if (a <= 0)
            a = 1;
    }
    return a;
}

static SimStatus layout(SimProgram *p, Memory *mem, SimError *err)
{
    PtxModule *m = p->ptx;
    p->var_addr = calloc((size_t)m->n_vars + 1, sizeof *p->var_addr);
    int nfv = 0;
    p->fvar_base = calloc((size_t)m->n_funcs + 1, sizeof *p->fvar_base);
    for (int f = 0; f < m->n_funcs; f++) {
        p->fvar_base[f] = nfv;
        nfv += m->funcs[f].n_vars;
    }
    p->fvar_off = calloc((size_t)nfv + 1, sizeof *p->fvar_off);
    if (!p->var_addr || !p->fvar_base || !p->fvar_off)
        return sim_error_set(err, SIM_ERR_NOMEM, m->path, 0, 0, "out of memory");

    /* module variables: .global -> allocations, .const -> bank, .shared -> offsets */
    uint64_t shared = 0, cbank = 0;
    for (int i = 0; i < m->n_vars; i++) {
        PtxVar *v = &m->vars[i];
        if (v->space == PTX_SPACE_CONST)
            cbank = align_up(cbank, (uint64_t)var_align(v)) + v->size;
    }
    if (cbank > EXEC_MAX_CONST)
        return sim_error_set(err, SIM_ERR_UNSUPPORTED, m->path, 0, 0,
                             "the module's .const variables take %llu bytes; a constant bank holds %d",
                             (unsigned long long)cbank, EXEC_MAX_CONST);
    p->const_bank = calloc(1, cbank + 1);
    p->const_size = cbank;
    if (!p->const_bank)
        return sim_error_set(err, SIM_ERR_NOMEM, m->path, 0, 0, "out of memory");
    cbank = 0;
    for (int i = 0; i < m->n_vars; i++) {
        PtxVar *v = &m->vars[i];
        switch (v->space) {
        case PTX_SPACE_GLOBAL: {
            MemAlloc *a = mem_alloc(mem, v->size, v->name);
            if (!a)
                return sim_error_set(err, SIM_ERR_NOMEM, m->path, v->line, 0,
                                     "cannot allocate .global %s of %llu bytes", v->name,
                                     (unsigned long long)v->size);
            if (v->init)
                memcpy(a->host, v->init, v->size);
            p->var_addr[i] = a->addr;
            break;
        }
        case PTX_SPACE_CONST:
            cbank = align_up(cbank, (uint64_t)var_align(v));
            if (v->init)
                memcpy(p->const_bank + cbank, v->init, v->size);
            p->var_addr[i] = cbank;
            cbank += v->size;
            break;
        case PTX_SPACE_SHARED:
            if (v->is_extern) {
                if ((uint64_t)var_align(v) > p->dyn_smem_align)
                    p->dyn_smem_align = (uint64_t)var_align(v);
                break;
            }
            shared = align_up(shared, (uint64_t)var_align(v));
            p->var_addr[i] = shared;
            shared += v->size;
            break;
        default:
            break;
        }
    }
    /* symbol addresses inside initializers */
    for (int i = 0; i < m->n_vars; i++) {
        PtxVar *v = &m->vars[i];
        for (int k = 0; k < v->n_init_refs; k++) {
            PtxInitRef *r = &v->init_refs[k];
            int j;
            for (j = 0; j < m->n_vars; j++)
                if (!strcmp(m->vars[j].name, r->symbol))
                    break;
            if (j == m->n_vars)
                return sim_error_set(err, SIM_ERR_UNSUPPORTED, m->path, v->line, 0,
                                     "initializer of %s names %s, which is not a variable",
                                     v->name, r->symbol);
            uint64_t a = p->var_addr[j] + (uint64_t)r->addend;
            if (m->vars[j].space == PTX_SPACE_SHARED && r->generic)
                a += MEM_SHARED_WIN;
            if (m->vars[j].space == PTX_SPACE_CONST && r->generic)
                a += MEM_CONST_WIN;
            uint8_t *dst = NULL;
            if (v->space == PTX_SPACE_GLOBAL) {
                MemAlloc *al = mem_find(mem, p->var_addr[i], v->size);
                dst = al ? al->host : NULL;
            } else if (v->space == PTX_SPACE_CONST) {
                dst = p->const_bank + p->var_addr[i];
            }
            if (dst && r->offset + (uint64_t)r->size <= v->size && r->size <= 8)
                memcpy(dst + r->offset, &a, (size_t)r->size);
        }
    }
    uint64_t module_shared = shared;
    if (p->dyn_smem_align < 16)
        p->dyn_smem_align = 16;

    /* per function: its .shared after the module's, .local and .param frames */
    uint64_t local = 0, tparam = 0, max_static = module_shared;
    for (int f = 0; f < m->n_funcs; f++) {
        PtxFunc *fn = &m->funcs[f];
        SimFuncInfo *fi = &p->funcs[f];
        uint64_t sh = module_shared;
        for (int i = 0; i < fn->n_vars; i++) {
            PtxVar *v = &fn->vars[i];
            uint64_t *o = &p->fvar_off[p->fvar_base[f] + i];
            uint64_t al = (uint64_t)var_align(v);
            bool is_ret;
            if (var_param(fn, i, &is_ret) >= 0)
                continue; /* laid out below with the parameters */
            switch (v->space) {
            case PTX_SPACE_SHARED:
                if (v->is_extern)
                    break;
                sh = align_up(sh, al);
                *o = sh;
                sh += v->size;
                break;
            case PTX_SPACE_LOCAL:
                local = align_up(local, al);
                *o = local;
                local += v->size;
                fi->local_size += v->size;
                break;
            case PTX_SPACE_PARAM:
                tparam = align_up(tparam, al < 8 ? 8 : al);
                *o = tparam;
                tparam += v->size;
                break;
            default:
                break;
            }
        }
        fi->static_smem = align_up(sh, p->dyn_smem_align);
        if (sh > max_static)
            max_static = sh;
        fi->nparams = fn->n_params;
        if (fn->n_params > 64 || fn->n_rets > 8)
            return sim_error_set(err, SIM_ERR_UNSUPPORTED, m->path, fn->line, 0,
                                 "%s has too many parameters", fn->name);
        uint64_t po = 0;
        for (int i = 0; i < fn->n_params; i++) {
            PtxVar *v = &fn->params[i];
            uint64_t al = (uint64_t)var_align(v);
            if (fn->is_entry) {
                po = align_up(po, al);
                fi->param_off[i] = (int64_t)po;
                po += v->size;
                if (po > EXEC_MAX_KPARAMS)
                    return sim_error_set(err, SIM_ERR_UNSUPPORTED, m->path, fn->line, 0,
                                         "the parameters of kernel %s take more than the %d bytes a "
                                         "kernel may have", fn->name, EXEC_MAX_KPARAMS);
            } else {
                tparam = align_up(tparam, al < 8 ? 8 : al);
                fi->param_off[i] = (int64_t)tparam;
                tparam += v->size;
            }
            fi->param_size[i] = (int)v->size;
        }
        fi->nrets = fn->n_rets;
        for (int i = 0; i < fn->n_rets; i++) {
            PtxVar *v = &fn->rets[i];
            tparam = align_up(tparam, 8);
            fi->ret_off[i] = (int64_t)tparam;
            fi->ret_size[i] = (int)v->size;
            tparam += v->size;
        }
    }
    p->shared_size = max_static;
    p->local_size = align_up(local, 16);
    p->tparam_size = align_up(tparam, 16);
    /* Per-thread frames are allocated for every thread of a block: keep
     * them to what a GPU thread may have (512 KB of local memory, which
     * also holds the call parameters), so that a corrupt declaration
     * cannot ask for gigabytes. */
    if (p->local_size > EXEC_MAX_LOCAL || p->tparam_size > EXEC_MAX_LOCAL ||
        p->local_size + p->tparam_size > EXEC_MAX_LOCAL)
        return sim_error_set(err, SIM_ERR_UNSUPPORTED, m->path, 0, 0,
                             "the module's .local variables (%llu bytes) and call parameters (%llu bytes) "
                             "exceed the %d bytes of local memory a thread may have",
                             (unsigned long long)p->local_size, (unsigned long long)p->tparam_size,
                             EXEC_MAX_LOCAL);
    return SIM_OK;
}

/* ---- recursion check: calls are not re-entrant (registers are per function) */
static bool calls_reach(const PtxModule *m, int from, int target, int depth, char *seen)
{
    if (depth > m->n_funcs)
        return false;
    const PtxFunc *f = &m->funcs[from];
    for (int i = 0; i < f->n_insts; i++) {
        const PtxInst *pi = &f->insts[i];
        if (strcmp(pi->opcode, "call"))
            continue;
        for (int k = 0; k < pi->n_opnds; k++) {
            if (pi->opnds[k].kind != PTX_OPND_FUNC)
                continue;
            int t = pi->opnds[k].target;
            if (t == target)
                return true;
            if (t >= 0 && t < m->n_funcs && !seen[t]) {
                seen[t] = 1;
                if (calls_reach(m, t, target, depth + 1, seen))
                    return true;
            }
        }
    }
    return false;
}

SimProgram *exec_decode(PtxModule *ptx, Memory *mem, SimError *err)
{
    SimProgram *p = calloc(1, sizeof *p);
    int32_t *slots = NULL;
    ContractFuse *fuse = NULL;
    if (!p) {
        ptx_module_free(ptx);
        sim_error_set(err, SIM_ERR_NOMEM, "", 0, 0, "out of memory");
        return NULL;
    }
    p->ptx = ptx;
    p->funcs = calloc((size_t)ptx->n_funcs + 1, sizeof *p->funcs);
    int total = 0, maxregs = 0;
    for (int f = 0; f < ptx->n_funcs; f++) {
        total += ptx->funcs[f].n_insts + 1; /* +1: an implicit ret at the end */
        if (ptx->funcs[f].n_regs > maxregs)
            maxregs = ptx->funcs[f].n_regs;
    }
    p->insts = calloc((size_t)total + 1, sizeof *p->insts);
    slots = calloc((size_t)maxregs + 1, sizeof *slots);
    if (!p->funcs || !p->insts || !slots) {
        sim_error_set(err, SIM_ERR_NOMEM, ptx->path, 0, 0, "out of memory");
        goto fail;
    }
    if (layout(p, mem, err))
        goto fail;
    /* entry pcs first: calls may point forward */
    int pc = 0;
    for (int f = 0; f < ptx->n_funcs; f++) {
        p->funcs[f].entry_pc = pc;
        if (!ptx->funcs[f].is_extern)
            pc += ptx->funcs[f].n_insts + 1;
        p->funcs[f].end_pc = pc;
    }
    for (int f = 0; f < ptx->n_funcs; f++) {
        char *seen = calloc((size_t)ptx->n_funcs + 1, 1);
        bool rec = seen && calls_reach(ptx, f, f, 0, seen);
        free(seen);
        if (rec && !ptx->funcs[f].is_extern) {
            sim_error_set(err, SIM_ERR_UNSUPPORTED, ptx->path, ptx->funcs[f].line, 0,
                          "function %s is recursive; the simulator runs calls without a register stack "
                          "and does not support recursion", ptx->funcs[f].name);
            goto fail;
        }
    }
    p->n_regs = SLOT_COUNT;
    p->n_insts = pc;
    for (int f = 0; f < ptx->n_funcs; f++) {
        const PtxFunc *fn = &ptx->funcs[f];
        if (fn->is_extern)
            continue;
        p->funcs[f].reg_base = p->n_regs;
        p->funcs[f].pred_base = p->n_preds;
        for (int r = 0; r < fn->n_regs; r++) {
            if (fn->regs[r].type == PTX_T_PRED)
                slots[r] = p->n_preds++;
            else
                slots[r] = p->n_regs++;
        }
        /* where ptxas fuses a mul and an add into one fma, so does the
         * simulator (contract.h) */
        free(fuse);
        fuse = malloc(sizeof *fuse * (size_t)(fn->n_insts ? fn->n_insts : 1));
        if (!fuse) {
            sim_error_set(err, SIM_ERR_NOMEM, ptx->path, 0, 0, "out of memory");
            goto fail;
        }
        contract_plan(fn, fuse);
        DecodeCtx c = {.p = p, .m = ptx, .fi = f, .f = fn, .slot = slots, .fuse = fuse, .err = err};
        int base = p->funcs[f].entry_pc;
        for (int i = 0; i < fn->n_insts; i++) {
            c.pi = &fn->insts[i];
            c.in = &p->insts[base + i];
            if (decode_inst(&c))
                goto fail;
            if (c.in->flow == SIM_FLOW_BRANCH && c.in->target >= 0 && c.in->aux == 0)
                c.in->target += base; /* labels are function-relative */
        }
        /* implicit "ret" after the last instruction */
        static const PtxInst ret_inst = {.opcode = "ret", .guard = -1, .loc = -1};
        PtxInst tmp = ret_inst;
        tmp.ptx_line = fn->n_insts ? fn->insts[fn->n_insts - 1].ptx_line : fn->line;
        c.pi = &tmp;
        c.in = &p->insts[base + fn->n_insts];
        if (decode_inst(&c))
            goto fail;
    }
    if (p->cap_konst == 0) { /* slot 0 exists even when no function has a body */
        DecodeCtx c = {.p = p, .m = ptx, .err = err};
        dec_konst(&c, 0);
    }
    if (!p->konst) {
        sim_error_set(err, SIM_ERR_NOMEM, ptx->path, 0, 0, "out of memory");
        goto fail;
    }
    free(slots);
    free(fuse);
    return p;
fail:
    free(slots);
    free(fuse);
    exec_program_free(p);
    return NULL;
}

void exec_program_free(SimProgram *p)
{
    if (!p)
        return;
    ptx_module_free(p->ptx);
    free(p->insts);
    free(p->funcs);
    free(p->konst);
    free(p->calls);
    free(p->var_addr);
    free(p->fvar_off);
    free(p->fvar_base);
    free(p->const_bank);
    exec_tile_marks_free(p);
    free(p);
}
