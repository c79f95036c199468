/* exec_tile.c: tile operations seen by the executor.
 *
 * lessons/include/tile.cuh leaves a "//@ tile.*" marker in the PTX for each
 * tile operation (sim/ptx_tile.c).  Markers decode to pseudo-instructions:
 * no hardware instruction, no issue, no cycle, no statistics.  When a launch
 * is traced, each block gathers what its warps' markers say -- and, inside a
 * tile atomic, every element update in the order the atomic-order policy
 * applied it -- and writes one TRACE_EV_TILE record once all its warps have
 * passed the operation.  Without a trace the markers do nothing. */
#include "exec_int.h"
#include "exec_decode.h"

#include <stdlib.h>
#include <string.h>

/* A decoded marker: its operation and operand slots. */
typedef struct SimTileMark {
    uint8_t op;             /* PtxTileOp */
    uint8_t n;
    int32_t src[8];
} SimTileMark;

/* One tile operation a block has begun. */
typedef struct {
    uint32_t seq;
    int op;                 /* PtxTileOp (a begin marker) */
    uint64_t v[8];          /* its operands, from the first warp to pass */
    uint32_t passed;        /* warps that passed its end (bit per warp) */
    TraceTileElem *el;      /* gather/scatter/atom: elements, as marked */
    uint32_t nel, capel;
    TraceTileElem *upd;     /* atom: updates in the order applied */
    uint32_t nupd, capupd;
} TileOpen;

struct SimTileBlock {
    uint32_t *seq;          /* per warp: tile operations begun */
    uint32_t *cur;          /* per warp: the operation it is inside */
    uint8_t *inside;        /* per warp: between a begin and its tile.end */
    uint32_t *elem;         /* per thread: the element its last tile.elem named */
    TileOpen *open;
    int nopen, capopen;
};

/* ---- decoding ---------------------------------------------------------------- */

static bool has_base(int op)
{
    return op == PTX_TILE_LOAD || op == PTX_TILE_STORE || op == PTX_TILE_GATHER || op == PTX_TILE_SCATTER ||
           op == PTX_TILE_ATOM;
}

SimStatus dec_tile(DecodeCtx *c)
{
    const PtxInst *pi = c->pi;
    int op = ptx_tile_op(pi);
    if (op < 0)
        return dec_fail(c, "not a tile marker");
    dec_mod(c, pi->mods[0]);
    SimTileMark mk = {.op = (uint8_t)op, .n = (uint8_t)pi->n_opnds};
    for (int k = 0; k < pi->n_opnds && k < 8; k++)
        if (dec_src(c, k, k == 0 && has_base(op) ? PTX_T_U64 : PTX_T_S32, &mk.src[k]))
            return c->err->status;
    SimProgram *p = c->p;
    if (p->n_tile_marks == p->cap_tile_marks) {
        int cap = p->cap_tile_marks ? 2 * p->cap_tile_marks : 16;
        SimTileMark *t = realloc(p->tile_marks, (size_t)cap * sizeof *t);
        if (!t)
            return sim_error_set(c->err, SIM_ERR_NOMEM, c->m->path, pi->ptx_line, 0, "out of memory");
        p->tile_marks = t;
        p->cap_tile_marks = cap;
    }
    p->tile_marks[p->n_tile_marks] = mk;
    c->in->aux = p->n_tile_marks++;
    c->in->fn = exec_tile_marker;
    c->in->pseudo = 1;
    c->in->flow = SIM_FLOW_NEXT;
    return SIM_OK;
}

void exec_tile_marks_free(SimProgram *p)
{
    free(p->tile_marks);
    p->tile_marks = NULL;
    p->n_tile_marks = p->cap_tile_marks = 0;
}

/* ---- per-block state ---------------------------------------------------------- */

static SimTileBlock *tile_state(Exec *x, Block *b)
{
    if (b->tile)
        return b->tile;
    SimTileBlock *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    t->seq = calloc((size_t)x->nwarps, sizeof *t->seq);
    t->cur = calloc((size_t)x->nwarps, sizeof *t->cur);
    t->inside = calloc((size_t)x->nwarps, 1);
    t->elem = calloc((size_t)x->nwarps * WARP, sizeof *t->elem);
    if (!t->seq || !t->cur || !t->inside || !t->elem) {
        free(t->seq);
        free(t->cur);
        free(t->inside);
        free(t->elem);
        free(t);
        return NULL;
    }
    return b->tile = t;
}

