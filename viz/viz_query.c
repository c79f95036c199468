/* viz_query.c: the questions a VizModel answers (see viz_model.h): what is
 * resident where, what each warp is doing, the last memory access of a warp,
 * the queue of one address's atomics -- each a binary search or a walk over
 * what is on screen, never a replay of the trace. */
#include "viz_model_int.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

const char *viz_model_name(const VizModel *m) { return m->name; }
const TraceLaunch *viz_model_launch(const VizModel *m) { return &m->launch; }
const char *viz_model_string(const VizModel *m, uint32_t i) { return i < m->nstrings ? m->strings[i] : ""; }
uint32_t viz_model_warps_per_block(const VizModel *m) { return m->warps_per_block; }
uint32_t viz_model_threads_per_block(const VizModel *m) { return m->threads_per_block; }
uint64_t viz_model_nevents(const VizModel *m) { return m->nevents; }
uint64_t viz_model_end_cycle(const VizModel *m) { return m->end_cycle; }
int viz_model_end_status(const VizModel *m) { return m->end_status; }
size_t viz_model_file_size(const VizModel *m) { return m->file_size; }
size_t viz_model_memory(const VizModel *m) { return m->bytes; }
uint32_t viz_model_nspans(const VizModel *m) { return m->nspans; }
const VizSpan *viz_model_span(const VizModel *m, uint32_t i) { return i < m->nspans ? &m->spans[i] : NULL; }
uint32_t viz_model_max_resident(const VizModel *m) { return m->max_resident; }
uint64_t viz_model_naccesses(const VizModel *m) { return (uint64_t)m->nsmem + m->ngmem + m->nother_mem; }
uint32_t viz_model_natomic_addrs(const VizModel *m) { return m->naaddrs; }
const VizAtomicAddr *viz_model_atomic_addr(const VizModel *m, uint32_t i) { return i < m->naaddrs ? &m->aaddrs[i] : NULL; }
const VizAtomic *viz_model_atomic(const VizModel *m, uint32_t i) { return i < m->natoms ? &m->atoms[i] : NULL; }
uint32_t viz_model_nfindings(const VizModel *m) { return m->nfindings; }
const VizFinding *viz_model_finding(const VizModel *m, uint32_t i) { return i < m->nfindings ? &m->findings[i] : NULL; }

/* ---- time ------------------------------------------------------------------ */

uint64_t viz_model_event_cycle(const VizModel *m, uint64_t i)
{
    return i < m->nevents ? m->cycles[i] : m->end_cycle;
}

int viz_model_event_type(const VizModel *m, uint64_t i)
{
    return i < m->nevents ? m->types[i] : 0;
}

uint32_t viz_model_pos_at(const VizModel *m, uint64_t c)
{
    uint64_t lo = 0, hi = m->nevents;
    while (lo < hi) {
        uint64_t mid = lo + (hi - lo) / 2;
        if (m->cycles[mid] <= c)
            lo = mid + 1;
        else
            hi = mid;
    }
    return (uint32_t)lo;
}

uint64_t viz_model_pos_cycle(const VizModel *m, uint32_t pos)
{
    return pos == 0 ? 0 : m->cycles[pos <= m->nevents ? pos - 1 : m->nevents - 1];
}

