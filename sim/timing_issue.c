/* timing_issue.c: what an issue does under the timing model.  exec_sched.c
 * calls timing_issue for the warp timing_pick (timing_scheduler.c) chose:
 * it charges the warp's cycles since its last issue to what it waited for,
 * takes the class's pipe (or memory queue, timing_lsu.c), and sets when the
 * results are ready (the scoreboard) and when the warp may issue again
 * (branch, barrier, membar, cp.async waits, nanosleep, deferred and hoisted
 * instructions); an exited warp drains.  Who issues, and when, is decided
 * in timing_scheduler.c. */
#include "exec_int.h"
#include "exec_issue.h"
#include "exec_trace.h"
#include "timing_int.h"

/* Fixed latency and scoreboard kind of a non-memory class. */
static uint64_t latency_of(const double *v, int cls, int *kind)
{
    *kind = TIMING_SB_FIXED;
    switch (cls) {
    case TC_FP32: return (uint64_t)v[TP_LAT_FP32];
    case TC_FP64: return (uint64_t)v[TP_LAT_FP64];
    case TC_IMUL: return (uint64_t)v[TP_LAT_IMUL];
    case TC_INTDIV: return (uint64_t)v[TP_LAT_INTDIV];
    case TC_SFU: *kind = TIMING_SB_SHORT; return (uint64_t)v[TP_LAT_SFU];
    case TC_CVT: *kind = TIMING_SB_SHORT; return (uint64_t)v[TP_LAT_CVT];
    case TC_COLLECTIVE: *kind = TIMING_SB_SHORT; return (uint64_t)v[TP_LAT_COLLECTIVE];
    default: return (uint64_t)v[TP_LAT_INT];
    }
}

/* The classes whose result has a fixed latency (no scoreboard entry). */
static inline bool kind_is_fixed(int cls)
{
    return cls == TC_FP32 || cls == TC_FP64 || cls == TC_INT || cls == TC_IMUL || cls == TC_INTDIV;
}

/* Charge the cycles since w's last issue to what it waited for (and, in a
 * traced launch, tell the trace: the states are numbered alike). */
static void account(Exec *x, const Warp *w, const TimingWarp *tw, const TimingInst *ti, uint64_t now, uint64_t unit_r,
                    int unit_reason)
{
    uint64_t *st = x->tm->out->stall;
    uint64_t t = tw->last + 1;
    int dep_reason;
    uint64_t dep = timing_operand_wait(x->tm, w->blk->sm, tw, ti, &dep_reason);
    const uint64_t until[4] = {tw->min_issue, dep, unit_r, now};
    const int why[4] = {tw->min_reason, dep_reason, unit_reason, DEVICE_STALL_NOT_SELECTED};
    for (int i = 0; i < 4; i++) {
        uint64_t u = until[i] < now ? until[i] : now;
        if (u > t) {
            st[why[i]] += u - t;
            if (x->tstates)
                exec_trace_state(x, w, why[i], t, u - 1);
            t = u;
        }
    }
    st[DEVICE_STALL_SELECTED]++;
    if (x->tstates)
        exec_trace_state(x, w, DEVICE_STALL_SELECTED, now, now);
}
_Static_assert((int)DEVICE_STALL_LONG_SCOREBOARD == (int)TRACE_STATE_LONG_SCOREBOARD &&
                   (int)DEVICE_STALL_SELECTED == (int)TRACE_STATE_SELECTED &&
                   (int)DEVICE_STALL_MISC == (int)TRACE_STATE_MISC && (int)DEVICE_STALL_COUNT == (int)TRACE_STATE_COUNT,
               "trace states are numbered as the model's stalls");

static uint64_t max64(uint64_t a, uint64_t b) { return a > b ? a : b; }
#define VMAX(a, b) timing_vmax(tm, smid, (a), (b)) /* (in timing_issue: either may be pending) */

/* Warp w issued the instruction at pc it waited at: upc moves on past the
 * ones issued ahead of it (none is a branch: upc + 1 each). */
static void skip_ahead(TimingWarp *tw, Warp *w, int32_t pc)
{
    uint32_t d = w->conv && w->upc > pc ? (uint32_t)(w->upc - pc) : 32u;
    tw->ahead = d < 32 ? tw->ahead >> d : 0;
    while (tw->ahead & 1) {
        w->upc++;
        tw->ahead >>= 1;
    }
}

