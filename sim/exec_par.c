/* exec_par.c: one launch's SMs on several threads, with the results of one.
 *
 * A round of the scheduler (exec_sched.c) runs every active SM for a slice
 * of cycles, SM after SM.  Here the round's SMs are cut into chunks of
 * consecutive SMs and the chunks run side by side, each on a copy of the
 * Exec with its own statistics, fault, lookup cache and atomic log; a chunk
 * runs its SMs in order, as the serial round does.  Chunks can reach each
 * other only through global memory, so each notes the bytes of global
 * memory it read and wrote in the round.  When two chunks touched a byte
 * and one of them wrote it (an atomic is a write), the serial order might
 * have given another value: the attempt is abandoned.  So is one in which
 * the kernel faulted or ran past its instruction budget (which SMs ran on
 * past the fault is what differs).  Abandoning puts global memory back as
 * it was before the launch -- every page is saved before its first write --
 * and exec_launch runs the launch again on one thread.  A race-free kernel,
 * most kernels, runs on every thread to its end; outputs, statistics,
 * faults and the atomic log are the serial run's in every case.
 *
 * Only where nothing else is shared between SMs (exec_par_begin): untimed,
 * untraced, no race checking, the roundrobin schedule, lane or reverse
 * atomic order, no clusters, no cooperative launch, no stepper, and a
 * kernel that reaches neither printf nor malloc/free.  Called by
 * exec_run.c (begin, end) and exec_sched.c (rounds), exec_mem.c (notes);
 * runs SMs through the slice function exec_sched.c hands it. */
#include "exec_int.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PAR_PAGE_BITS 12
#define PAR_PAGE ((uint64_t)1 << PAR_PAGE_BITS)
/* Bytes one bit of a page's read and write sets stands for: 4, so a page
 * costs 256 bytes of sets; two SMs touching different bytes of one 4-byte
 * word count as touching the same (a conflict that is not one: the launch
 * runs again on one thread, never a wrong result). */
#define PAR_GRAIN 4
#define PAR_WORDS (PAR_PAGE / PAR_GRAIN / 64)
/* Chunks a round is cut into, per thread: more balance the SMs' uneven
 * work; each costs a copy of the Exec and a page set. */
#define PAR_CHUNKS_PER_THREAD 2
/* A chunk's memory of pages it knows are saved (direct-mapped). */
#define PAR_SAVED_CACHE 512
#define PAR_SAVE_BUCKETS 4096
/* Addresses a chunk's atomic log may hold in a round while the launch's
 * log is not full; past it the attempt is abandoned. */
#define PAR_ALOG_MAX 4096

/* The words of one page of global memory a chunk read and wrote. */
typedef struct {
    uint64_t key;                     /* page number + 1; 0: an empty slot */
    uint64_t r[PAR_WORDS], w[PAR_WORDS];
} ParPage;

typedef struct {
    ParPage *e;                       /* open addressing, cap a power of two */
    size_t cap, n;
    size_t *used;                     /* indices of the n slots in use */
    ParPage *last;                    /* the page noted last */
    bool failed;                      /* out of memory: the round cannot be checked */
} ParSet;

/* A page's bytes as they were before the launch. */
typedef struct ParSave {
    uint8_t *host;                    /* where they go back */
    size_t len;
    struct ParSave *next;             /* same bucket */
    uint8_t data[];
} ParSave;

struct ExecParChunk {
    Exec x;                           /* the copy its SMs run on */
    DeviceStats stats, start;
    DeviceFault fault;
    /* its atomic log: first the launch's entries at the round's start (to go
     * on with), then every address it met first, in that order -- all of
     * them while the launch's log has room, since an earlier chunk may add
     * any of them there (see merge_alog) */
    DeviceAtomicLog *alog;
    int n_alog, cap_alog;
    int *alog_index;                  /* open addressing over alog, cap 2 * cap_alog */
    bool alog_overflow;               /* met more than PAR_ALOG_MAX addresses */
    ParSet set;
    const int *sms;                   /* its SMs (indices into Exec.sms) */
    int nsms;
    uint64_t end;                     /* the furthest clock its SMs reached */
    ExecPar *par;
    uint8_t *saved[PAR_SAVED_CACHE];  /* page starts known to be saved */
};

struct ExecPar {
    Exec *x;                          /* the launch */
    int threads;                      /* workers + the calling thread */
    pthread_t *tid;
    int started;
    pthread_mutex_t mu;
    pthread_cond_t go, done;
    uint64_t gen;                     /* rounds begun: a worker starts one when it moves */
    bool quit;
    int next, nchunks, finished;      /* this round's chunks: next to take, all, done */
    ExecParSlice slice;               /* runs one SM for its part of a round */
    uint64_t limit;                   /* this round's end */
    ExecParChunk *chunks;
    int cap_chunks;
    pthread_mutex_t save_mu;          /* the saves, taken by every chunk */
    ParSave *saves[PAR_SAVE_BUCKETS];
    uint64_t nsaved;
    bool save_failed;
    ParSet uni;                       /* the union of the chunks' pages, to check them */
    int alog_n0;                      /* the atomic log at the round's start: entries, */
    int alog_u0[DEVICE_ATOMIC_LOG_ADDRS];   /* their updates listed */
    uint64_t alog_t0[DEVICE_ATOMIC_LOG_ADDRS]; /* and counted */
    bool abandoned;
    char why[96];                     /* why it was abandoned */
    uint64_t rounds, rounds_parallel;
};

