/* fuzz_trace.c: libFuzzer target for the trace reader (sim/trace_read.c):
 * any bytes must give a reader or a SIM_ERR_PARSE naming a byte offset --
 * never a crash, hang, leak or undefined behaviour.  The CRC check is
 * skipped so that mutations reach the record decoder; every event of an
 * accepted trace is then walked the way dump and export walk them.
 *
 *   make fuzz-trace FUZZ_SECONDS=600   (finds go to build/fuzz-trace; the
 *   small ones worth keeping to tests/corpus/trace, replayed by test_trace) */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "trace.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    SimError err;
    sim_error_clear(&err);
    TraceReader *r = trace_open_mem("fuzz.wstrace", data, size, TRACE_READ_NO_CRC, &err);
    if (!r) {
        if (err.status != SIM_ERR_PARSE && err.status != SIM_ERR_NOMEM)
            __builtin_trap();
        if (err.status == SIM_ERR_PARSE && strncmp(err.msg, "byte ", 5))
            __builtin_trap(); /* a parse error must name its offset */
        return 0;
    }
    const TraceLaunch *l = trace_launch(r);
    volatile size_t sink = strlen(trace_string(r, l->kernel)) + strlen(trace_string(r, l->arch));
    TraceEvent ev;
    uint64_t n = 0;
    while (trace_next(r, &ev)) {
        n++;
        if (ev.block >= trace_nblocks(r))
            __builtin_trap();
        sink += strlen(trace_event_name(ev.type));
        if (ev.type == TRACE_EV_FAULT) {
            for (uint32_t i = 0; i < ev.u.fault.msg_len; i++)
                sink += (unsigned char)ev.u.fault.msg[i];
            for (uint32_t i = 0; i < ev.u.fault.kind_len; i++)
                sink += (unsigned char)ev.u.fault.kind[i];
        } else if (ev.type == TRACE_EV_RACE) {
            for (uint32_t i = 0; i < ev.u.race.msg_len; i++)
                sink += (unsigned char)ev.u.race.msg[i];
        } else if (ev.type == TRACE_EV_ISSUE && ev.u.issue.file != TRACE_NONE) {
            sink += strlen(trace_string(r, ev.u.issue.file));
        } else if (ev.type == TRACE_EV_TILE) {
            TraceTileElem el[64];
            char line[256];
            uint32_t got = trace_tile_elems(&ev, el, 64);
            if (got > ev.u.tile.nlisted || (ev.u.tile.nlisted && got != (ev.u.tile.nlisted < 64 ? ev.u.tile.nlisted : 64)))
                __builtin_trap(); /* validated at open: every listed element decodes */
            for (uint32_t i = 0; i < got; i++)
                sink += el[i].elem + (size_t)el[i].old;
            sink += strlen(trace_tile_summary(&ev, line, sizeof line));
        } else if (ev.type == TRACE_EV_WARP_STATE) {
            /* validated at open: 1..32 runs of known states, none before cycle 0 */
            if (!(l->flags & TRACE_FLAG_STATES) || ev.u.states.n < 1 || ev.u.states.n > TRACE_STATES_MAX)
                __builtin_trap();
            uint64_t total = 0;
            for (uint32_t i = 0; i < ev.u.states.n; i++) {
                if (ev.u.states.state[i] >= TRACE_STATE_COUNT || !ev.u.states.cycles[i])
                    __builtin_trap();
                total += ev.u.states.cycles[i];
                sink += strlen(trace_state_name(ev.u.states.state[i]));
            }
            if (total > ev.cycle + 1)
                __builtin_trap();
        }
    }
    if (n != trace_nevents(r))
        __builtin_trap();
    (void)sink;
    trace_close(r);
    return 0;
}
