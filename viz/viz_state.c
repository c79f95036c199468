/* viz_state.c: the viewer's state -- the traces, the cycle shown on their
 * shared time axis and each trace's position at it, playing, zooming and
 * stepping.  With two traces, stepping one event moves to whichever trace
 * has the next event first, so both stay on one clock. */
#include "viz_int.h"

#include <stdio.h>
#include <string.h>

static void describe_last(VizState *s)
{
    /* the latest applied event of any trace */
    int best = -1;
    uint64_t bc = 0;
    for (int t = 0; t < s->n; t++)
        if (s->pos[t] > 0) {
            uint64_t c = viz_model_event_cycle(s->m[t], s->pos[t] - 1);
            if (best < 0 || c >= bc) {
                best = t;
                bc = c;
            }
        }
    if (best < 0) {
        snprintf(s->status, sizeof s->status, "before the first event");
        return;
    }
    char buf[240];
    viz_model_describe_event(s->m[best], s->pos[best] - 1, buf, sizeof buf);
    snprintf(s->status, sizeof s->status, "%s%s", s->n > 1 ? (best ? "B: " : "A: ") : "", buf);
}

bool viz_state_open(VizState *s, const VizOptions *o, SimError *err)
{
    memset(s, 0, sizeof *s);
    if (o->npaths < 1 || o->npaths > 2) {
        sim_error_set(err, SIM_ERR_USAGE, "", 0, 0, "one or two traces, not %d", o->npaths);
        return false;
    }
    for (int t = 0; t < o->npaths; t++) {
        s->m[t] = viz_model_load(o->paths[t], err);
        if (!s->m[t]) {
            viz_state_close(s);
            return false;
        }
        s->n = t + 1;
        uint64_t e = viz_model_end_cycle(s->m[t]);
        if (e > s->end)
            s->end = e;
    }
    s->view = o->view >= 0 && o->view < VIZ_VIEW_COUNT ? o->view : VIZ_VIEW_GPU;
    s->sel_sm = o->sm;
    s->sel_block = o->block;
    s->sel_warp = -1;
    for (int t = 0; t < s->n && o->max_warps_per_sm; t++)
        s->max_warps_per_sm[t] = o->max_warps_per_sm(viz_model_string(s->m[t], viz_model_launch(s->m[t])->arch));
    s->t0 = 0;
    s->t1 = s->end ? s->end : 1;
    /* play the launch in about 20 seconds, in power-of-two steps of speed */
    s->speed = 1;
    while (s->speed * 20 < (double)s->end)
        s->speed *= 2;
    viz_state_seek(s, o->at_cycle == VIZ_AT_MIDDLE ? s->end / 2 : o->at_cycle);
    return true;
}

void viz_state_close(VizState *s)
{
    for (int t = 0; t < 2; t++)
        viz_model_free(s->m[t]);
    memset(s, 0, sizeof *s);
}

void viz_state_seek(VizState *s, uint64_t c)
{
    if (c > s->end)
        c = s->end;
    s->cycle = c;
    for (int t = 0; t < s->n; t++)
        s->pos[t] = viz_model_pos_at(s->m[t], c);
    /* keep the cursor inside the visible window */
    uint64_t w = s->t1 - s->t0;
    if (c < s->t0 || c > s->t1) {
        s->t0 = c > w / 2 ? c - w / 2 : 0;
        if (s->t0 + w > s->end && s->end > w)
            s->t0 = s->end - w;
        s->t1 = s->t0 + w;
    }
    describe_last(s);
}

void viz_state_step_event(VizState *s, int dir)
{
    int best = -1;
    uint64_t bc = 0;
    if (dir > 0) {
        /* the trace whose next event comes first */
        for (int t = 0; t < s->n; t++)
            if (s->pos[t] < viz_model_nevents(s->m[t])) {
                uint64_t c = viz_model_event_cycle(s->m[t], s->pos[t]);
                if (best < 0 || c < bc) {
                    best = t;
                    bc = c;
                }
            }
        if (best < 0)
            return;
        s->pos[best]++;
    } else {
        /* the trace whose last applied event came last */
        for (int t = 0; t < s->n; t++)
            if (s->pos[t] > 0) {
                uint64_t c = viz_model_event_cycle(s->m[t], s->pos[t] - 1);
                if (best < 0 || c >= bc) {
                    best = t;
                    bc = c;
                }
            }
        if (best < 0)
            return;
        s->pos[best]--;
        bc = s->pos[best] ? viz_model_event_cycle(s->m[best], s->pos[best] - 1) : 0;
    }
    /* the other trace keeps its position: its events are all at or before
     * this cycle, and its next one is not earlier */
    s->cycle = bc;
    uint64_t w = s->t1 - s->t0;
    if (s->cycle < s->t0 || s->cycle > s->t1) {
        s->t0 = s->cycle > w / 2 ? s->cycle - w / 2 : 0;
        s->t1 = s->t0 + w;
    }
    describe_last(s);
}

void viz_state_step_cycle(VizState *s, int dir)
{
    if (dir > 0)
        viz_state_seek(s, s->cycle < s->end ? s->cycle + 1 : s->end);
    else
        viz_state_seek(s, s->cycle > 0 ? s->cycle - 1 : 0);
}

void viz_state_play(VizState *s, double dt)
{
    if (!s->playing)
        return;
    double adv = s->speed * dt + s->carry;
    uint64_t step = (uint64_t)adv;
    s->carry = adv - (double)step;
    if (!step)
        return;
    uint64_t c = step >= s->end - s->cycle ? s->end : s->cycle + step;
    if (c >= s->end) {
        c = s->end;
        s->playing = false;
    }
    viz_state_seek(s, c);
}

void viz_state_zoom(VizState *s, double factor, uint64_t about)
{
    double w = (double)(s->t1 - s->t0) * factor;
    if (w < 16)
        w = 16;
    if (w > (double)(s->end ? s->end : 1))
        w = (double)(s->end ? s->end : 1);
    double frac = s->t1 > s->t0 ? (double)(about - s->t0) / (double)(s->t1 - s->t0) : 0.5;
    double t0 = (double)about - frac * w;
    if (t0 < 0)
        t0 = 0;
    if (t0 + w > (double)s->end)
        t0 = (double)s->end - w;
    if (t0 < 0)
        t0 = 0;
    s->t0 = (uint64_t)t0;
    s->t1 = s->t0 + (uint64_t)w;
    if (s->t1 <= s->t0)
        s->t1 = s->t0 + 1;
}

uint64_t viz_state_block(const VizState *s, int t)
{
    if (s->sel_block != VIZ_NONE)
        return s->sel_block;
    const VizModel *m = s->m[t];
    uint32_t pos = s->pos[t], one;
    /* the first block resident on the selected SM (slot order) */
    if (s->sel_sm >= 0 && viz_model_resident(m, (uint32_t)s->sel_sm, pos, &one, 1))
        return viz_model_span(m, one)->block;
    /* else the resident block dispatched last, or the last one dispatched */
    const VizSpan *best = NULL;
    for (uint32_t i = 0; i < viz_model_nspans(m); i++) {
        const VizSpan *sp = viz_model_span(m, i);
        if (sp->dpos >= pos || (s->sel_sm >= 0 && sp->sm != (uint32_t)s->sel_sm))
            continue;
        bool res = sp->rpos >= pos, bres = best && best->rpos >= pos;
        if (!best || (res && !bres) || (res == bres && sp->dpos > best->dpos))
            best = sp;
    }
    if (best)
        return best->block;
    return viz_model_nspans(m) ? viz_model_span(m, 0)->block : 0;
}
