/* trace.h: execution traces, format v3 (specified byte by byte in
 * traces/FORMAT.md).  The executor writes one through TraceWriter while a
 * launch runs (hooks in exec_*.c, only when DeviceLaunch.trace_path is set);
 * everything else -- `warpsim trace dump/export`, the tests, later the
 * visualizer -- reads one through TraceReader and never parses bytes itself.
 *
 * A trace is: header (magic "WSTRACE1", version, level, launch description),
 * string table (kernel, arch, source files), then length-prefixed event
 * records, then one END record carrying the event count and a CRC-32.  The
 * reader validates the whole file when it opens it, so a truncated or
 * corrupt trace is a SIM_ERR_PARSE naming the byte offset, never a crash. */
#ifndef WARPSIM_TRACE_H
#define WARPSIM_TRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "error.h"

#define TRACE_MAGIC "WSTRACE1"
#define TRACE_VERSION 3          /* the newest version written; the reader reads 1..3
                                    (v2 added the TILE record, v3 the states flag and
                                    the WARP_STATE record).  The writer writes the
                                    oldest version that describes its file: 3 only
                                    when the trace carries warp states (timing), so
                                    untimed traces are v2, byte for byte as before */
#define TRACE_VERSION_MIN 1
#define TRACE_FLAG_STATES 0x01u  /* header flags bit (v3): the trace carries warp
                                    states (TRACE_EV_WARP_STATE; written under the
                                    timing model) */
#define TRACE_NONE 0xffffffffu  /* "no string" / "unknown" in a uint32_t field */

/* Levels of detail; each includes everything of the ones before it. */
typedef enum {
    TRACE_LEVEL_BLOCKS = 0,       /* block dispatch/retire, faults, races */
    TRACE_LEVEL_WARPS = 1,        /* + warp turns, issues that change the active
                                     lanes (divergence, reconvergence), barriers,
                                     warp collectives */
    TRACE_LEVEL_INSTRUCTIONS = 2, /* + every warp instruction issued */
    TRACE_LEVEL_MEMORY = 3        /* + every memory access (address summary, bank
                                     conflicts) and atomic element update */
} TraceLevel;

/* Event record types (the type byte of a record). */
typedef enum {
    TRACE_EV_BLOCK_DISPATCH = 0x01,
    TRACE_EV_BLOCK_RETIRE = 0x02,
    TRACE_EV_WARP_TURN = 0x03,    /* a warp ran `count` instructions from `cycle` */
    TRACE_EV_ISSUE = 0x04,        /* a warp issued one instruction */
    TRACE_EV_MEM = 0x05,          /* a warp's memory access */
    TRACE_EV_ATOMIC = 0x06,       /* one atomic element update */
    TRACE_EV_BAR_ARRIVE = 0x07,
    TRACE_EV_BAR_RELEASE = 0x08,
    TRACE_EV_COLLECTIVE = 0x09,   /* shfl/vote/match/redux/activemask */
    TRACE_EV_FAULT = 0x0a,
    TRACE_EV_RACE = 0x0b,         /* a race finding */
    TRACE_EV_TILE = 0x0c,         /* a block passed one tile operation of
                                     lessons/include/tile.cuh (v2, every level) */
    TRACE_EV_WARP_STATE = 0x0d,   /* a warp's states over the cycles up to `cycle`
                                     (v3, level warps and up, timed traces only) */
    TRACE_EV_END = 0xff,          /* last record; never returned by trace_next */
    TRACE_EV_UNKNOWN = 0x100      /* a record of a type this reader does not know
                                     (skipped; u.unknown says which) */
} TraceEventType;

/* Memory access kinds (TRACE_EV_MEM). */
enum { TRACE_MEM_LOAD = 0, TRACE_MEM_STORE, TRACE_MEM_ATOMIC, TRACE_MEM_CP_ASYNC, TRACE_MEM_KIND_COUNT };
/* State spaces (TRACE_EV_MEM, TRACE_EV_ATOMIC, TRACE_EV_RACE). */
enum { TRACE_SPACE_GENERIC = 0, TRACE_SPACE_GLOBAL, TRACE_SPACE_SHARED, TRACE_SPACE_LOCAL,
       TRACE_SPACE_CONST, TRACE_SPACE_PARAM, TRACE_SPACE_COUNT };
