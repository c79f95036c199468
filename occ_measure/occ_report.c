/* occ_report.c: the occupancy model's answer for one launch as `warpsim
 * occupancy` shows it -- a summary in text, one JSON object, the three
 * graphs of NVIDIA's occupancy calculator as a PNG (viz/plot.h), and the
 * JSON-lines batch mode.  The arithmetic is sim/occupancy.h's; this file
 * only lays it out, on the FILE it is given. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "carveout.h"
#include "occ_measure.h"
#include "plot.h"
#include "report.h"

void occ_report_config(OccReport *rep, int block, int regs, size_t smem_static, size_t smem_dyn, int carveout,
                       int barriers)
{
    OccConfig *c = &rep->config;
    occ_config_init(c);
    c->block_size = block;
    c->regs_per_thread = rep->ptx_path ? rep->ptxas.regs : regs;
    c->smem_static = rep->ptx_path ? (size_t)rep->ptxas.smem : smem_static;
    c->smem_dynamic = smem_dyn;
    c->carveout = carveout;
    /* The runtime counts one barrier per kernel; a kernel with more named
     * barriers (ptxas "used N barriers") takes N. */
    c->barriers = barriers >= 0 ? barriers : rep->ptx_path && rep->ptxas.barriers > 1 ? rep->ptxas.barriers : 1;
}

bool occ_report_launchable(const ArchProfile *a, long long block, long long regs, long long barriers,
                           long long smem_dyn, char *why, size_t cap)
{
    if (block < 1 || block > a->max_threads_per_block)
        snprintf(why, cap, "--block %lld: a block has 1..%d threads", block, a->max_threads_per_block);
    else if (regs > a->max_regs_per_thread)
        snprintf(why, cap, "--regs %lld: a thread has at most %d registers (ptxas spills the rest)", regs,
                 a->max_regs_per_thread);
    else if (barriers > 16)
        snprintf(why, cap, "--barriers %lld: a block has at most 16 barriers (bar.sync 0..15)", barriers);
    else if (smem_dyn > a->smem_per_block_optin)
        snprintf(why, cap, "--smem-dyn %lld: a block has at most %d bytes (%d KB) of shared memory on %s", smem_dyn,
                 a->smem_per_block_optin, a->smem_per_block_optin / 1024, a->name);
    else
        return true;
    return false;
}

SimStatus occ_report_show(const OccReport *rep, bool json, bool explain, const char *plot, FILE *out, FILE *note,
                          SimError *err)
{
    (json ? occ_report_json : occ_report_text)(out, rep);
    if (rep->result.blocks_per_sm == 0)
        return sim_error_set(err, SIM_ERR_USAGE, NULL, 0, 0,
                             "this launch cannot run: not one block fits on an SM (see the limits above)");
    if (explain)
        occ_report_explain(note, rep);
    if (!plot)
        return SIM_OK;
    if (occ_report_plot(plot, rep, err) != SIM_OK) {
        if (err->status != SIM_ERR_NOMEM) {
            char m[sizeof err->msg];
            snprintf(m, sizeof m, "%s", err->msg);
            snprintf(err->msg, sizeof err->msg, "%s: %.*s", plot, (int)(sizeof err->msg / 2), m);
        }
        return err->status;
    }
    fprintf(note, "\nplot written to %s\n", plot);
    return SIM_OK;
}

SimStatus occ_report_compute(OccReport *rep, int cluster, bool nonportable, SimError *err)
{
    const ArchTarget *t = &rep->target;
    rep->has_cluster = false;
    SimStatus st = occ_compute(t->arch, &rep->config, &rep->result, err);
    if (st == SIM_OK)
        st = occ_max_potential_block_size(t->arch, t->sm_count, &rep->config, NULL, NULL, 0, &rep->best, err);
    if (st == SIM_OK && cluster > 0) {
        st = occ_cluster(t->arch, t->sm_count, &rep->config, cluster, nonportable, &rep->cluster, err);
        rep->has_cluster = st == SIM_OK;
    }
    return st;
}

