/* race_shadow.c: the race checker's memory.  Every allocation is counted
 * against the checker's cap; shadow pages of 1 KB of simulated memory come
 * from free lists (a retired block's shared pages serve the next block), the
 * global pages live in an open-addressing table keyed by page number, and
 * the resident blocks in another keyed by linear block index.  The checks
 * themselves are in race.c. */
#include <stdlib.h>
#include <string.h>

#include "race_int.h"

/* Counted malloc.  capped: refuse (and mark coverage partial) past the cap;
 * uncapped is for small bookkeeping whose absence would cause false
 * findings rather than missing ones. */
void *race_mem_alloc(RaceChecker *rc, size_t bytes, bool capped)
{
    if (capped && rc->mem_used + bytes > rc->mem_limit) {
        rc->truncated = true;
        return NULL;
    }
    void *p = malloc(bytes);
    if (!p) {
        rc->truncated = true;
        return NULL;
    }
    rc->mem_used += bytes;
    return p;
}

void race_mem_free(RaceChecker *rc, void *p, size_t bytes)
{
    if (!p)
        return;
    free(p);
    rc->mem_used -= bytes;
}

size_t race_cells_bytes(bool bytewise)
{
    return (size_t)(bytewise ? RACE_PAGE_SIZE : RACE_PAGE_SIZE / 4) * sizeof(RaceCell);
}

/* Cell arrays: from the free list of their size, else a new (capped) one;
 * always returned cleared. */
static RaceCell *cells_take(RaceChecker *rc, bool bytewise)
{
    size_t bytes = race_cells_bytes(bytewise);
    void *p = rc->free_cells[bytewise];
    if (p)
        memcpy(&rc->free_cells[bytewise], p, sizeof p);
    else if (!(p = race_mem_alloc(rc, bytes, true)))
        return NULL;
    memset(p, 0, bytes);
    return p;
}

static void cells_give(RaceChecker *rc, void *p, bool bytewise)
{
    memcpy(p, &rc->free_cells[bytewise], sizeof p);
    rc->free_cells[bytewise] = p;
}

bool race_page_fill(RaceChecker *rc, RacePage *pg, bool bytewise)
{
    pg->cells = cells_take(rc, bytewise);
    pg->bytewise = bytewise;
    return pg->cells != NULL;
}

void race_page_release(RaceChecker *rc, RacePage *pg)
{
    if (pg->cells)
        cells_give(rc, pg->cells, pg->bytewise);
    pg->cells = NULL;
}

/* Word cells to byte cells: each byte of a word gets the word's shadow, so
 * the findings stay what byte cells from the start would have given. */
bool race_page_split(RaceChecker *rc, RacePage *pg)
{
    RaceCell *b = cells_take(rc, true);
    if (!b)
        return false;
    for (unsigned i = 0; i < RACE_PAGE_SIZE; i++)
        b[i] = pg->cells[i / 4];
    cells_give(rc, pg->cells, false);
    pg->cells = b;
    pg->bytewise = true;
    return true;
}

static uint64_t hash64(uint64_t x)
{
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdull;
    x ^= x >> 33;
    return x;
}

static bool global_grow(RaceChecker *rc)
{
    uint64_t ncap = rc->gcap ? rc->gcap * 2 : 64;
    RacePage *t = race_mem_alloc(rc, ncap * sizeof *t, false);
    if (!t)
        return false;
    memset(t, 0, ncap * sizeof *t);
    for (uint64_t i = 0; i < rc->gcap; i++) {
        RacePage *p = &rc->gtab[i];
        if (!p->cells)
            continue;
        uint64_t j = hash64(p->no) & (ncap - 1);
        while (t[j].cells)
            j = (j + 1) & (ncap - 1);
        t[j] = *p;
    }
    race_mem_free(rc, rc->gtab, rc->gcap * sizeof *rc->gtab);
    rc->gtab = t;
    rc->gcap = ncap;
    rc->glast = NULL;
    return true;
}

/* The page of global memory `no`, allocated on first touch; NULL when the
 * cap (or malloc) refuses it. */
RacePage *race_global_page(RaceChecker *rc, uint64_t no)
{
    if (rc->glast && rc->glast->no == no)
        return rc->glast;
    if (rc->gcap) {
        uint64_t j = hash64(no) & (rc->gcap - 1);
        for (; rc->gtab[j].cells; j = (j + 1) & (rc->gcap - 1))
            if (rc->gtab[j].no == no)
                return rc->glast = &rc->gtab[j];
    }
    if ((rc->gcount + 1) * 2 > rc->gcap && !global_grow(rc))
        return NULL;
    RacePage pg = {.no = no};
    if (!race_page_fill(rc, &pg, rc->bytewise))
        return NULL;
    uint64_t j = hash64(no) & (rc->gcap - 1);
    while (rc->gtab[j].cells)
        j = (j + 1) & (rc->gcap - 1);
    rc->gtab[j] = pg;
    rc->gcount++;
    return rc->glast = &rc->gtab[j];
}

