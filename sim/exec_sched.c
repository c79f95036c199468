/* exec_sched.c: which warp issues when.  The grid runs the way hardware
 * runs it: blocks are dispatched to SMs breadth-first (block 0 to SM 0,
 * block 1 to SM 1, ...) until every SM holds as many blocks as the occupancy
 * model allows; then each next block goes where room appeared first.  Time
 * goes in cycles: in each cycle every SM's 4 warp schedulers issue one
 * instruction each, from the warps of its resident blocks that have
 * runnable lanes (warp k of the SM belongs to scheduler k % 4).  A warp
 * issues the instructions no other warp can observe in a burst, one per
 * cycle of its scheduler (burst(); exec_burst_goes_on: a diverged warp's
 * kept group too, and shared-memory accesses while the rest of its block
 * waits).
 *
 * SMs are simulated a slice of cycles at a time, one after another, each on
 * its own clock; an SM's slice ends early when a block finishes while
 * others wait, and between rounds waiting blocks go to free places in the
 * order they freed (dispatch_free).
 *
 * The schedule (DeviceLaunch.schedule) decides the picks hardware leaves
 * open: roundrobin (loose round robin per scheduler, SMs in index order,
 * full slices: the deterministic default), random (a seeded random ready
 * warp per scheduler, a random SM order per round and random slice
 * lengths), adversarial (each scheduler keeps issuing one warp and only now
 * and then switches, at random, so warps and blocks drift far apart -- the
 * opposite extreme of lockstep).
 *
 * Timing model (x->tm, DeviceLaunch.timing): the same loop, but the model
 * picks (timing_pick: a ready warp, greedy then round robin), a warp issues one
 * instruction per turn (timing_issue), idle cycles are skipped
 * (timing_next_cycle) and slices are short (TIMING_SLICE) so SMs stay
 * close in modelled time.  Hooks are marked "timing hook".
 *
 * With several threads (exec_par.c) a round's SMs run side by side in
 * chunks, each chunk's SMs in this order, when nothing but global memory
 * is shared between SMs and the chunks touch no common bytes; otherwise
 * the launch runs again here on one thread. */
#include "exec_cluster.h"
#include "exec_int.h"
#include "exec_burst.h"
#include "exec_issue.h"
#include "exec_par.h"
#include "exec_race.h"
#include "exec_trace.h"

#include <stdlib.h>
#include <string.h>

/* Longest run of invisible instructions issued at once (see burst()). */
#define BURST_MAX 64
/* Cycles one SM runs before the next SM takes its turn (see the top). */
#define SLICE 4096
/* With the timing model: TIMING_SLICE (exec_int.h). */
/* Adversarial: a scheduler switches warps with probability 1/SWITCH. */
#define ADVERSARIAL_SWITCH 128

/* Which warps of sm have runnable lanes, a bit per warp of each scheduler's
 * share, so that a pick need not look at every warp.  A warp's bit changes
 * when it issues (sm_cycle looks at it after its burst) or when a barrier
 * of its block releases (every release counts in stats->barriers: then the
 * block's bits are made again).  With clusters a release wakes warps of
 * other SMs: no masks there.  The timing model's pick reads them too. */
static void sm_ready(SimSM *sm)
{
    for (int q = 0; q < 4; q++)
        sm->ready[q] = 0;
    for (int i = 0; i < sm->nwl; i++)
        if (sm->wl[i]->run)
            sm->ready[i & 3] |= 1ull << (i >> 2);
}

/* Whether some warp of block b has runnable lanes, from sm's ready masks
 * (kept up to date on the round-robin path, sm->rr). */
static inline bool block_runs(const Exec *x, const SimSM *sm, const Block *b)
{
    for (int wi = 0, i = b->wl; wi < x->nwarps; wi++, i++)
        if (sm->ready[i & 3] >> (i >> 2) & 1)
            return true;
    return false;
}

static void block_ready(Exec *x, SimSM *sm, const Block *b)
{
    for (int wi = 0, i = b->wl; wi < x->nwarps; wi++, i++) {
        uint64_t bit = 1ull << (i >> 2);
        if (b->warps[wi].run)
            sm->ready[i & 3] |= bit;
        else
            sm->ready[i & 3] &= ~bit;
    }
}

