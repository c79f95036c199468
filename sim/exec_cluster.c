/* exec_cluster.c: thread block clusters (sm_90; PTX ISA "Cluster of
 * Cooperative Thread Arrays", CUDA programming guide "Thread Block
 * Clusters").  Where a cluster's CTAs go (all at once, onto SMs of one GPC),
 * their special registers, distributed shared memory (a shared::cluster
 * address names a rank, exec_cluster.h) and barrier.cluster, with the
 * deadlock it can cause.  Called by exec_sched.c, exec_run.c, exec_mem.c,
 * exec_ctrl.c, exec_hint.c and exec_race.c; calls exec_fault, the race and
 * timing hooks. */
#include "exec_cluster.h"
#include "race.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool exec_cluster_begin(Exec *x, DeviceDim3 dim, int nsm)
{
    ExecClusters *cs = calloc(1, sizeof *cs);
    if (!cs)
        return false;
    const DeviceLaunch *c = x->cfg;
    cs->dim = dim;
    cs->size = (int)(dim.x * dim.y * dim.z);
    cs->grid = (DeviceDim3){c->grid.x / dim.x, c->grid.y / dim.y, c->grid.z / dim.z};
    cs->count = (uint64_t)cs->grid.x * cs->grid.y * cs->grid.z;
    cs->nc = x->nslots / cs->size + 1;
    cs->c = calloc((size_t)cs->nc, sizeof *cs->c);
    if (!cs->c) {
        free(cs);
        return false;
    }
    int sms[ARCH_MAX_GPCS];
    cs->ngpc = arch_gpc_layout(nsm, sms);
    for (int g = 0; g < cs->ngpc; g++)
        cs->gpc_first[g + 1] = cs->gpc_first[g] + sms[g];
    x->cl = cs;
    return true;
}

void exec_cluster_end(Exec *x)
{
    if (!x->cl)
        return;
    free(x->cl->c);
    free(x->cl);
    x->cl = NULL;
}

int exec_cluster_gpc_room(int nsm, int per_sm)
{
    int sms[ARCH_MAX_GPCS], n = arch_gpc_layout(nsm, sms), most = 0;
    for (int g = 0; g < n; g++)
        if (sms[g] > most)
            most = sms[g];
    return most * per_sm;
}

/* Free slots of SM s. */
static int sm_free(const Exec *x, int s)
{
    int n = 0;
    for (int k = 0; k < x->per_sm; k++)
        n += !x->blocks[s * x->per_sm + k].live;
    return n;
}

ExecCluster *exec_cluster_place(Exec *x, Block **slot, uint64_t *when)
{
    ExecClusters *cs = x->cl;
    if (cs->next >= cs->count)
        return NULL;
    int best = -1, best_free = -1;
    uint64_t best_t = UINT64_MAX;
    int pick[EXEC_CLUSTER_MAX], best_pick[EXEC_CLUSTER_MAX];
    for (int g = 0; g < cs->ngpc; g++) {
        int lo = cs->gpc_first[g], hi = cs->gpc_first[g + 1] < x->nsm ? cs->gpc_first[g + 1] : x->nsm;
        int fr[64], total = 0;
        if (hi - lo > 64)
            hi = lo + 64;
        for (int s = lo; s < hi; s++)
            total += fr[s - lo] = sm_free(x, s);
        if (total < cs->size)
            continue;
        /* spread the ranks: each to the SM with the most free slots left */
        uint64_t t = 0;
        for (int r = 0; r < cs->size; r++) {
            int s = lo;
            for (int q = lo + 1; q < hi; q++)
                if (fr[q - lo] > fr[s - lo])
                    s = q;
            fr[s - lo]--;
            pick[r] = s;
            const SimSM *sm = &x->sms[s];
            uint64_t ts = sm->free_at != UINT64_MAX ? sm->free_at : sm->now;
            if (ts > t)
                t = ts;
        }
        if (t < best_t || (t == best_t && total > best_free)) {
            best = g;
            best_t = t;
            best_free = total;
            memcpy(best_pick, pick, sizeof pick);
        }
    }
    if (best < 0)
        return NULL;
    ExecCluster *c = NULL;
    for (int i = 0; i < cs->nc && !c; i++)
        if (!cs->c[i].live)
            c = &cs->c[i];
    if (!c)
        return NULL;
    memset(c, 0, sizeof *c);
    c->id = cs->next++;
    for (int r = 0; r < cs->size; r++) {
        int s = best_pick[r];
        Block *b = NULL;
        for (int k = 0; k < x->per_sm && !b; k++) {
            Block *cand = &x->blocks[s * x->per_sm + k];
            bool taken = false;
            for (int q = 0; q < r; q++)
                taken |= slot[q] == cand;
            if (!cand->live && !taken)
                b = cand;
        }
        slot[r] = b;
    }
    *when = best_t;
    return c;
}

