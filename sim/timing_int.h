/* timing_int.h: internals shared by the timing model's files (timing_*.c):
 * the per-launch model, the per-SM and per-warp timing state, and the
 * units' interfaces.  One file per hardware unit: timing_scheduler.c (the
 * four sub-partition schedulers: who issues, and when), timing_issue.c
 * (what an issue does: stall accounting, pipes, results),
 * timing_scoreboard.c (instruction classes and register readiness),
 * timing_coalescer.c, timing_smem.c, timing_l1.c, timing_l2.c,
 * timing_dram.c, timing_atomics.c, timing_lsu.c (the path of one warp
 * access through them), timing_dispatch.c (launch, blocks,
 * occupancy, the results), timing_defer.c (the shared units' answers kept
 * for the round's end, so that a round's SMs may run side by side). */
#ifndef WARPSIM_TIMING_INT_H
#define WARPSIM_TIMING_INT_H

#include <stdbool.h>
#include <stdint.h>

#include "device.h"
#include "timing.h"

/* ---- bandwidth in time windows (timing_dram.c) ------------------------------
 * Requests may arrive out of time order (SMs are simulated a slice at a
 * time), so a shared resource's bandwidth is kept per window of
 * TIMING_BW_WINDOW cycles: a request takes room in the first window at or
 * after its time that has room left. */
#define TIMING_BW_WINDOW 32
typedef struct {
    double per_window;        /* bytes one window carries */
    float *used;              /* bytes taken per window (grown on demand) */
    uint64_t n;               /* windows allocated */
    uint64_t *skip;           /* per window: itself when not full, else a later
                                 window to look at (path-halved) */
    bool nomem;               /* growing failed: requests then pass unthrottled */
} TimingBw;

void timing_bw_init(TimingBw *b, double bytes_per_cycle);
void timing_bw_free(TimingBw *b);
/* Reserve bytes at or after cycle t; returns the cycle the transfer starts. */
uint64_t timing_bw_reserve(TimingBw *b, uint64_t t, unsigned bytes);

/* ---- caches (timing_l1.c, timing_l2.c) ------------------------------------ */
#define TIMING_NO_TAG 0u
typedef struct {
    uint32_t tag;             /* line address (byte address >> 7), valid when sectors */
    uint8_t sectors;          /* valid 32-byte sectors */
    uint8_t dirty;            /* sectors written and not yet in DRAM (L2) */
    uint64_t ready;           /* data of a fill arrives at this cycle */
} TimingLine;

typedef struct {
    TimingLine *lines;        /* sets x ways */
    uint32_t *lru;            /* sets x ways: last use stamp of each line */
    uint32_t *tags;           /* sets x ways: key of each valid line (its tag's low
                                 31 bits + 1), else TIMING_NO_TAG -- zero, so a new
                                 cache costs no writes (scanned first: one cache line
                                 a set) */
    uint32_t sets, ways;      /* sets: a power of two (L1) or any count (L2) */
    uint32_t set_mask;        /* sets - 1 when sets is a power of two, else 0 */
    uint32_t stamp;
    uint64_t bytes;           /* capacity modelled */
} TimingCache;

/* Capacity bytes of 128-byte lines, at least min_ways per set, sets a power
 * of two when pow2.  false when out of memory.  A capacity of 0 gives a
 * cache that always misses. */
bool timing_cache_init(TimingCache *c, uint64_t bytes, int min_ways, bool pow2);
void timing_cache_free(TimingCache *c);
/* The line holding tag, or NULL. */
TimingLine *timing_cache_find(TimingCache *c, uint32_t tag);
/* A line for tag (found, or a victim -- LRU -- cleared for it); *evicted
 * gets the dirty sectors of the victim it replaced (0 none). */
TimingLine *timing_cache_fill(TimingCache *c, uint32_t tag, uint8_t *evicted);
/* The fill in two steps, one pass over the set: the line holding tag (as
 * timing_cache_find), else NULL and *victim the line a fill would take
 * (UINT32_MAX: a cache of no capacity); then, the cache unchanged between
 * the two, timing_cache_claim clears that line for tag as the fill does. */
TimingLine *timing_cache_lookup(TimingCache *c, uint32_t tag, uint32_t *victim);
TimingLine *timing_cache_claim(TimingCache *c, uint32_t victim, uint32_t tag, uint8_t *evicted);
static inline void timing_cache_touch(TimingCache *c, TimingLine *l) { c->lru[l - c->lines] = ++c->stamp; }

