/* exec_async.c: asynchronous copies and memory barriers.
 *
 * cp.async copies global to shared memory in the background.  Here the
 * source bytes are read when the instruction issues, and they land in
 * shared memory as late as PTX allows: when the issuing thread waits for
 * their group (cp.async.wait_group N / wait_all), or when it arrives on an
 * mbarrier with cp.async.mbarrier.arrive.  So a read of the destination
 * before the wait sees the old bytes -- the hazard seed 004 warns about, and
 * `--check races` names it ("cp-async").  Groups: every cp.async joins the
 * thread's open group; cp.async.commit_group closes it.
 *
 * mbarrier (seed 002): a 64-bit object in shared memory holding the current
 * phase, the arrivals still pending in it and the expected count.  arrive
 * counts down and returns a state naming the phase it arrived in; when the
 * count reaches zero the phase completes (the phase number goes up and the
 * count starts again).  test_wait/try_wait say whether the phase of a state
 * (or, with .parity, of a parity) has completed; they never block here, so
 * a spinning try_wait loop lets other warps run. */
#include "exec_int.h"
#include "exec_race.h"
#include "exec_trace.h"
#include "exec_decode.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
    uint32_t tid;
    uint32_t group;
    uint64_t dst;             /* offset in the block's shared memory */
    uint8_t n;
    uint8_t data[16];
} AsyncCopy;

typedef struct SimAsync {
    uint32_t *open_group;     /* per thread: number of its open group */
    AsyncCopy *q;
    size_t n, cap;
} SimAsync;

static SimAsync *async_of(Exec *x, Block *b)
{
    if (!b->async) {
        SimAsync *a = calloc(1, sizeof *a);
        if (!a)
            return NULL;
        a->open_group = calloc((size_t)x->nthreads, sizeof *a->open_group);
        if (!a->open_group) {
            free(a);
            return NULL;
        }
        b->async = a;
    }
    return b->async;
}

void exec_async_block_end(Exec *x, Block *b)
{
    (void)x;
    if (!b->async)
        return;
    free(b->async->open_group);
    free(b->async->q);
    free(b->async);
    b->async = NULL;
}

/* Land the copies of thread tid in groups below `below` (all: UINT32_MAX). */
static void land(Exec *x, Block *b, uint32_t tid, uint32_t below)
{
    SimAsync *a = b->async;
    if (!a)
        return;
    size_t k = 0;
    for (size_t i = 0; i < a->n; i++) {
        AsyncCopy *c = &a->q[i];
        if (c->tid == tid && c->group < below)
            memcpy(b->shared + c->dst, c->data, c->n);
        else
            a->q[k++] = *c;
    }
    a->n = k;
    if (x->race)
        exec_race_async_done(x, b, tid, below);
}

static void ex_cp_async(Exec *x, Warp *w, const SimInst *in, uint32_t m)
{
    unsigned n = in->size;
    if (x->trace)
        exec_trace_mem(x, w, in, m, TRACE_MEM_CP_ASYNC);
    SimAsync *as = async_of(x, w->blk);
    if (!as) {
        exec_fault(x, w, in, __builtin_ctz(m), "unsupported", 0, "out of memory queueing cp.async");
        return;
    }
    for (uint32_t r = m; r; r &= r - 1) {
        int l = __builtin_ctz(r);
        uint64_t dst = exec_src(x, w, in->base)[l] + (uint64_t)in->off;
        uint64_t src = exec_src(x, w, in->s[0])[l] + (uint64_t)in->target;
        unsigned srcsize = in->s[1] != -1 ? (unsigned)exec_src(x, w, in->s[1])[l] : n;
        if (srcsize > n)
            srcsize = n;
        uint8_t *pd = exec_addr(x, w, in, l, PTX_SPACE_SHARED, dst, n, true);
        if (!pd)
            return;
        uint8_t *ps = srcsize ? exec_addr(x, w, in, l, PTX_SPACE_GLOBAL, src, srcsize, false) : pd;
        if (!ps)
            return;
        if (as->n == as->cap) {
            size_t cap = as->cap ? as->cap * 2 : 256;
            AsyncCopy *q = realloc(as->q, cap * sizeof *q);
            if (!q) {
                exec_fault(x, w, in, l, "unsupported", 0, "out of memory queueing cp.async");
                return;
            }
            as->q = q;
            as->cap = cap;
        }
        AsyncCopy *c = &as->q[as->n++];
        c->tid = (uint32_t)exec_tid(w, l);
        c->group = as->open_group[c->tid];
        c->dst = (uint64_t)(pd - w->blk->shared);
        c->n = (uint8_t)n;
        memcpy(c->data, ps, srcsize);
        memset(c->data + srcsize, 0, n - srcsize);
    }
    if (x->race) /* the copies are queued in each thread's open group */
        exec_race_mem_async(x, w, in, m, EXEC_RACE_ASYNC, as->open_group);
}

