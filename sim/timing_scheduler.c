/* timing_scheduler.c: the four warp schedulers of an SM under the timing
 * model.  Warp k of an SM belongs to sub-partition k % 4 (exec_sched.c
 * builds the lists).  Each cycle each scheduler issues at most one
 * instruction, from its own warps whose operands the scoreboard says are
 * ready and whose pipe or memory queue has room: the warp it issued last if
 * that one is still ready (greedy), else the ready one that issued least
 * recently, oldest first among equals (the H100 recordings' achieved
 * occupancy: warps of one chain length end together, docs/timing.md).  Each warp cycle
 * between two issues is charged to the reason it waited (Nsight Compute's
 * stall names).  exec_sched.c keeps dispatching, barriers and retiring;
 * this file only decides who issues and when. */
#include <string.h>

#include "exec_int.h"
#include "exec_issue.h"
#include "exec_trace.h"
#include "timing_int.h"

static inline size_t warp_index(const Exec *x, const Warp *w)
{
    (void)x;
    return w->slot; /* (w->blk - x->blocks) * x->nwarps + w->id */
}

/* The pipes a class may use (up to two, the preferred first) and the
 * cycles one warp instruction holds each; 0 pipes: none. */
static int pipes_of(const double *v, int cls, int pipe[2], uint64_t iv[2])
{
    switch (cls) {
    case TC_FP32: /* 128 results/SM/clk: half on each FMA pipe */
        pipe[0] = TIMING_PIPE_FMAL, pipe[1] = TIMING_PIPE_FMAH;
        iv[0] = iv[1] = (uint64_t)(2 * v[TP_INT_FP32]);
        return 2;
    case TC_INT: /* the ALU, or the heavy FMA pipe as an IMAD form */
        pipe[0] = TIMING_PIPE_ALU, pipe[1] = TIMING_PIPE_FMAH;
        iv[0] = iv[1] = (uint64_t)v[TP_INT_INT];
        return 2;
    case TC_IMUL:
        pipe[0] = TIMING_PIPE_FMAH, iv[0] = (uint64_t)v[TP_INT_INT];
        return 1;
    case TC_INTDIV:
        pipe[0] = TIMING_PIPE_ALU, iv[0] = (uint64_t)v[TP_INT_INTDIV];
        return 1;
    case TC_FP64:
        pipe[0] = TIMING_PIPE_FP64, iv[0] = (uint64_t)v[TP_INT_FP64];
        return 1;
    case TC_SFU:
        pipe[0] = TIMING_PIPE_SFU, iv[0] = (uint64_t)v[TP_INT_SFU];
        return 1;
    case TC_CVT:
        pipe[0] = TIMING_PIPE_SFU, iv[0] = (uint64_t)v[TP_INT_CVT];
        return 1;
    case TC_COLLECTIVE:
        pipe[0] = TIMING_PIPE_COLL, iv[0] = (uint64_t)v[TP_INT_COLLECTIVE];
        return 1;
    default:
        return 0;
    }
}

/* Of the class's pipes in sub-partition q, the one free first (-1 none). */
static int pick_pipe(const TimingSM *ts, int q, int n, const int pipe[2])
{
    if (!n)
        return -1;
    return n > 1 && ts->pipe_free[q][pipe[1]] < ts->pipe_free[q][pipe[0]] ? 1 : 0;
}

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

/* The classes that queue for the SM's shared-memory unit (MIO), which the
 * four schedulers share.  Its queue holds mio_queue instructions, whatever
 * their wavefronts, and it takes the schedulers waiting for room in it in
 * turn: on the H100 the warps of a block whose reads conflict 4- to 32-way
 * end together (traces/hw/timing-h100.json, family banks: achieved occupancy
 * 12.3-12.4% of 12.5% at every stride), where scheduler 0, asked first every
 * cycle, would take every place that frees and finish its warps thousands of
 * cycles before the others' (docs/timing.md, item 20). */
static inline bool uses_mio(int cls) { return cls == TC_SHARED || cls == TC_ATOM_SHARED; }

/* Another scheduler waiting for the shared-memory unit comes before q in its turn. */
static inline bool not_my_turn(const TimingSM *ts, int q)
{
    for (int i = 0; i < 4; i++) {
        int p = (ts->turn + i) & 3;
        if (p == q)
            return false;
        if (ts->want[p])
            return true;
    }
    return false;
}

