/* cmd_occupancy.c: `warpsim occupancy`, the front end of the occupancy and
 * carveout model (sim/occupancy.h).  One launch from flags (text, --json,
 * --explain, --plot), or many from JSON lines on stdin (--batch).  With
 * --ptx the registers and static shared memory come from ptxas -v, the
 * real compiler.  Lesson 4 (lessons/04-occupancy) is written around it. */
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "arch.h"
#include "carveout.h"
#include "cmd.h"
#include "occ_measure.h"
#include "occupancy.h"
#include "plot.h"
#include "ptxas.h"
#include "report.h"

static const char usage_text[] =
"usage: warpsim occupancy (--arch sm_XX | --gpu NAME) --block N\n"
"                         (--regs R | --ptx FILE --kernel NAME [--maxrregcount R])\n"
"                         [--smem-static B] [--smem-dyn B] [--carveout P] [--barriers N]\n"
"                         [--cluster N [--nonportable-cluster]]\n"
"                         [--json] [--explain] [--plot FILE.png]\n"
"       warpsim occupancy --batch  < launches.jsonl\n"
"       warpsim occupancy --measure --block N --regs R [--smem-static B] [--smem-dyn B]\n"
"                         [--carveout P] [--grid N] [--wait-us U] [--backend gpu|sim]\n"
"                         [--ncu] [--json]\n"
"       warpsim occupancy --sweep-carveout FILE.json [--regs R] [--sweep-tiny]\n"
"                         [--backend gpu|sim] [--wait-us U]\n"
"       warpsim occupancy --analyze-sweep FILE.json [--arch sm_XX]\n"
"\n"
"How many blocks of a kernel can one SM (streaming multiprocessor) run at the\n"
"same time, and why no more?  An SM holds a fixed number of warps (groups of\n"
"32 threads), registers, shared memory and block slots.  Every resident block\n"
"takes its share of each; the scarcest one decides.  Occupancy = warps that\n"
"are resident / the most warps the SM can hold.  More resident warps give the\n"
"scheduler more work to switch to while others wait for memory, which is how\n"
"a GPU hides latency; past a point more occupancy stops helping (lesson 4).\n"
"\n"
"The answer is exactly what cudaOccupancyMaxActiveBlocksPerMultiprocessor\n"
"returns (tested against the CUDA toolkit's own calculation).\n"
"\n"
"The GPU:\n"
"  --arch sm_XX      sm_70 sm_75 sm_80 sm_86 sm_87 sm_89 sm_90 sm_100 sm_103 sm_120\n"
"  --gpu NAME        a named part, e.g. a100, h100-sxm, rtx4090 (gives the SM count)\n"
"The launch and the kernel:\n"
"  --block N         threads per block, the second <<<grid, N>>> number (1..1024)\n"
"  --regs R          registers per thread (ptxas -v: \"Used R registers\")\n"
"  --ptx FILE --kernel NAME\n"
"                    take registers and static shared memory from the real\n"
"                    compiler: runs ptxas -v --gpu-name sm_XX on FILE (needs the\n"
"                    CUDA toolkit); NAME is the kernel's name in the PTX or in C++\n"
"  --maxrregcount R  with --ptx: cap registers per thread, as nvcc --maxrregcount;\n"
"                    what does not fit spills to local memory (shown)\n"
"  --smem-static B   bytes of __shared__ arrays per block (at most 48 KB)\n"
"  --smem-dyn B      bytes of dynamic shared memory, the third <<<>>> number; more\n"
"                    than 48 KB per block needs cudaFuncSetAttribute(kernel,\n"
"                    cudaFuncAttributeMaxDynamicSharedMemorySize, B), assumed done\n"
"                    (sizes take K for KB: 100K)\n"
"  --carveout P      how the SM's unified L1/shared cache is split, a hint set by\n"
"                    cudaFuncAttributePreferredSharedMemoryCarveout: default, maxl1,\n"
"                    maxshared, or P percent of the largest shared-memory size,\n"
"                    rounded up to a size the hardware has (50 -> 64 KB on sm_120)\n"
"  --barriers N      block barriers per block (default 1, as the runtime assumes)\n"
"  --cluster N       thread-block cluster size (sm_90+): bound on co-resident clusters\n"
"Output:\n"
"  (default)         a summary: blocks per SM, occupancy, the limiter(s), carveout\n"
"  --json            one JSON object: blocks_per_sm, warps_per_sm, occupancy (0..1),\n"
"                    limiters, smem_capacity, l1_capacity, resident_blocks_per_sm, ...\n"
"  --explain         every limit in plain sentences, with the arithmetic\n"
"  --plot FILE.png   the three graphs of NVIDIA's occupancy calculator (vary block\n"
"                    size, registers, shared memory), this launch marked in red\n"
"  --batch           read JSON lines from stdin, e.g.\n"
"                    {\"arch\": \"sm_90\", \"block\": 256, \"regs\": 32, \"smem_static\": 0,\n"
"                     \"smem_dyn\": 4096, \"carveout\": -1}\n"
"                    (\"gpu\" may replace \"arch\"; carveout -1 = default, else 0..100;\n"
"                    \"barriers\" optional) and write one JSON line per line, in order;\n"
"                    a bad line gets {\"error\": ...} and the batch goes on\n"
"\n"
"Measured (a GPU, or --backend sim with the simulator standing in):\n"
"  --measure         run a synthetic kernel with exactly these resources (it waits\n"
"                    --wait-us, default 50, per block), instrumented to record each\n"
"                    block's SM, start and end; print predicted (the model) beside\n"
"                    measured: the occupancy API's answer, the most blocks resident\n"
"                    on one SM, waves, achieved occupancy.  --grid N sets the blocks\n"
"                    (default: two waves of the most an SM could ever hold); --ncu\n"
"                    also runs Nsight Compute for sm__warps_active (when on PATH)\n"
"  --sweep-carveout FILE.json\n"
"                    measure 504 launches (blocks 32..1024, dynamic shared memory\n"
"                    0..100 KB, carveouts -1 0 10 25 50 100; --sweep-tiny: 8) and\n"
"                    write each with the API's answer and the measured residency\n"
"  --analyze-sweep FILE.json\n"
"                    score a sweep file: how many configurations the API and the\n"
"                    model's resident_blocks_per_sm predict (no GPU needed)\n"
"\n"
"Limiters: warps (thread slots), registers, shared_memory, blocks (block slots),\n"
"barriers.  Several are named when they tie.\n"
"\n"
"Examples (lesson 4):\n"
"  warpsim occupancy --arch sm_100 --block 768 --regs 16 --explain     # 75%, warps\n"
"  warpsim occupancy --arch sm_100 --block 32 --regs 16                # 50%, blocks\n"
"  warpsim occupancy --gpu h100-sxm --block 256 --ptx lessons/04-occupancy/kernel.ptx \\\n"
"                    --kernel poly_eval --plot occ.png\n"
"\n"
"Exit status: 0 done, 2 bad usage or input (message on stderr).\n";

