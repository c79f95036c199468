/* view_memory.c: the memory view of one block -- above, shared memory's 32
 * banks with the words the block's latest shared access touched stacked in
 * each bank (more than one word in a bank is a conflict: the access is
 * replayed once per word) and the conflict degree the trace recorded; below,
 * each warp's latest global access as the 32-byte sectors it moved, which
 * is what coalescing is about. */
#include "viz_int.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_SECTORS 64

static SDL_Color kind_color(int kind)
{
    return kind == TRACE_MEM_STORE ? VIZ_STORE : kind == TRACE_MEM_ATOMIC ? VIZ_ATOM : VIZ_LOAD;
}

static void access_text(const VizModel *m, const VizAccess *a, uint32_t pos, char *buf, size_t cap)
{
    uint64_t c = viz_model_event_cycle(m, a->pos);
    snprintf(buf, cap, "warp %u  %s.%s  %u B a lane, %u lane%s, at cycle %" PRIu64 "%s", a->warp,
             trace_mem_kind_name(a->kind), trace_space_name(a->space), a->size, a->nlanes, a->nlanes == 1 ? "" : "s", c,
             a->pos + 1 == pos ? "  (the event just shown)" : "");
}

/* Lanes as text: "7", "0-31", "0-3 8-11". */
static void lanes_text(uint32_t mask, char *buf, size_t cap)
{
    size_t k = 0;
    buf[0] = 0;
    for (int l = 0; l < 32 && k + 8 < cap;) {
        if (!(mask >> l & 1)) {
            l++;
            continue;
        }
        int e = l;
        while (e + 1 < 32 && (mask >> (e + 1) & 1))
            e++;
        k += (size_t)snprintf(buf + k, cap - k, k ? " %d" : "%d", l);
        if (e > l)
            k += (size_t)snprintf(buf + k, cap - k, "-%d", e);
        l = e + 1;
    }
}

