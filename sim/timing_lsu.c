/* timing_lsu.c: the load/store path of one warp instruction.  Its lanes'
 * addresses are read from the registers just before the instruction runs
 * (the same values the functional executor uses), a generic address is
 * resolved to its window, and the access goes to the unit that serves it:
 * the shared-memory unit (bank conflicts replayed, one wavefront a cycle),
 * the L1 (coalesced into lines and sectors, TP_L1_SECTORS_PER_CYCLE sectors
 * a cycle, load data handed back in request order), or the L2's atomic
 * units.  Returns the cycle its results are in registers; the unit's busy
 * time is what throttles the next memory instruction (lg_throttle,
 * mio_throttle). */
#include "exec_cluster.h"
#include "exec_int.h"
#include "timing_int.h"

/* Local memory is interleaved by the hardware: word k of every lane of a
 * warp sits in one 128-byte line.  Its lines live apart from global ones. */
#define LOCAL_REGION (MEM_GLOBAL_BASE + (1ull << 38))

static int resolve(const Exec *x, const Warp *w, int sp, uint32_t m, uint64_t addr[32])
{
    if (sp != PTX_SPACE_NONE)
        return sp;
    uint64_t lo = UINT64_MAX, hi = 0;
    for (uint32_t r = m; r; r &= r - 1) {
        uint64_t a = addr[__builtin_ctz(r)];
        lo = a < lo ? a : lo;
        hi = a > hi ? a : hi;
    }
    static const struct { uint64_t win; int sp; } wins[] = {
        {MEM_SHARED_WIN, PTX_SPACE_SHARED}, {MEM_LOCAL_WIN, PTX_SPACE_LOCAL}, {MEM_CONST_WIN, PTX_SPACE_CONST},
        {MEM_PARAM_WIN, PTX_SPACE_PARAM}};
    for (int i = 0; i < 4; i++)
        if (lo >= wins[i].win && hi < wins[i].win + MEM_WIN_SIZE) {
            for (uint32_t r = m; r; r &= r - 1)
                addr[__builtin_ctz(r)] -= wins[i].win;
            return wins[i].sp;
        }
    (void)x;
    (void)w;
    return PTX_SPACE_GLOBAL;
}

static void local_addrs(const Exec *x, const Warp *w, uint32_t m, uint64_t addr[32])
{
    uint64_t warp = (uint64_t)(w->blk - x->blocks) * (uint64_t)x->nwarps + (uint64_t)w->id;
    uint64_t frame = (x->prog->local_size + 3) / 4 * 128;
    for (uint32_t r = m; r; r &= r - 1) {
        int l = __builtin_ctz(r);
        uint64_t a = addr[l];
        addr[l] = LOCAL_REGION + ((warp * frame) & ((1ull << 37) - 1)) + a / 4 * 128 + (uint64_t)l * 4 + a % 4;
    }
}

/* A global/local/atomic instruction enters the L1's queue: it starts at
 * start (the queue is first come, first served); the scheduler lets one
 * issue while fewer than TP_LG_QUEUE wait (timing_scheduler.c). */
static void lg_enter(const TimingModel *tm, TimingSM *ts, uint64_t start)
{
    unsigned n = timing_lg_entries(tm);
    ts->lg_start[ts->lg_head++ % n] = start;
}

/* Through the L1: loads, stores (global, local). */
static uint64_t via_l1(Exec *x, TimingModel *tm, int smid, uint64_t now, uint32_t m, const uint64_t addr[32],
                       unsigned bytes, bool store, uint64_t *leave)
{
    TimingSM *ts = &tm->sms[smid];
    TimingAccess acc;
    timing_coalesce(m, addr, bytes, &acc);
    double spc = tm->p->v[TP_L1_SECTORS_PER_CYCLE];
    uint64_t occ = (uint64_t)((acc.nsectors + spc - 1) / spc); /* tags and data: sectors a cycle */
    uint64_t start = ts->lsu_free > now ? ts->lsu_free : now;
    lg_enter(tm, ts, start);
    ts->lsu_free = start + (occ ? occ : 1);
    uint64_t done = start + (uint64_t)tm->p->v[TP_L1_LAT];
    /* each line sent on to L2 (a miss, a store) holds the L1 for
     * TP_L1_LINE_OUT cycles (a store's TP_L1_STORE_LINE_OUT): a scattered
     * request costs per line, not per sector */
    uint64_t per_out = (uint64_t)tm->p->v[store ? TP_L1_STORE_LINE_OUT : TP_L1_LINE_OUT], out = 0;
    for (int i = 0; i < acc.nlines; i++) {
        uint32_t line = (uint32_t)((acc.line[i] - (MEM_GLOBAL_BASE >> 7)) & 0xffffffffu);
        uint64_t t = start + (uint64_t)i * occ / (uint64_t)acc.nlines; /* lines leave one after another */
        if (t < start + out * per_out)
            t = start + out * per_out;
        if (store) {
            out++;
            timing_l1_store(tm, smid, t, line, acc.sectors[i]);
            uint64_t back = timing_defer_l2(tm, smid, t, line, acc.sectors[i], TIMING_L2_STORE);
            done = timing_vmax(tm, smid, done, back);
            *leave = timing_vmax(tm, smid, *leave, back);
        } else {
            uint8_t missed;
            uint64_t back = timing_l1_load(tm, smid, t, line, acc.sectors[i], &missed);
            out += missed != 0; /* a line sent on to L2 */
            done = timing_vmax(tm, smid, done, back);
        }
    }
    if (out * per_out > occ)
        ts->lsu_free = start + out * per_out;
    if (!store) {
        /* the L1 hands load data back in the order it took the requests: a
         * hit, or a miss whose sectors came back early, waits for the data of
         * every load before it (the L1TEX unit's texture-style in-order data
         * stage; the H100's warps of one SM end together, docs/timing.md
         * item 18) */
        done = timing_vmax(tm, smid, ts->l1_return, done);
        ts->l1_return = done;
    }
    (void)x;
    return done;
}

