/* viz_tiles.c: the tile records of a trace in the visualizer's model --
 * kept in file order with their listed elements, for the tile view
 * (view_tile.c) and anything else that asks what tiles a launch moved. */
#include "viz_model_int.h"

#include <stdlib.h>
#include <string.h>

bool model_add_tile(VizModel *m, const TraceEvent *e, uint32_t pos)
{
    const __typeof__(e->u.tile) *t = &e->u.tile;
    if (m->ntiles == m->captiles) {
        uint32_t cap = m->captiles ? 2 * m->captiles : 64;
        VizTile *p = realloc(m->tiles, (size_t)cap * sizeof *p);
        if (!p)
            return false;
        m->tiles = p;
        m->captiles = cap;
    }
    if (m->ntelems + t->nlisted > m->captelems) {
        uint32_t cap = m->captelems ? m->captelems : 256;
        while (cap < m->ntelems + t->nlisted)
            cap *= 2;
        TraceTileElem *p = realloc(m->telems, (size_t)cap * sizeof *p);
        if (!p)
            return false;
        m->telems = p;
        m->captelems = cap;
    }
    VizTile *v = &m->tiles[m->ntiles];
    memset(v, 0, sizeof *v);
    v->block = e->block;
    v->pos = pos;
    v->op = t->op;
    v->dtype = t->dtype;
    v->rank = t->rank;
    v->sub = t->sub;
    v->order = t->order;
    v->scope = t->scope;
    v->seq = t->seq;
    v->ti = t->ti;
    v->tj = t->tj;
    v->rows = t->rows;
    v->cols = t->cols;
    v->tm = t->tm;
    v->tn = t->tn;
    v->tk = t->tk;
    v->base = t->base;
    v->nelem = t->nelem;
    v->special = t->special;
    v->first = m->ntelems;
    v->nlisted = trace_tile_elems(e, m->telems + m->ntelems, t->nlisted);
    m->ntelems += v->nlisted;
    trace_tile_summary(e, v->summary, sizeof v->summary);
    m->ntiles++;
    m->bytes += sizeof *v + v->nlisted * sizeof(TraceTileElem);
    return true;
}

void model_tiles_free(VizModel *m)
{
    free(m->tiles);
    free(m->telems);
    m->tiles = NULL;
    m->telems = NULL;
}

uint32_t viz_model_ntiles(const VizModel *m) { return m->ntiles; }

const VizTile *viz_model_tile(const VizModel *m, uint32_t i) { return i < m->ntiles ? &m->tiles[i] : NULL; }

const TraceTileElem *viz_model_tile_elem(const VizModel *m, uint32_t k)
{
    return k < m->ntelems ? &m->telems[k] : NULL;
}

uint32_t viz_model_tiles_done(const VizModel *m, uint32_t pos)
{
    uint32_t lo = 0, hi = m->ntiles; /* records are in file order: a prefix */
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (m->tiles[mid].pos < pos)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}
