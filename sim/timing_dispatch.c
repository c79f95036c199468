/* timing_dispatch.c: the timing model's launch, blocks and results.  A
 * launch allocates the model (per-pc facts, per-warp scoreboards, per-SM
 * L1s sized by the carveout, the shared L2, DRAM and atomic units, all
 * empty: Nsight Compute flushes caches before it measures); a dispatched
 * block's warps may issue TP_BLOCK_DISPATCH cycles later; a barrier's
 * warps TP_BAR_LAT cycles after its release.  Occupancy is integrated
 * here: every warp counts from its block's dispatch to its exit (and its
 * drain, timing_issue.c), every SM
 * from its first block to its last.  The end adds the launch overhead and
 * fills DeviceStats.timing. */
#include <stdlib.h>
#include <string.h>

#include "exec_int.h"
#include "timing_int.h"

void timing_model_free(TimingModel *tm)
{
    if (!tm)
        return;
    free(tm->ii);
    free(tm->warps);
    free(tm->sb);
    free(tm->sbk);
    if (tm->sms)
        for (int s = 0; s < tm->nsm; s++) {
            timing_cache_free(&tm->sms[s].l1);
            free(tm->sms[s].atom_ring);
            timing_defer_free(&tm->sms[s]);
        }
    free(tm->sms);
    timing_cache_free(&tm->l2);
    if (tm->l2_bw)
        for (int i = 0; i < tm->l2_parts; i++)
            timing_bw_free(&tm->l2_bw[i]);
    free(tm->l2_bw);
    timing_bw_free(&tm->dram_bw);
    free(tm->atom);
    free(tm);
}

TimingModel *timing_model_new(const TimingParams *p, int nsm, uint64_t l1_bytes, DeviceTiming *out)
{
    TimingModel *tm = calloc(1, sizeof *tm);
    if (!tm)
        return NULL;
    tm->p = p;
    const double *v = p->v;
    tm->out = out;
    memset(out, 0, sizeof *out);
    out->on = true;
    out->clock_mhz = v[TP_CLOCK_MHZ];
    tm->nsm = nsm;
    tm->sms = calloc((size_t)(nsm > 0 ? nsm : 1), sizeof *tm->sms);
    tm->atom = calloc(TIMING_ATOM_SLOTS, sizeof *tm->atom);
    tm->l2_parts = v[TP_L2_PARTITIONS] >= 1 ? (int)v[TP_L2_PARTITIONS] : 1;
    tm->l2_bw = calloc((size_t)tm->l2_parts, sizeof *tm->l2_bw);
    if (!tm->sms || !tm->atom || !tm->l2_bw)
        goto fail;
    for (int s = 0; s < nsm; s++) {
        tm->sms[s].next_ready = UINT64_MAX;
        if (!timing_cache_init(&tm->sms[s].l1, l1_bytes, (int)v[TP_L1_WAYS_MIN], true))
            goto fail;
    }
    tm->l1_bytes = nsm > 0 ? tm->sms[0].l1.bytes : 0;
    if (!timing_cache_init(&tm->l2, (uint64_t)v[TP_L2_KB] * 1024, (int)v[TP_L2_WAYS], false))
        goto fail;
    for (int i = 0; i < tm->l2_parts; i++)
        timing_bw_init(&tm->l2_bw[i], v[TP_L2_BYTES_PER_CYCLE] / tm->l2_parts);
    timing_bw_init(&tm->dram_bw, v[TP_DRAM_BYTES_PER_CYCLE]);
    return tm;
fail:
    timing_model_free(tm);
    return NULL;
}

bool timing_launch_begin(Exec *x, const ExecOptions *opt)
{
    const TimingParams *p = timing_params_for(opt->arch);
    /* the driver never configures less shared memory than TP_SMEM_CONFIG_MIN
     * (the H100 at carveout 0, 10 or a kernel without shared memory: 32 KB),
     * whatever the occupancy API rounds to: L1 gets the rest */
    uint64_t smem = opt->smem_carveout, l1 = opt->l1_bytes;
    uint64_t floor_b = (uint64_t)p->v[TP_SMEM_CONFIG_MIN] * 1024;
    if (smem < floor_b) {
        l1 = l1 + smem > floor_b ? l1 + smem - floor_b : 0;
        smem = floor_b;
    }
    TimingModel *tm = timing_model_new(p, x->nsm, l1, &x->stats->timing);
    if (!tm)
        return false;
    x->tm = tm;
    tm->out->l1_bytes = l1;
    tm->out->smem_carveout_bytes = smem;
    tm->nwarps = x->nwarps;
    tm->max_warps = opt->arch ? opt->arch->max_warps_per_sm : 64;
    size_t nw = (size_t)x->nslots * (size_t)x->nwarps;
    if (!timing_scoreboard_build(tm, x->prog))
        goto fail;
    size_t per = (size_t)tm->sbmask + 1;
    tm->warps = calloc(nw, sizeof *tm->warps);
    tm->sb = calloc(nw * per, sizeof *tm->sb);
    tm->sbk = calloc(nw * per, sizeof *tm->sbk);
    if (!tm->warps || !tm->sb || !tm->sbk)
        goto fail;
    tm->defer = timing_defer_allowed(x, tm);
    return true;
fail:
    timing_model_free(tm);
    x->tm = NULL;
    return false;
}

