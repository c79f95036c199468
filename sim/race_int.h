/* race_int.h: what the files of the race checker share (race.c: blocks,
 * clocks and the per-access checks; race_shadow.c: counted memory, shadow
 * pages and the block table; race_report.c: findings).  Not a contract for
 * anyone else: use race.h. */
#ifndef WARPSIM_RACE_INT_H
#define WARPSIM_RACE_INT_H

#include "race.h"

/* Shadow pages cover 1 KB of shared or global memory: 256 word cells, or
 * 1024 byte cells once an access that is not 4-byte aligned splits them. */
#define RACE_PAGE_BITS 10
#define RACE_PAGE_SIZE (1u << RACE_PAGE_BITS)
#define RACE_READS_KEPT 4       /* recent reads per thread (lost updates) */

/* What a cell's last write was (0: nothing since the shadow started). */
enum { CELL_NONE, CELL_WRITE, CELL_ATOMIC, CELL_ASYNC };

/* Shadow of one byte (or of one 4-byte word whose bytes all share it).  A
 * key is (block serial << tbits | tid), 0 for none; seq is the block's
 * barrier/syncwarp clock when the access was made. */
typedef struct {
    uint32_t wkey;      /* last write, atomic, or pending cp.async */
    int32_t wpc;
    uint32_t wseq;      /* CELL_ASYNC: the commit group instead */
    uint32_t wtime;     /* rc->now of that write */
    uint32_t rkey[2];   /* the two most recent reads by distinct threads, [0] newest */
    int32_t rpc[2];
    uint32_t rseq[2];
    uint8_t wop;        /* CELL_* */
    uint8_t wscope;     /* RACE_SCOPE_* of an atomic */
} RaceCell;

typedef struct {
    uint64_t no;        /* global pages: address >> RACE_PAGE_BITS */
    RaceCell *cells;    /* NULL: not allocated (an empty slot in the global table) */
    bool bytewise;
} RacePage;

/* A read kept for lost-update detection. */
typedef struct {
    uint64_t addr;
    uint32_t time;      /* rc->now of the read */
    uint32_t epoch;     /* the thread's last sync (race_thread_epoch) then */
    int32_t pc;
    uint16_t size;      /* 0: empty slot */
    uint8_t space;
} RaceRead;

/* A cp.async not yet waited for. */
typedef struct {
    uint64_t addr;
    uint32_t size, tid, group;
} RaceFill;

/* An mbarrier of a block (race_mbar.c): its shared offset and the block
 * clock at its last phase completion. */
#define RACE_MBARS 16
typedef struct {
    uint64_t addr;
    uint32_t done;
} RaceMbar;

typedef struct RaceBlock {
    uint64_t block;          /* linear block index */
    uint32_t serial;         /* 1, 2, ... in start order: the high bits of its keys */
    uint32_t seq;            /* barriers and syncwarps so far */
    uint32_t bar_seq;        /* seq at the last barrier */
    bool vc_lost;            /* a warp clock could not be allocated: treat a warp's
                                lanes as ordered rather than report false races */
    uint64_t shared_size;    /* bytes of the shared window tracked */
    RacePage *spages;        /* shared window, nspages pages, cells on first touch */
    uint32_t nspages, capspages;
    uint32_t **vc;           /* per warp: 32x32 clock, vc[w][lane*32 + other] = last
                                seq of other that lane has synchronised with; NULL
                                until the warp's first __syncwarp */
    bool vc_used;            /* some vc[w] is allocated */
    RaceRead *reads;         /* tpb * RACE_READS_KEPT, NULL until first read */
    uint8_t *rnext;          /* per thread: next slot of reads to replace */
    bool reads_dirty;        /* reads holds a previous block's entries */
    RaceFill *fills;
    uint32_t nfills, capfills;
    RaceMbar mbar[RACE_MBARS];   /* mbarriers seen, nmbar of them */
    uint32_t nmbar;
    uint32_t *acq;           /* per thread: the latest mbarrier completion it observed
                                (accesses of the block stamped before it are ordered
                                before the thread's); NULL until the first */
    bool acq_used;
    uint32_t cluster;        /* race_block_cluster's tag, 0 none */
    struct RaceBlock *next;  /* free list */
} RaceBlock;

/* Findings of kind K_* (index into race_kind_names). */
enum { K_RAW, K_WAR, K_WAW, K_LOST, K_SCOPE, K_ASYNC, K_COUNT };

typedef struct {
    int32_t p1, p2;
    uint8_t kind, used;
} RaceSeen;

typedef struct {
    int32_t w_other, w_self, r;
} RaceLost;

struct RaceChecker {
    uint32_t tpb, tbits, tmask, nwarps;
    uint32_t max_serial, nserial;
    uint32_t now;                /* race_access calls (and fills, completes) */
    bool truncated, bytewise;
    uint64_t mem_used, mem_limit;
    uint64_t *serial_block;      /* serial -> linear block index */
    uint64_t *serial_sync;       /* serial -> its cluster (high 32 bits, 0 none) and
                                    its seq at its last cluster barrier (low 32) */
    uint32_t capserial;

    RaceBlock **btab;            /* resident blocks, open addressing */
    uint32_t bcap, bcount;
    RaceBlock *blast, *bfree;

    RacePage *gtab;              /* global pages, open addressing */
    uint64_t gcap, gcount;
    RacePage *glast;

    void *free_cells[2];         /* freed cell arrays: [0] word, [1] byte */
    void *free_vc;               /* freed 32x32 warp clocks */

    RaceFinding found[RACE_MAX_FINDINGS];
    int nfound;
    RaceSeen *seen;
    uint32_t capseen, nseen;
    RaceLost *lost;
    uint32_t caplost, nlost;
    uint64_t total, distinct;
};

/* race_shadow.c */
void *race_mem_alloc(RaceChecker *rc, size_t bytes, bool capped);
void race_mem_free(RaceChecker *rc, void *p, size_t bytes);
size_t race_cells_bytes(bool bytewise);
bool race_page_fill(RaceChecker *rc, RacePage *pg, bool bytewise);
void race_page_release(RaceChecker *rc, RacePage *pg);
bool race_page_split(RaceChecker *rc, RacePage *pg);
RacePage *race_global_page(RaceChecker *rc, uint64_t no);
RaceBlock *race_block_find(RaceChecker *rc, uint64_t block);
bool race_block_insert(RaceChecker *rc, RaceBlock *b);
void race_block_remove(RaceChecker *rc, uint64_t block);
void race_shadow_free(RaceChecker *rc);

/* race_report.c: one hazard between an earlier access (key1, pc1, op1) and
 * the current one; read_pc is the lost update's read, else unused. */
void race_report(RaceChecker *rc, int kind, int space, uint64_t addr, uint32_t key1,
                 int32_t pc1, int op1, uint32_t key2, int32_t pc2, int op2, int32_t read_pc);
void race_report_free(RaceChecker *rc);

#endif