/* The sectors set in a line's 4-bit sector mask (a nibble table: without
 * -mpopcnt __builtin_popcount is a libgcc call, and this is per line). */
static inline unsigned timing_nsectors(unsigned s) { return (unsigned)(0x4332322132212110ull >> (4 * (s & 15))) & 15; }

typedef struct TimingModel TimingModel;

/* L1 of one SM: a global/local load of sectors of one line at cycle t (the
 * request's L1 lookup time); returns when its data is back in registers.
 * Misses go to L2; *missed (may be NULL) gets the sectors that did.  Stores
 * write through (no allocation). */
uint64_t timing_l1_load(TimingModel *tm, int sm, uint64_t t, uint32_t line, uint8_t sectors, uint8_t *missed);
void timing_l1_store(TimingModel *tm, int sm, uint64_t t, uint32_t line, uint8_t sectors);
void timing_l1_invalidate(TimingModel *tm, int sm, uint32_t line);

enum { TIMING_L2_LOAD, TIMING_L2_STORE, TIMING_L2_ATOMIC };
/* Sectors of one line reach L2 at cycle t from SM sm; returns when the
 * answer is back at the SM. */
uint64_t timing_l2_access(TimingModel *tm, int sm, uint64_t t, uint32_t line, uint8_t sectors, int op);

/* DRAM: bytes of L2 line `line` read (write false) or written back at cycle
 * t for SM sm (-1: none); returns when the data is at L2 (TP_DRAM_LAT plus a
 * share of TP_DRAM_SPREAD fixed by the line).  SMs are simulated a slice at
 * a time: a request for a time further than TIMING_AHEAD past its SM's clock
 * (an L1 with a deep queue works that far ahead) takes at most its SM's share
 * of the bandwidth (over the SMs holding blocks), as every SM streaming at
 * once gets on hardware; otherwise the SM simulated first would take the
 * bandwidth of the others' earlier requests. */
#define TIMING_AHEAD 256
uint64_t timing_dram_access(TimingModel *tm, int sm, uint64_t t, unsigned bytes, bool write, uint32_t line);

/* Global atomics of one warp instruction at L2, per-address serialised:
 * lanes of mask updating addr[lane] (size bytes) at cycle t from SM sm.
 * Returns when the last result is back at the SM; *sent (may be NULL) gets
 * when its last update left the SM (an SM has at most TP_ATOM_OUTSTANDING
 * updates sent and not yet performed: the warp drains until then). */
uint64_t timing_atomics_global(TimingModel *tm, int sm, uint64_t t, uint32_t mask, const uint64_t addr[32],
                               unsigned size, uint64_t *sent);
/* The constant cache of SM sm (timing_l2.c), cold at launch: a read of
 * bank's byte off at cycle t; returns when its value is ready (a hit: t +
 * lat_int, an operand; a miss fetches its 32-byte sector through the L2, and
 * reads of it meanwhile wait for that). */
uint64_t timing_const_read(TimingModel *tm, int sm, uint64_t t, int bank, uint64_t off);

/* Shared-memory atomics: the extra cycles same-address lanes serialise. */
int timing_atomics_shared_serial(uint32_t mask, const uint64_t addr[32]);

/* TimingInst.hz (timing_hoist.c).  ptxas also moves independent loads, and
 * the address arithmetic feeding them, above an instruction that waits for
 * a load (the four loads of a tile, then its four shared stores).  The model
 * does it as ptxas does, for a converged warp: while its next instruction
 * waits for operands, a later instruction of the same straight run may issue
 * first (it executes then, and is skipped when the warp gets there) when it
 * reads nothing the instructions before it write, writes nothing they read
 * or write, and loads from a space none of them may store to.
 * TIMING_HZ_STOP: nothing moves above it (branches, barriers, fences, warp
 * collectives, atomics, ordered or volatile accesses, clock reads);
 * TIMING_HZ_CAND: it may move (register-only work, loads of global, local,
 * shared, constant and parameter memory). */
enum { TIMING_HZ_STOP = 1, TIMING_HZ_CAND = 2 };
enum { TIMING_SP_GLOBAL = 1, TIMING_SP_SHARED = 2, TIMING_SP_LOCAL = 4, TIMING_SP_ANY = 7 };
#define TIMING_HOIST_WINDOW 31 /* instructions looked at past the waiting one (bits of ahead) */
#define TIMING_HOIST_CANDS 4   /* candidates kept per (pc, ahead) */

