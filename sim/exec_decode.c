/* exec_decode.c: turn a parsed PtxModule into a SimProgram, once per load.
 *
 * Lays out memory (module .global variables become allocations, .const
 * variables a constant bank, .shared an offset map, .local and call
 * parameters per-thread frames), numbers register slots across all
 * functions, and decodes every instruction through the decoder of its
 * opcode family (dec_* in exec_*.c).  An instruction not supported is
 * decoded as a fault and remembered by its function, so that launching a
 * kernel that can reach it is refused with the instruction and its lines
 * (exec_kernel_check) while the module's other kernels run. */
#include "exec_int.h"
#include "exec_decode.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the opcode table ---------------------------------------------------- */

typedef struct {
    const char *op;
    DecodeFn fn;
} OpEntry;

static const OpEntry optab[] = {
    {"add", dec_arith}, {"sub", dec_arith}, {"addc", dec_arith}, {"subc", dec_arith}, {"madc", dec_arith}, {"mul", dec_arith}, {"mad", dec_arith},
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
    {"mapa", dec_cache_ctl}, {"getctarank", dec_cache_ctl}, {"createpolicy", dec_cache_ctl}, {"applypriority", dec_cache_ctl}, {"discard", dec_cache_ctl}, {"griddepcontrol", dec_ctrl},
    {"bra", dec_ctrl}, {"ret", dec_ctrl}, {"exit", dec_ctrl}, {"call", dec_ctrl},
    {"bar", dec_ctrl}, {"barrier", dec_ctrl}, {"membar", dec_ctrl}, {"fence", dec_ctrl},
    {"trap", dec_ctrl}, {"brkpt", dec_ctrl}, {"nanosleep", dec_ctrl}, {"pmevent", dec_ctrl},
    {"shfl", dec_warp}, {"vote", dec_warp}, {"match", dec_warp}, {"redux", dec_warp},
    {"activemask", dec_warp}, {"elect", dec_warp},
    {"fns", dec_intx}, {"lop3", dec_intx}, {"bmsk", dec_intx}, {"szext", dec_intx}, {"dp4a", dec_intx},
    {"dp2a", dec_intx}, {"isspacep", dec_isspacep}, {"vadd4", dec_video4}, {"vsub4", dec_video4},
    {"vabsdiff4", dec_video4}, {"vmin4", dec_video4}, {"vmax4", dec_video4},
    {"tile", dec_tile},
};

bool exec_decodes_opcode(const char *op)
{
    for (size_t i = 0; i < sizeof optab / sizeof *optab; i++)
        if (!strcmp(optab[i].op, op))
            return true;
    return false;
}

const char *exec_decoder_opcode(int i)
{
    return i >= 0 && (size_t)i < sizeof optab / sizeof *optab ? optab[i].op : NULL;
}

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
        return dec_fail(c, "the simulator does not implement %s", pi->opcode);
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
                                        "match", "redux", "elect", NULL};
    for (const char *const *o = shows; *o; o++)
        if (!strcmp(pi->opcode, *o))
            in->visible = 1;
    in->plain = in->flow != SIM_FLOW_SELF && !in->pseudo && !in->wsync;
    if ((!strcmp(pi->opcode, "ld") || !strcmp(pi->opcode, "ldu") || !strcmp(pi->opcode, "st")) &&
        in->space != PTX_SPACE_LOCAL && in->space != PTX_SPACE_PARAM && in->space != PTX_SPACE_CONST &&
        in->space != SPACE_TPARAM)
        in->visible = 1;
    in->blk_private = in->visible && in->space == PTX_SPACE_SHARED &&
                      (!strcmp(pi->opcode, "ld") || !strcmp(pi->opcode, "ldu") || !strcmp(pi->opcode, "st"));
    return SIM_OK;
}

/* Whether in is a bra that a straight run may end with (SimInst.jumps). */
static bool jump_tail(const SimInst *in)
{
    return in->flow == SIM_FLOW_BRANCH && in->plain && !in->visible;
}

/* SimInst.straight and .jumps of a function's n instructions (its implicit
 * ret last, which ends every run). */