static inline uint64_t unit_room(const TimingModel *tm, const TimingSM *ts, int q, int cls, int *reason);

/* The cycle the unit the class needs can take it, and the stall it is
 * (the shared-memory unit: for the scheduler whose turn it is among those
 * waiting for it; the others look again a cycle later). */
static inline uint64_t unit_ready(const TimingModel *tm, const TimingSM *ts, int q, int cls, uint64_t now,
                                  int *reason)
{
    uint64_t r = unit_room(tm, ts, q, cls, reason);
    if (uses_mio(cls) && r <= now && not_my_turn(ts, q))
        r = now + 1;
    return r;
}

static inline uint64_t unit_room(const TimingModel *tm, const TimingSM *ts, int q, int cls, int *reason)
{
    const double *v = tm->p->v;
    switch (cls) {
    case TC_GLOBAL: case TC_ATOM_GLOBAL: case TC_CP_ASYNC: {
        /* room in the L1's queue once the instruction TP_LG_QUEUE places
         * back has started */
        *reason = DEVICE_STALL_LG_THROTTLE;
        unsigned n = timing_lg_entries(tm);
        uint64_t r = ts->lg_head < n ? 0 : ts->lg_start[ts->lg_head % n];
        /* a global atomic: room for a warp's updates among those the SM may
         * have outstanding (they leave in the order they issue, so the L2
         * takes the SMs' updates in time order) */
        uint64_t size = (uint64_t)v[TP_ATOM_OUTSTANDING];
        if (cls == TC_ATOM_GLOBAL && ts->atom_ring && size >= 32 && ts->atom_head + 32 > size) {
            uint64_t room = ts->atom_ring[(ts->atom_head + 31) % size];
            if (room > r)
                r = room;
        }
        return r;
    }
    case TC_SHARED: case TC_ATOM_SHARED: {
        *reason = DEVICE_STALL_MIO_THROTTLE;
        /* room once the instruction mio_queue places back has started in the unit */
        double d = v[TP_MIO_QUEUE];
        uint64_t k = d < 1 ? 1u : d > TIMING_MIO_MAX ? TIMING_MIO_MAX : (uint64_t)d;
        return ts->mio_head < k ? 0 : ts->mio_start[(ts->mio_head - k) % TIMING_MIO_MAX];
    }
    default: {
        int pipe[2];
        uint64_t iv[2];
        int n = pipes_of(v, cls, pipe, iv), k = pick_pipe(ts, q, n, pipe);
        *reason = DEVICE_STALL_MATH_PIPE_THROTTLE;
        return k >= 0 ? ts->pipe_free[q][pipe[k]] : 0;
    }
    }
}

static void deps(TimingModel *tm, size_t wi, TimingWarp *tw, int32_t pc, int sm)
{
    if (tw->pend) { /* (timing_defer.c) */
        timing_defer_deps(tm, sm, wi, pc);
        return;
    }
    const TimingInst *ti = &tm->ii[pc];
    const uint32_t *sb = tm->sb + wi * (tm->sbmask + 1);
    const uint8_t *sk = tm->sbk + wi * (tm->sbmask + 1);
    uint64_t r = 0;
    int kind = TIMING_SB_FIXED;
    for (int i = 0; i < ti->nsrc; i++)
        if (sb[ti->src[i]] > r) {
            r = sb[ti->src[i]];
            kind = sk[ti->src[i]];
        }
    for (int i = 0; i < ti->ndst; i++) /* write after write: wait for an older load into it */
        if (sb[ti->dst[i]] > r) {
            r = sb[ti->dst[i]];
            kind = sk[ti->dst[i]];
        }
    tw->dep_ready = r;
    tw->dep_reason = (uint8_t)timing_sb_reason(kind);
    tw->dep_kind = (uint8_t)kind;
    tw->cached_pc = pc;
}

/* The operand wait of w's next instruction (deps cached): none for one that
 * may be deferred, its own plus the deferred ones' for a fence. */
