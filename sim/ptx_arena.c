/* ptx_arena.c: memory for the PTX front end: the module arena (every
 * allocation of a PtxModule, freed at once), string interning, the small
 * pointer-keyed maps the parser resolves names with, and the error exits. */
#include "ptx_int.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct ArenaBlock {
    struct ArenaBlock *next;
    size_t cap, used;
    _Alignas(16) unsigned char data[];
} ArenaBlock;

struct PtxArena {
    ArenaBlock *head;
    size_t total;
};

#define ARENA_BLOCK 65536

struct PtxArena *ptx_arena_new(void)
{
    return calloc(1, sizeof(struct PtxArena));
}

void ptx_arena_free(struct PtxArena *a)
{
    if (!a)
        return;
    ArenaBlock *b = a->head;
    while (b) {
        ArenaBlock *n = b->next;
        free(b);
        b = n;
    }
    free(a);
}

size_t ptx_arena_bytes(const struct PtxArena *a)
{
    return a ? a->total : 0;
}

void *ptx_arena_alloc(struct PtxArena *a, size_t n)
{
    if (n > PTX_LIM_ARENA)
        return NULL;
    n = (n + 15) & ~(size_t)15;
    if (n == 0)
        n = 16;
    ArenaBlock *b = a->head;
    if (!b || b->cap - b->used < n) {
        size_t cap = n > ARENA_BLOCK / 2 ? n : ARENA_BLOCK;
        if (a->total + cap > PTX_LIM_ARENA)
            return NULL;
        b = malloc(sizeof *b + cap);
        if (!b)
            return NULL;
        a->total += cap;
        b->cap = cap;
        b->used = 0;
        /* a big private block goes behind the current one so the rest of
         * the current block stays in use */
        if (cap > ARENA_BLOCK && a->head) {
            b->next = a->head->next;
            a->head->next = b;
        } else {
            b->next = a->head;
            a->head = b;
        }
    }
    void *r = b->data + b->used;
    b->used += n;
    memset(r, 0, n);
    return r;
}

/* ---- maps keyed by interned pointers ---- */

static size_t ptr_hash(const char *k)
{
    uint64_t x = (uint64_t)(uintptr_t)k;
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    return (size_t)x;
}

int ptx_map_get(const PtxMap *m, const char *key)
{
    if (!m->cap)
        return -1;
    for (size_t i = ptr_hash(key) & (m->cap - 1);; i = (i + 1) & (m->cap - 1)) {
        if (!m->keys[i])
            return -1;
        if (m->keys[i] == key)
            return m->vals[i];
    }
}

static bool map_put(PtxMap *m, const char *key, int val)
{
    for (size_t i = ptr_hash(key) & (m->cap - 1);; i = (i + 1) & (m->cap - 1)) {
        if (!m->keys[i]) {
            m->keys[i] = key;
            m->vals[i] = val;
            m->n++;
            return true;
        }
        if (m->keys[i] == key) {
            m->vals[i] = val;
            return true;
        }
    }
}

bool ptx_map_set(PtxMap *m, const char *key, int val)
{
    if ((m->n + 1) * 2 > m->cap) {
        PtxMap nm = {0};
        nm.cap = m->cap ? m->cap * 2 : 64;
        nm.keys = calloc(nm.cap, sizeof *nm.keys);
        nm.vals = calloc(nm.cap, sizeof *nm.vals);
        if (!nm.keys || !nm.vals) {
            free(nm.keys);
            free(nm.vals);
            return false;
        }
        for (size_t i = 0; i < m->cap; i++)
            if (m->keys[i])
                map_put(&nm, m->keys[i], m->vals[i]);
        ptx_map_free(m);
        *m = nm;
    }
    return map_put(m, key, val);
}

void ptx_map_free(PtxMap *m)
{
    free(m->keys);
    free(m->vals);
    memset(m, 0, sizeof *m);
}

/* ---- errors ---- */

noreturn void ptx_fail(PtxParser *p, const PtxToken *t, const char *fmt, ...)
{
    if (p->err) {
        char msg[sizeof p->err->msg];
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(msg, sizeof msg, fmt, ap);
        va_end(ap);
        sim_error_set(p->err, SIM_ERR_PARSE, p->path, t ? t->line : 0, t ? t->col : 0, "%s", msg);
    }
    longjmp(p->jb, 1);
}

noreturn void ptx_nomem(PtxParser *p)
{
    const PtxToken *t = p->toks && p->pos < p->n_toks ? &p->toks[p->pos] : NULL;
    sim_error_set(p->err, SIM_ERR_NOMEM, p->path, t ? t->line : 0, 0,
                  "out of memory (or module larger than %zu bytes)", (size_t)PTX_LIM_ARENA);
    longjmp(p->jb, 1);
}

void *ptx_alloc(PtxParser *p, size_t n)
{
    void *r = ptx_arena_alloc(p->m->arena, n);
    if (!r)
        ptx_nomem(p);
    return r;
}

void ptx_vec_reserve(PtxParser *p, void **v, int *cap, int need, size_t sz)
{
    if (need <= *cap)
        return;
    long nc = *cap ? (long)*cap * 2 : 16;
    while (nc < need)
        nc *= 2;
    if (nc > INT32_MAX / 2)
        ptx_nomem(p);
    void *nv = realloc(*v, (size_t)nc * sz);
    if (!nv)
        ptx_nomem(p);
    *v = nv;
    *cap = (int)nc;
}

void *ptx_arena_grow(PtxParser *p, void *old, int n, int *cap, size_t sz)
{
    long nc = *cap ? (long)*cap * 2 : 8;
    if (nc > INT32_MAX / 2)
        ptx_nomem(p);
    void *nv = ptx_alloc(p, (size_t)nc * sz);
    if (n)
        memcpy(nv, old, (size_t)n * sz);
    *cap = (int)nc;
    return nv;
}

/* ---- interning ---- */

static size_t str_hash(const char *s, size_t n)
{
    uint64_t h = 1469598103934665603ULL;
    for (size_t i = 0; i < n; i++)
        h = (h ^ (unsigned char)s[i]) * 1099511628211ULL;
    return (size_t)h;
}

const char *ptx_intern(PtxParser *p, const char *s, size_t len)
{
    if ((p->in + 1) * 2 > p->icap) {
        size_t nc = p->icap ? p->icap * 2 : 1024;
        const char **nt = calloc(nc, sizeof *nt);
        if (!nt)
            ptx_nomem(p);
        for (size_t i = 0; i < p->icap; i++) {
            const char *k = p->istrs[i];
            if (!k)
                continue;
            size_t j = str_hash(k, strlen(k)) & (nc - 1);
            while (nt[j])
                j = (j + 1) & (nc - 1);
            nt[j] = k;
        }
        free(p->istrs);
        p->istrs = nt;
        p->icap = nc;
    }
    size_t j = str_hash(s, len) & (p->icap - 1);
    while (p->istrs[j]) {
        const char *k = p->istrs[j];
        if (strncmp(k, s, len) == 0 && k[len] == 0)
            return k;
        j = (j + 1) & (p->icap - 1);
    }
    char *c = ptx_alloc(p, len + 1);
    memcpy(c, s, len);
    c[len] = 0;
    p->istrs[j] = c;
    p->in++;
    return c;
}

const char *ptx_tok_intern(PtxParser *p, const PtxToken *t)
{
    return ptx_intern(p, t->text, (size_t)t->len);
}
