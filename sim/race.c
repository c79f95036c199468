/* race.c: the race checker's clocks and checks.  Blocks start and end,
 * barriers and __syncwarp advance per-block clocks (a barrier generation and
 * per-warp vector clocks), and every access is compared with the shadow of
 * the bytes it touches (race_shadow.c) to find the hazards race.h lists,
 * which race_report.c keeps.  The executor calls this once per lane per
 * memory instruction, so the access path does no allocation once warm. */
#include <stdlib.h>
#include <string.h>

#include "race_int.h"

#define VC_BYTES (32u * 32u * sizeof(uint32_t))

/* The steps of race_access, inlined into it: about 15% fewer instructions
 * per access than calls (measured with callgrind). */
#define HOT __attribute__((always_inline)) static inline

RaceChecker *race_new(uint32_t threads_per_block)
{
    if (threads_per_block == 0 || threads_per_block > 65536)
        return NULL;
    RaceChecker *rc = calloc(1, sizeof *rc);
    if (!rc)
        return NULL;
    rc->tpb = threads_per_block;
    while ((1u << rc->tbits) < threads_per_block)
        rc->tbits++;
    rc->tmask = (1u << rc->tbits) - 1;
    rc->nwarps = (threads_per_block + 31) / 32;
    rc->max_serial = (uint32_t)((1ull << (32 - rc->tbits)) - 1);
    rc->mem_limit = RACE_DEFAULT_MEMORY_LIMIT;
    rc->mem_used = sizeof *rc;
    return rc;
}

void race_free(RaceChecker *rc)
{
    if (!rc)
        return;
    race_shadow_free(rc);
    race_report_free(rc);
    free(rc);
}

void race_set_memory_limit(RaceChecker *rc, uint64_t bytes)
{
    if (rc)
        rc->mem_limit = bytes;
}

uint64_t race_memory_used(const RaceChecker *rc)
{
    return rc ? rc->mem_used : 0;
}

bool race_truncated(const RaceChecker *rc)
{
    return rc && rc->truncated;
}

void race_set_bytewise(RaceChecker *rc, bool bytewise)
{
    if (rc)
        rc->bytewise = bytewise;
}

/* ---- blocks -------------------------------------------------------------- */

static void block_clear(RaceChecker *rc, RaceBlock *b)
{
    for (uint32_t i = 0; i < b->nspages; i++)
        race_page_release(rc, &b->spages[i]);
    b->nspages = 0;
    if (b->vc_used)
        for (uint32_t w = 0; w < rc->nwarps; w++)
            if (b->vc[w]) {
                memcpy(b->vc[w], &rc->free_vc, sizeof rc->free_vc);
                rc->free_vc = b->vc[w];
                b->vc[w] = NULL;
            }
    b->vc_used = false;
    b->nfills = 0;
    b->reads_dirty = true;
    b->nmbar = 0;
    if (b->acq_used)
        memset(b->acq, 0, rc->tpb * sizeof *b->acq);
    b->acq_used = false;
}

void race_block_end(RaceChecker *rc, uint64_t block)
{
    RaceBlock *b = rc ? race_block_find(rc, block) : NULL;
    if (!b)
        return;
    race_block_remove(rc, block);
    block_clear(rc, b);
    b->next = rc->bfree;
    rc->bfree = b;
}

