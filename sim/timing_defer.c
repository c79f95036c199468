/* timing_defer.c: the shared units' answers, deferred to the round's end.
 * Inside a round's slice an SM sends its L2 requests to its own outbox and
 * gets pending values back (timing_int.h, TIMING_PEND): nodes of its own
 * that say how each stored value follows from the answers.  At the round's
 * end, on one thread, timing_defer_resolve performs the outboxes SM after
 * SM in the order the requests were made -- the order the model answering
 * at once sends them in -- evaluates the nodes and writes every pending
 * value's number where it was kept.  So SMs can run their slices side by
 * side (exec_par.c) and the L2, DRAM and every timing result are the ones
 * of one thread, bit for bit.  docs/timing.md, item 5. */
#include <stdlib.h>
#include <string.h>

#include "exec_int.h"
#include "timing_int.h"

/* ---- growing the SM's arrays ---------------------------------------------------- */

static bool grow(void **v, uint32_t *cap, uint32_t need, size_t size)
{
    if (need <= *cap)
        return true;
    uint32_t n = *cap ? *cap : 256;
    while (n < need)
        n *= 2;
    void *p = realloc(*v, (size_t)n * size);
    if (!p)
        return false;
    *v = p;
    *cap = n;
    return true;
}

/* A new node of SM sm (node 0 stands for every node that could not be
 * made: the launch faults at the round's end). */
static uint64_t node_new(TimingModel *tm, int sm, const TimingNode *n)
{
    TimingDefer *d = &tm->sms[sm].df;
    if (!d->nnodes && grow((void **)&d->nodes, &d->cap_nodes, 1, sizeof *d->nodes)) {
        memset(&d->nodes[0], 0, sizeof d->nodes[0]);
        d->nodes[0].lb = UINT64_MAX / 2;
        d->nnodes = 1;
    }
    if (!d->nnodes || !grow((void **)&d->nodes, &d->cap_nodes, d->nnodes + 1, sizeof *d->nodes)) {
        d->nomem = true;
        return TIMING_PEND;
    }
    d->nodes[d->nnodes] = *n;
    return TIMING_PEND | d->nnodes++;
}

static inline const TimingNode *node_of(const TimingModel *tm, int sm, uint64_t v)
{
    return &tm->sms[sm].df.nodes[(uint32_t)v];
}

/* The least a value can be (no nodes at all: memory ran out, the launch
 * faults at the round's end). */
static inline uint64_t lb_of(const TimingModel *tm, int sm, uint64_t v)
{
    if (!timing_pend(v))
        return v;
    return tm->sms[sm].df.nodes ? node_of(tm, sm, v)->lb : UINT64_MAX / 2;
}

/* ---- requests -------------------------------------------------------------------- */

bool timing_defer_allowed(const Exec *x, const TimingModel *tm)
{
    const char *env = getenv("WARPSIM_TIMING_DEFER");
    if (env && !strcmp(env, "0"))
        return false;
    if (x->trace || x->cfg->on_issue || x->cl || x->cfg->schedule != DEVICE_SCHED_ROUNDROBIN)
        return false;
    /* the least time an answer takes: an L2 hit in the near partition */
    if (tm->p->v[TP_L2_LAT] < TIMING_SLICE + 2)
        return false;
    /* a global atomic the kernel can reach (the functions it may call) */
    const PtxModule *m = x->prog->ptx;
    char *seen = calloc((size_t)m->n_funcs + 1, 1);
    if (!seen)
        return false;
    exec_mark_reachable(m, x->fidx, seen);
    bool ok = true;
    for (int f = 0; f < m->n_funcs && ok; f++) {
        int pc0 = x->prog->funcs[f].entry_pc;
        for (int i = 0; seen[f] && pc0 >= 0 && i < m->funcs[f].n_insts && pc0 + i < tm->n_insts && ok; i++)
            ok = tm->ii[pc0 + i].cls != TC_ATOM_GLOBAL;
    }
    free(seen);
    return ok;
}