void occ_report_explain(FILE *f, const OccReport *rep)
{
    size_t need = occ_explain(&rep->target, &rep->config, &rep->result, NULL, 0) + 1;
    char *text = malloc(need);
    if (text) {
        occ_explain(&rep->target, &rep->config, &rep->result, text, need);
        fprintf(f, "\n%s", text);
        free(text);
    }
}

static void json_limit(FILE *f, const char *name, int v, bool last)
{
    if (v == OCC_UNLIMITED)
        fprintf(f, "\"%s\": null%s", name, last ? "" : ", ");
    else
        fprintf(f, "\"%s\": %d%s", name, v, last ? "" : ", ");
}

void occ_report_json(FILE *f, const OccReport *rep)
{
    const ArchTarget *t = &rep->target;
    const OccConfig *c = &rep->config;
    const OccResult *r = &rep->result;
    const PtxasInfo *px = rep->ptx_path ? &rep->ptxas : NULL;
    const OccBlockSizeResult *best = &rep->best;
    const OccCluster *cl = rep->has_cluster ? &rep->cluster : NULL;
    char core[512];
    occ_json_fields(core, sizeof core, r);
    fprintf(f, "{\n  %s,\n", core);
    fprintf(f, "  \"arch\": \"%s\", \"gpu\": \"%s\", \"sm_count\": %d,\n", t->arch->name,
           t->part ? t->part->name : "", t->sm_count);
    fprintf(f, "  \"block\": %d, \"regs\": %d, \"smem_static\": %zu, \"smem_dyn\": %zu, "
           "\"carveout\": %d, \"barriers\": %d,\n", c->block_size, c->regs_per_thread,
           c->smem_static, c->smem_dynamic, c->carveout, c->barriers);
    if (px) {
        fprintf(f, "  \"kernel\": ");
        report_json_string(f, px->name);
        fprintf(f, ", \"ptx\": ");
        report_json_string(f, rep->ptx_path);
        fprintf(f, ", \"stack_frame\": %lld, \"spill_stores\": %lld, \"spill_loads\": %lld,\n",
               px->stack, px->spill_stores, px->spill_loads);
    }
    fprintf(f, "  \"warps_per_block\": %d, \"max_warps_per_sm\": %d, \"threads_per_sm\": %d,\n",
           r->warps_per_block, t->arch->max_warps_per_sm, r->threads_per_sm);
    fprintf(f, "  \"limits\": {");
    json_limit(f, "warps", r->limit_warps, false);
    json_limit(f, "registers", r->limit_regs, false);
    json_limit(f, "shared_memory", r->limit_smem, false);
    json_limit(f, "blocks", r->limit_blocks, false);
    json_limit(f, "barriers", r->limit_barriers, true);
    fprintf(f, "},\n");
    fprintf(f, "  \"regs_per_warp\": %d, \"regs_per_block\": %d,\n", r->regs_per_warp, r->regs_per_block);
    fprintf(f, "  \"smem_per_block\": %zu, \"smem_reserved\": %zu, \"smem_block_ceiling\": %zu, "
           "\"smem_preferred\": %zu, \"unified_cache\": %d,\n", r->smem_per_block,
           r->smem_reserved, r->smem_block_ceiling, r->smem_preferred, t->arch->unified_cache);
    fprintf(f, "  \"best_block_size\": %d, \"best_min_grid_size\": %d", best->block_size,
           best->min_grid_size);
    if (cl)
        fprintf(f, ",\n  \"cluster\": {\"size\": %d, \"max_size\": %d, \"blocks_per_sm\": %d, "
               "\"clusters_upper_bound\": %d, \"gpcs\": %d, \"max_active_clusters\": %d, "
               "\"cluster_limits\": %s}", cl->cluster_size, cl->max_cluster_size,
               cl->blocks_per_sm, cl->clusters_upper_bound, cl->gpcs, cl->max_active_clusters,
               cl->cluster_limits ? "true" : "false");
    fprintf(f, "\n}\n");
}