/* ---- per-pc instruction facts (timing_scoreboard.c) ------------------------ */
#define TIMING_MAX_SRC 12
#define TIMING_MAX_DST 5
typedef struct {
    uint8_t cls;              /* TimingClass */
    uint8_t space;            /* PtxSpace of a memory access */
    uint8_t bytes;            /* bytes per lane of a memory access */
    uint8_t sub;              /* TC_CP_WAIT: 0 commit, 1 wait_group, 2 wait_all, 3 other */
    uint8_t flags;            /* TIMING_DEFER, TIMING_FENCE */
    uint8_t cbank;            /* TC_CONST: the constant bank (0 parameters and launch
                                 constants, 4 global variables' addresses) */
    uint32_t coff;            /* TC_CONST: the byte offset in it */
    uint8_t hz;               /* TIMING_HZ_*: what load hoisting may do with it */
    uint8_t nc0;              /* the candidates a warp stalled here may issue ahead
                                 when none was issued ahead yet: their count, */
    uint8_t c0[TIMING_HOIST_CANDS]; /* and their distances past this pc */
    uint8_t wsp, rsp;         /* TIMING_SP_* bits: spaces it may write; spaces a
                                 hoistable load reads (0: nothing another
                                 instruction could write) */
    uint8_t nsrc, ndst;
    uint16_t src[TIMING_MAX_SRC]; /* scoreboard entries read */
    uint16_t dst[TIMING_MAX_DST]; /* scoreboard entries written */
} TimingInst;

/* TimingInst.flags.  ptxas schedules each basic block: the independent
 * instructions after a stalled consumer (a load's `add`) are issued before it
 * (the loads of an unrolled loop all issue, then their adds).  The model does
 * the same without reordering the PTX: a register-only instruction whose
 * operands are not ready (TIMING_DEFER) does not hold its warp, which goes on;
 * its result is ready when its operands are plus its latency; and an
 * instruction ptxas cannot move anything across (a branch, a block's first
 * instruction, a barrier, a clock read: TIMING_FENCE) waits until every
 * deferred instruction of its warp could have issued.  Only register-only
 * instructions: a store deferred so would be seen by other warps before its
 * data could be there (a racy kernel's race would show less than on
 * hardware). */
enum { TIMING_DEFER = 1, TIMING_FENCE = 2 };


/* Scoreboard entry kinds: which stall a wait for it counts as. */
enum { TIMING_SB_FIXED, TIMING_SB_SHORT, TIMING_SB_LONG };

/* ---- per warp, per SM ------------------------------------------------------ */
#define TIMING_GROUPS 8
typedef struct {
    uint64_t last;            /* cycle of its last issue (or its dispatch) */
    uint64_t min_issue;       /* it may not issue before this (dispatch, barrier,
                                 membar, cp.async wait) */
    uint8_t min_reason;       /* the DEVICE_STALL_* of min_issue */
    int32_t cached_pc;        /* dep_ready below is for this pc, -1 none */
    int32_t npc;              /* a diverged warp's next pc (exec_next_group), -1
                                 unknown: it changes only when the warp issues or
                                 a barrier releases it */
    uint64_t dep_ready;       /* its next instruction's operands are ready */
    uint8_t dep_reason;
    uint8_t dep_kind;         /* the TIMING_SB_* of the entry dep_ready waits for */
    uint8_t defer_reason;     /* the stall a wait for defer_until is */
    uint64_t defer_until;     /* its deferred instructions (TIMING_DEFER) have
                                 all issued by then: a fence waits for it */
    bool active;              /* counted in occupancy (dispatched, not exited) */
    uint64_t start;           /* when it became active */
    uint64_t mem_done;        /* its memory operations are complete by then */
    uint64_t open_group;      /* cp.async: completion of the open group */
    uint64_t groups[TIMING_GROUPS]; /* committed groups' completions, newest last */
    int ngroups;
    uint64_t age;             /* dispatch order (oldest first) */
    uint64_t drain;           /* its stores and atomics have left the SM by then:
                                 after its exit it stays resident until then */
    uint32_t ahead;           /* bit d: instruction upc + d issued ahead of upc
                                 (hoisted, timing_hoist.c): skipped there */
    int32_t hoist;            /* the pc + 1 pick chose to issue ahead (0: upc) */
    bool hz_valid;            /* hz_cand holds the candidates for (hz_pc, ahead) */
    uint8_t hz_n;
    uint8_t hz_cand[TIMING_HOIST_CANDS]; /* their distances past hz_pc */
    int32_t hz_pc;
    uint64_t hz_when;         /* no candidate's operands are ready before this (0:
                                 not known; reset when it issues) */
    bool pend;                /* holds values pending until the round's end
                                 (timing_defer.c): on its SM's list of such warps */
} TimingWarp;