typedef struct {
    const char *gpu;                /* --arch or --gpu value */
    long long block, regs, smem_static, smem_dyn, barriers, cluster, maxrreg;
    bool have_block, have_regs, have_static;
    int carveout;
    bool nonportable;
    const char *ptx, *kernel, *plot;
    bool json, explain, batch;
    bool measure, ncu, tiny, sim;     /* --measure, --ncu, --sweep-tiny, --backend sim */
    const char *sweep, *analyze;      /* --sweep-carveout FILE, --analyze-sweep FILE */
    long long grid, wait_us;
} Opts;


static int usage_error(const char *fmt, const char *arg)
{
    fprintf(stderr, "warpsim occupancy: ");
    fprintf(stderr, fmt, arg);
    fprintf(stderr, "\n(run `warpsim occupancy --help` for the options)\n");
    return 2;
}

/* A non-negative integer with an optional K / KB suffix (x 1024). */
static bool parse_size(const char *s, long long max, long long *out)
{
    if (!s || !*s || *s == '-')
        return false;
    char *end;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    if (errno || end == s)
        return false;
    if (*end == 'K' || *end == 'k') {
        v *= 1024;
        end++;
        if (*end == 'B' || *end == 'b')
            end++;
    }
    if (*end || v > max)
        return false;
    *out = v;
    return true;
}

