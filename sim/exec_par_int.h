/* exec_par_int.h: what exec_par.c (threads, rounds, the merge) and
 * exec_par_mem.c (the chunks' notes of global memory, saved pages, the
 * conflict check) share: the state of one attempt to run a launch's SMs on
 * several threads. */
#ifndef WARPSIM_EXEC_PAR_INT_H
#define WARPSIM_EXEC_PAR_INT_H

#include <pthread.h>

#include "exec_int.h"

#define PAR_PAGE_BITS 12
#define PAR_PAGE ((uint64_t)1 << PAR_PAGE_BITS)
/* Bytes one bit of a page's read and write sets stands for: 4, so a page
 * costs 256 bytes of sets; two SMs touching different bytes of one 4-byte
 * word count as touching the same (a conflict that is not one: the launch
 * runs again on one thread, never a wrong result). */
#define PAR_GRAIN 4
#define PAR_WORDS (PAR_PAGE / PAR_GRAIN / 64)
/* Chunks a round is cut into, per thread: more balance the SMs' uneven
 * work; each costs a copy of the Exec and a page set. */
#define PAR_CHUNKS_PER_THREAD 2
/* A chunk's memory of pages it knows are saved (direct-mapped). */
#define PAR_SAVED_CACHE 512
#define PAR_SAVE_BUCKETS 4096
/* Addresses a chunk's atomic log may hold in a round while the launch's
 * log is not full; past it the attempt is abandoned. */
#define PAR_ALOG_MAX 4096

/* The words of one page of global memory a chunk read and wrote. */
typedef struct {
    uint64_t key;                     /* page number + 1; 0: an empty slot */
    uint64_t r[PAR_WORDS], w[PAR_WORDS];
} ParPage;

typedef struct {
    ParPage *e;                       /* open addressing, cap a power of two */
    size_t cap, n;
    size_t *used;                     /* indices of the n slots in use */
    ParPage *last;                    /* the page noted last */
    bool failed;                      /* out of memory: the round cannot be checked */
} ParSet;

/* A page's bytes as they were before the launch. */
typedef struct ParSave {
    uint8_t *host;                    /* where they go back */
    size_t len;
    struct ParSave *next;             /* same bucket */
    uint8_t data[];
} ParSave;

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
    ParSet set;
    const int *sms;                   /* its SMs (indices into Exec.sms) */
    int nsms;
    uint64_t end;                     /* the furthest clock its SMs reached */
    ExecPar *par;
    uint8_t *saved[PAR_SAVED_CACHE];  /* page starts known to be saved */
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
    pthread_mutex_t save_mu;          /* the saves, taken by every chunk */
    ParSave *saves[PAR_SAVE_BUCKETS];
    uint64_t nsaved;
    bool save_failed;
    ParSet uni;                       /* the union of the chunks' pages, to check them */
    int alog_n0;                      /* the atomic log at the round's start: entries, */
    int alog_u0[DEVICE_ATOMIC_LOG_ADDRS];   /* their updates listed */
    uint64_t alog_t0[DEVICE_ATOMIC_LOG_ADDRS]; /* and counted */
    bool abandoned;
    char why[96];                     /* why it was abandoned */
    uint64_t rounds, rounds_parallel;
};

/* exec_par_mem.c */
void par_set_clear(ParSet *s);              /* empty for the next round, memory kept */
void par_set_free(ParSet *s);
void par_saves_restore(ExecPar *p, bool restore); /* put saved pages back (or not), forget them */
bool par_conflicts(ExecPar *p, int nchunks);  /* two chunks touched a word, one writing */

#endif
