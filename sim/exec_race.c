/* exec_race.c: the executor's side of race checking and of the atomic order
 * log.  The hooks turn what a warp instruction does into per-thread
 * accesses for the checker (race.h): one call per active lane, with the
 * generic address resolved to shared or global memory; barriers, __syncwarp
 * and cp.async waits become its happens-before edges.  Local, param and
 * const accesses are private or read-only and never race. */
#include "exec_cluster.h"
#include "exec_int.h"
#include "exec_par.h"
#include "exec_race.h"
#include "race.h"

#include <stdio.h>
#include <string.h>

static int space_of(const SimInst *in, uint64_t *a)
{
    int sp = in->space;
    if (sp == PTX_SPACE_NONE) {
        if (*a >= MEM_SHARED_WIN && *a < MEM_SHARED_WIN + MEM_WIN_SIZE) {
            *a -= MEM_SHARED_WIN;
            return RACE_SPACE_SHARED;
        }
        if (*a >= MEM_LOCAL_WIN && *a < MEM_WINDOWS_END)
            return -1; /* local, const or param window */
        return RACE_SPACE_GLOBAL;
    }
    return sp == PTX_SPACE_SHARED ? RACE_SPACE_SHARED : sp == PTX_SPACE_GLOBAL ? RACE_SPACE_GLOBAL : -1;
}

void exec_race_mem(Exec *x, Warp *w, const SimInst *in, uint32_t m, int op)
{
    exec_race_mem_async(x, w, in, m, op, NULL);
}

void exec_race_mem_async(Exec *x, Warp *w, const SimInst *in, uint32_t m, int op, const uint32_t *open_group)
{
    const uint64_t *base = in->base >= 0 ? exec_src(x, w, in->base) : NULL;
    unsigned size = op == EXEC_RACE_ATOMIC || op == EXEC_RACE_ASYNC ? in->size : (unsigned)in->size * in->vec;
    int32_t pc = (int32_t)(in - x->insts);
    int rop = op == EXEC_RACE_READ ? RACE_READ : op == EXEC_RACE_ATOMIC ? RACE_ATOMIC : RACE_WRITE;
    for (uint32_t r = m; r; r &= r - 1) {
        int l = __builtin_ctz(r);
        uint64_t a = (base ? base[l] : 0) + (uint64_t)in->off;
        RaceWho who = {.block = w->blk->linear, .tid = (uint32_t)exec_tid(w, l), .pc = pc};
        if (op == EXEC_RACE_ASYNC) {
            /* the copy is queued in the thread's open group (exec_async.c) */
            race_async_fill(x->race, a, size, open_group ? open_group[who.tid] : 0, &who);
            continue;
        }
        int sp = space_of(in, &a);
        if (sp < 0)
            continue;
        /* the grid barrier's own polls and arrivals are its synchronisation,
         * not data (race_grid_barrier orders what they guard) */
        if (sp == RACE_SPACE_GLOBAL && x->coop_ws && a >= x->coop_ws && a < x->coop_ws + 64)
            continue;
        if (sp == RACE_SPACE_SHARED && x->cl && a >> EXEC_DSMEM_SHIFT) {
            /* distributed shared memory: the window of the CTA it names */
            const Block *o = exec_cluster_owner(x, w, &a);
            if (o && o != w->blk) {
                race_access_in(x->race, o->linear, a, size, rop, in->scope ? RACE_SCOPE_CTA : RACE_SCOPE_GPU,
                               &who);
                continue;
            }
        }
        race_access(x->race, sp, a, size, rop, in->scope ? RACE_SCOPE_CTA : RACE_SCOPE_GPU, &who);
    }
}

void exec_race_block(Exec *x, Block *b, bool begin)
{
    if (begin) {
        race_block_start(x->race, b->linear, x->shared_size);
        if (b->cl)
            race_block_cluster(x->race, b->linear, (uint32_t)(b->cl->id + 1));
    } else
        race_block_end(x->race, b->linear);
}

void exec_race_barrier(Exec *x, Block *b)
{
    race_barrier(x->race, b->linear);
}

void exec_race_warp_sync(Exec *x, Warp *w, uint32_t m)
{
    race_warp_sync(x->race, w->blk->linear, (uint32_t)w->id, m);
}

void exec_race_async_done(Exec *x, Block *b, uint32_t tid, uint32_t below)
{
    if (below)
        race_async_complete(x->race, b->linear, tid, below - 1);
}

void exec_race_mbarrier(Exec *x, Block *b, const uint8_t *p, uint32_t tid, bool observed)
{
    if (p < b->shared || p >= b->shared + x->shared_size)
        return; /* an mbarrier in global memory: not modelled (race.h) */
    uint64_t off = (uint64_t)(p - b->shared);
    if (observed)
        race_mbarrier_observe(x->race, b->linear, off, tid);
    else
        race_mbarrier_complete(x->race, b->linear, off);
}

