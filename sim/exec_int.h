/* exec_int.h: internals shared by the executor's files (exec_*.c).
 *
 * A loaded module is decoded once (exec_decode.c) into one flat array of
 * SimInst for all its functions, with every operand resolved to a register
 * slot, a constant slot or an address (a second array, packed, puts
 * registers that are never live together in one slot): exec_program.h, the
 * decoded program; this header adds what a launch keeps while it runs.
 * Registers are lane-contiguous:
 * slot k of a warp is r[k*32 .. k*32+31], one uint64_t per lane; predicates
 * are one 32-bit lane mask each.  Handlers run one instruction for the
 * lanes of a mask in tight loops.
 *
 * Which file calls which (calls go down this list, never up; the handlers
 * are reached through SimInst.fn, not by name):
 *   loading   exec_decode.c -> the families' dec_* (exec_arith, exec_float,
 *             exec_half, exec_intx, exec_mem, exec_async, exec_ctrl,
 *             exec_warp, exec_hint, exec_tile) -> exec_operand.c, then
 *             exec_regs.c (which registers a lane may read before writing
 *             them: all a warp clears at its start), then exec_pack.c
 *             (registers whose lives never overlap share a slot:
 *             SimProgram.packed, which decodes each function again through
 *             exec_decode.c); exec_check.c (can a kernel run) stands alone
 *   a launch  exec_run.c (memory, registers, exec_launch) -> exec_sched.c
 *             (blocks on SMs, which warp issues; the timing model's picks)
 *             -> exec_issue.c (one instruction of a warp, a burst;
 *             exec_issue.h; the burst's loop is exec_burst.h's, inline in
 *             exec_sched.c's pick) -> exec_sync.c (warp-synchronous waits) ->
 *             exec_lanes.c (lane groups, PCs); exec_barrier.c (block
 *             barriers) is called by exec_sched.c and the bar.sync handlers
 *             in exec_ctrl.c (exec_bar_whole: a whole warp's, from the burst)
 *             exec_sched.c's rounds may run through exec_par.c (SMs on
 *             several threads; exec_par_mem.c its notes of memory), which
 *             runs each SM through the slice function exec_sched.c hands it;
 *             exec_mem.c's ld and st (and its handlers of the commonest
 *             accesses) try exec_memfast.c's whole-warp path (exec_memfast.h);
 *             the decoders pick exec_vec.c's and exec_vec_int.c's handlers
 *             for the host's vector unit (exec_vec.h)
 *   leaves    exec_mem.c (addresses; exec_printf.c reads through it),
 *             exec_race.c (the race checker's hooks), exec_trace.c
 *             (trace records), exec_fault.c (faults): every file above may
 *             call them, they call none of the files above
 * inspect.c (the stepper's view) reads lane groups through exec_lanes.c. */
#ifndef WARPSIM_EXEC_INT_H
#define WARPSIM_EXEC_INT_H

#include <stddef.h>
#include <stdbool.h>
#include <stdint.h>

#include "alu.h"
#include "arch.h"
#include "contract.h"
#include "exec_program.h"
#include "device.h"
#include "error.h"
#include "memory.h"
#include "ptx.h"
#include "trace.h"

typedef struct Block Block;
typedef struct ExecArena ExecArena;
typedef struct SimTileBlock SimTileBlock;
typedef struct ExecPar ExecPar;
typedef struct ExecParChunk ExecParChunk;

/* The fields every issue and every scheduling pick reads come first, in one
 * cache line: the scheduler looks at the runnable lanes of many warps per pick. */