/* Address summaries (TRACE_EV_MEM): lane l's address is base + stride * l,
 * or one address per active lane. */
enum { TRACE_ADDR_STRIDE = 0, TRACE_ADDR_LIST = 1 };
/* Atomic operations (TRACE_EV_ATOMIC), PTX order. */
enum { TRACE_ATOM_ADD = 0, TRACE_ATOM_MIN, TRACE_ATOM_MAX, TRACE_ATOM_AND, TRACE_ATOM_OR,
       TRACE_ATOM_XOR, TRACE_ATOM_EXCH, TRACE_ATOM_CAS, TRACE_ATOM_INC, TRACE_ATOM_DEC,
       TRACE_ATOM_COUNT };
/* Warp collectives (TRACE_EV_COLLECTIVE); mode is the PTX sub-operation
 * (shfl up/down/bfly/idx, vote all/any/uni/ballot, match any/all, redux
 * add/min/max/and/or/xor). */
enum { TRACE_COLL_SHFL = 0, TRACE_COLL_VOTE, TRACE_COLL_MATCH, TRACE_COLL_REDUX,
       TRACE_COLL_ACTIVEMASK, TRACE_COLL_COUNT };

/* Tile operations (TRACE_EV_TILE). */
enum { TRACE_TILE_LOAD = 0, TRACE_TILE_STORE, TRACE_TILE_GATHER, TRACE_TILE_SCATTER, TRACE_TILE_ATOM,
       TRACE_TILE_REDUCE, TRACE_TILE_MATMUL, TRACE_TILE_COUNT };
/* Warp states (TRACE_EV_WARP_STATE): what a warp did in a cycle, under
 * Nsight Compute's names (trace_state_name: "long_scoreboard", ...).
 * SELECTED is issuing; every other state is a stall for that reason.  The
 * numbering is the timing model's (DEVICE_STALL_* in device.h). */
enum { TRACE_STATE_LONG_SCOREBOARD = 0, TRACE_STATE_SHORT_SCOREBOARD, TRACE_STATE_WAIT, TRACE_STATE_BARRIER,
       TRACE_STATE_MEMBAR, TRACE_STATE_MATH_PIPE_THROTTLE, TRACE_STATE_LG_THROTTLE, TRACE_STATE_MIO_THROTTLE,
       TRACE_STATE_NOT_SELECTED, TRACE_STATE_SELECTED, TRACE_STATE_DISPATCH, TRACE_STATE_SLEEPING,
       TRACE_STATE_MISC, TRACE_STATE_COUNT };
/* At most this many runs in one warp-state record. */
#define TRACE_STATES_MAX 32

/* Element states in a tile record's list. */
enum { TRACE_TILE_ELEM_OK = 0, TRACE_TILE_ELEM_MASKED, TRACE_TILE_ELEM_OUTSIDE, TRACE_TILE_ELEM_COUNT };
/* Element types of tiles (tile.cuh's codes): 1 bool, 2 s32, 3 u32, 4 s64,
 * 5 u64, 6 f32, 7 f64. */
#define TRACE_TILE_DTYPE_MAX 7
/* At most this many elements are listed in one tile record. */
#define TRACE_TILE_MAX_LISTED 4096

/* One listed element of a tile record.  gather/scatter: every element of the
 * tile.  atom: the updates in the order they were applied (the atomic-order
 * policy's choice), then the elements that were skipped. */
typedef struct {
    uint32_t elem;              /* element number in the tile (row-major) */
    int64_t index;              /* the array index it named */
    uint8_t state;              /* TRACE_TILE_ELEM_* */
    uint8_t updated;            /* atom: this entry is an applied update */
    uint32_t thread;            /* updated: the thread (in the block) that applied it */
    uint64_t old, val;          /* updated: the value before and after */
} TraceTileElem;

