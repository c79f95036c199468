/* viz_model.h: one trace, loaded once through the reader API of sim/trace.h
 * into sorted arrays that answer "what is the state after event k" quickly,
 * for the views of the visualizer (viz/view_*.c) and for anything else that
 * wants random access to a trace (the stepper).
 *
 * Time is measured two ways.  A *cycle* is the trace's clock; a *position*
 * `pos` (0 .. nevents) means "after the first pos events of the file", which
 * is finer: several events can share a cycle.  Every query takes a position;
 * viz_model_pos_at turns a cycle into the position after all its events.
 * The model draws only what the trace says (dispatch/retire give each block's
 * SM and span), so it needs no knowledge of how the executor schedules.
 *
 * Memory: about 13 bytes an event for the time index, plus per record kind
 * 24-64 bytes (see viz_model.c); a trace of more than VIZ_MODEL_MAX_EVENTS
 * events is refused.  The reader is closed after loading. */
#ifndef WARPSIM_VIZ_MODEL_H
#define WARPSIM_VIZ_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "error.h"
#include "trace.h"

#define VIZ_MODEL_MAX_EVENTS (1u << 23)  /* 8,388,608 events */
#define VIZ_NEVER UINT32_MAX             /* a position that never comes */

typedef struct VizModel VizModel;

/* A block's life on one SM: dispatched by event dpos, retired by event rpos
 * (VIZ_NEVER: still resident at the end, e.g. after a fault).  A block is
 * resident at position p when dpos < p <= rpos, i.e. its dispatch has
 * happened and its retire has not. */
typedef struct {
    uint64_t block;      /* linear block index */
    uint32_t sm;
    uint32_t dpos, rpos; /* event indices of dispatch and retire */
    uint16_t slot;       /* 0.. : the place it takes among the SM's resident
                            blocks (lowest free when dispatched); stable while
                            it is resident */
    uint8_t faulted;     /* a fault event names this block */
} VizSpan;

/* What one warp is doing at a position (level warps and up; at level blocks
 * only VIZ_WARP_UNKNOWN, VIZ_WARP_NOT_STARTED and VIZ_WARP_EXITED occur). */
typedef enum {
    VIZ_WARP_UNKNOWN = 0,  /* the trace has no warp detail (level blocks) */
    VIZ_WARP_NOT_STARTED,  /* its block is not dispatched yet */
    VIZ_WARP_RUNNING,      /* inside a turn: issuing at this cycle */
    VIZ_WARP_READY,        /* between turns, waiting for the scheduler */
    VIZ_WARP_BARRIER,      /* arrived at a barrier not yet released */
    VIZ_WARP_EXITED,       /* its last turn is over, or its block retired */
    VIZ_WARP_STATE_COUNT
} VizWarpStateKind;

typedef struct {
    int state;               /* VizWarpStateKind */
    uint32_t threads;        /* lanes that exist (a partial last warp has fewer) */
    bool has_issue;          /* an issue has been seen: pc, mask, file, line valid */
    uint32_t pc, mask;       /* the last issue's pc and issuing lanes */
    uint32_t file, line;     /* its .cu file (string index, TRACE_NONE) and line */
    uint64_t issue_cycle;    /* cycle of that issue */
    uint32_t bar_id;         /* VIZ_WARP_BARRIER: barrier, lanes, threads arrived */
    uint32_t bar_mask, bar_arrived;
    uint64_t bar_cycle;      /* when it arrived */
    uint64_t turns;          /* turns completed so far */
    int stall;               /* timed traces (warp states): TRACE_STATE_* at the
                                shown cycle (TRACE_STATE_SELECTED: issuing), -1
                                when the trace does not say */
    uint64_t stall_since;    /* the cycle that state began */
} VizWarpState;

/* One memory access (TRACE_EV_MEM) as stored. */
typedef struct {
    uint64_t block;
    uint32_t warp, pos, pc, mask;
    uint8_t kind, space, size, conflict;   /* as TraceEvent.u.mem */
    uint32_t nlanes;
    uint64_t addr[32];                     /* lane l's address, for lanes in mask */
} VizAccess;

/* One atomic element update (TRACE_EV_ATOMIC) as stored. */
typedef struct {
    uint64_t block, addr, old, val, order;
    uint32_t warp, lane, pos, pc;
    uint8_t op, space, size;
} VizAtomic;