uint64_t timing_defer_l2(TimingModel *tm, int sm, uint64_t t, uint32_t line, uint8_t sectors, int op)
{
    if (!tm->defer)
        return timing_l2_access(tm, sm, t, line, sectors, op);
    TimingDefer *d = &tm->sms[sm].df;
    TimingNode n = {.op = TIMING_N_REQ, .lb = t + (uint64_t)tm->p->v[TP_L2_LAT]};
    uint64_t v = node_new(tm, sm, &n);
    if (!grow((void **)&d->reqs, &d->cap_reqs, d->nreqs + 1, sizeof *d->reqs)) {
        d->nomem = true;
        return v;
    }
    TimingReq *r = &d->reqs[d->nreqs++];
    r->kind = TIMING_REQ_L2;
    r->op = (uint8_t)op;
    r->sectors = sectors;
    r->line = line;
    r->node = (uint32_t)v;
    r->t = t;
    r->clock = tm->sms[sm].clock;
    return v;
}

void timing_defer_idle(TimingModel *tm, int sm)
{
    if (!tm->defer) {
        tm->active_sms--;
        return;
    }
    TimingDefer *d = &tm->sms[sm].df;
    if (!grow((void **)&d->reqs, &d->cap_reqs, d->nreqs + 1, sizeof *d->reqs)) {
        d->nomem = true;
        return;
    }
    memset(&d->reqs[d->nreqs], 0, sizeof d->reqs[0]);
    d->reqs[d->nreqs++].kind = TIMING_REQ_IDLE;
}

/* ---- values ---------------------------------------------------------------------- */

uint64_t timing_vmax_slow(TimingModel *tm, int sm, uint64_t a, uint64_t b)
{
    uint64_t la = lb_of(tm, sm, a), lbb = lb_of(tm, sm, b);
    if (!timing_pend(a) && a <= lbb)
        return b;
    if (!timing_pend(b) && b <= la)
        return a;
    TimingNode n = {.op = TIMING_N_MAX, .a = a, .b = b, .lb = la > lbb ? la : lbb};
    return node_new(tm, sm, &n);
}

uint64_t timing_vmin_slow(TimingModel *tm, int sm, uint64_t a, uint64_t b)
{
    uint64_t la = lb_of(tm, sm, a), lbb = lb_of(tm, sm, b);
    if (!timing_pend(a) && a <= lbb)
        return a;
    if (!timing_pend(b) && b <= la)
        return b;
    TimingNode n = {.op = TIMING_N_MIN, .a = a, .b = b, .lb = la < lbb ? la : lbb};
    return node_new(tm, sm, &n);
}

TimingTv timing_vkmax_slow(TimingModel *tm, int sm, TimingTv a, TimingTv b)
{
    uint64_t la = lb_of(tm, sm, a.v), lbb = lb_of(tm, sm, b.v);
    if (!timing_pend(a.v) && a.v < lbb) /* b is surely greater */
        return b;
    if (!timing_pend(b.v) && b.v <= la) /* b is surely not */
        return a;
    TimingNode n = {.op = TIMING_N_KMAX, .a = a.v, .b = b.v, .ta = a.tag, .tb = b.tag,
                    .lb = la > lbb ? la : lbb};
    return (TimingTv){node_new(tm, sm, &n), TIMING_TAG_NODE};
}

TimingTv timing_vadd_tv(TimingModel *tm, int sm, TimingTv a, uint64_t c)
{
    if (!timing_pend(a.v))
        return (TimingTv){a.v + c, a.tag};
    TimingNode n = {.op = TIMING_N_ADD, .a = a.v, .b = c, .ta = a.tag, .lb = lb_of(tm, sm, a.v) + c};
    return (TimingTv){node_new(tm, sm, &n), TIMING_TAG_NODE};
}

TimingTv timing_vreason(TimingModel *tm, int sm, TimingTv a)
{
    if (a.tag != TIMING_TAG_NODE)
        return (TimingTv){a.v, (uint8_t)timing_sb_reason(a.tag)};
    TimingNode n = {.op = TIMING_N_REASON, .a = a.v, .ta = a.tag, .lb = lb_of(tm, sm, a.v)};
    return (TimingTv){node_new(tm, sm, &n), TIMING_TAG_NODE};
}

/* ---- the scheduler's work on pending values (timing_scheduler.c, timing_issue.c) */

