/* viz_model.c: loading a trace into a VizModel (see viz_model.h).  One pass
 * over the reader appends every event to the array of its kind; then the
 * arrays are sorted for lookup, dispatches are paired with retires, each
 * block gets a stable slot on its SM, barrier arrivals are paired with
 * their releases, and atomics are grouped by address.  The queries are in
 * viz_query.c. */
#include "viz_model_int.h"

#include "file_read.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A growable array: *data holds *n elements of size es, room for *cap. */
static bool grow(void **data, uint32_t *n, size_t *cap, size_t es)
{
    if (*n < *cap)
        return true;
    size_t nc = *cap ? *cap * 2 : 64;
    void *p = realloc(*data, nc * es);
    if (!p)
        return false;
    *data = p;
    *cap = nc;
    return true;
}

#define PUSH(arr, n, cap, val)                                                                      \
    do {                                                                                            \
        if (!grow((void **)&(arr), &(n), &(cap), sizeof *(arr)))                                    \
            goto nomem;                                                                             \
        (arr)[(n)++] = (val);                                                                       \
    } while (0)

/* qsort, which must not be handed a NULL array even for 0 elements. */
static void sort_n(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *))
{
    if (n > 1)
        qsort(base, n, size, cmp);
}

/* ---- comparators ---------------------------------------------------------- */

static int cmp_span(const void *a, const void *b)
{
    const VizSpan *x = a, *y = b;
    return model_key_cmp(x->block, 0, x->dpos, y->block, 0, y->dpos);
}

typedef struct { uint64_t block; uint32_t pos, sm; } Retire;

static int cmp_retire(const void *a, const void *b)
{
    const Retire *x = a, *y = b;
    return model_key_cmp(x->block, 0, x->pos, y->block, 0, y->pos);
}

static int cmp_issue(const void *a, const void *b)
{
    const MIssue *x = a, *y = b;
    return model_key_cmp(x->block, x->warp, x->pos, y->block, y->warp, y->pos);
}

static int cmp_turn(const void *a, const void *b)
{
    const MTurn *x = a, *y = b;
    return model_key_cmp(x->block, x->warp, x->pos, y->block, y->warp, y->pos);
}

static int cmp_arrive_warp(const void *a, const void *b)
{
    const MArrive *x = a, *y = b;
    return model_key_cmp(x->block, x->warp, x->pos, y->block, y->warp, y->pos);
}

static int cmp_release(const void *a, const void *b)
{
    const MRelease *x = a, *y = b;
    return model_key_cmp(x->block, x->id, x->pos, y->block, y->id, y->pos);
}

static int cmp_mem(const void *a, const void *b)
{
    const MMem *x = a, *y = b;
    return model_key_cmp(x->block, x->warp, x->pos, y->block, y->warp, y->pos);
}

static int cmp_atomic(const void *a, const void *b)
{
    const VizAtomic *x = a, *y = b;
    if (x->space != y->space)
        return x->space < y->space ? -1 : 1;
    if (x->addr != y->addr)
        return x->addr < y->addr ? -1 : 1;
    if (x->order != y->order)
        return x->order < y->order ? -1 : 1;
    return x->pos < y->pos ? -1 : x->pos > y->pos;
}

static int cmp_aaddr(const void *a, const void *b)
{
    const VizAtomicAddr *x = a, *y = b;
    if (x->n != y->n)
        return x->n > y->n ? -1 : 1;
    if (x->space != y->space)
        return x->space < y->space ? -1 : 1;
    return x->addr < y->addr ? -1 : x->addr > y->addr;
}

static const VizModel *sort_model; /* qsort has no context argument */

static int cmp_sm_span(const void *a, const void *b)
{
    const VizSpan *x = &sort_model->spans[*(const uint32_t *)a], *y = &sort_model->spans[*(const uint32_t *)b];
    return model_key_cmp(x->sm, 0, x->dpos, y->sm, 0, y->dpos);
}

