/* cmd_occupancy.c: `warpsim occupancy`, the front end of the occupancy and
 * carveout model.  One launch from flags (text, --json, --explain, --plot),
 * many from JSON lines on stdin (--batch), or measured (--measure,
 * --sweep-carveout, --analyze-sweep).  Options, messages and exit codes: the
 * work is occ_measure.h's.  Lesson 4 (lessons/04-occupancy) is written
 * around it. */
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "carveout.h"
#include "cmd.h"
#include "occ_measure.h"
#include "progress.h"

static const char usage_text[] =
"usage: warpsim occupancy (--arch sm_XX | --gpu NAME) --block N\n"
"                         (--regs R | --ptx FILE --kernel NAME [--maxrregcount R])\n"
"                         [--smem-static B] [--smem-dyn B] [--carveout P] [--barriers N]\n"
"                         [--cluster N [--nonportable-cluster]]\n"
"                         [--json] [--explain] [--plot FILE.png]\n"
"       warpsim occupancy --batch  < launches.jsonl\n"
"       warpsim occupancy --measure --block N --regs R [--smem-static B] [--smem-dyn B]\n"
"                         [--carveout P] [--grid N] [--wait-us U] [--backend gpu|sim]\n"
"                         [--timing] [--ncu] [--json]\n"
"       warpsim occupancy --sweep-carveout FILE.json [--regs R] [--sweep-tiny]\n"
"                         [--backend gpu|sim] [--wait-us U] [--threads N]\n"
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
"  --cluster N       thread-block cluster size (sm_90+): bound on co-resident clusters,\n"
"                    and max active clusters (cudaOccupancyMaxActiveClusters' idea:\n"
"                    a cluster runs inside one GPC; per GPC its SMs x blocks per SM /\n"
"                    N, summed), saying when the cluster, not the SM, is the limiter\n"
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
"  --timing          with --measure: the simulator runs the launch under its timing\n"
"                    model (docs/timing.md), so residency and achieved occupancy\n"
"                    are in modelled time; a column beside the model (and beside\n"
"                    the GPU's measurement and Nsight Compute's, on a GPU)\n"
"  --sweep-carveout FILE.json\n"
"                    measure 504 launches (blocks 32..1024, dynamic shared memory\n"
"                    0..100 KB, carveouts -1 0 10 25 50 100; --sweep-tiny: 8) and\n"
"                    write each with the API's answer and the measured residency\n"
"  --threads N       with --backend sim: measure N launches side by side (default:\n"
"                    $WARPSIM_THREADS, else the cores); the file is the same with any N\n"
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
"Exit status: 0 done, 1 a measurement failed, 2 bad usage or input, a launch that\n"
"cannot run, or no GPU for --measure / --sweep-carveout (message on stderr).\n";

typedef struct {
    const char *gpu;                /* --arch or --gpu value */
    const char *arch_opt, *gpu_opt; /* each as given, to catch the two disagreeing */
    long long block, regs, smem_static, smem_dyn, barriers, cluster, maxrreg;
    bool have_block, have_regs, have_static;
    int carveout;
    bool nonportable;
    const char *ptx, *kernel, *plot;
    bool json, explain, batch;
    bool measure, ncu, tiny, sim;     /* --measure, --ncu, --sweep-tiny, --backend sim */
    bool timing;                      /* --timing */
    const char *sweep, *analyze;      /* --sweep-carveout FILE, --analyze-sweep FILE */
    long long grid, wait_us;
    int threads;                      /* --threads N, 0 unset */
} Opts;


static int usage_error(const char *fmt, const char *arg)
{
    fprintf(stderr, "warpsim occupancy: ");
    fprintf(stderr, fmt, arg);
    fprintf(stderr, "\n(run `warpsim occupancy --help` for the options)\n");
    return 2;
}

/* --name value / --name=value: 1 taken (*val set), 0 not this option, and
 * the usage error's status in *rc when the value is missing. */
static bool opt_value(int argc, char **argv, int *i, const char *name, const char **val, int *rc)
{
    int k = cmd_opt_value(argc, argv, i, name, val);
    if (k < 0)
        *rc = usage_error("%s needs a value", name);
    return k != 0;
}