/* Number of positions in sorted a[0..n) below p. */
static uint32_t count_below(const uint32_t *a, uint32_t n, uint32_t p)
{
    uint32_t lo = 0, hi = n;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (a[mid] < p)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

uint64_t viz_model_dispatched(const VizModel *m, uint32_t pos) { return count_below(m->disp_pos, m->ndisp, pos); }
uint64_t viz_model_retired(const VizModel *m, uint32_t pos) { return count_below(m->ret_pos, m->nret, pos); }

/* ---- blocks ---------------------------------------------------------------- */

const VizSpan *viz_model_find_block(const VizModel *m, uint64_t block)
{
    uint32_t lo = 0, hi = m->nspans;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (m->spans[mid].block < block)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < m->nspans && m->spans[lo].block == block ? &m->spans[lo] : NULL;
}

typedef struct {
    const VizModel *m;
    const uint32_t *idx, *tree;
    uint32_t k, pos, *out, cap, n;
} Collect;

/* Report the spans among idx[0..k) whose rpos >= pos (not yet retired). */
static void collect(Collect *c, uint32_t node, uint32_t lo, uint32_t hi)
{
    if (lo >= c->k || c->tree[node] < c->pos)
        return;
    if (hi - lo == 1) {
        if (c->n < c->cap)
            c->out[c->n] = c->idx[lo];
        c->n++;
        return;
    }
    uint32_t mid = lo + (hi - lo) / 2;
    collect(c, 2 * node, lo, mid);
    collect(c, 2 * node + 1, mid, hi);
}

uint32_t viz_model_resident(const VizModel *m, uint32_t sm, uint32_t pos, uint32_t *out, uint32_t cap)
{
    if (sm >= m->launch.sm_count)
        return 0;
    uint32_t f = m->sm_first[sm], n = m->sm_first[sm + 1] - f;
    if (!n)
        return 0;
    /* dispatched before pos: a prefix of the SM's spans in dispatch order */
    uint32_t lo = 0, hi = n;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (m->spans[m->sm_spans[f + mid]].dpos < pos)
            lo = mid + 1;
        else
            hi = mid;
    }
    uint32_t size = (m->tree_first[sm + 1] - m->tree_first[sm]) / 2;
    Collect c = {m, m->sm_spans + f, m->tree + m->tree_first[sm], lo, pos, out, cap, 0};
    collect(&c, 1, 0, size);
    uint32_t got = c.n < cap ? c.n : cap;
    for (uint32_t i = 1; i < got; i++) { /* by slot: few, insertion sort */
        uint32_t v = out[i], j = i;
        while (j > 0 && m->spans[out[j - 1]].slot > m->spans[v].slot) {
            out[j] = out[j - 1];
            j--;
        }
        out[j] = v;
    }
    return c.n;
}

void viz_model_occupancy(const VizModel *m, uint32_t sm, uint64_t c0, uint64_t c1, double *avg, uint32_t *peak,
                         int n)
{
    if (n <= 0)
        return;
    for (int i = 0; i < n; i++) {
        if (avg)
            avg[i] = 0;
        if (peak)
            peak[i] = 0;
    }
    if (sm >= m->launch.sm_count || c1 <= c0)
        return;
    uint32_t f = m->sm_first[sm], k = m->sm_first[sm + 1] - f;
    if (!k)
        return;
    /* dispatches and retires of this SM merged in position order, from the
     * first event of cycle c0 on; live = resident before it */
    uint32_t p0 = c0 ? viz_model_pos_at(m, c0 - 1) : 0, lo = 0, hi = k;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (m->spans[m->sm_spans[f + mid]].dpos < p0)
            lo = mid + 1;
        else
            hi = mid;
    }
    uint32_t di = lo, ri = count_below(m->sm_rpos + f, k, p0);
    int64_t live = (int64_t)di - (int64_t)ri;
    uint64_t span = c1 - c0, cs = c0;
    for (int col = 0; col < n; col++) {
        uint64_t ce = col == n - 1 ? c1 : c0 + (uint64_t)((double)span * (col + 1) / n);
        int64_t best = live;
        double acc = 0;
        uint64_t prev = cs;
        for (;;) {
            uint32_t dp = di < k ? m->spans[m->sm_spans[f + di]].dpos : VIZ_NEVER;
            uint32_t rp = ri < k ? m->sm_rpos[f + ri] : VIZ_NEVER;
            uint32_t p = dp < rp ? dp : rp;
            if (p == VIZ_NEVER || m->cycles[p] >= ce)
                break;
            uint64_t ec = m->cycles[p];
            if (ec > prev) {
                acc += (double)live * (double)(ec - prev);
                prev = ec;
            }
            if (dp < rp) {
                live++;
                di++;
            } else {
                live--;
                ri++;
            }
            if (live > best)
                best = live;
        }
        if (ce > prev)
            acc += (double)live * (double)(ce - prev);
        if (avg)
            avg[col] = ce > cs ? acc / (double)(ce - cs) : (double)live;
        if (peak)
            peak[col] = (uint32_t)(best < 0 ? 0 : best);
        cs = ce;
    }
}

/* ---- warps ----------------------------------------------------------------- */

