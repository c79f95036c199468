/* timing_scoreboard.c: what the scoreboard knows of each instruction -- its
 * class (which pipe, which latency: timing.h TimingClass) and the registers
 * it reads and writes -- built once per launch from the parsed PTX beside
 * the decoded program (pc i of function f is PTX instruction i - entry_pc).
 * Registers map to scoreboard entries per warp: function f's register r is
 * entry (base_f + r) & sbmask, exact unless a module declares more
 * registers than TIMING_SB_MAX (then distant registers may share one, which
 * can only add a false wait). */
#include <stdlib.h>
#include <string.h>

#include "exec_int.h"
#include "timing_int.h"

#define TIMING_SB_MAX 1024

static bool is_op(const PtxInst *pi, const char *const *list)
{
    for (; *list; list++)
        if (!strcmp(pi->opcode, *list))
            return true;
    return false;
}

/* The widest data type named: 'f' 32, 'd' 64-bit float, 'h' half, 'i' integer. */
static char type_kind(const PtxInst *pi)
{
    char k = 'i';
    for (int i = 0; i < pi->n_mods; i++) {
        const char *m = pi->mods[i];
        if (!strcmp(m, "f64"))
            return 'd';
        if (!strcmp(m, "f32"))
            k = 'f';
        else if ((!strcmp(m, "f16") || !strcmp(m, "f16x2") || !strcmp(m, "bf16") || !strcmp(m, "bf16x2")) &&
                 k == 'i')
            k = 'h';
    }
    return k;
}

static int space_of(const PtxInst *pi)
{
    static const struct { const char *w; int sp; } sp[] = {
        {"global", PTX_SPACE_GLOBAL}, {"shared", PTX_SPACE_SHARED}, {"local", PTX_SPACE_LOCAL},
        {"const", PTX_SPACE_CONST}, {"param", PTX_SPACE_PARAM}};
    for (size_t i = 0; i < sizeof sp / sizeof sp[0]; i++)
        if (ptx_inst_has_mod(pi, sp[i].w))
            return sp[i].sp;
    return PTX_SPACE_NONE;
}

static unsigned type_bytes(const PtxInst *pi)
{
    for (int i = pi->n_mods - 1; i >= 0; i--) {
        const char *m = pi->mods[i];
        if ((m[0] == 'b' || m[0] == 'u' || m[0] == 's' || m[0] == 'f') && m[1] >= '0' && m[1] <= '9') {
            int bits = atoi(m + 1);
            if (bits >= 8 && bits <= 128)
                return (unsigned)bits / 8;
        }
    }
    return 4;
}

