/* exec_par_int.h: what exec_par.c (threads, rounds, the merge) and
 * exec_par_mem.c (the chunks' notes of global memory, saved pages, the
 * conflict check) share: the state of one attempt to run a launch's SMs on
 * several threads. */
#ifndef WARPSIM_EXEC_PAR_INT_H
#define WARPSIM_EXEC_PAR_INT_H

#include <pthread.h>
#include <stdatomic.h>

#include "exec_int.h"
#include "exec_par.h"

/* Global memory is saved in pages of 4 KB, relative to the allocation. */
#define PAR_PAGE_BITS 12
#define PAR_PAGE ((uint64_t)1 << PAR_PAGE_BITS)
/* Chunks a round is cut into, per thread: more balance the SMs' uneven
 * work; each costs a copy of the Exec. */
#define PAR_CHUNKS_PER_THREAD 2
/* Addresses a chunk's atomic log may hold in a round while the launch's
 * log is not full; past it the attempt is abandoned. */
#define PAR_ALOG_MAX 4096
/* Keeping track of memory (notes, copies of pages) that costs more than
 * PAR_KEEP_PERCENT % of simulating, by par_chunk_cost's count, eats what
 * threads gain: a round that cost that much is the last on threads (the
 * launch goes on on one), and a chunk of the first round that cost that
 * much once it ran PAR_JUDGE_LEAST warp instructions stops it, and the
 * launch runs again on one thread.  (Rounds and chunks that ran fewer are
 * not judged.) */
#define PAR_KEEP_PERCENT 50
/* A timed warp instruction costs about this many untimed ones (the model's
 * pick, issue and memory path: 1-2 M against 20-90 M a second): its work
 * counts that much against the bookkeeping. */
#define PAR_TIMED_WEIGHT 16
#define PAR_JUDGE_LEAST 4096
#define PAR_COST_NOTE 8
#define PAR_COST_RANGE 32
#define PAR_COST_PAGE 512
#define PAR_COSTLY "keeping track of its global memory cost more than simulating it"

/* Bytes [lo, hi) of global memory. */
typedef struct {
    uint64_t lo, hi;
} ParRange;

/* The ranges a chunk read or wrote in a round: appended as noted (one
 * growing the last when they touch), sorted and merged at the chunk's end. */
typedef struct {
    ParRange *v;
    size_t n, cap;
    uint64_t noted;                   /* notes this round (the cost of keeping them) */
} ParRanges;

/* The 4 KB pages of global memory a chunk read lane by lane (a gather):
 * noted whole, in its allocation, so that scattered reads cost a lookup
 * each and few ranges (reads are checked against other chunks' writes
 * only; reading a page another chunk wrote a byte of, in the same round,
 * counts as a conflict). */
typedef struct {
    uint64_t *key;                    /* page number + 1; 0 empty (open addressing, cap a power of two) */
    ParRange *r;                      /* the page, within its allocation */
    size_t cap, n;
    uint64_t last;                    /* the key noted last */
} ParPageSet;

/* A range of a chunk's, for the check across chunks. */
typedef struct {
    uint64_t lo, hi;
    uint32_t chunk;
    bool write;
} ParTagged;

/* One page of an allocation, for the whole launch. */
typedef struct {
    _Atomic uint32_t round;           /* the round that saved it last (| PAR_BUSY while saving) */
    bool read;                        /* a round that passed read a byte of it */
    bool kept;                        /* saved for the launch (ParPar.keep) */
} ParPage;
#define PAR_BUSY 0x80000000u

/* The pages of one allocation the launch touched. */
typedef struct {
    const MemAlloc *al;
    ParPage *pg;                      /* al->size / PAR_PAGE pages, rounded up */
} ParAlloc;

/* A page as it was before its first write of the round, or of the launch. */
typedef struct {
    uint8_t *host;                    /* where it goes back */
    size_t len;
    ParPage *pg;
    uint8_t *data;                    /* len bytes */
} ParSave;

/* Saved pages: entries, and their bytes in blocks that are kept. */
typedef struct {
    ParSave *e;
    size_t n, cap;
    uint8_t **blocks;                 /* PAR_SAVE_BLOCK pages each (mappings) */
    size_t nblocks, used;             /* blocks allocated; pages of them in use */
} ParSaves;
#define PAR_SAVE_BLOCK 2048 /* 8 MB, of which only what is used is touched */

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
    ParRanges rd, wr;                 /* what it read and wrote this round */
    ParPageSet rpages;                /* pages it read lane by lane (into rd at its end) */
    ParSaves round;                   /* pages it saved this round, before its writes */
    bool oom;                         /* out of memory noting or saving */
    ParAlloc *al_last;                /* the allocation it wrote last */
    const int *sms;                   /* its SMs (indices into Exec.sms) */
    int nsms;
    uint64_t end;                     /* the furthest clock its SMs reached */
    ExecPar *par;
    /* a timed launch: the model as its SMs see it (timing_chunk_model: the
     * launch's, but its own scheduler choice and counters, tout) */
    struct TimingModel *tm;
    DeviceTiming tout;
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
    pthread_mutex_t al_mu;            /* the allocations' pages, made by any chunk */
    ParAlloc **als;
    int nals, cap_als;
    ParSaves keep;                    /* pages saved for the launch: read, then written */
    uint32_t round_id;                /* this round's (ParPage.round) */
    ParTagged *all;                   /* every chunk's ranges, to check them */
    size_t cap_all;
    int nchunks_round;                /* chunks of this round (their saves) */
    bool oom;                         /* out of memory keeping track */
    _Atomic bool give_up;             /* a chunk found the first round too costly */
    bool serial;                      /* going on on one thread (PAR_KEEP_PERCENT) */
    char serial_why[96];              /* why */
    uint64_t rounds_serial;           /* rounds run on one thread after that */
    uint64_t pages_round, pages_kept; /* pages saved before a round's write, and for the launch */
    int alog_n0;                      /* the atomic log at the round's start: entries, */
    int alog_u0[DEVICE_ATOMIC_LOG_ADDRS];   /* their updates listed */
    uint64_t alog_t0[DEVICE_ATOMIC_LOG_ADDRS]; /* and counted */
    bool abandoned;
    char why[96];                     /* why it was abandoned */
    uint64_t rounds, rounds_parallel;
};

/* exec_par_mem.c */
void par_chunk_begin(ExecParChunk *c);      /* a round starts: empty notes and saves */
void par_chunk_end(ExecParChunk *c);        /* its ranges sorted and merged (on its thread) */
bool par_conflicts(ExecPar *p, int nchunks);  /* two chunks touched a byte, one writing */
bool par_round_keep(ExecPar *p, int nchunks); /* a round passed: pages read, then written, kept */
uint64_t par_chunk_cost(const ExecParChunk *c); /* its bookkeeping so far, in warp instructions */
void par_restore(ExecPar *p);               /* abandoned: memory as before the launch */
void par_mem_free(ExecPar *p);             /* notes and saves given back (again: nothing) */

#endif
