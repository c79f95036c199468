/* timing_hoist.c: ptxas's hoisting of loads, modelled without reordering
 * the PTX (timing_int.h, TIMING_HZ_*).  nvcc's PTX of a tiled transpose
 * loads an element and stores it to shared memory four times over; the
 * SASS ptxas makes of it issues the four loads, then the four stores
 * (traces/hw/timing-sass-h100.txt, transpose_padded), so a warp waits for
 * memory once, not four times.  Here, while a converged warp's next
 * instruction waits for its operands, a later instruction of the same
 * straight run of code may issue first, executed then by the functional
 * executor: what it reads is written by none of the instructions it moves
 * above, what it writes none of them reads or writes, and it loads from no
 * space one of them may store to -- so every lane computes what it would
 * have in PTX order.  When the warp reaches it, it is skipped. */
#include <string.h>

#include "exec_int.h"
#include "timing_int.h"

static uint8_t space_bits(int sp)
{
    switch (sp) {
    case PTX_SPACE_GLOBAL: return TIMING_SP_GLOBAL;
    case PTX_SPACE_SHARED: return TIMING_SP_SHARED;
    case PTX_SPACE_LOCAL: return TIMING_SP_LOCAL;
    case PTX_SPACE_CONST: case PTX_SPACE_PARAM: return 0; /* nothing stores there while it runs */
    default: return TIMING_SP_ANY;                        /* generic: any of them */
    }
}

/* An access whose order other threads may see: never moved, nothing moved above it. */
static bool ordered(const PtxInst *pi)
{
    static const char *const ord[] = {"volatile", "acquire", "release", "relaxed", "sc", "mmio", "acq_rel"};
    for (size_t i = 0; i < sizeof ord / sizeof ord[0]; i++)
        if (ptx_inst_has_mod(pi, ord[i]))
            return true;
    return false;
}

/* Instructions that read or write the carry flag: an implicit register. */
static bool carries(const PtxInst *pi)
{
    return ptx_inst_has_mod(pi, "cc") || !strcmp(pi->opcode, "addc") || !strcmp(pi->opcode, "subc") ||
           !strcmp(pi->opcode, "madc");
}

/* Register-class instructions that order or change memory all the same: a
 * grid dependence wait (what it waits for is other grids' memory), a cache
 * line discarded, a trap, a breakpoint, a performance-monitor event. */
static bool orders_memory(const PtxInst *pi)
{
    static const char *const ops[] = {"griddepcontrol", "discard", "trap", "brkpt", "pmevent"};
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++)
        if (!strcmp(pi->opcode, ops[i]))
            return true;
    return false;
}

static void mark_one(TimingInst *t, const PtxInst *pi, const SimInst *in)
{
    if (in->flow != SIM_FLOW_NEXT || in->pseudo || in->wsync || carries(pi) || orders_memory(pi)) {
        t->hz |= TIMING_HZ_STOP;
        return;
    }
    bool load = !strcmp(pi->opcode, "ld") || !strcmp(pi->opcode, "ldu");
    switch (t->cls) {
    case TC_INT: case TC_IMUL: case TC_INTDIV: case TC_FP32: case TC_FP64: case TC_SFU: case TC_CVT:
        /* register-only unless a clock read or the like (then not deferred) */
        t->hz |= (t->flags & TIMING_DEFER) ? TIMING_HZ_CAND : TIMING_HZ_STOP;
        break;
    case TC_CONST: /* an LDC: a parameter, a launch constant, a variable's address */
        t->hz |= TIMING_HZ_CAND;
        break;
    case TC_PARAM: /* ld.param moves; st.param (a call's arguments) is a store nothing passes */
        t->hz |= load ? TIMING_HZ_CAND : TIMING_HZ_STOP;
        break;
    case TC_GLOBAL: case TC_SHARED:
        if (ordered(pi) || !strcmp(pi->opcode, "mbarrier")) {
            t->hz |= TIMING_HZ_STOP;
        } else if (load) {
            uint8_t sp = space_bits(t->space);
            if (sp != TIMING_SP_ANY) { /* a generic load is not moved (it may read shared) */
                t->hz |= TIMING_HZ_CAND;
                t->rsp = ptx_inst_has_mod(pi, "nc") ? 0 : sp; /* .nc: read-only while the kernel runs */
            }
        } else if (!strcmp(pi->opcode, "st")) {
            t->wsp = space_bits(t->space);
        } else {
            t->hz |= TIMING_HZ_STOP;
        }
        break;
    default: /* branches, barriers, fences, atomics, collectives, cp.async, nanosleep */
        t->hz |= TIMING_HZ_STOP;
        break;
    }
}

