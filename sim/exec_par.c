/* exec_par.c: one launch's SMs on several threads, with the results of one.
 *
 * A round of the scheduler (exec_sched.c) runs every active SM for a slice
 * of cycles, SM after SM.  Here the round's SMs are cut into chunks of
 * consecutive SMs and the chunks run side by side, each on a copy of the
 * Exec with its own statistics, fault, lookup cache and atomic log; a chunk
 * runs its SMs in order, as the serial round does.  Chunks can reach each
 * other only through global memory, so each notes the bytes of global
 * memory it read and wrote in the round (exec_par_mem.c).  When two chunks
 * touched a byte and one of them wrote it, the serial order might have
 * given another value: the attempt is abandoned.  So is one in which the
 * kernel faulted or ran past its instruction budget (which SMs ran on past
 * the fault is what differs).  Abandoning puts back what the launch's run
 * again on one thread may read -- the failed round's pages as they were
 * before it, and the pages rounds that passed read and then wrote as they
 * were before the launch (exec_par_mem.c says why that is enough) -- and
 * exec_launch runs the launch again on one thread.  Keeping track costs:
 * a round whose notes and copies cost more than half of simulating it is
 * the last on threads (the launch goes on on one thread, with nothing to
 * undo), and a first round that shows it early stops and runs again on one.
 * A race-free kernel, most kernels, runs on every thread to its end;
 * outputs, statistics, faults and the atomic log are the serial run's in
 * every case.
 *
 * Timed launches too, when the model defers its L2 answers (timing_defer.c):
 * inside a round an SM's requests to the shared L2 and DRAM wait in its own
 * outbox, and exec_sched.c performs them after the round, on this thread,
 * in the serial order; each chunk counts its slices' stalls and L1 traffic
 * on its own view of the model (timing_chunk_model), added in after the
 * round.  Only where nothing else is shared between SMs (exec_par_begin):
 * untraced, no race checking, the roundrobin schedule, lane or reverse
 * atomic order, no clusters, no cooperative launch, no stepper, and a
 * kernel that reaches neither printf nor malloc/free.  Called by
 * exec_run.c (begin, end) and exec_sched.c (rounds), exec_mem.c (notes);
 * runs SMs through the slice function exec_sched.c hands it. */
#include "exec_par_int.h"
#include "exec_race.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the workers ---------------------------------------------------------------- */

/* Keeping track of c's memory cost more than PAR_KEEP_PERCENT % of
 * simulating it, once it has done enough to tell. */
static bool too_costly(const ExecParChunk *c, uint64_t least)
{
    uint64_t work = (c->stats.warp_insts - c->start.warp_insts) * (c->x.tm ? PAR_TIMED_WEIGHT : 1);
    return work >= least && par_chunk_cost(c) * 100 > work * PAR_KEEP_PERCENT;
}

static void chunk_run(ExecPar *p, ExecParChunk *c)
{
    c->end = 0;
    for (int i = 0; i < c->nsms && !c->x.faulted; i++) {
        if (atomic_load_explicit(&p->give_up, memory_order_relaxed))
            break;
        SimSM *sm = &p->x->sms[c->sms[i]];
        p->slice(&c->x, sm, p->limit);
        if (sm->now > c->end)
            c->end = sm->now;
        /* the first round can stop early: the launch runs again on one
         * thread, having lost little (later rounds end, and the launch goes
         * on from there on one thread: exec_par_round) */
        if (p->rounds == 1 && i + 1 < c->nsms && too_costly(c, PAR_JUDGE_LEAST)) {
            atomic_store_explicit(&p->give_up, true, memory_order_relaxed);
            break;
        }
    }
    par_chunk_end(c); /* its ranges sorted here, on its own thread */
}

/* Take and run chunks of the round until none is left. */
static void take_chunks(ExecPar *p)
{
    for (;;) {
        pthread_mutex_lock(&p->mu);
        int k = p->next < p->nchunks ? p->next++ : -1;
        pthread_mutex_unlock(&p->mu);
        if (k < 0)
            return;
        chunk_run(p, &p->chunks[k]);
        pthread_mutex_lock(&p->mu);
        if (++p->finished == p->nchunks)
            pthread_cond_signal(&p->done);
        pthread_mutex_unlock(&p->mu);
    }
}