void race_forget_global(RaceChecker *rc, uint64_t addr, uint64_t size)
{
    if (!rc || !rc->gcap)
        return;
    uint64_t end = addr + size < addr ? UINT64_MAX : addr + size;
    while (addr < end) {
        uint64_t no = addr >> RACE_PAGE_BITS;
        uint32_t off = (uint32_t)(addr & (RACE_PAGE_SIZE - 1));
        uint64_t n = RACE_PAGE_SIZE - off;
        if (end - addr < n)
            n = end - addr;
        RacePage *pg = NULL;
        for (uint64_t j = hash64(no) & (rc->gcap - 1); rc->gtab[j].cells; j = (j + 1) & (rc->gcap - 1))
            if (rc->gtab[j].no == no) {
                pg = &rc->gtab[j];
                break;
            }
        if (pg && pg->bytewise) {
            memset(&pg->cells[off], 0, (size_t)n * sizeof *pg->cells);
        } else if (pg) {
            uint32_t lo = off / 4, hi = (uint32_t)((off + n + 3) / 4);
            memset(&pg->cells[lo], 0, (size_t)(hi - lo) * sizeof *pg->cells);
        }
        addr += n;
    }
}

/* Resident blocks: linear probing with backward-shift deletion, so that the
 * table never fills with tombstones over a long launch. */
RaceBlock *race_block_find(RaceChecker *rc, uint64_t block)
{
    if (rc->blast && rc->blast->block == block)
        return rc->blast;
    if (!rc->bcap)
        return NULL;
    for (uint32_t j = hash64(block) & (rc->bcap - 1); rc->btab[j]; j = (j + 1) & (rc->bcap - 1))
        if (rc->btab[j]->block == block)
            return rc->blast = rc->btab[j];
    return NULL;
}

bool race_block_insert(RaceChecker *rc, RaceBlock *b)
{
    if ((rc->bcount + 1) * 2 > rc->bcap) {
        uint32_t ncap = rc->bcap ? rc->bcap * 2 : 64;
        RaceBlock **t = race_mem_alloc(rc, ncap * sizeof *t, false);
        if (!t)
            return false;
        memset(t, 0, ncap * sizeof *t);
        for (uint32_t i = 0; i < rc->bcap; i++) {
            if (!rc->btab[i])
                continue;
            uint32_t j = hash64(rc->btab[i]->block) & (ncap - 1);
            while (t[j])
                j = (j + 1) & (ncap - 1);
            t[j] = rc->btab[i];
        }
        race_mem_free(rc, rc->btab, rc->bcap * sizeof *rc->btab);
        rc->btab = t;
        rc->bcap = ncap;
    }
    uint32_t j = hash64(b->block) & (rc->bcap - 1);
    while (rc->btab[j])
        j = (j + 1) & (rc->bcap - 1);
    rc->btab[j] = b;
    rc->bcount++;
    return true;
}

void race_block_remove(RaceChecker *rc, uint64_t block)
{
    if (!rc->bcap)
        return;
    uint32_t mask = rc->bcap - 1, j = hash64(block) & mask;
    while (rc->btab[j] && rc->btab[j]->block != block)
        j = (j + 1) & mask;
    if (!rc->btab[j])
        return;
    if (rc->blast == rc->btab[j])
        rc->blast = NULL;
    rc->btab[j] = NULL;
    rc->bcount--;
    /* Move back every entry of the run after j that may now be unreachable. */
    for (uint32_t k = (j + 1) & mask; rc->btab[k]; k = (k + 1) & mask) {
        uint32_t home = hash64(rc->btab[k]->block) & mask;
        bool reachable = (j <= k) ? (home > j && home <= k) : (home > j || home <= k);
        if (!reachable) {
            rc->btab[j] = rc->btab[k];
            rc->btab[k] = NULL;
            j = k;
        }
    }
}

static void block_destroy(RaceChecker *rc, RaceBlock *b)
{
    for (uint32_t i = 0; i < b->capspages; i++)
        free(b->spages[i].cells);
    free(b->spages);
    if (b->vc)
        for (uint32_t w = 0; w < rc->nwarps; w++)
            free(b->vc[w]);
    free(b->vc);
    free(b->reads);
    free(b->rnext);
    free(b->fills);
    free(b->acq);
    free(b);
}

void race_shadow_free(RaceChecker *rc)
{
    for (uint64_t i = 0; i < rc->gcap; i++)
        free(rc->gtab[i].cells);
    free(rc->gtab);
    for (int s = 0; s < 2; s++)
        for (void *p = rc->free_cells[s], *next; p; p = next) {
            memcpy(&next, p, sizeof next);
            free(p);
        }
    for (void *p = rc->free_vc, *next; p; p = next) {
        memcpy(&next, p, sizeof next);
        free(p);
    }
    for (uint32_t i = 0; i < rc->bcap; i++)
        if (rc->btab[i])
            block_destroy(rc, rc->btab[i]);
    free(rc->btab);
    for (RaceBlock *b = rc->bfree, *next; b; b = next) {
        next = b->next;
        block_destroy(rc, b);
    }
    free(rc->serial_block);
    free(rc->serial_sync);
}
