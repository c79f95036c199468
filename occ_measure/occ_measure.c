/* occ_measure.c: measured occupancy (occ_measure.h) -- open the GPU (or
 * the simulator), run the synthetic kernel through gpu/measure.h, lay the
 * prediction beside the measurement (text or JSON), run the carveout sweep
 * into a JSON file and score a sweep file against the model.  Nsight
 * Compute, when asked for and on PATH, re-runs the same command under ncu
 * for sm__warps_active. */
#include "occ_measure.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "carveout.h"
#include "gpu.h"
#include "pool.h"
#include "report.h"
#include "sandbox.h"
#include "source.h"

#define NCU_METRIC "sm__warps_active.avg.pct_of_peak_sustained_active"

bool occ_measure_check(const OccMeasureOpts *o, bool sweep, char *why, size_t cap)
{
    if (!sweep && (o->block < 1 || o->block > 1024))
        snprintf(why, cap, "--block must be 1..1024 to measure");
    else if (o->regs < 1 || o->regs > 255)
        snprintf(why, cap, "--regs must be 1..255 to measure");
    else if (o->smem_static > 48 * 1024)
        snprintf(why, cap, "static shared memory is at most 48 KB per block");
    else
        return true;
    return false;
}

Device *occ_measure_open(const OccMeasureOpts *o, char *name, size_t cap, char *note, size_t note_cap,
                         SimError *e)
{
    Device *d;
    note[0] = 0;
    if (o->sim) {
        d = device_open_sim(o->arch ? o->arch : "sm_90", e);
        snprintf(name, cap, "warpsim simulator");
    } else {
        d = device_open_gpu(0, e);
        char drv[64];
        int cuda;
        SimError ie;
        sim_error_clear(&ie);
        if (d && gpu_device_info(d, name, cap, drv, sizeof drv, &cuda, &ie))
            snprintf(name, cap, "GPU");
    }
    if (d && o->arch && !o->sim && strcmp(o->arch, device_arch(d)))
        snprintf(note, note_cap, "note: measuring on the GPU there is (%s), not %s", device_arch(d), o->arch);
    return d;
}

/* Run this very command again under ncu and read the metric; -1 when ncu
 * is absent or gives nothing.  ncu starts from an argument vector (never a
 * shell: the arguments are the user's) in a private folder, its group
 * killed after 120 s; no address-space limit, since a CUDA context maps
 * far more than any limit that would still mean something. */
static double run_ncu(const OccMeasureOpts *o)
{
    const char *found = source_find_tool("ncu");
    char ncu[1024], self[4096], msg[256];
    if (!found || found[0] != '/')
        return -1;
    snprintf(ncu, sizeof ncu, "%s", found);
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n <= 0)
        return -1;
    self[n] = 0;
    const char **argv = calloc((size_t)o->argc + 16, sizeof *argv);
    Sandbox *sb = argv ? sandbox_new("ncu", msg, sizeof msg) : NULL;
    if (!sb) {
        free(argv);
        return -1;
    }
    int k = 0;
    const char *fixed[] = {ncu, "--metrics", NCU_METRIC, "--csv", "-k", "regex:__warpsim_synth", "-c", "1",
                           "--log-file", "ncu.log", self, "occupancy"};
    for (size_t i = 0; i < sizeof fixed / sizeof *fixed; i++)
        argv[k++] = fixed[i];
    for (int i = 1; i < o->argc; i++)
        if (strcmp(o->argv[i], "--ncu"))
            argv[k++] = o->argv[i];
    argv[k] = NULL;
    SandboxLimits lim = {.wall_seconds = 120};
    SandboxResult r;
    double v = -1;
    if (sandbox_run(sb, argv, &lim, 64 * 1024, &r, msg, sizeof msg)) {
        size_t len = 0;
        char *log = r.end == SANDBOX_EXITED && r.code == 0 ? sandbox_read(sb, "ncu.log", 16u << 20, &len, msg, sizeof msg)
                                                            : NULL;
        for (char *line = log, *next; line && *line; line = next) {
            next = strchr(line, '\n');
            if (next)
                *next++ = 0;
            if (strstr(line, NCU_METRIC)) { /* ...,"Metric Value" last, quoted */
                char *q = strrchr(line, '"');
                if (q) {
                    *q = 0;
                    char *p = strrchr(line, '"');
                    if (p)
                        v = strtod(p + 1, NULL);
                }
            }
            if (!next)
                break;
        }
        free(log);
        sandbox_result_free(&r);
    }
    sandbox_free(sb);
    free(argv);
    return v;
}

