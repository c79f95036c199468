/* exec_par_mem.c: what a chunk of SMs on a thread of its own (exec_par.c)
 * did to global memory, and how to undo it.
 *
 * Notes: a chunk keeps the byte ranges it read and wrote in a round as two
 * lists -- a warp's coalesced access is one range, and one that touches
 * the last grows it; a gather's reads are their 4 KB pages, in a set --
 * sorted and merged at the chunk's end; the check sorts every chunk's
 * ranges together and sweeps them once.
 *
 * Saves: before the first write of a round to a 4 KB page, the chunk that
 * writes copies it (the first claims it; another waits until the copy is
 * made), so a round that fails can be put back.  When a round passes,
 * only the pages it wrote that a round that passed (it too) read are kept
 * for the launch, as they were before it.  Why that is enough: the rounds
 * that passed are the serial run's rounds, so a byte they wrote on a page
 * nothing had read was, in the serial order, written before anything read
 * it; the run again on one thread writes it again, in the same round,
 * before anything reads it, and what the attempt left there never shows.
 * Abandoning puts back the failed round's copies, then the kept ones (the
 * older bytes last).  An output written once (out[i] = f(in[i])) is copied
 * once per round, in memory kept from round to round, and never kept.
 *
 * Called by exec_mem.c and exec_memfast.c (exec_par_note,
 * exec_par_note_gather, exec_par_write) and exec_par.c (the rest). */
#include "exec_par_int.h"

#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

/* ---- notes ------------------------------------------------------------------ */

static bool ranges_grow(ParRanges *r)
{
    size_t cap = r->cap ? r->cap * 2 : 256;
    ParRange *v = realloc(r->v, cap * sizeof *v);
    if (!v)
        return false;
    r->v = v;
    r->cap = cap;
    return true;
}

void exec_par_note(Exec *x, uint64_t a, uint64_t size, bool write)
{
    ExecParChunk *c = x->pchunk;
    ParRanges *r = write ? &c->wr : &c->rd;
    uint64_t hi = a + size;
    r->noted++;
    if (r->n) {
        ParRange *t = &r->v[r->n - 1];
        if (a <= t->hi && hi >= t->lo) { /* touches the last: one range */
            if (a < t->lo)
                t->lo = a;
            if (hi > t->hi)
                t->hi = hi;
            return;
        }
    }
    if (r->n == r->cap && !ranges_grow(r)) {
        c->oom = true; /* the round cannot be checked: abandoned */
        return;
    }
    r->v[r->n++] = (ParRange){a, hi};
}

static bool pageset_grow(ParPageSet *ps)
{
    size_t cap = ps->cap ? ps->cap * 2 : 256;
    uint64_t *key = calloc(cap, sizeof *key);
    ParRange *r = malloc(cap * sizeof *r);
    if (!key || !r) {
        free(key);
        free(r);
        return false;
    }
    for (size_t i = 0; i < ps->cap; i++)
        if (ps->key[i]) {
            size_t j = (size_t)(ps->key[i] * 0x9e3779b97f4a7c15ull >> 20) & (cap - 1);
            while (key[j])
                j = (j + 1) & (cap - 1);
            key[j] = ps->key[i];
            r[j] = ps->r[i];
        }
    free(ps->key);
    free(ps->r);
    ps->key = key;
    ps->r = r;
    ps->cap = cap;
    return true;
}

void exec_par_note_gather(Exec *x, const MemAlloc *al, uint64_t a)
{
    ExecParChunk *c = x->pchunk;
    ParPageSet *ps = &c->rpages;
    uint64_t k = (a >> PAR_PAGE_BITS) + 1;
    c->rd.noted++;
    if (k == ps->last)
        return;
    ps->last = k;
    size_t i = 0;
    if (ps->cap)
        for (i = (size_t)(k * 0x9e3779b97f4a7c15ull >> 20) & (ps->cap - 1); ps->key[i]; i = (i + 1) & (ps->cap - 1))
            if (ps->key[i] == k)
                return;
    if ((ps->n + 1) * 2 > ps->cap) {
        if (!pageset_grow(ps)) {
            c->oom = true;
            return;
        }
        for (i = (size_t)(k * 0x9e3779b97f4a7c15ull >> 20) & (ps->cap - 1); ps->key[i]; i = (i + 1) & (ps->cap - 1))
            ;
    }
    uint64_t lo = (k - 1) << PAR_PAGE_BITS, hi = lo + PAR_PAGE, end = al->addr + al->size;
    ps->key[i] = k;
    ps->r[i] = (ParRange){lo > al->addr ? lo : al->addr, hi < end ? hi : end};
    ps->n++;
}

