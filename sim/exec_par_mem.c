/* exec_par_mem.c: what a chunk of SMs on a thread of its own (exec_par.c)
 * did to global memory -- the 4-byte words it read and wrote this round,
 * in page sets; the pages saved before their first write, to put back
 * when the attempt is abandoned; and the check that no two chunks touched
 * a word with one of them writing it.  Called by exec_mem.c and
 * exec_memfast.c (notes, saves) and exec_par.c (the check, clearing). */
#include "exec_par_int.h"

#include <stdlib.h>
#include <string.h>

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
void par_set_clear(ParSet *s)
{
    for (size_t k = 0; k < s->n; k++)
        memset(&s->e[s->used[k]], 0, sizeof *s->e);
    s->n = 0;
    s->last = NULL;
    s->failed = false;
}

void par_set_free(ParSet *s)
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
void par_saves_restore(ExecPar *p, bool restore)
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

/* Any byte one chunk wrote that another read or wrote: the chunks' order mattered. */
bool par_conflicts(ExecPar *p, int nchunks)
{
    ParSet *u = &p->uni;
    par_set_clear(u);
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

