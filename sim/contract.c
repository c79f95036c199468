/* contract.c: ptxas's mul + add -> fma contraction decision (contract.h).
 *
 * Runs once per function at decode time: basic blocks from labels and
 * control transfers, then for each mul the reads of its result, then for
 * each add/sub the mul (possibly through a neg) it absorbs. */
#include "contract.h"

#include <stdlib.h>
#include <string.h>

static PtxType float_type(const PtxInst *in)
{
    for (int i = 0; i < in->n_mods; i++) {
        PtxType t = ptx_type_from_name(in->mods[i]);
        if (t == PTX_T_F32 || t == PTX_T_F64 || t == PTX_T_F16 || t == PTX_T_F16X2 ||
            t == PTX_T_BF16 || t == PTX_T_BF16X2)
            return t;
    }
    return PTX_T_NONE;
}

static bool rounded(const PtxInst *in)
{
    return ptx_inst_has_mod(in, "rn") || ptx_inst_has_mod(in, "rz") || ptx_inst_has_mod(in, "rm") ||
           ptx_inst_has_mod(in, "rp");
}

static bool is_op(const PtxInst *in, const char *op)
{
    return !strcmp(in->opcode, op);
}

/* Does operand o read register r (directly, as an address base, in a vector)? */
static bool opnd_reads(const PtxOperand *o, int r)
{
    switch (o->kind) {
    case PTX_OPND_REG: return o->reg == r || o->reg2 == r;
    case PTX_OPND_ADDR: return o->reg == r || (o->n_elems && opnd_reads(&o->elems[0], r));
    case PTX_OPND_VEC: case PTX_OPND_LIST:
        for (int k = 0; k < o->n_elems; k++)
            if (opnd_reads(&o->elems[k], r))
                return true;
        return false;
    default: return false;
    }
}

/* Operands an instruction writes: the first, except for stores and a few
 * that have none (their first operand is an address or a value read). */
static bool writes_first(const PtxInst *in)
{
    static const char *const no[] = {"st", "bra", "ret", "exit", "bar", "barrier", "red", "membar",
                                     "fence", "prefetch", "call", "trap", "stmatrix", "cp", NULL};
    for (int k = 0; no[k]; k++)
        if (is_op(in, no[k]))
            return false;
    return in->n_opnds > 0;
}

static bool writes(const PtxInst *in, int r)
{
    return writes_first(in) && opnd_reads(&in->opnds[0], r);
}

/* Reads of r by in: the guard, and every operand but a written first one. */
static int reads(const PtxInst *in, int r)
{
    int n = in->guard == r;
    for (int k = writes_first(in) ? 1 : 0; k < in->n_opnds; k++)
        n += opnd_reads(&in->opnds[k], r);
    return n;
}

static bool ends_block(const PtxInst *in)
{
    return is_op(in, "bra") || is_op(in, "brx") || is_op(in, "ret") || is_op(in, "exit") ||
           is_op(in, "call") || is_op(in, "trap");
}

/* A mul that could be fused: its type, or PTX_T_NONE. */
static PtxType mul_candidate(const PtxInst *in)
{
    if (!is_op(in, "mul") || in->guard >= 0 || rounded(in) || ptx_inst_has_mod(in, "sat") || in->n_opnds != 3 ||
        in->opnds[0].kind != PTX_OPND_REG)
        return PTX_T_NONE;
    return float_type(in);
}

/* add/sub of type t and the mul's ftz, reading r in exactly one operand:
 * that operand's index, else 0. */
static int add_reading(const PtxInst *in, PtxType t, bool ftz, int r)
{
    if (!(is_op(in, "add") || is_op(in, "sub")) || rounded(in) || float_type(in) != t ||
        ptx_inst_has_mod(in, "ftz") != ftz || in->n_opnds != 3)
        return 0;
    bool a = in->opnds[1].kind == PTX_OPND_REG && in->opnds[1].reg == r && !in->opnds[1].neg;
    bool b = in->opnds[2].kind == PTX_OPND_REG && in->opnds[2].reg == r && !in->opnds[2].neg;
    if (a == b || reads(in, r) != 1)
        return 0;
    return a ? 1 : 2;
}

/* All reads of register r, from instruction i + 1 on, are by adds of type t
 * (operand index recorded in use[]) inside block blk before r is written
 * again, and r is read nowhere else in f. */
static bool only_fusable_reads(const PtxFunc *f, const int *block, int i, int r, PtxType t, bool ftz)
{
    int end = i + 1;
    for (; end < f->n_insts && block[end] == block[i]; end++) {
        const PtxInst *in = &f->insts[end];
        if (reads(in, r) && !add_reading(in, t, ftz, r))
            return false;
        if (writes(in, r)) {
            end++;
            break;
        }
    }
    for (int k = 0; k < f->n_insts; k++)
        if ((k <= i || k >= end) && reads(&f->insts[k], r))
            return false;
    return true;
}