/* ---- deferred results of the shared units (timing_defer.c) -----------------
 * SMs run a round's slice (at most TIMING_SLICE cycles) one after another,
 * or side by side (exec_par.c); the L2 and DRAM they share answer no sooner
 * than the L2 hit latency, longer than a slice.  So inside a slice an SM
 * never needs the value of an answer: it stores it, compares it with its
 * clock (not ready) and combines it with max, min and +.  With deferral on
 * (TimingModel.defer) an L2 request goes to its SM's outbox and its answer
 * is pending: a value with TIMING_PEND set whose low bits name a node of
 * the SM's (the answer, or max/min/+ of values).  At the round's end
 * (timing_round_end, on one thread) the outboxes are performed in SM order
 * and issue order -- the order the serial model sends them in -- the nodes
 * are evaluated and every place holding a pending value gets its number.
 * A pending value compared with the SM's clock inside the slice reads as
 * later (its true value is past the round's end, which timing_round_end
 * checks); every other use goes through the timing_v* calls below. */
#define TIMING_PEND (1ull << 63) /* (top bits 10: UINT64_MAX, "never", is no node) */
#define TIMING_TAG_NODE 0xff  /* a tag: the one its value's node computes */
static inline bool timing_pend(uint64_t v) { return (v >> 62) == 2; }

/* A value with a tag (a scoreboard kind or a stall reason) that follows it
 * through maxima: the kind of the latest operand, the reason of the latest
 * wait. */
typedef struct {
    uint64_t v;
    uint8_t tag;              /* a TIMING_SB_* or DEVICE_STALL_*, or TIMING_TAG_NODE */
} TimingTv;

enum { TIMING_N_REQ, TIMING_N_MAX, TIMING_N_MIN, TIMING_N_ADD, TIMING_N_KMAX, TIMING_N_REASON };
typedef struct {
    uint8_t op;               /* TIMING_N_* */
    uint8_t ta, tb;           /* tags of a and b (TIMING_TAG_NODE: their nodes') */
    uint8_t tag;              /* its tag, once evaluated */
    uint64_t a, b;            /* operands (values; ADD: a + b, b a number) */
    uint64_t lb;              /* its value is at least this (known when made) */
    uint64_t val;             /* its value, once evaluated */
} TimingNode;

enum { TIMING_REQ_L2, TIMING_REQ_IDLE };
/* One request of an SM's outbox: an L2 access (timing_l2_access's
 * arguments, the SM's clock then, the node its answer goes to), or the SM
 * holding no block any more (TIMING_REQ_IDLE: TimingModel.active_sms). */
typedef struct {
    uint8_t kind, op, sectors;
    uint32_t line, node;
    uint64_t t, clock;
} TimingReq;

enum { TIMING_PATCH_SB, TIMING_PATCH_U64, TIMING_PATCH_ADD };
/* A place in the big arrays (scoreboards, L1 lines) or a sum that got a
 * pending value: TIMING_PATCH_SB a scoreboard entry (its kind beside it),
 * TIMING_PATCH_U64 a cycle, TIMING_PATCH_ADD a sum the value is added to. */
typedef struct {
    uint8_t kind;
    uint32_t node;
    void *at;
} TimingPatch;

/* Scoreboard kinds (TimingModel.sbk) of a pending entry: its sb holds the
 * node; the kind is in the low bits or, with TIMING_SK_NODE, the node's tag. */
#define TIMING_SK_PEND 0x80
#define TIMING_SK_NODE 0x40