/* ---------------------------------------------------------------- output */

static void json_limit(FILE *f, const char *name, int v, bool last)
{
    if (v == OCC_UNLIMITED)
        fprintf(f, "\"%s\": null%s", name, last ? "" : ", ");
    else
        fprintf(f, "\"%s\": %d%s", name, v, last ? "" : ", ");
}

static void print_json(const ArchTarget *t, const Opts *o, const OccConfig *c, const OccResult *r,
                       const PtxasInfo *px, const OccBlockSizeResult *best, const OccCluster *cl)
{
    char core[512];
    occ_json_fields(core, sizeof core, r);
    printf("{\n  %s,\n", core);
    printf("  \"arch\": \"%s\", \"gpu\": \"%s\", \"sm_count\": %d,\n", t->arch->name,
           t->part ? t->part->name : "", t->sm_count);
    printf("  \"block\": %d, \"regs\": %d, \"smem_static\": %zu, \"smem_dyn\": %zu, "
           "\"carveout\": %d, \"barriers\": %d,\n", c->block_size, c->regs_per_thread,
           c->smem_static, c->smem_dynamic, c->carveout, c->barriers);
    if (px) {
        printf("  \"kernel\": ");
        report_json_string(stdout, px->name);
        printf(", \"ptx\": ");
        report_json_string(stdout, o->ptx);
        printf(", \"stack_frame\": %lld, \"spill_stores\": %lld, \"spill_loads\": %lld,\n",
               px->stack, px->spill_stores, px->spill_loads);
    }
    printf("  \"warps_per_block\": %d, \"max_warps_per_sm\": %d, \"threads_per_sm\": %d,\n",
           r->warps_per_block, t->arch->max_warps_per_sm, r->threads_per_sm);
    printf("  \"limits\": {");
    json_limit(stdout, "warps", r->limit_warps, false);
    json_limit(stdout, "registers", r->limit_regs, false);
    json_limit(stdout, "shared_memory", r->limit_smem, false);
    json_limit(stdout, "blocks", r->limit_blocks, false);
    json_limit(stdout, "barriers", r->limit_barriers, true);
    printf("},\n");
    printf("  \"regs_per_warp\": %d, \"regs_per_block\": %d,\n", r->regs_per_warp, r->regs_per_block);
    printf("  \"smem_per_block\": %zu, \"smem_reserved\": %zu, \"smem_block_ceiling\": %zu, "
           "\"smem_preferred\": %zu, \"unified_cache\": %d,\n", r->smem_per_block,
           r->smem_reserved, r->smem_block_ceiling, r->smem_preferred, t->arch->unified_cache);
    printf("  \"best_block_size\": %d, \"best_min_grid_size\": %d", best->block_size,
           best->min_grid_size);
    if (cl)
        printf(",\n  \"cluster\": {\"size\": %d, \"max_size\": %d, \"blocks_per_sm\": %d, "
               "\"clusters_upper_bound\": %d}", cl->cluster_size, cl->max_cluster_size,
               cl->blocks_per_sm, cl->clusters_upper_bound);
    printf("\n}\n");
}

static const char *kb(size_t b, char *buf, size_t cap)
{
    if (b % 1024 == 0)
        snprintf(buf, cap, "%zu KB", b / 1024);
    else
        snprintf(buf, cap, "%zu B", b);
    return buf;
}

