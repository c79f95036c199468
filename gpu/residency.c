/* residency.c: blocks resident per SM over time from per-block records
 * (residency.h has the definitions).  Per SM, a sweep over start (+1) and
 * end (-1) events in time order, ends first at equal times. */
#include "residency.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    uint64_t t;
    int delta;     /* +1 start, -1 end */
    size_t rec;
} Event;

static bool complete(const InstrRecord *r)
{
    return r->start > 0 && r->end > 0 && r->end >= r->start;
}

static int event_cmp(const void *a, const void *b)
{
    const Event *x = a, *y = b;
    if (x->t != y->t)
        return x->t < y->t ? -1 : 1;
    if (x->delta != y->delta)
        return x->delta < y->delta ? -1 : 1; /* ends before starts */
    return x->rec < y->rec ? -1 : x->rec > y->rec;
}

/* Events of SM smid (or of every SM when all), sorted.  Returns the count;
 * *ev is malloc'd (NULL when none or out of memory: *oom set). */
static size_t sm_events(const InstrRecord *recs, size_t n, uint32_t smid, Event **ev, bool *oom)
{
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        k += complete(&recs[i]) && recs[i].smid == smid;
    *ev = NULL;
    *oom = false;
    if (!k)
        return 0;
    Event *e = malloc(sizeof *e * 2 * k);
    if (!e) {
        *oom = true;
        return 0;
    }
    size_t j = 0;
    for (size_t i = 0; i < n; i++)
        if (complete(&recs[i]) && recs[i].smid == smid) {
            e[j++] = (Event){recs[i].start, +1, i};
            e[j++] = (Event){recs[i].end, -1, i};
        }
    qsort(e, j, sizeof *e, event_cmp);
    *ev = e;
    return j;
}

size_t residency_series(const InstrRecord *recs, size_t n, uint32_t smid, ResidencyStep *steps,
                        size_t cap)
{
    Event *e;
    bool oom;
    size_t ne = sm_events(recs, n, smid, &e, &oom), k = 0;
    int cur = 0;
    for (size_t i = 0; i < ne; i++) {
        cur += e[i].delta;
        if (i + 1 < ne && e[i + 1].t == e[i].t)
            continue; /* one step per distinct time */
        if (k < cap)
            steps[k] = (ResidencyStep){e[i].t, cur};
        k++;
    }
    free(e);
    return k;
}

void residency_free(Residency *r)
{
    free(r->max_resident_per_sm);
    free(r->time_at);
    memset(r, 0, sizeof *r);
}

SimStatus residency_compute(const InstrRecord *recs, size_t n, int warps_per_block,
                            int max_warps_per_sm, Residency *out, SimError *err)
{
    memset(out, 0, sizeof *out);
    out->max_smid = -1;
    if (warps_per_block < 1 || max_warps_per_sm < 1)
        return sim_error_set(err, SIM_ERR_USAGE, "", 0, 0,
                             "warps per block and per SM must be at least 1");
    out->blocks = n;
    for (size_t i = 0; i < n; i++)
        if (complete(&recs[i])) {
            out->complete++;
            if ((int)recs[i].smid > out->max_smid)
                out->max_smid = (int)recs[i].smid;
            if (!out->first_start || recs[i].start < out->first_start)
                out->first_start = recs[i].start;
            if (recs[i].end > out->last_end)
                out->last_end = recs[i].end;
        }
    size_t nsm = (size_t)(out->max_smid + 1);
    out->max_resident_per_sm = calloc(nsm ? nsm : 1, sizeof(int));
    double *time_at = calloc(out->complete + 2, sizeof(double)); /* by resident count */
    int *wave = calloc(n ? n : 1, sizeof(int));
    Event *starts = malloc(sizeof(Event) * (out->complete ? out->complete : 1));
    Event *ends = malloc(sizeof(Event) * (out->complete ? out->complete : 1));
    if (!out->max_resident_per_sm || !time_at || !wave || !starts || !ends)
        goto oom;
    double active_time = 0, warp_time = 0;
    out->min_of_max_resident = 0;
    for (size_t s = 0; s < nsm; s++) {
        Event *e;
        bool oom;
        size_t ne = sm_events(recs, n, (uint32_t)s, &e, &oom);
        if (oom)
            goto oom;
        if (!ne)
            continue;
        out->sms++;
        /* Residency: the sweep, and the time spent at each count. */
        int cur = 0, mx = 0;
        for (size_t i = 0; i < ne; i++) {
            if (i > 0 && cur > 0) {
                double dt = (double)(e[i].t - e[i - 1].t);
                time_at[cur] += dt;
                active_time += dt;
                warp_time += dt * cur * warps_per_block;
            }
            cur += e[i].delta;
            if (cur > mx)
                mx = cur;
        }
        out->max_resident_per_sm[s] = mx;
        if (mx > out->max_resident)
            out->max_resident = mx;
        if (!out->min_of_max_resident || mx < out->min_of_max_resident)
            out->min_of_max_resident = mx;
        /* Waves: each block's wave is 1 + the highest among those ended. */
        size_t ns = 0, nd = 0;
        for (size_t i = 0; i < ne; i++)
            if (e[i].delta > 0)
                starts[ns++] = e[i];
            else
                ends[nd++] = e[i];
        int ended_max = 0;
        size_t j = 0;
        for (size_t i = 0; i < ns; i++) {
            while (j < nd && ends[j].t <= starts[i].t) {
                if (wave[ends[j].rec] > ended_max)
                    ended_max = wave[ends[j].rec];
                j++;
            }
            wave[starts[i].rec] = ended_max + 1;
            if (ended_max + 1 > out->waves)
                out->waves = ended_max + 1;
        }
        free(e);
    }
    out->time_at = calloc((size_t)out->max_resident + 1, sizeof(double));
    if (!out->time_at)
        goto oom;
    for (int k = 1; k <= out->max_resident; k++) {
        out->time_at[k] = active_time > 0 ? time_at[k] / active_time : 0;
        if (out->time_at[k] >= RESIDENCY_STEADY_FRACTION)
            out->steady_resident = k;
    }
    out->mean_resident = active_time > 0 ? warp_time / warps_per_block / active_time : 0;
    out->achieved_occupancy = active_time > 0 ? warp_time / ((double)max_warps_per_sm * active_time) : 0;
    free(time_at);
    free(wave);
    free(starts);
    free(ends);
    return SIM_OK;
oom:
    free(time_at);
    free(wave);
    free(starts);
    free(ends);
    residency_free(out);
    return sim_error_set(err, SIM_ERR_NOMEM, "", 0, 0, "out of memory");
}