/* ---- page sets ------------------------------------------------------------ */

static size_t page_hash(uint64_t key, size_t cap)
{
    return (size_t)((key * 0x9e3779b97f4a7c15ull) >> 20) & (cap - 1);
}

static bool set_grow(ParSet *s)
{
    size_t cap = s->cap ? s->cap * 2 : 64;
    ParPage *e = calloc(cap, sizeof *e);
    size_t *used = malloc(cap / 2 * sizeof *used);
    if (!e || !used) {
        free(e);
        free(used);
        return false;
    }
    size_t n = 0;
    for (size_t k = 0; k < s->n; k++) {
        const ParPage *o = &s->e[s->used[k]];
        size_t i = page_hash(o->key, cap);
        while (e[i].key)
            i = (i + 1) & (cap - 1);
        e[i] = *o;
        used[n++] = i;
    }
    free(s->e);
    free(s->used);
    s->e = e;
    s->used = used;
    s->cap = cap;
    s->last = NULL;
    return true;
}

/* The entry of page `key`, made when new; NULL when memory ran out. */
static ParPage *set_get(ParSet *s, uint64_t key)
{
    if (s->last && s->last->key == key)
        return s->last;
    if (s->cap) {
        size_t i = page_hash(key, s->cap);
        while (s->e[i].key) {
            if (s->e[i].key == key)
                return s->last = &s->e[i];
            i = (i + 1) & (s->cap - 1);
        }
    }
    if ((s->n + 1) * 2 > s->cap && !set_grow(s)) {
        s->failed = true;
        return NULL;
    }
    size_t i = page_hash(key, s->cap);
    while (s->e[i].key)
        i = (i + 1) & (s->cap - 1);
    s->e[i].key = key;
    s->used[s->n++] = i;
    return s->last = &s->e[i];
}

/* Empty for the next round, keeping its memory (given back fresh, every
 * round would fault its pages in again: the int4 copy ran 3.5x slower). */
static void set_clear(ParSet *s)
{
    for (size_t k = 0; k < s->n; k++)
        memset(&s->e[s->used[k]], 0, sizeof *s->e);
    s->n = 0;
    s->last = NULL;
    s->failed = false;
}

static void set_free(ParSet *s)
{
    free(s->e);
    free(s->used);
    memset(s, 0, sizeof *s);
}

static void bits_set(uint64_t *b, unsigned lo, unsigned n)
{
    while (n) {
        unsigned k = lo & 63, take = 64 - k < n ? 64 - k : n;
        b[lo >> 6] |= (take == 64 ? ~0ull : ((1ull << take) - 1)) << k;
        lo += take;
        n -= take;
    }
}

void exec_par_note(Exec *x, uint64_t a, uint64_t size, bool write)
{
    ParSet *s = &x->pchunk->set;
    while (size) {
        unsigned off = (unsigned)(a & (PAR_PAGE - 1));
        uint64_t n = PAR_PAGE - off < size ? PAR_PAGE - off : size;
        ParPage *p = set_get(s, (a >> PAR_PAGE_BITS) + 1);
        if (!p)
            return; /* s->failed: the round is abandoned */
        unsigned lo = off / PAR_GRAIN, hi = (unsigned)((off + n + PAR_GRAIN - 1) / PAR_GRAIN);
        bits_set(write ? p->w : p->r, lo, hi - lo);
        a += n;
        size -= n;
    }
}

/* ---- saving pages before their first write ---------------------------------- */

static size_t save_hash(const uint8_t *h)
{
    uint64_t v = (uint64_t)(uintptr_t)h;
    return (size_t)((v * 0x9e3779b97f4a7c15ull) >> 40);
}

/* The page of allocation al around offset off is saved (saved now when it
 * was not); false when there was no memory to save it. */
static bool save_page(ExecParChunk *c, const MemAlloc *al, uint64_t off)
{
    uint64_t start = off & ~(PAR_PAGE - 1);
    uint8_t *h = al->host + start;
    size_t k = save_hash(h) % PAR_SAVED_CACHE;
    if (c->saved[k] == h)
        return true;
    ExecPar *p = c->par;
    size_t b = save_hash(h) % PAR_SAVE_BUCKETS;
    bool ok = true;
    pthread_mutex_lock(&p->save_mu);
    ParSave *s = p->saves[b];
    while (s && s->host != h)
        s = s->next;
    if (!s) {
        size_t len = al->size - start < PAR_PAGE ? (size_t)(al->size - start) : (size_t)PAR_PAGE;
        s = malloc(sizeof *s + len);
        if (s) {
            s->host = h;
            s->len = len;
            memcpy(s->data, h, len);
            s->next = p->saves[b];
            p->saves[b] = s;
            p->nsaved++;
        } else {
            p->save_failed = true;
            ok = false;
        }
    }
    pthread_mutex_unlock(&p->save_mu);
    if (ok)
        c->saved[k] = h;
    return ok;
}