/* The launch a trace describes (the header). */
typedef struct {
    uint8_t level;              /* TraceLevel */
    uint8_t flags;              /* TRACE_FLAG_* (0 in v1/v2 files) */
    uint32_t arch;              /* string index: "sm_90" */
    uint32_t kernel;            /* string index: the PTX entry name */
    uint32_t grid[3], block[3];
    uint32_t dyn_smem;          /* dynamic shared memory per block, bytes */
    uint32_t static_smem;       /* static shared memory per block, bytes */
    uint32_t regs;              /* registers per thread, TRACE_NONE unknown */
    uint32_t ptx_regs;          /* value registers the kernel's PTX declares */
    uint32_t sm_count;          /* SMs of the arch profile (dispatch events say
                                   which SM each block ran on) */
    uint32_t warp_size;         /* 32 */
} TraceLaunch;

/* One event.  cycle is the launch's cycle clock (see FORMAT.md);
 * block is the linear block index x + gx * (y + gy * z). */
typedef struct {
    int type;                   /* TraceEventType */
    uint64_t cycle;
    uint64_t block;
    uint64_t offset;            /* reader: byte offset of the record in the file */
    union {
        struct { uint32_t sm; } blk;                    /* DISPATCH, RETIRE */
        struct { uint32_t warp, count; } turn;          /* WARP_TURN */
        struct {
            uint32_t warp, pc, mask;
            uint32_t ptx_line;                          /* 0 unknown */
            uint32_t file, line;                        /* .cu source: string index
                                                           (TRACE_NONE none), line */
        } issue;
        struct {
            uint32_t warp, pc, mask;
            uint8_t kind, space, size;                  /* size: bytes per lane */
            uint8_t form;                               /* TRACE_ADDR_*: set by the reader
                                                           (the writer chooses) */
            uint8_t conflict;                           /* shared: bank conflict degree
                                                           (1 none, 2..32); 0 otherwise */
            uint64_t base;                              /* STRIDE form (reader) */
            int64_t stride;
            uint64_t addr[32];                          /* every active lane's address */
        } mem;
        struct {
            uint32_t warp, lane, pc;
            uint8_t op, space, size;
            uint64_t addr, old, val;                    /* value before and after */
            uint64_t order;                             /* 0, 1, 2, ... across the launch */
        } atom;
        struct { uint32_t warp, id, mask, arrived; } arrive; /* arrived: threads so far */
        struct { uint32_t id, released; } release;      /* released: threads */
        struct { uint32_t warp, pc, mask, member; uint8_t kind, mode; } coll;
        struct {
            uint32_t warp, lane, pc;                    /* TRACE_NONE when none */
            uint64_t addr;
            const char *kind; uint32_t kind_len;        /* not NUL-terminated */
            const char *msg; uint32_t msg_len;
        } fault;
        struct {
            uint32_t warp, lane, pc, other_warp, other_lane;
            uint8_t space;
            uint64_t addr;
            const char *msg; uint32_t msg_len;
        } race;
        struct {
            uint8_t op;                                 /* TRACE_TILE_* */
            uint8_t dtype;                              /* 1..TRACE_TILE_DTYPE_MAX */
            uint8_t rank;                               /* 1 or 2 */
            uint8_t sub;                                /* load/gather: Pad (0 zero, 1 -0,
                                                           2 nan, 3 +inf, 4 -inf); atom:
                                                           TRACE_ATOM_* (XCHG is EXCH);
                                                           reduce: 0 sum, 1 max, 2 min */
            uint8_t order, scope;                       /* atom: tile::Order, tile::Scope */
            uint32_t seq;                               /* the block's seq-th tile operation */
            int32_t ti, tj;                             /* load/store: tile-space index
                                                           (rank 1: ti 0, tj the index) */
            uint32_t rows, cols;                        /* the array's extent (rank 1: 1 x n) */
            uint32_t tm, tn, tk;                        /* the tile's shape M x N (rank 1:
                                                           1 x N); matmul: (M x K)(K x N) */
            uint64_t base;                              /* the array's address */
            uint32_t nelem;                             /* elements of the tile */
            uint32_t special;                           /* load: padded; store: dropped;
                                                           gather: padded (masked or outside);
                                                           scatter: dropped; atom: skipped */
            uint32_t nlisted;                           /* listed elements (<= nelem) */
            const TraceTileElem *list;                  /* writer: the nlisted entries */
            const uint8_t *enc;                         /* reader: their encoding (decode
                                                           with trace_tile_elems) */
            uint32_t enc_len;
        } tile;
        struct {
            uint32_t warp;
            uint32_t n;                                 /* runs, 1..TRACE_STATES_MAX */
            uint8_t state[TRACE_STATES_MAX];            /* TRACE_STATE_*, oldest first */
            uint32_t cycles[TRACE_STATES_MAX];          /* >= 1 each; the last run ends
                                                           at `cycle` (inclusive) */
        } states;                                       /* WARP_STATE */
        struct { uint32_t code, len; } unknown;         /* TRACE_EV_UNKNOWN */
    } u;
} TraceEvent;