static void *worker_main(void *arg)
{
    ExecPar *p = arg;
    uint64_t seen = 0;
    pthread_mutex_lock(&p->mu);
    for (;;) {
        while (!p->quit && p->gen == seen)
            pthread_cond_wait(&p->go, &p->mu);
        if (p->quit)
            break;
        seen = p->gen;
        pthread_mutex_unlock(&p->mu);
        take_chunks(p);
        pthread_mutex_lock(&p->mu);
    }
    pthread_mutex_unlock(&p->mu);
    return NULL;
}

/* ---- starting and ending ----------------------------------------------------------- */

/* An atomic or reduction that may reach global memory (not .shared). */
static bool global_atomic(const PtxInst *pi)
{
    if (strcmp(pi->opcode, "atom") && strcmp(pi->opcode, "red"))
        return false;
    for (int k = 0; k < pi->n_mods; k++)
        if (!strncmp(pi->mods[k], "shared", 6))
            return false;
    return true;
}

/* Why the kernel should run on one thread without trying, or NULL: it
 * reaches a function whose effects all SMs share (printf's output, the
 * device heap), or an atomic on global memory -- whose address, almost
 * always, blocks on other SMs update too (a counter, a histogram, a
 * ticket): the attempt would be abandoned at the first round that saw two
 * of them, after doing that round's work for nothing. */
static const char *serial_kernel(const SimProgram *prog, int fidx)
{
    const PtxModule *m = prog->ptx;
    char *seen = calloc((size_t)m->n_funcs + 1, 1);
    if (!seen)
        return "out of memory";
    exec_mark_reachable(m, fidx, seen);
    const char *why = NULL;
    for (int f = 0; f < m->n_funcs && !why; f++) {
        const PtxFunc *fn = &m->funcs[f];
        if (!seen[f])
            continue;
        if (fn->is_extern && (!strcmp(fn->name, "vprintf") || !strcmp(fn->name, "malloc") || !strcmp(fn->name, "free")))
            why = "printf or malloc";
        for (int i = 0; i < fn->n_insts && !why; i++)
            if (global_atomic(&fn->insts[i]))
                why = "atomics on global memory";
    }
    free(seen);
    return why;
}

/* Why a launch runs on one thread without trying, or NULL. */
static const char *serial_launch(const Exec *x, int threads)
{
    const DeviceLaunch *c = x->cfg;
    if (threads < 2)
        return "one thread asked for";
    if (x->nsm < 2)
        return "one SM";
    if (x->tm && !timing_defers(x))
        return "the timing model without deferred L2 answers (global atomics, ...: timing_defer.c)";
    if (x->trace)
        return "a trace (one stream of events)";
    if (x->race)
        return "race checking (one shadow of memory)";
    if (x->cl || x->coop_ws)
        return x->cl ? "clusters (SMs share distributed shared memory)" : "a cooperative launch";
    if (c->on_issue)
        return "the stepper";
    if (c->schedule != DEVICE_SCHED_ROUNDROBIN ||
        (c->atomic_order != DEVICE_ATOMIC_LANE && c->atomic_order != DEVICE_ATOMIC_REVERSE))
        return "a random or adversarial schedule or atomic order (one random sequence for every SM)";
    return serial_kernel(x->prog, x->fidx);
}

const char *exec_par_begin(Exec *x, int threads, ExecParSlice slice)
{
    const char *why = serial_launch(x, threads);
    if (why)
        return why;
    if (threads > x->nsm)
        threads = x->nsm;
    ExecPar *p = calloc(1, sizeof *p);
    if (!p)
        return "out of memory";
    p->x = x;
    p->threads = threads;
    p->slice = slice;
    p->cap_chunks = threads * PAR_CHUNKS_PER_THREAD;
    p->chunks = calloc((size_t)p->cap_chunks, sizeof *p->chunks);
    p->tid = calloc((size_t)threads, sizeof *p->tid);
    bool views = true; /* timed: each chunk's view of the model, made here once */
    for (int i = 0; x->tm && p->chunks && i < p->cap_chunks; i++)
        views = timing_chunk_model(x->tm, &p->chunks[i].tm, &p->chunks[i].tout) && views;
    if (!p->chunks || !p->tid || !views) {
        for (int i = 0; p->chunks && i < p->cap_chunks; i++)
            free(p->chunks[i].tm);
        free(p->chunks);
        free(p->tid);
        free(p);
        return "out of memory";
    }
    pthread_mutex_init(&p->mu, NULL);
    pthread_mutex_init(&p->al_mu, NULL);
    atomic_init(&p->give_up, false);
    pthread_cond_init(&p->go, NULL);
    pthread_cond_init(&p->done, NULL);
    for (int i = 0; i < threads - 1; i++) {
        if (pthread_create(&p->tid[p->started], NULL, worker_main, p))
            break; /* fewer workers: the calling thread takes the rest */
        p->started++;
    }
    x->par = p;
    return NULL;
}