void race_block_start(RaceChecker *rc, uint64_t block, uint64_t shared_size)
{
    if (!rc)
        return;
    race_block_end(rc, block);
    if (rc->nserial == rc->max_serial) {
        rc->truncated = true;   /* keys exhausted: this block goes unchecked */
        return;
    }
    if (rc->nserial + 1 >= rc->capserial) {
        uint32_t ncap = rc->capserial ? rc->capserial * 2 : 256;
        if (ncap > rc->max_serial + 1u)
            ncap = rc->max_serial + 1u;
        uint64_t *t = race_mem_alloc(rc, (size_t)ncap * sizeof *t, true);
        uint64_t *u = t ? race_mem_alloc(rc, (size_t)ncap * sizeof *u, true) : NULL;
        if (!u) {
            race_mem_free(rc, t, (size_t)ncap * sizeof *t);
            return;
        }
        memset(u, 0, (size_t)ncap * sizeof *u);
        if (rc->capserial) {
            memcpy(t, rc->serial_block, (size_t)rc->capserial * sizeof *t);
            memcpy(u, rc->serial_sync, (size_t)rc->capserial * sizeof *u);
        }
        race_mem_free(rc, rc->serial_block, (size_t)rc->capserial * sizeof *t);
        race_mem_free(rc, rc->serial_sync, (size_t)rc->capserial * sizeof *u);
        rc->serial_block = t;
        rc->serial_sync = u;
        rc->capserial = ncap;
    }
    RaceBlock *b = rc->bfree;
    if (b) {
        rc->bfree = b->next;
    } else {
        if (!(b = race_mem_alloc(rc, sizeof *b, false)))
            return;
        memset(b, 0, sizeof *b);
        b->vc = race_mem_alloc(rc, rc->nwarps * sizeof *b->vc, false);
        if (!b->vc) {
            race_mem_free(rc, b, sizeof *b);
            return;
        }
        memset(b->vc, 0, rc->nwarps * sizeof *b->vc);
    }
    uint64_t np = (shared_size >> RACE_PAGE_BITS) + !!(shared_size & (RACE_PAGE_SIZE - 1));
    if (np > b->capspages) {
        /* A window past 4 GiB (the generic shared window) or the cap is not
         * tracked; a real one is at most 228 KB. */
        RacePage *t = np <= (1ull << (32 - RACE_PAGE_BITS)) && np <= rc->mem_limit / sizeof *t
                          ? race_mem_alloc(rc, np * sizeof *t, true) : NULL;
        if (t) {
            race_mem_free(rc, b->spages, b->capspages * sizeof *t);
            b->spages = t;
            b->capspages = (uint32_t)np;
        } else {
            rc->truncated = true;
            np = 0;
        }
    }
    if (np)
        memset(b->spages, 0, np * sizeof *b->spages);
    b->nspages = (uint32_t)np;
    b->shared_size = np ? shared_size : 0;
    b->block = block;
    b->serial = ++rc->nserial;
    rc->serial_block[b->serial] = block;
    rc->serial_sync[b->serial] = 0;
    b->cluster = 0;
    b->seq = b->bar_seq = 0;
    b->vc_lost = false;
    b->nfills = 0;
    if (!race_block_insert(rc, b)) {
        b->next = rc->bfree;
        rc->bfree = b;
    }
}

void race_barrier(RaceChecker *rc, uint64_t block)
{
    RaceBlock *b = rc ? race_block_find(rc, block) : NULL;
    if (b)
        b->bar_seq = ++b->seq;
}

void race_grid_barrier(RaceChecker *rc)
{
    if (!rc)
        return;
    /* every thread arrived: nothing before can race with anything after, so
     * the global shadow starts afresh (pages stay in the table: its open
     * addressing needs the slots) */
    for (uint64_t i = 0; i < rc->gcap; i++) {
        RacePage *pg = &rc->gtab[i];
        if (pg->cells)
            memset(pg->cells, 0, race_cells_bytes(pg->bytewise));
    }
}

void race_block_cluster(RaceChecker *rc, uint64_t block, uint32_t cluster)
{
    RaceBlock *b = rc ? race_block_find(rc, block) : NULL;
    if (!b)
        return;
    b->cluster = cluster;
    rc->serial_sync[b->serial] = (uint64_t)cluster << 32;
}

void race_cluster_barrier(RaceChecker *rc, uint64_t block)
{
    RaceBlock *b = rc ? race_block_find(rc, block) : NULL;
    if (!b)
        return;
    b->bar_seq = ++b->seq;
    rc->serial_sync[b->serial] = (uint64_t)b->cluster << 32 | b->seq;
}

/* __syncwarp: every lane of the mask learns what every other lane of it
 * knew (join of their clocks), and the sync itself is a new tick all of
 * them know. */
void race_warp_sync(RaceChecker *rc, uint64_t block, uint32_t warp, uint32_t mask)
{
    RaceBlock *b = rc ? race_block_find(rc, block) : NULL;
    if (!b || warp >= rc->nwarps)
        return;
    uint32_t lanes = rc->tpb - warp * 32;
    if (lanes < 32)
        mask &= (1u << lanes) - 1;
    if (!mask)
        return;
    uint32_t *vc = b->vc[warp];
    if (!vc) {
        if (rc->free_vc) {
            vc = rc->free_vc;
            memcpy(&rc->free_vc, vc, sizeof rc->free_vc);
        } else if (!(vc = race_mem_alloc(rc, VC_BYTES, false))) {
            b->vc_lost = true;
            return;
        }
        memset(vc, 0, VC_BYTES);
        b->vc[warp] = vc;
        b->vc_used = true;
    }
    uint32_t q = ++b->seq, join[32] = {0};
    for (uint32_t l = 0; l < 32; l++)
        if (mask >> l & 1)
            for (uint32_t o = 0; o < 32; o++)
                if (vc[l * 32 + o] > join[o])
                    join[o] = vc[l * 32 + o];
    for (uint32_t o = 0; o < 32; o++)
        if (mask >> o & 1)
            join[o] = q;
    for (uint32_t l = 0; l < 32; l++)
        if (mask >> l & 1)
            memcpy(&vc[l * 32], join, sizeof join);
}

