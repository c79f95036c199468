/* race.h: the race and synchronisation checker.  The executor reports every
 * lane's memory access, every block barrier, __syncwarp and cp.async to a
 * RaceChecker; it keeps shadow state per byte of shared and global memory
 * and finds the hazards lesson 1 and issue 4 teach: read-after-write,
 * write-after-read and write-after-write between threads that nothing orders,
 * lost updates (s[0] = s[0] + x), .cta-scoped atomics on data other blocks
 * touch, and reads of shared memory a cp.async is still filling.  It knows
 * nothing of PTX or of the executor: it sees blocks, thread indices and
 * instruction indices (pc), and the caller maps those to source lines
 * (DeviceRace in device.h is what a finding becomes for users).
 *
 * The happens-before model (CUDA's memory model, as the seeds teach it):
 *  - accesses of one thread are ordered (program order);
 *  - race_barrier orders every access of a block before it with every access
 *    of that block after it;
 *  - race_warp_sync orders the accesses of the lanes of its mask before it
 *    with theirs after it, transitively (vector clocks per warp);
 *  - nothing orders two blocks within one launch, except a grid-wide
 *    barrier (race_grid_barrier: cooperative groups' grid.sync() in a
 *    cooperative launch), which orders every access before it with every
 *    access after it, and a cluster barrier, which orders the blocks of its
 *    cluster (race_cluster_barrier); memory fences with flags (threadfence +
 *    volatile or atomic flags, the "last block" reduction pattern) are NOT
 *    modelled, so a correct fence-and-flag handshake between blocks is
 *    reported as a race;
 *  - two atomics never race with each other, except that a .cta-scoped
 *    atomic on global memory another block accesses is "atomic-scope";
 *  - an mbarrier phase completing (race_mbarrier_complete) orders every
 *    access of its block before it with the later accesses of each thread
 *    that observes the completion (race_mbarrier_observe: a successful
 *    test_wait / try_wait); the arrivals are not told apart, so an access
 *    before the completion by a thread that never arrived is ordered too
 *    (a missed race, never a false one); mbarriers in global memory and more
 *    than RACE_MBARS per block are not modelled (false findings);
 *  - a cp.async is pending from race_async_fill until its issuing thread's
 *    race_async_complete covers its group, whatever barriers come between.
 *  - a device free (race_forget_global) orders every earlier access of the
 *    freed bytes with every later one: malloc may hand them to another block.
 *
 * Precision, on purpose bounded so that the checker stays fast and small:
 *  - each byte remembers its last write (or atomic, or pending cp.async) and
 *    the two most recent reads by distinct threads; a write racing with an
 *    older read that two newer readers displaced is missed;
 *  - a lost update is recognised when the writing thread's own read of the
 *    byte is among its 4 most recent reads (else it is reported as the
 *    write-after-write it also is); the clocks that tell which came first
 *    are 32-bit and count race_access calls, so the kind may be wrong for a
 *    read and a write more than 2^31 accesses apart;
 *  - a block's barrier and __syncwarp count is 32-bit per block;
 *  - only block-wide barriers are modelled: a named barrier with a thread
 *    count (bar.sync id, n) that leaves warps out must not be passed to
 *    race_barrier (it would order those warps too: missed races).
 *
 * One checker serves one launch and is called from one thread at a time.
 *
 * Memory: global shadow lives in pages allocated on first touch, shared
 * shadow per resident block also on first touch (freed by race_block_end);
 * a page starts at 4-byte granularity and is split to bytes on the first
 * access that is not 4-byte aligned, with identical results.  Everything is
 * counted against a cap (RACE_DEFAULT_MEMORY_LIMIT); past it, new memory is
 * not tracked and race_truncated() says that coverage was partial.  The
 * cost: 11 bytes of shadow per byte touched (44 once split to bytes), 96
 * bytes per thread of a resident block that reads (its recent reads), 4 KB
 * per warp that uses __syncwarp, 8 bytes per block started.  Nothing
 * here prints or exits; once warm, the access path allocates only a page of
 * memory touched for the first time (retired blocks' pages are reused). */
#ifndef WARPSIM_RACE_H
#define WARPSIM_RACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct RaceChecker RaceChecker;

/* Who made an access. */
typedef struct {
    uint64_t block;      /* linear block index */
    uint32_t tid;        /* linear thread index within the block */
    int32_t pc;          /* instruction index (the caller maps it to .cu/.ptx lines) */
} RaceWho;