static void sm_rebuild(Exec *x, SimSM *sm)
{
    sm->stale = false;
    sm->nwl = 0;
    for (int k = 0; k < x->per_sm; k++) {
        Block *b = &x->blocks[sm->first_slot + k];
        if (!b->live)
            continue;
        b->wl = sm->nwl;
        for (int i = 0; i < x->nwarps; i++)
            sm->wl[sm->nwl++] = &b->warps[i];
    }
    for (int q = 0; q < 4; q++) { /* a burst already issued keeps its scheduler busy */
        sm->last[q] = -1;
        sm->share[q] = sm->nwl > q ? (sm->nwl - q + 3) / 4 : 0;
    }
    sm->ready_ok = !x->cl && sm->share[0] <= 64;
    sm->rr = sm->ready_ok && !x->tm && x->cfg->schedule == DEVICE_SCHED_ROUNDROBIN;
    if (sm->ready_ok)
        sm_ready(sm);
}

/* Block b's memory and warps as at the kernel's start. */
static void block_init(Exec *x, Block *b)
{
    memset(b->shared, 0, x->shared_size);
    memset(b->local, 0, (size_t)x->nthreads * x->prog->local_size);
    memset(b->bar, 0, sizeof b->bar);
    for (int k = 0; k < x->nwarps; k++)
        exec_warp_init(x, b, &b->warps[k], k);
    b->init_pending = false;
}

/* Block b starts as linear block i of the grid. */
static void block_dispatch_at(Exec *x, Block *b, uint64_t i)
{
    const DeviceLaunch *c = x->cfg;
    x->next_block++;
    b->linear = i;
    b->ctaid.x = (unsigned)(i % c->grid.x);
    b->ctaid.y = (unsigned)(i / c->grid.x % c->grid.y);
    b->ctaid.z = (unsigned)(i / ((uint64_t)c->grid.x * c->grid.y));
    b->exited_threads = 0;
    b->busy_until = 0;
    b->live = true;
    if (x->init_late) /* the slice that runs the SM next sets it up (sm_slice) */
        b->init_pending = true;
    else
        block_init(x, b);
    x->stats->warps += (uint64_t)x->nwarps;
    x->sms[b->sm].live++;
    if (x->tm) /* timing hook */
        timing_block_begin(x, b);
    if (x->trace)
        exec_trace_block(x, b, true);
    if (x->race)
        exec_race_block(x, b, true);
}

static void block_dispatch(Exec *x, Block *b)
{
    block_dispatch_at(x, b, x->next_block);
}

/* Clusters: the next cluster's CTAs all at once (a gang) onto free slots of
 * one GPC, each SM's clock brought up to the gang's start; false when
 * every cluster is out or no GPC has room for one. */
static bool cluster_dispatch(Exec *x)
{
    Block *slot[EXEC_CLUSTER_MAX];
    uint64_t when = 0, keep = x->cycle;
    ExecCluster *c = exec_cluster_place(x, slot, &when);
    if (!c)
        return false;
    for (int r = 0; r < x->cl->size; r++) {
        SimSM *sm = &x->sms[slot[r]->sm];
        if (sm->now < when)
            sm->now = when;
        x->cycle = sm->now;
        exec_cluster_join(c, slot[r], r);
        block_dispatch_at(x, slot[r], exec_cluster_cta(x, c, r));
        sm_rebuild(x, sm);
    }
    x->cycle = keep;
    return true;
}

static void block_retire(Exec *x, Block *b)
{
    b->live = false;
    x->sms[b->sm].live--;
    x->stats->blocks++;
    exec_cluster_retire(x, b);
    if (x->tm) /* timing hook */
        timing_block_end(x, b);
    exec_async_block_end(x, b);
    exec_tile_block_end(x, b, true);
    if (x->trace)
        exec_trace_block(x, b, false);
    if (x->race)
        exec_race_block(x, b, false);
}

/* A block none of whose warps can run: done, waiting for a barrier that can
 * now release, or stuck (deadlock). */