static int parse_args(int argc, char **argv, Opts *o)
{
    memset(o, 0, sizeof *o);
    o->carveout = CARVEOUT_DEFAULT;
    o->barriers = -1;
    for (int i = 1; i < argc; i++) {
        const char *v = NULL, *a = argv[i];
        int rc = 0, th;
        if ((th = cmd_threads_option("occupancy", argc, argv, &i, &o->threads)) != 0) {
            if (th < 0) return 2;
        } else if (!strcmp(a, "--json")) o->json = true;
        else if (!strcmp(a, "--explain")) o->explain = true;
        else if (!strcmp(a, "--batch")) o->batch = true;
        else if (!strcmp(a, "--nonportable-cluster")) o->nonportable = true;
        else if (!strcmp(a, "--measure")) o->measure = true;
        else if (!strcmp(a, "--ncu")) o->ncu = true;
        else if (!strcmp(a, "--sweep-tiny")) o->tiny = true;
        else if (!strcmp(a, "--timing")) o->timing = true;
        else if (opt_value(argc, argv, &i, "--backend", &v, &rc)) {
            if (rc) return rc;
            if (strcmp(v, "gpu") && strcmp(v, "sim"))
                return usage_error("--backend is gpu or sim, not '%s'", v);
            o->sim = !strcmp(v, "sim");
        } else if (opt_value(argc, argv, &i, "--carveout", &v, &rc)) {
            SimError e;
            if (rc) return rc;
            if (carveout_parse(v, &o->carveout, &e) != SIM_OK)
                return usage_error("%s", e.msg);
        } else {
            static const struct { const char *name; size_t off; } strs[] = {
                {"--sweep-carveout", offsetof(Opts, sweep)}, {"--analyze-sweep", offsetof(Opts, analyze)},
                {"--arch", offsetof(Opts, arch_opt)}, {"--gpu", offsetof(Opts, gpu_opt)}, {"--ptx", offsetof(Opts, ptx)},
                {"--kernel", offsetof(Opts, kernel)}, {"--plot", offsetof(Opts, plot)},
            };
            size_t k = 0;
            while (k < sizeof strs / sizeof *strs && !opt_value(argc, argv, &i, strs[k].name, &v, &rc))
                k++;
            if (k < sizeof strs / sizeof *strs) {
                if (rc)
                    return rc;
                *(const char **)((char *)o + strs[k].off) = v;
                continue;
            }
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
            k = 0;
            while (k < sizeof nums / sizeof *nums && !opt_value(argc, argv, &i, nums[k].name, &v, &rc))
                k++;
            if (k == sizeof nums / sizeof *nums)
                return usage_error("unknown option '%s'", a);
            if (rc)
                return rc;
            long long *dst = (long long *)((char *)o + nums[k].off);
            if (!cmd_parse_size(v, nums[k].max, dst) || (!nums[k].size && strpbrk(v, "kK"))) {
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
    if (o->timing && !o->measure)
        return usage_error("%s", "--timing goes with --measure (the simulator in modelled time)");
    o->gpu = o->gpu_opt ? o->gpu_opt : o->arch_opt;
    if (o->gpu_opt && o->arch_opt) { /* both: they must name the same arch */
        ArchTarget g;
        SimError e;
        if (arch_resolve(o->gpu_opt, &g, &e) != SIM_OK)
            return usage_error("%s", e.msg);
        if (strcmp(g.arch->name, o->arch_opt)) {
            char msg[200];
            snprintf(msg, sizeof msg, "--arch %s and --gpu %s (an %s) disagree: give one of them", o->arch_opt,
                     o->gpu_opt, g.arch->name);
            return usage_error("%s", msg);
        }
    }
    return 0;
}

static bool sweep_progress(void *user, size_t done, size_t total)
{
    return progress_update(user, done, total);
}

/* --measure and --sweep-carveout: the resources from the flags (or ptxas). */
static int measure(const Opts *o, int argc, char **argv)
{
    if (o->measure && o->sweep)
        return usage_error("%s", "--measure and --sweep-carveout go one at a time");
    if (o->measure && !o->have_block)
        return usage_error("%s", "give the block size with --block N");
    if (o->ptx || o->cluster || o->plot || o->explain || o->batch)
        return usage_error("%s", "--measure / --sweep-carveout take --regs, --smem-static, --smem-dyn, "
                                 "--carveout (not --ptx, --cluster, --plot, --explain)");
    ArchTarget t;
    SimError e;
    if (o->gpu && arch_resolve(o->gpu, &t, &e) != SIM_OK)
        return usage_error("%s", e.msg);
    OccMeasureOpts m = {
        .arch = o->gpu ? t.arch->name : NULL, .sim = o->sim, .block = (int)o->block,
        .regs = o->have_regs ? (int)o->regs : 32, .carveout = o->carveout,
        .smem_static = (size_t)o->smem_static, .smem_dyn = (size_t)o->smem_dyn, .grid = (unsigned)o->grid,
        .wait_us = (double)o->wait_us, .ncu = o->ncu, .tiny = o->tiny, .timing = o->timing,
        .argc = argc, .argv = argv, .threads = o->threads,
    };
    char why[160];
    if (!occ_measure_check(&m, o->sweep != NULL, why, sizeof why))
        return usage_error("%s", why);
    if (!m.threads && !cmd_threads_default("occupancy", &m.threads))
        return 2;
    Progress pg;
    progress_start(&pg, "sweep", "configurations", false);
    progress_catch_interrupt(); /* Ctrl-C: keep what was measured, exit 130 */
    m.progress = sweep_progress;
    m.progress_user = &pg;
    FILE *f = o->sweep ? fopen(o->sweep, "w") : NULL;
    if (o->sweep && !f) {
        fprintf(stderr, "warpsim occupancy: cannot write %s\n", o->sweep);
        return 2;
    }
    int rc = occ_measure_run(&m, o->json, f, o->sweep, stdout, stderr);
    if (o->sweep)
        progress_end(&pg);
    if (f)
        fclose(f);
    return o->sweep && progress_interrupted() ? PROGRESS_EXIT_INTERRUPTED : rc;
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
        static char obuf[1 << 16];
        setvbuf(stdout, obuf, _IOFBF, sizeof obuf);
        occ_report_batch(stdin, stdout);
        return 0;
    }
    SimError e;
    sim_error_clear(&e);
    if (o.analyze) {
        if (occ_measure_analyze(o.analyze, o.gpu, stdout, &e) == SIM_OK)
            return 0;
        fprintf(stderr, "warpsim occupancy: %s\n", e.msg);
        return 2;
    }
    if (o.measure || o.sweep)
        return measure(&o, argc, argv);
    if (!o.gpu)
        return usage_error("%s", "which GPU? give --arch sm_XX or --gpu NAME");
    ArchTarget t;
    if (arch_resolve(o.gpu, &t, &e) != SIM_OK)
        return usage_error("%s", e.msg);
    if (!o.have_block)
        return usage_error("%s", "give the block size with --block N (threads per block)");
    char why[200];
    if (!occ_report_launchable(t.arch, o.block, o.have_regs ? o.regs : -1, o.barriers, o.smem_dyn, why, sizeof why))
        return usage_error("%s", why);
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

    OccReport rep = {.target = t, .ptx_path = o.ptx};
    if (o.ptx && (rc = ptxas_query(o.ptx, o.kernel, t.arch->name, (int)o.maxrreg, &rep.ptxas)) != 0)
        return rc;
    occ_report_config(&rep, (int)o.block, (int)o.regs, (size_t)o.smem_static, (size_t)o.smem_dyn, o.carveout,
                      (int)o.barriers);
    if (occ_report_compute(&rep, (int)o.cluster, o.nonportable, &e) != SIM_OK)
        return usage_error("%s", e.msg);
    if (occ_report_show(&rep, o.json, o.explain, o.plot, stdout, o.json ? stderr : stdout, &e) == SIM_OK)
        return 0;
    if (rep.result.blocks_per_sm == 0)
        return usage_error("%s", e.msg);
    fprintf(stderr, "warpsim occupancy: %s\n", e.msg); /* the plot */
    return 2;
}
