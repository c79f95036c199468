/* exec_trace.c: the executor's side of tracing.  The hooks in exec_run.c,
 * exec_sched.c, exec_mem.c, exec_ctrl.c and exec_warp.c are one line each,
 * behind `if (x->trace)`; these functions turn the executor's state into
 * trace events (trace.h) and decide by level what gets written.  The cycle
 * is the launch's cycle clock (exec_sched.c; see traces/FORMAT.md). */
#include "exec_int.h"
#include "exec_trace.h"
#include "timing.h"

#include <string.h>

/* Everything is recorded at the cycle it happens in (retiring, dispatching
 * and barrier releases too); the END record carries the launch's length. */
static uint64_t clock_inst(const Exec *x) { return x->cycle; }
static uint64_t clock_now(const Exec *x) { return x->cycle; }

static uint32_t pc_of(const Exec *x, const SimInst *in) { return (uint32_t)(in - x->insts); }

static int level(const Exec *x) { return trace_writer_level(x->trace); }

void exec_trace_block(Exec *x, const Block *b, bool begin)
{
    if (begin)
        trace_block_begin(x->trace, b->linear, (uint32_t)b->sm, clock_now(x));
    else
        trace_block_end(x->trace, b->linear, (uint32_t)b->sm, clock_now(x));
}

void exec_trace_issue(Exec *x, const Warp *w, const SimInst *in, uint32_t m)
{
    if (level(x) < TRACE_LEVEL_WARPS)
        return;
    if (level(x) < TRACE_LEVEL_INSTRUCTIONS) { /* warps: only when the lanes change */
        if (w->trace_mask == m)
            return;
        ((Warp *)w)->trace_mask = m;
    }
    uint32_t file = TRACE_NONE, line = 0;
    const PtxModule *pm = x->prog->ptx;
    if (in->loc >= 0 && in->loc < pm->n_locs) { /* the outermost inlined location, as faults */
        const PtxLoc *l = &pm->locs[in->loc];
        int guard = 0;
        while (l->inlined_at >= 0 && l->inlined_at < pm->n_locs && guard++ < 64)
            l = &pm->locs[l->inlined_at];
        if (l->file >= 0 && l->file < pm->n_files)
            file = 2 + (uint32_t)l->file; /* strings: kernel, arch, then the files */
        line = l->line > 0 ? (uint32_t)l->line : 0;
    }
    trace_issue(x->trace, w->blk->linear, (uint32_t)w->id, clock_now(x), pc_of(x, in), m,
                in->ptx_line > 0 ? (uint32_t)in->ptx_line : 0, file, line);
}

void exec_trace_span(Exec *x, const Warp *w)
{
    if (level(x) < TRACE_LEVEL_WARPS)
        return;
    uint64_t now = clock_now(x); /* the cycle of its last issue */
    TraceEvent ev = {.type = TRACE_EV_WARP_TURN, .cycle = now, .block = w->blk->linear};
    ev.u.turn.warp = (uint32_t)w->id;
    uint64_t len = now > w->span_start ? now - w->span_start : 0;
    ev.u.turn.count = len > UINT32_MAX ? UINT32_MAX : (uint32_t)len;
    trace_write_event(x->trace, &ev);
}

static uint8_t trace_space(int sp)
{
    switch (sp) {
    case PTX_SPACE_GLOBAL: return TRACE_SPACE_GLOBAL;
    case PTX_SPACE_SHARED: return TRACE_SPACE_SHARED;
    case PTX_SPACE_LOCAL: return TRACE_SPACE_LOCAL;
    case PTX_SPACE_CONST: return TRACE_SPACE_CONST;
    case PTX_SPACE_PARAM: case SPACE_TPARAM: return TRACE_SPACE_PARAM;
    default: return TRACE_SPACE_GENERIC;
    }
}

/* Shared-memory bank conflict degree: the most distinct words one bank
 * serves in one phase (timing_smem.c). */
static uint8_t bank_conflicts(uint32_t m, const uint64_t addr[WARP], unsigned size)
{
    int degree;
    timing_smem_wavefronts(m, addr, size, &degree, NULL);
    return (uint8_t)degree;
}