/* An address that atomics updated: its updates are viz_model_atomic(m, first
 * .. first + n - 1), in order. */
typedef struct {
    uint64_t addr;
    uint8_t space;
    uint32_t first, n;
} VizAtomicAddr;

/* A fault or race finding, as text for the views. */
typedef struct {
    int type;                /* TRACE_EV_FAULT or TRACE_EV_RACE */
    uint64_t block;
    uint32_t pos, warp, lane, pc;   /* warp/lane/pc TRACE_NONE when unknown */
    uint64_t addr;
    char kind[32];           /* "out-of-bounds", ...; races: "race" */
    char msg[200];
} VizFinding;

/* ---- loading ------------------------------------------------------------- */

/* Load the trace at path.  NULL on failure with err filled: SIM_ERR_IO (cannot
 * read), SIM_ERR_PARSE (corrupt or truncated: the reader's message with the
 * byte offset), SIM_ERR_UNSUPPORTED (more than VIZ_MODEL_MAX_EVENTS events),
 * SIM_ERR_NOMEM.  The model owns everything it returns pointers to. */
VizModel *viz_model_load(const char *path, SimError *err);
/* The same from an open reader (not closed; the model keeps no pointer into
 * it).  name labels the model. */
VizModel *viz_model_from_reader(TraceReader *r, const char *name, SimError *err);
void viz_model_free(VizModel *m);

/* ---- the launch -------------------------------------------------------- */
const char *viz_model_name(const VizModel *m);          /* the path it was loaded from */
const TraceLaunch *viz_model_launch(const VizModel *m);
const char *viz_model_string(const VizModel *m, uint32_t i); /* "" out of range */
uint32_t viz_model_warps_per_block(const VizModel *m);
uint32_t viz_model_threads_per_block(const VizModel *m);
uint64_t viz_model_nevents(const VizModel *m);
uint64_t viz_model_end_cycle(const VizModel *m);        /* END's cycle */
int viz_model_end_status(const VizModel *m);            /* 0 clean, 1 faulted */
size_t viz_model_file_size(const VizModel *m);          /* bytes of the trace */
size_t viz_model_memory(const VizModel *m);             /* bytes the model holds */

/* ---- time ------------------------------------------------------------- */
/* Cycle of event i (< nevents); the end cycle for i >= nevents. */
uint64_t viz_model_event_cycle(const VizModel *m, uint64_t i);
/* Type of event i (TraceEventType), 0 when out of range. */
int viz_model_event_type(const VizModel *m, uint64_t i);
/* The position after every event of cycle <= c. */
uint32_t viz_model_pos_at(const VizModel *m, uint64_t c);
/* The cycle a position shows: that of its last applied event (0 at pos 0). */
uint64_t viz_model_pos_cycle(const VizModel *m, uint32_t pos);
/* One line describing event i ("block 3 w2 issue pc 40 mask 0xffffffff
 * kernel.cu:45") into buf; returns buf. */
char *viz_model_describe_event(const VizModel *m, uint64_t i, char *buf, size_t cap);

/* ---- blocks and SMs ---------------------------------------------------- */
uint32_t viz_model_nspans(const VizModel *m);
const VizSpan *viz_model_span(const VizModel *m, uint32_t i);
/* The span of a block (its first dispatch), or NULL when it never ran. */
const VizSpan *viz_model_find_block(const VizModel *m, uint64_t block);
/* Spans resident on SM sm at position pos: their indices into out (at most
 * cap, ordered by slot), and the number resident (which may exceed cap).
 * Time O((k + 1) log n) for k resident. */
uint32_t viz_model_resident(const VizModel *m, uint32_t sm, uint32_t pos, uint32_t *out, uint32_t cap);
/* Most blocks ever resident at once on one SM (the number of slots). */
uint32_t viz_model_max_resident(const VizModel *m);
/* Blocks resident on sm over time, in n columns: column i covers cycles
 * [c0 + i*(c1-c0)/n, c0 + (i+1)*(c1-c0)/n).  avg[i] gets the time-weighted
 * average number resident over it, peak[i] the most at any moment; either
 * may be NULL.  c1 > c0.  Time O(blocks of the SM in [c0, c1) + log n). */