static void block_stalled(Exec *x, Block *b)
{
    for (int id = 0; id < 16; id++) {
        if (b->bar[id].arrived && exec_barrier_try_release(x, b, id)) /* (none arrived: none to release) */
            return;
        if (x->faulted)
            return;
    }
    if (b->exited_threads == (uint32_t)x->nthreads) {
        block_retire(x, b);
        return;
    }
    if (exec_cluster_stalled(x, b)) /* waits at barrier.cluster for other CTAs */
        return;
    /* some threads wait and nothing can wake them */
    for (int wi = 0; wi < x->nwarps; wi++) {
        Warp *w = &b->warps[wi];
        if (w->syncwait) {
            exec_sync_check(x, w);
            if (x->faulted)
                return;
        }
    }
    for (int wi = 0; wi < x->nwarps; wi++) {
        Warp *w = &b->warps[wi];
        if (w->barwait) {
            int l = __builtin_ctz(w->barwait);
            int id = w->barid[l];
            uint32_t need = b->bar[id].expected ? b->bar[id].expected
                                                : (uint32_t)x->nthreads - b->exited_threads;
            const SimInst *in = &x->insts[w->pc[l] - 1];
            exec_fault(x, w, in, l, "deadlock", 0,
                       "barrier %d waits for %u threads but only %u arrived and no other "
                       "thread of the block can run (barrier divergence)", id, need, b->bar[id].arrived);
            return;
        }
    }
    for (int wi = 0; wi < x->nwarps; wi++) { /* lanes parked at a warp sync, rest exited */
        Warp *w = &b->warps[wi];
        if (w->syncwait) {
            int l = __builtin_ctz(w->syncwait);
            exec_fault(x, w, &x->insts[w->pc[l]], l, "deadlock", 0,
                       "lanes 0x%08x of warp %d wait at a warp-synchronous instruction for lanes "
                       "0x%08x that will never arrive", w->syncwait, w->id, w->syncmask[l] & ~w->syncwait);
            return;
        }
    }
}

/* The warp scheduler q of sm issues next, or NULL when none is ready. */
static Warp *pick(Exec *x, SimSM *sm, int q)
{
    if (x->tm) /* timing hook: the model picks */
        return timing_pick(x, sm, q);
    int n = sm->share[q]; /* its share: q, q+4, ... */
    if (!n)
        return NULL;
    int start;
    switch (x->cfg->schedule) {
    case DEVICE_SCHED_RANDOM:
        start = (int)exec_rand_below(x, (uint32_t)n);
        break;
    case DEVICE_SCHED_ADVERSARIAL:
        if (sm->last[q] >= 0 && sm->last[q] < n && sm->wl[q + 4 * sm->last[q]]->run &&
            exec_rand_below(x, ADVERSARIAL_SWITCH))
            return sm->wl[q + 4 * sm->last[q]];
        start = (int)exec_rand_below(x, (uint32_t)n);
        break;
    default:
        start = sm->last[q] + 1;
        break;
    }
    if (start >= n)
        start = 0;
    Warp **wl = sm->wl + q;
    if (sm->ready_ok) { /* the first ready warp from start on, round the share */
        uint64_t r = sm->ready[q], up = r & (~0ull << start);
        if (!r)
            return NULL;
        int k = __builtin_ctzll(up ? up : r);
        sm->last[q] = k;
        return wl[4 * k];
    }
    for (int k = start; k < n; k++)
        if (wl[4 * k]->run) {
            sm->last[q] = k;
            return wl[4 * k];
        }
    for (int k = 0; k < start; k++)
        if (wl[4 * k]->run) {
            sm->last[q] = k;
            return wl[4 * k];
        }
    return NULL;
}

/* Issue warp w's next instruction, and after it the instructions no other
 * warp can observe (registers, local memory, branches) up to the next one
 * it can -- which waits for the scheduler's next turn.  Returns the number
 * issued: the scheduler is busy that many cycles, one instruction each, so
 * the result is the same as issuing them one per cycle. */