struct Warp {
    /* First cache line: what every issue, pick and barrier reads.  Warps
     * lie side by side, a whole number of lines each (the _Alignas): the
     * fewer lines a warp's issue and barrier touch, the less the host's
     * caches must hold between one slice of its SM and the next, which
     * comes after every other SM's (exec_sched.c). */
    _Alignas(64) Block *blk; /* the block it belongs to */
    uint64_t *r;             /* n_regs * WARP */
    uint32_t *p;             /* n_preds */
    uint32_t run;            /* runnable lanes */
    int32_t upc;             /* the common pc while conv */
    uint32_t exited;
    uint32_t present;        /* lanes that exist (partial last warp) */
    uint32_t barwait;        /* lanes waiting at a block barrier */
    uint32_t bar_skip;       /* live lanes that were elsewhere (and not about
                                to exit) when part of the warp arrived at an
                                aligned barrier; cleared as they arrive.  Any
                                left at release: barrier divergence */
    int id;                  /* warp index within the block */
    bool conv;               /* every runnable lane is at upc */
    uint8_t gok;             /* diverged, while run is still grun (exec_issue.c):
                                1, the next group is known: lanes gmask at gpc,
                                every other runnable lane at gabove or higher
                                (all at gabove when gall); 2, the groups met:
                                every runnable lane is at gpc */
    uint64_t span_start;     /* cycle it last became able to issue (traces) */
    /* Second line: a diverged warp's, warp sync, clusters. */
    int32_t gpc, gabove;
    uint32_t gmask, grun;
    int32_t yield_pc;        /* its: pick the next group above this pc once, -1 */
    uint32_t spin;           /* backward branches a diverged group took in a row */
    uint32_t syncwait;       /* lanes waiting at a warp-synchronous instruction
                                (their pc is that instruction) */
    uint32_t cc;             /* the condition code's carry flag CC.CF, bit per lane */
    uint32_t carrived, cdone, cwait; /* barrier.cluster: lanes arrived this phase, whose
                                phase completed, parked at .wait (exec_cluster.c) */
    uint32_t trace_mask;     /* lanes of the last traced issue */
    uint32_t slot;           /* its index among the launch's warp slots: block
                                slot * Exec.nwarps + id (per-warp state of the
                                timing model and traces) */
    bool gall;               /* gok 1: the other runnable lanes are all at gabove */
    int32_t *retpc;          /* [lane * MAX_CALL_DEPTH + depth]: pc of the call */
    /* Then what a barrier writes (pcs, barrier ids, masks), lines of their own. */
    int32_t pc[WARP];        /* per-lane pc (valid for all lanes when !conv) */
    uint8_t barid[WARP];     /* barrier each waiting lane waits at */
    uint32_t barmask[16];    /* lanes waiting at each barrier */
    uint8_t callsp[WARP];    /* call depth per lane */
    uint8_t *stack;          /* recursion: EXEC_STACK_BYTES per lane of saved
                                frames, allocated at the warp's first recursive
                                call (NULL before) */
    uint32_t stack_sp[WARP]; /* bytes of it each lane uses */
    uint32_t syncmask[WARP]; /* each waiting lane's member mask */
};
_Static_assert(offsetof(Warp, span_start) < 64 && offsetof(Warp, gpc) == 64 && offsetof(Warp, pc) == 128,
               "Warp: the first line holds what every issue reads, pc starts a line");

#define MAX_CALL_DEPTH 32
/* Bytes of saved frames a lane may hold in recursion (the simulator's call
 * stack; the hardware's is cudaLimitStackSize, 1 KB by default, with frames
 * ptxas sizes: the depth reachable differs). */
#define EXEC_STACK_BYTES (16 * 1024)

/* Per-block barrier state (16 hardware barriers). */
typedef struct {
    uint32_t arrived;        /* threads arrived */
    uint32_t expected;       /* 0: every non-exited thread */
    int32_t pc;              /* the barrier instruction the first arrival executed */
    bool mixed;              /* arrivals came from different barrier instructions */
    bool red;                /* a bar.red arrived: results to deliver */
    uint32_t red_popc;       /* bar.red accumulators */
    bool red_and, red_or;
    uint32_t gen;
} SimBarrier;

/* A resident block: what one CTA owns while it runs on an SM. */
struct Block {
    uint64_t linear;          /* x + gx * (y + gy * z) */
    DeviceDim3 ctaid;
    uint8_t *shared;          /* its shared memory (static + dynamic) */
    uint8_t *local;           /* nthreads * prog->local_size */
    uint8_t *tparam;          /* nthreads * prog->tparam_size */
    Warp *warps;              /* Exec.nwarps of them */
    SimBarrier bar[16];
    uint32_t exited_threads;
    int sm;                   /* the SM it runs on */
    bool live;                /* the slot holds a running block */
    bool init_pending;        /* dispatched, its memory and warps not set up yet: the
                                 slice that runs its SM next does that, on whichever
                                 thread (Exec.init_late) */
    uint64_t busy_until;      /* the last burst of its warps ends at this cycle */
    struct SimAsync *async;   /* cp.async copies in flight (exec_async.c), NULL none */
    SimTileBlock *tile;       /* tile operations in progress (exec_tile.c), NULL none */
    struct ExecCluster *cl;   /* its cluster (exec_cluster.h), NULL without clusters */
    int crank;                /* its rank in it */
    int wl;                   /* its warps' first index in its SM's wl (exec_sched.c) */
};

