/* step_viz.c: the stepper's `viz` (step_int.h): the launch replayed with a
 * trace, then the visualizer opened on it at the paused cycle.  Built
 * without viz/ (viz.h absent), it prints the commands that do the same.
 * It calls only step_core.c (and viz/, sim/, launch/). */
#include "step_int.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "device.h"
#include "report.h"
#include "trace.h"

#if defined(__has_include)
#if __has_include("viz.h")
#define STEP_HAVE_VIZ 1
#include "arch.h"
#include "viz.h"
#endif
#endif

static const char *const views[] = {"gpu", "sm", "memory", "atomics"};

/* Run cfg's launch again with a memory-level trace into a new temporary
 * file; its path (malloc'd), or NULL with msg. */
static char *trace_again(const StepConfig *cfg, char *msg, size_t cap)
{
    const char *tmp = getenv("TMPDIR");
    char path[1024];
    snprintf(path, sizeof path, "%s/warpsim-step-XXXXXX.wst", tmp && *tmp ? tmp : "/tmp");
    int fd = mkstemps(path, 4);
    if (fd < 0) {
        snprintf(msg, cap, "cannot create a trace file in %s", tmp && *tmp ? tmp : "/tmp");
        return NULL;
    }
    close(fd);
    SimError err;
    sim_error_clear(&err);
    Device *dev = device_open_sim(cfg->arch, &err);
    DeviceModule *mod = NULL;
    LaunchResult res;
    memset(&res, 0, sizeof res);
    SimStatus st = SIM_ERR_USAGE;
    if (!dev) {
        snprintf(msg, cap, "%s", err.msg);
        goto fail;
    }
    if (device_load_ptx(dev, cfg->file, cfg->ptx, cfg->ptx_len, &mod, &err)) {
        snprintf(msg, cap, "%s", err.msg);
        goto fail;
    }
    LaunchSpec spec = *cfg->spec; /* the same launch, its buffers borrowed */
    spec.trace_path = path;
    spec.trace_level = TRACE_LEVEL_MEMORY;
    spec.on_issue = NULL;
    spec.on_issue_user = NULL;
    st = launch_run(dev, mod, &spec, &res, msg, cap);
fail:
    launch_result_free(&res);
    device_close(dev);
    if (st && st != SIM_ERR_FAULT) {
        unlink(path);
        return NULL;
    }
    char *out = strdup(path);
    if (!out)
        snprintf(msg, cap, "out of memory");
    return out;
}

/* An argument as a shell reads it back. */
static void print_word(FILE *o, const char *w)
{
    if (*w && strspn(w, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_./:,=+%@-") == strlen(w)) {
        fputs(w, o);
        return;
    }
    fputc('\'', o);
    for (; *w; w++)
        if (*w == '\'')
            fputs("'\\''", o);
        else
            fputc(*w, o);
    fputc('\'', o);
}

static int show_trace(const char *trace, uint64_t cycle, const char *view, uint64_t block, int sm, FILE *out,
                      char *msg, size_t cap);

int step_viz(Stepper *s, const char *view, char *msg, size_t cap)
{
    bool known = false;
    for (size_t i = 0; i < sizeof views / sizeof *views; i++)
        known |= !strcmp(view, views[i]);
    if (!known) {
        snprintf(msg, cap, "viz '%s': the views are gpu, sm, memory and atomics", view);
        return 2;
    }
    FILE *o = s->cfg.out;
    if (!s->trace_path) {
        fprintf(o, "running the launch again with a trace (level memory)...\n");
        fflush(o);
        if (!(s->trace_path = trace_again(&s->cfg, msg, cap)))
            return 2;
        fprintf(o, "trace written to %s (removed when the stepper ends); the same launch as a command:\n"
                   "  warpsim run", s->trace_path);
        for (int i = 1; i < s->cfg.argc; i++) {
            if (!strcmp(s->cfg.argv[i], "--script") && i + 1 < s->cfg.argc) {
                i++;
                continue;
            }
            fputc(' ', o);
            print_word(o, s->cfg.argv[i]);
        }
        fprintf(o, " --trace ");
        print_word(o, s->trace_path);
        fprintf(o, " --trace-level memory\n");
    }
    int sm = -1;
    step_block_resident(s, s->fblock, &sm);
    return show_trace(s->trace_path, view_cycle(s->v), view, s->fblock, sm, o, msg, cap);
}

#ifdef STEP_HAVE_VIZ
static uint32_t warps_per_sm(const char *arch)
{
    const ArchProfile *p = arch_find(arch);
    return p ? (uint32_t)p->max_warps_per_sm : 0;
}
#endif

/* Show trace at cycle in view with block (and its SM) selected: the
 * visualizer's window when warpsim is built with viz/, else the commands
 * that do it, printed on out.  0, or nonzero with msg. */
static int show_trace(const char *trace, uint64_t cycle, const char *view, uint64_t block, int sm, FILE *out,
                      char *msg, size_t cap)
{
#ifdef STEP_HAVE_VIZ
    VizOptions o;
    viz_options_init(&o);
    o.paths[0] = trace;
    o.npaths = 1;
    o.at_cycle = cycle;
    o.view = viz_view_parse(view);
    o.block = block;
    o.sm = sm;
    o.max_warps_per_sm = warps_per_sm;
    fprintf(out, "opening the visualizer at cycle %llu (q closes it and comes back here)\n",
            (unsigned long long)cycle);
    fflush(out);
    return viz_window_opts(&o, msg, cap);
#else
    (void)block, (void)sm, (void)msg, (void)cap;
    fprintf(out, "this warpsim is built without the visualizer; to see the launch at this cycle:\n"
                 "  warpsim viz ");
    print_word(out, trace);
    fprintf(out, " --at %llu --view %s\n", (unsigned long long)cycle, view);
    return 0;
#endif
}