/* ---- one access ------------------------------------------------------------ */

/* The access being checked, and the hazards already counted for it (one
 * count per earlier access and kind, however many bytes they share). */
typedef struct {
    uint32_t key;
    int32_t pc;
    int kind;
} AccHit;

typedef struct {
    RaceBlock *b;
    RaceBlock *win;     /* whose shared window it reaches (b, or another CTA of its cluster) */
    uint32_t key, tid;
    int32_t pc, read_pc;
    int op, space, scope;
    uint32_t group;
    AccHit hit[8];
    int nhit;
} Acc;

/* Last sync the thread took part in: a barrier or one of its __syncwarps. */
static uint32_t thread_epoch(const RaceBlock *b, uint32_t tid)
{
    const uint32_t *vc = b->vc[tid / 32];
    uint32_t own = vc ? vc[(tid % 32) * 33] : 0;
    return own > b->bar_seq ? own : b->bar_seq;
}

/* Does the earlier access (key, seq) happen-before the current one? */
HOT bool ordered(const RaceChecker *rc, const Acc *a, uint32_t key, uint32_t seq)
{
    if (key == a->key)
        return true;
    if ((key >> rc->tbits) != a->b->serial) {
        /* another block: only a cluster barrier both took part in orders them */
        uint64_t v = a->b->cluster ? rc->serial_sync[key >> rc->tbits] : 0;
        return v && (uint32_t)(v >> 32) == a->b->cluster && (uint32_t)v > seq;
    }
    if (a->b->bar_seq > seq)
        return true;
    if (a->b->acq_used && a->b->acq[a->tid] > seq)
        return true;            /* an mbarrier phase this thread waited for */
    uint32_t tid = key & rc->tmask;
    if (tid / 32 != a->tid / 32)
        return false;
    if (a->b->vc_lost)
        return true;            /* unknown: no false finding */
    const uint32_t *vc = a->b->vc[tid / 32];
    return vc && vc[(a->tid % 32) * 32 + tid % 32] > seq;
}

static bool other_block(const RaceChecker *rc, const Acc *a, uint32_t key)
{
    return key && (key >> rc->tbits) != a->b->serial;
}

static void hazard(RaceChecker *rc, Acc *a, int kind, uint64_t addr, uint32_t key, int32_t pc,
                   int op)
{
    for (int i = 0; i < a->nhit; i++)
        if (a->hit[i].key == key && a->hit[i].pc == pc && a->hit[i].kind == kind)
            return;
    if (a->nhit < 8)
        a->hit[a->nhit++] = (AccHit){key, pc, kind};
    rc->total++;
    race_report(rc, kind, a->space, addr, key, pc, op, a->key, a->pc,
                a->op, kind == K_LOST ? a->read_pc : 0);
}

static int cell_op(const RaceCell *c)
{
    return c->wop == CELL_ATOMIC ? RACE_ATOMIC : c->wop == CELL_ASYNC ? RACE_CP_ASYNC : RACE_WRITE;
}

/* Did this thread read addr since its last sync, before the write at time
 * wtime?  Then that write's update is lost when this thread writes. */
static bool read_before(Acc *a, uint64_t addr, uint32_t wtime)
{
    const RaceBlock *b = a->b;
    if (!b->reads || b->reads_dirty)
        return false;
    const RaceRead *r = &b->reads[(size_t)a->tid * RACE_READS_KEPT];
    for (int i = 0; i < RACE_READS_KEPT; i++)
        if (r[i].size && r[i].space == a->space && addr - r[i].addr < r[i].size &&
            r[i].epoch == thread_epoch(b, a->tid) && (int32_t)(wtime - r[i].time) > 0) {
            a->read_pc = r[i].pc;
            return true;
        }
    return false;
}

