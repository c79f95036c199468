/* timing_scheduler.c: the four warp schedulers of an SM under the timing
 * model.  Warp k of an SM belongs to sub-partition k % 4 (exec_sched.c
 * builds the lists).  Each cycle each scheduler issues at most one
 * instruction, from its own warps whose operands the scoreboard says are
 * ready and whose pipe or memory queue has room: the warp it issued last if
 * that one is still ready (greedy), else the ready one that issued least
 * recently, oldest first among equals (the H100 recordings' achieved
 * occupancy: warps of one chain length end together, docs/timing.md).  It
 * also says why a warp waits now (timing_warp_state, for the stepper) and
 * which cycle an SM looks at next (timing_next_cycle).  exec_sched.c keeps
 * dispatching, barriers and retiring, and calls timing_pick; timing_issue.c
 * does what the chosen warp's issue does (stall accounting, pipes, the
 * scoreboard); this file only decides who issues and when. */
#include <string.h>

#include "exec_int.h"
#include "timing_int.h"

static inline size_t warp_index(const Exec *x, const Warp *w)
{
    (void)x;
    return w->slot; /* (w->blk - x->blocks) * x->nwarps + w->id */
}

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
 * waiting for it; the others look again a cycle later).  inline for the
 * scan; timing_int.h's declaration makes this the external definition
 * timing_issue.c calls. */
inline uint64_t timing_scheduler_unit_ready(const TimingModel *tm, const TimingSM *ts, int q, int cls, uint64_t now,
                                            int *reason)
{
    uint64_t r = unit_room(tm, ts, q, cls, reason);
    if (timing_uses_mio(cls) && r <= now && not_my_turn(ts, q))
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
        int n = timing_pipes_of(v, cls, pipe, iv), k = timing_pick_pipe(ts, q, n, pipe);
        *reason = DEVICE_STALL_MATH_PIPE_THROTTLE;
        return k >= 0 ? ts->pipe_free[q][pipe[k]] : 0;
    }
    }
}

/* (timing_int.h) */
void timing_scheduler_deps(TimingModel *tm, size_t wi, TimingWarp *tw, int32_t pc, int sm)
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

/* When the operands of instruction pc are ready for warp wi (timing_scheduler_deps() without its cache). */
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
            uint64_t u = timing_scheduler_unit_ready(tm, ts, q, tm->ii[c].cls, now, &reason);
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

/* The cycle w's operands and its own waits allow its next issue (timing_scheduler_deps cached). */
static inline uint64_t ready_at(TimingModel *tm, const Exec *x, Warp *w, int32_t *pcout)
{
    size_t wi = warp_index(x, w);
    TimingWarp *tw = &tm->warps[wi];
    int32_t pc = next_pc(w, tw);
    int sm = w->blk->sm;
    if (pc != tw->cached_pc)
        timing_scheduler_deps(tm, wi, tw, pc, sm);
    *pcout = pc;
    int reason;
    uint64_t d = timing_operand_wait(tm, sm, tw, &tm->ii[pc], &reason);
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
            if (timing_scheduler_unit_ready(tm, ts, q, tm->ii[pc].cls, now, &reason) <= now) {
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
            timing_scheduler_deps(tm, w->slot, tw, pc, smid);
        int dreason;
        uint64_t dep = timing_operand_wait(tm, smid, tw, &tm->ii[pc], &dreason), when;
        uint64_t r = timing_vmax(tm, smid, dep, tw->min_issue);
        tw->hoist = 0;
        if (r <= now) {
            int reason, cls = tm->ii[pc].cls;
            uint64_t u = timing_scheduler_unit_ready(tm, ts, q, cls, now, &reason);
            if (u > r)
                r = u;
            if (u > now && timing_uses_mio(cls)) /* waits for room there only */
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
    uint64_t ur = timing_scheduler_unit_ready(tm, &tm->sms[w->blk->sm], q, tm->ii[pc].cls, now, &ureason);
    /* the order account() charges a wait in (timing_issue.c) */
    int dreason;
    uint64_t dep = timing_operand_wait(tm, w->blk->sm, tw, &tm->ii[pc], &dreason);
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