enum { CP_COMMIT, CP_WAIT_GROUP, CP_WAIT_ALL, CP_MBAR_ARRIVE };

static void ex_cp_ctl(Exec *x, Warp *w, const SimInst *in, uint32_t m)
{
    Block *b = w->blk;
    SimAsync *as = b->async;
    for (uint32_t r = m; r; r &= r - 1) {
        uint32_t tid = (uint32_t)exec_tid(w, __builtin_ctz(r));
        uint32_t open = as ? as->open_group[tid] : 0;
        switch (in->sub) {
        case CP_COMMIT:
            if (as)
                as->open_group[tid]++;
            break;
        case CP_WAIT_GROUP: { /* all but the newest N committed groups */
            uint32_t nwait = (uint32_t)exec_src(x, w, in->s[0])[__builtin_ctz(r)];
            land(x, b, tid, open > nwait ? open - nwait : 0);
            break;
        }
        default: /* wait_all */
            land(x, b, tid, UINT32_MAX);
            break;
        }
    }
}

/* ---- mbarrier -------------------------------------------------------------
 * The 64-bit object: bits 0..20 pending arrivals, 21..41 expected count,
 * 42..62 phase number. */
#define MB_FIELD ((1ull << 21) - 1)
#define MB_PENDING(v) ((v) & MB_FIELD)
#define MB_EXPECTED(v) (((v) >> 21) & MB_FIELD)
#define MB_PHASE(v) (((v) >> 42) & MB_FIELD)
#define MB_MAKE(p, e, ph) (((uint64_t)(p) & MB_FIELD) | (((uint64_t)(e) & MB_FIELD) << 21) | \
                           (((uint64_t)(ph) & MB_FIELD) << 42))

enum { MB_INIT, MB_ARRIVE, MB_ARRIVE_DROP, MB_TEST_WAIT, MB_TRY_WAIT, MB_PENDING_COUNT, MB_INVAL,
       MB_CP_ARRIVE };

static uint8_t *mbar_at(Exec *x, Warp *w, const SimInst *in, int l)
{
    uint64_t a = (in->base >= 0 ? exec_src(x, w, in->base)[l] : 0) + (uint64_t)in->off;
    return exec_addr(x, w, in, l, in->space ? in->space : PTX_SPACE_NONE, a, 8, true);
}