static inline uint64_t operand_wait(TimingModel *tm, int sm, const TimingWarp *tw, const TimingInst *ti,
                                    int *reason)
{
    uint64_t r = tw->dep_ready;
    *reason = tw->dep_reason;
    if (ti->flags & TIMING_DEFER)
        return 0;
    if ((ti->flags & TIMING_FENCE) && (timing_pend(r) || timing_pend(tw->defer_until))) {
        /* pending: not ready this round; the reason is looked at only at
         * an issue, once both are known */
        return timing_vmax(tm, sm, r, tw->defer_until);
    }
    if ((ti->flags & TIMING_FENCE) && tw->defer_until > r) {
        r = tw->defer_until;
        *reason = tw->defer_reason;
    }
    return r;
}

static inline int32_t next_pc(const Warp *w, TimingWarp *tw)
{
    if (w->conv)
        return w->upc;
    if (tw->npc < 0) {
        uint32_t m;
        tw->npc = exec_next_group(w, &m);
    }
    return tw->npc;
}

/* When the operands of instruction pc are ready for warp wi (deps() without its cache). */
static uint64_t deps_at(TimingModel *tm, size_t wi, int32_t pc, int sm)
{
    const TimingInst *ti = &tm->ii[pc];
    const uint32_t *sb = tm->sb + wi * (tm->sbmask + 1);
    if (tm->warps[wi].pend) { /* pending values (timing_defer.c) */
        const uint8_t *sk = tm->sbk + wi * (tm->sbmask + 1);
        uint64_t r = 0;
        for (int i = 0; i < ti->nsrc; i++)
            r = timing_vmax(tm, sm, r, timing_sb_tv(sb[ti->src[i]], sk[ti->src[i]]).v);
        for (int i = 0; i < ti->ndst; i++)
            r = timing_vmax(tm, sm, r, timing_sb_tv(sb[ti->dst[i]], sk[ti->dst[i]]).v);
        return r;
    }
    uint64_t r = 0;
    for (int i = 0; i < ti->nsrc; i++)
        if (sb[ti->src[i]] > r)
            r = sb[ti->src[i]];
    for (int i = 0; i < ti->ndst; i++)
        if (sb[ti->dst[i]] > r)
            r = sb[ti->dst[i]];
    return r;
}

/* Warp w, converged and waiting at pc for its operands (only), may issue
 * an instruction ptxas would have hoisted above it (timing_hoist.c): true
 * and tw->hoist set when one's operands and unit are ready at now, else
 * false and *when the earliest one's could be (UINT64_MAX: none). */
static bool hoist_ready(TimingModel *tm, const TimingSM *ts, int q, const Warp *w, TimingWarp *tw, int32_t pc,
                        uint64_t now, uint64_t *when)
{
    *when = UINT64_MAX;
    if (!w->conv || tw->min_issue > now || tw->dep_ready <= now)
        return false;
    if (tw->hz_when > now) { /* (operands only change when it issues) */
        *when = tw->hz_when;
        return false;
    }
    const uint8_t *dist;
    uint64_t dmin = UINT64_MAX;
    int n = timing_hoist_cands(tm, tw, pc, &dist);
    int sm = w->blk->sm;
    for (int i = 0; i < n; i++) {
        int32_t c = pc + dist[i];
        uint64_t r = deps_at(tm, w->slot, c, sm), ops = r;
        if (r <= now) {
            int reason;
            uint64_t u = unit_ready(tm, ts, q, tm->ii[c].cls, now, &reason);
            if (u > r)
                r = u;
        }
        if (r <= now) {
            tw->hoist = c + 1;
            return true;
        }
        *when = timing_vmin(tm, sm, *when, r);
        dmin = timing_vmin(tm, sm, dmin, ops);
    }
    tw->hz_when = dmin;
    return false;
}

/* The cycle w's operands and its own waits allow its next issue (deps cached). */
static inline uint64_t ready_at(TimingModel *tm, const Exec *x, Warp *w, int32_t *pcout)
{
    size_t wi = warp_index(x, w);
    TimingWarp *tw = &tm->warps[wi];
    int32_t pc = next_pc(w, tw);
    int sm = w->blk->sm;
    if (pc != tw->cached_pc)
        deps(tm, wi, tw, pc, sm);
    *pcout = pc;
    int reason;
    uint64_t d = operand_wait(tm, sm, tw, &tm->ii[pc], &reason);
    return timing_vmax(tm, sm, d, tw->min_issue);
}

/* The scan of scheduler q's warps (timing_pick below: most calls find
 * nothing can issue yet and return before it). */