typedef struct {
    TimingNode *nodes;
    uint32_t nnodes, cap_nodes;
    TimingReq *reqs;
    uint32_t nreqs, cap_reqs;
    TimingPatch *patch;
    uint32_t npatch, cap_patch;
    uint32_t *warps;          /* warp slots with pending values (TimingWarp.pend) */
    uint32_t nwarps, cap_warps;
    bool nomem;               /* something could not grow: the launch faults */
} TimingDefer;

#define TIMING_MIO_MAX 64  /* the most mio_queue entries modelled */
#define TIMING_LG_MAX 128  /* the most TP_LG_QUEUE entries modelled */
#define TIMING_CONST_LINES 32 /* sectors an SM's constant cache holds */

/* The pipes of a sub-partition: two FMA pipes of 16 lanes (FP32 uses
 * either; the heavy one also runs IMAD, which ptxas uses for integer
 * multiplies and for shifts, moves and adds to offload the ALU), the
 * integer ALU, FP64, the SFU/conversions and the collectives. */
enum { TIMING_PIPE_FMAH, TIMING_PIPE_FMAL, TIMING_PIPE_ALU, TIMING_PIPE_FP64, TIMING_PIPE_SFU, TIMING_PIPE_COLL,
       TIMING_PIPE_COUNT };

typedef struct {
    uint64_t pipe_free[4][TIMING_PIPE_COUNT]; /* per sub-partition pipe busy until */
    uint64_t lsu_free;        /* the L1 (global/local/atomics) is busy until */
    uint64_t l1_return;       /* the data of the last load the L1 took is in registers
                                 then: the L1 returns loads in the order it took them
                                 (timing_lsu.c) */
    uint64_t lg_start[TIMING_LG_MAX]; /* when each of the last TP_LG_QUEUE global/local/
                                 atomic instructions started in the L1 (a ring, in
                                 issue order: the L1 takes them first come, first
                                 served) */
    uint64_t lg_head;         /* such instructions issued so far */
    uint64_t mio_free;        /* the shared-memory unit is busy until */
    uint64_t mio_start[TIMING_MIO_MAX]; /* when each of the last mio_queue shared-memory
                                 instructions starts in that unit (a ring, in issue
                                 order) */
    uint64_t mio_head;        /* such instructions issued so far */
    uint8_t want[4];          /* per scheduler: its last look found a warp waiting
                                 only for room in the shared-memory unit */
    uint8_t turn;             /* the scheduler that unit takes first next (round
                                 robin among those waiting) */
    void *greedy[4];          /* per scheduler: the warp it issued last (greedy) */
    int greedy_k[4];          /* and its index in the scheduler's share (checked:
                                 the lists are rebuilt when blocks come and go) */
    uint64_t next_ready;      /* earliest cycle a warp may issue (time skipping) */
    uint64_t sched_min[4];    /* per scheduler: none of its warps can issue before
                                 this (0: look) -- a lower bound, since units only
                                 get busier; dispatch and barrier release reset it */
    TimingCache l1;
    int live_blocks;
    uint64_t active_since, active_cycles;
    uint64_t warp_cycles;     /* sum over warps of their active cycles */
    uint64_t dispatch_free;   /* the SM's block dispatcher may start another then */
    uint64_t clock;           /* its clock at its last issue (or block start) */
    uint64_t dram_share_free; /* its DRAM share is taken until then (in 1/64 cycles) */
    uint64_t code_ready;      /* the kernel's first instructions are in its
                                 instruction cache then (0: not asked for yet) */
    uint64_t *atom_ring;      /* TP_ATOM_OUTSTANDING entries: when each update sent
                                 is performed at L2, oldest at atom_head % size
                                 (allocated at the SM's first global atomic) */
    uint64_t atom_head;       /* updates sent so far */
    uint32_t ctag[TIMING_CONST_LINES]; /* the constant cache: sectors held (bank << 16 |
                                 offset >> 5, plus 1; 0 empty), cold at launch */
    uint64_t cready[TIMING_CONST_LINES]; /* when each one's fill arrives */
    uint32_t cnext;           /* the entry the next miss replaces (round robin) */
    bool atom_nomem;          /* the ring could not be allocated: no backpressure */
    TimingDefer df;           /* this round's deferred requests and pending values */
} TimingSM;

#define TIMING_ATOM_SLOTS 4096
typedef struct {
    uint64_t addr;
    uint64_t free;
} TimingAtomSlot;

