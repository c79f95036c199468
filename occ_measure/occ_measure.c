/* occ_measure.c: `warpsim occupancy --measure`, `--sweep-carveout FILE` and
 * `--analyze-sweep FILE` (occ_measure.h): open the GPU (or the simulator),
 * run the synthetic kernel through gpu/measure.h, print predicted beside
 * measured, text or JSON.  Nsight Compute, when asked for and on PATH,
 * re-runs the same command under ncu for sm__warps_active. */
#include "occ_measure.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "carveout.h"
#include "gpu.h"
#include "measure.h"
#include "report.h"

#define NCU_METRIC "sm__warps_active.avg.pct_of_peak_sustained_active"

static Device *open_device(const OccMeasureOpts *o, char *name, size_t cap)
{
    SimError e;
    sim_error_clear(&e);
    Device *d;
    if (o->sim) {
        d = device_open_sim(o->arch ? o->arch : "sm_90", &e);
        snprintf(name, cap, "warpsim simulator");
    } else {
        d = device_open_gpu(0, &e);
        char drv[64];
        int cuda;
        if (d && gpu_device_info(d, name, cap, drv, sizeof drv, &cuda, &e))
            snprintf(name, cap, "GPU");
    }
    if (!d)
        fprintf(stderr, "warpsim occupancy: %s\n", e.msg);
    else if (o->arch && !o->sim && strcmp(o->arch, device_arch(d)))
        fprintf(stderr, "warpsim occupancy: note: measuring on the GPU there is (%s), not %s\n",
                device_arch(d), o->arch);
    return d;
}

/* Run this very command again under ncu (time-bounded) and read the metric;
 * -1 when ncu is absent or gives nothing. */
static double run_ncu(const OccMeasureOpts *o)
{
    if (system("command -v ncu >/dev/null 2>&1") != 0)
        return -1;
    char log[] = "/tmp/warpsim-ncu-XXXXXX";
    int fd = mkstemp(log);
    if (fd < 0)
        return -1;
    close(fd);
    char self[512];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n <= 0)
        return -1;
    self[n] = 0;
    size_t cap = 4096, len = 0;
    char *cmd = malloc(cap);
    if (!cmd)
        return -1;
    len += (size_t)snprintf(cmd, cap, "timeout 120 ncu --metrics %s --csv -k regex:__warpsim_synth -c 1 "
                                      "--log-file %s '%s' occupancy", NCU_METRIC, log, self);
    for (int i = 1; i < o->argc && len < cap - 300; i++)
        if (strcmp(o->argv[i], "--ncu") && !strchr(o->argv[i], '\''))
            len += (size_t)snprintf(cmd + len, cap - len, " '%s'", o->argv[i]);
    snprintf(cmd + len, cap - len, " >/dev/null 2>&1");
    int rc = system(cmd);
    free(cmd);
    double v = -1;
    FILE *f = fopen(log, "r");
    char line[1024];
    while (rc == 0 && f && fgets(line, sizeof line, f))
        if (strstr(line, NCU_METRIC)) { /* ...,"Metric Value" last, quoted */
            char *q = strrchr(line, '"');
            if (q) {
                *q = 0;
                char *p = strrchr(line, '"');
                if (p)
                    v = strtod(p + 1, NULL);
            }
        }
    if (f)
        fclose(f);
    unlink(log);
    return v;
}

static int predicted_waves(unsigned grid, int per_sm, int sms)
{
    long long slots = (long long)per_sm * sms;
    return slots > 0 ? (int)((grid + slots - 1) / slots) : 0;
}