static void plan_straight(SimInst *insts, int n)
{
    unsigned run = 0, blk = 0;
    for (int i = n - 1; i >= 0; i--) {
        SimInst *in = &insts[i];
        bool ok = in->plain && in->flow == SIM_FLOW_NEXT && in->guard < 0 && !in->pseudo;
        run = ok && !in->visible ? (run < 255 ? run + 1 : 255) : 0;
        blk = ok && (!in->visible || in->blk_private) ? (blk < 255 ? blk + 1 : 255) : 0;
        in->straight = (uint8_t)run;
        in->straight_blk = (uint8_t)blk;
        /* (a run capped at 255 ends where its count does: i + run < n, the ret last) */
        in->jumps = (uint8_t)((run && jump_tail(&insts[i + run])) | (blk && jump_tail(&insts[i + blk])) << 1);
    }
}

/* An instruction the decoder refused: reached anyway (an indirect call the
 * launch check cannot follow), it stops the launch with the reason. */
static void ex_unsupported(Exec *x, Warp *w, const SimInst *in, uint32_t m)
{
    const SimError *e = x->prog->funcs[in->func].unsup;
    exec_fault(x, w, in, __builtin_ctz(m), "unsupported", 0, "%s",
               e ? e->msg : "an instruction the simulator does not support");
}

/* Instruction c->in could not be decoded (c->err says why): make it a
 * fault and remember the first such error of its function. */