/* Per SM: its resident block slots and the warps its 4 schedulers pick from. */
typedef struct {
    int first_slot;           /* slots [first_slot, first_slot + Exec.per_sm) */
    int live;                 /* resident blocks */
    Warp **wl;                /* warps of the resident blocks, slot-major */
    int nwl;
    int last[4];              /* per scheduler: index (in its share) issued last */
    int share[4];             /* per scheduler: warps in its share (q, q + 4, ...) */
    uint64_t ready[4];        /* per scheduler: bit k set when warp wl[q + 4k] has
                                 runnable lanes (exec_sched.c keeps it; valid
                                 while ready_ok) */
    bool ready_ok;            /* shares of at most 64 warps, no clusters */
    bool rr;                  /* ready_ok, untimed and roundrobin: a scheduler with
                                 no ready warp has nothing to do (no draw either) */
    bool stale;               /* a block retired as its slice ended: wl and the
                                 masks are made again when the next one starts */
    uint64_t busy[4];         /* per scheduler: issuing a burst until this cycle */
    uint64_t now;             /* the SM's clock (SMs run a slice at a time) */
    uint64_t free_at;         /* a slot became free at this cycle (this round) */
    uint64_t finishing;       /* a finished block waits for its last burst until
                                 this cycle, 0 none */
} SimSM;

/* Launch options the executor takes from the device (device_sim.c). */
typedef struct {
    int nsm;                  /* SMs of the arch profile */
    int blocks_per_sm;        /* resident blocks per SM (occupancy model), >= 1 */
    TraceWriter *trace;       /* NULL: no trace (the caller opens and closes it) */
    struct RaceChecker *race; /* NULL: no race checking */
    DeviceAtomicLog *alog;    /* DEVICE_ATOMIC_LOG_ADDRS entries to fill, or NULL */
    int *n_alog;
    DeviceRace *races;        /* with race: DEVICE_MAX_RACES entries for the executor's
                                 own findings (barrier-divergence) */
    int *n_races;
    uint64_t mem_limit;       /* bytes of simulated memory (global in use, plus this
                                 launch's local, shared and registers of its
                                 resident blocks) allowed; 0: no limit.  Over it the
                                 launch faults with "memory-limit" before allocating */
    uint64_t printf_limit;    /* bytes of printf output allowed; 0: no limit.  Past
                                 it the launch faults with "printf-limit" */
    uint64_t coop_ws;         /* cooperative launch: the grid barrier's workspace
                                 (global address, 0 otherwise) */
    ExecArena **arena;        /* in: the memory of an earlier launch to reuse when its
                                 shape fits (else freed); out: this launch's.  NULL:
                                 allocate and free per launch */
    /* The timing model (cfg->timing): the arch profile, and the split of the
     * unified cache the carveout gave the launch (device_sim.c) */
    const ArchProfile *arch;
    size_t l1_bytes, smem_carveout;
    int threads;              /* > 1: the launch's SMs may run on this many threads
                                 (exec_par.c), with the results of one */
} ExecOptions;

/* The block slots a launch of nblocks blocks lays out (resident at once,
 * each with its own registers, shared and local memory): blocks_per_sm on
 * each of nsm SMs (both at least 1), fewer when the grid is smaller (as many
 * SMs as blocks -- every SM with clusters, csize > 1 -- and per SM as many
 * as the grid fills).  *sms, *per_sm: SMs used, blocks on each; returns
 * their product.  exec_launch and device_resident_blocks count this way. */
int exec_resident_slots(int nsm, int blocks_per_sm, uint64_t nblocks, int csize, int *sms, int *per_sm);

/* Free an arena exec_launch left in ExecOptions.arena. */
void exec_arena_free(ExecArena *a);

