/* grade_sim.c: the runs of a grading in the simulator -- every test K
 * times, run 0 with the default schedule and atomic order and the others
 * with seeded adversarial and random ones, race checking and the
 * instruction budget on.  The runs go side by side on worker threads
 * (pool.h), each on a fresh simulator, and are taken into the report on
 * the grading thread in (test, run) order: what goes wrong is handed to
 * grade_finding.c, what goes right is counted for the scores (grade_int.h),
 * the same with any number of threads. */
#include "grade_int.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pool.h"

/* What one run left for the grading thread. */
typedef struct {
    bool skipped;                /* its test had stopped before it started */
    SimStatus st;
    LaunchResult res;
    char msg[1024];
    DeviceRace *races;           /* device_race of the run (owned) */
    int nraces;
} Slot;

typedef struct {
    GradeCtx *c;
    Slot *slots;
    size_t window;
    int runs;
    atomic_bool *stopped;        /* per test: later runs will be dropped */
} Ctx;

static int work(void *user, size_t task, int worker)
{
    (void)worker;
    Ctx *x = user;
    GradeCtx *c = x->c;
    int ti = (int)(task / (size_t)x->runs), run = (int)(task % (size_t)x->runs);
    Slot *s = &x->slots[task % x->window];
    memset(s, 0, sizeof *s);
    if (atomic_load(&x->stopped[ti])) {
        s->skipped = true;
        return 0;
    }
    GradeTest *T = &c->tests[ti];
    LaunchSpec spec = T->spec; /* shares the argument data, read only */
    grade_run_choice(c, run, &spec.schedule, &spec.atomic_order, &spec.seed);
    spec.checks = DEVICE_CHECK_RACES;
    spec.budget = T->budget;
    /* a fresh simulator and module each run, as a fresh program would
     * have: a __device__ variable the kernel changes starts from its
     * initial value again, and buffers land at the same addresses */
    SimError err;
    sim_error_clear(&err);
    DeviceModule *mod;
    Device *dev = device_open_sim(c->ex->arch, &err);
    if (!dev || device_load_ptx(dev, c->r->student, c->ptx, c->ptx_len, &mod, &err)) {
        snprintf(s->msg, sizeof s->msg, "%s", err.msg);
        s->st = err.status ? err.status : SIM_ERR_NOMEM;
        device_close(dev);
        return 0;
    }
    s->st = launch_run(dev, mod, &spec, &s->res, s->msg, sizeof s->msg);
    int n = device_race_count(dev);
    if (n > 0 && (s->races = malloc((size_t)n * sizeof *s->races))) {
        for (int i = 0; i < n; i++)
            s->races[i] = *device_race(dev, i);
        s->nraces = n;
    }
    device_close(dev);
    return 0;
}

static void slot_free(Slot *s)
{
    launch_result_free(&s->res);
    free(s->races);
    s->races = NULL;
    s->nraces = 0;
}

static void progress(const GradeCtx *c, int ti, int run)
{
    if (c->o->progress)
        c->o->progress(c->o->progress_arg, c->ex, ti, run, c->o->runs);
}

static void stop_test(Ctx *x, int ti)
{
    x->c->tests[ti].stopped = true;
    atomic_store(&x->stopped[ti], true);
}

/* Take run `run` of test ti into the report, as if it had just run. */
static void take(Ctx *x, Slot *s, int ti, int run)
{
    GradeCtx *c = x->c;
    GradeTest *T = &c->tests[ti];
    LaunchResult *res = &s->res;
    T->runs_done++;
    if (s->st != SIM_OK && s->st != SIM_ERR_FAULT) {
        GradeFinding f;
        grade_finding_init(c, &f, "launch-failed", ti, run);
        snprintf(f.file, sizeof f.file, "%s", c->r->student);
        f.line = grade_kernel_line(c->r, c->ex->kernel);
        snprintf(f.msg, sizeof f.msg, "the launch could not be made: %.900s", s->msg);
        grade_finding_add(c, ti, &f, NULL);
        stop_test(x, ti);
        return;
    }
    grade_record_races(c, s->races, s->nraces, ti, run);
    if (s->st == SIM_ERR_FAULT) {
        grade_record_fault(c, ti, run, &res->fault);
        /* an endless loop or a deadlock ends the same way in every run */
        if (!strcmp(res->fault.kind, "budget-exceeded") || !strcmp(res->fault.kind, "deadlock"))
            stop_test(x, ti);
        return;
    }
    GradeData in[GRADE_MAX_PARAMS], out[GRADE_MAX_PARAMS];
    grade_data_before(T, in);
    char why[600];
    if (!grade_data_after(T, res, out)) {
        grade_record_wrong(c, ti, run, "the output could not be read back");
    } else if (c->ex->check(T->t, in, out, why, sizeof why)) {
        T->runs_correct++;
        if (res->stats.atomics > T->max_atomics)
            T->max_atomics = res->stats.atomics;
    } else {
        grade_record_wrong(c, ti, run, why);
    }
    if (run == 0 && !T->sim_out_ok) { /* kept for the GPU's agreement */
        T->sim_out_ok = true;
        for (int b = 0; b < res->nbufs; b++) {
            T->sim_out[res->bufs[b].arg] = res->bufs[b].data;
            res->bufs[b].data = NULL;
        }
    }
}

static int fold(void *user, size_t task, int rc)
{
    (void)rc;
    Ctx *x = user;
    int ti = (int)(task / (size_t)x->runs), run = (int)(task % (size_t)x->runs);
    Slot *s = &x->slots[task % x->window];
    if (!x->c->tests[ti].stopped) {
        progress(x->c, ti, run);
        take(x, s, ti, run);
    }
    slot_free(s);
    return 0;
}

void grade_sim_runs(GradeCtx *c)
{
    int runs = c->o->runs, threads = c->o->threads < 1 ? 1 : c->o->threads;
    size_t ntasks = runs < 1 ? 0 : (size_t)c->ex->ntests * (size_t)runs;
    Ctx x = {.c = c, .window = pool_window(threads), .runs = runs};
    x.slots = calloc(x.window, sizeof *x.slots);
    x.stopped = calloc((size_t)c->ex->ntests + 1, sizeof *x.stopped);
    if (!x.slots || !x.stopped) { /* short of memory: one run at a time */
        free(x.slots);
        threads = 1;
        x.window = 1;
        x.slots = calloc(1, sizeof *x.slots);
    }
    if (x.slots && x.stopped && ntasks) {
        for (int ti = 0; ti < c->ex->ntests; ti++)
            atomic_init(&x.stopped[ti], c->tests[ti].stopped);
        pool_run(threads, ntasks, x.window, work, fold, &x);
    }
    free(x.slots);
    free(x.stopped);
    progress(c, -1, 0);
}