static Warp *__attribute__((noinline)) pick_scan(Exec *x, SimSM *sm, TimingSM *ts, int q)
{
    TimingModel *tm = x->tm;
    uint64_t now = x->cycle;
    uint64_t smin = UINT64_MAX;
    int smid = (int)(sm - x->sms);
    int n = sm->nwl > q ? (sm->nwl - q + 3) / 4 : 0;
    Warp *greedy = ts->greedy[q], *best = NULL;
    bool random = x->cfg->schedule == DEVICE_SCHED_RANDOM;
    int gk = ts->greedy_k[q];
    if (greedy && !random && gk < n && sm->wl[q + 4 * gk] == greedy && greedy->run) {
        /* greedy: the warp issued last keeps issuing while it can (the others
         * are looked at when it cannot) */
        int32_t pc;
        uint64_t r = ready_at(tm, x, greedy, &pc), when;
        TimingWarp *gw = &tm->warps[greedy->slot];
        gw->hoist = 0;
        if (r <= now) {
            int reason;
            if (unit_ready(tm, ts, q, tm->ii[pc].cls, now, &reason) <= now) {
                tm->cur_q = q;
                return greedy;
            }
        } else if (hoist_ready(tm, ts, q, greedy, gw, pc, now, &when)) {
            tm->cur_q = q;
            return greedy;
        }
    }
    ts->want[q] = 0; /* (the scan says again) */
    uint64_t best_age = UINT64_MAX, best_last = UINT64_MAX;
    int nready = 0, best_k = -1;
    bool got_greedy = false;
    for (int k = 0; k < n; k++) {
        if (sm->ready_ok) { /* straight to the next warp with runnable lanes (exec_sched.c's mask) */
            uint64_t rest = sm->ready[q] >> k; /* n <= 64 there */
            if (!rest)
                break;
            k += __builtin_ctzll(rest);
        }
        Warp *w = sm->wl[q + 4 * k];
        if (!w->run)
            continue;
        TimingWarp *tw = &tm->warps[w->slot]; /* ready_at's work, its TimingWarp found once */
        int32_t pc = next_pc(w, tw);
        if (pc != tw->cached_pc)
            deps(tm, w->slot, tw, pc, smid);
        int dreason;
        uint64_t dep = operand_wait(tm, smid, tw, &tm->ii[pc], &dreason), when;
        uint64_t r = timing_vmax(tm, smid, dep, tw->min_issue);
        tw->hoist = 0;
        if (r <= now) {
            int reason, cls = tm->ii[pc].cls;
            uint64_t u = unit_ready(tm, ts, q, cls, now, &reason);
            if (u > r)
                r = u;
            if (u > now && uses_mio(cls)) /* waits for room there only */
                ts->want[q] = 1;
        } else if (hoist_ready(tm, ts, q, w, tw, pc, now, &when)) {
            r = now;
        } else {
            r = timing_vmin(tm, smid, r, when);
        }
        if (r > now) { /* (a pending r is: past the round's end) */
            smin = timing_vmin(tm, smid, smin, r);
            continue;
        }
        nready++;
        if (random) { /* --schedule random: any ready warp (reservoir choice) */
            if (exec_rand_below(x, (uint32_t)nready) == 0) {
                best = w;
                best_k = k;
            }
        } else if (w == greedy) {
            best = w;
            best_k = k;
            got_greedy = true;
        } else if (!got_greedy && (tw->last < best_last || (tw->last == best_last && tw->age < best_age))) {
            best = w;
            best_k = k;
            best_age = tw->age;
            best_last = tw->last;
        }
    }
    if (nready > 1)
        smin = now + 1; /* the ones not selected try again next cycle */
    ts->sched_min[q] = smin;
    if (smin < ts->next_ready) /* (a pending smin is past the round's end: as good as never) */
        ts->next_ready = smin;
    if (best) {
        ts->greedy[q] = best;
        ts->greedy_k[q] = best_k;
        tm->cur_q = q;
    }
    return best;
}

Warp *timing_pick(Exec *x, SimSM *sm, int q)
{
    TimingSM *ts = &x->tm->sms[sm - x->sms];
    if (x->cycle < ts->sched_min[q]) { /* nothing of its can issue yet */
        if (ts->sched_min[q] < ts->next_ready)
            ts->next_ready = ts->sched_min[q];
        return NULL;
    }
    return pick_scan(x, sm, ts, q);
}