static const char *kb(size_t b, char *buf, size_t cap)
{
    if (b % 1024 == 0)
        snprintf(buf, cap, "%zu KB", b / 1024);
    else
        snprintf(buf, cap, "%zu B", b);
    return buf;
}

void occ_report_text(FILE *f, const OccReport *rep)
{
    const ArchTarget *t = &rep->target;
    const OccConfig *c = &rep->config;
    const OccResult *r = &rep->result;
    const PtxasInfo *px = rep->ptx_path ? &rep->ptxas : NULL;
    const OccBlockSizeResult *best = &rep->best;
    const OccCluster *cl = rep->has_cluster ? &rep->cluster : NULL;
    const ArchProfile *a = t->arch;
    char lim[128], b1[32], b2[32], b3[32], co[16];
    fprintf(f, "%s (%s", a->name, a->family);
    if (t->part)
        fprintf(f, ", %s: %d SMs", t->part->name, t->sm_count);
    fprintf(f, ")\n");
    if (px)
        fprintf(f, "kernel %s: %d registers, %lld bytes static smem, %d barriers (ptxas)%s\n",
               px->name, px->regs, px->smem, px->barriers,
               px->spill_stores || px->spill_loads ? "" : ", no spills");
    if (px && (px->spill_stores || px->spill_loads))
        fprintf(f, "  spills: %lld bytes stored, %lld bytes loaded per thread (local memory)\n",
               px->spill_stores, px->spill_loads);
    fprintf(f, "launch: %d threads/block, %d registers/thread, %zu + %zu bytes shared memory, "
           "carveout %s\n\n", c->block_size, c->regs_per_thread, c->smem_static, c->smem_dynamic,
           carveout_format(c->carveout, co, sizeof co));
    occ_limiters_format(r->limiters, lim, sizeof lim);
    fprintf(f, "  blocks per SM       %d   (limited by %s)\n", r->blocks_per_sm, lim);
    fprintf(f, "  warps per SM        %d of %d\n", r->warps_per_sm, a->max_warps_per_sm);
    fprintf(f, "  occupancy           %.1f%%\n", 100.0 * r->occupancy);
    fprintf(f, "  limits (blocks/SM)  warps %d, registers ", r->limit_warps);
    r->limit_regs == OCC_UNLIMITED ? fprintf(f, "-") : fprintf(f, "%d", r->limit_regs);
    fprintf(f, ", shared memory ");
    r->limit_smem == OCC_UNLIMITED ? fprintf(f, "-") : fprintf(f, "%d", r->limit_smem);
    fprintf(f, ", blocks %d", r->limit_blocks);
    if (r->limit_barriers != OCC_UNLIMITED)
        fprintf(f, ", barriers %d", r->limit_barriers);
    fprintf(f, "\n  registers           %d per warp, %d per block\n", r->regs_per_warp, r->regs_per_block);
    fprintf(f, "  shared memory       %zu B per block (incl. %zu B reserve), ceiling %zu B\n",
           r->smem_per_block, r->smem_reserved, r->smem_block_ceiling);
    fprintf(f, "  carveout            shared %s + L1 %s of %s\n", kb(r->smem_capacity, b1, sizeof b1),
           kb(r->l1_capacity, b2, sizeof b2), kb((size_t)a->unified_cache, b3, sizeof b3));
    fprintf(f, "  resident (hardware) %d blocks per SM (%s)\n", r->resident_blocks_per_sm,
           r->resident_blocks_per_sm == r->blocks_per_sm
               ? "as the API; the driver may keep more, --measure shows it on a GPU"
               : "more than the API: no shared memory, so the per-block reserve does not bind");
    fprintf(f, "  best block size     %d threads, min grid %d "
           "(cudaOccupancyMaxPotentialBlockSize)\n", best->block_size, best->min_grid_size);
    if (cl) {
        fprintf(f, "  clusters of %d       at most %d co-resident (%d blocks/SM; GPC packing can "
               "lower it)\n", cl->cluster_size, cl->clusters_upper_bound, cl->blocks_per_sm);
        fprintf(f, "  max active clusters %d (cudaOccupancyMaxActiveClusters' idea: a cluster fits in one of "
               "%d GPCs, %d blocks/SM each)\n", cl->max_active_clusters, cl->gpcs, cl->blocks_per_sm);
        if (cl->cluster_limits)
            fprintf(f, "  limiter             the cluster, not the SM: %d clusters x %d = %d blocks resident, "
                   "where the SMs alone hold %d x %d = %d (%s)\n", cl->max_active_clusters,
                   cl->cluster_size, cl->max_active_clusters * cl->cluster_size, t->sm_count, r->blocks_per_sm,
                   t->sm_count * r->blocks_per_sm,
                   cl->blocks_per_sm < r->blocks_per_sm ? "a cluster launch uses at most 8 blocks per SM"
                                                        : "a GPC's SMs do not divide into whole clusters");
        else
            fprintf(f, "  limiter             the SM: whole clusters fill every GPC\n");
    }
}

