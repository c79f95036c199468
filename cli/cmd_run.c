/* cmd_run.c: `warpsim run` -- run any kernel (.ptx, or .cu through nvcc) in
 * the simulator with arguments written on the command line, and print its
 * output buffers, printf text and statistics (or one JSON object). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "argspec.h"
#include "cmd.h"
#include "lesson.h"
#include "device.h"
#include "gpu.h"
#include "launch.h"
#include "progress.h"
#include "report.h"
#include "source.h"
#include "trace.h"

static const char run_help[] =
    "usage: warpsim run FILE --kernel NAME --grid X[,Y[,Z]] [--block X[,Y[,Z]]]\n"
    "                   [--smem BYTES] [--arch sm_90 | --gpu NAME] [--backend sim|gpu]\n"
    "                   [--arg SPEC]... [--json] [--quiet] [--trace FILE [--trace-level L]]\n"
    "                   [--schedule S] [--atomic-order A] [--divergence D] [--seed N]\n"
    "                   [--check races] [--budget N] [--max-memory BYTES] [--max-printf BYTES]\n"
    "                   [--timing] [--carveout P] [--threads N] [--cooperative]\n"
    "                   [--cluster X[,Y[,Z]]]\n"
    "\n"
    "Runs one kernel in the simulator and prints what it wrote.\n"
    "\n"
    "  FILE           a .ptx file, or a .cu file (compiled with nvcc -ptx -lineinfo -O3)\n"
    "  --kernel NAME  the PTX entry, or the plain C++ name of a mangled one\n"
    "  --grid, --block  launch dimensions, e.g. --grid 4 --block 256 or --block 16,16;\n"
    "                 without --block, the kernel's __launch_bounds__ (.reqntid/.maxntid)\n"
    "  --smem BYTES   dynamic shared memory per block (extern __shared__)\n"
    "  --arch sm_XX   arch profile (default sm_90); --gpu h100-sxm picks a part\n"
    "  --backend gpu  run on the real GPU instead (CUDA driver needed); same output\n"
    "  --budget N     stop after N warp instructions (default 5*10^7, 10^7 with --check\n"
    "                 races: an endless loop ends in well under a minute, measured at\n"
    "                 2-136 M warp instructions/s, 0.3 M/s with race checking) as a\n"
    "                 'budget-exceeded' fault; a long but finite kernel needs more\n"
    "  --max-memory BYTES  simulated global, local and shared memory and registers,\n"
    "                 all together (default 4G; 256M, 64K... work): a launch over it\n"
    "                 stops before allocating, with a 'memory-limit' fault naming the sizes\n"
    "  --max-printf BYTES  stop the launch with a 'printf-limit' fault once printf has\n"
    "                 written more than BYTES (1M, 65536...); without it, output past\n"
    "                 64 MiB is dropped and counted while the launch goes on\n"
    "  --json         print exactly one JSON object\n"
    "  --quiet        no progress line (shown on a terminal when a launch runs past a second)\n"
    "  --trace FILE   write a trace of the launch to FILE (traces/FORMAT.md; read it with\n"
    "                 `warpsim trace dump` or `warpsim trace export`)\n"
    "  --trace-level L  blocks (default), warps, instructions or memory: how much detail\n"
    "  --threads N    threads the launch's SMs run on (default: $WARPSIM_THREADS, else the\n"
    "                 cores), with the output of one thread: when SMs on two threads touch\n"
    "                 the same bytes of global memory (one writing) or the kernel faults,\n"
    "                 the launch runs again on one thread (--timing too: the same cycles\n"
    "                 and stalls); --trace, --check, other schedules and atomic orders,\n"
    "                 printf, malloc and global atomics use one thread\n"
    "%s"
    "\n"
    "One --arg per kernel parameter, in order:\n"
    "  i32:V u32:V i64:V u64:V f32:V f64:V    a scalar\n"
    "  buf:T[N]=INIT    a device buffer of N elements of T (i8 u8 i16 u16 i32 u32 i64 u64\n"
    "                   f32 f64), passed as its pointer; INIT is one of\n"
    "                     fill:V        every element V\n"
    "                     iota          0, 1, 2, ...\n"
    "                     list:V,V,...  these values, the rest zero\n"
    "                     rand:SEED     reproducible splitmix64 values (floats in [-1,1))\n"
    "                     file:PATH     raw little-endian elements\n"
    "  val:T[N]=INIT    N elements of T passed by value: a struct or array parameter\n"
    "                   (struct Table { int v[1024]; } is val:i32[1024]=...); its size\n"
    "                   must be the parameter's\n"
    "\n"
    "Exit status: 0 ran clean, 1 the kernel faulted (or --check races found something),\n"
    "2 bad usage, bad input or no GPU for --backend gpu, 130 stopped with Ctrl-C (what\n"
    "the launch did so far is printed).\n"
    "\n"
    "example:\n"
    "  warpsim run lessons/01-threads-and-races/kernel.ptx --kernel atomic_sum \\\n"
    "      --grid 4 --block 256 --arg buf:i32[1000]=fill:1 --arg buf:i32[1]=fill:0 --arg i32:1000\n";

static int usage_error(const char *fmt, const char *a)
{
    return cmd_usage("run", fmt, a);
}

static void print_buffers_text(const LaunchResult *r)
{
    for (int b = 0; b < r->nbufs; b++) {
        const LaunchBuffer *lb = &r->bufs[b];
        if (!lb->data)
            continue;
        int sz = argspec_type_size(lb->type);
        uint64_t cnt = lb->count;
        printf("arg %d  %s[%llu]:", lb->arg, argspec_type_name(lb->type), (unsigned long long)cnt);
        uint64_t show = cnt <= 16 ? cnt : 12;
        for (uint64_t k = 0; k < show; k++) {
            char t[64];
            argspec_format_text(lb->type, lb->data + k * (uint64_t)sz, t, sizeof t);
            printf(" %s", t);
        }
        if (show < cnt) {
            char t[64];
            argspec_format_text(lb->type, lb->data + (cnt - 1) * (uint64_t)sz, t, sizeof t);
            printf(" ... %s", t);
        }
        printf("\n");
    }
}

static void print_buffers_json(const LaunchResult *r)
{
    printf("\"buffers\": [");
    bool first = true;
    for (int b = 0; b < r->nbufs; b++) {
        const LaunchBuffer *lb = &r->bufs[b];
        if (!lb->data)
            continue;
        int sz = argspec_type_size(lb->type);
        uint64_t cnt = lb->count;
        printf("%s{\"arg\": %d, \"type\": \"%s\", \"values\": [", first ? "" : ", ", lb->arg,
               argspec_type_name(lb->type));
        first = false;
        char t[64];
        for (uint64_t k = 0; k < cnt; k++) {
            argspec_format_json(lb->type, lb->data + k * (uint64_t)sz, t, sizeof t);
            printf("%s%s", k ? ", " : "", t);
        }
        printf("], \"hex\": \"");
        for (uint64_t k = 0; k < cnt; k++) {
            argspec_format_hex(lb->type, lb->data + k * (uint64_t)sz, t, sizeof t);
            printf("%s%s", k ? " " : "", t);
        }
        printf("\"}");
    }
    printf("]");
}

/* Defaults a student's kernel cannot raise past without saying so (see
 * --help for the measurements behind them). */