/* ---- writing (trace_write.c) ------------------------------------------- */
typedef struct TraceWriter TraceWriter;

/* Create path and write header and string table (strings[0..nstrings),
 * NUL-terminated; NULL is written as "").  NULL with SIM_ERR_IO (or
 * SIM_ERR_USAGE for a bad level) in err. */
TraceWriter *trace_writer_open(const char *path, const TraceLaunch *l, const char *const *strings,
                               uint32_t nstrings, SimError *err);
/* The level it was opened with. */
int trace_writer_level(const TraceWriter *t);
/* Append one event (type other than END/UNKNOWN).  For TRACE_EV_MEM the
 * writer reads mask and addr[] and picks the address form itself.  Write
 * errors are remembered and reported by trace_writer_close. */
void trace_write_event(TraceWriter *t, const TraceEvent *ev);
/* Write the END record (status: 0 clean, 1 the launch faulted), close, free.
 * SIM_OK, or SIM_ERR_IO when any write failed (the file is then incomplete). */
SimStatus trace_writer_close(TraceWriter *t, int status, SimError *err);

/* Helpers for the executor's hooks (the executor decides what to write). */
/* hold: keep the events written from now on; !hold: write them out in
 * cycle order (stable), as the format requires.  The executor runs SMs a
 * slice of cycles at a time, one after another, and holds each slice. */
void trace_writer_hold(TraceWriter *t, bool hold);
/* The launch ran until `cycle`: the END record carries it (at least). */
void trace_writer_advance(TraceWriter *t, uint64_t cycle);
/* Block dispatch and retire records. */
void trace_block_begin(TraceWriter *t, uint64_t block, uint32_t sm, uint64_t cycle);
void trace_block_end(TraceWriter *t, uint64_t block, uint32_t sm, uint64_t cycle);
/* An issue record: warp of block issued lanes mask at pc. */
void trace_issue(TraceWriter *t, uint64_t block, uint32_t warp, uint64_t cycle, uint32_t pc, uint32_t mask,
                 uint32_t ptx_line, uint32_t file, uint32_t line);
/* The next atomic order number. */
uint64_t trace_next_atomic_order(TraceWriter *t);

/* ---- reading (trace_read.c) -------------------------------------------- */
typedef struct TraceReader TraceReader;

/* The END record's checksum: zlib's CRC-32 of crc (0 to start) continued over
 * n bytes of data. */
uint32_t trace_crc32(uint32_t crc, const void *data, size_t n);

enum { TRACE_READ_NO_CRC = 1 };  /* skip the CRC check (fuzzing only) */

/* The largest trace file trace_open_file reads (it holds the whole file in
 * memory): a bigger one is refused before anything is read ("the trace is
 * 3 GiB, over the 2 GiB limit"); record such a run at a lower --trace-level. */
#define TRACE_READ_MAX ((size_t)2 << 30)