struct Exec {
    SimProgram *prog;
    const SimInst *insts;     /* prog->insts, or prog->packed (exec_launch) */
    int fidx;                 /* the kernel */
    Memory *mem;
    const DeviceLaunch *cfg;
    uint8_t *params;          /* kernel parameter buffer */
    uint64_t params_size;
    uint64_t shared_size;     /* per block: static + dynamic */
    uint64_t dyn_smem;
    int nthreads;             /* per block */
    int nwarps;               /* per block */
    ExecArena *arena;         /* where blocks and sms live */
    Block *blocks;            /* nsm * per_sm slots */
    int nslots;
    SimSM *sms;
    int nsm, per_sm;
    uint64_t nblocks, next_block; /* blocks in the grid, next to dispatch */
    int32_t reg_lo, reg_hi;   /* the register slots the kernel names */
    int32_t (*zero)[2];       /* the ones a lane may read before writing them
                                 (exec_regs.c): ranges [a, b) cleared when a warp
                                 starts (exec_warp_init) */
    int n_zero;
    uint32_t specials;        /* special register slots the kernel reads other than
                                 through mov (bit per SLOT_*): written per warp */
    uint64_t *sregs;          /* per warp index, SLOT_COUNT x WARP special register
                                 values, the same in every block (SMID, CTAID aside):
                                 what mov %tid.x and the like read (exec_run.c) */
    struct ExecClusters *cl;  /* clusters of more than one CTA, else NULL (exec_cluster.h) */
    DeviceStats *stats;
    DeviceFault *fault;
    bool faulted;
    uint64_t budget;
    uint64_t cycle;           /* the launch's clock: every SM issues up to 4 warp
                                 instructions (one per scheduler) per cycle */
    uint64_t end_cycle;       /* when the last burst issued so far ends */
    uint64_t rng;             /* splitmix64 state (seeded by cfg->seed) */
    TraceWriter *trace;       /* NULL unless the launch is traced (exec_trace.c) */
    struct RaceChecker *race; /* NULL unless --check races (exec_race.c) */
    struct TimingModel *tm;   /* NULL unless the launch is timed (timing_*.c) */
    struct ExecStates *tstates; /* per warp slot: warp-state runs not yet written
                                 (exec_trace_state.c); NULL unless timed and traced */
    DeviceAtomicLog *alog;
    int *n_alog;
    DeviceRace *races;
    int *n_races;
    uint32_t atom_flip;       /* adversarial atomic order: alternates */
    uint64_t coop_ws;         /* cooperative launch's workspace, 0 none (%envreg1/2) */
    bool heap_failed;         /* a device malloc returned NULL (the heap is full):
                                 said in a null-pointer fault's message */
    /* printf output of this launch, and who printed each piece */
    char *out;
    size_t out_len, out_cap;
    uint64_t out_dropped;     /* printf bytes past DEVICE_PRINTF_MAX */
    uint64_t printf_limit;    /* ExecOptions.printf_limit */
    struct ExecPrint *prints;
    size_t n_prints, cap_prints;
    /* one launch's SMs on several threads (exec_par.c) */
    ExecPar *par;             /* the launch's: set while an attempt runs, else NULL */
    bool init_late;           /* a dispatched block is set up when its SM next runs
                                 (Block.init_pending), not at once: by then the SMs
                                 run in between have pushed its memory out of the
                                 host's caches, and setting it up twice costs twice.
                                 Not with a trace, race checking, clusters, a
                                 cooperative launch or the stepper, which look at
                                 blocks at dispatch or between SMs' slices */
    ExecParChunk *pchunk;     /* a chunk's copy of the Exec: the chunk it runs, else NULL */
    MemAlloc *mlast;          /* a chunk's own memory of its last global lookup */
    const char *par_serial;   /* more threads asked, but one used: why (exec_par_begin) */
};

/* ---- operand access ---------------------------------------------------- */
static inline uint64_t *exec_reg(Warp *w, int32_t slot)
{
    return w->r + (int64_t)slot * WARP;
}
static inline const uint64_t *exec_src(const Exec *x, const Warp *w, int32_t s)
{
    return s >= 0 ? w->r + (int64_t)s * WARP : x->prog->konst + (int64_t)(~s) * WARP;
}

/* The lanes of m that run instruction in: m where its guard predicate
 * holds (all of m without a guard). */