/* The checks of one access against one cell, then its update. */
HOT void check_cell(RaceChecker *rc, Acc *a, RaceCell *c, uint64_t addr)
{
    /* The common case first: a plain access to a byte whose last write is
     * none or this thread's own, and (for a write) whose reads are too. */
    bool w_mine = c->wkey == a->key ? c->wop != CELL_ASYNC : c->wop == CELL_NONE;
    if (w_mine && a->op == RACE_READ) {
        if (c->rkey[0] != a->key) {
            c->rkey[1] = c->rkey[0];
            c->rpc[1] = c->rpc[0];
            c->rseq[1] = c->rseq[0];
            c->rkey[0] = a->key;
        }
        c->rpc[0] = a->pc;
        c->rseq[0] = a->b->seq;
        return;
    }
    if (w_mine && a->op == RACE_WRITE && (c->rkey[0] == a->key || !c->rkey[0]) &&
        (c->rkey[1] == a->key || !c->rkey[1])) {
        c->wkey = a->key;
        c->wpc = a->pc;
        c->wtime = rc->now;
        c->wseq = a->b->seq;
        c->wop = CELL_WRITE;
        c->wscope = 0;
        return;
    }
    bool global = a->space == RACE_SPACE_GLOBAL;
    bool w_other = c->wop && c->wkey != a->key;
    bool w_race = w_other && c->wop != CELL_ASYNC && !ordered(rc, a, c->wkey, c->wseq);
    bool cta_scope = global && a->op == RACE_ATOMIC && a->scope == RACE_SCOPE_CTA;

    /* atomic-scope: a .cta atomic and an access of another block, either order. */
    if (global && c->wop == CELL_ATOMIC && other_block(rc, a, c->wkey) &&
        (cta_scope || c->wscope == RACE_SCOPE_CTA))
        hazard(rc, a, K_SCOPE, addr, c->wkey, c->wpc, RACE_ATOMIC);
    else if (cta_scope && c->wop == CELL_WRITE && other_block(rc, a, c->wkey))
        hazard(rc, a, K_SCOPE, addr, c->wkey, c->wpc, RACE_WRITE);
    if (cta_scope)
        for (int i = 0; i < 2; i++)
            if (other_block(rc, a, c->rkey[i]))
                hazard(rc, a, K_SCOPE, addr, c->rkey[i], c->rpc[i], RACE_READ);

    if (a->op == RACE_READ || a->op == RACE_ATOMIC) {
        if (c->wop == CELL_ASYNC)
            hazard(rc, a, K_ASYNC, addr, c->wkey, c->wpc, RACE_CP_ASYNC);
        else if (w_race && (a->op == RACE_READ || c->wop == CELL_WRITE))
            hazard(rc, a, a->op == RACE_READ ? K_RAW : K_WAW, addr, c->wkey, c->wpc, cell_op(c));
    } else {    /* a plain write, or the issue of a cp.async */
        bool lost = false;
        if (c->wop == CELL_ASYNC && w_other)
            hazard(rc, a, K_WAW, addr, c->wkey, c->wpc, RACE_CP_ASYNC);
        else if (w_race) {
            lost = a->op == RACE_WRITE && read_before(a, addr, c->wtime);
            hazard(rc, a, lost ? K_LOST : K_WAW, addr, c->wkey, c->wpc, cell_op(c));
        }
        if (!lost)
            for (int i = 0; i < 2; i++)
                if (c->rkey[i] && c->rkey[i] != a->key && !ordered(rc, a, c->rkey[i], c->rseq[i]))
                    hazard(rc, a, K_WAR, addr, c->rkey[i], c->rpc[i], RACE_READ);
    }
    if (a->op == RACE_ATOMIC)
        for (int i = 0; i < 2; i++)
            if (c->rkey[i] && c->rkey[i] != a->key && !ordered(rc, a, c->rkey[i], c->rseq[i]))
                hazard(rc, a, K_WAR, addr, c->rkey[i], c->rpc[i], RACE_READ);

    /* Update.  A pending cp.async stays the last write until it lands: the
     * copy overwrites whatever was stored meanwhile. */
    if (a->op == RACE_READ) {
        if (c->rkey[0] != a->key) {
            c->rkey[1] = c->rkey[0];
            c->rpc[1] = c->rpc[0];
            c->rseq[1] = c->rseq[0];
        }
        c->rkey[0] = a->key;
        c->rpc[0] = a->pc;
        c->rseq[0] = a->b->seq;
    } else if (a->op == RACE_CP_ASYNC || c->wop != CELL_ASYNC) {
        c->wkey = a->key;
        c->wpc = a->pc;
        c->wtime = rc->now;
        c->wseq = a->op == RACE_CP_ASYNC ? a->group : a->b->seq;
        c->wop = a->op == RACE_ATOMIC     ? CELL_ATOMIC
                 : a->op == RACE_CP_ASYNC ? CELL_ASYNC
                                          : CELL_WRITE;
        c->wscope = (uint8_t)(a->op == RACE_ATOMIC ? a->scope : 0);
    }
}

