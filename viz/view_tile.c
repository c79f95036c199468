/* view_tile.c: the tile view -- an array drawn as its tile space (the tiles
 * of the latest tile operation's array, thick lines between tiles), each
 * element coloured by the block whose tile load or store touched it last,
 * padded elements (a load past the array's edge) and dropped ones (a store
 * past it) marked; on the right the tile operations so far, and for the
 * latest tile atomic its element updates in the order they were applied.
 * Needs a trace of a kernel written with lessons/include/tile.cuh. */
#include "viz_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_CELLS (1u << 18)   /* elements of the tile space drawn, at most */
#define LIST_FRAC 0.42

enum { CELL_NONE = 0, CELL_LOADED, CELL_STORED, CELL_PADDED, CELL_DROPPED, CELL_GATHERED, CELL_SCATTERED,
       CELL_UPDATED };

static const SDL_Color PAD_BLUE = {58, 118, 220, 255}, OUTSIDE = {226, 228, 234, 255},
                       GATHER_C = {120, 170, 240, 255}, SCATTER_C = {246, 178, 100, 255};

/* The geometry of an array's tile space as drawn. */
typedef struct {
    bool two_d;
    uint32_t rows, cols;      /* the array */
    uint32_t tm, tn;          /* the tile */
    uint32_t trows, tcols;    /* tiles in the tile space */
    uint32_t w;               /* 1-D: cells per display row (a tile is tn / w rows) */
    uint32_t drows, dcols;    /* display cells */
} Space;

/* Display cell of array element (r, c) (1-D: c is the index, r 0). */
static void cell_of(const Space *g, uint64_t r, uint64_t c, uint32_t *dy, uint32_t *dx)
{
    if (g->two_d) {
        *dy = (uint32_t)r;
        *dx = (uint32_t)c;
    } else {
        uint64_t k = c / g->tn, in = c % g->tn;
        *dy = (uint32_t)(k * (g->tn / g->w) + in / g->w);
        *dx = (uint32_t)(in % g->w);
    }
}

static bool space_of(const VizModel *m, uint64_t base, Space *g)
{
    memset(g, 0, sizeof *g);
    bool have = false;
    for (uint32_t i = 0; i < viz_model_ntiles(m); i++) {
        const VizTile *t = viz_model_tile(m, i);
        if (t->base != base || (t->op != TRACE_TILE_LOAD && t->op != TRACE_TILE_STORE))
            continue;
        g->two_d = t->rank == 2;
        g->rows = t->rows;
        g->cols = t->cols;
        g->tm = t->tm;
        g->tn = t->tn;
        have = true;
        break;
    }
    if (!have) { /* only gathers, scatters and atomics: a 1-D array in tiles of 32 */
        for (uint32_t i = 0; i < viz_model_ntiles(m) && !have; i++) {
            const VizTile *t = viz_model_tile(m, i);
            if (t->base == base && t->cols) {
                g->rows = 1;
                g->cols = t->cols;
                have = true;
            }
        }
        g->tm = 1;
        g->tn = g->cols < 32 ? 1 : 32;
        while (g->tn < g->cols && g->tn < 32)
            g->tn *= 2;
    }
    if (!have || !g->cols || !g->rows || !g->tm || !g->tn)
        return false;
    g->trows = (g->rows + g->tm - 1) / g->tm;
    g->tcols = (g->cols + g->tn - 1) / g->tn;
    if (g->two_d) {
        g->drows = g->trows * g->tm;
        g->dcols = g->tcols * g->tn;
    } else {
        g->w = g->tn < 64 ? g->tn : 64;
        g->drows = g->tcols * (g->tn / g->w);
        g->dcols = g->w;
    }
    return (uint64_t)g->drows * g->dcols <= MAX_CELLS;
}

/* An array to show: that of the latest tile operation of a kind in `ops`
 * (bit per TRACE_TILE_*) applied by pos, else the first one coming. */
static bool pick_array(const VizModel *m, uint32_t done, unsigned ops, uint64_t *base)
{
    uint32_t n = viz_model_ntiles(m);
    for (uint32_t k = done; k > 0; k--) {
        const VizTile *t = viz_model_tile(m, k - 1);
        if (ops >> t->op & 1) {
            *base = t->base;
            return true;
        }
    }
    for (uint32_t k = done; k < n; k++)
        if (ops >> viz_model_tile(m, k)->op & 1) {
            *base = viz_model_tile(m, k)->base;
            return true;
        }
    return false;
}