/* First index in arr (n elements of type T with block, warp, pos) whose key
 * is >= (b, w, p). */
#define LOWER(arr, n, b, w, p, res)                                                                  \
    do {                                                                                             \
        uint32_t lo_ = 0, hi_ = (n);                                                                 \
        while (lo_ < hi_) {                                                                          \
            uint32_t mid_ = lo_ + (hi_ - lo_) / 2;                                                   \
            if (model_key_cmp((arr)[mid_].block, (arr)[mid_].warp, (arr)[mid_].pos, (b), (w), (p)) < 0) \
                lo_ = mid_ + 1;                                                                      \
            else                                                                                     \
                hi_ = mid_;                                                                          \
        }                                                                                            \
        (res) = lo_;                                                                                 \
    } while (0)

void viz_model_warp_state(const VizModel *m, uint64_t block, uint32_t warp, uint32_t pos, VizWarpState *out)
{
    memset(out, 0, sizeof *out);
    out->file = TRACE_NONE;
    out->stall = -1;
    uint64_t first = (uint64_t)warp * 32;
    out->threads = first >= m->threads_per_block ? 0 : m->threads_per_block - first > 32 ? 32
                                                                       : (uint32_t)(m->threads_per_block - first);
    const VizSpan *sp = viz_model_find_block(m, block);
    if (!sp || sp->dpos >= pos) {
        out->state = VIZ_WARP_NOT_STARTED;
        return;
    }
    bool retired = sp->rpos < pos;
    if (m->launch.level < TRACE_LEVEL_WARPS) {
        out->state = retired ? VIZ_WARP_EXITED : VIZ_WARP_UNKNOWN;
        return;
    }
    uint32_t i;
    LOWER(m->issues, m->nissues, block, warp, pos, i);
    if (i > 0 && m->issues[i - 1].block == block && m->issues[i - 1].warp == warp) {
        const MIssue *is = &m->issues[i - 1];
        out->has_issue = true;
        out->pc = is->pc;
        out->mask = is->mask;
        out->file = is->file;
        out->line = is->line;
        out->issue_cycle = m->cycles[is->pos];
    }
    uint32_t t0, t;
    LOWER(m->turns, m->nturns, block, warp, 0, t0);
    LOWER(m->turns, m->nturns, block, warp, pos, t);
    out->turns = t - t0;
    bool next_turn = t < m->nturns && m->turns[t].block == block && m->turns[t].warp == warp;
    uint32_t a;
    LOWER(m->arrives, m->narrives, block, warp, pos, a);
    bool at_bar = false;
    if (a > 0 && m->arrives[a - 1].block == block && m->arrives[a - 1].warp == warp && m->arrives[a - 1].rel >= pos) {
        const MArrive *ar = &m->arrives[a - 1];
        at_bar = true;
        out->bar_id = ar->id;
        out->bar_mask = ar->mask;
        out->bar_arrived = ar->arrived;
        out->bar_cycle = m->cycles[ar->pos];
    }
    if (retired) {
        out->state = VIZ_WARP_EXITED;
    } else if (at_bar) {
        out->state = VIZ_WARP_BARRIER;
    } else if (next_turn) {
        const MTurn *nt = &m->turns[t];
        uint64_t start = m->cycles[nt->pos] - nt->count, now = viz_model_pos_cycle(m, pos);
        out->state = start <= now ? VIZ_WARP_RUNNING : VIZ_WARP_READY;
    } else {
        out->state = out->turns > 0 ? VIZ_WARP_EXITED : VIZ_WARP_READY;
    }
    if (m->nstates && !retired)
        out->stall = viz_model_warp_stall(m, block, warp, viz_model_pos_cycle(m, pos), &out->stall_since);
}

uint32_t viz_model_barrier_waiting(const VizModel *m, uint64_t block, uint32_t id, uint32_t pos)
{
    uint32_t n = 0;
    for (uint32_t w = 0; w < m->warps_per_block; w++) {
        uint32_t a;
        LOWER(m->arrives, m->narrives, block, w, pos, a);
        if (a > 0 && m->arrives[a - 1].block == block && m->arrives[a - 1].warp == w && m->arrives[a - 1].id == id &&
            m->arrives[a - 1].rel >= pos)
            n += (uint32_t)__builtin_popcount(m->arrives[a - 1].mask);
    }
    return n;
}