static inline uint32_t exec_guard_mask(const Warp *w, const SimInst *in, uint32_t m)
{
    if (in->guard < 0)
        return m;
    uint32_t g = w->p[in->guard];
    return m & (in->guard_neg ? ~g : g);
}

/* Set lanes of a mask.  __builtin_popcount is a libgcc call without
 * -mpopcnt; this is the branch-free SWAR count, and a full warp is free. */
static inline int exec_popc(uint32_t m)
{
    if (m == FULL_MASK)
        return WARP;
    m = m - ((m >> 1) & 0x55555555u);
    m = (m & 0x33333333u) + ((m >> 2) & 0x33333333u);
    m = (m + (m >> 4)) & 0x0f0f0f0fu;
    return (int)((m * 0x01010101u) >> 24);
}

/* Next pseudo-random number (splitmix64) and one below n (n >= 1). */
static inline uint64_t exec_rand(Exec *x)
{
    uint64_t z = (x->rng += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}
static inline uint32_t exec_rand_below(Exec *x, uint32_t n) { return (uint32_t)(exec_rand(x) % n); }

/* Thread index within the block of lane l of warp w. */
static inline int exec_tid(const Warp *w, int l) { return w->id * WARP + l; }

/* ---- faults (exec_run.c) ----------------------------------------------- */
/* Stop the launch: record kind and message for lane `lane` of w at in. */
void exec_fault(Exec *x, Warp *w, const SimInst *in, int lane, const char *kind,
                uint64_t addr, const char *fmt, ...)
    __attribute__((format(printf, 7, 8)));

void exec_warp_diverge(Warp *w); /* leave the converged path: the common PC to every lane */
/* The pc and lanes w issues next: the converged group, else the group at
 * the lowest PC (or, once after a yield, the lowest above the yielding
 * group's).  No side effect: the stepper asks it too (inspect.c). */
int32_t exec_next_group(const Warp *w, uint32_t *mask);
/* The same for a warp that is not converged and has no yield pending
 * (yield_pc < 0), and in *above the lowest pc of its other runnable lanes
 * (INT32_MAX: none). */
int32_t exec_next_group_above(const Warp *w, uint32_t *mask, int32_t *above);
/* Take the fast path again when every runnable lane is at one PC. */
void exec_warp_try_converge(Warp *w);
/* Set up warp id of block b at the kernel's entry (exec_run.c). */
void exec_warp_init(Exec *x, Block *b, Warp *w, int id);

/* ---- memory access (exec_mem.c, exec_memfast.c) -------------------------- */
/* The global allocation holding [a, a+size), or NULL: a chunk of SMs on a
 * thread of its own (exec_par.c) looks up with its own cache, as threads
 * look up at once. */
static inline MemAlloc *exec_global_find(Exec *x, uint64_t a, uint64_t size)
{
    return x->pchunk ? mem_find_at(x->mem, &x->mlast, a, size) : mem_find(x->mem, a, size);
}
/* Host pointer for `size` bytes at address a in space sp for lane l, or NULL
 * after recording a fault. */
uint8_t *exec_addr(Exec *x, Warp *w, const SimInst *in, int l, int sp,
                   uint64_t a, unsigned size, bool write);


/* A cvt result h of half type dt after .relu (negative -> +0, NaN -> the
 * canonical NaN) and .satfinite (infinity -> the largest finite value of its
 * sign, NaN -> the canonical NaN). */
uint32_t exec_half_post(PtxType dt, uint32_t h, bool relu, bool satfinite);
/* a + b of half type t (packed ones per half), round to nearest, subnormals
 * kept: the update of atom.add.noftz.{f16,f16x2,bf16,bf16x2}. */
uint32_t exec_half_add(PtxType t, uint32_t a, uint32_t b);

/* ---- running (exec_run.c) ---------------------------------------------- */
/* Launch function fidx of prog.  Returns SIM_OK or SIM_ERR_FAULT.  trace:
 * the writer to record the launch into, or NULL (the caller opens and
 * closes it). */
SimStatus exec_launch(SimProgram *prog, Memory *mem, int fidx,
                      const DeviceLaunch *cfg, uint8_t *params,
                      DeviceStats *stats, DeviceFault *fault, const ExecOptions *opt,
                      char **out, size_t *out_len);

/* Can kernel fidx run?  SIM_OK, or SIM_ERR_UNSUPPORTED with err naming the
 * first instruction the simulator lacks in the kernel or a function it can
 * reach through its calls: the PTX file, line and column, and the .cu line
 * from .loc when the module has one. */
SimStatus exec_kernel_check(const SimProgram *p, int fidx, SimError *err);
/* Mark function f and every function it calls, transitively, in seen
 * (n_funcs + 1 bytes, zeroed by the caller).  exec_check.c. */
void exec_mark_reachable(const PtxModule *m, int f, char *seen);

/* Issuing one instruction, a burst, a whole warp's barrier arrival:
 * exec_issue.h. */

/* Release block barrier id of b when enough threads arrived; true if it did. */
bool exec_barrier_try_release(Exec *x, Block *b, int id);

/* The launch's on_issue callback for w (inspect.c): SIM_VIEW_* */
int exec_view_call(Exec *x, Warp *w);

/* ---- scheduling (exec_sched.c) ----------------------------------------- */
/* Run the whole grid: dispatch blocks to SMs, issue cycle by cycle, retire.
 * threads > 1: try the rounds on that many threads (exec_par_begin); the
 * caller ends the attempt with exec_par_end, and runs the launch again
 * when it was abandoned. */
void exec_sched_run(Exec *x, int threads);
/* (x->par_serial: why exec_par_begin left the launch on one thread.) */

/* One launch's SMs on several threads, the executor's side: exec_par.h. */
/* Tracing hooks and the warp states of timed traces: exec_trace.h. */

/* ---- warp-synchronous instructions (exec_sync.c) ------------------------ */
/* Lanes em of w reached warp-synchronous instruction in.  true: execute it
 * now for em (the usual converged case); false: the lanes were parked until
 * the rest of their member mask arrives (or a fault was recorded). */
bool exec_sync_arrive(Exec *x, Warp *w, const SimInst *in, uint32_t em);
/* Lanes of w stopped being able to arrive (exited, waiting at a block
 * barrier): fault if parked lanes wait for them. */
void exec_sync_check(Exec *x, Warp *w);
/* Collectives over lanes g that may sit at different instructions of the
 * same kind (exec_warp.c): each lane's operands from its own instruction. */
void exec_collective(Exec *x, Warp *w, uint32_t g);

/* "shfl.sync.idx", ... for messages; the handler of bar.warp.sync (exec_warp.c). */
const char *exec_sync_kind_name(const SimInst *in);
ExecFn exec_warp_sync_fn(void);
/* The handler of mov from a special register (exec_arith.c): it reads
 * Exec.sregs, not the warp's slot s[0]. */
ExecFn exec_mov_sreg_fn(void);

/* ---- cp.async (exec_async.c) -------------------------------------------- */
void exec_async_block_end(Exec *x, Block *b);

/* The order in which the lanes of m apply one atomic instruction's element
 * updates (--atomic-order): lanes into order[], returns how many. */
int exec_atomic_order(Exec *x, uint32_t m, int order[WARP]);

/* ---- tile operations (exec_tile.c) ---------------------------------------- */
/* A tile marker's handler: lanes m of w passed it.  Only a traced launch
 * keeps anything; the block's TRACE_EV_TILE record is written when its last
 * warp has passed the operation. */
void exec_tile_marker(Exec *x, Warp *w, const SimInst *in, uint32_t m);
/* Lane `lane` of w applied one atomic element update: recorded when w is
 * inside a tile atomic. */
void exec_tile_atomic(Exec *x, Warp *w, int lane, uint64_t addr, uint64_t old, uint64_t val);
/* Block b retires (flush: write what its warps began) or the launch ends
 * (no flush): free its tile state. */
void exec_tile_block_end(Exec *x, Block *b, bool flush);
void exec_tile_marks_free(SimProgram *p);
/* For inspect.c: the marker at in, its PtxTileOp (-1: no marker); a begin
 * marker's operands, as lane `lane` of w holds them, decoded into *ev. */
int exec_tile_mark_read(const Exec *x, const Warp *w, const SimInst *in, int lane, TraceEvent *ev);

/* Race checking hooks and the atomic order log: exec_race.h. */

/* ---- timing model hooks (timing_*.c), called only when x->tm ------------
 * With the timing model the scheduler of exec_sched.c asks timing_pick
 * which warp a sub-partition issues and timing_issue issues exactly one of
 * its instructions (no bursts); timing_next_cycle skips cycles in which no
 * warp of the SM can issue.  Dispatch, barriers and retiring stay in
 * exec_sched.c and exec_run.c, which tell the model through the others. */
/* Set x->tm up for the launch (false: out of memory). */
bool timing_launch_begin(Exec *x, const ExecOptions *opt);
/* After the grid: add draining and launch overhead to x->cycle, fill
 * stats->timing, free the model. */
void timing_launch_end(Exec *x);
Warp *timing_pick(Exec *x, SimSM *sm, int q);
void timing_issue(Exec *x, Warp *w);
uint64_t timing_next_cycle(Exec *x, SimSM *sm);
void timing_block_begin(Exec *x, Block *b);
void timing_block_end(Exec *x, Block *b);
/* Barrier release: w's released lanes may issue TP_BAR_LAT cycles later. */
void timing_barrier_release(Exec *x, Warp *w);
/* Cycles of a round's slice with the timing model: SMs share L2 and DRAM,
 * so they take short turns -- shorter than the L2's quickest answer, so
 * that no SM needs one inside its slice (timing_defer.c). */
#define TIMING_SLICE 128
/* After every SM ran its slice of the round ending at limit (exec_sched.c,
 * on one thread): the SMs' deferred L2 requests performed in SM order and
 * every pending value known (timing_defer.c); faults the launch when that
 * could not be done exactly. */
void timing_round_end(Exec *x, uint64_t limit);
/* The earlier of sm->finishing (0: none) and a finished block's busy_until,
 * either of which may be pending (exec_sched.c). */
uint64_t timing_finishing(Exec *x, SimSM *sm, uint64_t busy_until);
/* The launch's model defers its L2 answers to the round's end, so a round's
 * SMs may run side by side (exec_par.c). */
bool timing_defers(const Exec *x);
/* SMs on threads (exec_par.c): the model as one chunk's SMs see it -- tm
 * itself but for the scheduler's choice and the counters a slice adds to,
 * which go to *out (zeroed) -- in *view (allocated on first use, freed
 * with free(); NULL when out of memory: the caller then uses tm).  After a
 * round that passed, timing_chunk_merge adds *out to tm's results. */
struct TimingModel *timing_chunk_model(struct TimingModel *tm, struct TimingModel **view, DeviceTiming *out);
void timing_chunk_merge(struct TimingModel *tm, const DeviceTiming *out);
/* %globaltimer in modelled nanoseconds at x->cycle. */
uint64_t timing_globaltimer(const Exec *x);
/* What w does at x->cycle, as the stall accounting would charge it: the
 * DEVICE_STALL_* it waits for (DEVICE_STALL_NOT_SELECTED: ready; SELECTED:
 * it issued this cycle), *since (may be NULL) the cycle that wait began; -1
 * untimed, or w not resident or exited.  Caches w's dependences; changes no
 * timing. */
int timing_warp_state(const Exec *x, const Warp *w, uint64_t *since);

/* For tests (exec_float.c): true makes full-warp fma.rn.f32 take the
 * portable double-precision path even where the CPU has AVX2 and FMA, so
 * both paths can be checked on one machine.  Not for concurrent launches. */
void exec_float_test_portable_fma(bool on);

/* exec_vec.c: whole-warp handlers for the host's vector unit.  The handler
 * of setp for 32-bit integers with no combining op, else NULL. */
ExecFn exec_vec_setp32(const SimInst *in);
/* Does the host run the AVX2 handlers (and exec_vec_test_mode allows it)? */
bool exec_vec_avx2(void);
/* For tests: 0 makes modules decoded from now on take the portable handlers
 * even where the CPU has AVX2; -1 the host's best again. */
void exec_vec_test_mode(int mode);

/* printf (exec_printf.c): format vprintf(fmt, args) for lane l into x->out. */
typedef struct ExecPrint {
    uint64_t block;
    uint32_t tid;
    size_t seq, start, len;
} ExecPrint;
void exec_vprintf(Exec *x, Warp *w, const SimInst *in, int l,
                  uint64_t fmt, uint64_t args);
/* At the end of a launch: order the output by block, warp, then call. */
void exec_printf_finish(Exec *x);

#endif