#define RUN_BUDGET_DEFAULT 50000000ull        /* warp instructions */
#define RUN_BUDGET_RACES_DEFAULT 10000000ull  /* with --check races */
#define RUN_MAX_MEMORY_DEFAULT ((uint64_t)4 << 30)

int cmd_run(int argc, char **argv)
{
    const char *file = NULL, *arch = "sm_90";
    bool json = false, on_gpu = false, level_given = false, quiet = false;
    LaunchSpec spec;
    int rc = 2, threads = 0;
    char msg[1024];
    launch_spec_init(&spec);
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        bool has_val = i + 1 < argc;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            printf(run_help, launch_sched_help);
            rc = 0;
            goto done;
        } else if (!strcmp(a, "--json")) {
            json = true;
            continue;
        } else if (!strcmp(a, "--quiet") || !strcmp(a, "-q")) {
            quiet = true;
            continue;
        }
        int th = cmd_threads_option("run", argc, argv, &i, &threads);
        if (th < 0)
            goto done;
        if (th > 0)
            continue;
        LaunchOpt o = launch_parse_option(&spec, argc, argv, &i, msg, sizeof msg);
        if (o == LAUNCH_OPT_TAKEN) {
            continue;
        } else if (o == LAUNCH_OPT_USAGE) {
            rc = usage_error("%s", msg);
            goto done;
        } else if (o == LAUNCH_OPT_BADSPEC) {
            fprintf(stderr, "warpsim run: %s\n", msg);
            goto done;
        } else if ((!strcmp(a, "--arch") || !strcmp(a, "--gpu")) && has_val) {
            arch = argv[++i];
        } else if (!strcmp(a, "--trace") && has_val) {
            spec.trace_path = argv[++i];
        } else if (!strcmp(a, "--trace-level") && has_val) {
            const char *lv = argv[++i];
            level_given = true;
            spec.trace_level = trace_level_parse(lv);
            if (spec.trace_level < 0) {
                rc = usage_error("--trace-level '%s': expected blocks, warps, instructions or memory", lv);
                goto done;
            }
        } else if (!strcmp(a, "--backend") && has_val) {
            const char *b = argv[++i];
            if (strcmp(b, "sim") && strcmp(b, "gpu")) {
                rc = usage_error("--backend '%s': expected sim or gpu", b);
                goto done;
            }
            on_gpu = !strcmp(b, "gpu");
        } else if (!launch_take_file(a, has_val, &file, msg, sizeof msg)) {
            rc = usage_error("%s", msg);
            goto done;
        }
    }
    spec.block_optional = true;
    if (!threads && !cmd_threads_default("run", &threads))
        goto done;
    if (!launch_check_complete(file, &spec, msg, sizeof msg)) {
        rc = usage_error("%s", msg);
        goto done;
    }
    if (level_given && !spec.trace_path) {
        rc = usage_error("%s", "--trace-level chooses the detail of a trace: give --trace FILE as well");
        goto done;
    }
    if (spec.trace_path && on_gpu) {
        rc = usage_error("%s", "--trace works with the simulator only (GPU traces are not supported yet)");
        goto done;
    }
    if (spec.checks && on_gpu) {
        rc = usage_error("%s", "--check races works with the simulator only (it watches every access)");
        goto done;
    }

    if (!spec.budget && !on_gpu) /* the GPU has its own watchdog */
        spec.budget = spec.checks & DEVICE_CHECK_RACES ? RUN_BUDGET_RACES_DEFAULT : RUN_BUDGET_DEFAULT;
    if (!spec.max_memory)
        spec.max_memory = RUN_MAX_MEMORY_DEFAULT;
    SimError err;
    sim_error_clear(&err);
    Device *dev = on_gpu ? device_open_gpu(0, &err) : device_open_sim(arch, &err);
    if (!dev) {
        fprintf(stderr, "warpsim run: %s\n", err.msg);
        goto done;
    }
    device_set_memory_limit(dev, spec.max_memory); /* module variables count too */
    device_set_threads(dev, threads);
    size_t len = 0;
    char inc[4096]; /* #include "tile.cuh" from the lessons' headers */
    char *ptx = source_load_ptx_inc(file, device_arch(dev), lesson_include_dir(inc, sizeof inc), &len, msg, sizeof msg);
    DeviceModule *mod = NULL;
    LaunchResult res;
    memset(&res, 0, sizeof res);
    if (!ptx) {
        fprintf(stderr, "%s\n", msg);
        goto close;
    }
    if (device_load_ptx(dev, file, ptx, len, &mod, &err)) {
        report_error(stderr, &err, ptx, len);
        goto close;
    }
    if (!launch_resolve_block(mod, &spec, msg, sizeof msg)) {
        fprintf(stderr, "warpsim run: %s\n", msg);
        goto close;
    }
    Progress pg;
    progress_start(&pg, "run", "blocks retired", quiet || json);
    progress_catch_interrupt(); /* Ctrl-C: stop, print what was done, exit 130 */
    spec.on_progress = progress_launch_cb;
    spec.on_progress_user = &pg;
    SimStatus st = launch_run(dev, mod, &spec, &res, msg, sizeof msg);
    progress_end(&pg);
    if (st && st != SIM_ERR_FAULT) {
        fprintf(stderr, "warpsim run: %s\n", msg);
        goto close;
    }
    const DeviceDim3 grid = spec.grid, block = spec.block;
    const unsigned long smem = spec.smem;
    const char *out = device_printf_output(dev);
    if (json) {
        printf("{\"kernel\": ");
        report_json_string(stdout, res.entry);
        printf(", \"grid\": [%u, %u, %u], \"block\": [%u, %u, %u], \"smem\": %lu, \"arch\": \"%s\", "
               "\"backend\": \"%s\", ", grid.x, grid.y, grid.z, block.x, block.y, block.z, smem, device_arch(dev),
               device_backend(dev));
        print_buffers_json(&res);
        printf(", \"printf\": ");
        report_json_string(stdout, out);
        printf(", \"printf_dropped_bytes\": %llu", (unsigned long long)res.stats.printf_dropped);
        printf(", \"stats\": ");
        report_stats_json(stdout, &res.stats);
        printf(", \"fault\": ");
        if (st == SIM_ERR_FAULT)
            report_fault_json(stdout, &res.fault);
        else
            printf("null");
        printf(", \"schedule\": {\"schedule\": \"%s\", \"atomic_order\": \"%s\", \"divergence\": \"%s\", "
               "\"seed\": %llu}", device_schedule_name(spec.schedule), device_atomic_order_name(spec.atomic_order),
               device_divergence_name(spec.divergence), (unsigned long long)spec.seed);
        printf(", \"atomics\": ");
        report_atomic_log_json(stdout, dev);
        if (spec.checks & DEVICE_CHECK_RACES) {
            printf(", \"races\": ");
            report_races_json(stdout, dev);
        }
        printf("}\n");
    } else {
        printf("%s<<<(%u,%u,%u), (%u,%u,%u), %lu>>> on %s (%s)\n", res.entry, grid.x, grid.y, grid.z,
               block.x, block.y, block.z, smem, device_arch(dev), device_backend(dev));
        if (*out) {
            printf("--- printf output ---\n%s", out);
            if (out[strlen(out) - 1] != '\n')
                printf("\n");
            printf("---\n");
        }
        if (res.stats.printf_dropped)
            printf("printf output was cut at %zu MiB: %llu more bytes were dropped\n", DEVICE_PRINTF_MAX >> 20,
                   (unsigned long long)res.stats.printf_dropped);
        if (st == SIM_ERR_FAULT)
            report_fault(stdout, &res.fault);
        print_buffers_text(&res);
        report_stats(stdout, &res.stats, !on_gpu);
        if (spec.checks & DEVICE_CHECK_RACES)
            report_races(stdout, dev);
    }
    rc = progress_interrupted() ? PROGRESS_EXIT_INTERRUPTED : st == SIM_ERR_FAULT || device_race_count(dev) ? 1 : 0;
close:
    launch_result_free(&res);
    free(ptx);
    device_close(dev);
done:
    launch_spec_free(&spec);
    return rc;
}
