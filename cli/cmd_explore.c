/* cmd_explore.c: `warpsim explore` -- run one launch (written as for
 * `warpsim run`) K times under K seeds of the warp schedule and the atomic
 * order, and report per output buffer which distinct results came out and
 * how often: where a kernel's answer depends on an order nobody chose. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cmd.h"
#include "lesson.h"
#include "device.h"
#include "explore.h"
#include "gpu.h"
#include "launch.h"
#include "progress.h"
#include "report.h"
#include "source.h"

static const char explore_help[] =
    "usage: warpsim explore FILE --kernel NAME --grid X[,Y[,Z]] --block X[,Y[,Z]]\n"
    "                       [--runs K] [--seed BASE] [--show N] [--json] [--quiet]\n"
    "                       [--smem BYTES] [--arch sm_90 | --gpu NAME] [--backend sim|gpu]\n"
    "                       [--arg SPEC]... [--budget N] [--threads N]\n"
    "                       [--schedule S] [--atomic-order A] [--divergence D] [--check races]\n"
    "\n"
    "Runs one kernel K times, each time with another seed for the simulator's\n"
    "choices of what hardware leaves unordered -- which warp runs next, in which\n"
    "order the lanes of an atomic update memory -- and reports, for every buffer\n"
    "argument, how many distinct results came out, which, and how often.  One\n"
    "result: the kernel's answer does not depend on the order.  Several: it does\n"
    "(a race, a float atomicAdd sum, atomicExch or atomicCAS winners).\n"
    "\n"
    "The launch is written exactly as for `warpsim run` (see warpsim run --help for\n"
    "FILE, --kernel, --grid, --block, --smem, --arg, --budget).  Besides:\n"
    "  --runs K       how many runs (default 100); run k uses seed BASE + k\n"
    "  --seed BASE    the first seed (default 0)\n"
    "  --schedule S   default random here (roundrobin, random, adversarial)\n"
    "  --atomic-order A  default random here (lane, reverse, random, adversarial)\n"
    "  --divergence D its (default) or stack\n"
    "  --check races  also count the runs in which race checking found something\n"
    "  --show N       list at most N results per buffer (default 10)\n"
    "  --threads N    run N launches side by side, each on a simulator of its own\n"
    "                 (default: $WARPSIM_THREADS, else the cores available); the\n"
    "                 report is the same with any N\n"
    "  --keep BYTES   keep the bytes of distinct results up to this much memory\n"
    "                 (default 64M); past it only their XXH64 hash is kept\n"
    "  --json         print exactly one JSON object:\n"
    "                 {\"runs\": K, \"buffers\": [{\"arg\": INDEX, \"type\": T, \"count\": N,\n"
    "                  \"distinct\": D, \"differing_elements\": E, \"outcomes\": [{\"hex\": \"...\",\n"
    "                  \"count\": C, \"seed\": S, \"xxh64\": \"...\", \"fault\": null}], \"listed\": L}],\n"
    "                  \"faulted_runs\": F, \"faults\": [...], ...}\n"
    "  --backend gpu  run K times on the GPU instead: the spread real hardware gives\n"
    "                 (seeds do not apply there)\n"
    "\n"
    "A run that faults is an outcome too: its buffers are counted with the fault's\n"
    "kind.  Progress goes to standard error when it is a terminal.\n"
    "\n"
    "On a terminal a progress line counts the runs (--quiet hides it); Ctrl-C stops and\n"
    "reports the runs made so far (exit status 130).\n"
    "\n"
    "Exit status: 0 every run ran clean, 1 a run faulted (or --check races found\n"
    "something), 2 bad usage or bad input.\n"
    "\n"
    "example: a float atomicAdd sum of 10000 values under 100 atomic orders\n"
    "  warpsim explore lessons/03-atomics/kernel.ptx --kernel sum_atomic_f32 --grid 40 --block 256 \\\n"
    "      --arg buf:f32[10000]=rand:1 --arg buf:f32[1]=fill:0 --arg i32:10000 --runs 100\n";

static int usage_error(const char *fmt, const char *a)
{
    return cmd_usage("explore", fmt, a);
}

/* "64M", "1G", "4096": bytes. */
static bool parse_bytes(const char *s, size_t *out)
{
    char *end;
    if (*s < '0' || *s > '9')
        return false;
    unsigned long long v = strtoull(s, &end, 10);
    unsigned shift = 0;
    if (*end == 'K' || *end == 'k')
        shift = 10;
    else if (*end == 'M' || *end == 'm')
        shift = 20;
    else if (*end == 'G' || *end == 'g')
        shift = 30;
    if (shift)
        end++;
    if (*end || v > (1ull << 40) >> shift)
        return false;
    *out = (size_t)(v << shift);
    return true;
}

