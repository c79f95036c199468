/* explore.h: the outcomes of many runs of one launch, as `warpsim explore`
 * collects them.  After every run each output buffer's bytes are hashed
 * (XXH64) and counted: how many distinct results occurred, how often each,
 * the first seed that gave it, and which elements ever differed from the
 * first run.  The bytes of a result are kept only up to a memory budget, so
 * 10,000 runs of a large buffer cost a hash and a comparison each.  A fault
 * is part of an outcome: the same bytes with and without a fault are two
 * results.  Printed text (device printf) is tallied the same way. */
#ifndef WARPSIM_EXPLORE_H
#define WARPSIM_EXPLORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "launch.h"

#define EXPLORE_MAX_FAULT_KINDS 16
#define EXPLORE_MAX_TEXTS 16          /* distinct printf texts kept */

/* One distinct result of one buffer. */
typedef struct {
    uint64_t hash;        /* XXH64 of the bytes (seeded with the fault kind when it faulted) */
    uint64_t count;       /* runs that gave it */
    uint64_t first_seed;  /* the seed of the first of them */
    char fault[32];       /* "" ran clean, else the fault kind of that run */
    uint8_t *data;        /* the bytes (owned); NULL when over the budget or unreadable */
    bool unreadable;      /* the device could not read the buffer back */
} ExploreOutcome;

/* Every result of one buffer argument. */
typedef struct {
    int arg;              /* parameter index */
    PtxType type;
    uint64_t count;       /* elements */
    ExploreOutcome *outs; /* distinct results, in order of first appearance */
    int nouts, cap;
    int *index;           /* open-addressing table: hash -> outs slot (-1 empty) */
    int index_cap;
    uint8_t *first;       /* the first readable run's bytes (owned), NULL before it */
    uint8_t *differs;     /* bit per element: some run differed from first (owned) */
    uint64_t ndiffer;     /* elements with the bit set */
} ExploreBuffer;

typedef struct {
    char kind[32];
    uint64_t count, first_seed;
    DeviceFault first;    /* the first fault of this kind */
} ExploreFault;

typedef struct {
    uint64_t hash, count, first_seed;
    char *text;           /* owned; NULL when not kept */
} ExploreText;

typedef struct {
    uint64_t runs;
    ExploreBuffer bufs[LAUNCH_MAX_ARGS];
    int nbufs;
    ExploreFault faults[EXPLORE_MAX_FAULT_KINDS];
    int nfaults;
    uint64_t faulted_runs;     /* runs that faulted (any kind) */
    uint64_t other_faults;     /* faults of kinds past EXPLORE_MAX_FAULT_KINDS */
    ExploreText texts[EXPLORE_MAX_TEXTS];
    int ntexts;
    uint64_t text_distinct;    /* distinct printf texts (also those not kept) */
    uint64_t printed_runs;     /* runs that printed anything */
    uint64_t race_runs;        /* runs with race findings (--check races) */
    size_t kept, budget;       /* bytes of outcomes kept, and the most to keep */
    bool oom;                  /* an allocation failed: the tally is incomplete */
} Explore;

/* Start an empty tally that keeps at most budget bytes of distinct results
 * (the first run of every buffer is always kept). */
void explore_init(Explore *e, size_t budget);
void explore_free(Explore *e);

/* Add one run: r as launch_run filled it (status SIM_OK or SIM_ERR_FAULT),
 * the seed it ran with, the text it printed (NULL or "" for none) and
 * whether race checking found anything.  The buffers of every run must be
 * the same arguments with the same sizes (one LaunchSpec).  false when an
 * allocation failed (e->oom is then set; the tally holds the runs before). */
bool explore_add(Explore *e, const LaunchResult *r, uint64_t seed, const char *printed, bool races);

/* The outcomes of b sorted by count (most frequent first; ties by first
 * seed), as a malloc'd array of pointers into b (free it); NULL when b has
 * none or memory is short. */
const ExploreOutcome **explore_sorted(const ExploreBuffer *b);

/* For a one-element buffer: the outcomes holding the smallest and the
 * largest value (NaN left out; their first_seed says where they came from).
 * false when there is no such outcome. */
bool explore_min_max(const ExploreBuffer *b, const ExploreOutcome **min, const ExploreOutcome **max);

/* Element k of a buffer differs between runs. */
bool explore_elem_differs(const ExploreBuffer *b, uint64_t k);

/* Print the tally: text for people (at most show outcomes per buffer), or
 * the JSON members "runs", "buffers", "faults" (and "printf" when a run
 * printed) without the enclosing braces. */
void explore_print_text(FILE *f, const Explore *e, int show);
void explore_print_json(FILE *f, const Explore *e, int show);

/* ---- running the launches (explore_run.c) ------------------------------------ */

/* How explore_run runs a launch `runs` times. */
typedef struct {
    Device *dev;             /* the device: run k uses it when threads is 1 or dev is a GPU */
    DeviceModule *mod;       /* the module loaded on dev */
    const char *path;        /* the module's file name and text: with threads > 1 on the */
    const char *ptx;         /*   simulator every further worker opens a simulator of dev's */
    size_t ptx_len;          /*   arch and loads this text (the same PTX, a Device of its own) */
    const LaunchSpec *spec;  /* the launch; run k uses seed spec->seed + k */
    uint64_t runs;
    int threads;             /* worker threads (pool.h); GPU runs stay serial */
    /* Called on the calling thread after each run is tallied; true stops
     * the exploration there (EXPLORE_STOPPED: Ctrl-C).  NULL none. */
    bool (*progress)(void *user, const Explore *e);
    void *progress_user;
} ExploreRun;

/* What went wrong in explore_run. */
typedef enum {
    EXPLORE_RAN = 0,         /* every run was tallied */
    EXPLORE_LAUNCH_FAILED,   /* a launch could not be made: msg says why, e->runs how many ran before */
    EXPLORE_OUT_OF_MEMORY,   /* the tally (e->oom) or a worker ran out of memory */
    EXPLORE_STOPPED          /* progress asked to stop: e holds the e->runs done so far */
} ExploreRunStatus;

/* Run how->spec how->runs times and tally each run in e (explore_add), in
 * seed order: e is the same, byte for byte, with any number of threads.
 * *entry (may be NULL) gets the kernel's PTX entry name (owned by how->mod)
 * once a launch was made.  Messages go into msg (one line, no prefix). */
ExploreRunStatus explore_run(Explore *e, const ExploreRun *how, const char **entry, char *msg, size_t cap);

#endif
