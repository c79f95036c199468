/* viz_frame.c: one frame of the visualizer -- the title with the launch and
 * the view tabs, the current view (twice, side by side, for two traces), the
 * status line saying what the last event did, the shared time axis with the
 * cursor, and the help panel when `h` turned it on. */
#include "viz_int.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#define TOP 36
#define BOTTOM 92

static const char *const tab_names[VIZ_VIEW_COUNT] = {"1 GPU", "2 SM", "3 Memory", "4 Atomics", "5 Tiles"};

VizBox viz_frame_axis(const VizCanvas *c)
{
    return (VizBox){70, c->h - BOTTOM + 30, c->w - 90, 22};
}

uint64_t viz_frame_axis_cycle(const VizCanvas *c, const VizState *s, int x)
{
    VizBox a = viz_frame_axis(c);
    if (x <= a.x)
        return s->t0;
    if (x >= a.x + a.w)
        return s->t1;
    return s->t0 + (uint64_t)((double)(x - a.x) / a.w * (double)(s->t1 - s->t0) + 0.5);
}

static int axis_x(VizBox a, const VizState *s, uint64_t c)
{
    if (c <= s->t0)
        return a.x;
    if (c >= s->t1)
        return a.x + a.w;
    return a.x + (int)((double)(c - s->t0) / (double)(s->t1 - s->t0) * a.w);
}

static void launch_text(const VizModel *m, char *buf, size_t cap)
{
    const TraceLaunch *l = viz_model_launch(m);
    snprintf(buf, cap, "%s<<<(%u,%u,%u), (%u,%u,%u)>>>  %s  level %s  %u SMs", viz_model_string(m, l->kernel),
             l->grid[0], l->grid[1], l->grid[2], l->block[0], l->block[1], l->block[2], viz_model_string(m, l->arch),
             trace_level_name(l->level), l->sm_count);
}

static void draw_title(VizCanvas *c, const VizState *s)
{
    viz_fill(c, (VizBox){0, 0, c->w, TOP}, (SDL_Color){36, 40, 52, 255});
    SDL_Color white = {255, 255, 255, 255}, dim = {170, 178, 196, 255};
    int x = 12 + viz_text(c, VIZ_FONT_BIG, "warpsim viz", 12, TOP / 2, 0, 1, white) + 14;
    char buf[256];
    int tabs_w = 8;
    for (int v = 0; v < VIZ_VIEW_COUNT; v++)
        tabs_w += viz_text_width(c, VIZ_FONT_BOLD, tab_names[v]) + 24;
    if (s->n == 1)
        launch_text(s->m[0], buf, sizeof buf);
    else
        snprintf(buf, sizeof buf, "two traces side by side on one time axis");
    int fh = viz_font_height(c, VIZ_FONT_NORMAL);
    viz_text_clip(c, VIZ_FONT_NORMAL, buf, x, (TOP - fh) / 2, c->w - tabs_w - x - 8, dim);
    /* the tabs, right-aligned */
    int tx = c->w - 8;
    for (int v = VIZ_VIEW_COUNT - 1; v >= 0; v--) {
        int w = viz_text_width(c, VIZ_FONT_BOLD, tab_names[v]) + 20;
        tx -= w;
        VizBox b = {tx, 6, w, TOP - 10};
        bool on = v == s->view;
        viz_fill(c, b, on ? VIZ_BG : (SDL_Color){60, 66, 84, 255});
        viz_text(c, VIZ_FONT_BOLD, tab_names[v], tx + w / 2, 6 + (TOP - 10) / 2, 1, 1, on ? VIZ_INK : white);
        viz_hit(c, b, VIZ_HIT_TAB, 0, (uint64_t)v, 0);
        tx -= 4;
    }
}

/* Tick spacing: 1, 2 or 5 times a power of ten, about every 90 pixels. */
static uint64_t tick_step(uint64_t span, int width)
{
    double want = (double)span * 90.0 / (width > 1 ? width : 1);
    uint64_t p = 1;
    for (;;) {
        if ((double)p >= want)
            return p;
        if ((double)(2 * p) >= want)
            return 2 * p;
        if ((double)(5 * p) >= want)
            return 5 * p;
        if (p > UINT64_MAX / 20)
            return p;
        p *= 10;
    }
}