static uint64_t burst(Exec *x, Warp *w)
{
    const SimInst *insts = x->insts;
    uint64_t k = 0;
    if (x->tm) { /* timing hook: one instruction, timed */
        timing_issue(x, w);
        return 1;
    }
    if (!x->cfg->on_issue) {
        k = exec_issue_burst(x, w, BURST_MAX);
        return k ? k : 1;
    }
    int alone = -1;
    do {
        if (x->cfg->on_issue && exec_view_call(x, w) != 0) {
            exec_fault(x, w, NULL, -1, "stopped", 0, "the launch was stopped before it finished");
            return k ? k : 1;
        }
        k += exec_issue(x, w); /* a tile marker takes no issue slot */
    } while (w->run && !x->faulted &&
             (k == 0 || (k < BURST_MAX && exec_burst_goes_on(x, w, insts, &alone))));
    return k ? k : 1;
}

/* One cycle of one SM: each free scheduler issues; then the blocks of
 * warps that stopped are looked at (released, retired, or found stuck).  A
 * retired block's slot is filled at once when no other SM could have taken
 * the next block earlier -- that is decided between rounds (dispatch_free),
 * so this returns true when a slot became free while blocks still wait:
 * the SM's round ends there. */
static bool sm_cycle_end(Exec *x, SimSM *sm, bool issued, Block **stalled, int nstalled);

static bool sm_cycle(Exec *x, SimSM *sm)
{
    bool issued = false;
    Block *stalled[4];
    int nstalled = 0;
    for (int q = 0; q < 4 && !x->faulted; q++) {
        if (sm->busy[q] > x->cycle) { /* still issuing an earlier burst */
            issued = true;
            continue;
        }
        if (sm->rr && !sm->ready[q]) /* nothing to pick (random and adversarial draw first) */
            continue;
        Warp *w = pick(x, sm, q);
        if (!w)
            continue;
        uint64_t bars = x->stats->barriers;
        sm->busy[q] = x->cycle + burst(x, w);
        if (sm->ready_ok) {
            int i = w->blk->wl + w->id; /* its place in wl */
            if (x->stats->barriers != bars) /* a release woke warps of its block */
                block_ready(x, sm, w->blk);
            else if (!w->run)
                sm->ready[i & 3] &= ~(1ull << (i >> 2));
        }
        if (sm->busy[q] > x->end_cycle) /* the launch lasts until its last burst ends */
            x->end_cycle = sm->busy[q];
        if (sm->busy[q] > w->blk->busy_until)
            w->blk->busy_until = sm->busy[q];
        issued = true;
        if (!w->run) {
            stalled[nstalled++] = w->blk;
            if (x->trace)
                exec_trace_span(x, w);
        }
    }
    return sm_cycle_end(x, sm, issued, stalled, nstalled);
}

/* sm_cycle for an SM whose schedulers pick round robin from their ready
 * masks (sm->rr) with no stepper watching: the same picks, bursts and
 * bookkeeping, without asking the schedule, the timing model or the
 * stepper at every pick. */
static bool sm_cycle_rr(Exec *x, SimSM *sm)
{
    bool issued = false;
    Block *stalled[4];
    int nstalled = 0;
    uint64_t cyc = x->cycle;
    for (int q = 0; q < 4; q++) {
        if (sm->busy[q] > cyc) { /* still issuing an earlier burst */
            issued = true;
            continue;
        }
        uint64_t r = sm->ready[q];
        if (!r)
            continue;
        int start = sm->last[q] + 1; /* pick()'s roundrobin */
        if (start >= sm->share[q])
            start = 0;
        uint64_t up = r & (~0ull << start);
        int k = __builtin_ctzll(up ? up : r);
        sm->last[q] = k;
        Warp *w = sm->wl[q + 4 * k];
        uint64_t bars = x->stats->barriers;
        uint64_t n = w->conv ? exec_burst_run(x, w, 0, BURST_MAX) : exec_issue_burst_diverged(x, w, BURST_MAX);
        uint64_t busy = sm->busy[q] = cyc + (n ? n : 1);
        Block *b = w->blk;
        int i = b->wl + w->id; /* its place in wl */
        if (x->stats->barriers != bars) /* a release woke warps of its block */
            block_ready(x, sm, b);
        else if (!w->run)
            sm->ready[i & 3] &= ~(1ull << (i >> 2));
        if (busy > x->end_cycle) /* the launch lasts until its last burst ends */
            x->end_cycle = busy;
        if (busy > b->busy_until)
            b->busy_until = busy;
        issued = true;
        if (!w->run) {
            if (!block_runs(x, sm, b)) /* (else sm_cycle_end would find a warp of it running) */
                stalled[nstalled++] = b;
            if (x->trace)
                exec_trace_span(x, w);
        }
        if (x->faulted)
            break;
    }
    if (issued && !nstalled && !x->faulted && !(sm->finishing && cyc + 1 >= sm->finishing))
        return false; /* (sm_cycle_end's first test, without the call) */
    return sm_cycle_end(x, sm, issued, stalled, nstalled);
}