void exec_atomic_log(Exec *x, Warp *w, int lane, int space, uint64_t addr, uint64_t old, uint64_t val)
{
    DeviceAtomicLog *lg = NULL;
    int n = *x->n_alog;
    if (space == PTX_SPACE_SHARED && addr >= MEM_SHARED_WIN)
        addr -= MEM_SHARED_WIN;
    const char *sp = space == PTX_SPACE_SHARED ? "shared" : "global";
    if (x->pchunk) { /* SMs on several threads: the chunk's own log (exec_par.c) */
        exec_par_atomic_log(x, w, lane, sp, addr, old, val);
        return;
    }
    for (int i = 0; i < n; i++)
        if (x->alog[i].addr == addr && !strcmp(x->alog[i].space, sp)) {
            lg = &x->alog[i];
            break;
        }
    if (!lg) {
        if (n == DEVICE_ATOMIC_LOG_ADDRS)
            return;
        lg = &x->alog[n];
        memset(lg, 0, sizeof *lg);
        lg->addr = addr;
        snprintf(lg->space, sizeof lg->space, "%s", sp);
        (*x->n_alog)++;
    }
    exec_atomic_log_add(x, lg, w, lane, old, val);
}

void exec_atomic_log_add(const Exec *x, DeviceAtomicLog *lg, const Warp *w, int lane, uint64_t old, uint64_t val)
{
    lg->total++;
    if (lg->n == DEVICE_ATOMIC_LOG_UPDATES)
        return;
    int t = exec_tid(w, lane);
    unsigned bx = x->cfg->block.x, by = x->cfg->block.y;
    lg->u[lg->n].block = w->blk->ctaid;
    lg->u[lg->n].thread = (DeviceDim3){(unsigned)t % bx, (unsigned)t / bx % by, (unsigned)t / (bx * by)};
    lg->u[lg->n].old = old;
    lg->u[lg->n].val = val;
    lg->n++;
}

/* ---- findings for the host API ---------------------------------------------- */

/* The .cu file and line of instruction pc (outermost inlined location). */
static int pc_line(const SimProgram *p, int32_t pc, char *file, size_t cap)
{
    if (pc < 0 || pc >= p->n_insts)
        return 0;
    const SimInst *in = &p->insts[pc];
    const PtxModule *m = p->ptx;
    if (in->loc < 0 || in->loc >= m->n_locs)
        return 0;
    const PtxLoc *l = &m->locs[in->loc];
    int guard = 0;
    while (l->inlined_at >= 0 && l->inlined_at < m->n_locs && guard++ < 64)
        l = &m->locs[l->inlined_at];
    if (file && l->file >= 0 && l->file < m->n_files && m->files[l->file])
        snprintf(file, cap, "%s", m->files[l->file]);
    return l->line;
}

static void fill_access(const SimProgram *p, const DeviceLaunch *c, uint64_t block, uint32_t tid, int32_t pc,
                        const char *op, DeviceAccess *a, char *file, size_t cap)
{
    memset(a, 0, sizeof *a);
    a->block = (DeviceDim3){(unsigned)(block % c->grid.x), (unsigned)(block / c->grid.x % c->grid.y),
                            (unsigned)(block / ((uint64_t)c->grid.x * c->grid.y))};
    unsigned bx = c->block.x, by = c->block.y;
    a->thread = (DeviceDim3){tid % bx, tid / bx % by, tid / (bx * by)};
    a->warp = (int)(tid / WARP);
    a->lane = (int)(tid % WARP);
    a->ptx_line = pc >= 0 && pc < p->n_insts ? p->insts[pc].ptx_line : 0;
    a->line = pc_line(p, pc, file, cap);
    snprintf(a->op, sizeof a->op, "%s", op);
}

static const char *op_name(int op)
{
    return op == RACE_READ ? "read" : op == RACE_WRITE ? "write" : op == RACE_ATOMIC ? "atomic" : "cp.async";
}

static void explain(DeviceRace *r)
{
    const char *k = r->kind;
    const char *what =
        !strcmp(k, "lost-update") ? "two threads read-modify-wrote it without an atomic: one update overwrote the other"
        : !strcmp(k, "read-after-write") ? "a thread read it while another thread's write was not yet ordered before "
                                           "the read (a missing __syncthreads() or atomic?)"
        : !strcmp(k, "write-after-read") ? "a thread overwrote it while another thread could still be reading the "
                                           "old value (a missing __syncthreads() before the write?)"
        : !strcmp(k, "write-after-write") ? "two threads wrote it with nothing ordering the writes: which value "
                                            "remains depends on the schedule"
        : !strcmp(k, "atomic-scope") ? "an atomic with .cta scope (atomicAdd_block) on an address another block "
                                       "also uses: it is only atomic within one block"
        : !strcmp(k, "cp-async") ? "it was read while a cp.async still filled it: wait for the copy "
                                   "(cp.async.wait_group / __pipeline_wait_prior / cuda::memcpy_async's wait) first"
                                 : "a synchronisation problem";
    bool cluster = !strcmp(r->space, "shared") && (r->first.block.x != r->second.block.x ||
                                                   r->first.block.y != r->second.block.y ||
                                                   r->first.block.z != r->second.block.z);
    if (cluster && (!strcmp(k, "read-after-write") || !strcmp(k, "write-after-read") ||
                    !strcmp(k, "write-after-write")))
        what = "two CTAs of a cluster reached one CTA's shared memory (distributed shared memory) with no "
               "cluster.sync() (barrier.cluster) between them: a __syncthreads() orders one CTA only";
    snprintf(r->msg, sizeof r->msg, "%s", what);
}