static int range_cmp(const void *a, const void *b)
{
    const ParRange *p = a, *q = b;
    return p->lo < q->lo ? -1 : p->lo > q->lo;
}

/* Sorted by start, overlapping and touching ranges merged. */
static void ranges_merge(ParRanges *r)
{
    bool sorted = true;
    for (size_t i = 1; i < r->n && sorted; i++)
        sorted = r->v[i - 1].lo <= r->v[i].lo;
    if (!sorted)
        qsort(r->v, r->n, sizeof *r->v, range_cmp);
    size_t m = 0;
    for (size_t i = 0; i < r->n; i++) {
        if (m && r->v[i].lo <= r->v[m - 1].hi) {
            if (r->v[i].hi > r->v[m - 1].hi)
                r->v[m - 1].hi = r->v[i].hi;
        } else {
            r->v[m++] = r->v[i];
        }
    }
    r->n = m;
}

void par_chunk_end(ExecParChunk *c)
{
    ParPageSet *ps = &c->rpages;
    for (size_t i = 0; i < ps->cap && ps->n; i++) /* the pages read lane by lane join the reads */
        if (ps->key[i]) {
            if (c->rd.n == c->rd.cap && !ranges_grow(&c->rd)) {
                c->oom = true;
                break;
            }
            c->rd.v[c->rd.n++] = ps->r[i];
            ps->key[i] = 0;
            ps->n--;
        }
    ps->n = 0;
    ps->last = 0;
    ranges_merge(&c->rd);
    ranges_merge(&c->wr);
}

static int tagged_cmp(const void *a, const void *b)
{
    const ParTagged *p = a, *q = b;
    return p->lo < q->lo ? -1 : p->lo > q->lo;
}

/* The furthest end of the ranges seen, and the furthest of another chunk's. */
typedef struct {
    uint64_t hi1, hi2;
    uint32_t c1;
} Furthest;

static void furthest_add(Furthest *f, uint64_t hi, uint32_t c)
{
    if (c == f->c1) {
        if (hi > f->hi1)
            f->hi1 = hi;
    } else if (hi > f->hi1) {
        f->hi2 = f->hi1;
        f->hi1 = hi;
        f->c1 = c;
    } else if (hi > f->hi2) {
        f->hi2 = hi;
    }
}

/* How far the ranges seen of chunks other than c reach. */
static uint64_t furthest_other(const Furthest *f, uint32_t c)
{
    return f->c1 != c ? f->hi1 : f->hi2;
}

/* Any byte one chunk wrote that another read or wrote: the chunks' order
 * mattered.  (Out of memory: p->oom, and true.) */
bool par_conflicts(ExecPar *p, int nchunks)
{
    size_t n = 0;
    for (int k = 0; k < nchunks; k++)
        n += p->chunks[k].rd.n + p->chunks[k].wr.n;
    if (!n)
        return false;
    if (n > p->cap_all) {
        ParTagged *a = realloc(p->all, n * sizeof *a);
        if (!a) {
            p->oom = true;
            return true;
        }
        p->all = a;
        p->cap_all = n;
    }
    n = 0;
    for (int k = 0; k < nchunks; k++) {
        const ExecParChunk *c = &p->chunks[k];
        for (size_t i = 0; i < c->rd.n; i++)
            p->all[n++] = (ParTagged){c->rd.v[i].lo, c->rd.v[i].hi, (uint32_t)k, false};
        for (size_t i = 0; i < c->wr.n; i++)
            p->all[n++] = (ParTagged){c->wr.v[i].lo, c->wr.v[i].hi, (uint32_t)k, true};
    }
    qsort(p->all, n, sizeof *p->all, tagged_cmp);
    /* every pair of overlapping ranges meets here: the later one starts
     * before the earlier one ends */
    Furthest any = {0, 0, UINT32_MAX}, wr = {0, 0, UINT32_MAX};
    for (size_t i = 0; i < n; i++) {
        const ParTagged *t = &p->all[i];
        if (furthest_other(t->write ? &any : &wr, t->chunk) > t->lo)
            return true;
        furthest_add(&any, t->hi, t->chunk);
        if (t->write)
            furthest_add(&wr, t->hi, t->chunk);
    }
    return false;
}

/* ---- the allocations' pages --------------------------------------------------- */

