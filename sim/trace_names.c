/* trace_names.c: the names of a trace's enumerations (event types, levels,
 * spaces, memory kinds, atomic operations, collectives, warp states) and back, for the
 * text dump, the visualizer and the command line (trace.h). */
#include "trace.h"

#include <string.h>

static const char *level_names[] = {"blocks", "warps", "instructions", "memory"};

const char *trace_event_name(int type)
{
    switch (type) {
    case TRACE_EV_BLOCK_DISPATCH: return "dispatch";
    case TRACE_EV_BLOCK_RETIRE: return "retire";
    case TRACE_EV_WARP_TURN: return "turn";
    case TRACE_EV_ISSUE: return "issue";
    case TRACE_EV_MEM: return "mem";
    case TRACE_EV_ATOMIC: return "atomic";
    case TRACE_EV_BAR_ARRIVE: return "bar-arrive";
    case TRACE_EV_BAR_RELEASE: return "bar-release";
    case TRACE_EV_COLLECTIVE: return "collective";
    case TRACE_EV_FAULT: return "fault";
    case TRACE_EV_RACE: return "race";
    case TRACE_EV_TILE: return "tile";
    case TRACE_EV_WARP_STATE: return "state";
    case TRACE_EV_END: return "end";
    default: return "unknown";
    }
}

const char *trace_level_name(int level)
{
    return level >= 0 && level <= TRACE_LEVEL_MEMORY ? level_names[level] : "?";
}

int trace_level_parse(const char *name)
{
    for (int i = 0; i <= TRACE_LEVEL_MEMORY; i++)
        if (!strcmp(name, level_names[i]))
            return i;
    return -1;
}

const char *trace_space_name(int space)
{
    static const char *n[] = {"generic", "global", "shared", "local", "const", "param"};
    return space >= 0 && space < TRACE_SPACE_COUNT ? n[space] : "?";
}

const char *trace_mem_kind_name(int kind)
{
    static const char *n[] = {"ld", "st", "atom", "cp.async"};
    return kind >= 0 && kind < TRACE_MEM_KIND_COUNT ? n[kind] : "?";
}

const char *trace_atom_op_name(int op)
{
    static const char *n[] = {"add", "min", "max", "and", "or", "xor", "exch", "cas", "inc", "dec"};
    return op >= 0 && op < TRACE_ATOM_COUNT ? n[op] : "?";
}

const char *trace_coll_name(int kind)
{
    static const char *n[] = {"shfl", "vote", "match", "redux", "activemask"};
    return kind >= 0 && kind < TRACE_COLL_COUNT ? n[kind] : "?";
}

/* Nsight Compute's names (smsp__pcsamp_warps_issue_stalled_*), as
 * device_stall_name gives them for the same numbering. */
const char *trace_state_name(int state)
{
    static const char *n[] = {"long_scoreboard", "short_scoreboard", "wait", "barrier", "membar",
                              "math_pipe_throttle", "lg_throttle", "mio_throttle", "not_selected", "selected",
                              "dispatch_stall", "sleeping", "misc"};
    _Static_assert(sizeof n / sizeof *n == TRACE_STATE_COUNT, "one name per state");
    return state >= 0 && state < TRACE_STATE_COUNT ? n[state] : "?";
}
