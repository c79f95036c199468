/* view_gpu.c: the GPU view -- every SM a tile, the blocks resident on it at
 * the shown cycle drawn inside it (each in its slot, coloured by block index
 * so waves show), and under them a strip of the SM's occupancy over the
 * visible part of the time axis with the cursor on it.  Everything comes
 * from the trace's dispatch and retire events; a timed trace (warp states)
 * stripes each block by its warps' states, issuing or stalled. */
#include "viz_int.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#define MAX_STRIP 512

/* Columns for n tiles in w x h, tiles about 1.5 times as wide as tall
 * (pass h scaled to ask for another shape). */
static int grid_cols(int n, int w, int h)
{
    int best = 1;
    double best_score = -1;
    for (int cols = 1; cols <= n; cols++) {
        int rows = (n + cols - 1) / cols;
        double tw = (double)w / cols, th = (double)h / rows;
        double score = tw < th * 1.5 ? tw : th * 1.5; /* the usable width at 1.5:1 */
        if (score > best_score) {
            best_score = score;
            best = cols;
        }
    }
    return best;
}

/* Under each tile: peak (light) and average (dark) residency per pixel
 * column of the visible time window, scaled by scale (1 = a full SM). */
static void draw_strip(VizCanvas *c, const VizState *s, const VizModel *m, uint32_t sm, VizBox b, double scale)
{
    static double avg[MAX_STRIP];
    static uint32_t peak[MAX_STRIP];
    int n = b.w < MAX_STRIP ? b.w : MAX_STRIP;
    if (n <= 0 || b.h <= 2)
        return;
    viz_fill(c, b, (SDL_Color){246, 247, 250, 255});
    viz_model_occupancy(m, sm, s->t0, s->t1 > s->t0 ? s->t1 : s->t0 + 1, avg, peak, n);
    for (int i = 0; i < n; i++) {
        int x = b.x + i * b.w / n;
        for (int pass = 0; pass < 2; pass++) {
            double f = (pass ? avg[i] : peak[i]) * scale;
            if (f <= 0)
                continue;
            if (f > 1)
                f = 1;
            int hh = (int)(f * (b.h - 1) + 0.999);
            if (hh > b.h - 1)
                hh = b.h - 1;
            viz_line(c, x, b.y + b.h - hh, x, b.y + b.h - 1, pass ? VIZ_STRIP : VIZ_STRIP_PEAK);
        }
    }
    if (s->cycle >= s->t0 && s->cycle <= s->t1 && s->t1 > s->t0) {
        int x = b.x + (int)((double)(s->cycle - s->t0) / (double)(s->t1 - s->t0) * (b.w - 1));
        viz_line(c, x, b.y, x, b.y + b.h - 1, VIZ_CURSOR);
    }
    viz_frame_rect(c, b, VIZ_LINE, 1);
}

/* A timed trace: block's box bb in vertical stripes, one per warp (or a
 * pixel column per warp range), each in the colour of that warp's state at
 * cycle now (the block's colour where the trace does not say).  Returns the
 * colour under the box's centre, for the label's ink. */
static SDL_Color warp_stripes(VizCanvas *c, const VizModel *m, uint64_t block, uint64_t now, VizBox bb)
{
    uint32_t nw = viz_model_warps_per_block(m);
    SDL_Color mid = viz_block_color(block);
    if (!nw)
        return mid;
    int cols = bb.w < (int)nw ? bb.w : (int)nw;
    for (int k = 0; k < cols; k++) {
        int x0 = bb.x + k * bb.w / cols, x1 = bb.x + (k + 1) * bb.w / cols;
        uint32_t w = (uint32_t)((uint64_t)k * nw / (uint64_t)cols);
        int st = viz_model_warp_stall(m, block, w, now, NULL);
        SDL_Color col = st >= 0 ? viz_state_color(st) : viz_block_color(block);
        viz_fill(c, (VizBox){x0, bb.y, x1 - x0 - (cols > 4 && x1 - x0 > 3 ? 1 : 0), bb.h}, col);
        if (k == cols / 2)
            mid = col;
    }
    return mid;
}