static void mark(uint8_t *st, uint64_t *who, const Space *g, uint64_t r, uint64_t c, int kind, uint64_t block)
{
    uint32_t dy, dx;
    cell_of(g, r, c, &dy, &dx);
    if (dy >= g->drows || dx >= g->dcols)
        return;
    st[(size_t)dy * g->dcols + dx] = (uint8_t)kind;
    who[(size_t)dy * g->dcols + dx] = block;
}

/* Apply tile record t (on the shown array) to the cell states. */
static void apply(const VizModel *m, const VizTile *t, const Space *g, uint8_t *st, uint64_t *who)
{
    if (t->op == TRACE_TILE_LOAD || t->op == TRACE_TILE_STORE) {
        bool load = t->op == TRACE_TILE_LOAD;
        for (uint32_t r = 0; r < t->tm; r++)
            for (uint32_t c = 0; c < t->tn; c++) {
                int64_t row = (int64_t)t->ti * t->tm + r, col = (int64_t)t->tj * t->tn + c;
                if (row < 0 || col < 0)
                    continue;
                bool in = row < (int64_t)g->rows && col < (int64_t)g->cols;
                int kind = load ? (in ? CELL_LOADED : CELL_PADDED) : (in ? CELL_STORED : CELL_DROPPED);
                mark(st, who, g, g->two_d ? (uint64_t)row : 0, g->two_d ? (uint64_t)col : (uint64_t)col, kind,
                     t->block);
            }
        return;
    }
    int kind = t->op == TRACE_TILE_GATHER ? CELL_GATHERED : t->op == TRACE_TILE_SCATTER ? CELL_SCATTERED : CELL_UPDATED;
    for (uint32_t k = 0; k < t->nlisted; k++) {
        const TraceTileElem *e = viz_model_tile_elem(m, t->first + k);
        if (e && e->state == TRACE_TILE_ELEM_OK && e->index >= 0 && (uint64_t)e->index < g->cols)
            mark(st, who, g, 0, (uint64_t)e->index, kind, t->block);
    }
}

static SDL_Color lighten(SDL_Color c, double f)
{
    return (SDL_Color){(Uint8)(c.r + (255 - c.r) * f), (Uint8)(c.g + (255 - c.g) * f), (Uint8)(c.b + (255 - c.b) * f),
                       255};
}