static void print_text(const ArchTarget *t, const OccConfig *c, const OccResult *r,
                       const PtxasInfo *px, const OccBlockSizeResult *best, const OccCluster *cl)
{
    const ArchProfile *a = t->arch;
    char lim[128], b1[32], b2[32], b3[32], co[16];
    printf("%s (%s", a->name, a->family);
    if (t->part)
        printf(", %s: %d SMs", t->part->name, t->sm_count);
    printf(")\n");
    if (px)
        printf("kernel %s: %d registers, %lld bytes static smem, %d barriers (ptxas)%s\n",
               px->name, px->regs, px->smem, px->barriers,
               px->spill_stores || px->spill_loads ? "" : ", no spills");
    if (px && (px->spill_stores || px->spill_loads))
        printf("  spills: %lld bytes stored, %lld bytes loaded per thread (local memory)\n",
               px->spill_stores, px->spill_loads);
    printf("launch: %d threads/block, %d registers/thread, %zu + %zu bytes shared memory, "
           "carveout %s\n\n", c->block_size, c->regs_per_thread, c->smem_static, c->smem_dynamic,
           carveout_format(c->carveout, co, sizeof co));
    occ_limiters_format(r->limiters, lim, sizeof lim);
    printf("  blocks per SM       %d   (limited by %s)\n", r->blocks_per_sm, lim);
    printf("  warps per SM        %d of %d\n", r->warps_per_sm, a->max_warps_per_sm);
    printf("  occupancy           %.1f%%\n", 100.0 * r->occupancy);
    printf("  limits (blocks/SM)  warps %d, registers ", r->limit_warps);
    r->limit_regs == OCC_UNLIMITED ? printf("-") : printf("%d", r->limit_regs);
    printf(", shared memory ");
    r->limit_smem == OCC_UNLIMITED ? printf("-") : printf("%d", r->limit_smem);
    printf(", blocks %d", r->limit_blocks);
    if (r->limit_barriers != OCC_UNLIMITED)
        printf(", barriers %d", r->limit_barriers);
    printf("\n  registers           %d per warp, %d per block\n", r->regs_per_warp, r->regs_per_block);
    printf("  shared memory       %zu B per block (incl. %zu B reserve), ceiling %zu B\n",
           r->smem_per_block, r->smem_reserved, r->smem_block_ceiling);
    printf("  carveout            shared %s + L1 %s of %s\n", kb(r->smem_capacity, b1, sizeof b1),
           kb(r->l1_capacity, b2, sizeof b2), kb((size_t)a->unified_cache, b3, sizeof b3));
    printf("  resident (hardware) %d blocks per SM (%s)\n", r->resident_blocks_per_sm,
           r->resident_blocks_per_sm == r->blocks_per_sm
               ? "as the API; the driver may keep more, --measure shows it on a GPU"
               : "more than the API: no shared memory, so the per-block reserve does not bind");
    printf("  best block size     %d threads, min grid %d "
           "(cudaOccupancyMaxPotentialBlockSize)\n", best->block_size, best->min_grid_size);
    if (cl)
        printf("  clusters of %d       at most %d co-resident (%d blocks/SM; GPC packing can "
               "lower it)\n", cl->cluster_size, cl->clusters_upper_bound, cl->blocks_per_sm);
}

/* ---------------------------------------------------------------- plot */