void viz_model_occupancy(const VizModel *m, uint32_t sm, uint64_t c0, uint64_t c1, double *avg, uint32_t *peak,
                         int n);
/* Blocks dispatched / retired by position pos. */
uint64_t viz_model_dispatched(const VizModel *m, uint32_t pos);
uint64_t viz_model_retired(const VizModel *m, uint32_t pos);

/* ---- warps (level warps and up) --------------------------------------- */
/* State of warp `warp` of `block` at pos. */
void viz_model_warp_state(const VizModel *m, uint64_t block, uint32_t warp, uint32_t pos, VizWarpState *out);
/* The trace carries warp states (written with the timing model). */
bool viz_model_has_states(const VizModel *m);
/* What warp `warp` of `block` did at cycle `cycle`: TRACE_STATE_* (SELECTED is
 * issuing, the others Nsight Compute's stall reasons), *since (may be NULL)
 * the cycle that run began; -1 when no state record covers that cycle (not
 * dispatched, exited, or an untimed trace).  O(log records). */
int viz_model_warp_stall(const VizModel *m, uint64_t block, uint32_t warp, uint64_t cycle, uint64_t *since);
/* Threads of block arrived at barrier id and not yet released at pos. */
uint32_t viz_model_barrier_waiting(const VizModel *m, uint64_t block, uint32_t id, uint32_t pos);

/* ---- memory (level memory) ------------------------------------------- */
/* The last access before pos by warp of block in shared memory (shared true)
 * or in global, generic or local memory (shared false), into *out: true, or
 * false when there is none. */
bool viz_model_last_access(const VizModel *m, uint64_t block, uint32_t warp, bool shared, uint32_t pos,
                           VizAccess *out);
/* The block of the last shared (shared true) or global access before pos, in
 * any block: true, or false when none. */
bool viz_model_last_access_block(const VizModel *m, bool shared, uint32_t pos, uint64_t *block);
uint64_t viz_model_naccesses(const VizModel *m);

/* ---- atomics (level memory) ------------------------------------------- */
/* Addresses updated atomically, ordered by number of updates (most first). */
uint32_t viz_model_natomic_addrs(const VizModel *m);
const VizAtomicAddr *viz_model_atomic_addr(const VizModel *m, uint32_t i);
const VizAtomic *viz_model_atomic(const VizModel *m, uint32_t i);
/* Updates of address a applied before pos (a prefix of its queue). */
uint32_t viz_model_atomics_done(const VizModel *m, const VizAtomicAddr *a, uint32_t pos);

/* ---- tile operations (viz_tiles.c; every level) ------------------------ */
/* One TRACE_EV_TILE record as stored: the fields of TraceEvent.u.tile, its
 * listed elements at viz_model_tile_elem(m, first .. first + nlisted - 1),
 * and its one-line summary (trace_tile_summary). */
typedef struct {
    uint64_t block;
    uint32_t pos;            /* its event index */
    uint8_t op, dtype, rank, sub, order, scope;
    uint32_t seq;
    int32_t ti, tj;
    uint32_t rows, cols, tm, tn, tk;
    uint64_t base;
    uint32_t nelem, special;
    uint32_t first, nlisted;
    char summary[200];
} VizTile;

/* Tile records in file order, and how many of them come before pos. */
uint32_t viz_model_ntiles(const VizModel *m);
const VizTile *viz_model_tile(const VizModel *m, uint32_t i);
uint32_t viz_model_tiles_done(const VizModel *m, uint32_t pos);
const TraceTileElem *viz_model_tile_elem(const VizModel *m, uint32_t k);

/* ---- faults and race findings ----------------------------------------- */
uint32_t viz_model_nfindings(const VizModel *m);   /* at most 256 are kept */
const VizFinding *viz_model_finding(const VizModel *m, uint32_t i);

/* An atomic's value as text: decimal when small, else hex (the trace does not
 * say whether the bits are an integer or a float).  Returns buf. */
char *viz_model_format_value(uint64_t v, unsigned size, char *buf, size_t cap);

/* ---- source text (for the SM view) ------------------------------------ */
/* Line `line` of .cu file string index file, read from the path the trace
 * names (relative to the working directory): into buf without the newline,
 * true; false when the file or line cannot be read. */
bool viz_model_source_line(const VizModel *m, uint32_t file, uint32_t line, char *buf, size_t cap);

#endif