static void draw_space(VizCanvas *c, const VizModel *m, const Space *g, uint64_t base, uint32_t done, int t,
                       VizBox b)
{
    size_t ncell = (size_t)g->drows * g->dcols;
    uint8_t *st = calloc(ncell, 1);
    uint64_t *who = calloc(ncell, sizeof *who);
    uint32_t *touch = calloc((size_t)g->trows * g->tcols, sizeof *touch);
    if (!st || !who || !touch)
        goto out;
    const VizTile *latest = NULL;
    for (uint32_t k = 0; k < done; k++) {
        const VizTile *v = viz_model_tile(m, k);
        if (v->base != base)
            continue;
        apply(m, v, g, st, who);
        latest = v;
        if ((v->op == TRACE_TILE_LOAD || v->op == TRACE_TILE_STORE) && v->ti >= 0 && v->tj >= 0 &&
            (uint32_t)v->ti < g->trows && (uint32_t)v->tj < g->tcols)
            touch[(size_t)v->ti * g->tcols + (uint32_t)v->tj]++;
    }
    char buf[200];
    if (g->two_d)
        snprintf(buf, sizeof buf, "array 0x%llx: %u x %u, tiles of %u x %u (%u x %u tiles)", (unsigned long long)base,
                 g->rows, g->cols, g->tm, g->tn, g->trows, g->tcols);
    else
        snprintf(buf, sizeof buf, "array 0x%llx: %u element%s, tiles of %u (%u tile%s; one band per tile)",
                 (unsigned long long)base, g->cols, g->cols == 1 ? "" : "s", g->tn, g->tcols, g->tcols == 1 ? "" : "s");
    viz_text_clip(c, VIZ_FONT_BIG, buf, b.x + 10, b.y + 6, b.w - 20, VIZ_INK);
    int top = b.y + 34, avail_w = b.w - 20, avail_h = b.h - (top - b.y) - 6;
    int cs = avail_w / (int)g->dcols;
    if (avail_h / (int)g->drows < cs)
        cs = avail_h / (int)g->drows;
    if (cs > 28)
        cs = 28;
    if (cs < 2)
        cs = 2;
    int x0 = b.x + 10, y0 = top;
    for (uint32_t dy = 0; dy < g->drows && y0 + (int)dy * cs < b.y + b.h; dy++)
        for (uint32_t dx = 0; dx < g->dcols; dx++) {
            VizBox cb = {x0 + (int)dx * cs, y0 + (int)dy * cs, cs, cs};
            size_t i = (size_t)dy * g->dcols + dx;
            /* is the cell inside the array? */
            bool in;
            if (g->two_d) {
                in = dy < g->rows && dx < g->cols;
            } else {
                uint64_t idx = (uint64_t)(dy / (g->tn / g->w)) * g->tn + (dy % (g->tn / g->w)) * g->w + dx;
                in = idx < g->cols;
            }
            SDL_Color bc = viz_block_color(who[i]);
            switch (st[i]) {
            case CELL_LOADED: viz_fill(c, cb, lighten(bc, 0.6)); break;
            case CELL_STORED: viz_fill(c, cb, bc); break;
            case CELL_GATHERED: viz_fill(c, cb, GATHER_C); break;
            case CELL_SCATTERED: viz_fill(c, cb, SCATTER_C); break;
            case CELL_UPDATED: viz_fill(c, cb, VIZ_ATOM); break;
            default: viz_fill(c, cb, in ? VIZ_PANEL : OUTSIDE); break;
            }
            if (st[i] == CELL_STORED) /* stored: an orange corner */
                viz_fill(c, (VizBox){cb.x + cs - (cs + 2) / 3, cb.y, (cs + 2) / 3, (cs + 2) / 3}, VIZ_STORE);
            if (st[i] == CELL_PADDED) { /* the pad: a blue diagonal */
                viz_line(c, cb.x, cb.y + cs - 1, cb.x + cs - 1, cb.y, PAD_BLUE);
                viz_line(c, cb.x + 1, cb.y + cs - 1, cb.x + cs - 1, cb.y + 1, PAD_BLUE);
            }
            if (st[i] == CELL_DROPPED) { /* dropped: an orange cross */
                viz_line(c, cb.x + 1, cb.y + 1, cb.x + cs - 2, cb.y + cs - 2, VIZ_STORE);
                viz_line(c, cb.x + 1, cb.y + cs - 2, cb.x + cs - 2, cb.y + 1, VIZ_STORE);
            }
            if (cs >= 8)
                viz_frame_rect(c, cb, VIZ_LINE, 1);
        }
    /* tile boundaries, labels and hits */
    uint32_t band = g->two_d ? g->tm : g->tn / g->w;
    for (uint32_t ti = 0; ti < (g->two_d ? g->trows : g->tcols); ti++)
        for (uint32_t tj = 0; tj < (g->two_d ? g->tcols : 1); tj++) {
            VizBox tb = {x0 + (int)(tj * (g->two_d ? g->tn : g->w)) * cs, y0 + (int)(ti * band) * cs,
                         (int)(g->two_d ? g->tn : g->w) * cs, (int)band * cs};
            viz_frame_rect(c, tb, VIZ_INK, 1);
            uint32_t ri = g->two_d ? ti : 0, rj = g->two_d ? tj : ti;
            uint32_t id = ri * g->tcols + rj;
            viz_hit(c, tb, VIZ_HIT_TILE, t, id, touch[id]);
            if (tb.w >= 40 && tb.h >= 14) {
                if (g->two_d)
                    snprintf(buf, sizeof buf, "(%u,%u)", ri, rj);
                else
                    snprintf(buf, sizeof buf, "%u", rj);
                viz_text(c, VIZ_FONT_SMALL, buf, tb.x + 3, tb.y + 1, 0, 0, VIZ_GREY);
            }
        }
    if (latest && (latest->op == TRACE_TILE_LOAD || latest->op == TRACE_TILE_STORE)) {
        uint32_t rj = (uint32_t)latest->tj, ri = (uint32_t)latest->ti;
        if (latest->ti >= 0 && latest->tj >= 0 && ri < g->trows && rj < g->tcols) {
            VizBox tb = g->two_d ? (VizBox){x0 + (int)(rj * g->tn) * cs, y0 + (int)(ri * g->tm) * cs,
                                            (int)g->tn * cs, (int)g->tm * cs}
                                 : (VizBox){x0, y0 + (int)(rj * band) * cs, (int)g->w * cs, (int)band * cs};
            viz_frame_rect(c, tb, VIZ_SELECT, 3);
        }
    }
out:
    free(st);
    free(who);
    free(touch);
}