static void draw_axis(VizCanvas *c, const VizState *s)
{
    int y0 = c->h - BOTTOM;
    viz_fill(c, (VizBox){0, y0, c->w, BOTTOM}, VIZ_PANEL);
    viz_line(c, 0, y0, c->w, y0, VIZ_LINE);
    /* status: the cycle and what the last event did */
    char buf[320];
    snprintf(buf, sizeof buf, "cycle %" PRIu64 " of %" PRIu64, s->cycle, s->end);
    int w = viz_text(c, VIZ_FONT_BOLD, buf, 12, y0 + 6, 0, 0, VIZ_INK);
    viz_text_clip(c, VIZ_FONT_NORMAL, s->status, 12 + w + 16, y0 + 6, c->w - w - 40, VIZ_GREY);

    VizBox a = viz_frame_axis(c);
    viz_text(c, VIZ_FONT_SMALL, "time", a.x - 8, a.y + a.h / 2, 2, 1, VIZ_GREY);
    viz_fill(c, a, (SDL_Color){236, 238, 243, 255});
    /* one lane per trace: its extent, block dispatches as ticks, faults in red */
    int lane_h = (a.h - 2) / s->n;
    for (int t = 0; t < s->n; t++) {
        const VizModel *m = s->m[t];
        int ly = a.y + 1 + t * lane_h;
        int xe = axis_x(a, s, viz_model_end_cycle(m));
        SDL_Color lc = t ? (SDL_Color){214, 200, 240, 255} : (SDL_Color){200, 218, 244, 255};
        viz_fill(c, (VizBox){a.x, ly, xe - a.x, lane_h}, lc);
        /* dispatch density: mark each pixel column that has a dispatch (visible
         * spans only; a binary search per column) */
        for (int x = a.x; x < xe; x++) {
            uint64_t c0 = viz_frame_axis_cycle(c, s, x), c1 = viz_frame_axis_cycle(c, s, x + 1);
            if (viz_model_dispatched(m, viz_model_pos_at(m, c1)) >
                viz_model_dispatched(m, c0 ? viz_model_pos_at(m, c0 - 1) : 0))
                viz_line(c, x, ly + lane_h - 4, x, ly + lane_h - 1, (SDL_Color){80, 100, 150, 255});
        }
        for (uint32_t i = 0; i < viz_model_nfindings(m); i++) {
            const VizFinding *f = viz_model_finding(m, i);
            int x = axis_x(a, s, viz_model_event_cycle(m, f->pos));
            viz_fill(c, (VizBox){x - 1, ly, 3, lane_h}, f->type == TRACE_EV_FAULT ? VIZ_FAULT : VIZ_BARRIER);
        }
        if (s->n > 1)
            viz_text(c, VIZ_FONT_SMALL, t ? "B" : "A", a.x + 3, ly + lane_h / 2, 0, 1, VIZ_INK);
    }
    viz_frame_rect(c, a, VIZ_GREY, 1);
    viz_hit(c, (VizBox){a.x, a.y - 4, a.w, a.h + 8}, VIZ_HIT_AXIS, 0, 0, 0);
    /* ticks */
    uint64_t step = tick_step(s->t1 - s->t0, a.w);
    uint64_t first = (s->t0 + step - 1) / step * step;
    for (uint64_t v = first; v <= s->t1; v += step) {
        int x = axis_x(a, s, v);
        viz_line(c, x, a.y + a.h, x, a.y + a.h + 4, VIZ_GREY);
        snprintf(buf, sizeof buf, "%" PRIu64, v);
        viz_text(c, VIZ_FONT_SMALL, buf, x, a.y + a.h + 5, 1, 0, VIZ_GREY);
        if (v > UINT64_MAX - step)
            break;
    }
    /* the cursor */
    if (s->cycle >= s->t0 && s->cycle <= s->t1) {
        int x = axis_x(a, s, s->cycle);
        viz_fill(c, (VizBox){x - 1, a.y - 5, 3, a.h + 10}, VIZ_CURSOR);
        viz_fill(c, (VizBox){x - 4, a.y - 7, 9, 4}, VIZ_CURSOR);
    }
    /* footer: play state and the keys */
    int fy = c->h - 17;
    snprintf(buf, sizeof buf, "%s  %.0f cycles/s%s", s->playing ? "playing" : "paused", s->speed,
             s->t1 - s->t0 < s->end ? "  (zoomed)" : "");
    int sw = viz_text(c, VIZ_FONT_SMALL, buf, c->w - 12, fy, 2, 0, s->playing ? VIZ_ACTIVE : VIZ_GREY);
    viz_text_clip(c, VIZ_FONT_SMALL,
                  "space play/pause   \xe2\x86\x92 next event   . next cycle   + - speed   drag the axis to scrub   "
                  "wheel zoom   click to select   1-5 views   h help   q quit",
                  12, fy, c->w - sw - 40, VIZ_GREY);
}