static int predicted_waves(unsigned grid, int per_sm, int sms)
{
    long long slots = (long long)per_sm * sms;
    return slots > 0 ? (int)((grid + slots - 1) / slots) : 0;
}

SimStatus occ_measure_one(Device *d, const char *name, const OccMeasureOpts *o, OccMeasurement *m, SimError *e)
{
    memset(m, 0, sizeof *m);
    snprintf(m->device, sizeof m->device, "%s", name);
    snprintf(m->arch, sizeof m->arch, "%s", device_arch(d));
    m->sim = o->sim;
    m->ncu_asked = o->ncu;
    m->ncu = -1;
    MeasureKernel *k = NULL;
    MeasureConfig c;
    measure_config_init(&c);
    c.block_size = o->block;
    c.smem_dynamic = o->smem_dyn;
    c.carveout = o->carveout;
    c.grid = o->grid;
    c.wait_ns = (uint64_t)(o->wait_us * 1000);
    if (o->timing && !c.wait_ns) /* under the model a wait shorter than ~2 us is over
                                    before an SM's last blocks start (docs/timing.md) */
        c.wait_ns = 5000;
    m->timed = o->timing;
    c.timing = o->timing && o->sim;
    SimStatus st = measure_kernel_load(d, o->regs, o->smem_static, &k, e);
    if (st == SIM_OK)
        st = measure_run(k, &c, &m->r, e);
    measure_kernel_free(k);
    k = NULL;
    if (st == SIM_OK && o->timing && !o->sim) { /* the GPU's launch, simulated beside it */
        Device *sd = device_open_sim(m->arch, e);
        c.timing = true;
        st = sd ? measure_kernel_load(sd, o->regs, o->smem_static, &k, e) : e->status;
        if (st == SIM_OK)
            st = measure_run(k, &c, &m->tr, e);
        measure_kernel_free(k);
        device_close(sd);
    }
    if (st != SIM_OK)
        return st;
    m->ncu = o->ncu ? run_ncu(o) : -1;
    m->predicted_waves = predicted_waves(m->r.grid, m->r.model.resident_blocks_per_sm, m->r.sm_count);
    const ArchProfile *a = arch_find(m->arch);
    m->max_warps = a ? a->max_warps_per_sm : 64;
    return SIM_OK;
}

void occ_measure_free(OccMeasurement *m)
{
    measure_result_free(&m->r);
    if (m->timed && !m->sim)
        measure_result_free(&m->tr);
}

const MeasureResult *occ_measure_timed(const OccMeasurement *m)
{
    return !m->timed ? NULL : m->sim ? &m->r : &m->tr;
}

/* "1: 12%, 2: 88%": the time at k resident blocks. */
static void time_at_text(char *buf, size_t cap, const Residency *res)
{
    size_t n = 0;
    buf[0] = 0;
    for (int i = 1; i <= res->max_resident && n < cap; i++)
        n += (size_t)snprintf(buf + n, cap - n, "%s%d: %.0f%%", i > 1 ? ", " : "", i, 100 * res->time_at[i]);
}

/* One row of the timed table: the GPU's cell only when there is one. */
static void row3(FILE *f, const char *label, const char *a, const char *b, const char *c)
{
    if (c)
        fprintf(f, "  %-23s %-19s %-24s %s\n", label, a, b, c);
    else
        fprintf(f, "  %-23s %-19s %s\n", label, a, b);
}