static int plot(const char *path, const ArchTarget *t, const OccConfig *base, const OccResult *r,
                const char *kernel)
{
    const ArchProfile *a = t->arch;
    enum { NB = 1024, NR = 256 };
    int ns = a->smem_per_block_optin / a->smem_alloc_unit + 1;
    double *buf = malloc(sizeof(double) * 2 * (NB + NR + (size_t)ns));
    if (!buf) {
        fprintf(stderr, "warpsim occupancy: out of memory\n");
        return 2;
    }
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
    SimError err;
    sim_error_clear(&err);
    SimStatus st = viz_plot_charts(path, title, ch, 3, lines, 8, 1600, 1100, NULL, &err);
    free(buf);
    if (st != SIM_OK) {
        fprintf(stderr, "warpsim occupancy: %s: %s\n", path, err.msg);
        return 2;
    }
    return 0;
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

static int batch(void)
{
    static char obuf[1 << 16];
    setvbuf(stdout, obuf, _IOFBF, sizeof obuf);
    char *line = NULL;
    size_t cap = 0;
    long lineno = 0;
    while (getline(&line, &cap, stdin) >= 0) {
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
            batch_error(stdout, lineno, err);
            continue;
        }
        OccResult r;
        SimError e;
        sim_error_clear(&e);
        if (occ_compute(t.arch, &c, &r, &e) != SIM_OK) {
            batch_error(stdout, lineno, e.msg);
            continue;
        }
        char core[512];
        occ_json_fields(core, sizeof core, &r);
        fputc('{', stdout);
        fputs(core, stdout);
        fputs("}\n", stdout);
    }
    free(line);
    fflush(stdout);
    return 0;
}

/* ---------------------------------------------------------------- main */

/* "--name value" or "--name=value": *val set and true when argv[*i] is name. */
static bool opt_value(int argc, char **argv, int *i, const char *name, const char **val, int *rc)
{
    size_t n = strlen(name);
    if (strncmp(argv[*i], name, n))
        return false;
    if (argv[*i][n] == '=') {
        *val = argv[*i] + n + 1;
        return true;
    }
    if (argv[*i][n])
        return false;
    if (*i + 1 >= argc) {
        *rc = usage_error("%s needs a value", name);
        *val = NULL;
        return true;
    }
    *val = argv[++*i];
    return true;
}

static int parse_args(int argc, char **argv, Opts *o)
{
    memset(o, 0, sizeof *o);
    o->carveout = CARVEOUT_DEFAULT;
    o->barriers = -1;
    for (int i = 1; i < argc; i++) {
        const char *v = NULL, *a = argv[i];
        int rc = 0;
        if (!strcmp(a, "--json")) o->json = true;
        else if (!strcmp(a, "--explain")) o->explain = true;
        else if (!strcmp(a, "--batch")) o->batch = true;
        else if (!strcmp(a, "--nonportable-cluster")) o->nonportable = true;
        else if (!strcmp(a, "--measure")) o->measure = true;
        else if (!strcmp(a, "--ncu")) o->ncu = true;
        else if (!strcmp(a, "--sweep-tiny")) o->tiny = true;
        else if (opt_value(argc, argv, &i, "--sweep-carveout", &v, &rc)) {
            if (rc) return rc;
            o->sweep = v;
        } else if (opt_value(argc, argv, &i, "--analyze-sweep", &v, &rc)) {
            if (rc) return rc;
            o->analyze = v;
        } else if (opt_value(argc, argv, &i, "--backend", &v, &rc)) {
            if (rc) return rc;
            if (strcmp(v, "gpu") && strcmp(v, "sim"))
                return usage_error("--backend is gpu or sim, not '%s'", v);
            o->sim = !strcmp(v, "sim");
        }
        else if (opt_value(argc, argv, &i, "--arch", &v, &rc) ||
                 opt_value(argc, argv, &i, "--gpu", &v, &rc)) {
            if (rc) return rc;
            o->gpu = v;
        } else if (opt_value(argc, argv, &i, "--ptx", &v, &rc)) {
            if (rc) return rc;
            o->ptx = v;
        } else if (opt_value(argc, argv, &i, "--kernel", &v, &rc)) {
            if (rc) return rc;
            o->kernel = v;
        } else if (opt_value(argc, argv, &i, "--plot", &v, &rc)) {
            if (rc) return rc;
            o->plot = v;
        } else if (opt_value(argc, argv, &i, "--carveout", &v, &rc)) {
            SimError e;
            if (rc) return rc;
            if (carveout_parse(v, &o->carveout, &e) != SIM_OK)
                return usage_error("%s", e.msg);
        } else {
            static const struct { const char *name; long long max; size_t off; bool size; } nums[] = {
                {"--block", 1 << 20, offsetof(Opts, block), false},
                {"--regs", 1 << 20, offsetof(Opts, regs), false},
                {"--smem-static", 1 << 30, offsetof(Opts, smem_static), true},
                {"--smem-dyn", 1 << 30, offsetof(Opts, smem_dyn), true},
                {"--barriers", 1 << 20, offsetof(Opts, barriers), false},
                {"--cluster", 1 << 20, offsetof(Opts, cluster), false},
                {"--maxrregcount", 255, offsetof(Opts, maxrreg), false},
                {"--grid", 1 << 30, offsetof(Opts, grid), false},
                {"--wait-us", 10000000, offsetof(Opts, wait_us), false},
            };
            size_t k = 0;
            while (k < sizeof nums / sizeof *nums && !opt_value(argc, argv, &i, nums[k].name, &v, &rc))
                k++;
            if (k == sizeof nums / sizeof *nums)
                return usage_error("unknown option '%s'", a);
            if (rc)
                return rc;
            long long *dst = (long long *)((char *)o + nums[k].off);
            if (!parse_size(v, nums[k].max, dst) || (!nums[k].size && strpbrk(v, "kK"))) {
                char msg[160];
                snprintf(msg, sizeof msg, "%s '%s' is not a %s", nums[k].name, v,
                         nums[k].size ? "byte count (a number, or K for KB)" : "valid non-negative integer");
                return usage_error("%s", msg);
            }
            if (k == 0) o->have_block = true;
            if (k == 1) o->have_regs = true;
            if (k == 2) o->have_static = true;
        }
    }
    return 0;
}