static void classify(const PtxInst *pi, TimingInst *t)
{
    static const char *const sfu[] = {"rcp", "sqrt", "rsqrt", "sin", "cos", "lg2", "ex2", "tanh", NULL};
    static const char *const br[] = {"bra", "brx", "call", "ret", "exit", "trap", NULL};
    static const char *const coll[] = {"shfl", "vote", "match", "redux", "activemask", NULL};
    static const char *const fl[] = {"add", "sub", "mul", "mad", "fma", "min", "max", "abs", "neg", "setp",
                                     "set", "selp", "copysign", "testp", "slct", NULL};
    const char *op = pi->opcode;
    char k = type_kind(pi);
    t->cls = TC_INT;
    if (is_op(pi, sfu)) {
        t->cls = k == 'd' ? TC_FP64 : TC_SFU;
    } else if (!strcmp(op, "div") || !strcmp(op, "rem")) {
        t->cls = k == 'd' ? TC_FP64 : k == 'f' ? TC_SFU : TC_INTDIV;
    } else if (is_op(pi, br)) {
        t->cls = TC_BRANCH;
    } else if (is_op(pi, coll)) {
        t->cls = TC_COLLECTIVE;
    } else if (!strcmp(op, "cvt")) {
        t->cls = TC_CVT;
    } else if (is_op(pi, fl)) {
        t->cls = k == 'd' ? TC_FP64 : (k == 'f' || k == 'h') ? TC_FP32
               : (!strcmp(op, "mul") || !strcmp(op, "mad")) ? TC_IMUL : TC_INT;
    } else if (!strcmp(op, "bar") || !strcmp(op, "barrier")) {
        t->cls = ptx_inst_has_mod(pi, "warp") ? TC_COLLECTIVE : TC_BARRIER;
    } else if (!strcmp(op, "membar") || !strcmp(op, "fence")) {
        t->cls = TC_MEMBAR;
    } else if (!strcmp(op, "nanosleep")) {
        t->cls = TC_NANOSLEEP;
    } else if (!strcmp(op, "cp") && ptx_inst_has_mod(pi, "async")) {
        t->cls = TC_CP_WAIT;
        t->sub = ptx_inst_has_mod(pi, "commit_group") ? 0
               : ptx_inst_has_mod(pi, "wait_group")   ? 1
               : ptx_inst_has_mod(pi, "wait_all")     ? 2
                                                      : 3;
        if (t->sub == 3 && !ptx_inst_has_mod(pi, "mbarrier")) {
            t->cls = TC_CP_ASYNC;
            t->bytes = 16;
            if (pi->n_opnds >= 3 && pi->opnds[2].kind == PTX_OPND_IMM_INT)
                t->bytes = (uint8_t)(pi->opnds[2].ival > 0 && pi->opnds[2].ival <= 16 ? pi->opnds[2].ival : 16);
        }
    } else if (!strcmp(op, "mbarrier")) {
        t->cls = TC_SHARED;
        t->bytes = 8;
        t->space = PTX_SPACE_SHARED;
    } else if (!strcmp(op, "ld") || !strcmp(op, "ldu") || !strcmp(op, "st") || !strcmp(op, "atom") ||
               !strcmp(op, "red")) {
        int sp = space_of(pi);
        bool atomic = op[0] == 'a' || op[0] == 'r';
        int vec = ptx_inst_has_mod(pi, "v4") ? 4 : ptx_inst_has_mod(pi, "v2") ? 2 : 1;
        t->space = (uint8_t)sp;
        t->bytes = (uint8_t)(type_bytes(pi) * (unsigned)vec);
        if (sp == PTX_SPACE_PARAM)
            t->cls = TC_PARAM;
        else if (atomic)
            t->cls = sp == PTX_SPACE_SHARED ? TC_ATOM_SHARED : TC_ATOM_GLOBAL;
        else
            t->cls = sp == PTX_SPACE_SHARED ? TC_SHARED : TC_GLOBAL;
    } else if (!strcmp(op, "prefetch") || !strcmp(op, "prefetchu")) {
        t->cls = TC_INT;
    }
}

/* Adds id to the list; false when the list is full (the instruction's
 * registers are then not all known: nothing is hoisted across it). */
static bool add_id(uint16_t *list, uint8_t *n, int cap, uint32_t id)
{
    for (int i = 0; i < *n; i++)
        if (list[i] == id)
            return true;
    if (*n >= cap)
        return false;
    list[(*n)++] = (uint16_t)id;
    return true;
}

static void add_src(TimingInst *t, uint32_t base, uint32_t mask, const PtxOperand *o)
{
    bool ok = true;
    if (o->kind == PTX_OPND_REG)
        ok = add_id(t->src, &t->nsrc, TIMING_MAX_SRC, (base + (uint32_t)o->reg) & mask);
    else if (o->kind == PTX_OPND_ADDR && o->reg >= 0 && o->var < 0)
        ok = add_id(t->src, &t->nsrc, TIMING_MAX_SRC, (base + (uint32_t)o->reg) & mask);
    else if (o->kind == PTX_OPND_VEC || o->kind == PTX_OPND_LIST)
        for (int e = 0; e < o->n_elems; e++)
            add_src(t, base, mask, &o->elems[e]);
    if (o->kind == PTX_OPND_ADDR && o->n_elems == 1)
        add_src(t, base, mask, &o->elems[0]);
    if (!ok)
        t->hz |= TIMING_HZ_STOP;
}