/* The table with the timing model's column (and the GPU's, measured on one). */
static void report_text_timed(FILE *f, const OccMeasurement *m)
{
    const MeasureResult *r = &m->r, *t = occ_measure_timed(m);
    const MeasureResult *g = m->sim ? NULL : r; /* the GPU's measurement */
    char co[16], a[48], b[48], c[48];
    fprintf(f, "%s: %s, %d SMs%s\n", m->device, m->arch, r->sm_count,
           m->sim ? " (the simulator stands in, in modelled time: the timing model)"
                  : "; the simulator runs the same launch under its timing model");
    fprintf(f, "launch: %d threads/block, %d registers, %zu + %zu bytes shared memory, carveout %s;\n"
           "        %u blocks, each waiting %.1f us\n\n", r->block_size, r->regs, r->smem_static, r->smem_dynamic,
           carveout_format(r->carveout, co, sizeof co), r->grid, (double)r->wait_ns / 1000);
    row3(f, "", "predicted (model)", "simulated (timing)", g ? "measured (GPU)" : NULL);
    snprintf(a, sizeof a, "%d", r->model.blocks_per_sm);
    snprintf(b, sizeof b, "%d (the model)", t->api_blocks_per_sm);
    snprintf(c, sizeof c, "%d (occupancy API)", g ? g->api_blocks_per_sm : 0);
    row3(f, "blocks per SM", a, b, g ? c : NULL);
    snprintf(a, sizeof a, "%d", r->model.resident_blocks_per_sm);
    snprintf(b, sizeof b, "%d steady, peak %d", t->res.steady_resident, t->res.max_resident);
    snprintf(c, sizeof c, "%d steady, peak %d", g ? g->res.steady_resident : 0, g ? g->res.max_resident : 0);
    row3(f, "resident blocks per SM", a, b, g ? c : NULL);
    snprintf(a, sizeof a, "%d", m->predicted_waves);
    snprintf(b, sizeof b, "%d", t->res.waves);
    snprintf(c, sizeof c, "%d", g ? g->res.waves : 0);
    row3(f, "waves", a, b, g ? c : NULL);
    snprintf(a, sizeof a, "%.1f%%",
             100.0 * r->model.resident_blocks_per_sm * r->model.warps_per_block / m->max_warps);
    snprintf(b, sizeof b, "%.1f%% (records)", 100.0 * t->res.achieved_occupancy);
    snprintf(c, sizeof c, "%.1f%% (records)", g ? 100.0 * g->res.achieved_occupancy : 0);
    row3(f, "achieved occupancy", a, b, g ? c : NULL);
    snprintf(b, sizeof b, "%.1f%% (timing model)", 100.0 * t->sim_achieved_occupancy);
    if (m->ncu >= 0)
        snprintf(c, sizeof c, "%.1f%% (Nsight Compute)", m->ncu);
    else
        snprintf(c, sizeof c, "%s", m->ncu_asked ? "(ncu gave no value)" : "(--ncu: Nsight Compute)");
    row3(f, "warps active", "", b, g ? c : NULL);
    snprintf(b, sizeof b, "%.1f us", (double)(t->res.last_end - t->res.first_start) / 1000);
    snprintf(c, sizeof c, "%.1f us", g ? (double)(g->res.last_end - g->res.first_start) / 1000 : 0);
    row3(f, "first start to last end", "", b, g ? c : NULL);
    char ta[256];
    time_at_text(ta, sizeof ta, &t->res);
    fprintf(f, "\nresidency over time, share of each SM's active time with k blocks resident:\n");
    fprintf(f, "  simulated (timing)      %s\n", ta);
    if (g) {
        time_at_text(ta, sizeof ta, &g->res);
        fprintf(f, "  measured (GPU)          %s\n", ta);
    }
}