static int cmp_by_rpos(const void *a, const void *b)
{
    const VizSpan *x = &sort_model->spans[*(const uint32_t *)a], *y = &sort_model->spans[*(const uint32_t *)b];
    return x->rpos < y->rpos ? -1 : x->rpos > y->rpos ? 1 : x->dpos < y->dpos ? -1 : x->dpos > y->dpos;
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

/* ---- blocks ---------------------------------------------------------------- */

/* Pair each retire with the latest unretired dispatch of its block before it. */
static void pair_retires(VizModel *m, Retire *ret, uint32_t nret)
{
    sort_n(m->spans, m->nspans, sizeof *m->spans, cmp_span);
    sort_n(ret, nret, sizeof *ret, cmp_retire);
    uint32_t s = 0;
    for (uint32_t i = 0; i < nret; i++) {
        while (s < m->nspans && m->spans[s].block < ret[i].block)
            s++;
        /* the spans of this block before the retire: take the last open one */
        uint32_t best = UINT32_MAX;
        for (uint32_t k = s; k < m->nspans && m->spans[k].block == ret[i].block && m->spans[k].dpos < ret[i].pos; k++)
            if (m->spans[k].rpos == VIZ_NEVER)
                best = k;
        if (best != UINT32_MAX)
            m->spans[best].rpos = ret[i].pos;
    }
}

/* Min-heap of free slot numbers. */
static void heap_push(uint32_t *h, uint32_t *n, uint32_t v)
{
    uint32_t i = (*n)++;
    while (i > 0 && h[(i - 1) / 2] > v) {
        h[i] = h[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    h[i] = v;
}

static uint32_t heap_pop(uint32_t *h, uint32_t *n)
{
    uint32_t top = h[0], v = h[--*n], i = 0;
    for (;;) {
        uint32_t c = 2 * i + 1;
        if (c >= *n)
            break;
        if (c + 1 < *n && h[c + 1] < h[c])
            c++;
        if (h[c] >= v)
            break;
        h[i] = h[c];
        i = c;
    }
    h[i] = v;
    return top;
}

static void tree_build(uint32_t *t, uint32_t size, const VizModel *m, const uint32_t *idx, uint32_t n)
{
    for (uint32_t i = 0; i < size; i++)
        t[size + i] = i < n ? m->spans[idx[i]].rpos : 0;
    for (uint32_t i = size - 1; i >= 1; i--)
        t[i] = t[2 * i] > t[2 * i + 1] ? t[2 * i] : t[2 * i + 1];
}

/* Per-SM index by dispatch order, slots, segment trees, sorted positions. */
static bool index_sms(VizModel *m)
{
    uint32_t nsm = m->launch.sm_count, n = m->nspans;
    m->sm_first = calloc((size_t)nsm + 1, sizeof *m->sm_first);
    m->tree_first = calloc((size_t)nsm + 1, sizeof *m->tree_first);
    m->sm_spans = malloc(((size_t)n + 1) * sizeof *m->sm_spans);
    m->sm_rpos = malloc(((size_t)n + 1) * sizeof *m->sm_rpos);
    m->disp_pos = malloc(((size_t)n + 1) * sizeof *m->disp_pos);
    m->ret_pos = malloc(((size_t)n + 1) * sizeof *m->ret_pos);
    uint32_t *heap = malloc(((size_t)n + 1) * sizeof *heap);
    uint32_t *byr = malloc(((size_t)n + 1) * sizeof *byr);
    if (!m->sm_first || !m->tree_first || !m->sm_spans || !m->sm_rpos || !m->disp_pos || !m->ret_pos ||
        !heap || !byr)
        goto fail;
    for (uint32_t i = 0; i < n; i++) {
        m->sm_spans[i] = i;
        m->sm_first[m->spans[i].sm + 1]++;
        m->disp_pos[m->ndisp++] = m->spans[i].dpos;
        if (m->spans[i].rpos != VIZ_NEVER)
            m->ret_pos[m->nret++] = m->spans[i].rpos;
    }
    sort_n(m->disp_pos, m->ndisp, sizeof *m->disp_pos, cmp_u32);
    sort_n(m->ret_pos, m->nret, sizeof *m->ret_pos, cmp_u32);
    for (uint32_t s = 0; s < nsm; s++)
        m->sm_first[s + 1] += m->sm_first[s];
    sort_model = m;
    sort_n(m->sm_spans, n, sizeof *m->sm_spans, cmp_sm_span);
    size_t tsize = 0;
    for (uint32_t s = 0; s < nsm; s++) {
        uint32_t k = m->sm_first[s + 1] - m->sm_first[s], p = 1;
        while (p < k)
            p *= 2;
        m->tree_first[s] = (uint32_t)tsize;
        tsize += k ? 2 * (size_t)p : 0;
    }
    m->tree_first[nsm] = (uint32_t)tsize;
    m->tree = malloc((tsize + 1) * sizeof *m->tree);
    if (!m->tree)
        goto fail;
    for (uint32_t s = 0; s < nsm; s++) {
        uint32_t f = m->sm_first[s], k = m->sm_first[s + 1] - f;
        if (!k)
            continue;
        tree_build(m->tree + m->tree_first[s], (m->tree_first[s + 1] - m->tree_first[s]) / 2, m, m->sm_spans + f, k);
        /* span indices of this SM by retire position: retires in order,
         * for occupancy, and for slots below */
        memcpy(byr, m->sm_spans + f, k * sizeof *byr);
        sort_n(byr, k, sizeof *byr, cmp_by_rpos);
        for (uint32_t i = 0; i < k; i++)
            m->sm_rpos[f + i] = m->spans[byr[i]].rpos;
        /* slots: walk dispatches and retires in position order; a retire
         * frees its block's slot, a dispatch takes the lowest free one */
        uint32_t hn = 0, next = 0, live = 0, r = 0;
        const uint32_t *order = byr;
        for (uint32_t i = 0; i < k; i++) {
            VizSpan *sp = &m->spans[m->sm_spans[f + i]];
            while (r < k && m->spans[order[r]].rpos < sp->dpos) {
                heap_push(heap, &hn, m->spans[order[r]].slot);
                live--;
                r++;
            }
            uint32_t slot = hn ? heap_pop(heap, &hn) : next++;
            sp->slot = (uint16_t)(slot > UINT16_MAX ? UINT16_MAX : slot);
            live++;
            if (live > m->max_resident)
                m->max_resident = live;
        }
    }
    free(heap);
    free(byr);
    m->bytes += (size_t)n * 16 + tsize * 4 + (size_t)nsm * 8;
    return true;
fail:
    free(heap);
    free(byr);
    return false;
}

/* ---- barriers, atomics, refs ---------------------------------------------- */

/* Each arrival is released by the first release of its block and barrier
 * after it in the file. */
static void pair_barriers(VizModel *m)
{
    sort_n(m->releases, m->nreleases, sizeof *m->releases, cmp_release);
    for (uint32_t i = 0; i < m->narrives; i++) {
        MArrive *a = &m->arrives[i];
        uint32_t lo = 0, hi = m->nreleases;
        while (lo < hi) {
            uint32_t mid = lo + (hi - lo) / 2;
            const MRelease *r = &m->releases[mid];
            if (model_key_cmp(r->block, r->id, r->pos, a->block, a->id, a->pos) <= 0)
                lo = mid + 1;
            else
                hi = mid;
        }
        a->rel = lo < m->nreleases && m->releases[lo].block == a->block && m->releases[lo].id == a->id
                     ? m->releases[lo].pos : VIZ_NEVER;
    }
    sort_n(m->arrives, m->narrives, sizeof *m->arrives, cmp_arrive_warp);
}

static bool group_atomics(VizModel *m)
{
    sort_n(m->atoms, m->natoms, sizeof *m->atoms, cmp_atomic);
    uint32_t n = 0;
    for (uint32_t i = 0; i < m->natoms; i++)
        if (!i || m->atoms[i].addr != m->atoms[i - 1].addr || m->atoms[i].space != m->atoms[i - 1].space)
            n++;
    m->aaddrs = calloc((size_t)n + 1, sizeof *m->aaddrs);
    if (!m->aaddrs)
        return false;
    for (uint32_t i = 0; i < m->natoms; i++) {
        if (!i || m->atoms[i].addr != m->atoms[i - 1].addr || m->atoms[i].space != m->atoms[i - 1].space)
            m->aaddrs[m->naaddrs++] = (VizAtomicAddr){.addr = m->atoms[i].addr, .space = m->atoms[i].space, .first = i};
        m->aaddrs[m->naaddrs - 1].n++;
    }
    sort_n(m->aaddrs, m->naaddrs, sizeof *m->aaddrs, cmp_aaddr);
    m->bytes += (size_t)n * sizeof *m->aaddrs;
    return true;
}

/* After sorting, point each event at its record's new index. */
static bool fix_refs(VizModel *m)
{
    for (uint32_t i = 0; i < m->nspans; i++) {
        m->refs[m->spans[i].dpos] = i;
        if (m->spans[i].rpos != VIZ_NEVER)
            m->refs[m->spans[i].rpos] = i;
    }
#define FIX(arr, n) for (uint32_t i = 0; i < (n); i++) m->refs[(arr)[i].pos] = i
    FIX(m->issues, m->nissues);
    FIX(m->turns, m->nturns);
    FIX(m->arrives, m->narrives);
    FIX(m->releases, m->nreleases);
    FIX(m->atoms, m->natoms);
    FIX(m->gmem, m->ngmem);
#undef FIX
    for (uint32_t i = 0; i < m->nsmem; i++)
        m->refs[m->smem[i].pos] = i | MODEL_MEM_SHARED;
    /* accesses in file order, for "the last access in any block" */
    m->smem_bypos = malloc(((size_t)m->nsmem + 1) * sizeof *m->smem_bypos);
    m->gmem_bypos = malloc(((size_t)m->ngmem + 1) * sizeof *m->gmem_bypos);
    if (!m->smem_bypos || !m->gmem_bypos)
        return false;
    uint32_t ns = 0, ng = 0;
    for (uint64_t e = 0; e < m->nevents; e++) {
        if (m->types[e] != TRACE_EV_MEM || m->refs[e] == VIZ_NEVER)
            continue;
        if (m->refs[e] & MODEL_MEM_SHARED)
            m->smem_bypos[ns++] = m->refs[e] & ~MODEL_MEM_SHARED;
        else
            m->gmem_bypos[ng++] = m->refs[e];
    }
    m->bytes += ((size_t)m->nsmem + m->ngmem) * 4;
    return true;
}

/* ---- source files ---------------------------------------------------------- */

#define MODEL_SOURCE_MAX ((size_t)4 << 20)

static void load_sources(VizModel *m)
{
    for (uint32_t i = 2; i < m->nstrings && m->nsources < MODEL_MAX_SOURCES; i++) {
        if (!m->strings[i][0])
            continue;
        MSource *s = &m->sources[m->nsources];
        /* a trace names any path: a regular file of 4 MiB at most, never a
         * device or a FIFO that would hang the window */
        SimError e;
        size_t n;
        char *text = file_read_all(m->strings[i], MODEL_SOURCE_MAX, "source file", &n, &e);
        if (!text) {
            if (e.status == SIM_ERR_NOMEM)
                return;
            continue;
        }
        uint32_t nl = 1;
        for (size_t k = 0; k < n; k++)
            nl += text[k] == '\n';
        s->line_at = malloc(nl * sizeof *s->line_at);
        s->path = strdup(m->strings[i]);
        if (!s->line_at || !s->path) {
            free(text);
            free(s->line_at);
            free(s->path);
            memset(s, 0, sizeof *s);
            return;
        }
        s->line_at[0] = 0;
        for (size_t k = 0; k < n; k++)
            if (text[k] == '\n')
                s->line_at[++s->nlines] = (uint32_t)k + 1;
        s->nlines++;
        s->text = text;
        m->bytes += n + nl * 4;
        m->nsources++;
    }
}

/* ---- loading --------------------------------------------------------------- */

static void add_finding(VizModel *m, const TraceEvent *e, uint32_t pos)
{
    if (m->nfindings >= MODEL_MAX_FINDINGS)
        return;
    VizFinding *f = &m->findings[m->nfindings++];
    memset(f, 0, sizeof *f);
    f->type = e->type;
    f->block = e->block;
    f->pos = pos;
    if (e->type == TRACE_EV_FAULT) {
        f->warp = e->u.fault.warp;
        f->lane = e->u.fault.lane;
        f->pc = e->u.fault.pc;
        f->addr = e->u.fault.addr;
        snprintf(f->kind, sizeof f->kind, "%.*s", (int)e->u.fault.kind_len, e->u.fault.kind);
        snprintf(f->msg, sizeof f->msg, "%.*s", (int)e->u.fault.msg_len, e->u.fault.msg);
    } else {
        f->warp = e->u.race.warp;
        f->lane = e->u.race.lane;
        f->pc = e->u.race.pc;
        f->addr = e->u.race.addr;
        snprintf(f->kind, sizeof f->kind, "race");
        snprintf(f->msg, sizeof f->msg, "%.*s", (int)e->u.race.msg_len, e->u.race.msg);
    }
    /* non-printable bytes of a hostile trace would upset the font */
    for (char *c = f->msg; *c; c++)
        if ((unsigned char)*c < 0x20 || (unsigned char)*c >= 0x7f)
            *c = '?';
    for (char *c = f->kind; *c; c++)
        if ((unsigned char)*c < 0x20 || (unsigned char)*c >= 0x7f)
            *c = '?';
}

VizModel *viz_model_from_reader(TraceReader *r, const char *name, SimError *err)
{
    uint64_t nev = trace_nevents(r);
    if (nev > VIZ_MODEL_MAX_EVENTS) {
        sim_error_set(err, SIM_ERR_UNSUPPORTED, name, 0, 0,
                      "%llu events: the visualizer holds at most %u; trace fewer blocks or a lower "
                      "--trace-level (blocks or warps)", (unsigned long long)nev, VIZ_MODEL_MAX_EVENTS);
        return NULL;
    }
    VizModel *m = calloc(1, sizeof *m);
    Retire *ret = NULL;
    uint32_t nret = 0;
    size_t cap_span = 0, cap_ret = 0, cap_iss = 0, cap_turn = 0, cap_arr = 0, cap_rel = 0, cap_coll = 0;
    size_t cap_smem = 0, cap_gmem = 0, cap_addr = 0, cap_atom = 0;
    if (!m)
        goto nomem;
    m->name = strdup(name);
    m->launch = *trace_launch(r);
    m->nstrings = trace_nstrings(r);
    m->strings = calloc((size_t)m->nstrings + 1, sizeof *m->strings);
    m->nevents = nev;
    m->end_cycle = trace_end_cycle(r);
    m->end_status = trace_end_status(r);
    m->file_size = trace_size(r);
    m->cycles = malloc((nev + 1) * sizeof *m->cycles);
    m->types = malloc(nev + 1);
    m->refs = malloc((nev + 1) * sizeof *m->refs);
    m->findings = calloc(MODEL_MAX_FINDINGS, sizeof *m->findings);
    if (!m->name || !m->strings || !m->cycles || !m->types || !m->refs || !m->findings)
        goto nomem;
    for (uint32_t i = 0; i < m->nstrings; i++) {
        const char *s = trace_string(r, i);
        if (!(m->strings[i] = strdup(s)))
            goto nomem;
        for (char *c = m->strings[i]; *c; c++) /* shown on screen: keep it printable */
            if ((unsigned char)*c < 0x20 || *c == 0x7f)
                *c = '?';
        m->bytes += strlen(s) + 1 + sizeof(char *);
    }
    const TraceLaunch *l = &m->launch;
    uint64_t threads = (uint64_t)l->block[0] * l->block[1] * l->block[2];
    m->threads_per_block = (uint32_t)threads;
    m->warps_per_block = (uint32_t)((threads + 31) / 32);
    m->bytes += sizeof *m + (size_t)(nev + 1) * 13;

    TraceEvent e;
    trace_rewind(r);
    for (uint32_t i = 0; i < nev && trace_next(r, &e); i++) {
        m->cycles[i] = e.cycle;
        m->types[i] = (uint8_t)(e.type > 0xff ? 0 : e.type);
        m->refs[i] = VIZ_NEVER;
        switch (e.type) {
        case TRACE_EV_BLOCK_DISPATCH:
            PUSH(m->spans, m->nspans, cap_span,
                 ((VizSpan){.block = e.block, .sm = e.u.blk.sm, .dpos = i, .rpos = VIZ_NEVER}));
            break;
        case TRACE_EV_BLOCK_RETIRE:
            PUSH(ret, nret, cap_ret, ((Retire){.block = e.block, .pos = i, .sm = e.u.blk.sm}));
            break;
        case TRACE_EV_ISSUE:
            PUSH(m->issues, m->nissues, cap_iss,
                 ((MIssue){.block = e.block, .warp = e.u.issue.warp, .pos = i, .pc = e.u.issue.pc,
                           .mask = e.u.issue.mask, .file = e.u.issue.file, .line = e.u.issue.line}));
            break;
        case TRACE_EV_WARP_TURN:
            PUSH(m->turns, m->nturns, cap_turn,
                 ((MTurn){.block = e.block, .warp = e.u.turn.warp, .pos = i, .count = e.u.turn.count}));
            break;
        case TRACE_EV_BAR_ARRIVE:
            PUSH(m->arrives, m->narrives, cap_arr,
                 ((MArrive){.block = e.block, .warp = e.u.arrive.warp, .pos = i, .id = e.u.arrive.id,
                            .mask = e.u.arrive.mask, .arrived = e.u.arrive.arrived, .rel = VIZ_NEVER}));
            break;
        case TRACE_EV_BAR_RELEASE:
            PUSH(m->releases, m->nreleases, cap_rel,
                 ((MRelease){.block = e.block, .pos = i, .id = e.u.release.id, .released = e.u.release.released}));
            break;
        case TRACE_EV_COLLECTIVE:
            PUSH(m->colls, m->ncolls, cap_coll,
                 ((MColl){.block = e.block, .warp = e.u.coll.warp, .pos = i, .pc = e.u.coll.pc,
                          .mask = e.u.coll.mask, .member = e.u.coll.member, .kind = e.u.coll.kind,
                          .mode = e.u.coll.mode}));
            m->refs[i] = m->ncolls - 1;
            break;
        case TRACE_EV_MEM: {
            const int sp = e.u.mem.space;
            if (sp == TRACE_SPACE_CONST || sp == TRACE_SPACE_PARAM) {
                m->nother_mem++;
                break;
            }
            MMem mm = {.block = e.block, .warp = e.u.mem.warp, .pos = i, .pc = e.u.mem.pc, .mask = e.u.mem.mask,
                       .kind = e.u.mem.kind, .space = e.u.mem.space, .size = e.u.mem.size,
                       .conflict = e.u.mem.conflict, .form = e.u.mem.form};
            if (e.u.mem.form == TRACE_ADDR_STRIDE) {
                mm.a = e.u.mem.base;
                mm.b = e.u.mem.stride;
            } else {
                mm.a = m->naddrs;
                for (uint32_t q = e.u.mem.mask; q; q &= q - 1)
                    PUSH(m->addrs, m->naddrs, cap_addr, e.u.mem.addr[__builtin_ctz(q)]);
            }
            if (sp == TRACE_SPACE_SHARED)
                PUSH(m->smem, m->nsmem, cap_smem, mm);
            else
                PUSH(m->gmem, m->ngmem, cap_gmem, mm);
            break;
        }
        case TRACE_EV_ATOMIC:
            PUSH(m->atoms, m->natoms, cap_atom,
                 ((VizAtomic){.block = e.block, .addr = e.u.atom.addr, .old = e.u.atom.old, .val = e.u.atom.val,
                              .order = e.u.atom.order, .warp = e.u.atom.warp, .lane = e.u.atom.lane, .pos = i,
                              .pc = e.u.atom.pc, .op = e.u.atom.op, .space = e.u.atom.space,
                              .size = e.u.atom.size}));
            break;
        case TRACE_EV_TILE:
            m->refs[i] = m->ntiles;
            if (!model_add_tile(m, &e, i))
                goto nomem;
            break;
        case TRACE_EV_WARP_STATE:
            if (!model_add_states(m, &e, i))
                goto nomem;
            break;
        case TRACE_EV_FAULT:
        case TRACE_EV_RACE:
            m->refs[i] = m->nfindings < MODEL_MAX_FINDINGS ? m->nfindings : VIZ_NEVER;
            add_finding(m, &e, i);
            break;
        default:
            break;
        }
    }
    m->bytes += (size_t)cap_span * sizeof *m->spans + cap_iss * sizeof(MIssue) + cap_turn * sizeof(MTurn) +
                cap_arr * sizeof(MArrive) + cap_rel * sizeof(MRelease) + cap_coll * sizeof(MColl) +
                (cap_smem + cap_gmem) * sizeof(MMem) + cap_addr * 8 + cap_atom * sizeof(VizAtomic) +
                MODEL_MAX_FINDINGS * sizeof(VizFinding);

    /* a faulted block never retires; mark the spans a fault names */
    pair_retires(m, ret, nret);
    for (uint32_t i = 0; i < m->nfindings; i++) {
        if (m->findings[i].type != TRACE_EV_FAULT)
            continue;
        for (uint32_t s = 0; s < m->nspans; s++)
            if (m->spans[s].block == m->findings[i].block)
                m->spans[s].faulted = 1;
    }
    if (!index_sms(m))
        goto nomem;
    sort_n(m->issues, m->nissues, sizeof *m->issues, cmp_issue);
    model_states_sort(m);
    sort_n(m->turns, m->nturns, sizeof *m->turns, cmp_turn);
    sort_n(m->smem, m->nsmem, sizeof *m->smem, cmp_mem);
    sort_n(m->gmem, m->ngmem, sizeof *m->gmem, cmp_mem);
    pair_barriers(m);
    if (!group_atomics(m) || !fix_refs(m))
        goto nomem;
    load_sources(m);
    free(ret);
    return m;
nomem:
    free(ret);
    viz_model_free(m);
    sim_error_set(err, SIM_ERR_NOMEM, name, 0, 0, "out of memory loading the trace");
    return NULL;
}

VizModel *viz_model_load(const char *path, SimError *err)
{
    TraceReader *r = trace_open_file(path, err);
    if (!r)
        return NULL;
    VizModel *m = viz_model_from_reader(r, path, err);
    trace_close(r);
    return m;
}

void viz_model_free(VizModel *m)
{
    if (!m)
        return;
    for (uint32_t i = 0; m->strings && i < m->nstrings; i++)
        free(m->strings[i]);
    for (uint32_t i = 0; i < m->nsources; i++) {
        free(m->sources[i].path);
        free(m->sources[i].text);
        free(m->sources[i].line_at);
    }
    free(m->strings);
    free(m->name);
    free(m->cycles);
    free(m->types);
    free(m->refs);
    free(m->spans);
    free(m->sm_first);
    free(m->sm_spans);
    free(m->sm_rpos);
    free(m->tree_first);
    free(m->tree);
    free(m->disp_pos);
    free(m->ret_pos);
    free(m->issues);
    free(m->turns);
    free(m->arrives);
    free(m->releases);
    free(m->colls);
    free(m->smem);
    free(m->gmem);
    free(m->smem_bypos);
    free(m->gmem_bypos);
    free(m->addrs);
    free(m->atoms);
    free(m->aaddrs);
    free(m->findings);
    model_tiles_free(m);
    model_states_free(m);
    free(m);
}