/* A race finding as a trace record (at the end of the launch). */
static void trace_race(TraceWriter *tw, uint64_t cycle, const RaceFinding *f, const DeviceRace *r)
{
    TraceEvent ev = {.type = TRACE_EV_RACE, .cycle = cycle, .block = f->second.block};
    ev.u.race.warp = f->second.tid / WARP;
    ev.u.race.lane = f->second.tid % WARP;
    ev.u.race.pc = f->second.pc >= 0 ? (uint32_t)f->second.pc : TRACE_NONE;
    ev.u.race.other_warp = f->first.tid / WARP;
    ev.u.race.other_lane = f->first.tid % WARP;
    ev.u.race.space = f->space == RACE_SPACE_SHARED ? TRACE_SPACE_SHARED : TRACE_SPACE_GLOBAL;
    ev.u.race.addr = f->addr;
    char msg[400];
    snprintf(msg, sizeof msg, "%s: %s (other thread in block %llu)", r->kind, r->msg,
             (unsigned long long)f->first.block);
    ev.u.race.msg = msg;
    ev.u.race.msg_len = (uint32_t)strlen(msg);
    trace_write_event(tw, &ev);
}

int exec_race_findings(const SimProgram *p, const DeviceLaunch *c, const RaceChecker *rc, DeviceRace *out,
                       int have, int cap, TraceWriter *tw, uint64_t cycle)
{
    int n = have;
    for (int i = 0; i < race_count(rc) && n < cap; i++) {
        const RaceFinding *f = race_finding(rc, i);
        DeviceRace *r = &out[n++];
        memset(r, 0, sizeof *r);
        snprintf(r->kind, sizeof r->kind, "%s", f->kind);
        snprintf(r->space, sizeof r->space, "%s", f->space == RACE_SPACE_SHARED ? "shared" : "global");
        r->addr = f->addr;
        char file1[256] = "";
        fill_access(p, c, f->first.block, f->first.tid, f->first.pc, op_name(f->first_op), &r->first, file1,
                    sizeof file1);
        fill_access(p, c, f->second.block, f->second.tid, f->second.pc, op_name(f->second_op), &r->second, r->file,
                    sizeof r->file);
        if (!r->file[0])
            snprintf(r->file, sizeof r->file, "%s", file1);
        explain(r);
        if (tw)
            trace_race(tw, cycle, f, r);
    }
    return n;
}

void exec_race_barrier_divergence(Exec *x, Block *b, int id, const Warp *w1, int l1, int32_t pc1, const Warp *w2,
                                  int l2, int32_t pc2, bool exited)
{
    if (!x->races || *x->n_races >= DEVICE_MAX_RACES)
        return;
    for (int i = 0; i < *x->n_races; i++) /* once per barrier instruction */
        if (!strcmp(x->races[i].kind, "barrier-divergence") && x->races[i].second.ptx_line ==
                                                                   x->insts[pc1].ptx_line)
            return;
    DeviceRace *r = &x->races[(*x->n_races)++];
    memset(r, 0, sizeof *r);
    snprintf(r->kind, sizeof r->kind, "barrier-divergence");
    snprintf(r->space, sizeof r->space, "barrier");
    r->addr = (uint64_t)id;
    /* second: the barrier that released without them (its line is the finding's) */
    fill_access(x->prog, x->cfg, b->linear, (uint32_t)exec_tid(w2, l2), pc2, exited ? "exit" : "bar.sync",
                &r->first, NULL, 0);
    fill_access(x->prog, x->cfg, b->linear, (uint32_t)exec_tid(w1, l1), pc1, "bar.sync", &r->second, r->file,
                sizeof r->file);
    if (exited)
        snprintf(r->msg, sizeof r->msg,
                 "__syncthreads() (barrier %d) was not reached by every thread of the block: some exited "
                 "without reaching it (a barrier inside a condition, or an early return)", id);
    else
        snprintf(r->msg, sizeof r->msg,
                 "threads of one block met at two different __syncthreads() calls (barrier %d): a barrier "
                 "inside a branch that not all threads take", id);
}