static void hoist_lists(TimingModel *tm);

void timing_hoist_mark(TimingModel *tm, const SimProgram *prog)
{
    const PtxModule *m = prog->ptx;
    for (int pc = 0; pc < prog->n_insts; pc++) /* implicit returns and anything not a PTX instruction */
        tm->ii[pc].hz |= TIMING_HZ_STOP;
    for (int f = 0; f < m->n_funcs; f++) {
        const PtxFunc *fn = &m->funcs[f];
        int pc0 = prog->funcs[f].entry_pc;
        for (int i = 0; i < fn->n_insts && pc0 + i < prog->n_insts; i++) {
            TimingInst *t = &tm->ii[pc0 + i];
            t->hz &= (uint8_t)~TIMING_HZ_STOP; /* keep an overflow's mark (operands) */
            mark_one(t, &fn->insts[i], &prog->insts[pc0 + i]);
        }
    }
    hoist_lists(tm);
}

/* Register sets as 256-bit masks of scoreboard entries (entry mod 256: two
 * registers may share a bit, which can only keep an instruction in place). */
typedef struct {
    uint64_t b[4];
} RegSet;

static inline void set_add(RegSet *s, uint16_t e) { s->b[(e >> 6) & 3] |= 1ull << (e & 63); }
static inline bool set_has(const RegSet *s, uint16_t e) { return s->b[(e >> 6) & 3] >> (e & 63) & 1; }

/* The candidates for a warp stalled at pc with instructions `ahead` issued
 * ahead (bit d: pc + d): up to TIMING_HOIST_CANDS distances into dist. */
static int find(const TimingModel *tm, int32_t pc, uint32_t ahead, uint8_t *dist)
{
    const TimingInst *ii = tm->ii;
    if (ii[pc].hz & TIMING_HZ_STOP)
        return 0;
    RegSet wr = {{0}}, rd = {{0}};
    uint8_t wsp = 0;
    int n = 0;
    for (int d = 0; d <= TIMING_HOIST_WINDOW && pc + d < tm->n_insts; d++) { /* bit d of ahead */
        if (d > 0 && (ahead >> d & 1)) /* issued already */
            continue;
        const TimingInst *k = &ii[pc + d];
        if (d > 0 && (k->hz & TIMING_HZ_STOP))
            break;
        if (d > 0 && (k->hz & TIMING_HZ_CAND) && !(k->rsp & wsp)) {
            bool ok = true;
            for (int i = 0; i < k->nsrc && ok; i++)
                ok = !set_has(&wr, k->src[i]);
            for (int i = 0; i < k->ndst && ok; i++)
                ok = !set_has(&wr, k->dst[i]) && !set_has(&rd, k->dst[i]);
            if (ok) {
                dist[n++] = (uint8_t)d;
                if (n == TIMING_HOIST_CANDS)
                    break;
            }
        }
        /* what a later one may not move above: this one, moved or not */
        for (int i = 0; i < k->nsrc; i++)
            set_add(&rd, k->src[i]);
        for (int i = 0; i < k->ndst; i++)
            set_add(&wr, k->dst[i]);
        wsp |= k->wsp;
    }
    return n;
}

static void hoist_lists(TimingModel *tm)
{
    for (int pc = 0; pc < tm->n_insts; pc++)
        tm->ii[pc].nc0 = (uint8_t)find(tm, pc, 0, tm->ii[pc].c0);
}

int timing_hoist_cands(const TimingModel *tm, TimingWarp *tw, int32_t pc, const uint8_t **dist)
{
    if (!tw->ahead) { /* the usual case: the list made at load */
        *dist = tm->ii[pc].c0;
        return tm->ii[pc].nc0;
    }
    *dist = tw->hz_cand;
    if (!tw->hz_valid || tw->hz_pc != pc) {
        tw->hz_valid = true;
        tw->hz_pc = pc;
        tw->hz_n = (uint8_t)find(tm, pc, tw->ahead, tw->hz_cand);
    }
    return tw->hz_n;
}