int contract_plan(const PtxFunc *f, ContractFuse *out)
{
    int n = f->n_insts, fused = 0;
    for (int k = 0; k < n; k++)
        out[k] = (ContractFuse){.mul = -1};
    int *block = malloc(sizeof(int) * (size_t)(n + 1));
    bool *target = calloc((size_t)n + 1, 1);
    int *def = malloc(sizeof(int) * (size_t)(n + 1));   /* fusable producer: mul (or neg) index */
    if (!block || !target || !def) {
        free(block); free(target); free(def);
        return 0;
    }
    for (int k = 0; k < n; k++)
        for (int o = 0; o < f->insts[k].n_opnds; o++)
            if (f->insts[k].opnds[o].kind == PTX_OPND_LABEL && f->insts[k].opnds[o].target >= 0 &&
                f->insts[k].opnds[o].target < n)
                target[f->insts[k].opnds[o].target] = true;
    for (int k = 0, b = 0; k < n; k++) {
        if (k > 0 && (target[k] || ends_block(&f->insts[k - 1])))
            b++;
        block[k] = b;
    }
    /* fusable muls, and negs of them */
    for (int k = 0; k < n; k++) {
        def[k] = 0;
        const PtxInst *in = &f->insts[k];
        PtxType t = mul_candidate(in);
        if (t == PTX_T_NONE)
            continue;
        bool ftz = ptx_inst_has_mod(in, "ftz");
        int r = in->opnds[0].reg;
        if (only_fusable_reads(f, block, k, r, t, ftz)) {
            def[k] = 1;
            continue;
        }
        /* mul -> neg -> adds */
        if (t == PTX_T_BF16 || t == PTX_T_BF16X2)
            continue;
        int uses = 0, ng = -1;
        for (int j = 0; j < n; j++)
            if (reads(&f->insts[j], r)) {
                uses++;
                ng = j;
            }
        if (uses != 1 || ng <= k || block[ng] != block[k])
            continue;
        const PtxInst *g = &f->insts[ng];
        if (!is_op(g, "neg") || g->guard >= 0 || float_type(g) != t || ptx_inst_has_mod(g, "ftz") != ftz ||
            g->n_opnds != 2 || g->opnds[0].kind != PTX_OPND_REG || g->opnds[1].kind != PTX_OPND_REG ||
            g->opnds[1].reg != r)
            continue;
        if (only_fusable_reads(f, block, ng, g->opnds[0].reg, t, ftz))
            def[k] = 2;     /* fused through the neg at ng */
    }
    for (int j = 0; j < n; j++) {
        const PtxInst *in = &f->insts[j];
        if (!(is_op(in, "add") || is_op(in, "sub")) || in->n_opnds != 3)
            continue;
        for (int opnd = 1; opnd <= 2; opnd++) {
            const PtxOperand *o = &in->opnds[opnd];
            if (o->kind != PTX_OPND_REG || o->neg)
                continue;
            /* the producer of o in this block: the last write before j */
            int p = -1;
            for (int k = j - 1; k >= 0 && block[k] == block[j]; k--)
                if (writes(&f->insts[k], o->reg)) {
                    p = k;
                    break;
                }
            if (p < 0)
                continue;
            int mi = -1;
            bool via_neg = false;
            if (def[p] == 1)
                mi = p;
            else if (is_op(&f->insts[p], "neg"))
                for (int k = p - 1; k >= 0 && block[k] == block[p]; k--)
                    if (def[k] == 2 && writes(&f->insts[k], f->insts[p].opnds[1].reg)) {
                        mi = k;
                        via_neg = true;
                        break;
                    }
            if (mi < 0)
                continue;
            const PtxInst *ml = &f->insts[mi];
            PtxType t = float_type(ml);
            if (!add_reading(in, t, ptx_inst_has_mod(ml, "ftz"), o->reg))
                continue;
            /* the mul's sources must still hold their values at j */
            bool clobbered = false;
            for (int k = mi + 1; k < j && !clobbered; k++)
                for (int s = 1; s <= 2; s++)
                    if (ml->opnds[s].kind == PTX_OPND_REG && writes(&f->insts[k], ml->opnds[s].reg))
                        clobbered = true;
            if (clobbered)
                continue;
            bool sub = is_op(in, "sub");
            out[j] = (ContractFuse){.mul = mi, .addend = 3 - opnd,
                                    .neg_product = via_neg != (sub && opnd == 2),
                                    .neg_addend = sub && opnd == 1};
            fused++;
            break;
        }
    }
    free(block);
    free(target);
    free(def);
    return fused;
}