bool exec_par_write(Exec *x, const MemAlloc *al, uint64_t a, uint64_t size)
{
    uint64_t off = a - al->addr, end = off + (size ? size : 1);
    for (uint64_t o = off & ~(PAR_PAGE - 1); o < end; o += PAR_PAGE)
        if (!save_page(x->pchunk, al, o))
            return false;
    return true;
}

/* Put every saved page back, and forget the saves. */
static void saves_restore(ExecPar *p, bool restore)
{
    for (size_t b = 0; b < PAR_SAVE_BUCKETS; b++) {
        ParSave *s = p->saves[b];
        while (s) {
            ParSave *next = s->next;
            if (restore)
                memcpy(s->host, s->data, s->len);
            free(s);
            s = next;
        }
        p->saves[b] = NULL;
    }
}

/* ---- the workers ---------------------------------------------------------------- */

static void chunk_run(ExecPar *p, ExecParChunk *c)
{
    c->end = 0;
    for (int i = 0; i < c->nsms && !c->x.faulted; i++) {
        SimSM *sm = &p->x->sms[c->sms[i]];
        p->slice(&c->x, sm, p->limit);
        if (sm->now > c->end)
            c->end = sm->now;
    }
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
    if (x->tm)
        return "the timing model (SMs share its L2 and DRAM)";
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
    if (!p->chunks || !p->tid) {
        free(p->chunks);
        free(p->tid);
        free(p);
        return "out of memory";
    }
    pthread_mutex_init(&p->mu, NULL);
    pthread_mutex_init(&p->save_mu, NULL);
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
        rep->pages_saved = p->nsaved;
    }
    saves_restore(p, again);
    for (int i = 0; i < p->cap_chunks; i++) {
        set_free(&p->chunks[i].set);
        free(p->chunks[i].alog);
        free(p->chunks[i].alog_index);
    }
    set_free(&p->uni);
    pthread_mutex_destroy(&p->mu);
    pthread_mutex_destroy(&p->save_mu);
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
    set_clear(&c->set);
}

/* Any byte one chunk wrote that another read or wrote: the chunks' order mattered. */
static bool conflicts(ExecPar *p, int nchunks)
{
    ParSet *u = &p->uni;
    set_clear(u);
    for (int k = 0; k < nchunks; k++) {
        ParSet *s = &p->chunks[k].set;
        if (s->failed)
            return true;
        for (size_t i = 0; i < s->n; i++) {
            const ParPage *e = &s->e[s->used[i]];
            ParPage *q = set_get(u, e->key);
            if (!q)
                return true;
            uint64_t bad = 0;
            for (int j = 0; j < (int)PAR_WORDS; j++) {
                bad |= (e->w[j] & (q->r[j] | q->w[j])) | (e->r[j] & q->w[j]);
                q->r[j] |= e->r[j];
                q->w[j] |= e->w[j];
            }
            if (bad)
                return true;
        }
    }
    return false;
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

static void abandon(ExecPar *p, const char *why, const char *kind)
{
    p->abandoned = true;
    snprintf(p->why, sizeof p->why, "%s%s%s", why, kind ? " " : "", kind ? kind : "");
}

bool exec_par_round(Exec *x, const int *act, int nact, uint64_t limit, uint64_t *end)
{
    ExecPar *p = x->par;
    int nchunks = nact < p->cap_chunks ? nact : p->cap_chunks;
    if (p->started == 0 || nact < 2)
        nchunks = 1; /* one thread: the round as one chunk (its writes still saved) */
    p->rounds++;
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
    for (int k = 0; k < nchunks; k++) {
        ExecParChunk *c = &p->chunks[k];
        if (c->x.faulted) { /* the SMs after it ran on: only the serial run can say what stopped where */
            abandon(p, "a fault:", c->fault.kind);
            return false;
        }
        if (c->alog_overflow) {
            abandon(p, "atomics on more addresses than the atomic log can follow", NULL);
            return false;
        }
    }
    if (nchunks > 1 && conflicts(p, nchunks)) {
        abandon(p, "two SMs on different threads touched the same bytes of global memory, one of them writing",
                NULL);
        return false;
    }
    for (int k = 0; k < nchunks; k++) {
        ExecParChunk *c = &p->chunks[k];
        stats_add(x->stats, &c->stats, &c->start);
        if (c->x.end_cycle > x->end_cycle)
            x->end_cycle = c->x.end_cycle;
        if (c->end > *end)
            *end = c->end;
        if (x->alog)
            merge_alog(p, x, c);
    }
    if (x->stats->warp_insts >= x->budget) { /* some SM, in the serial order, would have stopped */
        abandon(p, "the instruction budget", NULL);
        return false;
    }
    if (p->save_failed) {
        abandon(p, "out of memory", NULL);
        return false;
    }
    if (nchunks > 1)
        p->rounds_parallel++;
    return true;
}