static void add_dst(TimingInst *t, uint32_t base, uint32_t mask, const PtxOperand *o)
{
    bool ok = true;
    if (o->kind == PTX_OPND_REG) {
        ok = add_id(t->dst, &t->ndst, TIMING_MAX_DST, (base + (uint32_t)o->reg) & mask);
        if (o->reg2 >= 0)
            ok = add_id(t->dst, &t->ndst, TIMING_MAX_DST, (base + (uint32_t)o->reg2) & mask) && ok;
    } else if (o->kind == PTX_OPND_VEC || o->kind == PTX_OPND_LIST) {
        for (int e = 0; e < o->n_elems; e++)
            add_dst(t, base, mask, &o->elems[e]);
    }
    if (!ok)
        t->hz |= TIMING_HZ_STOP;
}

static void operands(const PtxInst *pi, TimingInst *t, uint32_t base, uint32_t mask)
{
    bool call = !strcmp(pi->opcode, "call");
    for (int i = 0; i < pi->n_opnds; i++) {
        const PtxOperand *o = &pi->opnds[i];
        /* operand 0 written as a register (or vector, or "d|p") is the
         * destination; call: its return list */
        bool dst = i == 0 && (o->kind == PTX_OPND_REG || o->kind == PTX_OPND_VEC ||
                              (call && o->kind == PTX_OPND_LIST));
        if (dst)
            add_dst(t, base, mask, o);
        else
            add_src(t, base, mask, o);
    }
    if (pi->guard >= 0 && !add_id(t->src, &t->nsrc, TIMING_MAX_SRC, (base + (uint32_t)pi->guard) & mask))
        t->hz |= TIMING_HZ_STOP;
}

/* The reads of a constant bank (TC_CONST): an entry's ld.param (bank 0 from
 * 0x210, where sm_90 keeps the parameters), mov of %ntid/%nctaid (bank 0 from
 * 0x0) and mov of a global variable's address (bank 4, 8 bytes a variable), as
 * traces/hw/timing-sass-h100.txt shows ptxas compiling them (LDC/ULDC). */
static void constant_read(const PtxModule *m, const PtxFunc *fn, const PtxInst *pi, const SimInst *in, TimingInst *t)
{
    if (t->cls == TC_PARAM && fn->is_entry && in->base < 0 && in->space == PTX_SPACE_PARAM) {
        t->cls = TC_CONST;
        t->cbank = 0;
        t->coff = 0x210u + (uint32_t)(in->off & 0xffff);
        return;
    }
    if (strcmp(pi->opcode, "mov") || pi->n_opnds != 2)
        return;
    const PtxOperand *o = &pi->opnds[1];
    if (o->kind == PTX_OPND_SREG && o->sreg >= PTX_SREG_NTID_X && o->sreg <= PTX_SREG_NTID_Z) {
        t->cls = TC_CONST;
        t->cbank = 0;
        t->coff = 4u * (uint32_t)(o->sreg - PTX_SREG_NTID_X);
    } else if (o->kind == PTX_OPND_SREG && o->sreg >= PTX_SREG_NCTAID_X && o->sreg <= PTX_SREG_NCTAID_Z) {
        t->cls = TC_CONST;
        t->cbank = 0;
        t->coff = 0xcu + 4u * (uint32_t)(o->sreg - PTX_SREG_NCTAID_X);
    } else if (o->kind == PTX_OPND_VAR && o->var >= 0) {
        const PtxVar *v = o->var_is_module ? (o->var < m->n_vars ? &m->vars[o->var] : NULL)
                                           : (o->var < fn->n_vars ? &fn->vars[o->var] : NULL);
        if (v && (v->space == PTX_SPACE_GLOBAL || v->space == PTX_SPACE_CONST)) {
            t->cls = TC_CONST;
            t->cbank = 4;
            t->coff = 8u * (uint32_t)(o->var & 0x1fff);
        }
    }
}