/* The tile operations so far, the latest last; below, a tile atomic's order. */
static void draw_ops(VizCanvas *c, const VizModel *m, uint32_t done, int t, VizBox b)
{
    uint32_t n = viz_model_ntiles(m);
    char buf[256];
    snprintf(buf, sizeof buf, "Tile operations: %u of %u", done, n);
    viz_text_clip(c, VIZ_FONT_BIG, buf, b.x + 8, b.y + 6, b.w - 16, VIZ_INK);
    const VizTile *atom = NULL;
    for (uint32_t k = done; k > 0 && !atom; k--)
        if (viz_model_tile(m, k - 1)->op == TRACE_TILE_ATOM)
            atom = viz_model_tile(m, k - 1);
    int rh = 20, list_h = atom ? (b.h - 40) / 2 : b.h - 40;
    if (atom && (int)(n + 1) * rh < list_h) /* few operations: more room for the order */
        list_h = (int)(n + 1) * rh;
    int fit = list_h / rh > 0 ? list_h / rh : 1;
    uint32_t start = done > (uint32_t)fit ? done - (uint32_t)fit : 0;
    int y = b.y + 32;
    for (uint32_t k = start; k < n && k < start + (uint32_t)fit; k++, y += rh) {
        const VizTile *v = viz_model_tile(m, k);
        bool applied = k < done, last = k + 1 == done;
        VizBox rb = {b.x + 8, y, b.w - 16, rh - 2};
        viz_fill(c, rb, last ? (SDL_Color){226, 236, 252, 255} : VIZ_PANEL);
        if (last)
            viz_frame_rect(c, rb, VIZ_SELECT, 1);
        viz_fill(c, (VizBox){rb.x + 2, rb.y + 3, 12, rb.h - 6}, viz_block_color(v->block));
        snprintf(buf, sizeof buf, "b%llu %s", (unsigned long long)v->block, v->summary);
        viz_text_clip(c, VIZ_FONT_SMALL, buf, rb.x + 18, rb.y + 2, rb.w - 22, applied ? VIZ_INK : VIZ_GREY);
        viz_hit(c, rb, VIZ_HIT_TILEOP, t, k, applied);
    }
    if (!atom)
        return;
    int top = b.y + 40 + list_h;
    viz_line(c, b.x + 8, top - 4, b.x + b.w - 8, top - 4, VIZ_LINE);
    snprintf(buf, sizeof buf, "b%llu tile atomic #%u: each element's update in the order applied",
             (unsigned long long)atom->block, atom->seq);
    viz_text_clip(c, VIZ_FONT_BOLD, buf, b.x + 8, top, b.w - 16, VIZ_INK);
    viz_text_clip(c, VIZ_FONT_SMALL, "(the order is unspecified; --atomic-order picks it)  k. element [index] thread: old -> new",
                  b.x + 8, top + 18, b.w - 16, VIZ_GREY);
    int ew = 158, eh = 18, qtop = top + 38;
    int cols = (b.w - 16) / (ew + 4), rows = (b.y + b.h - qtop) / (eh + 3);
    if (cols < 1)
        cols = 1;
    if (rows < 1)
        rows = 1;
    uint32_t shown = 0;
    for (uint32_t k = 0; k < atom->nlisted && shown < (uint32_t)(cols * rows); k++) {
        const TraceTileElem *e = viz_model_tile_elem(m, atom->first + k);
        if (!e)
            break;
        VizBox eb = {b.x + 8 + (int)(shown / (uint32_t)rows) * (ew + 4), qtop + (int)(shown % (uint32_t)rows) * (eh + 3),
                     ew, eh};
        char o[32], v[32];
        unsigned size = atom->dtype == 4 || atom->dtype == 5 || atom->dtype == 7 ? 8 : 4;
        if (e->updated) {
            viz_model_format_value(e->old, size, o, sizeof o);
            viz_model_format_value(e->val, size, v, sizeof v);
            snprintf(buf, sizeof buf, "%u. e%u [%lld] t%u: %s->%s", shown + 1, e->elem, (long long)e->index, e->thread,
                     o, v);
            viz_fill(c, eb, shown + 1 == atom->nelem - atom->special ? VIZ_LATEST : VIZ_DONE);
        } else {
            snprintf(buf, sizeof buf, "e%u [%lld] skipped (outside)", e->elem, (long long)e->index);
            viz_fill(c, eb, OUTSIDE);
        }
        viz_text_clip(c, VIZ_FONT_SMALL, buf, eb.x + 4, eb.y + 2, ew - 8, VIZ_INK);
        viz_hit(c, eb, VIZ_HIT_TILEELEM, t, k, e->updated);
        shown++;
    }
}