/* The end of a cycle of sm (sm_cycle, sm_cycle_rr): the blocks of the
 * warps that stopped are looked at. */
static bool sm_cycle_end(Exec *x, SimSM *sm, bool issued, Block **stalled, int nstalled)
{
    bool recheck = sm->finishing && x->cycle + 1 >= sm->finishing;
    if (x->faulted || (issued && !nstalled && !recheck))
        return false;
    /* warps stopped (exit, barrier, warp sync): look at their blocks; nothing
     * issued, or a finished block's last burst ended: at every block */
    bool retired = false, all = !issued || recheck;
    int nlook = all ? x->per_sm : nstalled;
    uint64_t bars = x->stats->barriers;
    if (all)
        sm->finishing = 0;
    for (int k = 0; k < nlook && !x->faulted; k++) {
        Block *b = all ? &x->blocks[sm->first_slot + k] : stalled[k];
        if (!b->live)
            continue;
        bool any = false;
        for (int wi = 0; wi < x->nwarps && !any; wi++)
            any = b->warps[wi].run != 0;
        if (any)
            continue;
        if (b->exited_threads == (uint32_t)x->nthreads && b->busy_until > x->cycle + 1) {
            /* every thread exited, but in a burst still being issued: the
             * block retires when that burst ends */
            if (x->tm) /* timing hook: a drain may be pending until the round's end */
                sm->finishing = timing_finishing(x, sm, b->busy_until);
            else if (!sm->finishing || b->busy_until < sm->finishing)
                sm->finishing = b->busy_until;
            continue;
        }
        block_stalled(x, b);
        if (!b->live)
            retired = true;
        else if (sm->ready_ok && x->stats->barriers != bars) /* a release woke its warps */
            block_ready(x, sm, b);
        bars = x->stats->barriers;
    }
    if (!retired)
        return false;
    sm->free_at = x->cycle + 1;
    if (x->next_block < x->nblocks && x->init_late) {
        sm->stale = true; /* the slice ends here; the next one (sm_slice) rebuilds, once
                             with any block dispatched to it meanwhile */
        return true;
    }
    sm_rebuild(x, sm);
    return x->next_block < x->nblocks;
}

/* A free slot waiting for a block: when its SM freed it, its index. */
typedef struct {
    uint64_t when;
    int slot;
} FreeSlot;

static int free_slot_cmp(const void *pa, const void *pb)
{
    const FreeSlot *a = pa, *b = pb;
    if (a->when != b->when)
        return a->when < b->when ? -1 : 1;
    return a->slot < b->slot ? -1 : a->slot > b->slot;
}

/* dispatch_free's choices from one look at the slots: dispatching a block
 * changes no other slot's claim, so its repeated search (the earliest freed
 * slot, the lowest of those) takes them in (free_at, slot) order.  false
 * (nothing done) when more slots are free than it sorts at once. */