/* The page of addr in the access's space, allocated on first touch. */
static RacePage *page_of(RaceChecker *rc, const Acc *a, uint64_t no)
{
    if (a->space == RACE_SPACE_GLOBAL)
        return race_global_page(rc, no);
    RacePage *pg = &a->win->spages[no];
    if (!pg->cells && !race_page_fill(rc, pg, rc->bytewise))
        return NULL;
    return pg;
}

/* Checks and updates the cells of [addr, addr+size); size > 0 and the range
 * does not wrap. */
HOT void walk(RaceChecker *rc, Acc *a, uint64_t addr, uint64_t size)
{
    uint64_t end = addr + size;   /* may be 0: the range ends at 2^64 */
    while (addr != end) {
        uint64_t no = addr >> RACE_PAGE_BITS;
        uint32_t off = (uint32_t)(addr & (RACE_PAGE_SIZE - 1));
        uint64_t n = RACE_PAGE_SIZE - off;
        if (end - addr < n)
            n = end - addr;
        RacePage *pg = page_of(rc, a, no);
        if (pg && !pg->bytewise && ((off | n) & 3) && !race_page_split(rc, pg))
            pg = NULL;
        if (pg) {
            if (pg->bytewise)
                for (uint32_t i = 0; i < n; i++)
                    check_cell(rc, a, &pg->cells[off + i], addr + i);
            else
                for (uint32_t i = 0; i < n; i += 4)
                    check_cell(rc, a, &pg->cells[(off + i) / 4], addr + i);
        }
        addr += n;
    }
}

/* Set up an access of who; false when it is not to be checked. */
HOT bool acc_begin(RaceChecker *rc, Acc *a, int space, int op, const RaceWho *who)
{
    if (!rc || !who || (space != RACE_SPACE_SHARED && space != RACE_SPACE_GLOBAL))
        return false;
    RaceBlock *b = race_block_find(rc, who->block);
    if (!b || who->tid >= rc->tpb)
        return false;
    rc->now++;
    a->b = a->win = b;
    a->tid = who->tid;
    a->key = b->serial << rc->tbits | who->tid;
    a->pc = who->pc;
    a->op = op;
    a->space = space;
    a->nhit = 0;
    return true;
}

/* Clamp [addr, addr+size) to the space: the block's window for shared,
 * 2^64 for global.  Returns the bytes left. */
static uint64_t clamp(const Acc *a, uint64_t addr, uint64_t size)
{
    uint64_t limit = a->win->shared_size;
    if (a->space == RACE_SPACE_SHARED)
        return addr >= limit ? 0 : (size < limit - addr ? size : limit - addr);
    return addr + size < addr && addr + size != 0 ? 0 - addr : size;
}

/* Remember a read for lost-update detection. */
static void remember_read(RaceChecker *rc, const Acc *a, uint64_t addr, uint64_t size)
{
    RaceBlock *b = a->b;
    if (!b->reads) {
        size_t n = (size_t)rc->tpb * RACE_READS_KEPT;
        b->reads = race_mem_alloc(rc, n * sizeof *b->reads, true);
        b->rnext = b->reads ? race_mem_alloc(rc, rc->tpb, true) : NULL;
        if (!b->rnext) {
            race_mem_free(rc, b->reads, n * sizeof *b->reads);
            b->reads = NULL;
            return;
        }
        b->reads_dirty = true;
    }
    if (b->reads_dirty) {
        memset(b->reads, 0, (size_t)rc->tpb * RACE_READS_KEPT * sizeof *b->reads);
        memset(b->rnext, 0, rc->tpb);
        b->reads_dirty = false;
    }
    RaceRead *r = &b->reads[(size_t)a->tid * RACE_READS_KEPT];
    int slot = -1;
    for (int i = 0; i < RACE_READS_KEPT && slot < 0; i++)
        if (r[i].size && r[i].addr == addr && r[i].space == a->space)
            slot = i;
    if (slot < 0)
        slot = b->rnext[a->tid]++ % RACE_READS_KEPT;
    r[slot] = (RaceRead){.addr = addr, .time = rc->now, .epoch = thread_epoch(b, a->tid),
                         .pc = a->pc,
                         .size = (uint16_t)(size > 0xffff ? 0xffff : size),
                         .space = (uint8_t)a->space};
}