/* ---- memory ---------------------------------------------------------------- */

static void to_access(const VizModel *m, const MMem *mm, VizAccess *out)
{
    memset(out, 0, sizeof *out);
    out->block = mm->block;
    out->warp = mm->warp;
    out->pos = mm->pos;
    out->pc = mm->pc;
    out->mask = mm->mask;
    out->kind = mm->kind;
    out->space = mm->space;
    out->size = mm->size;
    out->conflict = mm->conflict;
    uint64_t k = 0;
    for (uint32_t q = mm->mask; q; q &= q - 1) {
        int l = __builtin_ctz(q);
        out->addr[l] = mm->form == TRACE_ADDR_STRIDE ? mm->a + (uint64_t)mm->b * (uint64_t)l : m->addrs[mm->a + k];
        k++;
    }
    out->nlanes = (uint32_t)k;
}

bool viz_model_last_access(const VizModel *m, uint64_t block, uint32_t warp, bool shared, uint32_t pos,
                           VizAccess *out)
{
    const MMem *arr = shared ? m->smem : m->gmem;
    uint32_t n = shared ? m->nsmem : m->ngmem, i;
    LOWER(arr, n, block, warp, pos, i);
    if (i == 0 || arr[i - 1].block != block || arr[i - 1].warp != warp)
        return false;
    to_access(m, &arr[i - 1], out);
    return true;
}

bool viz_model_last_access_block(const VizModel *m, bool shared, uint32_t pos, uint64_t *block)
{
    const MMem *arr = shared ? m->smem : m->gmem;
    const uint32_t *by = shared ? m->smem_bypos : m->gmem_bypos;
    uint32_t n = shared ? m->nsmem : m->ngmem, lo = 0, hi = n;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (arr[by[mid]].pos < pos)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == 0)
        return false;
    *block = arr[by[lo - 1]].block;
    return true;
}

/* ---- atomics --------------------------------------------------------------- */

uint32_t viz_model_atomics_done(const VizModel *m, const VizAtomicAddr *a, uint32_t pos)
{
    /* the queue is in the order the updates hit memory; the file is in cycle
     * order, and SMs simulated a slice at a time can reach one address out of
     * cycle order: count the updates recorded before pos */
    uint32_t n = 0;
    for (uint32_t k = 0; k < a->n; k++)
        n += m->atoms[a->first + k].pos < pos;
    return n;
}

/* ---- source ---------------------------------------------------------------- */

bool viz_model_source_line(const VizModel *m, uint32_t file, uint32_t line, char *buf, size_t cap)
{
    if (file >= m->nstrings || line == 0 || cap == 0)
        return false;
    for (uint32_t i = 0; i < m->nsources; i++) {
        const MSource *s = &m->sources[i];
        if (strcmp(s->path, m->strings[file]) || line > s->nlines)
            continue;
        const char *p = s->text + s->line_at[line - 1];
        size_t k = 0;
        for (; p[k] && p[k] != '\n' && p[k] != '\r' && k + 1 < cap; k++)
            buf[k] = p[k] == '\t' ? ' ' : (unsigned char)p[k] < 0x20 ? '?' : p[k];
        buf[k] = 0;
        return true;
    }
    return false;
}

char *viz_model_format_value(uint64_t v, unsigned size, char *buf, size_t cap)
{
    if (size <= 4) {
        uint32_t u = (uint32_t)v;
        int32_t s = (int32_t)u;
        if (s > -(1 << 24) && s < (1 << 24))
            snprintf(buf, cap, "%" PRId32, s);
        else
            snprintf(buf, cap, "0x%08" PRIx32, u);
    } else {
        int64_t s = (int64_t)v;
        if (s > -(1ll << 40) && s < (1ll << 40))
            snprintf(buf, cap, "%" PRId64, s);
        else
            snprintf(buf, cap, "0x%016" PRIx64, v);
    }
    return buf;
}

/* ---- describing an event ----------------------------------------------------- */

