/* inspect.h: looking at a simulated launch while it runs -- the contract
 * for the interactive stepper (`warpsim step`) and anything else that pauses
 * a launch.  A launch made with DeviceLaunch.on_issue set calls it before
 * every warp instruction it issues, with a SimView of the whole machine at
 * that moment; the callback may look at anything through the functions
 * below (read-only) and decides whether the launch goes on.
 *
 * Block and warp handles are valid during the callback only. */
#ifndef WARPSIM_INSPECT_H
#define WARPSIM_INSPECT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "device.h"
#include "trace.h"

typedef struct SimView SimView;   /* the paused launch */

/* What the callback returns: go on, or stop the launch now (it ends with
 * a fault of kind "stopped"). */
enum { SIM_VIEW_CONTINUE = 0, SIM_VIEW_STOP = 1 };

/* The callback (DeviceLaunch.on_issue).  block and warp name the warp about
 * to issue (its linear block index and warp index in the block). */
typedef int (*SimIssueFn)(void *user, const SimView *v, uint64_t block, int warp);

/* ---- the machine ---------------------------------------------------------- */
uint64_t view_cycle(const SimView *v);               /* modelled cycles when view_timed */
/* The launch runs with the timing model (DeviceLaunch.timing). */
bool view_timed(const SimView *v);
/* Timed: what a resident warp is doing this cycle, as the model accounts
 * it -- DEVICE_STALL_SELECTED for the warp about to issue, else the
 * DEVICE_STALL_* it waits for (device_stall_name: "long_scoreboard", ...;
 * NOT_SELECTED: ready, another warp issues); *since (may be NULL) the cycle
 * that began.  -1 untimed, or the warp is not resident or has exited. */
int view_warp_timing(const SimView *v, uint64_t block, int warp, uint64_t *since);
uint64_t view_warp_insts(const SimView *v);          /* issued so far */
int view_sm_count(const SimView *v);                 /* SMs in use by this launch */
uint64_t view_grid_blocks(const SimView *v);
uint64_t view_blocks_done(const SimView *v);         /* retired so far */
int view_warps_per_block(const SimView *v);
int view_threads_per_block(const SimView *v);

/* Resident blocks: index 0 .. view_resident_count - 1. */
int view_resident_count(const SimView *v);
/* The i-th resident block: linear index, %ctaid and SM; false when out of range. */
bool view_resident(const SimView *v, int i, uint64_t *block, DeviceDim3 *ctaid, int *sm);

/* ---- one warp (of a resident block) ------------------------------------ */
typedef struct {
    uint32_t present;        /* lanes that exist */
    uint32_t active;         /* lanes that can issue now */
    uint32_t at_barrier;     /* lanes waiting at bar.sync */
    uint32_t at_warp_sync;   /* lanes waiting at a *.sync warp instruction */
    uint32_t exited;
    int32_t pc[32];          /* each lane's next instruction, -1 exited/absent */
    int barrier[32];         /* barrier id of lanes at_barrier */
} ViewWarp;

/* false when the block is not resident or warp is out of range. */
bool view_warp(const SimView *v, uint64_t block, int warp, ViewWarp *out);

/* The group of lanes the warp issues next and their pc: the common pc of a
 * converged warp, else the lowest pc among runnable lanes (or, right after
 * a diverged loop yielded, the lowest above it), as the scheduler picks it.
 * false when the warp is not resident or no lane can issue now. */
bool view_next(const SimView *v, uint64_t block, int warp, int32_t *pc, uint32_t *mask);

/* The instruction at pc: its PTX text (trimmed), PTX line, and the .cu file
 * and line ("" / 0 when unknown).  false when pc is out of range. */
bool view_inst(const SimView *v, int32_t pc, char *text, size_t cap, int *ptx_line, const char **file,
               int *line);
/* The kernel's name (PTX entry). */
const char *view_kernel(const SimView *v);

/* Register `name` ("%r5", "%p1", "%rd3", also "%tid.x" style specials are not
 * registers: use view_special) of a lane in the function the lane is in.
 * true with *value; false when the function declares no such register. */
bool view_reg(const SimView *v, uint64_t block, int warp, int lane, const char *name, uint64_t *value,
              bool *is_pred);

/* The PtxType (sim/ptx.h) of register `name` as the lane's function declares
 * it, or -1 when it declares none. */
int view_reg_type(const SimView *v, uint64_t block, int warp, int lane, const char *name);
/* Names of the registers the lane's function declares (declaration order):
 * up to cap of them into names (interned, valid while the module is
 * loaded); returns how many there are in all (0 when warp/lane are bad). */
int view_regs(const SimView *v, uint64_t block, int warp, int lane, const char **names, int cap);

/* The kernel's parameters as the launch passed them: how many, and the
 * first min(size, 8) bytes of parameter i as a little-endian integer (a
 * buffer's device address, a scalar) with its size in bytes.  false when i
 * is out of range. */
int view_param_count(const SimView *v);
bool view_param(const SimView *v, int i, uint64_t *value, int *size);

/* Memory: n bytes at a shared-memory offset of a resident block, or at a
 * global address.  false (nothing copied) when any byte is out of range. */
bool view_shared(const SimView *v, uint64_t block, uint64_t addr, void *out, size_t n);
uint64_t view_shared_size(const SimView *v);
bool view_global(const SimView *v, uint64_t addr, void *out, size_t n);

/* ---- tile operations (lessons/include/tile.cuh) ---------------------------- */
/* The header marks each tile operation with a marker in the PTX, a pseudo-
 * instruction (sim/ptx_tile.c).  The marker at pc as lane `lane` of a
 * resident warp sees it: *begins true when a tile operation starts there,
 * and then *ev holds what the operation's trace record will say (trace.h,
 * TRACE_EV_TILE) but its seq and, for gather, scatter and atom, the element
 * list and count of special elements, which only its elements' markers
 * give; false (nothing written) when pc is no tile marker or the warp is not
 * resident.  Markers inside gather, scatter and atom give *begins false. */
bool view_tile_mark(const SimView *v, uint64_t block, int warp, int lane, int32_t pc, bool *begins,
                    TraceEvent *ev);

/* Barrier id of a resident block: threads arrived so far. */
uint32_t view_barrier_arrived(const SimView *v, uint64_t block, int id);

#endif