static TileOpen *find_open(SimTileBlock *t, uint32_t seq)
{
    for (int i = 0; i < t->nopen; i++)
        if (t->open[i].seq == seq)
            return &t->open[i];
    return NULL;
}

static bool push_elem(TraceTileElem **a, uint32_t *n, uint32_t *cap, const TraceTileElem *e)
{
    if (*n == *cap) {
        uint32_t c = *cap ? 2 * *cap : 64;
        TraceTileElem *p = realloc(*a, (size_t)c * sizeof *p);
        if (!p)
            return false;
        *a = p;
        *cap = c;
    }
    (*a)[(*n)++] = *e;
    return true;
}

/* Warps of b that can still pass a marker (bit per warp; at most 32). */
static uint32_t live_warps(const Exec *x, const Block *b)
{
    uint32_t n = 0;
    for (int i = 0; i < x->nwarps && i < 32; i++)
        n |= (uint32_t)((b->warps[i].present & ~b->warps[i].exited) != 0) << i;
    return n;
}

static int dtype_size(int dtype) { return dtype == 1 ? 1 : dtype == 4 || dtype == 5 || dtype == 7 ? 8 : 4; }

/* Rows (or columns) of a tile at index i of size m inside an extent. */
static uint32_t inside_extent(int64_t i, uint32_t m, int64_t extent)
{
    if (i < 0)
        return 0;
    int64_t left = extent - i * (int64_t)m;
    return left <= 0 ? 0 : left >= m ? m : (uint32_t)left;
}

static int cmp_elem(const void *a, const void *b)
{
    const TraceTileElem *p = a, *q = b;
    return p->elem < q->elem ? -1 : p->elem > q->elem;
}

/* The fields of a tile event that a begin marker's operands v give (sim/
 * ptx_tile.c's layouts): all but seq and, for gather, scatter and atom,
 * `special` and the element list, which the elements' own markers give. */
static void tile_fields(int op, const uint64_t *v, TraceEvent *ev)
{
    __typeof__(ev->u.tile) *r = &ev->u.tile;
    r->rank = 1;
    r->tm = r->tn = 1;
    uint32_t info = 0;
    switch (op) {
    case PTX_TILE_LOAD:
    case PTX_TILE_STORE: {
        bool load = op == PTX_TILE_LOAD;
        info = (uint32_t)v[load ? 7 : 6];
        r->op = load ? TRACE_TILE_LOAD : TRACE_TILE_STORE;
        r->base = v[0];
        r->ti = (int32_t)v[1];
        r->tj = (int32_t)v[2];
        int64_t rows = (int32_t)v[3], cols = (int32_t)v[4];
        r->rows = rows > 0 ? (uint32_t)rows : 0;
        r->cols = cols > 0 ? (uint32_t)cols : 0;
        r->tm = (uint32_t)(v[5] >> 16 & 0xffff);
        r->tn = (uint32_t)(v[5] & 0xffff);
        r->sub = load ? (uint8_t)(v[6] < 5 ? v[6] : 0) : 0;
        r->nelem = r->tm * r->tn;
        r->special = r->nelem - inside_extent(r->ti, r->tm, rows) * inside_extent(r->tj, r->tn, cols);
        break;
    }
    case PTX_TILE_GATHER:
    case PTX_TILE_SCATTER:
    case PTX_TILE_ATOM: {
        bool gather = op == PTX_TILE_GATHER, atom = op == PTX_TILE_ATOM;
        info = (uint32_t)v[gather ? 4 : atom ? 5 : 3];
        r->op = gather ? TRACE_TILE_GATHER : atom ? TRACE_TILE_ATOM : TRACE_TILE_SCATTER;
        r->base = v[0];
        int64_t n = (int32_t)v[1];
        r->rows = 1;
        r->cols = n > 0 ? (uint32_t)n : 0;
        r->tn = (uint32_t)v[2];
        r->nelem = r->tn;
        if (gather)
            r->sub = (uint8_t)(v[3] < 5 ? v[3] : 0);
        if (atom) {
            r->sub = (uint8_t)(info >> 12 & 7);
            r->order = (uint8_t)(v[3] & 3);
            r->scope = (uint8_t)(v[4] < 3 ? v[4] : 2);
        }
        break;
    }
    case PTX_TILE_REDUCE:
        r->op = TRACE_TILE_REDUCE;
        r->sub = (uint8_t)(v[0] < 3 ? v[0] : 0);
        r->tm = (uint32_t)(v[1] >> 16 & 0xffff);
        r->tn = (uint32_t)(v[1] & 0xffff);
        r->nelem = r->tm * r->tn;
        info = (uint32_t)v[2];
        break;
    default: /* matmul */
        r->op = TRACE_TILE_MATMUL;
        r->tm = (uint32_t)(v[0] >> 16 & 0xffff);
        r->tk = (uint32_t)(v[0] & 0xffff);
        r->tn = (uint32_t)(v[1] & 0xffff);
        r->nelem = r->tm * r->tn;
        info = (uint32_t)v[2];
        r->rank = 2;
        break;
    }
    r->dtype = (uint8_t)(info & 0xff);
    if (r->dtype < 1 || r->dtype > TRACE_TILE_DTYPE_MAX)
        r->dtype = 2;
    if (op != PTX_TILE_MATMUL)
        r->rank = (info >> 8 & 0xf) == 2 ? 2 : 1;
    if (!r->tm)
        r->tm = 1;
    if (!r->tn)
        r->tn = 1;
}