static SimStatus mark_unsupported(DecodeCtx *c)
{
    SimFuncInfo *fi = &c->p->funcs[c->fi];
    SimInst *in = c->in;
    memset(in, 0, sizeof *in);
    in->d = in->d2 = in->pd = in->ps = in->base = in->guard = -1;
    for (int k = 0; k < 4; k++)
        in->s[k] = in->vd[k] = -1;
    in->vec = 1;
    in->ptx_line = c->pi->ptx_line;
    in->loc = c->pi->loc;
    in->func = c->fi;
    in->flow = SIM_FLOW_SELF;
    in->fn = ex_unsupported;
    if (!fi->unsup) {
        if (!(fi->unsup = malloc(sizeof *fi->unsup)))
            return sim_error_set(c->err, SIM_ERR_NOMEM, c->m->path, 0, 0, "out of memory");
        *fi->unsup = *c->err;
        const PtxLoc *l = ptx_inst_outer_loc(c->m, c->pi);
        fi->unsup_cu_file = l ? l->file : -1;
        fi->unsup_cu_line = l ? l->line : -1;
    }
    sim_error_clear(c->err);
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
            if (dec_var_param(fn, i, &is_ret) >= 0)
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
                if (fi->local_lo == fi->local_hi)
                    fi->local_lo = local;
                *o = local;
                local += v->size;
                fi->local_hi = local;
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

/* ---- recursion: a function that can reach itself saves its frame per call */
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

/* Where ptxas fuses a mul and an add of fn into one fma, so does the
 * simulator (contract.h): per instruction, the mul fused into it.  NULL:
 * out of memory (err says so). */
static ContractFuse *fuse_plan(const PtxModule *m, const PtxFunc *fn, SimError *err)
{
    ContractFuse *fuse = malloc(sizeof *fuse * (size_t)(fn->n_insts ? fn->n_insts : 1));
    if (!fuse)
        sim_error_set(err, SIM_ERR_NOMEM, m->path, 0, 0, "out of memory");
    else
        contract_plan(fn, fuse);
    return fuse;
}

/* Decode function f of p into out (its n_insts + 1 instructions: an
 * implicit ret last), register r of it in slot (or predicate) slots[r]. */
static SimStatus decode_func(SimProgram *p, int f, const int32_t *slots, const ContractFuse *fuse, SimInst *out,
                             SimError *err)
{
    const PtxFunc *fn = &p->ptx->funcs[f];
    DecodeCtx c = {.p = p, .m = p->ptx, .fi = f, .f = fn, .slot = slots, .fuse = fuse, .err = err};
    int base = p->funcs[f].entry_pc;
    for (int i = 0; i < fn->n_insts; i++) {
        c.pi = &fn->insts[i];
        c.in = &out[i];
        if (decode_inst(&c)) {
            if (err->status != SIM_ERR_UNSUPPORTED || mark_unsupported(&c))
                return err->status;
            continue;
        }
        if (c.in->flow == SIM_FLOW_BRANCH && c.in->target >= 0 && c.in->aux == 0)
            c.in->target += base; /* labels are function-relative */
    }
    /* implicit "ret" after the last instruction */
    static const PtxInst ret_inst = {.opcode = "ret", .guard = -1, .loc = -1};
    PtxInst tmp = ret_inst;
    tmp.ptx_line = fn->n_insts ? fn->insts[fn->n_insts - 1].ptx_line : fn->line;
    c.pi = &tmp;
    c.in = &out[fn->n_insts];
    if (decode_inst(&c))
        return err->status;
    plan_straight(out, fn->n_insts + 1);
    return SIM_OK;
}

SimStatus exec_decode_func(SimProgram *p, int f, const int32_t *slots, SimInst *out, SimError *err)
{
    ContractFuse *fuse = fuse_plan(p->ptx, &p->ptx->funcs[f], err);
    if (!fuse)
        return err->status;
    SimStatus st = decode_func(p, f, slots, fuse, out, err);
    free(fuse);
    return st;
}

SimProgram *exec_decode(PtxModule *ptx, Memory *mem, SimError *err_out)
{
    SimError local_err;
    SimError *err = err_out ? err_out : &local_err;
    sim_error_clear(err);
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
        p->funcs[f].unsup_cu_file = p->funcs[f].unsup_cu_line = -1;
        char *seen = calloc((size_t)ptx->n_funcs + 1, 1);
        bool rec = seen && calls_reach(ptx, f, f, 0, seen);
        free(seen);
        p->funcs[f].recursive = rec && !ptx->funcs[f].is_extern;
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
        SimFuncInfo *sfi = &p->funcs[f];
        sfi->n_vals = p->n_regs - sfi->reg_base;
        sfi->n_preds = p->n_preds - sfi->pred_base;
        if (sfi->recursive) { /* what exec_ctrl.c's call saves: registers, predicate bits, params, results, .local */
            uint64_t fb = (uint64_t)sfi->n_vals * 8 + (uint64_t)(sfi->n_preds + 7) / 8 + sfi->local_hi - sfi->local_lo;
            for (int i = 0; i < sfi->nparams; i++)
                fb += (uint64_t)sfi->param_size[i];
            for (int i = 0; i < sfi->nrets; i++)
                fb += (uint64_t)sfi->ret_size[i];
            if (fb > EXEC_STACK_BYTES) {
                SimError e;
                sim_error_set(&e, SIM_ERR_UNSUPPORTED, ptx->path, fn->line, 0,
                              "recursive function %s needs %llu bytes a call, more than the %d bytes of the "
                              "simulator's per-thread call stack", fn->name, (unsigned long long)fb,
                              EXEC_STACK_BYTES);
                if (!(sfi->unsup = malloc(sizeof e))) {
                    sim_error_set(err, SIM_ERR_NOMEM, ptx->path, 0, 0, "out of memory");
                    goto fail;
                }
                *sfi->unsup = e;
            }
            sfi->frame_bytes = (uint32_t)(fb > EXEC_STACK_BYTES ? EXEC_STACK_BYTES + 1 : fb);
        }
        free(fuse);
        if (!(fuse = fuse_plan(ptx, fn, err)))
            goto fail;
        if (decode_func(p, f, slots, fuse, &p->insts[p->funcs[f].entry_pc], err))
            goto fail;
        exec_regs_plan(p, f);
    }
    if (p->cap_konst == 0) { /* slot 0 exists even when no function has a body */
        DecodeCtx c = {.p = p, .m = ptx, .err = err};
        dec_konst(&c, 0);
    }
    if (!p->konst) {
        sim_error_set(err, SIM_ERR_NOMEM, ptx->path, 0, 0, "out of memory");
        goto fail;
    }
    exec_pack_plan(p);
    free(slots);
    free(fuse);
    sim_error_clear(err);
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
    if (p->funcs && p->ptx)
        for (int f = 0; f < p->ptx->n_funcs; f++) {
            free(p->funcs[f].unsup);
            free(p->funcs[f].read_unset);
            free(p->funcs[f].pack);
        }
    ptx_module_free(p->ptx);
    free(p->insts);
    free(p->packed);
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