int occ_measure_one(const OccMeasureOpts *o)
{
    char name[128];
    Device *d = open_device(o, name, sizeof name);
    if (!d)
        return 1;
    SimError e;
    sim_error_clear(&e);
    MeasureKernel *k = NULL;
    MeasureResult r;
    memset(&r, 0, sizeof r);
    MeasureConfig c;
    measure_config_init(&c);
    c.block_size = o->block;
    c.smem_dynamic = o->smem_dyn;
    c.carveout = o->carveout;
    c.grid = o->grid;
    c.wait_ns = (uint64_t)(o->wait_us * 1000);
    int rc = 0;
    if (measure_kernel_load(d, o->regs, o->smem_static, &k, &e) || measure_run(k, &c, &r, &e)) {
        fprintf(stderr, "warpsim occupancy --measure: %s\n", e.msg);
        rc = e.status == SIM_ERR_USAGE ? 2 : 1;
        goto done;
    }
    double ncu = o->ncu ? run_ncu(o) : -1;
    int pw = predicted_waves(r.grid, r.model.resident_blocks_per_sm, r.sm_count);
    const ArchProfile *a = arch_find(device_arch(d));
    int maxw = a ? a->max_warps_per_sm : 64;
    char co[16];
    if (o->json) {
        printf("{\n  \"device\": ");
        report_json_string(stdout, name);
        printf(", \"arch\": \"%s\", \"backend\": \"%s\", \"sm_count\": %d,\n", device_arch(d),
               o->sim ? "simulator" : "gpu", r.sm_count);
        printf("  \"block\": %d, \"regs\": %d, \"smem_static\": %zu, \"smem_dyn\": %zu, \"carveout\": %d, "
               "\"grid\": %u, \"wait_ns\": %llu,\n", r.block_size, r.regs, r.smem_static, r.smem_dynamic,
               r.carveout, r.grid, (unsigned long long)r.wait_ns);
        printf("  \"predicted\": {\"blocks_per_sm\": %d, \"resident_blocks_per_sm\": %d, \"waves\": %d, "
               "\"occupancy\": %.4f, \"smem_capacity\": %zu},\n", r.model.blocks_per_sm,
               r.model.resident_blocks_per_sm, pw, r.model.occupancy, r.model.smem_capacity);
        printf("  \"measured\": {\"api_blocks_per_sm\": %d, \"api_from_model\": %s, "
               "\"resident_blocks_per_sm\": %d, \"max_resident_blocks_per_sm\": %d, "
               "\"min_max_resident_blocks_per_sm\": %d, \"waves\": %d, "
               "\"achieved_occupancy\": %.4f, \"mean_resident_blocks\": %.3f, \"sms_used\": %d, "
               "\"complete_blocks\": %zu, \"seconds\": %.6f, \"ncu_warps_active_pct\": ",
               r.api_blocks_per_sm, r.api_from_model ? "true" : "false", r.res.steady_resident,
               r.res.max_resident, r.res.min_of_max_resident, r.res.waves, r.res.achieved_occupancy, r.res.mean_resident,
               r.res.sms, r.res.complete, r.seconds);
        ncu >= 0 ? printf("%.2f", ncu) : printf("null");
        printf(", \"resident_time_fraction\": [");
        for (int i = 0; i <= r.res.max_resident; i++)
            printf("%s%.4f", i ? ", " : "", r.res.time_at[i]);
        printf("]}\n}\n");
    } else {
        printf("%s: %s, %d SMs%s\n", name, device_arch(d), r.sm_count,
               o->sim ? " (the simulator stands in: no memory latency, so not a GPU's timings)" : "");
        printf("launch: %d threads/block, %d registers, %zu + %zu bytes shared memory, carveout %s;\n"
               "        %u blocks, each waiting %.1f us\n\n", r.block_size, r.regs, r.smem_static,
               r.smem_dynamic, carveout_format(r.carveout, co, sizeof co), r.grid, (double)r.wait_ns / 1000);
        printf("                          predicted (model)   measured\n");
        printf("  blocks per SM           %-19d %d (%s)\n", r.model.blocks_per_sm, r.api_blocks_per_sm,
               r.api_from_model ? "the model: no occupancy API here" : "occupancy API");
        printf("  resident blocks per SM  %-19d %d steady (held >= %.0f%% of the time; brief peak %d)\n",
               r.model.resident_blocks_per_sm, r.res.steady_resident, 100 * RESIDENCY_STEADY_FRACTION,
               r.res.max_resident);
        printf("  waves                   %-19d %d\n", pw, r.res.waves);
        char pred[32];
        snprintf(pred, sizeof pred, "%.1f%%", 100.0 * r.model.resident_blocks_per_sm *
                                                  r.model.warps_per_block / maxw);
        printf("  occupancy               %-19s %.1f%% achieved (time-weighted active warps)\n", pred,
               100.0 * r.res.achieved_occupancy);
        if (ncu >= 0)
            printf("  Nsight Compute                              %.1f%% (%s)\n", ncu, NCU_METRIC);
        else if (o->ncu)
            printf("  Nsight Compute          (ncu not found, or it gave no value)\n");
        printf("  SMs used                                    %d; %zu of %zu blocks recorded complete\n",
               r.res.sms, r.res.complete, r.res.blocks);
        printf("  time at k resident      ");
        for (int i = 1; i <= r.res.max_resident; i++)
            printf("%s%d: %.0f%%", i > 1 ? ", " : "", i, 100 * r.res.time_at[i]);
        printf("\n");
    }
done:
    measure_result_free(&r);
    measure_kernel_free(k);
    device_close(d);
    return rc;
}