void occ_measure_report(FILE *f, bool json, const OccMeasurement *m)
{
    const MeasureResult *r = &m->r;
    char co[16];
    if (json) {
        fprintf(f, "{\n  \"device\": ");
        report_json_string(f, m->device);
        fprintf(f, ", \"arch\": \"%s\", \"backend\": \"%s\", \"sm_count\": %d,\n", m->arch,
               m->sim ? "simulator" : "gpu", r->sm_count);
        fprintf(f, "  \"block\": %d, \"regs\": %d, \"smem_static\": %zu, \"smem_dyn\": %zu, \"carveout\": %d, "
               "\"grid\": %u, \"wait_ns\": %llu,\n", r->block_size, r->regs, r->smem_static, r->smem_dynamic,
               r->carveout, r->grid, (unsigned long long)r->wait_ns);
        fprintf(f, "  \"predicted\": {\"blocks_per_sm\": %d, \"resident_blocks_per_sm\": %d, \"waves\": %d, "
               "\"occupancy\": %.4f, \"smem_capacity\": %zu},\n", r->model.blocks_per_sm,
               r->model.resident_blocks_per_sm, m->predicted_waves, r->model.occupancy, r->model.smem_capacity);
        fprintf(f, "  \"measured\": {\"api_blocks_per_sm\": %d, \"api_from_model\": %s, "
               "\"resident_blocks_per_sm\": %d, \"max_resident_blocks_per_sm\": %d, "
               "\"min_max_resident_blocks_per_sm\": %d, \"waves\": %d, "
               "\"achieved_occupancy\": %.4f, \"mean_resident_blocks\": %.3f, \"sms_used\": %d, "
               "\"complete_blocks\": %zu, \"seconds\": %.6f, \"ncu_warps_active_pct\": ",
               r->api_blocks_per_sm, r->api_from_model ? "true" : "false", r->res.steady_resident,
               r->res.max_resident, r->res.min_of_max_resident, r->res.waves, r->res.achieved_occupancy, r->res.mean_resident,
               r->res.sms, r->res.complete, r->seconds);
        m->ncu >= 0 ? fprintf(f, "%.2f", m->ncu) : fprintf(f, "null");
        fprintf(f, ", \"resident_time_fraction\": [");
        for (int i = 0; i <= r->res.max_resident; i++)
            fprintf(f, "%s%.4f", i ? ", " : "", r->res.time_at[i]);
        fprintf(f, "]}");
        const MeasureResult *t = occ_measure_timed(m);
        if (t) {
            fprintf(f, ",\n  \"simulated\": {\"timing_model\": true, \"resident_blocks_per_sm\": %d, "
                   "\"max_resident_blocks_per_sm\": %d, \"waves\": %d, \"achieved_occupancy\": %.4f, "
                   "\"timing_achieved_occupancy\": %.4f, \"span_ns\": %llu, \"resident_time_fraction\": [",
                   t->res.steady_resident, t->res.max_resident, t->res.waves, t->res.achieved_occupancy,
                   t->sim_achieved_occupancy, (unsigned long long)(t->res.last_end - t->res.first_start));
            for (int i = 0; i <= t->res.max_resident; i++)
                fprintf(f, "%s%.4f", i ? ", " : "", t->res.time_at[i]);
            fprintf(f, "]}");
        }
        fprintf(f, "\n}\n");
    } else if (m->timed) {
        report_text_timed(f, m);
    } else {
        fprintf(f, "%s: %s, %d SMs%s\n", m->device, m->arch, r->sm_count,
               m->sim ? " (the simulator stands in: no memory latency, so not a GPU's timings)" : "");
        fprintf(f, "launch: %d threads/block, %d registers, %zu + %zu bytes shared memory, carveout %s;\n"
               "        %u blocks, each waiting %.1f us\n\n", r->block_size, r->regs, r->smem_static,
               r->smem_dynamic, carveout_format(r->carveout, co, sizeof co), r->grid, (double)r->wait_ns / 1000);
        fprintf(f, "                          predicted (model)   measured\n");
        fprintf(f, "  blocks per SM           %-19d %d (%s)\n", r->model.blocks_per_sm, r->api_blocks_per_sm,
               r->api_from_model ? "the model: no occupancy API here" : "occupancy API");
        fprintf(f, "  resident blocks per SM  %-19d %d steady (held >= %.0f%% of the time; brief peak %d)\n",
               r->model.resident_blocks_per_sm, r->res.steady_resident, 100 * RESIDENCY_STEADY_FRACTION,
               r->res.max_resident);
        fprintf(f, "  waves                   %-19d %d\n", m->predicted_waves, r->res.waves);
        char pred[32];
        snprintf(pred, sizeof pred, "%.1f%%", 100.0 * r->model.resident_blocks_per_sm *
                                                  r->model.warps_per_block / m->max_warps);
        fprintf(f, "  occupancy               %-19s %.1f%% achieved (time-weighted active warps)\n", pred,
               100.0 * r->res.achieved_occupancy);
        if (m->ncu >= 0)
            fprintf(f, "  Nsight Compute                              %.1f%% (%s)\n", m->ncu, NCU_METRIC);
        else if (m->ncu_asked)
            fprintf(f, "  Nsight Compute          (ncu not found, or it gave no value)\n");
        fprintf(f, "  SMs used                                    %d; %zu of %zu blocks recorded complete\n",
               r->res.sms, r->res.complete, r->res.blocks);
        fprintf(f, "  time at k resident      ");
        for (int i = 1; i <= r->res.max_resident; i++)
            fprintf(f, "%s%d: %.0f%%", i > 1 ? ", " : "", i, 100 * r->res.time_at[i]);
        fprintf(f, "\n");
    }
}