void timing_issue(Exec *x, Warp *w)
{
    TimingModel *tm = x->tm;
    const double *v = tm->p->v;
    uint64_t now = x->cycle;
    int q = tm->cur_q, smid = w->blk->sm;
    TimingSM *ts = &tm->sms[smid];
    size_t wi = w->slot; /* (w->blk - x->blocks) * x->nwarps + w->id */
    TimingWarp *tw = &tm->warps[wi];
    ts->clock = now;
    uint32_t m;
    int32_t pc = w->conv ? (m = w->run, w->upc) : exec_next_group(w, &m), at = pc;
    if (tw->hoist && w->conv) /* issued ahead of upc (pick chose it this cycle) */
        pc = tw->hoist - 1;
    tw->hoist = 0;
    const SimInst *in = &x->insts[pc];
    const TimingInst *ti = &tm->ii[pc];
    if (pc != tw->cached_pc)
        timing_scheduler_deps(tm, wi, tw, pc, smid);
    uint32_t em = exec_guard_mask(w, in, m);
    int ureason;
    uint64_t ur = timing_scheduler_unit_ready(tm, ts, q, ti->cls, now, &ureason);
    account(x, w, tw, ti, now, ur, ureason);
    if (timing_uses_mio(ti->cls)) { /* the next turn there is the next scheduler's */
        ts->turn = (uint8_t)((q + 1) & 3);
        ts->want[q] = 0;
    }

    uint64_t done = now + 1, min_issue = now + 1, leave = 0;
    int kind = TIMING_SB_FIXED, min_reason = DEVICE_STALL_WAIT;
    switch (ti->cls) {
    case TC_GLOBAL: case TC_SHARED: case TC_ATOM_GLOBAL: case TC_ATOM_SHARED:
        done = timing_lsu_issue(x, w, in, ti, em, now, &kind, &leave);
        tw->mem_done = VMAX(tw->mem_done, done);
        tw->drain = VMAX(tw->drain, leave);
        break;
    case TC_CP_ASYNC:
        done = timing_lsu_issue(x, w, in, ti, em, now, &kind, &leave);
        tw->open_group = VMAX(tw->open_group, done);
        tw->mem_done = VMAX(tw->mem_done, done);
        break;
    case TC_CP_WAIT: {
        uint64_t t = 0;
        if (ti->sub == 0) { /* commit_group */
            if (tw->ngroups == TIMING_GROUPS) { /* fold the oldest two */
                tw->groups[1] = VMAX(tw->groups[0], tw->groups[1]);
                for (int i = 1; i < TIMING_GROUPS; i++)
                    tw->groups[i - 1] = tw->groups[i];
                tw->ngroups--;
            }
            tw->groups[tw->ngroups++] = tw->open_group;
            tw->open_group = 0;
        } else if (ti->sub == 1 && em) { /* wait_group N: all but the newest N */
            int keep = (int)exec_src(x, w, in->s[0])[__builtin_ctz(em)];
            int drop = tw->ngroups - (keep < 0 ? 0 : keep);
            for (int i = 0; i < drop; i++)
                t = VMAX(t, tw->groups[i]);
            for (int i = drop; i < tw->ngroups && drop > 0; i++)
                tw->groups[i - drop] = tw->groups[i];
            if (drop > 0)
                tw->ngroups -= drop;
        } else if (ti->sub == 2) { /* wait_all */
            for (int i = 0; i < tw->ngroups; i++)
                t = VMAX(t, tw->groups[i]);
            t = VMAX(t, tw->open_group);
            tw->ngroups = 0;
            tw->open_group = 0;
        }
        min_issue = VMAX(min_issue, t);
        min_reason = DEVICE_STALL_LONG_SCOREBOARD;
        break;
    }
    case TC_BARRIER:
        min_reason = DEVICE_STALL_BARRIER; /* the release sets when (timing_barrier_release) */
        break;
    case TC_MEMBAR:
        min_issue = VMAX(now + (uint64_t)v[TP_MEMBAR_LAT], tw->mem_done);
        min_reason = DEVICE_STALL_MEMBAR;
        break;
    case TC_NANOSLEEP:
        if (em) {
            uint64_t ns = exec_src(x, w, in->s[0])[__builtin_ctz(em)] & 0xffffffffu;
            if (ns > 1000000) /* the PTX ISA's limit: 1 ms */
                ns = 1000000;
            min_issue = now + (uint64_t)((double)ns * v[TP_CLOCK_MHZ] / 1000.0);
        }
        min_reason = DEVICE_STALL_SLEEPING;
        break;
    case TC_PARAM:
        done = now + (uint64_t)v[TP_LAT_INT];
        break;
    case TC_CONST: /* cold at launch: the first read of a sector waits for the L2 */
        done = timing_const_read(tm, smid, now, ti->cbank, ti->coff);
        kind = TIMING_SB_SHORT;
        break;
    case TC_BRANCH: /* the warp waits for its target to resolve and be fetched */
        min_issue = now + (uint64_t)v[TP_LAT_BRANCH];
        break;
    default:
    {
        uint64_t lat = latency_of(v, ti->cls, &kind), at = now;
        int why = DEVICE_STALL_WAIT;
        if ((ti->flags & TIMING_DEFER) && timing_pend(tw->dep_ready)) {
            done = timing_defer_alu(tm, smid, tw, kind_is_fixed(ti->cls), lat, &kind);
            break;
        }
        if ((ti->flags & TIMING_DEFER) && tw->dep_ready > now) {
            /* deferred: it issues when its operands are ready (ptxas put the
             * independent work after it first); what waits for its result
             * waits for what it waited for */
            at = tw->dep_ready;
            why = tw->dep_reason;
            if (tw->dep_kind != TIMING_SB_FIXED && kind == TIMING_SB_FIXED)
                kind = tw->dep_kind;
        }
        done = at + lat;
        /* a fixed-latency result has no scoreboard: ptxas's stall counts make
         * the warp wait it out before a branch (the instruction after it is
         * unknown); a variable-latency one need only have issued */
        uint64_t fence = kind_is_fixed(ti->cls) ? done : at;
        if (fence > tw->defer_until) {
            tw->defer_until = fence;
            tw->defer_reason = (uint8_t)why;
        }
        break;
    }
    }
    int pipe[2];
    uint64_t iv[2];
    int np = timing_pipes_of(v, ti->cls, pipe, iv), k = timing_pick_pipe(ts, q, np, pipe);
    if (k >= 0)
        ts->pipe_free[q][pipe[k]] = max64(ts->pipe_free[q][pipe[k]], now) + iv[k];

    if (pc != at)
        w->upc = pc; /* the stepper and the executor see the one issued */
    if (x->cfg->on_issue) {
        /* the stepper sees a deferred instruction when its operands let it
         * issue (a chain's FMAs 4 cycles apart), not when its warp passed it */
        uint64_t keep = x->cycle;
        if ((ti->flags & TIMING_DEFER) && tw->dep_ready > now)
            x->cycle = tw->dep_ready;
        int stop = exec_view_call(x, w);
        x->cycle = keep;
        if (stop != 0) {
            if (pc != at)
                w->upc = at;
            exec_fault(x, w, NULL, -1, "stopped", 0, "the launch was stopped before it finished");
            return;
        }
    }
    exec_issue(x, w);
    if (pc != at) { /* back to the one it waits at; pc is skipped when reached */
        w->upc = at;
        tw->ahead |= 1u << (pc - at);
    } else if (tw->ahead) {
        skip_ahead(tw, w, pc);
    }
    tw->hz_valid = false;
    tw->hz_when = 0;

    uint32_t *sb = tm->sb + wi * (tm->sbmask + 1);
    uint8_t *sk = tm->sbk + wi * (tm->sbmask + 1);
    if (timing_pend(done)) { /* (timing_defer.c) */
        for (int i = 0; i < ti->ndst; i++)
            timing_defer_sb(tm, smid, &sb[ti->dst[i]], &sk[ti->dst[i]], done, (uint8_t)kind);
    } else {
        uint32_t d32 = done > UINT32_MAX ? UINT32_MAX : (uint32_t)done;
        for (int i = 0; i < ti->ndst; i++) {
            sb[ti->dst[i]] = d32;
            sk[ti->dst[i]] = (uint8_t)kind;
        }
    }
    if (tm->defer && (timing_pend(done) | timing_pend(min_issue) | timing_pend(tw->mem_done) | timing_pend(tw->drain) |
                      timing_pend(tw->open_group) | timing_pend(tw->defer_until)))
        timing_defer_warp(tm, smid, (uint32_t)wi);
    tw->last = now;
    tw->cached_pc = -1;
    tw->npc = -1;
    tw->min_issue = min_issue;
    tw->min_reason = (uint8_t)min_reason;
    if (ts->next_ready > now + 1)
        ts->next_ready = now + 1; /* it may issue again: look next cycle */
    ts->sched_min[q] = 0;
    if (!w->run && !w->barwait && !w->syncwait && x->tstates) /* every lane exited */
        exec_trace_states_flush(x, w);
    if (!w->run && !w->barwait && !w->syncwait && tw->active) { /* every lane exited */
        /* it stays resident until its stores and atomics have left the SM
         * (Nsight Compute's drain); its block retires no earlier */
        uint64_t end = VMAX(now + 1, tw->drain);
        tw->active = false;
        ts->warp_cycles -= tw->start;
        timing_defer_add(tm, smid, &ts->warp_cycles, end); /* (end may be pending) */
        w->blk->busy_until = VMAX(w->blk->busy_until, end);
    }
}
