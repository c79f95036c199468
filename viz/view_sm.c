/* view_sm.c: the SM view -- the blocks resident on the selected SM down the
 * left, and the selected block's warps as rows of 32 lane cells: active
 * (issuing), inactive (diverged away or not issuing), waiting at a barrier,
 * exited; each row with its state, PC and .cu line (a timed trace: the warp's
 * label in the colour of its state, issuing or the stall reason, with a
 * legend of Nsight Compute's names).  Under the rows, the
 * block's barriers and the source around the selected warp's line. */
#include "viz_int.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#define LEFT_W 170
#define MAX_LIST 64

static const char *state_name(const VizWarpState *w)
{
    switch (w->state) {
    case VIZ_WARP_NOT_STARTED: return "not started";
    case VIZ_WARP_RUNNING: return "issuing";
    case VIZ_WARP_READY: return "ready";
    case VIZ_WARP_BARRIER: return "at barrier";
    case VIZ_WARP_EXITED: return "exited";
    default: return "no warp detail";
    }
}

static SDL_Color lane_color(const VizWarpState *w, int lane)
{
    if ((uint32_t)lane >= w->threads)
        return VIZ_NOTHREAD;
    switch (w->state) {
    case VIZ_WARP_EXITED: return VIZ_EXITED;
    case VIZ_WARP_NOT_STARTED: case VIZ_WARP_UNKNOWN: return VIZ_UNKNOWN;
    case VIZ_WARP_BARRIER:
        if (w->bar_mask >> lane & 1)
            return VIZ_BARRIER;
        return w->has_issue && (w->mask >> lane & 1) ? VIZ_ACTIVE : VIZ_INACTIVE;
    default:
        if (!w->has_issue)
            return VIZ_UNKNOWN;
        return w->mask >> lane & 1 ? VIZ_ACTIVE : VIZ_INACTIVE;
    }
}

/* The list of resident blocks on the SM at the left. */
static void draw_block_list(VizCanvas *c, const VizState *s, int t, VizBox b, uint32_t sm, uint64_t block)
{
    const VizModel *m = s->m[t];
    uint32_t res[MAX_LIST];
    uint32_t n = viz_model_resident(m, sm, s->pos[t], res, MAX_LIST);
    char buf[96];
    snprintf(buf, sizeof buf, "SM %u", sm);
    viz_text(c, VIZ_FONT_BIG, buf, b.x + 10, b.y + 6, 0, 0, VIZ_INK);
    snprintf(buf, sizeof buf, "%u block%s resident", n, n == 1 ? "" : "s");
    viz_text(c, VIZ_FONT_SMALL, buf, b.x + 10, b.y + 28, 0, 0, VIZ_GREY);
    int y = b.y + 48, bh = 22;
    for (uint32_t i = 0; i < n && i < MAX_LIST && y + bh < b.y + b.h; i++, y += bh + 3) {
        const VizSpan *sp = viz_model_span(m, res[i]);
        VizBox bb = {b.x + 10, y, b.w - 20, bh};
        SDL_Color col = viz_block_color(sp->block);
        viz_fill(c, bb, col);
        snprintf(buf, sizeof buf, "block %" PRIu64, sp->block);
        viz_text(c, VIZ_FONT_NORMAL, buf, bb.x + 6, bb.y + bh / 2, 0, 1, viz_ink_on(col));
        if (sp->block == block)
            viz_frame_rect(c, bb, VIZ_SELECT, 2);
        viz_hit(c, bb, VIZ_HIT_BLOCK, t, sp->block, sm);
    }
    if (n > MAX_LIST)
        viz_textf(c, VIZ_FONT_SMALL, b.x + 10, y, VIZ_GREY, "and %u more", n - MAX_LIST);
}

