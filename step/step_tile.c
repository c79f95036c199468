/* step_tile.c: tile operations at the stepper's stops.  A kernel written
 * against lessons/include/tile.cuh marks each tile operation in its PTX;
 * when the focus warp stands at one, the stop says in a line what it is
 * about to do -- the array, which tile of its tile space, the shape, and
 * what happens to the elements that lie outside -- and `next tile` runs
 * from one tile operation to the start of the next (step_core.c stops). */
#include "step_int.h"

#include <stdio.h>

#include "inspect.h"
#include "trace.h"

bool step_tile_at(Stepper *s, uint64_t block, int warp, int32_t pc, TraceEvent *ev)
{
    int32_t npc;
    uint32_t m = 0;
    int lane = s->flane;
    if (view_next(s->v, block, warp, &npc, &m) && m && !(m >> lane & 1))
        lane = __builtin_ctz(m);
    bool begins = false;
    return view_tile_mark(s->v, block, warp, lane, pc, &begins, ev) && begins;
}

/* "arg1" when kernel parameter 1 holds the array's address, else the address. */
static void array_name(Stepper *s, uint64_t base, char *buf, size_t cap)
{
    for (int i = 0; i < view_param_count(s->v); i++) {
        uint64_t v;
        int size;
        if (view_param(s->v, i, &v, &size) && size == 8 && v == base) {
            snprintf(buf, cap, "arg%d", i);
            return;
        }
    }
    snprintf(buf, cap, "the array at 0x%llx", (unsigned long long)base);
}

/* Rows or columns start .. start + len - 1 of an extent, clipped: "16..31". */
static void span(char *buf, size_t cap, long long start, long long len)
{
    if (len == 1)
        snprintf(buf, cap, "%lld", start);
    else
        snprintf(buf, cap, "%lld..%lld", start, start + len - 1);
}

bool step_tile_describe(Stepper *s, int32_t pc, char *buf, size_t cap)
{
    TraceEvent ev;
    if (!step_tile_at(s, s->fblock, s->fwarp, pc, &ev))
        return false;
    const __typeof__(ev.u.tile) *t = &ev.u.tile;
    const char *ty = trace_tile_dtype_name(t->dtype);
    char arr[64], shape[32], a[48], b[48];
    array_name(s, t->base, arr, sizeof arr);
    if (t->rank == 1)
        snprintf(shape, sizeof shape, "%u", t->tn);
    else
        snprintf(shape, sizeof shape, "%ux%u", t->tm, t->tn);
    switch (t->op) {
    case TRACE_TILE_LOAD:
    case TRACE_TILE_STORE: {
        bool load = t->op == TRACE_TILE_LOAD;
        char where[256], rest[96];
        if (t->rank == 1) {
            span(a, sizeof a, (long long)t->tj * t->tn, t->tn);
            snprintf(where, sizeof where, "tile %d of %s[%u], elements %s", t->tj, arr, t->cols, a);
        } else {
            span(a, sizeof a, (long long)t->ti * t->tm, t->tm);
            span(b, sizeof b, (long long)t->tj * t->tn, t->tn);
            snprintf(where, sizeof where, "tile (%d, %d) of %s[%u x %u], rows %s, columns %s", t->ti, t->tj, arr,
                     t->rows, t->cols, a, b);
        }
        if (!t->special)
            snprintf(rest, sizeof rest, "all inside the array");
        else if (load)
            snprintf(rest, sizeof rest, "%u outside the array take the pad (%s)", t->special,
                     trace_tile_pad_name(t->sub));
        else
            snprintf(rest, sizeof rest, "%u outside the array are dropped", t->special);
        snprintf(buf, cap, "tile::%s of a %s %s tile: %s; %s", load ? "load" : "store", shape, ty, where, rest);
        return true;
    }
    case TRACE_TILE_GATHER:
        snprintf(buf, cap, "tile::gather of %u %s elements from %s[%u] by an index tile: masked-off and "
                           "out-of-range indices take the pad (%s)",
                 t->nelem, ty, arr, t->cols, trace_tile_pad_name(t->sub));
        return true;
    case TRACE_TILE_SCATTER:
        snprintf(buf, cap, "tile::scatter of %u %s elements into %s[%u] by an index tile: masked-off and "
                           "out-of-range indices are dropped",
                 t->nelem, ty, arr, t->cols);
        return true;
    case TRACE_TILE_ATOM: {
        static const char *orders[] = {"relaxed", "acquire", "release", "acq_rel"};
        static const char *scopes[] = {"block", "device", "system"};
        snprintf(buf, cap, "tile::atomic_%s on %u %s elements of %s[%u], %s, %s scope: each element one atomic "
                           "update, their order unspecified",
                 t->sub == TRACE_ATOM_EXCH ? "xchg" : trace_atom_op_name(t->sub), t->nelem, ty, arr, t->cols,
                 orders[t->order & 3], scopes[t->scope < 3 ? t->scope : 2]);
        return true;
    }
    case TRACE_TILE_REDUCE: {
        static const char *names[] = {"sum", "reduce_max", "reduce_min"};
        snprintf(buf, cap, "tile::%s of a %s %s tile: one value, the same in every thread", names[t->sub % 3],
                 shape, ty);
        return true;
    }
    default:
        snprintf(buf, cap, "tile::matmul of %s tiles (%ux%u) x (%ux%u)", ty, t->tm, t->tk, t->tk, t->tn);
        return true;
    }
}