struct TimingModel {
    const TimingParams *p;
    TimingInst *ii;           /* per pc */
    int n_insts;
    uint32_t sbmask;          /* scoreboard entries per warp - 1 (a power of two) */
    TimingWarp *warps;        /* nslots x nwarps */
    uint32_t *sb;             /* per warp: ready cycle of each entry (relative to sb_base) */
    uint8_t *sbk;             /* per warp: kind of each entry */
    TimingSM *sms;
    int nsm, nwarps, max_warps;
    TimingCache l2;
    int l2_parts;
    TimingBw *l2_bw;          /* per partition */
    TimingBw dram_bw;
    TimingAtomSlot *atom;     /* per-address serialisation (hashed) */
    uint64_t l1_bytes;
    DeviceTiming *out;
    uint64_t end;             /* last completion seen (stores draining) */
    int active_sms;           /* SMs holding blocks */
    int cur_q;                /* the scheduler timing_pick chose for timing_issue */
    bool defer;               /* L2 requests wait for the round's end (timing_defer.c) */
};

/* The entries of an SM's L1 instruction queue (TP_LG_QUEUE, 1..TIMING_LG_MAX). */
static inline unsigned timing_lg_entries(const TimingModel *tm)
{
    double n = tm->p->v[TP_LG_QUEUE];
    return n < 1 ? 1u : n > TIMING_LG_MAX ? TIMING_LG_MAX : (unsigned)n;
}

/* The load/store path (timing_lsu.c): warp w issues memory instruction in
 * (facts ti) for lanes m at cycle now; returns when its results are in
 * registers, *kind the scoreboard kind of its destinations, *leave when the
 * last of its stores or atomics left the SM (0: it sends none). */
struct Exec;
struct Warp;
struct SimInst;
uint64_t timing_lsu_issue(struct Exec *x, struct Warp *w, const struct SimInst *in, const TimingInst *ti,
                          uint32_t m, uint64_t now, int *kind, uint64_t *leave);

/* A model with its memory system (nsm L1s of l1_bytes each, the L2, DRAM,
 * atomics) and no warps yet; results go to *out, which it zeroes.  NULL
 * when out of memory.  timing_dispatch.c; the unit tests build one too. */
TimingModel *timing_model_new(const TimingParams *p, int nsm, uint64_t l1_bytes, DeviceTiming *out);
void timing_model_free(TimingModel *tm);

/* Scoreboard (timing_scoreboard.c): build the per-pc table for prog. */
struct SimProgram;
bool timing_scoreboard_build(TimingModel *tm, const struct SimProgram *prog);

/* Load hoisting (timing_hoist.c): mark what may move (after the scoreboard
 * and schedule marks); and the instructions converged warp tw, stalled at pc
 * on its operands, may issue ahead, first first (per pc when nothing was
 * issued ahead, else cached per pc and ahead): their count, *dist their
 * distances past pc.  The scheduler issues the first whose
 * operands and unit are ready. */
struct SimProgram;
void timing_hoist_mark(TimingModel *tm, const struct SimProgram *prog);
int timing_hoist_cands(const TimingModel *tm, TimingWarp *tw, int32_t pc, const uint8_t **dist);

/* ---- deferral (timing_defer.c; see TIMING_PEND above) --------------------- */
/* Whether launch x may defer (timing_launch_begin sets TimingModel.defer):
 * the roundrobin schedule, no trace, stepper or clusters, no global atomics
 * (their replies pace the SM inside a slice), an L2 slower than a slice,
 * and not switched off (WARPSIM_TIMING_DEFER=0, to compare with the model
 * that answers at once). */
struct Exec;
bool timing_defer_allowed(const struct Exec *x, const TimingModel *tm);
/* Sectors of line reach L2 at cycle t from SM sm: timing_l2_access now, or
 * (deferring) a pending answer. */
uint64_t timing_defer_l2(TimingModel *tm, int sm, uint64_t t, uint32_t line, uint8_t sectors, int op);
/* SM sm holds no block any more: tm->active_sms drops, now or in order. */
void timing_defer_idle(TimingModel *tm, int sm);
/* max, min, + and the tagged maximum (b when b's value is greater, else a)
 * of values any of which may be pending; the results may be pending. */
uint64_t timing_vmax_slow(TimingModel *tm, int sm, uint64_t a, uint64_t b);
uint64_t timing_vmin_slow(TimingModel *tm, int sm, uint64_t a, uint64_t b);
TimingTv timing_vkmax_slow(TimingModel *tm, int sm, TimingTv a, TimingTv b);
/* a (pending) + c, its tag a's; and a's value with the stall reason its
 * tag (a scoreboard kind) counts as (timing_sb_reason). */