/* Write op's record and drop it from the block's list. */
static void emit(Exec *x, Block *b, SimTileBlock *t, TileOpen *o)
{
    TraceEvent ev = {.type = TRACE_EV_TILE, .cycle = x->cycle, .block = b->linear};
    __typeof__(ev.u.tile) *r = &ev.u.tile;
    tile_fields(o->op, o->v, &ev);
    r->seq = o->seq;
    TraceTileElem *merged = NULL;
    if (o->op == PTX_TILE_GATHER || o->op == PTX_TILE_SCATTER || o->op == PTX_TILE_ATOM) {
        qsort(o->el, o->nel, sizeof *o->el, cmp_elem);
        for (uint32_t k = 0; k < o->nel; k++)
            r->special += o->el[k].state != TRACE_TILE_ELEM_OK;
        if (o->op == PTX_TILE_ATOM) { /* the updates in order, then the skipped elements */
            merged = malloc(((size_t)o->nupd + o->nel + 1) * sizeof *merged);
            uint32_t m = 0;
            if (merged) {
                for (uint32_t k = 0; k < o->nupd; k++)
                    merged[m++] = o->upd[k];
                for (uint32_t k = 0; k < o->nel; k++)
                    if (o->el[k].state != TRACE_TILE_ELEM_OK)
                        merged[m++] = o->el[k];
            }
            r->list = merged;
            r->nlisted = m;
        } else {
            r->list = o->el;
            r->nlisted = o->nel;
        }
    }
    if (r->nlisted > r->nelem) /* a marker lied about its size: list what fits */
        r->nlisted = r->nelem;
    trace_write_event(x->trace, &ev);
    free(merged);
    free(o->el);
    free(o->upd);
    *o = t->open[--t->nopen];
}

int exec_tile_mark_read(const Exec *x, const Warp *w, const SimInst *in, int lane, TraceEvent *ev)
{
    if (!in->pseudo || in->fn != exec_tile_marker || in->aux < 0 || in->aux >= x->prog->n_tile_marks)
        return -1;
    const SimTileMark *mk = &x->prog->tile_marks[in->aux];
    memset(ev, 0, sizeof *ev);
    if (mk->op == PTX_TILE_ELEM || mk->op == PTX_TILE_END)
        return mk->op;
    uint64_t v[8] = {0};
    for (int k = 0; k < mk->n && k < 8; k++)
        v[k] = exec_src(x, w, mk->src[k])[lane];
    ev->type = TRACE_EV_TILE;
    ev->cycle = x->cycle;
    ev->block = w->blk->linear;
    tile_fields(mk->op, v, ev);
    return mk->op;
}