static int draw_banks(VizCanvas *c, const VizState *s, int t, VizBox r, uint64_t block)
{
    const VizModel *m = s->m[t];
    uint32_t pos = s->pos[t];
    viz_text(c, VIZ_FONT_BIG, "Shared memory: 32 banks of 4-byte words", r.x, r.y, 0, 0, VIZ_INK);
    int y = r.y + 24;
    /* the block's latest shared access (of the selected warp, if one is) */
    VizAccess a, best = {0};
    bool have = false;
    uint32_t nw = viz_model_warps_per_block(m);
    for (uint32_t w = 0; w < nw; w++) {
        if (s->sel_warp >= 0 && (uint32_t)s->sel_warp != w)
            continue;
        if (viz_model_last_access(m, block, w, true, pos, &a) && (!have || a.pos > best.pos)) {
            best = a;
            have = true;
        }
    }
    char buf[300];
    if (!have) {
        viz_text(c, VIZ_FONT_NORMAL,
                 viz_model_launch(m)->level < TRACE_LEVEL_MEMORY
                     ? "No memory detail: record the trace with --trace-level memory."
                     : "No shared-memory access by this block (or warp) yet.",
                 r.x, y, 0, 0, VIZ_GREY);
        return 50;
    }
    access_text(m, &best, pos, buf, sizeof buf);
    viz_text_clip(c, VIZ_FONT_NORMAL, buf, r.x, y, r.w, VIZ_INK);
    y += 20;
    if (best.conflict <= 1)
        snprintf(buf, sizeof buf, "conflict degree 1: conflict-free, one pass serves every lane");
    else
        snprintf(buf, sizeof buf, "conflict degree %u: %u-way bank conflict, the access is replayed %u times",
                 best.conflict, best.conflict, best.conflict);
    viz_text_clip(c, VIZ_FONT_BOLD, buf, r.x, y, r.w, best.conflict > 1 ? VIZ_FAULT : VIZ_ACTIVE);
    y += 24;
    /* words per bank */
    uint64_t words[32][32];
    uint32_t lanes[32][32];
    int nwords[32] = {0};
    unsigned size = best.size ? best.size : 1;
    for (int l = 0; l < 32; l++) {
        if (!(best.mask >> l & 1))
            continue;
        uint64_t w0 = best.addr[l] / 4, w1 = (best.addr[l] + size - 1) / 4;
        for (uint64_t wd = w0; wd <= w1 && wd - w0 < 32; wd++) {
            int b = (int)(wd % 32), k;
            for (k = 0; k < nwords[b] && words[b][k] != wd; k++)
                ;
            if (k == nwords[b]) {
                if (nwords[b] == 32)
                    continue;
                words[b][k] = wd;
                lanes[b][k] = 0;
                nwords[b]++;
            }
            lanes[b][k] |= 1u << l;
        }
    }
    int maxw = 1;
    for (int b = 0; b < 32; b++)
        maxw = nwords[b] > maxw ? nwords[b] : maxw;
    int colw = (r.w - 50) / 32, avail = r.h - (y - r.y) - 40;
    int cellh = maxw ? avail / maxw : 20;
    if (cellh > 30)
        cellh = 30;
    if (cellh < 4)
        cellh = 4;
    viz_text(c, VIZ_FONT_SMALL, "bank", r.x, y, 0, 0, VIZ_GREY);
    for (int b = 0; b < 32; b++) {
        int x = r.x + 44 + b * colw;
        snprintf(buf, sizeof buf, "%d", b);
        viz_text(c, VIZ_FONT_SMALL, buf, x + colw / 2, y, 1, 0, VIZ_GREY);
        viz_fill(c, (VizBox){x, y + 16, colw - 2, maxw * cellh}, (SDL_Color){246, 247, 250, 255});
        for (int k = 0; k < nwords[b]; k++) {
            VizBox cb = {x, y + 16 + k * cellh, colw - 2, cellh - 2};
            SDL_Color col = nwords[b] > 1 ? VIZ_FAULT : kind_color(best.kind);
            viz_fill(c, cb, col);
            char ln[64];
            lanes_text(lanes[b][k], ln, sizeof ln);
            snprintf(buf, sizeof buf, "%s", ln);
            if (viz_text_width(c, VIZ_FONT_SMALL, buf) + 2 <= cb.w && cb.h >= 11)
                viz_text(c, VIZ_FONT_SMALL, buf, cb.x + cb.w / 2, cb.y + cb.h / 2, 1, 1, viz_ink_on(col));
        }
        viz_hit(c, (VizBox){x, y + 16, colw - 2, maxw * cellh}, VIZ_HIT_BANK, t, (uint64_t)b, (uint64_t)nwords[b]);
    }
    y += 16 + maxw * cellh + 4;
    viz_text(c, VIZ_FONT_SMALL, "each box: one 4-byte word the access touched, labelled with the lanes that use it",
             r.x + 44, y, 0, 0, VIZ_GREY);
    return y + 18 - r.y;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static void draw_sectors(VizCanvas *c, const VizState *s, int t, VizBox r, uint64_t block)
{
    const VizModel *m = s->m[t];
    uint32_t pos = s->pos[t], nw = viz_model_warps_per_block(m);
    viz_text(c, VIZ_FONT_BIG, "Global memory: each warp's latest access, in 32-byte sectors", r.x, r.y, 0, 0, VIZ_INK);
    int y = r.y + 26, row = 24;
    int fh = viz_font_height(c, VIZ_FONT_MONO);
    bool any = false;
    char buf[300];
    for (uint32_t w = 0; w < nw && y + row <= r.y + r.h; w++) {
        VizAccess a;
        if (!viz_model_last_access(m, block, w, false, pos, &a))
            continue;
        any = true;
        uint64_t sec[MAX_SECTORS];
        int ns = 0;
        unsigned size = a.size ? a.size : 1;
        for (int l = 0; l < 32; l++) {
            if (!(a.mask >> l & 1))
                continue;
            for (uint64_t q = a.addr[l] / 32; q <= (a.addr[l] + size - 1) / 32 && ns < MAX_SECTORS; q++) {
                int k;
                for (k = 0; k < ns && sec[k] != q; k++)
                    ;
                if (k == ns)
                    sec[ns++] = q;
            }
        }
        qsort(sec, (size_t)ns, sizeof *sec, cmp_u64);
        bool sel = s->sel_warp == (int)w;
        if (sel)
            viz_fill(c, (VizBox){r.x, y - 2, r.w, row}, VIZ_RUNNING);
        snprintf(buf, sizeof buf, "w%u", w);
        viz_text(c, VIZ_FONT_BOLD, buf, r.x + 4, y + row / 2 - 2, 0, 1, VIZ_INK);
        uint64_t used = (uint64_t)a.nlanes * size, moved = (uint64_t)ns * 32;
        snprintf(buf, sizeof buf, "%s.%s %uB x%u: %d sector%s, %" PRIu64 " of %" PRIu64 " B used (%d%%)",
                 trace_mem_kind_name(a.kind), trace_space_name(a.space), size, a.nlanes, ns, ns == 1 ? "" : "s", used,
                 moved, moved ? (int)(100 * (used < moved ? used : moved) / moved) : 0);
        int textw = 380, x = r.x + 44, maxx = r.x + r.w - textw;
        int bw = ns ? (maxx - x) / (ns + 2) : 10;
        if (bw > 22)
            bw = 22;
        if (bw < 3)
            bw = 3;
        int x0 = x;
        for (int k = 0; k < ns; k++) {
            if (k && sec[k] != sec[k - 1] + 1)
                x += bw / 2 + 3; /* a gap: not the next sector */
            if (x + bw > maxx)
                break;
            viz_fill(c, (VizBox){x, y, bw - 1, row - 6}, kind_color(a.kind));
            x += bw;
        }
        viz_hit(c, (VizBox){x0, y, x - x0, row - 6}, VIZ_HIT_SECTOR, t, w, (uint64_t)ns);
        viz_text_clip(c, VIZ_FONT_MONO, buf, maxx + 8, y + (row - 6 - fh) / 2, textw - 8, VIZ_INK);
        y += row;
    }
    if (!any)
        viz_text(c, VIZ_FONT_NORMAL,
                 viz_model_launch(m)->level < TRACE_LEVEL_MEMORY
                     ? "No memory detail: record the trace with --trace-level memory."
                     : "No global access by this block yet.",
                 r.x, y, 0, 0, VIZ_GREY);
}

void viz_view_memory(VizCanvas *c, const VizState *s, int t, VizBox b)
{
    const VizModel *m = s->m[t];
    VizLegendItem legend[] = {
        {VIZ_LOAD, "load", 0},
        {VIZ_STORE, "store", 0},
        {VIZ_ATOM, "atomic", 0},
        {VIZ_FAULT, "bank conflict (several words in one bank)", 0},
        {VIZ_RUNNING, "selected warp", 0},
    };
    int lh = viz_legend(c, b, legend, (int)(sizeof legend / sizeof *legend));
    b.h -= lh;
    uint64_t block;
    if (s->sel_block != VIZ_NONE || !viz_model_last_access_block(m, true, s->pos[t], &block))
        block = viz_state_block(s, t);
    char buf[160];
    snprintf(buf, sizeof buf, "block %" PRIu64 "%s", block, s->sel_warp >= 0 ? "" : "   (click a warp in the SM view to follow one)");
    viz_text_clip(c, VIZ_FONT_NORMAL, buf, b.x + 12, b.y + 6, b.w - 24, VIZ_GREY);
    VizBox top = {b.x + 12, b.y + 28, b.w - 24, (b.h - 28) * 11 / 20};
    int used = draw_banks(c, s, t, top, block);
    int gy = top.y + (used < top.h ? used : top.h) + 10;
    viz_line(c, b.x, gy - 5, b.x + b.w, gy - 5, VIZ_LINE);
    draw_sectors(c, s, t, (VizBox){b.x + 12, gy, b.w - 24, b.y + b.h - gy - 4}, block);
}