uint64_t exec_cluster_cta(const Exec *x, const ExecCluster *c, int r)
{
    const ExecClusters *cs = x->cl;
    const DeviceLaunch *cfg = x->cfg;
    uint64_t cx = c->id % cs->grid.x, cy = c->id / cs->grid.x % cs->grid.y,
             cz = c->id / ((uint64_t)cs->grid.x * cs->grid.y);
    uint64_t rx = (uint64_t)r % cs->dim.x, ry = (uint64_t)r / cs->dim.x % cs->dim.y,
             rz = (uint64_t)r / (cs->dim.x * cs->dim.y);
    uint64_t bx = cx * cs->dim.x + rx, by = cy * cs->dim.y + ry, bz = cz * cs->dim.z + rz;
    return bx + cfg->grid.x * (by + (uint64_t)cfg->grid.y * bz);
}

void exec_cluster_join(ExecCluster *c, Block *b, int r)
{
    c->cta[r] = b;
    c->live++;
    b->cl = c;
    b->crank = r;
}

bool exec_cluster_is_sreg(int sreg)
{
    return sreg >= PTX_SREG_CLUSTER_CTARANK && sreg <= PTX_SREG_IS_EXPLICIT_CLUSTER;
}

uint64_t exec_cluster_sreg(const Exec *x, const Block *b, int sreg)
{
    const ExecClusters *cs = x->cl;
    DeviceDim3 dim = cs ? cs->dim : (DeviceDim3){1, 1, 1};
    DeviceDim3 grid = cs ? cs->grid : x->cfg->grid;
    switch (sreg) {
    case PTX_SREG_CLUSTER_CTARANK: return b->cl ? (uint64_t)b->crank : 0;
    case PTX_SREG_CLUSTER_NCTARANK: return (uint64_t)dim.x * dim.y * dim.z;
    case PTX_SREG_CLUSTER_CTAID_X: return b->ctaid.x % dim.x;
    case PTX_SREG_CLUSTER_CTAID_Y: return b->ctaid.y % dim.y;
    case PTX_SREG_CLUSTER_CTAID_Z: return b->ctaid.z % dim.z;
    case PTX_SREG_CLUSTER_NCTAID_X: return dim.x;
    case PTX_SREG_CLUSTER_NCTAID_Y: return dim.y;
    case PTX_SREG_CLUSTER_NCTAID_Z: return dim.z;
    case PTX_SREG_CLUSTERID_X: return b->ctaid.x / dim.x;
    case PTX_SREG_CLUSTERID_Y: return b->ctaid.y / dim.y;
    case PTX_SREG_CLUSTERID_Z: return b->ctaid.z / dim.z;
    case PTX_SREG_NCLUSTERID_X: return grid.x;
    case PTX_SREG_NCLUSTERID_Y: return grid.y;
    case PTX_SREG_NCLUSTERID_Z: return grid.z;
    case PTX_SREG_IS_EXPLICIT_CLUSTER: return cs != NULL;
    default: return 0;
    }
}

static void ex_mov_cluster(Exec *x, Warp *w, const SimInst *in, uint32_t m)
{
    uint64_t v = exec_cluster_sreg(x, w->blk, in->sub), *d = exec_reg(w, in->d);
    for (uint32_t r = m; r; r &= r - 1)
        d[__builtin_ctz(r)] = v;
}