/* op of race_access; RACE_CP_ASYNC only appears in findings (the fill of
 * race_async_fill). */
enum { RACE_READ, RACE_WRITE, RACE_ATOMIC, RACE_CP_ASYNC };
enum { RACE_SPACE_SHARED, RACE_SPACE_GLOBAL };        /* space */
enum { RACE_SCOPE_GPU = 0, RACE_SCOPE_CTA = 1 };      /* atomics: .gpu/.sys vs .cta */

/* The default cap on shadow memory, and the most findings kept. */
#define RACE_DEFAULT_MEMORY_LIMIT (256ull << 20)
#define RACE_MAX_FINDINGS 64

/* A checker for one launch whose blocks have threads_per_block threads
 * (1 .. 65536; 0 or more gives NULL).  NULL on OOM.  race_free(NULL) is a
 * no-op. */
RaceChecker *race_new(uint32_t threads_per_block);
void race_free(RaceChecker *rc);

/* The cap on shadow memory in bytes (default RACE_DEFAULT_MEMORY_LIMIT).  A
 * lower cap than what is in use only stops further growth. */
void race_set_memory_limit(RaceChecker *rc, uint64_t bytes);
/* Bytes of shadow state allocated now (tables included). */
uint64_t race_memory_used(const RaceChecker *rc);
/* true when something was not tracked for want of memory (the cap), or
 * because the launch started more blocks than the 32-bit thread keys hold
 * (2^32 / threads_per_block, rounded to a power of two): coverage was
 * partial, findings may be missing. */
bool race_truncated(const RaceChecker *rc);
/* Tests and benchmarks: bytewise=true keeps every page at byte granularity
 * from the start (4x the memory, the same findings).  Call before the first
 * access. */
void race_set_bytewise(RaceChecker *rc, bool bytewise);

/* A block becomes resident with a fresh shared window of shared_size bytes;
 * its shared shadow starts empty.  Several blocks are resident at once
 * (shared addresses of two blocks never conflict: each block has its own
 * window).  Starting a block that is already resident starts it afresh. */
void race_block_start(RaceChecker *rc, uint64_t block, uint64_t shared_size);
/* The block retired: its shared shadow, clocks and pending copies go.  Its
 * global accesses stay in the shadow (other blocks may still race with
 * them).  An unknown block is ignored. */
void race_block_end(RaceChecker *rc, uint64_t block);
/* A block-wide barrier (bar.sync / __syncthreads) released in block: every
 * access of the block's threads before it happens-before every access after
 * it. */
void race_barrier(RaceChecker *rc, uint64_t block);
/* __syncwarp(mask) (bar.warp.sync): orders the accesses of the lanes in mask
 * of warp `warp` of block (lanes of warp w are tids w*32 .. w*32+31), before
 * it with those after it.  Lanes past the block's last thread are ignored. */
void race_warp_sync(RaceChecker *rc, uint64_t block, uint32_t warp, uint32_t mask);
/* A grid-wide barrier completed: every thread of the launch had arrived (the
 * executor calls it at the last arrival of a cooperative launch's grid.sync(),
 * while every other thread waits), so every access of any block before it
 * happens-before every access after it: the global shadow is forgotten.
 * Shared memory is per block and left to race_barrier. */
void race_grid_barrier(RaceChecker *rc);

/* One thread's access of size bytes at addr (shared: offset in its block's
 * window; bytes past the window are ignored: bounds are the executor's job).
 * op RACE_READ, RACE_WRITE or RACE_ATOMIC; scope (RACE_SCOPE_*) only matters
 * for atomics.  Accesses of blocks not started, tids past the block, and bad
 * op or space values are ignored.  Bytes past 2^64 - 1 are ignored. */
void race_access(RaceChecker *rc, int space, uint64_t addr, unsigned size, int op, int scope,
                 const RaceWho *who);

/* Global [addr, addr+size) was freed (device free): what the checker knew
 * of those bytes is forgotten, because the allocator orders the free before
 * any later malloc that hands the same bytes out again (to another block,
 * which is no race).  Word-granular shadow forgets the whole words the range
 * touches (a race on a neighbouring byte in such a word may be missed,
 * never invented).  Allocates nothing; rc NULL is a no-op. */