static void ex_mbarrier(Exec *x, Warp *w, const SimInst *in, uint32_t m)
{
    /* lane by lane in lane order: arrivals are atomic read-modify-writes */
    for (uint32_t r = m; r; r &= r - 1) {
        int l = __builtin_ctz(r);
        if (in->sub == MB_PENDING_COUNT) {
            exec_reg(w, in->d)[l] = MB_PENDING(exec_src(x, w, in->s[0])[l]);
            continue;
        }
        uint8_t *p = mbar_at(x, w, in, l);
        if (!p)
            return;
        uint64_t v;
        memcpy(&v, p, 8);
        switch (in->sub) {
        case MB_INIT: {
            uint64_t cnt = exec_src(x, w, in->s[0])[l];
            if (cnt < 1 || cnt > MB_FIELD - 1) {
                exec_fault(x, w, in, l, "trap", 0, "mbarrier.init count %llu is not in 1..2^20-1",
                           (unsigned long long)cnt);
                return;
            }
            v = MB_MAKE(cnt, cnt, 0);
            break;
        }
        case MB_CP_ARRIVE:
            /* cp.async.mbarrier.arrive: an arrive-on once the thread's prior
             * cp.async copies complete (they land now).  Without .noinc the
             * pending count is first raised by one, so the net change is none
             * (PTX ISA, cp.async.mbarrier.arrive); .noinc counts as an arrival
             * the init count was set for. */
            land(x, w->blk, (uint32_t)exec_tid(w, l), UINT32_MAX);
            if (!in->aux)
                continue;
            __attribute__((fallthrough));
        case MB_ARRIVE:
        case MB_ARRIVE_DROP: {
            uint64_t cnt = in->s[0] != -1 ? exec_src(x, w, in->s[0])[l] : 1;
            uint64_t pend = MB_PENDING(v), exp = MB_EXPECTED(v), ph = MB_PHASE(v);
            if (exp == 0 || cnt > pend) {
                exec_fault(x, w, in, l, "trap", 0,
                           exp == 0 ? "mbarrier arrive on an object that was never initialised (mbarrier.init)"
                                    : "mbarrier arrive of %llu when only %llu arrivals are pending in phase %llu",
                           (unsigned long long)cnt, (unsigned long long)pend, (unsigned long long)ph);
                return;
            }
            if (in->d >= 0) /* the state: the phase arrived in, and what was left of it */
                exec_reg(w, in->d)[l] = MB_MAKE(pend - cnt, exp, ph);
            if (in->sub == MB_ARRIVE_DROP)
                exp -= cnt;
            pend -= cnt;
            if (pend == 0) {
                ph++;
                pend = exp;
                if (x->race) /* the phase releases what the block did before it */
                    exec_race_mbarrier(x, w->blk, p, 0, false);
            }
            v = MB_MAKE(pend, exp, ph);
            break;
        }
        case MB_TEST_WAIT:
        case MB_TRY_WAIT: {
            uint64_t s = exec_src(x, w, in->s[0])[l];
            uint64_t ph = MB_PHASE(v);
            bool done = in->aux ? (ph & 1) != (s & 1) /* .parity: that parity's phase is over */
                                : ph != MB_PHASE(s);
            w->p[in->pd] = (w->p[in->pd] & ~(1u << l)) | ((uint32_t)done << l);
            if (done && x->race) /* and this thread acquires it */
                exec_race_mbarrier(x, w->blk, p, (uint32_t)exec_tid(w, l), true);
            continue;
        }
        case MB_INVAL:
            v = 0;
            break;
        }
        memcpy(p, &v, 8);
    }
}

static const char *const async_ignored[] = {"shared", "cta", "b64", "release", "acquire", "relaxed",
                                            "cluster", "shared::cta", "shared::cluster", NULL};