void viz_view_sm(VizCanvas *c, const VizState *s, int t, VizBox b)
{
    const VizModel *m = s->m[t];
    uint32_t pos = s->pos[t];
    uint64_t block = viz_state_block(s, t);
    const VizSpan *sp = viz_model_find_block(m, block);
    uint32_t sm = s->sel_sm >= 0 ? (uint32_t)s->sel_sm : sp ? sp->sm : 0;
    VizLegendItem legend[] = {
        {VIZ_ACTIVE, "active lane", 0},
        {VIZ_INACTIVE, "inactive (diverged / not issuing)", 0},
        {VIZ_BARRIER, "waiting at barrier", 0},
        {VIZ_EXITED, "exited", 0},
        {VIZ_NOTHREAD, "no thread", 0},
        {VIZ_UNKNOWN, "not known at this level", 0},
        {VIZ_RUNNING, "warp issuing now", 0},
    };
    bool states = viz_model_has_states(m);
    int lh = viz_legend(c, b, legend, (int)(sizeof legend / sizeof *legend));
    b.h -= lh;
    if (states) { /* timed: what each warp waits for, above the lanes' legend */
        lh = viz_state_legend(c, b);
        b.h -= lh;
    }
    int left = b.w > 3 * LEFT_W ? LEFT_W : 0;
    if (left) {
        draw_block_list(c, s, t, (VizBox){b.x, b.y, left, b.h}, sm, block);
        viz_line(c, b.x + left, b.y, b.x + left, b.y + b.h, VIZ_LINE);
    }
    VizBox r = {b.x + left + 10, b.y + 6, b.w - left - 20, b.h - 12};
    char buf[320];
    /* the block's headline */
    if (!sp) {
        snprintf(buf, sizeof buf, "block %" PRIu64 ": never dispatched in this trace", block);
    } else {
        uint64_t dc = viz_model_event_cycle(m, sp->dpos);
        if (sp->dpos >= pos)
            snprintf(buf, sizeof buf, "block %" PRIu64 " on SM %u: dispatched later, at cycle %" PRIu64, block, sp->sm, dc);
        else if (sp->rpos < pos)
            snprintf(buf, sizeof buf, "block %" PRIu64 " on SM %u: ran from cycle %" PRIu64 " to %" PRIu64 ", %s", block,
                     sp->sm, dc, viz_model_event_cycle(m, sp->rpos), sp->faulted ? "stopped by a fault" : "retired");
        else
            snprintf(buf, sizeof buf, "block %" PRIu64 " on SM %u: resident since cycle %" PRIu64 "%s", block, sp->sm,
                     dc, sp->faulted ? "  (faulted)" : "");
    }
    viz_text_clip(c, VIZ_FONT_BIG, buf, r.x, r.y, r.w, sp && sp->faulted ? VIZ_FAULT : VIZ_INK);
    int y = r.y + 26;
    const TraceLaunch *l = viz_model_launch(m);
    if (l->level < TRACE_LEVEL_WARPS) {
        viz_text_clip(c, VIZ_FONT_NORMAL,
                      "This trace was written at level blocks: it has no warp detail.  Record it with "
                      "--trace-level warps, instructions or memory to see the warps.",
                      r.x, y, r.w, VIZ_GREY);
        y += 22;
    } else if (l->level == TRACE_LEVEL_WARPS) {
        viz_text_clip(c, VIZ_FONT_SMALL,
                      "level warps: each pc and line is where the warp last changed its active lanes "
                      "(--trace-level instructions records every one)",
                      r.x, y, r.w, VIZ_GREY);
        y += 18;
    }
    /* warp rows */
    uint32_t nw = viz_model_warps_per_block(m);
    int fh = viz_font_height(c, VIZ_FONT_MONO);
    int src_h = 6 * (fh + 2) + 30;
    int avail = r.y + r.h - y - src_h;
    int row = nw ? avail / (int)nw : 0;
    if (row > 24)
        row = 24;
    if (row < 10)
        row = 10;
    int label_w = 44, cell = (r.w - label_w - 340) / 32;
    if (cell > 20)
        cell = 20;
    if (cell < 5)
        cell = 5;
    int show = avail / row;
    if (show > (int)nw)
        show = (int)nw;
    VizWarpState focus = {0};
    int focus_w = -1;
    for (int w = 0; w < show; w++) {
        VizWarpState ws;
        viz_model_warp_state(m, block, (uint32_t)w, pos, &ws);
        int ry = y + w * row;
        bool sel = s->sel_warp == w;
        if (ws.state == VIZ_WARP_RUNNING && (ws.stall < 0 || ws.stall == TRACE_STATE_SELECTED))
            viz_fill(c, (VizBox){r.x, ry, r.w, row - 1}, VIZ_RUNNING); /* (timed: only while it issues) */
        if (sel)
            viz_frame_rect(c, (VizBox){r.x, ry, r.w, row - 1}, VIZ_SELECT, 2);
        snprintf(buf, sizeof buf, "w%d", w);
        SDL_Color ink = VIZ_INK;
        if (ws.stall >= 0) { /* timed: the warp's label in the colour of its state */
            SDL_Color sc = viz_state_color(ws.stall);
            viz_fill(c, (VizBox){r.x + 1, ry + 1, label_w - 4, row - 3}, sc);
            ink = viz_ink_on(sc);
        }
        viz_text(c, VIZ_FONT_BOLD, buf, r.x + 4, ry + row / 2, 0, 1, ink);
        for (int lane = 0; lane < 32; lane++) {
            VizBox cb = {r.x + label_w + lane * cell, ry + 1, cell - 1, row - 3};
            SDL_Color col = lane_color(&ws, lane);
            viz_fill(c, cb, col);
            if (col.r == VIZ_NOTHREAD.r && col.g == VIZ_NOTHREAD.g && col.b == VIZ_NOTHREAD.b)
                viz_frame_rect(c, cb, VIZ_LINE, 1);
        }
        int tx = r.x + label_w + 32 * cell + 10;
        char state[40];
        if (ws.stall == TRACE_STATE_SELECTED)
            snprintf(state, sizeof state, "issuing");
        else if (ws.stall >= 0)
            snprintf(state, sizeof state, "%s", trace_state_name(ws.stall));
        else if (ws.state == VIZ_WARP_BARRIER)
            snprintf(state, sizeof state, "barrier %u", ws.bar_id);
        else
            snprintf(state, sizeof state, "%s", state_name(&ws));
        if (ws.has_issue && ws.file != TRACE_NONE) {
            const char *f = viz_model_string(m, ws.file), *base = strrchr(f, '/');
            snprintf(buf, sizeof buf, "%-*s pc %-4u %s:%u", states ? 18 : 10, state, ws.pc, base ? base + 1 : f,
                     ws.line);
        } else if (ws.has_issue) {
            snprintf(buf, sizeof buf, "%-*s pc %u", states ? 18 : 10, state, ws.pc);
        } else {
            snprintf(buf, sizeof buf, "%s", state);
        }
        if (ws.stall >= 0) {
            size_t k = strlen(buf);
            snprintf(buf + k, sizeof buf - k, "  since %" PRIu64, ws.stall_since);
        } else if (ws.state == VIZ_WARP_BARRIER) {
            size_t k = strlen(buf);
            snprintf(buf + k, sizeof buf - k, "  since %" PRIu64, ws.bar_cycle);
        }
        viz_text_clip(c, VIZ_FONT_MONO, buf, tx, ry + (row - fh) / 2, r.x + r.w - tx, VIZ_INK);
        viz_hit(c, (VizBox){r.x, ry, r.w, row - 1}, VIZ_HIT_WARP, t, (uint64_t)w, (uint64_t)ws.state);
        if ((sel || (focus_w < 0 && s->sel_warp < 0 && ws.state == VIZ_WARP_RUNNING)) && ws.has_issue) {
            focus = ws;
            focus_w = w;
        }
    }
    y += show * row + 4;
    if (show < (int)nw) {
        viz_textf(c, VIZ_FONT_SMALL, r.x + 4, y, VIZ_GREY, "%d more warps not shown", (int)nw - show);
        y += 16;
    }
    /* lane numbers under the rows */
    for (int lane = 0; lane < 32; lane += (cell >= 14 ? 4 : 8)) {
        snprintf(buf, sizeof buf, "%d", lane);
        viz_text(c, VIZ_FONT_SMALL, buf, r.x + label_w + lane * cell + cell / 2, y, 1, 0, VIZ_GREY);
    }
    y += 18;
    /* barriers of this block: threads waiting now */
    if (l->level >= TRACE_LEVEL_WARPS && sp && sp->dpos < pos && sp->rpos >= pos) {
        int bx = r.x;
        for (uint32_t id = 0; id < 16; id++) {
            uint32_t n = viz_model_barrier_waiting(m, block, id, pos);
            if (!n)
                continue;
            snprintf(buf, sizeof buf, "barrier %u: %u of %u threads waiting", id, n, viz_model_threads_per_block(m));
            VizBox bb = {bx, y, viz_text_width(c, VIZ_FONT_NORMAL, buf) + 26, 20};
            viz_fill(c, (VizBox){bb.x, bb.y + 4, 12, 12}, VIZ_BARRIER);
            viz_text(c, VIZ_FONT_NORMAL, buf, bb.x + 18, bb.y + 10, 0, 1, VIZ_INK);
            bx += bb.w + 10;
        }
        if (bx == r.x)
            viz_text(c, VIZ_FONT_NORMAL, "no thread of this block is waiting at a barrier", r.x, y + 10, 0, 1, VIZ_GREY);
        y += 24;
    }
    /* faults and race findings of this block so far */
    for (uint32_t i = 0, shown = 0; i < viz_model_nfindings(m) && shown < 4; i++) {
        const VizFinding *f = viz_model_finding(m, i);
        if (f->block != block || f->pos >= pos)
            continue;
        char who[64] = "";
        if (f->warp != TRACE_NONE && f->lane != TRACE_NONE)
            snprintf(who, sizeof who, ", warp %u lane %u", f->warp, f->lane);
        else if (f->warp != TRACE_NONE)
            snprintf(who, sizeof who, ", warp %u", f->warp);
        snprintf(buf, sizeof buf, "%s at cycle %" PRIu64 "%s: %s: %s", f->type == TRACE_EV_FAULT ? "fault" : "race",
                 viz_model_event_cycle(m, f->pos), who, f->kind, f->msg);
        y += viz_text_wrap(c, VIZ_FONT_BOLD, buf, r.x, y, r.w, 3, VIZ_FAULT) * viz_font_height(c, VIZ_FONT_BOLD) + 4;
        shown++;
    }
    /* the source around the focus warp's line */
    if (focus_w >= 0 && focus.file != TRACE_NONE && focus.line) {
        char line[200];
        snprintf(buf, sizeof buf, "warp %d at %s:%u", focus_w, viz_model_string(m, focus.file), focus.line);
        viz_text_clip(c, VIZ_FONT_BOLD, buf, r.x, y, r.w, VIZ_INK);
        y += fh + 6;
        for (int k = -2; k <= 2 && y + fh < r.y + r.h; k++) {
            if ((int)focus.line + k < 1)
                continue;
            if (!viz_model_source_line(m, focus.file, focus.line + (uint32_t)k, line, sizeof line))
                continue;
            if (k == 0)
                viz_fill(c, (VizBox){r.x, y - 1, r.w, fh + 2}, VIZ_RUNNING);
            snprintf(buf, sizeof buf, "%5u  %s", focus.line + (uint32_t)k, line);
            viz_text_clip(c, VIZ_FONT_MONO, buf, r.x + 4, y, r.w - 8, k == 0 ? VIZ_INK : VIZ_GREY);
            y += fh + 2;
        }
    }
}