void exec_trace_mem(Exec *x, const Warp *w, const SimInst *in, uint32_t m, int kind)
{
    if (level(x) < TRACE_LEVEL_MEMORY)
        return;
    TraceEvent ev = {.type = TRACE_EV_MEM, .cycle = clock_inst(x), .block = w->blk->linear};
    ev.u.mem.warp = (uint32_t)w->id;
    ev.u.mem.pc = pc_of(x, in);
    ev.u.mem.mask = m;
    ev.u.mem.kind = (uint8_t)kind;
    unsigned size = kind == TRACE_MEM_LOAD || kind == TRACE_MEM_STORE ? (unsigned)in->size * in->vec : in->size;
    ev.u.mem.size = (uint8_t)(size > 128 ? 128 : size ? size : 1);
    int sp = kind == TRACE_MEM_CP_ASYNC ? PTX_SPACE_SHARED : in->space;
    uint64_t lo = UINT64_MAX, hi = 0;
    for (uint32_t r = m; r; r &= r - 1) {
        int l = __builtin_ctz(r);
        uint64_t a = (in->base >= 0 ? exec_src(x, w, in->base)[l] : 0) + (uint64_t)in->off;
        ev.u.mem.addr[l] = a;
        lo = a < lo ? a : lo;
        hi = a > hi ? a : hi;
    }
    if (sp == PTX_SPACE_NONE && m) { /* a generic access wholly inside one window */
        static const struct { uint64_t win; int sp; } wins[] = {
            {MEM_SHARED_WIN, PTX_SPACE_SHARED}, {MEM_LOCAL_WIN, PTX_SPACE_LOCAL}, {MEM_CONST_WIN, PTX_SPACE_CONST},
            {MEM_PARAM_WIN, PTX_SPACE_PARAM}};
        for (int i = 0; i < 4; i++)
            if (lo >= wins[i].win && hi < wins[i].win + MEM_WIN_SIZE) {
                sp = wins[i].sp;
                for (uint32_t r = m; r; r &= r - 1)
                    ev.u.mem.addr[__builtin_ctz(r)] -= wins[i].win;
            }
        if (sp == PTX_SPACE_NONE && lo >= MEM_WINDOWS_END)
            sp = PTX_SPACE_GLOBAL;
    }
    ev.u.mem.space = trace_space(sp);
    if (sp == PTX_SPACE_SHARED && m)
        ev.u.mem.conflict = bank_conflicts(m, ev.u.mem.addr, size);
    trace_write_event(x->trace, &ev);
}

void exec_trace_atomic(Exec *x, const Warp *w, const SimInst *in, int lane, uint64_t addr, uint64_t old,
                       uint64_t val)
{
    if (level(x) < TRACE_LEVEL_MEMORY)
        return;
    TraceEvent ev = {.type = TRACE_EV_ATOMIC, .cycle = clock_inst(x), .block = w->blk->linear};
    ev.u.atom.warp = (uint32_t)w->id;
    ev.u.atom.lane = (uint32_t)lane;
    ev.u.atom.pc = pc_of(x, in);
    ev.u.atom.op = in->sub < TRACE_ATOM_COUNT ? in->sub : 0;
    int sp = in->space;
    if (sp == PTX_SPACE_NONE)
        sp = addr >= MEM_SHARED_WIN && addr < MEM_SHARED_WIN + MEM_WIN_SIZE ? PTX_SPACE_SHARED : PTX_SPACE_GLOBAL;
    ev.u.atom.space = trace_space(sp);
    ev.u.atom.size = in->size;
    ev.u.atom.addr = addr;
    ev.u.atom.old = old;
    ev.u.atom.val = val;
    ev.u.atom.order = trace_next_atomic_order(x->trace);
    trace_write_event(x->trace, &ev);
}

void exec_trace_arrive(Exec *x, const Warp *w, uint32_t id, uint32_t m, uint32_t arrived)
{
    if (level(x) < TRACE_LEVEL_WARPS)
        return;
    TraceEvent ev = {.type = TRACE_EV_BAR_ARRIVE, .cycle = clock_inst(x), .block = w->blk->linear};
    ev.u.arrive.warp = (uint32_t)w->id;
    ev.u.arrive.id = id;
    ev.u.arrive.mask = m;
    ev.u.arrive.arrived = arrived;
    trace_write_event(x->trace, &ev);
}

void exec_trace_release(Exec *x, const Block *b, uint32_t id, uint32_t released)
{
    if (level(x) < TRACE_LEVEL_WARPS)
        return;
    TraceEvent ev = {.type = TRACE_EV_BAR_RELEASE, .cycle = clock_now(x), .block = b->linear};
    ev.u.release.id = id;
    ev.u.release.released = released;
    trace_write_event(x->trace, &ev);
}

void exec_trace_collective(Exec *x, const Warp *w, const SimInst *in, uint32_t m, int kind, uint32_t member)
{
    if (level(x) < TRACE_LEVEL_WARPS)
        return;
    TraceEvent ev = {.type = TRACE_EV_COLLECTIVE, .cycle = clock_inst(x), .block = w->blk->linear};
    ev.u.coll.warp = (uint32_t)w->id;
    ev.u.coll.pc = pc_of(x, in);
    ev.u.coll.mask = m;
    ev.u.coll.member = member;
    ev.u.coll.kind = (uint8_t)kind;
    ev.u.coll.mode = kind == TRACE_COLL_ACTIVEMASK ? 0 : (uint8_t)(in->sub & 7);
    trace_write_event(x->trace, &ev);
}

void exec_trace_fault(Exec *x, const Warp *w, const SimInst *in, int lane)
{
    const DeviceFault *f = x->fault;
    TraceEvent ev = {.type = TRACE_EV_FAULT, .cycle = in ? clock_inst(x) : clock_now(x), .block = w ? w->blk->linear : 0};
    ev.u.fault.warp = w ? (uint32_t)w->id : TRACE_NONE;
    ev.u.fault.lane = w && lane >= 0 && lane < WARP ? (uint32_t)lane : TRACE_NONE;
    ev.u.fault.pc = in ? pc_of(x, in) : TRACE_NONE;
    ev.u.fault.addr = f ? f->addr : 0;
    ev.u.fault.kind = f ? f->kind : "";
    ev.u.fault.kind_len = (uint32_t)strlen(ev.u.fault.kind);
    ev.u.fault.msg = f ? f->msg : "";
    ev.u.fault.msg_len = (uint32_t)strlen(ev.u.fault.msg);
    trace_write_event(x->trace, &ev);
}
