/* viz_states.c: the warp states of a timed trace (TRACE_EV_WARP_STATE,
 * traces/FORMAT.md v3) in the visualizer's model: each record's runs kept
 * per warp in cycle order, so "what was warp w doing at cycle c" (issuing,
 * or stalled: long_scoreboard, barrier, ...) is one binary search.  The SM
 * and GPU views colour warps by it. */
#include "viz_model_int.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool model_add_states(VizModel *m, const TraceEvent *e, uint32_t pos)
{
    const __typeof__(e->u.states) *t = &e->u.states;
    if (m->nstates == m->capstates) {
        uint32_t cap = m->capstates ? 2 * m->capstates : 256;
        MState *p = realloc(m->states, (size_t)cap * sizeof *p);
        if (!p)
            return false;
        m->states = p;
        m->capstates = cap;
    }
    if (m->nruns + t->n > m->capruns) {
        uint32_t cap = m->capruns ? m->capruns : 1024;
        while (cap < m->nruns + t->n)
            cap *= 2;
        uint8_t *ps = realloc(m->run_state, cap);
        if (!ps)
            return false;
        m->run_state = ps;
        uint32_t *pc = realloc(m->run_cycles, (size_t)cap * sizeof *pc);
        if (!pc)
            return false;
        m->run_cycles = pc;
        m->capruns = cap;
    }
    uint64_t total = 0;
    for (uint32_t i = 0; i < t->n; i++) {
        m->run_state[m->nruns + i] = t->state[i];
        m->run_cycles[m->nruns + i] = t->cycles[i];
        total += t->cycles[i];
    }
    /* the reader checked total <= cycle + 1 */
    m->states[m->nstates++] = (MState){.block = e->block, .start = e->cycle + 1 - total, .end = e->cycle,
                                       .warp = t->warp, .first = m->nruns, .n = t->n, .pos = pos};
    m->nruns += t->n;
    return true;
}

static int cmp_state(const void *a, const void *b)
{
    const MState *p = a, *q = b;
    if (p->block != q->block)
        return p->block < q->block ? -1 : 1;
    if (p->warp != q->warp)
        return p->warp < q->warp ? -1 : 1;
    if (p->end != q->end)
        return p->end < q->end ? -1 : 1;
    return p->first < q->first ? -1 : p->first > q->first;
}

void model_states_sort(VizModel *m)
{
    if (m->nstates)
        qsort(m->states, m->nstates, sizeof *m->states, cmp_state);
    for (uint32_t i = 0; i < m->nstates; i++)
        m->refs[m->states[i].pos] = i;
    m->bytes += (size_t)m->capstates * sizeof *m->states + (size_t)m->capruns * 5;
}

void model_states_free(VizModel *m)
{
    free(m->states);
    free(m->run_state);
    free(m->run_cycles);
}

void model_describe_states(const VizModel *m, uint32_t ref, char *buf, size_t cap)
{
    const MState *st = &m->states[ref];
    int n = snprintf(buf, cap, "block %" PRIu64 " warp %u, cycles %" PRIu64 "..%" PRIu64 ":", st->block, st->warp,
                     st->start, st->end);
    for (uint32_t i = 0; i < st->n && n > 0 && (size_t)n < cap; i++) {
        int k = snprintf(buf + n, cap - (size_t)n, "%s %s %u", i ? "," : "",
                         trace_state_name(m->run_state[st->first + i]), m->run_cycles[st->first + i]);
        if (k < 0)
            break;
        n += k;
    }
}

bool viz_model_has_states(const VizModel *m) { return (m->launch.flags & TRACE_FLAG_STATES) != 0; }

int viz_model_warp_stall(const VizModel *m, uint64_t block, uint32_t warp, uint64_t cycle, uint64_t *since)
{
    /* the first record of this warp whose last cycle is >= cycle */
    uint32_t lo = 0, hi = m->nstates;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        const MState *s = &m->states[mid];
        bool before = s->block != block ? s->block < block : s->warp != warp ? s->warp < warp : s->end < cycle;
        if (before)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == m->nstates)
        return -1;
    const MState *s = &m->states[lo];
    if (s->block != block || s->warp != warp || s->start > cycle)
        return -1;
    uint64_t t = s->start;
    for (uint32_t i = 0; i < s->n; i++) {
        uint64_t len = m->run_cycles[s->first + i];
        if (cycle < t + len) {
            if (since)
                *since = t;
            return m->run_state[s->first + i];
        }
        t += len;
    }
    return -1;
}
