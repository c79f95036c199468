/* measure.c: one measured launch of the synthetic kernel (predicted beside
 * measured), the carveout sweep's configurations and its JSON rows, and
 * the sweep's scoring against the model (measure.h). */
#include "measure.h"

#include <stdlib.h>
#include <string.h>

#include "device_int.h"
#include "gpu.h"
#include "instrument.h"
#include "synth.h"

struct MeasureKernel {
    Device *dev;
    DeviceModule *mod;
    DevicePtr vals;
    int regs;                /* requested */
    size_t smem_static;      /* requested */
    bool gpu;
};

void measure_config_init(MeasureConfig *c)
{
    memset(c, 0, sizeof *c);
    c->block_size = 256;
    c->carveout = CARVEOUT_DEFAULT;
}

SimStatus measure_kernel_load(Device *d, int regs, size_t smem_static, MeasureKernel **out, SimError *err)
{
    size_t len, ilen;
    char *text = synth_ptx(d->prof ? d->prof->name : "sm_90", regs, smem_static, &len, err);
    if (!text)
        return err ? err->status : SIM_ERR_USAGE;
    char *inst = NULL;
    SimStatus st = instr_residency("synthetic.ptx", text, len, SYNTH_ENTRY, &inst, &ilen, err);
    free(text);
    if (st)
        return st;
    MeasureKernel *k = calloc(1, sizeof *k);
    if (!k) {
        free(inst);
        return sim_error_set(err, SIM_ERR_NOMEM, "", 0, 0, "out of memory");
    }
    k->dev = d;
    k->regs = regs;
    k->smem_static = smem_static;
    k->gpu = gpu_is_gpu(d);
    st = device_load_ptx(d, "synthetic.ptx", inst, ilen, &k->mod, err);
    free(inst);
    if (!st)
        st = device_malloc(d, SYNTH_VALS * 4, &k->vals, err);
    if (st) {
        free(k);
        return st;
    }
    *out = k;
    return SIM_OK;
}

void measure_kernel_free(MeasureKernel *k)
{
    if (!k)
        return;
    SimError e;
    device_free(k->dev, k->vals, &e); /* the module belongs to the device */
    free(k);
}

void measure_result_free(MeasureResult *r)
{
    residency_free(&r->res);
}

static void occ_config(OccConfig *c, int block, int regs, size_t st, size_t dyn, int carveout)
{
    occ_config_init(c);
    c->block_size = block;
    c->regs_per_thread = regs;
    c->smem_static = st;
    c->smem_dynamic = dyn;
    c->carveout = carveout;
}

