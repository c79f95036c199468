/* exec_trace_state.c: warp states in timed traces.  The timing model's
 * timing_issue (timing_issue.c) says, at each issue, what the warp did in
 * every cycle since its last one (a stall reason per run of cycles, then
 * the issue); these functions coalesce the runs per warp and write them as
 * TRACE_EV_WARP_STATE records (traces/FORMAT.md), at the warp's exit, when
 * 32 runs are pending, and at the end of each slice of cycles (the writer
 * sorts a slice's events, so a record may not reach back past one). */
#include <stdlib.h>

#include "exec_int.h"
#include "exec_trace.h"

struct ExecStates {
    uint64_t block;           /* linear block index of the pending runs */
    uint64_t end;             /* their last cycle (inclusive) */
    uint32_t n;               /* runs pending, 0..TRACE_STATES_MAX */
    uint8_t state[TRACE_STATES_MAX];
    uint32_t cycles[TRACE_STATES_MAX];
};

static size_t slot_of(const Exec *x, const Warp *w)
{
    return (size_t)(w->blk - x->blocks) * (size_t)x->nwarps + (size_t)w->id;
}

bool exec_trace_states_begin(Exec *x)
{
    if (!x->trace || !x->tm || trace_writer_level(x->trace) < TRACE_LEVEL_WARPS)
        return true;
    x->tstates = calloc((size_t)x->nslots * (size_t)x->nwarps, sizeof *x->tstates);
    return x->tstates != NULL;
}

static void flush(Exec *x, ExecStates *s, uint32_t warp)
{
    if (!s->n)
        return;
    TraceEvent ev = {.type = TRACE_EV_WARP_STATE, .cycle = s->end, .block = s->block};
    ev.u.states.warp = warp;
    ev.u.states.n = s->n;
    for (uint32_t i = 0; i < s->n; i++) {
        ev.u.states.state[i] = s->state[i];
        ev.u.states.cycles[i] = s->cycles[i];
    }
    trace_write_event(x->trace, &ev);
    s->n = 0;
}

void exec_trace_state(Exec *x, const Warp *w, int state, uint64_t from, uint64_t to)
{
    if (!x->tstates || to < from || state < 0 || state >= TRACE_STATE_COUNT)
        return;
    ExecStates *s = &x->tstates[slot_of(x, w)];
    uint32_t warp = (uint32_t)w->id;
    if (s->n && (s->block != w->blk->linear || from != s->end + 1))
        flush(x, s, warp); /* not contiguous with what is pending (a new block in the slot) */
    while (from <= to) {
        uint64_t len = to - from + 1;
        if (s->n && s->state[s->n - 1] == state && s->cycles[s->n - 1] < UINT32_MAX) {
            uint64_t room = UINT32_MAX - s->cycles[s->n - 1]; /* coalesce with the run before */
            uint64_t k = len < room ? len : room;
            s->cycles[s->n - 1] += (uint32_t)k;
            from += k;
            s->end = from - 1;
            continue;
        }
        if (s->n == TRACE_STATES_MAX)
            flush(x, s, warp);
        uint64_t k = len < UINT32_MAX ? len : UINT32_MAX;
        s->block = w->blk->linear;
        s->state[s->n] = (uint8_t)state;
        s->cycles[s->n] = (uint32_t)k;
        s->n++;
        from += k;
        s->end = from - 1;
    }
}

void exec_trace_states_flush(Exec *x, const Warp *w)
{
    if (x->tstates)
        flush(x, &x->tstates[slot_of(x, w)], (uint32_t)w->id);
}

void exec_trace_states_flush_all(Exec *x)
{
    if (!x->tstates)
        return;
    for (int b = 0; b < x->nslots; b++)
        for (int k = 0; k < x->nwarps; k++)
            flush(x, &x->tstates[(size_t)b * (size_t)x->nwarps + (size_t)k], (uint32_t)k);
}

void exec_trace_states_end(Exec *x)
{
    free(x->tstates);
    x->tstates = NULL;
}
