/* exec_race.h: the executor's race checking hooks and its atomic order log
 * (exec_race.c): what the executor files call when a launch checks races
 * or records the order of its atomic updates.  The checker itself: race.h. */
#ifndef WARPSIM_EXEC_RACE_H
#define WARPSIM_EXEC_RACE_H

#include "exec_int.h"

/* ---- race checking hooks (exec_race.c), called only when x->race -------- */
enum { EXEC_RACE_READ, EXEC_RACE_WRITE, EXEC_RACE_ATOMIC, EXEC_RACE_ASYNC };
void exec_race_mem(Exec *x, Warp *w, const SimInst *in, uint32_t m, int op);
/* The same, with the cp.async group each thread is filling (open_group[tid],
 * exec_async.c's) for EXEC_RACE_ASYNC; exec_race_mem passes NULL. */
void exec_race_mem_async(Exec *x, Warp *w, const SimInst *in, uint32_t m, int op, const uint32_t *open_group);
void exec_race_block(Exec *x, Block *b, bool begin);
void exec_race_barrier(Exec *x, Block *b);
void exec_race_warp_sync(Exec *x, Warp *w, uint32_t m);
/* Thread tid of b waited for its cp.async groups below `below`. */
void exec_race_async_done(Exec *x, Block *b, uint32_t tid, uint32_t below);
/* The mbarrier at p (in b's shared memory, else ignored) completed a phase
 * (observed false), or thread tid saw a phase of it complete (observed). */
void exec_race_mbarrier(Exec *x, Block *b, const uint8_t *p, uint32_t tid, bool observed);
/* Race findings of the checker after the launch, appended to out[have..cap):
 * returns the new count.  With tw, each is also written to the trace as a
 * race record at `cycle` (the launch's end). */
int exec_race_findings(const SimProgram *p, const DeviceLaunch *c, const struct RaceChecker *rc,
                       DeviceRace *out, int have, int cap, TraceWriter *tw, uint64_t cycle);
/* With checking on: barrier id of b released although its threads met at
 * different barrier instructions (pc1 of lane l1, pc2 of lane l2), or some
 * exited without arriving (exited; w2/l2/pc2 name one). */
void exec_race_barrier_divergence(Exec *x, Block *b, int id, const Warp *w1, int l1, int32_t pc1, const Warp *w2,
                                  int l2, int32_t pc2, bool exited);
/* Atomic order log (exec_race.c): one element update. */
void exec_atomic_log(Exec *x, Warp *w, int lane, int space, uint64_t addr, uint64_t old, uint64_t val);
/* One update (old -> val by lane `lane` of w) counted on lg, and listed
 * while lg has room. */
void exec_atomic_log_add(const Exec *x, DeviceAtomicLog *lg, const Warp *w, int lane, uint64_t old, uint64_t val);

#endif
