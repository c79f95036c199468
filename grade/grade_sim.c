/* grade_sim.c: the runs of a grading in the simulator -- every test K
 * times, run 0 with the default schedule and atomic order and the others
 * with seeded adversarial and random ones, race checking and the
 * instruction budget on.  The runs go side by side on worker threads
 * (pool.h), each on a fresh simulator, and are taken into the report on
 * the grading thread in (test, run) order: what goes wrong is handed to
 * grade_finding.c, what goes right is counted for the scores (grade_int.h),
 * the same with any number of threads. */
#include "grade_int.h"

#include <inttypes.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "argspec.h"
#include "pool.h"

/* The bytes a declaration line of state space `space` (".local",
 * ".shared") between p and end declares with [N], summed. */
static uint64_t declared(const char *p, const char *end, const char *space)
{
    uint64_t total = 0;
    size_t k = strlen(space);
    for (const char *q = p; q < end && (q = strstr(q, space)) && q < end; q += k) {
        const char *nl = memchr(q, '\n', (size_t)(end - q));
        const char *br = memchr(q, '[', (size_t)((nl ? nl : end) - q));
        if (br && (q == p || q[-1] == ' ' || q[-1] == '\t' || q[-1] == '\n'))
            total += strtoull(br + 1, NULL, 10);
    }
    return total;
}

/* Local memory per thread and shared memory per block that the PTX
 * declares for kernel entry (its own body and the module's scope). */
static void ptx_memory(const char *ptx, const char *entry, uint64_t *local, uint64_t *shared)
{
    *local = *shared = 0;
    const char *first = strstr(ptx, ".entry");
    const char *f2 = strstr(ptx, ".func");
    if (!first || (f2 && f2 < first))
        first = f2;
    if (first)
        *shared += declared(ptx, first, ".shared");
    size_t n = strlen(entry);
    for (const char *p = ptx; (p = strstr(p, ".entry")); p += 6) {
        const char *name = p + 6;
        while (*name == ' ' || *name == '\t')
            name++;
        if (strncmp(name, entry, n) || (name[n] != '(' && name[n] != ' ' && name[n] != '\n'))
            continue;
        const char *end = strstr(name, ".entry");
        if (!end)
            end = name + strlen(name);
        *local += declared(name, end, ".local");
        *shared += declared(name, end, ".shared");
        return;
    }
}

static void human(uint64_t b, char *buf, size_t cap)
{
    if (b >= (1ull << 30))
        snprintf(buf, cap, "%.1f GB", b / (double)(1ull << 30));
    else if (b >= (1ull << 20))
        snprintf(buf, cap, "%.1f MB", b / (double)(1ull << 20));
    else if (b >= 1024)
        snprintf(buf, cap, "%.1f KB", b / 1024.0);
    else
        snprintf(buf, cap, "%" PRIu64 " bytes", b);
}

/* Does test ti fit the memory ceiling?  When not, a memory-limit finding
 * says how much it would take, and the test is not run. */
static bool memory_fits(GradeCtx *c, int ti)
{
    GradeTest *T = &c->tests[ti];
    uint64_t limit = c->o->max_memory ? c->o->max_memory : GRADE_MAX_MEMORY;
    uint64_t local, shared, global = 0;
    ptx_memory(c->ptx, c->entry, &local, &shared);
    shared += T->launch.smem;
    uint64_t threads = (uint64_t)T->launch.block.x * T->launch.block.y * T->launch.block.z;
    uint64_t blocks = (uint64_t)T->launch.grid.x * T->launch.grid.y * T->launch.grid.z;
    for (int i = 0; i < T->spec.nargs; i++)
        if (T->spec.args[i].is_buffer)
            global += T->spec.args[i].count * (uint64_t)argspec_type_size(T->spec.args[i].type);
    /* in 128-bit arithmetic: a student's sizes must not wrap past the check */
    unsigned __int128 need = (unsigned __int128)local * threads * blocks + (unsigned __int128)shared * blocks + global;
    if (need <= limit)
        return true;
    char l[32], total[32], lim[32], sh[32], gl[32];
    human(local, l, sizeof l);
    human(need > UINT64_MAX ? UINT64_MAX : (uint64_t)need, total, sizeof total);
    human(limit, lim, sizeof lim);
    human(shared * blocks, sh, sizeof sh);
    human(global, gl, sizeof gl);
    GradeFinding f;
    grade_finding_init(c, &f, "memory-limit", ti, -1);
    snprintf(f.backend, sizeof f.backend, "simulator");
    f.replay[0] = 0;
    snprintf(f.file, sizeof f.file, "%s", c->r->student);
    f.line = grade_kernel_line(c->r, c->ex->kernel);
    snprintf(f.msg, sizeof f.msg, "local memory: %s per thread x %" PRIu64 " threads x %" PRIu64 " blocks, with %s of "
             "shared and %s of global memory, is %s: it exceeds the %s limit, so the test was not run", l, threads,
             blocks, sh, gl, total, lim);
    grade_finding_add(c, ti, &f, NULL);
    T->stopped = true;
    return false;
}

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
    spec.timing = run == 0 && grade_exercise_timed(c->ex); /* a MAX_CYCLES rubric item */
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
        /* a kernel that reaches an instruction the simulator lacks is refused
         * at launch (the module loads per kernel): say so as such */
        bool unsup = s->st == SIM_ERR_UNSUPPORTED;
        grade_finding_init(c, &f, unsup ? "unsupported" : "launch-failed", ti, run);
        snprintf(f.file, sizeof f.file, "%s", c->r->student);
        f.line = grade_kernel_line(c->r, c->ex->kernel);
        snprintf(f.msg, sizeof f.msg, "%s: %.900s",
                 unsup ? "the simulator cannot run this kernel" : "the launch could not be made", s->msg);
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
        if (run == 0 && res->stats.timing.on) {
            T->timed = true;
            T->cycles = res->stats.cycles;
        }
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
    for (int ti = 0; ti < c->ex->ntests; ti++)
        memory_fits(c, ti); /* a test past the ceiling is stopped before its first run */
    if (x.slots && x.stopped && ntasks) {
        for (int ti = 0; ti < c->ex->ntests; ti++)
            atomic_init(&x.stopped[ti], c->tests[ti].stopped);
        pool_run(threads, ntasks, x.window, work, fold, &x);
    }
    free(x.slots);
    free(x.stopped);
    progress(c, -1, 0);
}