/* What ptxas's scheduling lets the model do with each instruction
 * (TIMING_DEFER, TIMING_FENCE: timing_int.h).  Deferred: the register-only
 * classes, unless other warps could observe when they run (a clock read).
 * Fences: whatever changes the flow (branches, calls, exits), the first
 * instruction of a basic block (a branch target, the one after a branch),
 * barriers, fences, warp-synchronous and clock-reading instructions, cp.async
 * waits and nanosleep. */
static void mark_schedule(TimingModel *tm, const SimProgram *prog)
{
    for (int pc = 0; pc < prog->n_insts; pc++) {
        const SimInst *in = &prog->insts[pc];
        TimingInst *t = &tm->ii[pc];
        bool alu = t->cls == TC_INT || t->cls == TC_IMUL || t->cls == TC_INTDIV || t->cls == TC_FP32 ||
                   t->cls == TC_FP64 || t->cls == TC_SFU || t->cls == TC_CVT;
        if (alu && !in->visible && !in->wsync && in->flow == SIM_FLOW_NEXT && !in->pseudo)
            t->flags |= TIMING_DEFER;
        else if (!alu && t->cls != TC_GLOBAL && t->cls != TC_SHARED && t->cls != TC_ATOM_GLOBAL &&
                 t->cls != TC_ATOM_SHARED && t->cls != TC_CP_ASYNC && t->cls != TC_PARAM && t->cls != TC_CONST)
            t->flags |= TIMING_FENCE; /* branches, barriers, membar, collectives, cp.async waits, ... */
        if (in->visible && alu)
            t->flags |= TIMING_FENCE; /* a clock read */
        if (in->flow != SIM_FLOW_NEXT) {
            t->flags |= TIMING_FENCE;
            if (pc + 1 < prog->n_insts)
                tm->ii[pc + 1].flags |= TIMING_FENCE;
            if (in->flow == SIM_FLOW_BRANCH && in->target >= 0 && in->target < prog->n_insts)
                tm->ii[in->target].flags |= TIMING_FENCE;
        }
    }
    for (int f = 0; f < prog->ptx->n_funcs; f++) /* a function's entry starts a block */
        if (prog->funcs[f].entry_pc >= 0 && prog->funcs[f].entry_pc < prog->n_insts)
            tm->ii[prog->funcs[f].entry_pc].flags |= TIMING_FENCE;
}

bool timing_scoreboard_build(TimingModel *tm, const SimProgram *prog)
{
    const PtxModule *m = prog->ptx;
    uint32_t total = 0;
    for (int f = 0; f < m->n_funcs; f++)
        total += (uint32_t)(m->funcs[f].n_regs > 0 ? m->funcs[f].n_regs : 0);
    uint32_t size = 16;
    while (size < total && size < TIMING_SB_MAX)
        size *= 2;
    tm->sbmask = size - 1;
    tm->n_insts = prog->n_insts;
    tm->ii = calloc((size_t)prog->n_insts + 1, sizeof *tm->ii);
    if (!tm->ii)
        return false;
    for (int i = 0; i < prog->n_insts; i++)
        tm->ii[i].cls = TC_BRANCH; /* the implicit ret closing each function */
    uint32_t base = 0;
    for (int f = 0; f < m->n_funcs; f++) {
        const PtxFunc *fn = &m->funcs[f];
        int pc0 = prog->funcs[f].entry_pc;
        for (int i = 0; i < fn->n_insts && pc0 + i < prog->n_insts; i++) {
            TimingInst *t = &tm->ii[pc0 + i];
            memset(t, 0, sizeof *t);
            classify(&fn->insts[i], t);
            operands(&fn->insts[i], t, base, tm->sbmask);
            constant_read(m, fn, &fn->insts[i], &prog->insts[pc0 + i], t);
        }
        base += (uint32_t)(fn->n_regs > 0 ? fn->n_regs : 0);
    }
    mark_schedule(tm, prog);
    timing_hoist_mark(tm, prog);
    return true;
}
