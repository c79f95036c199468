/* memory.c: global allocations of the simulated device (see memory.h).
 * Allocations are kept sorted by address; lookups remember the last hit. */
#include "memory.h"

#include <stdlib.h>
#include <string.h>

struct Memory {
    MemAlloc **a;       /* sorted by addr */
    int n, cap;
    uint64_t next;      /* next free address */
    int next_id;
    MemAlloc *last;     /* last hit */
    uint64_t bytes;     /* sum of live allocations' sizes */
    uint64_t heap_used; /* device heap bytes in use (mem_heap_alloc) */
};

uint64_t mem_bytes(const Memory *m)
{
    return m->bytes;
}

Memory *mem_new(void)
{
    Memory *m = calloc(1, sizeof *m);
    if (m)
        m->next = MEM_GLOBAL_BASE;
    return m;
}

void mem_free_all(Memory *m)
{
    if (!m)
        return;
    for (int i = 0; i < m->n; i++) {
        free(m->a[i]->host);
        free(m->a[i]);
    }
    free(m->a);
    free(m);
}

MemAlloc *mem_alloc(Memory *m, uint64_t size, const char *name)
{
    if (size > (1ull << 36))
        return NULL;
    if (m->n == m->cap) {
        int cap = m->cap ? m->cap * 2 : 16;
        MemAlloc **na = realloc(m->a, (size_t)cap * sizeof *na);
        if (!na)
            return NULL;
        m->a = na;
        m->cap = cap;
    }
    MemAlloc *x = calloc(1, sizeof *x);
    if (!x)
        return NULL;
    x->host = calloc(1, size ? (size_t)size : 1);
    if (!x->host) {
        free(x);
        return NULL;
    }
    x->addr = m->next;
    x->size = size;
    x->id = ++m->next_id;
    x->name = name;
    /* 256-byte aligned (as cudaMalloc), with at least MEM_GUARD bytes of no
     * allocation after each: an index that runs a little past one buffer
     * faults instead of landing in the next one, as it may on a GPU */
    m->next = (m->next + size + MEM_GUARD + 255) & ~255ull;
    m->a[m->n++] = x; /* addresses only grow: stays sorted */
    m->bytes += size;
    return x;
}

bool mem_release(Memory *m, uint64_t addr)
{
    for (int i = 0; i < m->n; i++) {
        if (m->a[i]->addr == addr) {
            if (m->last == m->a[i])
                m->last = NULL;
            m->bytes -= m->a[i]->size;
            free(m->a[i]->host);
            free(m->a[i]);
            memmove(&m->a[i], &m->a[i + 1], (size_t)(m->n - i - 1) * sizeof *m->a);
            m->n--;
            /* addresses and buffer numbers continue from the highest live
             * allocation: a launch that frees what it allocated leaves the
             * device as it found it, so the next launch sees the same
             * addresses (and the same fault messages) whatever ran before
             * -- on this device or, in parallel, on another one */
            if (m->n == 0) {
                m->next = MEM_GLOBAL_BASE;
                m->next_id = 0;
            } else {
                const MemAlloc *top = m->a[m->n - 1];
                m->next = (top->addr + top->size + MEM_GUARD + 255) & ~255ull;
                m->next_id = top->id;
            }
            return true;
        }
    }
    return false;
}

static uint64_t heap_cost(uint64_t size)
{
    return ((size + 15) & ~15ull) + 16;
}

MemAlloc *mem_heap_alloc(Memory *m, uint64_t size)
{
    if (size > MEM_HEAP_SIZE || m->heap_used + heap_cost(size) > MEM_HEAP_SIZE)
        return NULL;
    MemAlloc *a = mem_alloc(m, size, "device heap");
    if (!a)
        return NULL;
    a->heap = true;
    m->heap_used += heap_cost(size);
    return a;
}

int mem_heap_free(Memory *m, uint64_t addr)
{
    for (int i = 0; i < m->n; i++)
        if (m->a[i]->addr == addr) {
            if (!m->a[i]->heap)
                return -1;
            m->heap_used -= heap_cost(m->a[i]->size);
            mem_release(m, addr);
            return 0;
        }
    return -1;
}

uint64_t mem_heap_used(const Memory *m)
{
    return m->heap_used;
}

static int find_below(const Memory *m, uint64_t addr)
{
    int lo = 0, hi = m->n - 1, best = -1;
    while (lo <= hi) {
        int mid = (lo + hi) / 2;
        if (m->a[mid]->addr <= addr) {
            best = mid;
            lo = mid + 1;
        } else {
            hi = mid - 1;
        }
    }
    return best;
}

MemAlloc *mem_find_at(const Memory *m, MemAlloc **last, uint64_t addr, uint64_t size)
{
    MemAlloc *x = *last;
    if (x && addr >= x->addr && addr - x->addr <= x->size && size <= x->size - (addr - x->addr))
        return x;
    int i = find_below(m, addr);
    if (i < 0)
        return NULL;
    x = m->a[i];
    if (addr - x->addr <= x->size && size <= x->size - (addr - x->addr)) {
        *last = x;
        return x;
    }
    return NULL;
}

MemAlloc *mem_find(Memory *m, uint64_t addr, uint64_t size)
{
    return mem_find_at(m, &m->last, addr, size);
}

MemAlloc *mem_nearest(Memory *m, uint64_t addr)
{
    int i = find_below(m, addr);
    return i < 0 ? NULL : m->a[i];
}