/* Allocation al's pages (made when first met); NULL when out of memory. */
static ParAlloc *alloc_pages(ExecPar *p, const MemAlloc *al)
{
    ParAlloc *pa = NULL;
    pthread_mutex_lock(&p->al_mu);
    for (int i = 0; i < p->nals && !pa; i++)
        if (p->als[i]->al == al)
            pa = p->als[i];
    if (!pa && p->nals == p->cap_als) {
        int cap = p->cap_als * 2 + 8;
        ParAlloc **a = realloc(p->als, (size_t)cap * sizeof *a);
        if (a) {
            p->als = a;
            p->cap_als = cap;
        }
    }
    if (!pa && p->nals < p->cap_als) {
        size_t npg = (size_t)((al->size + PAR_PAGE - 1) >> PAR_PAGE_BITS);
        ParPage *pg = calloc(npg ? npg : 1, sizeof *pg);
        pa = pg ? malloc(sizeof *pa) : NULL;
        if (pa) {
            for (size_t i = 0; i < npg; i++)
                atomic_init(&pg[i].round, 0);
            pa->al = al;
            pa->pg = pg;
            p->als[p->nals++] = pa;
        } else {
            free(pg);
        }
    }
    pthread_mutex_unlock(&p->al_mu);
    return pa;
}

/* ---- saves -------------------------------------------------------------------- */

/* A new entry for len bytes of host (pg its page), its data to be filled; NULL
 * when out of memory. */