SimStatus dec_async(DecodeCtx *c)
{
    SimInst *in = c->in;
    const char *op = c->pi->opcode;
    int vspace = 0;
    if (!strcmp(op, "cp")) {
        if (!dec_mod(c, "async"))
            return dec_fail(c, "only cp.async is supported");
        if (dec_mod(c, "commit_group") || dec_mod(c, "wait_all")) {
            in->sub = c->pi->mods[c->pi->n_mods - 1][0] == 'c' ? CP_COMMIT : CP_WAIT_ALL;
            in->fn = ex_cp_ctl;
            return SIM_OK;
        }
        if (dec_mod(c, "wait_group")) {
            if (c->pi->n_opnds != 1 || dec_src(c, 0, PTX_T_U32, &in->s[0]))
                return dec_fail(c, "expected cp.async.wait_group N");
            in->sub = CP_WAIT_GROUP;
            in->fn = ex_cp_ctl;
            return SIM_OK;
        }
        if (dec_mod(c, "mbarrier")) {
            if (!dec_mod(c, "arrive"))
                return dec_fail(c, "expected cp.async.mbarrier.arrive");
            in->aux = dec_mod(c, "noinc");
            static const char *const ign[] = {"shared", "b64", "shared::cta", NULL};
            dec_ignore(c, ign);
            in->sub = MB_CP_ARRIVE;
            in->d = -1;
            in->s[0] = -1;
            if (c->pi->n_opnds != 1 || dec_addr(c, 0, &in->base, &in->off, &vspace))
                return dec_fail(c, "expected cp.async.mbarrier.arrive [addr]");
            in->space = PTX_SPACE_SHARED;
            in->fn = ex_mbarrier;
            return SIM_OK;
        }
        if (dec_mod(c, "bulk"))
            return dec_fail(c, "cp.async.bulk (TMA) is not supported");
        if (!dec_mod(c, "shared") || !dec_mod(c, "global"))
            return dec_fail(c, "expected cp.async.{ca,cg}.shared.global");
        static const char *const ign[] = {"ca", "cg", "cta", "shared::cta", "L2::64B", "L2::128B", "L2::256B",
                                          "L2::cache_hint", NULL};
        dec_ignore(c, ign);
        if (c->pi->n_opnds < 3)
            return dec_fail(c, "expected [dst], [src], size");
        const PtxOperand *sz = &c->pi->opnds[2];
        if (sz->kind != PTX_OPND_IMM_INT || (sz->ival != 4 && sz->ival != 8 && sz->ival != 16))
            return dec_fail(c, "copy size must be 4, 8 or 16");
        in->size = (uint8_t)sz->ival;
        int32_t sbase;
        int64_t soff;
        if (dec_addr(c, 0, &in->base, &in->off, &vspace) || dec_addr(c, 1, &sbase, &soff, &vspace))
            return c->err->status;
        if (in->base < 0)
            in->base = dec_konst(c, 0);
        in->s[0] = sbase >= 0 ? sbase : dec_konst(c, 0);
        in->target = (int32_t)soff;
        if (soff != in->target)
            return dec_fail(c, "source offset too large");
        in->s[1] = -1;
        if (c->pi->n_opnds > 3 && dec_src(c, 3, PTX_T_U32, &in->s[1]))
            return c->err->status;
        in->space = PTX_SPACE_SHARED;
        in->fn = ex_cp_async;
        return SIM_OK;
    }
    /* mbarrier.* */
    static const char *const kinds[] = {"init", "arrive", "arrive_drop", "test_wait", "try_wait",
                                        "pending_count", "inval"};
    int k;
    for (k = 0; k < 7; k++)
        if (dec_mod(c, kinds[k]))
            break;
    if (k == 7)
        return dec_fail(c, "mbarrier.%s is not supported (init, arrive, arrive_drop, test_wait, try_wait, "
                           "pending_count and inval are)", c->pi->n_mods ? c->pi->mods[0] : "");
    if (dec_mod(c, "expect_tx") || dec_mod(c, "complete_tx"))
        return dec_fail(c, "mbarrier transaction counts (TMA) are not supported");
    in->sub = (uint8_t)k;
    in->aux = dec_mod(c, "parity");
    /* before the ignore list marks them: .shared::cta is shared memory too */
    in->space = dec_shared(c) ? PTX_SPACE_SHARED : PTX_SPACE_NONE;
    dec_ignore(c, async_ignored);
    in->d = -1;
    in->s[0] = -1;
    int n = c->pi->n_opnds;
    switch (k) {
    case MB_INIT: /* [addr], count */
        if (n != 2 || dec_addr(c, 0, &in->base, &in->off, &vspace) || dec_src(c, 1, PTX_T_U32, &in->s[0]))
            return dec_fail(c, "expected mbarrier.init [addr], count");
        break;
    case MB_ARRIVE:
    case MB_ARRIVE_DROP: /* [state,] [addr] [, count] */
        if (n < 1 || n > 3)
            return dec_fail(c, "expected mbarrier.arrive state, [addr] {, count}");
        {
            int i = 0;
            if (c->pi->opnds[0].kind != PTX_OPND_ADDR) {
                if (dec_dst_or_sink(c, 0, &in->d))
                    return c->err->status;
                i = 1;
            }
            if (i >= n || dec_addr(c, i, &in->base, &in->off, &vspace))
                return dec_fail(c, "expected mbarrier.arrive state, [addr] {, count}");
            if (i + 1 < n && dec_src(c, i + 1, PTX_T_U32, &in->s[0]))
                return c->err->status;
        }
        break;
    case MB_TEST_WAIT:
    case MB_TRY_WAIT: /* waitComplete, [addr], state|parity [, suspendTimeHint] */
        if (n < 3 || n > 4 || dec_pred(c, 0, &in->pd, NULL) || dec_addr(c, 1, &in->base, &in->off, &vspace) ||
            dec_src(c, 2, in->aux ? PTX_T_U32 : PTX_T_B64, &in->s[0]))
            return dec_fail(c, "expected mbarrier.%s p, [addr], state", kinds[k]);
        break;
    case MB_PENDING_COUNT: /* count, state */
        if (n != 2 || dec_dst(c, 0, &in->d) || dec_src(c, 1, PTX_T_B64, &in->s[0]))
            return dec_fail(c, "expected mbarrier.pending_count count, state");
        in->fn = ex_mbarrier;
        in->base = -1;
        return SIM_OK;
    case MB_INVAL:
        if (n != 1 || dec_addr(c, 0, &in->base, &in->off, &vspace))
            return dec_fail(c, "expected mbarrier.inval [addr]");
        break;
    }
    if (vspace == PTX_SPACE_SHARED)
        in->space = PTX_SPACE_SHARED;
    in->fn = ex_mbarrier;
    return SIM_OK;
}