static bool dispatch_sorted(Exec *x)
{
    enum { MAX_FREE = 256 };
    FreeSlot fs[MAX_FREE];
    int n = 0;
    for (int i = 0; i < x->nslots; i++) {
        const Block *b = &x->blocks[i];
        uint64_t when = x->sms[b->sm].free_at;
        if (b->live || when == UINT64_MAX)
            continue;
        if (n == MAX_FREE)
            return false;
        fs[n].when = when;
        fs[n++].slot = i;
    }
    qsort(fs, (size_t)n, sizeof *fs, free_slot_cmp);
    for (int k = 0; k < n && x->next_block < x->nblocks; k++) {
        Block *best = &x->blocks[fs[k].slot];
        SimSM *sm = &x->sms[best->sm];
        if (sm->now < fs[k].when)
            sm->now = fs[k].when;
        uint64_t keep = x->cycle;
        x->cycle = sm->now;
        block_dispatch(x, best);
        x->cycle = keep;
        if (!best->init_pending) /* (else its slice rebuilds it) */
            sm_rebuild(x, sm);
    }
    return true;
}

/* Give waiting blocks to free slots, earliest freed first (then lowest
 * SM): hardware's dispatcher hands the next block to the first SM with
 * room.  Every SM ran at least as far as the earliest free slot, so no SM
 * could have freed one earlier. */
static void dispatch_free(Exec *x)
{
    if (x->cl) {
        while (cluster_dispatch(x))
            ;
        return;
    }
    if (dispatch_sorted(x))
        return;
    while (x->next_block < x->nblocks) {
        Block *best = NULL;
        uint64_t when = UINT64_MAX;
        for (int i = 0; i < x->nslots; i++) {
            Block *b = &x->blocks[i];
            if (!b->live && x->sms[b->sm].free_at < when) {
                when = x->sms[b->sm].free_at;
                best = b;
            }
        }
        if (!best)
            return;
        SimSM *sm = &x->sms[best->sm];
        if (sm->now < when)
            sm->now = when;
        uint64_t keep = x->cycle;
        x->cycle = sm->now;
        block_dispatch(x, best);
        x->cycle = keep;
        if (!best->init_pending) /* (else its slice rebuilds it) */
            sm_rebuild(x, sm);
    }
}

/* Untimed: the next cycle in which sm can do anything.  With roundrobin
 * (which draws no numbers) a cycle in which every scheduler is still in a
 * burst or has no warp ready does nothing -- no pick, no release, no
 * retirement -- and is skipped: up to the end of the first burst (then a
 * scheduler picks), or the cycle a finished block's last burst ends
 * (sm_cycle looks at the blocks again), or limit.  A cycle with no burst
 * going at all is not skipped (sm_cycle looks at every block in it). */
static uint64_t sm_next_cycle(const Exec *x, const SimSM *sm, uint64_t limit)
{
    uint64_t c = sm->now + 1, next = UINT64_MAX;
    if (!sm->rr || x->faulted)
        return c;
    for (int q = 0; q < 4; q++) {
        if (sm->busy[q] > c)
            next = sm->busy[q] < next ? sm->busy[q] : next;
        else if (sm->ready[q])
            return c;
    }
    if (next == UINT64_MAX)
        return c;
    if (sm->finishing && next > sm->finishing - 1)
        next = sm->finishing - 1 > c ? sm->finishing - 1 : c;
    return next < limit ? next : limit;
}

/* SM sm runs until its clock reaches limit, it holds no block, or a block
 * retired while others wait (the next block goes where room appeared
 * first: dispatch_free, between rounds).  A round runs it for each active
 * SM, here or through exec_par.c. */
static void sm_slice(Exec *x, SimSM *sm, uint64_t limit)
{
    bool inited = false;
    for (int k = 0; k < x->per_sm; k++) { /* blocks dispatched while SMs run on threads */
        Block *b = &x->blocks[sm->first_slot + k];
        if (b->init_pending) {
            x->cycle = sm->now;
            block_init(x, b);
            inited = true;
        }
    }
    if (inited || sm->stale) /* the ready masks, from warps that can run now */
        sm_rebuild(x, sm);
    while (sm->now < limit && sm->live && !x->faulted) {
        x->cycle = sm->now;
        bool freed = sm->rr && !x->cfg->on_issue ? sm_cycle_rr(x, sm) : sm_cycle(x, sm);
        if (x->tm) { /* timing hook: skip idle cycles, not past the slice (traces) */
            uint64_t next = timing_next_cycle(x, sm);
            sm->now = next < limit ? next : limit;
        } else {
            sm->now = freed ? sm->now + 1 : sm_next_cycle(x, sm, limit);
        }
        if (freed)
            break;
    }
}