void race_access(RaceChecker *rc, int space, uint64_t addr, unsigned size, int op, int scope,
                 const RaceWho *who)
{
    Acc a;
    if ((op != RACE_READ && op != RACE_WRITE && op != RACE_ATOMIC) ||
        !acc_begin(rc, &a, space, op, who))
        return;
    a.scope = scope == RACE_SCOPE_CTA ? RACE_SCOPE_CTA : RACE_SCOPE_GPU;
    uint64_t n = clamp(&a, addr, size);
    if (!n)
        return;
    walk(rc, &a, addr, n);
    if (op == RACE_READ)
        remember_read(rc, &a, addr, n);
}

void race_access_in(RaceChecker *rc, uint64_t owner, uint64_t addr, unsigned size, int op, int scope,
                    const RaceWho *who)
{
    Acc a;
    if ((op != RACE_READ && op != RACE_WRITE && op != RACE_ATOMIC) ||
        !acc_begin(rc, &a, RACE_SPACE_SHARED, op, who))
        return;
    RaceBlock *win = race_block_find(rc, owner);
    if (!win)
        return;
    a.win = win;
    a.scope = scope == RACE_SCOPE_CTA ? RACE_SCOPE_CTA : RACE_SCOPE_GPU;
    uint64_t n = clamp(&a, addr, size);
    if (n) /* its reads are not kept for lost updates: their offsets are another window's */
        walk(rc, &a, addr, n);
}

/* ---- cp.async ------------------------------------------------------------- */

void race_async_fill(RaceChecker *rc, uint64_t addr, unsigned size, uint32_t group,
                     const RaceWho *who)
{
    Acc a;
    if (!acc_begin(rc, &a, RACE_SPACE_SHARED, RACE_CP_ASYNC, who))
        return;
    a.scope = RACE_SCOPE_GPU;
    a.group = group;
    uint64_t n = clamp(&a, addr, size);
    if (!n)
        return;
    RaceBlock *b = a.b;
    if (b->nfills == b->capfills) {
        /* Without room to remember the copy, it is not marked pending at
         * all: a pending mark nobody clears would be a false finding. */
        uint32_t ncap = b->capfills ? b->capfills * 2 : 64;
        RaceFill *t = race_mem_alloc(rc, (size_t)ncap * sizeof *t, true);
        if (!t)
            return;
        if (b->nfills)
            memcpy(t, b->fills, (size_t)b->nfills * sizeof *t);
        race_mem_free(rc, b->fills, (size_t)b->capfills * sizeof *t);
        b->fills = t;
        b->capfills = ncap;
    }
    b->fills[b->nfills++] = (RaceFill){.addr = addr, .size = (uint32_t)n, .tid = who->tid,
                                       .group = group};
    walk(rc, &a, addr, n);
}

/* The copy lands: each byte still pending for this thread's groups <= upto
 * becomes its plain write, made now. */
static void land(RaceChecker *rc, RaceBlock *b, const RaceFill *f, uint32_t key, uint32_t upto)
{
    for (uint64_t addr = f->addr, end = f->addr + f->size; addr < end;) {
        RacePage *pg = &b->spages[addr >> RACE_PAGE_BITS];
        uint32_t off = (uint32_t)(addr & (RACE_PAGE_SIZE - 1));
        uint64_t n = RACE_PAGE_SIZE - off;
        if (end - addr < n)
            n = end - addr;
        if (pg->cells)
            for (uint32_t i = 0; i < n; i++) {
                RaceCell *c = &pg->cells[pg->bytewise ? off + i : (off + i) / 4];
                if (c->wop == CELL_ASYNC && c->wkey == key && c->wseq <= upto) {
                    c->wop = CELL_WRITE;
                    c->wseq = b->seq;
                    c->wtime = rc->now;
                }
            }
        addr += n;
    }
}

void race_async_complete(RaceChecker *rc, uint64_t block, uint32_t tid, uint32_t upto)
{
    RaceBlock *b = rc ? race_block_find(rc, block) : NULL;
    if (!b || tid >= rc->tpb)
        return;
    rc->now++;
    uint32_t key = b->serial << rc->tbits | tid, k = 0;
    for (uint32_t i = 0; i < b->nfills; i++) {
        RaceFill *f = &b->fills[i];
        if (f->tid == tid && f->group <= upto)
            land(rc, b, f, key, upto);
        else
            b->fills[k++] = *f;
    }
    b->nfills = k;
}
