/* memory.h: the simulated device's memory: global allocations (buffers from
 * the host API and module .global/.const variables) in one 64-bit address
 * space, and the fixed windows that generic addresses use for shared, local
 * and constant memory.  Every access the executor makes goes through here
 * and is checked against the allocation it falls in. */
#ifndef WARPSIM_MEMORY_H
#define WARPSIM_MEMORY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Generic-address windows (cvta.shared/.local/.const/.param map into these;
 * everything from MEM_WINDOWS_END up is global).  The param window holds a
 * kernel's parameters: cvta.param of a __grid_constant__ parameter's
 * address points into it, and generic loads there read the launch's
 * parameter buffer (a write faults, as on hardware). */
#define MEM_GLOBAL_BASE 0x0000700000000000ull /* first device allocation */
#define MEM_SHARED_WIN  0x0000000100000000ull /* generic address of shared offset 0 */
#define MEM_LOCAL_WIN   0x0000000200000000ull /* generic address of local offset 0 */
#define MEM_CONST_WIN   0x0000000300000000ull /* generic address of const offset 0 */
#define MEM_PARAM_WIN   0x0000000400000000ull /* generic address of kernel param offset 0 */
#define MEM_WIN_SIZE    0x0000000100000000ull /* each window spans 4 GiB */
#define MEM_WINDOWS_END (MEM_PARAM_WIN + MEM_WIN_SIZE)

typedef struct MemAlloc {
    uint64_t addr;      /* device address */
    uint64_t size;      /* bytes the program asked for */
    uint8_t *host;      /* backing store, size bytes */
    int id;             /* 1, 2, ... in allocation order (buffer #id) */
    const char *name;   /* variable name for module variables, else NULL */
    bool heap;          /* made by device malloc (mem_heap_alloc) */
} MemAlloc;

typedef struct Memory Memory;

Memory *mem_new(void);
void mem_free_all(Memory *m);

/* Allocate size bytes (zeroed), 256-byte aligned, with a guard gap of
 * MEM_GUARD bytes after it, so that running up to 4 KB off the end faults
 * instead of landing in the next allocation.
 * Returns the allocation or NULL when out of memory. */
MemAlloc *mem_alloc(Memory *m, uint64_t size, const char *name);
/* Bytes of every live allocation (what the program asked for). */
uint64_t mem_bytes(const Memory *m);
/* Free the allocation starting exactly at addr; false when there is none.
 * The next allocation's address and number continue from the highest
 * allocation still live, so allocations freed in any order leave the
 * addresses as if they had never been made when they were the top ones. */
bool mem_release(Memory *m, uint64_t addr);

/* The device heap of in-kernel malloc/free: MEM_HEAP_SIZE bytes, the
 * driver's default cudaLimitMallocHeapSize.  Each block takes its size
 * rounded up to 16 bytes plus 16 bytes of bookkeeping (the hardware's
 * allocator keeps its own; the exact point of exhaustion differs).
 * mem_heap_alloc: a new zeroed allocation (heap set, guard gap as mem_alloc)
 * or NULL when the heap cannot hold it (or the host is out of memory).
 * mem_heap_free: 0 freed, -1 when addr is not the start of a live heap
 * allocation (the host's buffers and module variables are not). */
#define MEM_HEAP_SIZE (8ull << 20)
MemAlloc *mem_heap_alloc(Memory *m, uint64_t size);
int mem_heap_free(Memory *m, uint64_t addr);
/* Heap bytes in use (with bookkeeping). */
uint64_t mem_heap_used(const Memory *m);

/* Bytes left unallocated after every global allocation (see mem_alloc). */
#define MEM_GUARD 4096

/* The allocation that holds [addr, addr+size), or NULL.  Fast for repeated
 * hits on the same allocation. */
MemAlloc *mem_find(Memory *m, uint64_t addr, uint64_t size);
/* The same lookup, remembering the last hit in *last (the caller's, NULL
 * at first) instead of in m: threads that look up in one Memory at once,
 * while nobody allocates or frees, each pass their own.  *last must be
 * forgotten (set to NULL) when allocations may have been freed. */
MemAlloc *mem_find_at(const Memory *m, MemAlloc **last, uint64_t addr, uint64_t size);
/* The allocation nearest below addr (for fault messages), or NULL. */
MemAlloc *mem_nearest(Memory *m, uint64_t addr);

#endif