static bool parse_count(const char *s, unsigned long long max, unsigned long long *out)
{
    char *end;
    if (*s < '0' || *s > '9')
        return false;
    *out = strtoull(s, &end, 10);
    return !*end && *out >= 1 && *out <= max;
}

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

typedef struct {
    bool tty;
    double t0, shown;
    unsigned long long runs;
} ExploreProgress;

static void progress(const Explore *e, unsigned long long runs, bool done)
{
    fprintf(stderr, "\rexplore: %llu/%llu runs", (unsigned long long)e->runs, runs);
    for (int i = 0; i < e->nbufs; i++)
        if (e->bufs[i].nouts > 1)
            fprintf(stderr, ", arg %d: %d distinct", e->bufs[i].arg, e->bufs[i].nouts);
    fprintf(stderr, done ? "\n" : "   ");
    fflush(stderr);
}

static bool on_run(void *user, const Explore *e)
{
    ExploreProgress *p = user;
    if (p->tty && now() - p->shown > 0.2) {
        progress(e, p->runs, false);
        p->shown = now();
    }
    return progress_interrupted(); /* Ctrl-C: stop, report the runs so far */
}

int cmd_explore(int argc, char **argv)
{
    const char *file = NULL, *arch = "sm_90";
    bool json = false, on_gpu = false, chose_sched = false, chose_order = false, quiet = false;
    unsigned long long runs = 100, show = 10;
    int threads = 0, th;
    size_t keep = 64u << 20;
    LaunchSpec spec;
    int rc = 2;
    char msg[1024];
    launch_spec_init(&spec);
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        bool has_val = i + 1 < argc;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            fputs(explore_help, stdout);
            rc = 0;
            goto done;
        } else if (!strcmp(a, "--json")) {
            json = true;
            continue;
        } else if (!strcmp(a, "--quiet") || !strcmp(a, "-q")) {
            quiet = true;
            continue;
        } else if (!strcmp(a, "--trace") || !strcmp(a, "--trace-level")) {
            rc = usage_error("%s: explore keeps no traces; trace one seed with warpsim run --seed N --trace FILE",
                             a);
            goto done;
        }
        if ((th = cmd_threads_option("explore", argc, argv, &i, &threads)) != 0) {
            if (th < 0)
                goto done;
            continue;
        }
        chose_sched |= !strcmp(a, "--schedule");
        chose_order |= !strcmp(a, "--atomic-order");
        LaunchOpt o = launch_parse_option(&spec, argc, argv, &i, msg, sizeof msg);
        if (o == LAUNCH_OPT_TAKEN) {
            continue;
        } else if (o == LAUNCH_OPT_USAGE) {
            rc = usage_error("%s", msg);
            goto done;
        } else if (o == LAUNCH_OPT_BADSPEC) {
            fprintf(stderr, "warpsim explore: %s\n", msg);
            goto done;
        } else if (!strcmp(a, "--runs") && has_val) {
            if (!parse_count(argv[++i], 100000000ull, &runs)) {
                rc = usage_error("--runs '%s': expected a count from 1 to 100000000", argv[i]);
                goto done;
            }
        } else if (!strcmp(a, "--show") && has_val) {
            if (!parse_count(argv[++i], 1000000ull, &show)) {
                rc = usage_error("--show '%s': expected a positive count", argv[i]);
                goto done;
            }
        } else if (!strcmp(a, "--keep") && has_val) {
            if (!parse_bytes(argv[++i], &keep)) {
                rc = usage_error("--keep '%s': expected bytes (4096, 64M, 1G)", argv[i]);
                goto done;
            }
        } else if ((!strcmp(a, "--arch") || !strcmp(a, "--gpu")) && has_val) {
            arch = argv[++i];
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
    if (!launch_check_complete(file, &spec, msg, sizeof msg)) {
        rc = usage_error("%s", msg);
        goto done;
    }
    if (spec.checks && on_gpu) {
        rc = usage_error("%s", "--check races works with the simulator only (it watches every access)");
        goto done;
    }
    if (!threads && !cmd_threads_default("explore", &threads))
        goto done;
    if (!chose_sched)
        spec.schedule = DEVICE_SCHED_RANDOM;
    if (!chose_order)
        spec.atomic_order = DEVICE_ATOMIC_RANDOM;

    SimError err;
    sim_error_clear(&err);
    Device *dev = on_gpu ? device_open_gpu(0, &err) : device_open_sim(arch, &err);
    if (!dev) {
        fprintf(stderr, "warpsim explore: %s\n", err.msg);
        goto done;
    }
    size_t len = 0;
    char inc[4096]; /* #include "tile.cuh" from the lessons' headers */
    char *ptx = source_load_ptx_inc(file, device_arch(dev), lesson_include_dir(inc, sizeof inc), &len, msg, sizeof msg);
    DeviceModule *mod = NULL;
    Explore ex;
    explore_init(&ex, keep);
    const char *entry = NULL;
    if (!ptx) {
        fprintf(stderr, "%s\n", msg);
        goto close;
    }
    if (device_load_ptx(dev, file, ptx, len, &mod, &err)) {
        report_error(stderr, &err, ptx, len);
        goto close;
    }
    const uint64_t base = spec.seed;
    bool tty = isatty(2) && !getenv("WARPSIM_NO_PROGRESS") && !quiet;
    progress_catch_interrupt();
    double t0 = now();
    ExploreProgress pr = {.tty = tty, .t0 = t0, .shown = t0, .runs = runs};
    ExploreRun how = {.dev = dev, .mod = mod, .path = file, .ptx = ptx, .ptx_len = len, .spec = &spec,
                      .runs = runs, .threads = threads, .progress = on_run, .progress_user = &pr};
    ExploreRunStatus est = explore_run(&ex, &how, &entry, msg, sizeof msg);
    bool stopped = est == EXPLORE_STOPPED;
    if (stopped) {
        runs = ex.runs; /* the report is of the runs that were made */
        fprintf(stderr, "%swarpsim explore: stopped after %llu runs (Ctrl-C)\n", tty && pr.shown > t0 ? "\n" : "",
                runs);
    } else if (est != EXPLORE_RAN) {
        if (tty && pr.shown > t0)
            fprintf(stderr, "\n");
        if (est == EXPLORE_OUT_OF_MEMORY)
            fprintf(stderr, "warpsim explore: %s (try a smaller --keep)\n", msg);
        else
            fprintf(stderr, "warpsim explore: %s%s\n", msg, ex.runs ? " (after some runs had worked)" : "");
        goto close;
    }
    if (tty && pr.shown > t0 && !stopped)
        progress(&ex, runs, true);
    double secs = now() - t0;
    const DeviceDim3 g = spec.grid, b = spec.block;
    if (json) {
        printf("{\"kernel\": ");
        report_json_string(stdout, entry);
        printf(", \"grid\": [%u, %u, %u], \"block\": [%u, %u, %u], \"smem\": %lu, \"arch\": \"%s\", "
               "\"backend\": \"%s\", \"schedule\": \"%s\", \"atomic_order\": \"%s\", \"divergence\": \"%s\", "
               "\"seed\": %llu, ",
               g.x, g.y, g.z, b.x, b.y, b.z, spec.smem, device_arch(dev), device_backend(dev),
               device_schedule_name(spec.schedule), device_atomic_order_name(spec.atomic_order),
               device_divergence_name(spec.divergence), (unsigned long long)base);
        explore_print_json(stdout, &ex, (int)show);
        if (spec.checks & DEVICE_CHECK_RACES)
            printf(", \"race_runs\": %llu", (unsigned long long)ex.race_runs);
        printf(", \"seconds\": %.3f}\n", secs);
    } else {
        printf("%s<<<(%u,%u,%u), (%u,%u,%u), %lu>>> on %s (%s): %llu runs", entry, g.x, g.y, g.z, b.x, b.y, b.z,
               spec.smem, device_arch(dev), device_backend(dev), runs);
        if (on_gpu)
            printf(" in %.1f s\n", secs);
        else
            printf(", seeds %llu..%llu, schedule %s, atomic order %s, divergence %s, in %.1f s\n",
                   (unsigned long long)base, (unsigned long long)(base + runs - 1),
                   device_schedule_name(spec.schedule), device_atomic_order_name(spec.atomic_order),
                   device_divergence_name(spec.divergence), secs);
        explore_print_text(stdout, &ex, (int)show);
        if (spec.checks & DEVICE_CHECK_RACES)
            printf("race check: findings in %llu of %llu runs%s\n", (unsigned long long)ex.race_runs, runs,
                   ex.race_runs ? " (warpsim run --seed N --check races shows them)" : "");
    }
    rc = stopped ? PROGRESS_EXIT_INTERRUPTED : ex.faulted_runs || ex.race_runs ? 1 : 0;
close:
    explore_free(&ex);
    free(ptx);
    device_close(dev);
done:
    launch_spec_free(&spec);
    return rc;
}