bool exec_par_end(Exec *x, ExecParReport *rep)
{
    ExecPar *p = x->par;
    if (!p)
        return false;
    pthread_mutex_lock(&p->mu);
    p->quit = true;
    pthread_cond_broadcast(&p->go);
    pthread_mutex_unlock(&p->mu);
    for (int i = 0; i < p->started; i++)
        pthread_join(p->tid[i], NULL);
    bool again = p->abandoned;
    if (rep) {
        rep->threads = p->started + 1;
        rep->rounds = p->rounds;
        rep->abandoned = p->abandoned;
        snprintf(rep->why, sizeof rep->why, "%s", p->why);
        rep->rounds_parallel = p->rounds_parallel;
        rep->rounds_serial = p->rounds_serial;
        snprintf(rep->serial_why, sizeof rep->serial_why, "%s", p->serial ? p->serial_why : "");
        rep->pages_round = p->pages_round;
        rep->pages_kept = p->pages_kept;
    }
    if (again)
        par_restore(p);
    par_mem_free(p);
    for (int i = 0; i < p->cap_chunks; i++) {
        free(p->chunks[i].alog);
        free(p->chunks[i].alog_index);
        free(p->chunks[i].tm); /* (a copy: what it points to is the launch's) */
    }
    pthread_mutex_destroy(&p->mu);
    pthread_mutex_destroy(&p->al_mu);
    pthread_cond_destroy(&p->go);
    pthread_cond_destroy(&p->done);
    free(p->chunks);
    free(p->tid);
    free(p);
    x->par = NULL;
    return again;
}

/* ---- a round ---------------------------------------------------------------------- */

static size_t alog_hash(uint64_t addr, const char *space, size_t cap)
{
    return (size_t)(((addr ^ (uint64_t)(space[0] == 's') << 63) * 0x9e3779b97f4a7c15ull) >> 17) & (cap - 1);
}

/* Chunk c's entry for (addr, space): found, made when make (NULL when it
 * cannot be: out of memory or PAR_ALOG_MAX, c->alog_overflow set), else NULL. */
static DeviceAtomicLog *alog_entry(ExecParChunk *c, uint64_t addr, const char *space, bool make)
{
    if (c->cap_alog) {
        size_t cap = (size_t)c->cap_alog * 2, i = alog_hash(addr, space, cap);
        for (; c->alog_index[i] >= 0; i = (i + 1) & (cap - 1)) {
            DeviceAtomicLog *e = &c->alog[c->alog_index[i]];
            if (e->addr == addr && !strcmp(e->space, space))
                return e;
        }
    }
    if (!make)
        return NULL;
    if (c->n_alog == c->cap_alog) {
        int cap = c->cap_alog ? c->cap_alog * 2 : 16;
        DeviceAtomicLog *na = cap <= PAR_ALOG_MAX ? realloc(c->alog, (size_t)cap * sizeof *na) : NULL;
        int *ni = na ? malloc((size_t)cap * 2 * sizeof *ni) : NULL;
        if (!ni) {
            if (na)
                c->alog = na;
            c->alog_overflow = true;
            return NULL;
        }
        c->alog = na;
        free(c->alog_index);
        c->alog_index = ni;
        c->cap_alog = cap;
        memset(ni, 0xff, (size_t)cap * 2 * sizeof *ni);
        for (int k = 0; k < c->n_alog; k++) {
            size_t j = alog_hash(na[k].addr, na[k].space, (size_t)cap * 2);
            while (ni[j] >= 0)
                j = (j + 1) & ((size_t)cap * 2 - 1);
            ni[j] = k;
        }
    }
    size_t cap = (size_t)c->cap_alog * 2, i = alog_hash(addr, space, cap);
    while (c->alog_index[i] >= 0)
        i = (i + 1) & (cap - 1);
    c->alog_index[i] = c->n_alog;
    DeviceAtomicLog *e = &c->alog[c->n_alog++];
    memset(e, 0, sizeof *e);
    e->addr = addr;
    snprintf(e->space, sizeof e->space, "%s", space);
    return e;
}

