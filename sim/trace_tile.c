/* trace_tile.c: words for the tile records of a trace (TRACE_EV_TILE, format
 * v2) -- the operation, element type and pad names, and the one-line summary
 * `warpsim trace dump`, the tile view and the lessons print.  The records
 * themselves are read and validated by trace_read.c. */
#include <stdio.h>

#include "trace.h"

const char *trace_tile_op_name(int op)
{
    static const char *n[] = {"load", "store", "gather", "scatter", "atom", "reduce", "matmul"};
    return op >= 0 && op < TRACE_TILE_COUNT ? n[op] : "?";
}

const char *trace_tile_dtype_name(int dtype)
{
    static const char *n[] = {"?", "bool", "s32", "u32", "s64", "u64", "f32", "f64"};
    return dtype >= 1 && dtype <= TRACE_TILE_DTYPE_MAX ? n[dtype] : "?";
}

const char *trace_tile_pad_name(int pad)
{
    static const char *n[] = {"zero", "-0", "nan", "+inf", "-inf"};
    return pad >= 0 && pad < 5 ? n[pad] : "?";
}

char *trace_tile_summary(const TraceEvent *ev, char *buf, size_t cap)
{
    static const char *orders[] = {"relaxed", "acquire", "release", "acq_rel"};
    static const char *scopes[] = {"block", "device", "system"};
    static const char *reduces[] = {"sum", "max", "min"};
    if (!cap)
        return buf;
    buf[0] = 0;
    if (ev->type != TRACE_EV_TILE)
        return buf;
    const __typeof__(ev->u.tile) *t = &ev->u.tile;
    const char *ty = trace_tile_dtype_name(t->dtype);
    char where[96], shape[48];
    if (t->rank == 1) {
        snprintf(where, sizeof where, "%d", t->tj);
        snprintf(shape, sizeof shape, "%u", t->tn);
    } else {
        snprintf(where, sizeof where, "(%d, %d)", t->ti, t->tj);
        snprintf(shape, sizeof shape, "%ux%u", t->tm, t->tn);
    }
    char extent[48];
    if (t->rows == 1 && (t->rank == 1 || t->op == TRACE_TILE_GATHER || t->op == TRACE_TILE_SCATTER ||
                         t->op == TRACE_TILE_ATOM))
        snprintf(extent, sizeof extent, "[%u]", t->cols);
    else
        snprintf(extent, sizeof extent, "[%u x %u]", t->rows, t->cols);
    switch (t->op) {
    case TRACE_TILE_LOAD:
        snprintf(buf, cap, "#%u load %s tile %s of %s from %s at 0x%llx: %u padded (%s)", t->seq, ty, where, shape,
                 extent, (unsigned long long)t->base, t->special, trace_tile_pad_name(t->sub));
        break;
    case TRACE_TILE_STORE:
        snprintf(buf, cap, "#%u store %s tile %s of %s into %s at 0x%llx: %u dropped", t->seq, ty, where, shape,
                 extent, (unsigned long long)t->base, t->special);
        break;
    case TRACE_TILE_GATHER:
        snprintf(buf, cap, "#%u gather %s, %u elements from %s at 0x%llx: %u padded (%s)", t->seq, ty, t->nelem,
                 extent, (unsigned long long)t->base, t->special, trace_tile_pad_name(t->sub));
        break;
    case TRACE_TILE_SCATTER:
        snprintf(buf, cap, "#%u scatter %s, %u elements into %s at 0x%llx: %u dropped", t->seq, ty, t->nelem,
                 extent, (unsigned long long)t->base, t->special);
        break;
    case TRACE_TILE_ATOM:
        snprintf(buf, cap, "#%u atom.%s %s, %u elements on %s at 0x%llx (%s, %s scope): %u updates, %u skipped",
                 t->seq, t->sub == TRACE_ATOM_EXCH ? "xchg" : trace_atom_op_name(t->sub), ty, t->nelem, extent,
                 (unsigned long long)t->base, orders[t->order & 3], scopes[t->scope < 3 ? t->scope : 2],
                 t->nelem - t->special, t->special);
        break;
    case TRACE_TILE_REDUCE:
        snprintf(buf, cap, "#%u reduce %s %s of %s", t->seq, t->sub < 3 ? reduces[t->sub] : "?", ty, shape);
        break;
    default:
        snprintf(buf, cap, "#%u matmul %s (%ux%u) x (%ux%u)", t->seq, ty, t->tm, t->tk, t->tk, t->tn);
        break;
    }
    return buf;
}