void timing_defer_deps(TimingModel *tm, int sm, size_t wi, int32_t pc)
{
    const TimingInst *ti = &tm->ii[pc];
    const uint32_t *sb = tm->sb + wi * (tm->sbmask + 1);
    const uint8_t *sk = tm->sbk + wi * (tm->sbmask + 1);
    TimingWarp *tw = &tm->warps[wi];
    TimingTv r = {0, TIMING_SB_FIXED}; /* the latest operand, the first of equals */
    for (int i = 0; i < ti->nsrc; i++)
        r = timing_vkmax(tm, sm, r, timing_sb_tv(sb[ti->src[i]], sk[ti->src[i]]));
    for (int i = 0; i < ti->ndst; i++)
        r = timing_vkmax(tm, sm, r, timing_sb_tv(sb[ti->dst[i]], sk[ti->dst[i]]));
    tw->dep_ready = r.v;
    tw->dep_kind = r.tag;
    tw->dep_reason = r.tag == TIMING_TAG_NODE ? TIMING_TAG_NODE : (uint8_t)timing_sb_reason(r.tag);
    tw->cached_pc = pc;
}

uint64_t timing_defer_alu(TimingModel *tm, int sm, TimingWarp *tw, bool fixed, uint64_t lat, int *kind)
{
    TimingTv dep = {tw->dep_ready, tw->dep_kind};
    TimingTv d = timing_vadd_tv(tm, sm, dep, lat); /* its tag: dep's kind */
    if (*kind == TIMING_SB_FIXED) /* the kind of what it waited for, unless fixed */
        *kind = dep.tag;
    /* the fence after it: its result (fixed latency) or its issue, with the
     * reason of what it waited for */
    TimingTv why = timing_vreason(tm, sm, fixed ? d : dep);
    TimingTv until = timing_vkmax(tm, sm, (TimingTv){tw->defer_until, tw->defer_reason}, why);
    tw->defer_until = until.v;
    tw->defer_reason = until.tag;
    return d.v;
}

/* ---- where pending values are kept ----------------------------------------------- */

static void patch_add(TimingModel *tm, int sm, int kind, void *at, uint64_t v)
{
    TimingDefer *d = &tm->sms[sm].df;
    if (!grow((void **)&d->patch, &d->cap_patch, d->npatch + 1, sizeof *d->patch)) {
        d->nomem = true;
        return;
    }
    d->patch[d->npatch++] = (TimingPatch){.kind = (uint8_t)kind, .node = (uint32_t)v, .at = at};
}

void timing_defer_warp(TimingModel *tm, int sm, uint32_t wi)
{
    TimingWarp *tw = &tm->warps[wi];
    if (tw->pend)
        return;
    TimingDefer *d = &tm->sms[sm].df;
    if (!grow((void **)&d->warps, &d->cap_warps, d->nwarps + 1, sizeof *d->warps)) {
        d->nomem = true;
        return;
    }
    tw->pend = true;
    d->warps[d->nwarps++] = wi;
}

void timing_defer_sb(TimingModel *tm, int sm, uint32_t *sb, uint8_t *sk, uint64_t v, uint8_t kind)
{
    if (!timing_pend(v)) {
        *sb = v > UINT32_MAX ? UINT32_MAX : (uint32_t)v;
        *sk = kind;
        return;
    }
    *sb = (uint32_t)v;
    *sk = (uint8_t)(TIMING_SK_PEND | (kind == TIMING_TAG_NODE ? TIMING_SK_NODE : kind));
    patch_add(tm, sm, TIMING_PATCH_SB, sb, v);
}

void timing_defer_u64(TimingModel *tm, int sm, uint64_t *at, uint64_t v)
{
    *at = v;
    if (timing_pend(v))
        patch_add(tm, sm, TIMING_PATCH_U64, at, v);
}

void timing_defer_add(TimingModel *tm, int sm, uint64_t *sum, uint64_t v)
{
    if (timing_pend(v))
        patch_add(tm, sm, TIMING_PATCH_ADD, sum, v);
    else
        *sum += v;
}

/* ---- the round's end ------------------------------------------------------------- */