void timing_block_begin(Exec *x, Block *b)
{
    TimingModel *tm = x->tm;
    TimingSM *ts = &tm->sms[b->sm];
    uint64_t now = x->cycle;
    if (!ts->live_blocks++) {
        ts->active_since = now;
        tm->active_sms++;
    }
    ts->clock = now;
    size_t per = (size_t)tm->sbmask + 1;
    size_t first = (size_t)(b - x->blocks) * (size_t)x->nwarps;
    /* an SM takes its blocks one after the other, TP_BLOCK_INTERVAL apart:
     * an empty kernel's cycles grow by that much per block per SM, from the
     * first wave on (traces/hw/timing-microbench-h100.json) */
    uint64_t start = now > ts->dispatch_free ? now : ts->dispatch_free;
    ts->dispatch_free = start + (uint64_t)tm->p->v[TP_BLOCK_INTERVAL];
    uint64_t ready = start + (uint64_t)tm->p->v[TP_BLOCK_DISPATCH];
    /* the instruction cache starts cold: the SM's first block asks the L2 for
     * the kernel's first instructions (Nsight Compute: no_instruction at the
     * first SASS instruction, ~250 cycles a warp of an SM's first block;
     * traces/hw/timing-stalls-h100.txt), later blocks find them there */
    if (!ts->code_ready)
        ts->code_ready = start + (uint64_t)(tm->p->v[TP_L2_LAT] + tm->p->v[TP_L2_FAR_EXTRA] / 2);
    if (ts->code_ready > ready)
        ready = ts->code_ready;
    for (int k = 0; k < x->nwarps; k++) {
        TimingWarp *tw = &tm->warps[first + (size_t)k];
        memset(tw, 0, sizeof *tw);
        tw->last = now ? now - 1 : 0;
        tw->min_issue = ready;
        tw->min_reason = DEVICE_STALL_DISPATCH;
        tw->cached_pc = -1;
        tw->npc = -1;
        tw->active = true;
        tw->start = start; /* resident from its paced start */
        tw->age = b->linear * 64 + (uint64_t)k;
        memset(tm->sb + (first + (size_t)k) * per, 0, per * sizeof *tm->sb);
        memset(tm->sbk + (first + (size_t)k) * per, 0, per);
    }
    if (ready < ts->next_ready)
        ts->next_ready = ready;
    memset(ts->sched_min, 0, sizeof ts->sched_min); /* new warps in the lists */
}

void timing_block_end(Exec *x, Block *b)
{
    TimingModel *tm = x->tm;
    TimingSM *ts = &tm->sms[b->sm];
    uint64_t now = x->cycle + 1;
    size_t first = (size_t)(b - x->blocks) * (size_t)x->nwarps;
    for (int k = 0; k < x->nwarps; k++) {
        TimingWarp *tw = &tm->warps[first + (size_t)k];
        if (tw->active) {
            tw->active = false;
            ts->warp_cycles += now - tw->start;
        }
    }
    if (ts->live_blocks > 0 && !--ts->live_blocks) {
        ts->active_cycles += now - ts->active_since;
        timing_defer_idle(tm, b->sm); /* (DRAM pacing counts SMs holding blocks) */
    }
    /* the warp lists are rebuilt without this block: warps change scheduler */
    memset(ts->sched_min, 0, sizeof ts->sched_min);
    if (ts->next_ready > now)
        ts->next_ready = now;
}

void timing_barrier_release(Exec *x, Warp *w)
{
    TimingModel *tm = x->tm;
    TimingWarp *tw = &tm->warps[w->slot];
    uint64_t ready = x->cycle + (uint64_t)tm->p->v[TP_BAR_LAT];
    tw->min_issue = timing_vmax(tm, w->blk->sm, tw->min_issue, ready);
    if (timing_pend(tw->min_issue))
        timing_defer_warp(tm, w->blk->sm, w->slot);
    tw->min_reason = DEVICE_STALL_BARRIER;
    tw->npc = -1;
    tw->cached_pc = -1;
    TimingSM *ts = &tm->sms[w->blk->sm];
    if (ready < ts->next_ready)
        ts->next_ready = ready;
    memset(ts->sched_min, 0, sizeof ts->sched_min);
}

uint64_t timing_globaltimer(const Exec *x)
{
    return (uint64_t)((double)x->cycle * 1000.0 / x->tm->p->v[TP_CLOCK_MHZ]);
}

void timing_launch_end(Exec *x)
{
    TimingModel *tm = x->tm;
    if (!tm)
        return;
    timing_round_end(x, 0); /* (a launch stopped inside a round) */
    DeviceTiming *o = tm->out;
    uint64_t warp_cycles = 0, active = 0;
    int n = tm->nsm < DEVICE_TIMING_MAX_SMS ? tm->nsm : DEVICE_TIMING_MAX_SMS;
    for (int s = 0; s < tm->nsm; s++) {
        TimingSM *ts = &tm->sms[s];
        if (ts->live_blocks) { /* a fault stopped the launch with blocks resident */
            ts->active_cycles += x->cycle + 1 - ts->active_since;
            ts->live_blocks = 0;
        }
        warp_cycles += ts->warp_cycles;
        active += ts->active_cycles;
        if (s < n)
            o->sm_active_cycles[s] = ts->active_cycles;
    }
    o->nsm = n;
    o->achieved_occupancy = active && tm->max_warps ? (double)warp_cycles / ((double)active * tm->max_warps) : 0;
    if (o->achieved_occupancy > 1)
        o->achieved_occupancy = 1;
    if (tm->end > x->cycle) /* stores and atomics still draining */
        x->cycle = tm->end;
    o->launch_overhead = (uint64_t)tm->p->v[TP_LAUNCH_OVERHEAD];
    x->cycle += o->launch_overhead;
    timing_model_free(tm);
    x->tm = NULL;
}