TimingTv timing_vadd_tv(TimingModel *tm, int sm, TimingTv a, uint64_t c);
TimingTv timing_vreason(TimingModel *tm, int sm, TimingTv a);
static inline uint64_t timing_vmax(TimingModel *tm, int sm, uint64_t a, uint64_t b)
{
    if (!(timing_pend(a) | timing_pend(b)))
        return a > b ? a : b;
    return timing_vmax_slow(tm, sm, a, b);
}
static inline uint64_t timing_vmin(TimingModel *tm, int sm, uint64_t a, uint64_t b)
{
    if (!(timing_pend(a) | timing_pend(b)))
        return a < b ? a : b;
    return timing_vmin_slow(tm, sm, a, b);
}
static inline TimingTv timing_vkmax(TimingModel *tm, int sm, TimingTv a, TimingTv b)
{
    if (!(timing_pend(a.v) | timing_pend(b.v)))
        return b.v > a.v ? b : a;
    return timing_vkmax_slow(tm, sm, a, b);
}
/* A scoreboard entry (sb, its kind sk) as a tagged value, its kind the tag. */
static inline TimingTv timing_sb_tv(uint32_t v, uint8_t k)
{
    if (k & TIMING_SK_PEND)
        return (TimingTv){TIMING_PEND | v, (k & TIMING_SK_NODE) ? TIMING_TAG_NODE : (uint8_t)(k & 0x3f)};
    return (TimingTv){v, k};
}
/* The scheduler's work on a warp that holds pending values: its next
 * instruction's operands at pc (timing_scheduler_deps: dep_ready,
 * dep_kind, dep_reason, cached_pc of warp slot wi); and timing_issue's
 * register-only instruction deferred (TIMING_DEFER) past pending operands
 * -- returns its result, *kind its scoreboard kind (TIMING_TAG_NODE: the
 * result's node's), moves the warp's defer_until -- fixed: its class has a
 * fixed latency. */
void timing_defer_deps(TimingModel *tm, int sm, size_t wi, int32_t pc);
uint64_t timing_defer_alu(TimingModel *tm, int sm, TimingWarp *tw, bool fixed, uint64_t lat, int *kind);
/* Warp slot wi of SM sm holds pending values: looked at the round's end. */
void timing_defer_warp(TimingModel *tm, int sm, uint32_t wi);
/* Pending v goes into a scoreboard entry / a cycle in the big arrays / is
 * added to *sum: the place gets its number at the round's end.  Known
 * values are simply stored (added). */
void timing_defer_sb(TimingModel *tm, int sm, uint32_t *sb, uint8_t *sk, uint64_t v, uint8_t kind);
void timing_defer_u64(TimingModel *tm, int sm, uint64_t *at, uint64_t v);
void timing_defer_add(TimingModel *tm, int sm, uint64_t *sum, uint64_t v);
/* The round that ended at limit: every SM's outbox performed (SM order,
 * issue order), every pending value known.  false: a result was due inside
 * the round (a model whose L2 is quicker than its slice) or memory ran out;
 * *why says which. */
bool timing_defer_resolve(struct Exec *x, uint64_t limit, const char **why);
void timing_defer_free(TimingSM *ts);

/* The DEVICE_STALL_* a wait for an entry of kind k counts as. */
static inline int timing_sb_reason(int k)
{
    return k == TIMING_SB_LONG ? DEVICE_STALL_LONG_SCOREBOARD
         : k == TIMING_SB_SHORT ? DEVICE_STALL_SHORT_SCOREBOARD : DEVICE_STALL_WAIT;
}

/* ---- the schedulers (timing_scheduler.c picks, timing_issue.c issues) -------
 * What both halves of an issue ask: the pick (is the warp ready, is its unit)
 * and the issue (it charges the same waits, then takes the unit). */

/* The pipes a class may use (up to two, the preferred first) and the
 * cycles one warp instruction holds each; 0 pipes: none. */