static ParSave *saves_add(ParSaves *s, uint8_t *host, size_t len, ParPage *pg)
{
    if (s->n == s->cap) {
        size_t cap = s->cap ? s->cap * 2 : 64;
        ParSave *e = realloc(s->e, cap * sizeof *e);
        if (!e)
            return NULL;
        s->e = e;
        s->cap = cap;
    }
    if (s->used == s->nblocks * PAR_SAVE_BLOCK) {
        uint8_t **b = realloc(s->blocks, (s->nblocks + 1) * sizeof *b);
        if (!b)
            return NULL;
        s->blocks = b;
        /* a mapping of its own, touched only as far as it is used, in huge
         * pages where the kernel gives them: a launch that writes much
         * memory in one round copies it all into fresh memory, and with 4 KB
         * pages faulting them in cost more than the copy */
        void *m = mmap(NULL, PAR_SAVE_BLOCK * PAR_PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (m == MAP_FAILED)
            return NULL;
#ifdef MADV_HUGEPAGE
        madvise(m, PAR_SAVE_BLOCK * PAR_PAGE, MADV_HUGEPAGE);
#endif
        b[s->nblocks++] = m;
    }
    ParSave *e = &s->e[s->n++];
    e->host = host;
    e->len = len;
    e->pg = pg;
    e->data = s->blocks[s->used / PAR_SAVE_BLOCK] + (s->used % PAR_SAVE_BLOCK) * PAR_PAGE;
    s->used++;
    return e;
}

static void saves_clear(ParSaves *s)
{
    s->n = 0;
    s->used = 0;
}

static void saves_free(ParSaves *s)
{
    for (size_t i = 0; i < s->nblocks; i++)
        munmap(s->blocks[i], PAR_SAVE_BLOCK * PAR_PAGE);
    free(s->blocks);
    free(s->e);
    memset(s, 0, sizeof *s);
}

static void saves_put_back(const ParSaves *s)
{
    for (size_t i = 0; i < s->n; i++)
        memcpy(s->e[i].host, s->e[i].data, s->e[i].len);
}

/* Page `page` of pa saved this round (by c now, or by the chunk that came
 * first, waited for); false when out of memory. */
static bool page_save(ExecParChunk *c, ParAlloc *pa, uint64_t page)
{
    ParPage *pg = &pa->pg[page];
    uint32_t r = c->par->round_id;
    uint32_t v = atomic_load_explicit(&pg->round, memory_order_acquire);
    for (;;) {
        if (v == r)
            return true;
        if (v & PAR_BUSY) { /* another chunk is copying it: its bytes must be the round's first */
            sched_yield();
            v = atomic_load_explicit(&pg->round, memory_order_acquire);
            continue;
        }
        if (atomic_compare_exchange_weak_explicit(&pg->round, &v, r | PAR_BUSY, memory_order_acquire,
                                                  memory_order_acquire))
            break;
    }
    uint64_t start = page << PAR_PAGE_BITS;
    size_t len = pa->al->size - start < PAR_PAGE ? (size_t)(pa->al->size - start) : (size_t)PAR_PAGE;
    ParSave *e = saves_add(&c->round, pa->al->host + start, len, pg);
    if (!e) {
        atomic_store_explicit(&pg->round, v, memory_order_release);
        c->oom = true;
        return false;
    }
    memcpy(e->data, e->host, len);
    atomic_store_explicit(&pg->round, r, memory_order_release);
    return true;
}

bool exec_par_write(Exec *x, const MemAlloc *al, uint64_t a, uint64_t size)
{
    ExecParChunk *c = x->pchunk;
    ParAlloc *pa = c->al_last;
    if (!pa || pa->al != al) {
        if (!(pa = alloc_pages(c->par, al))) {
            c->oom = true;
            return false;
        }
        c->al_last = pa;
    }
    uint64_t off = a - al->addr, last = off + (size ? size : 1) - 1;
    for (uint64_t pg = off >> PAR_PAGE_BITS; pg <= last >> PAR_PAGE_BITS; pg++)
        if (!page_save(c, pa, pg))
            return false;
    return true;
}

/* ---- rounds --------------------------------------------------------------------- */

void par_chunk_begin(ExecParChunk *c)
{
    c->rd.n = c->wr.n = 0;
    c->rd.noted = c->wr.noted = 0;
    saves_clear(&c->round);
    c->oom = false;
}

/* The pages a chunk's read range [lo, hi) touched are read. */
static bool mark_read(ExecPar *p, uint64_t lo, uint64_t hi)
{
    MemAlloc *al = exec_global_find(p->x, lo, hi - lo);
    ParAlloc *pa = al ? alloc_pages(p, al) : NULL;
    if (!pa)
        return false; /* (a range is noted in one allocation: out of memory) */
    for (uint64_t pg = (lo - al->addr) >> PAR_PAGE_BITS; pg <= (hi - 1 - al->addr) >> PAR_PAGE_BITS; pg++)
        pa->pg[pg].read = true;
    return true;
}

bool par_round_keep(ExecPar *p, int nchunks)
{
    for (int k = 0; k < nchunks; k++) {
        const ParRanges *r = &p->chunks[k].rd;
        for (size_t i = 0; i < r->n; i++)
            if (r->v[i].hi > r->v[i].lo && !mark_read(p, r->v[i].lo, r->v[i].hi))
                return false;
    }
    for (int k = 0; k < nchunks; k++) {
        const ParSaves *s = &p->chunks[k].round;
        p->pages_round += s->n;
        for (size_t i = 0; i < s->n; i++) {
            const ParSave *e = &s->e[i];
            if (!e->pg->read || e->pg->kept)
                continue;
            ParSave *d = saves_add(&p->keep, e->host, e->len, e->pg);
            if (!d)
                return false;
            memcpy(d->data, e->data, e->len);
            e->pg->kept = true;
            p->pages_kept++;
        }
    }
    return true;
}

/* Keeping track of chunk c's memory this round so far, in the warp
 * instructions of simulation it costs about as much as (measured on the
 * int4 copy and a strided store, tests/kernels/sm_threads.cu): a note
 * PAR_COST_NOTE / 16, a range kept PAR_COST_RANGE / 16 (sorting and
 * checking it), a page copied PAR_COST_PAGE / 16. */
uint64_t par_chunk_cost(const ExecParChunk *c)
{
    uint64_t notes = c->rd.noted + c->wr.noted, ranges = c->rd.n + c->wr.n, pages = c->round.n;
    return (notes * PAR_COST_NOTE + ranges * PAR_COST_RANGE + pages * PAR_COST_PAGE) / 16;
}

void par_restore(ExecPar *p)
{
    for (int k = 0; k < p->nchunks_round; k++)
        saves_put_back(&p->chunks[k].round);
    saves_put_back(&p->keep); /* the oldest bytes last */
}

void par_mem_free(ExecPar *p)
{
    for (int k = 0; k < p->cap_chunks; k++) {
        ExecParChunk *c = &p->chunks[k];
        free(c->rd.v);
        free(c->wr.v);
        memset(&c->rd, 0, sizeof c->rd);
        memset(&c->wr, 0, sizeof c->wr);
        free(c->rpages.key);
        free(c->rpages.r);
        memset(&c->rpages, 0, sizeof c->rpages);
        saves_free(&c->round);
    }
    saves_free(&p->keep);
    for (int i = 0; i < p->nals; i++) {
        free(p->als[i]->pg);
        free(p->als[i]);
    }
    free(p->als);
    free(p->all);
    p->als = NULL;
    p->nals = p->cap_als = 0;
    p->all = NULL;
    p->cap_all = 0;
}