/* ---- running ------------------------------------------------------------------ */

void exec_tile_marker(Exec *x, Warp *w, const SimInst *in, uint32_t m)
{
    if (!x->trace || !m)
        return;
    Block *b = w->blk;
    SimTileBlock *t = tile_state(x, b);
    if (!t)
        return;
    const SimTileMark *mk = &x->prog->tile_marks[in->aux];
    int lane = __builtin_ctz(m);
    TileOpen *o = NULL;
    switch (mk->op) {
    case PTX_TILE_ELEM:
        if (!t->inside[w->id] || !(o = find_open(t, t->cur[w->id])))
            return;
        for (uint32_t r = m; r; r &= r - 1) {
            int l = __builtin_ctz(r);
            TraceTileElem e = {0};
            e.elem = (uint32_t)exec_src(x, w, mk->src[0])[l];
            e.index = (int32_t)exec_src(x, w, mk->src[1])[l];
            uint32_t st = (uint32_t)exec_src(x, w, mk->src[2])[l];
            e.state = (uint8_t)(st < TRACE_TILE_ELEM_COUNT ? st : TRACE_TILE_ELEM_OUTSIDE);
            t->elem[exec_tid(w, l)] = e.elem;
            if (!push_elem(&o->el, &o->nel, &o->capel, &e))
                return;
        }
        return;
    case PTX_TILE_END:
        if (!t->inside[w->id])
            return;
        t->inside[w->id] = 0;
        o = find_open(t, t->cur[w->id]);
        break;
    default: { /* a tile operation begins (and, but for gather/scatter/atom, ends) */
        uint32_t seq = t->seq[w->id]++;
        o = find_open(t, seq);
        if (!o) {
            if (t->nopen == t->capopen) {
                int cap = t->capopen ? 2 * t->capopen : 8;
                TileOpen *p = realloc(t->open, (size_t)cap * sizeof *p);
                if (!p)
                    return;
                t->open = p;
                t->capopen = cap;
            }
            o = &t->open[t->nopen++];
            memset(o, 0, sizeof *o);
            o->seq = seq;
            o->op = mk->op;
            for (int k = 0; k < mk->n && k < 8; k++)
                o->v[k] = exec_src(x, w, mk->src[k])[lane];
        }
        if (mk->op == PTX_TILE_GATHER || mk->op == PTX_TILE_SCATTER || mk->op == PTX_TILE_ATOM) {
            t->inside[w->id] = 1;
            t->cur[w->id] = seq;
            return;
        }
        break;
    }
    }
    if (!o)
        return;
    o->passed |= 1u << (w->id & 31);
    if (!(live_warps(x, b) & ~o->passed))
        emit(x, b, t, o);
}

void exec_tile_atomic(Exec *x, Warp *w, int lane, uint64_t addr, uint64_t old, uint64_t val)
{
    (void)x;
    SimTileBlock *t = w->blk->tile;
    if (!t || !t->inside[w->id])
        return;
    TileOpen *o = find_open(t, t->cur[w->id]);
    if (!o || o->op != PTX_TILE_ATOM)
        return;
    int size = dtype_size((int)(o->v[5] & 0xff));
    TraceTileElem e = {0};
    uint32_t tid = (uint32_t)exec_tid(w, lane);
    e.elem = t->elem[tid];
    e.index = (int64_t)(addr - o->v[0]) / size;
    e.updated = 1;
    e.thread = tid;
    e.old = old;
    e.val = val;
    push_elem(&o->upd, &o->nupd, &o->capupd, &e);
}

void exec_tile_block_end(Exec *x, Block *b, bool flush)
{
    SimTileBlock *t = b->tile;
    if (!t)
        return;
    while (t->nopen) {
        TileOpen *o = &t->open[0];
        if (flush && x->trace) {
            emit(x, b, t, o);
        } else {
            free(o->el);
            free(o->upd);
            *o = t->open[--t->nopen];
        }
    }
    free(t->open);
    free(t->seq);
    free(t->cur);
    free(t->inside);
    free(t->elem);
    free(t);
    b->tile = NULL;
}