/* ---------------------------------------------------------------- plot */

SimStatus occ_report_plot(const char *path, const OccReport *rep, SimError *err)
{
    const ArchTarget *t = &rep->target;
    const OccConfig *base = &rep->config;
    const OccResult *r = &rep->result;
    const char *kernel = rep->ptx_path ? rep->ptxas.name : NULL;
    const ArchProfile *a = t->arch;
    enum { NB = 1024, NR = 256 };
    int ns = a->smem_per_block_optin / a->smem_alloc_unit + 1;
    double *buf = malloc(sizeof(double) * 2 * (NB + NR + (size_t)ns));
    if (!buf)
        return sim_error_set(err, SIM_ERR_NOMEM, path, 0, 0, "out of memory");
    double *bx = buf, *by = bx + NB, *rx = by + NB, *ry = rx + NR, *sx = ry + NR, *sy = sx + ns;
    OccConfig c;
    OccResult q;
    for (int i = 0; i < NB; i++) {
        c = *base;
        c.block_size = i + 1;
        bx[i] = i + 1;
        by[i] = occ_compute(a, &c, &q, NULL) == SIM_OK ? q.warps_per_sm : 0;
    }
    for (int i = 0; i < NR; i++) {
        c = *base;
        c.regs_per_thread = i;
        rx[i] = i;
        ry[i] = occ_compute(a, &c, &q, NULL) == SIM_OK ? q.warps_per_sm : 0;
    }
    size_t used = base->smem_static + base->smem_dynamic;
    for (int i = 0; i < ns; i++) {
        size_t x = (size_t)i * (size_t)a->smem_alloc_unit;
        c = *base;
        c.smem_static = base->smem_static < x ? base->smem_static : x;
        c.smem_dynamic = x - c.smem_static;
        sx[i] = (double)x;
        sy[i] = occ_compute(a, &c, &q, NULL) == SIM_OK ? q.warps_per_sm : 0;
    }
    double ymax = a->max_warps_per_sm, ytick = ymax / 8;
    char m1[64], m2[64], m3[64];
    snprintf(m1, sizeof m1, "%d threads: %d warps", base->block_size, r->warps_per_sm);
    snprintf(m2, sizeof m2, "%d registers: %d warps", base->regs_per_thread, r->warps_per_sm);
    snprintf(m3, sizeof m3, "%zu bytes: %d warps", used, r->warps_per_sm);
    double smax = ns > 1 ? sx[ns - 1] : 1;
    VizChart ch[3] = {
        {"Impact of varying block size", "threads per block", "active warps per SM", bx, by, NB,
         0, 1024, 0, ymax, 128, ytick, base->block_size > 1024 ? 1024 : base->block_size,
         r->warps_per_sm, m1},
        {"Impact of varying register count per thread", "registers per thread",
         "active warps per SM", rx, ry, NR, 0, 256, 0, ymax, 32, ytick,
         base->regs_per_thread > 255 ? 255 : base->regs_per_thread, r->warps_per_sm, m2},
        {"Impact of varying shared memory per block", "shared memory per block (bytes)",
         "active warps per SM", sx, sy, ns, 0, smax, 0, ymax, smax > 128 * 1024 ? 32768 : 16384,
         ytick, (double)used > smax ? smax : (double)used, r->warps_per_sm, m3},
    };
    char l[8][160], lim[128], b1[32], b2[32], b3[32], co[16];
    snprintf(l[0], sizeof l[0], "%s (%s)%s%s%s", a->name, a->family, t->part ? ", " : "",
             t->part ? t->part->product : "", "");
    snprintf(l[1], sizeof l[1], "block %d threads, %d registers per thread", base->block_size,
             base->regs_per_thread);
    snprintf(l[2], sizeof l[2], "shared memory %zu static + %zu dynamic bytes, carveout %s",
             base->smem_static, base->smem_dynamic, carveout_format(base->carveout, co, sizeof co));
    snprintf(l[3], sizeof l[3], "%d block%s per SM, %d of %d warps: occupancy %.1f%%",
             r->blocks_per_sm, r->blocks_per_sm == 1 ? "" : "s", r->warps_per_sm, a->max_warps_per_sm, 100.0 * r->occupancy);
    snprintf(l[4], sizeof l[4], "limited by: %s", occ_limiters_format(r->limiters, lim, sizeof lim));
    snprintf(l[5], sizeof l[5], "unified cache %s: shared %s, L1 %s", kb((size_t)a->unified_cache, b3, sizeof b3),
             kb(r->smem_capacity, b1, sizeof b1), kb(r->l1_capacity, b2, sizeof b2));
    snprintf(l[6], sizeof l[6], "red: this launch; blue: change one thing, keep the rest");
    snprintf(l[7], sizeof l[7], "warpsim occupancy (= cudaOccupancyMaxActiveBlocksPerMultiprocessor)");
    const char *lines[8] = {l[0], l[1], l[2], l[3], l[4], l[5], l[6], l[7]};
    char title[320];
    snprintf(title, sizeof title, "Occupancy of %.200s on %s", kernel ? kernel : "the kernel", a->name);
    SimStatus st = viz_plot_charts(path, title, ch, 3, lines, 8, 1600, 1100, NULL, err);
    free(buf);
    return st;
}