/* Node values of SM sm, in the order they were made (operands first). */
static void evaluate(TimingDefer *d)
{
    for (uint32_t i = 1; i < d->nnodes; i++) {
        TimingNode *n = &d->nodes[i];
        uint64_t va = n->a, vb = n->b;
        uint8_t ta = n->ta, tb = n->tb;
        if (timing_pend(va)) {
            const TimingNode *o = &d->nodes[(uint32_t)va];
            va = o->val;
            if (ta == TIMING_TAG_NODE)
                ta = o->tag;
        }
        if (n->op != TIMING_N_ADD && timing_pend(vb)) {
            const TimingNode *o = &d->nodes[(uint32_t)vb];
            vb = o->val;
            if (tb == TIMING_TAG_NODE)
                tb = o->tag;
        }
        switch (n->op) {
        case TIMING_N_MAX: n->val = va > vb ? va : vb; break;
        case TIMING_N_MIN: n->val = va < vb ? va : vb; break;
        case TIMING_N_ADD: n->val = va + vb, n->tag = ta; break;
        case TIMING_N_KMAX:
            if (vb > va)
                n->val = vb, n->tag = tb;
            else
                n->val = va, n->tag = ta;
            break;
        case TIMING_N_REASON: n->val = va, n->tag = (uint8_t)timing_sb_reason(ta); break;
        default: break; /* TIMING_N_REQ: its answer is in */
        }
    }
}

static inline uint64_t known(const TimingDefer *d, uint64_t v)
{
    return timing_pend(v) ? d->nodes[(uint32_t)v].val : v;
}

/* A tagged pair kept in two fields: tag TIMING_TAG_NODE takes v's node's. */
static void known_tv(const TimingDefer *d, uint64_t *v, uint8_t *tag)
{
    if (!timing_pend(*v))
        return;
    const TimingNode *n = &d->nodes[(uint32_t)*v];
    if (*tag == TIMING_TAG_NODE)
        *tag = n->tag;
    *v = n->val;
}

/* Every pending value of SM s gets its number; the SM's deferral is empty again. */
static void settle(Exec *x, TimingModel *tm, int s)
{
    TimingSM *ts = &tm->sms[s];
    TimingDefer *d = &ts->df;
    evaluate(d);
    for (uint32_t i = 0; i < d->npatch; i++) {
        const TimingPatch *p = &d->patch[i];
        uint64_t val = d->nodes[p->node].val;
        switch (p->kind) {
        case TIMING_PATCH_SB: {
            uint32_t *sb = p->at;
            uint8_t *sk = tm->sbk + (sb - tm->sb);
            if ((*sk & TIMING_SK_PEND) && *sb == p->node) {
                *sb = val > UINT32_MAX ? UINT32_MAX : (uint32_t)val;
                *sk = (*sk & TIMING_SK_NODE) ? d->nodes[p->node].tag : (uint8_t)(*sk & 0x3f);
            }
            break;
        }
        case TIMING_PATCH_U64: {
            uint64_t *at = p->at;
            if (*at == (TIMING_PEND | p->node))
                *at = val;
            break;
        }
        default:
            *(uint64_t *)p->at += val;
            break;
        }
    }
    for (uint32_t i = 0; i < d->nwarps; i++) {
        TimingWarp *tw = &tm->warps[d->warps[i]];
        if (timing_pend(tw->dep_ready)) { /* a cache: made again from the scoreboard */
            tw->dep_ready = 0;
            tw->cached_pc = -1;
        }
        if (timing_pend(tw->hz_when))
            tw->hz_when = 0;
        tw->min_issue = known(d, tw->min_issue);
        known_tv(d, &tw->defer_until, &tw->defer_reason);
        tw->mem_done = known(d, tw->mem_done);
        tw->open_group = known(d, tw->open_group);
        for (int g = 0; g < TIMING_GROUPS; g++)
            tw->groups[g] = known(d, tw->groups[g]);
        tw->drain = known(d, tw->drain);
        tw->pend = false;
    }
    ts->l1_return = known(d, ts->l1_return);
    ts->next_ready = known(d, ts->next_ready);
    for (int q = 0; q < 4; q++)
        ts->sched_min[q] = known(d, ts->sched_min[q]);
    for (int i = 0; i < TIMING_CONST_LINES; i++)
        ts->cready[i] = known(d, ts->cready[i]);
    SimSM *sm = &x->sms[s];
    sm->finishing = known(d, sm->finishing);
    for (int k = 0; k < x->per_sm; k++) {
        Block *b = &x->blocks[sm->first_slot + k];
        b->busy_until = known(d, b->busy_until);
    }
    d->nnodes = d->nnodes ? 1 : 0;
    d->nreqs = d->npatch = d->nwarps = 0;
}