/* The sweep's launches side by side (pool.h): worker w measures on devs[w]
 * (devs[0] the caller's device, the others simulators of its arch opened
 * when first needed), and the rows are written in order on the calling
 * thread, so the file is the same with any number of threads. */
typedef struct {
    MeasureResult r;
    SimStatus st;
    SimError e;
} SweepSlot;

typedef struct {
    const OccMeasureOpts *o;
    SweepRow *rows;
    SweepSlot *slots;
    size_t window;
    Device **devs;
    MeasureKernel **kerns;
    FILE *f, *log;
    const char *name;
    Device *d;
    OccSweepSummary *s;
    SimError *e;
    int done;
    size_t total;
} Sweep;

static int sweep_work(void *user, size_t i, int w)
{
    Sweep *x = user;
    SweepSlot *sl = &x->slots[i % x->window];
    memset(sl, 0, sizeof *sl);
    sim_error_clear(&sl->e);
    if (!x->kerns[w]) {
        x->devs[w] = device_open_sim(device_arch(x->d), &sl->e);
        if (!x->devs[w] || (sl->st = measure_kernel_load(x->devs[w], x->o->regs, x->o->smem_static, &x->kerns[w],
                                                          &sl->e))) {
            sl->st = sl->e.status ? sl->e.status : SIM_ERR_NOMEM;
            return 0;
        }
    }
    MeasureConfig c;
    measure_config_init(&c);
    c.block_size = x->rows[i].block;
    c.smem_dynamic = (size_t)x->rows[i].smem_dyn;
    c.carveout = x->rows[i].carveout;
    c.grid = x->o->grid;
    c.wait_ns = (uint64_t)(x->o->wait_us * 1000);
    sl->st = measure_run(x->kerns[w], &c, &sl->r, &sl->e);
    return 0;
}