void exec_par_atomic_log(Exec *x, Warp *w, int lane, const char *space, uint64_t addr, uint64_t old,
                         uint64_t val)
{
    ExecParChunk *c = x->pchunk;
    ExecPar *p = c->par;
    /* the launch's log full at the round's start: only its addresses matter */
    DeviceAtomicLog *lg = alog_entry(c, addr, space, p->alog_n0 < DEVICE_ATOMIC_LOG_ADDRS);
    if (lg)
        exec_atomic_log_add(x, lg, w, lane, old, val);
}

static void chunk_setup(ExecPar *p, ExecParChunk *c, const int *sms, int nsms)
{
    Exec *x = p->x;
    c->par = p;
    c->sms = sms;
    c->nsms = nsms;
    c->x = *x;
    c->x.par = NULL;
    c->x.pchunk = c;
    if (x->tm) /* timed: its SMs' L2 requests wait in their outboxes (timing_defer.c) */
        c->x.tm = timing_chunk_model(x->tm, &c->tm, &c->tout);
    c->x.mlast = NULL;
    c->stats = *x->stats;
    c->start = c->stats;
    c->x.stats = &c->stats;
    memset(&c->fault, 0, sizeof c->fault);
    c->x.fault = &c->fault;
    c->x.faulted = false;
    c->n_alog = 0;
    c->alog_overflow = false;
    if (c->cap_alog)
        memset(c->alog_index, 0xff, (size_t)c->cap_alog * 2 * sizeof *c->alog_index);
    if (x->alog) /* the addresses logged so far, to go on with (see merge_alog) */
        for (int i = 0; i < *x->n_alog; i++) {
            DeviceAtomicLog *e = alog_entry(c, x->alog[i].addr, x->alog[i].space, true);
            if (e)
                *e = x->alog[i];
        }
    par_chunk_begin(c);
}

static void stats_add(DeviceStats *to, const DeviceStats *now, const DeviceStats *start)
{
#define ADD(f) to->f += now->f - start->f
    ADD(warp_insts);
    ADD(thread_insts);
    ADD(blocks);
    ADD(warps);
    ADD(global_loads);
    ADD(global_stores);
    ADD(shared_loads);
    ADD(shared_stores);
    ADD(atomics);
    ADD(barriers);
    ADD(divergent_branches);
#undef ADD
}

/* Chunk c's atomic log after the launch's, as the serial run writes it.
 * c's entries below alog_n0 began as the launch's at the round's start
 * (the log only grows, so they are its entries still): what follows their
 * count then is c's.  c's other entries are every address it met, in the
 * order it met them; each goes on the entry an earlier chunk made for it,
 * else takes a place while there is one -- as in the serial run, where
 * c's SMs come after the earlier chunks'.  Updates past
 * DEVICE_ATOMIC_LOG_UPDATES are counted only. */
static void merge_alog(ExecPar *p, Exec *x, const ExecParChunk *c)
{
    for (int i = 0; i < c->n_alog; i++) {
        const DeviceAtomicLog *src = &c->alog[i];
        DeviceAtomicLog *dst = NULL;
        int from = 0;
        uint64_t total = src->total;
        if (i < p->alog_n0) {
            dst = &x->alog[i];
            from = p->alog_u0[i];
            total -= p->alog_t0[i];
        } else {
            for (int j = 0; j < *x->n_alog && !dst; j++)
                if (x->alog[j].addr == src->addr && !strcmp(x->alog[j].space, src->space))
                    dst = &x->alog[j];
            if (!dst) {
                if (*x->n_alog == DEVICE_ATOMIC_LOG_ADDRS)
                    continue;
                dst = &x->alog[(*x->n_alog)++];
                memset(dst, 0, sizeof *dst);
                dst->addr = src->addr;
                memcpy(dst->space, src->space, sizeof dst->space);
            }
        }
        dst->total += total;
        for (int u = from; u < src->n && dst->n < DEVICE_ATOMIC_LOG_UPDATES; u++)
            dst->u[dst->n++] = src->u[u];
    }
}

/* A round on the calling thread, on the launch's Exec: what exec_sched.c's
 * loop does for the roundrobin schedule. */
static bool serial_round(ExecPar *p, const int *act, int nact, uint64_t limit, uint64_t *end)
{
    Exec *x = p->x;
    p->rounds_serial++;
    for (int i = 0; i < nact && !x->faulted; i++) {
        SimSM *sm = &x->sms[act[i]];
        p->slice(x, sm, limit);
        if (sm->now > *end)
            *end = sm->now;
    }
    return true;
}

