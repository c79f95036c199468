/* viz_model_int.h: the inside of a VizModel, shared by the loader
 * (viz_model.c) and the queries (viz_query.c).  Records are kept in arrays
 * sorted by (block, warp, pos) so that "the last X of this warp before pos"
 * is one binary search. */
#ifndef WARPSIM_VIZ_MODEL_INT_H
#define WARPSIM_VIZ_MODEL_INT_H

#include "viz_model.h"

#define MODEL_MAX_FINDINGS 256
#define MODEL_MAX_SOURCES 16
#define MODEL_MEM_SHARED 0x80000000u  /* refs of shared accesses carry this bit */

typedef struct { uint64_t block; uint32_t warp, pos, pc, mask, file, line; } MIssue;
typedef struct { uint64_t block; uint32_t warp, pos, count, pad; } MTurn;
typedef struct { uint64_t block; uint32_t warp, pos, id, mask, arrived, rel; } MArrive;
typedef struct { uint64_t block; uint32_t pos, id, released, pad; } MRelease;
/* A warp-state record (event pos): runs first .. first + n - 1 cover cycles
 * start..end. */
typedef struct { uint64_t block, start, end; uint32_t warp, first, n, pos; } MState;
typedef struct { uint64_t block; uint32_t warp, pos, pc, mask, member; uint8_t kind, mode; } MColl;
/* A memory access: stride form (a = base, b = stride), or list form (a =
 * index of the first active lane's address in addrs, one per lane in mask). */
typedef struct {
    uint64_t block, a;
    int64_t b;
    uint32_t warp, pos, pc, mask;
    uint8_t kind, space, size, conflict, form;
} MMem;

typedef struct {
    char *path;
    char *text;        /* whole file, NUL-terminated; NULL when unreadable */
    uint32_t *line_at; /* offset of each line */
    uint32_t nlines;
} MSource;

struct VizModel {
    char *name;
    TraceLaunch launch;
    char **strings;
    uint32_t nstrings;
    uint32_t warps_per_block, threads_per_block;
    uint64_t nevents, end_cycle;
    int end_status;
    size_t file_size;

    /* time: per event its cycle, type and the index of its record in the
     * array of its kind (refs; MODEL_MEM_SHARED marks shared accesses) */
    uint64_t *cycles;
    uint8_t *types;
    uint32_t *refs;

    /* blocks */
    VizSpan *spans;        /* sorted by (block, dpos) */
    uint32_t nspans;
    uint32_t *sm_first;    /* sm_count + 1 offsets into sm_spans/sm_rpos */
    uint32_t *sm_spans;    /* span indices, per SM, by dpos */
    uint32_t *sm_rpos;     /* retire positions, per SM, ascending */
    uint32_t *tree_first;  /* sm_count + 1 offsets into tree */
    uint32_t *tree;        /* per SM: segment tree of max rpos over sm_spans */
    uint32_t max_resident;
    uint32_t *disp_pos;    /* every dispatch position, ascending */
    uint32_t *ret_pos;     /* every retire position, ascending */
    uint32_t ndisp, nret;

    /* warps */
    MIssue *issues; uint32_t nissues;
    MTurn *turns; uint32_t nturns;
    MArrive *arrives; uint32_t narrives;
    MRelease *releases; uint32_t nreleases;
    MColl *colls; uint32_t ncolls;

    /* memory */
    MMem *smem; uint32_t nsmem;      /* shared */
    MMem *gmem; uint32_t ngmem;      /* global, generic, local */
    uint32_t *smem_bypos, *gmem_bypos; /* indices into smem/gmem in file order */
    uint64_t *addrs; uint32_t naddrs; /* list-form addresses */
    uint64_t nother_mem;             /* const and param accesses (not kept) */

    /* atomics */
    VizAtomic *atoms; uint32_t natoms;        /* sorted by (space, addr, order) */
    VizAtomicAddr *aaddrs; uint32_t naaddrs;  /* by updates, most first */

    VizFinding *findings; uint32_t nfindings;

    /* tile operations (viz_tiles.c) */
    VizTile *tiles; uint32_t ntiles, captiles;
    TraceTileElem *telems; uint32_t ntelems, captelems;

    /* warp states of a timed trace (viz_states.c), by (block, warp, end) */
    MState *states; uint32_t nstates, capstates;
    uint8_t *run_state; uint32_t *run_cycles; uint32_t nruns, capruns;

    MSource sources[MODEL_MAX_SOURCES];
    uint32_t nsources;

    size_t bytes;          /* memory held, for viz_model_memory */
};

/* Keep tile record e (event pos) (viz_tiles.c): false when out of memory. */
bool model_add_tile(VizModel *m, const TraceEvent *e, uint32_t pos);
void model_tiles_free(VizModel *m);
/* Keep warp-state record e, event pos (viz_states.c): false when out of
 * memory; sort them once loaded (and point their events' refs at them);
 * free them. */
bool model_add_states(VizModel *m, const TraceEvent *e, uint32_t pos);
void model_states_sort(VizModel *m);
/* The text of state record ref (an index into m->states) for an event line. */
void model_describe_states(const VizModel *m, uint32_t ref, char *buf, size_t cap);
void model_states_free(VizModel *m);

/* Order of two (block, warp, pos) keys: -1, 0, 1. */
static inline int model_key_cmp(uint64_t b1, uint32_t w1, uint32_t p1, uint64_t b2, uint32_t w2, uint32_t p2)
{
    if (b1 != b2)
        return b1 < b2 ? -1 : 1;
    if (w1 != w2)
        return w1 < w2 ? -1 : 1;
    return p1 < p2 ? -1 : p1 > p2;
}

#endif