char *viz_model_describe_event(const VizModel *m, uint64_t i, char *buf, size_t cap)
{
    if (i >= m->nevents) {
        snprintf(buf, cap, "end of the launch (%s)", m->end_status ? "faulted" : "ran clean");
        return buf;
    }
    uint32_t ref = m->refs[i];
    int type = m->types[i];
    const char *name = trace_event_name(type);
    if (ref == VIZ_NEVER) {
        snprintf(buf, cap, "cycle %" PRIu64 ": %s", m->cycles[i],
                 type == TRACE_EV_MEM ? "a param or const memory access" : name);
        return buf;
    }
    int n = snprintf(buf, cap, "cycle %" PRIu64 ": ", m->cycles[i]);
    if (n < 0 || (size_t)n >= cap)
        return buf;
    char *p = buf + n;
    size_t c = cap - (size_t)n;
    switch (type) {
    case TRACE_EV_BLOCK_DISPATCH:
    case TRACE_EV_BLOCK_RETIRE:
        snprintf(p, c, "block %" PRIu64 " %s SM %u", m->spans[ref].block,
                 type == TRACE_EV_BLOCK_DISPATCH ? "dispatched to" : "retired from", m->spans[ref].sm);
        break;
    case TRACE_EV_ISSUE: {
        const MIssue *s = &m->issues[ref];
        int k = snprintf(p, c, "block %" PRIu64 " warp %u issued pc %u, lanes 0x%08x", s->block, s->warp, s->pc,
                         s->mask);
        if (s->file != TRACE_NONE && k > 0 && (size_t)k < c)
            snprintf(p + k, c - (size_t)k, ", %s:%u", viz_model_string(m, s->file), s->line);
        break;
    }
    case TRACE_EV_WARP_TURN: {
        const MTurn *t = &m->turns[ref];
        snprintf(p, c, "block %" PRIu64 " warp %u ran %u instructions", t->block, t->warp, t->count);
        break;
    }
    case TRACE_EV_BAR_ARRIVE: {
        const MArrive *a = &m->arrives[ref];
        snprintf(p, c, "block %" PRIu64 " warp %u arrived at barrier %u (%u threads so far)", a->block, a->warp,
                 a->id, a->arrived);
        break;
    }
    case TRACE_EV_BAR_RELEASE: {
        const MRelease *r = &m->releases[ref];
        snprintf(p, c, "block %" PRIu64 " barrier %u released %u threads", r->block, r->id, r->released);
        break;
    }
    case TRACE_EV_COLLECTIVE: {
        const MColl *k = &m->colls[ref];
        snprintf(p, c, "block %" PRIu64 " warp %u %s.sync, lanes 0x%08x", k->block, k->warp, trace_coll_name(k->kind),
                 k->mask);
        break;
    }
    case TRACE_EV_MEM: {
        const MMem *mm = ref & MODEL_MEM_SHARED ? &m->smem[ref & ~MODEL_MEM_SHARED] : &m->gmem[ref];
        int k = snprintf(p, c, "block %" PRIu64 " warp %u %s.%s %uB, %d lanes", mm->block, mm->warp,
                         trace_mem_kind_name(mm->kind), trace_space_name(mm->space), mm->size,
                         __builtin_popcount(mm->mask));
        if (mm->conflict > 1 && k > 0 && (size_t)k < c)
            snprintf(p + k, c - (size_t)k, ", %u-way bank conflict", mm->conflict);
        break;
    }
    case TRACE_EV_ATOMIC: {
        const VizAtomic *a = &m->atoms[ref];
        char o[40], v[40];
        viz_model_format_value(a->old, a->size, o, sizeof o);
        viz_model_format_value(a->val, a->size, v, sizeof v);
        snprintf(p, c, "block %" PRIu64 " thread %u atom.%s [0x%" PRIx64 "] %s -> %s", a->block,
                 a->warp * 32 + a->lane, trace_atom_op_name(a->op), a->addr, o, v);
        break;
    }
    case TRACE_EV_WARP_STATE:
        model_describe_states(m, ref, p, c);
        break;
    case TRACE_EV_FAULT:
    case TRACE_EV_RACE: {
        const VizFinding *f = &m->findings[ref];
        snprintf(p, c, "block %" PRIu64 " %s: %s", f->block, f->kind, f->msg);
        break;
    }
    default:
        snprintf(p, c, "%s", name);
    }
    return buf;
}