static void abandon(ExecPar *p, const char *why, const char *kind)
{
    p->abandoned = true;
    snprintf(p->why, sizeof p->why, "%s%s%s", why, kind ? " " : "", kind ? kind : "");
}

bool exec_par_round(Exec *x, const int *act, int nact, uint64_t limit, uint64_t *end)
{
    ExecPar *p = x->par;
    p->rounds++;
    if (p->serial) /* on one thread from here, as exec_sched.c's serial loop runs a round */
        return serial_round(p, act, nact, limit, end);
    int nchunks = nact < p->cap_chunks ? nact : p->cap_chunks;
    if (p->started == 0 || nact < 2)
        nchunks = 1; /* one thread: the round as one chunk (its writes still saved) */
    p->round_id = (uint32_t)p->rounds;
    p->nchunks_round = nchunks;
    if (x->alog) {
        p->alog_n0 = *x->n_alog;
        for (int i = 0; i < p->alog_n0; i++) {
            p->alog_u0[i] = x->alog[i].n;
            p->alog_t0[i] = x->alog[i].total;
        }
    }
    for (int k = 0; k < nchunks; k++) {
        int lo = (int)((int64_t)nact * k / nchunks), hi = (int)((int64_t)nact * (k + 1) / nchunks);
        chunk_setup(p, &p->chunks[k], act + lo, hi - lo);
    }
    p->limit = limit;
    if (nchunks == 1) {
        chunk_run(p, &p->chunks[0]);
    } else {
        pthread_mutex_lock(&p->mu);
        p->next = 0;
        p->finished = 0;
        p->nchunks = nchunks;
        p->gen++;
        pthread_cond_broadcast(&p->go);
        pthread_mutex_unlock(&p->mu);
        take_chunks(p);
        pthread_mutex_lock(&p->mu);
        while (p->finished < p->nchunks)
            pthread_cond_wait(&p->done, &p->mu);
        pthread_mutex_unlock(&p->mu);
    }
    if (atomic_load_explicit(&p->give_up, memory_order_relaxed)) {
        abandon(p, PAR_COSTLY, NULL);
        return false;
    }
    for (int k = 0; k < nchunks; k++) {
        ExecParChunk *c = &p->chunks[k];
        if (c->oom) {
            abandon(p, "out of memory keeping track of global memory", NULL);
            return false;
        }
        if (c->x.faulted) { /* the SMs after it ran on: only the serial run can say what stopped where */
            abandon(p, "a fault:", c->fault.kind);
            return false;
        }
        if (c->alog_overflow) {
            abandon(p, "atomics on more addresses than the atomic log can follow", NULL);
            return false;
        }
    }
    if (nchunks > 1 && par_conflicts(p, nchunks)) {
        if (p->oom) {
            abandon(p, "out of memory keeping track of global memory", NULL);
            return false;
        }
        abandon(p, "two SMs on different threads touched the same bytes of global memory, one of them writing",
                NULL);
        return false;
    }
    uint64_t work = 0;
    for (int k = 0; k < nchunks; k++) {
        ExecParChunk *c = &p->chunks[k];
        work += (c->stats.warp_insts - c->start.warp_insts) * (x->tm ? PAR_TIMED_WEIGHT : 1);
        stats_add(x->stats, &c->stats, &c->start);
        if (c->x.end_cycle > x->end_cycle)
            x->end_cycle = c->x.end_cycle;
        if (x->tm)
            timing_chunk_merge(x->tm, &c->tout);
        if (c->end > *end)
            *end = c->end;
        if (x->alog)
            merge_alog(p, x, c);
    }
    if (x->stats->warp_insts >= x->budget) { /* some SM, in the serial order, would have stopped */
        abandon(p, "the instruction budget", NULL);
        return false;
    }
    if (!par_round_keep(p, nchunks)) {
        abandon(p, "out of memory keeping track of global memory", NULL);
        return false;
    }
    if (nchunks > 1)
        p->rounds_parallel++;
    /* the round is the serial round: the launch may go on on one thread from
     * here with nothing to undo, when keeping track costs what threads gain */
    uint64_t cost = 0;
    for (int k = 0; k < nchunks; k++)
        cost += par_chunk_cost(&p->chunks[k]);
    if (work >= PAR_JUDGE_LEAST && cost * 100 > work * PAR_KEEP_PERCENT) { /* (one of little work costs little) */
        p->serial = true;
        snprintf(p->serial_why, sizeof p->serial_why, "%s", PAR_COSTLY);
        par_mem_free(p); /* nothing will be undone now */
    }
    return true;
}