void race_forget_global(RaceChecker *rc, uint64_t addr, uint64_t size);
/* Thread block clusters (sm_90).  race_block_cluster: the started block
 * belongs to cluster tag (nonzero; blocks with the same tag are one cluster).
 * race_access_in: who (a thread of another block of the cluster) accesses
 * the shared window of block owner (distributed shared memory; as
 * race_access otherwise).  race_cluster_barrier: a barrier.cluster phase
 * completed; called for each block of the cluster, it is a barrier of the
 * block and orders every access of every block of the cluster before it
 * with every access after it. */
void race_block_cluster(RaceChecker *rc, uint64_t block, uint32_t cluster);
void race_access_in(RaceChecker *rc, uint64_t owner, uint64_t addr, unsigned size, int op, int scope,
                    const RaceWho *who);
void race_cluster_barrier(RaceChecker *rc, uint64_t block);

/* cp.async: who issued an asynchronous copy that will fill shared
 * [addr, addr+size) of its block, in its commit group `group` (0, 1, 2, ...
 * per thread).  Issuing it is a write for the hazards it has with earlier
 * accesses (write-after-read: the copy overwrites what another thread may
 * still read).  Until race_async_complete covers that group, a read (or
 * atomic) of those bytes by ANY thread of the block is a "cp-async" finding,
 * and a write by another thread a write-after-write. */
void race_async_fill(RaceChecker *rc, uint64_t addr, unsigned size, uint32_t group,
                     const RaceWho *who);
/* Thread (block, tid) waited (cp.async.wait_group / wait_all): its groups
 * <= upto are done; the data lands and counts as written by that thread at
 * this point (other threads need a barrier before they read it). */
void race_async_complete(RaceChecker *rc, uint64_t block, uint32_t tid, uint32_t upto);

/* mbarrier (seed 002).  The mbarrier at shared offset addr of block
 * completed a phase (its last pending arrival came).  A block tracks up to
 * 16 mbarriers; more are ignored and race_truncated says so. */
void race_mbarrier_complete(RaceChecker *rc, uint64_t block, uint64_t addr);
/* Thread tid of block saw the mbarrier at addr complete its phase
 * (test_wait or try_wait returned true): every access of the block before
 * that completion happens-before tid's accesses from now on.  An mbarrier
 * that never completed a phase is ignored. */
void race_mbarrier_observe(RaceChecker *rc, uint64_t block, uint64_t addr, uint32_t tid);

/* A finding. */
typedef struct {
    const char *kind;    /* "read-after-write", "write-after-read", "write-after-write",
                            "lost-update", "atomic-scope", "cp-async" (static strings) */
    int space;           /* RACE_SPACE_* */
    uint64_t addr;       /* the first byte found in conflict (shared: window offset) */
    RaceWho first, second;   /* earlier access, the access that revealed it */
    int first_op, second_op; /* RACE_* op; a pending cp.async is RACE_CP_ASYNC */
} RaceFinding;

/* Kinds, in preference order when one access has several with one earlier
 * access:
 *  - lost-update: second (thread T) writes a byte T itself read since its
 *    last sync, and first (another thread, unordered) wrote it after that
 *    read: first's update is lost.  first/second are the two writes.  Once a
 *    lost update is found, the write-after-read and write-after-write
 *    findings that are parts of it (same read and write instructions) are
 *    dropped from the list;
 *  - atomic-scope: one of the two is a .cta atomic on global memory, the
 *    other is in another block (atomic or not; a plain access also gets its
 *    read/write kind, a second finding);
 *  - cp-async: second reads bytes first's cp.async still fills;
 *  - write-after-write, read-after-write, write-after-read: first then
 *    second, unordered, different threads, at least one a plain write (an
 *    atomic counts as a write against plain accesses). */

/* Findings so far, in the order found, deduplicated by (kind, first.pc,
 * second.pc): at most RACE_MAX_FINDINGS are kept.  race_finding gives NULL
 * for i out of range; the pointer is valid until the next call that adds
 * findings or race_free. */
int race_count(const RaceChecker *rc);
const RaceFinding *race_finding(const RaceChecker *rc, int i);
/* Every hazard detected: each (access, earlier access, kind) once, before
 * deduplication, the cap, and dropping the parts of lost updates. */
uint64_t race_total(const RaceChecker *rc);
/* Distinct (kind, first.pc, second.pc) found, also past the cap. */
uint64_t race_distinct(const RaceChecker *rc);

#endif