void viz_view_tile(VizCanvas *c, const VizState *s, int t, VizBox b)
{
    const VizModel *m = s->m[t];
    VizLegendItem legend[] = {
        {(SDL_Color){180, 200, 240, 255}, "loaded (block's colour)", 0},
        {VIZ_STORE, "stored (corner)", 0},
        {PAD_BLUE, "padded (past the edge)", 0},
        {VIZ_STORE, "dropped (x)", 1},
        {GATHER_C, "gathered", 0},
        {SCATTER_C, "scattered", 0},
        {VIZ_ATOM, "atomic update", 0},
        {OUTSIDE, "outside the array", 0},
        {VIZ_SELECT, "latest tile", 1},
    };
    int lh = viz_legend(c, b, legend, (int)(sizeof legend / sizeof *legend));
    b.h -= lh;
    if (!viz_model_ntiles(m)) {
        viz_text(c, VIZ_FONT_BIG, "No tile operations in this trace", b.x + 12, b.y + 10, 0, 0, VIZ_INK);
        viz_text_clip(c, VIZ_FONT_NORMAL,
                      "Tile records come from kernels written with lessons/include/tile.cuh (see lessons/13-tiles), "
                      "at every trace level.",
                      b.x + 12, b.y + 36, b.w - 24, VIZ_GREY);
        return;
    }
    uint32_t done = viz_model_tiles_done(m, s->pos[t]);
    int lw = (int)(b.w * LIST_FRAC);
    VizBox left = {b.x, b.y, b.w - lw, b.h}, right = {b.x + b.w - lw, b.y, lw, b.h};
    /* the array read (loads, gathers) above the array written (stores,
     * scatters, atomics), or one when they are the same */
    uint64_t src = 0, dst = 0;
    bool has_src = pick_array(m, done, 1u << TRACE_TILE_LOAD | 1u << TRACE_TILE_GATHER, &src);
    bool has_dst = pick_array(m, done, 1u << TRACE_TILE_STORE | 1u << TRACE_TILE_SCATTER | 1u << TRACE_TILE_ATOM, &dst);
    uint64_t shown[2];
    int nshown = 0;
    if (has_src)
        shown[nshown++] = src;
    if (has_dst && (!has_src || dst != src))
        shown[nshown++] = dst;
    if (!nshown)
        viz_text_clip(c, VIZ_FONT_NORMAL, "Reductions and matmuls only: no array to draw.", left.x + 12, left.y + 10,
                      left.w - 24, VIZ_GREY);
    for (int k = 0; k < nshown; k++) {
        VizBox part = {left.x, left.y + k * left.h / nshown, left.w, left.h / nshown};
        Space g;
        if (space_of(m, shown[k], &g))
            draw_space(c, m, &g, shown[k], done, t, part);
        else
            viz_text_clip(c, VIZ_FONT_NORMAL, "This array's tile space is too large to draw.", part.x + 12,
                          part.y + 10, part.w - 24, VIZ_GREY);
        if (k)
            viz_line(c, part.x, part.y, part.x + part.w, part.y, VIZ_LINE);
    }
    viz_line(c, right.x, right.y, right.x, right.y + right.h, VIZ_LINE);
    draw_ops(c, m, done, t, right);
}