SimStatus measure_run(MeasureKernel *k, const MeasureConfig *c, MeasureResult *r, SimError *err)
{
    memset(r, 0, sizeof *r);
    const ArchProfile *a = k->dev->prof;
    if (!a)
        return sim_error_set(err, SIM_ERR_UNSUPPORTED, "", 0, 0, "warpsim has no profile of this GPU's arch");
    OccConfig oc;
    OccResult most;
    /* The most an SM could hold whatever the carveout: all its shared memory. */
    occ_config(&oc, c->block_size, k->regs, k->smem_static, c->smem_dynamic, CARVEOUT_MAX_SHARED);
    if (occ_compute(a, &oc, &most, err))
        return err->status;
    if (most.blocks_per_sm == 0)
        return sim_error_set(err, SIM_ERR_USAGE, "", 0, 0,
                             "this launch cannot run: not one block fits on an SM (%d threads, %d registers, "
                             "%zu + %zu bytes shared memory)", c->block_size, k->regs, k->smem_static,
                             c->smem_dynamic);
    r->block_size = c->block_size;
    r->carveout = c->carveout;
    r->smem_dynamic = c->smem_dynamic;
    r->sm_count = k->dev->sm_count;
    r->grid = c->grid ? c->grid : (unsigned)most.blocks_per_sm * (unsigned)r->sm_count * 2;
    r->wait_ns = c->wait_ns ? c->wait_ns : k->gpu ? 50000 : 200;
    SimStatus st;
    /* Attributes: the carveout, and the dynamic-shared-memory opt-in when
     * the default (48 KB less static) is not enough; never lowered again,
     * which changes no answer (it only moves a ceiling this launch is under). */
    if ((st = device_set_attr(k->mod, SYNTH_ENTRY, DEVICE_ATTR_PREFERRED_CARVEOUT, c->carveout, err)))
        return st;
    if (c->smem_dynamic + k->smem_static + 16 > 48 * 1024 &&
        (st = device_set_attr(k->mod, SYNTH_ENTRY, DEVICE_ATTR_MAX_DYNAMIC_SMEM, (int)c->smem_dynamic, err)))
        return st;
    r->api_from_model = !k->gpu;
    if (k->gpu && (st = gpu_occupancy_max_active_blocks(k->mod, SYNTH_ENTRY, c->block_size, c->smem_dynamic,
                                                       &r->api_blocks_per_sm, err)))
        return st;
    /* The records, zero-filled by device_malloc. */
    size_t bytes = (size_t)r->grid * INSTR_RECORD_BYTES;
    DevicePtr buf;
    if ((st = device_malloc(k->dev, bytes, &buf, err)))
        return st;
    uint64_t out = 0, wait = r->wait_ns, vals = k->vals, res = buf;
    void *args[4] = {&vals, &out, &wait, &res};
    DeviceLaunch l = {.grid = {r->grid, 1, 1}, .block = {(unsigned)c->block_size, 1, 1}, .smem = (unsigned)c->smem_dynamic, .inst_budget = 0,
                      .timing = c->timing && !k->gpu};
    DeviceStats stats;
    DeviceFault fault;
    memset(&stats, 0, sizeof stats);
    memset(&fault, 0, sizeof fault);
    st = device_launch(k->mod, SYNTH_ENTRY, &l, args, &stats, &fault, err);
    if (st == SIM_ERR_FAULT)
        sim_error_set(err, st, "", 0, 0, "the synthetic kernel faulted: %s: %s", fault.kind, fault.msg);
    unsigned char *raw = st ? NULL : malloc(bytes);
    InstrRecord *recs = st ? NULL : malloc(sizeof *recs * r->grid);
    if (!st && (!raw || !recs))
        st = sim_error_set(err, SIM_ERR_NOMEM, "", 0, 0, "out of memory");
    if (!st)
        st = device_memcpy_dtoh(k->dev, raw, buf, bytes, err);
    SimError e2;
    device_free(k->dev, buf, &e2);
    if (!st) {
        instr_decode(raw, r->grid, recs);
        r->seconds = stats.seconds;
        r->sim_achieved_occupancy = stats.timing.on ? stats.timing.achieved_occupancy : -1;
        r->regs = k->gpu && stats.regs_per_thread > 0 ? stats.regs_per_thread : k->regs;
        r->smem_static = k->gpu ? (size_t)stats.static_smem : k->smem_static;
        occ_config(&oc, c->block_size, r->regs, r->smem_static, c->smem_dynamic, c->carveout);
        st = occ_compute(a, &oc, &r->model, err);
        if (!st && !k->gpu)
            r->api_blocks_per_sm = r->model.blocks_per_sm;
        if (!st)
            st = residency_compute(recs, r->grid, (c->block_size + a->warp_size - 1) / a->warp_size,
                                   a->max_warps_per_sm, &r->res, err);
    }
    free(raw);
    free(recs);
    return st;
}

/* ---------------------------------------------------------------- sweep */