static int sweep_fold(void *user, size_t i, int rc)
{
    (void)rc;
    Sweep *x = user;
    SweepSlot *sl = &x->slots[i % x->window];
    SweepRow *rows = x->rows;
    FILE *f = x->f;
    int stop = 0;
    if (sl->st) {
        *x->e = sl->e;
        fprintf(x->log, "warpsim occupancy --sweep-carveout: block %d, dyn %ld, carveout %d: %s\n", rows[i].block,
                rows[i].smem_dyn, rows[i].carveout, sl->e.msg);
        x->s->failed = true;
        stop = sl->e.status != SIM_ERR_USAGE; /* a launch that cannot run is skipped */
    } else {
        MeasureResult *r = &sl->r;
        if (!x->done) { /* the header, once the first launch told the SM count */
            fprintf(f, "{\"device\": ");
            report_json_string(f, x->name);
            fprintf(f, ", \"arch\": \"%s\", \"backend\": \"%s\", \"sm_count\": %d, \"wait_ns\": %llu,\n"
                       " \"configs\": [\n", device_arch(x->d), x->o->sim ? "simulator" : "gpu", r->sm_count,
                    (unsigned long long)r->wait_ns);
        }
        rows[i].regs = r->regs;
        rows[i].smem_static = (long)r->smem_static;
        rows[i].api = r->api_blocks_per_sm;
        rows[i].measured = r->res.steady_resident;
        rows[i].waves = r->res.waves;
        rows[i].achieved = r->res.achieved_occupancy;
        fprintf(f, "%s  ", x->done ? ",\n" : "");
        measure_sweep_row_json(f, &rows[i]);
        rows[x->done++] = rows[i];
    }
    measure_result_free(&sl->r);
    if (!stop && x->o->progress && x->o->progress(x->o->progress_user, i + 1, x->total))
        stop = 1;
    return stop;
}

SimStatus occ_measure_sweep(Device *d, const char *name, const OccMeasureOpts *o, FILE *f, FILE *log,
                            OccSweepSummary *s, SimError *e)
{
    memset(s, 0, sizeof *s);
    int n = measure_sweep_configs(o->tiny, NULL);
    s->configs = n;
    SweepRow *rows = calloc((size_t)n, sizeof *rows);
    if (!rows)
        return sim_error_set(e, SIM_ERR_NOMEM, NULL, 0, 0, "out of memory");
    measure_sweep_configs(o->tiny, rows);
    MeasureKernel *k = NULL;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    SimStatus st = measure_kernel_load(d, o->regs, o->smem_static, &k, e);
    if (st != SIM_OK) {
        free(rows);
        return st;
    }
    int threads = o->sim && o->threads > 1 ? o->threads : 1; /* a GPU measures one launch at a time */
    Sweep x = {.o = o, .rows = rows, .window = pool_window(threads), .f = f, .log = log, .name = name, .d = d,
               .s = s, .e = e};
    x.slots = calloc(x.window, sizeof *x.slots);
    x.devs = calloc((size_t)threads, sizeof *x.devs);
    x.kerns = calloc((size_t)threads, sizeof *x.kerns);
    if (!x.slots || !x.devs || !x.kerns) {
        free(x.slots);
        free(x.devs);
        free(x.kerns);
        measure_kernel_free(k);
        free(rows);
        return sim_error_set(e, SIM_ERR_NOMEM, NULL, 0, 0, "out of memory");
    }
    x.devs[0] = d;
    x.kerns[0] = k;
    x.total = (size_t)n;
    pool_run(threads, (size_t)n, x.window, sweep_work, sweep_fold, &x);
    for (size_t i = 0; i < x.window; i++)
        measure_result_free(&x.slots[i].r); /* launches started after the sweep ended */
    for (int w = 1; w < threads; w++) {
        measure_kernel_free(x.kerns[w]);
        device_close(x.devs[w]);
    }
    free(x.slots);
    free(x.devs);
    free(x.kerns);
    int done = x.done;
    fprintf(f, done ? "\n ]}\n" : "{\"configs\": []}\n");
    clock_gettime(CLOCK_MONOTONIC, &t1);
    s->seconds = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
    s->measured = done;
    const ArchProfile *a = arch_find(device_arch(d));
    if (a) {
        measure_sweep_score(a, rows, done, &s->score, NULL);
        s->scored = true;
    }
    measure_kernel_free(k);
    free(rows);
    return SIM_OK;
}

