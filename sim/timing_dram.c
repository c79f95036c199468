/* timing_dram.c: DRAM -- a fixed latency behind L2 and a bandwidth shared by
 * the whole GPU -- and the windowed bandwidth account every shared
 * resource uses (L2 partitions too): SMs are simulated a slice at a time, so
 * requests reach a shared unit out of time order, and a "busy until" clock
 * would make an early request queue behind a later one.  Windows of
 * TIMING_BW_WINDOW cycles each carry a fixed number of bytes; a request
 * takes room in the first window at or after its own time with room left. */
#include <stdlib.h>

#include "timing_int.h"

void timing_bw_init(TimingBw *b, double bytes_per_cycle)
{
    b->per_window = bytes_per_cycle * TIMING_BW_WINDOW;
    b->used = NULL;
    b->skip = NULL;
    b->n = 0;
    b->nomem = false;
}

void timing_bw_free(TimingBw *b)
{
    free(b->used);
    free(b->skip);
    b->used = NULL;
    b->skip = NULL;
    b->n = 0;
}

static bool grow(TimingBw *b, uint64_t need)
{
    if (need <= b->n)
        return true;
    uint64_t n = b->n ? b->n : 1024;
    while (n < need)
        n *= 2;
    float *u = realloc(b->used, n * sizeof *u);
    if (!u) {
        b->nomem = true;
        return false;
    }
    b->used = u;
    uint64_t *sk = realloc(b->skip, n * sizeof *sk);
    if (!sk) {
        b->nomem = true;
        return false;
    }
    b->skip = sk;
    for (uint64_t i = b->n; i < n; i++) {
        u[i] = 0;
        sk[i] = i;
    }
    b->n = n;
    return true;
}

/* The first window at or after k that is not full (path halving over skip). */
static uint64_t first_open(TimingBw *b, uint64_t k)
{
    while (k < b->n && b->skip[k] != k) {
        uint64_t next = b->skip[k];
        if (next < b->n)
            b->skip[k] = b->skip[next];
        k = next;
    }
    return k;
}

uint64_t timing_bw_reserve(TimingBw *b, uint64_t t, unsigned bytes)
{
    if (b->per_window <= 0 || b->nomem || !bytes)
        return t;
    double left = bytes;
    uint64_t k = first_open(b, t / TIMING_BW_WINDOW), start = UINT64_MAX;
    while (left > 0) {
        if (!grow(b, k + 1))
            return start == UINT64_MAX ? t : start;
        double room = b->per_window - b->used[k];
        double take = room < left ? room : left;
        if (start == UINT64_MAX)
            start = k * TIMING_BW_WINDOW;
        b->used[k] += (float)take;
        left -= take;
        if (b->used[k] >= b->per_window - 1e-3) /* full: later requests skip it */
            b->skip[k] = k + 1;
        if (left > 0)
            k = first_open(b, k + 1);
    }
    return start < t ? t : start;
}

uint64_t timing_dram_access(TimingModel *tm, int sm, uint64_t t, unsigned bytes, bool write, uint32_t line)
{
    if (sm >= 0 && t > tm->sms[sm].clock + TIMING_AHEAD && tm->active_sms > 1) {
        /* far ahead of its SM's clock: paced at the SM's share */
        TimingSM *ts = &tm->sms[sm];
        uint64_t t64 = t * 64, per = (uint64_t)((double)bytes * 64 * tm->active_sms / tm->p->v[TP_DRAM_BYTES_PER_CYCLE]);
        if (ts->dram_share_free > t64)
            t64 = ts->dram_share_free;
        ts->dram_share_free = t64 + per;
        t = t64 / 64;
    }
    uint64_t s = timing_bw_reserve(&tm->dram_bw, t, bytes);
    if (write)
        tm->out->dram_write_bytes += bytes;
    else
        tm->out->dram_read_bytes += bytes;
    /* the DRAM's state (an open row or not, a busy bank, a refresh) makes some
     * accesses slower than others: a fixed share of the spread by address, so
     * the model stays deterministic */
    uint32_t h = line * 0x9e3779b1u;
    h ^= h >> 15;
    h *= 0x85ebca6bu;
    h ^= h >> 13;
    uint64_t extra = (uint64_t)((double)(h & 1023) / 1024.0 * tm->p->v[TP_DRAM_SPREAD]);
    return s + (uint64_t)tm->p->v[TP_DRAM_LAT] + extra;
}