int measure_sweep_configs(bool tiny, SweepRow *rows)
{
    static const int blocks[] = {32, 64, 128, 256, 512, 1024}, tblocks[] = {32, 256};
    static const long dyn[] = {0, 1024, 2048, 4096, 7168, 8192, 12288, 16384, 24576, 32768, 49152, 65536,
                               81920, 102400},
                      tdyn[] = {0, 8192};
    static const int carve[] = {-1, 0, 10, 25, 50, 100}, tcarve[] = {-1, 0};
    const int *b = tiny ? tblocks : blocks, *cv = tiny ? tcarve : carve;
    const long *dy = tiny ? tdyn : dyn;
    int nb = tiny ? 2 : 6, nd = tiny ? 2 : 14, nc = tiny ? 2 : 6, n = 0;
    for (int i = 0; i < nb; i++)
        for (int j = 0; j < nd; j++)
            for (int c = 0; c < nc; c++, n++)
                if (rows)
                    rows[n] = (SweepRow){.block = b[i], .smem_dyn = dy[j], .carveout = cv[c]};
    return n;
}

void measure_sweep_row_json(FILE *f, const SweepRow *r)
{
    fprintf(f, "{\"block\": %d, \"regs\": %d, \"smem_static\": %ld, \"smem_dyn\": %ld, \"carveout\": %d, "
               "\"api\": %d, \"measured\": %d, \"waves\": %d, \"achieved\": %.4f}",
            r->block, r->regs, r->smem_static, r->smem_dyn, r->carveout, r->api, r->measured, r->waves,
            r->achieved);
}

/* The number after "key": in line; false when absent. */
static bool num(const char *line, const char *key, double *v)
{
    char pat[40];
    snprintf(pat, sizeof pat, "\"%s\":", key);
    const char *p = strstr(line, pat);
    if (!p)
        return false;
    char *end;
    *v = strtod(p + strlen(pat), &end);
    return end != p + strlen(pat);
}

bool measure_sweep_row_parse(const char *line, SweepRow *r)
{
    double b, d, c, api, m, v;
    if (!num(line, "block", &b) || !num(line, "smem_dyn", &d) || !num(line, "carveout", &c) ||
        !num(line, "api", &api) || !num(line, "measured", &m))
        return false;
    memset(r, 0, sizeof *r);
    r->block = (int)b;
    r->smem_dyn = (long)d;
    r->carveout = (int)c;
    r->api = (int)api;
    r->measured = (int)m;
    r->regs = num(line, "regs", &v) ? (int)v : 0;
    r->smem_static = num(line, "smem_static", &v) ? (long)v : 0;
    r->waves = num(line, "waves", &v) ? (int)v : 0;
    r->achieved = num(line, "achieved", &v) ? v : 0;
    return true;
}

void measure_sweep_score(const ArchProfile *a, const SweepRow *rows, int n, SweepScore *s, FILE *report)
{
    memset(s, 0, sizeof *s);
    for (int i = 0; i < n; i++) {
        const SweepRow *w = &rows[i];
        OccConfig c;
        OccResult r, all;
        occ_config(&c, w->block, w->regs, (size_t)w->smem_static, (size_t)w->smem_dyn, w->carveout);
        if (occ_compute(a, &c, &r, NULL))
            continue;
        c.carveout = CARVEOUT_MAX_SHARED;
        if (occ_compute(a, &c, &all, NULL))
            continue;
        s->rows++;
        s->api_vs_measured += w->api == w->measured;
        s->model_vs_api += r.blocks_per_sm == w->api;
        s->model_vs_measured += r.resident_blocks_per_sm == w->measured;
        s->max_shared_vs_measured += all.blocks_per_sm == w->measured;
        s->measured_above_api += w->measured > w->api;
        s->measured_below_api += w->measured < w->api;
        if (report && r.resident_blocks_per_sm != w->measured)
            fprintf(report, "  block %4d  dyn %6ld  carveout %3d:  api %2d  model %2d  measured %2d  "
                            "(all shared memory: %d; model capacity %zu KB)\n",
                    w->block, w->smem_dyn, w->carveout, w->api, r.resident_blocks_per_sm, w->measured,
                    all.blocks_per_sm, r.smem_capacity / 1024);
    }
}
