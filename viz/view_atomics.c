/* view_atomics.c: the atomics view -- the addresses that atomics updated
 * (most updates first) down the left, and for the selected one its queue of
 * element updates in the order they were applied: which thread, the value
 * before and after.  Updates applied by the shown cycle are filled, the
 * latest highlighted, the rest still to come.  Lesson 1's atomic_sum puts
 * all its threads in one queue; staged_sum makes it one per block. */
#include "viz_int.h"

#include <inttypes.h>
#include <stdio.h>

#define LIST_W 300

void viz_view_atomics(VizCanvas *c, const VizState *s, int t, VizBox b)
{
    const VizModel *m = s->m[t];
    uint32_t pos = s->pos[t], na = viz_model_natomic_addrs(m);
    VizLegendItem legend[] = {
        {VIZ_DONE, "applied", 0},
        {VIZ_LATEST, "applied last", 0},
        {VIZ_LINE, "still to come", 1},
        {VIZ_SELECT, "selected address", 1},
    };
    int lh = viz_legend(c, b, legend, (int)(sizeof legend / sizeof *legend));
    b.h -= lh;
    char buf[320];
    if (!na) {
        viz_text(c, VIZ_FONT_BIG, "No atomic updates in this trace", b.x + 12, b.y + 10, 0, 0, VIZ_INK);
        viz_text_clip(c, VIZ_FONT_NORMAL,
                      viz_model_launch(m)->level < TRACE_LEVEL_MEMORY
                          ? "Atomic element updates are recorded at --trace-level memory."
                          : "The kernel made no atomic update (try lesson 1's atomic_sum or staged_sum).",
                      b.x + 12, b.y + 36, b.w - 24, VIZ_GREY);
        return;
    }
    uint32_t sel = s->sel_addr < na ? s->sel_addr : 0;
    /* the address list */
    int lw = b.w > 3 * LIST_W ? LIST_W : b.w / 3;
    viz_text(c, VIZ_FONT_BIG, "Addresses", b.x + 10, b.y + 6, 0, 0, VIZ_INK);
    int y = b.y + 30, rh = 34;
    for (uint32_t i = 0; i < na && y + rh <= b.y + b.h; i++, y += rh + 2) {
        const VizAtomicAddr *a = viz_model_atomic_addr(m, i);
        uint32_t done = viz_model_atomics_done(m, a, pos);
        VizBox ab = {b.x + 8, y, lw - 16, rh};
        viz_fill(c, ab, i == sel ? (SDL_Color){226, 236, 252, 255} : (SDL_Color){246, 247, 250, 255});
        if (i == sel)
            viz_frame_rect(c, ab, VIZ_SELECT, 2);
        snprintf(buf, sizeof buf, "0x%" PRIx64 "  %s", a->addr, trace_space_name(a->space));
        viz_text_clip(c, VIZ_FONT_MONO, buf, ab.x + 6, ab.y + 3, ab.w - 12, VIZ_INK);
        snprintf(buf, sizeof buf, "%u update%s, %u applied", a->n, a->n == 1 ? "" : "s", done);
        viz_text_clip(c, VIZ_FONT_SMALL, buf, ab.x + 6, ab.y + 18, ab.w - 12, VIZ_GREY);
        viz_hit(c, ab, VIZ_HIT_ADDR, t, i, a->n);
    }
    if (y + rh > b.y + b.h && na > 1)
        viz_textf(c, VIZ_FONT_SMALL, b.x + 10, b.y + b.h - 16, VIZ_GREY, "%u addresses in all", na);
    viz_line(c, b.x + lw, b.y, b.x + lw, b.y + b.h, VIZ_LINE);

    /* the queue of the selected address */
    const VizAtomicAddr *a = viz_model_atomic_addr(m, sel);
    uint32_t done = viz_model_atomics_done(m, a, pos);
    const VizAtomic *first = viz_model_atomic(m, a->first);
    VizBox q = {b.x + lw + 12, b.y + 6, b.w - lw - 24, b.h - 12};
    snprintf(buf, sizeof buf, "atom.%s on [0x%" PRIx64 "] (%s)", trace_atom_op_name(first->op), a->addr,
             trace_space_name(a->space));
    viz_text_clip(c, VIZ_FONT_BIG, buf, q.x, q.y, q.w, VIZ_INK);
    snprintf(buf, sizeof buf, "%u of %u updates applied", done, a->n);
    int done_w = viz_text_clip(c, VIZ_FONT_BOLD, buf, q.x, q.y + 24, q.w, VIZ_INK) + 12;
    viz_text_clip(c, VIZ_FONT_SMALL, "one box per element update, in the order applied: #order  block/thread  old -> new",
                  q.x, q.y + 44, q.w, VIZ_GREY);
    int top = q.y + 64, ew = 232, eh = 22;
    int cols = q.w / (ew + 6), rows = (q.y + q.h - top) / (eh + 4);
    if (cols < 1)
        cols = 1;
    if (rows < 1)
        rows = 1;
    uint32_t fit = (uint32_t)(cols * rows), start = 0;
    if (a->n > fit && done > fit / 2) { /* keep the latest applied in view */
        start = done - fit / 2;
        start -= start % (uint32_t)rows;
        if (start + fit > a->n)
            start = a->n > fit ? a->n - fit : 0;
    }
    for (uint32_t k = start; k < a->n && k < start + fit; k++) {
        const VizAtomic *u = viz_model_atomic(m, a->first + k);
        uint32_t slot = k - start;
        VizBox eb = {q.x + (int)(slot / (uint32_t)rows) * (ew + 6), top + (int)(slot % (uint32_t)rows) * (eh + 4), ew,
                     eh};
        bool applied = k < done;
        SDL_Color col = !applied ? VIZ_PANEL : k + 1 == done ? VIZ_LATEST : VIZ_DONE;
        viz_fill(c, eb, col);
        viz_frame_rect(c, eb, applied ? VIZ_GREY : VIZ_LINE, 1);
        char o[32], v[32];
        viz_model_format_value(u->old, u->size, o, sizeof o);
        viz_model_format_value(u->val, u->size, v, sizeof v);
        snprintf(buf, sizeof buf, "#%" PRIu64 " b%" PRIu64 " t%u  %s -> %s", u->order, u->block, u->warp * 32 + u->lane,
                 o, v);
        viz_text_clip(c, VIZ_FONT_SMALL, buf, eb.x + 5, eb.y + (eh - viz_font_height(c, VIZ_FONT_SMALL)) / 2,
                      ew - 10, applied ? viz_ink_on(col) : VIZ_GREY);
        viz_hit(c, eb, VIZ_HIT_QUEUE, t, k, applied);
    }
    if (a->n > fit) {
        viz_textf(c, VIZ_FONT_SMALL, q.x + done_w, q.y + 26, VIZ_GREY, "(showing updates %u-%u)", start + 1,
                  start + fit < a->n ? start + fit : a->n);
    }
}