static void draw_help(VizCanvas *c)
{
    static const char *const lines[][2] = {
        {"space", "play / pause"},
        {"\xe2\x86\x92  \xe2\x86\x90", "next / previous event"},
        {".  ,", "next / previous cycle"},
        {"Home  End", "first / last cycle"},
        {"+  -", "play faster / slower (x2)"},
        {"click, drag the time axis", "scrub to that cycle"},
        {"mouse wheel", "zoom the time axis (occupancy strips follow)"},
        {"click an SM, block, warp", "select it (the SM and memory views follow it)"},
        {"click an address", "show its queue of atomic updates"},
        {"1  2  3  4  5", "GPU, SM, memory, atomics, tile view"},
        {"c", "clear the selection"},
        {"h", "this help"},
        {"q  Esc", "quit"},
    };
    int n = (int)(sizeof lines / sizeof *lines), lh = viz_font_height(c, VIZ_FONT_NORMAL) + 6;
    int w = 560, h = 70 + n * lh, x = (c->w - w) / 2, y = (c->h - h) / 2;
    viz_fill(c, (VizBox){x + 6, y + 6, w, h}, (SDL_Color){0, 0, 0, 60});
    viz_fill(c, (VizBox){x, y, w, h}, VIZ_PANEL);
    viz_frame_rect(c, (VizBox){x, y, w, h}, VIZ_INK, 2);
    viz_text(c, VIZ_FONT_BIG, "Keys and mouse", x + 20, y + 14, 0, 0, VIZ_INK);
    for (int i = 0; i < n; i++) {
        viz_text(c, VIZ_FONT_BOLD, lines[i][0], x + 20, y + 48 + i * lh, 0, 0, VIZ_INK);
        viz_text(c, VIZ_FONT_NORMAL, lines[i][1], x + 230, y + 48 + i * lh, 0, 0, VIZ_GREY);
    }
    viz_text(c, VIZ_FONT_SMALL, "h closes this panel", x + w - 16, y + h - 20, 2, 0, VIZ_GREY);
}

void viz_frame_draw(VizCanvas *c, VizState *s)
{
    c->nhits = 0;
    SDL_SetRenderDrawColor(c->r, VIZ_BG.r, VIZ_BG.g, VIZ_BG.b, 255);
    SDL_RenderClear(c->r);
    draw_title(c, s);
    int top = TOP + 6, h = c->h - BOTTOM - top - 6, gap = 8;
    int w = (c->w - 12 - gap * (s->n - 1)) / s->n;
    for (int t = 0; t < s->n; t++) {
        VizBox b = {6 + t * (w + gap), top, w, h};
        if (s->n > 1) {
            char buf[300], l[200];
            launch_text(s->m[t], l, sizeof l);
            snprintf(buf, sizeof buf, "%s  %s", t ? "B" : "A", viz_model_name(s->m[t]));
            viz_fill(c, (VizBox){b.x, b.y, b.w, 36}, (SDL_Color){226, 230, 240, 255});
            viz_text_clip(c, VIZ_FONT_BOLD, buf, b.x + 8, b.y + 3, b.w - 16, VIZ_INK);
            viz_text_clip(c, VIZ_FONT_SMALL, l, b.x + 8, b.y + 20, b.w - 16, VIZ_GREY);
            b.y += 38;
            b.h -= 38;
        }
        SDL_Rect clip = {b.x, b.y, b.w, b.h};
        SDL_RenderSetClipRect(c->r, &clip);
        viz_fill(c, b, VIZ_PANEL);
        switch (s->view) {
        case VIZ_VIEW_SM: viz_view_sm(c, s, t, b); break;
        case VIZ_VIEW_MEMORY: viz_view_memory(c, s, t, b); break;
        case VIZ_VIEW_ATOMICS: viz_view_atomics(c, s, t, b); break;
        case VIZ_VIEW_TILE: viz_view_tile(c, s, t, b); break;
        default: viz_view_gpu(c, s, t, b); break;
        }
        SDL_RenderSetClipRect(c->r, NULL);
        viz_frame_rect(c, b, VIZ_LINE, 1);
    }
    draw_axis(c, s);
    if (s->help)
        draw_help(c);
}