int occ_measure_sweep(const OccMeasureOpts *o, const char *path)
{
    int n = measure_sweep_configs(o->tiny, NULL);
    SweepRow *rows = calloc((size_t)n, sizeof *rows);
    FILE *f = rows ? fopen(path, "w") : NULL;
    if (!f) {
        fprintf(stderr, "warpsim occupancy: cannot write %s\n", path);
        free(rows);
        return 2;
    }
    measure_sweep_configs(o->tiny, rows);
    char name[128];
    Device *d = open_device(o, name, sizeof name);
    if (!d) {
        fclose(f);
        free(rows);
        return 1;
    }
    SimError e;
    sim_error_clear(&e);
    MeasureKernel *k = NULL;
    int rc = 0, done = 0;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    if (measure_kernel_load(d, o->regs, o->smem_static, &k, &e)) {
        fprintf(stderr, "warpsim occupancy --sweep-carveout: %s\n", e.msg);
        rc = 1;
        goto out;
    }
    for (int i = 0; i < n; i++) {
        MeasureConfig c;
        measure_config_init(&c);
        c.block_size = rows[i].block;
        c.smem_dynamic = (size_t)rows[i].smem_dyn;
        c.carveout = rows[i].carveout;
        c.grid = o->grid;
        c.wait_ns = (uint64_t)(o->wait_us * 1000);
        MeasureResult r;
        if (measure_run(k, &c, &r, &e)) {
            fprintf(stderr, "warpsim occupancy --sweep-carveout: block %d, dyn %ld, carveout %d: %s\n",
                    rows[i].block, rows[i].smem_dyn, rows[i].carveout, e.msg);
            rc = 1;
            measure_result_free(&r);
            if (e.status == SIM_ERR_USAGE)
                continue; /* a launch that cannot run: skip it */
            break;
        }
        if (!done) { /* the header, once the first launch told the SM count */
            fprintf(f, "{\"device\": ");
            report_json_string(f, name);
            fprintf(f, ", \"arch\": \"%s\", \"backend\": \"%s\", \"sm_count\": %d, \"wait_ns\": %llu,\n"
                       " \"configs\": [\n", device_arch(d), o->sim ? "simulator" : "gpu", r.sm_count,
                    (unsigned long long)r.wait_ns);
        }
        rows[i].regs = r.regs;
        rows[i].smem_static = (long)r.smem_static;
        rows[i].api = r.api_blocks_per_sm;
        rows[i].measured = r.res.steady_resident;
        rows[i].waves = r.res.waves;
        rows[i].achieved = r.res.achieved_occupancy;
        fprintf(f, "%s  ", done ? ",\n" : "");
        measure_sweep_row_json(f, &rows[i]);
        rows[done++] = rows[i];
        measure_result_free(&r);
    }
    fprintf(f, done ? "\n ]}\n" : "{\"configs\": []}\n");
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double secs = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
    printf("%d of %d configurations measured on %s (%s) in %.1f s; written to %s\n", done, n, name,
           device_arch(d), secs, path);
    SweepScore s;
    const ArchProfile *a = arch_find(device_arch(d));
    if (a) {
        measure_sweep_score(a, rows, done, &s, NULL);
        printf("occupancy API = measured: %d of %d; model resident_blocks_per_sm = measured: %d of %d; "
               "model = API: %d of %d\n", s.api_vs_measured, s.rows, s.model_vs_measured, s.rows,
               s.model_vs_api, s.rows);
    }
out:
    fclose(f);
    measure_kernel_free(k);
    device_close(d);
    free(rows);
    return rc;
}

int occ_measure_analyze(const char *path, const char *arch)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "warpsim occupancy: cannot read %s\n", path);
        return 2;
    }
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
        fprintf(stderr, "warpsim occupancy: %s: %s\n", path, !a ? "unknown arch" : "no configurations found");
        free(rows);
        return 2;
    }
    SweepScore s;
    printf("%s: %d configurations on %s; rows where the model's resident_blocks_per_sm misses:\n", path, n,
           a->name);
    measure_sweep_score(a, rows, n, &s, stdout);
    printf("\noccupancy API predicts the measured residency:           %d of %d\n", s.api_vs_measured, s.rows);
    printf("model resident_blocks_per_sm predicts it:                %d of %d\n", s.model_vs_measured, s.rows);
    printf("all shared memory (carveout ignored) predicts it:        %d of %d\n", s.max_shared_vs_measured,
           s.rows);
    printf("model blocks_per_sm = occupancy API:                     %d of %d\n", s.model_vs_api, s.rows);
    printf("measured above the API: %d; below it: %d\n", s.measured_above_api, s.measured_below_api);
    free(rows);
    return 0;
}