/* --measure and --sweep-carveout: the resources from the flags (or ptxas). */
static int measure(const Opts *o, int argc, char **argv)
{
    if (o->measure && o->sweep)
        return usage_error("%s", "--measure and --sweep-carveout go one at a time");
    if (o->measure && !o->have_block)
        return usage_error("%s", "give the block size with --block N");
    if (o->measure && (o->block < 1 || o->block > 1024))
        return usage_error("%s", "--block must be 1..1024 to measure");
    if (o->ptx || o->cluster || o->plot || o->explain || o->batch)
        return usage_error("%s", "--measure / --sweep-carveout take --regs, --smem-static, --smem-dyn, "
                                 "--carveout (not --ptx, --cluster, --plot, --explain)");
    if (o->smem_static > 48 * 1024)
        return usage_error("%s", "static shared memory is at most 48 KB per block");
    if (o->have_regs && (o->regs < 1 || o->regs > 255))
        return usage_error("%s", "--regs must be 1..255 to measure");
    ArchTarget t;
    SimError e;
    if (o->gpu && arch_resolve(o->gpu, &t, &e) != SIM_OK)
        return usage_error("%s", e.msg);
    OccMeasureOpts m = {
        .arch = o->gpu ? t.arch->name : NULL, .sim = o->sim, .block = (int)o->block,
        .regs = o->have_regs ? (int)o->regs : 32, .carveout = o->carveout,
        .smem_static = (size_t)o->smem_static, .smem_dyn = (size_t)o->smem_dyn, .grid = (unsigned)o->grid,
        .wait_us = (double)o->wait_us, .json = o->json, .ncu = o->ncu, .tiny = o->tiny, .argc = argc,
        .argv = argv,
    };
    return o->sweep ? occ_measure_sweep(&m, o->sweep) : occ_measure_one(&m);
}