/* Open and validate a whole trace.  name labels errors.  On bad input:
 * NULL and SIM_ERR_PARSE with the byte offset in err->msg ("byte 123:
 * ..."), also in err->col; SIM_ERR_IO when the file cannot be read, is
 * not a regular file (a device, a FIFO: refused before any read) or is over
 * TRACE_READ_MAX bytes.
 * trace_open_mem copies data. */
TraceReader *trace_open_file(const char *path, SimError *err);
TraceReader *trace_open_mem(const char *name, const void *data, size_t len, unsigned flags,
                            SimError *err);
void trace_close(TraceReader *r);

const TraceLaunch *trace_launch(const TraceReader *r);
uint32_t trace_nstrings(const TraceReader *r);
/* String i (NUL-terminated, owned by r), or "" when i is out of range. */
const char *trace_string(const TraceReader *r, uint32_t i);
uint64_t trace_nblocks(const TraceReader *r);   /* grid x * y * z */
uint64_t trace_nevents(const TraceReader *r);   /* records before END */
int trace_end_status(const TraceReader *r);      /* END's status: 0 clean, 1 faulted */
unsigned trace_version(const TraceReader *r);    /* the file's format version, 1..3 */
uint64_t trace_end_cycle(const TraceReader *r);  /* END's cycle: the launch's length */
size_t trace_size(const TraceReader *r);         /* bytes */

/* Start over at the first event. */
void trace_rewind(TraceReader *r);
/* The next event into *ev: true, or false after the last one.  Strings in
 * ev point into r.  (The whole file was validated at open: no errors.) */
bool trace_next(TraceReader *r, TraceEvent *ev);

/* The listed elements of a TRACE_EV_TILE event from trace_next: up to cap
 * into out (in record order); returns how many were written.  (The reader
 * validated them at open.) */
uint32_t trace_tile_elems(const TraceEvent *ev, TraceTileElem *out, uint32_t cap);

/* One line describing a TRACE_EV_TILE event into buf (always terminated):
 * "load f32 tile 2 of 64 in [150]: 42 padded (nan)", "atom.add s32 256
 * elements on [300] (relaxed, block scope): 240 updates, 16 skipped", ...
 * Returns buf. */
char *trace_tile_summary(const TraceEvent *ev, char *buf, size_t cap);

/* Names for text output: "dispatch", "global", "add", "shfl", "blocks"... */
const char *trace_event_name(int type);
const char *trace_level_name(int level);
int trace_level_parse(const char *name);         /* -1 when unknown */
const char *trace_space_name(int space);
const char *trace_mem_kind_name(int kind);
const char *trace_atom_op_name(int op);
const char *trace_coll_name(int kind);
const char *trace_tile_op_name(int op);          /* "load", "atom", ... */
const char *trace_tile_dtype_name(int dtype);    /* "f32", "s32", ... */
const char *trace_tile_pad_name(int pad);        /* "zero", "-0", "nan", "+inf", "-inf" */
const char *trace_state_name(int state);         /* "long_scoreboard", ..., "selected";
                                                    "?" outside TRACE_STATE_COUNT */

/* ---- text and Perfetto JSON (trace_text.c) ----------------------------- */

/* Write the whole of r to f as text: a header (kernel, arch, level, shape,
 * registers, SMs), the string table, counts, then one event a line
 * ("cycle block name details"; an event of a later format is named and
 * skipped).  Starts from the first event (rewinds r); never fails. */
void trace_dump_text(FILE *f, TraceReader *r);

/* Write r to f as Chrome trace-event JSON (Perfetto, chrome://tracing): one
 * process per SM with its blocks' spans on thread 0 and one thread per warp
 * with its turns (level warps and up), instants for barriers, faults, races
 * and issues; 1 microsecond on the time axis is one cycle of the trace.
 * Rewinds r.  SIM_OK; SIM_ERR_NOMEM before anything is written; SIM_ERR_IO
 * when f reports an error (the file is then incomplete). */
SimStatus trace_export_perfetto(FILE *f, TraceReader *r, SimError *err);

#endif