static uint64_t via_smem(TimingModel *tm, int smid, uint64_t now, uint32_t m, const uint64_t addr[32],
                         unsigned bytes, int extra, uint64_t lat)
{
    TimingSM *ts = &tm->sms[smid];
    int degree, phases;
    int wf = timing_smem_wavefronts(m, addr, bytes, &degree, &phases) + extra;
    tm->out->smem_wavefronts += (uint64_t)wf;
    tm->out->bank_conflict_replays += (uint64_t)(wf - phases > 0 ? wf - phases : 0);
    uint64_t start = ts->mio_free > now ? ts->mio_free : now;
    ts->mio_free = start + (uint64_t)(wf > 0 ? wf : 1);
    ts->mio_start[ts->mio_head++ % TIMING_MIO_MAX] = start;
    return start + lat + (uint64_t)(wf > 1 ? wf - 1 : 0);
}

uint64_t timing_lsu_issue(Exec *x, Warp *w, const SimInst *in, const TimingInst *ti, uint32_t m, uint64_t now,
                          int *kind, uint64_t *leave)
{
    TimingModel *tm = x->tm;
    const double *v = tm->p->v;
    int smid = w->blk->sm;
    *kind = TIMING_SB_LONG;
    *leave = 0;
    if (!m)
        return now + 1;
    uint64_t addr[32];
    unsigned bytes = ti->bytes ? ti->bytes : 4;
    int base = in->base;
    int64_t off = in->off;
    if (ti->cls == TC_CP_ASYNC) { /* its global source: s[0] + target (exec_async.c) */
        base = in->s[0];
        off = in->target;
    }
    for (uint32_t r = m; r; r &= r - 1) {
        int l = __builtin_ctz(r);
        addr[l] = (base >= 0 ? exec_src(x, w, base)[l] : 0) + (uint64_t)off;
    }
    int sp = ti->cls == TC_CP_ASYNC ? PTX_SPACE_GLOBAL : resolve(x, w, ti->space, m, addr);
    switch (ti->cls) {
    case TC_ATOM_GLOBAL:
    case TC_ATOM_SHARED:
        if (sp == PTX_SPACE_SHARED) {
            *kind = TIMING_SB_SHORT;
            return via_smem(tm, smid, now, m, addr, bytes, timing_atomics_shared_serial(m, addr),
                            (uint64_t)v[TP_SMEM_ATOM_LAT]);
        } else {
            TimingSM *ts = &tm->sms[smid];
            uint64_t start = ts->lsu_free > now ? ts->lsu_free : now;
            lg_enter(tm, ts, start);
            ts->lsu_free = start + 1;
            return timing_atomics_global(tm, smid, start, m, addr, bytes, leave);
        }
    default:
        break;
    }
    bool store = ti->cls == TC_GLOBAL && ti->ndst == 0; /* st: operand 0 is the address */
    switch (sp) {
    case PTX_SPACE_SHARED: {
        /* another CTA's shared memory (a cluster's, exec_cluster.h): over the
         * SM-to-SM network, timed as a shared access of its latency */
        uint64_t lat = (uint64_t)v[TP_SMEM_LAT];
        for (uint32_t r = x->cl ? m : 0; r; r &= r - 1) {
            uint64_t a = addr[__builtin_ctz(r)];
            if (a >> EXEC_DSMEM_SHIFT && (int)(a >> EXEC_DSMEM_SHIFT) - 1 != w->blk->crank) {
                lat = (uint64_t)v[TP_DSMEM_LAT];
                break;
            }
        }
        *kind = TIMING_SB_SHORT;
        return via_smem(tm, smid, now, m, addr, bytes, 0, lat);
    }
    case PTX_SPACE_CONST:
    case PTX_SPACE_PARAM:
        *kind = TIMING_SB_SHORT; /* the constant cache: treated as always hitting */
        return now + (uint64_t)v[TP_L1_LAT];
    case PTX_SPACE_LOCAL:
        local_addrs(x, w, m, addr);
        return via_l1(x, tm, smid, now, m, addr, bytes, store, leave);
    default:
        return via_l1(x, tm, smid, now, m, addr, bytes, store, leave);
    }
}