static void ex_mov_cluster_pred(Exec *x, Warp *w, const SimInst *in, uint32_t m)
{
    uint32_t v = exec_cluster_sreg(x, w->blk, in->sub) ? m : 0;
    w->p[in->d] = (w->p[in->d] & ~m) | v;
}

ExecFn exec_cluster_mov_fn(bool pred)
{
    return pred ? ex_mov_cluster_pred : ex_mov_cluster;
}

/* ---- barrier.cluster ------------------------------------------------------ */

/* Threads of the cluster that must arrive for a phase to complete: every
 * one that has not exited (PTX ISA, exit: exiting threads release a
 * barrier.cluster they were holding up). */
static uint32_t cluster_need(const Exec *x, const ExecCluster *c)
{
    return (uint32_t)x->nthreads * (uint32_t)x->cl->size - c->exited;
}

/* The phase completed: every arrived lane may pass its wait; the parked
 * ones run again.  To the race checker, a barrier of every CTA of it. */
static void cluster_complete(Exec *x, ExecCluster *c)
{
    c->arrived = 0;
    c->phases++;
    x->stats->barriers++;
    for (int r = 0; r < x->cl->size; r++) {
        Block *b = c->cta[r];
        if (!b)
            continue;
        for (int wi = 0; wi < x->nwarps; wi++) {
            Warp *w = &b->warps[wi];
            w->cdone |= w->carrived;
            w->carrived = 0;
            uint32_t rel = w->cwait & w->cdone;
            if (!rel)
                continue;
            w->cwait &= ~rel;
            w->cdone &= ~rel;
            exec_warp_diverge(w);
            if (!w->run)
                w->span_start = x->cycle;
            w->run |= rel;
            if (x->tm) /* timing hook */
                timing_barrier_release(x, w);
            exec_warp_try_converge(w);
        }
        if (x->race)
            race_cluster_barrier(x->race, b->linear);
    }
}

void exec_cluster_exit(Exec *x, Warp *w, uint32_t em)
{
    ExecCluster *c = w->blk->cl;
    if (!c)
        return;
    c->arrived -= (uint32_t)exec_popc(w->carrived & em); /* an arrival that exits no longer counts */
    w->carrived &= ~em;
    w->cdone &= ~em;
    c->exited += (uint32_t)exec_popc(em);
    if (c->arrived && c->arrived >= cluster_need(x, c))
        cluster_complete(x, c);
}

void exec_cluster_barrier(Exec *x, Warp *w, const SimInst *in, uint32_t m)
{
    ExecCluster *c = w->blk->cl;
    if (in->sub == 1) { /* arrive */
        uint32_t twice = w->carrived & m;
        if (twice) {
            exec_fault(x, w, in, __builtin_ctz(twice), "trap", 0,
                       "barrier.cluster.arrive twice without a barrier.cluster.wait between (PTX ISA: "
                       "each arrive must be followed by a wait before the next)");
            return;
        }
        for (uint32_t r = m; r; r &= r - 1)
            w->pc[__builtin_ctz(r)]++;
        w->carrived |= m;
        c->arrived += (uint32_t)exec_popc(m);
        if (c->arrived >= cluster_need(x, c))
            cluster_complete(x, c);
        return;
    }
    uint32_t stray = m & ~w->carrived & ~w->cdone;
    if (stray) {
        exec_fault(x, w, in, __builtin_ctz(stray), "trap", 0,
                   "barrier.cluster.wait without a barrier.cluster.arrive before it (cluster.sync() "
                   "does both; a wait alone has no phase to wait for)");
        return;
    }
    for (uint32_t r = m; r; r &= r - 1)
        w->pc[__builtin_ctz(r)]++;
    uint32_t pass = m & w->cdone, park = m & ~pass;
    w->cdone &= ~pass;
    if (park) {
        w->run &= ~park;
        w->cwait |= park;
    }
}

