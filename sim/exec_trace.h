/* exec_trace.h: the executor's tracing hooks (exec_trace.c) and the warp
 * states of timed traces (exec_trace_state.c): what the executor files call
 * when a launch is traced.  The trace format itself: trace.h. */
#ifndef WARPSIM_EXEC_TRACE_H
#define WARPSIM_EXEC_TRACE_H

#include "exec_int.h"

/* ---- tracing hooks (exec_trace.c), called only when x->trace ----------- */
void exec_trace_block(Exec *x, const Block *b, bool begin); /* dispatch / retire */
void exec_trace_issue(Exec *x, const Warp *w, const SimInst *in, uint32_t m);
/* w stopped being able to issue (every lane waits or exited): its span. */
void exec_trace_span(Exec *x, const Warp *w);
void exec_trace_mem(Exec *x, const Warp *w, const SimInst *in, uint32_t m, int kind);
void exec_trace_atomic(Exec *x, const Warp *w, const SimInst *in, int lane, uint64_t addr,
                       uint64_t old, uint64_t val);
void exec_trace_arrive(Exec *x, const Warp *w, uint32_t id, uint32_t m, uint32_t arrived);
void exec_trace_release(Exec *x, const Block *b, uint32_t id, uint32_t released);
void exec_trace_collective(Exec *x, const Warp *w, const SimInst *in, uint32_t m, int kind,
                           uint32_t member);
void exec_trace_fault(Exec *x, const Warp *w, const SimInst *in, int lane);

/* ---- warp states in timed traces (exec_trace_state.c) ------------------- */
typedef struct ExecStates ExecStates;
/* Timed and traced at level warps or more: the per-warp buffers.  false when
 * out of memory; true (and nothing) otherwise. */
bool exec_trace_states_begin(Exec *x);
/* w was in TRACE_STATE_* state during cycles from..to (inclusive), right
 * after what it reported last; coalesced, written when 32 runs are pending.
 * Does nothing without the buffers. */
void exec_trace_state(Exec *x, const Warp *w, int state, uint64_t from, uint64_t to);
/* Write w's pending runs (it exited) / every warp's (the slice ends). */
void exec_trace_states_flush(Exec *x, const Warp *w);
void exec_trace_states_flush_all(Exec *x);
void exec_trace_states_end(Exec *x);      /* free the buffers (written or not) */

#endif