void occ_measure_report_sweep(FILE *f, const OccSweepSummary *s, const char *device, const char *arch,
                              const char *path)
{
    fprintf(f, "%d of %d configurations measured on %s (%s) in %.1f s; written to %s\n", s->measured, s->configs,
            device, arch, s->seconds, path);
    if (s->scored)
        fprintf(f, "occupancy API = measured: %d of %d; model resident_blocks_per_sm = measured: %d of %d; "
                   "model = API: %d of %d\n", s->score.api_vs_measured, s->score.rows, s->score.model_vs_measured,
                s->score.rows, s->score.model_vs_api, s->score.rows);
}

SimStatus occ_measure_analyze(const char *path, const char *arch, FILE *out, SimError *e)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return sim_error_set(e, SIM_ERR_IO, path, 0, 0, "cannot read %s", path);
    char *line = NULL, file_arch[16] = "";
    size_t cap = 0;
    int n = 0, rcap = 0;
    SweepRow *rows = NULL;
    while (getline(&line, &cap, f) >= 0) {
        const char *p = strstr(line, "\"arch\": \"");
        if (p && !file_arch[0])
            sscanf(p + 9, "%15[^\"]", file_arch);
        SweepRow r;
        if (!measure_sweep_row_parse(line, &r))
            continue;
        if (n == rcap) {
            rcap = rcap ? 2 * rcap : 512;
            SweepRow *nr = realloc(rows, sizeof *rows * (size_t)rcap);
            if (!nr)
                break;
            rows = nr;
        }
        rows[n++] = r;
    }
    free(line);
    fclose(f);
    const ArchProfile *a = arch_find(arch ? arch : file_arch[0] ? file_arch : "sm_90");
    if (!a || !n) {
        free(rows);
        return sim_error_set(e, SIM_ERR_USAGE, path, 0, 0, "%s: %s", path,
                             !a ? "unknown arch" : "no configurations found");
    }
    SweepScore s;
    fprintf(out, "%s: %d configurations on %s; rows where the model's resident_blocks_per_sm misses:\n", path, n,
            a->name);
    measure_sweep_score(a, rows, n, &s, out);
    fprintf(out, "\noccupancy API predicts the measured residency:           %d of %d\n", s.api_vs_measured, s.rows);
    fprintf(out, "model resident_blocks_per_sm predicts it:                %d of %d\n", s.model_vs_measured, s.rows);
    fprintf(out, "all shared memory (carveout ignored) predicts it:        %d of %d\n", s.max_shared_vs_measured,
            s.rows);
    fprintf(out, "model blocks_per_sm = occupancy API:                     %d of %d\n", s.model_vs_api, s.rows);
    fprintf(out, "measured above the API: %d; below it: %d\n", s.measured_above_api, s.measured_below_api);
    free(rows);
    return SIM_OK;
}

int occ_measure_run(const OccMeasureOpts *o, bool json, FILE *sweep, const char *sweep_path, FILE *out, FILE *err)
{
    char name[128], note[160];
    SimError e;
    sim_error_clear(&e);
    Device *d = occ_measure_open(o, name, sizeof name, note, sizeof note, &e);
    if (!d || note[0])
        fprintf(err, "warpsim occupancy: %s\n", d ? note : e.msg);
    if (!d)
        return 2; /* no GPU is missing hardware: 2, as for every command */
    int rc;
    if (!sweep) {
        OccMeasurement r;
        if (occ_measure_one(d, name, o, &r, &e) == SIM_OK)
            occ_measure_report(out, json, &r);
        else
            fprintf(err, "warpsim occupancy --measure: %s\n", e.msg);
        rc = e.status == SIM_OK ? 0 : e.status == SIM_ERR_USAGE ? 2 : 1;
        occ_measure_free(&r);
    } else {
        OccSweepSummary s;
        SimStatus st = occ_measure_sweep(d, name, o, sweep, err, &s, &e);
        if (st == SIM_OK)
            occ_measure_report_sweep(out, &s, name, device_arch(d), sweep_path);
        else
            fprintf(err, "warpsim occupancy --sweep-carveout: %s\n", e.msg);
        rc = st != SIM_OK || s.failed;
    }
    device_close(d);
    return rc;
}