static inline int timing_pipes_of(const double *v, int cls, int pipe[2], uint64_t iv[2])
{
    switch (cls) {
    case TC_FP32: /* 128 results/SM/clk: half on each FMA pipe */
        pipe[0] = TIMING_PIPE_FMAL, pipe[1] = TIMING_PIPE_FMAH;
        iv[0] = iv[1] = (uint64_t)(2 * v[TP_INT_FP32]);
        return 2;
    case TC_INT: /* the ALU, or the heavy FMA pipe as an IMAD form */
        pipe[0] = TIMING_PIPE_ALU, pipe[1] = TIMING_PIPE_FMAH;
        iv[0] = iv[1] = (uint64_t)v[TP_INT_INT];
        return 2;
    case TC_IMUL:
        pipe[0] = TIMING_PIPE_FMAH, iv[0] = (uint64_t)v[TP_INT_INT];
        return 1;
    case TC_INTDIV:
        pipe[0] = TIMING_PIPE_ALU, iv[0] = (uint64_t)v[TP_INT_INTDIV];
        return 1;
    case TC_FP64:
        pipe[0] = TIMING_PIPE_FP64, iv[0] = (uint64_t)v[TP_INT_FP64];
        return 1;
    case TC_SFU:
        pipe[0] = TIMING_PIPE_SFU, iv[0] = (uint64_t)v[TP_INT_SFU];
        return 1;
    case TC_CVT:
        pipe[0] = TIMING_PIPE_SFU, iv[0] = (uint64_t)v[TP_INT_CVT];
        return 1;
    case TC_COLLECTIVE:
        pipe[0] = TIMING_PIPE_COLL, iv[0] = (uint64_t)v[TP_INT_COLLECTIVE];
        return 1;
    default:
        return 0;
    }
}

/* Of the class's pipes in sub-partition q, the one free first (-1 none). */
static inline int timing_pick_pipe(const TimingSM *ts, int q, int n, const int pipe[2])
{
    if (!n)
        return -1;
    return n > 1 && ts->pipe_free[q][pipe[1]] < ts->pipe_free[q][pipe[0]] ? 1 : 0;
}

/* The classes that queue for the SM's shared-memory unit (MIO), which the
 * four schedulers share.  Its queue holds mio_queue instructions, whatever
 * their wavefronts, and it takes the schedulers waiting for room in it in
 * turn: on the H100 the warps of a block whose reads conflict 4- to 32-way
 * end together (traces/hw/timing-h100.json, family banks: achieved occupancy
 * 12.3-12.4% of 12.5% at every stride), where scheduler 0, asked first every
 * cycle, would take every place that frees and finish its warps thousands of
 * cycles before the others' (docs/timing.md, item 20). */
static inline bool timing_uses_mio(int cls) { return cls == TC_SHARED || cls == TC_ATOM_SHARED; }


/* The operand wait of w's next instruction (timing_scheduler_deps cached): none for one that
 * may be deferred, its own plus the deferred ones' for a fence. */
static inline uint64_t timing_operand_wait(TimingModel *tm, int sm, const TimingWarp *tw, const TimingInst *ti,
                                           int *reason)
{
    uint64_t r = tw->dep_ready;
    *reason = tw->dep_reason;
    if (ti->flags & TIMING_DEFER)
        return 0;
    if ((ti->flags & TIMING_FENCE) && (timing_pend(r) || timing_pend(tw->defer_until))) {
        /* pending: not ready this round; the reason is looked at only at
         * an issue, once both are known */
        return timing_vmax(tm, sm, r, tw->defer_until);
    }
    if ((ti->flags & TIMING_FENCE) && tw->defer_until > r) {
        r = tw->defer_until;
        *reason = tw->defer_reason;
    }
    return r;
}


/* Warp slot wi (its state tw) of SM sm will issue the instruction at pc:
 * tw's dep_ready, dep_reason, dep_kind and cached_pc for it, from the
 * scoreboard (pending values: timing_defer_deps). */
void timing_scheduler_deps(TimingModel *tm, size_t wi, TimingWarp *tw, int32_t pc, int sm);
/* The cycle scheduler q's unit for class cls (its pipe, the L1's queue, the
 * shared-memory unit) can take an instruction, seen at now, and *reason the
 * stall a wait for it is (the shared-memory unit: for the scheduler whose
 * turn it is among those waiting; the others look again a cycle later). */
uint64_t timing_scheduler_unit_ready(const TimingModel *tm, const TimingSM *ts, int q, int cls, uint64_t now,
                                     int *reason);

#endif