/* Charge the cycles since w's last issue to what it waited for (and, in a
 * traced launch, tell the trace: the states are numbered alike). */
static void account(Exec *x, const Warp *w, const TimingWarp *tw, const TimingInst *ti, uint64_t now, uint64_t unit_r,
                    int unit_reason)
{
    uint64_t *st = x->tm->out->stall;
    uint64_t t = tw->last + 1;
    int dep_reason;
    uint64_t dep = operand_wait(x->tm, w->blk->sm, tw, ti, &dep_reason);
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
    size_t wi = warp_index(x, w);
    TimingWarp *tw = &tm->warps[wi];
    ts->clock = now;
    uint32_t m;
    int32_t pc = w->conv ? (m = w->run, w->upc) : exec_next_group(w, &m), at = pc;
    if (tw->hoist && w->conv) /* issued ahead of upc (pick chose it this cycle) */
        pc = tw->hoist - 1;
    tw->hoist = 0;
    const SimInst *in = &x->prog->insts[pc];
    const TimingInst *ti = &tm->ii[pc];
    if (pc != tw->cached_pc)
        deps(tm, wi, tw, pc, smid);
    uint32_t em = exec_guard_mask(w, in, m);
    int ureason;
    uint64_t ur = unit_ready(tm, ts, q, ti->cls, now, &ureason);
    account(x, w, tw, ti, now, ur, ureason);
    if (uses_mio(ti->cls)) { /* the next turn there is the next scheduler's */
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
    int np = pipes_of(v, ti->cls, pipe, iv), k = pick_pipe(ts, q, np, pipe);
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

int timing_warp_state(const Exec *x, const Warp *w, uint64_t *since)
{
    TimingModel *tm = x->tm;
    uint64_t now = x->cycle, dummy;
    if (!since)
        since = &dummy;
    if (!tm || !w->blk->live || !(w->present & ~w->exited))
        return -1;
    TimingWarp *tw = &tm->warps[warp_index(x, w)];
    uint64_t t = tw->last + 1 < now ? tw->last + 1 : now;
    *since = t;
    if (!w->run) /* every lane waits: at a barrier, or for the rest of a warp-synchronous mask */
        return w->barwait ? DEVICE_STALL_BARRIER : w->syncwait ? DEVICE_STALL_MISC : -1;
    if (tw->last >= now && tw->min_issue <= now) {
        *since = now;
        return DEVICE_STALL_SELECTED;
    }
    const SimSM *sm = &x->sms[w->blk->sm];
    int q = 0;
    for (int k = 0; k < sm->nwl; k++)
        if (sm->wl[k] == w)
            q = k % 4;
    int32_t pc;
    ready_at(tm, x, (Warp *)w, &pc); /* (fills the warp's cached dependences) */
    int ureason;
    uint64_t ur = unit_ready(tm, &tm->sms[w->blk->sm], q, tm->ii[pc].cls, now, &ureason);
    /* the order account() charges a wait in */
    int dreason;
    uint64_t dep = operand_wait(tm, w->blk->sm, tw, &tm->ii[pc], &dreason);
    const uint64_t until[3] = {tw->min_issue, dep, ur};
    const int why[3] = {tw->min_reason, dreason, ureason};
    for (int i = 0; i < 3; i++) {
        if (until[i] > now && until[i] > t) {
            *since = t;
            return why[i];
        }
        if (until[i] > t)
            t = until[i];
    }
    *since = t;
    return DEVICE_STALL_NOT_SELECTED;
}

uint64_t timing_next_cycle(Exec *x, SimSM *sm)
{
    TimingSM *ts = &x->tm->sms[sm - x->sms];
    uint64_t now = sm->now, next = ts->next_ready;
    ts->next_ready = UINT64_MAX;
    if (next == UINT64_MAX) { /* nothing pending: look at every warp again (a safety net:
                                 a warp list changed and no hook said so) */
        memset(ts->sched_min, 0, sizeof ts->sched_min);
        /* every block looked at: when only drained blocks wait to retire,
         * nothing happens before the first retires (capped below) */
        if (!sm->finishing)
            next = now + 1;
    }
    if (next <= now)
        next = now + 1;
    if (sm->finishing && next > sm->finishing - 1) /* a finished block retires then */
        next = sm->finishing - 1 > now ? sm->finishing - 1 : now + 1;
    return next;
}