void viz_view_gpu(VizCanvas *c, const VizState *s, int t, VizBox b)
{
    const VizModel *m = s->m[t];
    const TraceLaunch *l = viz_model_launch(m);
    uint32_t pos = s->pos[t], nsm = l->sm_count, slots = viz_model_max_resident(m);
    if (slots == 0)
        slots = 1;
    uint32_t wpb = viz_model_warps_per_block(m);
    uint64_t disp = viz_model_dispatched(m, pos), ret = viz_model_retired(m, pos);
    uint64_t nblocks = (uint64_t)l->grid[0] * l->grid[1] * l->grid[2];

    /* header line */
    char buf[300];
    snprintf(buf, sizeof buf,
             "%u SMs   blocks: %" PRIu64 " of %" PRIu64 " dispatched, %" PRIu64 " retired, %" PRIu64
             " resident now   (at most %u at once on one SM)",
             nsm, disp, nblocks, ret, disp - ret, viz_model_max_resident(m));
    int hw = viz_text_clip(c, VIZ_FONT_BOLD, buf, b.x + 10, b.y + 6, b.w - 20, VIZ_INK);
    uint32_t faults = 0, races = 0;
    for (uint32_t i = 0; i < viz_model_nfindings(m); i++) {
        const VizFinding *f = viz_model_finding(m, i);
        if (f->pos < pos)
            *(f->type == TRACE_EV_FAULT ? &faults : &races) += 1;
    }
    if (faults || races) {
        snprintf(buf, sizeof buf, "%u fault%s, %u race finding%s so far (SM view: the block's)", faults,
                 faults == 1 ? "" : "s", races, races == 1 ? "" : "s");
        viz_text_clip(c, VIZ_FONT_BOLD, buf, b.x + 10 + hw + 16, b.y + 6, b.w - hw - 36, VIZ_FAULT);
    }

    /* occupancy scale: resident warps / the arch's limit, else blocks / the peak */
    double scale;
    char scale_label[120];
    if (s->max_warps_per_sm[t]) {
        scale = (double)wpb / s->max_warps_per_sm[t];
        snprintf(scale_label, sizeof scale_label, "occupancy over time, average: resident warps of %u", s->max_warps_per_sm[t]);
    } else {
        scale = 1.0 / slots;
        snprintf(scale_label, sizeof scale_label, "occupancy over time, average: resident blocks of %u", slots);
    }
    VizLegendItem legend[] = {
        {viz_block_color(2), "a resident block (colour: block index)", 0},
        {VIZ_TILE_BUSY, "SM with blocks", 0},
        {VIZ_SELECT, "selected", 1},
        {VIZ_FAULT, "faulted block", 1},
        {VIZ_STRIP, scale_label, 0},
        {VIZ_STRIP_PEAK, "peak", 0},
        {VIZ_CURSOR, "shown cycle", 0},
    };
    bool states = viz_model_has_states(m);
    uint64_t now = viz_model_pos_cycle(m, pos);
    if (states) /* timed: blocks are striped by their warps' states */
        legend[0].label = "a resident block: its warps' states, warp 0 at the left (colours below)";
    int lh = viz_legend(c, b, legend, (int)(sizeof legend / sizeof *legend));
    if (states) {
        b.h -= lh;
        lh = viz_state_legend(c, b);
    }

    VizBox area = {b.x + 8, b.y + 28, b.w - 16, b.h - 28 - lh - 6};
    if (area.w < 10 || area.h < 10 || nsm == 0)
        return;
    int cols = grid_cols((int)nsm, area.w, area.h), rows = ((int)nsm + cols - 1) / cols;
    int tw = area.w / cols, th = area.h / rows;
    uint32_t shown = slots > 256 ? 256 : slots;
    uint32_t *res = malloc((slots + 1) * sizeof *res);
    if (!res)
        return;
    bool tiny = tw < 24 || th < 24;
    for (uint32_t sm = 0; sm < nsm; sm++) {
        VizBox tile = {area.x + (int)(sm % (uint32_t)cols) * tw, area.y + (int)(sm / (uint32_t)cols) * th, tw - 3,
                       th - 3};
        uint32_t n = viz_model_resident(m, sm, pos, res, slots);
        viz_fill(c, tile, n ? VIZ_TILE_BUSY : VIZ_PANEL);
        viz_hit(c, tile, VIZ_HIT_SM, t, sm, n);
        /* the label, when there is room for it and for the blocks under it */
        int label_h = 0, fh = viz_font_height(c, VIZ_FONT_SMALL);
        if (!tiny && tile.h >= 2 * fh + 10) {
            snprintf(buf, sizeof buf, "SM %u", sm);
            if (viz_text_width(c, VIZ_FONT_SMALL, buf) + 6 > tile.w)
                snprintf(buf, sizeof buf, "%u", sm);
            viz_text_clip(c, VIZ_FONT_SMALL, buf, tile.x + 3, tile.y + 1, tile.w - 6, VIZ_GREY);
            label_h = fh;
        }
        int strip_h = tile.h < 24 ? 0 : tile.h / 3 < 5 ? 5 : tile.h / 3 > 32 ? 32 : tile.h / 3;
        VizBox blocks = {tile.x + 2, tile.y + 1 + label_h, tile.w - 4, tile.h - label_h - strip_h - 4};
        /* slots in a grid inside the tile, boxes about twice as wide as tall */
        int scols = grid_cols((int)shown, blocks.w, blocks.h * 4 / 3);
        int srows = ((int)shown + scols - 1) / scols;
        int sw = blocks.w / scols, sh = blocks.h / srows;
        for (uint32_t i = 0; i < n && i < slots; i++) {
            const VizSpan *sp = viz_model_span(m, res[i]);
            if (sp->slot >= shown)
                continue;
            uint32_t slot = sp->slot;
            VizBox bb = {blocks.x + (int)(slot % (uint32_t)scols) * sw, blocks.y + (int)(slot / (uint32_t)scols) * sh,
                         sw - 1, sh - 1};
            if (bb.w < 1 || bb.h < 1)
                continue;
            SDL_Color col = viz_block_color(sp->block);
            viz_fill(c, bb, col);
            if (states)
                col = warp_stripes(c, m, sp->block, now, bb);
            if (sp->faulted)
                viz_frame_rect(c, bb, VIZ_FAULT, 2);
            if (sp->block == s->sel_block)
                viz_frame_rect(c, bb, VIZ_SELECT, 2);
            snprintf(buf, sizeof buf, "%" PRIu64, sp->block);
            if (viz_text_width(c, VIZ_FONT_SMALL, buf) + 4 <= bb.w && viz_font_height(c, VIZ_FONT_SMALL) <= bb.h + 2)
                viz_text(c, VIZ_FONT_SMALL, buf, bb.x + bb.w / 2, bb.y + bb.h / 2, 1, 1, viz_ink_on(col));
            viz_hit(c, bb, VIZ_HIT_BLOCK, t, sp->block, sm);
        }
        if (n > shown && !tiny) {
            snprintf(buf, sizeof buf, "%u resident", n);
            viz_text(c, VIZ_FONT_SMALL, buf, tile.x + tile.w - 3, tile.y + 1, 2, 0, VIZ_INK);
        }
        if (strip_h)
            draw_strip(c, s, m, sm, (VizBox){tile.x + 2, tile.y + tile.h - strip_h - 2, tile.w - 4, strip_h}, scale);
        bool sel = s->sel_sm == (int)sm;
        viz_frame_rect(c, tile, sel ? VIZ_SELECT : VIZ_LINE, sel ? 2 : 1);
    }
    free(res);
}
