/* exec_operand.c: the operand and modifier helpers every opcode family's
 * decoder uses (dec_* of exec_int.h): modifiers, types, rounding, state
 * spaces, register and constant slots, variables, addresses, and the
 * decode error with its PTX line.  Called by the family files (exec_arith.c,
 * exec_float.c, exec_mem.c, ...); calls no executor file, so decoding runs
 * one way: exec_decode.c -> a family's dec_* -> here. */
#include "exec_int.h"
#include "exec_decode.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

bool dec_shared(DecodeCtx *c)
{
    /* .shared::cta and .shared::cluster are the PTX 7.8+ spellings (PTX ISA
     * 5.1.4 "Shared State Space"); the executing CTA's own shared memory has
     * the same addresses in both windows, and clusters here are one CTA */
    bool a = dec_mod(c, "shared");
    bool b = dec_mod(c, "shared::cta");
    bool d = dec_mod(c, "shared::cluster");
    return a || b || d;
}

int dec_space(DecodeCtx *c)
{
    if (dec_mod(c, "global")) return PTX_SPACE_GLOBAL;
    if (dec_shared(c)) {
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
int dec_var_param(const PtxFunc *f, int i, bool *is_ret)
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
        int pi = dec_var_param(f, i, &is_ret);
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
        /* the cluster's special registers (%cluster_ctarank, ...) take no
         * register slot: mov reads them (exec_arith.c, exec_cluster_sreg) */
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
        /* a kernel parameter's address is its offset in the parameter
         * space (__grid_constant__ parameters are read through it, PTX ISA
         * 5.1.6.1 "Kernel Function Parameters"); a .func parameter has no
         * address the simulator can give */
        if (sp == SPACE_TPARAM)
            return dec_fail(c, "taking the address of a .func or call .param variable");
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
