/* timing_l2.c: the L2 shared by every SM.  Lines are spread over its
 * partitions by address; an SM reaches its near partition at the L2 hit
 * latency and the far one later (the H100's L2 is two partitions joined by
 * a crossbar).  Each partition has its share of the L2 bandwidth.  Sectored
 * like the L1, write-back, write-allocate; a miss reads DRAM, an evicted
 * dirty line writes it back.  Caches start empty at every launch, as with
 * Nsight Compute's cache flush. */
#include "timing_int.h"

uint64_t timing_l2_access(TimingModel *tm, int sm, uint64_t t, uint32_t line, uint8_t sectors, int op)
{
    const double *v = tm->p->v;
    int nparts = tm->l2_parts;
    int part = (int)((line ^ (line >> 5) ^ (line >> 13)) % (uint32_t)nparts);
    unsigned n = (unsigned)timing_nsectors(sectors);
    tm->out->l2_sectors += n;
    uint64_t start = timing_bw_reserve(&tm->l2_bw[part], t, n * 32);
    uint64_t lat = (uint64_t)v[TP_L2_LAT] + (part != sm % nparts ? (uint64_t)v[TP_L2_FAR_EXTRA] : 0);
    /* the request's way there and the answer's way back: half the latency each */
    uint64_t at_l2 = start + lat / 2, done = start + lat;
    uint32_t victim;
    TimingLine *l = timing_cache_lookup(&tm->l2, line, &victim);
    uint8_t hit = l ? (uint8_t)(l->sectors & sectors) : 0;
    tm->out->l2_hits += (uint64_t)timing_nsectors(hit);
    if (l && hit && l->ready > at_l2 && l->ready + lat / 2 > done)
        done = l->ready + lat / 2;
    uint8_t miss = (uint8_t)(sectors & ~hit);
    if (!l) {
        uint8_t ev;
        l = timing_cache_claim(&tm->l2, victim, line, &ev);
        if (ev)
            timing_dram_access(tm, sm, at_l2, (unsigned)timing_nsectors(ev) * 32, true, line);
    }
    uint8_t fetched = 0;
    if (miss && op != TIMING_L2_STORE) {
        /* DRAM is read in aligned groups of TP_DRAM_FETCH_SECTORS sectors: a
         * stride that uses one sector of each pair still reads both */
        unsigned g = v[TP_DRAM_FETCH_SECTORS] >= 2 ? (v[TP_DRAM_FETCH_SECTORS] >= 4 ? 4 : 2) : 1;
        uint8_t gm = (uint8_t)((1u << g) - 1);
        for (unsigned k = 0; k < 4; k += g)
            if (miss & (gm << k))
                fetched |= (uint8_t)(gm << k);
        fetched &= (uint8_t)~(l ? l->sectors : 0);
        fetched |= miss;
        uint64_t back = timing_dram_access(tm, sm, at_l2, (unsigned)timing_nsectors(fetched) * 32, false, line);
        if (l && back > l->ready)
            l->ready = back;
        if (back + lat / 2 > done)
            done = back + lat / 2;
    }
    if (l) {
        l->sectors |= sectors | fetched;
        if (op != TIMING_L2_LOAD)
            l->dirty |= sectors;
        timing_cache_touch(&tm->l2, l);
    }
    if (done > tm->end)
        tm->end = done;
    return done;
}

/* Constant banks live apart from global memory in the L2 (their own lines). */
#define CONST_LINE0 0xfff00000u

uint64_t timing_const_read(TimingModel *tm, int sm, uint64_t t, int bank, uint64_t off)
{
    TimingSM *ts = &tm->sms[sm];
    uint32_t key = ((uint32_t)bank << 16 | (uint32_t)((off >> 5) & 0xffff)) + 1;
    uint64_t hit = t + (uint64_t)tm->p->v[TP_LAT_INT];
    for (int i = 0; i < TIMING_CONST_LINES; i++)
        if (ts->ctag[i] == key)
            return timing_vmax(tm, sm, ts->cready[i], hit);
    uint64_t byte = (uint64_t)bank << 16 | (off & 0xffff);
    uint32_t line = CONST_LINE0 + (uint32_t)(byte >> 7);
    uint64_t back = timing_defer_l2(tm, sm, t, line, (uint8_t)(1u << ((byte >> 5) & 3)), TIMING_L2_LOAD);
    uint32_t k = ts->cnext++ % TIMING_CONST_LINES;
    ts->ctag[k] = key;
    ts->cready[k] = back;
    return timing_vmax(tm, sm, back, hit);
}
