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
#include "file_read.h"
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

/* Does test ti fit the memory ceiling?  Local and shared memory count for
 * the blocks the simulator holds resident at once (device_resident_blocks
 * of mod: blocks per SM x SMs, no more than the grid), as it allocates
 * them; global memory is the test's buffers.  Registers stay out: they are
 * the simulator's cost, not something a student asked for.  When the test
 * does not fit, a memory-limit finding names the largest part ("local
 * memory: 64 KiB per thread x 1024 threads x 8 resident blocks = 512 MiB
 * exceeds the 256 MiB limit") and the test is not run.  mod NULL (the PTX
 * did not load: every run will say why): nothing is checked. */
static bool memory_fits(GradeCtx *c, int ti, DeviceModule *mod)
{
    GradeTest *T = &c->tests[ti];
    uint64_t limit = c->o->max_memory ? c->o->max_memory : GRADE_MAX_MEMORY;
    DeviceLaunch cfg = {.grid = T->launch.grid, .block = T->launch.block, .smem = T->launch.smem};
    uint64_t blocks = mod ? device_resident_blocks(mod, c->entry, &cfg) : 0;
    if (!blocks)
        return true;
    uint64_t local, shared, global = 0;
    ptx_memory(c->ptx, c->entry, &local, &shared);
    shared += T->launch.smem;
    uint64_t threads = (uint64_t)T->launch.block.x * T->launch.block.y * T->launch.block.z;
    for (int i = 0; i < T->spec.nargs; i++)
        if (T->spec.args[i].is_buffer)
            global += T->spec.args[i].count * (uint64_t)argspec_type_size(T->spec.args[i].type);
    /* in 128-bit arithmetic: a student's sizes must not wrap past the check */
    unsigned __int128 lo = (unsigned __int128)local * threads * blocks, sh = (unsigned __int128)shared * blocks;
    unsigned __int128 need = lo + sh + global;
    if (need <= limit)
        return true;
    uint64_t lo64 = lo > UINT64_MAX ? UINT64_MAX : (uint64_t)lo, sh64 = sh > UINT64_MAX ? UINT64_MAX : (uint64_t)sh;
    char a[32], p[32], total[32], lim[32];
    file_size_text(limit, lim, sizeof lim);
    file_size_text(need > UINT64_MAX ? UINT64_MAX : (uint64_t)need, total, sizeof total);
    GradeFinding f;
    grade_finding_init(c, &f, "memory-limit", ti, -1);
    snprintf(f.backend, sizeof f.backend, "simulator");
    /* the replay: `warpsim run` under the grader's limit refuses it too (its
     * own count adds the registers); only this finding's replay sets one */
    grade_command(c, T, "run", 0, f.replay, sizeof f.replay);
    size_t rl = strlen(f.replay);
    snprintf(f.replay + rl, sizeof f.replay - rl, " --max-memory %" PRIu64, limit);
    snprintf(f.file, sizeof f.file, "%s", c->r->student);
    f.line = grade_kernel_line(c->r, c->ex->kernel);
    /* the largest part, as the issue words it; when it alone does not pass
     * the limit, the rest is named too */
    char what[400];
    uint64_t part = global;
    if (lo64 >= sh64 && lo64 >= global)
        snprintf(what, sizeof what, "local memory: %s per thread \u00d7 %" PRIu64 " threads \u00d7 %" PRIu64
                 " resident blocks = %s", file_size_text(local, a, sizeof a), threads, blocks,
                 file_size_text(part = lo64, p, sizeof p));
    else if (sh64 >= global)
        snprintf(what, sizeof what, "shared memory: %s per block \u00d7 %" PRIu64 " resident blocks = %s",
                 file_size_text(shared, a, sizeof a), blocks, file_size_text(part = sh64, p, sizeof p));
    else
        snprintf(what, sizeof what, "global memory: the test's buffers take %s", file_size_text(global, p, sizeof p));
    if (part > limit)
        snprintf(f.msg, sizeof f.msg, "%s exceeds the %s limit (%s in all); the test was not run", what, lim, total);
    else
        snprintf(f.msg, sizeof f.msg, "%s, which with the rest of its memory (%s in all) exceeds the %s limit; the "
                 "test was not run", what, total, lim);
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
    if (dev)
        device_set_printf_limit(dev, GRADE_MAX_PRINTF);
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
/* What the max-cycles rubric says of a timed run besides its cycles: the
 * shared memory's bank-conflict replays and the warps' commonest wait. */
static void note_timing(GradeTest *T, const DeviceTiming *tm)
{
    T->smem_wavefronts = tm->smem_wavefronts;
    T->bank_replays = tm->bank_conflict_replays;
    T->top_stall = -1;
    T->top_stall_share = 0;
    uint64_t all = 0, top = 0;
    for (int k = 0; k < DEVICE_STALL_COUNT; k++) {
        all += tm->stall[k];
        if (k != DEVICE_STALL_SELECTED && tm->stall[k] > top) {
            top = tm->stall[k];
            T->top_stall = k;
        }
    }
    if (all)
        T->top_stall_share = (double)top / (double)all;
    else
        T->top_stall = -1;
}

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
        /* an endless loop, a deadlock or a flood of printf ends the same way
         * in every run */
        if (!strcmp(res->fault.kind, "budget-exceeded") || !strcmp(res->fault.kind, "deadlock") ||
            !strcmp(res->fault.kind, "printf-limit"))
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
            note_timing(T, &res->stats.timing);
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
    /* a test past the ceiling is stopped before its first run; the
     * simulator says how many blocks it would hold resident */
    SimError err;
    DeviceModule *mod = NULL;
    Device *dev = device_open_sim(c->ex->arch, &err);
    if (dev && device_load_ptx(dev, c->r->student, c->ptx, c->ptx_len, &mod, &err))
        mod = NULL;
    for (int ti = 0; ti < c->ex->ntests; ti++)
        memory_fits(c, ti, mod);
    device_close(dev);
    if (x.slots && x.stopped && ntasks) {
        for (int ti = 0; ti < c->ex->ntests; ti++)
            atomic_init(&x.stopped[ti], c->tests[ti].stopped);
        pool_run(threads, ntasks, x.window, work, fold, &x);
    }
    free(x.slots);
    free(x.stopped);
    progress(c, -1, 0);
}