/* ---------------------------------------------------------------- batch */

static void batch_error(FILE *out, long lineno, const char *msg)
{
    fprintf(out, "{\"error\": ");
    char m[300];
    snprintf(m, sizeof m, "line %ld: %s", lineno, msg);
    report_json_string(out, m);
    fprintf(out, "}\n");
}

void occ_report_batch(FILE *in, FILE *out)
{
    char *line = NULL;
    size_t cap = 0;
    long lineno = 0;
    while (getline(&line, &cap, in) >= 0) {
        lineno++;
        const char *s = line;
        while (*s == ' ' || *s == '\t' || *s == '\r' || *s == '\n')
            s++;
        if (!*s)
            continue;   /* blank lines get no answer */
        OccConfig c;
        ArchTarget t;
        char err[200];
        if (!occ_batch_parse(line, &c, &t, err, sizeof err)) {
            batch_error(out, lineno, err);
            continue;
        }
        OccResult r;
        SimError e;
        sim_error_clear(&e);
        if (occ_compute(t.arch, &c, &r, &e) != SIM_OK) {
            batch_error(out, lineno, e.msg);
            continue;
        }
        char core[512];
        occ_json_fields(core, sizeof core, &r);
        fputc('{', out);
        fputs(core, out);
        fputs("}\n", out);
    }
    free(line);
    fflush(out);
}