bool timing_defer_resolve(Exec *x, uint64_t limit, const char **why)
{
    TimingModel *tm = x->tm;
    bool ok = true;
    *why = NULL;
    if (!tm || !tm->defer)
        return true;
    for (int s = 0; s < tm->nsm; s++) {
        TimingSM *ts = &tm->sms[s];
        TimingDefer *d = &ts->df;
        if (!d->nnodes && !d->nreqs && !d->npatch && !d->nwarps)
            continue;
        if (d->nomem) {
            *why = "out of memory deferring the timing model's L2 requests";
            ok = false;
            if (!d->nodes) { /* nothing to evaluate: the launch stops here */
                d->nreqs = d->npatch = d->nwarps = 0;
                continue;
            }
        }
        uint64_t clock = ts->clock;
        for (uint32_t i = 0; i < d->nreqs; i++) {
            const TimingReq *r = &d->reqs[i];
            if (r->kind == TIMING_REQ_IDLE) {
                tm->active_sms--;
                continue;
            }
            TimingNode *n = &d->nodes[r->node];
            ts->clock = r->clock; /* what the DRAM's pacing looks at (timing_dram.c) */
            n->val = timing_l2_access(tm, s, r->t, r->line, r->sectors, r->op);
            if (n->lb <= limit || n->val < n->lb) { /* it could have been needed inside the round */
                *why = "an L2 answer was due inside the round that deferred it";
                ok = false;
            }
        }
        ts->clock = clock;
        settle(x, tm, s);
    }
    return ok;
}

void timing_defer_free(TimingSM *ts)
{
    free(ts->df.nodes);
    free(ts->df.reqs);
    free(ts->df.patch);
    free(ts->df.warps);
    memset(&ts->df, 0, sizeof ts->df);
}

void timing_round_end(Exec *x, uint64_t limit)
{
    const char *why;
    if (!timing_defer_resolve(x, limit, &why) && !x->faulted)
        exec_fault(x, NULL, NULL, -1, "unsupported", 0, "%s", why);
}

uint64_t timing_finishing(Exec *x, SimSM *sm, uint64_t busy_until)
{
    if (!sm->finishing)
        return busy_until;
    return timing_vmin(x->tm, (int)(sm - x->sms), sm->finishing, busy_until);
}

bool timing_defers(const Exec *x) { return x->tm && x->tm->defer; }

/* ---- SMs on threads (exec_par.c) -------------------------------------------------- */

TimingModel *timing_chunk_model(TimingModel *tm, TimingModel **view, DeviceTiming *out)
{
    if (!*view && !(*view = malloc(sizeof **view)))
        return NULL;
    **view = *tm;
    memset(out, 0, sizeof *out);
    (*view)->out = out;
    return *view;
}

void timing_chunk_merge(TimingModel *tm, const DeviceTiming *d)
{
    /* what a slice counts: the L1, the shared-memory unit and the stalls (the
     * L2 and DRAM count at the round's end, on the launch's model) */
    DeviceTiming *o = tm->out;
    o->l1_sectors += d->l1_sectors;
    o->l1_hits += d->l1_hits;
    o->l2_sectors += d->l2_sectors;
    o->l2_hits += d->l2_hits;
    o->dram_read_bytes += d->dram_read_bytes;
    o->dram_write_bytes += d->dram_write_bytes;
    o->smem_wavefronts += d->smem_wavefronts;
    o->bank_conflict_replays += d->bank_conflict_replays;
    for (int i = 0; i < DEVICE_STALL_COUNT; i++)
        o->stall[i] += d->stall[i];
}