/* SMs that hold blocks, in index order. */
static int active_sms(Exec *x, int *act)
{
    int n = 0;
    for (int s = 0; s < x->nsm; s++)
        if (x->sms[s].live)
            act[n++] = s;
    return n;
}

void exec_sched_run(Exec *x, int threads)
{
    if (threads > 1)
        x->par_serial = exec_par_begin(x, threads, sm_slice);
    x->init_late = x->par || (!x->trace && !x->race && !x->cl && !x->coop_ws && !x->cfg->on_issue);
    /* first wave: breadth-first over the SMs (clusters: over the GPCs) */
    for (int k = 0; k < x->per_sm && !x->cl; k++)
        for (int s = 0; s < x->nsm && x->next_block < x->nblocks; s++)
            block_dispatch(x, &x->blocks[s * x->per_sm + k]);
    for (int s = 0; s < x->nsm; s++)
        x->sms[s].free_at = UINT64_MAX;
    while (x->cl && cluster_dispatch(x))
        ;
    for (int s = 0; s < x->nsm; s++) {
        sm_rebuild(x, &x->sms[s]);
        x->sms[s].free_at = UINT64_MAX;
    }
    int *act = malloc((size_t)x->nsm * sizeof *act);
    if (!act) {
        exec_fault(x, NULL, NULL, -1, "unsupported", 0, "out of memory scheduling %d SMs", x->nsm);
        return;
    }
    int nact = active_sms(x, act);
    bool randomized = x->cfg->schedule != DEVICE_SCHED_ROUNDROBIN;
    /* traced: shorter slices keep the events held per round few */
    uint64_t slice = !x->trace ? SLICE : trace_writer_level(x->trace) >= TRACE_LEVEL_INSTRUCTIONS ? 32 : 256;
    if (x->tm && slice > TIMING_SLICE) /* timing hook */
        slice = TIMING_SLICE;
    uint64_t c0 = 0, end = 0;
    if (x->trace)
        trace_writer_hold(x->trace, true);
    while (nact && !x->faulted) {
        uint64_t round_end = c0 + slice;
        if (x->par && !exec_par_round(x, act, nact, round_end, &end))
            break; /* abandoned: exec_launch runs the launch again on one thread */
        int rot = randomized ? (int)exec_rand_below(x, (uint32_t)nact) : 0;
        for (int i = 0; i < nact && !x->faulted && !x->par; i++) {
            SimSM *sm = &x->sms[act[(i + rot) % nact]];
            /* random: SMs interleave at random points too */
            uint64_t limit = randomized ? sm->now + 1 + exec_rand_below(x, (uint32_t)slice) : round_end;
            if (limit > round_end)
                limit = round_end;
            sm_slice(x, sm, limit);
            if (sm->now > end)
                end = sm->now;
        }
        if (x->tm) /* timing hook: the round's deferred L2 requests, in SM order */
            timing_round_end(x, round_end);
        dispatch_free(x);
        for (int i = 0; i < x->nsm; i++)
            x->sms[i].free_at = UINT64_MAX;
        if (x->cfg->on_progress && !x->faulted &&
            x->cfg->on_progress(x->cfg->on_progress_user, x->stats->blocks, x->nblocks))
            exec_fault(x, NULL, NULL, -1, "stopped", 0, "the launch was stopped before it finished");
        nact = active_sms(x, act);
        bool all_past = true;
        for (int i = 0; i < nact && all_past; i++)
            all_past = x->sms[act[i]].now >= round_end;
        if (all_past) {
            c0 = round_end;
            if (x->trace) { /* every SM is past round_end: write its events in cycle order */
                exec_trace_states_flush_all(x);
                trace_writer_hold(x->trace, false);
                trace_writer_hold(x->trace, true);
            }
        }
    }
    if (x->trace) {
        exec_trace_states_flush_all(x);
        trace_writer_hold(x->trace, false);
    }
    x->cycle = end > x->end_cycle ? end : x->end_cycle;
    if (x->tm) /* timing hook */
        timing_launch_end(x);
    free(act);
}