bool exec_cluster_stalled(Exec *x, Block *b)
{
    ExecCluster *c = b->cl;
    bool waits = false;
    for (int wi = 0; wi < x->nwarps && !waits; wi++)
        waits = b->warps[wi].cwait != 0;
    if (!c || !waits)
        return false;
    /* progress anywhere in the cluster: a runnable warp, or a block barrier
     * of another CTA that can release now */
    for (int r = 0; r < x->cl->size; r++) {
        Block *o = c->cta[r];
        if (!o)
            continue;
        for (int wi = 0; wi < x->nwarps; wi++)
            if (o->warps[wi].run)
                return true;
        if (o != b)
            for (int id = 0; id < 16; id++)
                if (exec_barrier_try_release(x, o, id) || x->faulted)
                    return true;
    }
    /* nothing can run: name a waiting lane and what holds the barrier up */
    Warp *w = NULL;
    for (int wi = 0; wi < x->nwarps && !w; wi++)
        if (b->warps[wi].cwait)
            w = &b->warps[wi];
    int l = __builtin_ctz(w->cwait);
    const SimInst *in = &x->insts[w->pc[l] - 1];
    int held = -1;
    for (int r = 0; r < x->cl->size && held < 0; r++)
        for (int wi = 0; c->cta[r] && wi < x->nwarps && held < 0; wi++) {
            const Warp *o = &c->cta[r]->warps[wi];
            if (o->present & ~o->exited & ~o->carrived & ~o->cdone)
                held = r;
        }
    char why[160] = "";
    if (held >= 0)
        snprintf(why, sizeof why, " (threads of CTA rank %d wait elsewhere: at a block barrier or a warp "
                 "sync that cannot complete)", held);
    exec_fault(x, w, in, l, "deadlock", 0,
               "barrier.cluster waits for %u threads of cluster %llu but only %u arrived, and no thread of "
               "the cluster can run%s", cluster_need(x, c), (unsigned long long)c->id, c->arrived, why);
    return true;
}

void exec_cluster_retire(Exec *x, Block *b)
{
    ExecCluster *c = b->cl;
    if (!c)
        return;
    c->cta[b->crank] = NULL;
    c->live--;
    b->cl = NULL;
    (void)x;
}

/* ---- distributed shared memory -------------------------------------------- */

Block *exec_cluster_owner(const Exec *x, const Warp *w, uint64_t *a)
{
    uint64_t rank1 = *a >> EXEC_DSMEM_SHIFT;
    if (!x->cl || !rank1)
        return w->blk;
    ExecCluster *c = w->blk->cl;
    if (!c || rank1 > (uint64_t)x->cl->size || !c->cta[rank1 - 1])
        return NULL;
    *a &= EXEC_DSMEM_OFF;
    return c->cta[rank1 - 1];
}

Block *exec_cluster_window(Exec *x, Warp *w, const SimInst *in, int l, uint64_t *a)
{
    uint64_t rank1 = *a >> EXEC_DSMEM_SHIFT;
    if (!x->cl || !rank1 || rank1 > EXEC_CLUSTER_MAX)
        return w->blk; /* its own window (an offset past it faults as before) */
    uint64_t orig = *a;
    Block *b = exec_cluster_owner(x, w, a);
    if (b)
        return b;
    if (rank1 > (uint64_t)x->cl->size)
        exec_fault(x, w, in, l, "out-of-bounds", orig,
                   "shared::cluster access to CTA rank %llu, outside the cluster of %d CTAs (ranks 0..%d): "
                   "a rank given to mapa / cluster.map_shared_rank() must be below cluster.num_blocks()",
                   (unsigned long long)(rank1 - 1), x->cl->size, x->cl->size - 1);
    else
        exec_fault(x, w, in, l, "out-of-bounds", orig,
                   "shared::cluster access to CTA rank %llu of the cluster, which has exited: its shared "
                   "memory is gone (a CTA must not exit while others may still read it -- end with "
                   "cluster.sync())", (unsigned long long)(rank1 - 1));
    return NULL;
}