int cmd_occupancy(int argc, char **argv)
{
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            fputs(usage_text, stdout);
            return 0;
        }
    Opts o;
    int rc = parse_args(argc, argv, &o);
    if (rc)
        return rc;
    if (o.batch) {
        if (argc > 2)
            return usage_error("%s", "--batch takes no other options: each line says everything");
        return batch();
    }
    if (o.analyze)
        return occ_measure_analyze(o.analyze, o.gpu);
    if (o.measure || o.sweep)
        return measure(&o, argc, argv);
    if (!o.gpu)
        return usage_error("%s", "which GPU? give --arch sm_XX or --gpu NAME");
    ArchTarget t;
    SimError e;
    sim_error_clear(&e);
    if (arch_resolve(o.gpu, &t, &e) != SIM_OK)
        return usage_error("%s", e.msg);
    if (!o.have_block)
        return usage_error("%s", "give the block size with --block N (threads per block)");
    if (o.block < 1)
        return usage_error("%s", "--block must be at least 1");
    if (o.ptx && (o.have_regs || o.have_static))
        return usage_error("%s", "--ptx takes registers and static shared memory from ptxas: "
                                 "drop --regs / --smem-static");
    if (!o.ptx && !o.have_regs)
        return usage_error("%s", "give the registers per thread with --regs R, or --ptx FILE "
                                 "--kernel NAME to ask the compiler");
    if (o.ptx && !o.kernel)
        return usage_error("%s", "--ptx needs --kernel NAME");
    if (o.kernel && !o.ptx)
        return usage_error("%s", "--kernel goes with --ptx FILE");
    if (o.maxrreg && !o.ptx)
        return usage_error("%s", "--maxrregcount goes with --ptx (it is a compiler option)");
    if (o.smem_static > 48 * 1024)
        return usage_error("%s", "static shared memory is at most 48 KB per block (the compiler "
                                 "refuses more); use --smem-dyn for the rest");

    PtxasInfo px = {0};
    if (o.ptx && (rc = ptxas_query(o.ptx, o.kernel, t.arch->name, (int)o.maxrreg, &px)) != 0)
        return rc;

    OccConfig c;
    occ_config_init(&c);
    c.block_size = (int)o.block;
    c.regs_per_thread = o.ptx ? px.regs : (int)o.regs;
    c.smem_static = o.ptx ? (size_t)px.smem : (size_t)o.smem_static;
    c.smem_dynamic = (size_t)o.smem_dyn;
    c.carveout = o.carveout;
    /* The runtime counts one barrier per kernel; a kernel with more named
     * barriers (ptxas "used N barriers") takes N. */
    c.barriers = o.barriers >= 0 ? (int)o.barriers : o.ptx && px.barriers > 1 ? px.barriers : 1;
    OccResult r;
    if (occ_compute(t.arch, &c, &r, &e) != SIM_OK)
        return usage_error("%s", e.msg);
    OccBlockSizeResult best;
    if (occ_max_potential_block_size(t.arch, t.sm_count, &c, NULL, NULL, 0, &best, &e) != SIM_OK)
        return usage_error("%s", e.msg);
    OccCluster cl, *clp = NULL;
    if (o.cluster) {
        if (occ_cluster(t.arch, t.sm_count, &c, (int)o.cluster, o.nonportable, &cl, &e) != SIM_OK)
            return usage_error("%s", e.msg);
        clp = &cl;
    }

    if (o.json)
        print_json(&t, &o, &c, &r, o.ptx ? &px : NULL, &best, clp);
    else
        print_text(&t, &c, &r, o.ptx ? &px : NULL, &best, clp);
    if (o.explain) {
        size_t need = occ_explain(&t, &c, &r, NULL, 0) + 1;
        char *text = malloc(need);
        if (text) {
            occ_explain(&t, &c, &r, text, need);
            fprintf(o.json ? stderr : stdout, "\n%s", text);
            free(text);
        }
    }
    if (o.plot) {
        if ((rc = plot(o.plot, &t, &c, &r, o.ptx ? px.name : NULL)) != 0)
            return rc;
        fprintf(o.json ? stderr : stdout, "\nplot written to %s\n", o.plot);
    }
    return 0;
}
